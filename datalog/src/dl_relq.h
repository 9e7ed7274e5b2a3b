/* SPDX-License-Identifier: MIT */
/*
 * Souffle's relation qualifiers and the rule forms that go with them
 * (relq.c): `eqrel`, which is the reflexive, symmetric and transitive
 * closure of what is derived into a binary relation, written as three
 * rules of its own; `inline` and `no_inline`, which only tune Souffle's
 * plan: an inlined relation is unfolded into its positive uses
 * (relq_inline.c), with Souffle's checks, so that a program Souffle
 * refuses for them is refused; subsumption (relq_subsume.c); and a
 * rule's `.plan`, checked as Souffle checks it and then ignored; and
 * `choice-domain`, whose keys get an index each here and are enforced
 * where tuples are inserted (dl_choice.h).
 */
#ifndef DL_RELQ_H
#define DL_RELQ_H

#include "dl_ast.h"
#include "dl_limits.h"

#include <stdint.h>

struct dl_program;

/* The qualifiers a .decl keeps (dl_ast_decl.quals). */
#define DL_QUAL_INLINE    (1u << 0)
#define DL_QUAL_NO_INLINE (1u << 1)
#define DL_QUAL_EQREL     (1u << 2)

/* Versions (`N:`) of one `.plan`, and atoms in one order. */
#define DL_PLAN_ORDERS_MAX 64

/* One order of a `.plan`: version: (order[0], ..., order[n - 1]). */
struct dl_ast_plan {
	int64_t version;
	int64_t order[DL_BODY_MAX];
	size_t n;
	struct dl_pos pos; /* of its version */
};

/* Appends the three rules of every eqrel relation of `ast` (symmetry,
 * reflexivity and transitivity).  Returns OK, ARITY (an eqrel relation
 * that is not binary), LIMIT or NO_MEMORY. */
maelys_datalog_status_t dl_relq_add_eqrel_rules(struct dl_ast *ast,
						const char *source_name,
						maelys_datalog_diagnostic_t *diag);

/* Rewrites every subsumption `a(x...) <= a(y...) :- body` of `ast` into
 * plain clauses: a's own clauses derive into a hidden relation "a$all",
 * the subsumption into "a$dom" (the tuples another tuple dominates), and
 * a(x...) :- a$all(x...), !a$dom(x...).  A recursive a keeps its clauses;
 * its a$dom clauses read a and are marked `prunes`, for the evaluator to
 * run between iterations.  Returns OK, UNDECLARED, ARITY (a nullary
 * relation), PARSE (two relations compared; a relation read as input or
 * eqrel; a recursive one whose subsumption's body reads its recursion),
 * LIMIT or NO_MEMORY. */
maelys_datalog_status_t
dl_relq_rewrite_subsumption(struct dl_ast *ast, const char *source_name,
			    maelys_datalog_diagnostic_t *diag);

/* Unfolds the positive uses of inlined relations into the rules that use
 * them (relq_inline.c); what cannot be unfolded stays and is evaluated.
 * Returns OK, LIMIT or NO_MEMORY. */
maelys_datalog_status_t dl_relq_unfold_inline(struct dl_ast *ast,
					      maelys_datalog_diagnostic_t *diag);

/* Souffle's checks of inlined relations and of `.plan`, on the program
 * once stratified (prog->rules are the rules of ast's clauses with a
 * body, in order).  Returns OK, ROLE (an inlined relation that is read or
 * written, or in a cycle of inlined relations), UNSAFE (an inlined
 * relation negated where it would bring new variables), PARSE (a plan
 * that is not a permutation of the rule's atoms, or a version the rule
 * does not have) or NO_MEMORY. */
maelys_datalog_status_t dl_relq_check(const struct dl_program *prog,
				      const struct dl_ast *ast,
				      maelys_datalog_diagnostic_t *diag);

/* Gives every choice-domain relation of `ast` a hash index per key
 * (prog->preds[].choice_index), after the plans have chosen theirs.
 * Returns OK or LIMIT (more than DL_INDEXES_MAX indexes). */
maelys_datalog_status_t dl_relq_choice_indexes(struct dl_program *prog,
					       const struct dl_ast *ast,
					       maelys_datalog_diagnostic_t *diag);

#endif /* DL_RELQ_H */
