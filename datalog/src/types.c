/* SPDX-License-Identifier: MIT */
/*
 * The type environment (dl_types.h): the primitive types and the program's
 * .type declarations, resolved in any order and checked as Souffle checks
 * them, and the subtype relation over them, computed once per load.
 */
#include "dl_types.h"

#include "dl_mem.h"

#include <string.h>

enum dl_ty_form {
	DL_TY_FORM_ROOT,
	DL_TY_FORM_SUBSET,
	DL_TY_FORM_ALIAS,
	DL_TY_FORM_UNION,
	/* a record or ADT type: a root of its own, like the constant types
	 * (its fields are check_record.c's) */
	DL_TY_FORM_RECORD
};

struct dl_ty {
	const char *name; /* the AST's, or a static string */
	enum dl_ty_form form;
	uint16_t *of; /* SUBSET, ALIAS: of[0]; UNION: its members */
	size_t nof;
	struct dl_pos pos;
	maelys_datalog_column_type_t kind;
};

struct dl_typeenv {
	size_t n;
	struct dl_ty ty[DL_TY_COUNT_MAX];
	uint16_t canon[DL_TY_COUNT_MAX]; /* an equivalence's target */
	/* sub[a * n + b]: 0 unknown, 1 a <: b, 2 not */
	uint8_t *sub;
	uint16_t *cols; /* pid * MAELYS_DATALOG_MAX_ARITY + k */
	size_t ncols;
	uint16_t members[DL_TYPES_MAX * DL_UNION_MAX];
	size_t nmembers;
};

static const char *const dl_ty_builtin[DL_TY_USER] = {
    "__numberConstant",
    "__unsignedConstant",
    "__floatConstant",
    "__symbolConstant",
    "number",
    "unsigned",
    "float",
    "symbol",
};

static const maelys_datalog_column_type_t dl_ty_builtin_kind[4] = {
    MAELYS_DATALOG_COLUMN_NUMBER, MAELYS_DATALOG_COLUMN_UNSIGNED,
    MAELYS_DATALOG_COLUMN_FLOAT, MAELYS_DATALOG_COLUMN_SYMBOL};

static bool
dl_ty_named(const struct dl_typeenv *env, const char *name, uint16_t *out)
{
	size_t i;

	for (i = DL_TY_NUMBER; i < env->n; i++) {
		if (strcmp(env->ty[i].name, name) == 0) {
			*out = (uint16_t)i;
			return true;
		}
	}
	return false;
}

/* Colours of the depth-first search for cycles: 0 new, 1 on the path, 2
 * done. */
static bool
dl_ty_cyclic(const struct dl_typeenv *env, uint16_t t, uint8_t *colour)
{
	size_t i;

	if (colour[t] == 2)
		return false;
	if (colour[t] == 1)
		return true;
	colour[t] = 1;
	for (i = 0; i < env->ty[t].nof; i++)
		if (dl_ty_cyclic(env, env->ty[t].of[i], colour))
			return true;
	colour[t] = 2;
	return false;
}

static maelys_datalog_column_type_t
dl_ty_kind(struct dl_typeenv *env, uint16_t t)
{
	return env->ty[t].kind;
}

/* Souffle's isOfRootType: t reaches root through subsets, or is a union
 * of such types. */
static bool
dl_ty_of_root(const struct dl_typeenv *env, uint16_t t, uint16_t root)
{
	const struct dl_ty *x;
	size_t i;

	t = env->canon[t];
	if (t == root)
		return true;
	x = &env->ty[t];
	if (x->form == DL_TY_FORM_SUBSET)
		return dl_ty_of_root(env, x->of[0], root);
	if (x->form == DL_TY_FORM_UNION) {
		for (i = 0; i < x->nof; i++)
			if (!dl_ty_of_root(env, x->of[i], root))
				return false;
		return true;
	}
	return false;
}

bool
dl_types_subtype(const struct dl_typeenv *env, uint16_t a, uint16_t b)
{
	const struct dl_ty *x, *y;
	uint8_t *memo;
	bool r = false;
	size_t i;

	a = env->canon[a];
	b = env->canon[b];
	memo = &env->sub[(size_t)a * env->n + b];
	if (*memo != 0)
		return *memo == 1;
	x = &env->ty[a];
	y = &env->ty[b];
	if (dl_ty_of_root(env, a, b)) {
		r = true;
	} else if (x->form == DL_TY_FORM_UNION) {
		r = true;
		for (i = 0; i < x->nof && r; i++)
			r = dl_types_subtype(env, x->of[i], b);
	} else if (y->form == DL_TY_FORM_UNION) {
		for (i = 0; i < y->nof && !r; i++)
			r = dl_types_subtype(env, a, y->of[i]);
	}
	*memo = r ? 1 : 2;
	return r;
}

static void
dl_tyset_add(struct dl_tyset *s, uint16_t t)
{
	s->bits[t / 64] |= UINT64_C(1) << (t % 64);
}

static bool
dl_tyset_has(const struct dl_tyset *s, uint16_t t)
{
	return (s->bits[t / 64] >> (t % 64)) & 1u;
}

/* The members of union a (nested unions walked) that are subtypes of b. */
static void
dl_ty_collect(const struct dl_typeenv *env, uint16_t a, uint16_t b,
	      struct dl_tyset *out)
{
	const struct dl_ty *x;
	size_t i;

	a = env->canon[a];
	if (dl_types_subtype(env, a, b)) {
		dl_tyset_add(out, a);
		return;
	}
	x = &env->ty[a];
	if (x->form == DL_TY_FORM_UNION)
		for (i = 0; i < x->nof; i++)
			dl_ty_collect(env, x->of[i], b, out);
}

/* out |= the greatest common subtypes of a and b. */
static void
dl_ty_gcs(const struct dl_typeenv *env, uint16_t a, uint16_t b,
	  struct dl_tyset *out)
{
	a = env->canon[a];
	b = env->canon[b];
	if (dl_types_subtype(env, a, b))
		dl_tyset_add(out, a);
	else if (dl_types_subtype(env, b, a))
		dl_tyset_add(out, b);
	else if (env->ty[a].form == DL_TY_FORM_UNION &&
		 env->ty[b].form == DL_TY_FORM_UNION)
		dl_ty_collect(env, a, b, out);
}

void
dl_types_meet(const struct dl_typeenv *env, struct dl_tyset *s, uint16_t t)
{
	struct dl_tyset r;
	size_t i;

	if (s->all) {
		memset(s, 0, sizeof *s);
		dl_tyset_add(s, env->canon[t]);
		return;
	}
	memset(&r, 0, sizeof r);
	for (i = 0; i < env->n; i++)
		if (dl_tyset_has(s, (uint16_t)i))
			dl_ty_gcs(env, (uint16_t)i, t, &r);
	*s = r;
}

void
dl_types_meet_set(const struct dl_typeenv *env, struct dl_tyset *a,
		  const struct dl_tyset *b)
{
	struct dl_tyset r;
	size_t i, j;

	if (b->all)
		return;
	if (a->all) {
		*a = *b;
		return;
	}
	memset(&r, 0, sizeof r);
	for (i = 0; i < env->n; i++) {
		if (!dl_tyset_has(a, (uint16_t)i))
			continue;
		for (j = 0; j < env->n; j++)
			if (dl_tyset_has(b, (uint16_t)j))
				dl_ty_gcs(env, (uint16_t)i, (uint16_t)j, &r);
	}
	*a = r;
}

uint16_t
dl_types_root(maelys_datalog_column_type_t kind)
{
	switch (kind) {
	case MAELYS_DATALOG_COLUMN_UNSIGNED:
		return DL_TY_CONST_UNSIGNED;
	case MAELYS_DATALOG_COLUMN_FLOAT:
		return DL_TY_CONST_FLOAT;
	case MAELYS_DATALOG_COLUMN_SYMBOL:
		return DL_TY_CONST_SYMBOL;
	default:
		return DL_TY_CONST_NUMBER;
	}
}

bool
dl_types_is_root(uint16_t t)
{
	return t < DL_TY_NUMBER;
}

size_t
dl_types_count(const struct dl_typeenv *env)
{
	return env->n;
}

const char *
dl_types_name(const struct dl_typeenv *env, uint16_t t)
{
	return t < env->n ? env->ty[t].name : "?";
}

/* dl_fail_at with two string arguments, the format checked. */
#define dl_ty_fail(source, pos, diag, st, fmt, a, b)                           \
	dl_fail_at(diag, st, source, pos, fmt, a, b)

/* Resolves the names a .type is made of, and checks what Souffle checks
 * of each declaration but the cycles (dl_types_build). */
static maelys_datalog_status_t
dl_ty_resolve(struct dl_typeenv *env, const struct dl_ast *ast,
	      const char *source, maelys_datalog_diagnostic_t *diag)
{
	size_t i, k;

	for (i = 0; i < ast->ntypes; i++) {
		const struct dl_ast_type *a = &ast->types[i];
		struct dl_ty *t = &env->ty[DL_TY_USER + i];

		if (env->nmembers + a->nof >
		    sizeof env->members / sizeof *env->members)
			return dl_fail(diag, MAELYS_DATALOG_STATUS_LIMIT,
				       "too many types in unions");
		t->of = &env->members[env->nmembers];
		env->nmembers += a->nof;
		t->nof = a->nof;
		for (k = 0; k < a->nof; k++) {
			if (!dl_ty_named(env, a->of[k], &t->of[k]))
				return dl_ty_fail(
				    source, a->pos, diag,
				    MAELYS_DATALOG_STATUS_UNDECLARED,
				    "undefined type %s in the definition of "
				    "type %s",
				    a->of[k], t->name);
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* Kinds, bottom up (the types are acyclic by now); a union's members must
 * all have one. */
static maelys_datalog_status_t
dl_ty_kinds(struct dl_typeenv *env, uint16_t t, const char *source,
	    maelys_datalog_diagnostic_t *diag)
{
	struct dl_ty *x = &env->ty[t];
	size_t i;

	if (x->kind != MAELYS_DATALOG_COLUMN_ANY)
		return MAELYS_DATALOG_STATUS_OK;
	for (i = 0; i < x->nof; i++) {
		maelys_datalog_status_t st =
		    dl_ty_kinds(env, x->of[i], source, diag);
		maelys_datalog_column_type_t k;

		if (st != MAELYS_DATALOG_STATUS_OK)
			return st;
		k = dl_ty_kind(env, x->of[i]);
		if (i > 0 && k != x->kind)
			return dl_ty_fail(
			    source, x->pos, diag, MAELYS_DATALOG_STATUS_TYPE,
			    "union type %s mixes primitive types "
			    "(%s and another)",
			    x->name,
			    dl_ty_builtin[DL_TY_NUMBER + dl_types_root(k)]);
		x->kind = k;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* Whether union u has a record or ADT type among its members (nested
 * unions walked; the types are acyclic by now). */
static bool
dl_ty_has_record(const struct dl_typeenv *env, const struct dl_ty *u)
{
	size_t i;

	for (i = 0; i < u->nof; i++) {
		const struct dl_ty *m = &env->ty[env->canon[u->of[i]]];

		if (m->form == DL_TY_FORM_RECORD ||
		    (m->form == DL_TY_FORM_UNION && dl_ty_has_record(env, m)))
			return true;
	}
	return false;
}

maelys_datalog_status_t
dl_types_build(const struct dl_ast *ast, const char *source,
	       struct dl_typeenv **out, maelys_datalog_diagnostic_t *diag)
{
	struct dl_typeenv *env;
	maelys_datalog_status_t st;
	uint8_t colour[DL_TY_COUNT_MAX];
	size_t i;

	*out = NULL;
	if (ast->ntypes > DL_TYPES_MAX)
		return dl_fail(diag, MAELYS_DATALOG_STATUS_LIMIT,
			       "more than %d .type declarations", DL_TYPES_MAX);
	env = dl_calloc(1, sizeof *env);
	if (env == NULL)
		return dl_fail(diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
			       "out of memory for the types");
	for (i = 0; i < DL_TY_USER; i++) {
		struct dl_ty *t = &env->ty[i];

		t->name = dl_ty_builtin[i];
		t->form =
		    i < DL_TY_NUMBER ? DL_TY_FORM_ROOT : DL_TY_FORM_SUBSET;
		t->kind = dl_ty_builtin_kind[i % 4];
		if (i >= DL_TY_NUMBER) {
			t->of = &env->canon[i - DL_TY_NUMBER]; /* 0..3 */
			t->nof = 1;
		}
		env->canon[i] = (uint16_t)i;
	}
	env->n = DL_TY_USER;
	st = MAELYS_DATALOG_STATUS_OK;
	for (i = 0; i < ast->ntypes && st == MAELYS_DATALOG_STATUS_OK; i++) {
		const struct dl_ast_type *a = &ast->types[i];
		struct dl_ty *t = &env->ty[env->n];
		uint16_t old;

		if (dl_ty_named(env, a->name, &old) && old < DL_TY_USER) {
			st = dl_ty_fail(source, a->pos, diag,
					MAELYS_DATALOG_STATUS_REDECLARED,
					"redefinition of the primitive type "
					"%s%s",
					a->name, " (a predefined type)");
			break;
		}
		t->name = a->name;
		t->pos = a->pos;
		t->form = a->form == DL_TYPE_UNION    ? DL_TY_FORM_UNION
			  : a->form == DL_TYPE_ALIAS  ? DL_TY_FORM_ALIAS
			  : a->form == DL_TYPE_RECORD ? DL_TY_FORM_RECORD
						      : DL_TY_FORM_SUBSET;
		if (a->form == DL_TYPE_RECORD)
			t->kind = MAELYS_DATALOG_COLUMN_RECORD;
		env->canon[env->n] = (uint16_t)env->n;
		env->n++;
	}
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_ty_resolve(env, ast, source, diag);
	memset(colour, 0, sizeof colour);
	for (i = DL_TY_USER; st == MAELYS_DATALOG_STATUS_OK && i < env->n;
	     i++) {
		uint8_t c2[DL_TY_COUNT_MAX];

		memcpy(c2, colour, sizeof c2);
		if (dl_ty_cyclic(env, (uint16_t)i, c2))
			st = dl_ty_fail(source, env->ty[i].pos, diag,
					MAELYS_DATALOG_STATUS_TYPE,
					"infinite descent in the definition of "
					"type %s%s",
					env->ty[i].name, "");
	}
	/* equivalences see through to their targets */
	for (i = DL_TY_USER; st == MAELYS_DATALOG_STATUS_OK && i < env->n;
	     i++) {
		uint16_t t = (uint16_t)i;

		while (env->ty[t].form == DL_TY_FORM_ALIAS)
			t = env->ty[t].of[0];
		env->canon[i] = t;
	}
	for (i = DL_TY_USER; st == MAELYS_DATALOG_STATUS_OK && i < env->n;
	     i++) {
		const struct dl_ty *t = &env->ty[i];

		if (t->form == DL_TY_FORM_SUBSET &&
		    env->ty[env->canon[t->of[0]]].form == DL_TY_FORM_RECORD)
			st = dl_ty_fail(source, t->pos, diag,
					MAELYS_DATALOG_STATUS_TYPE,
					"subtype '%s' of the record or ADT "
					"type '%s' (Souffle has no subtypes of "
					"those)",
					t->name, env->ty[t->of[0]].name);
		else if (t->form == DL_TY_FORM_UNION &&
			 dl_ty_has_record(env, t))
			st = dl_ty_fail(source, t->pos, diag,
					MAELYS_DATALOG_STATUS_TYPE,
					"union type %s has a record or ADT "
					"type among its members%s",
					t->name, "");
		else if (t->form == DL_TY_FORM_SUBSET &&
			 env->ty[env->canon[t->of[0]]].form == DL_TY_FORM_UNION)
			st = dl_ty_fail(source, t->pos, diag,
					MAELYS_DATALOG_STATUS_TYPE,
					"subtype %s cannot be derived from the "
					"union %s",
					t->name, env->ty[t->of[0]].name);
		else
			st = dl_ty_kinds(env, (uint16_t)i, source, diag);
	}
	if (st == MAELYS_DATALOG_STATUS_OK) {
		env->sub = dl_calloc(env->n * env->n, 1);
		if (env->sub == NULL)
			st = dl_fail(diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
				     "out of memory for the types");
	}
	if (st != MAELYS_DATALOG_STATUS_OK) {
		dl_types_free(env);
		return st;
	}
	*out = env;
	return MAELYS_DATALOG_STATUS_OK;
}

void
dl_types_free(struct dl_typeenv *env)
{
	if (env == NULL)
		return;
	dl_free(env->sub);
	dl_free(env->cols);
	dl_free(env);
}

maelys_datalog_status_t
dl_types_lookup(const struct dl_typeenv *env, const char *name,
		const char *source, struct dl_pos pos, uint16_t *id,
		maelys_datalog_column_type_t *kind,
		maelys_datalog_diagnostic_t *diag)
{
	if (!dl_ty_named(env, name, id))
		return dl_fail_at(
		    diag, MAELYS_DATALOG_STATUS_PARSE, source, pos,
		    "unknown type '%s' (symbol, number, unsigned, "
		    "float or a .type)",
		    name);
	*kind = env->ty[*id].kind;
	return MAELYS_DATALOG_STATUS_OK;
}

maelys_datalog_status_t
dl_types_set_pred(struct dl_typeenv *env, uint32_t pid, const uint16_t *ids,
		  size_t arity, maelys_datalog_diagnostic_t *diag)
{
	size_t need = ((size_t)pid + 1) * MAELYS_DATALOG_MAX_ARITY, i;

	if (need > env->ncols) {
		size_t cap = env->ncols == 0 ? need : env->ncols;
		uint16_t *n;

		while (cap < need)
			cap *= 2;
		n = dl_realloc(env->cols, cap * sizeof *n);
		if (n == NULL)
			return dl_fail(diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
				       "out of memory for the types");
		for (i = env->ncols; i < cap; i++)
			n[i] = DL_TY_NONE;
		env->cols = n;
		env->ncols = cap;
	}
	for (i = 0; i < arity; i++)
		env->cols[(size_t)pid * MAELYS_DATALOG_MAX_ARITY + i] = ids[i];
	return MAELYS_DATALOG_STATUS_OK;
}

bool
dl_types_find(const struct dl_typeenv *env, const char *name, uint16_t *id)
{
	return dl_ty_named(env, name, id);
}

uint16_t
dl_types_column(const struct dl_typeenv *env, uint32_t pid, size_t k)
{
	size_t at = (size_t)pid * MAELYS_DATALOG_MAX_ARITY + k;

	return env == NULL || at >= env->ncols ? DL_TY_NONE : env->cols[at];
}
