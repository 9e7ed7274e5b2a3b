/* SPDX-License-Identifier: MIT */
/*
 * The standalone runner's command line: its usage text, the options read
 * with getopt_long, the budgets' values, and how the runner says what is
 * wrong (runner_options.h).
 */
#define _GNU_SOURCE /* getopt_long */

#include "runner_options.h"

#include "explain.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "Usage: " PROGRAM_NAME " run [OPTIONS] PROG.dl\n"
    "       " PROGRAM_NAME
    " check [--souffle|--native] [-I DIR] [--werror] PROG.dl\n"
    "       " PROGRAM_NAME " --help | --version\n"
    "\n"
    "run:   load PROG.dl, read the facts of each `.input rel` from\n"
    "       FACTS_DIR/rel.facts (tab-separated), solve, then write each\n"
    "       `.output rel` to OUT_DIR/rel.csv and print `.printsize rel` as\n"
    "       \"rel<TAB>count\" on stdout, in source order.\n"
    "check: load PROG.dl and report: \"PROG.dl: ok\", or the diagnostic;\n"
    "       the load's warnings go to stderr as FILE:LINE:COL: warning: ...\n"
    "\n"
    "Options:\n"
    "  --souffle             read Souffle's syntax (default: Souffle's when\n"
    "                        the program declares types, ours otherwise)\n"
    "  --native              read the native dialect\n"
    "  -F DIR, --facts=DIR   directory of the .facts files (default .)\n"
    "  -D DIR, --output=DIR  directory of the .csv files (default .);\n"
    "                        `-D -` prints the outputs on stdout\n"
    "  -I DIR, --include-dir=DIR\n"
    "                        where .include (and, with --souffle, the C\n"
    "                        preprocessor's #include) look for a file after\n"
    "                        the including file's folder; may be repeated\n"
    "  --no-preprocessor     with --souffle, never run cpp (its # lines are\n"
    "                        skipped, as Souffle's --no-preprocessor does)\n"
    "  --max-tuples N        stop with budget_tuples after N derived tuples\n"
    "  --max-memory BYTES    stop with budget_memory above BYTES of working\n"
    "                        memory (suffix K, M, G or T: powers of 1024)\n"
    "  --werror              check: a warning is an error (exit status 1)\n"
    "  -v, --verbose         run: print the load's warnings on stderr\n"
    "  --explain TUPLE       run: after the outputs, print how TUPLE\n"
    "                        (e.g. 'path(\"a\", 3)') was derived, or why no\n"
    "                        rule derived it; may be given more than once\n"
    "  --explain-depth N     levels of derivation printed (default 12)\n"
    "  -h, --help            print this help\n"
    "  -V, --version         print the library version\n"
    "\n"
    "Exit status: 0 success, 1 load, input, evaluation or output error\n"
    "(or, with --werror, a warning), 2 usage error.  See maelys-datalog(1).\n";

/* Says what is wrong (unless `what` is NULL: already said) and how to get
 * help; returns the usage exit status. */
int
runner_usage_error(const char *what, const char *arg)
{
	if (what != NULL && arg != NULL)
		fprintf(stderr, PROGRAM_NAME ": %s '%s'\n", what, arg);
	else if (what != NULL)
		fprintf(stderr, PROGRAM_NAME ": %s\n", what);
	fputs("Try '" PROGRAM_NAME " --help' for more information.\n", stderr);
	return RUN_USAGE;
}

/* "maelys-datalog: <status name>: <diagnostic message>" */
int
runner_report_status(maelys_datalog_status_t st,
	      const maelys_datalog_diagnostic_t *diag)
{
	const char *msg = diag != NULL && diag->message[0] != '\0'
			      ? diag->message
			      : maelys_datalog_status_meaning(st);

	fprintf(stderr, PROGRAM_NAME ": %s: %s\n",
		maelys_datalog_status_name(st), msg);
	return RUN_ERROR;
}

int
runner_report_error(const char *msg)
{
	fprintf(stderr, PROGRAM_NAME ": %s\n", msg);
	return RUN_ERROR;
}

/*
 * A budget value: decimal digits, for memory optionally followed by K, M, G
 * or T (powers of 1024); from 1 to the budget's hard maximum.  Returns 0, or
 * a usage error's exit status after saying why.
 */
static int
parse_budget(const char *opt, const char *s, maelys_datalog_budget_t b,
	     bool suffixes, uint64_t *out)
{
	uint64_t v = 0, max = 0, mul = 1;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return runner_usage_error("not a number:", s);
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return runner_usage_error("number too large:", s);
		v = v * 10 + d;
	}
	if (suffixes && *p != '\0' && p[1] == '\0') {
		const char *units = "KMGT", *u = strchr(units, *p);

		if (u != NULL) {
			mul = (uint64_t)1 << (10 * (u - units + 1));
			p++;
		}
	}
	if (*p != '\0')
		return runner_usage_error("not a number:", s);
	if (v > UINT64_MAX / mul)
		return runner_usage_error("number too large:", s);
	v *= mul;
	if (maelys_datalog_budget_max(b, &max) != MAELYS_DATALOG_STATUS_OK)
		return runner_usage_error("unknown budget for", opt);
	if (v == 0 || v > max) {
		fprintf(stderr,
			PROGRAM_NAME ": %s %s: must be from 1 to %llu\n", opt,
			s, (unsigned long long)max);
		return runner_usage_error(NULL, NULL);
	}
	*out = v;
	return 0;
}

/* The long options; a value of OPT_* (above 255) names one that has no
 * short form. */
enum {
	OPT_SOUFFLE = 256,
	OPT_NATIVE,
	OPT_MAX_TUPLES,
	OPT_MAX_MEMORY,
	OPT_WERROR,
	OPT_EXPLAIN,
	OPT_EXPLAIN_DEPTH,
	OPT_NO_PREPROCESSOR
};

static const struct option long_options[] = {
    {"souffle", no_argument, NULL, OPT_SOUFFLE},
    {"native", no_argument, NULL, OPT_NATIVE},
    {"facts", required_argument, NULL, 'F'},
    {"output", required_argument, NULL, 'D'},
    {"include-dir", required_argument, NULL, 'I'},
    {"no-preprocessor", no_argument, NULL, OPT_NO_PREPROCESSOR},
    {"max-tuples", required_argument, NULL, OPT_MAX_TUPLES},
    {"max-memory", required_argument, NULL, OPT_MAX_MEMORY},
    {"werror", no_argument, NULL, OPT_WERROR},
    {"explain", required_argument, NULL, OPT_EXPLAIN},
    {"explain-depth", required_argument, NULL, OPT_EXPLAIN_DEPTH},
    {"verbose", no_argument, NULL, 'v'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* What a missing value is called in the usage error. */
static const char *
missing_what(int opt)
{
	return opt == 'F' || opt == 'D' || opt == 'I'
		   ? "missing directory after"
	       : opt == OPT_EXPLAIN ? "missing tuple after"
				    : "missing number after";
}

/* How the option just read was written, for a usage error: its long name
 * when getopt_long matched one (li), "-X" for a short one, else the
 * argument as written for an error (getopt_long has stepped past it, and
 * `last` is it; NULL otherwise). */
static void
option_name(int c, int li, const char *last, char *out, size_t cap)
{
	if (li >= 0)
		(void)snprintf(out, cap, "--%s", long_options[li].name);
	else if (last != NULL && strncmp(last, "--", 2) == 0)
		(void)snprintf(out, cap, "%.*s", (int)strcspn(last, "="), last);
	else if (c > 0 && c < 256)
		(void)snprintf(out, cap, "-%c", c);
	else
		(void)snprintf(out, cap, "%s", last != NULL ? last : "?");
}

/* One option of a command (getopt_long's answer `c`, its value `val`).
 * Returns -1 when it is good, else the exit status. */
static int
take_option(struct options *o, int c, const char *val, const char *arg)
{
	bool run = strcmp(o->command, "run") == 0;

	switch (c) {
	case 'h':
		fputs(usage_text, stdout);
		return RUN_OK;
	case OPT_SOUFFLE:
		o->flags = MAELYS_DATALOG_LOAD_SOUFFLE;
		return -1;
	case OPT_NATIVE:
		o->flags = 0;
		return -1;
	case OPT_NO_PREPROCESSOR:
		o->no_preprocessor = true;
		return -1;
	case 'I':
		if (val[0] == '\0')
			return runner_usage_error("empty directory name after",
						  arg);
		/* o->incdirs has room for every argument (parse_args) */
		o->incdirs[o->nincdirs++] = val;
		return -1;
	case OPT_WERROR:
		if (run)
			return runner_usage_error("run does not take the option", arg);
		o->werror = true;
		return -1;
	default:
		break;
	}
	if (!run)
		return runner_usage_error("check does not take the option", arg);
	switch (c) {
	case 'F':
		o->facts_dir = val;
		return -1;
	case 'D':
		o->out_dir = val;
		return -1;
	case 'v':
		o->verbose = true;
		return -1;
	case OPT_EXPLAIN:
		/* o->explain has room for every argument (parse_args) */
		o->explain[o->nexplain++] = val;
		return -1;
	case OPT_EXPLAIN_DEPTH: {
		char *end = NULL;
		unsigned long v;

		errno = 0;
		v = val[0] >= '0' && val[0] <= '9' ? strtoul(val, &end, 10) : 0;
		if (end == NULL || *end != '\0' || errno != 0 || v == 0 ||
		    v > 10000)
			return runner_usage_error("--explain-depth wants a number "
					   "from 1 to 10000, not",
					   val);
		o->explain_depth = (unsigned)v;
		return -1;
	}
	case OPT_MAX_TUPLES:
		return parse_budget("--max-tuples", val,
				    MAELYS_DATALOG_BUDGET_TUPLES, false,
				    &o->max_tuples) != 0
			   ? RUN_USAGE
			   : -1;
	case OPT_MAX_MEMORY:
		return parse_budget("--max-memory", val,
				    MAELYS_DATALOG_BUDGET_MEMORY, true,
				    &o->max_memory) != 0
			   ? RUN_USAGE
			   : -1;
	default:
		return runner_usage_error("unknown option", arg);
	}
}

/* Returns -1 when the arguments are good, else the exit status.  The
 * command is argv[1]; getopt_long reads what follows it, in any order
 * ("-F DIR", "-FDIR", "--facts=DIR", "--facts DIR"; "--" ends the
 * options; "-" is a program name: standard input). */
int
runner_parse_args(int argc, char **argv, struct options *o)
{
	int c, st;

	memset(o, 0, sizeof *o);
	o->explain_depth = EXPLAIN_DEPTH_DEFAULT;
	o->facts_dir = ".";
	o->out_dir = ".";
	o->flags = MAELYS_DATALOG_LOAD_DETECT_SYNTAX;
	if (argc < 2)
		return runner_usage_error("missing command (run or check)", NULL);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs(usage_text, stdout);
		return RUN_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf(PROGRAM_NAME " %s\n", maelys_datalog_version());
		return RUN_OK;
	}
	if (strcmp(argv[1], "run") != 0 && strcmp(argv[1], "check") != 0)
		return runner_usage_error("unknown command (run or check):", argv[1]);
	o->command = argv[1];
	/* every --explain takes an argument: argc bounds their number */
	o->explain = calloc((size_t)argc, sizeof *o->explain);
	o->incdirs = calloc((size_t)argc, sizeof *o->incdirs);
	if (o->explain == NULL || o->incdirs == NULL)
		return runner_report_error("out of memory");
	opterr = 0; /* the errors below say which option, in our words */
	optind = 1;
	for (;;) {
		char name[80];
		int li = -1;

		c = getopt_long(argc - 1, argv + 1, ":F:D:I:hv", long_options,
				&li);
		if (c == -1)
			break;
		option_name(c == '?' || c == ':' ? optopt : c, li,
			    c == '?' || c == ':' ? argv[optind] : NULL, name,
			    sizeof name);
		if (c == ':')
			return runner_usage_error(missing_what(optopt), name);
		if (c == '?')
			return runner_usage_error("unknown option", name);
		st = take_option(o, c, optarg, name);
		if (st != -1)
			return st;
	}
	for (c = optind + 1; c < argc; c++) {
		if (o->program != NULL)
			return runner_usage_error("more than one program:", argv[c]);
		o->program = argv[c];
	}
	if (o->program == NULL)
		return runner_usage_error("missing program (PROG.dl)", NULL);
	if (o->facts_dir[0] == '\0' || o->out_dir[0] == '\0')
		return runner_usage_error("empty directory name", NULL);
	return -1;
}

