/* SPDX-License-Identifier: MIT */
/*
 * Session recordings as deployed (tests/bastion.h: the installed setuid
 * guard, bastion.dl, landlock = required, an audit log, record = DIR, a
 * real sshd and two unprivileged users), read as the administrator reads
 * them:
 *   - whatever size a user's terminal is given - the ssh client's window
 *     set to 65535x65535 and to 10001x24, or a session that starts 10001
 *     columns wide - the session starts and is recorded, and
 *     `maelys-pty replay --markers`, the player, asciinema and an
 *     independent reader (tests/asciicast_check.py) read the recording to
 *     its end: every decision after the resizes is in it;
 *   - one user's recordings cannot stop another's: on a small file system
 *     of the recordings' own (a tmpfs the test mounts on the folder), alice
 *     runs four sessions that print without end, up to record_max, while
 *     bob's session, which has recorded more than a quarter of the
 *     reserve with ordinary output, stays open; alice's sessions are
 *     stopped at her share, with records that say so, and bob's session
 *     records on, and his lines run;
 *   - nor take the files: on a file system of the recordings' own with
 *     32 files, alice's sessions, each leaving its recording, stop
 *     starting once the reserve of files is reached, and bob's session
 *     starts and is recorded;
 *   - what a session shows reaches the terminal through the guard alone:
 *     no program of the session opens the user's terminal by its name.
 * Root only (users, sshd, mounts): otherwise the program says SKIP and
 * exits 77.
 */
#define _GNU_SOURCE
#include "runner.h"

#include "bastion.h"
#include "pty_harness.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define T 20000 /* ms for any one answer */

static struct bastion bastion;
static size_t mark; /* the log's size when the running test started */


/* The recordings' folder (a test may mount a file system of its own
 * there, which the fixture's end unmounts whatever the test did). */
static char record_dir[500];

/* The name of a file system the tests mount: what a run that was killed
 * left mounted is found by it. */
#define RECORDINGS_FS "mpty-recordings"

static int
root_run(char *const argv[])
{
	char *envp[] = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL};
	char *out, *err;
	int st = pts_run_bounded(argv[0], argv, envp, NULL, NULL, T, &out,
				 &err);

	free(out);
	free(err);
	return st;
}

/* Unmounts what a test mounted on the recordings' folder (nothing: an
 * error, said nowhere). */
static void
unmount_records(void)
{
	char *argv[] = {"/usr/bin/umount", "-l", record_dir, NULL};

	if (record_dir[0] != '\0')
		(void)root_run(argv);
}

/* Unmounts every file system a run of these tests left mounted (it was
 * killed before its end): the deployment's log folder is made afresh, and
 * a mount inside it would stop that. */
static void
unmount_left_over(void)
{
	char *info = bastion_proc_read("/proc/self/mountinfo"), *line,
	     *save = NULL;

	for (line = strtok_r(info, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char point[600];
		char *argv[] = {"/usr/bin/umount", "-l", point, NULL};

		if (strstr(line, " - tmpfs " RECORDINGS_FS " ") != NULL &&
		    sscanf(line, "%*s %*s %*s %*s %599s", point) == 1)
			(void)root_run(argv);
	}
	free(info);
}

static void
recordings_up(void)
{
	if (geteuid() == 0)
		unmount_left_over();
	bastion_up_suite(&bastion, "check_pty_recordings");
	snprintf(record_dir, sizeof record_dir, "%s/sessions", bastion.logdir);
}

static void
recordings_down(void)
{
	unmount_records();
	bastion_down(&bastion);
}

static void
each_setup(void)
{
	bastion_configure(&bastion, NULL, NULL);
	mark = bastion_log_mark(&bastion);
}

/* The recordings' folder, DIR = the log's folder/sessions, made the audit
 * account's (0700) as README says, and the configuration naming it with
 * `extra` lines after.  Its path into dir. */
static void
record_into(char *dir, size_t cap, const char *extra)
{
	char text[1200];
	struct stat logdir;

	ck_assert_int_eq(stat(bastion.logdir, &logdir), 0);
	snprintf(dir, cap, "%s", record_dir);
	(void)mkdir(dir, 0700);
	ck_assert_int_eq(chown(dir, logdir.st_uid, logdir.st_gid), 0);
	ck_assert_int_eq(chmod(dir, 0700), 0);
	snprintf(text, sizeof text, "record = %s\n%s", dir,
		 extra != NULL ? extra : "");
	bastion_configure(&bastion, NULL, text);
}

/* The recording session_end names for a session of `user` since the test
 * started (the test fails unless there is one), into path. */
static void
recording_of(const char *dir, const char *user, char *path, size_t cap)
{
	char *tail = bastion_log_tail(&bastion, mark), want[1200];
	struct dirent *e;
	DIR *d = opendir(dir);

	path[0] = '\0';
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL) {
		const char *const needles[] = {"\"event\":\"session_end\"",
					       want, NULL};

		if (e->d_name[0] == '.')
			continue;
		snprintf(want, sizeof want, "\"recording\":\"%s/%s\"", dir,
			 e->d_name);
		if (bastion_log_count_user(&bastion, mark, user, needles) == 1)
			snprintf(path, cap, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	ck_assert_msg(path[0] != '\0', "no recording of %s named in: %s", user,
		      tail);
	free(tail);
}

/* `maelys-pty replay OPTION... FILE` (argv from "replay" on, ending in
 * NULL) by the installed guard, as root: its exit status, stdout and
 * stderr (the caller frees them). */
static int
replay(char *const argv[], char **out, char **err)
{
	char *full[8] = {"maelys-pty"};
	size_t i;

	for (i = 0; argv[i] != NULL && i + 2 < 8; i++)
		full[i + 1] = argv[i];
	full[i + 1] = NULL;
	return bastion_guard_run(&bastion, full, T, out, err);
}

/* The size a user's terminal is given is recorded as it was given, and the
 * recording is read to its end by every reader.  alice logs in with a
 * client 10001 columns wide (the session used not to start: the writer
 * refused the header), then her client's window is set to 65535x65535
 * (the recording used to stop being readable there: replay refused the
 * size, so every decision after it was hidden) and to 10001x24; after each,
 * an allowed line and a refused program. */
START_TEST(test_recordings_any_terminal_size_reads_to_the_end)
{
	static const char *const wanted[] = {
	    "  allow: id -un\n", "  deny: python3\n", "  allow: uname\n",
	    "  deny: perl\n"};
	char dir[500], path[1200], *out, *err, *text;
	char *markers[] = {"replay", "--markers", path, NULL};
	char *play[] = {"replay", "--speed", "1000000", path, NULL};
	char *check[] = {"/usr/bin/python3",
			 (char *)pts_source_path("tests/asciicast_check.py"),
			 path, NULL};
	char *check_env[] = {"LANG=C.UTF-8", NULL};
	const char *at;
	struct pts a;
	size_t i;

	record_into(dir, sizeof dir, NULL);
	bastion_ssh_tt_size(&bastion, &a, ALICE, 24, 10001);
	bastion_expect_prompt(&a, ALICE, T);
	pts_resize(&a, 65535, 65535);
	pts_type(&a, "id -un\r");
	bastion_expect(&a, ALICE, "\n" ALICE "\r", T);
	bastion_expect_prompt(&a, ALICE, T);
	pts_type(&a, "python3\r");
	bastion_expect(&a, ALICE, "interpreters run any program", T);
	bastion_expect_prompt(&a, ALICE, T);
	pts_resize(&a, 24, 10001);
	pts_type(&a, "uname\r");
	bastion_expect(&a, ALICE, "Linux\r", T);
	bastion_expect_prompt(&a, ALICE, T);
	pts_type(&a, "perl\r");
	bastion_expect(&a, ALICE, "denied by policy", T);
	bastion_expect_prompt(&a, ALICE, T);
	bastion_logout(&a, ALICE, 0, T);
	recording_of(dir, ALICE, path, sizeof path);
	/* the header: the size the session started with */
	text = pts_slurp(path);
	ck_assert_msg(strncmp(text,
			      "{\"version\":2,\"width\":10001,\"height\":24,",
			      37) == 0,
		      "%.200s", text);
	free(text);
	/* the administrator's player lists every decision, in order, and
	 * plays the recording to its end */
	ck_assert_msg(replay(markers, &out, &err) == 0,
		      "replay --markers: %s%s", out, err);
	for (i = 0, at = out; i < sizeof wanted / sizeof wanted[0]; i++) {
		at = strstr(at, wanted[i]);
		ck_assert_msg(at != NULL, "no \"%s\" after the last one in:\n%s",
			      wanted[i], out);
	}
	free(out);
	free(err);
	ck_assert_msg(replay(play, &out, &err) == 0, "replay: %s", err);
	ck_assert_msg(strstr(out, "Linux\r\n") != NULL, "%s", out);
	free(out);
	free(err);
	/* the independent reader, and the sizes as the terminal had them */
	ck_assert_msg(pts_run(check, check_env, &out, &err) == 0,
		      "asciicast_check: %s", err);
	ck_assert_msg(strstr(out, "resizes: [\"65535x65535\", "
				  "\"10001x24\"]") != NULL,
		      "%s", out);
	free(out);
	free(err);
	/* asciinema, Debian's, plays it to its end */
	if (access("/usr/bin/asciinema", X_OK) == 0) {
		char *ascii[] = {"/usr/bin/asciinema", "play", "-s", "1000",
				 "-i", "0.01", path, NULL};
		char *env[] = {"LANG=C.UTF-8", "TERM=dumb", "HOME=/tmp", NULL};
		struct pts p;

		pts_spawn_env(&p, ascii[0], ascii, env, NULL, NULL, 24, 80);
		ck_assert_msg(pts_wait(&p, T) == 0, "asciinema play: %s",
			      p.out);
		ck_assert_msg(strstr(p.out, "Linux\r\n") != NULL, "%s", p.out);
		pts_close(&p);
	}
	bastion_assert_log_verifies(&bastion);
}
END_TEST

/* Text of `bytes` bytes in lines of 64 (what a log or a listing prints),
 * in the user's home as `rel`. */
static void
home_text(const char *user, const char *rel, size_t bytes)
{
	char *text = malloc(bytes + 1);
	size_t i;

	ck_assert_ptr_nonnull(text);
	for (i = 0; i + 64 <= bytes; i += 64)
		snprintf(text + i, 65, "%063zu\n", i / 64);
	text[i] = '\0';
	bastion_home_file(&bastion, user, rel, text, 0644);
	free(text);
}

/* The end of what a session showed (its last 2000 bytes), for a message:
 * a session that printed megabytes is too long for one. */
static const char *
tail_of(const struct pts *p)
{
	return p->out + (p->len > 2000 ? p->len - 2000 : 0);
}

/* bastion_expect and bastion_expect_prompt with the end of the session
 * in the failure's message.  (A line's end is not waited for after much
 * output: the guard may draw its prompt before the last of it is relayed,
 * and the rest then ends in "\r\r\n".) */
static void
expect(struct pts *p, const char *who, const char *text, int timeout_ms)
{
	ck_assert_msg(pts_expect(p, text, timeout_ms),
		      "%s: no '%s' within %d ms, after: ...%s", who, text,
		      timeout_ms, tail_of(p));
}

static void
expect_prompt(struct pts *p, const char *who, int timeout_ms)
{
	ck_assert_msg(pts_wait_prompt(p, timeout_ms),
		      "%s: no prompt within %d ms, after: ...%s", who,
		      timeout_ms, tail_of(p));
}

/* Reads the session's terminal until it shows `good` (the test goes on),
 * or `bad` (the test fails: `broken` says what that means), or timeout_ms
 * passes. */
static void
expect_not(struct pts *p, const char *who, const char *good, const char *bad,
	   const char *broken, int timeout_ms)
{
	size_t from = p->mark;
	double end = bastion_now() + timeout_ms / 1000.0;

	for (;;) {
		ck_assert_msg(strstr(p->out + from, bad) == NULL,
			      "BROKEN: %s: ...%s", broken, tail_of(p));
		if (strstr(p->out + from, good) != NULL)
			break;
		ck_assert_msg(bastion_now() < end,
			      "%s: no '%s' within %d ms, after: ...%s", who,
			      good, timeout_ms, tail_of(p));
		pts_settle(p, 20);
	}
	p->mark = (size_t)(strstr(p->out + from, good) - p->out) + strlen(good);
}

/* Reads the sessions' terminals until each has shown `text`; the others'
 * are read meanwhile, so that no client stops its session by not reading.
 * Fails the test after timeout_ms with what they showed. */
static void
expect_all(struct pts *p, int n, const char *who, const char *text,
	   int timeout_ms)
{
	bool seen[8] = {false};
	double end = bastion_now() + timeout_ms / 1000.0;
	int left = n, i;

	ck_assert_int_le(n, 8);
	while (left > 0) {
		for (i = 0; i < n; i++) {
			if (seen[i]) {
				pts_settle(&p[i], 1);
			} else if (pts_expect(&p[i], text, 20)) {
				seen[i] = true;
				left--;
			}
		}
		if (left > 0 && bastion_now() > end)
			for (i = 0; i < n; i++)
				ck_assert_msg(seen[i],
					      "%s's session %d never showed "
					      "\"%s\": ...%s",
					      who, i, text, tail_of(&p[i]));
	}
}

/* One user's recordings cannot stop another's.  The recordings get a file
 * system of their own, 40 MiB (a tenth of the 400 MiB the issue was found
 * on): a reserve of 10 MiB, and a share of 5 MiB a user (an eighth).  bob
 * records 3 MiB of ordinary output - more than a quarter of the reserve,
 * which is what used to stop a session once the disk was low, whoever had
 * filled it - and stays logged in; alice runs four sessions that print
 * without end (record_max 8M each: 32 MiB, into the reserve), and bob then
 * prints some more.  Alice's recordings are stopped at her share, each
 * with a recording_stopped record that says so; bob's records on
 * (on_record_failure = deny: his lines would be refused otherwise), his
 * recording is complete and holds his later lines, and the disk keeps
 * most of its room.  (Before the shares, alice's sessions took the disk
 * to its reserve, where bob's next output stopped his recording and every
 * later line of his was refused.) */
START_TEST(test_recordings_one_users_flood_does_not_stop_anothers)
{
	char dir[500], path[1200], opts[64], *out, *err;
	char *mount_argv[] = {"/usr/bin/mount", "-t", "tmpfs", "-o", opts,
			      RECORDINGS_FS, dir, NULL};
	char *markers[] = {"replay", "--markers", path, NULL};
	const char *const stopped[] = {"\"event\":\"recording_stopped\"",
				       NULL};
	const char *const at_share[] = {
	    "\"event\":\"recording_stopped\"",
	    "open recordings are at their share of the recordings' file "
	    "system (record_share 5120 KiB)",
	    NULL};
	const char *const complete[] = {"\"event\":\"session_end\"",
					"\"recording_complete\":true", NULL};
	struct pts a[4], b;
	struct stat logdir;
	struct statvfs vfs;
	int i;

	record_into(dir, sizeof dir,
		    "record_max = 8M\non_record_failure = deny\n");
	unmount_records();
	snprintf(opts, sizeof opts, "size=40m,mode=0700");
	ck_assert_int_eq(root_run(mount_argv), 0);
	ck_assert_int_eq(stat(bastion.logdir, &logdir), 0);
	ck_assert_int_eq(chown(dir, logdir.st_uid, logdir.st_gid), 0);
	home_text(BOB, "ordinary.txt", 3u << 20);
	home_text(BOB, "more.txt", 320u << 10);
	home_text(ALICE, "flood.txt", 4u << 20);
	/* bob: 3 MiB of ordinary output, recorded; he stays */
	bastion_login(&bastion, &b, BOB, T);
	pts_type(&b, "cat ordinary.txt\r");
	expect(&b, BOB, "0000000000000000000000000000000000000000000"
				"49151",
		       3 * T);
	expect_prompt(&b, BOB, T);
	/* alice: four sessions printing without end */
	for (i = 0; i < 4; i++)
		bastion_login(&bastion, &a[i], ALICE, T);
	for (i = 0; i < 4; i++)
		pts_type(&a[i], "cat flood.txt flood.txt flood.txt flood.txt "
				"flood.txt flood.txt flood.txt flood.txt\r");
	expect_all(a, 4, ALICE, "recording of this session has stopped",
		   6 * T);
	/* bob's later lines run, and are recorded: some more ordinary
	 * output (what took a disk that alice had left just above its
	 * reserve into it), then two short lines */
	pts_type(&b, "cat more.txt\r");
	expect_not(&b, BOB,
		   "0000000000000000000000000000000000000000000"
		   "05119",
		   "recording of this session has stopped",
		   "alice's sessions stopped bob's recording", T);
	expect_prompt(&b, BOB, T);
	pts_type(&b, "id -un\r");
	expect_not(&b, BOB, "\n" BOB "\r", "denied",
		   "bob's lines are refused after alice's sessions", T);
	expect_prompt(&b, BOB, T);
	pts_type(&b, "uname\r");
	expect(&b, BOB, "Linux\r", T);
	expect_prompt(&b, BOB, T);
	ck_assert_msg(strstr(b.out, "recording of this session has stopped") ==
			  NULL,
		      "BROKEN: bob's recording stopped: ...%s", tail_of(&b));
	bastion_logout(&b, BOB, 0, T);
	for (i = 0; i < 4; i++) {
		pts_type(&a[i], "\x04");
		ck_assert_int_ne(pts_wait(&a[i], T), -1);
		pts_close(&a[i]);
	}
	/* the log: alice's four recordings stopped at her share, bob's none,
	 * and his recording complete */
	ck_assert_msg(bastion_log_count_user(&bastion, mark, ALICE, at_share) ==
			  4,
		      "alice's recordings did not all stop at her share:\n%s",
		      bastion_log_tail(&bastion, mark));
	ck_assert_int_eq(bastion_log_count_user(&bastion, mark, BOB, stopped),
			 0);
	ck_assert_int_eq(bastion_log_count_user(&bastion, mark, BOB, complete),
			 1);
	/* bob's recording, as the administrator reads it, holds his lines
	 * after alice's flood */
	recording_of(dir, BOB, path, sizeof path);
	ck_assert_msg(replay(markers, &out, &err) == 0, "%s%s", out, err);
	ck_assert_msg(strstr(out, "  allow: cat ordinary.txt\n") != NULL &&
			  strstr(out, "  allow: cat more.txt\n") != NULL &&
			  strstr(out, "  allow: id -un\n") != NULL &&
			  strstr(out, "  allow: uname\n") != NULL,
		      "%s", out);
	free(out);
	free(err);
	/* the disk keeps most of its room: alice took her share */
	ck_assert_int_eq(statvfs(dir, &vfs), 0);
	ck_assert_msg((unsigned long long)vfs.f_bavail * vfs.f_frsize >=
			  (28ull << 20),
		      "%llu bytes free of 40 MiB",
		      (unsigned long long)vfs.f_bavail * vfs.f_frsize);
	bastion_assert_log_verifies(&bastion);
	unmount_records();
}
END_TEST

/* One user's many sessions cannot take the files (inodes) every other
 * user's recording needs.  The recordings get a file system of their own
 * with room for bytes but only 32 files: a reserve of 8, of which each
 * user may make 2.  alice logs in and out again and again, each session
 * leaving its recording (a small file); once the file system is down to
 * that reserve, her next sessions after two more do not start, and say
 * why.  bob's session then starts, is recorded, and runs his lines.
 * (Before, alice's sessions took every file, and bob's session did not
 * start: "the session cannot be recorded ... No space left on device",
 * with the file system's bytes nearly all free.) */
START_TEST(test_recordings_one_users_sessions_leave_files_for_others)
{
	char dir[500], path[1200], opts[64];
	char *mount_argv[] = {"/usr/bin/mount", "-t", "tmpfs", "-o", opts,
			      RECORDINGS_FS, dir, NULL};
	const char *const complete[] = {"\"event\":\"session_end\"",
					"\"recording_complete\":true", NULL};
	struct stat logdir;
	struct statvfs vfs;
	struct pts a, b;
	int i;

	record_into(dir, sizeof dir, NULL);
	unmount_records();
	snprintf(opts, sizeof opts, "size=8m,nr_inodes=32,mode=0700");
	ck_assert_int_eq(root_run(mount_argv), 0);
	ck_assert_int_eq(stat(bastion.logdir, &logdir), 0);
	ck_assert_int_eq(chown(dir, logdir.st_uid, logdir.st_gid), 0);
	for (i = 0; i < 40; i++) {
		bastion_ssh_tt(&bastion, &a, ALICE);
		if (!pts_wait_prompt(&a, T))
			break; /* her session did not start */
		pts_type(&a, "\x04");
		ck_assert_int_ne(pts_wait(&a, T), -1);
		pts_close(&a);
	}
	ck_assert_msg(i < 40, "alice's 40 sessions all started");
	ck_assert_int_ne(pts_wait(&a, T), -1);
	ck_assert_msg(strstr(a.out, "the session cannot be recorded, so "
				    "it does not start: the recordings: "
				    "its file system is down to its "
				    "reserve of files") != NULL,
		      "alice's session %d: %s", i, a.out);
	pts_close(&a);
	/* bob's session starts, and is recorded */
	bastion_login(&bastion, &b, BOB, T);
	pts_type(&b, "id -un\r");
	bastion_expect(&b, BOB, "\n" BOB "\r", T);
	bastion_expect_prompt(&b, BOB, T);
	bastion_logout(&b, BOB, 0, T);
	ck_assert_int_eq(bastion_log_count_user(&bastion, mark, BOB, complete),
			 1);
	recording_of(dir, BOB, path, sizeof path);
	ck_assert_int_eq(statvfs(dir, &vfs), 0);
	ck_assert_msg(vfs.f_favail > 0, "no file left");
	bastion_assert_log_verifies(&bastion);
	unmount_records();
}
END_TEST

/* What a session shows reaches the user's terminal through the guard
 * alone, and so is in the recording.  sshd makes the terminal the user's,
 * and a program of the session (cp, under a policy that allows it) could
 * open it by its name and write a file's text to it, shown and never
 * recorded, or read the keys meant for the guard's prompt.  Now neither
 * opens it: "Permission denied", and the text is shown nowhere.
 * (Before, the file's text appeared on alice's terminal, and the
 * recording did not have it.) */
START_TEST(test_recordings_nothing_reaches_the_terminal_past_the_guard)
{
	struct bastion_tools tools;
	char dir[500], text[600], policy[PATH_MAX], line[700], link[64];
	char term[64];
	struct pts a;
	pid_t guard;
	ssize_t n;

	record_into(dir, sizeof dir, NULL);
	bastion_tools_install(&bastion, &tools);
	bastion_use_attack_policy(&bastion, &tools, true);
	snprintf(policy, sizeof policy, "%s/share/maelys-pty/policies/%s",
		 bastion.prefix, "attacks.dl");
	snprintf(text, sizeof text, "record = %s\n", dir);
	bastion_configure_path(&bastion, policy, tools.path, text);
	bastion_home_file(&bastion, ALICE, "past.txt", "shown-past-the-guard\n",
			  0644);
	bastion_login(&bastion, &a, ALICE, T);
	/* the terminal sshd gave the session, as root sees it */
	guard = bastion_only_guard(&bastion, ALICE);
	snprintf(link, sizeof link, "/proc/%d/fd/0", (int)guard);
	n = readlink(link, term, sizeof term - 1);
	ck_assert_int_gt(n, 0);
	term[n] = '\0';
	ck_assert_msg(strncmp(term, "/dev/pts/", 9) == 0, "%s", term);
	snprintf(line, sizeof line, "cp past.txt %s\r", term);
	pts_type(&a, line);
	expect(&a, ALICE, "Permission denied", T);
	expect_prompt(&a, ALICE, T);
	snprintf(line, sizeof line, "cat %s\r", term);
	pts_type(&a, line);
	expect(&a, ALICE, "Permission denied", T);
	expect_prompt(&a, ALICE, T);
	ck_assert_msg(strstr(a.out, "shown-past-the-guard") == NULL,
		      "a program wrote to alice's terminal past the guard: "
		      "...%s",
		      tail_of(&a));
	bastion_logout(&a, ALICE, 0, T);
	bastion_home_remove(&bastion, ALICE, "past.txt");
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("recordings");

	tcase_set_timeout(tc, 300);
	tcase_add_unchecked_fixture(tc, recordings_up, recordings_down);
	tcase_add_checked_fixture(tc, each_setup, NULL);
	tcase_add_test(tc, test_recordings_any_terminal_size_reads_to_the_end);
	tcase_add_test(tc,
		       test_recordings_one_users_flood_does_not_stop_anothers);
	tcase_add_test(
	    tc, test_recordings_one_users_sessions_leave_files_for_others);
	tcase_add_test(
	    tc, test_recordings_nothing_reaches_the_terminal_past_the_guard);
	suite_add_tcase(s, tc);
	return s;
}
