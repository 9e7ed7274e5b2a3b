/* SPDX-License-Identifier: MIT */
/*
 * Souffle's `inline`, done: every positive use of an inlined relation in a
 * rule is replaced by the bodies of that relation's clauses (its variables
 * renamed apart, its head unified with the use by equalities), one rule per
 * clause; a relation no rule uses any more is then not evaluated at all.  A
 * program gets the same answers either way (dl_relq.h evaluates a relation
 * that is not inlined as any other), but a relation meant to be inlined
 * can be far larger than its uses (every pair of numbers, read for x = y
 * only), so it is not computed whole.
 *
 * What is not unfolded stays as written and is evaluated: a negated use,
 * a use in an inlined relation's own rules, an eqrel or choice-domain
 * relation, and a rule whose unfolding would pass the bounds (more than
 * DL_DNF_CLAUSES_MAX rules, a body longer than DL_BODY_MAX, or deeper than
 * there are inlined relations, which only a cycle of them can be; relq.c
 * refuses that cycle).  With `.pragma "inline-exclude"` nothing is
 * unfolded: which relations it names is Souffle's business, and evaluating
 * them all is always right.
 */
#include "dl_relq.h"

#include "dl_dnf.h"
#include "dl_limits.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct dl_inl {
	struct dl_ast *ast;
	maelys_datalog_diagnostic_t *diag;
	bool *inl;      /* by decl: unfolded where used */
	size_t ninl;    /* how many */
	size_t renames; /* unfoldings so far: names the renamed variables */
	/* the clauses being built for one rule: a work list */
	struct dl_ast_clause *work;
	size_t nwork, capwork;
	unsigned *depth; /* by work entry */
	size_t capdepth;
};

static maelys_datalog_status_t
dl_inl_nomem(struct dl_inl *s)
{
	return dl_fail(s->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
		       "out of memory while inlining a relation");
}

/* The decl index of `name`, if it is an inlined relation; else SIZE_MAX.
 * A linear search: only programs with inlined relations get here, and
 * their relations are few. */
static size_t
dl_inl_find(const struct dl_inl *s, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < s->ast->ndecls; i++)
		if (s->inl[i] && s->ast->decls[i].name_len == len &&
		    memcmp(s->ast->decls[i].name, name, len) == 0)
			return i;
	return SIZE_MAX;
}

static maelys_datalog_status_t
dl_inl_terms(struct dl_inl *s, const struct dl_ast_term *in, size_t n,
	     struct dl_ast_term **out);
static maelys_datalog_status_t dl_inl_lit(struct dl_inl *s,
					  const struct dl_ast_lit *l,
					  struct dl_ast_lit *out);

/* A copy of t with its variables renamed "$u<n>_name" (n = s->renames),
 * inside functor calls, records and aggregates too. */
static maelys_datalog_status_t
dl_inl_term(struct dl_inl *s, const struct dl_ast_term *t,
	    struct dl_ast_term *out)
{
	*out = *t;
	if (t->kind == DL_TERM_VAR) {
		char buf[DL_IDENT_MAX + 32];
		int n = snprintf(buf, sizeof buf, "$u%zu_%.*s", s->renames,
				 (int)t->len, t->text);

		if (n < 0 || (size_t)n >= sizeof buf)
			return dl_fail(s->diag, MAELYS_DATALOG_STATUS_LIMIT,
				       "variable name too long to inline");
		out->text = dl_arena_strndup(&s->ast->arena, buf, (size_t)n);
		out->len = (size_t)n;
		return out->text == NULL ? dl_inl_nomem(s)
					 : MAELYS_DATALOG_STATUS_OK;
	}
	if (t->kind == DL_TERM_EXPR) {
		struct dl_ast_expr *e =
		    dl_arena_alloc(&s->ast->arena, sizeof *e);
		maelys_datalog_status_t st;

		if (e == NULL)
			return dl_inl_nomem(s);
		*e = *t->expr;
		if ((st = dl_inl_term(s, &t->expr->lhs, &e->lhs)) !=
			MAELYS_DATALOG_STATUS_OK ||
		    (st = dl_inl_term(s, &t->expr->rhs, &e->rhs)) !=
			MAELYS_DATALOG_STATUS_OK)
			return st;
		/* a functor's arguments (dl_functor.h) */
		if ((st = dl_inl_terms(s, t->expr->args, t->expr->nargs,
				       &e->args)) != MAELYS_DATALOG_STATUS_OK)
			return st;
		out->expr = e;
	}
	if (t->kind == DL_TERM_RECORD || t->kind == DL_TERM_ADT) {
		struct dl_ast_rec *r = dl_arena_alloc(&s->ast->arena, sizeof *r);
		maelys_datalog_status_t st;

		if (r == NULL)
			return dl_inl_nomem(s);
		*r = *t->rec;
		if ((st = dl_inl_terms(s, t->rec->args, t->rec->nargs,
				       &r->args)) != MAELYS_DATALOG_STATUS_OK)
			return st;
		out->rec = r;
	}
	if (t->kind == DL_TERM_AGG) {
		struct dl_ast_agg *a = dl_arena_alloc(&s->ast->arena, sizeof *a);
		maelys_datalog_status_t st;
		size_t k;

		if (a == NULL)
			return dl_inl_nomem(s);
		*a = *t->agg;
		if (a->has_value &&
		    (st = dl_inl_term(s, &t->agg->value, &a->value)) !=
			MAELYS_DATALOG_STATUS_OK)
			return st;
		a->body = dl_arena_alloc(&s->ast->arena,
					 (a->nbody > 0 ? a->nbody : 1) *
					     sizeof *a->body);
		if (a->body == NULL)
			return dl_inl_nomem(s);
		for (k = 0; k < a->nbody; k++)
			if ((st = dl_inl_lit(s, &t->agg->body[k],
					     &a->body[k])) !=
			    MAELYS_DATALOG_STATUS_OK)
				return st;
		out->agg = a;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* Copies of n terms, renamed, into a new array *out (NULL when n is 0). */
static maelys_datalog_status_t
dl_inl_terms(struct dl_inl *s, const struct dl_ast_term *in, size_t n,
	     struct dl_ast_term **out)
{
	size_t k;

	*out = NULL;
	if (n == 0)
		return MAELYS_DATALOG_STATUS_OK;
	*out = dl_arena_alloc(&s->ast->arena, n * sizeof **out);
	if (*out == NULL)
		return dl_inl_nomem(s);
	for (k = 0; k < n; k++) {
		maelys_datalog_status_t st = dl_inl_term(s, &in[k], &(*out)[k]);

		if (st != MAELYS_DATALOG_STATUS_OK)
			return st;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_inl_args(struct dl_inl *s, const struct dl_ast_atom *a,
	    struct dl_ast_atom *out)
{
	size_t k;

	*out = *a;
	if (a->nargs == 0)
		return MAELYS_DATALOG_STATUS_OK;
	out->args = dl_arena_alloc(&s->ast->arena, a->nargs * sizeof *a->args);
	if (out->args == NULL)
		return dl_inl_nomem(s);
	for (k = 0; k < a->nargs; k++) {
		maelys_datalog_status_t st =
		    dl_inl_term(s, &a->args[k], &out->args[k]);

		if (st != MAELYS_DATALOG_STATUS_OK)
			return st;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_inl_lit(struct dl_inl *s, const struct dl_ast_lit *l, struct dl_ast_lit *out)
{
	maelys_datalog_status_t st;

	*out = *l;
	if (l->kind == DL_LIT_CMP) {
		if ((st = dl_inl_term(s, &l->lhs, &out->lhs)) !=
		    MAELYS_DATALOG_STATUS_OK)
			return st;
		return dl_inl_term(s, &l->rhs, &out->rhs);
	}
	return dl_inl_args(s, &l->atom, &out->atom);
}

static maelys_datalog_status_t
dl_inl_push(struct dl_inl *s, const struct dl_ast_clause *c, unsigned depth)
{
	if (dl_vec_reserve((void **)&s->work, &s->capwork, s->nwork + 1,
			   sizeof *s->work) != 0 ||
	    dl_vec_reserve((void **)&s->depth, &s->capdepth, s->nwork + 1,
			   sizeof *s->depth) != 0)
		return dl_inl_nomem(s);
	s->work[s->nwork] = *c;
	s->depth[s->nwork++] = depth;
	return MAELYS_DATALOG_STATUS_OK;
}

/* c with its body literal `at` (a use of an inlined relation) replaced by
 * the body of clause `def` of that relation; false in *fits when the body
 * would be too long. */
static maelys_datalog_status_t
dl_inl_step(struct dl_inl *s, const struct dl_ast_clause *c, size_t at,
	    const struct dl_ast_clause *def, struct dl_ast_clause *out,
	    bool *fits)
{
	const struct dl_ast_atom *use = &c->body[at].atom;
	struct dl_ast_atom head;
	struct dl_ast_lit *lits;
	size_t n = 0, k, max = c->nbody - 1 + def->head.nargs + def->nbody;
	maelys_datalog_status_t st;

	*fits = max <= DL_BODY_MAX && use->nargs == def->head.nargs;
	if (!*fits)
		return MAELYS_DATALOG_STATUS_OK;
	s->renames++;
	lits = dl_arena_alloc(&s->ast->arena, (max == 0 ? 1 : max) *
						  sizeof *lits);
	if (lits == NULL)
		return dl_inl_nomem(s);
	for (k = 0; k < c->nbody; k++)
		if (k != at)
			lits[n++] = c->body[k];
	if ((st = dl_inl_args(s, &def->head, &head)) !=
	    MAELYS_DATALOG_STATUS_OK)
		return st;
	for (k = 0; k < use->nargs; k++) {
		struct dl_ast_lit *l;

		if (use->args[k].kind == DL_TERM_ANON ||
		    head.args[k].kind == DL_TERM_ANON)
			continue;
		l = &lits[n++];
		memset(l, 0, sizeof *l);
		l->kind = DL_LIT_CMP;
		l->op = DL_CMP_EQ;
		l->lhs = use->args[k];
		l->rhs = head.args[k];
		l->pos = c->body[at].pos;
		l->start = c->body[at].start;
		l->end = c->body[at].end;
	}
	for (k = 0; k < def->nbody; k++)
		if ((st = dl_inl_lit(s, &def->body[k], &lits[n++])) !=
		    MAELYS_DATALOG_STATUS_OK)
			return st;
	*out = *c;
	out->body = lits;
	out->nbody = n;
	/* a plan orders the atoms as written, which are no longer these */
	out->plans = NULL;
	out->nplans = 0;
	return MAELYS_DATALOG_STATUS_OK;
}

/* The rules `c` unfolds to, appended to *out; or c itself when its
 * unfolding passes a bound. */
static maelys_datalog_status_t
dl_inl_clause(struct dl_inl *s, const struct dl_ast_clause *c,
	      const struct dl_ast_clause *defs, size_t ndefs,
	      struct dl_ast_clause **out, size_t *n, size_t *cap)
{
	size_t done = 0, first = *n, d, k;
	maelys_datalog_status_t st;

	s->nwork = 0;
	if ((st = dl_inl_push(s, c, 0)) != MAELYS_DATALOG_STATUS_OK)
		return st;
	while (s->nwork > 0) {
		struct dl_ast_clause w = s->work[--s->nwork];
		unsigned depth = s->depth[s->nwork];
		size_t at = SIZE_MAX, rel = SIZE_MAX;

		for (k = 0; k < w.nbody && at == SIZE_MAX; k++) {
			const struct dl_ast_lit *l = &w.body[k];

			if (l->kind != DL_LIT_ATOM || l->negated)
				continue;
			rel = dl_inl_find(s, l->atom.name, l->atom.name_len);
			if (rel != SIZE_MAX)
				at = k;
		}
		if (at == SIZE_MAX) {
			if (++done > DL_DNF_CLAUSES_MAX)
				goto as_written;
			if (dl_vec_reserve((void **)out, cap, *n + 1,
					   sizeof **out) != 0)
				return dl_inl_nomem(s);
			(*out)[(*n)++] = w;
			continue;
		}
		if (depth > s->ninl)
			goto as_written; /* only a cycle gets this deep */
		for (d = 0; d < ndefs; d++) {
			const struct dl_ast_decl *decl = &s->ast->decls[rel];
			struct dl_ast_clause nw;
			bool fits;

			if (defs[d].head.name_len != decl->name_len ||
			    memcmp(defs[d].head.name, decl->name,
				   decl->name_len) != 0)
				continue;
			if ((st = dl_inl_step(s, &w, at, &defs[d], &nw,
					      &fits)) !=
			    MAELYS_DATALOG_STATUS_OK)
				return st;
			if (!fits || s->nwork >= DL_DNF_CLAUSES_MAX)
				goto as_written;
			if ((st = dl_inl_push(s, &nw, depth + 1)) !=
			    MAELYS_DATALOG_STATUS_OK)
				return st;
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
as_written:
	*n = first;
	if (dl_vec_reserve((void **)out, cap, *n + 1, sizeof **out) != 0)
		return dl_inl_nomem(s);
	(*out)[(*n)++] = *c;
	return MAELYS_DATALOG_STATUS_OK;
}

/* Whether term t mentions relation `name` in an aggregate's body, at any
 * depth (an aggregate's literals are inside terms: a relation used only
 * there is used).  The depth is bounded by the parser's term and
 * aggregate nesting limits. */
static bool dl_inl_lit_uses(const struct dl_ast_lit *l, const char *name,
			    size_t len);

static bool
dl_inl_term_uses(const struct dl_ast_term *t, const char *name, size_t len)
{
	size_t k;

	if (t->kind == DL_TERM_EXPR) {
		if (dl_inl_term_uses(&t->expr->lhs, name, len) ||
		    dl_inl_term_uses(&t->expr->rhs, name, len))
			return true;
		for (k = 0; k < t->expr->nargs; k++)
			if (dl_inl_term_uses(&t->expr->args[k], name, len))
				return true;
	}
	if (t->kind == DL_TERM_RECORD || t->kind == DL_TERM_ADT)
		for (k = 0; k < t->rec->nargs; k++)
			if (dl_inl_term_uses(&t->rec->args[k], name, len))
				return true;
	if (t->kind == DL_TERM_AGG) {
		if (t->agg->has_value &&
		    dl_inl_term_uses(&t->agg->value, name, len))
			return true;
		for (k = 0; k < t->agg->nbody; k++)
			if (dl_inl_lit_uses(&t->agg->body[k], name, len))
				return true;
	}
	return false;
}

static bool
dl_inl_lit_uses(const struct dl_ast_lit *l, const char *name, size_t len)
{
	size_t k;

	if (l->kind == DL_LIT_CMP)
		return dl_inl_term_uses(&l->lhs, name, len) ||
		       dl_inl_term_uses(&l->rhs, name, len);
	if (l->atom.name_len == len && memcmp(l->atom.name, name, len) == 0)
		return true;
	for (k = 0; k < l->atom.nargs; k++)
		if (dl_inl_term_uses(&l->atom.args[k], name, len))
			return true;
	return false;
}

/* Drops the clauses of inlined relations that no other clause uses (a
 * relation used only by its own clauses is unused), until none is left to
 * drop. */
static void
dl_inl_drop_unused(struct dl_inl *s, struct dl_ast_clause *cl, size_t *n)
{
	bool dropped = true;
	size_t i, j, k, m;

	while (dropped) {
		dropped = false;
		for (i = 0; i < s->ast->ndecls; i++) {
			const struct dl_ast_decl *d = &s->ast->decls[i];
			bool used = false, has = false;

			if (!s->inl[i])
				continue;
			for (j = 0; j < *n && !used; j++) {
				bool own = cl[j].head.name_len == d->name_len &&
					   memcmp(cl[j].head.name, d->name,
						  d->name_len) == 0;

				has |= own;
				for (k = 0; k < cl[j].nbody && !own; k++)
					if (dl_inl_lit_uses(&cl[j].body[k],
							    d->name,
							    d->name_len))
						used = true;
			}
			if (used || !has)
				continue;
			for (j = 0, m = 0; j < *n; j++)
				if (cl[j].head.name_len != d->name_len ||
				    memcmp(cl[j].head.name, d->name,
					   d->name_len) != 0)
					cl[m++] = cl[j];
			*n = m;
			dropped = true;
		}
	}
}

maelys_datalog_status_t
dl_relq_unfold_inline(struct dl_ast *ast, maelys_datalog_diagnostic_t *diag)
{
	struct dl_inl s;
	struct dl_ast_clause *out = NULL;
	size_t n = 0, cap = 0, i;
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_OK;

	for (i = 0; i < ast->nignored; i++)
		if (strstr(ast->ignored[i].what, "inline-exclude") != NULL)
			return MAELYS_DATALOG_STATUS_OK;
	memset(&s, 0, sizeof s);
	s.ast = ast;
	s.diag = diag;
	s.inl = dl_calloc(ast->ndecls == 0 ? 1 : ast->ndecls, sizeof *s.inl);
	if (s.inl == NULL)
		return dl_inl_nomem(&s);
	for (i = 0; i < ast->ndecls; i++) {
		const struct dl_ast_decl *d = &ast->decls[i];

		s.inl[i] = (d->quals & DL_QUAL_INLINE) != 0 &&
			   (d->quals &
			    (DL_QUAL_NO_INLINE | DL_QUAL_EQREL)) == 0 &&
			   d->nchoice == 0;
		if (s.inl[i])
			s.ninl++;
	}
	if (s.ninl == 0) {
		dl_free(s.inl);
		return MAELYS_DATALOG_STATUS_OK;
	}
	for (i = 0; st == MAELYS_DATALOG_STATUS_OK && i < ast->nclauses; i++) {
		const struct dl_ast_clause *c = &ast->clauses[i];

		if (c->nbody == 0 ||
		    dl_inl_find(&s, c->head.name, c->head.name_len) !=
			SIZE_MAX) {
			if (dl_vec_reserve((void **)&out, &cap, n + 1,
					   sizeof *out) != 0)
				st = dl_inl_nomem(&s);
			else
				out[n++] = *c;
			continue;
		}
		st = dl_inl_clause(&s, c, ast->clauses, ast->nclauses, &out,
				   &n, &cap);
		if (st == MAELYS_DATALOG_STATUS_OK && n > DL_CLAUSES_MAX)
			st = dl_fail(diag, MAELYS_DATALOG_STATUS_LIMIT,
				     "more than %zu clauses once inlined",
				     DL_CLAUSES_MAX);
	}
	if (st == MAELYS_DATALOG_STATUS_OK) {
		dl_inl_drop_unused(&s, out, &n);
		dl_free(ast->clauses);
		ast->clauses = out;
		ast->nclauses = n;
		ast->cap_clauses = cap;
		out = NULL;
	}
	dl_free(out);
	dl_free(s.work);
	dl_free(s.depth);
	dl_free(s.inl);
	return st;
}
