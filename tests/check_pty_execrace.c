/* SPDX-License-Identifier: MIT */
/*
 * Races against the exec supervisor, as deployed (tests/bastion.h: the
 * installed setuid guard, the unprivileged mpty-alice over a real sshd):
 * code of her own changes what an exec names between the guard's check
 * and the kernel's use of it, and the log must never say that a program
 * ran that did not.  Her racer (tests/helpers/exec_race.c, installed
 * root's among the tests' programs, as a program she may run) flips,
 * hundreds of times over,
 *   - path:  the path in the exec's memory, from another thread;
 *   - cwd:   the working directory the threads share, around a relative
 *            exec;
 *   - dirfd: execveat's directory descriptor, with dup2;
 * between a folder whose x leads to /usr/bin/true, which the policy
 * allows, and a folder whose x leads to a program it must not run: a copy
 * of tests/helpers/exec_marker.c, root's, which appends its pid to a
 * marker in her home when it runs.
 *
 *   level1.dl, a deny-list: halt-fake is a program it never runs
 *     (exec_never: its name holds "halt"), and the kernel must refuse it
 *     whatever the race; python3.99 is an interpreter it refuses without a
 *     script and allows with one, which the kernel cannot hold: each run
 *     the race wins must be ended by the guard and recorded as an
 *     exec_mismatch.
 *   bastion.dl, an allow-list with exec locations (with the racer, true
 *     and a fake "sometimes" among them, for this test): halt-fake lies in
 *     no location, so the kernel refuses it; sometimes, which the policy
 *     allows only given --ok, is in one: each win ended and recorded.
 *
 * Before exec_never and the check after the exec, the marker held the
 * pids of every win, the log an "allow" of /usr/bin/true for each, and
 * nothing else.  Root only: otherwise SKIP (exit 77).
 */
#define _GNU_SOURCE
#include "runner.h"

#include "bastion.h"
#include "pty_harness.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TRIES  "300"
#define RUN_MS 300000 /* one racer's run through ssh, on a loaded host */

static struct bastion bastion;
static double started;
static char tools[PATH_MAX];

static void
race_up(void)
{
	bastion_up_suite(&bastion, "check_pty_execrace");
}

static void
race_down(void)
{
	bastion_down(&bastion);
}

/* A folder of the tests' programs whose one entry, x, leads to target
 * (made anew: a previous run's may be there). */
static void
folder_to(const char *name, const char *target)
{
	char dir[PATH_MAX + 64], link[PATH_MAX + 128];

	snprintf(dir, sizeof dir, "%s/%s", tools, name);
	snprintf(link, sizeof link, "%s/x", dir);
	(void)unlink(link);
	ck_assert_msg(mkdir(dir, 0755) == 0 || errno == EEXIST, "%s: %s", dir,
		      strerror(errno));
	ck_assert_int_eq(symlink(target, link), 0);
}

static void
each_setup(void)
{
	const char *marker_src = pts_build_path("tests/exec_marker");

	started = bastion_now();
	bastion_user_kill(&bastion, ALICE);
	bastion_home_remove(&bastion, ALICE, "RACE-MARKER");
	(void)bastion_tool(&bastion, "exec_race",
			   pts_build_path("tests/exec_race"), NULL);
	snprintf(tools, sizeof tools, "%s", bastion_tool_dir(&bastion));
	(void)bastion_tool(&bastion, "halt-fake", marker_src, NULL);
	(void)bastion_tool(&bastion, "python3.99", marker_src, NULL);
	(void)bastion_tool(&bastion, "sometimes", marker_src, NULL);
	folder_to("race-a", "/usr/bin/true");
	folder_to("race-h", "../halt-fake");
	folder_to("race-p", "../python3.99");
	folder_to("race-s", "../sometimes");
}

static void
each_teardown(void)
{
	bastion_user_kill(&bastion, ALICE);
	printf("execrace: %s: %.1f s\n", tcase_name(), bastion_now() - started);
	fflush(stdout);
}

/* The installed level1.dl, PATH the tests' folder first.  landlock =
 * auto: a guard that made no ruleset would still run the session, and the
 * race would show what it lets run; every refusal of the race is one, so
 * max_denials is off. */
static void
use_level1(void)
{
	char policy[PATH_MAX], path[PATH_MAX + 32];

	snprintf(policy, sizeof policy,
		 "%s/share/maelys-pty/policies/level1.dl", bastion.prefix);
	snprintf(path, sizeof path, "%s:/usr/bin:/bin", tools);
	bastion_configure_path(&bastion, policy, path,
			       "landlock = auto\nmax_denials = 0\n");
}

/* The installed bastion.dl, and what the racer needs of it: its line, its
 * exec from the shell and its location; the programs it may start (true),
 * and "sometimes", a location that runs only given --ok. */
static void
use_bastion(void)
{
	char *text = pts_slurp(bastion.policy), *all, path[PATH_MAX + 32];
	const char *policy;
	size_t len = strlen(text) + 4 * PATH_MAX + 2048;

	all = malloc(len);
	ck_assert_ptr_nonnull(all);
	snprintf(all, len,
		 "%s\n"
		 "/* check_pty_execrace.c: the racer and what it runs */\n"
		 "inspect_cmd(\"exec_race\").\n"
		 ".decl racer(path)\n"
		 "racer(\"%s/exec_race\").\n"
		 "exec_ok(P) :- from_shell, exec_path(P), racer(P).\n"
		 "exec_file(F) :- racer(F).\n"
		 "exec_ok(\"/usr/bin/true\") :- exec_parent(Q), racer(Q),\n"
		 "    exec_path(\"/usr/bin/true\").\n"
		 "exec_file(\"/usr/bin/true\").\n"
		 "exec_ok(\"%s/sometimes\") :- exec_parent(Q), racer(Q),\n"
		 "    exec_path(\"%s/sometimes\"), exec_arg(1, \"--ok\").\n"
		 "exec_file(\"%s/sometimes\").\n",
		 text, tools, tools, tools, tools);
	policy = bastion_policy_install(&bastion, "bastion-race.dl", all);
	free(all);
	free(text);
	snprintf(path, sizeof path, "%s:/usr/bin:/bin", tools);
	bastion_configure_path(&bastion, policy, path, "max_denials = 0\n");
}

struct raced {
	long tries, allowed, target, killed, survived, eperm, eacces, enoent,
	    other;
};

/* alice runs the racer over ssh: `mode` between race-a and folder `b`,
 * `hold`: the program waits to be ended. */
static struct raced
race(const char *mode, const char *b, bool hold)
{
	char cmd[3 * PATH_MAX], *out = NULL, *err = NULL;
	const char *marker = bastion_home(&bastion, ALICE, "RACE-MARKER");
	const char *line;
	struct raced r;
	int st;

	memset(&r, 0, sizeof r);
	bastion_home_remove(&bastion, ALICE, "RACE-MARKER");
	if (strcmp(mode, "path") == 0)
		snprintf(cmd, sizeof cmd,
			 "exec_race %s-m %s path " TRIES " %s/race-a/x %s/%s/x",
			 hold ? "-h " : "", marker, tools, tools, b);
	else
		snprintf(cmd, sizeof cmd,
			 "exec_race %s-m %s %s " TRIES " %s/race-a %s/%s x",
			 hold ? "-h " : "", marker, mode, tools, tools, b);
	st = bastion_ssh(&bastion, ALICE, cmd, RUN_MS, &out, &err);
	line = out != NULL ? strstr(out, "exec_race ") : NULL;
	ck_assert_msg(st == 0 && line != NULL, "status %d:\n%s%s", st,
		      out != NULL ? out : "", err != NULL ? err : "");
	ck_assert_int_eq(
	    sscanf(strchr(line, ':') + 1,
		   " %ld tries, %ld allowed, %ld target, %ld killed, %ld "
		   "survived, %ld eperm, %ld eacces, %ld enoent, %ld other",
		   &r.tries, &r.allowed, &r.target, &r.killed, &r.survived,
		   &r.eperm, &r.eacces, &r.enoent, &r.other),
	    9);
	printf("execrace: %s", line);
	free(out);
	free(err);
	return r;
}

/* The pids in alice's marker, and how many. */
static size_t
marked(long *pids, size_t max)
{
	char *text = pts_slurp(bastion_home(&bastion, ALICE, "RACE-MARKER"));
	char *p = text, *end;
	size_t n = 0;

	while (*p != '\0' && n < max) {
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		pids[n++] = v;
		p = end + (*end == '\n');
	}
	free(text);
	return n;
}

/* The program the kernel must refuse never ran, however the race went,
 * and no record says it was allowed; the wins were the kernel's refusals
 * (EACCES), so the race was run and won. */
static void
never_runs(const char *mode)
{
	char path[PATH_MAX + 32];
	size_t since = bastion_log_mark(&bastion);
	long pids[16];
	struct raced r;

	r = race(mode, "race-h", false);
	ck_assert_msg(r.target == 0 && r.killed == 0 && marked(pids, 16) == 0,
		      "%s: halt-fake ran %ld times", mode, r.target + r.killed);
	ck_assert_int_eq(r.tries, 300);
	ck_assert_int_gt(r.allowed, 0);
	ck_assert_int_gt(r.eacces, 0);
	snprintf(path, sizeof path, "%s/halt-fake\"", tools);
	ck_assert_int_eq(
	    bastion_log_count_user(
		&bastion, since, ALICE,
		(const char *[]){EV("exec"), DEC("allow"), path, NULL}),
	    0);
	bastion_assert_log_verifies(&bastion);
}

/* Each run of the program the race wins is ended by the guard and
 * recorded as an exec_mismatch of its pid; none outlives the check. */
static void
every_win_ended(const char *mode, const char *folder, const char *name)
{
	char ran[PATH_MAX + 32], pid[64];
	size_t since = bastion_log_mark(&bastion), n, i;
	long pids[512];
	struct raced r;
	int records;

	r = race(mode, folder, true);
	ck_assert_msg(r.target == 0 && r.survived == 0,
		      "%s: %ld runs of %s were not ended", mode,
		      r.target + r.survived, name);
	ck_assert_int_eq(r.tries, 300);
	snprintf(ran, sizeof ran, "%s/%s\"", tools, name);
	records = bastion_log_count_user(
	    &bastion, since, ALICE,
	    (const char *[]){EV("exec_mismatch"), DEC("mismatch"),
			     PATH("/usr/bin/true"), ran, NULL});
	ck_assert_msg(records == r.killed, "%s: %ld ended, %d records", mode,
		      r.killed, records);
	n = marked(pids, 512);
	ck_assert_uint_le(n, (size_t)r.killed);
	for (i = 0; i < n; i++) {
		snprintf(pid, sizeof pid, "\"pid\":%ld,", pids[i]);
		ck_assert_msg(
		    bastion_log_count_user(
			&bastion, since, ALICE,
			(const char *[]){EV("exec_mismatch"), pid, NULL}) == 1,
		    "%s: pid %ld ran %s unrecorded", mode, pids[i], name);
	}
	/* the race was won: this is not a test that cannot fail */
	ck_assert_int_gt(r.killed, 0);
	bastion_assert_log_verifies(&bastion);
}

START_TEST(test_execrace_level1_never_run_program_never_runs)
{
	use_level1();
	never_runs("path");
	never_runs("cwd");
	never_runs("dirfd");
}
END_TEST

START_TEST(test_execrace_level1_interpreter_won_by_a_race_is_ended)
{
	use_level1();
	every_win_ended("path", "race-p", "python3.99");
	every_win_ended("cwd", "race-p", "python3.99");
	every_win_ended("dirfd", "race-p", "python3.99");
}
END_TEST

START_TEST(test_execrace_bastion_program_outside_locations_never_runs)
{
	use_bastion();
	never_runs("path");
	never_runs("cwd");
	never_runs("dirfd");
}
END_TEST

START_TEST(test_execrace_bastion_program_refused_for_its_arguments_is_ended)
{
	use_bastion();
	every_win_ended("path", "race-s", "sometimes");
	every_win_ended("cwd", "race-s", "sometimes");
	every_win_ended("dirfd", "race-s", "sometimes");
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("execrace");

	tcase_set_timeout(tc, 900);
	tcase_add_unchecked_fixture(tc, race_up, race_down);
	tcase_add_checked_fixture(tc, each_setup, each_teardown);
	tcase_add_test(tc, test_execrace_level1_never_run_program_never_runs);
	tcase_add_test(tc,
		       test_execrace_level1_interpreter_won_by_a_race_is_ended);
	tcase_add_test(
	    tc, test_execrace_bastion_program_outside_locations_never_runs);
	tcase_add_test(
	    tc,
	    test_execrace_bastion_program_refused_for_its_arguments_is_ended);
	suite_add_tcase(s, tc);
	return s;
}
