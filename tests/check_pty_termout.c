/* SPDX-License-Identifier: MIT */
/*
 * A terminal that stops reading holds up its output, never the guard: the
 * queue of the terminal's output (session/termout.c) on a pseudo-terminal
 * nobody reads - it never waits, keeps the bytes in order, leaves the
 * guard's own messages out at its bound and says so in their place, turns
 * readline's \n into \r\n, and gives up at the end on a terminal that
 * takes nothing - and the built guard on such a terminal: SIGTERM ends the
 * session, an exec of the session is answered, keys the job does not read
 * hold up nothing, and -c with a stderr nobody reads ends.  The deployed
 * guard behind sshd with a stopped ssh client is check_pty_stalled.c.
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
	int same;

	term_open(&t);
	term_open(&other);
	ck_assert_int_eq(pty_termout_open(&o, t.slave, "\n"), 0);
	ck_assert_ptr_eq(pty_termout_of(t.slave), &o);
	ck_assert_ptr_null(pty_termout_of(other.slave));
	/* a second descriptor of the same terminal (stderr beside stdout),
	 * never another terminal's */
	ck_assert(!pty_termout_also(&o, other.slave));
	ck_assert_ptr_null(pty_termout_of(other.slave));
	same = dup(t.slave);
	ck_assert(pty_termout_also(&o, same));
	ck_assert_ptr_eq(pty_termout_of(same), &o);
	/* one a process */
	ck_assert_int_eq(pty_termout_open(&second, other.slave, "\n"), -1);
	pty_termout_close(&second);
	ck_assert_int_eq(pty_write_all(other.slave, "x", 1), 0);
	ck_assert_int_eq(read(other.master, out, sizeof out), 1);
	pty_termout_close(&o);
	ck_assert_ptr_null(pty_termout_of(t.slave));
	ck_assert_ptr_null(pty_termout_of(same));
	(void)close(same);
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

/* ── The built guard on a terminal that stops reading ─────────────────── */

/* Every line, and every program but touch (for a refused exec). */
static const char everything[] =
    "allow(C) :- command(C).\n"
    ".decl refused(p: symbol)\n"
    "deny_exec(P, \"not this one\") :- exec_path(P),\n"
    "    P = \"/usr/bin/touch\".\n"
    "refused(P) :- deny_exec(P, _).\n"
    "allow_exec(P) :- exec_path(P), !refused(P).\n";
/* A text file of `lines` numbered lines, between BEGIN and END lines. */
static const char *
big_file(const struct pts_world *w, unsigned lines)
{
	static char path[400];
	FILE *f;

	snprintf(path, sizeof path, "%s/big.txt", w->home);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("BEGIN-OF-FILE\n", f);
	for (unsigned i = 0; i < lines; i++)
		fprintf(f, "line %07u abcdefghijklmnopqrstuvwxyz0123456789\n",
			i);
	fputs("END-OF-FILE\n", f);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

/* Waits for the guard to exit without reading its terminal; its exit
 * status (128 + signal), or -1 at the deadline. */
static int
wait_unread(struct pts *p, int timeout_ms)
{
	long end = pts_now_ms() + timeout_ms;
	int st;

	while (pts_now_ms() < end) {
		if (waitpid(p->pid, &st, WNOHANG) == p->pid) {
			p->status = st;
			return WIFEXITED(st) ? WEXITSTATUS(st)
					     : 128 + WTERMSIG(st);
		}
		poll(NULL, 0, 20);
	}
	return -1;
}

/* A file of /proc (whose size says 0), up to cap - 1 bytes; "" when it
 * cannot be read. */
static void
proc_read(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, cap - 1);

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		(void)close(fd);
}

/* The parent of pid and its name (/proc/PID/stat: "pid (comm) state ppid
 * ..."; comm may hold anything, the last ')' ends it), or 0. */
static pid_t
parent_of(pid_t pid, char comm[32])
{
	char path[64], stat[1024], *close_paren, *open_paren;
	int ppid = 0;

	comm[0] = '\0';
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	proc_read(path, stat, sizeof stat);
	open_paren = strchr(stat, '(');
	close_paren = strrchr(stat, ')');
	if (open_paren != NULL && close_paren != NULL &&
	    close_paren > open_paren) {
		snprintf(comm, 32, "%.*s", (int)(close_paren - open_paren - 1),
			 open_paren + 1);
		if (sscanf(close_paren, ") %*c %d", &ppid) != 1)
			ppid = 0;
	}
	return (pid_t)ppid;
}

/* A process named `comm` that descends from `ancestor` (the guard), or
 * 0. */
static pid_t
find_under(pid_t ancestor, const char *comm)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t found = 0;

	ck_assert_ptr_nonnull(d);
	while (found == 0 && (e = readdir(d)) != NULL) {
		char c[32], up[32];
		pid_t pid = (pid_t)strtol(e->d_name, NULL, 10), q;
		int hops;

		if (pid <= 0)
			continue;
		q = parent_of(pid, c);
		if (strcmp(c, comm) != 0)
			continue;
		for (hops = 0; q > 1 && q != ancestor && hops < 16; hops++)
			q = parent_of(q, up);
		if (q == ancestor)
			found = pid;
	}
	closedir(d);
	return found;
}

/* Waits until the guard's job `comm` is there and has read and written
 * nothing for two seconds: its output waits for the terminal (the
 * guard's queue and the ptys are full).  Returns its pid, or 0. */
static pid_t
wait_stalled(pid_t guard, const char *comm, int timeout_ms)
{
	long end = pts_now_ms() + timeout_ms;
	pid_t pid;

	while ((pid = find_under(guard, comm)) == 0 && pts_now_ms() < end)
		poll(NULL, 0, 20);
	if (pid == 0 || !pts_wait_io_stops(pid, 2000, timeout_ms))
		return 0;
	return pid;
}

/* Waits (bounded) for a file to be there. */
static bool
wait_file(const char *path, int timeout_ms)
{
	long end = pts_now_ms() + timeout_ms;
	struct stat st;

	while (stat(path, &st) != 0) {
		if (pts_now_ms() >= end)
			return false;
		poll(NULL, 0, 20);
	}
	return true;
}

static struct pts_world world;
static struct pts p;

static void
start_everything(void)
{
	pts_world_make(&world);
	pts_start(&p, &world,
		  pts_world_policy(&world, "everything.dl", everything), 24,
		  80);
	ck_assert_msg(pts_wait_prompt(&p, T), "no prompt; output: %s", p.out);
}

static void
stop_everything(void)
{
	pts_close(&p);
	pts_world_remove(&world);
}

/* Before: the guard waited in write(2) on the terminal with SIGTERM
 * blocked, for as long as the terminal did not read. */
START_TEST(test_termout_sigterm_ends_a_session_whose_terminal_does_not_read)
{
	char line[512];
	int st;

	start_everything();
	snprintf(line, sizeof line, "cat %s\r", big_file(&world, 400000));
	pts_type(&p, line);
	ck_assert_msg(wait_stalled(p.pid, "cat", T) > 0, "cat never stalled");
	ck_assert_int_eq(kill(p.pid, SIGTERM), 0);
	st = wait_unread(&p, T);
	ck_assert_msg(st == 128 + SIGTERM, "the guard did not end (%d)", st);
	stop_everything();
}
END_TEST

/* Before: the exec waited unanswered for as long as the guard waited in
 * write(2) on the terminal. */
START_TEST(test_termout_execs_are_answered_while_the_terminal_does_not_read)
{
	char line[2048], go[400], result[400], mark[400], refused[400], *text;

	start_everything();
	snprintf(go, sizeof go, "%s/GO", world.home);
	snprintf(result, sizeof result, "%s/RESULT", world.home);
	snprintf(mark, sizeof mark, "%s/MARK", world.home);
	snprintf(refused, sizeof refused, "%s/REFUSED", world.home);
	/* two processes of the session waiting for GO: one runs a program
	 * (mkdir MARK), one a program the policy refuses (touch), whose
	 * refusal is shown on the terminal that does not read: queued */
	snprintf(line, sizeof line,
		 "setsid -f exec_probe waitexec %s %s /usr/bin/mkdir %s\r", go,
		 result, mark);
	pts_type(&p, line);
	ck_assert(pts_wait_prompt(&p, T));
	snprintf(line, sizeof line,
		 "setsid -f exec_probe waitexec %s %s /usr/bin/touch %s/M2\r",
		 go, refused, world.home);
	pts_type(&p, line);
	ck_assert(pts_wait_prompt(&p, T));
	snprintf(line, sizeof line, "cat %s\r", big_file(&world, 400000));
	pts_type(&p, line);
	ck_assert_msg(wait_stalled(p.pid, "cat", T) > 0, "cat never stalled");
	pts_write_file(go, "", 0644);
	ck_assert_msg(wait_file(mark, T), "the exec was not answered");
	ck_assert_msg(wait_file(refused, T),
		      "the refused exec was not answered");
	text = pts_slurp(refused);
	ck_assert_msg(strstr(text, "EPERM") != NULL, "%s", text);
	free(text);
	ck_assert_int_eq(kill(p.pid, SIGTERM), 0);
	ck_assert_int_eq(wait_unread(&p, T), 128 + SIGTERM);
	stop_everything();
}
END_TEST

/* Before: keys the job did not read filled the session's pty, and the
 * guard waited in write(2) to it - for ever, as only the guard empties it
 * (when the next prompt comes). */
START_TEST(test_termout_keys_a_job_does_not_read_hold_up_nothing)
{
	static char keys[256 * 1024];

	start_everything();
	pts_type(&p, "sleep 600\r");
	pts_settle(&p, 300);
	memset(keys, 'k', sizeof keys);
	for (size_t i = 0; i < sizeof keys; i += 64)
		keys[i] = '\r';
	/* the master takes what the guard reads; the guard reads only what
	 * the job's pty takes */
	for (size_t off = 0; off < sizeof keys;) {
		struct pollfd pfd = {p.master, POLLOUT, 0};
		ssize_t n;

		if (poll(&pfd, 1, 1000) <= 0)
			break; /* nothing more is read: as it should be */
		n = write(p.master, keys + off, sizeof keys - off);
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	ck_assert_int_eq(kill(p.pid, SIGTERM), 0);
	ck_assert_int_eq(pts_wait(&p, T), 128 + SIGTERM);
	stop_everything();
}
END_TEST

/* -c with a stderr nobody reads (a pipe, as sshd gives), filled by the
 * command itself, then a refused exec: its refusal waits in the queue,
 * the command goes on and ends, and so does the guard.  Before: the guard
 * waited in write(2) on stderr, the refused exec with it, for ever. */
START_TEST(test_termout_command_with_a_full_stderr_ends)
{
	static const char policy[] =
	    "allow(C) :- command(C).\n"
	    ".decl refused(p: symbol)\n"
	    "deny_exec(P, \"not this one\") :- exec_path(P),\n"
	    "    P = \"/usr/bin/touch\".\n"
	    "refused(P) :- deny_exec(P, _).\n"
	    "allow_exec(P) :- exec_path(P), !refused(P).\n";
	char command[600], script[400], text[700];
	int err[2], st = -1;
	pid_t pid;
	long end;

	pts_world_make(&world);
	snprintf(script, sizeof script, "%s/fill.sh", world.home);
	/* the pipe made full by the command (64 KiB), then a refused exec,
	 * whose refusal the guard writes to that pipe */
	snprintf(text, sizeof text,
		 "head -c 65536 /dev/zero >&2\n"
		 "touch %s/never 2>/dev/null\n",
		 world.home);
	pts_write_file(script, text, 0644);
	snprintf(command, sizeof command, "sh %s", script);
	ck_assert_int_eq(pipe(err), 0);
	ck_assert_int_eq(fcntl(err[1], F_SETPIPE_SZ, 65536), 65536);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char *argv[] = {
		    (char *)pts_build_path("pty/maelys-pty"),
		    "--policy",
		    (char *)pts_world_policy(&world, "fill.dl", policy),
		    "--path",
		    world.path_env,
		    "-c",
		    command,
		    NULL};
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0);
		dup2(null, 1);
		dup2(err[1], 2);
		execv(argv[0], argv);
		_exit(127);
	}
	(void)close(err[1]);
	end = pts_now_ms() + T;
	while (pts_now_ms() < end && waitpid(pid, &st, WNOHANG) != pid)
		poll(NULL, 0, 20);
	if (pts_now_ms() >= end) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		ck_abort_msg("the guard of -c did not end");
	}
	/* the refused program's status is the command's */
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 126, "status %d", st);
	(void)close(err[0]);
	pts_world_remove(&world);
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
	tcase_add_test(
	    tc,
	    test_termout_sigterm_ends_a_session_whose_terminal_does_not_read);
	tcase_add_test(
	    tc,
	    test_termout_execs_are_answered_while_the_terminal_does_not_read);
	tcase_add_test(tc,
		       test_termout_keys_a_job_does_not_read_hold_up_nothing);
	tcase_add_test(tc, test_termout_command_with_a_full_stderr_ends);
	suite_add_tcase(s, tc);
	return s;
}
