/* SPDX-License-Identifier: MIT */
/*
 * What may I run: the executable names of the session's PATH, each decided
 * by pty_decide as the line of just that name (see pty_decide.h).  Reading
 * the directories and deciding are the whole of it; showing the list is
 * session/'s (pty_say_runnable), completing a prefix line/'s.
 */
#include "pty_decide.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The names as they are read: offsets into r->names (the buffer moves as
 * it grows). */
struct runnable_found {
	size_t *at;
	size_t n, cap;
};

static int
runnable_add_name(struct pty_runnable *r, struct runnable_found *f,
		  const char *name, size_t len)
{
	if (f->n == f->cap) {
		size_t cap = f->cap != 0 ? f->cap * 2 : 256;
		size_t *at = reallocarray(f->at, cap, sizeof *at);

		if (at == NULL)
			return -1;
		f->at = at;
		f->cap = cap;
	}
	if (len + 1 > r->names_cap - r->names_len) {
		size_t cap = r->names_cap != 0 ? r->names_cap : 4096;
		char *names;

		while (len + 1 > cap - r->names_len)
			cap *= 2;
		names = realloc(r->names, cap);
		if (names == NULL)
			return -1;
		r->names = names;
		r->names_cap = cap;
	}
	memcpy(r->names + r->names_len, name, len + 1);
	f->at[f->n++] = r->names_len;
	r->names_len += len + 1;
	return 0;
}

/* Whether `name` in the open directory is what the shell would run: a
 * regular file (through a symbolic link, as exec follows it) with an
 * execute bit, that this process may execute (pty_decider_command_path's
 * test). */
static bool
runnable_is_program(DIR *dir, const char *name)
{
	struct stat st;

	return fstatat(dirfd(dir), name, &st, 0) == 0 && S_ISREG(st.st_mode) &&
	       (st.st_mode & 0111) != 0 &&
	       faccessat(dirfd(dir), name, X_OK, 0) == 0;
}

/* Reads the executable names of every directory of PATH into r->names. */
static int
runnable_read_path(const char *path, struct pty_runnable *r,
		   struct runnable_found *f)
{
	/* the directories already read (by device and inode), so that one
	 * named twice in PATH is read once */
	dev_t seen_dev[PTY_RUNNABLE_DIRS_MAX];
	ino_t seen_ino[PTY_RUNNABLE_DIRS_MAX];
	size_t nseen = 0, entries = 0, i;
	const char *p = path;

	while (p != NULL && *p != '\0' && !r->truncated) {
		size_t dl = strcspn(p, ":");
		char dir[PATH_MAX];
		struct dirent *de;
		struct stat st;
		DIR *d;

		if (dl == 0 || dl >= sizeof dir) {
			p += dl + (p[dl] == ':');
			continue;
		}
		memcpy(dir, p, dl);
		dir[dl] = '\0';
		p += dl + (p[dl] == ':');
		if ((d = opendir(dir)) == NULL)
			continue;
		if (fstat(dirfd(d), &st) != 0) {
			(void)closedir(d);
			continue;
		}
		for (i = 0; i < nseen; i++)
			if (seen_dev[i] == st.st_dev && seen_ino[i] == st.st_ino)
				break;
		if (i < nseen || nseen == PTY_RUNNABLE_DIRS_MAX) {
			/* read already; or more directories than a PATH
			 * has: the rest are not read, and the list says so */
			r->truncated = r->truncated || i == nseen;
			(void)closedir(d);
			continue;
		}
		seen_dev[nseen] = st.st_dev;
		seen_ino[nseen++] = st.st_ino;
		while ((de = readdir(d)) != NULL) {
			size_t len = strlen(de->d_name);

			/* every entry costs a stat: a directory of a million
			 * files that are not programs must not stall the
			 * prompt either */
			if (++entries > PTY_RUNNABLE_ENTRIES_MAX) {
				r->truncated = true;
				break;
			}
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0 ||
			    !runnable_is_program(d, de->d_name))
				continue;
			if (f->n == PTY_RUNNABLE_MAX) {
				r->truncated = true;
				break;
			}
			if (runnable_add_name(r, f, de->d_name, len) != 0) {
				(void)closedir(d);
				return -1;
			}
		}
		(void)closedir(d);
	}
	return 0;
}

/* Whether the program the shell would run for `name` is one the policy
 * never runs (exec_never of its resolved path): its line may be allowed,
 * its exec is not.  True on any doubt. */
static bool
runnable_never(struct pty_decider *d, enum pty_mode mode, const char *name,
	       size_t len)
{
	char found[PATH_MAX], real[PATH_MAX], err[256];
	bool never = true;

	if (!pty_never_defined(d))
		return false;
	if (!pty_decider_command_path(d, name, len, found, sizeof found) ||
	    realpath(found, real) == NULL ||
	    pty_never_ask(d, mode, real, &never, err, sizeof err) != 0)
		return true;
	return never;
}

static int
runnable_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pty_runnable_entry *)a)->name,
		      ((const struct pty_runnable_entry *)b)->name);
}

/* Whether the line of just `name` is that name to the shell: one word,
 * accepted, with no metacharacter (bash would read `a=b` as an
 * assignment, `[` as its builtin, `~x` as a home directory). */
static bool
runnable_is_bare_name(const char *name, size_t len)
{
	struct scan_result scan;

	scan_line(name, len, &scan);
	return scan.refusal == SCAN_ACCEPT && scan.metachars == 0 &&
	       scan.ntokens == 1 && scan.tokens[0].len == len;
}

int
pty_runnable_list(struct pty_decider *d, enum pty_mode mode,
		  struct pty_runnable *out)
{
	struct runnable_found f = {NULL, 0, 0};
	struct pty_decision *dec;
	const char *prev = NULL;
	size_t i;

	memset(out, 0, sizeof *out);
	dec = malloc(sizeof *dec);
	if (dec == NULL || runnable_read_path(d->path_env, out, &f) != 0)
		goto fail;
	if (f.n > 0) {
		out->entries = calloc(f.n, sizeof *out->entries);
		if (out->entries == NULL)
			goto fail;
	}
	/* the buffer no longer moves: the offsets become names */
	for (i = 0; i < f.n; i++)
		out->entries[i].name = out->names + f.at[i];
	if (f.n > 1)
		qsort(out->entries, f.n, sizeof *out->entries, runnable_cmp);
	/* kept entries are written over the sorted ones, never ahead of
	 * the one being read */
	for (i = 0; i < f.n; i++) {
		const char *name = out->entries[i].name;
		size_t len = strlen(name);

		/* the same name from a later directory: the shell runs the
		 * first, which is the one command_path names */
		if (prev != NULL && strcmp(name, prev) == 0)
			continue;
		prev = name;
		out->considered++;
		if (!runnable_is_bare_name(name, len))
			continue;
		pty_decide(d, name, len, mode, dec);
		if ((dec->verdict != PTY_VERDICT_ALLOW &&
		     dec->verdict != PTY_VERDICT_ALLOW_LOG &&
		     dec->verdict != PTY_VERDICT_CONFIRM) ||
		    runnable_never(d, mode, name, len))
			continue;
		out->entries[out->n].name = name;
		out->entries[out->n].verdict = dec->verdict;
		out->n++;
	}
	free(f.at);
	free(dec);
	return 0;
fail:
	free(f.at);
	free(dec);
	pty_runnable_free(out);
	return -1;
}

void
pty_runnable_free(struct pty_runnable *r)
{
	free(r->entries);
	free(r->names);
	memset(r, 0, sizeof *r);
}
