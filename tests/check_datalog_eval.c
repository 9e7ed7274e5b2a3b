/* SPDX-License-Identifier: MIT */
/*
 * Semantics of evaluation: what a program derives, compared with the answer
 * the test computes on its own in plain C (BFS, Floyd-Warshall, depths in a
 * tree, the strata of negation by hand).  Recursion (linear, non-linear,
 * mutual), stratified negation, repeated variables, constants, facts in IDB
 * predicates, zero-arity predicates, mixed and boxed integer columns, and a
 * session reused for many solves, where each solve must see its own input
 * and nothing of the previous one.
 *
 * Programs are standalone: .input relations take the input facts, every
 * relation is readable.
 */
#include "runner.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <maelys/datalog.h>
#include <maelys/datalog_builders.h>

#include "datalog_testutil.h"

#define SOURCE "eval.dl"

/* ------------------------------------------------------------------ */
/* Graphs and the answers computed in C                                 */

/* A deterministic generator (a test must not depend on libc's rand). */
static uint32_t
lcg_next(uint32_t *state)
{
	*state = *state * 1664525u + 1013904223u;
	return *state >> 8;
}

struct graph {
	size_t n;
	size_t nedges;
	size_t (*edges)[2];
	unsigned char *reach; /* n * n: reach[i * n + j], path of length >= 1 */
};

static void
graph_init(struct graph *g, size_t n, size_t max_edges)
{
	g->n = n;
	g->nedges = 0;
	g->edges = calloc(max_edges + 1, sizeof *g->edges);
	g->reach = calloc(n * n, 1);
	ck_assert(g->edges != NULL && g->reach != NULL);
}

static void
graph_free(struct graph *g)
{
	free(g->edges);
	free(g->reach);
}

static void
graph_edge(struct graph *g, size_t a, size_t b)
{
	g->edges[g->nedges][0] = a;
	g->edges[g->nedges][1] = b;
	g->nedges++;
}

/* Reachability by a breadth-first search from every node. */
static void
graph_bfs(struct graph *g)
{
	size_t *queue = calloc(g->n + 1, sizeof *queue);
	size_t s, e;

	ck_assert_ptr_nonnull(queue);
	memset(g->reach, 0, g->n * g->n);
	for (s = 0; s < g->n; s++) {
		size_t head = 0, tail = 0;
		unsigned char *row = g->reach + s * g->n;

		queue[tail++] = s;
		while (head < tail) {
			size_t u = queue[head++];

			for (e = 0; e < g->nedges; e++) {
				size_t v = g->edges[e][1];

				if (g->edges[e][0] != u || row[v])
					continue;
				row[v] = 1;
				queue[tail++] = v;
			}
		}
	}
	free(queue);
}

/* Reachability by Floyd-Warshall's closure, for a second opinion. */
static void
graph_floyd_warshall(struct graph *g)
{
	size_t i, j, k, e, n = g->n;

	memset(g->reach, 0, n * n);
	for (e = 0; e < g->nedges; e++)
		g->reach[g->edges[e][0] * n + g->edges[e][1]] = 1;
	for (k = 0; k < n; k++)
		for (i = 0; i < n; i++)
			if (g->reach[i * n + k])
				for (j = 0; j < n; j++)
					if (g->reach[k * n + j])
						g->reach[i * n + j] = 1;
}

static void
graph_random(struct graph *g, size_t n, size_t m, uint32_t seed)
{
	size_t e;

	graph_init(g, n, m);
	for (e = 0; e < m; e++) {
		size_t a = lcg_next(&seed) % n, b = lcg_next(&seed) % n;

		graph_edge(g, a, b);
	}
}

/* The input facts edge(a, b) of a graph, nodes as integers. */
static maelys_datalog_input_edb_t *
graph_edb(const struct graph *g)
{
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	size_t e;

	for (e = 0; e < g->nedges; e++)
		dltest_add_ii(edb, "edge", (int64_t)g->edges[e][0],
			      (int64_t)g->edges[e][1]);
	return edb;
}

/* Asserts that `pred` holds exactly the pairs of g->reach. */
static void
assert_reach_ints(const maelys_datalog_result_t *res, const char *pred,
		  const struct graph *g)
{
	size_t i, j, want = 0;

	for (i = 0; i < g->n; i++)
		for (j = 0; j < g->n; j++) {
			int exp = g->reach[i * g->n + j];

			want += (size_t)exp;
			ck_assert_msg(dltest_query_ii(res, pred, (int64_t)i,
						      (int64_t)j) == exp,
				      "%s(%zu, %zu): want %d", pred, i, j, exp);
		}
	ck_assert_uint_eq(dltest_count(res, pred, 2), want);
}

static const char closure_left[] = ".decl edge(a, b)\n"
				   ".input edge\n"
				   ".decl path(a, b)\n"
				   "path(X, Y) :- edge(X, Y).\n"
				   "path(X, Z) :- path(X, Y), edge(Y, Z).\n";

static const char closure_nonlinear[] =
    ".decl edge(a, b)\n"
    ".input edge\n"
    ".decl path(a, b)\n"
    "path(X, Y) :- edge(X, Y).\n"
    "path(X, Z) :- path(X, Y), path(Y, Z).\n";

/* ------------------------------------------------------------------ */
/* Recursion                                                            */

START_TEST(test_eval_closure_of_chain_matches_bfs)
{
	/* nodes are symbols here: n0 -> n1 -> ... -> n39 */
	enum { N = 40 };
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	struct graph g;
	struct dltest_prog p;
	char a[16], b[16];
	size_t i, j, want = 0;

	graph_init(&g, N, N);
	for (i = 0; i + 1 < N; i++) {
		graph_edge(&g, i, i + 1);
		(void)snprintf(a, sizeof a, "n%zu", i);
		(void)snprintf(b, sizeof b, "n%zu", i + 1);
		dltest_add_ss(edb, "edge", a, b);
	}
	graph_bfs(&g);
	dltest_prog_open(&p, SOURCE, closure_left);
	res = dltest_prog_solve(&p, edb);
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			int exp = g.reach[i * N + j];

			(void)snprintf(a, sizeof a, "n%zu", i);
			(void)snprintf(b, sizeof b, "n%zu", j);
			want += (size_t)exp;
			ck_assert_msg(dltest_query_ss(res, "path", a, b) == exp,
				      "path(%s, %s): want %d", a, b, exp);
		}
	ck_assert_uint_eq(want, N * (N - 1) / 2);
	ck_assert_uint_eq(dltest_count(res, "path", 2), want);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
	graph_free(&g);
}
END_TEST

START_TEST(test_eval_closure_of_cycle_is_complete)
{
	enum { N = 25 };
	maelys_datalog_input_edb_t *edb;
	maelys_datalog_result_t *res;
	struct graph g;
	struct dltest_prog p;
	size_t i;

	graph_init(&g, N, N);
	for (i = 0; i < N; i++)
		graph_edge(&g, i, (i + 1) % N);
	graph_bfs(&g);
	edb = graph_edb(&g);
	dltest_prog_open(&p, SOURCE, closure_left);
	res = dltest_prog_solve(&p, edb);
	assert_reach_ints(res, "path", &g);
	/* on a cycle every node reaches every node, itself included */
	ck_assert_uint_eq(dltest_count(res, "path", 2), N * N);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
	graph_free(&g);
}
END_TEST

static const uint32_t random_seeds[] = {1u, 42u, 2024u, 0xdeadbeefu};

START_TEST(test_eval_closure_of_random_graph_matches_floyd_warshall)
{
	maelys_datalog_input_edb_t *edb;
	maelys_datalog_result_t *res;
	struct graph g;
	struct dltest_prog p;

	graph_random(&g, 60, 90, random_seeds[_i]);
	graph_floyd_warshall(&g);
	edb = graph_edb(&g);
	dltest_prog_open(&p, SOURCE, closure_left);
	res = dltest_prog_solve(&p, edb);
	assert_reach_ints(res, "path", &g);
	(void)maelys_datalog_result_free(res);
	dltest_prog_close(&p);
	/* the BFS agrees with Floyd-Warshall, and the program with both */
	graph_bfs(&g);
	dltest_prog_open(&p, SOURCE, closure_left);
	res = dltest_prog_solve(&p, edb);
	assert_reach_ints(res, "path", &g);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
	graph_free(&g);
}
END_TEST

START_TEST(test_eval_nonlinear_closure_matches_floyd_warshall)
{
	maelys_datalog_input_edb_t *edb;
	maelys_datalog_result_t *res;
	struct graph g;
	struct dltest_prog p;

	graph_random(&g, 50, 70, random_seeds[_i] ^ 0x5555u);
	graph_floyd_warshall(&g);
	edb = graph_edb(&g);
	dltest_prog_open(&p, SOURCE, closure_nonlinear);
	res = dltest_prog_solve(&p, edb);
	assert_reach_ints(res, "path", &g);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
	graph_free(&g);
}
END_TEST

START_TEST(test_eval_same_generation_on_tree_matches_depths)
{
	/* an irregular tree: parent_of[i] is the parent of node i; 0 is the
	 * root */
	static const int parent_of[] = {-1, 0, 0, 0, 1, 1, 2,  4,
					4,  4, 6, 7, 9, 9, 10, 3};
	enum { N = sizeof parent_of / sizeof *parent_of };
	static const char src[] =
	    ".decl node(x)\n"
	    ".input node\n"
	    ".decl parent(c, p)\n"
	    ".input parent\n"
	    ".decl sg(a, b)\n"
	    "sg(X, X) :- node(X).\n"
	    "sg(X, Y) :- parent(X, XP), sg(XP, YP), parent(Y, YP).\n";
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	size_t depth[N], i, j, want = 0;
	struct dltest_prog p;

	for (i = 0; i < N; i++) {
		int k;

		depth[i] = 0;
		for (k = parent_of[i]; k >= 0; k = parent_of[k])
			depth[i]++;
		dltest_add_i(edb, "node", (int64_t)i);
		if (parent_of[i] >= 0)
			dltest_add_ii(edb, "parent", (int64_t)i, parent_of[i]);
	}
	dltest_prog_open(&p, SOURCE, src);
	res = dltest_prog_solve(&p, edb);
	/* in a tree with one root, two nodes are of the same generation
	 * exactly when they are at the same depth */
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			int exp = depth[i] == depth[j];

			want += (size_t)exp;
			ck_assert_msg(dltest_query_ii(res, "sg", (int64_t)i,
						      (int64_t)j) == exp,
				      "sg(%zu, %zu): want %d", i, j, exp);
		}
	ck_assert_uint_eq(dltest_count(res, "sg", 2), want);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

START_TEST(test_eval_mutual_recursion_even_odd)
{
	enum { N = 50 };
	static const char src[] = ".decl succ(a, b)\n"
				  ".input succ\n"
				  ".decl zero(x)\n"
				  ".input zero\n"
				  ".decl even(x)\n"
				  ".decl odd(x)\n"
				  "even(X) :- zero(X).\n"
				  "odd(Y) :- even(X), succ(X, Y).\n"
				  "even(Y) :- odd(X), succ(X, Y).\n";
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	struct dltest_prog p;
	int64_t i;

	for (i = 0; i < N; i++)
		dltest_add_ii(edb, "succ", i, i + 1);
	dltest_add_i(edb, "zero", 0);
	dltest_prog_open(&p, SOURCE, src);
	res = dltest_prog_solve(&p, edb);
	for (i = 0; i <= N; i++) {
		ck_assert_int_eq(dltest_query_i(res, "even", i), i % 2 == 0);
		ck_assert_int_eq(dltest_query_i(res, "odd", i), i % 2 == 1);
	}
	ck_assert_uint_eq(dltest_count(res, "even", 1), N / 2 + 1);
	ck_assert_uint_eq(dltest_count(res, "odd", 1), N / 2);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Negation                                                             */

START_TEST(test_eval_stratified_negation_over_several_strata)
{
	static const char src[] =
	    ".decl node(x)\n.input node\n"
	    ".decl edge(a, b)\n.input edge\n"
	    ".decl start(x)\n.input start\n"
	    ".decl reach(x)\n.decl unreach(x)\n.decl has_out(x)\n"
	    ".decl dead_end(x)\n.decl live(x)\n"
	    "reach(X) :- start(X).\n"
	    "reach(Y) :- reach(X), edge(X, Y).\n"
	    "unreach(X) :- node(X), !reach(X).\n"
	    "has_out(X) :- edge(X, _).\n"
	    "dead_end(X) :- unreach(X), not(has_out(X)).\n"
	    "live(X) :- node(X), !dead_end(X).\n";
	enum { N = 30 };
	maelys_datalog_input_edb_t *edb;
	maelys_datalog_result_t *res;
	unsigned char has_out[N], dead[N];
	struct graph g;
	struct dltest_prog p;
	size_t i, e, ndead = 0, nunreach = 0;

	graph_random(&g, N, 24, 7u + (uint32_t)_i);
	graph_bfs(&g);
	edb = graph_edb(&g);
	for (i = 0; i < N; i++)
		dltest_add_i(edb, "node", (int64_t)i);
	dltest_add_i(edb, "start", 0);
	memset(has_out, 0, sizeof has_out);
	for (e = 0; e < g.nedges; e++)
		has_out[g.edges[e][0]] = 1;
	dltest_prog_open(&p, SOURCE, src);
	res = dltest_prog_solve(&p, edb);
	for (i = 0; i < N; i++) {
		int reach = i == 0 || g.reach[0 * N + i];

		dead[i] = !reach && !has_out[i];
		ndead += dead[i];
		nunreach += (size_t)!reach;
		ck_assert_int_eq(dltest_query_i(res, "reach", (int64_t)i),
				 reach);
		ck_assert_int_eq(dltest_query_i(res, "unreach", (int64_t)i),
				 !reach);
		ck_assert_int_eq(dltest_query_i(res, "has_out", (int64_t)i),
				 has_out[i]);
		ck_assert_int_eq(dltest_query_i(res, "dead_end", (int64_t)i),
				 dead[i]);
		ck_assert_int_eq(dltest_query_i(res, "live", (int64_t)i),
				 !dead[i]);
	}
	ck_assert_uint_eq(dltest_count(res, "unreach", 1), nunreach);
	ck_assert_uint_eq(dltest_count(res, "dead_end", 1), ndead);
	ck_assert_uint_eq(dltest_count(res, "live", 1), N - ndead);
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
	graph_free(&g);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Terms                                                                */

START_TEST(test_eval_repeated_variables_join_columns)
{
	static const int64_t edges[][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 3},
					   {3, 3}, {4, 5}, {5, 6}};
	static const int64_t triples[][3] = {
	    {1, 2, 1}, {1, 2, 3}, {5, 5, 5}, {7, 7, 8}};
	enum { NE = sizeof edges / sizeof *edges };
	enum { NT = sizeof triples / sizeof *triples };
	static const char src[] = ".decl edge(a, b)\n.input edge\n"
				  ".decl t(a, b, c)\n.input t\n"
				  ".decl loop(x)\n.decl sym(a, b)\n"
				  ".decl pal(x)\n.decl diag(a, b)\n"
				  "loop(X) :- edge(X, X).\n"
				  "sym(X, Y) :- edge(X, Y), edge(Y, X).\n"
				  "pal(X) :- t(X, _, X).\n"
				  "diag(X, X) :- edge(X, _).\n";
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	size_t i, j, nloop = 0, nsym = 0, npal = 0;
	int64_t v;
	struct dltest_prog p;

	for (i = 0; i < NE; i++)
		dltest_add_ii(edb, "edge", edges[i][0], edges[i][1]);
	for (i = 0; i < NT; i++) {
		maelys_datalog_arg_t args[3];

		args[0] = maelys_datalog_arg_integer(triples[i][0]);
		args[1] = maelys_datalog_arg_integer(triples[i][1]);
		args[2] = maelys_datalog_arg_integer(triples[i][2]);
		dltest_add_args(edb, "t", args, 3);
	}
	dltest_prog_open(&p, SOURCE, src);
	res = dltest_prog_solve(&p, edb);
	for (i = 0; i < NE; i++) {
		int sym = 0;

		if (edges[i][0] == edges[i][1]) {
			nloop++;
			ck_assert(dltest_query_i(res, "loop", edges[i][0]));
		}
		for (j = 0; j < NE; j++)
			if (edges[j][0] == edges[i][1] &&
			    edges[j][1] == edges[i][0])
				sym = 1;
		nsym += (size_t)sym;
		ck_assert_int_eq(
		    dltest_query_ii(res, "sym", edges[i][0], edges[i][1]), sym);
	}
	for (v = 0; v < 10; v++) {
		int pal = 0;

		for (i = 0; i < NT; i++)
			pal |= triples[i][0] == v && triples[i][2] == v;
		npal += (size_t)pal;
		ck_assert_int_eq(dltest_query_i(res, "pal", v), pal);
	}
	ck_assert_uint_eq(dltest_count(res, "loop", 1), nloop);
	ck_assert_uint_eq(dltest_count(res, "sym", 2), nsym);
	ck_assert_uint_eq(dltest_count(res, "pal", 1), npal);
	/* diag(X, X) for every node with an outgoing edge, never X != Y */
	for (v = 0; v < 8; v++) {
		int out = 0;

		for (i = 0; i < NE; i++)
			out |= edges[i][0] == v;
		ck_assert_int_eq(dltest_query_ii(res, "diag", v, v), out);
		ck_assert_int_eq(dltest_query_ii(res, "diag", v, v + 1), 0);
	}
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

START_TEST(test_eval_constants_in_bodies_and_heads)
{
	static const char src[] = ".decl edge(a, b)\n.input edge\n"
				  ".decl from_a(x)\n.decl to_b(x)\n"
				  ".decl tagged(x, t, n)\n.decl fixed(k, n)\n"
				  ".decl never(k)\n"
				  "from_a(Y) :- edge(\"a\", Y).\n"
				  "to_b(X) :- edge(X, b).\n"
				  "tagged(X, \"seen\", 7) :- edge(X, _).\n"
				  "fixed(\"k\", -1) :- edge(\"a\", \"b\").\n"
				  "never(\"z\") :- edge(\"z\", \"z\").\n";
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	struct dltest_prog p;

	dltest_add_ss(edb, "edge", "a", "b");
	dltest_add_ss(edb, "edge", "a", "c");
	dltest_add_ss(edb, "edge", "c", "b");
	dltest_add_ss(edb, "edge", "d", "a");
	dltest_prog_open(&p, SOURCE, src);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "from_a", 1, "b c");
	dltest_assert_rows(res, "to_b", 1, "a c");
	dltest_assert_rows(res, "tagged", 3, "a,seen,#7 c,seen,#7 d,seen,#7");
	dltest_assert_rows(res, "fixed", 2, "k,#-1");
	dltest_assert_rows(res, "never", 1, "");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

START_TEST(test_eval_facts_in_idb_predicates_join_rules)
{
	/* allowed has facts of its own and a rule over the input; base has
	 * only facts and a rule over them (a policy-only relation) */
	static const char src[] = ".decl extra(x)\n.input extra\n"
				  ".decl allowed(x)\n"
				  "allowed(\"ls\").\n"
				  "allowed(X) :- extra(X).\n"
				  ".decl base(x)\n.decl wide(x)\n"
				  "base(\"a\"). wide(\"w\").\n"
				  "wide(X) :- base(X).\n";
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	struct dltest_prog p;

	dltest_prog_open(&p, SOURCE, src);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "allowed", 1, "ls");
	dltest_assert_rows(res, "wide", 1, "a w");
	(void)maelys_datalog_result_free(res);
	dltest_add_s(edb, "extra", "cat");
	dltest_add_s(edb, "extra", "ls");
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "allowed", 1, "cat ls");
	dltest_assert_rows(res, "wide", 1, "a w");
	(void)maelys_datalog_result_free(res);
	/* the facts come back with every solve, the input does not */
	ck_assert_int_eq(maelys_datalog_input_edb_clear(edb),
			 MAELYS_DATALOG_STATUS_OK);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "allowed", 1, "ls");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* A standalone .input relation may also have facts and rules of its own:
 * here a rule makes it symmetric, recursively, over input and facts. */
START_TEST(test_eval_input_relation_with_facts_and_rules)
{
	static const char src[] = ".decl e(a, b)\n.input e\n"
				  "e(\"p\", \"q\").\n"
				  "e(X, Y) :- e(Y, X).\n"
				  ".decl r(a)\n"
				  "r(X) :- e(X, _).\n";
	static const struct {
		const char *a, *b; /* input e(a, b), or none */
		const char *want_e;
	} solves[] = {
	    {"a", "b", "a,b b,a p,q q,p"},
	    {NULL, NULL, "p,q q,p"},
	    {"c", "c", "c,c p,q q,p"},
	    {"q", "p", "p,q q,p"},
	};
	struct dltest_prog p;
	size_t i;

	dltest_prog_open(&p, SOURCE, src);
	for (i = 0; i < sizeof solves / sizeof *solves; i++) {
		maelys_datalog_input_edb_t *edb = dltest_new_edb();
		maelys_datalog_result_t *res;

		if (solves[i].a != NULL)
			dltest_add_ss(edb, "e", solves[i].a, solves[i].b);
		res = dltest_prog_solve(&p, edb);
		dltest_assert_rows(res, "e", 2, solves[i].want_e);
		ck_assert_uint_eq(dltest_count(res, "r", 1),
				  dltest_count(res, "e", 2));
		(void)maelys_datalog_result_free(res);
		(void)maelys_datalog_input_edb_free(edb);
	}
	dltest_prog_close(&p);
}
END_TEST

/* The same in a host's domain: facts of an IDB|QUERY predicate next to a
 * rule over the input, and a helper IDB derived from POLICY_FACTs alone. */
static const maelys_datalog_predicate_t eval_preds[] = {
    {"in", 1, MAELYS_DATALOG_PREDICATE_EDB},
    {"base", 2, MAELYS_DATALOG_PREDICATE_POLICY_FACT},
    {"reach", 2, MAELYS_DATALOG_PREDICATE_IDB},
    {"linked", 2,
     MAELYS_DATALOG_PREDICATE_IDB | MAELYS_DATALOG_PREDICATE_QUERY},
    {"ok", 1, MAELYS_DATALOG_PREDICATE_IDB | MAELYS_DATALOG_PREDICATE_QUERY},
};
static const maelys_datalog_domain_t eval_domain = {
    "lang_eval", eval_preds, sizeof eval_preds / sizeof *eval_preds, NULL, 0};

START_TEST(test_eval_domain_idb_facts_and_policy_strata)
{
	static const char src[] = "base(\"a\", \"b\"). base(\"b\", \"c\").\n"
				  "reach(X, Y) :- base(X, Y).\n"
				  "reach(X, Z) :- reach(X, Y), base(Y, Z).\n"
				  "linked(X, Y) :- reach(X, Y).\n"
				  "ok(\"ls\").\n"
				  "ok(X) :- in(X), reach(X, _).\n";
	static const struct {
		const char *in;
		const char *ok;
	} solves[] = {
	    {"a", "a ls"}, {"c", "ls"},  {"b", "b ls"},
	    {"zzz", "ls"}, {NULL, "ls"}, {"a", "a ls"},
	};
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	struct dltest_prog p;
	size_t i;

	ck_assert_int_eq(maelys_datalog_domain_register(&eval_domain),
			 MAELYS_DATALOG_STATUS_OK);
	memset(&p, 0, sizeof p);
	ck_assert_int_eq(maelys_datalog_policy_load_inline("lang_eval", SOURCE,
							   src, strlen(src),
							   &p.policy, &diag),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(maelys_datalog_session_create(p.policy, 0, &p.session),
			 MAELYS_DATALOG_STATUS_OK);
	for (i = 0; i < sizeof solves / sizeof *solves; i++) {
		maelys_datalog_input_edb_t *edb = dltest_new_edb();
		maelys_datalog_result_t *res;

		if (solves[i].in != NULL)
			dltest_add_s(edb, "in", solves[i].in);
		res = dltest_prog_solve(&p, edb);
		dltest_assert_rows(res, "ok", 1, solves[i].ok);
		dltest_assert_rows(res, "linked", 2, "a,b a,c b,c");
		(void)maelys_datalog_result_free(res);
		(void)maelys_datalog_input_edb_free(edb);
	}
	dltest_prog_close(&p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Sessions: policy-only strata once, runtime strata per solve          */

static const char reuse_src[] =
    ".decl pedge(a, b)\n"
    ".decl preach(a, b)\n"
    "pedge(\"a\", \"b\"). pedge(\"b\", \"c\"). pedge(\"c\", \"d\").\n"
    "pedge(\"x\", \"y\").\n"
    "preach(X, Y) :- pedge(X, Y).\n"
    "preach(X, Z) :- preach(X, Y), pedge(Y, Z).\n"
    ".decl ask(x)\n.input ask\n"
    ".decl hit(a, b)\n.decl miss(x)\n"
    "hit(X, Y) :- ask(X), preach(X, Y).\n"
    "miss(X) :- ask(X), !preach(X, _).\n";

/* Node names, and which reach which through pedge (by hand: a chain
 * a-b-c-d and a pair x-y); "q" is unknown to the policy. */
static const char *const reuse_nodes[] = {"a", "b", "c", "d", "x", "y", "q"};
enum { REUSE_N = sizeof reuse_nodes / sizeof *reuse_nodes };
static const unsigned char reuse_reach[REUSE_N][REUSE_N] = {
    /*        a  b  c  d  x  y  q */
    /* a */ {0, 1, 1, 1, 0, 0, 0},
    /* b */ {0, 0, 1, 1, 0, 0, 0},
    /* c */ {0, 0, 0, 1, 0, 0, 0},
    /* d */ {0, 0, 0, 0, 0, 0, 0},
    /* x */ {0, 0, 0, 0, 0, 1, 0},
    /* y */ {0, 0, 0, 0, 0, 0, 0},
    /* q */ {0, 0, 0, 0, 0, 0, 0},
};

static maelys_datalog_input_edb_t *
reuse_edb(unsigned mask)
{
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	size_t i;

	for (i = 0; i < REUSE_N; i++)
		if (mask & (1u << i))
			dltest_add_s(edb, "ask", reuse_nodes[i]);
	return edb;
}

/* Checks a result against the answer for the asked set `mask`. */
static void
reuse_check(const maelys_datalog_result_t *res, unsigned mask)
{
	size_t i, j, nhit = 0, nmiss = 0, nask = 0;

	for (i = 0; i < REUSE_N; i++) {
		int asked = (mask >> i) & 1u, any = 0;

		for (j = 0; j < REUSE_N; j++) {
			int exp = asked && reuse_reach[i][j];

			any |= reuse_reach[i][j];
			nhit += (size_t)exp;
			ck_assert_msg(dltest_query_ss(res, "hit",
						      reuse_nodes[i],
						      reuse_nodes[j]) == exp,
				      "mask %#x: hit(%s, %s) want %d", mask,
				      reuse_nodes[i], reuse_nodes[j], exp);
		}
		nask += (size_t)asked;
		nmiss += (size_t)(asked && !any);
	}
	ck_assert_uint_eq(dltest_count(res, "ask", 1), nask);
	ck_assert_uint_eq(dltest_count(res, "hit", 2), nhit);
	ck_assert_uint_eq(dltest_count(res, "miss", 1), nmiss);
	/* the policy-only relation is the same whatever was asked */
	ck_assert_uint_eq(dltest_count(res, "preach", 2), 7);
}

START_TEST(test_eval_session_reuse_gives_each_solve_its_answer)
{
	maelys_datalog_result_t *res;
	struct dltest_prog p;
	unsigned mask;

	dltest_prog_open(&p, SOURCE, reuse_src);
	/* every subset of the nodes, in an order that often shrinks */
	for (mask = 0; mask < (1u << REUSE_N); mask++) {
		unsigned m = (mask * 37u) % (1u << REUSE_N);
		maelys_datalog_input_edb_t *edb = reuse_edb(m);

		res = dltest_prog_solve(&p, edb);
		reuse_check(res, m);
		(void)maelys_datalog_result_free(res);
		(void)maelys_datalog_input_edb_free(edb);
	}
	dltest_prog_close(&p);
}
END_TEST

START_TEST(test_eval_live_results_do_not_share_facts)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *e1 = reuse_edb(0x01), *e2 = reuse_edb(0x70);
	maelys_datalog_input_edb_t *bad = reuse_edb(0x02);
	maelys_datalog_result_t *r1, *r2, *r3 = NULL;
	maelys_datalog_status_t st;
	struct dltest_prog p;

	dltest_prog_open(&p, SOURCE, reuse_src);
	r1 = dltest_prog_solve(&p, e1);
	r2 = dltest_prog_solve(&p, e2);
	/* both alive: each keeps its own answer */
	reuse_check(r1, 0x01);
	reuse_check(r2, 0x70);
	(void)maelys_datalog_result_free(r1);
	reuse_check(r2, 0x70);
	/* a refused solve in between leaves nothing behind */
	dltest_add_ss(bad, "hit", "a", "d");
	st = maelys_datalog_session_solve_edb(p.session, bad, &r3, &diag);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_ROLE);
	ck_assert_ptr_null(r3);
	r1 = dltest_prog_solve(&p, e1);
	reuse_check(r1, 0x01);
	reuse_check(r2, 0x70);
	(void)maelys_datalog_result_free(r2);
	(void)maelys_datalog_result_free(r1);
	/* an empty input after all that derives nothing at runtime */
	ck_assert_int_eq(maelys_datalog_input_edb_clear(e1),
			 MAELYS_DATALOG_STATUS_OK);
	r1 = dltest_prog_solve(&p, e1);
	reuse_check(r1, 0);
	(void)maelys_datalog_result_free(r1);
	(void)maelys_datalog_input_edb_free(bad);
	(void)maelys_datalog_input_edb_free(e1);
	(void)maelys_datalog_input_edb_free(e2);
	dltest_prog_close(&p);
}
END_TEST

START_TEST(test_eval_duplicate_facts_count_once)
{
	static const char src[] = ".decl in(x)\n.input in\n"
				  ".decl p(x)\n.decl q(x)\n"
				  "p(\"a\"). p(\"a\"). p(a). p(\"b\").\n"
				  "q(X) :- in(X).\n"
				  "q(X) :- p(X).\n";
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	struct dltest_prog p;

	dltest_add_s(edb, "in", "a");
	dltest_add_s(edb, "in", "a");
	dltest_add_s(edb, "in", "c");
	dltest_add_i(edb, "in", 5);
	dltest_add_i(edb, "in", 5);
	/* the input keeps what was added; relations are sets */
	ck_assert_uint_eq(maelys_datalog_input_edb_count(edb), 5);
	dltest_prog_open(&p, SOURCE, src);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "in", 1, "#5 a c");
	dltest_assert_rows(res, "p", 1, "a b");
	dltest_assert_rows(res, "q", 1, "#5 a b c");
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

START_TEST(test_eval_zero_arity_predicates_hold_or_not)
{
	/* none: the negation of a relation with every column anonymous */
	static const char src[] = ".decl flag()\n.input flag\n"
				  ".decl e(x)\n.input e\n"
				  ".decl on()\n.decl off()\n.decl none()\n"
				  "on() :- flag().\n"
				  "off :- !flag.\n"
				  "none :- !e(_).\n";
	static const int flags[] = {1, 0, 1, 1, 0, 0, 1};
	static const int with_e[] = {0, 1, 1, 0, 0, 1, 0};
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	struct dltest_prog p;
	size_t i;

	dltest_prog_open(&p, SOURCE, src);
	for (i = 0; i < sizeof flags / sizeof *flags; i++) {
		maelys_datalog_input_edb_t *edb = dltest_new_edb();
		maelys_datalog_result_t *res;

		if (flags[i]) {
			ck_assert_int_eq(maelys_datalog_input_edb_add(
					     edb, "flag", NULL, 0, &diag),
					 MAELYS_DATALOG_STATUS_OK);
			/* twice is still one fact */
			ck_assert_int_eq(maelys_datalog_input_edb_add(
					     edb, "flag", NULL, 0, &diag),
					 MAELYS_DATALOG_STATUS_OK);
		}
		if (with_e[i])
			dltest_add_i(edb, "e", (int64_t)i);
		res = dltest_prog_solve(&p, edb);
		ck_assert_uint_eq(dltest_count(res, "none", 0),
				  (size_t)!with_e[i]);
		ck_assert_uint_eq(dltest_count(res, "flag", 0),
				  (size_t)flags[i]);
		ck_assert_uint_eq(dltest_count(res, "on", 0), (size_t)flags[i]);
		ck_assert_uint_eq(dltest_count(res, "off", 0),
				  (size_t)!flags[i]);
		ck_assert_int_eq(dltest_query_args(res, "on", NULL, 0),
				 flags[i]);
		ck_assert_int_eq(dltest_query_args(res, "off", NULL, 0),
				 !flags[i]);
		(void)maelys_datalog_result_free(res);
		(void)maelys_datalog_input_edb_free(edb);
	}
	dltest_prog_close(&p);
}
END_TEST

START_TEST(test_eval_integer_and_symbol_columns_mix)
{
	static const char src[] = ".decl kv(k, v)\n.input kv\n"
				  ".decl same(k)\n.decl ints(k)\n"
				  "same(K) :- kv(K, V), kv(V, K).\n"
				  "ints(K) :- kv(K, V), V = 5.\n";
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_fact_view_t rows[8];
	maelys_datalog_result_t *res;
	maelys_datalog_arg_t args[2];
	struct dltest_prog p;
	size_t n = 0, i;

	args[0] = maelys_datalog_arg_symbol("a");
	args[1] = maelys_datalog_arg_integer(1);
	dltest_add_args(edb, "kv", args, 2);
	args[0] = maelys_datalog_arg_integer(1);
	args[1] = maelys_datalog_arg_symbol("a");
	dltest_add_args(edb, "kv", args, 2);
	/* the string "5" is not the integer 5 */
	args[0] = maelys_datalog_arg_symbol("5");
	args[1] = maelys_datalog_arg_integer(5);
	dltest_add_args(edb, "kv", args, 2);
	dltest_add_ii(edb, "kv", 5, 5);
	dltest_prog_open(&p, SOURCE, src);
	res = dltest_prog_solve(&p, edb);
	dltest_assert_rows(res, "kv", 2, "#1,a #5,#5 5,#5 a,#1");
	dltest_assert_rows(res, "same", 1, "#1 #5 a");
	dltest_assert_rows(res, "ints", 1, "#5 5");
	/* the kinds survive enumeration */
	ck_assert_int_eq(
	    maelys_datalog_result_enumerate(res, "ints", 1, rows, 8, &n),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(n, 2);
	for (i = 0; i < n; i++) {
		const maelys_datalog_term_t *t = &rows[i].terms[0];

		if (t->kind == MAELYS_DATALOG_TERM_INTEGER) {
			ck_assert_int_eq(t->as.integer, 5);
		} else {
			const char *text = NULL;
			size_t len = 0;

			ck_assert_int_eq(t->kind, MAELYS_DATALOG_TERM_SYMBOL);
			ck_assert_int_eq(maelys_datalog_result_symbol_text(
					     res, t->as.symbol_id, &text, &len),
					 MAELYS_DATALOG_STATUS_OK);
			ck_assert_uint_eq(len, 1);
			ck_assert_str_eq(text, "5");
		}
	}
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

/* Integers outside [-2^30, 2^30) are stored boxed; inside they are inline.
 * Both kinds, and the edges between them, must come back unchanged. */
static const int64_t wide_ints[] = {
    INT64_MIN,
    INT64_MIN + 1,
    -(INT64_C(1) << 40),
    -(INT64_C(1) << 30) - 1,
    -(INT64_C(1) << 30),
    -1,
    0,
    (INT64_C(1) << 30) - 1,
    INT64_C(1) << 30,
    INT64_C(1) << 40,
    INT64_MAX - 1,
    INT64_MAX,
};
enum { NWIDE = sizeof wide_ints / sizeof *wide_ints };

static int
cmp_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

START_TEST(test_eval_boxed_integers_round_trip)
{
	static const char src[] = ".decl in(x)\n.input in\n"
				  ".decl out(x)\n.decl big(x)\n"
				  ".decl pinned(x)\n.decl lt(a, b)\n"
				  ".decl c(x)\n.decl both(x)\n"
				  "c(-9223372036854775808). c(1099511627776).\n"
				  "c(-1073741824).\n"
				  "out(X) :- in(X).\n"
				  "big(X) :- in(X), X > 1073741823.\n"
				  "pinned(X) :- in(X), X = 1099511627776.\n"
				  "lt(X, Y) :- in(X), in(Y), X < Y.\n"
				  "both(X) :- in(X), c(X).\n";
	maelys_datalog_fact_view_t rows[NWIDE + 1];
	int64_t got[NWIDE];
	struct dltest_prog p;
	size_t i, j, n, nbig = 0;
	int round;

	dltest_prog_open(&p, SOURCE, src);
	/* twice: the second solve reuses the first one's workspace */
	for (round = 0; round < 2; round++) {
		maelys_datalog_input_edb_t *edb = dltest_new_edb();
		maelys_datalog_result_t *res;

		for (i = 0; i < NWIDE; i++)
			dltest_add_i(edb, "in", wide_ints[NWIDE - 1 - i]);
		res = dltest_prog_solve(&p, edb);
		n = 0;
		ck_assert_int_eq(maelys_datalog_result_enumerate(
				     res, "out", 1, rows, NWIDE + 1, &n),
				 MAELYS_DATALOG_STATUS_OK);
		ck_assert_uint_eq(n, NWIDE);
		for (i = 0; i < n; i++) {
			ck_assert_int_eq(rows[i].terms[0].kind,
					 MAELYS_DATALOG_TERM_INTEGER);
			got[i] = rows[i].terms[0].as.integer;
		}
		qsort(got, n, sizeof *got, cmp_int64);
		for (i = 0; i < NWIDE; i++)
			ck_assert_msg(got[i] == wide_ints[i],
				      "out[%zu] = %lld, want %lld", i,
				      (long long)got[i],
				      (long long)wide_ints[i]);
		nbig = 0;
		for (i = 0; i < NWIDE; i++) {
			int big = wide_ints[i] > (INT64_C(1) << 30) - 1;

			nbig += (size_t)big;
			ck_assert_int_eq(
			    dltest_query_i(res, "big", wide_ints[i]), big);
			ck_assert_int_eq(
			    dltest_query_i(res, "out", wide_ints[i]), 1);
			/* ordering of boxed and inline values is numeric */
			for (j = 0; j < NWIDE; j++)
				ck_assert_int_eq(dltest_query_ii(res, "lt",
								 wide_ints[i],
								 wide_ints[j]),
						 i < j);
		}
		ck_assert_uint_eq(dltest_count(res, "big", 1), nbig);
		ck_assert_uint_eq(dltest_count(res, "lt", 2),
				  NWIDE * (NWIDE - 1) / 2);
		/* a policy constant meets the same value from the input */
		dltest_assert_rows(res, "pinned", 1, "#1099511627776");
		dltest_assert_rows(res, "both", 1,
				   "#-1073741824 #-9223372036854775808 "
				   "#1099511627776");
		/* values never given are not found */
		ck_assert_int_eq(dltest_query_i(res, "out", INT64_C(1) << 41),
				 0);
		ck_assert_int_eq(dltest_query_i(res, "out", 1), 0);
		(void)maelys_datalog_result_free(res);
		(void)maelys_datalog_input_edb_free(edb);
	}
	dltest_prog_close(&p);
}
END_TEST

/* A literal of the rule's own stratum with every column bound: one- and
 * two-column relations keep tuples, not rows, in their set, so this is
 * planned as a probe of an all-columns index that knows which rows the
 * semi-naive ranges may see.  Expected answers worked by hand (and by a
 * brute-force fixpoint). */
START_TEST(test_eval_fully_bound_recursive_literal_sees_right_rows)
{
	static const int64_t edges[][2] = {{1, 2}, {2, 2}, {2, 3},
					   {3, 4}, {4, 4}, {4, 1}};
	static const int64_t want[][2] = {{1, 2}, {1, 4}, {2, 2}, {2, 3},
					  {2, 4}, {3, 2}, {3, 4}, {4, 1},
					  {4, 2}, {4, 4}};
	struct dltest_prog p;
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;
	size_t i;

	dltest_prog_open(&p, SOURCE,
			 ".decl e(a, b)\n.input e\n.decl r(a, b)\n"
			 ".decl n(a)\n.input n\n.decl s(a)\n"
			 "r(X, Y) :- e(X, Y).\n"
			 "r(X, Z) :- r(X, Y), r(Y, Z), r(Z, Z).\n"
			 "s(X) :- n(X).\n"
			 "s(Y) :- s(X), e(X, Y), s(X).\n");
	for (i = 0; i < sizeof edges / sizeof edges[0]; i++)
		dltest_add_ii(edb, "e", edges[i][0], edges[i][1]);
	{
		maelys_datalog_arg_t one = maelys_datalog_arg_integer(1);

		ck_assert_int_eq(
		    maelys_datalog_input_edb_add(edb, "n", &one, 1, NULL),
		    MAELYS_DATALOG_STATUS_OK);
	}
	res = dltest_prog_solve(&p, edb);
	ck_assert_uint_eq(dltest_count(res, "r", 2), 10);
	for (i = 0; i < sizeof want / sizeof want[0]; i++)
		ck_assert_msg(dltest_query_ii(res, "r", want[i][0], want[i][1]),
			      "r(%lld, %lld) missing", (long long)want[i][0],
			      (long long)want[i][1]);
	ck_assert_uint_eq(dltest_count(res, "s", 1), 4);
	for (i = 1; i <= 4; i++)
		ck_assert(dltest_query_i(res, "s", (int64_t)i));
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	dltest_prog_close(&p);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("eval");
	int nseeds = (int)(sizeof random_seeds / sizeof *random_seeds);

	tcase_add_test(tc, test_eval_closure_of_chain_matches_bfs);
	tcase_add_test(tc, test_eval_closure_of_cycle_is_complete);
	tcase_add_loop_test(
	    tc, test_eval_closure_of_random_graph_matches_floyd_warshall, 0,
	    nseeds);
	tcase_add_loop_test(
	    tc, test_eval_nonlinear_closure_matches_floyd_warshall, 0, nseeds);
	tcase_add_test(tc, test_eval_same_generation_on_tree_matches_depths);
	tcase_add_test(tc, test_eval_mutual_recursion_even_odd);
	tcase_add_loop_test(
	    tc, test_eval_stratified_negation_over_several_strata, 0, 4);
	tcase_add_test(tc, test_eval_repeated_variables_join_columns);
	tcase_add_test(tc, test_eval_constants_in_bodies_and_heads);
	tcase_add_test(tc, test_eval_facts_in_idb_predicates_join_rules);
	tcase_add_test(tc, test_eval_input_relation_with_facts_and_rules);
	tcase_add_test(tc, test_eval_domain_idb_facts_and_policy_strata);
	tcase_add_test(tc, test_eval_session_reuse_gives_each_solve_its_answer);
	tcase_add_test(tc, test_eval_live_results_do_not_share_facts);
	tcase_add_test(tc, test_eval_duplicate_facts_count_once);
	tcase_add_test(tc, test_eval_zero_arity_predicates_hold_or_not);
	tcase_add_test(tc, test_eval_integer_and_symbol_columns_mix);
	tcase_add_test(tc, test_eval_boxed_integers_round_trip);
	tcase_add_test(tc,
		       test_eval_fully_bound_recursive_literal_sees_right_rows);
	suite_add_tcase(s, tc);
	return s;
}
