/* SPDX-License-Identifier: MIT */
/*
 * <maelys/datalog_builders.h>: the function forms behind the macros.  Built
 * only on the public API (Lua's lauxlib rule), so the builders stay a thin
 * layer that bindings can reimplement.
 */
#include <maelys/datalog.h>
#include <maelys/datalog_builders.h>

#include <stdio.h>
#include <string.h>

MAELYS_DATALOG_API maelys_datalog_arg_t
maelys_datalog_arg_symbol_n(const char *text, size_t length)
{
	maelys_datalog_arg_t a;

	memset(&a, 0, sizeof a);
	a.kind = MAELYS_DATALOG_TERM_SYMBOL;
	a.as.symbol.text = text;
	a.as.symbol.length = length;
	return a;
}

MAELYS_DATALOG_API maelys_datalog_arg_t
maelys_datalog_arg_symbol(const char *text)
{
	/* NULL with a non-zero length: rejected by every call that gets it */
	return maelys_datalog_arg_symbol_n(text,
					   text == NULL ? 1 : strlen(text));
}

MAELYS_DATALOG_API maelys_datalog_arg_t
maelys_datalog_arg_integer(int64_t value)
{
	maelys_datalog_arg_t a;

	memset(&a, 0, sizeof a);
	a.kind = MAELYS_DATALOG_TERM_INTEGER;
	a.as.integer = value;
	return a;
}

/* Fills a diagnostic through its public fields (builders use only the
 * public API, so not the library's internal formatter). */
static maelys_datalog_status_t
dl_builder_fail(maelys_datalog_diagnostic_t *diag, maelys_datalog_status_t st,
		const char *predicate, const char *what, size_t column)
{
	if (diag != NULL) {
		memset(diag, 0, sizeof *diag);
		diag->status = st;
		(void)snprintf(diag->message, sizeof diag->message,
			       "fact %.64s: %s%s%zu",
			       predicate == NULL ? "?" : predicate, what,
			       column > 0 ? " " : "", column);
	}
	return st;
}

/* Strings -> args. */
static maelys_datalog_status_t
dl_strings_to_args(const char *predicate, const char *const *strings,
		   size_t count, maelys_datalog_arg_t *args,
		   maelys_datalog_diagnostic_t *diag)
{
	size_t i;

	if (count > MAELYS_DATALOG_MAX_ARITY)
		return dl_builder_fail(diag, MAELYS_DATALOG_STATUS_LIMIT,
				       predicate, "too many columns:", count);
	if (strings == NULL && count > 0)
		return dl_builder_fail(diag,
				       MAELYS_DATALOG_STATUS_INVALID_ARGUMENT,
				       predicate, "args is NULL", 0);
	for (i = 0; i < count; i++) {
		if (strings[i] == NULL)
			return dl_builder_fail(
			    diag, MAELYS_DATALOG_STATUS_INVALID_ARGUMENT,
			    predicate, "NULL string in column", i + 1);
		args[i] = maelys_datalog_arg_symbol(strings[i]);
	}
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_input_edb_add_strings(maelys_datalog_input_edb_t *edb,
				     const char *predicate,
				     const char *const *args, size_t count,
				     maelys_datalog_diagnostic_t *diag)
{
	maelys_datalog_arg_t terms[MAELYS_DATALOG_MAX_ARITY];
	maelys_datalog_status_t st =
	    dl_strings_to_args(predicate, args, count, terms, diag);

	if (st != MAELYS_DATALOG_STATUS_OK)
		return st;
	return maelys_datalog_input_edb_add(edb, predicate, terms, count, diag);
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_input_edb_add_string_facts(
    maelys_datalog_input_edb_t *edb, const maelys_datalog_string_fact_t *facts,
    size_t count, maelys_datalog_diagnostic_t *diag)
{
	maelys_datalog_status_t st;
	size_t i, before;

	if (edb == NULL || (facts == NULL && count > 0))
		return dl_builder_fail(diag,
				       MAELYS_DATALOG_STATUS_INVALID_ARGUMENT,
				       NULL, "edb or facts is NULL", 0);
	/* all or none: on a failure, cut back to where the batch began */
	before = maelys_datalog_input_edb_count(edb);
	for (i = 0; i < count; i++) {
		st = maelys_datalog_input_edb_add_strings(
		    edb, facts[i].predicate, facts[i].args, facts[i].count,
		    diag);
		if (st != MAELYS_DATALOG_STATUS_OK) {
			(void)maelys_datalog_input_edb_truncate(edb, before);
			return st;
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_result_query_strings(const maelys_datalog_result_t *result,
				    const char *predicate,
				    const char *const *args, size_t count,
				    int *found)
{
	maelys_datalog_arg_t terms[MAELYS_DATALOG_MAX_ARITY];
	maelys_datalog_status_t st;

	if (found != NULL)
		*found = 0;
	if (count > MAELYS_DATALOG_MAX_ARITY)
		return MAELYS_DATALOG_STATUS_ARITY;
	st = dl_strings_to_args(predicate, args, count, terms, NULL);
	if (st != MAELYS_DATALOG_STATUS_OK)
		return st;
	return maelys_datalog_result_query(result, predicate, terms, count,
					   found);
}
