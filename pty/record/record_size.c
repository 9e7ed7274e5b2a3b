/* SPDX-License-Identifier: MIT */
/*
 * A terminal's size in a recording (pty_record.h): the header's width and
 * height and an "r" event's "COLSxROWS".  One declaration for every end
 * that writes or reads one - the recording's writer (record_file.c,
 * record_encode.c), the audit writer that takes sizes from the guard
 * (audit/audit_rec.c) and the reader of `maelys-pty replay`
 * (tools/cast_read.c) - so that no size the writer can write is one the
 * reader refuses, and no size a terminal can be given is one the writer
 * refuses.
 */
#include "pty_record.h"

#include <stdio.h>

bool
pty_record_size_valid(unsigned long long cols, unsigned long long rows)
{
	return cols >= PTY_RECORD_SIZE_MIN && cols <= PTY_RECORD_SIZE_MAX &&
	       rows >= PTY_RECORD_SIZE_MIN && rows <= PTY_RECORD_SIZE_MAX;
}

size_t
pty_record_size_format(unsigned cols, unsigned rows,
		       char out[PTY_RECORD_SIZE_LEN])
{
	int n;

	out[0] = '\0';
	if (!pty_record_size_valid(cols, rows))
		return 0;
	n = snprintf(out, PTY_RECORD_SIZE_LEN, "%ux%u", cols, rows);
	return n > 0 && (size_t)n < PTY_RECORD_SIZE_LEN ? (size_t)n : 0;
}

bool
pty_record_size_parse(const char *s, size_t len, unsigned *cols, unsigned *rows)
{
	unsigned long v[2] = {0, 0};
	size_t i, k = 0, digits = 0;

	if (len > PTY_RECORD_SIZE_TEXT_MAX)
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (c == 'x' && k == 0 && digits > 0) {
			k = 1;
			digits = 0;
		} else if (c >= '0' && c <= '9') {
			v[k] = v[k] * 10 + (unsigned long)(c - '0');
			if (v[k] > PTY_RECORD_SIZE_MAX)
				return false; /* and it cannot wrap */
			digits++;
		} else {
			return false;
		}
	}
	if (k != 1 || digits == 0 || !pty_record_size_valid(v[0], v[1]))
		return false;
	*cols = (unsigned)v[0];
	*rows = (unsigned)v[1];
	return true;
}
