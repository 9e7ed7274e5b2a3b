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

#include "dl_builtins.h"
#include "dl_lexer.h"
#include "dl_limits.h"
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

/* Names a built-in or the language keeps for itself. */
static bool
dl_is_reserved(const char *name, size_t len)
{
	static const char *const words[] = {"not",    "re_match", "prefix",
					    "suffix", "contains", "match"};
	size_t i;

	for (i = 0; i < sizeof words / sizeof *words; i++) {
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

static maelys_datalog_status_t
dl_ck_var(struct dl_checker *ck, const struct dl_ast_term *t, uint32_t *out)
{
	uint32_t i;

	for (i = 0; i < ck->nvars; i++) {
		if (ck->var_lens[i] == t->len &&
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
	*out = ck->nvars++;
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t dl_ck_text(struct dl_checker *ck, size_t start,
					  size_t end, const char **out,
					  size_t *len);

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
 * code[*n ..] (postfix).  `whole` is the term as written, for messages. */
static maelys_datalog_status_t
dl_ck_expr_code(struct dl_checker *ck, const struct dl_ast_term *t,
		const char *whole, struct dl_xins *code, uint32_t *n)
{
	struct dl_xins *in;

	if (t->kind == DL_TERM_EXPR) {
		DL_TRY(dl_ck_expr_code(ck, &t->expr->lhs, whole, code, n));
		if (!dl_arith_unary(t->expr->op))
			DL_TRY(
			    dl_ck_expr_code(ck, &t->expr->rhs, whole, code, n));
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

	DL_TRY(dl_ck_text(ck, t->start, t->end, &text, &len));
	if (ck->nexprs == DL_EXPRS_MAX)
		return dl_fail_at(ck->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  ck->source, t->pos,
				  "more than %zu arithmetic terms in one rule",
				  DL_EXPRS_MAX);
	DL_TRY(dl_ck_expr_code(ck, t, text, code, &n));
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
	ck->var_names[ck->nvars] = text;
	ck->var_lens[ck->nvars] = len;
	out->kind = DL_CT_VAR;
	out->v = ck->nvars++;
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
		changed = false;
		for (i = 0; i < r->nexprs; i++) {
			const struct dl_cexpr *x = &r->exprs[i];

			if (bound[x->target])
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
	/* an arithmetic term's own variables first: they are the names
	 * the author wrote */
	for (i = 0; i < r->nexprs; i++) {
		const struct dl_cexpr *x = &r->exprs[i];

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
	uint32_t i, k, a;

	if (r->nexprs == 0)
		return MAELYS_DATALOG_STATUS_OK;
	memset(computed, 0xff, sizeof computed);
	memset(read, 0xff, sizeof read);
	for (i = 0; i < r->nexprs; i++) {
		computed[r->exprs[i].target] = i;
		for (k = 0; k < r->exprs[i].ncode; k++)
			if (r->exprs[i].code[k].kind == DL_X_VAR)
				read[r->exprs[i].code[k].v] = i;
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

			if (args[k].kind != DL_CT_VAR ||
			    p->columns[k] != MAELYS_DATALOG_COLUMN_SYMBOL)
				continue;
			if (computed[v] != DL_NONE)
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

static maelys_datalog_status_t
dl_ck_fact(struct dl_checker *ck, const struct dl_ast_clause *c, uint32_t pid)
{
	struct dl_pred *p = &ck->prog->preds[pid];
	dl_value vals[MAELYS_DATALOG_MAX_ARITY];
	size_t k, need;

	for (k = 0; k < c->head.nargs; k++) {
		const struct dl_ast_term *t = &c->head.args[k];
		struct dl_cterm ct;

		if (t->kind == DL_TERM_EXPR)
			return dl_fail_at(
			    ck->diag, MAELYS_DATALOG_STATUS_UNSAFE, ck->source,
			    t->pos,
			    "a fact must be ground: an arithmetic term with a "
			    "variable has no value");
		if (t->kind == DL_TERM_VAR || t->kind == DL_TERM_ANON)
			return dl_fail_at(
			    ck->diag, MAELYS_DATALOG_STATUS_UNSAFE, ck->source,
			    t->pos,
			    "a fact must be ground: %s%.*s has no "
			    "value",
			    t->kind == DL_TERM_ANON ? "'_'" : "variable ",
			    t->kind == DL_TERM_ANON ? 0 : (int)t->len,
			    t->kind == DL_TERM_ANON ? "" : t->text);
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
		} else if (t->kind == DL_TERM_EXPR) {
			DL_TRY(dl_ck_text(ck, t->start, t->end, &w->text,
					  &w->length));
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_ck_clause(struct dl_checker *ck, const struct dl_ast_clause *c)
{
	struct dl_program *prog = ck->prog;
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
	if (c->nbody == 0)
		return dl_ck_fact(ck, c, pid);
	if ((p->role & MAELYS_DATALOG_PREDICATE_POLICY_FACT) != 0)
		return dl_fail_at(
		    ck->diag, MAELYS_DATALOG_STATUS_ROLE, ck->source,
		    c->head.pos,
		    "'%s' is a POLICY_FACT predicate: it may only "
		    "have ground facts, not rules",
		    p->name);
	memset(&r, 0, sizeof r);
	r.head_pred = pid;
	r.pos = c->pos;
	ck->nvars = 0;
	ck->nexprs = 0;
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
	DL_TRY(dl_ck_safety(ck, c, &r));
	DL_TRY(dl_ck_arith_types(ck, &r));
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
	uint16_t ids[MAELYS_DATALOG_MAX_ARITY];
	size_t k;

	for (k = 0; k < d->arity; k++) {
		ids[k] = DL_TY_NONE;
		if (d->type_names[k] == NULL)
			continue;
		DL_TRY(dl_types_lookup(ck->types, d->type_names[k], ck->source,
				       d->type_pos[k], &ids[k],
				       &ck->prog->preds[pid].columns[k],
				       ck->diag));
	}
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

		if (dl_is_reserved(d->name, d->name_len))
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
		uint32_t id = dl_program_find_pred(prog, d->name, d->name_len);
		struct dl_pred *p;

		if (id == DL_NONE) {
			uint32_t near = dl_ck_suggest(ck, d->name, d->name_len);

			return dl_fail_at(
			    ck->diag, MAELYS_DATALOG_STATUS_UNDECLARED,
			    ck->source, d->pos,
			    "undeclared relation '%s' in a directive%s%s%s",
			    d->name, near != DL_NONE ? " (did you mean '" : "",
			    near != DL_NONE ? prog->preds[near].name : "",
			    near != DL_NONE ? "'?)" : "");
		}
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
		st = dl_ck_directives(&ck, ast);
	for (i = 0; st == MAELYS_DATALOG_STATUS_OK && i < ast->nclauses; i++)
		st = dl_ck_clause_typed(&ck, &ast->clauses[i]);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_stratify(prog, diag);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_plan_program(prog, diag);
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
