/* SPDX-License-Identifier: MIT */
/*
 * A bracketed paste at the prompt, on the product as it is deployed
 * (tests/bastion.h: the installed setuid guard, a real sshd, the audit
 * log, an unprivileged user): any user can type a paste's start marker,
 * "ESC [ 200 ~", and then never its end, or paste without end.  The guard
 * reads a paste as any key, never waiting and keeping no more than a line
 * can hold, so
 *   - while a paste is open, a background job's program is decided and
 *     recorded, and SIGTERM (an administrator's, or sshd's at a hang-up)
 *     ends the session;
 *   - the idle timeout ends a session whose paste never ends;
 *   - a paste longer than a line is left out, said, and costs the guard
 *     no memory: the next line works.
 * Before, readline read a paste to its end marker in one call, waiting for
 * each byte with the guard's signals blocked and keeping all of it: none
 * of that held.  Root only: otherwise SKIP (exit 77).
 */
#define _GNU_SOURCE
#include "runner.h"

#include "bastion.h"
#include "pty_harness.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define T 20000 /* ms for an answer that has no bound of its own */

#define PASTE_BEGIN "\033[200~"
#define PASTE_END   "\033[201~"

static struct bastion bastion;
static size_t mark; /* the log's size when the running test started */
static struct bastion_tools tools;

static void
paste_up(void)
{
	bastion_up_suite(&bastion, "check_pty_paste");
	bastion_tools_install(&bastion, &tools);
}

static void
paste_down(void)
{
	bastion_down(&bastion);
}

/* The attack policy (every line, every program but one), with `extra`
 * configuration lines. */
static void
configure(const char *extra)
{
	char policy[PATH_MAX];

	bastion_use_attack_policy(&bastion, &tools, true);
	snprintf(policy, sizeof policy, "%s/share/maelys-pty/policies/%s",
		 bastion.prefix, "attacks.dl");
	bastion_configure_path(&bastion, policy, tools.path, extra);
	mark = bastion_log_mark(&bastion);
}

static void
each_setup(void)
{
	bastion_user_kill(&bastion, ALICE);
	configure(NULL);
}

static void
each_teardown(void)
{
	bastion_user_kill(&bastion, ALICE);
}

/* The guard's resident memory, in KiB (the test fails if it is not to
 * be read). */
static unsigned long
guard_rss_kib(pid_t guard)
{
	char path[64], *status, *at;
	unsigned long kib = 0;

	snprintf(path, sizeof path, "/proc/%d/status", (int)guard);
	status = bastion_proc_read(path);
	at = strstr(status, "VmRSS:");
	ck_assert_msg(at != NULL && sscanf(at, "VmRSS: %lu kB", &kib) == 1,
		      "%s: no VmRSS", path);
	free(status);
	return kib;
}

/* While a paste never ends, a background job's program is decided (its
 * record written, its output shown), and SIGTERM ends the session.
 * Before: the guard waited in readline for the paste's next byte with its
 * signals blocked - id's exec waited unanswered, and SIGTERM did
 * nothing. */
START_TEST(test_paste_never_ended_holds_up_nothing)
{
	const char *const id_exec[] = {EV("exec"), PATH("/usr/bin/id"),
				       DEC("allow"), NULL};
	struct pts p;
	pid_t guard;
	int st;

	bastion_login(&bastion, &p, ALICE, T);
	guard = bastion_only_guard(&bastion, ALICE);
	/* a job that runs id in a moment, stopped and put in the
	 * background, then a paste that does not end */
	pts_type(&p, "( sleep 2; id -un )\r");
	pts_settle(&p, 300);
	pts_type(&p, "\x1a");
	bastion_expect(&p, ALICE, "Stopped", T);
	bastion_expect_prompt(&p, ALICE, T);
	bastion_line(&p, ALICE, "bg", T);
	pts_type(&p, PASTE_BEGIN "echo never ended");
	ck_assert_msg(
	    bastion_wait_records(&bastion, mark, ALICE, id_exec, 1, T),
	    "the background job's exec was not decided while the "
	    "paste was open:\n%s",
	    bastion_log_tail(&bastion, mark));
	bastion_expect(&p, ALICE, ALICE "\r\n", T);
	ck_assert_int_eq(kill(guard, SIGTERM), 0);
	st = pts_wait(&p, T);
	ck_assert_msg(st != -1,
		      "SIGTERM did not end the session while a paste was "
		      "open:\n%s",
		      p.out);
	pts_close(&p);
	bastion_assert_log_verifies(&bastion);
}
END_TEST

/* A paste that never ends, and nothing typed after it: the idle timeout
 * ends the session, as at any prompt.
 * Before: the guard waited for the paste's next byte for ever, and the
 * session never ended. */
START_TEST(test_paste_never_ended_the_idle_timeout_ends_it)
{
	const char *const idle[] = {EV("session_end"), NULL};
	struct pts p;
	int st;

	configure("idle_timeout = 2\n");
	bastion_login(&bastion, &p, ALICE, T);
	pts_type(&p, PASTE_BEGIN "echo never ended");
	bastion_expect(&p, ALICE,
		       "maelys-pty: idle at the prompt: the session "
		       "ends",
		       T);
	st = pts_wait(&p, T);
	ck_assert_msg(st != -1, "the session did not end:\n%s", p.out);
	pts_close(&p);
	ck_assert_int_eq(bastion_log_count_user(&bastion, mark, ALICE, idle),
			 1);
}
END_TEST

/* A paste of 16 MiB: left out, said with its size, and the guard's memory
 * does not grow by it; the next line runs.  A paste of a line runs as one.
 * Before: readline kept all of it (the guard grew by the paste), and put
 * it in the line. */
START_TEST(test_paste_longer_than_a_line_is_left_out)
{
	enum { PASTE = 16 << 20, CHUNK = 64 << 10 };
	char *chunk = malloc(CHUNK);
	unsigned long before, after;
	struct pts p;
	pid_t guard;
	size_t sent;

	ck_assert_ptr_nonnull(chunk);
	memset(chunk, 'a', CHUNK);
	bastion_login(&bastion, &p, ALICE, T);
	guard = bastion_only_guard(&bastion, ALICE);
	before = guard_rss_kib(guard);
	pts_type(&p, PASTE_BEGIN);
	for (sent = 0; sent < PASTE; sent += CHUNK)
		pts_type_n(&p, chunk, CHUNK);
	pts_type(&p, PASTE_END);
	bastion_expect(&p, ALICE,
		       "maelys-pty: a paste of 16777216 bytes was left out: a "
		       "line holds fewer than 4096 bytes, and no NUL",
		       3 * T);
	after = guard_rss_kib(guard);
	ck_assert_msg(after < before + 4096,
		      "the guard grew from %lu KiB to %lu KiB", before, after);
	pts_type(&p, PASTE_BEGIN "id -un" PASTE_END "\r");
	bastion_expect(&p, ALICE, "\n" ALICE "\r", T);
	bastion_expect_prompt(&p, ALICE, T);
	bastion_logout(&p, ALICE, 0, T);
	free(chunk);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("paste");

	tcase_set_timeout(tc, 240);
	tcase_add_unchecked_fixture(tc, paste_up, paste_down);
	tcase_add_checked_fixture(tc, each_setup, each_teardown);
	tcase_add_test(tc, test_paste_never_ended_holds_up_nothing);
	tcase_add_test(tc, test_paste_never_ended_the_idle_timeout_ends_it);
	tcase_add_test(tc, test_paste_longer_than_a_line_is_left_out);
	suite_add_tcase(s, tc);
	return s;
}
