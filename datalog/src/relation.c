/* SPDX-License-Identifier: MIT */
/*
 * Relation storage: row blocks, the duplicate-eliminating set and the hash
 * indexes of dl_relation.h, with every allocation charged to the solve's
 * memory budget.  Tables are open-addressed with linear probing and kept at
 * most half full.
 */
#include "dl_relation.h"

#include "dl_mem.h"

static size_t
dl_block_rows(uint32_t b)
{
	return (size_t)1 << (b + DL_BLOCK0_SHIFT);
}

/* Allocates `bytes` under the budget; NULL with *over set when the budget
 * would be exceeded. */
static void *
dl_rel_alloc(struct dl_membudget *mb, size_t bytes, bool *over)
{
	void *p;

	*over = false;
	if (mb != NULL && bytes > mb->limit - (mb->used < mb->limit ? mb->used : mb->limit)) {
		*over = true;
		return NULL;
	}
	p = dl_alloc(bytes);
	if (p != NULL && mb != NULL)
		mb->used += bytes;
	return p;
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
	return slots * 2 * sizeof(uint32_t);
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
#define DL_SHRINK_SLOTS ((size_t)1 << 14)
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
	if (r->set != NULL)
		memset(r->set, 0xff, dl_set_bytes(r->set_slots));
	for (i = 0; i < r->nidx; i++) {
		struct dl_index *x = &r->idx[i];

		x->used = 0;
		if (x->slots != NULL)
			memset(x->slots, 0xff, dl_index_bytes(x->nslots));
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
		r->blocks[b] = dl_rel_alloc(mb, dl_block_rows(b) * r->arity *
							sizeof(uint32_t),
					    &over);
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

static int
dl_set_grow(struct dl_rel *r, struct dl_membudget *mb)
{
	size_t n = r->set_slots == 0 ? 16 : r->set_slots * 2, mask = n - 1;
	uint32_t *set, row;
	bool over;

	set = dl_rel_alloc(mb, dl_set_bytes(n), &over);
	if (set == NULL)
		return dl_fail_code(over);
	memset(set, 0xff, dl_set_bytes(n));
	for (row = 0; row < r->count; row++) {
		size_t pos = (size_t)dl_tuple_hash(dl_rel_row(r, row), r->arity) &
			     mask;

		while (set[pos] != DL_ROW_NONE)
			pos = (pos + 1) & mask;
		set[pos] = row;
	}
	dl_rel_release(mb, r->set, dl_set_bytes(r->set_slots));
	r->set = set;
	r->set_slots = n;
	return 0;
}

static uint64_t
dl_index_row_hash(const struct dl_rel *r, const struct dl_index *x,
		  uint32_t row)
{
	const uint32_t *t = dl_rel_row(r, row);
	uint64_t h = DL_HASH_SEED;
	uint32_t k;

	for (k = 0; k < x->ncols; k++)
		h = dl_hash_step(h, t[x->cols[k]]);
	return dl_hash_finish(h);
}

static int
dl_index_grow(struct dl_rel *r, struct dl_index *x, struct dl_membudget *mb)
{
	size_t n = x->nslots == 0 ? 16 : x->nslots * 2, mask = n - 1, i;
	uint32_t *slots;
	bool over;

	slots = dl_rel_alloc(mb, dl_index_bytes(n), &over);
	if (slots == NULL)
		return dl_fail_code(over);
	memset(slots, 0xff, dl_index_bytes(n));
	for (i = 0; i < x->nslots; i++) {
		uint32_t head = x->slots[2 * i];
		size_t pos;

		if (head == DL_ROW_NONE)
			continue;
		pos = (size_t)dl_index_row_hash(r, x, head) & mask;
		while (slots[2 * pos] != DL_ROW_NONE)
			pos = (pos + 1) & mask;
		slots[2 * pos] = head;
		slots[2 * pos + 1] = x->slots[2 * i + 1];
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
	uint32_t off, b = dl_block_of(row, &off), k;

	x->next[b][off] = DL_ROW_NONE;
	for (pos = (size_t)dl_index_row_hash(r, x, row) & mask;;
	     pos = (pos + 1) & mask) {
		uint32_t head = x->slots[2 * pos];
		const uint32_t *h;

		if (head == DL_ROW_NONE) {
			x->slots[2 * pos] = row;
			x->slots[2 * pos + 1] = row;
			x->used++;
			return;
		}
		h = dl_rel_row(r, head);
		for (k = 0; k < x->ncols; k++)
			if (h[x->cols[k]] != t[x->cols[k]])
				break;
		if (k == x->ncols) {
			uint32_t tail = x->slots[2 * pos + 1], toff;
			uint32_t tb = dl_block_of(tail, &toff);

			x->next[tb][toff] = row;
			x->slots[2 * pos + 1] = row;
			return;
		}
	}
}

int
dl_rel_insert(struct dl_rel *r, const uint32_t *tuple,
	      struct dl_membudget *mb)
{
	size_t mask, pos;
	uint32_t i, row;
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
	if ((r->count + 1) * 2 > r->set_slots && (rc = dl_set_grow(r, mb)) != 0)
		return rc;
	mask = r->set_slots - 1;
	for (pos = (size_t)dl_tuple_hash(tuple, r->arity) & mask;;
	     pos = (pos + 1) & mask) {
		row = r->set[pos];
		if (row == DL_ROW_NONE)
			break;
		if (memcmp(dl_rel_row(r, row), tuple,
			   r->arity * sizeof *tuple) == 0)
			return DL_REL_DUPLICATE;
	}
	if ((rc = dl_rel_reserve_row(r, mb)) != 0)
		return rc;
	for (i = 0; i < r->nidx; i++) {
		struct dl_index *x = &r->idx[i];

		if ((x->used + 1) * 2 > x->nslots &&
		    (rc = dl_index_grow(r, x, mb)) != 0)
			return rc;
	}
	row = r->count;
	{
		uint32_t off, b = dl_block_of(row, &off);

		memcpy(r->blocks[b] + (size_t)off * r->arity, tuple,
		       r->arity * sizeof *tuple);
	}
	r->set[pos] = row;
	r->count++;
	for (i = 0; i < r->nidx; i++)
		dl_index_add(r, &r->idx[i], row);
	return DL_REL_INSERTED;
}
