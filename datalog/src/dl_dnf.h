/* SPDX-License-Identifier: MIT */
/*
 * A rule body as Souffle writes it, with disjunction (`;`), parentheses and
 * negated groups (`!(a(x) ; b(x))`), and its disjunctive normal form: the
 * plain bodies, each a conjunction of literals, of the clauses the rule
 * stands for.  The parser builds the formula (parser.c) and turns each
 * conjunction into a clause of its own, so the checker and the evaluator
 * only ever see plain clauses.  Negation is pushed down to the literals by
 * De Morgan's laws: a negated atom or call flips its `negated`, a negated
 * comparison its operator (`!(x < y)` is `x >= y`), as Souffle does.
 */
#ifndef DL_DNF_H
#define DL_DNF_H

#include "dl_ast.h"

#include <stddef.h>

/* Conjunctions one rule may expand to (its heads times its disjuncts):
 * disjunction multiplies out, so a short body can stand for many clauses;
 * past this the load fails with STATUS_LIMIT. */
#define DL_DNF_CLAUSES_MAX ((size_t)256)
/* How deep parentheses and negations may nest in a body: bounds the
 * parser's and the expansion's recursion. */
#define DL_DNF_DEPTH_MAX   32

enum dl_bf_kind {
	DL_BF_LIT, /* lit */
	DL_BF_AND, /* kids[0], ..., kids[nkids - 1] */
	DL_BF_OR,  /* kids[0]; ...; kids[nkids - 1] */
	DL_BF_NOT, /* !kids[0] */
};

/* A body formula, in the load's arena. */
struct dl_bf {
	enum dl_bf_kind kind;
	struct dl_ast_lit lit;
	struct dl_bf **kids;
	size_t nkids;
	struct dl_pos pos;
};

/* One conjunction of the normal form: n literals, in the arena. */
struct dl_dnf_conj {
	struct dl_ast_lit *lits;
	size_t n;
};

/* The normal form of `f`: *out gets *nout conjunctions (at most
 * DL_DNF_CLAUSES_MAX, each of at most DL_BODY_MAX literals), in `arena`.
 * Returns OK, LIMIT (too many conjunctions or literals, at `f`'s position)
 * or NO_MEMORY. */
maelys_datalog_status_t dl_dnf_expand(struct dl_arena *arena,
				      const struct dl_bf *f,
				      const char *source_name,
				      struct dl_dnf_conj **out, size_t *nout,
				      maelys_datalog_diagnostic_t *diag);

#endif /* DL_DNF_H */
