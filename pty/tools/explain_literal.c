/* SPDX-License-Identifier: MIT */
/*
 * The arguments of a body literal as the policy wrote it.  The rules API
 * gives a literal's text, name and arity but not its terms; a why-not that
 * stops at `not deny_any(C)` must bind C from the head to find the
 * deny_any tuple that holds, so the text is read here: an atom with an
 * optional negation, its name, and its terms (names, _, strings with the
 * lexer's four escapes, integers).  Anything else is refused, and the
 * caller then shows no tuple rather than a wrong one.
 */
#include "pty_explain.h"

#include <string.h>

struct lit_reader {
	const char *s;
	size_t len, at;
};

static bool
lit_is_name_char(unsigned char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

static void
lit_blanks(struct lit_reader *r)
{
	while (r->at < r->len && (r->s[r->at] == ' ' || r->s[r->at] == '\t'))
		r->at++;
}

/* Consumes `c` (after blanks) if it is next. */
static bool
lit_take(struct lit_reader *r, char c)
{
	lit_blanks(r);
	if (r->at < r->len && r->s[r->at] == c) {
		r->at++;
		return true;
	}
	return false;
}

static size_t
lit_name(struct lit_reader *r)
{
	size_t start;

	lit_blanks(r);
	start = r->at;
	while (r->at < r->len &&
	       lit_is_name_char((unsigned char)r->s[r->at], r->at == start))
		r->at++;
	return r->at - start;
}

/* A string: decoded into out->buf at *used. */
static int
lit_string(struct lit_reader *r, struct explain_literal *out, size_t *used,
	   struct explain_term *t)
{
	t->kind = EXPLAIN_TERM_SYMBOL;
	t->text = out->buf + *used;
	t->len = 0;
	r->at++; /* the opening quote */
	for (;;) {
		char c;

		if (r->at >= r->len || *used >= sizeof out->buf - 1)
			return -1;
		c = r->s[r->at++];
		if (c == '"')
			break;
		if (c == '\\') {
			if (r->at >= r->len)
				return -1;
			c = r->s[r->at++];
			if (c == 'n')
				c = '\n';
			else if (c == 't')
				c = '\t';
			else if (c != '"' && c != '\\')
				return -1;
		}
		out->buf[(*used)++] = c;
		t->len++;
	}
	out->buf[(*used)++] = '\0';
	return 0;
}

static int
lit_integer(struct lit_reader *r, struct explain_term *t)
{
	bool neg = false;
	uint64_t v = 0, limit;

	if (r->s[r->at] == '-') {
		neg = true;
		r->at++;
	}
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	if (r->at >= r->len || r->s[r->at] < '0' || r->s[r->at] > '9')
		return -1;
	while (r->at < r->len && r->s[r->at] >= '0' && r->s[r->at] <= '9') {
		unsigned d = (unsigned)(r->s[r->at++] - '0');

		if (v > (limit - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	t->kind = EXPLAIN_TERM_INTEGER;
	/* -(2^63) is representable; built without overflow */
	t->integer = neg ? (v == 0 ? 0 : -(int64_t)(v - 1) - 1) : (int64_t)v;
	return 0;
}

static int
lit_term(struct lit_reader *r, struct explain_literal *out, size_t *used,
	 struct explain_term *t)
{
	size_t start, n;

	memset(t, 0, sizeof *t);
	lit_blanks(r);
	if (r->at >= r->len)
		return -1;
	if (r->s[r->at] == '"')
		return lit_string(r, out, used, t);
	if (r->s[r->at] == '-' || (r->s[r->at] >= '0' && r->s[r->at] <= '9'))
		return lit_integer(r, t);
	start = r->at;
	if ((n = lit_name(r)) == 0)
		return -1;
	if (n == 1 && r->s[start] == '_') {
		t->kind = EXPLAIN_TERM_ANONYMOUS;
		return 0;
	}
	t->kind = EXPLAIN_TERM_NAME;
	t->text = r->s + start;
	t->len = n;
	return 0;
}

int
explain_literal_parse(const char *text, size_t len, struct explain_literal *out)
{
	struct lit_reader r = {text, len, 0};
	bool wrapped = false;
	size_t used = 0, start;

	out->negated = false;
	out->name = NULL;
	out->name_len = 0;
	out->nterms = 0; /* buf is written only as far as it is used */
	if (text == NULL || len > EXPLAIN_LITERAL_MAX)
		return -1;
	if (lit_take(&r, '!')) {
		out->negated = true;
	} else {
		lit_blanks(&r);
		start = r.at;
		if (lit_name(&r) == 3 && memcmp(text + start, "not", 3) == 0 &&
		    lit_take(&r, '(')) {
			out->negated = wrapped = true;
		} else {
			r.at = start; /* a predicate that begins "not" */
		}
	}
	lit_blanks(&r);
	start = r.at;
	if ((out->name_len = lit_name(&r)) == 0)
		return -1;
	out->name = text + start;
	if (lit_take(&r, '(') && !lit_take(&r, ')')) {
		do {
			if (out->nterms == MAELYS_DATALOG_MAX_ARITY ||
			    lit_term(&r, out, &used,
				     &out->terms[out->nterms]) != 0)
				return -1;
			out->nterms++;
		} while (lit_take(&r, ','));
		if (!lit_take(&r, ')'))
			return -1;
	}
	if (wrapped && !lit_take(&r, ')'))
		return -1;
	lit_blanks(&r);
	return r.at == len ? 0 : -1;
}
