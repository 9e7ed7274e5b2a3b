/* SPDX-License-Identifier: MIT */
/*
 * The names the guard takes from the file system, on the product as it is
 * deployed (tests/bastion.h: the installed setuid guard, bastion.dl, a
 * real sshd, the audit log, two unprivileged users):
 *   - the shell's directory, removed under it: the kernel still names it
 *     by its old name with " (deleted)" after it - a name another folder
 *     may have (the user makes one) - and the guard takes no such name:
 *     the line is refused saying why (bastion.dl reads cwd), and a
 *     program's exec is refused naming the program (a policy that reads
 *     no cwd), never decided, recorded or shown with that name;
 *   - names chosen by another user, with control characters (ESC, a C1
 *     CSI) and a bidirectional override in them: a folder bob named, where
 *     alice's shell goes, is shown in her prompt as every name the guard
 *     shows, with '?' for each such character; file names bob put in his
 *     folder are not completed by Tab (listed, they would drive alice's
 *     terminal; in a line, it could not run), and those that are shown
 *     are.
 * The folders are made by the test as the users (bastion.dl has no mkdir),
 * outside any session.  Root only: otherwise SKIP (exit 77).
 */
#define _GNU_SOURCE
#include "runner.h"

#include "bastion.h"
#include "pty_harness.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define T 20000 /* ms for an answer that has no bound of its own */

static struct bastion bastion;
static size_t mark; /* the log's size when the running test started */

static void
names_up(void)
{
	bastion_up_suite(&bastion, "check_pty_names");
}

static void
names_down(void)
{
	bastion_down(&bastion);
}

static void home_clean(const char *user);

static void
each_setup(void)
{
	bastion_user_kill(&bastion, ALICE);
	home_clean(ALICE); /* a failed test's teardown may not have run */
	home_clean(BOB);
	bastion_configure(&bastion, NULL, NULL);
	mark = bastion_log_mark(&bastion);
}

/* Removes what a test made in a user's home (all but its dot files). */
static void
home_clean(const char *user)
{
	char cmd[600];

	snprintf(cmd, sizeof cmd,
		 "find '%s' -mindepth 1 -maxdepth 1 ! -name '.*' "
		 "-exec rm -rf {} +",
		 bastion_user(&bastion, user)->home);
	ck_assert_int_eq(system(cmd), 0);
}

static void
each_teardown(void)
{
	bastion_user_kill(&bastion, ALICE);
	home_clean(ALICE);
	home_clean(BOB);
}

/* Runs a bash script as `user`, outside any session, in their home. */
static void
as_user(const char *user, const char *script)
{
	char *argv[] = {"/bin/bash", "-c", (char *)script, NULL};
	char *out = NULL, *err = NULL;

	ck_assert_msg(bastion_run_as(&bastion, user, argv, T, &out, &err) == 0,
		      "as %s: %s: %s %s", user, script, out, err);
	free(out);
	free(err);
}

/* The records of alice since the test began that hold every needle. */
static int
count(const char *a, const char *b, const char *c, const char *d)
{
	const char *const needles[] = {a, b, c, d, NULL};

	return bastion_log_count_user(&bastion, mark, ALICE, needles);
}

/* ── A directory removed under the shell ─────────────────────────────── */

/* alice's shell is in ~/gone when it is removed (by alice, outside the
 * session), and ~/"gone (deleted)" is a folder of hers.  Under bastion.dl,
 * which reads cwd, `pwd` is refused saying why, recorded as refused with
 * no cwd fact, the prompt then shows "?", and Ctrl-D ends the session.
 * Before: pwd was allowed and recorded with the cwd fact
 * "/home/mpty-alice/gone (deleted)" - the other folder, where the shell
 * is not - and the prompt showed "~/gone (deleted)". */
START_TEST(test_names_removed_directory_is_not_named)
{
	char deleted_fact[512];
	struct pts p;
	int st;

	as_user(ALICE, "mkdir gone 'gone (deleted)'");
	bastion_login(&bastion, &p, ALICE, T);
	bastion_line(&p, ALICE, "cd gone", T);
	as_user(ALICE, "rmdir gone");
	pts_type(&p, "pwd\r");
	bastion_expect(&p, ALICE,
		       "maelys-pty: 'pwd' denied: the shell's working "
		       "directory cannot be named (it was removed), and the "
		       "policy decides lines by it (cwd)",
		       T);
	bastion_expect(&p, ALICE, ":?$ ", T);
	ck_assert_msg(strstr(p.out, "(deleted)") == NULL,
		      "the session showed the removed directory's name:\n%s",
		      p.out);
	pts_type(&p, "\x04");
	st = pts_wait(&p, T);
	ck_assert_msg(st >= 0, "the session did not end:\n%s", p.out);
	pts_close(&p);
	ck_assert_msg(count(EV("line"), LINE("pwd"), DEC("refused"),
			    "\"error\":\"it was removed\"") == 1,
		      "pwd's refusal is not recorded:\n%s",
		      bastion_log_tail(&bastion, mark));
	snprintf(deleted_fact, sizeof deleted_fact, "%s (deleted)",
		 bastion_home(&bastion, ALICE, "gone"));
	ck_assert_msg(count(deleted_fact, NULL, NULL, NULL) == 0,
		      "a record names the removed directory:\n%s",
		      bastion_log_tail(&bastion, mark));
	bastion_assert_log_verifies(&bastion);
}
END_TEST

/* The same under a policy that reads no cwd: `id` is decided (with no cwd
 * fact), and its exec is refused - every exec record holds its exec_cwd,
 * which cannot be named - by a record that names the program and says
 * why; the message says so too.
 * Before: id ran, recorded with exec_cwd "/home/mpty-alice/gone
 * (deleted)". */
START_TEST(test_names_removed_directory_is_no_exec_cwd)
{
	struct bastion_tools tools;
	char deleted_fact[512];
	struct pts p;

	bastion_tools_install(&bastion, &tools);
	bastion_use_attack_policy(&bastion, &tools, true);
	mark = bastion_log_mark(&bastion);
	as_user(ALICE, "mkdir gone 'gone (deleted)'");
	bastion_login(&bastion, &p, ALICE, T);
	bastion_line(&p, ALICE, "cd gone", T);
	as_user(ALICE, "rmdir gone");
	pts_type(&p, "id\r");
	bastion_expect(&p, ALICE,
		       "maelys-pty: exec of '/usr/bin/id' denied: the request "
		       "could not be checked",
		       T);
	bastion_expect(&p, ALICE,
		       "  its working directory cannot be named (it was "
		       "removed)",
		       T);
	bastion_expect_prompt(&p, ALICE, T);
	bastion_line(&p, ALICE, "cd", T);
	pts_type(&p, "id\r");
	bastion_expect(&p, ALICE, "uid=", T);
	bastion_expect_prompt(&p, ALICE, T);
	bastion_logout(&p, ALICE, 0, T);
	ck_assert_msg(count(EV("exec"), PATH("/usr/bin/id"), DEC("refused"),
			    "\"error\":\"its working directory cannot be "
			    "named (it was removed)\"") == 1,
		      "the refused exec's record does not name id:\n%s",
		      bastion_log_tail(&bastion, mark));
	snprintf(deleted_fact, sizeof deleted_fact, "%s (deleted)",
		 bastion_home(&bastion, ALICE, "gone"));
	ck_assert_msg(count(deleted_fact, NULL, NULL, NULL) == 0,
		      "a record names the removed directory:\n%s",
		      bastion_log_tail(&bastion, mark));
	bastion_assert_log_verifies(&bastion);
}
END_TEST

/* ── Names another user chose ────────────────────────────────────────── */

/* bob's folder ~bob/pub is a link to a folder whose name holds ESC
 * sequences (a title, a screen clear), a bidirectional override and a
 * newline; alice goes there.  Her prompt shows its name with '?' for each
 * of them, and none of those bytes reaches her terminal.
 * Before: the prompt wrote the name as it is - the escape sequences drove
 * alice's terminal, the override reversed what followed it. */
START_TEST(test_names_prompt_shows_another_users_folder_printable)
{
	struct pts p;
	char line[600];

	as_user(BOB, "chmod 755 . && mkdir \"$(printf "
		     "'x\\033]0;OWNED\\007\\033[2J\\342\\200\\256y\\nz')\" && "
		     "ln -s \"$(printf "
		     "'x\\033]0;OWNED\\007\\033[2J\\342\\200\\256y\\nz')\" "
		     "pub");
	bastion_login(&bastion, &p, ALICE, T);
	snprintf(line, sizeof line, "cd %s",
		 bastion_home(&bastion, BOB, "pub"));
	pts_type(&p, line);
	pts_type(&p, "\r");
	bastion_expect(&p, ALICE, "/x?]0;OWNED??[2J?y?z$ ", T);
	ck_assert_msg(strstr(p.out, "\033]0;OWNED") == NULL &&
			  strstr(p.out, "\033[2J") == NULL &&
			  strstr(p.out, "\342\200\256") == NULL,
		      "the folder's name reached the terminal as it is:\n%s",
		      p.out);
	bastion_logout(&p, ALICE, 0, T);
}
END_TEST

/* bob's folder holds files whose names have a C1 control (U+009B, CSI to
 * a UTF-8 terminal) and a bidirectional override, and two plain ones;
 * alice, there, asks Tab for the names starting "zz": only the plain ones
 * are listed, and a name of the others alone is not completed.
 * Before: readline listed them as they are (it shows only C0 controls as
 * ^X), so bob's names drove alice's terminal. */
START_TEST(test_names_completion_offers_only_names_shown_whole)
{
	struct pts p;
	char line[600];

	as_user(BOB, "chmod 755 . && mkdir pub && cd pub && "
		     "touch \"$(printf 'zz\\302\\2332Jc')\" "
		     "\"$(printf 'zz\\342\\200\\256b')\" zzgood zzfine "
		     "\"$(printf 'yy\\302\\2332J')\"");
	bastion_login(&bastion, &p, ALICE, T);
	snprintf(line, sizeof line, "cd %s",
		 bastion_home(&bastion, BOB, "pub"));
	bastion_line(&p, ALICE, line, T);
	pts_type(&p, "cat zz\t\t");
	bastion_expect(&p, ALICE, "zzfine", T);
	bastion_expect(&p, ALICE, "$ cat zz", T);
	/* the one name starting "yy" is not offered */
	pts_type(&p, "\x03");
	bastion_expect_prompt(&p, ALICE, T);
	pts_type(&p, "cat yy\t\t\r");
	bastion_expect(&p, ALICE, "cat: yy: No such file or directory", T);
	bastion_expect_prompt(&p, ALICE, T);
	ck_assert_msg(strstr(p.out, "\302\233") == NULL &&
			  strstr(p.out, "\342\200\256") == NULL,
		      "a file name reached the terminal as it is:\n%s", p.out);
	ck_assert_msg(strstr(p.out, "zzgood") != NULL, "%s", p.out);
	bastion_logout(&p, ALICE, 0, T);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("names");

	tcase_set_timeout(tc, 240);
	tcase_add_unchecked_fixture(tc, names_up, names_down);
	tcase_add_checked_fixture(tc, each_setup, each_teardown);
	tcase_add_test(tc, test_names_removed_directory_is_not_named);
	tcase_add_test(tc, test_names_removed_directory_is_no_exec_cwd);
	tcase_add_test(tc,
		       test_names_prompt_shows_another_users_folder_printable);
	tcase_add_test(tc, test_names_completion_offers_only_names_shown_whole);
	suite_add_tcase(s, tc);
	return s;
}
