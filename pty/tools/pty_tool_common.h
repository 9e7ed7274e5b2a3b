/* SPDX-License-Identifier: MIT */
/*
 * What the policy authors' tools that decide share (explain, decide): the
 * policy they decide with, loaded as maelys-pty would load it; the
 * session facts a person gives in place of the caller's (--user, "user":
 * ...); and the exec request a program of the session would make.  One
 * owner each, so that `explain` and `decide` set the same facts the same
 * way.
 */
#ifndef PTY_TOOL_COMMON_H
#define PTY_TOOL_COMMON_H

#include "pty_decide.h"
#include "pty_exec.h"
#include "pty_session.h"

#include <stddef.h>

/* The policy's text: `policy_path` as given (named as given, so file:line
 * reads as the person typed it, with the settings of `maelys-pty --policy
 * FILE`), or the policy the configuration `config_path` (NULL: the built-in
 * path) names, read through the checked descriptor as maelys-pty reads it.
 * Fills *cfg, *text (the caller frees it), *len and *name (the policy's
 * name in diagnostics, into cfg or policy_path).  Returns 0, or -1 with one
 * line in err. */
int pty_tool_policy_text(const char *policy_path, const char *config_path,
			 struct pty_config *cfg, char **text, size_t *len,
			 const char **name, char *err, size_t errlen);

#define PTY_TOOL_GROUPS_MAX 64

/* The session facts given in place of the caller's; NULL (0 groups): the
 * decider's own is kept, but the remote address, which is none unless
 * given. */
struct pty_tool_facts {
	const char *user;
	const char *groups[PTY_TOOL_GROUPS_MAX];
	size_t ngroups;
	const char *cwd; /* absolute */
	const char *time; /* "HH:MM" */
	const char *remote;
	const char *host;
};

/* Whether t is "HH:MM", 00:00 to 23:59: what time_of_day/1 holds. */
bool pty_tool_time_ok(const char *t);

/* Sets d's identity, cwd and time from f over what d has: a --user of
 * this machine brings its groups, another none, unless groups are given.
 * Returns 0, or -1 with one line in err when no user can be named. */
int pty_tool_facts_apply(struct pty_decider *d, const struct pty_tool_facts *f,
			 char *err, size_t errlen);

/* session_shell and guard_program of exec decisions: `shell` and `guard`
 * when given, else the configured shell resolved as the supervisor
 * resolves it and this program.  Returns 0, or -1 with one line in err. */
int pty_tool_programs(struct pty_decider *d, const struct pty_config *cfg,
		      const char *shell, const char *guard, char *err,
		      size_t errlen);

/* An exec request as a tool is asked it. */
struct pty_tool_exec {
	const char *exec;    /* the program, resolved as the kernel opens it */
	const char *request; /* the path as asked (NULL: exec as given) */
	/* argv: NULL, its base name alone; argc 0 with argv, none, as a
	 * process may ask */
	const char *const *argv;
	size_t argc;
	const char *parent; /* NULL: the shell; "": no exec_parent fact */
	enum pty_exec_via via;
	const char *through; /* shebang, loader: absolute; else NULL */
};

/* The request a process of the session would make: x->request (or
 * x->exec) made absolute against d->cwd as exec_request, x->exec made
 * absolute and resolved as the kernel would open it as exec_path, and the
 * rest as given.  Returns 0, or -1 with one line in err. */
int pty_tool_exec_request(const struct pty_decider *d,
			  const struct pty_tool_exec *x,
			  struct pty_exec_request *r, char *err, size_t errlen);

#endif /* PTY_TOOL_COMMON_H */
