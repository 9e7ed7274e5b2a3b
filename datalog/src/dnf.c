/* SPDX-License-Identifier: MIT */
/*
 * The disjunctive normal form of a rule body (dl_dnf.h): Souffle's
 * disjunction and negated groups become plain conjunctions, one clause
 * each.  Intermediate forms are lists of references to the written
 * literals with a negation flag; only the final conjunctions are copied
 * out.  Every list is bounded (DL_DNF_CLAUSES_MAX conjunctions of at most
 * DL_BODY_MAX literals), and so is the whole expansion's work, so a body of
 * many small groups cannot make the load quadratic in memory.
 */
#include "dl_dnf.h"

#include "dl_limits.h"

#include <stdbool.h>
#include <string.h>

/* A literal of an intermediate conjunction: the written one, negated or
 * not. */
struct dl_dnf_ref {
	const struct dl_ast_lit *lit;
	bool neg;
};

struct dl_dnf_list {
	struct dl_dnf_ref **conj; /* conj[i]: len[i] references */
	size_t *len;
	size_t n;
};

struct dl_dnf_ctx {
	struct dl_arena *arena;
	const char *source_name;
	maelys_datalog_diagnostic_t *diag;
	struct dl_pos pos; /* of the body, for the diagnostics */
	size_t work;       /* references made so far */
};

/* References one expansion may make in all: a few times what the largest
 * result holds. */
#define DL_DNF_WORK_MAX (4 * DL_DNF_CLAUSES_MAX * DL_BODY_MAX)

static maelys_datalog_status_t
dl_dnf_nomem(struct dl_dnf_ctx *c)
{
	return dl_fail(c->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
		       "out of memory while expanding a disjunction");
}

static maelys_datalog_status_t
dl_dnf_too_many(struct dl_dnf_ctx *c)
{
	return dl_fail_at(c->diag, MAELYS_DATALOG_STATUS_LIMIT, c->source_name,
			  c->pos,
			  "rule body expands to more than %zu clauses of at "
			  "most %zu literals (disjunction multiplies out)",
			  DL_DNF_CLAUSES_MAX, DL_BODY_MAX);
}

/* A list of n conjunctions, their lengths to be filled. */
static maelys_datalog_status_t
dl_dnf_list_new(struct dl_dnf_ctx *c, size_t n, struct dl_dnf_list *out)
{
	out->n = n;
	out->conj = dl_arena_alloc(c->arena, n * sizeof *out->conj);
	out->len = dl_arena_alloc(c->arena, n * sizeof *out->len);
	if (out->conj == NULL || out->len == NULL)
		return dl_dnf_nomem(c);
	return MAELYS_DATALOG_STATUS_OK;
}

/* Room for k references, counted against the expansion's work. */
static maelys_datalog_status_t
dl_dnf_refs(struct dl_dnf_ctx *c, size_t k, struct dl_dnf_ref **out)
{
	if (k > DL_BODY_MAX || k > DL_DNF_WORK_MAX - c->work)
		return dl_dnf_too_many(c);
	c->work += k;
	*out = dl_arena_alloc(c->arena, (k == 0 ? 1 : k) * sizeof **out);
	return *out == NULL ? dl_dnf_nomem(c) : MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t dl_dnf_rec(struct dl_dnf_ctx *c,
					  const struct dl_bf *f, bool neg,
					  struct dl_dnf_list *out);

/* The conjunction of the kids' forms: every choice of one conjunction of
 * each, concatenated. */
static maelys_datalog_status_t
dl_dnf_and(struct dl_dnf_ctx *c, const struct dl_bf *f, bool neg,
	   struct dl_dnf_list *out)
{
	struct dl_dnf_list acc, kid, next;
	maelys_datalog_status_t st;
	size_t i, a, b, k;

	if ((st = dl_dnf_list_new(c, 1, &acc)) != MAELYS_DATALOG_STATUS_OK ||
	    (st = dl_dnf_refs(c, 0, &acc.conj[0])) != MAELYS_DATALOG_STATUS_OK)
		return st;
	acc.len[0] = 0;
	for (i = 0; i < f->nkids; i++) {
		if ((st = dl_dnf_rec(c, f->kids[i], neg, &kid)) !=
		    MAELYS_DATALOG_STATUS_OK)
			return st;
		/* both at most DL_DNF_CLAUSES_MAX: the product cannot wrap */
		if (acc.n * kid.n > DL_DNF_CLAUSES_MAX)
			return dl_dnf_too_many(c);
		if ((st = dl_dnf_list_new(c, acc.n * kid.n, &next)) !=
		    MAELYS_DATALOG_STATUS_OK)
			return st;
		k = 0;
		for (a = 0; a < acc.n; a++) {
			for (b = 0; b < kid.n; b++, k++) {
				next.len[k] = acc.len[a] + kid.len[b];
				if ((st = dl_dnf_refs(c, next.len[k],
						      &next.conj[k])) !=
				    MAELYS_DATALOG_STATUS_OK)
					return st;
				memcpy(next.conj[k], acc.conj[a],
				       acc.len[a] * sizeof **acc.conj);
				memcpy(next.conj[k] + acc.len[a], kid.conj[b],
				       kid.len[b] * sizeof **kid.conj);
			}
		}
		acc = next;
	}
	*out = acc;
	return MAELYS_DATALOG_STATUS_OK;
}

/* The disjunction of the kids' forms: their conjunctions, one after the
 * other, in the order written. */
static maelys_datalog_status_t
dl_dnf_or(struct dl_dnf_ctx *c, const struct dl_bf *f, bool neg,
	  struct dl_dnf_list *out)
{
	struct dl_dnf_list kids[DL_BODY_MAX];
	maelys_datalog_status_t st;
	size_t i, j, n = 0, k = 0;

	if (f->nkids > DL_BODY_MAX)
		return dl_dnf_too_many(c);
	for (i = 0; i < f->nkids; i++) {
		if ((st = dl_dnf_rec(c, f->kids[i], neg, &kids[i])) !=
		    MAELYS_DATALOG_STATUS_OK)
			return st;
		n += kids[i].n; /* each at most DL_DNF_CLAUSES_MAX */
		if (n > DL_DNF_CLAUSES_MAX)
			return dl_dnf_too_many(c);
	}
	if ((st = dl_dnf_list_new(c, n, out)) != MAELYS_DATALOG_STATUS_OK)
		return st;
	for (i = 0; i < f->nkids; i++) {
		for (j = 0; j < kids[i].n; j++, k++) {
			out->conj[k] = kids[i].conj[j];
			out->len[k] = kids[i].len[j];
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_dnf_rec(struct dl_dnf_ctx *c, const struct dl_bf *f, bool neg,
	   struct dl_dnf_list *out)
{
	maelys_datalog_status_t st;

	switch (f->kind) {
	case DL_BF_LIT:
		if ((st = dl_dnf_list_new(c, 1, out)) !=
			MAELYS_DATALOG_STATUS_OK ||
		    (st = dl_dnf_refs(c, 1, &out->conj[0])) !=
			MAELYS_DATALOG_STATUS_OK)
			return st;
		out->len[0] = 1;
		out->conj[0][0].lit = &f->lit;
		out->conj[0][0].neg = neg;
		return MAELYS_DATALOG_STATUS_OK;
	case DL_BF_NOT:
		return dl_dnf_rec(c, f->kids[0], !neg, out);
	case DL_BF_AND:
		/* !(a, b) is !a ; !b */
		return neg ? dl_dnf_or(c, f, neg, out)
			   : dl_dnf_and(c, f, neg, out);
	case DL_BF_OR:
		/* !(a ; b) is !a, !b */
		return neg ? dl_dnf_and(c, f, neg, out)
			   : dl_dnf_or(c, f, neg, out);
	}
	return dl_dnf_too_many(c); /* not reached: every kind is above */
}

/* `lit` negated: an atom or a call flips, a comparison takes the opposite
 * operator. */
static void
dl_dnf_negate(struct dl_ast_lit *lit)
{
	static const enum dl_cmp_op opposite[] = {
	    [DL_CMP_EQ] = DL_CMP_NE, [DL_CMP_NE] = DL_CMP_EQ,
	    [DL_CMP_LT] = DL_CMP_GE, [DL_CMP_LE] = DL_CMP_GT,
	    [DL_CMP_GT] = DL_CMP_LE, [DL_CMP_GE] = DL_CMP_LT,
	};

	if (lit->kind == DL_LIT_CMP)
		lit->op = opposite[lit->op];
	else
		lit->negated = !lit->negated;
}

maelys_datalog_status_t
dl_dnf_expand(struct dl_arena *arena, const struct dl_bf *f,
	      const char *source_name, struct dl_dnf_conj **out, size_t *nout,
	      maelys_datalog_diagnostic_t *diag)
{
	struct dl_dnf_ctx c;
	struct dl_dnf_list l;
	struct dl_dnf_conj *res;
	maelys_datalog_status_t st;
	size_t i, j;

	*out = NULL;
	*nout = 0;
	memset(&c, 0, sizeof c);
	c.arena = arena;
	c.source_name = source_name;
	c.diag = diag;
	c.pos = f->pos;
	if ((st = dl_dnf_rec(&c, f, false, &l)) != MAELYS_DATALOG_STATUS_OK)
		return st;
	res = dl_arena_alloc(arena, (l.n == 0 ? 1 : l.n) * sizeof *res);
	if (res == NULL)
		return dl_dnf_nomem(&c);
	for (i = 0; i < l.n; i++) {
		res[i].n = l.len[i];
		res[i].lits = dl_arena_alloc(
		    arena, (l.len[i] == 0 ? 1 : l.len[i]) * sizeof *res[i].lits);
		if (res[i].lits == NULL)
			return dl_dnf_nomem(&c);
		for (j = 0; j < l.len[i]; j++) {
			res[i].lits[j] = *l.conj[i][j].lit;
			if (l.conj[i][j].neg)
				dl_dnf_negate(&res[i].lits[j]);
		}
	}
	*out = res;
	*nout = l.n;
	return MAELYS_DATALOG_STATUS_OK;
}
