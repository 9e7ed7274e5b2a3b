/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the scanner: any bytes as a command line.  Besides "never
 * crash", it checks what a decision relies on: the scan is deterministic;
 * a line of 4096 bytes or more is refused; a refused line's offset is inside
 * it; an accepted line's tokens are inside it, never contain a blank, appear
 * in order without overlap, number at most 63, and together are exactly the
 * non-blank bytes; only defined metacharacter bits are reported, and
 * the offset of each class reported is inside the line, at a byte of that
 * class, with none of the class before it (the guard points a caret at it).
 */
#include "fuzz.h"

#include "scanner.h"

#include <stdlib.h>
#include <string.h>

/* The bytes of each metacharacter class, by bit position (scanner.h); an
 * assignment is pointed at by its '='. */
static const char *const meta_bytes[SCAN_META_COUNT] = {
    "|", "<>", ";", "`", "$", "*?[", "!", "{}", "()", "~", "#", "=", "&",
};

/* Whether the first byte of class m is at its reported offset.  Classes
 * whose bytes count only in some places (~ and # at a word start, = of
 * the first word) need only be at one of their bytes. */
static int
meta_offset_ok(const char *line, size_t size, const struct scan_result *r,
	       unsigned m)
{
	size_t at = r->metachar_offset[m], i;

	if (at >= size || strchr(meta_bytes[m], line[at]) == NULL ||
	    line[at] == '\0')
		return 0;
	if (m == 9 || m == 10 || m == 11)
		return 1;
	for (i = 0; i < at; i++)
		if (line[i] != '\0' && strchr(meta_bytes[m], line[i]) != NULL)
			return 0;
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *line = (const char *)data;
	struct scan_result a, b;
	size_t i, blanks = 0, covered = 0;
	const char *prev_end = line;

	scan_line(line, size, &a);
	scan_line(line, size, &b);
	if (a.refusal != b.refusal || a.metachars != b.metachars ||
	    a.ntokens != b.ntokens || a.refusal_offset != b.refusal_offset)
		abort(); /* not deterministic */
	if ((a.metachars & ~((1u << SCAN_META_COUNT) - 1)) != 0)
		abort();
	if (a.ntokens > SCAN_TOKENS_MAX)
		abort();
	if (memcmp(a.metachar_offset, b.metachar_offset,
		   sizeof a.metachar_offset) != 0)
		abort();
	if (size >= SCAN_LINE_MAX) {
		if (a.refusal != SCAN_REFUSE_TOO_LONG)
			abort();
		return 0;
	}
	if (a.refusal != SCAN_ACCEPT) {
		if (a.refusal_offset >= size)
			abort();
		if (scan_refusal_reason(a.refusal) == NULL)
			abort();
	}
	for (i = 0; i < a.ntokens; i++) {
		const struct scan_token *t = &a.tokens[i];

		if (t->len == 0 || t->text < prev_end ||
		    t->text + t->len > line + size ||
		    memchr(t->text, ' ', t->len) != NULL ||
		    memchr(t->text, '\t', t->len) != NULL)
			abort();
		prev_end = t->text + t->len;
		covered += t->len;
	}
	if (a.refusal == SCAN_ACCEPT) {
		unsigned m;

		for (m = 0; m < SCAN_META_COUNT; m++)
			if ((a.metachars & (1u << m)) &&
			    !meta_offset_ok(line, size, &a, m))
				abort();
		for (i = 0; i < size; i++)
			if (line[i] == ' ' || line[i] == '\t')
				blanks++;
		if (covered + blanks != size)
			abort(); /* a byte neither blank nor in a word */
	}
	return 0;
}
