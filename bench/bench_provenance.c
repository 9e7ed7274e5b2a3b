/* SPDX-License-Identifier: MIT */
/*
 * bench_provenance: what provenance costs a solve, and what it costs a
 * session that does not ask for it.
 *
 *   bench_provenance MODE N DIR...
 *
 * For each workload directory DIR (bench/peers/gen.py's layout: the program
 * prog.souffle.dl, its .input relations in DIR/rel.facts), loads the program,
 * reads the facts once, then times N solves (solve_edb + result_free, in one
 * session whose budgets are at their hard maximum, after one warm-up solve)
 * and prints "DIR median_us tuples" with the median wall time.  MODE is
 * "off" (a session without MAELYS_DATALOG_SESSION_PROVENANCE) or "on" (with
 * it).  The same source is built twice (bench/meson.build): against the
 * library, and against a peer copy compiled with -DDL_NO_PROVENANCE, which
 * has no provenance code at all; bench/provenance.sh runs them in turn and
 * prints the ratios.
 */
#define _POSIX_C_SOURCE 200809L

#include "facts_io.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <maelys/datalog.h>

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int
die(const char *what, maelys_datalog_status_t st,
    const maelys_datalog_diagnostic_t *diag)
{
	fprintf(stderr, "bench_provenance: %s: %s: %s\n", what,
		maelys_datalog_status_name(st),
		diag != NULL ? diag->message : "");
	return 1;
}

static int
read_inputs(const maelys_datalog_policy_t *policy, const char *dir,
	    maelys_datalog_input_edb_t *edb)
{
	size_t n = maelys_datalog_policy_directive_count(policy), i;
	char err[FACTS_IO_ERROR_MAX], path[4096];

	for (i = 0; i < n; i++) {
		maelys_datalog_directive_t d;

		if (maelys_datalog_policy_get_directive(policy, i, &d) !=
			MAELYS_DATALOG_STATUS_OK ||
		    d.kind != MAELYS_DATALOG_DIRECTIVE_INPUT)
			continue;
		snprintf(path, sizeof path, "%s/%s.facts", dir, d.predicate);
		if (facts_io_read(edb, path, &d, 0u, err, sizeof err) != 0) {
			fprintf(stderr, "bench_provenance: %s\n", err);
			return 1;
		}
	}
	return 0;
}

static int
bench_one(const char *dir, unsigned flags, size_t runs)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_session_t *s = NULL;
	maelys_datalog_input_edb_t *edb = NULL;
	maelys_datalog_status_t st;
	double *t = calloc(runs, sizeof *t);
	char path[4096];
	size_t i, b, tuples = 0;
	int rc = 1;

	snprintf(path, sizeof path, "%s/prog.souffle.dl", dir);
	st = maelys_datalog_policy_load_file(NULL, path, &policy, &diag);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		/* load_file reads the native dialect; the workloads are
		 * Souffle's: read the text and load it with the flag */
		FILE *f = fopen(path, "r");
		char *text = NULL;
		size_t len = 0;

		if (f == NULL)
			return die(path, st, &diag);
		if (getdelim(&text, &len, '\0', f) < 0) {
			fclose(f);
			return die(path, st, &diag);
		}
		fclose(f);
		st = maelys_datalog_policy_load_text(
		    NULL, path, text, strlen(text),
		    MAELYS_DATALOG_LOAD_SOUFFLE, &policy, &diag);
		free(text);
		if (st != MAELYS_DATALOG_STATUS_OK)
			return die(path, st, &diag);
	}
	if (t == NULL ||
	    maelys_datalog_input_edb_create(&edb) != MAELYS_DATALOG_STATUS_OK ||
	    read_inputs(policy, dir, edb) != 0)
		goto out;
	if ((st = maelys_datalog_session_create(policy, flags, &s)) !=
	    MAELYS_DATALOG_STATUS_OK) {
		rc = die("session_create", st, NULL);
		goto out;
	}
	for (b = 0; b < 7; b++) {
		uint64_t max = 0;

		if (maelys_datalog_budget_max((maelys_datalog_budget_t)b,
					      &max) !=
			MAELYS_DATALOG_STATUS_OK ||
		    maelys_datalog_session_set_budget(
			s, (maelys_datalog_budget_t)b, max) !=
			MAELYS_DATALOG_STATUS_OK)
			goto out;
	}
	for (i = 0; i <= runs; i++) {
		maelys_datalog_result_t *res = NULL;
		double t0 = now_us();

		st = maelys_datalog_session_solve_edb(s, edb, &res, &diag);
		if (st != MAELYS_DATALOG_STATUS_OK) {
			rc = die(dir, st, &diag);
			goto out;
		}
		(void)maelys_datalog_result_free(res);
		if (i > 0) /* the first one warms the session's pool */
			t[i - 1] = now_us() - t0;
	}
	qsort(t, runs, sizeof *t, cmp_double);
	printf("%s %.0f\n", dir, t[runs / 2]);
	(void)tuples;
	rc = 0;
out:
	free(t);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_policy_free(policy);
	return rc;
}

int
main(int argc, char **argv)
{
	unsigned flags;
	long runs;
	int i;

	if (argc < 4 || (strcmp(argv[1], "on") != 0 &&
			 strcmp(argv[1], "off") != 0)) {
		fputs("usage: bench_provenance on|off N DIR...\n", stderr);
		return 2;
	}
	flags = strcmp(argv[1], "on") == 0 ? MAELYS_DATALOG_SESSION_PROVENANCE
					    : 0u;
	runs = strtol(argv[2], NULL, 10);
	if (runs < 1 || runs > 100000)
		return 2;
	for (i = 3; i < argc; i++)
		if (bench_one(argv[i], flags, (size_t)runs) != 0)
			return 1;
	return 0;
}
