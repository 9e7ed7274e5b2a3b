/* SPDX-License-Identifier: MIT */
/*
 * `maelys-pty explain` (pty/tools/explain*.c), driven as a person runs it:
 * the built program with a shipped policy and a stated context (user,
 * groups, time, directory), asserting the lines a person reads - the
 * verdict, each rule's file:line and text, the session's facts it matched,
 * the literal that failed and the deny that made it fail - for lines and
 * programs of level1.dl and bastion.dl; a line the scanner refuses; and
 * each usage error (exit 2, one line naming the word).  No root needed.
 */
#define _GNU_SOURCE
#include "runner.h"

#include "pty_decide.h"
#include "pty_harness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <maelys/datalog.h>

/* Runs `maelys-pty explain` with the words given (NULL-ended); returns the
 * exit status, with stdout and stderr in *out and *err. */
static int
explain(char **out, char **err, ...)
{
	char *argv[40];
	int argc = 0;
	va_list ap;

	argv[argc++] = "maelys-pty";
	argv[argc++] = "explain";
	va_start(ap, err);
	while (argc < 39 && (argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	return pts_run_path(pts_build_path("pty/maelys-pty"), argv,
			    (char *[]){"PATH=/usr/bin:/bin", "LC_ALL=C", NULL},
			    out, err);
}

/* The policy's path as the tests give it, and the line of its first line
 * that begins with `start` (where the rule is written). */
static const char *
policy(const char *name)
{
	static char buf[2][1024];
	static int k;

	k = (k + 1) % 2;
	snprintf(buf[k], sizeof buf[k], "%s/policies/%s",
		 maelys_test_source_root(), name);
	return buf[k];
}

static size_t
line_of(const char *path, const char *start)
{
	char *text = pts_slurp(path), *p;
	size_t line = 1;

	ck_assert_ptr_nonnull(text);
	for (p = text; *p != '\0'; p++) {
		if ((p == text || p[-1] == '\n') &&
		    strncmp(p, start, strlen(start)) == 0) {
			free(text);
			return line;
		}
		if (*p == '\n')
			line++;
	}
	free(text);
	ck_abort_msg("%s: no line begins with %s", path, start);
	return 0;
}

/* out holds the line `want` (a whole line). */
static void
has_line(const char *out, const char *want)
{
	const char *p = out;
	size_t n = strlen(want);

	while ((p = strstr(p, want)) != NULL) {
		if ((p == out || p[-1] == '\n') &&
		    (p[n] == '\n' || p[n] == '\0'))
			return;
		p++;
	}
	/* the output is longer than a Check message may be */
	fprintf(stderr, "--- the output:\n%s---\n", out);
	ck_abort_msg("no line '%s' (the output is on stderr)", want);
}

/* has_line with a printf format. */
static void has_line_fmt(const char *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
has_line_fmt(const char *out, const char *fmt, ...)
{
	char want[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof want, fmt, ap);
	va_end(ap);
	has_line(out, want);
}

#define ALICE                                                                  \
	"--user", "alice", "--group", "alice", "--time", "10:30", "--cwd",     \
	    "/home/alice", "--remote", "198.51.100.7", "--host", "bastion1"
#define PROGRAMS                                                               \
	"--shell", "/usr/bin/bash", "--guard", "/usr/local/bin/maelys-pty"

START_TEST(test_explain_level1_allowed_line_shows_rule_and_facts)
{
	const char *p = policy("level1.dl");
	char *out, *err;

	ck_assert_int_eq(explain(&out, &err, "--policy", p, "--user", "bob",
				 "--group", "bob", "--cwd", "/home/bob",
				 "--time", "09:00", "git push origin main",
				 NULL),
			 0);
	has_line(out, "line: git push origin main");
	has_line(out, "verdict: allowed (allow)");
	has_line_fmt(out, "  allow(\"git\")  by %s:%zu", p,
		     line_of(p, "allow(Cmd) :-"));
	has_line(out, "    rule: allow(Cmd) :- command(Cmd), "
		      "not(deny_any(\"__line__\")), not(deny_any(Cmd)).");
	has_line(out, "    command(\"git\")  input fact (the session's)");
	has_line(out, "    not deny_any(\"git\")  holds: no such tuple");
	ck_assert_ptr_null(strstr(out, "why no rule"));
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
}
END_TEST

START_TEST(test_explain_level1_refused_line_names_the_deny_that_fired)
{
	const char *p = policy("level1.dl");
	char *out, *err;

	ck_assert_int_eq(explain(&out, &err, "--policy", p, "--user", "bob",
				 "--group", "bob", "--cwd", "/home/bob",
				 "shutdown now", NULL),
			 1);
	has_line(out, "verdict: denied by policy: no rule allows 'shutdown'");
	has_line(out, "why no rule allows it:");
	has_line_fmt(out,
		     "  %s:%zu: allow(Cmd) :- command(Cmd), "
		     "not(deny_any(\"__line__\")), not(deny_any(Cmd)).",
		     p, line_of(p, "allow(Cmd) :-"));
	has_line_fmt(out, "    fails at not(deny_any(Cmd)) (%s:%zu:5)", p,
		     line_of(p, "allow(Cmd) :-") + 3);
	has_line(out, "      which holds:");
	has_line_fmt(out, "      deny_any(\"shutdown\")  by %s:%zu", p,
		     line_of(p, "deny_any(Op) :-"));
	/* the deny itself, down to the facts */
	has_line_fmt(out,
		     "  deny(\"shutdown\", \"command is forbidden by "
		     "policy\")  by %s:%zu",
		     p, line_of(p, "deny(Cmd, \"command is forbidden by"));
	has_line(out, "    command(\"shutdown\")  input fact (the session's)");
	has_line(out, "    forbidden_cmd(\"shutdown\")  fact of the policy");
	free(out);
	free(err);
}
END_TEST

START_TEST(test_explain_bastion_allowed_line)
{
	const char *p = policy("bastion.dl");
	char *out, *err;

	ck_assert_int_eq(
	    explain(&out, &err, "--policy", p, ALICE, "ls -la /etc", NULL), 0);
	has_line(out, "facts: user alice, groups alice, cwd /home/alice, "
		      "time 10:30, mode interactive, host bastion1, remote "
		      "198.51.100.7");
	has_line(out, "verdict: allowed (allow)");
	has_line_fmt(out, "  allow(\"ls\")  by %s:%zu", p,
		     line_of(p, "allow(C) :- ok(C), clean(C)."));
	has_line(out, "    rule: allow(C) :- ok(C), clean(C).");
	has_line_fmt(out, "    ok(\"ls\")  by %s:%zu", p,
		     line_of(p, "ok(C) :- command(C), inspect_cmd(C)."));
	has_line(out, "      command(\"ls\")  input fact (the session's)");
	has_line(out, "      inspect_cmd(\"ls\")  fact of the policy");
	/* a subtree already shown is not shown twice: command("ls") is a
	 * leaf, so it is repeated; clean("ls") is derived once */
	has_line(out, "      not deny_any(\"__line__\")  holds: no such tuple");
	free(out);
	free(err);
}
END_TEST

START_TEST(test_explain_bastion_refused_line_tree)
{
	const char *p = policy("bastion.dl");
	size_t allow = line_of(p, "allow(C) :- ok(C), clean(C).");
	size_t clean = line_of(p, "clean(C) :- command(C)");
	char *out, *err;

	ck_assert_int_eq(explain(&out, &err, "--policy", p, ALICE,
				 "ssh app1.example.net", NULL),
			 1);
	has_line_fmt(out,
		     "  deny(\"ssh\", \"production hosts are for members of "
		     "the ops group\")  by %s:%zu",
		     p, line_of(p, "deny(Op, R) :- refuse(Op, R)."));
	has_line(out, "      not group(\"ops\")  holds: no such tuple");
	has_line(out, "            argv(2, \"app1.example.net\")  input fact "
		      "(the session's)");
	has_line_fmt(out, "  %s:%zu: allow(C) :- ok(C), clean(C).", p, allow);
	has_line_fmt(out, "    fails at ok(C) (%s:%zu:13)", p, allow);
	/* allow_with_log would, with the reason of production, but for the
	 * deny: the why-not follows clean("ssh") to the deny_any that holds */
	has_line(out, "    with R = \"ssh to a production host is recorded\"");
	has_line_fmt(out, "    fails at clean(C) (%s:%zu:%zu)", p, allow + 1,
		     strlen("allow_with_log(C, R) :- ok_logged(C, R), ") + 1);
	has_line_fmt(out, "        fails at not(deny_any(C)) (%s:%zu:52)", p,
		     clean);
	has_line(out, "verdict: denied by policy: no rule allows 'ssh'");
	has_line_fmt(out, "          deny_any(\"ssh\")  by %s:%zu", p,
		     line_of(p, "deny_any(Op) :- deny(Op, _)."));
	free(out);
	free(err);
}
END_TEST

START_TEST(test_explain_bastion_allowed_program)
{
	const char *p = policy("bastion.dl");
	char *out, *err;

	ck_assert_int_eq(explain(&out, &err, "--policy", p, ALICE, PROGRAMS,
				 "--exec", "/usr/bin/ls", "--", "ls", "-la",
				 "/etc", NULL),
			 0);
	has_line(out, "program: /usr/bin/ls, argv: ls -la /etc");
	has_line(out, "verdict: allowed (allow_exec)");
	has_line_fmt(out, "  allow_exec(\"/usr/bin/ls\")  by %s:%zu", p,
		     line_of(p, "allow_exec(P) :-"));
	has_line(out, "    rule: allow_exec(P) :- exec_ok(P), "
		      "not(exec_refused(P)).");
	has_line(out, "        exec_parent(\"/usr/bin/bash\")  input fact "
		      "(the session's)");
	has_line(out, "        session_shell(\"/usr/bin/bash\")  input fact "
		      "(the session's)");
	has_line(out,
		 "      shell_program(\"/usr/bin/ls\")  fact of the policy");
	free(out);
	free(err);
}
END_TEST

START_TEST(test_explain_bastion_refused_program)
{
	const char *p = policy("bastion.dl");
	char *out, *err;

	/* a shell started by the guard that is not the session's shell */
	ck_assert_int_eq(explain(&out, &err, "--policy", p, ALICE, PROGRAMS,
				 "--parent", "/usr/local/bin/maelys-pty",
				 "--exec", "/nonexistent/maelys-explain/zsh",
				 "--", "zsh", "-i", NULL),
			 1);
	has_line(out, "verdict: denied by policy: no rule allows "
		      "'/nonexistent/maelys-explain/zsh'");
	has_line(out, "why no rule allows it:");
	has_line_fmt(out,
		     "  %s:%zu: allow_exec(P) :- exec_ok(P), "
		     "not(exec_refused(P)).",
		     p, line_of(p, "allow_exec(P) :-"));
	has_line_fmt(out,
		     "  deny_exec(\"/nonexistent/maelys-explain/zsh\", "
		     "\"shells run anything: there is no shell on the "
		     "bastion\")  by %s:%zu",
		     p, line_of(p, "deny_exec(P, R) :- refuse_exec(P, R)."));
	/* the guard may start the session's shell only: this is not it */
	has_line_fmt(out, "            fails at session_shell(P) (%s:%zu:32)",
		     p, line_of(p, "session_start :- exec_path(P)"));
	free(out);
	free(err);
}
END_TEST

START_TEST(test_explain_level1_programs)
{
	const char *p = policy("level1.dl");
	size_t allow = line_of(p, "allow_exec(P) :-");
	char *out, *err;

	ck_assert_int_eq(explain(&out, &err, "--policy", p, "--user", "bob",
				 PROGRAMS, "--exec",
				 "/nonexistent/maelys-explain/tool", NULL),
			 0);
	has_line(out, "program: /nonexistent/maelys-explain/tool, argv: tool");
	has_line_fmt(out,
		     "  allow_exec(\"/nonexistent/maelys-explain/tool\")  by "
		     "%s:%zu",
		     p, allow);
	has_line(out, "    exec_path(\"/nonexistent/maelys-explain/tool\")  "
		      "input fact (the session's)");
	free(out);
	free(err);
	ck_assert_int_eq(explain(&out, &err, "--policy", p, "--user", "bob",
				 PROGRAMS, "--exec",
				 "/nonexistent/maelys-explain/busybox", "--",
				 "busybox", "sh", NULL),
			 1);
	has_line_fmt(out, "    fails at not(deny_exec_any(P)) (%s:%zu:5)", p,
		     allow + 2);
	has_line(out, "      which holds:");
	has_line_fmt(out,
		     "      deny_exec_any(\"/nonexistent/maelys-explain/"
		     "busybox\")  by %s:%zu",
		     p, line_of(p, "deny_exec_any(P) :-"));
	free(out);
	free(err);
}
END_TEST

/* The walkthrough's policy decides lines only: with --policy (what
 * `maelys-pty --policy` runs, exec_decisions = optional) a program is
 * recorded, not decided, and would run. */
START_TEST(test_explain_policy_deciding_lines_only_records_programs)
{
	char *out, *err;

	ck_assert_int_eq(explain(&out, &err, "--policy",
				 policy("walkthrough.dl"), "--user", "bob",
				 PROGRAMS, "--exec", "/usr/bin/git", "--",
				 "git", "push", NULL),
			 0);
	has_line(out,
		 "verdict: recorded, not decided: the policy defines no "
		 "allow_exec (it decides lines only), and with exec_decisions "
		 "= optional a session records this program and runs it "
		 "(maelys-policy(5), LEVEL 1 POLICIES)");
	has_line(out, "  no rule has the head allow_exec");
	free(out);
	free(err);
}
END_TEST

/* A provenance session (explain, test --coverage) gets eight times a
 * session's memory budget, for its records; a session without the flag
 * keeps the engine's default. */
START_TEST(test_explain_provenance_session_gets_room_for_records)
{
	static const char text[] = "allow(C) :- command(C).\n";
	maelys_datalog_session_t *plain = NULL, *prov = NULL;
	maelys_datalog_policy_t *policy = NULL;
	uint64_t def = 0, got = 0;
	char err[512];

	ck_assert_int_eq(maelys_datalog_budget_default(
			     MAELYS_DATALOG_BUDGET_MEMORY, &def),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(pty_policy_open_for_tool("p.dl", text, strlen(text),
						  0, &plain, &policy, NULL,
						  err, sizeof err),
			 0);
	ck_assert_int_eq(maelys_datalog_session_get_budget(
			     plain, MAELYS_DATALOG_BUDGET_MEMORY, &got),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(got, def);
	(void)maelys_datalog_policy_free(policy);
	ck_assert_int_eq(pty_policy_open_for_tool(
			     "p.dl", text, strlen(text),
			     MAELYS_DATALOG_SESSION_PROVENANCE, &prov, &policy,
			     NULL, err, sizeof err),
			 0);
	ck_assert_int_eq(maelys_datalog_session_get_budget(
			     prov, MAELYS_DATALOG_BUDGET_MEMORY, &got),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(got, 8 * def);
	(void)maelys_datalog_policy_free(policy);
	(void)maelys_datalog_session_free(plain);
	(void)maelys_datalog_session_free(prov);
}
END_TEST

START_TEST(test_explain_scanner_refusal_has_no_tree)
{
	char *out, *err;

	ck_assert_int_eq(explain(&out, &err, "--policy", policy("bastion.dl"),
				 ALICE, "echo \"hi\"", NULL),
			 1);
	has_line(out, "verdict: denied before solving: quoted syntax is "
		      "unsupported (at byte 5); the scanner refuses the line, "
		      "no rule is asked");
	ck_assert_ptr_null(strstr(out, "rows:"));
	ck_assert_ptr_null(strstr(out, "why no rule"));
	free(out);
	free(err);
}
END_TEST

/* Each usage error: exit 2, one line that names the word, nothing on
 * stdout. */
START_TEST(test_explain_bad_options_exit_2)
{
	static const struct {
		const char *words[4];
		const char *says;
	} cases[] = {
	    {{"--time", "25:00", "ls"}, "--time '25:00': the time as HH:MM"},
	    {{"--mode", "batch", "ls"},
	     "--mode 'batch': interactive or command"},
	    {{"--depth", "0", "ls"}, "--depth '0': a number from 1 to 64"},
	    {{"--depth=65", "ls"}, "--depth '65': a number from 1 to 64"},
	    {{"--cwd", "home", "ls"}, "--cwd 'home': an absolute path"},
	    {{"--bogus", "ls"}, "unknown option '--bogus'"},
	    {{"ls", "-la"}, "unknown option '-la'"},
	    {{"ls", "pwd"}, "'pwd' is one word too many"},
	    {{"--shell", "/bin/sh", "ls"},
	     "--shell, --guard and --parent go "
	     "with --exec"},
	    {{"--config", "/x", "ls"}, "--config and --policy exclude"},
	    {{"--user"}, "--user needs a value"},
	    {{NULL}, "give a line to explain, or --exec PATH"},
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *out, *err;
		const char *const *w = cases[i].words;
		int rc = explain(&out, &err, "--policy", policy("level1.dl"),
				 w[0], w[1], w[2], w[3], NULL);

		ck_assert_msg(rc == 2, "case %zu: exit %d", i, rc);
		ck_assert_msg(strstr(err, cases[i].says) != NULL &&
				  strncmp(err, "maelys-pty: ", 12) == 0,
			      "case %zu: %s", i, err);
		ck_assert_str_eq(out, "");
		free(out);
		free(err);
	}
}
END_TEST

/* A value longer than a session could hold is refused, never cut into
 * another value the policy would decide on. */
START_TEST(test_explain_too_long_values_exit_2)
{
	char path[4098], name[258], *out, *err;

	path[0] = '/';
	memset(path + 1, 'a', sizeof path - 2);
	path[sizeof path - 1] = '\0'; /* 4096 bytes */
	memset(name, 'u', sizeof name - 1);
	name[sizeof name - 1] = '\0'; /* 257 bytes */
	ck_assert_int_eq(explain(&out, &err, "--policy", policy("level1.dl"),
				 "--cwd", path, "ls", NULL),
			 2);
	ck_assert_msg(strstr(err, "--cwd '/aaa") != NULL &&
			  strstr(err, "': at most 4095 bytes") != NULL,
		      "%s", err);
	ck_assert_str_eq(out, "");
	free(out);
	free(err);
	ck_assert_int_eq(explain(&out, &err, "--policy", policy("level1.dl"),
				 "--user", name, "ls", NULL),
			 2);
	ck_assert_msg(strstr(err, "': at most 255 bytes") != NULL, "%s", err);
	free(out);
	free(err);
	/* the longest that fits is taken whole */
	path[4095] = '\0';
	ck_assert_int_eq(explain(&out, &err, "--policy", policy("level1.dl"),
				 "--cwd", path, "ls", NULL),
			 0);
	ck_assert_ptr_nonnull(strstr(out, path));
	free(out);
	free(err);
}
END_TEST

/* What the options say is shown, never obeyed by the terminal: no escape
 * byte reaches stdout or stderr. */
START_TEST(test_explain_control_bytes_never_reach_the_terminal)
{
	char *out, *err;

	ck_assert_int_eq(explain(&out, &err, "--policy", policy("level1.dl"),
				 "--cwd", "/tmp/\033[31mred", "--host",
				 "h\033]0;title\a", "--remote", "\033[2J",
				 "--user", "al\033[1mice", "ls", NULL),
			 0);
	ck_assert_msg(strchr(out, '\033') == NULL, "%s", out);
	ck_assert_msg(strchr(err, '\033') == NULL, "%s", err);
	has_line(out,
		 "facts: user al?[1mice, groups (none), cwd /tmp/?[31mred, "
		 "time now, mode interactive, host h?]0;title?, remote "
		 "?[2J");
	free(out);
	free(err);
	ck_assert_int_eq(explain(&out, &err, "--policy", policy("level1.dl"),
				 "--time", "1\033[2J", "ls", NULL),
			 2);
	ck_assert_msg(strchr(err, '\033') == NULL, "%s", err);
	ck_assert_ptr_nonnull(strstr(err, "--time '1?[2J'"));
	free(out);
	free(err);
	ck_assert_int_eq(explain(&out, &err, "--policy", policy("level1.dl"),
				 "--exec", "/bin/true", "--shell",
				 "/bin/\033[2Jsh", "--guard", "/g\033[0m",
				 "--parent", "/p\033x", NULL),
			 0);
	ck_assert_msg(strchr(out, '\033') == NULL, "%s", out);
	has_line(out, "      shell /bin/?[2Jsh, guard /g?[0m, parent /p?x");
	free(out);
	free(err);
}
END_TEST

START_TEST(test_explain_unreadable_policy_exit_2)
{
	char *out, *err;

	ck_assert_int_eq(explain(&out, &err, "--policy",
				 "/nonexistent/maelys-explain.dl", "ls", NULL),
			 2);
	ck_assert_ptr_nonnull(strstr(
	    err, "maelys-pty: explain: policy /nonexistent/maelys-explain.dl"));
	free(out);
	free(err);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("explain");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc,
		       test_explain_level1_allowed_line_shows_rule_and_facts);
	tcase_add_test(
	    tc, test_explain_level1_refused_line_names_the_deny_that_fired);
	tcase_add_test(tc, test_explain_bastion_allowed_line);
	tcase_add_test(tc, test_explain_bastion_refused_line_tree);
	tcase_add_test(tc, test_explain_bastion_allowed_program);
	tcase_add_test(tc, test_explain_bastion_refused_program);
	tcase_add_test(tc, test_explain_level1_programs);
	tcase_add_test(tc, test_explain_provenance_session_gets_room_for_records);
	tcase_add_test(tc,
		       test_explain_policy_deciding_lines_only_records_programs);
	tcase_add_test(tc, test_explain_scanner_refusal_has_no_tree);
	tcase_add_test(tc, test_explain_bad_options_exit_2);
	tcase_add_test(tc, test_explain_unreadable_policy_exit_2);
	tcase_add_test(tc, test_explain_too_long_values_exit_2);
	tcase_add_test(tc, test_explain_control_bytes_never_reach_the_terminal);
	suite_add_tcase(s, tc);
	return s;
}
