/* SPDX-License-Identifier: MIT */
/*
 * The line room's face: all that main.c, check/, the tests and the
 * benchmarks use of pty/line/.  Every other header here is the room's own.
 */
#ifndef PTY_LINE_H
#define PTY_LINE_H

#include <stddef.h>
#include <sys/types.h>

struct pty_decider;
struct pty_guard;

/* The interactive session (relay.c): the loop that moves bytes between
 * the user's terminal and the session's pty, shows the guard's prompt when
 * the shell is waiting for a command, decides each line and sends only
 * allowed ones.  Runs the session to its end.  Returns the exit status of
 * the session (the shell's), 1 when it could not start or the guard ended
 * it (too many denials, idle, the audit log failing with terminate), or
 * 128 + the signal that ended it. */
int pty_relay_run(struct pty_guard *g, struct pty_decider *decider,
		  const char *guard_path, const char *history_path);

/* -c COMMAND (command.c): what sshd runs for `ssh host COMMAND`, scp,
 * rsync and sftp-server, and what a program in the session runs through
 * $SHELL -c.  The same scanner, policy and audit log decide it, with
 * session_mode("command"); there is nobody to confirm anything.
 * Decides the command; an allowed command runs as bash -c under the
 * session's clean environment, supervised (every exec decided), and its
 * exit status is returned (128 + N when a signal N ended it).  A refused
 * command, or one whose supervisor cannot start, returns 126 after the
 * reasons on stderr. */
int pty_command_run(struct pty_guard *g, struct pty_decider *d,
		    const char *command, const char *guard_path);

/* The longest script pty_spawn_argv makes (a command the scanner accepted
 * is shorter than SCAN_LINE_MAX), and the room its argv needs. */
#define PTY_SPAWN_SCRIPT_MAX 8192
#define PTY_SPAWN_ARGV_MAX   7

/* bash's arguments (spawn.c: one place for both modes and for --check,
 * which decides the shell's exec with the arguments a session gives it):
 *   command NULL   "bash --noprofile --norc --noediting +H -i": an
 *                  interactive shell that reads no file of the user's and
 *                  edits no line (the guard does);
 *   command        "bash --noprofile --norc -c SCRIPT", SCRIPT the -c
 *                  lock-down line then the command, written into `script`
 *                  (PTY_SPAWN_SCRIPT_MAX bytes).
 * Returns 0, or -1 when the command does not fit. */
int pty_spawn_argv(const char *command, char *script,
		   char *argv[PTY_SPAWN_ARGV_MAX]);

/* Ends every process the session started (spawn.c, pty_spawn.h says how):
 * SIGHUP (and SIGCONT, for the stopped) to each descendant of the guard, a
 * short grace, then SIGKILL until none is left.  `keep` (the audit
 * writer, or 0) is left alone.  Returns the number of processes still
 * there after a few seconds (0 but for processes that cannot die, such as
 * ones in an uninterruptible sleep). */
size_t pty_spawn_end_all(pid_t keep);

/* The interactive bash and its channels (child.c; pty_child.h says why
 * they are what they are). */
struct pty_child {
	pid_t pid;     /* bash, leader of the session */
	int master;    /* pty master: the session's terminal output/input */
	int slave;     /* a slave fd the guard keeps, to flush typeahead */
	int cmd_fd;    /* the guard's end of bash's command channel */
	int status_fd; /* ... of the status channel ("status\0cwd\0") */
};

/* Sends an approved line, wrapped so that the job reads the terminal and
 * cannot reach the status channel.  Returns 0, or -1 if bash is gone. */
int pty_child_send_line(struct pty_child *c, const char *line, size_t len);

#endif /* PTY_LINE_H */
