/* SPDX-License-Identifier: MIT */
/*
 * bench_pty - what the guard costs a user, in one run:
 *
 *   1. the latency one decision adds between Enter and the shell: scan,
 *      tokenise, input facts, solve, query, and forwarding the line (a write
 *      to the command channel, a socket pair as pty/line/child.c makes it, which
 *      a reader drains), p50 / p99 / max over many lines;
 *   2. output throughput: `cat` of a large file (256 MiB by default) shown on
 *      a terminal through the guard, through `script -q -c` (util-linux: the
 *      same two-pty structure without decisions) and through no pty at all
 *      (a pipe), each the median of RUNS runs;
 *   3. the guard's peak memory (VmHWM) over that session;
 *   4. the same decision concluded as a session does it with an audit log
 *      (pty_guard_conclude: decide, build the record, sign it, one write(2)
 *      and fdatasync(2), the state's rewrite and fdatasync, under flock) - on tmpfs and on the disk of /var/tmp,
 *      since fdatasync is what a disk makes slow - through the audit
 *      writer process a session uses (pty_audit_start_writer) and in this
 *      process (pty_audit_open), alternating line by line;
 *   5. as root, the guard's peak memory with a configuration and an audit
 *      log (the deployed guard: libsodium and the record buffers loaded);
 *   6. one line to bash over its command channel: the socket pair
 *      pty/line/child.c makes against a pipe (the channel before), the guard's
 *      write and bash's read, in one process and to a reader process;
 *   7. the session's end: pty_spawn_end_all with 0, 10 and 100
 *      descendants, 10 that ignore SIGHUP, and 0 and 10 with 1,000 more
 *      processes on the host (its scan reads every process's stat);
 *   8. as root, session recording (record = DIR): `cat` of a file (64 MiB
 *      at most) through the deployed guard with the recording on and off,
 *      against `script -q -c` to /dev/null and to a file, interleaved;
 *      medians, ratios, and what recording costs a MiB
 *      (bench_pty_record.c).
 *
 *   bench_pty [-p PARTS] GUARD POLICY [MIB] [RUNS]
 *
 * PARTS is a comma list of decision (1), throughput (2, 3, 5), audit (4),
 * channel (6), end (7) and record (8); all by default.
 *
 * The machine is shared and noisy: compare the rows of one run.
 */
#define _GNU_SOURCE
#include "bench_pty.h"

#include "pty_audit.h"
#include "pty_decide.h"
#include "pty_line.h"
#include "pty_session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <pty.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define END_MARK "END-OF-BENCH-FILE"

double
bench_pty_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int
bench_pty_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void *
drain(void *arg)
{
	char buf[65536];
	int fd = *(int *)arg;

	while (read(fd, buf, sizeof buf) > 0)
		;
	return NULL;
}

/* 1. Decision latency, in this process, with the guard's own code. */
static void
bench_decisions(const char *policy)
{
	static const char *const lines[] = {
	    "shutdown now",
	    "echo hello | grep hello",
	    "git commit -m \"feat: solver\"",
	    "CMD=rm; $CMD /",
	    "git push origin feature/x",
	    "ls -la /var/log",
	    "curl https://example.com/",
	    "tail -n 100 /var/log/syslog",
	};
	enum { N = 100000, WARM = 10000 };
	static double t[N];
	maelys_datalog_session_t *session;
	struct pty_decider d;
	struct pty_policy_reads reads; /* as a session notes them */
	struct pty_decision dec;
	struct pty_child fake;
	pthread_t reader;
	char err[512];
	int p[2], i, allowed = 0;

	if (pty_policy_open(policy, &session, &reads, err, sizeof err) != 0 ||
	    pty_decider_init(&d, session, &reads,
			     "/usr/local/bin:/usr/bin:/bin") != 0) {
		fprintf(stderr, "bench_pty: %s\n", err);
		exit(1);
	}
	/* the command channel as pty/line/child.c makes it: a socket pair, the
	 * guard's end shut down for reading */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) != 0 ||
	    shutdown(p[1], SHUT_RD) != 0)
		exit(1);
	memset(&fake, 0, sizeof fake);
	fake.cmd_fd = p[1];
	pthread_create(&reader, NULL, drain, &p[0]);
	for (i = 0; i < N + WARM; i++) {
		const char *l = lines[i % (sizeof lines / sizeof lines[0])];
		size_t len = strlen(l);
		double t0 = bench_pty_now_s();

		pty_decide(&d, l, len, PTY_MODE_INTERACTIVE, &dec);
		if (dec.verdict == PTY_VERDICT_ALLOW) {
			allowed++;
			if (pty_child_send_line(&fake, l, len) != 0)
				exit(1);
		}
		if (i >= WARM)
			t[i - WARM] = bench_pty_now_s() - t0;
	}
	close(p[1]);
	pthread_join(reader, NULL);
	close(p[0]);
	qsort(t, N, sizeof t[0], bench_pty_cmp_double);
	printf("decision (scan+tokenise+facts+solve+query+forward), %d lines, "
	       "%d allowed:\n",
	       N, (int)((long long)allowed * N / (N + WARM)));
	printf("  p50 %.2f us   p99 %.2f us   max %.1f us   (target: p99 < "
	       "100 us)\n\n",
	       t[N / 2] * 1e6, t[N * 99 / 100] * 1e6, t[N - 1] * 1e6);
	fflush(stdout);
	pty_decider_free(&d);
	(void)maelys_datalog_session_free(session);
}

/* Writes `text` to path with mode `mode`, or exits. */
static void
put_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0 ||
	    chmod(path, mode) != 0) {
		fprintf(stderr, "bench_pty: cannot write %s\n", path);
		exit(1);
	}
}

void
bench_audit_keys(const char *state)
{
	char pub[1024], err[512];
	const char *slash = strrchr(state, '/');

	snprintf(pub, sizeof pub, "%.*s/audit.pub",
		 (int)(slash != NULL ? slash - state : 1),
		 slash != NULL ? state : ".");
	if (pty_audit_keygen(state, pub, NULL, err, sizeof err) != 0) {
		fprintf(stderr, "bench_pty: %s\n", err);
		exit(1);
	}
}

/* A guard concluding lines with an audit log in `dir`: in this process
 * (pty_audit_open) or through an audit writer process
 * (pty_audit_start_writer), as a session does.  Exits on failure. */
struct audited {
	struct pty_guard g;
	struct pty_decider d;
	maelys_datalog_session_t *session;
	struct pty_policy_reads reads;
	char dir[300], key[400], log[400];
	pid_t writer;
	double *t;
};

/* How a guard of the audit part records: in its own process, through a
 * writer as a session does (the record, then the fallback session_end
 * brought up to date), and through a writer without the fallback updates
 * (a guard whose end is recorded: what the updates cost). */
enum audited_kind { AUDITED_PROCESS, AUDITED_WRITER, AUDITED_NO_FALLBACK };

static void
audited_open(struct audited *a, const char *policy, const char *dir,
	     enum audited_kind kind, int n)
{
	bool writer = kind != AUDITED_PROCESS;
	char err[512];
	int rc;

	snprintf(a->dir, sizeof a->dir, "%s/bench_pty_audit.XXXXXX", dir);
	if ((a->t = calloc((size_t)n, sizeof *a->t)) == NULL ||
	    mkdtemp(a->dir) == NULL) {
		fprintf(stderr, "bench_pty: cannot use %s\n", dir);
		exit(1);
	}
	snprintf(a->key, sizeof a->key, "%s/audit.key", a->dir);
	snprintf(a->log, sizeof a->log, "%s/audit.log", a->dir);
	bench_audit_keys(a->key);
	memset(&a->g, 0, sizeof a->g);
	pty_config_defaults(&a->g.cfg);
	rc = writer
		 ? pty_audit_start_writer(a->log, a->key, &a->g.audit, err,
					  sizeof err)
		 : pty_audit_open(a->log, a->key, &a->g.audit, err, sizeof err);
	if (rc != 0 ||
	    pty_policy_open(policy, &a->session, &a->reads, err, sizeof err) !=
		0 ||
	    pty_decider_init(&a->d, a->session, &a->reads,
			     "/usr/local/bin:/usr/bin:/bin") != 0 ||
	    pty_audit_session_id(a->g.asess.id) != 0) {
		fprintf(stderr, "bench_pty: %s\n", err);
		exit(1);
	}
	a->writer = pty_audit_writer_pid(a->g.audit);
	pty_guard_set_identity(&a->g, &a->d.who);
	a->g.asess.mode = "interactive";
	pty_sha256_hex("bench", 5, a->g.asess.policy_sha256);
	/* a guard's fallback is set at its session's start; after its end,
	 * it is no longer updated */
	if (writer && pty_guard_event(&a->g, "session_start", NULL) != 0) {
		fprintf(stderr, "bench_pty: session_start not recorded\n");
		exit(1);
	}
	a->g.end_recorded = kind == AUDITED_NO_FALLBACK;
}

/* Closes a's log (ending its writer), verifies it, removes it. */
static void
audited_close(struct audited *a)
{
	pty_audit_close(a->g.audit);
	if (a->writer > 0)
		(void)waitpid(a->writer, NULL, 0);
	if (pty_audit_verify(a->log, a->key, NULL) != 0) {
		fprintf(stderr,
			"bench_pty: the benchmark's log %s does not "
			"verify\n",
			a->log);
		exit(1);
	}
	pty_decider_free(&a->d);
	(void)maelys_datalog_session_free(a->session);
	(void)unlink(a->log);
	(void)unlink(a->key);
	(void)rmdir(a->dir);
	free(a->t);
}

/* The CPU time process pid has run, in ns, or 0. */
static unsigned long long
cpu_ns(pid_t pid)
{
	unsigned long long ns = 0;
	char path[64];
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/schedstat", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return ns;
}

/* 4. Decisions concluded with an audit record in `dir`, n lines each way:
 * in this process (pty_audit_open), and through an audit writer process
 * (pty_audit_start_writer: what a session does), alternating line by
 * line so that the disk's and the machine's drift fall on both. */
static void
bench_audited(const char *policy, const char *dir, const char *what, int n)
{
	static const char *const lines[] = {"ls -la /var/log", "shutdown now",
					    "git push origin feature/x",
					    "tail -n 100 /var/log/syslog"};
	/* 0: in process, 1: the writer, 2: the writer without the
	 * fallback's updates */
	static struct audited a[3];
	unsigned long long wcpu0, wcpu1;
	int i, k, null = open("/dev/null", O_WRONLY | O_CLOEXEC), ran = 0;

	if (null < 0)
		exit(1);
	for (k = 0; k < 3; k++)
		audited_open(&a[k], policy, dir, (enum audited_kind)k, n);
	wcpu0 = cpu_ns(a[1].writer);
	for (i = 0; i < n; i++) {
		const char *l = lines[i % (sizeof lines / sizeof lines[0])];

		/* which goes first rotates: each one's fdatasync may
		 * leave work for the next */
		for (k = 0; k < 3; k++) {
			struct audited *x = &a[(i + k) % 3];
			double t0 = bench_pty_now_s();

			if (pty_guard_conclude(&x->g, &x->d, l, strlen(l),
					       PTY_MODE_INTERACTIVE, false, null,
					       "\n") == PTY_ACT_RUN)
				ran++;
			x->t[i] = bench_pty_now_s() - t0;
		}
	}
	wcpu1 = cpu_ns(a[1].writer);
	for (k = 0; k < 3; k++) {
		double *t = a[k].t;

		qsort(t, (size_t)n, sizeof t[0], bench_pty_cmp_double);
		printf("  %-30s %-16s p50 %8.2f us   p99 %9.2f us   max "
		       "%9.1f us\n",
		       k == 0 ? what : "",
		       k == 0	? "in process"
		       : k == 1 ? "audit writer"
				: "no fallback upd.",
		       t[n / 2] * 1e6, t[(long)n * 99 / 100] * 1e6,
		       t[n - 1] * 1e6);
	}
	printf("  %-30s the fallback session_end's update after each "
	       "decision: p50 %.2f, p99 %.2f of the writer without it "
	       "(+%.1f us at the median)\n",
	       "", a[1].t[n / 2] / a[2].t[n / 2],
	       a[1].t[(long)n * 99 / 100] / a[2].t[(long)n * 99 / 100],
	       (a[1].t[n / 2] - a[2].t[n / 2]) * 1e6);
	printf("  %-30s writer/in process: p50 %.2f, p99 %.2f (+%.1f us at "
	       "the median); the writer's CPU %.1f us a record (%d lines "
	       "each, %d ran)\n",
	       "", a[1].t[n / 2] / a[0].t[n / 2],
	       a[1].t[(long)n * 99 / 100] / a[0].t[(long)n * 99 / 100],
	       (a[1].t[n / 2] - a[0].t[n / 2]) * 1e6,
	       wcpu1 > wcpu0 ? (double)(wcpu1 - wcpu0) / 1e3 / n : 0.0, n,
	       ran / 3);
	fflush(stdout);
	for (k = 0; k < 3; k++)
		audited_close(&a[k]);
	close(null);
}

void
bench_pty_make_file(const char *path, size_t mib)
{
	char line[80];
	FILE *f = fopen(path, "w");
	size_t total = mib << 20, n = 0;

	if (f == NULL)
		exit(1);
	/* printable text: what a terminal shows */
	memset(line, 'x', sizeof line);
	line[sizeof line - 1] = '\n';
	for (n = 0; n + sizeof line <= total; n += sizeof line) {
		line[0] = (char)('a' + (n / sizeof line) % 26);
		fwrite(line, 1, sizeof line, f);
	}
	fprintf(f, "%s\n", END_MARK);
	fclose(f);
}

/* Reads fd until one of the marks has been seen (or EOF); counts bytes. */
static size_t
read_until_any(int fd, const char *const *marks, size_t nmarks, double timeout)
{
	char buf[65536 + 64];
	size_t total = 0, keep = 0, ml = 0, k;
	double end = bench_pty_now_s() + timeout;

	for (k = 0; k < nmarks; k++)
		if (strlen(marks[k]) > ml)
			ml = strlen(marks[k]);
	while (bench_pty_now_s() < end) {
		struct pollfd pfd = {fd, POLLIN, 0};
		size_t len;
		ssize_t n;

		if (poll(&pfd, 1, 1000) <= 0)
			continue;
		n = read(fd, buf + keep, 65536);
		if (n <= 0)
			return total;
		total += (size_t)n;
		len = keep + (size_t)n;
		for (k = 0; k < nmarks; k++)
			if (memmem(buf, len, marks[k], strlen(marks[k])) !=
			    NULL)
				return total;
		/* keep a tail: a mark may straddle two reads */
		keep = len < ml ? len : ml - 1;
		memmove(buf, buf + len - keep, keep);
	}
	return total;
}

static size_t
read_until(int fd, const char *mark, double timeout)
{
	return read_until_any(fd, &mark, 1, timeout);
}

static double
run_nopty(const char *file)
{
	int p[2];
	pid_t pid;
	double t0;

	if (pipe(p) != 0)
		exit(1);
	t0 = bench_pty_now_s();
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		execlp("cat", "cat", file, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	read_until(p[0], END_MARK, 600);
	waitpid(pid, NULL, 0);
	close(p[0]);
	return bench_pty_now_s() - t0;
}

double
bench_pty_run_script(const char *file, const char *typescript)
{
	struct winsize ws = {24, 80, 0, 0};
	char cmd[600];
	int master;
	pid_t pid;
	double t0 = bench_pty_now_s();

	snprintf(cmd, sizeof cmd, "cat %s", file);
	pid = forkpty(&master, NULL, NULL, &ws);
	if (pid == 0) {
		execlp("script", "script", "-q", "-c", cmd,
		       typescript != NULL ? typescript : "/dev/null",
		       (char *)NULL);
		_exit(127);
	}
	read_until(master, END_MARK, 600);
	waitpid(pid, NULL, 0);
	close(master);
	return bench_pty_now_s() - t0;
}

static long
vm_hwm_kib(pid_t pid)
{
	char path[64], line[256];
	FILE *f;
	long kib = -1;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/* The guard on a pty showing `file`; with `config`, the deployed guard
 * (--config), else the development one (--policy). */
double
bench_pty_run_guard(const char *guard, const char *policy, const char *config,
	  const char *file, long *hwm_kib)
{
	struct winsize ws = {24, 80, 0, 0};
	char cmd[600];
	int master;
	pid_t pid;
	double t0;

	pid = forkpty(&master, NULL, NULL, &ws);
	if (pid == 0) {
		char *envp[] = {"TERM=dumb", "HOME=/tmp", NULL};

		if (config != NULL)
			execle(guard, guard, "--config", config, "--history",
			       "/tmp/bench_pty.history", (char *)NULL, envp);
		else
			execle(guard, guard, "--policy", policy, "--history",
			       "/tmp/bench_pty.history", (char *)NULL, envp);
		_exit(127);
	}
	{
		static const char *const prompts[] = {"$ ", "# "};

		read_until_any(master, prompts, 2, 30);
	}
	snprintf(cmd, sizeof cmd, "cat %s\r", file);
	t0 = bench_pty_now_s();
	if (write(master, cmd, strlen(cmd)) < 0)
		exit(1);
	read_until(master, END_MARK, 600);
	t0 = bench_pty_now_s() - t0;
	*hwm_kib = vm_hwm_kib(pid);
	{
		static const char *const prompts[] = {"$ ", "# "};

		/* typed before the prompt returns, "exit" would be typeahead
		 * of the finished job, and discarded */
		read_until_any(master, prompts, 2, 30);
	}
	if (write(master, "exit\r", 5) < 0)
		exit(1);
	read_until(master, "\x01never", 5);
	waitpid(pid, NULL, 0);
	close(master);
	return t0;
}

double
bench_pty_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof v[0], bench_pty_cmp_double);
	return v[n / 2];
}

/* 5. The deployed guard (configuration, audit log), as root only: the
 * configuration must be root's.  One cat of the file through it. */
static void
deployed_guard(const char *guard, const char *policy, const char *file,
	       size_t mib)
{
	char dir[] = "/tmp/bench_pty_conf.XXXXXX", conf[300], key[300],
	     log[300], text[5200], abs_policy[4096];
	double t;
	long hwm = -1;

	if (geteuid() != 0) {
		printf("guard peak memory with config and audit log: skipped "
		       "(needs root: the configuration must be root's)\n");
		return;
	}
	if (mkdtemp(dir) == NULL || realpath(policy, abs_policy) == NULL)
		exit(1);
	snprintf(conf, sizeof conf, "%s/maelys-pty.conf", dir);
	snprintf(key, sizeof key, "%s/audit.key", dir);
	snprintf(log, sizeof log, "%s/audit.log", dir);
	bench_audit_keys(key);
	snprintf(text, sizeof text,
		 "policy = %s\naudit_log = %s\naudit_key = %s\nsyslog = "
		 "off\n",
		 abs_policy, log, key);
	put_file(conf, text, 0644);
	t = bench_pty_run_guard(guard, policy, conf, file, &hwm);
	printf("guard with config and audit log: cat of %zu MiB %.3f s, "
	       "peak memory (VmHWM) %.1f MiB (target < 8 MiB)\n",
	       mib, t, (double)hwm / 1024.0);
	(void)unlink(log);
	(void)unlink(key);
	(void)unlink(conf);
	(void)rmdir(dir);
}

/* The parts -p chooses (all by default). */
enum {
	PART_DECISION = 1,
	PART_THROUGHPUT = 2,
	PART_AUDIT = 4,
	PART_CHANNEL = 8,
	PART_END = 16,
	PART_RECORD = 32,
};

static const struct {
	const char *name;
	unsigned bit;
} parts_table[] = {{"decision", PART_DECISION},
		   {"throughput", PART_THROUGHPUT},
		   {"audit", PART_AUDIT},
		   {"channel", PART_CHANNEL},
		   {"end", PART_END},
		   {"record", PART_RECORD}};

/* A comma list of part names; 0 when one is unknown. */
static unsigned
parts_parse(const char *list)
{
	char buf[256], *save = NULL, *k;
	unsigned parts = 0;
	size_t i;

	if (snprintf(buf, sizeof buf, "%s", list) >= (int)sizeof buf)
		return 0;
	for (k = strtok_r(buf, ",", &save); k != NULL;
	     k = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof parts_table / sizeof parts_table[0]; i++)
			if (strcmp(k, parts_table[i].name) == 0)
				break;
		if (i == sizeof parts_table / sizeof parts_table[0])
			return 0;
		parts |= parts_table[i].bit;
	}
	return parts;
}

int
main(int argc, char **argv)
{
	const char *guard, *policy;
	size_t mib = 256;
	int runs = 3, i, opt;
	unsigned parts = ~0u;
	char file[] = "/tmp/bench_pty.XXXXXX";
	double nopty[16], script[16], guarded[16];
	long hwm = -1, h;
	double mb;

	while ((opt = getopt(argc, argv, "p:")) != -1) {
		if (opt != 'p' || (parts = parts_parse(optarg)) == 0)
			goto usage;
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc < 3)
		goto usage;
	guard = argv[1];
	policy = argv[2];
	if (argc > 3)
		mib = (size_t)strtoul(argv[3], NULL, 10);
	if (argc > 4)
		runs = atoi(argv[4]);
	if (runs < 1 || runs > 16 || mib < 1)
		return 2;
	signal(SIGPIPE, SIG_IGN);
	if (parts & PART_DECISION)
		bench_decisions(policy);

	if (parts & PART_THROUGHPUT) {
		close(mkstemp(file));
		bench_pty_make_file(file, mib);
		mb = (double)(mib << 20) / 1e6;
		for (i = 0; i < runs; i++) {
			/* interleaved, so drift hits all three alike */
			nopty[i] = run_nopty(file);
			script[i] = bench_pty_run_script(file, NULL);
			guarded[i] = bench_pty_run_guard(guard, policy, NULL, file, &h);
			if (h > hwm)
				hwm = h;
		}
		printf(
		    "output throughput, cat of %zu MiB, median of %d runs:\n",
		    mib, runs);
		printf("  no pty          %7.3f s  %8.1f MB/s\n",
		       bench_pty_median(nopty, runs), mb / bench_pty_median(nopty, runs));
		printf("  script -q -c    %7.3f s  %8.1f MB/s\n",
		       bench_pty_median(script, runs), mb / bench_pty_median(script, runs));
		printf(
		    "  maelys-pty      %7.3f s  %8.1f MB/s   %.2f of script's "
		    "(target >= 0.90)\n\n",
		    bench_pty_median(guarded, runs), mb / bench_pty_median(guarded, runs),
		    bench_pty_median(script, runs) / bench_pty_median(guarded, runs));
		printf("guard peak memory (VmHWM): %.1f MiB (target < 8 MiB)\n",
		       (double)hwm / 1024.0);
		deployed_guard(guard, policy, file, mib);
		unlink(file);
	}

	if (parts & PART_AUDIT) {
		printf("\ndecision concluded with its audit record (decide, "
		       "record, sign, write, fdatasync), in this process and "
		       "through the audit writer process a session uses, "
		       "alternating:\n");
		bench_audited(policy, "/dev/shm", "audit log on tmpfs", 20000);
		bench_audited(policy, "/var/tmp",
			      "audit log on /var/tmp's disk", 2000);
	}
	if (parts & PART_CHANNEL)
		bench_pty_channel(100000);
	if (parts & PART_END)
		bench_pty_end(15);
	if (parts & PART_RECORD)
		bench_pty_record(guard, policy, mib < 64 ? mib : 64, runs);
	return 0;
usage:
	fprintf(stderr, "usage: bench_pty [-p PARTS] GUARD POLICY [MIB] "
			"[RUNS]\n"
			"  PARTS: a comma list of decision throughput audit "
			"channel end record (all by default)\n");
	return 2;
}
