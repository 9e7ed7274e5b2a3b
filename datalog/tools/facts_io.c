/* SPDX-License-Identifier: MIT */
/*
 * facts_io: .facts files in, sorted delimiter-separated rows out, for the
 * standalone runner (see facts_io.h).  Both directions are built for whole
 * benchmark inputs and outputs (millions of rows): input goes through one
 * fixed buffer with no allocation per line (input_edb_add copies what it
 * keeps), output rows are packed into one array of 64-bit keys, sorted once
 * and written through one buffer.
 */
#define _POSIX_C_SOURCE 200809L

#include "facts_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <maelys/datalog_builders.h>

#include <zlib.h>

/* Bytes read at a time.  The buffer also holds a partial line of up to
 * FACTS_IO_LINE_MAX bytes and its "\r", so a refill always has a chunk's
 * room after moving that partial line to the front. */
#define FACTS_IO_CHUNK (256u * 1024u)
#define FACTS_IO_BUF   (FACTS_IO_CHUNK + FACTS_IO_LINE_MAX + 2u)

/* Rows fetched from a result per enumerate_at call. */
#define FACTS_IO_PAGE 4096u

/* Bytes of a value quoted in an error message. */
#define FACTS_IO_QUOTE_MAX 60

#define FACTS_IO_INT_BIAS ((uint64_t)1 << 63)

/* The longest record of an rfc4180=true file, its quoted line ends
 * included: every field at the engine's string limit, with room. */
#define FACTS_IO_RECORD_MAX                                                    \
	((size_t)MAELYS_DATALOG_MAX_ARITY * (FACTS_IO_LINE_MAX + 1u))

/* The longest text of a float in a facts file. */
#define FACTS_IO_FLOAT_MAX 128

static void facts_io_fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
facts_io_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Up to FACTS_IO_QUOTE_MAX bytes of s, control bytes as '?', for a message:
 * the value comes from a data file and must not drive the terminal. */
static const char *
facts_io_quote(const char *s, size_t n, char *out, size_t outlen)
{
	size_t i, k = 0;

	for (i = 0; i < n && k + 4 < outlen; i++) {
		unsigned char c = (unsigned char)s[i];

		if (i == FACTS_IO_QUOTE_MAX) {
			memcpy(out + k, "...", 3);
			k += 3;
			break;
		}
		out[k++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	out[k] = '\0';
	return out;
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */

enum facts_line_status {
	FACTS_LINE_OK,
	FACTS_LINE_EOF,
	FACTS_LINE_TOO_LONG,
	FACTS_LINE_READ_ERROR, /* errno is set */
	FACTS_LINE_GZIP_ERROR, /* a gzip stream that is corrupt or cut */
};

struct facts_reader {
	int fd;
	/* a gzip-compressed file (Souffle reads them as they are): its
	 * bytes come through zlib; NULL for a plain one */
	gzFile gz;
	char *buf;    /* FACTS_IO_BUF bytes */
	size_t start; /* first byte not yet returned */
	size_t end;   /* one past the last byte read */
	bool eof;
	size_t line; /* number of the line last returned (1-based) */
	bool crlf;   /* the line last returned ended in "\r\n" */
};

static enum facts_line_status
facts_reader_next(struct facts_reader *r, const char **text, size_t *len)
{
	size_t n;

	for (;;) {
		const char *nl = NULL;
		ssize_t got;

		if (r->start < r->end)
			nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		if (nl != NULL) {
			n = (size_t)(nl - (r->buf + r->start));
			*text = r->buf + r->start;
			r->start += n + 1;
			break;
		}
		if (r->eof) {
			if (r->start == r->end)
				return FACTS_LINE_EOF;
			n = r->end - r->start; /* the last line, without \n */
			*text = r->buf + r->start;
			r->start = r->end;
			break;
		}
		/* no line end yet: too long already, or read more */
		if (r->end - r->start > FACTS_IO_LINE_MAX + 1u) {
			r->line++;
			return FACTS_LINE_TOO_LONG;
		}
		if (r->start > 0) {
			memmove(r->buf, r->buf + r->start, r->end - r->start);
			r->end -= r->start;
			r->start = 0;
		}
		if (r->gz != NULL) {
			int zerr = Z_OK;

			got = gzread(r->gz, r->buf + r->end,
				     (unsigned)(FACTS_IO_BUF - r->end));
			/* a stream cut short reads as an end of file, with
			 * Z_BUF_ERROR left for gzerror */
			if (got < 0 ||
			    (got == 0 &&
			     (gzerror(r->gz, &zerr), zerr != Z_OK)))
				return FACTS_LINE_GZIP_ERROR;
		} else {
			got = read(r->fd, r->buf + r->end,
				   FACTS_IO_BUF - r->end);
		}
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return FACTS_LINE_READ_ERROR;
		}
		if (got == 0)
			r->eof = true;
		else
			r->end += (size_t)got;
	}
	r->line++;
	r->crlf = n > 0 && (*text)[n - 1] == '\r';
	if (r->crlf)
		n--;
	if (n > FACTS_IO_LINE_MAX)
		return FACTS_LINE_TOO_LONG;
	*len = n;
	return FACTS_LINE_OK;
}

/* The first occurrence of delim (dlen >= 1 bytes) in s[0..n), or NULL. */
static const char *
facts_io_find(const char *s, size_t n, const char *delim, size_t dlen)
{
	const char *end = s + n;

	if (dlen == 1)
		return memchr(s, delim[0], n);
	while ((size_t)(end - s) >= dlen) {
		const char *p =
		    memchr(s, delim[0], (size_t)(end - s) - dlen + 1);

		if (p == NULL)
			return NULL;
		if (memcmp(p, delim, dlen) == 0)
			return p;
		s = p + 1;
	}
	return NULL;
}

/* The delimiter after a record's text that starts at s: a delimiter inside
 * its brackets or parentheses (a record's ", ", say) is part of it, as in
 * Souffle's reader.  The library reads the text itself (result_record_text
 * is its printer). */
static const char *
facts_io_find_after_record(const char *s, const char *end, const char *delim,
			   size_t dlen)
{
	size_t depth = 0;

	for (; s < end; s++) {
		if (*s == '[' || *s == '(') {
			depth++;
		} else if ((*s == ']' || *s == ')') && depth > 0) {
			depth--;
		} else if (depth == 0 && (size_t)(end - s) >= dlen &&
			   memcmp(s, delim, dlen) == 0) {
			return s;
		}
	}
	return NULL;
}

/*
 * A decimal int64: an optional '-' and digits.  `canonical` also refuses
 * what an integer would not print as ("007", "-0"), so an untyped column
 * reads "007" as the symbol it was written as.
 */
static bool
facts_io_parse_int(const char *s, size_t n, bool canonical, int64_t *out)
{
	uint64_t v = 0, lim = (uint64_t)INT64_MAX;
	bool neg = false;
	size_t i = 0;

	if (n > 0 && s[0] == '-') {
		neg = true;
		lim = (uint64_t)INT64_MAX + 1u;
		i = 1;
	}
	if (i == n)
		return false;
	if (canonical && s[i] == '0' && (n - i > 1 || neg))
		return false;
	for (; i < n; i++) {
		unsigned d = (unsigned)((unsigned char)s[i] - '0');

		if (d > 9 || v > (lim - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (!neg)
		*out = (int64_t)v;
	else if (v == (uint64_t)INT64_MAX + 1u)
		*out = INT64_MIN;
	else
		*out = -(int64_t)v;
	return true;
}

/* A uint64 in decimal, or in hexadecimal (0x1F) or binary (0b101) as
 * Souffle reads an unsigned column. */
static bool
facts_io_parse_uint(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	unsigned radix = 10;
	size_t i = 0;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		radix = 16;
		i = 2;
	} else if (n > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
		radix = 2;
		i = 2;
	}
	if (i == n)
		return false;
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
			     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
			     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
						    : 99u;

		if (d >= radix || v > (UINT64_MAX - d) / radix)
			return false;
		v = v * radix + d;
	}
	*out = v;
	return true;
}

/* A float as strtod reads it ("1.5", "2", "-3e4", "inf"), the whole field
 * and nothing around it; its bits in *out.  The runner never sets a
 * locale, so the point is '.'. */
static bool
facts_io_parse_float(const char *s, size_t n, int64_t *out)
{
	char buf[FACTS_IO_FLOAT_MAX + 1];
	char *end = NULL;
	double d;
	uint64_t u;

	if (n == 0 || n > FACTS_IO_FLOAT_MAX || s[0] == ' ' || s[0] == '\t')
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	d = strtod(buf, &end);
	if (end != buf + n)
		return false;
	memcpy(&u, &d, sizeof u);
	*out = (int64_t)u;
	return true;
}

/* What facts_io_read shares with the line parser. */
struct facts_ctx {
	maelys_datalog_input_edb_t *edb;
	const maelys_datalog_directive_t *d;
	const char *path;
	const char *delim;
	size_t dlen;
	maelys_datalog_diagnostic_t diag; /* overwritten by each failing add */
	char *err;
	size_t errlen;
	/* rfc4180: the reader (a quoted field may go on over the next
	 * lines) and the fields of the record, unquoted, one after another */
	struct facts_reader *r;
	bool extra_ok; /* FACTS_IO_SOUFFLE */
	char *rec;
	size_t reclen, reccap;
};

/* Appends n bytes to the record buffer (rfc4180).  -1 when the record
 * would pass FACTS_IO_RECORD_MAX or there is no memory. */
static int
facts_io_rec_put(struct facts_ctx *c, const char *s, size_t n)
{
	if (n > FACTS_IO_RECORD_MAX - c->reclen)
		return -1;
	if (n > c->reccap - c->reclen) {
		size_t ncap = c->reccap == 0 ? 4096 : c->reccap;
		char *nb;

		while (ncap - c->reclen < n)
			ncap *= 2;
		nb = realloc(c->rec, ncap);
		if (nb == NULL)
			return -1;
		c->rec = nb;
		c->reccap = ncap;
	}
	if (n > 0)
		memcpy(c->rec + c->reclen, s, n);
	c->reclen += n;
	return 0;
}

/*
 * Splits one record of an rfc4180=true file into its first `arity` fields,
 * as Souffle's reader does: a field that starts with '"' is quoted, ends at
 * the next lone '"', reads "" as a quote, may hold the delimiter and go on
 * over the next lines (their line ends kept), and must be followed by the
 * delimiter or the end of the line; any other field ends at the delimiter.
 * The fields are copied, unquoted, into c->rec; fields and flen point into
 * it.  Returns 0, or -1 with the error set.
 */
static int
facts_io_split_rfc4180(struct facts_ctx *c, size_t lineno, const char *text,
		       size_t len, const char **field, size_t *flen)
{
	size_t off[MAELYS_DATALOG_MAX_ARITY], arity = c->d->arity, k;
	size_t start = 0;
	bool crlf = c->r != NULL && c->r->crlf;

	c->reclen = 0;
	for (k = 0; k < arity; k++) {
		off[k] = c->reclen;
		if (start > len) {
			facts_io_fail(c->err, c->errlen,
				      "%s:%zu: %zu column%s, but %s has %zu",
				      c->path, lineno, k, k == 1 ? "" : "s",
				      c->d->predicate, arity);
			return -1;
		}
		if (start < len && text[start] == '"') {
			size_t pos = start + 1;
			bool closed = false;

			while (!closed) {
				char ch;

				if (pos == len) {
					/* the field goes on: the next line */
					if (c->r == NULL ||
					    facts_reader_next(c->r, &text,
							      &len) !=
						FACTS_LINE_OK)
						break;
					if ((crlf && facts_io_rec_put(
							 c, "\r", 1) != 0) ||
					    facts_io_rec_put(c, "\n", 1) != 0)
						goto too_long;
					crlf = c->r->crlf;
					pos = 0;
					continue;
				}
				ch = text[pos++];
				if (ch == '"' && pos < len &&
				    text[pos] == '"') {
					pos++;
				} else if (ch == '"') {
					closed = true;
					continue;
				}
				if (facts_io_rec_put(c, &ch, 1) != 0)
					goto too_long;
			}
			if (!closed) {
				facts_io_fail(c->err, c->errlen,
					      "%s:%zu: a quoted field of %s "
					      "has no closing quote",
					      c->path, lineno, c->d->predicate);
				return -1;
			}
			if (pos != len &&
			    (len - pos < c->dlen ||
			     memcmp(text + pos, c->delim, c->dlen) != 0)) {
				facts_io_fail(
				    c->err, c->errlen,
				    "%s:%zu: column %zu of %s: the "
				    "delimiter must follow a quoted "
				    "field",
				    c->path, c->r != NULL ? c->r->line : lineno,
				    k + 1, c->d->predicate);
				return -1;
			}
			start = pos + c->dlen;
		} else {
			const char *at = facts_io_find(
			    text + start, len - start, c->delim, c->dlen);
			size_t e = at != NULL ? (size_t)(at - text) : len;

			if (facts_io_rec_put(c, text + start, e - start) != 0)
				goto too_long;
			start = e + c->dlen;
		}
	}
	if (!c->extra_ok && start <= len) {
		facts_io_fail(c->err, c->errlen,
			      "%s:%zu: more columns than the %zu of %s",
			      c->path, c->r != NULL ? c->r->line : lineno,
			      arity, c->d->predicate);
		return -1;
	}
	for (k = 0; k < arity; k++) {
		/* no field has held a byte yet: rec is still NULL, and
		 * even NULL + 0 is undefined in C */
		field[k] = c->rec != NULL ? c->rec + off[k] : "";
		flen[k] = (k + 1 < arity ? off[k + 1] : c->reclen) - off[k];
	}
	return 0;
too_long:
	facts_io_fail(c->err, c->errlen,
		      "%s:%zu: a record of %s longer than %u bytes (or no "
		      "memory for it)",
		      c->path, lineno, c->d->predicate,
		      (unsigned)FACTS_IO_RECORD_MAX);
	return -1;
}

static int
facts_io_line(struct facts_ctx *c, size_t lineno, const char *text, size_t len)
{
	maelys_datalog_arg_t args[MAELYS_DATALOG_MAX_ARITY];
	const char *field[MAELYS_DATALOG_MAX_ARITY];
	size_t flen[MAELYS_DATALOG_MAX_ARITY];
	const char *p = text, *end = text + len;
	size_t arity = c->d->arity, nf = 0, k;
	char q[FACTS_IO_QUOTE_MAX + 8];

	if (arity == 0) {
		/* Souffle writes a true nullary relation as "()" */
		if (!(len == 0 || (len == 2 && memcmp(text, "()", 2) == 0))) {
			facts_io_fail(c->err, c->errlen,
				      "%s:%zu: '%s' in a file of the nullary "
				      "relation %s (expected an empty line "
				      "or \"()\")",
				      c->path, lineno,
				      facts_io_quote(text, len, q, sizeof q),
				      c->d->predicate);
			return -1;
		}
	}
	if (c->d->rfc4180 && arity > 0) {
		if (facts_io_split_rfc4180(c, lineno, text, len, field, flen) !=
		    0)
			return -1;
		nf = arity;
	}
	/* Souffle reads the first `arity` columns of a line and ignores what
	 * follows them; otherwise they are counted, for the error */
	while (arity > 0 && !c->d->rfc4180 && (nf < arity || !c->extra_ok)) {
		const char *at =
		    nf < arity &&
			    c->d->columns[nf] == MAELYS_DATALOG_COLUMN_RECORD
			? facts_io_find_after_record(p, end, c->delim, c->dlen)
			: facts_io_find(p, (size_t)(end - p), c->delim,
					c->dlen);
		const char *fe = at != NULL ? at : end;

		if (nf < arity) {
			field[nf] = p;
			flen[nf] = (size_t)(fe - p);
		}
		nf++;
		if (at == NULL)
			break;
		p = at + c->dlen;
	}
	if (nf != arity) {
		facts_io_fail(c->err, c->errlen,
			      "%s:%zu: %zu column%s, but %s has %zu", c->path,
			      lineno, nf, nf == 1 ? "" : "s", c->d->predicate,
			      arity);
		return -1;
	}
	for (k = 0; k < arity; k++) {
		int64_t v;

		switch (c->d->columns[k]) {
		case MAELYS_DATALOG_COLUMN_NUMBER:
			if (!facts_io_parse_int(field[k], flen[k], false, &v)) {
				facts_io_fail(
				    c->err, c->errlen,
				    "%s:%zu: column %zu: '%s' is not a "
				    "number (a decimal 64-bit integer)",
				    c->path, lineno, k + 1,
				    facts_io_quote(field[k], flen[k], q,
						   sizeof q));
				return -1;
			}
			args[k] = maelys_datalog_arg_integer(v);
			break;
		case MAELYS_DATALOG_COLUMN_UNSIGNED: {
			uint64_t u;

			if (!facts_io_parse_uint(field[k], flen[k], &u)) {
				facts_io_fail(
				    c->err, c->errlen,
				    "%s:%zu: column %zu: '%s' is not an "
				    "unsigned (a 64-bit unsigned integer: "
				    "decimal, 0x hexadecimal or 0b binary)",
				    c->path, lineno, k + 1,
				    facts_io_quote(field[k], flen[k], q,
						   sizeof q));
				return -1;
			}
			args[k] = maelys_datalog_arg_integer((int64_t)u);
			break;
		}
		case MAELYS_DATALOG_COLUMN_FLOAT:
			if (!facts_io_parse_float(field[k], flen[k], &v)) {
				facts_io_fail(
				    c->err, c->errlen,
				    "%s:%zu: column %zu: '%s' is not a float",
				    c->path, lineno, k + 1,
				    facts_io_quote(field[k], flen[k], q,
						   sizeof q));
				return -1;
			}
			args[k] = maelys_datalog_arg_integer(v);
			break;
		case MAELYS_DATALOG_COLUMN_ANY:
			if (facts_io_parse_int(field[k], flen[k], true, &v)) {
				args[k] = maelys_datalog_arg_integer(v);
				break;
			}
			args[k] =
			    maelys_datalog_arg_symbol_n(field[k], flen[k]);
			break;
		case MAELYS_DATALOG_COLUMN_SYMBOL:
		default:
			args[k] =
			    maelys_datalog_arg_symbol_n(field[k], flen[k]);
			break;
		}
	}
	if (maelys_datalog_input_edb_add(c->edb, c->d->predicate, args, arity,
					 &c->diag) !=
	    MAELYS_DATALOG_STATUS_OK) {
		facts_io_fail(c->err, c->errlen, "%s:%zu: %s: %s", c->path,
			      lineno,
			      maelys_datalog_status_name(c->diag.status),
			      c->diag.message);
		return -1;
	}
	return 0;
}

/* The delimiter of a directive: its delimiter=, else ',' with rfc4180=true
 * and a tab otherwise (Souffle's defaults). */
const char *
facts_io_delimiter(const maelys_datalog_directive_t *d)
{
	if (d->delimiter != NULL)
		return d->delimiter;
	return d->rfc4180 ? "," : "\t";
}

/* Whether the file fd reads (at its start) is gzip-compressed: its first
 * two bytes are gzip's magic.  Read with pread, which leaves the offset
 * as it is; a pipe cannot be asked (ESPIPE) and reads as plain. */
static bool
facts_io_is_gzip(int fd)
{
	unsigned char magic[2];
	ssize_t n;

	do
		n = pread(fd, magic, sizeof magic, 0);
	while (n < 0 && errno == EINTR);
	return n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

int
facts_io_read_fd(maelys_datalog_input_edb_t *edb, int fd, const char *path,
		 const maelys_datalog_directive_t *d, unsigned flags, char *err,
		 size_t errlen)
{
	struct facts_reader r;
	struct facts_ctx c;
	const char *text = NULL;
	size_t len = 0;
	bool header = d->headers != 0;
	int rc = -1;

	memset(&c, 0, sizeof c);
	memset(&r, 0, sizeof r);
	r.fd = fd;
	c.edb = edb;
	c.d = d;
	c.path = path;
	c.delim = facts_io_delimiter(d);
	c.dlen = strlen(c.delim);
	c.err = err;
	c.errlen = errlen;
	c.r = &r;
	c.extra_ok = (flags & FACTS_IO_SOUFFLE) != 0;
	if (c.dlen == 0) {
		facts_io_fail(err, errlen,
			      "%s: the delimiter of .input %s is empty", path,
			      d->predicate);
		return -1;
	}
	if (d->rfc4180 && memchr(c.delim, '"', c.dlen) != NULL) {
		facts_io_fail(err, errlen,
			      "%s: .input %s: with rfc4180=true the delimiter "
			      "cannot hold '\"'",
			      path, d->predicate);
		return -1;
	}
	r.buf = malloc(FACTS_IO_BUF);
	if (r.buf == NULL) {
		facts_io_fail(err, errlen, "%s: out of memory", path);
		return -1;
	}
	if (facts_io_is_gzip(fd)) {
		int zfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);

		/* gzdopen owns its descriptor (gzclose closes it): a copy,
		 * so that the caller's stays the caller's */
		r.gz = zfd < 0 ? NULL : gzdopen(zfd, "rb");
		if (r.gz == NULL) {
			if (zfd >= 0)
				(void)close(zfd);
			facts_io_fail(err, errlen,
				      "%s: cannot read the gzip-compressed "
				      "facts of .input %s",
				      path, d->predicate);
			goto out;
		}
	}
	for (;;) {
		switch (facts_reader_next(&r, &text, &len)) {
		case FACTS_LINE_OK:
			if (r.line == 1 && len >= 2 &&
			    memcmp(text, "\x1f\x8b", 2) == 0) {
				/* gzip from a pipe, where it cannot be
				 * told before it is read: a line of its
				 * compressed bytes would be a confusing
				 * column error */
				facts_io_fail(err, errlen,
					      "%s: a gzip-compressed stream "
					      "that is not a file (the facts "
					      "of .input %s): decompress it "
					      "first",
					      path, d->predicate);
				goto out;
			}
			if (header) { /* headers=true: the columns' names */
				header = false;
				continue;
			}
			if (facts_io_line(&c, r.line, text, len) != 0)
				goto out;
			continue;
		case FACTS_LINE_EOF:
			rc = 0;
			goto out;
		case FACTS_LINE_TOO_LONG:
			facts_io_fail(err, errlen,
				      "%s:%zu: line longer than %u bytes (the "
				      "engine's string limit)",
				      path, r.line,
				      (unsigned)FACTS_IO_LINE_MAX);
			goto out;
		case FACTS_LINE_READ_ERROR:
			facts_io_fail(err, errlen, "%s: read error: %s", path,
				      strerror(errno));
			goto out;
		case FACTS_LINE_GZIP_ERROR: {
			int zerr = Z_OK;
			const char *why = gzerror(r.gz, &zerr);
			const char *colon = why != NULL ? strstr(why, ": ")
						       : NULL;

			/* zlib names the stream "<fd:N>" (gzdopen): the
			 * path is said already */
			if (why == NULL)
				why = "?";
			else if (strncmp(why, "<fd:", 4) == 0 && colon != NULL)
				why = colon + 2;

			facts_io_fail(err, errlen,
				      "%s:%zu: the gzip-compressed facts of "
				      ".input %s are corrupt or cut short "
				      "(%s)",
				      path, r.line + 1, d->predicate,
				      zerr == Z_ERRNO ? strerror(errno) : why);
			goto out;
		}
		}
	}
out:
	if (r.gz != NULL)
		(void)gzclose(r.gz);
	free(r.buf);
	free(c.rec);
	return rc;
}

int
facts_io_read(maelys_datalog_input_edb_t *edb, const char *path,
	      const maelys_datalog_directive_t *d, unsigned flags, char *err,
	      size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0) {
		facts_io_fail(err, errlen,
			      "%s: cannot open the facts of .input %s: %s",
			      path, d->predicate, strerror(errno));
		return -1;
	}
	rc = facts_io_read_fd(edb, fd, path, d, flags, err, errlen);
	(void)close(fd);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Writing                                                              */

/*
 * A row is `width` = arity + 1 words: word 0 has bit k set when column k is
 * a symbol; word k + 1 is the column's sort key: an integer with its sign
 * bit flipped (so unsigned order is numeric order), or a symbol's rank in
 * bytewise order.  qsort has no context argument, hence the file-scope width
 * (the runner is single-threaded).
 */
static size_t facts_sort_width;

static int
facts_io_row_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	size_t k;

	for (k = 1; k < facts_sort_width; k++) {
		uint64_t sx = (x[0] >> (k - 1)) & 1u,
			 sy = (y[0] >> (k - 1)) & 1u;

		if (sx != sy)
			return sx < sy ? -1 : 1; /* integers first */
		if (x[k] != y[k])
			return x[k] < y[k] ? -1 : 1;
	}
	return 0;
}

/*
 * Sorts the rows in the order of facts_io_row_cmp.  When every column holds
 * one kind only (the usual case: typed columns), the kind bits cannot decide
 * anything and the rows are sorted by an LSD radix sort on the key bytes,
 * least significant column first, skipping bytes that are equal in every row
 * (small integers and ranks have few).  Otherwise, or without memory for the
 * second buffer, qsort.
 */
static void
facts_io_sort(uint64_t *rows, size_t count, size_t width)
{
	size_t(*hist)[256] = NULL;
	uint64_t *tmp = NULL, *src = rows, *dst, mixed = 0;
	size_t i, col, b;

	facts_sort_width = width;
	for (i = 1; i < count; i++)
		mixed |= rows[i * width] ^ rows[0];
	if (mixed == 0) {
		tmp = malloc(count * width * sizeof *tmp);
		hist = malloc(8 * sizeof *hist);
	}
	if (tmp == NULL || hist == NULL) {
		free(tmp);
		free(hist);
		qsort(rows, count, width * sizeof *rows, facts_io_row_cmp);
		return;
	}
	dst = tmp;
	for (col = width - 1; col >= 1; col--) {
		memset(hist, 0, 8 * sizeof *hist);
		for (i = 0; i < count; i++) {
			uint64_t v = src[i * width + col];

			for (b = 0; b < 8; b++)
				hist[b][(v >> (8 * b)) & 0xffu]++;
		}
		for (b = 0; b < 8; b++) {
			size_t sum = 0, d;
			uint64_t *t;

			if (hist[b][(src[col] >> (8 * b)) & 0xffu] == count)
				continue; /* the same byte in every row */
			for (d = 0; d < 256; d++) {
				size_t c = hist[b][d];

				hist[b][d] = sum;
				sum += c;
			}
			for (i = 0; i < count; i++) {
				const uint64_t *r = src + i * width;
				size_t at =
				    hist[b][(r[col] >> (8 * b)) & 0xffu]++;

				memcpy(dst + at * width, r, width * sizeof *r);
			}
			t = src;
			src = dst;
			dst = t;
		}
	}
	if (src != rows)
		memcpy(rows, src, count * width * sizeof *rows);
	free(tmp);
	free(hist);
}

struct facts_sym {
	const char *text;
	size_t len;
	uint32_t slot; /* index before sorting */
	char *owned;   /* a record's printed text (text), freed with the set */
};

static int
facts_io_sym_cmp(const void *a, const void *b)
{
	const struct facts_sym *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = n > 0 ? memcmp(x->text, y->text, n) : 0;

	if (c != 0)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

/* The distinct symbol ids of a relation: an open-addressing map from id to
 * a dense index into syms[]. */
struct facts_symset {
	uint32_t *ids;
	uint32_t *idx; /* dense index + 1; 0 marks an empty slot */
	size_t cap;    /* a power of two, at least twice nsyms */
	struct facts_sym *syms;
	size_t nsyms, capsyms;
};

static size_t
facts_io_hash(uint32_t id, size_t cap)
{
	return (size_t)(((uint64_t)id * 0x9E3779B97F4A7C15ull) >> 32) &
	       (cap - 1);
}

static int
facts_symset_grow(struct facts_symset *s)
{
	size_t ncap = s->cap == 0 ? 1024 : s->cap * 2, i;
	uint32_t *ids = calloc(ncap, sizeof *ids);
	uint32_t *idx = calloc(ncap, sizeof *idx);

	if (ids == NULL || idx == NULL) {
		free(ids);
		free(idx);
		return -1;
	}
	for (i = 0; i < s->cap; i++) {
		size_t h;

		if (s->idx[i] == 0)
			continue;
		h = facts_io_hash(s->ids[i], ncap);
		while (idx[h] != 0)
			h = (h + 1) & (ncap - 1);
		ids[h] = s->ids[i];
		idx[h] = s->idx[i];
	}
	free(s->ids);
	free(s->idx);
	s->ids = ids;
	s->idx = idx;
	s->cap = ncap;
	return 0;
}

/* The dense index of symbol `id`, added on first sight; -1: no memory. */
static int
facts_symset_index(struct facts_symset *s, uint32_t id, uint32_t *out)
{
	size_t h;

	if (s->nsyms >= s->cap / 2 && facts_symset_grow(s) != 0)
		return -1;
	h = facts_io_hash(id, s->cap);
	while (s->idx[h] != 0) {
		if (s->ids[h] == id) {
			*out = s->idx[h] - 1;
			return 0;
		}
		h = (h + 1) & (s->cap - 1);
	}
	if (s->nsyms == s->capsyms) {
		size_t ncap = s->capsyms == 0 ? 256 : s->capsyms * 2;
		struct facts_sym *n = realloc(s->syms, ncap * sizeof *n);

		if (n == NULL)
			return -1;
		s->syms = n;
		s->capsyms = ncap;
	}
	if (s->nsyms >= UINT32_MAX - 1u)
		return -1;
	s->ids[h] = id;
	s->syms[s->nsyms].slot = (uint32_t)s->nsyms;
	s->syms[s->nsyms].text = NULL;
	s->syms[s->nsyms].len = 0;
	s->syms[s->nsyms].owned = NULL;
	*out = (uint32_t)s->nsyms;
	s->idx[h] = (uint32_t)++s->nsyms;
	return 0;
}

static void
facts_symset_free(struct facts_symset *s)
{
	size_t i;

	for (i = 0; i < s->nsyms; i++)
		free(s->syms[i].owned);
	free(s->ids);
	free(s->idx);
	free(s->syms);
}

/* Output through one buffer: a putc per byte would lock the stream per
 * byte, and rows are written by the million. */
struct facts_out {
	FILE *f;
	size_t n;
	char buf[1u << 16];
};

static void
facts_out_flush(struct facts_out *o)
{
	if (o->n > 0)
		(void)fwrite(o->buf, 1, o->n, o->f); /* caller checks ferror */
	o->n = 0;
}

static void
facts_out_put(struct facts_out *o, const char *s, size_t n)
{
	if (n > sizeof o->buf - o->n) {
		facts_out_flush(o);
		if (n > sizeof o->buf) {
			(void)fwrite(s, 1, n, o->f);
			return;
		}
	}
	memcpy(o->buf + o->n, s, n);
	o->n += n;
}

static void
facts_out_int(struct facts_out *o, int64_t v)
{
	char tmp[24];
	size_t k = sizeof tmp;
	uint64_t u = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;

	do {
		tmp[--k] = (char)('0' + (int)(u % 10u));
		u /= 10u;
	} while (u != 0);
	if (v < 0)
		tmp[--k] = '-';
	facts_out_put(o, tmp + k, sizeof tmp - k);
}

/* An integer's sort key in a column of type col: unsigned as is, a
 * float's bits mapped to an order-preserving key (negative floats have
 * every bit flipped, others the sign bit), a number with its sign bit
 * flipped. */
static uint64_t
facts_io_key(maelys_datalog_column_type_t col, int64_t v)
{
	uint64_t u = (uint64_t)v;

	if (col == MAELYS_DATALOG_COLUMN_UNSIGNED)
		return u;
	if (col == MAELYS_DATALOG_COLUMN_FLOAT)
		return (u >> 63) != 0 ? ~u : u ^ FACTS_IO_INT_BIAS;
	return u ^ FACTS_IO_INT_BIAS;
}

static int64_t
facts_io_unkey(maelys_datalog_column_type_t col, uint64_t k)
{
	if (col == MAELYS_DATALOG_COLUMN_UNSIGNED)
		return (int64_t)k;
	if (col == MAELYS_DATALOG_COLUMN_FLOAT)
		return (int64_t)((k >> 63) != 0 ? k ^ FACTS_IO_INT_BIAS : ~k);
	return (int64_t)(k ^ FACTS_IO_INT_BIAS);
}

static void
facts_out_uint(struct facts_out *o, uint64_t u)
{
	char tmp[24];
	size_t k = sizeof tmp;

	do {
		tmp[--k] = (char)('0' + (int)(u % 10u));
		u /= 10u;
	} while (u != 0);
	facts_out_put(o, tmp + k, sizeof tmp - k);
}

/* A float as Souffle's streams write it: the library's printer, which
 * record fields print through too. */
static void
facts_out_float(struct facts_out *o, int64_t bits)
{
	char tmp[MAELYS_DATALOG_FLOAT_TEXT_MAX];
	uint64_t u = (uint64_t)bits;
	double d;
	size_t n;

	memcpy(&d, &u, sizeof d);
	n = maelys_datalog_float_text(d, tmp, sizeof tmp);
	facts_out_put(o, tmp, n < sizeof tmp ? n : sizeof tmp - 1);
}

/* Fetches every row of the relation into rows[] (width words each),
 * symbols as dense indexes into set->syms. */
static int
facts_io_fetch(const maelys_datalog_result_t *result, const char *predicate,
	       size_t arity, const maelys_datalog_column_type_t *columns,
	       size_t count, uint64_t *rows, struct facts_symset *set,
	       char *err, size_t errlen)
{
	maelys_datalog_fact_view_t *page;
	size_t width = arity + 1, off = 0;
	maelys_datalog_status_t st;

	page = malloc(FACTS_IO_PAGE * sizeof *page);
	if (page == NULL) {
		facts_io_fail(err, errlen, "out of memory");
		return -1;
	}
	while (off < count) {
		size_t got = 0, i, k;

		st = maelys_datalog_result_enumerate_at(
		    result, predicate, arity, off, page, FACTS_IO_PAGE, &got);
		if (st != MAELYS_DATALOG_STATUS_OK) {
			facts_io_fail(err, errlen,
				      "%s: reading relation %s: %s",
				      maelys_datalog_status_name(st), predicate,
				      maelys_datalog_status_meaning(st));
			free(page);
			return -1;
		}
		if (got == 0) { /* the engine broke its count: never loop */
			facts_io_fail(err, errlen,
				      "relation %s has fewer rows (%zu) than "
				      "its count (%zu)",
				      predicate, off, count);
			free(page);
			return -1;
		}
		for (i = 0; i < got && off + i < count; i++) {
			uint64_t *row = rows + (off + i) * width;

			row[0] = 0;
			for (k = 0; k < arity; k++) {
				const maelys_datalog_term_t *t =
				    &page[i].terms[k];
				uint32_t ix;

				if (t->kind == MAELYS_DATALOG_TERM_INTEGER) {
					row[k + 1] = facts_io_key(
					    columns != NULL
						? columns[k]
						: MAELYS_DATALOG_COLUMN_NUMBER,
					    t->as.integer);
					continue;
				}
				if (facts_symset_index(set, t->as.symbol_id,
						       &ix) != 0) {
					facts_io_fail(err, errlen,
						      "out of memory");
					free(page);
					return -1;
				}
				row[0] |= (uint64_t)1 << k;
				row[k + 1] = ix;
			}
		}
		off += got;
	}
	free(page);
	return 0;
}

/* The text of a record or ADT value (result_record_text), kept in
 * s->owned; -1 if the id is no record either, or on no memory. */
static int
facts_io_record_text(const maelys_datalog_result_t *result, uint32_t id,
		     struct facts_sym *s)
{
	char probe[256];
	size_t len = 0;
	maelys_datalog_status_t st;

	st = maelys_datalog_result_record_text(result, id, probe, sizeof probe,
					       &len);
	if (st != MAELYS_DATALOG_STATUS_OK &&
	    !(st == MAELYS_DATALOG_STATUS_LIMIT && len >= sizeof probe))
		return -1;
	s->owned = malloc(len + 1);
	if (s->owned == NULL)
		return -1;
	if (st == MAELYS_DATALOG_STATUS_OK)
		memcpy(s->owned, probe, len + 1);
	else if (maelys_datalog_result_record_text(result, id, s->owned,
						   len + 1, &len) !=
		 MAELYS_DATALOG_STATUS_OK)
		return -1;
	s->text = s->owned;
	s->len = len;
	return 0;
}

/* Sorts the symbols by text and turns each row's symbol indexes into
 * ranks (positions in the sorted syms[]). */
static int
facts_io_rank(const maelys_datalog_result_t *result, size_t arity, size_t count,
	      uint64_t *rows, struct facts_symset *set, char *err,
	      size_t errlen)
{
	size_t width = arity + 1, i, k;
	uint32_t *rank;

	if (set->nsyms == 0)
		return 0;
	/* ids of the hash slots, back to each dense index */
	for (i = 0; i < set->cap; i++) {
		struct facts_sym *s;

		if (set->idx[i] == 0)
			continue;
		s = &set->syms[set->idx[i] - 1];
		if (maelys_datalog_result_symbol_text(result, set->ids[i],
						      &s->text, &s->len) !=
			MAELYS_DATALOG_STATUS_OK &&
		    facts_io_record_text(result, set->ids[i], s) != 0) {
			facts_io_fail(err, errlen,
				      "invalid_argument: the result does not "
				      "know symbol %u",
				      (unsigned)set->ids[i]);
			return -1;
		}
	}
	qsort(set->syms, set->nsyms, sizeof *set->syms, facts_io_sym_cmp);
	rank = malloc(set->nsyms * sizeof *rank);
	if (rank == NULL) {
		facts_io_fail(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < set->nsyms; i++)
		rank[set->syms[i].slot] = (uint32_t)i;
	for (i = 0; i < count; i++) {
		uint64_t *row = rows + i * width;

		for (k = 0; k < arity; k++)
			if ((row[0] >> k) & 1u)
				row[k + 1] = rank[row[k + 1]];
	}
	free(rank);
	return 0;
}

/* A symbol of an rfc4180=true output: in quotes, a quote doubled. */
static void
facts_out_quoted(struct facts_out *o, const char *s, size_t n)
{
	size_t i, from = 0;

	facts_out_put(o, "\"", 1);
	for (i = 0; i < n; i++)
		if (s[i] == '"') {
			facts_out_put(o, s + from, i + 1 - from);
			facts_out_put(o, "\"", 1);
			from = i + 1;
		}
	facts_out_put(o, s + from, n - from);
	facts_out_put(o, "\"", 1);
}

void
facts_io_write_header(FILE *out, const maelys_datalog_directive_t *d)
{
	const char *delim = facts_io_delimiter(d);
	size_t i;

	for (i = 0; i < d->arity; i++)
		fprintf(out, "%s%s", i == 0 ? "" : delim,
			d->column_names[i] != NULL ? d->column_names[i] : "");
}

int
facts_io_write(FILE *out, const maelys_datalog_result_t *result,
	       const maelys_datalog_directive_t *d, char *err, size_t errlen)
{
	const char *predicate = d->predicate,
		   *delimiter = facts_io_delimiter(d);
	size_t arity = d->arity;
	bool quote = d->rfc4180 != 0;
	/* an UNSIGNED column's integers sort and print as unsigned, a
	 * FLOAT column's as the doubles their bits are */
	const maelys_datalog_column_type_t *columns = d->columns;
	struct facts_symset set;
	struct facts_out *o = NULL;
	uint64_t *rows = NULL;
	size_t count = 0, width = arity + 1, dlen, i, k;
	maelys_datalog_status_t st;
	int rc = -1;

	dlen = strlen(delimiter);
	memset(&set, 0, sizeof set);
	st = maelys_datalog_result_count(result, predicate, arity, &count);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		facts_io_fail(err, errlen, "%s: relation %s/%zu: %s",
			      maelys_datalog_status_name(st), predicate, arity,
			      maelys_datalog_status_meaning(st));
		return -1;
	}
	o = malloc(sizeof *o);
	if (o == NULL || (count > 0 && width > SIZE_MAX / sizeof *rows / count))
		goto nomem;
	o->f = out;
	o->n = 0;
	if (arity == 0 || count == 0) {
		if (count > 0)
			facts_out_put(o, "()\n", 3);
		facts_out_flush(o);
		free(o);
		return 0;
	}
	rows = malloc(count * width * sizeof *rows);
	if (rows == NULL)
		goto nomem;
	if (facts_io_fetch(result, predicate, arity, columns, count, rows, &set,
			   err, errlen) != 0 ||
	    facts_io_rank(result, arity, count, rows, &set, err, errlen) != 0)
		goto out;
	if (count > 1)
		facts_io_sort(rows, count, width);
	for (i = 0; i < count; i++) {
		const uint64_t *row = rows + i * width;

		for (k = 0; k < arity; k++) {
			if (k > 0)
				facts_out_put(o, delimiter, dlen);
			if ((row[0] >> k) & 1u) {
				const struct facts_sym *s =
				    &set.syms[row[k + 1]];

				if (quote)
					facts_out_quoted(o, s->text, s->len);
				else
					facts_out_put(o, s->text, s->len);
			} else {
				maelys_datalog_column_type_t col =
				    columns != NULL
					? columns[k]
					: MAELYS_DATALOG_COLUMN_NUMBER;
				int64_t v = facts_io_unkey(col, row[k + 1]);

				if (col == MAELYS_DATALOG_COLUMN_UNSIGNED)
					facts_out_uint(o, (uint64_t)v);
				else if (col == MAELYS_DATALOG_COLUMN_FLOAT)
					facts_out_float(o, v);
				else
					facts_out_int(o, v);
			}
		}
		facts_out_put(o, "\n", 1);
	}
	facts_out_flush(o);
	rc = 0;
	goto out;
nomem:
	facts_io_fail(err, errlen,
		      "no_memory: cannot hold the %zu rows of %s for sorting",
		      count, predicate);
out:
	free(rows);
	free(o);
	facts_symset_free(&set);
	return rc;
}
