/* SPDX-License-Identifier: MIT */
/*
 * Souffle's components (.comp, .init, .override), expanded while the
 * program is parsed: the checker and everything after it see only plain
 * declarations, clauses and directives, each at its own source position.
 *
 * A component's body is scanned once where it is defined (its members'
 * names, its bases, nested components and instances); an instance parses
 * the body again, once per instance, with the parser's names mapped: a
 * relation or type the instance declares gets the instance's name in
 * front (`inst.rel`), a type parameter becomes its argument.  Instances,
 * nesting and the bytes parsed again are bounded (dl_limits.h).
 */
#ifndef DL_COMPONENTS_H
#define DL_COMPONENTS_H

#include "dl_ast.h"

#include <stdbool.h>
#include <stddef.h>

/* One body being parsed for an instance (components.c owns it). */
struct dl_comp_scope;

enum dl_comp_kind {
	DL_COMP_RELATION, /* a relation's name: atom, .decl, I/O directive */
	DL_COMP_TYPE,     /* a type's name: a column's type, .type */
};

/* `.comp` at the top of a program: `start`/`pos` is the token after the
 * directive, `at` the directive.  Reads the definition and sets *end and
 * *end_pos just after its closing '}'. */
maelys_datalog_status_t dl_comp_define(struct dl_ast *ast,
				       const char *source_name, size_t start,
				       struct dl_pos pos, struct dl_pos at,
				       size_t *end, struct dl_pos *end_pos,
				       maelys_datalog_diagnostic_t *diag);

/* `.init inst = Comp<Args>` at the top of a program; expands it at once
 * when its component is known (else when the program ends). */
maelys_datalog_status_t dl_comp_init(struct dl_ast *ast,
				     const char *source_name, size_t start,
				     struct dl_pos pos, struct dl_pos at,
				     size_t *end, struct dl_pos *end_pos,
				     maelys_datalog_diagnostic_t *diag);

/* At the end of the parse: checks every component's definition (bases,
 * overrides, names) and expands the instances left for the end. */
maelys_datalog_status_t dl_comp_finish(struct dl_ast *ast,
				       const char *source_name,
				       maelys_datalog_diagnostic_t *diag);

/* The parser's hook: the name (*text, *len) of `kind` read in a component's
 * body, as the instance calls it.  NULL scope (the program's top): kept. */
maelys_datalog_status_t dl_comp_map(const struct dl_comp_scope *scope,
				    enum dl_comp_kind kind,
				    struct dl_arena *arena, const char **text,
				    size_t *len, struct dl_pos pos,
				    maelys_datalog_diagnostic_t *diag);

/* In a body: a nested .comp, .init or .override starting at byte `start`
 * was read by the definition; sets where it ends. */
bool dl_comp_skip(struct dl_comp_scope *scope, size_t start, size_t *end,
		  struct dl_pos *end_pos);

/* After an item of a body: drops clauses[from, n) whose head a derived
 * component overrides.  Returns the new count. */
size_t dl_comp_filter(const struct dl_comp_scope *scope,
		      struct dl_ast_clause *clauses, size_t from, size_t n);

/* parser.c: parses the items of a component's body, from byte `start`
 * (at `pos`) to its closing '}', with names mapped by `scope`. */
maelys_datalog_status_t dl_parse_body(struct dl_ast *ast,
				      struct dl_comp_scope *scope, size_t start,
				      struct dl_pos pos,
				      const char *source_name,
				      maelys_datalog_diagnostic_t *diag);

#endif /* DL_COMPONENTS_H */
