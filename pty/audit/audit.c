/* SPDX-License-Identifier: MIT */
/*
 * The audit log itself (pty_audit.h): opening the log and its key, and
 * appending a record - a body from audit_encode.c framed with seq, time,
 * prev and mac - chained to the last line of the file under an exclusive
 * flock(2), with one write(2) and fdatasync(2).  Only the process that
 * owns the log does this: in a session that is the audit writer
 * (audit_writer.c), never the guard the user runs.  SHA-256 and
 * HMAC-SHA-256 come from libsodium (audit_key.c); the last line is read
 * back with audit_parse (audit_record.c), the whole log checked by
 * audit_verify.c.
 */
#define _GNU_SOURCE

#include "audit_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Whether the file's group is its owner's own (primary) group. */
static bool
audit_owners_group(const struct stat *st)
{
	struct passwd *pw = getpwuid(st->st_uid);

	return pw != NULL && pw->pw_gid == st->st_gid;
}

/* A log that someone else could change is no record: the file must be
 * this process's own (the audit account's, in a deployment) or root's,
 * and writable by nobody else.  Character devices (/dev/null, /dev/full)
 * are accepted for tests and for administrators who send records
 * elsewhere. */
static int
audit_check_log(const char *log_path, const struct stat *st, char *err,
		size_t errlen)
{
	if (S_ISCHR(st->st_mode))
		return 0;
	if (!S_ISREG(st->st_mode)) {
		audit_err(err, errlen,
			  "audit log %s: not a regular file or character "
			  "device",
			  log_path);
		return -1;
	}
	if (st->st_uid != geteuid() && st->st_uid != 0) {
		audit_err(err, errlen,
			  "audit log %s: owned by uid %lu, not by the audit "
			  "account (uid %lu) or root",
			  log_path, (unsigned long)st->st_uid,
			  (unsigned long)geteuid());
		return -1;
	}
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) != 0) {
		audit_err(err, errlen,
			  "audit log %s: writable by group or others (mode "
			  "%04o)",
			  log_path, (unsigned)(st->st_mode & 07777));
		return -1;
	}
	/* one user's records are no other user's business: read by the
	 * owner, or by the owner's own group (the audit account's) only */
	if ((st->st_mode & S_IROTH) != 0 ||
	    ((st->st_mode & S_IRGRP) != 0 && !audit_owners_group(st))) {
		audit_err(err, errlen,
			  "audit log %s: readable by %s (mode %04o, group %lu)",
			  log_path,
			  (st->st_mode & S_IROTH) != 0
			      ? "others"
			      : "a group that is not the audit account's",
			  (unsigned)(st->st_mode & 07777),
			  (unsigned long)st->st_gid);
		return -1;
	}
	return 0;
}

int
pty_audit_open(const char *log_path, const char *key_path,
	       struct pty_audit **out, char *err, size_t errlen)
{
	struct pty_audit *a;
	struct stat st;
	int flags, saved;

	if ((a = audit_handle_begin(log_path, key_path, out, err, errlen)) ==
	    NULL)
		return -1;
	/* the key first, so that a bad key creates no log file */
	if (audit_key_load(key_path, &a->mac, err, errlen) != 0)
		goto fail;
	a->tail = malloc(PTY_AUDIT_LINE_MAX + 1);
	a->rec = malloc(PTY_AUDIT_LINE_MAX);
	if (a->tail == NULL || a->rec == NULL) {
		audit_err(err, errlen, "audit log: out of memory");
		goto fail;
	}
	/* O_NONBLOCK only for the open (a device must not hang it); a new
	 * log is readable by its owner only: root reads it, and the
	 * records of one user are none of another's business */
	a->fd = open(log_path,
		     O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
			 O_NOCTTY | O_NONBLOCK,
		     0600);
	if (a->fd < 0) {
		saved = errno;
		audit_err(err, errlen, "audit log %s: %s", log_path,
			  saved == ELOOP ? "is a symbolic link"
					 : strerror(saved));
		goto fail;
	}
	if (fstat(a->fd, &st) != 0) {
		saved = errno;
		audit_err(err, errlen, "audit log %s: %s", log_path,
			  strerror(saved));
		goto fail;
	}
	if (audit_check_log(log_path, &st, err, errlen) != 0)
		goto fail;
	flags = fcntl(a->fd, F_GETFL);
	if (flags < 0 || fcntl(a->fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
		saved = errno;
		audit_err(err, errlen, "audit log %s: %s", log_path,
			  strerror(saved));
		goto fail;
	}
	a->pid = getpid();
	*out = a;
	return 0;
fail:
	pty_audit_close(a);
	return -1;
}

struct pty_audit *
audit_handle_begin(const char *log_path, const char *key_path,
		   struct pty_audit **out, char *err, size_t errlen)
{
	struct pty_audit *a;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (out == NULL) {
		audit_err(err, errlen, "audit log: no handle to fill");
		return NULL;
	}
	*out = NULL;
	if (log_path == NULL || key_path == NULL) {
		audit_err(err, errlen, "audit log: no path");
		return NULL;
	}
	if ((a = audit_handle_new()) == NULL)
		audit_err(err, errlen, "audit log: out of memory");
	return a;
}

struct pty_audit *
audit_handle_new(void)
{
	struct pty_audit *a = calloc(1, sizeof *a);

	if (a == NULL)
		return NULL;
	a->fd = a->sock = -1;
	a->body = malloc(AUDIT_BODY_MAX);
	if (a->body == NULL) {
		free(a);
		return NULL;
	}
	return a;
}

void
pty_audit_close(struct pty_audit *a)
{
	if (a == NULL)
		return;
	audit_writer_disconnect(a);
	if (a->fd >= 0)
		(void)close(a->fd);
	audit_mac_free(a->mac); /* wipes the keyed HMAC state */
	free(a->tail);
	free(a->rec);
	free(a->body);
	sodium_memzero(a, sizeof *a);
	free(a);
}

/* The last `want` bytes of the log into a->tail.  0, or -1 with err. */
static int
audit_read_tail(struct pty_audit *a, off_t size, size_t want, char *err,
		size_t errlen)
{
	off_t off = size - (off_t)want;
	size_t got = 0;

	while (got < want) {
		ssize_t n =
		    pread(a->fd, a->tail + got, want - got, off + (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int saved = errno;

			audit_err(err, errlen, "audit log: reading its end: %s",
				  strerror(saved));
			return -1;
		}
		if (n == 0) {
			audit_err(err, errlen, "audit log: shrank");
			return -1;
		}
		got += (size_t)n;
	}
	return 0;
}

/* The last line of the log (without its newline), read under the lock:
 * the last 4 KiB first - records are mostly far shorter - and only when
 * the line starts before them, the last PTY_AUDIT_LINE_MAX + 1 bytes. */
static int
audit_last_line(struct pty_audit *a, off_t size, const char **line, size_t *len,
		char *err, size_t errlen)
{
	size_t most = (uintmax_t)size > PTY_AUDIT_LINE_MAX
			  ? PTY_AUDIT_LINE_MAX + 1
			  : (size_t)size;
	size_t want = most < 4096 ? most : 4096;
	const char *nl;

	for (;;) {
		if (audit_read_tail(a, size, want, err, errlen) != 0)
			return -1;
		if (a->tail[want - 1] != '\n') {
			audit_err(err, errlen,
				  "audit log: its last record is torn (no "
				  "newline at the end); check it with "
				  "--verify-log");
			return -1;
		}
		nl = memrchr(a->tail, '\n', want - 1);
		if (nl != NULL) {
			*line = nl + 1;
			break;
		}
		if ((off_t)want == size) {
			*line = a->tail; /* the log's only line */
			break;
		}
		if (want == most) {
			audit_err(err, errlen,
				  "audit log: its last record is longer than "
				  "%zu bytes",
				  PTY_AUDIT_LINE_MAX);
			return -1;
		}
		want = most;
	}
	*len = (size_t)(a->tail + want - 1 - *line);
	return 0;
}

/* "2026-12-02T15:04:05.123Z" (the size only quiets -Wformat-truncation:
 * every field is in range) */
#define AUDIT_TIME_SIZE 80

static int
audit_now(char out[AUDIT_TIME_SIZE])
{
	struct timespec ts;
	struct tm tm;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0 ||
	    gmtime_r(&ts.tv_sec, &tm) == NULL || tm.tm_year < -1900 ||
	    tm.tm_year > 9999 - 1900)
		return -1;
	(void)snprintf(out, AUDIT_TIME_SIZE,
		       "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
		       tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
		       tm.tm_sec, (int)(ts.tv_nsec / 1000000));
	return 0;
}

/* Frames `body` as record `seq` into a->rec: {"v":1,"seq":N,"time":T, the
 * body, "prev", then "mac" over every byte before it.  Returns 0 (*len
 * set), 1 when it does not fit, -1 when the HMAC fails. */
static int
audit_frame(struct pty_audit *a, const char *body, size_t body_len,
	    uint64_t seq, const unsigned char prev[AUDIT_MAC_LEN],
	    const char *when, size_t *len)
{
	unsigned char mac[AUDIT_MAC_LEN];
	char hex[2 * AUDIT_MAC_LEN + 1];
	int n;

	/* the mac covers every byte up to the "," after prev */
	audit_hex(prev, AUDIT_MAC_LEN, hex);
	n = snprintf(a->rec, PTY_AUDIT_LINE_MAX,
		     "{\"v\":1,\"seq\":%" PRIu64 ",\"time\":\"%s\"", seq, when);
	if (n < 0 || body_len > PTY_AUDIT_LINE_MAX - (size_t)n -
				    (AUDIT_MAC_TAIL + 1) - (10 + 64 + 1))
		return 1;
	memcpy(a->rec + n, body, body_len);
	*len = (size_t)n + body_len;
	*len += (size_t)snprintf(a->rec + *len, PTY_AUDIT_LINE_MAX - *len,
				 ",\"prev\":\"%s\",", hex);
	if (audit_hmac(a->mac, a->rec, *len, mac) != 0)
		return -1;
	audit_hex(mac, AUDIT_MAC_LEN, hex);
	*len += (size_t)snprintf(a->rec + *len, PTY_AUDIT_LINE_MAX - *len,
				 "\"mac\":\"%s\"}\n", hex);
	return 0;
}

/* The seq and prev of the next record: from the last line of the log. */
static int
audit_next(struct pty_audit *a, const struct stat *st, uint64_t *seq,
	   unsigned char prev[AUDIT_MAC_LEN], char *err, size_t errlen)
{
	struct audit_record last;
	const char *line = "";
	size_t len = 0;
	char why[160];

	*seq = 1;
	/* a character device (/dev/full, /dev/null) has no records to read */
	if (S_ISREG(st->st_mode) && st->st_size > 0) {
		if (audit_last_line(a, st->st_size, &line, &len, err, errlen) !=
		    0)
			return -1;
		if (audit_parse(line, len, &last, why, sizeof why) != 0) {
			audit_err(err, errlen,
				  "audit log: its last record %s; check it "
				  "with --verify-log",
				  why);
			return -1;
		}
		if (last.seq >= AUDIT_SEQ_MAX) {
			audit_err(err, errlen, "audit log: seq is exhausted");
			return -1;
		}
		*seq = last.seq + 1;
	}
	if (audit_hmac(a->mac, line, len, prev) != 0) {
		audit_err(err, errlen, "audit log: HMAC failed");
		return -1;
	}
	return 0;
}

/* Everything audit_append_body does while it holds the lock. */
static int
audit_append_locked(struct pty_audit *a, const char *body, size_t body_len,
		    char *err, size_t errlen)
{
	unsigned char prev[AUDIT_MAC_LEN];
	struct audit_record check;
	char when[AUDIT_TIME_SIZE], why[160];
	const char *left = "";
	size_t rlen = 0;
	uint64_t seq;
	struct stat st;
	ssize_t w;
	int rc, saved;

	if (fstat(a->fd, &st) != 0) {
		saved = errno;
		audit_err(err, errlen, "audit log: %s", strerror(saved));
		return -1;
	}
	if (audit_next(a, &st, &seq, prev, err, errlen) != 0)
		return -1;
	if (audit_now(when) != 0) {
		audit_err(err, errlen, "audit log: no clock");
		return -1;
	}
	rc = audit_frame(a, body, body_len, seq, prev, when, &rlen);
	if (rc != 0) {
		audit_err(err, errlen,
			  rc == 1 ? "audit log: the record would be longer "
				    "than %zu bytes"
				  : "audit log: HMAC failed",
			  PTY_AUDIT_LINE_MAX);
		return -1;
	}
	/* the body came from another process: what is written must read
	 * back as exactly one record of the documented shape */
	if (audit_parse(a->rec, rlen - 1, &check, why, sizeof why) != 0) {
		audit_err(err, errlen, "audit log: a record that %s refused",
			  why);
		return -1;
	}
	do
		w = write(a->fd, a->rec, rlen);
	while (w < 0 && errno == EINTR);
	saved = errno;
	if (w == (ssize_t)rlen && S_ISREG(st.st_mode) &&
	    fdatasync(a->fd) != 0) {
		saved = errno;
		w = -2; /* written, but not known to be on disk */
	}
	if (w == (ssize_t)rlen)
		return 0;
	/* take back what is there of the record: we hold the lock, so the
	 * file's end is still ours (best effort: the verifier reports a torn
	 * line if this fails too) */
	if (S_ISREG(st.st_mode) && w != -1 && ftruncate(a->fd, st.st_size) != 0)
		left = " (and the partial record stays)";
	if (w >= 0)
		audit_err(err, errlen,
			  "audit log: short write (%zd of %zu bytes)%s", w,
			  rlen, left);
	else
		audit_err(err, errlen, "audit log: %s: %s%s",
			  w == -2 ? "fdatasync" : "write", strerror(saved),
			  left);
	return -1;
}

int
audit_append_body(struct pty_audit *a, const char *body, size_t len, char *err,
		  size_t errlen)
{
	int rc, saved;

	if (a->fd < 0) {
		audit_err(err, errlen, "audit log: not open here");
		return -1;
	}
	if (getpid() != a->pid) {
		audit_err(err, errlen,
			  "audit log: the handle belongs to process %ld; "
			  "this process must open its own",
			  (long)a->pid);
		return -1;
	}
	while (flock(a->fd, LOCK_EX) != 0) {
		if (errno != EINTR) {
			saved = errno;
			audit_err(err, errlen, "audit log: flock: %s",
				  strerror(saved));
			return -1;
		}
	}
	rc = audit_append_locked(a, body, len, err, errlen);
	(void)flock(a->fd, LOCK_UN);
	if (rc == 0)
		audit_forward(a->rec, PTY_AUDIT_LINE_MAX); /* on disk: a copy */
	return rc;
}

int
pty_audit_write(struct pty_audit *a, const struct pty_audit_session *s,
		const struct pty_audit_event *e, char *err, size_t errlen)
{
	size_t len = 0;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (a == NULL) {
		audit_err(err, errlen, "audit log: invalid argument");
		return -1;
	}
	if (audit_encode(s, e, a->body, AUDIT_BODY_MAX, &len, err, errlen) != 0)
		return -1;
	if (a->sock >= 0)
		return audit_writer_send(a, AUDIT_MSG_RECORD, a->body, len, err,
					 errlen);
	return audit_append_body(a, a->body, len, err, errlen);
}
