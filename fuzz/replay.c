/* SPDX-License-Identifier: MIT */
/*
 * replay.c - runs a fuzz target over its corpus without libFuzzer.
 *
 *   replay_<target> PATH...
 *
 * Each PATH is a file (one input) or a directory (every regular file in it,
 * in name order so that a run is reproducible).  Linked with one target's
 * LLVMFuzzerTestOneInput, this makes every corpus an ordinary test in any
 * build, gcc included: a crash, a sanitizer report or a contract check of the
 * target fails the test, and the last "replay:" line names the input.  Each
 * input is copied into a buffer of exactly its size, so that a sanitizer
 * build catches reads past the end as libFuzzer would.
 */
#define _POSIX_C_SOURCE 200809L

#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Inputs larger than this are not fuzz inputs; refuse rather than guess. */
#define REPLAY_INPUT_MAX ((size_t)1 << 20)

static int
replay_file(const char *path)
{
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, n;
	FILE *f;

	f = fopen(path, "rb");
	if (f == NULL) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (len == cap) {
			unsigned char *nb;

			if (cap == REPLAY_INPUT_MAX) {
				fprintf(stderr,
					"replay: %s: larger than %zu "
					"bytes\n",
					path, REPLAY_INPUT_MAX);
				goto fail;
			}
			cap = cap == 0 ? 4096 : cap * 2;
			if ((nb = realloc(buf, cap)) == NULL) {
				fprintf(stderr, "replay: out of memory\n");
				goto fail;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		goto fail;
	}
	fclose(f);
	f = NULL;
	/* exactly `len` bytes, so a read past the end is caught */
	{
		unsigned char *exact = malloc(len == 0 ? 1 : len);

		if (exact == NULL) {
			fprintf(stderr, "replay: out of memory\n");
			goto fail;
		}
		if (len > 0)
			memcpy(exact, buf, len);
		free(buf);
		buf = exact;
	}
	printf("replay: %s (%zu bytes)\n", path, len);
	fflush(stdout);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
fail:
	if (f != NULL)
		fclose(f);
	free(buf);
	return -1;
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replays every regular file of `dir`; returns the count, or -1. */
static long
replay_dir(const char *dir)
{
	char **names = NULL, path[4096];
	size_t n = 0, cap = 0, i;
	struct dirent *e;
	struct stat st;
	long done = 0;
	DIR *d;

	if ((d = opendir(dir)) == NULL) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue; /* ., .., and hidden files are not inputs */
		if (n == cap) {
			char **nn;

			cap = cap == 0 ? 64 : cap * 2;
			if ((nn = realloc(names, cap * sizeof *names)) == NULL)
				goto nomem;
			names = nn;
		}
		if ((names[n] = strdup(e->d_name)) == NULL)
			goto nomem;
		n++;
	}
	closedir(d);
	d = NULL;
	if (n > 0)
		qsort(names, n, sizeof *names, compare_names);
	for (i = 0; i < n && done >= 0; i++) {
		int w = snprintf(path, sizeof path, "%s/%s", dir, names[i]);

		if (w < 0 || (size_t)w >= sizeof path) {
			fprintf(stderr, "replay: path too long: %s/%s\n", dir,
				names[i]);
			done = -1;
		} else if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
			continue;
		} else if (replay_file(path) != 0) {
			done = -1;
		} else {
			done++;
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return done;
nomem:
	fprintf(stderr, "replay: out of memory\n");
	if (d != NULL)
		closedir(d);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return -1;
}

int
main(int argc, char **argv)
{
	long total = 0;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE-OR-DIRECTORY...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		struct stat st;
		long n;

		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i],
				strerror(errno));
			return 1;
		}
		n = S_ISDIR(st.st_mode) ? replay_dir(argv[i])
					: (replay_file(argv[i]) == 0 ? 1 : -1);
		if (n < 0)
			return 1;
		total += n;
	}
	/* an empty corpus would pass while testing nothing */
	if (total == 0) {
		fprintf(stderr, "replay: no inputs found\n");
		return 1;
	}
	printf("replay: %ld inputs, all passed\n", total);
	return 0;
}
