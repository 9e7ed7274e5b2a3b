/* SPDX-License-Identifier: MIT */
/*
 * A home folder deeper than the kernel names, on the product as it is
 * deployed (tests/bastion.h: the tree installed into a prefix, the setuid
 * guard as the login shell of an unprivileged user, a real sshd, the
 * audit log): the user goes into it one `cd` at a time, and then
 *   - 4,500-odd bytes deep, past what the kernel prints (PATH_MAX), under
 *     the shipped bastion.dl: `pwd` and `id` are decided on the real
 *     directory - the cwd fact of the line's record, exec_cwd of id's, the
 *     prompt - and Tab completes file names in it;
 *   - past the guard's bound (8,191 bytes), under bastion.dl, which reads
 *     cwd: every line is refused, saying why, `help` says why it lists
 *     nothing, the prompt names no directory, and Ctrl-D ends the
 *     session;
 *   - past the bound, under a policy that reads no cwd: lines are decided,
 *     a program's exec is refused (its exec_cwd cannot be named, and the
 *     log records every exec's), and the record of that refusal names the
 *     program; `cd` goes home again, where it runs.
 * Never, in any of them, is the directory the shell left the one decided
 * on, recorded or shown.  The folders are made by the test as the user
 * (bastion.dl has no mkdir), outside any session.  Root only: otherwise
 * SKIP (exit 77).
 */
#define _GNU_SOURCE
#include "runner.h"

#include "bastion.h"
#include "pty_harness.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define T 20000 /* ms for an answer that has no bound of its own */

/* The folders: "deep" in the home, then levels of 200-byte names. */
#define LEVEL_LEN    200
#define SHORT_LEVELS 22 /* 4,500-odd bytes from / */
#define LONG_LEVELS  41 /* 8,250-odd bytes: past the bound */
/* Room for such a name, and for a needle or a prompt that holds one. */
#define NAME_CAP     (2 * 8192)
#define TEXT_CAP     (NAME_CAP + 64)

static struct bastion bastion;
static size_t mark; /* the log's size when the running test started */
static double started;

static void
deepdir_up(void)
{
	bastion_up_suite(&bastion, "check_pty_deepdir");
}

static void
deepdir_down(void)
{
	bastion_down(&bastion);
}

/* The user's folder `rel` and everything in it, however deep (rm walks
 * it one folder at a time). */
static void
home_remove(const char *rel)
{
	char cmd[1024];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'",
		 bastion_home(&bastion, ALICE, rel));
	ck_assert_int_eq(system(cmd), 0);
}

static void
each_setup(void)
{
	started = bastion_now();
	bastion_user_kill(&bastion, ALICE);
	home_remove("deep"); /* a failed test's teardown may not have run */
	bastion_configure(&bastion, NULL, NULL);
	mark = bastion_log_mark(&bastion);
}

static void
each_teardown(void)
{
	bastion_user_kill(&bastion, ALICE);
	home_remove("deep");
	printf("deepdir: %s: %.1f s\n", tcase_name(), bastion_now() - started);
	fflush(stdout);
}

/* Level i's name: "007xxxx...". */
static void
level_name(char *out, size_t i)
{
	snprintf(out, NAME_MAX + 1, "%03zu", i);
	memset(out + 3, 'x', LEVEL_LEN - 3);
	out[LEVEL_LEN] = '\0';
}

/* As alice, outside any session: ~/deep and `levels` folders in it, one
 * inside the other, made one at a time, and a file zz-marker in the
 * deepest.  Its name (from /) in `name`. */
static void
deep_make(size_t levels, char *name, size_t cap)
{
	char script[512];
	/* bash: dash's cd fails past PATH_MAX (it changes directory by the
	 * whole path) */
	char *argv[] = {"/bin/bash", "-c", script, NULL};
	char *out = NULL, *err = NULL;
	size_t i;

	snprintf(script, sizeof script,
		 "set -e; mkdir deep; cd deep; "
		 "x=$(printf %%%ds '' | tr ' ' x); "
		 "for i in $(seq -f %%03g 0 %zu); do mkdir \"$i$x\"; "
		 "cd \"$i$x\"; done; : > zz-marker",
		 LEVEL_LEN - 3, levels - 1);
	ck_assert_msg(bastion_run_as(&bastion, ALICE, argv, T, &out, &err) == 0,
		      "the folders were not made: %s %s", out, err);
	free(out);
	free(err);
	snprintf(name, cap, "%s", bastion_home(&bastion, ALICE, "deep"));
	for (i = 0; i < levels; i++) {
		size_t at = strlen(name);

		ck_assert_uint_lt(at + 1 + LEVEL_LEN, cap);
		name[at] = '/';
		level_name(name + at + 1, i);
	}
}

/* Logs alice in on a terminal wide enough for a prompt of 8 KiB (readline
 * scrolls a line sideways on a narrower one), and goes into ~/deep and
 * then down `levels` folders, one `cd` a line. */
static void
login_and_descend(struct pts *p, size_t levels)
{
	char line[NAME_MAX + 8];
	size_t i;

	bastion_ssh_tt_size(&bastion, p, ALICE, 24, 30000);
	bastion_expect_prompt(p, ALICE, T);
	bastion_line(p, ALICE, "cd deep", T);
	for (i = 0; i < levels; i++) {
		memcpy(line, "cd ", 3);
		level_name(line + 3, i);
		bastion_line(p, ALICE, line, T);
	}
}

/* The prompt just drawn names no directory: "alice@host:?$ ". */
static void
assert_prompt_unnamed(const struct pts *p)
{
	const char *end = p->out + p->mark;

	ck_assert_msg(p->mark >= 4 && memcmp(end - 4, ":?$ ", 4) == 0,
		      "the prompt names a directory: %s",
		      p->mark > 400 ? end - 400 : p->out);
}

/* The records of alice since the test began that hold every needle. */
static int
count(const char *a, const char *b, const char *c, const char *d)
{
	const char *const needles[] = {a, b, c, d, NULL};

	return bastion_log_count_user(&bastion, mark, ALICE, needles);
}

/* ── Past PATH_MAX, within the bound ─────────────────────────────────── */

/* 4,500-odd bytes deep under bastion.dl: the cwd fact of `pwd`'s record,
 * the exec_cwd of id's, and the prompt are the real directory; Tab
 * completes a file name found there.
 * Before: the guard could not read the directory past PATH_MAX and kept
 * the previous one: pwd and id were decided and recorded with a folder
 * the shell had left (3,999-odd bytes), the prompt showed it, Tab
 * completed nothing, and id's exec was refused ("its working directory
 * cannot be named") by a record whose exec_path and exec_request were
 * empty. */
START_TEST(test_deepdir_past_path_max_the_real_directory_is_decided_on)
{
	char *name = malloc(NAME_CAP), *fact = malloc(TEXT_CAP);
	char *xcwd = malloc(TEXT_CAP), *prompt = malloc(TEXT_CAP);
	const char *home = bastion_user(&bastion, ALICE)->home;
	struct pts p;

	ck_assert(name != NULL && fact != NULL && xcwd != NULL &&
		  prompt != NULL);
	deep_make(SHORT_LEVELS, name, NAME_CAP);
	ck_assert_uint_gt(strlen(name), PATH_MAX);
	ck_assert_uint_lt(strlen(name), 8191);
	login_and_descend(&p, SHORT_LEVELS);
	/* the prompt names it, as ~/... */
	snprintf(prompt, TEXT_CAP, ":~%s$ ", name + strlen(home));
	ck_assert_msg(strstr(p.out, prompt) != NULL,
		      "the prompt does not name the directory: %s",
		      p.out + (p.len > 600 ? p.len - 600 : 0));
	/* Tab completes in it: only the real directory holds zz-marker */
	pts_type(&p, "echo zz-\t");
	bastion_expect(&p, ALICE, "zz-marker", T);
	pts_type(&p, "\r");
	bastion_expect(&p, ALICE, "\r\nzz-marker\r\n", T);
	bastion_expect_prompt(&p, ALICE, T);
	bastion_line(&p, ALICE, "pwd", T);
	pts_type(&p, "id\r");
	bastion_expect(&p, ALICE, "uid=", T);
	bastion_expect_prompt(&p, ALICE, T);
	bastion_logout(&p, ALICE, 0, T);
	snprintf(fact, TEXT_CAP, "[\"cwd\",\"%s\"]", name);
	snprintf(xcwd, TEXT_CAP, "\"exec_cwd\":\"%s\"", name);
	ck_assert_msg(count(EV("line"), LINE("pwd"), DEC("allow"), fact) == 1,
		      "pwd was not decided on the directory:\n%s",
		      bastion_log_tail(&bastion, mark));
	ck_assert_msg(count(EV("line"), LINE("id"), DEC("allow"), fact) == 1,
		      "id was not decided on the directory:\n%s",
		      bastion_log_tail(&bastion, mark));
	ck_assert_msg(
	    count(EV("exec"), PATH("/usr/bin/id"), DEC("allow"), xcwd) == 1,
	    "id's exec was not decided in the directory:\n%s",
	    bastion_log_tail(&bastion, mark));
	ck_assert_int_eq(count(EV("exec"), DEC("refused"), NULL, NULL), 0);
	bastion_assert_log_verifies(&bastion);
	free(name);
	free(fact);
	free(xcwd);
	free(prompt);
}
END_TEST

/* ── Past the bound ───────────────────────────────────────────────────── */

/* 8,250-odd bytes deep under bastion.dl, which reads cwd: the directory
 * cannot be named, so no line is decided - each is refused with why and
 * what to do, recorded as refused with no cwd fact; the prompt shows "?";
 * Ctrl-D ends the session.
 * Before: the lines were decided (and allowed) on the last folder the
 * guard could name, one the shell had left, and the prompt showed it. */
START_TEST(test_deepdir_past_the_bound_lines_are_refused_saying_why)
{
	char *name = malloc(NAME_CAP);
	struct pts p;
	int st;

	ck_assert_ptr_nonnull(name);
	deep_make(LONG_LEVELS, name, NAME_CAP);
	ck_assert_uint_gt(strlen(name), 8191);
	login_and_descend(&p, LONG_LEVELS);
	assert_prompt_unnamed(&p);
	pts_type(&p, "pwd\r");
	bastion_expect(&p, ALICE,
		       "maelys-pty: 'pwd' denied: the shell's working "
		       "directory cannot be named (its path is longer than "
		       "8191 bytes), and the policy decides lines by it (cwd)",
		       T);
	bastion_expect(&p, ALICE,
		       "  no line is decided here while it has no name; "
		       "Ctrl-D ends the session",
		       T);
	bastion_expect(&p, ALICE, ":?$ ", T);
	/* and `help` says why it lists nothing */
	pts_type(&p, "help\r");
	bastion_expect(&p, ALICE, "No command of PATH may run here typed alone",
		       T);
	bastion_expect(&p, ALICE,
		       "(the shell's working directory cannot be named (its "
		       "path is longer than 8191 bytes), and the policy "
		       "decides lines by it)",
		       T);
	bastion_expect(&p, ALICE, ":?$ ", T);
	pts_type(&p, "\x04");
	st = pts_wait(&p, T);
	ck_assert_msg(st >= 0, "the session did not end:\n%s", p.out);
	pts_close(&p);
	ck_assert_msg(count(EV("line"), LINE("pwd"), DEC("refused"),
			    "\"error\":\"its path is longer than 8191 "
			    "bytes\"") == 1,
		      "pwd's refusal is not recorded:\n%s",
		      bastion_log_tail(&bastion, mark));
	ck_assert_int_eq(count(EV("line"), LINE("pwd"), "[\"cwd\",", NULL), 0);
	ck_assert_int_eq(count(EV("line"), LINE("pwd"), DEC("allow"), NULL), 0);
	bastion_assert_log_verifies(&bastion);
	free(name);
}
END_TEST

/* 8,250-odd bytes deep under a policy that reads no cwd: `id` is decided
 * (with no cwd fact), its exec is refused - its exec_cwd cannot be named
 * and every exec record holds one - and that record names the program:
 * exec_path, exec_request, and the error that says why.  `cd` goes home,
 * where id runs.
 * Before: the record of the refusal had "exec_path":"" and
 * "exec_request":"" - the log did not say what was refused. */
START_TEST(test_deepdir_refused_exec_record_names_the_program)
{
	struct bastion_tools tools;
	char *name = malloc(NAME_CAP);
	struct pts p;

	ck_assert_ptr_nonnull(name);
	bastion_tools_install(&bastion, &tools);
	bastion_use_attack_policy(&bastion, &tools, true);
	mark = bastion_log_mark(&bastion);
	deep_make(LONG_LEVELS, name, NAME_CAP);
	login_and_descend(&p, LONG_LEVELS);
	assert_prompt_unnamed(&p);
	pts_type(&p, "id\r");
	bastion_expect(&p, ALICE,
		       "maelys-pty: exec of '/usr/bin/id' denied: the request "
		       "could not be checked",
		       T);
	bastion_expect(&p, ALICE,
		       "  its working directory cannot be named (its path is "
		       "longer than 8191 bytes)",
		       T);
	bastion_expect_prompt(&p, ALICE, T);
	bastion_line(&p, ALICE, "cd", T);
	pts_type(&p, "id\r");
	bastion_expect(&p, ALICE, "uid=", T);
	bastion_expect_prompt(&p, ALICE, T);
	bastion_logout(&p, ALICE, 0, T);
	ck_assert_msg(count(EV("exec"), PATH("/usr/bin/id"), DEC("refused"),
			    "\"exec_request\":\"/usr/bin/id\"") == 1,
		      "the refused exec's record does not name id:\n%s",
		      bastion_log_tail(&bastion, mark));
	ck_assert_int_eq(count(EV("exec"), DEC("refused"),
			       "\"error\":\"its working directory cannot be "
			       "named (its path is longer than 8191 bytes)\"",
			       NULL),
			 1);
	ck_assert_int_eq(count(EV("exec"), PATH(""), NULL, NULL), 0);
	ck_assert_int_eq(count(EV("exec"), "\"exec_request\":\"\"", NULL, NULL),
			 0);
	ck_assert_int_eq(
	    count(EV("exec"), PATH("/usr/bin/id"), DEC("allow"), NULL), 1);
	/* the line was decided without a cwd fact: none is made up */
	ck_assert_int_eq(count(EV("line"), LINE("id"), DEC("allow"), NULL), 2);
	ck_assert_int_eq(
	    count(EV("line"), LINE("id"), "[\"cwd\",\"/home/", NULL), 1);
	bastion_assert_log_verifies(&bastion);
	free(name);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("deepdir");

	tcase_set_timeout(tc, 240);
	tcase_add_unchecked_fixture(tc, deepdir_up, deepdir_down);
	tcase_add_checked_fixture(tc, each_setup, each_teardown);
	tcase_add_test(
	    tc, test_deepdir_past_path_max_the_real_directory_is_decided_on);
	tcase_add_test(
	    tc, test_deepdir_past_the_bound_lines_are_refused_saying_why);
	tcase_add_test(tc, test_deepdir_refused_exec_record_names_the_program);
	suite_add_tcase(s, tc);
	return s;
}
