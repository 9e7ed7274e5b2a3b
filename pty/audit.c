/* SPDX-License-Identifier: MIT */
/*
 * The audit log's writer (pty_audit.h): opening the log and its key,
 * building a record, chaining it to the last line of the file under an
 * exclusive flock(2), appending it with one write(2) and fdatasync(2).
 * SHA-256 and HMAC-SHA-256 come from libsodium, never from here
 * (audit_key.c); the last line is read back with audit_parse
 * (audit_record.c), the whole log checked by audit_verify.c.
 */
#define _GNU_SOURCE

#include "audit_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "scan_utf8.h"
#include "scanner.h"

struct pty_audit {
	int fd;
	/* flock(2) excludes per open file description: only this process
	 * may write through fd (see pty_audit_write) */
	pid_t pid;
	struct audit_mac *mac; /* keyed HMAC-SHA-256, copied per message */
	char *tail; /* PTY_AUDIT_LINE_MAX + 1 bytes: the end of the log */
	char *rec;  /* PTY_AUDIT_LINE_MAX bytes: the record being built */
};

int
pty_audit_open(const char *log_path, const char *key_path,
	       struct pty_audit **out, char *err, size_t errlen)
{
	struct pty_audit *a;
	struct stat st;
	int flags, saved;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (out == NULL) {
		audit_err(err, errlen, "audit log: no handle to fill");
		return -1;
	}
	*out = NULL;
	if (log_path == NULL || key_path == NULL) {
		audit_err(err, errlen, "audit log: no path");
		return -1;
	}
	if ((a = calloc(1, sizeof *a)) == NULL) {
		audit_err(err, errlen, "audit log: out of memory");
		return -1;
	}
	a->fd = -1;
	/* the key first, so that a bad key creates no log file */
	if (audit_key_load(key_path, &a->mac, err, errlen) != 0)
		goto fail;
	a->tail = malloc(PTY_AUDIT_LINE_MAX + 1);
	a->rec = malloc(PTY_AUDIT_LINE_MAX);
	if (a->tail == NULL || a->rec == NULL) {
		audit_err(err, errlen, "audit log: out of memory");
		goto fail;
	}
	/* O_NONBLOCK only for the open (a device must not hang it) */
	a->fd = open(log_path,
		     O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
			 O_NOCTTY | O_NONBLOCK,
		     0640);
	if (a->fd < 0) {
		saved = errno;
		audit_err(err, errlen, "audit log %s: %s", log_path,
			  saved == ELOOP ? "is a symbolic link"
					 : strerror(saved));
		goto fail;
	}
	if (fstat(a->fd, &st) != 0 ||
	    !(S_ISREG(st.st_mode) || S_ISCHR(st.st_mode))) {
		audit_err(err, errlen,
			  "audit log %s: not a regular file or character "
			  "device",
			  log_path);
		goto fail;
	}
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

void
pty_audit_close(struct pty_audit *a)
{
	if (a == NULL)
		return;
	if (a->fd >= 0)
		(void)close(a->fd);
	audit_mac_free(a->mac); /* wipes the keyed HMAC state */
	free(a->tail);
	free(a->rec);
	sodium_memzero(a, sizeof *a);
	free(a);
}

/* ------------------------------------------------------------------ */
/* The writer.                                                         */

/* A bounded output buffer: once something does not fit, `full` stays set
 * and nothing more is added, so the caller checks once at the end. */
struct audit_buf {
	char *p;
	size_t len, cap;
	bool full;
};

static void
audit_put(struct audit_buf *b, const void *s, size_t n)
{
	if (b->full || n > b->cap - b->len) {
		b->full = true;
		return;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void
audit_puts(struct audit_buf *b, const char *s)
{
	audit_put(b, s, strlen(s));
}

/* A JSON string, escaped as pty_audit.h says. */
static void
audit_put_string(struct audit_buf *b, const char *s, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	audit_put(b, "\"", 1);
	while (i < n && !b->full) {
		unsigned char c = u[i];
		const char *esc = NULL;
		uint32_t cp = c;
		size_t len = 1;

		switch (c) {
		case '"':
			esc = "\\\"";
			break;
		case '\\':
			esc = "\\\\";
			break;
		case '\b':
			esc = "\\b";
			break;
		case '\f':
			esc = "\\f";
			break;
		case '\n':
			esc = "\\n";
			break;
		case '\r':
			esc = "\\r";
			break;
		case '\t':
			esc = "\\t";
			break;
		default:
			break;
		}
		if (esc != NULL) {
			audit_puts(b, esc);
			i++;
			continue;
		}
		if (c >= 0x80) {
			len = scan_utf8_decode(u + i, n - i, &cp);
			if (len == 0) {
				/* not UTF-8: U+FFFD for this byte */
				audit_put(b, "\xef\xbf\xbd", 3);
				i++;
				continue;
			}
		}
		if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
			char u4[6] = "\\u00";

			u4[4] = digits[cp >> 4];
			u4[5] = digits[cp & 0x0f];

			audit_put(b, u4, sizeof u4);
		} else {
			audit_put(b, u + i, len);
		}
		i += len;
	}
	audit_put(b, "\"", 1);
}

/* ,"name":"value" */
static void
audit_put_field(struct audit_buf *b, const char *name, const char *s, size_t n)
{
	audit_puts(b, ",\"");
	audit_puts(b, name);
	audit_puts(b, "\":");
	audit_put_string(b, s, n);
}

static void
audit_put_cstr(struct audit_buf *b, const char *name, const char *s)
{
	if (s != NULL)
		audit_put_field(b, name, s, strlen(s));
}

/* A NUL-terminated field of a fixed-size array, read within its size. */
static void
audit_put_text(struct audit_buf *b, const char *name, const char *s, size_t cap)
{
	audit_put_field(b, name, s, strnlen(s, cap));
}

static bool
audit_utf8_ok(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	uint32_t cp;

	while (i < n) {
		size_t len = 1;

		if (u[i] >= 0x80 &&
		    (len = scan_utf8_decode(u + i, n - i, &cp)) == 0)
			return false;
		i += len;
	}
	return true;
}

/* Whether the record gives the line by its SHA-256 (pty_audit.h). */
static bool
audit_hash_line(const struct pty_audit_event *e, bool compact)
{
	const struct pty_decision *d = e->decision;

	if (compact || e->line_len >= SCAN_LINE_MAX)
		return true;
	if (d != NULL && (d->scan.refusal == SCAN_REFUSE_TOO_LONG ||
			  d->scan.refusal == SCAN_REFUSE_ENCODING))
		return true;
	return !audit_utf8_ok(e->line, e->line_len);
}

/* What a decision adds: tokens, metachars, reasons, refusal, error,
 * log_reason, confirm_prompt. */
static void
audit_put_decision(struct audit_buf *b, const struct pty_decision *d,
		   bool tokens, const char *outcome)
{
	size_t i, n;
	const char *sep = "";

	if (tokens) {
		n = d->scan.ntokens < SCAN_TOKENS_MAX ? d->scan.ntokens
						      : SCAN_TOKENS_MAX;
		audit_puts(b, ",\"tokens\":[");
		for (i = 0; i < n; i++) {
			audit_puts(b, i > 0 ? "," : "");
			audit_put_string(b, d->scan.tokens[i].text,
					 d->scan.tokens[i].text != NULL
					     ? d->scan.tokens[i].len
					     : 0);
		}
		audit_puts(b, "]");
	}
	audit_puts(b, ",\"metachars\":[");
	for (i = 0; i < SCAN_META_COUNT; i++) {
		const char *name = scan_metachar_name((unsigned)i);

		if ((d->scan.metachars & (1u << i)) == 0 || name == NULL)
			continue;
		audit_puts(b, sep);
		audit_put_string(b, name, strlen(name));
		sep = ",";
	}
	audit_puts(b, "]");
	audit_put_cstr(b, "decision", outcome);
	audit_puts(b, ",\"reasons\":[");
	n = d->nreasons < PTY_REASONS_MAX ? d->nreasons : PTY_REASONS_MAX;
	for (i = 0; i < n; i++) {
		audit_puts(b, i > 0 ? ",{\"op\":" : "{\"op\":");
		audit_put_string(b, d->reasons[i].op,
				 strnlen(d->reasons[i].op, PTY_TEXT_MAX));
		audit_puts(b, ",\"reason\":");
		audit_put_string(b, d->reasons[i].reason,
				 strnlen(d->reasons[i].reason, PTY_TEXT_MAX));
		audit_puts(b, "}");
	}
	audit_puts(b, "]");
	if (d->scan.refusal != SCAN_ACCEPT)
		audit_put_cstr(b, "refusal",
			       scan_refusal_reason(d->scan.refusal));
	if (d->verdict == PTY_VERDICT_ERROR)
		audit_put_text(b, "error", d->error, sizeof d->error);
	if (d->log_reason[0] != '\0')
		audit_put_text(b, "log_reason", d->log_reason,
			       sizeof d->log_reason);
	if (d->confirm_prompt[0] != '\0')
		audit_put_text(b, "confirm_prompt", d->confirm_prompt,
			       sizeof d->confirm_prompt);
}

/* What an exec record adds (pty_audit.h): the request, then its decision.
 * Returns 0, or -1 when the digest of a long argv cannot be made. */
static int
audit_put_exec(struct audit_buf *b, const struct pty_audit_event *e,
	       bool compact)
{
	const struct pty_exec_request *r = e->exec;
	const struct pty_exec_decision *d = e->exec_decision;
	char num[32];
	size_t i;

	audit_put_text(b, "exec_path", r->path, sizeof r->path);
	audit_put_text(b, "exec_request", r->request, sizeof r->request);
	if (!compact) {
		audit_puts(b, ",\"exec_argv\":[");
		for (i = 0; i < r->argc; i++) {
			audit_puts(b, i > 0 ? "," : "");
			audit_put_string(b, r->argv[i], r->argv_len[i]);
		}
		audit_puts(b, "]");
	} else {
		crypto_hash_sha256_state st;
		unsigned char digest[crypto_hash_sha256_BYTES];
		char hex[2 * crypto_hash_sha256_BYTES + 1];

		if (crypto_hash_sha256_init(&st) != 0)
			return -1;
		for (i = 0; i < r->argc; i++)
			if (crypto_hash_sha256_update(
				&st, (const unsigned char *)r->argv[i],
				r->argv_len[i] + 1) != 0)
				return -1;
		if (crypto_hash_sha256_final(&st, digest) != 0)
			return -1;
		audit_hex(digest, sizeof digest, hex);
		audit_put_cstr(b, "exec_argv_sha256", hex);
	}
	(void)snprintf(num, sizeof num, "%zu", r->argc);
	audit_puts(b, ",\"exec_argc\":");
	audit_puts(b, num);
	audit_put_text(b, "exec_cwd", r->cwd, sizeof r->cwd);
	audit_put_text(b, "exec_parent", r->parent, sizeof r->parent);
	(void)snprintf(num, sizeof num, "%ld", (long)r->pid);
	audit_puts(b, ",\"pid\":");
	audit_puts(b, num);
	audit_put_cstr(b, "decision", e->outcome);
	audit_puts(b, ",\"reasons\":[");
	for (i = 0; d != NULL && i < d->nreasons; i++) {
		audit_puts(b, i > 0 ? ",{\"op\":" : "{\"op\":");
		audit_put_string(b, r->path, strnlen(r->path, sizeof r->path));
		audit_puts(b, ",\"reason\":");
		audit_put_string(b, d->reasons[i],
				 strnlen(d->reasons[i], PTY_TEXT_MAX));
		audit_puts(b, "}");
	}
	audit_puts(b, "]");
	if (d != NULL &&
	    (d->verdict == PTY_EXEC_ERROR || d->verdict == PTY_EXEC_UNREADABLE))
		audit_put_text(b, "error", d->error, sizeof d->error);
	return 0;
}

/* Builds the record into a->rec.  Returns 0 (*len set), 1 when it does
 * not fit in PTY_AUDIT_LINE_MAX, -1 when the HMAC fails. */
static int
audit_build(struct pty_audit *a, const struct pty_audit_session *s,
	    const struct pty_audit_event *e, uint64_t seq,
	    const unsigned char prev[AUDIT_MAC_LEN], const char *when,
	    bool compact, size_t *len)
{
	/* room is kept for the mac and the newline */
	struct audit_buf b = {a->rec, 0,
			      PTY_AUDIT_LINE_MAX - AUDIT_MAC_TAIL - 1, false};
	unsigned char mac[AUDIT_MAC_LEN];
	char num[32], hex[2 * AUDIT_MAC_LEN + 1];
	bool hashed = false;

	(void)snprintf(num, sizeof num, "%" PRIu64, seq);
	audit_puts(&b, "{\"v\":1,\"seq\":");
	audit_puts(&b, num);
	audit_put_cstr(&b, "time", when);
	audit_put_cstr(&b, "host", s->host);
	audit_put_cstr(&b, "user", s->user);
	audit_put_text(&b, "session", s->id, sizeof s->id);
	audit_put_cstr(&b, "tty", s->tty);
	audit_put_cstr(&b, "remote", s->remote);
	audit_put_cstr(&b, "mode", s->mode);
	audit_put_cstr(&b, "event", e->event);
	if (e->line != NULL) {
		hashed = audit_hash_line(e, compact);
		if (hashed) {
			pty_sha256_hex(e->line, e->line_len, hex);
			if (hex[0] == '\0')
				return -1;
			audit_put_cstr(&b, "line_sha256", hex);
		} else {
			audit_put_field(&b, "line", e->line, e->line_len);
		}
	}
	if (e->exec != NULL && audit_put_exec(&b, e, compact) != 0)
		return -1;
	if (e->decision != NULL)
		audit_put_decision(&b, e->decision, !hashed && !compact,
				   e->outcome);
	else if (e->exec == NULL)
		audit_put_cstr(&b, "decision", e->outcome);
	audit_put_cstr(&b, "note", e->note);
	if (s->policy_sha256[0] != '\0')
		audit_put_text(&b, "policy_sha256", s->policy_sha256,
			       sizeof s->policy_sha256);
	audit_hex(prev, AUDIT_MAC_LEN, hex);
	audit_put_cstr(&b, "prev", hex);
	audit_puts(&b, ",");
	if (b.full)
		return 1;
	/* the mac covers every byte so far: "{" to the "," after prev */
	if (audit_hmac(a->mac, b.p, b.len, mac) != 0)
		return -1;
	audit_hex(mac, AUDIT_MAC_LEN, hex);
	b.cap = PTY_AUDIT_LINE_MAX;
	audit_puts(&b, "\"mac\":\"");
	audit_puts(&b, hex);
	audit_puts(&b, "\"}\n");
	if (b.full)
		return 1; /* cannot happen: room was kept */
	*len = b.len;
	return 0;
}

/* The last line of the log (without its newline), read under the lock.
 * Bounded: one pread of at most PTY_AUDIT_LINE_MAX + 1 bytes. */
static int
audit_last_line(struct pty_audit *a, off_t size, const char **line, size_t *len,
		char *err, size_t errlen)
{
	size_t want = (uintmax_t)size > PTY_AUDIT_LINE_MAX
			  ? PTY_AUDIT_LINE_MAX + 1
			  : (size_t)size;
	off_t off = size - (off_t)want;
	size_t got = 0;
	const char *nl;

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
	if (a->tail[want - 1] != '\n') {
		audit_err(err, errlen,
			  "audit log: its last record is torn (no newline "
			  "at the end); check it with --verify-log");
		return -1;
	}
	nl = memrchr(a->tail, '\n', want - 1);
	if (nl != NULL) {
		*line = nl + 1;
	} else if (off == 0) {
		*line = a->tail;
	} else {
		audit_err(err, errlen,
			  "audit log: its last record is longer than %zu "
			  "bytes",
			  PTY_AUDIT_LINE_MAX);
		return -1;
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

/* Everything pty_audit_write does while it holds the lock. */
static int
audit_append(struct pty_audit *a, const struct pty_audit_session *s,
	     const struct pty_audit_event *e, char *err, size_t errlen)
{
	unsigned char prev[AUDIT_MAC_LEN];
	struct audit_record last;
	char when[AUDIT_TIME_SIZE], why[160];
	const char *line = "", *left = "";
	size_t len = 0, rlen = 0;
	uint64_t seq = 1;
	struct stat st;
	off_t size = 0;
	ssize_t w;
	int rc, saved;

	if (fstat(a->fd, &st) != 0) {
		saved = errno;
		audit_err(err, errlen, "audit log: %s", strerror(saved));
		return -1;
	}
	/* a character device (/dev/full, /dev/null) has no records to read */
	if (S_ISREG(st.st_mode))
		size = st.st_size;
	if (size > 0) {
		if (audit_last_line(a, size, &line, &len, err, errlen) != 0)
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
		seq = last.seq + 1;
	}
	if (audit_hmac(a->mac, line, len, prev) != 0 || audit_now(when) != 0) {
		audit_err(err, errlen, "audit log: no HMAC or no clock");
		return -1;
	}
	rc = audit_build(a, s, e, seq, prev, when, false, &rlen);
	if (rc == 1)
		rc = audit_build(a, s, e, seq, prev, when, true, &rlen);
	if (rc == 1) {
		audit_err(err, errlen,
			  "audit log: the record would be longer than %zu "
			  "bytes",
			  PTY_AUDIT_LINE_MAX);
		return -1;
	}
	if (rc != 0) {
		audit_err(err, errlen, "audit log: HMAC failed");
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
	if (S_ISREG(st.st_mode) && w != -1 && ftruncate(a->fd, size) != 0)
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
pty_audit_write(struct pty_audit *a, const struct pty_audit_session *s,
		const struct pty_audit_event *e, char *err, size_t errlen)
{
	int rc, saved;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (a == NULL || s == NULL || e == NULL || e->event == NULL ||
	    (e->line == NULL && e->line_len != 0)) {
		audit_err(err, errlen, "audit log: invalid argument");
		return -1;
	}
	if (memchr(s->id, '\0', sizeof s->id) != s->id + 32 ||
	    !audit_is_hex(s->id, 32) ||
	    (s->policy_sha256[0] != '\0' &&
	     (memchr(s->policy_sha256, '\0', sizeof s->policy_sha256) !=
		  s->policy_sha256 + 64 ||
	      !audit_is_hex(s->policy_sha256, 64)))) {
		audit_err(err, errlen, "audit log: bad session id or digest");
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
	rc = audit_append(a, s, e, err, errlen);
	(void)flock(a->fd, LOCK_UN);
	return rc;
}
