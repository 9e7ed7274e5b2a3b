/* SPDX-License-Identifier: MIT */
/*
 * The parser of --explain's tuple (explain_tuple.h).  A hand-written scanner
 * over (ptr, len): no byte of the input is trusted, no NUL is needed, and
 * every error names the byte where it was found.
 */
#include "explain_tuple.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct scan {
	const char *p;
	size_t len, at;
	char *err;
	size_t errlen;
};

static int fail(struct scan *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
fail(struct scan *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->errlen == 0)
		return -1;
	n = snprintf(s->err, s->errlen, "at byte %zu: ", s->at + 1);
	if (n < 0 || (size_t)n >= s->errlen)
		return -1;
	va_start(ap, fmt);
	(void)vsnprintf(s->err + n, s->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int
peek(const struct scan *s)
{
	return s->at < s->len ? (unsigned char)s->p[s->at] : -1;
}

static bool
is_lower(int c)
{
	return c >= 'a' && c <= 'z';
}

static bool
is_ident(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static bool
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static void
skip_blanks(struct scan *s)
{
	int c;

	while ((c = peek(s)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		s->at++;
}

/* [a-z][A-Za-z0-9_]*: its length. */
static size_t
ident_length(const struct scan *s)
{
	size_t n = 0;

	if (!is_lower(peek(s)))
		return 0;
	while (s->at + n < s->len && is_ident((unsigned char)s->p[s->at + n]))
		n++;
	return n;
}

static int
parse_string(struct scan *s, char **buf, maelys_datalog_arg_t *a)
{
	char *start = *buf, *w = *buf;

	s->at++; /* the opening quote */
	for (;;) {
		int c = peek(s);

		if (c < 0)
			return fail(s, "the string does not end (a \" is "
				       "missing)");
		if (c == '"')
			break;
		if (c == 0)
			return fail(s, "a NUL byte inside a string");
		if (c == '\\') {
			int e = s->at + 1 < s->len
				    ? (unsigned char)s->p[s->at + 1]
				    : -1;

			if (e == '"' || e == '\\')
				*w++ = (char)e;
			else if (e == 'n')
				*w++ = '\n';
			else if (e == 't')
				*w++ = '\t';
			else
				return fail(s, "unknown escape in a string "
					       "(only \\\" \\\\ \\n \\t)");
			s->at += 2;
			continue;
		}
		*w++ = (char)c;
		s->at++;
	}
	s->at++; /* the closing quote */
	a->kind = MAELYS_DATALOG_TERM_SYMBOL;
	a->as.symbol.text = start;
	a->as.symbol.length = (size_t)(w - start);
	*w++ = '\0';
	*buf = w;
	return 0;
}

static int
parse_integer(struct scan *s, maelys_datalog_arg_t *a)
{
	bool neg = false;
	uint64_t v = 0, limit;

	if (peek(s) == '-') {
		neg = true;
		s->at++;
	}
	if (!is_digit(peek(s)))
		return fail(s, "a digit must follow '-'");
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	while (is_digit(peek(s))) {
		unsigned d = (unsigned)(peek(s) - '0');

		if (v > (limit - d) / 10)
			return fail(s, "integer out of the 64-bit range");
		v = v * 10 + d;
		s->at++;
	}
	if (is_ident(peek(s)))
		return fail(s, "a number runs into a name");
	a->kind = MAELYS_DATALOG_TERM_INTEGER;
	if (neg)
		a->as.integer =
		    v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	else
		a->as.integer = (int64_t)v;
	return 0;
}

static int
parse_value(struct scan *s, bool souffle, char **buf, maelys_datalog_arg_t *a)
{
	int c = peek(s);
	size_t n;

	if (c == '"')
		return parse_string(s, buf, a);
	if (c == '-' || is_digit(c))
		return parse_integer(s, a);
	if ((n = ident_length(s)) > 0) {
		if (souffle)
			return fail(s, "in Souffle's syntax a bare name is a "
				       "variable: quote the string");
		a->kind = MAELYS_DATALOG_TERM_SYMBOL;
		a->as.symbol.text = *buf;
		a->as.symbol.length = n;
		memcpy(*buf, s->p + s->at, n);
		(*buf)[n] = '\0';
		*buf += n + 1;
		s->at += n;
		return 0;
	}
	if (c == '_' || (c >= 'A' && c <= 'Z'))
		return fail(s, "a variable: --explain wants a ground tuple "
			       "(every column a value)");
	if (c < 0)
		return fail(s, "a value is missing");
	return fail(s, "not a value (a string, an integer or a name)");
}

static int
parse(struct scan *s, bool souffle, struct explain_tuple *out)
{
	char *buf = out->strings;
	size_t n;

	skip_blanks(s);
	n = ident_length(s);
	if (n == 0)
		return fail(s, "a predicate name ([a-z][A-Za-z0-9_]*) must come "
			       "first");
	if (n > EXPLAIN_TUPLE_NAME_MAX)
		return fail(s, "the predicate name is longer than %d bytes",
			    EXPLAIN_TUPLE_NAME_MAX);
	memcpy(out->name, s->p + s->at, n);
	out->name[n] = '\0';
	s->at += n;
	skip_blanks(s);
	if (peek(s) == '(') {
		s->at++;
		skip_blanks(s);
		if (peek(s) == ')') {
			s->at++;
		} else {
			for (;;) {
				if (out->arity == MAELYS_DATALOG_MAX_ARITY)
					return fail(s,
						    "more than %d columns",
						    MAELYS_DATALOG_MAX_ARITY);
				skip_blanks(s);
				if (parse_value(s, souffle, &buf,
						&out->args[out->arity]) != 0)
					return -1;
				out->arity++;
				skip_blanks(s);
				if (peek(s) == ',') {
					s->at++;
					continue;
				}
				if (peek(s) == ')') {
					s->at++;
					break;
				}
				return fail(s, "',' or ')' expected");
			}
		}
	}
	skip_blanks(s);
	if (peek(s) == '.') /* as a fact is written */
		s->at++;
	skip_blanks(s);
	if (s->at < s->len)
		return fail(s, "unexpected text after the tuple");
	return 0;
}

int
explain_tuple_parse(const char *text, size_t len, bool souffle,
		    struct explain_tuple *out, char *err, size_t errlen)
{
	struct scan s = {text, len, 0, err, errlen};

	memset(out, 0, sizeof *out);
	if (errlen > 0)
		err[0] = '\0';
	if (text == NULL && len > 0)
		return fail(&s, "no text");
	if (len > EXPLAIN_TUPLE_TEXT_MAX)
		return fail(&s, "the tuple is longer than %zu bytes",
			    EXPLAIN_TUPLE_TEXT_MAX);
	/* decoded strings are never longer than their text; one NUL each */
	out->strings = malloc(len + MAELYS_DATALOG_MAX_ARITY + 1);
	if (out->strings == NULL)
		return fail(&s, "out of memory");
	if (parse(&s, souffle, out) != 0) {
		explain_tuple_free(out);
		return -1;
	}
	return 0;
}

void
explain_tuple_free(struct explain_tuple *t)
{
	if (t == NULL)
		return;
	free(t->strings);
	memset(t, 0, sizeof *t);
}
