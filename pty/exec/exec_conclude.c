/* SPDX-License-Identifier: MIT */
/*
 * After an exec is decided: its audit record, what the user and syslog
 * are told of a refusal, and the refusal count (pty_exec_conclude,
 * pty_supervise.h).  The record is exec_record.c's; the guard writes it
 * and counts.
 */
#include "pty_supervise.h"

#include "pty_messages.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <syslog.h>

/* What the user sees of a refused exec, lines ending in eol:
 *   maelys-pty: exec of '/usr/bin/sh' (/usr/bin/dash) denied by policy
 *     deny_exec: shells are not started by other programs
 * Paths and reasons are the session's data: shown with pty_printable, so
 * they cannot drive the user's terminal. */
static void
exec_say_refused(const struct pty_exec_request *r,
		 const struct pty_exec_decision *dec, int fd, const char *eol)
{
	char shown[PATH_MAX], real[PATH_MAX];
	const char *what = PTY_MSG_EXEC_DENIED_BY_POLICY;
	size_t i;

	if (dec->verdict == PTY_EXEC_ERROR)
		what = PTY_MSG_EXEC_DENIED_UNEVALUATED;
	else if (dec->verdict == PTY_EXEC_UNREADABLE)
		what = PTY_MSG_EXEC_DENIED_UNCHECKED;
	else if (dec->verdict == PTY_EXEC_UNSAFE)
		what = PTY_MSG_EXEC_DENIED;
	pty_printable(shown, sizeof shown,
		      r->request[0] != '\0' ? r->request : r->path);
	pty_printable(real, sizeof real, r->path);
	if (shown[0] == '\0')
		pty_say(fd, eol, PTY_MSG_EXEC_OF_PROCESS, (int)r->pid, what);
	else if (r->path[0] != '\0' && strcmp(r->path, shown) != 0)
		pty_say(fd, eol, PTY_MSG_EXEC_OF_RESOLVED, shown, real, what);
	else
		pty_say(fd, eol, PTY_MSG_EXEC_OF, shown, what);
	if (r->via != PTY_EXEC_VIA_EXECVE) {
		/* the program was not named by the process: say how the
		 * kernel or the loader comes to run it */
		pty_printable(real, sizeof real, r->through);
		pty_say(fd, eol,
			r->via == PTY_EXEC_VIA_SHEBANG
			    ? PTY_MSG_EXEC_VIA_SHEBANG
			    : PTY_MSG_EXEC_VIA_LOADER,
			real);
	}
	if (dec->verdict != PTY_EXEC_POLICY) {
		pty_printable(real, sizeof real, dec->error);
		pty_say(fd, eol, PTY_MSG_EXEC_WHY, real);
		return;
	}
	if (dec->never)
		pty_say(fd, eol, PTY_MSG_EXEC_NEVER);
	for (i = 0; i < dec->nreasons; i++) {
		pty_printable(real, sizeof real, dec->reasons[i]);
		pty_say(fd, eol, PTY_MSG_EXEC_DENY_REASON, real);
	}
	if (dec->reasons_total > dec->nreasons)
		pty_say(fd, eol, PTY_MSG_EXEC_MORE_REASONS,
			dec->reasons_total - dec->nreasons);
}

/* An exec that would run while the session's recording has stopped
 * (on_record_failure = deny): recorded as refused, with why, and
 * refused. */
static enum pty_act
exec_unrecorded(struct pty_guard *g, const struct pty_exec_request *r,
		const struct pty_exec_decision *dec,
		const maelys_datalog_input_edb_t *edb, enum pty_act act, int fd,
		const char *eol)
{
	struct pty_exec_record rec;
	struct pty_audit_event *e;
	char err[512];

	if (act == PTY_ACT_END)
		return act;
	e = pty_exec_record(&rec, r, dec, edb);
	e->outcome = "refused";
	rec.exec.error.s = PTY_MSG_RECORDING_STOPPED_ERROR;
	rec.exec.error.len = strlen(PTY_MSG_RECORDING_STOPPED_ERROR);
	if (pty_guard_write_record(g, e, fd, eol, err, sizeof err) ==
	    PTY_ACT_END)
		return PTY_ACT_END;
	pty_say(fd, eol, PTY_MSG_EXEC_RECORDING_REFUSES,
		r->path[0] ? r->path : r->request);
	return pty_guard_refused(g, fd, eol);
}

/* pty_exec_conclude but for the count and the fallback record. */
static enum pty_act
exec_conclude_one(struct pty_guard *g, const struct pty_exec_request *r,
		  const struct pty_exec_decision *dec,
		  const maelys_datalog_input_edb_t *edb, int fd,
		  const char *eol)
{
	struct pty_exec_record rec;
	enum pty_act act;
	char err[512];

	if ((dec->verdict == PTY_EXEC_ALLOW ||
	     dec->verdict == PTY_EXEC_RECORDED) &&
	    (act = pty_guard_recording(g, fd, eol)) != PTY_ACT_RUN)
		return exec_unrecorded(g, r, dec, edb, act, fd, eol);
	act = pty_guard_write_record(g, pty_exec_record(&rec, r, dec, edb), fd,
				     eol, err, sizeof err);
	if (act == PTY_ACT_END)
		return act;
	if (act == PTY_ACT_DENY) {
		pty_say(fd, eol, PTY_MSG_EXEC_RECORD_FAILED, r->path, err);
		return pty_guard_refused(g, fd, eol);
	}
	if (dec->verdict == PTY_EXEC_ALLOW || dec->verdict == PTY_EXEC_RECORDED)
		return PTY_ACT_RUN;
	exec_say_refused(r, dec, fd, eol);
	pty_guard_log(
	    g, LOG_NOTICE, "exec denied user=%s session=%s path=%s: %s",
	    g->who->user, g->asess.id, r->path[0] ? r->path : r->request,
	    dec->verdict == PTY_EXEC_POLICY
		? (dec->nreasons > 0 ? dec->reasons[0]
		   : dec->never      ? "exec_never holds for it"
				     : "no rule allows it")
		: dec->error);
	return pty_guard_refused(g, fd, eol);
}

enum pty_act
pty_exec_conclude(struct pty_guard *g, const struct pty_exec_request *r,
		  const struct pty_exec_decision *dec,
		  const maelys_datalog_input_edb_t *edb, int fd,
		  const char *eol)
{
	enum pty_act act = exec_conclude_one(g, r, dec, edb, fd, eol);

	pty_guard_exec_concluded(g, dec->verdict != PTY_EXEC_RECORDED);
	return act;
}

enum pty_act
pty_exec_conclude_mismatch(struct pty_guard *g,
			   const struct pty_exec_mismatch *m, int fd,
			   const char *eol)
{
	struct pty_audit_mismatch am;
	struct pty_audit_event e;
	char text[3 * PATH_MAX + 128], ran[PATH_MAX], path[PATH_MAX],
	    err[512];
	enum pty_act act;

	pty_printable(ran, sizeof ran,
		      m->ran[0] != '\0' ? m->ran
					 : PTY_MSG_EXEC_MISMATCH_UNNAMED);
	pty_printable(path, sizeof path, m->path);
	(void)snprintf(text, sizeof text, PTY_MSG_EXEC_MISMATCH, (int)m->pid,
		       ran, path,
		       m->killed ? PTY_MSG_EXEC_MISMATCH_ENDED
				 : PTY_MSG_EXEC_MISMATCH_GONE);
	memset(&am, 0, sizeof am);
	am.path = pty_audit_text_of(m->path, PATH_MAX);
	am.request = pty_audit_text_of(m->request, PATH_MAX);
	am.ran = pty_audit_text_of(m->ran, sizeof m->ran);
	am.ran_major = major(m->dev);
	am.ran_minor = minor(m->dev);
	am.ran_ino = (unsigned long long)m->ino;
	am.pid = m->pid;
	am.error = pty_audit_text_of(text, sizeof text);
	memset(&e, 0, sizeof e);
	e.event = "exec_mismatch";
	e.outcome = "mismatch";
	e.mismatch = &am;
	act = pty_guard_write_record(g, &e, fd, eol, err, sizeof err);
	if (act == PTY_ACT_END)
		return act;
	pty_say(fd, eol, PTY_MSG_PREFIX "%s", text);
	pty_say(fd, eol, PTY_MSG_EXEC_MISMATCH_WHY,
		(unsigned long long)major(m->dev),
		(unsigned long long)minor(m->dev), (unsigned long long)m->ino);
	pty_guard_log(g, LOG_WARNING,
		      "exec mismatch user=%s session=%s pid=%d allowed=%s "
		      "ran=%s%s",
		      g->who->user, g->asess.id, (int)m->pid, path, ran,
		      act == PTY_ACT_DENY ? " (not recorded)" : "");
	return pty_guard_refused(g, fd, eol);
}
