/* SPDX-License-Identifier: MIT */
/*
 * The evaluator: runs the strata of a program over a set of relations
 * (one per predicate), bottom-up and semi-naively, under budgets.  It owns
 * no memory: the session gives it the relations, the symbol view, the
 * matcher and the registers.
 */
#ifndef DL_EVAL_H
#define DL_EVAL_H

#include "dl_builtins.h"
#include "dl_limits.h"
#include "dl_program.h"
#include "dl_relation.h"

struct dl_prov;

/* Head tuples inserted together (see dl_flush in eval.c). */
#define DL_EMIT_BATCH 128

struct dl_eval {
	const struct dl_program *prog;
	struct dl_rel **rels; /* by predicate */
	struct dl_symview syms;
	struct dl_membudget *mb;
	struct dl_matcher *matcher;
	uint32_t *regs;                      /* prog->max_vars registers */
	uint64_t tuples, tuples_max;         /* derived so far / budget */
	uint64_t iterations, iterations_max; /* semi-naive iterations */
	uint64_t steps_left;                 /* join steps still allowed */
	uint64_t steps_max;
	maelys_datalog_diagnostic_t *diag;
	/* built-ins on the current path that were applied to a value of the
	 * wrong kind: the binding goes on as if they held, and reaching the
	 * head with one is STATUS_TYPE (see dl_run in eval.c) */
	uint32_t poisoned;
	const struct dl_op *poison_op;
	struct dl_test poison;
	/* head tuples emitted by the running plan, not yet inserted */
	const struct dl_op *pending_op;
	uint32_t npending;
	uint32_t pending_hash[DL_EMIT_BATCH];
	uint32_t pending[DL_EMIT_BATCH * MAELYS_DATALOG_MAX_ARITY];
	/* PROVENANCE sessions only (NULL otherwise: the ordinary path) */
	struct dl_prov *prov;       /* where this evaluation records */
	const bool *recorded;       /* by predicate; NULL: every one */
	const uint32_t *find_index; /* by predicate (dl_prov_row_of) */
	uint32_t rule;              /* the rule whose plan runs */
	uint32_t prov_rows[DL_BODY_MAX]; /* row matched, by body literal */
	/* functors (dl_functor.h): autoinc's next value, and the patterns
	 * of match compiled at this evaluation */
	uint64_t counter;
	struct dl_recache *recache;
	/* the folds of the running rule's aggregates (dl_agg.h) */
	struct dl_agg_acc agg_acc[DL_AGGS_MAX];
};

/* Evaluates every stratum whose `runtime` flag equals `runtime`, in order.
 * Returns OK, NO_MEMORY, BUDGET_TUPLES, BUDGET_ITERATIONS, BUDGET_MEMORY,
 * BUDGET_STEPS, REGEX_LIMIT, TYPE, ARITHMETIC, LIMIT (a relation over 2^31
 * rows, an arithmetic result with no symbol table to hold it). */
maelys_datalog_status_t dl_eval_strata(struct dl_eval *ev, bool runtime);

/* Maps an insertion failure of dl_rel_insert to a status and diagnostic. */
maelys_datalog_status_t dl_eval_insert_failed(struct dl_eval *ev, int rc,
					      const struct dl_pred *p);

#endif /* DL_EVAL_H */
