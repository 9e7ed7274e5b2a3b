/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the asciicast v2 reader of `maelys-pty replay`
 * (pty/tools/cast_read.c): the input is a whole recording, any bytes.
 *
 *   - reading is deterministic: a second reading gives the same header,
 *     the same events (codes, times, data) and the same ending, with the
 *     same sentence and line;
 *   - the header's width and height are 1 to PTY_RECORD_SIZE_MAX, its idle
 *     limit none or a positive finite number;
 *   - each event's time is finite, from 0 to PTY_CAST_TIME_MAX, never
 *     below the one before; its data is NUL-ended at its length; a resize
 *     has its size in range; its line is after the previous event's and
 *     inside the input;
 *   - a refusal has a sentence and names a line inside the input;
 *   - read with a bound of the input's size, the reading is the same; with
 *     any smaller bound, it is refused.
 */
#include "fuzz.h"

#include "pty_cast.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one reading found: a digest to compare two readings by. */
struct fuzz_reading {
	int rc;
	size_t nevents, lineno, skipped;
	unsigned long sum;
	char err[512];
};

static unsigned long
fuzz_mix(unsigned long h, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i;

	for (i = 0; i < n; i++)
		h = h * 131u + s[i];
	return h * 131u + n;
}

static void
fuzz_check_header(const struct pty_cast_header *h)
{
	if (h->width < 1 || h->width > PTY_RECORD_SIZE_MAX || h->height < 1 ||
	    h->height > PTY_RECORD_SIZE_MAX)
		abort();
	if (h->idle_time_limit >= 0 &&
	    (!isfinite(h->idle_time_limit) || h->idle_time_limit == 0))
		abort();
}

static void
fuzz_read(const uint8_t *data, size_t size, uint64_t max,
	  struct fuzz_reading *out)
{
	struct pty_cast_reader r;
	struct pty_cast_header h;
	struct pty_cast_event ev;
	size_t lines = 1, i, last_line = 0;
	double last = 0;
	FILE *f;

	memset(out, 0, sizeof *out);
	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	/* fmemopen wants a byte: an empty input is one byte read away */
	f = fmemopen(size == 0 ? (void *)"" : (void *)data,
		     size == 0 ? 1 : size, "r");
	if (f == NULL)
		abort();
	if (size == 0)
		(void)getc(f);
	out->rc = pty_cast_begin(&r, f, max, &h);
	if (out->rc == 0) {
		fuzz_check_header(&h);
		out->sum = fuzz_mix(out->sum, &h.width, sizeof h.width);
		out->sum = fuzz_mix(out->sum, &h.height, sizeof h.height);
		out->sum = fuzz_mix(out->sum, &h.idle_time_limit,
				    sizeof h.idle_time_limit);
		while ((out->rc = pty_cast_next(&r, &ev)) > 0) {
			if (!isfinite(ev.time) || ev.time < last ||
			    ev.time > PTY_CAST_TIME_MAX ||
			    ev.data[ev.len] != '\0' || ev.lineno <= last_line ||
			    ev.lineno > lines || ev.lineno != r.lineno)
				abort();
			if (ev.code == PTY_CAST_RESIZE &&
			    (ev.cols < 1 || ev.rows < 1 ||
			     ev.cols > PTY_RECORD_SIZE_MAX ||
			     ev.rows > PTY_RECORD_SIZE_MAX))
				abort();
			last = ev.time;
			last_line = ev.lineno;
			out->nevents++;
			out->sum = fuzz_mix(out->sum, &ev.code, sizeof ev.code);
			out->sum = fuzz_mix(out->sum, &ev.time, sizeof ev.time);
			out->sum = fuzz_mix(out->sum, ev.data, ev.len);
		}
	}
	if (out->rc < 0 && (r.err[0] == '\0' || r.lineno > lines))
		abort();
	if (out->rc > 0)
		abort();
	out->lineno = r.lineno;
	out->skipped = r.skipped;
	(void)snprintf(out->err, sizeof out->err, "%s", r.err);
	pty_cast_end(&r);
	(void)fclose(f);
}

static bool
fuzz_same(const struct fuzz_reading *a, const struct fuzz_reading *b)
{
	return a->rc == b->rc && a->nevents == b->nevents &&
	       a->lineno == b->lineno && a->skipped == b->skipped &&
	       a->sum == b->sum && strcmp(a->err, b->err) == 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_reading one, two;

	fuzz_read(data, size, 0, &one);
	fuzz_read(data, size, 0, &two);
	if (!fuzz_same(&one, &two))
		abort();
	if (size == 0)
		return 0;
	fuzz_read(data, size, size, &two);
	if (!fuzz_same(&one, &two))
		abort();
	/* a bound below the input's size: the input is refused, whatever
	 * else it holds */
	fuzz_read(data, size, size - 1 > 0 ? size - 1 : 1, &two);
	if (size > 1 && two.rc != -1)
		abort();
	return 0;
}
