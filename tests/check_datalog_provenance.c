/* SPDX-License-Identifier: MIT */
/*
 * Provenance (MAELYS_DATALOG_SESSION_PROVENANCE): the first derivation of
 * each tuple, its premises by body literal in source order (whatever order
 * the plan joins them in), origins of input facts and of the policy's facts,
 * trees that end in facts for recursive rules, provenance_only, why_not and
 * rule_fired; every predicate readable with the flag and only QUERY ones
 * without; bad handles, the memory budget and allocation failures.  The
 * walk of a derivation tree is check_datalog_walk.c's.
 */
#include "runner.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <maelys/datalog.h>
#include <maelys/datalog_builders.h>

#include "datalog_testutil.h"
#include "dl_mem.h"

#define SOURCE     "prov.dl"
#define ST_OK      MAELYS_DATALOG_STATUS_OK
#define ST_INVALID MAELYS_DATALOG_STATUS_INVALID_ARGUMENT
#define ST_ROLE    MAELYS_DATALOG_STATUS_ROLE
#define PROV       MAELYS_DATALOG_SESSION_PROVENANCE

static const maelys_datalog_domain_t prov_graph_domain =
    DLTEST_GRAPH_DOMAIN("prov_graph");

static maelys_datalog_derivation_t
derivation(const maelys_datalog_result_t *res, maelys_datalog_tuple_t t)
{
	maelys_datalog_derivation_t d;

	ck_assert_status(maelys_datalog_result_derivation(res, t, &d), ST_OK);
	return d;
}

static maelys_datalog_premise_t
premise(const maelys_datalog_result_t *res, maelys_datalog_tuple_t t,
	size_t lit)
{
	maelys_datalog_premise_t p;

	ck_assert_status(maelys_datalog_result_premise(res, t, lit, &p), ST_OK);
	return p;
}

/* The predicate and integer columns of a tuple. */
static void
assert_tuple_ii(const maelys_datalog_result_t *res, maelys_datalog_tuple_t t,
		const char *pred, int64_t a, int64_t b)
{
	maelys_datalog_fact_view_t v;
	const char *name = NULL;

	ck_assert_status(maelys_datalog_result_tuple(res, t, &name, &v), ST_OK);
	ck_assert_str_eq(name, pred);
	ck_assert_uint_eq(v.arity, 2);
	ck_assert_int_eq(v.terms[0].kind, MAELYS_DATALOG_TERM_INTEGER);
	ck_assert_int_eq(v.terms[0].as.integer, a);
	ck_assert_int_eq(v.terms[1].as.integer, b);
}

/* ------------------------------------------------------------------ */

/* The plan joins f first (a constant binds one of its columns); the
 * premises still come in source order: e, then f. */
START_TEST(test_prov_nonrecursive_premises_in_source_order)
{
	static const char src[] = ".decl e(x, y)\n.input e\n"
				  ".decl f(x, y)\n.input f\n"
				  ".decl r(x, y)\n"
				  "r(X, Y) :- e(X, Y), f(7, X).\n";
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, src);
	maelys_datalog_session_t *s = dltest_new_session_flags(policy, PROV);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	maelys_datalog_tuple_t t;
	maelys_datalog_derivation_t d;
	maelys_datalog_premise_t p;

	/* rows differ from literal to literal: e(1, 2) is e's second row,
	 * f(7, 1) f's third */
	dltest_add_ii(edb, "e", 3, 4);
	dltest_add_ii(edb, "e", 1, 2);
	dltest_add_ii(edb, "f", 8, 8);
	dltest_add_ii(edb, "f", 9, 9);
	dltest_add_ii(edb, "f", 7, 1);
	res = dltest_solve(s, edb);
	t = dltest_find_ii(res, "r", 1, 2);
	d = derivation(res, t);
	ck_assert_int_eq(d.origin, MAELYS_DATALOG_ORIGIN_RULE);
	ck_assert_uint_eq(d.rule, 0);
	ck_assert_uint_eq(d.premise_count, 2);
	p = premise(res, t, 0);
	ck_assert_int_eq(p.kind, MAELYS_DATALOG_LITERAL_ATOM);
	assert_tuple_ii(res, p.tuple, "e", 1, 2);
	ck_assert_int_eq(derivation(res, p.tuple).origin,
			 MAELYS_DATALOG_ORIGIN_INPUT);
	p = premise(res, t, 1);
	assert_tuple_ii(res, p.tuple, "f", 7, 1);
	ck_assert_int_eq(derivation(res, p.tuple).origin,
			 MAELYS_DATALOG_ORIGIN_INPUT);
	/* r(3, 4) needs f(7, 3): it does not hold */
	{
		const maelys_datalog_arg_t a[2] = {
		    maelys_datalog_arg_integer(3),
		    maelys_datalog_arg_integer(4)};
		int found = -1;

		ck_assert_status(
		    maelys_datalog_result_find(res, "r", a, 2, &t, &found),
		    ST_OK);
		ck_assert_int_eq(found, 0);
	}
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* Walks a derivation tree; returns its number of nodes, failing the test on
 * a node without a derivation or deeper than `limit` (a cycle would be). */
static size_t
walk(const maelys_datalog_result_t *res, maelys_datalog_tuple_t t,
     unsigned depth, unsigned limit, size_t *inputs)
{
	maelys_datalog_derivation_t d = derivation(res, t);
	size_t n = 1, i;

	ck_assert_msg(depth <= limit, "tree deeper than %u", limit);
	if (d.origin == MAELYS_DATALOG_ORIGIN_INPUT) {
		(*inputs)++;
		return 1;
	}
	ck_assert_int_eq(d.origin, MAELYS_DATALOG_ORIGIN_RULE);
	for (i = 0; i < d.premise_count; i++) {
		maelys_datalog_premise_t p = premise(res, t, i);

		if (p.kind == MAELYS_DATALOG_LITERAL_ATOM)
			n += walk(res, p.tuple, depth + 1, limit, inputs);
	}
	return n;
}

/* A transitive closure: the tree of tc(0, 20) ends in the 20 input edges,
 * whichever rule derived each step first. */
START_TEST(test_prov_recursive_tree_ends_in_input_facts)
{
	static const char src[] = ".decl e(x, y)\n.input e\n"
				  ".decl tc(x, y)\n"
				  "tc(X, Y) :- e(X, Y).\n"
				  "tc(X, Z) :- tc(X, Y), tc(Y, Z).\n";
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, src);
	maelys_datalog_session_t *s = dltest_new_session_flags(policy, PROV);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	maelys_datalog_tuple_t t;
	size_t inputs = 0, nodes;
	int64_t i;

	for (i = 0; i < 20; i++)
		dltest_add_ii(edb, "e", i, i + 1);
	dltest_add_ii(edb, "e", 20, 0); /* a cycle in the graph */
	res = dltest_solve(s, edb);
	t = dltest_find_ii(res, "tc", 0, 20);
	ck_assert_int_eq(derivation(res, t).origin,
			 MAELYS_DATALOG_ORIGIN_RULE);
	nodes = walk(res, t, 0, 64, &inputs);
	/* a binary tree over the path 0 -> 20: its leaves are the 20 edges */
	ck_assert_uint_eq(inputs, 20);
	ck_assert_uint_eq(nodes, 2 * 20 - 1 + 20);
	/* tc(3, 3) holds through the cycle, and its tree is finite too */
	inputs = 0;
	(void)walk(res, dltest_find_ii(res, "tc", 3, 3), 0, 64, &inputs);
	ck_assert_uint_eq(inputs, 21);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_prov_negation_and_builtins_give_their_values)
{
	static const char src[] =
	    ".decl n(x)\n.input n\n"
	    ".decl g(x, y)\n.input g\n"
	    ".decl w(x)\n.input w\n"
	    ".decl r(x)\n"
	    "r(X) :- n(X), not(g(X, _)), X > 3.\n"
	    ".decl m(x)\n"
	    "m(W) :- w(W), re_match(W, \"^rm\"), !prefix(W, \"rmdir\").\n";
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, src);
	maelys_datalog_session_t *s = dltest_new_session_flags(policy, PROV);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	maelys_datalog_tuple_t t;
	maelys_datalog_premise_t p;
	const maelys_datalog_arg_t rm[1] = {maelys_datalog_arg_symbol("rm")};
	const char *text = NULL;
	size_t len = 0;

	dltest_add_i(edb, "n", 5);
	dltest_add_i(edb, "n", 2);
	dltest_add_ii(edb, "g", 2, 9);
	dltest_add_s(edb, "w", "rm");
	dltest_add_s(edb, "w", "rmdir");
	res = dltest_solve(s, edb);
	t = dltest_find_i(res, "r", 5);
	p = premise(res, t, 1);
	ck_assert_int_eq(p.kind, MAELYS_DATALOG_LITERAL_NEGATED);
	ck_assert_str_eq(p.predicate, "g");
	ck_assert_uint_eq(p.terms.arity, 2);
	ck_assert_int_eq(p.terms.terms[0].kind, MAELYS_DATALOG_TERM_INTEGER);
	ck_assert_int_eq(p.terms.terms[0].as.integer, 5);
	ck_assert_int_eq(p.terms.terms[1].kind, 0); /* anonymous */
	p = premise(res, t, 2);
	ck_assert_int_eq(p.kind, MAELYS_DATALOG_LITERAL_BUILTIN);
	ck_assert_ptr_null(p.predicate);
	ck_assert_int_eq(p.terms.terms[0].as.integer, 5);
	ck_assert_int_eq(p.terms.terms[1].as.integer, 3);
	t = dltest_find(res, "m", rm, 1);
	p = premise(res, t, 1);
	ck_assert_int_eq(p.kind, MAELYS_DATALOG_LITERAL_BUILTIN);
	ck_assert_int_eq(p.terms.terms[0].kind, MAELYS_DATALOG_TERM_SYMBOL);
	ck_assert_status(maelys_datalog_result_symbol_text(
			     res, p.terms.terms[0].as.symbol_id, &text, &len),
			 ST_OK);
	ck_assert_str_eq(text, "rm");
	ck_assert_status(maelys_datalog_result_symbol_text(
			     res, p.terms.terms[1].as.symbol_id, &text, &len),
			 ST_OK);
	ck_assert_str_eq(text, "^rm");
	p = premise(res, t, 2);
	ck_assert_status(maelys_datalog_result_symbol_text(
			     res, p.terms.terms[1].as.symbol_id, &text, &len),
			 ST_OK);
	ck_assert_str_eq(text, "rmdir");
	ck_assert_status(maelys_datalog_result_premise(res, t, 3, &p),
			 ST_INVALID);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* The graph policy: link/2 facts of the policy, path/2 their closure
 * (policy-only strata, evaluated once per session), ok/1 per solve. */
static maelys_datalog_policy_t *
graph_policy(void)
{
	char src[4096];

	ck_assert_status(maelys_datalog_domain_register(&prov_graph_domain),
			 ST_OK);
	dltest_graph_policy(src, sizeof src, 6, 1);
	return dltest_load("prov_graph", SOURCE, src);
}

/* ok("n4") <- req("n1"), path("n1", "n4") <- ... <- link facts. */
static void
check_graph_tree(const maelys_datalog_result_t *res)
{
	const maelys_datalog_arg_t n4[1] = {maelys_datalog_arg_symbol("n4")};
	maelys_datalog_tuple_t t = dltest_find(res, "ok", n4, 1), pt;
	maelys_datalog_derivation_t d = derivation(res, t);
	size_t links = 0;

	ck_assert_int_eq(d.origin, MAELYS_DATALOG_ORIGIN_RULE);
	ck_assert_uint_eq(d.rule, 2);
	ck_assert_int_eq(derivation(res, premise(res, t, 0).tuple).origin,
			 MAELYS_DATALOG_ORIGIN_INPUT);
	pt = premise(res, t, 1).tuple;
	for (;;) {
		d = derivation(res, pt);
		ck_assert_int_eq(d.origin, MAELYS_DATALOG_ORIGIN_RULE);
		ck_assert_int_eq(
		    derivation(res, premise(res, pt, d.premise_count - 1).tuple)
			.origin,
		    MAELYS_DATALOG_ORIGIN_POLICY);
		links++;
		if (d.rule == 0)
			break;
		ck_assert_uint_eq(d.rule, 1);
		pt = premise(res, pt, 0).tuple;
	}
	ck_assert_uint_eq(links, 3); /* n1 -> n2 -> n3 -> n4 */
}

START_TEST(test_prov_policy_only_strata_walk_across_solves)
{
	maelys_datalog_policy_t *policy = graph_policy();
	maelys_datalog_session_t *s = dltest_new_session_flags(policy, PROV);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res, *res2;
	int fired = -1;

	dltest_add_s(edb, "req", "n1");
	res = dltest_solve(s, edb);
	check_graph_tree(res);
	res2 = dltest_solve(s, edb); /* a second workspace, same strata */
	check_graph_tree(res2);
	(void)maelys_datalog_result_free(res);
	check_graph_tree(res2);
	/* the closure's rules fired when the session prepared */
	ck_assert_status(maelys_datalog_result_rule_fired(res2, 1, &fired),
			 ST_OK);
	ck_assert_int_eq(fired, 1);
	(void)maelys_datalog_result_free(res2);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_prov_helper_relations_readable_only_with_the_flag)
{
	maelys_datalog_policy_t *policy = graph_policy();
	maelys_datalog_session_t *plain = dltest_new_session_flags(policy, 0);
	maelys_datalog_session_t *prov = dltest_new_session_flags(policy, PROV);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *r0, *r1;
	const maelys_datalog_arg_t pa[2] = {maelys_datalog_arg_symbol("n0"),
					    maelys_datalog_arg_symbol("n6")};
	maelys_datalog_fact_view_t rows[32];
	maelys_datalog_derivation_t d;
	maelys_datalog_tuple_t t, forged = {1, 0};
	const char *name;
	size_t n = 0;
	int found = -1;

	dltest_add_s(edb, "req", "n5");
	r0 = dltest_solve(plain, edb);
	r1 = dltest_solve(prov, edb);
	/* path: a helper (IDB); link: policy facts; req: input */
	ck_assert_status(maelys_datalog_result_count(r0, "path", 2, &n),
			 ST_ROLE);
	ck_assert_status(maelys_datalog_result_count(r0, "link", 2, &n),
			 ST_ROLE);
	ck_assert_status(maelys_datalog_result_query(r0, "req", pa, 1, &found),
			 ST_ROLE);
	ck_assert_status(
	    maelys_datalog_result_find(r0, "path", pa, 2, &t, &found), ST_ROLE);
	ck_assert_status(maelys_datalog_result_enumerate(r0, "path", 2, rows,
							 32, &n),
			 ST_ROLE);
	/* a handle forged for a helper relation reads nothing either */
	ck_assert_status(maelys_datalog_result_tuple(r0, forged, &name, rows),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_result_derivation(r0, forged, &d),
			 ST_ROLE);
	ck_assert_status(maelys_datalog_result_count(r1, "path", 2, &n), ST_OK);
	ck_assert_uint_eq(n, 21); /* 7 nodes on a chain: 6+5+...+1 */
	ck_assert_status(maelys_datalog_result_count(r1, "link", 2, &n), ST_OK);
	ck_assert_uint_eq(n, 6);
	ck_assert_status(maelys_datalog_result_count(r1, "req", 1, &n), ST_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(dltest_query_args(r1, "path", pa, 2), 1);
	ck_assert_status(maelys_datalog_result_enumerate_at(r1, "link", 2, 2,
							    rows, 32, &n),
			 ST_OK);
	ck_assert_uint_eq(n, 4);
	t = dltest_find(r1, "path", pa, 2);
	ck_assert_int_eq(derivation(r1, t).origin, MAELYS_DATALOG_ORIGIN_RULE);
	/* QUERY predicates stay readable without the flag */
	ck_assert_status(maelys_datalog_result_count(r0, "ok", 1, &n), ST_OK);
	ck_assert_uint_eq(n, 1);
	(void)maelys_datalog_result_free(r0);
	(void)maelys_datalog_result_free(r1);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(plain);
	(void)maelys_datalog_session_free(prov);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_prov_origins_of_facts)
{
	static const char src[] = ".decl e(x)\n.input e\n"
				  ".decl c(x)\n"
				  "c(1).\nc(2).\n"
				  "c(X) :- e(X).\n";
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, src);
	maelys_datalog_session_t *s = dltest_new_session_flags(policy, PROV);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	maelys_datalog_premise_t p;

	dltest_add_i(edb, "e", 2);
	dltest_add_i(edb, "e", 3);
	res = dltest_solve(s, edb);
	ck_assert_int_eq(derivation(res, dltest_find_i(res, "e", 3)).origin,
			 MAELYS_DATALOG_ORIGIN_INPUT);
	/* written in the policy: the rule's later derivation is not its
	 * first */
	ck_assert_int_eq(derivation(res, dltest_find_i(res, "c", 2)).origin,
			 MAELYS_DATALOG_ORIGIN_POLICY);
	ck_assert_int_eq(derivation(res, dltest_find_i(res, "c", 1)).origin,
			 MAELYS_DATALOG_ORIGIN_POLICY);
	ck_assert_int_eq(derivation(res, dltest_find_i(res, "c", 3)).origin,
			 MAELYS_DATALOG_ORIGIN_RULE);
	/* a fact has no premises */
	ck_assert_status(maelys_datalog_result_premise(
			     res, dltest_find_i(res, "c", 1), 0, &p),
			 ST_INVALID);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

static const char two_src[] = ".decl e(x)\n.input e\n"
			      ".decl a(x)\n.decl b(x)\n.decl top(x)\n"
			      "a(X) :- e(X).\n"
			      "top(X) :- a(X).\n"
			      "b(X) :- e(X).\n";

START_TEST(test_prov_only_records_what_was_asked)
{
	static const char *const only[] = {"top"};
	static const char *const bad[] = {"nope"};
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, two_src);
	maelys_datalog_session_t *s = dltest_new_session_flags(policy, PROV);
	maelys_datalog_session_t *plain = dltest_new_session_flags(policy, 0);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	int fired = -1;

	ck_assert_status(maelys_datalog_session_provenance_only(plain, only, 1),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_session_provenance_only(NULL, only, 1),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_session_provenance_only(s, bad, 1),
			 MAELYS_DATALOG_STATUS_UNDECLARED);
	ck_assert_status(maelys_datalog_session_provenance_only(s, only, 1),
			 ST_OK);
	dltest_add_i(edb, "e", 4);
	res = dltest_solve(s, edb);
	/* top and what it comes from: a, e */
	ck_assert_int_eq(derivation(res, dltest_find_i(res, "top", 4)).origin,
			 MAELYS_DATALOG_ORIGIN_RULE);
	ck_assert_int_eq(derivation(res, dltest_find_i(res, "a", 4)).origin,
			 MAELYS_DATALOG_ORIGIN_RULE);
	ck_assert_int_eq(derivation(res, dltest_find_i(res, "e", 4)).origin,
			 MAELYS_DATALOG_ORIGIN_INPUT);
	/* b is outside: readable, not recorded; its rule still fired */
	ck_assert_int_eq(derivation(res, dltest_find_i(res, "b", 4)).origin,
			 MAELYS_DATALOG_ORIGIN_UNKNOWN);
	ck_assert_status(maelys_datalog_result_rule_fired(res, 2, &fired),
			 ST_OK);
	ck_assert_int_eq(fired, 1);
	/* too late once solved */
	ck_assert_status(maelys_datalog_session_provenance_only(s, NULL, 0),
			 ST_INVALID);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_session_free(plain);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

static const char why_src[] = ".decl e(x, y)\n.input e\n"
			      ".decl f(x)\n.input f\n"
			      ".decl g(x)\n.input g\n"
			      ".decl r(x)\n"
			      "r(X) :- e(X, Y), f(Y), not(g(X)), X < 10.\n"
			      ".decl s(x, y)\n"
			      "s(1, X) :- e(X, X).\n"
			      ".decl u(x, y)\n"
			      "u(X, X) :- f(X).\n"
			      ".decl v(x)\n"
			      "v(X) :- Z < 5, e(X, Z).\n";

static void
why(const maelys_datalog_result_t *res, size_t rule, const char *pred,
    int64_t a, int64_t b, size_t n, int want_head, size_t want_lit)
{
	const maelys_datalog_arg_t args[2] = {maelys_datalog_arg_integer(a),
					      maelys_datalog_arg_integer(b)};
	int head = -1;
	size_t lit = 99;

	ck_assert_status(maelys_datalog_result_why_not(res, rule, pred, args,
						       n, &head, &lit),
			 ST_OK);
	ck_assert_msg(head == want_head, "why_not(%zu, %s(%lld)): head %d",
		      rule, pred, (long long)a, head);
	if (want_head)
		ck_assert_msg(lit == want_lit,
			      "why_not(%zu, %s(%lld)): literal %zu, want %zu",
			      rule, pred, (long long)a, lit, want_lit);
}

/* A body longer than 64 literals, with a comparison past the 64th that
 * waits for a later literal to bind its variable. */
START_TEST(test_prov_why_not_in_a_body_past_64_literals)
{
	char src[2048];
	size_t k, n;
	maelys_datalog_policy_t *policy;
	maelys_datalog_session_t *s;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;

	n = (size_t)snprintf(src, sizeof src,
			     ".decl e(x, y)\n.input e\n.decl f(x)\n.input f\n"
			     ".decl w(x)\nw(X) :- ");
	for (k = 0; k < 70; k++)
		n += (size_t)snprintf(src + n, sizeof src - n, "f(X), ");
	n += (size_t)snprintf(src + n, sizeof src - n, "Z < 5, e(X, Z).\n");
	ck_assert_uint_lt(n, sizeof src);
	policy = dltest_load(NULL, SOURCE, src);
	s = dltest_new_session_flags(policy, PROV);
	dltest_add_i(edb, "f", 12);
	dltest_add_ii(edb, "e", 12, 7); /* Z < 5 fails once e binds Z */
	dltest_add_i(edb, "f", 3);
	dltest_add_ii(edb, "e", 3, 4); /* w(3) holds */
	res = dltest_solve(s, edb);
	why(res, 0, "w", 12, 0, 1, 1, 71);
	why(res, 0, "w", 3, 0, 1, 1, 72);
	why(res, 0, "w", 5, 0, 1, 1, 0);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_prov_why_not_names_the_first_failing_literal)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, why_src);
	maelys_datalog_session_t *s = dltest_new_session_flags(policy, PROV);
	maelys_datalog_session_t *plain = dltest_new_session_flags(policy, 0);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res, *r0;
	const maelys_datalog_arg_t one[1] = {maelys_datalog_arg_integer(1)};
	int head;
	size_t lit;

	dltest_add_ii(edb, "e", 1, 9);  /* r(1): no f(9), but see e(1, 2) */
	dltest_add_ii(edb, "e", 3, 4);  /* r(3): g(3) holds -> literal 2 */
	dltest_add_i(edb, "f", 4);
	dltest_add_i(edb, "g", 3);
	dltest_add_ii(edb, "e", 12, 4); /* r(12): 12 < 10 fails -> 3 */
	dltest_add_ii(edb, "e", 5, 4);  /* r(5) holds */
	dltest_add_i(edb, "f", 2);
	dltest_add_ii(edb, "e", 1, 2);  /* a second e(1, _): backtracking */
	res = dltest_solve(s, edb);
	why(res, 0, "r", 7, 0, 1, 1, 0);  /* no e(7, _) */
	why(res, 0, "r", 3, 0, 1, 1, 2);
	why(res, 0, "r", 12, 0, 1, 1, 3);
	why(res, 0, "r", 5, 0, 1, 1, 4); /* body_count: it holds */
	/* e(1, 9) fails at f(9); e(1, 2), f(2), not g(1), 1 < 10 hold */
	why(res, 0, "r", 1, 0, 1, 1, 4);
	/* the head cannot be it: a constant, another predicate, a repeated
	 * variable */
	why(res, 1, "s", 2, 3, 2, 0, 0);
	why(res, 1, "s", 1, 3, 2, 1, 0);
	why(res, 0, "s", 1, 3, 2, 0, 0);
	why(res, 2, "u", 4, 5, 2, 0, 0);
	why(res, 2, "u", 4, 4, 2, 1, 1);
	why(res, 2, "u", 6, 6, 2, 1, 0);
	/* Z < 5 waits for e(X, Z), which binds Z: e(12, 4) holds it */
	why(res, 3, "v", 12, 0, 1, 1, 2);
	why(res, 3, "v", 8, 0, 1, 1, 1);
	/* a value the result has never seen */
	{
		const maelys_datalog_arg_t zz[1] = {
		    maelys_datalog_arg_symbol("never seen")};

		ck_assert_status(maelys_datalog_result_why_not(
				     res, 0, "r", zz, 1, &head, &lit),
				 ST_OK);
		ck_assert_int_eq(head, 1);
		ck_assert_uint_eq(lit, 0);
	}
	/* errors */
	ck_assert_status(maelys_datalog_result_why_not(res, 99, "r", one, 1,
						       &head, &lit),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_result_why_not(res, 0, "zz", one, 1,
						       &head, &lit),
			 MAELYS_DATALOG_STATUS_UNDECLARED);
	ck_assert_status(maelys_datalog_result_why_not(res, 0, "r", one, 2,
						       &head, &lit),
			 MAELYS_DATALOG_STATUS_ARITY);
	r0 = dltest_solve(plain, edb);
	ck_assert_status(maelys_datalog_result_why_not(r0, 0, "r", one, 1,
						       &head, &lit),
			 ST_ROLE);
	(void)maelys_datalog_result_free(r0);
	/* bounded by the session's join steps, as they are when asked */
	ck_assert_status(maelys_datalog_session_set_budget(
			     s, MAELYS_DATALOG_BUDGET_STEPS, 3),
			 ST_OK);
	ck_assert_status(maelys_datalog_result_why_not(res, 0, "r", one, 1,
						       &head, &lit),
			 MAELYS_DATALOG_STATUS_BUDGET_STEPS);
	ck_assert_int_eq(head, 0);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_session_free(plain);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_prov_rule_fired_even_without_a_new_tuple)
{
	static const char src[] = ".decl e(x)\n.input e\n.decl f(x)\n.input f\n"
				  ".decl t(x)\n"
				  "t(X) :- e(X).\n"
				  "t(X) :- f(X).\n"
				  "t(X) :- e(X), f(X), X > 100.\n";
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, src);
	maelys_datalog_session_t *s = dltest_new_session_flags(policy, PROV);
	maelys_datalog_session_t *plain = dltest_new_session_flags(policy, 0);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res, *r0;
	int fired = -1;

	dltest_add_i(edb, "e", 1);
	dltest_add_i(edb, "f", 1);
	res = dltest_solve(s, edb);
	ck_assert_status(maelys_datalog_result_rule_fired(res, 0, &fired),
			 ST_OK);
	ck_assert_int_eq(fired, 1);
	/* t(1) was already there: the body held all the same */
	ck_assert_status(maelys_datalog_result_rule_fired(res, 1, &fired),
			 ST_OK);
	ck_assert_int_eq(fired, 1);
	ck_assert_status(maelys_datalog_result_rule_fired(res, 2, &fired),
			 ST_OK);
	ck_assert_int_eq(fired, 0);
	ck_assert_uint_eq(derivation(res, dltest_find_i(res, "t", 1)).rule, 0);
	ck_assert_status(maelys_datalog_result_rule_fired(res, 3, &fired),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_result_rule_fired(NULL, 0, &fired),
			 ST_INVALID);
	r0 = dltest_solve(plain, edb);
	ck_assert_status(maelys_datalog_result_rule_fired(r0, 0, &fired),
			 ST_ROLE);
	(void)maelys_datalog_result_free(r0);
	(void)maelys_datalog_result_free(res);
	/* a later solve starts again */
	(void)maelys_datalog_input_edb_truncate(edb, 0);
	dltest_add_i(edb, "e", 7);
	res = dltest_solve(s, edb);
	ck_assert_status(maelys_datalog_result_rule_fired(res, 1, &fired),
			 ST_OK);
	ck_assert_int_eq(fired, 0);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_session_free(plain);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_prov_bad_handles_are_refused)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, two_src);
	maelys_datalog_session_t *s = dltest_new_session_flags(policy, PROV);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	maelys_datalog_tuple_t t, bad_rel = {1000, 0}, bad_row;
	maelys_datalog_derivation_t d;
	maelys_datalog_premise_t p;
	maelys_datalog_fact_view_t v;
	const char *name = "x";
	int found = -1;

	dltest_add_i(edb, "e", 1);
	res = dltest_solve(s, edb);
	t = dltest_find_i(res, "a", 1);
	bad_row = t;
	bad_row.row = 1;
	ck_assert_status(maelys_datalog_result_tuple(res, bad_rel, &name, &v),
			 ST_INVALID);
	ck_assert_ptr_null(name);
	ck_assert_status(maelys_datalog_result_tuple(res, bad_row, &name, &v),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_result_derivation(res, bad_row, &d),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_result_premise(res, bad_rel, 0, &p),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_result_premise(res, t, 1, &p),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_result_derivation(NULL, t, &d),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_result_derivation(res, t, NULL),
			 ST_INVALID);
	ck_assert_status(
	    maelys_datalog_result_find(res, "a", NULL, 1, &t, &found),
	    ST_INVALID);
	ck_assert_int_eq(found, 0);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* A chain of 400 edges and its closure, solved in `s`. */
static maelys_datalog_status_t
solve_chain(maelys_datalog_session_t *s, maelys_datalog_result_t **res)
{
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_status_t st;
	int64_t i;

	for (i = 0; i < 400; i++)
		dltest_add_ii(edb, "e", i, i + 1);
	st = maelys_datalog_session_solve_edb(s, edb, res, &diag);
	(void)maelys_datalog_input_edb_free(edb);
	return st;
}

static const char chain_src[] = ".decl e(x, y)\n.input e\n"
				".decl tc(x, y)\n"
				"tc(X, Y) :- e(X, Y).\n"
				"tc(X, Z) :- tc(X, Y), e(Y, Z).\n";

/* The records count against BUDGET_MEMORY: the least budget a session
 * without provenance needs is too little with it. */
START_TEST(test_prov_memory_counts_against_the_budget)
{
	maelys_datalog_policy_t *policy = dltest_load(NULL, SOURCE, chain_src);
	maelys_datalog_result_t *res = NULL;
	uint64_t lo = 1, hi = UINT64_C(64) << 20;

	/* the least budget that works without provenance */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		maelys_datalog_session_t *s = dltest_new_session_flags(policy, 0);
		maelys_datalog_status_t st;

		ck_assert_status(maelys_datalog_session_set_budget(
				     s, MAELYS_DATALOG_BUDGET_MEMORY, mid),
				 ST_OK);
		st = solve_chain(s, &res);
		(void)maelys_datalog_result_free(res);
		res = NULL;
		(void)maelys_datalog_session_free(s);
		if (st == ST_OK)
			hi = mid;
		else
			lo = mid + 1;
	}
	{
		maelys_datalog_session_t *s = dltest_new_session_flags(policy, PROV);

		ck_assert_status(maelys_datalog_session_set_budget(
				     s, MAELYS_DATALOG_BUDGET_MEMORY, lo),
				 ST_OK);
		ck_assert_status(solve_chain(s, &res),
				 MAELYS_DATALOG_STATUS_BUDGET_MEMORY);
		ck_assert_ptr_null(res);
		ck_assert_status(maelys_datalog_session_set_budget(
				     s, MAELYS_DATALOG_BUDGET_MEMORY, 4 * lo),
				 ST_OK);
		ck_assert_status(solve_chain(s, &res), ST_OK);
		ck_assert_int_eq(
		    derivation(res, dltest_find_ii(res, "tc", 0, 400)).origin,
		    MAELYS_DATALOG_ORIGIN_RULE);
		(void)maelys_datalog_result_free(res);
		(void)maelys_datalog_session_free(s);
	}
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* Every allocation of a PROVENANCE session's create, prepare and solve
 * fails in turn: NO_MEMORY each time, the session still usable, and the
 * attempt that gets through has the whole tree.  (Leaks show under the
 * sanitizer build.) */
START_TEST(test_prov_allocation_failures_are_no_memory)
{
	maelys_datalog_policy_t *policy = graph_policy();
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	size_t n;

	dltest_add_s(edb, "req", "n1");
	for (n = 1; n < 5000; n++) {
		maelys_datalog_diagnostic_t diag =
		    MAELYS_DATALOG_DIAGNOSTIC_INIT;
		maelys_datalog_session_t *s = NULL;
		maelys_datalog_result_t *res = NULL;
		maelys_datalog_status_t st;

		(void)dl_mem_fail_after(n);
		st = maelys_datalog_session_create(policy, PROV, &s);
		if (st == ST_OK)
			st = maelys_datalog_session_solve_edb(s, edb, &res,
							      &diag);
		(void)dl_mem_fail_after(0);
		if (st == ST_OK) {
			check_graph_tree(res);
			(void)maelys_datalog_result_free(res);
			(void)maelys_datalog_session_free(s);
			break;
		}
		ck_assert_msg(st == MAELYS_DATALOG_STATUS_NO_MEMORY,
			      "allocation %zu: %s", n,
			      maelys_datalog_status_name(st));
		ck_assert_ptr_null(res);
		if (s != NULL) {
			/* what failed left the session whole */
			res = dltest_solve(s, edb);
			check_graph_tree(res);
			(void)maelys_datalog_result_free(res);
		}
		(void)maelys_datalog_session_free(s);
	}
	ck_assert_msg(n > 3, "no allocation was made to fail");
	ck_assert_uint_lt(n, 5000);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("provenance");

	tcase_add_test(tc, test_prov_nonrecursive_premises_in_source_order);
	tcase_add_test(tc, test_prov_recursive_tree_ends_in_input_facts);
	tcase_add_test(tc, test_prov_negation_and_builtins_give_their_values);
	tcase_add_test(tc, test_prov_policy_only_strata_walk_across_solves);
	tcase_add_test(tc, test_prov_helper_relations_readable_only_with_the_flag);
	tcase_add_test(tc, test_prov_origins_of_facts);
	tcase_add_test(tc, test_prov_only_records_what_was_asked);
	tcase_add_test(tc, test_prov_why_not_names_the_first_failing_literal);
	tcase_add_test(tc, test_prov_why_not_in_a_body_past_64_literals);
	tcase_add_test(tc, test_prov_rule_fired_even_without_a_new_tuple);
	tcase_add_test(tc, test_prov_bad_handles_are_refused);
	tcase_add_test(tc, test_prov_memory_counts_against_the_budget);
	tcase_add_test(tc, test_prov_allocation_failures_are_no_memory);
	suite_add_tcase(s, tc);
	return s;
}
