/* SPDX-License-Identifier: MIT */
/*
 * Souffle's relation qualifiers that change or constrain a program without
 * a plan of their own here (dl_relq.h).
 *
 * eqrel: Souffle keeps an equivalence relation as a union-find and prints
 * every pair of each class.  Here it is the same set of pairs, derived by
 * three rules added to the program, so it goes through the ordinary
 * evaluation and its budgets: a class of n values is n * n tuples, which
 * the tuple and memory budgets bound like any other relation.
 *
 * inline: Souffle substitutes an inlined relation's rules into the rules
 * that use it; so does relq_inline.c for its positive uses, and what stays
 * is evaluated as any relation.  Souffle's refusals are kept here: an inlined relation may not be read or
 * written (.input, .output, .printsize), may not be in a cycle of inlined
 * relations, and may not be negated where its rules would bring variables
 * of their own or where the negated atom has a `_`.
 *
 * .plan: an order of a rule's atoms per version of the rule; checked as
 * Souffle checks it (a permutation of 1..atoms, a version the rule has) and
 * then ignored.
 */
#include "dl_relq.h"

#include "dl_limits.h"
#include "dl_program.h"

#include <stdbool.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* eqrel                                                               */
/* ------------------------------------------------------------------ */

static void
dl_relq_var(struct dl_ast_term *t, const char *name, struct dl_pos pos)
{
	memset(t, 0, sizeof *t);
	t->kind = DL_TERM_VAR;
	t->text = name;
	t->len = strlen(name);
	t->pos = pos;
}

/* rel(a, b) as an atom at `pos` (the arguments in the arena). */
static struct dl_ast_atom
dl_relq_atom(const struct dl_ast_decl *d, struct dl_ast_term *args,
	     const char *a, const char *b)
{
	struct dl_ast_atom at;

	memset(&at, 0, sizeof at);
	at.name = d->name;
	at.name_len = d->name_len;
	at.pos = d->eqrel_pos;
	dl_relq_var(&args[0], a, d->eqrel_pos);
	dl_relq_var(&args[1], b, d->eqrel_pos);
	at.args = args;
	at.nargs = 2;
	return at;
}

static maelys_datalog_status_t
dl_relq_nomem(maelys_datalog_diagnostic_t *diag)
{
	return dl_fail(diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
		       "out of memory while adding the rules of an eqrel");
}

/* The three rules of one eqrel relation r:
 *   r(y, x) :- r(x, y).              symmetric
 *   r(x, x) :- r(x, y).              reflexive (with symmetry: both ends)
 *   r(x, z) :- r(x, y), r(y, z).     transitive
 * Their text is the qualifier's, `eqrel`, so the rules API and the
 * derivation trees point at it. */
static maelys_datalog_status_t
dl_relq_eqrel(struct dl_ast *ast, const struct dl_ast_decl *d,
	      maelys_datalog_diagnostic_t *diag)
{
	static const char *const rules[3][6] = {
	    {"y", "x", "x", "y", NULL, NULL},
	    {"x", "x", "x", "y", NULL, NULL},
	    {"x", "z", "x", "y", "y", "z"},
	};
	size_t i, k;

	if (ast->nclauses > DL_CLAUSES_MAX - 3)
		return dl_fail(diag, MAELYS_DATALOG_STATUS_LIMIT,
			       "more than %zu clauses", DL_CLAUSES_MAX);
	if (dl_vec_reserve((void **)&ast->clauses, &ast->cap_clauses,
			   ast->nclauses + 3, sizeof *ast->clauses) != 0)
		return dl_relq_nomem(diag);
	for (i = 0; i < 3; i++) {
		struct dl_ast_clause c;
		struct dl_ast_term *args;
		size_t nbody = rules[i][4] == NULL ? 1 : 2;

		memset(&c, 0, sizeof c);
		args = dl_arena_alloc(&ast->arena, 6 * sizeof *args);
		c.body = dl_arena_alloc(&ast->arena, nbody * sizeof *c.body);
		if (args == NULL || c.body == NULL)
			return dl_relq_nomem(diag);
		memset(c.body, 0, nbody * sizeof *c.body);
		c.head = dl_relq_atom(d, &args[0], rules[i][0], rules[i][1]);
		for (k = 0; k < nbody; k++) {
			c.body[k].kind = DL_LIT_ATOM;
			c.body[k].atom =
			    dl_relq_atom(d, &args[2 + 2 * k],
					 rules[i][2 + 2 * k],
					 rules[i][3 + 2 * k]);
			c.body[k].pos = d->eqrel_pos;
			c.body[k].start = d->eqrel_start;
			c.body[k].end = d->eqrel_end;
		}
		c.nbody = nbody;
		c.pos = d->eqrel_pos;
		c.start = d->eqrel_start;
		c.end = d->eqrel_end;
		ast->clauses[ast->nclauses++] = c;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

maelys_datalog_status_t
dl_relq_add_eqrel_rules(struct dl_ast *ast, const char *source_name,
			maelys_datalog_diagnostic_t *diag)
{
	maelys_datalog_status_t st;
	size_t i, k;

	for (i = 0; i < ast->ndecls; i++) {
		const struct dl_ast_decl *d = &ast->decls[i];

		if ((d->quals & DL_QUAL_EQREL) == 0)
			continue;
		if (d->arity != 2)
			return dl_fail_at(diag, MAELYS_DATALOG_STATUS_ARITY,
					  source_name, d->pos,
					  "eqrel relation '%s' has %zu columns: "
					  "an equivalence relation is binary",
					  d->name, d->arity);
		if (d->columns[0] != d->columns[1])
			return dl_fail_at(diag, MAELYS_DATALOG_STATUS_TYPE,
					  source_name, d->pos,
					  "eqrel relation '%s' has columns of "
					  "two types: an equivalence relation "
					  "relates values of one type",
					  d->name);
		/* its closure is derived by the rules below: a bound on
		 * its size would cut them short, leaving a relation that is
		 * no equivalence (r(1,2) without r(2,1)) */
		for (k = 0; k < ast->nlimits; k++)
			if (ast->limits[k].name_len == d->name_len &&
			    memcmp(ast->limits[k].name, d->name,
				   d->name_len) == 0)
				return dl_fail_at(
				    diag, MAELYS_DATALOG_STATUS_PARSE,
				    source_name, ast->limits[k].pos,
				    ".limitsize of '%s', an eqrel relation, "
				    "is not supported",
				    d->name);
		st = dl_relq_eqrel(ast, d, diag);
		if (st != MAELYS_DATALOG_STATUS_OK)
			return st;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* ------------------------------------------------------------------ */
/* inline and .plan                                                    */
/* ------------------------------------------------------------------ */

struct dl_relq_ck {
	const struct dl_program *prog;
	const struct dl_ast *ast;
	maelys_datalog_diagnostic_t *diag;
	bool *inl; /* by predicate: declared inline (and not no_inline) */
};

static maelys_datalog_status_t
dl_relq_inline_io(struct dl_relq_ck *k)
{
	size_t i;

	for (i = 0; i < k->ast->ndirectives; i++) {
		const struct dl_ast_directive *d = &k->ast->directives[i];
		uint32_t pid =
		    dl_program_find_pred(k->prog, d->name, d->name_len);

		if (pid != DL_NONE && k->inl[pid])
			return dl_fail_at(k->diag, MAELYS_DATALOG_STATUS_ROLE,
					  k->prog->source_name, d->pos,
					  "relation '%s' is inline: an "
					  "inlined relation cannot be read or "
					  "written (.input, .output, "
					  ".printsize)",
					  k->prog->preds[pid].name);
	}
	/* substituted away, it holds no tuple to count: a bound on it
	 * would be silently dropped */
	for (i = 0; i < k->ast->nlimits; i++) {
		const struct dl_ast_limit *l = &k->ast->limits[i];
		uint32_t pid =
		    dl_program_find_pred(k->prog, l->name, l->name_len);

		if (pid != DL_NONE && k->inl[pid])
			return dl_fail_at(k->diag, MAELYS_DATALOG_STATUS_ROLE,
					  k->prog->source_name, l->pos,
					  "relation '%s' is inline: an "
					  "inlined relation holds no tuples "
					  "to limit (.limitsize)",
					  k->prog->preds[pid].name);
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* A cycle through inlined relations only (Souffle cannot substitute
 * them): Kahn's algorithm on the graph of inlined heads and the inlined
 * atoms of their bodies; what it cannot remove is on a cycle or after
 * one, and the first such relation is named. */
static maelys_datalog_status_t
dl_relq_inline_cycle(struct dl_relq_ck *k)
{
	const struct dl_program *prog = k->prog;
	size_t *indeg;
	bool *done;
	size_t i, r, b, left = 0;
	bool changed = true;
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_OK;

	indeg = dl_calloc(prog->npreds, sizeof *indeg);
	done = dl_calloc(prog->npreds, sizeof *done);
	if (indeg == NULL || done == NULL) {
		dl_free(indeg);
		dl_free(done);
		return dl_fail(k->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
			       "out of memory while checking inlined "
			       "relations");
	}
	for (i = 0; i < prog->npreds; i++)
		if (k->inl[i])
			left++;
	/* Each pass removes every inlined relation that no remaining
	 * inlined relation's rule reads; the passes are at most the
	 * inlined relations, each linear in the rules. */
	while (left > 0 && changed) {
		changed = false;
		memset(indeg, 0, prog->npreds * sizeof *indeg);
		for (r = 0; r < prog->nrules; r++) {
			const struct dl_rule *rule = &prog->rules[r];

			if (!k->inl[rule->head_pred] || done[rule->head_pred])
				continue;
			for (b = 0; b < rule->nbody; b++) {
				const struct dl_clit *l = &rule->body[b];

				if (l->kind == DL_LIT_ATOM && k->inl[l->pred] &&
				    !done[l->pred])
					indeg[l->pred]++;
			}
		}
		for (i = 0; i < prog->npreds; i++) {
			if (k->inl[i] && !done[i] && indeg[i] == 0) {
				done[i] = true;
				left--;
				changed = true;
			}
		}
	}
	for (i = 0; left > 0 && i < prog->npreds; i++) {
		if (k->inl[i] && !done[i]) {
			st = dl_fail_at(k->diag, MAELYS_DATALOG_STATUS_ROLE,
					prog->source_name, prog->preds[i].pos,
					"relation '%s' is inline and in a cycle "
					"of inlined relations, which cannot be "
					"inlined",
					prog->preds[i].name);
			break;
		}
	}
	dl_free(indeg);
	dl_free(done);
	return st;
}

/* Whether a rule of `pid` has a variable that its head does not have. */
static bool
dl_relq_brings_vars(const struct dl_program *prog, uint32_t pid)
{
	size_t r, v, j;

	for (r = 0; r < prog->nrules; r++) {
		const struct dl_rule *rule = &prog->rules[r];
		uint32_t arity = prog->preds[pid].arity;

		if (rule->head_pred != pid)
			continue;
		for (v = 0; v < rule->nvars; v++) {
			for (j = 0; j < arity; j++)
				if (rule->head[j].kind == DL_CT_VAR &&
				    rule->head[j].v == v)
					break;
			if (j == arity)
				return true;
		}
	}
	return false;
}

static maelys_datalog_status_t
dl_relq_inline_negated(struct dl_relq_ck *k)
{
	const struct dl_program *prog = k->prog;
	size_t r, b, j;

	for (r = 0; r < prog->nrules; r++) {
		const struct dl_rule *rule = &prog->rules[r];

		for (b = 0; b < rule->nbody; b++) {
			const struct dl_clit *l = &rule->body[b];

			if (l->kind != DL_LIT_ATOM || !l->negated ||
			    !k->inl[l->pred])
				continue;
			for (j = 0; j < l->nargs; j++)
				if (l->args[j].kind == DL_CT_ANON)
					return dl_fail_at(
					    k->diag,
					    MAELYS_DATALOG_STATUS_UNSAFE,
					    prog->source_name, l->pos,
					    "negated inline relation '%s' "
					    "with a '_': it cannot be "
					    "inlined",
					    prog->preds[l->pred].name);
			if (dl_relq_brings_vars(prog, l->pred))
				return dl_fail_at(
				    k->diag, MAELYS_DATALOG_STATUS_UNSAFE,
				    prog->source_name, l->pos,
				    "negated inline relation '%s' has a rule "
				    "with variables of its own: it cannot be "
				    "inlined",
				    prog->preds[l->pred].name);
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* One order of a rule's plan against the rule. */
static maelys_datalog_status_t
dl_relq_plan_order(struct dl_relq_ck *k, const struct dl_rule *rule,
		   const struct dl_ast_plan *pl)
{
	const struct dl_program *prog = k->prog;
	uint32_t stratum = prog->preds[rule->head_pred].stratum;
	bool seen[DL_BODY_MAX];
	size_t natoms = 0, nrec = 0, b, j;

	for (b = 0; b < rule->nbody; b++) {
		const struct dl_clit *l = &rule->body[b];

		if (l->kind != DL_LIT_ATOM || l->negated)
			continue;
		natoms++;
		if (prog->preds[l->pred].stratum == stratum)
			nrec++;
	}
	if (pl->n != natoms)
		return dl_fail_at(k->diag, MAELYS_DATALOG_STATUS_PARSE,
				  prog->source_name, pl->pos,
				  "invalid execution order in .plan: expected "
				  "%zu atoms, not %zu",
				  natoms, pl->n);
	memset(seen, 0, sizeof seen);
	for (j = 0; j < pl->n; j++) {
		if (pl->order[j] < 1 || (uint64_t)pl->order[j] > natoms ||
		    seen[pl->order[j] - 1])
			return dl_fail_at(k->diag, MAELYS_DATALOG_STATUS_PARSE,
					  prog->source_name, pl->pos,
					  "invalid execution order in .plan: "
					  "not each of the atoms 1..%zu once",
					  natoms);
		seen[pl->order[j] - 1] = true;
	}
	/* a recursive rule has a version per atom of its own stratum */
	if (rule->recursive &&
	    (pl->version < 0 || (uint64_t)pl->version >= nrec))
		return dl_fail_at(k->diag, MAELYS_DATALOG_STATUS_PARSE,
				  prog->source_name, pl->pos,
				  "execution plan for version %lld: only "
				  "versions 0..%zu permitted",
				  (long long)pl->version, nrec - 1);
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_relq_plans(struct dl_relq_ck *k)
{
	const struct dl_program *prog = k->prog;
	size_t i, r = 0, j;

	for (i = 0; i < k->ast->nclauses; i++) {
		const struct dl_ast_clause *c = &k->ast->clauses[i];
		const struct dl_rule *rule;

		if (c->nbody == 0)
			continue;
		if (r == prog->nrules)
			break; /* rules made otherwise: nothing to match */
		rule = &prog->rules[r++];
		if (rule->pos.line != c->pos.line ||
		    rule->pos.column != c->pos.column)
			break; /* not the rule of this clause: stop checking */
		for (j = 0; j < c->nplans; j++) {
			maelys_datalog_status_t st =
			    dl_relq_plan_order(k, rule, &c->plans[j]);

			if (st != MAELYS_DATALOG_STATUS_OK)
				return st;
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}

maelys_datalog_status_t
dl_relq_check(const struct dl_program *prog, const struct dl_ast *ast,
	      maelys_datalog_diagnostic_t *diag)
{
	struct dl_relq_ck k;
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_OK;
	bool any = false;
	size_t i;

	memset(&k, 0, sizeof k);
	k.prog = prog;
	k.ast = ast;
	k.diag = diag;
	for (i = 0; i < ast->ndecls; i++)
		if ((ast->decls[i].quals & DL_QUAL_INLINE) != 0 &&
		    (ast->decls[i].quals & DL_QUAL_NO_INLINE) == 0)
			any = true;
	if (any) {
		k.inl = dl_calloc(prog->npreds == 0 ? 1 : prog->npreds,
				  sizeof *k.inl);
		if (k.inl == NULL)
			return dl_fail(diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
				       "out of memory while checking inlined "
				       "relations");
		for (i = 0; i < ast->ndecls; i++) {
			const struct dl_ast_decl *d = &ast->decls[i];
			uint32_t pid;

			if ((d->quals & DL_QUAL_INLINE) == 0 ||
			    (d->quals & DL_QUAL_NO_INLINE) != 0)
				continue;
			pid = dl_program_find_pred(prog, d->name, d->name_len);
			if (pid != DL_NONE)
				k.inl[pid] = true;
		}
		st = dl_relq_inline_io(&k);
		if (st == MAELYS_DATALOG_STATUS_OK)
			st = dl_relq_inline_cycle(&k);
		if (st == MAELYS_DATALOG_STATUS_OK)
			st = dl_relq_inline_negated(&k);
		dl_free(k.inl);
		k.inl = NULL;
	}
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_relq_plans(&k);
	return st;
}

/* ------------------------------------------------------------------ */
/* choice-domain                                                       */
/* ------------------------------------------------------------------ */

maelys_datalog_status_t
dl_relq_choice_indexes(struct dl_program *prog, const struct dl_ast *ast,
		       maelys_datalog_diagnostic_t *diag)
{
	size_t i, k;
	uint32_t j;

	for (i = 0; i < ast->ndecls; i++) {
		const struct dl_ast_decl *d = &ast->decls[i];
		struct dl_pred *p;
		uint32_t pid;

		if (d->nchoice == 0)
			continue;
		pid = dl_program_find_pred(prog, d->name, d->name_len);
		if (pid == DL_NONE)
			continue; /* not this program's: refused elsewhere */
		p = &prog->preds[pid];
		p->nchoice = 0;
		for (k = 0; k < d->nchoice; k++) {
			for (j = 0; j < p->nindexes; j++)
				if (p->index_masks[j] == d->choice_masks[k])
					break;
			if (j == p->nindexes) {
				if (p->nindexes == DL_INDEXES_MAX)
					return dl_fail_at(
					    diag, MAELYS_DATALOG_STATUS_LIMIT,
					    prog->source_name, d->pos,
					    "'%s' needs more than %d indexes",
					    p->name, DL_INDEXES_MAX);
				p->index_masks[p->nindexes++] =
				    d->choice_masks[k];
			}
			p->choice_index[p->nchoice++] = j;
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}
