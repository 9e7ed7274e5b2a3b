/* SPDX-License-Identifier: MIT */
/*
 * `help` at the guard's prompt: what may run here, recorded, then shown
 * (pty_mayrun.h).  The decisions behind the list are questions, not lines:
 * none is concluded, recorded one by one or counted against max_denials.
 */
#include "pty_mayrun.h"

#include "pty_messages.h"

#include <stdio.h>
#include <string.h>

enum pty_act
pty_guard_help(struct pty_guard *g, struct pty_decider *d, int fd,
	       const char *eol, unsigned width)
{
	struct pty_runnable list;
	struct pty_audit_event e;
	enum pty_act act;
	char note[128], err[512];

	if (pty_runnable_list(d, PTY_MODE_INTERACTIVE, &list) != 0) {
		pty_say(fd, eol, PTY_MSG_RUNNABLE_FAILED);
		return PTY_ACT_DENY;
	}
	/* recorded, and before it is shown, as every answer of the guard
	 * is: the log tells what the user learnt of the policy and when
	 * (the list follows from the policy's hash, the session's facts and
	 * PATH at that time, so the note keeps only its size) */
	(void)snprintf(note, sizeof note, "%zu of %zu commands listed", list.n,
		       list.considered);
	memset(&e, 0, sizeof e);
	e.event = "help";
	e.line = PTY_HELP_LINE;
	e.line_len = strlen(PTY_HELP_LINE);
	e.note = note;
	act = pty_guard_write_record(g, &e, fd, eol, err, sizeof err);
	if (act == PTY_ACT_RUN) {
		pty_say_runnable(&list, fd, eol, width);
		/* nothing listed because no line can be decided here: why */
		if (list.n == 0 && d->cwd[0] == '\0' &&
		    pty_policy_reads(&d->reads, "cwd"))
			pty_say(fd, eol, PTY_MSG_RUNNABLE_NO_CWD,
				d->cwd_unnamed);
		act = PTY_ACT_SKIP;
	} else if (act == PTY_ACT_DENY) {
		pty_say(fd, eol, PTY_MSG_HELP_RECORD_FAILED, err);
	}
	pty_runnable_free(&list);
	return act;
}
