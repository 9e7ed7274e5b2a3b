/* SPDX-License-Identifier: MIT */
/*
 * The numeric kinds beside `number`: `unsigned` and `float`.  Every value
 * stays an integer value of the symbol space (dl_symbols.h); an unsigned is
 * held as its 64 bits, a float as the 64 bits of its IEEE-754 double, and
 * what the bits mean is the static type the checker gives the column or
 * the term (check_types.c).  This file owns the conversions between a
 * double and its bits and the reading of a float literal's text.
 */
#ifndef DL_NUMERIC_H
#define DL_NUMERIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How a numeric literal was written: 5 may become any numeric kind (the
 * context decides, number by default), 5u is unsigned, 5.0 is a float. */
enum dl_numkind {
	DL_NUM_POLY = 0,
	DL_NUM_UNSIGNED = 1,
	DL_NUM_FLOAT = 2,
};

/* The longest float literal read (digits, point, exponent). */
#define DL_FLOAT_TEXT_MAX 128

static inline int64_t
dl_float_bits(double d)
{
	uint64_t u;

	_Static_assert(sizeof u == sizeof d, "double is 64 bits");
	__builtin_memcpy(&u, &d, sizeof u);
	return (int64_t)u;
}

static inline double
dl_bits_float(int64_t i)
{
	uint64_t u = (uint64_t)i;
	double d;

	__builtin_memcpy(&d, &u, sizeof d);
	return d;
}

/* Reads s[0, n) as a decimal float: digits, '.', digits, and an optional
 * exponent (e or E, a sign, digits); an optional '-' first.  Independent of
 * the C locale.  False when the text is not of that form, longer than
 * DL_FLOAT_TEXT_MAX, or out of the double's range (infinite). */
bool dl_float_read(const char *s, size_t n, double *out);

/* The length of the float literal at the start of s[0, n) (without a
 * sign), or 0 when none starts there: digits '.' digits [e [+-] digits]. */
size_t dl_float_span(const char *s, size_t n);

/* The longest text dl_float_text writes ("-2.2250738585072014e-308"). */
#define DL_FLOAT_PRINT_MAX 32

/* Writes double d as Souffle prints a float (the %g style: 0.5, 3, 1e+20,
 * -1.5), with the fewest significant digits that read back as the same
 * double, and '.' as the point whatever the locale: into buf (cap bytes,
 * NUL-terminated when cap > 0, truncated when too small).  Returns the
 * text's length (less than DL_FLOAT_PRINT_MAX).  The one printer of a
 * float: a record's field (record.c) and the runner's float columns
 * (maelys_datalog_float_text) both print through it. */
size_t dl_float_text(double d, char *buf, size_t cap);

/* Bytes of "%f" of any double: a sign, 309 digits, a point, six digits,
 * the NUL, and room to spare. */
#define DL_FLOAT_FIXED_MAX 330

/* Writes double d as C's "%f" (2.000000, -0.500000, inf, nan), which is
 * what Souffle's to_string of a float gives (std::to_string), with '.' as
 * the point whatever the locale, as dl_float_text writes.  Returns the
 * text's length (less than DL_FLOAT_FIXED_MAX). */
size_t dl_float_fixed_text(double d, char *buf, size_t cap);

#endif /* DL_NUMERIC_H */
