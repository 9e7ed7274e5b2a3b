/* SPDX-License-Identifier: MIT */
/*
 * Souffle's subsumption, `a(x...) <= a(y...) :- body`: a tuple of `a` is
 * removed when another tuple of `a` dominates it (the body holds of the
 * two).  Written here as plain clauses (dl_relq.h), so that the checker,
 * the stratifier and the evaluator see nothing new:
 *
 *   a$all(...) :- ...                 every clause and fact of a
 *   a$dom(D...) :- a$all(D...), a$all(E...), D = x..., E = y..., body,
 *                  Di != Ei           one clause per column i: the two
 *                                     tuples differ (a tuple does not
 *                                     dominate itself)
 *   a(D...) :- a$all(D...), !a$dom(D...).
 *
 * Every dominated tuple is removed at once, from the relation as a whole,
 * as Souffle does for a relation computed before it is read.
 *
 * A relation that reaches itself is pruned as Souffle prunes it, inside
 * its fixpoint, which changes what the recursion derives: its clauses stay
 * its own, and the a$dom clauses (read over a itself) are marked `prunes`.
 * The stratifier gives them to a's stratum, not to a$dom's, and the
 * evaluator runs them between iterations (eval.c): the iteration's new
 * tuples that a tuple of a, old or new, dominates are dropped, then the
 * old tuples the surviving new ones dominate.  Such a subsumption's body
 * may read a relation of a's recursion, but neither a itself beyond the
 * two tuples compared nor another subsumed relation (refused by the
 * stratifier, which sees the recursion).  Refused here: a relation read
 * from input (its facts would not be pruned) and an eqrel or
 * choice-domain one.  `$` cannot be
 * written in a name, so the hidden relations and variables never clash
 * with the program's.
 */
#include "dl_relq.h"

#include "dl_limits.h"
#include "dl_symbols.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Relations of one program that may be subsumed. */
#define DL_SUBSUMED_MAX 64

struct dl_sub {
	struct dl_ast *ast;
	const char *source;
	maelys_datalog_diagnostic_t *diag;
	size_t rel[DL_SUBSUMED_MAX]; /* decl index of each subsumed one */
	bool rec[DL_SUBSUMED_MAX];   /* it reaches itself: pruned in its
					fixpoint */
	size_t nrel;
	/* declared names -> decl index: open addressing, SIZE_MAX empty */
	size_t *slots;
	size_t nslots;
};

static maelys_datalog_status_t
dl_sub_nomem(struct dl_sub *s)
{
	return dl_fail(s->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
		       "out of memory while rewriting a subsumption");
}

static bool
dl_sub_same(const char *a, size_t na, const char *b, size_t nb)
{
	return na == nb && memcmp(a, b, na) == 0;
}

/* The decl index of the relation `name`, or SIZE_MAX. */
static size_t
dl_sub_find(const struct dl_sub *s, const char *name, size_t len)
{
	size_t mask = s->nslots - 1, pos;

	pos = (size_t)dl_symbol_hash_string(name, len) & mask;
	for (;; pos = (pos + 1) & mask) {
		size_t d = s->slots[pos];

		if (d == SIZE_MAX)
			return SIZE_MAX;
		if (dl_sub_same(s->ast->decls[d].name, s->ast->decls[d].name_len,
				name, len))
			return d;
	}
}

static maelys_datalog_status_t
dl_sub_index(struct dl_sub *s)
{
	size_t i, n = 16;

	while (n < 2 * s->ast->ndecls + 2)
		n *= 2;
	s->slots = dl_calloc(n, sizeof *s->slots);
	if (s->slots == NULL)
		return dl_sub_nomem(s);
	s->nslots = n;
	for (i = 0; i < n; i++)
		s->slots[i] = SIZE_MAX;
	for (i = 0; i < s->ast->ndecls; i++) {
		const struct dl_ast_decl *d = &s->ast->decls[i];
		size_t pos;

		if (dl_sub_find(s, d->name, d->name_len) != SIZE_MAX)
			continue; /* declared twice: the checker says so */
		pos = (size_t)dl_symbol_hash_string(d->name, d->name_len) &
		      (n - 1);
		while (s->slots[pos] != SIZE_MAX)
			pos = (pos + 1) & (n - 1);
		s->slots[pos] = i;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* Whether relation `from` reads relation `to`, directly or not, through
 * the clauses' bodies (positive or negated): a walk over the decls. */
static maelys_datalog_status_t
dl_sub_reaches(struct dl_sub *s, size_t from, size_t to, bool *out)
{
	struct dl_ast *ast = s->ast;
	bool *seen = dl_calloc(ast->ndecls, sizeof *seen);
	bool grew = true;
	size_t i, b;

	*out = false;
	if (seen == NULL)
		return dl_sub_nomem(s);
	/* seen = what `from` reads, directly or not: grown until it stops
	 * (each pass is linear in the clauses; passes at most the decls) */
	while (grew && !*out) {
		grew = false;
		for (i = 0; i < ast->nclauses; i++) {
			const struct dl_ast_clause *c = &ast->clauses[i];
			size_t h = dl_sub_find(s, c->head.name,
					       c->head.name_len);

			if (h == SIZE_MAX || (h != from && !seen[h]))
				continue;
			for (b = 0; b < c->nbody; b++) {
				const struct dl_ast_lit *l = &c->body[b];
				size_t t;

				if (l->kind != DL_LIT_ATOM)
					continue;
				t = dl_sub_find(s, l->atom.name,
						l->atom.name_len);
				/* a subsumption's body reads a$all, not a */
				if (t == SIZE_MAX || seen[t] ||
				    (c->dominating != NULL && t == h))
					continue;
				seen[t] = true;
				grew = true;
			}
		}
		if (seen[to])
			*out = true;
	}
	dl_free(seen);
	return MAELYS_DATALOG_STATUS_OK;
}

/* "name" + suffix, in the arena. */
static maelys_datalog_status_t
dl_sub_name(struct dl_sub *s, const char *name, size_t len,
	    const char *suffix, const char **out, size_t *out_len)
{
	char buf[DL_IDENT_MAX + 8];
	int n = snprintf(buf, sizeof buf, "%.*s%s", (int)len, name, suffix);

	if (n < 0 || (size_t)n >= sizeof buf)
		return dl_fail(s->diag, MAELYS_DATALOG_STATUS_LIMIT,
			       "relation name too long to subsume");
	*out = dl_arena_strndup(&s->ast->arena, buf, (size_t)n);
	*out_len = (size_t)n;
	return *out == NULL ? dl_sub_nomem(s) : MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_sub_var(struct dl_sub *s, char tag, size_t i, struct dl_pos pos,
	   struct dl_ast_term *t)
{
	char buf[32];
	int n = snprintf(buf, sizeof buf, "$%c%zu", tag, i);

	memset(t, 0, sizeof *t);
	t->kind = DL_TERM_VAR;
	t->pos = pos;
	t->text = dl_arena_strndup(&s->ast->arena, buf, (size_t)n);
	t->len = (size_t)n;
	return t->text == NULL ? dl_sub_nomem(s) : MAELYS_DATALOG_STATUS_OK;
}

/* name(tag0, tag1, ...): fresh variables, at `pos`. */
static maelys_datalog_status_t
dl_sub_atom(struct dl_sub *s, const char *name, size_t len, size_t arity,
	    char tag, struct dl_pos pos, struct dl_ast_atom *a)
{
	size_t i;

	memset(a, 0, sizeof *a);
	a->name = name;
	a->name_len = len;
	a->pos = pos;
	a->nargs = arity;
	a->args = dl_arena_alloc(&s->ast->arena, arity * sizeof *a->args);
	if (a->args == NULL)
		return dl_sub_nomem(s);
	for (i = 0; i < arity; i++) {
		maelys_datalog_status_t st =
		    dl_sub_var(s, tag, i, pos, &a->args[i]);

		if (st != MAELYS_DATALOG_STATUS_OK)
			return st;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_sub_push(struct dl_sub *s, struct dl_ast_clause **out, size_t *n,
	    size_t *cap, const struct dl_ast_clause *c)
{
	if (*n == DL_CLAUSES_MAX)
		return dl_fail(s->diag, MAELYS_DATALOG_STATUS_LIMIT,
			       "more than %zu clauses", DL_CLAUSES_MAX);
	if (dl_vec_reserve((void **)out, cap, *n + 1, sizeof **out) != 0)
		return dl_sub_nomem(s);
	(*out)[(*n)++] = *c;
	return MAELYS_DATALOG_STATUS_OK;
}

/* x = t as a literal, unless t is `_`; appended to lits. */
static void
dl_sub_bind(const struct dl_ast_term *var, const struct dl_ast_term *t,
	    struct dl_ast_lit *lits, size_t *n)
{
	struct dl_ast_lit *l;

	if (t->kind == DL_TERM_ANON)
		return;
	l = &lits[(*n)++];
	memset(l, 0, sizeof *l);
	l->kind = DL_LIT_CMP;
	l->op = DL_CMP_EQ;
	l->lhs = *var;
	l->rhs = *t;
	l->pos = t->pos;
}

/* The clauses of one subsumption `c` of relation decl `d` (all$ and
 * dom$ named): one per column, each saying the two tuples differ there. */
static maelys_datalog_status_t
dl_sub_dominance(struct dl_sub *s, const struct dl_ast_clause *c,
		 const char *all, size_t all_len, const char *dom,
		 size_t dom_len, size_t prunes, struct dl_ast_clause **out,
		 size_t *n, size_t *cap)
{
	size_t arity = c->head.nargs, need, i, k;
	struct dl_ast_atom a_d, a_e, head;
	maelys_datalog_status_t st;

	/* two atoms, at most two bindings per column, the body, and one
	 * comparison */
	need = 2 + 2 * arity + c->nbody + 1;
	if (need > DL_BODY_MAX)
		return dl_fail_at(s->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  s->source, c->pos,
				  "subsumption needs a body of %zu literals, "
				  "more than %zu",
				  need, DL_BODY_MAX);
	if ((st = dl_sub_atom(s, all, all_len, arity, 'd', c->head.pos,
			      &a_d)) != MAELYS_DATALOG_STATUS_OK ||
	    (st = dl_sub_atom(s, all, all_len, arity, 'e', c->dominating->pos,
			      &a_e)) != MAELYS_DATALOG_STATUS_OK ||
	    (st = dl_sub_atom(s, dom, dom_len, arity, 'd', c->head.pos,
			      &head)) != MAELYS_DATALOG_STATUS_OK)
		return st;
	for (i = 0; i < arity; i++) {
		struct dl_ast_clause nc = *c;
		struct dl_ast_lit *lits;
		size_t nl = 0;

		lits = dl_arena_alloc(&s->ast->arena, need * sizeof *lits);
		if (lits == NULL)
			return dl_sub_nomem(s);
		memset(lits, 0, need * sizeof *lits);
		lits[nl].kind = DL_LIT_ATOM;
		lits[nl].atom = a_d;
		lits[nl++].pos = c->head.pos;
		lits[nl].kind = DL_LIT_ATOM;
		lits[nl].atom = a_e;
		lits[nl++].pos = c->dominating->pos;
		for (k = 0; k < arity; k++) {
			dl_sub_bind(&a_d.args[k], &c->head.args[k], lits, &nl);
			dl_sub_bind(&a_e.args[k], &c->dominating->args[k], lits,
				    &nl);
		}
		/* the body reads the relation as derived, before pruning */
		for (k = 0; k < c->nbody; k++) {
			lits[nl] = c->body[k];
			if (lits[nl].kind == DL_LIT_ATOM &&
			    dl_sub_same(lits[nl].atom.name,
					lits[nl].atom.name_len, c->head.name,
					c->head.name_len)) {
				lits[nl].atom.name = all;
				lits[nl].atom.name_len = all_len;
			}
			nl++;
		}
		lits[nl].kind = DL_LIT_CMP;
		lits[nl].op = DL_CMP_NE;
		lits[nl].lhs = a_d.args[i];
		lits[nl].rhs = a_e.args[i];
		lits[nl++].pos = c->pos;
		nc.head = head;
		nc.body = lits;
		nc.nbody = nl;
		nc.dominating = NULL;
		nc.prunes = prunes;
		/* a plan orders the subsumption's own atoms, not these:
		 * accepted (noted at parse) and not checked */
		nc.plans = NULL;
		nc.nplans = 0;
		if ((st = dl_sub_push(s, out, n, cap, &nc)) !=
		    MAELYS_DATALOG_STATUS_OK)
			return st;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* Checks a subsumption `c` and notes its relation in s->rel. */
static maelys_datalog_status_t
dl_sub_note(struct dl_sub *s, const struct dl_ast_clause *c)
{
	const struct dl_ast_atom *h = &c->head, *e = c->dominating;
	size_t d, k;

	if (!dl_sub_same(h->name, h->name_len, e->name, e->name_len))
		return dl_fail_at(s->diag, MAELYS_DATALOG_STATUS_PARSE,
				  s->source, e->pos,
				  "subsumption must compare tuples of the same "
				  "relation, not '%s' and '%s'",
				  h->name, e->name);
	d = dl_sub_find(s, h->name, h->name_len);
	if (d == SIZE_MAX)
		return dl_fail_at(s->diag, MAELYS_DATALOG_STATUS_UNDECLARED,
				  s->source, h->pos,
				  "undeclared relation '%s' in a subsumption",
				  h->name);
	if (s->ast->decls[d].arity == 0)
		return dl_fail_at(s->diag, MAELYS_DATALOG_STATUS_ARITY,
				  s->source, h->pos,
				  "subsumptive relation '%s' must not be a "
				  "nullary relation",
				  h->name);
	if (h->nargs != s->ast->decls[d].arity ||
	    e->nargs != s->ast->decls[d].arity)
		return dl_fail_at(s->diag, MAELYS_DATALOG_STATUS_ARITY,
				  s->source, h->pos,
				  "'%s' has %zu columns, used with %zu and %zu "
				  "in a subsumption",
				  h->name, s->ast->decls[d].arity, h->nargs,
				  e->nargs);
	for (k = 0; k < s->nrel; k++)
		if (s->rel[k] == d)
			return MAELYS_DATALOG_STATUS_OK;
	if (s->nrel == DL_SUBSUMED_MAX)
		return dl_fail_at(s->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  s->source, h->pos,
				  "more than %d subsumed relations",
				  DL_SUBSUMED_MAX);
	s->rel[s->nrel++] = d;
	return MAELYS_DATALOG_STATUS_OK;
}

/* What is not supported of subsumed relation s->rel[k], refused; notes
 * whether it is recursive. */
static maelys_datalog_status_t
dl_sub_supported(struct dl_sub *s, size_t k)
{
	size_t d = s->rel[k];
	const struct dl_ast_decl *decl = &s->ast->decls[d];
	maelys_datalog_status_t st;
	bool rec;
	size_t i;

	if ((decl->quals & DL_QUAL_EQREL) != 0 || decl->nchoice > 0)
		return dl_fail_at(s->diag, MAELYS_DATALOG_STATUS_PARSE,
				  s->source, decl->pos,
				  "subsumption of '%s', an eqrel or "
				  "choice-domain relation, is not supported",
				  decl->name);
	for (i = 0; i < s->ast->ndirectives; i++) {
		const struct dl_ast_directive *io = &s->ast->directives[i];

		if (io->kind == MAELYS_DATALOG_DIRECTIVE_INPUT &&
		    dl_sub_same(io->name, io->name_len, decl->name,
				decl->name_len))
			return dl_fail_at(s->diag, MAELYS_DATALOG_STATUS_PARSE,
					  s->source, io->pos,
					  "subsumption of '%s', an input "
					  "relation, is not supported (its "
					  "input facts would not be pruned)",
					  decl->name);
	}
	if ((st = dl_sub_reaches(s, d, d, &rec)) != MAELYS_DATALOG_STATUS_OK)
		return st;
	/* what its subsumptions' bodies may read in its recursion is
	 * checked once inlined relations are unfolded (stratify.c) */
	s->rec[k] = rec;
	return MAELYS_DATALOG_STATUS_OK;
}

/* The subsumed relation of `c`'s head (index into s->rel), or SIZE_MAX. */
static size_t
dl_sub_which(const struct dl_sub *s, const struct dl_ast_clause *c)
{
	size_t k;

	for (k = 0; k < s->nrel; k++) {
		const struct dl_ast_decl *d = &s->ast->decls[s->rel[k]];

		if (dl_sub_same(d->name, d->name_len, c->head.name,
				c->head.name_len))
			return k;
	}
	return SIZE_MAX;
}

static maelys_datalog_status_t
dl_sub_rewrite(struct dl_sub *s)
{
	struct dl_ast *ast = s->ast;
	const char *all[DL_SUBSUMED_MAX], *dom[DL_SUBSUMED_MAX];
	size_t all_len[DL_SUBSUMED_MAX], dom_len[DL_SUBSUMED_MAX];
	struct dl_ast_clause *out = NULL;
	size_t n = 0, cap = 0, i, k;
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_OK;

	/* the hidden relations, declared as the subsumed one */
	if (dl_vec_reserve((void **)&ast->decls, &ast->cap_decls,
			   ast->ndecls + 2 * s->nrel, sizeof *ast->decls) != 0)
		return dl_sub_nomem(s);
	for (k = 0; k < s->nrel; k++) {
		struct dl_ast_decl d = ast->decls[s->rel[k]];

		if ((st = dl_sub_name(s, d.name, d.name_len, "$all", &all[k],
				      &all_len[k])) !=
			MAELYS_DATALOG_STATUS_OK ||
		    (st = dl_sub_name(s, d.name, d.name_len, "$dom", &dom[k],
				      &dom_len[k])) != MAELYS_DATALOG_STATUS_OK)
			return st;
		d.quals = 0;
		d.nchoice = 0;
		if (!s->rec[k]) {
			d.name = all[k];
			d.name_len = all_len[k];
			ast->decls[ast->ndecls++] = d;
		} else {
			/* pruned in its fixpoint: its clauses and its
			 * prune clauses read the relation itself */
			all[k] = d.name;
			all_len[k] = d.name_len;
		}
		d.name = dom[k];
		d.name_len = dom_len[k];
		ast->decls[ast->ndecls++] = d;
	}
	for (i = 0; st == MAELYS_DATALOG_STATUS_OK && i < ast->nclauses; i++) {
		struct dl_ast_clause c = ast->clauses[i];

		k = dl_sub_which(s, &c);
		if (k == SIZE_MAX) {
			st = dl_sub_push(s, &out, &n, &cap, &c);
		} else if (c.dominating != NULL) {
			/* pruning: its rules share 1 + its index */
			st = dl_sub_dominance(s, &c, all[k], all_len[k], dom[k],
					      dom_len[k], s->rec[k] ? i + 1 : 0,
					      &out, &n, &cap);
		} else if (s->rec[k]) {
			st = dl_sub_push(s, &out, &n, &cap, &c);
		} else {
			c.head.name = all[k];
			c.head.name_len = all_len[k];
			st = dl_sub_push(s, &out, &n, &cap, &c);
		}
	}
	/* a(D...) :- a$all(D...), !a$dom(D...). */
	for (k = 0; st == MAELYS_DATALOG_STATUS_OK && k < s->nrel; k++) {
		const struct dl_ast_decl *d = &ast->decls[s->rel[k]];
		struct dl_ast_clause c;
		struct dl_ast_lit *lits;

		if (s->rec[k])
			continue; /* pruned by the evaluator instead */
		memset(&c, 0, sizeof c);
		lits = dl_arena_alloc(&ast->arena, 2 * sizeof *lits);
		if (lits == NULL) {
			st = dl_sub_nomem(s);
			break;
		}
		memset(lits, 0, 2 * sizeof *lits);
		lits[0].kind = DL_LIT_ATOM;
		lits[1].kind = DL_LIT_ATOM;
		lits[1].negated = true;
		lits[0].pos = lits[1].pos = d->pos;
		if ((st = dl_sub_atom(s, d->name, d->name_len, d->arity, 'd',
				      d->pos, &c.head)) !=
			MAELYS_DATALOG_STATUS_OK ||
		    (st = dl_sub_atom(s, all[k], all_len[k], d->arity, 'd',
				      d->pos, &lits[0].atom)) !=
			MAELYS_DATALOG_STATUS_OK ||
		    (st = dl_sub_atom(s, dom[k], dom_len[k], d->arity, 'd',
				      d->pos, &lits[1].atom)) !=
			MAELYS_DATALOG_STATUS_OK)
			break;
		c.body = lits;
		c.nbody = 2;
		c.pos = d->pos;
		st = dl_sub_push(s, &out, &n, &cap, &c);
	}
	if (st != MAELYS_DATALOG_STATUS_OK) {
		dl_free(out);
		return st;
	}
	dl_free(ast->clauses);
	ast->clauses = out;
	ast->nclauses = n;
	ast->cap_clauses = cap;
	return MAELYS_DATALOG_STATUS_OK;
}

maelys_datalog_status_t
dl_relq_rewrite_subsumption(struct dl_ast *ast, const char *source_name,
			    maelys_datalog_diagnostic_t *diag)
{
	struct dl_sub s;
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_OK;
	size_t i;

	for (i = 0; i < ast->nclauses; i++)
		if (ast->clauses[i].dominating != NULL)
			break;
	if (i == ast->nclauses)
		return MAELYS_DATALOG_STATUS_OK;
	memset(&s, 0, sizeof s);
	s.ast = ast;
	s.source = source_name;
	s.diag = diag;
	st = dl_sub_index(&s);
	for (i = 0; st == MAELYS_DATALOG_STATUS_OK && i < ast->nclauses; i++)
		if (ast->clauses[i].dominating != NULL)
			st = dl_sub_note(&s, &ast->clauses[i]);
	for (i = 0; st == MAELYS_DATALOG_STATUS_OK && i < s.nrel; i++)
		st = dl_sub_supported(&s, i);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_sub_rewrite(&s);
	dl_free(s.slots);
	return st;
}
