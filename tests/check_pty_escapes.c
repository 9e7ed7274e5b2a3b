/* SPDX-License-Identifier: MIT */
/*
 * The escape routes past the prompt, each through the real binary: keys that
 * reach the session by any way other than the guard's prompt must never run
 * as a command.  Typeahead during a job, a multi-line paste (plain and
 * bracketed), Ctrl-V Ctrl-J, stty changes on the session's terminal, and
 * history expansion.  The policy allows everything but the fake programs,
 * so only the mechanism stands between the trick and the marker file.  Also
 * what a job must see: raw mode keystrokes unchanged, a password prompt
 * that shows nothing typed.
 */
#include "runner.h"

#include "pty_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define T 8000

static const char permissive[] =
    "allow(C) :- command(C), not(forbidden_cmd(C)).\n"
    "forbidden_cmd(\"shutdown\"). forbidden_cmd(\"evil\").\n"
    "allow_exec(P) :- exec_path(P).\n";

static struct pts_world world;
static struct pts p;

static void
start(void)
{
	pts_world_make(&world);
	pts_start(&p, &world,
		  pts_world_policy(&world, "permissive.dl", permissive), 24,
		  80);
	ck_assert_msg(pts_wait_prompt(&p, T), "no prompt: %s", p.out);
}

static void
finish(void)
{
	/* and the session still works afterwards */
	pts_type(&p, "echo still-alive\r");
	ck_assert_msg(pts_expect(&p, "still-alive\r\n", T), "%s",
		      p.out + p.mark);
	ck_assert(pts_wait_prompt(&p, T));
	ck_assert_msg(!pts_world_ran(&world, "shutdown"),
		      "the fake shutdown ran; output:\n%s", p.out);
	ck_assert(!pts_world_ran(&world, "evil"));
	pts_close(&p);
	pts_world_remove(&world);
}

START_TEST(test_escapes_typeahead_during_job_never_runs)
{
	start();
	pts_type(&p, "sleep 1\r");
	pts_settle(&p, 200);
	/* typed while the job runs: it lands in the session's terminal,
	 * which bash never reads commands from */
	pts_type(&p, "shutdown now\r");
	pts_type(&p, "evil\r");
	ck_assert(pts_wait_prompt(&p, T));
	pts_settle(&p, 500);
	finish();
}
END_TEST

START_TEST(test_escapes_multiline_paste_runs_only_first_line)
{
	start();
	/* one write, as a terminal delivers a paste without bracketing */
	pts_type(&p, "echo pasted-one\rshutdown now\revil\r");
	ck_assert(pts_expect(&p, "pasted-one\r\n", T));
	pts_settle(&p, 800);
	finish();
}
END_TEST

START_TEST(test_escapes_bracketed_paste_with_newline_is_refused)
{
	start();
	pts_type(&p, "\x1b[200~echo a\nshutdown now\n\x1b[201~\r");
	ck_assert_msg(pts_expect(&p, "line break inside the line", T), "%s",
		      p.out + p.mark);
	ck_assert(pts_wait_prompt(&p, T));
	finish();
}
END_TEST

START_TEST(test_escapes_ctrl_v_ctrl_j_is_refused)
{
	start();
	pts_type(&p, "echo a\x16\x0ashutdown now\r");
	ck_assert_msg(pts_expect(&p, "line break inside the line", T), "%s",
		      p.out + p.mark);
	ck_assert(pts_wait_prompt(&p, T));
	finish();
}
END_TEST

START_TEST(test_escapes_stty_changes_do_not_bypass_guard)
{
	start();
	/* the session's terminal settings are the session's; the guard
	 * reads the user's keys itself, whatever they are */
	pts_type(&p, "stty -icanon -isig -echo eol x intr ^J\r");
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "shutdown now\r");
	ck_assert(pts_expect(&p, "'shutdown' denied by policy", T));
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "stty sane\r");
	ck_assert(pts_wait_prompt(&p, T));
	finish();
}
END_TEST

START_TEST(test_escapes_history_expansion_does_not_rerun)
{
	start();
	pts_type(&p, "shutdown now\r");
	ck_assert(pts_expect(&p, "denied by policy", T));
	ck_assert(pts_wait_prompt(&p, T));
	/* allowed as text ("!!" is not a forbidden command), and bash runs
	 * with +H: no expansion to the denied line */
	pts_type(&p, "!!\r");
	ck_assert(pts_expect(&p, "!!: command not found", T));
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "!shut\r");
	ck_assert(pts_expect(&p, "!shut: command not found", T));
	ck_assert(pts_wait_prompt(&p, T));
	finish();
}
END_TEST

START_TEST(test_escapes_raw_mode_program_gets_keys_unchanged)
{
	start();
	pts_type(&p, "rawecho\r");
	ck_assert_msg(pts_expect(&p, "RAW-READY", T), "%s", p.out + p.mark);
	/* Ctrl-C, Ctrl-Z, Ctrl-D, Ctrl-\, ESC, CR, a UTF-8 letter, q q */
	pts_type(&p, "\x03\x1a\x04\x1c\x1b\r\xc3\xa9qq");
	ck_assert_msg(
	    pts_expect(&p, "<03><1a><04><1c><1b><0d><c3><a9><71><71>", T),
	    "raw program saw: %s", p.out + p.mark);
	ck_assert(pts_expect(&p, "RAW-DONE", T));
	ck_assert(pts_wait_prompt(&p, T));
	finish();
}
END_TEST

START_TEST(test_escapes_password_prompt_shows_nothing_typed)
{
	size_t before;

	start();
	pts_type(&p, "askpass\r");
	ck_assert(pts_expect(&p, "Password: ", T));
	before = p.len;
	pts_type(&p, "hunter2\r");
	ck_assert(pts_expect(&p, "PASSWORD-LENGTH=7", T));
	ck_assert_msg(strstr(p.out + before, "hunter2") == NULL,
		      "the password was echoed: %s", p.out + before);
	ck_assert(pts_wait_prompt(&p, T));
	finish();
}
END_TEST

START_TEST(test_escapes_here_document_is_refused)
{
	start();
	/* the document's lines would be read from bash's command pipe */
	pts_type(&p, "cat <<EOF\r");
	ck_assert_msg(pts_expect(&p, "here-documents (<<) are unsupported", T),
		      "%s", p.out + p.mark);
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "shutdown now\r");
	ck_assert(pts_expect(&p, "denied by policy", T));
	ck_assert(pts_wait_prompt(&p, T));
	finish();
}
END_TEST

/* Every descriptor bash holds, opened again through /proc/PID/fd/N by a
 * process of the session (the job itself, with the user's rights): the
 * command and status channels are sockets, which do not open that way, so
 * nothing written reaches bash's command stream.  The probe runs as a
 * line, while bash holds its command channel at 0 and its saved copy (fd
 * 10, from the line's "0</dev/tty"). */
START_TEST(test_escapes_bash_descriptors_cannot_be_reopened_into_its_commands)
{
	char cmd[512], marker[400];

	start();
	snprintf(marker, sizeof marker, "%s/INJECTED", world.dir);
	/* $PPID would be a metacharacter: the probe is told bash's pid */
	pts_type(&p, "echo pid-$$\r");
	ck_assert(pts_expect(&p, "\npid-", T)); /* the output, not the echo */
	{
		const char *s = p.out + p.mark;
		long bash = strtol(s, NULL, 10);

		ck_assert_int_gt(bash, 1);
		ck_assert(pts_wait_prompt(&p, T));
		snprintf(cmd, sizeof cmd, "exec_probe inject %ld touch %s\r",
			 bash, marker);
	}
	pts_type(&p, cmd);
	/* the line is long enough to scroll in readline, whose redisplay
	 * can look like a prompt: the probe's last line marks its end */
	ck_assert_msg(pts_expect(&p, "inject: done", T), "%s", p.out);
	ck_assert(pts_wait_prompt(&p, T));
	/* each socket refused (ENXIO), both ways; the terminal may open
	 * (writing to it only shows the text); bash holds no pipe */
	{
		const char *l = p.out;
		int sockets = 0;

		while ((l = strstr(l, "\nfd ")) != NULL) {
			const char *eol = strchr(++l, '\r');
			size_t n = eol != NULL ? (size_t)(eol - l) : strlen(l);
			char line[600];

			(void)snprintf(line, sizeof line, "%.*s", (int)n, l);
			ck_assert_msg(strstr(line, "pipe:[") == NULL,
				      "bash holds a pipe: %s", line);
			if (strstr(line, "socket:[") != NULL) {
				sockets++;
				ck_assert_msg(strstr(line, " ENXIO") != NULL,
					      "a socket of bash's opened: %s",
					      line);
			}
		}
		/* its command channel, the saved copy and the status one */
		ck_assert_msg(sockets >= 2 * 2, "%s", p.out);
	}
	/* two more rounds of the prompt, for bash to read anything */
	pts_type(&p, "true\r");
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "true\r");
	ck_assert(pts_wait_prompt(&p, T));
	ck_assert_msg(access(marker, F_OK) != 0, "a line was injected: %s",
		      p.out);
	finish();
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("escapes");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_escapes_typeahead_during_job_never_runs);
	tcase_add_test(tc, test_escapes_multiline_paste_runs_only_first_line);
	tcase_add_test(tc,
		       test_escapes_bracketed_paste_with_newline_is_refused);
	tcase_add_test(tc, test_escapes_ctrl_v_ctrl_j_is_refused);
	tcase_add_test(tc, test_escapes_stty_changes_do_not_bypass_guard);
	tcase_add_test(tc, test_escapes_history_expansion_does_not_rerun);
	tcase_add_test(tc, test_escapes_raw_mode_program_gets_keys_unchanged);
	tcase_add_test(tc, test_escapes_password_prompt_shows_nothing_typed);
	tcase_add_test(tc, test_escapes_here_document_is_refused);
	tcase_add_test(
	    tc,
	    test_escapes_bash_descriptors_cannot_be_reopened_into_its_commands);
	suite_add_tcase(s, tc);
	return s;
}
