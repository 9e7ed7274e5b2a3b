/* SPDX-License-Identifier: MIT */
/*
 * Parsing the command line.  Hand-written rather than getopt_long: sshd
 * passes "-c COMMAND" where COMMAND may itself begin with '-', and getopt's
 * permutation and optional-argument rules would read it as options.  Here -c
 * takes the next argument whatever it is, and ends option parsing.
 */
#include "pty_options.h"

#include <string.h>

#ifndef PTY_DEFAULT_POLICY
#define PTY_DEFAULT_POLICY "/usr/local/share/maelys-pty/policies/level1.dl"
#endif
#ifndef PTY_DEFAULT_SHELL
#define PTY_DEFAULT_SHELL "/bin/bash"
#endif
#define PTY_DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

void
pty_options_usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: maelys-pty [--policy FILE] [--shell PATH] [--path PATH]\n"
	    "                  [--history FILE] [-c COMMAND]\n"
	    "       maelys-pty --help | --version\n"
	    "\n"
	    "Runs bash behind a guard that decides every line typed at the\n"
	    "prompt with a Datalog policy before bash may see it.\n"
	    "\n"
	    "  --policy FILE   the policy (default %s)\n"
	    "  --shell PATH    the bash to run (default %s)\n"
	    "  --path PATH     PATH of the session (default %s)\n"
	    "  --history FILE  line history (default ~/.maelys_pty_history)\n"
	    "  -c COMMAND      decide and run one command, no terminal\n"
	    "                  (what sshd runs for ssh host COMMAND); a\n"
	    "                  denied command exits 126\n",
	    PTY_DEFAULT_POLICY, PTY_DEFAULT_SHELL, PTY_DEFAULT_PATH);
}

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
	static const char *const valued[] = {"--policy", "--shell", "--path",
					     "--history"};
	int i;

	memset(o, 0, sizeof *o);
	o->policy_path = PTY_DEFAULT_POLICY;
	o->shell_path = PTY_DEFAULT_SHELL;
	o->path_env = PTY_DEFAULT_PATH;
	o->login = argc > 0 && argv[0] != NULL && argv[0][0] == '-';
	for (i = 1; i < argc; i++) {
		const char **slots[] = {&o->policy_path, &o->shell_path,
					&o->path_env, &o->history_path};
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
	return 0;
}
