/* SPDX-License-Identifier: MIT */
/*
 * What the audit record of a line's decision says: the decision
 * (pty_decide.h) as the flat values of a struct pty_audit_event, by the
 * rules pty_audit.h gives for each field (an exec's record is made in
 * exec/, exec_conclude.c).  The
 * event points into the line, the decision and the request it was made
 * from, and into its struct guard_record: all of them must outlive it.
 */
#ifndef GUARD_RECORD_H
#define GUARD_RECORD_H

#include "pty_audit.h"
#include "pty_decide.h"

#include <stddef.h>

/* An event and the arrays it points to. */
struct guard_record {
	struct pty_audit_event event;
	struct pty_audit_decision decision;
	struct pty_audit_facts facts;
	struct pty_audit_text tokens[SCAN_TOKENS_MAX];
	const char *metachars[SCAN_META_COUNT];
	struct pty_audit_reason reasons[PTY_REASONS_MAX];
};

/* The word recorded as "decision" for a line's verdict: "allow",
 * "allow_with_log", "refused", "error" or "deny". */
const char *guard_record_outcome(const struct pty_decision *dec);

/* The record of `len` bytes of `line`, decided as `dec`, as event `event`
 * ("line", "command", "confirm") with `outcome` as its "decision", and
 * as its "facts" those of `edb`: the input EDB dec was solved over (the
 * decider's, before its next decision), read when dec->asked.  Returns
 * &rec->event. */
struct pty_audit_event *
guard_record_line(struct guard_record *rec, const char *event, const char *line,
		  size_t len, const struct pty_decision *dec,
		  const char *outcome, const maelys_datalog_input_edb_t *edb);

/* "facts" read from `edb` (which must not change until the record is
 * written): f, or NULL when edb is NULL.  The one reader of a decider's
 * facts for the log, lines and execs alike. */
const struct pty_audit_facts *
guard_record_facts(struct pty_audit_facts *f,
		   const maelys_datalog_input_edb_t *edb);

/* Copies every fact of `from` into `to` (cleared first), in order: a
 * decision's facts kept past the decider's next decision (a line waiting
 * for its confirmation).  Returns OK or the status that stopped it. */
maelys_datalog_status_t
guard_record_copy_facts(maelys_datalog_input_edb_t *to,
			const maelys_datalog_input_edb_t *from);

#endif /* GUARD_RECORD_H */
