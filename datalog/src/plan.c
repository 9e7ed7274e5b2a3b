/* SPDX-License-Identifier: MIT */
/*
 * The planner: each rule becomes one join plan, or, when it is recursive,
 * one plan per positive literal of its own stratum (semi-naive evaluation:
 * that literal reads only the last iteration's new tuples, the recursive
 * literals before it the older ones, those after it everything so far).
 *
 * Order: the delta literal first; then, repeatedly, every filter whose
 * variables are bound (negations, comparisons, built-ins, X = t bindings),
 * and the positive literal with the most bound columns (ties: the earlier
 * one).  A literal with bound columns is probed through a hash index on
 * exactly those columns, registered here on its predicate so that relations
 * maintain it; all columns bound is a set lookup; none is a scan.
 */
#include "dl_plan.h"

#include <string.h>

struct dl_planner {
	struct dl_program *prog;
	const struct dl_rule *rule;
	maelys_datalog_diagnostic_t *diag;
	bool bound[DL_VARS_MAX];
	bool placed[DL_BODY_MAX];
	bool xplaced[DL_EXPRS_MAX];
	bool rplaced[DL_RECS_MAX];
	struct dl_op *ops;
	uint32_t nops;
	struct dl_plan *plan;
	/* the literals being ordered: the rule's body, or an aggregate's
	 * (then scope is the aggregate, else DL_NONE) */
	const struct dl_clit *lits;
	uint32_t nlits;
	uint32_t scope;
	bool aplaced[DL_AGGS_MAX];
};

static maelys_datalog_status_t
dl_plan_index(struct dl_planner *pl, uint32_t pred, uint32_t mask,
	      struct dl_pos pos, uint32_t *out)
{
	struct dl_pred *p = &pl->prog->preds[pred];
	uint32_t i;

	for (i = 0; i < p->nindexes; i++) {
		if (p->index_masks[i] == mask) {
			*out = i;
			return MAELYS_DATALOG_STATUS_OK;
		}
	}
	if (p->nindexes == DL_INDEXES_MAX)
		return dl_fail_at(pl->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  pl->prog->source_name, pos,
				  "'%s' would need more than %d hash indexes",
				  p->name, DL_INDEXES_MAX);
	p->index_masks[p->nindexes] = mask;
	*out = p->nindexes++;
	return MAELYS_DATALOG_STATUS_OK;
}

static bool
dl_term_bound(const struct dl_planner *pl, const struct dl_cterm *t)
{
	return t->kind == DL_CT_CONST ||
	       (t->kind == DL_CT_VAR && pl->bound[t->v]);
}

static struct dl_op *
dl_plan_new_op(struct dl_planner *pl, enum dl_op_kind kind,
	       const struct dl_clit *l)
{
	struct dl_op *op = &pl->ops[pl->nops++];

	memset(op, 0, sizeof *op);
	op->kind = (uint8_t)kind;
	op->pred = DL_NONE;
	op->index = DL_NONE;
	op->lit = DL_OP_NO_LIT;
	if (l != NULL) {
		op->pos = l->pos;
		/* provenance notes rows by literal of the rule's own body */
		if (pl->scope == DL_NONE)
			op->lit = (uint8_t)(l - pl->rule->body);
	}
	return op;
}

/* A positive atom: SCAN, PROBE or LOOKUP; binds its variables. */
static maelys_datalog_status_t
dl_plan_atom(struct dl_planner *pl, uint32_t i, enum dl_range range)
{
	const struct dl_clit *l = &pl->lits[i];
	bool seen[DL_VARS_MAX];
	struct dl_op *op;
	uint32_t mask = 0, all, k;

	all = dl_cols_all(l->nargs);
	/* the delta literal is scanned: its rows are a range, not a key */
	if (range != DL_RANGE_DELTA) {
		for (k = 0; k < l->nargs; k++)
			if (dl_term_bound(pl, &l->args[k]))
				mask |= UINT32_C(1) << k;
	}
	/* all columns bound is a set lookup - but the set of a relation of
	 * one column holds values, not rows (dl_relation.h), so
	 * where the rows visible matter (own stratum, semi-naive ranges)
	 * it is a probe of an index on every column */
	op = dl_plan_new_op(pl,
			    mask == 0 ? DL_OP_SCAN
			    : mask == all &&
				    (range == DL_RANGE_ALL || l->nargs > 1)
				? DL_OP_LOOKUP
				: DL_OP_PROBE,
			    l);
	op->pred = l->pred;
	op->range = (uint8_t)range;
	if (op->kind == DL_OP_PROBE) {
		maelys_datalog_status_t st =
		    dl_plan_index(pl, l->pred, mask, l->pos, &op->index);

		if (st != MAELYS_DATALOG_STATUS_OK)
			return st;
	}
	memset(seen, 0, sizeof seen);
	for (k = 0; k < l->nargs; k++) {
		const struct dl_cterm *t = &l->args[k];
		struct dl_out *o;

		if ((mask >> k) & 1u) {
			op->key[op->nkey++] = *t;
			continue;
		}
		if (t->kind == DL_CT_ANON)
			continue;
		o = &op->out[op->nout++];
		o->col = (uint8_t)k;
		o->v = t->v;
		if (t->kind == DL_CT_CONST)
			o->action = DL_OUT_CHECK_CONST;
		else if (pl->bound[t->v] || seen[t->v])
			o->action = DL_OUT_CHECK_VAR;
		else
			o->action = DL_OUT_BIND;
		if (t->kind == DL_CT_VAR)
			seen[t->v] = true;
	}
	for (k = 0; k < l->nargs; k++)
		if (l->args[k].kind == DL_CT_VAR)
			pl->bound[l->args[k].v] = true;
	pl->placed[i] = true;
	/* an aggregate's body may be empty: count is then 0 */
	if (pl->scope == DL_NONE && pl->plan->nneed < DL_BODY_MAX) {
		pl->plan->need_pred[pl->plan->nneed] = l->pred;
		pl->plan->need_range[pl->plan->nneed] = (uint8_t)range;
		pl->plan->nneed++;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* A negated atom whose variables are bound. */
static maelys_datalog_status_t
dl_plan_absent(struct dl_planner *pl, uint32_t i)
{
	const struct dl_clit *l = &pl->lits[i];
	struct dl_op *op;
	uint32_t mask = 0, all, k;

	all = dl_cols_all(l->nargs);
	for (k = 0; k < l->nargs; k++)
		if (l->args[k].kind != DL_CT_ANON)
			mask |= UINT32_C(1) << k;
	op = dl_plan_new_op(pl,
			    mask == all ? DL_OP_ABSENT
			    : mask == 0 ? DL_OP_ABSENT_ANY
					: DL_OP_ABSENT_PROBE,
			    l);
	op->pred = l->pred;
	op->range = DL_RANGE_ALL;
	if (op->kind == DL_OP_ABSENT_PROBE) {
		maelys_datalog_status_t st =
		    dl_plan_index(pl, l->pred, mask, l->pos, &op->index);

		if (st != MAELYS_DATALOG_STATUS_OK)
			return st;
	}
	for (k = 0; k < l->nargs; k++)
		if ((mask >> k) & 1u)
			op->key[op->nkey++] = l->args[k];
	pl->placed[i] = true;
	return MAELYS_DATALOG_STATUS_OK;
}

/* A record term as soon as it can be built (every field bound) or taken
 * apart (its variable bound); building is preferred, as it binds nothing
 * it did not have. */
static void
dl_plan_records(struct dl_planner *pl, bool *progress)
{
	const struct dl_rule *r = pl->rule;
	uint32_t i, k;

	for (i = 0; i < r->nrecs; i++) {
		const struct dl_crec *x = &r->recs[i];
		struct dl_op *op;
		bool all = true;

		if (pl->rplaced[i])
			continue;
		for (k = 0; k < x->nargs; k++)
			if (!dl_term_bound(pl, &x->args[k]))
				all = false;
		if (!all && !pl->bound[x->target])
			continue;
		op = dl_plan_new_op(pl, DL_OP_RECORD, NULL);
		op->pos = x->pos;
		op->rec = x;
		op->var = x->target;
		op->unpack = !all;
		op->check = pl->bound[x->target];
		for (k = 0; op->unpack && k < x->nargs; k++) {
			if (x->args[k].kind != DL_CT_VAR ||
			    pl->bound[x->args[k].v])
				continue;
			op->bindmask |= UINT64_C(1) << k;
			pl->bound[x->args[k].v] = true;
		}
		pl->bound[x->target] = true;
		pl->rplaced[i] = true;
		*progress = true;
	}
}

/* Whether every literal and every other term but the impure ones
 * (autoinc) is placed: an impure term waits for them, so that each
 * binding reaching the head draws a value of its own. */
static bool
dl_plan_all_placed(const struct dl_planner *pl, uint32_t self)
{
	uint32_t i, k, target = pl->rule->exprs[self].target;

	for (i = 0; i < pl->rule->nbody; i++) {
		const struct dl_clit *l = &pl->rule->body[i];
		bool reads = false;

		/* a literal reading the term's value (X = autoinc()) comes
		 * after it */
		for (k = 0; k < l->nargs; k++)
			if (l->args[k].kind == DL_CT_VAR &&
			    l->args[k].v == target)
				reads = true;
		if (!pl->placed[i] && !reads)
			return false;
	}
	for (i = 0; i < pl->rule->nexprs; i++)
		if (i != self && !pl->xplaced[i] && !pl->rule->exprs[i].impure)
			return false;
	return true;
}

static maelys_datalog_status_t dl_plan_aggs(struct dl_planner *pl,
					    bool *progress);

/* A float equality X = 0.0 binds X to one of the two zeros' bits; while a
 * positive atom still to be placed would bind X, it waits for it and is
 * then a comparison (-0.0 = 0.0 holds, as in Souffle). */
static bool
dl_plan_float_wait(const struct dl_planner *pl, const struct dl_cterm *dst,
		   uint8_t kind)
{
	const struct dl_rule *r = pl->rule;
	uint32_t i, k;

	if (kind != MAELYS_DATALOG_COLUMN_FLOAT || dst->kind != DL_CT_VAR)
		return false;
	for (i = 0; i < r->nbody; i++) {
		const struct dl_clit *l = &r->body[i];

		if (pl->placed[i] || l->kind != DL_LIT_ATOM || l->negated)
			continue;
		for (k = 0; k < l->nargs; k++)
			if (l->args[k].kind == DL_CT_VAR &&
			    l->args[k].v == dst->v)
				return true;
	}
	return false;
}

/* Places every filter that is ready; returns whether it placed any. */
static maelys_datalog_status_t
dl_plan_filters(struct dl_planner *pl, bool *progress)
{
	const struct dl_rule *r = pl->rule;
	uint32_t i, k;

	*progress = false;
	for (i = 0; i < pl->nlits; i++) {
		const struct dl_clit *l = &pl->lits[i];
		bool ready = true;

		if (pl->placed[i] || (l->kind == DL_LIT_ATOM && !l->negated))
			continue;
		if (l->kind == DL_LIT_CMP && !l->negated &&
		    l->op == DL_CMP_EQ) {
			bool a = dl_term_bound(pl, &l->args[0]);
			bool b = dl_term_bound(pl, &l->args[1]);

			if (a != b && !dl_plan_float_wait(
					  pl, a ? &l->args[1] : &l->args[0],
					  l->cmp_kind)) {
				struct dl_op *op =
				    dl_plan_new_op(pl, DL_OP_BIND, l);
				const struct dl_cterm *src =
				    a ? &l->args[0] : &l->args[1];
				const struct dl_cterm *dst =
				    a ? &l->args[1] : &l->args[0];

				op->key[0] = *src;
				op->var = dst->v;
				pl->bound[dst->v] = true;
				pl->placed[i] = true;
				*progress = true;
				continue;
			}
		}
		for (k = 0; k < l->nargs; k++)
			if (l->args[k].kind == DL_CT_VAR &&
			    !pl->bound[l->args[k].v])
				ready = false;
		if (!ready)
			continue;
		if (l->kind == DL_LIT_ATOM) {
			maelys_datalog_status_t st = dl_plan_absent(pl, i);

			if (st != MAELYS_DATALOG_STATUS_OK)
				return st;
		} else {
			struct dl_op *op = dl_plan_new_op(
			    pl, l->kind == DL_LIT_CMP ? DL_OP_CMP : DL_OP_CALL,
			    l);

			op->key[0] = l->args[0];
			op->key[1] = l->args[1];
			op->nkey = 2;
			op->cmp = (uint8_t)l->op;
			op->cmp_kind = l->cmp_kind;
			op->builtin = (uint8_t)l->builtin;
			op->negated = l->negated;
			op->regex = l->regex;
			op->pattern = l->pattern;
			pl->placed[i] = true;
		}
		*progress = true;
	}
	/* an arithmetic term as soon as what it reads is bound, after the
	 * tests ready with it, which may guard it (Y != 0 before X / Y) */
	for (i = 0; i < r->nexprs; i++) {
		const struct dl_cexpr *x = &r->exprs[i];
		struct dl_op *op;

		if (pl->xplaced[i] ||
		    (x->impure && !dl_plan_all_placed(pl, i)) ||
		    (r->expr_scope != NULL ? r->expr_scope[i] : DL_NONE) !=
			pl->scope)
			continue;
		for (k = 0; k < x->ncode; k++)
			if (x->code[k].kind == DL_X_VAR &&
			    !pl->bound[x->code[k].v])
				break;
		if (k < x->ncode)
			continue;
		op = dl_plan_new_op(pl, DL_OP_EXPR, NULL);
		op->pos = x->pos;
		op->expr = x;
		op->var = x->target;
		op->check = pl->bound[x->target];
		pl->bound[x->target] = true;
		pl->xplaced[i] = true;
		*progress = true;
	}
	dl_plan_records(pl, progress);
	return dl_plan_aggs(pl, progress);
}

/* Whether an op after an arithmetic term reads variable v (the emit
 * aside; a binding Z = v passes the question on to Z). */
static bool
dl_plan_reads(const struct dl_op *op, const struct dl_op *end, uint32_t v)
{
	uint32_t k;

	for (; op < end; op++) {
		if (op->kind == DL_OP_BIND) {
			if (op->key[0].kind == DL_CT_VAR && op->key[0].v == v &&
			    dl_plan_reads(op + 1, end, op->var))
				return true;
			continue;
		}
		for (k = 0; k < op->nkey; k++)
			if (op->key[k].kind == DL_CT_VAR && op->key[k].v == v)
				return true;
		for (k = 0; k < op->nout; k++)
			if (op->out[k].action == DL_OUT_CHECK_VAR &&
			    op->out[k].v == v)
				return true;
		if (op->kind == DL_OP_RECORD) {
			if (op->var == v && (op->unpack || op->check))
				return true;
			for (k = 0; !op->unpack && k < op->rec->nargs; k++)
				if (op->rec->args[k].kind == DL_CT_VAR &&
				    op->rec->args[k].v == v)
					return true;
			for (k = 0; op->unpack && k < op->rec->nargs; k++)
				if (op->rec->args[k].kind == DL_CT_VAR &&
				    op->rec->args[k].v == v &&
				    ((op->bindmask >> k) & 1u) == 0)
					return true;
		}
		if (op->kind == DL_OP_EXPR) {
			if (op->check && op->var == v)
				return true;
			for (k = 0; k < op->expr->ncode; k++)
				if (op->expr->code[k].kind == DL_X_VAR &&
				    op->expr->code[k].v == v)
					return true;
		}
	}
	return false;
}

/* A rule that prunes a relation (dl_rule.prunes) belongs to the stratum
 * of body[0], the relation pruned, not to its head's. */
static bool
dl_lit_recursive(const struct dl_program *prog, const struct dl_rule *r,
		 const struct dl_clit *l)
{
	uint32_t own = r->prunes ? r->body[0].pred : r->head_pred;

	return l->kind == DL_LIT_ATOM && !l->negated &&
	       prog->preds[l->pred].stratum == prog->preds[own].stratum;
}

/*
 * The rows a literal of its own stratum reads in the plan whose delta
 * literal is `delta`.  A pruning rule's plans are Souffle's versions of a
 * subsumption (eval.c, dl_prune_step), the dominated tuple body[0] and the
 * dominating body[1] being of the relation pruned, the other literals of
 * the stratum read whole ([0, de)) unless they are the delta:
 *   plans[0]: body[0] in the delta (the new tuples), body[1] anywhere;
 *   plans[1]: body[1] in the delta, body[0] in the old rows;
 *   plans[1 + v]: the v-th other literal in its delta, body[0] and
 *   body[1] in the old rows.
 */
static enum dl_range
dl_plan_range(const struct dl_planner *pl, uint32_t i, uint32_t delta)
{
	if (!dl_lit_recursive(pl->prog, pl->rule, &pl->lits[i]))
		return DL_RANGE_ALL;
	if (i == delta)
		return DL_RANGE_DELTA;
	if (pl->rule->prunes)
		return delta != 0 && i < 2 ? DL_RANGE_OLD : DL_RANGE_FULL;
	return i < delta ? DL_RANGE_OLD : DL_RANGE_FULL;
}

/* Orders pl->lits: every filter once it is ready, then the positive
 * literal with the most bound columns, until none is left. */
static maelys_datalog_status_t
dl_plan_body(struct dl_planner *pl, uint32_t delta)
{
	maelys_datalog_status_t st;
	bool progress;
	uint32_t i, k;

	for (;;) {
		uint32_t best = DL_NONE, best_score = 0;

		/* until no filter is ready: a binding X = Y can make the
		 * filter before it in the body ready */
		do {
			if ((st = dl_plan_filters(pl, &progress)) !=
			    MAELYS_DATALOG_STATUS_OK)
				return st;
		} while (progress);
		for (i = 0; i < pl->nlits; i++) {
			const struct dl_clit *l = &pl->lits[i];
			uint32_t score = 1;

			if (pl->placed[i] || l->kind != DL_LIT_ATOM ||
			    l->negated)
				continue;
			for (k = 0; k < l->nargs; k++)
				if (dl_term_bound(pl, &l->args[k]))
					score++;
			if (best == DL_NONE || score > best_score) {
				best = i;
				best_score = score;
			}
		}
		if (best == DL_NONE)
			break;
		if ((st = dl_plan_atom(pl, best,
				       dl_plan_range(pl, best, delta))) !=
		    MAELYS_DATALOG_STATUS_OK)
			return st;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_plan_one(struct dl_program *prog, const struct dl_rule *r, uint32_t delta,
	    struct dl_plan *plan, maelys_datalog_diagnostic_t *diag)
{
	struct dl_planner pl;
	maelys_datalog_status_t st;
	uint32_t i, k, nops;
	struct dl_op *emit;

	memset(&pl, 0, sizeof pl);
	pl.prog = prog;
	pl.rule = r;
	pl.diag = diag;
	pl.plan = plan;
	memset(plan, 0, sizeof *plan);
	/* one op per literal, arithmetic term and record term, plus the
	 * emit, and for each aggregate one per literal of its body, plus
	 * two */
	nops = r->nbody + r->nexprs + r->nrecs + 1;
	for (i = 0; i < r->naggs; i++)
		nops += r->aggs[i].nbody + 2;
	plan->ops = dl_calloc(nops, sizeof *plan->ops);
	if (plan->ops == NULL)
		return dl_fail(diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
			       "out of memory while planning");
	pl.ops = plan->ops;
	pl.lits = r->body;
	pl.nlits = r->nbody;
	pl.scope = DL_NONE;
	if (delta != DL_NONE &&
	    (st = dl_plan_atom(&pl, delta, DL_RANGE_DELTA)) !=
		MAELYS_DATALOG_STATUS_OK)
		return st;
	if ((st = dl_plan_body(&pl, delta)) != MAELYS_DATALOG_STATUS_OK)
		return st;
	for (i = 0; i < r->nbody; i++) {
		if (!pl.placed[i])
			/* the checker's safety analysis makes this unreachable
			 */
			return dl_fail_at(
			    diag, MAELYS_DATALOG_STATUS_UNSAFE,
			    prog->source_name, r->body[i].pos,
			    "literal cannot be ordered: a variable "
			    "is never bound");
	}
	for (i = 0; i < r->nexprs; i++)
		if (!pl.xplaced[i])
			return dl_fail_at(
			    diag, MAELYS_DATALOG_STATUS_UNSAFE,
			    prog->source_name, r->exprs[i].pos,
			    "arithmetic term cannot be ordered: a variable "
			    "is never bound");
	for (i = 0; i < r->nrecs; i++)
		if (!pl.rplaced[i])
			return dl_fail_at(
			    diag, MAELYS_DATALOG_STATUS_UNSAFE,
			    prog->source_name, r->recs[i].pos,
			    "record term cannot be ordered: neither it nor "
			    "its fields are ever bound");
	for (i = 0; i < pl.nops; i++)
		if (plan->ops[i].kind == DL_OP_EXPR && !plan->ops[i].check)
			plan->ops[i].defer =
			    !dl_plan_reads(&plan->ops[i + 1],
					   &plan->ops[pl.nops], plan->ops[i].var);
	emit = dl_plan_new_op(&pl, DL_OP_EMIT, NULL);
	emit->pos = r->pos;
	emit->pred = r->head_pred;
	emit->nkey = (uint8_t)prog->preds[r->head_pred].arity;
	for (k = 0; k < emit->nkey; k++)
		emit->key[k] = r->head[k];
	plan->nops = pl.nops;
	return MAELYS_DATALOG_STATUS_OK;
}

void
dl_plan_free_rule(struct dl_rule *rule)
{
	uint32_t i;

	if (rule->plans == NULL)
		return;
	for (i = 0; i < rule->nplans; i++)
		dl_free(rule->plans[i].ops);
	dl_free(rule->plans);
	rule->plans = NULL;
	rule->nplans = 0;
}

maelys_datalog_status_t
dl_plan_program(struct dl_program *prog, maelys_datalog_diagnostic_t *diag)
{
	size_t r;
	uint32_t i;

	for (r = 0; r < prog->nrules; r++) {
		struct dl_rule *rule = &prog->rules[r];
		uint32_t n = 0;

		if (rule->recursive) {
			for (i = 0; i < rule->nbody; i++)
				if (dl_lit_recursive(prog, rule,
						     &rule->body[i]))
					n++;
		} else {
			n = 1;
		}
		rule->plans = dl_calloc(n, sizeof *rule->plans);
		if (rule->plans == NULL)
			return dl_fail(diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
				       "out of memory while planning");
		if (!rule->recursive) {
			maelys_datalog_status_t st;

			rule->nplans = 1;
			st = dl_plan_one(prog, rule, DL_NONE, &rule->plans[0],
					 diag);
			if (st != MAELYS_DATALOG_STATUS_OK)
				return st;
			continue;
		}
		for (i = 0; i < rule->nbody; i++) {
			maelys_datalog_status_t st;

			if (!dl_lit_recursive(prog, rule, &rule->body[i]))
				continue;
			st = dl_plan_one(prog, rule, i,
					 &rule->plans[rule->nplans++], diag);
			if (st != MAELYS_DATALOG_STATUS_OK)
				return st;
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/*
 * Aggregates (dl_agg.h): one is placed, in the scope it is written in, once
 * its grouping parameters are bound: an AGG op, its body ordered as a rule's
 * is (with the bindings of the scope around it), and an AGG_END op that
 * folds its term.  What its body binds is unbound again after it; its
 * result is bound.
 */
static maelys_datalog_status_t
dl_plan_agg(struct dl_planner *pl, uint32_t ai)
{
	const struct dl_cagg *a = &pl->rule->aggs[ai];
	bool bound[DL_VARS_MAX], placed[DL_BODY_MAX];
	const struct dl_clit *lits = pl->lits;
	uint32_t nlits = pl->nlits, scope = pl->scope, first, i;
	maelys_datalog_status_t st;
	struct dl_op *op;

	pl->aplaced[ai] = true;
	first = pl->nops;
	op = dl_plan_new_op(pl, DL_OP_AGG, NULL);
	op->pos = a->pos;
	op->agg = ai;
	op->cmp = (uint8_t)a->op;
	op->cmp_kind = a->num;
	op->var = a->target;
	op->check = pl->bound[a->target];
	memcpy(bound, pl->bound, sizeof bound);
	memcpy(placed, pl->placed, sizeof placed);
	memset(pl->placed, 0, sizeof pl->placed);
	pl->lits = a->body;
	pl->nlits = a->nbody;
	pl->scope = ai;
	st = dl_plan_body(pl, DL_NONE);
	for (i = 0; st == MAELYS_DATALOG_STATUS_OK && i < a->nbody; i++)
		if (!pl->placed[i])
			/* the checker's safety analysis makes this
			 * unreachable */
			st = dl_fail_at(pl->diag, MAELYS_DATALOG_STATUS_UNSAFE,
					pl->prog->source_name, a->body[i].pos,
					"literal of an aggregate cannot be "
					"ordered: a variable is never bound");
	if (st != MAELYS_DATALOG_STATUS_OK)
		return st;
	op = dl_plan_new_op(pl, DL_OP_AGG_END, NULL);
	op->pos = a->pos;
	op->agg = ai;
	if (a->has_value) {
		op->key[0] = a->value;
		op->nkey = 1;
	}
	pl->ops[first].skip = pl->nops - first;
	pl->lits = lits;
	pl->nlits = nlits;
	pl->scope = scope;
	memcpy(pl->placed, placed, sizeof placed);
	memcpy(pl->bound, bound, sizeof bound);
	pl->bound[a->target] = true;
	return MAELYS_DATALOG_STATUS_OK;
}

/* Places every aggregate of the current scope that is ready. */
static maelys_datalog_status_t
dl_plan_aggs(struct dl_planner *pl, bool *progress)
{
	const struct dl_rule *r = pl->rule;
	uint32_t i, k;

	for (i = 0; i < r->naggs; i++) {
		const struct dl_cagg *a = &r->aggs[i];
		maelys_datalog_status_t st;

		if (pl->aplaced[i] || a->parent != pl->scope)
			continue;
		for (k = 0; k < a->nneeds; k++)
			if (!pl->bound[a->needs[k]])
				break;
		if (k < a->nneeds)
			continue;
		if ((st = dl_plan_agg(pl, i)) != MAELYS_DATALOG_STATUS_OK)
			return st;
		*progress = true;
	}
	return MAELYS_DATALOG_STATUS_OK;
}
