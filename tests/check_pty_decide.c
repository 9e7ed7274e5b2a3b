/* SPDX-License-Identifier: MIT */
/*
 * `maelys-pty decide` (pty/tools/decide*.c), driven as a program runs it:
 * JSON requests on its standard input, the answers read back as JSON.
 *   - every case of the shipped case files (policies/cases/NAME.case, read
 *     with pty/tools/cases.c's own reader) asked of decide gets the
 *     verdict the case expects, and a "because" is among the reasons;
 *   - each answer's form: allow, deny with reasons, refuse with its
 *     offset, log, confirm, an exec request;
 *   - every error answered {"error", "line"} and the worker goes on:
 *     malformed JSON, a non-object, an unknown field, a wrong type, a
 *     duplicate key, too deep, too long, line and exec together;
 *   - invalid UTF-8 in a policy's reason still gives valid JSON;
 *   - a long stream: one answer per request, in order;
 *   - with an audit log (root: decide runs as nobody with setpriv, as
 *     check_pty_exec.c runs an unprivileged guard): session_start and
 *     session_end, a record of each line and exec before its answer, the
 *     chain intact; another user or other groups refused; a record that
 *     cannot be written denied, with deny and with terminate.
 * The rest needs no root.
 */
#define _GNU_SOURCE
#include "runner.h"

#include "pty_cases.h"
#include "pty_decide_json.h"
#include "pty_harness.h"

#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/maelys-decide-XXXXXX";
/* whether mkdtemp filled tmpdir (its last letter may be an X itself) */
static bool tmpdir_made;

/* After each test (in its own process, as Check forks it): the scratch
 * folder goes, if the test made one. */
static void
decide_teardown(void)
{
	char cmd[PATH_MAX + 16];

	if (!tmpdir_made)
		return;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
}

static const char *
src_path(const char *rel)
{
	static char buf[4][2 * PATH_MAX];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", maelys_test_source_root(),
		 rel);
	return buf[k];
}

/* Runs `maelys-pty decide ARGS` with `input` on its standard input; the
 * exit status, stdout in *out. */
static int
decide(const char *input, size_t len, const char *args, char **out)
{
	char in[PATH_MAX], cmd[3 * PATH_MAX], *err = NULL;
	FILE *f;
	int rc;

	if (!tmpdir_made) {
		ck_assert_ptr_nonnull(mkdtemp(tmpdir));
		tmpdir_made = true;
	}
	snprintf(in, sizeof in, "%s/in", tmpdir);
	f = fopen(in, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(input, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
	snprintf(cmd, sizeof cmd, "exec '%s' decide %s < '%s'",
		 pts_build_path("pty/maelys-pty"), args, in);
	rc = pts_run_path("/bin/sh", (char *[]){"sh", "-c", cmd, NULL},
			  (char *[]){"PATH=/usr/bin:/bin", "LC_ALL=C", NULL},
			  out, &err);
	free(err);
	return rc;
}

/* The answers, one JSON value a line; each must be an object. */
static json_t *
answers(const char *out, size_t *n)
{
	json_t *all = json_array();
	const char *p = out;

	while (*p != '\0') {
		const char *nl = strchr(p, '\n');
		json_error_t e;
		json_t *v;

		ck_assert_msg(nl != NULL, "answer without newline: %s", p);
		v = json_loadb(p, (size_t)(nl - p), 0, &e);
		ck_assert_msg(v != NULL && json_is_object(v),
			      "not a JSON object: %.*s (%s)", (int)(nl - p), p,
			      e.text);
		json_array_append_new(all, v);
		p = nl + 1;
	}
	*n = json_array_size(all);
	return all;
}

static const char *
field(json_t *a, size_t i, const char *key)
{
	json_t *v = json_object_get(json_array_get(a, i), key);

	return json_is_string(v) ? json_string_value(v) : "";
}

/* Whether a reason of answer i contains `text`. */
static bool
has_reason(json_t *a, size_t i, const char *text)
{
	json_t *r = json_object_get(json_array_get(a, i), "reasons");
	size_t k;

	for (k = 0; k < json_array_size(r); k++)
		if (strstr(json_string_value(json_array_get(r, k)), text))
			return true;
	return false;
}

/* The request of a case: the context's facts, and the line (with
 * "confirmed" when `confirmed`) or the exec.  Every case can be said: a
 * fact the context has not ("host -", "guard -", ...) is null; an exec
 * case's path is what the kernel opened, sent as "exec", and what the
 * process asked for as "request"; "via" and "through" as the context's. */
static char *
case_request(const struct pty_case_reader *r, const struct pty_case *c,
	     const struct pty_exec_request *rq, size_t id, bool confirmed)
{
	static const char *const via[] = {
	    [PTY_EXEC_VIA_EXECVE] = "execve",
	    [PTY_EXEC_VIA_SHEBANG] = "shebang",
	    [PTY_EXEC_VIA_LOADER] = "loader",
	};
	const struct pty_case_context *x = &r->ctx;
	json_t *o = json_object(), *g = json_array(), *argv;
	char *s;
	size_t i;

#define OR_NULL(v) ((v)[0] != '\0' ? json_string(v) : json_null())
	json_object_set_new(o, "id", json_integer((json_int_t)id));
	json_object_set_new(o, "user", json_string(x->who.user));
	for (i = 0; i < x->who.ngroups; i++)
		json_array_append_new(g, json_string(x->who.groups[i]));
	json_object_set_new(o, "groups", g);
	json_object_set_new(o, "host", OR_NULL(x->who.host));
	json_object_set_new(o, "remote", OR_NULL(x->who.remote_addr));
	json_object_set_new(o, "cwd", json_string(x->cwd));
	json_object_set_new(o, "time", json_string(x->time_of_day));
	json_object_set_new(o, "mode",
			    json_string(pty_mode_name(x->mode)));
	if (c->kind == PTY_CASE_LINE) {
		json_object_set_new(o, "line",
				    json_stringn(c->value, c->len));
		if (confirmed)
			json_object_set_new(o, "confirmed", json_true());
	} else {
		json_object_set_new(o, "exec", json_string(rq->path));
		if (strcmp(rq->request, rq->path) != 0)
			json_object_set_new(o, "request",
					    json_string(rq->request));
		json_object_set_new(o, "via", json_string(via[rq->via]));
		if (rq->via != PTY_EXEC_VIA_EXECVE)
			json_object_set_new(o, "through",
					    json_string(rq->through));
		argv = json_array();
		for (i = 0; i < rq->argc; i++)
			json_array_append_new(
			    argv, json_stringn(rq->argv[i], rq->argv_len[i]));
		json_object_set_new(o, "argv", argv);
		json_object_set_new(o, "shell", OR_NULL(x->shell));
		json_object_set_new(o, "guard", OR_NULL(x->guard));
		json_object_set_new(o, "parent", OR_NULL(x->parent));
	}
#undef OR_NULL
	s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	ck_assert_ptr_nonnull(s);
	return s;
}

/* What decide answers for a case's expectation. */
static const char *
case_want(const struct pty_case *c)
{
	if (c->kind == PTY_CASE_EXEC)
		return c->want_exec == PTY_EXEC_ALLOW ? "allow" : "deny";
	switch (c->want) {
	case PTY_VERDICT_ALLOW:
		return "allow";
	case PTY_VERDICT_ALLOW_LOG:
		return "log";
	case PTY_VERDICT_CONFIRM:
		return "confirm";
	case PTY_VERDICT_SYNTAX:
		return "refuse";
	default:
		return "deny";
	}
}

/* Appends a request and the decision it must get. */
struct shipped_input {
	char *text;
	size_t len, cap, asked;
	struct expect {
		char want[16];
		size_t lineno;
		char because[8][PTY_TEXT_MAX];
		size_t nbecause;
	} *want;
};

static void
shipped_push(struct shipped_input *in, char *req, const char *want,
	     size_t lineno)
{
	size_t len = strlen(req);

	ck_assert_uint_lt(in->asked, 4096);
	snprintf(in->want[in->asked].want, sizeof in->want[0].want, "%s",
		 want);
	in->want[in->asked].nbecause = 0;
	in->want[in->asked++].lineno = lineno;
	if (in->len + len + 2 > in->cap) {
		in->cap = (in->len + len + 2) * 2;
		in->text = realloc(in->text, in->cap);
		ck_assert_ptr_nonnull(in->text);
	}
	memcpy(in->text + in->len, req, len);
	in->text[in->len + len] = '\n';
	in->len += len + 1;
	free(req);
}

/* Every case of one shipped case file, asked of decide in one stream:
 * all of them, none left out.  A confirm-yes case is two requests, as a
 * session asks: the line, answered confirm, then the line "confirmed",
 * answered allow. */
static void
shipped(const char *name, size_t least)
{
	char casefile[64], pol[64], args[2 * PATH_MAX + 16];
	struct pty_case_reader *r = malloc(sizeof *r);
	struct pty_exec_request *rq = malloc(sizeof *rq);
	char *text, *out = NULL, why[512];
	struct shipped_input in = {0};
	size_t ncases = 0, elsewhere = 0, i, got;
	char real[PATH_MAX];
	struct pty_case c;
	json_t *a;
	int rc;

	in.want = calloc(4096, sizeof *in.want);
	ck_assert_ptr_nonnull(in.want);
	snprintf(casefile, sizeof casefile, "policies/cases/%s.case", name);
	snprintf(pol, sizeof pol, "policies/%s.dl", name);
	text = pts_slurp(src_path(casefile));
	ck_assert_ptr_nonnull(text);
	pty_cases_begin(r, text, strlen(text));
	while ((rc = pty_cases_next(r, &c, rq, why, sizeof why)) != 0) {
		struct expect *last;

		ck_assert_msg(rc > 0, "%s:%zu: %s", casefile, r->lineno, why);
		if (c.kind == PTY_CASE_BECAUSE) {
			/* the reader accepts a because only after a deny */
			ck_assert_uint_gt(in.asked, 0);
			last = &in.want[in.asked - 1];
			ck_assert_uint_lt(last->nbecause, 8);
			snprintf(last->because[last->nbecause++],
				 PTY_TEXT_MAX, "%s", c.value);
			continue;
		}
		/* exec_never cases ask no decision decide answers */
		if (c.kind == PTY_CASE_NEVER)
			continue;
		ncases++;
		/* decide resolves "exec" as the supervisor resolves what the
		 * kernel opened; a case's path is taken as written.  A path
		 * that resolves elsewhere on this machine (none on Debian 12)
		 * is another program here: asked, but not compared */
		if (c.kind == PTY_CASE_EXEC &&
		    realpath(rq->path, real) != NULL &&
		    strcmp(real, rq->path) != 0) {
			fprintf(stderr, "%s:%zu: %s is %s here: not compared\n",
				casefile, c.lineno, rq->path, real);
			elsewhere++;
			shipped_push(&in, case_request(r, &c, rq, in.asked,
						       false),
				     "", c.lineno);
			continue;
		}
		if (c.kind == PTY_CASE_LINE && c.confirm_yes) {
			shipped_push(&in, case_request(r, &c, rq, in.asked,
						       false),
				     "confirm", c.lineno);
			shipped_push(&in, case_request(r, &c, rq, in.asked,
						       true),
				     "allow", c.lineno);
		} else {
			shipped_push(&in, case_request(r, &c, rq, in.asked,
						       false),
				     case_want(&c), c.lineno);
		}
	}
	snprintf(args, sizeof args, "--policy '%s'", src_path(pol));
	ck_assert_int_eq(decide(in.text, in.len, args, &out), 0);
	a = answers(out, &got);
	ck_assert_uint_eq(got, in.asked);
	for (i = 0; i < in.asked; i++) {
		size_t k;

		if (in.want[i].want[0] == '\0')
			continue;
		ck_assert_msg(strcmp(field(a, i, "decision"),
				     in.want[i].want) == 0,
			      "%s:%zu: decide says %s (%s), the case %s",
			      casefile, in.want[i].lineno,
			      field(a, i, "decision"),
			      json_is_array(json_object_get(
				  json_array_get(a, i), "reasons"))
				  ? json_string_value(json_array_get(
					json_object_get(json_array_get(a, i),
							"reasons"),
					0))
				  : field(a, i, "error"),
			      in.want[i].want);
		for (k = 0; k < in.want[i].nbecause; k++)
			ck_assert_msg(has_reason(a, i, in.want[i].because[k]),
				      "%s:%zu: no reason has '%s'", casefile,
				      in.want[i].lineno,
				      in.want[i].because[k]);
	}
	/* the files are not emptied by mistake */
	ck_assert_msg(ncases >= least, "%s: %zu cases", casefile, ncases);
	fprintf(stderr,
		"%s: all %zu cases asked of decide (%zu requests), %zu "
		"compared\n",
		casefile, ncases, in.asked, ncases - elsewhere);
	json_decref(a);
	free(out);
	free(in.text);
	free(text);
	free(in.want);
	free(r);
	free(rq);
}

START_TEST(test_decide_shipped_bastion_cases)
{
	shipped("bastion", 640);
}
END_TEST

START_TEST(test_decide_shipped_level1_cases)
{
	shipped("level1", 170);
}
END_TEST

/* Runs decide on bastion.dl with `len` bytes of input, and checks it
 * answered n lines. */
static json_t *
bastion_n(const char *input, size_t len, size_t n)
{
	char args[2 * PATH_MAX + 16], *out = NULL;
	size_t got;
	json_t *a;

	snprintf(args, sizeof args, "--policy '%s'",
		 src_path("policies/bastion.dl"));
	ck_assert_int_eq(decide(input, len, args, &out), 0);
	a = answers(out, &got);
	ck_assert_msg(got == n, "%zu answers, not %zu:\n%.2000s", got, n, out);
	free(out);
	return a;
}

static json_t *
bastion(const char *input, size_t n)
{
	return bastion_n(input, strlen(input), n);
}

#define ALICE                                                                  \
	"\"user\": \"alice\", \"groups\": [\"alice\"], \"host\": "            \
	"\"bastion1\", \"cwd\": \"/home/alice\", \"time\": \"10:30\", "        \
	"\"mode\": \"interactive\""

START_TEST(test_decide_answers)
{
	json_t *a = bastion(
	    "{\"id\": 17, \"line\": \"ls -la\", " ALICE "}\n"
	    "{\"id\": \"s\", \"line\": \"rm -rf /\", " ALICE "}\n"
	    "{\"id\": 3, \"line\": \"ls \\\"x\\\"\", " ALICE "}\n"
	    "{\"id\": 4, \"line\": \"\", " ALICE "}\n"
	    "{\"id\": 5, \"exec\": \"/usr/bin/ls\", \"argv\": [\"ls\"], "
	    "\"shell\": \"/usr/bin/bash\", \"guard\": "
	    "\"/usr/local/bin/maelys-pty\", \"parent\": \"/usr/bin/bash\", " ALICE
	    "}\n",
	    5);
	json_t *v;

	ck_assert_int_eq(json_integer_value(json_object_get(
			     json_array_get(a, 0), "id")),
			 17);
	ck_assert_str_eq(field(a, 0, "decision"), "allow");
	ck_assert_uint_eq(json_array_size(json_object_get(
			      json_array_get(a, 0), "reasons")),
			  0);
	ck_assert_str_eq(field(a, 1, "id"), "s");
	ck_assert_str_eq(field(a, 1, "decision"), "deny");
	ck_assert_uint_gt(json_array_size(json_object_get(
			      json_array_get(a, 1), "reasons")),
			  0);
	/* the scanner refuses before solving, at the quote */
	ck_assert_str_eq(field(a, 2, "decision"), "refuse");
	v = json_object_get(json_array_get(a, 2), "refused_at");
	ck_assert(json_is_integer(v));
	ck_assert_int_eq(json_integer_value(v), 3);
	ck_assert_str_eq(field(a, 3, "decision"), "deny");
	ck_assert(has_reason(a, 3, "empty"));
	ck_assert_str_eq(field(a, 4, "decision"), "allow");
	json_decref(a);
}
END_TEST

START_TEST(test_decide_errors_answered_and_worker_goes_on)
{
	static const struct {
		const char *req, *says;
	} bad[] = {
	    {"not json", "not JSON"},
	    {"[1, 2]", "a request is a JSON object"},
	    {"{\"line\": \"ls\", \"colour\": 1}", "unknown field \"colour\""},
	    {"{\"line\": 7}", "field \"line\": a string"},
	    {"{\"line\": \"ls\", \"groups\": \"a\"}", "field \"groups\""},
	    {"{\"line\": \"ls\", \"groups\": [1]}", "field \"groups\""},
	    {"{\"line\": \"ls\", \"time\": \"25:00\"}", "field \"time\""},
	    {"{\"line\": \"ls\", \"cwd\": \"rel\"}", "an absolute path"},
	    {"{\"line\": \"ls\", \"mode\": \"x\"}", "field \"mode\""},
	    {"{\"line\": \"ls\", \"user\": \"a\", \"user\": \"b\"}",
	     "duplicate"},
	    {"{\"line\": \"ls\", \"exec\": \"/bin/ls\"}", "either"},
	    {"{\"id\": 9}", "either"},
	    {"{\"line\": \"ls\", \"argv\": [\"ls\"]}", "with \"exec\" only"},
	    {"{\"line\": \"ls\", \"groups\": [[\"a\"]]}", "nests deeper"},
	    {"{\"line\": \"a\\u0000b\"}", "\\u0000"},
	    {"{\"line\": \"\xff\"}", "not JSON"},
	    {"{\"line\": \"ls\"} trailing", "not JSON"},
	    {"{\"id\": 1.5, \"line\": \"ls\"}", "field \"id\""},
	    {"{\"exec\": \"/bin/ls\", \"via\": \"shebang\"}",
	     "\"through\" goes with"},
	    {"{\"exec\": \"/bin/ls\", \"through\": \"/x\"}",
	     "\"through\" goes with"},
	    {"{\"exec\": \"/bin/ls\", \"via\": \"exec\"}", "field \"via\""},
	    {"{\"exec\": \"/bin/ls\", \"request\": \"ls\"}",
	     "an absolute path"},
	    {"{\"exec\": \"/bin/ls\", \"request\": null}",
	     "field \"request\""},
	    {"{\"exec\": \"/bin/ls\", \"confirmed\": true}",
	     "\"confirmed\" goes with \"line\" only"},
	    {"{\"line\": \"ls\", \"confirmed\": 1}", "field \"confirmed\""},
	    {"{\"line\": \"ls\", \"via\": \"execve\"}", "with \"exec\" only"},
	    {"{\"line\": \"ls\", \"guard\": null}", "with \"exec\" only"},
	};
	/* a NUL byte outside a string, after a whole request: never taken
	 * for the end of the line */
	static const char nul[] = "{\"line\": \"ls\"}\0 x\n";
	size_t nbad = sizeof bad / sizeof bad[0], i, len = 0;
	char *input = malloc(2 * DECIDE_INPUT_MAX), *big;
	json_t *a;

	ck_assert_ptr_nonnull(input);
	input[0] = '\0';
	for (i = 0; i < nbad; i++) {
		strcat(input, bad[i].req);
		strcat(input, "\n");
	}
	len = strlen(input);
	memcpy(input + len, nul, sizeof nul);
	len += sizeof nul - 1;
	/* a request longer than the bound, then one that is fine */
	big = input + len;
	memset(big, ' ', DECIDE_INPUT_MAX + 10);
	big[DECIDE_INPUT_MAX + 10] = '\n';
	strcpy(big + DECIDE_INPUT_MAX + 11,
	       "{\"id\": 99, \"line\": \"ls\", " ALICE "}\n");
	len = (size_t)(big - input) + DECIDE_INPUT_MAX + 11 +
	      strlen(big + DECIDE_INPUT_MAX + 11);
	a = bastion_n(input, len, nbad + 3);
	for (i = 0; i < nbad; i++) {
		json_t *ln = json_object_get(json_array_get(a, i), "line");

		ck_assert_msg(strstr(field(a, i, "error"), bad[i].says) !=
				  NULL,
			      "request %zu: error '%s' lacks '%s'", i + 1,
			      field(a, i, "error"), bad[i].says);
		ck_assert_int_eq(json_integer_value(ln), (json_int_t)i + 1);
	}
	ck_assert(strstr(field(a, nbad, "error"), "not JSON") != NULL);
	ck_assert(strstr(field(a, nbad + 1, "error"), "longer than") != NULL);
	ck_assert_str_eq(field(a, nbad + 2, "decision"), "allow");
	json_decref(a);
	free(input);
}
END_TEST

START_TEST(test_decide_long_stream_in_order)
{
	size_t n = 5000, i;
	char *input = malloc(n * 256), *p = input;
	json_t *a;

	ck_assert_ptr_nonnull(input);
	for (i = 0; i < n; i++)
		p += sprintf(p, "{\"id\": %zu, \"line\": \"%s\", " ALICE "}\n",
			     i, i % 3 == 0 ? "rm -rf /" : "ls -la");
	a = bastion(input, n);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(json_integer_value(json_object_get(
				     json_array_get(a, i), "id")),
				 (json_int_t)i);
		ck_assert_str_eq(field(a, i, "decision"),
				 i % 3 == 0 ? "deny" : "allow");
	}
	json_decref(a);
	free(input);
}
END_TEST

/* ---- With an audit log (root: decide runs as nobody, setpriv) ---- */

/* A world for a decide of nobody's with an audit log, as check_pty_exec.c's
 * setup_nobody makes one for a session: the configuration and the policy
 * root's, the log folder and the key nobody's (a deployed guard's writer
 * is the audit account instead: the bastion suites run that). */
static char lw_dir[64], lw_conf[PATH_MAX], lw_log[PATH_MAX];

static bool
log_world(const char *audit_log, const char *extra)
{
	char path[PATH_MAX], cmd[4 * PATH_MAX], text[4 * PATH_MAX];
	char *pol;

	if (geteuid() != 0 || access("/usr/bin/setpriv", X_OK) != 0) {
		printf("not root, or no setpriv: decide with a log not tested\n");
		return false;
	}
	snprintf(lw_dir, sizeof lw_dir, "/tmp/maelys-decidelog-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(lw_dir));
	ck_assert_int_eq(chmod(lw_dir, 0755), 0);
	snprintf(path, sizeof path, "%s/policy.dl", lw_dir);
	pol = pts_slurp(src_path("policies/bastion.dl"));
	pts_write_file(path, pol, 0644);
	free(pol);
	snprintf(lw_log, sizeof lw_log, "%s/log/audit.log", lw_dir);
	snprintf(cmd, sizeof cmd,
		 "mkdir -m 0700 '%s/log' && chown nobody '%s/log' && "
		 "'%s' --new-audit-key '%s/audit.pub' --state "
		 "'%s/audit.key' >/dev/null && chown nobody '%s/audit.key'",
		 lw_dir, lw_dir, pts_build_path("pty/maelys-pty"), lw_dir,
		 lw_dir, lw_dir);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(lw_conf, sizeof lw_conf, "%s/maelys-pty.conf", lw_dir);
	snprintf(text, sizeof text,
		 "policy = %s\naudit_log = %s\naudit_key = %s/audit.key\n"
		 "syslog = off\n%s",
		 path, audit_log != NULL ? audit_log : lw_log, lw_dir, extra);
	pts_write_file(lw_conf, text, 0644);
	return true;
}

static void
log_world_remove(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", lw_dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* `maelys-pty decide --config` of the log world as nobody, `input` on its
 * standard input, under the file-size limit `fsize` (0: none); the exit
 * status, stdout in *out, stderr in *err. */
static int
decide_nobody(const char *input, unsigned long fsize, char **out, char **err)
{
	char in[PATH_MAX], cmd[4 * PATH_MAX], limit[64] = "";

	snprintf(in, sizeof in, "%s/in", lw_dir);
	pts_write_file(in, input, 0644);
	if (fsize > 0)
		snprintf(limit, sizeof limit, "prlimit --fsize=%lu:%lu ", fsize,
			 fsize);
	snprintf(cmd, sizeof cmd,
		 "exec %ssetpriv --reuid nobody --regid nogroup "
		 "--clear-groups '%s' decide --config '%s' < '%s'",
		 limit, pts_build_path("pty/maelys-pty"), lw_conf, in);
	return pts_run_path("/bin/sh", (char *[]){"sh", "-c", cmd, NULL},
			    (char *[]){"PATH=/usr/bin:/bin", "LC_ALL=C", NULL},
			    out, err);
}

/* The records of the log holding every one of `needles`. */
static int
log_count(const char *const needles[])
{
	char *log = pts_slurp(lw_log);
	int n = log != NULL ? pts_count_lines(log, needles) : 0;

	free(log);
	return n;
}

static void
assert_chain_intact(void)
{
	char *out = NULL, *err = NULL;

	ck_assert_msg(pts_verify_log(lw_conf, lw_log, &out, &err) == 0,
		      "%s%s", out, err);
	ck_assert_ptr_nonnull(strstr(out, "chain intact"));
	free(out);
	free(err);
}

START_TEST(test_decide_records_every_decision)
{
	char *out = NULL, *err = NULL;
	json_t *a;
	size_t n;

	if (!log_world(NULL, ""))
		return;
	ck_assert_msg(
	    decide_nobody(
		"{\"id\": 1, \"line\": \"ls -la\", \"user\": \"nobody\", "
		"\"host\": \"bastion1\"}\n"
		"{\"id\": 2, \"line\": \"rm -rf /\", \"mode\": "
		"\"interactive\"}\n"
		"{\"id\": 3, \"exec\": \"/usr/bin/ls\", \"argv\": [\"ls\", "
		"\"-l\"], \"cwd\": \"/tmp\", \"remote\": \"192.0.2.7\"}\n",
		0, &out, &err) == 0,
	    "%s", err);
	a = answers(out, &n);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(field(a, 0, "decision"), "allow");
	ck_assert_str_eq(field(a, 1, "decision"), "deny");
	ck_assert_str_eq(field(a, 2, "decision"), "allow");
	json_decref(a);
	/* a session of its own, nobody's, mode decide, start to end */
	ck_assert_int_eq(log_count((const char *[]){"\"seq\":1,",
						    "\"user\":\"nobody\"",
						    "\"mode\":\"decide\"",
						    "\"event\":\"session_start\"",
						    NULL}),
			 1);
	ck_assert_int_eq(
	    log_count((const char *[]){"\"seq\":5,", "\"user\":\"nobody\"",
				       "\"event\":\"session_end\"", NULL}),
	    1);
	/* each decision as a session records it, with the request's host,
	 * remote and cwd where the record holds them */
	ck_assert_int_eq(log_count((const char *[]){"\"seq\":2,",
						    "\"host\":\"bastion1\"",
						    "\"event\":\"command\"",
						    "\"line\":\"ls -la\"",
						    "\"decision\":\"allow\"",
						    NULL}),
			 1);
	ck_assert_int_eq(
	    log_count((const char *[]){"\"seq\":3,", "\"event\":\"line\"",
				       "\"line\":\"rm -rf /\"",
				       "\"decision\":\"deny\"",
				       "\"reasons\":[{\"op\":\"rm\"", NULL}),
	    1);
	ck_assert_int_eq(log_count((const char *[]){
			     "\"seq\":4,", "\"remote\":\"192.0.2.7\"",
			     "\"event\":\"exec\"",
			     "\"exec_path\":\"/usr/bin/ls\"",
			     "\"exec_argv\":[\"ls\",\"-l\"]",
			     "\"exec_cwd\":\"/tmp\"", "\"decision\":\"allow\"",
			     NULL}),
			 1);
	ck_assert_int_eq(log_count((const char *[]){"\"v\":2", NULL}), 5);
	/* the facts the policy was given, from the decider's own input EDB,
	 * in the order it added them: the request's host and mode among
	 * them, integers as integers */
	ck_assert_int_eq(
	    log_count((const char *[]){
		"\"seq\":2,",
		"\"facts\":[[\"command\",\"ls\"],[\"argv\",1,\"ls\"],"
		"[\"arg\",\"-la\"],[\"argv\",2,\"-la\"],[\"argc\",2],"
		"[\"user\",\"nobody\"],",
		"[\"host\",\"bastion1\"],[\"session_mode\",\"command\"],"
		"[\"cwd\",",
		NULL}),
	    1);
	ck_assert_int_eq(
	    log_count((const char *[]){
		"\"seq\":4,",
		"\"facts\":[[\"exec_path\",\"/usr/bin/ls\"],"
		"[\"exec_request\",\"/usr/bin/ls\"],[\"exec_arg\",0,\"ls\"],"
		"[\"exec_arg\",1,\"-l\"],[\"exec_argc\",2],"
		"[\"exec_cwd\",\"/tmp\"]",
		"[\"remote_addr\",\"192.0.2.7\"]", NULL}),
	    1);
	/* facts sit after the decision's fields, before the note */
	ck_assert_int_eq(log_count((const char *[]){"\"reasons\":[{\"op\":\"rm\"",
						    "}],\"facts\":[[", NULL}),
			 1);
	/* the end counts the three decisions, the refusal, the exec */
	ck_assert_int_eq(
	    log_count((const char *[]){"\"event\":\"session_end\"",
				       "\"decisions\":3,\"refusals\":1,"
				       "\"execs\":1",
				       NULL}),
	    1);
	assert_chain_intact();
	free(out);
	free(err);
	log_world_remove();
}
END_TEST

/* The log says who asked: another user, or other groups, are refused
 * with an error and leave no record; the caller's own are decided. */
START_TEST(test_decide_with_a_log_refuses_another_user)
{
	char *out = NULL, *err = NULL;
	json_t *a;
	size_t n;

	if (!log_world(NULL, ""))
		return;
	ck_assert_msg(
	    decide_nobody(
		"{\"id\": 1, \"line\": \"ls\", \"user\": \"alice\"}\n"
		"{\"id\": 2, \"line\": \"ls\", \"groups\": [\"wheel\"]}\n"
		"{\"id\": 3, \"exec\": \"/usr/bin/ls\", \"user\": \"root\"}\n"
		"{\"id\": 4, \"line\": \"ls\", \"user\": \"nobody\"}\n",
		0, &out, &err) == 0,
	    "%s", err);
	a = answers(out, &n);
	ck_assert_uint_eq(n, 4);
	ck_assert_msg(strstr(field(a, 0, "error"), "\"user\" must be yours "
						   "(nobody)") != NULL,
		      "%s", out);
	ck_assert_ptr_nonnull(
	    strstr(field(a, 1, "error"), "\"groups\" must be exactly yours"));
	ck_assert_ptr_nonnull(strstr(field(a, 2, "error"), "must be yours"));
	ck_assert_ptr_null(json_object_get(json_array_get(a, 0), "decision"));
	ck_assert_str_eq(field(a, 3, "decision"), "allow");
	json_decref(a);
	ck_assert_int_eq(log_count((const char *[]){"alice", NULL}), 0);
	ck_assert_int_eq(log_count((const char *[]){"\"event\":\"command\"",
						    NULL}),
			 1);
	assert_chain_intact();
	free(out);
	free(err);
	log_world_remove();
}
END_TEST

/* A record that cannot be written: with deny, each answer is a deny that
 * says so and decide goes on; with terminate, decide stops after the
 * first; a log where not even session_start can be written, no answer. */
START_TEST(test_decide_on_audit_failure)
{
	const char *input = "{\"id\": 1, \"line\": \"ls -la\"}\n"
			    "{\"id\": 2, \"exec\": \"/usr/bin/ls\"}\n";
	char *out = NULL, *err = NULL;
	json_t *a;
	size_t n;

	/* session_start fits in 700 bytes, nothing after it */
	if (!log_world(NULL, ""))
		return;
	ck_assert_msg(decide_nobody(input, 700, &out, &err) == 0, "%s", err);
	a = answers(out, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(field(a, 0, "decision"), "deny");
	ck_assert_str_eq(field(a, 1, "decision"), "deny");
	ck_assert_msg(has_reason(a, 0, "audit record could not be written"),
		      "%s", out);
	ck_assert(has_reason(a, 1, "audit record could not be written"));
	json_decref(a);
	ck_assert_int_eq(
	    log_count((const char *[]){"\"event\":\"session_start\"", NULL}),
	    1);
	ck_assert_int_eq(log_count((const char *[]){"\"v\":2", NULL}), 1);
	assert_chain_intact();
	free(out);
	free(err);
	log_world_remove();

	if (!log_world(NULL, "on_audit_failure = terminate\n"))
		return;
	ck_assert_int_eq(decide_nobody(input, 700, &out, &err), 1);
	a = answers(out, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(field(a, 0, "decision"), "deny");
	ck_assert(has_reason(a, 0, "audit record could not be written"));
	ck_assert_msg(strstr(err, "the audit log cannot be written") != NULL,
		      "%s", err);
	json_decref(a);
	assert_chain_intact();
	free(out);
	free(err);
	log_world_remove();

	if (!log_world("/dev/full", ""))
		return;
	ck_assert_int_eq(decide_nobody(input, 0, &out, &err), 2);
	ck_assert_str_eq(out, "");
	ck_assert_msg(strstr(err, "decide: the audit log cannot be written") !=
			  NULL,
		      "%s", err);
	free(out);
	free(err);
	log_world_remove();
}
END_TEST

START_TEST(test_decide_bad_options_exit_2)
{
	char *out = NULL;

	ck_assert_int_eq(decide("", 0, "--colour", &out), 2);
	free(out);
	ck_assert_int_eq(decide("", 0, "--policy /nonexistent/p.dl", &out),
			 2);
	free(out);
	ck_assert_int_eq(decide("", 0, "--policy a --config b", &out), 2);
	free(out);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("decide");

	tcase_set_timeout(tc, 240);
	tcase_add_checked_fixture(tc, NULL, decide_teardown);
	tcase_add_test(tc, test_decide_shipped_bastion_cases);
	tcase_add_test(tc, test_decide_shipped_level1_cases);
	tcase_add_test(tc, test_decide_answers);
	tcase_add_test(tc, test_decide_errors_answered_and_worker_goes_on);
	tcase_add_test(tc, test_decide_long_stream_in_order);
	tcase_add_test(tc, test_decide_records_every_decision);
	tcase_add_test(tc, test_decide_with_a_log_refuses_another_user);
	tcase_add_test(tc, test_decide_on_audit_failure);
	tcase_add_test(tc, test_decide_bad_options_exit_2);
	suite_add_tcase(s, tc);
	return s;
}
