/* SPDX-License-Identifier: MIT */
/*
 * The lexer: policy bytes -> tokens with positions.  It knows both surface
 * syntaxes (the native dialect and Souffle's); they differ only in `%`
 * (a comment in ours, modulo in Souffle's) and `?` in identifiers
 * (Souffle).
 */
#ifndef DL_LEXER_H
#define DL_LEXER_H

#include "dl_diag.h"
#include "dl_mem.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum dl_tok_kind {
	DL_TOK_EOF = 0,
	DL_TOK_IDENT,     /* text, len */
	DL_TOK_STRING,    /* text, len: decoded, NUL-terminated, in the arena */
	DL_TOK_INTEGER,   /* integer */
	DL_TOK_DIRECTIVE, /* text, len: the name after '.' */
	DL_TOK_LPAREN,
	DL_TOK_RPAREN,
	DL_TOK_COMMA,
	DL_TOK_DOT,
	DL_TOK_COLON,
	DL_TOK_IF, /* :- */
	DL_TOK_BANG,
	DL_TOK_EQ,
	DL_TOK_NE,
	DL_TOK_LT,
	DL_TOK_LE,
	DL_TOK_GT,
	DL_TOK_GE,
	DL_TOK_SUBTYPE, /* <: */
	DL_TOK_PLUS,
	DL_TOK_MINUS, /* not before a digit: -5 is an INTEGER */
	DL_TOK_STAR,
	DL_TOK_SLASH,
	DL_TOK_PERCENT, /* Souffle's syntax only: a comment in ours */
	DL_TOK_CARET,
	DL_TOK_OTHER,   /* an operator we know but do not support: text */
};

struct dl_token {
	enum dl_tok_kind kind;
	const char *text;
	size_t len;
	int64_t integer;
	struct dl_pos pos;
	size_t start,
	    end; /* bytes [start, end) of the source it was read from */
	/* INTEGER: enum dl_numkind, how it was written (5, 5u, 5.0); a
	 * float's integer holds the double's bits (dl_numeric.h) */
	uint8_t numkind;
};

struct dl_lexer {
	const char *src;
	size_t len, off;
	struct dl_pos pos;
	bool souffle;
	/* decoded strings; NULL: strings are not decoded, a string token's
	 * text is its source bytes (dl_lexer_normalize) */
	struct dl_arena *arena;
	const char *source_name;
	maelys_datalog_diagnostic_t *diag;
};

void dl_lexer_init(struct dl_lexer *lx, const char *src, size_t len,
		   bool souffle, struct dl_arena *arena,
		   const char *source_name, maelys_datalog_diagnostic_t *diag);
/* Reads the next token.  Returns OK or PARSE / LIMIT / NO_MEMORY with the
 * diagnostic filled. */
maelys_datalog_status_t dl_lexer_next(struct dl_lexer *lx,
				      struct dl_token *tok);

/* Whether `src` uses Souffle's typed declarations (`.type`, or a `.decl`
 * with a `name:type` column): MAELYS_DATALOG_LOAD_DETECT_SYNTAX. */
bool dl_lexer_detect_souffle(const char *src, size_t len);

const char *dl_tok_describe(enum dl_tok_kind kind);

/* The text of src[start, end), a span the parser has read without error,
 * as the rules API shows it: its tokens as written, comments dropped, one
 * space wherever blanks or comments stood between two tokens.  Writes at
 * most cap - 1 bytes and a NUL into out (cap >= 4); a longer text is cut at
 * a character boundary and ends in "...".  Returns the length written. */
size_t dl_lexer_normalize(const char *src, size_t len, bool souffle,
			  size_t start, size_t end, char *out, size_t cap);

#endif /* DL_LEXER_H */
