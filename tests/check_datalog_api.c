/* SPDX-License-Identifier: MIT */
/*
 * The public API as an embedder meets it (<maelys/datalog.h> and
 * <maelys/datalog_builders.h>): every function given NULL or a malformed
 * argument returns a status and clears its out-parameters instead of
 * crashing, statuses have names and meanings, handles keep what they need
 * alive in whatever order they are freed, input EDBs and their builders
 * behave as one batch, terms carry any bytes and any 64-bit integer, and
 * results are read completely or refused with TRUNCATED - never silently
 * cut - because a host that acts on half an answer fails open.
 *
 * Policies are the walkthrough's Level 1 policy (policies/walkthrough.dl,
 * under the walkthrough's domain "pty_policy") and small standalone programs.
 * Run this suite under ASan too: several tests free handles in unusual
 * orders and rely on the sanitizer to see a use after free.
 */
#include "runner.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <maelys/datalog.h>
#include <maelys/datalog_builders.h>

#include "datalog_testutil.h"

#define SOURCE     "api.dl"
#define ST_OK      MAELYS_DATALOG_STATUS_OK
#define ST_INVALID MAELYS_DATALOG_STATUS_INVALID_ARGUMENT

/* The walkthrough's domain, under the walkthrough's own name. */
static const maelys_datalog_domain_t pty_domain =
    DLTEST_LEVEL1_DOMAIN("pty_policy");

/* A non-NULL pointer that no call may leave in an out-parameter. */
static int sentinel_object;
#define SENTINEL ((void *)&sentinel_object)

/* One command line of the walkthrough, solved by the Level 1 policy.
 * `metachar` and `user` may be NULL (no such fact). */
static maelys_datalog_result_t *
solve_line(maelys_datalog_session_t *session, const char *command,
	   const char *user, const char *metachar)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *result;

	ck_assert_status(
	    MAELYS_DATALOG_ADD_FACT(edb, &diag, "command", command), ST_OK);
	if (user != NULL)
		ck_assert_status(
		    MAELYS_DATALOG_ADD_FACT(edb, &diag, "user", user), ST_OK);
	if (metachar != NULL)
		ck_assert_status(MAELYS_DATALOG_ADD_FACT(
				     edb, &diag, "shell_metachar", metachar),
				 ST_OK);
	result = dltest_solve(session, edb);
	(void)maelys_datalog_input_edb_free(edb);
	return result;
}

/* Appends the text of every fact of predicate/arity to `buf` as
 * "(a,b)(c,d)", integers as #n, in enumeration order, reading each symbol
 * through result_symbol_text.  Fails the test on any error. */
static void
dump_relation(const maelys_datalog_result_t *result, const char *predicate,
	      size_t arity, char *buf, size_t cap)
{
	maelys_datalog_fact_view_t rows[64];
	size_t count = 0, i, k, used;

	ck_assert_status(maelys_datalog_result_enumerate(
			     result, predicate, arity, rows, 64, &count),
			 ST_OK);
	buf[0] = '\0';
	for (i = 0; i < count; i++) {
		ck_assert_uint_eq(rows[i].arity, arity);
		used = strlen(buf);
		(void)snprintf(buf + used, cap - used, "(");
		for (k = 0; k < arity; k++) {
			const maelys_datalog_term_t *t = &rows[i].terms[k];
			const char *text = NULL;
			size_t len = 0;

			used = strlen(buf);
			if (t->kind == MAELYS_DATALOG_TERM_INTEGER) {
				(void)snprintf(buf + used, cap - used,
					       "%s#%" PRId64, k ? "," : "",
					       t->as.integer);
				continue;
			}
			ck_assert_int_eq(t->kind, MAELYS_DATALOG_TERM_SYMBOL);
			ck_assert_status(
			    maelys_datalog_result_symbol_text(
				result, t->as.symbol_id, &text, &len),
			    ST_OK);
			ck_assert_ptr_nonnull(text);
			ck_assert_uint_eq(strlen(text), len);
			(void)snprintf(buf + used, cap - used, "%s%s",
				       k ? "," : "", text);
		}
		used = strlen(buf);
		(void)snprintf(buf + used, cap - used, ")");
	}
	ck_assert_msg(strlen(buf) + 1 < cap, "dump buffer too small");
}

/* ------------------------------------------------------------------ */
/* Library: version, status names and meanings                         */

START_TEST(test_api_version_matches_header_macros)
{
	char want[64];

	(void)snprintf(
	    want, sizeof want, "%d.%d.%d", MAELYS_DATALOG_VERSION_MAJOR,
	    MAELYS_DATALOG_VERSION_MINOR, MAELYS_DATALOG_VERSION_PATCH);
	ck_assert_ptr_nonnull(maelys_datalog_version());
	ck_assert_str_eq(maelys_datalog_version(), want);
}
END_TEST

/* Every status, with the name the header promises: the enumerator after
 * MAELYS_DATALOG_STATUS_, in lower case. */
static const struct {
	maelys_datalog_status_t status;
	const char *name;
} status_names[] = {
    {MAELYS_DATALOG_STATUS_OK, "ok"},
    {MAELYS_DATALOG_STATUS_INVALID_ARGUMENT, "invalid_argument"},
    {MAELYS_DATALOG_STATUS_NO_MEMORY, "no_memory"},
    {MAELYS_DATALOG_STATUS_LIMIT, "limit"},
    {MAELYS_DATALOG_STATUS_IO, "io"},
    {MAELYS_DATALOG_STATUS_PARSE, "parse"},
    {MAELYS_DATALOG_STATUS_UNDECLARED, "undeclared"},
    {MAELYS_DATALOG_STATUS_ARITY, "arity"},
    {MAELYS_DATALOG_STATUS_ROLE, "role"},
    {MAELYS_DATALOG_STATUS_UNSAFE, "unsafe"},
    {MAELYS_DATALOG_STATUS_NEGATION_CYCLE, "negation_cycle"},
    {MAELYS_DATALOG_STATUS_VOCABULARY, "vocabulary"},
    {MAELYS_DATALOG_STATUS_REGEX, "regex"},
    {MAELYS_DATALOG_STATUS_REDECLARED, "redeclared"},
    {MAELYS_DATALOG_STATUS_UNKNOWN_DOMAIN, "unknown_domain"},
    {MAELYS_DATALOG_STATUS_DOMAIN_CONFLICT, "domain_conflict"},
    {MAELYS_DATALOG_STATUS_INVALID_DOMAIN, "invalid_domain"},
    {MAELYS_DATALOG_STATUS_BUDGET_FACTS, "budget_facts"},
    {MAELYS_DATALOG_STATUS_BUDGET_TUPLES, "budget_tuples"},
    {MAELYS_DATALOG_STATUS_BUDGET_ITERATIONS, "budget_iterations"},
    {MAELYS_DATALOG_STATUS_BUDGET_MEMORY, "budget_memory"},
    {MAELYS_DATALOG_STATUS_REGEX_LIMIT, "regex_limit"},
    {MAELYS_DATALOG_STATUS_TYPE, "type"},
    {MAELYS_DATALOG_STATUS_TRUNCATED, "truncated"},
    {MAELYS_DATALOG_STATUS_BUDGET_STEPS, "budget_steps"},
    {MAELYS_DATALOG_STATUS_ARITHMETIC, "arithmetic"},
};
#define NSTATUS (sizeof status_names / sizeof *status_names)

START_TEST(test_api_status_name_every_status_has_its_name)
{
	size_t i, j;

	/* the table is complete: codes are dense from 0 and never renumbered */
	for (i = 0; i < NSTATUS; i++)
		ck_assert_int_eq((int)status_names[i].status, (int)i);
	for (i = 0; i < NSTATUS; i++) {
		const char *name =
		    maelys_datalog_status_name(status_names[i].status);

		ck_assert_ptr_nonnull(name);
		ck_assert_str_eq(name, status_names[i].name);
		for (j = 0; j < i; j++)
			ck_assert_str_ne(name, maelys_datalog_status_name(
						   status_names[j].status));
	}
}
END_TEST

START_TEST(test_api_status_name_out_of_range_is_unknown)
{
	static const unsigned values[] = {
	    (unsigned)NSTATUS, (unsigned)NSTATUS + 1, 100, 0xffff, UINT32_MAX};
	size_t i;

	for (i = 0; i < sizeof values / sizeof *values; i++) {
		maelys_datalog_status_t st = (maelys_datalog_status_t)values[i];
		const char *meaning = maelys_datalog_status_meaning(st);

		ck_assert_ptr_nonnull(maelys_datalog_status_name(st));
		ck_assert_str_eq(maelys_datalog_status_name(st), "unknown");
		ck_assert_ptr_nonnull(meaning);
		ck_assert_msg(meaning[0] != '\0', "empty meaning for %u",
			      values[i]);
	}
}
END_TEST

START_TEST(test_api_status_meaning_every_status_distinct_and_nonempty)
{
	const char *unknown = maelys_datalog_status_meaning(
	    (maelys_datalog_status_t)(NSTATUS + 7));
	size_t i, j;

	for (i = 0; i < NSTATUS; i++) {
		const char *m =
		    maelys_datalog_status_meaning(status_names[i].status);

		ck_assert_ptr_nonnull(m);
		ck_assert_msg(m[0] != '\0', "status %s has no meaning",
			      status_names[i].name);
		ck_assert_str_ne(m, unknown);
		for (j = 0; j < i; j++)
			ck_assert_str_ne(m, maelys_datalog_status_meaning(
						status_names[j].status));
	}
}
END_TEST

START_TEST(test_api_free_null_returns_ok)
{
	ck_assert_status(maelys_datalog_policy_free(NULL), ST_OK);
	ck_assert_status(maelys_datalog_session_free(NULL), ST_OK);
	ck_assert_status(maelys_datalog_input_edb_free(NULL), ST_OK);
	ck_assert_status(maelys_datalog_result_free(NULL), ST_OK);
}
END_TEST

/* ------------------------------------------------------------------ */
/* NULL and malformed arguments                                        */

START_TEST(test_api_domain_register_null_is_invalid_argument)
{
	ck_assert_status(maelys_datalog_domain_register(NULL), ST_INVALID);
}
END_TEST

START_TEST(test_api_load_null_arguments_are_invalid_and_clear_out)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = SENTINEL;
	static const char src[] = ".decl p(x)\np(\"a\").\n";

	/* text NULL with a length */
	ck_assert_status(maelys_datalog_policy_load_text(NULL, "n.dl", NULL, 5,
							 0, &policy, &diag),
			 ST_INVALID);
	ck_assert_ptr_null(policy);
	ck_assert_int_eq(diag.status, ST_INVALID);
	ck_assert_msg(diag.message[0] != '\0', "no diagnostic");

	policy = SENTINEL;
	ck_assert_status(maelys_datalog_policy_load_inline(NULL, "n.dl", NULL,
							   5, &policy, NULL),
			 ST_INVALID);
	ck_assert_ptr_null(policy);

	/* out NULL, with and without a diagnostic */
	ck_assert_status(maelys_datalog_policy_load_text(
			     NULL, "n.dl", src, sizeof src - 1, 0, NULL, &diag),
			 ST_INVALID);
	ck_assert_int_eq(diag.status, ST_INVALID);
	ck_assert_status(maelys_datalog_policy_load_inline(
			     NULL, "n.dl", src, sizeof src - 1, NULL, NULL),
			 ST_INVALID);
	ck_assert_status(
	    maelys_datalog_policy_load_file(NULL, "/nonexistent", NULL, &diag),
	    ST_INVALID);
}
END_TEST

START_TEST(test_api_load_file_null_path_is_invalid_and_clears_out)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = SENTINEL;

	ck_assert_status(
	    maelys_datalog_policy_load_file(NULL, NULL, &policy, &diag),
	    ST_INVALID);
	ck_assert_int_eq(diag.status, ST_INVALID);
	ck_assert_ptr_null(policy);
	policy = SENTINEL;
	ck_assert_status(
	    maelys_datalog_policy_load_file("pty_policy", NULL, &policy, NULL),
	    ST_INVALID);
	ck_assert_ptr_null(policy);
}
END_TEST

START_TEST(test_api_load_unknown_flags_are_invalid)
{
	static const unsigned bad_flags[] = {1u << 2, 1u << 7, 1u << 31,
					     0xffffffffu};
	static const char src[] = ".decl p(x)\np(\"a\").\n";
	size_t i;

	for (i = 0; i < sizeof bad_flags / sizeof *bad_flags; i++) {
		maelys_datalog_diagnostic_t diag =
		    MAELYS_DATALOG_DIAGNOSTIC_INIT;
		maelys_datalog_policy_t *policy = SENTINEL;

		ck_assert_status(maelys_datalog_policy_load_text(
				     NULL, "f.dl", src, sizeof src - 1,
				     bad_flags[i], &policy, &diag),
				 ST_INVALID);
		ck_assert_ptr_null(policy);
		ck_assert_int_eq(diag.status, ST_INVALID);
	}
}
END_TEST

START_TEST(test_api_load_unregistered_domain_is_unknown_domain)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = SENTINEL;
	static const char src[] = "allow(X) :- command(X).\n";

	ck_assert_status(maelys_datalog_policy_load_inline(
			     "api_never_registered", "u.dl", src,
			     sizeof src - 1, &policy, &diag),
			 MAELYS_DATALOG_STATUS_UNKNOWN_DOMAIN);
	ck_assert_ptr_null(policy);
	ck_assert_int_eq(diag.status, MAELYS_DATALOG_STATUS_UNKNOWN_DOMAIN);
	ck_assert_ptr_nonnull(strstr(diag.message, "api_never_registered"));
}
END_TEST

START_TEST(test_api_load_null_source_name_reports_inline)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = SENTINEL;
	static const char src[] = ".decl p(x)\np(\"a\"\n"; /* no ')' */

	ck_assert_status(maelys_datalog_policy_load_inline(
			     NULL, NULL, src, sizeof src - 1, &policy, &diag),
			 MAELYS_DATALOG_STATUS_PARSE);
	ck_assert_ptr_null(policy);
	ck_assert_str_eq(diag.source, "<inline>");
	ck_assert_uint_eq(diag.line, 3);
}
END_TEST

START_TEST(test_api_directive_null_arguments_are_invalid)
{
	maelys_datalog_policy_t *policy =
	    dltest_load(NULL, SOURCE, ".decl p(x)\n.input p\n");
	maelys_datalog_directive_t d;

	ck_assert_uint_eq(maelys_datalog_policy_directive_count(NULL), 0);
	ck_assert_status(maelys_datalog_policy_get_directive(NULL, 0, &d),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_policy_get_directive(policy, 0, NULL),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_policy_get_directive(policy, 1, &d),
			 ST_INVALID);
	ck_assert_status(
	    maelys_datalog_policy_get_directive(policy, SIZE_MAX, &d),
	    ST_INVALID);
	ck_assert_status(maelys_datalog_policy_get_directive(policy, 0, &d),
			 ST_OK);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* Values that name no budget. */
static const unsigned bad_budgets[] = {7, 8, 64, 0x7fffffff, UINT32_MAX};
#define NBAD_BUDGETS (sizeof bad_budgets / sizeof *bad_budgets)

START_TEST(test_api_budget_tables_reject_null_and_unknown_budget)
{
	uint64_t v = 0;
	size_t i;

	ck_assert_status(
	    maelys_datalog_budget_default(MAELYS_DATALOG_BUDGET_FACTS, NULL),
	    ST_INVALID);
	ck_assert_status(
	    maelys_datalog_budget_max(MAELYS_DATALOG_BUDGET_FACTS, NULL),
	    ST_INVALID);
	for (i = 0; i < NBAD_BUDGETS; i++) {
		maelys_datalog_budget_t b =
		    (maelys_datalog_budget_t)bad_budgets[i];

		ck_assert_status(maelys_datalog_budget_default(b, &v),
				 ST_INVALID);
		ck_assert_status(maelys_datalog_budget_max(b, &v), ST_INVALID);
		ck_assert_status(maelys_datalog_budget_default(b, NULL),
				 ST_INVALID);
	}
}
END_TEST

/* "Out-parameters are cleared first": a value read by a failing call is
 * 0, never what the variable held before. */
START_TEST(test_api_budget_readers_failing_clear_value)
{
	maelys_datalog_policy_t *policy =
	    dltest_load(NULL, SOURCE, ".decl p(x)\n");
	maelys_datalog_session_t *session = dltest_new_session(policy);
	uint64_t v;
	size_t i;

	for (i = 0; i < NBAD_BUDGETS; i++) {
		maelys_datalog_budget_t b =
		    (maelys_datalog_budget_t)bad_budgets[i];

		v = 42;
		ck_assert_status(maelys_datalog_budget_default(b, &v),
				 ST_INVALID);
		ck_assert_uint_eq(v, 0);
		v = 42;
		ck_assert_status(maelys_datalog_budget_max(b, &v), ST_INVALID);
		ck_assert_uint_eq(v, 0);
		v = 42;
		ck_assert_status(
		    maelys_datalog_session_get_budget(session, b, &v),
		    ST_INVALID);
		ck_assert_uint_eq(v, 0);
	}
	v = 42;
	ck_assert_status(maelys_datalog_session_get_budget(
			     NULL, MAELYS_DATALOG_BUDGET_FACTS, &v),
			 ST_INVALID);
	ck_assert_uint_eq(v, 0);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_api_session_null_arguments_are_invalid)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy =
	    dltest_load(NULL, SOURCE, ".decl p(x)\n.input p\n");
	maelys_datalog_session_t *session = SENTINEL;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *result = SENTINEL;
	uint64_t v = 42;
	size_t i;

	ck_assert_status(maelys_datalog_session_create(NULL, 0, &session),
			 ST_INVALID);
	ck_assert_ptr_null(session);
	ck_assert_status(maelys_datalog_session_create(policy, 0, NULL),
			 ST_INVALID);
	session = SENTINEL;
	/* 1 is MAELYS_DATALOG_SESSION_PROVENANCE; 2 is no flag */
	ck_assert_status(maelys_datalog_session_create(policy, 2, &session),
			 ST_INVALID);
	ck_assert_ptr_null(session);
	session = SENTINEL;
	ck_assert_status(
	    maelys_datalog_session_create(policy, 0x80000000u, &session),
	    ST_INVALID);
	ck_assert_ptr_null(session);

	session = dltest_new_session(policy);
	for (i = 0; i < NBAD_BUDGETS; i++) {
		maelys_datalog_budget_t b =
		    (maelys_datalog_budget_t)bad_budgets[i];

		ck_assert_status(
		    maelys_datalog_session_set_budget(session, b, 10),
		    ST_INVALID);
		ck_assert_status(
		    maelys_datalog_session_get_budget(session, b, &v),
		    ST_INVALID);
	}
	ck_assert_status(maelys_datalog_session_set_budget(
			     NULL, MAELYS_DATALOG_BUDGET_FACTS, 10),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_session_get_budget(
			     NULL, MAELYS_DATALOG_BUDGET_FACTS, &v),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_session_get_budget(
			     session, MAELYS_DATALOG_BUDGET_FACTS, NULL),
			 ST_INVALID);

	ck_assert_status(maelys_datalog_session_prepare(NULL, &diag),
			 ST_INVALID);
	ck_assert_int_eq(diag.status, ST_INVALID);
	ck_assert_status(maelys_datalog_session_prepare(NULL, NULL),
			 ST_INVALID);

	ck_assert_status(
	    maelys_datalog_session_solve_edb(NULL, edb, &result, &diag),
	    ST_INVALID);
	ck_assert_ptr_null(result);
	ck_assert_int_eq(diag.status, ST_INVALID);
	result = SENTINEL;
	ck_assert_status(
	    maelys_datalog_session_solve_edb(session, NULL, &result, NULL),
	    ST_INVALID);
	ck_assert_ptr_null(result);
	ck_assert_status(
	    maelys_datalog_session_solve_edb(session, edb, NULL, &diag),
	    ST_INVALID);

	/* the session is still good after all that */
	result = dltest_solve(session, edb);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_api_edb_null_and_malformed_arguments_are_invalid)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_arg_t good = maelys_datalog_arg_symbol("x");
	maelys_datalog_arg_t bad;
	static const char *const bad_names[] = {
	    "", "1abc", "a-b", "a b", "p(", "\xc3\xa9t\xc3\xa9", "a..b",
	    "a.", ".a", "a.1",
	    /* (a.b is a component's member: Souffle's inst.rel) */
	};
	static const unsigned bad_kinds[] = {0, 3, 0xff};
	size_t i;

	ck_assert_status(maelys_datalog_input_edb_create(NULL), ST_INVALID);
	ck_assert_status(maelys_datalog_input_edb_clear(NULL), ST_INVALID);
	ck_assert_status(maelys_datalog_input_edb_truncate(NULL, 0),
			 ST_INVALID);
	ck_assert_uint_eq(maelys_datalog_input_edb_count(NULL), 0);

	ck_assert_status(
	    maelys_datalog_input_edb_add(NULL, "p", &good, 1, &diag),
	    ST_INVALID);
	ck_assert_int_eq(diag.status, ST_INVALID);
	ck_assert_status(
	    maelys_datalog_input_edb_add(edb, NULL, &good, 1, &diag),
	    ST_INVALID);
	ck_assert_status(maelys_datalog_input_edb_add(edb, "p", NULL, 1, NULL),
			 ST_INVALID);
	for (i = 0; i < sizeof bad_names / sizeof *bad_names; i++)
		ck_assert_msg(maelys_datalog_input_edb_add(edb, bad_names[i],
							   &good, 1,
							   &diag) == ST_INVALID,
			      "predicate name '%s' accepted", bad_names[i]);
	for (i = 0; i < sizeof bad_kinds / sizeof *bad_kinds; i++) {
		bad = good;
		bad.kind = (maelys_datalog_term_kind_t)bad_kinds[i];
		ck_assert_status(
		    maelys_datalog_input_edb_add(edb, "p", &bad, 1, &diag),
		    ST_INVALID);
	}
	/* NULL text with a length; arg_symbol(NULL) builds exactly that */
	bad = maelys_datalog_arg_symbol_n(NULL, 3);
	ck_assert_status(maelys_datalog_input_edb_add(edb, "p", &bad, 1, &diag),
			 ST_INVALID);
	bad = maelys_datalog_arg_symbol(NULL);
	ck_assert_status(maelys_datalog_input_edb_add(edb, "p", &bad, 1, &diag),
			 ST_INVALID);
	/* nothing was added by any of the refused calls */
	ck_assert_uint_eq(maelys_datalog_input_edb_count(edb), 0);

	/* NULL text of length 0 is the empty string; NULL args with count 0
	 * is a fact of arity 0 */
	bad = maelys_datalog_arg_symbol_n(NULL, 0);
	ck_assert_status(maelys_datalog_input_edb_add(edb, "p", &bad, 1, &diag),
			 ST_OK);
	ck_assert_status(maelys_datalog_input_edb_add(edb, "q", NULL, 0, &diag),
			 ST_OK);
	ck_assert_uint_eq(maelys_datalog_input_edb_count(edb), 2);
	(void)maelys_datalog_input_edb_free(edb);
}
END_TEST

START_TEST(test_api_edb_add_over_hard_limits_is_limit)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_arg_t args[MAELYS_DATALOG_MAX_ARITY + 1];
	char *big = malloc(65536);
	size_t i;

	ck_assert_ptr_nonnull(big);
	memset(big, 'x', 65536);
	for (i = 0; i < MAELYS_DATALOG_MAX_ARITY + 1; i++)
		args[i] = maelys_datalog_arg_integer((int64_t)i);
	ck_assert_status(
	    maelys_datalog_input_edb_add(edb, "wide", args,
					 MAELYS_DATALOG_MAX_ARITY + 1, &diag),
	    MAELYS_DATALOG_STATUS_LIMIT);
	ck_assert_int_eq(diag.status, MAELYS_DATALOG_STATUS_LIMIT);
	ck_assert_status(maelys_datalog_input_edb_add(edb, "wide", args,
						      MAELYS_DATALOG_MAX_ARITY,
						      &diag),
			 ST_OK);
	args[0] = maelys_datalog_arg_symbol_n(big, 65536);
	ck_assert_status(maelys_datalog_input_edb_add(edb, "s", args, 1, &diag),
			 MAELYS_DATALOG_STATUS_LIMIT);
	ck_assert_uint_eq(maelys_datalog_input_edb_count(edb), 1);
	args[0] = maelys_datalog_arg_symbol_n(big, 65535);
	ck_assert_status(maelys_datalog_input_edb_add(edb, "s", args, 1, &diag),
			 ST_OK);
	ck_assert_uint_eq(maelys_datalog_input_edb_count(edb), 2);
	free(big);
	(void)maelys_datalog_input_edb_free(edb);
}
END_TEST

START_TEST(test_api_edb_get_reads_back_each_fact_as_added)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_arg_t in[3], out[MAELYS_DATALOG_MAX_ARITY];
	const char *pred = SENTINEL;
	size_t n = 99;

	in[0] = maelys_datalog_arg_symbol_n("a\0b\xff", 4);
	in[1] = maelys_datalog_arg_integer(INT64_MIN);
	in[2] = maelys_datalog_arg_symbol_n(NULL, 0);
	ck_assert_status(maelys_datalog_input_edb_add(edb, "argv", in, 3, &diag),
			 ST_OK);
	ck_assert_status(maelys_datalog_input_edb_add(edb, "zero", NULL, 0, &diag),
			 ST_OK);

	ck_assert_status(maelys_datalog_input_edb_get(
			     edb, 0, &pred, out, MAELYS_DATALOG_MAX_ARITY, &n),
			 ST_OK);
	ck_assert_str_eq(pred, "argv");
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(out[0].kind, MAELYS_DATALOG_TERM_SYMBOL);
	ck_assert_uint_eq(out[0].as.symbol.length, 4);
	ck_assert_int_eq(memcmp(out[0].as.symbol.text, "a\0b\xff", 4), 0);
	ck_assert_int_eq(out[1].kind, MAELYS_DATALOG_TERM_INTEGER);
	ck_assert(out[1].as.integer == INT64_MIN);
	ck_assert_int_eq(out[2].kind, MAELYS_DATALOG_TERM_SYMBOL);
	ck_assert_uint_eq(out[2].as.symbol.length, 0);

	/* arity 0 needs no room at all */
	ck_assert_status(maelys_datalog_input_edb_get(edb, 1, &pred, NULL, 0, &n),
			 ST_OK);
	ck_assert_str_eq(pred, "zero");
	ck_assert_uint_eq(n, 0);

	/* too little room: the arity needed, nothing else */
	ck_assert_status(maelys_datalog_input_edb_get(edb, 0, &pred, out, 2, &n),
			 MAELYS_DATALOG_STATUS_TRUNCATED);
	ck_assert_uint_eq(n, 3);
	ck_assert_ptr_null(pred);

	/* out of range, NULLs: invalid, outputs cleared */
	pred = SENTINEL;
	n = 99;
	ck_assert_status(maelys_datalog_input_edb_get(edb, 2, &pred, out, 3, &n),
			 ST_INVALID);
	ck_assert_ptr_null(pred);
	ck_assert_uint_eq(n, 0);
	ck_assert_status(maelys_datalog_input_edb_get(NULL, 0, &pred, out, 3, &n),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_input_edb_get(edb, 0, NULL, out, 3, &n),
			 ST_INVALID);
	ck_assert_status(
	    maelys_datalog_input_edb_get(edb, 0, &pred, out, 3, NULL),
	    ST_INVALID);
	ck_assert_status(maelys_datalog_input_edb_get(edb, 0, &pred, NULL, 3, &n),
			 ST_INVALID);

	/* what truncate and clear removed is gone */
	ck_assert_status(maelys_datalog_input_edb_truncate(edb, 1), ST_OK);
	ck_assert_status(maelys_datalog_input_edb_get(edb, 1, &pred, out, 3, &n),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_input_edb_get(edb, 0, &pred, out, 3, &n),
			 ST_OK);
	ck_assert_str_eq(pred, "argv");
	ck_assert_status(maelys_datalog_input_edb_clear(edb), ST_OK);
	ck_assert_status(maelys_datalog_input_edb_get(edb, 0, &pred, out, 3, &n),
			 ST_INVALID);
	(void)maelys_datalog_input_edb_free(edb);
}
END_TEST

START_TEST(test_api_result_null_arguments_are_invalid_and_clear_out)
{
	maelys_datalog_policy_t *policy = dltest_load_walkthrough(&pty_domain);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_result_t *result =
	    solve_line(session, "shutdown", "bob", NULL);
	maelys_datalog_arg_t arg = maelys_datalog_arg_symbol("shutdown");
	maelys_datalog_arg_t bad = arg;
	maelys_datalog_fact_view_t rows[4];
	const char *text = SENTINEL;
	size_t n = 99, len = 99;
	int found = 7;

	ck_assert_status(
	    maelys_datalog_result_query(NULL, "deny_any", &arg, 1, &found),
	    ST_INVALID);
	ck_assert_int_eq(found, 0);
	found = 7;
	ck_assert_status(
	    maelys_datalog_result_query(result, NULL, &arg, 1, &found),
	    ST_INVALID);
	ck_assert_int_eq(found, 0);
	found = 7;
	ck_assert_status(
	    maelys_datalog_result_query(result, "deny_any", NULL, 1, &found),
	    ST_INVALID);
	ck_assert_int_eq(found, 0);
	ck_assert_status(
	    maelys_datalog_result_query(result, "deny_any", &arg, 1, NULL),
	    ST_INVALID);
	bad.kind = (maelys_datalog_term_kind_t)0;
	found = 7;
	ck_assert_status(
	    maelys_datalog_result_query(result, "deny_any", &bad, 1, &found),
	    ST_INVALID);
	ck_assert_int_eq(found, 0);
	bad = maelys_datalog_arg_symbol(NULL);
	found = 7;
	ck_assert_status(
	    maelys_datalog_result_query(result, "deny_any", &bad, 1, &found),
	    ST_INVALID);
	ck_assert_int_eq(found, 0);

	ck_assert_status(maelys_datalog_result_count(NULL, "deny_any", 1, &n),
			 ST_INVALID);
	ck_assert_uint_eq(n, 0);
	n = 99;
	ck_assert_status(maelys_datalog_result_count(result, NULL, 1, &n),
			 ST_INVALID);
	ck_assert_uint_eq(n, 0);
	ck_assert_status(
	    maelys_datalog_result_count(result, "deny_any", 1, NULL),
	    ST_INVALID);

	n = 99;
	ck_assert_status(
	    maelys_datalog_result_enumerate(NULL, "deny_any", 1, rows, 4, &n),
	    ST_INVALID);
	ck_assert_uint_eq(n, 0);
	n = 99;
	ck_assert_status(
	    maelys_datalog_result_enumerate(result, NULL, 1, rows, 4, &n),
	    ST_INVALID);
	ck_assert_uint_eq(n, 0);
	n = 99;
	ck_assert_status(
	    maelys_datalog_result_enumerate(result, "deny_any", 1, NULL, 4, &n),
	    ST_INVALID);
	ck_assert_uint_eq(n, 0);
	ck_assert_status(maelys_datalog_result_enumerate(result, "deny_any", 1,
							 rows, 4, NULL),
			 ST_INVALID);

	n = 99;
	ck_assert_status(maelys_datalog_result_enumerate_at(NULL, "deny_any", 1,
							    0, rows, 4, &n),
			 ST_INVALID);
	ck_assert_uint_eq(n, 0);
	n = 99;
	ck_assert_status(
	    maelys_datalog_result_enumerate_at(result, NULL, 1, 0, rows, 4, &n),
	    ST_INVALID);
	ck_assert_uint_eq(n, 0);
	n = 99;
	ck_assert_status(maelys_datalog_result_enumerate_at(result, "deny_any",
							    1, 0, NULL, 4, &n),
			 ST_INVALID);
	ck_assert_uint_eq(n, 0);
	ck_assert_status(maelys_datalog_result_enumerate_at(
			     result, "deny_any", 1, 0, rows, 4, NULL),
			 ST_INVALID);

	ck_assert_status(
	    maelys_datalog_result_symbol_text(NULL, 0, &text, &len),
	    ST_INVALID);
	ck_assert_ptr_null(text);
	ck_assert_uint_eq(len, 0);
	len = 99;
	ck_assert_status(
	    maelys_datalog_result_symbol_text(result, 0, NULL, &len),
	    ST_INVALID);
	ck_assert_uint_eq(len, 0);

	/* the result is intact */
	ck_assert_int_eq(dltest_query1(result, "deny_any", "shutdown"), 1);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_api_builders_null_arguments_are_invalid)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = dltest_load_walkthrough(&pty_domain);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *result;
	static const char *const one[] = {"ls"};
	static const char *const with_null[] = {"ls", NULL};
	const maelys_datalog_string_fact_t facts[] = {
	    {"command", one, 1},
	    {NULL, one, 1},
	};
	int found = 7;

	ck_assert_status(maelys_datalog_input_edb_add_strings(NULL, "command",
							      one, 1, &diag),
			 ST_INVALID);
	ck_assert_int_eq(diag.status, ST_INVALID);
	ck_assert_status(
	    maelys_datalog_input_edb_add_strings(edb, NULL, one, 1, &diag),
	    ST_INVALID);
	ck_assert_status(maelys_datalog_input_edb_add_strings(edb, "command",
							      NULL, 1, &diag),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_input_edb_add_strings(
			     edb, "command", with_null + 1, 1, &diag),
			 ST_INVALID);
	ck_assert_status(
	    MAELYS_DATALOG_ADD_FACT(edb, NULL, "command", (const char *)NULL),
	    ST_INVALID);
	ck_assert_status(
	    maelys_datalog_input_edb_add_string_facts(NULL, facts, 1, &diag),
	    ST_INVALID);
	ck_assert_status(
	    maelys_datalog_input_edb_add_string_facts(edb, NULL, 1, &diag),
	    ST_INVALID);
	/* a fact with a NULL predicate inside a batch */
	ck_assert_status(
	    maelys_datalog_input_edb_add_string_facts(edb, facts, 2, &diag),
	    ST_INVALID);
	ck_assert_uint_eq(maelys_datalog_input_edb_count(edb), 0);

	ck_assert_status(MAELYS_DATALOG_ADD_FACT(edb, &diag, "command", "ls"),
			 ST_OK);
	result = dltest_solve(session, edb);
	ck_assert_status(
	    maelys_datalog_result_query_strings(NULL, "allow", one, 1, &found),
	    ST_INVALID);
	ck_assert_int_eq(found, 0);
	found = 7;
	ck_assert_status(
	    maelys_datalog_result_query_strings(result, NULL, one, 1, &found),
	    ST_INVALID);
	ck_assert_int_eq(found, 0);
	found = 7;
	ck_assert_status(maelys_datalog_result_query_strings(result, "allow",
							     NULL, 1, &found),
			 ST_INVALID);
	ck_assert_int_eq(found, 0);
	found = 7;
	ck_assert_status(maelys_datalog_result_query_strings(
			     result, "allow", with_null + 1, 1, &found),
			 ST_INVALID);
	ck_assert_int_eq(found, 0);
	ck_assert_status(
	    maelys_datalog_result_query_strings(result, "allow", one, 1, NULL),
	    ST_INVALID);
	ck_assert_status(MAELYS_DATALOG_QUERY(result, &found, "allow", "ls"),
			 ST_OK);
	ck_assert_int_eq(found, 1);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Lifetimes                                                           */

START_TEST(test_api_policy_freed_after_session_create_keeps_working)
{
	maelys_datalog_policy_t *policy = dltest_load_walkthrough(&pty_domain);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_result_t *result;

	/* as the walkthrough does: the session holds its own reference */
	ck_assert_status(maelys_datalog_policy_free(policy), ST_OK);
	result = solve_line(session, "ls", "bob", NULL);
	ck_assert_int_eq(dltest_query1(result, "allow", "ls"), 1);
	(void)maelys_datalog_result_free(result);
	result = solve_line(session, "reboot", "alice", NULL);
	ck_assert_int_eq(dltest_query1(result, "allow", "reboot"), 0);
	ck_assert_int_eq(dltest_query2(result, "deny", "reboot",
				       "command is forbidden by policy"),
			 1);
	(void)maelys_datalog_result_free(result);
	ck_assert_status(maelys_datalog_session_free(session), ST_OK);
}
END_TEST

START_TEST(test_api_session_freed_with_live_result_stays_readable)
{
	maelys_datalog_policy_t *policy = dltest_load_walkthrough(&pty_domain);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_result_t *r1, *r2;
	char dump[1024];

	ck_assert_status(maelys_datalog_policy_free(policy), ST_OK);
	r1 = solve_line(session, "curl", "mallory", NULL);
	r2 = solve_line(session, "git", "mallory", "pipe");
	/* the session goes first; both results must keep what they read */
	ck_assert_status(maelys_datalog_session_free(session), ST_OK);

	ck_assert_int_eq(dltest_query1(r1, "allow", "curl"), 0);
	dump_relation(r1, "deny", 2, dump, sizeof dump);
	ck_assert_str_eq(dump, "(curl,curl is restricted to trusted users)");
	dump_relation(r1, "deny_any", 1, dump, sizeof dump);
	ck_assert_str_eq(dump, "(curl)");
	ck_assert_status(maelys_datalog_result_free(r1), ST_OK);

	/* the last result alive still reads its runtime strings */
	dump_relation(r2, "deny", 2, dump, sizeof dump);
	ck_assert_str_eq(dump, "(__line__,shell metacharacter in line)");
	ck_assert_int_eq(dltest_query1(r2, "allow", "git"), 0);
	ck_assert_status(maelys_datalog_result_free(r2), ST_OK);
}
END_TEST

START_TEST(test_api_two_results_of_one_session_are_independent)
{
	maelys_datalog_policy_t *policy = dltest_load_walkthrough(&pty_domain);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_result_t *r1, *r2, *r3;
	char d1[1024], d2[1024];

	r1 = solve_line(session, "make", "bob", NULL);
	dump_relation(r1, "allow", 1, d1, sizeof d1);
	r2 = solve_line(session, "poweroff", "bob", NULL);
	/* solving again did not touch the first answer */
	dump_relation(r1, "allow", 1, d2, sizeof d2);
	ck_assert_str_eq(d1, d2);
	ck_assert_str_eq(d1, "(make)");
	ck_assert_int_eq(dltest_query1(r1, "allow", "make"), 1);
	ck_assert_int_eq(dltest_query1(r1, "allow", "poweroff"), 0);
	ck_assert_int_eq(dltest_query1(r1, "deny_any", "poweroff"), 0);
	ck_assert_int_eq(dltest_query1(r2, "allow", "make"), 0);
	ck_assert_int_eq(dltest_query1(r2, "allow", "poweroff"), 0);
	ck_assert_int_eq(dltest_query1(r2, "deny_any", "poweroff"), 1);
	dump_relation(r2, "allow", 1, d2, sizeof d2);
	ck_assert_str_eq(d2, "");

	/* a third solve after freeing the first reuses its memory, and the
	 * second answer stays as it was */
	(void)maelys_datalog_result_free(r1);
	r3 = solve_line(session, "vim", "alice", "var_expand");
	ck_assert_int_eq(dltest_query1(r3, "allow", "vim"), 0);
	ck_assert_int_eq(dltest_query1(r3, "deny_any", "__line__"), 1);
	ck_assert_int_eq(dltest_query1(r2, "deny_any", "__line__"), 0);
	ck_assert_int_eq(dltest_query1(r2, "deny_any", "poweroff"), 1);
	dump_relation(r2, "deny", 2, d2, sizeof d2);
	ck_assert_str_eq(d2, "(poweroff,command is forbidden by policy)");
	(void)maelys_datalog_result_free(r3);
	(void)maelys_datalog_result_free(r2);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Input EDBs and the builders                                         */

/* A standalone program that copies its input so a test can read it. */
static const char echo_src[] = ".decl in(x)\n"
			       ".input in\n"
			       ".decl out(x)\n"
			       "out(X) :- in(X).\n";

START_TEST(test_api_edb_clear_truncate_count_shape_the_input)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, echo_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *result;
	char dump[256];

	ck_assert_uint_eq(maelys_datalog_input_edb_count(edb), 0);
	ck_assert_status(MAELYS_DATALOG_ADD_FACT(edb, &diag, "in", "one"),
			 ST_OK);
	ck_assert_status(MAELYS_DATALOG_ADD_FACT(edb, &diag, "in", "two"),
			 ST_OK);
	ck_assert_status(MAELYS_DATALOG_ADD_FACT(edb, &diag, "in", "three"),
			 ST_OK);
	/* duplicates count */
	ck_assert_status(MAELYS_DATALOG_ADD_FACT(edb, &diag, "in", "three"),
			 ST_OK);
	ck_assert_uint_eq(maelys_datalog_input_edb_count(edb), 4);

	/* beyond the end: refused, nothing changes */
	ck_assert_status(maelys_datalog_input_edb_truncate(edb, 5), ST_INVALID);
	ck_assert_status(maelys_datalog_input_edb_truncate(edb, SIZE_MAX),
			 ST_INVALID);
	ck_assert_uint_eq(maelys_datalog_input_edb_count(edb), 4);
	ck_assert_status(maelys_datalog_input_edb_truncate(edb, 4), ST_OK);
	ck_assert_uint_eq(maelys_datalog_input_edb_count(edb), 4);

	ck_assert_status(maelys_datalog_input_edb_truncate(edb, 1), ST_OK);
	ck_assert_uint_eq(maelys_datalog_input_edb_count(edb), 1);
	/* facts added after a truncation do not see the cut bytes */
	ck_assert_status(MAELYS_DATALOG_ADD_FACT(edb, &diag, "in", "four"),
			 ST_OK);
	result = dltest_solve(session, edb);
	dump_relation(result, "out", 1, dump, sizeof dump);
	ck_assert_str_eq(dump, "(one)(four)");
	(void)maelys_datalog_result_free(result);

	ck_assert_status(maelys_datalog_input_edb_truncate(edb, 0), ST_OK);
	ck_assert_uint_eq(maelys_datalog_input_edb_count(edb), 0);
	ck_assert_status(MAELYS_DATALOG_ADD_FACT(edb, &diag, "in", "five"),
			 ST_OK);
	ck_assert_status(maelys_datalog_input_edb_clear(edb), ST_OK);
	ck_assert_uint_eq(maelys_datalog_input_edb_count(edb), 0);
	result = dltest_solve(session, edb);
	dump_relation(result, "out", 1, dump, sizeof dump);
	ck_assert_str_eq(dump, "");
	(void)maelys_datalog_result_free(result);

	ck_assert_status(MAELYS_DATALOG_ADD_FACT(edb, &diag, "in", "six"),
			 ST_OK);
	ck_assert_uint_eq(maelys_datalog_input_edb_count(edb), 1);
	/* an EDB is only read by a solve: solving it twice gives the same */
	result = dltest_solve(session, edb);
	dump_relation(result, "out", 1, dump, sizeof dump);
	ck_assert_str_eq(dump, "(six)");
	(void)maelys_datalog_result_free(result);
	result = dltest_solve(session, edb);
	dump_relation(result, "out", 1, dump, sizeof dump);
	ck_assert_str_eq(dump, "(six)");
	(void)maelys_datalog_result_free(result);

	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_api_add_facts_with_one_bad_fact_leaves_edb_unchanged)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = dltest_load_walkthrough(&pty_domain);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *result;

	ck_assert_status(MAELYS_DATALOG_ADD_FACT(edb, &diag, "command", "curl"),
			 ST_OK);
	/* the bad fact is last: the good ones before it must go too */
	ck_assert_status(MAELYS_DATALOG_ADD_FACTS(
			     edb, &diag, MAELYS_DATALOG_FACT("user", "mallory"),
			     MAELYS_DATALOG_FACT("arg", "-O"),
			     MAELYS_DATALOG_FACT("not a name", "x")),
			 ST_INVALID);
	ck_assert_int_eq(diag.status, ST_INVALID);
	ck_assert_uint_eq(maelys_datalog_input_edb_count(edb), 1);
	ck_assert_status(MAELYS_DATALOG_ADD_FACTS(
			     edb, &diag, MAELYS_DATALOG_FACT("user", "mallory"),
			     MAELYS_DATALOG_FACT("arg", (const char *)NULL)),
			 ST_INVALID);
	ck_assert_uint_eq(maelys_datalog_input_edb_count(edb), 1);
	ck_assert_status(
	    MAELYS_DATALOG_ADD_FACTS(
		edb, &diag, MAELYS_DATALOG_FACT("user", "mallory"),
		MAELYS_DATALOG_FACT("arg", "1", "2", "3", "4", "5", "6", "7",
				    "8", "9", "10", "11", "12", "13", "14",
				    "15", "16", "17", "18", "19", "20", "21",
				    "22", "23", "24", "25", "26", "27", "28",
				    "29", "30", "31", "32", "33")),
	    MAELYS_DATALOG_STATUS_LIMIT);
	ck_assert_uint_eq(maelys_datalog_input_edb_count(edb), 1);

	/* had user("mallory") survived, curl would be denied */
	result = dltest_solve(session, edb);
	ck_assert_int_eq(dltest_query1(result, "allow", "curl"), 1);
	ck_assert_int_eq(dltest_query1(result, "deny_any", "curl"), 0);
	(void)maelys_datalog_result_free(result);

	/* a good batch after the refused ones lands whole */
	ck_assert_status(MAELYS_DATALOG_ADD_FACTS(
			     edb, &diag, MAELYS_DATALOG_FACT("user", "mallory"),
			     MAELYS_DATALOG_FACT("arg", "-O")),
			 ST_OK);
	ck_assert_uint_eq(maelys_datalog_input_edb_count(edb), 3);
	result = dltest_solve(session, edb);
	ck_assert_int_eq(dltest_query1(result, "allow", "curl"), 0);
	ck_assert_int_eq(dltest_query2(result, "deny", "curl",
				       "curl is restricted to trusted users"),
			 1);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* Command lines for comparing the macro forms with the function forms. */
static const struct line_case {
	const char *command;
	const char *user;
	const char *arg;      /* NULL: none */
	const char *metachar; /* NULL: none */
	int allowed;
} line_cases[] = {
    {"ls", "bob", "-l", NULL, 1},
    {"shutdown", "root", "now", NULL, 0},
    {"curl", "mallory", "http://x", NULL, 0},
    {"curl", "alice", "http://x", NULL, 1},
    {"echo", "alice", "hello", "pipe", 0},
    {"git", "bob", NULL, "semicolon", 0},
    {"__line__", "bob", NULL, NULL, 1},
};
#define NLINES (sizeof line_cases / sizeof *line_cases)

enum build_form {
	FORM_MACROS,  /* ADD_FACT / ADD_FACTS */
	FORM_ADD,     /* input_edb_add with arg_symbol */
	FORM_ADD_N,   /* input_edb_add with arg_symbol_n */
	FORM_STRINGS, /* add_strings / add_string_facts */
	NFORMS,
};

static void
add_one(maelys_datalog_input_edb_t *edb, enum build_form form,
	const char *predicate, const char *value)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_arg_t a;

	switch (form) {
	case FORM_MACROS:
		ck_assert_status(
		    MAELYS_DATALOG_ADD_FACT(edb, &diag, predicate, value),
		    ST_OK);
		return;
	case FORM_ADD:
		a = maelys_datalog_arg_symbol(value);
		ck_assert_status(
		    maelys_datalog_input_edb_add(edb, predicate, &a, 1, &diag),
		    ST_OK);
		return;
	case FORM_ADD_N:
		a = maelys_datalog_arg_symbol_n(value, strlen(value));
		ck_assert_status(
		    maelys_datalog_input_edb_add(edb, predicate, &a, 1, &diag),
		    ST_OK);
		return;
	case FORM_STRINGS:
		ck_assert_status(maelys_datalog_input_edb_add_strings(
				     edb, predicate, &value, 1, &diag),
				 ST_OK);
		return;
	case NFORMS:
		break;
	}
	ck_abort_msg("bad form %d", (int)form);
}

static void
build_line(maelys_datalog_input_edb_t *edb, enum build_form form,
	   const struct line_case *c)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;

	if (form == FORM_MACROS) {
		ck_assert_status(MAELYS_DATALOG_ADD_FACTS(
				     edb, &diag,
				     MAELYS_DATALOG_FACT("command", c->command),
				     MAELYS_DATALOG_FACT("user", c->user)),
				 ST_OK);
	} else if (form == FORM_STRINGS) {
		const maelys_datalog_string_fact_t facts[] = {
		    {"command", &c->command, 1},
		    {"user", &c->user, 1},
		};

		ck_assert_status(maelys_datalog_input_edb_add_string_facts(
				     edb, facts, 2, &diag),
				 ST_OK);
	} else {
		add_one(edb, form, "command", c->command);
		add_one(edb, form, "user", c->user);
	}
	if (c->arg != NULL)
		add_one(edb, form, "arg", c->arg);
	if (c->metachar != NULL)
		add_one(edb, form, "shell_metachar", c->metachar);
}

START_TEST(test_api_macros_and_functions_give_same_results)
{
	maelys_datalog_policy_t *policy = dltest_load_walkthrough(&pty_domain);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	size_t i;
	int form;

	for (i = 0; i < NLINES; i++) {
		const struct line_case *c = &line_cases[i];
		char want[3][1024];

		for (form = 0; form < NFORMS; form++) {
			maelys_datalog_input_edb_t *edb = dltest_new_edb();
			maelys_datalog_result_t *result;
			maelys_datalog_arg_t a =
			    maelys_datalog_arg_symbol(c->command);
			char got[3][1024];
			int f_macro = -1, f_fn = -1, f_str = -1;

			build_line(edb, (enum build_form)form, c);
			ck_assert_uint_eq(maelys_datalog_input_edb_count(edb),
					  2 + (c->arg != NULL) +
					      (c->metachar != NULL));
			result = dltest_solve(session, edb);
			ck_assert_status(MAELYS_DATALOG_QUERY(result, &f_macro,
							      "allow",
							      c->command),
					 ST_OK);
			ck_assert_status(maelys_datalog_result_query(
					     result, "allow", &a, 1, &f_fn),
					 ST_OK);
			ck_assert_status(
			    maelys_datalog_result_query_strings(
				result, "allow", &c->command, 1, &f_str),
			    ST_OK);
			ck_assert_msg(
			    f_macro == c->allowed && f_fn == c->allowed &&
				f_str == c->allowed,
			    "line %zu form %d: allow %d/%d/%d, want "
			    "%d",
			    i, form, f_macro, f_fn, f_str, c->allowed);
			dump_relation(result, "allow", 1, got[0],
				      sizeof got[0]);
			dump_relation(result, "deny", 2, got[1], sizeof got[1]);
			dump_relation(result, "deny_any", 1, got[2],
				      sizeof got[2]);
			if (form == 0) {
				memcpy(want, got, sizeof want);
			} else {
				ck_assert_str_eq(got[0], want[0]);
				ck_assert_str_eq(got[1], want[1]);
				ck_assert_str_eq(got[2], want[2]);
			}
			(void)maelys_datalog_result_free(result);
			(void)maelys_datalog_input_edb_free(edb);
		}
	}
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Terms: bytes and integers                                           */

static const struct {
	const char *bytes;
	size_t len;
} byte_strings[] = {
    {"a\0b", 3},     {"a", 1},           {"", 0},
    {"\0", 1},       {"a\0c", 3},        {"\xff\xfe\x80", 3},
    {"\x7f\x01", 2}, {"caf\xc3\xa9", 5}, {"\xff", 1},
};
#define NBYTE_STRINGS (sizeof byte_strings / sizeof *byte_strings)

START_TEST(test_api_symbol_n_keeps_nul_and_high_bytes)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, echo_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_fact_view_t rows[NBYTE_STRINGS + 1];
	maelys_datalog_result_t *result;
	int seen[NBYTE_STRINGS] = {0};
	size_t i, j, n = 0;

	for (i = 0; i < NBYTE_STRINGS; i++) {
		maelys_datalog_arg_t a = maelys_datalog_arg_symbol_n(
		    byte_strings[i].bytes, byte_strings[i].len);

		ck_assert_status(
		    maelys_datalog_input_edb_add(edb, "in", &a, 1, &diag),
		    ST_OK);
	}
	result = dltest_solve(session, edb);
	for (i = 0; i < NBYTE_STRINGS; i++) {
		maelys_datalog_arg_t a = maelys_datalog_arg_symbol_n(
		    byte_strings[i].bytes, byte_strings[i].len);
		int found = -1;

		ck_assert_status(
		    maelys_datalog_result_query(result, "out", &a, 1, &found),
		    ST_OK);
		ck_assert_msg(found == 1, "string %zu not found", i);
	}
	/* prefixes up to a NUL, and strings that differ after one, are
	 * other values */
	{
		static const struct {
			const char *bytes;
			size_t len;
		} absent[] = {{"a\0", 2},
			      {"a\0bc", 4},
			      {"\0\0", 2},
			      {"\xff\xfe", 2},
			      {"b", 1}};

		for (i = 0; i < sizeof absent / sizeof *absent; i++) {
			maelys_datalog_arg_t a = maelys_datalog_arg_symbol_n(
			    absent[i].bytes, absent[i].len);
			int found = -1;

			ck_assert_status(maelys_datalog_result_query(
					     result, "out", &a, 1, &found),
					 ST_OK);
			ck_assert_msg(found == 0, "absent string %zu found", i);
		}
	}
	ck_assert_status(maelys_datalog_result_enumerate(result, "out", 1, rows,
							 NBYTE_STRINGS + 1, &n),
			 ST_OK);
	ck_assert_uint_eq(n, NBYTE_STRINGS);
	for (i = 0; i < n; i++) {
		const char *text = NULL;
		size_t len = 0;

		ck_assert_int_eq(rows[i].terms[0].kind,
				 MAELYS_DATALOG_TERM_SYMBOL);
		ck_assert_status(
		    maelys_datalog_result_symbol_text(
			result, rows[i].terms[0].as.symbol_id, &text, &len),
		    ST_OK);
		ck_assert_ptr_nonnull(text);
		ck_assert_msg(text[len] == '\0', "row %zu not terminated", i);
		for (j = 0; j < NBYTE_STRINGS; j++)
			if (byte_strings[j].len == len &&
			    memcmp(byte_strings[j].bytes, text, len) == 0)
				break;
		ck_assert_msg(j < NBYTE_STRINGS, "row %zu: unexpected bytes",
			      i);
		ck_assert_msg(!seen[j], "string %zu enumerated twice", j);
		seen[j] = 1;
	}
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* Integers around the engine's inline/boxed boundary (2^30) and the ends
 * of int64_t. */
static const int64_t integers[] = {
    0,
    5,
    1000,
    -1,
    (INT64_C(1) << 30) - 1,
    INT64_C(1) << 30,
    -(INT64_C(1) << 30),
    -(INT64_C(1) << 30) - 1,
    INT64_C(4294967296),
    INT64_MAX,
    INT64_MIN,
};
#define NINTEGERS (sizeof integers / sizeof *integers)

START_TEST(test_api_integer_terms_round_trip)
{
	static const char src[] = ".decl num(x)\n"
				  ".input num\n"
				  ".decl txt(x)\n"
				  ".input txt\n"
				  ".decl big(x)\n"
				  "big(X) :- num(X), X > 100.\n"
				  ".decl same(x)\n"
				  "same(X) :- num(X), txt(X).\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_fact_view_t rows[NINTEGERS];
	maelys_datalog_result_t *result;
	maelys_datalog_arg_t a;
	size_t i, n = 0, nbig = 0;
	int found;

	for (i = 0; i < NINTEGERS; i++) {
		a = maelys_datalog_arg_integer(integers[i]);
		ck_assert_status(
		    maelys_datalog_input_edb_add(edb, "num", &a, 1, &diag),
		    ST_OK);
	}
	/* the strings "5" and "1000" are not the integers 5 and 1000 */
	ck_assert_status(MAELYS_DATALOG_ADD_FACT(edb, &diag, "txt", "5"),
			 ST_OK);
	ck_assert_status(MAELYS_DATALOG_ADD_FACT(edb, &diag, "txt", "1000"),
			 ST_OK);
	result = dltest_solve(session, edb);

	ck_assert_status(maelys_datalog_result_count(result, "same", 1, &n),
			 ST_OK);
	ck_assert_uint_eq(n, 0);
	ck_assert_status(maelys_datalog_result_enumerate(result, "num", 1, rows,
							 NINTEGERS, &n),
			 ST_OK);
	ck_assert_uint_eq(n, NINTEGERS);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(rows[i].terms[0].kind,
				 MAELYS_DATALOG_TERM_INTEGER);
		/* input order is derivation order for a copied relation */
		ck_assert_msg(rows[i].terms[0].as.integer == integers[i],
			      "row %zu: %" PRId64 ", want %" PRId64, i,
			      rows[i].terms[0].as.integer, integers[i]);
		if (integers[i] > 100)
			nbig++;
	}
	ck_assert_status(maelys_datalog_result_enumerate(result, "big", 1, rows,
							 NINTEGERS, &n),
			 ST_OK);
	ck_assert_uint_eq(n, nbig);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(rows[i].terms[0].kind,
				 MAELYS_DATALOG_TERM_INTEGER);
		ck_assert(rows[i].terms[0].as.integer > 100);
	}
	for (i = 0; i < NINTEGERS; i++) {
		a = maelys_datalog_arg_integer(integers[i]);
		found = -1;
		ck_assert_status(
		    maelys_datalog_result_query(result, "big", &a, 1, &found),
		    ST_OK);
		ck_assert_int_eq(found, integers[i] > 100);
	}
	/* an integer no layer knows, and a string spelling a known one */
	a = maelys_datalog_arg_integer(1001);
	ck_assert_status(
	    maelys_datalog_result_query(result, "num", &a, 1, &found), ST_OK);
	ck_assert_int_eq(found, 0);
	a = maelys_datalog_arg_symbol("1000");
	ck_assert_status(
	    maelys_datalog_result_query(result, "big", &a, 1, &found), ST_OK);
	ck_assert_int_eq(found, 0);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Enumeration                                                         */

static maelys_datalog_result_t *
solve_echo(maelys_datalog_session_t *session, size_t n)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *result;
	size_t i;

	for (i = 0; i < n; i++) {
		char v[32];

		(void)snprintf(v, sizeof v, "row%zu", i);
		ck_assert_status(MAELYS_DATALOG_ADD_FACT(edb, &diag, "in", v),
				 ST_OK);
	}
	result = dltest_solve(session, edb);
	(void)maelys_datalog_input_edb_free(edb);
	return result;
}

static void
assert_view_eq(const maelys_datalog_fact_view_t *a,
	       const maelys_datalog_fact_view_t *b, size_t row)
{
	size_t k;

	ck_assert_msg(a->arity == b->arity, "row %zu: arity %zu vs %zu", row,
		      a->arity, b->arity);
	for (k = 0; k < a->arity; k++) {
		ck_assert_msg(a->terms[k].kind == b->terms[k].kind,
			      "row %zu col %zu: kind", row, k);
		if (a->terms[k].kind == MAELYS_DATALOG_TERM_INTEGER)
			ck_assert_msg(a->terms[k].as.integer ==
					  b->terms[k].as.integer,
				      "row %zu col %zu: integer", row, k);
		else
			ck_assert_msg(a->terms[k].as.symbol_id ==
					  b->terms[k].as.symbol_id,
				      "row %zu col %zu: symbol", row, k);
	}
}

START_TEST(test_api_enumerate_capacity_zero_is_truncated_with_count)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, echo_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_result_t *result = solve_echo(session, 5);
	maelys_datalog_fact_view_t row;
	size_t n = 99;

	ck_assert_status(
	    maelys_datalog_result_enumerate(result, "out", 1, NULL, 0, &n),
	    MAELYS_DATALOG_STATUS_TRUNCATED);
	ck_assert_uint_eq(n, 5);
	n = 99;
	ck_assert_status(
	    maelys_datalog_result_enumerate(result, "out", 1, &row, 0, &n),
	    MAELYS_DATALOG_STATUS_TRUNCATED);
	ck_assert_uint_eq(n, 5);
	(void)maelys_datalog_result_free(result);

	/* an empty relation fits in no rows */
	result = solve_echo(session, 0);
	n = 99;
	ck_assert_status(
	    maelys_datalog_result_enumerate(result, "out", 1, NULL, 0, &n),
	    ST_OK);
	ck_assert_uint_eq(n, 0);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_api_enumerate_exact_capacity_is_ok)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, echo_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_result_t *result = solve_echo(session, 5);
	maelys_datalog_fact_view_t rows[5];
	size_t n = 99, i;

	ck_assert_status(
	    maelys_datalog_result_enumerate(result, "out", 1, rows, 5, &n),
	    ST_OK);
	ck_assert_uint_eq(n, 5);
	for (i = 0; i < n; i++) {
		const char *text = NULL;
		size_t len = 0;
		char want[32];

		(void)snprintf(want, sizeof want, "row%zu", i);
		ck_assert_uint_eq(rows[i].arity, 1);
		ck_assert_status(
		    maelys_datalog_result_symbol_text(
			result, rows[i].terms[0].as.symbol_id, &text, &len),
		    ST_OK);
		ck_assert_str_eq(text, want);
	}
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_api_enumerate_too_small_is_truncated_first_rows_filled)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, echo_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_result_t *result = solve_echo(session, 5);
	maelys_datalog_fact_view_t all[5], some[4];
	size_t n = 0, i;

	ck_assert_status(
	    maelys_datalog_result_enumerate(result, "out", 1, all, 5, &n),
	    ST_OK);
	memset(some, 0xa5, sizeof some);
	n = 99;
	ck_assert_status(
	    maelys_datalog_result_enumerate(result, "out", 1, some, 3, &n),
	    MAELYS_DATALOG_STATUS_TRUNCATED);
	ck_assert_uint_eq(n, 5); /* the number needed */
	for (i = 0; i < 3; i++)
		assert_view_eq(&some[i], &all[i], i);
	/* nothing written past the capacity */
	{
		maelys_datalog_fact_view_t untouched;

		memset(&untouched, 0xa5, sizeof untouched);
		ck_assert(memcmp(&some[3], &untouched, sizeof untouched) == 0);
	}
	n = 99;
	ck_assert_status(
	    maelys_datalog_result_enumerate(result, "out", 1, some, 4, &n),
	    MAELYS_DATALOG_STATUS_TRUNCATED);
	ck_assert_uint_eq(n, 5);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

#define PAGE_SIDE 100
#define PAGE_ROWS (PAGE_SIDE * PAGE_SIDE)

START_TEST(test_api_enumerate_at_pages_reproduce_enumerate)
{
	static const char src[] = ".decl d(x)\n"
				  ".input d\n"
				  ".decl pair(x, y)\n"
				  "pair(X, Y) :- d(X), d(Y).\n";
	static const size_t pages[] = {1,    7,         64,           999,
				       1000, PAGE_ROWS, PAGE_ROWS + 5};
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_fact_view_t *all, *page;
	maelys_datalog_result_t *result;
	unsigned char *seen;
	size_t i, n = 0, p;

	for (i = 0; i < PAGE_SIDE; i++) {
		char v[16];

		(void)snprintf(v, sizeof v, "v%03zu", i);
		ck_assert_status(MAELYS_DATALOG_ADD_FACT(edb, &diag, "d", v),
				 ST_OK);
	}
	result = dltest_solve(session, edb);
	all = calloc(PAGE_ROWS, sizeof *all);
	page = calloc(PAGE_ROWS + 5, sizeof *page);
	seen = calloc(PAGE_ROWS, 1);
	ck_assert(all != NULL && page != NULL && seen != NULL);
	ck_assert_status(maelys_datalog_result_enumerate(result, "pair", 2, all,
							 PAGE_ROWS, &n),
			 ST_OK);
	ck_assert_uint_eq(n, PAGE_ROWS);

	/* every pair exactly once, every symbol readable */
	for (i = 0; i < PAGE_ROWS; i++) {
		size_t k, idx[2];

		ck_assert_uint_eq(all[i].arity, 2);
		for (k = 0; k < 2; k++) {
			const char *text = NULL;
			size_t len = 0;
			char *end;

			ck_assert_int_eq(all[i].terms[k].kind,
					 MAELYS_DATALOG_TERM_SYMBOL);
			ck_assert_status(maelys_datalog_result_symbol_text(
					     result,
					     all[i].terms[k].as.symbol_id,
					     &text, &len),
					 ST_OK);
			ck_assert_uint_eq(len, 4);
			ck_assert_int_eq(text[0], 'v');
			idx[k] = (size_t)strtoul(text + 1, &end, 10);
			ck_assert(*end == '\0' && idx[k] < PAGE_SIDE);
		}
		ck_assert_msg(!seen[idx[0] * PAGE_SIDE + idx[1]],
			      "pair %zu,%zu twice", idx[0], idx[1]);
		seen[idx[0] * PAGE_SIDE + idx[1]] = 1;
	}

	for (p = 0; p < sizeof pages / sizeof *pages; p++) {
		size_t off = 0, written;

		for (;;) {
			written = 99;
			ck_assert_status(maelys_datalog_result_enumerate_at(
					     result, "pair", 2, off, page,
					     pages[p], &written),
					 ST_OK);
			if (written == 0)
				break;
			ck_assert_uint_le(written, pages[p]);
			for (i = 0; i < written; i++)
				assert_view_eq(&page[i], &all[off + i],
					       off + i);
			off += written;
			ck_assert_uint_le(off, PAGE_ROWS);
		}
		ck_assert_msg(off == PAGE_ROWS, "page %zu: %zu rows", pages[p],
			      off);
	}
	/* at and past the end nothing is written */
	{
		static const size_t past[] = {PAGE_ROWS, PAGE_ROWS + 1,
					      SIZE_MAX};
		size_t written;

		for (i = 0; i < sizeof past / sizeof *past; i++) {
			written = 99;
			ck_assert_status(
			    maelys_datalog_result_enumerate_at(
				result, "pair", 2, past[i], page, 10, &written),
			    ST_OK);
			ck_assert_uint_eq(written, 0);
		}
	}
	free(seen);
	free(page);
	free(all);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_api_symbol_text_of_unknown_id_is_invalid)
{
	maelys_datalog_policy_t *policy = dltest_load_walkthrough(&pty_domain);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_result_t *result =
	    solve_line(session, "reboot", "bob", "pipe");
	maelys_datalog_fact_view_t rows[8];
	maelys_datalog_symbol_id_t max_id = 0;
	size_t n = 0, i, k;
	static const maelys_datalog_symbol_id_t far_ids[] = {
	    0x7ffffff0u, 0x7ffffffeu, 0x7fffffffu,
	    0x80000000u, 0x80000005u, UINT32_MAX,
	};

	/* every symbol the result hands out has a text ... */
	ck_assert_status(
	    maelys_datalog_result_enumerate(result, "deny", 2, rows, 8, &n),
	    ST_OK);
	ck_assert_uint_eq(n, 2);
	for (i = 0; i < n; i++)
		for (k = 0; k < 2; k++) {
			const char *text = NULL;
			size_t len = 99;

			ck_assert_status(maelys_datalog_result_symbol_text(
					     result,
					     rows[i].terms[k].as.symbol_id,
					     &text, &len),
					 ST_OK);
			ck_assert_ptr_nonnull(text);
			ck_assert_uint_eq(strlen(text), len);
			if (rows[i].terms[k].as.symbol_id > max_id)
				max_id = rows[i].terms[k].as.symbol_id;
		}
	/* ... and ids it never handed out have none */
	for (i = 0; i < sizeof far_ids / sizeof *far_ids; i++) {
		const char *text = SENTINEL;
		size_t len = 99;

		ck_assert_msg(
		    maelys_datalog_result_symbol_text(result, far_ids[i], &text,
						      &len) == ST_INVALID,
		    "id 0x%x has a text", (unsigned)far_ids[i]);
		ck_assert_ptr_null(text);
		ck_assert_uint_eq(len, 0);
	}
	/* ids well past this result's symbols (policy constants and the
	 * line's own strings: a few dozen) are unknown too */
	for (i = 1000; i < 1010; i++) {
		const char *text = SENTINEL;

		ck_assert_status(maelys_datalog_result_symbol_text(
				     result,
				     (maelys_datalog_symbol_id_t)(max_id + i),
				     &text, NULL),
				 ST_INVALID);
		ck_assert_ptr_null(text);
	}
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* Symbol ids of one result mean nothing to another: a result that read
 * one input string does not know the ids of a result that read ten. */
START_TEST(test_api_symbol_text_of_other_results_id_is_invalid)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, echo_src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_result_t *big = solve_echo(session, 10);
	maelys_datalog_result_t *small = solve_echo(session, 1);
	maelys_datalog_fact_view_t rows[10];
	size_t n = 0, i, unknown = 0;

	ck_assert_status(
	    maelys_datalog_result_enumerate(big, "out", 1, rows, 10, &n),
	    ST_OK);
	ck_assert_uint_eq(n, 10);
	for (i = 0; i < n; i++) {
		maelys_datalog_symbol_id_t id = rows[i].terms[0].as.symbol_id;
		const char *text = NULL;
		size_t len = 0;
		maelys_datalog_status_t st;

		ck_assert_status(
		    maelys_datalog_result_symbol_text(big, id, &text, &len),
		    ST_OK);
		st = maelys_datalog_result_symbol_text(small, id, &text, &len);
		if (st == ST_INVALID) {
			ck_assert_ptr_null(text);
			unknown++;
			continue;
		}
		/* an id both know may name another string in each: reading
		 * it must still be safe and terminated */
		ck_assert_status(st, ST_OK);
		ck_assert_ptr_nonnull(text);
		ck_assert_uint_eq(strlen(text), len);
	}
	/* the small result has one input string: at least nine of the big
	 * one's ten are unknown to it */
	ck_assert_uint_ge(unknown, 9);
	(void)maelys_datalog_result_free(small);
	(void)maelys_datalog_result_free(big);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_api_query_of_unknown_value_is_not_found)
{
	maelys_datalog_policy_t *policy = dltest_load_walkthrough(&pty_domain);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_result_t *result =
	    solve_line(session, "ls", "bob", NULL);
	maelys_datalog_arg_t a[2];
	int found = 7;

	ck_assert_int_eq(dltest_query1(result, "allow", "ls"), 1);
	ck_assert_int_eq(dltest_query1(result, "allow", "never-seen-anywhere"),
			 0);
	ck_assert_int_eq(
	    dltest_query2(result, "deny", "__line__", "never-seen"), 0);
	ck_assert_int_eq(dltest_query2(result, "deny", "never-seen", "curl"),
			 0);
	a[0] = maelys_datalog_arg_integer(123456789012);
	ck_assert_status(
	    maelys_datalog_result_query(result, "allow", a, 1, &found), ST_OK);
	ck_assert_int_eq(found, 0);
	a[0] = maelys_datalog_arg_symbol_n("ls\0", 3);
	found = 7;
	ck_assert_status(
	    maelys_datalog_result_query(result, "allow", a, 1, &found), ST_OK);
	ck_assert_int_eq(found, 0);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* Reading a predicate that is unknown, of another arity, or not QUERY. */
static const struct {
	const char *predicate;
	size_t arity;
	maelys_datalog_status_t want;
} read_cases[] = {
    {"allow", 1, MAELYS_DATALOG_STATUS_OK},
    {"deny", 2, MAELYS_DATALOG_STATUS_OK},
    {"allow", 2, MAELYS_DATALOG_STATUS_ARITY},
    {"deny", 1, MAELYS_DATALOG_STATUS_ARITY},
    {"allow", 0, MAELYS_DATALOG_STATUS_ARITY},
    {"command", 1, MAELYS_DATALOG_STATUS_ROLE},
    {"shell_metachar", 1, MAELYS_DATALOG_STATUS_ROLE},
    {"forbidden_cmd", 1, MAELYS_DATALOG_STATUS_ROLE},
    {"trusted_user", 1, MAELYS_DATALOG_STATUS_ROLE},
    {"allowed", 1, MAELYS_DATALOG_STATUS_UNDECLARED},
    {"Allow", 1, MAELYS_DATALOG_STATUS_UNDECLARED},
    {"", 1, MAELYS_DATALOG_STATUS_UNDECLARED},
};

START_TEST(test_api_read_checks_predicate_role_and_arity)
{
	maelys_datalog_policy_t *policy = dltest_load_walkthrough(&pty_domain);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_result_t *result =
	    solve_line(session, "ls", "bob", NULL);
	size_t i;

	for (i = 0; i < sizeof read_cases / sizeof *read_cases; i++) {
		maelys_datalog_arg_t args[2] = {
		    maelys_datalog_arg_symbol("ls"),
		    maelys_datalog_arg_symbol("ls"),
		};
		maelys_datalog_fact_view_t rows[4];
		maelys_datalog_status_t want = read_cases[i].want;
		const char *pred = read_cases[i].predicate;
		size_t ar = read_cases[i].arity, n = 0;
		int found = 0;

		ck_assert_msg(maelys_datalog_result_query(result, pred, args,
							  ar, &found) == want,
			      "query %s/%zu", pred, ar);
		ck_assert_msg(
		    maelys_datalog_result_count(result, pred, ar, &n) == want,
		    "count %s/%zu", pred, ar);
		ck_assert_msg(maelys_datalog_result_enumerate(
				  result, pred, ar, rows, 4, &n) == want,
			      "enumerate %s/%zu", pred, ar);
		ck_assert_msg(maelys_datalog_result_enumerate_at(
				  result, pred, ar, 0, rows, 4, &n) == want,
			      "enumerate_at %s/%zu", pred, ar);
		if (want != ST_OK)
			ck_assert_uint_eq(n, 0);
	}
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* Input facts are checked against the policy when solved. */
START_TEST(test_api_solve_checks_input_predicates)
{
	static const struct {
		const char *predicate;
		size_t arity;
		maelys_datalog_status_t want;
	} cases[] = {
	    {"command", 1, MAELYS_DATALOG_STATUS_OK},
	    {"commands", 1, MAELYS_DATALOG_STATUS_UNDECLARED},
	    {"command", 2, MAELYS_DATALOG_STATUS_ARITY},
	    {"command", 0, MAELYS_DATALOG_STATUS_ARITY},
	    {"allow", 1, MAELYS_DATALOG_STATUS_ROLE},
	    {"deny_any", 1, MAELYS_DATALOG_STATUS_ROLE},
	    {"forbidden_cmd", 1, MAELYS_DATALOG_STATUS_ROLE},
	};
	maelys_datalog_policy_t *policy = dltest_load_walkthrough(&pty_domain);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	size_t i;

	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		maelys_datalog_diagnostic_t diag =
		    MAELYS_DATALOG_DIAGNOSTIC_INIT;
		maelys_datalog_input_edb_t *edb = dltest_new_edb();
		maelys_datalog_result_t *result = SENTINEL;
		maelys_datalog_arg_t args[2] = {
		    maelys_datalog_arg_symbol("shutdown"),
		    maelys_datalog_arg_symbol("x"),
		};
		maelys_datalog_status_t st;

		ck_assert_status(
		    MAELYS_DATALOG_ADD_FACT(edb, &diag, "command", "ls"),
		    ST_OK);
		ck_assert_status(
		    maelys_datalog_input_edb_add(edb, cases[i].predicate, args,
						 cases[i].arity, &diag),
		    ST_OK);
		st = maelys_datalog_session_solve_edb(session, edb, &result,
						      &diag);
		ck_assert_msg(st == cases[i].want, "%s/%zu: got %s, want %s",
			      cases[i].predicate, cases[i].arity,
			      maelys_datalog_status_name(st),
			      maelys_datalog_status_name(cases[i].want));
		if (st != ST_OK) {
			ck_assert_ptr_null(result);
			ck_assert_int_eq(diag.status, st);
			ck_assert_ptr_nonnull(
			    strstr(diag.message, cases[i].predicate));
		}
		(void)maelys_datalog_result_free(result);
		(void)maelys_datalog_input_edb_free(edb);
	}
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Files and directives                                                */

START_TEST(test_api_load_file_missing_is_io)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = SENTINEL;
	char path[4096];

	(void)snprintf(path, sizeof path, "%s/policies/no-such-policy.dl",
		       maelys_test_source_root());
	ck_assert_status(
	    maelys_datalog_policy_load_file(NULL, path, &policy, &diag),
	    MAELYS_DATALOG_STATUS_IO);
	ck_assert_ptr_null(policy);
	ck_assert_int_eq(diag.status, MAELYS_DATALOG_STATUS_IO);
	ck_assert_ptr_nonnull(strstr(diag.message, "no-such-policy.dl"));
}
END_TEST

START_TEST(test_api_load_file_directory_is_io)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = SENTINEL;
	char path[4096];

	ck_assert_status(maelys_datalog_domain_register(&pty_domain), ST_OK);
	(void)snprintf(path, sizeof path, "%s/policies",
		       maelys_test_source_root());
	ck_assert_status(
	    maelys_datalog_policy_load_file(NULL, path, &policy, &diag),
	    MAELYS_DATALOG_STATUS_IO);
	ck_assert_ptr_null(policy);
	ck_assert_int_eq(diag.status, MAELYS_DATALOG_STATUS_IO);
	policy = SENTINEL;
	ck_assert_status(
	    maelys_datalog_policy_load_file("pty_policy", path, &policy, NULL),
	    MAELYS_DATALOG_STATUS_IO);
	ck_assert_ptr_null(policy);
}
END_TEST

START_TEST(test_api_load_file_real_file_decides)
{
	maelys_datalog_policy_t *policy = dltest_load_walkthrough(&pty_domain);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_result_t *result;

	ck_assert_uint_eq(maelys_datalog_policy_directive_count(policy), 0);
	result = solve_line(session, "git", "bob", NULL);
	ck_assert_int_eq(dltest_query1(result, "allow", "git"), 1);
	(void)maelys_datalog_result_free(result);
	result = solve_line(session, "shutdown", "alice", NULL);
	ck_assert_int_eq(dltest_query1(result, "allow", "shutdown"), 0);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_api_directives_of_standalone_program_in_order)
{
	static const char src[] =
	    ".decl edge(x:symbol, w:number)\n"
	    ".input edge\n"
	    ".decl reach(x)\n"
	    ".output reach(filename=\"reach.csv\", delimiter=\",\")\n"
	    ".printsize reach\n"
	    ".output edge(IO=stdout)\n"
	    "reach(X) :- edge(X, _).\n";
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, src);
	maelys_datalog_directive_t d;

	ck_assert_uint_eq(maelys_datalog_policy_directive_count(policy), 4);

	ck_assert_status(maelys_datalog_policy_get_directive(policy, 0, &d),
			 ST_OK);
	ck_assert_int_eq(d.kind, MAELYS_DATALOG_DIRECTIVE_INPUT);
	ck_assert_str_eq(d.predicate, "edge");
	ck_assert_uint_eq(d.arity, 2);
	ck_assert_int_eq(d.columns[0], MAELYS_DATALOG_COLUMN_SYMBOL);
	ck_assert_int_eq(d.columns[1], MAELYS_DATALOG_COLUMN_NUMBER);
	ck_assert_ptr_null(d.filename);
	ck_assert_ptr_null(d.delimiter);
	ck_assert_int_eq(d.to_stdout, 0);

	ck_assert_status(maelys_datalog_policy_get_directive(policy, 1, &d),
			 ST_OK);
	ck_assert_int_eq(d.kind, MAELYS_DATALOG_DIRECTIVE_OUTPUT);
	ck_assert_str_eq(d.predicate, "reach");
	ck_assert_uint_eq(d.arity, 1);
	ck_assert_int_eq(d.columns[0], MAELYS_DATALOG_COLUMN_ANY);
	ck_assert_str_eq(d.filename, "reach.csv");
	ck_assert_str_eq(d.delimiter, ",");

	ck_assert_status(maelys_datalog_policy_get_directive(policy, 2, &d),
			 ST_OK);
	ck_assert_int_eq(d.kind, MAELYS_DATALOG_DIRECTIVE_PRINTSIZE);
	ck_assert_str_eq(d.predicate, "reach");

	ck_assert_status(maelys_datalog_policy_get_directive(policy, 3, &d),
			 ST_OK);
	ck_assert_int_eq(d.kind, MAELYS_DATALOG_DIRECTIVE_OUTPUT);
	ck_assert_str_eq(d.predicate, "edge");
	ck_assert_int_eq(d.to_stdout, 1);

	ck_assert_status(maelys_datalog_policy_get_directive(policy, 4, &d),
			 ST_INVALID);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_api_directives_of_domain_policy_are_none)
{
	maelys_datalog_policy_t *policy = dltest_load_walkthrough(&pty_domain);
	maelys_datalog_directive_t d;

	ck_assert_uint_eq(maelys_datalog_policy_directive_count(policy), 0);
	ck_assert_status(maelys_datalog_policy_get_directive(policy, 0, &d),
			 ST_INVALID);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_api_policy_reads_tells_which_inputs_rules_use)
{
	maelys_datalog_policy_t *policy = dltest_load(
	    NULL, SOURCE,
	    ".decl in(x)\n.input in\n.decl unused(x)\n.input unused\n"
	    ".decl neg(x)\n.input neg\n.decl out(x)\n"
	    "out(X) :- in(X), not(neg(X)).\n");
	int reads = -1;

	ck_assert_int_eq(maelys_datalog_policy_reads(policy, "in", 1, &reads),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(reads, 1);
	ck_assert_int_eq(maelys_datalog_policy_reads(policy, "neg", 1, &reads),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(reads, 1); /* negated use is a use */
	ck_assert_int_eq(
	    maelys_datalog_policy_reads(policy, "unused", 1, &reads),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(reads, 0);
	ck_assert_int_eq(maelys_datalog_policy_reads(policy, "out", 1, &reads),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(reads, 0); /* only a head */
	reads = -1;
	ck_assert_int_eq(maelys_datalog_policy_reads(policy, "nope", 1, &reads),
			 MAELYS_DATALOG_STATUS_UNDECLARED);
	ck_assert_int_eq(reads, 0);
	ck_assert_int_eq(maelys_datalog_policy_reads(policy, "in", 2, &reads),
			 MAELYS_DATALOG_STATUS_ARITY);
	ck_assert_int_eq(maelys_datalog_policy_reads(NULL, "in", 1, &reads),
			 MAELYS_DATALOG_STATUS_INVALID_ARGUMENT);
	ck_assert_int_eq(maelys_datalog_policy_reads(policy, "in", 1, NULL),
			 MAELYS_DATALOG_STATUS_INVALID_ARGUMENT);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_api_policy_reads_sees_inputs_read_in_an_aggregate)
{
	maelys_datalog_policy_t *policy = dltest_load(
	    NULL, SOURCE,
	    ".decl in(x)\n.input in\n.decl key(x)\n.input key\n"
	    ".decl out(x, n:number)\n"
	    "out(K, N) :- key(K), N = count : { in(K) }.\n");
	int reads = -1;

	ck_assert_int_eq(maelys_datalog_policy_reads(policy, "in", 1, &reads),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(reads, 1); /* read only inside the count */
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* policy_depends: what a relation's tuples can be derived from, however
 * deep - through helpers, negation and aggregates - and nothing else. */
START_TEST(test_api_policy_depends_follows_rules_to_their_inputs)
{
	maelys_datalog_policy_t *policy = dltest_load(
	    NULL, SOURCE,
	    ".decl a(x)\n.input a\n.decl b(x)\n.input b\n"
	    ".decl c(x)\n.input c\n.decl d(x)\n.input d\n"
	    ".decl e(x)\n.input e\n"
	    ".decl h1(x)\n.decl h2(x)\n.decl h3(x, n:number)\n"
	    ".decl top(x)\n.decl other(x)\n.decl rec(x)\n"
	    "h1(X) :- a(X), not(b(X)).\n"
	    "h2(X) :- h1(X).\n"
	    "h3(X, N) :- h2(X), N = count : { c(X) }.\n"
	    "top(X) :- h3(X, _).\n"
	    "other(X) :- d(X), top(X).\n"
	    "rec(X) :- a(X).\n"
	    "rec(X) :- rec(X), e(X).\n");
	static const struct {
		const char *pred, *on;
		size_t arity;
		int depends;
	} rows[] = {
	    {"top", "a", 1, 1},   /* three rules down */
	    {"top", "b", 1, 1},   /* negated */
	    {"top", "c", 1, 1},   /* in an aggregate */
	    {"top", "d", 1, 0},   /* read by a rule that reads top */
	    {"top", "e", 1, 0},   /* unrelated */
	    {"other", "c", 1, 1}, /* through top */
	    {"h1", "h2", 1, 0},   /* the other way */
	    {"rec", "e", 1, 1},   /* recursion */
	    {"rec", "rec", 1, 1}, /* a relation read by its own rule */
	    {"h1", "h1", 1, 0},   /* ... and one that is not */
	};
	size_t i;
	int depends;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		depends = -1;
		ck_assert_int_eq(maelys_datalog_policy_depends(
				     policy, rows[i].pred, 1, rows[i].on,
				     rows[i].arity, &depends),
				 MAELYS_DATALOG_STATUS_OK);
		ck_assert_msg(depends == rows[i].depends,
			      "%s on %s: %d, expected %d", rows[i].pred,
			      rows[i].on, depends, rows[i].depends);
	}
	depends = -1;
	ck_assert_int_eq(
	    maelys_datalog_policy_depends(policy, "nope", 1, "a", 1, &depends),
	    MAELYS_DATALOG_STATUS_UNDECLARED);
	ck_assert_int_eq(depends, 0);
	ck_assert_int_eq(
	    maelys_datalog_policy_depends(policy, "top", 1, "nope", 1, &depends),
	    MAELYS_DATALOG_STATUS_UNDECLARED);
	ck_assert_int_eq(
	    maelys_datalog_policy_depends(policy, "top", 2, "a", 1, &depends),
	    MAELYS_DATALOG_STATUS_ARITY);
	ck_assert_int_eq(
	    maelys_datalog_policy_depends(policy, "top", 1, "a", 3, &depends),
	    MAELYS_DATALOG_STATUS_ARITY);
	ck_assert_int_eq(
	    maelys_datalog_policy_depends(NULL, "top", 1, "a", 1, &depends),
	    MAELYS_DATALOG_STATUS_INVALID_ARGUMENT);
	ck_assert_int_eq(
	    maelys_datalog_policy_depends(policy, "top", 1, NULL, 1, &depends),
	    MAELYS_DATALOG_STATUS_INVALID_ARGUMENT);
	ck_assert_int_eq(
	    maelys_datalog_policy_depends(policy, "top", 1, "a", 1, NULL),
	    MAELYS_DATALOG_STATUS_INVALID_ARGUMENT);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_api_policy_defines_tells_facts_and_rule_heads)
{
	maelys_datalog_policy_t *policy = dltest_load(
	    NULL, SOURCE,
	    ".decl in(x)\n.input in\n.decl by_rule(x)\n.decl by_fact(x)\n"
	    ".decl read_only(x)\n.decl out(x)\n"
	    "by_fact(\"a\").\n"
	    "by_rule(X) :- in(X), not(read_only(X)).\n"
	    "out(X) :- by_rule(X), by_fact(X).\n");
	int defines = -1;

	ck_assert_status(
	    maelys_datalog_policy_defines(policy, "by_rule", 1, &defines),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(defines, 1);
	ck_assert_status(
	    maelys_datalog_policy_defines(policy, "by_fact", 1, &defines),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(defines, 1);
	ck_assert_status(
	    maelys_datalog_policy_defines(policy, "read_only", 1, &defines),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(defines, 0); /* read, never given */
	ck_assert_status(
	    maelys_datalog_policy_defines(policy, "in", 1, &defines),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(defines, 0); /* input facts are not the policy's */
	defines = -1;
	ck_assert_status(
	    maelys_datalog_policy_defines(policy, "nope", 1, &defines),
	    MAELYS_DATALOG_STATUS_UNDECLARED);
	ck_assert_int_eq(defines, 0);
	ck_assert_status(
	    maelys_datalog_policy_defines(policy, "out", 2, &defines),
	    MAELYS_DATALOG_STATUS_ARITY);
	ck_assert_status(maelys_datalog_policy_defines(NULL, "out", 1, &defines),
			 MAELYS_DATALOG_STATUS_INVALID_ARGUMENT);
	ck_assert_status(maelys_datalog_policy_defines(policy, "out", 1, NULL),
			 MAELYS_DATALOG_STATUS_INVALID_ARGUMENT);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("api");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_api_version_matches_header_macros);
	tcase_add_test(tc, test_api_status_name_every_status_has_its_name);
	tcase_add_test(tc, test_api_status_name_out_of_range_is_unknown);
	tcase_add_test(
	    tc, test_api_status_meaning_every_status_distinct_and_nonempty);
	tcase_add_test(tc, test_api_free_null_returns_ok);
	tcase_add_test(tc, test_api_domain_register_null_is_invalid_argument);
	tcase_add_test(tc,
		       test_api_load_null_arguments_are_invalid_and_clear_out);
	tcase_add_test(tc,
		       test_api_load_file_null_path_is_invalid_and_clears_out);
	tcase_add_test(tc, test_api_load_unknown_flags_are_invalid);
	tcase_add_test(tc, test_api_load_unregistered_domain_is_unknown_domain);
	tcase_add_test(tc, test_api_load_null_source_name_reports_inline);
	tcase_add_test(tc, test_api_directive_null_arguments_are_invalid);
	tcase_add_test(tc,
		       test_api_budget_tables_reject_null_and_unknown_budget);
	tcase_add_test(tc, test_api_budget_readers_failing_clear_value);
	tcase_add_test(tc, test_api_session_null_arguments_are_invalid);
	tcase_add_test(tc,
		       test_api_edb_null_and_malformed_arguments_are_invalid);
	tcase_add_test(tc, test_api_edb_add_over_hard_limits_is_limit);
	tcase_add_test(tc, test_api_edb_get_reads_back_each_fact_as_added);
	tcase_add_test(
	    tc, test_api_result_null_arguments_are_invalid_and_clear_out);
	tcase_add_test(tc, test_api_builders_null_arguments_are_invalid);
	tcase_add_test(
	    tc, test_api_policy_freed_after_session_create_keeps_working);
	tcase_add_test(tc,
		       test_api_session_freed_with_live_result_stays_readable);
	tcase_add_test(tc, test_api_two_results_of_one_session_are_independent);
	tcase_add_test(tc, test_api_edb_clear_truncate_count_shape_the_input);
	tcase_add_test(
	    tc, test_api_add_facts_with_one_bad_fact_leaves_edb_unchanged);
	tcase_add_test(tc, test_api_macros_and_functions_give_same_results);
	tcase_add_test(tc, test_api_symbol_n_keeps_nul_and_high_bytes);
	tcase_add_test(tc, test_api_integer_terms_round_trip);
	tcase_add_test(
	    tc, test_api_enumerate_capacity_zero_is_truncated_with_count);
	tcase_add_test(tc, test_api_enumerate_exact_capacity_is_ok);
	tcase_add_test(
	    tc, test_api_enumerate_too_small_is_truncated_first_rows_filled);
	tcase_add_test(tc, test_api_enumerate_at_pages_reproduce_enumerate);
	tcase_add_test(tc, test_api_symbol_text_of_unknown_id_is_invalid);
	tcase_add_test(tc, test_api_symbol_text_of_other_results_id_is_invalid);
	tcase_add_test(tc, test_api_query_of_unknown_value_is_not_found);
	tcase_add_test(tc, test_api_read_checks_predicate_role_and_arity);
	tcase_add_test(tc, test_api_solve_checks_input_predicates);
	tcase_add_test(tc, test_api_load_file_missing_is_io);
	tcase_add_test(tc, test_api_load_file_directory_is_io);
	tcase_add_test(tc, test_api_load_file_real_file_decides);
	tcase_add_test(tc, test_api_directives_of_standalone_program_in_order);
	tcase_add_test(tc, test_api_directives_of_domain_policy_are_none);
	tcase_add_test(tc, test_api_policy_reads_tells_which_inputs_rules_use);
	tcase_add_test(tc, test_api_policy_reads_sees_inputs_read_in_an_aggregate);
	tcase_add_test(tc, test_api_policy_depends_follows_rules_to_their_inputs);
	tcase_add_test(tc, test_api_policy_defines_tells_facts_and_rule_heads);
	suite_add_tcase(s, tc);
	return s;
}
