/* SPDX-License-Identifier: MIT */
/*
 * Warnings of a load (maelys_datalog_policy_warning_count, _get_warning):
 * one case for each kind, with its kind, position and message as a tool
 * prints them; the cases that look alike and must not warn (a comparison
 * with a variable, a fact that matches, a helper defined by a rule, a
 * negated literal, an .input relation, the walkthrough's policy); the bound
 * on what is kept; and a load with warnings is a load like any other.
 */
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <maelys/datalog.h>

#include "datalog_testutil.h"

#define ST_OK      MAELYS_DATALOG_STATUS_OK
#define ST_INVALID MAELYS_DATALOG_STATUS_INVALID_ARGUMENT

/* The walkthrough's predicates without its vocabulary, as maelys-pty's
 * domain has none: any string may be written. */
static const maelys_datalog_domain_t warn_domain = {
    "warnings_pty", level1_preds, sizeof level1_preds / sizeof *level1_preds,
    NULL, 0};

/* Loads `src` (under the Level 1 domain when `domain`, else standalone in
 * the native dialect) and asserts it loaded. */
static maelys_datalog_policy_t *
load(int domain, const char *src)
{
	if (domain)
		ck_assert_status(maelys_datalog_domain_register(&warn_domain),
				 ST_OK);
	return dltest_load(domain ? warn_domain.name : NULL, "w.dl", src);
}

/* Asserts the policy has exactly one warning, of `kind`, at line:col, with
 * `message`. */
static void
assert_one_warning(const maelys_datalog_policy_t *policy,
		   maelys_datalog_warning_kind_t kind, size_t line, size_t col,
		   const char *message)
{
	maelys_datalog_diagnostic_t w = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_warning_kind_t got;

	ck_assert_uint_eq(maelys_datalog_policy_warning_count(policy), 1);
	ck_assert_status(maelys_datalog_policy_get_warning(policy, 0, &got, &w),
			 ST_OK);
	ck_assert_int_eq(got, kind);
	ck_assert_int_eq(w.status, ST_OK);
	ck_assert_str_eq(w.source, "w.dl");
	ck_assert_uint_eq(w.line, line);
	ck_assert_uint_eq(w.column, col);
	ck_assert_str_eq(w.message, message);
}

static void
assert_no_warning(const maelys_datalog_policy_t *policy)
{
	maelys_datalog_diagnostic_t w = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_warning_kind_t got;
	size_t n = maelys_datalog_policy_warning_count(policy);

	if (n > 0)
		ck_assert_status(
		    maelys_datalog_policy_get_warning(policy, 0, &got, &w),
		    ST_OK);
	ck_assert_msg(n == 0, "%zu warnings, the first: %s", n, w.message);
}

/* A lower-case name in the native dialect is a string. */
START_TEST(test_warnings_constant_comparison_of_bare_name)
{
	maelys_datalog_policy_t *policy =
	    load(1, "allow(C) :- command(C), c = \"curl\".\n");

	assert_one_warning(
	    policy, MAELYS_DATALOG_WARNING_CONSTANT_COMPARISON, 1, 25,
	    "w.dl:1:25: warning: comparison of two constants \"c\" = \"curl\" "
	    "is never true; a variable starts with an upper-case letter or _");
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_warnings_constant_comparison_always_true)
{
	maelys_datalog_policy_t *policy =
	    load(0, ".decl in(a)\n.decl out(a)\n.input in\n"
		    "out(X) :-\n  in(X),\n  1 < 2.\n");

	assert_one_warning(policy, MAELYS_DATALOG_WARNING_CONSTANT_COMPARISON,
			   6, 3,
			   "w.dl:6:3: warning: comparison of two constants "
			   "1 < 2 is always true");
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_warnings_undefined_predicate_read_by_a_rule)
{
	maelys_datalog_policy_t *policy =
	    load(1, ".decl helper(c)\n"
		    "allow(C) :- command(C), helper(C).\n");

	assert_one_warning(policy, MAELYS_DATALOG_WARNING_UNDEFINED_PREDICATE,
			   2, 25,
			   "w.dl:2:25: warning: 'helper/1' is declared but no "
			   "fact or rule defines it: helper(C) is never true");
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_warnings_undefined_predicate_negated_is_always_true)
{
	maelys_datalog_policy_t *policy =
	    load(1, ".decl blocked(c)\n"
		    "allow(C) :- command(C), not(blocked(C)).\n");

	assert_one_warning(policy, MAELYS_DATALOG_WARNING_UNDEFINED_PREDICATE,
			   2, 25,
			   "w.dl:2:25: warning: 'blocked/1' is declared but no "
			   "fact or rule defines it: not(blocked(C)) is always "
			   "true");
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* trusted_user is a POLICY_FACT predicate and the policy has none. */
START_TEST(test_warnings_missing_fact_none_at_all)
{
	maelys_datalog_policy_t *policy =
	    load(1, "allow(C) :- command(C), user(U), trusted_user(U).\n");

	assert_one_warning(policy, MAELYS_DATALOG_WARNING_MISSING_FACT, 1, 34,
			   "w.dl:1:34: warning: the policy has no fact of "
			   "'trusted_user/1': trusted_user(U) is never true, "
			   "so this rule never holds");
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_warnings_missing_fact_none_with_the_constants)
{
	maelys_datalog_policy_t *policy =
	    load(1, "forbidden_cmd(\"shutdown\").\n"
		    "forbidden_cmd(\"reboot\").\n"
		    "deny(C, \"curl\") :- command(C),\n"
		    "    forbidden_cmd(\"curl\").\n");

	assert_one_warning(policy, MAELYS_DATALOG_WARNING_MISSING_FACT, 4, 5,
			   "w.dl:4:5: warning: no fact of 'forbidden_cmd/1' "
			   "matches forbidden_cmd(\"curl\"): this rule never "
			   "holds");
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* A helper the policy declares and defines by facts only is checked like
 * a POLICY_FACT predicate. */
START_TEST(test_warnings_missing_fact_of_a_fact_helper)
{
	maelys_datalog_policy_t *policy =
	    load(1, ".decl pair(a, b)\n"
		    "pair(\"alice\", \"curl\").\n"
		    "allow(C) :- command(C), pair(\"root\", C).\n");

	assert_one_warning(policy, MAELYS_DATALOG_WARNING_MISSING_FACT, 3, 25,
			   "w.dl:3:25: warning: no fact of 'pair/2' matches "
			   "pair(\"root\", C): this rule never holds");
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* Policies that look like the ones above and are fine. */
static const struct {
	int domain;
	const char *src;
} quiet_cases[] = {
    /* a comparison with a variable */
    {1, "allow(C) :- command(C), C = \"curl\".\n"},
    {1, "allow(C) :- command(C), user(U), U != C.\n"},
    /* a fact that matches the constants */
    {1, "forbidden_cmd(\"shutdown\").\nforbidden_cmd(\"curl\").\n"
	"deny(C, \"curl\") :- command(C), forbidden_cmd(\"curl\").\n"},
    /* a fact matches the constant column; the other is a variable */
    {1, ".decl pair(a, b)\npair(\"alice\", \"curl\").\n"
	"allow(C) :- command(C), pair(\"alice\", C).\n"},
    /* a helper defined by a rule, not by facts */
    {1, ".decl helper(c)\nhelper(C) :- command(C), C = \"curl\".\n"
	"allow(C) :- command(C), helper(C), helper(\"root\").\n"},
    /* a negated POLICY_FACT literal with no fact: always true, meant */
    {1, "allow(C) :- command(C), not(forbidden_cmd(C)).\n"},
    /* a declared predicate that no rule reads */
    {1, ".decl unused(c)\nallow(C) :- command(C).\n"},
    /* an .input relation has facts, from the input */
    {0, ".decl in(a)\n.decl out(a)\n.input in\nout(X) :- in(X).\n"},
    /* a standalone fact table read with a matching constant */
    {0, ".decl e(a, b)\n.decl out(a)\ne(1, 2).\nout(X) :- e(1, X).\n"},
};

START_TEST(test_warnings_quiet_cases_do_not_warn)
{
	maelys_datalog_policy_t *policy =
	    load(quiet_cases[_i].domain, quiet_cases[_i].src);

	assert_no_warning(policy);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_warnings_walkthrough_policy_does_not_warn)
{
	static const maelys_datalog_domain_t domain =
	    DLTEST_LEVEL1_DOMAIN("warnings_walkthrough");
	maelys_datalog_policy_t *policy = dltest_load_walkthrough(&domain);

	assert_no_warning(policy);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* Warnings come in source order, and a policy that warns still decides. */
START_TEST(test_warnings_in_source_order_and_the_policy_still_runs)
{
	maelys_datalog_policy_t *policy =
	    load(1, ".decl helper(c)\n"
		    "deny(C, \"curl\") :- command(C), helper(C).\n"
		    "allow(C) :- command(C), c = \"curl\".\n"
		    "allow(C) :- command(C), C = \"curl\".\n");
	maelys_datalog_diagnostic_t w = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_warning_kind_t kind;
	maelys_datalog_session_t *session;
	maelys_datalog_input_edb_t *edb;
	maelys_datalog_result_t *res;
	const maelys_datalog_arg_t curl[1] = {
	    maelys_datalog_arg_symbol("curl")};
	int found = 0;

	ck_assert_uint_eq(maelys_datalog_policy_warning_count(policy), 2);
	ck_assert_status(
	    maelys_datalog_policy_get_warning(policy, 0, &kind, &w), ST_OK);
	ck_assert_int_eq(kind, MAELYS_DATALOG_WARNING_UNDEFINED_PREDICATE);
	ck_assert_uint_eq(w.line, 2);
	ck_assert_status(
	    maelys_datalog_policy_get_warning(policy, 1, &kind, &w), ST_OK);
	ck_assert_int_eq(kind, MAELYS_DATALOG_WARNING_CONSTANT_COMPARISON);
	ck_assert_uint_eq(w.line, 3);
	session = dltest_new_session(policy);
	edb = dltest_new_edb();
	dltest_add_s(edb, "command", "curl");
	res = dltest_solve(session, edb);
	ck_assert_status(
	    maelys_datalog_result_query(res, "allow", curl, 1, &found), ST_OK);
	ck_assert_int_eq(found, 1);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* Souffle's .pragma is accepted and ignored, each with a warning at its
 * place, in source order with the rules' warnings; the program runs. */
START_TEST(test_warnings_pragma_ignored_in_source_order)
{
	maelys_datalog_policy_t *policy =
	    load(0, ".pragma \"magic-transform\" \"*\"\n"
		    ".decl t(x)\n"
		    ".decl h(x)\n"
		    ".decl m(x)\n"
		    "m(X) :- t(X), h(X).\n"
		    "t(\"a\").\n"
		    ".pragma \"jobs\"\n"
		    ".decl n(x) magic\n");
	maelys_datalog_diagnostic_t w = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_warning_kind_t kind;
	static const struct {
		maelys_datalog_warning_kind_t kind;
		size_t line;
	} want[] = {
	    {MAELYS_DATALOG_WARNING_IGNORED, 1},
	    {MAELYS_DATALOG_WARNING_UNDEFINED_PREDICATE, 5},
	    {MAELYS_DATALOG_WARNING_IGNORED, 7},
	    {MAELYS_DATALOG_WARNING_IGNORED, 8},
	};
	size_t i;

	ck_assert_uint_eq(maelys_datalog_policy_warning_count(policy), 4);
	for (i = 0; i < 4; i++) {
		ck_assert_status(
		    maelys_datalog_policy_get_warning(policy, i, &kind, &w),
		    ST_OK);
		ck_assert_int_eq(kind, want[i].kind);
		ck_assert_uint_eq(w.line, want[i].line);
		if (want[i].line == 7)
			ck_assert_str_eq(
			    w.message,
			    "w.dl:7:1: warning: .pragma \"jobs\" is ignored: "
			    "it tunes how Souffle itself runs, not what the "
			    "program derives (this runner's folders are -F and "
			    "-D)");
	}
	ck_assert_msg(strstr(w.message, "qualifier \"magic\" is ignored") !=
			  NULL,
		      "%s", w.message);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* 150 warnings: 100 kept, the last says how many more there were. */
START_TEST(test_warnings_are_bounded_and_the_rest_counted)
{
	size_t cap = 150 * 64 + 64, n = 0, i;
	char *src = malloc(cap);
	maelys_datalog_policy_t *policy;
	maelys_datalog_diagnostic_t w = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_warning_kind_t kind;

	ck_assert_ptr_nonnull(src);
	for (i = 0; i < 150; i++)
		n += (size_t)snprintf(src + n, cap - n,
				      "allow(C) :- command(C), %zu = 0.\n",
				      i + 1);
	policy = load(1, src);
	ck_assert_uint_eq(maelys_datalog_policy_warning_count(policy), 100);
	ck_assert_status(
	    maelys_datalog_policy_get_warning(policy, 98, &kind, &w), ST_OK);
	ck_assert_str_eq(w.message, "w.dl:99:25: warning: comparison of two "
				    "constants 99 = 0 is never true");
	ck_assert_status(
	    maelys_datalog_policy_get_warning(policy, 99, &kind, &w), ST_OK);
	ck_assert_int_eq(kind, MAELYS_DATALOG_WARNING_CONSTANT_COMPARISON);
	ck_assert_str_eq(
	    w.message, "w.dl:100:25: warning: and 51 more warnings not shown");
	(void)maelys_datalog_policy_free(policy);
	free(src);
}
END_TEST

START_TEST(test_warnings_out_of_range_and_null_are_invalid)
{
	maelys_datalog_policy_t *policy =
	    load(1, "allow(C) :- command(C), c = \"curl\".\n");
	maelys_datalog_diagnostic_t w = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_warning_kind_t kind;

	ck_assert_uint_eq(maelys_datalog_policy_warning_count(NULL), 0);
	ck_assert_status(
	    maelys_datalog_policy_get_warning(policy, 1, &kind, &w),
	    ST_INVALID);
	ck_assert_str_eq(w.message, ""); /* cleared first */
	ck_assert_int_eq(kind, 0);
	ck_assert_status(maelys_datalog_policy_get_warning(NULL, 0, &kind, &w),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_policy_get_warning(policy, 0, NULL, &w),
			 ST_INVALID);
	ck_assert_status(
	    maelys_datalog_policy_get_warning(policy, 0, &kind, NULL),
	    ST_INVALID);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("warnings");

	tcase_add_test(tc, test_warnings_constant_comparison_of_bare_name);
	tcase_add_test(tc, test_warnings_constant_comparison_always_true);
	tcase_add_test(tc, test_warnings_undefined_predicate_read_by_a_rule);
	tcase_add_test(
	    tc, test_warnings_undefined_predicate_negated_is_always_true);
	tcase_add_test(tc, test_warnings_missing_fact_none_at_all);
	tcase_add_test(tc, test_warnings_missing_fact_none_with_the_constants);
	tcase_add_test(tc, test_warnings_missing_fact_of_a_fact_helper);
	tcase_add_test(tc, test_warnings_pragma_ignored_in_source_order);
	tcase_add_loop_test(tc, test_warnings_quiet_cases_do_not_warn, 0,
			    (int)(sizeof quiet_cases / sizeof *quiet_cases));
	tcase_add_test(tc, test_warnings_walkthrough_policy_does_not_warn);
	tcase_add_test(tc,
		       test_warnings_in_source_order_and_the_policy_still_runs);
	tcase_add_test(tc, test_warnings_are_bounded_and_the_rest_counted);
	tcase_add_test(tc, test_warnings_out_of_range_and_null_are_invalid);
	suite_add_tcase(s, tc);
	return s;
}
