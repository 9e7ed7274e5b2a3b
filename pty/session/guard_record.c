/* SPDX-License-Identifier: MIT */
/*
 * The audit record of a line's decision (guard_record.h): what
 * pty_audit.h says each field holds, taken from the decision, and its
 * facts read back from the input EDB it was solved over.
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
	case PTY_VERDICT_NO_CWD:
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

/* Fact i of the EDB ctx, as pty_audit.h's flat values. */
static int
guard_record_fact(const void *ctx, size_t i, struct pty_audit_fact *out)
{
	maelys_datalog_arg_t args[PTY_AUDIT_FACT_ARGS_MAX];
	const char *pred = NULL;
	size_t j, n = 0;

	if (maelys_datalog_input_edb_get(ctx, i, &pred, args,
					 PTY_AUDIT_FACT_ARGS_MAX,
					 &n) != MAELYS_DATALOG_STATUS_OK)
		return -1;
	out->predicate.s = pred;
	out->predicate.len = strlen(pred);
	out->nargs = n;
	for (j = 0; j < n; j++) {
		struct pty_audit_fact_arg *a = &out->args[j];

		a->is_integer = args[j].kind == MAELYS_DATALOG_TERM_INTEGER;
		a->integer = a->is_integer ? args[j].as.integer : 0;
		a->text.s = a->is_integer ? NULL : args[j].as.symbol.text;
		a->text.len = a->is_integer ? 0 : args[j].as.symbol.length;
	}
	return 0;
}

const struct pty_audit_facts *
guard_record_facts(struct pty_audit_facts *f,
		   const maelys_datalog_input_edb_t *edb)
{
	if (edb == NULL)
		return NULL;
	f->count = maelys_datalog_input_edb_count(edb);
	f->get = guard_record_fact;
	f->ctx = edb;
	return f;
}

maelys_datalog_status_t
guard_record_copy_facts(maelys_datalog_input_edb_t *to,
			const maelys_datalog_input_edb_t *from)
{
	maelys_datalog_arg_t args[MAELYS_DATALOG_MAX_ARITY];
	maelys_datalog_status_t st;
	const char *pred;
	size_t i, n;

	PTY_TRY(st, maelys_datalog_input_edb_clear(to));
	for (i = 0; i < maelys_datalog_input_edb_count(from); i++) {
		PTY_TRY(st, maelys_datalog_input_edb_get(
				from, i, &pred, args, MAELYS_DATALOG_MAX_ARITY,
				&n));
		PTY_TRY(st, maelys_datalog_input_edb_add(to, pred, args, n,
							 NULL));
	}
	return MAELYS_DATALOG_STATUS_OK;
}

struct pty_audit_event *
guard_record_line(struct guard_record *rec, const char *event, const char *line,
		  size_t len, const struct pty_decision *dec,
		  const char *outcome, const maelys_datalog_input_edb_t *edb)
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
	if (dec->verdict == PTY_VERDICT_ERROR ||
	    dec->verdict == PTY_VERDICT_NO_CWD)
		d->error = pty_audit_text_of(dec->error, sizeof dec->error);
	d->log_reason =
	    pty_audit_text_or_none(dec->log_reason, sizeof dec->log_reason);
	d->confirm_prompt =
	    pty_audit_text_or_none(dec->confirm_prompt, sizeof dec->confirm_prompt);
	d->facts = guard_record_facts(&rec->facts, dec->asked ? edb : NULL);
	rec->event.event = event;
	rec->event.line = line;
	rec->event.line_len = len;
	rec->event.decision = d;
	rec->event.outcome = outcome;
	return &rec->event;
}
