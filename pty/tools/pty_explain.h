/* SPDX-License-Identifier: MIT */
/*
 * `maelys-pty explain`: the verdict a session would reach for one line (or
 * one program the session executes), then how the policy reached it, as a
 * tree of rules and the facts they matched.  The parts:
 *
 *   explain.c          the tool: options, the policy, the facts, the verdict
 *   explain_options.c  the command line
 *   explain_tree.c     the derivation and why-not trees, from a provenance
 *                      result (maelys_datalog_result_derivation, ...)

 * A body literal's arguments, which let a failed `not p(...)` name the p
 * tuple that holds, come from the engine as the load read them
 * (maelys_datalog_policy_get_literal_term), never from its text.
 *
 * The verdict is always the deciders' own (pty_decide_keep,
 * pty_exec_decide_keep): this tool only reads the result they solved.
 */
#ifndef PTY_EXPLAIN_H
#define PTY_EXPLAIN_H

#include "pty_decide.h"

#include <maelys/datalog.h>

#include <stdint.h>
#include <stdio.h>

/* The tool (pty_tools.h): argv[0] is "explain". */
int explain_run(int argc, char **argv);

/* ---- The command line (explain_options.c) */

#define EXPLAIN_GROUPS_MAX    64
#define EXPLAIN_ARGV_MAX      256
/* Depth of a tree: the default and the most --depth takes. */
#define EXPLAIN_DEPTH_DEFAULT 12u
#define EXPLAIN_DEPTH_MAX     64u

struct explain_options {
	const char *policy_path; /* --policy, or NULL */
	const char *config_path; /* --config, or NULL: the built-in path */
	const char *user;        /* --user, or NULL: the caller */
	const char *groups[EXPLAIN_GROUPS_MAX]; /* --group, repeated */
	size_t ngroups;
	const char *cwd;    /* --cwd, or NULL: the current directory */
	const char *time;   /* --time HH:MM, or NULL: now */
	const char *remote; /* --remote, or NULL: none */
	const char *host;   /* --host, or NULL: this machine's name */
	enum pty_mode mode; /* --mode */
	unsigned depth;     /* --depth */
	const char *line;   /* the line, or NULL with --exec */
	const char *exec;   /* --exec PATH, or NULL */
	const char *shell;  /* --shell: session_shell, or NULL */
	const char *guard;  /* --guard: guard_program, or NULL */
	const char *parent; /* --parent: exec_parent, or NULL: the shell */
	const char *argv[EXPLAIN_ARGV_MAX]; /* after --, with --exec */
	size_t argc;
	bool help;
};

/* Parses the tool's argv (argv[0] is "explain").  Returns 0, or 2 after
 * one line to `err` naming the word at fault. */
int explain_options_parse(int argc, char **argv, struct explain_options *o,
			  FILE *err);

/* ---- The trees (explain_tree.c) */

/* What the trees read, and what they have shown (a derived tuple's tree is
 * printed once; later it is named "shown above"): at most
 * EXPLAIN_SHOWN_MAX tuples.  The walker is freed with the trees. */
#define EXPLAIN_SHOWN_MAX 4096
/* The most lines of trees one explanation prints. */
#define EXPLAIN_LINES_MAX 2000

struct explain_tree {
	const maelys_datalog_result_t *res;
	const maelys_datalog_policy_t *policy;
	FILE *out;
	unsigned depth; /* levels below a row that are printed */
	maelys_datalog_walk_t *walk; /* what was shown; NULL until a tree */
	size_t lines; /* printed so far */
	bool cut;     /* a bound stopped a tree: say so once */
};

/* The tree of every row of pred/arity whose first column is `key` (every
 * row when key is NULL).  Returns how many rows there were, or -1 when
 * the result could not be read (said on out). */
long explain_tree_rows(struct explain_tree *t, const char *pred, size_t arity,
		       const char *key);

/* Why nothing derived heads[i](key, ...): for each rule whose head is one
 * of `heads`, the first body literal that failed, and for a failed
 * `not p(...)` the tree of the p tuple that holds. */
void explain_tree_why_not(struct explain_tree *t, const char *const *heads,
			  size_t nheads, const char *key);

#endif /* PTY_EXPLAIN_H */
