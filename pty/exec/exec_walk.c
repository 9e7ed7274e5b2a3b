/* SPDX-License-Identifier: MIT */
/*
 * Walking an exec's path as the kernel will, one name at a time, to find
 * the file it runs and whether the user could change what it finds
 * (pty_exec.h, pty_exec_walk).
 *
 * Why walk by hand.  The guard decides on the file it finds, then lets
 * the kernel walk the same path again.  If the user can change anything on
 * the way - a name in a directory they can write, a symbolic link they
 * own, the file's own bytes - the kernel may find another file: flip
 * ~/.cache/x between a link to /usr/bin/ls and one to the dynamic loader
 * while a loop runs "~/.cache/x PROG", and the loader, which every
 * Landlock ruleset must let run, maps and runs PROG.  So the walk notes
 * every directory a name is looked up in, every link it follows and the
 * file at the end, and an exec through any of them that the user can
 * change is refused.  What the user cannot change, the kernel finds as
 * the guard found it.
 *
 * "Can change" (the guard has the user's identity, so it asks the kernel):
 *   - a directory a name is looked up in, when the user owns it or may
 *     write it - unless it is sticky (/tmp) and neither it nor the entry
 *     found in it is the user's: then nobody but their owners can rename
 *     or remove the entry (a file there with more than one link may be
 *     the user's own hard link, and does not count as an entry of
 *     someone else's);
 *   - the file, when the user owns it or may write it (its #! line and its
 *     ELF headers are part of the decision).
 * Root is trusted (maelys-pty(1), THREAT MODEL): for uid 0 nothing is
 * "changeable", or no root session could run anything.
 *
 * Links in /proc (/proc/self, /proc/PID/fd/N, and /dev/fd, which leads
 * there) name the files of whoever reads them; read by the guard they
 * would name the guard's own.  A path through one is refused.
 */
#define _GNU_SOURCE
#include "pty_exec.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* The kernel's bound on links followed in one walk (MAXSYMLINKS). */
#define WALK_LINKS_MAX 40

#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif

struct walk {
	char rest[2 * PATH_MAX]; /* what is left to walk, NUL-ended */
	size_t links;
	int dir;        /* where the next name is looked up */
	bool dir_owned; /* ... a descriptor of the walk's own, to close */
	int root;       /* the guard's "/" kept by the caller, or -1 */
	bool user_root; /* the user is root: nothing is "changeable" */
	uid_t uid;      /* the user (the guard's own uid) */
	/* the status of dir, when the step into it took it already */
	struct stat dir_st;
	bool dir_known;
	struct pty_exec_walk *out;
	char *err;
	size_t errlen;
};

/* Where the next name is looked up from now: `fd`, the walk's own to
 * close (owned) or the caller's (the kept root, the start). */
static void
walk_set_dir(struct walk *w, int fd, bool owned)
{
	if (w->dir_owned && w->dir >= 0)
		(void)close(w->dir);
	w->dir = fd;
	w->dir_owned = owned;
}

/* The root: the caller's kept descriptor, or "/" opened.  0, or -1. */
static int
walk_to_root(struct walk *w)
{
	int root = w->root;

	if (root < 0 &&
	    (root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	walk_set_dir(w, root, root != w->root);
	w->dir_known = false;
	return 0;
}

/* The name of one of the guard's descriptors, for a message. */
static void
walk_name(int fd, char *out, size_t cap)
{
	char self[64];
	ssize_t n;

	(void)snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
	n = readlink(self, out, cap - 1);
	if (n <= 0) {
		(void)snprintf(out, cap, "?");
		return;
	}
	out[n] = '\0';
}

/* Whether the user may write the object of `fd` (its owner aside): the
 * kernel's own answer for the guard's identity, which is the user's. */
static bool
walk_writable(int fd)
{
	char self[64];
	long r =
	    syscall(SYS_faccessat2, fd, "", W_OK, AT_EMPTY_PATH | AT_EACCESS);

	if (r == 0)
		return true;
	if (errno != ENOSYS && errno != EINVAL)
		return false;
	/* before Linux 5.8: through the descriptor's own name */
	(void)snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
	return faccessat(AT_FDCWD, self, W_OK, AT_EACCESS) == 0;
}

static bool
walk_users(const struct walk *w, int fd, const struct stat *st)
{
	return !w->user_root && (st->st_uid == w->uid || walk_writable(fd));
}

/* Notes the first thing on the way the user can change. */
static void
walk_unsafe(struct walk *w, int fd, const char *what)
{
	char name[PATH_MAX];

	if (w->out->unsafe[0] != '\0')
		return;
	walk_name(fd, name, sizeof name);
	(void)snprintf(w->out->unsafe, sizeof w->out->unsafe, "%s %s", what,
		       name);
}

/* Looking a name up in w->dir: may the user change what it finds?  `fst`
 * is what it found (not following a final link). */
static void
walk_check_lookup(struct walk *w, const struct stat *fst)
{
	if (w->user_root)
		return;
	if (!w->dir_known) {
		if (fstat(w->dir, &w->dir_st) != 0)
			return;
		w->dir_known = true;
	}
	if (!walk_users(w, w->dir, &w->dir_st))
		return;
	/* sticky, and neither the directory nor the entry is the user's:
	 * only their owners may rename or remove the entry - unless it is a
	 * file with another link, which may be the user's own hard link to
	 * a file they do not own (fs.protected_hardlinks = 0 allows it) */
	if ((w->dir_st.st_mode & S_ISVTX) != 0 && w->dir_st.st_uid != w->uid &&
	    fst->st_uid != w->uid &&
	    (S_ISDIR(fst->st_mode) || fst->st_nlink == 1))
		return;
	walk_unsafe(w, w->dir, "the folder");
}

/* Pops the next name off w->rest into `name`; returns its length (0 when
 * nothing is left).  A name longer than NAME_MAX is ENAMETOOLONG (-1). */
static long
walk_next(struct walk *w, char name[NAME_MAX + 1], bool *more)
{
	char *p = w->rest;
	size_t n;

	while (*p == '/')
		p++;
	n = strcspn(p, "/");
	if (n > NAME_MAX)
		return -1;
	memcpy(name, p, n);
	name[n] = '\0';
	p += n;
	/* a trailing slash asks for a directory, as more names do */
	*more = *p == '/';
	memmove(w->rest, p, strlen(p) + 1);
	return (long)n;
}

/* Follows the link `link` (opened O_PATH | O_NOFOLLOW, its status `lst`):
 * its target goes before what is left to walk.  0, or an errno / REFUSE. */
static int
walk_follow(struct walk *w, int link, const struct stat *lst)
{
	char target[PATH_MAX + 1];
	struct statfs fs;
	size_t tl, rl = strlen(w->rest);
	ssize_t n;

	/* a link of /proc: procfs, like every file system without a block
	 * device, has an anonymous device (major 0), so a link on a disk's
	 * file system needs no fstatfs to tell */
	if (major(lst->st_dev) == 0 && fstatfs(w->dir, &fs) == 0 &&
	    fs.f_type == PROC_SUPER_MAGIC) {
		(void)snprintf(w->err, w->errlen,
			       "its path goes through a link of /proc "
			       "(/proc/self, /dev/fd) that names another "
			       "process's files");
		return PTY_EXEC_READ_REFUSE;
	}
	if (++w->links > WALK_LINKS_MAX)
		return ELOOP;
	n = readlinkat(link, "", target, sizeof target);
	if (n <= 0 || (size_t)n >= sizeof target)
		return n <= 0 ? EACCES : ENAMETOOLONG;
	tl = (size_t)n;
	if (tl + 1 + rl + 1 > sizeof w->rest)
		return ENAMETOOLONG;
	/* "target" alone when nothing followed the link: a slash would ask
	 * for a directory */
	memmove(w->rest + tl + (rl > 0), w->rest, rl + 1);
	memcpy(w->rest, target, tl);
	if (rl > 0)
		w->rest[tl] = '/';
	if (target[0] == '/' && walk_to_root(w) != 0)
		return EACCES;
	return 0;
}

/* One name: look it up, follow a link, step into a directory, or stop at
 * the file.  Returns 0 to go on, 1 at the file (w->out->fd set), an errno
 * or REFUSE. */
static int
walk_step(struct walk *w)
{
	char name[NAME_MAX + 1];
	struct stat st;
	bool more;
	long n = walk_next(w, name, &more);
	int fd, rc;

	if (n < 0)
		return ENAMETOOLONG;
	if (n == 0) {
		/* the path ended in a directory ("/", "dir/") */
		return EACCES;
	}
	if (strcmp(name, ".") == 0 && more)
		return 0;
	fd = openat(w->dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (fstat(fd, &st) != 0) {
		rc = errno;
		(void)close(fd);
		return rc;
	}
	walk_check_lookup(w, &st);
	if (S_ISLNK(st.st_mode)) {
		rc = walk_follow(w, fd, &st);
		(void)close(fd);
		return rc;
	}
	if (S_ISDIR(st.st_mode) && (more || w->rest[0] != '\0')) {
		walk_set_dir(w, fd, true);
		w->dir_st = st;
		w->dir_known = true;
		return 0;
	}
	if (more || w->rest[0] != '\0') {
		(void)close(fd);
		return ENOTDIR;
	}
	if (!S_ISREG(st.st_mode)) {
		(void)close(fd);
		return EACCES; /* what the kernel answers */
	}
	w->out->fd = fd;
	w->out->st = st;
	if (walk_users(w, fd, &st))
		walk_unsafe(w, fd, "the file");
	return 1;
}

int
pty_exec_walk(int root, int start, const char *path, struct pty_exec_walk *out,
	      char *err, size_t errlen)
{
	struct walk w;
	int rc;

	memset(out, 0, sizeof *out);
	out->fd = -1;
	memset(&w, 0, sizeof w);
	w.out = out;
	w.err = err;
	w.errlen = errlen;
	w.uid = getuid();
	w.user_root = w.uid == 0;
	if (path[0] == '\0')
		return ENOENT;
	if (strlen(path) >= PATH_MAX)
		return ENAMETOOLONG;
	(void)snprintf(w.rest, sizeof w.rest, "%s", path);
	w.root = root;
	w.dir = -1;
	if (path[0] == '/' ? walk_to_root(&w) != 0 : start < 0)
		return EACCES;
	if (path[0] != '/')
		walk_set_dir(&w, start, false); /* the caller's */
	do
		rc = walk_step(&w);
	while (rc == 0);
	walk_set_dir(&w, -1, false);
	return rc == 1 ? 0 : rc;
}

int
pty_exec_walk_fd(int file, struct pty_exec_walk *out)
{
	struct walk w;

	memset(out, 0, sizeof *out);
	memset(&w, 0, sizeof w);
	w.out = out;
	w.uid = getuid();
	w.user_root = w.uid == 0;
	out->fd = fcntl(file, F_DUPFD_CLOEXEC, 0);
	if (out->fd < 0 || fstat(out->fd, &out->st) != 0)
		return EBADF;
	if (!S_ISREG(out->st.st_mode))
		return EACCES;
	if (walk_users(&w, out->fd, &out->st))
		walk_unsafe(&w, out->fd, "the file");
	return 0;
}

bool
pty_exec_name_deleted(const char *path)
{
	static const char tail[] = " (deleted)";
	size_t n = strlen(path);

	return n >= sizeof tail - 1 &&
	       memcmp(path + n - (sizeof tail - 1), tail, sizeof tail - 1) == 0;
}

int
pty_exec_walk_name(int selffd, const struct pty_exec_walk *w, char *path,
		   size_t cap, char *err, size_t errlen)
{
	char self[64];
	struct stat pst;
	ssize_t n;

	if (selffd >= 0) {
		(void)snprintf(self, sizeof self, "%d", w->fd);
		n = readlinkat(selffd, self, path, cap - 1);
	} else {
		(void)snprintf(self, sizeof self, "/proc/self/fd/%d", w->fd);
		n = readlink(self, path, cap - 1);
	}
	if (n <= 0 || (size_t)n >= cap - 1) {
		path[0] = '\0';
		(void)snprintf(err, errlen, "its file cannot be named");
		return PTY_EXEC_READ_REFUSE;
	}
	path[n] = '\0';
	/* the name must be the file's: a memfd's is not a path, a deleted
	 * file has no links left, and the name of a file whose dentry was
	 * unlinked (another link may remain) ends in " (deleted)" - as a
	 * real file's name may too, so such a name must lead back to the
	 * very file; any other name is the dentry's current path */
	if (path[0] != '/' || w->st.st_nlink == 0 ||
	    (pty_exec_name_deleted(path) &&
	     (stat(path, &pst) != 0 || pst.st_dev != w->st.st_dev ||
	      pst.st_ino != w->st.st_ino))) {
		path[0] = '\0';
		(void)snprintf(err, errlen,
			       "it runs a file that has no path (deleted, "
			       "memfd or renamed)");
		return PTY_EXEC_READ_REFUSE;
	}
	return 0;
}
