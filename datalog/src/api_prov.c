/* SPDX-License-Identifier: MIT */
/*
 * Reading provenance from a result: tuple handles (result_find,
 * result_tuple), how a tuple was first derived (result_derivation,
 * result_premise), which rules fired; and session_provenance_only, which
 * narrows what a session records.  The records are dl_prov.h's; why_not is
 * whynot.c's.
 */
#include "dl_api.h"

#include <string.h>

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_session_provenance_only(maelys_datalog_session_t *session,
				       const char *const *predicates,
				       size_t count)
{
	const struct dl_program *prog;
	bool *rec, grew = true;
	size_t i, r;
	uint32_t k;

	if (session == NULL || (predicates == NULL && count > 0) ||
	    !session->provenance || session->prepared)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	prog = session->prog;
	if (count == 0) {
		dl_free(session->recorded);
		session->recorded = NULL;
		return MAELYS_DATALOG_STATUS_OK;
	}
	rec = dl_calloc(prog->npreds > 0 ? prog->npreds : 1, sizeof *rec);
	if (rec == NULL)
		return MAELYS_DATALOG_STATUS_NO_MEMORY;
	for (i = 0; i < count; i++) {
		uint32_t pid = predicates[i] == NULL
				   ? DL_NONE
				   : dl_program_find_pred(prog, predicates[i],
							  strlen(predicates[i]));

		if (predicates[i] == NULL) {
			dl_free(rec);
			return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
		}
		if (pid == DL_NONE) {
			dl_free(rec);
			return MAELYS_DATALOG_STATUS_UNDECLARED;
		}
		rec[pid] = true;
	}
	/* and everything they are derived from: a walk down a recorded tree
	 * never meets an unrecorded premise */
	while (grew) {
		grew = false;
		for (r = 0; r < prog->nrules; r++) {
			const struct dl_rule *rule = &prog->rules[r];

			if (!rec[rule->head_pred])
				continue;
			for (k = 0; k < rule->nbody; k++) {
				const struct dl_clit *l = &rule->body[k];

				if (l->kind == DL_LIT_ATOM && !rec[l->pred]) {
					rec[l->pred] = true;
					grew = true;
				}
			}
		}
	}
	dl_free(session->recorded);
	session->recorded = rec;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_result_find(const maelys_datalog_result_t *result,
			   const char *predicate,
			   const maelys_datalog_arg_t *args, size_t count,
			   maelys_datalog_tuple_t *tuple, int *found)
{
	uint32_t t[MAELYS_DATALOG_MAX_ARITY], pid, row;
	maelys_datalog_status_t st;
	bool all_known;

	if (tuple != NULL)
		memset(tuple, 0, sizeof *tuple);
	if (found != NULL)
		*found = 0;
	if (result == NULL || predicate == NULL || tuple == NULL ||
	    found == NULL || (args == NULL && count > 0))
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	if ((st = dl_result_tuple_values(result, predicate, args, count, 0,
					 &pid, t, &all_known)) !=
	    MAELYS_DATALOG_STATUS_OK)
		return st;
	if (!all_known)
		return MAELYS_DATALOG_STATUS_OK; /* no relation holds it */
	if (!result->session->provenance) {
		/* no row map without provenance; a QUERY relation is found
		 * by a scan of its rows */
		const struct dl_rel *r = result->ws->relp[pid];

		for (row = 0; row < r->count; row++)
			if (r->arity == 0 ||
			    dl_tuple_eq(dl_rel_row(r, row), t, r->arity))
				break;
		if (row == r->count)
			return MAELYS_DATALOG_STATUS_OK;
	} else {
		row = dl_prov_row_of(result->ws->relp[pid],
				     result->session->find_index[pid], t);
		if (row == DL_ROW_NONE)
			return MAELYS_DATALOG_STATUS_OK;
	}
	tuple->relation = pid;
	tuple->row = row;
	*found = 1;
	return MAELYS_DATALOG_STATUS_OK;
}

/* Whether `t` is a handle of a readable tuple of this result. */
static bool
dl_tuple_valid(const maelys_datalog_result_t *res, maelys_datalog_tuple_t t)
{
	return t.relation < res->session->prog->npreds &&
	       t.row < res->ws->relp[t.relation]->count &&
	       dl_result_readable(res, t.relation);
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_result_tuple(const maelys_datalog_result_t *result,
			    maelys_datalog_tuple_t tuple,
			    const char **predicate,
			    maelys_datalog_fact_view_t *terms)
{
	const struct dl_rel *r;

	if (predicate != NULL)
		*predicate = NULL;
	if (terms != NULL)
		memset(terms, 0, sizeof *terms);
	if (result == NULL || predicate == NULL || terms == NULL ||
	    !dl_tuple_valid(result, tuple))
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	r = result->ws->relp[tuple.relation];
	*predicate = result->session->prog->preds[tuple.relation].name;
	dl_result_view(result, r->arity > 0 ? dl_rel_row(r, tuple.row) : NULL,
		       r->arity, terms);
	return MAELYS_DATALOG_STATUS_OK;
}

/* The records of the strata a predicate belongs to. */
static const struct dl_prov *
dl_result_prov(const maelys_datalog_result_t *res, uint32_t pid)
{
	return res->session->prog->preds[pid].runtime ? &res->ws->prov
						      : &res->session->pprov;
}

/* The why[] word of a tuple; DL_NONE when nothing was recorded. */
static uint32_t
dl_tuple_why(const maelys_datalog_result_t *res, maelys_datalog_tuple_t t)
{
	const struct dl_prov *pv = dl_result_prov(res, t.relation);

	if (pv->rels == NULL || t.row >= pv->rels[t.relation].nwhy)
		return DL_NONE;
	return pv->rels[t.relation].why[t.row];
}

/* Checks shared by derivation and premise. */
static maelys_datalog_status_t
dl_prov_check(const maelys_datalog_result_t *res, maelys_datalog_tuple_t t)
{
	if (res == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	if (!res->session->provenance)
		return MAELYS_DATALOG_STATUS_ROLE;
	if (!dl_tuple_valid(res, t))
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_result_derivation(const maelys_datalog_result_t *result,
				 maelys_datalog_tuple_t tuple,
				 maelys_datalog_derivation_t *out)
{
	maelys_datalog_status_t st;
	uint32_t why;

	if (out != NULL)
		memset(out, 0, sizeof *out);
	if (out == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	if ((st = dl_prov_check(result, tuple)) != MAELYS_DATALOG_STATUS_OK)
		return st;
	why = dl_tuple_why(result, tuple);
	if (why == DL_NONE) {
		out->origin = MAELYS_DATALOG_ORIGIN_UNKNOWN;
	} else if (why == DL_PROV_INPUT) {
		out->origin = MAELYS_DATALOG_ORIGIN_INPUT;
	} else if (why == DL_PROV_POLICY) {
		out->origin = MAELYS_DATALOG_ORIGIN_POLICY;
	} else {
		const struct dl_prov *pv =
		    dl_result_prov(result, tuple.relation);
		uint32_t rule = pv->pool[why];

		out->origin = MAELYS_DATALOG_ORIGIN_RULE;
		out->rule = rule;
		out->premise_count = result->session->prog->rules[rule].nbody;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_result_premise(const maelys_datalog_result_t *result,
			      maelys_datalog_tuple_t tuple, size_t literal,
			      maelys_datalog_premise_t *out)
{
	const struct dl_program *prog;
	const struct dl_rule *rule;
	const struct dl_clit *l;
	const uint32_t *rec;
	uint32_t regs[DL_VARS_MAX], vals[MAELYS_DATALOG_MAX_ARITY], why, i, j;
	bool bound[DL_VARS_MAX];
	struct dl_symview syms;
	maelys_datalog_status_t st;

	if (out != NULL)
		memset(out, 0, sizeof *out);
	if (out == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	if ((st = dl_prov_check(result, tuple)) != MAELYS_DATALOG_STATUS_OK)
		return st;
	why = dl_tuple_why(result, tuple);
	if (why == DL_NONE || why == DL_PROV_INPUT || why == DL_PROV_POLICY)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	prog = result->session->prog;
	rec = dl_result_prov(result, tuple.relation)->pool + why;
	rule = &prog->rules[rec[0]];
	if (literal >= rule->nbody)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	l = &rule->body[literal];
	if (l->kind == DL_LIT_ATOM && !l->negated) {
		/* its row is the record's word for this literal */
		for (i = 0, j = 0; i < literal; i++)
			if (rule->body[i].kind == DL_LIT_ATOM &&
			    !rule->body[i].negated)
				j++;
		out->kind = MAELYS_DATALOG_LITERAL_ATOM;
		out->tuple.relation = l->pred;
		out->tuple.row = rec[1 + j];
		return MAELYS_DATALOG_STATUS_OK;
	}
	syms = dl_result_syms(result);
	dl_prov_bind(rule, rec + 1, result->ws->relp, &syms, regs, bound);
	for (i = 0; i < l->nargs && i < MAELYS_DATALOG_MAX_ARITY; i++)
		vals[i] = l->args[i].kind == DL_CT_CONST  ? l->args[i].v
			  : l->args[i].kind == DL_CT_VAR ? regs[l->args[i].v]
							 : 0;
	/* an aggregate's result is not rebuilt (dl_prov_bind): shown as
	 * no value, term kind 0, never as a guess */
	for (i = 0; i < l->nargs && i < MAELYS_DATALOG_MAX_ARITY; i++)
		if (l->args[i].kind == DL_CT_VAR && !bound[l->args[i].v])
			vals[i] = DL_NONE;
	if (l->kind == DL_LIT_ATOM) {
		out->kind = MAELYS_DATALOG_LITERAL_NEGATED;
		out->predicate = prog->preds[l->pred].name;
		dl_result_view(result, vals, l->nargs, &out->terms);
		for (i = 0; i < l->nargs; i++)
			if (l->args[i].kind == DL_CT_ANON || vals[i] == DL_NONE)
				memset(&out->terms.terms[i], 0,
				       sizeof out->terms.terms[i]);
		return MAELYS_DATALOG_STATUS_OK;
	}
	out->kind = MAELYS_DATALOG_LITERAL_BUILTIN;
	dl_result_view(result, vals, 2, &out->terms);
	for (i = 0; i < 2; i++)
		if (vals[i] == DL_NONE)
			memset(&out->terms.terms[i], 0,
			       sizeof out->terms.terms[i]);
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_result_rule_fired(const maelys_datalog_result_t *result,
				 size_t rule, int *fired)
{
	const struct dl_program *prog;
	const struct dl_prov *pv;

	if (fired != NULL)
		*fired = 0;
	if (result == NULL || fired == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	if (!result->session->provenance)
		return MAELYS_DATALOG_STATUS_ROLE;
	prog = result->session->prog;
	if (rule >= prog->nrules)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	pv = dl_result_prov(result, prog->rules[rule].head_pred);
	*fired = pv->fired != NULL && pv->fired[rule] != 0;
	return MAELYS_DATALOG_STATUS_OK;
}
