/* SPDX-License-Identifier: MIT */
/*
 * maelys_datalog_walk: the one traversal of a derivation tree, for every
 * program that prints one (the runner's --explain, `maelys-pty explain`).
 * Depth first, without recursion: a stack of the tuples being walked into,
 * never deeper than the walk's max_depth, and a set of the tuples walked
 * into (open addressing on (relation, row)), at most max_shown of them, so
 * that a shared subtree is walked once.  It only reads the records
 * (result_tuple, result_derivation, result_premise): what the tree says is
 * theirs, how it is worded the caller's.
 */
#include "dl_api.h"
#include "dl_mem.h"

#include <string.h>

/* A tuple being walked into: its next premise to visit. */
struct walk_frame {
	maelys_datalog_tuple_t tuple;
	size_t rule, next, count, depth;
};

struct maelys_datalog_walk {
	const maelys_datalog_result_t *res;
	size_t max_shown;
	/* the tuples walked into: (relation << 32 | row) + 1, 0 = empty,
	 * and the number each was visited as */
	uint64_t *keys;
	size_t *numbers;
	size_t nslots, used;
	struct walk_frame *frames;
	size_t nframes, cap;
};

static uint64_t
walk_key(maelys_datalog_tuple_t t)
{
	return ((uint64_t)t.relation << 32 | t.row) + 1;
}

static size_t
walk_slot(const uint64_t *keys, size_t nslots, uint64_t key)
{
	size_t mask = nslots - 1;
	size_t i = (size_t)(key * UINT64_C(0x9e3779b97f4a7c15) >> 20) & mask;

	while (keys[i] != 0 && keys[i] != key)
		i = (i + 1) & mask;
	return i;
}

/* The number a tuple was walked into as, or 0. */
static size_t
walk_seen(const struct maelys_datalog_walk *w, maelys_datalog_tuple_t t)
{
	uint64_t key = walk_key(t);
	size_t i;

	if (w->nslots == 0)
		return 0;
	i = walk_slot(w->keys, w->nslots, key);
	return w->keys[i] == key ? w->numbers[i] : 0;
}

/* Remembers a tuple (not yet remembered) as number used + 1. */
static maelys_datalog_status_t
walk_remember(struct maelys_datalog_walk *w, maelys_datalog_tuple_t t)
{
	size_t i;

	if (w->used >= w->max_shown)
		return MAELYS_DATALOG_STATUS_LIMIT;
	if (w->used + 1 > w->nslots / 2) {
		size_t n = w->nslots != 0 ? w->nslots : 32, j;
		uint64_t *keys;
		size_t *numbers;

		if (!dl_size_mul(n, 2, &n))
			return MAELYS_DATALOG_STATUS_NO_MEMORY;
		keys = dl_calloc(n, sizeof *keys);
		numbers = dl_calloc(n, sizeof *numbers);
		if (keys == NULL || numbers == NULL) {
			dl_free(keys);
			dl_free(numbers);
			return MAELYS_DATALOG_STATUS_NO_MEMORY;
		}
		for (i = 0; i < w->nslots; i++) {
			if (w->keys[i] == 0)
				continue;
			j = walk_slot(keys, n, w->keys[i]);
			keys[j] = w->keys[i];
			numbers[j] = w->numbers[i];
		}
		dl_free(w->keys);
		dl_free(w->numbers);
		w->keys = keys;
		w->numbers = numbers;
		w->nslots = n;
	}
	i = walk_slot(w->keys, w->nslots, walk_key(t));
	w->keys[i] = walk_key(t);
	w->numbers[i] = ++w->used;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_walk_create(const maelys_datalog_result_t *result,
			   size_t max_shown, maelys_datalog_walk_t **out)
{
	struct maelys_datalog_walk *w;

	if (out != NULL)
		*out = NULL;
	if (result == NULL || out == NULL || max_shown == 0)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	if (!result->session->provenance)
		return MAELYS_DATALOG_STATUS_ROLE;
	if ((w = dl_calloc(1, sizeof *w)) == NULL)
		return MAELYS_DATALOG_STATUS_NO_MEMORY;
	w->res = result;
	w->max_shown = max_shown;
	*out = w;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_walk_free(maelys_datalog_walk_t *walk)
{
	if (walk == NULL)
		return MAELYS_DATALOG_STATUS_OK;
	dl_free(walk->keys);
	dl_free(walk->numbers);
	dl_free(walk->frames);
	dl_free(walk);
	return MAELYS_DATALOG_STATUS_OK;
}

/* Visits tuple `t` at `depth`; a tuple walked into gets a frame, so its
 * premises follow.  *stop is set when the visitor ends the walk. */
static maelys_datalog_status_t
walk_tuple(struct maelys_datalog_walk *w, maelys_datalog_tuple_t t,
	   size_t depth, size_t max_depth, maelys_datalog_walk_visit visit,
	   void *ctx, int *stop)
{
	maelys_datalog_walk_node_t node;
	maelys_datalog_derivation_t d;
	maelys_datalog_status_t st;

	memset(&node, 0, sizeof node);
	node.depth = depth;
	node.tuple = t;
	if ((st = maelys_datalog_result_tuple(w->res, t, &node.predicate,
					      &node.terms)) !=
		MAELYS_DATALOG_STATUS_OK ||
	    (st = maelys_datalog_result_derivation(w->res, t, &d)) !=
		MAELYS_DATALOG_STATUS_OK)
		return st;
	switch (d.origin) {
	case MAELYS_DATALOG_ORIGIN_INPUT:
		node.kind = MAELYS_DATALOG_WALK_INPUT;
		break;
	case MAELYS_DATALOG_ORIGIN_POLICY:
		node.kind = MAELYS_DATALOG_WALK_POLICY;
		break;
	case MAELYS_DATALOG_ORIGIN_RULE:
		node.rule = d.rule;
		if ((node.number = walk_seen(w, t)) != 0) {
			node.kind = MAELYS_DATALOG_WALK_SHOWN;
			break;
		}
		if (depth >= max_depth) {
			node.kind = MAELYS_DATALOG_WALK_DEEPER;
			break;
		}
		/* room for its frame first: a failure leaves it unseen */
		if (dl_vec_reserve((void **)&w->frames, &w->cap, w->nframes + 1,
				   sizeof *w->frames) != 0)
			return MAELYS_DATALOG_STATUS_NO_MEMORY;
		if ((st = walk_remember(w, t)) != MAELYS_DATALOG_STATUS_OK)
			return st;
		node.kind = MAELYS_DATALOG_WALK_RULE;
		node.number = w->used;
		w->frames[w->nframes].tuple = t;
		w->frames[w->nframes].rule = d.rule;
		w->frames[w->nframes].next = 0;
		w->frames[w->nframes].count = d.premise_count;
		w->frames[w->nframes].depth = depth;
		w->nframes++;
		break;
	default:
		node.kind = MAELYS_DATALOG_WALK_UNKNOWN;
		break;
	}
	*stop = visit(&node, ctx) != 0;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_walk(maelys_datalog_walk_t *walk, maelys_datalog_tuple_t root,
		    size_t max_depth, maelys_datalog_walk_visit visit,
		    void *ctx)
{
	maelys_datalog_walk_node_t node;
	maelys_datalog_premise_t p;
	maelys_datalog_status_t st;
	int stop = 0;

	if (walk == NULL || visit == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	walk->nframes = 0;
	st = walk_tuple(walk, root, 0, max_depth, visit, ctx, &stop);
	while (st == MAELYS_DATALOG_STATUS_OK && !stop && walk->nframes > 0) {
		struct walk_frame f = walk->frames[walk->nframes - 1];

		if (f.next == f.count) {
			walk->nframes--;
			continue;
		}
		walk->frames[walk->nframes - 1].next++;
		if ((st = maelys_datalog_result_premise(walk->res, f.tuple,
							f.next, &p)) !=
		    MAELYS_DATALOG_STATUS_OK)
			break;
		if (p.kind == MAELYS_DATALOG_LITERAL_ATOM) {
			st = walk_tuple(walk, p.tuple, f.depth + 1, max_depth,
					visit, ctx, &stop);
			continue;
		}
		memset(&node, 0, sizeof node);
		node.kind = p.kind == MAELYS_DATALOG_LITERAL_NEGATED
				? MAELYS_DATALOG_WALK_NEGATED
				: MAELYS_DATALOG_WALK_BUILTIN;
		node.depth = f.depth + 1;
		node.predicate = p.predicate;
		node.terms = p.terms;
		node.rule = f.rule;
		node.literal = f.next;
		stop = visit(&node, ctx) != 0;
	}
	walk->nframes = 0;
	return st;
}
