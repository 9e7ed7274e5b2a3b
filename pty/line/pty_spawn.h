/* SPDX-License-Identifier: MIT */
/*
 * The session's processes, from the first to the last: one owner for
 * starting the session's shell - interactive and -c alike - and for ending
 * every process the session started.
 *
 * What the shell starts with, in both modes: bash's arguments
 * (pty_spawn_argv), the environment (an allow-list, pty_spawn_environment)
 * and the lock-down line it runs before anything of the user's
 * (pty_spawn_lockdown; spawn.c says what it does and where the modes
 * differ).  pty_spawn_session starts it in either mode.
 *
 * Starting (pty_spawn_shell): the guard prepares everything before fork
 * (the child only makes system calls: no allocation, no stdio), then the child
 * resets its signals, becomes a terminal session leader when it has a terminal,
 * installs the exec supervisor (pty_supervise.h: no new privileges,
 * Landlock, the seccomp filter), puts its descriptors in place, closes
 * every other one with close_range(2), and executes the shell; the guard
 * tells the supervisor the child's pid (its first exec, of the shell, is
 * decided on the request the guard built) and receives the listener
 * before this returns.  Any failure in the child ends it with 127, and
 * the session does not start.
 *
 * Ending (pty_spawn_end_all): the guard is the child subreaper of its
 * session (PR_SET_CHILD_SUBREAPER, set by pty_spawn_shell), so a process
 * that detaches - setsid, a double fork, nohup, disown - is re-parented
 * to the guard, not to init, and remains its descendant.  When the
 * session ends, every descendant is hung up, then killed.
 */
#ifndef PTY_SPAWN_H
#define PTY_SPAWN_H

#include "pty_decide.h" /* enum pty_mode */
#include "pty_line.h"   /* pty_spawn_argv, pty_spawn_end_all */

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct pty_decider;
struct pty_guard;
struct pty_supervisor;

/* The line that locks the shell down in `mode`, newline included:
 * interactive, sent as the first line on the command channel; -c, the
 * first line of the script (pty_spawn_argv puts it there). */
const char *pty_spawn_lockdown(enum pty_mode mode);

/* The session's environment, built from an allow-list (TERM, LANG, LC_*
 * with sane values; HOME, USER, LOGNAME from the password database; SHELL
 * the guard; PATH the session's; PS1, PS2 and HISTFILE empty).  Returns a
 * NULL-terminated array of static storage. */
char *const *pty_spawn_environment(const char *path_env,
				   const char *guard_path);

struct pty_spawn {
	const char *path;  /* the shell */
	char *const *argv; /* its arguments */
	char *const *envp; /* its environment */
	/* descriptors that become 0, 1, 2 and 3 in the shell; -1 keeps 0, 1
	 * and 2 as the guard has them, and leaves 3 closed */
	int fd[4];
	/* a terminal that becomes the shell's controlling terminal (the
	 * shell then leads a new session), or -1 */
	int ctty;
	/* the signal mask the shell starts with (NULL: none blocked) */
	const sigset_t *mask;
	/* the exec supervisor, prepared (pty_supervise_setup) */
	struct pty_supervisor *sup;
};

/* Starts the session's shell (see above).  Returns its pid, or -1 with one
 * line in err (then nothing of the child runs any more).  The caller has
 * SIGCHLD blocked. */
pid_t pty_spawn_shell(const struct pty_spawn *sp, char *err, size_t errlen);

/* Both modes start the shell here: g's shell with sp->argv (from
 * pty_spawn_argv) and pty_spawn_environment, once sp->sup (initialised,
 * pty_supervise_init; closed by the caller) is set up to decide every exec
 * of the session in `mode`; sp's descriptors,
 * terminal and mask are the caller's.  Returns the shell's pid, or -1
 * with one line in err. */
pid_t pty_spawn_session(struct pty_spawn *sp, struct pty_guard *g,
			struct pty_decider *d, enum pty_mode mode,
			const char *guard_path, char *err, size_t errlen);

/* Says why the session's shell did not start: on stderr and to syslog. */
void pty_spawn_failed(const struct pty_guard *g, const char *err);

/* Reaps every child that has ended (waitpid(-1, WNOHANG)): the shell, and
 * the processes of the session re-parented to the guard.  Returns true
 * when `shell` is among them, with its wait status in *status. */
bool pty_spawn_reap(pid_t shell, int *status);

/* The wait status of a process as an exit code: its own, or 128 + the
 * signal that ended it. */
int pty_spawn_exit_code(int status);
/* The exit code of a process that signal `sig` ended: 128 + sig, as bash
 * reports it (also the guard's own, when a signal ends the session). */
int pty_spawn_signal_exit_code(int sig);

struct pty_guard;

/* Ends every process of guard g's session (pty_spawn_end_all, the audit
 * writer left alone), and says to syslog when some could not be. */
void pty_spawn_end_session(const struct pty_guard *g);

/* The same for every process of the session but the shell (its jobs:
 * what runs in the foreground, in the background, or detached), which
 * stays at its prompt.  Returns true when the shell itself ended
 * meanwhile, and was reaped: its wait status in *status. */
bool pty_spawn_end_jobs(const struct pty_guard *g, pid_t shell, int *status);

#endif /* PTY_SPAWN_H */
