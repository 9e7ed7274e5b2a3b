/* SPDX-License-Identifier: MIT */
/*
 * The recording's file, unit by unit (pty/record/): an event's encoding
 * (time, escapes, UTF-8 carried between chunks, U+FFFD for ill-formed
 * bytes), the header, the size limit and its last marker, the digest of
 * what was written, and a folder others may write to.
 */
#include "runner.h"

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
	tcase_add_test(tc, test_cast_folder_others_may_write_is_refused);
	suite_add_tcase(s, tc);
	return s;
}
