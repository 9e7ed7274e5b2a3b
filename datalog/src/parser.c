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
 *              | "(" expr ")"
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

#include "dl_lexer.h"
#include "dl_limits.h"
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
	    {"to_number", DL_ARITH_TO_NUMBER},
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
	case DL_TOK_IDENT:
		if (dl_p_conversion(&p->tok) != DL_CONV_NONE)
			return dl_p_convert(p, t);
		if (p->tok.len == 1 && p->tok.text[0] == '_') {
			t->kind = DL_TERM_ANON;
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
	memset(t, 0, sizeof *t);
	t->kind = DL_TERM_EXPR;
	t->expr = e;
	t->pos = pos;
	t->start = start;
	t->end = p->prev_end;
	return MAELYS_DATALOG_STATUS_OK;
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

/* name [ "(" terms ")" ]; p->tok is the name. */
static maelys_datalog_status_t
dl_p_atom(struct dl_parser *p, struct dl_ast_atom *a, bool need_parens)
{
	struct dl_ast_term args[MAELYS_DATALOG_MAX_ARITY];
	size_t n = 0;

	memset(a, 0, sizeof *a);
	if (p->tok.kind != DL_TOK_IDENT)
		return dl_p_error(p, "a predicate name");
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
	if ((b == DL_BUILTIN_RE_MATCH || b == DL_BUILTIN_RE_FULLMATCH) &&
	    lit->atom.args[1].kind != DL_TERM_SYMBOL)
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
	if (dl_tok_is(&p->tok, "not")) {
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
		bool unary;

		DL_TRY(dl_p_unary_word(p, &aop, &unary));
		DL_TRY(dl_p_peek(p, &nx));
		if (nx->kind == DL_TOK_LPAREN && !unary &&
		    dl_p_conversion(&p->tok) == DL_CONV_NONE)
			return dl_p_atom_or_call(p, lit);
		if (!unary && !dl_is_cmp(nx->kind, &op) &&
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

static maelys_datalog_status_t
dl_p_clause(struct dl_parser *p)
{
	struct dl_ast_lit body[DL_BODY_MAX];
	struct dl_ast_clause c;
	size_t n = 0;

	memset(&c, 0, sizeof c);
	c.pos = p->tok.pos;
	c.start = p->tok.start;
	DL_TRY(dl_p_atom(p, &c.head, false));
	if (p->tok.kind == DL_TOK_COMMA || p->tok.kind == DL_TOK_OTHER)
		return dl_p_error(p, "':-' or '.' (a clause has one head)");
	if (p->tok.kind == DL_TOK_IF) {
		DL_TRY(dl_p_advance(p));
		for (;;) {
			if (n == DL_BODY_MAX)
				return dl_fail_at(
				    p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				    p->source_name, p->tok.pos,
				    "rule body longer than %zu literals",
				    DL_BODY_MAX);
			DL_TRY(dl_p_literal(p, &body[n]));
			n++;
			if (p->tok.kind != DL_TOK_COMMA)
				break;
			DL_TRY(dl_p_advance(p));
		}
	}
	if (p->tok.kind != DL_TOK_DOT)
		return dl_p_error(p, n == 0 ? "':-' or '.'" : "',' or '.'");
	c.end = p->tok.end;
	DL_TRY(dl_p_advance(p));
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

/* A type's name (a primitive or a .type, declared anywhere: the checker
 * resolves it, types.c), copied into the arena. */
static maelys_datalog_status_t
dl_p_type_name(struct dl_parser *p, const char **out, struct dl_pos *pos)
{
	if (p->tok.kind != DL_TOK_IDENT)
		return dl_p_error(p, "a type name");
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

static maelys_datalog_status_t
dl_p_decl(struct dl_parser *p)
{
	struct dl_ast_decl d;
	/* the columns' names, each once (Souffle refuses a name twice) */
	struct dl_token names[MAELYS_DATALOG_MAX_ARITY];
	/* `.decl a, b(x:number)`: the relations declared alike */
	struct dl_token rels[DL_DECL_RELATIONS_MAX];
	size_t k, nrels = 0;

	memset(&d, 0, sizeof d);
	for (;;) {
		if (p->tok.kind != DL_TOK_IDENT)
			return dl_p_error(p, "a predicate name after .decl");
		if (nrels == DL_DECL_RELATIONS_MAX)
			return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
					  p->source_name, p->tok.pos,
					  "more than %d relations in one .decl",
					  DL_DECL_RELATIONS_MAX);
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
		if (dl_tok_is(&p->tok, "btree") || dl_tok_is(&p->tok, "brie") ||
		    dl_tok_is(&p->tok, "btree_delete")) {
			DL_TRY(dl_p_advance(p));
			continue;
		}
		/* magic-set qualifiers: how Souffle evaluates the relation,
		 * not what it holds; accepted, and warned of as ignored.
		 * (inline is not: Souffle refuses an inlined relation in a
		 * cycle, negated in some places or output, and those checks
		 * must come with it.) */
		if (dl_tok_is(&p->tok, "magic") ||
		    dl_tok_is(&p->tok, "no_magic")) {
			DL_TRY(dl_p_ignore(p, "qualifier", &p->tok));
			DL_TRY(dl_p_advance(p));
			continue;
		}
		if (dl_tok_is(&p->tok, "eqrel") ||
		    dl_tok_is(&p->tok, "inline") ||
		    dl_tok_is(&p->tok, "no_inline") ||
		    dl_tok_is(&p->tok, "overridable") ||
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
	t.pos = p->tok.pos;
	DL_TRY(dl_p_strdup(p, p->tok.text, p->tok.len, &t.name));
	t.name_len = p->tok.len;
	DL_TRY(dl_p_advance(p));
	if (p->tok.kind != DL_TOK_SUBTYPE && p->tok.kind != DL_TOK_EQ) {
		/* `.type Name` alone: Souffle's old symbol type */
		if (p->tok.kind != DL_TOK_DIRECTIVE &&
		    p->tok.kind != DL_TOK_EOF)
			return dl_p_error(p, "'<:' or '='");
		t.form = DL_TYPE_SUBSET;
		DL_TRY(dl_p_type_of1(p, &t, "symbol"));
		return dl_p_add_type(p, &t);
	}
	t.form = p->tok.kind == DL_TOK_SUBTYPE ? DL_TYPE_SUBSET : DL_TYPE_ALIAS;
	DL_TRY(dl_p_advance(p));
	if (p->tok.kind == DL_TOK_OTHER)
		return dl_p_error(p, "a type name (record and ADT types are "
				     "not supported)");
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
	if (p->tok.kind == DL_TOK_OTHER)
		return dl_p_error(p, "a declaration (record and ADT types are "
				     "not supported)");
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

/* (key=value, ...) after .input/.output: IO, filename, delimiter. */
static maelys_datalog_status_t
dl_p_io_params(struct dl_parser *p, struct dl_ast_directive *d)
{
	DL_TRY(dl_p_advance(p)); /* ( */
	while (p->tok.kind != DL_TOK_RPAREN) {
		struct dl_token key = p->tok;

		if (key.kind != DL_TOK_IDENT)
			return dl_p_error(p, "a parameter name");
		DL_TRY(dl_p_advance(p));
		DL_TRY(dl_p_expect(p, DL_TOK_EQ));
		if (dl_tok_is(&key, "IO")) {
			if (dl_tok_is(&p->tok, "stdout"))
				d->to_stdout = true;
			else if (!dl_tok_is(&p->tok, "file"))
				return dl_p_error(p, "IO=file or IO=stdout");
		} else if (dl_tok_is(&key, "filename") ||
			   dl_tok_is(&key, "delimiter")) {
			if (p->tok.kind != DL_TOK_STRING)
				return dl_p_error(p, "a string");
			if (key.text[0] == 'f')
				d->filename = p->tok.text;
			else
				d->delimiter = p->tok.text;
		} else {
			return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_PARSE,
					  p->source_name, key.pos,
					  "unsupported I/O parameter '%.*s' "
					  "(IO, filename, delimiter)",
					  (int)key.len, key.text);
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
	return MAELYS_DATALOG_STATUS_OK;
}

void
dl_ast_free(struct dl_ast *ast)
{
	dl_free(ast->clauses);
	dl_free(ast->decls);
	dl_free(ast->directives);
	dl_free(ast->types);
	dl_free(ast->ignored);
	dl_arena_free(&ast->arena);
	memset(ast, 0, sizeof *ast);
}
