/* SPDX-License-Identifier: MIT */
/*
 * <maelys/datalog_builders.h> - convenience forms over <maelys/datalog.h>.
 *
 * The macros let C code add and query facts whose columns are strings in one
 * readable line:
 *
 *   rc = MAELYS_DATALOG_ADD_FACT(edb, &diag, "command", tokens[0]);
 *   rc = MAELYS_DATALOG_ADD_FACTS(edb, &diag,
 *            MAELYS_DATALOG_FACT("command", tokens[0]),
 *            MAELYS_DATALOG_FACT("user", user));
 *   rc = MAELYS_DATALOG_QUERY(result, &allowed, "allow", tokens[0]);
 *
 * Each macro is a thin wrapper over an exported function of the same meaning
 * (listed beside it), which is what bindings to other languages call.  The
 * macros need C99 compound literals and at least one column; facts of arity 0
 * and facts with integer columns use the functions (or input_edb_add).
 * Every function here is built only on the public API of datalog.h and
 * follows its rules (statuses, NULL handling, threads).
 */
#ifndef MAELYS_DATALOG_BUILDERS_H
#define MAELYS_DATALOG_BUILDERS_H

#include <stddef.h>
#include <stdint.h>

#include <maelys/datalog.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A fact whose columns are NUL-terminated strings. */
typedef struct maelys_datalog_string_fact {
	const char *predicate;
	const char *const *args;
	size_t count;
} maelys_datalog_string_fact_t;

/* An argument holding the symbol `text` (NUL-terminated; NULL gives a term
 * that every call rejects with INVALID_ARGUMENT). */
MAELYS_DATALOG_API maelys_datalog_arg_t
maelys_datalog_arg_symbol(const char *text);

/* An argument holding `length` bytes of `text` as a symbol. */
MAELYS_DATALOG_API maelys_datalog_arg_t
maelys_datalog_arg_symbol_n(const char *text, size_t length);

/* An argument holding the integer `value`. */
MAELYS_DATALOG_API maelys_datalog_arg_t
maelys_datalog_arg_integer(int64_t value);

/* input_edb_add with every column a NUL-terminated string.  Returns what
 * input_edb_add returns; INVALID_ARGUMENT if an element of args is NULL. */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_input_edb_add_strings(maelys_datalog_input_edb_t *edb,
				     const char *predicate,
				     const char *const *args, size_t count,
				     maelys_datalog_diagnostic_t *diag);

/* Adds `count` facts, all or none: if one is rejected, none is added.
 * Returns what input_edb_add returns. */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_input_edb_add_string_facts(
    maelys_datalog_input_edb_t *edb, const maelys_datalog_string_fact_t *facts,
    size_t count, maelys_datalog_diagnostic_t *diag);

/* result_query with every column a NUL-terminated string. */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_result_query_strings(const maelys_datalog_result_t *result,
				    const char *predicate,
				    const char *const *args, size_t count,
				    int *found);

/* The argument list of a macro as an array of strings, and its length. */
#define MAELYS_DATALOG_STRINGS_(...) ((const char *const[]){__VA_ARGS__})
#define MAELYS_DATALOG_NSTRINGS_(...)                                          \
	(sizeof(MAELYS_DATALOG_STRINGS_(__VA_ARGS__)) / sizeof(const char *))

/* maelys_datalog_input_edb_add_strings(edb, predicate, {...}, n, diag) */
#define MAELYS_DATALOG_ADD_FACT(edb, diag, predicate, ...)                     \
	maelys_datalog_input_edb_add_strings(                                  \
	    (edb), (predicate), MAELYS_DATALOG_STRINGS_(__VA_ARGS__),          \
	    MAELYS_DATALOG_NSTRINGS_(__VA_ARGS__), (diag))

/* One element of MAELYS_DATALOG_ADD_FACTS. */
#define MAELYS_DATALOG_FACT(predicate, ...)                                    \
	((maelys_datalog_string_fact_t){                                       \
	    (predicate), MAELYS_DATALOG_STRINGS_(__VA_ARGS__),                 \
	    MAELYS_DATALOG_NSTRINGS_(__VA_ARGS__)})

/* maelys_datalog_input_edb_add_string_facts(edb, {FACT, ...}, n, diag) */
#define MAELYS_DATALOG_ADD_FACTS(edb, diag, ...)                               \
	maelys_datalog_input_edb_add_string_facts(                             \
	    (edb), (const maelys_datalog_string_fact_t[]){__VA_ARGS__},        \
	    sizeof((const maelys_datalog_string_fact_t[]){__VA_ARGS__}) /      \
		sizeof(maelys_datalog_string_fact_t),                          \
	    (diag))

/* maelys_datalog_result_query_strings(result, predicate, {...}, n, found) */
#define MAELYS_DATALOG_QUERY(result, found, predicate, ...)                    \
	maelys_datalog_result_query_strings(                                   \
	    (result), (predicate), MAELYS_DATALOG_STRINGS_(__VA_ARGS__),       \
	    MAELYS_DATALOG_NSTRINGS_(__VA_ARGS__), (found))

#ifdef __cplusplus
}
#endif

#endif /* MAELYS_DATALOG_BUILDERS_H */
