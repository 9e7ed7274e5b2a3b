/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the recording's event encoder (pty/record/
 * record_encode.c): any bytes, as a terminal's output cut anywhere.
 *
 * The first byte picks where the rest is cut in two chunks; then
 *   - each event is one line "[T, "o", "..."]\n" whose data is valid
 *     UTF-8 (checked with the scanner's decoder, another implementation),
 *     holds no raw control byte, no raw DEL, no C1 control, and no '"' or
 *     '\' that is not part of an escape;
 *   - the cut does not matter: the two chunks' data with the carry between
 *     them, then the carry's end, is exactly the data of the whole input
 *     in one chunk (encoding is a map of characters, and the carry keeps
 *     a character whole);
 *   - text that needs no escape and is well-formed comes out unchanged.
 */
#include "fuzz.h"

#include "pty_record.h"
#include "scan_utf8.h"

#include <stdlib.h>
#include <string.h>

static char ev[PTY_RECORD_EVENT_MAX];
static char whole[4 * PTY_RECORD_EVENT_MAX], cut[4 * PTY_RECORD_EVENT_MAX];

/* The data of an event line, checked; appended to acc at *n. */
static void
take(const char *line, size_t len, char *acc, size_t *n)
{
	const char *open = memchr(line, '"', len);
	const char *data;
	size_t i, dlen;

	if (len < 8 || line[0] != '[' || memcmp(line + len - 3, "\"]\n", 3) ||
	    open == NULL || memcmp(open, "\"o\", \"", 6) != 0)
		abort();
	data = open + 6;
	dlen = (size_t)(line + len - 3 - data);
	for (i = 0; i < dlen; i++) {
		unsigned char c = (unsigned char)data[i];
		uint32_t cp;
		size_t k;

		if (c < 0x20 || c == 0x7f || c == '"')
			abort();
		if (c == '\\') {
			if (i + 1 >= dlen)
				abort();
			c = (unsigned char)data[++i];
			if (c == 'u') {
				if (i + 4 >= dlen || memcmp(data + i + 1, "00",
							    2) != 0)
					abort();
				i += 4;
			} else if (strchr("\"\\bfnrt", c) == NULL || c == 0) {
				abort();
			}
			continue;
		}
		if (c < 0x80)
			continue;
		k = scan_utf8_decode((const unsigned char *)data + i, dlen - i,
				     &cp);
		if (k == 0 || scan_utf8_is_control(cp))
			abort();
		i += k - 1;
	}
	memcpy(acc + *n, data, dlen);
	*n += dlen;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pty_record_carry carry = {{0}, 0};
	size_t at, nw = 0, nc = 0, len, i;
	bool plain = true;

	if (size < 1 || size - 1 > PTY_RECORD_CHUNK_MAX)
		return 0;
	at = size > 1 ? data[0] % size : 0;
	data++;
	size--;
	/* whole */
	len = pty_record_encode_event(1234567, 'o', data, size, &carry, ev);
	take(ev, len, whole, &nw);
	len = pty_record_encode_event(1234567, 'o', carry.b, carry.n, NULL, ev);
	carry.n = 0;
	take(ev, len, whole, &nw);
	/* cut in two */
	if (at > size)
		at = size;
	len = pty_record_encode_event(0, 'o', data, at, &carry, ev);
	take(ev, len, cut, &nc);
	len = pty_record_encode_event(0, 'o', data + at, size - at, &carry, ev);
	take(ev, len, cut, &nc);
	len = pty_record_encode_event(0, 'o', carry.b, carry.n, NULL, ev);
	take(ev, len, cut, &nc);
	if (nw != nc || memcmp(whole, cut, nw) != 0)
		abort();
	/* well-formed text with nothing to escape is copied */
	for (i = 0; i < size && plain; i++) {
		uint32_t cp;
		size_t k;

		if (data[i] < 0x80) {
			plain = data[i] >= 0x20 && data[i] != 0x7f &&
				data[i] != '"' && data[i] != '\\';
			continue;
		}
		k = scan_utf8_decode(data + i, size - i, &cp);
		plain = k != 0 && !scan_utf8_is_control(cp);
		if (plain)
			i += k - 1;
	}
	if (plain && (nw != size || memcmp(whole, data, size) != 0))
		abort();
	return 0;
}
