/* SPDX-License-Identifier: MIT */
/*
 * Join plans: a rule compiled into a flat list of operations that the
 * evaluator runs as nested loops.  Literal order and index choice are fixed
 * here, at load: each step is driven by the columns bound before it, and a
 * hash index exists for each (relation, bound columns) that a step probes.
 */
#ifndef DL_PLAN_H
#define DL_PLAN_H

#include "dl_program.h"
#include "dl_record.h"

enum dl_op_kind {
	DL_OP_SCAN,         /* every row of a range */
	DL_OP_PROBE,        /* rows whose key columns equal the key */
	DL_OP_LOOKUP,       /* all columns bound: the row, if it exists */
	DL_OP_ABSENT,       /* not(p(all bound)) */
	DL_OP_ABSENT_PROBE, /* not(p(some bound, _)) */
	DL_OP_ABSENT_ANY,   /* not(p(_, ...)): the relation is empty */
	DL_OP_CMP,          /* comparison of two bound terms */
	DL_OP_CALL,         /* built-in test of two bound terms */
	DL_OP_BIND,         /* X = bound term, X not yet bound */
	DL_OP_EXPR,         /* an arithmetic term: binds or tests its var */
	DL_OP_EMIT,         /* insert the head tuple */
	DL_OP_RECORD,       /* a record term: built, or taken apart */
	/* an aggregate (dl_agg.h): runs the ops after it, its body, up to
	 * its AGG_END, then binds (or tests) var and goes on at op + skip */
	DL_OP_AGG,
	DL_OP_AGG_END, /* folds key[0] (count: nothing) into the aggregate */
};

/* Which rows of a relation a step sees (semi-naive evaluation). */
enum dl_range {
	DL_RANGE_ALL,   /* a lower stratum: every row */
	DL_RANGE_FULL,  /* own stratum: rows before this iteration's end */
	DL_RANGE_OLD,   /* own stratum: rows before the delta */
	DL_RANGE_DELTA, /* own stratum: rows new in the last iteration */
};

enum dl_out_action {
	DL_OUT_BIND,        /* regs[v] = column */
	DL_OUT_CHECK_VAR,   /* column == regs[v] */
	DL_OUT_CHECK_CONST, /* column == v */
};

#define DL_OP_NO_LIT UINT8_MAX

struct dl_out {
	uint8_t col;
	uint8_t action;
	uint32_t v;
};

struct dl_op {
	uint8_t kind;  /* enum dl_op_kind */
	uint8_t range; /* enum dl_range */
	uint8_t nkey;
	uint8_t nout;
	/* the body literal this op tests, in source order (provenance
	 * records premises by it); DL_OP_NO_LIT for EMIT */
	uint8_t lit;
	uint32_t pred;
	uint32_t index; /* PROBE, ABSENT_PROBE: position in pred->index_masks */
	/* PROBE, ABSENT_PROBE: key in index column order; LOOKUP, ABSENT,
	 * EMIT: every column; CMP, CALL, BIND: key[0] and key[1] */
	struct dl_cterm key[MAELYS_DATALOG_MAX_ARITY];
	struct dl_out out[MAELYS_DATALOG_MAX_ARITY]; /* SCAN, PROBE, LOOKUP */
	uint8_t cmp;                                 /* CMP: enum dl_cmp_op */
	uint8_t builtin;                             /* CALL: enum dl_builtin */
	bool negated;                                /* CMP, CALL */
	uint32_t regex;                              /* CALL */
	uint32_t var; /* BIND, EXPR: the variable bound (or tested) */
	bool check;   /* EXPR: var is bound already: a test of equality */
	/* EXPR: only the head reads var, so an error of the term waits for
	 * the rest of the body to hold (eval_run.h) */
	bool defer;
	const struct dl_cexpr *expr; /* EXPR */
	struct dl_pos pos;
	/* RECORD: the term; whether it takes var apart (else builds it and
	 * binds or, with check, tests var); which fields it binds */
	const struct dl_crec *rec;
	bool unpack;
	uint64_t bindmask;
	uint8_t pattern; /* CALL: enum dl_pattern_kind */
	uint32_t agg;  /* AGG, AGG_END: the rule's aggregate (AGG: cmp
			* holds its enum dl_agg_op) */
	uint32_t skip; /* AGG: ops from it to the op after its AGG_END */
	/* CMP: the clit's cmp_kind; AGG: the folded term's enum dl_numkind
	 * (dl_cagg.num) */
	uint8_t cmp_kind;
};

struct dl_plan {
	struct dl_op *ops;
	uint32_t nops;
	/* predicates whose (ranged) relation must be non-empty for the plan to
	 * derive anything: checked before running it */
	uint32_t nneed;
	uint32_t need_pred[DL_BODY_MAX];
	uint8_t need_range[DL_BODY_MAX];
};

#endif /* DL_PLAN_H */
