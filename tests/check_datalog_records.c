/* SPDX-License-Identifier: MIT */
/*
 * Records and algebraic data types, in both dialects: record terms built in
 * heads and taken apart in bodies (with '_' fields and repeated variables),
 * nil and recursive types declared in any order, record equality, the text
 * of a record or branch as Souffle prints it (result_record_text) and read
 * from input facts, the records of a policy's own facts, and the programs
 * Souffle refuses (wrong arity, a record in a number column, an unknown
 * branch, a predefined type redefined, two record types mixed).  Expected
 * texts are written by hand from Souffle's documented output format.
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

#define SOURCE "records.dl"

static maelys_datalog_status_t
try_load(const char *src, bool souffle, maelys_datalog_policy_t **policy,
	 maelys_datalog_diagnostic_t *diag)
{
	return maelys_datalog_policy_load_text(
	    NULL, SOURCE, src, strlen(src),
	    souffle ? MAELYS_DATALOG_LOAD_SOUFFLE : 0u, policy, diag);
}

static void
open_prog(struct dltest_prog *p, const char *src, bool souffle)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_status_t st;

	memset(p, 0, sizeof *p);
	st = try_load(src, souffle, &p->policy, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "load %s: %s: %s", src,
		      maelys_datalog_status_name(st), diag.message);
	p->session = dltest_new_session(p->policy);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every row of pred as text, rows sorted and joined by '\n', columns by
 * '\t': integers in decimal, symbols as they are, records and branches as
 * result_record_text prints them. */
static char *
rows_text(const maelys_datalog_result_t *res, const char *pred, size_t arity)
{
	maelys_datalog_fact_view_t rows[64];
	size_t n = 0, i, k, total = 1;
	char *lines[64], *out;

	ck_assert_status(
	    maelys_datalog_result_enumerate(res, pred, arity, rows, 64, &n),
	    MAELYS_DATALOG_STATUS_OK);
	for (i = 0; i < n; i++) {
		char line[1024] = "";
		size_t used = 0;

		for (k = 0; k < arity; k++) {
			const maelys_datalog_term_t *t = &rows[i].terms[k];
			char cell[512];
			const char *text = NULL;
			size_t len = 0;

			if (t->kind == MAELYS_DATALOG_TERM_INTEGER) {
				snprintf(cell, sizeof cell, "%lld",
					 (long long)t->as.integer);
			} else if (maelys_datalog_result_symbol_text(
				       res, t->as.symbol_id, &text, &len) ==
				   MAELYS_DATALOG_STATUS_OK) {
				snprintf(cell, sizeof cell, "%.*s", (int)len,
					 text);
			} else {
				ck_assert_status(
				    maelys_datalog_result_record_text(
					res, t->as.symbol_id, cell, sizeof cell,
					&len),
				    MAELYS_DATALOG_STATUS_OK);
				ck_assert_uint_eq(len, strlen(cell));
			}
			used +=
			    (size_t)snprintf(line + used, sizeof line - used,
					     "%s%s", k > 0 ? "\t" : "", cell);
		}
		lines[i] = malloc(strlen(line) + 1);
		ck_assert_ptr_nonnull(lines[i]);
		memcpy(lines[i], line, strlen(line) + 1);
		total += strlen(line) + 1;
	}
	qsort(lines, n, sizeof *lines, cmp_str);
	out = calloc(1, total);
	ck_assert_ptr_nonnull(out);
	for (i = 0; i < n; i++) {
		if (i > 0)
			strcat(out, "\n");
		strcat(out, lines[i]);
		free(lines[i]);
	}
	return out;
}

static void
assert_rows(const maelys_datalog_result_t *res, const char *pred, size_t arity,
	    const char *want)
{
	char *got = rows_text(res, pred, arity);

	ck_assert_msg(strcmp(got, want) == 0, "%s: got\n%s\nwant\n%s", pred,
		      got, want);
	free(got);
}

/* Solves src with no input and checks pred's rows. */
static void
expect_rows(const char *src, bool souffle, const char *pred, size_t arity,
	    const char *want)
{
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	struct dltest_prog p;

	open_prog(&p, src, souffle);
	res = dltest_prog_solve(&p, edb);
	assert_rows(res, pred, arity, want);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}

START_TEST(test_records_built_and_taken_apart)
{
	static const char src[] = ".type Pair = [a: number, b: symbol]\n"
				  ".decl q(x: number, y: symbol)\n"
				  "q(1, \"one\"). q(2, \"two\").\n"
				  ".decl p(r: Pair)\n"
				  "p([x, y]) :- q(x, y).\n"
				  ".decl first(x: number)\n"
				  "first(x) :- p([x, _]).\n"
				  ".decl same(x: number)\n"
				  "same(x) :- p(r), r = [x, \"two\"].\n";

	expect_rows(src, true, "p", 1, "[1, one]\n[2, two]");
	expect_rows(src, true, "first", 1, "1\n2");
	expect_rows(src, true, "same", 1, "2");
}
END_TEST

/* A recursive type used before it is declared; nil ends it; a repeated
 * variable in a record is an equality. */
START_TEST(test_records_recursive_lists_and_nil)
{
	static const char src[] =
	    ".decl list(l: List, n: number)\n"
	    ".type List = [head: number, tail: List]\n"
	    "list(nil, 0).\n"
	    "list([n + 1, l], n + 1) :- list(l, n), n < 3.\n"
	    ".decl heads(h: number)\n"
	    "heads(h) :- list([h, [_, _]], _).\n"
	    ".decl twice(l: List)\n"
	    "twice([x, [x, nil]]) :- list([x, _], _).\n"
	    ".decl dup(x: number)\n"
	    "dup(x) :- twice([x, [x, _]]).\n";

	expect_rows(src, true, "list", 2,
		    "[1, nil]\t1\n[2, [1, nil]]\t2\n[3, [2, [1, nil]]]\t3\n"
		    "nil\t0");
	expect_rows(src, true, "heads", 1, "2\n3");
	expect_rows(src, true, "dup", 1, "1\n2\n3");
}
END_TEST

/* = and != compare records by value; a record built twice is the same. */
START_TEST(test_records_equality)
{
	static const char src[] =
	    ".type P = [a: number, b: number]\n"
	    ".decl n(x: number)\nn(1). n(2).\n"
	    ".decl p(r: P)\np([x, y]) :- n(x), n(y).\n"
	    ".decl ne(r: P)\nne(r) :- p(r), r != [1, 1].\n"
	    ".decl eq(r: P)\neq(r) :- p(r), p(s), r = s, s = [2, 1].\n";

	expect_rows(src, true, "p", 1, "[1, 1]\n[1, 2]\n[2, 1]\n[2, 2]");
	expect_rows(src, true, "ne", 1, "[1, 2]\n[2, 1]\n[2, 2]");
	expect_rows(src, true, "eq", 1, "[2, 1]");
}
END_TEST

/* Algebraic data types: branches with fields and without ($B and $B()),
 * printed $A(1, $B); a branch matches only itself. */
START_TEST(test_records_algebraic_data_types)
{
	static const char src[] =
	    ".type T = A {x: number, y: T} | B {} | C {s: symbol}\n"
	    ".decl t(v: T)\n"
	    "t($A(1, $B)). t($A(2, $C(\"z w\"))). t($B()).\n"
	    ".decl xs(x: number)\nxs(x) :- t($A(x, $B)).\n"
	    ".decl isb(n: number)\nisb(1) :- t(v), v = $B.\n"
	    ".decl wrap(v: T)\nwrap($A(x + 10, v)) :- t(v), t($A(x, _)), "
	    "x = 1.\n";

	expect_rows(src, true, "t", 1, "$A(1, $B)\n$A(2, $C(z w))\n$B");
	expect_rows(src, true, "xs", 1, "1");
	expect_rows(src, true, "isb", 1, "1");
	expect_rows(src, true, "wrap", 1,
		    "$A(11, $A(1, $B))\n$A(11, $A(2, $C(z w)))\n$A(11, $B)");
}
END_TEST

/* Input facts give a record column as text, read as Souffle reads it
 * (spaces inside a symbol kept); text that is no such value is refused. */
START_TEST(test_records_read_from_input_facts)
{
	static const char src[] =
	    ".type L = [h: symbol, t: L]\n"
	    ".type T = A {x: number} | B {l: L}\n"
	    ".decl in(l: L, v: T)\n.input in\n"
	    ".decl out(h: symbol, v: T)\nout(h, v) :- in([h, _], v).\n";
	static const char *const bad[] = {
	    "[a, nil", "[a]", "[a, nil] x", "nil nil", "$Z(1)", "[a, [b]]",
	};
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res = NULL;
	maelys_datalog_arg_t args[2];
	struct dltest_prog p;
	size_t i;

	open_prog(&p, src, true);
	args[0] = maelys_datalog_arg_symbol("[meow meow, [x, nil]]");
	args[1] = maelys_datalog_arg_symbol("$A(-7)");
	dltest_add_args(edb, "in", args, 2);
	args[0] = maelys_datalog_arg_symbol("[y,nil]");
	args[1] = maelys_datalog_arg_symbol("$B([q, nil])");
	dltest_add_args(edb, "in", args, 2);
	res = dltest_prog_solve(&p, edb);
	assert_rows(res, "in", 2,
		    "[meow meow, [x, nil]]\t$A(-7)\n[y, nil]\t$B([q, nil])");
	assert_rows(res, "out", 2, "meow meow\t$A(-7)\ny\t$B([q, nil])");
	/* a query gives a record column as its text too */
	{
		static const char *const q[][3] = {
		    {"[y, nil]", "$B([q, nil])", "1"},
		    {"[y,nil]", "$B( [q, nil] )", "1"},
		    {"[y, nil]", "$B([r, nil])", "0"},
		    {"[y, nil]", "$A(-7)", "0"},
		    {"[y", "$A(-7)", "0"},
		};
		int found = -1;

		for (i = 0; i < sizeof q / sizeof *q; i++) {
			args[0] = maelys_datalog_arg_symbol(q[i][0]);
			args[1] = maelys_datalog_arg_symbol(q[i][1]);
			ck_assert_status(maelys_datalog_result_query(
					     res, "in", args, 2, &found),
					 MAELYS_DATALOG_STATUS_OK);
			ck_assert_msg(found == q[i][2][0] - '0',
				      "query in(%s, %s): %d", q[i][0], q[i][1],
				      found);
		}
	}
	(void)maelys_datalog_result_free(res);
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		maelys_datalog_status_t st;

		ck_assert_status(maelys_datalog_input_edb_clear(edb),
				 MAELYS_DATALOG_STATUS_OK);
		args[0] = maelys_datalog_arg_symbol(bad[i]);
		args[1] = maelys_datalog_arg_symbol("$A(1)");
		if (strchr(bad[i], '$') != NULL) {
			args[0] = maelys_datalog_arg_symbol("nil");
			args[1] = maelys_datalog_arg_symbol(bad[i]);
		}
		dltest_add_args(edb, "in", args, 2);
		res = NULL;
		st = maelys_datalog_session_solve_edb(p.session, edb, &res,
						      &diag);
		ck_assert_msg(st == MAELYS_DATALOG_STATUS_PARSE,
			      "%s: got %s (%s)", bad[i],
			      maelys_datalog_status_name(st), diag.message);
		ck_assert_ptr_null(res);
		ck_assert_ptr_nonnull(strstr(diag.message, "record text"));
	}
	/* a number given for a record column is no text of a record */
	ck_assert_status(maelys_datalog_input_edb_clear(edb),
			 MAELYS_DATALOG_STATUS_OK);
	args[0] = maelys_datalog_arg_integer(7);
	args[1] = maelys_datalog_arg_symbol("$A(1)");
	dltest_add_args(edb, "in", args, 2);
	res = NULL;
	ck_assert_status(
	    maelys_datalog_session_solve_edb(p.session, edb, &res, &diag),
	    MAELYS_DATALOG_STATUS_TYPE);
	ck_assert_ptr_null(res);
	ck_assert_ptr_nonnull(strstr(diag.message, "holds a record"));
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* The native dialect: the same declarations and terms, variables in
 * upper case. */
START_TEST(test_records_native_dialect)
{
	static const char src[] =
	    ".type pair = [a: number, b: symbol]\n"
	    ".decl q(x: number, y: symbol)\nq(1, one).\n"
	    ".decl p(r: pair)\np([X, Y]) :- q(X, Y).\n"
	    ".decl back(x: number, y: symbol)\nback(X, Y) :- p([X, Y]).\n";

	expect_rows(src, false, "p", 1, "[1, one]");
	expect_rows(src, false, "back", 2, "1\tone");
}
END_TEST

/* A record too small for the caller's buffer: LIMIT and the length it
 * needs; a string is no record. */
START_TEST(test_records_text_buffer)
{
	static const char src[] = ".type P = [a: number, b: symbol]\n"
				  ".decl p(r: P, s: symbol)\n"
				  "p([12345, \"abc\"], \"s\").\n";
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_fact_view_t row;
	maelys_datalog_result_t *res;
	struct dltest_prog p;
	char buf[8];
	size_t n = 0, len = 0;

	open_prog(&p, src, true);
	res = dltest_prog_solve(&p, edb);
	ck_assert_status(
	    maelys_datalog_result_enumerate(res, "p", 2, &row, 1, &n),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_status(
	    maelys_datalog_result_record_text(res, row.terms[0].as.symbol_id,
					      buf, sizeof buf, &len),
	    MAELYS_DATALOG_STATUS_LIMIT);
	ck_assert_uint_eq(len, strlen("[12345, abc]"));
	ck_assert_uint_eq(strlen(buf), sizeof buf - 1);
	ck_assert_status(
	    maelys_datalog_result_record_text(res, row.terms[1].as.symbol_id,
					      buf, sizeof buf, &len),
	    MAELYS_DATALOG_STATUS_INVALID_ARGUMENT);
	ck_assert_status(
	    maelys_datalog_result_record_text(NULL, row.terms[0].as.symbol_id,
					      buf, sizeof buf, &len),
	    MAELYS_DATALOG_STATUS_INVALID_ARGUMENT);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* ord of a record or an ADT value is a number, distinct for distinct
 * values (the numbers are this engine's), as Souffle's records7 and
 * adt_access count them; ord of a number is the number. */
START_TEST(test_records_ord_tells_values_apart)
{
	static const char src[] =
	    ".type R = [x: number, y: number]\n"
	    ".type T = I {x: number, t: T} | K {}\n"
	    ".decl a(r: R)\na([1, 2]). a([2, 3]). a([1, 2]).\n"
	    ".decl t(v: T)\nt($I(1, $I(2, $K()))).\nt(v) :- t($I(_, v)).\n"
	    ".decl o(n: number)\no(ord(r)) :- a(r).\n"
	    ".decl p(n: number)\np(ord(v)) :- t(v).\n"
	    ".decl q(n: number)\nq(ord(x) + 1) :- a([x, _]).\n"
	    ".decl same(n: number)\nsame(ord(r)) :- a(r), r = [1, 2].\n";
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	struct dltest_prog p;
	size_t n = 0;

	open_prog(&p, src, true);
	res = dltest_prog_solve(&p, edb);
	ck_assert_status(maelys_datalog_result_count(res, "o", 1, &n),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(n, 2);
	ck_assert_status(maelys_datalog_result_count(res, "p", 1, &n),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(n, 3);
	ck_assert_status(maelys_datalog_result_count(res, "same", 1, &n),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(n, 1);
	assert_rows(res, "q", 1, "2\n3");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* `_ = term` holds when the term has a value (Souffle's
 * type_system_records: `E(5) :- _ = [1].`). */
START_TEST(test_records_underscore_equals_a_term)
{
	expect_rows(".decl e(x: number)\ne(5) :- _ = [1].\n"
		    "e(6) :- [[_], 3] = [[[1]], 3].\n"
		    "e(7) :- [1] = _.\n",
		    true, "e", 1, "5\n6\n7");
}
END_TEST

/* A symbol field holding a NUL is copied into the record's text byte for
 * byte: the text is read by its length, and the NUL is inside it. */
START_TEST(test_records_text_keeps_a_nul_of_a_symbol)
{
	static const char src[] = ".type R = [s: symbol, n: number]\n"
				  ".decl in(s: symbol)\n.input in\n"
				  ".decl out(r: R)\nout([s, 7]) :- in(s).\n";
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_fact_view_t row;
	maelys_datalog_result_t *res;
	maelys_datalog_arg_t arg;
	struct dltest_prog p;
	char buf[32];
	size_t n = 0, len = 0;

	open_prog(&p, src, true);
	arg.kind = MAELYS_DATALOG_TERM_SYMBOL;
	arg.as.symbol.text = "a\0b";
	arg.as.symbol.length = 3;
	dltest_add_args(edb, "in", &arg, 1);
	res = dltest_prog_solve(&p, edb);
	ck_assert_status(
	    maelys_datalog_result_enumerate(res, "out", 1, &row, 1, &n),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_status(
	    maelys_datalog_result_record_text(res, row.terms[0].as.symbol_id,
					      buf, sizeof buf, &len),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(len, 8);
	ck_assert_int_eq(memcmp(buf, "[a\0b, 7]", 9), 0);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* Unsigned and float fields, as Souffle has them: built in a rule, matched
 * with a bound (a constant) and an unbound field, compared and computed
 * on as their kind (x < 1 as floats, u > 10 as unsigned), printed as
 * Souffle prints them (a float by maelys_datalog_float_text: 2.0 is "2");
 * a plain 1 in a float field is 1.0. */
START_TEST(test_records_unsigned_and_float_fields)
{
	static const char src[] =
	    ".type R = [f: float, u: unsigned, n: number]\n"
	    ".type H = [h: float]\n"
	    ".type T = F {x: float} | U {y: unsigned}\n"
	    ".decl fl(x: float)\nfl(1.5). fl(-0.25). fl(2).\n"
	    ".decl un(x: unsigned)\nun(7u). un(0xffffffffffffffff).\n"
	    ".decl r(v: R)\nr([x, u, -1]) :- fl(x), un(u).\n"
	    ".decl bound(v: R)\nbound([1.5, u, n]) :- r([1.5, u, n]).\n"
	    ".decl half(v: H)\nhalf([x / 2.0]) :- r([x, _, _]).\n"
	    ".decl small(v: H)\nsmall([x]) :- r([x, _, _]), x < 1.\n"
	    ".decl big(v: T)\nbig($U(u)) :- r([_, u, _]), u > 10.\n"
	    ".decl t(v: T)\nt($F(1)). t($U(3)). t(v) :- big(v).\n"
	    ".decl one(v: T)\none(v) :- t(v), v = $F(1.0).\n";

	expect_rows(src, true, "r", 1,
		    "[-0.25, 18446744073709551615, -1]\n[-0.25, 7, -1]\n"
		    "[1.5, 18446744073709551615, -1]\n[1.5, 7, -1]\n"
		    "[2, 18446744073709551615, -1]\n[2, 7, -1]");
	expect_rows(src, true, "bound", 1,
		    "[1.5, 18446744073709551615, -1]\n[1.5, 7, -1]");
	expect_rows(src, true, "half", 1, "[-0.125]\n[0.75]\n[1]");
	expect_rows(src, true, "small", 1, "[-0.25]");
	expect_rows(src, true, "big", 1, "$U(18446744073709551615)");
	expect_rows(src, true, "t", 1, "$F(1)\n$U(18446744073709551615)\n$U(3)");
	expect_rows(src, true, "one", 1, "$F(1)");
}
END_TEST

/* An input fact's record text with unsigned and float fields, as Souffle
 * prints them ("3", "1e+20", "-inf") or as a literal is written ("3.0"); a query
 * finds the value whichever way it is written; text of the wrong kind is
 * refused. */
START_TEST(test_records_unsigned_and_float_fields_read)
{
	static const char src[] =
	    ".type R = [f: float, u: unsigned, n: number]\n"
	    ".decl in(v: R)\n.input in\n"
	    ".decl fs(v: R)\nfs([f * 2.0, u + 1, n]) :- in([f, u, n]).\n";
	static const char *const bad[] = {
	    "[x, 1, 1]", "[1.0, -1, 1]", "[1.0, 1.5, 1]", "[infx, 1, 1]",
	    "[-nan-, 1, 1]", "[- inf, 1, 1]",
	    "[1.0, 18446744073709551616, 1]", "[1e999, 1, 1]", "[1.0, 1, 1.0]",
	};
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res = NULL;
	maelys_datalog_arg_t arg;
	struct dltest_prog p;
	int found = -1;
	size_t i;

	open_prog(&p, src, true);
	arg = maelys_datalog_arg_symbol("[0.1, 18446744073709551615, -3]");
	dltest_add_args(edb, "in", &arg, 1);
	arg = maelys_datalog_arg_symbol("[ 1e+20 , 0 , 0 ]");
	dltest_add_args(edb, "in", &arg, 1);
	arg = maelys_datalog_arg_symbol("[-3, 1, 2]");
	dltest_add_args(edb, "in", &arg, 1);
	/* an infinity as the printer writes it reads back */
	arg = maelys_datalog_arg_symbol("[-inf, 7, 7]");
	dltest_add_args(edb, "in", &arg, 1);
	res = dltest_prog_solve(&p, edb);
	assert_rows(res, "in", 1,
		    "[-3, 1, 2]\n[-inf, 7, 7]\n"
		    "[0.1, 18446744073709551615, -3]\n[1e+20, 0, 0]");
	assert_rows(res, "fs", 1,
		    "[-6, 2, 2]\n[-inf, 8, 7]\n[0.2, 0, -3]\n[2e+20, 1, 0]");
	arg = maelys_datalog_arg_symbol("[-3.0, 1, 2]");
	ck_assert_status(maelys_datalog_result_query(res, "in", &arg, 1, &found),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(found, 1);
	(void)maelys_datalog_result_free(res);
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		maelys_datalog_status_t st;

		ck_assert_status(maelys_datalog_input_edb_clear(edb),
				 MAELYS_DATALOG_STATUS_OK);
		arg = maelys_datalog_arg_symbol(bad[i]);
		dltest_add_args(edb, "in", &arg, 1);
		res = NULL;
		st = maelys_datalog_session_solve_edb(p.session, edb, &res,
						      &diag);
		ck_assert_msg(st == MAELYS_DATALOG_STATUS_PARSE,
			      "%s: got %s (%s)", bad[i],
			      maelys_datalog_status_name(st), diag.message);
		ck_assert_ptr_null(res);
		ck_assert_ptr_nonnull(strstr(diag.message, "record text"));
	}
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* The one printer of a float: Souffle's %g style with the fewest digits
 * that read back, '.' as the point, truncated to the buffer. */
START_TEST(test_records_float_text)
{
	static const struct {
		double d;
		const char *text;
	} cases[] = {
	    {0.1, "0.1"},	  {3.0, "3"},	       {-1.5, "-1.5"},
	    {1e20, "1e+20"},	  {0.0009765625, "0.0009765625"},
	    {1.0 / 3.0, "0.3333333333333333"},
	    {-2.2250738585072014e-308, "-2.2250738585072014e-308"},
	};
	char buf[MAELYS_DATALOG_FLOAT_TEXT_MAX];
	size_t i, n;

	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		n = maelys_datalog_float_text(cases[i].d, buf, sizeof buf);
		ck_assert_str_eq(buf, cases[i].text);
		ck_assert_uint_eq(n, strlen(cases[i].text));
	}
	n = maelys_datalog_float_text(-1.5, buf, 3);
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(buf, "-1");
	ck_assert_uint_eq(maelys_datalog_float_text(0.25, NULL, 0), 4);
}
END_TEST

static const struct {
	const char *src;
	maelys_datalog_status_t want;
	const char *what;
} invalid_cases[] = {
    /* _ = term holds when the term has a value; _ in any other
     * comparison is refused, as Souffle refuses it */
    {".decl a(x: number)\na(6) :- [1] != _.\n", MAELYS_DATALOG_STATUS_UNSAFE,
     "'_' in a comparison never has a value"},
    {".decl a(x: number)\na(1).\na(x) :- a(x), x > _.\n",
     MAELYS_DATALOG_STATUS_UNSAFE, "'_' in a comparison never has a value"},
    {".type P = [a: number]\n.decl p(r: P)\np([1.5]).\n",
     MAELYS_DATALOG_STATUS_TYPE, "a float literal where a number is"},
    {".type P = [a: unsigned]\n.decl p(r: P)\np([1.5]).\n",
     MAELYS_DATALOG_STATUS_TYPE, "a float literal where an unsigned is"},
    {".type P = [a: number]\n.type Q = [a: float]\n.decl p(r: P)\n"
     ".decl q(r: Q)\np([1]).\nq([x]) :- p([x]).\n",
     MAELYS_DATALOG_STATUS_TYPE, "x is a number and a float"},
    /* the field's kind seen only by the record inference: refused, not
     * computed on as a number */
    {".type P = [a: float]\n.decl p(r: P)\n.decl q(r: P)\n"
     "p([1.5]).\nq(r) :- p(r), r = [x], x < 2.\n",
     MAELYS_DATALOG_STATUS_TYPE, "typed as a number, not as a float"},
    {".type P = [a: number, b: number]\n.decl p(r: P)\np([1]).\n",
     MAELYS_DATALOG_STATUS_ARITY, "has 2 fields, not 1"},
    {".type P = [a: number, b: number]\n.decl p(r: P)\n.decl q(x: number)\n"
     "q(1).\np([x, x, x]) :- q(x).\n",
     MAELYS_DATALOG_STATUS_ARITY, "has 3 fields"},
    {".type P = [a: number]\n.decl p(x: number)\n.decl q(x: number)\n"
     "q(1).\np([x]) :- q(x).\n",
     MAELYS_DATALOG_STATUS_TYPE, "which holds a number"},
    {".type P = [a: number]\n.decl p(x: number)\np(nil).\n",
     MAELYS_DATALOG_STATUS_TYPE, "nil where a number is expected"},
    {".type P = [a: number]\n.decl p(r: P)\np([\"s\"]).\n",
     MAELYS_DATALOG_STATUS_TYPE, "a symbol where a number is expected"},
    {".type P = [a: number]\n.decl p(r: P)\np(1).\n",
     MAELYS_DATALOG_STATUS_TYPE, "a number where a record is expected"},
    {".type T = A {x: number}\n.decl p(r: T)\np($Z(1)).\n",
     MAELYS_DATALOG_STATUS_UNDECLARED, "unknown branch $Z"},
    {".type T = A {x: number}\n.decl p(r: T)\np($A(1, 2)).\n",
     MAELYS_DATALOG_STATUS_ARITY, "has 1 field, not 2"},
    {".type T = A {x: number}\n.type U = A {y: number}\n.decl p(r: T)\n",
     MAELYS_DATALOG_STATUS_REDECLARED, "branch A"},
    {".type symbol = [x: number]\n.decl p(x: number)\n",
     MAELYS_DATALOG_STATUS_REDECLARED, "predefined type"},
    {".type L = [h: number, t: L]\n.type S <: L\n.decl p(x: number)\n",
     MAELYS_DATALOG_STATUS_TYPE, "subtype 'S'"},
    {".type P = [a: number]\n.type Q = [a: number]\n.decl p(r: P)\n"
     ".decl q(r: Q)\nq([1]).\np(r) :- q(r).\n",
     MAELYS_DATALOG_STATUS_TYPE, "of record type"},
    {".type P = [a: Nope]\n.decl p(r: P)\n", MAELYS_DATALOG_STATUS_PARSE,
     "unknown type 'Nope'"},
    {".decl p(r: Nope)\n", MAELYS_DATALOG_STATUS_PARSE, "unknown type 'Nope'"},
    /* types.c's refusals of any .type */
    {".type A = B\n.type B = A\n.decl p(x: number)\n",
     MAELYS_DATALOG_STATUS_TYPE, "infinite descent"},
    {".type A <: Nope\n.decl p(x: number)\n",
     MAELYS_DATALOG_STATUS_UNDECLARED, "undefined type Nope"},
    {".type P = [a: number]\n.decl p(r: P)\n.decl q(x: number)\n"
     "q(1).\np(r) :- q(x), r = [x + [1]].\n",
     MAELYS_DATALOG_STATUS_TYPE, "a record in the arithmetic term"},
    {".type P = [a: number, a: number]\n.decl p(r: P)\n",
     MAELYS_DATALOG_STATUS_REDECLARED, "field 'a' is named twice"},
};

/* Programs Souffle refuses are refused at load, with the reason. */
START_TEST(test_records_invalid_programs_refused)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st;

	st = try_load(invalid_cases[_i].src, true, &policy, &diag);
	ck_assert_msg(st == invalid_cases[_i].want, "%s: got %s (%s), want %s",
		      invalid_cases[_i].src, maelys_datalog_status_name(st),
		      diag.message,
		      maelys_datalog_status_name(invalid_cases[_i].want));
	ck_assert_ptr_null(policy);
	ck_assert_msg(strstr(diag.message, invalid_cases[_i].what) != NULL,
		      "message \"%s\" lacks \"%s\"", diag.message,
		      invalid_cases[_i].what);
}
END_TEST

/* A rule building ever longer lists stops at a budget, not a crash; the
 * records it built count against the working memory. */
START_TEST(test_records_endless_construction_stops_at_a_budget)
{
	static const char src[] = ".type L = [h: number, t: L]\n"
				  ".decl l(x: L)\nl(nil).\n"
				  "l([1, x]) :- l(x).\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res = NULL;
	struct dltest_prog p;
	maelys_datalog_status_t st;

	open_prog(&p, src, true);
	ck_assert_status(maelys_datalog_session_set_budget(
			     p.session, MAELYS_DATALOG_BUDGET_MEMORY, 1u << 20),
			 MAELYS_DATALOG_STATUS_OK);
	st = maelys_datalog_session_solve_edb(p.session, edb, &res, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_BUDGET_MEMORY ||
			  st == MAELYS_DATALOG_STATUS_BUDGET_ITERATIONS ||
			  st == MAELYS_DATALOG_STATUS_BUDGET_TUPLES,
		      "got %s: %s", maelys_datalog_status_name(st),
		      diag.message);
	ck_assert_ptr_null(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* why_not follows record terms: the head's record is taken apart into
 * the body's variables, and a record of another branch refutes. */
START_TEST(test_records_why_not)
{
	static const char src[] =
	    ".decl q(x: number, y: symbol)\n.input q\n"
	    ".type P = [a: number, b: symbol]\n"
	    ".type T = A {x: number} | B {x: number}\n"
	    ".decl p(r: P)\np([x, y]) :- q(x, y), x > 1.\n"
	    ".decl t(v: T)\nt($A(x)) :- q(x, _).\nt($B(2)).\n"
	    ".decl u(x: number)\nu(x) :- t($A(x)), p([x, _]).\n";
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_session_t *session;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	maelys_datalog_arg_t arg;
	int head = -1;
	size_t failed = 99;

	ck_assert_status(try_load(src, true, &policy, &diag),
			 MAELYS_DATALOG_STATUS_OK);
	session =
	    dltest_new_session_flags(policy, MAELYS_DATALOG_SESSION_PROVENANCE);
	{
		maelys_datalog_arg_t a[2];

		a[0] = maelys_datalog_arg_integer(1);
		a[1] = maelys_datalog_arg_symbol("a");
		dltest_add_args(edb, "q", a, 2);
		a[0] = maelys_datalog_arg_integer(2);
		a[1] = maelys_datalog_arg_symbol("b");
		dltest_add_args(edb, "q", a, 2);
	}
	res = dltest_solve(session, edb);
	assert_rows(res, "p", 1, "[2, b]");
	assert_rows(res, "u", 1, "2");
	arg = maelys_datalog_arg_symbol("[2, b]");
	ck_assert_status(
	    maelys_datalog_result_why_not(res, 0, "p", &arg, 1, &head, &failed),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(head, 1);
	ck_assert_uint_eq(failed, 2); /* the whole body held */
	/* u(1): t($A(1)) holds, p([1, _]) does not */
	arg = maelys_datalog_arg_integer(1);
	ck_assert_status(
	    maelys_datalog_result_why_not(res, 2, "u", &arg, 1, &head, &failed),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(head, 1);
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
	TCase *tc = tcase_create("records");

	tcase_add_test(tc, test_records_built_and_taken_apart);
	tcase_add_test(tc, test_records_recursive_lists_and_nil);
	tcase_add_test(tc, test_records_equality);
	tcase_add_test(tc, test_records_algebraic_data_types);
	tcase_add_test(tc, test_records_read_from_input_facts);
	tcase_add_test(tc, test_records_native_dialect);
	tcase_add_test(tc, test_records_text_buffer);
	tcase_add_test(tc, test_records_text_keeps_a_nul_of_a_symbol);
	tcase_add_test(tc, test_records_ord_tells_values_apart);
	tcase_add_test(tc, test_records_underscore_equals_a_term);
	tcase_add_test(tc, test_records_unsigned_and_float_fields);
	tcase_add_test(tc, test_records_unsigned_and_float_fields_read);
	tcase_add_test(tc, test_records_float_text);
	tcase_add_loop_test(
	    tc, test_records_invalid_programs_refused, 0,
	    (int)(sizeof invalid_cases / sizeof *invalid_cases));
	tcase_add_test(tc, test_records_endless_construction_stops_at_a_budget);
	tcase_add_test(tc, test_records_why_not);
	suite_add_tcase(s, tc);
	return s;
}
