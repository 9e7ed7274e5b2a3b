/* SPDX-License-Identifier: MIT */
/*
 * Float literals (dl_numeric.h).  strtod does the rounding, which is hard
 * to get right by hand; it reads the locale's decimal point, so the text is
 * first checked against the literal's grammar and its '.' replaced by that
 * point, whatever the host set the locale to.
 */
#include "dl_numeric.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool
dl_num_digit(char c)
{
	return c >= '0' && c <= '9';
}

size_t
dl_float_span(const char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n && dl_num_digit(s[i]))
		i++;
	if (i == 0 || i + 1 >= n || s[i] != '.' || !dl_num_digit(s[i + 1]))
		return 0;
	i++;
	while (i < n && dl_num_digit(s[i]))
		i++;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		k = i + 1;
		if (k < n && (s[k] == '+' || s[k] == '-'))
			k++;
		if (k < n && dl_num_digit(s[k])) {
			while (k < n && dl_num_digit(s[k]))
				k++;
			i = k;
		}
	}
	return i;
}

bool
dl_float_read(const char *s, size_t n, double *out)
{
	char buf[DL_FLOAT_TEXT_MAX + 16];
	const struct lconv *lc;
	const char *point = ".";
	size_t neg = n > 0 && s[0] == '-', plen, dot, k = 0;
	char *end = NULL;
	double d;

	if (n - neg > DL_FLOAT_TEXT_MAX ||
	    dl_float_span(s + neg, n - neg) != n - neg)
		return false;
	lc = localeconv();
	if (lc != NULL && lc->decimal_point != NULL &&
	    lc->decimal_point[0] != '\0' && strlen(lc->decimal_point) < 8)
		point = lc->decimal_point;
	plen = strlen(point);
	dot = (size_t)((const char *)memchr(s, '.', n) - s);
	memcpy(buf, s, dot);
	k = dot;
	memcpy(buf + k, point, plen);
	k += plen;
	memcpy(buf + k, s + dot + 1, n - dot - 1);
	k += n - dot - 1;
	buf[k] = '\0';
	d = strtod(buf, &end);
	if (end != buf + k || isinf(d) || isnan(d))
		return false;
	*out = d;
	return true;
}
