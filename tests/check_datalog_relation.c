/* SPDX-License-Identifier: MIT */
/*
 * The relation store (dl_relation.h): its set of 32-bit slots finds every
 * tuple it holds, and only those, through every growth, for one, two and
 * more columns; a row is found where it was put; a growth refused by the
 * memory budget leaves the relation as it was, and one whose allocation
 * fails leaves a relation that the next insert makes whole again; rows
 * dropped (subsumption's pruning) leave the rest in order.  The
 * engine's answers rest on this; the suites above it reach these paths only
 * by chance of a program's size.
 */
#include "runner.h"

#include <stdint.h>
#include <stdlib.h>

#include "dl_mem.h"
#include "dl_relation.h"

/* More rows than the set's slot mask leaves hash bits for at its first
 * sizes, and enough growths to move every row several times. */
#define MANY 150000u

/* The k-th tuple of a relation of `arity` columns: distinct for distinct
 * k, values spread like symbol ids and inline integers alike. */
static void
tuple_of(uint32_t k, uint32_t arity, uint32_t *t)
{
	uint32_t c;

	for (c = 0; c < arity; c++)
		t[c] = c == 0   ? dl_value_make_inline_int((int64_t)(k / 7))
		       : c == 1 ? k % 7 + 1000u * (k % 3)
				: k * 31u + c;
	if (arity == 1)
		t[0] = dl_value_make_inline_int((int64_t)k * 3);
}

static void
fill(struct dl_rel *r, uint32_t arity, uint32_t n, struct dl_membudget *mb)
{
	uint32_t t[4], k;

	for (k = 0; k < n; k++) {
		tuple_of(k, arity, t);
		ck_assert_int_eq(dl_rel_insert(r, t, mb), DL_REL_INSERTED);
	}
}

START_TEST(test_relation_set_finds_each_tuple_through_growth)
{
	static const uint32_t arities[] = {1, 2, 3};
	uint32_t arity = arities[_i], t[4], k;
	struct dl_membudget mb = {0, SIZE_MAX};
	struct dl_rel r;

	ck_assert_int_eq(dl_rel_init(&r, arity, NULL, 0), 0);
	fill(&r, arity, MANY, &mb);
	ck_assert_uint_eq(r.count, MANY);
	/* at most 3/4 full, and no larger than twice that */
	ck_assert_uint_le(r.count + 1, r.set_slots - r.set_slots / 4);
	ck_assert_uint_gt(r.count + 1, (r.set_slots / 2) - r.set_slots / 8);
	for (k = 0; k < MANY; k++) {
		tuple_of(k, arity, t);
		ck_assert(dl_rel_contains(&r, t));
		ck_assert_int_eq(dl_rel_insert(&r, t, &mb), DL_REL_DUPLICATE);
		if (!dl_rel_packed(&r))
			ck_assert_uint_eq(dl_rel_find(&r, t), k);
	}
	for (k = MANY; k < MANY + 1000; k++) {
		tuple_of(k, arity, t);
		ck_assert(!dl_rel_contains(&r, t));
		if (!dl_rel_packed(&r))
			ck_assert_uint_eq(dl_rel_find(&r, t), DL_ROW_NONE);
	}
	ck_assert_uint_eq(r.count, MANY);
	/* the accounting gives back all it charged */
	dl_rel_free(&r, &mb);
	ck_assert_uint_eq(mb.used, 0);
}
END_TEST

START_TEST(test_relation_cleared_set_forgets_and_refills)
{
	struct dl_membudget mb = {0, SIZE_MAX};
	uint32_t t[2], k;
	struct dl_rel r;

	ck_assert_int_eq(dl_rel_init(&r, 2, NULL, 0), 0);
	fill(&r, 2, 40000, &mb);
	dl_rel_clear(&r, true, &mb);
	ck_assert_uint_eq(r.count, 0);
	tuple_of(5, 2, t);
	ck_assert(!dl_rel_contains(&r, t));
	fill(&r, 2, 40000, &mb);
	for (k = 0; k < 40000; k++) {
		tuple_of(k, 2, t);
		ck_assert_uint_eq(dl_rel_find(&r, t), k);
	}
	dl_rel_free(&r, &mb);
	ck_assert_uint_eq(mb.used, 0);
}
END_TEST

/* A growth the budget cannot pay for is refused before the old table is
 * given back: the relation still holds and finds all it had. */
START_TEST(test_relation_growth_over_budget_keeps_the_relation)
{
	struct dl_membudget mb = {0, SIZE_MAX};
	uint32_t t[2], k, n = 0;
	struct dl_rel r;
	int rc;

	ck_assert_int_eq(dl_rel_init(&r, 2, NULL, 0), 0);
	fill(&r, 2, 1000, &mb);
	/* room for a block of rows, not for a doubled set */
	mb.limit = mb.used + 12288;
	for (k = 1000;; k++) {
		tuple_of(k, 2, t);
		rc = dl_rel_insert(&r, t, &mb);
		if (rc != DL_REL_INSERTED)
			break;
		n++;
	}
	ck_assert_int_eq(rc, DL_REL_OVER_BUDGET);
	ck_assert_uint_eq(r.count, 1000 + n);
	for (k = 0; k < 1000 + n; k++) {
		tuple_of(k, 2, t);
		ck_assert_uint_eq(dl_rel_find(&r, t), k);
	}
	tuple_of(1000 + n, 2, t);
	ck_assert(!dl_rel_contains(&r, t));
	dl_rel_free(&r, &mb);
	ck_assert_uint_eq(mb.used, 0);
}
END_TEST

/* dl_rel_drop (subsumption's pruning): the rows a second relation holds
 * go, the others keep their order with their row ids renumbered, the set
 * and an index on the first column find exactly what is left, and the
 * split moves to where the rows past it now start.  Over the budget (the
 * copy it needs) it changes nothing. */
START_TEST(test_relation_drop_keeps_the_rest_in_order)
{
	static const uint32_t arities[] = {1, 2, 3};
	uint32_t arity = arities[_i], t[4], k, kept = 0, split = 600, mask = 1;
	struct dl_membudget mb = {0, SIZE_MAX};
	struct dl_rel r, dead;

	ck_assert_int_eq(dl_rel_init(&r, arity, &mask, arity > 1 ? 1 : 0), 0);
	ck_assert_int_eq(dl_rel_init(&dead, arity, NULL, 0), 0);
	fill(&r, arity, 1000, &mb);
	for (k = 0; k < 1000; k += 3) {
		tuple_of(k, arity, t);
		ck_assert_int_eq(dl_rel_insert(&dead, t, &mb), DL_REL_INSERTED);
	}
	mb.limit = mb.used; /* no room for the copy */
	ck_assert_int_eq(dl_rel_drop(&r, &dead, &split, &mb),
			 DL_REL_OVER_BUDGET);
	ck_assert_uint_eq(r.count, 1000);
	ck_assert_uint_eq(split, 600);
	mb.limit = SIZE_MAX;
	ck_assert_int_eq(dl_rel_drop(&r, &dead, &split, &mb), 0);
	ck_assert_uint_eq(r.count, 1000 - 334);
	ck_assert_uint_eq(split, 600 - 200);
	for (k = 0; k < 1000; k++) {
		tuple_of(k, arity, t);
		if (k % 3 == 0) {
			ck_assert(!dl_rel_contains(&r, t));
			continue;
		}
		ck_assert(dl_rel_contains(&r, t));
		if (!dl_rel_packed(&r))
			ck_assert_uint_eq(dl_rel_find(&r, t), kept);
		if (arity > 1)
			ck_assert_uint_ne(dl_index_first(&r, 0, t), DL_ROW_NONE);
		kept++;
	}
	/* nothing to drop: the relation is left as it is */
	dl_rel_clear(&dead, false, &mb);
	ck_assert_int_eq(dl_rel_drop(&r, &dead, &split, &mb), 0);
	ck_assert_uint_eq(r.count, kept);
	ck_assert_uint_eq(split, 400);
	dl_rel_free(&r, &mb);
	dl_rel_free(&dead, &mb);
	ck_assert_uint_eq(mb.used, 0);
}
END_TEST

#ifdef DL_TESTING
/* A growth whose new table cannot be had (the old one already given back)
 * fails with no_memory; the next insert builds the set again from the
 * rows, and nothing is lost or found twice. */
START_TEST(test_relation_failed_growth_is_rebuilt_by_the_next_insert)
{
	static const uint32_t arities[] = {1, 2, 3};
	uint32_t arity = arities[_i], t[4], k, n;
	struct dl_membudget mb = {0, SIZE_MAX};
	struct dl_rel r;
	int rc = DL_REL_INSERTED;

	ck_assert_int_eq(dl_rel_init(&r, arity, NULL, 0), 0);
	fill(&r, arity, 12, &mb); /* the next one grows the set of 16 */
	for (n = 12; rc == DL_REL_INSERTED; n++) {
		tuple_of(n, arity, t);
		(void)dl_mem_fail_after(1);
		rc = dl_rel_insert(&r, t, &mb);
		(void)dl_mem_fail_after(0);
		if (rc == DL_REL_INSERTED)
			continue;
		ck_assert_int_eq(rc, DL_REL_NO_MEMORY);
		ck_assert_uint_eq(r.count, n);
		ck_assert_int_eq(dl_rel_insert(&r, t, &mb), DL_REL_INSERTED);
	}
	ck_assert_uint_eq(r.count, n);
	for (k = 0; k < n; k++) {
		tuple_of(k, arity, t);
		ck_assert(dl_rel_contains(&r, t));
		ck_assert_int_eq(dl_rel_insert(&r, t, &mb), DL_REL_DUPLICATE);
	}
	ck_assert_uint_eq(r.count, n);
	dl_rel_free(&r, &mb);
	ck_assert_uint_eq(mb.used, 0);
}
END_TEST
#endif

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("relation");

	tcase_add_loop_test(
	    tc, test_relation_set_finds_each_tuple_through_growth, 0, 3);
	tcase_add_test(tc, test_relation_cleared_set_forgets_and_refills);
	tcase_add_test(tc, test_relation_growth_over_budget_keeps_the_relation);
	tcase_add_loop_test(tc, test_relation_drop_keeps_the_rest_in_order, 0,
			    3);
#ifdef DL_TESTING
	tcase_add_loop_test(
	    tc, test_relation_failed_growth_is_rebuilt_by_the_next_insert, 0,
	    3);
#endif
	suite_add_tcase(s, tc);
	return s;
}
