/* SPDX-License-Identifier: MIT */
/*
 * Relations: sets of fixed-width tuples of 32-bit values.
 *
 * Rows live in geometric blocks (16, 32, 64, ... rows) that are allocated
 * once and never move, so a row id is stable while the relation grows under
 * a running join, and no tuple is ever allocated on its own.  Row ids grow in
 * insertion order, which is what semi-naive evaluation needs: "the tuples of
 * the last iteration" is a range of row ids.
 *
 * A relation has an open-addressed set of row ids (duplicate elimination,
 * lookups with every column bound) and the hash indexes its plans probe, one
 * per set of bound columns.  The set's slots are 32 bits: with the rows it
 * is most of a large relation's memory.  An index maps a key to a
 * chain of row ids linked in insertion order, so a probe restricted to rows
 * below a bound stops at the first row past it.
 */
#ifndef DL_RELATION_H
#define DL_RELATION_H

#include "dl_hash.h"
#include "dl_symbols.h"

#include <maelys/datalog.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define DL_ROW_NONE     UINT32_MAX
#define DL_BLOCK0_SHIFT 4
#define DL_MAX_BLOCKS   27 /* 16 * (2^27 - 1) rows: about 2^31 */
#define DL_REL_ROWS_MAX (UINT32_C(1) << 31)

/* Memory accounting shared by the relations of one solve. */
struct dl_membudget {
	size_t used;
	size_t limit;
};

/* Hash tables store a 32-bit hash beside each entry: a probe compares rows
 * only when the hashes agree, and growing never rehashes a tuple. */
struct dl_index_slot {
	uint32_t hash;
	uint32_t head; /* first row of the key, + 1; 0 = empty slot */
	uint32_t tail; /* last row of the key */
};

struct dl_index {
	uint32_t mask;
	uint32_t ncols;
	uint8_t cols[MAELYS_DATALOG_MAX_ARITY];
	struct dl_index_slot *slots;
	size_t nslots, used;
	uint32_t *next[DL_MAX_BLOCKS]; /* per row: the next row of its key */
};

struct dl_rel {
	uint32_t arity;
	uint32_t count;
	/* semi-naive markers: rows [db, de) are the delta of the iteration
	 * being evaluated, [0, de) what it may see */
	uint32_t db, de;
	uint32_t nblocks;
	uint32_t *blocks[DL_MAX_BLOCKS];
	/* arity > 1: the hash's bits above the slot mask, then row + 1 in
	 * the bits of the mask (dl_set_entry); arity 1: the value XOR
	 * DL_PACK_EMPTY (dl_rel_packed); 0 = empty either way */
	uint32_t *set;
	size_t set_slots, set_used;
	struct dl_index *idx;
	uint32_t nidx;
	size_t bytes; /* accounted in the membudget */
};

enum dl_rel_result {
	DL_REL_DUPLICATE = 0,
	DL_REL_INSERTED = 1,
	DL_REL_NO_MEMORY = -1,
	DL_REL_OVER_BUDGET = -2,
	DL_REL_TOO_BIG = -3,
};

int dl_rel_init(struct dl_rel *r, uint32_t arity, const uint32_t *masks,
		uint32_t nmasks);
void dl_rel_free(struct dl_rel *r, struct dl_membudget *mb);
/* Empties the relation; keeps its memory unless `shrink`, which returns
 * large blocks and tables. */
void dl_rel_clear(struct dl_rel *r, bool shrink, struct dl_membudget *mb);

static inline uint32_t
dl_block_of(uint32_t row, uint32_t *offset)
{
	uint64_t j = (uint64_t)row + (UINT64_C(1) << DL_BLOCK0_SHIFT);
	unsigned b = 63u - (unsigned)__builtin_clzll(j);

	*offset = (uint32_t)(j - (UINT64_C(1) << b));
	return b - DL_BLOCK0_SHIFT;
}

static inline const uint32_t *
dl_rel_row(const struct dl_rel *r, uint32_t row)
{
	uint32_t off, b = dl_block_of(row, &off);

	return r->blocks[b] + (size_t)off * r->arity;
}

/* Removes the rows whose tuple `dead` (of the same arity) holds, keeping
 * the others in their order: the relation is rebuilt, its row ids
 * renumbered.  *split is a row id on entry and, on return, the number of
 * rows kept below it (where the rows from *split on now start).  Costs
 * one copy of the relation's rows, under the budget.  Returns 0, or
 * DL_REL_NO_MEMORY / DL_REL_OVER_BUDGET (for that copy: the relation is
 * then unchanged; the rows kept fit in the memory the relation has, so
 * putting them back does not fail). */
int dl_rel_drop(struct dl_rel *r, const struct dl_rel *dead, uint32_t *split,
		struct dl_membudget *mb);
/* Inserts a tuple (arity values).  Returns enum dl_rel_result. */
int dl_rel_insert(struct dl_rel *r, const uint32_t *tuple,
		  struct dl_membudget *mb);
/* The same with the tuple's dl_tuple_hash already computed. */
int dl_rel_insert_hashed(struct dl_rel *r, const uint32_t *tuple, uint32_t h,
			 struct dl_membudget *mb);

static inline uint32_t
dl_tuple_hash(const uint32_t *t, uint32_t n)
{
	uint64_t h = DL_HASH_SEED;
	uint32_t i;

	for (i = 0; i < n; i++)
		h = dl_hash_step(h, t[i]);
	h = dl_hash_finish(h);
	return (uint32_t)(h ^ (h >> 32));
}

static inline bool
dl_tuple_eq(const uint32_t *a, const uint32_t *b, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/*
 * A relation of one column keeps the value itself in its set, not a row id:
 * recognising a duplicate then costs one memory access, not two.  The value
 * 0x7fffffff is never a column (not an inline integer, above the largest
 * symbol id), so a value XOR DL_PACK_EMPTY is never 0, the empty slot.  Such
 * a relation cannot say in which row a value is: the planner probes an
 * all-columns index instead where a row matters (plan.c).
 */
#define DL_PACK_EMPTY UINT32_C(0x7fffffff)

static inline bool
dl_rel_packed(const struct dl_rel *r)
{
	return r->arity == 1;
}

/*
 * A slot of a larger relation's set holds row + 1 in the bits of the slot
 * mask (a set is never more than 3/4 full, so every row id fits) and the
 * tuple's hash in the bits above: the slot's position already says the
 * hash's low bits, so the rest tells a foreign tuple from the one sought
 * without reading its row (one row in 2^(32 - log2 slots) is read in vain).
 * Growing rebuilds the set from the rows, in row order.
 */
static inline uint32_t
dl_set_entry(uint32_t h, uint32_t row, size_t mask)
{
	return (h & ~(uint32_t)mask) | (row + 1);
}

/* Whether entry `e` may be the tuple of hash `h` (not empty, same bits). */
static inline bool
dl_set_hash_match(uint32_t e, uint32_t h, size_t mask)
{
	return e != 0 && ((e ^ h) & ~(uint32_t)mask) == 0;
}

static inline uint32_t
dl_set_row(uint32_t e, size_t mask)
{
	return (e & (uint32_t)mask) - 1;
}

static inline uint32_t dl_rel_find(const struct dl_rel *r,
				   const uint32_t *tuple);

/* Whether the relation holds `tuple`. */
static inline bool
dl_rel_contains(const struct dl_rel *r, const uint32_t *tuple)
{
	size_t mask, pos;
	uint32_t key;

	if (r->arity == 0)
		return r->count > 0;
	if (r->set_slots == 0)
		return false;
	mask = r->set_slots - 1;
	if (dl_rel_packed(r)) {
		key = tuple[0] ^ DL_PACK_EMPTY;
		for (pos = (size_t)dl_tuple_hash(tuple, 1) & mask;;
		     pos = (pos + 1) & mask) {
			if (r->set[pos] == key)
				return true;
			if (r->set[pos] == 0)
				return false;
		}
	}
	return dl_rel_find(r, tuple) != DL_ROW_NONE;
}

/* The row holding `tuple`, or DL_ROW_NONE.  Not for a packed relation
 * (dl_rel_packed), whose set knows no rows. */
static inline uint32_t
dl_rel_find(const struct dl_rel *r, const uint32_t *tuple)
{
	size_t mask, pos;
	uint32_t h;

	if (r->arity == 0)
		return r->count > 0 ? 0 : DL_ROW_NONE;
	if (r->set_slots == 0)
		return DL_ROW_NONE;
	h = dl_tuple_hash(tuple, r->arity);
	mask = r->set_slots - 1;
	for (pos = (size_t)h & mask;; pos = (pos + 1) & mask) {
		uint32_t e = r->set[pos], row;

		if (e == 0)
			return DL_ROW_NONE;
		if (!dl_set_hash_match(e, h, mask))
			continue;
		row = dl_set_row(e, mask);
		if (dl_tuple_eq(dl_rel_row(r, row), tuple, r->arity))
			return row;
	}
}

/* The first row whose index columns equal `key` (in index column order). */
static inline uint32_t
dl_index_first(const struct dl_rel *r, uint32_t i, const uint32_t *key)
{
	const struct dl_index *x = &r->idx[i];
	size_t mask, pos;
	uint32_t k, h;

	if (x->nslots == 0)
		return DL_ROW_NONE;
	h = dl_tuple_hash(key, x->ncols);
	mask = x->nslots - 1;
	for (pos = (size_t)h & mask;; pos = (pos + 1) & mask) {
		const struct dl_index_slot *s = &x->slots[pos];
		const uint32_t *row;

		if (s->head == 0)
			return DL_ROW_NONE;
		if (s->hash != h)
			continue;
		row = dl_rel_row(r, s->head - 1);
		for (k = 0; k < x->ncols; k++)
			if (row[x->cols[k]] != key[k])
				break;
		if (k == x->ncols)
			return s->head - 1;
	}
}

/* Hints for batched inserts: bring the set slot a tuple hashes to, then the
 * row that slot names, into the cache before the insert needs them. */
static inline void
dl_rel_prefetch_slot(const struct dl_rel *r, uint32_t h)
{
	if (r->set_slots > 0)
		__builtin_prefetch(&r->set[(size_t)h & (r->set_slots - 1)]);
}

static inline void
dl_rel_prefetch_row(const struct dl_rel *r, uint32_t h)
{
	size_t mask, pos, k;
	uint32_t e;

	if (r->set_slots == 0 || dl_rel_packed(r))
		return; /* a packed set needs no row to compare */
	mask = r->set_slots - 1;
	/* the tuple may sit a few slots past its home: look as far as the
	 * probe would, within a few slots (one or two cache lines) */
	for (pos = (size_t)h & mask, k = 0; k < 8;
	     k++, pos = (pos + 1) & mask) {
		e = r->set[pos];
		if (e == 0)
			return;
		if (dl_set_hash_match(e, h, mask)) {
			__builtin_prefetch(dl_rel_row(r, dl_set_row(e, mask)));
			return;
		}
	}
}

static inline uint32_t
dl_index_next(const struct dl_rel *r, uint32_t i, uint32_t row)
{
	uint32_t off, b = dl_block_of(row, &off);

	return r->idx[i].next[b][off];
}

#endif /* DL_RELATION_H */
