/* SPDX-License-Identifier: MIT */
/*
 * The command line of maelys-pty.  Started as a login shell (argv[0]
 * beginning with '-') or by sshd with -c, it takes no options a user could
 * set; the options exist for administrators and tests.
 */
#ifndef PTY_OPTIONS_H
#define PTY_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

struct pty_options {
	const char *policy_path;  /* --policy: the policy to load */
	const char *shell_path;   /* --shell: bash */
	const char *command;      /* -c COMMAND, or NULL */
	const char *path_env;     /* --path: PATH of the session */
	const char *history_path; /* --history: NULL = ~/.maelys_pty_history */
	bool login;               /* argv[0] starts with '-' */
	bool help;
	bool version;
};

/* Parses argv.  Returns 0, or 2 after printing a usage error to `err`. */
int pty_options_parse(int argc, char **argv, struct pty_options *o, FILE *err);
void pty_options_usage(FILE *f);

#endif /* PTY_OPTIONS_H */
