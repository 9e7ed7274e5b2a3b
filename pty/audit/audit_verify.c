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

/* A reader (pty_audit.h): the files, the key, the window over the file
 * being read, and the HMAC of the last record handed out. */
struct pty_audit_reader {
	const char **paths;
	size_t npaths;
	size_t file;          /* index of the file being read */
	unsigned long long line; /* line number in that file */
	unsigned long long count; /* records verified in all */
	struct audit_mac *keyed;
	struct audit_window w; /* w.fd < 0: the next file is not open */
	unsigned char prev[AUDIT_MAC_LEN];
	char *copy;  /* the record handed out, NUL-terminated */
	int done;    /* 0, or what every later call returns (1, -1, -2) */
	char why[640]; /* the complaint of a done reader */
};

int
pty_audit_reader_open(const char *const *paths, size_t npaths,
		      const char *key_path, struct pty_audit_reader **out,
		      char *err, size_t errlen)
{
	struct pty_audit_reader *r;
	size_t i;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (out == NULL || paths == NULL || npaths == 0 || key_path == NULL) {
		audit_err(err, errlen, "audit log: no log or no key named");
		return -1;
	}
	*out = NULL;
	for (i = 0; i < npaths; i++)
		if (paths[i] == NULL) {
			audit_err(err, errlen, "audit log: no log named");
			return -1;
		}
	if ((r = calloc(1, sizeof *r)) == NULL ||
	    (r->paths = calloc(npaths, sizeof *r->paths)) == NULL ||
	    (r->w.buf = malloc(2 * PTY_AUDIT_LINE_MAX)) == NULL ||
	    (r->copy = malloc(PTY_AUDIT_LINE_MAX + 1)) == NULL) {
		audit_err(err, errlen, "audit log: out of memory");
		pty_audit_reader_close(r);
		return -1;
	}
	r->w.fd = -1;
	r->npaths = npaths;
	for (i = 0; i < npaths; i++)
		r->paths[i] = paths[i];
	if (audit_key_load(key_path, &r->keyed, err, errlen) != 0) {
		pty_audit_reader_close(r);
		return -1;
	}
	*out = r;
	return 0;
}

void
pty_audit_reader_close(struct pty_audit_reader *r)
{
	if (r == NULL)
		return;
	if (r->w.fd >= 0)
		(void)close(r->w.fd);
	audit_mac_free(r->keyed);
	free(r->w.buf);
	free(r->copy);
	free(r->paths);
	free(r);
}

size_t
pty_audit_reader_file(const struct pty_audit_reader *r)
{
	return r != NULL ? r->file : 0;
}

unsigned long long
pty_audit_reader_line(const struct pty_audit_reader *r)
{
	return r != NULL ? r->line : 0;
}

unsigned long long
pty_audit_reader_count(const struct pty_audit_reader *r)
{
	return r != NULL ? r->count : 0;
}

/* Ends the reader with `rc` and "FILE: ..." as its complaint. */
static int
reader_stop(struct pty_audit_reader *r, int rc, const char *what, char *err,
	    size_t errlen)
{
	const char *name = r->paths[r->file < r->npaths ? r->file
						       : r->npaths - 1];

	r->done = rc;
	if (rc == -2)
		(void)snprintf(r->why, sizeof r->why, "%s: cannot check: %s",
			       name, what);
	else if (rc == -1)
		(void)snprintf(r->why, sizeof r->why,
			       "%s: record %llu (line %llu): %s", name,
			       r->line + 1, r->line + 1, what);
	else
		r->why[0] = '\0';
	audit_err(err, errlen, "%s", r->why);
	return rc;
}

/* Opens paths[r->file] and starts its chain.  0, or -1 with why. */
static int
reader_open_file(struct pty_audit_reader *r, char *why, size_t whylen)
{
	struct stat st;
	int saved;

	r->w.fd = open(r->paths[r->file],
		       O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY |
			   O_NONBLOCK);
	if (r->w.fd < 0) {
		saved = errno;
		audit_err(why, whylen, "%s",
			  saved == ELOOP ? "is a symbolic link"
					 : strerror(saved));
		return -1;
	}
	if (fstat(r->w.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		audit_err(why, whylen, "not a regular file");
		return -1;
	}
	r->w.start = r->w.end = 0;
	r->w.eof = false;
	r->w.error = 0;
	r->line = 0;
	if (audit_hmac(r->keyed, "", 0, r->prev) != 0) {
		audit_err(why, whylen, "HMAC failed");
		return -1;
	}
	return 0;
}

int
pty_audit_reader_next(struct pty_audit_reader *r, const char **line,
		      size_t *len, char *err, size_t errlen)
{
	char why[256];
	int rc;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (r == NULL || line == NULL || len == NULL) {
		audit_err(err, errlen, "audit log: invalid argument");
		return -2;
	}
	if (r->done != 0) {
		audit_err(err, errlen, "%s", r->why);
		return r->done;
	}
	for (;;) {
		if (r->w.fd < 0 && reader_open_file(r, why, sizeof why) != 0)
			return reader_stop(r, -2, why, err, errlen);
		rc = audit_next_line(&r->w, line, len, why, sizeof why);
		if (rc == 0)
			break;
		if (rc == -1)
			return reader_stop(r, -1, why, err, errlen);
		if (rc == -2)
			return reader_stop(r, -2, strerror(r->w.error), err,
					   errlen);
		/* the end of this file: the next one, or the end */
		(void)close(r->w.fd);
		r->w.fd = -1;
		if (r->file + 1 == r->npaths)
			return reader_stop(r, 1, "", err, errlen);
		r->file++;
	}
	if (audit_check_line(r->keyed, *line, *len, r->line + 1, r->prev, why,
			     sizeof why) != 0)
		return reader_stop(r, -1, why, err, errlen);
	if (audit_hmac(r->keyed, *line, *len, r->prev) != 0)
		return reader_stop(r, -2, "HMAC failed", err, errlen);
	memcpy(r->copy, *line, *len);
	r->copy[*len] = '\0';
	*line = r->copy;
	r->line++;
	r->count++;
	return 0;
}

int
pty_audit_verify(const char *log_path, const char *key_path, FILE *report)
{
	struct pty_audit_reader *r = NULL;
	const char *name = log_path != NULL ? log_path : "(null)";
	const char *line;
	char err[1024] = "";
	size_t len;
	int rc;

	if (log_path == NULL || key_path == NULL) {
		if (report != NULL)
			fprintf(report, "%s: cannot check: no log or no key "
					"named\n",
				name);
		return 2;
	}
	if (pty_audit_reader_open(&log_path, 1, key_path, &r, err,
				  sizeof err) != 0) {
		if (report != NULL)
			fprintf(report, "%s: cannot check: %s\n", name, err);
		return 2;
	}
	while ((rc = pty_audit_reader_next(r, &line, &len, err, sizeof err)) ==
	       0)
		;
	if (report != NULL) {
		if (rc == 1)
			fprintf(report, "%s: %llu records, chain intact\n",
				name, pty_audit_reader_count(r));
		else
			fprintf(report, "%s\n", err);
	}
	pty_audit_reader_close(r);
	return rc == 1 ? 0 : rc == -1 ? 1 : 2;
}
