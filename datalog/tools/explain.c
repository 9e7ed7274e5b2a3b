/* SPDX-License-Identifier: MIT */
/*
 * The printing of --explain (explain.h).  A derived tuple is printed with the
 * rule that first derived it (source:line and the rule as written) and then
 * its premises, indented: input facts and facts of the policy say so, a
 * negated literal shows the tuple that does not hold, a built-in its values.
 * Each derived tuple is numbered when its subtree is printed; a second
 * occurrence refers to that number instead of printing it again, so the
 * output is linear in the distinct tuples of the tree, and --explain-depth
 * bounds how far down it goes.  The walk itself is the library's
 * (maelys_datalog_walk); this file only words its nodes.
 */
#include "explain.h"

#include <stdint.h>
#include <string.h>

#define ST_OK MAELYS_DATALOG_STATUS_OK

struct explainer {
	FILE *out;
	const maelys_datalog_policy_t *policy;
	const maelys_datalog_result_t *res;
	unsigned max_depth;
	const struct source *src; /* maps a line of the text to its file */
};

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
					      &len) == ST_OK) {
		print_string(e->out, text, len);
		return;
	}
	{
		/* a record or ADT value: as Souffle prints it (a longer one
		 * is cut, and says so) */
		char rec[1024];
		maelys_datalog_status_t st = maelys_datalog_result_record_text(
		    e->res, t->as.symbol_id, rec, sizeof rec, &len);
		size_t i;

		if (st != ST_OK && len < sizeof rec) {
			fputs("?", e->out);
			return;
		}
		/* its symbols come from data: no control byte goes out */
		for (i = 0; rec[i] != '\0'; i++) {
			unsigned char c = (unsigned char)rec[i];

			fputc(c < 0x20 || c == 0x7f ? '?' : c, e->out);
		}
		if (st != ST_OK)
			fputs("...", e->out);
	}
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
	if (e->src != NULL) {
		char at[4352], mapped[4352];

		(void)snprintf(at, sizeof at, "%s:%zu:", ri.source, ri.line);
		source_map_message(e->src, ri.source, at, mapped,
				   sizeof mapped);
		fprintf(e->out, "%s%s %s\n", prefix, mapped, ri.text);
		return;
	}
	fprintf(e->out, "%s%s:%zu: %s\n", prefix, ri.source, ri.line, ri.text);
}

/* One node of the walk (maelys_datalog_walk), worded as the runner does. */
static int
print_node(const maelys_datalog_walk_node_t *n, void *ctx)
{
	const struct explainer *e = ctx;
	maelys_datalog_literal_info_t li;

	indent(e->out, (unsigned)n->depth);
	switch (n->kind) {
	case MAELYS_DATALOG_WALK_NEGATED:
		fputs("not ", e->out);
		print_atom(e, n->predicate, &n->terms);
		fputs("  (no such tuple)\n", e->out);
		return 0;
	case MAELYS_DATALOG_WALK_BUILTIN:
		if (maelys_datalog_policy_get_literal(e->policy, n->rule,
						      n->literal, &li) == ST_OK)
			fputs(li.text, e->out);
		else
			fprintf(e->out, "literal %zu", n->literal);
		fputs("  (with ", e->out);
		print_terms(e, &n->terms, 0);
		fputs(": holds)\n", e->out);
		return 0;
	default:
		break;
	}
	print_atom(e, n->predicate, &n->terms);
	switch (n->kind) {
	case MAELYS_DATALOG_WALK_INPUT:
		fputs("  (input fact)\n", e->out);
		break;
	case MAELYS_DATALOG_WALK_POLICY:
		fputs("  (fact of the program)\n", e->out);
		break;
	case MAELYS_DATALOG_WALK_SHOWN:
		fprintf(e->out, "  (see [%zu] above)\n", n->number);
		break;
	case MAELYS_DATALOG_WALK_DEEPER:
		fprintf(e->out, "  (derived; deeper than --explain-depth %u)\n",
			e->max_depth);
		break;
	case MAELYS_DATALOG_WALK_RULE:
		fprintf(e->out, "  [%zu]\n", n->number);
		print_rule_line(e, (unsigned)n->depth + 1, n->rule, "by ");
		break;
	default:
		fputs("  (not recorded)\n", e->out);
		break;
	}
	return 0;
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
	      const maelys_datalog_result_t *res, const struct explain_tuple *t,
	      unsigned max_depth, const struct source *src)
{
	struct explainer e;
	maelys_datalog_tuple_t handle;
	maelys_datalog_status_t st;
	int found = 0;
	size_t k;

	memset(&e, 0, sizeof e);
	e.out = out;
	e.policy = policy;
	e.src = src;
	e.res = res;
	e.max_depth = max_depth;
	if ((st = maelys_datalog_result_find(res, t->name, t->args, t->arity,
					     &handle, &found)) != ST_OK)
		return st;
	if (found) {
		maelys_datalog_walk_t *walk = NULL;

		/* every tuple of the tree may be numbered: the result bounds
		 * them */
		if ((st = maelys_datalog_walk_create(res, SIZE_MAX, &walk)) !=
		    ST_OK)
			return st;
		st = maelys_datalog_walk(walk, handle, max_depth, print_node,
					 &e);
		(void)maelys_datalog_walk_free(walk);
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
