/* SPDX-License-Identifier: MIT */
/*
 * bench_exec - what the exec supervisor (pty/exec/pty_supervise.h) adds to each
 * program a session runs: fork + execv + waitpid, each iteration timed
 * alone with CLOCK_MONOTONIC, run several ways.  By default, of /bin/true:
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
 *                audit log on tmpfs (/dev/shm), one record per exec, sent
 *                to the guard's audit writer process.
 *
 * and, chosen with -W, the per-exec checks of the guard's path walk and of
 * what a file leads to (pty/exec/exec_walk.c, pty/exec/exec_chain.c), each program
 * run directly and supervised (and audited, for the script), so that the
 * kernel's own extra work is not counted as the guard's:
 *
 *   *-deep       TREE/d01/.../d12/true, a link to /usr/bin/true: twelve
 *                more folders and a link for the walk (as root, one
 *                openat + fstat each; as another user a writability check
 *                per folder as well - see -u);
 *   *-script     TREE/script, "#!/bin/true": the script and its
 *                interpreter are each walked, decided (and recorded);
 *   *-loader     /lib64/ld-linux-x86-64.so.2 /bin/true: the loader and the
 *                program it is asked to run, each walked and decided.
 *
 * TREE is made by root in /tmp, 0755: the walk refuses an exec through
 * anything the user could change, so these ways need root; -u USER runs
 * every way as USER (the tree stays root's), which is what a user's
 * session pays: for root the walk checks no writability at all.
 *
 *   bench_exec [-n N] [-w WARM] [-g GUARD] [-W WAYS] [-u USER]
 *       the driver: starts the loop every way at once (N = 10000, WARM =
 *       200), and steps them in lockstep through the FIFOs - one iteration
 *       of each way in turn, the others asleep, in a new random order each
 *       time - so that the load of a shared machine, which drifts by the
 *       second, hits every way alike.  GUARD defaults to the build's
 *       maelys-pty (meson compiles its path in).  WAYS is a comma list of
 *       way names (direct floor supervised audited strace-bpf strace
 *       direct-deep supervised-deep direct-script supervised-script
 *       audited-script direct-loader supervised-loader), or "checks" for
 *       the per-exec checks' ways beside direct, supervised and audited.
 *   bench_exec loop ... and bench_exec notify ...
 *       one way's loop, and the floor's supervisor (bench_exec_loop.c).
 *   bench_exec walk [-n N] [-u USER]
 *       the path resolution alone, in this process (bench_exec_walk.c).
 *
 * The machine is shared and noisy: compare the rows of one run.
 */
#define _GNU_SOURCE
#include "bench_exec.h"
#include "pty_audit.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pwd.h>
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

#define TRUE_PROG      "/bin/true"
#define LOADER_PROG    "/lib64/ld-linux-x86-64.so.2"
#define DEEP_FOLDERS   12
#define TARGET_US      60.0
#define STEP_TIMEOUT_S 120 /* one iteration of one way, start-up included */
#define STRACE_ARGS    "-f", "-qq", "-e", "trace=execve", "-o", "/dev/null"

/* What runs a way's loop. */
enum runner {
	RUN_DIRECT,     /* nothing */
	RUN_FLOOR,      /* bench_exec notify */
	RUN_SUPERVISED, /* maelys-pty --policy P -c */
	RUN_AUDITED,    /* maelys-pty --config C -c, with an audit log */
	RUN_STRACE_BPF,
	RUN_STRACE,
};

/* What a way's loop executes. */
enum prog {
	PROG_TRUE,   /* /bin/true */
	PROG_DEEP,   /* TREE/d01/.../d12/true, a link to /usr/bin/true */
	PROG_SCRIPT, /* TREE/script, "#!/bin/true": two decisions */
	PROG_LOADER, /* /lib64/ld-linux-x86-64.so.2 /bin/true: two too */
	NPROGS,
};

static const char *const runner_what[] = {
    "the loop alone",
    "bench_exec notify LOOP: receive, answer CONTINUE, nothing else",
    "maelys-pty --policy P -c LOOP",
    "maelys-pty --config C -c LOOP, audit log on /dev/shm",
    "strace --seccomp-bpf -f -qq -e trace=execve -o /dev/null LOOP",
    "strace -f -qq -e trace=execve -o /dev/null LOOP"};

struct way_def {
	const char *key;  /* its name for -W */
	const char *name; /* its row */
	enum runner runner;
	enum prog prog;
};

/* The first six are the default; the rest show the per-exec checks of a
 * long path, of a #! script and of the dynamic loader run as a program,
 * each against its own direct way. */
enum { DIRECT, FLOOR, SUPERVISED, AUDITED, STRACE_BPF, STRACE, NDEFAULT };

static const struct way_def way_def[] = {
    {"direct", "direct", RUN_DIRECT, PROG_TRUE},
    {"floor", "seccomp-notify floor", RUN_FLOOR, PROG_TRUE},
    {"supervised", "supervised", RUN_SUPERVISED, PROG_TRUE},
    {"audited", "supervised + audit log", RUN_AUDITED, PROG_TRUE},
    {"strace-bpf", "strace --seccomp-bpf", RUN_STRACE_BPF, PROG_TRUE},
    {"strace", "strace", RUN_STRACE, PROG_TRUE},
    {"direct-deep", "direct, deep path", RUN_DIRECT, PROG_DEEP},
    {"supervised-deep", "supervised, deep path", RUN_SUPERVISED, PROG_DEEP},
    {"direct-script", "direct, #! script", RUN_DIRECT, PROG_SCRIPT},
    {"supervised-script", "supervised, #! script", RUN_SUPERVISED, PROG_SCRIPT},
    {"audited-script", "audit log, #! script", RUN_AUDITED, PROG_SCRIPT},
    {"direct-loader", "direct, via ld.so", RUN_DIRECT, PROG_LOADER},
    {"supervised-loader", "supervised, via ld.so", RUN_SUPERVISED, PROG_LOADER},
};

#define NWAYS (sizeof way_def / sizeof way_def[0])

/* -W checks: the ways that show the per-exec checks. */
static const char checks_ways[] =
    "direct,supervised,audited,direct-deep,supervised-deep,direct-script,"
    "supervised-script,audited-script,direct-loader,supervised-loader";

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
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
	uint64_t *sorted;    /* the same, sorted */
	uint64_t monitor_ns; /* the monitor's CPU over them, or 0 */
	uint64_t writer_ns;  /* its audit writer's, or 0 */
};

static char tmpdir[] = "/tmp/bench_exec.XXXXXX";
static char shmdir[] = "/dev/shm/bench_exec.XXXXXX";
/* the deep path's folders and the script: root's, 0755, outside tmpdir
 * (which -u gives to the user, who could then change what runs) */
static char treedir[] = "/tmp/bench_exec_tree.XXXXXX";

/* -u: the identity the ways run with (run_as false: ours) */
static bool run_as;
static uid_t run_uid;
static gid_t run_gid;

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

/* Starts argv with stdin from /dev/null and stdout to `out` (NULL: ours),
 * as the -u user when `as_user`.  Returns its pid, or -1. */
static pid_t
spawn_as(char *const *argv, const char *out, bool as_user)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (freopen("/dev/null", "r", stdin) == NULL ||
		    (out != NULL && freopen(out, "w", stdout) == NULL))
			_exit(127);
		if (as_user && run_as &&
		    (setgroups(0, NULL) != 0 ||
		     setresgid(run_gid, run_gid, run_gid) != 0 ||
		     setresuid(run_uid, run_uid, run_uid) != 0)) {
			fprintf(stderr, "bench_exec: cannot become uid %lu\n",
				(unsigned long)run_uid);
			_exit(127);
		}
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
run_as_user(char *const *argv, const char *out, bool as_user)
{
	pid_t pid = spawn_as(argv, out, as_user), w;
	int st;

	if (pid < 0)
		return -1;
	while ((w = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	return w == pid ? exit_status(st) : -1;
}

static int
run(char *const *argv, const char *out)
{
	return run_as_user(argv, out, false);
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
	unsigned long long v, cpu = 0, wcpu = 0;
	char name[32];
	size_t i = 0;

	if (f == NULL)
		return -1;
	while (i < n && fscanf(f, "%llu", &v) == 1)
		r->ns[i++] = v;
	if (fscanf(f, " monitor %31s %llu %llu", name, &cpu, &wcpu) >= 2) {
		r->monitor_ns = cpu;
		r->writer_ns = wcpu;
	}
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
	char *const argv[] = {"strace", "--seccomp-bpf", STRACE_ARGS, TRUE_PROG,
			      NULL};

	return run(argv, "/dev/null") == 0;
}

/* Whether the floor runs here (seccomp user notification, CONTINUE). */
static bool
floor_works(char *self)
{
	char *const argv[] = {self, "notify", "-w", "0", "1", TRUE_PROG, NULL};

	return run_as_user(argv, "/dev/null", true) == 0;
}

/* The deployed guard's configuration in shmdir (tmpfs): the permissive
 * policy, an audit log and its key, no syslog.  The configuration must be
 * root's, so this is for root only.  0, or -1 with `why` set. */
static int
audited_setup(char *why, size_t whylen, const char *policy_text, char *conf,
	      size_t cap, char *log, size_t logcap)
{
	char policy[300], key[300], pub[300], text[1200];

	if (geteuid() != 0) {
		snprintf(why, whylen,
			 "needs root: the configuration must be root's");
		return -1;
	}
	if (run_as) {
		snprintf(why, whylen,
			 "not with -u: the audit key is root's, and a guard "
			 "not installed setuid cannot hand it to its writer");
		return -1;
	}
	if (mkdtemp(shmdir) == NULL) {
		snprintf(why, whylen, "cannot make %s: %s", shmdir,
			 strerror(errno));
		return -1;
	}
	snprintf(policy, sizeof policy, "%s/allow-all.dl", shmdir);
	snprintf(key, sizeof key, "%s/audit.key", shmdir);
	snprintf(pub, sizeof pub, "%s/audit.pub", shmdir);
	snprintf(log, logcap, "%s/audit.log", shmdir);
	snprintf(conf, cap, "%s/maelys-pty.conf", shmdir);
	snprintf(text, sizeof text,
		 "policy = %s\naudit_log = %s\naudit_key = %s\nsyslog = off\n",
		 policy, log, key);
	if (put_file(policy, policy_text, 0644) != 0 ||
	    pty_audit_keygen(key, pub, NULL, NULL, 0) != 0 ||
	    put_file(conf, text, 0644) != 0) {
		snprintf(why, whylen, "cannot write in %s", shmdir);
		return -1;
	}
	return 0;
}

/* The deep path and the script in treedir: root's folders and files, which
 * no user can change (the guard's walk refuses an exec through anything
 * the user could change: as another user, the tree would be theirs).
 * Fills deep and script.  0, or -1 with `why` set. */
static int
tree_setup(char *why, size_t whylen, char *deep, size_t deepcap, char *script,
	   size_t scriptcap)
{
	char path[PATH_MAX];
	size_t len;
	int i;

	if (geteuid() != 0) {
		snprintf(why, whylen,
			 "needs root: the folders and the script would be the "
			 "user's, and the guard refuses an exec through what "
			 "the user can change (run as root, -u USER for a "
			 "user)");
		return -1;
	}
	if (mkdtemp(treedir) == NULL || chmod(treedir, 0755) != 0) {
		snprintf(why, whylen, "cannot make %s: %s", treedir,
			 strerror(errno));
		return -1;
	}
	len = (size_t)snprintf(path, sizeof path, "%s", treedir);
	for (i = 1; i <= DEEP_FOLDERS; i++) {
		len += (size_t)snprintf(path + len, sizeof path - len, "/d%02d",
					i);
		if (mkdir(path, 0755) != 0 || chmod(path, 0755) != 0) {
			snprintf(why, whylen, "cannot make %.200s: %s", path,
				 strerror(errno));
			return -1;
		}
	}
	if (snprintf(deep, deepcap, "%s/true", path) >= (int)deepcap ||
	    snprintf(script, scriptcap, "%s/script", treedir) >=
		(int)scriptcap ||
	    symlink("/usr/bin/true", deep) != 0 ||
	    put_file(script, "#!" TRUE_PROG "\n", 0755) != 0) {
		snprintf(why, whylen, "cannot write in %s: %s", treedir,
			 strerror(errno));
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

	/* mkdtemp replaces all six X of the template: a name still ending in
	 * them was never made (one X alone is a random letter 1 time in 62) */
	if (strcmp(dir + strlen(dir) - 6, "XXXXXX") != 0)
		(void)run(argv, NULL);
}

/* Makes way r's FIFOs and opens our ends (given to the -u user).  0, or
 * -1. */
static int
way_fifos(struct way_run *r, size_t w)
{
	char path[400];
	int k;

	snprintf(r->prefix, sizeof r->prefix, "%s/%zu", tmpdir, w);
	snprintf(r->out, sizeof r->out, "%s/%zu.times", tmpdir, w);
	for (k = 0; k < 2; k++) {
		int *fd = k == 0 ? &r->go : &r->done;

		snprintf(path, sizeof path, "%s.%s", r->prefix,
			 k == 0 ? "go" : "done");
		if (mkfifo(path, 0600) != 0 ||
		    (run_as && chown(path, run_uid, run_gid) != 0) ||
		    (*fd = open(path, O_RDWR | O_CLOEXEC)) < 0)
			return -1;
	}
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

static struct way_run ways[NWAYS];
static bool way_selected[NWAYS];

/* The way of `runner` and `prog` if it runs, else -1. */
static int
way_index(enum runner runner, enum prog prog)
{
	size_t w;

	for (w = 0; w < NWAYS; w++)
		if (way_def[w].runner == runner && way_def[w].prog == prog)
			return ways[w].on ? (int)w : -1;
	return -1;
}

/* -W LIST: the ways by key, "checks" for checks_ways.  0, or -1. */
static int
select_ways(const char *list)
{
	char buf[512], *save = NULL, *k;
	size_t w;

	if (strcmp(list, "checks") == 0)
		list = checks_ways;
	if (snprintf(buf, sizeof buf, "%s", list) >= (int)sizeof buf)
		return -1;
	memset(way_selected, 0, sizeof way_selected);
	for (k = strtok_r(buf, ",", &save); k != NULL;
	     k = strtok_r(NULL, ",", &save)) {
		for (w = 0; w < NWAYS; w++)
			if (strcmp(k, way_def[w].key) == 0)
				break;
		if (w == NWAYS) {
			fprintf(stderr, "bench_exec: no way '%s' (", k);
			for (w = 0; w < NWAYS; w++)
				fprintf(stderr, "%s%s", w ? " " : "",
					way_def[w].key);
			fprintf(stderr, "; or checks)\n");
			return -1;
		}
		way_selected[w] = true;
	}
	return 0;
}

static void
report_row(size_t w, size_t n)
{
	struct way_run *r = &ways[w];

	if (!way_selected[w])
		return;
	if (!r->on) {
		printf("  %-24s skipped: %s\n", way_def[w].name, r->why);
		return;
	}
	printf("  %-24s %8.1f %8.1f %8.1f %8.1f", way_def[w].name,
	       bench_pct_us(r->sorted, n, 50), bench_pct_us(r->sorted, n, 90),
	       bench_pct_us(r->sorted, n, 99), bench_mean_us(r->sorted, n));
	if (r->monitor_ns > 0)
		printf("  %10.1f", (double)r->monitor_ns / 1000.0 / (double)n);
	else
		printf("  %10s", "-");
	if (r->writer_ns > 0)
		printf("  %10.1f\n", (double)r->writer_ns / 1000.0 / (double)n);
	else
		printf("  %10s\n", "-");
}

/* Median of d[0..n) - the paired differences - in us (sorts d). */
static double
median_diff_us(int64_t *d, size_t n)
{
	qsort(d, n, sizeof d[0], cmp_i64);
	return (double)d[n / 2] / 1000.0;
}

/* The guard's CPU per exec and its audit writer's, in us. */
static double
cpu_us(size_t w, size_t n)
{
	return (double)(ways[w].monitor_ns + ways[w].writer_ns) / 1000.0 /
	       (double)n;
}

/* The per-exec checks: each program against /bin/true, under the same
 * runner, each against its own direct way (the kernel's own work for a
 * script or the loader is not the guard's). */
static void
report_checks(size_t n, int64_t *diff)
{
	static const enum runner runners[] = {RUN_SUPERVISED, RUN_AUDITED};
	bool head = false;
	size_t k, i;
	int p;

	for (k = 0; k < sizeof runners / sizeof runners[0]; k++) {
		int sup_t = way_index(runners[k], PROG_TRUE),
		    dir_t = way_index(RUN_DIRECT, PROG_TRUE);

		for (p = PROG_DEEP; p < NPROGS; p++) {
			int sup = way_index(runners[k], (enum prog)p),
			    dir = way_index(RUN_DIRECT, (enum prog)p);
			double added, added_t, extra, extra_med, sup_med;

			if (sup < 0 || dir < 0 || sup_t < 0 || dir_t < 0)
				continue;
			if (!head) {
				printf(
				    "\nthe per-exec checks, against the same "
				    "runner's exec of %s in this run (each "
				    "against its own direct way):\n"
				    "  %-26s %11s %11s %13s %13s %9s\n",
				    TRUE_PROG, "way", "adds (med)",
				    "more (med)", "more (paired)",
				    "guard CPU more", "share");
				head = true;
			}
			sup_med = bench_pct_us(ways[sup].sorted, n, 50);
			added = sup_med - bench_pct_us(ways[dir].sorted, n, 50);
			added_t = bench_pct_us(ways[sup_t].sorted, n, 50) -
				  bench_pct_us(ways[dir_t].sorted, n, 50);
			extra_med = added - added_t;
			for (i = 0; i < n; i++)
				diff[i] = ((int64_t)ways[sup].ns[i] -
					   (int64_t)ways[dir].ns[i]) -
					  ((int64_t)ways[sup_t].ns[i] -
					   (int64_t)ways[dir_t].ns[i]);
			extra = median_diff_us(diff, n);
			printf("  %-26s %+9.1f us %+8.1f us %+10.1f us %+10.1f "
			       "us %8.1f%%\n",
			       way_def[sup].name, added, extra_med, extra,
			       cpu_us((size_t)sup, n) -
				   cpu_us((size_t)sup_t, n),
			       100.0 * extra / sup_med);
		}
	}
	if (head)
		printf("(adds: its median minus its direct way's; more: that "
		       "minus what the same runner adds to %s, as the "
		       "difference of the two, and as the median of the "
		       "paired per-iteration differences; guard CPU more: "
		       "the CPU per exec of the guard and its audit writer "
		       "minus theirs per exec of %s; share: the paired figure "
		       "as a part of the "
		       "supervised exec's median)\n",
		       TRUE_PROG, TRUE_PROG);
}

static void
report_targets(size_t n)
{
	double med_d, med_s, paired;
	int64_t *diff;
	size_t i;

	if (!ways[DIRECT].on || !ways[SUPERVISED].on)
		return;
	if ((diff = calloc(n, sizeof *diff)) == NULL)
		return;
	for (i = 0; i < n; i++)
		diff[i] = (int64_t)ways[SUPERVISED].ns[i] -
			  (int64_t)ways[DIRECT].ns[i];
	paired = median_diff_us(diff, n);
	free(diff);
	med_d = bench_pct_us(ways[DIRECT].sorted, n, 50);
	med_s = bench_pct_us(ways[SUPERVISED].sorted, n, 50);
	printf("\n");
	/* both estimates must agree: when the load shifts during the run the
	 * times are bimodal, and a difference of medians alone can land on
	 * either side of the gap */
	printf("target: supervised adds < %.0f us per exec at the median: %s "
	       "(%+.1f us difference of medians, %+.1f us paired)\n",
	       TARGET_US,
	       med_s - med_d < TARGET_US && paired < TARGET_US ? "PASS"
							       : "MISS",
	       med_s - med_d, paired);
	if (ways[STRACE].on) {
		double med_st = bench_pct_us(ways[STRACE].sorted, n, 50),
		       added_st = med_st - med_d;

		printf("target: supervised faster than strace -f -e "
		       "trace=execve: %s (supervised/strace %.3f at the "
		       "median; added %.1f / %.1f us = %.2f)\n",
		       med_s < med_st ? "PASS" : "MISS", med_s / med_st,
		       med_s - med_d, added_st,
		       added_st > 0 ? (med_s - med_d) / added_st : 0.0);
	} else if (way_selected[STRACE]) {
		printf("target: supervised faster than strace: skipped (%s)\n",
		       ways[STRACE].why);
	}
	if (ways[STRACE_BPF].on)
		printf(
		    "(for reference: supervised/strace --seccomp-bpf %.3f at "
		    "the median)\n",
		    med_s / bench_pct_us(ways[STRACE_BPF].sorted, n, 50));
}

/* Turns off the selected ways that cannot run here, saying why. */
static void
ways_check(char *self, const char *policy_text, char *conf, size_t confcap,
	   char *log, size_t logcap, char *deep, size_t deepcap, char *script,
	   size_t scriptcap)
{
	char why[300] = "";
	bool strace = have_strace(), bpf = strace && strace_has_bpf(),
	     floor = floor_works(self), audited = true, tree = true;
	bool need_audit = false, need_tree = false;
	size_t w;

	for (w = 0; w < NWAYS; w++) {
		ways[w].on = way_selected[w];
		ways[w].go = ways[w].done = -1;
		if (!way_selected[w])
			continue;
		need_audit |= way_def[w].runner == RUN_AUDITED;
		need_tree |= way_def[w].prog == PROG_DEEP ||
			     way_def[w].prog == PROG_SCRIPT;
	}
	if (need_audit)
		audited = audited_setup(why, sizeof why, policy_text, conf,
					confcap, log, logcap) == 0;
	for (w = 0; w < NWAYS && need_audit; w++)
		if (way_def[w].runner == RUN_AUDITED && !audited) {
			ways[w].on = false;
			snprintf(ways[w].why, sizeof ways[w].why, "%s", why);
		}
	if (need_tree)
		tree = tree_setup(why, sizeof why, deep, deepcap, script,
				  scriptcap) == 0;
	for (w = 0; w < NWAYS; w++) {
		struct way_run *r = &ways[w];

		if (!r->on)
			continue;
		if ((way_def[w].prog == PROG_DEEP ||
		     way_def[w].prog == PROG_SCRIPT) &&
		    !tree) {
			r->on = false;
			snprintf(r->why, sizeof r->why, "%s", why);
		} else if (way_def[w].prog == PROG_LOADER &&
			   access(LOADER_PROG, X_OK) != 0) {
			r->on = false;
			snprintf(r->why, sizeof r->why, "no %s here",
				 LOADER_PROG);
		} else if (way_def[w].runner == RUN_STRACE && !strace) {
			r->on = false;
			snprintf(r->why, sizeof r->why,
				 "no strace in PATH (apt-get install strace)");
		} else if (way_def[w].runner == RUN_STRACE_BPF && !bpf) {
			r->on = false;
			snprintf(r->why, sizeof r->why, "%s",
				 strace ? "this strace has no --seccomp-bpf"
					: "no strace in PATH");
		} else if (way_def[w].runner == RUN_FLOOR && !floor) {
			r->on = false;
			snprintf(r->why, sizeof r->why,
				 "no seccomp user notification here");
		}
	}
}

static int
driver_main(int argc, char **argv)
{
	static const char policy_text[] = "allow(C) :- command(C).\n"
					  "allow_exec(P) :- exec_path(P).\n";
	const char *guard = BENCH_EXEC_GUARD;
	long long n = 10000, warm = 200, i;
	char self[PATH_MAX], policy[300], conf[400], log[400], nbuf[32],
	    wbuf[32], cmd[3 * PATH_MAX], deep[PATH_MAX] = "",
					 script[PATH_MAX] = "";
	const char *prog_argv[NPROGS][2] = {{TRUE_PROG, NULL},
					    {deep, NULL},
					    {script, NULL},
					    {LOADER_PROG, TRUE_PROG}};
	int64_t *diff = NULL;
	uint64_t rng = 0x9e3779b97f4a7c15u; /* fixed: runs step alike */
	size_t w, nsel = 0;
	int opt, rc = 0;

	for (w = 0; w < NDEFAULT; w++)
		way_selected[w] = true;
	while ((opt = getopt(argc, argv, "n:w:g:W:u:")) != -1) {
		switch (opt) {
		case 'n':
			if ((n = bench_parse_count(optarg, 1, BENCH_MAX_N)) < 0)
				goto usage;
			break;
		case 'w':
			if ((warm = bench_parse_count(optarg, 0, BENCH_MAX_N)) <
			    0)
				goto usage;
			break;
		case 'g':
			guard = optarg;
			break;
		case 'W':
			if (select_ways(optarg) != 0)
				goto usage;
			break;
		case 'u': {
			struct passwd *pw = getpwnam(optarg);

			if (pw == NULL || geteuid() != 0 || pw->pw_uid == 0) {
				fprintf(stderr,
					"bench_exec: -u wants a user other "
					"than root, and root to run it\n");
				return 2;
			}
			run_as = true;
			run_uid = pw->pw_uid;
			run_gid = pw->pw_gid;
			break;
		}
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
	    mkdtemp(tmpdir) == NULL ||
	    (run_as && (chown(tmpdir, run_uid, run_gid) != 0 ||
			chmod(tmpdir, 0755) != 0))) {
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
	if (put_file(policy, policy_text, 0644) != 0) {
		fprintf(stderr, "bench_exec: cannot write %s\n", policy);
		rc = 1;
		goto done;
	}
	ways_check(self, policy_text, conf, sizeof conf, log, sizeof log, deep,
		   sizeof deep, script, sizeof script);

	printf("fork+exec+wait, %lld timed iterations per way after %lld of "
	       "warm-up; the ways run at once, stepped in lockstep (one "
	       "iteration of each in turn, in a new random order each "
	       "time)%s%s\n",
	       n, warm, run_as ? "; as uid " : "",
	       run_as
		   ? (snprintf(cmd, sizeof cmd, "%lu", (unsigned long)run_uid),
		      cmd)
		   : "");
	for (w = 0; w < NWAYS; w++)
		if (way_selected[w])
			printf("  %-24s %s, of %s%s%s\n", way_def[w].name,
			       runner_what[way_def[w].runner],
			       prog_argv[way_def[w].prog][0],
			       prog_argv[way_def[w].prog][1] ? " " : "",
			       prog_argv[way_def[w].prog][1]
				   ? prog_argv[way_def[w].prog][1]
				   : "");
	fflush(stdout);
	for (w = 0; w < NWAYS; w++) {
		struct way_run *r = &ways[w];
		char *prog = (char *)prog_argv[way_def[w].prog][0],
		     *arg = (char *)prog_argv[way_def[w].prog][1];
		char *lp[] = {self, "loop",    "-w", wbuf, "-o", r->out,
			      "-s", r->prefix, nbuf, prog, arg,  NULL};
		char *fl[] = {self, "notify",  "-w", wbuf, "-o", r->out,
			      "-s", r->prefix, nbuf, prog, arg,  NULL};
		char *sup[] = {(char *)guard, "--policy", policy,
			       "-c",          cmd,        NULL};
		char *aud[] = {(char *)guard, "--config", conf,
			       "-c",          cmd,        NULL};
		char *st[] = {"strace", STRACE_ARGS, self,   "loop", "-w",
			      wbuf,     "-o",        r->out, "-s",   r->prefix,
			      nbuf,     prog,        arg,    NULL};
		char *sb[] = {"strace",    "--seccomp-bpf",
			      STRACE_ARGS, self,
			      "loop",      "-w",
			      wbuf,        "-o",
			      r->out,      "-s",
			      r->prefix,   nbuf,
			      prog,        arg,
			      NULL};
		char *const *argvs[] = {lp, fl, sup, aud, sb, st};

		if (!r->on)
			continue;
		nsel++;
		if ((r->ns = calloc((size_t)n, sizeof(uint64_t))) == NULL ||
		    (r->sorted = calloc((size_t)n, sizeof(uint64_t))) == NULL ||
		    way_fifos(r, w) != 0) {
			fprintf(stderr, "bench_exec: cannot prepare %s: %s\n",
				way_def[w].name, strerror(errno));
			rc = 1;
			goto done;
		}
		/* the -c line of the supervised ways: plain words only
		 * (plain_path checked self; tmpdir and treedir are
		 * mkdtemp's) */
		snprintf(cmd, sizeof cmd, "%s loop -w %s -o %s -s %s %s %s%s%s",
			 self, wbuf, r->out, r->prefix, nbuf, prog,
			 arg != NULL ? " " : "", arg != NULL ? arg : "");
		if ((r->pid = spawn_as(argvs[way_def[w].runner], NULL, true)) <
		    0) {
			fprintf(stderr, "bench_exec: cannot fork: %s\n",
				strerror(errno));
			rc = 1;
			goto done;
		}
	}
	if (nsel == 0 || !ways[DIRECT].on) {
		fprintf(stderr, "bench_exec: the way 'direct' must run: the "
				"others are measured against it\n");
		rc = 2;
		goto done;
	}
	for (i = 0; i < warm + n; i++) {
		size_t order[NWAYS], j;

		/* a new order each iteration (Fisher-Yates, xorshift64): the
		 * deferred work of one way's iteration (strace's, the exit's)
		 * falls on whichever runs next, so no way may always follow
		 * the same one - a rotation would keep each one's
		 * predecessor */
		for (j = 0; j < NWAYS; j++)
			order[j] = j;
		bench_shuffle(order, NWAYS, &rng);
		for (j = 0; j < NWAYS; j++) {
			w = order[j];
			if (ways[w].on && step(&ways[w]) != 0) {
				fprintf(stderr,
					"bench_exec: the %s way stopped at "
					"iteration %lld (%s %d)\n",
					way_def[w].name, i,
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
				way_def[w].name, exit_status(r->status));
			rc = 1;
			goto done;
		}
		memcpy(r->sorted, r->ns, (size_t)n * sizeof(uint64_t));
		qsort(r->sorted, (size_t)n, sizeof(uint64_t), bench_cmp_u64);
	}
	if (way_index(RUN_AUDITED, PROG_TRUE) >= 0 ||
	    way_index(RUN_AUDITED, PROG_SCRIPT) >= 0) {
		char *verify[] = {(char *)guard, "--verify-log", log,
				  "--config",    conf,           NULL};

		if (run(verify, "/dev/null") != 0) {
			fprintf(stderr, "bench_exec: the audit log of the "
					"audited ways does not verify\n");
			rc = 1;
			goto done;
		}
	}

	if ((diff = calloc((size_t)n, sizeof *diff)) == NULL) {
		rc = 1;
		goto done;
	}
	printf("\nper fork+exec+wait, us   %8s %8s %8s %8s  %10s  %10s\n",
	       "median", "p90", "p99", "mean", "monitor CPU", "writer CPU");
	for (w = 0; w < NWAYS; w++)
		report_row(w, (size_t)n);
	printf("(monitor CPU: the guard's, strace's or the floor's own CPU "
	       "time per exec, from /proc/PID/schedstat; writer CPU: the "
	       "guard's audit writer's)\n");
	printf("\nadded per exec, against direct (of the same program):   "
	       "difference of medians   median of paired differences\n");
	for (w = 0; w < NWAYS; w++) {
		/* paired: iteration i of each way ran next to iteration i of
		 * its direct way */
		int d = way_index(RUN_DIRECT, way_def[w].prog);

		if (!ways[w].on || way_def[w].runner == RUN_DIRECT || d < 0)
			continue;
		for (i = 0; i < n; i++)
			diff[i] =
			    (int64_t)ways[w].ns[i] - (int64_t)ways[d].ns[i];
		printf("  %-24s %+22.1f us %+26.1f us\n", way_def[w].name,
		       bench_pct_us(ways[w].sorted, (size_t)n, 50) -
			   bench_pct_us(ways[d].sorted, (size_t)n, 50),
		       median_diff_us(diff, (size_t)n));
	}
	if (ways[FLOOR].on && ways[SUPERVISED].on)
		printf("  supervised over the floor (the guard's own work) "
		       "%+.1f us at the median\n",
		       bench_pct_us(ways[SUPERVISED].sorted, (size_t)n, 50) -
			   bench_pct_us(ways[FLOOR].sorted, (size_t)n, 50));
	report_checks((size_t)n, diff);
	report_targets((size_t)n);
done:
	for (w = 0; w < NWAYS; w++) {
		way_stop(&ways[w]);
		if (ways[w].done >= 0)
			close(ways[w].done);
		free(ways[w].ns);
		free(ways[w].sorted);
	}
	free(diff);
	remove_dir(tmpdir);
	remove_dir(shmdir);
	remove_dir(treedir);
	return rc;
usage:
	fprintf(stderr,
		"usage: bench_exec [-n N] [-w WARM] [-g GUARD] [-W WAYS] "
		"[-u USER]\n"
		"       bench_exec loop [-w WARM] [-o FILE] [-s PREFIX] "
		"N PROG [ARG ...]\n"
		"       bench_exec notify [LOOP OPTIONS] N PROG [ARG ...]\n"
		"       bench_exec walk [-n N] [-u USER]\n");
	return 2;
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "loop") == 0)
		return bench_exec_loop_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "notify") == 0)
		return bench_exec_notify_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "walk") == 0)
		return bench_exec_walk_main(argc - 1, argv + 1);
	return driver_main(argc, argv);
}
