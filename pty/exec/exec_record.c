/* SPDX-License-Identifier: MIT */
/*
 * The audit record of an exec (pty_exec_record, pty_exec.h): what
 * pty_audit.h says each field holds, taken from the request and the
 * supervisor's decision of it.
 */
#include "pty_exec.h"

#include "guard_record.h"

#include <string.h>

static const char *
exec_outcome(const struct pty_exec_decision *dec)
{
	switch (dec->verdict) {
	case PTY_EXEC_ALLOW:
		return "allow";
	case PTY_EXEC_ERROR:
		return "error";
	case PTY_EXEC_UNREADABLE:
	case PTY_EXEC_UNSAFE:
		return "refused";
	case PTY_EXEC_RECORDED:
		return "recorded";
	case PTY_EXEC_POLICY:
		break;
	}
	return "deny";
}

/* The decision's part of an exec record: its reasons, its error. */
static void
exec_record_decision(struct pty_exec_record *rec,
		     const struct pty_exec_decision *dec)
{
	struct pty_audit_exec *x = &rec->exec;
	size_t i, n;

	n = dec->nreasons < PTY_REASONS_MAX ? dec->nreasons : PTY_REASONS_MAX;
	for (i = 0; i < n; i++)
		rec->reasons[i] =
		    pty_audit_text_of(dec->reasons[i], sizeof dec->reasons[i]);
	x->reasons = rec->reasons;
	x->nreasons = n;
	if (dec->verdict == PTY_EXEC_ERROR ||
	    dec->verdict == PTY_EXEC_UNREADABLE ||
	    dec->verdict == PTY_EXEC_UNSAFE ||
	    (dec->verdict == PTY_EXEC_RECORDED && dec->error[0] != '\0'))
		x->error = pty_audit_text_of(dec->error, sizeof dec->error);
	rec->event.outcome = exec_outcome(dec);
}

struct pty_audit_event *
pty_exec_record(struct pty_exec_record *rec, const struct pty_exec_request *r,
		const struct pty_exec_decision *dec,
		const maelys_datalog_input_edb_t *edb)
{
	struct pty_audit_exec *x = &rec->exec;

	memset(&rec->event, 0, sizeof rec->event);
	memset(x, 0, sizeof *x);
	x->path = pty_audit_text_of(r->path, sizeof r->path);
	x->request = pty_audit_text_of(r->request, sizeof r->request);
	x->cwd = pty_audit_text_of(r->cwd, sizeof r->cwd);
	x->parent = pty_audit_text_of(r->parent, sizeof r->parent);
	if (r->via != PTY_EXEC_VIA_EXECVE) {
		x->via = pty_exec_via_name(r->via);
		x->through = pty_audit_text_of(r->through, sizeof r->through);
	}
	x->argv = r->argv;
	x->argv_len = r->argv_len;
	x->argc = r->argc;
	x->pid = r->pid;
	x->facts = guard_record_facts(&rec->facts, dec->asked ? edb : NULL);
	rec->event.event = "exec";
	rec->event.exec = x;
	exec_record_decision(rec, dec);
	return &rec->event;
}
