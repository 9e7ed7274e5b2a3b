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
 *     its end: every decision after the resizes is in it.
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
#include <unistd.h>

#define T 20000 /* ms for any one answer */

static struct bastion bastion;
static size_t mark; /* the log's size when the running test started */

static void
recordings_up(void)
{
	bastion_up_suite(&bastion, "check_pty_recordings");
}

static void
recordings_down(void)
{
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
	snprintf(dir, cap, "%s/sessions", bastion.logdir);
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
	bastion_ssh_tt_sized(&bastion, &a, ALICE, 24, 10001);
	bastion_expect_prompt(&a, ALICE, T);
	pts_resize(&a, 65535, 65535);
	pts_type(&a, "id -un\r");
	bastion_expect(&a, ALICE, ALICE "\r\n", T);
	bastion_expect_prompt(&a, ALICE, T);
	pts_type(&a, "python3\r");
	bastion_expect(&a, ALICE, "interpreters run any program", T);
	bastion_expect_prompt(&a, ALICE, T);
	pts_resize(&a, 24, 10001);
	pts_type(&a, "uname\r");
	bastion_expect(&a, ALICE, "Linux\r\n", T);
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

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("recordings");

	tcase_set_timeout(tc, 300);
	tcase_add_unchecked_fixture(tc, recordings_up, recordings_down);
	tcase_add_checked_fixture(tc, each_setup, NULL);
	tcase_add_test(tc, test_recordings_any_terminal_size_reads_to_the_end);
	suite_add_tcase(s, tc);
	return s;
}
