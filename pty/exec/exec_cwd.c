/* SPDX-License-Identifier: MIT */
/*
 * Naming a directory the guard holds open (pty_exec_cwd_name, pty_exec.h):
 * a process's working directory - the shell's, whose name is the cwd fact
 * of every line (line/relay.c), and an exec's, exec_cwd (exec_read.c).
 *
 * The kernel names a directory (readlink of /proc/PID/cwd, or of
 * /proc/self/fd/N) only while its path fits in a page: a folder about
 * 4096 bytes deep has no name from it (ENAMETOOLONG), though a shell gets
 * there one `cd` at a time.  Up to that, the kernel's answer is taken.
 * Past it, the name is made the way getcwd(3) makes it, within bounds:
 * from the directory up, one ".." at a time, each level's name being the
 * entry of the folder above that is that very directory (the same device
 * and inode, so a mount point is found too), until a folder the kernel
 * names again.  Each call is given one name, so none needs a path longer
 * than PATH_MAX.  The name so made is then checked: that folder's name
 * must still lead to it, and walked down again from it one name at a
 * time (openat, no link followed), the names must end at the directory
 * itself - the same device, inode and mount.  A name is never taken from
 * anything a process says of itself: the shell's $PWD is a variable a
 * line may set.
 *
 * What cannot be named so is not named, and why is said in words a user
 * reads: a path of PTY_CWD_MAX bytes or more; a folder on the way whose
 * entries cannot be read (a name is found among them); a directory
 * removed (the kernel still names it, by its old name with " (deleted)"
 * after it: a folder of that name may exist, and the process is not in
 * it), or moved while it was named; more than CWD_ENTRIES_MAX entries to
 * read.  No other name is ever given instead - an older one,
 * a part of it, or a guess.
 */
#define _GNU_SOURCE
#include "pty_exec.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef STATX_MNT_ID
#define STATX_MNT_ID 0x00001000U
#endif

/* The most directory entries read to name one directory, every level
 * together.  The guard also relays the terminal and answers every exec:
 * a folder of millions of entries on the way must not hold it for
 * seconds.  Only the folders below the last one the kernel names are
 * read, and those are seldom large. */
#define CWD_ENTRIES_MAX ((size_t)1 << 16)

struct cwd_name {
	/* the names below the folder the kernel names, made from the end:
	 * "/a/b/c" is tail[start .. sizeof tail - 1) */
	char tail[PTY_CWD_MAX];
	size_t start;
	size_t limit;   /* the longest name the caller takes, in bytes */
	size_t entries; /* directory entries read so far */
	char *why;
	size_t whylen;
};

static int cwd_fail(struct cwd_name *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
cwd_fail(struct cwd_name *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(c->why, c->whylen, fmt, ap);
	va_end(ap);
	return -1;
}

/* The kernel's name of the directory open at `fd` (read in
 * /proc/self/fd: `selffd`, a descriptor of it, or -1 to go by its path)
 * into out.  Returns 0, or -1 with errno: ENAMETOOLONG when the kernel
 * prints none this long (or out is too short for it). */
static int
cwd_kernel_name(int selffd, int fd, char *out, size_t cap)
{
	char self[64];
	ssize_t n;

	if (selffd >= 0) {
		(void)snprintf(self, sizeof self, "%d", fd);
		n = readlinkat(selffd, self, out, cap - 1);
	} else {
		(void)snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
		n = readlink(self, out, cap - 1);
	}
	if (n >= 0 && (size_t)n >= cap - 1)
		errno = ENAMETOOLONG;
	else if (n > 0 && out[0] != '/')
		errno = ENOENT; /* not a name of the file system */
	if (n <= 0 || (size_t)n >= cap - 1 || out[0] != '/') {
		out[0] = '\0';
		return -1;
	}
	out[n] = '\0';
	return 0;
}

static bool
cwd_same(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Whether the directory open at `dir`, whose name the kernel gave as
 * `name`, was removed: it has no links left, or its name is the one it
 * had, " (deleted)" after it - which another folder may be called, so
 * such a name must lead to the directory itself. */
static bool
cwd_removed(int dir, const char *name)
{
	struct stat st, named;

	if (fstat(dir, &st) != 0 || st.st_nlink == 0)
		return true;
	return pty_exec_name_deleted(name) &&
	       (stat(name, &named) != 0 || !cwd_same(&named, &st));
}

/* Whether `a` and `b` are the same directory seen through the same mount
 * (a bind mount shows one directory at two places, with one device and
 * inode): statx's mount ID, when the kernel gives it (Linux 5.8). */
static bool
cwd_same_place(int a, int b)
{
	struct statx xa, xb;
	unsigned int want = STATX_INO | STATX_MNT_ID;

	if (statx(a, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, want, &xa) != 0 ||
	    statx(b, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, want, &xb) != 0)
		return false;
	if (xa.stx_dev_major != xb.stx_dev_major ||
	    xa.stx_dev_minor != xb.stx_dev_minor || xa.stx_ino != xb.stx_ino)
		return false;
	return (xa.stx_mask & xb.stx_mask & STATX_MNT_ID) == 0 ||
	       xa.stx_mnt_id == xb.stx_mnt_id;
}

/* The name, in the folder `parent` (its status pst), of the directory
 * whose status is `child`.  The first pass trusts an entry's inode number
 * on the folder's own device; the second looks at every folder entry
 * (a mount point's entry holds the number of the folder under the mount,
 * and some file systems give other numbers in their entries).  Returns 0
 * with the name, or -1 with why. */
static int
cwd_find(struct cwd_name *c, int parent, const struct stat *pst,
	 const struct stat *child, char name[NAME_MAX + 1])
{
	int pass;

	for (pass = pst->st_dev == child->st_dev ? 0 : 1; pass < 2; pass++) {
		int fd =
		    openat(parent, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		DIR *d = fd < 0 ? NULL : fdopendir(fd);
		struct dirent *de;
		bool found = false;

		if (d == NULL) {
			int e = errno;

			if (fd >= 0)
				(void)close(fd);
			return cwd_fail(c,
					"a folder above it cannot be read (%s)",
					strerror(e));
		}
		while (!found && (de = readdir(d)) != NULL) {
			struct stat st;

			if (++c->entries > CWD_ENTRIES_MAX) {
				(void)closedir(d);
				return cwd_fail(
				    c,
				    "the folders above it hold more "
				    "than %zu entries to read",
				    CWD_ENTRIES_MAX);
			}
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0 ||
			    (de->d_type != DT_DIR &&
			     de->d_type != DT_UNKNOWN) ||
			    (pass == 0 && de->d_ino != child->st_ino))
				continue;
			if (fstatat(parent, de->d_name, &st,
				    AT_SYMLINK_NOFOLLOW) == 0 &&
			    cwd_same(&st, child) &&
			    strlen(de->d_name) <= NAME_MAX) {
				(void)snprintf(name, NAME_MAX + 1, "%s",
					       de->d_name);
				found = true;
			}
		}
		(void)closedir(d);
		if (found)
			return 0;
	}
	return cwd_fail(c, "it was removed, or moved while it was named");
}

/* Puts "/name" before what c->tail holds.  0, or -1 when the names
 * would be longer than c->limit. */
static int
cwd_prepend(struct cwd_name *c, const char *name)
{
	size_t n = strlen(name), held = sizeof c->tail - 1 - c->start;

	if (n + 1 > c->start || n + 1 > c->limit - held)
		return -1;
	c->start -= n + 1;
	c->tail[c->start] = '/';
	memcpy(c->tail + c->start + 1, name, n);
	return 0;
}

/* Walks c's names down from `top`, one at a time and no link followed:
 * whether they end at the directory `dir`. */
static bool
cwd_leads_to(const struct cwd_name *c, int top, int dir)
{
	const char *p = c->tail + c->start;
	int fd = fcntl(top, F_DUPFD_CLOEXEC, 0);
	bool same;

	while (fd >= 0 && *p == '/') {
		char name[NAME_MAX + 1];
		size_t n = strcspn(p + 1, "/");
		int next;

		if (n == 0 || n > NAME_MAX)
			break;
		memcpy(name, p + 1, n);
		name[n] = '\0';
		next = openat(fd, name,
			      O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		(void)close(fd);
		fd = next;
		p += 1 + n;
	}
	same = fd >= 0 && *p == '\0' && cwd_same_place(fd, dir);
	if (fd >= 0)
		(void)close(fd);
	return same;
}

/* Climbs from `dir` (status st) until a folder the kernel names (its name
 * then in out, the folder in *top), noting each level's name in c.
 * Returns 0, or -1 with why. */
static int
cwd_climb(struct cwd_name *c, int selffd, int dir, struct stat st, char *out,
	  size_t cap, int *top)
{
	int cur = fcntl(dir, F_DUPFD_CLOEXEC, 0);

	*top = -1;
	if (cur < 0)
		return cwd_fail(c, "it cannot be opened (%s)", strerror(errno));
	for (;;) {
		char name[NAME_MAX + 1];
		struct stat pst;
		int rc = 0;
		int parent =
		    openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);

		if (parent < 0 || fstat(parent, &pst) != 0) {
			int e = errno;

			if (parent >= 0)
				(void)close(parent);
			(void)close(cur);
			return e == ENOENT
				   ? cwd_fail(c, "it was removed")
				   : cwd_fail(c,
					      "a folder above it cannot be "
					      "searched (%s)",
					      strerror(e));
		}
		if (cwd_same(&pst, &st))
			/* ".." is itself: a root the kernel does not name */
			rc = cwd_fail(c, "it cannot be named");
		else if (cwd_find(c, parent, &pst, &st, name) != 0)
			rc = -1;
		else if (cwd_prepend(c, name) != 0)
			rc = cwd_fail(c, PTY_CWD_TOO_LONG_FMT, (int)c->limit);
		if (rc != 0) {
			(void)close(parent);
			(void)close(cur);
			return -1;
		}
		(void)close(cur);
		cur = parent;
		st = pst;
		if (cwd_kernel_name(selffd, cur, out, cap) == 0)
			break;
		if (errno != ENAMETOOLONG) {
			int e = errno;

			(void)close(cur);
			return cwd_fail(c,
					"a folder above it cannot be named "
					"(%s)",
					strerror(e));
		}
	}
	*top = cur;
	return 0;
}

int
pty_exec_cwd_name(int selffd, int dir, char *out, size_t cap, char *why,
		  size_t whylen)
{
	struct cwd_name c;
	struct stat st, top_st;
	size_t head, tail;
	int top;

	c.why = why;
	c.whylen = whylen;
	why[0] = '\0';
	if (cap > PTY_CWD_MAX)
		cap = PTY_CWD_MAX;
	if (cwd_kernel_name(selffd, dir, out, cap) == 0) {
		if (!cwd_removed(dir, out))
			return 0;
		out[0] = '\0';
		return cwd_fail(&c, "it was removed");
	}
	if (errno != ENAMETOOLONG)
		return cwd_fail(&c, "it cannot be named (%s)", strerror(errno));
	if (fstat(dir, &st) != 0)
		return cwd_fail(&c, "it cannot be read (%s)", strerror(errno));
	if (st.st_nlink == 0)
		return cwd_fail(&c, "it was removed");
	c.start = sizeof c.tail - 1;
	c.tail[c.start] = '\0';
	c.limit = cap - 1;
	c.entries = 0;
	if (cwd_climb(&c, selffd, dir, st, out, cap, &top) != 0) {
		out[0] = '\0';
		return -1;
	}
	/* the folder's name must still lead to it, and the names below it
	 * to the directory itself */
	if (stat(out, &top_st) != 0 || fstat(top, &st) != 0 ||
	    !cwd_same(&top_st, &st) || !cwd_leads_to(&c, top, dir)) {
		(void)close(top);
		out[0] = '\0';
		return cwd_fail(&c, "it was removed, or moved while it was "
				    "named");
	}
	(void)close(top);
	head = strcmp(out, "/") == 0 ? 0 : strlen(out);
	tail = sizeof c.tail - 1 - c.start;
	if (head + tail > c.limit) {
		out[0] = '\0';
		return cwd_fail(&c, PTY_CWD_TOO_LONG_FMT, (int)c.limit);
	}
	memcpy(out + head, c.tail + c.start, tail + 1);
	return 0;
}
