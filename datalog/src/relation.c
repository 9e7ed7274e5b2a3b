/* SPDX-License-Identifier: MIT */
/*
 * Relation storage: row blocks, the duplicate-eliminating set and the hash
 * indexes of dl_relation.h, with every allocation charged to the solve's
 * memory budget.  Tables are open-addressed with linear probing and kept at
 * most 3/4 full.
 */
#include "dl_relation.h"

#include "dl_mem.h"

static size_t
dl_block_rows(uint32_t b)
{
	return (size_t)1 << (b + DL_BLOCK0_SHIFT);
}

/* Allocates `bytes` under the budget (zeroed when `zero`: large zeroed
 * blocks come from the kernel untouched, so a sparse table costs no time);
 * NULL with *over set when the budget would be exceeded. */
static void *
dl_rel_alloc_z(struct dl_membudget *mb, size_t bytes, bool zero, bool *over)
{
	void *p;

	*over = false;
	if (mb != NULL &&
	    bytes > mb->limit - (mb->used < mb->limit ? mb->used : mb->limit)) {
		*over = true;
		return NULL;
	}
	p = zero ? dl_calloc(1, bytes) : dl_alloc(bytes);
	if (p != NULL && mb != NULL)
		mb->used += bytes;
	return p;
}

static void *
dl_rel_alloc(struct dl_membudget *mb, size_t bytes, bool *over)
{
	return dl_rel_alloc_z(mb, bytes, false, over);
}

static void
dl_rel_release(struct dl_membudget *mb, void *p, size_t bytes)
{
	if (p == NULL)
		return;
	dl_free(p);
	if (mb != NULL)
		mb->used = mb->used > bytes ? mb->used - bytes : 0;
}

int
dl_rel_init(struct dl_rel *r, uint32_t arity, const uint32_t *masks,
	    uint32_t nmasks)
{
	uint32_t i, k;

	memset(r, 0, sizeof *r);
	r->arity = arity;
	if (nmasks == 0)
		return 0;
	r->idx = dl_calloc(nmasks, sizeof *r->idx);
	if (r->idx == NULL)
		return -1;
	r->nidx = nmasks;
	for (i = 0; i < nmasks; i++) {
		struct dl_index *x = &r->idx[i];

		x->mask = masks[i];
		for (k = 0; k < arity; k++)
			if ((masks[i] >> k) & 1u)
				x->cols[x->ncols++] = (uint8_t)k;
	}
	return 0;
}

static size_t
dl_set_bytes(size_t slots)
{
	return slots * sizeof(uint32_t);
}

static size_t
dl_index_bytes(size_t slots)
{
	return slots * sizeof(struct dl_index_slot);
}

void
dl_rel_free(struct dl_rel *r, struct dl_membudget *mb)
{
	uint32_t b, i;

	for (b = 0; b < r->nblocks; b++) {
		dl_rel_release(mb, r->blocks[b],
			       dl_block_rows(b) * r->arity * sizeof(uint32_t));
		for (i = 0; i < r->nidx; i++)
			dl_rel_release(mb, r->idx[i].next[b],
				       dl_block_rows(b) * sizeof(uint32_t));
	}
	dl_rel_release(mb, r->set, dl_set_bytes(r->set_slots));
	for (i = 0; i < r->nidx; i++)
		dl_rel_release(mb, r->idx[i].slots,
			       dl_index_bytes(r->idx[i].nslots));
	dl_free(r->idx);
	memset(r, 0, sizeof *r);
}

/* Tables larger than this and blocks past this many are returned when a
 * relation is cleared with `shrink`. */
#define DL_SHRINK_SLOTS  ((size_t)1 << 14)
#define DL_SHRINK_BLOCKS 10u

void
dl_rel_clear(struct dl_rel *r, bool shrink, struct dl_membudget *mb)
{
	uint32_t i, b;

	r->db = r->de = 0;
	if (r->count == 0)
		return; /* nothing stored, nothing grown since the last clear */
	r->count = 0;
	if (shrink) {
		for (b = DL_SHRINK_BLOCKS; b < r->nblocks; b++) {
			dl_rel_release(mb, r->blocks[b],
				       dl_block_rows(b) * r->arity *
					   sizeof(uint32_t));
			r->blocks[b] = NULL;
			for (i = 0; i < r->nidx; i++) {
				dl_rel_release(mb, r->idx[i].next[b],
					       dl_block_rows(b) *
						   sizeof(uint32_t));
				r->idx[i].next[b] = NULL;
			}
		}
		if (r->nblocks > DL_SHRINK_BLOCKS)
			r->nblocks = DL_SHRINK_BLOCKS;
		if (r->set_slots > DL_SHRINK_SLOTS) {
			dl_rel_release(mb, r->set, dl_set_bytes(r->set_slots));
			r->set = NULL;
			r->set_slots = 0;
		}
		for (i = 0; i < r->nidx; i++) {
			struct dl_index *x = &r->idx[i];

			if (x->nslots > DL_SHRINK_SLOTS) {
				dl_rel_release(mb, x->slots,
					       dl_index_bytes(x->nslots));
				x->slots = NULL;
				x->nslots = 0;
			}
		}
	}
	r->set_used = 0;
	if (r->set != NULL)
		memset(r->set, 0, dl_set_bytes(r->set_slots));
	for (i = 0; i < r->nidx; i++) {
		struct dl_index *x = &r->idx[i];

		x->used = 0;
		if (x->slots != NULL)
			memset(x->slots, 0, dl_index_bytes(x->nslots));
	}
}

static int
dl_fail_code(bool over)
{
	return over ? DL_REL_OVER_BUDGET : DL_REL_NO_MEMORY;
}

/* Makes room for row r->count: a new block when the last one is full. */
static int
dl_rel_reserve_row(struct dl_rel *r, struct dl_membudget *mb)
{
	uint32_t off, b, i;
	bool over;

	if (r->count >= DL_REL_ROWS_MAX)
		return DL_REL_TOO_BIG;
	b = dl_block_of(r->count, &off);
	if (b < r->nblocks)
		return 0;
	if (b >= DL_MAX_BLOCKS)
		return DL_REL_TOO_BIG;
	if (r->arity > 0) {
		r->blocks[b] = dl_rel_alloc(
		    mb, dl_block_rows(b) * r->arity * sizeof(uint32_t), &over);
		if (r->blocks[b] == NULL)
			return dl_fail_code(over);
	}
	for (i = 0; i < r->nidx; i++) {
		r->idx[i].next[b] = dl_rel_alloc(
		    mb, dl_block_rows(b) * sizeof(uint32_t), &over);
		if (r->idx[i].next[b] == NULL) {
			/* leave the relation as it was: no half block */
			while (i-- > 0) {
				dl_rel_release(mb, r->idx[i].next[b],
					       dl_block_rows(b) *
						   sizeof(uint32_t));
				r->idx[i].next[b] = NULL;
			}
			if (r->arity > 0) {
				dl_rel_release(mb, r->blocks[b],
					       dl_block_rows(b) * r->arity *
						   sizeof(uint32_t));
				r->blocks[b] = NULL;
			}
			return dl_fail_code(over);
		}
	}
	r->nblocks = b + 1;
	return 0;
}

/* Tables are kept at most 3/4 full: with the hash in every slot a probe
 * past a foreign entry costs a comparison of two integers, not a row. */
static bool
dl_table_full(size_t used, size_t slots)
{
	return used + 1 > slots - slots / 4;
}

/* The largest set: row + 1 must fit in the bits of its mask. */
#define DL_SET_SLOTS_MAX     ((size_t)1 << 31)
/* How many rows ahead a rebuild asks for the slot it will write. */
#define DL_SET_REBUILD_AHEAD 16u

/*
 * Gives the set room for one more row: a new table, the smallest that holds
 * count + 1 rows, filled again from the rows in row order (the order they
 * were first inserted in, so the table is the one inserting them would have
 * made).  The old table is freed before the new one is taken, so the two
 * never hold memory together: at the last growth of a large relation that
 * was half again the set's final size, and the peak of the whole solve.
 * When the new table cannot be had the set is left empty (count rows, no
 * slot), and the next growth rebuilds it: a failed insert leaves no stale
 * table behind.
 */
__attribute__((noinline)) static int
dl_set_grow(struct dl_rel *r, struct dl_membudget *mb)
{
	size_t n = 16, mask, pos, avail;
	uint32_t row, e, h, *set;
	bool over;

	while (dl_table_full(r->count, n)) {
		if (n >= DL_SET_SLOTS_MAX)
			return DL_REL_TOO_BIG;
		n *= 2;
	}
	if (mb != NULL) {
		avail =
		    mb->limit - (mb->used < mb->limit ? mb->used : mb->limit);
		/* n is larger than the old table: this cannot wrap */
		if (dl_set_bytes(n) - dl_set_bytes(r->set_slots) > avail)
			return DL_REL_OVER_BUDGET;
	}
	dl_rel_release(mb, r->set, dl_set_bytes(r->set_slots));
	r->set = NULL;
	r->set_slots = 0;
	r->set_used = 0;
	set = dl_rel_alloc_z(mb, dl_set_bytes(n), true, &over);
	if (set == NULL)
		return dl_fail_code(over);
	mask = n - 1;
	for (row = 0; row < r->count; row++) {
		const uint32_t *t = dl_rel_row(r, row);

		/* the rows are read in order, the slots written at random: ask
		 * for the slot of a row further on before it is needed, so the
		 * misses overlap */
		if (row + DL_SET_REBUILD_AHEAD < r->count) {
			const uint32_t *a =
			    dl_rel_row(r, row + DL_SET_REBUILD_AHEAD);

			__builtin_prefetch(
			    &set[(size_t)dl_tuple_hash(a, r->arity) & mask], 1);
		}
		h = dl_tuple_hash(t, r->arity);
		e = dl_rel_packed(r) ? t[0] ^ DL_PACK_EMPTY
				     : dl_set_entry(h, row, mask);
		for (pos = (size_t)h & mask; set[pos] != 0;
		     pos = (pos + 1) & mask)
			;
		set[pos] = e;
	}
	r->set = set;
	r->set_slots = n;
	r->set_used = r->count;
	return 0;
}

static uint32_t
dl_index_row_hash(const struct dl_rel *r, const struct dl_index *x,
		  uint32_t row)
{
	const uint32_t *t = dl_rel_row(r, row);
	uint32_t key[MAELYS_DATALOG_MAX_ARITY], k;

	for (k = 0; k < x->ncols; k++)
		key[k] = t[x->cols[k]];
	return dl_tuple_hash(key, x->ncols);
}

static int
dl_index_grow(struct dl_index *x, struct dl_membudget *mb)
{
	size_t n = x->nslots == 0 ? 16 : x->nslots * 2, mask = n - 1, i;
	struct dl_index_slot *slots;
	bool over;

	slots = dl_rel_alloc_z(mb, dl_index_bytes(n), true, &over);
	if (slots == NULL)
		return dl_fail_code(over);
	for (i = 0; i < x->nslots; i++) {
		size_t pos;

		if (x->slots[i].head == 0)
			continue;
		for (pos = (size_t)x->slots[i].hash & mask;
		     slots[pos].head != 0; pos = (pos + 1) & mask)
			;
		slots[pos] = x->slots[i];
	}
	dl_rel_release(mb, x->slots, dl_index_bytes(x->nslots));
	x->slots = slots;
	x->nslots = n;
	return 0;
}

/* Links the (already stored) row into index x. */
static void
dl_index_add(struct dl_rel *r, struct dl_index *x, uint32_t row)
{
	const uint32_t *t = dl_rel_row(r, row);
	size_t mask = x->nslots - 1, pos;
	uint32_t off, b = dl_block_of(row, &off), k, h;

	x->next[b][off] = DL_ROW_NONE;
	h = dl_index_row_hash(r, x, row);
	for (pos = (size_t)h & mask;; pos = (pos + 1) & mask) {
		struct dl_index_slot *s = &x->slots[pos];
		const uint32_t *first;

		if (s->head == 0) {
			s->hash = h;
			s->head = row + 1;
			s->tail = row;
			x->used++;
			return;
		}
		if (s->hash != h)
			continue;
		first = dl_rel_row(r, s->head - 1);
		for (k = 0; k < x->ncols; k++)
			if (first[x->cols[k]] != t[x->cols[k]])
				break;
		if (k == x->ncols) {
			uint32_t toff, tb = dl_block_of(s->tail, &toff);

			x->next[tb][toff] = row;
			s->tail = row;
			return;
		}
	}
}

int
dl_rel_insert(struct dl_rel *r, const uint32_t *tuple, struct dl_membudget *mb)
{
	return dl_rel_insert_hashed(r, tuple, dl_tuple_hash(tuple, r->arity),
				    mb);
}

int
dl_rel_insert_hashed(struct dl_rel *r, const uint32_t *tuple, uint32_t h,
		     struct dl_membudget *mb)
{
	size_t mask, pos;
	uint32_t i, row, key;
	int rc;

	if (r->arity == 0) {
		if (r->count > 0)
			return DL_REL_DUPLICATE;
		if ((rc = dl_rel_reserve_row(r, mb)) != 0)
			return rc;
		for (i = 0; i < r->nidx; i++) {
			uint32_t off, b = dl_block_of(0, &off);

			r->idx[i].next[b][off] = DL_ROW_NONE;
		}
		r->count = 1;
		return DL_REL_INSERTED;
	}
	/* grow first so the slot found below stays valid */
	if (dl_table_full(r->set_used, r->set_slots) &&
	    (rc = dl_set_grow(r, mb)) != 0)
		return rc;
	mask = r->set_slots - 1;
	if (dl_rel_packed(r)) {
		key = tuple[0] ^ DL_PACK_EMPTY;
		for (pos = (size_t)h & mask;; pos = (pos + 1) & mask) {
			if (r->set[pos] == key)
				return DL_REL_DUPLICATE;
			if (r->set[pos] == 0)
				break;
		}
	} else {
		for (pos = (size_t)h & mask;; pos = (pos + 1) & mask) {
			uint32_t e = r->set[pos];

			if (e == 0)
				break;
			if (dl_set_hash_match(e, h, mask) &&
			    dl_tuple_eq(dl_rel_row(r, dl_set_row(e, mask)),
					tuple, r->arity))
				return DL_REL_DUPLICATE;
		}
		key = dl_set_entry(h, r->count, mask);
	}
	if ((rc = dl_rel_reserve_row(r, mb)) != 0)
		return rc;
	for (i = 0; i < r->nidx; i++) {
		struct dl_index *x = &r->idx[i];

		if (dl_table_full(x->used, x->nslots) &&
		    (rc = dl_index_grow(x, mb)) != 0)
			return rc;
	}
	row = r->count;
	{
		uint32_t off, b = dl_block_of(row, &off), k;
		uint32_t *dst = r->blocks[b] + (size_t)off * r->arity;

		for (k = 0; k < r->arity; k++)
			dst[k] = tuple[k];
	}
	r->set[pos] = key; /* a row id, if any, was counted as `row` */
	r->set_used++;
	r->count++;
	for (i = 0; i < r->nidx; i++)
		dl_index_add(r, &r->idx[i], row);
	return DL_REL_INSERTED;
}

int
dl_rel_drop(struct dl_rel *r, const struct dl_rel *dead, uint32_t *split,
	    struct dl_membudget *mb)
{
	size_t bytes = (size_t)r->count * r->arity * sizeof(uint32_t);
	uint32_t *keep, row, kept = 0, below = 0;
	bool over;

	if (r->count == 0 || r->arity == 0 || dead->count == 0)
		return 0;
	keep = dl_rel_alloc(mb, bytes, &over);
	if (keep == NULL)
		return dl_fail_code(over);
	for (row = 0; row < r->count; row++) {
		const uint32_t *t = dl_rel_row(r, row);

		if (dl_rel_contains(dead, t))
			continue;
		memcpy(keep + (size_t)kept * r->arity, t,
		       r->arity * sizeof(uint32_t));
		kept++;
		if (row < *split)
			below++;
	}
	if (kept < r->count) {
		/* the blocks, the set and the indexes stay allocated: the
		 * fewer rows go back without a new allocation */
		dl_rel_clear(r, false, mb);
		for (row = 0; row < kept; row++) {
			int rc = dl_rel_insert(
			    r, keep + (size_t)row * r->arity, mb);

			if (rc < 0) {
				dl_rel_release(mb, keep, bytes);
				return rc;
			}
		}
		*split = below;
	}
	dl_rel_release(mb, keep, bytes);
	return 0;
}
