/* SPDX-License-Identifier: MIT */
/*
 * maelys-pty --check: everything a session would need, checked without
 * starting one, as visudo -c and sshd -t check theirs.  Every problem is
 * one line on `err`, all of them rather than the first:
 *
 *   maelys-pty: error: WHAT IS WRONG, NAMING THE FILE, KEY OR VALUE: WHAT TO DO
 *   maelys-pty: warning: ...
 *
 * then one summary line on `out`:
 *
 *   maelys-pty: check: ok, N warnings: a session can start (CONFIG, policy
 *   POLICY, sha256 HEX)
 *   maelys-pty: check: N errors, M warnings: no session can start
 *
 * An error is what stops a session from starting or from being what the
 * configuration says (a policy that does not let the shell start, a key
 * others can read); a warning is a weakness of the host the guard cannot
 * close (a place users write mounted without noexec, no Yama).  What is
 * checked, in order (check.c's table):
 *   - the configuration (pty_config_load) and the policy it names, loaded;
 *   - the shell: a regular executable file; the exec decision the
 *     supervisor asks before forking it (pty_supervise_shell_allowed), in
 *     interactive and in command sessions, for the user running --check or
 *     the one named with --user;
 *   - Landlock as a session would build it (pty_landlock_build), and the
 *     exec locations that do not exist (left out: a warning);
 *   - with audit_log: the log's folder, the log, the key, by lstat(2) and
 *     against the audit account (the owner of the guard installed setuid;
 *     maelys-pty-setup makes it);
 *   - the guard binary's own mode (pty_check_guard_mode);
 *   - warnings: the mounts of the users' homes, /tmp, /var/tmp and
 *     /dev/shm without noexec (/proc/self/mountinfo), and Yama's
 *     ptrace_scope.
 *
 * Installed setuid, --check runs with the audit account as its effective
 * uid: it may stat what the account owns, and reads only through a child
 * that has become the caller for good (the last byte of the log).
 */
#ifndef PTY_CHECK_H
#define PTY_CHECK_H

#include "pty_session.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

/* Runs every check for the options given (--config, --policy, --shell,
 * --path, --user).  Returns the exit status: 0 when a session can start
 * (warnings allowed), 1 otherwise.  --user is for root (real uid 0); a
 * guard installed setuid or setgid takes --config, --policy, --shell and
 * --path only from root. */
int pty_check_run(const struct pty_options *opt, FILE *out, FILE *err);

/* The rule for the guard binary `path` as stat(2) shows it: never setuid
 * root; never setgid (the old deployment); with an audit log (`audit_log`
 * true), setuid to an account other than root.  Returns 0, or -1 with the
 * line to print in msg (without "maelys-pty: error: "). */
int pty_check_guard_mode(const char *path, const struct stat *st,
			 bool audit_log, char *msg, size_t cap);

#endif /* PTY_CHECK_H */
