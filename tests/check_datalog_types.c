/* SPDX-License-Identifier: MIT */
/*
 * The types unsigned and float, static typing and .type declarations, in
 * both dialects: unsigned arithmetic wraps and orders as unsigned, float
 * arithmetic and comparisons are IEEE's, the conversion functors, literals
 * that take the type of their place, subtypes, unions and equivalences
 * declared in any order, and the programs Souffle refuses (a variable of
 * two kinds, a subtype flowing into an unrelated subtype, a union of mixed
 * primitives, a cyclic type, an operator a float lacks).  Expected values
 * are worked out by hand (a float's row shows its 64 bits as a signed
 * integer: 1.0 is 0x3FF0000000000000 = 4607182418800017408).
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

#define SOURCE "types.dl"

static maelys_datalog_status_t
load(const char *src, bool souffle, maelys_datalog_policy_t **policy,
     maelys_datalog_diagnostic_t *diag)
{
	return maelys_datalog_policy_load_text(
	    NULL, SOURCE, src, strlen(src),
	    souffle ? MAELYS_DATALOG_LOAD_SOUFFLE : 0u, policy, diag);
}

/* Loads and solves src (no input facts); the result of the solve. */
static maelys_datalog_result_t *
solve(const char *src, bool souffle, struct dltest_prog *p)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	maelys_datalog_status_t st;

	memset(p, 0, sizeof *p);
	st = load(src, souffle, &p->policy, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "load %s: %s: %s", src,
		      maelys_datalog_status_name(st), diag.message);
	p->session = dltest_new_session(p->policy);
	res = dltest_prog_solve(p, edb);
	(void)maelys_datalog_input_edb_free(edb);
	return res;
}

static void
expect_rows(const char *src, bool souffle, const char *pred, size_t arity,
	    const char *want)
{
	struct dltest_prog p;
	maelys_datalog_result_t *res = solve(src, souffle, &p);

	dltest_assert_rows(res, pred, arity, want);
	(void)maelys_datalog_result_free(res);
	dltest_prog_close(&p);
}

/* The load of src is refused with `want`, a message containing `what`. */
static void
expect_refused(const char *src, maelys_datalog_status_t want, const char *what)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st = load(src, true, &policy, &diag);

	ck_assert_msg(st == want, "%s: got %s (%s), want %s", src,
		      maelys_datalog_status_name(st), diag.message,
		      maelys_datalog_status_name(want));
	ck_assert_ptr_null(policy);
	ck_assert_msg(strstr(diag.message, what) != NULL,
		      "message \"%s\" lacks \"%s\"", diag.message, what);
}

START_TEST(test_types_unsigned_wraps_and_orders_as_unsigned)
{
	/* 0 - 1 wraps to 2^64 - 1 (shown as the signed -1), which is above
	 * 5 as an unsigned; 5u / 2u is 2; 0xffffffffffffffff is 2^64-1 */
	static const char src[] =
	    ".decl u(x:unsigned)\nu(0). u(5u). u(0xffffffffffffffff).\n"
	    ".decl dec(x:unsigned)\ndec(x - 1) :- u(x), x < 1.\n"
	    ".decl big(x:unsigned)\nbig(x) :- u(x), x > 5.\n"
	    ".decl half(x:unsigned)\nhalf(x / 2u) :- u(x), x = 5.\n";

	expect_rows(src, true, "dec", 1, "#-1");
	expect_rows(src, true, "big", 1, "#-1");
	expect_rows(src, true, "half", 1, "#2");
}
END_TEST

START_TEST(test_types_float_arithmetic_and_comparisons)
{
	/* 0.5 * 2 + 0.0 = 1.0; -0.0 = 0.0 holds; 1.5 > 1 */
	static const char src[] =
	    ".decl f(x:float)\nf(0.5). f(-0.0). f(1.5).\n"
	    ".decl one(x:float)\none(x * 2 + 0.0) :- f(x), x < 1.0, x > 0.\n"
	    ".decl zero(x:float)\nzero(x) :- f(x), x = 0.0.\n"
	    ".decl above(x:number)\nabove(to_number(x)) :- f(x), x > 1.\n";

	expect_rows(src, true, "one", 1, "#4607182418800017408");
	/* -0.0's bits: the sign bit alone */
	expect_rows(src, true, "zero", 1, "#-9223372036854775808");
	expect_rows(src, true, "above", 1, "#1");
}
END_TEST

/* min and max order floats as doubles and unsigned values as unsigned,
 * not by their bits as numbers: min(-0.5, -1.0) is -1.0, max(2^64-1, 5u)
 * is 2^64-1. */
START_TEST(test_types_min_max_of_floats_and_unsigned)
{
	static const char src[] =
	    ".decl f(x:float)\nf(-0.5). f(2.5). f(-3.25).\n"
	    ".decl fmin(x:number)\nfmin(to_number(min(x, -1.0) * 4.0)) :- "
	    "f(x).\n"
	    ".decl fmax(x:number)\nfmax(to_number(max(x, -1, 0.25) * 4.0)) "
	    ":- f(x).\n"
	    ".decl u(x:unsigned)\nu(3u). u(0xffffffffffffffff).\n"
	    ".decl umin(x:unsigned)\numin(min(x, 5u)) :- u(x).\n"
	    ".decl umax(x:unsigned)\numax(max(5u, x)) :- u(x).\n";

	expect_rows(src, true, "fmin", 1, "#-13 #-4");
	expect_rows(src, true, "fmax", 1, "#1 #10");
	expect_rows(src, true, "umin", 1, "#3 #5");
	expect_rows(src, true, "umax", 1, "#-1 #5");
}
END_TEST

START_TEST(test_types_conversions)
{
	static const char src[] =
	    ".decl n(x:number)\nn(-3). n(7).\n"
	    ".decl back(x:number)\nback(to_number(to_float(x) / 2.0)) :- "
	    "n(x).\n"
	    ".decl u(x:unsigned)\nu(itou(x)) :- n(x), x > 0.\n"
	    ".decl c(x:number)\nc(ftoi(-3.7)). c(to_number(2.9)). "
	    "c(utoi(4294967296u)).\n";

	/* truncation toward zero: -1.5 -> -1, 3.5 -> 3 */
	expect_rows(src, true, "back", 1, "#-1 #3");
	expect_rows(src, true, "u", 1, "#7");
	expect_rows(src, true, "c", 1, "#-3 #2 #4294967296");
}
END_TEST

/* to_string is polymorphic, as Souffle's: a float prints as C's "%f"
 * (Souffle's std::to_string), an unsigned in decimal, a number in
 * decimal, a string is itself; a plain literal cast with as() takes the
 * type it is cast to. */
START_TEST(test_types_to_string_of_every_type)
{
	static const char src[] =
	    ".decl f(x:float)\nf(2.0). f(-0.5). f(3.14).\n"
	    ".decl u(x:unsigned)\nu(18446744073709551615u).\n"
	    ".decl g(s:symbol)\n"
	    "g(to_string(x)) :- f(x).\n"
	    "g(to_string(x)) :- u(x).\n"
	    "g(to_string(-7)). g(to_string(\"id\")).\n"
	    "g(cat(\"as:\", to_string(as(4, float)))).\n"
	    "g(to_string(cat(\"a\", \"b\"))).\n";

	expect_rows(src, true, "g", 1,
		    "-0.500000 -7 18446744073709551615 2.000000 3.140000 ab "
		    "as:4.000000 id");
}
END_TEST

START_TEST(test_types_float_out_of_range_is_an_error)
{
	/* 1.0 / 0.0 is an infinity (IEEE), which no number holds */
	static const char src[] = ".decl f(x:float)\nf(0.0).\n"
				  ".decl n(x:number)\n"
				  "n(to_number(1.0 / x)) :- f(x).\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res = NULL;
	struct dltest_prog p;
	maelys_datalog_status_t st;

	memset(&p, 0, sizeof p);
	st = load(src, true, &p.policy, &diag);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	p.session = dltest_new_session(p.policy);
	st = maelys_datalog_session_solve_edb(p.session, edb, &res, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_ARITHMETIC, "got %s (%s)",
		      maelys_datalog_status_name(st), diag.message);
	ck_assert_ptr_nonnull(strstr(diag.message, "out of the range"));
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

START_TEST(test_types_declared_in_any_order)
{
	/* subtypes, a union and an equivalence, each used before it is
	 * declared; a subtype flows into its base and into a union that
	 * holds it */
	static const char src[] =
	    ".decl age(a: Age)\n.decl known(k: Known)\n.decl n(x: N)\n"
	    "age(30). age(41).\n"
	    "known(a) :- age(a).\n"
	    "n(a + 1) :- age(a).\n"
	    ".type Known = Age | Id\n"
	    ".type Age <: Base\n.type Id <: number\n.type Base = number\n"
	    ".type N <: number\n";

	expect_rows(src, true, "known", 1, "#30 #41");
	expect_rows(src, true, "n", 1, "#31 #42");
}
END_TEST

START_TEST(test_types_native_dialect_has_them)
{
	static const char src[] =
	    ".decl u(x: unsigned)\nu(0).\n"
	    ".decl w(x: unsigned)\nw(X - 1) :- u(X).\n"
	    ".decl f(x: float)\nf(2.5).\n"
	    ".decl g(x: number)\ng(to_number(X * 2)) :- f(X).\n";

	expect_rows(src, false, "w", 1, "#-1");
	expect_rows(src, false, "g", 1, "#5");
}
END_TEST

START_TEST(test_types_refusals)
{
	static const struct {
		const char *src;
		maelys_datalog_status_t want;
		const char *what;
	} cases[] = {
	    /* a variable of a number column in a symbol column */
	    {".decl foo(a:number, b:number)\n.decl bar(a:symbol, b:number)\n"
	     "foo(1, 2).\nbar(a, b) :- foo(a, b).\n",
	     MAELYS_DATALOG_STATUS_TYPE,
	     "unable to deduce the type of variable"},
	    /* a subtype into a column of its own subtype */
	    {".type A <: symbol\n.type B <: A\n.decl r(a: A, b: B)\n"
	     "r(\"x\", \"y\").\nr(a, a) :- r(a, _).\n",
	     MAELYS_DATALOG_STATUS_TYPE, "not a subtype of B"},
	    /* two unrelated subtypes never share a value */
	    {".type A <: number\n.type B <: number\n.decl a(x: A)\n"
	     ".decl b(x: B)\n.decl c(x: A)\nc(x) :- a(x), b(x).\n",
	     MAELYS_DATALOG_STATUS_TYPE, "no common subtype"},
	    {".type U = number | symbol\n.decl r(x: U)\n",
	     MAELYS_DATALOG_STATUS_TYPE, "mixes primitive types"},
	    {".type A <: B\n.type B <: A\n.decl r(x: A)\n",
	     MAELYS_DATALOG_STATUS_TYPE, "infinite descent"},
	    {".type U = A | B\n.type A <: number\n.type B <: number\n"
	     ".type S <: U\n",
	     MAELYS_DATALOG_STATUS_TYPE, "cannot be derived from the union"},
	    {".type number = number\n", MAELYS_DATALOG_STATUS_REDECLARED,
	     "primitive type"},
	    {".type A <: Z\n", MAELYS_DATALOG_STATUS_UNDECLARED,
	     "undefined type Z"},
	    {".decl r(x: colour)\n", MAELYS_DATALOG_STATUS_PARSE,
	     "unknown type 'colour'"},
	    {".decl f(x:float)\n.decl g(x:float)\ng(x band 1.0) :- f(x).\n",
	     MAELYS_DATALOG_STATUS_TYPE, "does not apply to a float"},
	    {".decl f(x:float)\n.decl n(x:number)\nn(x + 1) :- f(x).\n",
	     MAELYS_DATALOG_STATUS_TYPE, "unable to deduce"},
	    {".decl n(x:number)\nn(1.5).\n", MAELYS_DATALOG_STATUS_TYPE,
	     "a float"},
	    {".decl u(x:unsigned)\n.decl f(x:float)\nf(1.0 + 2u).\n",
	     MAELYS_DATALOG_STATUS_TYPE, "an unsigned and a float"},
	    {".decl f(x:float)\nf(1e400).\n", MAELYS_DATALOG_STATUS_PARSE,
	     "runs into a name"},
	    {".decl f(x:float)\nf(1.0e400).\n", MAELYS_DATALOG_STATUS_LIMIT,
	     "float literal out of range"},
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof *cases; i++)
		expect_refused(cases[i].src, cases[i].want, cases[i].what);
}
END_TEST

START_TEST(test_types_old_declarations)
{
	static const char src[] = ".number_type A\n.symbol_type B\n.type C\n"
				  ".type BC = B | C\n"
				  ".decl a(x: A)\na(1).\n"
				  ".decl b(x: B)\nb(\"m\").\n"
				  ".decl bc(x: BC)\nbc(x) :- b(x).\n";

	expect_rows(src, true, "a", 1, "#1");
	expect_rows(src, true, "bc", 1, "m");
}
END_TEST

START_TEST(test_types_with_records_and_aggregates)
{
	/* a record type declared after its use, an equivalence of it, a
	 * field of a subtype; sum, min and max of floats and unsigned values
	 * add and order as theirs, mean of floats: 0.5 + 1.5 - 2.0 = 0.0
	 * (bits 0), min -2.0 (0xC000000000000000), mean of 1.0 and 2.0 1.5
	 * (0x3FF8000000000000), max of 1u and 2^64-1 (shown as -1) */
	static const char src[] =
	    ".decl r(p: Q)\n.type Q = P\n"
	    ".type P = [name: symbol, age: Age]\n.type Age <: number\n"
	    "r([\"a\", 3]).\n.decl o(a: Age)\no(x) :- r([_, x]).\n"
	    ".decl f(x:float)\nf(0.5). f(1.5). f(-2.0).\n"
	    ".decl s(x:float)\ns(y) :- y = sum x : f(x).\n"
	    ".decl lo(x:float)\nlo(y) :- y = min x : f(x).\n"
	    ".decl g(x:float)\ng(1.0). g(2.0).\n"
	    ".decl m(x:float)\nm(y) :- y = mean x : g(x).\n"
	    ".decl u(x:unsigned)\nu(1u). u(0xffffffffffffffff).\n"
	    ".decl hi(x:unsigned)\nhi(y) :- y = max x : u(x).\n";

	expect_rows(src, true, "o", 1, "#3");
	expect_rows(src, true, "s", 1, "#0");
	expect_rows(src, true, "lo", 1, "#-4611686018427387904");
	expect_rows(src, true, "m", 1, "#4609434218613702656");
	expect_rows(src, true, "hi", 1, "#-1");
}
END_TEST

START_TEST(test_types_refusals_of_the_other_features)
{
	static const struct {
		const char *src;
		maelys_datalog_status_t want;
		const char *what;
	} cases[] = {
	    {".type S <: L\n.type L = [h: number]\n",
	     MAELYS_DATALOG_STATUS_TYPE, "subtype 'S' of the record"},
	    {".type L = [h: number]\n.type U = L | number\n",
	     MAELYS_DATALOG_STATUS_TYPE, "record or ADT type among"},
	    /* a record whose type only the record inference sees: its 1
	     * was typed a number, not the float of its field */
	    {".type L = [h: float]\n.decl r(x: L)\nr(y) :- y = [1].\n",
	     MAELYS_DATALOG_STATUS_TYPE, "typed as a number, not as a float"},
	    {".decl n(x:number)\n.decl m(x:float)\nm(y) :- y = mean x : "
	     "n(x).\n",
	     MAELYS_DATALOG_STATUS_TYPE, "mean of numbers"},
	    {".type t <: symbol\n.decl t(x: number)\n",
	     MAELYS_DATALOG_STATUS_REDECLARED, "name clash"},
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof *cases; i++)
		expect_refused(cases[i].src, cases[i].want, cases[i].what);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("types");

	tcase_add_test(tc, test_types_unsigned_wraps_and_orders_as_unsigned);
	tcase_add_test(tc, test_types_float_arithmetic_and_comparisons);
	tcase_add_test(tc, test_types_min_max_of_floats_and_unsigned);
	tcase_add_test(tc, test_types_conversions);
	tcase_add_test(tc, test_types_to_string_of_every_type);
	tcase_add_test(tc, test_types_float_out_of_range_is_an_error);
	tcase_add_test(tc, test_types_declared_in_any_order);
	tcase_add_test(tc, test_types_native_dialect_has_them);
	tcase_add_test(tc, test_types_refusals);
	tcase_add_test(tc, test_types_old_declarations);
	tcase_add_test(tc, test_types_with_records_and_aggregates);
	tcase_add_test(tc, test_types_refusals_of_the_other_features);
	suite_add_tcase(s, tc);
	return s;
}
