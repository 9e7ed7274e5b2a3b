/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the tuple of `maelys-datalog run --explain`
 * (datalog/tools/explain_tuple.c): the first byte picks the syntax as
 * fuzz.h says, the rest is the argument, any bytes.
 *
 *   - it parses or is refused with a message, never anything else;
 *   - a parsed tuple has a name [a-z][A-Za-z0-9_]* of at most 255 bytes and
 *     at most MAELYS_DATALOG_MAX_ARITY columns, each a symbol or an integer;
 *   - written back in canonical form (every string quoted with the
 *     dialect's escapes) it parses, in either syntax, to the same tuple.
 */
#include "fuzz.h"

#include "explain_tuple.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The canonical text of a tuple; its length. */
static size_t
write_back(const struct explain_tuple *t, char *out, size_t cap)
{
	size_t o = 0, k, i;

#define PUT(c)                                                                 \
	do {                                                                   \
		if (o + 1 >= cap)                                              \
			abort();                                               \
		out[o++] = (char)(c);                                          \
	} while (0)
	for (i = 0; t->name[i] != '\0'; i++)
		PUT(t->name[i]);
	PUT('(');
	for (k = 0; k < t->arity; k++) {
		const maelys_datalog_arg_t *a = &t->args[k];

		if (k > 0)
			PUT(',');
		if (a->kind == MAELYS_DATALOG_TERM_INTEGER) {
			int n = snprintf(out + o, cap - o, "%lld",
					 (long long)a->as.integer);

			if (n < 0 || (size_t)n >= cap - o)
				abort();
			o += (size_t)n;
			continue;
		}
		PUT('"');
		for (i = 0; i < a->as.symbol.length; i++) {
			char c = a->as.symbol.text[i];

			if (c == '"' || c == '\\') {
				PUT('\\');
				PUT(c);
			} else if (c == '\n') {
				PUT('\\');
				PUT('n');
			} else if (c == '\t') {
				PUT('\\');
				PUT('t');
			} else {
				PUT(c);
			}
		}
		PUT('"');
	}
	PUT(')');
#undef PUT
	return o;
}

static void
check_same(const struct explain_tuple *a, const struct explain_tuple *b)
{
	size_t k;

	if (strcmp(a->name, b->name) != 0 || a->arity != b->arity)
		abort();
	for (k = 0; k < a->arity; k++) {
		const maelys_datalog_arg_t *x = &a->args[k], *y = &b->args[k];

		if (x->kind != y->kind)
			abort();
		if (x->kind == MAELYS_DATALOG_TERM_INTEGER
			? x->as.integer != y->as.integer
			: x->as.symbol.length != y->as.symbol.length ||
			      memcmp(x->as.symbol.text, y->as.symbol.text,
				     x->as.symbol.length) != 0)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct explain_tuple t, again;
	char err[256];
	bool souffle;
	size_t i, k, n;
	char *text;

	if (size == 0)
		return 0;
	souffle = (fuzz_syntax_flags(data[0]) & MAELYS_DATALOG_LOAD_SOUFFLE) != 0;
	if (explain_tuple_parse((const char *)data + 1, size - 1, souffle, &t,
				err, sizeof err) != 0) {
		if (err[0] == '\0' || t.strings != NULL)
			abort(); /* a refusal says why and holds nothing */
		return 0;
	}
	n = strlen(t.name);
	if (n == 0 || n > EXPLAIN_TUPLE_NAME_MAX || t.name[0] < 'a' ||
	    t.name[0] > 'z' || t.arity > MAELYS_DATALOG_MAX_ARITY)
		abort();
	for (i = 0; i < n; i++) {
		char c = t.name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_'))
			abort();
	}
	for (k = 0; k < t.arity; k++)
		if (t.args[k].kind != MAELYS_DATALOG_TERM_SYMBOL &&
		    t.args[k].kind != MAELYS_DATALOG_TERM_INTEGER)
			abort();
	/* at most 2 bytes per byte of input, plus punctuation */
	n = 2 * size + 4 * MAELYS_DATALOG_MAX_ARITY + 300;
	text = malloc(n);
	if (text == NULL)
		abort();
	n = write_back(&t, text, n);
	for (i = 0; i < 2; i++) {
		if (explain_tuple_parse(text, n, i == 1, &again, err,
					sizeof err) != 0)
			abort();
		check_same(&t, &again);
		explain_tuple_free(&again);
	}
	free(text);
	explain_tuple_free(&t);
	return 0;
}
