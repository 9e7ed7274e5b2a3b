/* SPDX-License-Identifier: MIT */
/*
 * Bottom-up evaluation.  A plan runs as nested loops: dl_run executes one
 * operation and recurses into the next for each binding it produces, so the
 * recursion depth is the length of the plan (at most a body plus one).
 * Recursive strata iterate semi-naively until no relation of the stratum
 * grows; each iteration moves the [db, de) markers of its relations.
 * A relation with a subsumption is pruned between iterations, as Souffle
 * prunes it (dl_prune_step).
 * The plan interpreter (eval_run.h) is compiled twice: the ordinary path,
 * and the path of PROVENANCE sessions, which records first derivations
 * (dl_prov.h); -DDL_NO_PROVENANCE leaves the second out.
 */
#include "dl_eval.h"

#include "dl_arith.h"
#include "dl_choice.h"
#include "dl_functor.h"

#include "dl_plan.h"
#include "dl_prov.h"

static inline uint32_t
dl_term_value(const struct dl_eval *ev, const struct dl_cterm *t)
{
	return t->kind == DL_CT_CONST ? t->v : ev->regs[t->v];
}

static inline void
dl_range_bounds(const struct dl_rel *r, uint8_t range, uint32_t *lo,
		uint32_t *hi)
{
	switch ((enum dl_range)range) {
	case DL_RANGE_ALL:
		*lo = 0;
		*hi = r->count;
		return;
	case DL_RANGE_FULL:
		*lo = 0;
		*hi = r->de;
		return;
	case DL_RANGE_OLD:
		*lo = 0;
		*hi = r->db;
		return;
	case DL_RANGE_DELTA:
		*lo = r->db;
		*hi = r->de;
		return;
	}
	*lo = *hi = 0;
}

/* Applies the column actions of a SCAN/PROBE/LOOKUP to a row. */
static inline bool
dl_match_row(struct dl_eval *ev, const struct dl_op *op, const uint32_t *row)
{
	uint32_t i;

	for (i = 0; i < op->nout; i++) {
		const struct dl_out *o = &op->out[i];
		uint32_t v = row[o->col];

		switch ((enum dl_out_action)o->action) {
		case DL_OUT_BIND:
			ev->regs[o->v] = v;
			break;
		case DL_OUT_CHECK_VAR:
			if (ev->regs[o->v] != v)
				return false;
			break;
		case DL_OUT_CHECK_CONST:
			if (o->v != v)
				return false;
			break;
		}
	}
	return true;
}

maelys_datalog_status_t
dl_eval_insert_failed(struct dl_eval *ev, int rc, const struct dl_pred *p)
{
	if (rc == DL_REL_OVER_BUDGET)
		return dl_fail(ev->diag, MAELYS_DATALOG_STATUS_BUDGET_MEMORY,
			       "working memory over the budget of %zu bytes "
			       "while adding to '%s' "
			       "(MAELYS_DATALOG_BUDGET_MEMORY)",
			       ev->mb->limit, p->name);
	if (rc == DL_REL_TOO_BIG)
		return dl_fail(ev->diag, MAELYS_DATALOG_STATUS_LIMIT,
			       "relation '%s' would exceed %lu rows", p->name,
			       (unsigned long)DL_REL_ROWS_MAX);
	return dl_fail(ev->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
		       "out of memory while adding to '%s'", p->name);
}

/* Counts one join step; false once the budget is spent (then the caller
 * returns dl_steps_exceeded). */
static inline bool
dl_step(struct dl_eval *ev)
{
	if (ev->steps_left == 0)
		return false;
	ev->steps_left--;
	return true;
}

static maelys_datalog_status_t
dl_steps_exceeded(struct dl_eval *ev, const struct dl_op *op)
{
	return dl_fail_at(ev->diag, MAELYS_DATALOG_STATUS_BUDGET_STEPS,
			  ev->prog->source_name, op->pos,
			  "more than %llu join steps "
			  "(MAELYS_DATALOG_BUDGET_STEPS) evaluating '%s'",
			  (unsigned long long)ev->steps_max,
			  op->pred != DL_NONE ? ev->prog->preds[op->pred].name
					      : "a rule");
}

static maelys_datalog_status_t
dl_tuples_exceeded(struct dl_eval *ev, const struct dl_op *op)
{
	return dl_fail_at(ev->diag, MAELYS_DATALOG_STATUS_BUDGET_TUPLES,
			  ev->prog->source_name, op->pos,
			  "derived more than %llu tuples "
			  "(MAELYS_DATALOG_BUDGET_TUPLES) in the rule for '%s'",
			  (unsigned long long)ev->tuples_max,
			  ev->prog->preds[op->pred].name);
}

/* Whether a new tuple of pred goes into r: not when a choice-domain key
 * of it is taken (dl_choice.h), nor once a `.limitsize` relation is full
 * (Souffle stops inserting there, so the relation holds the first N
 * tuples derived). */
static inline bool
dl_insert_blocked(const struct dl_pred *p, const struct dl_rel *r,
		  const uint32_t *tuple)
{
	if (p->has_size_limit && r->count >= p->size_limit)
		return true;
	return p->nchoice > 0 && dl_choice_blocked(p, r, tuple);
}

/* Inserts the tuples a plan has emitted so far.  Each insert is a random
 * access into a large table; prefetching every slot of the batch first,
 * then every row a slot points at, lets those misses overlap instead of
 * following one another. */
static maelys_datalog_status_t
dl_flush(struct dl_eval *ev)
{
	struct dl_rel *r;
	const struct dl_op *op = ev->pending_op;
	uint32_t i, n = ev->npending, arity;

	if (n == 0)
		return MAELYS_DATALOG_STATUS_OK;
	ev->npending = 0;
	r = ev->rels[op->pred];
	arity = r->arity;
	for (i = 0; i < n; i++)
		dl_rel_prefetch_row(r, ev->pending_hash[i]);
	for (i = 0; i < n; i++) {
		int rc;

		if (dl_insert_blocked(&ev->prog->preds[op->pred], r,
				      &ev->pending[i * arity]))
			continue;
		rc = dl_rel_insert_hashed(r, &ev->pending[i * arity],
					  ev->pending_hash[i], ev->mb);
		if (rc == DL_REL_DUPLICATE)
			continue;
		if (rc < 0)
			return dl_eval_insert_failed(
			    ev, rc, &ev->prog->preds[op->pred]);
		if (++ev->tuples > ev->tuples_max)
			return dl_tuples_exceeded(ev, op);
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* Emitting queues the head tuple; the plan's relation reads never reach
 * the rows a plan derives (semi-naive ranges end at the iteration's start),
 * so inserting them a batch later changes nothing but the speed. */
static maelys_datalog_status_t
dl_emit(struct dl_eval *ev, const struct dl_op *op)
{
	const struct dl_rel *r = ev->rels[op->pred];
	uint32_t *t = &ev->pending[ev->npending * op->nkey], k, h;

	if (!dl_step(ev))
		return dl_steps_exceeded(ev, op);
	for (k = 0; k < op->nkey; k++)
		t[k] = dl_term_value(ev, &op->key[k]);
	h = dl_tuple_hash(t, op->nkey);
	dl_rel_prefetch_slot(r, h);
	ev->pending_hash[ev->npending++] = h;
	ev->pending_op = op;
	if (ev->npending == DL_EMIT_BATCH)
		return dl_flush(ev);
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_test_failed(struct dl_eval *ev, const struct dl_op *op,
	       const struct dl_test *t)
{
	return dl_fail_at(ev->diag, t->status, ev->prog->source_name, op->pos,
			  "%s", t->why);
}

/* The value of an arithmetic result: inline, or interned in the solve's
 * overlay.  Returns 0, 1 when it has no value here (a rule evaluated once
 * per session, over the policy's facts alone, has no overlay: there a
 * result outside the inline range that the policy does not write cannot
 * be held), or -1 for want of memory. */
static int
dl_expr_value(struct dl_eval *ev, int64_t r, dl_value *out)
{
	if (r >= DL_INLINE_INT_MIN && r <= DL_INLINE_INT_MAX) {
		*out = dl_value_make_inline_int(r);
		return 0;
	}
	if (dl_symview_intern_int(&ev->syms, r, out) == 0)
		return 0;
	return ev->syms.overlay == NULL ? 1 : -1;
}

static void
dl_key_tuple(const struct dl_eval *ev, const struct dl_op *op, uint32_t *tuple)
{
	uint32_t k;

	for (k = 0; k < op->nkey; k++)
		tuple[k] = dl_term_value(ev, &op->key[k]);
}

/* AGG_END: a binding of the aggregate's body folded into its aggregate.
 * A built-in or arithmetic error the body deferred is an error here: the
 * binding satisfied the whole body (as reaching the head is for a rule). */
static maelys_datalog_status_t
dl_agg_end(struct dl_eval *ev, const struct dl_op *op)
{
	struct dl_agg_acc *acc = &ev->agg_acc[op->agg];
	int64_t v = 0;

	if (ev->poisoned > acc->level)
		return dl_test_failed(ev, ev->poison_op, &ev->poison);
	if (op->nkey > 0) {
		dl_value x = dl_term_value(ev, &op->key[0]);

		if (dl_value_is_inline_int(x))
			v = dl_value_inline_int(x);
		else if (!dl_symview_value_int(&ev->syms, x, &v))
			return dl_fail_at(ev->diag, MAELYS_DATALOG_STATUS_TYPE,
					  ev->prog->source_name, op->pos,
					  "%s over a string (a number was "
					  "expected)",
					  dl_agg_name((enum dl_agg_op)acc->op));
	}
	dl_agg_fold(acc, v);
	return MAELYS_DATALOG_STATUS_OK;
}

/* The ordinary derive path. */
#define DL_PROV    0
#define DL_RUN(fn) dl_##fn##_fast
#include "eval_run.h"
#undef DL_RUN
#undef DL_PROV

#ifndef DL_NO_PROVENANCE
/*
 * Emitting in a PROVENANCE session: the rule's body held (rule_fired), and
 * a new tuple is inserted at once with the record of this, its first,
 * derivation.  Room for the record is reserved before the insert, so a
 * failure leaves the relation and its records matching.
 */
static maelys_datalog_status_t
dl_emit_prov(struct dl_eval *ev, const struct dl_op *op)
{
	struct dl_rel *r = ev->rels[op->pred];
	const struct dl_rule *rule = &ev->prog->rules[ev->rule];
	bool recorded = ev->recorded == NULL || ev->recorded[op->pred];
	uint32_t t[MAELYS_DATALOG_MAX_ARITY], k;
	int rc;

	if (!dl_step(ev))
		return dl_steps_exceeded(ev, op);
	for (k = 0; k < op->nkey; k++)
		t[k] = dl_term_value(ev, &op->key[k]);
	ev->prov->fired[ev->rule] = 1;
	if (dl_insert_blocked(&ev->prog->preds[op->pred], r, t))
		return MAELYS_DATALOG_STATUS_OK;
	if (recorded &&
	    (rc = dl_prov_reserve(ev->prov, op->pred, 1,
				  dl_prov_record_words(rule), ev->mb)) != 0)
		return dl_eval_insert_failed(ev, rc,
					     &ev->prog->preds[op->pred]);
	rc = dl_rel_insert(r, t, ev->mb);
	if (rc == DL_REL_DUPLICATE)
		return MAELYS_DATALOG_STATUS_OK;
	if (rc < 0)
		return dl_eval_insert_failed(ev, rc,
					     &ev->prog->preds[op->pred]);
	if (recorded)
		dl_prov_record(ev->prov, rule, ev->rule, op->pred,
			       ev->prov_rows);
	if (++ev->tuples > ev->tuples_max)
		return dl_tuples_exceeded(ev, op);
	return MAELYS_DATALOG_STATUS_OK;
}

/* The derive path of PROVENANCE sessions. */
#define DL_PROV    1
#define DL_RUN(fn) dl_##fn##_prov
#include "eval_run.h"
#undef DL_RUN
#undef DL_PROV
#endif

/* Runs rule `ri`'s plan on the session's derive path, chosen here, once per
 * plan run, never inside the loops. */
static maelys_datalog_status_t
dl_run_rule_plan(struct dl_eval *ev, uint32_t ri, const struct dl_plan *plan)
{
#ifndef DL_NO_PROVENANCE
	if (ev->prov != NULL) {
		ev->rule = ri;
		return dl_run_plan_prov(ev, plan);
	}
#else
	(void)ri;
#endif
	return dl_run_plan_fast(ev, plan);
}

static maelys_datalog_status_t
dl_insert_facts(struct dl_eval *ev, uint32_t pid)
{
	const struct dl_pred *p = &ev->prog->preds[pid];
	struct dl_rel *r = ev->rels[pid];
	size_t i;

	for (i = 0; i < p->nfacts; i++) {
		/* a fact of arity 0 has no values: facts is NULL, and even
		 * NULL + 0 is undefined in C */
		const dl_value *t = p->arity > 0 ? p->facts + i * p->arity
						 : NULL;
		int rc;

		if (dl_insert_blocked(p, r, t))
			continue;
		rc = dl_rel_insert(r, t, ev->mb);

		if (rc < 0)
			return dl_eval_insert_failed(ev, rc, p);
	}
#ifndef DL_NO_PROVENANCE
	/* facts come first in their relation: the rows so far are input
	 * facts (loaded before) or facts of the policy */
	if (ev->prov != NULL &&
	    (ev->recorded == NULL || ev->recorded[pid])) {
		int rc = dl_prov_fill(ev->prov, pid, r->count, DL_PROV_POLICY,
				      ev->mb);

		if (rc < 0)
			return dl_eval_insert_failed(ev, rc, p);
	}
#endif
	return MAELYS_DATALOG_STATUS_OK;
}

/* Whether rules of stratum `s` prune relation `pid` (dl_rule.prunes). */
static bool
dl_pruned(const struct dl_program *prog, const struct dl_stratum *s,
	  uint32_t pid)
{
	uint32_t i;

	for (i = 0; i < s->nprunes; i++)
		if (prog->rules[s->prunes[i]].body[0].pred == pid)
			return true;
	return false;
}

/* Whether pruning rules `a` and `b` come of one subsumption (its per
 * column rules share dl_rule.prunes). */
static bool
dl_same_subsumption(const struct dl_rule *a, const struct dl_rule *b)
{
	return a->prunes == b->prunes;
}

/*
 * Runs plans [first, last) of the rules of `s` that prune relation `pid`
 * (those of the subsumption of rule `of` only, unless it is NULL) into
 * its hidden relation a$dom, emptied first, then drops the tuples a$dom
 * holds from the relation.  *split is a row id of the relation; on
 * return, where the rows from it on start after the drop (dl_rel_drop).
 * Rebuilding the relation costs a join step per row, so pruning stays
 * under the steps budget.
 */
static maelys_datalog_status_t
dl_prune(struct dl_eval *ev, const struct dl_stratum *s, uint32_t pid,
	 const struct dl_rule *of, uint32_t first, uint32_t last,
	 uint32_t *split)
{
	const struct dl_program *prog = ev->prog;
	struct dl_rel *r = ev->rels[pid], *dead = NULL;
	maelys_datalog_status_t st;
	uint32_t i, k;
	int rc;

	for (i = 0; i < s->nprunes; i++) {
		const struct dl_rule *rule = &prog->rules[s->prunes[i]];

		if (rule->body[0].pred != pid ||
		    (of != NULL && !dl_same_subsumption(rule, of)))
			continue;
		if (dead == NULL) {
			dead = ev->rels[rule->head_pred];
			dl_rel_clear(dead, false, ev->mb);
		}
		for (k = first; k < last && k < rule->nplans; k++)
			if ((st = dl_run_rule_plan(ev, s->prunes[i],
						   &rule->plans[k])) !=
			    MAELYS_DATALOG_STATUS_OK)
				return st;
	}
	if (dead == NULL || dead->count == 0)
		return MAELYS_DATALOG_STATUS_OK;
	if (ev->steps_left < r->count)
		return dl_fail_at(ev->diag, MAELYS_DATALOG_STATUS_BUDGET_STEPS,
				  prog->source_name, prog->preds[pid].pos,
				  "more than %llu join steps "
				  "(MAELYS_DATALOG_BUDGET_STEPS) pruning '%s'",
				  (unsigned long long)ev->steps_max,
				  prog->preds[pid].name);
	ev->steps_left -= r->count;
	if ((rc = dl_rel_drop(r, dead, split, ev->mb)) < 0)
		return dl_eval_insert_failed(ev, rc, &prog->preds[pid]);
	dl_rel_clear(dead, false, ev->mb);
	return MAELYS_DATALOG_STATUS_OK;
}

/*
 * Souffle's subsumption inside a fixpoint, for relation `pid` once an
 * iteration has derived its new rows [de, count), the other relations of
 * the stratum not yet moved on (what they had before the iteration is
 * their [0, de), their delta [db, de)).  Souffle's steps, with the plans
 * of plan.c:
 *  - the new tuples that a tuple of the relation, old or new, dominates
 *    are dropped, by every subsumption at once (plans[0], the relation's
 *    markers set so that its delta is the new rows);
 *  - the new tuples left are the next delta; then, one subsumption after
 *    the other, the old tuples it finds dominated are dropped: by a tuple
 *    of that delta (plans[1]) or, where the body reads the recursion, by
 *    an old tuple with a literal of the body in its delta (plans[2...]).
 * Before the first iteration (`first`) every tuple is the delta: plans[0]
 * alone prunes the relation as a whole.
 */
static maelys_datalog_status_t
dl_prune_step(struct dl_eval *ev, const struct dl_stratum *s, uint32_t pid,
	      bool first)
{
	const struct dl_program *prog = ev->prog;
	struct dl_rel *r = ev->rels[pid];
	maelys_datalog_status_t st;
	uint32_t split, i, j;

	if (ev->prov != NULL)
		return dl_fail_at(ev->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  prog->source_name, prog->preds[pid].pos,
				  "'%s' is pruned by a subsumption inside its "
				  "recursion, which renumbers its rows: not "
				  "supported in a PROVENANCE session",
				  prog->preds[pid].name);
	r->db = first ? 0 : r->de;
	r->de = r->count;
	split = r->db;
	if ((st = dl_prune(ev, s, pid, NULL, 0, 1, &split)) !=
	    MAELYS_DATALOG_STATUS_OK)
		return st;
	r->db = split;
	r->de = r->count;
	if (first)
		return MAELYS_DATALOG_STATUS_OK;
	for (i = 0; i < s->nprunes; i++) {
		const struct dl_rule *rule = &prog->rules[s->prunes[i]];

		if (rule->body[0].pred != pid)
			continue;
		/* each subsumption once: at its first rule */
		for (j = 0; j < i; j++)
			if (prog->rules[s->prunes[j]].body[0].pred == pid &&
			    dl_same_subsumption(&prog->rules[s->prunes[j]],
						rule))
				break;
		if (j < i)
			continue;
		if ((st = dl_prune(ev, s, pid, rule, 1, UINT32_MAX,
				   &split)) != MAELYS_DATALOG_STATUS_OK)
			return st;
		r->db = split;
		r->de = r->count;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_eval_stratum(struct dl_eval *ev, const struct dl_stratum *s)
{
	const struct dl_program *prog = ev->prog;
	maelys_datalog_status_t st;
	uint32_t i, k;

	for (i = 0; i < s->npreds; i++)
		if ((st = dl_insert_facts(ev, s->preds[i])) !=
		    MAELYS_DATALOG_STATUS_OK)
			return st;
	for (i = 0; i < s->nrules; i++) {
		const struct dl_rule *r = &prog->rules[s->rules[i]];

		if (!r->recursive &&
		    (st = dl_run_rule_plan(ev, s->rules[i], &r->plans[0])) !=
			MAELYS_DATALOG_STATUS_OK)
			return st;
	}
	if (!s->recursive)
		return MAELYS_DATALOG_STATUS_OK;
	for (i = 0; i < s->npreds; i++) {
		struct dl_rel *r = ev->rels[s->preds[i]];

		r->db = 0;
		r->de = r->count;
	}
	/* once the others' markers are set: a subsumption may read them */
	for (i = 0; i < s->npreds; i++)
		if (dl_pruned(prog, s, s->preds[i]) &&
		    (st = dl_prune_step(ev, s, s->preds[i], true)) !=
			MAELYS_DATALOG_STATUS_OK)
			return st;
	for (;;) {
		bool grew = false;

		for (i = 0; i < s->npreds; i++) {
			const struct dl_rel *r = ev->rels[s->preds[i]];

			if (r->de > r->db)
				grew = true;
		}
		if (!grew)
			break;
		if (++ev->iterations > ev->iterations_max)
			return dl_fail_at(
			    ev->diag, MAELYS_DATALOG_STATUS_BUDGET_ITERATIONS,
			    prog->source_name, prog->preds[s->preds[0]].pos,
			    "more than %llu fixpoint iterations "
			    "(MAELYS_DATALOG_BUDGET_ITERATIONS) evaluating "
			    "'%s'",
			    (unsigned long long)ev->iterations_max,
			    prog->preds[s->preds[0]].name);
		for (i = 0; i < s->nrules; i++) {
			const struct dl_rule *r = &prog->rules[s->rules[i]];

			if (!r->recursive)
				continue;
			for (k = 0; k < r->nplans; k++)
				if ((st = dl_run_rule_plan(ev, s->rules[i],
							   &r->plans[k])) !=
				    MAELYS_DATALOG_STATUS_OK)
					return st;
		}
		/* pruning first, while the other relations still show what
		 * they had before the iteration */
		for (i = 0; i < s->npreds; i++)
			if (dl_pruned(prog, s, s->preds[i]) &&
			    (st = dl_prune_step(ev, s, s->preds[i], false)) !=
				MAELYS_DATALOG_STATUS_OK)
				return st;
		for (i = 0; i < s->npreds; i++) {
			struct dl_rel *r = ev->rels[s->preds[i]];

			if (dl_pruned(prog, s, s->preds[i]))
				continue;
			r->db = r->de;
			r->de = r->count;
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}

maelys_datalog_status_t
dl_eval_strata(struct dl_eval *ev, bool runtime)
{
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_OK;
	size_t i;

	for (i = 0; i < ev->prog->nstrata; i++) {
		const struct dl_stratum *s = &ev->prog->strata[i];

		if (s->runtime != runtime)
			continue;
		if ((st = dl_eval_stratum(ev, s)) != MAELYS_DATALOG_STATUS_OK)
			break;
	}
	/* computed patterns name values of this evaluation's overlay */
	dl_recache_free(ev->recache);
	ev->recache = NULL;
	return st;
}
