/* SPDX-License-Identifier: MIT */
/*
 * Reading the path and argv of an exec request from the asking process's
 * memory (pty_supervise.h, pty_exec_read_args), two ways:
 *   - process_vm_readv(2), several pieces in one call: the path and the
 *     first argv pointers in one, then the strings they point to, 64 at a
 *     time, in another; each piece within one page, so that a piece is
 *     read whole or not at all (a partial answer, and the read goes the
 *     other way);
 *   - /proc/PID/mem, one pread(2) per piece, page by page (how it was read
 *     before, and what it falls back to: a process that does not let the
 *     call read it (EPERM), a page it cannot read but the file can (a
 *     PROT_NONE mapping: the file reads with FOLL_FORCE, the call does
 *     not, EFAULT), a bound reached (the file way says which), a kernel
 *     without the call (ENOSYS).
 * Both keep the bounds of pty_exec.h (a path under PATH_MAX, at most
 * PTY_EXEC_ARGS_MAX entries and PTY_EXEC_BYTES_MAX bytes of argv): more is
 * refused, never decided on a part, and both read the same request.  A
 * path read whole to PATH_MAX bytes without its end is ENAMETOOLONG, the
 * kernel's own answer to it (the file way tells it apart from a path it
 * cannot read).
 * Neither proves that the PID still names the asking process: the caller
 * checks the notification valid after reading (exec_read.c), so what was
 * read is discarded unless the process still waits in its exec - while
 * it waits, its PID cannot name another.
 */
#define _GNU_SOURCE
#include "pty_supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#define MEM_PAGE  4096u
#define MEM_BATCH 64  /* argv pointers, and strings, per call */
#define MEM_FIRST 256 /* the first piece of a string (most are short) */

/* Bytes from addr to the end of its page. */
static size_t
mem_to_page_end(uint64_t addr)
{
	return MEM_PAGE - (size_t)(addr % MEM_PAGE);
}

static int
mem_refuse(char *err, size_t errlen, const char *what)
{
	(void)snprintf(err, errlen, "%s", what);
	return PTY_EXEC_READ_REFUSE;
}

/* ------------------------------------------------------------------ */
/* process_vm_readv                                                    */

/* Reads the n pieces; 0 when every byte of them was read, else -1. */
static int
vm_read(pid_t pid, struct iovec *local, struct iovec *remote, size_t n)
{
	size_t total = 0, i;
	ssize_t got;

	for (i = 0; i < n; i++)
		total += local[i].iov_len;
	do
		got = process_vm_readv(pid, local, n, remote, n, 0);
	while (got < 0 && errno == EINTR);
	return got >= 0 && (size_t)got == total ? 0 : -1;
}

static void
vm_piece(struct iovec *local, struct iovec *remote, void *buf, uint64_t addr,
	 size_t len)
{
	local->iov_base = buf;
	local->iov_len = len;
	remote->iov_base = (void *)(uintptr_t)addr;
	remote->iov_len = len;
}

/* The rest of the string at addr whose first `have` bytes, without a NUL,
 * are in buf: page by page, at most cap - 1 bytes in all.  Its length,
 * or -1 (unreadable, or longer). */
static ssize_t
vm_string_rest(pid_t pid, uint64_t addr, char *buf, size_t have, size_t cap)
{
	while (have < cap) {
		size_t chunk = mem_to_page_end(addr + have);
		struct iovec l, rm;
		char *nul;

		if (chunk > cap - have)
			chunk = cap - have;
		vm_piece(&l, &rm, buf + have, addr + have, chunk);
		if (vm_read(pid, &l, &rm, 1) != 0)
			return -1;
		nul = memchr(buf + have, '\0', chunk);
		if (nul != NULL)
			return nul - buf;
		have += chunk;
	}
	return -1;
}

/* Keeps the string just placed at r->bytes + *used as argv[argc]. */
static void
vm_keep(struct pty_exec_request *r, size_t *used, size_t len)
{
	r->argv[r->argc] = r->bytes + *used;
	r->argv_len[r->argc++] = len;
	*used += len + 1;
}

/* The strings of `count` argv pointers, in calls of up to MEM_BATCH
 * pieces: each string's first piece goes into r->bytes past the last
 * one's, then they are moved together; a string longer than its piece is
 * read on alone, and the batch starts again after it.  0, or -1. */
static int
vm_read_strings(pid_t pid, const uint64_t *ptrs, size_t count,
		struct pty_exec_request *r, size_t *used)
{
	size_t i = 0;

	while (i < count) {
		struct iovec l[MEM_BATCH], rm[MEM_BATCH];
		size_t n, j, at = *used;

		for (n = 0; i + n < count && n < MEM_BATCH; n++) {
			size_t len = mem_to_page_end(ptrs[i + n]);

			if (len > MEM_FIRST)
				len = MEM_FIRST;
			if (len > sizeof r->bytes - at)
				len = sizeof r->bytes - at;
			if (len == 0)
				break;
			vm_piece(&l[n], &rm[n], r->bytes + at, ptrs[i + n],
				 len);
			at += len;
		}
		if (n == 0 || vm_read(pid, l, rm, n) != 0)
			return -1;
		for (j = 0; j < n; j++) {
			char *dst = r->bytes + *used, *src = l[j].iov_base;
			char *nul = memchr(src, '\0', l[j].iov_len);
			ssize_t len;

			/* dst <= src: each piece holds its string whole */
			memmove(dst, src, l[j].iov_len);
			len = nul != NULL
				  ? nul - src
				  : vm_string_rest(pid, ptrs[i + j], dst,
						   l[j].iov_len,
						   sizeof r->bytes - *used);
			if (len < 0)
				return -1;
			vm_keep(r, used, (size_t)len);
			if (nul == NULL) {
				j++;
				break; /* the next pieces were overwritten */
			}
		}
		i += j;
	}
	return 0;
}

/* argv from its pointers: `have` of them already in ptrs (read with the
 * path), the next read MEM_BATCH at a time within a page.  0, or -1. */
static int
vm_read_argv(pid_t pid, uint64_t addr, uint64_t *ptrs, size_t have,
	     struct pty_exec_request *r)
{
	size_t used = 0;

	for (;;) {
		size_t k = 0;

		if (have == 0) {
			uint64_t at = addr + 8 * r->argc;
			size_t len = mem_to_page_end(at);
			struct iovec l, rm;

			if (len > MEM_BATCH * 8)
				len = MEM_BATCH * 8;
			len -= len % 8;
			vm_piece(&l, &rm, ptrs, at, len);
			if (len == 0 || vm_read(pid, &l, &rm, 1) != 0)
				return -1;
			have = len / 8;
		}
		while (k < have && ptrs[k] != 0)
			k++;
		if (r->argc + k > PTY_EXEC_ARGS_MAX)
			return -1; /* the file way says so */
		if (k > 0 && vm_read_strings(pid, ptrs, k, r, &used) != 0)
			return -1;
		if (k < have)
			return 0; /* the NULL that ends argv */
		have = 0;
	}
}

/* Both by process_vm_readv (raw NULL: argv alone; r NULL: the path
 * alone): the path and the first argv pointers in one call, then the
 * strings.  0, or -1: read them the other way. */
static int
vm_read_args(pid_t pid, uint64_t path_addr, uint64_t argv_addr, char *raw,
	     struct pty_exec_request *r)
{
	uint64_t ptrs[MEM_BATCH];
	struct iovec l[2], rm[2];
	size_t plen = mem_to_page_end(path_addr), alen = 0, n = 0;

	if (plen > PATH_MAX)
		plen = PATH_MAX;
	if (raw != NULL) {
		vm_piece(&l[n], &rm[n], raw, path_addr, plen);
		n++;
	}
	if (r != NULL && argv_addr != 0) {
		alen = mem_to_page_end(argv_addr);
		if (alen > sizeof ptrs)
			alen = sizeof ptrs;
		alen -= alen % 8;
		if (alen == 0)
			return -1;
		vm_piece(&l[n], &rm[n], ptrs, argv_addr, alen);
		n++;
	}
	if (r != NULL)
		r->argc = 0;
	if (n > 0 && vm_read(pid, l, rm, n) != 0)
		return -1;
	if (raw != NULL && memchr(raw, '\0', plen) == NULL &&
	    vm_string_rest(pid, path_addr, raw, plen, PATH_MAX) < 0)
		return -1;
	/* Linux runs a NULL argv as an empty one */
	return r == NULL || argv_addr == 0
		   ? 0
		   : vm_read_argv(pid, argv_addr, ptrs, alen / 8, r);
}

/* ------------------------------------------------------------------ */
/* /proc/PID/mem                                                       */

/* Reads up to `n` bytes at `addr` of the process, never across a page
 * that is not mapped: a string ends before the end of its mapping.
 * Returns the bytes read (0 at an unreadable address). */
static ssize_t
file_peek(int mem, uint64_t addr, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		size_t chunk = mem_to_page_end(addr + got);
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
 * Returns its length, -1 when it cannot be read, or -2 when cap bytes
 * were read and none is its NUL (it is longer). */
static ssize_t
file_peek_string(int mem, uint64_t addr, char *buf, size_t cap)
{
	size_t got = 0;

	while (got < cap) {
		size_t chunk = mem_to_page_end(addr + got);
		ssize_t r;
		char *nul;

		/* most strings are short: a small first read, then pages */
		if (got == 0 && chunk > MEM_FIRST)
			chunk = MEM_FIRST;
		if (chunk > cap - got)
			chunk = cap - got;
		r = file_peek(mem, addr + got, buf + got, chunk);
		if (r <= 0)
			return -1;
		nul = memchr(buf + got, '\0', (size_t)r);
		if (nul != NULL)
			return nul - buf;
		got += (size_t)r;
		if ((size_t)r < chunk)
			return -1;
	}
	return -2;
}

/* The argv array at `addr` into r (bounded). */
static int
file_read_argv(int mem, uint64_t addr, struct pty_exec_request *r, char *err,
	       size_t errlen)
{
	uint64_t ptrs[MEM_BATCH];
	size_t used = 0, have = 0, next = 0;

	r->argc = 0;
	if (addr == 0)
		return 0; /* Linux runs a NULL argv as an empty one */
	for (;;) {
		ssize_t len;

		if (next == have) {
			/* the pointers, 64 at a time (one pread, not one
			 * each), as far as their mapping goes */
			ssize_t got = file_peek(mem, addr + 8 * r->argc, ptrs,
						sizeof ptrs);

			if (got < (ssize_t)sizeof ptrs[0])
				return mem_refuse(err, errlen,
						  "its argument list cannot be "
						  "read");
			have = (size_t)got / sizeof ptrs[0];
			next = 0;
		}
		if (ptrs[next] == 0)
			return 0;
		if (r->argc == PTY_EXEC_ARGS_MAX)
			return mem_refuse(err, errlen,
					  "more arguments than the supervisor "
					  "reads (4096)");
		len = file_peek_string(mem, ptrs[next++], r->bytes + used,
				       sizeof r->bytes - used);
		if (len < 0)
			return mem_refuse(err, errlen,
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

/* Both through /proc/PID/mem (raw NULL: argv alone; r NULL: the path
 * alone). */
static int
file_read_args(struct pty_exec_proc *p, uint64_t path_addr, uint64_t argv_addr,
	       char *raw, struct pty_exec_request *r, char *err, size_t errlen)
{
	int dir = pty_exec_proc_dir(p), rc;
	int mem = dir < 0 ? -1 : openat(dir, "mem", O_RDONLY | O_CLOEXEC);

	if (r != NULL)
		r->argc = 0;
	if (mem < 0) {
		(void)snprintf(err, errlen,
			       "its memory cannot be read (%s): a program "
			       "that made itself undumpable cannot start "
			       "others in a supervised session",
			       strerror(errno));
		return PTY_EXEC_READ_REFUSE;
	}
	if (raw != NULL &&
	    (rc = (int)file_peek_string(mem, path_addr, raw, PATH_MAX)) < 0)
		/* longer: what the kernel answers, and nothing it would run */
		rc = rc == -2
			 ? ENAMETOOLONG
			 : mem_refuse(err, errlen, "its path cannot be read");
	else
		rc = r == NULL ? 0
			       : file_read_argv(mem, argv_addr, r, err, errlen);
	(void)close(mem);
	return rc;
}

int
pty_exec_read_args(struct pty_exec_proc *p, uint64_t path_addr,
		   uint64_t argv_addr, enum pty_exec_mem how, char *raw,
		   struct pty_exec_request *r, char *err, size_t errlen)
{
	if (how != PTY_EXEC_MEM_FILE &&
	    vm_read_args(p->pid, path_addr, argv_addr, raw, r) == 0)
		return 0;
	if (how == PTY_EXEC_MEM_VM)
		return mem_refuse(err, errlen,
				  "process_vm_readv cannot read it");
	return file_read_args(p, path_addr, argv_addr, raw, r, err, errlen);
}
