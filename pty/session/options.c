/* SPDX-License-Identifier: MIT */
/*
 * Parsing the command line with getopt_long.  sshd passes "-c COMMAND",
 * where COMMAND may itself begin with '-': -c takes a required argument
 * (getopt_long then takes the next word whatever it is) and ends option
 * parsing, and the leading '+' stops getopt_long from permuting, so no
 * word after the first that is not an option is read as one.
 */
#define _GNU_SOURCE /* getopt_long */
#include "pty_session.h"

#include "pty_messages.h"

#include <getopt.h>
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
	fprintf(f, PTY_MSG_USAGE, pty_config_file, pty_default_shell,
		pty_default_path, pty_config_file);
}

enum {
	OPT_CONFIG = 256,
	OPT_POLICY,
	OPT_SHELL,
	OPT_PATH,
	OPT_HISTORY,
	OPT_VERIFY_LOG,
	OPT_STATE,
	OPT_NEW_AUDIT_KEY,
	OPT_USER,
	OPT_CHECK,
	OPT_WERROR,
	OPT_VERSION,
	OPT_LIST
};

static const struct option pty_long_options[] = {
    {"config", required_argument, NULL, OPT_CONFIG},
    {"policy", required_argument, NULL, OPT_POLICY},
    {"shell", required_argument, NULL, OPT_SHELL},
    {"path", required_argument, NULL, OPT_PATH},
    {"history", required_argument, NULL, OPT_HISTORY},
    {"verify-log", required_argument, NULL, OPT_VERIFY_LOG},
    {"state", required_argument, NULL, OPT_STATE},
    {"new-audit-key", required_argument, NULL, OPT_NEW_AUDIT_KEY},
    {"user", required_argument, NULL, OPT_USER},
    {"check", no_argument, NULL, OPT_CHECK},
    {"werror", no_argument, NULL, OPT_WERROR},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {"list", no_argument, NULL, OPT_LIST},
    {NULL, 0, NULL, 0},
};

/* Where option `c`'s value goes, or NULL for an option without one. */
static const char **
pty_options_slot(struct pty_options *o, int c)
{
	switch (c) {
	case OPT_CONFIG:
		return &o->config_path;
	case OPT_POLICY:
		return &o->policy_path;
	case OPT_SHELL:
		return &o->shell_path;
	case OPT_PATH:
		return &o->path_env;
	case OPT_HISTORY:
		return &o->history_path;
	case OPT_VERIFY_LOG:
		return &o->verify_log;
	case OPT_STATE:
		return &o->state_path;
	case OPT_NEW_AUDIT_KEY:
		return &o->new_audit_key;
	case OPT_USER:
		return &o->check_user;
	default:
		return NULL;
	}
}

/* The options that exclude or need each other.  Returns 0, or 2 after
 * saying why. */
static int
pty_options_agree(const struct pty_options *o, FILE *err)
{
	if (o->check_user != NULL && !o->check) {
		fprintf(err, PTY_MSG_USER_WITHOUT_CHECK "\n");
		return 2;
	}
	if (o->werror && !o->check) {
		fprintf(err, PTY_MSG_WERROR_WITHOUT_CHECK "\n");
		return 2;
	}
	if (o->config_path != NULL && o->policy_path != NULL) {
		fprintf(err, PTY_MSG_CONFIG_AND_POLICY "\n");
		return 2;
	}
	if (o->state_path != NULL && o->verify_log == NULL &&
	    o->new_audit_key == NULL) {
		fprintf(err, PTY_MSG_STATE_WITHOUT_VERIFY "\n");
		return 2;
	}
	if (o->new_audit_key != NULL && o->state_path == NULL) {
		fprintf(err, PTY_MSG_NEW_KEY_NEEDS_STATE "\n");
		return 2;
	}
	return 0;
}

/* A usage error of the option getopt_long just refused: `c` is ':' for a
 * missing value, '?' for an unknown option; getopt's optopt names a short
 * option (a letter) or a long one (its value in pty_long_options), and is
 * 0 for an unknown long option, which is then `word`, as written.
 * Returns 2. */
static int
pty_options_refuse(int c, int opt, const char *word, FILE *err)
{
	char name[80];
	size_t i;

	if (opt > 0 && opt < 256)
		(void)snprintf(name, sizeof name, "-%c", opt);
	else
		(void)snprintf(name, sizeof name, "%.*s",
			       (int)strcspn(word, "="), word);
	for (i = 0; opt >= 256 && pty_long_options[i].name != NULL; i++)
		if (pty_long_options[i].val == opt)
			(void)snprintf(name, sizeof name, "--%s",
				       pty_long_options[i].name);
	if (c == ':' && opt == 'c')
		fprintf(err, PTY_MSG_NEEDS_COMMAND "\n");
	else if (c == ':')
		fprintf(err, PTY_MSG_NEEDS_VALUE "\n", name);
	else {
		/* a letter by itself; a long option as it was written
		 * ("--check=x": a value it does not take) */
		fprintf(err, PTY_MSG_UNKNOWN_OPTION "\n",
			opt > 0 && opt < 256 ? name : word);
		pty_options_usage(err);
	}
	return 2;
}

int
pty_options_parse(int argc, char **argv, struct pty_options *o, FILE *err)
{
	int c;

	memset(o, 0, sizeof *o);
	o->login = argc > 0 && argv[0] != NULL && argv[0][0] == '-';
	opterr = 0;
	optind = 0; /* glibc: start afresh, even after an earlier parse */
	while ((c = getopt_long(argc, argv, "+:c:h", pty_long_options, NULL)) !=
	       -1) {
		const char **slot = pty_options_slot(o, c);

		if (c == ':' || c == '?')
			return pty_options_refuse(c, optopt,
						  optind > 0 && optind <= argc
						      ? argv[optind - 1]
						      : "?",
						  err);
		if (slot != NULL) {
			*slot = optarg;
		} else if (c == 'c') {
			/* sshd: "-c COMMAND"; anything after is not ours */
			o->command = optarg;
			return 0;
		} else if (c == 'h') {
			o->help = true;
		} else if (c == OPT_VERSION) {
			o->version = true;
		} else if (c == OPT_CHECK) {
			o->check = true;
		} else if (c == OPT_WERROR) {
			o->werror = true;
		} else if (c == OPT_LIST) {
			o->list = true;
		}
	}
	/* --verify-log FILE FILE...: the words after the first FILE are the
	 * later files of the rotation (options may follow them) */
	while (o->verify_log != NULL && o->command == NULL && optind < argc) {
		if (o->verify_more == NULL)
			o->verify_more = argv + optind;
		if (argv + optind != o->verify_more + o->nverify_more) {
			fprintf(err, PTY_MSG_VERIFY_FILES_TOGETHER "\n");
			return 2;
		}
		o->nverify_more++;
		optind++;
		while ((c = getopt_long(argc, argv, "+:h", pty_long_options,
					NULL)) != -1) {
			const char **slot = pty_options_slot(o, c);

			if (c == ':' || c == '?' || slot == NULL)
				return pty_options_refuse(
				    c == ':' ? c : '?', optopt,
				    optind > 0 && optind <= argc
					? argv[optind - 1]
					: "?",
				    err);
			*slot = optarg;
		}
	}
	if (optind < argc) {
		fprintf(err, PTY_MSG_UNKNOWN_OPTION "\n", argv[optind]);
		pty_options_usage(err);
		return 2;
	}
	return pty_options_agree(o, err);
}
