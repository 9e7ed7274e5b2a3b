/* SPDX-License-Identifier: MIT */
/*
 * `maelys-pty log` (pty/tools/log*.c), run as an administrator runs it, on
 * logs written by pty_audit_write from the guard's own records of real
 * decisions (pty_decide, then guard_record_line):
 *   - the table: one row per record, times in UTC, the session's first 8
 *     hex digits, the decision, the line or program, the reasons; a
 *     control character of a line shown escaped, never sent;
 *   - the filters --user, --session (prefix), --since/--until, --denied,
 *     and --json (the records byte for byte);
 *   - a tampered record: the rows before it stand, the verifier's sentence
 *     on stderr, exit 1; a missing key or log, exit 2;
 *   - --replay: a candidate that refuses git push finds that one change
 *     (exit 1), the policy of the log none (exit 0); the recorded facts are
 *     what is decided (the time of day and the user of the record, not the
 *     replay's); a program's change; a confirmation asked; a line refused
 *     by the scanner counted as not replayable; a tampered record stops
 *     the replay with the verifier's sentence (exit 1); a candidate that
 *     does not load (exit 2);
 *   - every case of the shipped case files, decided by the guard's
 *     deciders and recorded as a session records it, replayed against
 *     its own policy: every decision replayed, none changed (the facts
 *     survive the log, JSON and all, and the replay asks what the live
 *     deciders ask);
 *   - --since/--until's times (log_time_parse), good and bad; the safe
 *     form of text.
 */
#define _GNU_SOURCE
#include "runner.h"

#include "guard_record.h"
#include "pty_cases.h"
#include "pty_exec.h"
#include "pty_harness.h"
#include "pty_log.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


/* The policy the records were decided by: git allowed, rm refused. */
static const char policy_now[] =
    "deny(\"rm\", \"removing files is not allowed here\") :- "
    "command(\"rm\").\n"
    "deny_any(Op) :- deny(Op, R).\n"
    "allow(Cmd) :- command(Cmd), not(deny_any(Cmd)), Cmd != \"sh\".\n"
    "allow_exec(P) :- exec_path(P).\n";

struct tmp {
	char dir[256];
	char log[320];
	char key[320]; /* the writers' state */
	char pub[320]; /* the verification key `log` reads with */
	char policy[320];
	char sid_alice[33], sid_bob[33];
};

static void
spit(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	ck_assert_msg(fd >= 0, "%s: %s", path, strerror(errno));
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	ck_assert_int_eq(close(fd), 0);
}

static int
tmp_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static struct tmp t;

/* A fresh signing state and its verification key (pty_audit_keygen, what
 * maelys-pty --new-audit-key and maelys-pty-setup use). */
static void
make_keys(void)
{
	char err[512];

	(void)unlink(t.key);
	(void)unlink(t.pub);
	ck_assert_msg(pty_audit_keygen(t.key, t.pub, NULL, err, sizeof err) ==
			  0,
		      "%s", err);
}

static void
log_teardown(void)
{
	if (t.dir[0] != '\0')
		(void)nftw(t.dir, tmp_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static void
tmp_make(void)
{
	memset(&t, 0, sizeof t);
	(void)snprintf(t.dir, sizeof t.dir, "/tmp/maelys-log.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(t.dir));
	(void)snprintf(t.log, sizeof t.log, "%s/audit.log", t.dir);
	(void)snprintf(t.key, sizeof t.key, "%s/audit.key", t.dir);
	(void)snprintf(t.pub, sizeof t.pub, "%s/audit.pub", t.dir);
	(void)snprintf(t.policy, sizeof t.policy, "%s/now.dl", t.dir);
	make_keys();
	spit(t.policy, policy_now, sizeof policy_now - 1);
}

/* What writes the records: the decider of the policy, the log. */
struct writer {
	maelys_datalog_session_t *session;
	struct pty_decider d;
	struct pty_audit *a;
	struct pty_audit_session s;
};

static void
writer_open(struct writer *w, const char *user)
{
	char err[512];
	struct pty_policy_reads reads;

	ck_assert_msg(pty_policy_open(t.policy, &w->session, &reads, err,
				      sizeof err) == 0,
		      "%s", err);
	ck_assert_int_eq(
	    pty_decider_init(&w->d, w->session, &reads, "/usr/bin:/bin"), 0);
	(void)snprintf(w->d.who.user, sizeof w->d.who.user, "%s", user);
	(void)snprintf(w->d.who.host, sizeof w->d.who.host, "bastion1");
	(void)snprintf(w->d.time_of_day, sizeof w->d.time_of_day, "14:05");
	ck_assert_msg(pty_audit_open(t.log, t.key, &w->a, err, sizeof err) == 0,
		      "%s", err);
	memset(&w->s, 0, sizeof w->s);
	ck_assert_int_eq(pty_audit_session_id(w->s.id), 0);
	w->s.host = "bastion1";
	w->s.user = user;
	w->s.tty = "/dev/pts/3";
	w->s.remote = "192.0.2.7";
	w->s.mode = "interactive";
	pty_sha256_hex(policy_now, sizeof policy_now - 1, w->s.policy_sha256);
}

static void
writer_event(struct writer *w, const char *event, const char *note,
	     const struct pty_audit_end *end)
{
	struct pty_audit_event e;
	char err[512];

	memset(&e, 0, sizeof e);
	e.event = event;
	e.note = note;
	e.end = end;
	ck_assert_msg(pty_audit_write(w->a, &w->s, &e, err, sizeof err) == 0,
		      "%s", err);
}

/* Decides a line as the guard does and writes the guard's record of it. */
static void
writer_line(struct writer *w, const char *line)
{
	static struct guard_record rec;
	static struct pty_decision dec;
	char err[512];

	pty_decide(&w->d, line, strlen(line), PTY_MODE_INTERACTIVE, &dec);
	ck_assert_msg(
	    pty_audit_write(w->a, &w->s,
			    guard_record_line(&rec, "line", line, strlen(line),
					      &dec, guard_record_outcome(&dec),
					      w->d.edb),
			    err, sizeof err) == 0,
	    "%s", err);
}

/* Decides a program as the supervisor does and writes its record. */
static void
writer_exec(struct writer *w, const char *path)
{
	static struct pty_exec_request r;
	static struct pty_exec_decision dec;
	static struct pty_exec_record rec;
	char err[512];

	memset(&r, 0, sizeof r);
	r.pid = 4242;
	(void)snprintf(r.path, sizeof r.path, "%s", path);
	(void)snprintf(r.request, sizeof r.request, "%s", path);
	(void)snprintf(r.cwd, sizeof r.cwd, "/home/alice");
	(void)snprintf(r.parent, sizeof r.parent, "/usr/bin/bash");
	r.argc = 1;
	memcpy(r.bytes, "git", 4);
	r.argv[0] = r.bytes;
	r.argv_len[0] = 3;
	pty_exec_decide(&w->d, &r, PTY_MODE_INTERACTIVE, &dec);
	ck_assert_msg(pty_audit_write(w->a, &w->s,
				      pty_exec_record(&rec, &r, &dec, w->d.edb),
				      err, sizeof err) == 0,
		      "%s", err);
}

static void
writer_close(struct writer *w)
{
	pty_audit_close(w->a);
	pty_decider_free(&w->d);
	(void)maelys_datalog_session_free(w->session);
}

/* The log of the tests: alice's session (git push allowed, rm -rf /
 * refused, a line with an escape sequence refused by the scanner, git
 * executed), then bob's (ls). */
static void
make_log(void)
{
	struct writer w;

	tmp_make();
	writer_open(&w, "alice");
	memcpy(t.sid_alice, w.s.id, sizeof t.sid_alice);
	writer_event(&w, "session_start", NULL, NULL);
	writer_line(&w, "git push origin main");
	writer_line(&w, "rm -rf /");
	writer_line(&w, "echo \x1b]0;owned\x07\x1b[2J");
	writer_exec(&w, "/usr/bin/git");
	writer_event(&w, "session_end", "the user logged out",
		     &(struct pty_audit_end){.has_status = true,
					     .exit_status = 0,
					     .decisions = 4,
					     .refusals = 2,
					     .execs = 1});
	writer_close(&w);
	writer_open(&w, "bob");
	memcpy(t.sid_bob, w.s.id, sizeof t.sid_bob);
	writer_event(&w, "session_start", NULL, NULL);
	writer_line(&w, "ls -l");
	writer_event(
	    &w, "session_end", NULL,
	    &(struct pty_audit_end){.signal = "SIGKILL", .decisions = 1});
	writer_close(&w);
}

/* Runs `maelys-pty log ARGS... --key KEY LOG`; the exit status, stdout and
 * stderr. */
static int
run_log(const char *const *args, char **out, char **err)
{
	char *argv[32];
	size_t n = 0;

	argv[n++] = "maelys-pty";
	argv[n++] = "log";
	while (*args != NULL && n < 28)
		argv[n++] = (char *)*args++;
	argv[n++] = "--key";
	argv[n++] = t.pub;
	argv[n++] = t.log;
	argv[n] = NULL;
	return pts_run_path(pts_build_path("pty/maelys-pty"), argv,
			    (char *[]){"PATH=/usr/bin:/bin", "LC_ALL=C", NULL},
			    out, err);
}

/* How many lines of text contain needle. */
static int
count(const char *text, const char *needle)
{
	return pts_count_lines(text, (const char *const[]){needle, NULL});
}

START_TEST(table_rows)
{
	char *out, *err, sid[9];
	int rc;

	make_log();
	rc = run_log((const char *[]){NULL}, &out, &err);
	ck_assert_msg(rc == 0, "rc %d: %s", rc, err);
	ck_assert_str_eq(err, "");
	/* the heading, then one row per record: 9 records */
	ck_assert_int_eq(count(out, "\n") >= 0, 1);
	ck_assert_int_eq(count(out, "TIME (UTC)"), 1);
	ck_assert_int_eq(count(out, "alice"), 6);
	ck_assert_int_eq(count(out, "bob"), 3);
	memcpy(sid, t.sid_alice, 8);
	sid[8] = '\0';
	ck_assert_int_eq(count(out, sid), 6);
	ck_assert_ptr_null(strstr(out, t.sid_alice)); /* only 8 digits */
	ck_assert_int_eq(count(out, "  allow           git push origin main"),
			 1);
	ck_assert_int_eq(
	    count(out, "  deny            rm -rf /  (deny(rm): removing files "
		       "is not allowed here)"),
	    1);
	ck_assert_int_eq(count(out, "  allow           exec /usr/bin/git"), 1);
	ck_assert_int_eq(count(out, "  start           interactive on "
				    "/dev/pts/3 from 192.0.2.7"),
			 2);
	ck_assert_int_eq(count(out, "  end             exit 0, decisions 4, "
				    "refusals 2, execs 1  the user logged out"),
			 1);
	ck_assert_int_eq(count(out, "  end             killed by SIGKILL, "
				    "decisions 1, refusals 0, execs 0"),
			 1);
	/* the escape sequence of the refused line is shown, not sent */
	ck_assert_ptr_null(strchr(out, '\x1b'));
	ck_assert_ptr_null(strchr(out, '\x07'));
	ck_assert_int_eq(
	    count(out, "refused         echo \\x1b]0;owned\\x07\\x1b[2J  ("),
	    1);
	free(out);
	free(err);
}
END_TEST

START_TEST(filters)
{
	char *out, *err, since[32], prefix[7];
	int rc;

	make_log();
	rc = run_log((const char *[]){"--user", "bob", NULL}, &out, &err);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(count(out, "bob"), 3);
	ck_assert_int_eq(count(out, "alice"), 0);
	free(out);
	free(err);

	memcpy(prefix, t.sid_alice, 6);
	prefix[6] = '\0';
	rc = run_log((const char *[]){"--session", prefix, NULL}, &out, &err);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(count(out, "alice"), 6);
	ck_assert_int_eq(count(out, "bob"), 0);
	free(out);
	free(err);

	rc = run_log((const char *[]){"--denied", NULL}, &out, &err);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(count(out, "alice"), 2); /* rm, echo */
	ck_assert_int_eq(count(out, "rm -rf /"), 1);
	ck_assert_int_eq(count(out, "git push"), 0);
	free(out);
	free(err);

	/* every record is of today (UTC): --since tomorrow shows none,
	 * --until today (its whole day) all of them */
	{
		time_t now = time(NULL) + 86400;
		struct tm tm;

		ck_assert_ptr_nonnull(gmtime_r(&now, &tm));
		ck_assert_uint_eq(
		    strftime(since, sizeof since, "%Y-%m-%d", &tm), 10);
	}
	rc = run_log((const char *[]){"--since", since, NULL}, &out, &err);
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(out, "");
	free(out);
	free(err);
	{
		time_t now = time(NULL);
		struct tm tm;

		ck_assert_ptr_nonnull(gmtime_r(&now, &tm));
		ck_assert_uint_eq(
		    strftime(since, sizeof since, "%Y-%m-%d", &tm), 10);
	}
	rc = run_log(
	    (const char *[]){"--until", since, "--since", "2020-01-01", NULL},
	    &out, &err);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(count(out, "alice") + count(out, "bob"), 9);
	free(out);
	free(err);
	rc = run_log((const char *[]){"--until", "2020-01-01 10:00", NULL},
		     &out, &err);
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(out, "");
	free(out);
	free(err);
}
END_TEST

START_TEST(json_as_written)
{
	char *out, *err, *log;
	int rc;

	make_log();
	rc = run_log((const char *[]){"--json", NULL}, &out, &err);
	ck_assert_int_eq(rc, 0);
	log = pts_slurp(t.log);
	ck_assert_str_eq(out, log);
	free(out);
	free(err);
	rc = run_log((const char *[]){"--json", "--user", "bob", NULL}, &out,
		     &err);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(count(out, "\"user\":\"bob\""), 3);
	ck_assert_int_eq(count(out, "\"user\":\"alice\""), 0);
	free(out);
	free(err);
	free(log);
}
END_TEST

/* Changes the first occurrence of `from` in the log to `to` (same length). */
static void
tamper(const char *from, const char *to)
{
	char *log = pts_slurp(t.log), *p;

	ck_assert_uint_eq(strlen(from), strlen(to));
	p = strstr(log, from);
	ck_assert_ptr_nonnull(p);
	memcpy(p, to, strlen(to));
	spit(t.log, log, strlen(log));
	free(log);
}

START_TEST(tampered_stops)
{
	char *out, *err;
	int rc;

	make_log();
	/* record 3, rm -rf /, said to be allowed */
	tamper("\"decision\":\"deny\"", "\"decision\":\"allo\"");
	rc = run_log((const char *[]){NULL}, &out, &err);
	ck_assert_int_eq(rc, 1);
	/* the rows before it stand, nothing after it */
	ck_assert_int_eq(count(out, "git push origin main"), 1);
	ck_assert_int_eq(count(out, "rm -rf"), 0);
	ck_assert_int_eq(count(out, "bob"), 0);
	ck_assert_int_eq(count(err, "record 3 (line 3)"), 1);
	free(out);
	free(err);
}
END_TEST

/* The log cut after bob's session started: without the state the shorter
 * log is a whole chain (what remains verifies); with --state the cut is
 * found and said, and the rows that remain still stand (exit 1). */
START_TEST(cut_end_found_with_the_state)
{
	char *log, *out, *err, *last;
	size_t len;
	int rc;

	make_log();
	log = pts_slurp(t.log);
	len = strlen(log);
	/* the last two records (bob's line and his session's end) go */
	last = log + len - 1;
	while (last > log && last[-1] != '\n')
		last--;
	last--;
	while (last > log && last[-1] != '\n')
		last--;
	ck_assert_int_eq(truncate(t.log, (off_t)(last - log)), 0);
	free(log);
	rc = run_log((const char *[]){NULL}, &out, &err);
	ck_assert_int_eq(rc, 0);
	free(out);
	free(err);
	rc = run_log((const char *[]){"--state", t.key, NULL}, &out, &err);
	ck_assert_int_eq(rc, 1);
	ck_assert_int_eq(count(out, "git push origin main"), 1);
	ck_assert_msg(count(err, "missing at the end: the log was cut") == 1,
		      "%s", err);
	free(out);
	free(err);
}
END_TEST

START_TEST(cannot_read)
{
	char *out, *err;
	int rc;

	make_log();
	ck_assert_int_eq(unlink(t.pub), 0);
	rc = run_log((const char *[]){NULL}, &out, &err);
	ck_assert_int_eq(rc, 2);
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(count(err, "audit.pub"), 1);
	free(out);
	free(err);
	make_keys();
	ck_assert_int_eq(unlink(t.log), 0);
	rc = run_log((const char *[]){NULL}, &out, &err);
	ck_assert_int_eq(rc, 2);
	ck_assert_int_eq(count(err, "cannot check"), 1);
	free(out);
	free(err);
	rc =
	    run_log((const char *[]){"--since", "yesterday", NULL}, &out, &err);
	ck_assert_int_eq(rc, 2);
	ck_assert_int_eq(count(err, "--since 'yesterday'"), 1);
	free(out);
	free(err);
	rc = run_log((const char *[]){"--session", "xyz", NULL}, &out, &err);
	ck_assert_int_eq(rc, 2);
	free(out);
	free(err);
}
END_TEST

/* Writes a candidate policy into the scratch folder; its path. */
static const char *
candidate(const char *name, const char *text)
{
	static char path[400];

	(void)snprintf(path, sizeof path, "%s/%s", t.dir, name);
	spit(path, text, strlen(text));
	return path;
}

static const char policy_no_push[] =
    "deny(\"git\", \"pushing is frozen\") :- command(\"git\"), "
    "arg(\"push\").\n"
    "deny(\"rm\", \"removing files is not allowed here\") :- "
    "command(\"rm\").\n"
    "deny_any(Op) :- deny(Op, R).\n"
    "allow(Cmd) :- command(Cmd), not(deny_any(Cmd)), Cmd != \"sh\".\n"
    "allow_exec(P) :- exec_path(P).\n";

START_TEST(replay_finds_the_change)
{
	char *out, *err;
	int rc;

	make_log();
	rc = run_log((const char *[]){"--replay", "--policy",
				      candidate("no_push.dl", policy_no_push),
				      NULL},
		     &out, &err);
	ck_assert_msg(rc == 1, "rc %d: %s", rc, err);
	ck_assert_str_eq(err, "");
	/* one change, the candidate's reason under it, then the counts */
	ck_assert_int_eq(count(out, "  alice  allowed -> refused  git push "
				    "origin main"),
			 1);
	ck_assert_int_eq(count(out, "->"), 1);
	ck_assert_ptr_nonnull(
	    strstr(out, "git push origin main\n    deny(git): pushing is "
			"frozen\n"));
	ck_assert_ptr_nonnull(
	    strstr(out, "4 decisions replayed, 1 would change (1 newly "
			"refused, 0 newly allowed), 1 not replayable"));
	free(out);
	free(err);

	/* the policy the log was decided by: nothing changes */
	rc = run_log((const char *[]){"--replay", "--policy", t.policy, NULL},
		     &out, &err);
	ck_assert_msg(rc == 0, "rc %d: %s", rc, err);
	ck_assert_int_eq(count(out, "->"), 0);
	ck_assert_ptr_nonnull(
	    strstr(out, "4 decisions replayed, 0 would change (0 newly "
			"refused, 0 newly allowed), 1 not replayable"));
	free(out);
	free(err);

	/* the filters choose what is replayed: bob pushed nothing */
	rc = run_log((const char *[]){"--replay", "--policy",
				      candidate("no_push.dl", policy_no_push),
				      "--user", "bob", NULL},
		     &out, &err);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_nonnull(strstr(out, "1 decisions replayed, 0 would "
					  "change"));
	free(out);
	free(err);
}
END_TEST

START_TEST(replay_decides_the_recorded_facts)
{
	char *out, *err;
	int rc;

	make_log();
	/* the records say 14:05 and alice, whatever the clock and the
	 * caller: only rm changes (it had a deny) */
	rc = run_log(
	    (const char *[]){
		"--replay", "--policy",
		candidate("at_time.dl",
			  "allow(Cmd) :- command(Cmd), time_of_day(\"14:05\"), "
			  "host(\"bastion1\").\n"
			  "allow_exec(P) :- exec_path(P), user(\"alice\"), "
			  "exec_arg(0, \"git\"), exec_cwd(\"/home/alice\").\n"),
		NULL},
	    &out, &err);
	ck_assert_msg(rc == 1, "rc %d: %s %s", rc, out, err);
	ck_assert_int_eq(count(out, "->"), 1);
	ck_assert_int_eq(count(out, "alice  refused -> allowed  rm -rf /"), 1);
	ck_assert_ptr_nonnull(strstr(out, "(0 newly refused, 1 newly "
					  "allowed)"));
	free(out);
	free(err);
}
END_TEST

START_TEST(replay_programs_and_confirmations)
{
	char *out, *err;
	int rc;

	make_log();
	rc = run_log(
	    (const char *[]){
		"--replay", "--policy",
		candidate("strict.dl",
			  "deny(\"rm\", \"no\") :- command(\"rm\").\n"
			  "deny_any(Op) :- deny(Op, R).\n"
			  "allow(Cmd) :- command(Cmd), not(deny_any(Cmd)), "
			  "Cmd != \"git\".\n"
			  "require_confirm(\"git\", \"push to the forge?\") :- "
			  "command(\"git\").\n"
			  "deny_exec(P, \"git is not a program of this "
			  "bastion\") :- exec_path(P), exec_arg(0, \"git\").\n"
			  "allow_exec(P) :- exec_path(P), "
			  "not(exec_arg(0, \"git\")).\n"),
		NULL},
	    &out, &err);
	ck_assert_msg(rc == 1, "rc %d: %s", rc, err);
	ck_assert_int_eq(count(out, "->"), 2);
	ck_assert_ptr_nonnull(
	    strstr(out, "alice  allowed -> asks confirmation  git push origin "
			"main\n    require_confirm: push to the forge?\n"));
	ck_assert_ptr_nonnull(
	    strstr(out, "alice  allowed -> refused  exec /usr/bin/git\n    git "
			"is not a program of this bastion\n"));
	ck_assert_ptr_nonnull(
	    strstr(out, "4 decisions replayed, 2 would change (1 newly "
			"refused, 0 newly allowed), 1 not replayable"));
	free(out);
	free(err);
}
END_TEST

START_TEST(replay_stops_at_a_tampered_record)
{
	char *out, *err;
	int rc;

	make_log();
	/* bob's ls (record 8) turned into another line */
	tamper("\"line\":\"ls -l\"", "\"line\":\"ls -a\"");
	rc = run_log((const char *[]){"--replay", "--policy",
				      candidate("no_push.dl", policy_no_push),
				      NULL},
		     &out, &err);
	ck_assert_int_eq(rc, 1);
	/* the change found before it stands; the count is of what was read */
	ck_assert_int_eq(count(out, "allowed -> refused  git push"), 1);
	ck_assert_ptr_nonnull(strstr(out, "3 decisions replayed, 1 would "
					  "change"));
	ck_assert_int_eq(count(err, "record 8 (line 8)"), 1);
	free(out);
	free(err);
	/* with the log's own policy too: a broken log is never a pass */
	rc = run_log((const char *[]){"--replay", "--policy", t.policy, NULL},
		     &out, &err);
	ck_assert_int_eq(rc, 1);
	ck_assert_int_eq(count(err, "record 8 (line 8)"), 1);
	free(out);
	free(err);
}
END_TEST

START_TEST(replay_usage)
{
	char *out, *err;
	int rc;

	make_log();
	rc = run_log((const char *[]){"--replay", "--policy",
				      candidate("bad.dl", "allow(X :- .\n"),
				      NULL},
		     &out, &err);
	ck_assert_int_eq(rc, 2);
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(count(err, "bad.dl"), 1);
	free(out);
	free(err);
	rc = run_log((const char *[]){"--replay", NULL}, &out, &err);
	ck_assert_int_eq(rc, 2);
	ck_assert_int_eq(count(err, "--replay needs --policy"), 1);
	free(out);
	free(err);
	rc = run_log(
	    (const char *[]){"--replay", "--policy", t.policy, "--json", NULL},
	    &out, &err);
	ck_assert_int_eq(rc, 2);
	free(out);
	free(err);
}
END_TEST

/* One fact of a record the session never had: a predicate that is an
 * escape sequence (what a thief holding the state can sign, after the
 * last record: THREAT MODEL). */
static int
bad_fact_get(const void *ctx, size_t i, struct pty_audit_fact *out)
{
	static const char pred[] = "\x1b]0;owned\x07\x1b[2J";

	(void)ctx;
	(void)i;
	memset(out, 0, sizeof *out);
	out->predicate.s = pred;
	out->predicate.len = sizeof pred - 1;
	out->nargs = 1;
	out->args[0].text.s = "ls";
	out->args[0].text.len = 2;
	return 0;
}

/* --replay says why a record's facts cannot be decided again, and that
 * sentence quotes the engine, which quotes the predicate: it is shown
 * escaped, never sent to the administrator's terminal. */
START_TEST(replay_bad_fact_is_shown_escaped)
{
	const struct pty_audit_facts facts = {1, bad_fact_get, NULL};
	struct pty_audit_decision dec;
	struct pty_audit_event e;
	struct writer w;
	char err_w[512], *out, *err;
	int rc;

	tmp_make();
	writer_open(&w, "alice");
	memset(&dec, 0, sizeof dec);
	dec.facts = &facts;
	memset(&e, 0, sizeof e);
	e.event = "line";
	e.line = "ls";
	e.line_len = 2;
	e.outcome = "allow";
	e.decision = &dec;
	ck_assert_msg(pty_audit_write(w.a, &w.s, &e, err_w, sizeof err_w) == 0,
		      "%s", err_w);
	writer_close(&w);
	rc = run_log((const char *[]){"--replay", "--policy", t.policy, NULL},
		     &out, &err);
	ck_assert_msg(rc == 0, "rc %d: %s", rc, err);
	ck_assert_msg(strchr(err, '\x1b') == NULL &&
			  strchr(err, '\x07') == NULL,
		      "an escape sequence of a record reached the terminal: "
		      "%s",
		      err);
	ck_assert_int_eq(count(err, "record 1: its facts cannot be decided "
				    "again"),
			 1);
	ck_assert_int_eq(count(err, "\\x1b]0;owned\\x07\\x1b[2J"), 1);
	free(out);
	free(err);
}
END_TEST

/* Records every case of policies/cases/NAME.case as decided with
 * policies/NAME.dl; how many decisions were recorded. */
static unsigned
record_cases(const char *name)
{
	static struct pty_case_reader rd;
	static struct pty_exec_request rq;
	static struct pty_case_result res;
	static struct guard_record rec;
	static struct pty_exec_record xrec;
	char path[PATH_MAX], err[512], *text;
	struct pty_policy_reads reads;
	struct writer w;
	struct pty_case c;
	unsigned n = 0;
	int rc;

	(void)snprintf(path, sizeof path, "%s/policies/%s.dl",
		       maelys_test_source_root(), name);
	ck_assert_msg(
	    pty_policy_open(path, &w.session, &reads, err, sizeof err) == 0,
	    "%s", err);
	ck_assert_int_eq(
	    pty_decider_init(&w.d, w.session, &reads, "/usr/bin:/bin"), 0);
	ck_assert_msg(pty_audit_open(t.log, t.key, &w.a, err, sizeof err) == 0,
		      "%s", err);
	memset(&w.s, 0, sizeof w.s);
	ck_assert_int_eq(pty_audit_session_id(w.s.id), 0);
	w.s.host = "bastion1";
	w.s.tty = "";
	w.s.remote = "";
	w.s.mode = "interactive";
	(void)snprintf(path, sizeof path, "%s/policies/cases/%s.case",
		       maelys_test_source_root(), name);
	text = pts_slurp(path);
	pty_cases_begin(&rd, text, strlen(text));
	while ((rc = pty_cases_next(&rd, &c, &rq, err, sizeof err)) != 0) {
		struct pty_audit_event *e;

		ck_assert_msg(rc == 1, "%s:%zu: %s", path, rd.lineno, err);
		/* exec_never cases are no decision a session records */
		if (c.kind == PTY_CASE_BECAUSE || c.kind == PTY_CASE_NEVER)
			continue;
		(void)pty_case_decide(&w.d, &rd.ctx, &c, &rq, &res);
		w.s.user = w.d.who.user;
		if (c.kind == PTY_CASE_EXEC)
			e = pty_exec_record(&xrec, &rq, &res.xdec, w.d.edb);
		else if (res.dec.verdict == PTY_VERDICT_CONFIRM)
			/* as the guard records a confirmation not given */
			e = guard_record_line(&rec, "confirm", c.value, c.len,
					      &res.dec, "declined", w.d.edb);
		else
			e = guard_record_line(
			    &rec, "line", c.value, c.len, &res.dec,
			    guard_record_outcome(&res.dec), w.d.edb);
		ck_assert_msg(pty_audit_write(w.a, &w.s, e, err, sizeof err) ==
				  0,
			      "%s:%zu: %s", path, c.lineno, err);
		n++;
	}
	free(text);
	writer_close(&w);
	return n;
}

START_TEST(replay_shipped_cases)
{
	static const char *const names[] = {"bastion", "level1"};
	char *out, *err, path[PATH_MAX];
	unsigned n;
	size_t i;
	int rc;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		tmp_make();
		n = record_cases(names[i]);
		ck_assert_uint_gt(n, 50);
		(void)snprintf(path, sizeof path, "%s/policies/%s.dl",
			       maelys_test_source_root(), names[i]);
		rc = run_log(
		    (const char *[]){"--replay", "--policy", path, NULL}, &out,
		    &err);
		ck_assert_msg(rc == 0, "%s: rc %d\n%s%s", names[i], rc, out,
			      err);
		ck_assert_str_eq(err, "");
		/* every decision the policy was asked is replayed; those the
		 * scanner refused are not */
		ck_assert_msg(strstr(out, " would change (0 newly refused, 0 "
					  "newly allowed)") != NULL &&
				  strstr(out, "\n") == out + strlen(out) - 1,
			      "%s", out);
		{
			unsigned long long replayed = 0, skipped = 0;

			ck_assert_int_eq(
			    sscanf(out,
				   "%llu decisions replayed, 0 would change (0 "
				   "newly refused, 0 newly allowed), %llu not "
				   "replayable",
				   &replayed, &skipped),
			    2);
			ck_assert_uint_eq(replayed + skipped, n);
			ck_assert_uint_gt(replayed, skipped);
		}
		free(out);
		free(err);
		log_teardown();
	}
}
END_TEST

/* log_time_parse: ms since the epoch, and the span of the precision. */
static void
time_is(const char *s, int64_t ms, int64_t span)
{
	struct log_time lt;

	ck_assert_msg(log_time_parse(s, strlen(s), &lt) == 0, "%s refused", s);
	ck_assert_msg(lt.ms == ms && lt.span == span,
		      "%s: %lld +%lld, not %lld +%lld", s, (long long)lt.ms,
		      (long long)lt.span, (long long)ms, (long long)span);
}

START_TEST(times)
{
	static const char *const bad[] = {"",
					  "2026",
					  "2026-12-2",
					  "2026-13-01",
					  "2026-02-29",
					  "2026-12-02T",
					  "2026-12-02 24:00",
					  "2026-12-02 15:60",
					  "2026-12-02T15:04",
					  "2026-12-02T15:04:05",
					  "2026-12-02T15:04:05.Z",
					  "2026-12-02T15:04:05.1234567890Z",
					  "2026-12-02T15:04:05+1:00",
					  "2026-12-02T15:04:05+01:00x",
					  "1969-12-31",
					  "2026-12-02  15:04",
					  "２026-12-02",
					  "2026-12-02T15:04:05ZZ",
					  "2026-12-02 15:04Z"};
	size_t i;
	struct log_time lt;

	time_is("1970-01-01", 0, 86400000);
	time_is("2026-12-02", 1796169600000, 86400000);
	time_is("2024-02-29", 1709164800000, 86400000);
	time_is("2026-12-02 15:04", 1796223840000, 60000);
	time_is("2026-12-02T15:04:05Z", 1796223845000, 1000);
	time_is("2026-12-02t15:04:05z", 1796223845000, 1000);
	time_is("2026-12-02 15:04:05Z", 1796223845000, 1000);
	time_is("2026-12-02T15:04:05.123Z", 1796223845123, 1);
	time_is("2026-12-02T15:04:05.123456789Z", 1796223845123, 1);
	time_is("2026-12-02T16:04:05.5+01:00", 1796223845500, 1);
	time_is("2026-12-02T10:04:05-05:00", 1796223845000, 1000);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(log_time_parse(bad[i], strlen(bad[i]), &lt) != 0,
			      "%s accepted", bad[i]);
}
END_TEST

/* log_safe_write: what reaches the terminal. */
static void
safe_is(const char *in, size_t len, const char *want)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	ck_assert_ptr_nonnull(f);
	log_safe_write(f, in, len);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_str_eq(buf, want);
	free(buf);
}

START_TEST(safe_text)
{
	safe_is("ls -l", 5, "ls -l");
	safe_is("caf\xc3\xa9", 5, "caf\xc3\xa9");
	safe_is("\x1b[2J\r\n\t\x7f", 8, "\\x1b[2J\\x0d\\x0a\\x09\\x7f");
	safe_is("a\xc2\x9b"
		"b",
		4, "a\\x9bb"); /* C1 CSI */
	safe_is("\xe2\x80\xae"
		"abc",
		6, "\\u{202e}abc");                    /* RLO */
	safe_is("\xff\xc3", 2, "\\xff\\xc3");          /* not UTF-8 */
	safe_is("\xed\xa0\x80", 3, "\\xed\\xa0\\x80"); /* a surrogate */
	safe_is("a\0b", 3, "a\\x00b");
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("log");

	tcase_add_checked_fixture(tc, NULL, log_teardown);
	tcase_add_test(tc, table_rows);
	tcase_add_test(tc, filters);
	tcase_add_test(tc, json_as_written);
	tcase_add_test(tc, tampered_stops);
	tcase_add_test(tc, cut_end_found_with_the_state);
	tcase_add_test(tc, cannot_read);
	tcase_add_test(tc, replay_finds_the_change);
	tcase_add_test(tc, replay_decides_the_recorded_facts);
	tcase_add_test(tc, replay_programs_and_confirmations);
	tcase_add_test(tc, replay_stops_at_a_tampered_record);
	tcase_add_test(tc, replay_usage);
	tcase_add_test(tc, replay_bad_fact_is_shown_escaped);
	tcase_add_test(tc, replay_shipped_cases);
	tcase_add_test(tc, times);
	tcase_add_test(tc, safe_text);
	suite_add_tcase(s, tc);
	return s;
}
