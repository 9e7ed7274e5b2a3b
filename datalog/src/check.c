/* SPDX-License-Identifier: MIT */
/*
 * The checker: turns the syntax tree into the program of dl_program.h and
 * refuses, with its own status and the position, everything the dialect
 * (maelys-policy(5)) forbids: undeclared predicates (with a suggestion),
 * wrong arity, role violations, unsafe variables, constants outside the
 * domain's vocabulary, invalid regular expressions, conflicting
 * declarations.  Then
 * it hands the program to the stratifier and the planner.  Nothing is kept
 * of a program that fails any check.
 */
#include "dl_program.h"
#include "dl_relq.h"

#include "dl_builtins.h"
#include "dl_functor.h"
#include "dl_lexer.h"
#include "dl_limits.h"
#include "dl_record.h"
#include "dl_numeric.h"
#include "dl_types.h"

#include <string.h>

struct dl_checker {
	struct dl_program *prog;
	const maelys_datalog_domain_t *domain;
	const struct dl_ast *ast;
	const char *source;
	maelys_datalog_diagnostic_t *diag;
	bool has_vocab;
	struct dl_symtab vocab;
	/* variables of the clause being compiled */
	uint32_t nvars;
	const char *var_names[DL_VARS_MAX];
	size_t var_lens[DL_VARS_MAX];
	/* arithmetic terms of the clause being compiled */
	struct dl_cexpr exprs[DL_EXPRS_MAX];
	uint32_t nexprs;
	/* record terms of the clause being compiled (dl_record.h) */
	struct dl_crec recs[DL_RECS_MAX];
	uint32_t nrecs;
	/* functors (dl_functor.h): the clause being compiled, for the kinds
	 * of its variables; the term compiled (a range stands alone); what
	 * the clause's terms call for */
	const struct dl_ast_clause *clause;
	const struct dl_ast_term *fn_top;
	bool fn_impure; /* the term being compiled calls autoinc */
	bool fn_solve;  /* the clause builds values (dl_functor_needs_solve) */
	/* aggregates of the clause being compiled (the aggregates' block
	 * below): the one being compiled (DL_NONE: the rule's own body),
	 * each variable's and term's scope, and by aggregate the names
	 * grounded around it (Souffle's injected variables) */
	struct dl_cagg aggs[DL_AGGS_MAX];
	const struct dl_ast_agg *agg_ast[DL_AGGS_MAX];
	struct dl_names *ground[DL_AGGS_MAX];
	uint32_t naggs;
	uint32_t agg_cur;
	uint32_t var_scope[DL_VARS_MAX];
	uint32_t expr_scope[DL_EXPRS_MAX];
	/* the clause's literals as written, before the witnesses' */
	size_t ground_nbody;
	/* the program's types, and the typing of the clause being compiled
	 * (types.c, check_types.c) */
	struct dl_typeenv *types;
	struct dl_rule_types *rt;
};

#define DL_TRY(expr)                                                           \
	do {                                                                   \
		maelys_datalog_status_t try_st_ = (expr);                      \
		if (try_st_ != MAELYS_DATALOG_STATUS_OK)                       \
			return try_st_;                                        \
	} while (0)

static maelys_datalog_status_t
dl_ck_nomem(struct dl_checker *ck)
{
	return dl_fail(ck->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
		       "out of memory while checking the policy");
}

/* Names a built-in or the language keeps for itself.  Souffle keeps only
 * its built-in tests `match` and `contains`: `not`, `prefix` and the rest
 * are ordinary relation names there (C++ keywords too: a program may
 * declare `not` or `and`). */
static bool
dl_is_reserved(const char *name, size_t len, bool souffle)
{
	static const char *const words[] = {"contains", "match",  "not",
					    "re_match", "prefix", "suffix"};
	size_t i, n = souffle ? 2 : sizeof words / sizeof *words;

	for (i = 0; i < n; i++) {
		if (strlen(words[i]) == len && memcmp(words[i], name, len) == 0)
			return true;
	}
	return false;
}

uint32_t
dl_program_find_pred(const struct dl_program *prog, const char *name,
		     size_t len)
{
	dl_value id;

	if (!dl_symtab_find_string(&prog->pred_names, name, len,
				   dl_symbol_hash_string(name, len), &id))
		return DL_NONE;
	return id;
}

static maelys_datalog_status_t
dl_ck_add_pred(struct dl_checker *ck, const char *name, size_t len,
	       size_t arity, unsigned role, bool from_domain, struct dl_pos pos,
	       uint32_t *out)
{
	struct dl_program *prog = ck->prog;
	struct dl_pred *p;
	dl_value id;

	if (prog->npreds == DL_PREDICATES_MAX)
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  ck->source, pos, "more than %zu predicates",
				  DL_PREDICATES_MAX);
	if (dl_vec_reserve((void **)&prog->preds, &prog->cap_preds,
			   prog->npreds + 1, sizeof *prog->preds) != 0 ||
	    dl_symtab_add_string(&prog->pred_names, name, len,
				 dl_symbol_hash_string(name, len), &id) != 0)
		return dl_ck_nomem(ck);
	p = &prog->preds[prog->npreds];
	memset(p, 0, sizeof *p);
	/* the name table's copy is stable and NUL-terminated */
	p->name = prog->pred_names.syms[id].text;
	p->arity = (uint32_t)arity;
	p->role = role;
	p->from_domain = from_domain;
	p->pos = pos;
	*out = (uint32_t)prog->npreds++;
	return MAELYS_DATALOG_STATUS_OK;
}

/* Levenshtein distance, capped: for "did you mean" only. */
static size_t
dl_edit_distance(const char *a, size_t na, const char *b, size_t nb)
{
	size_t row[DL_IDENT_MAX + 2], i, j;

	if (na > DL_IDENT_MAX || nb > DL_IDENT_MAX)
		return SIZE_MAX;
	for (j = 0; j <= nb; j++)
		row[j] = j;
	for (i = 1; i <= na; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= nb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[nb];
}

/* The declared predicate whose name is closest to `name` (at most two
 * edits away), or DL_NONE: for "did you mean". */
static uint32_t
dl_ck_suggest(const struct dl_checker *ck, const char *name, size_t len)
{
	const struct dl_program *prog = ck->prog;
	size_t i, best = 3;
	uint32_t found = DL_NONE;

	for (i = 0; i < prog->npreds; i++) {
		size_t d = dl_edit_distance(name, len, prog->preds[i].name,
					    strlen(prog->preds[i].name));
		if (d < best) {
			best = d;
			found = (uint32_t)i;
		}
	}
	return found;
}

static maelys_datalog_status_t
dl_ck_undeclared(struct dl_checker *ck, const struct dl_ast_atom *a)
{
	uint32_t found = dl_ck_suggest(ck, a->name, a->name_len);

	if (found != DL_NONE)
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_UNDECLARED,
				  ck->source, a->pos,
				  "undeclared predicate '%s/%zu' (did you mean "
				  "'%s/%u'?)",
				  a->name, a->nargs,
				  ck->prog->preds[found].name,
				  ck->prog->preds[found].arity);
	return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_UNDECLARED,
			  ck->source, a->pos,
			  "undeclared predicate '%s/%zu' (declare it with "
			  ".decl or in the host's domain)",
			  a->name, a->nargs);
}

static maelys_datalog_status_t
dl_ck_resolve(struct dl_checker *ck, const struct dl_ast_atom *a, uint32_t *out)
{
	uint32_t id = dl_program_find_pred(ck->prog, a->name, a->name_len);
	const struct dl_pred *p;

	if (id == DL_NONE)
		return dl_ck_undeclared(ck, a);
	p = &ck->prog->preds[id];
	if (p->arity != a->nargs)
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_ARITY,
				  ck->source, a->pos,
				  "'%s' has %u argument%s, not %zu", p->name,
				  p->arity, p->arity == 1 ? "" : "s", a->nargs);
	*out = id;
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_ck_symbol(struct dl_checker *ck, const char *text, size_t len,
	     struct dl_pos pos, bool vocab_applies, dl_value *out)
{
	uint64_t h = dl_symbol_hash_string(text, len);
	dl_value dummy;

	if (vocab_applies && ck->has_vocab &&
	    !dl_symtab_find_string(&ck->vocab, text, len, h, &dummy))
		return dl_fail_at(
		    ck->diag, MAELYS_DATALOG_STATUS_VOCABULARY, ck->source, pos,
		    "constant \"%.*s\" is not in the vocabulary "
		    "of domain '%s'",
		    len > 80 ? 80 : (int)len, text, ck->domain->name);
	if (dl_symtab_find_string(&ck->prog->symbols, text, len, h, out))
		return MAELYS_DATALOG_STATUS_OK;
	if (dl_symtab_add_string(&ck->prog->symbols, text, len, h, out) != 0)
		return dl_ck_nomem(ck);
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_ck_integer(struct dl_checker *ck, int64_t i, dl_value *out)
{
	struct dl_symview v = {NULL, &ck->prog->symbols};

	if (dl_symview_intern_int(&v, i, out) != 0)
		return dl_ck_nomem(ck);
	return MAELYS_DATALOG_STATUS_OK;
}

static uint32_t dl_ck_agg_scope(const struct dl_checker *ck,
				const struct dl_ast_term *t);

static maelys_datalog_status_t
dl_ck_var(struct dl_checker *ck, const struct dl_ast_term *t, uint32_t *out)
{
	/* inside an aggregate a name is its own unless grounded around it */
	uint32_t i, scope = dl_ck_agg_scope(ck, t);

	for (i = 0; i < ck->nvars; i++) {
		if (ck->var_scope[i] == scope && ck->var_lens[i] == t->len &&
		    memcmp(ck->var_names[i], t->text, t->len) == 0) {
			*out = i;
			return MAELYS_DATALOG_STATUS_OK;
		}
	}
	if (ck->nvars == DL_VARS_MAX)
		return dl_fail_at(
		    ck->diag, MAELYS_DATALOG_STATUS_LIMIT, ck->source, t->pos,
		    "more than %zu variables in one rule", DL_VARS_MAX);
	ck->var_names[ck->nvars] = t->text;
	ck->var_lens[ck->nvars] = t->len;
	ck->var_scope[ck->nvars] = scope;
	*out = ck->nvars++;
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t dl_ck_text(struct dl_checker *ck, size_t start,
					  size_t end, const char **out,
					  size_t *len);
static maelys_datalog_status_t dl_ck_agg(struct dl_checker *ck,
					 const struct dl_ast_term *t,
					 struct dl_cterm *out);

static maelys_datalog_status_t
dl_ck_call_code(struct dl_checker *ck, const struct dl_ast_term *t,
		const char *whole, struct dl_xins *code, uint32_t *n,
		uint8_t want, uint8_t *got);
static maelys_datalog_status_t
dl_ck_string_code(struct dl_checker *ck, const struct dl_ast_term *t,
		  const char *whole, struct dl_xins *code, uint32_t *n);

/* A numeric literal's value in its place: a plain 5 in a float column is
 * 5.0 (the kinds are check_types.c's). */
static maelys_datalog_status_t
dl_ck_literal_value(struct dl_checker *ck, const struct dl_ast_term *t,
		    int64_t *out)
{
	const char *why = NULL;

	if (dl_types_literal(t->integer, t->numkind,
			     dl_rule_types_kind(ck->rt, t), out,
			     &why) != MAELYS_DATALOG_STATUS_OK)
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_TYPE,
				  ck->source, t->pos, "%s", why);
	return MAELYS_DATALOG_STATUS_OK;
}

/* The numeric kind (enum dl_numkind) an operator of term t works on, and
 * for to_float, to_number and to_unsigned the conversion they are over
 * their operand's kind; TYPE when the kind lacks the operator. */
static maelys_datalog_status_t
dl_ck_expr_op(struct dl_checker *ck, const struct dl_ast_term *t,
	      const char *whole, struct dl_xins *in)
{
	enum dl_arith_op op = t->expr->op;
	maelys_datalog_column_type_t k = dl_rule_types_kind(
	    ck->rt, op >= DL_ARITH_ITOF ? &t->expr->lhs : t);
	unsigned num = k == MAELYS_DATALOG_COLUMN_FLOAT	     ? DL_NUM_FLOAT
		       : k == MAELYS_DATALOG_COLUMN_UNSIGNED ? DL_NUM_UNSIGNED
							     : DL_NUM_POLY;

	if (k == MAELYS_DATALOG_COLUMN_SYMBOL)
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_TYPE,
				  ck->source, t->pos,
				  "%s of a symbol in the arithmetic term %s "
				  "(not supported)",
				  dl_arith_name(op), whole);
	if (op == DL_ARITH_TO_FLOAT)
		op = num == DL_NUM_POLY	      ? DL_ARITH_ITOF
		     : num == DL_NUM_UNSIGNED ? DL_ARITH_UTOF
					      : op;
	else if (op == DL_ARITH_TO_NUMBER)
		op = num == DL_NUM_FLOAT      ? DL_ARITH_FTOI
		     : num == DL_NUM_UNSIGNED ? DL_ARITH_UTOI
					      : op;
	else if (op == DL_ARITH_TO_UNSIGNED)
		op = num == DL_NUM_FLOAT  ? DL_ARITH_FTOU
		     : num == DL_NUM_POLY ? DL_ARITH_ITOU
					  : op;
	if (!dl_arith_kind_has(op, num))
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_TYPE,
				  ck->source, t->pos,
				  "'%s' does not apply to a float (in the "
				  "arithmetic term %s)",
				  dl_arith_name(op), whole);
	in->op = (uint8_t)op;
	in->num = (uint8_t)num;
	return MAELYS_DATALOG_STATUS_OK;
}

/* Compiles the operands of an arithmetic term, then its operator, into
 * code[*n ..] (postfix).  `whole` is the term as written, for messages.
 * `want` is the kind (enum dl_fn_kind) the term's place expects (ANY: the
 * top of a term); *got is the kind it has. */
static maelys_datalog_status_t dl_ck_push(struct dl_checker *ck,
					  const struct dl_ast_term *t,
					  const char *whole,
					  struct dl_xins *code, uint32_t *n,
					  struct dl_xins **in);

/* Whether t is Souffle's `a + b` of two symbols (its syntax only): typed
 * a symbol (check_types.c lets a sum be one), or wanted as a string. */
static bool
dl_ck_is_string_sum(const struct dl_checker *ck, const struct dl_ast_term *t,
		    uint8_t want)
{
	return ck->ast->souffle && t->kind == DL_TERM_EXPR &&
	       t->expr->op == DL_ARITH_ADD &&
	       (want == DL_FK_STRING ||
		dl_rule_types_kind(ck->rt, t) == MAELYS_DATALOG_COLUMN_SYMBOL);
}

static maelys_datalog_status_t
dl_ck_expr_code(struct dl_checker *ck, const struct dl_ast_term *t,
		const char *whole, struct dl_xins *code, uint32_t *n,
		uint8_t want, uint8_t *got)
{
	struct dl_xins *in = NULL;
	uint8_t sub;

	if (t->kind == DL_TERM_EXPR && t->expr->op == DL_ARITH_CALL)
		return dl_ck_call_code(ck, t, whole, code, n, want, got);
	if (dl_ck_is_string_sum(ck, t, want)) {
		/* Souffle's `+` of two symbols: cat(lhs, rhs) */
		DL_TRY(dl_ck_expr_code(ck, &t->expr->lhs, whole, code, n,
				       DL_FK_STRING, &sub));
		DL_TRY(dl_ck_expr_code(ck, &t->expr->rhs, whole, code, n,
				       DL_FK_STRING, &sub));
		DL_TRY(dl_ck_push(ck, t, whole, code, n, &in));
		in->kind = DL_X_FUNC;
		in->op = (uint8_t)DL_FN_CAT;
		in->v = 2;
		ck->fn_solve = true;
		*got = DL_FK_STRING;
		return MAELYS_DATALOG_STATUS_OK;
	}
	if (want == DL_FK_STRING && t->kind != DL_TERM_ANON) {
		*got = DL_FK_STRING;
		return dl_ck_string_code(ck, t, whole, code, n);
	}
	*got = DL_FK_NUMBER;
	if (t->kind == DL_TERM_EXPR) {
		DL_TRY(dl_ck_expr_code(ck, &t->expr->lhs, whole, code, n,
				       DL_FK_NUMBER, &sub));
		if (!dl_arith_unary(t->expr->op))
			DL_TRY(dl_ck_expr_code(ck, &t->expr->rhs, whole, code,
					       n, DL_FK_NUMBER, &sub));
	} else if (t->kind == DL_TERM_SYMBOL) {
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_TYPE,
				  ck->source, t->pos,
				  "the string \"%.*s\" in the arithmetic term "
				  "%s (arithmetic is on numbers)",
				  t->len > 80 ? 80 : (int)t->len, t->text,
				  whole);
	} else if (t->kind == DL_TERM_ANON) {
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_UNSAFE,
				  ck->source, t->pos,
				  "'_' in the arithmetic term %s has no value",
				  whole);
	} else if (t->kind == DL_TERM_RECORD || t->kind == DL_TERM_ADT ||
		   t->kind == DL_TERM_NIL) {
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_TYPE,
				  ck->source, t->pos,
				  "a record in the arithmetic term %s "
				  "(arithmetic is on numbers)",
				  whole);
	}
	if (*n == DL_EXPR_CODE_MAX)
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  ck->source, t->pos,
				  "arithmetic term %s has more than %d operators "
				  "and operands",
				  whole, DL_EXPR_CODE_MAX);
	in = &code[(*n)++];
	memset(in, 0, sizeof *in);
	switch (t->kind) {
	case DL_TERM_EXPR:
		in->kind = DL_X_OP;
		return dl_ck_expr_op(ck, t, whole, in);
	case DL_TERM_INT:
		in->kind = DL_X_CONST;
		return dl_ck_literal_value(ck, t, &in->k);
	case DL_TERM_VAR:
		in->kind = DL_X_VAR;
		return dl_ck_var(ck, t, &in->v);
	case DL_TERM_AGG: {
		/* an aggregate in arithmetic: its result's variable */
		struct dl_cterm ct;

		in->kind = DL_X_VAR;
		DL_TRY(dl_ck_agg(ck, t, &ct));
		in->v = ct.v;
		return MAELYS_DATALOG_STATUS_OK;
	}
	default:
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	}
}

/* An arithmetic term: a variable of its own, computed by a new entry of
 * ck->exprs, stands where it was written.  The variable is named by the
 * term's text, which no identifier can equal. */
static maelys_datalog_status_t
dl_ck_expr(struct dl_checker *ck, const struct dl_ast_term *t,
	   struct dl_cterm *out)
{
	struct dl_xins code[DL_EXPR_CODE_MAX], *copy;
	const char *text = "";
	size_t len = 0;
	uint32_t n = 0;
	struct dl_cexpr *x;
	uint8_t kind;

	DL_TRY(dl_ck_text(ck, t->start, t->end, &text, &len));
	if (ck->nexprs == DL_EXPRS_MAX)
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  ck->source, t->pos,
				  "more than %zu arithmetic terms in one rule",
				  DL_EXPRS_MAX);
	ck->fn_top = t;
	ck->fn_impure = false;
	DL_TRY(dl_ck_expr_code(ck, t, text, code, &n, DL_FK_ANY, &kind));
	if (ck->nvars == DL_VARS_MAX)
		return dl_fail_at(
		    ck->diag, MAELYS_DATALOG_STATUS_LIMIT, ck->source, t->pos,
		    "more than %zu variables in one rule", DL_VARS_MAX);
	copy = dl_arena_alloc(&ck->prog->arena, n * sizeof *copy);
	if (copy == NULL)
		return dl_ck_nomem(ck);
	memcpy(copy, code, n * sizeof *copy);
	x = &ck->exprs[ck->nexprs++];
	x->target = ck->nvars;
	x->code = copy;
	x->ncode = n;
	x->pos = t->pos;
	x->string_result = kind == DL_FK_STRING;
	x->generator = code[n - 1].kind == DL_X_FUNC &&
		       dl_functor_is_range((enum dl_functor)code[n - 1].op);
	x->impure = ck->fn_impure;
	ck->var_names[ck->nvars] = text;
	ck->var_lens[ck->nvars] = len;
	ck->var_scope[ck->nvars] = ck->agg_cur;
	ck->expr_scope[ck->nexprs - 1] = ck->agg_cur;
	out->kind = DL_CT_VAR;
	out->v = ck->nvars++;
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t dl_ck_term(struct dl_checker *ck,
					  const struct dl_ast_term *t,
					  struct dl_cterm *out);

/* A record term: nil is a constant; [t, ...] and $B(t, ...) are a
 * variable of their own, named by the term's text as an arithmetic term's
 * is, tied to their fields by a new entry of ck->recs (dl_record.h). */
static maelys_datalog_status_t
dl_ck_record_term(struct dl_checker *ck, const struct dl_ast_term *t,
		  struct dl_cterm *out)
{
	struct dl_cterm args[DL_RECORD_FIELDS_MAX];
	const struct dl_ast_rec *rec = t->rec;
	uint32_t rtype = DL_NONE, branch = 0, k;
	struct dl_crec *x;
	const char *text = "";
	size_t len = 0;

	if (t->kind == DL_TERM_NIL) {
		struct dl_symview v = {NULL, &ck->prog->symbols};

		out->kind = DL_CT_CONST;
		if (dl_symview_intern_record(&v, NULL, 0, &out->v) != 0)
			return dl_ck_nomem(ck);
		return MAELYS_DATALOG_STATUS_OK;
	}
	if (t->kind == DL_TERM_ADT) {
		const struct dl_rbranch *b;

		if (!dl_record_branch_find(ck->prog, rec->branch,
					   rec->branch_len, &rtype, &branch))
			return dl_fail_at(ck->diag,
					  MAELYS_DATALOG_STATUS_UNDECLARED,
					  ck->source, t->pos,
					  "unknown branch $%s (no algebraic "
					  "data type has it)",
					  rec->branch);
		b = &ck->prog->rtypes[rtype].branches[branch];
		if (b->nfields != rec->nargs)
			return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_ARITY,
					  ck->source, t->pos,
					  "branch $%s has %u field%s, not %u",
					  rec->branch, b->nfields,
					  b->nfields == 1 ? "" : "s",
					  rec->nargs);
	}
	for (k = 0; k < rec->nargs; k++)
		DL_TRY(dl_ck_term(ck, &rec->args[k], &args[k]));
	DL_TRY(dl_ck_text(ck, t->start, t->end, &text, &len));
	if (ck->nrecs == DL_RECS_MAX)
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  ck->source, t->pos,
				  "more than %d record terms in one rule",
				  DL_RECS_MAX);
	if (ck->nvars == DL_VARS_MAX)
		return dl_fail_at(
		    ck->diag, MAELYS_DATALOG_STATUS_LIMIT, ck->source, t->pos,
		    "more than %zu variables in one rule", DL_VARS_MAX);
	x = &ck->recs[ck->nrecs++];
	memset(x, 0, sizeof *x);
	x->target = ck->nvars;
	x->rtype = rtype;
	x->branch = branch;
	x->nargs = rec->nargs;
	x->pos = t->pos;
	if (rec->nargs > 0) {
		x->args = dl_arena_alloc(&ck->prog->arena,
					 rec->nargs * sizeof *x->args);
		if (x->args == NULL)
			return dl_ck_nomem(ck);
		memcpy(x->args, args, rec->nargs * sizeof *x->args);
		x->kinds = dl_arena_alloc(&ck->prog->arena, rec->nargs);
		if (x->kinds == NULL)
			return dl_ck_nomem(ck);
		for (k = 0; k < rec->nargs; k++)
			x->kinds[k] = (uint8_t)dl_rule_types_kind(
			    ck->rt, &rec->args[k]);
	}
	ck->var_names[ck->nvars] = text;
	ck->var_lens[ck->nvars] = len;
	out->kind = DL_CT_VAR;
	out->v = ck->nvars++;
	return MAELYS_DATALOG_STATUS_OK;
}

/* --- functors (dl_functor.h): their arguments' and results' kinds --- */

static const char *
dl_ck_kind_name(uint8_t kind)
{
	return kind == DL_FK_STRING ? "a string" : "a number";
}

/* The kind of variable `t` in the clause being compiled: the type of a
 * column it fills in an atom, or the result of a functor it is equated
 * with; DL_FK_ANY when nothing says. */
static uint8_t
dl_ck_var_kind(const struct dl_checker *ck, const struct dl_ast_term *t)
{
	const struct dl_ast_clause *c = ck->clause;
	size_t i, k;

	if (c == NULL)
		return DL_FK_ANY;
	for (i = 0; i <= c->nbody; i++) {
		const struct dl_ast_atom *a =
		    i < c->nbody ? &c->body[i].atom : &c->head;
		uint32_t pid;

		if (i < c->nbody && c->body[i].kind == DL_LIT_CMP) {
			const struct dl_ast_lit *l = &c->body[i];
			const struct dl_ast_term *v = &l->lhs, *e = &l->rhs;

			if (l->op != DL_CMP_EQ)
				continue;
			if (v->kind != DL_TERM_VAR) {
				v = &l->rhs;
				e = &l->lhs;
			}
			if (v->kind == DL_TERM_VAR && v->len == t->len &&
			    memcmp(v->text, t->text, t->len) == 0 &&
			    e->kind == DL_TERM_EXPR) {
				const struct dl_functor_sig *sig =
				    e->expr->op == DL_ARITH_CALL
					? dl_functor_sig(
					      (enum dl_functor)e->expr->functor)
					: NULL;

				if (sig == NULL)
					return DL_FK_NUMBER;
				if (sig->result == DL_FK_NUMBER ||
				    sig->result == DL_FK_STRING)
					return sig->result;
			}
			continue;
		}
		if (i < c->nbody && c->body[i].kind != DL_LIT_ATOM)
			continue;
		pid = dl_program_find_pred(ck->prog, a->name, a->name_len);
		if (pid == DL_NONE || ck->prog->preds[pid].arity != a->nargs)
			continue;
		for (k = 0; k < a->nargs; k++) {
			const struct dl_ast_term *x = &a->args[k];
			maelys_datalog_column_type_t col =
			    ck->prog->preds[pid].columns[k];

			if (x->kind != DL_TERM_VAR || x->len != t->len ||
			    memcmp(x->text, t->text, t->len) != 0 ||
			    col == MAELYS_DATALOG_COLUMN_ANY)
				continue;
			return col == MAELYS_DATALOG_COLUMN_SYMBOL
				   ? DL_FK_STRING
				   : DL_FK_NUMBER;
		}
	}
	return DL_FK_ANY;
}

/* The kind of a term as written (ANY: a variable nothing types). */
static uint8_t
dl_ck_term_kind(const struct dl_checker *ck, const struct dl_ast_term *t,
		unsigned depth)
{
	const struct dl_ast_expr *e = t->expr;
	const struct dl_functor_sig *sig;
	uint32_t i;

	switch (t->kind) {
	case DL_TERM_SYMBOL:
		return DL_FK_STRING;
	case DL_TERM_INT:
		return DL_FK_NUMBER;
	case DL_TERM_VAR:
		return dl_ck_var_kind(ck, t);
	case DL_TERM_ANON:
	case DL_TERM_RECORD: /* neither: refused where a kind is wanted */
	case DL_TERM_ADT:
	case DL_TERM_NIL:
	case DL_TERM_AGG: /* its own type: checked by dl_ck_agg_types */
		return DL_FK_ANY;
	case DL_TERM_EXPR:
		break;
	}
	if (e->op != DL_ARITH_CALL)
		return DL_FK_NUMBER;
	if (e->functor == DL_FN_AS)
		return e->as_type == MAELYS_DATALOG_COLUMN_SYMBOL
			   ? DL_FK_STRING
			   : DL_FK_NUMBER;
	sig = dl_functor_sig((enum dl_functor)e->functor);
	if (sig->result != DL_FK_SAME)
		return sig->result;
	/* min, max: as their arguments (the parser bounds the nesting) */
	for (i = 0; i < e->nargs && depth < 64; i++) {
		uint8_t k = dl_ck_term_kind(ck, &e->args[i], depth + 1);

		if (k != DL_FK_ANY)
			return k;
	}
	return DL_FK_ANY;
}

static maelys_datalog_status_t
dl_ck_push(struct dl_checker *ck, const struct dl_ast_term *t,
	   const char *whole, struct dl_xins *code, uint32_t *n,
	   struct dl_xins **in)
{
	if (*n == DL_EXPR_CODE_MAX)
		return dl_fail_at(
		    ck->diag, MAELYS_DATALOG_STATUS_LIMIT, ck->source, t->pos,
		    "term %s has more than %d operators, functors "
		    "and operands",
		    whole, DL_EXPR_CODE_MAX);
	*in = &code[(*n)++];
	memset(*in, 0, sizeof **in);
	return MAELYS_DATALOG_STATUS_OK;
}

/* A string operand of a functor: a string constant or a variable read
 * as a string (an integer or arithmetic there is a type error). */
static maelys_datalog_status_t
dl_ck_string_code(struct dl_checker *ck, const struct dl_ast_term *t,
		  const char *whole, struct dl_xins *code, uint32_t *n)
{
	struct dl_xins *in = NULL;
	dl_value v;

	if (t->kind != DL_TERM_SYMBOL && t->kind != DL_TERM_VAR)
		return dl_fail_at(
		    ck->diag, MAELYS_DATALOG_STATUS_TYPE, ck->source, t->pos,
		    "a number where a string is expected in %s", whole);
	DL_TRY(dl_ck_push(ck, t, whole, code, n, &in));
	if (t->kind == DL_TERM_VAR) {
		in->kind = DL_X_VAR;
		in->op = DL_XV_STRING;
		return dl_ck_var(ck, t, &in->v);
	}
	/* a string a functor reads is not vocabulary: it is not matched
	 * against the host's facts as written */
	DL_TRY(dl_ck_symbol(ck, t->text, t->len, t->pos, false, &v));
	in->kind = DL_X_CONST;
	in->k = (int64_t)v;
	return MAELYS_DATALOG_STATUS_OK;
}

/* A functor call: its arguments by its signature, then DL_X_FUNC. */
/* to_number(x): of a string, the functor that reads its digits; of a
 * number, the number; of an unsigned or a float, the conversion (utoi,
 * ftoi), as Souffle's polymorphic to_number.  The operand's kind is the
 * typing's (check_types.c), else the checker's own (a native variable
 * nothing types is read as a string, as before). */
static maelys_datalog_status_t
dl_ck_to_number_code(struct dl_checker *ck, const struct dl_ast_term *t,
		     const char *whole, struct dl_xins *code, uint32_t *n,
		     uint8_t want, uint8_t *got)
{
	const struct dl_ast_term *arg = &t->expr->args[0];
	maelys_datalog_column_type_t k = dl_rule_types_kind(ck->rt, arg);
	struct dl_xins *in = NULL;
	uint8_t sub;

	if (want == DL_FK_STRING)
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_TYPE,
				  ck->source, t->pos,
				  "to_number gives a number where a string is "
				  "expected in %s",
				  whole);
	*got = DL_FK_NUMBER;
	if (k == MAELYS_DATALOG_COLUMN_SYMBOL ||
	    (k == MAELYS_DATALOG_COLUMN_ANY &&
	     dl_ck_term_kind(ck, arg, 0) != DL_FK_NUMBER)) {
		DL_TRY(dl_ck_string_code(ck, arg, whole, code, n));
		DL_TRY(dl_ck_push(ck, t, whole, code, n, &in));
		in->kind = DL_X_FUNC;
		in->op = (uint8_t)DL_FN_TO_NUMBER;
		in->v = 1;
		return MAELYS_DATALOG_STATUS_OK;
	}
	DL_TRY(dl_ck_expr_code(ck, arg, whole, code, n, DL_FK_NUMBER, &sub));
	if (k != MAELYS_DATALOG_COLUMN_FLOAT &&
	    k != MAELYS_DATALOG_COLUMN_UNSIGNED)
		return MAELYS_DATALOG_STATUS_OK; /* a number already */
	DL_TRY(dl_ck_push(ck, t, whole, code, n, &in));
	in->kind = DL_X_OP;
	in->op = k == MAELYS_DATALOG_COLUMN_FLOAT ? (uint8_t)DL_ARITH_FTOI
						  : (uint8_t)DL_ARITH_UTOI;
	in->num = k == MAELYS_DATALOG_COLUMN_FLOAT ? (uint8_t)DL_NUM_FLOAT
						   : (uint8_t)DL_NUM_UNSIGNED;
	return MAELYS_DATALOG_STATUS_OK;
}

/* ord(x) of what is not a string, as Souffle's ord gives "the RAM
 * representation of any object": of a number, unsigned or float the value
 * itself; of a record or ADT variable its identity in this engine
 * (distinct values, distinct numbers; the numbers are not Souffle's).
 * Returns false when x is a string (or untyped): the functor then reads it
 * as a string, as before; else true with *st the outcome. */
static bool
dl_ck_ord_code(struct dl_checker *ck, const struct dl_ast_term *t,
	       const char *whole, struct dl_xins *code, uint32_t *n,
	       uint8_t *got, maelys_datalog_status_t *st)
{
	const struct dl_ast_term *arg = &t->expr->args[0];
	maelys_datalog_column_type_t k = dl_rule_types_kind(ck->rt, arg);
	struct dl_xins *in = NULL;
	uint8_t sub;

	if (t->expr->nargs != 1 || k == MAELYS_DATALOG_COLUMN_SYMBOL ||
	    (k == MAELYS_DATALOG_COLUMN_ANY &&
	     dl_ck_term_kind(ck, arg, 0) != DL_FK_NUMBER))
		return false;
	*got = DL_FK_NUMBER;
	if (k == MAELYS_DATALOG_COLUMN_RECORD) {
		if (arg->kind != DL_TERM_VAR) {
			*st = dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_TYPE,
					 ck->source, arg->pos,
					 "ord of a record or ADT takes a "
					 "variable, in %s",
					 whole);
			return true;
		}
		*st = dl_ck_push(ck, t, whole, code, n, &in);
		if (*st != MAELYS_DATALOG_STATUS_OK)
			return true;
		in->kind = DL_X_VAR;
		in->op = DL_XV_RAW;
		*st = dl_ck_var(ck, arg, &in->v);
		return true;
	}
	*st = dl_ck_expr_code(ck, arg, whole, code, n, DL_FK_NUMBER, &sub);
	return true;
}

static maelys_datalog_status_t
dl_ck_call_code(struct dl_checker *ck, const struct dl_ast_term *t,
		const char *whole, struct dl_xins *code, uint32_t *n,
		uint8_t want, uint8_t *got)
{
	const struct dl_ast_expr *e = t->expr;
	enum dl_functor f = (enum dl_functor)e->functor;
	const struct dl_functor_sig *sig = dl_functor_sig(f);
	uint8_t arg = sig->arg, result = sig->result, sub;
	maelys_datalog_column_type_t k = MAELYS_DATALOG_COLUMN_ANY;
	struct dl_xins *in = NULL;
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_OK;
	uint32_t i;

	if (f == DL_FN_RANGE && t != ck->fn_top)
		return dl_fail_at(
		    ck->diag, MAELYS_DATALOG_STATUS_TYPE, ck->source, t->pos,
		    "range is a generator: it stands alone, as in "
		    "x = range(a, b), not inside %s",
		    whole);
	if (f == DL_FN_TO_NUMBER)
		return dl_ck_to_number_code(ck, t, whole, code, n, want, got);
	if (f == DL_FN_ORD && want != DL_FK_STRING &&
	    dl_ck_ord_code(ck, t, whole, code, n, got, &st))
		return st;
	if (f == DL_FN_TO_STRING && want != DL_FK_NUMBER &&
	    (dl_rule_types_kind(ck->rt, &e->args[0]) ==
		 MAELYS_DATALOG_COLUMN_SYMBOL ||
	     dl_ck_term_kind(ck, &e->args[0], 0) == DL_FK_STRING)) {
		/* to_string of a string is that string, as Souffle's
		 * polymorphic to_string gives it: no code of its own */
		DL_TRY(dl_ck_expr_code(ck, &e->args[0], whole, code, n,
				       DL_FK_STRING, &sub));
		*got = sub;
		return MAELYS_DATALOG_STATUS_OK;
	}
	if (f == DL_FN_TO_STRING) {
		/* of a float or an unsigned: their own text, not the bits'
		 * as a number's */
		maelys_datalog_column_type_t ka =
		    dl_rule_types_kind(ck->rt, &e->args[0]);

		if (ka == MAELYS_DATALOG_COLUMN_FLOAT)
			f = DL_FN_FTOSTRING;
		else if (ka == MAELYS_DATALOG_COLUMN_UNSIGNED)
			f = DL_FN_UTOSTRING;
	}
	if (f == DL_FN_RANGE) {
		/* of floats or unsigned values: their own order and steps */
		maelys_datalog_column_type_t kr = dl_rule_types_kind(ck->rt, t);

		if (kr == MAELYS_DATALOG_COLUMN_FLOAT)
			f = DL_FN_FRANGE;
		else if (kr == MAELYS_DATALOG_COLUMN_UNSIGNED)
			f = DL_FN_URANGE;
	}
	if (result == DL_FK_SAME) {
		/* min and max order their arguments as their kind does:
		 * floats as doubles, unsigned values as unsigned.  Souffle's
		 * syntax gives the call and its arguments one kind; the
		 * native dialect does not unify them, so there every
		 * argument must be of the kind one of them has */
		k = dl_rule_types_kind(ck->rt, t);
		if (k != MAELYS_DATALOG_COLUMN_FLOAT &&
		    k != MAELYS_DATALOG_COLUMN_UNSIGNED)
			k = MAELYS_DATALOG_COLUMN_ANY;
		for (i = 0; i < e->nargs && k == MAELYS_DATALOG_COLUMN_ANY;
		     i++) {
			maelys_datalog_column_type_t ka =
			    dl_rule_types_kind(ck->rt, &e->args[i]);

			if (ka == MAELYS_DATALOG_COLUMN_FLOAT ||
			    ka == MAELYS_DATALOG_COLUMN_UNSIGNED)
				k = ka;
		}
		for (i = 0; i < e->nargs && k != MAELYS_DATALOG_COLUMN_ANY;
		     i++)
			if (dl_rule_types_kind(ck->rt, &e->args[i]) != k)
				return dl_fail_at(
				    ck->diag, MAELYS_DATALOG_STATUS_TYPE,
				    ck->source, e->args[i].pos,
				    "argument %u of %s in %s is not %s, as "
				    "another is",
				    i + 1, sig->name, whole,
				    k == MAELYS_DATALOG_COLUMN_FLOAT
					? "a float"
					: "an unsigned");
	}
	if (f == DL_FN_AS) {
		/* as changes the type, not the value: a symbol stays a
		 * symbol, a number a number */
		result = e->as_type == MAELYS_DATALOG_COLUMN_SYMBOL
			     ? DL_FK_STRING
			     : DL_FK_NUMBER;
		arg = result;
	} else if (result == DL_FK_SAME) {
		result = want;
		for (i = 0; i < e->nargs && result == DL_FK_ANY; i++)
			result = dl_ck_term_kind(ck, &e->args[i], 0);
		if (result == DL_FK_ANY)
			result = DL_FK_NUMBER;
		arg = result;
		if (result == DL_FK_STRING && k != MAELYS_DATALOG_COLUMN_ANY)
			return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_TYPE,
					  ck->source, t->pos,
					  "%s of strings and numbers in %s",
					  sig->name, whole);
		if (result == DL_FK_STRING)
			f = f == DL_FN_MIN ? DL_FN_SMIN : DL_FN_SMAX;
		else if (k == MAELYS_DATALOG_COLUMN_FLOAT)
			f = f == DL_FN_MIN ? DL_FN_FMIN : DL_FN_FMAX;
		else if (k == MAELYS_DATALOG_COLUMN_UNSIGNED)
			f = f == DL_FN_MIN ? DL_FN_UMIN : DL_FN_UMAX;
	}
	if (want != DL_FK_ANY && want != result)
		return dl_fail_at(
		    ck->diag, MAELYS_DATALOG_STATUS_TYPE, ck->source, t->pos,
		    "%s gives %s where %s is expected in %s", sig->name,
		    dl_ck_kind_name(result), dl_ck_kind_name(want), whole);
	for (i = 0; i < e->nargs; i++) {
		uint8_t want_i =
		    i == 0 && f != DL_FN_AS && result == sig->result
			? sig->first
			: arg;

		DL_TRY(dl_ck_expr_code(ck, &e->args[i], whole, code, n, want_i,
				       &sub));
		if (sub != want_i && f != DL_FN_AS)
			return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_TYPE,
					  ck->source, e->args[i].pos,
					  "argument %u of %s is %s, not %s, "
					  "in %s",
					  i + 1, sig->name,
					  dl_ck_kind_name(sub),
					  dl_ck_kind_name(want_i), whole);
	}
	*got = result;
	if (f == DL_FN_AS)
		return MAELYS_DATALOG_STATUS_OK; /* no code: the same bits */
	if (f == DL_FN_AUTOINC)
		ck->fn_impure = true;
	if (dl_functor_needs_solve(f))
		ck->fn_solve = true;
	DL_TRY(dl_ck_push(ck, t, whole, code, n, &in));
	in->kind = DL_X_FUNC;
	in->op = (uint8_t)f;
	in->v = e->nargs;
	return MAELYS_DATALOG_STATUS_OK;
}

/* Souffle refuses autoinc() in a recursive rule: its values would
 * depend on the order of evaluation (after stratification, which says
 * which rules are recursive). */
static maelys_datalog_status_t
dl_ck_functor_rules(struct dl_program *prog, maelys_datalog_diagnostic_t *diag)
{
	size_t r;
	uint32_t i;

	for (r = 0; r < prog->nrules; r++) {
		const struct dl_rule *rule = &prog->rules[r];

		if (!rule->recursive)
			continue;
		for (i = 0; i < rule->nexprs; i++)
			if (rule->exprs[i].impure)
				return dl_fail_at(
				    diag, MAELYS_DATALOG_STATUS_UNSAFE,
				    prog->source_name, rule->exprs[i].pos,
				    "autoinc() in a recursive rule of '%s' "
				    "(its values would depend on the order "
				    "of evaluation)",
				    prog->preds[rule->head_pred].name);
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* A term of an atom, comparison or built-in (not a regex pattern). */
static maelys_datalog_status_t
dl_ck_term(struct dl_checker *ck, const struct dl_ast_term *t,
	   struct dl_cterm *out)
{
	out->v = 0;
	switch (t->kind) {
	case DL_TERM_VAR:
		out->kind = DL_CT_VAR;
		return dl_ck_var(ck, t, &out->v);
	case DL_TERM_ANON:
		out->kind = DL_CT_ANON;
		return MAELYS_DATALOG_STATUS_OK;
	case DL_TERM_SYMBOL:
		out->kind = DL_CT_CONST;
		return dl_ck_symbol(ck, t->text, t->len, t->pos, true, &out->v);
	case DL_TERM_INT: {
		int64_t v;

		out->kind = DL_CT_CONST;
		DL_TRY(dl_ck_literal_value(ck, t, &v));
		return dl_ck_integer(ck, v, &out->v);
	}
	case DL_TERM_EXPR:
		return dl_ck_expr(ck, t, out);
	case DL_TERM_RECORD:
	case DL_TERM_ADT:
	case DL_TERM_NIL:
		return dl_ck_record_term(ck, t, out);
	case DL_TERM_AGG:
		return dl_ck_agg(ck, t, out);
	}
	return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
}

static maelys_datalog_status_t
dl_ck_regex(struct dl_checker *ck, const struct dl_ast_lit *l, uint32_t *out)
{
	const struct dl_ast_term *pat = &l->atom.args[1];
	struct dl_program *prog = ck->prog;
	char err[256];
	size_t off = 0;
	void *code = NULL;

	if (pat->len > DL_REGEX_LEN_MAX)
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  ck->source, pat->pos,
				  "regular expression of %zu bytes is longer "
				  "than the limit of %zu",
				  pat->len, DL_REGEX_LEN_MAX);
	if (prog->nregexes == DL_REGEX_MAX)
		return dl_fail_at(
		    ck->diag, MAELYS_DATALOG_STATUS_LIMIT, ck->source, pat->pos,
		    "more than %zu regular expressions", DL_REGEX_MAX);
	if (dl_vec_reserve((void **)&prog->regexes, &prog->cap_regexes,
			   prog->nregexes + 1, sizeof *prog->regexes) != 0)
		return dl_ck_nomem(ck);
	if (dl_regex_compile(pat->text, pat->len,
			     l->builtin == DL_BUILTIN_RE_FULLMATCH, &code, err,
			     sizeof err, &off) != MAELYS_DATALOG_STATUS_OK) {
		struct dl_pos at = pat->pos;

		/* point at the offending byte when the pattern has no
		 * escapes to shift it; the offset is in the message anyway */
		return dl_fail_at(
		    ck->diag, MAELYS_DATALOG_STATUS_REGEX, ck->source, at,
		    "invalid regular expression \"%.*s\": %s "
		    "at offset %zu",
		    pat->len > 80 ? 80 : (int)pat->len, pat->text, err, off);
	}
	prog->regexes[prog->nregexes].code = code;
	*out = (uint32_t)prog->nregexes++;
	return MAELYS_DATALOG_STATUS_OK;
}

/* Whether Souffle would run the constant pattern of l: ECMAScript's
 * syntax, and one PCRE2 compiles (it compiles it at load otherwise). */
static bool
dl_ck_souffle_pattern(const struct dl_ast_lit *l)
{
	const struct dl_ast_term *pat = &l->atom.args[1];
	char err[128];
	size_t off = 0;
	void *code = NULL;

	if (pat->len > DL_REGEX_LEN_MAX)
		return true; /* refused for its length, as in our dialect */
	if (!dl_regex_souffle_valid(pat->text, pat->len))
		return false;
	if (dl_regex_compile(pat->text, pat->len, true, &code, err, sizeof err,
			     &off) != MAELYS_DATALOG_STATUS_OK)
		return false;
	dl_regex_free(code);
	return true;
}

static maelys_datalog_status_t
dl_ck_literal(struct dl_checker *ck, const struct dl_ast_lit *l,
	      struct dl_clit *out)
{
	size_t i;

	memset(out, 0, sizeof *out);
	out->kind = l->kind;
	out->negated = l->negated;
	out->pos = l->pos;
	switch (l->kind) {
	case DL_LIT_ATOM: {
		const struct dl_pred *p;

		DL_TRY(dl_ck_resolve(ck, &l->atom, &out->pred));
		p = &ck->prog->preds[out->pred];
		(void)p;
		out->nargs = (uint32_t)l->atom.nargs;
		for (i = 0; i < l->atom.nargs; i++)
			DL_TRY(dl_ck_term(ck, &l->atom.args[i], &out->args[i]));
		return MAELYS_DATALOG_STATUS_OK;
	}
	case DL_LIT_CMP:
		out->op = l->op;
		out->nargs = 2;
		out->bare = l->lhs.bare || l->rhs.bare;
		if (l->op == DL_CMP_EQ && !l->negated &&
		    (l->lhs.kind == DL_TERM_ANON) !=
			(l->rhs.kind == DL_TERM_ANON)) {
			/* _ = term (an aggregate, a record, ...): only that
			 * the term has a value, as Souffle reads it (its
			 * other comparisons with _ are refused below, as
			 * Souffle refuses them) */
			DL_TRY(dl_ck_term(
			    ck, l->lhs.kind == DL_TERM_ANON ? &l->rhs : &l->lhs,
			    &out->args[0]));
			out->args[1] = out->args[0];
			return MAELYS_DATALOG_STATUS_OK;
		}
		if (l->lhs.kind == DL_TERM_ANON || l->rhs.kind == DL_TERM_ANON)
			return dl_fail_at(
			    ck->diag, MAELYS_DATALOG_STATUS_UNSAFE, ck->source,
			    l->lhs.kind == DL_TERM_ANON ? l->lhs.pos
							: l->rhs.pos,
			    "'_' in a comparison never has a "
			    "value");
		DL_TRY(dl_ck_term(ck, &l->lhs, &out->args[0]));
		out->cmp_kind = (uint8_t)dl_rule_types_kind(ck->rt, &l->lhs);
		return dl_ck_term(ck, &l->rhs, &out->args[1]);
	case DL_LIT_CALL:
		out->builtin = l->builtin;
		out->nargs = 2;
		for (i = 0; i < 2; i++) {
			if (l->atom.args[i].kind == DL_TERM_ANON)
				return dl_fail_at(
				    ck->diag, MAELYS_DATALOG_STATUS_UNSAFE,
				    ck->source, l->atom.args[i].pos,
				    "'_' as an argument of %s never has a "
				    "value",
				    l->atom.name);
		}
		DL_TRY(dl_ck_term(ck, &l->atom.args[0], &out->args[0]));
		if ((l->builtin == DL_BUILTIN_RE_MATCH ||
		     l->builtin == DL_BUILTIN_RE_FULLMATCH) &&
		    l->atom.args[1].kind != DL_TERM_SYMBOL) {
			/* Souffle's match with a computed pattern: compiled
			 * at evaluation (functor.c) */
			out->pattern = DL_PAT_COMPUTED;
			out->regex = DL_NONE;
			return dl_ck_term(ck, &l->atom.args[1], &out->args[1]);
		}
		if (ck->ast->souffle &&
		    (l->builtin == DL_BUILTIN_RE_MATCH ||
		     l->builtin == DL_BUILTIN_RE_FULLMATCH) &&
		    !dl_ck_souffle_pattern(l)) {
			/* a pattern Souffle's regular expressions refuse:
			 * match and !match both fail, as in Souffle */
			out->pattern = DL_PAT_BAD;
			out->regex = DL_NONE;
			out->args[1].kind = DL_CT_CONST;
			return dl_ck_symbol(
			    ck, l->atom.args[1].text, l->atom.args[1].len,
			    l->atom.args[1].pos, false, &out->args[1].v);
		}
		if (l->builtin == DL_BUILTIN_RE_MATCH ||
		    l->builtin == DL_BUILTIN_RE_FULLMATCH) {
			/* the pattern is not vocabulary: it is compiled */
			out->args[1].kind = DL_CT_CONST;
			DL_TRY(dl_ck_symbol(
			    ck, l->atom.args[1].text, l->atom.args[1].len,
			    l->atom.args[1].pos, false, &out->args[1].v));
			return dl_ck_regex(ck, l, &out->regex);
		}
		return dl_ck_term(ck, &l->atom.args[1], &out->args[1]);
	}
	return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
}

static bool dl_ck_agg_ready(const struct dl_rule *r, uint32_t scope,
			    bool *bound);
static bool dl_ck_in_agg(const struct dl_rule *r, uint32_t x);
static maelys_datalog_status_t dl_ck_agg_safety(struct dl_checker *ck,
						const struct dl_rule *r,
						uint32_t scope,
						const bool *outer);

/* Range restriction: every variable of the head, of a negated literal and
 * of a built-in is bound by a positive body literal, directly or through
 * X = bound-term. */
static maelys_datalog_status_t
dl_ck_safety(struct dl_checker *ck, const struct dl_ast_clause *c,
	     const struct dl_rule *r)
{
	bool bound[DL_VARS_MAX];
	bool changed = true;
	uint32_t i, k;

	memset(bound, 0, sizeof bound);
	for (i = 0; i < r->nbody; i++) {
		const struct dl_clit *l = &r->body[i];

		if (l->kind != DL_LIT_ATOM || l->negated)
			continue;
		for (k = 0; k < l->nargs; k++)
			if (l->args[k].kind == DL_CT_VAR)
				bound[l->args[k].v] = true;
	}
	while (changed) {
		changed = dl_ck_agg_ready(r, DL_NONE, bound);
		for (i = 0; i < r->nexprs; i++) {
			const struct dl_cexpr *x = &r->exprs[i];

			if (bound[x->target] || dl_ck_in_agg(r, i))
				continue;
			for (k = 0; k < x->ncode; k++)
				if (x->code[k].kind == DL_X_VAR &&
				    !bound[x->code[k].v])
					break;
			if (k == x->ncode) {
				bound[x->target] = true;
				changed = true;
			}
		}
		/* a record is bound when its fields are, its fields when it
		 * is (built, or taken apart) */
		for (i = 0; i < r->nrecs; i++) {
			const struct dl_crec *x = &r->recs[i];
			bool all = true;

			for (k = 0; k < x->nargs; k++)
				if (x->args[k].kind != DL_CT_CONST &&
				    (x->args[k].kind != DL_CT_VAR ||
				     !bound[x->args[k].v]))
					all = false;
			if (all && !bound[x->target]) {
				bound[x->target] = true;
				changed = true;
			}
			if (!bound[x->target])
				continue;
			for (k = 0; k < x->nargs; k++) {
				if (x->args[k].kind == DL_CT_VAR &&
				    !bound[x->args[k].v]) {
					bound[x->args[k].v] = true;
					changed = true;
				}
			}
		}
		for (i = 0; i < r->nbody; i++) {
			const struct dl_clit *l = &r->body[i];
			const struct dl_cterm *a = &l->args[0],
					      *b = &l->args[1];
			bool ab, bb;

			if (l->kind != DL_LIT_CMP || l->negated ||
			    l->op != DL_CMP_EQ)
				continue;
			ab = a->kind == DL_CT_CONST || bound[a->v];
			bb = b->kind == DL_CT_CONST || bound[b->v];
			if (ab && !bb) {
				bound[b->v] = true;
				changed = true;
			} else if (bb && !ab) {
				bound[a->v] = true;
				changed = true;
			}
		}
	}
	/* the aggregates' own variables first, then an arithmetic term's:
	 * they are the names the author wrote */
	DL_TRY(dl_ck_agg_safety(ck, r, DL_NONE, bound));
	for (i = 0; i < r->nexprs; i++) {
		const struct dl_cexpr *x = &r->exprs[i];

		if (dl_ck_in_agg(r, i))
			continue;

		for (k = 0; k < x->ncode; k++) {
			uint32_t v = x->code[k].v;

			if (x->code[k].kind != DL_X_VAR || bound[v])
				continue;
			return dl_fail_at(
			    ck->diag, MAELYS_DATALOG_STATUS_UNSAFE, ck->source,
			    x->pos,
			    "variable %s of the arithmetic term %s is not "
			    "bound by a positive body literal",
			    ck->var_names[v], ck->var_names[x->target]);
		}
	}
	for (k = 0; k < c->head.nargs; k++) {
		const struct dl_cterm *t = &r->head[k];

		if (t->kind == DL_CT_VAR && !bound[t->v])
			return dl_fail_at(
			    ck->diag, MAELYS_DATALOG_STATUS_UNSAFE, ck->source,
			    c->head.args[k].pos,
			    "variable %s of the head is not bound "
			    "by a positive body literal",
			    ck->var_names[t->v]);
	}
	for (i = 0; i < r->nbody; i++) {
		const struct dl_clit *l = &r->body[i];
		const struct dl_ast_lit *al = &c->body[i];

		if (l->kind == DL_LIT_ATOM && !l->negated)
			continue;
		for (k = 0; k < l->nargs; k++) {
			const struct dl_cterm *t = &l->args[k];
			struct dl_pos pos;

			if (t->kind != DL_CT_VAR || bound[t->v])
				continue;
			pos = al->kind == DL_LIT_CMP
				  ? (k == 0 ? al->lhs.pos : al->rhs.pos)
				  : al->atom.args[k].pos;
			return dl_fail_at(
			    ck->diag, MAELYS_DATALOG_STATUS_UNSAFE, ck->source,
			    pos,
			    "variable %s of a %s is not bound by a positive "
			    "body literal",
			    ck->var_names[t->v],
			    l->kind == DL_LIT_ATOM  ? "negated literal"
			    : l->kind == DL_LIT_CMP ? "comparison"
						    : "built-in");
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* The type check of arithmetic (numbers only): no arithmetic term in a
 * column declared symbol, and no variable of such a column in an
 * arithmetic term. */
static maelys_datalog_status_t
dl_ck_arith_types(struct dl_checker *ck, const struct dl_rule *r)
{
	/* by variable: the term computing it, or reading it, else DL_NONE */
	uint32_t computed[DL_VARS_MAX], read[DL_VARS_MAX];
	/* a functor's string operands (dl_functor.h) */
	uint32_t sread[DL_VARS_MAX];
	uint32_t i, k, a;

	if (r->nexprs == 0)
		return MAELYS_DATALOG_STATUS_OK;
	memset(computed, 0xff, sizeof computed);
	memset(read, 0xff, sizeof read);
	memset(sread, 0xff, sizeof sread);
	for (i = 0; i < r->nexprs; i++) {
		computed[r->exprs[i].target] = i;
		for (k = 0; k < r->exprs[i].ncode; k++)
			if (r->exprs[i].code[k].kind == DL_X_VAR) {
				if (r->exprs[i].code[k].op == DL_XV_STRING)
					sread[r->exprs[i].code[k].v] = i;
				else if (r->exprs[i].code[k].op ==
					 DL_XV_NUMBER)
					read[r->exprs[i].code[k].v] = i;
			}
	}
	for (a = 0; a <= r->nbody; a++) {
		/* every atom of the body, then the head */
		const struct dl_clit *l = a < r->nbody ? &r->body[a] : NULL;
		uint32_t pid = l != NULL ? l->pred : r->head_pred;
		const struct dl_cterm *args = l != NULL ? l->args : r->head;
		uint32_t nargs =
		    l != NULL ? l->nargs : ck->prog->preds[pid].arity;
		const struct dl_pred *p;

		if (l != NULL && l->kind != DL_LIT_ATOM)
			continue;
		p = &ck->prog->preds[pid];
		for (k = 0; k < nargs; k++) {
			uint32_t v = args[k].v;

			if (args[k].kind == DL_CT_VAR &&
			    p->columns[k] != MAELYS_DATALOG_COLUMN_SYMBOL &&
			    p->columns[k] != MAELYS_DATALOG_COLUMN_ANY) {
				if (computed[v] != DL_NONE &&
				    r->exprs[computed[v]].string_result)
					return dl_fail_at(
					    ck->diag,
					    MAELYS_DATALOG_STATUS_TYPE,
					    ck->source,
					    r->exprs[computed[v]].pos,
					    "the term %s is a string, but "
					    "column %u of '%s' is a number",
					    ck->var_names[v], k + 1, p->name);
				if (sread[v] != DL_NONE)
					return dl_fail_at(
					    ck->diag,
					    MAELYS_DATALOG_STATUS_TYPE,
					    ck->source, r->exprs[sread[v]].pos,
					    "variable %s is a number (column "
					    "%u "
					    "of '%s') but is read as a string "
					    "in %s",
					    ck->var_names[v], k + 1, p->name,
					    ck->var_names[r->exprs[sread[v]]
							      .target]);
			}
			if (args[k].kind != DL_CT_VAR ||
			    p->columns[k] != MAELYS_DATALOG_COLUMN_SYMBOL)
				continue;
			/* a functor's string goes into a column of any
			 * subtype of symbol, whatever its operands' types:
			 * Souffle types it as a constant, any subtype of
			 * symbol (its example nfsa2fsa cats a Letter into a
			 * String) */
			if (computed[v] != DL_NONE &&
			    !r->exprs[computed[v]].string_result)
				return dl_fail_at(
				    ck->diag, MAELYS_DATALOG_STATUS_TYPE,
				    ck->source, r->exprs[computed[v]].pos,
				    "the arithmetic term %s is a number, but "
				    "column %u of '%s' is a symbol",
				    ck->var_names[v], k + 1, p->name);
			if (read[v] != DL_NONE)
				return dl_fail_at(
				    ck->diag, MAELYS_DATALOG_STATUS_TYPE,
				    ck->source, r->exprs[read[v]].pos,
				    "variable %s is a symbol (column %u of "
				    "'%s') but is used in the arithmetic term "
				    "%s",
				    ck->var_names[v], k + 1, p->name,
				    ck->var_names[r->exprs[read[v]].target]);
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* A fact's term the parser has not folded, as one that calls functors
 * (cat("a", "b"), to_string(10)): computed at load into the policy's
 * symbols, as Souffle takes a constant one; a variable, autoinc() or
 * range in it has no constant value. */
static maelys_datalog_status_t
dl_ck_fact_term(struct dl_checker *ck, const struct dl_ast_term *t,
		const struct dl_pred *p, size_t k, dl_value *out)
{
	struct dl_symview syms = {NULL, &ck->prog->symbols};
	int64_t stack[DL_EXPR_CODE_MAX];
	const struct dl_cexpr *x;
	maelys_datalog_column_type_t col = p->columns[k];
	const char *why = "";
	maelys_datalog_status_t st;
	struct dl_cterm ct;
	uint32_t sp = 0, i;

	ck->nvars = 0;
	ck->nexprs = 0;
	ck->clause = NULL;
	DL_TRY(dl_ck_expr(ck, t, &ct));
	x = &ck->exprs[0];
	for (i = 0; i < x->ncode; i++)
		if (x->code[i].kind == DL_X_VAR ||
		    (x->code[i].kind == DL_X_FUNC &&
		     (x->code[i].op == DL_FN_AUTOINC ||
		      dl_functor_is_range(
			  (enum dl_functor)x->code[i].op))))
			return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_UNSAFE,
					  ck->source, t->pos,
					  "a fact must be ground: the term %s "
					  "has no constant value",
					  ck->var_names[x->target]);
	if (x->string_result ? col != MAELYS_DATALOG_COLUMN_SYMBOL &&
				   col != MAELYS_DATALOG_COLUMN_ANY
			     : col == MAELYS_DATALOG_COLUMN_SYMBOL)
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_TYPE,
				  ck->source, t->pos,
				  "the term %s is a %s, but column %zu of '%s' "
				  "is not",
				  ck->var_names[x->target],
				  x->string_result ? "string" : "number", k + 1,
				  p->name);
	st = dl_expr_exec(x, &syms, NULL, NULL, x->ncode, stack, &sp, &why);
	if (st != MAELYS_DATALOG_STATUS_OK)
		return dl_fail_at(ck->diag, st, ck->source, t->pos,
				  "%s (the fact's term %s)", why,
				  ck->var_names[x->target]);
	if (x->string_result) {
		*out = (dl_value)stack[0];
		return MAELYS_DATALOG_STATUS_OK;
	}
	return dl_ck_integer(ck, stack[0], out);
}

static maelys_datalog_status_t
dl_ck_fact(struct dl_checker *ck, const struct dl_ast_clause *c, uint32_t pid)
{
	struct dl_pred *p = &ck->prog->preds[pid];
	dl_value vals[MAELYS_DATALOG_MAX_ARITY];
	size_t k, need;

	for (k = 0; k < c->head.nargs; k++) {
		const struct dl_ast_term *t = &c->head.args[k];
		struct dl_cterm ct;

		/* one the parser has not folded: a call, a sum of strings,
		 * a variable, or a string where arithmetic wants a number,
		 * each refused (or computed) by its own message */
		if (t->kind == DL_TERM_EXPR) {
			DL_TRY(dl_ck_fact_term(ck, t, p, k, &vals[k]));
			continue;
		}
		if (t->kind == DL_TERM_AGG)
			return dl_fail_at(
			    ck->diag, MAELYS_DATALOG_STATUS_UNSAFE, ck->source,
			    t->pos,
			    "a fact must be ground: an aggregate belongs in a "
			    "rule's body (p(N) :- N = count : { ... }.)");
		if (t->kind == DL_TERM_VAR || t->kind == DL_TERM_ANON)
			return dl_fail_at(
			    ck->diag, MAELYS_DATALOG_STATUS_UNSAFE, ck->source,
			    t->pos,
			    "a fact must be ground: %s%.*s has no "
			    "value",
			    t->kind == DL_TERM_ANON ? "'_'" : "variable ",
			    t->kind == DL_TERM_ANON ? 0 : (int)t->len,
			    t->kind == DL_TERM_ANON ? "" : t->text);
		if (t->kind == DL_TERM_RECORD || t->kind == DL_TERM_ADT ||
		    t->kind == DL_TERM_NIL || p->rtypes[k] != DL_NONE) {
			DL_TRY(dl_record_const(ck->prog, t, p->columns[k],
					       p->rtypes[k], ck->source,
					       ck->diag, &vals[k]));
			continue;
		}
		DL_TRY(dl_ck_term(ck, t, &ct));
		vals[k] = ct.v;
	}
	if (!dl_size_add(p->nfacts, 1, &need) ||
	    !dl_size_mul(need, p->arity, &need))
		return dl_ck_nomem(ck);
	if (p->arity > 0 && dl_vec_reserve((void **)&p->facts, &p->cap_facts,
					   need, sizeof *p->facts) != 0)
		return dl_ck_nomem(ck);
	if (p->arity > 0)
		memcpy(p->facts + p->nfacts * p->arity, vals,
		       p->arity * sizeof *vals);
	p->nfacts++;
	return MAELYS_DATALOG_STATUS_OK;
}

/* The text of a rule or literal as written, kept in the program's arena
 * (bounded by DL_RULE_TEXT_MAX and by its span). */
static maelys_datalog_status_t
dl_ck_text(struct dl_checker *ck, size_t start, size_t end, const char **out,
	   size_t *len)
{
	size_t cap = end - start < DL_RULE_TEXT_MAX ? end - start + 1
						    : DL_RULE_TEXT_MAX + 1;
	char *buf;

	if (cap < 4)
		cap = 4; /* room for "..." that a span this short never needs */
	buf = dl_arena_alloc(&ck->prog->arena, cap);
	if (buf == NULL)
		return dl_ck_nomem(ck);
	*len = dl_lexer_normalize(ck->ast->src, ck->ast->src_len,
				  ck->ast->souffle, start, end, buf, cap);
	*out = buf;
	return MAELYS_DATALOG_STATUS_OK;
}

/* Terms as written (a head's, a body literal's), for the rules API: *out
 * gets an arena array of n (NULL for none). */
static maelys_datalog_status_t
dl_ck_written(struct dl_checker *ck, const struct dl_ast_term *args, size_t n,
	      maelys_datalog_written_term_t **out)
{
	static const maelys_datalog_written_kind_t kinds[] = {
	    [DL_TERM_VAR] = MAELYS_DATALOG_WRITTEN_VARIABLE,
	    [DL_TERM_ANON] = MAELYS_DATALOG_WRITTEN_ANONYMOUS,
	    [DL_TERM_SYMBOL] = MAELYS_DATALOG_WRITTEN_SYMBOL,
	    [DL_TERM_INT] = MAELYS_DATALOG_WRITTEN_INTEGER,
	    [DL_TERM_EXPR] = MAELYS_DATALOG_WRITTEN_EXPRESSION,
	    /* a record term is shown as written, as an expression is */
	    [DL_TERM_RECORD] = MAELYS_DATALOG_WRITTEN_EXPRESSION,
	    [DL_TERM_ADT] = MAELYS_DATALOG_WRITTEN_EXPRESSION,
	    [DL_TERM_NIL] = MAELYS_DATALOG_WRITTEN_EXPRESSION,
	    [DL_TERM_AGG] = MAELYS_DATALOG_WRITTEN_EXPRESSION,
	};
	size_t k;

	*out = NULL;
	if (n == 0)
		return MAELYS_DATALOG_STATUS_OK;
	*out = dl_arena_alloc(&ck->prog->arena, n * sizeof **out);
	if (*out == NULL)
		return dl_ck_nomem(ck);
	for (k = 0; k < n; k++) {
		const struct dl_ast_term *t = &args[k];
		maelys_datalog_written_term_t *w = &(*out)[k];

		memset(w, 0, sizeof *w);
		w->kind = kinds[t->kind];
		w->integer = t->integer;
		w->text = "";
		if (t->kind == DL_TERM_VAR || t->kind == DL_TERM_SYMBOL) {
			w->text =
			    dl_arena_strndup(&ck->prog->arena, t->text, t->len);
			if (w->text == NULL)
				return dl_ck_nomem(ck);
			w->length = t->len;
		} else if (t->kind == DL_TERM_EXPR ||
			   t->kind == DL_TERM_RECORD ||
			   t->kind == DL_TERM_ADT || t->kind == DL_TERM_AGG) {
			DL_TRY(dl_ck_text(ck, t->start, t->end, &w->text,
					  &w->length));
		} else if (t->kind == DL_TERM_NIL) {
			w->text = "nil";
			w->length = 3;
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t dl_ck_agg_keep(struct dl_checker *ck,
					      struct dl_rule *r);
static maelys_datalog_status_t dl_ck_agg_types(struct dl_checker *ck,
					       const struct dl_rule *r);

static maelys_datalog_status_t
dl_ck_agg_witnesses(struct dl_checker *ck, const struct dl_ast_clause **c,
		    struct dl_ast_clause *wc);
static maelys_datalog_status_t dl_ck_agg_mutual(struct dl_checker *ck,
						const struct dl_ast_clause *c);

static bool dl_ast_head_has_agg(const struct dl_ast_clause *c);

static maelys_datalog_status_t
dl_ck_clause(struct dl_checker *ck, const struct dl_ast_clause *c)
{
	struct dl_program *prog = ck->prog;
	struct dl_ast_clause wc, fc;
	struct dl_ast_lit truth;
	struct dl_rule r;
	uint32_t pid;
	const struct dl_pred *p;
	size_t i;

	DL_TRY(dl_ck_resolve(ck, &c->head, &pid));
	p = &prog->preds[pid];
	if ((p->role & MAELYS_DATALOG_PREDICATE_EDB) != 0)
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_ROLE,
				  ck->source, c->head.pos,
				  "'%s' is an EDB predicate: the host supplies "
				  "its facts, so it cannot be a %s",
				  p->name,
				  c->nbody == 0 ? "fact of the policy"
						: "rule head");
	/* Souffle evaluates a fact whose head takes an aggregate
	 * (`e(count : { a(_) }).`) as a rule that always fires: it becomes
	 * `e(...) :- 0 = 0.` */
	if (c->nbody == 0 && ck->ast->souffle && dl_ast_head_has_agg(c)) {
		memset(&truth, 0, sizeof truth);
		truth.kind = DL_LIT_CMP;
		truth.op = DL_CMP_EQ;
		truth.lhs.kind = truth.rhs.kind = DL_TERM_INT;
		truth.pos = truth.lhs.pos = truth.rhs.pos = c->pos;
		truth.start = truth.end = c->end;
		fc = *c;
		fc.body = &truth;
		fc.nbody = 1;
		c = &fc;
	}
	if (c->nbody == 0)
		return dl_ck_fact(ck, c, pid);
	if ((p->role & MAELYS_DATALOG_PREDICATE_POLICY_FACT) != 0)
		return dl_fail_at(
		    ck->diag, MAELYS_DATALOG_STATUS_ROLE, ck->source,
		    c->head.pos,
		    "'%s' is a POLICY_FACT predicate: it may only "
		    "have ground facts, not rules",
		    p->name);
	DL_TRY(dl_ck_agg_mutual(ck, c));
	DL_TRY(dl_ck_agg_witnesses(ck, &c, &wc));
	memset(&r, 0, sizeof r);
	r.head_pred = pid;
	r.pos = c->pos;
	ck->nvars = 0;
	ck->nexprs = 0;
	ck->nrecs = 0;
	ck->naggs = 0;
	ck->agg_cur = DL_NONE;
	ck->clause = c;
	ck->fn_solve = false;
	r.body = dl_arena_alloc(&prog->arena, c->nbody * sizeof *r.body);
	if (r.body == NULL)
		return dl_ck_nomem(ck);
	r.nbody = (uint32_t)c->nbody;
	for (i = 0; i < c->nbody; i++) {
		const struct dl_ast_lit *al = &c->body[i];
		struct dl_clit *l = &r.body[i];

		DL_TRY(dl_ck_literal(ck, al, l));
		DL_TRY(dl_ck_text(ck, al->start, al->end, &l->text,
				  &l->text_len));
		if (al->kind == DL_LIT_CMP) {
			const struct dl_ast_term sides[2] = {al->lhs, al->rhs};

			DL_TRY(dl_ck_written(ck, sides, 2, &l->written));
			l->nwritten = 2;
		} else {
			DL_TRY(dl_ck_written(ck, al->atom.args, al->atom.nargs,
					     &l->written));
			l->nwritten = (uint32_t)al->atom.nargs;
		}
	}
	DL_TRY(dl_ck_text(ck, c->start, c->end, &r.text, &r.text_len));
	DL_TRY(dl_ck_written(ck, c->head.args, c->head.nargs, &r.written));
	for (i = 0; i < c->head.nargs; i++) {
		if (c->head.args[i].kind == DL_TERM_ANON)
			return dl_fail_at(ck->diag,
					  MAELYS_DATALOG_STATUS_UNSAFE,
					  ck->source, c->head.args[i].pos,
					  "'_' in a rule head has no value");
		DL_TRY(dl_ck_term(ck, &c->head.args[i], &r.head[i]));
	}
	r.nvars = ck->nvars;
	if (ck->nexprs > 0) {
		r.exprs = dl_arena_alloc(&prog->arena,
					 ck->nexprs * sizeof *r.exprs);
		if (r.exprs == NULL)
			return dl_ck_nomem(ck);
		memcpy(r.exprs, ck->exprs, ck->nexprs * sizeof *r.exprs);
		r.nexprs = ck->nexprs;
	}
	if (ck->nrecs > 0) {
		r.recs = dl_arena_alloc(&prog->arena,
					ck->nrecs * sizeof *r.recs);
		if (r.recs == NULL)
			return dl_ck_nomem(ck);
		memcpy(r.recs, ck->recs, ck->nrecs * sizeof *r.recs);
		r.nrecs = ck->nrecs;
	}
	r.solve_time = ck->fn_solve;
	r.prunes = (uint32_t)c->prunes;
	DL_TRY(dl_ck_agg_keep(ck, &r));
	DL_TRY(dl_ck_safety(ck, c, &r));
	DL_TRY(dl_ck_arith_types(ck, &r));
	DL_TRY(dl_ck_agg_types(ck, &r));
	DL_TRY(dl_record_check_rule(prog, &r, ck->var_names, ck->source,
				    ck->diag));
	if (r.nvars > prog->max_vars)
		prog->max_vars = r.nvars;
	if (dl_vec_reserve((void **)&prog->rules, &prog->cap_rules,
			   prog->nrules + 1, sizeof r) != 0)
		return dl_ck_nomem(ck);
	prog->rules[prog->nrules++] = r;
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_ck_domain(struct dl_checker *ck)
{
	const maelys_datalog_domain_t *d = ck->domain;
	struct dl_pos none = {0, 0};
	size_t i;
	uint32_t id;

	for (i = 0; i < d->predicate_count; i++) {
		const maelys_datalog_predicate_t *dp = &d->predicates[i];

		DL_TRY(dl_ck_add_pred(ck, dp->name, strlen(dp->name), dp->arity,
				      dp->role, true, none, &id));
	}
	ck->has_vocab = d->atom_count > 0;
	for (i = 0; i < d->atom_count; i++) {
		size_t n = strlen(d->atoms[i]);
		uint64_t h = dl_symbol_hash_string(d->atoms[i], n);
		dl_value v;

		if (!dl_symtab_find_string(&ck->vocab, d->atoms[i], n, h, &v) &&
		    dl_symtab_add_string(&ck->vocab, d->atoms[i], n, h, &v) !=
			0)
			return dl_ck_nomem(ck);
	}
	return MAELYS_DATALOG_STATUS_OK;
}

static const char *dl_ck_copy(struct dl_checker *ck, const char *s);

/* Resolves the column types of .decl d (predicate pid): their kinds into
 * the predicate, their type ids into the type environment. */
static maelys_datalog_status_t
dl_ck_decl_types(struct dl_checker *ck, const struct dl_ast_decl *d,
		 uint32_t pid)
{
	uint16_t ids[MAELYS_DATALOG_MAX_ARITY], clash;
	size_t k;

	/* Souffle keeps one namespace for types and relations (.type
	 * alone, now read, made this reachable) */
	if (dl_types_find(ck->types, d->name, &clash) && clash >= DL_TY_USER)
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_REDECLARED,
				  ck->source, d->pos,
				  "name clash: relation '%s' has the name of "
				  "a type",
				  d->name);
	for (k = 0; k < d->arity; k++) {
		ids[k] = DL_TY_NONE;
		if (d->type_names[k] == NULL)
			continue;
		DL_TRY(dl_types_lookup(ck->types, d->type_names[k], ck->source,
				       d->type_pos[k], &ids[k],
				       &ck->prog->preds[pid].columns[k],
				       ck->diag));
	}
	/* known only now that the types are (declared in any order) */
	if ((d->quals & DL_QUAL_EQREL) != 0 && d->arity == 2 &&
	    (ck->prog->preds[pid].columns[0] !=
		 ck->prog->preds[pid].columns[1] ||
	     (ids[0] != ids[1] &&
	      (ids[0] == DL_TY_NONE || ids[1] == DL_TY_NONE ||
	       !dl_types_subtype(ck->types, ids[0], ids[1]) ||
	       !dl_types_subtype(ck->types, ids[1], ids[0])))))
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_TYPE,
				  ck->source, d->pos,
				  "eqrel relation '%s' has columns of two "
				  "types: an equivalence relation relates "
				  "values of one type",
				  d->name);
	return dl_types_set_pred(ck->types, pid, ids, d->arity, ck->diag);
}

/* A clause, typed first (check_types.c): the typing lives as long as the
 * clause is compiled. */
static maelys_datalog_status_t
dl_ck_clause_typed(struct dl_checker *ck, const struct dl_ast_clause *c)
{
	maelys_datalog_diagnostic_t saved = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_status_t st, typed;

	typed = dl_rule_types_infer(ck->types, ck->prog, c, ck->ast->souffle,
				    ck->source, &ck->rt, ck->diag);
	if (typed == MAELYS_DATALOG_STATUS_TYPE && ck->diag != NULL)
		saved = *ck->diag;
	st = typed;
	/* a type error waits for the clause's other checks, whose messages
	 * say more (a string in an arithmetic term, an unknown predicate) */
	if (ck->rt != NULL)
		st = dl_ck_clause(ck, c);
	if (st == MAELYS_DATALOG_STATUS_OK &&
	    typed == MAELYS_DATALOG_STATUS_TYPE) {
		st = typed;
		if (ck->diag != NULL)
			*ck->diag = saved;
	}
	dl_rule_types_free(ck->rt);
	ck->rt = NULL;
	return st;
}

static maelys_datalog_status_t
dl_ck_decls(struct dl_checker *ck, const struct dl_ast *ast)
{
	unsigned role = MAELYS_DATALOG_PREDICATE_IDB;
	size_t i;
	uint32_t id;

	if (ck->prog->standalone)
		role |= MAELYS_DATALOG_PREDICATE_QUERY;
	for (i = 0; i < ast->ndecls; i++) {
		const struct dl_ast_decl *d = &ast->decls[i];
		uint32_t old;

		if (dl_is_reserved(d->name, d->name_len, ast->souffle))
			return dl_fail_at(ck->diag,
					  MAELYS_DATALOG_STATUS_REDECLARED,
					  ck->source, d->pos,
					  "'%s' is a built-in and cannot be "
					  "declared",
					  d->name);
		old = dl_program_find_pred(ck->prog, d->name, d->name_len);
		if (old != DL_NONE) {
			const struct dl_pred *op = &ck->prog->preds[old];

			/* restating a host predicate as the host declares it
			 * changes nothing: one file can then load under hosts
			 * that declare it and hosts that do not (where it is
			 * the policy's own, empty unless its rules fill it) */
			if (op->from_domain && op->arity == d->arity)
				continue;
			if (op->from_domain)
				return dl_fail_at(
				    ck->diag, MAELYS_DATALOG_STATUS_REDECLARED,
				    ck->source, d->pos,
				    "'%s' is declared by domain '%s' with "
				    "arity %u",
				    d->name, ck->domain->name,
				    (unsigned)op->arity);
			return dl_fail_at(
			    ck->diag, MAELYS_DATALOG_STATUS_REDECLARED,
			    ck->source, d->pos,
			    "'%s' is already declared at line %zu", d->name,
			    op->pos.line);
		}
		DL_TRY(dl_ck_add_pred(ck, d->name, d->name_len, d->arity, role,
				      false, d->pos, &id));
		memcpy(ck->prog->preds[id].columns, d->columns,
		       sizeof d->columns);
		DL_TRY(dl_ck_decl_types(ck, d, id));
		for (size_t k = 0; k < d->arity; k++) {
			ck->prog->preds[id].names[k] = dl_ck_copy(ck, d->names[k]);
			if (d->names[k] != NULL &&
			    ck->prog->preds[id].names[k] == NULL)
				return dl_ck_nomem(ck);
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}

static const char *
dl_ck_copy(struct dl_checker *ck, const char *s)
{
	return s == NULL ? NULL
			 : dl_arena_strndup(&ck->prog->arena, s, strlen(s));
}

/* A relation's size is printed once: Souffle refuses a second .printsize
 * of it (directive i of ast against those before it). */
static maelys_datalog_status_t
dl_ck_printsize_once(struct dl_checker *ck, const struct dl_ast *ast,
		     size_t i)
{
	const struct dl_ast_directive *d = &ast->directives[i];
	size_t j;

	if (d->kind != MAELYS_DATALOG_DIRECTIVE_PRINTSIZE)
		return MAELYS_DATALOG_STATUS_OK;
	for (j = 0; j < i; j++) {
		const struct dl_ast_directive *e = &ast->directives[j];

		if (e->kind == MAELYS_DATALOG_DIRECTIVE_PRINTSIZE &&
		    e->name_len == d->name_len &&
		    memcmp(e->name, d->name, d->name_len) == 0)
			return dl_fail_at(ck->diag,
					  MAELYS_DATALOG_STATUS_REDECLARED,
					  ck->source, d->pos,
					  ".printsize of '%s' again (first at "
					  "line %zu)",
					  d->name, e->pos.line);
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* The relation a directive names: UNDECLARED, with a suggestion, when the
 * program has none of that name. */
static maelys_datalog_status_t
dl_ck_directive_pred(struct dl_checker *ck, const char *name, size_t len,
		     struct dl_pos pos, uint32_t *id)
{
	const struct dl_program *prog = ck->prog;
	uint32_t near;

	*id = dl_program_find_pred(prog, name, len);
	if (*id != DL_NONE)
		return MAELYS_DATALOG_STATUS_OK;
	near = dl_ck_suggest(ck, name, len);
	return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_UNDECLARED,
			  ck->source, pos,
			  "undeclared relation '%.*s' in a directive%s%s%s",
			  (int)len, name,
			  near != DL_NONE ? " (did you mean '" : "",
			  near != DL_NONE ? prog->preds[near].name : "",
			  near != DL_NONE ? "'?)" : "");
}

/* `.limitsize rel(n=N)`: sets the relation's size limit; a relation is
 * limited once. */
static maelys_datalog_status_t
dl_ck_limits(struct dl_checker *ck, const struct dl_ast *ast)
{
	size_t i;

	for (i = 0; i < ast->nlimits; i++) {
		const struct dl_ast_limit *l = &ast->limits[i];
		struct dl_pred *p;
		uint32_t id;

		DL_TRY(dl_ck_directive_pred(ck, l->name, l->name_len, l->pos,
					    &id));
		p = &ck->prog->preds[id];
		if (p->has_size_limit)
			return dl_fail_at(ck->diag,
					  MAELYS_DATALOG_STATUS_REDECLARED,
					  ck->source, l->pos,
					  ".limitsize of '%s' again", p->name);
		p->has_size_limit = true;
		p->size_limit = l->n;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_ck_directives(struct dl_checker *ck, const struct dl_ast *ast)
{
	struct dl_program *prog = ck->prog;
	size_t i;

	if (ast->ndirectives == 0)
		return MAELYS_DATALOG_STATUS_OK;
	if (!prog->standalone)
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_PARSE,
				  ck->source, ast->directives[0].pos,
				  ".input, .output and .printsize belong to "
				  "standalone programs, not to a policy of "
				  "domain '%s'",
				  ck->domain->name);
	prog->directives = dl_arena_alloc(
	    &prog->arena, ast->ndirectives * sizeof *prog->directives);
	if (prog->directives == NULL)
		return dl_ck_nomem(ck);
	for (i = 0; i < ast->ndirectives; i++) {
		const struct dl_ast_directive *d = &ast->directives[i];
		maelys_datalog_directive_t *out = &prog->directives[i];
		uint32_t id;
		struct dl_pred *p;

		DL_TRY(dl_ck_directive_pred(ck, d->name, d->name_len, d->pos,
					    &id));
		p = &prog->preds[id];
		DL_TRY(dl_ck_printsize_once(ck, ast, i));
		if (d->kind == MAELYS_DATALOG_DIRECTIVE_INPUT)
			p->role |= DL_ROLE_INPUT;
		memset(out, 0, sizeof *out);
		out->kind = d->kind;
		out->predicate = p->name;
		out->arity = p->arity;
		out->filename = dl_ck_copy(ck, d->filename);
		out->delimiter = dl_ck_copy(ck, d->delimiter);
		if ((d->filename != NULL && out->filename == NULL) ||
		    (d->delimiter != NULL && out->delimiter == NULL))
			return dl_ck_nomem(ck);
		out->to_stdout = d->to_stdout;
		out->headers = d->headers;
		out->rfc4180 = d->rfc4180;
		memcpy(out->columns, p->columns, sizeof out->columns);
		memcpy(out->column_names, p->names, sizeof out->column_names);
	}
	prog->ndirectives = ast->ndirectives;
	return MAELYS_DATALOG_STATUS_OK;
}

void
dl_program_free(struct dl_program *prog)
{
	size_t i;

	if (prog == NULL)
		return;
	for (i = 0; i < prog->nrules; i++)
		dl_plan_free_rule(&prog->rules[i]);
	for (i = 0; i < prog->npreds; i++)
		dl_free(prog->preds[i].facts);
	for (i = 0; i < prog->nregexes; i++)
		dl_regex_free(prog->regexes[i].code);
	for (i = 0; i < prog->nstrata; i++) {
		dl_free(prog->strata[i].preds);
		dl_free(prog->strata[i].rules);
		dl_free(prog->strata[i].prunes);
	}
	dl_free(prog->strata);
	dl_free(prog->warnings);
	dl_free(prog->regexes);
	dl_free(prog->rules);
	dl_free(prog->preds);
	dl_symtab_free(&prog->symbols);
	dl_symtab_free(&prog->pred_names);
	dl_arena_free(&prog->arena);
	dl_free(prog);
}

maelys_datalog_status_t
dl_program_compile(const struct dl_ast *ast,
		   const maelys_datalog_domain_t *domain,
		   const char *source_name, struct dl_program **out,
		   maelys_datalog_diagnostic_t *diag)
{
	struct dl_checker ck;
	struct dl_program *prog;
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_OK;
	size_t i;

	*out = NULL;
	prog = dl_calloc(1, sizeof *prog);
	if (prog == NULL)
		return dl_fail(diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
			       "out of memory while checking the policy");
	dl_arena_init(&prog->arena);
	dl_symtab_init(&prog->symbols, 0);
	dl_symtab_init(&prog->pred_names, 0);
	prog->standalone = domain == NULL;
	memset(&ck, 0, sizeof ck);
	ck.prog = prog;
	ck.domain = domain;
	ck.ast = ast;
	ck.diag = diag;
	ck.agg_cur = DL_NONE;
	dl_symtab_init(&ck.vocab, 0);
	prog->source_name =
	    dl_arena_strndup(&prog->arena, source_name, strlen(source_name));
	ck.source = prog->source_name;
	if (prog->source_name == NULL)
		st = dl_ck_nomem(&ck);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_types_build(ast, ck.source, &ck.types, diag);
	if (st == MAELYS_DATALOG_STATUS_OK && domain != NULL)
		st = dl_ck_domain(&ck);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_ck_decls(&ck, ast);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_record_check_types(prog, ast, ck.source, diag);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_ck_directives(&ck, ast);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_ck_limits(&ck, ast);
	for (i = 0; st == MAELYS_DATALOG_STATUS_OK && i < ast->nclauses; i++)
		st = dl_ck_clause_typed(&ck, &ast->clauses[i]);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_stratify(prog, diag);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_relq_check(prog, ast, diag);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_ck_functor_rules(prog, diag);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_plan_program(prog, diag);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_relq_choice_indexes(prog, ast, diag);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_warn_program(prog, ast, diag);
	dl_symtab_free(&ck.vocab);
	dl_types_free(ck.types);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		dl_program_free(prog);
		return st;
	}
	*out = prog;
	return MAELYS_DATALOG_STATUS_OK;
}

/*
 * Aggregates (dl_agg.h).  Which variables of an aggregate are its own is
 * Souffle's rule: a name written inside it is the enclosing scope's (an
 * injected variable, a grouping parameter) when the enclosing scope
 * grounds it - with every other aggregate taken as grounded, this one not -
 * and it is not in the aggregated term; otherwise it is the aggregate's
 * own, a fresh variable whatever the same name means elsewhere.  A name
 * used outside and grounded only inside (Souffle's witness) is then
 * unbound outside, and refused as any unbound variable is.
 */
struct dl_names {
	uint32_t n;
	const char *text[DL_VARS_MAX];
	size_t len[DL_VARS_MAX];
};

static bool
dl_names_has(const struct dl_names *g, const char *text, size_t len)
{
	uint32_t i;

	for (i = 0; i < g->n; i++)
		if (g->len[i] == len && memcmp(g->text[i], text, len) == 0)
			return true;
	return false;
}

/* Adds a name; returns whether it was new.  A rule has at most
 * DL_VARS_MAX variables (dl_ck_var refuses more), so a full set drops. */
static bool
dl_names_add(struct dl_names *g, const char *text, size_t len)
{
	if (dl_names_has(g, text, len) || g->n == DL_VARS_MAX)
		return false;
	g->text[g->n] = text;
	g->len[g->n] = len;
	g->n++;
	return true;
}

/* The sub-terms of t that the walkers below look into: an operator's
 * one or two operands, a functor's arguments, a record's or a branch's
 * fields (never an aggregate's: each walker says what it does there).
 * Returns how many, in *subs (at most n_max, the rest left out). */
static size_t
dl_ast_subterms(const struct dl_ast_term *t, const struct dl_ast_term **subs,
		size_t n_max)
{
	const struct dl_ast_term *arr = NULL;
	size_t n = 0, k;

	if (t->kind == DL_TERM_EXPR && t->expr->op == DL_ARITH_CALL) {
		arr = t->expr->args;
		n = t->expr->nargs;
	} else if (t->kind == DL_TERM_EXPR) {
		subs[0] = &t->expr->lhs;
		if (dl_arith_unary(t->expr->op))
			return 1;
		subs[1] = &t->expr->rhs;
		return 2;
	} else if (t->kind == DL_TERM_RECORD || t->kind == DL_TERM_ADT) {
		arr = t->rec->args;
		n = t->rec->nargs;
	}
	if (n > n_max)
		n = n_max;
	for (k = 0; k < n; k++)
		subs[k] = &arr[k];
	return n;
}

/* As many as any functor, record or operator has. */
#define DL_AST_SUBTERMS_MAX 64
_Static_assert(DL_AST_SUBTERMS_MAX >= DL_FUNCTOR_ARGS_MAX &&
		   DL_AST_SUBTERMS_MAX >= DL_RECORD_FIELDS_MAX,
	       "dl_ast_subterms must see every argument and field");

/* Whether t has a value once the names of g have theirs. */
static bool
dl_ast_term_ground(const struct dl_ast_term *t, const struct dl_names *g,
		   const struct dl_ast_agg *skip)
{
	switch (t->kind) {
	case DL_TERM_VAR:
		return dl_names_has(g, t->text, t->len);
	case DL_TERM_ANON:
		return false;
	case DL_TERM_SYMBOL:
	case DL_TERM_INT:
	case DL_TERM_NIL:
		return true;
	case DL_TERM_EXPR:
	case DL_TERM_RECORD:
	case DL_TERM_ADT: {
		const struct dl_ast_term *subs[DL_AST_SUBTERMS_MAX];
		size_t n = dl_ast_subterms(t, subs, DL_AST_SUBTERMS_MAX), k;

		for (k = 0; k < n; k++)
			if (!dl_ast_term_ground(subs[k], g, skip))
				return false;
		return true;
	}
	case DL_TERM_AGG:
		return t->agg != skip;
	}
	return false;
}

/* Whether name is written in t (not inside an aggregate in it). */
static bool
dl_ast_term_mentions(const struct dl_ast_term *t, const char *text, size_t len)
{
	const struct dl_ast_term *subs[DL_AST_SUBTERMS_MAX];
	size_t n, k;

	if (t->kind == DL_TERM_VAR)
		return t->len == len && memcmp(t->text, text, len) == 0;
	n = dl_ast_subterms(t, subs, DL_AST_SUBTERMS_MAX);
	for (k = 0; k < n; k++)
		if (dl_ast_term_mentions(subs[k], text, len))
			return true;
	return false;
}

/* Adds to g the names lits ground: a positive atom's variables, and
 * X = t once t is ground. */
static void
dl_ast_ground(const struct dl_ast_lit *lits, size_t n,
	      const struct dl_ast_agg *skip, struct dl_names *g)
{
	bool changed = true;
	size_t i, k;

	while (changed) {
		changed = false;
		for (i = 0; i < n; i++) {
			const struct dl_ast_lit *l = &lits[i];

			if (l->kind == DL_LIT_ATOM && !l->negated) {
				for (k = 0; k < l->atom.nargs; k++)
					if (l->atom.args[k].kind ==
						DL_TERM_VAR &&
					    dl_names_add(g,
							 l->atom.args[k].text,
							 l->atom.args[k].len))
						changed = true;
				continue;
			}
			if (l->kind != DL_LIT_CMP || l->negated ||
			    l->op != DL_CMP_EQ)
				continue;
			if (l->lhs.kind == DL_TERM_VAR &&
			    dl_ast_term_ground(&l->rhs, g, skip) &&
			    dl_names_add(g, l->lhs.text, l->lhs.len))
				changed = true;
			if (l->rhs.kind == DL_TERM_VAR &&
			    dl_ast_term_ground(&l->lhs, g, skip) &&
			    dl_names_add(g, l->rhs.text, l->rhs.len))
				changed = true;
		}
	}
}

/* The scope a variable written in the current one belongs to. */
static uint32_t
dl_ck_agg_scope(const struct dl_checker *ck, const struct dl_ast_term *t)
{
	uint32_t scope = ck->agg_cur;

	while (scope != DL_NONE) {
		const struct dl_ast_agg *a = ck->agg_ast[scope];

		if (!dl_names_has(ck->ground[scope], t->text, t->len) ||
		    (a->has_value &&
		     dl_ast_term_mentions(&a->value, t->text, t->len)))
			break;
		scope = ck->aggs[scope].parent;
	}
	return scope;
}

static bool
dl_ck_agg_within(uint32_t scope, uint32_t first, uint32_t end)
{
	return scope != DL_NONE && scope >= first && scope < end;
}

/* The variables of scopes around aggregate i that it (or one nested in
 * it) reads. */
static maelys_datalog_status_t
dl_ck_agg_needs(struct dl_checker *ck, uint32_t i)
{
	struct dl_cagg *a = &ck->aggs[i];
	uint32_t need[DL_VARS_MAX], n = 0, j, k, v;
	bool seen[DL_VARS_MAX];

	memset(seen, 0, sizeof seen);
#define DL_AGG_NEED(var)                                                       \
	do {                                                                   \
		v = (var);                                                     \
		if (!seen[v] &&                                                \
		    !dl_ck_agg_within(ck->var_scope[v], i, a->end)) {          \
			seen[v] = true;                                        \
			need[n++] = v;                                         \
		}                                                              \
	} while (0)
	for (j = i; j < a->end; j++) {
		const struct dl_cagg *b = &ck->aggs[j];

		for (k = 0; k < b->nbody; k++) {
			const struct dl_clit *l = &b->body[k];
			uint32_t m;

			for (m = 0; m < l->nargs; m++)
				if (l->args[m].kind == DL_CT_VAR)
					DL_AGG_NEED(l->args[m].v);
		}
		if (b->has_value && b->value.kind == DL_CT_VAR)
			DL_AGG_NEED(b->value.v);
	}
	for (j = 0; j < ck->nexprs; j++) {
		const struct dl_cexpr *x = &ck->exprs[j];

		if (!dl_ck_agg_within(ck->expr_scope[j], i, a->end))
			continue;
		for (k = 0; k < x->ncode; k++)
			if (x->code[k].kind == DL_X_VAR)
				DL_AGG_NEED(x->code[k].v);
	}
#undef DL_AGG_NEED
	a->nneeds = n;
	a->needs = NULL;
	if (n == 0)
		return MAELYS_DATALOG_STATUS_OK;
	a->needs = dl_arena_alloc(&ck->prog->arena, n * sizeof *need);
	if (a->needs == NULL)
		return dl_ck_nomem(ck);
	memcpy(a->needs, need, n * sizeof *need);
	return MAELYS_DATALOG_STATUS_OK;
}

/* Whether t holds an aggregate. */
static bool
dl_ast_term_has_agg(const struct dl_ast_term *t)
{
	const struct dl_ast_term *subs[DL_AST_SUBTERMS_MAX];
	size_t n, k;

	if (t->kind == DL_TERM_AGG)
		return true;
	n = dl_ast_subterms(t, subs, DL_AST_SUBTERMS_MAX);
	for (k = 0; k < n; k++)
		if (dl_ast_term_has_agg(subs[k]))
			return true;
	return false;
}

/*
 * Souffle sums a body of several atoms, or one with an aggregate in it or
 * a variable twice in its atom, over the distinct values of its named
 * variables (it materialises the body as a relation of them), and any
 * other body over its rows.  The nested join here folds every row: the
 * two differ only when such a body has a `_` in a positive atom (rows that
 * agree on every named variable).  That one is refused, never summed
 * differently.
 */
static maelys_datalog_status_t
dl_ck_agg_sum_rows(struct dl_checker *ck, const struct dl_ast_agg *a)
{
	size_t i, k, j, natoms = 0;
	bool deduped = false, anon = false;

	if (a->op != DL_AGG_SUM && a->op != DL_AGG_MEAN)
		return MAELYS_DATALOG_STATUS_OK;
	for (i = 0; i < a->nbody; i++) {
		const struct dl_ast_lit *l = &a->body[i];

		if (l->kind == DL_LIT_CMP) {
			deduped |= dl_ast_term_has_agg(&l->lhs) ||
				   dl_ast_term_has_agg(&l->rhs);
			continue;
		}
		for (k = 0; k < l->atom.nargs; k++)
			deduped |= dl_ast_term_has_agg(&l->atom.args[k]);
		if (l->kind != DL_LIT_ATOM || l->negated)
			continue;
		natoms++;
		for (k = 0; k < l->atom.nargs; k++) {
			const struct dl_ast_term *t = &l->atom.args[k];

			anon |= t->kind == DL_TERM_ANON;
			for (j = 0; j < k && t->kind == DL_TERM_VAR; j++)
				deduped |=
				    l->atom.args[j].kind == DL_TERM_VAR &&
				    l->atom.args[j].len == t->len &&
				    memcmp(l->atom.args[j].text, t->text,
					   t->len) == 0;
		}
	}
	if (!anon || (natoms < 2 && !deduped))
		return MAELYS_DATALOG_STATUS_OK;
	return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_LIMIT, ck->source,
			  a->pos,
			  "sum over a body of several atoms (or with an "
			  "aggregate or a repeated variable) with '_' in an "
			  "atom: Souffle sums such a body once per value of "
			  "its named variables, which is not implemented; "
			  "name the variable");
}

/* An aggregate term: its body and term compiled in a scope of its own,
 * and a variable of its own, named by its text, standing where it was
 * written. */
static maelys_datalog_status_t
dl_ck_agg(struct dl_checker *ck, const struct dl_ast_term *t,
	  struct dl_cterm *out)
{
	const struct dl_ast_agg *aa = t->agg;
	uint32_t i = ck->naggs, parent = ck->agg_cur;
	struct dl_cagg *a;
	struct dl_names *g;
	const char *text = "";
	size_t len = 0, k;
	maelys_datalog_column_type_t vk;

	vk = aa->has_value ? dl_rule_types_kind(ck->rt, &aa->value)
			   : MAELYS_DATALOG_COLUMN_NUMBER;
	if (aa->op == DL_AGG_MEAN && vk != MAELYS_DATALOG_COLUMN_FLOAT)
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_TYPE,
				  ck->source, t->pos,
				  "the aggregate mean of %s (not supported: "
				  "mean folds floats; to_float converts)",
				  vk == MAELYS_DATALOG_COLUMN_UNSIGNED
				      ? "unsigned values"
				      : "numbers");
	if (i == DL_AGGS_MAX)
		return dl_fail_at(
		    ck->diag, MAELYS_DATALOG_STATUS_LIMIT, ck->source, t->pos,
		    "more than %d aggregates in one rule", DL_AGGS_MAX);
	DL_TRY(dl_ck_agg_sum_rows(ck, aa));
	if (aa->has_value && aa->value.kind == DL_TERM_ANON)
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_UNSAFE,
				  ck->source, aa->value.pos,
				  "'_' as the term of %s has no value",
				  dl_agg_name(aa->op));
	DL_TRY(dl_ck_text(ck, t->start, t->end, &text, &len));
	/* the names grounded around it, with it left out */
	g = dl_arena_alloc(&ck->prog->arena, sizeof *g);
	if (g == NULL)
		return dl_ck_nomem(ck);
	if (parent == DL_NONE) {
		g->n = 0;
		dl_ast_ground(ck->clause->body, ck->ground_nbody, aa, g);
	} else {
		memcpy(g, ck->ground[parent], sizeof *g);
		dl_ast_ground(ck->agg_ast[parent]->body,
			      ck->agg_ast[parent]->nbody, aa, g);
	}
	ck->naggs++;
	a = &ck->aggs[i];
	memset(a, 0, sizeof *a);
	a->op = aa->op;
	a->parent = parent;
	a->pos = t->pos;
	a->has_value = aa->has_value;
	a->num = vk == MAELYS_DATALOG_COLUMN_FLOAT	? DL_NUM_FLOAT
		 : vk == MAELYS_DATALOG_COLUMN_UNSIGNED ? DL_NUM_UNSIGNED
							: DL_NUM_POLY;
	/* the result's type, by the typing (a sum of floats is a float);
	 * ANY: dl_ck_agg_keep finds it by the folded term's column */
	a->type = aa->op == DL_AGG_COUNT  ? MAELYS_DATALOG_COLUMN_NUMBER
		  : aa->op == DL_AGG_MEAN ? MAELYS_DATALOG_COLUMN_FLOAT
		  : vk == MAELYS_DATALOG_COLUMN_FLOAT ||
			  vk == MAELYS_DATALOG_COLUMN_UNSIGNED
		      ? vk
		      : MAELYS_DATALOG_COLUMN_ANY;
	ck->agg_ast[i] = aa;
	ck->ground[i] = g;
	a->body = dl_arena_alloc(&ck->prog->arena, aa->nbody * sizeof *a->body);
	if (a->body == NULL)
		return dl_ck_nomem(ck);
	a->nbody = (uint32_t)aa->nbody;
	ck->agg_cur = i;
	for (k = 0; k < aa->nbody; k++) {
		struct dl_clit *l = &a->body[k];

		DL_TRY(dl_ck_literal(ck, &aa->body[k], l));
		DL_TRY(dl_ck_text(ck, aa->body[k].start, aa->body[k].end,
				  &l->text, &l->text_len));
	}
	if (aa->has_value)
		DL_TRY(dl_ck_term(ck, &aa->value, &a->value));
	ck->agg_cur = parent;
	a->end = ck->naggs;
	DL_TRY(dl_ck_agg_needs(ck, i));
	if (ck->nvars == DL_VARS_MAX)
		return dl_fail_at(
		    ck->diag, MAELYS_DATALOG_STATUS_LIMIT, ck->source, t->pos,
		    "more than %zu variables in one rule", DL_VARS_MAX);
	ck->var_names[ck->nvars] = text;
	ck->var_lens[ck->nvars] = len;
	ck->var_scope[ck->nvars] = parent;
	a->target = ck->nvars;
	out->kind = DL_CT_VAR;
	out->v = ck->nvars++;
	return MAELYS_DATALOG_STATUS_OK;
}

/* The type of the term aggregate a folds: a column's of its body that
 * holds it, else a number (an arithmetic term, a constant). */
static maelys_datalog_column_type_t
dl_ck_agg_value_type(const struct dl_checker *ck, const struct dl_cagg *a)
{
	uint32_t k, m;

	for (k = 0; k < a->nbody && a->value.kind == DL_CT_VAR; k++) {
		const struct dl_clit *l = &a->body[k];

		if (l->kind != DL_LIT_ATOM || l->negated)
			continue;
		for (m = 0; m < l->nargs; m++)
			if (l->args[m].kind == DL_CT_VAR &&
			    l->args[m].v == a->value.v)
				return ck->prog->preds[l->pred].columns[m];
	}
	return MAELYS_DATALOG_COLUMN_NUMBER;
}

/* The clause's aggregates, and its terms' scopes, into the rule. */
static maelys_datalog_status_t
dl_ck_agg_keep(struct dl_checker *ck, struct dl_rule *r)
{
	struct dl_program *prog = ck->prog;
	uint32_t i;

	if (ck->naggs == 0)
		return MAELYS_DATALOG_STATUS_OK;
	for (i = 0; i < ck->naggs; i++)
		if (ck->aggs[i].type == MAELYS_DATALOG_COLUMN_ANY)
			ck->aggs[i].type = dl_agg_result_type(
			    ck->aggs[i].op,
			    dl_ck_agg_value_type(ck, &ck->aggs[i]));
	r->aggs = dl_arena_alloc(&prog->arena, ck->naggs * sizeof *r->aggs);
	if (r->aggs == NULL)
		return dl_ck_nomem(ck);
	memcpy(r->aggs, ck->aggs, ck->naggs * sizeof *r->aggs);
	r->naggs = ck->naggs;
	if (ck->nexprs > 0) {
		r->expr_scope = dl_arena_alloc(
		    &prog->arena, ck->nexprs * sizeof *r->expr_scope);
		if (r->expr_scope == NULL)
			return dl_ck_nomem(ck);
		memcpy(r->expr_scope, ck->expr_scope,
		       ck->nexprs * sizeof *r->expr_scope);
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* Whether arithmetic term x is written inside an aggregate. */
static bool
dl_ck_in_agg(const struct dl_rule *r, uint32_t x)
{
	return r->expr_scope != NULL && r->expr_scope[x] != DL_NONE;
}

/* Binds the result of every aggregate directly in `scope` whose grouping
 * parameters are bound; returns whether it bound one. */
static bool
dl_ck_agg_ready(const struct dl_rule *r, uint32_t scope, bool *bound)
{
	bool changed = false;
	uint32_t i, k;

	for (i = 0; i < r->naggs; i++) {
		const struct dl_cagg *a = &r->aggs[i];

		if (a->parent != scope || bound[a->target])
			continue;
		for (k = 0; k < a->nneeds; k++)
			if (!bound[a->needs[k]])
				break;
		if (k == a->nneeds) {
			bound[a->target] = true;
			changed = true;
		}
	}
	return changed;
}

/* Range restriction inside each aggregate directly in `scope`, where
 * `outer` holds what the scope binds: its grouping parameters are bound
 * there, and its own body binds every other variable it uses. */
static maelys_datalog_status_t
dl_ck_agg_safety(struct dl_checker *ck, const struct dl_rule *r, uint32_t scope,
		 const bool *outer)
{
	bool bound[DL_VARS_MAX];
	uint32_t i, k, m;

	for (i = 0; i < r->naggs; i++) {
		const struct dl_cagg *a = &r->aggs[i];
		bool changed = true;

		if (a->parent != scope)
			continue;
		for (k = 0; k < a->nneeds; k++)
			if (!outer[a->needs[k]])
				return dl_fail_at(
				    ck->diag, MAELYS_DATALOG_STATUS_UNSAFE,
				    ck->source, a->pos,
				    "variable %s is used in the aggregate %s "
				    "and outside it, but is bound only inside "
				    "it",
				    ck->var_names[a->needs[k]],
				    ck->var_names[a->target]);
		memcpy(bound, outer, sizeof bound);
		for (k = 0; k < a->nbody; k++) {
			const struct dl_clit *l = &a->body[k];

			if (l->kind != DL_LIT_ATOM || l->negated)
				continue;
			for (m = 0; m < l->nargs; m++)
				if (l->args[m].kind == DL_CT_VAR)
					bound[l->args[m].v] = true;
		}
		while (changed) {
			changed = dl_ck_agg_ready(r, i, bound);
			for (k = 0; k < r->nexprs; k++) {
				const struct dl_cexpr *x = &r->exprs[k];

				if (r->expr_scope[k] != i || bound[x->target])
					continue;
				for (m = 0; m < x->ncode; m++)
					if (x->code[m].kind == DL_X_VAR &&
					    !bound[x->code[m].v])
						break;
				if (m == x->ncode) {
					bound[x->target] = true;
					changed = true;
				}
			}
			for (k = 0; k < a->nbody; k++) {
				const struct dl_clit *l = &a->body[k];
				const struct dl_cterm *p = &l->args[0],
						      *q = &l->args[1];
				bool pb, qb;

				if (l->kind != DL_LIT_CMP || l->negated ||
				    l->op != DL_CMP_EQ)
					continue;
				pb = p->kind == DL_CT_CONST || bound[p->v];
				qb = q->kind == DL_CT_CONST || bound[q->v];
				if (pb != qb) {
					bound[pb ? q->v : p->v] = true;
					changed = true;
				}
			}
		}
		DL_TRY(dl_ck_agg_safety(ck, r, i, bound));
		for (k = 0; k < r->nexprs; k++) {
			const struct dl_cexpr *x = &r->exprs[k];

			if (r->expr_scope[k] != i)
				continue;
			for (m = 0; m < x->ncode; m++)
				if (x->code[m].kind == DL_X_VAR &&
				    !bound[x->code[m].v])
					return dl_fail_at(
					    ck->diag,
					    MAELYS_DATALOG_STATUS_UNSAFE,
					    ck->source, x->pos,
					    "variable %s of the arithmetic "
					    "term %s is not bound by a "
					    "positive literal of the aggregate "
					    "%s",
					    ck->var_names[x->code[m].v],
					    ck->var_names[x->target],
					    ck->var_names[a->target]);
		}
		for (k = 0; k < a->nbody; k++) {
			const struct dl_clit *l = &a->body[k];

			if (l->kind == DL_LIT_ATOM && !l->negated)
				continue;
			for (m = 0; m < l->nargs; m++)
				if (l->args[m].kind == DL_CT_VAR &&
				    !bound[l->args[m].v])
					return dl_fail_at(
					    ck->diag,
					    MAELYS_DATALOG_STATUS_UNSAFE,
					    ck->source, l->pos,
					    "variable %s of a %s in the "
					    "aggregate %s is not bound by a "
					    "positive literal of its body",
					    ck->var_names[l->args[m].v],
					    l->kind == DL_LIT_ATOM
						? "negated literal"
					    : l->kind == DL_LIT_CMP
						? "comparison"
						: "built-in",
					    ck->var_names[a->target]);
		}
		if (a->has_value && a->value.kind == DL_CT_VAR &&
		    !bound[a->value.v])
			return dl_fail_at(
			    ck->diag, MAELYS_DATALOG_STATUS_UNSAFE, ck->source,
			    a->pos,
			    "variable %s, the term of the aggregate %s, is "
			    "not bound by its body",
			    ck->var_names[a->value.v],
			    ck->var_names[a->target]);
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* Whether literal l is v = the result of aggregate a (either way). */
static bool
dl_ck_agg_equated(const struct dl_clit *l, uint32_t v, const struct dl_cagg *a)
{
	const struct dl_cterm *x = &l->args[0], *y = &l->args[1];

	if (l->kind != DL_LIT_CMP || l->negated || l->op != DL_CMP_EQ ||
	    x->kind != DL_CT_VAR || y->kind != DL_CT_VAR)
		return false;
	return (x->v == v && y->v == a->target) ||
	       (y->v == v && x->v == a->target);
}

/* Whether variable v holds aggregate a's result: it is a's variable, or a
 * literal of the rule or of an aggregate equates it with it. */
static bool
dl_ck_agg_holds(const struct dl_rule *r, uint32_t v, const struct dl_cagg *a)
{
	uint32_t i, k;

	if (a->target == v)
		return true;
	for (k = 0; k < r->nbody; k++)
		if (dl_ck_agg_equated(&r->body[k], v, a))
			return true;
	for (i = 0; i < r->naggs; i++)
		for (k = 0; k < r->aggs[i].nbody; k++)
			if (dl_ck_agg_equated(&r->aggs[i].body[k], v, a))
				return true;
	return false;
}

/* An atom's symbol columns (body, aggregate body or head) hold no
 * aggregate's result, and sum, min and max fold no variable of a symbol
 * column: the aggregates work on numbers. */
static maelys_datalog_status_t
dl_ck_agg_symbols(struct dl_checker *ck, const struct dl_rule *r, uint32_t pid,
		  const struct dl_cterm *args, uint32_t nargs)
{
	const struct dl_pred *p = &ck->prog->preds[pid];
	uint32_t i, k;

	for (k = 0; k < nargs; k++) {
		if (args[k].kind != DL_CT_VAR ||
		    p->columns[k] != MAELYS_DATALOG_COLUMN_SYMBOL)
			continue;
		for (i = 0; i < r->naggs; i++) {
			const struct dl_cagg *a = &r->aggs[i];

			if (a->type != MAELYS_DATALOG_COLUMN_SYMBOL &&
			    dl_ck_agg_holds(r, args[k].v, a))
				return dl_fail_at(
				    ck->diag, MAELYS_DATALOG_STATUS_TYPE,
				    ck->source, a->pos,
				    "the aggregate %s is a number, but column "
				    "%u of '%s' is a symbol",
				    ck->var_names[a->target], k + 1, p->name);
			if (a->op != DL_AGG_COUNT &&
			    a->value.kind == DL_CT_VAR &&
			    a->value.v == args[k].v)
				return dl_fail_at(
				    ck->diag, MAELYS_DATALOG_STATUS_TYPE,
				    ck->source, a->pos,
				    "%s over variable %s, a symbol (column %u "
				    "of '%s'): %s works on numbers",
				    dl_agg_name(a->op),
				    ck->var_names[a->value.v], k + 1, p->name,
				    dl_agg_name(a->op));
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_ck_agg_types(struct dl_checker *ck, const struct dl_rule *r)
{
	uint32_t i, k;

	if (r->naggs == 0)
		return MAELYS_DATALOG_STATUS_OK;
	for (i = 0; i < r->naggs; i++) {
		const struct dl_cagg *a = &r->aggs[i];

		struct dl_symview sv = {NULL, &ck->prog->symbols};
		int64_t n;

		if (a->has_value && a->value.kind == DL_CT_CONST &&
		    !dl_value_is_inline_int(a->value.v) &&
		    !dl_symview_value_int(&sv, a->value.v, &n))
			return dl_fail_at(
			    ck->diag, MAELYS_DATALOG_STATUS_TYPE, ck->source,
			    a->pos, "%s of a string: %s works on numbers",
			    dl_agg_name(a->op), dl_agg_name(a->op));
		for (k = 0; k < a->nbody; k++)
			if (a->body[k].kind == DL_LIT_ATOM)
				DL_TRY(dl_ck_agg_symbols(ck, r, a->body[k].pred,
							 a->body[k].args,
							 a->body[k].nargs));
	}
	for (k = 0; k < r->nbody; k++)
		if (r->body[k].kind == DL_LIT_ATOM)
			DL_TRY(dl_ck_agg_symbols(ck, r, r->body[k].pred,
						 r->body[k].args,
						 r->body[k].nargs));
	return dl_ck_agg_symbols(ck, r, r->head_pred, r->head,
				 ck->prog->preds[r->head_pred].arity);
}

/*
 * Witnesses (Souffle's): a variable written in the body of an aggregate of
 * the rule's own body, grounded there, used outside it and grounded
 * nowhere outside, is a witness of the value min or max chose.  The rule
 * gets, after its own literals, a copy of the aggregate's body and
 * `term = aggregate`: the bindings of the body whose term is the minimum
 * (or maximum), which ground the witness.  count, sum and mean have no
 * witness: such a variable is refused, as Souffle refuses it.
 */
struct dl_agg_terms {
	const struct dl_ast_term *t[DL_AGGS_MAX];
	uint32_t n;
};

/* The aggregates written in t, not inside another one. */
static void
dl_ast_aggs_of(const struct dl_ast_term *t, struct dl_agg_terms *out)
{
	const struct dl_ast_term *subs[DL_AST_SUBTERMS_MAX];
	size_t n, k;

	if (t->kind == DL_TERM_AGG) {
		if (out->n < DL_AGGS_MAX)
			out->t[out->n++] = t;
		return;
	}
	n = dl_ast_subterms(t, subs, DL_AST_SUBTERMS_MAX);
	for (k = 0; k < n; k++)
		dl_ast_aggs_of(subs[k], out);
}

/* Whether the clause's head takes an aggregate. */
static bool
dl_ast_head_has_agg(const struct dl_ast_clause *c)
{
	struct dl_agg_terms aggs = {{NULL}, 0};
	size_t k;

	for (k = 0; k < c->head.nargs; k++)
		dl_ast_aggs_of(&c->head.args[k], &aggs);
	return aggs.n > 0;
}

/* Whether name is written in lits (not inside an aggregate). */
static bool
dl_ast_lits_mention(const struct dl_ast_lit *lits, size_t n, const char *text,
		    size_t len)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		const struct dl_ast_lit *l = &lits[i];

		if (l->kind == DL_LIT_CMP) {
			if (dl_ast_term_mentions(&l->lhs, text, len) ||
			    dl_ast_term_mentions(&l->rhs, text, len))
				return true;
			continue;
		}
		for (k = 0; k < l->atom.nargs; k++)
			if (dl_ast_term_mentions(&l->atom.args[k], text, len))
				return true;
	}
	return false;
}

/*
 * Souffle's "mutually dependent aggregate": each literal holding an
 * aggregate is looked at on its own (as a clause of that literal alone);
 * two such literals are mutually dependent when each writes a variable
 * that the other writes too and grounds while it does not.  Such a rule
 * is refused, as Souffle refuses it: which binding one aggregate sees
 * would depend on the other's.
 */

/* Adds to g every variable written in t, inside aggregates too. */
static void
dl_ast_term_all_vars(const struct dl_ast_term *t, struct dl_names *g);

static void
dl_ast_lit_all_vars(const struct dl_ast_lit *l, struct dl_names *g)
{
	size_t k;

	if (l->kind == DL_LIT_CMP) {
		dl_ast_term_all_vars(&l->lhs, g);
		dl_ast_term_all_vars(&l->rhs, g);
		return;
	}
	for (k = 0; k < l->atom.nargs; k++)
		dl_ast_term_all_vars(&l->atom.args[k], g);
}

static void
dl_ast_term_all_vars(const struct dl_ast_term *t, struct dl_names *g)
{
	const struct dl_ast_term *subs[DL_AST_SUBTERMS_MAX];
	size_t n, k;

	if (t->kind == DL_TERM_VAR) {
		(void)dl_names_add(g, t->text, t->len);
		return;
	}
	if (t->kind == DL_TERM_AGG) {
		if (t->agg->has_value)
			dl_ast_term_all_vars(&t->agg->value, g);
		for (k = 0; k < t->agg->nbody; k++)
			dl_ast_lit_all_vars(&t->agg->body[k], g);
		return;
	}
	n = dl_ast_subterms(t, subs, DL_AST_SUBTERMS_MAX);
	for (k = 0; k < n; k++)
		dl_ast_term_all_vars(subs[k], g);
}

/* The variables the literal grounds on its own: its aggregates' bodies'
 * (nested ones too), then the literal's, an aggregate counting as
 * ground. */
static void
dl_ast_agg_grounds(const struct dl_ast_term *t, struct dl_names *g)
{
	const struct dl_ast_term *subs[DL_AST_SUBTERMS_MAX];
	size_t n, k;

	if (t->kind == DL_TERM_AGG) {
		for (k = 0; k < t->agg->nbody; k++) {
			const struct dl_ast_lit *l = &t->agg->body[k];

			if (l->kind == DL_LIT_CMP) {
				dl_ast_agg_grounds(&l->lhs, g);
				dl_ast_agg_grounds(&l->rhs, g);
			} else {
				for (n = 0; n < l->atom.nargs; n++)
					dl_ast_agg_grounds(&l->atom.args[n],
							   g);
			}
		}
		dl_ast_ground(t->agg->body, t->agg->nbody, NULL, g);
		return;
	}
	n = dl_ast_subterms(t, subs, DL_AST_SUBTERMS_MAX);
	for (k = 0; k < n; k++)
		dl_ast_agg_grounds(subs[k], g);
}

static void
dl_ast_lit_grounds(const struct dl_ast_lit *l, struct dl_names *g)
{
	size_t k;

	g->n = 0;
	if (l->kind == DL_LIT_CMP) {
		dl_ast_agg_grounds(&l->lhs, g);
		dl_ast_agg_grounds(&l->rhs, g);
	} else {
		for (k = 0; k < l->atom.nargs; k++)
			dl_ast_agg_grounds(&l->atom.args[k], g);
	}
	dl_ast_ground(l, 1, NULL, g);
}

static bool
dl_ast_lit_has_agg(const struct dl_ast_lit *l)
{
	size_t k;

	if (l->kind == DL_LIT_CMP)
		return dl_ast_term_has_agg(&l->lhs) ||
		       dl_ast_term_has_agg(&l->rhs);
	for (k = 0; k < l->atom.nargs; k++)
		if (dl_ast_term_has_agg(&l->atom.args[k]))
			return true;
	return false;
}

/* Whether a variable written in both is grounded by b and not by a. */
static bool
dl_ast_agg_dependent(const struct dl_names *vars_a, const struct dl_names *ga,
		     const struct dl_names *vars_b, const struct dl_names *gb)
{
	uint32_t i;

	for (i = 0; i < vars_a->n; i++)
		if (dl_names_has(vars_b, vars_a->text[i], vars_a->len[i]) &&
		    !dl_names_has(ga, vars_a->text[i], vars_a->len[i]) &&
		    dl_names_has(gb, vars_a->text[i], vars_a->len[i]))
			return true;
	return false;
}

static maelys_datalog_status_t
dl_ck_agg_mutual(struct dl_checker *ck, const struct dl_ast_clause *c)
{
	/* the head as a literal of its own, then the body's */
	struct dl_ast_lit head;
	const struct dl_ast_lit *lits[DL_BODY_MAX + 1];
	struct dl_names *va, *vb, *ga, *gb;
	size_t n = 0, i, j;
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_OK;

	memset(&head, 0, sizeof head);
	head.kind = DL_LIT_ATOM;
	head.atom = c->head;
	head.pos = c->head.pos;
	if (dl_ast_lit_has_agg(&head))
		lits[n++] = &head;
	for (i = 0; i < c->nbody && n <= DL_BODY_MAX; i++)
		if (dl_ast_lit_has_agg(&c->body[i]))
			lits[n++] = &c->body[i];
	if (n < 2)
		return MAELYS_DATALOG_STATUS_OK;
	va = dl_alloc(4 * sizeof *va);
	if (va == NULL)
		return dl_ck_nomem(ck);
	vb = va + 1;
	ga = va + 2;
	gb = va + 3;
	for (i = 0; i < n && st == MAELYS_DATALOG_STATUS_OK; i++) {
		va->n = 0;
		dl_ast_lit_all_vars(lits[i], va);
		dl_ast_lit_grounds(lits[i], ga);
		for (j = i + 1; j < n; j++) {
			vb->n = 0;
			dl_ast_lit_all_vars(lits[j], vb);
			dl_ast_lit_grounds(lits[j], gb);
			if (dl_ast_agg_dependent(va, ga, vb, gb) &&
			    dl_ast_agg_dependent(vb, gb, va, ga)) {
				st = dl_fail_at(
				    ck->diag, MAELYS_DATALOG_STATUS_UNSAFE,
				    ck->source, lits[i]->pos,
				    "mutually dependent aggregates: each "
				    "grounds a variable the other reads "
				    "ungrounded (Souffle refuses it)");
				break;
			}
		}
	}
	dl_free(va);
	return st;
}

static maelys_datalog_status_t
dl_ck_agg_witnesses(struct dl_checker *ck, const struct dl_ast_clause **c,
		    struct dl_ast_clause *wc)
{
	const struct dl_ast_clause *cl = *c;
	struct dl_agg_terms aggs = {{NULL}, 0};
	struct dl_names *outer = NULL, *inner = NULL;
	struct dl_ast_lit *body = NULL;
	size_t i, k, n = cl->nbody;
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_OK;

	ck->ground_nbody = cl->nbody;
	for (i = 0; i < cl->nbody; i++) {
		const struct dl_ast_lit *l = &cl->body[i];

		if (l->kind == DL_LIT_CMP) {
			dl_ast_aggs_of(&l->lhs, &aggs);
			dl_ast_aggs_of(&l->rhs, &aggs);
		} else {
			for (k = 0; k < l->atom.nargs; k++)
				dl_ast_aggs_of(&l->atom.args[k], &aggs);
		}
	}
	for (k = 0; k < cl->head.nargs; k++)
		dl_ast_aggs_of(&cl->head.args[k], &aggs);
	if (aggs.n == 0)
		return MAELYS_DATALOG_STATUS_OK;
	outer = dl_calloc(1, sizeof *outer);
	inner = dl_calloc(1, sizeof *inner);
	if (outer == NULL || inner == NULL) {
		st = dl_ck_nomem(ck);
		goto out;
	}
	/* grounded outside, every aggregate taken as grounded */
	dl_ast_ground(cl->body, cl->nbody, NULL, outer);
	for (i = 0; i < aggs.n; i++) {
		const struct dl_ast_agg *a = aggs.t[i]->agg;
		const struct dl_ast_term *w = NULL;
		size_t j;

		inner->n = 0;
		dl_ast_ground(a->body, a->nbody, NULL, inner);
		for (j = 0; j < inner->n && w == NULL; j++) {
			struct dl_ast_term name;
			bool outside = false;

			if (dl_names_has(outer, inner->text[j], inner->len[j]))
				continue;
			memset(&name, 0, sizeof name);
			name.kind = DL_TERM_VAR;
			name.text = inner->text[j];
			name.len = inner->len[j];
			for (k = 0; k < cl->head.nargs && !outside; k++)
				outside = dl_ast_term_mentions(
				    &cl->head.args[k], name.text, name.len);
			if (!outside &&
			    !dl_ast_lits_mention(cl->body, cl->nbody, name.text,
						 name.len))
				continue;
			if (a->op != DL_AGG_MIN && a->op != DL_AGG_MAX) {
				st = dl_fail_at(
				    ck->diag, MAELYS_DATALOG_STATUS_UNSAFE,
				    ck->source, aggs.t[i]->pos,
				    "witness problem: variable %.*s is "
				    "grounded only inside the aggregate %s "
				    "but used outside it (only min and max "
				    "have witnesses)",
				    (int)name.len, name.text,
				    dl_agg_name(a->op));
				goto out;
			}
			w = aggs.t[i];
		}
		if (w == NULL)
			continue;
		/* the copy of a body holding an aggregate gave wrong rows
		 * (Souffle's evaluation/aggregates_nested, its W: none where
		 * Souffle has one): refused until the copy is right */
		for (j = 0; j < a->nbody; j++) {
			const struct dl_ast_lit *l = &a->body[j];
			struct dl_agg_terms nested = {{NULL}, 0};

			if (l->kind == DL_LIT_CMP) {
				dl_ast_aggs_of(&l->lhs, &nested);
				dl_ast_aggs_of(&l->rhs, &nested);
			} else {
				for (k = 0; k < l->atom.nargs; k++)
					dl_ast_aggs_of(&l->atom.args[k],
						       &nested);
			}
			if (nested.n > 0) {
				st = dl_fail_at(
				    ck->diag, MAELYS_DATALOG_STATUS_LIMIT,
				    ck->source, w->pos,
				    "a witness of %s whose body holds another "
				    "aggregate (not supported: bind the "
				    "variable outside the aggregate)",
				    dl_agg_name(a->op));
				goto out;
			}
		}
		/* the aggregate's body, then term = aggregate */
		if (n + a->nbody + 1 > DL_BODY_MAX) {
			st = dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_LIMIT,
					ck->source, w->pos,
					"rule body longer than %zu literals "
					"with the witnesses of its aggregates",
					DL_BODY_MAX);
			goto out;
		}
		if (body == NULL) {
			body = dl_arena_alloc(&ck->prog->arena,
					      DL_BODY_MAX * sizeof *body);
			if (body == NULL) {
				st = dl_ck_nomem(ck);
				goto out;
			}
			memcpy(body, cl->body, cl->nbody * sizeof *body);
		}
		memcpy(&body[n], a->body, a->nbody * sizeof *body);
		n += a->nbody;
		memset(&body[n], 0, sizeof body[n]);
		body[n].kind = DL_LIT_CMP;
		body[n].op = DL_CMP_EQ;
		body[n].lhs = a->value;
		body[n].rhs = *w;
		body[n].pos = w->pos;
		body[n].start = w->start;
		body[n].end = w->end;
		n++;
	}
	if (body != NULL) {
		*wc = *cl;
		wc->body = body;
		wc->nbody = n;
		*c = wc;
	}
out:
	dl_free(outer);
	dl_free(inner);
	return st;
}
