/* SPDX-License-Identifier: MIT */
/*
 * Float literals and the printing of a float (dl_numeric.h).  strtod does
 * the rounding, which is hard to get right by hand; it reads the locale's
 * decimal point, so the text is first checked against the literal's
 * grammar and its '.' replaced by that point, whatever the host set the
 * locale to (and a printed float's point is put back to '.').
 */
#include "dl_numeric.h"

#include <maelys/datalog.h>

#include <locale.h>
#include <math.h>
#include <stdio.h>
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

/* Copies the n bytes snprintf wrote into buf (cap bytes, NUL-terminated
 * when cap > 0, truncated when too small) with the locale's decimal point
 * written '.': snprintf and strtod agree on the locale's point, and the
 * text is written with '.' whatever the host set the locale to.  Returns
 * the text's length. */
static size_t
dl_float_point(const char *tmp, size_t n, char *buf, size_t cap)
{
	const struct lconv *lc = localeconv();
	const char *point = NULL;
	size_t plen = 0, k, o = 0;

	if (lc != NULL && lc->decimal_point != NULL &&
	    strcmp(lc->decimal_point, ".") != 0)
		point = lc->decimal_point;
	if (point != NULL)
		plen = strlen(point);
	for (k = 0; k < n; k++) {
		char c = tmp[k];

		if (plen > 0 && n - k >= plen &&
		    memcmp(tmp + k, point, plen) == 0) {
			c = '.';
			k += plen - 1;
		}
		if (o + 1 < cap)
			buf[o] = c;
		o++;
	}
	if (cap > 0)
		buf[o < cap ? o : cap - 1] = '\0';
	return o;
}

size_t
dl_float_text(double d, char *buf, size_t cap)
{
	char tmp[DL_FLOAT_PRINT_MAX + 16];
	int m = 0, prec;

	/* the fewest significant digits that read back as the same double
	 * (0.1 is "0.1", not the %.17g "0.10000000000000001"); %.17g
	 * always does */
	for (prec = 6; prec <= 17; prec++) {
		m = snprintf(tmp, sizeof tmp, "%.*g", prec, d);
		if (m <= 0 || (size_t)m >= sizeof tmp) {
			m = 0;
			break;
		}
		if (d != d || strtod(tmp, NULL) == d)
			break; /* NaN never reads back equal */
	}
	return dl_float_point(tmp, (size_t)m, buf, cap);
}

size_t
dl_float_fixed_text(double d, char *buf, size_t cap)
{
	char tmp[DL_FLOAT_FIXED_MAX];
	int m = snprintf(tmp, sizeof tmp, "%f", d);

	if (m <= 0 || (size_t)m >= sizeof tmp)
		m = 0; /* cannot happen: the room holds any double */
	return dl_float_point(tmp, (size_t)m, buf, cap);
}

size_t
maelys_datalog_float_text(double value, char *buf, size_t capacity)
{
	if (buf == NULL)
		capacity = 0;
	return dl_float_text(value, buf, capacity);
}
