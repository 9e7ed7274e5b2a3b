/* SPDX-License-Identifier: MIT */
/*
 * Issue 9 on the product as it is deployed, the items an administrator and
 * the users see of the deployment itself (1, 2, 6's --check, 11, 12): on
 * the bastion of tests/bastion.h (the tree installed into a prefix,
 * maelys-pty-setup, two unprivileged users whose login shell is the
 * installed guard, a real sshd, the shipped bastion.dl), sessions of both
 * users at once, the audit log's owner and modes against what each user
 * can open, `maelys-pty --check` on the deployed configuration and on
 * broken ones, and the descriptors a session's programs get.  Each test
 * says how it failed before its item was fixed.  check_pty_attacks.c has
 * the hostile user's items.
 *
 * Each test starts from the default configuration, no process of the test
 * users, and the log folder, log and key as maelys-pty-setup made them
 * (tests break them on purpose).  Every wait is bounded.  Root only:
 * otherwise SKIP (exit 77).
 */
#define _GNU_SOURCE
#include "runner.h"

#include "bastion.h"
#include "pty_harness.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define T 20000 /* ms for an answer that has no bound of its own */

static struct bastion bastion;
static size_t mark; /* the log's size when the running test started */
static double started;

/* The records of a user since the test started (bastion.h). */
static void
assert_records(const char *user, const struct bastion_rec *recs, size_t nrecs,
	       bool exact)
{
	bastion_assert_records(&bastion, mark, user, recs, nrecs, exact);
}

static void
operator_up(void)
{
	bastion_up_suite(&bastion, "check_pty_operator");
}

static void
operator_down(void)
{
	bastion_down(&bastion);
}

static void
each_setup(void)
{
	started = bastion_now();
	bastion_user_kill(&bastion, ALICE);
	bastion_user_kill(&bastion, BOB);
	/* as maelys-pty-setup made them */
	ck_assert_int_eq(chmod(bastion.key, 0600), 0);
	ck_assert_int_eq(chmod(bastion.logdir, 02750), 0);
	ck_assert(chmod(bastion.log, 0600) == 0 || errno == ENOENT);
	bastion_configure(&bastion, NULL, NULL);
	mark = bastion_log_mark(&bastion);
}

static void
each_teardown(void)
{
	bastion_user_kill(&bastion, ALICE);
	bastion_user_kill(&bastion, BOB);
	printf("operator: %s: %.1f s\n", tcase_name(), bastion_now() - started);
	fflush(stdout);
}

static int check(const char *user, char **text);

/* ── Item 1 (and sessions at once) ────────────────────────────────────── */

/* Item 1: the interactive session of an unprivileged user starts when an
 * audit log is configured - here four at once, two of each user, their
 * lines interleaved, every decision recorded, the log verifying.
 * Before: no interactive session of a user started with an audit log
 * ("an exec of process N denied: the request could not be checked ...
 * its memory cannot be read (Permission denied)", then "the shell
 * /bin/bash exited before the session started"): no prompt.  (And with
 * item 2 unfixed, the second user's sessions could not open the log.) */
START_TEST(
    test_operator_item1_two_sessions_of_each_user_at_once_decide_every_line)
{
	static const char *const who[4] = {ALICE, BOB, ALICE, BOB};
	static const struct bastion_rec recs[] = {
	    {2, {EV("session_start"), MODE("interactive"), NULL}},
	    {2, {EV("exec"), PATH("/usr/bin/bash"), DEC("allow"), NULL}},
	    {2, {EV("line"), LINE("id -un"), DEC("allow"), NULL}},
	    {2, {EV("exec"), PATH("/usr/bin/id"), DEC("allow"), NULL}},
	    {2, {EV("line"), LINE("uname"), DEC("allow"), NULL}},
	    {2, {EV("exec"), PATH("/usr/bin/uname"), DEC("allow"), NULL}},
	    {2, {EV("line"), LINE("python3"), DEC("deny"), NULL}},
	    {2, {EV("line"), "\"line\":\"exit ", DEC("allow"), NULL}},
	    {2, {EV("session_end"), NULL}},
	};
	struct pts s[4];

	/* all four log in before anyone types */
	for (int i = 0; i < 4; i++)
		bastion_ssh_tt(&bastion, &s[i], who[i]);
	for (int i = 0; i < 4; i++)
		bastion_expect_prompt(&s[i], who[i], T);
	/* each line typed in all four sessions before any answer is read */
	for (int i = 0; i < 4; i++)
		pts_type(&s[i], "id -un\r");
	for (int i = 0; i < 4; i++) {
		char want[64];

		snprintf(want, sizeof want, "\r\n%s\r\n", who[i]);
		bastion_expect(&s[i], who[i], want, T);
		bastion_expect_prompt(&s[i], who[i], T);
	}
	for (int i = 0; i < 4; i++)
		pts_type(&s[i], "uname\r");
	for (int i = 0; i < 4; i++) {
		bastion_expect(&s[i], who[i], "\r\nLinux\r\n", T);
		bastion_expect_prompt(&s[i], who[i], T);
	}
	for (int i = 0; i < 4; i++)
		pts_type(&s[i], "python3\r");
	for (int i = 0; i < 4; i++) {
		bastion_expect(&s[i], who[i],
			       "maelys-pty: 'python3' denied by policy", T);
		bastion_expect_prompt(&s[i], who[i], T);
	}
	for (int i = 0; i < 4; i++)
		bastion_logout(&s[i], who[i], 4 + i, T);
	bastion_assert_log_verifies(&bastion);
	assert_records(ALICE, recs, sizeof recs / sizeof recs[0], true);
	assert_records(BOB, recs, sizeof recs / sizeof recs[0], true);
}
END_TEST

/* ── Item 2 ───────────────────────────────────────────────────────────── */

/* Item 2: the log that the sessions create belongs to the audit account
 * (the owner of the setuid guard), mode 0600, with none of the users'
 * groups; no user can open it, the key or the log folder, for reading or
 * writing, nor read the log when an administrator makes it 0640 in a 0755
 * folder (modes --check accepts); the other user's sessions, and later
 * ones, still write it.
 * Before: the first user's guard created the log, owned by that user,
 * mode 0640; every other user then got "Permission denied" and no
 * session. */
START_TEST(test_operator_item2_log_is_the_audit_accounts_and_no_user_opens_it)
{
	static const char *const users[] = {ALICE, BOB};
	static const struct bastion_rec recs[] = {
	    {1, {EV("session_start"), MODE("command"), NULL}},
	    {1, {EV("command"), LINE("id -un"), DEC("allow"), NULL}},
	    {1, {EV("exec"), PATH("/usr/bin/bash"), DEC("allow"), NULL}},
	    {1, {EV("exec"), PATH("/usr/bin/id"), DEC("allow"), NULL}},
	    {1, {EV("session_end"), NULL}},
	};
	struct stat guard, log;
	char inlog[PATH_MAX];

	ck_assert_int_eq(stat(bastion.guard, &guard), 0);
	ck_assert_msg((guard.st_mode & S_ISUID) && guard.st_uid != 0,
		      "%s is not setuid to an account", bastion.guard);
	/* a fresh log: alice's session is the first to write it.  A log
	 * that starts afresh needs a fresh state too (the state would go on
	 * from the old log's last record): maelys-pty-setup makes it, as for
	 * a new host */
	ck_assert(unlink(bastion.log) == 0 || errno == ENOENT);
	{
		char cmd[4 * PATH_MAX], pub[PATH_MAX];

		snprintf(pub, sizeof pub, "%.*s/audit.pub",
			 (int)(strrchr(bastion.key, '/') - bastion.key),
			 bastion.key);
		ck_assert_int_eq(unlink(bastion.key), 0);
		ck_assert_int_eq(unlink(pub), 0);
		snprintf(cmd, sizeof cmd, "sh '%s' '%s' '%s' '%s' >/dev/null",
			 bastion.setup, bastion.guard, bastion.logdir,
			 bastion.key);
		ck_assert_int_eq(system(cmd), 0);
	}
	mark = 0;
	for (size_t i = 0; i < 2; i++) {
		char *out, want[64];
		int st =
		    bastion_ssh(&bastion, users[i], "id -un", T, &out, NULL);

		snprintf(want, sizeof want, "%s\n", users[i]);
		ck_assert_msg(st == 0 && strcmp(out, want) == 0,
			      "%s: ssh host 'id -un': %d '%s'", users[i], st,
			      out);
		free(out);
	}
	ck_assert_int_eq(lstat(bastion.log, &log), 0);
	ck_assert_msg(S_ISREG(log.st_mode) && log.st_uid == guard.st_uid &&
			  (log.st_mode & 07777) == 0600,
		      "%s: owner %u, mode %04o; wanted the audit account %u, "
		      "0600",
		      bastion.log, (unsigned)log.st_uid,
		      (unsigned)(log.st_mode & 07777), (unsigned)guard.st_uid);
	/* The modes maelys-pty(1) and --check allow: the log 0640 (--check
	 * tells an administrator to chmod it so), its folder 0755 (writable
	 * by neither group nor others).  Where --check accepts them, still
	 * no user reads the log. */
	ck_assert_int_eq(chmod(bastion.log, 0640), 0);
	ck_assert_int_eq(chmod(bastion.logdir, 0755), 0);
	{
		char *text;
		bool accepted = check(NULL, &text) == 0;

		for (size_t i = 0; accepted && i < 2; i++) {
			int e = bastion_open_as(&bastion, users[i], bastion.log,
						O_RDONLY);

			ck_assert_msg(e == EACCES,
				      "%s read the audit log, 0640 in a 0755 "
				      "folder, which --check accepts: the "
				      "log's group is %u, the group of the "
				      "user whose session created it (the "
				      "audit writer keeps the user's gid and "
				      "groups)",
				      users[i], (unsigned)log.st_gid);
		}
		free(text);
	}
	ck_assert_int_eq(chmod(bastion.log, 0600), 0);
	ck_assert_int_eq(chmod(bastion.logdir, 02750), 0);
	snprintf(inlog, sizeof inlog, "%s/planted", bastion.logdir);
	for (size_t i = 0; i < 2; i++) {
		const struct bastion_user *u = bastion_user(&bastion, users[i]);
		static const struct {
			int flags;
			const char *what;
		} modes[] = {{O_RDONLY, "reading"},
			     {O_WRONLY | O_APPEND, "appending"},
			     {O_RDWR, "reading and writing"},
			     {O_WRONLY | O_TRUNC, "truncating"}};

		/* nor the group: a log of the user's group is theirs to
		 * read once made 0640 (above) */
		for (int g = 0; g < u->ngroups; g++)
			ck_assert_msg(log.st_gid != u->groups[g],
				      "%s: its group %u is one of %s's groups",
				      bastion.log, (unsigned)log.st_gid,
				      users[i]);
		for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++) {
			int e = bastion_open_as(&bastion, users[i], bastion.log,
						modes[k].flags);

			ck_assert_msg(e == EACCES,
				      "%s opened the log for %s (%s)", users[i],
				      modes[k].what, strerror(e));
		}
		ck_assert_int_eq(
		    bastion_open_as(&bastion, users[i], bastion.key, O_RDONLY),
		    EACCES);
		ck_assert_int_eq(bastion_open_as(&bastion, users[i],
						 bastion.logdir,
						 O_RDONLY | O_DIRECTORY),
				 EACCES);
		ck_assert_int_eq(bastion_open_as(&bastion, users[i], inlog,
						 O_WRONLY | O_CREAT),
				 EACCES);
	}
	/* a third session still writes the log */
	ck_assert_int_eq(bastion_ssh(&bastion, BOB, "id -un", T, NULL, NULL),
			 0);
	bastion_assert_log_verifies(&bastion);
	assert_records(ALICE, recs, sizeof recs / sizeof recs[0], true);
	{
		struct bastion_rec twice[sizeof recs / sizeof recs[0]];

		memcpy(twice, recs, sizeof recs);
		for (size_t k = 0; k < sizeof recs / sizeof recs[0]; k++)
			twice[k].n = 2;
		assert_records(BOB, twice, sizeof recs / sizeof recs[0], true);
	}
}
END_TEST

/* ── Item 6 ───────────────────────────────────────────────────────────── */

/* Item 6, the administrator's lever: `maelys-pty --check` on the deployed
 * configuration names each mount that holds a place users write (the
 * test users' homes, /tmp, /var/tmp, /dev/shm) without noexec, and Yama
 * when it is absent or ptrace_scope is 0, as warnings: a session can
 * still start.
 * Before: --check said ok and nothing else. */
START_TEST(test_operator_item6_check_warns_of_places_users_write_without_noexec)
{
	char *argv[] = {"maelys-pty", "--check", NULL};
	const char *places[] = {bastion_user(&bastion, ALICE)->home,
				bastion_user(&bastion, BOB)->home, "/tmp",
				"/var/tmp", "/dev/shm"};
	char *out, *err, *yama;
	int st, warned = 0;

	st = bastion_guard_run(&bastion, argv, T, &out, &err);
	ck_assert_msg(st == 0 && strstr(out, "a session can start") != NULL,
		      "--check: %d\n%s%s", st, out, err);
	for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
		struct statvfs v;
		char want[PATH_MAX + 8];
		const char *l;
		bool found = false;

		if (statvfs(places[i], &v) != 0 || (v.f_flag & ST_NOEXEC))
			continue;
		snprintf(want, sizeof want, " %s,", places[i]);
		for (l = err; (l = strstr(l, "maelys-pty: warning: users "
					     "write in ")) != NULL;
		     l++) {
			size_t n = strcspn(l, "\n");
			char text[2048];

			snprintf(text, sizeof text, "%.*s", (int)n, l);
			found = found || (strstr(text, want) != NULL &&
					  strstr(text, "which has no noexec"));
		}
		ck_assert_msg(found, "no noexec warning names %s:\n%s",
			      places[i], err);
		warned++;
	}
	if (warned == 0)
		printf("attacks: item 6: every place users write is noexec "
		       "here; the warning is not exercised\n");
	yama = bastion_proc_read("/proc/sys/kernel/yama/ptrace_scope");
	if (access("/proc/sys/kernel/yama/ptrace_scope", F_OK) != 0)
		ck_assert_msg(strstr(err, "maelys-pty: warning: no Yama"), "%s",
			      err);
	else if (yama[0] == '0')
		ck_assert_msg(strstr(err, "maelys-pty: warning: "
					  "kernel.yama.ptrace_scope = 0"),
			      "%s", err);
	free(yama);
	ck_assert_msg(strstr(err, "maelys-pty: error") == NULL, "%s", err);
	free(out);
	free(err);
}
END_TEST

/* ── Item 11 ──────────────────────────────────────────────────────────── */

/* The caller of the guard in item 11: descriptors 3, 7 and 5000 left open
 * (not close-on-exec), then alice's identity and home. */
static int
caller_leaves_descriptors(void *arg)
{
	const struct bastion_user *u = arg;
	struct rlimit rl;
	int fd = open("/etc/hostname", O_RDONLY);

	if (fd < 0 || getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return -1;
	if (rl.rlim_max < 8192)
		rl.rlim_max = 8192;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0 || dup2(fd, 3) != 3 ||
	    dup2(fd, 7) != 7 || dup2(fd, 5000) != 5000)
		return -1;
	if (setgroups((size_t)u->ngroups, u->groups) != 0 ||
	    setgid(u->gid) != 0 || setuid(u->uid) != 0)
		return -1;
	return chdir(u->home);
}

/* Item 11: a program of the session has descriptors 0, 1 and 2 and its
 * own, nothing of whoever started the guard: over ssh -tt, in `ssh host
 * CMD`, and when the guard is started by a caller that leaves descriptors
 * open (3, 7, 5000).  ls lists /proc/self/fd with its own descriptor of
 * that folder, 3.
 * Before: the -c child closed no descriptor, so the caller's reached
 * bash and every program (ls listed 0 1 2 3 4 5000 7). */
START_TEST(test_operator_item11_no_descriptor_of_the_caller_reaches_the_session)
{
	struct pts a;
	char *out, *err, henv[300], uenv[64], lenv[64];
	const struct bastion_user *u = bastion_user(&bastion, ALICE);
	int st;

	bastion_login(&bastion, &a, ALICE, T);
	pts_type(&a, "ls /proc/self/fd\r");
	bastion_expect(&a, ALICE, "\r\n0  1  2  3\r\n", T);
	bastion_expect_prompt(&a, ALICE, T);
	bastion_logout(&a, ALICE, 0, T);
	st = bastion_ssh(&bastion, ALICE, "ls /proc/self/fd", T, &out, &err);
	ck_assert_msg(st == 0 && strcmp(out, "0\n1\n2\n3\n") == 0,
		      "ssh host 'ls /proc/self/fd': %d '%s' %s", st, out, err);
	free(out);
	free(err);
	snprintf(henv, sizeof henv, "HOME=%s", u->home);
	snprintf(uenv, sizeof uenv, "USER=%s", u->name);
	snprintf(lenv, sizeof lenv, "LOGNAME=%s", u->name);
	{
		char *argv[] = {"maelys-pty", "-c", "ls /proc/self/fd", NULL};
		char *envp[] = {henv,           uenv,
				lenv,           "PATH=/usr/bin:/bin",
				"LANG=C.UTF-8", NULL};

		st = pts_run_bounded(bastion.guard, argv, envp,
				     caller_leaves_descriptors, (void *)u, T,
				     &out, &err);
	}
	ck_assert_msg(st == 0 && strcmp(out, "0\n1\n2\n3\n") == 0,
		      "maelys-pty -c 'ls /proc/self/fd' with 3, 7 and 5000 "
		      "open: %d '%s' %s",
		      st, out, err);
	free(out);
	free(err);
}
END_TEST

/* ── Item 12 ──────────────────────────────────────────────────────────── */

/* `maelys-pty --check` as root (with more arguments): its status, and
 * both streams in out (the caller frees). */
static int
check(const char *user, char **text)
{
	char *argv[] = {"maelys-pty", "--check", NULL, NULL, NULL};
	char *out, *err;
	int st;

	if (user != NULL) {
		argv[2] = "--user";
		argv[3] = (char *)user;
	}
	st = bastion_guard_run(&bastion, argv, T, &out, &err);
	*text = malloc(strlen(out) + strlen(err) + 1);
	ck_assert_ptr_nonnull(*text);
	strcpy(*text, err);
	strcat(*text, out);
	free(out);
	free(err);
	return st;
}

/* --check fails naming `problem` (an error line holding it), and alice's
 * session cannot start either, when `session_fails`. */
static void
assert_check_fails(const char *what, const char *problem, bool session_fails)
{
	char *text;
	int st = check(ALICE, &text);
	const char *l = strstr(text, "maelys-pty: error: ");

	ck_assert_msg(st == 1 && strstr(text, "no session can start") && l &&
			  strstr(l, problem),
		      "%s: --check %d, no error naming '%s':\n%s", what, st,
		      problem, text);
	free(text);
	if (session_fails) {
		char *out, *err;

		st = bastion_ssh(&bastion, ALICE, "id -un", T, &out, &err);
		ck_assert_msg(st != 0 && out[0] == '\0',
			      "%s: alice's session ran: %d %s%s", what, st, out,
			      err);
		free(out);
		free(err);
	}
}

/* Item 12: `maelys-pty --check` on the deployed configuration says a
 * session can start (for root, and for alice with --user) and one does;
 * each way of breaking it - a policy that does not let the shell start,
 * landlock = required with no exec location, a key that others may read,
 * a log folder its group may write - makes it fail with a line that names
 * the problem; with the first three, no session starts either (with the
 * fourth one does: --check is the stricter).
 * Before: --check said ok for each of them. */
START_TEST(
    test_operator_item12_check_passes_the_deployment_and_names_each_break)
{
	char *text, problem[PATH_MAX + 64];
	const char *policy;

	ck_assert_msg(check(NULL, &text) == 0 &&
			  strstr(text, "maelys-pty: check: ok") &&
			  strstr(text, "a session can start") &&
			  !strstr(text, "maelys-pty: error"),
		      "%s", text);
	free(text);
	ck_assert_msg(check(ALICE, &text) == 0 &&
			  strstr(text, "a session can start"),
		      "%s", text);
	free(text);
	ck_assert_int_eq(bastion_ssh(&bastion, ALICE, "id -un", T, NULL, NULL),
			 0);
	/* a policy that does not let the shell start */
	policy = bastion_policy_install(
	    &bastion, "no-shell.dl",
	    "allow(C) :- command(C).\n"
	    "allow_exec(P) :- exec_path(P), P != \"/usr/bin/bash\".\n"
	    "exec_dir(\"/usr/bin\").\n");
	bastion_configure(&bastion, policy, NULL);
	snprintf(problem, sizeof problem, "%s: interactive sessions of %s",
		 policy, ALICE);
	assert_check_fails("a policy refusing the shell", problem, true);
	/* landlock = required, and no exec location */
	policy = bastion_policy_install(&bastion, "no-locations.dl",
					"allow(C) :- command(C).\n"
					"allow_exec(P) :- exec_path(P).\n");
	bastion_configure(&bastion, policy, NULL);
	assert_check_fails("no exec locations",
			   "landlock = required, and the policy names no "
			   "exec_dir or exec_file",
			   true);
	bastion_configure(&bastion, NULL, NULL);
	/* the state made readable by others */
	ck_assert_int_eq(chmod(bastion.key, 0444), 0);
	snprintf(problem, sizeof problem,
		 "audit_key = %s gives its group or others access",
		 bastion.key);
	assert_check_fails("a readable key", problem, true);
	ck_assert_int_eq(chmod(bastion.key, 0600), 0);
	/* the log folder writable by its group */
	ck_assert_int_eq(chmod(bastion.logdir, 0770), 0);
	snprintf(problem, sizeof problem, "its folder %s is writable by group",
		 bastion.logdir);
	assert_check_fails("a folder its group writes", problem, false);
	ck_assert_int_eq(chmod(bastion.logdir, 02750), 0);
	/* and mended, it passes again */
	ck_assert_int_eq(check(ALICE, &text), 0);
	free(text);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("operator");

	tcase_set_timeout(tc, 120);
	tcase_add_unchecked_fixture(tc, operator_up, operator_down);
	tcase_add_checked_fixture(tc, each_setup, each_teardown);
	tcase_add_test(
	    tc,
	    test_operator_item1_two_sessions_of_each_user_at_once_decide_every_line);
	tcase_add_test(
	    tc,
	    test_operator_item2_log_is_the_audit_accounts_and_no_user_opens_it);
	tcase_add_test(
	    tc,
	    test_operator_item6_check_warns_of_places_users_write_without_noexec);
	tcase_add_test(
	    tc,
	    test_operator_item11_no_descriptor_of_the_caller_reaches_the_session);
	tcase_add_test(
	    tc,
	    test_operator_item12_check_passes_the_deployment_and_names_each_break);
	suite_add_tcase(s, tc);
	return s;
}
