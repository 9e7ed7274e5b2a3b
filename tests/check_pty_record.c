/* SPDX-License-Identifier: MIT */
/*
 * Session recording end to end, through the real binary on a
 * pseudo-terminal (record = DIR): the file is asciicast v2 as an
 * independent reader (tests/asciicast_check.py, Python's json) and
 * asciinema itself (when installed) read it; the session's output, its
 * window sizes and a marker per decision are in it, typed keys only with
 * record_input = on; the session_end record carries the file's size and
 * SHA-256, as sha256sum(1) computes them; at record_max the recording
 * stops, the audit log says so, and on_record_failure refuses the next
 * line (deny) or ends the session (terminate).
 *
 * The configuration must be root's, so the suite needs root (CI runs as
 * root); otherwise it says so and is skipped.  That the user cannot read
 * the file of a setuid install is check_pty_deployed's.
 */
#define _GNU_SOURCE
#include "runner.h"

#include "pty_harness.h"
#include "pty_session.h"

#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define T 10000

static const char policy_text[] =
    ".decl safe(c)\n"
    "safe(\"echo\"). safe(\"true\"). safe(\"cat\"). safe(\"head\").\n"
    "safe(\"exit\").\n"
    "allow(C) :- command(C), safe(C), not(shell_metachar(_)).\n"
    "deny(C, \"not on the list\") :- command(C), not(safe(C)).\n"
    "allow_exec(P) :- exec_path(P).\n";

static struct pts_world world;
static char config[600], policy[600], key[600], log_path[600], dir[600],
    big[600];

/* A world with a policy, a key, an audit log, a recording folder (root's,
 * 0700) and a configuration naming them, plus the extra lines given. */
static void
setup(const char *extra)
{
	char text[4096];

	pts_world_make(&world);
	snprintf(policy, sizeof policy, "%s/p.dl", world.dir);
	pts_write_file(policy, policy_text, 0644);
	snprintf(key, sizeof key, "%s/audit.key", world.dir);
	pts_write_audit_key(key);
	snprintf(log_path, sizeof log_path, "%s/audit.log", world.dir);
	snprintf(dir, sizeof dir, "%s/sessions", world.dir);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	snprintf(config, sizeof config, "%s/maelys-pty.conf", world.dir);
	snprintf(text, sizeof text,
		 "policy = %s\npath = %s\naudit_log = %s\naudit_key = %s\n"
		 "syslog = off\nrecord = %s\n%s",
		 policy, world.path_env, log_path, key, dir, extra);
	pts_write_file(config, text, 0644);
}

static void
teardown(void)
{
	pts_world_remove(&world);
}

/* The one recording in the folder (the test fails unless there is
 * exactly one). */
static void
the_recording(char *path, size_t cap)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		ck_assert_ptr_nonnull(strstr(e->d_name, ".cast"));
		snprintf(path, cap, "%s/%s", dir, e->d_name);
		n++;
	}
	closedir(d);
	ck_assert_int_eq(n, 1);
}

/* What tests/asciicast_check.py says of the file: it must accept it. */
static char *
checked(const char *path)
{
	char *argv[] = {"/usr/bin/python3",
			(char *)pts_source_path("tests/asciicast_check.py"),
			(char *)path, NULL};
	char *envp[] = {"LANG=C.UTF-8", NULL};
	char *out, *err;

	ck_assert_msg(pts_run(argv, envp, &out, &err) == 0,
		      "the asciicast reader refused %s: %s", path, err);
	free(err);
	return out;
}

/* The value of "name":"..." or "name":N in the audit log's session_end
 * record, into out. */
static void
session_end_field(const char *name, char *out, size_t cap)
{
	char *log = pts_slurp(log_path), want[64];
	const char *end = strstr(log, "\"event\":\"session_end\"");
	const char *at;
	size_t n;

	ck_assert_msg(end != NULL, "no session_end in %s", log);
	snprintf(want, sizeof want, "\"%s\":", name);
	at = strstr(end, want);
	ck_assert_msg(at != NULL, "no %s in session_end: %s", name, end);
	at += strlen(want);
	if (*at == '"')
		at++;
	n = strcspn(at, "\",}");
	ck_assert_uint_lt(n, cap);
	memcpy(out, at, n);
	out[n] = '\0';
	free(log);
}

/* Runs one session: the lines typed one by one, each waiting for the
 * prompt, then Ctrl-D. */
static void
session(const char *const lines[])
{
	struct pts p;
	size_t i;

	pts_start_config(&p, &world, config);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	for (i = 0; lines[i] != NULL; i++) {
		pts_type(&p, lines[i]);
		ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	}
	pts_type(&p, "\x04");
	ck_assert_int_eq(pts_wait(&p, T), 0);
	pts_close(&p);
}

START_TEST(test_record_session_is_asciicast_with_output_and_markers)
{
	static const char *const lines[] = {"echo recorded-out-$((6*7))\r",
					    "echo ok-line\r", "shutdown now\r",
					    NULL};
	char path[1200], digest[80], bytes[40], field[1300];
	char *argv[] = {"/usr/bin/sha256sum", path, NULL};
	char *report, *out, *err;
	struct stat st;

	setup("");
	session(lines);
	the_recording(path, sizeof path);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	report = checked(path);
	/* what the session showed: the shell's output, the lines at the
	 * guard's prompt */
	ck_assert_msg(strstr(report, "ok-line\\r\\n") != NULL, "%s", report);
	ck_assert_msg(strstr(report, "$ echo ok-line\\r\\n") != NULL ||
			  strstr(report, "# echo ok-line\\r\\n") != NULL,
		      "%s", report);
	/* a marker for each decision, allowed or refused */
	ck_assert_msg(strstr(report, "\"allow: echo ok-line\"") != NULL, "%s",
		      report);
	ck_assert_ptr_nonnull(strstr(report, "\"deny: shutdown now\""));
	ck_assert_ptr_nonnull(
	    strstr(report, "\"deny: echo recorded-out-$((6*7))\""));
	/* no keys: record_input is off */
	ck_assert_ptr_nonnull(strstr(report, "input: \"\"\n"));
	free(report);
	/* the chain vouches for the file as it is */
	session_end_field("recording", field, sizeof field);
	ck_assert_str_eq(field, path);
	session_end_field("recording_sha256", digest, sizeof digest);
	ck_assert_int_eq(pts_run(argv, NULL, &out, &err), 0);
	ck_assert_msg(strncmp(out, digest, 64) == 0 && strlen(digest) == 64,
		      "sha256sum: %s, session_end: %s", out, digest);
	free(out);
	free(err);
	session_end_field("recording_bytes", bytes, sizeof bytes);
	ck_assert_str_eq(bytes, (snprintf(field, sizeof field, "%lld",
					  (long long)st.st_size),
				 field));
	session_end_field("recording_complete", field, sizeof field);
	ck_assert_str_eq(field, "true");
	/* maelys-pty replay reads it: its markers, and what the screen
	 * showed */
	{
		char *markers[] = {(char *)pts_build_path("pty/maelys-pty"),
				   "replay", "--markers", path, NULL};
		char *play[] = {(char *)pts_build_path("pty/maelys-pty"),
				"replay", "--speed", "1000", path, NULL};

		ck_assert_int_eq(pts_run(markers, NULL, &out, &err), 0);
		ck_assert_msg(strstr(out, "  allow: echo ok-line\n") != NULL &&
				  strstr(out, "  deny: shutdown now\n") != NULL,
			      "%s%s", out, err);
		free(out);
		free(err);
		ck_assert_int_eq(pts_run(play, NULL, &out, &err), 0);
		ck_assert_msg(strstr(out, "ok-line\r\n") != NULL, "%s%s", out,
			      err);
		free(out);
		free(err);
	}
	/* and the records with the recording's members verify */
	ck_assert_int_eq(pts_verify_log(config, log_path, &out, &err), 0);
	ck_assert_msg(strstr(out, "chain intact") != NULL, "%s%s", out, err);
	free(out);
	free(err);
	teardown();
}
END_TEST

/* asciinema itself plays it back (`asciinema cat` needs a terminal). */
START_TEST(test_record_asciinema_cat_reads_it)
{
	static const char *const lines[] = {"echo for-asciinema\r", NULL};
	char path[1200];
	char *argv[] = {"/usr/bin/asciinema", "cat", path, NULL};
	char *envp[] = {"LANG=C.UTF-8", "TERM=dumb", "HOME=/tmp", NULL};
	struct pts p;

	if (access("/usr/bin/asciinema", X_OK) != 0) {
		fprintf(stderr,
			"SKIP: asciinema is not installed (the Debian "
			"package asciinema; bootstrap installs it)\n");
		return;
	}
	setup("");
	session(lines);
	the_recording(path, sizeof path);
	pts_spawn_env(&p, argv[0], argv, envp, NULL, NULL, 24, 80);
	ck_assert_int_eq(pts_wait(&p, T), 0);
	ck_assert_msg(strstr(p.out, "for-asciinema\r\n") != NULL, "%s", p.out);
	pts_close(&p);
	teardown();
}
END_TEST

/* A job's keys, and the window's sizes. */
static char *
session_with_keys(void)
{
	char path[1200];
	struct pts p;

	pts_start_config(&p, &world, config);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	pts_type(&p, "head -n 1\r");
	pts_settle(&p, 500);
	pts_resize(&p, 30, 100);
	pts_settle(&p, 300);
	pts_type(&p, "typed-by-hand\r");
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	pts_type(&p, "\x04");
	ck_assert_int_eq(pts_wait(&p, T), 0);
	pts_close(&p);
	the_recording(path, sizeof path);
	return checked(path);
}

/* Any size a terminal may be given is recorded as it was given, at the
 * start and after each change, and maelys-pty replay, asciinema's reader
 * and the independent one read the recording to its end: the markers after
 * a size of 65535x65535 are all there.  (A session started 10001 columns
 * wide did not start; one resized to 65535x65535 had a recording that
 * replay stopped reading at the size.) */
START_TEST(test_record_any_terminal_size_is_recorded_and_read)
{
	char hist[700], path[1200];
	char *argv[] = {(char *)pts_build_path("pty/maelys-pty"), "--config",
			config, "--history", hist, NULL};
	char *markers[] = {(char *)pts_build_path("pty/maelys-pty"), "replay",
			   "--markers", path, NULL};
	char *play[] = {(char *)pts_build_path("pty/maelys-pty"), "replay",
			"--speed", "1000", path, NULL};
	char *report, *out, *err;
	struct pts p;

	setup("");
	snprintf(hist, sizeof hist, "%s/history", world.home);
	pts_spawn(&p, &world, argv, 24, 10001);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	pts_resize(&p, 65535, 65535);
	pts_settle(&p, 300);
	pts_type(&p, "echo after-the-largest\r");
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	pts_resize(&p, 24, 10001);
	pts_settle(&p, 300);
	pts_type(&p, "shutdown now\r");
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	pts_type(&p, "\x04");
	ck_assert_int_eq(pts_wait(&p, T), 0);
	pts_close(&p);
	the_recording(path, sizeof path);
	report = checked(path);
	ck_assert_msg(strstr(report, "resizes: [\"65535x65535\", "
				     "\"10001x24\"]") != NULL,
		      "%s", report);
	free(report);
	report = pts_slurp(path);
	ck_assert_msg(strncmp(report, "{\"version\":2,\"width\":10001,"
				      "\"height\":24,",
			      37) == 0,
		      "%.100s", report);
	free(report);
	ck_assert_int_eq(pts_run(markers, NULL, &out, &err), 0);
	ck_assert_msg(strstr(out, "  allow: echo after-the-largest\n") != NULL &&
			  strstr(out, "  deny: shutdown now\n") != NULL,
		      "%s%s", out, err);
	free(out);
	free(err);
	ck_assert_int_eq(pts_run(play, NULL, &out, &err), 0);
	ck_assert_msg(strstr(out, "after-the-largest\r\n") != NULL, "%s%s",
		      out, err);
	free(out);
	free(err);
	if (access("/usr/bin/asciinema", X_OK) == 0) {
		char *cat[] = {"/usr/bin/asciinema", "cat", path, NULL};
		char *envp[] = {"LANG=C.UTF-8", "TERM=dumb", "HOME=/tmp", NULL};

		pts_spawn_env(&p, cat[0], cat, envp, NULL, NULL, 24, 80);
		ck_assert_int_eq(pts_wait(&p, T), 0);
		ck_assert_msg(strstr(p.out, "after-the-largest\r\n") != NULL,
			      "%s", p.out);
		pts_close(&p);
	}
	teardown();
}
END_TEST

START_TEST(test_record_input_only_with_record_input)
{
	char *report;

	setup("");
	report = session_with_keys();
	ck_assert_msg(strstr(report, "input: \"\"\n") != NULL, "%s", report);
	ck_assert_ptr_nonnull(strstr(report, "resizes: [\"100x30\"]"));
	free(report);
	teardown();

	setup("record_input = on\n");
	report = session_with_keys();
	ck_assert_msg(strstr(report, "input: \"typed-by-hand\\r\"\n") != NULL,
		      "%s", report);
	free(report);
	teardown();
}
END_TEST

/* A file of `bytes` bytes of printable lines in the world. */
static void
make_big(size_t bytes)
{
	FILE *f;
	size_t i;

	snprintf(big, sizeof big, "%s/big.txt", world.dir);
	f = fopen(big, "w");
	ck_assert_ptr_nonnull(f);
	for (i = 0; i < bytes / 64; i++)
		fprintf(f, "%062zu\n", i);
	fclose(f);
	ck_assert_int_eq(chmod(big, 0644), 0);
}

START_TEST(test_record_max_stops_and_deny_refuses_the_next_line)
{
	char path[1200], line[700], field[40];
	struct stat st;
	char *report, *log;
	struct pts p;

	setup("record_max = 1M\n");
	make_big(3u << 20);
	pts_start_config(&p, &world, config);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	snprintf(line, sizeof line, "cat %s\r", big);
	pts_type(&p, line);
	ck_assert_msg(pts_wait_prompt(&p, 3 * T), "%s", p.out);
	ck_assert_ptr_nonnull(strstr(p.out, "recording of this session has "
					    "stopped"));
	pts_type(&p, "echo after-the-stop\r");
	ck_assert(pts_expect(&p, "'echo' denied: the recording of this "
				 "session has stopped",
			     T));
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "\x04");
	pts_wait(&p, T);
	pts_close(&p);
	the_recording(path, sizeof path);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_le(st.st_size, 1 << 20);
	report = checked(path);
	ck_assert_ptr_nonnull(
	    strstr(report, "\"recording stopped: record_max reached\""));
	ck_assert_ptr_null(strstr(report, "after-the-stop"));
	free(report);
	log = pts_slurp(log_path);
	ck_assert_ptr_nonnull(strstr(log, "\"event\":\"recording_stopped\""));
	ck_assert_ptr_nonnull(strstr(
	    log, "\"line\":\"echo after-the-stop\",\"tokens\":[\"echo\","
		 "\"after-the-stop\"],\"metachars\":[],\"decision\":"
		 "\"refused\""));
	free(log);
	session_end_field("recording_complete", field, sizeof field);
	ck_assert_str_eq(field, "false");
	teardown();
}
END_TEST

START_TEST(test_record_max_with_terminate_ends_the_session)
{
	char line[700];
	struct pts p;

	setup("record_max = 1M\non_record_failure = terminate\n");
	make_big(3u << 20);
	pts_start_config(&p, &world, config);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	snprintf(line, sizeof line, "cat %s\r", big);
	pts_type(&p, line);
	ck_assert_int_ne(pts_wait(&p, 3 * T), -1);
	ck_assert_ptr_nonnull(
	    strstr(p.out, "recording of this session has stopped (it reached "
			  "record_max or your share of its disk, or could not "
			  "be written): the session ends"));
	pts_close(&p);
	teardown();
}
END_TEST

/* A folder others may write to is refused: no session without its
 * recording. */
START_TEST(test_record_folder_writable_by_others_starts_nothing)
{
	struct pts p;

	setup("");
	ck_assert_int_eq(chmod(dir, 0777), 0);
	pts_start_config(&p, &world, config);
	ck_assert_int_eq(pts_wait(&p, T), 1);
	ck_assert_msg(strstr(p.out, "the session cannot be recorded, so it "
				    "does not start") != NULL &&
			  strstr(p.out, "writable by group or others") != NULL,
		      "%s", p.out);
	pts_close(&p);
	teardown();
}
END_TEST

/* A guard killed in the middle of its session: its writer still closes
 * the recording and appends the fallback session_end, which describes
 * it. */
START_TEST(test_record_guard_killed_still_ends_the_recording)
{
	char path[1200], digest[80], field[1300];
	char *argv[] = {"/usr/bin/sha256sum", path, NULL};
	char *out, *err, *log;
	struct pts p;
	int i;

	setup("");
	pts_start_config(&p, &world, config);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	pts_type(&p, "echo before-the-kill\r");
	ck_assert(pts_wait_prompt(&p, T));
	ck_assert_int_eq(kill(p.pid, SIGKILL), 0);
	pts_wait(&p, T);
	pts_close(&p);
	/* the writer appends the fallback once it sees the guard gone */
	for (i = 0; i < 100; i++) {
		log = pts_slurp(log_path);
		if (strstr(log, "\"event\":\"session_end\"") != NULL)
			break;
		free(log);
		log = NULL;
		usleep(100 * 1000);
	}
	ck_assert_ptr_nonnull(log);
	ck_assert_ptr_nonnull(
	    strstr(log, "the guard ended without ending the session"));
	free(log);
	the_recording(path, sizeof path);
	free(checked(path));
	/* killed, the guard could not say it had handed over all */
	session_end_field("recording_complete", field, sizeof field);
	ck_assert_str_eq(field, "false");
	session_end_field("recording", field, sizeof field);
	ck_assert_str_eq(field, path);
	session_end_field("recording_sha256", digest, sizeof digest);
	ck_assert_int_eq(pts_run(argv, NULL, &out, &err), 0);
	ck_assert_msg(strncmp(out, digest, 64) == 0, "%s / %s", out, digest);
	free(out);
	free(err);
	teardown();
}
END_TEST

/* The guard's child that is not bash: its audit writer (forked, so it
 * keeps the guard's name).  0 when there is none. */
static pid_t
writer_of(pid_t guard)
{
	char path[128], kids[4096] = "", *at, comm[64];
	pid_t found = 0;
	FILE *k;

	/* read, not stat'ed: a /proc file has no size */
	snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)guard,
		 (int)guard);
	k = fopen(path, "r");
	ck_assert_ptr_nonnull(k);
	kids[fread(kids, 1, sizeof kids - 1, k)] = '\0';
	fclose(k);
	for (at = kids; *at != '\0';) {
		long pid = strtol(at, &at, 10);
		FILE *f;

		if (pid <= 0)
			break;
		snprintf(path, sizeof path, "/proc/%ld/comm", pid);
		f = fopen(path, "r");
		if (f != NULL && fgets(comm, sizeof comm, f) != NULL &&
		    strncmp(comm, "maelys-pty", 10) == 0)
			found = (pid_t)pid;
		if (f != NULL)
			fclose(f);
	}
	return found;
}

/* A writer that stalls (stopped here) holds back nothing but what waits
 * for it: the keys of a job and its output still reach the terminal, and
 * once it goes on, the recording has all of it. */
START_TEST(test_record_stalled_writer_does_not_freeze_the_terminal)
{
	char path[1200];
	char *report;
	struct pts p;
	pid_t w;

	setup("");
	pts_start_config(&p, &world, config);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	pts_type(&p, "head -n 1\r");
	pts_settle(&p, 500);
	w = writer_of(p.pid);
	ck_assert_int_gt(w, 0);
	ck_assert_int_eq(kill(w, SIGSTOP), 0);
	pts_type(&p, "typed-while-stalled\r");
	/* the terminal's echo, then head's output, then the prompt: all
	 * without the writer */
	ck_assert_msg(pts_expect(&p, "typed-while-stalled\r\ntyped-while-"
				     "stalled\r\n",
				 3000),
		      "%s", p.out);
	ck_assert_msg(pts_wait_prompt(&p, 3000), "%s", p.out);
	ck_assert_int_eq(kill(w, SIGCONT), 0);
	pts_type(&p, "echo after-the-stall\r");
	ck_assert(pts_expect(&p, "\r\nafter-the-stall\r\n", T));
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "\x04");
	ck_assert_int_eq(pts_wait(&p, T), 0);
	pts_close(&p);
	the_recording(path, sizeof path);
	report = checked(path);
	ck_assert_msg(strstr(report, "typed-while-stalled\\r\\n") != NULL &&
			  strstr(report, "after-the-stall\\r\\n") != NULL,
		      "%s", report);
	free(report);
	teardown();
}
END_TEST

/* Waits for the session_end record the writer appends once it sees the
 * guard gone; the log's text (the test fails without it). */
static char *
wait_session_end(void)
{
	char *log = NULL;
	int i;

	for (i = 0; i < 200; i++) {
		log = pts_slurp(log_path);
		if (strstr(log, "\"event\":\"session_end\"") != NULL)
			return log;
		free(log);
		usleep(100 * 1000);
	}
	ck_abort_msg("no session_end in %s", log_path);
	return NULL;
}

/* A guard killed (the user can: it runs as the user) while the writer
 * lags has shown output the writer never got: the recording cannot say
 * it is complete. */
START_TEST(test_record_guard_killed_with_output_queued_is_incomplete)
{
	char path[1200], field[40];
	struct stat st;
	char *log;
	struct pts p;
	pid_t w;
	int i;

	setup("");
	pts_start_config(&p, &world, config);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	w = writer_of(p.pid);
	ck_assert_int_gt(w, 0);
	/* output without end; the writer stopped once it has some */
	pts_type(&p, "cat /dev/zero\r");
	the_recording(path, sizeof path);
	for (i = 0; i < 100 && (stat(path, &st) != 0 || st.st_size < 100000);
	     i++)
		pts_settle(&p, 50); /* the terminal reads it */
	ck_assert_int_ge(st.st_size, 100000);
	ck_assert_int_eq(kill(w, SIGSTOP), 0);
	/* the guard queues output until its queue is full */
	pts_settle(&p, 1500);
	ck_assert_int_eq(kill(p.pid, SIGKILL), 0);
	pts_wait(&p, T);
	pts_close(&p);
	ck_assert_int_eq(kill(w, SIGCONT), 0);
	log = wait_session_end();
	session_end_field("recording_complete", field, sizeof field);
	ck_assert_str_eq(field, "false");
	ck_assert_ptr_nonnull(strstr(log, "\"event\":\"recording_stopped\""));
	ck_assert_ptr_nonnull(strstr(log, "the guard's stream ended before "
					  "its end"));
	free(log);
	free(checked(path));
	teardown();
}
END_TEST

/* The guard's queue overflows (keys of a job, recorded with
 * record_input, are never held back, and the writer is stopped here):
 * the 'x' frame reaches the writer, the recording stops as incomplete,
 * the log says why; the user is told at once, the job is ended, and the
 * next line is refused. */
START_TEST(test_record_queue_overflow_stops_the_recording)
{
	static const char allow_more[] =
	    ".decl safe(c)\n"
	    "safe(\"echo\"). safe(\"stty\"). safe(\"tail\").\n"
	    "allow(C) :- command(C), safe(C), not(shell_metachar(_)).\n"
	    "deny(C, \"not on the list\") :- command(C), not(safe(C)).\n"
	    "allow_exec(P) :- exec_path(P).\n";
	static const char stopped[] = "recording of this session has stopped";
	size_t n = 2u << 20, i, sent;
	char field[40], *keys, *log;
	struct pts p;
	pid_t w;

	setup("record_input = on\n");
	pts_write_file(policy, allow_more, 0644);
	pts_start_config(&p, &world, config);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	pts_type(&p, "stty -echo\r");
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "tail -c 3\r");
	pts_settle(&p, 500);
	w = writer_of(p.pid);
	ck_assert_int_gt(w, 0);
	ck_assert_int_eq(kill(w, SIGSTOP), 0);
	/* up to 2 MiB of keys, twice what the queue holds, until the
	 * guard says the recording stopped (then the job is ended, and
	 * what is typed after is refused at the prompt) */
	keys = malloc(n);
	ck_assert_ptr_nonnull(keys);
	for (i = 0; i < n; i++)
		keys[i] = i % 64 == 63 ? '\r' : 'k';
	for (sent = 0; sent < n && strstr(p.out, stopped) == NULL;
	     sent += 8192) {
		pts_type_n(&p, keys + sent, 8192);
		pts_settle(&p, 5);
	}
	free(keys);
	ck_assert_msg(sent < n, "the queue took 2 MiB with the writer stopped");
	ck_assert_int_eq(kill(w, SIGCONT), 0);
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "echo after-the-overflow\r");
	ck_assert(pts_expect(&p, "'echo' denied: the recording of this "
				 "session has stopped",
			     T));
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "\x04");
	pts_wait(&p, T);
	pts_close(&p);
	session_end_field("recording_complete", field, sizeof field);
	ck_assert_str_eq(field, "false");
	log = pts_slurp(log_path);
	ck_assert_ptr_nonnull(strstr(log, "the guard could not keep up (its "
					  "queue overflowed)"));
	free(log);
	teardown();
}
END_TEST

/* record_max reached while a program runs (on_record_failure = deny): a
 * program that runs on would go on unrecorded (an interpreter's prompt
 * needs no further command), so the session's programs are ended, bash
 * comes back to the prompt, and every line is refused. */
START_TEST(test_record_max_ends_the_running_program)
{
	char field[40];
	struct pts p;

	setup("record_max = 1M\n");
	pts_write_file(policy,
		       ".decl safe(c)\n"
		       "safe(\"echo\"). safe(\"yes\").\n"
		       "allow(C) :- command(C), safe(C), "
		       "not(shell_metachar(_)).\n"
		       "deny(C, \"not on the list\") :- command(C), "
		       "not(safe(C)).\n"
		       "allow_exec(P) :- exec_path(P).\n",
		       0644);
	pts_start_config(&p, &world, config);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	/* output without end, and no further command */
	pts_type(&p, "yes\r");
	ck_assert(pts_expect(&p, "recording of this session has stopped",
			     3 * T));
	ck_assert_msg(pts_wait_prompt(&p, T), "the program runs on");
	pts_type(&p, "echo after-the-stop\r");
	ck_assert(pts_expect(&p, "'echo' denied: the recording of this "
				 "session has stopped",
			     T));
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "\x04");
	pts_wait(&p, T);
	pts_close(&p);
	session_end_field("recording_complete", field, sizeof field);
	ck_assert_str_eq(field, "false");
	teardown();
}
END_TEST

/* A marker shows 200 bytes of a line: one cut says so, lest what follows
 * the cut (a second command) pass unseen by who reads the markers. */
START_TEST(test_record_marker_of_a_long_line_says_it_was_cut)
{
	char line[400], want[400], path[1200];
	const char *lines[] = {line, NULL};
	char *report;

	setup("");
	/* 5 + 250 + 12 bytes: 67 past the 200 shown */
	snprintf(line, sizeof line, "echo %0250d TAIL-HIDDEN\r", 0);
	session(lines);
	the_recording(path, sizeof path);
	report = checked(path);
	snprintf(want, sizeof want,
		 "\"allow: echo %0195d [cut: 67 bytes more in the audit "
		 "log]\"",
		 0);
	ck_assert_msg(strstr(report, want) != NULL, "%s", report);
	free(report);
	teardown();
}
END_TEST

/* --check judges the folder as it judges the log's. */
START_TEST(test_record_check_names_the_folder)
{
	char *argv[] = {(char *)pts_build_path("pty/maelys-pty"), "--check",
			"--config", config, NULL};
	char *out, *err, want[1600];

	setup("");
	ck_assert_int_eq(chmod(dir, 0777), 0);
	(void)pts_run(argv, NULL, &out, &err);
	snprintf(want, sizeof want,
		 "error: record = %s is writable by group or others (mode "
		 "0777): chmod 0700 %s",
		 dir, dir);
	ck_assert_msg(strstr(out, want) != NULL || strstr(err, want) != NULL,
		      "%s%s", out, err);
	free(out);
	free(err);
	ck_assert_int_eq(chmod(dir, 0700), 0);
	(void)pts_run(argv, NULL, &out, &err);
	ck_assert_msg(strstr(out, "record =") == NULL &&
			  strstr(err, "record =") == NULL,
		      "%s%s", out, err);
	free(out);
	free(err);
	teardown();
}
END_TEST

/* The keys' values: sizes with their units and bounds, record without a
 * log. */
START_TEST(test_record_configuration_keys)
{
	static const struct {
		const char *text, *error;
		unsigned long long max;
	} cases[] = {
	    {"record_max = 2M\n", NULL, 2ull << 20},
	    {"record_max = 1G\n", NULL, 1ull << 30},
	    {"record_max = 3000000\n", NULL, 3000000},
	    {"", NULL, 256ull << 20},
	    {"record_max = 512K\n", "is out of range (1M to 64G)", 0},
	    {"record_max = 65G\n", "is out of range (1M to 64G)", 0},
	    {"record_max = 99999999999999999999999M\n", "out of range", 0},
	    {"record_max = 2MB\n", "is not a size", 0},
	    {"record_max = -2M\n", "is not a size", 0},
	    {"record_input = maybe\n", "is not on, off", 0},
	    {"on_record_failure = ignore\n", "is not deny or terminate", 0},
	};
	struct pty_config c;
	char path[700], text[4000], err[512];
	size_t i;

	setup("");
	snprintf(path, sizeof path, "%s/k.conf", world.dir);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(text, sizeof text,
			 "policy = %s\naudit_log = %s\naudit_key = %s\n"
			 "record = %s\n%s",
			 policy, log_path, key, dir, cases[i].text);
		pts_write_file(path, text, 0644);
		if (cases[i].error == NULL) {
			ck_assert_msg(pty_config_load(path, &c, err,
						      sizeof err) == 0,
				      "%s: %s", cases[i].text, err);
			ck_assert_uint_eq(c.record_max, cases[i].max);
			ck_assert_str_eq(c.record, dir);
			ck_assert(!c.record_input);
			ck_assert_int_eq(c.on_record_failure,
					 PTY_AUDIT_FAIL_DENY);
		} else {
			ck_assert_int_eq(
			    pty_config_load(path, &c, err, sizeof err), -1);
			ck_assert_msg(strstr(err, cases[i].error) != NULL,
				      "%s: %s", cases[i].text, err);
		}
	}
	snprintf(text, sizeof text, "policy = %s\nrecord = %s\n", policy, dir);
	pts_write_file(path, text, 0644);
	ck_assert_int_eq(pty_config_load(path, &c, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "record without audit_log"));
	teardown();
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("record");

	pts_require_root("check_pty_record",
			 "the configuration must be root's");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc,
		       test_record_session_is_asciicast_with_output_and_markers);
	tcase_add_test(tc, test_record_asciinema_cat_reads_it);
	tcase_add_test(tc, test_record_any_terminal_size_is_recorded_and_read);
	tcase_add_test(tc, test_record_input_only_with_record_input);
	tcase_add_test(tc, test_record_max_stops_and_deny_refuses_the_next_line);
	tcase_add_test(tc, test_record_max_with_terminate_ends_the_session);
	tcase_add_test(tc, test_record_folder_writable_by_others_starts_nothing);
	tcase_add_test(tc, test_record_guard_killed_still_ends_the_recording);
	tcase_add_test(tc, test_record_stalled_writer_does_not_freeze_the_terminal);
	tcase_add_test(tc, test_record_guard_killed_with_output_queued_is_incomplete);
	tcase_add_test(tc, test_record_queue_overflow_stops_the_recording);
	tcase_add_test(tc, test_record_max_ends_the_running_program);
	tcase_add_test(tc, test_record_marker_of_a_long_line_says_it_was_cut);
	tcase_add_test(tc, test_record_check_names_the_folder);
	tcase_add_test(tc, test_record_configuration_keys);
	suite_add_tcase(s, tc);
	return s;
}
