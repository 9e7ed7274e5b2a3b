/* SPDX-License-Identifier: MIT */
/*
 * Allocation failures (in the manner of SQLite's fault tests): every operation
 * is run again and again with its 1st, 2nd, 3rd, ... allocation failing
 * (dl_mem_fail_after of the DL_TESTING build) until it gets through.
 * Every failed attempt must return STATUS_NO_MEMORY with a diagnostic,
 * leave its out-parameters NULL, leave the objects it was given usable,
 * and leave the heap exactly as it found it; the attempt that gets through
 * must give the right answer.  Under ASan/LSan (the sanitizer build) a
 * leak or a use after free on any of these paths fails the run as well.
 *
 * Each attempt runs in a thread of its own: the fault countdown is
 * per-thread, and a thread's exit hands glibc's per-thread cache of freed
 * chunks back to the heap, so that the heap measured after the attempt
 * (mallinfo2, or the ASan allocator's count) is exact.
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
#include "dl_mem.h"

#define SOURCE       "alloc.dl"
#define ST_OK        MAELYS_DATALOG_STATUS_OK
#define ST_NO_MEMORY MAELYS_DATALOG_STATUS_NO_MEMORY

/* An operation far bigger than any here; the loop stops there. */
#define MAX_ATTEMPTS 20000

/* The walkthrough's table, under a name of this suite's own. */
static const maelys_datalog_domain_t alloc_pty_domain =
    DLTEST_LEVEL1_DOMAIN("alloc_pty");

/* A recursive program with negation and regular expressions. */
static const char recursive_src[] =
    ".decl e(x, y)\n"
    ".input e\n"
    ".decl tc(x, y)\n"
    "tc(X, Y) :- e(X, Y).\n"
    "tc(X, Z) :- tc(X, Y), e(Y, Z).\n"
    ".decl risky(x)\n"
    "risky(X) :- tc(X, _), re_match(X, \"^(rm|dd)( |$)\").\n"
    ".decl quiet(x)\n"
    "quiet(X) :- tc(X, _), not(risky(X)), !re_match(X, \"[0-9]{3,}\").\n"
    ".decl seed(x)\n"
    "seed(\"rm -rf\").\n"
    "seed(\"ls\").\n"
    ".decl reached(x)\n"
    "reached(Y) :- seed(X), tc(X, Y).\n";

/* The graph domain (datalog_testutil.h): a policy with a recursive
 * stratum of its own, prepared once per session. */
static const maelys_datalog_domain_t alloc_graph_domain =
    DLTEST_GRAPH_DOMAIN("alloc_graph");
#define GRAPH_LINKS 40

/* ------------------------------------------------------------------ */
/* The harness                                                         */

struct attempt;

struct fault_op {
	const char *name;
	/* unarmed, before: builds what the operation is given */
	void (*setup)(struct attempt *a);
	/* armed: the operation; returns its status */
	maelys_datalog_status_t (*run)(struct attempt *a);
	/* unarmed, after: checks the outcome (answer or failure state) */
	void (*check)(struct attempt *a);
	/* unarmed: frees everything */
	void (*cleanup)(struct attempt *a);
	/* a success keeps memory on purpose (a registered domain) */
	int keeps_memory;
};

struct attempt {
	const struct fault_op *op;
	const void *shared; /* what the test prepared once */
	size_t n;           /* the allocation made to fail */
	size_t allocs;      /* allocations the armed part made */
	maelys_datalog_status_t st;
	maelys_datalog_diagnostic_t diag;
	struct dltest_errors err; /* the checks that failed */
	/* the operation's objects */
	maelys_datalog_policy_t *policy;
	maelys_datalog_session_t *session;
	maelys_datalog_input_edb_t *edb, *edb2;
	maelys_datalog_result_t *result, *result2;
};

/* Checks that a failed call reported NO_MEMORY in its diagnostic. */
static void
check_no_memory_diag(struct attempt *a)
{
	if (a->diag.status != a->st)
		dltest_note(&a->err, "diag.status %s, call returned %s",
			    maelys_datalog_status_name(a->diag.status),
			    maelys_datalog_status_name(a->st));
	else if (a->diag.message[0] == '\0')
		dltest_note(&a->err, "no diagnostic message for %s",
			    maelys_datalog_status_name(a->st));
}

static void *
attempt_main(void *arg)
{
	struct attempt *a = arg;

	if (a->op->setup != NULL)
		a->op->setup(a);
	if (a->err.count == 0) {
		(void)dl_mem_fail_after(a->n);
		a->st = a->op->run(a);
		a->allocs = dl_mem_fail_after(0);
		if (a->op->check != NULL)
			a->op->check(a);
	}
	if (a->op->cleanup != NULL)
		a->op->cleanup(a);
	return NULL;
}

/* Runs one attempt in a thread; returns the heap bytes it left behind. */
static long long
run_attempt(struct attempt *a)
{
	pthread_t t;
	size_t before, after;

	before = dltest_live_heap_bytes();
	ck_assert_int_eq(pthread_create(&t, NULL, attempt_main, a), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	after = dltest_live_heap_bytes();
	return (long long)after - (long long)before;
}

static void *
noop_main(void *arg)
{
	return arg;
}

/* The first thread of a process makes glibc set up an arena and thread
 * caches that stay: start one before measuring anything. */
static void
warm_up_threads(void)
{
	pthread_t t;

	ck_assert_int_eq(pthread_create(&t, NULL, noop_main, NULL), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
}

/* Fails allocation 1, 2, 3, ... of `op` until it succeeds without a
 * failure; returns the number of allocations it needs. */
static size_t
fault_loop(const struct fault_op *op, const void *shared)
{
	struct attempt a;
	size_t n, failures = 0;
	long long left;

	/* one attempt without faults first: thread stacks, arenas and lazy
	 * library state are in place before anything is measured */
	memset(&a, 0, sizeof a);
	a.op = op;
	a.shared = shared;
	(void)run_attempt(&a);
	ck_assert_msg(a.err.count == 0, "%s without faults: %s", op->name,
		      a.err.why);
	ck_assert_msg(a.st == ST_OK, "%s without faults: %s (%s)", op->name,
		      maelys_datalog_status_name(a.st), a.diag.message);
	for (n = 1; n <= MAX_ATTEMPTS; n++) {
		memset(&a, 0, sizeof a);
		a.op = op;
		a.shared = shared;
		a.n = n;
		left = run_attempt(&a);
		ck_assert_msg(a.err.count == 0,
			      "%s, allocation %zu failing: %s", op->name, n,
			      a.err.why);
		if (a.st != ST_OK) {
			ck_assert_msg(a.st == ST_NO_MEMORY,
				      "%s, allocation %zu failing: %s (%s), "
				      "want no_memory",
				      op->name, n,
				      maelys_datalog_status_name(a.st),
				      a.diag.message);
			failures++;
		}
		if (a.st != ST_OK || !op->keeps_memory)
			ck_assert_msg(left == 0,
				      "%s, allocation %zu failing (%s): %lld "
				      "bytes left on the heap",
				      op->name, n,
				      maelys_datalog_status_name(a.st), left);
		if (a.st == ST_OK && a.allocs < n)
			break; /* the failure point is past the operation */
	}
	ck_assert_msg(n <= MAX_ATTEMPTS, "%s never got through", op->name);
	ck_assert_msg(failures > 0, "%s made no allocation that could fail",
		      op->name);
	return n - 1;
}

/* ------------------------------------------------------------------ */
/* Shared state                                                        */

struct shared {
	char *level1;
	size_t level1_len;
	char level1_path[4096];
	char *graph_src;
	maelys_datalog_policy_t *level1_policy;
	maelys_datalog_policy_t *recursive_policy;
	maelys_datalog_policy_t *graph_policy;
};

static void
shared_init(struct shared *s)
{
	size_t cap = 8192;

	memset(s, 0, sizeof *s);
	ck_assert_status(maelys_datalog_domain_register(&alloc_pty_domain),
			 ST_OK);
	ck_assert_status(maelys_datalog_domain_register(&alloc_graph_domain),
			 ST_OK);
	dltest_walkthrough_path(s->level1_path, sizeof s->level1_path);
	s->level1 = dltest_read_file(s->level1_path, &s->level1_len);

	s->graph_src = malloc(cap);
	ck_assert_ptr_nonnull(s->graph_src);
	dltest_graph_policy(s->graph_src, cap, GRAPH_LINKS, 1);

	s->level1_policy =
	    dltest_load_n("alloc_pty", SOURCE, s->level1, s->level1_len);
	s->recursive_policy = dltest_load_n(NULL, SOURCE, recursive_src,
					    sizeof recursive_src - 1);
	s->graph_policy = dltest_load("alloc_graph", SOURCE, s->graph_src);
}

static void
shared_free(struct shared *s)
{
	(void)maelys_datalog_policy_free(s->level1_policy);
	(void)maelys_datalog_policy_free(s->recursive_policy);
	(void)maelys_datalog_policy_free(s->graph_policy);
	free(s->graph_src);
	free(s->level1);
	memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------------ */
/* Helpers the operations share (unarmed, reporting into the attempt)  */

static int
query1(struct attempt *a, const maelys_datalog_result_t *r,
       const char *predicate, const char *value)
{
	int found = -1;
	maelys_datalog_status_t st =
	    MAELYS_DATALOG_QUERY(r, &found, predicate, value);

	if (st != ST_OK)
		dltest_note(&a->err, "query %s(%s): %s", predicate, value,
			    maelys_datalog_status_name(st));
	return found;
}

static size_t
count_of(struct attempt *a, const maelys_datalog_result_t *r,
	 const char *predicate, size_t arity)
{
	size_t n = 0;
	maelys_datalog_status_t st =
	    maelys_datalog_result_count(r, predicate, arity, &n);

	if (st != ST_OK)
		dltest_note(&a->err, "count %s: %s", predicate,
			    maelys_datalog_status_name(st));
	return n;
}

/* A Level 1 line: command, user and `nargs` arguments. */
static maelys_datalog_input_edb_t *
level1_edb(struct attempt *a, const char *command, const char *user, int nargs)
{
	maelys_datalog_input_edb_t *edb = NULL;
	int i;

	if (maelys_datalog_input_edb_create(&edb) != ST_OK ||
	    MAELYS_DATALOG_ADD_FACTS(
		edb, NULL, MAELYS_DATALOG_FACT("command", command),
		MAELYS_DATALOG_FACT("user", user)) != ST_OK) {
		dltest_note(&a->err, "building a Level 1 EDB");
		return edb;
	}
	for (i = 0; i < nargs; i++) {
		char v[32];

		(void)snprintf(v, sizeof v, "arg-%d", i);
		if (MAELYS_DATALOG_ADD_FACT(edb, NULL, "arg", v) != ST_OK)
			dltest_note(&a->err, "adding arg %d", i);
	}
	return edb;
}

/* Checks a Level 1 answer for `command` by `user`. */
static void
check_level1(struct attempt *a, const maelys_datalog_result_t *r,
	     const char *command, const char *user)
{
	int trusted = strcmp(user, "alice") == 0 || strcmp(user, "root") == 0;
	int forbidden = strcmp(command, "shutdown") == 0;
	int want = !forbidden && !(strcmp(command, "curl") == 0 && !trusted);

	if (query1(a, r, "allow", command) != want)
		dltest_note(&a->err, "allow(%s) for %s is not %d", command,
			    user, want);
	if (query1(a, r, "deny_any", command) != !want)
		dltest_note(&a->err, "deny_any(%s) for %s is not %d", command,
			    user, !want);
}

static maelys_datalog_result_t *
solve_unarmed(struct attempt *a, maelys_datalog_session_t *s,
	      const maelys_datalog_input_edb_t *edb)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_result_t *r = NULL;
	maelys_datalog_status_t st;

	st = maelys_datalog_session_solve_edb(s, edb, &r, &diag);
	if (st != ST_OK)
		dltest_note(&a->err, "unarmed solve: %s: %s",
			    maelys_datalog_status_name(st), diag.message);
	return r;
}

/* A chain of `n` edges between command-like names; every 4th is risky,
 * every 5th has a long number in it. */
static maelys_datalog_input_edb_t *
chain_edb(struct attempt *a, int n)
{
	maelys_datalog_input_edb_t *edb = NULL;
	int i;

	if (maelys_datalog_input_edb_create(&edb) != ST_OK) {
		dltest_note(&a->err, "creating the chain EDB");
		return NULL;
	}
	for (i = 0; i < n; i++) {
		char x[32], y[32];

		(void)snprintf(x, sizeof x, "%s%d",
			       i % 4 == 0   ? "rm "
			       : i % 5 == 0 ? "job 12345-"
					    : "ls ",
			       i);
		(void)snprintf(y, sizeof y, "%s%d",
			       (i + 1) % 4 == 0   ? "rm "
			       : (i + 1) % 5 == 0 ? "job 12345-"
						  : "ls ",
			       i + 1);
		if (MAELYS_DATALOG_ADD_FACT(edb, NULL, "e", x, y) != ST_OK)
			dltest_note(&a->err, "adding edge %d", i);
	}
	return edb;
}

/* What the recursive program derives from chain_edb(n): tc is every pair
 * i < j; risky every source i with i % 4 == 0; quiet the other sources
 * without a long number. */
static void
check_recursive(struct attempt *a, const maelys_datalog_result_t *r, int n)
{
	size_t risky = 0, quiet = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (i % 4 == 0)
			risky++;
		else if (i % 5 != 0)
			quiet++;
	}
	if (count_of(a, r, "tc", 2) != (size_t)n * (size_t)(n + 1) / 2)
		dltest_note(&a->err, "tc has %zu pairs, want %d",
			    count_of(a, r, "tc", 2), n * (n + 1) / 2);
	if (count_of(a, r, "risky", 1) != risky)
		dltest_note(&a->err, "risky has %zu, want %zu",
			    count_of(a, r, "risky", 1), risky);
	if (count_of(a, r, "quiet", 1) != quiet)
		dltest_note(&a->err, "quiet has %zu, want %zu",
			    count_of(a, r, "quiet", 1), quiet);
	if (query1(a, r, "risky", "rm 0") != 1 ||
	    query1(a, r, "quiet", "ls 1") != 1)
		dltest_note(&a->err, "wrong risky/quiet rows");
}

static void
free_all(struct attempt *a)
{
	(void)maelys_datalog_result_free(a->result2);
	(void)maelys_datalog_result_free(a->result);
	(void)maelys_datalog_input_edb_free(a->edb2);
	(void)maelys_datalog_input_edb_free(a->edb);
	(void)maelys_datalog_session_free(a->session);
	(void)maelys_datalog_policy_free(a->policy);
	a->result = a->result2 = NULL;
	a->edb = a->edb2 = NULL;
	a->session = NULL;
	a->policy = NULL;
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */

static void
check_loaded_level1(struct attempt *a)
{
	maelys_datalog_session_t *s = NULL;
	maelys_datalog_input_edb_t *edb;
	maelys_datalog_result_t *r;

	if (a->st != ST_OK) {
		if (a->policy != NULL)
			dltest_note(&a->err, "failed load left a policy");
		check_no_memory_diag(a);
		return;
	}
	if (maelys_datalog_session_create(a->policy, 0, &s) != ST_OK) {
		dltest_note(&a->err, "session_create on the loaded policy");
		return;
	}
	edb = level1_edb(a, "curl", "mallory", 1);
	r = solve_unarmed(a, s, edb);
	if (r != NULL)
		check_level1(a, r, "curl", "mallory");
	(void)maelys_datalog_result_free(r);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(s);
}

static maelys_datalog_status_t
run_load_level1(struct attempt *a)
{
	const struct shared *s = a->shared;

	return maelys_datalog_policy_load_inline("alloc_pty", "walkthrough.dl",
						 s->level1, s->level1_len,
						 &a->policy, &a->diag);
}

static maelys_datalog_status_t
run_load_level1_file(struct attempt *a)
{
	const struct shared *s = a->shared;

	return maelys_datalog_policy_load_file("alloc_pty", s->level1_path,
					       &a->policy, &a->diag);
}

static maelys_datalog_status_t
run_load_recursive(struct attempt *a)
{
	return maelys_datalog_policy_load_inline(
	    NULL, "recursive.dl", recursive_src, sizeof recursive_src - 1,
	    &a->policy, &a->diag);
}

static void
check_loaded_recursive(struct attempt *a)
{
	maelys_datalog_session_t *s = NULL;
	maelys_datalog_input_edb_t *edb;
	maelys_datalog_result_t *r;

	if (a->st != ST_OK) {
		if (a->policy != NULL)
			dltest_note(&a->err, "failed load left a policy");
		check_no_memory_diag(a);
		return;
	}
	if (maelys_datalog_session_create(a->policy, 0, &s) != ST_OK) {
		dltest_note(&a->err, "session_create on the loaded policy");
		return;
	}
	edb = chain_edb(a, 9);
	r = solve_unarmed(a, s, edb);
	if (r != NULL)
		check_recursive(a, r, 9);
	(void)maelys_datalog_result_free(r);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(s);
}

static const struct fault_op op_load_level1 = {
    "load Level 1", NULL, run_load_level1, check_loaded_level1, free_all, 0,
};
static const struct fault_op op_load_level1_file = {
    "load_file Level 1", NULL,     run_load_level1_file,
    check_loaded_level1, free_all, 0,
};
static const struct fault_op op_load_recursive = {
    "load recursive program", NULL,     run_load_recursive,
    check_loaded_recursive,   free_all, 0,
};

START_TEST(test_alloc_load_level1_fails_cleanly_then_loads)
{
	struct shared s;

	shared_init(&s);
	(void)fault_loop(&op_load_level1, &s);
	shared_free(&s);
}
END_TEST

START_TEST(test_alloc_load_file_fails_cleanly_then_loads)
{
	struct shared s;

	shared_init(&s);
	(void)fault_loop(&op_load_level1_file, &s);
	shared_free(&s);
}
END_TEST

START_TEST(test_alloc_load_recursive_regex_program_fails_cleanly)
{
	struct shared s;

	shared_init(&s);
	(void)fault_loop(&op_load_recursive, &s);
	shared_free(&s);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Sessions                                                            */

static maelys_datalog_status_t
run_session_prepare(struct attempt *a, maelys_datalog_policy_t *policy)
{
	maelys_datalog_status_t st;

	st = maelys_datalog_session_create(policy, 0, &a->session);
	if (st != ST_OK) {
		/* session_create has no diagnostic: fill ours for check */
		a->diag.status = st;
		(void)snprintf(a->diag.message, sizeof a->diag.message,
			       "session_create");
		if (a->session != NULL)
			dltest_note(&a->err,
				    "failed session_create left a session");
		return st;
	}
	return maelys_datalog_session_prepare(a->session, &a->diag);
}

static maelys_datalog_status_t
run_prepare_level1(struct attempt *a)
{
	const struct shared *s = a->shared;

	return run_session_prepare(a, s->level1_policy);
}

static maelys_datalog_status_t
run_prepare_graph(struct attempt *a)
{
	const struct shared *s = a->shared;

	return run_session_prepare(a, s->graph_policy);
}

/* After a failed prepare the session prepares and decides unarmed. */
static void
check_prepared_level1(struct attempt *a)
{
	maelys_datalog_input_edb_t *edb;
	maelys_datalog_result_t *r;

	if (a->st != ST_OK)
		check_no_memory_diag(a);
	if (a->session == NULL)
		return;
	edb = level1_edb(a, "shutdown", "root", 0);
	r = solve_unarmed(a, a->session, edb);
	if (r != NULL)
		check_level1(a, r, "shutdown", "root");
	(void)maelys_datalog_result_free(r);
	(void)maelys_datalog_input_edb_free(edb);
}

static void
check_prepared_graph(struct attempt *a)
{
	maelys_datalog_input_edb_t *edb = NULL;
	maelys_datalog_result_t *r;

	if (a->st != ST_OK)
		check_no_memory_diag(a);
	if (a->session == NULL)
		return;
	if (maelys_datalog_input_edb_create(&edb) != ST_OK ||
	    MAELYS_DATALOG_ADD_FACT(edb, NULL, "req", "n0") != ST_OK) {
		dltest_note(&a->err, "building the graph EDB");
	} else {
		r = solve_unarmed(a, a->session, edb);
		if (r != NULL && count_of(a, r, "ok", 1) != GRAPH_LINKS)
			dltest_note(&a->err, "ok/1 has %zu rows, want %d",
				    count_of(a, r, "ok", 1), GRAPH_LINKS);
		(void)maelys_datalog_result_free(r);
	}
	(void)maelys_datalog_input_edb_free(edb);
}

static const struct fault_op op_prepare_level1 = {
    "session_create + prepare (Level 1)",
    NULL,
    run_prepare_level1,
    check_prepared_level1,
    free_all,
    0,
};
static const struct fault_op op_prepare_graph = {
    "session_create + prepare (recursive policy strata)",
    NULL,
    run_prepare_graph,
    check_prepared_graph,
    free_all,
    0,
};

START_TEST(test_alloc_session_create_and_prepare_fail_cleanly)
{
	struct shared s;

	shared_init(&s);
	(void)fault_loop(&op_prepare_level1, &s);
	(void)fault_loop(&op_prepare_graph, &s);
	shared_free(&s);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Input EDBs                                                          */

#define EDB_FACTS 64

/* One add of the builder sequence; the EDB must be unchanged when it
 * fails. */
static maelys_datalog_status_t
edb_step(struct attempt *a, int i)
{
	maelys_datalog_input_edb_t *edb = a->edb;
	size_t before = maelys_datalog_input_edb_count(edb);
	maelys_datalog_arg_t args[3];
	maelys_datalog_status_t st;
	char big[3000], v[32];

	(void)snprintf(v, sizeof v, "value-%d", i);
	switch (i % 4) {
	case 0:
		st = MAELYS_DATALOG_ADD_FACTS(
		    edb, &a->diag, MAELYS_DATALOG_FACT("command", v),
		    MAELYS_DATALOG_FACT("user", "mallory"),
		    MAELYS_DATALOG_FACT("arg", v, "x"));
		break;
	case 1:
		args[0] = maelys_datalog_arg_integer(i);
		args[1] = maelys_datalog_arg_symbol(v);
		args[2] = maelys_datalog_arg_integer(INT64_MIN + i);
		st = maelys_datalog_input_edb_add(edb, "triple", args, 3,
						  &a->diag);
		break;
	case 2:
		/* long strings make the byte buffer grow */
		memset(big, 'a' + i % 26, sizeof big);
		args[0] = maelys_datalog_arg_symbol_n(big, sizeof big);
		st = maelys_datalog_input_edb_add(edb, "blob", args, 1,
						  &a->diag);
		break;
	default:
		st = MAELYS_DATALOG_ADD_FACT(edb, &a->diag, "arg", v);
		break;
	}
	if (st != ST_OK && maelys_datalog_input_edb_count(edb) != before)
		dltest_note(&a->err, "failed add %d left %zu facts, had %zu", i,
			    maelys_datalog_input_edb_count(edb), before);
	return st;
}

static maelys_datalog_status_t
run_edb_build(struct attempt *a)
{
	maelys_datalog_status_t st;
	int i;

	st = maelys_datalog_input_edb_create(&a->edb);
	if (st != ST_OK) {
		if (a->edb != NULL)
			dltest_note(&a->err, "failed create left an EDB");
		a->diag.status = st;
		(void)snprintf(a->diag.message, sizeof a->diag.message,
			       "input_edb_create");
		return st;
	}
	for (i = 0; i < EDB_FACTS; i++)
		if ((st = edb_step(a, i)) != ST_OK)
			return st;
	return ST_OK;
}

/* A failed build leaves an EDB that still takes facts and solves. */
static void
check_edb_build(struct attempt *a)
{
	const struct shared *s = a->shared;
	maelys_datalog_session_t *session = NULL;
	maelys_datalog_result_t *r;
	size_t want = 0;
	int i;

	for (i = 0; i < EDB_FACTS; i++)
		want += i % 4 == 0 ? 3 : 1;
	if (a->st != ST_OK) {
		check_no_memory_diag(a);
		if (a->edb == NULL)
			return;
	} else if (maelys_datalog_input_edb_count(a->edb) != want) {
		dltest_note(&a->err, "%zu facts, want %zu",
			    maelys_datalog_input_edb_count(a->edb), want);
	}
	/* only Level 1 facts solve: cut the rest away and solve */
	if (maelys_datalog_input_edb_clear(a->edb) != ST_OK ||
	    MAELYS_DATALOG_ADD_FACTS(
		a->edb, NULL, MAELYS_DATALOG_FACT("command", "curl"),
		MAELYS_DATALOG_FACT("user", "root")) != ST_OK ||
	    maelys_datalog_session_create(s->level1_policy, 0, &session) !=
		ST_OK) {
		dltest_note(&a->err, "reusing the EDB");
		return;
	}
	r = solve_unarmed(a, session, a->edb);
	if (r != NULL)
		check_level1(a, r, "curl", "root");
	(void)maelys_datalog_result_free(r);
	(void)maelys_datalog_session_free(session);
}

static const struct fault_op op_edb_build = {
    "input EDB building", NULL, run_edb_build, check_edb_build, free_all, 0,
};

START_TEST(test_alloc_edb_building_fails_cleanly_and_all_or_nothing)
{
	struct shared s;

	shared_init(&s);
	(void)fault_loop(&op_edb_build, &s);
	shared_free(&s);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Solving                                                             */

static void
setup_session(struct attempt *a, maelys_datalog_policy_t *policy)
{
	if (maelys_datalog_session_create(policy, 0, &a->session) != ST_OK ||
	    maelys_datalog_session_prepare(a->session, NULL) != ST_OK)
		dltest_note(&a->err, "unarmed session setup");
}

static void
setup_solve_level1(struct attempt *a)
{
	const struct shared *s = a->shared;

	setup_session(a, s->level1_policy);
	a->edb = level1_edb(a, "curl", "mallory", 40);
}

static maelys_datalog_status_t
run_solve(struct attempt *a)
{
	return maelys_datalog_session_solve_edb(a->session, a->edb, &a->result,
						&a->diag);
}

/* Whatever happened, the session decides the next line correctly. */
static void
check_solved_level1(struct attempt *a)
{
	maelys_datalog_input_edb_t *edb;
	maelys_datalog_result_t *r;

	if (a->st != ST_OK) {
		if (a->result != NULL)
			dltest_note(&a->err, "failed solve left a result");
		check_no_memory_diag(a);
	} else {
		check_level1(a, a->result, "curl", "mallory");
	}
	edb = level1_edb(a, "ls", "alice", 3);
	r = solve_unarmed(a, a->session, edb);
	if (r != NULL)
		check_level1(a, r, "ls", "alice");
	(void)maelys_datalog_result_free(r);
	(void)maelys_datalog_input_edb_free(edb);
	if (a->result != NULL)
		check_level1(a, a->result, "curl", "mallory");
}

#define CHAIN 24

static void
setup_solve_recursive(struct attempt *a)
{
	const struct shared *s = a->shared;

	setup_session(a, s->recursive_policy);
	a->edb = chain_edb(a, CHAIN);
}

static void
check_solved_recursive(struct attempt *a)
{
	maelys_datalog_input_edb_t *edb;
	maelys_datalog_result_t *r;

	if (a->st != ST_OK) {
		if (a->result != NULL)
			dltest_note(&a->err, "failed solve left a result");
		check_no_memory_diag(a);
	} else {
		check_recursive(a, a->result, CHAIN);
	}
	edb = chain_edb(a, 7);
	r = solve_unarmed(a, a->session, edb);
	if (r != NULL)
		check_recursive(a, r, 7);
	(void)maelys_datalog_result_free(r);
	(void)maelys_datalog_input_edb_free(edb);
}

/* A warm session: its pool holds a workspace that solved a small input,
 * and the large input makes its relations grow past what they reserved. */
static void
setup_solve_warm(struct attempt *a)
{
	const struct shared *s = a->shared;
	maelys_datalog_input_edb_t *small;
	maelys_datalog_result_t *r;

	setup_session(a, s->recursive_policy);
	small = chain_edb(a, 4);
	r = solve_unarmed(a, a->session, small);
	(void)maelys_datalog_result_free(r);
	(void)maelys_datalog_input_edb_free(small);
	a->edb = chain_edb(a, CHAIN);
}

/* A session with a result alive: the next solve needs a second
 * workspace. */
static void
setup_solve_second_live(struct attempt *a)
{
	const struct shared *s = a->shared;
	maelys_datalog_input_edb_t *small;

	setup_session(a, s->recursive_policy);
	small = chain_edb(a, 4);
	a->result2 = solve_unarmed(a, a->session, small);
	(void)maelys_datalog_input_edb_free(small);
	a->edb = chain_edb(a, CHAIN);
}

static void
check_solved_second_live(struct attempt *a)
{
	check_solved_recursive(a);
	if (a->result2 != NULL)
		check_recursive(a, a->result2, 4);
}

static const struct fault_op op_solve_level1 = {
    "solve_edb (Level 1)", setup_solve_level1, run_solve,
    check_solved_level1,   free_all,           0,
};
static const struct fault_op op_solve_recursive = {
    "solve_edb (recursive program)",
    setup_solve_recursive,
    run_solve,
    check_solved_recursive,
    free_all,
    0,
};
static const struct fault_op op_solve_warm = {
    "solve_edb (warm session, growing)",
    setup_solve_warm,
    run_solve,
    check_solved_recursive,
    free_all,
    0,
};
static const struct fault_op op_solve_second_live = {
    "solve_edb (second live result)",
    setup_solve_second_live,
    run_solve,
    check_solved_second_live,
    free_all,
    0,
};

START_TEST(test_alloc_solve_level1_fails_cleanly_session_survives)
{
	struct shared s;

	shared_init(&s);
	(void)fault_loop(&op_solve_level1, &s);
	shared_free(&s);
}
END_TEST

START_TEST(test_alloc_solve_recursive_fails_cleanly_session_survives)
{
	struct shared s;

	shared_init(&s);
	(void)fault_loop(&op_solve_recursive, &s);
	(void)fault_loop(&op_solve_warm, &s);
	(void)fault_loop(&op_solve_second_live, &s);
	shared_free(&s);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Reading a result                                                    */

static void
setup_read(struct attempt *a)
{
	const struct shared *s = a->shared;

	setup_session(a, s->recursive_policy);
	a->edb = chain_edb(a, 12);
	a->result = solve_unarmed(a, a->session, a->edb);
	if (a->result == NULL)
		dltest_note(&a->err, "no result to read");
}

/* Every reader; the first status that is not OK (TRUNCATED is the
 * expected answer of the deliberately small enumeration). */
static maelys_datalog_status_t
run_read(struct attempt *a)
{
	maelys_datalog_fact_view_t rows[100];
	maelys_datalog_arg_t args[2] = {maelys_datalog_arg_symbol("rm 0"),
					maelys_datalog_arg_symbol("ls 1")};
	maelys_datalog_status_t st;
	size_t n = 0, i, len;
	const char *text;
	int found = 0;

	if ((st = maelys_datalog_result_query(a->result, "tc", args, 2,
					      &found)) != ST_OK ||
	    (st = MAELYS_DATALOG_QUERY(a->result, &found, "risky", "rm 0")) !=
		ST_OK ||
	    (st = maelys_datalog_result_count(a->result, "tc", 2, &n)) !=
		ST_OK ||
	    (st = maelys_datalog_result_enumerate(a->result, "tc", 2, rows, 100,
						  &n)) != ST_OK ||
	    (st = maelys_datalog_result_enumerate_at(a->result, "tc", 2, 10,
						     rows, 20, &n)) != ST_OK)
		return st;
	st = maelys_datalog_result_enumerate(a->result, "tc", 2, rows, 5, &n);
	if (st != MAELYS_DATALOG_STATUS_TRUNCATED)
		return st == ST_OK ? MAELYS_DATALOG_STATUS_INVALID_ARGUMENT
				   : st;
	for (i = 0; i < 5; i++) {
		st = maelys_datalog_result_symbol_text(
		    a->result, rows[i].terms[0].as.symbol_id, &text, &len);
		if (st != ST_OK)
			return st;
	}
	return ST_OK;
}

static void
check_read(struct attempt *a)
{
	if (a->st != ST_OK)
		dltest_note(&a->err, "a reader returned %s",
			    maelys_datalog_status_name(a->st));
	else
		check_recursive(a, a->result, 12);
}

static const struct fault_op op_read = {
    "result reading", setup_read, run_read, check_read, free_all, 0,
};

/* The readers are documented without NO_MEMORY: they must not fail
 * whichever allocation fails. */
START_TEST(test_alloc_result_reading_never_fails)
{
	struct attempt a;
	struct shared s;
	size_t n;

	shared_init(&s);
	/* an unarmed attempt first, as fault_loop does */
	memset(&a, 0, sizeof a);
	a.op = &op_read;
	a.shared = &s;
	(void)run_attempt(&a);
	ck_assert_msg(a.err.count == 0 && a.st == ST_OK, "unarmed reading: %s",
		      a.err.why);
	for (n = 1; n <= 8; n++) {
		memset(&a, 0, sizeof a);
		a.op = &op_read;
		a.shared = &s;
		a.n = n;
		ck_assert_msg(run_attempt(&a) == 0, "reading left memory");
		ck_assert_msg(a.err.count == 0, "allocation %zu failing: %s", n,
			      a.err.why);
		ck_assert_status(a.st, ST_OK);
	}
	shared_free(&s);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The registry                                                        */

static const maelys_datalog_predicate_t reg_preds[] = {
    {"x", 1, MAELYS_DATALOG_PREDICATE_EDB},
    {"y", 2, MAELYS_DATALOG_PREDICATE_IDB | MAELYS_DATALOG_PREDICATE_QUERY},
};
static const char *const reg_atoms[] = {"one", "two"};
static const maelys_datalog_domain_t reg_domain = {
    "alloc_registered", reg_preds, 2, reg_atoms, 2,
};

static maelys_datalog_status_t
run_register(struct attempt *a)
{
	a->st = maelys_datalog_domain_register(&reg_domain);
	/* no diagnostic parameter: fill ours for the shared checks */
	a->diag.status = a->st;
	(void)snprintf(a->diag.message, sizeof a->diag.message,
		       "domain_register");
	return a->st;
}

static void
check_register(struct attempt *a)
{
	static const char src[] = "y(A, \"one\") :- x(A).\n";
	maelys_datalog_status_t st;

	st = maelys_datalog_policy_load_inline(
	    "alloc_registered", "r.dl", src, sizeof src - 1, &a->policy, NULL);
	if (a->st == ST_OK && st != ST_OK)
		dltest_note(&a->err, "registered, but loading gives %s",
			    maelys_datalog_status_name(st));
	if (a->st != ST_OK && st != MAELYS_DATALOG_STATUS_UNKNOWN_DOMAIN)
		dltest_note(&a->err,
			    "failed registration, but loading gives %s",
			    maelys_datalog_status_name(st));
}

static const struct fault_op op_register = {
    "domain_register", NULL, run_register, check_register, free_all, 1,
};

START_TEST(test_alloc_domain_register_fails_cleanly_then_registers)
{
	struct attempt a;
	size_t n;

	warm_up_threads();
	for (n = 1; n <= MAX_ATTEMPTS; n++) {
		long long left;

		memset(&a, 0, sizeof a);
		a.op = &op_register;
		a.n = n;
		left = run_attempt(&a);
		ck_assert_msg(a.err.count == 0, "allocation %zu failing: %s", n,
			      a.err.why);
		if (a.st == ST_OK)
			break;
		ck_assert_status(a.st, ST_NO_MEMORY);
		ck_assert_msg(left == 0, "allocation %zu: %lld bytes left", n,
			      left);
	}
	ck_assert_msg(n > 1, "registration allocated nothing");
	ck_assert_status(a.st, ST_OK);
	ck_assert_status(maelys_datalog_domain_register(&reg_domain), ST_OK);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("alloc");

	tcase_set_timeout(tc, 500);
	tcase_add_test(tc, test_alloc_load_level1_fails_cleanly_then_loads);
	tcase_add_test(tc, test_alloc_load_file_fails_cleanly_then_loads);
	tcase_add_test(tc,
		       test_alloc_load_recursive_regex_program_fails_cleanly);
	tcase_add_test(tc, test_alloc_session_create_and_prepare_fail_cleanly);
	tcase_add_test(
	    tc, test_alloc_edb_building_fails_cleanly_and_all_or_nothing);
	tcase_add_test(tc,
		       test_alloc_solve_level1_fails_cleanly_session_survives);
	tcase_add_test(
	    tc, test_alloc_solve_recursive_fails_cleanly_session_survives);
	tcase_add_test(tc, test_alloc_result_reading_never_fails);
	tcase_add_test(tc,
		       test_alloc_domain_register_fails_cleanly_then_registers);
	suite_add_tcase(s, tc);
	return s;
}
