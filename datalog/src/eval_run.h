/* SPDX-License-Identifier: MIT */
/*
 * The plan interpreter of eval.c, written once and compiled twice: with
 * DL_PROV 0 it is the engine's ordinary derive path; with DL_PROV 1 (only
 * for PROVENANCE sessions) each matched row is noted by body literal and
 * each head tuple is inserted at once with the record of its first
 * derivation.  eval.c picks the copy once per plan run, so a session without
 * provenance runs exactly the code it ran before provenance existed.
 *
 * Included only by eval.c, which defines DL_PROV and DL_RUN(name) (the name
 * of this copy's function) and undefines them after.
 */
#if DL_PROV
/* an aggregate's body literals are no premises of the rule: not noted */
#define DL_PROV_ROW(ev, op, row)                                               \
	((op)->lit != DL_OP_NO_LIT                                             \
	     ? (void)((ev)->prov_rows[(op)->lit] = (row))                      \
	     : (void)0)
#else
#define DL_PROV_ROW(ev, op, row) ((void)0)
#endif

static maelys_datalog_status_t DL_RUN(run)(struct dl_eval *ev,
				      const struct dl_op *op);

static maelys_datalog_status_t
DL_RUN(run_scan)(struct dl_eval *ev, const struct dl_op *op)
{
	const struct dl_rel *r = ev->rels[op->pred];
	uint32_t lo, hi, row;

	dl_range_bounds(r, op->range, &lo, &hi);
	if (r->arity == 0) {
		DL_PROV_ROW(ev, op, 0);
		if (lo < hi)
			return DL_RUN(run)(ev, op + 1);
		return MAELYS_DATALOG_STATUS_OK;
	}
	row = lo;
	while (row < hi) {
		/* walk a block at a time: one address computation per block */
		uint32_t off, b = dl_block_of(row, &off);
		size_t rows_in_block = (size_t)1 << (b + DL_BLOCK0_SHIFT);
		uint32_t end = (uint32_t)(rows_in_block - off) < hi - row
				   ? row + (uint32_t)(rows_in_block - off)
				   : hi;
		const uint32_t *t = r->blocks[b] + (size_t)off * r->arity;

		for (; row < end; row++, t += r->arity) {
			maelys_datalog_status_t st;

			if (!dl_step(ev))
				return dl_steps_exceeded(ev, op);
			if (!dl_match_row(ev, op, t))
				continue;
			DL_PROV_ROW(ev, op, row);
			if ((st = DL_RUN(run)(ev, op + 1)) !=
			    MAELYS_DATALOG_STATUS_OK)
				return st;
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
DL_RUN(run_probe)(struct dl_eval *ev, const struct dl_op *op)
{
	const struct dl_rel *r = ev->rels[op->pred];
	uint32_t key[MAELYS_DATALOG_MAX_ARITY], lo, hi, row, k;

	dl_range_bounds(r, op->range, &lo, &hi);
	for (k = 0; k < op->nkey; k++)
		key[k] = dl_term_value(ev, &op->key[k]);
	for (row = dl_index_first(r, op->index, key);
	     row != DL_ROW_NONE && row < hi;
	     row = dl_index_next(r, op->index, row)) {
		maelys_datalog_status_t st;

		if (!dl_step(ev))
			return dl_steps_exceeded(ev, op);
		if (row < lo || !dl_match_row(ev, op, dl_rel_row(r, row)))
			continue;
		DL_PROV_ROW(ev, op, row);
		if ((st = DL_RUN(run)(ev, op + 1)) != MAELYS_DATALOG_STATUS_OK)
			return st;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/*
 * A built-in's outcome.  A type error does not stop the binding at once:
 * whether a rule derives anything must not depend on the order in which
 * its literals are joined, and a filter placed early would see bindings a
 * later literal removes.  So an ill-typed test is passed as if it held, the
 * binding is marked, and only a marked binding that satisfies every other
 * literal - it reaches the head - is an error: STATUS_TYPE exactly when
 * some binding satisfies the rest of the body with a built-in ill-typed.
 */
static maelys_datalog_status_t
DL_RUN(run_test)(struct dl_eval *ev, const struct dl_op *op, struct dl_test t)
{
	maelys_datalog_status_t st;

	if (t.status == MAELYS_DATALOG_STATUS_TYPE) {
		if (ev->poisoned++ == 0) {
			ev->poison_op = op;
			ev->poison = t;
		}
		st = DL_RUN(run)(ev, op + 1);
		ev->poisoned--;
		return st;
	}
	if (t.status != MAELYS_DATALOG_STATUS_OK)
		return dl_test_failed(ev, op, &t);
	if (t.value == op->negated)
		return MAELYS_DATALOG_STATUS_OK;
	return DL_RUN(run)(ev, op + 1);
}

/*
 * range(...): binds the term's variable to each value in turn, one join
 * step each (so a long range meets the steps budget); bound already, it
 * is a test that the value is one of them.  An error of its arguments
 * stops at once.
 */
static maelys_datalog_status_t
DL_RUN(run_range)(struct dl_eval *ev, const struct dl_op *op)
{
	struct dl_fnctx ctx = {ev->mb, &ev->counter};
	int64_t stack[DL_EXPR_CODE_MAX], r;
	struct dl_test t = {MAELYS_DATALOG_STATUS_OK, true, NULL};
	struct dl_range_it it;
	uint32_t sp = 0;
	dl_value v;
	int rc;

	t.status = dl_expr_exec(op->expr, &ev->syms, &ctx, ev->regs,
				op->expr->ncode - 1, stack, &sp, &t.why);
	if (t.status != MAELYS_DATALOG_STATUS_OK)
		return dl_test_failed(ev, op, &t);
	dl_range_first(&it, (enum dl_functor)op->expr->code[op->expr->ncode - 1].op,
		       stack, sp);
	while (dl_range_next(&it, &r)) {
		maelys_datalog_status_t st;

		if (!dl_step(ev))
			return dl_steps_exceeded(ev, op);
		if ((rc = dl_expr_value(ev, r, &v)) < 0)
			return dl_fail_at(ev->diag,
					  MAELYS_DATALOG_STATUS_NO_MEMORY,
					  ev->prog->source_name, op->pos,
					  "out of memory for a value of range");
		if (rc > 0)
			continue; /* no value here: nothing can equal it */
		if (op->check) {
			if (ev->regs[op->var] != v)
				continue;
			return DL_RUN(run)(ev, op + 1);
		}
		ev->regs[op->var] = v;
		if ((st = DL_RUN(run)(ev, op + 1)) != MAELYS_DATALOG_STATUS_OK)
			return st;
	}
	if (it.stuck) {
		t.status = MAELYS_DATALOG_STATUS_ARITHMETIC;
		t.why = "a float range whose step is too small to change its "
			"value: it would never end";
		return dl_test_failed(ev, op, &t);
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/*
 * An arithmetic term.  Its result is interned as a value (boxed beyond the
 * inline range).  An error (a string operand, division by zero, a result a
 * policy-level rule cannot hold) of a term only the head reads is deferred
 * as a built-in's type error is, so that it is an error exactly when the
 * binding satisfies the rest of the body, whatever the join order (the
 * variable, which nothing else reads, is 0 meanwhile).  A term another
 * literal reads has no value to give it: its error stops at once (fail
 * closed, never a guess).
 */
static maelys_datalog_status_t
DL_RUN(run_expr)(struct dl_eval *ev, const struct dl_op *op)
{
	struct dl_test t = {MAELYS_DATALOG_STATUS_OK, true, NULL};
	struct dl_fnctx ctx = {ev->mb, &ev->counter};
	int64_t r = 0, stack[DL_EXPR_CODE_MAX];
	uint32_t sp = 0;
	dl_value v = 0;
	int rc = 0;

	if (op->expr->generator)
		return DL_RUN(run_range)(ev, op);
	t.status = dl_expr_exec(op->expr, &ev->syms, &ctx, ev->regs,
				op->expr->ncode, stack, &sp, &t.why);
	r = t.status == MAELYS_DATALOG_STATUS_OK ? stack[0] : 0;
	if (t.status == MAELYS_DATALOG_STATUS_OK && op->expr->string_result)
		v = (dl_value)r; /* a string slot holds the value */
	else if (t.status == MAELYS_DATALOG_STATUS_OK &&
		 (rc = dl_expr_value(ev, r, &v)) < 0)
		return dl_fail_at(ev->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
				  ev->prog->source_name, op->pos,
				  "out of memory for an arithmetic result");
	if (rc > 0) {
		/* no value here: no column can equal it */
		if (op->check)
			return MAELYS_DATALOG_STATUS_OK;
		t.status = MAELYS_DATALOG_STATUS_LIMIT;
		t.why = "arithmetic result outside -2^30 .. 2^30-1 in a rule "
			"over the policy's own facts (only rules that read "
			"input facts can hold it)";
	}
	if (t.status != MAELYS_DATALOG_STATUS_OK) {
		maelys_datalog_status_t st;

		if (!op->defer)
			return dl_test_failed(ev, op, &t);
		if (ev->poisoned++ == 0) {
			ev->poison_op = op;
			ev->poison = t;
		}
		ev->regs[op->var] = dl_value_make_inline_int(0);
		st = DL_RUN(run)(ev, op + 1);
		ev->poisoned--;
		return st;
	}
	if (op->check) {
		if (ev->regs[op->var] != v)
			return MAELYS_DATALOG_STATUS_OK;
	} else {
		ev->regs[op->var] = v;
	}
	return DL_RUN(run)(ev, op + 1);
}

/*
 * A record term (dl_record.h).  Taken apart: the value must be a record of
 * the term's type and branch (nil and other branches match nothing), its
 * fields bind or are compared.  Built: interned in the solve's overlay,
 * whose growth counts against the working memory budget.
 */
static maelys_datalog_status_t
DL_RUN(run_record)(struct dl_eval *ev, const struct dl_op *op)
{
	const struct dl_crec *x = op->rec;
	const struct dl_rtype *t = x->rtype == DL_RECORD_UNTYPED
				       ? NULL
				       : &ev->prog->rtypes[x->rtype];
	uint32_t h = dl_rtype_header(t), n, k;
	dl_value fields[DL_RECORD_FIELDS_MAX], v;

	if (op->unpack) {
		const dl_value *w =
		    dl_symview_record(&ev->syms, ev->regs[op->var], &n);

		if (w == NULL || n != h + x->nargs || w[0] != x->rtype ||
		    (t != NULL && t->adt && w[1] != x->branch))
			return MAELYS_DATALOG_STATUS_OK;
		for (k = 0; k < x->nargs; k++) {
			const struct dl_cterm *a = &x->args[k];

			if ((op->bindmask >> k) & 1u)
				ev->regs[a->v] = w[h + k];
			else if (a->kind != DL_CT_ANON &&
				 dl_term_value(ev, a) != w[h + k])
				return MAELYS_DATALOG_STATUS_OK;
		}
		return DL_RUN(run)(ev, op + 1);
	}
	for (k = 0; k < x->nargs; k++)
		fields[k] = dl_term_value(ev, &x->args[k]);
	if (dl_record_make(&ev->syms, x->rtype, t, x->branch, fields,
			   x->nargs, &v) != 0) {
		if (ev->syms.overlay == NULL)
			return dl_fail_at(ev->diag, MAELYS_DATALOG_STATUS_LIMIT,
					  ev->prog->source_name, op->pos,
					  "a record built in a rule over the "
					  "policy's own facts has no symbol "
					  "table to hold it");
		return dl_fail_at(ev->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
				  ev->prog->source_name, op->pos,
				  "out of memory building a record");
	}
	if (ev->syms.overlay != NULL &&
	    dl_symtab_bytes(ev->syms.overlay) >
		ev->mb->limit -
		    (ev->mb->used < ev->mb->limit ? ev->mb->used
						  : ev->mb->limit))
		return dl_fail_at(ev->diag, MAELYS_DATALOG_STATUS_BUDGET_MEMORY,
				  ev->prog->source_name, op->pos,
				  "the records built take more than the "
				  "working memory budget of %zu bytes "
				  "(MAELYS_DATALOG_BUDGET_MEMORY)",
				  ev->mb->limit);
	if (op->check) {
		if (ev->regs[op->var] != v)
			return MAELYS_DATALOG_STATUS_OK;
	} else {
		ev->regs[op->var] = v;
	}
	return DL_RUN(run)(ev, op + 1);
}

/*
 * An aggregate: its body's ops (after this one, up to its AGG_END) run for
 * the bindings so far, each binding that reaches AGG_END folded; then the
 * result is bound (min and max of an empty body have none: the rule's
 * binding fails) and the plan goes on after AGG_END.  The join steps of the
 * body count against the session's budget like any other.
 */
static maelys_datalog_status_t
DL_RUN(run_agg)(struct dl_eval *ev, const struct dl_op *op)
{
	struct dl_agg_acc *acc = &ev->agg_acc[op->agg];
	maelys_datalog_status_t st;
	dl_value v = 0;
	int64_t r;
	int rc;

	dl_agg_begin(acc, (enum dl_agg_op)op->cmp, op->cmp_kind, ev->poisoned);
	if ((st = DL_RUN(run)(ev, op + 1)) != MAELYS_DATALOG_STATUS_OK)
		return st;
	if (!dl_agg_result(acc, &r))
		return MAELYS_DATALOG_STATUS_OK;
	if ((rc = dl_expr_value(ev, r, &v)) < 0)
		return dl_fail_at(ev->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
				  ev->prog->source_name, op->pos,
				  "out of memory for an aggregate's result");
	if (rc > 0)
		return dl_fail_at(
		    ev->diag, MAELYS_DATALOG_STATUS_LIMIT,
		    ev->prog->source_name, op->pos,
		    "aggregate result %lld outside -2^30 .. 2^30-1 "
		    "in a rule over the policy's own facts (only "
		    "rules that read input facts can hold it)",
		    (long long)r);
	if (op->check) {
		if (ev->regs[op->var] != v)
			return MAELYS_DATALOG_STATUS_OK;
	} else {
		ev->regs[op->var] = v;
	}
	return DL_RUN(run)(ev, op + op->skip);
}

static maelys_datalog_status_t
DL_RUN(run)(struct dl_eval *ev, const struct dl_op *op)
{
	switch ((enum dl_op_kind)op->kind) {
	case DL_OP_SCAN:
		return DL_RUN(run_scan)(ev, op);
	case DL_OP_PROBE:
		return DL_RUN(run_probe)(ev, op);
	case DL_OP_LOOKUP: {
		const struct dl_rel *r = ev->rels[op->pred];
		uint32_t tuple[MAELYS_DATALOG_MAX_ARITY], lo, hi, row;

		dl_key_tuple(ev, op, tuple);
		if (op->range == DL_RANGE_ALL) {
#if DL_PROV
			/* the premise needs the row, not just its presence */
			row = dl_prov_row_of(r, ev->find_index[op->pred],
					     tuple);
			if (row == DL_ROW_NONE)
				return MAELYS_DATALOG_STATUS_OK;
			DL_PROV_ROW(ev, op, row);
#else
			if (!dl_rel_contains(r, tuple))
				return MAELYS_DATALOG_STATUS_OK;
#endif
			return DL_RUN(run)(ev, op + 1);
		}
		/* a ranged lookup of a packed relation is planned as a probe
		 * of its all-columns index, so this one has row ids */
		row = dl_rel_find(r, tuple);
		dl_range_bounds(r, op->range, &lo, &hi);
		if (row == DL_ROW_NONE || row < lo || row >= hi)
			return MAELYS_DATALOG_STATUS_OK;
		DL_PROV_ROW(ev, op, row);
		return DL_RUN(run)(ev, op + 1);
	}
	case DL_OP_ABSENT: {
		uint32_t tuple[MAELYS_DATALOG_MAX_ARITY];

		dl_key_tuple(ev, op, tuple);
		if (dl_rel_contains(ev->rels[op->pred], tuple))
			return MAELYS_DATALOG_STATUS_OK;
		return DL_RUN(run)(ev, op + 1);
	}
	case DL_OP_ABSENT_PROBE: {
		uint32_t key[MAELYS_DATALOG_MAX_ARITY], k;

		for (k = 0; k < op->nkey; k++)
			key[k] = dl_term_value(ev, &op->key[k]);
		if (dl_index_first(ev->rels[op->pred], op->index, key) !=
		    DL_ROW_NONE)
			return MAELYS_DATALOG_STATUS_OK;
		return DL_RUN(run)(ev, op + 1);
	}
	case DL_OP_ABSENT_ANY:
		if (ev->rels[op->pred]->count > 0)
			return MAELYS_DATALOG_STATUS_OK;
		return DL_RUN(run)(ev, op + 1);
	case DL_OP_CMP:
		return DL_RUN(run_test)(
		    ev, op,
		    dl_builtin_compare_kind(&ev->syms, (enum dl_cmp_op)op->cmp,
					    op->cmp_kind,
					    dl_term_value(ev, &op->key[0]),
					    dl_term_value(ev, &op->key[1])));
	case DL_OP_CALL: {
		struct dl_test t;

		if (dl_builtin_literal(ev->prog, &ev->syms, ev->matcher,
				       &ev->recache, op->builtin, op->pattern,
				       op->regex,
				       dl_term_value(ev, &op->key[0]),
				       dl_term_value(ev, &op->key[1]), &t))
			return MAELYS_DATALOG_STATUS_OK; /* Souffle: neither */
		return DL_RUN(run_test)(ev, op, t);
	}
	case DL_OP_BIND:
		ev->regs[op->var] = dl_term_value(ev, &op->key[0]);
		return DL_RUN(run)(ev, op + 1);
	case DL_OP_EXPR:
		return DL_RUN(run_expr)(ev, op);
	case DL_OP_RECORD:
		return DL_RUN(run_record)(ev, op);
	case DL_OP_AGG:
		return DL_RUN(run_agg)(ev, op);
	case DL_OP_AGG_END:
		return dl_agg_end(ev, op);
	case DL_OP_EMIT:
		if (ev->poisoned > 0)
			return dl_test_failed(ev, ev->poison_op, &ev->poison);
#if DL_PROV
		return dl_emit_prov(ev, op);
#else
		return dl_emit(ev, op);
#endif
	}
	return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
}

static maelys_datalog_status_t
DL_RUN(run_plan)(struct dl_eval *ev, const struct dl_plan *plan)
{
	maelys_datalog_status_t st;
	uint32_t i, lo, hi;

	/* a plan over an empty relation derives nothing: skip it at once,
	 * which is what keeps a decision proportional to what it touches */
	for (i = 0; i < plan->nneed; i++) {
		dl_range_bounds(ev->rels[plan->need_pred[i]],
				plan->need_range[i], &lo, &hi);
		if (lo >= hi)
			return MAELYS_DATALOG_STATUS_OK;
	}
	ev->poisoned = 0;
	st = DL_RUN(run)(ev, plan->ops);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		ev->npending = 0;
		return st;
	}
	return dl_flush(ev);
}

#undef DL_PROV_ROW
