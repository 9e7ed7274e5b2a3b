/* SPDX-License-Identifier: MIT */
/*
 * What a process runs once an exec the guard allowed is over
 * (pty/exec/pty_exec_verify.h), and the kernel's refusal of what the
 * policy never runs (exec_never), with a guard configured as root would
 * configure it (level1.dl, an audit log) and a racer of the user's own
 * (tests/helpers/exec_race.c) flipping what an exec names after the
 * guard's check: the path in memory, the shared working directory,
 * execveat's directory descriptor.  The deployed suite check_pty_execrace.c
 * does the same as an unprivileged user through sshd; this one runs as
 * root, quickly, on every build.
 *
 * The programs the race must not run are copies of tests/helpers/
 * exec_marker.c, which appends its pid to a marker file when it runs:
 *   halt-fake   never run (level1.dl's exec_never: its name holds "halt")
 *   python3.99  an interpreter to level1.dl, refused without a script and
 *               allowed with one: the kernel cannot refuse it, the guard's
 *               check after the exec ends it
 * Each is reached through a folder of the world's: race-a/x leads to
 * /usr/bin/true, race-h/x to halt-fake, race-p/x to python3.99.
 */
#define _GNU_SOURCE
#include "runner.h"

#include "pty_harness.h"
#include "pty_supervise.h"

#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TRIES "300"

static struct pts_world world;
static char tools[400], config[500], log_path[500], key[500], marker[500];

static void
dir_to(const char *name, const char *target)
{
	char dir[600], link[700];

	snprintf(dir, sizeof dir, "%s/%s", tools, name);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	snprintf(link, sizeof link, "%s/x", dir);
	ck_assert_int_eq(symlink(target, link), 0);
}

/* The world, with the shipped level1.dl, or (`all`) a policy that allows
 * every line and every program. */
static void
setup_with(bool all)
{
	char cmd[2000], text[4096], fake[600], policy[600];

	pts_world_make(&world);
	snprintf(tools, sizeof tools, "%s/tools", world.dir);
	ck_assert_int_eq(mkdir(tools, 0755), 0);
	snprintf(cmd, sizeof cmd,
		 "cp '%s' '%s/halt-fake' && cp '%s' '%s/python3.99' && "
		 "cp '%s' '%s/exec_race' && chmod 0755 '%s'/*",
		 pts_build_path("tests/exec_marker"), tools,
		 pts_build_path("tests/exec_marker"), tools,
		 pts_build_path("tests/exec_race"), tools, tools);
	ck_assert_int_eq(system(cmd), 0);
	dir_to("race-a", "/usr/bin/true");
	snprintf(fake, sizeof fake, "%s/halt-fake", tools);
	dir_to("race-h", fake);
	snprintf(fake, sizeof fake, "%s/python3.99", tools);
	dir_to("race-p", fake);
	snprintf(marker, sizeof marker, "%s/MARKER", world.dir);
	snprintf(key, sizeof key, "%s/audit.key", world.dir);
	pts_write_audit_key(key);
	snprintf(log_path, sizeof log_path, "%s/audit.log", world.dir);
	snprintf(config, sizeof config, "%s/maelys-pty.conf", world.dir);
	snprintf(policy, sizeof policy, "%s",
		 pts_source_path("policies/level1.dl"));
	if (all) {
		snprintf(policy, sizeof policy, "%s/all.dl", tools);
		pts_write_file(policy,
			       "allow(C) :- command(C).\n"
			       "allow_exec(P) :- exec_path(P).\n",
			       0644);
	}
	/* landlock = auto, as a guard that could not make the ruleset
	 * would still run the session: the race then shows what it lets
	 * run (a kernel without Landlock skips this suite) */
	snprintf(text, sizeof text,
		 "policy = %s\npath = %s:/usr/bin:/bin\naudit_log = %s\n"
		 "audit_key = %s\nsyslog = off\nlandlock = %s\n"
		 "max_denials = 0\n",
		 policy, tools, log_path, key, "auto");
	pts_write_file(config, text, 0644);
}

static void
setup(void)
{
	setup_with(false);
}

static void
teardown(void)
{
	pts_world_remove(&world);
}

/* What one racer's run said: its counts. */
struct raced {
	long tries, allowed, target, killed, survived, eperm, eacces, enoent,
	    other;
};

static struct raced
race(const char *mode, const char *a, const char *b, bool hold)
{
	char cmd[3000], *out, *err;
	struct raced r;
	const char *line;

	memset(&r, 0, sizeof r);
	(void)unlink(marker);
	if (strcmp(mode, "path") == 0)
		snprintf(cmd, sizeof cmd,
			 "exec_race %s-m %s path " TRIES " %s/%s/x %s/%s/x",
			 hold ? "-h " : "", marker, tools, a, tools, b);
	else
		snprintf(cmd, sizeof cmd,
			 "exec_race %s-m %s %s " TRIES " %s/%s %s/%s x",
			 hold ? "-h " : "", marker, mode, tools, a, tools, b);
	ck_assert_int_eq(pts_run_config(&world, config,
					pts_build_path("pty/maelys-pty"), cmd,
					NULL, &out, &err),
			 0);
	line = strstr(out, "exec_race ");
	ck_assert_msg(line != NULL, "%s%s", out, err);
	ck_assert_int_eq(
	    sscanf(strchr(line, ':') + 1,
		   " %ld tries, %ld allowed, %ld target, %ld killed, %ld "
		   "survived, %ld eperm, %ld eacces, %ld enoent, %ld other",
		   &r.tries, &r.allowed, &r.target, &r.killed, &r.survived,
		   &r.eperm, &r.eacces, &r.enoent, &r.other),
	    9);
	fprintf(stderr, "%s: %s", mode, line);
	free(out);
	free(err);
	return r;
}

/* The pids in the marker file, and how many. */
static size_t
marked(long *pids, size_t max)
{
	char *text = pts_slurp(marker), *p = text, *end;
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

/* The kernel refuses the never-run program, however the race is won: it
 * never runs, and the wins are refusals of the kernel (EACCES), not the
 * guard's. */
static void
never_runs(const char *mode)
{
	long pids[16];
	struct raced r;

	setup();
	r = race(mode, "race-a", "race-h", false);
	ck_assert_msg(r.target == 0 && r.killed == 0 && marked(pids, 16) == 0,
		      "%s: the never-run program ran %ld times", mode,
		      r.target + r.killed);
	ck_assert_int_eq(r.tries, 300);
	/* the race was run and won: the guard saw each side, and the
	 * kernel refused what it was not told (this is not a test that
	 * cannot fail) */
	ck_assert_int_gt(r.allowed, 0);
	ck_assert_int_gt(r.eperm, 0);
	ck_assert_int_gt(r.eacces, 0);
	teardown();
}

START_TEST(test_execverify_never_run_program_never_runs_path)
{
	never_runs("path");
}
END_TEST

START_TEST(test_execverify_never_run_program_never_runs_cwd)
{
	never_runs("cwd");
}
END_TEST

START_TEST(test_execverify_never_run_program_never_runs_dirfd)
{
	never_runs("dirfd");
}
END_TEST

/* A program refused only for some arguments runs when the race is won;
 * the guard sees that the process runs it, not what was allowed, ends it
 * and records it: every run is a killed process and an exec_mismatch
 * record with its pid, and no allowed exec is left standing for it. */
static void
every_win_ended(const char *mode)
{
	char pid[64], *log;
	long pids[512];
	struct raced r;
	size_t n, i;
	int records;

	setup();
	r = race(mode, "race-a", "race-p", true);
	ck_assert_msg(r.target == 0 && r.survived == 0,
		      "%s: %ld runs of python3.99 were not ended", mode,
		      r.target + r.survived);
	ck_assert_int_eq(r.tries, 300);
	log = pts_slurp(log_path);
	records = pts_count_lines(
	    log, (const char *[]){"\"event\":\"exec_mismatch\"",
				  "\"decision\":\"mismatch\"", "/python3.99\"",
				  "\"exec_ran_ino\":", NULL});
	ck_assert_msg(records == r.killed, "%s: %ld killed, %d records", mode,
		      r.killed, records);
	/* each run that got as far as its marker is one of them */
	n = marked(pids, 512);
	ck_assert_uint_le(n, (size_t)r.killed);
	for (i = 0; i < n; i++) {
		snprintf(pid, sizeof pid, "\"pid\":%ld,", pids[i]);
		ck_assert_msg(
		    pts_count_lines(
			log, (const char *[]){"\"event\":\"exec_mismatch\"",
					      pid, NULL}) == 1,
		    "%s: pid %ld ran python3.99 unrecorded", mode, pids[i]);
	}
	free(log);
	/* and the race was won: this is not a test that cannot fail */
	ck_assert_int_gt(r.killed, 0);
	/* the records are the log's like any other: the chain verifies */
	{
		char *out, *err;

		ck_assert_msg(pts_verify_log(config, log_path, &out, &err) == 0,
			      "%s%s", out, err);
		free(out);
		free(err);
	}
	teardown();
}

START_TEST(test_execverify_every_win_is_ended_and_recorded_path)
{
	every_win_ended("path");
}
END_TEST

START_TEST(test_execverify_every_win_is_ended_and_recorded_cwd)
{
	every_win_ended("cwd");
}
END_TEST

START_TEST(test_execverify_every_win_is_ended_and_recorded_dirfd)
{
	every_win_ended("dirfd");
}
END_TEST

/* What programs do without any race ends nobody: an exec that fails
 * after the guard's yes (a script without #!, which the shell then reads
 * itself), a program that executes itself again, an exec from a thread
 * that is not the process's first, execs chained by sh -c and env. */
START_TEST(test_execverify_ordinary_execs_are_left_alone)
{
	char path[600], script[600], cmd[700], text[2048], *out, *err, *log;

	/* every line and every program: what runs is all there is to see */
	setup_with(true);
	snprintf(path, sizeof path, "%s/noshebang", tools);
	pts_write_file(path, "echo from-the-script\n", 0755);
	snprintf(script, sizeof script, "%s/ordinary.sh", tools);
	snprintf(text, sizeof text,
		 "i=0\nwhile [ $i -lt 20 ]; do\n"
		 "  sh -c 'exec sh -c \"exec /usr/bin/true\"'\n"
		 "  env true\n"
		 "  python3 -c 'import threading, os; t = threading.Thread("
		 "target=lambda: os.execv(\"/usr/bin/true\", [\"true\"])); "
		 "t.start(); t.join()'\n"
		 "  %s\n"
		 "  i=$((i + 1))\n"
		 "done\necho end\n",
		 path);
	pts_write_file(script, text, 0755);
	snprintf(cmd, sizeof cmd, "sh %s", script);
	ck_assert_int_eq(pts_run_config(&world, config,
					pts_build_path("pty/maelys-pty"), cmd,
					NULL, &out, &err),
			 0);
	ck_assert_msg(strstr(out, "end\n") != NULL &&
			  strstr(out, "from-the-script") != NULL &&
			  strstr(err, "not the program allowed") == NULL,
		      "%s%s", out, err);
	free(out);
	free(err);
	log = pts_slurp(log_path);
	ck_assert_int_eq(
	    pts_count_lines(log, (const char *[]){"exec_mismatch", NULL}), 0);
	ck_assert_int_gt(
	    pts_count_lines(log,
			    (const char *[]){"\"event\":\"exec\"",
					     "\"decision\":\"allow\"", NULL}),
	    100);
	free(log);
	teardown();
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("execverify");

	pts_require_root("pty:execverify",
			 "the guard's configuration must be root's");
	if (pty_landlock_abi() < 1) {
		fprintf(stderr, "SKIP pty:execverify: this kernel has no "
				"Landlock, which exec_never needs\n");
		exit(77);
	}
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, test_execverify_never_run_program_never_runs_path);
	tcase_add_test(tc, test_execverify_never_run_program_never_runs_cwd);
	tcase_add_test(tc, test_execverify_never_run_program_never_runs_dirfd);
	tcase_add_test(tc,
		       test_execverify_every_win_is_ended_and_recorded_path);
	tcase_add_test(tc, test_execverify_every_win_is_ended_and_recorded_cwd);
	tcase_add_test(tc,
		       test_execverify_every_win_is_ended_and_recorded_dirfd);
	tcase_add_test(tc, test_execverify_ordinary_execs_are_left_alone);
	suite_add_tcase(s, tc);
	return s;
}
