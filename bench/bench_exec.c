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
 * Three roles (loop and notify are in bench_exec_loop.c):
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
#include "bench_exec.h"

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
	       bench_pct_us(r->ns, n, 50), bench_pct_us(r->ns, n, 90),
	       bench_pct_us(r->ns, n, 99), bench_mean_us(r->ns, n));
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
		qsort(ways[w].ns, (size_t)n, sizeof(uint64_t), bench_cmp_u64);
		med[w] = bench_pct_us(ways[w].ns, (size_t)n, 50);
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
		return bench_exec_loop_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "notify") == 0)
		return bench_exec_notify_main(argc - 1, argv + 1);
	return driver_main(argc, argv);
}
