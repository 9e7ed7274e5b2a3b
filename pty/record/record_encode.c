/* SPDX-License-Identifier: MIT */
/*
 * Encoding an event of a recording (pty_record.h): a pure function of its
 * bytes, so that it can be fuzzed on its own (fuzz/fuzz_record_event.c).
 *
 * Why our own UTF-8 walk rather than the scanner's decoder: a terminal's
 * output is cut anywhere by read(2), so the walk must tell an unfinished
 * character at the end of a chunk (carried to the next) from an ill-formed
 * one (U+FFFD), and replace ill-formed bytes one maximal subpart at a time
 * (Unicode's "best practice", which Python's decoder and so asciinema
 * follow), neither of which a decode-or-fail function says.
 */
#include "pty_record.h"

#include <stdio.h>
#include <string.h>

/* The bytes a lead byte >= 0x80 asks for in all, and the range its second
 * byte must be in (the ranges that rule out overlong forms, surrogates
 * and code points above U+10FFFF); 0 for a byte that leads nothing. */
static size_t
record_lead(unsigned char b, unsigned char *lo, unsigned char *hi)
{
	*lo = 0x80;
	*hi = 0xbf;
	if (b >= 0xc2 && b <= 0xdf)
		return 2;
	if (b >= 0xe0 && b <= 0xef) {
		if (b == 0xe0)
			*lo = 0xa0;
		else if (b == 0xed)
			*hi = 0x9f;
		return 3;
	}
	if (b >= 0xf0 && b <= 0xf4) {
		if (b == 0xf0)
			*lo = 0x90;
		else if (b == 0xf4)
			*hi = 0x8f;
		return 4;
	}
	return 0;
}

/* How the bytes at s (s[0] >= 0x80, len >= 1) begin: a whole character
 * (returns its length, *state 0), an unfinished one cut by the end of the
 * bytes (returns the bytes there are, *state 1), or an ill-formed subpart
 * (returns its length, at least 1, *state 2). */
static size_t
record_utf8_step(const unsigned char *s, size_t len, int *state)
{
	unsigned char lo, hi;
	size_t need = record_lead(s[0], &lo, &hi), i = 1;

	if (need == 0) {
		*state = 2;
		return 1;
	}
	while (i < need && i < len && s[i] >= lo && s[i] <= hi) {
		i++;
		lo = 0x80;
		hi = 0xbf;
	}
	if (i == need)
		*state = 0;
	else if (i == len)
		*state = 1;
	else
		*state = 2;
	return i;
}

static char *
record_put_u00(char *o, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	memcpy(o, "\\u00", 4);
	o[4] = hex[c >> 4];
	o[5] = hex[c & 15];
	return o + 6;
}

size_t
pty_record_encode_text(const unsigned char *s, size_t len, bool keep,
		       size_t *kept, char *out)
{
	char *o = out;
	size_t i = 0;

	if (kept != NULL)
		*kept = 0;
	while (i < len) {
		unsigned char c = s[i];
		size_t n, run;
		int state;

		/* a run of printable ASCII, most of a terminal's output: one
		 * copy */
		for (run = i; run < len && s[run] >= 0x20 && s[run] < 0x7f &&
			      s[run] != '"' && s[run] != '\\';
		     run++)
			;
		if (run > i) {
			memcpy(o, s + i, run - i);
			o += run - i;
			i = run;
			continue;
		}
		if (c < 0x80) {
			switch (c) {
			case '"':
				*o++ = '\\';
				*o++ = '"';
				break;
			case '\\':
				*o++ = '\\';
				*o++ = '\\';
				break;
			case '\b':
				*o++ = '\\';
				*o++ = 'b';
				break;
			case '\f':
				*o++ = '\\';
				*o++ = 'f';
				break;
			case '\n':
				*o++ = '\\';
				*o++ = 'n';
				break;
			case '\r':
				*o++ = '\\';
				*o++ = 'r';
				break;
			case '\t':
				*o++ = '\\';
				*o++ = 't';
				break;
			default:
				if (c < 0x20 || c == 0x7f)
					o = record_put_u00(o, c);
				else
					*o++ = (char)c;
			}
			i++;
			continue;
		}
		n = record_utf8_step(s + i, len - i, &state);
		if (state == 1 && keep) {
			if (kept != NULL)
				*kept = n;
			break;
		}
		if (state != 0) {
			/* U+FFFD for the ill-formed subpart (or, with no
			 * next chunk to finish it, the unfinished one) */
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
		} else if (n == 2 && c == 0xc2 && s[i + 1] < 0xa0) {
			o = record_put_u00(o, s[i + 1]); /* C1 control */
		} else {
			memcpy(o, s + i, n);
			o += n;
		}
		i += n;
	}
	return (size_t)(o - out);
}

size_t
pty_record_encode_event(uint64_t t_us, char kind, const void *data,
			size_t len, struct pty_record_carry *carry, char *out)
{
	unsigned char joined[PTY_RECORD_CHUNK_MAX + 4];
	const unsigned char *s = data;
	size_t n = len, kept = 0, o;

	char size[PTY_RECORD_SIZE_LEN];
	unsigned cols, rows;

	if (len > PTY_RECORD_CHUNK_MAX ||
	    (kind != 'o' && kind != 'i' && kind != 'r' && kind != 'm'))
		return 0;
	if (kind == 'r') {
		/* a size, and only as the reader reads one */
		if (!pty_record_size_parse(data, len, &cols, &rows) ||
		    (n = pty_record_size_format(cols, rows, size)) == 0)
			return 0;
		s = (const unsigned char *)size;
		carry = NULL;
	}
	if (carry != NULL && carry->n > 0) {
		memcpy(joined, carry->b, carry->n);
		if (len > 0)
			memcpy(joined + carry->n, data, len);
		s = joined;
		n = carry->n + len;
		carry->n = 0;
	}
	o = (size_t)snprintf(out, 64, "[%llu.%06llu, \"%c\", \"",
			     (unsigned long long)(t_us / 1000000),
			     (unsigned long long)(t_us % 1000000), kind);
	o += pty_record_encode_text(s, n, carry != NULL, &kept, out + o);
	if (carry != NULL && kept > 0) {
		memcpy(carry->b, s + n - kept, kept);
		carry->n = kept;
	}
	memcpy(out + o, "\"]\n", 3);
	return o + 3;
}

size_t
pty_record_encode_header(const struct pty_record_header *h, char *out)
{
	const char *parts[3] = {h->shell, h->term, h->title};
	const char *names[3] = {",\"env\":{\"SHELL\":\"", "\",\"TERM\":\"",
				"\"},\"title\":\""};
	size_t o, i;

	if (!pty_record_size_valid(h->width, h->height))
		return 0;
	o = (size_t)snprintf(out, 128,
			     "{\"version\":2,\"width\":%u,\"height\":%u,"
			     "\"timestamp\":%lld",
			     h->width, h->height, h->timestamp);
	for (i = 0; i < 3; i++) {
		size_t n = strnlen(parts[i], PTY_RECORD_HEADER_STRING_MAX),
		       nl = strlen(names[i]);

		memcpy(out + o, names[i], nl);
		o += nl;
		o += pty_record_encode_text((const unsigned char *)parts[i], n,
					    false, NULL, out + o);
	}
	memcpy(out + o, "\"}\n", 3);
	return o + 3;
}
