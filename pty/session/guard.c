/* SPDX-License-Identifier: MIT */
/*
 * Concluding a line: confirmation, the audit record, the user's message,
 * syslog, the denial count (see pty_session.h for the rules).
 */
#define _GNU_SOURCE /* sigabbrev_np */

#include "pty_session.h"

#include "guard_record.h"
#include "pty_mayrun.h"
#include "pty_messages.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <sys/wait.h>
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

/* What session_end says of the session: its counts, and the shell's
 * exit when it is known (pty_audit.h). */
static void
pty_guard_end_of(const struct pty_guard *g, struct pty_audit_end *end,
		 bool with_exit, char sig[24])
{
	const char *abbrev;

	memset(end, 0, sizeof *end);
	end->decisions = g->decisions;
	end->refusals = g->denials;
	end->execs = g->execs;
	if (!with_exit || !g->exited)
		return;
	if (WIFEXITED(g->wait_status)) {
		end->has_status = true;
		end->exit_status = WEXITSTATUS(g->wait_status);
	} else if (WIFSIGNALED(g->wait_status)) {
		abbrev = sigabbrev_np(WTERMSIG(g->wait_status));
		if (abbrev != NULL)
			(void)snprintf(sig, 24, "SIG%s", abbrev);
		else
			(void)snprintf(sig, 24, "%d", WTERMSIG(g->wait_status));
		end->signal = sig;
	}
}

/* The record the writer appends if this guard is killed: the session's
 * end with the counts as of now and no exit status (the guard that would
 * have seen the shell end is gone).  Returns 0, or -1 (said to syslog). */
static int
pty_guard_fallback(struct pty_guard *g)
{
	struct pty_audit_event e;
	struct pty_audit_end end;
	char err[256], sig[24];

	if (g->audit == NULL || g->end_recorded)
		return 0;
	memset(&e, 0, sizeof e);
	pty_guard_end_of(g, &end, false, sig);
	e.event = e.outcome = "session_end";
	e.end = &end;
	/* no exit status: the counts are those of the last decision
	 * concluded (pty_audit.h) */
	e.note = "the guard ended without ending the session";
	if (pty_audit_set_fallback(g->audit, &g->asess, &e, err, sizeof err) !=
	    0) {
		pty_guard_log(g, LOG_ERR, "audit log: %s", err);
		return -1;
	}
	return 0;
}

int
pty_guard_event(struct pty_guard *g, const char *event, const char *note)
{
	struct pty_audit_event e;
	struct pty_audit_end end;
	bool ending = strcmp(event, "session_end") == 0;
	char err[256], sig[24];

	if (g->audit == NULL)
		return 0;
	if (ending) {
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
	if (ending) {
		pty_guard_end_of(g, &end, true, sig);
		e.end = &end;
	}
	if (pty_audit_write(g->audit, &g->asess, &e, err, sizeof err) != 0) {
		pty_guard_log(g, LOG_ERR, "audit log: %s", err);
		return -1;
	}
	/* if this guard is killed, its writer still ends the session in
	 * the log */
	if (strcmp(event, "session_start") == 0)
		return pty_guard_fallback(g);
	if (ending)
		(void)pty_audit_session_done(g->audit, err, sizeof err);
	return 0;
}

void
pty_guard_exec_concluded(struct pty_guard *g, bool decided)
{
	g->execs++;
	if (decided)
		g->decisions++;
	(void)pty_guard_fallback(g);
}

void
pty_guard_set_exit(struct pty_guard *g, int wait_status)
{
	g->exited = true;
	g->wait_status = wait_status;
}

void
pty_guard_close(struct pty_guard *g)
{
	(void)maelys_datalog_input_edb_free(g->pending.facts);
	g->pending.facts = NULL;
	pty_audit_close(g->audit);
	g->audit = NULL;
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

/* Records the line's decision; outcome is the word of the record, edb
 * the input EDB it was solved over. */
static enum pty_act
pty_guard_record_line(struct pty_guard *g, const char *event, const char *line,
		      size_t len, const struct pty_decision *dec,
		      const char *outcome,
		      const maelys_datalog_input_edb_t *edb, int fd,
		      const char *eol, char *err, size_t errlen)
{
	struct guard_record rec;

	return pty_guard_write_record(
	    g, guard_record_line(&rec, event, line, len, dec, outcome, edb),
	    fd, eol, err, errlen);
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
	if (dec->verdict == PTY_VERDICT_NO_CWD) {
		pty_guard_log(g, LOG_NOTICE,
			      "refused user=%s session=%s mode=%s command=%s: "
			      "the working directory cannot be named (%s)",
			      g->who->user, g->asess.id, pty_mode_name(mode),
			      dec->command, dec->error);
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
		     const struct pty_decision *dec,
		     const maelys_datalog_input_edb_t *edb, enum pty_act act,
		     int fd, const char *eol)
{
	struct guard_record rec;
	struct pty_audit_event *e;
	char err[512];

	if (act == PTY_ACT_END)
		return act;
	e = guard_record_line(&rec, event, line, len, dec, "refused", edb);
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
		 enum pty_mode mode, const struct pty_decision *dec,
		 const maelys_datalog_input_edb_t *edb, int fd, const char *eol)
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
		return pty_guard_unrecorded(g, event, line, len, mode, dec, edb,
					    act, fd, eol);
	act = pty_guard_record_line(g, event, line, len, dec,
				    guard_record_outcome(dec), edb, fd, eol,
				    err, sizeof err);
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
		    struct pty_decision *dec,
		    const maelys_datalog_input_edb_t *edb, bool asked, bool yes,
		    int fd, const char *eol)
{
	char err[512];

	if (pty_guard_record_line(g, "confirm", line, len, dec,
				  yes ? "confirmed" : "declined", edb, fd, eol,
				  err, sizeof err) == PTY_ACT_END)
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
	return pty_guard_finish(g, line, len, mode, dec, d->edb, fd, eol);
}

/* The line's facts kept while it waits for its answer: execs decided
 * meanwhile reuse the decider's EDB.  Returns OK, or why not. */
static maelys_datalog_status_t
pty_guard_keep_facts(struct pty_guard *g, const struct pty_decider *d)
{
	maelys_datalog_status_t st;

	if (g->pending.facts == NULL)
		PTY_TRY(st, maelys_datalog_input_edb_create(&g->pending.facts));
	return guard_record_copy_facts(g->pending.facts, d->edb);
}

/* pty_guard_conclude but for the count and the fallback record. */
static enum pty_act
pty_guard_conclude_line(struct pty_guard *g, struct pty_decider *d,
			const char *line, size_t len, enum pty_mode mode,
			bool can_ask, int fd, const char *eol)
{
	struct pty_decision *dec = &g->pending.dec;
	maelys_datalog_status_t st;
	size_t i;

	g->pending.active = false;
	pty_decide(d, line, len, mode, dec);
	if (dec->verdict == PTY_VERDICT_EMPTY)
		return PTY_ACT_SKIP;
	g->decisions++;
	if (dec->verdict != PTY_VERDICT_CONFIRM)
		return pty_guard_finish(g, line, len, mode, dec, d->edb, fd,
					eol);
	if (!can_ask)
		return pty_guard_confirmed(g, d, line, len, mode, dec, d->edb,
					   false, false, fd, eol);
	if ((st = pty_guard_keep_facts(g, d)) != MAELYS_DATALOG_STATUS_OK) {
		/* a confirm record without its facts would not be the
		 * decider's truth: refused, as any decision that fails */
		dec->verdict = PTY_VERDICT_ERROR;
		pty_status_text(st,
				&(maelys_datalog_diagnostic_t)
				    MAELYS_DATALOG_DIAGNOSTIC_INIT,
				dec->error, sizeof dec->error);
		return pty_guard_finish(g, line, len, mode, dec, d->edb, fd,
					eol);
	}
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

enum pty_act
pty_guard_conclude(struct pty_guard *g, struct pty_decider *d, const char *line,
		   size_t len, enum pty_mode mode, bool can_ask, int fd,
		   const char *eol)
{
	enum pty_act act =
	    pty_guard_conclude_line(g, d, line, len, mode, can_ask, fd, eol);

	if (act != PTY_ACT_SKIP && act != PTY_ACT_ASK)
		(void)pty_guard_fallback(g);
	return act;
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
	enum pty_act act;

	if (!g->pending.active)
		return PTY_ACT_DENY;
	g->pending.active = false;
	act = pty_guard_confirmed(g, d, g->pending.line, g->pending.len,
				  g->pending.mode, &g->pending.dec,
				  g->pending.facts, true, yes, fd, eol);
	(void)pty_guard_fallback(g);
	return act;
}

const char *
pty_guard_kept_line(const struct pty_guard *g, size_t *len)
{
	*len = g->pending.len;
	return g->pending.line;
}
