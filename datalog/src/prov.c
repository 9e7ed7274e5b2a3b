/* SPDX-License-Identifier: MIT */
/*
 * Provenance records (dl_prov.h): their storage, charged to the solve's
 * memory budget, and the rebuilding of a derivation's variable bindings.
 */
#include "dl_prov.h"
#include "dl_record.h"

#include "dl_mem.h"

#include <string.h>

int
dl_prov_init(struct dl_prov *pv, const struct dl_program *prog)
{
	memset(pv, 0, sizeof *pv);
	pv->rels = dl_calloc(prog->npreds > 0 ? prog->npreds : 1,
			     sizeof *pv->rels);
	pv->fired = dl_calloc(prog->nrules > 0 ? prog->nrules : 1, 1);
	if (pv->rels == NULL || pv->fired == NULL) {
		dl_free(pv->rels);
		dl_free(pv->fired);
		memset(pv, 0, sizeof *pv);
		return -1;
	}
	return 0;
}

static void
dl_prov_uncharge(struct dl_membudget *mb, size_t bytes)
{
	if (mb != NULL)
		mb->used = mb->used > bytes ? mb->used - bytes : 0;
}

void
dl_prov_reset(struct dl_prov *pv, size_t npreds, size_t nrules,
	      struct dl_membudget *mb)
{
	size_t i;

	if (pv->rels == NULL)
		return;
	for (i = 0; i < npreds; i++) {
		dl_free(pv->rels[i].why);
		memset(&pv->rels[i], 0, sizeof pv->rels[i]);
	}
	dl_free(pv->pool);
	pv->pool = NULL;
	pv->npool = pv->cap_pool = 0;
	dl_prov_uncharge(mb, pv->bytes);
	pv->bytes = 0;
	memset(pv->fired, 0, nrules > 0 ? nrules : 1);
}

void
dl_prov_free(struct dl_prov *pv, size_t npreds, struct dl_membudget *mb)
{
	if (pv->rels == NULL)
		return;
	dl_prov_reset(pv, npreds, 0, mb);
	dl_free(pv->rels);
	dl_free(pv->fired);
	memset(pv, 0, sizeof *pv);
}

/* Grows *vec of *cap uint32_t to hold `need`, doubling, under the budget. */
static int
dl_prov_grow(struct dl_prov *pv, uint32_t **vec, size_t *cap, size_t need,
	     struct dl_membudget *mb)
{
	size_t ncap = *cap < 64 ? 64 : *cap, add;
	uint32_t *p;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / sizeof(uint32_t))
			return DL_REL_TOO_BIG;
		ncap *= 2;
	}
	if (ncap > SIZE_MAX / sizeof(uint32_t))
		return DL_REL_TOO_BIG;
	add = (ncap - *cap) * sizeof(uint32_t);
	if (mb != NULL &&
	    add > mb->limit - (mb->used < mb->limit ? mb->used : mb->limit))
		return DL_REL_OVER_BUDGET;
	p = dl_realloc(*vec, ncap * sizeof(uint32_t));
	if (p == NULL)
		return DL_REL_NO_MEMORY;
	*vec = p;
	*cap = ncap;
	pv->bytes += add;
	if (mb != NULL)
		mb->used += add;
	return 0;
}

int
dl_prov_reserve(struct dl_prov *pv, uint32_t pid, size_t rows, size_t npool,
		struct dl_membudget *mb)
{
	struct dl_prov_rel *pr = &pv->rels[pid];
	int rc;

	if (npool > DL_PROV_POOL_MAX - pv->npool)
		return DL_REL_TOO_BIG;
	if ((rc = dl_prov_grow(pv, &pr->why, &pr->cap, pr->nwhy + rows, mb)) !=
	    0)
		return rc;
	return dl_prov_grow(pv, &pv->pool, &pv->cap_pool, pv->npool + npool,
			    mb);
}

int
dl_prov_fill(struct dl_prov *pv, uint32_t pid, uint32_t count,
	     uint32_t origin, struct dl_membudget *mb)
{
	struct dl_prov_rel *pr = &pv->rels[pid];
	int rc;

	if (count <= pr->nwhy)
		return 0;
	if ((rc = dl_prov_reserve(pv, pid, count - pr->nwhy, 0, mb)) != 0)
		return rc;
	while (pr->nwhy < count)
		pr->why[pr->nwhy++] = origin;
	return 0;
}

size_t
dl_prov_record_words(const struct dl_rule *rule)
{
	size_t n = 1;
	uint32_t i;

	for (i = 0; i < rule->nbody; i++)
		if (rule->body[i].kind == DL_LIT_ATOM &&
		    !rule->body[i].negated)
			n++;
	return n;
}

void
dl_prov_record(struct dl_prov *pv, const struct dl_rule *rule,
	       uint32_t rule_index, uint32_t pid,
	       const uint32_t *rows_by_literal)
{
	struct dl_prov_rel *pr = &pv->rels[pid];
	uint32_t *w = pv->pool + pv->npool, i;

	pr->why[pr->nwhy++] = (uint32_t)pv->npool;
	*w++ = rule_index;
	for (i = 0; i < rule->nbody; i++)
		if (rule->body[i].kind == DL_LIT_ATOM &&
		    !rule->body[i].negated)
			*w++ = rows_by_literal[i];
	pv->npool = (size_t)(w - pv->pool);
}

uint32_t
dl_prov_row_of(const struct dl_rel *r, uint32_t find_index,
	       const uint32_t *tuple)
{
	if (!dl_rel_packed(r))
		return dl_rel_find(r, tuple);
	if (find_index == DL_NONE || find_index >= r->nidx)
		return DL_ROW_NONE;
	return dl_index_first(r, find_index, tuple);
}

void
dl_prov_bind(const struct dl_rule *rule, const uint32_t *rows,
	     struct dl_rel *const *rels, const struct dl_symview *syms,
	     uint32_t *regs, bool *bound)
{
	bool progress = true;
	uint32_t i, k, j = 0;

	memset(bound, 0, rule->nvars * sizeof *bound);
	/* a variable nothing here binds (an aggregate's result, not computed
	 * here) reads as 0, never as what the stack held */
	memset(regs, 0, rule->nvars * sizeof *regs);
	for (i = 0; i < rule->nbody; i++) {
		const struct dl_clit *l = &rule->body[i];
		const uint32_t *t;

		if (l->kind != DL_LIT_ATOM || l->negated)
			continue;
		t = l->nargs > 0 ? dl_rel_row(rels[l->pred], rows[j]) : NULL;
		j++;
		for (k = 0; k < l->nargs; k++) {
			if (l->args[k].kind != DL_CT_VAR)
				continue;
			regs[l->args[k].v] = t[k];
			bound[l->args[k].v] = true;
		}
	}
	bool rdone[DL_RECS_MAX] = {false};

	/* X = t where only one side is bound, arithmetic terms and record
	 * terms: what the plan's BIND, EXPR and RECORD did */
	while (progress) {
		progress = false;
		for (i = 0; i < rule->nrecs; i++) {
			if (!rdone[i] &&
			    dl_record_rebind(syms, &rule->recs[i], regs,
					     bound, UINT32_C(0x7fffffff)) != 0) {
				rdone[i] = true;
				progress = true;
			}
		}
		for (i = 0; i < rule->nexprs; i++) {
			const struct dl_cexpr *x = &rule->exprs[i];
			const char *why = NULL;
			int64_t r;
			dl_value v;

			if (bound[x->target])
				continue;
			for (k = 0; k < x->ncode; k++)
				if (x->code[k].kind == DL_X_VAR &&
				    !bound[x->code[k].v])
					break;
			if (k < x->ncode ||
			    dl_expr_run(x, syms, regs, &r, &why) !=
				MAELYS_DATALOG_STATUS_OK)
				continue;
			if (x->string_result)
				v = (dl_value)r; /* a functor's string */
			else if (r >= DL_INLINE_INT_MIN &&
				 r <= DL_INLINE_INT_MAX)
				v = dl_value_make_inline_int(r);
			else if (!dl_symview_find_int(syms, r, &v))
				continue; /* the solve interned every result */
			regs[x->target] = v;
			bound[x->target] = true;
			progress = true;
		}
		for (i = 0; i < rule->nbody; i++) {
			const struct dl_clit *l = &rule->body[i];
			const struct dl_cterm *a = &l->args[0], *b = &l->args[1];
			bool ba, bb;

			if (l->kind != DL_LIT_CMP || l->negated ||
			    l->op != DL_CMP_EQ)
				continue;
			ba = a->kind == DL_CT_CONST ||
			     (a->kind == DL_CT_VAR && bound[a->v]);
			bb = b->kind == DL_CT_CONST ||
			     (b->kind == DL_CT_VAR && bound[b->v]);
			if (ba == bb)
				continue;
			if ((ba ? b : a)->kind != DL_CT_VAR)
				continue;
			if (ba) {
				regs[b->v] = a->kind == DL_CT_CONST
						 ? a->v
						 : regs[a->v];
				bound[b->v] = true;
			} else {
				regs[a->v] = b->kind == DL_CT_CONST
						 ? b->v
						 : regs[b->v];
				bound[a->v] = true;
			}
			progress = true;
		}
	}
}
