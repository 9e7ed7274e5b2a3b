/* SPDX-License-Identifier: MIT */
/*
 * maelys-pty --check as an administrator sees it: for each problem, a
 * configuration that has exactly that problem, the exact line --check
 * prints for it and exit status 1; a sound configuration (with and without
 * an audit log) exits 0; warnings (a place users write without noexec, no
 * Yama) do not fail the check.
 *
 * The deployment of maelys-pty-setup is made here in a scratch folder: an
 * audit account created for the run (useradd --system, removed at the
 * end), a copy of the built guard installed setuid to it, the log's folder
 * 0750 and the state 0600 owned by it (audit.pub root's, beside it).  Configurations must be root's, so the
 * suite needs root (CI runs as root); without it, it says so and is
 * skipped.
 */
#define _GNU_SOURCE
#include "runner.h"

#include "pty_decide.h"
#include "pty_harness.h"
#include "pty_session.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pwd.h>

/*
 * Under AddressSanitizer a guard whose effective uid is not its real one
 * cannot run to the end: the sanitizer reads its options from
 * /proc/self/environ, which such a process (not dumpable) may not open, and
 * LeakSanitizer at exit needs ptrace(2), which it is then refused.  So the
 * sanitized build runs the setuid copy as the audit account itself (the
 * files are judged the same way; leak detection is off), and the plain
 * build as root, as an administrator does.
 */
#if defined(__SANITIZE_ADDRESS__)
#define CHECK_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHECK_SANITIZED 1
#endif
#endif
#ifndef CHECK_SANITIZED
#define CHECK_SANITIZED 0
#endif

/* The audit account of the run, made once by the suite. */
static char account[32];
static uid_t acct_uid;
static gid_t acct_gid;

/* One test's deployment. */
static char dir[256], config[320], policy[320], logdir[320], log_path[360],
    key[320], guard[320];

static const char sound_policy[] = "allow(C) :- command(C).\n"
				   "allow_exec(P) :- exec_path(P).\n"
				   "exec_dir(\"/usr\").\n";

static const char whole_record[] = "{\"v\":1}\n";

static void
writef(const char *path, mode_t mode, const char *text)
{
	pts_write_file(path, text, mode);
}

/* A deployment: the policy, the configuration (with `extra` lines), and
 * with `audit` the log's folder, the key and the guard setuid to the audit
 * account, as maelys-pty-setup makes them. */
static void
world(const char *policy_text, const char *extra, bool audit)
{
	char text[2048], cmd[800];

	snprintf(dir, sizeof dir, "/tmp/maelys-check.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* the audit account reads the configuration through it */
	ck_assert_int_eq(chmod(dir, 0755), 0);
	snprintf(policy, sizeof policy, "%s/policy.dl", dir);
	snprintf(config, sizeof config, "%s/maelys-pty.conf", dir);
	snprintf(logdir, sizeof logdir, "%s/log", dir);
	snprintf(log_path, sizeof log_path, "%s/audit.log", logdir);
	snprintf(key, sizeof key, "%s/audit.key", dir);
	snprintf(guard, sizeof guard, "%s/maelys-pty", dir);
	writef(policy, 0644, policy_text);
	snprintf(text, sizeof text, "policy = %s\nsyslog = off\n%s%s%s%s%s%s",
		 policy, audit ? "audit_log = " : "", audit ? log_path : "",
		 audit ? "\naudit_key = " : "", audit ? key : "",
		 audit ? "\n" : "", extra);
	writef(config, 0644, text);
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'",
		 pts_build_path("pty/maelys-pty"), guard);
	ck_assert_int_eq(system(cmd), 0);
	if (!audit)
		return;
	ck_assert_int_eq(mkdir(logdir, 0750), 0);
	ck_assert_int_eq(chown(logdir, acct_uid, acct_gid), 0);
	pts_write_audit_key(key);
	ck_assert_int_eq(chown(key, acct_uid, acct_gid), 0);
	/* chown clears the setuid bit: the mode comes after */
	ck_assert_int_eq(chown(guard, acct_uid, acct_gid), 0);
	ck_assert_int_eq(chmod(guard, 04755), 0);
}

static void
teardown(void)
{
	char cmd[300];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

/* The log, whole, as the writer leaves it. */
static void
add_log(void)
{
	writef(log_path, 0640, whole_record);
	ck_assert_int_eq(chown(log_path, acct_uid, acct_gid), 0);
}

/* With --werror as well (run_check). */
static bool werror;

/* Runs `prog --check --config CONFIG [more]` (prog after `runner` when
 * given, e.g. runuser); returns the exit status. */
static int
run_check(const char *runner, const char *prog, const char *more, char **out,
	  char **err)
{
	char *argv[12];
	char *envp[] = {"LANG=C.UTF-8", "PATH=/usr/sbin:/usr/bin:/bin",
			"ASAN_OPTIONS=detect_leaks=0", NULL};
	int n = 0;

	if (runner != NULL) {
		argv[n++] = "runuser";
		argv[n++] = "-u";
		argv[n++] = (char *)runner;
		argv[n++] = "--";
	}
	argv[n++] = (char *)prog;
	argv[n++] = "--check";
	argv[n++] = "--config";
	argv[n++] = config;
	if (more != NULL) {
		argv[n++] = "--user";
		argv[n++] = (char *)more;
	}
	if (werror)
		argv[n++] = "--werror";
	argv[n] = NULL;
	return pts_run_path(runner != NULL ? "/usr/sbin/runuser" : prog, argv,
			    envp, out, err);
}

/* Who runs the copy (see CHECK_SANITIZED): root, or, sanitized, the
 * account the copy is setuid to (a copy setuid or setgid to root keeps
 * root's capabilities, which the sanitizer needs, and is run by root). */
static const char *
setuid_caller(void)
{
	struct stat st;

	ck_assert_int_eq(stat(guard, &st), 0);
	return CHECK_SANITIZED && (st.st_mode & S_ISUID) != 0 && st.st_uid != 0
		   ? account
		   : NULL;
}

/* Whether `text` holds `line` as a whole line. */
static bool
has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p;

	for (p = text; (p = strstr(p, line)) != NULL; p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

static unsigned
count_lines(const char *text, const char *prefix)
{
	unsigned k = 0;
	const char *p;

	for (p = text; p != NULL && *p != '\0'; p = strchr(p, '\n'), p += !!p)
		if (strncmp(p, prefix, strlen(prefix)) == 0)
			k++;
	return k;
}

#define ERROR "maelys-pty: error: "

/* Exactly the errors given (NULL-terminated), exit 1, the summary says
 * how many. */
static void
expect_errors(int rc, const char *out, const char *err, ...)
{
	char summary[64];
	unsigned n = 0;
	const char *line;
	va_list ap;

	va_start(ap, err);
	while ((line = va_arg(ap, const char *)) != NULL) {
		char want[2048];

		snprintf(want, sizeof want, ERROR "%s", line);
		ck_assert_msg(has_line(err, want), "wanted:\n%s\nin:\n%s", want,
			      err);
		n++;
	}
	va_end(ap);
	ck_assert_msg(count_lines(err, ERROR) == n, "not %u errors:\n%s", n,
		      err);
	ck_assert_int_eq(rc, 1);
	snprintf(summary, sizeof summary, "maelys-pty: check: %u error%s, ", n,
		 n == 1 ? "" : "s");
	ck_assert_msg(strncmp(out, summary, strlen(summary)) == 0, "%s", out);
}

static void
expect_sound(int rc, const char *out, const char *err)
{
	ck_assert_msg(count_lines(err, ERROR) == 0, "%s", err);
	ck_assert_int_eq(rc, 0);
	ck_assert_msg(strncmp(out, "maelys-pty: check: ok, ", 23) == 0, "%s",
		      out);
	ck_assert_msg(strstr(out, ": a session can start (") != NULL, "%s",
		      out);
}

/* One problem of a world without audit log, run with the built guard. */
static void
expect_one(const char *line)
{
	char *out, *err;
	int rc =
	    run_check(NULL, pts_build_path("pty/maelys-pty"), NULL, &out, &err);

	expect_errors(rc, out, err, line, NULL);
	free(out);
	free(err);
}

START_TEST(test_check_sound_configuration_exits_0)
{
	char *out, *err;
	int rc;

	world(sound_policy, "", false);
	rc =
	    run_check(NULL, pts_build_path("pty/maelys-pty"), NULL, &out, &err);
	expect_sound(rc, out, err);
	free(out);
	free(err);
	teardown();
}
END_TEST

START_TEST(test_check_sound_deployment_exits_0_before_and_after_a_record)
{
	char *out, *err;
	int rc;

	world(sound_policy, "landlock = required\n", true);
	rc = run_check(setuid_caller(), guard, NULL, &out, &err);
	expect_sound(rc, out, err);
	free(out);
	free(err);
	add_log();
	rc = run_check(setuid_caller(), guard, NULL, &out, &err);
	expect_sound(rc, out, err);
	free(out);
	free(err);
	teardown();
}
END_TEST

START_TEST(test_check_config_writable_by_others_is_one_error)
{
	char want[600];

	world(sound_policy, "", false);
	ck_assert_int_eq(chmod(config, 0666), 0);
	snprintf(want, sizeof want,
		 "%s: writable by group or others (mode 0666)", config);
	expect_one(want);
	teardown();
}
END_TEST

START_TEST(test_check_policy_that_does_not_load_is_one_error)
{
	char want[900];

	world("allow(C) :- command(C)\n", "", false);
	snprintf(want, sizeof want,
		 "policy %s: parse: %s:2:1: expected ',' or '.', found end of "
		 "input",
		 policy, policy);
	expect_one(want);
	teardown();
}
END_TEST

START_TEST(test_check_missing_shell_is_one_error)
{
	char want[600];

	world(sound_policy, "shell = /nonexistent/bash\n", false);
	snprintf(want, sizeof want,
		 "%s: shell = /nonexistent/bash: No such file or directory: "
		 "set shell to the path of bash",
		 config);
	expect_one(want);
	teardown();
}
END_TEST

START_TEST(test_check_shell_not_executable_is_one_error)
{
	char extra[400], want[2000], shell[300];

	snprintf(shell, sizeof shell, "/tmp/maelys-check-shell.%d",
		 (int)getpid());
	writef(shell, 0644, "#!/bin/sh\n");
	snprintf(extra, sizeof extra, "shell = %s\n", shell);
	world(sound_policy, extra, false);
	snprintf(want, sizeof want,
		 "%s: shell = %s: not executable (mode 0644): chmod 0755 %s",
		 config, shell, shell);
	expect_one(want);
	unlink(shell);
	teardown();
}
END_TEST

/* The sentence of pty_supervise_shell_allowed, for root in `mode`. */
static void
shell_refused(char *want, size_t cap, const char *mode, const char *user,
	      const char *who)
{
	char bash[4096];

	ck_assert_ptr_nonnull(realpath("/bin/bash", bash));
	snprintf(want, cap,
		 "%s: %s sessions of %s (%s): the policy does not let the "
		 "session's shell /bin/bash start (allow_exec(\"%s\") is not "
		 "derived for it; see maelys-policy(5), EXEC DECISIONS)",
		 policy, mode, user, who, bash);
}

START_TEST(test_check_policy_without_shell_rule_fails_both_modes)
{
	char a[6000], b[6000], *out, *err;
	int rc;

	world("allow(C) :- command(C).\n"
	      "allow_exec(P) :- exec_path(P), suffix(P, \"/id\").\n",
	      "", false);
	shell_refused(a, sizeof a, "interactive", "root",
		      "the user running --check");
	shell_refused(b, sizeof b, "command", "root",
		      "the user running --check");
	rc =
	    run_check(NULL, pts_build_path("pty/maelys-pty"), NULL, &out, &err);
	expect_errors(rc, out, err, a, b, NULL);
	free(out);
	free(err);
	teardown();
}
END_TEST

START_TEST(test_check_shell_allowed_interactive_only_fails_command_mode)
{
	char want[6000];

	world("allow(C) :- command(C).\n"
	      "allow_exec(P) :- exec_path(P), session_mode(\"interactive\").\n",
	      "", false);
	shell_refused(want, sizeof want, "command", "root",
		      "the user running --check");
	expect_one(want);
	teardown();
}
END_TEST

/* --user decides with that user's facts: a policy for the audit account
 * alone refuses root's sessions and lets the account's start. */
START_TEST(test_check_user_option_decides_for_that_user)
{
	char text[400], a[6000], b[6000], *out, *err;
	int rc;

	snprintf(text, sizeof text,
		 "allow(C) :- command(C).\n"
		 "allow_exec(P) :- exec_path(P), user(\"%s\").\n",
		 account);
	world(text, "", false);
	shell_refused(a, sizeof a, "interactive", "root",
		      "the user running --check");
	shell_refused(b, sizeof b, "command", "root",
		      "the user running --check");
	rc =
	    run_check(NULL, pts_build_path("pty/maelys-pty"), NULL, &out, &err);
	expect_errors(rc, out, err, a, b, NULL);
	free(out);
	free(err);
	rc = run_check(NULL, pts_build_path("pty/maelys-pty"), account, &out,
		       &err);
	expect_sound(rc, out, err);
	free(out);
	free(err);
	teardown();
}
END_TEST

START_TEST(test_check_user_option_and_setuid_config_are_for_root)
{
	char want[600], *out, *err;

	world(sound_policy, "", true);
	ck_assert_int_eq(run_check("nobody", pts_build_path("pty/maelys-pty"),
				   "root", &out, &err),
			 1);
	ck_assert_msg(has_line(err, ERROR "--user is for root (without it, "
					  "--check decides for the user "
					  "running it)"),
		      "%s", err);
	free(out);
	free(err);
	/* a user may not point the setuid guard at a file of their choice
	 * (sanitized, LeakSanitizer fails its exit, with status 1 as well) */
	ck_assert_int_eq(run_check("nobody", guard, NULL, &out, &err), 1);
	snprintf(want, sizeof want,
		 ERROR "this guard is installed setuid or setgid: only root "
		       "may check it with --config, --policy, --shell or "
		       "--path; it reads only %s",
		 pty_config_file);
	ck_assert_msg(has_line(err, want), "%s", err);
	free(out);
	free(err);
	teardown();
}
END_TEST

START_TEST(test_check_landlock_required_without_locations_is_one_error)
{
	char want[600];

	world("allow(C) :- command(C).\nallow_exec(P) :- exec_path(P).\n",
	      "landlock = required\n", false);
	snprintf(want, sizeof want,
		 "%s: landlock = required, and the policy names no exec_dir "
		 "or exec_file",
		 config);
	expect_one(want);
	teardown();
}
END_TEST

/* A policy that decides lines only (the walkthrough's Level 1): refused by
 * a configuration's default, exec_decisions = required, with the reason
 * said once (not once per mode); accepted with a warning when the
 * configuration says optional. */
static const char level1_only[] =
    "deny(\"__line__\", \"shell metacharacter in line\") :- "
    "shell_metachar(_).\n"
    "deny_any(Op) :- deny(Op, Reason).\n"
    "allow(Cmd) :- command(Cmd), not(deny_any(\"__line__\")), "
    "not(deny_any(Cmd)).\n";

START_TEST(test_check_policy_deciding_lines_only_needs_exec_decisions_optional)
{
	char want[1200], *out, *err;
	int rc;

	world(level1_only, "", false);
	snprintf(want, sizeof want,
		 "%s: the policy defines no allow_exec: it decides the lines "
		 "typed, not the programs they start, and exec_decisions = "
		 "required (the default of a configuration) refuses such a "
		 "policy; see maelys-policy(5), LEVEL 1 POLICIES",
		 policy);
	expect_one(want);
	teardown();

	world(level1_only, "exec_decisions = optional\n", false);
	snprintf(want, sizeof want,
		 "maelys-pty: warning: %s: the policy defines no allow_exec: "
		 "programs are recorded, not decided (exec_decisions = "
		 "optional)",
		 policy);
	rc =
	    run_check(NULL, pts_build_path("pty/maelys-pty"), NULL, &out, &err);
	expect_sound(rc, out, err);
	ck_assert_msg(has_line(err, want), "%s", err);
	free(out);
	free(err);
	teardown();
}
END_TEST

START_TEST(test_check_missing_exec_location_is_a_warning)
{
	char want[900], *out, *err;
	int rc;

	world("allow(C) :- command(C).\nallow_exec(P) :- exec_path(P).\n"
	      "exec_dir(\"/usr\"). exec_file(\"/nonexistent/tool\").\n",
	      "landlock = required\n", false);
	snprintf(want, sizeof want,
		 "maelys-pty: warning: %s: exec_file(\"/nonexistent/tool\") "
		 "does not exist: it is left out of the Landlock ruleset, and "
		 "nothing there can run (create it, or drop the rule)",
		 policy);
	rc =
	    run_check(NULL, pts_build_path("pty/maelys-pty"), NULL, &out, &err);
	expect_sound(rc, out, err);
	ck_assert_msg(has_line(err, want), "%s", err);
	free(out);
	free(err);
	teardown();
}
END_TEST

/* A sound policy with two mistakes that load: a constant compared with a
 * constant (the engine's warning) and an integer Reason of deny (the
 * host's). */
static const char warned_policy[] = "allow(C) :- command(C).\n"
				    "allow_exec(P) :- exec_path(P).\n"
				    "exec_dir(\"/usr\").\n"
				    "allow(C) :- command(C), c = \"ls\".\n"
				    "deny(C, 3) :- command(C), C = \"rm\".\n";

/* The two lines of warned_policy's warnings (`tail` after each). */
static void
warned_lines(char *a, char *b, size_t cap, const char *tail)
{
	snprintf(a, cap,
		 "%s:4:25: comparison of two constants \"c\" = \"ls\" is "
		 "never true; a variable starts with an upper-case letter or "
		 "_%s",
		 policy, tail);
	snprintf(b, cap,
		 "%s:5:1: the Reason of deny(Op, Reason) is the integer 3, "
		 "not a string: a line this rule denies would show \"?\" as "
		 "its reason%s",
		 policy, tail);
}

START_TEST(test_check_policy_warnings_do_not_fail_the_check)
{
	char a[1200], b[1200], want[1300], *out, *err;
	int rc;

	world(warned_policy, "", false);
	rc =
	    run_check(NULL, pts_build_path("pty/maelys-pty"), NULL, &out, &err);
	expect_sound(rc, out, err);
	warned_lines(a, b, sizeof a, "");
	snprintf(want, sizeof want, "maelys-pty: warning: %s", a);
	ck_assert_msg(has_line(err, want), "wanted:\n%s\nin:\n%s", want, err);
	snprintf(want, sizeof want, "maelys-pty: warning: %s", b);
	ck_assert_msg(has_line(err, want), "wanted:\n%s\nin:\n%s", want, err);
	free(out);
	free(err);
	teardown();
}
END_TEST

START_TEST(test_check_werror_makes_policy_warnings_errors)
{
	char a[1200], b[1200], *out, *err;
	int rc;

	world(warned_policy, "", false);
	werror = true;
	rc =
	    run_check(NULL, pts_build_path("pty/maelys-pty"), NULL, &out, &err);
	werror = false;
	warned_lines(a, b, sizeof a, " (--werror)");
	expect_errors(rc, out, err, a, b, NULL);
	free(out);
	free(err);
	teardown();
}
END_TEST

/* --werror fails on the policy's warnings only: a sound policy still
 * passes (the host's warnings, such as no Yama, stay warnings). */
START_TEST(test_check_werror_passes_a_policy_without_warnings)
{
	char *out, *err;
	int rc;

	world(sound_policy, "", false);
	werror = true;
	rc =
	    run_check(NULL, pts_build_path("pty/maelys-pty"), NULL, &out, &err);
	werror = false;
	expect_sound(rc, out, err);
	free(out);
	free(err);
	teardown();
}
END_TEST

struct seen {
	unsigned n;
	char lines[8][600];
};

static void
note_warning(void *ctx, const struct pty_policy_warning *w)
{
	struct seen *s = ctx;

	if (s->n < 8)
		snprintf(s->lines[s->n], sizeof s->lines[0], "%s:%zu:%zu: %s",
			 w->source, w->line, w->column, w->what);
	s->n++;
}

/* pty_policy_warnings merges the engine's warnings and the host's in
 * source order. */
START_TEST(test_check_policy_warnings_in_source_order)
{
	static const char text[] =
	    "allow(C) :- command(C), trusted_user(\"bob\").\n"
	    "deny(C, -7) :- command(C).\n"
	    "deny(C, \"fine\") :- command(C), 1 = 2.\n";
	maelys_datalog_session_t *session = NULL;
	maelys_datalog_policy_t *pol = NULL;
	struct seen s;
	char errbuf[512];

	memset(&s, 0, sizeof s);
	ck_assert_int_eq(pty_policy_open_for_tool("p.dl", text, sizeof text - 1,
						  0, &session, &pol, NULL,
						  errbuf, sizeof errbuf),
			 0);
	ck_assert_uint_eq(pty_policy_warnings(pol, note_warning, &s), 3);
	ck_assert_str_eq(s.lines[0],
			 "p.dl:1:25: the policy has no fact of "
			 "'trusted_user/1': trusted_user(\"bob\") is never "
			 "true, so this rule never holds");
	ck_assert_str_eq(s.lines[1],
			 "p.dl:2:1: the Reason of deny(Op, Reason) is the "
			 "integer -7, not a string: a line this rule denies "
			 "would show \"?\" as its reason");
	ck_assert_str_eq(s.lines[2], "p.dl:3:32: comparison of two constants "
				     "1 = 2 is never true");
	ck_assert_uint_eq(pty_policy_warnings(NULL, note_warning, &s), 0);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(pol);
}
END_TEST

/* The shipped policies load without a warning. */
START_TEST(test_check_shipped_policies_have_no_warnings)
{
	static const char *const names[] = {"level1.dl", "bastion.dl",
					    "walkthrough.dl"};
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		maelys_datalog_session_t *session = NULL;
		maelys_datalog_policy_t *pol = NULL;
		struct seen s;
		char path[4096], errbuf[1024];

		memset(&s, 0, sizeof s);
		snprintf(path, sizeof path, "%s/policies/%s",
			 maelys_test_source_root(), names[i]);
		ck_assert_msg(
		    pty_policy_open_for_tool(path, NULL, 0, 0, &session, &pol,
					     NULL, errbuf, sizeof errbuf) == 0,
		    "%s", errbuf);
		ck_assert_msg(pty_policy_warnings(pol, note_warning, &s) == 0,
			      "%s: %s", names[i], s.lines[0]);
		(void)maelys_datalog_session_free(session);
		(void)maelys_datalog_policy_free(pol);
	}
}
END_TEST

/* Damage done to a sound deployment, and the one line it earns. */
struct damage {
	void (*apply)(void);
	/* {log}, {folder}, {key}, {guard} and {account} stand for this
	 * deployment's */
	const char *line;
};

static void
folder_missing(void)
{
	ck_assert_int_eq(rmdir(logdir), 0);
}

/* path moves to path.real, and a symbolic link to it takes its place */
static void
replace_by_symlink(const char *path)
{
	char real[400];

	snprintf(real, sizeof real, "%s.real", path);
	ck_assert_int_eq(rename(path, real), 0);
	ck_assert_int_eq(symlink(real, path), 0);
}

static void
folder_symlink(void)
{
	replace_by_symlink(logdir);
}

static void
folder_of_nobody(void)
{
	add_log();
	ck_assert_int_eq(chown(logdir, 65534, 65534), 0);
	ck_assert_int_eq(chmod(logdir, 0755), 0);
}

static void
folder_group_writable(void)
{
	ck_assert_int_eq(chmod(logdir, 0770), 0);
}

static void
folder_of_root_without_log(void)
{
	ck_assert_int_eq(chown(logdir, 0, 0), 0);
	ck_assert_int_eq(chmod(logdir, 0755), 0);
}

static void
folder_closed_to_account(void)
{
	add_log();
	ck_assert_int_eq(chown(logdir, 0, 0), 0);
	ck_assert_int_eq(chmod(logdir, 0750), 0);
}

static void
log_symlink(void)
{
	char real[400];

	snprintf(real, sizeof real, "%s/other", logdir);
	writef(real, 0640, whole_record);
	ck_assert_int_eq(symlink(real, log_path), 0);
}

static void
log_of_root(void)
{
	add_log();
	ck_assert_int_eq(chown(log_path, 0, 0), 0);
}

static void
log_group_writable(void)
{
	add_log();
	ck_assert_int_eq(chmod(log_path, 0660), 0);
}

/* its group is not the account's, and may read every user's records */
static void
log_readable_by_a_group(void)
{
	add_log();
	ck_assert_int_eq(chown(log_path, (uid_t)-1, 0), 0);
	ck_assert_int_eq(chmod(log_path, 0640), 0);
}

static void
log_read_only(void)
{
	add_log();
	ck_assert_int_eq(chmod(log_path, 0440), 0);
}

static void
log_torn(void)
{
	add_log();
	writef(log_path, 0640, "{\"v\":1}\n{\"v\":1,\"seq");
}

static void
key_missing(void)
{
	ck_assert_int_eq(unlink(key), 0);
}

static void
key_symlink(void)
{
	replace_by_symlink(key);
}

static void
key_of_root(void)
{
	ck_assert_int_eq(chown(key, 0, 0), 0);
}

static void
key_group_readable(void)
{
	ck_assert_int_eq(chmod(key, 0440), 0);
}

static void
key_unreadable(void)
{
	ck_assert_int_eq(chmod(key, 0200), 0);
}

static void
key_short(void)
{
	/* what an older maelys-pty's setup wrote: a v1 HMAC key */
	writef(key, 0600, "0123456789abcdef");
}

static void
pub_missing(void)
{
	char pub[PATH_MAX];

	snprintf(pub, sizeof pub, "%s/audit.pub", dir);
	ck_assert_int_eq(unlink(pub), 0);
}

static void
pub_writable(void)
{
	char pub[PATH_MAX];

	snprintf(pub, sizeof pub, "%s/audit.pub", dir);
	ck_assert_int_eq(chmod(pub, 0666), 0);
}

static void
guard_not_setuid(void)
{
	ck_assert_int_eq(chmod(guard, 0755), 0);
}

static void
guard_setgid(void)
{
	ck_assert_int_eq(chown(guard, 0, acct_gid), 0);
	ck_assert_int_eq(chmod(guard, 02755), 0);
}

static void
guard_setuid_root(void)
{
	ck_assert_int_eq(chown(guard, 0, 0), 0);
	ck_assert_int_eq(chmod(guard, 04755), 0);
}

static const struct damage damages[] = {
    {folder_missing, "audit_log = {log}: its folder {folder} does not exist: "
		     "run maelys-pty-setup "
		     "(it makes it 2750 {account}:{account})"},
    {folder_symlink, "audit_log = {log}: its folder {folder} is a symbolic "
		     "link: make it a real "
		     "directory (2750 {account}:{account})"},
    {folder_of_nobody,
     "audit_log = {log}: its folder {folder} is owned by nobody, not root or "
     "the "
     "audit account {account}: chown {account}:{account} {folder}"},
    {folder_group_writable, "audit_log = {log}: its folder {folder} is "
			    "writable by group or others (mode "
			    "0770): chmod 2750 {folder}"},
    {folder_of_root_without_log,
     "audit_log = {log} does not exist, and its folder {folder} (owner root, "
     "mode "
     "0755) does not let the audit account {account} create it: chown "
     "{account}:{account} {folder}"},
    {folder_closed_to_account, "audit_log = {log}: its folder {folder} (owner "
			       "root, mode 0750) does not let "
			       "the audit account {account} reach the log: "
			       "chown {account}:{account} {folder}; chmod "
			       "2750 {folder}"},
    {log_symlink,
     "audit_log = {log} is a symbolic link: the log must be a regular file "
     "(remove the link; the audit writer creates the log)"},
    {log_of_root, "audit_log = {log} is owned by root, not the audit account "
		  "{account}: chown "
		  "{account}:{account} {log}"},
    {log_group_writable,
     "audit_log = {log} is writable by group or others (mode 0660): chmod "
     "0600 {log}"},
    {log_readable_by_a_group,
     "audit_log = {log} is readable by others or by a group not the audit "
     "account's (mode 0640): chmod 0600 {log}"},
    {log_read_only, "audit_log = {log} (mode 0440) does not let the audit "
		    "account {account} read "
		    "and append to it: chmod 0600 {log}"},
    {log_torn,
     "audit_log = {log}: its last line is torn (no final newline): no record "
     "can be chained to it; check it with maelys-pty --verify-log {log}, then "
     "move it aside"},
    {key_missing,
     "audit_key = {key} does not exist: run maelys-pty-setup (it makes the "
     "log's signing state, 0600, owned by {account}, and its public key)"},
    {key_symlink,
     "audit_key = {key} is a symbolic link: the state must be a regular file"},
    {key_of_root,
     "audit_key = {key} is owned by root, not the audit account {account}, the "
     "only one that uses it: chown {account} {key}"},
    {key_group_readable,
     "audit_key = {key} gives its group or others access (mode 0440): "
     "whoever reads it can sign the next records; chmod 0600 {key}"},
    {key_unreadable, "audit_key = {key} (mode 0200) does not let the audit "
		     "account {account} read "
		     "and rewrite it: chmod 0600 {key}"},
    {key_short, "audit_key = {key} has 16 bytes, not the 187 of a "
		"forward-secure log's state (a key of an older maelys-pty, "
		"v1?): run maelys-pty-setup, which keeps the old key aside "
		"and makes a new state"},
    {pub_missing,
     "audit_verify_key = {dir}/audit.pub does not exist: --verify-log needs "
     "it (maelys-pty-setup writes it beside audit_key)"},
    {pub_writable,
     "audit_verify_key = {dir}/audit.pub may be replaced by others than root "
     "(owner uid 0, mode 0666): chown root {dir}/audit.pub && chmod 0644 "
     "{dir}/audit.pub"},
    {guard_not_setuid,
     "{guard} is not installed setuid (mode 0755), and audit_log is set: only "
     "a guard setuid to the audit account can keep the log; run "
     "maelys-pty-setup"},
    {guard_setgid,
     "{guard} is installed setgid (mode 2755), the old deployment: run "
     "maelys-pty-setup again (it installs the guard setuid to the audit "
     "account)"},
    {guard_setuid_root,
     "{guard} is installed setuid root (mode 4755): no part of the guard may "
     "run as root; run maelys-pty-setup again (it installs it setuid to the "
     "audit account)"},
};

/* A damage's line with this deployment's names put in. */
static void
expand(const char *line, char *out, size_t cap)
{
	static const struct {
		const char *name;
		const char *value;
	} names[] = {{"{log}", log_path},
		     {"{folder}", logdir},
		     {"{key}", key},
		     {"{dir}", dir},
		     {"{guard}", guard},
		     {"{account}", account}};
	size_t o = 0, i;

	while (*line != '\0' && o + 1 < cap) {
		for (i = 0; i < sizeof names / sizeof names[0]; i++)
			if (strncmp(line, names[i].name,
				    strlen(names[i].name)) == 0)
				break;
		if (i == sizeof names / sizeof names[0]) {
			out[o++] = *line++;
			continue;
		}
		o += (size_t)snprintf(out + o, cap - o, "%s", names[i].value);
		ck_assert_uint_lt(o, cap);
		line += strlen(names[i].name);
	}
	out[o] = '\0';
}

START_TEST(test_check_deployment_damage_is_one_error)
{
	char want[2048], *out, *err;
	int rc;

	world(sound_policy, "", true);
	damages[_i].apply();
	expand(damages[_i].line, want, sizeof want);
	rc = run_check(setuid_caller(), guard, NULL, &out, &err);
	expect_errors(rc, out, err, want, NULL);
	free(out);
	free(err);
	teardown();
}
END_TEST

/* In a mount namespace of its own: a fresh /dev/shm without noexec earns
 * the warning, one with noexec does not, and neither fails the check. */
START_TEST(test_check_place_without_noexec_is_a_warning)
{
	char shm[4096], want[10000], *out, *err;
	int rc;

	world(sound_policy, "", false);
	if (unshare(CLONE_NEWNS) != 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID, NULL) != 0) {
		printf("check_pty_check: SKIPPED the noexec warning: no mount "
		       "namespace here (%s)\n",
		       strerror(errno));
		teardown();
		return;
	}
	ck_assert_ptr_nonnull(realpath("/dev/shm", shm));
	snprintf(want, sizeof want,
		 "maelys-pty: warning: users write in %s, on the mount %s, "
		 "which has no noexec: code a user writes there can be loaded "
		 "into an allowed program with mmap or dlopen, which no exec "
		 "decision sees; mount it noexec (or give those places noexec "
		 "mounts of their own)",
		 shm, shm);
	rc =
	    run_check(NULL, pts_build_path("pty/maelys-pty"), NULL, &out, &err);
	expect_sound(rc, out, err);
	ck_assert_msg(has_line(err, want), "%s", err);
	free(out);
	free(err);
	ck_assert_int_eq(
	    mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NOEXEC, NULL),
	    0);
	rc =
	    run_check(NULL, pts_build_path("pty/maelys-pty"), NULL, &out, &err);
	expect_sound(rc, out, err);
	snprintf(want, sizeof want, "users write in %s,", shm);
	ck_assert_msg(strstr(err, want) == NULL, "%s", err);
	free(out);
	free(err);
	teardown();
}
END_TEST

/* Yama as this host has it: absent or 0 is a warning, 1 or more nothing. */
/* A log on the file system of /tmp, where users write (this world's log
 * folder lies under /tmp), earns a warning, and does not fail the check. */
START_TEST(test_check_log_on_a_file_system_users_write_is_a_warning)
{
	char want[1200], *out, *err;
	struct stat tmp, log;
	int rc;

	world(sound_policy, "", true);
	ck_assert_int_eq(stat("/tmp", &tmp), 0);
	ck_assert_int_eq(stat(logdir, &log), 0);
	rc = run_check(setuid_caller(), guard, NULL, &out, &err);
	expect_sound(rc, out, err);
	snprintf(want, sizeof want,
		 "maelys-pty: warning: the audit log's folder %s is on the "
		 "file system of",
		 logdir);
	if (tmp.st_dev == log.st_dev)
		ck_assert_msg(strstr(err, want) != NULL, "%s", err);
	free(out);
	free(err);
	teardown();
}
END_TEST

START_TEST(test_check_yama_is_reported_as_the_host_has_it)
{
	static const char why[] =
	    "processes of a session can write each other's memory through "
	    "/proc/PID/mem, bash's included";
	char want[900], *scope, *out, *err;
	int rc;

	world(sound_policy, "", false);
	scope = pts_slurp("/proc/sys/kernel/yama/ptrace_scope");
	rc =
	    run_check(NULL, pts_build_path("pty/maelys-pty"), NULL, &out, &err);
	expect_sound(rc, out, err);
	if (scope[0] == '\0')
		snprintf(want, sizeof want,
			 "maelys-pty: warning: no Yama "
			 "(/proc/sys/kernel/yama/ptrace_scope is absent): %s; "
			 "boot with Yama among the LSMs and set "
			 "kernel.yama.ptrace_scope = 1",
			 why);
	else if (strcmp(scope, "0\n") == 0)
		snprintf(want, sizeof want,
			 "maelys-pty: warning: kernel.yama.ptrace_scope = 0: "
			 "%s; set it to 1 (sysctl -w "
			 "kernel.yama.ptrace_scope=1, and a file in "
			 "/etc/sysctl.d to keep it)",
			 why);
	else
		want[0] = '\0';
	if (want[0] != '\0')
		ck_assert_msg(has_line(err, want), "%s", err);
	else
		ck_assert_ptr_null(strstr(err, "yama"));
	free(scope);
	free(out);
	free(err);
	teardown();
}
END_TEST

/* The run's audit account, as maelys-pty-setup makes maelys-pty. */
static void
account_add(void)
{
	char cmd[300];
	struct passwd *pw;

	snprintf(cmd, sizeof cmd,
		 "useradd --system --user-group --no-create-home --home-dir "
		 "/nonexistent --shell /usr/sbin/nologin %s",
		 account);
	if (system(cmd) != 0 || (pw = getpwnam(account)) == NULL) {
		printf("check_pty_check: cannot create the account %s "
		       "(useradd): skipped\n",
		       account);
		exit(77);
	}
	acct_uid = pw->pw_uid;
	acct_gid = pw->pw_gid;
}

static void
account_remove(void)
{
	char cmd[200];

	snprintf(cmd, sizeof cmd, "userdel %s", account);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove the account %s\n", account);
}

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("check");

	if (geteuid() != 0) {
		printf("check_pty_check: SKIPPED: configurations must be "
		       "root's and the audit account is made with useradd: "
		       "needs root\n");
		exit(77);
	}
	snprintf(account, sizeof account, "mpck%ld", (long)getpid());
	account_add();
	tcase_add_unchecked_fixture(tc, NULL, account_remove);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_check_sound_configuration_exits_0);
	tcase_add_test(
	    tc, test_check_sound_deployment_exits_0_before_and_after_a_record);
	tcase_add_test(tc, test_check_config_writable_by_others_is_one_error);
	tcase_add_test(tc, test_check_policy_that_does_not_load_is_one_error);
	tcase_add_test(tc, test_check_missing_shell_is_one_error);
	tcase_add_test(tc, test_check_shell_not_executable_is_one_error);
	tcase_add_test(tc,
		       test_check_policy_without_shell_rule_fails_both_modes);
	tcase_add_test(
	    tc, test_check_shell_allowed_interactive_only_fails_command_mode);
	tcase_add_test(tc, test_check_user_option_decides_for_that_user);
	tcase_add_test(tc,
		       test_check_user_option_and_setuid_config_are_for_root);
	tcase_add_test(
	    tc, test_check_landlock_required_without_locations_is_one_error);
	tcase_add_test(tc, test_check_missing_exec_location_is_a_warning);
	tcase_add_test(
	    tc, test_check_policy_deciding_lines_only_needs_exec_decisions_optional);
	tcase_add_test(tc, test_check_policy_warnings_do_not_fail_the_check);
	tcase_add_test(tc, test_check_werror_makes_policy_warnings_errors);
	tcase_add_test(tc, test_check_werror_passes_a_policy_without_warnings);
	tcase_add_test(tc, test_check_policy_warnings_in_source_order);
	tcase_add_test(tc, test_check_shipped_policies_have_no_warnings);
	tcase_add_loop_test(tc, test_check_deployment_damage_is_one_error, 0,
			    (int)(sizeof damages / sizeof damages[0]));
	tcase_add_test(tc, test_check_place_without_noexec_is_a_warning);
	tcase_add_test(tc, test_check_yama_is_reported_as_the_host_has_it);
	tcase_add_test(
	    tc, test_check_log_on_a_file_system_users_write_is_a_warning);
	suite_add_tcase(s, tc);
	return s;
}
