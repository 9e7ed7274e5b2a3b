/* SPDX-License-Identifier: MIT */
/*
 * Budgets: every solve is bounded in input
 * facts, derived tuples, fixpoint iterations, working memory and regex
 * work, and exceeding a bound stops the solve with a status of its own and
 * a diagnostic naming the budget, so a host can deny and say why.  A budget
 * met exactly is not exceeded; a failed solve leaves the session able to
 * decide the next line; the strata that depend only on the policy are
 * bounded too, when the session prepares.  Finally, a session deciding
 * 100,000 lines of fresh strings must not grow: a guard that runs for
 * weeks cannot leak per decision.
 */
#include "runner.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include <maelys/datalog.h>
#include <maelys/datalog_builders.h>

#include "datalog_testutil.h"

#define SOURCE "budgets.dl"
#define ST_OK  MAELYS_DATALOG_STATUS_OK

/* The walkthrough's predicate table and atoms, registered under a name of
 * this suite's own. */
static const maelys_datalog_domain_t budgets_pty_domain =
    DLTEST_LEVEL1_DOMAIN("budgets_pty");

/* Standalone programs. */
static const char echo_src[] = ".decl in(x)\n"
			       ".input in\n"
			       ".decl out(x)\n"
			       "out(X) :- in(X).\n";
static const char closure_src[] = ".decl e(x, y)\n"
				  ".input e\n"
				  ".decl tc(x, y)\n"
				  "tc(X, Y) :- e(X, Y).\n"
				  "tc(X, Z) :- tc(X, Y), e(Y, Z).\n";
static const char reach_src[] = ".decl start(x)\n"
				".input start\n"
				".decl e(x, y)\n"
				".input e\n"
				".decl reach(x)\n"
				"reach(Y) :- start(X), e(X, Y).\n"
				"reach(Z) :- reach(Y), e(Y, Z).\n";
static const char pairs_src[] = ".decl d(x)\n"
				".input d\n"
				".decl pair(x, y)\n"
				"pair(X, Y) :- d(X), d(Y).\n";
/* (a+)+ backtracks exponentially on a run of a's that cannot match. */
static const char catastrophic_src[] =
    ".decl t(x)\n"
    ".input t\n"
    ".decl m(x)\n"
    "m(X) :- t(X), re_match(X, \"^(a+)+$\").\n";
/* (a|b)* needs one backtracking frame per character, but few steps. */
static const char deep_src[] = ".decl t(x)\n"
			       ".input t\n"
			       ".decl m(x)\n"
			       "m(X) :- t(X), re_match(X, \"^(a|b)*$\").\n";

static void
set_budget(maelys_datalog_session_t *session, maelys_datalog_budget_t b,
	   uint64_t value)
{
	ck_assert_status(maelys_datalog_session_set_budget(session, b, value),
			 ST_OK);
}

static uint64_t
get_budget(const maelys_datalog_session_t *session, maelys_datalog_budget_t b)
{
	uint64_t v = 0;

	ck_assert_status(maelys_datalog_session_get_budget(session, b, &v),
			 ST_OK);
	return v;
}

/* The edges 0->1->...->n. */
static maelys_datalog_input_edb_t *
chain_edb(size_t n, int with_start)
{
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	size_t i;

	if (with_start)
		dltest_add_i(edb, "start", 0);
	for (i = 0; i < n; i++)
		dltest_add_ii(edb, "e", (int64_t)i, (int64_t)i + 1);
	return edb;
}

/* `n` facts in(s0) ... in(s<n-1>), or d(...) for the pairs program. */
static maelys_datalog_input_edb_t *
strings_edb(const char *predicate, size_t n)
{
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	size_t i;

	for (i = 0; i < n; i++) {
		char v[32];

		(void)snprintf(v, sizeof v, "s%zu", i);
		ck_assert_status(
		    MAELYS_DATALOG_ADD_FACT(edb, NULL, predicate, v), ST_OK);
	}
	return edb;
}

/* A non-NULL pointer that a failing call must not leave behind. */
static int sentinel_object;

/* Solves and expects `want`; on success returns the result, on failure
 * checks that nothing came back and that the diagnostic says `names`. */
static maelys_datalog_result_t *
solve_expect(maelys_datalog_session_t *session,
	     const maelys_datalog_input_edb_t *edb,
	     maelys_datalog_status_t want, const char *names)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_result_t *result = (void *)&sentinel_object;
	maelys_datalog_status_t st;

	st = maelys_datalog_session_solve_edb(session, edb, &result, &diag);
	ck_assert_msg(st == want, "solve: got %s (%s), want %s",
		      maelys_datalog_status_name(st), diag.message,
		      maelys_datalog_status_name(want));
	if (st == ST_OK) {
		ck_assert_ptr_nonnull(result);
		return result;
	}
	ck_assert_ptr_null(result);
	ck_assert_int_eq(diag.status, st);
	if (names != NULL)
		ck_assert_msg(strstr(diag.message, names) != NULL,
			      "diagnostic does not name %s: \"%s\"", names,
			      diag.message);
	return NULL;
}

/* After a failed solve the session must decide a small input correctly:
 * the closure of a 3-edge chain has 6 pairs. */
static void
assert_closure_session_still_decides(maelys_datalog_session_t *session)
{
	maelys_datalog_input_edb_t *edb = chain_edb(3, 0);
	maelys_datalog_result_t *result =
	    solve_expect(session, edb, ST_OK, NULL);

	ck_assert_uint_eq(dltest_count(result, "tc", 2), 6);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
}

/* ------------------------------------------------------------------ */
/* Values                                                              */

static const struct {
	maelys_datalog_budget_t budget;
	uint64_t def, max;
} budget_table[] = {
    {MAELYS_DATALOG_BUDGET_FACTS, 10000, 100000000},
    {MAELYS_DATALOG_BUDGET_TUPLES, 1000000, UINT64_C(4000000000)},
    {MAELYS_DATALOG_BUDGET_ITERATIONS, 100000, UINT64_C(4000000000)},
    {MAELYS_DATALOG_BUDGET_REGEX_STEPS, 1000000, UINT32_MAX},
    {MAELYS_DATALOG_BUDGET_REGEX_DEPTH, 10000, UINT32_MAX},
    {MAELYS_DATALOG_BUDGET_MEMORY, UINT64_C(64) << 20, UINT64_C(1) << 40},
    {MAELYS_DATALOG_BUDGET_STEPS, 20000000, UINT64_C(1) << 62},
};
#define NBUDGETS (sizeof budget_table / sizeof *budget_table)

START_TEST(test_budgets_default_and_max_match_the_contract)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, echo_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	size_t i;

	for (i = 0; i < NBUDGETS; i++) {
		maelys_datalog_budget_t b = budget_table[i].budget;
		uint64_t def = 0, max = 0;

		ck_assert_status(maelys_datalog_budget_default(b, &def), ST_OK);
		ck_assert_status(maelys_datalog_budget_max(b, &max), ST_OK);
		ck_assert_msg(def == budget_table[i].def,
			      "budget %d: default %" PRIu64 ", want %" PRIu64,
			      (int)b, def, budget_table[i].def);
		ck_assert_msg(max == budget_table[i].max,
			      "budget %d: max %" PRIu64 ", want %" PRIu64,
			      (int)b, max, budget_table[i].max);
		/* a new session starts at the defaults */
		ck_assert_uint_eq(get_budget(session, b), def);
	}
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_budgets_set_then_get_round_trips)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, echo_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	size_t i, k;

	for (i = 0; i < NBUDGETS; i++) {
		maelys_datalog_budget_t b = budget_table[i].budget;
		const uint64_t values[] = {
		    1,
		    2,
		    budget_table[i].def,
		    budget_table[i].max - 1,
		    budget_table[i].max,
		    3,
		};

		for (k = 0; k < sizeof values / sizeof *values; k++) {
			set_budget(session, b, values[k]);
			ck_assert_uint_eq(get_budget(session, b), values[k]);
		}
	}
	/* budgets are per budget: the last value of each is still there */
	for (i = 0; i < NBUDGETS; i++)
		ck_assert_uint_eq(get_budget(session, budget_table[i].budget),
				  3);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_budgets_set_zero_is_invalid_and_unchanged)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, echo_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	size_t i;

	for (i = 0; i < NBUDGETS; i++) {
		maelys_datalog_budget_t b = budget_table[i].budget;

		set_budget(session, b, 7);
		ck_assert_status(
		    maelys_datalog_session_set_budget(session, b, 0),
		    MAELYS_DATALOG_STATUS_INVALID_ARGUMENT);
		ck_assert_uint_eq(get_budget(session, b), 7);
	}
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_budgets_set_above_max_is_limit_and_unchanged)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, echo_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	size_t i;

	for (i = 0; i < NBUDGETS; i++) {
		maelys_datalog_budget_t b = budget_table[i].budget;

		set_budget(session, b, 7);
		ck_assert_status(maelys_datalog_session_set_budget(
				     session, b, budget_table[i].max + 1),
				 MAELYS_DATALOG_STATUS_LIMIT);
		ck_assert_uint_eq(get_budget(session, b), 7);
		ck_assert_status(
		    maelys_datalog_session_set_budget(session, b, UINT64_MAX),
		    MAELYS_DATALOG_STATUS_LIMIT);
		ck_assert_uint_eq(get_budget(session, b), 7);
	}
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Each budget exceeded                                                */

START_TEST(test_budgets_facts_over_budget_is_budget_facts)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, echo_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *edb;
	maelys_datalog_result_t *result;

	set_budget(session, MAELYS_DATALOG_BUDGET_FACTS, 5);
	edb = strings_edb("in", 6);
	(void)solve_expect(session, edb, MAELYS_DATALOG_STATUS_BUDGET_FACTS,
			   "MAELYS_DATALOG_BUDGET_FACTS");
	/* exactly the budget is allowed */
	ck_assert_status(maelys_datalog_input_edb_truncate(edb, 5), ST_OK);
	result = solve_expect(session, edb, ST_OK, NULL);
	ck_assert_uint_eq(dltest_count(result, "out", 1), 5);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);

	/* the default budget: 10,000 facts pass, 10,001 do not */
	set_budget(session, MAELYS_DATALOG_BUDGET_FACTS, 10000);
	edb = strings_edb("in", 10001);
	(void)solve_expect(session, edb, MAELYS_DATALOG_STATUS_BUDGET_FACTS,
			   "MAELYS_DATALOG_BUDGET_FACTS");
	ck_assert_status(maelys_datalog_input_edb_truncate(edb, 10000), ST_OK);
	result = solve_expect(session, edb, ST_OK, NULL);
	ck_assert_uint_eq(dltest_count(result, "out", 1), 10000);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* A chain of 50 edges has 50 * 51 / 2 = 1275 reachable pairs. */
#define CLOSURE_EDGES 50
#define CLOSURE_PAIRS (CLOSURE_EDGES * (CLOSURE_EDGES + 1) / 2)

START_TEST(test_budgets_tuples_closure_over_budget_is_budget_tuples)
{
	maelys_datalog_policy_t *policy =
	    dltest_load(NULL, SOURCE, closure_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *edb = chain_edb(CLOSURE_EDGES, 0);
	maelys_datalog_result_t *result;

	set_budget(session, MAELYS_DATALOG_BUDGET_TUPLES, 100);
	(void)solve_expect(session, edb, MAELYS_DATALOG_STATUS_BUDGET_TUPLES,
			   "MAELYS_DATALOG_BUDGET_TUPLES");
	assert_closure_session_still_decides(session);

	set_budget(session, MAELYS_DATALOG_BUDGET_TUPLES, CLOSURE_PAIRS - 1);
	(void)solve_expect(session, edb, MAELYS_DATALOG_STATUS_BUDGET_TUPLES,
			   "MAELYS_DATALOG_BUDGET_TUPLES");
	/* exactly the tuples it derives */
	set_budget(session, MAELYS_DATALOG_BUDGET_TUPLES, CLOSURE_PAIRS);
	result = solve_expect(session, edb, ST_OK, NULL);
	ck_assert_uint_eq(dltest_count(result, "tc", 2), CLOSURE_PAIRS);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

#define LONG_CHAIN 1000

START_TEST(test_budgets_iterations_long_chain_is_budget_iterations)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, reach_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *edb = chain_edb(LONG_CHAIN, 1);
	maelys_datalog_input_edb_t *small = chain_edb(3, 1);
	maelys_datalog_result_t *result;

	set_budget(session, MAELYS_DATALOG_BUDGET_ITERATIONS, 100);
	(void)solve_expect(session, edb,
			   MAELYS_DATALOG_STATUS_BUDGET_ITERATIONS,
			   "MAELYS_DATALOG_BUDGET_ITERATIONS");
	/* the same session decides a short chain within the budget */
	result = solve_expect(session, small, ST_OK, NULL);
	ck_assert_uint_eq(dltest_count(result, "reach", 1), 3);
	ck_assert_int_eq(dltest_query_i(result, "reach", 3), 1);
	(void)maelys_datalog_result_free(result);
	/* and the long one with the default budget */
	set_budget(session, MAELYS_DATALOG_BUDGET_ITERATIONS, 100000);
	result = solve_expect(session, edb, ST_OK, NULL);
	ck_assert_uint_eq(dltest_count(result, "reach", 1), LONG_CHAIN);
	ck_assert_int_eq(dltest_query_i(result, "reach", LONG_CHAIN), 1);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(small);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

#define BOUNDARY_CHAIN 40

/* The least budget that lets a chain of BOUNDARY_CHAIN edges through is
 * about one round per edge; one less must be refused with the budget's own
 * status, and the least one must give the whole answer. */
START_TEST(test_budgets_iterations_exactly_at_limit_passes)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, reach_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *edb = chain_edb(BOUNDARY_CHAIN, 1);
	maelys_datalog_result_t *result = NULL;
	uint64_t least = 0, b;

	for (b = 1; b <= 4 * BOUNDARY_CHAIN && least == 0; b++) {
		maelys_datalog_diagnostic_t diag =
		    MAELYS_DATALOG_DIAGNOSTIC_INIT;
		maelys_datalog_status_t st;

		set_budget(session, MAELYS_DATALOG_BUDGET_ITERATIONS, b);
		st = maelys_datalog_session_solve_edb(session, edb, &result,
						      &diag);
		if (st == ST_OK) {
			least = b;
			break;
		}
		ck_assert_msg(st == MAELYS_DATALOG_STATUS_BUDGET_ITERATIONS,
			      "budget %" PRIu64 ": %s (%s)", b,
			      maelys_datalog_status_name(st), diag.message);
		ck_assert_ptr_null(result);
	}
	ck_assert_msg(least >= BOUNDARY_CHAIN - 1 &&
			  least <= BOUNDARY_CHAIN + 1,
		      "a chain of %d edges passed with %" PRIu64 " iterations",
		      BOUNDARY_CHAIN, least);
	ck_assert_uint_eq(dltest_count(result, "reach", 1), BOUNDARY_CHAIN);
	(void)maelys_datalog_result_free(result);
	/* the boundary is stable: the same budget passes again */
	result = solve_expect(session, edb, ST_OK, NULL);
	ck_assert_uint_eq(dltest_count(result, "reach", 1), BOUNDARY_CHAIN);
	(void)maelys_datalog_result_free(result);
	set_budget(session, MAELYS_DATALOG_BUDGET_ITERATIONS, least - 1);
	(void)solve_expect(session, edb,
			   MAELYS_DATALOG_STATUS_BUDGET_ITERATIONS,
			   "MAELYS_DATALOG_BUDGET_ITERATIONS");
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* 200 x 200 = 40,000 pairs: over a megabyte of rows and tables. */
#define PAIRS_SIDE 200

START_TEST(test_budgets_memory_large_relation_is_budget_memory)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, pairs_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *edb = strings_edb("d", PAIRS_SIDE);
	maelys_datalog_input_edb_t *small = strings_edb("d", 3);
	maelys_datalog_result_t *result;

	set_budget(session, MAELYS_DATALOG_BUDGET_MEMORY, 256 * 1024);
	(void)solve_expect(session, edb, MAELYS_DATALOG_STATUS_BUDGET_MEMORY,
			   "MAELYS_DATALOG_BUDGET_MEMORY");
	/* a small input still fits in the small budget */
	result = solve_expect(session, small, ST_OK, NULL);
	ck_assert_uint_eq(dltest_count(result, "pair", 2), 9);
	(void)maelys_datalog_result_free(result);
	/* and the large one in the default budget */
	set_budget(session, MAELYS_DATALOG_BUDGET_MEMORY, UINT64_C(64) << 20);
	result = solve_expect(session, edb, ST_OK, NULL);
	ck_assert_uint_eq(dltest_count(result, "pair", 2),
			  PAIRS_SIDE * PAIRS_SIDE);
	(void)maelys_datalog_result_free(result);
	/* and the budget applies again after a large success */
	set_budget(session, MAELYS_DATALOG_BUDGET_MEMORY, 256 * 1024);
	(void)solve_expect(session, edb, MAELYS_DATALOG_STATUS_BUDGET_MEMORY,
			   "MAELYS_DATALOG_BUDGET_MEMORY");
	(void)maelys_datalog_input_edb_free(small);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* The input's own strings count too: 20 strings of 60,000 bytes cannot
 * fit in 256 KiB. */
START_TEST(test_budgets_memory_large_input_strings_is_budget_memory)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, echo_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *result;
	char *text = malloc(60000);
	size_t i;

	ck_assert_ptr_nonnull(text);
	for (i = 0; i < 20; i++) {
		maelys_datalog_arg_t a;

		memset(text, (int)('a' + i), 60000);
		a = maelys_datalog_arg_symbol_n(text, 60000);
		ck_assert_status(
		    maelys_datalog_input_edb_add(edb, "in", &a, 1, NULL),
		    ST_OK);
	}
	free(text);
	set_budget(session, MAELYS_DATALOG_BUDGET_MEMORY, 256 * 1024);
	(void)solve_expect(session, edb, MAELYS_DATALOG_STATUS_BUDGET_MEMORY,
			   "MAELYS_DATALOG_BUDGET_MEMORY");
	set_budget(session, MAELYS_DATALOG_BUDGET_MEMORY, UINT64_C(64) << 20);
	result = solve_expect(session, edb, ST_OK, NULL);
	ck_assert_uint_eq(dltest_count(result, "out", 1), 20);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* One tuple per input, each derived N^2 times: only the steps budget can
 * stop the work. */
static const char cube_src[] = ".decl d(x)\n"
			       ".input d\n"
			       ".decl h(x)\n"
			       "h(X) :- d(X), d(Y), d(Z), Y != Z.\n";
#define CUBE_SIDE 60

START_TEST(test_budgets_steps_repeated_derivation_is_budget_steps)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, cube_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *edb = strings_edb("d", CUBE_SIDE);
	maelys_datalog_input_edb_t *small = strings_edb("d", 3);
	maelys_datalog_result_t *result;

	/* 60 tuples: far inside the tuple budget */
	set_budget(session, MAELYS_DATALOG_BUDGET_TUPLES, 1000);
	set_budget(session, MAELYS_DATALOG_BUDGET_STEPS, 10000);
	(void)solve_expect(session, edb, MAELYS_DATALOG_STATUS_BUDGET_STEPS,
			   "MAELYS_DATALOG_BUDGET_STEPS");
	result = solve_expect(session, small, ST_OK, NULL);
	ck_assert_uint_eq(dltest_count(result, "h", 1), 3);
	(void)maelys_datalog_result_free(result);
	set_budget(session, MAELYS_DATALOG_BUDGET_STEPS, 20000000);
	result = solve_expect(session, edb, ST_OK, NULL);
	ck_assert_uint_eq(dltest_count(result, "h", 1), CUBE_SIDE);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(small);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

static maelys_datalog_input_edb_t *
text_edb(char c, size_t n, char last)
{
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	char buf[512];
	maelys_datalog_arg_t a;

	ck_assert_uint_lt(n, sizeof buf);
	memset(buf, c, n);
	buf[n] = last;
	a = maelys_datalog_arg_symbol_n(buf, last != '\0' ? n + 1 : n);
	ck_assert_status(maelys_datalog_input_edb_add(edb, "t", &a, 1, NULL),
			 ST_OK);
	return edb;
}

START_TEST(test_budgets_regex_steps_catastrophic_is_regex_limit)
{
	maelys_datalog_policy_t *policy =
	    dltest_load(NULL, SOURCE, catastrophic_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *evil = text_edb('a', 28, 'b');
	maelys_datalog_input_edb_t *fine = text_edb('a', 28, '\0');
	maelys_datalog_result_t *result;

	set_budget(session, MAELYS_DATALOG_BUDGET_REGEX_STEPS, 10000);
	(void)solve_expect(session, evil, MAELYS_DATALOG_STATUS_REGEX_LIMIT,
			   "re_match");
	/* the same session matches a text that needs no backtracking */
	result = solve_expect(session, fine, ST_OK, NULL);
	ck_assert_uint_eq(dltest_count(result, "m", 1), 1);
	(void)maelys_datalog_result_free(result);
	/* the default budget stops it as well: a hostile line cannot make
	 * a decision take seconds */
	set_budget(session, MAELYS_DATALOG_BUDGET_REGEX_STEPS, 1000000);
	(void)solve_expect(session, evil, MAELYS_DATALOG_STATUS_REGEX_LIMIT,
			   "re_match");
	(void)maelys_datalog_input_edb_free(fine);
	(void)maelys_datalog_input_edb_free(evil);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* The diagnostic of a regex limit says which budget to raise. */
START_TEST(test_budgets_regex_limit_diagnostic_names_the_budget)
{
	maelys_datalog_policy_t *policy =
	    dltest_load(NULL, SOURCE, catastrophic_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *evil = text_edb('a', 28, 'b');

	set_budget(session, MAELYS_DATALOG_BUDGET_REGEX_STEPS, 10000);
	(void)solve_expect(session, evil, MAELYS_DATALOG_STATUS_REGEX_LIMIT,
			   "MAELYS_DATALOG_BUDGET_REGEX_STEPS");
	(void)maelys_datalog_input_edb_free(evil);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* A depth budget of 1 cannot match 150 characters of (a|b)*, whatever the
 * regex engine's internals: PCRE2's JIT ignores its depth limit, so the
 * budget must still be enforced some other way. */
START_TEST(test_budgets_regex_depth_small_budget_is_regex_limit)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, deep_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *deep = text_edb('a', 150, '\0');
	maelys_datalog_result_t *result;

	/* steps are no constraint here: only the depth can stop it */
	set_budget(session, MAELYS_DATALOG_BUDGET_REGEX_STEPS, UINT32_MAX);
	result = solve_expect(session, deep, ST_OK, NULL);
	ck_assert_uint_eq(dltest_count(result, "m", 1), 1);
	(void)maelys_datalog_result_free(result);
	set_budget(session, MAELYS_DATALOG_BUDGET_REGEX_DEPTH, 1);
	(void)solve_expect(session, deep, MAELYS_DATALOG_STATUS_REGEX_LIMIT,
			   "re_match");
	(void)maelys_datalog_input_edb_free(deep);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Policy-only strata                                                  */

/* The graph domain (datalog_testutil.h): path/2 depends on nothing the
 * input brings, so it is computed once per session, under the session's
 * budgets. */
static const maelys_datalog_domain_t graph_domain =
    DLTEST_GRAPH_DOMAIN("budgets_graph");
#define GRAPH_LINKS 30
#define GRAPH_PATHS (GRAPH_LINKS * (GRAPH_LINKS + 1) / 2)

static maelys_datalog_policy_t *
load_graph_policy(void)
{
	char src[4096];

	ck_assert_status(maelys_datalog_domain_register(&graph_domain), ST_OK);
	dltest_graph_policy(src, sizeof src, GRAPH_LINKS, 0);
	return dltest_load("budgets_graph", SOURCE, src);
}

/* req(0): everything from 1 to GRAPH_LINKS is ok. */
static void
assert_graph_decides(maelys_datalog_session_t *session)
{
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *result;

	dltest_add_i(edb, "req", 0);
	result = solve_expect(session, edb, ST_OK, NULL);
	ck_assert_uint_eq(dltest_count(result, "ok", 1), GRAPH_LINKS);
	ck_assert_int_eq(dltest_query_i(result, "ok", GRAPH_LINKS), 1);
	ck_assert_int_eq(dltest_query_i(result, "ok", 0), 0);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
}

START_TEST(test_budgets_policy_strata_over_tuples_fail_at_prepare)
{
	maelys_datalog_policy_t *policy = load_graph_policy();
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;

	set_budget(session, MAELYS_DATALOG_BUDGET_TUPLES, GRAPH_PATHS - 1);
	ck_assert_status(maelys_datalog_session_prepare(session, &diag),
			 MAELYS_DATALOG_STATUS_BUDGET_TUPLES);
	ck_assert_int_eq(diag.status, MAELYS_DATALOG_STATUS_BUDGET_TUPLES);
	ck_assert_msg(strstr(diag.message, "MAELYS_DATALOG_BUDGET_TUPLES") !=
			  NULL,
		      "diagnostic: %s", diag.message);
	/* refused again, not half-prepared */
	ck_assert_status(maelys_datalog_session_prepare(session, &diag),
			 MAELYS_DATALOG_STATUS_BUDGET_TUPLES);
	/* exactly the policy's tuples: prepared */
	set_budget(session, MAELYS_DATALOG_BUDGET_TUPLES, GRAPH_PATHS);
	ck_assert_status(maelys_datalog_session_prepare(session, &diag), ST_OK);
	ck_assert_status(maelys_datalog_session_prepare(session, &diag), ST_OK);
	assert_graph_decides(session);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_budgets_policy_strata_over_tuples_fail_at_first_solve)
{
	maelys_datalog_policy_t *policy = load_graph_policy();
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();

	dltest_add_i(edb, "req", 0);
	set_budget(session, MAELYS_DATALOG_BUDGET_TUPLES, 50);
	(void)solve_expect(session, edb, MAELYS_DATALOG_STATUS_BUDGET_TUPLES,
			   "MAELYS_DATALOG_BUDGET_TUPLES");
	(void)solve_expect(session, edb, MAELYS_DATALOG_STATUS_BUDGET_TUPLES,
			   "MAELYS_DATALOG_BUDGET_TUPLES");
	set_budget(session, MAELYS_DATALOG_BUDGET_TUPLES, 1000000);
	assert_graph_decides(session);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* ------------------------------------------------------------------ */
/* No growth across decisions                                          */

/* VmRSS in bytes, or 0 when /proc is not there. */
static size_t
rss_bytes(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	size_t kib = 0;

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, "VmRSS:", 6) == 0) {
			char *end;

			kib = (size_t)strtoull(line + 6, &end, 10);
			break;
		}
	}
	(void)fclose(f);
	return kib * 1024;
}

/* Decides line `i` of a stream of fresh strings; 0 if the answer is the
 * expected one, else -1 with `why` filled.  Not ck_assert: this runs in a
 * thread of its own. */
static int
decide_fresh_line(maelys_datalog_session_t *session, unsigned long i, char *why,
		  size_t cap)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = NULL;
	maelys_datalog_result_t *result = NULL;
	maelys_datalog_status_t st;
	char command[32], user[32], arg[32];
	const char *meta = NULL;
	int allowed = -1, want = 1, rc = -1;

	(void)snprintf(command, sizeof command, "cmd%lu", i);
	(void)snprintf(user, sizeof user, "user%lu", i % 1009);
	(void)snprintf(arg, sizeof arg, "--opt=%lu", i * 7919);
	if (i % 13 == 0) {
		(void)snprintf(command, sizeof command, "shutdown");
		want = 0;
	} else if (i % 17 == 0) {
		(void)snprintf(command, sizeof command, "curl");
		want = 0; /* user<n> is not trusted */
	} else if (i % 10 == 0) {
		meta = i % 20 == 0 ? "pipe" : "var_expand";
		want = 0;
	}
	if ((st = maelys_datalog_input_edb_create(&edb)) != ST_OK ||
	    (st = MAELYS_DATALOG_ADD_FACTS(
		 edb, &diag, MAELYS_DATALOG_FACT("command", command),
		 MAELYS_DATALOG_FACT("user", user),
		 MAELYS_DATALOG_FACT("arg", arg))) != ST_OK ||
	    (meta != NULL &&
	     (st = MAELYS_DATALOG_ADD_FACT(edb, &diag, "shell_metachar",
					   meta)) != ST_OK) ||
	    (st = maelys_datalog_session_solve_edb(session, edb, &result,
						   &diag)) != ST_OK ||
	    (st = MAELYS_DATALOG_QUERY(result, &allowed, "allow", command)) !=
		ST_OK) {
		(void)snprintf(why, cap, "line %lu: %s: %s", i,
			       maelys_datalog_status_name(st), diag.message);
	} else if (allowed != want) {
		(void)snprintf(why, cap, "line %lu (%s): allow %d, want %d", i,
			       command, allowed, want);
	} else {
		rc = 0;
	}
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	return rc;
}

struct decisions {
	maelys_datalog_session_t *session;
	unsigned long from, to;
	char why[600];
};

static int
decisions_main(void *arg)
{
	struct decisions *d = arg;
	unsigned long i;

	for (i = d->from; i < d->to; i++)
		if (decide_fresh_line(d->session, i, d->why, sizeof d->why) !=
		    0)
			return -1;
	return 0;
}

/* Decides lines [from, to) in a thread that then exits: glibc keeps freed
 * chunks in a per-thread cache that mallinfo2 counts as in use, and a
 * thread's exit returns them, so the heap measured afterwards is what the
 * session really holds. */
static void
decide_in_thread(maelys_datalog_session_t *session, unsigned long from,
		 unsigned long to)
{
	struct decisions d;
	thrd_t t;
	int rc = -1;

	memset(&d, 0, sizeof d);
	d.session = session;
	d.from = from;
	d.to = to;
	ck_assert_int_eq(thrd_create(&t, decisions_main, &d), thrd_success);
	ck_assert_int_eq(thrd_join(t, &rc), thrd_success);
	ck_assert_msg(rc == 0, "%s", d.why);
}

#define DECISIONS  100000UL
#define WARMUP     2000UL
/* A leak of one byte per decision would show as ~98 KB. */
#define HEAP_SLACK ((size_t)16 * 1024)
/* RSS moves by pages and with the allocator's caches. */
#define RSS_SLACK  ((size_t)2 * 1024 * 1024)

START_TEST(test_budgets_level1_many_decisions_do_not_grow_memory)
{
	maelys_datalog_policy_t *policy =
	    dltest_load_walkthrough(&budgets_pty_domain);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	size_t heap0, heap1, rss0, rss1;

	(void)maelys_datalog_policy_free(policy);

	decide_in_thread(session, 0, WARMUP);
	heap0 = dltest_live_heap_bytes();
	rss0 = rss_bytes();
	decide_in_thread(session, WARMUP, DECISIONS);
	heap1 = dltest_live_heap_bytes();
	rss1 = rss_bytes();

	ck_assert_msg(heap1 <= heap0 + HEAP_SLACK,
		      "heap grew from %zu to %zu bytes over %lu decisions",
		      heap0, heap1, DECISIONS - WARMUP);
#if !defined(DLTEST_LIVE_HEAP_ASAN)
	/* ASan's quarantine and shadow memory make RSS meaningless there */
	ck_assert_msg(rss1 <= rss0 + RSS_SLACK,
		      "RSS grew from %zu to %zu bytes over %lu decisions", rss0,
		      rss1, DECISIONS - WARMUP);
#else
	(void)rss0;
	(void)rss1;
#endif
	(void)maelys_datalog_session_free(session);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("budgets");

	tcase_set_timeout(tc, 400);
	tcase_add_test(tc, test_budgets_default_and_max_match_the_contract);
	tcase_add_test(tc, test_budgets_set_then_get_round_trips);
	tcase_add_test(tc, test_budgets_set_zero_is_invalid_and_unchanged);
	tcase_add_test(tc, test_budgets_set_above_max_is_limit_and_unchanged);
	tcase_add_test(tc, test_budgets_facts_over_budget_is_budget_facts);
	tcase_add_test(
	    tc, test_budgets_tuples_closure_over_budget_is_budget_tuples);
	tcase_add_test(tc,
		       test_budgets_iterations_long_chain_is_budget_iterations);
	tcase_add_test(tc, test_budgets_iterations_exactly_at_limit_passes);
	tcase_add_test(tc, test_budgets_memory_large_relation_is_budget_memory);
	tcase_add_test(
	    tc, test_budgets_memory_large_input_strings_is_budget_memory);
	tcase_add_test(tc,
		       test_budgets_steps_repeated_derivation_is_budget_steps);
	tcase_add_test(tc,
		       test_budgets_regex_steps_catastrophic_is_regex_limit);
	tcase_add_test(tc,
		       test_budgets_regex_limit_diagnostic_names_the_budget);
	tcase_add_test(tc,
		       test_budgets_regex_depth_small_budget_is_regex_limit);
	tcase_add_test(tc,
		       test_budgets_policy_strata_over_tuples_fail_at_prepare);
	tcase_add_test(
	    tc, test_budgets_policy_strata_over_tuples_fail_at_first_solve);
	tcase_add_test(tc,
		       test_budgets_level1_many_decisions_do_not_grow_memory);
	suite_add_tcase(s, tc);
	return s;
}
