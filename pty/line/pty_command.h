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
#include "pty_session.h"

/* Decides the command; an allowed command runs as bash -c under the
 * session's clean environment, supervised (every exec decided), and its
 * exit status is returned (128 + N when a signal N ended it).  A refused
 * command, or one whose supervisor cannot start, returns 126 after the
 * reasons on stderr. */
int pty_command_run(struct pty_guard *g, struct pty_decider *d,
		    const char *command, const char *guard_path);

/* The longest script pty_command_argv makes (a command the scanner
 * accepted is shorter than SCAN_LINE_MAX). */
#define PTY_COMMAND_SCRIPT_MAX 8192

/* bash's arguments for `command` (one place for -c and for --check, which
 * decides the shell's exec with the arguments a -c session gives it):
 * "bash --noprofile --norc -c SCRIPT", SCRIPT the lock-down line then the
 * command, written into `script` (PTY_COMMAND_SCRIPT_MAX bytes).  argv
 * has room for 6.  Returns 0, or -1 when the command does not fit. */
int pty_command_argv(const char *command, char *script, char *argv[6]);

#endif /* PTY_COMMAND_H */
