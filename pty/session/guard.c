/* SPDX-License-Identifier: MIT */
/*
 * Concluding a line: confirmation, the audit record, the user's message,
 * syslog, the denial count (see pty_guard.h for the rules).
 */

#include "pty_guard.h"

#include "pty_exec.h"
#include "pty_line.h" /* pty_spawn_end_all */

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

	if (!g->syslog)
		return;
	va_start(ap, fmt);
	vsyslog(LOG_AUTHPRIV | priority, fmt, ap);
	va_end(ap);
}

static void pty_say(int fd, const char *eol, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
pty_say(int fd, const char *eol, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	size_t off = 0;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf - 4, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	off = (size_t)n < sizeof buf - 4 ? (size_t)n : sizeof buf - 5;
	off += (size_t)snprintf(buf + off, sizeof buf - off, "%s", eol);
	while (off > 0) {
		ssize_t w = write(fd, buf, off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		memmove(buf, buf + w, off - (size_t)w);
		off -= (size_t)w;
	}
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

/* Records the line's decision; outcome is the word of the record. */
static int
pty_guard_record(struct pty_guard *g, const char *event, const char *line,
		 size_t len, const struct pty_decision *dec,
		 const char *outcome, char *err, size_t errlen)
{
	struct pty_audit_event e;

	if (g->audit == NULL)
		return 0;
	memset(&e, 0, sizeof e);
	e.event = event;
	e.line = line;
	e.line_len = len;
	e.decision = dec;
	e.outcome = outcome;
	return pty_audit_write(g->audit, &g->asess, &e, err, errlen);
}

static const char *
pty_outcome(const struct pty_decision *dec)
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

/* A summary of a refusal for syslog: never the raw text of a line that was
 * refused for what it contains (control bytes, escapes). */
static void
pty_guard_log_denial(const struct pty_guard *g, const char *mode,
		     const struct pty_decision *dec)
{
	if (dec->verdict == PTY_VERDICT_SYNTAX) {
		pty_guard_log(g, LOG_NOTICE,
			      "refused user=%s session=%s mode=%s: %s", g->user,
			      g->asess.id, mode,
			      scan_refusal_reason(dec->scan.refusal));
		return;
	}
	pty_guard_log(g, LOG_NOTICE,
		      "denied user=%s session=%s mode=%s command=%s: %s",
		      g->user, g->asess.id, mode, dec->command,
		      dec->verdict == PTY_VERDICT_ERROR ? dec->error
		      : dec->nreasons > 0               ? dec->reasons[0].reason
							: "no rule allows it");
}

/* The audit log cannot be written, and on_audit_failure = terminate. */
static enum pty_act
pty_guard_terminate(struct pty_guard *g, const char *err, int fd,
		    const char *eol)
{
	pty_say(fd, eol,
		"maelys-pty: the audit log cannot be written: the session "
		"ends");
	pty_guard_log(g, LOG_ERR, "session %s of %s ended: audit log: %s",
		      g->asess.id, g->user, err);
	return PTY_ACT_END;
}

/* After a refusal: the count, and the end of the session at the limit. */
static enum pty_act
pty_guard_denied(struct pty_guard *g, int fd, const char *eol)
{
	g->denials++;
	if (g->cfg.max_denials > 0 && g->denials >= g->cfg.max_denials) {
		pty_say(fd, eol,
			"maelys-pty: %u refusals in this session: the "
			"session ends",
			g->denials);
		pty_guard_log(g, LOG_WARNING,
			      "session %s of %s ended after %u refusals",
			      g->asess.id, g->user, g->denials);
		(void)pty_guard_event(g, "session_end", "too many denials");
		return PTY_ACT_END;
	}
	return PTY_ACT_DENY;
}

/* What follows a decision that may run or is refused for good: the
 * record, the message, the count (see pty_guard.h). */
static enum pty_act
pty_guard_finish(struct pty_guard *g, const char *line, size_t len,
		 const char *mode, const struct pty_decision *dec, int fd,
		 const char *eol)
{
	const char *event = strcmp(mode, "command") == 0 ? "command" : "line";
	char err[512];

	if (dec->verdict == PTY_VERDICT_ALLOW_LOG && g->audit == NULL) {
		pty_say(fd, eol,
			"maelys-pty: '%s' may run only once recorded, and no "
			"audit log is configured",
			dec->command);
		pty_guard_log_denial(g, mode, dec);
		return pty_guard_denied(g, fd, eol);
	}
	if (pty_guard_record(g, event, line, len, dec, pty_outcome(dec), err,
			     sizeof err) != 0) {
		pty_guard_log(g, LOG_ERR, "audit log: %s", err);
		if (g->cfg.on_audit_failure == PTY_AUDIT_FAIL_TERMINATE)
			return pty_guard_terminate(g, err, fd, eol);
		if (pty_verdict_runs(dec->verdict)) {
			pty_say(fd, eol,
				"maelys-pty: '%s' denied: its audit record "
				"could not be written (%s)",
				dec->command, err);
			return pty_guard_denied(g, fd, eol);
		}
	}
	if (pty_verdict_runs(dec->verdict))
		return PTY_ACT_RUN;
	pty_decision_print(dec, fd, eol);
	pty_guard_log_denial(g, mode, dec);
	return pty_guard_denied(g, fd, eol);
}

/* A confirmation's answer (`asked`: there was somebody to ask). */
static enum pty_act
pty_guard_confirmed(struct pty_guard *g, struct pty_decider *d,
		    const char *line, size_t len, const char *mode,
		    struct pty_decision *dec, bool asked, bool yes, int fd,
		    const char *eol)
{
	char err[512];

	if (pty_guard_record(g, "confirm", line, len, dec,
			     yes ? "confirmed" : "declined", err,
			     sizeof err) != 0 &&
	    g->cfg.on_audit_failure == PTY_AUDIT_FAIL_TERMINATE)
		return pty_guard_terminate(g, err, fd, eol);
	if (!yes) {
		if (!asked)
			pty_say(fd, eol,
				"maelys-pty: '%s' needs confirmation (%s), "
				"which a command without a terminal cannot "
				"give",
				dec->command, dec->confirm_prompt);
		else
			pty_say(fd, eol, "maelys-pty: '%s' not confirmed",
				dec->command);
		pty_guard_log_denial(g, mode, dec);
		return pty_guard_denied(g, fd, eol);
	}
	pty_decide_confirmed(d, line, len, mode, dec);
	return pty_guard_finish(g, line, len, mode, dec, fd, eol);
}

enum pty_act
pty_guard_conclude(struct pty_guard *g, struct pty_decider *d, const char *line,
		   size_t len, const char *mode, bool can_ask, int fd,
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

static const char *
pty_exec_outcome(const struct pty_exec_decision *dec)
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

enum pty_act
pty_guard_conclude_exec(struct pty_guard *g, const struct pty_exec_request *r,
			const struct pty_exec_decision *dec, int fd,
			const char *eol)
{
	struct pty_audit_event e;
	char err[512];

	if (g->audit != NULL) {
		memset(&e, 0, sizeof e);
		e.event = "exec";
		e.exec = r;
		e.exec_decision = dec;
		e.outcome = pty_exec_outcome(dec);
		if (pty_audit_write(g->audit, &g->asess, &e, err, sizeof err) !=
		    0) {
			pty_guard_log(g, LOG_ERR, "audit log: %s", err);
			if (g->cfg.on_audit_failure ==
			    PTY_AUDIT_FAIL_TERMINATE) {
				pty_say(fd, eol,
					"maelys-pty: the audit log cannot be "
					"written: the session ends");
				return PTY_ACT_END;
			}
			pty_say(fd, eol,
				"maelys-pty: exec of '%s' denied: its audit "
				"record could not be written (%s)",
				r->path, err);
			return pty_guard_denied(g, fd, eol);
		}
	}
	if (dec->verdict == PTY_EXEC_ALLOW)
		return PTY_ACT_RUN;
	pty_exec_print(r, dec, fd, eol);
	pty_guard_log(
	    g, LOG_NOTICE, "exec denied user=%s session=%s path=%s: %s",
	    g->user, g->asess.id, r->path[0] ? r->path : r->request,
	    dec->verdict == PTY_EXEC_POLICY
		? (dec->nreasons > 0 ? dec->reasons[0] : "no rule allows it")
		: dec->error);
	return pty_guard_denied(g, fd, eol);
}

void
pty_guard_end_all(struct pty_guard *g)
{
	size_t left = pty_spawn_end_all(pty_audit_writer_pid(g->audit));

	/* processes that cannot die (an uninterruptible sleep) outlive the
	 * session: say so where the administrator looks */
	if (left > 0)
		pty_guard_log(g, LOG_WARNING,
			      "session %s of %s: %zu processes of the session "
			      "could not be ended",
			      g->asess.id, g->user, left);
}
