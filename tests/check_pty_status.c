/* SPDX-License-Identifier: MIT */
/*
 * bash's reports on the status channel, "STATUS\0$PWD\0" each
 * (line/status.c), read however the reads cut them: every report is
 * seen once with its status, a $PWD of any length passes through the
 * reader's bounded state, and a status longer than any of bash's stops
 * the reading.  And the short answer to a require_confirm question
 * (line/answer.c): only y or yes is yes.
 */
#include "runner.h"

#include "pty_answer.h"
#include "pty_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct seen {
	char codes[8][PTY_STATUS_CODE_MAX + 1];
	size_t n;
	int stop_at; /* the report that answers 7, or -1 */
};

static int
seen_report(void *arg, const char *code)
{
	struct seen *s = arg;

	ck_assert_uint_lt(s->n, 8);
	(void)snprintf(s->codes[s->n], sizeof s->codes[s->n], "%s", code);
	s->n++;
	return s->stop_at >= 0 && (size_t)s->stop_at == s->n - 1 ? 7 : 0;
}

/* Feeds buf[0..n) in pieces of `step` bytes. */
static int
feed_in_steps(struct pty_status_reader *r, const char *buf, size_t n,
	      size_t step, struct seen *s)
{
	size_t off;
	int rc = 0;

	for (off = 0; off < n && rc == 0; off += step) {
		size_t k = n - off < step ? n - off : step;

		rc = pty_status_feed(r, buf + off, k, seen_report, s);
	}
	return rc;
}

START_TEST(test_status_reports_read_whatever_the_pieces)
{
	static const char stream[] = "0\0/home/alice\0"
				     "127\0/tmp\0"
				     "1\0\0"
				     "130\0/a/b/c\0";
	size_t step;

	for (step = 1; step <= sizeof stream; step++) {
		struct pty_status_reader r = {0};
		struct seen s = {.stop_at = -1};

		ck_assert_int_eq(
		    feed_in_steps(&r, stream, sizeof stream - 1, step, &s), 0);
		ck_assert_uint_eq(s.n, 4);
		ck_assert_str_eq(s.codes[0], "0");
		ck_assert_str_eq(s.codes[1], "127");
		ck_assert_str_eq(s.codes[2], "1");
		ck_assert_str_eq(s.codes[3], "130");
	}
}
END_TEST

START_TEST(test_status_pwd_of_any_length_passes_through)
{
	size_t pwd = 1 << 20, n = pwd + 8;
	char *buf = malloc(n);
	struct pty_status_reader r = {0};
	struct seen s = {.stop_at = -1};

	ck_assert_ptr_nonnull(buf);
	memcpy(buf, "0\0", 2);
	memset(buf + 2, '/', pwd);
	memcpy(buf + 2 + pwd,
	       "\0"
	       "2\0/\0",
	       5);
	ck_assert_int_eq(feed_in_steps(&r, buf, pwd + 7, 4096, &s), 0);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_str_eq(s.codes[1], "2");
	free(buf);
}
END_TEST

START_TEST(test_status_half_a_report_waits_for_the_rest)
{
	struct pty_status_reader r = {0};
	struct seen s = {.stop_at = -1};

	ck_assert_int_eq(pty_status_feed(&r, "12", 2, seen_report, &s), 0);
	ck_assert_int_eq(pty_status_feed(&r, "7\0/ho", 5, seen_report, &s), 0);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_int_eq(pty_status_feed(&r, "me\0", 3, seen_report, &s), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_str_eq(s.codes[0], "127");
}
END_TEST

START_TEST(test_status_longer_than_any_stops_the_reading)
{
	static const char longest[] = "123456789012345\0/\0";
	static const char longer[] = "1234567890123456\0/\0";
	struct pty_status_reader r = {0};
	struct seen s = {.stop_at = -1};

	ck_assert_int_eq(
	    pty_status_feed(&r, longest, sizeof longest - 1, seen_report, &s),
	    0);
	ck_assert_uint_eq(s.n, 1);
	/* cut where it is too long already, and whole */
	ck_assert_int_eq(feed_in_steps(&r, longer, sizeof longer - 1, 3, &s),
			 -1);
	memset(&r, 0, sizeof r);
	ck_assert_int_eq(
	    pty_status_feed(&r, longer, sizeof longer - 1, seen_report, &s),
	    -1);
	ck_assert_uint_eq(s.n, 1);
}
END_TEST

START_TEST(test_status_a_refused_report_stops_the_reading)
{
	static const char stream[] = "0\0/\0"
				     "1\0/\0"
				     "2\0/\0";
	struct pty_status_reader r = {0};
	struct seen s = {.stop_at = 1};

	ck_assert_int_eq(
	    pty_status_feed(&r, stream, sizeof stream - 1, seen_report, &s), 7);
	ck_assert_uint_eq(s.n, 2);
}
END_TEST

/* Types keys into a new answer; returns how it ended and what was echoed. */
static enum pty_answer_step
answer(const char *keys, char *shown, size_t cap)
{
	struct pty_answer a;
	enum pty_answer_step step = PTY_ANSWER_MORE;
	char echo[4];
	size_t used = 0;

	pty_answer_start(&a);
	shown[0] = '\0';
	for (; *keys != '\0' && step == PTY_ANSWER_MORE; keys++) {
		step = pty_answer_key(&a, *keys, echo);
		used += (size_t)snprintf(shown + used, cap - used, "%s", echo);
	}
	return step;
}

START_TEST(test_answer_only_y_or_yes_is_yes)
{
	static const struct {
		const char *keys;
		enum pty_answer_step want;
		const char *shown;
	} cases[] = {
	    {"y\r", PTY_ANSWER_YES, "y"},
	    {"YeS\r", PTY_ANSWER_YES, "YeS"},
	    {"yes\n", PTY_ANSWER_YES, "yes"},
	    {"\r", PTY_ANSWER_NO, ""},
	    {"n\r", PTY_ANSWER_NO, "n"},
	    {"yess\r", PTY_ANSWER_NO, "yess"},
	    {"y\x03", PTY_ANSWER_NO, "y"}, /* Ctrl-C */
	    {"\x04", PTY_ANSWER_NO, ""},   /* Ctrl-D */
	    {"x\x7fy\r", PTY_ANSWER_YES, "x\b \by"},
	    {"\x7f\x08y\r", PTY_ANSWER_YES, "y"},       /* nothing to erase */
	    {"\x1b[Ay\r", PTY_ANSWER_NO, "[Ay"},        /* ESC is not shown */
	    {"yyyyyyyyyy\r", PTY_ANSWER_NO, "yyyyyyy"}, /* a word, no more */
	    {"y", PTY_ANSWER_MORE, "y"},
	};
	char shown[64];
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ck_assert_msg(answer(cases[i].keys, shown, sizeof shown) ==
				  cases[i].want,
			      "case %zu", i);
		ck_assert_str_eq(shown, cases[i].shown);
	}
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("status");

	tcase_add_test(tc, test_status_reports_read_whatever_the_pieces);
	tcase_add_test(tc, test_status_pwd_of_any_length_passes_through);
	tcase_add_test(tc, test_status_half_a_report_waits_for_the_rest);
	tcase_add_test(tc, test_status_longer_than_any_stops_the_reading);
	tcase_add_test(tc, test_status_a_refused_report_stops_the_reading);
	tcase_add_test(tc, test_answer_only_y_or_yes_is_yes);
	suite_add_tcase(s, tc);
	return s;
}
