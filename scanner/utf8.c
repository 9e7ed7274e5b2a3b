/* SPDX-License-Identifier: MIT */
/*
 * Strict UTF-8 decoding (RFC 3629, Unicode table 3-7) and the classes of
 * characters a command line may not contain.
 */
#include "scan_utf8.h"

static int
scan_utf8_cont(unsigned char c)
{
	return (c & 0xc0u) == 0x80u;
}

size_t
scan_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;
	uint32_t v;

	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		v = c & 0x1fu;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		v = c & 0x0fu;
		if (c == 0xe0)
			lo = 0xa0; /* no overlong forms */
		else if (c == 0xed)
			hi = 0x9f; /* no UTF-16 surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		v = c & 0x07u;
		if (c == 0xf0)
			lo = 0x90; /* no overlong forms */
		else if (c == 0xf4)
			hi = 0x8f; /* nothing above U+10FFFF */
	} else {
		return 0; /* a continuation byte, 0xc0, 0xc1, 0xf5..0xff */
	}
	if (len < n)
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 1; i < n; i++) {
		if (!scan_utf8_cont(s[i]))
			return 0;
		v = (v << 6) | (uint32_t)(s[i] & 0x3fu);
	}
	*cp = v;
	return n;
}

int
scan_utf8_is_control(uint32_t cp)
{
	return cp >= 0x80 && cp <= 0x9f;
}

int
scan_utf8_is_invisible(uint32_t cp)
{
	static const struct {
		uint32_t lo, hi;
	} ranges[] = {
	    {0x00a0, 0x00a0},   /* no-break space */
	    {0x00ad, 0x00ad},   /* soft hyphen */
	    {0x034f, 0x034f},   /* combining grapheme joiner */
	    {0x061c, 0x061c},   /* Arabic letter mark */
	    {0x115f, 0x1160},   /* Hangul fillers */
	    {0x1680, 0x1680},   /* Ogham space mark */
	    {0x17b4, 0x17b5},   /* Khmer vowel inherent */
	    {0x180e, 0x180e},   /* Mongolian vowel separator */
	    {0x2000, 0x200f},   /* spaces, zero-width, LRM/RLM */
	    {0x2028, 0x202f},   /* separators, bidi embeddings, NNBSP */
	    {0x205f, 0x206f},   /* math space, invisible operators, isolates */
	    {0x3000, 0x3000},   /* ideographic space */
	    {0x3164, 0x3164},   /* Hangul filler */
	    {0xfe00, 0xfe0f},   /* variation selectors */
	    {0xfeff, 0xfeff},   /* zero-width no-break space (BOM) */
	    {0xffa0, 0xffa0},   /* halfwidth Hangul filler */
	    {0xfff9, 0xfffb},   /* interlinear annotations */
	    {0xe0000, 0xe007f}, /* tags */
	    {0xe0100, 0xe01ef}, /* variation selectors supplement */
	};
	size_t i;

	for (i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
		if (cp >= ranges[i].lo && cp <= ranges[i].hi)
			return 1;
	return 0;
}
