/* SPDX-License-Identifier: MIT */
/*
 * Tokenising policy text.  Bytes are classified with our own ASCII tests,
 * never <ctype.h> (locale-dependent, undefined for negative char).  Strings
 * are decoded here (escapes \" \\ \n \t only), so the parser sees values.
 */
#include "dl_lexer.h"

#include "dl_limits.h"
#include "dl_numeric.h"

#include <string.h>

static bool
dl_is_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool
dl_is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

void
dl_lexer_init(struct dl_lexer *lx, const char *src, size_t len, bool souffle,
	      struct dl_arena *arena, const char *source_name,
	      maelys_datalog_diagnostic_t *diag)
{
	lx->src = src;
	lx->len = len;
	lx->off = 0;
	lx->pos.line = 1;
	lx->pos.column = 1;
	lx->souffle = souffle;
	lx->arena = arena;
	lx->source_name = source_name;
	lx->diag = diag;
}

static int
dl_peek(const struct dl_lexer *lx, size_t ahead)
{
	if (lx->len - lx->off <= ahead)
		return -1;
	return (unsigned char)lx->src[lx->off + ahead];
}

static void
dl_advance(struct dl_lexer *lx, size_t n)
{
	while (n-- > 0 && lx->off < lx->len) {
		if (lx->src[lx->off] == '\n') {
			lx->pos.line++;
			lx->pos.column = 1;
		} else {
			lx->pos.column++;
		}
		lx->off++;
	}
}

static maelys_datalog_status_t
dl_lex_error(struct dl_lexer *lx, struct dl_pos pos, const char *what)
{
	return dl_fail_at(lx->diag, MAELYS_DATALOG_STATUS_PARSE,
			  lx->source_name, pos, "%s", what);
}

/* Skips blanks and comments. */
static maelys_datalog_status_t
dl_skip_space(struct dl_lexer *lx)
{
	for (;;) {
		int c = dl_peek(lx, 0);

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
		    c == '\f' || c == '\v') {
			dl_advance(lx, 1);
		} else if ((c == '/' && dl_peek(lx, 1) == '/') ||
			   (c == '%' && !lx->souffle)) {
			while (lx->off < lx->len && lx->src[lx->off] != '\n')
				dl_advance(lx, 1);
		} else if (c == '/' && dl_peek(lx, 1) == '*') {
			struct dl_pos start = lx->pos;

			dl_advance(lx, 2);
			for (;;) {
				if (lx->off >= lx->len)
					return dl_lex_error(
					    lx, start,
					    "unterminated /* comment");
				if (dl_peek(lx, 0) == '*' &&
				    dl_peek(lx, 1) == '/') {
					dl_advance(lx, 2);
					break;
				}
				dl_advance(lx, 1);
			}
		} else {
			return MAELYS_DATALOG_STATUS_OK;
		}
	}
}

static maelys_datalog_status_t
dl_lex_string(struct dl_lexer *lx, struct dl_token *tok)
{
	size_t i, n = 0, cap;
	char *buf;

	/* first pass: find the end and the decoded length */
	for (i = lx->off + 1;; i++) {
		unsigned char c;

		if (i >= lx->len)
			return dl_lex_error(lx, tok->pos,
					    "unterminated string");
		c = (unsigned char)lx->src[i];
		if (c == '"')
			break;
		if (c == '\n')
			return dl_lex_error(lx, tok->pos,
					    "unterminated string (newline "
					    "inside quotes; write \\n)");
		if (c == '\\')
			i++;
		n++;
	}
	if (n > DL_STRING_LEN_MAX)
		return dl_fail_at(lx->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  lx->source_name, tok->pos,
				  "string of %zu bytes is longer than the "
				  "limit of %zu",
				  n, (size_t)DL_STRING_LEN_MAX);
	if (lx->arena == NULL) { /* raw: the quotes and what they hold */
		tok->kind = DL_TOK_STRING;
		tok->len = i + 1 - lx->off;
		dl_advance(lx, tok->len);
		return MAELYS_DATALOG_STATUS_OK;
	}
	cap = n + 1;
	buf = dl_arena_alloc(lx->arena, cap);
	if (buf == NULL)
		return dl_fail(lx->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
			       "out of memory reading a string");
	dl_advance(lx, 1);
	n = 0;
	for (;;) {
		int c = dl_peek(lx, 0);

		if (c == '"')
			break;
		if (c == 0)
			return dl_lex_error(lx, lx->pos,
					    "NUL byte inside a string (write "
					    "it as data, not policy)");
		if (c == '\\') {
			struct dl_pos at = lx->pos;
			int e = dl_peek(lx, 1);

			if (e == '"' || e == '\\')
				buf[n++] = (char)e;
			else if (e == 'n')
				buf[n++] = '\n';
			else if (e == 't')
				buf[n++] = '\t';
			else
				return dl_lex_error(lx, at,
						    "unknown escape in string "
						    "(only \\\" \\\\ \\n \\t)");
			dl_advance(lx, 2);
			continue;
		}
		buf[n++] = (char)c;
		dl_advance(lx, 1);
	}
	dl_advance(lx, 1); /* closing quote */
	buf[n] = '\0';
	tok->kind = DL_TOK_STRING;
	tok->text = buf;
	tok->len = n;
	return MAELYS_DATALOG_STATUS_OK;
}

static int
dl_digit_value(int c, unsigned radix)
{
	unsigned d;

	if (c >= '0' && c <= '9')
		d = (unsigned)(c - '0');
	else if (c >= 'a' && c <= 'f')
		d = (unsigned)(c - 'a' + 10);
	else if (c >= 'A' && c <= 'F')
		d = (unsigned)(c - 'A' + 10);
	else
		return -1;
	return d < radix ? (int)d : -1;
}

/* 0x1F, 0b101: the 64 bits as written, read as two's complement (as
 * Souffle reads 0xFFFFFFFF as -1 in its 32-bit build). */
static maelys_datalog_status_t
dl_lex_radix(struct dl_lexer *lx, struct dl_token *tok, bool neg)
{
	unsigned radix = dl_peek(lx, 1) == 'x' || dl_peek(lx, 1) == 'X' ? 16 : 2;
	unsigned bits = radix == 16 ? 4 : 1;
	uint64_t v = 0;
	int d;

	dl_advance(lx, 2);
	while ((d = dl_digit_value(dl_peek(lx, 0), radix)) >= 0) {
		/* a set bit would be shifted out */
		if (v >> (64 - bits) != 0)
			return dl_fail_at(lx->diag, MAELYS_DATALOG_STATUS_LIMIT,
					  lx->source_name, tok->pos,
					  "integer out of the 64-bit range");
		v = (v << bits) | (unsigned)d;
		dl_advance(lx, 1);
	}
	tok->kind = DL_TOK_INTEGER;
	tok->integer = (int64_t)(neg ? 0u - v : v);
	return MAELYS_DATALOG_STATUS_OK;
}

/* The decimal digits at the lexer's position. */
static size_t
dl_lex_digits(const struct dl_lexer *lx)
{
	size_t n = 0;

	while (dl_peek(lx, n) >= 0 && dl_is_digit((unsigned char)dl_peek(lx, n)))
		n++;
	return n;
}

/* A 'u' `ahead` bytes on that ends the literal (5u, 0xffu): unsigned. */
static bool
dl_lex_unsigned_suffix(const struct dl_lexer *lx, size_t ahead)
{
	int c = dl_peek(lx, ahead + 1);

	return dl_peek(lx, ahead) == 'u' &&
	       !(c >= 0 && (dl_is_alpha((unsigned char)c) ||
			    dl_is_digit((unsigned char)c)));
}

/* The length of an IPv4 literal at the lexer's position (four runs of
 * digits joined by '.': 192.168.0.1), or 0. */
static size_t
dl_lex_ipv4_span(const struct dl_lexer *lx)
{
	size_t n = 0, digits;
	int part;

	for (part = 0; part < 4; part++) {
		if (part > 0) {
			if (dl_peek(lx, n) != '.')
				return 0;
			n++;
		}
		for (digits = 0; dl_peek(lx, n) >= 0 &&
				 dl_is_digit((unsigned char)dl_peek(lx, n));
		     digits++)
			n++;
		if (digits == 0)
			return 0;
	}
	return n;
}

/* 10.0.0.1 (after an optional '-', already consumed when neg): Souffle's
 * IPv4 literal, the number (a << 24) + (b << 16) + (c << 8) + d as a
 * 32-bit signed int, as its scanner computes it (255.255.255.255 is -1);
 * a part above 255 is an error. */
static maelys_datalog_status_t
dl_lex_ipv4(struct dl_lexer *lx, struct dl_token *tok, bool neg, size_t n)
{
	uint32_t ip = 0, part = 0;
	size_t k;

	for (k = 0; k <= n; k++) {
		int c = k < n ? dl_peek(lx, k) : '.';

		if (c == '.') {
			ip = (ip << 8) | part;
			part = 0;
			continue;
		}
		part = part * 10 + (uint32_t)(c - '0');
		if (part > 255)
			return dl_lex_error(lx, tok->pos,
					    "IPv4 literal out of range (a part "
					    "above 255)");
	}
	dl_advance(lx, n);
	if (dl_peek(lx, 0) >= 0 && (dl_is_alpha((unsigned char)dl_peek(lx, 0)) ||
				    dl_is_digit((unsigned char)dl_peek(lx, 0))))
		return dl_lex_error(lx, tok->pos,
				    "a number runs into a name (write a space "
				    "between them)");
	tok->kind = DL_TOK_INTEGER;
	tok->numkind = DL_NUM_POLY;
	/* two's complement, as the int Souffle computes it in */
	tok->integer = (int64_t)(int32_t)ip;
	if (neg)
		tok->integer = -tok->integer;
	return MAELYS_DATALOG_STATUS_OK;
}

/* The length of a float literal at the lexer's position, or 0. */
static size_t
dl_lex_float_span(const struct dl_lexer *lx)
{
	return dl_float_span(lx->src + lx->off, lx->len - lx->off);
}

/* 1.5, 2.0e-3 (after an optional '-', already consumed when neg): the
 * double's bits in tok->integer. */
static maelys_datalog_status_t
dl_lex_float(struct dl_lexer *lx, struct dl_token *tok, bool neg)
{
	size_t n = dl_lex_float_span(lx);
	double d;

	if (!dl_float_read(lx->src + lx->off, n, &d))
		return dl_fail_at(lx->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  lx->source_name, tok->pos,
				  "float literal out of range or longer than "
				  "%d bytes",
				  DL_FLOAT_TEXT_MAX);
	dl_advance(lx, n);
	if (dl_peek(lx, 0) >= 0 && dl_is_alpha((unsigned char)dl_peek(lx, 0)))
		return dl_lex_error(lx, tok->pos,
				    "a number runs into a name (write a space "
				    "between them)");
	tok->kind = DL_TOK_INTEGER;
	tok->numkind = DL_NUM_FLOAT;
	tok->integer = dl_float_bits(neg ? -d : d);
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_lex_integer(struct dl_lexer *lx, struct dl_token *tok)
{
	bool neg = false;
	uint64_t v = 0;
	uint64_t limit;
	int c1;

	if (dl_peek(lx, 0) == '-') {
		neg = true;
		dl_advance(lx, 1);
	}
	c1 = dl_peek(lx, 1);
	if (dl_peek(lx, 0) == '0' &&
	    (((c1 == 'x' || c1 == 'X') &&
	      dl_digit_value(dl_peek(lx, 2), 16) >= 0) ||
	     ((c1 == 'b' || c1 == 'B') &&
	      dl_digit_value(dl_peek(lx, 2), 2) >= 0))) {
		maelys_datalog_status_t st = dl_lex_radix(lx, tok, neg);

		if (st != MAELYS_DATALOG_STATUS_OK)
			return st;
		if (!neg && dl_lex_unsigned_suffix(lx, 0)) {
			tok->numkind = DL_NUM_UNSIGNED;
			dl_advance(lx, 1);
		}
		if (dl_peek(lx, 0) >= 0 &&
		    (dl_is_alpha((unsigned char)dl_peek(lx, 0)) ||
		     dl_is_digit((unsigned char)dl_peek(lx, 0))))
			return dl_lex_error(lx, tok->pos,
					    "a number runs into a name (write "
					    "a space between them)");
		return MAELYS_DATALOG_STATUS_OK;
	}
	if (dl_lex_ipv4_span(lx) > 0)
		return dl_lex_ipv4(lx, tok, neg, dl_lex_ipv4_span(lx));
	if (dl_lex_float_span(lx) > 0)
		return dl_lex_float(lx, tok, neg);
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	if (!neg && dl_lex_unsigned_suffix(lx, dl_lex_digits(lx))) {
		/* 5u: an unsigned literal, up to 2^64 - 1 */
		limit = UINT64_MAX;
		tok->numkind = DL_NUM_UNSIGNED;
	}
	while (dl_peek(lx, 0) >= 0 &&
	       dl_is_digit((unsigned char)dl_peek(lx, 0))) {
		unsigned d = (unsigned)(dl_peek(lx, 0) - '0');

		if (v > (limit - d) / 10)
			return dl_fail_at(lx->diag, MAELYS_DATALOG_STATUS_LIMIT,
					  lx->source_name, tok->pos,
					  "integer out of the 64-bit range");
		v = v * 10 + d;
		dl_advance(lx, 1);
	}
	if (tok->numkind == DL_NUM_UNSIGNED)
		dl_advance(lx, 1); /* the u */
	if (dl_peek(lx, 0) >= 0 && dl_is_alpha((unsigned char)dl_peek(lx, 0)))
		return dl_lex_error(lx, tok->pos,
				    "a number runs into a name (write a space "
				    "between them)");
	tok->kind = DL_TOK_INTEGER;
	if (neg)
		tok->integer =
		    v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	else
		tok->integer = (int64_t)v;
	return MAELYS_DATALOG_STATUS_OK;
}

static bool
dl_ident_char(const struct dl_lexer *lx, int c)
{
	if (c < 0)
		return false;
	return dl_is_alpha((unsigned char)c) || dl_is_digit((unsigned char)c) ||
	       (lx->souffle && c == '?');
}

static size_t
dl_ident_length(const struct dl_lexer *lx, size_t ahead)
{
	size_t n = 0;

	while (dl_ident_char(lx, dl_peek(lx, ahead + n)))
		n++;
	return n;
}

/* Souffle's qualified name `inst.rel` (a component's member): the
 * identifier goes on over a '.' written right between two names, so
 * `a.b.c` is one token.  A clause's final '.' is never followed by a
 * letter without a blank in the programs of either dialect's users. */
static size_t
dl_qualified_length(const struct dl_lexer *lx)
{
	size_t n = dl_ident_length(lx, 0);
	int c;

	while (lx->souffle && dl_peek(lx, n) == '.' &&
	       (c = dl_peek(lx, n + 1)) >= 0 &&
	       (dl_is_alpha((unsigned char)c) || c == '?'))
		n += 1 + dl_ident_length(lx, n + 1);
	return n;
}

/* The names after '.' that start a directive. */
static const char *const dl_directive_names[] = {
    "decl",
    "input",
    "output",
    "printsize",
    "limitsize",
    "type",
    "number_type",
    "symbol_type",
    /* known to Souffle, refused by the parser with a clear message */
    "comp",
    "init",
    "functor",
    "pragma",
    "plan",
    "override",
    "include",
    "once",
};

static bool
dl_is_directive(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof dl_directive_names / sizeof *dl_directive_names;
	     i++) {
		if (strlen(dl_directive_names[i]) == n &&
		    memcmp(dl_directive_names[i], s, n) == 0)
			return true;
	}
	return false;
}

static maelys_datalog_status_t
dl_lexer_read(struct dl_lexer *lx, struct dl_token *tok)
{
	maelys_datalog_status_t st;
	int c, c1;

	memset(tok, 0, sizeof *tok);
	if ((st = dl_skip_space(lx)) != MAELYS_DATALOG_STATUS_OK)
		return st;
	tok->pos = lx->pos;
	tok->start = lx->off;
	tok->text = lx->src + lx->off;
	c = dl_peek(lx, 0);
	if (c < 0) {
		tok->kind = DL_TOK_EOF;
		return MAELYS_DATALOG_STATUS_OK;
	}
	c1 = dl_peek(lx, 1);
	if (dl_is_alpha((unsigned char)c) || (lx->souffle && c == '?')) {
		size_t n = dl_qualified_length(lx);

		if (n > DL_IDENT_MAX)
			return dl_fail_at(lx->diag, MAELYS_DATALOG_STATUS_LIMIT,
					  lx->source_name, tok->pos,
					  "identifier of %zu bytes is longer "
					  "than the limit of %zu",
					  n, DL_IDENT_MAX);
		tok->kind = DL_TOK_IDENT;
		tok->len = n;
		dl_advance(lx, n);
		return MAELYS_DATALOG_STATUS_OK;
	}
	if (dl_is_digit((unsigned char)c) ||
	    (c == '-' && c1 >= 0 && dl_is_digit((unsigned char)c1)))
		return dl_lex_integer(lx, tok);
	if (c == '"')
		return dl_lex_string(lx, tok);
	if (c == '.' && c1 >= 0 && dl_is_alpha((unsigned char)c1)) {
		size_t n = dl_ident_length(lx, 1);

		if (dl_is_directive(lx->src + lx->off + 1, n)) {
			tok->kind = DL_TOK_DIRECTIVE;
			tok->text = lx->src + lx->off + 1;
			tok->len = n;
			dl_advance(lx, n + 1);
			return MAELYS_DATALOG_STATUS_OK;
		}
	}
	tok->len = 1;
	switch (c) {
	case '(':
		tok->kind = DL_TOK_LPAREN;
		break;
	case ')':
		tok->kind = DL_TOK_RPAREN;
		break;
	case ',':
		tok->kind = DL_TOK_COMMA;
		break;
	case '.':
		tok->kind = DL_TOK_DOT;
		break;
	case ':':
		if (c1 == '-') {
			tok->kind = DL_TOK_IF;
			tok->len = 2;
		} else {
			tok->kind = DL_TOK_COLON;
		}
		break;
	case '!':
		if (c1 == '=') {
			tok->kind = DL_TOK_NE;
			tok->len = 2;
		} else {
			tok->kind = DL_TOK_BANG;
		}
		break;
	case '=':
		tok->kind = DL_TOK_EQ;
		break;
	case '<':
		if (c1 == '=') {
			tok->kind = DL_TOK_LE;
			tok->len = 2;
		} else if (c1 == ':') {
			tok->kind = DL_TOK_SUBTYPE;
			tok->len = 2;
		} else {
			tok->kind = DL_TOK_LT;
		}
		break;
	case '>':
		if (c1 == '=') {
			tok->kind = DL_TOK_GE;
			tok->len = 2;
		} else {
			tok->kind = DL_TOK_GT;
		}
		break;
	case '+':
		tok->kind = DL_TOK_PLUS;
		break;
	case '-':
		tok->kind = DL_TOK_MINUS;
		break;
	case '*':
		tok->kind = DL_TOK_STAR;
		break;
	case '/':
		tok->kind = DL_TOK_SLASH;
		break;
	case '%': /* only Souffle's syntax gets here: a comment in ours */
		tok->kind = DL_TOK_PERCENT;
		break;
	case '^':
		tok->kind = DL_TOK_CARET;
		break;
	case ';':
	case '|':
	case '$':
	case '@':
	case '#':
	case '[':
	case ']':
	case '{':
	case '}':
	case '&':
	case '~':
	case '\'':
		tok->kind = DL_TOK_OTHER;
		break;
	default:
		if (c >= 0x20 && c < 0x7f)
			return dl_fail_at(lx->diag, MAELYS_DATALOG_STATUS_PARSE,
					  lx->source_name, tok->pos,
					  "unexpected character '%c'", c);
		return dl_fail_at(lx->diag, MAELYS_DATALOG_STATUS_PARSE,
				  lx->source_name, tok->pos,
				  "unexpected byte 0x%02x outside a string "
				  "or comment",
				  (unsigned)c);
	}
	dl_advance(lx, tok->len);
	return MAELYS_DATALOG_STATUS_OK;
}

maelys_datalog_status_t
dl_lexer_next(struct dl_lexer *lx, struct dl_token *tok)
{
	maelys_datalog_status_t st = dl_lexer_read(lx, tok);

	tok->end = lx->off;
	return st;
}

size_t
dl_lexer_normalize(const char *src, size_t len, bool souffle, size_t start,
		   size_t end, char *out, size_t cap)
{
	static const char more[] = "...";
	struct dl_lexer lx;
	struct dl_token tok;
	size_t n = 0, last = start, room = cap - 1, gap = 0;
	bool cut = false;

	dl_lexer_init(&lx, src, end < len ? end : len, souffle, NULL, NULL,
		      NULL);
	lx.off = start;
	while (dl_lexer_next(&lx, &tok) == MAELYS_DATALOG_STATUS_OK &&
	       tok.kind != DL_TOK_EOF) {
		size_t k = tok.end - tok.start;

		gap = tok.start > last && n > 0 ? 1 : 0;
		if (gap + k > room - n) {
			cut = true;
			break;
		}
		if (gap)
			out[n++] = ' ';
		memcpy(out + n, src + tok.start, k);
		n += k;
		last = tok.end;
	}
	if (cut) {
		/* what fits of the token that does not, then "..." in
		 * place of the last bytes, never splitting a UTF-8
		 * character */
		size_t k;

		if (gap && n < room)
			out[n++] = ' ';
		k = room - n;
		memcpy(out + n, src + tok.start, k);
		n = room - (sizeof more - 1);
		while (n > 0 && ((unsigned char)out[n] & 0xc0) == 0x80)
			n--;
		memcpy(out + n, more, sizeof more);
		return n + sizeof more - 1;
	}
	out[n] = '\0';
	return n;
}

bool
dl_lexer_detect_souffle(const char *src, size_t len)
{
	struct dl_arena arena;
	struct dl_lexer lx;
	struct dl_token prev, tok;
	bool found = false;
	/* 0: outside a .decl; 1: after .decl; 2: after its name;
	 * 3: inside its parentheses */
	int decl = 0;

	dl_arena_init(&arena);
	dl_lexer_init(&lx, src, len, false, &arena, NULL, NULL);
	memset(&prev, 0, sizeof prev);
	/* a lexical error ends the search: the parser will report it */
	while (!found && dl_lexer_next(&lx, &tok) == MAELYS_DATALOG_STATUS_OK &&
	       tok.kind != DL_TOK_EOF) {
		if (tok.kind == DL_TOK_DIRECTIVE) {
			if (tok.len == 4 && memcmp(tok.text, "type", 4) == 0)
				found = true;
			decl = tok.len == 4 && memcmp(tok.text, "decl", 4) == 0;
		} else if (decl == 1) {
			decl = tok.kind == DL_TOK_IDENT ? 2 : 0;
		} else if (decl == 2) {
			decl = tok.kind == DL_TOK_LPAREN ? 3 : 0;
		} else if (decl == 3) {
			/* any column typed "name : type" */
			if (tok.kind == DL_TOK_COLON &&
			    prev.kind == DL_TOK_IDENT)
				found = true;
			else if (tok.kind == DL_TOK_RPAREN)
				decl = 0;
		}
		prev = tok;
	}
	dl_arena_free(&arena);
	return found;
}

const char *
dl_tok_describe(enum dl_tok_kind kind)
{
	switch (kind) {
	case DL_TOK_EOF:
		return "end of input";
	case DL_TOK_IDENT:
		return "a name";
	case DL_TOK_STRING:
		return "a string";
	case DL_TOK_INTEGER:
		return "an integer";
	case DL_TOK_DIRECTIVE:
		return "a directive";
	case DL_TOK_LPAREN:
		return "'('";
	case DL_TOK_RPAREN:
		return "')'";
	case DL_TOK_COMMA:
		return "','";
	case DL_TOK_DOT:
		return "'.'";
	case DL_TOK_COLON:
		return "':'";
	case DL_TOK_IF:
		return "':-'";
	case DL_TOK_BANG:
		return "'!'";
	case DL_TOK_EQ:
		return "'='";
	case DL_TOK_NE:
		return "'!='";
	case DL_TOK_LT:
		return "'<'";
	case DL_TOK_LE:
		return "'<='";
	case DL_TOK_GT:
		return "'>'";
	case DL_TOK_GE:
		return "'>='";
	case DL_TOK_SUBTYPE:
		return "'<:'";
	case DL_TOK_PLUS:
		return "'+'";
	case DL_TOK_MINUS:
		return "'-'";
	case DL_TOK_STAR:
		return "'*'";
	case DL_TOK_SLASH:
		return "'/'";
	case DL_TOK_PERCENT:
		return "'%'";
	case DL_TOK_CARET:
		return "'^'";
	case DL_TOK_OTHER:
		return "an unsupported operator";
	}
	return "a token";
}
