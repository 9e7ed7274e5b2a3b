/* SPDX-License-Identifier: MIT */
/*
 * Aggregates: `count : { body }`, `sum T : { body }`, `min T : ...`,
 * `max T : ...` (Souffle's, in both dialects).  An aggregate is a term: the
 * checker gives it a variable of its own, computed by an aggregate op of
 * the rule's plan that runs the body as a nested join (its ops placed right
 * after it, up to an AGG_END op) and folds T over every binding of the
 * body.  The body reads only relations of lower strata (stratify.c), so
 * they are complete when it runs; variables bound outside it are its
 * grouping parameters.
 *
 * The one owner of what an aggregate computes: count of an empty body is
 * 0, sum of an empty body 0 (wrapping modulo 2^64 like +), min and max of
 * an empty body have no value (the literal fails).  `mean` gives a float,
 * which the engine has no values of yet: it is refused at load.
 */
#ifndef DL_AGG_H
#define DL_AGG_H

#include <maelys/datalog.h>

#include <stdbool.h>
#include <stdint.h>

enum dl_agg_op {
	DL_AGG_COUNT,
	DL_AGG_SUM,
	DL_AGG_MIN,
	DL_AGG_MAX,
	DL_AGG_MEAN,
};

/* The most aggregates in one rule, nested ones included, and how deep
 * they may nest (bounds the checker's and planner's recursion). */
#define DL_AGGS_MAX      16
#define DL_AGG_DEPTH_MAX 8

/* The running fold of one aggregate op. */
struct dl_agg_acc {
	uint8_t op;    /* enum dl_agg_op */
	uint8_t num;   /* enum dl_numkind of the values folded */
	bool any;      /* a binding was folded */
	int64_t value; /* count: the bindings folded */
	double fsum;   /* mean: the sum of the (float) values */
	/* ev->poisoned when the aggregate began: a binding of the body that
	 * reaches AGG_END more poisoned than that is an error */
	uint32_t level;
};

/* "count", "sum", ... */
const char *dl_agg_name(enum dl_agg_op op);

/* The aggregate that `word` names, if it is one. */
bool dl_agg_from_word(const char *word, size_t len, enum dl_agg_op *out);

/* The type of an aggregate's result, given the type of the term it folds
 * (unused for count): count is a number, sum, min and max have the term's
 * type. */
maelys_datalog_column_type_t dl_agg_result_type(enum dl_agg_op op,
						maelys_datalog_column_type_t t);

/* Begins a fold of op over values of numeric kind num (enum dl_numkind:
 * unsigned and float add and order as theirs; mean folds floats only, the
 * checker refuses it of another kind). */
void dl_agg_begin(struct dl_agg_acc *acc, enum dl_agg_op op, unsigned num,
		  uint32_t level);
/* Folds one binding's value (unused for count). */
void dl_agg_fold(struct dl_agg_acc *acc, int64_t v);
/* The result; false when it has none (min, max or mean of an empty
 * body). */
bool dl_agg_result(const struct dl_agg_acc *acc, int64_t *out);

#endif /* DL_AGG_H */
