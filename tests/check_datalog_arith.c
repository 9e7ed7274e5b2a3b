/* SPDX-License-Identifier: MIT */
/*
 * Arithmetic on `number`, in both dialects: what each operator computes
 * (expected values worked out by hand from Souffle's semantics, written as
 * literals here, never computed by the engine's own code), precedence and
 * associativity, terms in heads, in comparisons and in body atoms, an
 * equality that binds a variable, the errors that are deferred until a
 * binding reaches the head (division by zero, a string operand), results
 * beyond the inline integer range, and a recursive arithmetic head stopped
 * by the session's budget.
 */
#include "runner.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <maelys/datalog.h>
#include <maelys/datalog_builders.h>

#include "datalog_testutil.h"

#define SOURCE "arith.dl"

/* Loads src in Souffle's syntax (souffle true) or ours. */
static maelys_datalog_policy_t *
load_dialect(const char *src, bool souffle)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st;

	st = maelys_datalog_policy_load_text(
	    NULL, SOURCE, src, strlen(src),
	    souffle ? MAELYS_DATALOG_LOAD_SOUFFLE : 0u, &policy, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "load %s: %s: %s", src,
		      maelys_datalog_status_name(st), diag.message);
	return policy;
}

/* One term over the input X, in each dialect's spelling, and its value for
 * X = x. */
struct arith_case {
	const char *souffle; /* the term in Souffle's syntax */
	const char *native;  /* the same in ours (NULL: the same text) */
	int64_t x;
	int64_t want;
};

static const struct arith_case arith_cases[] = {
    /* the operators */
    {"X + 1", NULL, 41, 42},
    {"X - 50", NULL, 8, -42},
    {"X * 7", NULL, 6, 42},
    {"X / 4", NULL, 170, 42},
    {"X / 2", NULL, -7, -3}, /* truncates toward zero */
    {"X % 5", "X mod 5", 47, 2},
    {"X % 5", "X mod 5", -47, -2}, /* the dividend's sign */
    {"X ^ 10", NULL, 2, 1024},
    {"X ^ 0", NULL, 0, 1},
    {"2 ^ X", NULL, -1, 0},   /* 0.5 truncated */
    {"1 ^ X", NULL, -5, 1},   /* Souffle's pow: 1 */
    {"-1 ^ X", NULL, -3, -1}, /* -(1^-3) */
    {"(-1) ^ X", NULL, -3, -1},
    {"(-1) ^ X", NULL, -4, 1},
    {"-X", NULL, 42, -42},
    {"X band 12", NULL, 10, 8},
    {"X bor 12", NULL, 10, 14},
    {"X bxor 12", NULL, 10, 6},
    {"bnot X", NULL, 0, -1},
    {"X bshl 4", NULL, 3, 48},
    {"X bshr 1", NULL, -8, -4},   /* arithmetic: the sign stays */
    {"X bshru 60", NULL, -1, 15}, /* logical: zeros come in */
    {"X land 2", NULL, 3, 1},
    {"X land 0", NULL, 3, 0},
    {"X lor 0", NULL, 0, 0},
    {"X lor 0", NULL, -9, 1},
    {"X lxor 1", NULL, 5, 0},
    {"X lxor 0", NULL, 5, 1},
    {"lnot X", NULL, 0, 1},
    {"lnot X", NULL, 7, 0},
    /* hexadecimal and binary literals */
    {"X + 0x1F", NULL, 1, 32},
    {"X + 0b101", NULL, 1, 6},
    {"X band 0xFFFFFFFFFFFFFFFF", NULL, -5, -5},
    /* precedence and associativity (Souffle's parser.yy) */
    {"X + 2 * 3", NULL, 1, 7},
    {"(X + 2) * 3", NULL, 1, 9},
    {"X - 1 - 1", NULL, 5, 3},
    {"X-1", NULL, 5, 4}, /* "-1" after an operand is a minus */
    {"X / 2 / 2", NULL, 20, 5},
    {"X ^ 3 ^ 2", NULL, 2, 512}, /* right-associative */
    {"-X ^ 2", NULL, 3, -9},     /* ^ binds tighter than unary minus */
    {"-2 ^ 2 + X", NULL, 0, -4},
    {"X + 1 bshl 2", NULL, 1, 8},       /* + before the shifts */
    {"X band 6 bor 1", NULL, 8, 1},     /* band before bor */
    {"X bor 1 bxor 1", NULL, 5, 5},     /* bxor before bor */
    {"X lor 0 land 0", NULL, 1, 1},     /* land before lor */
    {"X * 2 % 3", "X * 2 mod 3", 4, 2}, /* left to right */
    {"bnot X + 1", NULL, 5, -5},        /* unary before + */
    /* overflow wraps (two's complement, 64 bits) */
    {"X + 1", NULL, INT64_MAX, INT64_MIN},
    {"X - 1", NULL, INT64_MIN, INT64_MAX},
    {"X * X", NULL, INT64_C(1) << 32, 0},
    {"-X", NULL, INT64_MIN, INT64_MIN},
    {"X / -1", NULL, INT64_MIN, INT64_MIN},
    {"X % -1", "X mod -1", INT64_MIN, 0},
    {"X ^ 64", NULL, 2, 0},
    {"X bshl 63", NULL, 1, INT64_MIN},
    /* results beyond the inline range are boxed */
    {"X * 1024", NULL, INT64_C(1) << 30, INT64_C(1) << 40},
    {"X - 1", NULL, INT64_C(1) << 40, (INT64_C(1) << 40) - 1},
};

/* out(term) :- in(X): the one value out holds is the case's. */
START_TEST(test_arith_operators_compute_souffles_values)
{
	const struct arith_case *c = &arith_cases[_i / 2];
	bool souffle = _i % 2 == 0;
	const char *term =
	    souffle || c->native == NULL ? c->souffle : c->native;
	char src[512];
	struct dltest_prog p;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;

	snprintf(src, sizeof src,
		 ".decl in(x:number)\n.input in\n.decl out(x:number)\n"
		 "out(%s) :- in(X).\n",
		 term);
	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, souffle);
	p.session = dltest_new_session(p.policy);
	dltest_add_i(edb, "in", c->x);
	res = dltest_prog_solve(&p, edb);
	ck_assert_msg(dltest_count(res, "out", 1) == 1 &&
			  dltest_query_i(res, "out", c->want) == 1,
		      "%s: %s with X = %lld: want %lld, got %s",
		      souffle ? "souffle" : "native", term, (long long)c->x,
		      (long long)c->want, dltest_rows_text(res, "out", 1));
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* Constant terms fold at load, in facts too. */
START_TEST(test_arith_constant_terms_fold_in_facts)
{
	static const char src[] =
	    ".decl c(x:number)\n"
	    "c(1 + 2 * 3). c(-2 ^ 2). c(0x10 bor 0b1). c(7 / 2).\n"
	    "c(9223372036854775807 + 1).\n";
	struct dltest_prog p;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, true);
	p.session = dltest_new_session(p.policy);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "c", 1, "#-4 #-9223372036854775808 #17 #3 #7");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* Terms in heads, comparisons and body atoms; an equality binds. */
static const char *const binding_src[2] = {
    /* Souffle's syntax */
    ".decl n(x:number)\n.input n\n"
    ".decl pair(x:number, y:number)\n.input pair\n"
    ".decl twice(x:number, y:number)\n.decl small(x:number)\n"
    ".decl succ(x:number)\n.decl step(x:number)\n.decl same(x:number)\n"
    ".decl mod7(x:number)\n"
    "twice(X, Y) :- n(X), Y = X * 2 + 1.\n"
    "small(X + 1) :- n(X), X + 1 < 4.\n"
    "succ(X) :- n(X), n(X + 1).\n"
    "step(X) :- pair(X, X + 1).\n"
    "same(X) :- n(X), X * 2 = X + X, 0 = X - X.\n"
    "mod7((A * B) % 7) :- n(A), n(B).\n",
    /* ours */
    ".decl n(x)\n.input n\n"
    ".decl pair(x, y)\n.input pair\n"
    ".decl twice(x, y)\n.decl small(x)\n"
    ".decl succ(x)\n.decl step(x)\n.decl same(x)\n.decl mod7(x)\n"
    "twice(X, Y) :- n(X), Y = X * 2 + 1.\n"
    "small(X + 1) :- n(X), X + 1 < 4.\n"
    "succ(X) :- n(X), n(X + 1).\n"
    "step(X) :- pair(X, X + 1).\n"
    "same(X) :- n(X), X * 2 = X + X, 0 = X - X.\n"
    "mod7((A * B) mod 7) :- n(A), n(B).\n",
};

START_TEST(test_arith_terms_in_heads_comparisons_and_atoms)
{
	struct dltest_prog p;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	int64_t i;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(binding_src[_i], _i == 0);
	p.session = dltest_new_session(p.policy);
	for (i = 1; i <= 3; i++)
		dltest_add_i(edb, "n", i);
	dltest_add_i(edb, "n", 5);
	dltest_add_ii(edb, "pair", 1, 2);
	dltest_add_ii(edb, "pair", 4, 4);
	dltest_add_ii(edb, "pair", 9, 10);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "twice", 2, "#1,#3 #2,#5 #3,#7 #5,#11");
	dltest_assert_rows(res, "small", 1, "#2 #3");
	dltest_assert_rows(res, "succ", 1, "#1 #2");
	dltest_assert_rows(res, "step", 1, "#1 #9");
	dltest_assert_rows(res, "same", 1, "#1 #2 #3 #5");
	/* products of {1,2,3,5} mod 7: 1 2 3 5 4 6 3 6 1 4 (and 25 % 7) */
	dltest_assert_rows(res, "mod7", 1, "#1 #2 #3 #4 #5 #6");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* Solves and expects the error `want` whose message contains `what`. */
static void
solve_expect_error(const char *src, bool souffle,
		   maelys_datalog_input_edb_t *edb,
		   maelys_datalog_status_t want, const char *what)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_result_t *res = NULL;
	struct dltest_prog p;
	maelys_datalog_status_t st;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, souffle);
	p.session = dltest_new_session(p.policy);
	st = maelys_datalog_session_solve_edb(p.session, edb, &res, &diag);
	ck_assert_msg(st == want, "%s: got %s (%s), want %s", src,
		      maelys_datalog_status_name(st), diag.message,
		      maelys_datalog_status_name(want));
	ck_assert_ptr_null(res);
	ck_assert_msg(strstr(diag.message, what) != NULL,
		      "message \"%s\" lacks \"%s\"", diag.message, what);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}

static const struct {
	const char *term;
	int64_t x, y;
	const char *what;
} undefined_cases[] = {
    {"X / Y", 1, 0, "division by zero"},
    {"X % Y", 1, 0, "modulo by zero"},
    {"X bshl Y", 1, 64, "shift count"},
    {"X bshr Y", 1, -1, "shift count"},
    {"X bshru Y", 1, 100, "shift count"},
    {"X ^ Y", 0, -1, "0 to a negative power"},
};

/* What Souffle leaves undefined is an evaluation error, ARITHMETIC. */
START_TEST(test_arith_undefined_results_are_errors)
{
	char src[256];
	maelys_datalog_input_edb_t *edb = dltest_new_edb();

	snprintf(src, sizeof src,
		 ".decl in(x:number, y:number)\n.input in\n"
		 ".decl out(x:number)\nout(%s) :- in(X, Y).\n",
		 undefined_cases[_i].term);
	dltest_add_ii(edb, "in", undefined_cases[_i].x, undefined_cases[_i].y);
	solve_expect_error(src, true, edb, MAELYS_DATALOG_STATUS_ARITHMETIC,
			   undefined_cases[_i].what);
}
END_TEST

/* An error is one only for a binding that satisfies the whole body, so the
 * answer cannot depend on the order the planner joins the literals in: a
 * filter written after the division removes the zero divisor. */
START_TEST(test_arith_error_only_for_bindings_that_reach_the_head)
{
	static const char src[] = ".decl in(x:number, y:number)\n.input in\n"
				  ".decl ok(y:number)\n.input ok\n"
				  ".decl out(x:number)\n"
				  "out(X / Y) :- in(X, Y), ok(Y).\n";
	struct dltest_prog p;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, true);
	p.session = dltest_new_session(p.policy);
	dltest_add_ii(edb, "in", 1, 0);
	dltest_add_ii(edb, "in", 8, 2);
	dltest_add_i(edb, "ok", 2);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "out", 1, "#4");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
	/* with the zero divisor allowed, the same program fails */
	edb = dltest_new_edb();
	dltest_add_ii(edb, "in", 1, 0);
	dltest_add_i(edb, "ok", 0);
	solve_expect_error(src, true, edb, MAELYS_DATALOG_STATUS_ARITHMETIC,
			   "arith.dl:6:5:");
}
END_TEST

/* A term that another literal reads has no value to give it when it
 * fails: the error stops the solve at once (fail closed), unless a
 * comparison on its inputs, tested first, removed the binding.  One that
 * only the head reads, directly or through Z = term, waits for the body. */
START_TEST(test_arith_error_of_a_term_a_literal_reads)
{
	static const char unguarded[] =
	    ".decl in(x:number, y:number)\n.input in\n"
	    ".decl ok(y:number)\n.input ok\n.decl out(x:number)\n"
	    "out(X) :- in(X, Y), X / Y > 1, ok(Y).\n";
	static const char guarded[] =
	    ".decl in(x:number, y:number)\n.input in\n"
	    ".decl ok(y:number)\n.input ok\n.decl out(x:number)\n"
	    "out(X) :- in(X, Y), X / Y > 1, ok(Y), Y != 0.\n";
	static const char through_binding[] =
	    ".decl in(x:number, y:number)\n.input in\n"
	    ".decl ok(y:number)\n.input ok\n.decl out(x:number)\n"
	    "out(Z) :- in(X, Y), Z = X / Y, ok(Y).\n";
	const char *const fine[2] = {guarded, through_binding};
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	struct dltest_prog p;
	int i;

	dltest_add_ii(edb, "in", 1, 0);
	dltest_add_ii(edb, "in", 8, 2);
	dltest_add_i(edb, "ok", 2);
	for (i = 0; i < 2; i++) {
		memset(&p, 0, sizeof p);
		p.policy = load_dialect(fine[i], true);
		p.session = dltest_new_session(p.policy);
		res = dltest_prog_solve(&p, edb);
		dltest_assert_rows(res, "out", 1, i == 0 ? "#8" : "#4");
		(void)maelys_datalog_result_free(res);
		dltest_prog_close(&p);
	}
	solve_expect_error(unguarded, true, edb,
			   MAELYS_DATALOG_STATUS_ARITHMETIC,
			   "division by zero");
}
END_TEST

/* The native dialect's columns hold strings or numbers: a string reaching
 * arithmetic is a TYPE error, as a string in an ordering comparison is. */
START_TEST(test_arith_string_operand_is_a_type_error)
{
	static const char src[] = ".decl in(x)\n.input in\n.decl out(x)\n"
				  "out(X + 1) :- in(X).\n";
	maelys_datalog_input_edb_t *edb = dltest_new_edb();

	dltest_add_s(edb, "in", "ten");
	solve_expect_error(src, false, edb, MAELYS_DATALOG_STATUS_TYPE,
			   "arithmetic on a string");
}
END_TEST

/* A standalone program's rule with an arithmetic term is evaluated with the
 * solve (a standalone program solves once), so a result beyond the inline
 * range has the solve's overlay to be held in (a float's bits always are
 * beyond it). */
START_TEST(test_arith_wide_result_of_policy_rule_is_held)
{
	static const char src[] = ".decl c(x:number)\nc(1073741823).\n"
				  ".decl d(x:number)\nd(X + 1) :- c(X).\n";
	struct dltest_prog p;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, true);
	p.session = dltest_new_session(p.policy);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "d", 1, "#1073741824");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* nat(X + 1) :- nat(X) never ends on its own: the session's budget stops
 * it with a budget status, not a hang or a crash; bounded, it ends. */
START_TEST(test_arith_recursive_head_stops_at_the_budget)
{
	static const char endless[] = ".decl nat(x:number)\nnat(0).\n"
				      "nat(X + 1) :- nat(X).\n";
	static const char bounded[] = ".decl nat(x:number)\nnat(0).\n"
				      "nat(X + 1) :- nat(X), X < 10.\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res = NULL;
	struct dltest_prog p;
	maelys_datalog_status_t st;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(endless, true);
	p.session = dltest_new_session(p.policy);
	ck_assert_status(maelys_datalog_session_set_budget(
			     p.session, MAELYS_DATALOG_BUDGET_TUPLES, 5000),
			 MAELYS_DATALOG_STATUS_OK);
	st = maelys_datalog_session_solve_edb(p.session, edb, &res, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_BUDGET_TUPLES, "got %s: %s",
		      maelys_datalog_status_name(st), diag.message);
	ck_assert_ptr_null(res);
	dltest_prog_close(&p);
	/* with the default budgets it stops too (iterations come first) */
	p.policy = load_dialect(endless, true);
	p.session = dltest_new_session(p.policy);
	st = maelys_datalog_session_solve_edb(p.session, edb, &res, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_BUDGET_TUPLES ||
			  st == MAELYS_DATALOG_STATUS_BUDGET_ITERATIONS ||
			  st == MAELYS_DATALOG_STATUS_BUDGET_STEPS ||
			  st == MAELYS_DATALOG_STATUS_BUDGET_MEMORY,
		      "got %s: %s", maelys_datalog_status_name(st),
		      diag.message);
	ck_assert_ptr_null(res);
	dltest_prog_close(&p);
	p.policy = load_dialect(bounded, true);
	p.session = dltest_new_session(p.policy);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "nat", 1, "#0 #1 #10 #2 #3 #4 #5 #6 #7 #8 #9");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* The rules API shows an arithmetic term as written. */
START_TEST(test_arith_written_term_is_the_source_text)
{
	static const char src[] = ".decl n(x:number)\n.input n\n"
				  ".decl out(x:number, y:number)\n"
				  "out(X, (X+1) * 2) :- n(X), X  bshl 2 < 9.\n";
	maelys_datalog_policy_t *policy = load_dialect(src, true);
	maelys_datalog_written_term_t w;

	ck_assert_status(maelys_datalog_policy_get_head_term(policy, 0, 1, &w),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(w.kind, MAELYS_DATALOG_WRITTEN_EXPRESSION);
	ck_assert_str_eq(w.text, "(X+1) * 2");
	ck_assert_uint_eq(w.length, 9);
	ck_assert_status(
	    maelys_datalog_policy_get_literal_term(policy, 0, 1, 0, &w),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(w.kind, MAELYS_DATALOG_WRITTEN_EXPRESSION);
	ck_assert_str_eq(w.text, "X bshl 2");
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* Provenance records a derivation through arithmetic, and why-not follows
 * the terms. */
START_TEST(test_arith_provenance_and_why_not)
{
	static const char src[] = ".decl n(x:number)\n.input n\n"
				  ".decl sq(x:number)\n"
				  "sq(X * X) :- n(X), X > 1.\n";
	maelys_datalog_policy_t *policy = load_dialect(src, true);
	maelys_datalog_session_t *session =
	    dltest_new_session_flags(policy, MAELYS_DATALOG_SESSION_PROVENANCE);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	maelys_datalog_arg_t arg;
	int head = -1;
	size_t failed = 99;

	dltest_add_i(edb, "n", 1);
	dltest_add_i(edb, "n", 3);
	res = dltest_solve(session, edb);
	dltest_assert_rows(res, "sq", 1, "#9");
	/* 9 holds; 4 fails at n(X) (no n(2)); 1 fails at X > 1 */
	arg = maelys_datalog_arg_integer(9);
	ck_assert_status(maelys_datalog_result_why_not(res, 0, "sq", &arg, 1,
						       &head, &failed),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(head, 1);
	ck_assert_uint_eq(failed, 2); /* the whole body held */
	arg = maelys_datalog_arg_integer(4);
	ck_assert_status(maelys_datalog_result_why_not(res, 0, "sq", &arg, 1,
						       &head, &failed),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(failed, 0);
	arg = maelys_datalog_arg_integer(1);
	ck_assert_status(maelys_datalog_result_why_not(res, 0, "sq", &arg, 1,
						       &head, &failed),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(failed, 1);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("arith");
	int ncases = (int)(sizeof arith_cases / sizeof *arith_cases);
	int nundef = (int)(sizeof undefined_cases / sizeof *undefined_cases);

	tcase_add_loop_test(tc, test_arith_operators_compute_souffles_values, 0,
			    2 * ncases);
	tcase_add_test(tc, test_arith_constant_terms_fold_in_facts);
	tcase_add_loop_test(tc, test_arith_terms_in_heads_comparisons_and_atoms,
			    0, 2);
	tcase_add_loop_test(tc, test_arith_undefined_results_are_errors, 0,
			    nundef);
	tcase_add_test(tc,
		       test_arith_error_only_for_bindings_that_reach_the_head);
	tcase_add_test(tc, test_arith_error_of_a_term_a_literal_reads);
	tcase_add_test(tc, test_arith_string_operand_is_a_type_error);
	tcase_add_test(tc, test_arith_wide_result_of_policy_rule_is_held);
	tcase_add_test(tc, test_arith_recursive_head_stops_at_the_budget);
	tcase_add_test(tc, test_arith_written_term_is_the_source_text);
	tcase_add_test(tc, test_arith_provenance_and_why_not);
	suite_add_tcase(s, tc);
	return s;
}
