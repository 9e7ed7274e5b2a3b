/* SPDX-License-Identifier: MIT */
/*
 * Issue 9 on the product as it is deployed, the hostile user's items (3, 4,
 * 5, 6 with 7, 8, 9, 10): on the bastion of tests/bastion.h (the tree
 * installed into a prefix, maelys-pty-setup, two unprivileged users whose
 * login shell is the installed guard, a real sshd), each test is one thing
 * mpty-alice does to get past the guard or to harm mpty-bob, done the way
 * she would - through ssh, or as a process of hers outside any session -
 * and asserts what each of them sees and what the audit log holds.  Each
 * says how it failed before its item was fixed.  check_pty_operator.c has
 * the items an administrator sees (1, 2, 6's --check, 11, 12).
 *
 * Most tests run under the attack policy (use_attack_policy): every line
 * is allowed, so that what is shown is the layer of the item alone, and
 * every program but one: `forbidden`, a copy of touch that the policy
 * refuses by its path (a deny-list) although it lies in an exec location,
 * so that only the exec decision stands between alice and it.  The tests'
 * programs (exec_probe, forbidden, a #! script naming forbidden) are
 * installed root's and 0755 into prefix/libexec/maelys-pty-tests, which no
 * test user can change, and the sessions' PATH starts there.  Item 6 keeps
 * bastion.dl, whose ssh it is about.
 *
 * Each test starts from a clean host (each_setup): the default
 * configuration, no process of the test users, none of the files the tests
 * leave in their homes.  Every wait is bounded.  Root only: otherwise SKIP
 * (exit 77).
 */
#define _GNU_SOURCE
#include "runner.h"

#include "bastion.h"
#include "pty_harness.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define T         20000 /* ms for an answer that has no bound of its own */
/* Item 3: how long another user's line or command may take while a
 * guard is stopped (sessions answer in well under 100 ms; the bound is
 * for a loaded machine).  Before, they waited for ever. */
#define PROMPT_MS 2000
#define SSH_MS    5000 /* a whole `ssh host CMD`, connection included */
#define STOPS     4    /* item 3: more stops of alice's guard, from outside */
#define HOPPERS   3    /* item 9: processes that keep forking away */

#define ENDED_NOTE "\"note\":\"the guard ended without ending the session\""

static struct bastion bastion;
static size_t mark; /* the log's size when the running test started */
static double started;
/* the tests' programs (each_setup) and the sessions' PATH */
static struct bastion_tools tools;

/* Files the tests leave in the homes, removed before each test. */
static const char *const leftovers[] = {
    "INJECTED",      "INJECTED-B", "INJECTED-OUT", "M5",         "M8",
    "M10",           "GO",         "RESULT",       "daemon.pid", ".cache",
    "PKCS11-LOADED", ".ssh/config"};

/* The tests' view of the log: the records of a user since the test
 * started (bastion.h). */
static int
count(const char *user, const char *const needles[])
{
	return bastion_log_count_user(&bastion, mark, user, needles);
}

static void
assert_records(const char *user, const struct bastion_rec *recs, size_t nrecs,
	       bool exact)
{
	bastion_assert_records(&bastion, mark, user, recs, nrecs, exact);
}

static void
attacks_up(void)
{
	bastion_up_suite(&bastion, "check_pty_attacks");
}

static void
attacks_down(void)
{
	bastion_down(&bastion);
}

static void
each_setup(void)
{
	static const char *const users[] = {ALICE, BOB};

	started = bastion_now();
	for (size_t i = 0; i < 2; i++) {
		bastion_user_kill(&bastion, users[i]);
		for (size_t k = 0; k < sizeof leftovers / sizeof leftovers[0];
		     k++)
			bastion_home_remove(&bastion, users[i], leftovers[k]);
	}
	bastion_configure(&bastion, NULL, NULL);
	bastion_tools_install(&bastion, &tools);
	mark = bastion_log_mark(&bastion);
}

static void
each_teardown(void)
{
	bastion_user_kill(&bastion, ALICE);
	bastion_user_kill(&bastion, BOB);
	printf("attacks: %s: %.1f s\n", tcase_name(), bastion_now() - started);
	fflush(stdout);
}

static void
use_attack_policy(void)
{
	bastion_use_attack_policy(&bastion, &tools, true);
}

/* Waits (at most ms) until `user` has n records with the needles. */
static bool
wait_records(const char *user, const char *const needles[], int n, int ms)
{
	return bastion_wait_records(&bastion, mark, user, needles, n, ms);
}

/* ── Item 3 ───────────────────────────────────────────────────────────── */

/* Item 3: alice freezes her own guard in the middle of a stream of
 * records - from her other session, then from outside any session at
 * STOPS more points of the stream - and at last kills it; bob's lines and
 * commands are decided and recorded at once all along.  She cannot
 * signal the audit writer of her session, from outside the session or
 * from inside it; her killed guard's writer still ends her session in the
 * log.
 * Before: the guard appended to the log itself, under flock(LOCK_EX);
 * stopped while it held the lock (likely at one of five points of a
 * stream of records), it blocked every other user's next record, and so
 * their sessions, until it was continued.  A killed guard left no
 * session_end record. */
START_TEST(test_attacks_item3_a_stopped_or_killed_guard_stalls_no_other_session)
{
	static const char *const true_exec[] = {
	    EV("exec"), PATH("/usr/bin/true"), DEC("allow"), NULL};
	static const char *const ended[] = {EV("session_end"), ENDED_NOTE,
					    NULL};
	struct pts a1, a2, b;
	pid_t guard, writer, pids[4];
	char text[256];
	double t0;

	use_attack_policy();
	bastion_login(&bastion, &a1, ALICE, T);
	guard = bastion_only_guard(&bastion, ALICE);
	writer = bastion_writer_pid(&bastion, guard);
	ck_assert_msg(writer > 0, "no audit writer under alice's guard %d",
		      (int)guard);
	bastion_login(&bastion, &a2, ALICE, T);
	ck_assert_int_eq(bastion_guard_pids(&bastion, ALICE, pids, 4), 2);
	bastion_login(&bastion, &b, BOB, T);
	/* alice's first guard writes records as fast as it can */
	pts_type(&a1, "exec_probe forkexec 20000 /usr/bin/true\r");
	ck_assert_msg(wait_records(ALICE, true_exec, 20, T),
		      "alice's stream of execs did not start:\n%s", a1.out);
	/* and she stops it from her other session */
	snprintf(text, sizeof text, "kill -STOP %d", (int)guard);
	bastion_line(&a2, ALICE, text, T);
	ck_assert_msg(bastion_wait_state(guard, 'T', PROMPT_MS),
		      "alice's guard %d is not stopped (%c)", (int)guard,
		      bastion_proc_state(guard));
	/* bob: a line, a refused program, a command, each in time */
	t0 = bastion_now();
	pts_type(&b, "id -un\r");
	bastion_expect(&b, BOB, "\r\n" BOB "\r\n", PROMPT_MS);
	bastion_expect_prompt(&b, BOB, PROMPT_MS);
	pts_type(&b, "forbidden x\r");
	bastion_expect(&b, BOB, "deny_exec: the forbidden program", PROMPT_MS);
	bastion_expect_prompt(&b, BOB, PROMPT_MS);
	ck_assert_int_eq(
	    bastion_ssh(&bastion, BOB, "id -un", SSH_MS, NULL, NULL), 0);
	printf("attacks: item 3: bob's line, refusal and command with "
	       "alice's guard stopped: %.2f s\n",
	       bastion_now() - t0);
	/* and from outside the session, at other points of the stream:
	 * continued, it writes a few more records, stopped again */
	for (int k = 0; k < STOPS; k++) {
		int before = count(ALICE, true_exec);

		ck_assert_int_eq(
		    bastion_kill_as(&bastion, ALICE, guard, SIGCONT), 0);
		ck_assert_msg(wait_records(ALICE, true_exec, before + 3 + k, T),
			      "alice's stream did not go on");
		ck_assert_int_eq(
		    bastion_kill_as(&bastion, ALICE, guard, SIGSTOP), 0);
		ck_assert(bastion_wait_state(guard, 'T', PROMPT_MS));
		pts_type(&b, "id -un\r");
		bastion_expect(&b, BOB, "\r\n" BOB "\r\n", PROMPT_MS);
		bastion_expect_prompt(&b, BOB, PROMPT_MS);
	}
	/* her writer is not hers to signal, from outside the session or
	 * from inside it */
	ck_assert_int_eq(bastion_kill_as(&bastion, ALICE, writer, SIGSTOP),
			 EPERM);
	ck_assert_int_eq(bastion_kill_as(&bastion, ALICE, writer, SIGKILL),
			 EPERM);
	snprintf(text, sizeof text, "kill -STOP %d", (int)writer);
	{
		size_t from = a2.len;

		bastion_line(&a2, ALICE, text, T);
		ck_assert_msg(strstr(a2.out + from, "Operation not permitted"),
			      "alice signalled her audit writer:\n%s",
			      a2.out + from);
	}
	ck_assert_int_ne(bastion_proc_state(writer), 'T');
	/* she kills the stopped guard: her session ends, its writer
	 * records the end, and bob goes on */
	snprintf(text, sizeof text, "kill -KILL %d", (int)guard);
	bastion_line(&a2, ALICE, text, T);
	ck_assert_msg(pts_wait(&a1, T) >= 0, "alice's first ssh -tt goes on");
	pts_close(&a1);
	ck_assert_msg(wait_records(ALICE, ended, 1, T),
		      "no session_end with the note:\n%s",
		      bastion_log_tail(&bastion, mark));
	pts_type(&b, "id -un\r");
	bastion_expect(&b, BOB, "\r\n" BOB "\r\n", PROMPT_MS);
	bastion_expect_prompt(&b, BOB, PROMPT_MS);
	bastion_logout(&b, BOB, 0, T);
	bastion_logout(&a2, ALICE, 0, T);
	bastion_assert_log_verifies(&bastion);
	{
		static const struct bastion_rec bobs[] = {
		    {2 + STOPS,
		     {EV("line"), LINE("id -un"), DEC("allow"), NULL}},
		    {1, {EV("command"), LINE("id -un"), DEC("allow"), NULL}},
		    {3 + STOPS,
		     {EV("exec"), PATH("/usr/bin/id"), DEC("allow"), NULL}},
		    {1,
		     {EV("exec"), DEC("deny"), "the forbidden program", NULL}},
		    {2, {EV("session_end"), NULL}},
		};
		static const struct bastion_rec alices[] = {
		    {1, {EV("session_end"), ENDED_NOTE, NULL}},
		    {2, {EV("session_end"), NULL}},
		};

		assert_records(BOB, bobs, sizeof bobs / sizeof bobs[0], false);
		assert_records(ALICE, alices, sizeof alices / sizeof alices[0],
			       false);
	}
}
END_TEST

/* ── Item 4 ───────────────────────────────────────────────────────────── */

/* exec_probe inject's report ("fd N TARGET: MODE RESULT" a line): no
 * descriptor of bash's opened but its terminal (where the words only
 * show); with `sockets`, its channels are there, refused (ENXIO) both
 * ways - the command channel and the status channel at least. */
static void
assert_inject_refused(const char *who, const char *out, bool sockets)
{
	int nsockets = 0, nlines = 0;

	for (const char *l = out; (l = strstr(l, "fd ")) != NULL; l++) {
		char text[600];
		size_t n = strcspn(l, "\r\n");

		if (l != out && l[-1] != '\n')
			continue; /* not at a line's start */
		snprintf(text, sizeof text, "%.*s", (int)n, l);
		nlines++;
		ck_assert_msg(strstr(text, "pipe:[") == NULL,
			      "%s: bash holds a pipe: %s", who, text);
		ck_assert_msg(
		    !strstr(text, " ok") || strstr(text, " /dev/pts/") ||
			strstr(text, " /dev/tty:"),
		    "%s: a descriptor of bash's opened: %s", who, text);
		if (strstr(text, "socket:[") != NULL) {
			nsockets++;
			ck_assert_msg(strstr(text, " ENXIO") != NULL,
				      "%s: a socket of bash's opened: %s", who,
				      text);
		}
	}
	ck_assert_msg(nlines >= 2 * 3, "%s: %d lines in:\n%s", who, nlines,
		      out);
	ck_assert_msg(!sockets || nsockets >= 2 * 2,
		      "%s: %d socket lines in:\n%s", who, nsockets, out);
}

/* Item 4: alice tries to write a line into bash's command stream through
 * every descriptor bash holds, opened again by /proc/PID/fd/N: from a
 * program inside the session, from her other session, and from a process
 * of hers outside any session.  None opens: a socket cannot be reopened
 * that way (ENXIO), and from another session not even its name can be
 * read (each session is a Landlock domain of its own: EACCES); nothing
 * undecided runs.
 * Before: bash's commands came on a pipe, which opens again for writing
 * through /proc/<bash>/fd/10 by any process of the same uid: "touch
 * INJECTED" written there ran in bash, decided by nobody. */
START_TEST(test_attacks_item4_no_process_of_the_user_writes_into_bashs_commands)
{
	struct pts a, b;
	char cmd[256], pid[32], *out, *err;

	use_attack_policy();
	bastion_login(&bastion, &a, ALICE, T);
	/* $$ is bash's pid ($PPID would be the guard's) */
	pts_type(&a, "echo pid-$$\r");
	bastion_expect(&a, ALICE, "\npid-", T); /* the output, not the echo */
	snprintf(pid, sizeof pid, "%ld", strtol(a.out + a.mark, NULL, 10));
	ck_assert_msg(strtol(pid, NULL, 10) > 1, "%s", a.out);
	bastion_expect_prompt(&a, ALICE, T);
	/* from inside the session: a job of bash's */
	{
		size_t from = a.len;

		snprintf(cmd, sizeof cmd, "exec_probe inject %s touch INJECTED",
			 pid);
		bastion_line(&a, ALICE, cmd, T);
		assert_inject_refused("inside", a.out + from, true);
	}
	/* from her other session, while bash waits at its prompt */
	bastion_login(&bastion, &b, ALICE, T);
	{
		size_t from = b.len;

		snprintf(cmd, sizeof cmd,
			 "exec_probe inject %s touch INJECTED-B", pid);
		bastion_line(&b, ALICE, cmd, T);
		/* each session is a Landlock domain of its own, so not even
		 * the descriptors' names can be read from another (EACCES) */
		assert_inject_refused("her other session", b.out + from, false);
	}
	bastion_logout(&b, ALICE, 0, T);
	/* from a process of hers outside any session */
	{
		char *argv[] = {tools.probe, "inject",       pid,
				"touch",     "INJECTED-OUT", NULL};

		ck_assert_int_eq(
		    bastion_run_as(&bastion, ALICE, argv, T, &out, &err), 0);
		assert_inject_refused("outside", out, true);
		free(out);
		free(err);
	}
	/* what was written to her terminal made the prompt show again:
	 * the next answer is read from here on */
	pts_settle(&a, 300);
	a.mark = a.len;
	/* two more prompts for bash to read anything written */
	bastion_line(&a, ALICE, "true", T);
	bastion_line(&a, ALICE, "true", T);
	bastion_logout(&a, ALICE, 0, T);
	ck_assert_msg(
	    access(bastion_home(&bastion, ALICE, "INJECTED"), F_OK) != 0 &&
		access(bastion_home(&bastion, ALICE, "INJECTED-B"), F_OK) !=
		    0 &&
		access(bastion_home(&bastion, ALICE, "INJECTED-OUT"), F_OK) !=
		    0,
	    "an injected line ran");
	ck_assert_int_eq(
	    count(ALICE,
		  (const char *[]){EV("line"), "\"line\":\"touch", NULL}),
	    0);
}
END_TEST

/* ── Item 5 ───────────────────────────────────────────────────────────── */

/* Item 5: alice races the guard through the dynamic loader: a link in
 * her ~/.cache flips between /usr/bin/ls (allowed) and the loader (in
 * every Landlock ruleset) while 300 children exec the link with the
 * forbidden program as argument.  It never runs: every exec through a
 * folder she can write is refused, with that reason, and recorded.
 * Before: the guard decided on ls and the kernel then ran the loader,
 * which mapped and ran the program: 30 times in 300, landlock =
 * required. */
START_TEST(test_attacks_item5_loader_flip_race_never_runs_the_program)
{
	static const char *const refused[] = {EV("exec"), DEC("refused"),
					      "which you can write", NULL};
	char cmd[4 * PATH_MAX], reason[PATH_MAX + 64], *out, *err;
	int st;

	use_attack_policy();
	bastion_home_dir(&bastion, ALICE, ".cache");
	snprintf(cmd, sizeof cmd,
		 "exec_probe flipexec 300 %s /usr/bin/ls %s %s %s",
		 bastion_home(&bastion, ALICE, ".cache/x"), tools.loader,
		 tools.forbidden, bastion_home(&bastion, ALICE, "M5"));
	st = bastion_ssh(&bastion, ALICE, cmd, 120000, &out, &err);
	ck_assert_msg(st == 0 && strstr(out, "flipexec: 300 runs, 0 ran, 300 "
					     "refused, 0 other") != NULL,
		      "status %d: %s\n%.2000s", st, out, err);
	ck_assert_msg(access(bastion_home(&bastion, ALICE, "M5"), F_OK) != 0,
		      "the forbidden program ran through the loader");
	/* the first folder on the way she can change: her home */
	snprintf(reason, sizeof reason,
		 "it goes through the folder %s, which you can write",
		 bastion_user(&bastion, ALICE)->home);
	ck_assert_msg(strstr(err, reason) != NULL, "%.2000s", err);
	free(out);
	free(err);
	ck_assert_int_eq(count(ALICE, refused), 300);
	bastion_assert_log_verifies(&bastion);
}
END_TEST

/* ── Item 6 ───────────────────────────────────────────────────────────── */

/* Item 6 (with item 7): alice writes a shared library in her home and
 * names it as PKCS11Provider in her ~/.ssh/config, with the allowed
 * destination sent to a listener that answers (this bastion's own sshd),
 * then runs `ssh web1.example.net` as bastion.dl allows it: ssh runs,
 * and never loads her library (whose constructor would leave a mark).
 * Her home is not mounted noexec here (mmap of a file on a noexec mount
 * would fail), so what keeps the library out is item 7: the session's ssh
 * reads the shipped configuration, never the user's.
 * EXPECTED TO FAIL until item 7 (the ssh wrapper first in the sessions'
 * PATH, and bastion.dl running ssh only through it) is on this branch:
 * the real ssh follows her configuration, reaches the listener and loads
 * the library.  (When item 7 lands, bastion.c's BASTION_SESSION_PATH must
 * follow the shipped template's PATH, which then starts with the
 * wrapper's folder.) */
START_TEST(test_attacks_item6_ssh_never_loads_a_library_the_user_wrote)
{
	static const char *const ssh_ran[] = {EV("exec"), PATH("/usr/bin/ssh"),
					      DEC("allow"), NULL};
	const struct bastion_user *u = bastion_user(&bastion, ALICE);
	char src[PATH_MAX + 512], so[PATH_MAX], config[PATH_MAX + 256];
	const char *c_file = bastion_run_path(&bastion, "p.c");
	struct pts a;

	snprintf(src, sizeof src,
		 "#include <fcntl.h>\n"
		 "#include <unistd.h>\n"
		 "unsigned long C_GetFunctionList(void **list);\n"
		 "__attribute__((constructor)) static void loaded(void)\n"
		 "{\n"
		 "\tint fd = open(\"%s\", O_WRONLY | O_CREAT, 0644);\n"
		 "\tif (fd >= 0)\n"
		 "\t\tclose(fd);\n"
		 "}\n"
		 "unsigned long C_GetFunctionList(void **list)\n"
		 "{\n"
		 "\t(void)list;\n"
		 "\treturn 6; /* CKR_FUNCTION_FAILED */\n"
		 "}\n",
		 bastion_home(&bastion, ALICE, "PKCS11-LOADED"));
	pts_write_file(c_file, src, 0644);
	snprintf(so, sizeof so, "%s/p.so",
		 bastion_home_dir(&bastion, ALICE, ".cache"));
	{
		char *argv[] = {"cc", "-shared",      "-fPIC", "-o",
				so,   (char *)c_file, NULL};
		char *envp[] = {"PATH=/usr/bin:/bin", NULL};
		char *out, *err;

		ck_assert_msg(pts_run_bounded("/usr/bin/cc", argv, envp, NULL,
					      NULL, 60000, &out, &err) == 0,
			      "cc: %s%s", out, err);
		free(out);
		free(err);
	}
	ck_assert_int_eq(chown(so, u->uid, u->gid), 0); /* she wrote it */
	snprintf(config, sizeof config,
		 "Host web1.example.net\n"
		 "    HostName 127.0.0.1\n"
		 "    Port %d\n"
		 "    PKCS11Provider %s\n"
		 "    BatchMode yes\n"
		 "    StrictHostKeyChecking no\n"
		 "    UserKnownHostsFile /dev/null\n"
		 "    ConnectTimeout 5\n",
		 bastion.port, so);
	bastion_home_file(&bastion, ALICE, ".ssh/config", config, 0600);
	bastion_login(&bastion, &a, ALICE, T);
	bastion_line(&a, ALICE, "ssh web1.example.net", T);
	bastion_logout(&a, ALICE, 0, T);
	ck_assert_msg(count(ALICE, ssh_ran) == 1,
		      "ssh did not run: the test shows nothing:\n%s", a.out);
	ck_assert_msg(
	    access(bastion_home(&bastion, ALICE, "PKCS11-LOADED"), F_OK) != 0,
	    "ssh loaded the PKCS#11 library alice wrote in her home "
	    "(named by her ~/.ssh/config): item 7's ssh wrapper is "
	    "not in the deployment");
}
END_TEST

/* ── Item 8 ───────────────────────────────────────────────────────────── */

/* Item 8: the policy refuses `forbidden` by its path; alice has the
 * dynamic loader run it, then a root's #! script name it as its
 * interpreter.  Both are refused as the program itself, with the line
 * that says how it was reached, and recorded with exec_via; the loader
 * still runs an allowed program.
 * Before: the loader's exec was decided as the loader (allowed), which
 * then mapped the program itself; the #! script was decided as the
 * script, and the kernel started its interpreter within the same execve:
 * both ran the forbidden program (touch: the mark M8). */
START_TEST(
    test_attacks_item8_loader_and_shebang_programs_are_decided_as_themselves)
{
	char cmd[3 * PATH_MAX], want[2 * PATH_MAX], *out, *err;
	int st;

	/* under exec locations (Landlock) the loader runs no program, even
	 * an allowed one: what it maps is beyond the kernel's check */
	use_attack_policy();
	snprintf(cmd, sizeof cmd, "%s /usr/bin/id -un", tools.loader);
	st = bastion_ssh(&bastion, ALICE, cmd, T, &out, &err);
	ck_assert_msg(st == 126 && strstr(err, "the dynamic loader does not "
					       "run programs") != NULL,
		      "%s: %d '%s' %s", cmd, st, out, err);
	free(out);
	free(err);
	/* without locations, the policy decides what the loader runs: the
	 * loader itself is allowed, and runs what is allowed */
	bastion_use_attack_policy(&bastion, &tools, false);
	st = bastion_ssh(&bastion, ALICE, cmd, T, &out, &err);
	ck_assert_msg(st == 0 && strcmp(out, ALICE "\n") == 0, "%s: %d '%s' %s",
		      cmd, st, out, err);
	free(out);
	free(err);
	/* the forbidden program through the loader */
	snprintf(cmd, sizeof cmd, "%s %s %s", tools.loader, tools.forbidden,
		 bastion_home(&bastion, ALICE, "M8"));
	st = bastion_ssh(&bastion, ALICE, cmd, T, &out, &err);
	snprintf(want, sizeof want, "maelys-pty: exec of '%s' denied by policy",
		 tools.forbidden);
	ck_assert_msg(st == 126 && strstr(err, want) &&
			  strstr(err, "\n  run as a program by the dynamic "
				      "loader /") &&
			  strstr(err, "deny_exec: the forbidden program"),
		      "%s: %d\n%s", cmd, st, err);
	free(out);
	free(err);
	/* the forbidden program as the interpreter of a #! script */
	snprintf(cmd, sizeof cmd, "by-shebang %s",
		 bastion_home(&bastion, ALICE, "M8"));
	st = bastion_ssh(&bastion, ALICE, cmd, T, &out, &err);
	snprintf(want, sizeof want, "\n  the interpreter of the #! script %s",
		 tools.shebang);
	ck_assert_msg(st == 126 && strstr(err, want) &&
			  strstr(err, "deny_exec: the forbidden program"),
		      "%s: %d\n%s", cmd, st, err);
	free(out);
	free(err);
	ck_assert_msg(access(bastion_home(&bastion, ALICE, "M8"), F_OK) != 0,
		      "the forbidden program ran");
	{
		char path[PATH_MAX + 32];
		const char *via_loader[] = {EV("exec"), path, DEC("deny"),
					    "\"exec_via\":\"loader\"", NULL};
		const char *via_shebang[] = {EV("exec"), path, DEC("deny"),
					     "\"exec_via\":\"shebang\"", NULL};

		snprintf(path, sizeof path, "\"exec_path\":\"%s\"",
			 tools.forbidden);
		ck_assert_int_eq(count(ALICE, via_loader), 1);
		ck_assert_int_eq(count(ALICE, via_shebang), 1);
	}
	bastion_assert_log_verifies(&bastion);
}
END_TEST

/* ── Item 9 ───────────────────────────────────────────────────────────── */

/* Item 9: alice detaches processes from her session - setsid -f, and a
 * daemon's double fork with hangups ignored - interactively and in a
 * command; when the session ends, no process of hers is left.
 * Before: `setsid -f sleep 300` kept running after exit; and `ssh host
 * 'setsid -f sleep 300'` did not return until sleep ended (it holds the
 * command's output open). */
START_TEST(test_attacks_item9_no_process_outlives_its_session)
{
	struct pts a;
	char left[4096], *out, *err;
	pid_t sleeper, daemon;
	int st, n;

	use_attack_policy();
	bastion_login(&bastion, &a, ALICE, T);
	bastion_line(&a, ALICE, "setsid -f sleep 300", T);
	bastion_line(&a, ALICE, "exec_probe detach daemon.pid", T);
	ck_assert_msg(strstr(a.out, "detach: ok"), "%s", a.out);
	sleeper = bastion_wait_comm(&bastion, ALICE, "sleep", T);
	ck_assert_msg(sleeper > 0, "no sleep of alice's:\n%s", a.out);
	ck_assert(
	    bastion_wait_file(bastion_home(&bastion, ALICE, "daemon.pid"), T));
	{
		char *text =
		    pts_slurp(bastion_home(&bastion, ALICE, "daemon.pid"));

		daemon = (pid_t)strtol(text, NULL, 10);
		free(text);
	}
	ck_assert_msg(daemon > 0 && kill(daemon, 0) == 0, "no daemon");
	bastion_logout(&a, ALICE, 0, T);
	n = bastion_wait_no_process(&bastion, ALICE, 5000, left, sizeof left);
	ck_assert_msg(n == 0, "%d processes of alice outlived her session: %s",
		      n, left);
	/* a command: the client returns, and nothing is left */
	st = bastion_ssh(&bastion, ALICE, "setsid -f sleep 300", T, &out, &err);
	ck_assert_msg(st == 0, "ssh host 'setsid -f sleep 300': %d %s%s", st,
		      out, err);
	free(out);
	free(err);
	st = bastion_ssh(&bastion, ALICE, "exec_probe detach daemon.pid", T,
			 &out, &err);
	ck_assert_msg(st == 0 && strstr(out, "detach: ok"),
		      "ssh host 'exec_probe detach': %d %s%s", st, out, err);
	free(out);
	free(err);
	n = bastion_wait_no_process(&bastion, ALICE, 5000, left, sizeof left);
	ck_assert_msg(n == 0, "%d processes of alice outlived her commands: %s",
		      n, left);
}
END_TEST

/* Item 9, against a process that keeps moving (exec_probe hop: each
 * generation forks the next and exits at once, hangups and terminations
 * ignored): when alice's command ends, nothing of hers is left.
 * Found here: the guard reads every process's parent from /proc, then
 * signals each descendant through a pidfd if its parent is still the one
 * read; the hopper is never where the scan read it (gone, or reparented
 * to the guard), so it is never signalled, and after 250 rounds (8 s)
 * the guard gives up without a word and ends the session; the hopper
 * goes on (until the probe's own 30 s limit).  One such process is
 * caught now and then, so the test starts HOPPERS of them; one that
 * forks once a millisecond is caught.  Before item 9: nothing was ended
 * at all. */
START_TEST(
    test_attacks_item9_a_process_that_keeps_forking_does_not_outlive_its_session)
{
	char left[4096], *out, *err;
	double t0 = bastion_now();
	int st, n;

	use_attack_policy();
	/* several of them: each is caught now and then */
	{
		char cmd[1024] = "";

		for (int k = 0; k < HOPPERS; k++)
			strcat(cmd, k ? "; exec_probe hop daemon.pid"
				      : "exec_probe hop daemon.pid");
		st = bastion_ssh(&bastion, ALICE, cmd, 30000, &out, &err);
	}
	ck_assert_msg(st == 0 && strstr(out, "hop: ok"),
		      "ssh host 'exec_probe hop': %d %s%s", st, out, err);
	free(out);
	free(err);
	printf("attacks: item 9: ssh host 'exec_probe hop' returned in "
	       "%.1f s\n",
	       bastion_now() - t0);
	fflush(stdout);
	n = bastion_wait_no_process(&bastion, ALICE, 5000, left, sizeof left);
	ck_assert_msg(n == 0, "%d processes of alice outlived her command: %s",
		      n, left);
}
END_TEST

/* ── Item 10 ──────────────────────────────────────────────────────────── */

/* Item 10: while the guard asks alice to confirm a line, a process she
 * detached earlier executes a program (decided and run at once), and a
 * signal to her guard ends the session: SIGTERM from alice herself, then
 * (another session) SIGHUP from root.  The ssh client sees the end, and
 * nothing of hers is left.
 * Before: the question ran a poll of its own with signals blocked: the
 * exec waited unanswered until the question was answered, and SIGTERM
 * and SIGHUP were not acted on. */
START_TEST(
    test_attacks_item10_signals_and_execs_are_served_while_a_question_waits)
{
	static const char *const touched[] = {
	    EV("exec"), PATH("/usr/bin/touch"), DEC("allow"), NULL};
	static const int sigs[] = {SIGTERM, SIGHUP};

	use_attack_policy();
	for (size_t i = 0; i < 2; i++) {
		char left[4096], *result;
		struct pts a;
		pid_t guard;
		int st, n;

		(void)unlink(bastion_home(&bastion, ALICE, "GO"));
		(void)unlink(bastion_home(&bastion, ALICE, "M10"));
		bastion_login(&bastion, &a, ALICE, T);
		guard = bastion_only_guard(&bastion, ALICE);
		bastion_line(
		    &a, ALICE,
		    "setsid -f exec_probe waitexec GO RESULT /usr/bin/touch "
		    "M10",
		    T);
		pts_type(&a, "hello\r");
		bastion_expect(&a, ALICE, "Really hello? [y/N] ", T);
		/* the detached process's exec, while the question waits */
		pts_write_file(bastion_home(&bastion, ALICE, "GO"), "", 0644);
		result = pts_slurp(bastion_home(&bastion, ALICE, "RESULT"));
		ck_assert_msg(
		    bastion_wait_file(bastion_home(&bastion, ALICE, "M10"),
				      PROMPT_MS),
		    "the exec waited for the question (%s)", result);
		free(result);
		ck_assert_int_eq(count(ALICE, touched), (int)i + 1);
		/* the signal ends the session at the question */
		if (sigs[i] == SIGTERM)
			ck_assert_int_eq(
			    bastion_kill_as(&bastion, ALICE, guard, SIGTERM),
			    0);
		else
			ck_assert_int_eq(kill(guard, SIGHUP), 0);
		st = pts_wait(&a, 5000);
		ck_assert_msg(st >= 0, "%s did not end the session:\n%s",
			      strsignal(sigs[i]), a.out);
		pts_close(&a);
		n = bastion_wait_no_process(&bastion, ALICE, 5000, left,
					    sizeof left);
		ck_assert_msg(n == 0, "%d processes of alice are left: %s", n,
			      left);
	}
	ck_assert_int_eq(
	    count(ALICE, (const char *[]){EV("session_end"), NULL}), 2);
	bastion_assert_log_verifies(&bastion);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("attacks");

	tcase_set_timeout(tc, 180);
	tcase_add_unchecked_fixture(tc, attacks_up, attacks_down);
	tcase_add_checked_fixture(tc, each_setup, each_teardown);
	tcase_add_test(
	    tc,
	    test_attacks_item3_a_stopped_or_killed_guard_stalls_no_other_session);
	tcase_add_test(
	    tc,
	    test_attacks_item4_no_process_of_the_user_writes_into_bashs_commands);
	tcase_add_test(
	    tc, test_attacks_item5_loader_flip_race_never_runs_the_program);
	tcase_add_test(
	    tc, test_attacks_item6_ssh_never_loads_a_library_the_user_wrote);
	tcase_add_test(
	    tc,
	    test_attacks_item8_loader_and_shebang_programs_are_decided_as_themselves);
	tcase_add_test(tc, test_attacks_item9_no_process_outlives_its_session);
	tcase_add_test(
	    tc,
	    test_attacks_item9_a_process_that_keeps_forking_does_not_outlive_its_session);
	tcase_add_test(
	    tc,
	    test_attacks_item10_signals_and_execs_are_served_while_a_question_waits);
	suite_add_tcase(s, tc);
	return s;
}
