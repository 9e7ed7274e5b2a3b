/* SPDX-License-Identifier: MIT */
/*
 * Display columns of text as readline draws an edited line (display.c of
 * readline 8: rl_redisplay's expansion of tabs, control characters,
 * multi-byte characters and 8-bit bytes), so that a caret the guard draws
 * under a line lands under the byte it means.  The locale is what readline
 * set from the environment (LC_ALL, LC_CTYPE, LANG) when it started.
 */
#include "pty_mayrun.h"

#include <limits.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/* readline's \ooo for a byte it does not show as a character */
#define COLUMNS_OCTAL 4

size_t
pty_text_columns(const char *s, size_t len, size_t col)
{
	const unsigned char *u = (const unsigned char *)s;
	bool multibyte = MB_CUR_MAX > 1;
	mbstate_t st;
	size_t i = 0;

	memset(&st, 0, sizeof st);
	while (i < len) {
		unsigned char c = u[i];
		wchar_t wc;
		size_t n;
		int w;

		if (c == '\t') {
			col = (col / 8 + 1) * 8;
			i++;
			continue;
		}
		if (c < 0x20 || c == 0x7f) {
			col += 2; /* ^X */
			i++;
			continue;
		}
		if (c < 0x80) {
			col++;
			i++;
			continue;
		}
		if (!multibyte) {
			col += COLUMNS_OCTAL;
			i++;
			continue;
		}
		n = mbrtowc(&wc, s + i, len - i, &st);
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			/* readline: "assume that the first byte represents
			 * a character" of one column */
			memset(&st, 0, sizeof st);
			col++;
			i++;
			continue;
		}
		w = wcwidth(wc);
		col += w < 0 ? 1 : (size_t)w; /* readline's, for w < 0 */
		i += n;
	}
	return col;
}

void
pty_columns_locale(void)
{
	(void)setlocale(LC_CTYPE, "");
	if (MB_CUR_MAX == 1)
		(void)setlocale(LC_CTYPE, "C.UTF-8");
}
