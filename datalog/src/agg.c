/* SPDX-License-Identifier: MIT */
/*
 * What an aggregate computes (dl_agg.h): the fold of count, sum, min, max
 * and mean over 64-bit values of a numeric kind, and the type of a result.
 */
#include "dl_agg.h"

#include "dl_arith.h"
#include "dl_numeric.h"

#include <string.h>

static const char *const dl_agg_names[] = {
    [DL_AGG_COUNT] = "count", [DL_AGG_SUM] = "sum",   [DL_AGG_MIN] = "min",
    [DL_AGG_MAX] = "max",     [DL_AGG_MEAN] = "mean",
};

const char *
dl_agg_name(enum dl_agg_op op)
{
	return (size_t)op < sizeof dl_agg_names / sizeof *dl_agg_names
		   ? dl_agg_names[op]
		   : "?";
}

bool
dl_agg_from_word(const char *word, size_t len, enum dl_agg_op *out)
{
	size_t i;

	for (i = 0; i < sizeof dl_agg_names / sizeof *dl_agg_names; i++) {
		if (strlen(dl_agg_names[i]) == len &&
		    memcmp(dl_agg_names[i], word, len) == 0) {
			*out = (enum dl_agg_op)i;
			return true;
		}
	}
	return false;
}

maelys_datalog_column_type_t
dl_agg_result_type(enum dl_agg_op op, maelys_datalog_column_type_t t)
{
	return op == DL_AGG_COUNT ? MAELYS_DATALOG_COLUMN_NUMBER : t;
}

void
dl_agg_begin(struct dl_agg_acc *acc, enum dl_agg_op op, unsigned num,
	     uint32_t level)
{
	acc->op = (uint8_t)op;
	acc->num = (uint8_t)num;
	acc->any = false;
	acc->value = 0;
	acc->fsum = 0.0;
	acc->level = level;
}

void
dl_agg_fold(struct dl_agg_acc *acc, int64_t v)
{
	switch ((enum dl_agg_op)acc->op) {
	case DL_AGG_COUNT:
		/* the steps budget stops a join long before 2^63 bindings */
		acc->value++;
		break;
	case DL_AGG_SUM:
		if (acc->num == DL_NUM_FLOAT)
			acc->value = dl_float_bits(dl_bits_float(acc->value) +
						   dl_bits_float(v));
		else /* wraps modulo 2^64, as + does (dl_arith.h) */
			acc->value =
			    (int64_t)((uint64_t)acc->value + (uint64_t)v);
		break;
	case DL_AGG_MIN:
		/* a NaN (unordered: 2) never replaces a value */
		if (!acc->any ||
		    dl_arith_kind_compare(acc->num, v, acc->value) == -1)
			acc->value = v;
		break;
	case DL_AGG_MAX:
		if (!acc->any ||
		    dl_arith_kind_compare(acc->num, v, acc->value) == 1)
			acc->value = v;
		break;
	case DL_AGG_MEAN:
		/* Souffle's mean: the sum and the count, then one division */
		acc->fsum += dl_bits_float(v);
		acc->value++;
		break;
	}
	acc->any = true;
}

bool
dl_agg_result(const struct dl_agg_acc *acc, int64_t *out)
{
	*out = acc->value;
	switch ((enum dl_agg_op)acc->op) {
	case DL_AGG_COUNT:
	case DL_AGG_SUM:
		return true;
	case DL_AGG_MIN:
	case DL_AGG_MAX:
		return acc->any;
	case DL_AGG_MEAN:
		if (acc->value == 0)
			return false;
		*out = dl_float_bits(acc->fsum / (double)acc->value);
		return true;
	}
	return false;
}
