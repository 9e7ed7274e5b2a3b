/* SPDX-License-Identifier: MIT */
/* The guard's signal handler and its flags (see pty_signals.h). */
#include "pty_signals.h"

#include <string.h>

/* File-scope because a signal handler can reach nothing else: it is given
 * the signal's number alone.  Set by the handler, read and cleared by the
 * loop with the signals blocked. */
static volatile sig_atomic_t signals_child, signals_resize, signals_end;

static void
signals_on(int sig) /* async-signal context: set a flag, nothing else */
{
	if (sig == SIGCHLD)
		signals_child = 1;
	else if (sig == SIGWINCH)
		signals_resize = 1;
	else
		signals_end = sig;
}

static const int signals_caught_interactive[] = {SIGCHLD, SIGWINCH, SIGTERM,
						 SIGHUP,  SIGINT,   SIGQUIT};
static const int signals_caught_command[] = {SIGCHLD, SIGTERM, SIGHUP};

void
pty_signals_install(struct pty_signals *s, bool interactive)
{
	const int *caught =
	    interactive ? signals_caught_interactive : signals_caught_command;
	size_t i, n = interactive ? sizeof signals_caught_interactive /
					sizeof signals_caught_interactive[0]
				  : sizeof signals_caught_command /
					sizeof signals_caught_command[0];
	struct sigaction sa;
	sigset_t block;

	memset(s, 0, sizeof *s);
	s->interactive = interactive;
	signals_child = signals_resize = signals_end = 0;
	sigemptyset(&block);
	for (i = 0; i < n; i++)
		sigaddset(&block, caught[i]);
	(void)sigprocmask(SIG_BLOCK, &block, &s->old);
	s->wait = s->old;
	for (i = 0; i < n; i++)
		sigdelset(&s->wait, caught[i]);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = signals_on;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < n; i++)
		(void)sigaction(caught[i], &sa, NULL);
	sa.sa_handler = SIG_IGN;
	if (interactive) {
		(void)sigaction(SIGPIPE, &sa, NULL); /* a closed pipe: EPIPE */
		(void)sigaction(SIGTTOU, &sa, NULL);
		(void)sigaction(SIGTTIN, &sa, NULL);
	} else {
		(void)sigaction(SIGINT, &sa, &s->old_int);
		(void)sigaction(SIGQUIT, &sa, &s->old_quit);
	}
}

void
pty_signals_restore(const struct pty_signals *s)
{
	if (!s->interactive) {
		(void)sigaction(SIGINT, &s->old_int, NULL);
		(void)sigaction(SIGQUIT, &s->old_quit, NULL);
	}
	(void)sigprocmask(SIG_SETMASK, &s->old, NULL);
}

bool
pty_signals_take_child(void)
{
	bool got = signals_child != 0;

	signals_child = 0;
	return got;
}

bool
pty_signals_take_resize(void)
{
	bool got = signals_resize != 0;

	signals_resize = 0;
	return got;
}

int
pty_signals_end(void)
{
	return signals_end;
}

int
pty_signals_take_end(void)
{
	int sig = signals_end;

	signals_end = 0;
	return sig;
}
