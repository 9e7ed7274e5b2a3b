/* SPDX-License-Identifier: MIT */
/*
 * The tuple of `maelys-datalog run --explain 'rel(a, "b", -3)'`: a predicate
 * name and its ground columns, written as the policy's dialect writes them -
 * strings quoted (escapes \" \\ \n \t), integers in decimal (64-bit), and,
 * in the native dialect, bare lower-case names, which are the string of that
 * name.  `rel` alone (or `rel()`) is a tuple of no columns.
 */
#ifndef MAELYS_EXPLAIN_TUPLE_H
#define MAELYS_EXPLAIN_TUPLE_H

#include <stdbool.h>
#include <stddef.h>

#include <maelys/datalog.h>

/* The longest argument accepted (a bound on input, not on any string). */
#define EXPLAIN_TUPLE_TEXT_MAX ((size_t)1 << 20)
/* The longest predicate name (the engine's identifier bound). */
#define EXPLAIN_TUPLE_NAME_MAX 255

struct explain_tuple {
	char name[EXPLAIN_TUPLE_NAME_MAX + 1];
	size_t arity;
	maelys_datalog_arg_t args[MAELYS_DATALOG_MAX_ARITY];
	char *strings; /* the decoded strings the args point into; owned */
};

/*
 * Parses `len` bytes of `text`.  `souffle`: Souffle's syntax, where a bare
 * name is a variable and so not a value.  Returns 0, or -1 with what is
 * wrong (and at which byte) in `err`; on failure nothing needs freeing.
 */
int explain_tuple_parse(const char *text, size_t len, bool souffle,
			struct explain_tuple *out, char *err, size_t errlen);
void explain_tuple_free(struct explain_tuple *t);

#endif /* MAELYS_EXPLAIN_TUPLE_H */
