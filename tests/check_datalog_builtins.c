/* SPDX-License-Identifier: MIT */
/*
 * The built-ins of rule bodies: comparisons (integers numerically, strings
 * bytewise with a proper prefix ordered first), `=` as a binding, re_match
 * (PCRE2 over bytes, unanchored unless the pattern anchors), prefix, suffix
 * and contains, each also negated.  Expected answers are computed here, in
 * C, or stated in {input, expected} tables.
 *
 * A built-in that cannot answer must not answer false: an ordering of an
 * integer with a string, or a string test on an integer, is STATUS_TYPE,
 * and a regex that exceeds its step budget is STATUS_REGEX_LIMIT, because a
 * silent false in a deny rule would allow.
 */
#include "runner.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <maelys/datalog.h>
#include <maelys/datalog_builders.h>

#include "datalog_testutil.h"

#define SOURCE "builtins.dl"

/* A string that may hold any byte, NUL included. */
struct bytes {
	const char *s;
	size_t len;
};

#define B(lit)                                                                 \
	{                                                                      \
		lit, sizeof lit - 1                                            \
	}

/* ------------------------------------------------------------------ */
/* Comparisons                                                         */

static const char cmp_src[] = ".decl pair(a, b)\n.input pair\n"
			      ".decl lt(a, b)\n.decl le(a, b)\n"
			      ".decl gt(a, b)\n.decl ge(a, b)\n"
			      ".decl eq(a, b)\n.decl ne(a, b)\n"
			      "lt(A, B) :- pair(A, B), A < B.\n"
			      "le(A, B) :- pair(A, B), A <= B.\n"
			      "gt(A, B) :- pair(A, B), A > B.\n"
			      "ge(A, B) :- pair(A, B), A >= B.\n"
			      "eq(A, B) :- pair(A, B), A = B.\n"
			      "ne(A, B) :- pair(A, B), A != B.\n";

static const char *const cmp_preds[] = {"lt", "le", "gt", "ge", "eq", "ne"};
enum { NCMP = sizeof cmp_preds / sizeof *cmp_preds };

/* Whether relation cmp_preds[op] holds when the operands compare as `c`
 * (negative, zero, positive). */
static int
cmp_holds(size_t op, int c)
{
	switch (op) {
	case 0:
		return c < 0;
	case 1:
		return c <= 0;
	case 2:
		return c > 0;
	case 3:
		return c >= 0;
	case 4:
		return c == 0;
	default:
		return c != 0;
	}
}

/* Bytewise order: memcmp over the common length, then the shorter first. */
static int
bytes_cmp(const struct bytes *a, const struct bytes *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int c = n == 0 ? 0 : memcmp(a->s, b->s, n);

	if (c != 0)
		return c;
	return (a->len > b->len) - (a->len < b->len);
}

/* Runs cmp_src over every pair of `args` and checks every relation
 * against `order`(i, j). */
static void
check_all_pairs(const maelys_datalog_arg_t *args, size_t n,
		int (*order)(size_t, size_t))
{
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	size_t i, j, op, want[NCMP];
	struct dltest_prog p;

	memset(want, 0, sizeof want);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			maelys_datalog_arg_t pair[2];

			pair[0] = args[i];
			pair[1] = args[j];
			dltest_add_args(edb, "pair", pair, 2);
		}
	dltest_prog_open(&p, SOURCE, cmp_src);
	res = dltest_prog_solve(&p, edb);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			maelys_datalog_arg_t pair[2];
			int c = order(i, j);

			pair[0] = args[i];
			pair[1] = args[j];
			for (op = 0; op < NCMP; op++) {
				int exp = cmp_holds(op, c);

				want[op] += (size_t)exp;
				ck_assert_msg(dltest_query_args(res,
								cmp_preds[op],
								pair, 2) == exp,
					      "%s(#%zu, #%zu): want %d",
					      cmp_preds[op], i, j, exp);
			}
		}
	for (op = 0; op < NCMP; op++)
		ck_assert_uint_eq(dltest_count(res, cmp_preds[op], 2),
				  want[op]);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}

static const int64_t cmp_ints[] = {
    INT64_MIN,        -(INT64_C(1) << 40), -5,        -1, 0, 1, 7,
    INT64_C(1) << 30, INT64_C(1) << 40,    INT64_MAX,
};
enum { NINTS = sizeof cmp_ints / sizeof *cmp_ints };

static int
order_ints(size_t i, size_t j)
{
	return (cmp_ints[i] > cmp_ints[j]) - (cmp_ints[i] < cmp_ints[j]);
}

START_TEST(test_builtins_integer_comparisons_are_numeric)
{
	maelys_datalog_arg_t args[NINTS];
	size_t i;

	for (i = 0; i < NINTS; i++)
		args[i] = maelys_datalog_arg_integer(cmp_ints[i]);
	check_all_pairs(args, NINTS, order_ints);
}
END_TEST

/* "a\0" and "a" differ, and bytes >= 0x80 sort after ASCII: the order is
 * bytewise, not strcmp's and not a locale's. */
static const struct bytes cmp_strs[] = {
    B(""),     B("a"),    B("a\0"),  B("ab"),    B("abc"),   B("b"),     B("B"),
    B("\x7f"), B("\x80"), B("\xff"), B("a\x80"), B("a\x7f"), B("ab\0c"),
};
enum { NSTRS = sizeof cmp_strs / sizeof *cmp_strs };

static int
order_strs(size_t i, size_t j)
{
	return bytes_cmp(&cmp_strs[i], &cmp_strs[j]);
}

START_TEST(test_builtins_string_comparisons_are_bytewise)
{
	maelys_datalog_arg_t args[NSTRS];
	size_t i;

	for (i = 0; i < NSTRS; i++)
		args[i] =
		    maelys_datalog_arg_symbol_n(cmp_strs[i].s, cmp_strs[i].len);
	check_all_pairs(args, NSTRS, order_strs);
}
END_TEST

START_TEST(test_builtins_equality_of_mixed_kinds_is_false_not_error)
{
	/* = and != compare identity, so an integer and a string are simply
	 * different; only orderings need a common kind */
	static const char src[] = ".decl pair(a, b)\n.input pair\n"
				  ".decl eq(a, b)\n.decl ne(a, b)\n"
				  "eq(A, B) :- pair(A, B), A = B.\n"
				  "ne(A, B) :- pair(A, B), A != B.\n";
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	maelys_datalog_arg_t pair[2];
	struct dltest_prog p;

	pair[0] = maelys_datalog_arg_integer(1);
	pair[1] = maelys_datalog_arg_symbol("1");
	dltest_add_args(edb, "pair", pair, 2);
	dltest_prog_open(&p, SOURCE, src);
	res = dltest_prog_solve(&p, edb);
	ck_assert_int_eq(dltest_query_args(res, "eq", pair, 2), 0);
	ck_assert_int_eq(dltest_query_args(res, "ne", pair, 2), 1);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

START_TEST(test_builtins_equals_binds_unbound_side)
{
	static const char src[] = ".decl src(x)\n.input src\n"
				  ".decl copy(a, b)\n.decl konst(a, b)\n"
				  ".decl rev(a, b)\n"
				  "copy(X, Y) :- src(X), Y = X.\n"
				  "konst(X, Y) :- src(X), Y = \"k\".\n"
				  "rev(X, Y) :- src(X), 7 = Y.\n";
	static const int64_t vals[] = {3, INT64_C(1) << 40, -2};
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	struct dltest_prog p;
	size_t i;

	for (i = 0; i < 3; i++) {
		maelys_datalog_arg_t a = maelys_datalog_arg_integer(vals[i]);

		dltest_add_args(edb, "src", &a, 1);
	}
	dltest_prog_open(&p, SOURCE, src);
	res = dltest_prog_solve(&p, edb);
	for (i = 0; i < 3; i++) {
		maelys_datalog_arg_t a[2];

		a[0] = maelys_datalog_arg_integer(vals[i]);
		a[1] = a[0];
		ck_assert_int_eq(dltest_query_args(res, "copy", a, 2), 1);
		a[1] = maelys_datalog_arg_symbol("k");
		ck_assert_int_eq(dltest_query_args(res, "konst", a, 2), 1);
		a[1] = maelys_datalog_arg_integer(7);
		ck_assert_int_eq(dltest_query_args(res, "rev", a, 2), 1);
	}
	ck_assert_uint_eq(dltest_count(res, "copy", 2), 3);
	ck_assert_uint_eq(dltest_count(res, "konst", 2), 3);
	ck_assert_uint_eq(dltest_count(res, "rev", 2), 3);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* A variable bound through a chain of `=` is safe (the checker accepts
 * each of these), so the rule must load and bind in whatever order the
 * literals are written. */
static const char *const chain_rules[] = {
    "chain(X, Z) :- src(X), Y = X, Z = Y.\n",
    "chain(X, Z) :- src(X), Z = Y, Y = X.\n",
    "chain(X, Z) :- Z = Y, src(X), Y = X.\n",
    "chain(X, Z) :- Z = Y, Y = X, src(X).\n",
};

START_TEST(test_builtins_equals_binds_through_chain_in_any_order)
{
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	maelys_datalog_arg_t a[2];
	char src[256];
	struct dltest_prog p;

	(void)snprintf(src, sizeof src,
		       ".decl src(x)\n.input src\n.decl chain(a, b)\n%s",
		       chain_rules[_i]);
	a[0] = maelys_datalog_arg_symbol("v");
	dltest_add_args(edb, "src", a, 1);
	dltest_prog_open(&p, SOURCE, src);
	res = dltest_prog_solve(&p, edb);
	a[1] = a[0];
	ck_assert_int_eq(dltest_query_args(res, "chain", a, 2), 1);
	ck_assert_uint_eq(dltest_count(res, "chain", 2), 1);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* re_match                                                            */

static const struct {
	const char *pattern; /* the regex itself, before policy escaping */
	struct bytes text;
	int match;
} re_cases[] = {
    /* unanchored: a match anywhere */
    {"b", B("abc"), 1},
    {"b", B("xyz"), 0},
    {"bc", B("abc"), 1},
    /* anchored with ^ and $ */
    {"^a", B("abc"), 1},
    {"^b", B("abc"), 0},
    {"c$", B("abc"), 1},
    {"b$", B("abc"), 0},
    {"^abc$", B("abc"), 1},
    {"^abc$", B("abcd"), 0},
    {"^abc$", B("xabc"), 0},
    {"^b", B("a\nb"), 0}, /* not multi-line */
    {"^$", B(""), 1},
    {"^$", B("a"), 0},
    {"", B("abc"), 1},
    /* classes, repetition, alternation, escapes */
    {"[0-9]+", B("ab12"), 1},
    {"[0-9]+", B("abc"), 0},
    {"^[a-z]+$", B("abc"), 1},
    {"^[a-z]+$", B("ab1"), 0},
    {"[^a-z]", B("abc"), 0},
    {"[^a-z]", B("ab-c"), 1},
    {"\\d{3}", B("a123"), 1},
    {"\\d{3}", B("a12b3"), 0},
    {"\\.", B("a.b"), 1},
    {"\\.", B("ab"), 0},
    {"x|y", B("ayb"), 1},
    {"ABC", B("abc"), 0},
    {"(?i)ABC", B("abc"), 1},
    {"a\"b", B("a\"b"), 1},
    {"a.c", B("a\0c"), 1},
    /* bytes >= 0x80: one byte per character, never UTF-8 */
    {"^.$", B("\x80"), 1},
    {"^caf.$", B("caf\xc3\xa9"), 0},
    {"^caf..$", B("caf\xc3\xa9"), 1},
    {"\\xc3\\xa9$", B("caf\xc3\xa9"), 1},
    {"[\\x80-\\xff]", B("abc\xfe"), 1},
    {"[\\x80-\\xff]", B("abc"), 0},
    {"caf\xe9", B("un caf\xe9"), 1},
    {"\xff", B("\xfe\xff"), 1},
    {"^[^\\x00-\\x7f]+$", B("\xc3\xa9\xff"), 1},
};
enum { NRE = sizeof re_cases / sizeof *re_cases };

/* Appends `s` to `out` as the body of a policy string literal. */
static void
append_escaped(char *out, size_t cap, const char *s)
{
	size_t used = strlen(out);

	for (; *s != '\0' && used + 3 < cap; s++) {
		if (*s == '\\' || *s == '"')
			out[used++] = '\\';
		out[used++] = *s;
	}
	out[used] = '\0';
}

START_TEST(test_builtins_re_match_table)
{
	size_t cap = 256 * (NRE + 4), i, j;
	char *src = calloc(1, cap);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	struct dltest_prog p;

	ck_assert_ptr_nonnull(src);
	/* one positive and one negated rule per pattern, numbered */
	strcat(src, ".decl text(t)\n.input text\n"
		    ".decl m(k, t)\n.decl nm(k, t)\n");
	for (i = 0; i < NRE; i++) {
		char head[64];

		(void)snprintf(head, sizeof head,
			       "m(%zu, T) :- text(T), re_match(T, \"", i);
		strcat(src, head);
		append_escaped(src, cap, re_cases[i].pattern);
		(void)snprintf(head, sizeof head,
			       "\").\nnm(%zu, T) :- text(T), !re_match(T, \"",
			       i);
		strcat(src, head);
		append_escaped(src, cap, re_cases[i].pattern);
		strcat(src, "\").\n");
	}
	for (i = 0; i < NRE; i++) {
		maelys_datalog_arg_t t = maelys_datalog_arg_symbol_n(
		    re_cases[i].text.s, re_cases[i].text.len);

		dltest_add_args(edb, "text", &t, 1);
	}
	dltest_prog_open(&p, SOURCE, src);
	res = dltest_prog_solve(&p, edb);
	for (i = 0; i < NRE; i++) {
		maelys_datalog_arg_t a[2];

		a[0] = maelys_datalog_arg_integer((int64_t)i);
		a[1] = maelys_datalog_arg_symbol_n(re_cases[i].text.s,
						   re_cases[i].text.len);
		ck_assert_msg(dltest_query_args(res, "m", a, 2) ==
				  re_cases[i].match,
			      "re_match(case %zu, \"%s\"): want %d", i,
			      re_cases[i].pattern, re_cases[i].match);
		/* the negation is the exact complement, for every text */
		for (j = 0; j < NRE; j++) {
			a[1] = maelys_datalog_arg_symbol_n(
			    re_cases[j].text.s, re_cases[j].text.len);
			ck_assert_int_eq(dltest_query_args(res, "m", a, 2) +
					     dltest_query_args(res, "nm", a, 2),
					 1);
		}
	}
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
	free(src);
}
END_TEST

/* ------------------------------------------------------------------ */
/* prefix, suffix, contains                                            */

static const struct {
	struct bytes text, arg;
	int prefix, suffix, contains;
} str_cases[] = {
    {B("abc"), B(""), 1, 1, 1},
    {B(""), B(""), 1, 1, 1},
    {B(""), B("a"), 0, 0, 0},
    {B("abc"), B("abc"), 1, 1, 1},
    {B("ab"), B("abc"), 0, 0, 0},
    {B("abc"), B("ab"), 1, 0, 1},
    {B("abc"), B("bc"), 0, 1, 1},
    {B("abc"), B("b"), 0, 0, 1},
    {B("abc"), B("ac"), 0, 0, 0},
    {B("aab"), B("ab"), 0, 1, 1},
    {B("abab"), B("bab"), 0, 1, 1},
    {B("aaab"), B("aab"), 0, 1, 1},
    {B("abc"), B("ABC"), 0, 0, 0},
    {B("a\x80"), B("\x80"), 0, 1, 1},
    {B("\xff\xfe"), B("\xff"), 1, 0, 1},
    {B("a\0b"), B("a\0"), 1, 0, 1},
    {B("a\0b"), B("\0b"), 0, 1, 1},
    {B("a\0b"), B("a\0c"), 0, 0, 0},
    {B("a"), B("a\0"), 0, 0, 0},
};
enum { NSTR = sizeof str_cases / sizeof *str_cases };

START_TEST(test_builtins_prefix_suffix_contains_table)
{
	static const char src[] =
	    ".decl st(t, a)\n.input st\n"
	    ".decl pre(t, a)\n.decl suf(t, a)\n.decl con(t, a)\n"
	    ".decl npre(t, a)\n.decl nsuf(t, a)\n.decl ncon(t, a)\n"
	    "pre(T, A) :- st(T, A), prefix(T, A).\n"
	    "suf(T, A) :- st(T, A), suffix(T, A).\n"
	    "con(T, A) :- st(T, A), contains(T, A).\n"
	    "npre(T, A) :- st(T, A), not(prefix(T, A)).\n"
	    "nsuf(T, A) :- st(T, A), !suffix(T, A).\n"
	    "ncon(T, A) :- st(T, A), not(contains(T, A)).\n";
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	size_t i, npre = 0, nsuf = 0, ncon = 0;
	struct dltest_prog p;

	for (i = 0; i < NSTR; i++) {
		maelys_datalog_arg_t a[2];

		a[0] = maelys_datalog_arg_symbol_n(str_cases[i].text.s,
						   str_cases[i].text.len);
		a[1] = maelys_datalog_arg_symbol_n(str_cases[i].arg.s,
						   str_cases[i].arg.len);
		dltest_add_args(edb, "st", a, 2);
		npre += (size_t)str_cases[i].prefix;
		nsuf += (size_t)str_cases[i].suffix;
		ncon += (size_t)str_cases[i].contains;
	}
	dltest_prog_open(&p, SOURCE, src);
	res = dltest_prog_solve(&p, edb);
	for (i = 0; i < NSTR; i++) {
		maelys_datalog_arg_t a[2];

		a[0] = maelys_datalog_arg_symbol_n(str_cases[i].text.s,
						   str_cases[i].text.len);
		a[1] = maelys_datalog_arg_symbol_n(str_cases[i].arg.s,
						   str_cases[i].arg.len);
		ck_assert_msg(dltest_query_args(res, "pre", a, 2) ==
				  str_cases[i].prefix,
			      "prefix case %zu", i);
		ck_assert_msg(dltest_query_args(res, "suf", a, 2) ==
				  str_cases[i].suffix,
			      "suffix case %zu", i);
		ck_assert_msg(dltest_query_args(res, "con", a, 2) ==
				  str_cases[i].contains,
			      "contains case %zu", i);
		ck_assert_int_eq(dltest_query_args(res, "npre", a, 2),
				 !str_cases[i].prefix);
		ck_assert_int_eq(dltest_query_args(res, "nsuf", a, 2),
				 !str_cases[i].suffix);
		ck_assert_int_eq(dltest_query_args(res, "ncon", a, 2),
				 !str_cases[i].contains);
	}
	ck_assert_uint_eq(dltest_count(res, "pre", 2), npre);
	ck_assert_uint_eq(dltest_count(res, "suf", 2), nsuf);
	ck_assert_uint_eq(dltest_count(res, "con", 2), ncon);
	ck_assert_uint_eq(dltest_count(res, "npre", 2), NSTR - npre);
	ck_assert_uint_eq(dltest_count(res, "nsuf", 2), NSTR - nsuf);
	ck_assert_uint_eq(dltest_count(res, "ncon", 2), NSTR - ncon);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

START_TEST(test_builtins_string_tests_with_constants)
{
	/* a constant argument, and a constant text */
	static const char src[] =
	    ".decl cmd(c)\n.input cmd\n"
	    ".decl rmish(c)\n.decl dotfile(c)\n.decl sub(c)\n"
	    "rmish(C) :- cmd(C), prefix(C, \"rm\").\n"
	    "dotfile(C) :- cmd(C), suffix(C, \".sh\").\n"
	    "sub(C) :- cmd(C), contains(\"/usr/bin/rmdir\", C).\n";
	static const char *const cmds[] = {
	    "rm", "rmdir", "arm", "run.sh", "sh", "bin", "/usr/bin/rmdir", ""};
	static const int want[][3] = {
	    {1, 0, 1}, {1, 0, 1}, {0, 0, 0}, {0, 1, 0},
	    {0, 0, 0}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1},
	};
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	struct dltest_prog p;
	size_t i;

	for (i = 0; i < sizeof cmds / sizeof *cmds; i++) {
		maelys_datalog_arg_t a = maelys_datalog_arg_symbol(cmds[i]);

		dltest_add_args(edb, "cmd", &a, 1);
	}
	dltest_prog_open(&p, SOURCE, src);
	res = dltest_prog_solve(&p, edb);
	for (i = 0; i < sizeof cmds / sizeof *cmds; i++) {
		maelys_datalog_arg_t a = maelys_datalog_arg_symbol(cmds[i]);

		ck_assert_msg(dltest_query_args(res, "rmish", &a, 1) ==
				  want[i][0],
			      "rmish(%s)", cmds[i]);
		ck_assert_msg(dltest_query_args(res, "dotfile", &a, 1) ==
				  want[i][1],
			      "dotfile(%s)", cmds[i]);
		ck_assert_msg(dltest_query_args(res, "sub", &a, 1) ==
				  want[i][2],
			      "sub(%s)", cmds[i]);
	}
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Evaluation errors: TYPE and REGEX_LIMIT                              */

/* Each rule is line 4 of its program; the input is pair(1, "a"). */
static const struct {
	const char *rule;
	size_t column; /* of the failing literal */
	const char *phrase;
} type_cases[] = {
    {"r(A, B) :- pair(A, B), A < B.", 24, "ordering comparison"},
    {"r(A, B) :- pair(A, B), A <= B.", 24, "ordering comparison"},
    {"r(A, B) :- pair(A, B), B > A.", 24, "ordering comparison"},
    {"r(A, B) :- pair(A, B), A >= B.", 24, "ordering comparison"},
    {"r(A, B) :- pair(A, B), A < \"m\".", 24, "ordering comparison"},
    {"r(A, B) :- pair(A, B), \"m\" > A.", 24, "ordering comparison"},
    {"r(A, B) :- pair(A, B), prefix(A, B).", 24, "string built-in"},
    {"r(A, B) :- pair(A, B), prefix(B, A).", 24, "string built-in"},
    {"r(A, B) :- pair(A, B), suffix(A, B).", 24, "string built-in"},
    {"r(A, B) :- pair(A, B), suffix(B, A).", 24, "string built-in"},
    {"r(A, B) :- pair(A, B), contains(A, B).", 24, "string built-in"},
    {"r(A, B) :- pair(A, B), contains(B, A).", 24, "string built-in"},
    {"r(A, B) :- pair(A, B), re_match(A, \"1\").", 24, "string built-in"},
    {"r(A, B) :- pair(A, B),\n  !prefix(A, B).", 3, "string built-in"},
    {"r(A, B) :- pair(A, B), not(suffix(B, A)).", 24, "string built-in"},
    {"r(A, B) :- pair(A, B), !re_match(A, \"x\").", 24, "string built-in"},
};

START_TEST(test_builtins_wrong_kind_is_type_error)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res = NULL;
	maelys_datalog_arg_t pair[2];
	maelys_datalog_status_t st;
	size_t line = 4;
	char src[256], where[64];
	struct dltest_prog p;

	(void)snprintf(src, sizeof src,
		       ".decl pair(a, b)\n.input pair\n.decl r(a, b)\n%s\n",
		       type_cases[_i].rule);
	if (strchr(type_cases[_i].rule, '\n') != NULL)
		line = 5;
	pair[0] = maelys_datalog_arg_integer(1);
	pair[1] = maelys_datalog_arg_symbol("a");
	dltest_add_args(edb, "pair", pair, 2);
	dltest_prog_open(&p, SOURCE, src);
	st = maelys_datalog_session_solve_edb(p.session, edb, &res, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_TYPE, "%s: %s (%s)",
		      type_cases[_i].rule, maelys_datalog_status_name(st),
		      diag.message);
	ck_assert_ptr_null(res);
	ck_assert_int_eq(diag.status, MAELYS_DATALOG_STATUS_TYPE);
	ck_assert_uint_eq(diag.line, line);
	ck_assert_uint_eq(diag.column, type_cases[_i].column);
	ck_assert_str_eq(diag.source, SOURCE);
	(void)snprintf(where, sizeof where, "%s:%zu:%zu: ", SOURCE, line,
		       type_cases[_i].column);
	ck_assert_msg(strncmp(diag.message, where, strlen(where)) == 0,
		      "message \"%s\"", diag.message);
	ck_assert_msg(strstr(diag.message, type_cases[_i].phrase) != NULL,
		      "message \"%s\" lacks \"%s\"", diag.message,
		      type_cases[_i].phrase);
	/* with both operands strings the same rule evaluates */
	ck_assert_int_eq(maelys_datalog_input_edb_clear(edb),
			 MAELYS_DATALOG_STATUS_OK);
	pair[0] = maelys_datalog_arg_symbol("1");
	dltest_add_args(edb, "pair", pair, 2);
	res = dltest_prog_solve(&p, edb);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* Catastrophic backtracking: (a+)+ tries every split of the a's before
 * it can fail on the '!'. */
static const char redos_src[] = ".decl t(x)\n.input t\n"
				".decl m(x)\n.decl nm(x)\n"
				"m(T) :- t(T), re_match(T, \"^(a+)+$\").\n"
				"nm(T) :- t(T), !re_match(T, \"^(a+)+$\").\n";
#define REDOS_TEXT "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"

/* Solves redos_src with t(text) under REGEX_STEPS = steps. */
static maelys_datalog_status_t
redos_solve(const struct dltest_prog *p, uint64_t steps, const char *text,
	    maelys_datalog_result_t **res, maelys_datalog_diagnostic_t *diag)
{
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_arg_t a = maelys_datalog_arg_symbol(text);
	maelys_datalog_status_t st;

	ck_assert_int_eq(
	    maelys_datalog_session_set_budget(
		p->session, MAELYS_DATALOG_BUDGET_REGEX_STEPS, steps),
	    MAELYS_DATALOG_STATUS_OK);
	dltest_add_args(edb, "t", &a, 1);
	st = maelys_datalog_session_solve_edb(p->session, edb, res, diag);
	(void)maelys_datalog_input_edb_free(edb);
	return st;
}

START_TEST(test_builtins_catastrophic_regex_is_regex_limit)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_result_t *res = NULL;
	maelys_datalog_status_t st;
	uint64_t def = 0;
	struct dltest_prog p;

	dltest_prog_open(&p, SOURCE, redos_src);
	st = redos_solve(&p, 1000, REDOS_TEXT, &res, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_REGEX_LIMIT, "%s: %s",
		      maelys_datalog_status_name(st), diag.message);
	ck_assert_ptr_null(res);
	ck_assert_int_eq(diag.status, MAELYS_DATALOG_STATUS_REGEX_LIMIT);
	/* at the first re_match evaluated: m's (5:15) or nm's (6:16) */
	ck_assert_msg((diag.line == 5 && diag.column == 15) ||
			  (diag.line == 6 && diag.column == 16),
		      "at %zu:%zu", diag.line, diag.column);
	ck_assert_str_eq(diag.source, SOURCE);
	ck_assert_ptr_nonnull(strstr(diag.message, "limit"));
	/* the default budget stops it too, rather than running for ages */
	ck_assert_int_eq(maelys_datalog_budget_default(
			     MAELYS_DATALOG_BUDGET_REGEX_STEPS, &def),
			 MAELYS_DATALOG_STATUS_OK);
	st = redos_solve(&p, def, REDOS_TEXT, &res, &diag);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_REGEX_LIMIT);
	ck_assert_ptr_null(res);
	dltest_prog_close(&p);
}
END_TEST

START_TEST(test_builtins_negated_regex_over_limit_is_not_true)
{
	/* only the negated rule: a limit must not read as "no match" */
	static const char src[] = ".decl t(x)\n.input t\n.decl nm(x)\n"
				  "nm(T) :- t(T), !re_match(T, \"^(a+)+$\").\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_result_t *res = NULL;
	maelys_datalog_status_t st;
	struct dltest_prog p;

	dltest_prog_open(&p, SOURCE, src);
	st = redos_solve(&p, 1000, REDOS_TEXT, &res, &diag);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_REGEX_LIMIT);
	ck_assert_ptr_null(res);
	ck_assert_uint_eq(diag.line, 4);
	ck_assert_uint_eq(diag.column, 16);
	dltest_prog_close(&p);
}
END_TEST

START_TEST(test_builtins_larger_regex_budget_lets_ordinary_matches_through)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_result_t *res = NULL;
	maelys_datalog_arg_t a;
	maelys_datalog_status_t st;
	struct dltest_prog p;

	dltest_prog_open(&p, SOURCE, redos_src);
	/* a budget of 2 steps is too small even for an ordinary failure */
	st = redos_solve(&p, 2, "aaaa!", &res, &diag);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_REGEX_LIMIT);
	ck_assert_ptr_null(res);
	/* 1000 steps: the ordinary failure completes and is a real "no" */
	st = redos_solve(&p, 1000, "aaaa!", &res, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "%s", diag.message);
	a = maelys_datalog_arg_symbol("aaaa!");
	ck_assert_int_eq(dltest_query_args(res, "m", &a, 1), 0);
	ck_assert_int_eq(dltest_query_args(res, "nm", &a, 1), 1);
	(void)maelys_datalog_result_free(res);
	/* and an ordinary match is a "yes" */
	st = redos_solve(&p, 1000, "aaaaaaaaaaaaaaaa", &res, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "%s", diag.message);
	a = maelys_datalog_arg_symbol("aaaaaaaaaaaaaaaa");
	ck_assert_int_eq(dltest_query_args(res, "m", &a, 1), 1);
	ck_assert_int_eq(dltest_query_args(res, "nm", &a, 1), 0);
	(void)maelys_datalog_result_free(res);
	/* the session is not poisoned by the earlier limit */
	st = redos_solve(&p, 1000, REDOS_TEXT, &res, &diag);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_REGEX_LIMIT);
	st = redos_solve(&p, 1000, "aa", &res, &diag);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(dltest_count(res, "m", 1), 1);
	(void)maelys_datalog_result_free(res);
	dltest_prog_close(&p);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("builtins");

	tcase_add_test(tc, test_builtins_integer_comparisons_are_numeric);
	tcase_add_test(tc, test_builtins_string_comparisons_are_bytewise);
	tcase_add_test(
	    tc, test_builtins_equality_of_mixed_kinds_is_false_not_error);
	tcase_add_test(tc, test_builtins_equals_binds_unbound_side);
	tcase_add_loop_test(
	    tc, test_builtins_equals_binds_through_chain_in_any_order, 0,
	    (int)(sizeof chain_rules / sizeof *chain_rules));
	tcase_add_test(tc, test_builtins_re_match_table);
	tcase_add_test(tc, test_builtins_prefix_suffix_contains_table);
	tcase_add_test(tc, test_builtins_string_tests_with_constants);
	tcase_add_loop_test(tc, test_builtins_wrong_kind_is_type_error, 0,
			    (int)(sizeof type_cases / sizeof *type_cases));
	tcase_add_test(tc, test_builtins_catastrophic_regex_is_regex_limit);
	tcase_add_test(tc, test_builtins_negated_regex_over_limit_is_not_true);
	tcase_add_test(
	    tc,
	    test_builtins_larger_regex_budget_lets_ordinary_matches_through);
	suite_add_tcase(s, tc);
	return s;
}
