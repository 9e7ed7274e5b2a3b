/* SPDX-License-Identifier: MIT */
/*
 * The audit log's reader and verifier (pty_audit_reader_*,
 * pty_audit_verify_files): over the files of a log, oldest first, every
 * line parses, seq counts up by one across files, each prev is the SHA-256
 * of the record before it, and each sig verifies with the key the record
 * before certified (pk_1, the verification key, for record 1); with the
 * state, the last record is compared with the state's counter and key.
 * The first record that fails is reported, with which records are
 * missing when seq jumps.  Bounded: a file is read 2 * PTY_AUDIT_LINE_MAX
 * bytes at a time.
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

/* A reader (pty_audit.h): the files, the keys, the window over the file
 * being read, and what the last record handed out left for the next. */
struct pty_audit_reader {
	const char **paths;
	size_t npaths;
	size_t file;              /* index of the file being read */
	unsigned long long line;  /* line number in that file */
	unsigned long long count; /* records verified in all */
	const char *state_path;   /* NULL: no state to compare with */
	unsigned char pub[AUDIT_PK_LEN]; /* pk_1 */
	unsigned char pk[AUDIT_PK_LEN];  /* the key of the next record */
	unsigned char signer[AUDIT_PK_LEN]; /* the last record's key */
	unsigned char last[AUDIT_HASH_LEN]; /* SHA-256 of the last record */
	unsigned char before[AUDIT_HASH_LEN]; /* ... of the one before */
	uint64_t seq;             /* the last record's seq, 0: none yet */
	size_t last_file;         /* the file of the last record */
	struct audit_window w;    /* w.fd < 0: the next file is not open */
	char *copy;    /* the record handed out, NUL-terminated */
	int done;      /* 0, or what every later call returns (1, -1, -2) */
	char why[1024]; /* the complaint of a done reader */
};

int
pty_audit_reader_open(const char *const *paths, size_t npaths,
		      const char *key_path, const char *state_path,
		      struct pty_audit_reader **out, char *err, size_t errlen)
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
	r->state_path = state_path;
	for (i = 0; i < npaths; i++)
		r->paths[i] = paths[i];
	if (audit_pub_load(key_path, r->pub, err, errlen) != 0) {
		pty_audit_reader_close(r);
		return -1;
	}
	memcpy(r->pk, r->pub, sizeof r->pk);
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

int
pty_audit_reader_last(const struct pty_audit_reader *r,
		      unsigned long long *seq, char sha256[65])
{
	if (r == NULL || r->seq == 0) {
		if (seq != NULL)
			*seq = 0;
		if (sha256 != NULL)
			sha256[0] = '\0';
		return -1;
	}
	if (seq != NULL)
		*seq = r->seq;
	if (sha256 != NULL)
		audit_hex(r->last, AUDIT_HASH_LEN, sha256);
	return 0;
}

void
pty_audit_reader_fingerprint(const struct pty_audit_reader *r, char out[64])
{
	if (r == NULL) {
		out[0] = '\0';
		return;
	}
	pty_audit_fingerprint(r->pub, sizeof r->pub, out);
}

/* Ends the reader with `rc` and `what` as its whole complaint. */
static int
reader_stop_as(struct pty_audit_reader *r, int rc, const char *what, char *err,
	       size_t errlen)
{
	r->done = rc;
	(void)snprintf(r->why, sizeof r->why, "%s", what);
	audit_err(err, errlen, "%s", r->why);
	return rc;
}

/* Ends the reader with `rc` and "FILE: ..." as its complaint. */
static int
reader_stop(struct pty_audit_reader *r, int rc, const char *what, char *err,
	    size_t errlen)
{
	const char *name = r->paths[r->file < r->npaths ? r->file
						       : r->npaths - 1];
	char text[sizeof r->why];

	if (rc == -2)
		(void)snprintf(text, sizeof text, "%s: cannot check: %s", name,
			       what);
	else if (rc == -1)
		(void)snprintf(text, sizeof text,
			       "%s: record %llu (line %llu): %s", name,
			       (unsigned long long)r->seq + 1, r->line + 1, what);
	else
		text[0] = '\0';
	return reader_stop_as(r, rc, text, err, errlen);
}

/* "record A" or "records A-B" into out. */
static void
reader_range(char *out, size_t cap, uint64_t a, uint64_t b)
{
	if (a == b)
		(void)snprintf(out, cap, "record %" PRIu64 " is", a);
	else
		(void)snprintf(out, cap, "records %" PRIu64 "-%" PRIu64 " are",
			       a, b);
}

/* Opens paths[r->file].  0, or -1 with why. */
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
	return 0;
}

/* Checks the record in [line, line + len) as the next of the chain.
 * Returns 0, -1 (broken, the complaint made) or -2 (a v1 log). */
static int
reader_check(struct pty_audit_reader *r, const char *line, size_t len,
	     char *err, size_t errlen)
{
	unsigned char sig[AUDIT_SIG_LEN], prev[AUDIT_HASH_LEN];
	struct audit_record rec;
	char why[512], range[64], text[sizeof r->why];
	bool first_of_file = r->line == 0;
	uint64_t want = r->seq + 1;

	if (audit_parse(line, len, &rec, why, sizeof why) != 0) {
		if (rec.v == 1)
			return reader_stop(
			    r, -2,
			    "written by an older maelys-pty (v1), whose HMAC "
			    "chain this version does not check (there is no "
			    "migration: keep that log with its old key)",
			    err, errlen);
		return reader_stop(r, -1, why, err, errlen);
	}
	if (rec.seq > want) {
		reader_range(range, sizeof range, want, rec.seq - 1);
		if (first_of_file && r->file > 0 && r->seq > 0) {
			(void)snprintf(text, sizeof text,
				       "%s missing between %s and %s: a file "
				       "of the rotation was deleted or "
				       "replaced",
				       range, r->paths[r->last_file],
				       r->paths[r->file]);
			return reader_stop_as(r, -1, text, err, errlen);
		}
		(void)snprintf(why, sizeof why, "seq is %" PRIu64 ": %s missing %s",
			       rec.seq, range,
			       r->seq == 0
				   ? "before this file (the log's older files "
				     "were not given, oldest first, or were "
				     "deleted)"
				   : "(deleted from the file)");
		return reader_stop(r, -1, why, err, errlen);
	}
	if (rec.seq < want) {
		(void)snprintf(why, sizeof why,
			       "seq is %" PRIu64 ", expected %" PRIu64
			       " (a record was repeated, inserted or moved%s)",
			       rec.seq, want,
			       first_of_file && r->file > 0
				   ? ", or the files are not given oldest "
				     "first"
				   : "");
		return reader_stop(r, -1, why, err, errlen);
	}
	if (audit_unhex(line + rec.prev, AUDIT_HASH_LEN, prev) != 0 ||
	    sodium_memcmp(prev, r->last, sizeof prev) != 0) {
		if (first_of_file && r->file > 0)
			(void)snprintf(why, sizeof why,
				       "prev is not the SHA-256 of the last "
				       "record of %s: a file of the rotation "
				       "was replaced",
				       r->paths[r->last_file]);
		else
			(void)snprintf(why, sizeof why,
				       "prev is not the SHA-256 of the record "
				       "before (that record was changed or "
				       "removed)");
		return reader_stop(r, -1, why, err, errlen);
	}
	if (audit_unhex(line + rec.sig, AUDIT_SIG_LEN, sig) != 0 ||
	    crypto_sign_verify_detached(sig, (const unsigned char *)line,
					rec.sig_key, r->pk) != 0)
		return reader_stop(
		    r, -1,
		    rec.seq == 1
			? "sig does not verify with the verification key "
			  "(the record was changed, or the log belongs to "
			  "another key)"
			: "sig does not verify with the key the record "
			  "before certified (the record was changed, or "
			  "forged with a key that is not in the chain)",
		    err, errlen);
	memcpy(r->signer, r->pk, sizeof r->pk);
	if (audit_unhex(line + rec.key, AUDIT_PK_LEN, r->pk) != 0)
		return reader_stop(r, -1, "key is not hex", err, errlen);
	memcpy(r->before, r->last, sizeof r->last);
	if (audit_sha256(line, len, r->last) != 0)
		return reader_stop(r, -2, "SHA-256 failed", err, errlen);
	r->seq = rec.seq;
	r->last_file = r->file;
	return 0;
}

/* At the end of the last file: the last record against the state, whose
 * counter no one can turn back without a seed that was erased.  Returns 1
 * (it agrees), -1 or -2 with the complaint. */
static int
reader_check_state(struct pty_audit_reader *r, char *err, size_t errlen)
{
	const char *name = r->paths[r->npaths - 1];
	unsigned char pk[AUDIT_PK_LEN];
	struct audit_state st;
	char why[512], range[64], text[sizeof r->why];
	bool ok = false;
	int fd;

	fd = open(r->state_path,
		  O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		(void)snprintf(text, sizeof text,
			       "%s: cannot check: audit state %s: %s", name,
			       r->state_path, strerror(errno));
		return reader_stop_as(r, -2, text, err, errlen);
	}
	if (audit_state_read(fd, r->state_path, &st, why, sizeof why) != 0) {
		(void)close(fd);
		(void)snprintf(text, sizeof text, "%s: cannot check: %s", name,
			       why);
		return reader_stop_as(r, -2, text, err, errlen);
	}
	(void)close(fd);
	if (st.seq > r->seq + 1) {
		reader_range(range, sizeof range, r->seq + 1, st.seq - 1);
		(void)snprintf(text, sizeof text,
			       "%s: %s missing at the end: the log was cut "
			       "(the state %s says the next record is %" PRIu64
			       ")",
			       name, range, r->state_path, st.seq);
		sodium_memzero(&st, sizeof st);
		return reader_stop_as(r, -1, text, err, errlen);
	}
	if (st.seq < r->seq) {
		(void)snprintf(text, sizeof text,
			       "%s: the state %s says the next record is "
			       "%" PRIu64 ", but the log goes on to %" PRIu64
			       ": records were written without this state "
			       "(it was replaced or turned back)",
			       name, r->state_path, st.seq, r->seq);
		sodium_memzero(&st, sizeof st);
		return reader_stop_as(r, -1, text, err, errlen);
	}
	/* next = seq + 1: its seed's key is the one the last record
	 * certified; next = seq: a writer crashed before it evolved the
	 * seed, which is then the last record's signer */
	if (audit_keypair(st.seed, pk, NULL) == 0) {
		if (st.seq == r->seq + 1)
			ok = sodium_memcmp(pk, r->pk, sizeof pk) == 0 &&
			     sodium_memcmp(st.last, r->last, sizeof pk) == 0;
		else
			ok = sodium_memcmp(pk, r->signer, sizeof pk) == 0 &&
			     sodium_memcmp(st.last, r->before, sizeof pk) ==
				 0;
	}
	sodium_memzero(&st, sizeof st);
	if (!ok) {
		(void)snprintf(text, sizeof text,
			       "%s: the state %s does not continue the log's "
			       "last record (seq %llu): the log's end was "
			       "replaced, or the state belongs to another log",
			       name, r->state_path,
			       (unsigned long long)r->seq);
		return reader_stop_as(r, -1, text, err, errlen);
	}
	return reader_stop(r, 1, "", err, errlen);
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
			return r->state_path != NULL
				   ? reader_check_state(r, err, errlen)
				   : reader_stop(r, 1, "", err, errlen);
		r->file++;
	}
	if ((rc = reader_check(r, *line, *len, err, errlen)) != 0)
		return rc;
	memcpy(r->copy, *line, *len);
	r->copy[*len] = '\0';
	*line = r->copy;
	r->line++;
	r->count++;
	return 0;
}

int
pty_audit_verify_files(const char *const *paths, size_t npaths,
		       const char *key_path, const char *state_path,
		       FILE *report)
{
	struct pty_audit_reader *r = NULL;
	const char *name = npaths > 0 && paths != NULL && paths[0] != NULL
			       ? paths[0]
			       : "(null)";
	const char *line;
	char err[1024] = "", hash[65], fpr[64];
	unsigned long long seq;
	size_t len, i;
	int rc;

	if (pty_audit_reader_open(paths, npaths, key_path, state_path, &r,
				  err, sizeof err) != 0) {
		if (report != NULL)
			fprintf(report, "%s: cannot check: %s\n", name, err);
		return 2;
	}
	while ((rc = pty_audit_reader_next(r, &line, &len, err, sizeof err)) ==
	       0)
		;
	if (report != NULL && rc == 1) {
		for (i = 0; i < npaths; i++)
			fprintf(report, "%s%s", i > 0 ? ", " : "", paths[i]);
		fprintf(report, ": %llu records, chain intact\n",
			pty_audit_reader_count(r));
		pty_audit_reader_fingerprint(r, fpr);
		fprintf(report, "  verification key %s (compare it with the "
				"copy kept off this host)\n",
			fpr);
		if (pty_audit_reader_last(r, &seq, hash) == 0)
			fprintf(report, "  last record: seq %llu sha256 %s "
					"(compare it with the latest \"audit "
					"anchor\" in syslog)\n",
				seq, hash);
		if (state_path != NULL)
			fprintf(report, "  the state %s agrees: nothing was "
					"cut from the end\n",
				state_path);
		else
			fprintf(report, "  no state read: a cut end is not "
					"detected (give --state FILE)\n");
	} else if (report != NULL) {
		fprintf(report, "%s\n", err);
	}
	pty_audit_reader_close(r);
	return rc == 1 ? 0 : rc == -1 ? 1 : 2;
}

int
pty_audit_verify(const char *log_path, const char *key_path, FILE *report)
{
	if (log_path == NULL || key_path == NULL) {
		if (report != NULL)
			fprintf(report, "%s: cannot check: no log or no key "
					"named\n",
				log_path != NULL ? log_path : "(null)");
		return 2;
	}
	return pty_audit_verify_files(&log_path, 1, key_path, NULL, report);
}
