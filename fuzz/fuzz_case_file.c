/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the policy case files of `maelys-pty test`
 * (pty/tools/cases.c): the input is a whole .case file, any bytes.
 *
 *   - reading is deterministic: a second reading gives the same cases and
 *     the same malformed lines, with the same messages;
 *   - a malformed line is named by a line number inside the text, with a
 *     message, and reading goes on; line numbers only grow;
 *   - a case's value is NUL-free, as long as it says, and the line it
 *     came from is no longer than PTY_CASES_LINE_MAX; a "because" follows
 *     a deny or exec-deny case (or another because);
 *   - an exec case's request is absolute (path and request), its argv
 *     inside its bytes, each word NUL-ended at its length, at most
 *     PTY_EXEC_ARGS_MAX of them; the context's paths are absolute or
 *     empty, its time HH:MM;
 *   - a file that reads without an error is decided, case by case, with
 *     a small policy by the guard's own deciders (pty_case_decide), and
 *     every verdict is one of the deciders' own.
 */
#include "fuzz.h"

#include "pty_cases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A small policy that reads most facts, so that decisions differ by the
 * context the input sets. */
static const char fuzz_policy[] =
    "allow(C) :- command(C), user(\"alice\").\n"
    "allow(C) :- command(C), group(\"ops\"), session_mode(\"command\").\n"
    "allow_with_log(C, \"logged\") :- command(C), arg(\"-v\").\n"
    "require_confirm(C, \"sure?\") :- command(C), time_of_day(\"03:00\").\n"
    "deny(C, \"not alice\") :- command(C), not(user(\"alice\")).\n"
    "allow_exec(P) :- exec_path(P), exec_arg(0, \"x\"), exec_cwd(\"/\").\n"
    "allow_exec(P) :- exec_path(P), exec_via(\"shebang\"),\n"
    "    exec_parent(Q), session_shell(Q).\n"
    "deny_exec(P, \"no\") :- exec_path(P), not(allow_exec(P)).\n"
    "exec_never(P) :- exec_path(P), user(\"bob\"), suffix(P, \"/x\").\n";

/* What one reading found: a digest to compare two readings by. */
struct fuzz_reading {
	size_t ncases, nbad, last_line;
	unsigned long sum;
};

static unsigned long
fuzz_mix(unsigned long h, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		h = h * 131u + (unsigned char)s[i];
	return h * 131u + n;
}

static void
fuzz_check_context(const struct pty_case_context *x)
{
	const char *paths[] = {x->cwd, x->shell, x->guard, x->parent,
			       x->through};
	size_t i;

	for (i = 0; i < sizeof paths / sizeof paths[0]; i++)
		if (paths[i][0] != '\0' && paths[i][0] != '/')
			abort();
	if (x->cwd[0] != '/' || strlen(x->time_of_day) != 5 ||
	    x->time_of_day[2] != ':' ||
	    x->who.ngroups > sizeof x->who.groups / sizeof x->who.groups[0])
		abort();
	if ((x->via == PTY_EXEC_VIA_EXECVE) != (x->through[0] == '\0'))
		abort();
}

static void
fuzz_check_request(const struct pty_exec_request *rq)
{
	size_t i;

	if (rq->path[0] != '/' || rq->request[0] != '/' ||
	    rq->argc > PTY_EXEC_ARGS_MAX)
		abort();
	for (i = 0; i < rq->argc; i++) {
		const char *a = rq->argv[i];

		if (a < rq->bytes ||
		    a + rq->argv_len[i] >= rq->bytes + sizeof rq->bytes ||
		    a[rq->argv_len[i]] != '\0' ||
		    strlen(a) != rq->argv_len[i])
			abort();
	}
}

/* Reads the whole text; with d, decides every case too. */
static void
fuzz_read(const char *text, size_t len, struct pty_case_reader *r,
	  struct pty_exec_request *rq, struct pty_decider *d,
	  struct pty_case_result *res, struct fuzz_reading *out)
{
	struct pty_case c;
	char err[512];
	bool after_deny = false;
	int rc;

	memset(out, 0, sizeof *out);
	pty_cases_begin(r, text, len);
	while ((rc = pty_cases_next(r, &c, rq, err, sizeof err)) != 0) {
		if (r->lineno <= out->last_line && out->last_line != 0)
			abort(); /* line numbers only grow */
		out->last_line = r->lineno;
		if (rc < 0) {
			if (err[0] == '\0' || r->lineno == 0)
				abort();
			out->nbad++;
			out->sum = fuzz_mix(out->sum, err, strlen(err));
			after_deny = false;
			continue;
		}
		if (rc != 1 || c.lineno != r->lineno ||
		    strlen(c.value) != c.len || c.len > PTY_CASES_LINE_MAX)
			abort();
		fuzz_check_context(&r->ctx);
		out->sum = fuzz_mix(out->sum, c.value, c.len);
		if (c.kind == PTY_CASE_BECAUSE) {
			if (!after_deny || c.len == 0)
				abort();
			continue;
		}
		out->ncases++;
		if (c.kind == PTY_CASE_EXEC) {
			fuzz_check_request(rq);
			after_deny = c.want_exec == PTY_EXEC_POLICY;
		} else if (c.kind == PTY_CASE_NEVER) {
			if (c.value[0] != '/')
				abort();
			after_deny = false;
		} else {
			after_deny = c.want == PTY_VERDICT_POLICY;
		}
		if (d == NULL)
			continue;
		if (pty_case_decide(d, &r->ctx, &c, rq, res) &&
		    c.kind == PTY_CASE_NEVER &&
		    (res->never_error[0] != '\0' ||
		     res->never != c.want_never))
			abort(); /* held, yet not what it expected */
		if (c.kind == PTY_CASE_NEVER ? false
		    : c.kind == PTY_CASE_EXEC
			? strcmp(pty_case_exec_verdict_name(res->xdec.verdict),
				 "?") == 0
			: strcmp(pty_case_verdict_name(res->dec.verdict),
				 "?") == 0)
			abort();
	}
	if (r->off != r->len)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static maelys_datalog_session_t *session;
	static struct pty_case_reader *r;
	static struct pty_exec_request *rq;
	static struct pty_case_result *res;
	static struct pty_decider *d;
	struct fuzz_reading one, two;
	const char *text = (const char *)data;
	char err[1024];

	if (size > PTY_CASES_FILE_MAX)
		return 0;
	if (session == NULL) {
		if (pty_policy_open_text("fuzz.dl", fuzz_policy,
					 sizeof fuzz_policy - 1, &session, NULL,
					 err, sizeof err) != 0) {
			fprintf(stderr, "%s\n", err);
			abort();
		}
		r = malloc(sizeof *r);
		rq = malloc(sizeof *rq);
		res = malloc(sizeof *res);
		d = calloc(1, sizeof *d);
		if (r == NULL || rq == NULL || res == NULL || d == NULL)
			abort();
	}
	fuzz_read(text, size, r, rq, NULL, NULL, &one);
	fuzz_read(text, size, r, rq, NULL, NULL, &two);
	if (one.ncases != two.ncases || one.nbad != two.nbad ||
	    one.sum != two.sum || one.last_line != two.last_line)
		abort();
	if (one.nbad != 0 || one.ncases == 0)
		return 0;
	/* a file that loads: decided, as maelys-pty test decides it */
	if (pty_decider_init(d, session, NULL, "") != 0 && d->edb == NULL)
		abort();
	fuzz_read(text, size, r, rq, d, res, &two);
	pty_decider_free(d);
	if (one.ncases != two.ncases || one.sum != two.sum)
		abort();
	return 0;
}
