/* SPDX-License-Identifier: MIT */
/*
 * A terminal that stops reading holds up its output, never the guard: the
 * queue of the terminal's output (session/termout.c) on a pseudo-terminal
 * nobody reads - it never waits, keeps the bytes in order, leaves the
 * guard's own messages out at its bound and says so in their place, turns
 * readline's \n into \r\n, and gives up at the end on a terminal that
 * takes nothing.
 */
#define _GNU_SOURCE
#include "runner.h"

#include "pty_harness.h"
#include "pty_messages.h"
#include "pty_termout.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define T 20000 /* ms: generous, sanitizer builds are slow */

/* A pseudo-terminal in raw mode: the slave is the user's terminal (what
 * the queue fronts), the master is the user reading it, or not. */
struct term {
	int master, slave;
};

static void
term_open(struct term *t)
{
	struct termios tio;

	ck_assert_int_eq(openpty(&t->master, &t->slave, NULL, NULL, NULL), 0);
	ck_assert_int_eq(tcgetattr(t->slave, &tio), 0);
	cfmakeraw(&tio);
	ck_assert_int_eq(tcsetattr(t->slave, TCSANOW, &tio), 0);
}

static void
term_close(struct term *t)
{
	if (t->master >= 0)
		(void)close(t->master);
	(void)close(t->slave);
}

/* Reads what the master has now (up to cap bytes into buf from *len),
 * flushing the queue (NULL: none) between reads, until neither moves for
 * 200 ms. */
static void
term_take_all(struct term *t, struct pty_termout *o, char *buf, size_t cap,
	      size_t *len)
{
	long quiet_since = pts_now_ms();

	while (pts_now_ms() - quiet_since < 200) {
		struct pollfd pfd = {t->master, POLLIN, 0};
		ssize_t n;

		if (o != NULL)
			(void)pty_termout_flush(o);
		if (poll(&pfd, 1, 10) <= 0)
			continue;
		ck_assert_uint_lt(*len, cap);
		n = read(t->master, buf + *len, cap - *len);
		if (n > 0) {
			*len += (size_t)n;
			quiet_since = pts_now_ms();
		}
	}
}

/* Bytes that say where they are: byte i is 'a' + i % 26, a newline every
 * 64 (none of them \r). */
static void
pattern(char *buf, size_t n, size_t from)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = (from + i) % 64 == 63 ? '\n'
					       : (char)('a' + (from + i) % 26);
}

START_TEST(test_termout_terminal_that_does_not_read_never_holds_up_a_write)
{
	enum { N = 3 * PTY_TERMOUT_HIGH };
	static char in[N], out[N + 4096];
	struct pty_termout o;
	struct term t;
	size_t len = 0;
	long start;
	int flags;

	term_open(&t);
	ck_assert_int_eq(pty_termout_open(&o, t.slave, "\r\n"), 0);
	/* its own description: the shared one is never made non-blocking */
	ck_assert_int_eq(o.how, PTY_TERMOUT_OWN);
	pattern(in, N, 0);
	start = pts_now_ms();
	for (size_t off = 0; off < N; off += 4096)
		ck_assert_int_eq(pty_termout_put(&o, in + off, 4096), 0);
	/* the pty took what it has room for, the queue keeps the rest */
	ck_assert_msg(pty_termout_pending(&o) && pty_termout_full(&o),
		      "%zu bytes wait", o.len);
	ck_assert_msg(pts_now_ms() - start < T, "the writes waited");
	flags = fcntl(t.slave, F_GETFL);
	ck_assert_int_eq(flags & O_NONBLOCK, 0);
	/* the terminal reads again: everything, in order, once */
	term_take_all(&t, &o, out, sizeof out, &len);
	ck_assert_uint_eq(len, N);
	ck_assert(memcmp(in, out, N) == 0);
	ck_assert(!pty_termout_pending(&o));
	pty_termout_close(&o);
	term_close(&t);
}
END_TEST

/* One sentence of the test below, as pty_say ends it. */
static size_t
sentence(char *buf, size_t cap, unsigned i)
{
	return (size_t)snprintf(buf, cap, "refusal %06u %0100u\r\n", i, i);
}

START_TEST(test_termout_messages_past_the_bound_are_said_in_their_place)
{
	static char out[PTY_TERMOUT_CAP + 64 * 1024],
	    want[PTY_TERMOUT_CAP + 64 * 1024];
	char note[256];
	struct pty_termout o;
	struct term t;
	size_t len = 0, wlen = 0, n;
	unsigned i, queued;

	term_open(&t);
	ck_assert_int_eq(pty_termout_open(&o, t.slave, "\r\n"), 0);
	/* the guard's sentences, to the descriptor the queue fronts, until
	 * one no longer fits; then ten more */
	for (i = 0; o.lost == 0; i++)
		pty_say(t.slave, "\r\n", "refusal %06u %0100u", i, i);
	queued = i - 1;
	n = sentence(note, sizeof note, 0);
	ck_assert_uint_eq(o.lost, n);
	for (; i < queued + 11; i++)
		pty_say(t.slave, "\r\n", "refusal %06u %0100u", i, i);
	ck_assert_uint_eq(o.lost, 11 * n);
	/* the terminal reads again: every sentence queued, whole and in
	 * order, then what was left out said where it would have been */
	term_take_all(&t, &o, out, sizeof out, &len);
	pty_say(t.slave, "\r\n", "after the note");
	term_take_all(&t, &o, out, sizeof out, &len);
	for (i = 0; i < queued; i++)
		wlen += sentence(want + wlen, sizeof want - wlen, i);
	(void)snprintf(note, sizeof note, "\r\n" PTY_MSG_TERMOUT_LOST "\r\n",
		       11ULL * n);
	wlen += (size_t)snprintf(want + wlen, sizeof want - wlen,
				 "%safter the note\r\n", note);
	ck_assert_msg(len == wlen && memcmp(out, want, len) == 0,
		      "%zu bytes, wanted %zu; the end: %.400s", len, wlen,
		      len > 400 ? out + len - 400 : out);
	pty_termout_close(&o);
	term_close(&t);
}
END_TEST

START_TEST(test_termout_stream_turns_newlines_and_waits_for_the_flush)
{
	struct pty_termout o;
	struct term t;
	char out[64];
	size_t len = 0;
	struct pollfd pfd;

	term_open(&t);
	ck_assert_int_eq(pty_termout_open(&o, t.slave, "\r\n"), 0);
	ck_assert_int_ge(fputs("one\ntwo", pty_termout_stream(&o)), 0);
	/* queued until the loop flushes (readline writes byte by byte) */
	pfd.fd = t.master;
	pfd.events = POLLIN;
	ck_assert_int_eq(poll(&pfd, 1, 50), 0);
	ck_assert(pty_termout_pending(&o));
	term_take_all(&t, &o, out, sizeof out, &len);
	ck_assert_uint_eq(len, 8);
	ck_assert_msg(memcmp(out, "one\r\ntwo", 8) == 0, "%.*s", (int)len, out);
	pty_termout_close(&o);
	term_close(&t);
}
END_TEST

START_TEST(test_termout_fronts_its_descriptor_only_and_only_while_open)
{
	struct pty_termout o, second;
	struct term t, other;
	char out[64];
	size_t len = 0;

	term_open(&t);
	term_open(&other);
	ck_assert_int_eq(pty_termout_open(&o, t.slave, "\n"), 0);
	ck_assert_ptr_eq(pty_termout_of(t.slave), &o);
	ck_assert_ptr_null(pty_termout_of(other.slave));
	/* one a process */
	ck_assert_int_eq(pty_termout_open(&second, other.slave, "\n"), -1);
	pty_termout_close(&second);
	ck_assert_int_eq(pty_write_all(other.slave, "x", 1), 0);
	ck_assert_int_eq(read(other.master, out, sizeof out), 1);
	pty_termout_close(&o);
	ck_assert_ptr_null(pty_termout_of(t.slave));
	pty_say(t.slave, "\n", "direct");
	term_take_all(&t, NULL, out, sizeof out, &len);
	ck_assert_uint_eq(len, 7);
	term_close(&t);
	term_close(&other);
}
END_TEST

START_TEST(test_termout_terminal_gone_takes_nothing_more)
{
	struct pty_termout o;
	struct term t;
	char buf[4096];

	term_open(&t);
	ck_assert_int_eq(pty_termout_open(&o, t.slave, "\r\n"), 0);
	memset(buf, 'x', sizeof buf);
	for (int i = 0; i < 64; i++)
		(void)pty_termout_put(&o, buf, sizeof buf);
	ck_assert(pty_termout_pending(&o));
	/* the terminal hangs up: EIO */
	(void)close(t.master);
	t.master = -1;
	ck_assert(!pty_termout_flush(&o));
	ck_assert(o.gone);
	ck_assert(!pty_termout_pending(&o));
	ck_assert_int_eq(pty_termout_put(&o, buf, sizeof buf), 0);
	ck_assert_uint_eq(o.len, 0);
	ck_assert(!pty_termout_drain(&o, 100, 1000));
	pty_termout_close(&o);
	term_close(&t);
}
END_TEST

START_TEST(test_termout_drain_gives_up_on_a_terminal_that_takes_nothing)
{
	struct pty_termout o;
	struct term t;
	char buf[4096];
	long start;

	term_open(&t);
	ck_assert_int_eq(pty_termout_open(&o, t.slave, "\r\n"), 0);
	memset(buf, 'x', sizeof buf);
	for (int i = 0; i < 64; i++)
		(void)pty_termout_put(&o, buf, sizeof buf);
	start = pts_now_ms();
	ck_assert(!pty_termout_drain(&o, 200, 60000));
	ck_assert_msg(pts_now_ms() - start < T, "the drain waited %ld ms",
		      pts_now_ms() - start);
	ck_assert(pty_termout_pending(&o));
	pty_termout_close(&o);
	term_close(&t);
}
END_TEST

START_TEST(test_termout_socket_is_written_without_waiting)
{
	struct pty_termout o;
	char buf[4096], out[8192];
	int sv[2];
	size_t got = 0;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	ck_assert_int_eq(pty_termout_open(&o, sv[0], "\n"), 0);
	ck_assert_int_eq(o.how, PTY_TERMOUT_SOCKET);
	memset(buf, 's', sizeof buf);
	for (int i = 0; i < 256; i++) /* 1 MiB: more than a socket holds */
		(void)pty_termout_put(&o, buf, sizeof buf - (i == 255));
	ck_assert(pty_termout_pending(&o));
	ck_assert_int_eq(fcntl(sv[0], F_GETFL) & O_NONBLOCK, 0);
	while (pty_termout_pending(&o) || got < 256 * 4096 - 1) {
		ssize_t n;

		(void)pty_termout_flush(&o);
		n = read(sv[1], out, sizeof out);
		ck_assert_int_gt(n, 0);
		got += (size_t)n;
	}
	ck_assert_uint_eq(got, 256 * 4096 - 1);
	pty_termout_close(&o);
	(void)close(sv[0]);
	(void)close(sv[1]);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("termout");

	tcase_set_timeout(tc, 120);
	tcase_add_test(
	    tc,
	    test_termout_terminal_that_does_not_read_never_holds_up_a_write);
	tcase_add_test(
	    tc, test_termout_messages_past_the_bound_are_said_in_their_place);
	tcase_add_test(
	    tc, test_termout_stream_turns_newlines_and_waits_for_the_flush);
	tcase_add_test(
	    tc, test_termout_fronts_its_descriptor_only_and_only_while_open);
	tcase_add_test(tc, test_termout_terminal_gone_takes_nothing_more);
	tcase_add_test(
	    tc, test_termout_drain_gives_up_on_a_terminal_that_takes_nothing);
	tcase_add_test(tc, test_termout_socket_is_written_without_waiting);
	suite_add_tcase(s, tc);
	return s;
}
