/* SPDX-License-Identifier: MIT */
/*
 * A terminal that stops reading holds up its output, never the guard, on
 * the product as it is deployed (tests/bastion.h: the tree installed into
 * a prefix, maelys-pty-setup, the unprivileged users whose login shell is
 * the installed setuid guard, a real sshd on 127.0.0.1).  mpty-alice logs
 * in with the test's own ssh client on a pseudo-terminal, prints a large
 * file, and the test stops the client (SIGSTOP) - a stopped ssh, a stalled
 * link - so that nothing drains: her guard's terminal fills.  Then:
 *   - a program started by another process of her session is decided and
 *     runs, and one the policy refuses is refused (its refusal waits for
 *     the terminal), while the client is still stopped;
 *   - SIGTERM to the guard, from alice and from root, ends the session
 *     with its session_end record, while the client is still stopped;
 *   - a client stopped for a while and then resumed gets the whole file,
 *     byte for byte: output waits, none is lost;
 *   - `ssh host COMMAND` (-c, stderr a pipe the command itself fills)
 *     with the client stopped: SIGTERM ends it too.
 * Before (the relay and -c wrote to the terminal with a blocking write(2),
 * signals blocked): the guard waited in write(2) for as long as the
 * client was stopped - no exec of the session was answered and SIGTERM
 * did nothing.  check_pty_termout.c has the same without sshd, and the
 * queue itself.
 *
 * The attack policy (bastion_use_attack_policy): every line, and every
 * program but `forbidden`; the tests' programs come from the prefix's
 * libexec/maelys-pty-tests, root's.  Each test starts from a clean host.
 * Every wait is bounded.  Root only: otherwise SKIP (exit 77).
 */
#define _GNU_SOURCE
#include "runner.h"

#include "bastion.h"
#include "pty_harness.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define T 20000 /* ms for an answer that has no bound of its own */
#define LINES                                                                  \
	600000 /* of the large file: ~31 MiB, far more than ssh,               \
		  TCP and the ptys hold between cat and the client */

static struct bastion bastion;
static size_t mark; /* the log's size when the running test started */
static double started;
static struct bastion_tools tools;

/* Files the tests leave in alice's home, removed before each test. */
static const char *const leftovers[] = {"GO", "RESULT",  "REFUSED", "MARK",
					"M2", "big.txt", "flood.sh"};

static void
stalled_up(void)
{
	bastion_up_suite(&bastion, "check_pty_stalled");
}

static void
stalled_down(void)
{
	bastion_down(&bastion);
}

static void
each_setup(void)
{
	started = bastion_now();
	bastion_user_kill(&bastion, ALICE);
	for (size_t k = 0; k < sizeof leftovers / sizeof leftovers[0]; k++)
		bastion_home_remove(&bastion, ALICE, leftovers[k]);
	bastion_tools_install(&bastion, &tools);
	bastion_use_attack_policy(&bastion, &tools, true);
	mark = bastion_log_mark(&bastion);
}

static void
each_teardown(void)
{
	bastion_user_kill(&bastion, ALICE);
	printf("stalled: %s: %.1f s\n", tcase_name(), bastion_now() - started);
	fflush(stdout);
}

static int
count(const char *const needles[])
{
	return bastion_log_count_user(&bastion, mark, ALICE, needles);
}

/* The large file in alice's home: numbered lines between a BEGIN and an
 * END line.  Returns its text (the caller frees), which the test compares
 * with what arrives. */
static char *
big_file(void)
{
	size_t cap = (size_t)LINES * 64 + 64, len = 0;
	char *text = malloc(cap);

	ck_assert_ptr_nonnull(text);
	len += (size_t)snprintf(text, cap, "BEGIN-OF-FILE\n");
	for (unsigned i = 0; i < LINES; i++)
		len += (size_t)snprintf(
		    text + len, cap - len,
		    "line %07u abcdefghijklmnopqrstuvwxyz0123456789\n", i);
	(void)snprintf(text + len, cap - len, "END-OF-FILE\n");
	(void)bastion_home_file(&bastion, ALICE, "big.txt", text, 0644);
	return text;
}

/* Types `cat big.txt`, stops the client once the output flows, and waits
 * until cat reads and writes nothing: everything between it and the
 * client is full. */
static void
cat_and_stop(struct pts *a)
{
	pid_t cat;

	pts_type(a, "cat big.txt\r");
	bastion_expect(a, ALICE, "BEGIN-OF-FILE", T);
	ck_assert_int_eq(kill(a->pid, SIGSTOP), 0);
	cat = bastion_wait_comm(&bastion, ALICE, "cat", T);
	ck_assert_msg(cat > 0, "no cat of alice's");
	ck_assert_msg(pts_wait_io_stops(cat, 2000, 3 * T),
		      "cat's output never waited for the stopped client");
}

/* Waits (bounded) until alice has no guard left. */
static bool
guard_gone(int timeout_ms)
{
	double end = bastion_now() + timeout_ms / 1000.0;
	pid_t pid[4];

	while (bastion_guard_pids(&bastion, ALICE, pid, 4) > 0) {
		if (bastion_now() >= end)
			return false;
		poll(NULL, 0, 20);
	}
	return true;
}

/* Lets the stopped client go, and ends it. */
static void
resume_and_close(struct pts *a)
{
	(void)kill(a->pid, SIGCONT);
	pts_close(a);
}

/* (a) and (b) of the report, once with SIGTERM from alice, once from root.
 * Before: the exec waited unanswered and SIGTERM did nothing for as long
 * as the client was stopped. */
START_TEST(test_stalled_client_holds_up_no_exec_and_no_sigterm)
{
	static const char *const ran[] = {EV("exec"), PATH("/usr/bin/mkdir"),
					  DEC("allow"), NULL};
	static const char *const ended[] = {EV("session_end"), NULL};
	char *text = big_file(), *result, line[2 * PATH_MAX];
	char forbidden_deny[PATH_MAX + 32];
	const char *const refused[] = {EV("exec"), forbidden_deny, DEC("deny"),
				       NULL};

	snprintf(forbidden_deny, sizeof forbidden_deny, PATH("%s"),
		 tools.forbidden);
	free(text);
	for (int i = 0; i < 2; i++) {
		char left[4096];
		struct pts a;
		pid_t guard;
		int n;

		(void)unlink(bastion_home(&bastion, ALICE, "GO"));
		bastion_home_remove(&bastion, ALICE, "MARK");
		(void)unlink(bastion_home(&bastion, ALICE, "REFUSED"));
		bastion_login(&bastion, &a, ALICE, T);
		guard = bastion_only_guard(&bastion, ALICE);
		/* two processes of the session that wait for GO: one runs
		 * mkdir, one the program the policy refuses */
		bastion_line(&a, ALICE,
			     "setsid -f exec_probe waitexec GO RESULT "
			     "/usr/bin/mkdir MARK",
			     T);
		snprintf(line, sizeof line,
			 "setsid -f exec_probe waitexec GO REFUSED %s M2",
			 tools.forbidden);
		bastion_line(&a, ALICE, line, T);
		cat_and_stop(&a);
		/* (a) the execs of the session, the client still stopped */
		pts_write_file(bastion_home(&bastion, ALICE, "GO"), "", 0644);
		result = pts_slurp(bastion_home(&bastion, ALICE, "RESULT"));
		ck_assert_msg(
		    bastion_wait_file(bastion_home(&bastion, ALICE, "MARK"), T),
		    "the exec waited for the stopped client (%s)", result);
		free(result);
		ck_assert_msg(bastion_wait_file(
				  bastion_home(&bastion, ALICE, "REFUSED"), T),
			      "the refused exec waited for the stopped "
			      "client");
		result = pts_slurp(bastion_home(&bastion, ALICE, "REFUSED"));
		ck_assert_msg(strstr(result, "EPERM") != NULL, "%s", result);
		free(result);
		ck_assert_int_eq(count(ran), i + 1);
		ck_assert_int_eq(count(refused), i + 1);
		/* (b) SIGTERM ends the session, the client still stopped */
		if (i == 0)
			ck_assert_int_eq(
			    bastion_kill_as(&bastion, ALICE, guard, SIGTERM),
			    0);
		else
			ck_assert_int_eq(kill(guard, SIGTERM), 0);
		ck_assert_msg(bastion_wait_records(&bastion, mark, ALICE, ended,
						   i + 1, T),
			      "SIGTERM (from %s) did not end the session while "
			      "the client was stopped",
			      i == 0 ? "alice" : "root");
		ck_assert_msg(guard_gone(T), "the guard outlived its session");
		/* the rest once the client goes on (sshd's own process of
		 * alice's waits for it) */
		resume_and_close(&a);
		n = bastion_wait_no_process(&bastion, ALICE, T, left,
					    sizeof left);
		ck_assert_msg(n == 0, "%d processes of alice are left: %s", n,
			      left);
	}
	bastion_assert_log_verifies(&bastion);
}
END_TEST

/* Reads the client's terminal until `tail` ends what arrived (searching
 * the end only: the whole is tens of MiB); appends to *buf.  False at the
 * deadline. */
static bool
read_until(struct pts *a, char **buf, size_t *len, size_t *cap,
	   const char *tail, int timeout_ms)
{
	double end = bastion_now() + timeout_ms / 1000.0;
	size_t tlen = strlen(tail);

	while (bastion_now() < end) {
		struct pollfd pfd = {a->master, POLLIN, 0};
		ssize_t n;

		if (*len >= tlen + 64 && memmem(*buf + *len - tlen - 64,
						tlen + 64, tail, tlen) != NULL)
			return true;
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		if (*cap - *len < 65536) {
			*cap = *cap * 2 + 65536;
			*buf = realloc(*buf, *cap);
			ck_assert_ptr_nonnull(*buf);
		}
		n = read(a->master, *buf + *len, *cap - *len);
		if (n <= 0 && errno != EINTR && errno != EAGAIN)
			return false;
		if (n > 0)
			*len += (size_t)n;
	}
	return false;
}

/* A slow terminal loses nothing: the client stopped until the output
 * waits all the way back to cat, then resumed.  What the screen shows
 * between BEGIN and END is the file, each \n as the session's terminal
 * writes it (\r\n). */
START_TEST(test_stalled_client_resumed_gets_every_byte)
{
	char *text = big_file(), *got, *want, *begin;
	size_t len = 0, cap = 0, wlen = 0, tlen = strlen(text);
	struct pts a;

	want = malloc(2 * tlen + 1);
	ck_assert_ptr_nonnull(want);
	for (size_t i = 0; i < tlen; i++) {
		if (text[i] == '\n')
			want[wlen++] = '\r';
		want[wlen++] = text[i];
	}
	free(text);
	bastion_login(&bastion, &a, ALICE, T);
	cat_and_stop(&a);
	/* what the screen showed before the stop, and the rest after */
	cap = a.len + 65536;
	got = malloc(cap);
	ck_assert_ptr_nonnull(got);
	memcpy(got, a.out, a.len);
	len = a.len;
	(void)kill(a.pid, SIGCONT);
	ck_assert_msg(
	    read_until(&a, &got, &len, &cap, "END-OF-FILE\r\n", 6 * T),
	    "the end of the file never arrived (%zu bytes)", len);
	begin = memmem(got, len, "BEGIN-OF-FILE\r\n", 15);
	ck_assert_ptr_nonnull(begin);
	ck_assert_msg((size_t)(got + len - begin) >= wlen &&
			  memcmp(begin, want, wlen) == 0,
		      "what arrived differs from the file (%zu bytes from "
		      "BEGIN, the file is %zu)",
		      (size_t)(got + len - begin), wlen);
	free(got);
	free(want);
	bastion_logout(&a, ALICE, 0, T);
	ck_assert_int_eq(count((const char *[]){EV("session_end"), NULL}), 1);
}
END_TEST

/* -c: sshd gives the command pipes, and the guard writes its refusals to
 * the command's stderr.  A command that fills stderr while it runs the
 * refused program over and over, the client stopped: the guard's stderr
 * is full.  SIGTERM (from alice, then from root) still ends the command:
 * the guard passes it on to the shell and ends the session.  Before: the
 * guard waited in write(2) on stderr with SIGTERM blocked. */
START_TEST(test_stalled_client_holds_up_no_command)
{
	static const char *const ended[] = {EV("session_end"), MODE("command"),
					    NULL};
	char script[2 * PATH_MAX];

	snprintf(script, sizeof script,
		 "yes flood >&2 &\n"
		 "while :; do %s x 2>/dev/null; done\n",
		 tools.forbidden);
	(void)bastion_home_file(&bastion, ALICE, "flood.sh", script, 0644);
	for (int i = 0; i < 2; i++) {
		char left[4096];
		struct pts a;
		pid_t guard, yes;
		int n;

		bastion_ssh_spawn(&bastion, &a, ALICE, "sh flood.sh");
		yes = bastion_wait_comm(&bastion, ALICE, "yes", T);
		ck_assert_msg(yes > 0, "the command did not start");
		ck_assert_int_eq(kill(a.pid, SIGSTOP), 0);
		ck_assert_msg(pts_wait_io_stops(yes, 2000, 3 * T),
			      "stderr never filled");
		/* refusals go on, and so does the guard */
		n = count((const char *[]){EV("exec"), DEC("deny"), NULL});
		ck_assert_msg(
		    bastion_wait_records(
			&bastion, mark, ALICE,
			(const char *[]){EV("exec"), DEC("deny"), NULL}, n + 1,
			T),
		    "no refusal after stderr filled");
		guard = bastion_only_guard(&bastion, ALICE);
		if (i == 0)
			ck_assert_int_eq(
			    bastion_kill_as(&bastion, ALICE, guard, SIGTERM),
			    0);
		else
			ck_assert_int_eq(kill(guard, SIGTERM), 0);
		ck_assert_msg(bastion_wait_records(&bastion, mark, ALICE, ended,
						   i + 1, T),
			      "SIGTERM (from %s) did not end the command while "
			      "the client was stopped",
			      i == 0 ? "alice" : "root");
		ck_assert_msg(guard_gone(T), "the guard outlived its session");
		/* the rest once the client goes on (sshd's own process of
		 * alice's waits for it) */
		resume_and_close(&a);
		n = bastion_wait_no_process(&bastion, ALICE, T, left,
					    sizeof left);
		ck_assert_msg(n == 0, "%d processes of alice are left: %s", n,
			      left);
	}
	bastion_assert_log_verifies(&bastion);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("stalled");

	tcase_set_timeout(tc, 300);
	tcase_add_unchecked_fixture(tc, stalled_up, stalled_down);
	tcase_add_checked_fixture(tc, each_setup, each_teardown);
	tcase_add_test(tc, test_stalled_client_holds_up_no_exec_and_no_sigterm);
	tcase_add_test(tc, test_stalled_client_resumed_gets_every_byte);
	tcase_add_test(tc, test_stalled_client_holds_up_no_command);
	suite_add_tcase(s, tc);
	return s;
}
