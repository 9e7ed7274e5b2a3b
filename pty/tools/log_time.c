/* SPDX-License-Identifier: MIT */
/*
 * Times of `maelys-pty log` (pty_log.h): the records' and --since/--until's,
 * to the millisecond since the epoch, UTC.  Parsed by hand, digit by digit,
 * so that nothing of the locale or of strptime's leniency decides what a
 * time means.
 */
#include "pty_log.h"

#include <string.h>

/* n digits at s as a number; -1 if one is not a digit. */
static int
log_digits(const char *s, size_t n)
{
	int v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

static bool
log_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Days from 1970-01-01 to y-m-d (a valid date from 1970 on). */
static int64_t
log_days(int y, int m, int d)
{
	static const int before[12] = {0,   31,  59,  90,  120, 151,
				       181, 212, 243, 273, 304, 334};
	int64_t days = 0;
	int k;

	for (k = 1970; k < y; k++)
		days += log_leap(k) ? 366 : 365;
	days += before[m - 1] + (m > 2 && log_leap(y) ? 1 : 0);
	return days + d - 1;
}

/* "YYYY-MM-DD" at s (10 bytes) into days since the epoch; -1 if not a
 * date of 1970..9999. */
static int64_t
log_date(const char *s)
{
	static const int mdays[12] = {31, 28, 31, 30, 31, 30,
				      31, 31, 30, 31, 30, 31};
	int y = log_digits(s, 4), m = log_digits(s + 5, 2),
	    d = log_digits(s + 8, 2);

	if (s[4] != '-' || s[7] != '-' || y < 1970 || m < 1 || m > 12 ||
	    d < 1 || d > mdays[m - 1] + (m == 2 && log_leap(y) ? 1 : 0))
		return -1;
	return log_days(y, m, d);
}

/* "HH:MM" at s into minutes; -1 if not 00:00..23:59. */
static int
log_hm(const char *s)
{
	int h = log_digits(s, 2), m = log_digits(s + 3, 2);

	if (s[2] != ':' || h < 0 || h > 23 || m < 0 || m > 59)
		return -1;
	return h * 60 + m;
}

int
log_time_parse(const char *s, size_t len, struct log_time *out)
{
	int64_t days, ms, span = 1000;
	int hm, sec, off = 0;
	size_t i = 19;

	if (len < 10 || (days = log_date(s)) < 0)
		return -1;
	if (len == 10) {
		out->ms = days * 86400000;
		out->span = 86400000;
		return 0;
	}
	if (len < 16 || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') ||
	    (hm = log_hm(s + 11)) < 0)
		return -1;
	ms = days * 86400000 + (int64_t)hm * 60000;
	if (len == 16 && s[10] == ' ') {
		/* YYYY-MM-DD HH:MM: the whole minute */
		out->ms = ms;
		out->span = 60000;
		return 0;
	}
	/* RFC 3339: seconds (60 only for a leap second, taken as 59) */
	if (len < 20 || s[16] != ':' || (sec = log_digits(s + 17, 2)) < 0 ||
	    sec > 60)
		return -1;
	ms += (int64_t)(sec == 60 ? 59 : sec) * 1000;
	if (s[i] == '.') {
		int64_t frac = 0, unit = 1000;
		size_t nd = 0;

		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, nd++) {
			if (nd >= 9)
				return -1;
			if (unit > 1) {
				unit /= 10;
				frac += (s[i] - '0') * unit;
			}
		}
		if (nd == 0)
			return -1;
		ms += frac;
		span = 1;
	}
	if (i < len && (s[i] == 'Z' || s[i] == 'z') && i + 1 == len) {
		off = 0;
	} else if (i + 6 == len && (s[i] == '+' || s[i] == '-') &&
		   (off = log_hm(s + i + 1)) >= 0) {
		if (s[i] == '+')
			off = -off;
	} else {
		return -1;
	}
	ms += (int64_t)off * 60000;
	if (ms < 0)
		return -1;
	out->ms = ms;
	out->span = span;
	return 0;
}
