/* SPDX-License-Identifier: MIT */
/*
 * Sessions: budgets, the one-time materialisation of the policy-only strata,
 * the pool of workspaces, and solve_edb (input facts -> runtime strata ->
 * result).  A solve in steady state allocates nothing: its workspace comes
 * back from the pool with its relations emptied but their memory kept.
 */
#include "dl_api.h"

#include "dl_diag.h"
#include "dl_limits.h"
#include "dl_record.h"

#include <string.h>

static void dl_session_destroy(maelys_datalog_session_t *s);

#ifdef DL_NO_PROVENANCE
#define DL_SESSION_FLAGS 0u
#else
#define DL_SESSION_FLAGS ((unsigned)MAELYS_DATALOG_SESSION_PROVENANCE)
#endif

/*
 * A PROVENANCE session finds the row of any tuple (premises, result_find):
 * a relation of one column keeps values, not rows, in its set
 * (dl_relation.h), so it gets an index on all its columns, unless a plan
 * already probes one.  Other sessions' relations are what their plans need.
 */
static int
dl_session_find_indexes(maelys_datalog_session_t *s)
{
	const struct dl_program *prog = s->prog;
	size_t i;
	uint32_t k;

	s->find_index = dl_calloc(prog->npreds > 0 ? prog->npreds : 1,
				  sizeof *s->find_index);
	if (s->find_index == NULL)
		return -1;
	for (i = 0; i < prog->npreds; i++) {
		const struct dl_pred *p = &prog->preds[i];
		uint32_t all = dl_cols_all(p->arity);

		s->find_index[i] = DL_NONE;
		if (p->arity != 1)
			continue;
		for (k = 0; k < p->nindexes; k++)
			if (p->index_masks[k] == all)
				break;
		s->find_index[i] = k; /* == nindexes: one more index */
	}
	return 0;
}

/* Initialises the relation of predicate `pid` for this session. */
static int
dl_session_rel_init(const maelys_datalog_session_t *s, struct dl_rel *r,
		    size_t pid)
{
	const struct dl_pred *p = &s->prog->preds[pid];
	uint32_t masks[DL_INDEXES_MAX + 1];

	if (s->find_index == NULL || s->find_index[pid] != p->nindexes)
		return dl_rel_init(r, p->arity, p->index_masks, p->nindexes);
	memcpy(masks, p->index_masks, p->nindexes * sizeof *masks);
	masks[p->nindexes] = dl_cols_all(p->arity);
	return dl_rel_init(r, p->arity, masks, p->nindexes + 1);
}

/* Sets an evaluation up to record into `pv` (a PROVENANCE session). */
static void
dl_eval_record(const maelys_datalog_session_t *s, struct dl_eval *ev,
	       struct dl_prov *pv)
{
	if (!s->provenance)
		return;
	ev->prov = pv;
	ev->recorded = s->recorded;
	ev->find_index = s->find_index;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_session_create(maelys_datalog_policy_t *policy, unsigned flags,
			      maelys_datalog_session_t **out)
{
	maelys_datalog_session_t *s;
	size_t i;

	if (out == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	*out = NULL;
	if (policy == NULL || (flags & ~DL_SESSION_FLAGS) != 0)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	s = dl_calloc(1, sizeof *s);
	if (s == NULL)
		return MAELYS_DATALOG_STATUS_NO_MEMORY;
	s->prog = policy->prog;
	s->provenance = (flags & MAELYS_DATALOG_SESSION_PROVENANCE) != 0;
	if (s->provenance && dl_session_find_indexes(s) != 0) {
		dl_free(s);
		return MAELYS_DATALOG_STATUS_NO_MEMORY;
	}
	if (dl_matcher_init(&s->matcher) != 0) {
		dl_free(s->find_index);
		dl_free(s);
		return MAELYS_DATALOG_STATUS_NO_MEMORY;
	}
	atomic_fetch_add(&policy->refs, 1);
	s->policy = policy;
	s->prog = policy->prog;
	for (i = 0; i < DL_NBUDGETS; i++)
		s->budgets[i] =
		    dl_budget_default_of((maelys_datalog_budget_t)i);
	*out = s;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_session_set_budget(maelys_datalog_session_t *session,
				  maelys_datalog_budget_t budget,
				  uint64_t value)
{
	if (session == NULL || !dl_budget_valid(budget) || value == 0)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	if (value > dl_budget_max_of(budget))
		return MAELYS_DATALOG_STATUS_LIMIT;
	session->budgets[budget] = value;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_session_get_budget(const maelys_datalog_session_t *session,
				  maelys_datalog_budget_t budget,
				  uint64_t *value)
{
	if (value != NULL)
		*value = 0;
	if (session == NULL || value == NULL || !dl_budget_valid(budget))
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	*value = session->budgets[budget];
	return MAELYS_DATALOG_STATUS_OK;
}

static size_t
dl_budget_size(const maelys_datalog_session_t *s, maelys_datalog_budget_t b)
{
	uint64_t v = s->budgets[b];

	return v > SIZE_MAX ? SIZE_MAX : (size_t)v;
}

static void
dl_eval_setup(maelys_datalog_session_t *s, struct dl_eval *ev,
	      struct dl_rel **rels, const struct dl_symview *syms,
	      struct dl_membudget *mb, uint32_t *regs,
	      maelys_datalog_diagnostic_t *diag)
{
	memset(ev, 0, sizeof *ev);
	ev->prog = s->prog;
	ev->rels = rels;
	ev->syms = *syms;
	ev->mb = mb;
	ev->matcher = &s->matcher;
	ev->regs = regs;
	ev->tuples_max = s->budgets[MAELYS_DATALOG_BUDGET_TUPLES];
	ev->iterations_max = s->budgets[MAELYS_DATALOG_BUDGET_ITERATIONS];
	ev->steps_max = s->budgets[MAELYS_DATALOG_BUDGET_STEPS];
	ev->steps_left = ev->steps_max;
	ev->diag = diag;
	mb->limit = dl_budget_size(s, MAELYS_DATALOG_BUDGET_MEMORY);
	dl_matcher_set_limits(
	    &s->matcher, s->budgets[MAELYS_DATALOG_BUDGET_REGEX_STEPS],
	    s->budgets[MAELYS_DATALOG_BUDGET_REGEX_DEPTH],
	    s->budgets[MAELYS_DATALOG_BUDGET_MEMORY] / 1024,
	    s->budgets[MAELYS_DATALOG_BUDGET_REGEX_DEPTH] <
		dl_budget_default_of(MAELYS_DATALOG_BUDGET_REGEX_DEPTH));
}

static void
dl_prels_free(maelys_datalog_session_t *s)
{
	size_t i;

	if (s->prels == NULL)
		return;
	for (i = 0; i < s->prog->npreds; i++)
		dl_rel_free(&s->prels[i], &s->pmb);
	dl_free(s->prels);
	s->prels = NULL;
	dl_prov_free(&s->pprov, s->prog->npreds, &s->pmb);
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_session_prepare(maelys_datalog_session_t *s,
			       maelys_datalog_diagnostic_t *diag)
{
	const struct dl_program *prog;
	struct dl_rel **relp = NULL;
	uint32_t *regs = NULL;
	struct dl_symview syms;
	struct dl_eval ev;
	maelys_datalog_status_t st;
	size_t i;

	if (s == NULL)
		return dl_fail(diag, MAELYS_DATALOG_STATUS_INVALID_ARGUMENT,
			       "session_prepare: session is NULL");
	if (s->prepared)
		return MAELYS_DATALOG_STATUS_OK;
	prog = s->prog;
	s->prels = dl_calloc(prog->npreds, sizeof *s->prels);
	relp = dl_calloc(prog->npreds, sizeof *relp);
	regs = dl_calloc((size_t)prog->max_vars + 1, sizeof *regs);
	if (s->prels == NULL || relp == NULL || regs == NULL)
		goto nomem;
	for (i = 0; i < prog->npreds; i++) {
		const struct dl_pred *p = &prog->preds[i];

		relp[i] = &s->prels[i];
		if (!p->runtime && dl_session_rel_init(s, &s->prels[i], i) != 0)
			goto nomem;
	}
	if (s->provenance && dl_prov_init(&s->pprov, prog) != 0)
		goto nomem;
	syms.policy = &prog->symbols;
	syms.overlay = NULL; /* the policy's strata only meet its constants */
	dl_eval_setup(s, &ev, relp, &syms, &s->pmb, regs, diag);
	dl_eval_record(s, &ev, &s->pprov);
	st = dl_eval_strata(&ev, false);
	dl_free(relp);
	dl_free(regs);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		dl_prels_free(s);
		return st;
	}
	s->prepared = true;
	return MAELYS_DATALOG_STATUS_OK;
nomem:
	dl_free(relp);
	dl_free(regs);
	dl_prels_free(s);
	return dl_fail(diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
		       "out of memory preparing the session");
}

static void
dl_workspace_free(maelys_datalog_session_t *s, struct dl_workspace *ws)
{
	size_t i;

	if (ws == NULL)
		return;
	if (ws->rels != NULL)
		for (i = 0; i < s->prog->npreds; i++)
			dl_rel_free(&ws->rels[i], &ws->mb);
	dl_free(ws->rels);
	dl_free(ws->relp);
	dl_free(ws->regs);
	dl_symtab_free(&ws->overlay);
	dl_prov_free(&ws->prov, s->prog->npreds, &ws->mb);
	dl_free(ws);
}

static struct dl_workspace *
dl_workspace_new(maelys_datalog_session_t *s)
{
	const struct dl_program *prog = s->prog;
	struct dl_workspace *ws = dl_calloc(1, sizeof *ws);
	size_t i;

	if (ws == NULL)
		return NULL;
	dl_symtab_init(&ws->overlay, (uint32_t)prog->symbols.count);
	ws->rels = dl_calloc(prog->npreds, sizeof *ws->rels);
	ws->relp = dl_calloc(prog->npreds, sizeof *ws->relp);
	ws->regs = dl_calloc((size_t)prog->max_vars + 1, sizeof *ws->regs);
	if (ws->rels == NULL || ws->relp == NULL || ws->regs == NULL)
		goto fail;
	for (i = 0; i < prog->npreds; i++) {
		const struct dl_pred *p = &prog->preds[i];

		if (!p->runtime) {
			ws->relp[i] = &s->prels[i];
			continue;
		}
		ws->relp[i] = &ws->rels[i];
		if (dl_session_rel_init(s, &ws->rels[i], i) != 0)
			goto fail;
	}
	if (s->provenance && dl_prov_init(&ws->prov, prog) != 0)
		goto fail;
	ws->result.session = s;
	ws->result.ws = ws;
	return ws;
fail:
	dl_workspace_free(s, ws);
	return NULL;
}

/* Empties a workspace for the next solve, returning memory a large solve
 * took so that a session's footprint does not stay at its high-water mark. */
static void
dl_workspace_reset(maelys_datalog_session_t *s, struct dl_workspace *ws)
{
	size_t i;

	if (!ws->dirty)
		return;
	for (i = 0; i < s->prog->npreds; i++)
		if (s->prog->preds[i].runtime)
			dl_rel_clear(&ws->rels[i], true, &ws->mb);
	dl_symtab_reset(&ws->overlay);
	dl_prov_reset(&ws->prov, s->prog->npreds, s->prog->nrules, &ws->mb);
	ws->dirty = false;
}

static void
dl_workspace_release(maelys_datalog_session_t *s, struct dl_workspace *ws)
{
	dl_workspace_reset(s, ws);
	ws->next_free = s->pool;
	s->pool = ws;
}

static void
dl_session_destroy(maelys_datalog_session_t *s)
{
	struct dl_workspace *ws, *next;

	for (ws = s->pool; ws != NULL; ws = next) {
		next = ws->next_free;
		dl_workspace_free(s, ws);
	}
	dl_prels_free(s);
	dl_matcher_free(&s->matcher);
	dl_free(s->recorded);
	dl_free(s->find_index);
	(void)maelys_datalog_policy_free(s->policy);
	dl_free(s);
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_session_free(maelys_datalog_session_t *session)
{
	if (session == NULL)
		return MAELYS_DATALOG_STATUS_OK;
	if (session->live_results > 0) {
		session->released = true; /* the last result_free destroys */
		return MAELYS_DATALOG_STATUS_OK;
	}
	dl_session_destroy(session);
	return MAELYS_DATALOG_STATUS_OK;
}

/* Adds the input facts to the workspace's relations. */
static maelys_datalog_status_t
dl_load_edb(maelys_datalog_session_t *s, struct dl_workspace *ws,
	    const maelys_datalog_input_edb_t *edb, struct dl_eval *ev,
	    maelys_datalog_diagnostic_t *diag)
{
	const struct dl_program *prog = s->prog;
	struct dl_symview syms = {&prog->symbols, &ws->overlay};
	uint32_t pid = DL_NONE, tuple[MAELYS_DATALOG_MAX_ARITY];
	const char *last_name = NULL;
	uint32_t last_len = 0;
	size_t i, k;

	if (edb->nfacts > s->budgets[MAELYS_DATALOG_BUDGET_FACTS])
		return dl_fail(diag, MAELYS_DATALOG_STATUS_BUDGET_FACTS,
			       "%zu input facts, more than the budget of %llu "
			       "(MAELYS_DATALOG_BUDGET_FACTS)",
			       edb->nfacts,
			       (unsigned long long)
				   s->budgets[MAELYS_DATALOG_BUDGET_FACTS]);
	for (i = 0; i < edb->nfacts; i++) {
		const struct dl_edb_fact *f = &edb->facts[i];
		const char *name = edb->bytes + f->name_off;
		const struct dl_pred *p;
		int rc;

		/* consecutive facts usually share their predicate */
		if (last_name == NULL || f->name_len != last_len ||
		    memcmp(name, last_name, f->name_len) != 0) {
			pid = dl_program_find_pred(prog, name, f->name_len);
			if (pid == DL_NONE)
				return dl_fail(diag,
					       MAELYS_DATALOG_STATUS_UNDECLARED,
					       "input fact for undeclared "
					       "predicate '%s/%u'",
					       name, f->nargs);
			last_name = name;
			last_len = f->name_len;
		}
		p = &prog->preds[pid];
		if (p->arity != f->nargs)
			return dl_fail(diag, MAELYS_DATALOG_STATUS_ARITY,
				       "input fact '%s' has %u columns; the "
				       "predicate has %u",
				       p->name, f->nargs, p->arity);
		if ((p->role &
		     (MAELYS_DATALOG_PREDICATE_EDB | DL_ROLE_INPUT)) == 0)
			return dl_fail(diag, MAELYS_DATALOG_STATUS_ROLE,
				       "input fact for '%s', which is not an "
				       "EDB predicate: input may only supply "
				       "EDB facts",
				       p->name);
		for (k = 0; k < f->nargs; k++) {
			const struct dl_edb_arg *a =
			    &edb->args[f->first_arg + k];

			if (p->rtypes[k] != DL_NONE &&
			    a->kind != MAELYS_DATALOG_TERM_SYMBOL)
				return dl_fail(diag, MAELYS_DATALOG_STATUS_TYPE,
					       "input fact '%s': column %zu "
					       "holds a record, given as its "
					       "text, not a number",
					       p->name, k + 1);
			if (p->rtypes[k] != DL_NONE) {
				/* a record column's text: read by its type */
				maelys_datalog_status_t st = dl_record_read(
				    prog, &syms, p->rtypes[k],
				    edb->bytes + a->off, a->len, &tuple[k],
				    diag);

				if (st != MAELYS_DATALOG_STATUS_OK)
					return st;
				continue;
			}
			rc = a->kind == MAELYS_DATALOG_TERM_INTEGER
				 ? dl_symview_intern_int(&syms, a->integer,
							 &tuple[k])
				 : dl_symview_intern_string(&syms,
							    edb->bytes + a->off,
							    a->len, &tuple[k]);
			if (rc != 0)
				return dl_fail(diag,
					       MAELYS_DATALOG_STATUS_NO_MEMORY,
					       "out of memory interning input");
		}
		rc = dl_rel_insert(ws->relp[pid], tuple, &ws->mb);
		if (rc < 0)
			return dl_eval_insert_failed(ev, rc, p);
	}
#ifndef DL_NO_PROVENANCE
	/* every row so far of a runtime relation is an input fact */
	if (ev->prov != NULL) {
		for (i = 0; i < prog->npreds; i++) {
			int rc;

			if (!prog->preds[i].runtime ||
			    (s->recorded != NULL && !s->recorded[i]))
				continue;
			rc = dl_prov_fill(ev->prov, (uint32_t)i,
					  ws->relp[i]->count, DL_PROV_INPUT,
					  &ws->mb);
			if (rc < 0)
				return dl_eval_insert_failed(ev, rc,
							     &prog->preds[i]);
		}
	}
#endif
	if (dl_symtab_bytes(&ws->overlay) >
	    ws->mb.limit -
		(ws->mb.used < ws->mb.limit ? ws->mb.used : ws->mb.limit))
		return dl_fail(diag, MAELYS_DATALOG_STATUS_BUDGET_MEMORY,
			       "input strings take more than the working "
			       "memory budget of %zu bytes "
			       "(MAELYS_DATALOG_BUDGET_MEMORY)",
			       ws->mb.limit);
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_session_solve_edb(maelys_datalog_session_t *session,
				 const maelys_datalog_input_edb_t *edb,
				 maelys_datalog_result_t **out,
				 maelys_datalog_diagnostic_t *diag)
{
	struct dl_workspace *ws;
	struct dl_symview syms;
	struct dl_eval ev;
	maelys_datalog_status_t st;

	if (out == NULL)
		return dl_fail(diag, MAELYS_DATALOG_STATUS_INVALID_ARGUMENT,
			       "solve_edb: out is NULL");
	*out = NULL;
	if (session == NULL || edb == NULL)
		return dl_fail(diag, MAELYS_DATALOG_STATUS_INVALID_ARGUMENT,
			       "solve_edb: %s is NULL",
			       session == NULL ? "session" : "edb");
	if (session->released)
		return dl_fail(diag, MAELYS_DATALOG_STATUS_INVALID_ARGUMENT,
			       "solve_edb: the session was freed");
	if (!session->prepared &&
	    (st = maelys_datalog_session_prepare(session, diag)) !=
		MAELYS_DATALOG_STATUS_OK)
		return st;
	ws = session->pool;
	if (ws != NULL) {
		session->pool = ws->next_free;
	} else {
		ws = dl_workspace_new(session);
		if (ws == NULL)
			return dl_fail(diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
				       "out of memory starting a solve");
	}
	ws->dirty = true;
	syms.policy = &session->prog->symbols;
	syms.overlay = &ws->overlay;
	dl_eval_setup(session, &ev, ws->relp, &syms, &ws->mb, ws->regs, diag);
	dl_eval_record(session, &ev, &ws->prov);
	st = dl_load_edb(session, ws, edb, &ev, diag);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_eval_strata(&ev, true);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		dl_workspace_release(session, ws);
		return st;
	}
	session->live_results++;
	*out = &ws->result;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_result_free(maelys_datalog_result_t *result)
{
	maelys_datalog_session_t *s;

	if (result == NULL)
		return MAELYS_DATALOG_STATUS_OK;
	s = result->session;
	dl_workspace_release(s, result->ws);
	s->live_results--;
	if (s->released && s->live_results == 0)
		dl_session_destroy(s);
	return MAELYS_DATALOG_STATUS_OK;
}
