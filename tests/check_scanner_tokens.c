/* SPDX-License-Identifier: MIT */
/*
 * The restricted tokeniser and the line limits: words split on spaces and
 * tabs only, tokens point into the line, an empty line is no command, and
 * each limit holds exactly at its edge (4,095 bytes pass, 4,096 do not; 63
 * words pass, 64 do not).
 */
#include "runner.h"

#include "scanner.h"

#include <stdlib.h>
#include <string.h>

static void
assert_tokens(const char *line, const char *const *want, size_t n)
{
	struct scan_result r;
	size_t i;

	scan_line(line, strlen(line), &r);
	ck_assert_int_eq(r.refusal, SCAN_ACCEPT);
	ck_assert_uint_eq(r.ntokens, n);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(r.tokens[i].len, strlen(want[i]));
		ck_assert(memcmp(r.tokens[i].text, want[i], r.tokens[i].len) ==
			  0);
		/* a token is a slice of the line, not a copy */
		ck_assert(r.tokens[i].text >= line &&
			  r.tokens[i].text < line + strlen(line));
	}
}

START_TEST(test_tokens_walkthrough_line_split_on_blanks)
{
	static const char *const want[] = {"git", "push", "origin",
					   "feature/x"};

	assert_tokens("git push origin feature/x", want, 4);
}
END_TEST

START_TEST(test_tokens_tabs_and_runs_of_blanks_separate)
{
	static const char *const want[] = {"ls", "-l", "/tmp"};

	assert_tokens("  ls \t\t-l   /tmp\t", want, 3);
}
END_TEST

START_TEST(test_tokens_metachars_stay_inside_words)
{
	static const char *const want[] = {"echo", "a|b", ";"};

	assert_tokens("echo a|b ;", want, 3);
}
END_TEST

START_TEST(test_tokens_empty_line_is_no_command)
{
	struct scan_result r;

	scan_line("", 0, &r);
	ck_assert_int_eq(r.refusal, SCAN_ACCEPT);
	ck_assert_uint_eq(r.ntokens, 0);
	scan_line(" \t  ", 4, &r);
	ck_assert_int_eq(r.refusal, SCAN_ACCEPT);
	ck_assert_uint_eq(r.ntokens, 0);
}
END_TEST

static char *
line_of_words(size_t words)
{
	char *s = malloc(words * 2 + 1);
	size_t i;

	ck_assert_ptr_nonnull(s);
	for (i = 0; i < words; i++) {
		s[2 * i] = 'a';
		s[2 * i + 1] = ' ';
	}
	s[words * 2] = '\0';
	return s;
}

START_TEST(test_tokens_63_words_pass_64_refused)
{
	struct scan_result r;
	char *ok = line_of_words(SCAN_TOKENS_MAX);
	char *over = line_of_words(SCAN_TOKENS_MAX + 1);

	scan_line(ok, strlen(ok), &r);
	ck_assert_int_eq(r.refusal, SCAN_ACCEPT);
	ck_assert_uint_eq(r.ntokens, 63);
	scan_line(over, strlen(over), &r);
	ck_assert_int_eq(r.refusal, SCAN_REFUSE_TOO_MANY_TOKENS);
	ck_assert_uint_eq(r.refusal_offset, 63 * 2);
	ck_assert_uint_eq(r.ntokens, 63);
	free(ok);
	free(over);
}
END_TEST

START_TEST(test_tokens_4095_bytes_pass_4096_refused)
{
	char *line = malloc(SCAN_LINE_MAX + 1);
	struct scan_result r;

	ck_assert_ptr_nonnull(line);
	memset(line, 'a', SCAN_LINE_MAX + 1);
	scan_line(line, SCAN_LINE_MAX - 1, &r);
	ck_assert_int_eq(r.refusal, SCAN_ACCEPT);
	ck_assert_uint_eq(r.ntokens, 1);
	ck_assert_uint_eq(r.tokens[0].len, SCAN_LINE_MAX - 1);
	scan_line(line, SCAN_LINE_MAX, &r);
	ck_assert_int_eq(r.refusal, SCAN_REFUSE_TOO_LONG);
	ck_assert_uint_eq(r.ntokens, 0);
	scan_line(line, SCAN_LINE_MAX + 1, &r);
	ck_assert_int_eq(r.refusal, SCAN_REFUSE_TOO_LONG);
	free(line);
}
END_TEST

START_TEST(test_tokens_refused_line_still_reports_words)
{
	struct scan_result r;
	static const char line[] = "git commit -m \"x\"";

	scan_line(line, sizeof line - 1, &r);
	ck_assert_int_eq(r.refusal, SCAN_REFUSE_QUOTE);
	ck_assert_uint_eq(r.ntokens, 4);
	ck_assert(memcmp(r.tokens[0].text, "git", 3) == 0);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("scanner");
	TCase *tc = tcase_create("tokens");

	tcase_add_test(tc, test_tokens_walkthrough_line_split_on_blanks);
	tcase_add_test(tc, test_tokens_tabs_and_runs_of_blanks_separate);
	tcase_add_test(tc, test_tokens_metachars_stay_inside_words);
	tcase_add_test(tc, test_tokens_empty_line_is_no_command);
	tcase_add_test(tc, test_tokens_63_words_pass_64_refused);
	tcase_add_test(tc, test_tokens_4095_bytes_pass_4096_refused);
	tcase_add_test(tc, test_tokens_refused_line_still_reports_words);
	suite_add_tcase(s, tc);
	return s;
}
