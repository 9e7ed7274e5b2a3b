/* SPDX-License-Identifier: MIT */
/*
 * The audit record of a line's decision (guard_record.h): what
 * pty_audit.h says each field holds, taken from the decision.
 */

#include "guard_record.h"

#include <string.h>

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
		    pty_audit_text_of(dec->reasons[i].op, sizeof dec->reasons[i].op);
		rec->reasons[i].reason = pty_audit_text_of(
		    dec->reasons[i].reason, sizeof dec->reasons[i].reason);
	}
	d->reasons = rec->reasons;
	d->nreasons = n;
	if (dec->verdict == PTY_VERDICT_ERROR)
		d->error = pty_audit_text_of(dec->error, sizeof dec->error);
	d->log_reason =
	    pty_audit_text_or_none(dec->log_reason, sizeof dec->log_reason);
	d->confirm_prompt =
	    pty_audit_text_or_none(dec->confirm_prompt, sizeof dec->confirm_prompt);
	rec->event.event = event;
	rec->event.line = line;
	rec->event.line_len = len;
	rec->event.decision = d;
	rec->event.outcome = outcome;
	return &rec->event;
}
