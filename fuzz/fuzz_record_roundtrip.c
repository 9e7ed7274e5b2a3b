/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the agreement of the recording's writer
 * (pty/record/record_encode.c, record_size.c) and the reader of
 * `maelys-pty replay` (pty/tools/cast_read.c): whatever the writer writes,
 * the reader reads to its end, each event as it was meant.
 *
 * The input is a recording's makings, as the audit writer is given them:
 *   - 4 bytes: the header's width and height (little-endian, 16 bits
 *     each; 0 included), then 1 byte n and n bytes of TERM (cut at a NUL,
 *     as a C string is: what an ssh client sends);
 *   - then events, each 1 byte (its kind: o, i, r or m by its value modulo
 *     4; the rest, the time step in milliseconds), 2 bytes n
 *     (little-endian, modulo PTY_RECORD_CHUNK_MAX + 1), n bytes of data;
 *     "o" and "i" with their streams' UTF-8 carry, as the writer keeps it.
 * Checked:
 *   - the header is encoded exactly when its size is one
 *     (pty_record_size_valid), and an "r" event exactly when its data is
 *     a size (pty_record_size_parse);
 *   - the reader reads the header and then every event written, in order,
 *     to the end, with no refusal: each with its kind, its time, a
 *     resize's size, and data that, encoded again, is the text the writer
 *     wrote (the reader took what the writer meant).
 */
#include "fuzz.h"

#include "pty_cast.h"
#include "pty_record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Events per input (the rest of a longer input is not read). */
#define FUZZ_EVENTS_MAX 64

/* What the reader must read of one written event. */
struct fuzz_written {
	enum pty_cast_code code;
	uint64_t t_us;
	unsigned cols, rows;
	size_t at, len; /* its data's text in the file */
};

static char
    file[PTY_RECORD_HEADER_MAX + FUZZ_EVENTS_MAX * (PTY_RECORD_EVENT_MAX + 64)];
/* an event's data as read, encoded again: its text is at least as long */
static char again[6 * PTY_RECORD_EVENT_MAX];
static struct fuzz_written written[FUZZ_EVENTS_MAX + 2];

/* The text of an event line's data: after `, "K", "` and before `"]\n`. */
static void
fuzz_data_of(const char *line, size_t len, size_t base, struct fuzz_written *w)
{
	static const char tail[] = "\"]\n";
	const char *open = memchr(line, '"', len);

	if (open == NULL || (size_t)(line + len - open) < 6 + 3 ||
	    memcmp(line + len - 3, tail, 3) != 0)
		abort();
	w->at = base + (size_t)(open + 6 - line);
	w->len = (size_t)(line + len - 3 - (open + 6));
}

/* Appends an encoded event and what the reader must find of it. */
static void
fuzz_put(size_t *used, size_t *nw, size_t n, char kind, uint64_t t_us,
	 const char *data, size_t len)
{
	static const struct {
		char kind;
		enum pty_cast_code code;
	} codes[] = {{'o', PTY_CAST_OUTPUT},
		     {'i', PTY_CAST_INPUT},
		     {'r', PTY_CAST_RESIZE},
		     {'m', PTY_CAST_MARKER}};
	struct fuzz_written *w = &written[*nw];
	size_t i;

	memset(w, 0, sizeof *w);
	for (i = 0; i < 4; i++)
		if (codes[i].kind == kind)
			w->code = codes[i].code;
	w->t_us = t_us;
	if (kind == 'r' &&
	    !pty_record_size_parse(data, len, &w->cols, &w->rows))
		abort();
	fuzz_data_of(file + *used, n, *used, w);
	*used += n;
	(*nw)++;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pty_record_carry carry_o = {{0}, 0}, carry_i = {{0}, 0};
	struct pty_record_header h;
	struct pty_cast_reader r;
	struct pty_cast_header ch;
	struct pty_cast_event ev;
	char term[256];
	size_t used, nw = 0, got = 0, pos, n, i;
	uint64_t t_us = 0;
	unsigned cols, rows;
	int rc;
	FILE *f;

	if (size < 5)
		return 0;
	memset(&h, 0, sizeof h);
	h.width = (unsigned)data[0] | (unsigned)data[1] << 8;
	h.height = (unsigned)data[2] | (unsigned)data[3] << 8;
	n = data[4];
	pos = 5;
	if (n > size - pos)
		n = size - pos;
	memcpy(term, data + pos, n);
	term[n] = '\0';
	pos += n;
	h.timestamp = 1700000000;
	h.shell = "/bin/bash";
	h.term = term;
	h.title = term;
	used = pty_record_encode_header(&h, file);
	if ((used != 0) != pty_record_size_valid(h.width, h.height))
		abort();
	if (used == 0)
		return 0;
	/* the events */
	while (nw < FUZZ_EVENTS_MAX && size - pos >= 3) {
		static const char kinds[4] = {'o', 'i', 'r', 'm'};
		char kind = kinds[data[pos] % 4];
		struct pty_record_carry *carry = kind == 'o'   ? &carry_o
						 : kind == 'i' ? &carry_i
							       : NULL;
		const char *d;

		t_us += (uint64_t)(data[pos] / 4) * 1000;
		n = ((size_t)data[pos + 1] | (size_t)data[pos + 2] << 8) %
		    (PTY_RECORD_CHUNK_MAX + 1);
		pos += 3;
		if (n > size - pos)
			n = size - pos;
		d = (const char *)data + pos;
		pos += n;
		i = pty_record_encode_event(t_us, kind, d, n, carry,
					    file + used);
		if (kind == 'r' &&
		    (i != 0) != pty_record_size_parse(d, n, &cols, &rows))
			abort();
		if (i == 0) {
			if (kind != 'r')
				abort();
			continue;
		}
		if (kind == 'r') {
			char size_text[PTY_RECORD_SIZE_LEN];
			size_t k =
			    pty_record_size_format(cols, rows, size_text);

			fuzz_put(&used, &nw, i, kind, t_us, size_text, k);
		} else {
			fuzz_put(&used, &nw, i, kind, t_us, d, n);
		}
	}
	/* what a stream left unfinished, as the writer ends it */
	for (i = 0; i < 2; i++) {
		struct pty_record_carry *c = i == 0 ? &carry_o : &carry_i;
		char kind = i == 0 ? 'o' : 'i';
		size_t k;

		if (c->n == 0)
			continue;
		k = pty_record_encode_event(t_us, kind, c->b, c->n, NULL,
					    file + used);
		fuzz_put(&used, &nw, k, kind, t_us, (const char *)c->b, c->n);
	}
	/* read back */
	f = fmemopen(file, used, "r");
	if (f == NULL)
		abort();
	if (pty_cast_begin(&r, f, 0, &ch) != 0 || ch.width != h.width ||
	    ch.height != h.height)
		abort();
	while ((rc = pty_cast_next(&r, &ev)) > 0) {
		const struct fuzz_written *w = &written[got];

		if (got >= nw || ev.code != w->code ||
		    fabs(ev.time - (double)w->t_us / 1e6) > 1e-6 ||
		    (ev.code == PTY_CAST_RESIZE &&
		     (ev.cols != w->cols || ev.rows != w->rows)) ||
		    ev.len > w->len)
			abort();
		n = pty_record_encode_text((const unsigned char *)ev.data,
					   ev.len, false, NULL, again);
		if (n != w->len || memcmp(again, file + w->at, n) != 0)
			abort();
		got++;
	}
	if (rc != 0 || got != nw || r.skipped != 0)
		abort();
	pty_cast_end(&r);
	(void)fclose(f);
	return 0;
}
