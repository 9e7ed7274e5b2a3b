/* SPDX-License-Identifier: MIT */
/*
 * The kernel's second check on every exec (Landlock): the policy names
 * where programs may be executed from, and the session's processes cannot
 * execute anything elsewhere, whatever they do between the supervisor's
 * check and the kernel's use of the path.
 *
 * The policy names its locations with two predicates the host reads once,
 * when the session starts (solved with the session facts: user, group,
 * host, remote_addr, session_mode, time_of_day - so a location may depend
 * on who logs in):
 *   exec_dir(D)    every file beneath directory D may be executed
 *   exec_file(F)   the file F may be executed
 * Paths are absolute; links are followed when the rule is made (the rule
 * is on the file or directory itself, not its name).  A path that does not
 * exist is left out (that narrows, never widens).  To these the host adds
 * the session's shell, the guard itself and the dynamic loader, without
 * which no session could start; allow_exec still decides each of them.
 *
 * A policy that names no location gets no ruleset: every exec is decided
 * by allow_exec alone, and the gap between the check and the kernel's use
 * of the path stays open (maelys-pty(1), THREAT MODEL).
 */
#ifndef PTY_LANDLOCK_H
#define PTY_LANDLOCK_H

#include "pty_decide.h"

#include <stdbool.h>
#include <stddef.h>

/* The most locations a policy may name (more is an error, not a cut). */
#define PTY_LANDLOCK_PATHS_MAX 256

/* The Landlock ABI version of the running kernel, or 0 without Landlock. */
int pty_landlock_abi(void);

/* Called with each location the policy names: `pred` is "exec_dir" or
 * "exec_file".  Returns 0 to go on, or -1 with one line in err to stop. */
typedef int (*pty_landlock_visit_fn)(void *arg, const char *pred,
				     const char *path, char *err,
				     size_t errlen);

/* Solves the policy of `d` with the session facts of `mode` and calls
 * `visit` for every exec_dir, then every exec_file, row; *n counts them.
 * The same reading pty_landlock_build makes (--check reports with it the
 * locations that do not exist).  Returns 0, or -1 with one line in err
 * (the policy failed, a location is not a path, more than
 * PTY_LANDLOCK_PATHS_MAX, or what `visit` said). */
int pty_landlock_locations(struct pty_decider *d, enum pty_mode mode,
			   pty_landlock_visit_fn visit, void *arg, size_t *n,
			   char *err, size_t errlen);

/* Builds the ruleset for the policy of `d` in session mode `mode`.
 * *fd is the ruleset (close-on-exec; the child applies it), or -1 when
 * none applies: the policy names no location, or the kernel has no
 * Landlock and `required` is false (`note` then says so, for syslog).
 * `extra` are always added.  Returns 0, or -1 with one line in err: a
 * location that cannot be opened, too many, a required ruleset that cannot
 * be made. */
int pty_landlock_build(struct pty_decider *d, enum pty_mode mode,
		       const char *const *extra, size_t nextra, bool required,
		       int *fd, char *note, size_t notelen, char *err,
		       size_t errlen);

#endif /* PTY_LANDLOCK_H */
