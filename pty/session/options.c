/* SPDX-License-Identifier: MIT */
/*
 * Parsing the command line.  Hand-written rather than getopt_long: sshd
 * passes "-c COMMAND" where COMMAND may itself begin with '-', and getopt's
 * permutation and optional-argument rules would read it as options.  Here -c
 * takes the next argument whatever it is, and ends option parsing.
 */
#include "pty_options.h"

#include <string.h>

#ifndef PTY_CONFIG_FILE
#define PTY_CONFIG_FILE "/etc/maelys-pty/maelys-pty.conf"
#endif

const char pty_config_file[] = PTY_CONFIG_FILE;
const char pty_default_shell[] = "/bin/bash";
const char pty_default_path[] = "/usr/local/bin:/usr/bin:/bin";

void
pty_options_usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: maelys-pty [-c COMMAND]\n"
	    "       maelys-pty --check [--config FILE] [--user NAME]\n"
	    "       maelys-pty --verify-log FILE [--config FILE]\n"
	    "       maelys-pty [--config FILE | --policy FILE] [--shell "
	    "PATH]\n"
	    "                  [--path PATH] [--history FILE] [-c COMMAND]\n"
	    "       maelys-pty --help | --version\n"
	    "\n"
	    "Runs bash behind a guard that decides every line typed at the\n"
	    "prompt with a Datalog policy before bash may see it.\n"
	    "\n"
	    "  -c COMMAND        decide and run one command, no terminal\n"
	    "                    (what sshd runs for ssh host COMMAND); a\n"
	    "                    denied command exits 126\n"
	    "  --config FILE     the configuration (default %s);\n"
	    "                    it and its policy must be root's, writable\n"
	    "                    by root only\n"
	    "  --check           check everything a session needs (the\n"
	    "                    configuration, the policy, the shell,\n"
	    "                    Landlock, the audit log, this program's\n"
	    "                    installation, the host): one line a\n"
	    "                    problem; exit 0 when a session can start\n"
	    "  --user NAME       (root, with --check) decide for NAME's\n"
	    "                    sessions rather than root's\n"
	    "  --verify-log FILE check an audit log's chain with the\n"
	    "                    configured key; name the first bad record\n"
	    "  --policy FILE     try a policy without a configuration (no\n"
	    "                    audit log): for development\n"
	    "  --shell PATH      the bash to run (default: the\n"
	    "                    configuration's, else %s)\n"
	    "  --path PATH       PATH of the session (default: the\n"
	    "                    configuration's, else %s)\n"
	    "  --history FILE    line history (default "
	    "~/.maelys_pty_history)\n"
	    "A guard installed setuid takes its settings from %s only.\n",
	    pty_config_file, pty_default_shell, pty_default_path,
	    pty_config_file);
}

/* --name VALUE or --name=VALUE: 1 and *out set, 0 not this option, -1 a
 * missing value. */
static int
pty_options_value(int argc, char **argv, int *i, const char *name,
		  const char **out, FILE *err)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n) == 0 && argv[*i][n] == '=') {
		*out = argv[*i] + n + 1;
		return 1;
	}
	if (strcmp(argv[*i], name) != 0)
		return 0;
	if (*i + 1 >= argc) {
		fprintf(err, "maelys-pty: %s needs a value\n", name);
		return -1;
	}
	*out = argv[++*i];
	return 1;
}

int
pty_options_parse(int argc, char **argv, struct pty_options *o, FILE *err)
{
	static const char *const valued[] = {
	    "--config",  "--policy",     "--shell", "--path",
	    "--history", "--verify-log", "--user"};
	int i;

	memset(o, 0, sizeof *o);
	o->login = argc > 0 && argv[0] != NULL && argv[0][0] == '-';
	for (i = 1; i < argc; i++) {
		const char **slots[] = {&o->config_path,  &o->policy_path,
					&o->shell_path,   &o->path_env,
					&o->history_path, &o->verify_log,
					&o->check_user};
		size_t k;
		int r = 0;

		if (strcmp(argv[i], "-c") == 0) {
			if (i + 1 >= argc) {
				fprintf(err,
					"maelys-pty: -c needs a command\n");
				return 2;
			}
			o->command = argv[i + 1];
			/* sshd: "-c COMMAND"; anything after is not ours */
			return 0;
		}
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			o->help = true;
			continue;
		}
		if (strcmp(argv[i], "--version") == 0) {
			o->version = true;
			continue;
		}
		if (strcmp(argv[i], "--check") == 0) {
			o->check = true;
			continue;
		}
		for (k = 0; k < sizeof valued / sizeof valued[0] && r == 0; k++)
			r = pty_options_value(argc, argv, &i, valued[k],
					      slots[k], err);
		if (r < 0)
			return 2;
		if (r == 0) {
			fprintf(err, "maelys-pty: unknown option '%s'\n",
				argv[i]);
			pty_options_usage(err);
			return 2;
		}
	}
	if (o->check_user != NULL && !o->check) {
		fprintf(err, "maelys-pty: --user goes with --check (it names "
			     "the user whose sessions are checked)\n");
		return 2;
	}
	if (o->config_path != NULL && o->policy_path != NULL) {
		fprintf(err, "maelys-pty: --config and --policy exclude each "
			     "other (the configuration names the policy)\n");
		return 2;
	}
	return 0;
}
