/* SPDX-License-Identifier: MIT */
/*
 * bench_mayrun.c - what `help`, --list and Tab completion cost: the list of
 * what may run (pty_runnable_list) for a PATH of N executables, against N
 * calls of pty_decide on the same names (the peer: the list is N decisions
 * plus reading the directories, sorting and removing duplicates).
 *
 *   bench_mayrun [-n NAMES] [-r RUNS] POLICY.dl ...
 *
 * Makes a PATH of two directories in a temporary directory: NAMES
 * executables in the first (cmd0000 ..., and shutdown, bash, python3 that
 * level1.dl refuses), a tenth of them again in the second (duplicates), a
 * file without an execute bit and a directory.  For each policy, RUNS rounds
 * of: the list, then the same number of pty_decide calls, in turn; prints the
 * median, min and max of each in milliseconds, and the ratio of the medians.
 * Every list is checked: its length must be the same each round.
 */
#include "pty_decide.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NAMES_MAX 100000

static double
now_ms(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void
make_file(const char *dir, const char *name, mode_t mode)
{
	char path[4200];
	FILE *f;

	(void)snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f == NULL || fputs("#!/bin/sh\nexit 0\n", f) < 0 ||
	    fclose(f) != 0 || chmod(path, mode) != 0) {
		fprintf(stderr, "bench_mayrun: %s: %s\n", path,
			strerror(errno));
		exit(1);
	}
}

/* The names decided by the peer: those of the first directory. */
static char (*names)[16];

static void
make_path(char *root, size_t names_n, char *path_env, size_t cap)
{
	static const char *const refused[] = {"shutdown", "bash", "python3"};
	char d1[4096], d2[4096];
	size_t i;

	if (mkdtemp(root) == NULL) {
		perror("bench_mayrun: mkdtemp");
		exit(1);
	}
	(void)snprintf(d1, sizeof d1, "%s/bin", root);
	(void)snprintf(d2, sizeof d2, "%s/bin2", root);
	if (mkdir(d1, 0755) != 0 || mkdir(d2, 0755) != 0) {
		perror("bench_mayrun: mkdir");
		exit(1);
	}
	for (i = 0; i < names_n; i++) {
		if (i < sizeof refused / sizeof refused[0])
			(void)snprintf(names[i], sizeof names[i], "%s",
				       refused[i]);
		else
			(void)snprintf(names[i], sizeof names[i], "cmd%05zu",
				       i);
		make_file(d1, names[i], 0755);
		if (i % 10 == 0)
			make_file(d2, names[i], 0755);
	}
	make_file(d1, "notexec", 0644);
	(void)snprintf(d2 + strlen(d2), sizeof d2 - strlen(d2), "/adir");
	(void)mkdir(d2, 0755);
	(void)snprintf(path_env, cap, "%s/bin:%s/bin2", root, root);
}

static int
bench_policy(const char *policy, const char *path_env, size_t names_n,
	     size_t runs)
{
	maelys_datalog_session_t *session = NULL;
	struct pty_policy_reads reads;
	struct pty_decision *dec = malloc(sizeof *dec);
	double *t_list = calloc(runs, sizeof *t_list);
	double *t_dec = calloc(runs, sizeof *t_dec);
	struct pty_decider d;
	size_t r, i, listed = 0;
	char err[1024];

	if (dec == NULL || t_list == NULL || t_dec == NULL) {
		fprintf(stderr, "bench_mayrun: out of memory\n");
		return 1;
	}
	if (pty_policy_open(policy, &session, &reads, err, sizeof err) != 0 ||
	    pty_decider_init(&d, session, &reads, path_env) != 0) {
		fprintf(stderr, "bench_mayrun: %s: %s\n", policy, err);
		return 1;
	}
	for (r = 0; r < runs + 1; r++) {
		struct pty_runnable list;
		double t0 = now_ms(), t1, t2;

		if (pty_runnable_list(&d, PTY_MODE_INTERACTIVE, &list) != 0) {
			fprintf(stderr, "bench_mayrun: out of memory\n");
			return 1;
		}
		t1 = now_ms();
		for (i = 0; i < names_n; i++)
			pty_decide(&d, names[i], strlen(names[i]),
				   PTY_MODE_INTERACTIVE, dec);
		t2 = now_ms();
		if (r > 0 && list.n != listed) {
			fprintf(stderr, "bench_mayrun: the list changed\n");
			return 1;
		}
		listed = list.n;
		pty_runnable_free(&list);
		if (r == 0)
			continue; /* warm-up: the page cache, the interner */
		t_list[r - 1] = t1 - t0;
		t_dec[r - 1] = t2 - t1;
	}
	{
		double ml, md;

		ml = median(t_list, runs);
		md = median(t_dec, runs);
		printf("%-28s %6zu %6zu  %8.2f %8.2f %8.2f  %8.2f %8.2f "
		       "%8.2f  %5.2f\n",
		       strrchr(policy, '/') ? strrchr(policy, '/') + 1 : policy,
		       names_n, listed, ml, t_list[0], t_list[runs - 1], md,
		       t_dec[0], t_dec[runs - 1], ml / md);
	}
	pty_decider_free(&d);
	(void)maelys_datalog_session_free(session);
	free(dec);
	free(t_list);
	free(t_dec);
	return 0;
}

int
main(int argc, char **argv)
{
	size_t names_n = 2000, runs = 15;
	char root[] = "/tmp/bench-mayrun.XXXXXX", path_env[8500], cmd[64];
	int c, rc = 0;

	while ((c = getopt(argc, argv, "n:r:")) != -1) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(optarg, &end, 10);
		if (errno != 0 || *end != '\0' || v == 0 || v > NAMES_MAX) {
			fprintf(stderr, "bench_mayrun: bad -%c %s\n", c,
				optarg);
			return 2;
		}
		if (c == 'n')
			names_n = v;
		else if (c == 'r')
			runs = v;
		else
			return 2;
	}
	if (optind == argc) {
		fprintf(stderr, "usage: bench_mayrun [-n NAMES] [-r RUNS] "
				"POLICY.dl ...\n");
		return 2;
	}
	names = calloc(names_n, sizeof *names);
	if (names == NULL)
		return 1;
	make_path(root, names_n, path_env, sizeof path_env);
	printf("what may I run: the list of a PATH of N executables against "
	       "N pty_decide calls\n(%zu runs after one warm-up; ms; ratio of "
	       "the medians)\n\n",
	       runs);
	printf("%-28s %6s %6s  %8s %8s %8s  %8s %8s %8s  %5s\n", "policy", "N",
	       "listed", "list p50", "min", "max", "dec p50", "min", "max",
	       "ratio");
	for (; optind < argc && rc == 0; optind++)
		rc = bench_policy(argv[optind], path_env, names_n, runs);
	(void)snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "bench_mayrun: could not remove %s\n", root);
	free(names);
	return rc;
}
