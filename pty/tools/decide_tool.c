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
 * written or a record failed with on_audit_failure = terminate, 2 for a
 * usage error, a policy that does not load or an audit log that cannot be
 * started.
 *
 * Recording: decide is the one tool main.c runs with the installed
 * program's privileges (pty_tools.h).  It reads its settings as a session
 * does - with privileges, only the built-in configuration; a --policy or
 * --config of the caller's is read after they are dropped - and, when the
 * configuration names an audit log, starts the audit writer as a session
 * does (pty_guard_start_audit), drops every privilege, and then keeps the
 * log as a session: session_start (mode "decide"), a record of each
 * decision written before its answer with the session's records
 * (guard_record.c for a line, exec_record.c for an exec, written by
 * pty_guard_write_record), session_end at the end of input.  A record
 * that cannot be written turns the answer into a deny that says so; with
 * on_audit_failure = terminate, decide stops.  The log says who asked:
 * with it, a request may not name another user or other groups than the
 * caller's.
 */
#include "guard_record.h"
#include "pty_decide_json.h"
#include "pty_messages.h"
#include "pty_supervise.h"
#include "pty_tools.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What a record of decide's says for `mode` "mode": a session of its own */
#define DECIDE_MODE "decide"

struct decide_ctx {
	/* the settings (g.cfg), the audit writer, the session's names */
	struct pty_guard g;
	bool started; /* the session_start record is written */
	bool stop;    /* a record failed with on_audit_failure = terminate */
	struct guard_record rec;
	struct pty_exec_record xrec;
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

/* Writes the record of a decision before its answer (nothing to do
 * without a log).  Returns 0, or -1 with the answer a deny that says the
 * record could not be written; with on_audit_failure = terminate, decide
 * stops once it is written (pty_guard_write_record said so on stderr). */
static int
decide_record(struct decide_ctx *c, const struct pty_audit_event *e)
{
	char err[512], why[700];
	const char *r[1] = {why};
	enum pty_act act;

	if (c->g.audit == NULL)
		return 0;
	act = pty_guard_write_record(&c->g, e, STDERR_FILENO, "\n", err,
				     sizeof err);
	if (act == PTY_ACT_RUN)
		return 0;
	if (act == PTY_ACT_END)
		c->stop = true;
	(void)snprintf(why, sizeof why, PTY_MSG_DECIDE_NOT_RECORDED, err);
	decide_verdict(&c->out, "deny", r, 1);
	return -1;
}

/* The answer of a line: pty_decide's verdict in the answer's words. */
static void
decide_line(struct decide_ctx *c, const struct decide_request *rq)
{
	struct pty_decision *dec = &c->dec;
	const char *r[PTY_REASONS_MAX];
	char text[sizeof dec->error + 64];
	size_t i;

	pty_decide(&c->d, rq->line, rq->line_len, rq->mode, dec);
	/* "confirmed": the person said yes to this line's confirm, as a
	 * session's pty_guard_confirmed: recorded as confirmed, then decided
	 * again with confirmed(Cmd).  A line that asks no confirmation is
	 * decided as without it, as a session never asks it */
	if (rq->confirmed && dec->verdict == PTY_VERDICT_CONFIRM) {
		if (decide_record(c, guard_record_line(
					 &c->rec, "confirm", rq->line,
					 rq->line_len, dec, "confirmed",
					 c->d.edb)) != 0)
			return;
		pty_decide_confirmed(&c->d, rq->line, rq->line_len, rq->mode,
				     dec);
	}
	/* counted for session_end as a session counts its lines */
	if (dec->verdict != PTY_VERDICT_EMPTY)
		c->g.decisions++;
	if (!pty_verdict_runs(dec->verdict) &&
	    dec->verdict != PTY_VERDICT_CONFIRM &&
	    dec->verdict != PTY_VERDICT_EMPTY)
		c->g.denials++;
	/* the session's record of a line (pty_guard_finish's event); a
	 * confirm is the caller's to ask: recorded as such */
	if (decide_record(
		c, guard_record_line(
		       &c->rec,
		       rq->mode == PTY_MODE_COMMAND ? "command" : "line",
		       rq->line, rq->line_len, dec,
		       dec->verdict == PTY_VERDICT_CONFIRM
			   ? "confirm"
			   : guard_record_outcome(dec),
		       c->d.edb)) != 0)
		return;
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
	case PTY_VERDICT_NO_CWD:
		(void)snprintf(text, sizeof text, PTY_MSG_LOG_NO_CWD,
			       dec->error);
		r[0] = text;
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

	if (pty_tool_programs(&c->d, &c->g.cfg, rq->shell, rq->guard, err,
			      sizeof err) != 0 ||
	    pty_tool_exec_request(&c->d,
				  &(struct pty_tool_exec){
				      .exec = rq->exec,
				      .request = rq->request,
				      .argv = rq->argv,
				      .argc = rq->argc,
				      .parent = rq->parent,
				      .via = rq->via,
				      .through = rq->through,
				  },
				  &c->xrq, err, sizeof err) != 0) {
		r[0] = err;
		decide_verdict(&c->out, "deny", r, 1);
		return;
	}
	pty_exec_decide(&c->d, &c->xrq, rq->mode, x);
	/* a policy that decides lines only: what a session does with the
	 * program is the configuration's to say; under exec_decisions =
	 * optional it records the program, undecided, and lets it run */
	if (x->verdict == PTY_EXEC_POLICY &&
	    pty_supervise_execs_decided(&c->d, c->g.cfg.exec_decisions_optional,
					err, sizeof err) == 0) {
		x->verdict = PTY_EXEC_RECORDED;
		x->nreasons = 0;
		x->error[0] = '\0';
		/* recorded, not decided: as a session records it, without
		 * the facts of a decision nobody acts on */
		x->asked = false;
	}
	c->g.execs++;
	if (x->verdict != PTY_EXEC_RECORDED)
		c->g.decisions++;
	if (x->verdict != PTY_EXEC_ALLOW && x->verdict != PTY_EXEC_RECORDED)
		c->g.denials++;
	if (decide_record(c, pty_exec_record(&c->xrec, &c->xrq, x,
					     c->d.edb)) != 0)
		return;
	switch (x->verdict) {
	case PTY_EXEC_ALLOW:
		decide_verdict(&c->out, "allow", r, 0);
		return;
	case PTY_EXEC_RECORDED:
		r[0] = PTY_MSG_DECIDE_EXECS_RECORDED;
		decide_verdict(&c->out, "log", r, 1);
		return;
	case PTY_EXEC_POLICY:
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
		break;
	}
	r[0] = x->error;
	decide_verdict(&c->out, "deny", r, 1);
}

/* With an audit log its records say who asked: a request may not name
 * another user than the caller, nor other groups than the caller's (the
 * same set: leaving one out could escape a rule on it).  Returns true,
 * with the error in err, when it does. */
static bool
decide_not_callers(const struct decide_ctx *c, const struct pty_tool_facts *f,
		   char *err, size_t errlen)
{
	const struct pty_identity *who = &c->who;
	size_t i, k;

	if (f->user != NULL && strcmp(f->user, who->user) != 0) {
		(void)snprintf(err, errlen, PTY_MSG_DECIDE_NOT_YOUR_USER,
			       who->user);
		return true;
	}
	for (i = 0; i < f->ngroups; i++) {
		for (k = 0; k < who->ngroups; k++)
			if (strcmp(f->groups[i], who->groups[k]) == 0)
				break;
		if (k == who->ngroups)
			goto not_yours;
	}
	for (k = 0; f->ngroups > 0 && k < who->ngroups; k++) {
		for (i = 0; i < f->ngroups; i++)
			if (strcmp(f->groups[i], who->groups[k]) == 0)
				break;
		if (i == f->ngroups)
			goto not_yours;
	}
	return false;
not_yours:
	(void)snprintf(err, errlen, "%s", PTY_MSG_DECIDE_NOT_YOUR_GROUPS);
	return true;
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
	if (decide_request_parse(text, len, &rq, err, sizeof err) != 0 ||
	    (c->g.audit != NULL &&
	     decide_not_callers(c, &rq.facts, err, sizeof err))) {
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
		if (decide_write(c, lineno) != 0 || c->stop)
			return 1;
	}
	return ferror(stdin) ? 1 : 0;
}

/* The session of decide's records: the caller's names (the host and
 * remote a request gives are its records'), mode "decide", the policy's
 * digest, and its session_start record.  Returns 0, or -1 with one line in
 * err. */
static int
decide_start(struct decide_ctx *c, char *err, size_t errlen)
{
	struct pty_guard *g = &c->g;

	pty_guard_set_identity(g, &c->d.who);
	g->asess.mode = DECIDE_MODE;
	pty_sha256_hex(c->text, c->len, g->asess.policy_sha256);
	if (pty_audit_session_id(g->asess.id) != 0) {
		(void)snprintf(err, errlen, "%s", PTY_MSG_NO_RANDOMNESS);
		return -1;
	}
	if (pty_guard_event(g, "session_start", NULL) != 0) {
		(void)snprintf(err, errlen, "%s", PTY_MSG_NO_START_RECORD);
		return -1;
	}
	c->started = true;
	return 0;
}

int
decide_run(int argc, char **argv)
{
	static struct decide_ctx c; /* big buffers: not the stack */
	const char *policy = NULL, *config = NULL, *why;
	char err[2 * PATH_MAX], shown[2 * PATH_MAX];
	bool privileged;
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
	if (pty_privileges_of_install(&privileged, &why) != 0) {
		(void)snprintf(err, sizeof err, "%s", why);
		goto failed;
	}
	/* what the caller names is read with the caller's rights: with
	 * privileges, only the built-in configuration, as a session reads
	 * only it (main.c, PTY_MSG_PRIVILEGED_OPTIONS) */
	if (privileged && (policy != NULL || config != NULL)) {
		if (pty_drop_privileges() != 0) {
			(void)snprintf(err, sizeof err, PTY_MSG_CANNOT_DROP);
			goto failed;
		}
		privileged = false;
	}
	if (pty_tool_policy_text(policy, config, &c.g.cfg, &c.text, &c.len,
				 &c.name, err, sizeof err) != 0)
		goto failed;
	/* the session's step: the writer as the audit account, then every
	 * privilege gone for good (without a log: gone all the same) */
	if (pty_guard_start_audit(&c.g, privileged, err, sizeof err) != 0)
		goto failed;
	if (pty_policy_open_for_tool(c.name, c.text, c.len, 0, &c.session,
				     NULL, &c.reads, err, sizeof err) != 0)
		goto failed;
	if (pty_decider_init(&c.d, c.session, &c.reads, c.g.cfg.path_env) !=
	    0) {
		if (c.d.edb == NULL) {
			(void)snprintf(err, sizeof err, "%s", strerror(ENOMEM));
			goto failed;
		}
		/* a uid without a name still decides without a log (a
		 * request without "user" is then answered with the error of
		 * pty_tool_facts_apply); the log must name who asked */
		if (c.g.audit != NULL) {
			(void)snprintf(err, sizeof err, PTY_MSG_UNNAMED_USER,
				       (unsigned)getuid());
			goto failed;
		}
	}
	if (c.g.audit != NULL)
		pty_decider_records(&c.d);
	c.who = c.d.who;
	(void)snprintf(c.cwd, sizeof c.cwd, "%s", c.d.cwd);
	if (c.g.audit != NULL && decide_start(&c, err, sizeof err) != 0)
		goto failed;
	rc = decide_loop(&c);
	goto out;
failed:
	/* nothing is said with the audit account's rights (a no-op once
	 * they are dropped) */
	(void)pty_drop_privileges();
	pty_printable(shown, sizeof shown, err);
	fprintf(stderr, PTY_MSG_DECIDE_FAILED "\n", shown);
out:
	if (c.started) {
		/* the caller's names again, not the last request's */
		c.d.who = c.who;
		(void)pty_guard_event(&c.g, "session_end", NULL);
	}
	pty_guard_close(&c.g);
	pty_decider_free(&c.d);
	decide_out_free(&c.out);
	(void)maelys_datalog_session_free(c.session);
	free(c.text);
	return rc;
}
