/* SPDX-License-Identifier: MIT */
/*
 * The recording's file (pty_record.h): created safely in its folder,
 * bounded by its limit, digested as it is written (libsodium's
 * incremental SHA-256: the digest that session_end carries is of the
 * bytes handed to write(2), in order, so it is computed without reading
 * the file back), and synced at the end.
 */
#define _GNU_SOURCE

#include "pty_record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

/* What is kept at the end of the limit for the last marker. */
#define RECORD_RESERVE 128
#define RECORD_BUF     65536
/* The least limit that leaves room for a header and the last marker. */
#define RECORD_MAX_MIN ((unsigned long long)64 << 10)
#define RECORD_STOP_LABEL "recording stopped: record_max reached"

/* The header is encoded into the event buffer. */
_Static_assert(PTY_RECORD_HEADER_MAX <= PTY_RECORD_EVENT_MAX,
	       "the header must fit the event buffer");

struct pty_record {
	int fd;
	/* bytes: handed to write(2), and digested; what is buffered is
	 * not yet (used) */
	unsigned long long max, bytes;
	crypto_hash_sha256_state sha;
	struct pty_record_carry carry_o, carry_i;
	/* stopped: at the limit (limited), on a write error (failed), or
	 * because the room was refused (refused) */
	bool stopped, limited, failed, refused;
	pty_record_room_fn room; /* NULL: every write may be */
	void *room_ctx;
	uint64_t last_us; /* of the last event */
	size_t used; /* of buf */
	char buf[RECORD_BUF];
	char ev[PTY_RECORD_EVENT_MAX];
};

static void record_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
record_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

int
pty_record_flush(struct pty_record *r, char *err, size_t errlen)
{
	size_t off = 0;

	if (r->used == 0)
		return 0;
	if (r->room != NULL &&
	    r->room(r->room_ctx, r->bytes, r->used, err, errlen) != 0) {
		/* not written, not digested, not counted: the file ends
		 * with what was written before */
		r->stopped = r->refused = true;
		r->used = 0;
		return PTY_RECORD_REFUSED;
	}
	/* what is handed to write(2) is digested, written or not: a file
	 * that a failed write left short does not match */
	(void)crypto_hash_sha256_update(&r->sha, (const unsigned char *)r->buf,
					r->used);
	r->bytes += r->used;
	while (off < r->used) {
		ssize_t n = write(r->fd, r->buf + off, r->used - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			record_err(err, errlen, "recording: write: %s",
				   n < 0 ? strerror(errno) : "no progress");
			r->stopped = r->failed = true;
			r->used = 0;
			return -1;
		}
		off += (size_t)n;
	}
	r->used = 0;
	return 0;
}

/* Appends bytes to the file through the buffer.  Returns 0, or what
 * pty_record_flush returned. */
static int
record_put(struct pty_record *r, const char *s, size_t n, char *err,
	   size_t errlen)
{
	int rc;

	if (r->used + n > sizeof r->buf &&
	    (rc = pty_record_flush(r, err, errlen)) != 0)
		return rc;
	while (n > sizeof r->buf) { /* an event longer than the buffer */
		memcpy(r->buf, s, sizeof r->buf);
		r->used = sizeof r->buf;
		if ((rc = pty_record_flush(r, err, errlen)) != 0)
			return rc;
		s += sizeof r->buf;
		n -= sizeof r->buf;
	}
	memcpy(r->buf + r->used, s, n);
	r->used += n;
	return 0;
}

/* What the file holds, what is buffered included. */
static unsigned long long
record_size(const struct pty_record *r)
{
	return r->bytes + r->used;
}

/* The folder: opened without following a link, its owner this process
 * (the audit account) or root, writable by nobody else. */
static int
record_open_dir(const char *dir, char *err, size_t errlen)
{
	struct stat st;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		int e = errno;

		/* O_DIRECTORY may say ENOTDIR of a link before O_NOFOLLOW
		 * says ELOOP */
		record_err(err, errlen, "recording folder %s: %s", dir,
			   (e == ELOOP || e == ENOTDIR) &&
				   lstat(dir, &st) == 0 && S_ISLNK(st.st_mode)
			       ? "is a symbolic link"
			       : strerror(e));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		record_err(err, errlen, "recording folder %s: %s", dir,
			   strerror(errno));
	} else if (st.st_uid != geteuid() && st.st_uid != 0) {
		record_err(err, errlen,
			   "recording folder %s: owned by uid %lu, not by the "
			   "audit account (uid %lu) or root",
			   dir, (unsigned long)st.st_uid,
			   (unsigned long)geteuid());
	} else if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
		record_err(err, errlen,
			   "recording folder %s: writable by group or others "
			   "(mode %04o)",
			   dir, (unsigned)(st.st_mode & 07777));
	} else {
		return fd;
	}
	(void)close(fd);
	return -1;
}

/* The header line (pty_record_encode_header). */
static int
record_header(struct pty_record *r, const struct pty_record_header *h,
	      char *err, size_t errlen)
{
	size_t n = pty_record_encode_header(h, r->ev);

	if (n == 0) {
		record_err(err, errlen, "recording: bad header");
		return -1;
	}
	return record_put(r, r->ev, n, err, errlen);
}

int
pty_record_open(const char *dir, const char *name, unsigned long long max,
		const struct pty_record_header *h, struct pty_record **out,
		char *err, size_t errlen)
{
	struct pty_record *r;
	int dfd;

	*out = NULL;
	if (name[0] == '\0' || strchr(name, '/') != NULL ||
	    strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		record_err(err, errlen, "recording: bad file name");
		return -1;
	}
	if (max < RECORD_MAX_MIN || sodium_init() < 0) {
		record_err(err, errlen, "recording: bad limit");
		return -1;
	}
	if (!pty_record_size_valid(h->width, h->height)) {
		record_err(err, errlen,
			   "recording: the terminal's size %ux%u is not %u to "
			   "%u columns and rows",
			   h->width, h->height, PTY_RECORD_SIZE_MIN,
			   PTY_RECORD_SIZE_MAX);
		return -1;
	}
	if ((r = calloc(1, sizeof *r)) == NULL) {
		record_err(err, errlen, "recording: out of memory");
		return -1;
	}
	r->max = max;
	(void)crypto_hash_sha256_init(&r->sha);
	if ((dfd = record_open_dir(dir, err, errlen)) < 0) {
		free(r);
		return -1;
	}
	r->fd = openat(dfd, name,
		       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC |
			   O_NOCTTY,
		       0600);
	if (r->fd < 0) {
		record_err(err, errlen, "recording %s/%s: %s", dir, name,
			   strerror(errno));
		(void)close(dfd);
		free(r);
		return -1;
	}
	(void)close(dfd);
	if (record_header(r, h, err, errlen) != 0 ||
	    pty_record_flush(r, err, errlen) != 0) {
		(void)close(r->fd);
		free(r);
		return -1;
	}
	*out = r;
	return 0;
}

/* The limit is reached: the last marker, in the room kept for it. */
static int
record_stop(struct pty_record *r, uint64_t t_us, char *err, size_t errlen)
{
	size_t n = pty_record_encode_event(t_us, 'm', RECORD_STOP_LABEL,
					   strlen(RECORD_STOP_LABEL), NULL,
					   r->ev);

	int rc;

	r->stopped = r->limited = true;
	if (record_size(r) + n <= r->max &&
	    (rc = record_put(r, r->ev, n, err, errlen)) != 0)
		return rc;
	return 1;
}

int
pty_record_event(struct pty_record *r, uint64_t t_us, char kind,
		 const void *data, size_t len, char *err, size_t errlen)
{
	const char *s = data;
	struct pty_record_carry *carry =
	    kind == 'o' ? &r->carry_o : kind == 'i' ? &r->carry_i : NULL;
	int rc;

	do {
		size_t k = len < PTY_RECORD_CHUNK_MAX ? len
						      : PTY_RECORD_CHUNK_MAX;
		size_t n;

		if (r->stopped)
			return r->failed    ? -1
			       : r->refused ? PTY_RECORD_REFUSED
					    : 1;
		r->last_us = t_us;
		n = pty_record_encode_event(t_us, kind, s, k, carry, r->ev);
		if (n == 0) {
			record_err(err, errlen, "recording: bad event");
			return -1;
		}
		if (record_size(r) + n > r->max - RECORD_RESERVE)
			return record_stop(r, t_us, err, errlen);
		if ((rc = record_put(r, r->ev, n, err, errlen)) != 0)
			return rc;
		s += k;
		len -= k;
	} while (len > 0);
	return 0;
}

void
pty_record_stop(struct pty_record *r)
{
	r->stopped = true;
}

void
pty_record_set_room(struct pty_record *r, pty_record_room_fn room,
		    void *ctx)
{
	r->room = room;
	r->room_ctx = ctx;
}

unsigned long long
pty_record_bytes(const struct pty_record *r)
{
	return r->bytes;
}

size_t
pty_record_buffered(const struct pty_record *r)
{
	return r->used;
}

bool
pty_record_stopped(const struct pty_record *r)
{
	return r->stopped;
}

/* A character a stream left unfinished at its end: U+FFFD, at the time
 * of the last event, when there is room. */
static void
record_unfinished(struct pty_record *r, char kind,
		  struct pty_record_carry *carry, char *err, size_t errlen)
{
	size_t n;

	if (r->stopped || carry->n == 0)
		return;
	n = pty_record_encode_event(r->last_us, kind, carry->b, carry->n,
				    NULL, r->ev);
	carry->n = 0;
	if (record_size(r) + n <= r->max)
		(void)record_put(r, r->ev, n, err, errlen);
}

int
pty_record_close(struct pty_record *r, unsigned long long *bytes,
		 char sha256[65], bool *complete, char *err, size_t errlen)
{
	unsigned char d[crypto_hash_sha256_BYTES];
	bool refused = r->refused;
	int rc;

	/* a character a stream left unfinished: U+FFFD, at the time of
	 * the last event (an event, not dropped: the output ended so) */
	record_unfinished(r, 'o', &r->carry_o, err, errlen);
	record_unfinished(r, 'i', &r->carry_i, err, errlen);
	rc = pty_record_flush(r, err, errlen);
	if (rc != 0 && rc != PTY_RECORD_REFUSED)
		rc = -1;
	if (rc == 0 && r->refused && !refused)
		rc = PTY_RECORD_REFUSED; /* refused while the unfinished
					  * characters went in */
	if (fdatasync(r->fd) != 0 && rc == 0) {
		record_err(err, errlen, "recording: fdatasync: %s",
			   strerror(errno));
		r->failed = true;
		rc = -1;
	}
	if (close(r->fd) != 0 && rc == 0) {
		record_err(err, errlen, "recording: close: %s",
			   strerror(errno));
		r->failed = true;
		rc = -1;
	}
	(void)crypto_hash_sha256_final(&r->sha, d);
	sodium_bin2hex(sha256, 65, d, sizeof d);
	*bytes = r->bytes;
	*complete = !r->stopped && !r->failed;
	sodium_memzero(r, sizeof *r);
	free(r);
	return rc;
}
