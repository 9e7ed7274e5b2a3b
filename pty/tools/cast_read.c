/* SPDX-License-Identifier: MIT */
/*
 * The asciicast v2 reader (pty_cast.h): newline-delimited JSON, a header
 * object then one event array a line.  Lines are read byte by byte into a
 * buffer of PTY_CAST_LINE_MAX bytes, so no line of the file, however
 * long, makes the reader hold more than that; jansson then reads one line
 * (its own depth limit bounds nesting).  The checks are those of the
 * format: version 2, a width and a height, events of three elements whose
 * time is a number that never goes back; an event code this reader does
 * not know is passed over, as the format's definition asks of a player
 * ("ignore event codes it doesn't understand").
 */
#include "pty_cast.h"
#include "pty_messages.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The longest event code read: the format's are one letter. */
#define CAST_CODE_MAX 8u

static int cast_fail(struct pty_cast_reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
cast_fail(struct pty_cast_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(r->err, sizeof r->err, fmt, ap);
	va_end(ap);
	return -1;
}

/* The next line into r->line (its newline dropped, and a "\r" before
 * it), NUL-ended at *len.  Returns 1, 0 at the end of the file, -1 with
 * r->err set. */
static int
cast_line(struct pty_cast_reader *r, size_t *len)
{
	size_t n = 0;
	int c;

	r->lineno++; /* the line being read, named by its refusals */
	for (;;) {
		c = getc_unlocked(r->f); /* one reader per file */
		if (c == EOF)
			break;
		if (r->bytes >= r->max_bytes)
			return cast_fail(r, PTY_MSG_CAST_TOO_BIG,
					 (unsigned long long)r->max_bytes);
		r->bytes++;
		if (c == '\n')
			break;
		if (n == PTY_CAST_LINE_MAX)
			return cast_fail(r, PTY_MSG_CAST_TOO_LONG,
					 PTY_CAST_LINE_MAX);
		r->line[n++] = (char)c;
	}
	if (c == EOF && ferror(r->f))
		return cast_fail(r, PTY_MSG_CAST_READ_FAILED,
				 strerror(errno != 0 ? errno : EIO));
	if (c == EOF && n == 0) {
		r->lineno--; /* there was no such line */
		return 0;
	}
	if (n > 0 && r->line[n - 1] == '\r')
		n--;
	r->line[n] = '\0';
	*len = n;
	return 1;
}

/* Whether a line holds only blanks: passed over (a file's last newline
 * followed by another, an editor's doing). */
static bool
cast_blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

/* The next line that is not blank, read as JSON into *out (the caller
 * decrefs it).  Returns 1, 0 at the end, -1 with r->err set. */
static int
cast_json(struct pty_cast_reader *r, json_t **out)
{
	json_error_t jerr;
	size_t n = 0;
	int rc;

	*out = NULL;
	do {
		if ((rc = cast_line(r, &n)) <= 0)
			return rc;
	} while (cast_blank(r->line, n));
	/* JSON_ALLOW_NUL: a terminal's output may hold a NUL byte, which
	 * the data keeps (its length says where it ends) */
	*out = json_loadb(r->line, n, JSON_ALLOW_NUL, &jerr);
	if (*out == NULL)
		return cast_fail(r, PTY_MSG_CAST_NOT_JSON, jerr.column,
				 jerr.text);
	return 1;
}

/* A header's width or height: an integer from PTY_RECORD_SIZE_MIN to
 * PTY_RECORD_SIZE_MAX, as the recorder writes one. */
static int
cast_size(struct pty_cast_reader *r, json_t *hdr, const char *key,
	  unsigned *out)
{
	json_t *v = json_object_get(hdr, key);
	json_int_t n;

	if (!json_is_integer(v) || (n = json_integer_value(v)) < 0 ||
	    !pty_record_size_valid((unsigned long long)n, PTY_RECORD_SIZE_MIN))
		return cast_fail(r, PTY_MSG_CAST_SIZE, key,
				 PTY_RECORD_SIZE_MAX);
	*out = (unsigned)n;
	return 0;
}

static int
cast_header(struct pty_cast_reader *r, json_t *hdr, struct pty_cast_header *h)
{
	json_t *v;
	char shown[32];

	if (!json_is_object(hdr))
		return cast_fail(r, PTY_MSG_CAST_NO_HEADER);
	v = json_object_get(hdr, "version");
	if (!json_is_integer(v) || json_integer_value(v) != 2) {
		if (json_is_integer(v))
			(void)snprintf(shown, sizeof shown, "%lld",
				       (long long)json_integer_value(v));
		else
			(void)snprintf(shown, sizeof shown, "%s",
				       v == NULL ? "not given"
						 : "not an integer");
		return cast_fail(r, PTY_MSG_CAST_VERSION, shown);
	}
	if (cast_size(r, hdr, "width", &h->width) != 0 ||
	    cast_size(r, hdr, "height", &h->height) != 0)
		return -1;
	/* optional; asciinema writes null for "none" */
	v = json_object_get(hdr, "idle_time_limit");
	if (v != NULL && !json_is_null(v)) {
		if (!json_is_number(v) || !isfinite(json_number_value(v)) ||
		    json_number_value(v) <= 0)
			return cast_fail(r, PTY_MSG_CAST_IDLE);
		h->idle_time_limit = json_number_value(v);
	}
	return 0;
}

int
pty_cast_begin(struct pty_cast_reader *r, FILE *f, uint64_t max_bytes,
	       struct pty_cast_header *h)
{
	json_t *hdr;
	int rc;

	memset(r, 0, sizeof *r);
	memset(h, 0, sizeof *h);
	h->idle_time_limit = -1;
	r->f = f;
	r->max_bytes = max_bytes != 0 ? max_bytes : PTY_CAST_FILE_MAX;
	r->line = malloc(PTY_CAST_LINE_MAX + 1);
	if (r->line == NULL)
		return cast_fail(r, PTY_MSG_CAST_READ_FAILED, strerror(ENOMEM));
	if ((rc = cast_json(r, &hdr)) <= 0)
		return rc == 0 ? cast_fail(r, PTY_MSG_CAST_EMPTY) : -1;
	rc = cast_header(r, hdr, h);
	json_decref(hdr);
	return rc;
}

/* Reads one event line already parsed: 1 an event of a known code, 0 one
 * passed over, -1 refused. */
static int
cast_event(struct pty_cast_reader *r, json_t *a, struct pty_cast_event *ev)
{
	static const struct {
		const char *name;
		enum pty_cast_code code;
	} codes[] = {
	    {"o", PTY_CAST_OUTPUT},
	    {"i", PTY_CAST_INPUT},
	    {"r", PTY_CAST_RESIZE},
	    {"m", PTY_CAST_MARKER},
	};
	json_t *t, *c, *d;
	const char *name;
	double time;
	size_t i, n;

	if (!json_is_array(a) || json_array_size(a) != 3)
		return cast_fail(r, PTY_MSG_CAST_NOT_EVENT);
	t = json_array_get(a, 0);
	c = json_array_get(a, 1);
	d = json_array_get(a, 2);
	time = json_is_number(t) ? json_number_value(t) : -1;
	if (!isfinite(time) || time < 0 || time > PTY_CAST_TIME_MAX)
		return cast_fail(r, PTY_MSG_CAST_BAD_TIME, PTY_CAST_TIME_MAX);
	if (time < r->last_time)
		return cast_fail(r, PTY_MSG_CAST_BACKWARDS, time, r->last_time);
	r->last_time = time;
	n = json_string_length(c);
	if (!json_is_string(c) || n == 0 || n > CAST_CODE_MAX)
		return cast_fail(r, PTY_MSG_CAST_BAD_CODE, CAST_CODE_MAX);
	name = json_string_value(c);
	for (i = 0; i < sizeof codes / sizeof codes[0]; i++)
		if (strcmp(name, codes[i].name) == 0 && n == 1)
			break;
	if (i == sizeof codes / sizeof codes[0]) {
		/* a code of a later format: its data is its own */
		r->skipped++;
		return 0;
	}
	if (!json_is_string(d))
		return cast_fail(r, PTY_MSG_CAST_BAD_DATA, codes[i].name);
	memset(ev, 0, sizeof *ev);
	ev->time = time;
	ev->code = codes[i].code;
	ev->data = json_string_value(d);
	ev->len = json_string_length(d);
	ev->lineno = r->lineno;
	if (ev->code == PTY_CAST_RESIZE &&
	    !pty_record_size_parse(ev->data, ev->len, &ev->cols, &ev->rows))
		return cast_fail(r, PTY_MSG_CAST_BAD_RESIZE,
				 PTY_RECORD_SIZE_MAX);
	return 1;
}

int
pty_cast_next(struct pty_cast_reader *r, struct pty_cast_event *ev)
{
	json_t *a;
	int rc;

	if (r->line == NULL)
		return cast_fail(r, PTY_MSG_CAST_READ_FAILED, strerror(EBADF));
	json_decref(r->event); /* the previous event's data dies here */
	r->event = NULL;
	for (;;) {
		if ((rc = cast_json(r, &a)) <= 0)
			return rc;
		rc = cast_event(r, a, ev);
		if (rc != 0) {
			if (rc > 0)
				r->event = a; /* ev->data points into it */
			else
				json_decref(a);
			return rc;
		}
		json_decref(a);
	}
}

void
pty_cast_end(struct pty_cast_reader *r)
{
	if (r == NULL)
		return;
	json_decref(r->event);
	r->event = NULL;
	free(r->line);
	r->line = NULL;
}
