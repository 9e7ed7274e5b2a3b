/* SPDX-License-Identifier: MIT */
/*
 * result_why_not: why a rule did not derive a tuple.  The rule's head is
 * unified with the tuple, then its body literals are tried in source order
 * over the result's relations, with backtracking; the answer is the first
 * literal that no binding of the ones before it can satisfy.  It is a
 * reader's search, not the engine's: plans reorder literals, and a person
 * asks in the order the policy was written.
 *
 * A negation or a built-in whose variables are not bound yet (a later
 * literal binds them) waits until they are, and counts against the literal
 * that bound them last; X = t with one side bound binds the other, as the
 * planner's BIND does; an arithmetic term (dl_arith.h) waits for what it
 * reads, then binds its variable or, bound already, tests it, an error in
 * it passed as an ill-typed built-in is.  Built-ins are the engine's
 * (dl_builtin_compare, dl_builtin_call), ill-typed ones passed as the
 * evaluator passes them
 * (eval.c, dl_run_test).  Every row visited and every literal tried is a
 * step of the session's BUDGET_STEPS.
 */
#include "dl_api.h"
#include "dl_functor.h"
#include "dl_record.h"

#include <string.h>

/* A value of the question that no layer of the result knows: it is in no
 * relation, equal to nothing else, and no built-in can read it. */
#define DL_WHY_UNKNOWN UINT32_C(0x7fffffff)
/* 64-bit words of a frame's set of waiting literals */
#define DL_WAITING_WORDS ((DL_BODY_MAX + 63) / 64)

struct dl_whynot {
	const maelys_datalog_result_t *res;
	const struct dl_rule *rule;
	struct dl_symview syms;
	uint64_t steps_left;
	uint32_t deepest; /* literals 0 .. deepest-1 held together */
	uint32_t poisoned;
	bool type_error;  /* a full body held with an ill-typed built-in */
	/* the error of the first ill-typed built-in or failed arithmetic
	 * term: TYPE or ARITHMETIC */
	maelys_datalog_status_t poison_st;
	maelys_datalog_status_t st; /* an error that stops the search */
	/* the patterns of match computed from a body's values (Souffle's
	 * match(P, S) with P a variable), compiled as the search meets them */
	struct dl_recache *recache;
};

/* A frame: the bindings after literals 0 .. i-1 and the filters waiting. */
struct dl_whynot_frame {
	uint32_t regs[DL_VARS_MAX];
	bool bound[DL_VARS_MAX];
	/* bit i: literal i not yet evaluable (a body has up to DL_BODY_MAX) */
	uint64_t waiting[DL_WAITING_WORDS];
	uint64_t xwaiting; /* bit i: arithmetic term i not yet computed */
	uint64_t rwaiting; /* bit i: record term i not yet settled */
};

/* Whether some literal of the frame is still waiting. */
static bool
dl_whynot_any_waiting(const struct dl_whynot_frame *f)
{
	size_t k;

	for (k = 0; k < DL_WAITING_WORDS; k++)
		if (f->waiting[k] != 0)
			return true;
	return false;
}

static bool
dl_whynot_step(struct dl_whynot *w)
{
	if (w->steps_left == 0) {
		w->st = MAELYS_DATALOG_STATUS_BUDGET_STEPS;
		return false;
	}
	w->steps_left--;
	return true;
}

static bool
dl_whynot_term_bound(const struct dl_whynot_frame *f, const struct dl_cterm *t)
{
	return t->kind == DL_CT_CONST || (t->kind == DL_CT_VAR && f->bound[t->v]);
}

static uint32_t
dl_whynot_value(const struct dl_whynot_frame *f, const struct dl_cterm *t)
{
	return t->kind == DL_CT_CONST ? t->v : f->regs[t->v];
}

/* Evaluates a negation or built-in whose variables are bound: 1 holds, 0
 * does not, -1 an error (w->st). */
static int
dl_whynot_filter(struct dl_whynot *w, const struct dl_whynot_frame *f,
		 const struct dl_clit *l)
{
	const struct dl_program *prog = w->res->session->prog;
	struct dl_test t;
	uint32_t a, b, k;

	if (l->kind == DL_LIT_ATOM) {
		const struct dl_rel *r = w->res->ws->relp[l->pred];
		uint32_t row;

		for (k = 0; k < l->nargs; k++)
			if (l->args[k].kind != DL_CT_ANON &&
			    dl_whynot_value(f, &l->args[k]) == DL_WHY_UNKNOWN)
				return 1; /* an unknown value is in no row */
		for (row = 0; row < r->count; row++) {
			const uint32_t *tu = l->nargs > 0 ? dl_rel_row(r, row)
							  : NULL;

			if (!dl_whynot_step(w))
				return -1;
			for (k = 0; k < l->nargs; k++)
				if (l->args[k].kind != DL_CT_ANON &&
				    tu[k] != dl_whynot_value(f, &l->args[k]))
					break;
			if (k == l->nargs)
				return 0;
		}
		return 1;
	}
	a = dl_whynot_value(f, &l->args[0]);
	b = dl_whynot_value(f, &l->args[1]);
	if (a == DL_WHY_UNKNOWN || b == DL_WHY_UNKNOWN) {
		/* only identity can be decided without the text */
		if (l->kind == DL_LIT_CMP &&
		    (l->op == DL_CMP_EQ || l->op == DL_CMP_NE))
			return ((a == b) == (l->op == DL_CMP_EQ)) != l->negated;
		return 1;
	}
	if (l->kind == DL_LIT_CMP) {
		t = dl_builtin_compare_kind(&w->syms, l->op, l->cmp_kind, a,
					    b);
	} else if (dl_builtin_literal(prog, &w->syms,
				      &w->res->session->matcher, &w->recache,
				      l->builtin, l->pattern, l->regex, a, b,
				      &t)) {
		return 0; /* a pattern Souffle refuses: neither holds */
	}
	if (t.status == MAELYS_DATALOG_STATUS_TYPE) {
		if (w->poison_st == MAELYS_DATALOG_STATUS_OK)
			w->poison_st = t.status;
		return 2; /* as if it held, the binding marked: see eval.c */
	}
	if (t.status != MAELYS_DATALOG_STATUS_OK) {
		w->st = t.status;
		return -1;
	}
	return t.value != l->negated;
}

static bool
dl_whynot_ready(const struct dl_whynot_frame *f, const struct dl_clit *l)
{
	uint32_t k;

	for (k = 0; k < l->nargs; k++)
		if (l->args[k].kind == DL_CT_VAR && !f->bound[l->args[k].v])
			return false;
	return true;
}

/* Binds X in X = t when t is bound; returns whether it did. */
static bool
dl_whynot_bind_eq(struct dl_whynot_frame *f, const struct dl_clit *l)
{
	const struct dl_cterm *a = &l->args[0], *b = &l->args[1];
	bool ba = dl_whynot_term_bound(f, a), bb = dl_whynot_term_bound(f, b);
	const struct dl_cterm *src = ba ? a : b, *dst = ba ? b : a;

	if (l->kind != DL_LIT_CMP || l->negated || l->op != DL_CMP_EQ ||
	    ba == bb || dst->kind != DL_CT_VAR)
		return false;
	f->regs[dst->v] = dl_whynot_value(f, src);
	f->bound[dst->v] = true;
	return true;
}

/* Computes arithmetic term x, whose variables are bound: 1 it bound its
 * variable or equals it, 0 it does not equal it, 2 it failed (a string
 * operand, division by zero: passed as the evaluator passes it). */
static int
dl_whynot_expr(struct dl_whynot *w, struct dl_whynot_frame *f,
	       const struct dl_cexpr *x)
{
	const char *why = NULL;
	maelys_datalog_status_t st;
	uint32_t k, v;
	int64_t r;

	for (k = 0; k < x->ncode; k++)
		if (x->code[k].kind == DL_X_VAR &&
		    f->regs[x->code[k].v] == DL_WHY_UNKNOWN)
			break;
	if (k < x->ncode) {
		v = DL_WHY_UNKNOWN; /* a number no layer knows: unknowable */
	} else if ((st = dl_expr_run(x, &w->syms, f->regs, &r, &why)) !=
		   MAELYS_DATALOG_STATUS_OK) {
		if (w->poison_st == MAELYS_DATALOG_STATUS_OK)
			w->poison_st = st;
		if (!f->bound[x->target]) {
			f->regs[x->target] = DL_WHY_UNKNOWN;
			f->bound[x->target] = true;
		}
		return 2;
	} else if (x->string_result) {
		v = (dl_value)r; /* a functor's string: the value itself */
	} else if (r >= DL_INLINE_INT_MIN && r <= DL_INLINE_INT_MAX) {
		v = dl_value_make_inline_int(r);
	} else if (!dl_symview_find_int(&w->syms, r, &v)) {
		v = DL_WHY_UNKNOWN;
	}
	if (f->bound[x->target]) /* an unknowable result is not refuted */
		return v == DL_WHY_UNKNOWN || f->regs[x->target] == v;
	f->regs[x->target] = v;
	f->bound[x->target] = true;
	return 1;
}

/* Settles the waiting filters that became evaluable: 1 all that could be
 * evaluated held, 0 one failed, -1 an error.  *poison counts the ill-typed
 * ones passed. */
static int
dl_whynot_settle(struct dl_whynot *w, struct dl_whynot_frame *f,
		 uint32_t *poison)
{
	bool progress = true;
	uint32_t i;

	while (progress &&
	       (dl_whynot_any_waiting(f) || f->xwaiting != 0 ||
		f->rwaiting != 0)) {
		progress = false;
		/* a record term: built or taken apart once it can be; a
		 * value of another branch or a field that differs refutes */
		for (i = 0; i < w->rule->nrecs; i++) {
			int v;

			if (((f->rwaiting >> i) & 1u) == 0)
				continue;
			v = dl_record_rebind(&w->syms, &w->rule->recs[i],
					     f->regs, f->bound, DL_WHY_UNKNOWN);
			if (v < 0)
				return 0;
			if (v > 0) {
				f->rwaiting &= ~(UINT64_C(1) << i);
				progress = true;
			}
		}
		for (i = 0; i < w->rule->nexprs; i++) {
			const struct dl_cexpr *x = &w->rule->exprs[i];
			uint32_t k;
			int v;

			if (((f->xwaiting >> i) & 1u) == 0)
				continue;
			for (k = 0; k < x->ncode; k++)
				if (x->code[k].kind == DL_X_VAR &&
				    !f->bound[x->code[k].v])
					break;
			if (k < x->ncode)
				continue;
			f->xwaiting &= ~(UINT64_C(1) << i);
			progress = true;
			v = dl_whynot_expr(w, f, x);
			if (v == 0)
				return 0;
			if (v == 2)
				(*poison)++;
		}
		for (i = 0; i < w->rule->nbody; i++) {
			const struct dl_clit *l = &w->rule->body[i];
			int v;

			if (((f->waiting[i / 64] >> (i % 64)) & 1u) == 0)
				continue;
			if (dl_whynot_bind_eq(f, l)) {
				f->waiting[i / 64] &= ~(UINT64_C(1) << (i % 64));
				progress = true;
				continue;
			}
			if (!dl_whynot_ready(f, l))
				continue;
			f->waiting[i / 64] &= ~(UINT64_C(1) << (i % 64));
			progress = true;
			v = dl_whynot_filter(w, f, l);
			if (v < 0 || v == 0)
				return v;
			if (v == 2)
				(*poison)++;
		}
	}
	return 1;
}

static void dl_whynot_search(struct dl_whynot *w, struct dl_whynot_frame *fr,
			     uint32_t i);

/* Literals 0 .. i-1 hold with frame fr[i] (its waiting filters settled);
 * goes on with literal i. */
static void
dl_whynot_next(struct dl_whynot *w, struct dl_whynot_frame *fr, uint32_t i,
	       uint32_t poison)
{
	int v = dl_whynot_settle(w, &fr[i], &poison);

	if (v <= 0)
		return;
	if (i > w->deepest)
		w->deepest = i;
	w->poisoned += poison;
	dl_whynot_search(w, fr, i);
	w->poisoned -= poison;
}

/* Whether variable v is the result of one of the rule's aggregates. */
static bool
dl_whynot_is_agg(const struct dl_rule *r, uint32_t v)
{
	uint32_t i;

	for (i = 0; i < r->naggs; i++)
		if (r->aggs[i].target == v)
			return true;
	return false;
}

/* Whether literal l reads the result of one of the rule's aggregates: the
 * search does not compute aggregates (dl_agg.h), so it stops there. */
static bool
dl_whynot_reads_agg(const struct dl_rule *r, const struct dl_clit *l)
{
	uint32_t i, k;

	for (i = 0; i < r->naggs; i++)
		for (k = 0; k < l->nargs; k++)
			if (l->args[k].kind == DL_CT_VAR &&
			    l->args[k].v == r->aggs[i].target)
				return true;
	return false;
}

static void
dl_whynot_search(struct dl_whynot *w, struct dl_whynot_frame *fr, uint32_t i)
{
	const struct dl_whynot_frame *f = &fr[i];
	struct dl_whynot_frame *next = &fr[i + 1];
	const struct dl_clit *l;
	const struct dl_rel *r;
	uint32_t row, k;

	if (i == w->rule->nbody) {
		/* the body holds; with an ill-typed built-in the engine
		 * would have stopped with TYPE */
		if (w->poisoned > 0)
			w->type_error = true;
		return;
	}
	if (w->st != MAELYS_DATALOG_STATUS_OK)
		return;
	if (!dl_whynot_step(w))
		return;
	l = &w->rule->body[i];
	if (dl_whynot_reads_agg(w->rule, l))
		return;
	if (l->kind != DL_LIT_ATOM || l->negated) {
		int v;

		*next = *f;
		if (dl_whynot_bind_eq(next, l)) {
			dl_whynot_next(w, fr, i + 1, 0);
			return;
		}
		if (!dl_whynot_ready(next, l)) {
			next->waiting[i / 64] |= UINT64_C(1) << (i % 64);
			dl_whynot_next(w, fr, i + 1, 0);
			return;
		}
		v = dl_whynot_filter(w, next, l);
		if (v > 0)
			dl_whynot_next(w, fr, i + 1, v == 2 ? 1u : 0u);
		return;
	}
	r = w->res->ws->relp[l->pred];
	for (row = 0; row < r->count; row++) {
		const uint32_t *t = l->nargs > 0 ? dl_rel_row(r, row) : NULL;

		if (!dl_whynot_step(w))
			return;
		*next = *f;
		for (k = 0; k < l->nargs; k++) {
			const struct dl_cterm *a = &l->args[k];

			if (a->kind == DL_CT_ANON)
				continue;
			if (a->kind == DL_CT_VAR && !next->bound[a->v]) {
				next->regs[a->v] = t[k];
				next->bound[a->v] = true;
				continue;
			}
			if (dl_whynot_value(next, a) != t[k])
				break;
		}
		if (k < l->nargs)
			continue;
		dl_whynot_next(w, fr, i + 1, 0);
		if (w->st != MAELYS_DATALOG_STATUS_OK ||
		    w->deepest == w->rule->nbody)
			return;
	}
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_result_why_not(const maelys_datalog_result_t *result,
			      size_t rule, const char *predicate,
			      const maelys_datalog_arg_t *args, size_t count,
			      int *head_matches, size_t *failed_literal)
{
	const struct dl_program *prog;
	struct dl_whynot_frame *fr;
	struct dl_whynot w;
	uint32_t vals[MAELYS_DATALOG_MAX_ARITY], pid, k;
	maelys_datalog_status_t st;
	bool all_known;

	if (head_matches != NULL)
		*head_matches = 0;
	if (failed_literal != NULL)
		*failed_literal = 0;
	if (result == NULL || predicate == NULL || head_matches == NULL ||
	    failed_literal == NULL || (args == NULL && count > 0))
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	if (!result->session->provenance)
		return MAELYS_DATALOG_STATUS_ROLE;
	prog = result->session->prog;
	if (rule >= prog->nrules)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	if ((st = dl_result_tuple_values(result, predicate, args, count,
					 DL_WHY_UNKNOWN, &pid, vals,
					 &all_known)) != MAELYS_DATALOG_STATUS_OK)
		return st;
	memset(&w, 0, sizeof w);
	w.res = result;
	w.rule = &prog->rules[rule];
	if (w.rule->head_pred != pid)
		return MAELYS_DATALOG_STATUS_OK;
	fr = dl_calloc((size_t)w.rule->nbody + 1, sizeof *fr);
	if (fr == NULL)
		return MAELYS_DATALOG_STATUS_NO_MEMORY;
	/* the head: constants must equal, a repeated variable agree */
	for (k = 0; k < count; k++) {
		const struct dl_cterm *h = &w.rule->head[k];

		if (h->kind == DL_CT_ANON)
			continue;
		if (h->kind == DL_CT_VAR && dl_whynot_is_agg(w.rule, h->v))
			continue; /* not computed here: left unbound */
		if (h->kind == DL_CT_CONST ||
		    (h->kind == DL_CT_VAR && fr[0].bound[h->v])) {
			if (dl_whynot_value(&fr[0], h) != vals[k])
				break;
			continue;
		}
		fr[0].regs[h->v] = vals[k];
		fr[0].bound[h->v] = true;
	}
	if (k < count) {
		dl_free(fr);
		return MAELYS_DATALOG_STATUS_OK;
	}
	*head_matches = 1;
	fr[0].xwaiting = w.rule->nexprs == 64 ? UINT64_MAX
			 : (UINT64_C(1) << w.rule->nexprs) - 1;
	fr[0].rwaiting = w.rule->nrecs == 64 ? UINT64_MAX
			 : (UINT64_C(1) << w.rule->nrecs) - 1;
	w.syms = dl_result_syms(result);
	w.steps_left = result->session->budgets[MAELYS_DATALOG_BUDGET_STEPS];
	dl_whynot_search(&w, fr, 0);
	dl_free(fr);
	dl_recache_free(w.recache);
	if (w.st != MAELYS_DATALOG_STATUS_OK) {
		*head_matches = 0;
		return w.st;
	}
	if (w.type_error && w.deepest == w.rule->nbody)
		return w.poison_st != MAELYS_DATALOG_STATUS_OK
			   ? w.poison_st
			   : MAELYS_DATALOG_STATUS_TYPE;
	*failed_literal = w.deepest;
	return MAELYS_DATALOG_STATUS_OK;
}
