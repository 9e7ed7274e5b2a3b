/* SPDX-License-Identifier: MIT */
/*
 * Deciding one program the session executes (DESIGN.md 1, the exec
 * supervisor).  pty/supervise.c reads what a process asked execve(2) or
 * execveat(2) to run (exec_read.c), this file's functions turn it into the
 * exec facts of the host contract and solve the same policy as the lines:
 *
 *   exec_path(P)        the program, absolute, every symbolic link resolved
 *                       (what the kernel will open)
 *   exec_request(P)     the path as the process gave it, made absolute
 *                       against its directory and normalised without
 *                       following links ("/usr/bin/sh" where exec_path is
 *                       "/usr/bin/dash")
 *   exec_arg(I, A)      argv, 0-based as in C: exec_arg(0, A) is the name
 *                       the program is given
 *   exec_argc(N)        the number of argv entries
 *   exec_cwd(D)         the process's working directory
 *   exec_parent(P)      the executable of the process that asks (the
 *                       program that is starting another one)
 *   session_shell(S)    the session's shell, resolved
 *   guard_program(G)    this program, resolved (exec_parent of the shell)
 * plus the session facts of every line: user, group, host, remote_addr,
 * session_mode, time_of_day.  Queried: allow_exec(P) for P = exec_path
 * (the program runs only then) and deny_exec(P, Reason) (the reasons shown).
 */
#ifndef PTY_EXEC_H
#define PTY_EXEC_H

#include "pty_decide.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Bounds on what is read of a process's exec request: more arguments, or
 * more bytes of them, and the exec is refused (never decided on a part). */
#define PTY_EXEC_ARGS_MAX  4096
#define PTY_EXEC_BYTES_MAX ((size_t)256 * 1024)

/* What one process asked to execute. */
struct pty_exec_request {
	pid_t pid;
	char path[PATH_MAX];    /* exec_path */
	char request[PATH_MAX]; /* exec_request */
	char cwd[PATH_MAX];     /* exec_cwd */
	char parent[PATH_MAX];  /* exec_parent ("" if it cannot be named) */
	size_t argc;
	const char *argv[PTY_EXEC_ARGS_MAX]; /* into `bytes`, NUL-ended */
	size_t argv_len[PTY_EXEC_ARGS_MAX];
	char bytes[PTY_EXEC_BYTES_MAX];
};

enum pty_exec_verdict {
	PTY_EXEC_ALLOW,      /* allow_exec(P) was derived */
	PTY_EXEC_POLICY,     /* it was not */
	PTY_EXEC_ERROR,      /* the policy could not be evaluated */
	PTY_EXEC_UNREADABLE, /* the request could not be read or is too big */
};

struct pty_exec_decision {
	enum pty_exec_verdict verdict;
	size_t nreasons;      /* deny_exec(P, Reason) rows kept */
	size_t reasons_total; /* ... of how many */
	char reasons[PTY_REASONS_MAX][PTY_TEXT_MAX];
	char error[600]; /* ERROR and UNREADABLE: why */
};

/* The programs of the session facts session_shell/1 and guard_program/1
 * (resolved by the caller); kept by the decider.  Returns 0, or -1 when a
 * path does not fit. */
int pty_exec_set_programs(struct pty_decider *d, const char *shell,
			  const char *guard);

/* Decides one request in session mode `mode`.  Never fails: every failure
 * is a denying verdict that says why. */
void pty_exec_decide(struct pty_decider *d, const struct pty_exec_request *r,
		     const char *mode, struct pty_exec_decision *out);

/* Writes what the user sees of a refused exec to fd, lines ending in eol:
 *   maelys-pty: exec of '/usr/bin/sh' (/usr/bin/dash) denied by policy
 *     deny_exec: shells are not started by other programs */
void pty_exec_print(const struct pty_exec_request *r,
		    const struct pty_exec_decision *dec, int fd,
		    const char *eol);

/* Lexical normalisation: `path` made absolute against `base` (itself
 * absolute) with "", "." and ".." components and repeated slashes removed,
 * links not followed.  Returns 0, or -1 when the result does not fit in
 * `cap` bytes or an input is malformed (base not absolute). */
int pty_path_normalise(const char *base, const char *path, char *out,
		       size_t cap);

#endif /* PTY_EXEC_H */
