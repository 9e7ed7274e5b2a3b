/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for bash's reports on the status channel as the guard reads
 * them (pty/line/status.c: "STATUS\0$PWD\0" each).  The first byte picks
 * the size of the pieces the rest is fed in (1 to 256: the reads of a
 * socket cut anywhere); the reports seen must be the same, in the same
 * order, as when the whole input is fed at once, each status at most
 * PTY_STATUS_CODE_MAX bytes with no NUL in it, and the reading must stop
 * at the same report when a status is too long.
 */
#include "fuzz.h"

#include "pty_status.h"

#include <stdlib.h>
#include <string.h>

#define REPORTS_MAX 4096

struct reports {
	char code[REPORTS_MAX][PTY_STATUS_CODE_MAX + 1];
	size_t n;
};

static int
fuzz_report(void *arg, const char *code)
{
	struct reports *r = arg;
	size_t len = strnlen(code, PTY_STATUS_CODE_MAX + 1);

	if (len > PTY_STATUS_CODE_MAX)
		abort();
	if (r->n < REPORTS_MAX)
		memcpy(r->code[r->n], code, len + 1);
	r->n++;
	return 0;
}

static int
fuzz_feed(const uint8_t *data, size_t size, size_t step, struct reports *out)
{
	struct pty_status_reader r;
	size_t off;
	int rc = 0;

	memset(&r, 0, sizeof r);
	out->n = 0;
	for (off = 0; off < size && rc == 0; off += step) {
		size_t k = size - off < step ? size - off : step;

		rc = pty_status_feed(&r, (const char *)data + off, k,
				     fuzz_report, out);
	}
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct reports whole, pieces;
	size_t step, i;
	int rc_whole, rc_pieces;

	if (size == 0)
		return 0;
	step = (size_t)data[0] + 1;
	data++;
	size--;
	rc_whole = fuzz_feed(data, size, size == 0 ? 1 : size, &whole);
	rc_pieces = fuzz_feed(data, size, step, &pieces);
	if (rc_whole != rc_pieces || whole.n != pieces.n)
		abort();
	for (i = 0; i < whole.n && i < REPORTS_MAX; i++)
		if (strcmp(whole.code[i], pieces.code[i]) != 0)
			abort();
	return 0;
}
