/* SPDX-License-Identifier: MIT */
/*
 * `maelys-pty decide` (pty_decide_json.h): loads the policy once, as
 * `explain` does (tool_common.c), then answers each request line with the
 * guard's own deciders - pty_decide for a line, pty_exec_decide for a
 * program - in a session made as a session's (flags 0: the session's
 * budgets bound every solve).  Each request starts from the caller's
 * identity, with its fields in place of it (pty_tool_facts_apply, the
 * one `explain` uses).  A bad request is answered with an error and the
 * loop goes on; exit 0 at the end of input, 1 when an answer could not be
 * written, 2 for a usage error or a policy that does not load.
 *
 * Recording: a session records through the audit writer, started as the
 * audit account before the guard drops its rights; a tool runs after
 * main.c dropped them, with the caller's.  So decide keeps no audit log:
 * a configuration naming one is refused, said on stderr, and the caller
 * who must record decides inside a session instead.
 */
#include "pty_decide_json.h"
#include "pty_messages.h"
#include "pty_supervise.h"
#include "pty_tools.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct decide_ctx {
	struct pty_config cfg;
	char *text;
	size_t len;
	const char *name;
	maelys_datalog_session_t *session;
	struct pty_policy_reads reads;
	struct pty_decider d;
	/* the caller's, restored before each request */
	struct pty_identity who;
	char cwd[sizeof ((struct pty_decider *)0)->cwd];
	struct pty_decision dec;
	struct pty_exec_decision xdec;
	struct pty_exec_request xrq;
	struct decide_out out;
	char input[DECIDE_INPUT_MAX];
};

static void
decide_reasons(struct decide_out *o, const char *const *r, size_t n)
{
	size_t i;

	decide_out_raw(o, "\"reasons\": [");
	for (i = 0; i < n; i++) {
		if (i > 0)
			decide_out_raw(o, ", ");
		decide_out_string(o, r[i], strlen(r[i]));
	}
	decide_out_raw(o, "]");
}

static void
decide_verdict(struct decide_out *o, const char *decision,
	       const char *const *r, size_t n)
{
	decide_out_raw(o, "\"decision\": \"");
	decide_out_raw(o, decision);
	decide_out_raw(o, "\", ");
	decide_reasons(o, r, n);
}

/* The answer of a line: pty_decide's verdict in the answer's words. */
static void
decide_line(struct decide_ctx *c, const struct decide_request *rq)
{
	struct pty_decision *dec = &c->dec;
	const char *r[PTY_REASONS_MAX];
	char text[PTY_TEXT_MAX + 64];
	size_t i;

	pty_decide(&c->d, rq->line, rq->line_len, rq->mode, dec);
	switch (dec->verdict) {
	case PTY_VERDICT_ALLOW:
		decide_verdict(&c->out, "allow", r, 0);
		break;
	case PTY_VERDICT_ALLOW_LOG:
		r[0] = dec->log_reason;
		decide_verdict(&c->out, "log", r, 1);
		break;
	case PTY_VERDICT_CONFIRM:
		r[0] = dec->confirm_prompt;
		decide_verdict(&c->out, "confirm", r, 1);
		break;
	case PTY_VERDICT_SYNTAX:
		r[0] = scan_refusal_reason(dec->scan.refusal);
		decide_verdict(&c->out, "refuse", r, 1);
		decide_out_raw(&c->out, ", \"refused_at\": ");
		decide_out_uint(&c->out, dec->scan.refusal_offset);
		break;
	case PTY_VERDICT_POLICY:
		for (i = 0; i < dec->nreasons; i++)
			r[i] = dec->reasons[i].reason;
		if (dec->nreasons == 0) {
			(void)snprintf(text, sizeof text, PTY_MSG_DECIDE_NO_RULE,
				       dec->command);
			r[0] = text;
		}
		decide_verdict(&c->out, "deny", r,
			       dec->nreasons > 0 ? dec->nreasons : 1);
		break;
	case PTY_VERDICT_EMPTY:
		r[0] = PTY_MSG_DECIDE_EMPTY;
		decide_verdict(&c->out, "deny", r, 1);
		break;
	case PTY_VERDICT_ERROR:
		r[0] = dec->error;
		decide_verdict(&c->out, "deny", r, 1);
		break;
	}
}

/* The answer of an exec request: pty_exec_decide's verdict. */
static void
decide_exec(struct decide_ctx *c, const struct decide_request *rq)
{
	struct pty_exec_decision *x = &c->xdec;
	const char *r[PTY_REASONS_MAX];
	char err[2 * PATH_MAX];
	size_t i;

	if (pty_tool_programs(&c->d, &c->cfg, rq->shell, rq->guard, err,
			      sizeof err) != 0 ||
	    pty_tool_exec_request(&c->d, rq->exec, rq->argv, rq->argc,
				  rq->parent, &c->xrq, err, sizeof err) != 0) {
		r[0] = err;
		decide_verdict(&c->out, "deny", r, 1);
		return;
	}
	pty_exec_decide(&c->d, &c->xrq, rq->mode, x);
	switch (x->verdict) {
	case PTY_EXEC_ALLOW:
		decide_verdict(&c->out, "allow", r, 0);
		return;
	case PTY_EXEC_POLICY:
		/* a policy that decides lines only: what a session does with
		 * the program is the configuration's to say */
		if (pty_supervise_execs_decided(&c->d,
						c->cfg.exec_decisions_optional,
						err, sizeof err) == 0) {
			r[0] = PTY_MSG_DECIDE_EXECS_RECORDED;
			decide_verdict(&c->out, "log", r, 1);
			return;
		}
		for (i = 0; i < x->nreasons; i++)
			r[i] = x->reasons[i];
		if (x->nreasons == 0) {
			(void)snprintf(err, sizeof err, PTY_MSG_DECIDE_NO_RULE,
				       c->xrq.path);
			r[0] = err;
		}
		decide_verdict(&c->out, "deny", r,
			       x->nreasons > 0 ? x->nreasons : 1);
		return;
	case PTY_EXEC_ERROR:
	case PTY_EXEC_UNREADABLE:
	case PTY_EXEC_UNSAFE:
	case PTY_EXEC_RECORDED:
		break;
	}
	r[0] = x->error;
	decide_verdict(&c->out, "deny", r, 1);
}

/* Answers one request line; `lineno` counts from 1. */
static void
decide_one(struct decide_ctx *c, const char *text, size_t len,
	   unsigned long long lineno)
{
	struct decide_request rq;
	char err[1024];

	decide_out_reset(&c->out);
	decide_out_raw(&c->out, "{");
	if (decide_request_parse(text, len, &rq, err, sizeof err) != 0) {
		decide_out_id(&c->out, &rq);
		decide_out_raw(&c->out, "\"error\": ");
		decide_out_string(&c->out, err, strlen(err));
		decide_out_raw(&c->out, ", \"line\": ");
		decide_out_uint(&c->out, lineno);
		decide_out_raw(&c->out, "}\n");
		decide_request_free(&rq);
		return;
	}
	decide_out_id(&c->out, &rq);
	/* the caller's identity, then the request's fields over it */
	c->d.who = c->who;
	pty_decider_set_cwd(&c->d, c->cwd);
	c->d.time_of_day[0] = '\0';
	if (pty_tool_facts_apply(&c->d, &rq.facts, err, sizeof err) != 0) {
		const char *r[1] = {err};

		decide_verdict(&c->out, "deny", r, 1);
	} else if (rq.line != NULL) {
		decide_line(c, &rq);
	} else {
		decide_exec(c, &rq);
	}
	decide_out_raw(&c->out, "}\n");
	decide_request_free(&rq);
}

/* Writes the answer and flushes it: the caller waits for it. */
static int
decide_write(struct decide_ctx *c, unsigned long long lineno)
{
	if (c->out.failed) {
		char err[128];

		decide_out_reset(&c->out);
		(void)snprintf(err, sizeof err, "{\"error\": \"%s\", "
			       "\"line\": %llu}\n",
			       PTY_MSG_DECIDE_NO_MEMORY, lineno);
		decide_out_raw(&c->out, err);
		if (c->out.failed)
			return -1;
	}
	if (fwrite(c->out.buf, 1, c->out.len, stdout) != c->out.len ||
	    fflush(stdout) != 0)
		return -1;
	return 0;
}

/* Reads one request line into c->input, its bytes counted (a NUL byte is
 * kept, for jansson to refuse, never taken for the end).  Returns 1 with
 * *len, 0 at the end of input, 2 for a line longer than DECIDE_INPUT_MAX
 * (read to its end and dropped). */
static int
decide_read(struct decide_ctx *c, size_t *len)
{
	size_t n = 0;
	int ch;

	while ((ch = getchar()) != EOF && ch != '\n') {
		if (n < DECIDE_INPUT_MAX)
			c->input[n] = (char)ch;
		if (n <= DECIDE_INPUT_MAX)
			n++;
	}
	if (ch == EOF && n == 0)
		return 0;
	*len = n;
	return n > DECIDE_INPUT_MAX ? 2 : 1;
}

/* The loop: one request a line, until end of input. */
static int
decide_loop(struct decide_ctx *c)
{
	unsigned long long lineno = 0;
	char err[128];
	size_t len;
	int rc;

	while ((rc = decide_read(c, &len)) != 0) {
		lineno++;
		if (rc == 2) {
			decide_out_reset(&c->out);
			(void)snprintf(err, sizeof err, PTY_MSG_DECIDE_TOO_LONG,
				       DECIDE_INPUT_MAX);
			decide_out_raw(&c->out, "{\"error\": ");
			decide_out_string(&c->out, err, strlen(err));
			decide_out_raw(&c->out, ", \"line\": ");
			decide_out_uint(&c->out, lineno);
			decide_out_raw(&c->out, "}\n");
		} else {
			decide_one(c, c->input, len, lineno);
		}
		if (decide_write(c, lineno) != 0)
			return 1;
	}
	return ferror(stdin) ? 1 : 0;
}

int
decide_run(int argc, char **argv)
{
	static struct decide_ctx c; /* big buffers: not the stack */
	const char *policy = NULL, *config = NULL;
	char err[2 * PATH_MAX], shown[2 * PATH_MAX];
	int i, rc = 2;

	memset(&c, 0, sizeof c);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			printf(PTY_MSG_DECIDE_USAGE, pty_config_file);
			return 0;
		} else if (strcmp(a, "--policy") == 0 ||
			   strcmp(a, "--config") == 0) {
			if (i + 1 == argc) {
				fprintf(stderr, PTY_MSG_NEEDS_VALUE "\n", a);
				return 2;
			}
			if (a[2] == 'p')
				policy = argv[++i];
			else
				config = argv[++i];
		} else if (a[0] == '-') {
			fprintf(stderr, PTY_MSG_UNKNOWN_OPTION "\n", a);
			return 2;
		} else {
			char word[PTY_TEXT_MAX];

			pty_printable(word, sizeof word, a);
			(void)snprintf(err, sizeof err,
				       PTY_MSG_DECIDE_EXTRA_WORD, word);
			fprintf(stderr, PTY_MSG_DECIDE_FAILED "\n", err);
			return 2;
		}
	}
	if (policy != NULL && config != NULL) {
		fprintf(stderr, PTY_MSG_CONFIG_AND_POLICY "\n");
		return 2;
	}
	if (pty_tool_policy_text(policy, config, &c.cfg, &c.text, &c.len,
				 &c.name, err, sizeof err) != 0)
		goto failed;
	if (c.cfg.audit_log[0] != '\0') {
		(void)snprintf(err, sizeof err, PTY_MSG_DECIDE_AUDIT,
			       c.cfg.audit_log);
		goto failed;
	}
	if (pty_policy_open_for_tool(c.name, c.text, c.len, 0, &c.session,
				     NULL, &c.reads, err, sizeof err) != 0)
		goto failed;
	if (pty_decider_init(&c.d, c.session, &c.reads, c.cfg.path_env) != 0 &&
	    c.d.edb == NULL) {
		(void)snprintf(err, sizeof err, "%s", strerror(ENOMEM));
		goto failed;
	}
	/* a uid without a name still decides: a request without "user" is
	 * then answered with the error of pty_tool_facts_apply */
	c.who = c.d.who;
	(void)snprintf(c.cwd, sizeof c.cwd, "%s", c.d.cwd);
	rc = decide_loop(&c);
	goto out;
failed:
	pty_printable(shown, sizeof shown, err);
	fprintf(stderr, PTY_MSG_DECIDE_FAILED "\n", shown);
out:
	pty_decider_free(&c.d);
	decide_out_free(&c.out);
	(void)maelys_datalog_session_free(c.session);
	free(c.text);
	return rc;
}
