/* SPDX-License-Identifier: MIT */
/*
 * The walk of a derivation tree (maelys_datalog_walk_create, _walk,
 * _walk_free), the one traversal `maelys-datalog run --explain` and
 * `maelys-pty explain` print from: depth first in literal order, a subtree
 * shown once and then referred to across walks of one walker, the depth
 * bound, a visitor that stops it, max_shown, bad arguments and allocation
 * failures.
 */
#include "runner.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <maelys/datalog.h>
#include <maelys/datalog_builders.h>

#include "datalog_testutil.h"
#include "dl_mem.h"

#define SOURCE     "walk.dl"
#define ST_OK      MAELYS_DATALOG_STATUS_OK
#define ST_INVALID MAELYS_DATALOG_STATUS_INVALID_ARGUMENT
#define ST_ROLE    MAELYS_DATALOG_STATUS_ROLE
#define PROV       MAELYS_DATALOG_SESSION_PROVENANCE

static const char walk_src[] =
    ".decl e(x, y)\n.input e\n"
    ".decl tc(x, y)\n"
    "tc(X, Y) :- e(X, Y).\n"
    "tc(X, Z) :- tc(X, Y), e(Y, Z).\n"
    ".decl bad(x)\nbad(9).\n"
    ".decl back(x)\n"
    "back(X) :- tc(X, 1), tc(1, X), not(bad(X)), X != 2.\n";

/* The visits of a walk, one line each: depth, kind, the values, and the
 * rule and number or literal; stops after `stop_after` visits (0: never). */
struct walk_log {
	char text[2048];
	size_t at, visits, stop_after;
};

static int
log_visit(const maelys_datalog_walk_node_t *n, void *ctx)
{
	static const char *const kinds[] = {
	    "?",     "rule",  "input",   "policy", "unknown",
	    "shown", "deeper", "negated", "builtin"};
	struct walk_log *l = ctx;
	size_t i;

	ck_assert_int_ge(n->kind, MAELYS_DATALOG_WALK_RULE);
	ck_assert_int_le(n->kind, MAELYS_DATALOG_WALK_BUILTIN);
	l->at += (size_t)snprintf(l->text + l->at, sizeof l->text - l->at,
				  "%zu %s %s(", n->depth, kinds[n->kind],
				  n->predicate != NULL ? n->predicate : "");
	for (i = 0; i < n->terms.arity; i++)
		l->at += (size_t)snprintf(l->text + l->at,
					  sizeof l->text - l->at, "%s%lld",
					  i > 0 ? "," : "",
					  (long long)n->terms.terms[i].as.integer);
	if (n->kind >= MAELYS_DATALOG_WALK_NEGATED)
		l->at += (size_t)snprintf(l->text + l->at,
					  sizeof l->text - l->at,
					  ") r%zu l%zu\n", n->rule, n->literal);
	else
		l->at += (size_t)snprintf(l->text + l->at,
					  sizeof l->text - l->at,
					  ") r%zu #%zu\n", n->rule, n->number);
	ck_assert_uint_lt(l->at, sizeof l->text);
	return ++l->visits == l->stop_after;
}

/* A solve of walk_src over the cycle 1 -> 2 -> 3 -> 1. */
static maelys_datalog_result_t *
walk_solve(maelys_datalog_session_t *s)
{
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;

	dltest_add_ii(edb, "e", 1, 2);
	dltest_add_ii(edb, "e", 2, 3);
	dltest_add_ii(edb, "e", 3, 1);
	res = dltest_solve(s, edb);
	(void)maelys_datalog_input_edb_free(edb);
	return res;
}

/* back(1)'s whole tree: tc(1, 1) walked into once, then named. */
static const char walk_back_tree[] = "0 rule back(1) r2 #1\n"
				     "1 rule tc(1,1) r1 #2\n"
				     "2 rule tc(1,3) r1 #3\n"
				     "3 rule tc(1,2) r0 #4\n"
				     "4 input e(1,2) r0 #0\n"
				     "3 input e(2,3) r0 #0\n"
				     "2 input e(3,1) r0 #0\n"
				     "1 shown tc(1,1) r1 #2\n"
				     "1 negated bad(1) r2 l2\n"
				     "1 builtin (1,2) r2 l3\n";

static struct walk_log
walk_logged(maelys_datalog_walk_t *w, maelys_datalog_tuple_t root,
	    size_t max_depth, size_t stop_after, maelys_datalog_status_t want)
{
	struct walk_log l;

	memset(&l, 0, sizeof l);
	l.stop_after = stop_after;
	ck_assert_status(maelys_datalog_walk(w, root, max_depth, log_visit, &l),
			 want);
	return l;
}

/* Depth first, premises in literal order, a repeated subtree named by its
 * number, also in a later walk of the same walker; a new walker numbers
 * afresh. */
START_TEST(test_walk_visits_depth_first_once_per_subtree)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, walk_src);
	maelys_datalog_session_t *s = dltest_new_session_flags(policy, PROV);
	maelys_datalog_result_t *res = walk_solve(s);
	maelys_datalog_tuple_t back = dltest_find_i(res, "back", 1);
	maelys_datalog_walk_t *w = NULL;
	struct walk_log l;

	ck_assert_status(maelys_datalog_walk_create(res, 100, &w), ST_OK);
	l = walk_logged(w, back, 12, 0, ST_OK);
	ck_assert_str_eq(l.text, walk_back_tree);
	l = walk_logged(w, dltest_find_ii(res, "tc", 1, 3), 12, 0, ST_OK);
	ck_assert_str_eq(l.text, "0 shown tc(1,3) r1 #3\n");
	l = walk_logged(w, dltest_find_i(res, "bad", 9), 12, 0, ST_OK);
	ck_assert_str_eq(l.text, "0 policy bad(9) r0 #0\n");
	(void)maelys_datalog_walk_free(w);
	ck_assert_status(maelys_datalog_walk_create(res, 100, &w), ST_OK);
	l = walk_logged(w, dltest_find_ii(res, "tc", 1, 3), 12, 0, ST_OK);
	ck_assert_str_eq(l.text, "0 rule tc(1,3) r1 #1\n"
				 "1 rule tc(1,2) r0 #2\n"
				 "2 input e(1,2) r0 #0\n"
				 "1 input e(2,3) r0 #0\n");
	(void)maelys_datalog_walk_free(w);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* max_depth: a derived tuple there is DEEPER, not walked into nor
 * remembered (so a shallower meeting later walks into it); 0 visits the
 * root alone; facts are leaves at any depth. */
START_TEST(test_walk_depth_bound)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, walk_src);
	maelys_datalog_session_t *s = dltest_new_session_flags(policy, PROV);
	maelys_datalog_result_t *res = walk_solve(s);
	maelys_datalog_tuple_t back = dltest_find_i(res, "back", 1);
	maelys_datalog_walk_t *w = NULL;
	struct walk_log l;

	ck_assert_status(maelys_datalog_walk_create(res, 100, &w), ST_OK);
	l = walk_logged(w, back, 0, 0, ST_OK);
	ck_assert_str_eq(l.text, "0 deeper back(1) r2 #0\n");
	l = walk_logged(w, back, 2, 0, ST_OK);
	ck_assert_str_eq(l.text, "0 rule back(1) r2 #1\n"
				 "1 rule tc(1,1) r1 #2\n"
				 "2 deeper tc(1,3) r1 #0\n"
				 "2 input e(3,1) r0 #0\n"
				 "1 shown tc(1,1) r1 #2\n"
				 "1 negated bad(1) r2 l2\n"
				 "1 builtin (1,2) r2 l3\n");
	l = walk_logged(w, dltest_find_ii(res, "tc", 1, 3), 1, 0, ST_OK);
	ck_assert_str_eq(l.text, "0 rule tc(1,3) r1 #3\n"
				 "1 deeper tc(1,2) r0 #0\n"
				 "1 input e(2,3) r0 #0\n");
	l = walk_logged(w, dltest_find_ii(res, "e", 1, 2), 0, 0, ST_OK);
	ck_assert_str_eq(l.text, "0 input e(1,2) r0 #0\n");
	(void)maelys_datalog_walk_free(w);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* A visitor that returns nonzero ends the walk there (OK); max_shown ends
 * it with LIMIT before the tuple one too many. */
START_TEST(test_walk_stops_early_and_at_max_shown)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, walk_src);
	maelys_datalog_session_t *s = dltest_new_session_flags(policy, PROV);
	maelys_datalog_result_t *res = walk_solve(s);
	maelys_datalog_tuple_t back = dltest_find_i(res, "back", 1);
	maelys_datalog_walk_t *w = NULL;
	struct walk_log l;
	size_t k;

	for (k = 1; k <= 10; k++) {
		ck_assert_status(maelys_datalog_walk_create(res, 100, &w),
				 ST_OK);
		l = walk_logged(w, back, 12, k, ST_OK);
		ck_assert_uint_eq(l.visits, k);
		ck_assert_int_eq(strncmp(l.text, walk_back_tree, l.at), 0);
		(void)maelys_datalog_walk_free(w);
	}
	ck_assert_status(maelys_datalog_walk_create(res, 2, &w), ST_OK);
	l = walk_logged(w, back, 12, 0, MAELYS_DATALOG_STATUS_LIMIT);
	ck_assert_str_eq(l.text, "0 rule back(1) r2 #1\n"
				 "1 rule tc(1,1) r1 #2\n");
	/* what it remembers it still names */
	l = walk_logged(w, back, 12, 0, ST_OK);
	ck_assert_str_eq(l.text, "0 shown back(1) r2 #1\n");
	(void)maelys_datalog_walk_free(w);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_walk_bad_arguments_are_refused)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, walk_src);
	maelys_datalog_session_t *s = dltest_new_session_flags(policy, PROV);
	maelys_datalog_session_t *plain = dltest_new_session_flags(policy, 0);
	maelys_datalog_result_t *res = walk_solve(s), *pres;
	maelys_datalog_tuple_t back = dltest_find_i(res, "back", 1);
	maelys_datalog_tuple_t bad_rel = {1000, 0}, bad_row = back;
	maelys_datalog_walk_t *w = (maelys_datalog_walk_t *)&w;
	struct walk_log l;

	ck_assert_status(maelys_datalog_walk_create(NULL, 1, &w), ST_INVALID);
	ck_assert_ptr_null(w);
	ck_assert_status(maelys_datalog_walk_create(res, 0, &w), ST_INVALID);
	ck_assert_status(maelys_datalog_walk_create(res, 1, NULL), ST_INVALID);
	pres = walk_solve(plain);
	ck_assert_status(maelys_datalog_walk_create(pres, 1, &w), ST_ROLE);
	ck_assert_ptr_null(w);
	(void)maelys_datalog_result_free(pres);
	ck_assert_status(maelys_datalog_walk_create(res, 100, &w), ST_OK);
	memset(&l, 0, sizeof l);
	ck_assert_status(maelys_datalog_walk(NULL, back, 1, log_visit, &l),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_walk(w, back, 1, NULL, &l),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_walk(w, bad_rel, 1, log_visit, &l),
			 ST_INVALID);
	bad_row.row = 1000;
	ck_assert_status(maelys_datalog_walk(w, bad_row, 1, log_visit, &l),
			 ST_INVALID);
	ck_assert_uint_eq(l.visits, 0);
	/* and the walker is whole after them */
	l = walk_logged(w, back, 12, 0, ST_OK);
	ck_assert_str_eq(l.text, walk_back_tree);
	(void)maelys_datalog_walk_free(w);
	ck_assert_status(maelys_datalog_walk_free(NULL), ST_OK);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_session_free(plain);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* Every allocation of create and walk fails in turn: NO_MEMORY, what was
 * visited a beginning of the tree, and the attempt that gets through
 * visits it all.  (Leaks show under the sanitizer build.) */
START_TEST(test_walk_allocation_failures_are_no_memory)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, walk_src);
	maelys_datalog_session_t *s = dltest_new_session_flags(policy, PROV);
	maelys_datalog_result_t *res = walk_solve(s);
	maelys_datalog_tuple_t back = dltest_find_i(res, "back", 1);
	size_t n;

	for (n = 1; n < 100; n++) {
		maelys_datalog_walk_t *w = NULL;
		maelys_datalog_status_t st;
		struct walk_log l;

		memset(&l, 0, sizeof l);
		(void)dl_mem_fail_after(n);
		st = maelys_datalog_walk_create(res, 100, &w);
		if (st == ST_OK)
			st = maelys_datalog_walk(w, back, 12, log_visit, &l);
		(void)dl_mem_fail_after(0);
		(void)maelys_datalog_walk_free(w);
		if (st == ST_OK) {
			ck_assert_str_eq(l.text, walk_back_tree);
			break;
		}
		ck_assert_msg(st == MAELYS_DATALOG_STATUS_NO_MEMORY,
			      "allocation %zu: %s", n,
			      maelys_datalog_status_name(st));
		ck_assert_int_eq(strncmp(l.text, walk_back_tree, l.at), 0);
	}
	ck_assert_msg(n > 2, "no allocation was made to fail");
	ck_assert_uint_lt(n, 100);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("walk");

	tcase_add_test(tc, test_walk_visits_depth_first_once_per_subtree);
	tcase_add_test(tc, test_walk_depth_bound);
	tcase_add_test(tc, test_walk_stops_early_and_at_max_shown);
	tcase_add_test(tc, test_walk_bad_arguments_are_refused);
	tcase_add_test(tc, test_walk_allocation_failures_are_no_memory);
	suite_add_tcase(s, tc);
	return s;
}
