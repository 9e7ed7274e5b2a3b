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

/*
 * Reads the facts of `d->predicate` (arity d->arity, column types
 * d->columns, delimiter d->delimiter or a tab) from the file at `path` and
 * adds them to `edb`.  Column types: NUMBER is a decimal int64; UNSIGNED a
 * decimal uint64; FLOAT a decimal float ("1.5", "2", "-3e4", "inf"), held
 * as its bits; SYMBOL is the raw text; ANY is an integer when the text is a canonical decimal int64 and
 * a symbol otherwise.  A trailing "\r" is stripped and the last line may lack
 * its "\n".  A relation of arity 0 is true when the file has a line (which
 * must be empty or "()").
 * Returns 0, or -1 with `err` set to "PATH: ..." or "PATH:LINE: ...".
 */
int facts_io_read(maelys_datalog_input_edb_t *edb, const char *path,
		  const maelys_datalog_directive_t *d, char *err,
		  size_t errlen);

/*
 * Writes every fact of predicate/arity of `result` to `out`, one per line,
 * columns separated by `delimiter` (NULL: a tab), sorted column by column:
 * integers (numerically) before symbols (bytewise).  A true relation of
 * arity 0 is the line "()" (as Souffle writes it).  Nothing is flushed:
 * the caller checks `out` for write errors.
 * Returns 0, or -1 with `err` set.
 */
int facts_io_write(FILE *out, const maelys_datalog_result_t *result,
		   const char *predicate, size_t arity, const char *delimiter,
		   char *err, size_t errlen);

/*
 * facts_io_write with the relation's column types (`arity` of them, or
 * NULL): an UNSIGNED column's integers are written and sorted as unsigned
 * 64-bit values, a FLOAT column's as the doubles their bits are (written
 * as Souffle writes them, "%g": 0.5, 3, -1.5e+20, inf).
 */
int facts_io_write_typed(FILE *out, const maelys_datalog_result_t *result,
			 const char *predicate, size_t arity,
			 const maelys_datalog_column_type_t *columns,
			 const char *delimiter, char *err, size_t errlen);

#endif /* MAELYS_FACTS_IO_H */
