/* SPDX-License-Identifier: MIT */
/*
 * After an exec is decided: its audit record, what the user and syslog
 * are told of a refusal, and the refusal count (pty_exec_conclude,
 * pty_supervise.h).  The record is exec_record.c's; the guard writes it
 * and counts.
 */
#include "pty_supervise.h"

#include "pty_messages.h"

#include <syslog.h>

enum pty_act
pty_exec_conclude(struct pty_guard *g, const struct pty_exec_request *r,
		  const struct pty_exec_decision *dec, int fd, const char *eol)
{
	struct pty_exec_record rec;
	enum pty_act act;
	char err[512];

	act = pty_guard_write_record(g, pty_exec_record(&rec, r, dec), fd, eol,
				     err, sizeof err);
	if (act == PTY_ACT_END)
		return act;
	if (act == PTY_ACT_DENY) {
		pty_say(fd, eol, PTY_MSG_EXEC_RECORD_FAILED, r->path, err);
		return pty_guard_refused(g, fd, eol);
	}
	if (dec->verdict == PTY_EXEC_ALLOW)
		return PTY_ACT_RUN;
	pty_exec_print(r, dec, fd, eol);
	pty_guard_log(
	    g, LOG_NOTICE, "exec denied user=%s session=%s path=%s: %s",
	    g->who->user, g->asess.id, r->path[0] ? r->path : r->request,
	    dec->verdict == PTY_EXEC_POLICY
		? (dec->nreasons > 0 ? dec->reasons[0] : "no rule allows it")
		: dec->error);
	return pty_guard_refused(g, fd, eol);
}
