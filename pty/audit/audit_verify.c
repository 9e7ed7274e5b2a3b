/* SPDX-License-Identifier: MIT */
/*
 * The audit log's verifier (pty_audit_verify): every line parses, seq
 * counts up by one, each prev is the HMAC of the line before it and each
 * mac is right; the first record that fails is reported.  Bounded: the log
 * is read 2 * PTY_AUDIT_LINE_MAX bytes at a time.
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
#include <sys/stat.h>
#include <unistd.h>

/* Checks line number n (1-based) given the HMAC of the line before it.
 * Returns 0, or -1 with why. */
static int
audit_check_line(const struct audit_mac *keyed, const char *line, size_t len,
		 uint64_t n, const unsigned char prev[AUDIT_MAC_LEN], char *why,
		 size_t whylen)
{
	unsigned char mac[AUDIT_MAC_LEN];
	char hex[2 * AUDIT_MAC_LEN + 1];
	struct audit_record rec;

	if (audit_parse(line, len, &rec, why, whylen) != 0)
		return -1;
	if (rec.seq != n) {
		audit_err(why, whylen,
			  "seq is %" PRIu64 ", expected %" PRIu64
			  " (a record was deleted, inserted or moved)",
			  rec.seq, n);
		return -1;
	}
	audit_hex(prev, AUDIT_MAC_LEN, hex);
	if (sodium_memcmp(line + rec.prev, hex, 2 * AUDIT_MAC_LEN) != 0) {
		audit_err(why, whylen,
			  "prev is not the HMAC of the line before (the "
			  "record before was changed or removed, or this one "
			  "was written with another key)");
		return -1;
	}
	if (audit_hmac(keyed, line, rec.mac_key, mac) != 0) {
		audit_err(why, whylen, "HMAC failed");
		return -1;
	}
	audit_hex(mac, AUDIT_MAC_LEN, hex);
	if (sodium_memcmp(line + rec.mac, hex, 2 * AUDIT_MAC_LEN) != 0) {
		audit_err(why, whylen,
			  "mac does not match (the record was changed, or "
			  "written with another key)");
		return -1;
	}
	return 0;
}

/* The verifier's view of the log: buf[start, end) read but not yet
 * checked.  `buf` has 2 * PTY_AUDIT_LINE_MAX bytes: a line that fits in
 * the limit is always whole in it once the unread rest has been moved to
 * the front. */
struct audit_window {
	int fd;
	char *buf;
	size_t start, end;
	bool eof;
	int error; /* errno of a failed read */
};

/* Moves what is not yet checked to the front of the buffer and reads more
 * after it.  Returns 0 (w->eof set at the end of the file), or -1 with
 * w->error. */
static int
audit_window_read(struct audit_window *w)
{
	const size_t cap = 2 * PTY_AUDIT_LINE_MAX;

	memmove(w->buf, w->buf + w->start, w->end - w->start);
	w->end -= w->start;
	w->start = 0;
	for (;;) {
		ssize_t r = read(w->fd, w->buf + w->end, cap - w->end);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			w->error = errno;
			return -1;
		}
		if (r == 0)
			w->eof = true;
		w->end += (size_t)r;
		return 0;
	}
}

/* The next line of the log, without its newline, into [*line, *line +
 * *len).  Returns 0; 1 at the end of the log; -1 with why when the line
 * is longer than PTY_AUDIT_LINE_MAX or the log ends in a torn line; -2
 * when the log cannot be read (w->error). */
static int
audit_next_line(struct audit_window *w, const char **line, size_t *len,
		char *why, size_t whylen)
{
	for (;;) {
		const char *at = w->buf + w->start;
		const char *nl = memchr(at, '\n', w->end - w->start);

		if (nl != NULL && (size_t)(nl - at) < PTY_AUDIT_LINE_MAX) {
			*line = at;
			*len = (size_t)(nl - at);
			w->start += *len + 1;
			return 0;
		}
		if (w->end - w->start >= PTY_AUDIT_LINE_MAX) {
			audit_err(why, whylen, "longer than %zu bytes",
				  PTY_AUDIT_LINE_MAX);
			return -1;
		}
		if (w->eof && w->end == w->start)
			return 1;
		if (w->eof) {
			audit_err(why, whylen,
				  "torn: the file does not end in a newline (a "
				  "write was cut short, or the log was "
				  "truncated)");
			return -1;
		}
		if (audit_window_read(w) != 0)
			return -2;
	}
}

/* "FILE: cannot check: why" to report (if any); returns 2. */
static int
audit_cannot(FILE *report, const char *name, const char *why)
{
	if (report != NULL)
		fprintf(report, "%s: cannot check: %s\n", name, why);
	return 2;
}

/* The loop of pty_audit_verify over an open log, with a buffer of 2 *
 * PTY_AUDIT_LINE_MAX bytes: each line checked against the HMAC of the one
 * before it, until the end or the first that fails. */
static int
audit_verify_fd(int fd, const struct audit_mac *keyed, char *buf,
		const char *name, FILE *report)
{
	struct audit_window w = {fd, buf, 0, 0, false, 0};
	unsigned char prev[AUDIT_MAC_LEN];
	const char *line;
	size_t len;
	uint64_t n = 0;
	char why[256];
	int rc;

	if (audit_hmac(keyed, "", 0, prev) != 0)
		return audit_cannot(report, name, "HMAC failed");
	while ((rc = audit_next_line(&w, &line, &len, why, sizeof why)) == 0) {
		if (audit_check_line(keyed, line, len, n + 1, prev, why,
				     sizeof why) != 0) {
			rc = -1;
			break;
		}
		if (audit_hmac(keyed, line, len, prev) != 0)
			return audit_cannot(report, name, "HMAC failed");
		n++;
	}
	if (rc == -2)
		return audit_cannot(report, name, strerror(w.error));
	if (rc == 1) {
		if (report != NULL)
			fprintf(report,
				"%s: %" PRIu64 " records, chain "
				"intact\n",
				name, n);
		return 0;
	}
	if (report != NULL)
		fprintf(report,
			"%s: record %" PRIu64 " (line %" PRIu64 "): %s\n", name,
			n + 1, n + 1, why);
	return 1;
}

int
pty_audit_verify(const char *log_path, const char *key_path, FILE *report)
{
	struct audit_mac *keyed = NULL;
	const char *name = log_path != NULL ? log_path : "(null)";
	char err[512] = "", *buf = NULL;
	struct stat st;
	int fd = -1, rc = 2, saved;

	if (log_path == NULL || key_path == NULL) {
		audit_err(err, sizeof err, "no log or no key named");
		goto out;
	}
	if (audit_key_load(key_path, &keyed, err, sizeof err) != 0)
		goto out;
	fd = open(log_path,
		  O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		saved = errno;
		audit_err(err, sizeof err, "%s",
			  saved == ELOOP ? "is a symbolic link"
					 : strerror(saved));
		goto out;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		audit_err(err, sizeof err, "not a regular file");
		goto out;
	}
	if ((buf = malloc(2 * PTY_AUDIT_LINE_MAX)) == NULL) {
		audit_err(err, sizeof err, "out of memory");
		goto out;
	}
	rc = audit_verify_fd(fd, keyed, buf, name, report);
	err[0] = '\0';
out:
	if (rc == 2 && err[0] != '\0' && report != NULL)
		fprintf(report, "%s: cannot check: %s\n", name, err);
	free(buf);
	if (fd >= 0)
		(void)close(fd);
	audit_mac_free(keyed);
	return rc;
}
