/* SPDX-License-Identifier: MIT */
/*
 * Static types, as Souffle has them: the primitive types number, unsigned,
 * float and symbol, and the program's .type declarations (subtypes A <: B,
 * unions A = B | C, equivalences A = B), declared in any order.
 *
 * types.c owns the type environment: what each name means, which type is a
 * subtype of which (Souffle's rules: a subtype flows into its base, a union
 * holds its members, an equivalence is its target), and the checks of the
 * declarations (an undefined or cyclic type, a union of several primitive
 * kinds, a redefined primitive).  check_types.c owns the typing of one
 * rule: the kind of every variable and term (which operator, comparison and
 * constant encoding applies), and Souffle's subtype checks of rules.
 */
#ifndef DL_TYPES_H
#define DL_TYPES_H

#include "dl_ast.h"
#include "dl_limits.h"

#include <maelys/datalog.h>

#include <stdbool.h>
#include <stdint.h>

/* Type ids: the four constant types (the roots, what a literal or an
 * arithmetic result is), the four primitives (each a subtype of its root),
 * then the program's .type declarations in source order. */
enum {
	DL_TY_CONST_NUMBER = 0,
	DL_TY_CONST_UNSIGNED,
	DL_TY_CONST_FLOAT,
	DL_TY_CONST_SYMBOL,
	DL_TY_NUMBER,
	DL_TY_UNSIGNED,
	DL_TY_FLOAT,
	DL_TY_SYMBOL,
	DL_TY_USER, /* the first .type */
	DL_TY_COUNT_MAX = DL_TY_USER + DL_TYPES_MAX,
	DL_TY_NONE = 0xffff, /* an untyped column */
};

#define DL_TYSET_WORDS ((DL_TY_COUNT_MAX + 63) / 64)

/* A set of types: what a variable may be (Souffle's type sets); `all`
 * when nothing constrains it yet. */
struct dl_tyset {
	bool all;
	uint64_t bits[DL_TYSET_WORDS];
};

struct dl_typeenv;

/* Builds the environment of ast's .type declarations, checked.  Returns
 * OK (*out to free with dl_types_free), PARSE, UNDECLARED, REDECLARED,
 * TYPE or NO_MEMORY. */
maelys_datalog_status_t dl_types_build(const struct dl_ast *ast,
				       const char *source,
				       struct dl_typeenv **out,
				       maelys_datalog_diagnostic_t *diag);
void dl_types_free(struct dl_typeenv *env);

/* The type named `name` (written at pos): its id and its column kind.
 * Returns OK or UNDECLARED. */
maelys_datalog_status_t dl_types_lookup(const struct dl_typeenv *env,
					const char *name, const char *source,
					struct dl_pos pos, uint16_t *id,
					maelys_datalog_column_type_t *kind,
					maelys_datalog_diagnostic_t *diag);

/* Records predicate pid's column types (ids, DL_TY_NONE untyped).
 * Returns OK or NO_MEMORY. */
maelys_datalog_status_t dl_types_set_pred(struct dl_typeenv *env, uint32_t pid,
					  const uint16_t *ids, size_t arity,
					  maelys_datalog_diagnostic_t *diag);
/* Column k of predicate pid's type id, DL_TY_NONE when untyped. */
uint16_t dl_types_column(const struct dl_typeenv *env, uint32_t pid, size_t k);

/* Whether a <: b (Souffle's isSubtypeOf, equivalences seen through). */
bool dl_types_subtype(const struct dl_typeenv *env, uint16_t a, uint16_t b);
/* s := the greatest common subtypes of s and { t } (Souffle's meet). */
void dl_types_meet(const struct dl_typeenv *env, struct dl_tyset *s,
		   uint16_t t);
/* a := meet of a and b, elementwise. */
void dl_types_meet_set(const struct dl_typeenv *env, struct dl_tyset *a,
		       const struct dl_tyset *b);
/* The root (constant) type of a kind. */
uint16_t dl_types_root(maelys_datalog_column_type_t kind);
/* The number of types (DL_TY_USER when no .type is declared). */
size_t dl_types_count(const struct dl_typeenv *env);
/* A type's name, for messages. */
const char *dl_types_name(const struct dl_typeenv *env, uint16_t t);
/* The type called name (a primitive or a .type), if there is one. */
bool dl_types_find(const struct dl_typeenv *env, const char *name,
		   uint16_t *id);
/* Whether t is one of the four constant types. */
bool dl_types_is_root(uint16_t t);

/* check_types.c: the typing of one rule or fact. */
struct dl_rule_types;
struct dl_program;

/* Types clause c (its kinds and, when types are declared, Souffle's subtype
 * checks; `souffle`: Souffle's syntax, where a comparison's two sides have
 * one type).  Returns OK with *out (free with dl_rule_types_free), TYPE
 * with *out too (the kinds found before the error), LIMIT or NO_MEMORY. */
maelys_datalog_status_t dl_rule_types_infer(const struct dl_typeenv *env,
					    const struct dl_program *prog,
					    const struct dl_ast_clause *c,
					    bool souffle, const char *source,
					    struct dl_rule_types **out,
					    maelys_datalog_diagnostic_t *diag);
void dl_rule_types_free(struct dl_rule_types *rt);
/* The kind of term t of the clause typed (ANY: not numeric nor symbol by
 * any constraint; a numeric literal there is a number). */
maelys_datalog_column_type_t dl_rule_types_kind(const struct dl_rule_types *rt,
						const struct dl_ast_term *t);

/* The value a literal of kind numkind (enum dl_numkind) holds in a place
 * of kind `kind`: a plain 5 in a float column is 5.0.  Returns OK, or TYPE
 * (*why set) when it cannot go there (5.0 in a number column). */
maelys_datalog_status_t dl_types_literal(int64_t v, uint8_t numkind,
					 maelys_datalog_column_type_t kind,
					 int64_t *out, const char **why);

#endif /* DL_TYPES_H */
