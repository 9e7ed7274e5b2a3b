/* SPDX-License-Identifier: MIT */
/*
 * The printing of --explain (explain.h).  A derived tuple is printed with the
 * rule that first derived it (source:line and the rule as written) and then
 * its premises, indented: input facts and facts of the policy say so, a
 * negated literal shows the tuple that does not hold, a built-in its values.
 * Each derived tuple is numbered when its subtree is printed; a second
 * occurrence refers to that number instead of printing it again, so the
 * output is linear in the distinct tuples of the tree, and --explain-depth
 * bounds how far down it goes.
 */
#include "explain.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ST_OK MAELYS_DATALOG_STATUS_OK

/* Tuples whose subtree was printed, and their numbers: open addressing on
 * (relation, row). */
struct seen {
	uint64_t *keys; /* (relation << 32 | row) + 1; 0 = empty */
	unsigned *ids;
	size_t nslots, used;
	unsigned next_id;
};

struct explainer {
	FILE *out;
	const maelys_datalog_policy_t *policy;
	const maelys_datalog_result_t *res;
	unsigned max_depth;
	struct seen seen;
};

static size_t
seen_slot(const struct seen *s, uint64_t key)
{
	size_t mask = s->nslots - 1, i = (size_t)(key * UINT64_C(0x9e3779b97f4a7c15) >> 20) & mask;

	while (s->keys[i] != 0 && s->keys[i] != key)
		i = (i + 1) & mask;
	return i;
}

/* The number of a printed tuple, or 0. */
static unsigned
seen_get(const struct seen *s, maelys_datalog_tuple_t t)
{
	uint64_t key = ((uint64_t)t.relation << 32 | t.row) + 1;
	size_t i;

	if (s->nslots == 0)
		return 0;
	i = seen_slot(s, key);
	return s->keys[i] == key ? s->ids[i] : 0;
}

/* Numbers a tuple; 0 when out of memory. */
static unsigned
seen_add(struct seen *s, maelys_datalog_tuple_t t)
{
	uint64_t key = ((uint64_t)t.relation << 32 | t.row) + 1;
	size_t i;

	if (s->used + 1 > s->nslots / 2) {
		struct seen g = {NULL, NULL, s->nslots ? s->nslots * 2 : 64,
				 0, s->next_id};

		g.keys = calloc(g.nslots, sizeof *g.keys);
		g.ids = calloc(g.nslots, sizeof *g.ids);
		if (g.keys == NULL || g.ids == NULL) {
			free(g.keys);
			free(g.ids);
			return 0;
		}
		for (i = 0; i < s->nslots; i++) {
			size_t j;

			if (s->keys[i] == 0)
				continue;
			j = seen_slot(&g, s->keys[i]);
			g.keys[j] = s->keys[i];
			g.ids[j] = s->ids[i];
			g.used++;
		}
		free(s->keys);
		free(s->ids);
		*s = g;
	}
	i = seen_slot(s, key);
	s->keys[i] = key;
	s->ids[i] = ++s->next_id;
	s->used++;
	return s->ids[i];
}

static void
indent(FILE *out, unsigned depth)
{
	unsigned i;

	for (i = 0; i < depth; i++)
		fputs("  ", out);
}

/* A string as the dialect writes it; bytes it cannot write are \xNN, so
 * that nothing reaches the terminal raw. */
static void
print_string(FILE *out, const char *s, size_t len)
{
	size_t i;

	fputc('"', out);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void
print_term(const struct explainer *e, const maelys_datalog_term_t *t)
{
	const char *text = NULL;
	size_t len = 0;

	if (t->kind == MAELYS_DATALOG_TERM_INTEGER) {
		fprintf(e->out, "%lld", (long long)t->as.integer);
		return;
	}
	if (t->kind != MAELYS_DATALOG_TERM_SYMBOL) {
		fputc('_', e->out); /* a column a negated literal leaves open */
		return;
	}
	if (maelys_datalog_result_symbol_text(e->res, t->as.symbol_id, &text,
					      &len) != ST_OK)
		fputs("?", e->out);
	else
		print_string(e->out, text, len);
}

static void
print_terms(const struct explainer *e, const maelys_datalog_fact_view_t *v,
	    size_t from)
{
	size_t k;

	for (k = from; k < v->arity; k++) {
		if (k > from)
			fputs(", ", e->out);
		print_term(e, &v->terms[k]);
	}
}

static void
print_atom(const struct explainer *e, const char *pred,
	   const maelys_datalog_fact_view_t *v)
{
	fputs(pred, e->out);
	if (v->arity == 0)
		return;
	fputc('(', e->out);
	print_terms(e, v, 0);
	fputc(')', e->out);
}

static void
print_rule_line(const struct explainer *e, unsigned depth, size_t rule,
		const char *prefix)
{
	maelys_datalog_rule_info_t ri;

	indent(e->out, depth);
	if (maelys_datalog_policy_get_rule(e->policy, rule, &ri) != ST_OK) {
		fprintf(e->out, "%srule %zu\n", prefix, rule);
		return;
	}
	fprintf(e->out, "%s%s:%zu: %s\n", prefix, ri.source, ri.line, ri.text);
}

static maelys_datalog_status_t print_tuple(struct explainer *e,
					   maelys_datalog_tuple_t t,
					   unsigned depth);

static maelys_datalog_status_t
print_premise(struct explainer *e, maelys_datalog_tuple_t t, size_t rule,
	      size_t lit, unsigned depth)
{
	maelys_datalog_literal_info_t li;
	maelys_datalog_premise_t p;
	maelys_datalog_status_t st;

	if ((st = maelys_datalog_result_premise(e->res, t, lit, &p)) != ST_OK)
		return st;
	if (p.kind == MAELYS_DATALOG_LITERAL_ATOM)
		return print_tuple(e, p.tuple, depth);
	indent(e->out, depth);
	if (p.kind == MAELYS_DATALOG_LITERAL_NEGATED) {
		fputs("not ", e->out);
		print_atom(e, p.predicate, &p.terms);
		fputs("  (no such tuple)\n", e->out);
		return ST_OK;
	}
	if (maelys_datalog_policy_get_literal(e->policy, rule, lit, &li) ==
	    ST_OK)
		fputs(li.text, e->out);
	else
		fprintf(e->out, "literal %zu", lit);
	fputs("  (with ", e->out);
	print_terms(e, &p.terms, 0);
	fputs(": holds)\n", e->out);
	return ST_OK;
}

static maelys_datalog_status_t
print_tuple(struct explainer *e, maelys_datalog_tuple_t t, unsigned depth)
{
	maelys_datalog_fact_view_t v;
	maelys_datalog_derivation_t d;
	maelys_datalog_status_t st;
	const char *pred = NULL;
	unsigned id;
	size_t i;

	if ((st = maelys_datalog_result_tuple(e->res, t, &pred, &v)) != ST_OK ||
	    (st = maelys_datalog_result_derivation(e->res, t, &d)) != ST_OK)
		return st;
	indent(e->out, depth);
	print_atom(e, pred, &v);
	switch (d.origin) {
	case MAELYS_DATALOG_ORIGIN_INPUT:
		fputs("  (input fact)\n", e->out);
		return ST_OK;
	case MAELYS_DATALOG_ORIGIN_POLICY:
		fputs("  (fact of the program)\n", e->out);
		return ST_OK;
	case MAELYS_DATALOG_ORIGIN_UNKNOWN:
		fputs("  (not recorded)\n", e->out);
		return ST_OK;
	case MAELYS_DATALOG_ORIGIN_RULE:
		break;
	}
	if ((id = seen_get(&e->seen, t)) != 0) {
		fprintf(e->out, "  (see [%u] above)\n", id);
		return ST_OK;
	}
	if (depth >= e->max_depth) {
		fprintf(e->out, "  (derived; deeper than --explain-depth %u)\n",
			e->max_depth);
		return ST_OK;
	}
	if ((id = seen_add(&e->seen, t)) == 0)
		return MAELYS_DATALOG_STATUS_NO_MEMORY;
	fprintf(e->out, "  [%u]\n", id);
	print_rule_line(e, depth + 1, d.rule, "by ");
	for (i = 0; i < d.premise_count; i++)
		if ((st = print_premise(e, t, d.rule, i, depth + 1)) != ST_OK)
			return st;
	return ST_OK;
}

/* Each rule whose head could be the tuple, and the literal it fails at. */
static maelys_datalog_status_t
print_why_not(struct explainer *e, const struct explain_tuple *t)
{
	size_t nrules = maelys_datalog_policy_rule_count(e->policy), r, n = 0;
	maelys_datalog_status_t st;

	for (r = 0; r < nrules; r++) {
		maelys_datalog_literal_info_t li;
		maelys_datalog_rule_info_t ri;
		int head = 0;
		size_t lit = 0;

		if ((st = maelys_datalog_result_why_not(e->res, r, t->name,
							t->args, t->arity,
							&head, &lit)) != ST_OK)
			return st;
		if (!head)
			continue;
		n++;
		print_rule_line(e, 1, r, "rule ");
		indent(e->out, 2);
		if (maelys_datalog_policy_get_rule(e->policy, r, &ri) ==
			ST_OK &&
		    lit >= ri.body_count)
			fputs("its body holds\n", e->out);
		else if (maelys_datalog_policy_get_literal(e->policy, r, lit,
							   &li) == ST_OK)
			fprintf(e->out, "fails at literal %zu: %s\n", lit + 1,
				li.text);
		else
			fprintf(e->out, "fails at literal %zu\n", lit + 1);
	}
	if (n == 0) {
		indent(e->out, 1);
		fputs("no rule's head can be this tuple\n", e->out);
	}
	return ST_OK;
}

maelys_datalog_status_t
explain_print(FILE *out, const maelys_datalog_policy_t *policy,
	      const maelys_datalog_result_t *res,
	      const struct explain_tuple *t, unsigned max_depth)
{
	struct explainer e;
	maelys_datalog_tuple_t handle;
	maelys_datalog_status_t st;
	int found = 0;
	size_t k;

	memset(&e, 0, sizeof e);
	e.out = out;
	e.policy = policy;
	e.res = res;
	e.max_depth = max_depth;
	if ((st = maelys_datalog_result_find(res, t->name, t->args, t->arity,
					     &handle, &found)) != ST_OK)
		return st;
	if (found) {
		st = print_tuple(&e, handle, 0);
		free(e.seen.keys);
		free(e.seen.ids);
		return st;
	}
	fputs(t->name, out);
	if (t->arity > 0) {
		fputc('(', out);
		for (k = 0; k < t->arity; k++) {
			const maelys_datalog_arg_t *a = &t->args[k];

			if (k > 0)
				fputs(", ", out);
			if (a->kind == MAELYS_DATALOG_TERM_INTEGER)
				fprintf(out, "%lld", (long long)a->as.integer);
			else
				print_string(out, a->as.symbol.text,
					     a->as.symbol.length);
		}
		fputc(')', out);
	}
	fputs("  (does not hold)\n", out);
	return print_why_not(&e, t);
}
