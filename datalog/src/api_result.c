/* SPDX-License-Identifier: MIT */
/*
 * Reading a result: queries of ground facts, counts, enumeration into fact
 * views, symbol texts.  Only QUERY predicates are readable (every predicate
 * of a standalone program is, and of a PROVENANCE session).
 */
#include "dl_api.h"
#include "dl_record.h"

#include <string.h>

maelys_datalog_status_t
dl_result_pred(const maelys_datalog_result_t *res, const char *name,
	       size_t arity, uint32_t *out)
{
	const struct dl_program *prog = res->session->prog;
	uint32_t pid = dl_program_find_pred(prog, name, strlen(name));
	const struct dl_pred *p;

	if (pid == DL_NONE)
		return MAELYS_DATALOG_STATUS_UNDECLARED;
	p = &prog->preds[pid];
	if (p->arity != arity)
		return MAELYS_DATALOG_STATUS_ARITY;
	if (!dl_result_readable(res, pid))
		return MAELYS_DATALOG_STATUS_ROLE;
	*out = pid;
	return MAELYS_DATALOG_STATUS_OK;
}

bool
dl_result_readable(const maelys_datalog_result_t *res, uint32_t pid)
{
	return res->session->provenance ||
	       (res->session->prog->preds[pid].role &
		MAELYS_DATALOG_PREDICATE_QUERY) != 0;
}

struct dl_symview
dl_result_syms(const maelys_datalog_result_t *res)
{
	struct dl_symview syms;

	syms.policy = &res->session->prog->symbols;
	/* only looked up: a const result never interns */
	syms.overlay = (struct dl_symtab *)&res->ws->overlay;
	return syms;
}

maelys_datalog_status_t
dl_result_arg_value(const maelys_datalog_result_t *res,
		    const maelys_datalog_arg_t *a, bool *known, dl_value *out)
{
	struct dl_symview syms = dl_result_syms(res);

	if (a->kind == MAELYS_DATALOG_TERM_INTEGER)
		*known = dl_symview_find_int(&syms, a->as.integer, out);
	else if (a->kind == MAELYS_DATALOG_TERM_SYMBOL &&
		 (a->as.symbol.text != NULL || a->as.symbol.length == 0))
		*known = dl_symview_find_string(
		    &syms, a->as.symbol.text == NULL ? "" : a->as.symbol.text,
		    a->as.symbol.length, out);
	else
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	return MAELYS_DATALOG_STATUS_OK;
}

maelys_datalog_status_t
dl_result_tuple_values(const maelys_datalog_result_t *res,
		       const char *predicate, const maelys_datalog_arg_t *args,
		       size_t count, dl_value unknown, uint32_t *pid,
		       dl_value *vals, bool *all_known)
{
	maelys_datalog_status_t st;
	size_t k;

	*all_known = true;
	if (count > MAELYS_DATALOG_MAX_ARITY)
		return MAELYS_DATALOG_STATUS_ARITY;
	if ((st = dl_result_pred(res, predicate, count, pid)) !=
	    MAELYS_DATALOG_STATUS_OK)
		return st;
	for (k = 0; k < count; k++) {
		const struct dl_pred *p = &res->session->prog->preds[*pid];
		bool known = false;

		if (p->rtypes[k] != DL_NONE &&
		    args[k].kind == MAELYS_DATALOG_TERM_SYMBOL &&
		    args[k].as.symbol.text != NULL) {
			/* a record column: the value's text, as printed */
			struct dl_symview syms = dl_result_syms(res);

			st = dl_record_find(res->session->prog, &syms,
					    p->rtypes[k], args[k].as.symbol.text,
					    args[k].as.symbol.length, &vals[k],
					    &known);
		} else {
			st = dl_result_arg_value(res, &args[k], &known,
						 &vals[k]);
		}
		if (st != MAELYS_DATALOG_STATUS_OK)
			return st;
		if (!known) {
			vals[k] = unknown;
			*all_known = false;
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}

void
dl_result_view(const maelys_datalog_result_t *res, const dl_value *t,
	       uint32_t n, maelys_datalog_fact_view_t *view)
{
	struct dl_symview syms = dl_result_syms(res);
	uint32_t k;

	memset(view, 0, sizeof *view);
	view->arity = n;
	for (k = 0; k < n; k++) {
		int64_t i;

		if (dl_symview_value_int(&syms, t[k], &i)) {
			view->terms[k].kind = MAELYS_DATALOG_TERM_INTEGER;
			view->terms[k].as.integer = i;
		} else {
			view->terms[k].kind = MAELYS_DATALOG_TERM_SYMBOL;
			view->terms[k].as.symbol_id = t[k];
		}
	}
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_result_query(const maelys_datalog_result_t *result,
			    const char *predicate,
			    const maelys_datalog_arg_t *args, size_t count,
			    int *found)
{
	const struct dl_workspace *ws;
	uint32_t tuple[MAELYS_DATALOG_MAX_ARITY], pid;
	maelys_datalog_status_t st;
	bool all_known;

	if (found == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	*found = 0;
	if (result == NULL || predicate == NULL || (args == NULL && count > 0))
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	if ((st = dl_result_tuple_values(result, predicate, args, count, 0,
					 &pid, tuple, &all_known)) !=
	    MAELYS_DATALOG_STATUS_OK)
		return st;
	/* a value no layer knows cannot be in any relation */
	if (!all_known)
		return MAELYS_DATALOG_STATUS_OK;
	ws = result->ws;
	*found = dl_rel_contains(ws->relp[pid], tuple);
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_result_count(const maelys_datalog_result_t *result,
			    const char *predicate, size_t arity, size_t *count)
{
	maelys_datalog_status_t st;
	uint32_t pid;

	if (count == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	*count = 0;
	if (result == NULL || predicate == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	if ((st = dl_result_pred(result, predicate, arity, &pid)) !=
	    MAELYS_DATALOG_STATUS_OK)
		return st;
	*count = result->ws->relp[pid]->count;
	return MAELYS_DATALOG_STATUS_OK;
}

static void
dl_fill_view(const maelys_datalog_result_t *result, const struct dl_rel *r,
	     uint32_t row, maelys_datalog_fact_view_t *view)
{
	dl_result_view(result, r->arity > 0 ? dl_rel_row(r, row) : NULL,
		       r->arity, view);
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_result_enumerate_at(const maelys_datalog_result_t *result,
				   const char *predicate, size_t arity,
				   size_t offset,
				   maelys_datalog_fact_view_t *rows,
				   size_t capacity, size_t *written)
{
	const struct dl_rel *r;
	maelys_datalog_status_t st;
	uint32_t pid;
	size_t i;

	if (written == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	*written = 0;
	if (result == NULL || predicate == NULL ||
	    (rows == NULL && capacity > 0))
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	if ((st = dl_result_pred(result, predicate, arity, &pid)) !=
	    MAELYS_DATALOG_STATUS_OK)
		return st;
	r = result->ws->relp[pid];
	for (i = 0; i < capacity && offset < r->count && i < r->count - offset;
	     i++)
		dl_fill_view(result, r, (uint32_t)(offset + i), &rows[i]);
	*written = i;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_result_enumerate(const maelys_datalog_result_t *result,
				const char *predicate, size_t arity,
				maelys_datalog_fact_view_t *rows,
				size_t capacity, size_t *count)
{
	maelys_datalog_status_t st;
	size_t total = 0, written = 0;

	if (count == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	*count = 0;
	if ((st = maelys_datalog_result_count(
		 result, predicate, arity, &total)) != MAELYS_DATALOG_STATUS_OK)
		return st;
	if ((st = maelys_datalog_result_enumerate_at(
		 result, predicate, arity, 0, rows, capacity, &written)) !=
	    MAELYS_DATALOG_STATUS_OK)
		return st;
	if (total > capacity) {
		*count = total; /* the number needed */
		return MAELYS_DATALOG_STATUS_TRUNCATED;
	}
	*count = written;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_result_symbol_text(const maelys_datalog_result_t *result,
				  maelys_datalog_symbol_id_t symbol_id,
				  const char **text, size_t *length)
{
	struct dl_symview syms;
	const struct dl_sym *s;

	if (text != NULL)
		*text = NULL;
	if (length != NULL)
		*length = 0;
	if (result == NULL || text == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	syms.policy = &result->session->prog->symbols;
	syms.overlay = (struct dl_symtab *)&result->ws->overlay;
	s = dl_symview_get(&syms, symbol_id);
	if (s == NULL || s->text == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	*text = s->text;
	if (length != NULL)
		*length = s->len;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_result_record_text(const maelys_datalog_result_t *result,
				  maelys_datalog_symbol_id_t symbol_id,
				  char *buf, size_t capacity, size_t *length)
{
	struct dl_symview syms;
	size_t len = 0;
	maelys_datalog_status_t st;

	if (length != NULL)
		*length = 0;
	if (capacity > 0 && buf != NULL)
		buf[0] = '\0';
	if (result == NULL || (buf == NULL && capacity > 0))
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	syms = dl_result_syms(result);
	st = dl_record_print(result->session->prog, &syms, symbol_id, buf,
			     capacity, &len);
	if (length != NULL)
		*length = len;
	return st;
}
