/* SPDX-License-Identifier: MIT */
/*
 * Threads (the rules at the top of <maelys/datalog.h>): a policy is
 * immutable and shared, so sessions of one policy decide in parallel, each
 * getting its own answers for thousands of lines at once; policies load
 * in parallel; and the reference count that keeps a policy alive for its
 * sessions holds when the last two references are dropped by two threads
 * at the same moment.  Worker threads never call ck_assert (Check's
 * failure path is not for other threads): they count errors and keep the
 * first message, and the test thread asserts on them.  The sanitizer build
 * turns a race on freed memory into a failure.
 */
#define _POSIX_C_SOURCE 200809L

#include "runner.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <maelys/datalog.h>
#include <maelys/datalog_builders.h>

#include "datalog_testutil.h"

#define ST_OK MAELYS_DATALOG_STATUS_OK

/* The walkthrough's table, under a name of this suite's own. */
static const maelys_datalog_domain_t threads_pty_domain =
    DLTEST_LEVEL1_DOMAIN("threads_pty");

/* A standalone program with a regex (one pcre2_code shared by every
 * session, match data per session) and recursion. */
static const char regex_src[] =
    ".decl e(x, y)\n"
    ".input e\n"
    ".decl tc(x, y)\n"
    "tc(X, Y) :- e(X, Y).\n"
    "tc(X, Z) :- tc(X, Y), e(Y, Z).\n"
    ".decl hit(x)\n"
    "hit(Y) :- tc(_, Y), re_match(Y, \"^t[0-9]+-(7|13)$\").\n";

/* A worker's verdict. */
struct worker {
	int id;
	struct dltest_errors err;
	pthread_barrier_t *start;
	maelys_datalog_policy_t *policy;   /* for workers that solve */
	maelys_datalog_session_t *session; /* owned by the worker */
	unsigned long iterations;
	const char *level1;
	size_t level1_len;
};

static void
assert_workers_ok(const struct worker *w, int n)
{
	int i;

	for (i = 0; i < n; i++)
		ck_assert_msg(w[i].err.count == 0,
			      "worker %d: %d errors; first: %s", w[i].id,
			      w[i].err.count, w[i].err.why);
}

/* The Level 1 policy loaded from `text` under this suite's domain. */
static maelys_datalog_policy_t *
load_level1(const char *text, size_t len)
{
	ck_assert_status(maelys_datalog_domain_register(&threads_pty_domain),
			 ST_OK);
	return dltest_load_n("threads_pty", "walkthrough.dl", text, len);
}

/* ------------------------------------------------------------------ */
/* Deciding in parallel                                                */

/* Line `i` of worker `id`: strings unique to the worker, so an answer
 * that leaked from another session would name a command this worker never
 * sent.  Returns 0 if the session answered as the policy says. */
static int
decide_level1(struct worker *w, unsigned long i)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = NULL;
	maelys_datalog_result_t *result = NULL;
	maelys_datalog_fact_view_t rows[4];
	maelys_datalog_status_t st;
	char command[48], user[32];
	const char *meta = NULL;
	int allowed = -1, denied = -1, want;
	size_t n = 0;

	(void)snprintf(command, sizeof command, "w%d-cmd-%lu", w->id, i);
	(void)snprintf(user, sizeof user, "%s",
		       i % 3 == 0 ? "alice" : "mallory");
	switch ((i + (unsigned long)w->id) % 5) {
	case 0:
		(void)snprintf(command, sizeof command, "shutdown");
		break;
	case 1:
		(void)snprintf(command, sizeof command, "curl");
		break;
	case 2:
		meta = w->id % 2 ? "pipe" : "backtick";
		break;
	default:
		break;
	}
	want = strcmp(command, "shutdown") != 0 && meta == NULL &&
	       !(strcmp(command, "curl") == 0 && i % 3 != 0);
	if ((st = maelys_datalog_input_edb_create(&edb)) != ST_OK ||
	    (st = MAELYS_DATALOG_ADD_FACTS(
		 edb, &diag, MAELYS_DATALOG_FACT("command", command),
		 MAELYS_DATALOG_FACT("user", user))) != ST_OK ||
	    (meta != NULL &&
	     (st = MAELYS_DATALOG_ADD_FACT(edb, &diag, "shell_metachar",
					   meta)) != ST_OK) ||
	    (st = maelys_datalog_session_solve_edb(w->session, edb, &result,
						   &diag)) != ST_OK ||
	    (st = MAELYS_DATALOG_QUERY(result, &allowed, "allow", command)) !=
		ST_OK ||
	    (st = MAELYS_DATALOG_QUERY(result, &denied, "deny_any",
				       meta != NULL ? "__line__" : command)) !=
		ST_OK ||
	    (st = maelys_datalog_result_enumerate(result, "allow", 1, rows, 4,
						  &n)) != ST_OK) {
		dltest_note(&w->err, "line %lu: %s: %s", i,
			    maelys_datalog_status_name(st), diag.message);
	} else if (allowed != want || denied != !want || n != (size_t)want) {
		dltest_note(&w->err,
			    "line %lu (%s by %s%s%s): allow %d deny %d "
			    "rows %zu, want %d",
			    i, command, user, meta ? " with " : "",
			    meta ? meta : "", allowed, denied, n, want);
	} else if (n == 1) {
		const char *text = NULL;
		size_t len = 0;

		/* the one allowed command is this worker's */
		st = maelys_datalog_result_symbol_text(
		    result, rows[0].terms[0].as.symbol_id, &text, &len);
		if (st != ST_OK || len != strlen(command) ||
		    memcmp(text, command, len) != 0)
			dltest_note(&w->err,
				    "line %lu: allow(%s), want allow(%s)", i,
				    st == ST_OK ? text : "?", command);
	}
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	return w->err.count == 0 ? 0 : -1;
}

/* Line `i` of the regex program: a chain of 12 nodes named by worker and
 * line; hit/1 holds exactly the nodes numbered 7 and 13 (when reached). */
static int
decide_regex(struct worker *w, unsigned long i)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = NULL;
	maelys_datalog_result_t *result = NULL;
	maelys_datalog_status_t st = ST_OK;
	unsigned long base = (unsigned long)w->id * 1000000UL + i;
	size_t hits = 0, pairs = 0;
	char x[48], y[48];
	int k, found = -1;

	if (maelys_datalog_input_edb_create(&edb) != ST_OK) {
		dltest_note(&w->err, "edb_create");
		return -1;
	}
	for (k = 0; k < 12 && st == ST_OK; k++) {
		(void)snprintf(x, sizeof x, "t%lu-%d", base, k);
		(void)snprintf(y, sizeof y, "t%lu-%d", base, k + 2);
		st = MAELYS_DATALOG_ADD_FACT(edb, &diag, "e", x, y);
	}
	if (st != ST_OK ||
	    (st = maelys_datalog_session_solve_edb(w->session, edb, &result,
						   &diag)) != ST_OK ||
	    (st = maelys_datalog_result_count(result, "hit", 1, &hits)) !=
		ST_OK ||
	    (st = maelys_datalog_result_count(result, "tc", 2, &pairs)) !=
		ST_OK) {
		dltest_note(&w->err, "regex line %lu: %s: %s", i,
			    maelys_datalog_status_name(st), diag.message);
	} else {
		/* edges k -> k+2 for k < 12 form two chains of 6 (even and
		 * odd starts): 2 * 6 * 7 / 2 = 42 pairs; of the targets
		 * 2..13, "-7" and "-13" match */
		(void)snprintf(y, sizeof y, "t%lu-13", base);
		if (MAELYS_DATALOG_QUERY(result, &found, "hit", y) != ST_OK ||
		    found != 1 || hits != 2 || pairs != 42)
			dltest_note(&w->err,
				    "regex line %lu: hit %zu (%s: %d), tc "
				    "%zu; want 2, 1, 42",
				    i, hits, y, found, pairs);
	}
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	return w->err.count == 0 ? 0 : -1;
}

static void *
solve_worker(void *arg)
{
	struct worker *w = arg;
	unsigned long i;
	int regex = w->level1 == NULL;

	(void)pthread_barrier_wait(w->start);
	for (i = 0; i < w->iterations; i++)
		if ((regex ? decide_regex(w, i) : decide_level1(w, i)) != 0)
			break;
	return NULL;
}

/* Starts `n` workers, each with a session of its policy, and waits.  The
 * caller's references in `drop` are released once the sessions exist, so
 * that only the sessions keep the policies alive while they run. */
static void
run_solvers(struct worker *w, int n, maelys_datalog_policy_t **drop, int ndrop)
{
	pthread_t threads[8];
	pthread_barrier_t start;
	int i;

	ck_assert_int_le(n, 8);
	ck_assert_int_eq(pthread_barrier_init(&start, NULL, (unsigned)n), 0);
	for (i = 0; i < n; i++) {
		w[i].start = &start;
		ck_assert_status(maelys_datalog_session_create(w[i].policy, 0,
							       &w[i].session),
				 ST_OK);
	}
	for (i = 0; i < ndrop; i++)
		(void)maelys_datalog_policy_free(drop[i]);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(
		    pthread_create(&threads[i], NULL, solve_worker, &w[i]), 0);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(pthread_join(threads[i], NULL), 0);
	(void)pthread_barrier_destroy(&start);
	for (i = 0; i < n; i++)
		(void)maelys_datalog_session_free(w[i].session);
	assert_workers_ok(w, n);
}

START_TEST(test_threads_two_sessions_of_one_policy_decide_in_parallel)
{
	struct worker w[2];
	size_t len;
	char *text = dltest_read_walkthrough(&len);
	maelys_datalog_policy_t *policy = load_level1(text, len);
	int i;

	memset(w, 0, sizeof w);
	for (i = 0; i < 2; i++) {
		w[i].id = i;
		w[i].policy = policy;
		w[i].iterations = 20000;
		w[i].level1 = text;
	}
	run_solvers(w, 2, &policy, 1);
	free(text);
}
END_TEST

START_TEST(test_threads_eight_sessions_decide_in_parallel)
{
	struct worker w[8];
	size_t len;
	char *text = dltest_read_walkthrough(&len);
	maelys_datalog_policy_t *level1 = load_level1(text, len);
	maelys_datalog_policy_t *regex =
	    dltest_load_n(NULL, "regex.dl", regex_src, sizeof regex_src - 1);
	int i;

	memset(w, 0, sizeof w);
	for (i = 0; i < 8; i++) {
		w[i].id = i;
		/* half share the Level 1 policy, half the regex program */
		w[i].policy = i % 2 ? regex : level1;
		w[i].level1 = i % 2 ? NULL : text;
		w[i].iterations = i % 2 ? 2000 : 5000;
	}
	{
		maelys_datalog_policy_t *drop[2] = {level1, regex};

		run_solvers(w, 8, drop, 2);
	}
	free(text);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Loading in parallel                                                 */

static void *
load_worker(void *arg)
{
	struct worker *w = arg;
	maelys_datalog_domain_t own = threads_pty_domain;
	char name[32];
	unsigned long i;

	(void)snprintf(name, sizeof name, "threads_own_%d", w->id);
	own.name = name;
	(void)pthread_barrier_wait(w->start);
	for (i = 0; i < w->iterations && w->err.count == 0; i++) {
		maelys_datalog_diagnostic_t diag =
		    MAELYS_DATALOG_DIAGNOSTIC_INIT;
		maelys_datalog_policy_t *policy = NULL;
		const char *domain = i % 2 ? "threads_pty" : name;
		maelys_datalog_status_t st;

		/* registering while others load under the same names */
		if ((st = maelys_datalog_domain_register(&own)) != ST_OK ||
		    (st = maelys_datalog_domain_register(
			 &threads_pty_domain)) != ST_OK) {
			dltest_note(&w->err, "register: %s",
				    maelys_datalog_status_name(st));
			break;
		}
		if (i % 3 == 2)
			st = maelys_datalog_policy_load_inline(
			    NULL, "regex.dl", regex_src, sizeof regex_src - 1,
			    &policy, &diag);
		else
			st = maelys_datalog_policy_load_inline(
			    domain, "level1.dl", w->level1, w->level1_len,
			    &policy, &diag);
		if (st != ST_OK) {
			dltest_note(&w->err, "load %lu: %s: %s", i,
				    maelys_datalog_status_name(st),
				    diag.message);
			break;
		}
		/* every policy loaded this way decides */
		if (maelys_datalog_session_create(policy, 0, &w->session) !=
		    ST_OK) {
			dltest_note(&w->err, "session_create %lu", i);
		} else {
			if (i % 3 == 2)
				(void)decide_regex(w, i);
			else
				(void)decide_level1(w, i);
			(void)maelys_datalog_session_free(w->session);
			w->session = NULL;
		}
		(void)maelys_datalog_policy_free(policy);
	}
	return NULL;
}

/* Aggregates nested as deep as they may be (8), loaded on a thread of a
 * small stack: the parser keeps an aggregate's body (up to 128 literals)
 * off the stack, so the nesting costs little of it. */
static const char nested_aggs_src[] =
    ".decl e(x: number)\ne(1).\n.decl o(x: number)\n"
    "o(z) :- z = count : { e(_), y8 = count : { e(_), y7 = count : "
    "{ e(_), y6 = count : { e(_), y5 = count : { e(_), y4 = count : "
    "{ e(_), y3 = count : { e(_), y2 = count : { e(_), y1 = 1 } } } } } "
    "} } }.\n";

static void *
nested_aggs_worker(void *arg)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t *st = arg;

	*st = maelys_datalog_policy_load_text(
	    NULL, "nested.dl", nested_aggs_src, sizeof nested_aggs_src - 1,
	    MAELYS_DATALOG_LOAD_SOUFFLE, &policy, &diag);
	if (policy != NULL)
		(void)maelys_datalog_policy_free(policy);
	return NULL;
}

START_TEST(test_threads_nested_aggregates_load_on_a_small_stack)
{
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	pthread_attr_t attr;
	pthread_t thread;

	ck_assert_int_eq(pthread_attr_init(&attr), 0);
	/* the eight bodies alone took 312 KiB when they were on it */
	ck_assert_int_eq(pthread_attr_setstacksize(&attr, 256 * 1024), 0);
	ck_assert_int_eq(
	    pthread_create(&thread, &attr, nested_aggs_worker, &st), 0);
	ck_assert_int_eq(pthread_join(thread, NULL), 0);
	ck_assert_int_eq(pthread_attr_destroy(&attr), 0);
	ck_assert_status(st, ST_OK);
}
END_TEST

START_TEST(test_threads_concurrent_loads_each_decide)
{
	struct worker w[8];
	pthread_t threads[8];
	pthread_barrier_t start;
	size_t len;
	char *text = dltest_read_walkthrough(&len);
	int i;

	ck_assert_status(maelys_datalog_domain_register(&threads_pty_domain),
			 ST_OK);
	ck_assert_int_eq(pthread_barrier_init(&start, NULL, 8), 0);
	memset(w, 0, sizeof w);
	for (i = 0; i < 8; i++) {
		w[i].id = i;
		w[i].start = &start;
		w[i].iterations = 60;
		w[i].level1 = text;
		w[i].level1_len = len;
		ck_assert_int_eq(
		    pthread_create(&threads[i], NULL, load_worker, &w[i]), 0);
	}
	for (i = 0; i < 8; i++)
		ck_assert_int_eq(pthread_join(threads[i], NULL), 0);
	(void)pthread_barrier_destroy(&start);
	assert_workers_ok(w, 8);
	free(text);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Freeing from two threads                                            */

#define FREE_ROUNDS   3000
#define FREE_SESSIONS 3

/* Each round the main thread makes a policy and FREE_SESSIONS sessions of
 * it; worker 0 drops the policy while workers 1.. free one session each,
 * all released by the same barrier.  Whichever reference goes last must
 * free the policy exactly once. */
struct free_race {
	pthread_barrier_t go, done;
	maelys_datalog_policy_t *policy;
	maelys_datalog_session_t *sessions[FREE_SESSIONS];
	maelys_datalog_status_t status[FREE_SESSIONS + 1];
	int rounds;
};

struct free_worker {
	struct free_race *race;
	int slot; /* 0: the policy; k > 0: session k-1 */
};

static void *
free_worker_main(void *arg)
{
	struct free_worker *fw = arg;
	struct free_race *r = fw->race;
	int round;

	for (round = 0; round < r->rounds; round++) {
		(void)pthread_barrier_wait(&r->go);
		if (fw->slot == 0)
			r->status[0] = maelys_datalog_policy_free(r->policy);
		else
			r->status[fw->slot] = maelys_datalog_session_free(
			    r->sessions[fw->slot - 1]);
		(void)pthread_barrier_wait(&r->done);
	}
	return NULL;
}

static void
free_race(int nsessions, int solve_first)
{
	static const char src[] = ".decl p(x)\n"
				  ".input p\n"
				  ".decl q(x)\n"
				  "q(X) :- p(X).\n"
				  ".decl c(x)\n"
				  "c(\"k\").\n";
	struct free_race r;
	struct free_worker fw[FREE_SESSIONS + 1];
	pthread_t threads[FREE_SESSIONS + 1];
	maelys_datalog_input_edb_t *edb = NULL;
	int i, round, nthreads = nsessions + 1;

	ck_assert_int_le(nsessions, FREE_SESSIONS);
	memset(&r, 0, sizeof r);
	r.rounds = FREE_ROUNDS;
	ck_assert_int_eq(
	    pthread_barrier_init(&r.go, NULL, (unsigned)nthreads + 1), 0);
	ck_assert_int_eq(
	    pthread_barrier_init(&r.done, NULL, (unsigned)nthreads + 1), 0);
	ck_assert_status(maelys_datalog_input_edb_create(&edb), ST_OK);
	ck_assert_status(MAELYS_DATALOG_ADD_FACT(edb, NULL, "p", "v"), ST_OK);
	for (i = 0; i < nthreads; i++) {
		fw[i].race = &r;
		fw[i].slot = i;
		ck_assert_int_eq(
		    pthread_create(&threads[i], NULL, free_worker_main, &fw[i]),
		    0);
	}
	for (round = 0; round < FREE_ROUNDS; round++) {
		ck_assert_status(
		    maelys_datalog_policy_load_inline(
			NULL, "race.dl", src, sizeof src - 1, &r.policy, NULL),
		    ST_OK);
		for (i = 0; i < nsessions; i++) {
			ck_assert_status(maelys_datalog_session_create(
					     r.policy, 0, &r.sessions[i]),
					 ST_OK);
			if (solve_first) {
				maelys_datalog_result_t *res = NULL;

				/* a prepared session with a pooled
				 * workspace has more to free */
				ck_assert_status(
				    maelys_datalog_session_solve_edb(
					r.sessions[i], edb, &res, NULL),
				    ST_OK);
				(void)maelys_datalog_result_free(res);
			}
		}
		(void)pthread_barrier_wait(&r.go);
		(void)pthread_barrier_wait(&r.done);
		for (i = 0; i < nthreads; i++)
			ck_assert_msg(r.status[i] == ST_OK,
				      "round %d: free %d returned %s", round, i,
				      maelys_datalog_status_name(r.status[i]));
	}
	for (i = 0; i < nthreads; i++)
		ck_assert_int_eq(pthread_join(threads[i], NULL), 0);
	(void)pthread_barrier_destroy(&r.go);
	(void)pthread_barrier_destroy(&r.done);
	(void)maelys_datalog_input_edb_free(edb);
}

START_TEST(test_threads_policy_free_races_session_free)
{
	free_race(1, 0);
	free_race(1, 1);
}
END_TEST

START_TEST(test_threads_policy_free_races_three_session_frees)
{
	free_race(3, 1);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("threads");

	tcase_set_timeout(tc, 500);
	tcase_add_test(
	    tc, test_threads_two_sessions_of_one_policy_decide_in_parallel);
	tcase_add_test(tc, test_threads_eight_sessions_decide_in_parallel);
	tcase_add_test(tc, test_threads_concurrent_loads_each_decide);
	tcase_add_test(tc,
		       test_threads_nested_aggregates_load_on_a_small_stack);
	tcase_add_test(tc, test_threads_policy_free_races_session_free);
	tcase_add_test(tc, test_threads_policy_free_races_three_session_frees);
	suite_add_tcase(s, tc);
	return s;
}
