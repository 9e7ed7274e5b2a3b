/* SPDX-License-Identifier: MIT */
/*
 * Input EDBs: the facts of one question, copied in at add time (callers'
 * buffers may die at once) and resolved against a policy only when solved.
 */
#include "dl_api.h"

#include "dl_diag.h"
#include "dl_limits.h"
#include "dl_registry.h"

#include <string.h>

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_input_edb_create(maelys_datalog_input_edb_t **out)
{
	if (out == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	*out = dl_calloc(1, sizeof **out);
	return *out == NULL ? MAELYS_DATALOG_STATUS_NO_MEMORY
			    : MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_input_edb_free(maelys_datalog_input_edb_t *edb)
{
	if (edb == NULL)
		return MAELYS_DATALOG_STATUS_OK;
	dl_free(edb->bytes);
	dl_free(edb->facts);
	dl_free(edb->args);
	dl_free(edb);
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_input_edb_clear(maelys_datalog_input_edb_t *edb)
{
	if (edb == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	edb->nbytes = 0;
	edb->nfacts = 0;
	edb->nargs = 0;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_input_edb_truncate(maelys_datalog_input_edb_t *edb, size_t count)
{
	if (edb == NULL || count > edb->nfacts)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	if (count == edb->nfacts)
		return MAELYS_DATALOG_STATUS_OK;
	/* facts, args and bytes are appended in step: cut all three */
	edb->nargs = edb->facts[count].first_arg;
	edb->nbytes = edb->facts[count].name_off;
	edb->nfacts = count;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API size_t
maelys_datalog_input_edb_count(const maelys_datalog_input_edb_t *edb)
{
	return edb == NULL ? 0 : edb->nfacts;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_input_edb_get(const maelys_datalog_input_edb_t *edb,
			     size_t index, const char **predicate,
			     maelys_datalog_arg_t *args, size_t capacity,
			     size_t *count)
{
	const struct dl_edb_fact *f;
	size_t i;

	if (predicate != NULL)
		*predicate = NULL;
	if (count != NULL)
		*count = 0;
	if (edb == NULL || predicate == NULL || count == NULL ||
	    (args == NULL && capacity > 0) || index >= edb->nfacts)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	f = &edb->facts[index];
	if (f->nargs > capacity) {
		*count = f->nargs;
		return MAELYS_DATALOG_STATUS_TRUNCATED;
	}
	for (i = 0; i < f->nargs; i++) {
		const struct dl_edb_arg *d = &edb->args[f->first_arg + i];

		args[i].kind = d->kind;
		if (d->kind == MAELYS_DATALOG_TERM_INTEGER) {
			args[i].as.integer = d->integer;
			continue;
		}
		args[i].as.symbol.text = edb->bytes + d->off;
		args[i].as.symbol.length = d->len;
	}
	/* add stored the name NUL-terminated */
	*predicate = edb->bytes + f->name_off;
	*count = f->nargs;
	return MAELYS_DATALOG_STATUS_OK;
}

static int
dl_edb_push_bytes(maelys_datalog_input_edb_t *edb, const char *s, size_t n,
		  size_t *off)
{
	size_t need;

	if (!dl_size_add(edb->nbytes, n, &need) ||
	    !dl_size_add(need, 1, &need) ||
	    dl_vec_reserve((void **)&edb->bytes, &edb->cap_bytes, need, 1) != 0)
		return -1;
	*off = edb->nbytes;
	if (n > 0)
		memcpy(edb->bytes + edb->nbytes, s, n);
	edb->bytes[edb->nbytes + n] = '\0';
	edb->nbytes = need;
	return 0;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_input_edb_add(maelys_datalog_input_edb_t *edb,
			     const char *predicate,
			     const maelys_datalog_arg_t *args, size_t count,
			     maelys_datalog_diagnostic_t *diag)
{
	size_t i, name_len, saved_bytes;
	struct dl_edb_fact *f;

	if (edb == NULL || predicate == NULL || (args == NULL && count > 0))
		return dl_fail(diag, MAELYS_DATALOG_STATUS_INVALID_ARGUMENT,
			       "input_edb_add: %s is NULL",
			       edb == NULL         ? "edb"
			       : predicate == NULL ? "predicate"
						   : "args");
	name_len = strlen(predicate);
	if (!dl_valid_input_name(predicate, name_len))
		return dl_fail(diag, MAELYS_DATALOG_STATUS_INVALID_ARGUMENT,
			       "input_edb_add: '%.64s' is not a predicate name",
			       predicate);
	if (count > MAELYS_DATALOG_MAX_ARITY)
		return dl_fail(diag, MAELYS_DATALOG_STATUS_LIMIT,
			       "input fact %s/%zu: more than %d columns",
			       predicate, count, MAELYS_DATALOG_MAX_ARITY);
	if (edb->nfacts >= DL_EDB_FACTS_MAX)
		return dl_fail(diag, MAELYS_DATALOG_STATUS_LIMIT,
			       "more than %zu input facts", DL_EDB_FACTS_MAX);
	for (i = 0; i < count; i++) {
		const maelys_datalog_arg_t *a = &args[i];

		if (a->kind == MAELYS_DATALOG_TERM_INTEGER)
			continue;
		if (a->kind != MAELYS_DATALOG_TERM_SYMBOL ||
		    (a->as.symbol.text == NULL && a->as.symbol.length > 0))
			return dl_fail(diag,
				       MAELYS_DATALOG_STATUS_INVALID_ARGUMENT,
				       "input fact %s: column %zu is not a "
				       "valid term",
				       predicate, i + 1);
		if (a->as.symbol.length > DL_SYMBOL_LEN_MAX)
			return dl_fail(diag, MAELYS_DATALOG_STATUS_LIMIT,
				       "input fact %s: column %zu has %zu "
				       "bytes, more than the limit of %zu",
				       predicate, i + 1, a->as.symbol.length,
				       DL_SYMBOL_LEN_MAX);
	}
	if (dl_vec_reserve((void **)&edb->facts, &edb->cap_facts,
			   edb->nfacts + 1, sizeof *edb->facts) != 0 ||
	    dl_vec_reserve((void **)&edb->args, &edb->cap_args,
			   edb->nargs + count, sizeof *edb->args) != 0)
		goto nomem;
	saved_bytes = edb->nbytes;
	f = &edb->facts[edb->nfacts];
	f->name_len = (uint32_t)name_len;
	f->nargs = (uint32_t)count;
	f->first_arg = edb->nargs;
	if (dl_edb_push_bytes(edb, predicate, name_len, &f->name_off) != 0)
		goto nomem;
	for (i = 0; i < count; i++) {
		struct dl_edb_arg *d = &edb->args[edb->nargs + i];

		d->kind = args[i].kind;
		d->off = 0;
		d->len = 0;
		d->integer = 0;
		if (args[i].kind == MAELYS_DATALOG_TERM_INTEGER) {
			d->integer = args[i].as.integer;
			continue;
		}
		d->len = (uint32_t)args[i].as.symbol.length;
		if (dl_edb_push_bytes(edb, args[i].as.symbol.text,
				      args[i].as.symbol.length, &d->off) != 0) {
			edb->nbytes = saved_bytes; /* nothing was added */
			goto nomem;
		}
	}
	edb->nargs += count;
	edb->nfacts++;
	return MAELYS_DATALOG_STATUS_OK;
nomem:
	return dl_fail(diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
		       "out of memory adding an input fact");
}
