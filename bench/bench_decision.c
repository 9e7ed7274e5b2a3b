/* SPDX-License-Identifier: MIT */
/*
 * bench_decision.c - the cost of one Level 1 decision inside one process.
 *
 *   bench_decision [-n DECISIONS] [-w WARMUP] POLICY.dl
 *
 * Loads POLICY.dl (policies/walkthrough.dl) under the walkthrough's domain,
 * then decides DECISIONS lines as the walkthrough's evaluate_line does once it
 * has the tokens: create the input EDB, add command/user/arg/shell_metachar
 * facts, session_solve_edb, MAELYS_DATALOG_QUERY allow, free the result and
 * the EDB.  Each decision is timed alone with CLOCK_MONOTONIC; the lines
 * rotate among the walkthrough's five and lines made of fresh strings (a new
 * argument, a new user), so that interning unseen values is measured too.
 * Every answer is checked against the expected one: a fast wrong engine is
 * not a result.
 *
 * Prints the median, p90, p99 and max of the per-decision times in
 * microseconds and VmRSS before and after the timed run: a session reuses
 * its working memory, so RSS must not grow with the number of decisions.
 * Targets (bench/README.md): median < 5 us, p99 < 20 us, no growth.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <maelys/datalog.h>

#include "level1_domain.h"
#include <maelys/datalog_builders.h>

/* The walkthrough's domain (level1_domain.h). */
static const maelys_datalog_domain_t pty_domain = LEVEL1_DOMAIN("pty_policy");

/*
 * Growth of VmRSS below this is not growth: the kernel keeps RSS in per-CPU
 * counters that /proc reads approximately (tens of pages off), while a leak
 * of even 3 bytes a decision is 290 KiB over 100,000 decisions.
 */
#define RSS_SLACK_KIB 256

#define LINE_ARGS_MAX 8
#define LINE_META_MAX 4

/*
 * One line as the walkthrough's host sees it after the metacharacter scan
 * and strtok: the command token, the further tokens, the metacharacter
 * classes found, the user, and the decision the Level 1 policy must give.
 */
struct line {
	const char *text; /* for the listing printed at start */
	const char *command;
	const char *args[LINE_ARGS_MAX];
	const char *meta[LINE_META_MAX];
	const char *user;
	bool allowed;
};

/*
 * The transcript of the walkthrough ("Level 1 in action").  The quoted git
 * line is refused by the walkthrough's scanner before solving; here it is
 * solved with the tokens strtok gives, so that every line times the engine.
 */
static const struct line walkthrough_lines[] = {
    {"shutdown now", "shutdown", {"now"}, {NULL}, "alice", false},
    {"echo hello | grep hello",
     "echo",
     {"hello", "|", "grep", "hello"},
     {"pipe"},
     "alice",
     false},
    {"git commit -m \"feat: solver\"",
     "git",
     {"commit", "-m", "\"feat:", "solver\""},
     {NULL},
     "alice",
     true},
    {"CMD=rm; $CMD /",
     "CMD=rm;",
     {"$CMD", "/"},
     {"semicolon", "var_expand"},
     "alice",
     false},
    {"git push origin feature/x",
     "git",
     {"push", "origin", "feature/x"},
     {NULL},
     "alice",
     true},
};

#define NWALK   (sizeof walkthrough_lines / sizeof walkthrough_lines[0])
/* every NWALK + 2 decisions: the five lines, then two of fresh strings */
#define NROTATE (NWALK + 2)

/* Room for the strings of a fresh line, made before its timer starts. */
struct fresh {
	char arg[32];
	char user[32];
};

/* The line of decision number i; fresh lines write their strings in *f. */
static struct line
line_for(uint64_t i, struct fresh *f)
{
	struct line l;
	size_t k = (size_t)(i % NROTATE);

	if (k < NWALK)
		return walkthrough_lines[k];
	memset(&l, 0, sizeof l);
	/* a path never seen before, by alice: allowed */
	snprintf(f->arg, sizeof f->arg, "/tmp/f%llu", (unsigned long long)i);
	snprintf(f->user, sizeof f->user, "u%llu", (unsigned long long)i);
	if (k == NWALK) {
		l.text = "ls -l /tmp/f<i>";
		l.command = "ls";
		l.args[0] = "-l";
		l.args[1] = f->arg;
		l.user = "alice";
		l.allowed = true;
	} else {
		/* curl by a user never seen before: denied (not trusted) */
		l.text = "curl <url> (user u<i>)";
		l.command = "curl";
		l.args[0] = f->arg;
		l.user = f->user;
		l.allowed = false;
	}
	return l;
}

/* One decision, as evaluate_line makes it; 1 allowed, 0 denied, -1 error. */
static int
decide(maelys_datalog_session_t *session, const struct line *l)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = NULL;
	maelys_datalog_result_t *result = NULL;
	maelys_datalog_status_t rc;
	int allowed = 0;
	size_t i;

	rc = maelys_datalog_input_edb_create(&edb);
	if (rc != MAELYS_DATALOG_STATUS_OK)
		goto out;
	for (i = 0; i < LINE_META_MAX && l->meta[i] != NULL; i++) {
		rc = MAELYS_DATALOG_ADD_FACT(edb, &diag, "shell_metachar",
					     l->meta[i]);
		if (rc != MAELYS_DATALOG_STATUS_OK)
			goto out;
	}
	rc = MAELYS_DATALOG_ADD_FACTS(
	    edb, &diag, MAELYS_DATALOG_FACT("command", l->command),
	    MAELYS_DATALOG_FACT("user", l->user));
	if (rc != MAELYS_DATALOG_STATUS_OK)
		goto out;
	for (i = 0; i < LINE_ARGS_MAX && l->args[i] != NULL; i++) {
		rc = MAELYS_DATALOG_ADD_FACT(edb, &diag, "arg", l->args[i]);
		if (rc != MAELYS_DATALOG_STATUS_OK)
			goto out;
	}
	rc = maelys_datalog_session_solve_edb(session, edb, &result, &diag);
	if (rc != MAELYS_DATALOG_STATUS_OK)
		goto out;
	rc = MAELYS_DATALOG_QUERY(result, &allowed, "allow", l->command);
out:
	if (rc != MAELYS_DATALOG_STATUS_OK)
		fprintf(stderr, "bench_decision: %s: %s\n",
			maelys_datalog_status_name(rc), diag.message);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	return rc != MAELYS_DATALOG_STATUS_OK ? -1 : allowed != 0;
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
		perror("bench_decision: clock_gettime");
		exit(1);
	}
	return (uint64_t)ts.tv_sec * UINT64_C(1000000000) +
	       (uint64_t)ts.tv_nsec;
}

/* VmRSS of this process in KiB, or -1 where /proc does not say. */
static long
vm_rss_kib(void)
{
	char buf[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (f == NULL)
		return -1;
	while (fgets(buf, sizeof buf, f) != NULL)
		if (strncmp(buf, "VmRSS:", 6) == 0) {
			kib = strtol(buf + 6, NULL, 10);
			break;
		}
	fclose(f);
	return kib;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of sorted v[0..n) (nearest rank), in microseconds. */
static double
quantile_us(const uint64_t *v, size_t n, double q)
{
	size_t k = (size_t)(q * (double)n);

	if (k >= n)
		k = n - 1;
	return (double)v[k] / 1000.0;
}

/* Parses a positive count for option `opt`; exits on anything else. */
static uint64_t
parse_count(const char *opt, const char *s)
{
	char *end = NULL;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v == 0 ||
	    v > UINT64_C(100000000) || s[0] == '-') {
		fprintf(stderr,
			"bench_decision: %s: not a count from 1 to "
			"100000000: '%s'\n",
			opt, s);
		exit(2);
	}
	return (uint64_t)v;
}

static int
load_session(const char *path, maelys_datalog_session_t **session)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t rc;

	rc = maelys_datalog_domain_register(&pty_domain);
	if (rc == MAELYS_DATALOG_STATUS_OK)
		rc = maelys_datalog_policy_load_file(pty_domain.name, path,
						     &policy, &diag);
	if (rc == MAELYS_DATALOG_STATUS_OK)
		rc = maelys_datalog_session_create(policy, 0u, session);
	(void)maelys_datalog_policy_free(policy);
	if (rc == MAELYS_DATALOG_STATUS_OK)
		rc = maelys_datalog_session_prepare(*session, &diag);
	if (rc != MAELYS_DATALOG_STATUS_OK) {
		fprintf(stderr, "bench_decision: %s: %s: %s\n", path,
			maelys_datalog_status_name(rc), diag.message);
		return -1;
	}
	return 0;
}

/* Runs n decisions from number `first`; times them into t when not NULL. */
static int
run(maelys_datalog_session_t *session, uint64_t first, uint64_t n, uint64_t *t)
{
	struct fresh f;
	uint64_t i;

	for (i = 0; i < n; i++) {
		struct line l = line_for(first + i, &f);
		uint64_t t0 = now_ns();
		int got = decide(session, &l);
		uint64_t t1 = now_ns();

		if (got != (int)l.allowed) {
			fprintf(stderr,
				"bench_decision: decision %llu "
				"(%s by %s): got %s, expected %s\n",
				(unsigned long long)(first + i), l.text, l.user,
				got < 0 ? "an error" : (got ? "allow" : "deny"),
				l.allowed ? "allow" : "deny");
			return -1;
		}
		if (t != NULL)
			t[i] = t1 - t0;
	}
	return 0;
}

static void
usage(void)
{
	fprintf(stderr, "usage: bench_decision [-n DECISIONS] [-w WARMUP] "
			"POLICY.dl\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	maelys_datalog_session_t *session = NULL;
	uint64_t n = 100000, warm = 10000, *t, t0, t1, sum = 0, i;
	long rss_before, rss_after;
	const char *path = NULL;
	int a;

	for (a = 1; a < argc; a++) {
		if (strcmp(argv[a], "-n") == 0 && a + 1 < argc)
			n = parse_count("-n", argv[++a]);
		else if (strcmp(argv[a], "-w") == 0 && a + 1 < argc)
			warm = parse_count("-w", argv[++a]);
		else if (argv[a][0] == '-' || path != NULL)
			usage();
		else
			path = argv[a];
	}
	if (path == NULL)
		usage();
	if ((t = calloc((size_t)n, sizeof *t)) == NULL) {
		fprintf(stderr, "bench_decision: out of memory\n");
		return 1;
	}
	/* touch every page now, so that filling t does not count as growth */
	for (i = 0; i < n; i++)
		t[i] = i;
	if (load_session(path, &session) != 0)
		return 1;

	printf("bench_decision: %s, libmaelys-datalog %s\n", path,
	       maelys_datalog_version());
	printf("lines (rotating):");
	for (i = 0; i < NROTATE; i++) {
		struct fresh f;
		struct line l = line_for(i, &f);

		printf("%s '%s' (%s)", i == 0 ? "" : ",", l.text,
		       l.allowed ? "allow" : "deny");
	}
	printf("\n");

	/* warm-up: caches, the session's workspace pool, the allocator */
	if (run(session, 0, warm, NULL) != 0)
		return 1;
	rss_before = vm_rss_kib();
	t0 = now_ns();
	if (run(session, warm, n, t) != 0)
		return 1;
	t1 = now_ns();
	rss_after = vm_rss_kib();

	for (i = 0; i < n; i++)
		sum += t[i];
	qsort(t, (size_t)n, sizeof *t, cmp_u64);
	printf("decisions: %llu timed after %llu warm-up, %.0f per second "
	       "(wall, timer included)\n",
	       (unsigned long long)n, (unsigned long long)warm,
	       (double)n * 1e9 / (double)(t1 - t0));
	printf("per decision (us): median %.2f  p90 %.2f  p99 %.2f  "
	       "max %.2f  mean %.2f\n",
	       quantile_us(t, (size_t)n, 0.5), quantile_us(t, (size_t)n, 0.9),
	       quantile_us(t, (size_t)n, 0.99), (double)t[n - 1] / 1000.0,
	       (double)sum / (double)n / 1000.0);
	printf("VmRSS (KiB): before %ld  after %ld  growth %ld\n", rss_before,
	       rss_after, rss_after - rss_before);
	printf("targets: median < 5 us %s, p99 < 20 us %s, no RSS growth "
	       "(< %d KiB) %s\n",
	       quantile_us(t, (size_t)n, 0.5) < 5.0 ? "met" : "MISSED",
	       quantile_us(t, (size_t)n, 0.99) < 20.0 ? "met" : "MISSED",
	       RSS_SLACK_KIB,
	       rss_before >= 0 && rss_after - rss_before < RSS_SLACK_KIB
		   ? "met"
		   : "MISSED");
	(void)maelys_datalog_session_free(session);
	free(t);
	return 0;
}
