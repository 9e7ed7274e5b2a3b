/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the reader of a body literal's text of `maelys-pty
 * explain` (pty/tools/explain_literal.c): the input is a literal's text,
 * any bytes.
 *
 *   - it is read or refused, never read past its end;
 *   - a literal read has a name inside the text made of name characters,
 *     at most MAELYS_DATALOG_MAX_ARITY terms, each NAME inside the text,
 *     each string inside the literal's buffer and NUL-ended there;
 *   - written back in the normal form (`not(p(X, "a\"b", 3, _))`), it is
 *     read again to the same literal.
 */
#include "fuzz.h"

#include "pty_explain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool
name_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

/* The literal in the normal form, *len bytes (a string may hold NUL);
 * false when it does not fit. */
static bool
write_back(const struct explain_literal *l, char *out, size_t cap, size_t *len)
{
	size_t o = 0, i, k;
	int n;

#define PUT(c)                                                                 \
	do {                                                                   \
		if (o + 1 >= cap)                                              \
			return false;                                          \
		out[o++] = (c);                                                \
	} while (0)
	if (l->negated) {
		PUT('n');
		PUT('o');
		PUT('t');
		PUT('(');
	}
	for (i = 0; i < l->name_len; i++)
		PUT(l->name[i]);
	if (l->nterms > 0) {
		PUT('(');
		for (i = 0; i < l->nterms; i++) {
			const struct explain_term *t = &l->terms[i];

			if (i > 0) {
				PUT(',');
				PUT(' ');
			}
			switch (t->kind) {
			case EXPLAIN_TERM_NAME:
				for (k = 0; k < t->len; k++)
					PUT(t->text[k]);
				break;
			case EXPLAIN_TERM_ANONYMOUS:
				PUT('_');
				break;
			case EXPLAIN_TERM_SYMBOL:
				PUT('"');
				for (k = 0; k < t->len; k++) {
					char c = t->text[k];

					if (c == '"' || c == '\\')
						PUT('\\');
					if (c == '\n') {
						PUT('\\');
						c = 'n';
					} else if (c == '\t') {
						PUT('\\');
						c = 't';
					}
					PUT(c);
				}
				PUT('"');
				break;
			case EXPLAIN_TERM_INTEGER:
				n = snprintf(out + o, cap - o, "%lld",
					     (long long)t->integer);
				if (n < 0 || (size_t)n >= cap - o)
					return false;
				o += (size_t)n;
				break;
			}
		}
		PUT(')');
	}
	if (l->negated)
		PUT(')');
	out[o] = '\0';
	*len = o;
#undef PUT
	return true;
}

static void
same(const struct explain_literal *a, const struct explain_literal *b)
{
	size_t i;

	if (a->negated != b->negated || a->name_len != b->name_len ||
	    memcmp(a->name, b->name, a->name_len) != 0 ||
	    a->nterms != b->nterms)
		abort();
	for (i = 0; i < a->nterms; i++) {
		const struct explain_term *x = &a->terms[i], *y = &b->terms[i];

		if (x->kind != y->kind)
			abort();
		if ((x->kind == EXPLAIN_TERM_NAME ||
		     x->kind == EXPLAIN_TERM_SYMBOL) &&
		    (x->len != y->len || memcmp(x->text, y->text, x->len) != 0))
			abort();
		if (x->kind == EXPLAIN_TERM_INTEGER && x->integer != y->integer)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct explain_literal a, b;
	static char text[2 * EXPLAIN_LITERAL_MAX + 64];
	char *copy = malloc(size > 0 ? size : 1); /* exact size: ASan sees
						   * a read past the end */
	const char *s = copy;
	size_t i, n;

	if (copy == NULL)
		return 0;
	memcpy(copy, data, size);
	if (explain_literal_parse(s, size, &a) != 0) {
		free(copy);
		return 0;
	}
	if (a.name < s || a.name + a.name_len > s + size || a.name_len == 0 ||
	    a.nterms > MAELYS_DATALOG_MAX_ARITY)
		abort();
	for (i = 0; i < a.name_len; i++)
		if (!name_char(a.name[i], i == 0))
			abort();
	for (i = 0; i < a.nterms; i++) {
		const struct explain_term *t = &a.terms[i];

		if (t->kind == EXPLAIN_TERM_NAME &&
		    (t->text < s || t->text + t->len > s + size))
			abort();
		if (t->kind == EXPLAIN_TERM_SYMBOL &&
		    (t->text < a.buf ||
		     t->text + t->len >= a.buf + sizeof a.buf ||
		     t->text[t->len] != '\0'))
			abort();
	}
	if (write_back(&a, text, sizeof text, &n) && n <= EXPLAIN_LITERAL_MAX) {
		if (explain_literal_parse(text, n, &b) != 0)
			abort();
		same(&a, &b);
	}
	free(copy);
	return 0;
}
