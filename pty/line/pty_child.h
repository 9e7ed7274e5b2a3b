/* SPDX-License-Identifier: MIT */
/*
 * The child shell: lines reach it through a command channel, not the
 * terminal.  Bash runs on a pty whose slave is its controlling terminal,
 * stdout and stderr, but reads commands from a channel only the guard writes, and reports each
 * finished command's status and directory on a second channel.  Typeahead,
 * pastes and TIOCSTI land in the pty's input queue, which bash never reads
 * as commands.
 *
 * Both channels are connected sockets, each shut down in the direction it
 * does not carry.  Not pipes: any process of the user can open a pipe of
 * bash's again through /proc/PID/fd/N (with the rights of its uid, as it
 * can any file) and write lines into bash's command stream; open(2) of a
 * socket there fails (ENXIO), and the other ways to take a descriptor of
 * another process (ptrace, pidfd_getfd) are refused in a session.
 */
#ifndef PTY_CHILD_H
#define PTY_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <termios.h>

struct pty_supervisor;

struct pty_child {
	pid_t pid;     /* bash, leader of the session */
	int master;    /* pty master: the session's terminal output/input */
	int slave;     /* a slave fd the guard keeps, to flush typeahead */
	int cmd_fd;    /* the guard's end of bash's command channel */
	int status_fd; /* ... of the status channel ("status\0cwd\0") */
};

struct pty_child_config {
	const char *shell_path;    /* bash */
	const char *path_env;      /* PATH of the session */
	const char *guard_path;    /* this program: SHELL of the session */
	const struct termios *tio; /* the user's terminal settings, or NULL */
	const struct winsize *ws;
	/* the exec supervisor, prepared (pty_supervise_prepare): installed
	 * in the child before bash, its listener received before this
	 * returns; NULL = none (tests of the terminal alone) */
	struct pty_supervisor *sup;
};

/* Starts bash and sends the lock-down line (see child.c).  Returns 0, or -1
 * with the reason in `err`.  The caller has SIGCHLD blocked. */
int pty_child_spawn(const struct pty_child_config *cfg, struct pty_child *c,
		    char *err, size_t errlen);

/* Sends an approved line, wrapped so that the job reads the terminal and
 * cannot reach the status channel.  Returns 0, or -1 if bash is gone. */
int pty_child_send_line(struct pty_child *c, const char *line, size_t len);

/* Ends the shell's input: bash exits as on Ctrl-D. */
void pty_child_close_input(struct pty_child *c);

/* The environment of the session, built from an allow-list (exported for
 * the -c mode, which runs the command under the same environment).
 * Returns a NULL-terminated array of static storage. */
char *const *pty_child_environment(const char *path_env,
				   const char *guard_path);

/* bash's arguments: an interactive shell that reads no file of the user's
 * and edits no line (the guard does). */
extern char *const pty_child_argv[];

/* The line that locks the shell down before the first user line. */
extern const char pty_child_lockdown[];

#endif /* PTY_CHILD_H */
