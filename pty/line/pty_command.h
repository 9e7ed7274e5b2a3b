/* SPDX-License-Identifier: MIT */
/*
 * -c COMMAND: what sshd runs for `ssh host COMMAND`, scp, rsync and
 * sftp-server, and what a program in the session runs through $SHELL -c.
 * The same scanner, policy and audit log decide it, with
 * session_mode("command"); there is nobody to confirm anything.
 */
#ifndef PTY_COMMAND_H
#define PTY_COMMAND_H

#include "pty_decide.h"
#include "pty_guard.h"

/* Decides the command; an allowed command runs as bash -c under the
 * session's clean environment, supervised (every exec decided), and its
 * exit status is returned (128 + N when a signal N ended it).  A refused
 * command, or one whose supervisor cannot start, returns 126 after the
 * reasons on stderr. */
int pty_command_run(struct pty_guard *g, struct pty_decider *d,
		    const char *command, const char *guard_path);

#endif /* PTY_COMMAND_H */
