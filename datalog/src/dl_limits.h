/* SPDX-License-Identifier: MIT */
/*
 * Hard limits on what a policy and an input may be: every input is
 * bounded.  Exceeding one is STATUS_LIMIT with a diagnostic naming the
 * limit and the value.  Sessions can lower their budgets (dl_budget.h)
 * but not these.
 */
#ifndef DL_LIMITS_H
#define DL_LIMITS_H

#include <maelys/datalog.h>

#include <stdint.h>

/* Bytes of policy source. */
#define DL_SOURCE_MAX     ((size_t)64 << 20)
/* Bytes of a string constant (the same bound as a symbol). */
#define DL_STRING_LEN_MAX ((size_t)65535)
/* Bytes of an identifier (predicate, variable, type). */
#define DL_IDENT_MAX      ((size_t)255)
/* Literals in one rule body. */
#define DL_BODY_MAX       ((size_t)128)
/* Distinct variables in one rule. */
#define DL_VARS_MAX       ((size_t)256)
/* arithmetic terms in one rule */
#define DL_EXPRS_MAX      ((size_t)64)
/* Clauses (rules and facts) of a policy. */
#define DL_CLAUSES_MAX    ((size_t)4000000)
/* Predicates of a policy (domain plus .decl). */
#define DL_PREDICATES_MAX ((size_t)65536)
/* Hash indexes one predicate may need. */
#define DL_INDEXES_MAX    64
/* relations declared together by one `.decl a, b(...)` */
#define DL_DECL_RELATIONS_MAX 64
/* Regular expressions of a policy. */
#define DL_REGEX_MAX      ((size_t)4096)
/* Bytes of one regular expression. */
#define DL_REGEX_LEN_MAX  ((size_t)4096)
/* Bytes kept of one rule's or literal's text (the rules API); a longer
 * text is cut and ends in "...".  What is kept of all rules is also bounded
 * by the source: each text is at most its span. */
#define DL_RULE_TEXT_MAX  ((size_t)8192)
/* Warnings kept of one load; the last one kept counts the rest. */
#define DL_WARNINGS_MAX   ((size_t)100)
/* Fact columns the warning pass may compare, over the whole policy: past
 * it, the remaining literals are not checked for a missing fact (a warning
 * is advice, and a load must stay linear in its source). */
#define DL_WARN_SCAN_MAX  ((size_t)1 << 26)
/* Souffle's components: instances nested in instances and bases under
 * bases (a component that instantiates itself stops here), */
#define DL_COMP_DEPTH_MAX     64
/* instances made in all, counting nested and inherited ones, */
#define DL_COMP_INSTANCES_MAX ((size_t)10000)
/* bytes of component bodies parsed again for them, in all, */
#define DL_COMP_EXPANSION_MAX ((size_t)16 << 20)
/* components defined inside components, components in all, the steps
 * of one search for a component (through bases of bases), */
#define DL_COMP_NEST_MAX      32
#define DL_COMP_DEFS_MAX      ((size_t)4096)
#define DL_COMP_LOOKUP_MAX    ((size_t)1 << 16)
/* steps of all those searches in one load, names the instances declare
 * (counted at each level they are seen from), */
#define DL_COMP_WORK_MAX      ((size_t)1 << 26)
#define DL_COMP_NAMES_MAX     ((size_t)1 << 20)
/* and type parameters (or arguments) of one component. */
#define DL_COMP_PARAMS_MAX    64
/* Input facts in one input EDB (beyond the session's budget, a hard cap). */
#define DL_EDB_FACTS_MAX  ((size_t)100000000)
/* .type declarations of one program (the checker's type sets are bitsets
 * over them and the 8 built-in types: types.c). */
#define DL_TYPES_MAX      248
/* Types in one union (.type U = A | B | ...). */
#define DL_UNION_MAX      64

/* A set of columns is a 32-bit mask (index masks, plans): the widest
 * predicate must fit in one. */
_Static_assert(MAELYS_DATALOG_MAX_ARITY <= 32,
	       "a column mask is 32 bits: MAELYS_DATALOG_MAX_ARITY <= 32");

/* The mask of every column of an `arity`-column predicate (1 << 32 would
 * be undefined). */
static inline uint32_t
dl_cols_all(uint32_t arity)
{
	return arity >= 32 ? UINT32_MAX : (UINT32_C(1) << arity) - 1u;
}

#endif /* DL_LIMITS_H */
