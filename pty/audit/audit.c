/* SPDX-License-Identifier: MIT */
/*
 * The audit log itself (pty_audit.h): opening the log and its state, and
 * appending a record - a body from audit_encode.c framed with seq, time,
 * prev, key and sig - under an exclusive flock(2) on the state (which
 * serializes every writer, so the log file itself may be renamed by
 * logrotate: each append first checks that the configured path still
 * names the file it holds), with one write(2) and fdatasync(2), after
 * which the state's seed is evolved and the old one overwritten.  Only
 * the process that owns the log does this: in a session that is the audit
 * writer (audit_writer.c), never the guard the user runs.  The keys come
 * from audit_key.c (libsodium); the last line is read back with
 * audit_parse (audit_record.c); logs are checked by audit_verify.c.
 */
#define _GNU_SOURCE

#include "audit_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <syslog.h>
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

/* Opens (creating it 0600 if missing) and checks the log file at path.
 * 0 (*fd set), or -1 with err. */
static int
audit_open_log(const char *log_path, int *fd, char *err, size_t errlen)
{
	struct stat st;
	int flags, saved;

	/* O_NONBLOCK only for the open (a device must not hang it); a new
	 * log is readable by its owner only: root reads it, and the
	 * records of one user are none of another's business.  Created
	 * with O_EXCL so that this writer knows it made the file, and then
	 * set to 0600 whatever the umask: the writer inherits the user's
	 * (its guard is the user's process), and a log made 0000 under
	 * `umask 777` could be opened by no other session's writer. */
	const int flags_open =
	    O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
	bool created = false;
	int tries;

	*fd = -1;
	for (tries = 0; tries < 2 && *fd < 0; tries++) {
		*fd = open(log_path, flags_open | O_CREAT | O_EXCL, 0600);
		created = *fd >= 0;
		/* EEXIST: a file, or a symbolic link that O_NOFOLLOW then
		 * refuses; ENOENT: removed in between, created again */
		if (*fd < 0 && errno == EEXIST)
			*fd = open(log_path, flags_open);
		if (*fd < 0 && errno != ENOENT)
			break;
	}
	if (*fd >= 0 && created && fchmod(*fd, 0600) != 0) {
		saved = errno;
		audit_err(err, errlen, "audit log %s: %s", log_path,
			  strerror(saved));
		goto fail;
	}
	if (*fd < 0) {
		saved = errno;
		audit_err(err, errlen, "audit log %s: %s", log_path,
			  saved == ELOOP ? "is a symbolic link"
					 : strerror(saved));
		return -1;
	}
	if (fstat(*fd, &st) != 0) {
		saved = errno;
		audit_err(err, errlen, "audit log %s: %s", log_path,
			  strerror(saved));
		goto fail;
	}
	if (audit_check_log(log_path, &st, err, errlen) != 0)
		goto fail;
	flags = fcntl(*fd, F_GETFL);
	if (flags < 0 || fcntl(*fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
		saved = errno;
		audit_err(err, errlen, "audit log %s: %s", log_path,
			  strerror(saved));
		goto fail;
	}
	return 0;
fail:
	(void)close(*fd);
	*fd = -1;
	return -1;
}

int
pty_audit_open(const char *log_path, const char *key_path,
	       struct pty_audit **out, char *err, size_t errlen)
{
	struct pty_audit *a;
	struct audit_state st;

	if ((a = audit_handle_begin(log_path, key_path, out, err, errlen)) ==
	    NULL)
		return -1;
	/* the state first, so that a bad state (or a v1 key) creates no
	 * log file */
	if (audit_state_open(key_path, &a->state_fd, err, errlen) != 0)
		goto fail;
	if (audit_state_read(a->state_fd, key_path, &st, err, errlen) != 0)
		goto fail;
	sodium_memzero(&st, sizeof st);
	a->tail = malloc(PTY_AUDIT_LINE_MAX + 1);
	a->rec = malloc(PTY_AUDIT_LINE_MAX);
	a->log_path = strdup(log_path);
	a->state_path = strdup(key_path);
	if (a->tail == NULL || a->rec == NULL || a->log_path == NULL ||
	    a->state_path == NULL) {
		audit_err(err, errlen, "audit log: out of memory");
		goto fail;
	}
	if (audit_open_log(log_path, &a->fd, err, errlen) != 0)
		goto fail;
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
	a->fd = a->sock = a->state_fd = -1;
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
	if (a->state_fd >= 0)
		(void)close(a->state_fd);
	free(a->log_path);
	free(a->state_path);
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

/* Frames `body` as record st->seq into a->rec: {"v":2,"seq":N,"time":T,
 * the body, "prev", "key" (pk_{N+1}), then "sig" (sk_N) over every byte
 * before it.  *next gets seed_{N+1}.  Returns 0 (*len set), 1 when it
 * does not fit, -1 when the keys fail. */
static int
audit_frame(struct pty_audit *a, const char *body, size_t body_len,
	    const struct audit_state *st, const char *when,
	    unsigned char next[AUDIT_SEED_LEN], size_t *len)
{
	unsigned char sk[crypto_sign_SECRETKEYBYTES], pk[AUDIT_PK_LEN],
	    sig[AUDIT_SIG_LEN];
	char prev[2 * AUDIT_HASH_LEN + 1], key[2 * AUDIT_PK_LEN + 1],
	    hex[2 * AUDIT_SIG_LEN + 1];
	int n, rc = -1;

	n = snprintf(a->rec, PTY_AUDIT_LINE_MAX,
		     "{\"v\":2,\"seq\":%" PRIu64 ",\"time\":\"%s\"", st->seq,
		     when);
	if (n < 0 || body_len > PTY_AUDIT_LINE_MAX - (size_t)n -
				    (AUDIT_FRAME_MAX - 64))
		return 1;
	/* sk_N signs; pk_{N+1} is certified by it */
	if (audit_seed_evolve(st->seed, next) != 0 ||
	    audit_keypair(st->seed, pk, sk) != 0 ||
	    audit_keypair(next, pk, NULL) != 0)
		goto out;
	audit_hex(st->last, AUDIT_HASH_LEN, prev);
	audit_hex(pk, AUDIT_PK_LEN, key);
	memcpy(a->rec + n, body, body_len);
	*len = (size_t)n + body_len;
	*len += (size_t)snprintf(a->rec + *len, PTY_AUDIT_LINE_MAX - *len,
				 ",\"prev\":\"%s\",\"key\":\"%s\",", prev,
				 key);
	if (crypto_sign_detached(sig, NULL, (const unsigned char *)a->rec,
				 *len, sk) != 0)
		goto out;
	audit_hex(sig, AUDIT_SIG_LEN, hex);
	*len += (size_t)snprintf(a->rec + *len, PTY_AUDIT_LINE_MAX - *len,
				 "\"sig\":\"%s\"}\n", hex);
	rc = 0;
out:
	sodium_memzero(sk, sizeof sk);
	return rc;
}

/* Writes one record (the body framed for st->seq) at the end of the log
 * and, once it is on disk, evolves the state: seed_N overwritten by
 * seed_{N+1}.  `reg`: the log is a regular file (read back, synced, cut
 * back on failure).  Returns 0, or -1 with err. */
static int
audit_append_one(struct pty_audit *a, struct audit_state *st, bool reg,
		 const char *body, size_t body_len, char *err, size_t errlen)
{
	unsigned char next[AUDIT_SEED_LEN];
	struct audit_record check;
	char when[AUDIT_TIME_SIZE], why[160];
	const char *left = "";
	size_t rlen = 0;
	struct stat before;
	ssize_t w;
	int rc, saved;

	if (st->seq >= AUDIT_SEQ_MAX) {
		audit_err(err, errlen, "audit log: seq is exhausted");
		return -1;
	}
	if (fstat(a->fd, &before) != 0) {
		saved = errno;
		audit_err(err, errlen, "audit log: %s", strerror(saved));
		return -1;
	}
	if (audit_now(when) != 0) {
		audit_err(err, errlen, "audit log: no clock");
		return -1;
	}
	rc = audit_frame(a, body, body_len, st, when, next, &rlen);
	if (rc != 0) {
		sodium_memzero(next, sizeof next);
		audit_err(err, errlen,
			  rc == 1 ? "audit log: the record would be longer "
				    "than %zu bytes"
				  : "audit log: Ed25519 failed",
			  PTY_AUDIT_LINE_MAX);
		return -1;
	}
	/* the body came from another process: what is written must read
	 * back as exactly one record of the documented shape */
	if (audit_parse(a->rec, rlen - 1, &check, why, sizeof why) != 0) {
		sodium_memzero(next, sizeof next);
		audit_err(err, errlen, "audit log: a record that %s refused",
			  why);
		return -1;
	}
	do
		w = write(a->fd, a->rec, rlen);
	while (w < 0 && errno == EINTR);
	saved = errno;
	if (w == (ssize_t)rlen && reg && fdatasync(a->fd) != 0) {
		saved = errno;
		w = -2; /* written, but not known to be on disk */
	}
	if (w != (ssize_t)rlen) {
		sodium_memzero(next, sizeof next);
		/* take back what is there of the record: we hold the lock,
		 * so the file's end is still ours (best effort: the
		 * verifier reports a torn line if this fails too) */
		if (reg && w != -1 && ftruncate(a->fd, before.st_size) != 0)
			left = " (and the partial record stays)";
		if (w >= 0)
			audit_err(err, errlen,
				  "audit log: short write (%zd of %zu "
				  "bytes)%s",
				  w, rlen, left);
		else
			audit_err(err, errlen, "audit log: %s: %s%s",
				  w == -2 ? "fdatasync" : "write",
				  strerror(saved), left);
		return -1;
	}
	/* record N is on disk: seed_N goes (a crash before this is
	 * recovered by the next writer, which evolves it once) */
	if (audit_sha256(a->rec, rlen - 1, st->last) != 0) {
		sodium_memzero(next, sizeof next);
		audit_err(err, errlen, "audit log: SHA-256 failed");
		return -1;
	}
	memcpy(st->seed, next, sizeof next);
	sodium_memzero(next, sizeof next);
	a->last_seq = st->seq;
	audit_hex(st->last, AUDIT_HASH_LEN, a->last_sha256);
	st->seq++;
	if (audit_state_write(a->state_fd, a->state_path, st, err, errlen) !=
	    0)
		return -1;
	/* a session's end: an anchor off the host (pty_audit.h), sent
	 * once the lock is released (audit_append_body); the raw quotes
	 * can only be the key itself, a value's are escaped */
	a->anchor_due =
	    a->anchors && audit_syslog_anchors() &&
	    memmem(body, body_len, ",\"event\":\"session_end\"", 22) != NULL;
	return 0;
}

/* Follows a rotation: when the configured path no longer names the file
 * held (logrotate renamed it, or it was removed), opens the path (creating
 * it) and keeps in prev_file the old file's current name (via
 * /proc/self/fd; "" when unknown).  0, or -1 with err. */
static int
audit_follow_rotation(struct pty_audit *a, char *prev_file, size_t cap,
		      char *err, size_t errlen)
{
	struct stat held, named;
	char link[64];
	ssize_t n;
	int fd;

	prev_file[0] = '\0';
	if (fstat(a->fd, &held) != 0) {
		audit_err(err, errlen, "audit log: %s", strerror(errno));
		return -1;
	}
	if (stat(a->log_path, &named) == 0 && named.st_dev == held.st_dev &&
	    named.st_ino == held.st_ino)
		return 0;
	if (audit_open_log(a->log_path, &fd, err, errlen) != 0)
		return -1;
	(void)snprintf(link, sizeof link, "/proc/self/fd/%d", a->fd);
	n = readlink(link, prev_file, cap - 1);
	prev_file[n > 0 ? (size_t)n : 0] = '\0';
	/* " (deleted)": the old file is gone, its name is not known */
	if (n <= 0 || (size_t)n >= cap - 1 || prev_file[0] != '/' ||
	    strstr(prev_file, " (deleted)") != NULL)
		prev_file[0] = '\0';
	(void)close(a->fd);
	a->fd = fd;
	return 0;
}

/* The body of a "log_continued" record: no session (32 zeros), and the
 * previous file's name when it is known and plain (printable ASCII without
 * '"' or '\\', so that it needs no escape). */
static size_t
audit_continued_body(char *out, size_t cap, const char *prev_file)
{
	bool plain = prev_file[0] != '\0';
	const char *p;
	int n;

	for (p = prev_file; *p != '\0'; p++)
		if (*p < 0x20 || *p > 0x7e || *p == '"' || *p == '\\')
			plain = false;
	n = snprintf(out, cap,
		     ",\"session\":\"%032d\",\"event\":\"log_continued\"%s%s%s",
		     0, plain ? ",\"prev_file\":\"" : "",
		     plain ? prev_file : "", plain ? "\"" : "");
	return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

/* The log's last record against the state: the one before the state's
 * seq (as it should be), or the state's seq itself (a writer crashed
 * between the record and the state: evolve once).  Anything else is a
 * broken log, which no writer continues.  0, or -1 with err. */
static int
audit_reconcile(struct pty_audit *a, const struct stat *log,
		struct audit_state *st, char *err, size_t errlen)
{
	unsigned char pk[AUDIT_PK_LEN], sig[AUDIT_SIG_LEN],
	    hash[AUDIT_HASH_LEN];
	struct audit_record last;
	const char *line;
	size_t len;
	char why[160];

	if (!S_ISREG(log->st_mode) || log->st_size == 0)
		return 0;
	if (audit_last_line(a, log->st_size, &line, &len, err, errlen) != 0)
		return -1;
	if (audit_parse(line, len, &last, why, sizeof why) != 0) {
		audit_err(err, errlen,
			  "audit log: its last record %s; check it with "
			  "--verify-log",
			  why);
		return -1;
	}
	if (audit_sha256(line, len, hash) != 0)
		return -1;
	if (last.seq + 1 == st->seq &&
	    sodium_memcmp(hash, st->last, sizeof hash) == 0)
		return 0;
	if (last.seq == st->seq &&
	    audit_unhex(line + last.prev, AUDIT_HASH_LEN, hash) == 0 &&
	    sodium_memcmp(hash, st->last, sizeof hash) == 0 &&
	    audit_sha256(line, len, hash) == 0 &&
	    audit_keypair(st->seed, pk, NULL) == 0 &&
	    audit_unhex(line + last.sig, AUDIT_SIG_LEN, sig) == 0 &&
	    crypto_sign_verify_detached(sig, (const unsigned char *)line,
					last.sig_key, pk) == 0) {
		unsigned char next[AUDIT_SEED_LEN];
		int rc;

		if (audit_seed_evolve(st->seed, next) != 0)
			return -1;
		memcpy(st->seed, next, sizeof next);
		sodium_memzero(next, sizeof next);
		memcpy(st->last, hash, sizeof hash);
		st->seq++;
		rc = audit_state_write(a->state_fd, a->state_path, st, err,
				       errlen);
		return rc;
	}
	audit_err(err, errlen,
		  "audit log: its last record (seq %" PRIu64
		  ") is not the one the audit state %s expects before seq "
		  "%" PRIu64
		  ": the log or the state was changed; check it with "
		  "maelys-pty --verify-log",
		  last.seq, a->state_path, st->seq);
	return -1;
}

/* The longest log_continued record: its body (cont below) and the
 * framing's fields (seq, time, key, prev, sig). */
#define AUDIT_CONT_REC_MAX (PATH_MAX + 1024)

/* Everything audit_append_body does while it holds the lock.  A
 * log_continued record written before the body's is copied into cont_rec
 * (AUDIT_CONT_REC_MAX bytes, "" when none), to be forwarded after the
 * lock as every record is. */
static int
audit_append_locked(struct pty_audit *a, const char *body, size_t body_len,
		    char *cont_rec, char *err, size_t errlen)
{
	struct audit_state st;
	char prev_file[PATH_MAX], cont[PATH_MAX + 128];
	size_t clen;
	struct stat log;
	int rc = -1;

	if (audit_state_read(a->state_fd, a->state_path, &st, err, errlen) !=
	    0)
		return -1;
	if (audit_follow_rotation(a, prev_file, sizeof prev_file, err,
				  errlen) != 0)
		goto out;
	if (fstat(a->fd, &log) != 0) {
		audit_err(err, errlen, "audit log: %s", strerror(errno));
		goto out;
	}
	if (audit_reconcile(a, &log, &st, err, errlen) != 0)
		goto out;
	/* a new file of a log that has records: it starts by saying so,
	 * chained to the last record of the file before */
	if (S_ISREG(log.st_mode) && log.st_size == 0 && st.seq > 1) {
		clen = audit_continued_body(cont, sizeof cont, prev_file);
		if (audit_append_one(a, &st, true, cont, clen, err, errlen) !=
		    0)
			goto out;
		/* a->rec is the record just written, up to its newline */
		clen = strcspn(a->rec, "\n") + 1;
		if (clen < AUDIT_CONT_REC_MAX) {
			memcpy(cont_rec, a->rec, clen);
			cont_rec[clen] = '\0';
		}
	}
	rc = audit_append_one(a, &st, S_ISREG(log.st_mode), body, body_len,
			      err, errlen);
out:
	sodium_memzero(&st, sizeof st);
	return rc;
}

int
audit_append_body(struct pty_audit *a, const char *body, size_t len, char *err,
		  size_t errlen)
{
	char cont_rec[AUDIT_CONT_REC_MAX];
	int rc, saved;

	cont_rec[0] = '\0';
	if (a->fd < 0 || a->state_fd < 0) {
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
	while (flock(a->state_fd, LOCK_EX) != 0) {
		if (errno != EINTR) {
			saved = errno;
			audit_err(err, errlen, "audit state: flock: %s",
				  strerror(saved));
			return -1;
		}
	}
	a->anchor_due = false;
	rc = audit_append_locked(a, body, len, cont_rec, err, errlen);
	(void)flock(a->state_fd, LOCK_UN);
	/* syslog(3) may block (a daemon that does not read /dev/log): never
	 * while every other writer waits on the lock */
	if (rc == 0 && a->anchor_due)
		syslog(LOG_AUTHPRIV | LOG_INFO, PTY_AUDIT_ANCHOR_FMT,
		       (unsigned long long)a->last_seq, a->last_sha256);
	if (rc == 0 && cont_rec[0] != '\0') /* the chain's link to the
						 file before, off the host too */
		audit_forward(cont_rec, sizeof cont_rec);
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
