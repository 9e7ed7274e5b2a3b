/* SPDX-License-Identifier: MIT */
/*
 * bench_exec's loop and floor roles (bench_exec.c says how the driver uses
 * them), and the helpers bench_exec's parts share:
 *
 *   bench_exec loop [-w WARM] [-o FILE] [-s PREFIX] N PROG [ARG ...]
 *       WARM (default 200) untimed iterations of fork + execv(PROG) +
 *       waitpid, then N timed ones.  Writes the N times in ns to FILE, one
 *       a line, then "monitor NAME NS WNS": the CPU time its monitor (the
 *       nearest ancestor named maelys-pty, strace or exec-notify) spent
 *       over the timed iterations, and the guard's audit writer's (0
 *       when there is none); without -o, prints their median, p90,
 *       p99 and mean.  With -s, each iteration waits for a byte on the FIFO
 *       PREFIX.go first and writes one to PREFIX.done after.  Exits 1 if
 *       PROG fails once (a refused exec).
 *   bench_exec notify [LOOP OPTIONS] N PROG [ARG ...]
 *       runs the loop under the floor's supervisor: a seccomp
 *       user-notification filter on execve/execveat, every request
 *       answered CONTINUE unread and undecided.
 */
#define _GNU_SOURCE
#include "bench_exec.h"

#include <dirent.h>
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

uint64_t
bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void
bench_shuffle(size_t *order, size_t n, uint64_t *rng)
{
	for (size_t j = n; j-- > 1;) {
		size_t r, tmp;

		*rng ^= *rng << 13;
		*rng ^= *rng >> 7;
		*rng ^= *rng << 17;
		r = (size_t)(*rng % (uint64_t)(j + 1));
		tmp = order[j];
		order[j] = order[r];
		order[r] = tmp;
	}
}

int
bench_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* A count in [lo, hi] from s, or -1 (strtoll, its end and errno checked). */
long long
bench_parse_count(const char *s, long long lo, long long hi)
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
double
bench_pct_us(const uint64_t *v, size_t n, unsigned p)
{
	return (double)v[n * p / 100] / 1000.0;
}

double
bench_mean_us(const uint64_t *v, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += (double)v[i];
	return sum / (double)n / 1000.0;
}

/* ------------------------------------------------------------------ */
/* The loop role. */

/* The name (comm) and parent of process pid.  0, or -1. */
static int
proc_stat(pid_t pid, char *comm, size_t cap, pid_t *ppid)
{
	char path[64], buf[512], *lp, *rp;
	unsigned long long pp;
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "PID (COMM) STATE PPID ...": COMM may hold spaces and ')' */
	lp = strchr(buf, '(');
	rp = strrchr(buf, ')');
	if (lp == NULL || rp == NULL || rp < lp ||
	    sscanf(rp + 1, " %*c %llu", &pp) != 1)
		return -1;
	*rp = '\0';
	snprintf(comm, cap, "%s", lp + 1);
	*ppid = (pid_t)pp;
	return 0;
}

/* The nearest of this process's ancestors (up to four up) that is a
 * monitor - the guard (maelys-pty) or strace - or 0; its name into name. */
static pid_t
monitor_find(char *name, size_t cap)
{
	pid_t pid = getppid(), ppid;
	int up;

	for (up = 0; up < 4 && pid > 1; up++) {
		char comm[64];

		if (proc_stat(pid, comm, sizeof comm, &ppid) != 0)
			return 0;
		if (strcmp(comm, "maelys-pty") == 0 ||
		    strcmp(comm, "strace") == 0 ||
		    strcmp(comm, BENCH_FLOOR_COMM) == 0) {
			snprintf(name, cap, "%s", comm);
			return pid;
		}
		pid = ppid;
	}
	return 0;
}

/* The guard's audit writer (pty_audit_start_writer): its child named
 * maelys-pty too, or 0.  Its CPU is the audit log's cost per exec that
 * the guard's own does not show. */
static pid_t
writer_find(pid_t guard)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t found = 0;

	while (d != NULL && found == 0 && (de = readdir(d)) != NULL) {
		char comm[64], *end;
		long pid = strtol(de->d_name, &end, 10);
		pid_t ppid;

		if (*end == '\0' && pid > 0 && pid != getpid() &&
		    proc_stat((pid_t)pid, comm, sizeof comm, &ppid) == 0 &&
		    ppid == guard && strcmp(comm, "maelys-pty") == 0)
			found = (pid_t)pid;
	}
	if (d != NULL)
		closedir(d);
	return found;
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
	   uint64_t cpu, uint64_t writer_cpu)
{
	FILE *f = fopen(out, "w");
	long long i;

	for (i = 0; f != NULL && i < n; i++)
		if (fprintf(f, "%llu\n", (unsigned long long)t[i]) < 0)
			break;
	/* the trailer: the monitor's CPU over the timed iterations, and its
	 * audit writer's */
	if (f != NULL && i == n &&
	    fprintf(f, "monitor %s %llu %llu\n",
		    monitor[0] != '\0' ? monitor : "-", (unsigned long long)cpu,
		    (unsigned long long)writer_cpu) < 0)
		i = 0;
	if (f == NULL || i < n || fclose(f) != 0) {
		fprintf(stderr, "bench_exec loop: cannot write %s\n", out);
		return -1;
	}
	return 0;
}

int
bench_exec_loop_main(int argc, char **argv)
{
	const char *out = NULL, *prefix = NULL;
	long long n, warm = 200, i;
	uint64_t *t, cpu0 = 0, cpu1, wcpu0 = 0, wcpu1;
	char monitor[64] = "";
	pid_t mpid = monitor_find(monitor, sizeof monitor), wpid = 0;
	int opt, go = -1, done = -1, rc = 0;

	/* "+": options end at N, so PROG's own arguments stay PROG's */
	while ((opt = getopt(argc, argv, "+w:o:s:")) != -1) {
		switch (opt) {
		case 'w':
			if ((warm = bench_parse_count(optarg, 0, BENCH_MAX_N)) <
			    0)
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
	if (argc - optind < 2 ||
	    (n = bench_parse_count(argv[optind], 1, BENCH_MAX_N)) < 0)
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
		if (i == warm) {
			if (mpid > 0 && strcmp(monitor, "maelys-pty") == 0)
				wpid = writer_find(mpid);
			wcpu0 = monitor_cpu_ns(wpid);
			cpu0 = monitor_cpu_ns(mpid);
		}
		t0 = bench_now_ns();
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
			t[i - warm] = bench_now_ns() - t0;
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
	wcpu1 = monitor_cpu_ns(wpid);
	if (cpu0 == 0 || cpu1 < cpu0)
		cpu0 = cpu1 = 0; /* no monitor, or unknown */
	if (wcpu0 == 0 || wcpu1 < wcpu0)
		wcpu0 = wcpu1 = 0; /* no writer */
	if (out != NULL) {
		rc = loop_write(out, t, n, monitor, cpu1 - cpu0,
				wcpu1 - wcpu0) != 0;
	} else {
		qsort(t, (size_t)n, sizeof t[0], bench_cmp_u64);
		printf("fork+exec+wait of %s, %lld times: median %.1f us   "
		       "p90 %.1f us   p99 %.1f us   mean %.1f us\n",
		       argv[0], n, bench_pct_us(t, (size_t)n, 50),
		       bench_pct_us(t, (size_t)n, 90),
		       bench_pct_us(t, (size_t)n, 99),
		       bench_mean_us(t, (size_t)n));
		if (cpu1 > cpu0)
			printf("%s's CPU per iteration: %.1f us\n", monitor,
			       (double)(cpu1 - cpu0) / 1000.0 / (double)n);
		if (wcpu1 > wcpu0)
			printf("its audit writer's CPU per iteration: %.1f "
			       "us\n",
			       (double)(wcpu1 - wcpu0) / 1000.0 / (double)n);
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
int
bench_exec_notify_main(int argc, char **argv)
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
	(void)prctl(PR_SET_NAME, BENCH_FLOOR_COMM, 0, 0, 0);
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
