/* SPDX-License-Identifier: MIT */
/*
 * Red-team findings against the deployed product (tests/bastion.h), each a
 * test that FAILS while the promise it names is broken.  The setup is
 * check_pty_attacks.c's: the tree installed into a prefix, maelys-pty-setup,
 * mpty-alice and mpty-bob with the installed guard as login shell, a real
 * sshd; alice attacks through ssh.
 *
 * The attack policy (as in check_pty_attacks.c): every line and every
 * program but `forbidden` (a root-owned copy of touch in the tests' tool
 * folder), which the policy refuses by its path - the deny-list the
 * README says holds "however it is started".
 *
 *   1. glibc 2.36's loader knows --glibc-hwcaps-prepend VALUE; the guard's
 *      table of loader options has a --glibc-hwcaps-prefix instead, takes
 *      --glibc-hwcaps-prepend for an unknown option (after which, it
 *      believes, the loader only prints its usage and exits), and so
 *      decides only the loader: the loader then maps and runs the program
 *      named after the option.  A refused program runs; under exec
 *      locations (Landlock, where "the loader runs no program at all") a
 *      program the user copied into her home runs too.
 *   2. level1.dl (the default policy) says a shell never runs "commands
 *      read from the terminal": it takes any operand for a script, and
 *      `env bash /dev/tty` is a bash reading the terminal, unlocked
 *      (redirections, eval, exec), whose lines nobody decides.
 *   3. The audit log is the host's, appended by the audit account: one
 *      user's own execs fill its file system (records of about 60 KiB,
 *      which no quota of hers limits), and from then on every other
 *      user's session refuses every line and program, and no session
 *      starts - "nothing one user does stalls or ends another's session".
 *   4. The filter refuses open_tree but not open_tree_attr (Linux 6.15):
 *      a detached mount of the refused program itself, executed through
 *      its descriptor, is decided and recorded as exec_path "/", and runs.
 *   5. A user's umask reaches the audit writer her guard forks: under
 *      `umask 777` the log it makes after a rotation was mode 0000, and no
 *      other session's writer could open it.
 *   6. Item 3's reserve was each session's: six sessions of one user, one
 *      after the other, drained it.
 *   7. A file size limit of the user's reaches her writer: after a
 *      writer's crash, the state it rewrites first was cut short, and no
 *      writer could continue the log.
 *
 * Root only: otherwise SKIP (exit 77).
 */
#define _GNU_SOURCE
#include "runner.h"

#include "bastion.h"
#include "pty_audit.h"
#include "pty_harness.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define T 20000

static struct bastion bastion;
static struct bastion_tools tools; /* each_setup */

static const char *const leftovers[] = {"RT-M1",  "RT-M2",    "RT-M3",
					"RT-TTY", "rt-touch", "rt-big.py",
					"RT-M4",  "rt-ota.py"};

static void
redteam_up(void)
{
	bastion_up_suite(&bastion, "check_pty_redteam");
}

static void
redteam_down(void)
{
	bastion_down(&bastion);
}

static void
each_setup(void)
{
	bastion_user_kill(&bastion, ALICE);
	bastion_user_kill(&bastion, BOB);
	for (size_t k = 0; k < sizeof leftovers / sizeof leftovers[0]; k++)
		bastion_home_remove(&bastion, ALICE, leftovers[k]);
	bastion_configure(&bastion, NULL, NULL);
	bastion_tools_install(&bastion, &tools);
}

static void
each_teardown(void)
{
	bastion_user_kill(&bastion, ALICE);
	bastion_user_kill(&bastion, BOB);
}

static void
use_attack_policy(bool landlock)
{
	bastion_use_attack_policy(&bastion, &tools, landlock);
}

/* `ssh host COMMAND` as alice: its status; stderr kept for a message. */
static int
ssh_alice(const char *command, char **err)
{
	char *out;
	int st = bastion_ssh(&bastion, ALICE, command, T, &out, err);

	free(out);
	return st;
}

/* ── 1. The loader's --glibc-hwcaps-prepend ─────────────────────────── */

/* Without exec locations: the refused program, through the loader and
 * the one option the guard does not know.  The same line without the
 * option is refused ("run as a program by the dynamic loader"). */
START_TEST(test_redteam_loader_option_runs_a_refused_program)
{
	char cmd[3 * PATH_MAX], *err;
	int st;

	use_attack_policy(false);
	/* the guard's own check, for reference: refused */
	snprintf(cmd, sizeof cmd, "%s %s %s", tools.loader, tools.forbidden,
		 bastion_home(&bastion, ALICE, "RT-M1"));
	st = ssh_alice(cmd, &err);
	ck_assert_msg(st == 126 && strstr(err, "deny_exec: the forbidden "
					       "program"),
		      "%s: %d %s", cmd, st, err);
	free(err);
	ck_assert(access(bastion_home(&bastion, ALICE, "RT-M1"), F_OK) != 0);
	/* the same with --glibc-hwcaps-prepend (glibc 2.33 and later) */
	snprintf(cmd, sizeof cmd, "%s --glibc-hwcaps-prepend x %s %s",
		 tools.loader, tools.forbidden,
		 bastion_home(&bastion, ALICE, "RT-M1"));
	st = ssh_alice(cmd, &err);
	ck_assert_msg(access(bastion_home(&bastion, ALICE, "RT-M1"), F_OK) != 0,
		      "BROKEN: '%s' ran the program the policy refuses by its "
		      "path (status %d, stderr '%s'): the guard decided only "
		      "the loader",
		      cmd, st, err);
	free(err);
}
END_TEST

/* Under exec locations and landlock = required, where "the dynamic
 * loader runs no program at all": the refused program, and a copy of
 * touch in alice's home (a file she owns, in a folder she writes, outside
 * every exec location) both run. */
START_TEST(test_redteam_loader_option_runs_a_program_under_landlock)
{
	const struct bastion_user *u = bastion_user(&bastion, ALICE);
	const char *copy = bastion_home(&bastion, ALICE, "rt-touch");
	char cmd[3 * PATH_MAX], *err;
	int st;

	use_attack_policy(true);
	{
		char *argv[] = {"install",        "-m",         "0755",
				"/usr/bin/touch", (char *)copy, NULL};
		char *envp[] = {"PATH=/usr/bin:/bin", NULL};
		char *out, *e;

		ck_assert_int_eq(pts_run_bounded("/usr/bin/install", argv, envp,
						 NULL, NULL, T, &out, &e),
				 0);
		free(out);
		free(e);
		ck_assert_int_eq(chown(copy, u->uid, u->gid), 0);
	}
	/* for reference: both refused without the option */
	snprintf(cmd, sizeof cmd, "%s %s %s", tools.loader, copy,
		 bastion_home(&bastion, ALICE, "RT-M2"));
	st = ssh_alice(cmd, &err);
	ck_assert_msg(st == 126 && strstr(err, "does not run programs"),
		      "%s: %d %s", cmd, st, err);
	free(err);
	/* with it: the copy in her home, then the refused program */
	snprintf(cmd, sizeof cmd, "%s --glibc-hwcaps-prepend x %s %s",
		 tools.loader, copy, bastion_home(&bastion, ALICE, "RT-M2"));
	st = ssh_alice(cmd, &err);
	free(err);
	snprintf(cmd, sizeof cmd, "%s --glibc-hwcaps-prepend x %s %s",
		 tools.loader, tools.forbidden,
		 bastion_home(&bastion, ALICE, "RT-M3"));
	st = ssh_alice(cmd, &err);
	free(err);
	(void)st;
	ck_assert_msg(
	    access(bastion_home(&bastion, ALICE, "RT-M2"), F_OK) != 0 &&
		access(bastion_home(&bastion, ALICE, "RT-M3"), F_OK) != 0,
	    "BROKEN under landlock = required: the loader ran %s%s%s",
	    access(bastion_home(&bastion, ALICE, "RT-M2"), F_OK) == 0
		? "a program alice copied into her home"
		: "",
	    access(bastion_home(&bastion, ALICE, "RT-M2"), F_OK) == 0 &&
		    access(bastion_home(&bastion, ALICE, "RT-M3"), F_OK) == 0
		? " and "
		: "",
	    access(bastion_home(&bastion, ALICE, "RT-M3"), F_OK) == 0
		? "the program the policy refuses"
		: "");
}
END_TEST

/* ── 2. level1.dl: a shell reading the terminal ─────────────────────── */

START_TEST(test_redteam_level1_env_bash_dev_tty_reads_undecided_lines)
{
	char policy[PATH_MAX], dir[PATH_MAX];
	struct pts a;

	snprintf(dir, sizeof dir, "%s", bastion.policy);
	snprintf(policy, sizeof policy, "%s/level1.dl", dirname(dir));
	bastion_configure(&bastion, policy, "landlock = auto\n");
	bastion_login(&bastion, &a, ALICE, T);
	/* allowed: the line's command is env; the exec of bash has an
	 * operand, which level1.dl takes for a script */
	pts_type(&a, "env bash /dev/tty\r");
	pts_settle(&a, 1000);
	/* a redirection the line rules refuse, read by that bash itself */
	pts_type(&a, "echo UNDECIDED > RT-TTY\r");
	pts_settle(&a, 1000);
	/* (had that bash run, "exit 0" would end it and not the session,
	 * and the marker below says so first) */
	ck_assert_msg(access(bastion_home(&bastion, ALICE, "RT-TTY"), F_OK) !=
			  0,
		      "BROKEN: level1.dl let 'env bash /dev/tty' start a bash "
		      "that read 'echo UNDECIDED > RT-TTY' from the terminal "
		      "and ran it, decided by nobody");
	ck_assert_msg(strstr(a.out, "never commands read from the terminal") !=
			  NULL,
		      "%s", a.out);
	bastion_logout(&a, ALICE, 0, T);
	ck_assert_msg(access(bastion_home(&bastion, ALICE, "RT-TTY"), F_OK) !=
			  0,
		      "BROKEN: level1.dl let 'env bash /dev/tty' start a bash "
		      "that read 'echo UNDECIDED > RT-TTY' from the terminal "
		      "and ran it, decided by nobody");
}
END_TEST

/* ── 3. One user fills the audit log's file system ──────────────────── */

/* The log is appended by the audit account, whatever the user's quota:
 * alice, in one command, makes her execs' records as long as a record may
 * be (about 60 KiB each: an argument of 60,000 bytes), and the log's file
 * system fills.  Then every other session on the host refuses every line
 * and program ("its audit record could not be written"), and no new
 * session starts.  Here the log's folder is a 4 MiB tmpfs, so that the
 * test fills it in a second; on this VM one session grows the log by about
 * 7 MiB/s, so a partition of its own only takes longer. */
static const char big_py[] =
    "import os, sys\n"
    "# the longest records first, then shorter ones for what is left\n"
    "sizes = [int(sys.argv[2])] * int(sys.argv[1])\n"
    "sizes += [s for s in (30000, 15000, 8000, 4000, 2000, 1000, 500, 200,\n"
    "                      100, 0) for k in range(6)]\n"
    "for size in sizes:\n"
    "    pid = os.fork()\n"
    "    if pid == 0:\n"
    "        try:\n"
    "            os.execv('/usr/bin/true', ['true', 'A' * size])\n"
    "        finally:\n"
    "            os._exit(1)\n"
    "    os.waitpid(pid, 0)\n";

static int
run_root(char *const argv[])
{
	char *envp[] = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL};
	char *out, *err;
	int st =
	    pts_run_bounded(argv[0], argv, envp, NULL, NULL, T, &out, &err);

	free(out);
	free(err);
	return st;
}

/* The signing state, kept before a test gives the log's folder a small
 * file system of its own and put back after it: the records written there
 * went away with it, and a state ahead of the log would refuse every later
 * record (a broken log). */
static char state_kept[4096];
static ssize_t state_kept_len = -1;

static void
state_keep(void)
{
	int fd = open(bastion.key, O_RDONLY | O_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	state_kept_len = read(fd, state_kept, sizeof state_kept);
	ck_assert_int_gt(state_kept_len, 0);
	(void)close(fd);
}

static void
state_put_back(void)
{
	int fd = open(bastion.key, O_WRONLY | O_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, state_kept, (size_t)state_kept_len, 0),
			 state_kept_len);
	(void)close(fd);
}

START_TEST(test_redteam_one_user_fills_the_log_and_every_session_is_refused)
{
	char *mount_argv[] = {
	    "/usr/bin/mount",    "-t",    "tmpfs",        "-o",
	    "size=4m,mode=2750", "rtlog", bastion.logdir, NULL};
	char *chown_argv[] = {"/usr/bin/chown", "maelys-pty:maelys-pty",
			      bastion.logdir, NULL};
	char *umount_argv[] = {"/usr/bin/umount", "-l", bastion.logdir, NULL};
	char *out, *err, bob_said[4096];
	struct pts b;
	int st, bob_st;
	bool refused;

	use_attack_policy(false);
	state_keep();
	ck_assert_int_eq(run_root(mount_argv), 0);
	ck_assert_int_eq(run_root(chown_argv), 0);
	bastion_home_file(&bastion, ALICE, "rt-big.py", big_py, 0644);
	bastion_login(&bastion, &b, BOB, T);
	/* alice: one command */
	st = bastion_ssh(&bastion, ALICE, "python3 rt-big.py 200 60000", 60000,
			 &out, &err);
	printf("redteam: alice's command: status %d, stderr: %.300s\n", st,
	       err);
	fflush(stdout);
	free(out);
	free(err);
	/* bob, who did nothing but log in: one line */
	{
		size_t from = b.len;

		pts_type(&b, "id -un\r");
		pts_settle(&b, 2000);
		snprintf(bob_said, sizeof bob_said, "%s", b.out + from);
	}
	refused = strstr(bob_said, "could not be written") != NULL;
	pts_type(&b, "\x04");
	(void)pts_wait(&b, 5000);
	pts_close(&b);
	/* and a new session of bob's */
	bob_st = bastion_ssh(&bastion, BOB, "id -un", T, &out, &err);
	snprintf(bob_said + strlen(bob_said),
		 sizeof bob_said - strlen(bob_said),
		 "\n[ssh host 'id -un': status %d, %s]", bob_st, err);
	free(out);
	free(err);
	(void)run_root(umount_argv);
	state_put_back();
	(void)st;
	ck_assert_msg(!refused && bob_st == 0,
		      "BROKEN: alice filled the audit log's file system with "
		      "her own execs' records, and bob's session refuses "
		      "every line, and his next session does not start:\n%s",
		      bob_said);
}
END_TEST

/* ── 5. A user's umask and the log a rotation leaves to be made ───────── */

/* Appends the file at `from` to the file at `to` and removes `from` (as
 * root: the rotation of the test undone, so the log is one file again). */
static void
append_file(const char *to, const char *from)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC);
	int out = open(to, O_WRONLY | O_APPEND | O_CLOEXEC);
	ssize_t n;

	ck_assert_int_ge(in, 0);
	ck_assert_int_ge(out, 0);
	while ((n = read(in, buf, sizeof buf)) > 0)
		ck_assert_int_eq(write(out, buf, (size_t)n), n);
	ck_assert_int_eq(n, 0);
	(void)close(in);
	ck_assert_int_eq(close(out), 0);
	ck_assert_int_eq(unlink(from), 0);
}

/* logrotate renamed the log (nocreate: the next writer makes it).  alice,
 * with `umask 777`, runs `maelys-pty decide` first: its audit writer,
 * forked by her guard, had her umask and made the log mode 0000, which the
 * audit account (no root override) could open no more: bob's decide and
 * every session after it were refused.  The log is 0600 whatever the
 * umask, and bob goes on.  Neither reads the state or the log. */
START_TEST(test_redteam_umask_777_locks_no_one_out_of_a_new_log)
{
	char rotated[600], script[2048], *out, *err;
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	struct stat st;
	int rc;

	/* bob first, so that there is a log to rotate */
	snprintf(script, sizeof script,
		 "echo '{\"id\": 1, \"line\": \"ls\"}' | '%s' decide",
		 bastion.guard);
	ck_assert_int_eq(bastion_run_as(&bastion, BOB, argv, T, &out, &err), 0);
	free(out);
	free(err);
	snprintf(rotated, sizeof rotated, "%s.rt", bastion.log);
	ck_assert_int_eq(rename(bastion.log, rotated), 0);
	snprintf(script, sizeof script,
		 "umask 777; echo '{\"id\": 1, \"line\": \"ls\"}' | '%s' "
		 "decide",
		 bastion.guard);
	rc = bastion_run_as(&bastion, ALICE, argv, T, &out, &err);
	printf("redteam: alice's decide under umask 777: status %d, out "
	       "%.200s, err %.200s\n",
	       rc, out, err);
	free(out);
	free(err);
	ck_assert_int_eq(stat(bastion.log, &st), 0);
	snprintf(script, sizeof script,
		 "echo '{\"id\": 1, \"line\": \"ls\"}' | '%s' decide",
		 bastion.guard);
	rc = bastion_run_as(&bastion, BOB, argv, T, &out, &err);
	/* the rotation undone before anything is asserted */
	append_file(rotated, bastion.log);
	ck_assert_int_eq(rename(rotated, bastion.log), 0);
	ck_assert_msg((st.st_mode & 07777) == 0600,
		      "BROKEN: the log alice's writer made under umask 777 is "
		      "mode %04o",
		      (unsigned)(st.st_mode & 07777));
	ck_assert_msg(rc == 0 && strstr(out, "\"decision\": \"allow\"") != NULL,
		      "BROKEN: bob's decide after alice's: status %d, out "
		      "'%s', err '%s'",
		      rc, out, err);
	free(out);
	free(err);
	/* the state and the log are the audit account's alone */
	ck_assert_int_eq(
	    bastion_open_as(&bastion, ALICE, bastion.key, O_RDONLY), EACCES);
	ck_assert_int_eq(
	    bastion_open_as(&bastion, ALICE, bastion.log, O_RDONLY), EACCES);
	bastion_assert_log_verifies(&bastion);
}
END_TEST

/* ── 5b. The log's readers, run by a user ─────────────────────────── */

/* The installed guard is setuid to the audit account, and `log`,
 * `log --replay` and --verify-log are the administrator's: a user who runs
 * them gets her own rights only (the tools run after every privilege is
 * dropped), so bob's records never reach alice through them. */
START_TEST(test_redteam_log_readers_give_a_user_nothing_of_the_log)
{
	char script[2048], *out, *err;
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	/* what follows the guard's path, before the log's */
	static const char *const forms[] = {
	    "log",
	    "log --json",
	    "log --replay --policy /dev/null",
	    "--verify-log",
	};
	size_t i;
	int rc;

	snprintf(script, sizeof script,
		 "echo '{\"id\": 1, \"line\": \"echo bob-secret-line\"}' | "
		 "'%s' decide",
		 bastion.guard);
	ck_assert_int_eq(bastion_run_as(&bastion, BOB, argv, T, &out, &err), 0);
	free(out);
	free(err);
	for (i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		snprintf(script, sizeof script, "'%s' %s '%s'", bastion.guard,
			 forms[i], bastion.log);
		rc = bastion_run_as(&bastion, ALICE, argv, T, &out, &err);
		ck_assert_msg(rc == 2, "BROKEN: alice's %s: status %d", script,
			      rc);
		ck_assert_msg(strstr(out, "bob") == NULL &&
				  strstr(err, "bob-secret") == NULL,
			      "BROKEN: alice's %s showed bob's records: %s%s",
			      script, out, err);
		free(out);
		free(err);
	}
}
END_TEST

/* ── 6. The reserve drained from session after session ───────────────── */

/* Item 3's reserve was counted per session: each session of alice's could
 * write a quarter of it, so six `ssh host CMD` of hers, one after the
 * other, drained it, and bob's line was refused and his next session did
 * not start.  It is counted per user. */
START_TEST(test_redteam_one_user_in_many_sessions_drains_no_reserve)
{
	char *mount_argv[] = {
	    "/usr/bin/mount",    "-t",    "tmpfs",        "-o",
	    "size=4m,mode=2750", "rtlog", bastion.logdir, NULL};
	char *chown_argv[] = {"/usr/bin/chown", "maelys-pty:maelys-pty",
			      bastion.logdir, NULL};
	char *umount_argv[] = {"/usr/bin/umount", "-l", bastion.logdir, NULL};
	char *out, *err;
	int k, st, bob_st;

	use_attack_policy(false);
	state_keep();
	ck_assert_int_eq(run_root(mount_argv), 0);
	ck_assert_int_eq(run_root(chown_argv), 0);
	bastion_home_file(&bastion, ALICE, "rt-big.py", big_py, 0644);
	for (k = 0; k < 6; k++) {
		st = bastion_ssh(&bastion, ALICE, "python3 rt-big.py 40 60000",
				 60000, &out, &err);
		printf("redteam: alice's session %d: status %d, stderr: "
		       "%.200s\n",
		       k + 1, st, err);
		fflush(stdout);
		free(out);
		free(err);
	}
	bob_st = bastion_ssh(&bastion, BOB, "id -un", T, &out, &err);
	(void)run_root(umount_argv);
	state_put_back();
	ck_assert_msg(bob_st == 0 && strstr(out, BOB) != NULL,
		      "BROKEN: six sessions of alice's drained the log's "
		      "reserve, and bob's session does not start: status %d, "
		      "out '%s', err '%s'",
		      bob_st, out, err);
	free(out);
	free(err);
}
END_TEST

/* ── 7. A file size limit and the state after a crash ─────────────────── */

/* A writer killed after its record and before the state leaves the state
 * one behind the log (a power cut, the OOM killer - or alice herself,
 * whose limits her writer has: under `ulimit -t` it is killed at a moment
 * of her choosing, and often there).  The next writer rewrites the state
 * before its record.  alice makes sure it is hers, under a file size limit
 * of 100 bytes: the state's pwrite(2) was cut after 100 of its 187 bytes,
 * no writer of anyone's could continue it, and its seed was half gone:
 * every session on the host refused every line, for good.  Here the crash
 * is made as root (one record written by the audit account, the state put
 * back): what alice does is the rest. */
static const char fsize_py[] =
    "import os, resource, sys\n"
    "resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))\n"
    "os.execv(sys.argv[1], [sys.argv[1], 'decide'])\n";

START_TEST(test_redteam_file_size_limit_never_cuts_the_state)
{
	char script[2048], *out, *err;
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	struct passwd *pw;
	int rc, status;
	pid_t pid;

	snprintf(script, sizeof script,
		 "echo '{\"id\": 1, \"line\": \"ls\"}' | '%s' decide",
		 bastion.guard);
	ck_assert_int_eq(bastion_run_as(&bastion, BOB, argv, T, &out, &err), 0);
	free(out);
	free(err);
	/* the crash: a record of the audit account's, the state of before */
	state_keep();
	pw = getpwnam("maelys-pty");
	ck_assert_ptr_nonnull(pw);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct pty_audit_session s;
		struct pty_audit_event e;
		struct pty_audit *a = NULL;
		char why[512];

		if (setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) != 0 ||
		    setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) != 0 ||
		    pty_audit_open(bastion.log, bastion.key, &a, why,
				   sizeof why) != 0)
			_exit(2);
		memset(&s, 0, sizeof s);
		(void)pty_audit_session_id(s.id);
		s.host = "bastion";
		s.user = "crash";
		s.tty = "";
		s.remote = "";
		s.mode = "command";
		memset(&e, 0, sizeof e);
		e.event = "session_start";
		_exit(pty_audit_write(a, &s, &e, why, sizeof why) == 0 ? 0 : 3);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(status, 0);
	state_put_back();
	/* alice: decide under a 100-byte file size limit */
	bastion_home_file(&bastion, ALICE, "rt-fsize.py", fsize_py, 0644);
	snprintf(script, sizeof script,
		 "echo '{\"id\": 1, \"line\": \"ls\"}' | python3 rt-fsize.py "
		 "'%s'",
		 bastion.guard);
	rc = bastion_run_as(&bastion, ALICE, argv, T, &out, &err);
	printf("redteam: alice's decide under a 100-byte file size limit: "
	       "status %d, err %.300s\n",
	       rc, err);
	free(out);
	free(err);
	/* bob */
	snprintf(script, sizeof script,
		 "echo '{\"id\": 1, \"line\": \"ls\"}' | '%s' decide",
		 bastion.guard);
	rc = bastion_run_as(&bastion, BOB, argv, T, &out, &err);
	/* a state cut short is put back as the crash left it (one behind,
	 * which every writer continues), for the tests after this one */
	if (rc != 0)
		state_put_back();
	ck_assert_msg(rc == 0 && strstr(out, "\"decision\": \"allow\"") != NULL,
		      "BROKEN: after alice's decide under a file size limit, "
		      "bob's: status %d, out '%s', err '%s'",
		      rc, out, err);
	free(out);
	free(err);
	bastion_assert_log_verifies(&bastion);
}
END_TEST

/* ── 4. open_tree_attr: a detached mount names the program falsely ─────── */

/* The filter refuses open_tree, mount and the rest of the mount API "so
 * that nothing in the session may change the mount tree, in a user
 * namespace neither" - but not open_tree_attr (Linux 6.15, system call
 * 467).  In a user namespace of her own, alice clones the refused program
 * (the file itself) into a detached mount and runs it with execveat(fd,
 * "", AT_EMPTY_PATH): the guard names the file by its descriptor, and the
 * name of a detached mount's root is "/".  The policy decides, and the log
 * records, exec_path "/"; the program runs.  (The code is a python script
 * in her home, which the attack policy, like level1.dl, lets run.) */
static const char ota_py[] =
    "import ctypes, os, sys\n"
    "libc = ctypes.CDLL(None, use_errno=True)\n"
    "libc.syscall.restype = ctypes.c_long\n"
    "uid, gid = os.getuid(), os.getgid()\n"
    "if libc.unshare(0x10000000 | 0x00020000) != 0:\n"
    "    sys.exit('unshare: ' + os.strerror(ctypes.get_errno()))\n"
    "open('/proc/self/setgroups', 'w').write('deny')\n"
    "open('/proc/self/uid_map', 'w').write('0 %d 1' % uid)\n"
    "open('/proc/self/gid_map', 'w').write('0 %d 1' % gid)\n"
    "fd = libc.syscall(ctypes.c_long(467), ctypes.c_int(-100),\n"
    "                  sys.argv[1].encode(), ctypes.c_uint(1), None,\n"
    "                  ctypes.c_size_t(0))\n"
    "if fd < 0:\n"
    "    sys.exit('open_tree_attr: ' + os.strerror(ctypes.get_errno()))\n"
    "args = [a.encode() for a in ['x'] + sys.argv[2:]] + [None]\n"
    "argv = (ctypes.c_char_p * len(args))(*args)\n"
    "envp = (ctypes.c_char_p * 1)(None)\n"
    "libc.syscall(ctypes.c_long(322), ctypes.c_int(fd), b'', argv, envp,\n"
    "             ctypes.c_int(0x1000))\n"
    "sys.exit('execveat: ' + os.strerror(ctypes.get_errno()))\n";

START_TEST(test_redteam_open_tree_attr_runs_a_refused_program_as_slash)
{
	char cmd[3 * PATH_MAX], *out, *err;
	int st;

	use_attack_policy(false);
	bastion_home_file(&bastion, ALICE, "rt-ota.py", ota_py, 0644);
	snprintf(cmd, sizeof cmd, "python3 rt-ota.py %s %s", tools.forbidden,
		 bastion_home(&bastion, ALICE, "RT-M4"));
	st = bastion_ssh(&bastion, ALICE, cmd, T, &out, &err);
	printf("redteam: %s: status %d, stderr: %.300s\n", cmd, st, err);
	fflush(stdout);
	free(out);
	free(err);
	ck_assert_msg(
	    access(bastion_home(&bastion, ALICE, "RT-M4"), F_OK) != 0,
	    "BROKEN: the program the policy refuses by its path ran from a "
	    "detached mount (open_tree_attr), decided and recorded as "
	    "exec_path \"/\" (%d such records)",
	    bastion_log_count_user(&bastion, 0, ALICE,
				   (const char *[]){"\"exec_path\":\"/\"",
						    "\"decision\":\"allow\"",
						    NULL}));
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("redteam");

	tcase_set_timeout(tc, 180);
	tcase_add_unchecked_fixture(tc, redteam_up, redteam_down);
	tcase_add_checked_fixture(tc, each_setup, each_teardown);
	tcase_add_test(tc, test_redteam_loader_option_runs_a_refused_program);
	tcase_add_test(
	    tc, test_redteam_loader_option_runs_a_program_under_landlock);
	tcase_add_test(
	    tc, test_redteam_level1_env_bash_dev_tty_reads_undecided_lines);
	tcase_add_test(
	    tc,
	    test_redteam_one_user_fills_the_log_and_every_session_is_refused);
	tcase_add_test(
	    tc, test_redteam_open_tree_attr_runs_a_refused_program_as_slash);
	tcase_add_test(tc,
		       test_redteam_umask_777_locks_no_one_out_of_a_new_log);
	tcase_add_test(
	    tc, test_redteam_one_user_in_many_sessions_drains_no_reserve);
	tcase_add_test(tc, test_redteam_file_size_limit_never_cuts_the_state);
	tcase_add_test(tc,
		       test_redteam_log_readers_give_a_user_nothing_of_the_log);
	suite_add_tcase(s, tc);
	return s;
}
