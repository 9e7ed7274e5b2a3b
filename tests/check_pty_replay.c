/* SPDX-License-Identifier: MIT */
/*
 * The asciicast v2 reader of `maelys-pty replay` (pty/tools/cast_read.c)
 * and the program's answers that need no terminal (the terminal's part is
 * tests/pty_replay.sh, under tmux):
 *   - good files: our recorder's form (header with env and title; o, i,
 *     r, m events), asciinema's (idle_time_limit, null), CRLF lines, blank
 *     lines, integer times, equal times, a NUL inside the data, a code of
 *     a later format passed over, a line of exactly the longest length;
 *   - every malformed kind refused with its sentence and the line it is
 *     on: an empty file, a header that is not JSON, not an object, another
 *     version, a width or height out of range, a bad idle_time_limit; an
 *     event that is not JSON, not an array of three, a time that is not a
 *     number, negative, too large, or goes backwards, a code that is not a
 *     string, an "o" whose data is not a string, a bad "r" size; a line
 *     over 1 MiB; a file over the reader's bound;
 *   - the program: output written as recorded without a terminal, input
 *     not played, --markers listed with times and labels (control bytes
 *     shown as '?'), a refused file exits 2 naming FILE:LINE after what
 *     was played, usage errors exit 2.
 */
#define _GNU_SOURCE
#include "runner.h"

#include "pty_cast.h"
#include "pty_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HDR "{\"version\": 2, \"width\": 80, \"height\": 24}\n"

/* What one reading of a text found. */
struct cast_read {
	int rc;         /* pty_cast_begin's, then the last pty_cast_next's */
	size_t nevents; /* events handed out */
	size_t skipped; /* passed over */
	size_t lineno;  /* the reader's line at the end */
	char err[512];
	struct pty_cast_header h;
	struct pty_cast_event ev[8]; /* the first ones (data not kept) */
	char data[8][64];            /* their data, as far as it goes */
	size_t len[8];
};

static void
cast_read_text(const char *text, size_t len, uint64_t max,
	       struct cast_read *out)
{
	struct pty_cast_reader r;
	struct pty_cast_event ev;
	FILE *f;

	memset(out, 0, sizeof *out);
	f = fmemopen((void *)text, len == 0 ? 1 : len, "r");
	ck_assert_ptr_nonnull(f);
	if (len == 0)
		(void)getc(f); /* a stream of nothing: fmemopen wants a byte */
	out->rc = pty_cast_begin(&r, f, max, &out->h);
	while (out->rc == 0 && (out->rc = pty_cast_next(&r, &ev)) > 0) {
		if (out->nevents < 8) {
			out->ev[out->nevents] = ev;
			out->len[out->nevents] = ev.len;
			memcpy(out->data[out->nevents], ev.data,
			       ev.len < 63 ? ev.len : 63);
		}
		out->nevents++;
		out->rc = 0;
	}
	out->skipped = r.skipped;
	out->lineno = r.lineno;
	(void)snprintf(out->err, sizeof out->err, "%s", r.err);
	pty_cast_end(&r);
	pty_cast_end(&r); /* idempotent */
	(void)fclose(f);
}

static void
cast_read_str(const char *text, struct cast_read *out)
{
	cast_read_text(text, strlen(text), 0, out);
}

START_TEST(test_replay_reads_our_recording)
{
	static const char text[] =
	    "{\"version\": 2, \"width\": 100, \"height\": 30, \"timestamp\": "
	    "1796314321, \"env\": {\"SHELL\": \"/bin/bash\", \"TERM\": "
	    "\"xterm\"}, \"title\": \"maelys-pty session 42 "
	    "(alice@bastion)\"}\n"
	    "[0.000100, \"o\", \"$ \"]\n"
	    "[0.500000, \"i\", \"ls\\r\"]\n"
	    "[0.600000, \"m\", \"allow: ls\"]\n"
	    "[0.700000, \"o\", \"a  b\\r\\n\\u001b[1m$ \\u001b[0m\"]\n"
	    "[1.250000, \"r\", \"120x40\"]\n";
	struct cast_read c;

	cast_read_str(text, &c);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_uint_eq(c.h.width, 100);
	ck_assert_uint_eq(c.h.height, 30);
	ck_assert(c.h.idle_time_limit < 0);
	ck_assert_uint_eq(c.nevents, 5);
	ck_assert_int_eq(c.ev[0].code, PTY_CAST_OUTPUT);
	ck_assert_str_eq(c.data[0], "$ ");
	ck_assert_uint_eq(c.ev[0].lineno, 2);
	ck_assert_int_eq(c.ev[1].code, PTY_CAST_INPUT);
	ck_assert_str_eq(c.data[1], "ls\r");
	ck_assert_int_eq(c.ev[2].code, PTY_CAST_MARKER);
	ck_assert_str_eq(c.data[2], "allow: ls");
	ck_assert(c.ev[2].time == 0.6);
	ck_assert_str_eq(c.data[3], "a  b\r\n\033[1m$ \033[0m");
	ck_assert_int_eq(c.ev[4].code, PTY_CAST_RESIZE);
	ck_assert_uint_eq(c.ev[4].cols, 120);
	ck_assert_uint_eq(c.ev[4].rows, 40);
	ck_assert_uint_eq(c.ev[4].lineno, 6);
	ck_assert_uint_eq(c.skipped, 0);
}
END_TEST

/* Every size a terminal can be given (a struct winsize holds 1 to 65535
 * each, and the guard gives 80x24 for 0) is read, in the header and in
 * an "r" event, as the recorder writes it; so is a size with leading
 * zeros, which another writer might write.  What follows a large size is
 * read to the end. */
START_TEST(test_replay_reads_every_size_a_terminal_can_have)
{
	static const char text[] =
	    "{\"version\": 2, \"width\": 65535, \"height\": 65535}\n"
	    "[0.1, \"r\", \"65535x65535\"]\n"
	    "[0.2, \"r\", \"10001x24\"]\n"
	    "[0.3, \"r\", \"1x1\"]\n"
	    "[0.4, \"r\", \"0080x024\"]\n"
	    "[0.5, \"m\", \"allow: id -un\"]\n"
	    "[0.6, \"m\", \"deny: python3\"]\n";
	static const unsigned want[4][2] = {
	    {65535, 65535}, {10001, 24}, {1, 1}, {80, 24}};
	struct cast_read c;
	size_t i;

	cast_read_str(text, &c);
	ck_assert_msg(c.rc == 0, "%s", c.err);
	ck_assert_uint_eq(c.h.width, 65535);
	ck_assert_uint_eq(c.h.height, 65535);
	ck_assert_uint_eq(c.nevents, 6);
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(c.ev[i].code, PTY_CAST_RESIZE);
		ck_assert_uint_eq(c.ev[i].cols, want[i][0]);
		ck_assert_uint_eq(c.ev[i].rows, want[i][1]);
	}
	ck_assert_str_eq(c.data[4], "allow: id -un");
	ck_assert_str_eq(c.data[5], "deny: python3");
}
END_TEST

START_TEST(test_replay_reads_other_writers_forms)
{
	/* asciinema's header with an idle limit, CRLF lines, an integer
	 * time, two events at the same time, a NUL in the data, a code of
	 * a later format with data that is not a string, blank lines */
	static const char text[] =
	    "{\"version\": 2, \"width\": 80, \"height\": 24, "
	    "\"idle_time_limit\": 2.5, \"theme\": {\"fg\": \"#d0d0d0\"}}\r\n"
	    "[1, \"o\", \"one\"]\r\n"
	    "[1, \"o\", \"a\\u0000b\"]\r\n"
	    "[1.5, \"x\", {\"later\": true}]\n"
	    "\n"
	    "[2.0, \"m\", \"\"]\n"
	    "\n";
	struct cast_read c;

	cast_read_str(text, &c);
	ck_assert_int_eq(c.rc, 0);
	ck_assert(c.h.idle_time_limit == 2.5);
	ck_assert_uint_eq(c.nevents, 3);
	ck_assert_str_eq(c.data[0], "one");
	ck_assert_uint_eq(c.len[1], 3);
	ck_assert_mem_eq(c.data[1], "a\0b", 3);
	ck_assert_int_eq(c.ev[2].code, PTY_CAST_MARKER);
	ck_assert_uint_eq(c.len[2], 0);
	ck_assert_uint_eq(c.skipped, 1);

	/* no newline at the end */
	cast_read_str("{\"version\": 2, \"width\": 80, \"height\": 24, "
		      "\"idle_time_limit\": null}",
		      &c);
	ck_assert_int_eq(c.rc, 0);
	ck_assert(c.h.idle_time_limit < 0);
	ck_assert_uint_eq(c.nevents, 0);
}
END_TEST

/* A line of exactly PTY_CAST_LINE_MAX bytes reads; one more byte is
 * refused, naming the line. */
START_TEST(test_replay_line_bound)
{
	size_t hl = strlen(HDR), max = PTY_CAST_LINE_MAX;
	char *text = malloc(hl + max + 3);
	struct cast_read c;

	ck_assert_ptr_nonnull(text);
	memcpy(text, HDR, hl);
	memcpy(text + hl, "[0,\"o\",\"", 8);
	memset(text + hl + 8, 'A', max - 10);
	memcpy(text + hl + max - 2, "\"]\n", 3);
	cast_read_text(text, hl + max + 1, 0, &c);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_uint_eq(c.nevents, 1);
	ck_assert_uint_eq(c.len[0], max - 10);

	memcpy(text + hl + max - 2, "A\"]\n", 4); /* one byte more */
	cast_read_text(text, hl + max + 2, 0, &c);
	ck_assert_int_eq(c.rc, -1);
	ck_assert_uint_eq(c.lineno, 2);
	ck_assert_str_eq(c.err, "a line longer than 1048576 bytes");
	free(text);
}
END_TEST

START_TEST(test_replay_file_bound)
{
	static const char text[] = HDR "[0.1, \"o\", \"hello\"]\n"
				       "[0.2, \"o\", \"world\"]\n";
	struct cast_read c;

	/* the bound is the whole file's bytes: the header and one event
	 * fit, the second does not */
	cast_read_text(text, sizeof text - 1, strlen(HDR) + 22, &c);
	ck_assert_int_eq(c.rc, -1);
	ck_assert_uint_eq(c.nevents, 1);
	ck_assert_uint_eq(c.lineno, 3);
	ck_assert_msg(strstr(c.err, "the file is longer than") != NULL, "%s",
		      c.err);
	cast_read_text(text, sizeof text - 1, sizeof text - 1, &c);
	ck_assert_int_eq(c.rc, 0);
	ck_assert_uint_eq(c.nevents, 2);
}
END_TEST

/* Each malformed kind: its text, the line named, and the sentence. */
static const struct {
	const char *text;
	size_t line;
	const char *err; /* a part of the sentence */
} bad_files[] = {
    {"", 0, "empty: no asciicast header"},
    {"\n\n", 2, "empty: no asciicast header"},
    {"not json\n", 1, "not JSON (at column"},
    {"[1, \"o\", \"x\"]\n", 1, "the header is not a JSON object"},
    {"{\"version\": 1, \"width\": 80, \"height\": 24}\n", 1,
     "asciicast version 1: replay reads version 2"},
    {"{\"version\": 3, \"term\": {\"cols\": 80, \"rows\": 24}}\n", 1,
     "asciicast version 3"},
    {"{\"width\": 80, \"height\": 24}\n", 1, "asciicast version not given"},
    {"{\"version\": \"2\", \"width\": 80, \"height\": 24}\n", 1,
     "asciicast version not an integer"},
    {"{\"version\": 2.0, \"width\": 80, \"height\": 24}\n", 1,
     "asciicast version not an integer"},
    {"{\"version\": 2, \"height\": 24}\n", 1,
     "the header's \"width\" is not an integer from 1 to 65535"},
    {"{\"version\": 2, \"width\": 80, \"height\": 0}\n", 1,
     "the header's \"height\" is not an integer"},
    {"{\"version\": 2, \"width\": 65536, \"height\": 24}\n", 1, "\"width\""},
    {"{\"version\": 2, \"width\": -1, \"height\": 24}\n", 1, "\"width\""},
    {"{\"version\": 2, \"width\": 80.5, \"height\": 24}\n", 1, "\"width\""},
    {"{\"version\": 2, \"width\": 80, \"height\": 24, "
     "\"idle_time_limit\": \"2\"}\n",
     1, "\"idle_time_limit\" is not a number of seconds"},
    {"{\"version\": 2, \"width\": 80, \"height\": 24, "
     "\"idle_time_limit\": -1}\n",
     1, "\"idle_time_limit\""},
    {HDR "[0.1, \"o\", \"a\"]\n[0.2, \"o\", \"b\"\n", 3, "not JSON"},
    {HDR "{\"time\": 1}\n", 2, "not an event: an event is [time, code, data]"},
    {HDR "[1, \"o\"]\n", 2, "not an event"},
    {HDR "[1, \"o\", \"a\", \"b\"]\n", 2, "not an event"},
    {HDR "[\"1\", \"o\", \"a\"]\n", 2,
     "the time is not a number of seconds from 0 to 3200000000"},
    {HDR "[-0.5, \"o\", \"a\"]\n", 2, "the time is not a number"},
    {HDR "[1e300, \"o\", \"a\"]\n", 2, "the time is not a number"},
    {HDR "[1e400, \"o\", \"a\"]\n", 2, "not JSON"},
    {HDR "[2.5, \"o\", \"a\"]\n[2.4, \"o\", \"b\"]\n", 3,
     "the time 2.400000 comes before the previous event's 2.500000"},
    {HDR "[2.5, \"x\", 1]\n[2.4, \"o\", \"b\"]\n", 3, "comes before"},
    {HDR "[1, 111, \"a\"]\n", 2, "the code is not a string of 1 to 8 bytes"},
    {HDR "[1, \"\", \"a\"]\n", 2, "the code is not a string"},
    {HDR "[1, \"output\", \"a\"]\n[1, \"o\", 5]\n", 3,
     "the data of an \"o\" event is not a string"},
    {HDR "[1, \"m\", null]\n", 2, "the data of an \"m\" event"},
    {HDR "[1, \"r\", \"80\"]\n", 2,
     "the size of an \"r\" event is not COLSxROWS, each 1 to 65535"},
    {HDR "[1, \"r\", \"0x24\"]\n", 2, "COLSxROWS"},
    {HDR "[1, \"r\", \"80x24x1\"]\n", 2, "COLSxROWS"},
    {HDR "[1, \"r\", \"80 x 24\"]\n", 2, "COLSxROWS"},
    {HDR "[1, \"r\", \"99999999x24\"]\n", 2, "COLSxROWS"},
    {HDR "[1, \"r\", \"65536x24\"]\n", 2, "COLSxROWS"},
    {HDR "[1, \"r\", \"80x65536\"]\n", 2, "COLSxROWS"},
    {HDR "[1, \"r\", \"80x-24\"]\n", 2, "COLSxROWS"},
};

START_TEST(test_replay_refuses_malformed)
{
	struct cast_read c;

	cast_read_str(bad_files[_i].text, &c);
	ck_assert_msg(c.rc == -1, "case %d read", _i);
	ck_assert_msg(c.lineno == bad_files[_i].line,
		      "case %d: line %zu, not %zu (%s)", _i, c.lineno,
		      bad_files[_i].line, c.err);
	ck_assert_msg(strstr(c.err, bad_files[_i].err) != NULL,
		      "case %d: \"%s\" does not say \"%s\"", _i, c.err,
		      bad_files[_i].err);
}
END_TEST

/* The program, without a terminal: stdin /dev/null, output captured. */
static char replay_dir[] = "/tmp/maelys-replay-XXXXXX";
/* whether mkdtemp filled replay_dir (its last letter may be an X itself) */
static bool replay_dir_made;

static const char *
replay_file(const char *name, const char *text)
{
	static char path[512];

	if (!replay_dir_made) {
		ck_assert_ptr_nonnull(mkdtemp(replay_dir));
		replay_dir_made = true;
	}
	(void)snprintf(path, sizeof path, "%s/%s", replay_dir, name);
	pts_write_file(path, text, 0600);
	return path;
}

static int
replay_run(const char *a1, const char *a2, const char *a3, char **out,
	   char **err)
{
	char *argv[] = {(char *)pts_build_path("pty/maelys-pty"),
			(char *)"replay",
			(char *)a1,
			(char *)a2,
			(char *)a3,
			NULL};
	char *envp[] = {(char *)"PATH=/usr/bin:/bin", (char *)"LC_ALL=C", NULL};

	return pts_run(argv, envp, out, err);
}

static void
replay_teardown(void)
{
	char cmd[128];

	if (replay_dir_made) {
		(void)snprintf(cmd, sizeof cmd, "rm -rf '%s'", replay_dir);
		(void)system(cmd);
	}
}

START_TEST(test_replay_plays_output_not_input)
{
	const char *f = replay_file(
	    "a.cast", HDR "[0.01, \"o\", \"shown\\r\\n\"]\n"
			  "[0.02, \"i\", \"typed-secret\"]\n"
			  "[0.03, \"m\", \"deny: rm -rf /\"]\n"
			  "[0.04, \"x\", \"later\"]\n"
			  "[0.05, \"o\", \"\\u001b[31mred\\u001b[0m\"]\n");
	char *out, *err;

	ck_assert_int_eq(replay_run(f, NULL, NULL, &out, &err), 0);
	/* the bytes as recorded, escape sequences included */
	ck_assert_str_eq(out, "shown\r\n\033[31mred\033[0m");
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
}
END_TEST

START_TEST(test_replay_lists_markers)
{
	const char *f = replay_file(
	    "m.cast", HDR "[1.5, \"m\", \"allow: ls\"]\n"
			  "[59.9996, \"m\", \"exec deny: /tmp/x\"]\n"
			  "[3725.25, \"m\", \"deny: printf \\u001b[2J\"]\n"
			  "[3725.5, \"o\", \"x\"]\n");
	char *out, *err;

	ck_assert_int_eq(replay_run("--markers", f, NULL, &out, &err), 0);
	ck_assert_str_eq(out, "0:00:01.500  allow: ls\n"
			      "0:01:00.000  exec deny: /tmp/x\n"
			      "1:02:05.250  deny: printf ?[2J\n");
	free(out);
	free(err);
	/* a hostile file's labels: a C1 control written as UTF-8 (U+009B,
	 * CSI to a UTF-8 terminal) drives the terminal as ESC [ does, and a
	 * NUL must not hide what follows it */
	f = replay_file("c1.cast",
			HDR "[1, \"m\", \"deny: \\u009b2J\\u009d0;t\\u0007x\"]\n"
			    "[2, \"m\", \"allow: ls\\u0000; rm -rf ~\"]\n"
			    "[3, \"m\", \"caf\\u00e9 \\u00c2\\u0085\"]\n"
			    /* a right-to-left override and a zero-width
			     * space make a label read as another */
			    "[4, \"m\", \"deny: ls \\u202egnp.\\u200bx\"]\n");
	ck_assert_int_eq(replay_run("--markers", f, NULL, &out, &err), 0);
	ck_assert_str_eq(out, "0:00:01.000  deny: ?2J?0;t?x\n"
			      "0:00:02.000  allow: ls?; rm -rf ~\n"
			      "0:00:03.000  caf\xc3\xa9 \xc3\x82?\n"
			      "0:00:04.000  deny: ls ?gnp.?x\n");
	free(out);
	free(err);
	f = replay_file("none.cast", HDR "[1, \"o\", \"x\"]\n");
	ck_assert_int_eq(replay_run(f, "--markers", NULL, &out, &err), 0);
	ck_assert(strstr(out, "none.cast: no markers\n") != NULL);
	free(out);
	free(err);
}
END_TEST

START_TEST(test_replay_broken_file_exits_2_after_what_played)
{
	const char *f =
	    replay_file("b.cast", HDR "[0.01, \"o\", \"before\"]\n"
				      "[0.001, \"o\", \"after\"]\n");
	char *out, *err, want[600];

	ck_assert_int_eq(replay_run(f, NULL, NULL, &out, &err), 2);
	ck_assert_str_eq(out, "before");
	(void)snprintf(want, sizeof want,
		       "maelys-pty: replay: %s:3: the time 0.001000 comes "
		       "before the previous event's 0.010000\n",
		       f);
	ck_assert_str_eq(err, want);
	free(out);
	free(err);
	ck_assert_int_eq(replay_run("--markers", f, NULL, &out, &err), 2);
	ck_assert_str_eq(err, want);
	free(out);
	free(err);
}
END_TEST

START_TEST(test_replay_usage_errors_exit_2)
{
	static const struct {
		const char *a1, *a2, *a3, *says;
	} cases[] = {
	    {NULL, NULL, NULL, "replay: no recording given"},
	    {"--speed", "0", "f", "--speed '0': a number above 0"},
	    {"--speed", "fast", "f", "--speed 'fast'"},
	    {"--speed", "nan", "f", "--speed 'nan'"},
	    {"--idle-limit", "-1", "f", "--idle-limit '-1'"},
	    {"--idle-limit", NULL, NULL, "--idle-limit needs a value"},
	    {"--loop", "f", NULL, "unknown option '--loop'"},
	    {"f", "g", NULL, "one recording at a time ('g')"},
	    {"/nonexistent/x.cast", NULL, NULL,
	     "/nonexistent/x.cast: No such file or directory"},
	};
	char *out, *err;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ck_assert_int_eq(replay_run(cases[i].a1, cases[i].a2,
					    cases[i].a3, &out, &err),
				 2);
		ck_assert_msg(strstr(err, cases[i].says) != NULL,
			      "case %zu: %s", i, err);
		ck_assert_str_eq(out, "");
		free(out);
		free(err);
	}
	ck_assert_int_eq(replay_run("--help", NULL, NULL, &out, &err), 0);
	ck_assert(strstr(out, "usage: maelys-pty replay") != NULL);
	ck_assert(strstr(out, "replay only recordings of the audit folder") !=
		  NULL);
	free(out);
	free(err);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("replay");

	tcase_add_checked_fixture(tc, NULL, replay_teardown);
	tcase_add_test(tc, test_replay_reads_our_recording);
	tcase_add_test(tc, test_replay_reads_every_size_a_terminal_can_have);
	tcase_add_test(tc, test_replay_reads_other_writers_forms);
	tcase_add_test(tc, test_replay_line_bound);
	tcase_add_test(tc, test_replay_file_bound);
	tcase_add_loop_test(tc, test_replay_refuses_malformed, 0,
			    (int)(sizeof bad_files / sizeof bad_files[0]));
	tcase_add_test(tc, test_replay_plays_output_not_input);
	tcase_add_test(tc, test_replay_lists_markers);
	tcase_add_test(tc, test_replay_broken_file_exits_2_after_what_played);
	tcase_add_test(tc, test_replay_usage_errors_exit_2);
	suite_add_tcase(s, tc);
	return s;
}
