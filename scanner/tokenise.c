/* SPDX-License-Identifier: MIT */
/*
 * The restricted tokeniser: words are runs of bytes other than space and
 * tab; there is no quoting.  The tokens point into the line.  More than
 * SCAN_TOKENS_MAX words refuses the line (the first ones are kept for the
 * record).
 */
#include "scanner.h"

void
scan_tokenise(const char *line, size_t len, struct scan_result *out)
{
	size_t i = 0;

	out->ntokens = 0;
	while (i < len) {
		size_t start;

		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i == len)
			break;
		start = i;
		while (i < len && line[i] != ' ' && line[i] != '\t')
			i++;
		if (out->ntokens == SCAN_TOKENS_MAX) {
			if (out->refusal == SCAN_ACCEPT) {
				out->refusal = SCAN_REFUSE_TOO_MANY_TOKENS;
				out->refusal_offset = start;
			}
			return;
		}
		out->tokens[out->ntokens].text = line + start;
		out->tokens[out->ntokens].len = i - start;
		out->ntokens++;
	}
}

void
scan_line(const char *line, size_t len, struct scan_result *out)
{
	unsigned m;

	for (m = 0; m < SCAN_META_COUNT; m++)
		out->metachar_offset[m] = 0;
	out->metachars = 0;
	out->ntokens = 0;
	out->refusal = SCAN_ACCEPT;
	out->refusal_offset = 0;
	if (len >= SCAN_LINE_MAX) {
		/* not even scanned: bounded work on unbounded input */
		out->refusal = SCAN_REFUSE_TOO_LONG;
		out->refusal_offset = SCAN_LINE_MAX;
		return;
	}
	scan_metachars(line, len, out);
	scan_tokenise(line, len, out);
}
