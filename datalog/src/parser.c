/* SPDX-License-Identifier: MIT */
/*
 * Recursive-descent parser: tokens -> struct dl_ast.  It checks only the
 * shape of the text; names, arities, roles and safety are the checker's.
 *
 *   program   := { directive | clause }
 *   clause    := atom [ ":-" literal { "," literal } ] "."
 *   literal   := ["not" "(" | "!"] atom-or-call [")"] | term cmp term
 *   atom      := name [ "(" [ term { "," term } ] ")" ]
 *   term      := expr, by Souffle's precedence, loosest first:
 *                lor < lxor < land < bor < bxor < band < bshl bshr bshru
 *                < + - < * / % < unary - bnot lnot < ^ (right)
 *   primary   := Variable | _ | "string" | integer | lowercase-symbol
 *              | "(" expr ")" | aggregate
 *   aggregate := ("count" | ("sum" | "min" | "max" | "mean") term) ":"
 *                ("{" literal { "," literal } "}" | atom)
 *   directive := ".decl" name "(" [col {"," col}] ")" {qualifier}
 *              | ".type" name ("<:" | "=") type
 *              | (".input" | ".output") name ["(" params ")"] {"," ...}
 *              | ".printsize" name {"," name}
 *
 * In Souffle's syntax every identifier in an argument is a variable and the
 * built-ins are Souffle's (match, contains); in ours a lower-case identifier
 * is the symbol of that name, `%` begins a comment, so modulo is `mod`.
 * An arithmetic term whose operands are all integers is folded here.
 */
#include "dl_ast.h"

#include "dl_dnf.h"
#include "dl_components.h"
#include "dl_functor.h"
#include "dl_lexer.h"
#include "dl_limits.h"
#include "dl_relq.h"
#include "dl_record.h"
#include "dl_numeric.h"

#include <stdio.h>
#include <string.h>

struct dl_parser {
	struct dl_lexer lx;
	struct dl_token tok;  /* the current token */
	struct dl_token next; /* lookahead, valid when has_next */
	bool has_next;
	size_t prev_end; /* end of the last token consumed */
	struct dl_ast *ast;
	const char *source_name;
	maelys_datalog_diagnostic_t *diag;
	unsigned depth; /* of the arithmetic term being read */
	unsigned bdepth; /* of the body group being read (dl_dnf.h) */
	/* the component body being parsed for an instance; NULL at the
	 * program's top (dl_components.h) */
	struct dl_comp_scope *comp;
	unsigned agg_depth; /* of the aggregate being read */
};

/* How deep an arithmetic term may nest (parentheses, unary operators, a
 * chain of ^): bounds the parser's recursion on any input. */
#define DL_EXPR_DEPTH_MAX 32

#define DL_TRY(expr)                                                           \
	do {                                                                   \
		maelys_datalog_status_t try_st_ = (expr);                      \
		if (try_st_ != MAELYS_DATALOG_STATUS_OK)                       \
			return try_st_;                                        \
	} while (0)

static maelys_datalog_status_t
dl_p_advance(struct dl_parser *p)
{
	p->prev_end = p->tok.end;
	if (p->has_next) {
		p->tok = p->next;
		p->has_next = false;
		return MAELYS_DATALOG_STATUS_OK;
	}
	return dl_lexer_next(&p->lx, &p->tok);
}

static maelys_datalog_status_t
dl_p_peek(struct dl_parser *p, const struct dl_token **out)
{
	if (!p->has_next) {
		DL_TRY(dl_lexer_next(&p->lx, &p->next));
		p->has_next = true;
	}
	*out = &p->next;
	return MAELYS_DATALOG_STATUS_OK;
}

static bool
dl_tok_is(const struct dl_token *t, const char *word)
{
	size_t n = strlen(word);

	return t->kind == DL_TOK_IDENT && t->len == n &&
	       memcmp(t->text, word, n) == 0;
}

static maelys_datalog_status_t
dl_p_error(struct dl_parser *p, const char *expected)
{
	if (p->tok.kind == DL_TOK_OTHER)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_PARSE,
				  p->source_name, p->tok.pos,
				  "expected %s, found '%.*s' (disjunction and "
				  "other such operators are not part of this "
				  "dialect)",
				  expected, (int)p->tok.len, p->tok.text);
	if (p->tok.kind == DL_TOK_IDENT || p->tok.kind == DL_TOK_DIRECTIVE)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_PARSE,
				  p->source_name, p->tok.pos,
				  "expected %s, found '%s%.*s'", expected,
				  p->tok.kind == DL_TOK_DIRECTIVE ? "." : "",
				  (int)p->tok.len, p->tok.text);
	return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_PARSE, p->source_name,
			  p->tok.pos, "expected %s, found %s", expected,
			  dl_tok_describe(p->tok.kind));
}

static maelys_datalog_status_t
dl_p_expect(struct dl_parser *p, enum dl_tok_kind kind)
{
	if (p->tok.kind != kind)
		return dl_p_error(p, dl_tok_describe(kind));
	return dl_p_advance(p);
}

static maelys_datalog_status_t
dl_p_nomem(struct dl_parser *p)
{
	return dl_fail(p->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
		       "out of memory while parsing");
}

static maelys_datalog_status_t
dl_p_strdup(struct dl_parser *p, const char *s, size_t n, const char **out)
{
	*out = dl_arena_strndup(&p->ast->arena, s, n);
	return *out == NULL ? dl_p_nomem(p) : MAELYS_DATALOG_STATUS_OK;
}

static bool
dl_is_upper_start(const struct dl_token *t)
{
	unsigned char c = (unsigned char)t->text[0];

	return (c >= 'A' && c <= 'Z') || c == '_';
}

static maelys_datalog_status_t dl_p_expr(struct dl_parser *p,
					 struct dl_ast_term *t, int min_prec);
static maelys_datalog_status_t dl_p_functor_at(struct dl_parser *p,
					       struct dl_ast_term *t, bool *is);

static maelys_datalog_status_t dl_p_record_term(struct dl_parser *p,
						struct dl_ast_term *t);

static maelys_datalog_status_t dl_p_agg_starts(struct dl_parser *p, bool *is);
static maelys_datalog_status_t dl_p_agg(struct dl_parser *p,
					struct dl_ast_term *t);

static maelys_datalog_status_t
dl_p_node(struct dl_parser *p, struct dl_ast_term *t, enum dl_arith_op op,
	  const struct dl_ast_term *lhs, const struct dl_ast_term *rhs,
	  struct dl_pos pos, struct dl_pos at, size_t start);

/* Not a conversion functor. */
#define DL_CONV_NONE DL_ARITH_NEG

/* The numeric conversion functor a name is (to_float, itou, ...), or
 * DL_CONV_NONE. */
static enum dl_arith_op
dl_p_conversion(const struct dl_token *tok)
{
	static const struct {
		const char *name;
		enum dl_arith_op op;
	} table[] = {
	    {"to_float", DL_ARITH_TO_FLOAT},
	    {"to_unsigned", DL_ARITH_TO_UNSIGNED},
	    {"itof", DL_ARITH_ITOF},
	    {"itou", DL_ARITH_ITOU},
	    {"utoi", DL_ARITH_UTOI},
	    {"utof", DL_ARITH_UTOF},
	    {"ftoi", DL_ARITH_FTOI},
	    {"ftou", DL_ARITH_FTOU},
	};
	size_t i;

	for (i = 0; i < sizeof table / sizeof *table; i++)
		if (dl_tok_is(tok, table[i].name))
			return table[i].op;
	return DL_CONV_NONE;
}

/* name "(" term ")": a conversion functor, a unary operator of its own
 * (arith_kind.c); p->tok is the name, followed by '('. */
static maelys_datalog_status_t
dl_p_convert(struct dl_parser *p, struct dl_ast_term *t)
{
	enum dl_arith_op op = dl_p_conversion(&p->tok);
	struct dl_pos pos = p->tok.pos;
	size_t start = p->tok.start;
	const struct dl_token *nx;
	struct dl_ast_term arg;

	DL_TRY(dl_p_peek(p, &nx));
	if (nx->kind != DL_TOK_LPAREN)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_PARSE,
				  p->source_name, pos,
				  "'%.*s' is a conversion functor: expected "
				  "'(' after it",
				  (int)p->tok.len, p->tok.text);
	DL_TRY(dl_p_advance(p));
	DL_TRY(dl_p_advance(p));
	DL_TRY(dl_p_expr(p, &arg, 0));
	if (p->tok.kind == DL_TOK_COMMA)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_PARSE,
				  p->source_name, p->tok.pos,
				  "%s takes one argument", dl_arith_name(op));
	DL_TRY(dl_p_expect(p, DL_TOK_RPAREN));
	return dl_p_node(p, t, op, &arg, NULL, pos, pos, start);
}

/* -x of a literal of kind numkind: a float's sign bit, else two's
 * complement. */
static int64_t
dl_p_negate(int64_t v, uint8_t numkind)
{
	if (numkind == DL_NUM_FLOAT)
		return (int64_t)((uint64_t)v ^ (UINT64_C(1) << 63));
	return (int64_t)(0u - (uint64_t)v);
}

/* A literal of kind `from` as a value of kind `to` (a polymorphic 5 as
 * the float 5.0); true when the two mix in one operation. */
static bool
dl_p_lift(int64_t v, uint8_t from, uint8_t to, int64_t *out)
{
	*out = v;
	if (from == to)
		return true;
	if (from != DL_NUM_POLY)
		return false;
	if (to == DL_NUM_FLOAT)
		*out = dl_float_bits((double)v);
	return true;
}

/* A term without operators: variable, _, string, integer, symbol, or an
 * arithmetic term in parentheses. */
static maelys_datalog_status_t
dl_p_primary(struct dl_parser *p, struct dl_ast_term *t)
{
	memset(t, 0, sizeof *t);
	t->pos = p->tok.pos;
	switch (p->tok.kind) {
	case DL_TOK_OTHER:
		if (p->tok.text[0] == '[' || p->tok.text[0] == '$')
			return dl_p_record_term(p, t);
		return dl_p_error(p, "a variable, a string or an integer");
	case DL_TOK_IDENT: {
		bool is, agg;

		DL_TRY(dl_p_agg_starts(p, &agg));
		if (agg)
			return dl_p_agg(p, t);
		if (dl_p_conversion(&p->tok) != DL_CONV_NONE)
			return dl_p_convert(p, t);
		DL_TRY(dl_p_functor_at(p, t, &is));
		if (is)
			return MAELYS_DATALOG_STATUS_OK;
		if (p->ast->souffle && dl_tok_is(&p->tok, "nil")) {
			t->kind = DL_TERM_NIL;
		} else if (p->tok.len == 1 && p->tok.text[0] == '_') {
			t->kind = DL_TERM_ANON;
		} else if (p->ast->souffle &&
			   memchr(p->tok.text, '.', p->tok.len) != NULL) {
			return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_PARSE,
					  p->source_name, p->tok.pos,
					  "'%.*s' is a qualified name (a "
					  "component's member), not a variable",
					  (int)p->tok.len, p->tok.text);
		} else if (p->ast->souffle || dl_is_upper_start(&p->tok)) {
			t->kind = DL_TERM_VAR;
			DL_TRY(
			    dl_p_strdup(p, p->tok.text, p->tok.len, &t->text));
			t->len = p->tok.len;
		} else {
			t->kind = DL_TERM_SYMBOL;
			DL_TRY(
			    dl_p_strdup(p, p->tok.text, p->tok.len, &t->text));
			t->len = p->tok.len;
			t->bare = true;
		}
		break;
	}
	case DL_TOK_STRING:
		t->kind = DL_TERM_SYMBOL;
		t->text = p->tok.text; /* already decoded into the arena */
		t->len = p->tok.len;
		break;
	case DL_TOK_INTEGER:
		t->kind = DL_TERM_INT;
		t->integer = p->tok.integer;
		t->numkind = p->tok.numkind;
		break;
	case DL_TOK_LPAREN: {
		size_t start = p->tok.start;

		DL_TRY(dl_p_advance(p));
		DL_TRY(dl_p_expr(p, t, 0));
		if (t->kind == DL_TERM_EXPR)
			t->start = start; /* the parentheses are its text */
		if (p->tok.kind == DL_TOK_RPAREN)
			t->end = p->tok.end;
		return dl_p_expect(p, DL_TOK_RPAREN);
	}
	default:
		return dl_p_error(p, "a variable, a string or an integer");
	}
	return dl_p_advance(p);
}

/* The binary operator at p->tok and its precedence (Souffle's), or 0.  A
 * negative integer token there is "-" and its digits (X -1 is X - 1). */
static int
dl_p_binop(const struct dl_token *tok, bool souffle, enum dl_arith_op *op)
{
	static const struct {
		const char *word;
		enum dl_arith_op op;
		int prec;
	} words[] = {
	    {"lor", DL_ARITH_LOR, 1},     {"lxor", DL_ARITH_LXOR, 2},
	    {"land", DL_ARITH_LAND, 3},   {"bor", DL_ARITH_BOR, 4},
	    {"bxor", DL_ARITH_BXOR, 5},   {"band", DL_ARITH_BAND, 6},
	    {"bshl", DL_ARITH_BSHL, 7},   {"bshr", DL_ARITH_BSHR, 7},
	    {"bshru", DL_ARITH_BSHRU, 7},
	};
	size_t i;

	switch (tok->kind) {
	case DL_TOK_PLUS:
		*op = DL_ARITH_ADD;
		return 8;
	case DL_TOK_MINUS:
		*op = DL_ARITH_SUB;
		return 8;
	case DL_TOK_INTEGER:
		if (tok->text[0] != '-')
			return 0;
		*op = DL_ARITH_SUB;
		return 8;
	case DL_TOK_STAR:
		*op = DL_ARITH_MUL;
		return 9;
	case DL_TOK_SLASH:
		*op = DL_ARITH_DIV;
		return 9;
	case DL_TOK_PERCENT:
		*op = DL_ARITH_MOD;
		return 9;
	case DL_TOK_CARET:
		*op = DL_ARITH_POW;
		return 11;
	case DL_TOK_IDENT:
		if (!souffle && dl_tok_is(tok, "mod")) {
			*op = DL_ARITH_MOD;
			return 9;
		}
		for (i = 0; i < sizeof words / sizeof *words; i++) {
			if (dl_tok_is(tok, words[i].word)) {
				*op = words[i].op;
				return words[i].prec;
			}
		}
		return 0;
	default:
		return 0;
	}
}

/* Whether a token can begin an operand. */
static bool
dl_p_starts_operand(enum dl_tok_kind k)
{
	return k == DL_TOK_IDENT || k == DL_TOK_STRING ||
	       k == DL_TOK_INTEGER || k == DL_TOK_LPAREN || k == DL_TOK_MINUS;
}

/* bnot / lnot at p->tok followed by an operand: a unary operator. */
static maelys_datalog_status_t
dl_p_unary_word(struct dl_parser *p, enum dl_arith_op *op, bool *is)
{
	const struct dl_token *nx;

	*is = false;
	if (!dl_tok_is(&p->tok, "bnot") && !dl_tok_is(&p->tok, "lnot"))
		return MAELYS_DATALOG_STATUS_OK;
	DL_TRY(dl_p_peek(p, &nx));
	if (!dl_p_starts_operand(nx->kind))
		return MAELYS_DATALOG_STATUS_OK;
	*op = p->tok.text[0] == 'b' ? DL_ARITH_BNOT : DL_ARITH_LNOT;
	*is = true;
	return MAELYS_DATALOG_STATUS_OK;
}

/* to_float, to_number, to_unsigned of a literal: the conversion from the
 * literal's kind (a plain 5 is a number), or op itself when the literal
 * already has the kind asked for. */
static enum dl_arith_op
dl_p_to_kind(enum dl_arith_op op, uint8_t numkind)
{
	static const enum dl_arith_op table[3][3] = {
	    /* from POLY, UNSIGNED, FLOAT */
	    {DL_ARITH_ITOF, DL_ARITH_UTOF, DL_ARITH_TO_FLOAT},
	    {DL_ARITH_TO_NUMBER, DL_ARITH_UTOI, DL_ARITH_FTOI},
	    {DL_ARITH_ITOU, DL_ARITH_TO_UNSIGNED, DL_ARITH_FTOU},
	};
	size_t row = op == DL_ARITH_TO_FLOAT	? 0
		     : op == DL_ARITH_TO_NUMBER ? 1
		     : op == DL_ARITH_TO_UNSIGNED ? 2
						  : 3;

	if (row == 3 || numkind > DL_NUM_FLOAT)
		return op;
	return table[row][numkind];
}

/* A conversion's operand kind and result kind; false for another op. */
static bool
dl_p_conv_kinds(enum dl_arith_op op, uint8_t *in, uint8_t *out)
{
	static const struct {
		enum dl_arith_op op;
		uint8_t in, out;
	} table[] = {
	    {DL_ARITH_ITOF, DL_NUM_POLY, DL_NUM_FLOAT},
	    {DL_ARITH_ITOU, DL_NUM_POLY, DL_NUM_UNSIGNED},
	    {DL_ARITH_UTOI, DL_NUM_UNSIGNED, DL_NUM_POLY},
	    {DL_ARITH_UTOF, DL_NUM_UNSIGNED, DL_NUM_FLOAT},
	    {DL_ARITH_FTOI, DL_NUM_FLOAT, DL_NUM_POLY},
	    {DL_ARITH_FTOU, DL_NUM_FLOAT, DL_NUM_UNSIGNED},
	};
	size_t i;

	for (i = 0; i < sizeof table / sizeof *table; i++) {
		if (table[i].op == op) {
			*in = table[i].in;
			*out = table[i].out;
			return true;
		}
	}
	return false;
}

/* t := the expression e, written from `start` (at `pos`) to the token
 * just read: an operator's node and a functor call alike. */
static maelys_datalog_status_t
dl_p_expr_term(const struct dl_parser *p, struct dl_ast_term *t,
	       struct dl_ast_expr *e, struct dl_pos pos, size_t start)
{
	memset(t, 0, sizeof *t);
	t->kind = DL_TERM_EXPR;
	t->expr = e;
	t->pos = pos;
	t->start = start;
	t->end = p->prev_end;
	return MAELYS_DATALOG_STATUS_OK;
}

/* t := op lhs [rhs], folded when every operand is a numeric literal (a
 * plain one taking the other's kind: 1 + 0.5 is the float 1.5); the term
 * is at `pos`, its operator at `at`. */
static maelys_datalog_status_t
dl_p_node(struct dl_parser *p, struct dl_ast_term *t, enum dl_arith_op op,
	  const struct dl_ast_term *lhs, const struct dl_ast_term *rhs,
	  struct dl_pos pos, struct dl_pos at, size_t start)
{
	struct dl_ast_expr *e;
	uint32_t size;

	if (lhs->kind == DL_TERM_INT &&
	    (rhs == NULL || rhs->kind == DL_TERM_INT)) {
		const char *why = NULL;
		uint8_t num = lhs->numkind, res;
		int64_t v, a = lhs->integer, b = 0;
		bool conv;

		op = dl_p_to_kind(op, lhs->numkind);
		conv = dl_p_conv_kinds(op, &num, &res);
		if (op == DL_ARITH_TO_FLOAT || op == DL_ARITH_TO_NUMBER ||
		    op == DL_ARITH_TO_UNSIGNED) {
			*t = *lhs; /* already of that kind */
			t->pos = pos;
			return MAELYS_DATALOG_STATUS_OK;
		}

		if (rhs != NULL && rhs->numkind != DL_NUM_POLY)
			num = rhs->numkind;
		if (conv && lhs->numkind != DL_NUM_POLY &&
		    lhs->numkind != num)
			return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_TYPE,
					  p->source_name, at,
					  "%s of a literal of another type",
					  dl_arith_name(op));
		if (!conv)
			res = num;
		if (!dl_p_lift(lhs->integer, lhs->numkind, num, &a) ||
		    (rhs != NULL &&
		     !dl_p_lift(rhs->integer, rhs->numkind, num, &b)))
			return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_TYPE,
					  p->source_name, at,
					  "an unsigned and a float in one "
					  "arithmetic term (convert one with "
					  "utof or ftou)");
		if (!dl_arith_kind_has(op, num))
			return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_TYPE,
					  p->source_name, at,
					  "'%s' does not apply to a float",
					  dl_arith_name(op));
		if (dl_arith_apply_kind(op, num, a, b, &v, &why) !=
		    MAELYS_DATALOG_STATUS_OK)
			return dl_fail_at(p->diag,
					  MAELYS_DATALOG_STATUS_ARITHMETIC,
					  p->source_name, at, "%s", why);
		memset(t, 0, sizeof *t);
		t->kind = DL_TERM_INT;
		t->integer = v;
		t->numkind = res;
		t->pos = pos;
		return MAELYS_DATALOG_STATUS_OK;
	}
	size = 1 + (lhs->kind == DL_TERM_EXPR ? lhs->expr->size : 1);
	if (rhs != NULL)
		size += rhs->kind == DL_TERM_EXPR ? rhs->expr->size : 1;
	if (size > DL_EXPR_CODE_MAX)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  p->source_name, pos,
				  "arithmetic term of more than %d operators "
				  "and operands",
				  DL_EXPR_CODE_MAX);
	e = dl_arena_alloc(&p->ast->arena, sizeof *e);
	if (e == NULL)
		return dl_p_nomem(p);
	memset(e, 0, sizeof *e);
	e->size = size;
	e->op = op;
	e->lhs = *lhs;
	if (rhs != NULL)
		e->rhs = *rhs;
	return dl_p_expr_term(p, t, e, pos, start);
}

/* A unary operator and its operand, or a primary; then any ^ chain, which
 * binds tighter than a unary operator (Souffle: -2^2 is -4). */
static maelys_datalog_status_t
dl_p_unary(struct dl_parser *p, struct dl_ast_term *t)
{
	struct dl_ast_term operand;
	struct dl_pos pos = p->tok.pos;
	size_t start = p->tok.start;
	enum dl_arith_op op;
	bool is;

	if (p->tok.kind == DL_TOK_MINUS ||
	    (p->tok.kind == DL_TOK_INTEGER && p->tok.text[0] == '-')) {
		if (p->tok.kind == DL_TOK_MINUS) {
			DL_TRY(dl_p_advance(p));
			DL_TRY(dl_p_expr(p, &operand, 10));
		} else {
			/* -2: minus and the literal 2, so -2^2 is -(2^2) */
			p->tok.integer =
			    dl_p_negate(p->tok.integer, p->tok.numkind);
			p->tok.kind = DL_TOK_INTEGER;
			p->tok.text++;
			DL_TRY(dl_p_expr(p, &operand, 10));
		}
		return dl_p_node(p, t, DL_ARITH_NEG, &operand, NULL, pos, pos,
				 start);
	}
	DL_TRY(dl_p_unary_word(p, &op, &is));
	if (is) {
		DL_TRY(dl_p_advance(p));
		DL_TRY(dl_p_expr(p, &operand, 10));
		return dl_p_node(p, t, op, &operand, NULL, pos, pos, start);
	}
	return dl_p_primary(p, t);
}

/* Precedence climbing: operators of precedence >= min_prec. */
static maelys_datalog_status_t
dl_p_expr(struct dl_parser *p, struct dl_ast_term *t, int min_prec)
{
	maelys_datalog_status_t st;
	size_t start = p->tok.start;
	struct dl_pos pos = p->tok.pos;

	if (++p->depth > DL_EXPR_DEPTH_MAX)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  p->source_name, p->tok.pos,
				  "arithmetic term nested deeper than %d",
				  DL_EXPR_DEPTH_MAX);
	st = dl_p_unary(p, t);
	while (st == MAELYS_DATALOG_STATUS_OK) {
		struct dl_ast_term lhs = *t, rhs;
		enum dl_arith_op op;
		int prec = dl_p_binop(&p->tok, p->ast->souffle, &op);
		struct dl_pos at = p->tok.pos;

		if (prec == 0 || prec < min_prec)
			break;
		if (p->tok.kind == DL_TOK_INTEGER) {
			/* X -1: the minus is the operator, 1 the operand */
			p->tok.integer =
			    dl_p_negate(p->tok.integer, p->tok.numkind);
			p->tok.text++;
		} else if ((st = dl_p_advance(p)) != MAELYS_DATALOG_STATUS_OK) {
			break;
		}
		/* left-associative but ^, which is right-associative */
		st = dl_p_expr(p, &rhs, op == DL_ARITH_POW ? prec : prec + 1);
		if (st == MAELYS_DATALOG_STATUS_OK)
			st = dl_p_node(p, t, op, &lhs, &rhs, pos, at, start);
	}
	p->depth--;
	return st;
}

static maelys_datalog_status_t
dl_p_term(struct dl_parser *p, struct dl_ast_term *t)
{
	return dl_p_expr(p, t, 0);
}

static bool
dl_tok_other(const struct dl_token *t, char c)
{
	return t->kind == DL_TOK_OTHER && t->text[0] == c;
}

/* A record term "[" [term {"," term}] "]" or a branch of an algebraic data
 * type "$" Name ["(" [term {"," term}] ")"]: fields are terms, so records
 * nest (bounded with the arithmetic's depth: one recursion). */
static maelys_datalog_status_t
dl_p_record_term(struct dl_parser *p, struct dl_ast_term *t)
{
	struct dl_ast_term args[DL_RECORD_FIELDS_MAX];
	struct dl_ast_rec *rec;
	size_t start = p->tok.start;
	bool adt = p->tok.text[0] == '$';
	enum dl_tok_kind close = DL_TOK_RPAREN;
	uint32_t n = 0;

	rec = dl_arena_alloc(&p->ast->arena, sizeof *rec);
	if (rec == NULL)
		return dl_p_nomem(p);
	memset(rec, 0, sizeof *rec);
	t->kind = adt ? DL_TERM_ADT : DL_TERM_RECORD;
	t->rec = rec;
	t->start = start;
	DL_TRY(dl_p_advance(p));
	if (adt) {
		if (p->tok.kind != DL_TOK_IDENT)
			return dl_p_error(p, "a branch name after '$'");
		/* inside a component, $B names the instance's branch */
		DL_TRY(dl_comp_map(p->comp, DL_COMP_TYPE, &p->ast->arena,
				   &p->tok.text, &p->tok.len, p->tok.pos,
				   p->diag));
		DL_TRY(dl_p_strdup(p, p->tok.text, p->tok.len, &rec->branch));
		rec->branch_len = p->tok.len;
		DL_TRY(dl_p_advance(p));
		/* $B without parentheses: a branch of no fields */
		if (p->tok.kind != DL_TOK_LPAREN) {
			t->end = p->prev_end;
			return MAELYS_DATALOG_STATUS_OK;
		}
		DL_TRY(dl_p_advance(p));
	} else {
		close = DL_TOK_OTHER; /* ']' */
	}
	if (!(adt ? p->tok.kind == DL_TOK_RPAREN : dl_tok_other(&p->tok, ']'))) {
		for (;;) {
			if (n == DL_RECORD_FIELDS_MAX)
				return dl_fail_at(
				    p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				    p->source_name, p->tok.pos,
				    "record of more than %d fields",
				    DL_RECORD_FIELDS_MAX);
			if (++p->depth > DL_EXPR_DEPTH_MAX)
				return dl_fail_at(
				    p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				    p->source_name, p->tok.pos,
				    "record term nested deeper than %d",
				    DL_EXPR_DEPTH_MAX);
			DL_TRY(dl_p_expr(p, &args[n], 0));
			p->depth--;
			n++;
			if (p->tok.kind != DL_TOK_COMMA)
				break;
			DL_TRY(dl_p_advance(p));
		}
	}
	if (close == DL_TOK_OTHER) {
		if (!dl_tok_other(&p->tok, ']'))
			return dl_p_error(p, "',' or ']'");
		DL_TRY(dl_p_advance(p));
	} else {
		DL_TRY(dl_p_expect(p, DL_TOK_RPAREN));
	}
	t->end = p->prev_end;
	if (n > 0) {
		rec->args = dl_arena_alloc(&p->ast->arena, n * sizeof *args);
		if (rec->args == NULL)
			return dl_p_nomem(p);
		memcpy(rec->args, args, n * sizeof *args);
	}
	rec->nargs = n;
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_p_type_name(struct dl_parser *p, const char **out, struct dl_pos *pos);

/* The most .type names followed from one name by dl_p_type_kind. */
#define DL_P_TYPE_HOPS 64

/* The kind of the type called name, among the primitives and the types
 * declared so far (through subtypes, equivalences and unions, whose
 * members share one kind: types.c checks it); false if none is. */
static bool
dl_p_type_kind(const struct dl_parser *p, const char *name,
	       maelys_datalog_column_type_t *kind)
{
	unsigned hops;
	size_t i;

	for (hops = 0; hops < DL_P_TYPE_HOPS; hops++) {
		if (strcmp(name, "symbol") == 0) {
			*kind = MAELYS_DATALOG_COLUMN_SYMBOL;
			return true;
		}
		if (strcmp(name, "number") == 0) {
			*kind = MAELYS_DATALOG_COLUMN_NUMBER;
			return true;
		}
		if (strcmp(name, "unsigned") == 0) {
			*kind = MAELYS_DATALOG_COLUMN_UNSIGNED;
			return true;
		}
		if (strcmp(name, "float") == 0) {
			*kind = MAELYS_DATALOG_COLUMN_FLOAT;
			return true;
		}
		for (i = 0; i < p->ast->ntypes; i++)
			if (strcmp(p->ast->types[i].name, name) == 0)
				break;
		if (i == p->ast->ntypes)
			return false;
		if (p->ast->types[i].form == DL_TYPE_RECORD) {
			*kind = MAELYS_DATALOG_COLUMN_RECORD;
			return true;
		}
		if (p->ast->types[i].nof == 0)
			return false;
		name = p->ast->types[i].of[0];
	}
	return false;
}

/* A functor call at p->tok (dl_functor.h): name "(" [term {"," term}] ")",
 * as(term, Type) naming a type; *is is false, and nothing read, when
 * p->tok is not a functor's name followed by '('.  Its arguments nest
 * through dl_p_expr, whose depth bound holds for them too. */
static maelys_datalog_status_t
dl_p_functor_at(struct dl_parser *p, struct dl_ast_term *t, bool *is)
{
	struct dl_ast_term args[DL_FUNCTOR_ARGS_MAX];
	maelys_datalog_column_type_t as_type = MAELYS_DATALOG_COLUMN_ANY;
	const struct dl_functor_sig *sig;
	const struct dl_token *nx;
	struct dl_pos pos = p->tok.pos;
	size_t start = p->tok.start;
	uint32_t n = 0, nterms = 0, size = 1;
	struct dl_ast_expr *e;
	enum dl_functor f;

	*is = false;
	if (!dl_functor_find(p->tok.text, p->tok.len, &f))
		return MAELYS_DATALOG_STATUS_OK;
	DL_TRY(dl_p_peek(p, &nx));
	if (nx->kind != DL_TOK_LPAREN)
		return MAELYS_DATALOG_STATUS_OK;
	*is = true;
	sig = dl_functor_sig(f);
	DL_TRY(dl_p_advance(p));
	DL_TRY(dl_p_advance(p));
	while (p->tok.kind != DL_TOK_RPAREN) {
		if (n == DL_FUNCTOR_ARGS_MAX)
			return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
					  p->source_name, p->tok.pos,
					  "%s with more than %d arguments",
					  sig->name, DL_FUNCTOR_ARGS_MAX);
		if (f == DL_FN_AS && n == 1) {
			struct dl_pos tpos;
			const char *name;

			DL_TRY(dl_p_type_name(p, &name, &tpos));
			/* the type named in as() must be declared before
			 * it: the name is not kept for the checker */
			if (!dl_p_type_kind(p, name, &as_type))
				return dl_fail_at(
				    p->diag, MAELYS_DATALOG_STATUS_PARSE,
				    p->source_name, tpos,
				    "unknown type '%s' in as() (a type is "
				    "declared before its use there)",
				    name);
		} else {
			DL_TRY(dl_p_term(p, &args[nterms]));
			size += args[nterms].kind == DL_TERM_EXPR
				    ? args[nterms].expr->size
				    : 1;
			nterms++;
		}
		n++;
		if (p->tok.kind != DL_TOK_COMMA)
			break;
		DL_TRY(dl_p_advance(p));
	}
	DL_TRY(dl_p_expect(p, DL_TOK_RPAREN));
	if (n < sig->min_args || n > sig->max_args)
		return dl_fail_at(
		    p->diag, MAELYS_DATALOG_STATUS_ARITY, p->source_name, pos,
		    sig->min_args == sig->max_args
			? "functor %s takes %u argument%s, not %u"
			: "functor %s takes %u or more argument%s, not %u",
		    sig->name, sig->min_args, sig->min_args == 1 ? "" : "s", n);
	if (size > DL_EXPR_CODE_MAX)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  p->source_name, pos,
				  "term of more than %d operators, functors "
				  "and operands",
				  DL_EXPR_CODE_MAX);
	e = dl_arena_alloc(&p->ast->arena, sizeof *e);
	if (e == NULL)
		return dl_p_nomem(p);
	memset(e, 0, sizeof *e);
	e->op = DL_ARITH_CALL;
	e->functor = (uint8_t)f;
	e->size = size;
	e->as_type = as_type;
	e->nargs = nterms;
	if (nterms > 0) {
		e->args = dl_arena_alloc(&p->ast->arena, nterms * sizeof *args);
		if (e->args == NULL)
			return dl_p_nomem(p);
		memcpy(e->args, args, nterms * sizeof *args);
	}
	return dl_p_expr_term(p, t, e, pos, start);
}

static maelys_datalog_status_t
dl_p_atom(struct dl_parser *p, struct dl_ast_atom *a, bool need_parens);
static bool dl_is_cmp(enum dl_tok_kind k, enum dl_cmp_op *op);

/* A body literal beginning with a functor's name and '(': a comparison
 * (strlen(X) > 3) when the call goes on with an operator, else an atom
 * of that name (a native policy may name a predicate `max`).  Reads the
 * call as an atom and reads again from the name when it was not one. */

static maelys_datalog_status_t
dl_p_functor_literal(struct dl_parser *p, bool *is_cmp)
{
	struct dl_parser saved = *p;
	struct dl_ast_atom probe;
	enum dl_functor f;
	enum dl_cmp_op cop;
	enum dl_arith_op aop;

	*is_cmp = false;
	if (!dl_functor_find(p->tok.text, p->tok.len, &f))
		return MAELYS_DATALOG_STATUS_OK;
	if (dl_p_atom(p, &probe, false) == MAELYS_DATALOG_STATUS_OK &&
	    !dl_is_cmp(p->tok.kind, &cop) &&
	    dl_p_binop(&p->tok, p->ast->souffle, &aop) == 0) {
		*p = saved;
		return MAELYS_DATALOG_STATUS_OK;
	}
	*p = saved;
	*is_cmp = true;
	return MAELYS_DATALOG_STATUS_OK;
}

/* name [ "(" terms ")" ]; p->tok is the name. */
static maelys_datalog_status_t
dl_p_atom(struct dl_parser *p, struct dl_ast_atom *a, bool need_parens)
{
	struct dl_ast_term args[MAELYS_DATALOG_MAX_ARITY];
	size_t n = 0;

	memset(a, 0, sizeof *a);
	if (p->tok.kind != DL_TOK_IDENT)
		return dl_p_error(p, "a predicate name");
	DL_TRY(dl_comp_map(p->comp, DL_COMP_RELATION, &p->ast->arena,
			   &p->tok.text, &p->tok.len, p->tok.pos, p->diag));
	a->pos = p->tok.pos;
	DL_TRY(dl_p_strdup(p, p->tok.text, p->tok.len, &a->name));
	a->name_len = p->tok.len;
	DL_TRY(dl_p_advance(p));
	if (p->tok.kind != DL_TOK_LPAREN) {
		if (need_parens)
			return dl_p_error(p, "'('");
		return MAELYS_DATALOG_STATUS_OK; /* arity 0 */
	}
	DL_TRY(dl_p_advance(p));
	if (p->tok.kind != DL_TOK_RPAREN) {
		for (;;) {
			if (n == MAELYS_DATALOG_MAX_ARITY)
				return dl_fail_at(
				    p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				    p->source_name, p->tok.pos,
				    "more than %d arguments (the limit "
				    "of MAELYS_DATALOG_MAX_ARITY)",
				    MAELYS_DATALOG_MAX_ARITY);
			DL_TRY(dl_p_term(p, &args[n]));
			n++;
			if (p->tok.kind != DL_TOK_COMMA)
				break;
			DL_TRY(dl_p_advance(p));
		}
	}
	DL_TRY(dl_p_expect(p, DL_TOK_RPAREN));
	if (n > 0) {
		a->args = dl_arena_alloc(&p->ast->arena, n * sizeof *args);
		if (a->args == NULL)
			return dl_p_nomem(p);
		memcpy(a->args, args, n * sizeof *args);
	}
	a->nargs = n;
	return MAELYS_DATALOG_STATUS_OK;
}

/* Whether `name` is a built-in of the current syntax, and which. */
static bool
dl_p_builtin(const struct dl_parser *p, const char *name, size_t len,
	     enum dl_builtin *out)
{
	static const struct {
		const char *name;
		enum dl_builtin builtin;
		bool souffle;
	} table[] = {
	    {"re_match", DL_BUILTIN_RE_MATCH, false},
	    {"prefix", DL_BUILTIN_PREFIX, false},
	    {"suffix", DL_BUILTIN_SUFFIX, false},
	    {"contains", DL_BUILTIN_CONTAINS, false},
	    {"match", DL_BUILTIN_RE_FULLMATCH, true},
	    {"contains", DL_BUILTIN_CONTAINS, true},
	};
	size_t i;

	for (i = 0; i < sizeof table / sizeof *table; i++) {
		if (table[i].souffle == p->ast->souffle &&
		    strlen(table[i].name) == len &&
		    memcmp(table[i].name, name, len) == 0) {
			*out = table[i].builtin;
			return true;
		}
	}
	return false;
}

static bool
dl_is_cmp(enum dl_tok_kind k, enum dl_cmp_op *op)
{
	switch (k) {
	case DL_TOK_EQ:
		*op = DL_CMP_EQ;
		return true;
	case DL_TOK_NE:
		*op = DL_CMP_NE;
		return true;
	case DL_TOK_LT:
		*op = DL_CMP_LT;
		return true;
	case DL_TOK_LE:
		*op = DL_CMP_LE;
		return true;
	case DL_TOK_GT:
		*op = DL_CMP_GT;
		return true;
	case DL_TOK_GE:
		*op = DL_CMP_GE;
		return true;
	default:
		return false;
	}
}

/* An atom or a built-in call, possibly under negation. */
static maelys_datalog_status_t
dl_p_atom_or_call(struct dl_parser *p, struct dl_ast_lit *lit)
{
	enum dl_builtin b;

	DL_TRY(dl_p_atom(p, &lit->atom, false));
	if (!dl_p_builtin(p, lit->atom.name, lit->atom.name_len, &b)) {
		lit->kind = DL_LIT_ATOM;
		return MAELYS_DATALOG_STATUS_OK;
	}
	lit->kind = DL_LIT_CALL;
	lit->builtin = b;
	if (lit->atom.nargs != 2)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_ARITY,
				  p->source_name, lit->atom.pos,
				  "built-in %s takes 2 arguments, not %zu",
				  lit->atom.name, lit->atom.nargs);
	if (p->ast->souffle) {
		/* Souffle: match("re", Text) and contains(Needle, Text) */
		struct dl_ast_term t = lit->atom.args[0];

		lit->atom.args[0] = lit->atom.args[1];
		lit->atom.args[1] = t;
	}
	/* Souffle's match takes a pattern computed at evaluation too
	 * (functor.c compiles and caches it); ours keeps the load's */
	if ((b == DL_BUILTIN_RE_MATCH || b == DL_BUILTIN_RE_FULLMATCH) &&
	    !p->ast->souffle && lit->atom.args[1].kind != DL_TERM_SYMBOL)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_PARSE,
				  p->source_name, lit->atom.args[1].pos,
				  "the pattern of %s must be a string constant "
				  "(it is compiled once, at load)",
				  lit->atom.name);
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_p_literal_body(struct dl_parser *p, struct dl_ast_lit *lit)
{
	const struct dl_token *nx;
	enum dl_cmp_op op;

	memset(lit, 0, sizeof *lit);
	lit->pos = p->tok.pos;
	if (p->tok.kind == DL_TOK_BANG) {
		DL_TRY(dl_p_advance(p));
		lit->negated = true;
		return dl_p_atom_or_call(p, lit);
	}
	/* `not(atom)` negates in the native dialect only: Souffle writes `!`,
	 * and `not` is an ordinary relation name there */
	if (!p->ast->souffle && dl_tok_is(&p->tok, "not")) {
		DL_TRY(dl_p_peek(p, &nx));
		if (nx->kind == DL_TOK_LPAREN) {
			DL_TRY(dl_p_advance(p));
			DL_TRY(dl_p_advance(p));
			lit->negated = true;
			DL_TRY(dl_p_atom_or_call(p, lit));
			return dl_p_expect(p, DL_TOK_RPAREN);
		}
	}
	if (p->tok.kind == DL_TOK_IDENT) {
		enum dl_arith_op aop;
		bool unary, agg;

		bool fcmp = false;

		/* count : { ... } = N: a comparison */
		DL_TRY(dl_p_agg_starts(p, &agg));
		if (agg)
			goto comparison;
		DL_TRY(dl_p_unary_word(p, &aop, &unary));
		DL_TRY(dl_p_peek(p, &nx));
		if (nx->kind == DL_TOK_LPAREN && !unary &&
		    dl_p_conversion(&p->tok) == DL_CONV_NONE)
			DL_TRY(dl_p_functor_literal(p, &fcmp));
		if (nx->kind == DL_TOK_LPAREN && !unary && !fcmp &&
		    dl_p_conversion(&p->tok) == DL_CONV_NONE)
			return dl_p_atom_or_call(p, lit);
		if (!unary && !fcmp && !dl_is_cmp(nx->kind, &op) &&
		    dl_p_binop(nx, p->ast->souffle, &aop) == 0 &&
		    dl_p_conversion(&p->tok) == DL_CONV_NONE) {
			if (p->ast->souffle || dl_is_upper_start(&p->tok))
				return dl_fail_at(
				    p->diag, MAELYS_DATALOG_STATUS_PARSE,
				    p->source_name, p->tok.pos,
				    "a variable alone is not a literal "
				    "(expected a comparison after '%.*s')",
				    (int)p->tok.len, p->tok.text);
			/* a bare lower-case name: an atom of arity 0 */
			lit->kind = DL_LIT_ATOM;
			return dl_p_atom(p, &lit->atom, false);
		}
	}
comparison:
	lit->kind = DL_LIT_CMP;
	DL_TRY(dl_p_term(p, &lit->lhs));
	if (!dl_is_cmp(p->tok.kind, &lit->op))
		return dl_p_error(p, "a comparison (= != < <= > >=)");
	DL_TRY(dl_p_advance(p));
	return dl_p_term(p, &lit->rhs);
}

static maelys_datalog_status_t
dl_p_literal(struct dl_parser *p, struct dl_ast_lit *lit)
{
	size_t start = p->tok.start;

	DL_TRY(dl_p_literal_body(p, lit));
	lit->start = start;
	lit->end = p->prev_end;
	return MAELYS_DATALOG_STATUS_OK;
}

/*
 * Aggregates (dl_agg.h): `count : body`, `sum T : body`, `min T : body`,
 * `max T : body`, `mean T : body`, where body is `{ literal, ... }` or a
 * single atom.  The word begins one when what follows cannot follow a
 * variable or symbol of that name: `:` after count, an operand after the
 * others (but `min(`/`max(`, the functors of two arguments).
 */
/* Tokens looked at past `max (` to tell an aggregate from a functor. */
#define DL_AGG_LOOKAHEAD_MAX 4096

/* With `(` peeked after the current token: whether a `:` follows its
 * matching `)`, as in the aggregate `max (d / t) : body` rather than the
 * functor call `max(a, b)`.  Reads ahead on a copy of the lexer, which
 * reports nothing and decodes no string: a text that does not lex is no
 * aggregate here, and the parser meets the error again where it reads it.  Past
 * DL_AGG_LOOKAHEAD_MAX tokens the answer is no (a functor call). */
static bool
dl_p_colon_after_parens(const struct dl_parser *p)
{
	struct dl_lexer lx = p->lx;
	struct dl_token t;
	size_t depth = 1, n;

	lx.diag = NULL;
	/* strings read raw, not decoded into the AST's arena: nested
	 * lookaheads would copy the same strings again at every level */
	lx.arena = NULL;
	for (n = 0; n < DL_AGG_LOOKAHEAD_MAX; n++) {
		if (dl_lexer_next(&lx, &t) != MAELYS_DATALOG_STATUS_OK ||
		    t.kind == DL_TOK_EOF)
			return false;
		if (depth == 0)
			return t.kind == DL_TOK_COLON;
		if (t.kind == DL_TOK_LPAREN)
			depth++;
		else if (t.kind == DL_TOK_RPAREN)
			depth--;
	}
	return false;
}

static maelys_datalog_status_t
dl_p_agg_starts(struct dl_parser *p, bool *is)
{
	const struct dl_token *nx;
	enum dl_agg_op op;

	*is = false;
	if (p->tok.kind != DL_TOK_IDENT ||
	    !dl_agg_from_word(p->tok.text, p->tok.len, &op))
		return MAELYS_DATALOG_STATUS_OK;
	DL_TRY(dl_p_peek(p, &nx));
	if (op == DL_AGG_COUNT)
		*is = nx->kind == DL_TOK_COLON;
	else if (nx->kind == DL_TOK_LPAREN)
		*is = dl_p_colon_after_parens(p);
	else
		*is = dl_p_starts_operand(nx->kind);
	return MAELYS_DATALOG_STATUS_OK;
}

static bool
dl_p_is_brace(const struct dl_token *t, char c)
{
	return t->kind == DL_TOK_OTHER && t->len == 1 && t->text[0] == c;
}

/* A literal of an aggregate's braced body.  An aggregate's body is a flat
 * conjunction, so Souffle's `true` and `false` (Souffle's syntax only: see
 * dl_p_boolean for a rule's body) are read as the constant comparisons
 * 0 = 0 and 0 = 1: `count : { false }` counts nothing, `count : { true }`
 * counts the one empty binding, as in Souffle. */
static maelys_datalog_status_t
dl_p_agg_literal(struct dl_parser *p, struct dl_ast_lit *lit)
{
	const struct dl_token *nx;
	bool t = dl_tok_is(&p->tok, "true"), f = dl_tok_is(&p->tok, "false");

	if (!p->ast->souffle || (!t && !f))
		return dl_p_literal(p, lit);
	DL_TRY(dl_p_peek(p, &nx));
	if (nx->kind != DL_TOK_COMMA && !dl_p_is_brace(nx, '}'))
		return dl_p_literal(p, lit);
	memset(lit, 0, sizeof *lit);
	lit->kind = DL_LIT_CMP;
	lit->op = DL_CMP_EQ;
	lit->pos = lit->lhs.pos = lit->rhs.pos = p->tok.pos;
	lit->lhs.kind = lit->rhs.kind = DL_TERM_INT;
	lit->lhs.integer = 0;
	lit->rhs.integer = t ? 0 : 1;
	lit->start = p->tok.start;
	lit->end = p->tok.start + p->tok.len;
	return dl_p_advance(p);
}

/* An aggregate's body, after its ':' (a braced conjunction or one
 * atom), read into body (DL_BODY_MAX literals); its length in *n. */
static maelys_datalog_status_t
dl_p_agg_body(struct dl_parser *p, struct dl_ast_lit *body, size_t *n)
{
	if (dl_p_is_brace(&p->tok, '{')) {
		DL_TRY(dl_p_advance(p));
		for (;;) {
			if (*n == DL_BODY_MAX)
				return dl_fail_at(
				    p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				    p->source_name, p->tok.pos,
				    "aggregate body longer than %zu literals",
				    DL_BODY_MAX);
			DL_TRY(dl_p_agg_literal(p, &body[*n]));
			(*n)++;
			if (p->tok.kind != DL_TOK_COMMA)
				break;
			DL_TRY(dl_p_advance(p));
		}
		if (!dl_p_is_brace(&p->tok, '}'))
			return dl_p_error(p,
					  "',' or '}' in the aggregate's body");
		return dl_p_advance(p);
	} else {
		size_t lstart = p->tok.start;

		memset(&body[0], 0, sizeof body[0]);
		body[0].pos = p->tok.pos;
		if (p->tok.kind != DL_TOK_IDENT)
			return dl_p_error(p, "'{' or an atom after the "
					     "aggregate's ':'");
		DL_TRY(dl_p_atom_or_call(p, &body[0]));
		body[0].start = lstart;
		body[0].end = p->prev_end;
		*n = 1;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_p_agg(struct dl_parser *p, struct dl_ast_term *t)
{
	/* on the heap: aggregates nest (DL_AGG_DEPTH_MAX), and DL_BODY_MAX
	 * literals are tens of KiB of stack at every level */
	struct dl_ast_lit *body;
	struct dl_ast_agg *a;
	size_t start = p->tok.start, n = 0;
	struct dl_pos pos = p->tok.pos;
	maelys_datalog_status_t st;

	if (++p->agg_depth > DL_AGG_DEPTH_MAX)
		return dl_fail_at(
		    p->diag, MAELYS_DATALOG_STATUS_LIMIT, p->source_name, pos,
		    "aggregates nested deeper than %d", DL_AGG_DEPTH_MAX);
	a = dl_arena_alloc(&p->ast->arena, sizeof *a);
	if (a == NULL)
		return dl_p_nomem(p);
	memset(a, 0, sizeof *a);
	a->pos = pos;
	(void)dl_agg_from_word(p->tok.text, p->tok.len, &a->op);
	DL_TRY(dl_p_advance(p));
	if (a->op != DL_AGG_COUNT) {
		a->has_value = true;
		DL_TRY(dl_p_term(p, &a->value));
	}
	DL_TRY(dl_p_expect(p, DL_TOK_COLON));
	body = dl_alloc(DL_BODY_MAX * sizeof *body);
	if (body == NULL)
		return dl_p_nomem(p);
	st = dl_p_agg_body(p, body, &n);
	if (st == MAELYS_DATALOG_STATUS_OK) {
		a->body = dl_arena_alloc(&p->ast->arena, n * sizeof *body);
		if (a->body == NULL)
			st = dl_p_nomem(p);
		else
			memcpy(a->body, body, n * sizeof *body);
	}
	dl_free(body);
	if (st != MAELYS_DATALOG_STATUS_OK)
		return st;
	a->nbody = n;
	p->agg_depth--;
	memset(t, 0, sizeof *t);
	t->kind = DL_TERM_AGG;
	t->agg = a;
	t->pos = pos;
	t->start = start;
	t->end = p->prev_end;
	return MAELYS_DATALOG_STATUS_OK;
}

/* Heads of one clause: several (`a(x), b(x) :- c(x).`) each get the
 * clause's body, as in Souffle. */
#define DL_HEADS_MAX 64

static bool
dl_p_is_semicolon(const struct dl_token *t)
{
	return t->kind == DL_TOK_OTHER && t->len == 1 && t->text[0] == ';';
}

static maelys_datalog_status_t dl_p_disj(struct dl_parser *p,
					 struct dl_bf **out);
static maelys_datalog_status_t dl_p_ignore(struct dl_parser *p,
					   const char *what,
					   const struct dl_token *tok);

static maelys_datalog_status_t
dl_p_bf_new(struct dl_parser *p, enum dl_bf_kind kind, struct dl_bf **out)
{
	*out = dl_arena_alloc(&p->ast->arena, sizeof **out);
	if (*out == NULL)
		return dl_p_nomem(p);
	memset(*out, 0, sizeof **out);
	(*out)->kind = kind;
	(*out)->pos = p->tok.pos;
	return MAELYS_DATALOG_STATUS_OK;
}

/* "(" disjunction ")": a group, or the start of a comparison such as
 * `(x + 1) < y`.  The group is tried first; if it does not parse, the
 * parser goes back and reads a literal, and of two failures reports the
 * one that read further.  Each level tries at most twice, and the levels
 * are bounded, so the work stays linear in the text times the depth. */
static maelys_datalog_status_t
dl_p_group(struct dl_parser *p, struct dl_bf **out)
{
	struct dl_parser saved = *p, failed;
	maelys_datalog_diagnostic_t diag_saved, diag_group;
	maelys_datalog_status_t st;
	struct dl_bf *f;

	memset(&diag_saved, 0, sizeof diag_saved);
	memset(&diag_group, 0, sizeof diag_group);
	if (p->diag != NULL)
		diag_saved = *p->diag;
	st = dl_p_advance(p);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_p_disj(p, out);
	if (st == MAELYS_DATALOG_STATUS_OK && p->tok.kind == DL_TOK_RPAREN)
		return dl_p_advance(p);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_p_error(p, "')'");
	if (st == MAELYS_DATALOG_STATUS_NO_MEMORY ||
	    st == MAELYS_DATALOG_STATUS_LIMIT)
		return st; /* a bound reached: no other reading is tried */
	failed = *p;
	if (p->diag != NULL) {
		diag_group = *p->diag;
		*p->diag = diag_saved;
	}
	*p = saved;
	DL_TRY(dl_p_bf_new(p, DL_BF_LIT, &f));
	st = dl_p_literal(p, &f->lit);
	if (st == MAELYS_DATALOG_STATUS_OK) {
		*out = f;
		return st;
	}
	if (st != MAELYS_DATALOG_STATUS_NO_MEMORY &&
	    failed.tok.start > p->tok.start) {
		st = MAELYS_DATALOG_STATUS_PARSE;
		if (p->diag != NULL) {
			*p->diag = diag_group;
			st = diag_group.status;
		}
	}
	return st;
}

/*
 * Souffle's `true` and `false` as body literals (Souffle's syntax only,
 * where both are keywords): `true` holds, an empty conjunction; `false`
 * never holds, an empty disjunction, so that a conjunction with it is left
 * out of the program, as Souffle's RemoveBooleanConstraints leaves it out
 * (and `!false` holds).  *is: the token was one (and is consumed).
 */
static maelys_datalog_status_t
dl_p_boolean(struct dl_parser *p, bool *is, struct dl_bf **out)
{
	const struct dl_token *nx;
	bool t = dl_tok_is(&p->tok, "true"), f = dl_tok_is(&p->tok, "false");

	*is = false;
	if (!p->ast->souffle || (!t && !f))
		return MAELYS_DATALOG_STATUS_OK;
	DL_TRY(dl_p_peek(p, &nx));
	if (nx->kind != DL_TOK_COMMA && nx->kind != DL_TOK_DOT &&
	    nx->kind != DL_TOK_RPAREN && !dl_p_is_semicolon(nx))
		return MAELYS_DATALOG_STATUS_OK;
	*is = true;
	DL_TRY(dl_p_bf_new(p, t ? DL_BF_AND : DL_BF_OR, out));
	return dl_p_advance(p);
}

/* unit := "!" unit | "(" disjunction ")" | literal */
static maelys_datalog_status_t
dl_p_unit(struct dl_parser *p, struct dl_bf **out)
{
	maelys_datalog_status_t st;
	const struct dl_token *nx;
	bool boolean = false;

	if (p->bdepth >= DL_DNF_DEPTH_MAX)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  p->source_name, p->tok.pos,
				  "rule body nested deeper than %d "
				  "(parentheses and negations)",
				  DL_DNF_DEPTH_MAX);
	p->bdepth++;
	if (p->ast->souffle && p->tok.kind == DL_TOK_BANG) {
		DL_TRY(dl_p_peek(p, &nx));
		if (nx->kind == DL_TOK_LPAREN || nx->kind == DL_TOK_BANG) {
			struct dl_bf *f;

			DL_TRY(dl_p_bf_new(p, DL_BF_NOT, &f));
			DL_TRY(dl_p_advance(p));
			f->kids = dl_arena_alloc(&p->ast->arena,
						 sizeof *f->kids);
			if (f->kids == NULL)
				return dl_p_nomem(p);
			f->nkids = 1;
			DL_TRY(dl_p_unit(p, &f->kids[0]));
			*out = f;
			p->bdepth--;
			return MAELYS_DATALOG_STATUS_OK;
		}
	}
	DL_TRY(dl_p_boolean(p, &boolean, out));
	if (boolean) {
		st = MAELYS_DATALOG_STATUS_OK;
	} else if (p->ast->souffle && p->tok.kind == DL_TOK_LPAREN) {
		st = dl_p_group(p, out);
	} else {
		DL_TRY(dl_p_bf_new(p, DL_BF_LIT, out));
		st = dl_p_literal(p, &(*out)->lit);
	}
	p->bdepth--;
	return st;
}

/* kind = AND: unit {"," unit}; OR: conjunction {";" conjunction}.  A list
 * of one is that one. */
static maelys_datalog_status_t
dl_p_bf_list(struct dl_parser *p, enum dl_bf_kind kind, struct dl_bf **out)
{
	struct dl_bf *kids[DL_BODY_MAX];
	struct dl_bf *f;
	size_t n = 0;

	DL_TRY(dl_p_bf_new(p, kind, &f));
	for (;;) {
		if (n == DL_BODY_MAX)
			return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
					  p->source_name, p->tok.pos,
					  "rule body longer than %zu literals",
					  DL_BODY_MAX);
		if (kind == DL_BF_AND)
			DL_TRY(dl_p_unit(p, &kids[n]));
		else
			DL_TRY(dl_p_bf_list(p, DL_BF_AND, &kids[n]));
		n++;
		if (kind == DL_BF_AND ? p->tok.kind != DL_TOK_COMMA
				      : !p->ast->souffle ||
					    !dl_p_is_semicolon(&p->tok))
			break;
		DL_TRY(dl_p_advance(p));
	}
	if (n == 1) {
		*out = kids[0];
		return MAELYS_DATALOG_STATUS_OK;
	}
	f->kids = dl_arena_alloc(&p->ast->arena, n * sizeof *kids);
	if (f->kids == NULL)
		return dl_p_nomem(p);
	memcpy(f->kids, kids, n * sizeof *kids);
	f->nkids = n;
	*out = f;
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_p_disj(struct dl_parser *p, struct dl_bf **out)
{
	return dl_p_bf_list(p, DL_BF_OR, out);
}

/* Keeps one clause: `head :- body` (n literals, copied). */
static maelys_datalog_status_t
dl_p_add_clause(struct dl_parser *p, const struct dl_ast_clause *proto,
		const struct dl_ast_atom *head, const struct dl_ast_lit *body,
		size_t n)
{
	struct dl_ast_clause c = *proto;

	c.head = *head;
	c.body = NULL;
	if (n > 0) {
		c.body = dl_arena_alloc(&p->ast->arena, n * sizeof *body);
		if (c.body == NULL)
			return dl_p_nomem(p);
		memcpy(c.body, body, n * sizeof *body);
	}
	c.nbody = n;
	if (p->ast->nclauses == DL_CLAUSES_MAX)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  p->source_name, c.pos,
				  "more than %zu clauses", DL_CLAUSES_MAX);
	if (dl_vec_reserve((void **)&p->ast->clauses, &p->ast->cap_clauses,
			   p->ast->nclauses + 1, sizeof c) != 0)
		return dl_p_nomem(p);
	p->ast->clauses[p->ast->nclauses++] = c;
	return MAELYS_DATALOG_STATUS_OK;
}

static bool
dl_tok_is_word(const struct dl_token *t, const char *word)
{
	size_t n = strlen(word);

	return t->len == n && memcmp(t->text, word, n) == 0;
}

/* An integer of a .plan, read as a number of at most 9 digits. */
static maelys_datalog_status_t
dl_p_plan_int(struct dl_parser *p, int64_t *out)
{
	if (p->tok.kind != DL_TOK_INTEGER)
		return dl_p_error(p, "a number");
	*out = p->tok.integer;
	return dl_p_advance(p);
}

/* `.plan N: (i, j, ...), ...` after a rule (p->tok is the directive):
 * kept in `c` for relq.c's checks, then ignored with a note. */
static maelys_datalog_status_t
dl_p_plan(struct dl_parser *p, struct dl_ast_clause *c)
{
	struct dl_ast_plan plans[DL_PLAN_ORDERS_MAX];
	struct dl_ast_plan *kept;
	size_t n = 0;

	DL_TRY(dl_p_ignore(p, "directive", &p->tok));
	DL_TRY(dl_p_advance(p));
	for (;;) {
		struct dl_ast_plan *pl = &plans[n];

		if (n == DL_PLAN_ORDERS_MAX)
			return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
					  p->source_name, p->tok.pos,
					  "more than %d orders in one .plan",
					  DL_PLAN_ORDERS_MAX);
		memset(pl, 0, sizeof *pl);
		pl->pos = p->tok.pos;
		DL_TRY(dl_p_plan_int(p, &pl->version));
		DL_TRY(dl_p_expect(p, DL_TOK_COLON));
		DL_TRY(dl_p_expect(p, DL_TOK_LPAREN));
		while (p->tok.kind != DL_TOK_RPAREN) {
			if (pl->n == DL_BODY_MAX)
				return dl_fail_at(
				    p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				    p->source_name, p->tok.pos,
				    "more than %zu atoms in a .plan order",
				    DL_BODY_MAX);
			DL_TRY(dl_p_plan_int(p, &pl->order[pl->n]));
			pl->n++;
			if (p->tok.kind != DL_TOK_COMMA)
				break;
			DL_TRY(dl_p_advance(p));
		}
		DL_TRY(dl_p_expect(p, DL_TOK_RPAREN));
		n++;
		if (p->tok.kind != DL_TOK_COMMA)
			break;
		DL_TRY(dl_p_advance(p));
	}
	kept = dl_arena_alloc(&p->ast->arena, n * sizeof *kept);
	if (kept == NULL)
		return dl_p_nomem(p);
	memcpy(kept, plans, n * sizeof *kept);
	c->plans = kept;
	c->nplans = n;
	return MAELYS_DATALOG_STATUS_OK;
}

/* clause := atom {"," atom} [":-" disjunction] "."  A body with
 * disjunction is one clause per conjunction of its normal form (dl_dnf.h),
 * for each head; every clause keeps the literals' own positions.  Several
 * heads, groups and `;` are Souffle's syntax only: a native rule is one
 * rule of the rules API, with one text, as the authors' tools show it. */
static maelys_datalog_status_t
dl_p_clause(struct dl_parser *p)
{
	struct dl_ast_atom heads[DL_HEADS_MAX];
	struct dl_ast_clause c;
	struct dl_dnf_conj *conj = NULL;
	struct dl_bf *body = NULL;
	size_t nheads = 0, nconj = 0, h, k;

	memset(&c, 0, sizeof c);
	c.pos = p->tok.pos;
	c.start = p->tok.start;
	for (;;) {
		if (nheads == DL_HEADS_MAX)
			return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
					  p->source_name, p->tok.pos,
					  "more than %d heads in one clause",
					  DL_HEADS_MAX);
		DL_TRY(dl_p_atom(p, &heads[nheads], false));
		nheads++;
		if (p->tok.kind != DL_TOK_COMMA)
			break;
		if (!p->ast->souffle)
			return dl_p_error(p, "':-' or '.' (a clause has one "
					     "head)");
		DL_TRY(dl_p_advance(p));
	}
	/* subsumption: head <= dominating :- body */
	if (p->ast->souffle && nheads == 1 && p->tok.kind == DL_TOK_LE) {
		struct dl_ast_atom *dom =
		    dl_arena_alloc(&p->ast->arena, sizeof *dom);

		if (dom == NULL)
			return dl_p_nomem(p);
		DL_TRY(dl_p_advance(p));
		DL_TRY(dl_p_atom(p, dom, false));
		c.dominating = dom;
		if (p->tok.kind != DL_TOK_IF)
			return dl_p_error(p, "':-' (a subsumption has a body)");
	}
	if (p->tok.kind == DL_TOK_OTHER)
		return dl_p_error(p, "':-' or '.'");
	if (p->tok.kind == DL_TOK_IF) {
		DL_TRY(dl_p_advance(p));
		DL_TRY(dl_p_disj(p, &body));
	} else if (nheads > 1) {
		return dl_p_error(p, "':-' (a clause of several heads is a "
				     "rule)");
	}
	if (p->tok.kind != DL_TOK_DOT)
		return dl_p_error(p, body == NULL ? "':-' or '.'"
						  : "',' or '.'");
	c.end = p->tok.end;
	DL_TRY(dl_p_advance(p));
	if (body != NULL) {
		DL_TRY(dl_dnf_expand(&p->ast->arena, body, p->source_name,
				     &conj, &nconj, p->diag));
		if (nheads * nconj > DL_DNF_CLAUSES_MAX)
			return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
					  p->source_name, c.pos,
					  "rule expands to more than %zu "
					  "clauses (heads times disjuncts)",
					  DL_DNF_CLAUSES_MAX);
	}
	if (body != NULL && p->tok.kind == DL_TOK_DIRECTIVE &&
	    dl_tok_is_word(&p->tok, "plan"))
		DL_TRY(dl_p_plan(p, &c));
	for (h = 0; h < nheads; h++) {
		if (body == NULL) {
			DL_TRY(dl_p_add_clause(p, &c, &heads[h], NULL, 0));
			continue;
		}
		for (k = 0; k < nconj; k++)
			DL_TRY(dl_p_add_clause(p, &c, &heads[h], conj[k].lits,
					       conj[k].n));
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* A type's name (a primitive or a .type, declared anywhere: the checker
 * resolves it, types.c), copied into the arena. */
static maelys_datalog_status_t
dl_p_type_name(struct dl_parser *p, const char **out, struct dl_pos *pos)
{
	if (p->tok.kind != DL_TOK_IDENT)
		return dl_p_error(p, "a type name");
	DL_TRY(dl_comp_map(p->comp, DL_COMP_TYPE, &p->ast->arena, &p->tok.text,
			   &p->tok.len, p->tok.pos, p->diag));
	*pos = p->tok.pos;
	DL_TRY(dl_p_strdup(p, p->tok.text, p->tok.len, out));
	return dl_p_advance(p);
}

/* Keeps `what` "text of tok" as a construct accepted and ignored, at tok:
 * warned of at load (warn.c). */
static maelys_datalog_status_t
dl_p_ignore(struct dl_parser *p, const char *what, const struct dl_token *tok)
{
	struct dl_ast_ignored ig;
	char text[96];
	int n;

	n = snprintf(text, sizeof text, "%s \"%.*s\"", what,
		     (int)(tok->len > 64 ? 64 : tok->len), tok->text);
	DL_TRY(dl_p_strdup(p, text, (size_t)n, &ig.what));
	ig.pos = tok->pos;
	if (dl_vec_reserve((void **)&p->ast->ignored, &p->ast->cap_ignored,
			   p->ast->nignored + 1, sizeof ig) != 0)
		return dl_p_nomem(p);
	p->ast->ignored[p->ast->nignored++] = ig;
	return MAELYS_DATALOG_STATUS_OK;
}

/* One column of a choice-domain key, by its name among the decl's. */
static maelys_datalog_status_t
dl_p_choice_col(struct dl_parser *p, const struct dl_ast_decl *d,
		const struct dl_token *names, uint32_t *mask)
{
	size_t k;

	if (p->tok.kind != DL_TOK_IDENT)
		return dl_p_error(p, "a column name");
	for (k = 0; k < d->arity; k++)
		if (names[k].len == p->tok.len &&
		    memcmp(names[k].text, p->tok.text, p->tok.len) == 0)
			break;
	if (k == d->arity)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_UNDECLARED,
				  p->source_name, p->tok.pos,
				  "choice-domain of '%s': no column '%.*s'",
				  d->name, (int)p->tok.len, p->tok.text);
	*mask |= UINT32_C(1) << k;
	return dl_p_advance(p);
}

/* choice-domain key {"," key}, key := column | "(" column {"," column} ")"
 * (p->tok is `choice`).  Keys of the same columns are one key. */
static maelys_datalog_status_t
dl_p_choice(struct dl_parser *p, struct dl_ast_decl *d,
	    const struct dl_token *names)
{
	size_t k;

	DL_TRY(dl_p_advance(p)); /* choice */
	DL_TRY(dl_p_advance(p)); /* - */
	if (!dl_tok_is(&p->tok, "domain"))
		return dl_p_error(p, "choice-domain");
	DL_TRY(dl_p_advance(p));
	for (;;) {
		uint32_t mask = 0;

		if (p->tok.kind == DL_TOK_LPAREN) {
			DL_TRY(dl_p_advance(p));
			for (;;) {
				DL_TRY(dl_p_choice_col(p, d, names, &mask));
				if (p->tok.kind != DL_TOK_COMMA)
					break;
				DL_TRY(dl_p_advance(p));
			}
			DL_TRY(dl_p_expect(p, DL_TOK_RPAREN));
		} else {
			DL_TRY(dl_p_choice_col(p, d, names, &mask));
		}
		for (k = 0; k < d->nchoice; k++)
			if (d->choice_masks[k] == mask)
				break;
		if (k == d->nchoice) {
			if (d->nchoice == DL_CHOICE_KEYS_MAX)
				return dl_fail_at(
				    p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				    p->source_name, p->tok.pos,
				    "more than %d keys in a choice-domain",
				    DL_CHOICE_KEYS_MAX);
			d->choice_masks[d->nchoice++] = mask;
		}
		if (p->tok.kind != DL_TOK_COMMA)
			return MAELYS_DATALOG_STATUS_OK;
		DL_TRY(dl_p_advance(p));
	}
}

static maelys_datalog_status_t
dl_p_decl(struct dl_parser *p)
{
	struct dl_ast_decl d;
	/* the columns' names, each once (Souffle refuses a name twice) */
	struct dl_token names[MAELYS_DATALOG_MAX_ARITY];
	/* `.decl a, b(x:number)`: the relations declared alike */
	struct dl_token rels[DL_DECL_RELATIONS_MAX];
	size_t k, nrels = 0;
	bool repr = false; /* a representation qualifier was read */

	memset(&d, 0, sizeof d);
	for (;;) {
		if (p->tok.kind != DL_TOK_IDENT)
			return dl_p_error(p, "a predicate name after .decl");
		if (nrels == DL_DECL_RELATIONS_MAX)
			return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
					  p->source_name, p->tok.pos,
					  "more than %d relations in one .decl",
					  DL_DECL_RELATIONS_MAX);
		DL_TRY(dl_comp_map(p->comp, DL_COMP_RELATION, &p->ast->arena,
				   &p->tok.text, &p->tok.len, p->tok.pos,
				   p->diag));
		rels[nrels++] = p->tok;
		DL_TRY(dl_p_advance(p));
		if (p->tok.kind != DL_TOK_COMMA)
			break;
		DL_TRY(dl_p_advance(p));
	}
	d.pos = rels[0].pos;
	DL_TRY(dl_p_strdup(p, rels[0].text, rels[0].len, &d.name));
	d.name_len = rels[0].len;
	DL_TRY(dl_p_expect(p, DL_TOK_LPAREN));
	if (p->tok.kind != DL_TOK_RPAREN) {
		for (;;) {
			if (d.arity == MAELYS_DATALOG_MAX_ARITY)
				return dl_fail_at(p->diag,
						  MAELYS_DATALOG_STATUS_LIMIT,
						  p->source_name, p->tok.pos,
						  "more than %d columns",
						  MAELYS_DATALOG_MAX_ARITY);
			if (p->tok.kind != DL_TOK_IDENT)
				return dl_p_error(p, "a column name");
			for (k = 0; k < d.arity; k++)
				if (names[k].len == p->tok.len &&
				    memcmp(names[k].text, p->tok.text,
					   p->tok.len) == 0)
					return dl_fail_at(
					    p->diag,
					    MAELYS_DATALOG_STATUS_REDECLARED,
					    p->source_name, p->tok.pos,
					    "column '%.*s' of '%s' is named "
					    "twice",
					    (int)p->tok.len, p->tok.text,
					    d.name);
			names[d.arity] = p->tok;
			DL_TRY(dl_p_strdup(p, p->tok.text, p->tok.len,
					   &d.names[d.arity]));
			DL_TRY(dl_p_advance(p));
			d.columns[d.arity] = MAELYS_DATALOG_COLUMN_ANY;
			if (p->tok.kind == DL_TOK_COLON) {
				DL_TRY(dl_p_advance(p));
				DL_TRY(dl_p_type_name(p,
						      &d.type_names[d.arity],
						      &d.type_pos[d.arity]));
			}
			d.arity++;
			if (p->tok.kind != DL_TOK_COMMA)
				break;
			DL_TRY(dl_p_advance(p));
		}
	}
	DL_TRY(dl_p_expect(p, DL_TOK_RPAREN));
	/* Souffle's qualifiers: representations change nothing here; the
	 * others change semantics we do not offer.  A name that goes on as a
	 * clause (followed by '(', '.', ':-' or ',') is the next clause, such
	 * as a zero-arity fact `choice.`, not a qualifier. */
	for (;;) {
		const struct dl_token *nx;

		if (p->tok.kind != DL_TOK_IDENT)
			break;
		DL_TRY(dl_p_peek(p, &nx));
		if (nx->kind == DL_TOK_LPAREN || nx->kind == DL_TOK_DOT ||
		    nx->kind == DL_TOK_IF || nx->kind == DL_TOK_COMMA)
			break;
		/* one representation at most, as Souffle requires */
		if (dl_tok_is(&p->tok, "btree") || dl_tok_is(&p->tok, "brie") ||
		    dl_tok_is(&p->tok, "btree_delete") ||
		    dl_tok_is(&p->tok, "eqrel")) {
			if (repr)
				return dl_fail_at(
				    p->diag, MAELYS_DATALOG_STATUS_PARSE,
				    p->source_name, p->tok.pos,
				    "btree/brie/eqrel qualifier already set "
				    "for '%s'",
				    d.name);
			repr = true;
		}
		if (p->ast->souffle && dl_tok_is(&p->tok, "overridable")) {
			/* overridable: what a derived component may do with
			 * the relation (components.c), nothing here */
			DL_TRY(dl_p_advance(p));
			continue;
		}
		/* representations, magic sets and inlining: how Souffle
		 * evaluates the relation, not what it holds; accepted, and
		 * warned of as ignored.  An inlined relation is evaluated as
		 * any other, with Souffle's checks of it (relq.c). */
		if (dl_tok_is(&p->tok, "btree") || dl_tok_is(&p->tok, "brie") ||
		    dl_tok_is(&p->tok, "btree_delete") ||
		    dl_tok_is(&p->tok, "magic") ||
		    dl_tok_is(&p->tok, "no_magic") ||
		    dl_tok_is(&p->tok, "inline") ||
		    dl_tok_is(&p->tok, "no_inline")) {
			if (dl_tok_is(&p->tok, "inline"))
				d.quals |= DL_QUAL_INLINE;
			if (dl_tok_is(&p->tok, "no_inline"))
				d.quals |= DL_QUAL_NO_INLINE;
			DL_TRY(dl_p_ignore(p, "qualifier", &p->tok));
			DL_TRY(dl_p_advance(p));
			continue;
		}
		/* choice-domain keys: the last qualifier, as in Souffle */
		if (dl_tok_is(&p->tok, "choice") && nx->kind == DL_TOK_MINUS) {
			DL_TRY(dl_p_choice(p, &d, names));
			break;
		}
		/* eqrel: the closure, as rules of its own (relq.c) */
		if (dl_tok_is(&p->tok, "eqrel")) {
			d.quals |= DL_QUAL_EQREL;
			d.eqrel_pos = p->tok.pos;
			d.eqrel_start = p->tok.start;
			d.eqrel_end = p->tok.end;
			DL_TRY(dl_p_advance(p));
			continue;
		}
		if (dl_tok_is(&p->tok, "overridable") ||
		    dl_tok_is(&p->tok, "choice"))
			return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_PARSE,
					  p->source_name, p->tok.pos,
					  "unsupported qualifier '%.*s' after "
					  ".decl",
					  (int)p->tok.len, p->tok.text);
		break;
	}
	if (dl_vec_reserve((void **)&p->ast->decls, &p->ast->cap_decls,
			   p->ast->ndecls + nrels, sizeof d) != 0)
		return dl_p_nomem(p);
	for (k = 0; k < nrels; k++) {
		if (k > 0) {
			d.pos = rels[k].pos;
			DL_TRY(dl_p_strdup(p, rels[k].text, rels[k].len,
					   &d.name));
			d.name_len = rels[k].len;
		}
		p->ast->decls[p->ast->ndecls++] = d;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* Whether p->tok begins a record type "[" or an ADT's branch "Name {". */
static bool
dl_p_is_record_type(struct dl_parser *p)
{
	const struct dl_token *nx;

	if (dl_tok_other(&p->tok, '['))
		return true;
	if (p->tok.kind != DL_TOK_IDENT)
		return false;
	if (dl_p_peek(p, &nx) != MAELYS_DATALOG_STATUS_OK)
		return false; /* the lexer's error comes again on advancing */
	return dl_tok_other(nx, '{');
}

/* [name ":" type {"," name ":" type}] up to `close` ("]" or "}"), which
 * is consumed. */
static maelys_datalog_status_t
dl_p_record_fields(struct dl_parser *p, char close, struct dl_ast_rbranch *b)
{
	struct dl_ast_rfield f[DL_RECORD_FIELDS_MAX];
	uint32_t n = 0, k;

	while (!dl_tok_other(&p->tok, close)) {
		if (n == DL_RECORD_FIELDS_MAX)
			return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
					  p->source_name, p->tok.pos,
					  "record type of more than %d fields",
					  DL_RECORD_FIELDS_MAX);
		if (p->tok.kind != DL_TOK_IDENT)
			return dl_p_error(p, "a field name");
		for (k = 0; k < n; k++)
			if (strlen(f[k].name) == p->tok.len &&
			    memcmp(f[k].name, p->tok.text, p->tok.len) == 0)
				return dl_fail_at(
				    p->diag, MAELYS_DATALOG_STATUS_REDECLARED,
				    p->source_name, p->tok.pos,
				    "field '%.*s' is named twice",
				    (int)p->tok.len, p->tok.text);
		DL_TRY(dl_p_strdup(p, p->tok.text, p->tok.len, &f[n].name));
		DL_TRY(dl_p_advance(p));
		DL_TRY(dl_p_expect(p, DL_TOK_COLON));
		/* mapped as any type name is: inside a component a field of
		 * type T or D.T names the instance's type */
		DL_TRY(dl_p_type_name(p, &f[n].type, &f[n].pos));
		n++;
		if (p->tok.kind != DL_TOK_COMMA)
			break;
		DL_TRY(dl_p_advance(p));
	}
	if (!dl_tok_other(&p->tok, close))
		return dl_p_error(p, close == ']' ? "',' or ']'" : "',' or '}'");
	DL_TRY(dl_p_advance(p));
	if (n > 0) {
		b->fields = dl_arena_alloc(&p->ast->arena, n * sizeof *f);
		if (b->fields == NULL)
			return dl_p_nomem(p);
		memcpy(b->fields, f, n * sizeof *f);
	}
	b->nfields = n;
	return MAELYS_DATALOG_STATUS_OK;
}

/* The right side of `.type T = [...]` or `.type T = A {...} | B {...}`. */
static maelys_datalog_status_t
dl_p_record_type(struct dl_parser *p, const struct dl_ast_type *t)
{
	struct dl_ast_rbranch br[DL_RECORD_BRANCHES_MAX];
	struct dl_ast_rtype rt;
	uint32_t n = 0;

	memset(&rt, 0, sizeof rt);
	rt.name = t->name;
	rt.pos = t->pos;
	if (dl_tok_other(&p->tok, '[')) {
		memset(&br[0], 0, sizeof br[0]);
		br[0].pos = p->tok.pos;
		DL_TRY(dl_p_advance(p));
		DL_TRY(dl_p_record_fields(p, ']', &br[0]));
		n = 1;
	} else {
		rt.adt = true;
		for (;;) {
			if (n == DL_RECORD_BRANCHES_MAX)
				return dl_fail_at(
				    p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				    p->source_name, p->tok.pos,
				    "algebraic data type of more than %d "
				    "branches",
				    DL_RECORD_BRANCHES_MAX);
			if (p->tok.kind != DL_TOK_IDENT)
				return dl_p_error(p, "a branch name");
			/* a component's branch is named by its instance:
			 * Inst.B, as its types are */
			DL_TRY(dl_comp_map(p->comp, DL_COMP_TYPE,
					   &p->ast->arena, &p->tok.text,
					   &p->tok.len, p->tok.pos, p->diag));
			memset(&br[n], 0, sizeof br[n]);
			br[n].pos = p->tok.pos;
			DL_TRY(dl_p_strdup(p, p->tok.text, p->tok.len,
					   &br[n].name));
			DL_TRY(dl_p_advance(p));
			if (!dl_tok_other(&p->tok, '{'))
				return dl_p_error(p, "'{' after a branch name");
			DL_TRY(dl_p_advance(p));
			DL_TRY(dl_p_record_fields(p, '}', &br[n]));
			n++;
			if (!dl_tok_other(&p->tok, '|'))
				break;
			DL_TRY(dl_p_advance(p));
		}
	}
	rt.branches = dl_arena_alloc(&p->ast->arena, n * sizeof *br);
	if (rt.branches == NULL)
		return dl_p_nomem(p);
	memcpy(rt.branches, br, n * sizeof *br);
	rt.nbranches = n;
	if (p->ast->nrtypes == DL_RECORD_TYPES_MAX)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  p->source_name, t->pos,
				  "more than %d record and ADT types",
				  DL_RECORD_TYPES_MAX);
	if (dl_vec_reserve((void **)&p->ast->rtypes, &p->ast->cap_rtypes,
			   p->ast->nrtypes + 1, sizeof rt) != 0)
		return dl_p_nomem(p);
	p->ast->rtypes[p->ast->nrtypes++] = rt;
	return MAELYS_DATALOG_STATUS_OK;
}

/* Adds `.type` t (its name checked for a second declaration). */
static maelys_datalog_status_t
dl_p_add_type(struct dl_parser *p, const struct dl_ast_type *t)
{
	size_t i;

	for (i = 0; i < p->ast->ntypes; i++) {
		const struct dl_ast_type *old = &p->ast->types[i];

		if (old->name_len == t->name_len &&
		    memcmp(old->name, t->name, t->name_len) == 0)
			return dl_fail_at(p->diag,
					  MAELYS_DATALOG_STATUS_REDECLARED,
					  p->source_name, t->pos,
					  "type '%s' is already declared at "
					  "line %zu",
					  t->name, old->pos.line);
	}
	if (p->ast->ntypes == DL_TYPES_MAX)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  p->source_name, t->pos,
				  "more than %d .type declarations",
				  DL_TYPES_MAX);
	if (dl_vec_reserve((void **)&p->ast->types, &p->ast->cap_types,
			   p->ast->ntypes + 1, sizeof *t) != 0)
		return dl_p_nomem(p);
	p->ast->types[p->ast->ntypes++] = *t;
	return MAELYS_DATALOG_STATUS_OK;
}

/* A one-element list of type names: `of` of a SUBSET or an ALIAS. */
static maelys_datalog_status_t
dl_p_type_of1(struct dl_parser *p, struct dl_ast_type *t, const char *name)
{
	t->of = dl_arena_alloc(&p->ast->arena, sizeof *t->of);
	if (t->of == NULL)
		return dl_p_nomem(p);
	t->of[0] = name;
	t->nof = 1;
	return MAELYS_DATALOG_STATUS_OK;
}

/* .type Name <: Base | .type Name = A [| B ...] | .type Name (the old
 * form of a symbol subtype); the names may be declared anywhere. */
static maelys_datalog_status_t
dl_p_type(struct dl_parser *p)
{
	const char *names[DL_UNION_MAX];
	struct dl_ast_type t;
	struct dl_pos at;
	size_t n = 0;

	memset(&t, 0, sizeof t);
	if (p->tok.kind != DL_TOK_IDENT)
		return dl_p_error(p, "a type name after .type");
	DL_TRY(dl_comp_map(p->comp, DL_COMP_TYPE, &p->ast->arena, &p->tok.text,
			   &p->tok.len, p->tok.pos, p->diag));
	t.pos = p->tok.pos;
	DL_TRY(dl_p_strdup(p, p->tok.text, p->tok.len, &t.name));
	t.name_len = p->tok.len;
	DL_TRY(dl_p_advance(p));
	if (p->tok.kind != DL_TOK_SUBTYPE && p->tok.kind != DL_TOK_EQ) {
		/* `.type Name` alone: Souffle's old symbol type (a
		 * component's body may end right after it) */
		if (p->tok.kind != DL_TOK_DIRECTIVE &&
		    p->tok.kind != DL_TOK_EOF &&
		    !(p->comp != NULL && dl_tok_other(&p->tok, '}')))
			return dl_p_error(p, "'<:' or '='");
		t.form = DL_TYPE_SUBSET;
		DL_TRY(dl_p_type_of1(p, &t, "symbol"));
		return dl_p_add_type(p, &t);
	}
	t.form = p->tok.kind == DL_TOK_SUBTYPE ? DL_TYPE_SUBSET : DL_TYPE_ALIAS;
	DL_TRY(dl_p_advance(p));
	/* a subtype of a record or ADT type is refused by types.c, which
	 * knows the types declared after this one too */
	if (t.form == DL_TYPE_ALIAS && dl_p_is_record_type(p)) {
		t.form = DL_TYPE_RECORD;
		DL_TRY(dl_p_record_type(p, &t));
		return dl_p_add_type(p, &t);
	}
	if (p->tok.kind == DL_TOK_OTHER)
		return dl_p_error(p, "a type name");
	for (;;) {
		if (n == DL_UNION_MAX)
			return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
					  p->source_name, p->tok.pos,
					  "a union of more than %d types",
					  DL_UNION_MAX);
		DL_TRY(dl_p_type_name(p, &names[n], &at));
		n++;
		if (p->tok.kind != DL_TOK_OTHER || p->tok.len != 1 ||
		    p->tok.text[0] != '|' || t.form == DL_TYPE_SUBSET)
			break;
		DL_TRY(dl_p_advance(p));
	}
	/* (a component's body ends at the '}' after its last type) */
	if (p->tok.kind == DL_TOK_OTHER &&
	    !(p->comp != NULL && dl_tok_other(&p->tok, '}')))
		return dl_p_error(p, "a declaration");
	if (n > 1)
		t.form = DL_TYPE_UNION;
	t.of = dl_arena_alloc(&p->ast->arena, n * sizeof *t.of);
	if (t.of == NULL)
		return dl_p_nomem(p);
	memcpy(t.of, names, n * sizeof *names);
	t.nof = n;
	return dl_p_add_type(p, &t);
}

/* .number_type A, .symbol_type A: Souffle's old forms of A <: number and
 * A <: symbol. */
static maelys_datalog_status_t
dl_p_old_type(struct dl_parser *p, const char *base)
{
	struct dl_ast_type t;

	memset(&t, 0, sizeof t);
	if (p->tok.kind != DL_TOK_IDENT)
		return dl_p_error(p, "a type name");
	t.pos = p->tok.pos;
	DL_TRY(dl_p_strdup(p, p->tok.text, p->tok.len, &t.name));
	t.name_len = p->tok.len;
	t.form = DL_TYPE_SUBSET;
	DL_TRY(dl_p_type_of1(p, &t, base));
	DL_TRY(dl_p_advance(p));
	return dl_p_add_type(p, &t);
}

/*
 * The value of an I/O parameter, as Souffle reads it: a string, or a bare
 * word (IO=file, headers=true, delimiter=BOB).  *out is NUL-terminated, in
 * the arena.
 */
static maelys_datalog_status_t
dl_p_io_value(struct dl_parser *p, const char **out, size_t *len)
{
	if (p->tok.kind == DL_TOK_STRING) {
		*out = p->tok.text;
		*len = p->tok.len;
		return MAELYS_DATALOG_STATUS_OK;
	}
	if (p->tok.kind != DL_TOK_IDENT)
		return dl_p_error(p, "a string or a word");
	*len = p->tok.len;
	return dl_p_strdup(p, p->tok.text, p->tok.len, out);
}

/* true or false, for headers= and rfc4180=. */
static maelys_datalog_status_t
dl_p_io_flag(struct dl_parser *p, const char *v, size_t n, bool *out)
{
	if (n == 4 && memcmp(v, "true", 4) == 0)
		*out = true;
	else if (n == 5 && memcmp(v, "false", 5) == 0)
		*out = false;
	else
		return dl_p_error(p, "true or false");
	return MAELYS_DATALOG_STATUS_OK;
}

/* (key=value, ...) after .input/.output: IO, filename, delimiter, headers,
 * rfc4180 (Souffle's CSV options); a value quoted or not. */
static maelys_datalog_status_t
dl_p_io_params(struct dl_parser *p, struct dl_ast_directive *d)
{
	DL_TRY(dl_p_advance(p)); /* ( */
	while (p->tok.kind != DL_TOK_RPAREN) {
		struct dl_token key = p->tok;
		const char *v = NULL;
		size_t n = 0;

		if (key.kind != DL_TOK_IDENT)
			return dl_p_error(p, "a parameter name");
		DL_TRY(dl_p_advance(p));
		DL_TRY(dl_p_expect(p, DL_TOK_EQ));
		if (!dl_tok_is(&key, "IO") && !dl_tok_is(&key, "filename") &&
		    !dl_tok_is(&key, "delimiter") &&
		    !dl_tok_is(&key, "headers") && !dl_tok_is(&key, "rfc4180"))
			return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_PARSE,
					  p->source_name, key.pos,
					  "unsupported I/O parameter '%.*s' "
					  "(IO, filename, delimiter, headers, "
					  "rfc4180)",
					  (int)key.len, key.text);
		DL_TRY(dl_p_io_value(p, &v, &n));
		if (dl_tok_is(&key, "IO")) {
			if (n == 6 && memcmp(v, "stdout", 6) == 0)
				d->to_stdout = true;
			else if (!(n == 4 && memcmp(v, "file", 4) == 0))
				return dl_p_error(p, "IO=file or IO=stdout");
		} else if (dl_tok_is(&key, "filename")) {
			d->filename = v;
		} else if (dl_tok_is(&key, "delimiter")) {
			d->delimiter = v;
		} else if (dl_tok_is(&key, "headers")) {
			DL_TRY(dl_p_io_flag(p, v, n, &d->headers));
		} else {
			DL_TRY(dl_p_io_flag(p, v, n, &d->rfc4180));
		}
		DL_TRY(dl_p_advance(p));
		if (p->tok.kind != DL_TOK_COMMA)
			break;
		DL_TRY(dl_p_advance(p));
	}
	return dl_p_expect(p, DL_TOK_RPAREN);
}

static maelys_datalog_status_t
dl_p_io(struct dl_parser *p, maelys_datalog_directive_kind_t kind)
{
	for (;;) {
		struct dl_ast_directive d;

		memset(&d, 0, sizeof d);
		d.kind = kind;
		if (p->tok.kind != DL_TOK_IDENT)
			return dl_p_error(p, "a relation name");
		DL_TRY(dl_comp_map(p->comp, DL_COMP_RELATION, &p->ast->arena,
				   &p->tok.text, &p->tok.len, p->tok.pos,
				   p->diag));
		d.pos = p->tok.pos;
		DL_TRY(dl_p_strdup(p, p->tok.text, p->tok.len, &d.name));
		d.name_len = p->tok.len;
		DL_TRY(dl_p_advance(p));
		if (p->tok.kind == DL_TOK_LPAREN &&
		    kind != MAELYS_DATALOG_DIRECTIVE_PRINTSIZE)
			DL_TRY(dl_p_io_params(p, &d));
		if (dl_vec_reserve((void **)&p->ast->directives,
				   &p->ast->cap_directives,
				   p->ast->ndirectives + 1, sizeof d) != 0)
			return dl_p_nomem(p);
		p->ast->directives[p->ast->ndirectives++] = d;
		if (p->tok.kind != DL_TOK_COMMA)
			return MAELYS_DATALOG_STATUS_OK;
		DL_TRY(dl_p_advance(p));
	}
}

/* .limitsize rel(n=N): Souffle's bound on a relation's size, N a
 * non-negative integer. */
static maelys_datalog_status_t
dl_p_limitsize(struct dl_parser *p)
{
	struct dl_ast_limit l;

	memset(&l, 0, sizeof l);
	if (p->tok.kind != DL_TOK_IDENT)
		return dl_p_error(p, "a relation name");
	DL_TRY(dl_comp_map(p->comp, DL_COMP_RELATION, &p->ast->arena,
			   &p->tok.text, &p->tok.len, p->tok.pos, p->diag));
	l.pos = p->tok.pos;
	DL_TRY(dl_p_strdup(p, p->tok.text, p->tok.len, &l.name));
	l.name_len = p->tok.len;
	DL_TRY(dl_p_advance(p));
	DL_TRY(dl_p_expect(p, DL_TOK_LPAREN));
	if (!dl_tok_is(&p->tok, "n"))
		return dl_p_error(p, "n=SIZE");
	DL_TRY(dl_p_advance(p));
	DL_TRY(dl_p_expect(p, DL_TOK_EQ));
	if (p->tok.kind != DL_TOK_INTEGER || p->tok.numkind == DL_NUM_FLOAT ||
	    p->tok.integer < 0)
		return dl_p_error(p, "a size (an integer, 0 or more)");
	l.n = (uint64_t)p->tok.integer;
	DL_TRY(dl_p_advance(p));
	DL_TRY(dl_p_expect(p, DL_TOK_RPAREN));
	if (dl_vec_reserve((void **)&p->ast->limits, &p->ast->cap_limits,
			   p->ast->nlimits + 1, sizeof l) != 0)
		return dl_p_nomem(p);
	p->ast->limits[p->ast->nlimits++] = l;
	return MAELYS_DATALOG_STATUS_OK;
}

/* .pragma "key" ["value"]: Souffle's settings of its own evaluation
 * (magic-transform, provenance, jobs, profile, ...).  None changes the
 * answers of a program run here; each is kept to be warned of, and
 * ignored.  (fact-dir and output-dir are the runner's -F and -D.) */
static maelys_datalog_status_t
dl_p_pragma(struct dl_parser *p, struct dl_pos at)
{
	struct dl_token key = p->tok;

	if (p->tok.kind != DL_TOK_STRING)
		return dl_p_error(p, "a string after .pragma");
	key.pos = at; /* warned of at the directive */
	DL_TRY(dl_p_ignore(p, ".pragma", &key));
	DL_TRY(dl_p_advance(p));
	if (p->tok.kind == DL_TOK_STRING)
		DL_TRY(dl_p_advance(p));
	return MAELYS_DATALOG_STATUS_OK;
}

/* The '}' that ends a component's body (whatever kind the lexer gives
 * braces) */
static bool
dl_p_is_rbrace(const struct dl_token *t)
{
	return t->kind != DL_TOK_STRING && t->kind != DL_TOK_EOF &&
	       t->len == 1 && t->text[0] == '}';
}

/* Goes on reading at byte `off` (at `pos`): past what components.c has
 * read itself. */
static maelys_datalog_status_t
dl_p_seek(struct dl_parser *p, size_t off, struct dl_pos pos)
{
	p->lx.off = off;
	p->lx.pos = pos;
	p->has_next = false;
	p->prev_end = off;
	return dl_lexer_next(&p->lx, &p->tok);
}

/* .comp, .init, .override (Souffle's components, components.c); d is the
 * directive, p->tok the token after it. */
static maelys_datalog_status_t
dl_p_component(struct dl_parser *p, const struct dl_token *d)
{
	struct dl_pos end_pos;
	size_t end;

	if (!p->ast->souffle)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_PARSE,
				  p->source_name, d->pos,
				  "unsupported directive .%.*s (components "
				  "are Souffle's: load the program in its "
				  "dialect, --souffle)",
				  (int)d->len, d->text);
	if (p->comp != NULL) {
		/* in an instance's body: read with the definition */
		if (!dl_comp_skip(p->comp, d->start, &end, &end_pos))
			return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_PARSE,
					  p->source_name, d->pos,
					  ".%.*s out of place in a component",
					  (int)d->len, d->text);
		return dl_p_seek(p, end, end_pos);
	}
	if (d->text[0] == 'o')
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_PARSE,
				  p->source_name, d->pos,
				  ".override outside a component (it says "
				  "which inherited relation a component "
				  "defines anew)");
	if (d->text[0] == 'c')
		DL_TRY(dl_comp_define(p->ast, p->source_name, p->tok.start,
				      p->tok.pos, d->pos, &end, &end_pos,
				      p->diag));
	else
		DL_TRY(dl_comp_init(p->ast, p->source_name, p->tok.start,
				    p->tok.pos, d->pos, &end, &end_pos,
				    p->diag));
	return dl_p_seek(p, end, end_pos);
}

static maelys_datalog_status_t
dl_p_directive(struct dl_parser *p)
{
	struct dl_token d = p->tok;

	DL_TRY(dl_p_advance(p));
	if (d.len == 4 && memcmp(d.text, "decl", 4) == 0)
		return dl_p_decl(p);
	if (d.len == 4 && memcmp(d.text, "type", 4) == 0)
		return dl_p_type(p);
	if (d.len == 11 && memcmp(d.text, "number_type", 11) == 0)
		return dl_p_old_type(p, "number");
	if (d.len == 11 && memcmp(d.text, "symbol_type", 11) == 0)
		return dl_p_old_type(p, "symbol");
	if (d.len == 5 && memcmp(d.text, "input", 5) == 0)
		return dl_p_io(p, MAELYS_DATALOG_DIRECTIVE_INPUT);
	if (d.len == 6 && memcmp(d.text, "output", 6) == 0)
		return dl_p_io(p, MAELYS_DATALOG_DIRECTIVE_OUTPUT);
	if (d.len == 9 && memcmp(d.text, "printsize", 9) == 0)
		return dl_p_io(p, MAELYS_DATALOG_DIRECTIVE_PRINTSIZE);
	if (d.len == 6 && memcmp(d.text, "pragma", 6) == 0)
		return dl_p_pragma(p, d.pos);
	if (d.len == 9 && memcmp(d.text, "limitsize", 9) == 0)
		return dl_p_limitsize(p);
	if ((d.len == 4 && (memcmp(d.text, "comp", 4) == 0 ||
			    memcmp(d.text, "init", 4) == 0)) ||
	    (d.len == 8 && memcmp(d.text, "override", 8) == 0))
		return dl_p_component(p, &d);
	return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_PARSE, p->source_name,
			  d.pos, "unsupported directive .%.*s", (int)d.len,
			  d.text);
}

maelys_datalog_status_t
dl_parse(struct dl_ast *ast, const char *src, size_t len, bool souffle,
	 const char *source_name, maelys_datalog_diagnostic_t *diag)
{
	struct dl_parser p;

	memset(ast, 0, sizeof *ast);
	dl_arena_init(&ast->arena);
	ast->souffle = souffle;
	ast->src = src;
	ast->src_len = len;
	memset(&p, 0, sizeof p);
	p.ast = ast;
	p.source_name = source_name;
	p.diag = diag;
	dl_lexer_init(&p.lx, src, len, souffle, &ast->arena, source_name, diag);
	DL_TRY(dl_p_advance(&p));
	while (p.tok.kind != DL_TOK_EOF) {
		if (p.tok.kind == DL_TOK_DIRECTIVE)
			DL_TRY(dl_p_directive(&p));
		else if (p.tok.kind == DL_TOK_IDENT)
			DL_TRY(dl_p_clause(&p));
		else
			return dl_p_error(&p, "a clause or a directive");
	}
	DL_TRY(dl_comp_finish(ast, source_name, diag));
	DL_TRY(dl_relq_add_eqrel_rules(ast, source_name, diag));
	DL_TRY(dl_relq_rewrite_subsumption(ast, source_name, diag));
	return dl_relq_unfold_inline(ast, diag);
}

maelys_datalog_status_t
dl_parse_body(struct dl_ast *ast, struct dl_comp_scope *scope, size_t start,
	      struct dl_pos pos, const char *source_name,
	      maelys_datalog_diagnostic_t *diag)
{
	struct dl_parser p;

	memset(&p, 0, sizeof p);
	p.ast = ast;
	p.source_name = source_name;
	p.diag = diag;
	p.comp = scope;
	dl_lexer_init(&p.lx, ast->src, ast->src_len, ast->souffle, &ast->arena,
		      source_name, diag);
	p.lx.off = start;
	p.lx.pos = pos;
	DL_TRY(dl_p_advance(&p));
	/* the definition was read to its '}' (components.c) */
	while (!dl_p_is_rbrace(&p.tok)) {
		size_t from = ast->nclauses;

		if (p.tok.kind == DL_TOK_DIRECTIVE)
			DL_TRY(dl_p_directive(&p));
		else if (p.tok.kind == DL_TOK_IDENT)
			DL_TRY(dl_p_clause(&p));
		else
			return dl_p_error(&p, "a clause, a directive or '}'");
		ast->nclauses =
		    dl_comp_filter(scope, ast->clauses, from, ast->nclauses);
	}
	return MAELYS_DATALOG_STATUS_OK;
}

void
dl_ast_free(struct dl_ast *ast)
{
	dl_free(ast->clauses);
	dl_free(ast->decls);
	dl_free(ast->directives);
	dl_free(ast->limits);
	dl_free(ast->types);
	dl_free(ast->ignored);
	dl_free(ast->rtypes);
	dl_arena_free(&ast->arena);
	memset(ast, 0, sizeof *ast);
}
