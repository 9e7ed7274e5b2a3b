/* SPDX-License-Identifier: MIT */
/*
 * The standalone runner's command line (runner_options.c): its options,
 * its usage, and how it reports an error, for maelys-datalog.c.
 */
#ifndef RUNNER_OPTIONS_H
#define RUNNER_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <maelys/datalog.h>

#define PROGRAM_NAME "maelys-datalog"

enum { RUN_OK = 0, RUN_ERROR = 1, RUN_USAGE = 2 };

struct options {
	const char *command;   /* "run" or "check" */
	const char *program;   /* PROG.dl */
	const char *facts_dir; /* -F, default "." */
	const char *out_dir;   /* -D, default "."; "-" is stdout */
	unsigned flags;        /* maelys_datalog_policy_load_text flags */
	uint64_t max_tuples;   /* 0: the hard maximum */
	uint64_t max_memory;   /* 0: the hard maximum */
	bool werror;           /* check: a warning is an error */
	bool verbose;          /* run: print the load's warnings */
	/* run --explain: the tuples, as written (argv), in order */
	const char **explain;
	size_t nexplain;
	unsigned explain_depth; /* --explain-depth */
	/* -I DIR: where .include (and cpp's #include) look, in order */
	const char **incdirs;
	size_t nincdirs;
	bool no_preprocessor; /* --no-preprocessor: never run cpp */
};

/* Reads argv (the command is argv[1]; getopt_long reads what follows it).
 * Returns -1 when the arguments are good, else the exit status, after
 * saying why or printing what was asked (--help, --version). */
int runner_parse_args(int argc, char **argv, struct options *o);

/* Says what is wrong (unless `what` is NULL: already said) and how to get
 * help; returns RUN_USAGE. */
int runner_usage_error(const char *what, const char *arg);

/* "maelys-datalog: <status name>: <diagnostic message>"; returns
 * RUN_ERROR. */
int runner_report_status(maelys_datalog_status_t st,
			 const maelys_datalog_diagnostic_t *diag);

/* "maelys-datalog: <msg>"; returns RUN_ERROR. */
int runner_report_error(const char *msg);

#endif /* RUNNER_OPTIONS_H */
