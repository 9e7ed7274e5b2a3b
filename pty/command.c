/* SPDX-License-Identifier: MIT */
/*
 * The -c mode.  No terminal games: the command is decided and, when allowed,
 * bash runs it directly with the same environment allow-list and the same
 * disabled builtins as an interactive session (the lock-down is a first line
 * of the script; the command, which the scanner guarantees has no newline,
 * is the second).
 */
#include "pty_command.h"

#include "pty_child.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The interactive lock-down without the status reporting. */
static const char pty_command_lockdown[] =
    "set +o history && unset HISTFILE"
    " && readonly PATH SHELL HOME USER LOGNAME HISTFILE BASH_ENV ENV IFS"
    " CDPATH GLOBIGNORE"
    " && enable -n eval source . exec trap fc command builtin alias"
    " unalias export declare typeset readonly local unset set shopt hash"
    " read mapfile readarray suspend"
    " && enable -n enable || exit 126\n";

int
pty_command_run(struct pty_guard *g, struct pty_decider *d, const char *command,
		const char *guard_path)
{
	static char script[sizeof pty_command_lockdown + 4096];
	char *argv[] = {"bash", "--noprofile", "--norc", "-c", script, NULL};
	size_t len = strlen(command);

	switch (pty_guard_conclude(g, d, command, len, "command", NULL, NULL,
				   STDERR_FILENO, "\n")) {
	case PTY_ACT_RUN:
		break;
	case PTY_ACT_SKIP:
		fprintf(stderr, "maelys-pty: empty command: nothing to run\n");
		return 126;
	case PTY_ACT_DENY:
	case PTY_ACT_END:
		return 126;
	}
	/* the scanner bounded the command below 4096 bytes */
	(void)snprintf(script, sizeof script, "%s%s", pty_command_lockdown,
		       command);
	pty_audit_close(g->audit); /* its descriptor must not reach bash */
	g->audit = NULL;
	(void)signal(SIGXFSZ, SIG_DFL); /* ignored for the guard only */
	execve(g->shell_path, argv,
	       pty_child_environment(g->path_env, guard_path));
	fprintf(stderr, "maelys-pty: cannot run %s\n", g->shell_path);
	return 126;
}
