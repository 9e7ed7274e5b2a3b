/* SPDX-License-Identifier: MIT */
/*
 * The interactive session: the loop that moves bytes between the user's
 * terminal and the session's pty, shows the guard's prompt when the shell is
 * waiting for a command, decides each line and sends only allowed ones.
 */
#ifndef PTY_RELAY_H
#define PTY_RELAY_H

#include "pty_decide.h"
#include "pty_session.h"

/* Runs the session to its end.  Returns the exit status of the session
 * (the shell's), 1 when it could not start or the guard ended it (too many
 * denials, idle, the audit log failing with terminate), or 128 + the
 * signal that ended it. */
int pty_relay_run(struct pty_guard *g, struct pty_decider *decider,
		  const char *guard_path, const char *history_path);

#endif /* PTY_RELAY_H */
