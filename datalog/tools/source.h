/* SPDX-License-Identifier: MIT */
/*
 * source: the text of a standalone program as maelys-datalog gives it to the
 * library, and the way back from a line of that text to a file and a line.
 * What Souffle's front end does before its parser, done here because the
 * library reads no file but the one it is given and never runs a program
 * (the guard loads its policies with it):
 *
 *   - with --souffle, when the program has a preprocessor line (#include,
 *     #define, #if...) and unless --no-preprocessor, the C preprocessor: `cpp`
 * with a fixed argv (no shell), the -I directories passed on, its output
 * bounded; its `#` line markers name the file and line of each line that
 * follows;
 *   - `.include "file"` (relative to the including file, then to each -I
 *     directory), `.once` (the rest of a file is skipped when the same
 *     `.once` is met again), at most SOURCE_DEPTH_MAX files deep and
 *     SOURCE_INCLUDES_MAX includes in all; a file that includes itself, or
 *     one that includes it, is refused unless a `.once` guards it;
 *   - with --souffle, `__LINE__` (the line in its own file) and the `#`
 *     lines Souffle's lexer skips.
 *
 * A directive is one line: the line becomes an empty line of the text, so
 * every other line keeps a line of its own, and its file and line are kept
 * in a table.
 */
#ifndef MAELYS_SOURCE_H
#define MAELYS_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How deep .include may nest, and how many there may be in all. */
#define SOURCE_DEPTH_MAX    64
#define SOURCE_INCLUDES_MAX 1024
/* -I directories at most. */
#define SOURCE_INCDIRS_MAX  64

/* Where a line of the text comes from. */
struct source_line {
	uint32_t file; /* index into files */
	uint32_t line; /* 1-based, in that file */
};

struct source {
	char *text; /* NUL-terminated */
	size_t len, cap;
	/* one entry per line of text; NULL: the text is the program's file
	 * as it is (nothing to map) */
	struct source_line *lines;
	size_t nlines, caplines;
	char **files; /* as named: the program, an include's path, cpp's */
	size_t nfiles;
	/* private: the .once directives met (file identity and line) and the
	 * files being read */
	struct source_once *once;
	size_t nonce, caponce;
	size_t nincludes;
};

struct source_options {
	const char *program;        /* the path given on the command line */
	const char *const *incdirs; /* -I, in order */
	size_t nincdirs;
	bool souffle;         /* --souffle: cpp, __LINE__, # lines */
	bool no_preprocessor; /* --no-preprocessor: never cpp */
	size_t max_bytes;     /* bound on the whole text */
};

/* Builds the text of the program.  Returns 0, or -1 with `err` set ("FILE:
 * LINE: what"); `s` is to be freed with source_free either way. */
int source_load(struct source *s, const struct source_options *o, char *err,
		size_t errlen);

void source_free(struct source *s);

/*
 * A message of the library that begins "NAME:LINE:COL: " or "NAME:LINE: "
 * (NAME the program's source name, LINE a line of s->text) rewritten with
 * the file and line that line comes from, into out; any other message is
 * copied as it is.
 */
void source_map_message(const struct source *s, const char *name,
			const char *msg, char *out, size_t outlen);

#endif /* MAELYS_SOURCE_H */
