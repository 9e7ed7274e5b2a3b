/* SPDX-License-Identifier: MIT */
/*
 * The checker's part for records and algebraic data types: resolving their
 * declarations (in any order) into prog->rtypes, the record columns of the
 * declared relations, ground record terms of facts, and the type inference
 * of a rule's record terms - Souffle refuses a record whose type it cannot
 * tell, of the wrong arity, in a number or symbol column, or mixing two
 * record types, and so does this.
 */
#include "dl_record.h"

#include "dl_types.h"

#include <stdio.h>
#include <string.h>

#define DL_TRY_RC(expr)                                                        \
	do {                                                                   \
		maelys_datalog_status_t try_st_ = (expr);                      \
		if (try_st_ != MAELYS_DATALOG_STATUS_OK)                       \
			return try_st_;                                        \
	} while (0)

/* The most aliases followed from one type name (a cycle is an error). */
#define DL_RECORD_ALIAS_MAX 64

static maelys_datalog_status_t
dl_rc_nomem(maelys_datalog_diagnostic_t *diag)
{
	return dl_fail(diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
		       "out of memory while checking record types");
}

static uint32_t
dl_rc_rtype_index(const struct dl_ast *ast, const char *name)
{
	uint32_t i;

	for (i = 0; i < ast->nrtypes; i++)
		if (strcmp(ast->rtypes[i].name, name) == 0)
			return i;
	return DL_NONE;
}

/* What type name `name` stands for: a base column type, and for RECORD the
 * record or ADT type.  False if no type has that name (or aliases loop). */
static bool
dl_rc_resolve(const struct dl_ast *ast, const char *name,
	      maelys_datalog_column_type_t *base, uint32_t *rtype)
{
	unsigned hops;
	size_t i;

	*rtype = DL_NONE;
	for (hops = 0; hops < DL_RECORD_ALIAS_MAX; hops++) {
		if (strcmp(name, "number") == 0) {
			*base = MAELYS_DATALOG_COLUMN_NUMBER;
			return true;
		}
		/* an unsigned or a float field holds its 64 bits as a
		 * number does; record.c prints and reads it by this base */
		if (strcmp(name, "unsigned") == 0) {
			*base = MAELYS_DATALOG_COLUMN_UNSIGNED;
			return true;
		}
		if (strcmp(name, "symbol") == 0) {
			*base = MAELYS_DATALOG_COLUMN_SYMBOL;
			return true;
		}
		if (strcmp(name, "float") == 0) {
			*base = MAELYS_DATALOG_COLUMN_FLOAT;
			return true;
		}
		for (i = 0; i < ast->ntypes; i++)
			if (strcmp(ast->types[i].name, name) == 0)
				break;
		if (i == ast->ntypes)
			return false;
		if (ast->types[i].form == DL_TYPE_RECORD) {
			*base = MAELYS_DATALOG_COLUMN_RECORD;
			*rtype = dl_rc_rtype_index(ast, name);
			return *rtype != DL_NONE;
		}
		/* a subtype, an equivalence or a union (whose members share
		 * one kind, types.c) is of its first type's kind */
		if (ast->types[i].nof == 0)
			return false;
		name = ast->types[i].of[0];
	}
	return false;
}

uint32_t
dl_record_type_find(const struct dl_program *prog, const struct dl_ast *ast,
		    const char *name)
{
	maelys_datalog_column_type_t base;
	uint32_t rt;

	(void)prog;
	if (!dl_rc_resolve(ast, name, &base, &rt) ||
	    base != MAELYS_DATALOG_COLUMN_RECORD)
		return DL_NONE;
	return rt;
}

bool
dl_record_branch_find(const struct dl_program *prog, const char *name,
		      size_t len, uint32_t *rtype, uint32_t *branch)
{
	uint32_t i, b;

	for (i = 0; i < prog->nrtypes; i++) {
		const struct dl_rtype *t = &prog->rtypes[i];

		if (!t->adt)
			continue;
		for (b = 0; b < t->nbranches; b++) {
			/* NULL: not resolved yet (dl_record_check_types) */
			if (t->branches[b].name != NULL &&
			    strlen(t->branches[b].name) == len &&
			    memcmp(t->branches[b].name, name, len) == 0) {
				*rtype = i;
				*branch = b;
				return true;
			}
		}
	}
	return false;
}

static const char *
dl_rc_copy(struct dl_program *prog, const char *s)
{
	return s == NULL ? NULL : dl_arena_strndup(&prog->arena, s, strlen(s));
}

maelys_datalog_status_t
dl_record_check_types(struct dl_program *prog, const struct dl_ast *ast,
		      const char *source, maelys_datalog_diagnostic_t *diag)
{
	uint32_t i, b, f, rt;
	size_t k, d;

	for (i = 0; i < prog->npreds; i++)
		for (k = 0; k < MAELYS_DATALOG_MAX_ARITY; k++)
			prog->preds[i].rtypes[k] = DL_NONE;
	if (ast->nrtypes > 0) {
		prog->rtypes = dl_arena_alloc(
		    &prog->arena, ast->nrtypes * sizeof *prog->rtypes);
		if (prog->rtypes == NULL)
			return dl_rc_nomem(diag);
		memset(prog->rtypes, 0, ast->nrtypes * sizeof *prog->rtypes);
	}
	/* every type first, then their fields: a field may name a type
	 * declared after it, or its own */
	for (i = 0; i < ast->nrtypes; i++) {
		const struct dl_ast_rtype *a = &ast->rtypes[i];
		struct dl_rtype *t = &prog->rtypes[i];

		if (strcmp(a->name, "number") == 0 ||
		    strcmp(a->name, "symbol") == 0 ||
		    strcmp(a->name, "unsigned") == 0 ||
		    strcmp(a->name, "float") == 0)
			return dl_fail_at(diag,
					  MAELYS_DATALOG_STATUS_REDECLARED,
					  source, a->pos,
					  "'%s' is a predefined type and "
					  "cannot be redefined",
					  a->name);
		t->name = dl_rc_copy(prog, a->name);
		t->adt = a->adt;
		t->nbranches = a->nbranches;
		t->branches = dl_arena_alloc(
		    &prog->arena, a->nbranches * sizeof *t->branches);
		if (t->name == NULL || t->branches == NULL)
			return dl_rc_nomem(diag);
		memset(t->branches, 0, a->nbranches * sizeof *t->branches);
	}
	prog->nrtypes = (uint32_t)ast->nrtypes;
	for (i = 0; i < ast->nrtypes; i++) {
		const struct dl_ast_rtype *a = &ast->rtypes[i];
		struct dl_rtype *t = &prog->rtypes[i];

		for (b = 0; b < a->nbranches; b++) {
			const struct dl_ast_rbranch *ab = &a->branches[b];
			struct dl_rbranch *tb = &t->branches[b];
			uint32_t ot, ob;

			if (ab->name != NULL &&
			    dl_record_branch_find(prog, ab->name,
						  strlen(ab->name), &ot, &ob) &&
			    (ot != i || ob < b))
				return dl_fail_at(
				    diag, MAELYS_DATALOG_STATUS_REDECLARED,
				    source, ab->pos,
				    "branch %s is already a branch of type "
				    "'%s'",
				    ab->name, prog->rtypes[ot].name);
			tb->name = dl_rc_copy(prog, ab->name);
			tb->nfields = ab->nfields;
			if (ab->nfields > 0) {
				tb->fields = dl_arena_alloc(
				    &prog->arena,
				    ab->nfields * sizeof *tb->fields);
				if (tb->fields == NULL)
					return dl_rc_nomem(diag);
			}
			if (ab->name != NULL && tb->name == NULL)
				return dl_rc_nomem(diag);
			for (f = 0; f < ab->nfields; f++) {
				const struct dl_ast_rfield *af = &ab->fields[f];
				struct dl_rfield *tf = &tb->fields[f];

				tf->name = dl_rc_copy(prog, af->name);
				if (tf->name == NULL)
					return dl_rc_nomem(diag);
				if (!dl_rc_resolve(ast, af->type, &tf->base,
						   &tf->rtype))
					return dl_fail_at(
					    diag, MAELYS_DATALOG_STATUS_PARSE,
					    source, af->pos,
					    "unknown type '%s' of field '%s' "
					    "(symbol, number, unsigned, float "
					    "or a .type)",
					    af->type, af->name);
			}
		}
	}
	/* the record columns of the declared relations (and the columns
	 * whose type is declared after the relation) */
	for (d = 0; d < ast->ndecls; d++) {
		const struct dl_ast_decl *a = &ast->decls[d];
		uint32_t pid = dl_program_find_pred(prog, a->name, a->name_len);
		struct dl_pred *p;

		if (pid == DL_NONE)
			continue;
		p = &prog->preds[pid];
		if (p->from_domain)
			continue;
		for (k = 0; k < a->arity && k < p->arity; k++) {
			maelys_datalog_column_type_t base;

			/* types.c resolved every name (and refused the
			 * unknown ones) before: only the record type of a
			 * RECORD column is left to find */
			if (a->type_names[k] == NULL ||
			    p->columns[k] != MAELYS_DATALOG_COLUMN_RECORD)
				continue;
			if (!dl_rc_resolve(ast, a->type_names[k], &base, &rt) ||
			    base != MAELYS_DATALOG_COLUMN_RECORD)
				return dl_fail_at(
				    diag, MAELYS_DATALOG_STATUS_PARSE, source,
				    a->type_pos[k],
				    "unknown type '%s' of column %zu of '%s' "
				    "(symbol, number or a .type)",
				    a->type_names[k], k + 1, a->name);
			p->rtypes[k] = rt;
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_rc_kind_error(maelys_datalog_diagnostic_t *diag, const char *source,
		 struct dl_pos pos, const char *what, const char *want)
{
	return dl_fail_at(diag, MAELYS_DATALOG_STATUS_TYPE, source, pos,
			  "%s where %s is expected", what, want);
}

static const char *
dl_rc_base_name(maelys_datalog_column_type_t base)
{
	switch (base) {
	case MAELYS_DATALOG_COLUMN_NUMBER:
		return "a number";
	case MAELYS_DATALOG_COLUMN_SYMBOL:
		return "a symbol";
	case MAELYS_DATALOG_COLUMN_RECORD:
		return "a record";
	case MAELYS_DATALOG_COLUMN_UNSIGNED:
		return "an unsigned";
	case MAELYS_DATALOG_COLUMN_FLOAT:
		return "a float";
	case MAELYS_DATALOG_COLUMN_ANY:
		break;
	}
	return "a value";
}

/* One ground term of a fact (or a field of one), of the given base type. */
static maelys_datalog_status_t
dl_rc_const(struct dl_program *prog, const struct dl_ast_term *t,
	    maelys_datalog_column_type_t base, uint32_t rtype,
	    const char *source, maelys_datalog_diagnostic_t *diag,
	    dl_value *out)
{
	struct dl_symview v = {NULL, &prog->symbols};
	dl_value fields[DL_RECORD_FIELDS_MAX];
	const struct dl_rtype *rt;
	const struct dl_rbranch *b;
	uint32_t branch = 0, k, tt;

	switch (t->kind) {
	case DL_TERM_VAR:
	case DL_TERM_ANON:
	case DL_TERM_EXPR:
	case DL_TERM_AGG:
		return dl_fail_at(diag, MAELYS_DATALOG_STATUS_UNSAFE, source,
				  t->pos,
				  "a fact must be ground: a record's field "
				  "has no value");
	case DL_TERM_INT: {
		const char *why = NULL;
		int64_t i;

		if (base == MAELYS_DATALOG_COLUMN_SYMBOL ||
		    base == MAELYS_DATALOG_COLUMN_RECORD)
			return dl_rc_kind_error(diag, source, t->pos,
						"a number",
						dl_rc_base_name(base));
		/* a plain 1 in a float field is 1.0, 1.5 in a number field
		 * an error: the rule every literal's place follows */
		if (dl_types_literal(t->integer, t->numkind, base, &i, &why) !=
		    MAELYS_DATALOG_STATUS_OK)
			return dl_fail_at(diag, MAELYS_DATALOG_STATUS_TYPE,
					  source, t->pos, "%s", why);
		if (dl_symview_intern_int(&v, i, out) != 0)
			return dl_rc_nomem(diag);
		return MAELYS_DATALOG_STATUS_OK;
	}
	case DL_TERM_SYMBOL:
		if (base == MAELYS_DATALOG_COLUMN_NUMBER ||
		    base == MAELYS_DATALOG_COLUMN_RECORD)
			return dl_rc_kind_error(diag, source, t->pos,
						"a symbol",
						dl_rc_base_name(base));
		if (dl_symview_intern_string(&v, t->text, t->len, out) != 0)
			return dl_rc_nomem(diag);
		return MAELYS_DATALOG_STATUS_OK;
	case DL_TERM_NIL:
		if (base != MAELYS_DATALOG_COLUMN_RECORD || rtype == DL_NONE ||
		    prog->rtypes[rtype].adt)
			return dl_rc_kind_error(diag, source, t->pos, "nil",
						dl_rc_base_name(base));
		if (dl_symview_intern_record(&v, NULL, 0, out) != 0)
			return dl_rc_nomem(diag);
		return MAELYS_DATALOG_STATUS_OK;
	case DL_TERM_RECORD:
	case DL_TERM_ADT:
		break;
	}
	if (base != MAELYS_DATALOG_COLUMN_RECORD || rtype == DL_NONE)
		return dl_rc_kind_error(diag, source, t->pos, "a record",
					dl_rc_base_name(base));
	rt = &prog->rtypes[rtype];
	if (t->kind == DL_TERM_ADT) {
		if (!dl_record_branch_find(prog, t->rec->branch,
					   t->rec->branch_len, &tt, &branch))
			return dl_fail_at(diag,
					  MAELYS_DATALOG_STATUS_UNDECLARED,
					  source, t->pos,
					  "unknown branch $%s (no algebraic "
					  "data type has it)",
					  t->rec->branch);
		if (tt != rtype)
			return dl_fail_at(
			    diag, MAELYS_DATALOG_STATUS_TYPE, source, t->pos,
			    "$%s is a value of type '%s', not "
			    "of '%s'",
			    t->rec->branch, prog->rtypes[tt].name, rt->name);
	} else if (rt->adt) {
		return dl_fail_at(diag, MAELYS_DATALOG_STATUS_TYPE, source,
				  t->pos,
				  "a record where a value of the algebraic "
				  "data type '%s' is expected",
				  rt->name);
	}
	b = &rt->branches[branch];
	if (b->nfields != t->rec->nargs)
		return dl_fail_at(
		    diag, MAELYS_DATALOG_STATUS_ARITY, source, t->pos,
		    "%s of type '%s' has %u field%s, not %u",
		    t->kind == DL_TERM_ADT ? "branch" : "record", rt->name,
		    b->nfields, b->nfields == 1 ? "" : "s", t->rec->nargs);
	for (k = 0; k < b->nfields; k++)
		DL_TRY_RC(dl_rc_const(prog, &t->rec->args[k], b->fields[k].base,
				      b->fields[k].rtype, source, diag,
				      &fields[k]));
	if (dl_record_make(&v, rtype, rt, branch, fields, b->nfields, out) != 0)
		return dl_rc_nomem(diag);
	return MAELYS_DATALOG_STATUS_OK;
}

maelys_datalog_status_t
dl_record_const(struct dl_program *prog, const struct dl_ast_term *t,
		maelys_datalog_column_type_t base, uint32_t rtype,
		const char *source, maelys_datalog_diagnostic_t *diag,
		dl_value *out)
{
	return dl_rc_const(prog, t, base, rtype, source, diag, out);
}

/* The inference of one rule's record types (dl_record_check_rule). */
struct dl_rc_infer {
	const struct dl_program *prog;
	const char *const *names;
	const char *source;
	maelys_datalog_diagnostic_t *diag;
	uint32_t vt[DL_VARS_MAX];    /* a variable's record type, DL_NONE */
	uint8_t base[DL_VARS_MAX];   /* the base type it was seen as */
	uint32_t recof[DL_VARS_MAX]; /* the record term it stands for */
	bool changed;
	bool bases; /* check number against symbol too */
};

static maelys_datalog_status_t
dl_rc_unify(struct dl_rc_infer *in, uint32_t v, uint32_t rt, struct dl_pos pos)
{
	if (in->vt[v] == rt)
		return MAELYS_DATALOG_STATUS_OK;
	if (in->vt[v] == DL_NONE) {
		in->vt[v] = rt;
		in->changed = true;
		return MAELYS_DATALOG_STATUS_OK;
	}
	return dl_fail_at(in->diag, MAELYS_DATALOG_STATUS_TYPE, in->source, pos,
			  "%s is of record type '%s' and of '%s'", in->names[v],
			  in->prog->rtypes[in->vt[v]].name,
			  in->prog->rtypes[rt].name);
}

/* A term in a place of base type `base` (record type rt): a column of an
 * atom or a field of a record. */
static maelys_datalog_status_t
dl_rc_place(struct dl_rc_infer *in, const struct dl_cterm *a,
	    maelys_datalog_column_type_t base, uint32_t rt, struct dl_pos pos,
	    const char *where)
{
	struct dl_symview v = {&in->prog->symbols, NULL};
	uint32_t n;

	if (a->kind == DL_CT_CONST && in->bases) {
		bool rec = dl_symview_record(&v, a->v, &n) != NULL;

		if (rec != (base == MAELYS_DATALOG_COLUMN_RECORD) &&
		    base != MAELYS_DATALOG_COLUMN_ANY)
			return dl_fail_at(in->diag, MAELYS_DATALOG_STATUS_TYPE,
					  in->source, pos,
					  "%s in %s, which holds %s",
					  rec ? "nil" : "a constant", where,
					  dl_rc_base_name(base));
		return MAELYS_DATALOG_STATUS_OK;
	}
	if (a->kind != DL_CT_VAR)
		return MAELYS_DATALOG_STATUS_OK;
	if (base == MAELYS_DATALOG_COLUMN_RECORD)
		return dl_rc_unify(in, a->v, rt, pos);
	if (!in->bases)
		return MAELYS_DATALOG_STATUS_OK;
	if (in->recof[a->v] != DL_NONE || in->vt[a->v] != DL_NONE)
		return dl_fail_at(
		    in->diag, MAELYS_DATALOG_STATUS_TYPE, in->source, pos,
		    "the record %s in %s, which holds %s", in->names[a->v],
		    where, dl_rc_base_name(base));
	if (base != MAELYS_DATALOG_COLUMN_ANY) {
		if (in->base[a->v] != 0 && in->base[a->v] != (uint8_t)base)
			return dl_fail_at(in->diag, MAELYS_DATALOG_STATUS_TYPE,
					  in->source, pos, "%s is %s and %s (in %s)",
					  in->names[a->v],
					  dl_rc_base_name(in->base[a->v]),
					  dl_rc_base_name(base), where);
		in->base[a->v] = (uint8_t)base;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* Field k of record term x, of base type `base`: its term was compiled
 * (its constant encoded, its comparisons chosen) by the kind check_types.c
 * gave it, which must be the field's when that is an unsigned or a float -
 * else 1 would be the integer 1 in a float field, x < y compare a float's
 * bits.  check_types.c gives the field's kind to a record term whose type
 * it sees (in a column, or an ADT's branch); one it cannot see (r = [x, y],
 * r typed elsewhere) is refused here when the kind matters. */
static maelys_datalog_status_t
dl_rc_field_kind(struct dl_rc_infer *in, const struct dl_crec *x, uint32_t k,
		 maelys_datalog_column_type_t base, const char *where)
{
	uint8_t got = x->kinds != NULL ? x->kinds[k]
				       : (uint8_t)MAELYS_DATALOG_COLUMN_ANY;
	bool exact = base == MAELYS_DATALOG_COLUMN_UNSIGNED ||
		     base == MAELYS_DATALOG_COLUMN_FLOAT;

	if (x->args[k].kind == DL_CT_ANON || got == (uint8_t)base)
		return MAELYS_DATALOG_STATUS_OK;
	if (exact || got == MAELYS_DATALOG_COLUMN_UNSIGNED ||
	    got == MAELYS_DATALOG_COLUMN_FLOAT)
		return dl_fail_at(in->diag, MAELYS_DATALOG_STATUS_TYPE,
				  in->source, x->pos,
				  "the term in %s is typed as %s, not as %s "
				  "(write the record where its type is seen: "
				  "in a column of its type, or as an ADT's "
				  "branch)",
				  where,
				  got == MAELYS_DATALOG_COLUMN_ANY
				      ? "nothing"
				      : dl_rc_base_name(got),
				  dl_rc_base_name(base));
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_rc_atom(struct dl_rc_infer *in, uint32_t pid, const struct dl_cterm *args,
	   uint32_t nargs, struct dl_pos pos)
{
	const struct dl_pred *p = &in->prog->preds[pid];
	char where[96];
	uint32_t k;

	for (k = 0; k < nargs; k++) {
		(void)snprintf(where, sizeof where, "column %u of '%s'", k + 1,
			       p->name);
		DL_TRY_RC(dl_rc_place(in, &args[k], p->columns[k], p->rtypes[k],
				      pos, where));
	}
	return MAELYS_DATALOG_STATUS_OK;
}

maelys_datalog_status_t
dl_record_check_rule(const struct dl_program *prog, struct dl_rule *r,
		     const char *const *var_names, const char *source,
		     maelys_datalog_diagnostic_t *diag)
{
	struct dl_rc_infer in;
	uint32_t i, k, rounds;

	memset(&in, 0, sizeof in);
	/* a rule of no record terms is checked only for the record types of
	 * its columns (two record types meeting in one variable) */
	in.bases = r->nrecs > 0;
	in.prog = prog;
	in.names = var_names;
	in.source = source;
	in.diag = diag;
	memset(in.vt, 0xff, sizeof in.vt);
	memset(in.recof, 0xff, sizeof in.recof);
	for (i = 0; i < r->nrecs; i++) {
		in.recof[r->recs[i].target] = i;
		if (r->recs[i].rtype != DL_NONE)
			in.vt[r->recs[i].target] = r->recs[i].rtype;
	}
	/* every round settles at least one more variable, or stops */
	for (rounds = 0; rounds <= r->nvars + 1; rounds++) {
		in.changed = false;
		DL_TRY_RC(dl_rc_atom(&in, r->head_pred, r->head,
				     prog->preds[r->head_pred].arity, r->pos));
		for (i = 0; i < r->nbody; i++) {
			const struct dl_clit *l = &r->body[i];

			if (l->kind == DL_LIT_ATOM)
				DL_TRY_RC(dl_rc_atom(&in, l->pred, l->args,
						     l->nargs, l->pos));
			else if (l->kind == DL_LIT_CMP &&
				 l->args[0].kind == DL_CT_VAR &&
				 l->args[1].kind == DL_CT_VAR) {
				uint32_t a = l->args[0].v, b = l->args[1].v;

				if (in.vt[a] != DL_NONE)
					DL_TRY_RC(dl_rc_unify(&in, b, in.vt[a],
							      l->pos));
				else if (in.vt[b] != DL_NONE)
					DL_TRY_RC(dl_rc_unify(&in, a, in.vt[b],
							      l->pos));
			}
		}
		for (i = 0; i < r->nrecs; i++) {
			struct dl_crec *x = &r->recs[i];
			const struct dl_rtype *t;
			const struct dl_rbranch *b;
			char where[96];

			if (in.vt[x->target] == DL_NONE ||
			    in.vt[x->target] == DL_RECORD_UNTYPED)
				continue;
			if (x->rtype == DL_NONE) {
				x->rtype = in.vt[x->target];
				if (prog->rtypes[x->rtype].adt)
					return dl_fail_at(
					    diag, MAELYS_DATALOG_STATUS_TYPE,
					    source, x->pos,
					    "the record %s where a value of "
					    "the algebraic data type '%s' is "
					    "expected",
					    var_names[x->target],
					    prog->rtypes[x->rtype].name);
			}
			t = &prog->rtypes[x->rtype];
			b = &t->branches[x->branch];
			if (b->nfields != x->nargs)
				return dl_fail_at(
				    diag, MAELYS_DATALOG_STATUS_ARITY, source,
				    x->pos,
				    "%s has %u field%s, but type '%s' has %u",
				    var_names[x->target], x->nargs,
				    x->nargs == 1 ? "" : "s", t->name,
				    b->nfields);
			for (k = 0; k < x->nargs; k++) {
				(void)snprintf(where, sizeof where,
					       "field '%s' of '%s'",
					       b->fields[k].name, t->name);
				DL_TRY_RC(dl_rc_place(
				    &in, &x->args[k], b->fields[k].base,
				    b->fields[k].rtype, x->pos, where));
				DL_TRY_RC(dl_rc_field_kind(&in, x, k,
							   b->fields[k].base,
							   where));
			}
		}
		if (!in.changed)
			break;
	}
	/* a record that meets no column is of no declared type: its fields
	 * must be ground values of their own (no nested typing to check) */
	for (i = 0; i < r->nrecs; i++) {
		if (r->recs[i].rtype == DL_NONE)
			r->recs[i].rtype = DL_RECORD_UNTYPED;
		r->recs[i].adt = r->recs[i].rtype != DL_RECORD_UNTYPED &&
				 prog->rtypes[r->recs[i].rtype].adt;
	}
	return MAELYS_DATALOG_STATUS_OK;
}
