/* SPDX-License-Identifier: MIT */
/*
 * The -c mode.  No terminal games: the command is decided and, when allowed,
 * bash runs it, started as an interactive session's is (pty_spawn_session:
 * the same environment allow-list and the same disabled builtins; the -c
 * lock-down is the first line of the script, the command, which the
 * scanner guarantees has no newline, the second).  bash is a child of the
 * guard, which stays to decide every program the command executes
 * (pty_supervise.h) and exits with bash's status.  While it waits, the guard
 * ignores the terminal's SIGINT and SIGQUIT (they are for the command, as with
 * system(3)) and passes SIGTERM and SIGHUP on to bash.
 * What the guard says goes to stderr through the terminal's queue
 * (pty_termout.h): stderr is the session's too (bash -c has it), so a
 * program of the session can fill it, or a client can stop reading it, and
 * a refusal written there must hold up nothing - the exec decisions, the
 * signals passed on, the session's end.
 */
#define _GNU_SOURCE /* ppoll */
#include "pty_line.h"

#include "pty_decide.h"
#include "pty_messages.h"
#include "pty_session.h"
#include "pty_signals.h"
#include "pty_spawn.h"
#include "pty_supervise.h"
#include "pty_termout.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>

/* Waits for bash, deciding every exec meanwhile and writing the
 * terminal's queue when it takes more.  Returns its status. */
static int
command_wait(struct pty_supervisor *sup, struct pty_termout *out, pid_t pid,
	     const sigset_t *mask)
{
	int st = 0, pass_on;
	bool look = true; /* once before the first wait */

	for (;;) {
		/* a negative descriptor is ignored: with none, ppoll waits
		 * for the signals alone */
		struct pollfd fds[3] = {{sup->listener, POLLIN, 0},
					{pty_supervise_verify_fd(sup), POLLIN,
					 0},
					{pty_termout_fd(out), POLLOUT, 0}};
		struct pollfd *pfd = &fds[0];

		if ((pass_on = pty_signals_take_end()) != 0)
			(void)kill(pid, pass_on);
		/* SIGCHLD is blocked but inside ppoll: a child that ended
		 * is seen there, so waitpid only after one */
		if (pty_signals_take_child() || look) {
			look = false;
			/* orphans of the session come to the guard too */
			if (pty_spawn_reap(pid, &st)) {
				pty_guard_set_exit(sup->guard, st);
				break;
			}
		}
		if (!pty_termout_pending(out))
			fds[2].fd = -1; /* nothing waits: not polled */
		if (ppoll(fds, 3, NULL, mask) <= 0)
			continue;
		if (fds[2].revents != 0)
			(void)pty_termout_flush(out);
		if (fds[1].revents & POLLIN) {
			/* what a process runs after its exec, checked */
			pty_supervise_verify(sup);
			if (sup->end_session)
				(void)kill(pid, SIGKILL);
		}
		if (pfd->revents & POLLIN) {
			if (pty_supervise_handle(sup) != 0) {
				pty_say(STDERR_FILENO, "\n",
					PTY_MSG_SUPERVISOR_FAILED);
				pty_guard_log(sup->guard, LOG_ERR,
					      "session %s of %s ended: the "
					      "exec supervisor failed",
					      sup->guard->asess.id,
					      sup->guard->who->user);
				(void)pty_guard_event(sup->guard, "session_end",
						      "exec supervisor failed");
				sup->end_session = true;
			}
			/* nothing may run unchecked: end it (what bash
			 * started gets ENOSYS from its next exec on, once
			 * this guard is gone) */
			if (sup->end_session)
				(void)kill(pid, SIGKILL);
		} else if (pfd->revents & (POLLHUP | POLLERR | POLLNVAL)) {
			(void)close(sup->listener);
			sup->listener = -1;
		}
	}
	return pty_spawn_exit_code(st);
}

/* Decides the command and runs it when allowed (pty_command_run). */
static int
command_run(struct pty_guard *g, struct pty_decider *d, const char *command,
	    const char *guard_path, struct pty_termout *out)
{
	static char script[PTY_SPAWN_SCRIPT_MAX];
	char *argv[PTY_SPAWN_ARGV_MAX];
	static struct pty_supervisor sup;
	struct pty_signals sig;
	struct pty_spawn sp;
	char err[1024];
	size_t len = strlen(command);
	pid_t pid;
	int rc;

	switch (pty_guard_conclude(g, d, command, len, PTY_MODE_COMMAND, false,
				   STDERR_FILENO, "\n")) {
	case PTY_ACT_RUN:
		break;
	case PTY_ACT_SKIP:
		pty_say(STDERR_FILENO, "\n", PTY_MSG_EMPTY_COMMAND);
		return 126;
	case PTY_ACT_DENY:
	case PTY_ACT_END:
	case PTY_ACT_ASK: /* cannot be: nobody to ask */
		return 126;
	}
	if (pty_spawn_argv(command, script, argv) != 0) {
		pty_say(STDERR_FILENO, "\n", PTY_MSG_COMMAND_TOO_LONG);
		return 126;
	}
	pty_supervise_init(&sup);
	/* signals arrive only inside ppoll: handlers set flags, nothing more */
	pty_signals_install(&sig, false);
	memset(&sp, 0, sizeof sp);
	sp.argv = argv;
	sp.fd[0] = sp.fd[1] = sp.fd[2] = sp.fd[3] = -1; /* sshd's 0, 1, 2 */
	sp.ctty = -1;
	sp.mask = &sig.old;
	sp.sup = &sup;
	pid = pty_spawn_session(&sp, g, d, PTY_MODE_COMMAND, guard_path, err,
				sizeof err);
	if (pid < 0) {
		pty_spawn_failed(g, err);
		rc = 126;
	} else {
		sup.out_fd = STDERR_FILENO;
		sup.eol = "\n";
		rc = command_wait(&sup, out, pid, &sig.wait);
		/* what the command left behind ends with it (pty_spawn.h) */
		pty_spawn_end_session(g);
	}
	pty_signals_restore(&sig);
	pty_supervise_close(&sup);
	return rc;
}

int
pty_command_run(struct pty_guard *g, struct pty_decider *d, const char *command,
		const char *guard_path)
{
	static struct pty_termout out;
	int rc;

	if (pty_termout_open(&out, STDERR_FILENO, "\n") != 0) {
		pty_say(STDERR_FILENO, "\n", PTY_MSG_FAILED,
			PTY_MSG_NO_TERMINAL_QUEUE);
		return 126;
	}
	rc = command_run(g, d, command, guard_path, &out);
	/* what the guard said last, while stderr takes it (bounded) */
	(void)pty_termout_drain(&out, PTY_TERMOUT_STALL_MS, PTY_TERMOUT_END_MS);
	pty_termout_close(&out);
	return rc;
}
