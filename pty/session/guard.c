/* SPDX-License-Identifier: MIT */
/*
 * Concluding a line: confirmation, the audit record, the user's message,
 * syslog, the denial count (see pty_session.h for the rules).
 */

#include "pty_session.h"

#include "guard_record.h"
#include "pty_mayrun.h"
#include "pty_messages.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

void
pty_guard_log(const struct pty_guard *g, int priority, const char *fmt, ...)
{
	va_list ap;

	if (!g->cfg.syslog)
		return;
	va_start(ap, fmt);
	vsyslog(LOG_AUTHPRIV | priority, fmt, ap);
	va_end(ap);
}

void
pty_guard_set_identity(struct pty_guard *g, const struct pty_identity *who)
{
	g->who = who;
	g->asess.user = who->user;
	g->asess.host = who->host;
	g->asess.tty = who->tty;
	g->asess.remote = who->remote_addr;
}

int
pty_guard_event(struct pty_guard *g, const char *event, const char *note)
{
	struct pty_audit_event e;
	char err[256];

	if (g->audit == NULL)
		return 0;
	if (strcmp(event, "session_end") == 0) {
		if (g->end_recorded)
			return 0;
		g->end_recorded = true;
		/* the file closed first: session_end describes it */
		pty_guard_record_end(g);
	}
	memset(&e, 0, sizeof e);
	e.event = event;
	e.note = note;
	e.outcome = event;
	if (pty_audit_write(g->audit, &g->asess, &e, err, sizeof err) != 0) {
		pty_guard_log(g, LOG_ERR, "audit log: %s", err);
		return -1;
	}
	if (strcmp(event, "session_start") == 0) {
		/* if this guard is killed, its writer still ends the
		 * session in the log */
		e.event = e.outcome = "session_end";
		e.note = "the guard ended without ending the session";
		if (pty_audit_set_fallback(g->audit, &g->asess, &e, err,
					   sizeof err) != 0) {
			pty_guard_log(g, LOG_ERR, "audit log: %s", err);
			return -1;
		}
	} else if (strcmp(event, "session_end") == 0) {
		(void)pty_audit_session_done(g->audit, err, sizeof err);
	}
	return 0;
}

/* The audit log cannot be written, and on_audit_failure = terminate. */
static enum pty_act
pty_guard_terminate(struct pty_guard *g, const char *err, int fd,
		    const char *eol)
{
	pty_say(fd, eol, PTY_MSG_AUDIT_ENDS);
	pty_guard_log(g, LOG_ERR, "session %s of %s ended: audit log: %s",
		      g->asess.id, g->who->user, err);
	return PTY_ACT_END;
}

enum pty_act
pty_guard_write_record(struct pty_guard *g, const struct pty_audit_event *e,
		       int fd, const char *eol, char *err, size_t errlen)
{
	if (g->audit == NULL ||
	    pty_audit_write(g->audit, &g->asess, e, err, errlen) == 0) {
		pty_guard_mark(g, e, true);
		return PTY_ACT_RUN;
	}
	pty_guard_mark(g, e, false);
	pty_guard_log(g, LOG_ERR, "audit log: %s", err);
	if (g->cfg.on_audit_failure == PTY_AUDIT_FAIL_TERMINATE)
		return pty_guard_terminate(g, err, fd, eol);
	return PTY_ACT_DENY;
}

/* Records the line's decision; outcome is the word of the record. */
static enum pty_act
pty_guard_record_line(struct pty_guard *g, const char *event, const char *line,
		      size_t len, const struct pty_decision *dec,
		      const char *outcome, int fd, const char *eol, char *err,
		      size_t errlen)
{
	struct guard_record rec;

	return pty_guard_write_record(
	    g, guard_record_line(&rec, event, line, len, dec, outcome), fd, eol,
	    err, errlen);
}

/* A summary of a refusal for syslog: never the raw text of a line that was
 * refused for what it contains (control bytes, escapes). */
static void
pty_guard_log_denial(const struct pty_guard *g, enum pty_mode mode,
		     const struct pty_decision *dec)
{
	if (dec->verdict == PTY_VERDICT_SYNTAX) {
		pty_guard_log(g, LOG_NOTICE,
			      "refused user=%s session=%s mode=%s: %s",
			      g->who->user, g->asess.id, pty_mode_name(mode),
			      scan_refusal_reason(dec->scan.refusal));
		return;
	}
	pty_guard_log(
	    g, LOG_NOTICE, "denied user=%s session=%s mode=%s command=%s: %s",
	    g->who->user, g->asess.id, pty_mode_name(mode), dec->command,
	    dec->verdict == PTY_VERDICT_ERROR ? dec->error
	    : dec->nreasons > 0               ? dec->reasons[0].reason
					      : "no rule allows it");
}

enum pty_act
pty_guard_refused(struct pty_guard *g, int fd, const char *eol)
{
	g->denials++;
	if (g->cfg.max_denials > 0 && g->denials >= g->cfg.max_denials) {
		pty_say(fd, eol, PTY_MSG_TOO_MANY_REFUSALS, g->denials);
		pty_guard_log(g, LOG_WARNING,
			      "session %s of %s ended after %u refusals",
			      g->asess.id, g->who->user, g->denials);
		(void)pty_guard_event(g, "session_end", "too many denials");
		return PTY_ACT_END;
	}
	if (g->cfg.max_denials > 0 &&
	    g->cfg.max_denials - g->denials <= PTY_GUARD_WARN_LEFT &&
	    g->asess.mode != NULL &&
	    strcmp(g->asess.mode, pty_mode_name(PTY_MODE_INTERACTIVE)) == 0) {
		if (g->cfg.max_denials - g->denials == 1)
			pty_say(fd, eol, PTY_MSG_REFUSAL_LEFT);
		else
			pty_say(fd, eol, PTY_MSG_REFUSALS_LEFT,
				g->cfg.max_denials - g->denials);
	}
	return PTY_ACT_DENY;
}

/* A line that would run while the session's recording has stopped
 * (on_record_failure): recorded as refused, with why, and refused. */
static enum pty_act
pty_guard_unrecorded(struct pty_guard *g, const char *event, const char *line,
		     size_t len, enum pty_mode mode,
		     const struct pty_decision *dec, enum pty_act act, int fd,
		     const char *eol)
{
	struct guard_record rec;
	struct pty_audit_event *e;
	char err[512];

	if (act == PTY_ACT_END)
		return act;
	e = guard_record_line(&rec, event, line, len, dec, "refused");
	rec.decision.error.s = PTY_MSG_RECORDING_STOPPED_ERROR;
	rec.decision.error.len = strlen(PTY_MSG_RECORDING_STOPPED_ERROR);
	if (pty_guard_write_record(g, e, fd, eol, err, sizeof err) ==
	    PTY_ACT_END)
		return PTY_ACT_END;
	pty_say(fd, eol, PTY_MSG_RECORDING_REFUSES, dec->command);
	pty_guard_log_denial(g, mode, dec);
	return pty_guard_refused(g, fd, eol);
}

/* What follows a decision that may run or is refused for good: the
 * record, the message, the count (see pty_session.h). */
static enum pty_act
pty_guard_finish(struct pty_guard *g, const char *line, size_t len,
		 enum pty_mode mode, const struct pty_decision *dec, int fd,
		 const char *eol)
{
	const char *event = mode == PTY_MODE_COMMAND ? "command" : "line";
	enum pty_act act;
	char err[512];

	if (dec->verdict == PTY_VERDICT_ALLOW_LOG && g->audit == NULL) {
		pty_say(fd, eol, PTY_MSG_NEEDS_A_LOG, dec->command);
		pty_guard_log_denial(g, mode, dec);
		return pty_guard_refused(g, fd, eol);
	}
	if (pty_verdict_runs(dec->verdict) &&
	    (act = pty_guard_recording(g, fd, eol)) != PTY_ACT_RUN)
		return pty_guard_unrecorded(g, event, line, len, mode, dec, act,
					    fd, eol);
	act = pty_guard_record_line(g, event, line, len, dec,
				    guard_record_outcome(dec), fd, eol, err,
				    sizeof err);
	if (act == PTY_ACT_END)
		return act;
	if (act == PTY_ACT_DENY && pty_verdict_runs(dec->verdict)) {
		pty_say(fd, eol, PTY_MSG_RECORD_FAILED, dec->command, err);
		return pty_guard_refused(g, fd, eol);
	}
	if (pty_verdict_runs(dec->verdict))
		return PTY_ACT_RUN;
	pty_say_decision(dec, fd, eol);
	pty_say_where(dec, line, len,
		      mode == PTY_MODE_INTERACTIVE ? g->prompt : NULL,
		      g->screen_cols, fd, eol);
	pty_guard_log_denial(g, mode, dec);
	return pty_guard_refused(g, fd, eol);
}

/* A confirmation's answer (`asked`: there was somebody to ask). */
static enum pty_act
pty_guard_confirmed(struct pty_guard *g, struct pty_decider *d,
		    const char *line, size_t len, enum pty_mode mode,
		    struct pty_decision *dec, bool asked, bool yes, int fd,
		    const char *eol)
{
	char err[512];

	if (pty_guard_record_line(g, "confirm", line, len, dec,
				  yes ? "confirmed" : "declined", fd, eol, err,
				  sizeof err) == PTY_ACT_END)
		return PTY_ACT_END;
	if (!yes) {
		if (!asked)
			pty_say(fd, eol, PTY_MSG_CONFIRM_WITHOUT_TERMINAL,
				dec->command, dec->confirm_prompt);
		else
			pty_say(fd, eol, PTY_MSG_NOT_CONFIRMED, dec->command);
		pty_guard_log_denial(g, mode, dec);
		return pty_guard_refused(g, fd, eol);
	}
	pty_decide_confirmed(d, line, len, mode, dec);
	return pty_guard_finish(g, line, len, mode, dec, fd, eol);
}

enum pty_act
pty_guard_conclude(struct pty_guard *g, struct pty_decider *d, const char *line,
		   size_t len, enum pty_mode mode, bool can_ask, int fd,
		   const char *eol)
{
	struct pty_decision *dec = &g->pending.dec;
	size_t i;

	g->pending.active = false;
	pty_decide(d, line, len, mode, dec);
	if (dec->verdict == PTY_VERDICT_EMPTY)
		return PTY_ACT_SKIP;
	if (dec->verdict != PTY_VERDICT_CONFIRM)
		return pty_guard_finish(g, line, len, mode, dec, fd, eol);
	if (!can_ask)
		return pty_guard_confirmed(g, d, line, len, mode, dec, false,
					   false, fd, eol);
	/* the line waits in the guard for the answer: its own copy (a line
	 * that needs confirmation was accepted by the scanner, so it is
	 * shorter than SCAN_LINE_MAX), its words pointing into it */
	memcpy(g->pending.line, line, len);
	for (i = 0; i < dec->scan.ntokens; i++)
		dec->scan.tokens[i].text =
		    g->pending.line + (dec->scan.tokens[i].text - line);
	g->pending.len = len;
	g->pending.mode = mode;
	g->pending.active = true;
	return PTY_ACT_ASK;
}

const char *
pty_guard_question(const struct pty_guard *g)
{
	return g->pending.active ? g->pending.dec.confirm_prompt : "";
}

enum pty_act
pty_guard_answer(struct pty_guard *g, struct pty_decider *d, bool yes, int fd,
		 const char *eol)
{
	if (!g->pending.active)
		return PTY_ACT_DENY;
	g->pending.active = false;
	return pty_guard_confirmed(g, d, g->pending.line, g->pending.len,
				   g->pending.mode, &g->pending.dec, true, yes,
				   fd, eol);
}

const char *
pty_guard_kept_line(const struct pty_guard *g, size_t *len)
{
	*len = g->pending.len;
	return g->pending.line;
}
