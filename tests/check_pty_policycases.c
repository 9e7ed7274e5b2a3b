/* SPDX-License-Identifier: MIT */
/*
 * The golden cases of the shipped policies and the case-file format, run
 * through the shipped runner, pty_test_run (pty/tools/test.c: what
 * `maelys-pty test` runs): every policies/cases/NAME.case holds against
 * policies/NAME.dl, and the format's rules - every fact a case supplies,
 * every malformed line refused at its file:line, a failing case reported
 * with its verdict and reasons - hold as policies/README.md describes
 * them.  tests/policy_cases.sh runs the same through the built command.
 */
#define _POSIX_C_SOURCE 200809L

#include "runner.h"

#include "pty_cases.h"
#include "pty_decide.h"
#include "pty_supervise.h"

#include <maelys/datalog_builders.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* No directory: bare names never resolve (pty/tools/cases.c). */
#define CASES_PATH_ENV ""

/* What one run printed. */
struct cases_out {
	int rc;
	char out[16384];
	char err[8192];
};

static void
cases_read_back(FILE *f, char *buf, size_t cap)
{
	size_t got;

	rewind(f);
	got = fread(buf, 1, cap - 1, f);
	buf[got] = '\0';
	fclose(f);
}

/* Runs pty_test_run on `files` with `o`, keeping what it printed. */
static void
cases_run(const struct pty_test_options *o, char *const *files, size_t n,
	  struct cases_out *r)
{
	FILE *out = tmpfile(), *err = tmpfile();

	ck_assert_ptr_nonnull(out);
	ck_assert_ptr_nonnull(err);
	r->rc = pty_test_run(o, files, n, out, err);
	cases_read_back(out, r->out, sizeof r->out);
	cases_read_back(err, r->err, sizeof r->err);
}

/* Writes `len` bytes into dir/name; returns the path in `path`. */
static void
cases_write(const char *dir, const char *name, const char *text, size_t len,
	    char *path, size_t cap)
{
	FILE *f;

	ck_assert_int_lt(snprintf(path, cap, "%s/%s", dir, name), (int)cap);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/* Runs `len` bytes of `text` as DIR/cases/p.case against `policy_text`
 * written as DIR/p.dl (the policy beside it, found by name), or against
 * the shipped level1.dl (--policy) when policy_text is NULL. */
static void
cases_run_text_with(const char *policy_text, const char *text, size_t len,
		    const struct pty_test_options *opts, struct cases_out *r)
{
	char dir[] = "/tmp/maelys-policycases-XXXXXX", sub[64], file[128];
	char pol[128], level1[4096];
	struct pty_test_options o = *opts;
	char *files[1];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	(void)snprintf(sub, sizeof sub, "%s/cases", dir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	cases_write(sub, "p.case", text, len, file, sizeof file);
	if (policy_text != NULL) {
		cases_write(dir, "p.dl", policy_text, strlen(policy_text), pol,
			    sizeof pol);
	} else {
		(void)snprintf(level1, sizeof level1, "%s/policies/level1.dl",
			       maelys_test_source_root());
		o.policy = level1;
	}
	files[0] = file;
	cases_run(&o, files, 1, r);
	unlink(file);
	if (policy_text != NULL)
		unlink(pol);
	rmdir(sub);
	rmdir(dir);
}

static void
cases_run_text_n(const char *policy_text, const char *text, size_t len,
		 bool verbose, struct cases_out *r)
{
	struct pty_test_options o;

	memset(&o, 0, sizeof o);
	o.verbose = verbose;
	cases_run_text_with(policy_text, text, len, &o, r);
}

static void
cases_run_text(const char *policy_text, const char *text, struct cases_out *r)
{
	cases_run_text_n(policy_text, text, strlen(text), false, r);
}

/* Every line of `expect` is in `got`. */
static void
cases_expect_all(const char *got, const char *const *expect, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		ck_assert_msg(strstr(got, expect[i]) != NULL,
			      "'%s' not reported:\n%s", expect[i], got);
}

START_TEST(test_policycases_shipped_cases_all_hold)
{
	char level1[4096], bastion[4096];
	char *files[2] = {level1, bastion};
	struct pty_test_options o;
	struct cases_out *r = calloc(1, sizeof *r);

	ck_assert_ptr_nonnull(r);
	memset(&o, 0, sizeof o);
	(void)snprintf(level1, sizeof level1, "%s/policies/cases/level1.case",
		       maelys_test_source_root());
	(void)snprintf(bastion, sizeof bastion,
		       "%s/policies/cases/bastion.case",
		       maelys_test_source_root());
	cases_run(&o, files, 2, r);
	ck_assert_msg(r->rc == 0, "rc %d\n%s%s", r->rc, r->out, r->err);
	/* nothing but the count: every case held */
	ck_assert_msg(strncmp(r->out + strspn(r->out, "0123456789"),
			      " passed, 0 failed\n", 19) == 0 &&
			  r->out[0] != '0',
		      "%s", r->out);
	ck_assert_str_eq(r->err, "");
	free(r);
}
END_TEST

/* A case that does not hold is reported at its file:line with the verdict
 * it got and its reasons; the cases that hold are counted, not printed. */
START_TEST(test_policycases_runner_reports_every_failure_with_its_line)
{
	static const char text[] =
	    "# a comment, then a blank line\n"
	    "\n"
	    "user alice\n"
	    "allow    curl example.com\n" /* 4: holds */
	    "allow shutdown now\n"        /* 5: POLICY, not ALLOW */
	    "user bob\n"
	    "deny curl example.com\n"      /* 7: holds */
	    "refuse git commit -m \"x\"\n" /* 8: holds */
	    "confirm-yes ls\n"             /* 9: ALLOW, not CONFIRM */
	    "log ls\n"                     /* 10: ALLOW */
	    "deny ls $X\n";                /* 11: holds */
	static const char *const expect[] = {
	    ("/cases/p.case:5: allow shutdown now: got POLICY "
	     "(deny(shutdown): command is forbidden by policy)\n"),
	    "/cases/p.case:9: confirm-yes ls: got ALLOW\n",
	    "/cases/p.case:10: log ls: got ALLOW\n",
	    "4 passed, 3 failed\n"};
	struct cases_out *r = calloc(1, sizeof *r);

	ck_assert_ptr_nonnull(r);
	cases_run_text(NULL, text, r);
	ck_assert_msg(r->rc == 1, "rc %d\n%s%s", r->rc, r->out, r->err);
	cases_expect_all(r->out, expect, sizeof expect / sizeof expect[0]);
	ck_assert_msg(strstr(r->out, ":4:") == NULL, "%s", r->out);
	ck_assert_str_eq(r->err, "");

	/* -v: every case, with its verdict and reasons, and the policy */
	cases_run_text_n(NULL, text, sizeof text - 1, true, r);
	ck_assert_int_eq(r->rc, 1);
	ck_assert_msg(strstr(r->out, "/cases/p.case: policy ") != NULL &&
			  strstr(r->out, "/policies/level1.dl\n") != NULL,
		      "%s", r->out);
	ck_assert_msg(strstr(r->out, "/cases/p.case:4: allow curl "
				     "example.com: ok ALLOW\n") != NULL,
		      "%s", r->out);
	ck_assert_msg(strstr(r->out, "/cases/p.case:11: deny ls $X: ok "
				     "POLICY (deny(__line__): shell "
				     "metacharacter in line)\n") != NULL,
		      "%s", r->out);
	cases_expect_all(r->out, expect, sizeof expect / sizeof expect[0]);
	free(r);
}
END_TEST

/* Malformed lines: each is said at its file:line, and the file does not
 * load - none of its cases is decided, the good ones neither. */
START_TEST(test_policycases_runner_malformed_lines_fail_the_file)
{
	static const char text[] =
	    "user alice\n"
	    "allow    curl example.com\n" /* 2: would hold */
	    "deny\n"                      /* 3: no command line */
	    "time 25:00\n"                /* 4: not a time */
	    "mode batch\n"                /* 5: not a mode */
	    "permit ls\n"                 /* 6: unknown keyword */
	    "  deny ls\n"                 /* 7: not in column 1 */
	    "user alice bob\n";           /* 8: one value */
	static const char *const expect[] = {
	    "/cases/p.case:3: 'deny' needs a command line\n",
	    "/cases/p.case:4: time is HH:MM",
	    "/cases/p.case:5: mode is interactive or command\n",
	    "/cases/p.case:6: unknown keyword 'permit'\n",
	    "/cases/p.case:7: a keyword must start in column 1\n",
	    "/cases/p.case:8: one value expected\n"};
	struct cases_out *r = calloc(1, sizeof *r);

	ck_assert_ptr_nonnull(r);
	cases_run_text(NULL, text, r);
	ck_assert_msg(r->rc == 2, "rc %d\n%s%s", r->rc, r->out, r->err);
	cases_expect_all(r->err, expect, sizeof expect / sizeof expect[0]);
	ck_assert_str_eq(r->out, "0 passed, 0 failed\n");
	free(r);
}
END_TEST

/* No policy, no case, a CRLF line, a NUL byte: each a file that does not
 * load, never one that passes by checking nothing. */
START_TEST(test_policycases_runner_empty_or_broken_files_fail)
{
	static const char context_only[] = "user alice\n# nothing decided\n";
	static const char broken[] = "allow ls\r\nallow l\0s\nallow ls\n";
	static const char *const expect_broken[] = {
	    ":1: carriage return in line (CRLF file?)\n",
	    ":2: NUL byte in line\n"};
	char dir[] = "/tmp/maelys-policycases-XXXXXX", a[128];
	struct pty_test_options o;
	struct cases_out *r = calloc(1, sizeof *r);
	char *files[1] = {a};

	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	cases_write(dir, "a.case", "allow ls\n", 9, a, sizeof a);
	memset(&o, 0, sizeof o);
	o.policy = "/nonexistent/x.dl";
	cases_run(&o, files, 1, r);
	ck_assert_int_eq(r->rc, 2);
	ck_assert_msg(strstr(r->err, "maelys-pty: policy /nonexistent/x.dl: ") !=
			  NULL,
		      "%s", r->err);
	/* no --policy: ../a.dl beside the file's directory, not there */
	o.policy = NULL;
	cases_run(&o, files, 1, r);
	ck_assert_int_eq(r->rc, 2);
	ck_assert_msg(strstr(r->err, "/a.dl: ") != NULL, "%s", r->err);
	unlink(a);
	rmdir(dir);

	cases_run_text(NULL, context_only, r);
	ck_assert_int_eq(r->rc, 2);
	ck_assert_msg(strstr(r->err, "/cases/p.case: no cases\n") != NULL,
		      "%s", r->err);
	cases_run_text_n(NULL, broken, sizeof broken - 1, false, r);
	ck_assert_int_eq(r->rc, 2);
	cases_expect_all(r->err, expect_broken,
			 sizeof expect_broken / sizeof expect_broken[0]);
	ck_assert_str_eq(r->out, "0 passed, 0 failed\n");
	/* not a case file at all: the first 50 lines said, then a count */
	{
		char many[70 * 8 + 1];
		size_t i;

		for (i = 0; i < 70; i++)
			memcpy(many + i * 8, "permit \n", 8);
		many[70 * 8] = '\0';
		cases_run_text(NULL, many, r);
		ck_assert_int_eq(r->rc, 2);
		ck_assert_msg(strstr(r->err, "/cases/p.case:50: unknown "
					     "keyword 'permit'\n") != NULL &&
				  strstr(r->err, ":51:") == NULL &&
				  strstr(r->err, "/cases/p.case: and 20 more "
						 "malformed lines\n") != NULL,
			      "%s", r->err);
	}
	free(r);
}
END_TEST

/* A case file's name is shown, never obeyed by the terminal (a glob may
 * give a file another user named): in every message of the runner. */
START_TEST(test_policycases_runner_file_names_never_reach_the_terminal)
{
	char dir[] = "/tmp/maelys-policycases-XXXXXX", ok[128], gone[128];
	char notcase[128], level1[4096];
	struct pty_test_options o;
	struct cases_out *r = calloc(1, sizeof *r);
	char *files[2] = {ok, gone};

	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	cases_write(dir, "\033[31mok.case", "allow ls\n", 9, ok, sizeof ok);
	(void)snprintf(gone, sizeof gone, "%s/\033[2Jgone.case", dir);
	(void)snprintf(level1, sizeof level1, "%s/policies/level1.dl",
		       maelys_test_source_root());
	memset(&o, 0, sizeof o);
	o.policy = level1;
	o.verbose = true;
	cases_run(&o, files, 2, r);
	ck_assert_int_eq(r->rc, 2);
	ck_assert_msg(strchr(r->out, '\033') == NULL, "%s", r->out);
	ck_assert_msg(strchr(r->err, '\033') == NULL, "%s", r->err);
	ck_assert_msg(strstr(r->out, "/?[31mok.case: policy ") != NULL, "%s",
		      r->out);
	ck_assert_msg(strstr(r->err, "/?[2Jgone.case: No such file") != NULL,
		      "%s", r->err);
	/* not NAME.case, with no policy named: no policy beside it */
	cases_write(dir, "\033[32mnotcase", "allow ls\n", 9, notcase,
		    sizeof notcase);
	files[0] = notcase;
	o.policy = NULL;
	cases_run(&o, files, 1, r);
	ck_assert_int_eq(r->rc, 2);
	ck_assert_msg(strchr(r->err, '\033') == NULL, "%s", r->err);
	ck_assert_msg(strstr(r->err, "/?[32mnotcase") != NULL, "%s", r->err);
	unlink(ok);
	unlink(notcase);
	rmdir(dir);
	free(r);
}
END_TEST

/* Exec cases: every fact of pty_exec.h reaches the policy as the case
 * line and the context say (a policy that allows only that exact request
 * proves it), "%20" and "%25" are decoded, and "-" leaves a fact out. */
START_TEST(test_policycases_runner_exec_cases_supply_every_fact)
{
	static const char policy_text[] =
	    "allow_exec(P) :- exec_path(P), exec_request(\"/x/req\"),\n"
	    "    exec_argc(4), exec_arg(0, \"prog\"), exec_arg(1, \"a b\"),\n"
	    "    exec_arg(2, \"50%\"), exec_arg(3, \"\"), exec_cwd(\"/w\"),\n"
	    "    exec_parent(\"/p/parent\"), session_shell(\"/s/sh\"),\n"
	    "    guard_program(\"/g/guard\"), user(\"u\"), group(\"g1\"),\n"
	    "    session_mode(\"command\"), time_of_day(\"03:04\"),\n"
	    "    exec_via(\"execve\"), not(through_any).\n"
	    "deny_exec(P, \"not the request\") :- exec_path(P),\n"
	    "    not(allow_exec(P)).\n"
	    ".decl through_any()\n"
	    "through_any :- exec_through(_).\n";
	static const char text[] =
	    "user u\n"
	    "groups g1\n"
	    "cwd /w\n"
	    "time 03:04\n"
	    "mode command\n"
	    "shell /s/sh\n"
	    "guard /g/guard\n"
	    "parent /p/parent\n"
	    "exec-allow /x/req->/x/path prog a%20b 50%25 \"\"\n"
	    "exec-deny  /x/path prog a%20b 50%25 \"\"\n" /* request = path */
	    "because not the request\n"
	    "exec-deny  /x/req->/x/path prog a%20b 50%25\n"
	    "exec-deny  /x/req->/x/path prog a%20b 50%25 \"\" more\n"
	    "parent -\n"
	    "exec-deny  /x/req->/x/path prog a%20b 50%25 \"\"\n"
	    "parent /p/parent\n"
	    "shell -\n"
	    "exec-deny  /x/req->/x/path prog a%20b 50%25 \"\"\n"
	    "shell /s/sh\n"
	    "guard -\n"
	    "exec-deny  /x/req->/x/path prog a%20b 50%25 \"\"\n"
	    "guard /g/guard\n"
	    "cwd /v\n"
	    "exec-deny  /x/req->/x/path prog a%20b 50%25 \"\"\n"
	    "cwd /w\n"
	    "mode interactive\n"
	    "exec-deny  /x/req->/x/path prog a%20b 50%25 \"\"\n";
	struct cases_out *r = calloc(1, sizeof *r);

	ck_assert_ptr_nonnull(r);
	cases_run_text(policy_text, text, r);
	ck_assert_msg(r->rc == 0, "rc %d\n%s%s", r->rc, r->out, r->err);
	ck_assert_str_eq(r->out, "9 passed, 0 failed\n");
	free(r);
}
END_TEST

/* How the program was reached: exactly one exec_via per exec case,
 * "execve" by default and with no exec_through, or what a "via" line says
 * with its path as the one exec_through; and none of it in a line's
 * decision, even right after an exec case. */
START_TEST(test_policycases_runner_exec_via_and_through_reach_the_policy)
{
	static const char policy_text[] =
	    ".decl two_vias()\n"
	    "two_vias :- exec_via(V), exec_via(W), V != W.\n"
	    ".decl two_throughs()\n"
	    "two_throughs :- exec_through(T), exec_through(U), T != U.\n"
	    ".decl through_any()\n"
	    "through_any :- exec_through(_).\n"
	    ".decl via_any()\n"
	    "via_any :- exec_via(_).\n"
	    ".decl reached(path)\n"
	    "reached(P) :- exec_path(P), exec_via(\"execve\"),\n"
	    "    not(through_any).\n"
	    "reached(P) :- exec_path(P), exec_via(\"shebang\"),\n"
	    "    exec_through(\"/s/script\").\n"
	    "reached(P) :- exec_path(P), exec_via(\"loader\"),\n"
	    "    exec_through(\"/l/ld.so\").\n"
	    "allow_exec(P) :- reached(P), not(two_vias), not(two_throughs).\n"
	    "deny_exec(P, \"not reached so\") :- exec_path(P),\n"
	    "    not(allow_exec(P)).\n"
	    "allow(C) :- command(C), not(via_any), not(through_any).\n";
	static const char text[] = "exec-allow /x/p p\n"
				   "via shebang /s/script\n"
				   "exec-allow /x/p p /s/script\n"
				   "allow ls\n"
				   "via loader /l/ld.so\n"
				   "exec-allow /x/p p\n"
				   "via loader /s/script\n"
				   "exec-deny  /x/p p\n"
				   "because not reached so\n"
				   "via shebang /l/ld.so\n"
				   "exec-deny  /x/p p\n"
				   "via execve\n"
				   "exec-allow /x/p p\n"
				   "allow ls\n";
	struct cases_out *r = calloc(1, sizeof *r);

	ck_assert_ptr_nonnull(r);
	cases_run_text(policy_text, text, r);
	ck_assert_msg(r->rc == 0, "rc %d\n%s%s", r->rc, r->out, r->err);
	ck_assert_str_eq(r->out, "8 passed, 0 failed\n");
	/* -v names how an exec case was reached */
	cases_run_text_n(policy_text, text, sizeof text - 1, true, r);
	ck_assert_msg(strstr(r->out, "/cases/p.case:8: exec-deny /x/p p "
				     "(via loader /s/script): ok POLICY "
				     "(deny_exec: not reached so)\n") != NULL,
		      "%s", r->out);
	free(r);
}
END_TEST

/* A malformed "via" line fails at its file:line. */
START_TEST(test_policycases_runner_via_malformed_lines_fail)
{
	static const char text[] =
	    "via shebang\n"                /* 1: no script */
	    "via loader lib/ld.so\n"       /* 2: relative */
	    "via execve /x\n"              /* 3: through nothing */
	    "via kexec /x\n"               /* 4: not a way */
	    "via\n"                        /* 5: nothing */
	    "via shebang /s/script more\n" /* 6: too many */
	    "exec-allow /usr/bin/ls ls\n";
	static const char *const expect[] = {
	    ":1: via shebang and via loader name an absolute path",
	    ":2: via shebang and via loader name an absolute path",
	    ":3: via execve goes through nothing",
	    ":4: via is execve, shebang PATH or loader PATH",
	    ":5: via is execve, shebang PATH or loader PATH",
	    ":6: via takes a way and at most one path"};
	static const char policy_text[] =
	    "allow_exec(P) :- exec_path(P), exec_via(\"execve\").\n";
	struct cases_out *r = calloc(1, sizeof *r);

	ck_assert_ptr_nonnull(r);
	cases_run_text(policy_text, text, r);
	ck_assert_msg(r->rc == 2, "rc %d\n%s%s", r->rc, r->out, r->err);
	cases_expect_all(r->err, expect, sizeof expect / sizeof expect[0]);
	ck_assert_msg(strstr(r->err, ":7:") == NULL, "%s", r->err);
	free(r);
}
END_TEST

/* Exec cases and "because" lines: a wrong verdict and a reason not given
 * are each reported at their file:line; a because under a case that
 * failed adds nothing. */
START_TEST(test_policycases_runner_exec_reports_every_failure_with_its_line)
{
	static const char text[] =
	    "user bob\n"
	    "exec-allow /usr/bin/ls ls\n"                             /* 2 */
	    "exec-deny /usr/bin/ls ls\n"                              /* 3 */
	    "because anything\n"                                      /* 4 */
	    "exec-deny /usr/sbin/reboot->/usr/bin/systemctl reboot\n" /* 5 */
	    "because forbidden by policy\n"                           /* 6 */
	    "because nothing like this\n"                             /* 7 */
	    "exec-allow /usr/bin/curl curl\n"                         /* 8 */
	    "deny shutdown now\n"                                     /* 9 */
	    "because forbidden\n"                                     /* 10 */
	    "because trusted\n";                                      /* 11 */
	static const char *const expect[] = {
	    "/cases/p.case:3: exec-deny /usr/bin/ls ls: got ALLOW\n",
	    ("/cases/p.case:7: because nothing like this: got POLICY "
	     "(exec_never holds; deny_exec: "),
	    ("/cases/p.case:8: exec-allow /usr/bin/curl curl: got POLICY "
	     "(exec_never holds; deny_exec: curl is restricted to trusted "
	     "users)\n"),
	    ("/cases/p.case:11: because trusted: got POLICY (deny(shutdown): "
	     "command is forbidden by policy)\n"),
	    "1 passed, 4 failed\n"};
	struct cases_out *r = calloc(1, sizeof *r);

	ck_assert_ptr_nonnull(r);
	cases_run_text(NULL, text, r);
	ck_assert_msg(r->rc == 1, "rc %d\n%s%s", r->rc, r->out, r->err);
	cases_expect_all(r->out, expect, sizeof expect / sizeof expect[0]);
	ck_assert_msg(strstr(r->out, ":4:") == NULL, "%s", r->out);
	ck_assert_str_eq(r->err, "");
	free(r);
}
END_TEST

/* Malformed exec lines and a "because" with nothing to refer to. */
START_TEST(test_policycases_runner_exec_malformed_lines_fail)
{
	static const char text[] =
	    "because curl\n"            /* 1 */
	    "exec-allow bin/ls ls\n"    /* 2 */
	    "exec-allow /usr/bin/ls a%2\n" /* 3 */
	    "parent bin\n"              /* 4 */
	    "exec-allow\n"              /* 5 */
	    "allow ls\n"                /* 6 */
	    "because ls\n";             /* 7 */
	static const char *const expect[] = {
	    ":1: 'because' follows a deny or exec-deny case\n",
	    ":2: the program (and its request) is an absolute path\n",
	    ":3: '%' is written %25",
	    ":4: a program is an absolute path",
	    ":5: an exec case needs a program\n",
	    ":7: 'because' follows a deny or exec-deny case\n"};
	struct cases_out *r = calloc(1, sizeof *r);

	ck_assert_ptr_nonnull(r);
	cases_run_text(NULL, text, r);
	ck_assert_msg(r->rc == 2, "rc %d\n%s%s", r->rc, r->out, r->err);
	cases_expect_all(r->err, expect, sizeof expect / sizeof expect[0]);
	free(r);
}
END_TEST

/* --coverage: every rule no case made true is listed at its file:line
 * with its text, before the count; a rule over the policy's facts alone
 * is made true when the session prepares, and a rule whose body held for
 * a tuple already derived counts too. */
START_TEST(test_policycases_coverage_lists_the_rules_no_case_made_true)
{
	static const char policy_text[] =
	    ".decl ok(cmd)\n"
	    "ok(\"ls\").\n"
	    ".decl listed(cmd)\n"
	    "listed(C) :- ok(C).\n"                          /* 4: prepared */
	    "allow(C) :- command(C), listed(C).\n"           /* 5: ls */
	    "allow(C) :- command(C), listed(C), arg(\"-l\").\n" /* 6: again */
	    "deny(C, \"never\") :- command(C),\n"
	    "    user(\"root\").\n"                          /* 7: no case */
	    "deny(C, \"not listed\") :- command(C), not(listed(C)).\n";
	static const char text[] = "allow ls -l\n"
				   "deny  rm\n"
				   "because not listed\n";
	struct pty_test_options o;
	struct cases_out *r = calloc(1, sizeof *r);
	const char *uncovered, *count;

	ck_assert_ptr_nonnull(r);
	memset(&o, 0, sizeof o);
	o.coverage = true;
	cases_run_text_with(policy_text, text, sizeof text - 1, &o, r);
	ck_assert_msg(r->rc == 0, "rc %d\n%s%s", r->rc, r->out, r->err);
	uncovered = strstr(r->out, "/p.dl:7: not covered: deny(C, \"never\") "
				   ":- command(C), user(\"root\").\n");
	count = strstr(r->out, "/p.dl: covered 4 of 5 rules\n");
	ck_assert_msg(uncovered != NULL && count != NULL && uncovered < count,
		      "%s", r->out);
	ck_assert_msg(strstr(r->out, ":4: not covered") == NULL &&
			  strstr(r->out, ":6: not covered") == NULL,
		      "%s", r->out);
	/* the count of cases is still the last line */
	ck_assert_msg(strstr(count, "\n2 passed, 0 failed\n") ==
			  strchr(count, '\n'),
		      "%s", r->out);
	free(r);
}
END_TEST

/* The policy's warnings (the engine's and the host's) are said before its
 * cases are decided; --werror makes a policy with one not load. */
START_TEST(test_policycases_warnings_before_the_cases_and_werror)
{
	static const char policy_text[] =
	    "allow(C) :- command(C), c = \"ls\".\n"
	    "allow(C) :- command(C), C = \"ls\".\n"
	    "deny(C, 3) :- command(C), C = \"rm\".\n";
	static const char text[] = "allow ls\n"
				   "allow rm\n";
	struct pty_test_options o;
	struct cases_out *r = calloc(1, sizeof *r);

	ck_assert_ptr_nonnull(r);
	memset(&o, 0, sizeof o);
	cases_run_text_with(policy_text, text, sizeof text - 1, &o, r);
	ck_assert_msg(r->rc == 1, "rc %d\n%s%s", r->rc, r->out, r->err);
	ck_assert_msg(strstr(r->err, "/p.dl:1:25: warning: comparison of two "
				     "constants") != NULL &&
			  strstr(r->err, "/p.dl:3:1: warning: the Reason of "
					 "deny(Op, Reason) is the integer 3") !=
			      NULL,
		      "%s", r->err);
	ck_assert_msg(strstr(r->out, "/cases/p.case:2: allow rm: got POLICY "
				     "(deny(rm): ?)\n1 passed, 1 failed\n") !=
			  NULL,
		      "%s", r->out);
	o.werror = true;
	cases_run_text_with(policy_text, text, sizeof text - 1, &o, r);
	ck_assert_msg(r->rc == 2, "rc %d\n%s%s", r->rc, r->out, r->err);
	ck_assert_msg(strstr(r->err, "is the integer 3, not a string: a line "
				     "this rule denies would show \"?\" as "
				     "its reason (--werror)\n") != NULL,
		      "%s", r->err);
	ck_assert_str_eq(r->out, "0 passed, 0 failed\n");
	/* the shipped policies have none */
	{
		char level1[4096], bastion[4096];
		char *files[2] = {level1, bastion};

		(void)snprintf(level1, sizeof level1,
			       "%s/policies/cases/level1.case",
			       maelys_test_source_root());
		(void)snprintf(bastion, sizeof bastion,
			       "%s/policies/cases/bastion.case",
			       maelys_test_source_root());
		cases_run(&o, files, 2, r);
		ck_assert_msg(r->rc == 0, "rc %d\n%s", r->rc, r->err);
		ck_assert_str_eq(r->err, "");
	}
	free(r);
}
END_TEST

/* The whole of a file of the source tree, NUL-terminated; the caller frees
 * it. */
static char *
cases_slurp(const char *rel)
{
	char path[4096];
	char *buf;
	long n;
	FILE *f;

	ck_assert_int_lt(snprintf(path, sizeof path, "%s/%s",
				  maelys_test_source_root(), rel),
			 (int)sizeof path);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(fseek(f, 0, SEEK_SET), 0);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The guard's default policy keeps the walkthrough's line rules: every
 * clause of policies/walkthrough.dl (the walkthrough's policy, verbatim)
 * is in policies/level1.dl word for word, whatever comments surround it,
 * so a session at the default prompt decides the walkthrough's lines for
 * the walkthrough's reasons, and level1.dl only adds rules. */
START_TEST(test_policycases_level1_keeps_every_walkthrough_clause)
{
	char *walk = cases_slurp("policies/walkthrough.dl");
	char *level1 = cases_slurp("policies/level1.dl");
	char clause[1024];
	size_t used = 0, nclauses = 0;
	bool in_comment = false;
	char *line, *next;

	/* the clauses come after the file's own header comment */
	line = strstr(walk, "*/\n");
	ck_assert_ptr_nonnull(line);
	for (line += 3; *line != '\0'; line = next) {
		size_t n = strcspn(line, "\n");

		next = line + n + (line[n] == '\n');
		if (in_comment || strncmp(line, "/*", 2) == 0) {
			/* comments are whole lines in both files */
			char *end = strstr(line, "*/");

			in_comment = end == NULL || end > line + n;
			continue;
		}
		if (n == 0)
			continue;
		ck_assert_uint_lt(used + n + 1, sizeof clause);
		memcpy(clause + used, line, n + 1); /* with its newline */
		used += n + 1;
		if (line[n - 1] != '.')
			continue;
		clause[used] = '\0';
		ck_assert_msg(strstr(level1, clause) != NULL,
			      "policies/level1.dl lacks the walkthrough's "
			      "clause\n%s",
			      clause);
		nclauses++;
		used = 0;
	}
	/* 3 forbidden_cmd, 2 trusted_user, 3 deny, deny_any, allow */
	ck_assert_uint_eq(nclauses, 10);
	ck_assert_uint_eq(used, 0);
	free(walk);
	free(level1);
}
END_TEST

/* The locations bastion.dl gives Landlock, read as the guard reads them
 * once a session starts (its session facts alone): the session's ssh, the
 * wrapper, where it is installed, and the real ssh it runs are files the
 * kernel lets the session execute; no directory is. */
START_TEST(test_policycases_bastion_exec_files_include_both_ssh)
{
	static const char *const files[] = {
	    "/usr/local/libexec/maelys-pty/bin/ssh",
	    "/usr/libexec/maelys-pty/bin/ssh",
	    "/usr/bin/ssh",
	    "/usr/bin/git",
	};
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_session_t *session = NULL;
	maelys_datalog_result_t *res = NULL;
	struct pty_decider *d = calloc(1, sizeof *d);
	char policy[4096], err[1024];
	size_t i, ndirs = 1;

	ck_assert_ptr_nonnull(d);
	(void)snprintf(policy, sizeof policy, "%s/policies/bastion.dl",
		       maelys_test_source_root());
	ck_assert_msg(pty_policy_open(policy, &session, NULL, err, sizeof err) == 0,
		      "%s", err);
	(void)pty_decider_init(d, session, NULL, CASES_PATH_ENV);
	ck_assert_ptr_nonnull(d->edb);
	ck_assert_int_eq(maelys_datalog_input_edb_clear(d->edb),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(
	    pty_decider_add_session_facts(d, PTY_MODE_INTERACTIVE, &diag),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_msg(
	    maelys_datalog_session_solve_edb(session, d->edb, &res, &diag) ==
		MAELYS_DATALOG_STATUS_OK,
	    "%s", diag.message);
	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		maelys_datalog_arg_t f = maelys_datalog_arg_symbol(files[i]);
		int yes = 0;

		ck_assert_int_eq(
		    maelys_datalog_result_query(res, "exec_file", &f, 1, &yes),
		    MAELYS_DATALOG_STATUS_OK);
		ck_assert_msg(yes, "bastion.dl: no exec_file(\"%s\")",
			      files[i]);
	}
	ck_assert_int_eq(
	    maelys_datalog_result_count(res, "exec_dir", 1, &ndirs),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(ndirs, 0);
	(void)maelys_datalog_result_free(res);
	pty_decider_free(d);
	free(d);
	(void)maelys_datalog_session_free(session);
}
END_TEST

/* A verdict that rests on one row of a large relation: the row for the
 * line's command comes after more rows of other commands than a page of
 * the result holds, and must still be found (allow_with_log, its reason),
 * and a refusal counts every deny row and shows the first of them. */
START_TEST(test_policycases_rows_of_a_large_relation_are_all_read)
{
	maelys_datalog_session_t *session = NULL;
	struct pty_decider *d = calloc(1, sizeof *d);
	struct pty_decision *dec = calloc(1, sizeof *dec);
	char policy[16384], err[1024];
	size_t off = 0;
	int i;

	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(dec);
	off += (size_t)snprintf(policy, sizeof policy, ".decl noisy(cmd)\n");
	for (i = 0; i < 150; i++)
		off += (size_t)snprintf(policy + off, sizeof policy - off,
					"noisy(\"cmd%d\").\n", i);
	off += (size_t)snprintf(
	    policy + off, sizeof policy - off,
	    "allow_with_log(C, \"noise\") :- noisy(C).\n"
	    "allow_with_log(\"ls\", \"listing is logged\") :- "
	    "command(\"ls\").\n"
	    "deny(C, \"noise\") :- noisy(C).\n"
	    "deny(\"rm\", \"rm is refused\") :- command(\"rm\").\n");
	ck_assert_msg(pty_policy_open_text("rows.dl", policy, off, &session, NULL,
					   err, sizeof err) == 0,
		      "%s", err);
	ck_assert_int_eq(pty_decider_init(d, session, NULL, CASES_PATH_ENV), 0);
	pty_decide(d, "ls", 2, PTY_MODE_INTERACTIVE, dec);
	ck_assert_int_eq(dec->verdict, PTY_VERDICT_ALLOW_LOG);
	ck_assert_str_eq(dec->log_reason, "listing is logged");
	pty_decide(d, "rm -rf x", 8, PTY_MODE_INTERACTIVE, dec);
	ck_assert_int_eq(dec->verdict, PTY_VERDICT_POLICY);
	ck_assert_uint_eq(dec->reasons_total, 151);
	ck_assert_uint_eq(dec->nreasons, PTY_REASONS_MAX);
	pty_decider_free(d);
	(void)maelys_datalog_session_free(session);
	free(dec);
	free(d);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("policycases");

	tcase_add_test(tc, test_policycases_shipped_cases_all_hold);
	tcase_add_test(
	    tc, test_policycases_runner_reports_every_failure_with_its_line);
	tcase_add_test(tc,
		       test_policycases_runner_malformed_lines_fail_the_file);
	tcase_add_test(tc, test_policycases_runner_empty_or_broken_files_fail);
	tcase_add_test(
	    tc, test_policycases_runner_file_names_never_reach_the_terminal);
	tcase_add_test(tc, test_policycases_runner_exec_malformed_lines_fail);
	tcase_add_test(
	    tc, test_policycases_coverage_lists_the_rules_no_case_made_true);
	tcase_add_test(tc,
		       test_policycases_warnings_before_the_cases_and_werror);
	tcase_add_test(tc,
		       test_policycases_runner_exec_cases_supply_every_fact);
	tcase_add_test(
	    tc,
	    test_policycases_runner_exec_reports_every_failure_with_its_line);
	tcase_add_test(
	    tc, test_policycases_runner_exec_via_and_through_reach_the_policy);
	tcase_add_test(tc, test_policycases_runner_via_malformed_lines_fail);
	tcase_add_test(tc,
		       test_policycases_level1_keeps_every_walkthrough_clause);
	tcase_add_test(tc,
		       test_policycases_bastion_exec_files_include_both_ssh);
	tcase_add_test(tc,
		       test_policycases_rows_of_a_large_relation_are_all_read);
	suite_add_tcase(s, tc);
	return s;
}
