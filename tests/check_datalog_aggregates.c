/* SPDX-License-Identifier: MIT */
/*
 * Aggregates, in both dialects: count, sum, min and max over a body (the
 * single-atom form too), grouped by the variables bound outside, with an
 * expression as the folded term, as a term in heads, comparisons and
 * arithmetic, nested, and with Souffle's witnesses of min and max.  Empty
 * bodies (count and sum 0, min and max fail), a second solve with other
 * input facts, the steps budget inside an aggregate's join, the load
 * errors (an aggregate over its own stratum, a witness of count, a
 * variable bound nowhere, mean, a symbol summed) and provenance.  Expected
 * values are worked out by hand and written as literals.
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

#define SOURCE "agg.dl"

static maelys_datalog_status_t
load_status(const char *src, bool souffle, maelys_datalog_policy_t **policy,
	    maelys_datalog_diagnostic_t *diag)
{
	return maelys_datalog_policy_load_text(
	    NULL, SOURCE, src, strlen(src),
	    souffle ? MAELYS_DATALOG_LOAD_SOUFFLE : 0u, policy, diag);
}

static maelys_datalog_policy_t *
load_dialect(const char *src, bool souffle)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st = load_status(src, souffle, &policy, &diag);

	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "load %s: %s: %s", src,
		      maelys_datalog_status_name(st), diag.message);
	return policy;
}

/* The same program in each dialect: grouping, empty bodies, an expression
 * folded, an aggregate in a head, in arithmetic, nested, single-atom. */
static const char *const basic_src[2] = {
    ".decl e(k:symbol, x:number)\n.input e\n"
    ".decl key(k:symbol)\n.input key\n"
    ".decl cnt(k:symbol, n:number)\n.decl tot(k:symbol, n:number)\n"
    ".decl lo(k:symbol, n:number)\n.decl hi(k:symbol, n:number)\n"
    ".decl dbl(n:number)\n.decl next(k:symbol, n:number)\n"
    ".decl top(n:number)\n.decl all(n:number)\n"
    "cnt(K, N) :- key(K), N = count : { e(K, _) }.\n"
    "tot(K, N) :- key(K), N = sum X : { e(K, X) }.\n"
    "lo(K, N) :- key(K), N = min X : e(K, X).\n"
    "hi(K, max X : { e(K, X) }) :- key(K).\n"
    "dbl(N) :- N = sum X * 2 : { e(_, X) }.\n"
    "next(K, 1 + count : { e(K, _) }) :- key(K).\n"
    "top(N) :- N = sum X : { e(K, X), X = max Y : { e(K, Y) } }.\n"
    "all(count : { e(K, X), X > 1, !key(K) }) :- key(\"a\").\n",
    ".decl e(k, x)\n.input e\n"
    ".decl key(k)\n.input key\n"
    ".decl cnt(k, n)\n.decl tot(k, n)\n"
    ".decl lo(k, n)\n.decl hi(k, n)\n"
    ".decl dbl(n)\n.decl next(k, n)\n"
    ".decl top(n)\n.decl all(n)\n"
    "cnt(K, N) :- key(K), N = count : { e(K, _) }.\n"
    "tot(K, N) :- key(K), N = sum X : { e(K, X) }.\n"
    "lo(K, N) :- key(K), N = min X : e(K, X).\n"
    "hi(K, max X : { e(K, X) }) :- key(K).\n"
    "dbl(N) :- N = sum X * 2 : { e(_, X) }.\n"
    "next(K, 1 + count : { e(K, _) }) :- key(K).\n"
    "top(N) :- N = sum X : { e(K, X), X = max Y : { e(K, Y) } }.\n"
    "all(count : { e(K, X), X > 1, not(key(K)) }) :- key(\"a\").\n",
};

START_TEST(test_agg_values_grouping_and_empty_bodies)
{
	struct dltest_prog p;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(basic_src[_i], _i == 0);
	p.session = dltest_new_session(p.policy);
	/* a: 3 4 5; b: 2 2 (one tuple: a set); c: none; d: -7 */
	dltest_add_args(edb, "e",
			(maelys_datalog_arg_t[]){maelys_datalog_arg_symbol("a"),
						 maelys_datalog_arg_integer(3)},
			2);
	dltest_add_args(edb, "e",
			(maelys_datalog_arg_t[]){maelys_datalog_arg_symbol("a"),
						 maelys_datalog_arg_integer(4)},
			2);
	dltest_add_args(edb, "e",
			(maelys_datalog_arg_t[]){maelys_datalog_arg_symbol("a"),
						 maelys_datalog_arg_integer(5)},
			2);
	dltest_add_args(edb, "e",
			(maelys_datalog_arg_t[]){maelys_datalog_arg_symbol("b"),
						 maelys_datalog_arg_integer(2)},
			2);
	dltest_add_args(
	    edb, "e",
	    (maelys_datalog_arg_t[]){maelys_datalog_arg_symbol("d"),
				     maelys_datalog_arg_integer(-7)},
	    2);
	dltest_add_s(edb, "key", "a");
	dltest_add_s(edb, "key", "b");
	dltest_add_s(edb, "key", "c");
	res = dltest_prog_solve(&p, edb);
	/* count and sum of an empty body are 0; min and max fail */
	dltest_assert_rows(res, "cnt", 2, "a,#3 b,#1 c,#0");
	dltest_assert_rows(res, "tot", 2, "a,#12 b,#2 c,#0");
	dltest_assert_rows(res, "lo", 2, "a,#3 b,#2");
	dltest_assert_rows(res, "hi", 2, "a,#5 b,#2");
	/* 2 * (3 + 4 + 5 + 2 - 7) */
	dltest_assert_rows(res, "dbl", 1, "#14");
	dltest_assert_rows(res, "next", 2, "a,#4 b,#2 c,#1");
	/* the largest of each key, summed: 5 + 2 - 7 */
	dltest_assert_rows(res, "top", 1, "#0");
	/* e rows over 1 whose key is not a key: none (d's is -7) */
	dltest_assert_rows(res, "all", 1, "#0");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* A rule evaluated at every solve reads each solve's facts: the second
 * solve's counts are its own, not the first one's plus. */
START_TEST(test_agg_second_solve_sees_its_own_facts)
{
	static const char src[] = ".decl n(x:number)\n.input n\n"
				  ".decl big(x:number)\n"
				  ".decl c(x:number)\n.decl s(x:number)\n"
				  "big(100).\n"
				  "c(N) :- N = count : n(_).\n"
				  "s(N) :- N = sum X : { n(X), !big(X) }.\n";
	struct dltest_prog p;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, true);
	p.session = dltest_new_session(p.policy);
	dltest_add_i(edb, "n", 1);
	dltest_add_i(edb, "n", 100);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "c", 1, "#2");
	dltest_assert_rows(res, "s", 1, "#1");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	edb = dltest_new_edb();
	dltest_add_i(edb, "n", 7);
	dltest_add_i(edb, "n", 8);
	dltest_add_i(edb, "n", 9);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "c", 1, "#3");
	dltest_assert_rows(res, "s", 1, "#24");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	edb = dltest_new_edb();
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "c", 1, "#0");
	dltest_assert_rows(res, "s", 1, "#0");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* Souffle's scoping: a name inside is the aggregate's own unless the rule
 * grounds it outside, and never when it is in the folded term. */
START_TEST(test_agg_scoping_and_witnesses)
{
	static const char src[] =
	    ".decl a(k:symbol, x:number)\n"
	    "a(\"A\", 3). a(\"A\", 4). a(\"B\", 2). a(\"B\", 6).\n"
	    ".decl r(n:symbol, x:number)\n"
	    ".decl tallest(k:symbol, x:number)\n"
	    "r(\"minAB+\", Y) :- Y = min Z + Y : { a(A, Z), a(B, Y), A != B "
	    "}.\n"
	    "r(\"per\", Y) :- a(\"A\", Y), Y = max Y : a(_, Y).\n"
	    "r(\"twice\", N) :- N = count : a(_, X), M = count : a(X, _),"
	    " N = M.\n"
	    "tallest(K, N) :- N = max X : { a(K, X) }.\n";
	struct dltest_prog p;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, true);
	p.session = dltest_new_session(p.policy);
	res = dltest_prog_solve(&p, edb);
	/* 3 + 2; the Y of the folded term is the aggregate's own; per: the
	 * outer Y is an a("A", _) value, the inner one a fresh one, max 6:
	 * no row; X inside two sibling aggregates is two variables (4 rows
	 * of a each) */
	dltest_assert_rows(res, "r", 2, "minAB+,#5 twice,#4");
	/* K is a witness of the maximum */
	dltest_assert_rows(res, "tallest", 2, "B,#6");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

static const struct {
	const char *src;
	maelys_datalog_status_t want;
	const char *what;
} load_errors[] = {
    {".decl p(x:number)\np(1).\np(N) :- p(_), N = count : p(_).\n",
     MAELYS_DATALOG_STATUS_NEGATION_CYCLE,
     "recursion through an aggregate: p -> count p"},
    {".decl e(x:number, y:number)\ne(1, 2).\n.decl q(x:number)\n"
     ".decl r(x:number, n:number)\nq(1).\nq(X) :- r(X, _).\n"
     "r(X, N) :- q(X), N = sum Y : { q(Y), Y > X }.\n",
     MAELYS_DATALOG_STATUS_NEGATION_CYCLE,
     "recursion through an aggregate: r -> sum q -> r"},
    {".decl c(x:number, y:number)\nc(2, 3).\n.decl a(x:number, y:number)\n"
     "a(X, Y) :- Y = count : { c(X, _) }.\n",
     MAELYS_DATALOG_STATUS_UNSAFE,
     "witness problem: variable X is grounded only inside the "
     "aggregate count"},
    /* each aggregate grounds (in its body) a variable the other reads
     * ungrounded: Souffle's "mutually dependent aggregate" */
    {".decl r(i:number, j:number, h:number)\nr(1, 2, 3).\n"
     ".decl s(i:number, j:number)\n"
     "s(I, J) :- r(I, J, H),\n"
     "  0 = count : { r(X, J, Z), X < I, Z > H },\n"
     "  0 = count : { r(I, Y, Z), Y < J, Z > H }.\n",
     MAELYS_DATALOG_STATUS_UNSAFE, "mutually dependent aggregates"},
    {".decl c(x:number)\nc(1).\n.decl a(y:number)\n"
     "a(Y) :- Y = min X : { X != 2 }.\n",
     MAELYS_DATALOG_STATUS_UNSAFE,
     "variable X of a comparison in the aggregate"},
    {".decl c(x:number)\nc(1).\n.decl a(y:number)\n"
     "a(Y) :- Y = min X : { c(Z) }.\n",
     MAELYS_DATALOG_STATUS_UNSAFE, "the term of the aggregate"},
    {".decl c(x:number)\nc(1).\n.decl a(y:number)\n"
     "a(Y) :- Y = mean X : c(X).\n",
     MAELYS_DATALOG_STATUS_TYPE, "mean of numbers"},
    {".decl c(x:symbol)\nc(\"s\").\n.decl a(y:number)\n"
     "a(Y) :- Y = sum X : c(X).\n",
     MAELYS_DATALOG_STATUS_TYPE, "sum over variable X, a symbol"},
    {".decl c(x:number)\nc(1).\n.decl a(y:symbol)\n"
     "a(Y) :- Y = count : c(_).\n",
     MAELYS_DATALOG_STATUS_TYPE, "is a number, but column 1 of 'a'"},
    {".decl c(x:number, y:number)\n.decl d(y:number)\n.decl s(n:number)\n"
     "c(1, 5). c(2, 5). d(5).\n"
     "s(N) :- N = sum Y : { c(_, Y), d(Y) }.\n",
     MAELYS_DATALOG_STATUS_LIMIT, "Souffle sums such a body once per value"},
    {".decl c(x:number)\nc(1).\n.decl a(y:number)\n"
     "a(Y) :- Y = count : { c(_) .\n",
     MAELYS_DATALOG_STATUS_PARSE, "',' or '}' in the aggregate's body"},
    {".decl c(x:number)\n.decl a(y:number)\n"
     "a(N) :- N = count : { c(_), 1 = count : { c(_), 1 = count : {"
     " c(_), 1 = count : { c(_), 1 = count : { c(_), 1 = count : {"
     " c(_), 1 = count : { c(_), 1 = count : { c(_), 1 = count : {"
     " c(_) } } } } } } } } }.\n",
     MAELYS_DATALOG_STATUS_LIMIT, "aggregates nested deeper than 8"},
};

/* Souffle's syntax: a fact whose head takes an aggregate is a rule that
 * always fires; `true` and `false` in an aggregate's body; `max (term) :
 * body` with the term in parentheses is an aggregate, `max(a, b)` still the
 * functor.  The native dialect keeps refusing the fact. */
START_TEST(test_agg_souffle_facts_booleans_and_parenthesised_term)
{
	static const char src[] =
	    ".decl c(x:number)\nc(1). c(2). c(5).\n"
	    ".decl e(k:number, n:number)\n"
	    "e(1, count : c(_)).\n"
	    "e(2, count : { false } + count : { true }).\n"
	    "e(3, sum x : { true, c(x) }).\n"
	    "e(4, count : { c(_), false }).\n"
	    "e(5, n) :- n = max (x * 2) : c(x).\n"
	    "e(6, max(1, 2)).\n"
	    "e(7, n) :- c(n), n = min (x) : { c(x), true }.\n";
	static const char native[] = ".decl c(x)\nc(1).\n.decl a(y)\n"
				     "a(count : c(_)).\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	struct dltest_prog p;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, true);
	p.session = dltest_new_session(p.policy);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "e", 2,
			   "#1,#3 #2,#1 #3,#8 #4,#0 #5,#10 #6,#2 #7,#1");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
	ck_assert_status(load_status(native, false, &policy, &diag),
			 MAELYS_DATALOG_STATUS_UNSAFE);
	ck_assert_ptr_null(policy);
	ck_assert_ptr_nonnull(
	    strstr(diag.message, "an aggregate belongs in a rule"));
}
END_TEST

START_TEST(test_agg_load_errors)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st;

	st = load_status(load_errors[_i].src, true, &policy, &diag);
	ck_assert_msg(st == load_errors[_i].want, "%s: got %s (%s), want %s",
		      load_errors[_i].src, maelys_datalog_status_name(st),
		      diag.message,
		      maelys_datalog_status_name(load_errors[_i].want));
	ck_assert_ptr_null(policy);
	ck_assert_msg(strstr(diag.message, load_errors[_i].what) != NULL,
		      "message \"%s\" lacks \"%s\"", diag.message,
		      load_errors[_i].what);
}
END_TEST

/* More than 16 aggregates in one rule is a limit. */
START_TEST(test_agg_too_many_in_one_rule)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	char src[2048];
	size_t used;
	int i;

	used = (size_t)snprintf(src, sizeof src,
				".decl c(x:number)\n.decl a(y:number)\n"
				"a(0");
	for (i = 0; i < 17; i++)
		used += (size_t)snprintf(src + used, sizeof src - used,
					 " + count : c(_)");
	(void)snprintf(src + used, sizeof src - used, ") :- c(_).\n");
	ck_assert_status(load_status(src, true, &policy, &diag),
			 MAELYS_DATALOG_STATUS_LIMIT);
	ck_assert_ptr_nonnull(strstr(diag.message, "more than 16 aggregates"));
}
END_TEST

/* An aggregate's own join counts against the steps budget. */
START_TEST(test_agg_join_stops_at_the_steps_budget)
{
	static const char src[] = ".decl n(x:number)\n.input n\n"
				  ".decl c(x:number)\n"
				  "c(N) :- N = count : { n(X), n(Y), n(Z) }.\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res = NULL;
	struct dltest_prog p;
	maelys_datalog_status_t st;
	int64_t i;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, true);
	p.session = dltest_new_session(p.policy);
	for (i = 0; i < 100; i++)
		dltest_add_i(edb, "n", i);
	ck_assert_status(maelys_datalog_session_set_budget(
			     p.session, MAELYS_DATALOG_BUDGET_STEPS, 50000),
			 MAELYS_DATALOG_STATUS_OK);
	st = maelys_datalog_session_solve_edb(p.session, edb, &res, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_BUDGET_STEPS, "got %s: %s",
		      maelys_datalog_status_name(st), diag.message);
	ck_assert_ptr_null(res);
	ck_assert_status(maelys_datalog_session_set_budget(
			     p.session, MAELYS_DATALOG_BUDGET_STEPS, 2000000),
			 MAELYS_DATALOG_STATUS_OK);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "c", 1, "#1000000");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* A string where sum expects a number, found only at evaluation (an
 * untyped column of the native dialect), is a type error. */
START_TEST(test_agg_sum_of_a_string_is_a_type_error)
{
	static const char src[] = ".decl n(x)\n.input n\n.decl s(x)\n"
				  "s(N) :- N = sum X : n(X).\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res = NULL;
	struct dltest_prog p;
	maelys_datalog_status_t st;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, false);
	p.session = dltest_new_session(p.policy);
	dltest_add_i(edb, "n", 1);
	dltest_add_s(edb, "n", "two");
	st = maelys_datalog_session_solve_edb(p.session, edb, &res, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_TYPE, "got %s: %s",
		      maelys_datalog_status_name(st), diag.message);
	ck_assert_ptr_nonnull(strstr(diag.message, "sum over a string"));
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* Provenance: a derivation through an aggregate has its positive premises;
 * the aggregate's own value is not rebuilt (no value, term kind 0); why-not
 * stops at the literal that reads the aggregate. */
START_TEST(test_agg_provenance_and_why_not)
{
	static const char src[] = ".decl n(k:symbol, x:number)\n.input n\n"
				  ".decl c(k:symbol, x:number)\n"
				  "c(K, N) :- n(K, _), N = count : n(K, _).\n";
	maelys_datalog_policy_t *policy = load_dialect(src, true);
	maelys_datalog_session_t *session =
	    dltest_new_session_flags(policy, MAELYS_DATALOG_SESSION_PROVENANCE);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	maelys_datalog_arg_t args[2];
	maelys_datalog_tuple_t t;
	maelys_datalog_derivation_t d;
	maelys_datalog_premise_t pr;
	int found = 0, head = -1;
	size_t failed = 99;

	args[0] = maelys_datalog_arg_symbol("a");
	args[1] = maelys_datalog_arg_integer(1);
	dltest_add_args(edb, "n", args, 2);
	args[1] = maelys_datalog_arg_integer(2);
	dltest_add_args(edb, "n", args, 2);
	res = dltest_solve(session, edb);
	dltest_assert_rows(res, "c", 2, "a,#2");
	ck_assert_status(
	    maelys_datalog_result_find(res, "c", args, 2, &t, &found),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(found, 1);
	ck_assert_status(maelys_datalog_result_derivation(res, t, &d),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(d.origin, MAELYS_DATALOG_ORIGIN_RULE);
	ck_assert_uint_eq(d.premise_count, 2);
	ck_assert_status(maelys_datalog_result_premise(res, t, 0, &pr),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(pr.kind, MAELYS_DATALOG_LITERAL_ATOM);
	ck_assert_status(maelys_datalog_result_premise(res, t, 1, &pr),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(pr.kind, MAELYS_DATALOG_LITERAL_BUILTIN);
	ck_assert_int_eq(pr.terms.terms[0].kind, 0);
	ck_assert_int_eq(pr.terms.terms[1].kind, 0);
	args[1] = maelys_datalog_arg_integer(5);
	ck_assert_status(
	    maelys_datalog_result_why_not(res, 0, "c", args, 2, &head, &failed),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(head, 1);
	ck_assert_uint_eq(failed, 1);
	args[0] = maelys_datalog_arg_symbol("zz");
	ck_assert_status(
	    maelys_datalog_result_why_not(res, 0, "c", args, 2, &head, &failed),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(failed, 0); /* no n("zz", _) */
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
	TCase *tc = tcase_create("aggregates");
	int nerr = (int)(sizeof load_errors / sizeof *load_errors);

	tcase_add_loop_test(tc, test_agg_values_grouping_and_empty_bodies, 0,
			    2);
	tcase_add_test(tc, test_agg_second_solve_sees_its_own_facts);
	tcase_add_test(tc, test_agg_scoping_and_witnesses);
	tcase_add_test(tc, test_agg_souffle_facts_booleans_and_parenthesised_term);
	tcase_add_loop_test(tc, test_agg_load_errors, 0, nerr);
	tcase_add_test(tc, test_agg_too_many_in_one_rule);
	tcase_add_test(tc, test_agg_join_stops_at_the_steps_budget);
	tcase_add_test(tc, test_agg_sum_of_a_string_is_a_type_error);
	tcase_add_test(tc, test_agg_provenance_and_why_not);
	suite_add_tcase(s, tc);
	return s;
}
