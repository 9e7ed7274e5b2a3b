/* SPDX-License-Identifier: MIT */
/*
 * The command line of maelys-pty.  Started as a login shell (argv[0]
 * beginning with '-') or by sshd with -c, it takes no options a user could
 * set; the options exist for administrators and tests, and a privileged
 * (setuid) guard refuses those that would change what it trusts.
 */
#ifndef PTY_OPTIONS_H
#define PTY_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

struct pty_options {
	const char *config_path;  /* --config, or NULL: the built-in path */
	const char *policy_path;  /* --policy (no configuration), or NULL */
	const char *shell_path;   /* --shell, or NULL: the configuration's */
	const char *path_env;     /* --path, or NULL: the configuration's */
	const char *history_path; /* --history: NULL = ~/.maelys_pty_history */
	const char *command;      /* -c COMMAND, or NULL */
	const char *verify_log;   /* --verify-log FILE, or NULL */
	const char *check_user;   /* --check --user NAME, or NULL */
	bool check;               /* --check */
	bool login;               /* argv[0] starts with '-' */
	bool help;
	bool version;
};

/* Parses argv.  Returns 0, or 2 after printing a usage error to `err`. */
int pty_options_parse(int argc, char **argv, struct pty_options *o, FILE *err);
void pty_options_usage(FILE *f);

/* The configuration file fixed at build time (meson option config_file). */
extern const char pty_config_file[];
/* Defaults used without a configuration (--policy). */
extern const char pty_default_shell[];
extern const char pty_default_path[];

#endif /* PTY_OPTIONS_H */
