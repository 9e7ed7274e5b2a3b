/* SPDX-License-Identifier: MIT */
/*
 * The command line of `maelys-pty explain` (pty_explain.h): options in
 * either form (--user alice, --user=alice), then the line as one word, or
 * --exec PATH and, after --, the program's argv.  Every refusal is one
 * line that names the word at fault; the caller exits 2.
 */
#include "pty_explain.h"
#include "pty_messages.h"
#include "pty_tool_common.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The options that take a value, and where each goes. */
enum explain_opt {
	OPT_POLICY,
	OPT_CONFIG,
	OPT_USER,
	OPT_GROUP,
	OPT_CWD,
	OPT_TIME,
	OPT_MODE,
	OPT_REMOTE,
	OPT_HOST,
	OPT_DEPTH,
	OPT_EXEC,
	OPT_SHELL,
	OPT_GUARD,
	OPT_PARENT,
};

static const struct {
	const char *name;
	enum explain_opt opt;
} explain_valued[] = {
    {"--policy", OPT_POLICY}, {"--config", OPT_CONFIG}, {"--user", OPT_USER},
    {"--group", OPT_GROUP},   {"--cwd", OPT_CWD},       {"--time", OPT_TIME},
    {"--mode", OPT_MODE},     {"--remote", OPT_REMOTE}, {"--host", OPT_HOST},
    {"--depth", OPT_DEPTH},   {"--exec", OPT_EXEC},     {"--shell", OPT_SHELL},
    {"--guard", OPT_GUARD},   {"--parent", OPT_PARENT},
};

static int
explain_bad(FILE *err, const char *opt, const char *value, const char *want)
{
	char shown[PTY_TEXT_MAX];

	/* the value as typed, never obeyed by the terminal; a value refused
	 * for its length is shown as far as a name may go */
	pty_printable(shown, sizeof shown, value);
	fprintf(err, PTY_MSG_EXPLAIN_BAD_VALUE "\n", opt, shown, want);
	return 2;
}

/* The longest value an option may have: what the decider holds of it (a
 * name of the identity, a path), so that a value is never cut into
 * another one the policy would decide on. */
static size_t
explain_value_max(enum explain_opt opt)
{
	switch (opt) {
	case OPT_USER:
	case OPT_GROUP:
	case OPT_REMOTE:
	case OPT_HOST:
		return PTY_TEXT_MAX - 1;
	case OPT_CWD:
	case OPT_SHELL:
	case OPT_GUARD:
	case OPT_PARENT:
		return PATH_MAX - 1;
	case OPT_POLICY:
	case OPT_CONFIG:
	case OPT_TIME:
	case OPT_MODE:
	case OPT_DEPTH:
	case OPT_EXEC: /* explain.c says when the path is too long */
		break;
	}
	return SIZE_MAX;
}

/* Sets one option to its value.  Returns 0 or 2 (said on err). */
static int
explain_set(struct explain_options *o, enum explain_opt opt, const char *name,
	    const char *v, FILE *err)
{
	char *end;
	unsigned long n;

	if (v[0] == '\0')
		return explain_bad(err, name, v, PTY_MSG_EXPLAIN_WANT_WORD);
	if (strlen(v) > explain_value_max(opt)) {
		char want[64];

		(void)snprintf(want, sizeof want, PTY_MSG_EXPLAIN_WANT_SHORTER,
			       explain_value_max(opt));
		return explain_bad(err, name, v, want);
	}
	switch (opt) {
	case OPT_POLICY:
		o->policy_path = v;
		break;
	case OPT_CONFIG:
		o->config_path = v;
		break;
	case OPT_USER:
		o->user = v;
		break;
	case OPT_GROUP:
		if (o->ngroups == EXPLAIN_GROUPS_MAX)
			return explain_bad(err, name, v,
					   PTY_MSG_EXPLAIN_WANT_FEWER_GROUPS);
		o->groups[o->ngroups++] = v;
		break;
	case OPT_CWD:
		if (v[0] != '/')
			return explain_bad(err, name, v,
					   PTY_MSG_EXPLAIN_WANT_ABSOLUTE);
		o->cwd = v;
		break;
	case OPT_TIME:
		if (!pty_tool_time_ok(v))
			return explain_bad(err, name, v,
					   PTY_MSG_EXPLAIN_WANT_TIME);
		o->time = v;
		break;
	case OPT_MODE:
		if (strcmp(v, "interactive") == 0)
			o->mode = PTY_MODE_INTERACTIVE;
		else if (strcmp(v, "command") == 0)
			o->mode = PTY_MODE_COMMAND;
		else
			return explain_bad(err, name, v,
					   PTY_MSG_EXPLAIN_WANT_MODE);
		break;
	case OPT_REMOTE:
		o->remote = v;
		break;
	case OPT_HOST:
		o->host = v;
		break;
	case OPT_DEPTH:
		errno = 0;
		n = strtoul(v, &end, 10);
		if (errno != 0 || *end != '\0' || v[0] < '1' || v[0] > '9' ||
		    n > EXPLAIN_DEPTH_MAX)
			return explain_bad(err, name, v,
					   PTY_MSG_EXPLAIN_WANT_DEPTH);
		o->depth = (unsigned)n;
		break;
	case OPT_EXEC:
		o->exec = v;
		break;
	case OPT_SHELL:
		if (v[0] != '/')
			return explain_bad(err, name, v,
					   PTY_MSG_EXPLAIN_WANT_ABSOLUTE);
		o->shell = v;
		break;
	case OPT_GUARD:
		if (v[0] != '/')
			return explain_bad(err, name, v,
					   PTY_MSG_EXPLAIN_WANT_ABSOLUTE);
		o->guard = v;
		break;
	case OPT_PARENT:
		if (v[0] != '/')
			return explain_bad(err, name, v,
					   PTY_MSG_EXPLAIN_WANT_ABSOLUTE);
		o->parent = v;
		break;
	}
	return 0;
}

/* argv[*i] is an option: its value from "=VALUE" or the next word. */
static int
explain_option(struct explain_options *o, int argc, char **argv, int *i,
	       FILE *err)
{
	const char *w = argv[*i], *eq = strchr(w, '=');
	size_t n = eq != NULL ? (size_t)(eq - w) : strlen(w), k;

	if (strcmp(w, "--help") == 0 || strcmp(w, "-h") == 0) {
		o->help = true;
		return 0;
	}
	for (k = 0; k < sizeof explain_valued / sizeof explain_valued[0]; k++) {
		const char *name = explain_valued[k].name;

		if (strlen(name) != n || strncmp(w, name, n) != 0)
			continue;
		if (eq != NULL)
			return explain_set(o, explain_valued[k].opt, name,
					   eq + 1, err);
		if (*i + 1 >= argc) {
			fprintf(err, PTY_MSG_NEEDS_VALUE "\n", name);
			return 2;
		}
		return explain_set(o, explain_valued[k].opt, name, argv[++*i],
				   err);
	}
	fprintf(err, PTY_MSG_UNKNOWN_OPTION "\n", w);
	return 2;
}

int
explain_options_parse(int argc, char **argv, struct explain_options *o,
		      FILE *err)
{
	bool rest = false; /* after -- */
	int i, rc;

	memset(o, 0, sizeof *o);
	o->mode = PTY_MODE_INTERACTIVE;
	o->depth = EXPLAIN_DEPTH_DEFAULT;
	for (i = 1; i < argc; i++) {
		const char *w = argv[i];

		if (!rest && strcmp(w, "--") == 0) {
			rest = true;
		} else if (!rest && w[0] == '-' && w[1] != '\0') {
			if ((rc = explain_option(o, argc, argv, &i, err)) != 0)
				return rc;
		} else if (rest && o->exec != NULL) {
			if (o->argc == EXPLAIN_ARGV_MAX) {
				fprintf(err, PTY_MSG_EXPLAIN_TOO_MANY_ARGS "\n",
					EXPLAIN_ARGV_MAX);
				return 2;
			}
			o->argv[o->argc++] = w;
		} else if (o->line != NULL || o->exec != NULL) {
			fprintf(err, PTY_MSG_EXPLAIN_EXTRA_WORD "\n", w);
			return 2;
		} else {
			o->line = w;
		}
	}
	if (o->help)
		return 0;
	if (o->policy_path != NULL && o->config_path != NULL) {
		fprintf(err, PTY_MSG_CONFIG_AND_POLICY "\n");
		return 2;
	}
	if (o->line == NULL && o->exec == NULL) {
		fprintf(err, PTY_MSG_EXPLAIN_NOTHING "\n");
		return 2;
	}
	if (o->exec == NULL &&
	    (o->shell != NULL || o->guard != NULL || o->parent != NULL)) {
		fprintf(err, PTY_MSG_EXPLAIN_EXEC_ONLY "\n");
		return 2;
	}
	return 0;
}
