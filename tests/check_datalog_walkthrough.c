/* SPDX-License-Identifier: MIT */
/*
 * The Level 1 walkthrough (the document our API comes from), run as
 * written: its C code is included verbatim from walkthrough/level1_seed.inc
 * (the API contract: it must compile unchanged against our headers), loads
 * the shipped policies/walkthrough.dl (the walkthrough's policy, verbatim)
 * with its own load_pty_policy, and decides the walkthrough's five lines
 * with its own evaluate_line, as user "bob".
 * The outcomes must be the transcript's.  Then the same decisions are read
 * through the API directly, to check the reasons behind them: which deny
 * fact fired, and that curl depends on who asks.
 */
#include "runner.h"

#include "walkthrough/level1_seed.inc"

#include <stdlib.h>

#include "datalog_testutil.h"

/* The walkthrough's own loading path, which must succeed.  The seed's
 * load_pty_policy takes a C string: dltest_read_walkthrough NUL-terminates. */
static maelys_datalog_session_t *
open_level1(void)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_session_t *session = NULL;
	maelys_datalog_status_t st;
	size_t len;
	char *src = dltest_read_walkthrough(&len);

	st = load_pty_policy(src, &session, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "load_pty_policy: %s: %s",
		      maelys_datalog_status_name(st), diag.message);
	ck_assert_ptr_nonnull(session);
	free(src);
	return session;
}

/* "Level 1 in action": the five lines and what the transcript says. */
static const struct {
	const char *line;
	int allowed;
} transcript[] = {
    {"shutdown now", 0},
    {"echo hello | grep hello", 0},
    {"git commit -m \"feat: solver\"", 0},
    {"CMD=rm; $CMD /", 0},
    {"git push origin feature/x", 1},
};
enum { NLINES = sizeof transcript / sizeof *transcript };

START_TEST(test_walkthrough_transcript_lines_decide_as_documented)
{
	maelys_datalog_session_t *session = open_level1();
	int round;
	size_t i;

	/* the session is loaded once and reused, as in the walkthrough; a
	 * second pass must decide the same */
	for (round = 0; round < 2; round++)
		for (i = 0; i < NLINES; i++) {
			const char *line = transcript[i].line;
			int got = evaluate_line(session, line, strlen(line),
						"bob", 0, NULL);

			ck_assert_msg(got == transcript[i].allowed,
				      "'%s': evaluate_line gave %d, the "
				      "walkthrough says %d",
				      line, got, transcript[i].allowed);
		}
	(void)maelys_datalog_session_free(session);
}
END_TEST

/* The scan runs before tokenising: quotes stop a line before any solve,
 * and the metacharacters of the others become facts. */
static const struct {
	const char *line;
	int supported;
	unsigned flags;
} scans[] = {
    {"shutdown now", 1, 0},
    {"echo hello | grep hello", 1, META_PIPE},
    {"git commit -m \"feat: solver\"", 0, 0},
    {"CMD=rm; $CMD /", 1, META_SEMICOLON | META_VAR},
    {"git push origin feature/x", 1, 0},
    {"cat < in > out", 1, META_REDIRECT},
    {"echo `id`", 1, META_BACKTICK},
    {"echo 'x'", 0, 0},
    {"sleep 1 &", 0, 0},
};

START_TEST(test_walkthrough_scan_classifies_lines)
{
	const char *line = scans[_i].line;
	unsigned flags = 0xffu;
	int ok = scan_metacharacters(line, strlen(line), &flags);

	ck_assert_msg(ok == scans[_i].supported, "'%s': scan gave %d", line,
		      ok);
	if (ok)
		ck_assert_msg(flags == scans[_i].flags,
			      "'%s': flags %#x, want %#x", line, flags,
			      scans[_i].flags);
}
END_TEST

/* Solves one line's facts with the API directly: command, user, each
 * metacharacter class (NULL-terminated) and no arguments. */
static maelys_datalog_result_t *
solve_facts(maelys_datalog_session_t *session, const char *command,
	    const char *user, const char *const *metachars)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *result;

	ck_assert_status(
	    MAELYS_DATALOG_ADD_FACTS(edb, &diag,
				     MAELYS_DATALOG_FACT("command", command),
				     MAELYS_DATALOG_FACT("user", user)),
	    MAELYS_DATALOG_STATUS_OK);
	for (; metachars != NULL && *metachars != NULL; metachars++)
		ck_assert_status(MAELYS_DATALOG_ADD_FACT(
				     edb, &diag, "shell_metachar", *metachars),
				 MAELYS_DATALOG_STATUS_OK);
	result = dltest_solve(session, edb);
	(void)maelys_datalog_input_edb_free(edb);
	return result;
}

/* Whether pred(a) holds, or pred(a, b) when `b` is not NULL. */
static int
holds(const maelys_datalog_result_t *result, const char *pred, const char *a,
      const char *b)
{
	return b == NULL ? dltest_query1(result, pred, a)
			 : dltest_query2(result, pred, a, b);
}

START_TEST(test_walkthrough_shutdown_is_forbidden_by_policy)
{
	maelys_datalog_session_t *session = open_level1();
	maelys_datalog_result_t *r =
	    solve_facts(session, "shutdown", "bob", NULL);

	ck_assert_int_eq(
	    holds(r, "deny", "shutdown", "command is forbidden by policy"), 1);
	ck_assert_uint_eq(dltest_count(r, "deny", 2), 1);
	ck_assert_int_eq(holds(r, "deny_any", "shutdown", NULL), 1);
	ck_assert_int_eq(holds(r, "allow", "shutdown", NULL), 0);
	/* trust does not lift it: alice cannot shut down either */
	(void)maelys_datalog_result_free(r);
	r = solve_facts(session, "shutdown", "alice", NULL);
	ck_assert_int_eq(holds(r, "allow", "shutdown", NULL), 0);
	ck_assert_int_eq(
	    holds(r, "deny", "shutdown", "command is forbidden by policy"), 1);
	(void)maelys_datalog_result_free(r);
	(void)maelys_datalog_session_free(session);
}
END_TEST

START_TEST(test_walkthrough_pipe_denies_the_line)
{
	static const char *const piped[] = {"pipe", NULL};
	static const char *const both[] = {"semicolon", "var_expand", NULL};
	maelys_datalog_session_t *session = open_level1();
	maelys_datalog_result_t *r = solve_facts(session, "echo", "bob", piped);

	ck_assert_int_eq(
	    holds(r, "deny", "__line__", "shell metacharacter in line"), 1);
	ck_assert_uint_eq(dltest_count(r, "deny", 2), 1);
	ck_assert_int_eq(holds(r, "deny_any", "__line__", NULL), 1);
	/* the command itself is harmless, the line is not */
	ck_assert_int_eq(holds(r, "deny_any", "echo", NULL), 0);
	ck_assert_int_eq(holds(r, "allow", "echo", NULL), 0);
	(void)maelys_datalog_result_free(r);
	/* two metacharacters still make one line-level denial */
	r = solve_facts(session, "CMD=rm", "bob", both);
	ck_assert_int_eq(
	    holds(r, "deny", "__line__", "shell metacharacter in line"), 1);
	ck_assert_uint_eq(dltest_count(r, "deny", 2), 1);
	ck_assert_int_eq(holds(r, "allow", "CMD=rm", NULL), 0);
	(void)maelys_datalog_result_free(r);
	/* without one, echo is allowed */
	r = solve_facts(session, "echo", "bob", NULL);
	ck_assert_uint_eq(dltest_count(r, "deny", 2), 0);
	ck_assert_int_eq(holds(r, "allow", "echo", NULL), 1);
	(void)maelys_datalog_result_free(r);
	(void)maelys_datalog_session_free(session);
}
END_TEST

/* curl is for trusted users only: the same command, different askers. */
static const struct {
	const char *user;
	int allowed;
} curl_users[] = {
    {"bob", 0}, {"alice", 1}, {"root", 1}, {"mallory", 0}, {"Alice", 0},
};

START_TEST(test_walkthrough_curl_depends_on_user)
{
	maelys_datalog_session_t *session = open_level1();
	const char *user = curl_users[_i].user;
	maelys_datalog_result_t *r = solve_facts(session, "curl", user, NULL);
	static const char line[] = "curl example.com";

	ck_assert_int_eq(
	    holds(r, "deny", "curl", "curl is restricted to trusted users"),
	    !curl_users[_i].allowed);
	ck_assert_uint_eq(dltest_count(r, "deny", 2),
			  (size_t)!curl_users[_i].allowed);
	ck_assert_int_eq(holds(r, "allow", "curl", NULL),
			 curl_users[_i].allowed);
	(void)maelys_datalog_result_free(r);
	/* and the walkthrough's own path agrees */
	ck_assert_int_eq(
	    evaluate_line(session, line, strlen(line), user, 0, NULL),
	    curl_users[_i].allowed);
	(void)maelys_datalog_session_free(session);
}
END_TEST

START_TEST(test_walkthrough_git_push_is_allowed_without_denials)
{
	maelys_datalog_session_t *session = open_level1();
	maelys_datalog_result_t *r = solve_facts(session, "git", "bob", NULL);

	ck_assert_int_eq(holds(r, "allow", "git", NULL), 1);
	ck_assert_uint_eq(dltest_count(r, "deny", 2), 0);
	/* allow names the line's command and nothing else */
	ck_assert_int_eq(holds(r, "allow", "push", NULL), 0);
	(void)maelys_datalog_result_free(r);
	(void)maelys_datalog_session_free(session);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("walkthrough");

	tcase_add_test(tc,
		       test_walkthrough_transcript_lines_decide_as_documented);
	tcase_add_loop_test(tc, test_walkthrough_scan_classifies_lines, 0,
			    (int)(sizeof scans / sizeof *scans));
	tcase_add_test(tc, test_walkthrough_shutdown_is_forbidden_by_policy);
	tcase_add_test(tc, test_walkthrough_pipe_denies_the_line);
	tcase_add_loop_test(tc, test_walkthrough_curl_depends_on_user, 0,
			    (int)(sizeof curl_users / sizeof *curl_users));
	tcase_add_test(tc,
		       test_walkthrough_git_push_is_allowed_without_denials);
	suite_add_tcase(s, tc);
	return s;
}
