/* SPDX-License-Identifier: MIT */
/*
 * The recording's file, unit by unit (pty/record/): an event's encoding
 * (time, escapes, UTF-8 carried between chunks, U+FFFD for ill-formed
 * bytes), the header, the size limit and its last marker, the digest of
 * what was written, and a folder others may write to.
 */
#include "runner.h"

#include "pty_cast.h"
#include "pty_harness.h"
#include "pty_record.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

static char ev[PTY_RECORD_EVENT_MAX + 1];

static const char *
enc(uint64_t t, char kind, const char *s, size_t n,
    struct pty_record_carry *c)
{
	size_t len = pty_record_encode_event(t, kind, s, n, c, ev);

	ev[len] = '\0';
	return ev;
}

START_TEST(test_cast_event_time_and_escapes)
{
	ck_assert_str_eq(enc(1500000, 'o', "a\"b\\c\r\n\t\x1b[0m", 12, NULL),
			 "[1.500000, \"o\", \"a\\\"b\\\\c\\r\\n\\t\\u001b[0m\"]\n");
	/* DEL and a C1 control (U+009B, CSI) are escaped too */
	ck_assert_str_eq(enc(7, 'm', "\x7f\xc2\x9b", 3, NULL),
			 "[0.000007, \"m\", \"\\u007f\\u009b\"]\n");
	ck_assert_str_eq(enc(3000000000ull, 'r', "100x30", 6, NULL),
			 "[3000.000000, \"r\", \"100x30\"]\n");
	/* a NUL byte is data like any other */
	ck_assert_str_eq(enc(0, 'i', "a\0b", 3, NULL),
			 "[0.000000, \"i\", \"a\\u0000b\"]\n");
	/* a size is written as the reader reads one: no leading zeros */
	ck_assert_str_eq(enc(0, 'r', "065535x0001", 11, NULL),
			 "[0.000000, \"r\", \"65535x1\"]\n");
	/* no such kind; a chunk too long */
	ck_assert_uint_eq(pty_record_encode_event(0, 'x', "a", 1, NULL, ev), 0);
	ck_assert_uint_eq(pty_record_encode_event(0, 'o', ev,
						  PTY_RECORD_CHUNK_MAX + 1,
						  NULL, ev),
			  0);
}
END_TEST

START_TEST(test_cast_utf8_carried_between_chunks)
{
	struct pty_record_carry c = {{0}, 0};

	/* "é€" cut inside the euro sign: the first event holds "é", the
	 * rest waits for the next chunk */
	ck_assert_str_eq(enc(0, 'o', "\xc3\xa9\xe2\x82", 4, &c),
			 "[0.000000, \"o\", \"\xc3\xa9\"]\n");
	ck_assert_uint_eq(c.n, 2);
	ck_assert_str_eq(enc(1, 'o', "\xac!", 2, &c),
			 "[0.000001, \"o\", \"\xe2\x82\xac!\"]\n");
	ck_assert_uint_eq(c.n, 0);
	/* carried, then not continued: one U+FFFD for the two bytes */
	(void)enc(0, 'o', "\xe2\x82", 2, &c);
	ck_assert_str_eq(enc(0, 'o', "A", 1, &c),
			 "[0.000000, \"o\", \"\xef\xbf\xbd" "A\"]\n");
}
END_TEST

START_TEST(test_cast_ill_formed_bytes_become_fffd)
{
#define FFFD "\xef\xbf\xbd"
	/* a stray continuation, an overlong form, a surrogate, above
	 * U+10FFFF: one U+FFFD per maximal ill-formed subpart, as Python's
	 * decoder (and so asciinema) does */
	ck_assert_str_eq(enc(0, 'o', "\x80" "a\xc0\xaf" "b\xed\xa0\x80" "c"
				     "\xf4\x90\x80\x80",
			     13, NULL),
			 "[0.000000, \"o\", \"" FFFD "a" FFFD FFFD "b" FFFD
			 FFFD FFFD "c" FFFD FFFD FFFD FFFD "\"]\n");
	/* an unfinished character with no next chunk */
	ck_assert_str_eq(enc(0, 'o', "x\xf0\x9f\x98", 4, NULL),
			 "[0.000000, \"o\", \"x" FFFD "\"]\n");
#undef FFFD
}
END_TEST

static char dir[] = "/tmp/maelys-cast-XXXXXX";

static void
make_dir(void)
{
	strcpy(dir, "/tmp/maelys-cast-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(4u << 20);

	ck_assert_ptr_nonnull(f);
	*len = fread(buf, 1, 4u << 20, f);
	fclose(f);
	return buf;
}

START_TEST(test_cast_file_header_limit_and_digest)
{
	struct pty_record_header h = {120, 40, 1700000000, "/bin/bash",
				      "xterm-256color", "a \"title\""};
	struct pty_record *r;
	char err[256], sha[65], want[65], path[300], chunk[4096];
	unsigned char d[32];
	unsigned long long bytes;
	bool complete;
	struct stat st;
	size_t len, i;
	char *text;
	int rc = 0;

	make_dir();
	ck_assert_int_eq(pty_record_open(dir, "s.cast", 1u << 20, &h, &r, err,
					 sizeof err),
			 0);
	snprintf(path, sizeof path, "%s/s.cast", dir);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	/* a second recording of the same name is refused (O_EXCL) */
	{
		struct pty_record *r2;

		ck_assert_int_eq(pty_record_open(dir, "s.cast", 1u << 20, &h,
						 &r2, err, sizeof err),
				 -1);
		ck_assert_ptr_nonnull(strstr(err, "File exists"));
	}
	memset(chunk, 'x', sizeof chunk);
	for (i = 0; i < 400 && rc == 0; i++)
		rc = pty_record_event(r, i, 'o', chunk, sizeof chunk, err,
				      sizeof err);
	ck_assert_int_eq(rc, 1); /* the limit, well before 1.6 MB */
	ck_assert(pty_record_stopped(r));
	ck_assert_int_eq(pty_record_event(r, i, 'o', "y", 1, err, sizeof err),
			 1);
	ck_assert_int_eq(pty_record_close(r, &bytes, sha, &complete, err,
					  sizeof err),
			 0);
	ck_assert(!complete);
	text = slurp(path, &len);
	ck_assert_uint_eq(len, bytes);
	ck_assert_uint_le(len, 1u << 20);
	{
		static const char want_header[] =
		    "{\"version\":2,\"width\":120,\"height\":40,"
		    "\"timestamp\":1700000000,\"env\":{\"SHELL\":"
		    "\"/bin/bash\",\"TERM\":\"xterm-256color\"},"
		    "\"title\":\"a \\\"title\\\"\"}\n[";

		ck_assert_msg(strncmp(text, want_header,
				      sizeof want_header - 1) == 0,
			      "%.200s", text);
	}
	ck_assert(len > 60 &&
		  strstr(text + len - 60,
			 "\"m\", \"recording stopped: record_max reached\"]\n") !=
		      NULL);
	crypto_hash_sha256(d, (unsigned char *)text, len);
	sodium_bin2hex(want, sizeof want, d, sizeof d);
	ck_assert_str_eq(sha, want);
	free(text);
	unlink(path);
	rmdir(dir);
}
END_TEST

/* What a terminal's size may be: every size a struct winsize holds but 0,
 * written as the reader reads it, one declaration for both. */
START_TEST(test_cast_sizes_are_what_a_terminal_can_be_given)
{
	static const struct {
		const char *text;
		bool ok;
		unsigned cols, rows;
	} cases[] = {
	    {"80x24", true, 80, 24},
	    {"1x1", true, 1, 1},
	    {"65535x65535", true, 65535, 65535},
	    {"10001x24", true, 10001, 24},
	    {"00080x024", true, 80, 24},
	    {"0x24", false, 0, 0},
	    {"80x0", false, 0, 0},
	    {"65536x24", false, 0, 0},
	    {"80x65536", false, 0, 0},
	    {"4294967376x24", false, 0, 0}, /* 2^32 + 80: no wrap */
	    {"80", false, 0, 0},
	    {"x24", false, 0, 0},
	    {"80x", false, 0, 0},
	    {"80x24x1", false, 0, 0},
	    {"80 x 24", false, 0, 0},
	    {"+80x24", false, 0, 0},
	    {"", false, 0, 0},
	    {"000000000000000000000000000080x24", false, 0, 0}, /* > 32 */
	};
	char out[PTY_RECORD_SIZE_LEN];
	unsigned c, r;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		c = r = 7;
		ck_assert_msg(pty_record_size_parse(cases[i].text,
						    strlen(cases[i].text), &c,
						    &r) == cases[i].ok,
			      "%s", cases[i].text);
		if (cases[i].ok) {
			ck_assert_uint_eq(c, cases[i].cols);
			ck_assert_uint_eq(r, cases[i].rows);
		} else {
			ck_assert_uint_eq(c, 7); /* left as they were */
		}
	}
	ck_assert_uint_eq(pty_record_size_format(65535, 65535, out), 11);
	ck_assert_str_eq(out, "65535x65535");
	ck_assert_uint_eq(pty_record_size_format(0, 24, out), 0);
	ck_assert_str_eq(out, "");
	ck_assert_uint_eq(pty_record_size_format(65536, 1, out), 0);
	ck_assert(pty_record_size_valid(PTY_RECORD_SIZE_MAX, 1));
	ck_assert(!pty_record_size_valid(1, PTY_RECORD_SIZE_MAX + 1ull));
}
END_TEST

/* The data of the event line `line` (between its kind and its end), as the
 * writer encoded it. */
static void
line_data(const char *line, const char **data, size_t *len)
{
	const char *open = strstr(line, "\", \"");
	const char *end = strstr(line, "\"]\n");

	ck_assert_ptr_nonnull(open);
	ck_assert_ptr_nonnull(end);
	*data = open + 4;
	*len = (size_t)(end - *data);
}

/* Whatever a recording holds, the reader of `maelys-pty replay` reads it to
 * its end, each event as it was written: a header of each extreme size,
 * with a TERM of every byte (what an ssh client sends), then events of
 * every kind, sizes at the extremes among them, and data of every byte.
 * An event's data as read, encoded again, is the file's text: the reader
 * took what the writer meant.  The independent reader
 * (tests/asciicast_check.py, Python's json) reads the file too. */
START_TEST(test_cast_every_recording_is_read_to_its_end)
{
	static const unsigned heads[][2] = {
	    {1, 1}, {65535, 65535}, {10001, 24}, {80, 24}};
	static const char *const sizes[] = {"65535x65535", "10001x24", "1x1",
					    "80x24"};
	static char data[256], term[256], text[PTY_RECORD_EVENT_MAX];
	char path[300], err[256], sha[65];
	unsigned long long bytes;
	bool complete;
	size_t i, k;

	for (i = 0; i < 256; i++)
		data[i] = (char)i;
	for (i = 0; i < 255; i++)
		term[i] = (char)(i + 1); /* a C string: no NUL */
	term[255] = '\0';
	make_dir();
	snprintf(path, sizeof path, "%s/s.cast", dir);
	for (k = 0; k < sizeof heads / sizeof heads[0]; k++) {
		struct pty_record_header h = {heads[k][0], heads[k][1],
					      1700000000, "/bin/bash", term,
					      "t\"\\"};
		struct pty_record *r;
		struct pty_cast_reader rd;
		struct pty_cast_header ch;
		struct pty_cast_event got_ev;
		char *argv[] = {"/usr/bin/python3",
				(char *)pts_source_path(
				    "tests/asciicast_check.py"),
				path, NULL};
		char *envp[] = {"LANG=C.UTF-8", NULL}, *out, *perr;
		FILE *f, *lines;
		size_t n = 0, got = 0, tl;
		uint64_t t = 0;
		const char *want;
		char *line = NULL;
		size_t cap = 0;

		unlink(path);
		ck_assert_int_eq(pty_record_open(dir, "s.cast", 1u << 20, &h,
						 &r, err, sizeof err),
				 0);
		for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
			ck_assert_int_eq(pty_record_event(r, t++, 'r', sizes[i],
							  strlen(sizes[i]),
							  err, sizeof err),
					 0);
			ck_assert_int_eq(pty_record_event(r, t++, 'o', data,
							  sizeof data, err,
							  sizeof err),
					 0);
			ck_assert_int_eq(pty_record_event(r, t++, 'i', data,
							  sizeof data, err,
							  sizeof err),
					 0);
			ck_assert_int_eq(pty_record_event(r, t++, 'm', data,
							  sizeof data, err,
							  sizeof err),
					 0);
			n += 4;
		}
		ck_assert_int_eq(pty_record_close(r, &bytes, sha, &complete,
						  err, sizeof err),
				 0);
		ck_assert(complete);
		/* every event read, the line it came from as the data's
		 * text */
		f = fopen(path, "r");
		lines = fopen(path, "r");
		ck_assert_ptr_nonnull(f);
		ck_assert_ptr_nonnull(lines);
		ck_assert_int_gt(getline(&line, &cap, lines), 0); /* header */
		ck_assert_msg(pty_cast_begin(&rd, f, 0, &ch) == 0, "%s",
			      rd.err);
		ck_assert_uint_eq(ch.width, heads[k][0]);
		ck_assert_uint_eq(ch.height, heads[k][1]);
		while (pty_cast_next(&rd, &got_ev) > 0) {
			static const enum pty_cast_code codes[4] = {
			    PTY_CAST_RESIZE, PTY_CAST_OUTPUT, PTY_CAST_INPUT,
			    PTY_CAST_MARKER};

			ck_assert_int_gt(getline(&line, &cap, lines), 0);
			line_data(line, &want, &tl);
			ck_assert_int_eq(got_ev.code, codes[got % 4]);
			if (got_ev.code == PTY_CAST_RESIZE) {
				unsigned c, rr;

				ck_assert(pty_record_size_parse(
				    sizes[got / 4], strlen(sizes[got / 4]), &c,
				    &rr));
				ck_assert_uint_eq(got_ev.cols, c);
				ck_assert_uint_eq(got_ev.rows, rr);
			}
			ck_assert_uint_le(got_ev.len, sizeof text / 6);
			ck_assert_uint_eq(
			    pty_record_encode_text((const unsigned char *)
						       got_ev.data,
						   got_ev.len, false, NULL,
						   text),
			    tl);
			ck_assert_msg(memcmp(text, want, tl) == 0,
				      "event %zu: %.*s", got, (int)tl, want);
			got++;
		}
		ck_assert_msg(rd.err[0] == '\0', "line %zu: %s", rd.lineno,
			      rd.err);
		ck_assert_uint_eq(got, n);
		pty_cast_end(&rd);
		free(line);
		fclose(f);
		fclose(lines);
		ck_assert_msg(pts_run(argv, envp, &out, &perr) == 0,
			      "asciicast_check refused %ux%u: %s", heads[k][0],
			      heads[k][1], perr);
		free(out);
		free(perr);
	}
	unlink(path);
	rmdir(dir);
}
END_TEST

/* What is not a size is not written: a header is refused before anything
 * is created, an "r" event is refused and nothing is written for it. */
START_TEST(test_cast_a_size_that_is_none_is_refused)
{
	static const unsigned heads[][2] = {
	    {0, 24}, {80, 0}, {65536, 24}, {80, 65536}};
	struct pty_record_header h = {80, 24, 0, "", "", ""};
	struct pty_record *r;
	char err[256], path[300], sha[65];
	unsigned long long bytes, before;
	bool complete;
	struct stat st;
	size_t i;

	make_dir();
	snprintf(path, sizeof path, "%s/s.cast", dir);
	for (i = 0; i < sizeof heads / sizeof heads[0]; i++) {
		h.width = heads[i][0];
		h.height = heads[i][1];
		ck_assert_int_eq(pty_record_open(dir, "s.cast", 1u << 20, &h,
						 &r, err, sizeof err),
				 -1);
		ck_assert_msg(strstr(err, "is not 1 to 65535 columns and "
					  "rows") != NULL,
			      "%s", err);
		ck_assert_int_eq(stat(path, &st), -1);
	}
	h.width = 80;
	h.height = 24;
	ck_assert_int_eq(pty_record_open(dir, "s.cast", 1u << 20, &h, &r, err,
					 sizeof err),
			 0);
	before = pty_record_bytes(r) + pty_record_buffered(r);
	ck_assert_int_eq(pty_record_event(r, 1, 'r', "0x0", 3, err, sizeof err),
			 -1);
	ck_assert_int_eq(pty_record_event(r, 1, 'r', "65536x1", 7, err,
					  sizeof err),
			 -1);
	ck_assert_uint_eq(pty_record_bytes(r) + pty_record_buffered(r), before);
	ck_assert_int_eq(pty_record_close(r, &bytes, sha, &complete, err,
					  sizeof err),
			 0);
	unlink(path);
	rmdir(dir);
}
END_TEST

/* The room each write asks for (pty_record_room_fn): what is left of a
 * budget, counted down; `asked` counts the bytes asked for. */
struct room {
	size_t left, asked;
};

static int
room_left(void *ctx, unsigned long long written, size_t n, char *err,
	  size_t errlen)
{
	struct room *r = ctx;

	(void)written;
	r->asked += n;
	if (n > r->left) {
		snprintf(err, errlen, "no room for %zu bytes", n);
		return -1;
	}
	r->left -= n;
	return 0;
}

/* A write the room refuses stops the recording there: nothing of it is
 * written, digested or counted, every later event is refused too, and
 * the file, its size and its digest agree; a refusal of what is left at
 * the end is said by the close. */
START_TEST(test_cast_a_refused_room_stops_the_recording)
{
	struct pty_record_header h = {80, 24, 0, "", "", ""};
	struct room budget = {3000, 0};
	struct pty_record *r;
	char err[256], sha[65], want[65], path[300], chunk[1000];
	unsigned char d[32];
	unsigned long long bytes, header;
	bool complete;
	size_t len, first;
	char *text, said[64];

	make_dir();
	snprintf(path, sizeof path, "%s/s.cast", dir);
	memset(chunk, 'x', sizeof chunk);
	ck_assert_int_eq(pty_record_open(dir, "s.cast", 1u << 20, &h, &r, err,
					 sizeof err),
			 0);
	header = pty_record_bytes(r);
	pty_record_set_room(r, room_left, &budget);
	ck_assert_int_eq(pty_record_event(r, 1, 'o', chunk, sizeof chunk, err,
					  sizeof err),
			 0);
	ck_assert_int_eq(pty_record_flush(r, err, sizeof err), 0);
	first = budget.asked; /* one event's line */
	ck_assert_uint_gt(first, sizeof chunk);
	ck_assert_uint_eq(pty_record_bytes(r), header + first);
	ck_assert_int_eq(pty_record_event(r, 2, 'o', chunk, sizeof chunk, err,
					  sizeof err),
			 0);
	ck_assert_int_eq(pty_record_event(r, 3, 'o', chunk, sizeof chunk, err,
					  sizeof err),
			 0);
	/* two events of 1 KiB and more do not fit what is left */
	ck_assert_int_eq(pty_record_flush(r, err, sizeof err),
			 PTY_RECORD_REFUSED);
	snprintf(said, sizeof said, "no room for %zu bytes", 2 * first);
	ck_assert_str_eq(err, said);
	ck_assert(pty_record_stopped(r));
	ck_assert_int_eq(pty_record_event(r, 4, 'm', "allow: x", 8, err,
					  sizeof err),
			 PTY_RECORD_REFUSED);
	ck_assert_int_eq(pty_record_close(r, &bytes, sha, &complete, err,
					  sizeof err),
			 0);
	ck_assert(!complete);
	text = slurp(path, &len);
	ck_assert_uint_eq(len, bytes);
	ck_assert_uint_eq(bytes, header + first);
	crypto_hash_sha256(d, (unsigned char *)text, len);
	sodium_bin2hex(want, sizeof want, d, sizeof d);
	ck_assert_str_eq(sha, want);
	free(text);
	unlink(path);
	/* what the close would write has no room: the close says so */
	budget.left = 10;
	ck_assert_int_eq(pty_record_open(dir, "s.cast", 1u << 20, &h, &r, err,
					 sizeof err),
			 0);
	header = pty_record_bytes(r);
	pty_record_set_room(r, room_left, &budget);
	ck_assert_int_eq(pty_record_event(r, 1, 'o', chunk, 100, err,
					  sizeof err),
			 0);
	ck_assert_int_eq(pty_record_close(r, &bytes, sha, &complete, err,
					  sizeof err),
			 PTY_RECORD_REFUSED);
	ck_assert(!complete);
	ck_assert_uint_eq(bytes, header);
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(test_cast_folder_others_may_write_is_refused)
{
	struct pty_record_header h = {80, 24, 0, "", "", ""};
	struct pty_record *r;
	char err[256], link[300];

	make_dir();
	ck_assert_int_eq(chmod(dir, 0777), 0);
	ck_assert_int_eq(pty_record_open(dir, "s.cast", 1u << 20, &h, &r, err,
					 sizeof err),
			 -1);
	ck_assert_ptr_nonnull(strstr(err, "writable by group or others"));
	ck_assert_int_eq(chmod(dir, 0700), 0);
	/* a name with a slash, a folder that is a symbolic link */
	ck_assert_int_eq(pty_record_open(dir, "../x.cast", 1u << 20, &h, &r,
					 err, sizeof err),
			 -1);
	snprintf(link, sizeof link, "%s-link", dir);
	ck_assert_int_eq(symlink(dir, link), 0);
	ck_assert_int_eq(pty_record_open(link, "s.cast", 1u << 20, &h, &r,
					 err, sizeof err),
			 -1);
	ck_assert_ptr_nonnull(strstr(err, "symbolic link"));
	unlink(link);
	rmdir(dir);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("cast");

	tcase_add_test(tc, test_cast_event_time_and_escapes);
	tcase_add_test(tc, test_cast_utf8_carried_between_chunks);
	tcase_add_test(tc, test_cast_ill_formed_bytes_become_fffd);
	tcase_add_test(tc, test_cast_file_header_limit_and_digest);
	tcase_add_test(tc, test_cast_sizes_are_what_a_terminal_can_be_given);
	tcase_add_test(tc, test_cast_every_recording_is_read_to_its_end);
	tcase_add_test(tc, test_cast_a_size_that_is_none_is_refused);
	tcase_add_test(tc, test_cast_a_refused_room_stops_the_recording);
	tcase_add_test(tc, test_cast_folder_others_may_write_is_refused);
	suite_add_tcase(s, tc);
	return s;
}
