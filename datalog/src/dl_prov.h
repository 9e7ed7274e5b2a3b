/* SPDX-License-Identifier: MIT */
/*
 * Provenance (sessions created with MAELYS_DATALOG_SESSION_PROVENANCE): for
 * each row of a relation, where its tuple came from - an input fact, a fact
 * of the policy, or the first rule application that derived it, stored as the
 * rule and the rows its positive body literals matched, in source order.
 * Nothing else is kept: the values of negated literals and built-ins are
 * rebuilt from the rule and those rows when asked (dl_prov_bind), which costs
 * the reader, not the solve.
 *
 * A first derivation only uses rows that existed before it (a lower stratum,
 * or an earlier semi-naive iteration), so following premises always ends in
 * facts: every derivation tree is finite and acyclic.
 *
 * A session keeps one dl_prov for its policy-only strata (filled when it
 * prepares) and each workspace one for the runtime strata of its solve;
 * memory is charged to the membudget of the same evaluation.
 */
#ifndef DL_PROV_H
#define DL_PROV_H

#include "dl_program.h"
#include "dl_relation.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* why[] values above every pool offset: origins without a record. */
#define DL_PROV_POLICY UINT32_C(0xfffffffd)
#define DL_PROV_INPUT  UINT32_C(0xfffffffe)
/* pool offsets stay below the sentinels */
#define DL_PROV_POOL_MAX ((size_t)DL_PROV_POLICY)

struct dl_prov_rel {
	/* per row: an offset into the pool (rule, then the rows of the
	 * positive body literals in source order) or DL_PROV_POLICY /
	 * DL_PROV_INPUT; nwhy equals the relation's count for a recorded
	 * predicate, 0 for another */
	uint32_t *why;
	size_t nwhy, cap;
};

struct dl_prov {
	struct dl_prov_rel *rels; /* by predicate */
	uint32_t *pool;
	size_t npool, cap_pool;
	uint8_t *fired; /* by rule: its body held at least once */
	size_t bytes;   /* of why[] and pool, charged to the membudget */
};

/* Allocates the per-predicate and per-rule arrays.  Returns 0 or -1. */
int dl_prov_init(struct dl_prov *pv, const struct dl_program *prog);
/* Forgets every record and returns the growable memory. */
void dl_prov_reset(struct dl_prov *pv, size_t npreds, size_t nrules,
		   struct dl_membudget *mb);
void dl_prov_free(struct dl_prov *pv, size_t npreds, struct dl_membudget *mb);

/* Room for one more row of predicate `pid` and `npool` more pool words,
 * charged to `mb`.  Returns 0 or an enum dl_rel_result failure (NO_MEMORY,
 * OVER_BUDGET, TOO_BIG); nothing changes on failure. */
int dl_prov_reserve(struct dl_prov *pv, uint32_t pid, size_t rows,
		    size_t npool, struct dl_membudget *mb);

/* Marks rows [nwhy, count) of `pid` with `origin` (DL_PROV_POLICY or
 * DL_PROV_INPUT).  Returns 0 or a dl_rel_result failure. */
int dl_prov_fill(struct dl_prov *pv, uint32_t pid, uint32_t count,
		 uint32_t origin, struct dl_membudget *mb);

/* Appends the record of a tuple just inserted as row nwhy of `pid` (room
 * reserved by dl_prov_reserve): rule, then the rows of its positive body
 * literals from rows_by_literal. */
void dl_prov_record(struct dl_prov *pv, const struct dl_rule *rule,
		    uint32_t rule_index, uint32_t pid,
		    const uint32_t *rows_by_literal);

/* The pool words of a rule's record: 1 + its positive body literals. */
size_t dl_prov_record_words(const struct dl_rule *rule);

/* The row of `tuple` in `r`, or DL_ROW_NONE.  A relation of one or two
 * columns knows rows only through its all-columns index `find_index`. */
uint32_t dl_prov_row_of(const struct dl_rel *r, uint32_t find_index,
			const uint32_t *tuple);

/*
 * The variable bindings of a recorded derivation, rebuilt: the positive
 * literals' rows bind their variables, then X = t literals and arithmetic
 * terms bind what is left (as the plan's BIND and EXPR did; `syms` reads
 * and finds the numbers).  regs and bound have rule->nvars entries.
 * `rows` are the record's rows (after the rule word); `rels` by predicate.
 */
void dl_prov_bind(const struct dl_rule *rule, const uint32_t *rows,
		  struct dl_rel *const *rels, const struct dl_symview *syms,
		  uint32_t *regs, bool *bound);

#endif /* DL_PROV_H */
