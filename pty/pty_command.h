/* SPDX-License-Identifier: MIT */
/*
 * -c COMMAND: what sshd runs for `ssh host COMMAND`, scp, rsync and
 * sftp-server, and what a program in the session runs through $SHELL -c.
 * The same scanner and policy decide it, with session_mode("command").
 */
#ifndef PTY_COMMAND_H
#define PTY_COMMAND_H

#include "pty_decide.h"
#include "pty_options.h"

/* Decides the command; an allowed command replaces this process (bash -c
 * under the session's clean environment), so this returns only for a
 * denied one: its exit status, 126, after the reasons on stderr. */
int pty_command_run(const struct pty_options *opt, struct pty_decider *d,
		    const char *guard_path);

#endif /* PTY_COMMAND_H */
