/* SPDX-License-Identifier: MIT */
/*
 * Reading what a process asked execve(2)/execveat(2) to run, from its
 * memory and its /proc entries, while the kernel holds it in the seccomp
 * notification (seccomp_unotify(2)):
 *   - /proc/PID/mem is opened, and the notification checked still valid
 *     (SECCOMP_IOCTL_NOTIF_ID_VALID): the PID named the asking process when
 *     the file was opened, not a process that took its number;
 *   - the path and argv are read, bounded (PATH_MAX, PTY_EXEC_ARGS_MAX
 *     entries, PTY_EXEC_BYTES_MAX bytes): more is refused, never decided
 *     on a part; then the notification is checked again, so that what was
 *     read is the request of a process still waiting;
 *   - the directory, the executable of the asking process, and the file
 *     the path leads to from the process's directory (or execveat's
 *     directory descriptor), opened by the guard with every link followed
 *     but the magic links of /proc, and named by itself (exec_resolve);
 *     checked valid a last time.
 * What the process may still change after the check (another thread
 * rewriting the path) is beyond any reader: the kernel-side Landlock rules
 * bound it (pty/landlock.c).
 */
#define _GNU_SOURCE
#include "pty_supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <seccomp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define EXEC_PAGE 4096u

/* Reads up to `n` bytes at `addr` of the process, never across a page
 * that is not mapped: a string ends before the end of its mapping.
 * Returns the bytes read (0 at an unreadable address), -1 on error. */
static ssize_t
exec_peek(int mem, uint64_t addr, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		size_t chunk = EXEC_PAGE - (size_t)((addr + got) % EXEC_PAGE);
		ssize_t r;

		if (chunk > n - got)
			chunk = n - got;
		r = pread(mem, (char *)buf + got, chunk, (off_t)(addr + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* A NUL-terminated string of at most cap - 1 bytes at addr into buf.
 * Returns its length, or -1 (unreadable, or longer than cap - 1). */
static ssize_t
exec_peek_string(int mem, uint64_t addr, char *buf, size_t cap)
{
	size_t got = 0;

	while (got < cap) {
		size_t chunk = EXEC_PAGE - (size_t)((addr + got) % EXEC_PAGE);
		ssize_t r;
		char *nul;

		/* most strings are short: a small first read, then pages */
		if (got == 0 && chunk > 256)
			chunk = 256;
		if (chunk > cap - got)
			chunk = cap - got;
		r = exec_peek(mem, addr + got, buf + got, chunk);
		if (r <= 0)
			return -1;
		nul = memchr(buf + got, '\0', (size_t)r);
		if (nul != NULL)
			return nul - buf;
		got += (size_t)r;
		if ((size_t)r < chunk)
			return -1;
	}
	return -1;
}

/* readlink(2) of `link` into out; 0, or -1. */
static int
exec_link(const char *link, char *out, size_t cap)
{
	ssize_t n = readlink(link, out, cap - 1);

	if (n <= 0 || (size_t)n >= cap - 1)
		return -1;
	out[n] = '\0';
	return 0;
}

/* readlinkat(2) of NAME in the process's /proc directory; 0, or -1.
 * Every entry is reached through one descriptor of /proc/PID, opened
 * once: a new process's /proc entries are looked up slowly, and a
 * descriptor of a process that is gone fails rather than name another. */
static int
exec_proc_link(int procdir, const char *name, char *out, size_t cap)
{
	ssize_t n = readlinkat(procdir, name, out, cap - 1);

	if (n <= 0 || (size_t)n >= cap - 1)
		return -1;
	out[n] = '\0';
	return 0;
}

static int
exec_fail(char *err, size_t errlen, const char *what)
{
	(void)snprintf(err, errlen, "%s", what);
	return PTY_EXEC_READ_REFUSE;
}

/* The argv array at `addr` into r (bounded). */
static int
exec_read_argv(int mem, uint64_t addr, struct pty_exec_request *r, char *err,
	       size_t errlen)
{
	uint64_t ptrs[64];
	size_t used = 0, have = 0, next = 0;

	r->argc = 0;
	if (addr == 0)
		return 0; /* Linux runs a NULL argv as an empty one */
	for (;;) {
		ssize_t len;

		if (next == have) {
			/* the pointers, 64 at a time (one pread, not one
			 * each), as far as their mapping goes */
			ssize_t got = exec_peek(mem, addr + 8 * r->argc, ptrs,
						sizeof ptrs);

			if (got < (ssize_t)sizeof ptrs[0])
				return exec_fail(err, errlen,
						 "its argument list cannot be "
						 "read");
			have = (size_t)got / sizeof ptrs[0];
			next = 0;
		}
		if (ptrs[next] == 0)
			return 0;
		if (r->argc == PTY_EXEC_ARGS_MAX)
			return exec_fail(err, errlen,
					 "more arguments than the supervisor "
					 "reads (4096)");
		len = exec_peek_string(mem, ptrs[next++], r->bytes + used,
				       sizeof r->bytes - used);
		if (len < 0)
			return exec_fail(err, errlen,
					 used + PATH_MAX >= sizeof r->bytes
					     ? "its arguments are longer than "
					       "the supervisor reads (256 KiB)"
					     : "an argument cannot be read");
		r->argv[r->argc] = r->bytes + used;
		r->argv_len[r->argc] = (size_t)len;
		r->argc++;
		used += (size_t)len + 1;
	}
}

static bool
exec_ends_deleted(const char *path)
{
	static const char tail[] = " (deleted)";
	size_t n = strlen(path);

	return n >= sizeof tail - 1 &&
	       memcmp(path + n - (sizeof tail - 1), tail, sizeof tail - 1) == 0;
}

/* Opens what the kernel would execute - `raw` from the process's starting
 * point `start` ("cwd" or "fd/N" of /proc/PID, opened here, as the
 * process sees them) - and names it.  The guard walks the path itself, so
 * a link whose meaning depends on who reads it would mean the guard's:
 * the walk refuses magic links (/proc/self/cwd, /proc/PID/fd/N, /dev/fd/N),
 * and a path through one is refused.  The name is the opened file's own
 * (/proc/self/fd of the guard), and a file without one (deleted, memfd) is
 * refused: the policy decides on the file that runs, not on a name.
 * Returns 0 with r->path set, an errno to answer, or REFUSE. */
static int
exec_resolve(int procdir, const char *start, const char *raw,
	     struct pty_exec_request *r, char *err, size_t errlen)
{
	struct open_how how;
	struct stat fst, pst;
	char self[64];
	int dir, fd, e;

	/* an absolute path starts at the root the guard shares with the
	 * session (chroot is refused): no directory to open for it */
	dir = raw[0] == '/' ? AT_FDCWD
			    : openat(procdir, start, O_PATH | O_CLOEXEC);
	if (dir < 0 && dir != AT_FDCWD)
		return errno == ENOENT ? ENOENT : EBADF;
	memset(&how, 0, sizeof how);
	how.flags = O_PATH | O_CLOEXEC;
	how.resolve = RESOLVE_NO_MAGICLINKS;
	if (raw[0] == '\0')
		fd = dup(dir); /* execveat(fd, "", AT_EMPTY_PATH) */
	else
		fd = (int)syscall(SYS_openat2, dir, raw, &how, sizeof how);
	e = errno;
	if (fd < 0 && e == ELOOP) {
		/* too many links, or a magic one: only the latter resolves
		 * when magic links are allowed */
		how.resolve = 0;
		fd = (int)syscall(SYS_openat2, dir, raw, &how, sizeof how);
		if (dir >= 0)
			(void)close(dir);
		if (fd < 0)
			return ELOOP;
		(void)close(fd);
		return exec_fail(err, errlen,
				 "its path goes through a link of /proc "
				 "(/proc/self, /dev/fd) that names another "
				 "process's files");
	}
	if (dir >= 0)
		(void)close(dir);
	if (fd < 0)
		return e == ENOENT || e == ENOTDIR || e == ENAMETOOLONG ||
			       e == EACCES
			   ? e
			   : exec_fail(err, errlen,
				       "its path cannot be resolved");
	(void)snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
	if (fstat(fd, &fst) != 0 ||
	    exec_link(self, r->path, sizeof r->path) != 0) {
		(void)close(fd);
		return exec_fail(err, errlen, "its file cannot be named");
	}
	(void)close(fd);
	if (!S_ISREG(fst.st_mode))
		return EACCES; /* what the kernel answers */
	/* the name must be the file's: a memfd's is not a path, a deleted
	 * file has no links left, and the name of a file whose dentry was
	 * unlinked (another link may remain) ends in " (deleted)" - as a
	 * real file's name may too, so such a name must lead back to the
	 * very file; any other name is the dentry's current path */
	if (r->path[0] != '/' || fst.st_nlink == 0 ||
	    (exec_ends_deleted(r->path) &&
	     (stat(r->path, &pst) != 0 || pst.st_dev != fst.st_dev ||
	      pst.st_ino != fst.st_ino))) {
		r->path[0] = '\0';
		return exec_fail(err, errlen,
				 "it runs a file that has no path (deleted, "
				 "memfd or renamed)");
	}
	return 0;
}

/* The request's directory, asking program and file (exec_resolve), read
 * through the process's /proc directory.  0, an errno, or REFUSE. */
static int
exec_locate(int procdir, const char *raw, bool at, int dirfd, int flags,
	    struct pty_exec_request *r, char *err, size_t errlen)
{
	char start[64], base[PATH_MAX], joined[PATH_MAX];

	if (exec_proc_link(procdir, "cwd", r->cwd, sizeof r->cwd) != 0)
		return exec_fail(err, errlen,
				 "its working directory cannot be named");
	if (exec_proc_link(procdir, "exe", r->parent, sizeof r->parent) != 0)
		r->parent[0] = '\0';
	/* where the path starts: the directory, or execveat's descriptor */
	if (raw[0] == '\0' && !(at && (flags & AT_EMPTY_PATH)))
		return ENOENT; /* what the kernel answers */
	if (raw[0] == '/' || dirfd == AT_FDCWD || !at) {
		(void)snprintf(base, sizeof base, "%s", r->cwd);
		(void)snprintf(start, sizeof start, "cwd");
	} else {
		(void)snprintf(start, sizeof start, "fd/%d", dirfd);
		if (exec_proc_link(procdir, start, base, sizeof base) != 0)
			return EBADF;
	}
	if (pty_path_normalise("/", base, joined, sizeof joined) != 0 ||
	    pty_path_normalise(joined, raw, r->request, sizeof r->request) !=
		0) {
		/* a descriptor without a path ("memfd:x", "anon_inode:"):
		 * only its own name to show */
		(void)snprintf(r->request, sizeof r->request, "%s", base);
	}
	return exec_resolve(procdir, start, raw, r, err, errlen);
}

int
pty_exec_read(int listener, const struct seccomp_notif *n,
	      struct pty_exec_request *r, char *err, size_t errlen)
{
	char start[64], raw[PATH_MAX];
	uint64_t path_addr, argv_addr;
	int dirfd = AT_FDCWD, flags = 0, procdir, mem, rc;
	bool at = n->data.nr == SYS_execveat;
	ssize_t plen;

	r->pid = (pid_t)n->pid;
	r->path[0] = r->request[0] = r->cwd[0] = r->parent[0] = '\0';
	r->argc = 0;
	if (at) {
		dirfd = (int)n->data.args[0];
		path_addr = n->data.args[1];
		argv_addr = n->data.args[2];
		flags = (int)n->data.args[4];
	} else {
		path_addr = n->data.args[0];
		argv_addr = n->data.args[1];
	}
	(void)snprintf(start, sizeof start, "/proc/%d", (int)r->pid);
	procdir = open(start, O_PATH | O_DIRECTORY | O_CLOEXEC);
	mem = procdir < 0 ? -1 : openat(procdir, "mem", O_RDONLY | O_CLOEXEC);
	if (mem < 0) {
		int e = errno;

		if (procdir >= 0)
			(void)close(procdir);
		if (seccomp_notify_id_valid(listener, n->id) != 0)
			return PTY_EXEC_READ_GONE;
		(void)snprintf(err, errlen,
			       "its memory cannot be read (%s): a program "
			       "that made itself undumpable cannot start "
			       "others in a supervised session",
			       strerror(e));
		return PTY_EXEC_READ_REFUSE;
	}
	if (seccomp_notify_id_valid(listener, n->id) != 0) {
		(void)close(mem);
		(void)close(procdir);
		return PTY_EXEC_READ_GONE;
	}
	plen = exec_peek_string(mem, path_addr, raw, sizeof raw);
	rc = plen < 0 ? exec_fail(err, errlen,
				  "its path cannot be read or is longer "
				  "than PATH_MAX")
		      : exec_read_argv(mem, argv_addr, r, err, errlen);
	(void)close(mem);
	if (seccomp_notify_id_valid(listener, n->id) != 0)
		rc = PTY_EXEC_READ_GONE;
	if (rc == 0)
		rc =
		    exec_locate(procdir, raw, at, dirfd, flags, r, err, errlen);
	(void)close(procdir);
	if (rc != 0)
		return rc;
	if (seccomp_notify_id_valid(listener, n->id) != 0)
		return PTY_EXEC_READ_GONE;
	return 0;
}
