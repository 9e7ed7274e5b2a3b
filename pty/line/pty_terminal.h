/* SPDX-License-Identifier: MIT */
/*
 * The user's terminal: its saved settings, the two modes the guard uses,
 * and the window size.  The guard reads every key itself, so the terminal is
 * never in canonical mode while the session runs:
 *   prompt mode  keys arrive raw (no echo, no signals, no line editing by
 *                the kernel); output is post-processed (\n -> \r\n) for
 *                the guard's own line editor and messages;
 *   job mode     fully raw both ways: the session's pty does all processing,
 *                so a program that turns output processing off on its
 *                terminal (an editor) sees exactly that.
 */
#ifndef PTY_TERMINAL_H
#define PTY_TERMINAL_H

#include <stdbool.h>
#include <sys/ioctl.h>
#include <termios.h>

struct pty_terminal {
	int fd;     /* the user's terminal (stdin) */
	bool saved; /* `original` holds the settings to restore */
	struct termios original;
};

/* Saves the settings of fd.  Returns 0, or -1 when fd is no terminal. */
int pty_terminal_save(struct pty_terminal *t, int fd);
int pty_terminal_prompt_mode(const struct pty_terminal *t);
int pty_terminal_job_mode(const struct pty_terminal *t);
/* Puts the saved settings back.  Async-signal-safe (tcsetattr only). */
void pty_terminal_restore(const struct pty_terminal *t);
/* The window size of fd, or 80x24 when it has none. */
void pty_terminal_winsize(int fd, struct winsize *ws);

#endif /* PTY_TERMINAL_H */
