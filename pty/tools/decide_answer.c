/* SPDX-License-Identifier: MIT */
/*
 * The answers of `maelys-pty decide` as JSON (pty_decide_json.h).  What an
 * answer carries - the policy's reasons, a scanner's refusal, an error
 * naming a field - may hold any byte (a policy's string constant, a
 * user's directory name): each string is escaped here, and a byte that is
 * not part of valid UTF-8 becomes U+FFFD, so every answer is valid JSON
 * and the same bytes always give the same answer.
 */
#include "pty_decide_json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
out_bytes(struct decide_out *o, const char *s, size_t n)
{
	if (o->failed)
		return;
	if (o->cap - o->len < n + 1) {
		size_t cap = o->cap > 0 ? o->cap : 256;
		char *p;

		while (cap - o->len < n + 1) {
			if (cap > SIZE_MAX / 2) {
				o->failed = true;
				return;
			}
			cap *= 2;
		}
		p = realloc(o->buf, cap);
		if (p == NULL) {
			o->failed = true;
			return;
		}
		o->buf = p;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

void
decide_out_reset(struct decide_out *o)
{
	o->len = 0;
	o->failed = false;
	if (o->buf != NULL)
		o->buf[0] = '\0';
}

void
decide_out_free(struct decide_out *o)
{
	free(o->buf);
	memset(o, 0, sizeof *o);
}

void
decide_out_raw(struct decide_out *o, const char *s)
{
	out_bytes(o, s, strlen(s));
}

/* The length of the valid UTF-8 sequence at s (n bytes left), or 0
 * (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF). */
static size_t
utf8_valid(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return n >= 2 && (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		unsigned char lo = c == 0xe0 ? 0xa0 : 0x80;
		unsigned char hi = c == 0xed ? 0x9f : 0xbf;

		return n >= 3 && s[1] >= lo && s[1] <= hi &&
			       (s[2] & 0xc0) == 0x80
			   ? 3
			   : 0;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		unsigned char lo = c == 0xf0 ? 0x90 : 0x80;
		unsigned char hi = c == 0xf4 ? 0x8f : 0xbf;

		return n >= 4 && s[1] >= lo && s[1] <= hi &&
			       (s[2] & 0xc0) == 0x80 && (s[3] & 0xc0) == 0x80
			   ? 4
			   : 0;
	}
	return 0;
}

void
decide_out_string(struct decide_out *o, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;
	char esc[8];

	out_bytes(o, "\"", 1);
	while (i < len) {
		unsigned char c = p[i];

		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			out_bytes(o, esc, 2);
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			(void)snprintf(esc, sizeof esc, "\\u%04x", c);
			out_bytes(o, esc, 6);
			i++;
		} else if ((k = utf8_valid(p + i, len - i)) > 0) {
			out_bytes(o, s + i, k);
			i += k;
		} else {
			out_bytes(o, "\\ufffd", 6);
			i++;
		}
	}
	out_bytes(o, "\"", 1);
}

void
decide_out_uint(struct decide_out *o, unsigned long long n)
{
	char buf[32];

	(void)snprintf(buf, sizeof buf, "%llu", n);
	decide_out_raw(o, buf);
}

void
decide_out_int(struct decide_out *o, long long n)
{
	char buf[32];

	(void)snprintf(buf, sizeof buf, "%lld", n);
	decide_out_raw(o, buf);
}

void
decide_out_id(struct decide_out *o, const struct decide_request *rq)
{
	if (rq->id_kind == DECIDE_ID_NONE)
		return;
	decide_out_raw(o, "\"id\": ");
	if (rq->id_kind == DECIDE_ID_INT)
		decide_out_int(o, rq->id_int);
	else
		decide_out_string(o, rq->id_str, rq->id_len);
	decide_out_raw(o, ", ");
}
