/* SPDX-License-Identifier: MIT */
/*
 * The guard's signals while the shell runs, interactive and -c alike: one
 * handler, and the flags it sets.  The caught signals are blocked except
 * inside ppoll(2) (with the mask pty_signals_install leaves in `wait`),
 * so the loop reads and clears the flags with them blocked.
 *
 *   interactive  SIGCHLD, SIGWINCH caught; SIGTERM, SIGHUP, SIGINT and
 *                SIGQUIT caught as a request to end the session (the
 *                terminal's own keys are the guard's in raw mode, so these
 *                come from kill(1) or a hang-up); SIGPIPE, SIGTTOU and
 *                SIGTTIN ignored
 *   -c           SIGCHLD caught; SIGTERM and SIGHUP caught, to be passed on
 *                to bash; SIGINT and SIGQUIT ignored (they are for the
 *                command, as with system(3)) until pty_signals_restore
 */
#ifndef PTY_SIGNALS_H
#define PTY_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

struct pty_signals {
	bool interactive;
	sigset_t old;  /* the mask before pty_signals_install */
	sigset_t wait; /* for ppoll: `old` with the caught signals let in */
	/* -c: SIGINT's and SIGQUIT's actions before they were ignored */
	struct sigaction old_int, old_quit;
};

/* Clears the flags, blocks the mode's caught signals and installs the
 * handler for them, and ignores the mode's ignored ones. */
void pty_signals_install(struct pty_signals *s, bool interactive);
/* Puts the mask back, and in -c SIGINT's and SIGQUIT's actions. */
void pty_signals_restore(const struct pty_signals *s);

/* Whether a child ended since the last call (then look with waitpid). */
bool pty_signals_take_child(void);
/* Whether the window changed size since the last call. */
bool pty_signals_take_resize(void);
/* The last signal that asked the session to end (SIGTERM, SIGHUP; in an
 * interactive session also SIGINT, SIGQUIT), or 0; take also clears it. */
int pty_signals_end(void);
int pty_signals_take_end(void);

#endif /* PTY_SIGNALS_H */
