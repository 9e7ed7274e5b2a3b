/* SPDX-License-Identifier: MIT */
/*
 * The product as it is deployed (issue 9, "Tests as deployed"): the source
 * tree installed into a prefix with maelys-pty-setup run on it, the
 * configuration of README's bastion deployment (bastion.dl, an audit log,
 * landlock = required), two unprivileged users whose login shell is the
 * installed guard, and a real OpenSSH server on 127.0.0.1.  Everything the
 * users do goes through the ssh clients, as it would on a bastion: two
 * interactive sessions at once over `ssh -tt`, `ssh host CMD`, scp, sftp
 * and rsync; and every test reads the audit log afterwards as root - the
 * chain verifies and holds every decision the test caused, per user.
 *
 * The deployment (tests/bastion.h) is made once, in an unchecked fixture
 * of the test program itself, and undone after the last test whatever the
 * tests did; each test, forked, starts from the default configuration.
 * Root only (users, sshd): otherwise the program says SKIP and exits 77.
 */
#define _GNU_SOURCE
#include "runner.h"

#include "bastion.h"
#include "pty_harness.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define T 20000 /* ms for any one answer: sessions start in well under 1 s */

static struct bastion bastion;
static size_t mark; /* the log's size when the running test started */

static void
deployed_up(void)
{
	bastion_up_suite(&bastion, "check_pty_deployed");
}

static void
deployed_down(void)
{
	bastion_down(&bastion);
}

/* Each test starts from the default configuration (a test before may have
 * changed it) and counts the records written after its start. */
static void
each_setup(void)
{
	bastion_configure(&bastion, NULL, NULL);
	mark = bastion_log_mark(&bastion);
}

/* The records of `user` written since the test started: each kind as many
 * times as the test caused it and, with `exact`, nothing else. */
static void
assert_records(const char *user, const struct bastion_rec *recs, size_t nrecs,
	       bool exact)
{
	bastion_assert_records(&bastion, mark, user, recs, nrecs, exact);
}

/* The end of a test both users did the same things in: the chain
 * verifies, and each user's records are exactly recs. */
static void
assert_log_both(const struct bastion_rec *recs, size_t nrecs)
{
	bastion_assert_log_verifies(&bastion);
	assert_records(ALICE, recs, nrecs, true);
	assert_records(BOB, recs, nrecs, true);
}

/* Waits for one session's answer to a typed line, or its prompt. */
static void
expect(struct pts *p, const char *who, const char *text)
{
	bastion_expect(p, who, text, T);
}

static void
expect_prompt(struct pts *p, const char *who)
{
	bastion_expect_prompt(p, who, T);
}

/* Also issue 9 item 1 (no interactive session of a user started with an
 * audit log); check_pty_operator.c has the item's own test, with two
 * sessions of each user at once. */
START_TEST(test_deployed_two_interactive_sessions_at_once_decide_each_line)
{
	struct pts a, b;
	static const struct bastion_rec alice[] = {
	    {1, {EV("session_start"), MODE("interactive"), NULL}},
	    {1, {EV("exec"), PATH("/usr/bin/bash"), DEC("allow"), NULL}},
	    {1, {EV("line"), LINE("id -un"), DEC("allow"), NULL}},
	    {1, {EV("exec"), PATH("/usr/bin/id"), DEC("allow"), NULL}},
	    {1, {EV("line"), LINE("python3"), DEC("deny"), NULL}},
	    {1, {EV("line"), LINE("exit 3"), DEC("allow"), NULL}},
	    {1, {EV("session_end"), NULL}},
	};
	static const struct bastion_rec bob[] = {
	    {1, {EV("session_start"), MODE("interactive"), NULL}},
	    {1, {EV("exec"), PATH("/usr/bin/bash"), DEC("allow"), NULL}},
	    {1, {EV("line"), LINE("id -un"), DEC("allow"), NULL}},
	    {1, {EV("exec"), PATH("/usr/bin/id"), DEC("allow"), NULL}},
	    {1, {EV("line"), LINE("ssh app1.example.net"), DEC("deny"), NULL}},
	    {1, {EV("line"), LINE("exit 3"), DEC("allow"), NULL}},
	    {1, {EV("session_end"), NULL}},
	};

	/* both log in before either types: two sessions on the host at
	 * once, each writing the one log */
	bastion_ssh_tt(&bastion, &a, ALICE);
	bastion_ssh_tt(&bastion, &b, BOB);
	{
		bool pa = pts_wait_prompt(&a, T), pb = pts_wait_prompt(&b, T);

		ck_assert_msg(pa && pb,
			      "no prompt within %d ms\n%s:\n%s\n%s:\n%s", T,
			      ALICE, a.out, BOB, b.out);
	}
	/* an allowed line runs, as its user */
	pts_type(&a, "id -un\r");
	pts_type(&b, "id -un\r");
	expect(&a, ALICE, "\r\n" ALICE "\r\n");
	expect(&b, BOB, "\r\n" BOB "\r\n");
	expect_prompt(&a, ALICE);
	expect_prompt(&b, BOB);
	/* a forbidden one is refused with its reason: an interpreter for
	 * alice, and for bob (not in ops) a production host */
	pts_type(&a, "python3\r");
	pts_type(&b, "ssh app1.example.net\r");
	expect(&a, ALICE, "maelys-pty: 'python3' denied by policy");
	expect(&a, ALICE, "interpreters run any program");
	expect(&b, BOB, "maelys-pty: 'ssh' denied by policy");
	expect(&b, BOB, "production hosts are for members of the ops group");
	expect_prompt(&a, ALICE);
	expect_prompt(&b, BOB);
	/* and the status a session ends with reaches the client */
	pts_type(&a, "exit 3\r");
	pts_type(&b, "exit 3\r");
	ck_assert_msg(pts_wait(&a, T) == 3, "alice's ssh -tt:\n%s", a.out);
	ck_assert_msg(pts_wait(&b, T) == 3, "bob's ssh -tt:\n%s", b.out);
	pts_close(&a);
	pts_close(&b);
	bastion_assert_log_verifies(&bastion);
	assert_records(ALICE, alice, sizeof alice / sizeof alice[0], true);
	assert_records(BOB, bob, sizeof bob / sizeof bob[0], true);
}
END_TEST

START_TEST(test_deployed_ssh_command_runs_if_allowed_else_exits_126)
{
	static const char *const users[] = {ALICE, BOB};
	static const struct bastion_rec recs[] = {
	    {2, {EV("session_start"), MODE("command"), NULL}},
	    {1, {EV("command"), LINE("id -un"), DEC("allow"), NULL}},
	    {1, {EV("exec"), PATH("/usr/bin/bash"), DEC("allow"), NULL}},
	    {1, {EV("exec"), PATH("/usr/bin/id"), DEC("allow"), NULL}},
	    {1, {EV("command"), LINE("python3 -c 1"), DEC("deny"), NULL}},
	    {2, {EV("session_end"), NULL}},
	};

	for (size_t i = 0; i < 2; i++) {
		const char *u = users[i];
		char *out, *err, want[64];
		int st;

		st = bastion_ssh(&bastion, u, "id -un", T, &out, &err);
		snprintf(want, sizeof want, "%s\n", u);
		ck_assert_msg(st == 0 && strcmp(out, want) == 0,
			      "%s: ssh host 'id -un': status %d, out '%s', "
			      "err '%s'",
			      u, st, out, err);
		free(out);
		free(err);
		st = bastion_ssh(&bastion, u, "python3 -c 1", T, &out, &err);
		ck_assert_msg(st == 126 && out[0] == '\0',
			      "%s: ssh host 'python3 -c 1': status %d, out "
			      "'%s', err '%s'",
			      u, st, out, err);
		ck_assert_msg(
		    strstr(err, "maelys-pty: 'python3' denied by policy") &&
			strstr(err, "interpreters run any program"),
		    "%s: %s", u, err);
		free(out);
		free(err);
	}
	assert_log_both(recs, sizeof recs / sizeof recs[0]);
}
END_TEST

/* A file in each user's home to download, and where a download of it
 * lands (the clients run as root in the run folder). */
static void
notes(const char *user)
{
	char text[128];

	snprintf(text, sizeof text, "notes of %s\n", user);
	bastion_home_file(&bastion, user, "notes.txt", text, 0644);
}

static void
assert_downloaded(const char *user, const char *local)
{
	char *got = pts_slurp(bastion_run_path(&bastion, local)), want[128];

	snprintf(want, sizeof want, "notes of %s\n", user);
	ck_assert_msg(strcmp(got, want) == 0, "%s: %s holds '%s'", user, local,
		      got);
	free(got);
}

/* An upload that was refused left nothing in the home. */
static void
assert_not_uploaded(const char *user)
{
	char path[400];

	snprintf(path, sizeof path, "%s/upload.txt",
		 bastion_user(&bastion, user)->home);
	ck_assert_msg(access(path, F_OK) != 0, "%s exists: an upload ran",
		      path);
}

/* A transfer client's run as `user`: with no refusal given it must
 * succeed; else fail, its stderr holding `refusal` and `reason` (when
 * not NULL).  `what` names the step in a failure. */
static void
transfer(const char *user, const char *what, const char *tool,
	 const char *const args[], const char *refusal, const char *reason)
{
	char *out, *err;
	int st = bastion_client(&bastion, user, tool, args, T, &out, &err);

	if (refusal == NULL)
		ck_assert_msg(st == 0, "%s: %s: %d %s%s", user, what, st, out,
			      err);
	else
		ck_assert_msg(
		    st != 0 && strstr(err, refusal) != NULL &&
			(reason == NULL || strstr(err, reason) != NULL),
		    "%s: %s: %d %s%s", user, what, st, out, err);
	free(out);
	free(err);
}

/* scp's two protocols: SFTP (the default since OpenSSH 9.0, served by
 * sftp-server -R) and the legacy one (-O: the remote side runs scp -f to
 * send, scp -t to receive). */
START_TEST(test_deployed_scp_downloads_served_uploads_refused)
{
	static const char *const users[] = {ALICE, BOB};
	static const struct bastion_rec recs[] = {
	    {4, {EV("session_start"), MODE("command"), NULL}},
	    {2,
	     {EV("command"), LINE("/usr/lib/openssh/sftp-server -R"),
	      DEC("allow"), NULL}},
	    {1, {EV("command"), "\"line\":\"scp -f ", DEC("allow"), NULL}},
	    {1, {EV("command"), "\"line\":\"scp -t ", DEC("deny"), NULL}},
	    {3, {EV("exec"), PATH("/usr/bin/bash"), DEC("allow"), NULL}},
	    {2,
	     {EV("exec"), PATH("/usr/lib/openssh/sftp-server"), DEC("allow"),
	      NULL}},
	    {1, {EV("exec"), PATH("/usr/bin/scp"), DEC("allow"), NULL}},
	    {4, {EV("session_end"), NULL}},
	};

	pts_write_file(bastion_run_path(&bastion, "upload.txt"), "upload\n",
		       0644);
	for (size_t i = 0; i < 2; i++) {
		const char *u = users[i];
		const char *notes_txt =
		    bastion_remote(&bastion, u, "notes.txt");
		const char *upload_txt =
		    bastion_remote(&bastion, u, "upload.txt");

		notes(u);
		transfer(u, "scp download", "scp",
			 (const char *[]){notes_txt, "scp-sftp.txt", NULL},
			 NULL, NULL);
		assert_downloaded(u, "scp-sftp.txt");
		transfer(
		    u, "scp -O download", "scp",
		    (const char *[]){"-O", notes_txt, "scp-legacy.txt", NULL},
		    NULL, NULL);
		assert_downloaded(u, "scp-legacy.txt");
		transfer(u, "scp upload", "scp",
			 (const char *[]){"upload.txt", upload_txt, NULL},
			 "Permission denied", NULL);
		assert_not_uploaded(u);
		transfer(u, "scp -O upload", "scp",
			 (const char *[]){"-O", "upload.txt", upload_txt, NULL},
			 "maelys-pty: 'scp' denied by policy",
			 "scp: uploads (scp -t) are refused on the bastion");
		assert_not_uploaded(u);
	}
	assert_log_both(recs, sizeof recs / sizeof recs[0]);
}
END_TEST

START_TEST(test_deployed_sftp_get_served_put_refused)
{
	static const char *const users[] = {ALICE, BOB};
	static const struct bastion_rec recs[] = {
	    {2, {EV("session_start"), MODE("command"), NULL}},
	    {2,
	     {EV("command"), LINE("/usr/lib/openssh/sftp-server -R"),
	      DEC("allow"), NULL}},
	    {2, {EV("exec"), PATH("/usr/bin/bash"), DEC("allow"), NULL}},
	    {2,
	     {EV("exec"), PATH("/usr/lib/openssh/sftp-server"), DEC("allow"),
	      NULL}},
	    {2, {EV("session_end"), NULL}},
	};
	const char *get = bastion_run_path(&bastion, "get.sftp");
	char put[600];

	pts_write_file(get, "get notes.txt sftp.txt\n", 0644);
	snprintf(put, sizeof put, "%s", bastion_run_path(&bastion, "put.sftp"));
	pts_write_file(put, "put upload.txt upload.txt\n", 0644);
	pts_write_file(bastion_run_path(&bastion, "upload.txt"), "upload\n",
		       0644);
	for (size_t i = 0; i < 2; i++) {
		const char *u = users[i];
		char dest[64];

		notes(u);
		snprintf(dest, sizeof dest, "%s@127.0.0.1", u);
		transfer(u, "sftp get", "sftp",
			 (const char *[]){"-b", get, dest, NULL}, NULL, NULL);
		assert_downloaded(u, "sftp.txt");
		transfer(u, "sftp put", "sftp",
			 (const char *[]){"-b", put, dest, NULL},
			 "Permission denied", NULL);
		assert_not_uploaded(u);
	}
	assert_log_both(recs, sizeof recs / sizeof recs[0]);
}
END_TEST

START_TEST(test_deployed_rsync_download_served_upload_refused)
{
	static const char *const users[] = {ALICE, BOB};
	static const struct bastion_rec recs[] = {
	    {2, {EV("session_start"), MODE("command"), NULL}},
	    {1,
	     {EV("command"), "\"line\":\"rsync --server --sender ",
	      DEC("allow"), NULL}},
	    {1,
	     {EV("command"), "\"line\":\"rsync --server -", DEC("deny"), NULL}},
	    {1, {EV("exec"), PATH("/usr/bin/bash"), DEC("allow"), NULL}},
	    {1, {EV("exec"), PATH("/usr/bin/rsync"), DEC("allow"), NULL}},
	    {2, {EV("session_end"), NULL}},
	};

	pts_write_file(bastion_run_path(&bastion, "upload.txt"), "upload\n",
		       0644);
	for (size_t i = 0; i < 2; i++) {
		const char *u = users[i];

		notes(u);
		transfer(
		    u, "rsync download", "rsync",
		    (const char *[]){bastion_remote(&bastion, u, "notes.txt"),
				     "rsync.txt", NULL},
		    NULL, NULL);
		assert_downloaded(u, "rsync.txt");
		transfer(u, "rsync upload", "rsync",
			 (const char *[]){
			     "upload.txt",
			     bastion_remote(&bastion, u, "upload.txt"), NULL},
			 "maelys-pty: 'rsync' denied by policy",
			 "rsync: only as the remote side of a download");
		assert_not_uploaded(u);
	}
	assert_log_both(recs, sizeof recs / sizeof recs[0]);
}
END_TEST

/* The policy authors' tools on the installed guard (setuid to its audit
 * account): `maelys-pty test`, `explain` and --list read with the rights
 * of the user who runs them.  The audit key and log, and another user's
 * file, are refused to them as to the user (and no line of them is said);
 * the configuration and the policy the sessions read are theirs to
 * explain; --list takes no --policy.  Nothing of it is a session: no
 * record is written. */
START_TEST(test_deployed_tools_read_with_the_callers_rights)
{
	const char *bob_file = bastion_home_file(
	    &bastion, BOB, "secret.dl", "bob's secret: hunter2\n", 0600);
	char bob_path[512], case_path[512];
	char *guard = bastion.guard;
	const char *secret[] = {bastion.key, bastion.log, bob_path};
	char *out, *err;
	size_t i;
	int st;

	snprintf(bob_path, sizeof bob_path, "%s", bob_file);
	snprintf(
	    case_path, sizeof case_path, "%s",
	    bastion_home_file(&bastion, ALICE, "t.case", "allow ls\n", 0644));
	for (i = 0; i < sizeof secret / sizeof secret[0]; i++) {
		char *explain_argv[] = {guard,      "explain",
					"--policy", (char *)secret[i],
					"ls",       NULL};
		char *test_argv[] = {guard,      "test",
				     "--policy", (char *)secret[i],
				     case_path,  NULL};

		st = bastion_run_as(&bastion, ALICE, explain_argv, T, &out,
				    &err);
		ck_assert_msg(st == 2 && out[0] == '\0' &&
				  strstr(err, "Permission denied") != NULL &&
				  strstr(err, "hunter2") == NULL,
			      "explain --policy %s: status %d, out '%s', "
			      "err '%s'",
			      secret[i], st, out, err);
		free(out);
		free(err);
		st = bastion_run_as(&bastion, ALICE, test_argv, T, &out, &err);
		ck_assert_msg(st == 2 && strstr(err, "hunter2") == NULL &&
				  strstr(out, "hunter2") == NULL,
			      "test --policy %s: status %d, out '%s', err "
			      "'%s'",
			      secret[i], st, out, err);
		free(out);
		free(err);
	}
	{
		char *argv[] = {guard,          "explain", "--config",
				bastion.config, "ls",      NULL};

		st = bastion_run_as(&bastion, ALICE, argv, T, &out, &err);
		ck_assert_msg(st == 0 && strstr(out, "verdict: allowed") &&
				  strstr(out, "facts: user " ALICE ","),
			      "explain --config: status %d, out '%s', err "
			      "'%s'",
			      st, out, err);
		free(out);
		free(err);
	}
	{
		char *argv[] = {guard, "--list", NULL};
		char *with_policy[] = {guard, "--list", "--policy", bob_path,
				       NULL};

		st = bastion_run_as(&bastion, ALICE, argv, T, &out, &err);
		ck_assert_msg(st == 0 && strstr(out, "ls\n") != NULL,
			      "--list: status %d, out '%s', err '%s'", st, out,
			      err);
		free(out);
		free(err);
		st =
		    bastion_run_as(&bastion, ALICE, with_policy, T, &out, &err);
		ck_assert_msg(st != 0 && out[0] == '\0' &&
				  strstr(err, "hunter2") == NULL,
			      "--list --policy: status %d, out '%s', err '%s'",
			      st, out, err);
		free(out);
		free(err);
	}
	ck_assert_int_eq(bastion_log_mark(&bastion), mark);
}
END_TEST

/* `maelys-pty decide` on the setuid install: the writer starts as the
 * audit account, every privilege is dropped before a request is read, and
 * each decision is recorded as the caller's; a request for another user is
 * refused and leaves no record; --policy is read with the caller's rights
 * (bob's file stays bob's). */
START_TEST(test_deployed_decide_records_as_the_caller)
{
	const char *bob_file = bastion_home_file(
	    &bastion, BOB, "secret.dl", "bob's secret: hunter2\n", 0600);
	char script[2048], bob_path[512], *out, *err, *tail;
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	int st;

	snprintf(bob_path, sizeof bob_path, "%s", bob_file);
	snprintf(script, sizeof script,
		 "printf '%%s\\n' '{\"id\": 1, \"line\": \"ls\"}' "
		 "'{\"id\": 2, \"line\": \"ls\", \"user\": \"%s\"}' | "
		 "'%s' decide",
		 BOB, bastion.guard);
	st = bastion_run_as(&bastion, ALICE, argv, T, &out, &err);
	tail = bastion_log_tail(&bastion, mark);
	ck_assert_msg(st == 0 &&
			  strstr(out, "{\"id\": 1, \"decision\": \"allow\"") !=
			      NULL &&
			  strstr(out, "{\"id\": 2, \"error\": ") != NULL,
		      "decide: status %d, out '%s', err '%s'", st, out, err);
	ck_assert_msg(bastion_log_count(&bastion, mark,
					(const char *[]){
					    "\"event\":\"session_start\"",
					    "\"mode\":\"decide\"",
					    "\"user\":\"" ALICE "\"", NULL}) == 1,
		      "no session_start of alice's decide:\n%s", tail);
	ck_assert_msg(bastion_log_count(&bastion, mark,
					(const char *[]){"\"mode\":\"decide\"",
							 "\"line\":\"ls\"",
							 "\"decision\":"
							 "\"allow\"",
							 NULL}) == 1,
		      "the allowed line is not recorded once:\n%s", tail);
	ck_assert_msg(bastion_log_count(&bastion, mark,
					(const char *[]){"\"user\":\"" BOB "\"",
							 NULL}) == 0,
		      "a record in bob's name:\n%s", tail);
	ck_assert_msg(bastion_log_count(&bastion, mark,
					(const char *[]){
					    "\"event\":\"session_end\"",
					    "\"mode\":\"decide\"", NULL}) == 1,
		      "no session_end of alice's decide:\n%s", tail);
	free(tail);
	free(out);
	free(err);
	ck_assert_int_eq(bastion_verify_log(&bastion, &out, &err), 0);
	free(out);
	free(err);

	/* a policy of the caller's choosing: read as the caller */
	snprintf(script, sizeof script,
		 "echo '{\"line\": \"ls\"}' | '%s' decide --policy '%s'",
		 bastion.guard, bob_path);
	st = bastion_run_as(&bastion, ALICE, argv, T, &out, &err);
	ck_assert_msg(st == 2 && strstr(err, "Permission denied") != NULL &&
			  strstr(out, "hunter2") == NULL &&
			  strstr(err, "hunter2") == NULL,
		      "decide --policy: status %d, out '%s', err '%s'", st, out,
		      err);
	free(out);
	free(err);
}
END_TEST

/* Two users' decide workers at once on the setuid install, 200 questions
 * each: every decision recorded once under the name of the user who asked,
 * none under the other's, and the chain intact. */
START_TEST(test_deployed_decide_two_users_at_once)
{
	static const char *const users[] = {ALICE, BOB};
	char script[1024], *out, *err, *tail;
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	pid_t pid;
	int st, i;

	snprintf(script, sizeof script,
		 "i=0; while [ $i -lt 200 ]; do "
		 "echo \"{\\\"id\\\": $i, \\\"line\\\": \\\"ls\\\"}\"; "
		 "i=$((i + 1)); done | '%s' decide",
		 bastion.guard);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		st = bastion_run_as(&bastion, BOB, argv, T, &out, &err);
		_exit(st == 0 && strstr(out, "\"id\": 199, \"decision\": "
					     "\"allow\"") != NULL
			  ? 0
			  : 1);
	}
	st = bastion_run_as(&bastion, ALICE, argv, T, &out, &err);
	ck_assert_msg(st == 0 && strstr(out, "\"id\": 199, \"decision\": "
					     "\"allow\"") != NULL,
		      "alice's decide: status %d, err '%s'", st, err);
	free(out);
	free(err);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "bob's decide did not answer all 200");
	tail = bastion_log_tail(&bastion, mark);
	for (i = 0; i < 2; i++)
		ck_assert_msg(bastion_log_count_user(
				  &bastion, mark, users[i],
				  (const char *[]){"\"mode\":\"decide\"",
						   "\"line\":\"ls\"",
						   "\"decision\":\"allow\"",
						   NULL}) == 200,
			      "%s's 200 decisions are not recorded as %s's:\n%s",
			      users[i], users[i], tail);
	free(tail);
	ck_assert_int_eq(bastion_verify_log(&bastion, &out, &err), 0);
	free(out);
	free(err);
}
END_TEST

/* record = DIR as deployed: the audit writer (the audit account) creates
 * the recording, 0600 and its own, so the user whose session it is cannot
 * read it, and session_end names it. */
START_TEST(test_deployed_recording_is_out_of_the_users_reach)
{
	char dir[500], extra[600], path[1200] = "", *tail;
	struct stat logdir, st;
	struct dirent *e;
	struct pts a;
	DIR *d;

	ck_assert_int_eq(stat(bastion.logdir, &logdir), 0);
	snprintf(dir, sizeof dir, "%s/sessions", bastion.logdir);
	(void)mkdir(dir, 0700);
	ck_assert_int_eq(chown(dir, logdir.st_uid, logdir.st_gid), 0);
	ck_assert_int_eq(chmod(dir, 0700), 0);
	snprintf(extra, sizeof extra, "record = %s\n", dir);
	bastion_configure(&bastion, NULL, extra);
	bastion_ssh_tt(&bastion, &a, ALICE);
	ck_assert_msg(pts_wait_prompt(&a, T), "%s", a.out);
	pts_type(&a, "id -un\r");
	expect(&a, ALICE, "\r\n" ALICE "\r\n");
	expect_prompt(&a, ALICE);
	pts_type(&a, "exit\r");
	ck_assert_msg(pts_wait(&a, T) == 0, "%s", a.out);
	pts_close(&a);
	tail = bastion_log_tail(&bastion, mark);
	d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL) {
		char name[1100];

		snprintf(name, sizeof name, "\"recording\":\"%s/%s\"", dir,
			 e->d_name);
		if (e->d_name[0] != '.' && strstr(tail, name) != NULL)
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	ck_assert_msg(path[0] != '\0', "no recording named in: %s", tail);
	free(tail);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	ck_assert_uint_eq(st.st_uid, logdir.st_uid);
	ck_assert_uint_ne(st.st_uid, bastion_user(&bastion, ALICE)->uid);
	ck_assert_int_eq(bastion_open_as(&bastion, ALICE, path, O_RDONLY),
			 EACCES);
	tail = pts_slurp(path);
	ck_assert_msg(strstr(tail, "\"o\", \"" ALICE "\\r\\n\"]") != NULL,
		      "%s", tail);
	free(tail);
	bastion_assert_log_verifies(&bastion);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("deployed");

	tcase_set_timeout(tc, 120);
	tcase_add_unchecked_fixture(tc, deployed_up, deployed_down);
	tcase_add_checked_fixture(tc, each_setup, NULL);
	tcase_add_test(
	    tc,
	    test_deployed_two_interactive_sessions_at_once_decide_each_line);
	tcase_add_test(
	    tc, test_deployed_ssh_command_runs_if_allowed_else_exits_126);
	tcase_add_test(tc, test_deployed_scp_downloads_served_uploads_refused);
	tcase_add_test(tc, test_deployed_sftp_get_served_put_refused);
	tcase_add_test(tc, test_deployed_rsync_download_served_upload_refused);
	tcase_add_test(tc, test_deployed_tools_read_with_the_callers_rights);
	tcase_add_test(tc, test_deployed_decide_records_as_the_caller);
	tcase_add_test(tc, test_deployed_decide_two_users_at_once);
	tcase_add_test(tc, test_deployed_recording_is_out_of_the_users_reach);
	suite_add_tcase(s, tc);
	return s;
}
