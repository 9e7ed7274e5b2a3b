/* SPDX-License-Identifier: MIT */
/*
 * scanner/ - the first look at a command line, before any policy sees it.
 *
 * Pure functions (bytes in, result out; no I/O, no allocation, no globals):
 * scan_line() inspects the raw line for shell metacharacters *before* it is
 * split, refuses what the restricted grammar does not accept, and splits
 * what remains into unquoted, blank-separated words.  Tokens point into the
 * caller's line (they are not NUL-terminated).
 *
 * The restricted grammar (the Level 1 walkthrough's): words separated by
 * spaces and tabs, no quoting of any kind.  Metacharacters are reported, not
 * refused - the policy decides whether a pipe is grounds for denial - except
 * the syntax that would make the line mean something other than its words:
 * quotes, backslash, `&`, NUL, CR, LF, control characters and escape
 * sequences, bytes that are not valid UTF-8 text, invisible or look-alike
 * Unicode characters, and here-documents (`<<`: the shell would read the
 * document's lines from its command channel, as data the guard never
 * decided as such; a here-string `<<<` reads nothing more and is a
 * redirect like any other).
 */
#ifndef SCANNER_H
#define SCANNER_H

#include <stddef.h>

/* A line of this many bytes or more is refused. */
#define SCAN_LINE_MAX   ((size_t)4096)
/* The most words a line may have. */
#define SCAN_TOKENS_MAX ((size_t)63)

/* Metacharacter classes, one bit each (the shell_metachar(M) facts, maelys-policy(5)). */
enum scan_metachar {
	SCAN_META_PIPE = 1u << 0,        /* |                          */
	SCAN_META_REDIRECT = 1u << 1,    /* < >                        */
	SCAN_META_SEMICOLON = 1u << 2,   /* ;                          */
	SCAN_META_BACKTICK = 1u << 3,    /* `                          */
	SCAN_META_VAR_EXPAND = 1u << 4,  /* $                          */
	SCAN_META_GLOB = 1u << 5,        /* * ? [                      */
	SCAN_META_HISTORY = 1u << 6,     /* !                          */
	SCAN_META_BRACE = 1u << 7,       /* { }                        */
	SCAN_META_SUBSHELL = 1u << 8,    /* ( )                        */
	SCAN_META_TILDE = 1u << 9,       /* ~ at a word start, after = or : */
	SCAN_META_COMMENT = 1u << 10,    /* # at a word start          */
	SCAN_META_ASSIGNMENT = 1u << 11, /* NAME= as the first word   */
	SCAN_META_BACKGROUND = 1u << 12, /* & (also refused)          */
};
#define SCAN_META_COUNT 13u

/* The policy's name of metacharacter class number `index` (the bit
 * position): "pipe", "redirect", ...; NULL past SCAN_META_COUNT. */
const char *scan_metachar_name(unsigned index);

/* Why a line is refused before solving. */
enum scan_refusal {
	SCAN_ACCEPT = 0,
	SCAN_REFUSE_QUOTE,
	SCAN_REFUSE_BACKSLASH,
	SCAN_REFUSE_AMPERSAND,
	SCAN_REFUSE_NUL,
	SCAN_REFUSE_NEWLINE,
	SCAN_REFUSE_CONTROL,
	SCAN_REFUSE_ENCODING,
	SCAN_REFUSE_INVISIBLE,
	SCAN_REFUSE_TOO_LONG,
	SCAN_REFUSE_TOO_MANY_TOKENS,
	SCAN_REFUSE_HEREDOC,
};

/* One sentence for the user: "quoted syntax is unsupported", ... */
const char *scan_refusal_reason(enum scan_refusal refusal);

struct scan_token {
	const char *text; /* into the scanned line; not terminated */
	size_t len;
};

struct scan_result {
	unsigned metachars;        /* enum scan_metachar bits */
	/* byte offset of the first metacharacter of each class (index: the
	 * bit position), meaningful where its bit is set in metachars: the
	 * guard points at it when it shows a refusal.  For an assignment,
	 * the '=' of the first word. */
	size_t metachar_offset[SCAN_META_COUNT];
	enum scan_refusal refusal; /* SCAN_ACCEPT or the first refusal */
	size_t refusal_offset;     /* byte offset of what was refused */
	size_t ntokens;            /* 0: an empty line, no command */
	struct scan_token tokens[SCAN_TOKENS_MAX];
};

/* Scans and splits `len` bytes of `line` (any bytes; NUL is data).  Always
 * fills *out.  A refused line has refusal != SCAN_ACCEPT; its tokens and
 * metacharacters are still reported as far as they were found, for the
 * record, but the line must not be solved or run. */
void scan_line(const char *line, size_t len, struct scan_result *out);

/* The parts, for tests and for callers that need only one of them. */
/* Metacharacters and refusals of the raw line (no length or word limits). */
void scan_metachars(const char *line, size_t len, struct scan_result *out);
/* Splits on spaces and tabs; refuses more than SCAN_TOKENS_MAX words. */
void scan_tokenise(const char *line, size_t len, struct scan_result *out);

#endif /* SCANNER_H */
