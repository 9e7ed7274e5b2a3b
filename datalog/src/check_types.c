/* SPDX-License-Identifier: MIT */
/*
 * The typing of one clause (dl_types.h).  First the kinds: every variable,
 * literal and arithmetic term gets one of number, unsigned, float or
 * symbol, by unification over the columns it appears in and the operators
 * that combine it (a union-find over the clause's terms); two kinds meeting
 * is a load error (Souffle's "unable to deduce type"), and a plain numeric
 * literal takes the kind of its context, number when nothing decides.
 * Then, when the program declares types, Souffle's subtype rules over type
 * sets: a positive body atom narrows a variable to its column's type, and a
 * head or negated atom must receive a subtype of its column's type.
 */
#include "dl_types.h"

#include "dl_agg.h"
#include "dl_functor.h"

#include "dl_mem.h"
#include "dl_numeric.h"
#include "dl_program.h"
#include "dl_record.h"

#include <string.h>

#define DL_TRY_TC(expr)                                                        \
	do {                                                                   \
		maelys_datalog_status_t try_st_ = (expr);                      \
		if (try_st_ != MAELYS_DATALOG_STATUS_OK)                       \
			return try_st_;                                        \
	} while (0)

struct dl_slot {
	uint32_t parent;
	uint8_t kind; /* maelys_datalog_column_type_t; ANY: open */
	bool numeric; /* must be number, unsigned or float */
	const struct dl_ast_term *term; /* a term of the class, for messages */
};

struct dl_rule_types {
	struct dl_slot *slots;
	uint32_t nslots, cap;
	/* term pointer -> slot: open addressing, 0 empty (slot + 1) */
	const struct dl_ast_term **keys;
	uint32_t *vals;
	uint32_t nkeys; /* a power of two */
	uint32_t nused; /* keys set, at most half of nkeys */
	/* variables by name */
	const char *var_names[DL_VARS_MAX];
	size_t var_lens[DL_VARS_MAX];
	uint32_t var_slot[DL_VARS_MAX];
	uint32_t nvars;
};

struct dl_tyck {
	bool souffle; /* Souffle's syntax: comparisons unify their sides */
	const struct dl_typeenv *env;
	const struct dl_program *prog;
	const struct dl_ast_clause *c;
	const char *source;
	maelys_datalog_diagnostic_t *diag;
	struct dl_rule_types *rt;
};

static maelys_datalog_status_t
dl_tc_nomem(struct dl_tyck *tc)
{
	return dl_fail(tc->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
		       "out of memory while typing a rule");
}

static const char *
dl_tc_kind_name(unsigned k)
{
	switch (k) {
	case MAELYS_DATALOG_COLUMN_SYMBOL:
		return "a symbol";
	case MAELYS_DATALOG_COLUMN_NUMBER:
		return "a number";
	case MAELYS_DATALOG_COLUMN_UNSIGNED:
		return "an unsigned";
	case MAELYS_DATALOG_COLUMN_FLOAT:
		return "a float";
	case MAELYS_DATALOG_COLUMN_RECORD:
		return "a record";
	default:
		return "untyped";
	}
}

static uint32_t
dl_tc_find(struct dl_rule_types *rt, uint32_t s)
{
	while (rt->slots[s].parent != s) {
		rt->slots[s].parent = rt->slots[rt->slots[s].parent].parent;
		s = rt->slots[s].parent;
	}
	return s;
}

static size_t
dl_tc_hash(const struct dl_ast_term *t, uint32_t n)
{
	return (size_t)(((uint64_t)(uintptr_t)t * 0x9E3779B97F4A7C15ull) >>
			32) &
	       (n - 1);
}

static maelys_datalog_status_t
dl_tc_map(struct dl_tyck *tc, const struct dl_ast_term *t, uint32_t slot)
{
	struct dl_rule_types *rt = tc->rt;
	size_t h;

	if (rt->nused >= UINT32_MAX / 4)
		return dl_fail(tc->diag, MAELYS_DATALOG_STATUS_LIMIT,
			       "a rule too large to type");
	if ((rt->nused + 1) * 2 > rt->nkeys) {
		uint32_t n = rt->nkeys == 0 ? 64 : rt->nkeys * 2, i;
		const struct dl_ast_term **keys = dl_calloc(n, sizeof *keys);
		uint32_t *vals = dl_calloc(n, sizeof *vals);

		if (keys == NULL || vals == NULL) {
			dl_free(keys);
			dl_free(vals);
			return dl_tc_nomem(tc);
		}
		for (i = 0; i < rt->nkeys; i++) {
			if (rt->keys[i] == NULL)
				continue;
			h = dl_tc_hash(rt->keys[i], n);
			while (keys[h] != NULL)
				h = (h + 1) & (n - 1);
			keys[h] = rt->keys[i];
			vals[h] = rt->vals[i];
		}
		dl_free(rt->keys);
		dl_free(rt->vals);
		rt->keys = keys;
		rt->vals = vals;
		rt->nkeys = n;
	}
	h = dl_tc_hash(t, rt->nkeys);
	while (rt->keys[h] != NULL && rt->keys[h] != t)
		h = (h + 1) & (rt->nkeys - 1);
	if (rt->keys[h] == NULL)
		rt->nused++;
	rt->keys[h] = t;
	rt->vals[h] = slot;
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_tc_new(struct dl_tyck *tc, const struct dl_ast_term *t, unsigned kind,
	  bool numeric, uint32_t *out)
{
	struct dl_rule_types *rt = tc->rt;
	size_t cap = rt->cap;
	struct dl_slot *s;

	if (rt->nslots == UINT32_MAX / 4)
		return dl_fail(tc->diag, MAELYS_DATALOG_STATUS_LIMIT,
			       "a rule too large to type");
	if (dl_vec_reserve((void **)&rt->slots, &cap, rt->nslots + 1,
			   sizeof *rt->slots) != 0)
		return dl_tc_nomem(tc);
	rt->cap = (uint32_t)cap;
	s = &rt->slots[rt->nslots];
	s->parent = rt->nslots;
	s->kind = (uint8_t)kind;
	s->numeric = numeric;
	s->term = t;
	*out = rt->nslots++;
	return MAELYS_DATALOG_STATUS_OK;
}

/* The variable or term t a kind conflict is about, for the message. */
static maelys_datalog_status_t
dl_tc_conflict(struct dl_tyck *tc, const struct dl_ast_term *at, unsigned a,
	       unsigned b)
{
	if (at != NULL && at->kind == DL_TERM_VAR)
		return dl_fail_at(tc->diag, MAELYS_DATALOG_STATUS_TYPE,
				  tc->source, at->pos,
				  "unable to deduce the type of variable %.*s: "
				  "it is %s and %s",
				  (int)at->len, at->text, dl_tc_kind_name(a),
				  dl_tc_kind_name(b));
	return dl_fail_at(tc->diag, MAELYS_DATALOG_STATUS_TYPE, tc->source,
			  at != NULL ? at->pos : tc->c->pos,
			  "type mismatch: a term that is %s is used as %s "
			  "(convert it with to_number, to_float, "
			  "to_unsigned and the like)",
			  dl_tc_kind_name(a), dl_tc_kind_name(b));
}

/* Whether a class of kind k may hold a numeric term (a symbol, a record
 * may not). */
static bool
dl_tc_may_be_numeric(unsigned k)
{
	return k != MAELYS_DATALOG_COLUMN_SYMBOL &&
	       k != MAELYS_DATALOG_COLUMN_RECORD;
}

/* Merges the classes of a and b; `at` is the term where they meet. */
static maelys_datalog_status_t
dl_tc_unify(struct dl_tyck *tc, uint32_t a, uint32_t b,
	    const struct dl_ast_term *at)
{
	struct dl_rule_types *rt = tc->rt;
	struct dl_slot *x, *y;
	unsigned k;

	a = dl_tc_find(rt, a);
	b = dl_tc_find(rt, b);
	if (a == b)
		return MAELYS_DATALOG_STATUS_OK;
	x = &rt->slots[a];
	y = &rt->slots[b];
	if (x->kind != MAELYS_DATALOG_COLUMN_ANY &&
	    y->kind != MAELYS_DATALOG_COLUMN_ANY && x->kind != y->kind)
		return dl_tc_conflict(
		    tc,
		    x->term != NULL && x->term->kind == DL_TERM_VAR ? x->term
								    : at,
		    x->kind, y->kind);
	k = x->kind != MAELYS_DATALOG_COLUMN_ANY ? x->kind : y->kind;
	if ((x->numeric || y->numeric) && !dl_tc_may_be_numeric(k))
		return dl_tc_conflict(
		    tc,
		    x->term != NULL && x->term->kind == DL_TERM_VAR ? x->term
								    : at,
		    k, MAELYS_DATALOG_COLUMN_NUMBER);
	y->parent = a;
	x->kind = (uint8_t)k;
	x->numeric = x->numeric || y->numeric;
	if (x->term == NULL || x->term->kind != DL_TERM_VAR)
		x->term = y->term;
	return MAELYS_DATALOG_STATUS_OK;
}

/* Constrains slot s to kind (ANY: nothing). */
static maelys_datalog_status_t
dl_tc_kind(struct dl_tyck *tc, uint32_t s, unsigned kind,
	   const struct dl_ast_term *at)
{
	uint32_t k;

	if (kind == MAELYS_DATALOG_COLUMN_ANY)
		return MAELYS_DATALOG_STATUS_OK;
	DL_TRY_TC(dl_tc_new(tc, at, kind, false, &k));
	return dl_tc_unify(tc, s, k, at);
}

static maelys_datalog_status_t
dl_tc_var(struct dl_tyck *tc, const struct dl_ast_term *t, uint32_t *out)
{
	struct dl_rule_types *rt = tc->rt;
	uint32_t i;

	for (i = 0; i < rt->nvars; i++) {
		if (rt->var_lens[i] == t->len &&
		    memcmp(rt->var_names[i], t->text, t->len) == 0) {
			*out = rt->var_slot[i];
			return MAELYS_DATALOG_STATUS_OK;
		}
	}
	if (rt->nvars == DL_VARS_MAX)
		return dl_fail_at(
		    tc->diag, MAELYS_DATALOG_STATUS_LIMIT, tc->source, t->pos,
		    "more than %zu variables in one rule", DL_VARS_MAX);
	DL_TRY_TC(dl_tc_new(tc, t, MAELYS_DATALOG_COLUMN_ANY, false, out));
	rt->var_names[rt->nvars] = t->text;
	rt->var_lens[rt->nvars] = t->len;
	rt->var_slot[rt->nvars++] = *out;
	return MAELYS_DATALOG_STATUS_OK;
}

/* A conversion's operand and result kinds (ANY operand: any numeric). */
static void
dl_tc_conversion(enum dl_arith_op op, unsigned *in, unsigned *res)
{
	switch (op) {
	case DL_ARITH_ITOF:
		*in = MAELYS_DATALOG_COLUMN_NUMBER;
		*res = MAELYS_DATALOG_COLUMN_FLOAT;
		break;
	case DL_ARITH_ITOU:
		*in = MAELYS_DATALOG_COLUMN_NUMBER;
		*res = MAELYS_DATALOG_COLUMN_UNSIGNED;
		break;
	case DL_ARITH_UTOI:
		*in = MAELYS_DATALOG_COLUMN_UNSIGNED;
		*res = MAELYS_DATALOG_COLUMN_NUMBER;
		break;
	case DL_ARITH_UTOF:
		*in = MAELYS_DATALOG_COLUMN_UNSIGNED;
		*res = MAELYS_DATALOG_COLUMN_FLOAT;
		break;
	case DL_ARITH_FTOI:
		*in = MAELYS_DATALOG_COLUMN_FLOAT;
		*res = MAELYS_DATALOG_COLUMN_NUMBER;
		break;
	case DL_ARITH_FTOU:
		*in = MAELYS_DATALOG_COLUMN_FLOAT;
		*res = MAELYS_DATALOG_COLUMN_UNSIGNED;
		break;
	case DL_ARITH_TO_FLOAT:
		*in = MAELYS_DATALOG_COLUMN_ANY;
		*res = MAELYS_DATALOG_COLUMN_FLOAT;
		break;
	case DL_ARITH_TO_NUMBER:
		*in = MAELYS_DATALOG_COLUMN_ANY;
		*res = MAELYS_DATALOG_COLUMN_NUMBER;
		break;
	case DL_ARITH_TO_UNSIGNED:
		*in = MAELYS_DATALOG_COLUMN_ANY;
		*res = MAELYS_DATALOG_COLUMN_UNSIGNED;
		break;
	default:
		*in = *res = MAELYS_DATALOG_COLUMN_ANY;
		break;
	}
}

static bool
dl_tc_is_conversion(enum dl_arith_op op)
{
	return op >= DL_ARITH_ITOF;
}

static maelys_datalog_status_t
dl_tc_term(struct dl_tyck *tc, const struct dl_ast_term *t, uint32_t *out);
static maelys_datalog_status_t dl_tc_lit(struct dl_tyck *tc,
					 const struct dl_ast_lit *l);

static maelys_datalog_status_t dl_tc_term_in(struct dl_tyck *tc,
					     const struct dl_ast_term *t,
					     uint32_t rtype, uint32_t *out);

/* A record, ADT or nil term: of the record kind; its fields typed, and of
 * their field's kind when its type is seen here - an ADT's branch names
 * it, a column of record type `rtype` (DL_NONE: none) or the field of an
 * enclosing record gives it - so that 1 in a float field is 1.0 and a
 * float field's variable compares as a float.  A record whose type only
 * check_record.c's inference finds (r = [x, y]) keeps its fields' own
 * kinds: dl_rc_field_kind refuses it when they matter. */
static maelys_datalog_status_t
dl_tc_record(struct dl_tyck *tc, const struct dl_ast_term *t, uint32_t rtype,
	     uint32_t *out)
{
	const struct dl_program *p = tc->prog;
	const struct dl_rbranch *b = NULL;
	uint32_t i, a, branch = 0;

	if (t->kind == DL_TERM_NIL)
		return dl_tc_new(tc, t, MAELYS_DATALOG_COLUMN_RECORD, false,
				 out);
	if (t->kind == DL_TERM_ADT &&
	    !dl_record_branch_find(p, t->rec->branch, t->rec->branch_len,
				   &rtype, &branch))
		rtype = DL_NONE; /* the checker says why */
	if (rtype != DL_NONE && rtype < p->nrtypes &&
	    p->rtypes[rtype].adt == (t->kind == DL_TERM_ADT) &&
	    p->rtypes[rtype].branches[branch].nfields == t->rec->nargs)
		b = &p->rtypes[rtype].branches[branch];
	for (i = 0; i < t->rec->nargs; i++) {
		const struct dl_ast_term *f = &t->rec->args[i];

		DL_TRY_TC(dl_tc_term_in(tc, f,
					b != NULL ? b->fields[i].rtype
						  : DL_NONE,
					&a));
		if (b != NULL)
			DL_TRY_TC(dl_tc_kind(tc, a, b->fields[i].base, f));
	}
	return dl_tc_new(tc, t, MAELYS_DATALOG_COLUMN_RECORD, false, out);
}

/* An aggregate: its body typed with the clause (Souffle's aggregate body
 * shares the names grounded around it); count is a number, mean a float,
 * sum, min and max of the kind of the term they fold. */
static maelys_datalog_status_t
dl_tc_agg(struct dl_tyck *tc, const struct dl_ast_agg *g, uint32_t *out)
{
	uint32_t a, b, nvars = tc->rt->nvars;
	size_t i;

	for (i = 0; i < g->nbody; i++)
		DL_TRY_TC(dl_tc_lit(tc, &g->body[i]));
	if (!g->has_value) {
		tc->rt->nvars = nvars;
		return dl_tc_new(tc, NULL, MAELYS_DATALOG_COLUMN_NUMBER, true,
				 out);
	}
	DL_TRY_TC(dl_tc_term(tc, &g->value, &a));
	/* a name first written inside is the aggregate's own (mostly: the
	 * checker's dl_names has Souffle's exact rule): forgotten after it,
	 * so that two aggregates' own X may differ in kind */
	tc->rt->nvars = nvars;
	if (g->op == DL_AGG_MEAN) {
		DL_TRY_TC(dl_tc_new(tc, &g->value, MAELYS_DATALOG_COLUMN_ANY,
				    true, &b));
		DL_TRY_TC(dl_tc_unify(tc, b, a, &g->value));
		return dl_tc_new(tc, NULL, MAELYS_DATALOG_COLUMN_FLOAT, true,
				 out);
	}
	DL_TRY_TC(
	    dl_tc_new(tc, &g->value, MAELYS_DATALOG_COLUMN_ANY, true, out));
	return dl_tc_unify(tc, *out, a, &g->value);
}

/* The column kind of a functor's slot kind (enum dl_fn_kind). */
static unsigned
dl_tc_fn_kind(uint8_t k)
{
	return k == DL_FK_STRING   ? MAELYS_DATALOG_COLUMN_SYMBOL
	       : k == DL_FK_NUMBER ? MAELYS_DATALOG_COLUMN_NUMBER
				   : MAELYS_DATALOG_COLUMN_ANY;
}

/* A functor call (dl_functor.h): its number arguments and results are
 * numbers (the functors compute on int64: an unsigned or a float there
 * is a type error, not a wrong value), min and max of one kind over all
 * their arguments, as() of the type it names; to_number of a float or an
 * unsigned is the conversion (the checker's choice, by the kinds). */
static maelys_datalog_status_t
dl_tc_call(struct dl_tyck *tc, const struct dl_ast_term *t, uint32_t *out)
{
	const struct dl_ast_expr *e = t->expr;
	enum dl_functor f = (enum dl_functor)e->functor;
	const struct dl_functor_sig *sig = dl_functor_sig(f);
	uint32_t i, a;

	if (f == DL_FN_AS) {
		for (i = 0; i < e->nargs; i++) {
			DL_TRY_TC(dl_tc_term(tc, &e->args[i], &a));
			/* a plain numeric literal takes the type it is cast
			 * to: as(2, float) is 2.0, as in Souffle */
			if (e->args[i].kind == DL_TERM_INT &&
			    e->args[i].numkind == DL_NUM_POLY &&
			    (e->as_type == MAELYS_DATALOG_COLUMN_FLOAT ||
			     e->as_type == MAELYS_DATALOG_COLUMN_UNSIGNED ||
			     e->as_type == MAELYS_DATALOG_COLUMN_NUMBER))
				DL_TRY_TC(dl_tc_kind(tc, a, e->as_type,
						     &e->args[i]));
		}
		return dl_tc_new(tc, t, e->as_type,
				 e->as_type != MAELYS_DATALOG_COLUMN_SYMBOL &&
				     e->as_type !=
					 MAELYS_DATALOG_COLUMN_RECORD &&
				     e->as_type != MAELYS_DATALOG_COLUMN_ANY,
				 out);
	}
	if (f == DL_FN_TO_NUMBER || f == DL_FN_TO_STRING || f == DL_FN_ORD) {
		/* polymorphic in their operand, as Souffle's: to_number of
		 * a string reads it, of a number is it; to_string of a string
		 * is it, of a number writes it; ord of anything is a number
		 * (check.c: dl_ck_ord_code) */
		for (i = 0; i < e->nargs; i++)
			DL_TRY_TC(dl_tc_term(tc, &e->args[i], &a));
		return f != DL_FN_TO_STRING
			   ? dl_tc_new(tc, t, MAELYS_DATALOG_COLUMN_NUMBER,
				       true, out)
			   : dl_tc_new(tc, t, MAELYS_DATALOG_COLUMN_SYMBOL,
				       false, out);
	}
	if (sig->result == DL_FK_SAME || f == DL_FN_RANGE) {
		/* min, max: of one type, any; range: its values and
		 * arguments of one numeric type, number, unsigned or float
		 * (check.c picks the generator) */
		DL_TRY_TC(dl_tc_new(tc, t, MAELYS_DATALOG_COLUMN_ANY,
				    f == DL_FN_RANGE, out));
		for (i = 0; i < e->nargs; i++) {
			DL_TRY_TC(dl_tc_term(tc, &e->args[i], &a));
			/* (the native dialect's: see below) */
			if (tc->souffle)
				DL_TRY_TC(
				    dl_tc_unify(tc, *out, a, &e->args[i]));
		}
		return MAELYS_DATALOG_STATUS_OK;
	}
	for (i = 0; i < e->nargs; i++) {
		unsigned k = dl_tc_fn_kind(i == 0 ? sig->first : sig->arg);

		DL_TRY_TC(dl_tc_term(tc, &e->args[i], &a));
		/* the native dialect's values are untyped: the checker's own
		 * kinds (dl_ck_var_kind) judge a functor's arguments there */
		if (tc->souffle)
			DL_TRY_TC(dl_tc_kind(tc, a, k, &e->args[i]));
	}
	return dl_tc_new(tc, t, dl_tc_fn_kind(sig->result),
			 sig->result == DL_FK_NUMBER, out);
}

/* The slot of term t, its subterms typed (recursion bounded by the
 * parser's DL_EXPR_DEPTH_MAX); a record term in a place of record type
 * rtype (DL_NONE: none known). */
static maelys_datalog_status_t
dl_tc_term_in(struct dl_tyck *tc, const struct dl_ast_term *t, uint32_t rtype,
	      uint32_t *out)
{
	uint32_t a, b;

	switch (t->kind) {
	case DL_TERM_VAR:
		DL_TRY_TC(dl_tc_var(tc, t, out));
		break;
	case DL_TERM_ANON:
		DL_TRY_TC(
		    dl_tc_new(tc, t, MAELYS_DATALOG_COLUMN_ANY, false, out));
		break;
	case DL_TERM_SYMBOL:
		DL_TRY_TC(
		    dl_tc_new(tc, t, MAELYS_DATALOG_COLUMN_SYMBOL, false, out));
		break;
	case DL_TERM_INT:
		DL_TRY_TC(dl_tc_new(tc, t,
				    t->numkind == DL_NUM_FLOAT
					? MAELYS_DATALOG_COLUMN_FLOAT
				    : t->numkind == DL_NUM_UNSIGNED
					? MAELYS_DATALOG_COLUMN_UNSIGNED
					: MAELYS_DATALOG_COLUMN_ANY,
				    true, out));
		break;
	case DL_TERM_RECORD:
	case DL_TERM_ADT:
	case DL_TERM_NIL:
		/* the record is a record; its fields of their field's kind
		 * when its type is seen (dl_tc_record) */
		DL_TRY_TC(dl_tc_record(tc, t, rtype, out));
		break;
	case DL_TERM_AGG:
		DL_TRY_TC(dl_tc_agg(tc, t->agg, out));
		break;
	case DL_TERM_EXPR: {
		enum dl_arith_op op = t->expr->op;

		if (op == DL_ARITH_CALL) {
			DL_TRY_TC(dl_tc_call(tc, t, out));
			break;
		}
		DL_TRY_TC(dl_tc_term(tc, &t->expr->lhs, &a));
		if (dl_tc_is_conversion(op)) {
			unsigned in, res;

			dl_tc_conversion(op, &in, &res);
			DL_TRY_TC(dl_tc_new(tc, t, in, true, &b));
			DL_TRY_TC(dl_tc_unify(tc, b, a, &t->expr->lhs));
			DL_TRY_TC(dl_tc_new(tc, t, res, true, out));
			break;
		}
		/* Souffle's `+` is polymorphic: of two symbols it joins
		 * them (check.c reads it as cat), so in its syntax a sum
		 * is not numeric by itself: its operands say which */
		DL_TRY_TC(dl_tc_new(tc, t, MAELYS_DATALOG_COLUMN_ANY,
				    !(tc->souffle && op == DL_ARITH_ADD), out));
		DL_TRY_TC(dl_tc_unify(tc, *out, a, &t->expr->lhs));
		if (!dl_arith_unary(op)) {
			DL_TRY_TC(dl_tc_term(tc, &t->expr->rhs, &b));
			DL_TRY_TC(dl_tc_unify(tc, *out, b, &t->expr->rhs));
		}
		break;
	}
	}
	return dl_tc_map(tc, t, *out);
}

static maelys_datalog_status_t
dl_tc_term(struct dl_tyck *tc, const struct dl_ast_term *t, uint32_t *out)
{
	return dl_tc_term_in(tc, t, DL_NONE, out);
}

static maelys_datalog_status_t
dl_tc_atom(struct dl_tyck *tc, const struct dl_ast_atom *a)
{
	uint32_t pid = dl_program_find_pred(tc->prog, a->name, a->name_len);
	const struct dl_pred *p;
	uint32_t s;
	size_t k;

	if (pid == DL_NONE || tc->prog->preds[pid].arity != a->nargs) {
		for (k = 0; k < a->nargs; k++)
			DL_TRY_TC(dl_tc_term(tc, &a->args[k], &s));
		return MAELYS_DATALOG_STATUS_OK; /* the checker says why */
	}
	p = &tc->prog->preds[pid];
	for (k = 0; k < a->nargs; k++) {
		DL_TRY_TC(dl_tc_term_in(tc, &a->args[k],
					p->columns[k] ==
						MAELYS_DATALOG_COLUMN_RECORD
					    ? p->rtypes[k]
					    : DL_NONE,
					&s));
		DL_TRY_TC(dl_tc_kind(tc, s, p->columns[k], &a->args[k]));
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* Whether the classes of a and b may be one (no two kinds). */
static bool
dl_tc_compatible(struct dl_rule_types *rt, uint32_t a, uint32_t b)
{
	const struct dl_slot *x = &rt->slots[dl_tc_find(rt, a)];
	const struct dl_slot *y = &rt->slots[dl_tc_find(rt, b)];
	unsigned k = x->kind != MAELYS_DATALOG_COLUMN_ANY ? x->kind : y->kind;

	if (x->kind != MAELYS_DATALOG_COLUMN_ANY &&
	    y->kind != MAELYS_DATALOG_COLUMN_ANY && x->kind != y->kind)
		return false;
	return !((x->numeric || y->numeric) && !dl_tc_may_be_numeric(k));
}

/* The native dialect's comparison: its sides share a kind when neither is
 * a symbol (a string compared with a number is merely false there). */
static bool
dl_tc_numeric_pair(struct dl_rule_types *rt, uint32_t a, uint32_t b)
{
	const struct dl_slot *x = &rt->slots[dl_tc_find(rt, a)];
	const struct dl_slot *y = &rt->slots[dl_tc_find(rt, b)];

	return x->kind != MAELYS_DATALOG_COLUMN_SYMBOL &&
	       y->kind != MAELYS_DATALOG_COLUMN_SYMBOL &&
	       dl_tc_compatible(rt, a, b);
}

/* The kinds of the terms of one literal (of the clause's body or of an
 * aggregate's). */
static maelys_datalog_status_t
dl_tc_lit(struct dl_tyck *tc, const struct dl_ast_lit *l)
{
	uint32_t a, b;
	size_t k;

	if (l->kind == DL_LIT_ATOM)
		return dl_tc_atom(tc, &l->atom);
	if (l->kind == DL_LIT_CMP) {
		DL_TRY_TC(dl_tc_term(tc, &l->lhs, &a));
		DL_TRY_TC(dl_tc_term(tc, &l->rhs, &b));
		/* the native dialect compares any two values (a string
		 * never equals a number): its sides share a type only when
		 * they can */
		if (tc->souffle || dl_tc_numeric_pair(tc->rt, a, b))
			DL_TRY_TC(dl_tc_unify(tc, a, b, &l->rhs));
		return MAELYS_DATALOG_STATUS_OK;
	}
	for (k = 0; k < l->atom.nargs; k++)
		DL_TRY_TC(dl_tc_term(tc, &l->atom.args[k], &a));
	return MAELYS_DATALOG_STATUS_OK;
}

/* The kinds of every term of the clause. */
static maelys_datalog_status_t
dl_tc_kinds(struct dl_tyck *tc)
{
	const struct dl_ast_clause *c = tc->c;
	size_t i;

	for (i = 0; i < c->nbody; i++)
		DL_TRY_TC(dl_tc_lit(tc, &c->body[i]));
	return dl_tc_atom(tc, &c->head);
}

static bool
dl_tc_lookup(const struct dl_rule_types *rt, const struct dl_ast_term *t,
	     uint32_t *slot)
{
	size_t h;

	if (rt->nkeys == 0)
		return false;
	h = dl_tc_hash(t, rt->nkeys);
	while (rt->keys[h] != NULL) {
		if (rt->keys[h] == t) {
			*slot = rt->vals[h];
			return true;
		}
		h = (h + 1) & (rt->nkeys - 1);
	}
	return false;
}

maelys_datalog_column_type_t
dl_rule_types_kind(const struct dl_rule_types *rt, const struct dl_ast_term *t)
{
	const struct dl_slot *s;
	uint32_t slot;

	if (rt == NULL || !dl_tc_lookup(rt, t, &slot))
		return MAELYS_DATALOG_COLUMN_ANY;
	while (rt->slots[slot].parent != slot)
		slot = rt->slots[slot].parent;
	s = &rt->slots[slot];
	if (s->kind == MAELYS_DATALOG_COLUMN_ANY && s->numeric)
		return MAELYS_DATALOG_COLUMN_NUMBER;
	return (maelys_datalog_column_type_t)s->kind;
}

/* ------------------------------------------------------------------ */
/* Subtypes                                                             */

/* The type set of each variable (by its index in rt->var_*). */
struct dl_tc_sets {
	struct dl_tyset set[DL_VARS_MAX];
};

static int
dl_tc_var_index(const struct dl_rule_types *rt, const struct dl_ast_term *t)
{
	uint32_t i;

	for (i = 0; i < rt->nvars; i++)
		if (rt->var_lens[i] == t->len &&
		    memcmp(rt->var_names[i], t->text, t->len) == 0)
			return (int)i;
	return -1;
}

/* Narrows the sets by one atom: a positive body atom to its columns'
 * types, a head or negated atom (a sink) to their roots.  Returns whether
 * a set changed. */
static bool
dl_tc_narrow_atom(struct dl_tyck *tc, struct dl_tc_sets *ts,
		  const struct dl_ast_atom *a, bool sink)
{
	uint32_t pid = dl_program_find_pred(tc->prog, a->name, a->name_len);
	bool changed = false;
	size_t k;

	if (pid == DL_NONE)
		return false;
	for (k = 0; k < a->nargs; k++) {
		uint16_t t = dl_types_column(tc->env, pid, k);
		struct dl_tyset before;
		int v;

		if (t == DL_TY_NONE || a->args[k].kind != DL_TERM_VAR)
			continue;
		v = dl_tc_var_index(tc->rt, &a->args[k]);
		if (v < 0)
			continue;
		before = ts->set[v];
		/* a record or ADT type has no root but itself */
		dl_types_meet(
		    tc->env, &ts->set[v],
		    sink && tc->prog->preds[pid].columns[k] !=
				MAELYS_DATALOG_COLUMN_RECORD
			? dl_types_root(tc->prog->preds[pid].columns[k])
			: t);
		if (memcmp(&before, &ts->set[v], sizeof before) != 0)
			changed = true;
	}
	return changed;
}

/* A head or positive atom receives, in each typed column, a subtype of
 * the column's type (or a root type, what a literal or a computed value
 * is): Souffle's "atom's argument type is not a subtype of its declared
 * type". */
static maelys_datalog_status_t
dl_tc_check_sink(struct dl_tyck *tc, struct dl_tc_sets *ts,
		 const struct dl_ast_atom *a)
{
	uint32_t pid = dl_program_find_pred(tc->prog, a->name, a->name_len);
	size_t k, x;

	if (pid == DL_NONE)
		return MAELYS_DATALOG_STATUS_OK;
	for (k = 0; k < a->nargs; k++) {
		uint16_t t = dl_types_column(tc->env, pid, k);
		const struct dl_tyset *s;
		int v;

		if (t == DL_TY_NONE || a->args[k].kind != DL_TERM_VAR)
			continue;
		v = dl_tc_var_index(tc->rt, &a->args[k]);
		if (v < 0 || ts->set[v].all)
			continue;
		s = &ts->set[v];
		for (x = 0; x < DL_TY_COUNT_MAX; x++) {
			uint16_t y = (uint16_t)x;

			if (!((s->bits[x / 64] >> (x % 64)) & 1u))
				continue;
			if (dl_types_subtype(tc->env, y, t) ||
			    (dl_types_subtype(tc->env, t, y) &&
			     dl_types_is_root(y)))
				continue;
			return dl_fail_at(
			    tc->diag, MAELYS_DATALOG_STATUS_TYPE, tc->source,
			    a->args[k].pos,
			    "variable %.*s is of type %s, not a subtype of "
			    "%s, the type of column %zu of '%s'",
			    (int)a->args[k].len, a->args[k].text,
			    dl_types_name(tc->env, y),
			    dl_types_name(tc->env, t), k + 1, a->name);
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_tc_subtypes(struct dl_tyck *tc)
{
	const struct dl_ast_clause *c = tc->c;
	struct dl_rule_types *rt = tc->rt;
	struct dl_tc_sets *ts;
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_OK;
	bool changed = true;
	size_t i, rounds = 0;
	uint32_t v;

	ts = dl_calloc(1, sizeof *ts);
	if (ts == NULL)
		return dl_tc_nomem(tc);
	for (v = 0; v < rt->nvars; v++)
		ts->set[v].all = true;
	/* every round narrows a set or stops; a set narrows at most once per
	 * type, so this ends */
	while (changed && rounds++ < (size_t)DL_TY_COUNT_MAX * DL_VARS_MAX) {
		changed = dl_tc_narrow_atom(tc, ts, &c->head, true);
		for (i = 0; i < c->nbody; i++) {
			const struct dl_ast_lit *l = &c->body[i];
			struct dl_tyset before;
			int a, b;

			if (l->kind == DL_LIT_ATOM) {
				changed |= dl_tc_narrow_atom(tc, ts, &l->atom,
							     l->negated);
				continue;
			}
			if (l->kind != DL_LIT_CMP ||
			    l->lhs.kind != DL_TERM_VAR ||
			    l->rhs.kind != DL_TERM_VAR)
				continue;
			a = dl_tc_var_index(rt, &l->lhs);
			b = dl_tc_var_index(rt, &l->rhs);
			if (a < 0 || b < 0)
				continue;
			before = ts->set[a];
			dl_types_meet_set(tc->env, &ts->set[a], &ts->set[b]);
			changed |= memcmp(&before, &ts->set[a], sizeof before);
			before = ts->set[b];
			dl_types_meet_set(tc->env, &ts->set[b], &ts->set[a]);
			changed |= memcmp(&before, &ts->set[b], sizeof before);
		}
	}
	for (v = 0; v < rt->nvars && st == MAELYS_DATALOG_STATUS_OK; v++) {
		const struct dl_tyset *s = &ts->set[v];
		size_t w;
		bool empty = !s->all;

		for (w = 0; w < DL_TYSET_WORDS && empty; w++)
			empty = s->bits[w] == 0;
		if (empty)
			st = dl_fail_at(
			    tc->diag, MAELYS_DATALOG_STATUS_TYPE, tc->source,
			    rt->slots[rt->var_slot[v]].term->pos,
			    "unable to deduce the type of variable %.*s: the "
			    "types of its columns have no common subtype",
			    (int)rt->var_lens[v], rt->var_names[v]);
	}
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_tc_check_sink(tc, ts, &c->head);
	for (i = 0; i < c->nbody && st == MAELYS_DATALOG_STATUS_OK; i++)
		if (c->body[i].kind == DL_LIT_ATOM && !c->body[i].negated)
			st = dl_tc_check_sink(tc, ts, &c->body[i].atom);
	dl_free(ts);
	return st;
}

maelys_datalog_status_t
dl_rule_types_infer(const struct dl_typeenv *env, const struct dl_program *prog,
		    const struct dl_ast_clause *c, bool souffle,
		    const char *source, struct dl_rule_types **out,
		    maelys_datalog_diagnostic_t *diag)
{
	struct dl_tyck tc;
	maelys_datalog_status_t st;

	*out = NULL;
	memset(&tc, 0, sizeof tc);
	tc.souffle = souffle;
	tc.env = env;
	tc.prog = prog;
	tc.c = c;
	tc.source = source;
	tc.diag = diag;
	tc.rt = dl_calloc(1, sizeof *tc.rt);
	if (tc.rt == NULL)
		return dl_tc_nomem(&tc);
	st = dl_tc_kinds(&tc);
	/* without .type declarations, the kinds decide everything */
	if (st == MAELYS_DATALOG_STATUS_OK && env != NULL &&
	    dl_types_count(env) > DL_TY_USER)
		st = dl_tc_subtypes(&tc);
	if (st != MAELYS_DATALOG_STATUS_OK &&
	    st != MAELYS_DATALOG_STATUS_TYPE) {
		dl_rule_types_free(tc.rt);
		return st;
	}
	*out = tc.rt;
	return st;
}

void
dl_rule_types_free(struct dl_rule_types *rt)
{
	if (rt == NULL)
		return;
	dl_free(rt->slots);
	dl_free(rt->keys);
	dl_free(rt->vals);
	dl_free(rt);
}

maelys_datalog_status_t
dl_types_literal(int64_t v, uint8_t numkind, maelys_datalog_column_type_t kind,
		 int64_t *out, const char **why)
{
	*out = v;
	switch (kind) {
	case MAELYS_DATALOG_COLUMN_FLOAT:
		if (numkind == DL_NUM_UNSIGNED) {
			*why = "an unsigned literal where a float is expected";
			return MAELYS_DATALOG_STATUS_TYPE;
		}
		if (numkind == DL_NUM_POLY)
			*out = dl_float_bits((double)v);
		return MAELYS_DATALOG_STATUS_OK;
	case MAELYS_DATALOG_COLUMN_UNSIGNED:
		if (numkind == DL_NUM_FLOAT) {
			*why = "a float literal where an unsigned is expected";
			return MAELYS_DATALOG_STATUS_TYPE;
		}
		return MAELYS_DATALOG_STATUS_OK;
	case MAELYS_DATALOG_COLUMN_SYMBOL:
		*why = "a numeric literal where a symbol is expected";
		return MAELYS_DATALOG_STATUS_TYPE;
	default:
		if (numkind == DL_NUM_FLOAT) {
			*why = "a float literal where a number is expected";
			return MAELYS_DATALOG_STATUS_TYPE;
		}
		if (numkind == DL_NUM_UNSIGNED) {
			*why = "an unsigned literal where a number is "
			       "expected";
			return MAELYS_DATALOG_STATUS_TYPE;
		}
		return MAELYS_DATALOG_STATUS_OK;
	}
}
