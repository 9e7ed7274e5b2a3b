/* SPDX-License-Identifier: MIT */
/*
 * The files a session's kernel must never execute (exec_never,
 * pty_decide.h), and a Landlock ruleset that grants everything beneath a
 * location but them (pty_supervise.h, its Landlock section).
 *
 * Finding them.  exec_never(P) reads only exec_path and the session facts
 * that stay the same (the load checks it), so it is decided once for each
 * program the guard can find: every regular file with an execute bit in
 * the folders of the session's PATH, in /bin, /sbin, /usr/bin, /usr/sbin,
 * /usr/local/bin and /usr/local/sbin, and in the policy's exec_dir
 * locations (each folder itself, not the folders below it), by its
 * resolved path; and every path exec_never names by itself (a fact, or a
 * rule on the session facts alone).  A file is known by its device and
 * inode: every name it has is refused with it (a rule on one of its names
 * would be a rule on the file).
 *
 * Granting all but them.  Landlock only grants: a rule on a folder lets
 * the kernel execute every file beneath it.  So a location that holds a
 * never-run file is not granted itself: each entry of each folder on the
 * way down to the file is, but the one that leads to it - for "/" minus
 * /usr/bin/systemctl, every entry of "/" but usr, of /usr but bin, of
 * /usr/bin but systemctl.  Symbolic links are given no rule (the kernel
 * checks the file a link leads to), nor anything that is the never-run
 * file or a folder on its way under another name (a hard link, a bind
 * mount of the folder).  A file root adds to such a folder later is
 * beneath no rule: it cannot be executed until the next session.
 */
#define _GNU_SOURCE
#include "pty_supervise.h"

#include "pty_mountinfo.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/landlock.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The folders every session's programs are looked for in, besides PATH's
 * and the exec_dir locations. */
static const char *const never_system_dirs[] = {
    "/bin",      "/sbin",          "/usr/bin",
    "/usr/sbin", "/usr/local/bin", "/usr/local/sbin",
};

void
pty_landlock_never_free(struct pty_landlock_never *set)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		free(set->files[i].path);
	free(set->files);
	free(set->way);
	memset(set, 0, sizeof *set);
}

bool
pty_landlock_never_has(const struct pty_landlock_never *set, dev_t dev,
		       ino_t ino)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (set->files[i].dev == dev && set->files[i].ino == ino)
			return true;
	return false;
}

/* Adds `path` (resolved) of the file `st` to the set.  0, or -1 with err. */
static int
never_add(struct pty_landlock_never *set, const char *path,
	  const struct stat *st, char *err, size_t errlen)
{
	struct pty_landlock_never_file *f;
	size_t i;

	for (i = 0; i < set->n; i++)
		if (strcmp(set->files[i].path, path) == 0)
			return 0;
	if (set->n == PTY_NEVER_FILES_MAX) {
		(void)snprintf(err, errlen,
			       "exec_never holds for more than %d programs",
			       PTY_NEVER_FILES_MAX);
		return -1;
	}
	if (set->n == set->cap) {
		size_t cap = set->cap != 0 ? set->cap * 2 : 16;

		f = reallocarray(set->files, cap, sizeof *f);
		if (f == NULL)
			goto nomem;
		set->files = f;
		set->cap = cap;
	}
	f = &set->files[set->n];
	if ((f->path = strdup(path)) == NULL)
		goto nomem;
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	f->nlink = st->st_nlink;
	set->n++;
	return 0;
nomem:
	(void)snprintf(err, errlen, "no memory for the exec_never programs");
	return -1;
}

/* A candidate: a program's resolved path and its file. */
struct never_cand {
	char *path;
	dev_t dev;
	ino_t ino;
};

/* The candidates, read from the folders, then sorted by path so that each
 * is decided once. */
struct never_found {
	struct never_cand *c;
	size_t n, cap;
	/* the folders read, by device and inode */
	struct {
		dev_t dev;
		ino_t ino;
	} dirs[PTY_RUNNABLE_DIRS_MAX];
	size_t ndirs;
	size_t entries; /* directory entries looked at */
};

static int
never_found_add(struct never_found *f, const char *path, const struct stat *st)
{
	if (f->n == f->cap) {
		size_t cap = f->cap != 0 ? f->cap * 2 : 1024;
		struct never_cand *c = reallocarray(f->c, cap, sizeof *c);

		if (c == NULL)
			return -1;
		f->c = c;
		f->cap = cap;
	}
	if ((f->c[f->n].path = strdup(path)) == NULL)
		return -1;
	f->c[f->n].dev = st->st_dev;
	f->c[f->n].ino = st->st_ino;
	f->n++;
	return 0;
}

static void
never_found_free(struct never_found *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->c[i].path);
	free(f->c);
}

/* Reads the programs of folder `dir` (a folder already read, or one that
 * cannot be opened, is skipped: it holds nothing the kernel could be
 * given that another folder does not).  0, or -1 with err. */
static int
never_read_dir(struct never_found *f, const char *dir, char *err, size_t errlen)
{
	struct dirent *de;
	struct stat st;
	size_t i;
	DIR *d;

	if (dir[0] != '/' || (d = opendir(dir)) == NULL)
		return 0;
	if (fstat(dirfd(d), &st) != 0) {
		(void)closedir(d);
		return 0;
	}
	for (i = 0; i < f->ndirs; i++)
		if (f->dirs[i].dev == st.st_dev && f->dirs[i].ino == st.st_ino)
			break;
	if (i < f->ndirs || f->ndirs == PTY_RUNNABLE_DIRS_MAX) {
		(void)closedir(d);
		if (i < f->ndirs)
			return 0;
		(void)snprintf(err, errlen,
			       "exec_never: more than %u folders to read",
			       PTY_RUNNABLE_DIRS_MAX);
		return -1;
	}
	f->dirs[f->ndirs].dev = st.st_dev;
	f->dirs[f->ndirs++].ino = st.st_ino;
	while ((de = readdir(d)) != NULL) {
		char path[PATH_MAX], real[PATH_MAX];
		int n;

		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (++f->entries > PTY_RUNNABLE_ENTRIES_MAX) {
			(void)closedir(d);
			(void)snprintf(err, errlen,
				       "exec_never: more than %u entries in "
				       "the folders of programs",
				       PTY_RUNNABLE_ENTRIES_MAX);
			return -1;
		}
		/* a program: a regular file with an execute bit, through
		 * its links, as the kernel would open it */
		if (fstatat(dirfd(d), de->d_name, &st, 0) != 0 ||
		    !S_ISREG(st.st_mode) || (st.st_mode & 0111) == 0)
			continue;
		n = snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		if (n < 0 || (size_t)n >= sizeof path ||
		    realpath(path, real) == NULL)
			continue;
		if (never_found_add(f, real, &st) != 0) {
			(void)closedir(d);
			(void)snprintf(err, errlen,
				       "no memory for the exec_never "
				       "programs");
			return -1;
		}
	}
	(void)closedir(d);
	return 0;
}

static int
never_cmp(const void *a, const void *b)
{
	return strcmp(((const struct never_cand *)a)->path,
		      ((const struct never_cand *)b)->path);
}

/* Every other name the never-run files have among the candidates (a
 * hard link in another folder read): refused with them, since a rule on
 * the folder of one would grant the file.  Then the names they have that
 * no folder read shows (st_nlink counts them): said in set->unseen. */
static int
never_other_names(struct pty_landlock_never *set, const struct never_found *f,
		  char *err, size_t errlen)
{
	size_t i, j, n = set->n;

	for (i = 0; i < f->n; i++) {
		struct stat st;

		if ((i > 0 && strcmp(f->c[i].path, f->c[i - 1].path) == 0) ||
		    !pty_landlock_never_has(set, f->c[i].dev, f->c[i].ino))
			continue;
		memset(&st, 0, sizeof st);
		st.st_dev = f->c[i].dev;
		st.st_ino = f->c[i].ino;
		for (j = 0; j < set->n; j++)
			if (set->files[j].dev == st.st_dev &&
			    set->files[j].ino == st.st_ino)
				st.st_nlink = set->files[j].nlink;
		if (never_add(set, f->c[i].path, &st, err, errlen) != 0)
			return -1;
	}
	for (i = 0; i < n; i++) {
		nlink_t names = 0;

		for (j = 0; j < set->n; j++)
			if (set->files[j].dev == set->files[i].dev &&
			    set->files[j].ino == set->files[i].ino)
				names++;
		if (set->files[i].nlink > names && set->unseen[0] == '\0')
			(void)snprintf(set->unseen, sizeof set->unseen, "%s",
				       set->files[i].path);
	}
	return 0;
}

/* pty_never_named's visitor: a path the policy names by itself, kept
 * when it exists. */
struct never_named {
	struct pty_landlock_never *set;
};

static int
never_visit_named(void *arg, const char *path, char *err, size_t errlen)
{
	struct never_named *nn = arg;
	char real[PATH_MAX];
	struct stat st;

	if (path[0] != '/') {
		(void)snprintf(err, errlen,
			       "exec_never(\"%s\"): not an absolute path",
			       path);
		return -1;
	}
	/* what does not exist cannot be executed: nothing to refuse */
	if (realpath(path, real) == NULL || stat(real, &st) != 0 ||
	    !S_ISREG(st.st_mode))
		return 0;
	return never_add(nn->set, real, &st, err, errlen);
}

/* Notes the folders on the way to each never-run file (its path's
 * parents, "/" included) by identity.  0, or -1 with err. */
static int
never_note_way(struct pty_landlock_never *set, char *err, size_t errlen)
{
	size_t i, j;

	for (i = 0; i < set->n; i++) {
		char dir[PATH_MAX], *slash;

		(void)snprintf(dir, sizeof dir, "%s", set->files[i].path);
		while ((slash = strrchr(dir, '/')) != NULL) {
			struct stat st;
			bool root = slash == dir;

			slash[root ? 1 : 0] = '\0';
			if (stat(dir, &st) == 0) {
				for (j = 0; j < set->nway; j++)
					if (set->way[j].dev == st.st_dev &&
					    set->way[j].ino == st.st_ino)
						break;
				if (j == set->nway) {
					void *w = reallocarray(
					    set->way, set->nway + 1,
					    sizeof *set->way);

					if (w == NULL) {
						(void)snprintf(
						    err, errlen,
						    "no memory for the "
						    "exec_never programs");
						return -1;
					}
					set->way = w;
					set->way[set->nway].dev = st.st_dev;
					set->way[set->nway++].ino = st.st_ino;
				}
			}
			if (root)
				break;
		}
	}
	return 0;
}

/* Whether the folder `st` is one on the way to a never-run file, by
 * identity (a folder mounted elsewhere too is the same folder). */
static bool
never_on_the_way(const struct pty_landlock_never *set, const struct stat *st)
{
	size_t i;

	for (i = 0; i < set->nway; i++)
		if (set->way[i].dev == st->st_dev &&
		    set->way[i].ino == st->st_ino)
			return true;
	return false;
}

/* Whether `dir` (a path) and the file or folder `st` are the same. */
static bool
never_same(const char *dir, const struct stat *st)
{
	struct stat ds;

	return stat(dir, &ds) == 0 && ds.st_dev == st->st_dev &&
	       ds.st_ino == st->st_ino;
}

/* The names a mount gives the never-run files besides theirs: a mount
 * point whose mounted folder is one on the way to such a file (a bind
 * mount of /usr/bin at /srv/bin), or the file itself, shows it beneath
 * that point too; each such name is refused with it, and walked the same
 * way (its own folders on the way, and mounts of them), a few rounds
 * deep.  Returns 0, or -1 with err. */
static int
never_mount_names(struct pty_landlock_never *set, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0, round;
	int fd, rc = 0;

	fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (fd < 0 ||
	    pty_read_whole(fd, "/proc/self/mountinfo", PTY_NEVER_MOUNTINFO_MAX,
			   &text, &len, err, errlen) != 0) {
		if (fd < 0)
			(void)snprintf(err, errlen, "/proc/self/mountinfo: %s",
				       strerror(errno));
		if (fd >= 0)
			(void)close(fd);
		return -1;
	}
	(void)close(fd);
	for (round = 0; round < PTY_NEVER_MOUNT_ROUNDS && rc == 0; round++) {
		size_t pos = 0, before = set->n;

		while (pos < len && rc == 0) {
			const char *line = text + pos;
			const char *nl = memchr(line, '\n', len - pos);
			size_t n = nl != NULL ? (size_t)(nl - line) : len - pos;
			struct pty_mount m;
			struct stat st;
			size_t i;

			pos += n + (nl != NULL);
			if (pty_mountinfo_line(line, n, &m) != 0 ||
			    stat(m.point, &st) != 0 ||
			    (!never_on_the_way(set, &st) &&
			     !pty_landlock_never_has(set, st.st_dev,
						     st.st_ino)))
				continue;
			/* which file's path goes through what is mounted */
			for (i = 0; i < before && rc == 0; i++) {
				char at[PATH_MAX], alias[PATH_MAX];
				const char *f = set->files[i].path;
				size_t k = strlen(f);
				struct stat fs;

				for (;;) {
					(void)snprintf(at, sizeof at, "%.*s",
						       (int)(k > 0 ? k : 1), f);
					if (strcmp(at, m.point) != 0 &&
					    never_same(at, &st))
						break;
					if (k == 0)
						break;
					while (k > 0 && f[k - 1] != '/')
						k--;
					if (k > 0)
						k--; /* the slash */
				}
				if (strcmp(at, m.point) == 0 ||
				    !never_same(at, &st))
					continue;
				if (snprintf(alias, sizeof alias, "%s%s",
					     strcmp(m.point, "/") == 0
						 ? ""
						 : m.point,
					     f + k) >= (int)sizeof alias ||
				    stat(alias, &fs) != 0 ||
				    fs.st_dev != set->files[i].dev ||
				    fs.st_ino != set->files[i].ino)
					continue;
				rc = never_add(set, alias, &fs, err, errlen);
			}
		}
		if (rc == 0 && set->n > before)
			rc = never_note_way(set, err, errlen);
		if (set->n == before)
			break;
	}
	free(text);
	return rc;
}

int
pty_landlock_never_find(struct pty_decider *d, enum pty_mode mode,
			const char *const *dirs, size_t ndirs,
			struct pty_landlock_never *set, char *err,
			size_t errlen)
{
	struct never_found f;
	struct never_named nn = {set};
	const char *p;
	size_t i;
	int rc = -1;

	memset(set, 0, sizeof *set);
	if (!pty_never_defined(d))
		return 0;
	memset(&f, 0, sizeof f);
	for (p = d->path_env; p != NULL && *p != '\0';) {
		size_t dl = strcspn(p, ":");
		char dir[PATH_MAX];

		if (dl > 0 && dl < sizeof dir) {
			memcpy(dir, p, dl);
			dir[dl] = '\0';
			if (never_read_dir(&f, dir, err, errlen) != 0)
				goto out;
		}
		p += dl + (p[dl] == ':');
	}
	for (i = 0; i < sizeof never_system_dirs / sizeof never_system_dirs[0];
	     i++)
		if (never_read_dir(&f, never_system_dirs[i], err, errlen) != 0)
			goto out;
	for (i = 0; i < ndirs; i++)
		if (never_read_dir(&f, dirs[i], err, errlen) != 0)
			goto out;
	if (f.n > 1)
		qsort(f.c, f.n, sizeof *f.c, never_cmp);
	for (i = 0; i < f.n; i++) {
		struct stat st;
		bool never;

		if (i > 0 && strcmp(f.c[i].path, f.c[i - 1].path) == 0)
			continue;
		set->decided++;
		if (pty_never_ask(d, mode, f.c[i].path, &never, err, errlen) !=
		    0)
			goto out;
		if (never && stat(f.c[i].path, &st) == 0 &&
		    never_add(set, f.c[i].path, &st, err, errlen) != 0)
			goto out;
	}
	if (pty_never_named(d, mode, never_visit_named, &nn, err, errlen) !=
		0 ||
	    never_other_names(set, &f, err, errlen) != 0 ||
	    never_note_way(set, err, errlen) != 0 ||
	    (set->n > 0 && never_mount_names(set, err, errlen) != 0))
		goto out;
	rc = 0;
out:
	never_found_free(&f);
	if (rc != 0)
		pty_landlock_never_free(set);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Granting a location but the never-run files beneath it.            */

/* What granting one location needs. */
struct never_grant {
	int ruleset;
	const struct pty_landlock_never *set;
	size_t *rules; /* rules added so far, over every location */
	char *err;
	size_t errlen;
};

/* Adds the rule of the file or folder `fd` (O_PATH), already stat'ed. */
static int
never_rule(struct never_grant *g, int fd, const char *what)
{
	struct landlock_path_beneath_attr pb;

	if (*g->rules == PTY_LANDLOCK_RULES_MAX) {
		(void)snprintf(g->err, g->errlen,
			       "the Landlock ruleset would need more than %d "
			       "rules",
			       PTY_LANDLOCK_RULES_MAX);
		return -1;
	}
	memset(&pb, 0, sizeof pb);
	pb.allowed_access = LANDLOCK_ACCESS_FS_EXECUTE;
	pb.parent_fd = fd;
	if (syscall(SYS_landlock_add_rule, g->ruleset,
		    LANDLOCK_RULE_PATH_BENEATH, &pb, 0) != 0) {
		(void)snprintf(g->err, g->errlen, "Landlock rule for %s: %s",
			       what, strerror(errno));
		return -1;
	}
	(*g->rules)++;
	return 0;
}

/* How `name`, an entry of the folder at `path` (resolved, no trailing
 * slash but for "/"), leads to the never-run files: 2 when it is one of
 * them, 1 when it is a folder on the way to one, 0 otherwise. */
static int
never_leads(const struct pty_landlock_never *set, const char *path,
	    const char *name)
{
	size_t plen = strcmp(path, "/") == 0 ? 0 : strlen(path);
	size_t nlen = strlen(name), i;
	int leads = 0;

	for (i = 0; i < set->n; i++) {
		const char *f = set->files[i].path;

		if (strncmp(f, path, plen) != 0 || f[plen] != '/' ||
		    strncmp(f + plen + 1, name, nlen) != 0)
			continue;
		if (f[plen + 1 + nlen] == '\0')
			return 2;
		if (f[plen + 1 + nlen] == '/')
			leads = 1;
	}
	return leads;
}

/* Grants the folder `dir` (O_PATH, at the resolved `path`) but the
 * never-run files beneath it: each entry gets a rule, but those that lead
 * to one, and the folders on the way are granted the same way. */
static int
never_grant_dir(struct never_grant *g, int dir, const char *path, int depth)
{
	struct dirent *de;
	int rc = 0, fd;
	DIR *d;

	if (depth > PTY_NEVER_DEPTH_MAX) {
		(void)snprintf(g->err, g->errlen, "%s: deeper than %d folders",
			       path, PTY_NEVER_DEPTH_MAX);
		return -1;
	}
	fd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || (d = fdopendir(fd)) == NULL) {
		(void)snprintf(g->err, g->errlen, "%s: %s", path,
			       strerror(errno));
		if (fd >= 0)
			(void)close(fd);
		return -1;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		char sub[PATH_MAX];
		struct stat st;
		int leads, e;

		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		leads = never_leads(g->set, path, de->d_name);
		if (leads == 2)
			continue; /* the never-run file itself */
		e = openat(dir, de->d_name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (e < 0)
			continue; /* gone since it was read */
		(void)snprintf(sub, sizeof sub, "%s/%s",
			       strcmp(path, "/") == 0 ? "" : path, de->d_name);
		if (fstat(e, &st) != 0) {
			(void)close(e);
			continue;
		}
		if (leads == 1 && S_ISDIR(st.st_mode))
			rc = never_grant_dir(g, e, sub, depth + 1);
		else if ((S_ISREG(st.st_mode) &&
			  !pty_landlock_never_has(g->set, st.st_dev,
						  st.st_ino)) ||
			 (S_ISDIR(st.st_mode) &&
			  !never_on_the_way(g->set, &st)))
			rc = never_rule(g, e, sub);
		/* else: a link (the kernel checks what it leads to), a
		 * device, a socket, or a never-run file or a folder on
		 * its way by another name: no rule */
		(void)close(e);
	}
	(void)closedir(d);
	return rc;
}

int
pty_landlock_grant(int ruleset, const char *location,
		   const struct pty_landlock_never *set, size_t *rules,
		   char *err, size_t errlen)
{
	struct never_grant g = {ruleset, set, rules, err, errlen};
	char real[PATH_MAX];
	struct stat st;
	size_t i, plen;
	bool holds = false;
	int fd, rc;

	if (location[0] != '/') {
		(void)snprintf(err, errlen,
			       "exec location '%s' is not an absolute path",
			       location);
		return -1;
	}
	/* a location that does not exist is left out: that narrows */
	if (realpath(location, real) == NULL) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		(void)snprintf(err, errlen, "exec location %s: %s", location,
			       strerror(errno));
		return -1;
	}
	fd = open(real, O_PATH | O_CLOEXEC);
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
		return 0;
	if (fd < 0 || fstat(fd, &st) != 0) {
		(void)snprintf(err, errlen, "exec location %s: %s", location,
			       strerror(errno));
		if (fd >= 0)
			(void)close(fd);
		return -1;
	}
	if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
		(void)snprintf(err, errlen,
			       "exec location %s: neither a directory nor a "
			       "regular file",
			       location);
		(void)close(fd);
		return -1;
	}
	if (S_ISREG(st.st_mode)) {
		/* a never-run file is no location */
		rc = pty_landlock_never_has(set, st.st_dev, st.st_ino)
			 ? 0
			 : never_rule(&g, fd, location);
		(void)close(fd);
		return rc;
	}
	plen = strcmp(real, "/") == 0 ? 0 : strlen(real);
	for (i = 0; i < set->n && !holds; i++)
		holds = strncmp(set->files[i].path, real, plen) == 0 &&
			set->files[i].path[plen] == '/';
	rc = holds ? never_grant_dir(&g, fd, real, 0)
		   : never_rule(&g, fd, location);
	(void)close(fd);
	return rc;
}
