/* SPDX-License-Identifier: MIT */
/*
 * The child shell: lines reach it through a command channel, not the
 * terminal.  Bash runs on a pty whose slave is its controlling terminal,
 * stdout and stderr, but reads commands from a channel only the guard writes,
 * and reports each finished command's status and directory on a second channel.
 * Typeahead, pastes and TIOCSTI land in the pty's input queue, which bash never
 * reads as commands.
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

#include "pty_line.h" /* struct pty_child, pty_child_send_line */

#include <stdbool.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <termios.h>

struct pty_decider;
struct pty_guard;
struct pty_supervisor;

struct pty_child_config {
	struct pty_guard *guard;     /* its shell and PATH */
	struct pty_decider *decider; /* decides the shell's exec */
	const char *guard_path;      /* this program: SHELL of the session */
	const struct termios *tio;   /* the user's terminal settings, or NULL */
	const struct winsize *ws;
	/* the exec supervisor, initialised (pty_supervise_init): set up for
	 * the session and installed in the child before bash, its listener
	 * received before this returns; the caller closes it */
	struct pty_supervisor *sup;
};

/* Starts bash (pty_spawn_session) and sends the lock-down line (see
 * child.c).  Returns 0, or -1 with the reason in `err`.  The caller has
 * SIGCHLD blocked. */
int pty_child_spawn(const struct pty_child_config *cfg, struct pty_child *c,
		    char *err, size_t errlen);

/* The shell's working directory, learnt from the kernel afresh for each
 * prompt and each line (pty_exec_cwd_name: /proc/PID/cwd of bash, the
 * guard's own child, and past the length the kernel prints, named from
 * the directory up), never from the status report: $PWD is a variable a
 * line may set ("time PWD=/etc"), and the cwd fact must not follow it.
 * One that cannot be named is not named (pty_decider_unnamed_cwd): the
 * previous name is a directory the shell may have left.  The guard goes
 * into the directory itself, so that Tab completes file names there,
 * named or not (into "/" when even that fails: never a directory the
 * shell has left). */
void pty_child_learn_cwd(const struct pty_child *c, struct pty_decider *d);

/* Ends the shell's input: bash exits as on Ctrl-D. */
void pty_child_close_input(struct pty_child *c);

#endif /* PTY_CHILD_H */
