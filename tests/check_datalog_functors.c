/* SPDX-License-Identifier: MIT */
/*
 * Souffle's string and intrinsic functors, in both dialects: what each
 * computes (expected values worked out by hand from Souffle's semantics and
 * its tests' expected outputs, written as literals here), range as a
 * generator with Souffle's rules for direction and step 0, autoinc's
 * distinct values and its refusal in a recursive rule, match with a pattern
 * computed at evaluation and a pattern Souffle refuses, and every bad
 * argument as a clear status: at load (a type, an arity) or at evaluation
 * (to_number of a word, a string over the length limit or the memory
 * budget, a range over the steps budget).
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

#define SOURCE "functors.dl"

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

/* Solves src in Souffle's syntax (no input facts) and asserts the rows of
 * unary pred, as dltest_rows_text writes them. */
static void
expect_souffle_rows(const char *src, const char *pred, const char *want)
{
	struct dltest_prog p;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, true);
	p.session = dltest_new_session(p.policy);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, pred, 1, want);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}

/* Loading src fails with `want`, the message naming `what`. */
static void
load_expect_error(const char *src, bool souffle, maelys_datalog_status_t want,
		  const char *what)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st;

	st = maelys_datalog_policy_load_text(
	    NULL, SOURCE, src, strlen(src),
	    souffle ? MAELYS_DATALOG_LOAD_SOUFFLE : 0u, &policy, &diag);
	ck_assert_msg(st == want, "%s: got %s (%s), want %s", src,
		      maelys_datalog_status_name(st), diag.message,
		      maelys_datalog_status_name(want));
	ck_assert_ptr_null(policy);
	ck_assert_msg(strstr(diag.message, what) != NULL,
		      "message \"%s\" lacks \"%s\"", diag.message, what);
}

/* One term over the inputs S (a string) and N (a number), and the one row
 * out(term) holds for them, as dltest_rows_text writes it. */
struct functor_case {
	const char *term;
	const char *s;
	int64_t n;
	const char *want;
};

static const struct functor_case functor_cases[] = {
    {"cat(S, \"-\", to_string(N))", "ab", 7, "ab-7"},
    {"cat(S)", "ab", 0, "ab"},
    {"cat(S, S, S)", "xy", 0, "xyxyxy"},
    {"strlen(S)", "h\xc3\xa9llo", 0, "#6"}, /* bytes, as Souffle */
    {"strlen(S)", "", 0, "#0"},
    {"strlen(cat(S, S))", "abc", 0, "#6"},
    {"substr(S, 1, 3)", "abcdef", 0, "bcd"},
    {"substr(S, 4, 10)", "abcdef", 0, "ef"},   /* cut at the end */
    {"substr(S, 2, -1)", "abcdef", 0, "cdef"}, /* to the end */
    {"substr(S, 0, 0)", "abcdef", 0, ""},
    {"substr(S, 6, 1)", "abcdef", 0, ""},
    {"substr(S, 7, 1)", "abcdef", 0, ""},  /* past the end: "" */
    {"substr(S, -1, 2)", "abcdef", 0, ""}, /* negative: "" */
    {"substr(S, N, N)", "abcdef", 2, "cd"},
    {"to_number(S)", "-42", 0, "#-42"},
    {"to_number(S)", "+17", 0, "#17"},
    {"to_number(S)", "9223372036854775807", 0, "#9223372036854775807"},
    {"to_number(S) + N", "40", 2, "#42"},
    {"to_number(S)", "0xcafe", 0, "#51966"}, /* Souffle's semantic/strconv */
    {"to_number(S)", "-0xBEEF", 0, "#-48879"},
    {"to_number(S)", "-0b100", 0, "#-4"},
    {"to_string(N)", "", -5, "-5"},
    {"to_string(N * 1000000000000)", "", 3, "3000000000000"},
    {"max(N, 3, N * 2)", "", 5, "#10"},
    {"min(N, 3)", "", 5, "#3"},
    {"min(N, 3)", "", -9, "#-9"},
    {"max(N - 8, 0)", "", 5, "#0"},
    {"min(S, \"b\")", "abc", 0, "abc"},
    {"max(S, \"b\")", "abc", 0, "b"},
    {"max(S, \"ab\", \"abd\")", "abc", 0, "abd"},
    {"to_string(max(strlen(S), N))", "abc", 2, "3"},
    {"as(S, symbol)", "abc", 0, "abc"},
    {"as(N, number) + 1", "", 1, "#2"},
    {"ord(N + 1)", "", 41, "#42"}, /* of a number, the number */
};

/* out(term) :- in(S, N), in each dialect. */
START_TEST(test_functors_compute_souffles_values)
{
	const struct functor_case *c = &functor_cases[_i / 2];
	bool souffle = _i % 2 == 0;
	char src[512];
	struct dltest_prog p;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	maelys_datalog_arg_t args[2];
	char want[128];

	snprintf(src, sizeof src,
		 souffle ? ".decl in(s:symbol, n:number)\n.input in\n"
			   ".decl out(x:%s)\nout(%s) :- in(S, N).\n"
			 : ".decl in(s, n)\n.input in\n"
			   ".decl out(x)\nout(%s) :- in(S, N).\n",
		 souffle ? (c->want[0] == '#' ? "number" : "symbol") : c->term,
		 c->term);
	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, souffle);
	p.session = dltest_new_session(p.policy);
	args[0] = maelys_datalog_arg_symbol(c->s);
	args[1] = maelys_datalog_arg_integer(c->n);
	dltest_add_args(edb, "in", args, 2);
	res = dltest_prog_solve(&p, edb);
	snprintf(want, sizeof want, "%s", c->want);
	dltest_assert_rows(res, "out", 1, want);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* Functors as terms of comparisons, of body atoms and of built-ins. */
START_TEST(test_functors_in_comparisons_atoms_and_builtins)
{
	static const char *const src[2] = {
	    ".decl w(s:symbol)\n.input w\n"
	    ".decl long(s:symbol)\n.decl joined(a:symbol, b:symbol)\n"
	    ".decl has(s:symbol)\n.decl first(s:symbol, c:symbol)\n"
	    "long(S) :- w(S), strlen(S) > 3.\n"
	    "joined(A, B) :- w(A), w(B), w(cat(A, B)).\n"
	    "has(S) :- w(S), contains(\"an\", cat(S, \"n\")).\n"
	    "first(S, C) :- w(S), C = substr(S, 0, 1), C != \"b\".\n",
	    ".decl w(s)\n.input w\n"
	    ".decl long(s)\n.decl joined(a, b)\n.decl has(s)\n"
	    ".decl first(s, c)\n"
	    "long(S) :- w(S), strlen(S) > 3.\n"
	    "joined(A, B) :- w(A), w(B), w(cat(A, B)).\n"
	    "has(S) :- w(S), contains(cat(S, \"n\"), \"an\").\n"
	    "first(S, C) :- w(S), C = substr(S, 0, 1), C != \"b\".\n",
	};
	static const char *const words[] = {"ban", "ana", "banana", "a"};
	struct dltest_prog p;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	size_t i;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src[_i], _i == 0);
	p.session = dltest_new_session(p.policy);
	for (i = 0; i < sizeof words / sizeof *words; i++)
		dltest_add_s(edb, "w", words[i]);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "long", 1, "banana");
	/* ban+ana is banana; ana+... and the others are not words */
	dltest_assert_rows(res, "joined", 2, "ban,ana");
	/* "a"+"n" = "an"; "ana"+"n" = "anan"; "ban"+"n"; "banana"+"n" */
	dltest_assert_rows(res, "has", 1, "a ana ban banana");
	dltest_assert_rows(res, "first", 2, "a,a ana,a");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* A functor's string is typed as a string constant: it goes into a column
 * of a subtype of symbol whatever the types of what it reads, as Souffle's
 * example nfsa2fsa cats a Letter onto a String. */
START_TEST(test_functors_string_goes_into_a_subtype_column)
{
	static const char src[] =
	    ".type Letter <: symbol\n.type String <: symbol\n"
	    ".decl letter(c:Letter)\nletter(\"a\"). letter(\"b\").\n"
	    ".decl plain(s:symbol)\nplain(\"x\").\n"
	    ".decl word(s:String)\nword(\"\").\n"
	    "word(cat(c, w)) :- letter(c), word(w), strlen(w) < 2.\n"
	    "word(cat(s, \"!\")) :- plain(s).\n";
	expect_souffle_rows(src, "word", " a aa ab b ba bb x!");
}
END_TEST

/* Souffle's `+` of two symbols joins them, as cat does (its syntax only);
 * a symbol added to a number stays a type error. */
START_TEST(test_functors_souffle_plus_of_symbols_is_cat)
{
	static const char src[] =
	    ".decl s(x:symbol)\ns(\"(a)\"). s(\"(b)\").\n"
	    ".decl add(x:symbol)\n"
	    "add(\"pre-\" + \"-post\").\n"
	    "add(x + \"-\" + y) :- s(x), s(y), x != y.\n"
	    "add(\"n:\" + to_string(1 + 2)).\n"
	    ".decl n(x:number)\nn(1 + 2).\n";

	expect_souffle_rows(src, "add", "(a)-(b) (b)-(a) n:3 pre--post");
	expect_souffle_rows(src, "n", "#3");
	load_expect_error(".decl s(x:symbol)\ns(\"a\").\n.decl t(x:symbol)\n"
			  "t(x + 1) :- s(x).\n",
			  true, MAELYS_DATALOG_STATUS_TYPE,
			  "used in the arithmetic term x + 1");
}
END_TEST

/* range(from, to[, step]): Souffle's semantic/range test's cases. */
static const struct {
	const char *args;
	const char *want;
} range_cases[] = {
    {"5, 1, -1", "#2 #3 #4 #5"},
    {"5, 1", "#2 #3 #4 #5"}, /* the default step goes toward `to` */
    {"1, 5", "#1 #2 #3 #4"},
    {"5, 1, 0", "#5"}, /* step 0: `from` once */
    {"1, 5, 0", "#1"},
    {"5, 5", ""}, /* empty, whatever the step */
    {"5, 5, 0", ""},
    {"5, 5, -1", ""},
    {"1, 5, 2", "#1 #3"},
    {"9, 0, 1", ""}, /* a step away from `to`: empty */
    {"0, 10, 4", "#0 #4 #8"},
    {"-2, 2", "#-1 #-2 #0 #1"},
    {"9223372036854775806, 9223372036854775807, 5",
     "#9223372036854775806"}, /* no overflow past the end */
};

START_TEST(test_functors_range_generates_values)
{
	char src[256];

	snprintf(src, sizeof src, ".decl g(x:number)\ng(X) :- X = range(%s).\n",
		 range_cases[_i].args);
	expect_souffle_rows(src, "g", range_cases[_i].want);
}
END_TEST

/* range of unsigned values and of floats, Souffle's semantic/range cases
 * and the edges: values printed with to_string (a float as "%f"). */
static const struct {
	const char *type, *args, *want;
} typed_range_cases[] = {
    {"float", "5.0, 3.75, -0.5", "4.000000 4.500000 5.000000"},
    {"float", "5.0, 3.75", "4.000000 5.000000"}, /* default step -1.0 */
    {"float", "3.75, 5.0", "3.750000 4.750000"},
    {"float", "5.0, 3.75, 0.0", "5.000000"}, /* step 0: `from` once */
    {"float", "5.0, 5.0, 0.5", ""},
    {"float", "5.0, 5.0, 0.0", ""},
    {"float", "0.0, 1.0, -0.5", ""}, /* a step away from `to` */
    {"unsigned", "1, 5, 2", "1 3"},
    {"unsigned", "5, 1", "2 3 4 5"}, /* down by the step, from 5 */
    {"unsigned", "5, 1, 2", "3 5"},
    {"unsigned", "1, 5, 0", "1"},
    {"unsigned", "5, 5", ""},
    {"unsigned", "18446744073709551610u, 18446744073709551615u, 4u",
     "18446744073709551610 18446744073709551614"}, /* no wrap past 2^64 */
    {"unsigned", "3, 0, 2", "1 3"}, /* no wrap below 0 */
};

START_TEST(test_functors_range_of_unsigned_and_floats)
{
	char src[256];

	snprintf(src, sizeof src,
		 ".decl v(x:%s)\nv(X) :- X = range(%s).\n"
		 ".decl g(s:symbol)\ng(to_string(X)) :- v(X).\n",
		 typed_range_cases[_i].type, typed_range_cases[_i].args);
	expect_souffle_rows(src, "g", typed_range_cases[_i].want);
}
END_TEST

/* Two ranges make a product; a bound range is a test; the arguments come
 * from the body. */
START_TEST(test_functors_range_joins_and_tests)
{
	static const char src[] =
	    ".decl n(x:number)\n.input n\n"
	    ".decl pair(x:number, y:number)\n.decl in(x:number)\n"
	    ".decl upto(x:number, y:number)\n"
	    "pair(X, Y) :- X = range(0, 2), Y = range(0, 2).\n"
	    "in(X) :- n(X), X = range(0, 10, 3).\n"
	    "upto(N, X) :- n(N), X = range(0, N).\n";
	struct dltest_prog p;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, true);
	p.session = dltest_new_session(p.policy);
	dltest_add_i(edb, "n", 2);
	dltest_add_i(edb, "n", 3);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "pair", 2, "#0,#0 #0,#1 #1,#0 #1,#1");
	dltest_assert_rows(res, "in", 1, "#3");
	dltest_assert_rows(res, "upto", 2, "#2,#0 #2,#1 #3,#0 #3,#1 #3,#2");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* A range of a billion values meets the steps budget. */
START_TEST(test_functors_range_stops_at_the_steps_budget)
{
	static const char src[] =
	    ".decl g(x:number)\ng(X) :- X = range(0, 1000000000).\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res = NULL;
	struct dltest_prog p;
	maelys_datalog_status_t st;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, true);
	p.session = dltest_new_session(p.policy);
	ck_assert_status(maelys_datalog_session_set_budget(
			     p.session, MAELYS_DATALOG_BUDGET_STEPS, 10000),
			 MAELYS_DATALOG_STATUS_OK);
	st = maelys_datalog_session_solve_edb(p.session, edb, &res, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_BUDGET_STEPS, "got %s: %s",
		      maelys_datalog_status_name(st), diag.message);
	ck_assert_ptr_null(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* autoinc(): one value per binding that reaches the head, all distinct,
 * from 0; a rule of the head's own stratum cannot call it. */
START_TEST(test_functors_autoinc_counts_and_is_refused_in_recursion)
{
	static const char src[] = ".decl w(s:symbol)\n.input w\n"
				  ".decl id(i:number, s:symbol)\n"
				  "id(autoinc(), S) :- w(S).\n";
	struct dltest_prog p;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	char *got;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, true);
	p.session = dltest_new_session(p.policy);
	dltest_add_s(edb, "w", "x");
	dltest_add_s(edb, "w", "y");
	dltest_add_s(edb, "w", "z");
	res = dltest_prog_solve(&p, edb);
	/* which word draws which number is the evaluation's order */
	ck_assert_uint_eq(dltest_count(res, "id", 2), 3);
	got = dltest_rows_text(res, "id", 2);
	ck_assert_msg(strstr(got, "#0,") != NULL && strstr(got, "#1,") &&
			  strstr(got, "#2,") != NULL,
		      "id: %s", got);
	free(got);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
	load_expect_error(".decl a(x:number)\na(1).\n"
			  "a(autoinc()) :- a(1).\n",
			  true, MAELYS_DATALOG_STATUS_UNSAFE,
			  "autoinc() in a recursive rule of 'a'");
}
END_TEST

/* Souffle's match with a pattern computed at evaluation, and a pattern
 * Souffle's regular expressions refuse: match and !match both fail (its
 * evaluation/bad_regex). */
START_TEST(test_functors_match_with_a_computed_pattern)
{
	static const char src[] =
	    ".decl pat(p:symbol)\n.input pat\n.decl w(s:symbol)\n.input w\n"
	    ".decl hit(p:symbol, s:symbol)\n.decl bad(s:symbol)\n"
	    ".decl notbad(s:symbol)\n.decl sub(s:symbol)\n"
	    "hit(P, S) :- pat(P), w(S), match(P, S).\n"
	    "bad(S) :- w(S), match(\"fo{x}b.*\", S).\n"
	    "notbad(S) :- w(S), !match(\"fo{x}b.*\", S).\n"
	    "sub(S) :- w(S), match(cat(substr(S, 0, 1), \".*r\"), S).\n";
	struct dltest_prog p;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, true);
	p.session = dltest_new_session(p.policy);
	dltest_add_s(edb, "pat", "fo+bar");
	dltest_add_s(edb, "pat", "b.*");
	dltest_add_s(edb, "pat", "a{x}"); /* std::regex refuses it */
	dltest_add_s(edb, "pat", "(");    /* both refuse it */
	dltest_add_s(edb, "w", "foobar");
	dltest_add_s(edb, "w", "bar");
	dltest_add_s(edb, "w", "a{x}");
	dltest_add_s(edb, "w", "fo{x}bar");
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "hit", 2, "b.*,bar fo+bar,foobar");
	dltest_assert_rows(res, "bad", 1, "");
	dltest_assert_rows(res, "notbad", 1, "");
	dltest_assert_rows(res, "sub", 1, "bar foobar fo{x}bar");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
	/* ours keeps a pattern compiled at load */
	load_expect_error(".decl w(s)\n.decl p(s)\n"
			  "p(S) :- w(S), re_match(S, cat(S, \"x\")).\n",
			  false, MAELYS_DATALOG_STATUS_PARSE,
			  "must be a string constant");
}
END_TEST

/* The native dialect's built-ins are unchanged, and a predicate named as a
 * functor is still an atom there. */
START_TEST(test_functors_native_builtins_and_predicates_named_max)
{
	static const char src[] =
	    ".decl w(s)\n.input w\n.decl max(s)\n.input max\n"
	    ".decl top(s)\n.decl pre(s)\n.decl tall(s)\n"
	    "top(S) :- w(S), max(S).\n"
	    "pre(S) :- w(S), prefix(S, \"ba\"), suffix(S, \"na\"), "
	    "re_match(S, \"n.n\"), contains(S, \"nan\").\n"
	    "tall(S) :- w(S), max(strlen(S), 4) > 4.\n";
	struct dltest_prog p;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, false);
	p.session = dltest_new_session(p.policy);
	dltest_add_s(edb, "w", "banana");
	dltest_add_s(edb, "w", "bar");
	dltest_add_s(edb, "max", "bar");
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "top", 1, "bar");
	dltest_assert_rows(res, "pre", 1, "banana");
	dltest_assert_rows(res, "tall", 1, "banana");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* What the checker refuses, with its status and a sentence naming it. */
static const struct {
	const char *src;
	maelys_datalog_status_t want;
	const char *what;
} load_error_cases[] = {
    {".decl a(s:symbol)\n.decl b(n:number)\nb(strlen(N)) :- b(N).\n",
     MAELYS_DATALOG_STATUS_TYPE, "variable N is a number"},
    {".decl a(s:symbol)\n.decl b(n:number)\nb(X) :- a(S), X = cat(1, S).\n",
     MAELYS_DATALOG_STATUS_TYPE, "a number where a string is expected"},
    {".decl a(s:symbol)\n.decl b(n:number)\nb(cat(S, S)) :- a(S).\n",
     MAELYS_DATALOG_STATUS_TYPE, "is a string, but column 1 of 'b'"},
    {".decl a(s:symbol)\n.decl b(n:number)\nb(X) :- a(S), X = substr(S, 1).\n",
     MAELYS_DATALOG_STATUS_ARITY, "functor substr takes 3 arguments, not 2"},
    {".decl a(s:symbol)\n.decl b(n:number)\nb(X) :- a(S), X = autoinc(S).\n",
     MAELYS_DATALOG_STATUS_ARITY, "functor autoinc takes 0 arguments"},
    {".decl b(n:number)\nb(X) :- X = range(0, 3) + 1.\n",
     MAELYS_DATALOG_STATUS_TYPE, "range is a generator"},
    {".decl b(n:number)\nb(X) :- X = range(0, Y).\n",
     MAELYS_DATALOG_STATUS_UNSAFE, "variable Y"},
    {".decl a(s:symbol)\n.decl b(n:number)\nb(X) :- a(S), X = S + strlen(S).\n",
     MAELYS_DATALOG_STATUS_TYPE, "variable S is a symbol"},
    {".decl a(s:symbol)\n.decl b(n:number)\nb(X) :- a(S), X = as(S, T).\n",
     MAELYS_DATALOG_STATUS_PARSE, "unknown type 'T'"},
};

START_TEST(test_functors_ill_formed_calls_are_refused_at_load)
{
	load_expect_error(load_error_cases[_i].src, true,
			  load_error_cases[_i].want, load_error_cases[_i].what);
}
END_TEST

/* Solves src over w(s) = word and expects `want` naming `what`. */
static void
solve_expect_error(const char *src, const char *word, uint64_t memory,
		   maelys_datalog_status_t want, const char *what)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res = NULL;
	struct dltest_prog p;
	maelys_datalog_status_t st;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, true);
	p.session = dltest_new_session(p.policy);
	if (memory != 0)
		ck_assert_status(
		    maelys_datalog_session_set_budget(
			p.session, MAELYS_DATALOG_BUDGET_MEMORY, memory),
		    MAELYS_DATALOG_STATUS_OK);
	dltest_add_s(edb, "w", word);
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

START_TEST(test_functors_bad_arguments_are_clear_errors)
{
	static const char num[] =
	    ".decl w(s:symbol)\n.input w\n"
	    ".decl n(x:number)\nn(to_number(S)) :- w(S).\n";
	static const char twice[] = ".decl w(s:symbol)\n.input w\n"
				    ".decl d(s:symbol)\n"
				    "d(cat(S, S)) :- w(S).\n";
	static const char grow[] =
	    ".decl w(s:symbol)\n.input w\n.decl g(i:number, s:symbol)\n"
	    "g(0, S) :- w(S).\n"
	    "g(I + 1, cat(S, to_string(I))) :- g(I, S), I < 100000.\n";
	char *big = malloc(40001);

	ck_assert_ptr_nonnull(big);
	memset(big, 'a', 40000);
	big[40000] = '\0';
	solve_expect_error(num, "12x", 0, MAELYS_DATALOG_STATUS_ARITHMETIC,
			   "to_number of a string that is not a number");
	solve_expect_error(num, "", 0, MAELYS_DATALOG_STATUS_ARITHMETIC,
			   "to_number");
	solve_expect_error(num, "9223372036854775808", 0,
			   MAELYS_DATALOG_STATUS_ARITHMETIC, "to_number");
	solve_expect_error(num, "0x", 0, MAELYS_DATALOG_STATUS_ARITHMETIC,
			   "to_number");
	solve_expect_error(num, "0b102", 0, MAELYS_DATALOG_STATUS_ARITHMETIC,
			   "to_number");
	/* 80,000 bytes: over the symbol length limit */
	solve_expect_error(twice, big, 0, MAELYS_DATALOG_STATUS_LIMIT,
			   "longer than the limit of 65535 bytes");
	/* ever longer strings: the memory budget stops them */
	solve_expect_error(grow, "seed", 1u << 20,
			   MAELYS_DATALOG_STATUS_BUDGET_MEMORY,
			   "MAELYS_DATALOG_BUDGET_MEMORY");
	/* a float range whose step is lost in its values would never end
	 * (Souffle loops): an error, not a silent stop */
	solve_expect_error(".decl w(s:symbol)\n.input w\n.decl f(x:float)\n"
			   "f(x) :- w(_), x = range(1.0e300, 2.0e300, 1.0).\n",
			   "x", 0, MAELYS_DATALOG_STATUS_ARITHMETIC,
			   "would never end");
	/* a float range of 10^18 values: the memory budget stops it */
	solve_expect_error(".decl w(s:symbol)\n.input w\n.decl f(x:float)\n"
			   "f(x) :- w(_), x = range(0.0, 1.0e9, 1.0e-9).\n",
			   "x", 1u << 20, MAELYS_DATALOG_STATUS_BUDGET_MEMORY,
			   "MAELYS_DATALOG_BUDGET_MEMORY");
	free(big);
}
END_TEST

/* A functor's type error on a binding that never reaches the head is no
 * error (as arithmetic's): the string functor here reads a number only
 * for rows the rest of the body removes. */
START_TEST(test_functors_type_error_only_for_bindings_that_reach_the_head)
{
	static const char src[] = ".decl v(x)\n.input v\n.decl ok(x)\n"
				  "ok(strlen(X)) :- v(X), X != 7.\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res = NULL;
	struct dltest_prog p;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, false);
	p.session = dltest_new_session(p.policy);
	dltest_add_s(edb, "v", "four");
	dltest_add_i(edb, "v", 7);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "ok", 1, "#4");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
	edb = dltest_new_edb();
	p.policy = load_dialect(src, false);
	p.session = dltest_new_session(p.policy);
	dltest_add_i(edb, "v", 8);
	ck_assert_status(
	    maelys_datalog_session_solve_edb(p.session, edb, &res, &diag),
	    MAELYS_DATALOG_STATUS_TYPE);
	ck_assert_msg(strstr(diag.message, "expects a string") != NULL, "%s",
		      diag.message);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* result_why_not re-runs a functor's term: a string it builds is the
 * string, not a number of the same bits. */
START_TEST(test_functors_why_not_reads_a_built_string)
{
	static const char src[] =
	    ".decl w(s:symbol)\n.input w\n"
	    ".decl tag(s:symbol)\n"
	    "tag(cat(S, \"!\")) :- w(S), strlen(S) > 1.\n";
	maelys_datalog_policy_t *policy = load_dialect(src, true);
	maelys_datalog_session_t *session =
	    dltest_new_session_flags(policy, MAELYS_DATALOG_SESSION_PROVENANCE);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	maelys_datalog_arg_t arg;
	int head = -1;
	size_t failed = 99;

	dltest_add_s(edb, "w", "ab");
	dltest_add_s(edb, "w", "c");
	res = dltest_solve(session, edb);
	dltest_assert_rows(res, "tag", 1, "ab!");
	/* ab! holds: the whole body held */
	arg = maelys_datalog_arg_symbol("ab!");
	ck_assert_status(maelys_datalog_result_why_not(res, 0, "tag", &arg, 1,
						       &head, &failed),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(head, 1);
	ck_assert_uint_eq(failed, 2);
	/* c! fails at strlen(S) > 1 */
	arg = maelys_datalog_arg_symbol("c!");
	ck_assert_status(maelys_datalog_result_why_not(res, 0, "tag", &arg, 1,
						       &head, &failed),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(failed, 1);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* A fact's functor term is computed at load; one with no constant value
 * (autoinc) or of the wrong kind is refused. */
START_TEST(test_functors_constant_terms_in_facts)
{
	static const char src[] =
	    ".decl a(s:symbol, n:number)\n"
	    "a(cat(\"x\", to_string(strlen(\"abc\") + 1)), max(3, 9)).\n"
	    "a(substr(\"hello\", 1, 3), to_number(\"0x10\")).\n";
	struct dltest_prog p;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;

	memset(&p, 0, sizeof p);
	p.policy = load_dialect(src, true);
	p.session = dltest_new_session(p.policy);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "a", 2, "ell,#16 x4,#9");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
	load_expect_error(".decl a(n:number)\na(autoinc()).\n", true,
			  MAELYS_DATALOG_STATUS_UNSAFE, "no constant value");
	load_expect_error(".decl a(n:number)\na(cat(\"x\", \"y\")).\n", true,
			  MAELYS_DATALOG_STATUS_TYPE,
			  "is a string, but column 1 of 'a'");
	load_expect_error(".decl a(n:number)\na(to_number(\"x\")).\n", true,
			  MAELYS_DATALOG_STATUS_ARITHMETIC, "to_number");
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("functors");

	tcase_add_loop_test(
	    tc, test_functors_compute_souffles_values, 0,
	    (int)(2 * sizeof functor_cases / sizeof *functor_cases));
	tcase_add_loop_test(tc, test_functors_in_comparisons_atoms_and_builtins,
			    0, 2);
	tcase_add_loop_test(tc, test_functors_range_generates_values, 0,
			    (int)(sizeof range_cases / sizeof *range_cases));
	tcase_add_test(tc, test_functors_string_goes_into_a_subtype_column);
	tcase_add_test(tc, test_functors_souffle_plus_of_symbols_is_cat);
	tcase_add_loop_test(
	    tc, test_functors_range_of_unsigned_and_floats, 0,
	    (int)(sizeof typed_range_cases / sizeof *typed_range_cases));
	tcase_add_test(tc, test_functors_range_joins_and_tests);
	tcase_add_test(tc, test_functors_range_stops_at_the_steps_budget);
	tcase_add_test(
	    tc, test_functors_autoinc_counts_and_is_refused_in_recursion);
	tcase_add_test(tc, test_functors_match_with_a_computed_pattern);
	tcase_add_test(tc,
		       test_functors_native_builtins_and_predicates_named_max);
	tcase_add_loop_test(
	    tc, test_functors_ill_formed_calls_are_refused_at_load, 0,
	    (int)(sizeof load_error_cases / sizeof *load_error_cases));
	tcase_add_test(tc, test_functors_bad_arguments_are_clear_errors);
	tcase_add_test(
	    tc, test_functors_type_error_only_for_bindings_that_reach_the_head);
	tcase_add_test(tc, test_functors_why_not_reads_a_built_string);
	tcase_add_test(tc, test_functors_constant_terms_in_facts);
	suite_add_tcase(s, tc);
	return s;
}
