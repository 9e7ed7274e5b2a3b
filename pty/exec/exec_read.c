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
 *     directory descriptor), walked by the guard one name at a time
 *     (exec_walk.c: the magic links of /proc refused, and whatever the
 *     user could change on the way noted) and named by itself; then what
 *     that file leads to, #! interpreters and the loader's program
 *     (exec_chain.c); checked valid a last time.
 * What the process may still change after the check in its own memory
 * (another thread rewriting the path or argv) is beyond any reader: that
 * takes code of the user's own running in the process, which the threat
 * model of maelys-pty(1) discusses; the kernel-side Landlock rules bound
 * what it can reach (pty/exec/landlock.c).
 */
#define _GNU_SOURCE
#include "pty_supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

/* The request's directory, asking program, and the file its path leads
 * to (pty_exec_walk, from the process's directory or execveat's
 * descriptor, opened through /proc/PID as the process sees them), then
 * everything that file leads to (pty_exec_expand).  0, an errno, or
 * REFUSE / UNSAFE. */
static int
exec_locate(int procdir, const char *raw, bool at, int dirfd, int flags,
	    const struct pty_exec_env *env, struct pty_exec_chain *c, char *err,
	    size_t errlen)
{
	struct pty_exec_request *r = c->rq[0];
	char start[64], base[PATH_MAX], joined[PATH_MAX], kname[PATH_MAX + 64];
	struct pty_exec_walk w;
	int from, cwd, rc;

	if (exec_proc_link(procdir, "cwd", r->cwd, sizeof r->cwd) != 0)
		return exec_fail(err, errlen,
				 "its working directory cannot be named");
	if (exec_proc_link(procdir, "exe", r->parent, sizeof r->parent) != 0)
		r->parent[0] = '\0';
	/* where the path starts: the directory, or execveat's descriptor;
	 * and the name the kernel gives a script's interpreter */
	if (raw[0] == '\0' && !(at && (flags & AT_EMPTY_PATH)))
		return ENOENT; /* what the kernel answers */
	if (raw[0] == '/' || dirfd == AT_FDCWD || !at) {
		(void)snprintf(base, sizeof base, "%s", r->cwd);
		(void)snprintf(start, sizeof start, "cwd");
		(void)snprintf(kname, sizeof kname, "%s", raw);
	} else {
		(void)snprintf(start, sizeof start, "fd/%d", dirfd);
		if (exec_proc_link(procdir, start, base, sizeof base) != 0)
			return EBADF;
		(void)snprintf(kname, sizeof kname, "/dev/fd/%d%s%s", dirfd,
			       raw[0] != '\0' ? "/" : "", raw);
	}
	if (pty_path_normalise("/", base, joined, sizeof joined) != 0 ||
	    pty_path_normalise(joined, raw, r->request, sizeof r->request) !=
		0) {
		/* a descriptor without a path ("memfd:x", "anon_inode:"):
		 * only its own name to show */
		(void)snprintf(r->request, sizeof r->request, "%s", base);
	}
	from = openat(procdir, start, O_PATH | O_CLOEXEC);
	if (from < 0)
		return errno == ENOENT ? ENOENT : EBADF;
	rc = raw[0] == '\0' ? pty_exec_walk_fd(from, &w)
			    : pty_exec_walk(from, raw, &w, err, errlen);
	(void)close(from);
	if (rc == 0)
		rc = pty_exec_walk_name(&w, r->path, sizeof r->path, err,
					errlen);
	if (rc != 0) {
		if (w.fd >= 0)
			(void)close(w.fd);
		return rc;
	}
	/* interpreters are looked up from the process's directory */
	cwd = openat(procdir, "cwd", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cwd < 0) {
		(void)close(w.fd);
		return exec_fail(err, errlen,
				 "its working directory cannot be opened");
	}
	rc = pty_exec_expand(env, cwd, kname, &w, c, err, errlen);
	(void)close(cwd);
	return rc;
}

int
pty_exec_read(int listener, const struct seccomp_notif *n,
	      const struct pty_exec_env *env, struct pty_exec_chain *c,
	      char *err, size_t errlen)
{
	struct pty_exec_request *r = c->rq[0];
	char start[64], raw[PATH_MAX];
	uint64_t path_addr, argv_addr;
	int dirfd = AT_FDCWD, flags = 0, procdir, mem, rc;
	bool at = n->data.nr == SYS_execveat;
	ssize_t plen;

	c->n = 1;
	r->pid = (pid_t)n->pid;
	r->path[0] = r->request[0] = r->cwd[0] = r->parent[0] = '\0';
	r->via = PTY_EXEC_VIA_EXECVE;
	r->through[0] = '\0';
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
		rc = exec_locate(procdir, raw, at, dirfd, flags, env, c, err,
				 errlen);
	(void)close(procdir);
	if (rc != 0)
		return rc;
	if (seccomp_notify_id_valid(listener, n->id) != 0)
		return PTY_EXEC_READ_GONE;
	return 0;
}
