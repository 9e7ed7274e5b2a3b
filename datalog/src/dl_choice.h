/* SPDX-License-Identifier: MIT */
/*
 * choice-domain at insertion (Souffle): a relation with keys holds at most
 * one tuple per value of each key, and the first tuple inserted wins.
 * Every path that inserts into a relation asks dl_choice_blocked first; a
 * blocked tuple is dropped as a duplicate would be.  Which tuple is first
 * follows the evaluation order (facts in source order, then the rules'
 * joins), which is what Souffle's own answer depends on too.
 */
#ifndef DL_CHOICE_H
#define DL_CHOICE_H

#include "dl_program.h"
#include "dl_relation.h"

#include <stdbool.h>
#include <stdint.h>

/* Whether a row of `r` already has `tuple`'s values in the columns of one
 * of `p`'s keys (each key is an index of r: dl_relq_choice_indexes). */
static inline bool
dl_choice_blocked(const struct dl_pred *p, const struct dl_rel *r,
		  const uint32_t *tuple)
{
	uint32_t key[MAELYS_DATALOG_MAX_ARITY], k, c;

	for (k = 0; k < p->nchoice; k++) {
		const struct dl_index *x = &r->idx[p->choice_index[k]];

		for (c = 0; c < x->ncols; c++)
			key[c] = tuple[x->cols[c]];
		if (dl_index_first(r, p->choice_index[k], key) != DL_ROW_NONE)
			return true;
	}
	return false;
}

#endif /* DL_CHOICE_H */
