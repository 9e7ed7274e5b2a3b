/* SPDX-License-Identifier: MIT */
/*
 * bench_exec - what the exec supervisor (pty/pty_supervise.h) adds to each
 * program a session runs: fork + execv + waitpid of /bin/true, each
 * iteration timed alone with CLOCK_MONOTONIC, run six ways:
 *
 *   direct       the loop alone;
 *   floor        under the least a seccomp user-notification supervisor
 *                can do (bench_exec notify): receive, answer CONTINUE - the
 *                kernel's mechanism, without the guard's work;
 *   supervised   inside `maelys-pty --policy P -c LOOP`, P allowing every
 *                line and every exec: each execve waits in the kernel until
 *                the guard has read it, decided allow_exec(P) and answered;
 *   strace       under `strace -f -qq -e trace=execve -o /dev/null`
 *                (ptrace: the usual way to watch every exec of a tree);
 *   strace-bpf   the same with --seccomp-bpf (ptrace stops only at execve),
 *                for reference, when this strace has it;
 *   audited      as root: supervised by a guard with a configuration and an
 *                audit log on tmpfs (/dev/shm), one record per exec.
 *
 * Three roles:
 *
 *   bench_exec loop [-w WARM] [-o FILE] [-s PREFIX] N PROG [ARG ...]
 *       WARM (default 200) untimed iterations, then N timed ones.  Writes
 *       the N times in ns to FILE, one a line, then "monitor NAME NS": the
 *       CPU time its monitor (the nearest ancestor named maelys-pty,
 *       strace or exec-notify) spent over the timed iterations; without
 *       -o, prints their median, p90, p99 and mean.  With -s, each
 *       iteration waits for a byte on the FIFO PREFIX.go first and writes
 *       one to PREFIX.done after.  Exits 1 if PROG fails once (a refused
 *       exec).
 *   bench_exec notify [LOOP OPTIONS] N PROG [ARG ...]
 *       runs the loop under the floor's supervisor.
 *   bench_exec [-n N] [-w WARM] [-g GUARD]
 *       the driver: starts the loop every way at once (N = 10000, WARM =
 *       200), and steps them in lockstep through the FIFOs - one iteration
 *       of each way in turn, the others asleep, in a new random order each
 *       time - so that the load of a shared machine, which drifts by the
 *       second, hits every way alike.  GUARD defaults to the build's
 *       maelys-pty (meson compiles its path in).
 *
 * The machine is shared and noisy: compare the rows of one run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef BENCH_EXEC_GUARD
#define BENCH_EXEC_GUARD ""
#endif

#define LOOP_PROG      "/bin/true"
#define TARGET_US      60.0
#define MAX_N          10000000LL
#define STEP_TIMEOUT_S 120 /* one iteration of one way, start-up included */
#define STRACE_ARGS    "-f", "-qq", "-e", "trace=execve", "-o", "/dev/null"

enum way { DIRECT, FLOOR, SUPERVISED, AUDITED, STRACE_BPF, STRACE, NWAYS };

static const char *const way_name[NWAYS] = {"direct",
					    "seccomp-notify floor",
					    "supervised",
					    "supervised + audit log",
					    "strace --seccomp-bpf",
					    "strace"};

static const char *const way_what[NWAYS] = {
    "the loop alone",
    "bench_exec notify LOOP: receive, answer CONTINUE, nothing else",
    "maelys-pty --policy P -c LOOP",
    "maelys-pty --config C -c LOOP, audit log on /dev/shm",
    "strace --seccomp-bpf -f -qq -e trace=execve -o /dev/null LOOP",
    "strace -f -qq -e trace=execve -o /dev/null LOOP"};

/* The floor's name (comm), so that its loop finds it as its monitor. */
#define FLOOR_COMM "exec-notify"

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* A count in [lo, hi] from s, or -1 (STYLE.md 6: strtoll, checked). */
static long long
parse_count(const char *s, long long lo, long long hi)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
		return -1;
	return v;
}

/* Percentile p (0-100) of sorted v[0..n), in us. */
static double
pct_us(const uint64_t *v, size_t n, unsigned p)
{
	return (double)v[n * p / 100] / 1000.0;
}

static double
mean_us(const uint64_t *v, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += (double)v[i];
	return sum / (double)n / 1000.0;
}

/* ------------------------------------------------------------------ */
/* The loop role. */

/* The nearest of this process's ancestors (up to four up) that is a
 * monitor - the guard (maelys-pty) or strace - or 0; its name into name. */
static pid_t
monitor_find(char *name, size_t cap)
{
	pid_t pid = getppid();
	int up;

	for (up = 0; up < 4 && pid > 1; up++) {
		char path[64], buf[512], *lp, *rp;
		unsigned long long ppid;
		FILE *f;
		size_t n;

		snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
		if ((f = fopen(path, "r")) == NULL)
			return 0;
		n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[n] = '\0';
		/* "PID (COMM) STATE PPID ...": COMM may hold spaces and ')' */
		lp = strchr(buf, '(');
		rp = strrchr(buf, ')');
		if (lp == NULL || rp == NULL || rp < lp ||
		    sscanf(rp + 1, " %*c %llu", &ppid) != 1)
			return 0;
		*rp = '\0';
		if (strcmp(lp + 1, "maelys-pty") == 0 ||
		    strcmp(lp + 1, "strace") == 0 ||
		    strcmp(lp + 1, FLOOR_COMM) == 0) {
			snprintf(name, cap, "%s", lp + 1);
			return pid;
		}
		pid = (pid_t)ppid;
	}
	return 0;
}

/* CPU time the process has run, in ns (its first thread's schedstat: the
 * guard and strace are single-threaded), or 0 when unknown. */
static uint64_t
monitor_cpu_ns(pid_t pid)
{
	unsigned long long ns = 0;
	char path[64];
	FILE *f;

	if (pid <= 0)
		return 0;
	snprintf(path, sizeof path, "/proc/%d/schedstat", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return ns;
}

/* Opens PREFIX.go and PREFIX.done (the driver holds both open read-write,
 * so neither open blocks).  0, or -1. */
static int
loop_sync_open(const char *prefix, int *go, int *done)
{
	char path[PATH_MAX];

	snprintf(path, sizeof path, "%s.go", prefix);
	if ((*go = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	snprintf(path, sizeof path, "%s.done", prefix);
	if ((*done = open(path, O_WRONLY | O_CLOEXEC)) < 0)
		return -1;
	return 0;
}

/* One byte in (wait = true: from go) or out (to done).  0, or -1 (the
 * driver went away). */
static int
loop_sync(int fd, bool wait)
{
	char b = 1;
	ssize_t r;

	if (fd < 0)
		return 0;
	do
		r = wait ? read(fd, &b, 1) : write(fd, &b, 1);
	while (r < 0 && errno == EINTR);
	return r == 1 ? 0 : -1;
}

static int
loop_write(const char *out, const uint64_t *t, long long n, const char *monitor,
	   uint64_t cpu)
{
	FILE *f = fopen(out, "w");
	long long i;

	for (i = 0; f != NULL && i < n; i++)
		if (fprintf(f, "%llu\n", (unsigned long long)t[i]) < 0)
			break;
	/* the trailer: the monitor's CPU over the timed iterations */
	if (f != NULL && i == n &&
	    fprintf(f, "monitor %s %llu\n", monitor[0] != '\0' ? monitor : "-",
		    (unsigned long long)cpu) < 0)
		i = 0;
	if (f == NULL || i < n || fclose(f) != 0) {
		fprintf(stderr, "bench_exec loop: cannot write %s\n", out);
		return -1;
	}
	return 0;
}

static int
loop_main(int argc, char **argv)
{
	const char *out = NULL, *prefix = NULL;
	long long n, warm = 200, i;
	uint64_t *t, cpu0 = 0, cpu1;
	char monitor[32] = "";
	pid_t mpid = monitor_find(monitor, sizeof monitor);
	int opt, go = -1, done = -1, rc = 0;

	/* "+": options end at N, so PROG's own arguments stay PROG's */
	while ((opt = getopt(argc, argv, "+w:o:s:")) != -1) {
		switch (opt) {
		case 'w':
			if ((warm = parse_count(optarg, 0, MAX_N)) < 0)
				goto usage;
			break;
		case 'o':
			out = optarg;
			break;
		case 's':
			prefix = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (argc - optind < 2 || (n = parse_count(argv[optind], 1, MAX_N)) < 0)
		goto usage;
	argv += optind + 1; /* argv[0] is PROG, then its arguments */
	if (prefix != NULL && loop_sync_open(prefix, &go, &done) != 0) {
		fprintf(stderr,
			"bench_exec loop: cannot open %s.go/.done: %s\n",
			prefix, strerror(errno));
		return 1;
	}
	if ((t = calloc((size_t)n, sizeof *t)) == NULL) {
		fprintf(stderr, "bench_exec loop: no memory for %lld times\n",
			n);
		return 1;
	}
	for (i = 0; i < warm + n; i++) {
		uint64_t t0;
		pid_t pid, w;
		int st;

		if (loop_sync(go, true) != 0) {
			fprintf(stderr, "bench_exec loop: the driver went "
					"away\n");
			rc = 1;
			goto out;
		}
		if (i == warm)
			cpu0 = monitor_cpu_ns(mpid);
		t0 = now_ns();
		pid = fork();
		if (pid == 0) {
			execv(argv[0], argv);
			_exit(127);
		}
		if (pid < 0) {
			perror("bench_exec loop: fork");
			rc = 1;
			goto out;
		}
		while ((w = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
			;
		if (i >= warm)
			t[i - warm] = now_ns() - t0;
		if (w != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			fprintf(stderr,
				"bench_exec loop: %s failed at iteration %lld "
				"(status %#x): a refused exec?\n",
				argv[0], i, w == pid ? (unsigned)st : 0u);
			rc = 1;
			goto out;
		}
		if (loop_sync(done, false) != 0) {
			rc = 1;
			goto out;
		}
	}
	cpu1 = monitor_cpu_ns(mpid);
	if (cpu0 == 0 || cpu1 < cpu0)
		cpu0 = cpu1 = 0; /* no monitor, or unknown */
	if (out != NULL) {
		rc = loop_write(out, t, n, monitor, cpu1 - cpu0) != 0;
	} else {
		qsort(t, (size_t)n, sizeof t[0], cmp_u64);
		printf("fork+exec+wait of %s, %lld times: median %.1f us   "
		       "p90 %.1f us   p99 %.1f us   mean %.1f us\n",
		       argv[0], n, pct_us(t, (size_t)n, 50),
		       pct_us(t, (size_t)n, 90), pct_us(t, (size_t)n, 99),
		       mean_us(t, (size_t)n));
		if (cpu1 > cpu0)
			printf("%s's CPU per iteration: %.1f us\n", monitor,
			       (double)(cpu1 - cpu0) / 1000.0 / (double)n);
	}
out:
	free(t);
	return rc;
usage:
	fprintf(stderr, "usage: bench_exec loop [-w WARM] [-o FILE] [-s "
			"PREFIX] N PROG [ARG ...]\n");
	return 2;
}

/* ------------------------------------------------------------------ */
/* The floor: the least a seccomp user-notification supervisor can do. */

/* execve and execveat notify, everything else is allowed.  No architecture
 * check: a benchmark's filter, and nothing here makes 32-bit calls. */
static int
notify_install(void)
{
	struct sock_filter f[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, nr)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execve, 2, 0),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execveat, 1, 0),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
	};
	struct sock_fprog prog = {sizeof f / sizeof f[0], f};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			    SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
}

/* Sends fd over sock (SCM_RIGHTS), or receives one (fd < 0).  Returns the
 * fd, or -1. */
static int
notify_pass(int sock, int fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	char b = 0;
	struct iovec iov = {&b, 1};
	struct msghdr msg;
	struct cmsghdr *c;

	memset(&msg, 0, sizeof msg);
	memset(&ctl, 0, sizeof ctl);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = ctl.buf;
	msg.msg_controllen = sizeof ctl.buf;
	if (fd >= 0) {
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof fd);
		return sendmsg(sock, &msg, 0) == 1 ? fd : -1;
	}
	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != 1 ||
	    (c = CMSG_FIRSTHDR(&msg)) == NULL || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof fd);
	return fd;
}

/* bench_exec notify LOOP-ARGS: runs `bench_exec loop LOOP-ARGS` under a
 * supervisor that answers every exec CONTINUE unread and undecided - what
 * the guard's supervision would cost with nothing to do.  Returns the
 * loop's exit status. */
static int
notify_main(int argc, char **argv)
{
	char self[PATH_MAX], **loop = calloc((size_t)argc + 2, sizeof *loop);
	int sv[2], listener, st = 0, i;
	pid_t pid;

	if (loop == NULL || realpath("/proc/self/exe", self) == NULL ||
	    socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) != 0) {
		perror("bench_exec notify");
		return 1;
	}
	/* argv is "notify LOOP-ARGS": the loop's is "self loop LOOP-ARGS" */
	loop[0] = self;
	loop[1] = "loop";
	for (i = 1; i < argc; i++)
		loop[i + 1] = argv[i];
	pid = fork();
	if (pid == 0) {
		int fd = notify_install();

		if (fd < 0 || notify_pass(sv[1], fd) < 0) {
			perror("bench_exec notify: the filter");
			_exit(126);
		}
		close(fd);
		execv(self, loop);
		_exit(127);
	}
	free(loop);
	close(sv[1]);
	listener = pid < 0 ? -1 : notify_pass(sv[0], -1);
	close(sv[0]);
	if (listener < 0) {
		fprintf(stderr, "bench_exec notify: no listener\n");
		if (pid > 0)
			waitpid(pid, NULL, 0);
		return 1;
	}
	(void)prctl(PR_SET_NAME, FLOOR_COMM, 0, 0, 0);
	for (;;) {
		struct pollfd p = {listener, POLLIN, 0};
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;
		int k = poll(&p, 1, 250);

		if (k > 0 && (p.revents & POLLIN)) {
			memset(&req, 0, sizeof req); /* the kernel wants it 0 */
			if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) !=
			    0)
				continue; /* gone meanwhile, or a signal */
			memset(&resp, 0, sizeof resp);
			resp.id = req.id;
			resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
			(void)ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
			continue;
		}
		if (k < 0 && errno != EINTR)
			break;
		/* a quiet while, or no task left on the filter (POLLHUP) */
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return 1;
}

/* ------------------------------------------------------------------ */
/* The driver. */

struct way_run {
	bool on;
	char why[200];       /* why not, when it is off */
	pid_t pid;           /* the loop, the guard or strace; 0 once reaped */
	int status;          /* its exit status, once reaped */
	int go, done;        /* our read-write ends of PREFIX.go/.done, or -1 */
	char prefix[300];    /* tmpdir/W: the FIFOs' prefix */
	char out[300];       /* tmpdir/W.times: where the loop writes */
	uint64_t *ns;        /* the n times, in iteration order */
	uint64_t monitor_ns; /* the monitor's CPU over them, or 0 */
};

static char tmpdir[] = "/tmp/bench_exec.XXXXXX";
static char shmdir[] = "/dev/shm/bench_exec.XXXXXX";

/* Writes `text` to path with mode `mode`; 0, or -1. */
static int
put_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	if (f == NULL || fputs(text, f) < 0) {
		if (f != NULL)
			fclose(f);
		return -1;
	}
	if (fclose(f) != 0 || chmod(path, mode) != 0)
		return -1;
	return 0;
}

/* Starts argv with stdin from /dev/null and stdout to `out` (NULL: ours).
 * Returns its pid, or -1. */
static pid_t
spawn(char *const *argv, const char *out)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (freopen("/dev/null", "r", stdin) == NULL ||
		    (out != NULL && freopen(out, "w", stdout) == NULL))
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "bench_exec: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	return pid;
}

static int
exit_status(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Runs argv to its end.  Returns its exit status, or -1. */
static int
run(char *const *argv, const char *out)
{
	pid_t pid = spawn(argv, out), w;
	int st;

	if (pid < 0)
		return -1;
	while ((w = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	return w == pid ? exit_status(st) : -1;
}

/* One iteration of way r: a byte to go, then wait for its byte on done.
 * 0, or -1 (the way ended, or hung for STEP_TIMEOUT_S). */
static int
step(struct way_run *r)
{
	char b = 1;
	int waited = 0;
	ssize_t k;

	while ((k = write(r->go, &b, 1)) < 0 && errno == EINTR)
		;
	if (k != 1)
		return -1;
	for (;;) {
		struct pollfd p = {r->done, POLLIN, 0};
		int ready = poll(&p, 1, 1000);

		if (ready > 0) {
			if (read(r->done, &b, 1) == 1)
				return 0;
			if (errno != EINTR)
				return -1;
			continue;
		}
		if (ready < 0 && errno != EINTR)
			return -1;
		/* no answer yet: the way may have failed (we hold done's
		 * write end too, so its end is no EOF) */
		if (waitpid(r->pid, &r->status, WNOHANG) == r->pid) {
			r->pid = 0;
			return -1;
		}
		if (++waited >= STEP_TIMEOUT_S)
			return -1;
	}
}

/* Reads way r's n times and monitor trailer from r->out.  0, or -1. */
static int
take_times(struct way_run *r, size_t n)
{
	FILE *f = fopen(r->out, "r");
	unsigned long long v, cpu = 0;
	char name[32];
	size_t i = 0;

	if (f == NULL)
		return -1;
	while (i < n && fscanf(f, "%llu", &v) == 1)
		r->ns[i++] = v;
	if (fscanf(f, " monitor %31s %llu", name, &cpu) == 2)
		r->monitor_ns = cpu;
	fclose(f);
	return i == n ? 0 : -1;
}

static bool
have_strace(void)
{
	char *const argv[] = {"strace", "-V", NULL};

	return run(argv, "/dev/null") == 0;
}

/* Whether this strace has --seccomp-bpf (strace >= 5.3). */
static bool
strace_has_bpf(void)
{
	char *const argv[] = {"strace", "--seccomp-bpf", STRACE_ARGS, LOOP_PROG,
			      NULL};

	return run(argv, "/dev/null") == 0;
}

/* Whether the floor runs here (seccomp user notification, CONTINUE). */
static bool
floor_works(char *self)
{
	char *const argv[] = {self, "notify", "-w", "0", "1", LOOP_PROG, NULL};

	return run(argv, "/dev/null") == 0;
}

/* The deployed guard's configuration in shmdir (tmpfs): the permissive
 * policy, an audit log and its key, no syslog.  The configuration must be
 * root's, so this is for root only.  0, or -1 with r->why set. */
static int
audited_setup(struct way_run *r, const char *policy_text, char *conf,
	      size_t cap, char *log, size_t logcap)
{
	char policy[300], key[300], text[1200];

	if (geteuid() != 0) {
		snprintf(r->why, sizeof r->why,
			 "needs root: the configuration must be root's");
		return -1;
	}
	if (mkdtemp(shmdir) == NULL) {
		snprintf(r->why, sizeof r->why, "cannot make %s: %s", shmdir,
			 strerror(errno));
		return -1;
	}
	snprintf(policy, sizeof policy, "%s/allow-all.dl", shmdir);
	snprintf(key, sizeof key, "%s/audit.key", shmdir);
	snprintf(log, logcap, "%s/audit.log", shmdir);
	snprintf(conf, cap, "%s/maelys-pty.conf", shmdir);
	snprintf(text, sizeof text,
		 "policy = %s\naudit_log = %s\naudit_key = %s\nsyslog = off\n",
		 policy, log, key);
	if (put_file(policy, policy_text, 0644) != 0 ||
	    put_file(key, "bench-key-0123456789abcdef0123456789abcdef\n",
		     0600) != 0 ||
	    put_file(conf, text, 0644) != 0) {
		snprintf(r->why, sizeof r->why, "cannot write in %s", shmdir);
		return -1;
	}
	return 0;
}

/* Whether path is one word to the guard's scanner, which refuses quoting. */
static bool
plain_path(const char *path)
{
	const char *p;

	for (p = path; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("/._-+", *p) != NULL))
			return false;
	return true;
}

static void
remove_dir(const char *dir)
{
	char *const argv[] = {"rm", "-rf", "--", (char *)dir, NULL};

	if (dir[strlen(dir) - 1] != 'X') /* mkdtemp made it */
		(void)run(argv, NULL);
}

/* Makes way r's FIFOs and opens our ends.  0, or -1. */
static int
way_fifos(struct way_run *r, int w)
{
	char path[400];

	snprintf(r->prefix, sizeof r->prefix, "%s/%d", tmpdir, w);
	snprintf(r->out, sizeof r->out, "%s/%d.times", tmpdir, w);
	snprintf(path, sizeof path, "%s.go", r->prefix);
	if (mkfifo(path, 0600) != 0 ||
	    (r->go = open(path, O_RDWR | O_CLOEXEC)) < 0)
		return -1;
	snprintf(path, sizeof path, "%s.done", r->prefix);
	if (mkfifo(path, 0600) != 0 ||
	    (r->done = open(path, O_RDWR | O_CLOEXEC)) < 0)
		return -1;
	return 0;
}

/* Ends way r: closing go makes its loop's next read see EOF; then SIGTERM
 * (the guard passes it on to the loop; strace kills what it started). */
static void
way_stop(struct way_run *r)
{
	if (r->go >= 0)
		close(r->go);
	r->go = -1;
	if (r->pid > 0) {
		(void)kill(r->pid, SIGTERM);
		while (waitpid(r->pid, &r->status, 0) < 0 && errno == EINTR)
			;
		r->pid = 0;
	}
}

static void
report_row(enum way w, struct way_run *r, size_t n)
{
	if (!r->on) {
		printf("  %-24s skipped: %s\n", way_name[w], r->why);
		return;
	}
	printf("  %-24s %8.1f %8.1f %8.1f %8.1f", way_name[w],
	       pct_us(r->ns, n, 50), pct_us(r->ns, n, 90), pct_us(r->ns, n, 99),
	       mean_us(r->ns, n));
	if (r->monitor_ns > 0)
		printf("  %10.1f\n",
		       (double)r->monitor_ns / 1000.0 / (double)n);
	else
		printf("  %10s\n", "-");
}

static int
driver_main(int argc, char **argv)
{
	static const char policy_text[] = "allow(C) :- command(C).\n"
					  "allow_exec(P) :- exec_path(P).\n";
	static struct way_run ways[NWAYS];
	const char *guard = BENCH_EXEC_GUARD;
	long long n = 10000, warm = 200, i;
	char self[PATH_MAX], policy[300], conf[400], log[400], nbuf[32],
	    wbuf[32], cmd[2 * PATH_MAX];
	double med[NWAYS], paired[NWAYS];
	int64_t *diff = NULL;
	uint64_t rng = 0x9e3779b97f4a7c15u; /* fixed: runs step alike */
	int opt, w, k, rc = 0;

	while ((opt = getopt(argc, argv, "n:w:g:")) != -1) {
		switch (opt) {
		case 'n':
			if ((n = parse_count(optarg, 1, MAX_N)) < 0)
				goto usage;
			break;
		case 'w':
			if ((warm = parse_count(optarg, 0, MAX_N)) < 0)
				goto usage;
			break;
		case 'g':
			guard = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc)
		goto usage;
	if (guard[0] == '\0' || access(guard, X_OK) != 0) {
		fprintf(stderr, "bench_exec: no guard at '%s' (-g GUARD)\n",
			guard);
		return 2;
	}
	if (realpath("/proc/self/exe", self) == NULL || !plain_path(self) ||
	    mkdtemp(tmpdir) == NULL) {
		fprintf(stderr,
			"bench_exec: cannot find myself, or my path needs "
			"quoting (the guard's scanner refuses it), or cannot "
			"make %s\n",
			tmpdir);
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	snprintf(nbuf, sizeof nbuf, "%lld", n);
	snprintf(wbuf, sizeof wbuf, "%lld", warm);
	snprintf(policy, sizeof policy, "%s/allow-all.dl", tmpdir);
	for (w = 0; w < NWAYS; w++) {
		ways[w].on = true;
		ways[w].go = ways[w].done = -1;
	}
	if (put_file(policy, policy_text, 0644) != 0) {
		fprintf(stderr, "bench_exec: cannot write %s\n", policy);
		rc = 1;
		goto done;
	}
	if (!have_strace()) {
		ways[STRACE].on = false;
		snprintf(ways[STRACE].why, sizeof ways[STRACE].why,
			 "no strace in PATH (apt-get install strace)");
	}
	if (!strace_has_bpf()) {
		ways[STRACE_BPF].on = false;
		snprintf(ways[STRACE_BPF].why, sizeof ways[STRACE_BPF].why,
			 ways[STRACE].on ? "this strace has no --seccomp-bpf"
					 : "no strace in PATH");
	}
	if (!floor_works(self)) {
		ways[FLOOR].on = false;
		snprintf(ways[FLOOR].why, sizeof ways[FLOOR].why,
			 "no seccomp user notification here");
	}
	if (audited_setup(&ways[AUDITED], policy_text, conf, sizeof conf, log,
			  sizeof log) != 0)
		ways[AUDITED].on = false;

	printf("fork+exec+wait of %s, %lld timed iterations per way after %lld "
	       "of warm-up; the ways run at once, stepped in lockstep (one "
	       "iteration of each in turn, in a new random order each time)\n",
	       LOOP_PROG, n, warm);
	for (w = 0; w < NWAYS; w++)
		printf("  %-24s %s\n", way_name[w], way_what[w]);
	fflush(stdout);
	for (w = 0; w < NWAYS; w++) {
		struct way_run *r = &ways[w];
		char *lp[] = {self, "loop",    "-w", wbuf,      "-o", r->out,
			      "-s", r->prefix, nbuf, LOOP_PROG, NULL};
		char *fl[] = {self, "notify",  "-w", wbuf,      "-o", r->out,
			      "-s", r->prefix, nbuf, LOOP_PROG, NULL};
		char *sup[] = {(char *)guard, "--policy", policy,
			       "-c",          cmd,        NULL};
		char *aud[] = {(char *)guard, "--config", conf,
			       "-c",          cmd,        NULL};
		char *st[] = {"strace", STRACE_ARGS, self,   "loop", "-w",
			      wbuf,     "-o",        r->out, "-s",   r->prefix,
			      nbuf,     LOOP_PROG,   NULL};
		char *sb[] = {"strace",    "--seccomp-bpf",
			      STRACE_ARGS, self,
			      "loop",      "-w",
			      wbuf,        "-o",
			      r->out,      "-s",
			      r->prefix,   nbuf,
			      LOOP_PROG,   NULL};
		char *const *argvs[NWAYS] = {lp, fl, sup, aud, sb, st};

		if (!r->on)
			continue;
		if ((r->ns = calloc((size_t)n, sizeof(uint64_t))) == NULL ||
		    way_fifos(r, w) != 0) {
			fprintf(stderr, "bench_exec: cannot prepare %s: %s\n",
				way_name[w], strerror(errno));
			rc = 1;
			goto done;
		}
		/* the -c line of the two supervised ways: plain words only
		 * (plain_path checked self; tmpdir is mkdtemp's) */
		snprintf(cmd, sizeof cmd, "%s loop -w %s -o %s -s %s %s %s",
			 self, wbuf, r->out, r->prefix, nbuf, LOOP_PROG);
		if ((r->pid = spawn(argvs[w], NULL)) < 0) {
			fprintf(stderr, "bench_exec: cannot fork: %s\n",
				strerror(errno));
			rc = 1;
			goto done;
		}
	}
	for (i = 0; i < warm + n; i++) {
		int order[NWAYS];

		/* a new order each iteration (Fisher-Yates, xorshift64): the
		 * deferred work of one way's iteration (strace's, the exit's)
		 * falls on whichever runs next, so no way may always follow
		 * the same one - a rotation would keep each one's
		 * predecessor */
		for (k = 0; k < NWAYS; k++)
			order[k] = k;
		for (k = NWAYS - 1; k > 0; k--) {
			int j, tmp;

			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			j = (int)(rng % (uint64_t)(k + 1));
			tmp = order[k];
			order[k] = order[j];
			order[j] = tmp;
		}
		for (k = 0; k < NWAYS; k++) {
			w = order[k];
			if (ways[w].on && step(&ways[w]) != 0) {
				fprintf(stderr,
					"bench_exec: the %s way stopped at "
					"iteration %lld (%s %d)\n",
					way_name[w], i,
					ways[w].pid == 0 ? "exit status"
							 : "running, pid",
					ways[w].pid == 0
					    ? exit_status(ways[w].status)
					    : (int)ways[w].pid);
				rc = 1;
				goto done;
			}
		}
	}
	for (w = 0; w < NWAYS; w++) {
		struct way_run *r = &ways[w];

		if (!r->on)
			continue;
		while (waitpid(r->pid, &r->status, 0) < 0 && errno == EINTR)
			;
		r->pid = 0;
		if (exit_status(r->status) != 0 ||
		    take_times(r, (size_t)n) != 0) {
			fprintf(stderr,
				"bench_exec: the %s way failed (status %d)\n",
				way_name[w], exit_status(r->status));
			rc = 1;
			goto done;
		}
	}
	if (ways[AUDITED].on) {
		char *verify[] = {(char *)guard, "--verify-log", log,
				  "--config",    conf,           NULL};

		if (run(verify, "/dev/null") != 0) {
			fprintf(stderr, "bench_exec: the audit log of the "
					"audited way does not verify\n");
			rc = 1;
			goto done;
		}
	}

	/* paired: iteration i of each way ran next to iteration i of direct */
	if ((diff = calloc((size_t)n, sizeof *diff)) == NULL) {
		rc = 1;
		goto done;
	}
	for (w = 0; w < NWAYS; w++) {
		if (!ways[w].on)
			continue;
		for (i = 0; i < n; i++)
			diff[i] = (int64_t)ways[w].ns[i] -
				  (int64_t)ways[DIRECT].ns[i];
		qsort(diff, (size_t)n, sizeof diff[0], cmp_i64);
		paired[w] = (double)diff[n / 2] / 1000.0;
		qsort(ways[w].ns, (size_t)n, sizeof(uint64_t), cmp_u64);
		med[w] = pct_us(ways[w].ns, (size_t)n, 50);
	}
	printf("\nper fork+exec+wait, us   %8s %8s %8s %8s  %10s\n", "median",
	       "p90", "p99", "mean", "monitor CPU");
	for (w = 0; w < NWAYS; w++)
		report_row((enum way)w, &ways[w], (size_t)n);
	printf("(monitor CPU: the guard's, strace's or the floor's own CPU "
	       "time per exec, from /proc/PID/schedstat)\n");
	printf("\nadded per exec, against direct:   difference of medians   "
	       "median of paired differences\n");
	for (w = DIRECT + 1; w < NWAYS; w++)
		if (ways[w].on)
			printf("  %-24s %+22.1f us %+26.1f us\n", way_name[w],
			       med[w] - med[DIRECT], paired[w]);
	if (ways[FLOOR].on)
		printf("  supervised over the floor (the guard's own work) "
		       "%+.1f us at the median\n",
		       med[SUPERVISED] - med[FLOOR]);
	printf("\n");
	/* both estimates must agree: when the load shifts during the run the
	 * times are bimodal, and a difference of medians alone can land on
	 * either side of the gap */
	printf("target: supervised adds < %.0f us per exec at the median: %s "
	       "(%+.1f us difference of medians, %+.1f us paired)\n",
	       TARGET_US,
	       med[SUPERVISED] - med[DIRECT] < TARGET_US &&
		       paired[SUPERVISED] < TARGET_US
		   ? "PASS"
		   : "MISS",
	       med[SUPERVISED] - med[DIRECT], paired[SUPERVISED]);
	if (ways[STRACE].on) {
		double added_st = med[STRACE] - med[DIRECT];

		printf("target: supervised faster than strace -f -e "
		       "trace=execve: %s (supervised/strace %.3f at the "
		       "median; added %.1f / %.1f us = %.2f)\n",
		       med[SUPERVISED] < med[STRACE] ? "PASS" : "MISS",
		       med[SUPERVISED] / med[STRACE],
		       med[SUPERVISED] - med[DIRECT], added_st,
		       added_st > 0 ? (med[SUPERVISED] - med[DIRECT]) / added_st
				    : 0.0);
	} else {
		printf("target: supervised faster than strace: skipped (%s)\n",
		       ways[STRACE].why);
	}
	if (ways[STRACE_BPF].on)
		printf(
		    "(for reference: supervised/strace --seccomp-bpf %.3f at "
		    "the median)\n",
		    med[SUPERVISED] / med[STRACE_BPF]);
done:
	for (w = 0; w < NWAYS; w++) {
		way_stop(&ways[w]);
		if (ways[w].done >= 0)
			close(ways[w].done);
		free(ways[w].ns);
	}
	free(diff);
	remove_dir(tmpdir);
	remove_dir(shmdir);
	return rc;
usage:
	fprintf(stderr,
		"usage: bench_exec [-n N] [-w WARM] [-g GUARD]\n"
		"       bench_exec loop [-w WARM] [-o FILE] [-s PREFIX] "
		"N PROG [ARG ...]\n");
	return 2;
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "loop") == 0)
		return loop_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "notify") == 0)
		return notify_main(argc - 1, argv + 1);
	return driver_main(argc, argv);
}
