/* SPDX-License-Identifier: MIT */
/*
 * The policy authors' tools: subcommands of maelys-pty that load a policy
 * and decide with it, but start no session (`maelys-pty test`,
 * `maelys-pty explain`, `maelys-pty decide`), and the auditors' player of
 * session recordings, which decides nothing (`maelys-pty replay`,
 * pty_replay.h).  main.c runs one when the first argument names it, after
 * dropping every privilege the installed program has (decide drops them
 * itself, see keeps_privileges): a tool reads files with the rights of the
 * person who runs it.
 *
 * Each tool takes its own argv (argv[0] is the tool's name), prints to
 * stdout and stderr, and returns the exit status.
 */
#ifndef PTY_TOOLS_H
#define PTY_TOOLS_H

#include <stdbool.h>
#include <stddef.h>

struct pty_tool {
	const char *name;
	int (*run)(int argc, char **argv);
	/* run with the installed program's privileges, which the tool drops
	 * itself before it reads anything the caller names: decide, whose
	 * audit writer starts as the audit account, as a session's does
	 * (pty_guard_start_audit).  false: main.c drops them first */
	bool keeps_privileges;
};

/* The tools, ended by a { NULL, NULL } entry. */
extern const struct pty_tool pty_tools[];

/* The tool named `name`, or NULL. */
const struct pty_tool *pty_tool_find(const char *name);

/* `maelys-pty test CASEFILE...`: the policy's cases (test.c). */
int pty_tool_test(int argc, char **argv);

#endif /* PTY_TOOLS_H */
