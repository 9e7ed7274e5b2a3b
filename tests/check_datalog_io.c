/* SPDX-License-Identifier: MIT */
/*
 * What a standalone program's I/O asks of the library: the parameters of
 * .input and .output as Souffle writes them (IO="file" quoted or bare,
 * headers=true, rfc4180=true, delimiter=WORD) read into the directive a
 * runner gets; what is not supported refused by name; relation names with
 * Souffle's '?' (`_?`) given input facts; and the widest relation,
 * MAELYS_DATALOG_MAX_ARITY columns, loaded, fed, joined on its last
 * columns and read back, one column more refused with LIMIT.  Also
 * Souffle's body literals `true` and `false`, which the suite's programs
 * of directives use.
 */
#include "runner.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <maelys/datalog.h>

#include "datalog_testutil.h"

#define SOURCE "io.dl"

static maelys_datalog_status_t
load_souffle(const char *src, maelys_datalog_policy_t **policy,
	     maelys_datalog_diagnostic_t *diag)
{
	return maelys_datalog_policy_load_text(NULL, SOURCE, src, strlen(src),
					       MAELYS_DATALOG_LOAD_SOUFFLE,
					       policy, diag);
}

START_TEST(test_io_souffle_parameters_reach_the_directive)
{
	static const char src[] =
	    ".decl a(x:number, y:symbol)\n"
	    ".input a(IO=\"file\", headers=true, delimiter=\", \")\n"
	    ".output a(IO=file, rfc4180=true, filename=\"out.csv\")\n"
	    ".output a(IO=\"stdout\", headers=true, delimiter=BOB)\n"
	    ".output a(headers=false, rfc4180=false)\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_directive_t d;

	ck_assert_msg(load_souffle(src, &policy, &diag) ==
			  MAELYS_DATALOG_STATUS_OK,
		      "%s", diag.message);
	ck_assert_uint_eq(maelys_datalog_policy_directive_count(policy), 4);

	ck_assert_status(maelys_datalog_policy_get_directive(policy, 0, &d),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(d.kind, MAELYS_DATALOG_DIRECTIVE_INPUT);
	ck_assert_int_eq(d.headers, 1);
	ck_assert_int_eq(d.rfc4180, 0);
	ck_assert_int_eq(d.to_stdout, 0);
	ck_assert_str_eq(d.delimiter, ", ");
	ck_assert_str_eq(d.column_names[0], "x");
	ck_assert_str_eq(d.column_names[1], "y");

	ck_assert_status(maelys_datalog_policy_get_directive(policy, 1, &d),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(d.rfc4180, 1);
	ck_assert_int_eq(d.headers, 0);
	ck_assert_str_eq(d.filename, "out.csv");
	ck_assert_ptr_null(d.delimiter);

	ck_assert_status(maelys_datalog_policy_get_directive(policy, 2, &d),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(d.to_stdout, 1);
	ck_assert_int_eq(d.headers, 1);
	ck_assert_str_eq(d.delimiter, "BOB");

	ck_assert_status(maelys_datalog_policy_get_directive(policy, 3, &d),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(d.headers, 0);
	ck_assert_int_eq(d.rfc4180, 0);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* What the library refuses of an I/O directive, and the words that say
 * so. */
static const struct {
	const char *src;
	const char *says;
} bad_params[] = {
    {".decl a(x:number)\n.input a(headers=maybe)\n", "true or false"},
    {".decl a(x:number)\n.input a(rfc4180=1)\n", "a string or a word"},
    {".decl a(x:number)\n.output a(IO=\"sqlite\")\n", "IO=file or IO=stdout"},
    {".decl a(x:number)\n.output a(IO=sqlite, dbname=\"x.db\")\n",
     "IO=file or IO=stdout"},
    {".decl a(x:number)\n.output a(compress=true)\n",
     "unsupported I/O parameter 'compress'"},
    {".decl a(x:number)\n.input a(filename=)\n", "a string or a word"},
};

START_TEST(test_io_unsupported_parameters_are_refused_by_name)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;

	ck_assert_int_eq(load_souffle(bad_params[_i].src, &policy, &diag),
			 MAELYS_DATALOG_STATUS_PARSE);
	ck_assert_ptr_null(policy);
	ck_assert_msg(strstr(diag.message, bad_params[_i].says) != NULL,
		      "%s: '%s' lacks '%s'", bad_params[_i].src, diag.message,
		      bad_params[_i].says);
	ck_assert_msg(strncmp(diag.message, SOURCE ":2:", 5) == 0,
		      "'%s' names no line 2", diag.message);
}
END_TEST

START_TEST(test_io_souffle_question_mark_names_take_input_facts)
{
	static const char src[] = ".decl _?(x:number, y:number)\n"
				  ".input _?\n"
				  ".decl a_?b(x:number)\n"
				  "a_?b(y) :- _?(_, y).\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	const maelys_datalog_arg_t fact[2] = {maelys_datalog_arg_integer(1),
					      maelys_datalog_arg_integer(7)};
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_session_t *session;
	maelys_datalog_input_edb_t *edb;
	maelys_datalog_result_t *res;
	size_t count = 0;

	ck_assert_msg(load_souffle(src, &policy, &diag) ==
			  MAELYS_DATALOG_STATUS_OK,
		      "%s", diag.message);
	session = dltest_new_session(policy);
	edb = dltest_new_edb();
	ck_assert_status(
	    maelys_datalog_input_edb_add(edb, "_?", fact, 2, &diag),
	    MAELYS_DATALOG_STATUS_OK);
	/* a name no syntax reads is still refused */
	ck_assert_status(
	    maelys_datalog_input_edb_add(edb, "a-b", fact, 2, &diag),
	    MAELYS_DATALOG_STATUS_INVALID_ARGUMENT);
	ck_assert_status(
	    maelys_datalog_input_edb_add(edb, "1a", fact, 2, &diag),
	    MAELYS_DATALOG_STATUS_INVALID_ARGUMENT);
	res = dltest_solve(session, edb);
	ck_assert_status(maelys_datalog_result_count(res, "a_?b", 1, &count),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(count, 1);
	(void)dltest_find_i(res, "a_?b", 7);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* Appends printf output to buf (cap bytes, NUL-terminated). */
static void put(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
put(char *buf, size_t cap, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;
	int w;

	va_start(ap, fmt);
	w = vsnprintf(buf + n, cap - n, fmt, ap);
	va_end(ap);
	ck_assert_msg(w >= 0 && (size_t)w < cap - n, "test buffer too small");
}

START_TEST(test_io_widest_relation_joins_on_its_last_columns)
{
	enum { N = MAELYS_DATALOG_MAX_ARITY };
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_arg_t row[N + 1];
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_session_t *session;
	maelys_datalog_input_edb_t *edb;
	maelys_datalog_result_t *res;
	maelys_datalog_fact_view_t view;
	size_t count = 0, got = 0, k, r;
	char src[8192] = "";

	/* w has N columns; pick(c1, cN) holds when w's last two columns
	 * are a key of k; copy is w again, every column */
	put(src, sizeof src, ".decl w(");
	for (k = 1; k <= N; k++)
		put(src, sizeof src, "%sc%zu:number", k > 1 ? ", " : "", k);
	put(src, sizeof src,
	    ")\n.input w\n.decl k(a:number, b:number)\n"
	    "k(%d, %d).\n.decl pick(a:number, b:number)\n"
	    "pick(x1, x%d) :- w(",
	    2 * N - 1, 2 * N, N);
	for (k = 1; k <= N; k++)
		put(src, sizeof src, "%sx%zu", k > 1 ? ", " : "", k);
	put(src, sizeof src, "), k(x%d, x%d).\n.decl copy(", N - 1, N);
	for (k = 1; k <= N; k++)
		put(src, sizeof src, "%sc%zu:number", k > 1 ? ", " : "", k);
	put(src, sizeof src, ")\ncopy(");
	for (k = 1; k <= N; k++)
		put(src, sizeof src, "%sx%zu", k > 1 ? ", " : "", k);
	put(src, sizeof src, ") :- w(");
	for (k = 1; k <= N; k++)
		put(src, sizeof src, "%sx%zu", k > 1 ? ", " : "", k);
	put(src, sizeof src, ").\n");
	ck_assert_msg(load_souffle(src, &policy, &diag) ==
			  MAELYS_DATALOG_STATUS_OK,
		      "%s", diag.message);
	session = dltest_new_session(policy);
	edb = dltest_new_edb();
	/* rows r = 0, 1, 2: column k holds r * N + k; only row 1 ends in
	 * (2N - 1, 2N), k's key */
	for (r = 0; r < 3; r++) {
		for (k = 0; k < N; k++)
			row[k] = maelys_datalog_arg_integer(
			    (int64_t)(r * N + k + 1));
		ck_assert_status(
		    maelys_datalog_input_edb_add(edb, "w", row, N, &diag),
		    MAELYS_DATALOG_STATUS_OK);
	}
	row[N] = maelys_datalog_arg_integer(0);
	ck_assert_status(
	    maelys_datalog_input_edb_add(edb, "w", row, N + 1, &diag),
	    MAELYS_DATALOG_STATUS_LIMIT);
	res = dltest_solve(session, edb);
	ck_assert_status(maelys_datalog_result_count(res, "pick", 2, &count),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(count, 1);
	(void)dltest_find_ii(res, "pick", N + 1, 2 * N);
	ck_assert_status(maelys_datalog_result_count(res, "copy", N, &count),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(count, 3);
	for (r = 0; r < 3; r++) {
		ck_assert_status(maelys_datalog_result_enumerate_at(
				     res, "copy", N, r, &view, 1, &got),
				 MAELYS_DATALOG_STATUS_OK);
		ck_assert_uint_eq(got, 1);
		/* every column came through: the last minus the first */
		ck_assert_int_eq(view.terms[N - 1].as.integer -
				     view.terms[0].as.integer,
				 N - 1);
	}
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_io_souffle_true_and_false_literals)
{
	static const char src[] = ".decl a(x:number)\n"
				  "a(1) :- true.\n"
				  "a(2) :- false.\n"
				  "a(3) :- true, 1 = 1, true.\n"
				  "a(4) :- a(1), false, a(3).\n"
				  "a(x + 4) :- a(x), x < 3, true.\n";
	static const char native[] = ".decl a(x)\na(1) :- true.\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_session_t *session;
	maelys_datalog_input_edb_t *edb;
	maelys_datalog_result_t *res;
	size_t count = 0;

	ck_assert_msg(load_souffle(src, &policy, &diag) ==
			  MAELYS_DATALOG_STATUS_OK,
		      "%s", diag.message);
	session = dltest_new_session(policy);
	edb = dltest_new_edb();
	res = dltest_solve(session, edb);
	/* 1 and 3; then 1 + 4 (3 is not below 3); never 2 or 4 */
	ck_assert_status(maelys_datalog_result_count(res, "a", 1, &count),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(count, 3);
	(void)dltest_find_i(res, "a", 1);
	(void)dltest_find_i(res, "a", 3);
	(void)dltest_find_i(res, "a", 5);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);

	/* in the native dialect `true` is an atom of arity 0, undeclared */
	policy = NULL;
	ck_assert_int_eq(maelys_datalog_policy_load_text(NULL, SOURCE, native,
							 strlen(native), 0u,
							 &policy, &diag),
			 MAELYS_DATALOG_STATUS_UNDECLARED);
	ck_assert_ptr_null(policy);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("io");

	tcase_add_test(tc, test_io_souffle_parameters_reach_the_directive);
	tcase_add_loop_test(tc,
			    test_io_unsupported_parameters_are_refused_by_name,
			    0, (int)(sizeof bad_params / sizeof *bad_params));
	tcase_add_test(tc,
		       test_io_souffle_question_mark_names_take_input_facts);
	tcase_add_test(tc, test_io_widest_relation_joins_on_its_last_columns);
	tcase_add_test(tc, test_io_souffle_true_and_false_literals);
	suite_add_tcase(s, tc);
	return s;
}
