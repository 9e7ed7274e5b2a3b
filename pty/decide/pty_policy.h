/* SPDX-License-Identifier: MIT */
/*
 * The host's policy contract (maelys-policy(5)): the predicates maelys-pty
 * supplies for every line and those it reads back, registered as the domain
 * "maelys_pty", and loading a policy against it.
 */
#ifndef PTY_POLICY_H
#define PTY_POLICY_H

#include <maelys/datalog.h>

#include <stdbool.h>
#include <stddef.h>

#define PTY_DOMAIN "maelys_pty"

/* The policy text is bounded like the library bounds a source (a session
 * and --check read it with this bound). */
#define PTY_POLICY_MAX ((size_t)64 << 20)

/* Registers the domain, loads the policy file and prepares a session (the
 * policy-only strata are evaluated now, so a policy that cannot even start
 * fails here, before any shell runs).  Returns 0, or -1 with one line for
 * the user in `err`. */
int pty_policy_open(const char *path, maelys_datalog_session_t **out, char *err,
		    size_t errlen);

/* The same from text already read (the configured policy is read through a
 * checked descriptor, pty_secure_read); `name` names it in diagnostics. */
int pty_policy_open_text(const char *name, const char *text, size_t len,
			 maelys_datalog_session_t **out, char *err,
			 size_t errlen);

/* Whether the policy's rules read command_path/1: resolving a command
 * against PATH costs system calls a policy that never looks is spared.
 * Valid after pty_policy_open succeeded. */
bool pty_policy_reads_command_path(void);

/* Whether the policy's rules read the input predicate `name` of the
 * domain (maelys_datalog_policy_reads, noted when it was loaded): the
 * exec supervisor learns exec_cwd and exec_parent only for a policy that
 * reads them (or an audit log).  True for any name it does not know, and
 * before a policy is loaded. */
bool pty_policy_reads(const char *name);

#endif /* PTY_POLICY_H */
