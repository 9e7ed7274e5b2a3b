/* SPDX-License-Identifier: MIT */
/*
 * Stratification: the predicate graph (head -> body predicate, marked when
 * negated) split into strongly connected components with Tarjan's algorithm
 * (iterative: a policy's graph can be deep).  Tarjan emits a component after
 * every component it depends on, which is the evaluation order.  A negated
 * edge inside a component is recursion through negation: refused, naming the
 * cycle.  Each component is a stratum; a stratum that depends on input facts
 * (EDB or .input predicates), directly or through a lower stratum, is
 * "runtime" and evaluated at every solve; the others once per session.
 * A rule that prunes a recursive relation (dl_rule.prunes) belongs to that
 * relation: its edges are the relation's, and it is listed in the
 * relation's stratum, apart from the rules that derive.
 */
#include "dl_program.h"

#include <stdio.h>
#include <string.h>

struct dl_edge {
	uint32_t to;
	bool negated;
	uint32_t rule, lit; /* where the edge comes from, for diagnostics */
	/* an atom of an aggregate's body (dl_agg.h): like a negated one, its
	 * relation must be complete, so in a lower stratum */
	const struct dl_cagg *agg;
};

struct dl_graph {
	uint32_t *first; /* npreds + 1 offsets into edges */
	struct dl_edge *edges;
	size_t nedges;
};

/* The atoms of a rule's aggregates' bodies: calls f for each. */
static void
dl_agg_atoms(const struct dl_rule *rule,
	     void (*f)(void *ctx, const struct dl_cagg *a,
		       const struct dl_clit *l),
	     void *ctx)
{
	uint32_t i, k;

	for (i = 0; i < rule->naggs; i++)
		for (k = 0; k < rule->aggs[i].nbody; k++)
			if (rule->aggs[i].body[k].kind == DL_LIT_ATOM)
				f(ctx, &rule->aggs[i], &rule->aggs[i].body[k]);
}

struct dl_agg_fill {
	struct dl_graph *g;
	uint32_t *fill;
	uint32_t head, rule;
	size_t count;
};

static void
dl_agg_count_atom(void *ctx, const struct dl_cagg *a, const struct dl_clit *l)
{
	(void)a;
	(void)l;
	((struct dl_agg_fill *)ctx)->count++;
}

static void
dl_agg_add_edge(void *ctx, const struct dl_cagg *a, const struct dl_clit *l)
{
	struct dl_agg_fill *c = ctx;
	struct dl_edge *e =
	    &c->g->edges[c->g->first[c->head] + c->fill[c->head]++];

	e->to = l->pred;
	e->negated = true;
	e->agg = a;
	e->rule = c->rule;
	e->lit = (uint32_t)(l - a->body);
}

static int
dl_graph_build(const struct dl_program *prog, struct dl_graph *g)
{
	size_t n = prog->npreds, r, i, total = 0;
	uint32_t *fill;

	g->first = dl_calloc(n + 1, sizeof *g->first);
	if (g->first == NULL)
		return -1;
	for (r = 0; r < prog->nrules; r++) {
		const struct dl_rule *rule = &prog->rules[r];

		struct dl_agg_fill c = {g, NULL, 0, 0, 0};

		for (i = 0; i < rule->nbody; i++)
			if (rule->body[i].kind == DL_LIT_ATOM) {
				g->first[dl_rule_owner(rule) + 1]++;
				total++;
			}
		dl_agg_atoms(rule, dl_agg_count_atom, &c);
		g->first[dl_rule_owner(rule) + 1] += (uint32_t)c.count;
		total += c.count;
	}
	for (i = 0; i < n; i++)
		g->first[i + 1] += g->first[i];
	g->edges = dl_calloc(total, sizeof *g->edges);
	fill = dl_calloc(n, sizeof *fill);
	if (g->edges == NULL || fill == NULL) {
		dl_free(fill);
		return -1;
	}
	g->nedges = total;
	for (r = 0; r < prog->nrules; r++) {
		const struct dl_rule *rule = &prog->rules[r];

		for (i = 0; i < rule->nbody; i++) {
			const struct dl_clit *l = &rule->body[i];
			struct dl_edge *e;

			if (l->kind != DL_LIT_ATOM)
				continue;
			e = &g->edges[g->first[dl_rule_owner(rule)] +
				      fill[dl_rule_owner(rule)]++];
			e->to = l->pred;
			e->negated = l->negated;
			e->rule = (uint32_t)r;
			e->lit = (uint32_t)i;
		}
		{
			struct dl_agg_fill c = {g, fill, dl_rule_owner(rule),
						(uint32_t)r, 0};

			dl_agg_atoms(rule, dl_agg_add_edge, &c);
		}
	}
	dl_free(fill);
	return 0;
}

static void
dl_graph_free(struct dl_graph *g)
{
	dl_free(g->first);
	dl_free(g->edges);
}

/* Tarjan's SCC, iterative.  scc[v] = component number; components are
 * numbered in emission order (dependencies first).  Returns the count, or
 * -1 on no memory. */
static long
dl_tarjan(const struct dl_graph *g, size_t n, uint32_t *scc)
{
	uint32_t *index = dl_alloc((n + 1) * sizeof *index);
	uint32_t *low = dl_alloc((n + 1) * sizeof *low);
	uint32_t *stack = dl_alloc((n + 1) * sizeof *stack);
	uint32_t *call = dl_alloc((n + 1) * sizeof *call); /* node */
	uint32_t *iter = dl_alloc((n + 1) * sizeof *iter); /* next edge */
	bool *on = dl_calloc(n + 1, sizeof *on);
	uint32_t next_index = 0, sp = 0, cp, ncomp = 0;
	size_t v0;
	long result = -1;

	if (index == NULL || low == NULL || stack == NULL || call == NULL ||
	    iter == NULL || on == NULL)
		goto out;
	for (v0 = 0; v0 < n; v0++)
		index[v0] = DL_NONE;
	for (v0 = 0; v0 < n; v0++) {
		if (index[v0] != DL_NONE)
			continue;
		cp = 0;
		call[cp] = (uint32_t)v0;
		iter[cp] = g->first[v0];
		cp++;
		index[v0] = low[v0] = next_index++;
		stack[sp++] = (uint32_t)v0;
		on[v0] = true;
		while (cp > 0) {
			uint32_t v = call[cp - 1];

			if (iter[cp - 1] < g->first[v + 1]) {
				uint32_t w = g->edges[iter[cp - 1]++].to;

				if (index[w] == DL_NONE) {
					index[w] = low[w] = next_index++;
					stack[sp++] = w;
					on[w] = true;
					call[cp] = w;
					iter[cp] = g->first[w];
					cp++;
				} else if (on[w] && index[w] < low[v]) {
					low[v] = index[w];
				}
				continue;
			}
			/* v is finished */
			if (low[v] == index[v]) {
				uint32_t w;

				do {
					w = stack[--sp];
					on[w] = false;
					scc[w] = ncomp;
				} while (w != v);
				ncomp++;
			}
			cp--;
			if (cp > 0) {
				uint32_t u = call[cp - 1];

				if (low[v] < low[u])
					low[u] = low[v];
			}
		}
	}
	result = (long)ncomp;
out:
	dl_free(index);
	dl_free(low);
	dl_free(stack);
	dl_free(call);
	dl_free(iter);
	dl_free(on);
	return result;
}

/* "a -> not b -> c -> a": the shortest way from `from` back to `to` inside
 * their component, after the negated edge to -> from. */
static void
dl_name_cycle(const struct dl_program *prog, const struct dl_graph *g,
	      const uint32_t *scc, uint32_t to, uint32_t from, char *buf,
	      size_t len)
{
	size_t n = prog->npreds, head = 0, tail = 0, off;
	uint32_t *parent = dl_alloc(n * sizeof *parent);
	uint32_t *queue = dl_alloc(n * sizeof *queue);
	uint32_t path[64], npath = 0, v;
	int w;

	w = snprintf(buf, len, "%s -> not %s", prog->preds[to].name,
		     prog->preds[from].name);
	off = w < 0 ? 0 : (size_t)w;
	if (parent == NULL || queue == NULL)
		goto out;
	for (v = 0; v < n; v++)
		parent[v] = DL_NONE;
	parent[from] = from;
	queue[tail++] = from;
	while (head < tail && parent[to] == DL_NONE) {
		uint32_t u = queue[head++], e;

		for (e = g->first[u]; e < g->first[u + 1]; e++) {
			uint32_t x = g->edges[e].to;

			if (scc[x] != scc[from] || parent[x] != DL_NONE)
				continue;
			parent[x] = u;
			queue[tail++] = x;
		}
	}
	if (parent[to] == DL_NONE)
		goto out;
	for (v = to; v != from && npath < 64; v = parent[v])
		path[npath++] = v;
	while (npath > 0 && off < len) {
		v = path[--npath];
		w = snprintf(buf + off, len - off, " -> %s",
			     prog->preds[v].name);
		if (w < 0)
			break;
		off += (size_t)w;
	}
out:
	dl_free(parent);
	dl_free(queue);
}

/*
 * What a subsumption of a recursive relation may read, now that the
 * recursion is known (and inlined relations unfolded): besides the two
 * tuples compared, no atom of the relation itself nor of another relation
 * pruned in the same recursion - Souffle orders those readings in ways of
 * its own, so they are refused rather than answered differently.
 */
static maelys_datalog_status_t
dl_check_prunes(const struct dl_program *prog, const uint32_t *scc,
		maelys_datalog_diagnostic_t *diag)
{
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_OK;
	bool *pruned = dl_calloc(prog->npreds, sizeof *pruned);
	size_t r, i;

	if (pruned == NULL)
		return dl_fail(diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
			       "out of memory while stratifying the policy");
	for (r = 0; r < prog->nrules; r++)
		if (prog->rules[r].prunes)
			pruned[dl_rule_owner(&prog->rules[r])] = true;
	for (r = 0; r < prog->nrules && st == MAELYS_DATALOG_STATUS_OK; r++) {
		const struct dl_rule *rule = &prog->rules[r];
		uint32_t own = dl_rule_owner(rule);

		if (!rule->prunes)
			continue;
		for (i = 2; i < rule->nbody; i++) {
			const struct dl_clit *l = &rule->body[i];

			if (l->kind != DL_LIT_ATOM || !pruned[l->pred] ||
			    scc[l->pred] != scc[own])
				continue;
			st = dl_fail_at(
			    diag, MAELYS_DATALOG_STATUS_PARSE,
			    prog->source_name, l->pos,
			    "subsumption of '%s', a recursive relation, "
			    "whose body reads '%s', %s of its recursion, is "
			    "not supported",
			    prog->preds[own].name, prog->preds[l->pred].name,
			    l->pred == own ? "the relation itself, part"
					   : "a subsumed relation");
			break;
		}
	}
	dl_free(pruned);
	return st;
}

maelys_datalog_status_t
dl_stratify(struct dl_program *prog, maelys_datalog_diagnostic_t *diag)
{
	struct dl_graph g = {NULL, NULL, 0};
	uint32_t *scc = NULL, *npreds = NULL, *nrules = NULL, *nprunes = NULL;
	size_t i, r, k;
	long ncomp;
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_NO_MEMORY;

	scc = dl_calloc(prog->npreds + 1, sizeof *scc);
	if (scc == NULL || dl_graph_build(prog, &g) != 0)
		goto nomem;
	ncomp = dl_tarjan(&g, prog->npreds, scc);
	if (ncomp < 0)
		goto nomem;
	for (r = 0; r < prog->nrules; r++) {
		const struct dl_rule *rule = &prog->rules[r];

		for (i = 0; i < rule->nbody; i++) {
			const struct dl_clit *l = &rule->body[i];
			char cycle[400];

			if (l->kind != DL_LIT_ATOM || !l->negated ||
			    scc[l->pred] != scc[dl_rule_owner(rule)])
				continue;
			dl_name_cycle(prog, &g, scc, dl_rule_owner(rule),
				      l->pred, cycle, sizeof cycle);
			st = dl_fail_at(
			    diag, MAELYS_DATALOG_STATUS_NEGATION_CYCLE,
			    prog->source_name, l->pos,
			    "recursion through negation: %s", cycle);
			goto out;
		}
	}
	for (i = 0; i < g.nedges; i++) {
		const struct dl_edge *e = &g.edges[i];
		uint32_t from = dl_rule_owner(&prog->rules[e->rule]);
		char cycle[400];
		size_t skip;

		if (e->agg == NULL || scc[e->to] != scc[from])
			continue;
		dl_name_cycle(prog, &g, scc, from, e->to, cycle, sizeof cycle);
		/* the cycle reads "head -> not p -> ...": the edge is the
		 * aggregate's, named as such */
		skip = strlen(prog->preds[from].name) + strlen(" -> not ") +
		       strlen(prog->preds[e->to].name);
		st = dl_fail_at(diag, MAELYS_DATALOG_STATUS_NEGATION_CYCLE,
				prog->source_name, e->agg->body[e->lit].pos,
				"recursion through an aggregate: %s -> %s %s%s",
				prog->preds[from].name, dl_agg_name(e->agg->op),
				prog->preds[e->to].name,
				skip < strlen(cycle) ? cycle + skip : "");
		goto out;
	}
	if ((st = dl_check_prunes(prog, scc, diag)) != MAELYS_DATALOG_STATUS_OK)
		goto out;
	prog->strata = dl_calloc((size_t)ncomp + 1, sizeof *prog->strata);
	npreds = dl_calloc((size_t)ncomp + 1, sizeof *npreds);
	nrules = dl_calloc((size_t)ncomp + 1, sizeof *nrules);
	nprunes = dl_calloc((size_t)ncomp + 1, sizeof *nprunes);
	if (prog->strata == NULL || npreds == NULL || nrules == NULL ||
	    nprunes == NULL)
		goto nomem;
	prog->nstrata = (size_t)ncomp;
	for (i = 0; i < prog->npreds; i++) {
		prog->preds[i].stratum = scc[i];
		npreds[scc[i]]++;
	}
	for (r = 0; r < prog->nrules; r++) {
		const struct dl_rule *rule = &prog->rules[r];

		if (rule->prunes)
			nprunes[scc[dl_rule_owner(rule)]]++;
		else
			nrules[scc[rule->head_pred]]++;
	}
	for (k = 0; k < prog->nstrata; k++) {
		struct dl_stratum *s = &prog->strata[k];

		s->preds = dl_calloc(npreds[k], sizeof *s->preds);
		s->rules = dl_calloc(nrules[k], sizeof *s->rules);
		s->prunes = dl_calloc(nprunes[k], sizeof *s->prunes);
		if (s->preds == NULL || s->rules == NULL || s->prunes == NULL)
			goto nomem;
		s->recursive = npreds[k] > 1;
	}
	for (i = 0; i < prog->npreds; i++) {
		struct dl_stratum *s = &prog->strata[scc[i]];

		s->preds[s->npreds++] = (uint32_t)i;
		if ((prog->preds[i].role &
		     (MAELYS_DATALOG_PREDICATE_EDB | DL_ROLE_INPUT)) != 0)
			s->runtime = true;
	}
	for (r = 0; r < prog->nrules; r++) {
		struct dl_rule *rule = &prog->rules[r];
		struct dl_stratum *s = &prog->strata[scc[dl_rule_owner(rule)]];

		if (rule->prunes) {
			/* semi-naive plans (plan.c); and the stratum is
			 * evaluated as a recursion, whose iterations
			 * prune, whatever its other rules */
			s->prunes[s->nprunes++] = (uint32_t)r;
			rule->recursive = true;
			s->recursive = true;
			continue;
		}
		s->rules[s->nrules++] = (uint32_t)r;
		for (i = 0; i < rule->nbody; i++) {
			const struct dl_clit *l = &rule->body[i];

			if (l->kind == DL_LIT_ATOM && !l->negated &&
			    scc[l->pred] == scc[rule->head_pred]) {
				rule->recursive = true;
				s->recursive = true;
			}
		}
	}
	/* strata come dependencies first, so one pass settles "runtime" */
	for (k = 0; k < prog->nstrata; k++) {
		struct dl_stratum *s = &prog->strata[k];

		for (r = 0; r < s->nrules + s->nprunes && !s->runtime; r++) {
			uint32_t ri = r < s->nrules ? s->rules[r]
						    : s->prunes[r - s->nrules];
			const struct dl_rule *rule = &prog->rules[ri];

			/* a rule with record terms may build records, which
			 * only a solve's overlay can hold (dl_record.h); a
			 * standalone program solves once: evaluated with the
			 * solve, an arithmetic or aggregate result of any
			 * size (a float's bits, a large unsigned) has the
			 * solve's overlay to be held in */
			if (rule->nrecs > 0 || rule->solve_time ||
			    (prog->standalone &&
			     (rule->nexprs > 0 || rule->naggs > 0)))
				s->runtime = true;

			for (i = 0; i < rule->nbody; i++) {
				const struct dl_clit *l = &rule->body[i];

				if (l->kind == DL_LIT_ATOM &&
				    prog->strata[scc[l->pred]].runtime)
					s->runtime = true;
			}
			/* and an aggregate over input facts */
			for (i = 0; i < g.nedges; i++)
				if (g.edges[i].rule == ri &&
				    g.edges[i].agg != NULL &&
				    prog->strata[scc[g.edges[i].to]].runtime)
					s->runtime = true;
		}
		for (i = 0; i < s->npreds; i++)
			prog->preds[s->preds[i]].runtime = s->runtime;
	}
	/* a$dom is written while its relation's stratum runs: at every
	 * solve, into the solve's own relations, when that one is runtime
	 * (its own stratum has no rule: it costs nothing there) */
	for (r = 0; r < prog->nrules; r++) {
		const struct dl_rule *rule = &prog->rules[r];
		struct dl_stratum *s = &prog->strata[scc[rule->head_pred]];

		if (!rule->prunes || !prog->preds[dl_rule_owner(rule)].runtime)
			continue;
		s->runtime = true;
		for (i = 0; i < s->npreds; i++)
			prog->preds[s->preds[i]].runtime = true;
	}
	st = MAELYS_DATALOG_STATUS_OK;
	goto out;
nomem:
	st = dl_fail(diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
		     "out of memory while stratifying the policy");
out:
	dl_free(npreds);
	dl_free(nrules);
	dl_free(nprunes);
	dl_free(scc);
	dl_graph_free(&g);
	return st;
}
