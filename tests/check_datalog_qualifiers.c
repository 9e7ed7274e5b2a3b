/* SPDX-License-Identifier: MIT */
/*
 * Souffle's relation qualifiers and rule forms: disjunction in a body
 * (with groups and negated groups), several heads, eqrel, choice-domain,
 * the qualifiers that only tune a plan (inline, no_inline, brie, btree,
 * magic) and `.plan`, with the refusals Souffle makes of them.  Expected
 * answers are worked out by hand from Souffle's semantics and written as
 * literals.
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

#define SOURCE "qualifiers.dl"

/* Loads `src` in Souffle's syntax; fails the test unless it loads. */
static maelys_datalog_policy_t *
load_souffle(const char *src)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st;

	st = maelys_datalog_policy_load_text(NULL, SOURCE, src, strlen(src),
					     MAELYS_DATALOG_LOAD_SOUFFLE,
					     &policy, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "load %s: %s: %s", src,
		      maelys_datalog_status_name(st), diag.message);
	return policy;
}

/* Loads and solves `src` (no input facts) into `p` and returns the
 * result. */
static maelys_datalog_result_t *
run_souffle(struct dltest_prog *p, const char *src)
{
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;

	memset(p, 0, sizeof *p);
	p->policy = load_souffle(src);
	p->session = dltest_new_session(p->policy);
	res = dltest_prog_solve(p, edb);
	(void)maelys_datalog_input_edb_free(edb);
	return res;
}

static size_t
count_of(const maelys_datalog_result_t *res, const char *pred, size_t arity)
{
	size_t n = 0;

	ck_assert_status(maelys_datalog_result_count(res, pred, arity, &n),
			 MAELYS_DATALOG_STATUS_OK);
	return n;
}

/* The numbers x of unary `pred` in 0..15, as a bit set. */
static unsigned
set_of(const maelys_datalog_result_t *res, const char *pred)
{
	unsigned bits = 0;
	int64_t x;

	for (x = 0; x < 16; x++)
		if (dltest_query_i(res, pred, x))
			bits |= 1u << x;
	return bits;
}

/* ------------------------------------------------------------------ */
/* Disjunction and several heads                                       */

/* example/dnf's relations, in the suite's own words. */
static const char dnf_src[] =
    ".decl A(x:number)\n.decl B(x:number)\n.decl C(x:number)\n"
    ".decl D(x:number)\n.decl E(x:number)\n"
    "A(0). B(1). B(2). B(3). C(4). C(5). C(6). D(3). D(4). E(6). E(7).\n"
    ".decl U(x:number)\n.decl R1(x:number)\n.decl R2(x:number)\n"
    ".decl R3(x:number)\n.decl R5(x:number)\n.decl R6(x:number)\n"
    ".decl R7(x:number)\n"
    "U(X) :- A(X) ; B(X) ; C(X) ; D(X); E(X) .\n"
    "R1(X) :- A(X) ; B(X) , D(X) .\n"
    "R2(X) :- U(X) , !( B(X) ; D(X) ) .\n"
    "R3(X) :- U(X) , !( B(X) , D(X) ) .\n"
    "R5(X) :- U(X) , !!!( B(X) ; D(X) ) .\n"
    "R6(X) :- (!B(X) ; D(X)) , U(X) .\n"
    /* a negated comparison is the opposite comparison */
    "R7(X) :- U(X), !(X < 5 ; X = 7).\n";

START_TEST(test_qualifiers_disjunction_is_the_union_of_its_branches)
{
	struct dltest_prog p;
	maelys_datalog_result_t *res = run_souffle(&p, dnf_src);

	/* U = {0..7}; R1 = A or (B and D) = {0, 3} */
	ck_assert_uint_eq(set_of(res, "U"), 0xffu);
	ck_assert_uint_eq(set_of(res, "R1"), (1u << 0) | (1u << 3));
	/* R2 = U minus B minus D = {0, 5, 6, 7}; R5 is the same */
	ck_assert_uint_eq(set_of(res, "R2"),
			  (1u << 0) | (1u << 5) | (1u << 6) | (1u << 7));
	ck_assert_uint_eq(set_of(res, "R5"), set_of(res, "R2"));
	/* R3 = U minus (B and D) = U minus {3} */
	ck_assert_uint_eq(set_of(res, "R3"), 0xffu & ~(1u << 3));
	/* R6 = (not B or D) and U = {0, 3, 4, 5, 6, 7} */
	ck_assert_uint_eq(set_of(res, "R6"), 0xffu & ~((1u << 1) | (1u << 2)));
	/* R7 = U, X >= 5, X != 7 = {5, 6} */
	ck_assert_uint_eq(set_of(res, "R7"), (1u << 5) | (1u << 6));
	(void)maelys_datalog_result_free(res);
	dltest_prog_close(&p);
}
END_TEST

/* A parenthesis that opens a comparison is still a comparison. */
START_TEST(test_qualifiers_parenthesised_comparison_is_not_a_group)
{
	static const char src[] = ".decl a(x:number)\n.decl b(x:number)\n"
				  "a(1). a(2). a(3).\n"
				  "b(X) :- a(X), (X + 1) * 2 < 7 ; a(X), X = 3.\n";
	struct dltest_prog p;
	maelys_datalog_result_t *res = run_souffle(&p, src);

	ck_assert_uint_eq(set_of(res, "b"), (1u << 1) | (1u << 2) | (1u << 3));
	(void)maelys_datalog_result_free(res);
	dltest_prog_close(&p);
}
END_TEST

START_TEST(test_qualifiers_several_heads_each_get_the_body)
{
	static const char src[] =
	    ".decl a(x:number)\n.decl b(x:number)\n.decl c(x:number, y:number)\n"
	    "a(1). a(2).\n"
	    "b(X), c(X, X) :- a(X).\n";
	struct dltest_prog p;
	maelys_datalog_result_t *res = run_souffle(&p, src);

	ck_assert_uint_eq(set_of(res, "b"), (1u << 1) | (1u << 2));
	ck_assert_uint_eq(count_of(res, "c", 2), 2);
	ck_assert_int_eq(dltest_query_ii(res, "c", 2, 2), 1);
	(void)maelys_datalog_result_free(res);
	dltest_prog_close(&p);
}
END_TEST

/* Programs refused at load: the status, and a phrase of the message. */
struct refusal {
	const char *what;
	const char *src;
	maelys_datalog_status_t status;
	const char *phrase;
};

static const struct refusal refusals[] = {
    {"several heads without a body", ".decl a(x:number)\n.decl b(x:number)\n"
     "a(1), b(1).\n", MAELYS_DATALOG_STATUS_PARSE, "several heads"},
    {"unclosed group", ".decl a(x:number)\n.decl b(x:number)\n"
     "b(X) :- (a(X) ; a(X).\n", MAELYS_DATALOG_STATUS_PARSE, "')'"},
    {"disjunction that multiplies past the bound",
     ".decl a(x:number)\n.decl b(x:number)\nb(X) :- "
     "(a(X);a(X)),(a(X);a(X)),(a(X);a(X)),(a(X);a(X)),(a(X);a(X)),"
     "(a(X);a(X)),(a(X);a(X)),(a(X);a(X)),(a(X);a(X)).\n",
     MAELYS_DATALOG_STATUS_LIMIT, "256 clauses"},
    {"groups nested too deep",
     ".decl a(x:number)\n.decl b(x:number)\nb(X) :- "
     "((((((((((((((((((((((((((((((((((a(X)))))))))))))))))))))))))))))))))"
     ").\n",
     MAELYS_DATALOG_STATUS_LIMIT, "nested deeper"},
    {"eqrel of three columns", ".decl e(x:number, y:number, z:number) eqrel\n",
     MAELYS_DATALOG_STATUS_ARITY, "binary"},
    {"eqrel of two types", ".decl e(x:number, y:symbol) eqrel\n",
     MAELYS_DATALOG_STATUS_TYPE, "one type"},
    {"two representations", ".decl e(x:number, y:number) brie eqrel\n",
     MAELYS_DATALOG_STATUS_PARSE, "already set"},
    {"choice-domain of a column that is not there",
     ".decl r(x:symbol, y:symbol) choice-domain (x, z)\n",
     MAELYS_DATALOG_STATUS_UNDECLARED, "no column 'z'"},
    {"inline relation that is output",
     ".decl a(x:number)\na(1).\n.decl b(x:number) inline\nb(X) :- a(X).\n"
     ".output b\n",
     MAELYS_DATALOG_STATUS_ROLE, "cannot be read or written"},
    {"cycle of inlined relations",
     ".decl i(x:number)\ni(1).\n.decl m(x:number) inline\n"
     ".decl n(x:number) inline\n.decl p(x:number)\n"
     "p(X) :- n(X).\nn(X) :- m(X).\nm(X) :- n(X).\nm(X) :- i(X).\n",
     MAELYS_DATALOG_STATUS_ROLE, "cycle of inlined"},
    {"negated inline relation with new variables",
     ".decl c(x:number)\nc(1).\n.decl d(x:number, y:number)\nd(1, 2).\n"
     ".decl b(x:number) inline\nb(X) :- d(X, Y), !c(Y).\n"
     ".decl a(x:number)\na(X) :- c(X), !b(X).\n",
     MAELYS_DATALOG_STATUS_UNSAFE, "variables of its own"},
    {"negated inline atom with _",
     ".decl c(x:number)\nc(1).\n.decl e(x:number) inline\ne(X) :- c(X).\n"
     ".decl a(x:number)\na(X) :- c(X), !e(_).\n",
     MAELYS_DATALOG_STATUS_UNSAFE, "'_'"},
    {"plan that is not a permutation",
     ".decl a(x:number)\n.decl b(x:number)\n.decl c(x:number)\na(1). b(1).\n"
     "c(X) :- a(X), b(X). .plan 0:(1,3)\n",
     MAELYS_DATALOG_STATUS_PARSE, "atoms 1..2"},
    {"plan of the wrong length",
     ".decl a(x:number)\n.decl b(x:number)\n.decl c(x:number)\na(1). b(1).\n"
     "c(X) :- a(X), b(X). .plan 0:(1,2,3)\n",
     MAELYS_DATALOG_STATUS_PARSE, "expected 2 atoms, not 3"},
    {"plan of a version the rule does not have",
     ".decl e(x:number, y:number)\ne(1, 2).\n.decl t(x:number, y:number)\n"
     "t(X, Y) :- e(X, Y).\n"
     "t(X, Z) :- t(X, Y), t(Y, Z). .plan 2:(1,2)\n",
     MAELYS_DATALOG_STATUS_PARSE, "only versions 0..1"},
    {"subsumption of two relations",
     ".decl b(x:number, y:number)\n.decl c(x:number, y:number)\n"
     "b(1, 1). c(1, 2).\nb(X, Y1) <= c(X, Y2) :- Y2 <= Y1.\n",
     MAELYS_DATALOG_STATUS_PARSE, "same relation"},
    {"subsumption of a nullary relation",
     ".decl a()\n.decl b(x:number)\na().\nb(1).\na() <= a() :- b(1).\n",
     MAELYS_DATALOG_STATUS_ARITY, "nullary"},
    /* Souffle reads such a body by versions of its own */
    {"subsumption of a recursive relation whose body reads it",
     ".decl e(x:number, y:number)\ne(1, 2).\n"
     ".decl r(x:number, y:number)\nr(X, Y) :- e(X, Y).\n"
     "r(X, Z) :- r(X, Y), e(Y, Z).\n"
     "r(X, Y1) <= r(X, Y2) :- r(Y1, Y2).\n",
     MAELYS_DATALOG_STATUS_PARSE, "the relation itself"},
    {"subsumption of a recursive relation whose body reads it inlined",
     ".decl e(x:number, y:number)\ne(1, 2).\n"
     ".decl r(x:number, y:number)\nr(X, Y) :- e(X, Y).\n"
     "r(X, Z) :- r(X, Y), e(Y, Z).\n"
     ".decl i(x:number, y:number) inline\ni(X, Y) :- r(X, Y).\n"
     "r(X, Y1) <= r(X, Y2) :- i(Y1, Y2).\n",
     MAELYS_DATALOG_STATUS_PARSE, "the relation itself"},
    {"subsumption of a recursive relation whose body reads another "
     "subsumed one of its recursion",
     ".decl e(x:number, y:number)\ne(1, 2).\n"
     ".decl q(x:number, y:number)\nq(X, Y) :- r(X, Y).\n"
     "q(X, Y1) <= q(X, Y2) :- Y2 < Y1.\n"
     ".decl r(x:number, y:number)\nr(X, Y) :- e(X, Y).\n"
     "r(X, Z) :- r(X, Y), e(Y, Z).\n"
     "r(X, Y1) <= r(X, Y2) :- q(Y1, Y2).\n",
     MAELYS_DATALOG_STATUS_PARSE, "a subsumed relation"},
    {"subsumption of an input relation",
     ".decl a(x:number)\n.input a\na(X) <= a(Y) :- X < Y.\n",
     MAELYS_DATALOG_STATUS_PARSE, "input relation"},
    {"subsumption without a body",
     ".decl a(x:number)\na(1).\na(X) <= a(Y).\n",
     MAELYS_DATALOG_STATUS_PARSE, "has a body"},
    {"plan without a version",
     ".decl a(x:number)\n.decl c(x:number)\na(1).\n"
     "c(X) :- a(X). .plan (1)\n",
     MAELYS_DATALOG_STATUS_PARSE, "expected a number"},
    {".limitsize of an undeclared relation",
     ".decl a(x:number)\n.limitsize b(n=3)\n",
     MAELYS_DATALOG_STATUS_UNDECLARED, "undeclared relation 'b'"},
    {".limitsize twice", ".decl a(x:number)\n.limitsize a(n=3)\n"
     ".limitsize a(n=4)\n",
     MAELYS_DATALOG_STATUS_REDECLARED, ".limitsize of 'a' again"},
    {".limitsize of a negative size", ".decl a(x:number)\n"
     ".limitsize a(n=-1)\n",
     MAELYS_DATALOG_STATUS_PARSE, "a size"},
    {".limitsize without n=", ".decl a(x:number)\n.limitsize a(3)\n",
     MAELYS_DATALOG_STATUS_PARSE, "n=SIZE"},
    {".limitsize of an eqrel relation",
     ".decl a(x:number, y:number) eqrel\na(1, 2).\n.limitsize a(n=2)\n",
     MAELYS_DATALOG_STATUS_PARSE, "an eqrel relation, is not supported"},
    {".limitsize of an inline relation",
     ".decl a(x:number) inline\na(1).\n.limitsize a(n=1)\n"
     ".decl b(x:number)\nb(X) :- a(X).\n",
     MAELYS_DATALOG_STATUS_ROLE, "holds no tuples to limit"},
};

START_TEST(test_qualifiers_refusals_name_the_construct)
{
	const struct refusal *r = &refusals[_i];
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st;

	st = maelys_datalog_policy_load_text(NULL, SOURCE, r->src,
					     strlen(r->src),
					     MAELYS_DATALOG_LOAD_SOUFFLE,
					     &policy, &diag);
	ck_assert_ptr_null(policy);
	ck_assert_msg(st == r->status, "%s: got %s, want %s: %s", r->what,
		      maelys_datalog_status_name(st),
		      maelys_datalog_status_name(r->status), diag.message);
	ck_assert_msg(strstr(diag.message, r->phrase) != NULL,
		      "%s: message \"%s\" lacks \"%s\"", r->what, diag.message,
		      r->phrase);
}
END_TEST

/* ------------------------------------------------------------------ */
/* eqrel                                                               */

START_TEST(test_qualifiers_eqrel_is_the_equivalence_closure)
{
	static const char src[] =
	    ".decl e(x:number, y:number) eqrel\n"
	    "e(1, 2). e(3, 1). e(6, 10). e(8, 10). e(10, 8).\n"
	    ".decl other(x:number, y:number)\n"
	    "other(X, Y) :- e(X, Y), X < Y.\n";
	struct dltest_prog p;
	maelys_datalog_result_t *res = run_souffle(&p, src);

	/* classes {1, 2, 3} and {6, 8, 10}: 9 + 9 pairs */
	ck_assert_uint_eq(count_of(res, "e", 2), 18);
	ck_assert_int_eq(dltest_query_ii(res, "e", 2, 3), 1);
	ck_assert_int_eq(dltest_query_ii(res, "e", 3, 3), 1);
	ck_assert_int_eq(dltest_query_ii(res, "e", 10, 6), 1);
	ck_assert_int_eq(dltest_query_ii(res, "e", 2, 6), 0);
	/* a rule reads the closure: 3 + 3 ordered pairs */
	ck_assert_uint_eq(count_of(res, "other", 2), 6);
	(void)maelys_datalog_result_free(res);
	dltest_prog_close(&p);
}
END_TEST

/* A class of n values is n * n tuples: the tuple budget bounds it. */
START_TEST(test_qualifiers_eqrel_closure_is_bounded_by_the_budget)
{
	char *src = malloc(64 * 1024);
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res = NULL;
	struct dltest_prog p;
	maelys_datalog_status_t st;
	size_t len, i;

	ck_assert_ptr_nonnull(src);
	len = (size_t)snprintf(src, 64 * 1024,
			       ".decl e(x:number, y:number) eqrel\n");
	for (i = 0; i < 300; i++)
		len += (size_t)snprintf(src + len, 64 * 1024 - len,
					"e(%zu, %zu).\n", i, i + 1);
	memset(&p, 0, sizeof p);
	p.policy = load_souffle(src);
	p.session = dltest_new_session(p.policy);
	ck_assert_status(maelys_datalog_session_set_budget(
			     p.session, MAELYS_DATALOG_BUDGET_TUPLES, 20000),
			 MAELYS_DATALOG_STATUS_OK);
	st = maelys_datalog_session_solve_edb(p.session, edb, &res, &diag);
	/* 301 * 301 = 90601 pairs, over the budget of 20000 */
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_BUDGET_TUPLES, "got %s: %s",
		      maelys_datalog_status_name(st), diag.message);
	ck_assert_ptr_null(res);
	dltest_prog_close(&p);
	(void)maelys_datalog_input_edb_free(edb);
	free(src);
}
END_TEST

/* ------------------------------------------------------------------ */
/* choice-domain                                                       */

START_TEST(test_qualifiers_choice_domain_keeps_the_first_per_key)
{
	static const char src[] =
	    ".decl c(x:number, y:number)\nc(2, 0). c(2, 5). c(3, 1). c(4, 1).\n"
	    ".decl b(x:number, y:number) choice-domain x\n"
	    "b(X, Y) :- c(X, Y).\n"
	    /* two keys: each x once and each y once */
	    ".decl m(x:number, y:number) choice-domain x, y\n"
	    "m(X, Y) :- c(X, Y).\n"
	    /* one key of both columns: only duplicates are dropped */
	    ".decl k(x:number, y:number) choice-domain (x, y), (y, x)\n"
	    "k(1, 2). k(1, 3). k(1, 2).\n";
	struct dltest_prog p;
	maelys_datalog_result_t *res = run_souffle(&p, src);

	ck_assert_uint_eq(count_of(res, "b", 2), 3);
	/* facts are evaluated in the order written: c(2, 0) comes first */
	ck_assert_int_eq(dltest_query_ii(res, "b", 2, 0), 1);
	ck_assert_int_eq(dltest_query_ii(res, "b", 2, 5), 0);
	ck_assert_int_eq(dltest_query_ii(res, "b", 3, 1), 1);
	/* m: (2, 0), then (3, 1); (4, 1) repeats y = 1 */
	ck_assert_uint_eq(count_of(res, "m", 2), 2);
	ck_assert_int_eq(dltest_query_ii(res, "m", 4, 1), 0);
	ck_assert_uint_eq(count_of(res, "k", 2), 2);
	(void)maelys_datalog_result_free(res);
	dltest_prog_close(&p);
}
END_TEST

/* In a recursive stratum the key holds across iterations: a list that
 * chooses one successor per element and one predecessor per element is a
 * chain through every element. */
START_TEST(test_qualifiers_choice_domain_in_recursion)
{
	static const char src[] =
	    ".decl domain(x:symbol)\n"
	    "domain(\"a\"). domain(\"b\"). domain(\"c\"). domain(\"d\").\n"
	    ".decl list(prev:symbol, data:symbol) choice-domain prev, data\n"
	    "list(\"nil\", \"head\").\n"
	    "list(X, Y) :- domain(Y), list(_, X).\n"
	    ".decl bad()\n"
	    "bad() :- list(P, X), list(P, Y), X != Y.\n"
	    "bad() :- list(A, X), list(B, X), A != B.\n"
	    "bad() :- domain(X), !list(X, _), !list(_, X).\n";
	struct dltest_prog p;
	maelys_datalog_result_t *res = run_souffle(&p, src);

	ck_assert_uint_eq(count_of(res, "list", 2), 5);
	ck_assert_uint_eq(count_of(res, "bad", 0), 0);
	(void)maelys_datalog_result_free(res);
	dltest_prog_close(&p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* .limitsize                                                          */

/* A limited relation takes no tuple once it holds N: a recursion that
 * adds one per iteration stops at N, facts past N are not inserted, N = 0
 * keeps it empty, and what reads it sees the N it holds. */
START_TEST(test_qualifiers_limitsize_stops_a_relation_at_n)
{
	static const char src[] =
	    ".decl a(x:number)\na(1).\na(x + 1) :- a(x), x < 1000.\n"
	    ".limitsize a(n=47)\n"
	    ".decl f(x:number)\nf(1). f(2). f(3).\n.limitsize f(n=2)\n"
	    ".decl z(x:number)\nz(X) :- a(X).\n.limitsize z(n=0)\n"
	    ".decl b(x:number)\nb(x) :- a(x).\n";
	struct dltest_prog p;
	maelys_datalog_result_t *res = run_souffle(&p, src);

	ck_assert_uint_eq(count_of(res, "a", 1), 47);
	ck_assert_int_eq(dltest_query_i(res, "a", 47), 1);
	ck_assert_int_eq(dltest_query_i(res, "a", 48), 0);
	ck_assert_uint_eq(count_of(res, "f", 1), 2);
	ck_assert_int_eq(dltest_query_i(res, "f", 3), 0);
	ck_assert_uint_eq(count_of(res, "z", 1), 0);
	ck_assert_uint_eq(count_of(res, "b", 1), 47);
	(void)maelys_datalog_result_free(res);
	dltest_prog_close(&p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Subsumption                                                         */

START_TEST(test_qualifiers_subsumption_removes_dominated_tuples)
{
	static const char src[] =
	    ".decl b(x:number)\nb(6). b(7). b(3).\n"
	    ".decl e(x:number)\ne(X) :- b(X).\n"
	    "e(X1) <= e(X2) :- X1 < X2.\n"
	    /* the body reads the relation itself: what was derived */
	    ".decl r(s:number)\nr(1).\n"
	    ".decl m(s:number)\nm(1). m(2). m(3).\n"
	    "m(X) <= m(Y) :- !r(X), m(Y), Y < X.\n"
	    /* per key, the lowest cost stays; a tuple never dominates
	     * itself, so equal costs both stay */
	    ".decl cost(k:symbol, c:number)\n"
	    "cost(\"a\", 5). cost(\"a\", 2). cost(\"b\", 4). cost(\"c\", 1).\n"
	    "cost(\"c\", 1).\n"
	    "cost(K, C1) <= cost(K, C2) :- C2 <= C1.\n"
	    /* a reader sees the relation once pruned */
	    ".decl seen(x:number)\nseen(X) :- e(X).\n";
	struct dltest_prog p;
	maelys_datalog_result_t *res = run_souffle(&p, src);
	const maelys_datalog_arg_t a2[2] = {maelys_datalog_arg_symbol("a"),
					    maelys_datalog_arg_integer(2)};

	ck_assert_uint_eq(set_of(res, "e"), 1u << 7);
	ck_assert_uint_eq(set_of(res, "seen"), 1u << 7);
	/* m(2) and m(3) are dominated by m(1); m(1) is in r */
	ck_assert_uint_eq(set_of(res, "m"), 1u << 1);
	ck_assert_uint_eq(count_of(res, "cost", 2), 3);
	ck_assert_int_eq(dltest_query_args(res, "cost", a2, 2), 1);
	(void)maelys_datalog_result_free(res);
	dltest_prog_close(&p);
}
END_TEST

/* A recursive relation is pruned between iterations, as Souffle prunes
 * it: a longer path is dropped as soon as a shorter one is known, so the
 * loop 2 -> 2, which would lengthen paths without end, stops; and 1 -> 4
 * keeps cost 3 (through 2 and 3), not the edge's 100. */
START_TEST(test_qualifiers_subsumption_prunes_a_recursion)
{
	static const char src[] =
	    ".decl e(x:number, y:number, c:number)\n"
	    "e(1, 2, 1). e(2, 2, 1). e(2, 3, 1). e(3, 4, 1). e(1, 4, 100).\n"
	    ".decl sp(x:number, y:number, c:number)\n"
	    "sp(X, Y, C1) <= sp(X, Y, C2) :- C2 <= C1.\n"
	    "sp(X, Y, C) :- e(X, Y, C).\n"
	    "sp(X, Z, C1 + C2) :- sp(X, Y, C1), e(Y, Z, C2).\n"
	    /* a reader in a later stratum sees the pruned relation */
	    ".decl far(x:number, y:number)\n"
	    "far(X, Y) :- sp(X, Y, C), C > 1.\n";
	struct dltest_prog p;
	maelys_datalog_result_t *res = run_souffle(&p, src);

	dltest_assert_rows(res, "sp", 3,
			   "#1,#2,#1 #1,#3,#2 #1,#4,#3 #2,#2,#1 #2,#3,#1 "
			   "#2,#4,#2 #3,#4,#1");
	dltest_assert_rows(res, "far", 2, "#1,#3 #1,#4 #2,#4");
	(void)maelys_datalog_result_free(res);
	dltest_prog_close(&p);
}
END_TEST

/* Intervals merged until none overlaps (semantic/interval of Souffle's
 * suite): the facts are pruned before the first iteration ([1, 1] and
 * [2, 2] lie in [1, 10]; the second subsumption drops [200, 300]), the
 * merge [1, 130] then dominates both that are left. */
START_TEST(test_qualifiers_subsumption_merges_intervals)
{
	static const char src[] =
	    ".decl R(lb:number, ub:number)\n"
	    "R(1, 10). R(1, 1). R(2, 2). R(2, 130). R(200, 300).\n"
	    "R(L1, U1) <= R(L2, U2) :- L2 <= L1, U1 <= U2.\n"
	    "R(L1, U1) <= R(L2, U2) :- L1 >= 200, L2 < 200.\n"
	    "R(min(L1, L2), max(U1, U2)) :- R(L1, U1), R(L2, U2), L2 < U1,\n"
	    "  L1 < U2.\n";
	struct dltest_prog p;
	maelys_datalog_result_t *res = run_souffle(&p, src);

	dltest_assert_rows(res, "R", 2, "#1,#130");
	(void)maelys_datalog_result_free(res);
	dltest_prog_close(&p);
}
END_TEST

/* A subsumption whose body reads a relation of the recursion
 * (semantic/subsumption_multiple_rules of Souffle's suite): eql is the
 * equivalence that rel's values reach, rel(1, 2) is dominated by rel(1, 3)
 * once eql(1, 1) is known - an iteration after the fixpoint starts, found
 * with eql(1, 1) in eql's delta.  A tuple does not dominate itself, though
 * the body holds of (1, 3) and (1, 3). */
START_TEST(test_qualifiers_subsumption_body_reads_the_recursion)
{
	static const char src[] =
	    ".decl eql(a:number, b:number)\n"
	    ".decl rel(a:number, b:number)\n"
	    "eql(x, x) :- eql(x, _) ; eql(_, x).\n"
	    "eql(x, y) :- eql(y, x).\n"
	    "eql(x, z) :- eql(x, y), eql(y, z).\n"
	    "rel(1, 2). rel(1, 3).\n"
	    "eql(x, x) :- rel(x, _).\n"
	    "eql(2, 3).\n"
	    "rel(a, b) <= rel(c, d) :- eql(a, c), eql(b, d), a <= c, b <= d.\n";
	struct dltest_prog p;
	maelys_datalog_result_t *res = run_souffle(&p, src);

	dltest_assert_rows(res, "rel", 2, "#1,#3");
	dltest_assert_rows(res, "eql", 2, "#1,#1 #2,#2 #2,#3 #3,#2 #3,#3");
	(void)maelys_datalog_result_free(res);
	dltest_prog_close(&p);
}
END_TEST

/* Over input facts the pruned relation and its hidden one are the solve's
 * own: two solves of one session, with other facts, do not meet. */
START_TEST(test_qualifiers_subsumption_in_recursion_per_solve)
{
	static const char src[] =
	    ".decl e(x:number, y:number, c:number)\n.input e\n"
	    ".decl sp(x:number, y:number, c:number)\n"
	    "sp(X, Y, C1) <= sp(X, Y, C2) :- C2 <= C1.\n"
	    "sp(X, Y, C) :- e(X, Y, C).\n"
	    "sp(X, Z, C1 + C2) :- sp(X, Y, C1), e(Y, Z, C2).\n";
	static const int64_t edges[2][3][3] = {
	    {{1, 2, 5}, {2, 3, 1}, {1, 3, 9}},
	    {{1, 2, 1}, {2, 1, 1}, {1, 3, 2}},
	};
	static const char *const want[2] = {
	    "#1,#2,#5 #1,#3,#6 #2,#3,#1",
	    "#1,#1,#2 #1,#2,#1 #1,#3,#2 #2,#1,#1 #2,#2,#2 #2,#3,#3",
	};
	maelys_datalog_policy_t *policy = load_souffle(src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	int round, k;

	for (round = 0; round < 4; round++) {
		maelys_datalog_input_edb_t *edb = dltest_new_edb();
		maelys_datalog_result_t *res;

		for (k = 0; k < 3; k++) {
			maelys_datalog_arg_t a[3];
			int c;

			for (c = 0; c < 3; c++)
				a[c] = maelys_datalog_arg_integer(
				    edges[round % 2][k][c]);
			dltest_add_args(edb, "e", a, 3);
		}
		res = dltest_solve(session, edb);
		dltest_assert_rows(res, "sp", 3, want[round % 2]);
		(void)maelys_datalog_result_free(res);
		(void)maelys_datalog_input_edb_free(edb);
	}
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* Pruning renumbers a relation's rows, which a PROVENANCE session's
 * records point at: refused there, with the relation named. */
START_TEST(test_qualifiers_subsumption_in_recursion_needs_no_provenance)
{
	static const char src[] =
	    ".decl e(x:number, y:number)\ne(1, 2). e(2, 3).\n"
	    ".decl d(x:number, c:number)\nd(1, 0).\n"
	    "d(Y, C + 1) :- d(X, C), e(X, Y).\n"
	    "d(X, C1) <= d(X, C2) :- C2 < C1.\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = load_souffle(src);
	maelys_datalog_session_t *session =
	    dltest_new_session_flags(policy, MAELYS_DATALOG_SESSION_PROVENANCE);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res = NULL;
	maelys_datalog_status_t st;

	st = maelys_datalog_session_solve_edb(session, edb, &res, &diag);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_LIMIT);
	ck_assert_ptr_null(res);
	ck_assert_msg(strstr(diag.message, "'d'") != NULL &&
			  strstr(diag.message, "PROVENANCE") != NULL,
		      "%s", diag.message);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Qualifiers that only tune a plan, and .plan                         */

START_TEST(test_qualifiers_plan_qualifiers_are_evaluated_and_noted)
{
	static const char src[] =
	    ".decl a(x:number) brie\na(3). a(4).\n"
	    ".decl b(x:number) inline\nb(1). b(2). b(3). b(4). b(5).\n"
	    ".decl n(x:number) inline no_inline magic\nn(X) :- a(X).\n"
	    ".decl c(x:number) btree no_magic\n"
	    "c(X) :- b(X), !a(X), !n(0).\n"
	    "c(X) :- a(X), b(X), n(X). .plan 0:(3,2,1)\n";
	struct dltest_prog p;
	maelys_datalog_result_t *res = run_souffle(&p, src);
	maelys_datalog_diagnostic_t w = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_warning_kind_t kind;
	size_t i, n, ignored = 0;
	bool plan_noted = false;

	ck_assert_uint_eq(set_of(res, "c"), 0x3eu); /* 1..5 */
	n = maelys_datalog_policy_warning_count(p.policy);
	for (i = 0; i < n; i++) {
		ck_assert_status(maelys_datalog_policy_get_warning(
				     p.policy, i, &kind, &w),
				 MAELYS_DATALOG_STATUS_OK);
		if (kind != MAELYS_DATALOG_WARNING_IGNORED)
			continue;
		ignored++;
		if (strstr(w.message, "\"plan\"") != NULL)
			plan_noted = true;
	}
	/* brie, inline, inline no_inline magic, btree no_magic, .plan */
	ck_assert_uint_eq(ignored, 8);
	ck_assert(plan_noted);
	(void)maelys_datalog_result_free(res);
	dltest_prog_close(&p);
}
END_TEST

/* An inlined relation is unfolded into its uses, not computed whole:
 * every pair of 2001 numbers would be 4 million tuples, over the budget,
 * where the use wants x = y only.  Facts of an inlined relation unify with
 * the terms of the use (x + x + x + x against 8, x + 1 against 3). */
START_TEST(test_qualifiers_inline_is_unfolded_into_its_uses)
{
	static const char src[] =
	    ".decl nat(x:number)\nnat(0).\nnat(X + 1) :- X < 2000, nat(X).\n"
	    ".decl pair(x:number, y:number) inline\n"
	    "pair(X, Y) :- nat(X), nat(Y).\n"
	    ".decl q(x:number)\nq(X) :- pair(X, X), X < 2.\n"
	    ".decl b(x:number, y:number) inline\nb(8, 3). b(1, 2).\n"
	    ".decl c(x:number)\nc(X) :- nat(X), X < 5, b(X + X + X + X, X + 1).\n"
	    ".decl n(x:number)\nn(X) :- nat(X), X < 3, !b(X, 2).\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res = NULL;
	struct dltest_prog p;
	maelys_datalog_status_t st;

	memset(&p, 0, sizeof p);
	p.policy = load_souffle(src);
	p.session = dltest_new_session(p.policy);
	ck_assert_status(maelys_datalog_session_set_budget(
			     p.session, MAELYS_DATALOG_BUDGET_TUPLES, 100000),
			 MAELYS_DATALOG_STATUS_OK);
	st = maelys_datalog_session_solve_edb(p.session, edb, &res, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "got %s: %s",
		      maelys_datalog_status_name(st), diag.message);
	ck_assert_uint_eq(set_of(res, "q"), (1u << 0) | (1u << 1));
	ck_assert_uint_eq(set_of(res, "c"), 1u << 2);
	/* a negated use is evaluated as written: b(1, 2) holds */
	ck_assert_uint_eq(set_of(res, "n"), (1u << 0) | (1u << 2));
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("qualifiers");
	int nref = (int)(sizeof refusals / sizeof *refusals);

	tcase_add_test(tc,
		       test_qualifiers_disjunction_is_the_union_of_its_branches);
	tcase_add_test(tc,
		       test_qualifiers_parenthesised_comparison_is_not_a_group);
	tcase_add_test(tc, test_qualifiers_several_heads_each_get_the_body);
	tcase_add_loop_test(tc, test_qualifiers_refusals_name_the_construct, 0,
			    nref);
	tcase_add_test(tc, test_qualifiers_eqrel_is_the_equivalence_closure);
	tcase_add_test(tc,
		       test_qualifiers_eqrel_closure_is_bounded_by_the_budget);
	tcase_add_test(tc,
		       test_qualifiers_choice_domain_keeps_the_first_per_key);
	tcase_add_test(tc, test_qualifiers_choice_domain_in_recursion);
	tcase_add_test(tc, test_qualifiers_limitsize_stops_a_relation_at_n);
	tcase_add_test(tc,
		       test_qualifiers_subsumption_removes_dominated_tuples);
	tcase_add_test(tc, test_qualifiers_subsumption_prunes_a_recursion);
	tcase_add_test(tc, test_qualifiers_subsumption_merges_intervals);
	tcase_add_test(tc, test_qualifiers_subsumption_in_recursion_per_solve);
	tcase_add_test(tc,
		       test_qualifiers_subsumption_body_reads_the_recursion);
	tcase_add_test(
	    tc, test_qualifiers_subsumption_in_recursion_needs_no_provenance);
	tcase_add_test(tc,
		       test_qualifiers_plan_qualifiers_are_evaluated_and_noted);
	tcase_add_test(tc, test_qualifiers_inline_is_unfolded_into_its_uses);
	suite_add_tcase(s, tc);
	return s;
}
