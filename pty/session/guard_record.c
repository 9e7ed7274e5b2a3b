/* SPDX-License-Identifier: MIT */
/*
 * The audit record of a decision (guard_record.h): what pty_audit.h says
 * each field holds, taken from a line's decision or an exec's.
 */

#include "guard_record.h"

#include <string.h>

/* A NUL-terminated field of a fixed-size array, read within its size. */
static struct pty_audit_text
guard_text(const char *s, size_t cap)
{
	struct pty_audit_text t = {s, strnlen(s, cap)};

	return t;
}

/* The same, left out of the record when "". */
static struct pty_audit_text
guard_text_or_none(const char *s, size_t cap)
{
	struct pty_audit_text none = {NULL, 0};

	return s[0] != '\0' ? guard_text(s, cap) : none;
}

const char *
guard_record_outcome(const struct pty_decision *dec)
{
	switch (dec->verdict) {
	case PTY_VERDICT_ALLOW:
		return "allow";
	case PTY_VERDICT_ALLOW_LOG:
		return "allow_with_log";
	case PTY_VERDICT_SYNTAX:
		return "refused";
	case PTY_VERDICT_ERROR:
		return "error";
	case PTY_VERDICT_CONFIRM:
	case PTY_VERDICT_POLICY:
	case PTY_VERDICT_EMPTY:
		break;
	}
	return "deny";
}

/* The scan's words and metacharacter classes (in bit order). */
static void
guard_record_scan(struct guard_record *rec, const struct scan_result *scan)
{
	struct pty_audit_decision *d = &rec->decision;
	size_t i, n;

	n = scan->ntokens < SCAN_TOKENS_MAX ? scan->ntokens : SCAN_TOKENS_MAX;
	for (i = 0; i < n; i++) {
		rec->tokens[i].s = scan->tokens[i].text;
		rec->tokens[i].len =
		    scan->tokens[i].text != NULL ? scan->tokens[i].len : 0;
	}
	d->tokens = rec->tokens;
	d->ntokens = n;
	d->nmetachars = 0;
	for (i = 0; i < SCAN_META_COUNT; i++) {
		const char *name = scan_metachar_name((unsigned)i);

		if ((scan->metachars & (1u << i)) != 0 && name != NULL)
			rec->metachars[d->nmetachars++] = name;
	}
	d->metachars = rec->metachars;
	d->line_by_sha256 = scan->refusal == SCAN_REFUSE_TOO_LONG ||
			    scan->refusal == SCAN_REFUSE_ENCODING;
	d->refusal = scan->refusal != SCAN_ACCEPT
			 ? scan_refusal_reason(scan->refusal)
			 : NULL;
}

struct pty_audit_event *
guard_record_line(struct guard_record *rec, const char *event, const char *line,
		  size_t len, const struct pty_decision *dec,
		  const char *outcome)
{
	struct pty_audit_decision *d = &rec->decision;
	size_t i, n;

	memset(&rec->event, 0, sizeof rec->event);
	memset(d, 0, sizeof *d);
	guard_record_scan(rec, &dec->scan);
	n = dec->nreasons < PTY_REASONS_MAX ? dec->nreasons : PTY_REASONS_MAX;
	for (i = 0; i < n; i++) {
		rec->reasons[i].op =
		    guard_text(dec->reasons[i].op, sizeof dec->reasons[i].op);
		rec->reasons[i].reason = guard_text(
		    dec->reasons[i].reason, sizeof dec->reasons[i].reason);
	}
	d->reasons = rec->reasons;
	d->nreasons = n;
	if (dec->verdict == PTY_VERDICT_ERROR)
		d->error = guard_text(dec->error, sizeof dec->error);
	d->log_reason =
	    guard_text_or_none(dec->log_reason, sizeof dec->log_reason);
	d->confirm_prompt =
	    guard_text_or_none(dec->confirm_prompt, sizeof dec->confirm_prompt);
	rec->event.event = event;
	rec->event.line = line;
	rec->event.line_len = len;
	rec->event.decision = d;
	rec->event.outcome = outcome;
	return &rec->event;
}

static const char *
guard_exec_outcome(const struct pty_exec_decision *dec)
{
	switch (dec->verdict) {
	case PTY_EXEC_ALLOW:
		return "allow";
	case PTY_EXEC_ERROR:
		return "error";
	case PTY_EXEC_UNREADABLE:
	case PTY_EXEC_UNSAFE:
		return "refused";
	case PTY_EXEC_POLICY:
		break;
	}
	return "deny";
}

/* The decision's part of an exec record: its reasons, its error. */
static void
guard_record_exec_decision(struct guard_record *rec,
			   const struct pty_exec_decision *dec)
{
	struct pty_audit_exec *x = &rec->exec;
	size_t i, n;

	n = dec->nreasons < PTY_REASONS_MAX ? dec->nreasons : PTY_REASONS_MAX;
	for (i = 0; i < n; i++)
		rec->exec_reasons[i] =
		    guard_text(dec->reasons[i], sizeof dec->reasons[i]);
	x->reasons = rec->exec_reasons;
	x->nreasons = n;
	if (dec->verdict == PTY_EXEC_ERROR ||
	    dec->verdict == PTY_EXEC_UNREADABLE ||
	    dec->verdict == PTY_EXEC_UNSAFE)
		x->error = guard_text(dec->error, sizeof dec->error);
	rec->event.outcome = guard_exec_outcome(dec);
}

struct pty_audit_event *
guard_record_exec(struct guard_record *rec, const struct pty_exec_request *r,
		  const struct pty_exec_decision *dec)
{
	struct pty_audit_exec *x = &rec->exec;

	memset(&rec->event, 0, sizeof rec->event);
	memset(x, 0, sizeof *x);
	x->path = guard_text(r->path, sizeof r->path);
	x->request = guard_text(r->request, sizeof r->request);
	x->cwd = guard_text(r->cwd, sizeof r->cwd);
	x->parent = guard_text(r->parent, sizeof r->parent);
	if (r->via != PTY_EXEC_VIA_EXECVE) {
		x->via = pty_exec_via_name(r->via);
		x->through = guard_text(r->through, sizeof r->through);
	}
	x->argv = r->argv;
	x->argv_len = r->argv_len;
	x->argc = r->argc;
	x->pid = r->pid;
	rec->event.event = "exec";
	rec->event.exec = x;
	guard_record_exec_decision(rec, dec);
	return &rec->event;
}
