/* SPDX-License-Identifier: MIT */
/*
 * The user's terminal: its saved settings, the one mode the guard keeps it
 * in while the session runs, and the window size.  The guard reads every
 * key itself and draws its prompt itself, so from the start of the session
 * to its end the terminal is raw both ways: no echo, no signals, no line
 * editing by the kernel, and no output processing - the session's pty does
 * the job's (so a program that turns output processing off on its terminal
 * sees exactly that), and the guard's own output is written as the
 * terminal is to show it (its lines end in "\r\n"; readline's stream turns
 * each \n into \r\n, pty_termout_stream).  One mode: no change of mode
 * between a prompt and a job, so none waits for output to drain or lands
 * in the middle of output still queued (pty_termout.h).  Every change is
 * made at once (TCSANOW): TCSADRAIN would wait, signals blocked, for a
 * terminal that may never read again.
 *
 * The terminal is also the guard's alone while the session runs: sshd
 * makes it the user's, so any process of the session could open it again
 * by its name (/dev/pts/N) and write to it past the guard - shown, never
 * recorded, never queued - or read the keys typed at the guard's prompt.
 * Its mode is 0000 from the start of the session to its end (descriptors
 * already open keep working; /dev/tty names the session's own pty).
 */
#ifndef PTY_TERMINAL_H
#define PTY_TERMINAL_H

#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <termios.h>

struct pty_terminal {
	int fd;     /* the user's terminal (stdin) */
	bool saved; /* `original` holds the settings to restore */
	struct termios original;
	bool sealed; /* its mode is 0000: `mode` is to be put back */
	mode_t mode;
};

/* Saves the settings of fd.  Returns 0, or -1 when fd is no terminal. */
int pty_terminal_save(struct pty_terminal *t, int fd);
/* The session's mode (above).  Returns 0, or -1. */
int pty_terminal_raw(const struct pty_terminal *t);
/* Makes the terminal's mode 0000 for the session (above), if it is the
 * guard's to change: a terminal of another user's (as after su(1)) is not
 * one the user's processes may open anyway, unless its mode says so. */
void pty_terminal_seal(struct pty_terminal *t);
/* Puts the saved settings and mode back.  Async-signal-safe (tcsetattr and
 * fchmod only). */
void pty_terminal_restore(const struct pty_terminal *t);
/* The window size of fd, or 80x24 when it has none. */
void pty_terminal_winsize(int fd, struct winsize *ws);

#endif /* PTY_TERMINAL_H */
