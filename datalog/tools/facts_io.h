/* SPDX-License-Identifier: MIT */
/*
 * facts_io: the file formats of the standalone runner maelys-datalog.
 * Reading a .facts file (one fact per line, columns split on a delimiter,
 * as Souffle and the other Datalog tools write them) into an input EDB, and
 * writing one relation of a result as delimiter-separated rows in an order
 * that does not depend on the engine's evaluation order, so two runs (or two
 * engines) can be compared byte for byte.  Only the public API of
 * libmaelys-datalog is used; this is a tool, not the library, so it does its
 * own I/O.
 */
#ifndef MAELYS_FACTS_IO_H
#define MAELYS_FACTS_IO_H

#include <stddef.h>
#include <stdio.h>

#include <maelys/datalog.h>

/* The longest line of a .facts file, without its line end: the engine's
 * string limit, so a runaway file (no newline, or a binary) costs bounded
 * memory and gives an error with its line number. */
#define FACTS_IO_LINE_MAX 65535

/* Room for an error message: "FILE:LINE: what is wrong". */
#define FACTS_IO_ERROR_MAX 1024

/* facts_io_read flags. */
enum {
	/* Souffle's reading: the columns after a relation's own are ignored
	 * (without it, an error: a column silently dropped hides a mistake) */
	FACTS_IO_SOUFFLE = 1u << 0,
};

/* The delimiter of `d`: its delimiter=, else ',' with rfc4180=true and a
 * tab otherwise (Souffle's defaults). */
const char *facts_io_delimiter(const maelys_datalog_directive_t *d);

/*
 * Reads the facts of `d->predicate` (arity d->arity, column types
 * d->columns, delimiter facts_io_delimiter(d)) from the file at `path` and
 * adds them to `edb`, as Souffle reads a .facts file.  Column types: NUMBER
 * is a decimal int64; UNSIGNED a decimal uint64; FLOAT a decimal float
 * ("1.5", "2", "-3e4", "inf"), held as its bits; SYMBOL is the raw text;
 * ANY is an integer when the text is a canonical decimal int64 and a
 * symbol otherwise.  A trailing "\r" is stripped and the last line may lack
 * its "\n".  A line must have d->arity columns; with FACTS_IO_SOUFFLE in
 * `flags`, any after them are ignored.  d->headers: the first line is
 * skipped.  d->rfc4180: a field may be quoted ("a,b", "" for a quote, line
 * ends inside the quotes).  A relation of arity 0 is true when the file has
 * a line (which must be empty or "()").
 * Returns 0, or -1 with `err` set to "PATH: ..." or "PATH:LINE: ...".
 */
int facts_io_read(maelys_datalog_input_edb_t *edb, const char *path,
		  const maelys_datalog_directive_t *d, unsigned flags,
		  char *err, size_t errlen);

/* facts_io_read from the open descriptor `fd` (not closed), `path` naming
 * it in messages. */
int facts_io_read_fd(maelys_datalog_input_edb_t *edb, int fd, const char *path,
		     const maelys_datalog_directive_t *d, unsigned flags,
		     char *err, size_t errlen);

/* The line of column names of d (d->column_names joined by its delimiter),
 * without a line end: headers=true, and Souffle's `-D -` framing. */
void facts_io_write_header(FILE *out, const maelys_datalog_directive_t *d);

/*
 * Writes every fact of d->predicate/d->arity of `result` to `out`, one per
 * line, columns separated by facts_io_delimiter(d), sorted column by column:
 * integers (numerically; an UNSIGNED column's as unsigned, a FLOAT column's
 * as the doubles their bits are, written "%g" as Souffle writes them: 0.5,
 * 3, -1.5e+20, inf) before symbols (bytewise); with d->rfc4180 every
 * symbol in double quotes, a quote in it doubled.  A true relation of
 * arity 0 is the line "()" (as Souffle writes it).  Nothing is flushed:
 * the caller checks `out` for write errors.
 * Returns 0, or -1 with `err` set.
 */
int facts_io_write(FILE *out, const maelys_datalog_result_t *result,
		   const maelys_datalog_directive_t *d, char *err,
		   size_t errlen);

#endif /* MAELYS_FACTS_IO_H */
