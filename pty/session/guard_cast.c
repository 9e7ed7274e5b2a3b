/* SPDX-License-Identifier: MIT */
/*
 * The guard's part of the session recording (pty_session.h): starting it,
 * its decision markers, and what a stopped recording means for the
 * session (on_record_failure).  The bytes themselves are streamed by the
 * relay (line/relay.c) through pty_audit_rec.h; the file is the audit
 * writer's.
 */
#include "pty_session.h"

#include "pty_messages.h"

#include <stdio.h>
#include <string.h>
#include <syslog.h>

/* How much of a line a marker shows. */
#define GUARD_MARK_LINE_MAX 200

/* How long the guard tries to hand the writer what is queued at the end
 * of the session. */
#define GUARD_REC_END_MS 5000

int
pty_guard_record_start(struct pty_guard *g, unsigned cols, unsigned rows,
		       const char *term, char *err, size_t errlen)
{
	if (g->cfg.record[0] == '\0' || g->audit == NULL || g->rec != NULL)
		return 0;
	return pty_audit_rec_start(g->audit, &g->asess, cols, rows,
				   g->cfg.shell, term != NULL ? term : "",
				   &g->rec, err, errlen);
}

enum pty_act
pty_guard_recording(struct pty_guard *g, int fd, const char *eol)
{
	bool terminate = g->cfg.on_record_failure == PTY_AUDIT_FAIL_TERMINATE;

	/* once stopped, for the rest of the session (with terminate the
	 * recording is closed at once, and g->rec is gone) */
	if (g->rec_told)
		return terminate ? PTY_ACT_END : PTY_ACT_DENY;
	if (g->rec == NULL ||
	    pty_audit_rec_service(g->rec) == PTY_AUDIT_REC_ON)
		return PTY_ACT_RUN;
	g->rec_told = true;
	pty_say(fd, eol,
		terminate ? PTY_MSG_RECORDING_ENDS : PTY_MSG_RECORDING_STOPPED);
	pty_guard_log(g, LOG_WARNING,
		      "session %s of %s: the recording stopped; %s",
		      g->asess.id, g->who->user,
		      terminate ? "the session ends"
				: "every further command is refused");
	if (terminate)
		(void)pty_guard_event(g, "session_end", "the recording stopped");
	return terminate ? PTY_ACT_END : PTY_ACT_DENY;
}

/* Whether a record's "decision" word lets what it decided run. */
static bool
guard_outcome_runs(const char *outcome)
{
	return outcome != NULL && (strcmp(outcome, "allow") == 0 ||
				   strcmp(outcome, "allow_with_log") == 0 ||
				   strcmp(outcome, "recorded") == 0);
}

void
pty_guard_mark(struct pty_guard *g, const struct pty_audit_event *e,
	       bool written)
{
	char label[GUARD_MARK_LINE_MAX + 128]; /* the kind, the cut */
	const char *what;
	size_t len, n;
	bool runs = written && guard_outcome_runs(e->outcome);
	int k;

	if (g->rec == NULL || e->event == NULL)
		return;
	if (strcmp(e->event, "exec") == 0) {
		if (runs || e->exec == NULL)
			return;
		what = e->exec->path.s;
		len = e->exec->path.len;
		k = snprintf(label, sizeof label, "exec deny: ");
	} else if (strcmp(e->event, "line") == 0 ||
		   strcmp(e->event, "command") == 0 ||
		   strcmp(e->event, "confirm") == 0) {
		/* a confirmed line is marked by its "line" record */
		if (strcmp(e->event, "confirm") == 0 && written &&
		    e->outcome != NULL && strcmp(e->outcome, "confirmed") == 0)
			return;
		what = e->line;
		len = e->line_len;
		k = snprintf(label, sizeof label, "%s: ",
			     runs ? "allow" : "deny");
	} else {
		return;
	}
	if (what == NULL)
		len = 0;
	n = len < GUARD_MARK_LINE_MAX ? len : GUARD_MARK_LINE_MAX;
	/* not in the middle of a character */
	while (n < len && n > 0 && ((unsigned char)what[n] & 0xc0) == 0x80)
		n--;
	if (n > 0)
		memcpy(label + k, what, n);
	n += (size_t)k;
	/* a cut says so: what follows it (a second command) is in the
	 * line's audit record only */
	if (n - (size_t)k < len) {
		int m = snprintf(label + n, sizeof label - n, PTY_MSG_MARK_CUT,
				 len - (n - (size_t)k));

		if (m > 0 && (size_t)m < sizeof label - n)
			n += (size_t)m;
	}
	pty_audit_rec_put(g->rec, 'm', label, n);
}

void
pty_guard_record_end(struct pty_guard *g)
{
	if (g->rec == NULL)
		return;
	pty_audit_rec_end(g->rec, GUARD_REC_END_MS);
	g->rec = NULL;
}
