/* SPDX-License-Identifier: MIT */
/*
 * The trees of `maelys-pty explain`, read from the provenance of the very
 * result the verdict came from: for a tuple that holds, the rule that
 * first derived it and what each body literal matched, down to the input
 * facts and the policy's facts; for a tuple that does not, each rule that
 * could have derived it and the first body literal that failed
 * (maelys_datalog_result_why_not).  Nothing here decides: the engine
 * answers, this file prints.  Bounded: --depth levels, EXPLAIN_LINES_MAX
 * lines, a derived tuple's tree once.
 */
#include "pty_explain.h"
#include "pty_messages.h"

#include <maelys/datalog_builders.h>

#include <stdlib.h>
#include <string.h>

/* How many candidate values of a head column a why-not tries, and how
 * many tuples of a failed `not p(...)` it shows. */
#define EXPLAIN_CANDIDATES_MAX 8
#define EXPLAIN_HOLDING_MAX    4
#define EXPLAIN_PAGE           64

/* Room for one tuple's text. */
#define EXPLAIN_TEXT_MAX 2048

/* Appends a value as the policy writes it: "text" (escaped, control
 * characters as '?') or an integer. */
static void
tree_append_value(char *buf, size_t cap, size_t *at, const char *text,
		  size_t len, bool is_int, int64_t integer)
{
	size_t i;

	if (*at >= cap - 1)
		return;
	if (is_int) {
		int n =
		    snprintf(buf + *at, cap - *at, "%lld", (long long)integer);

		*at = n < 0                    ? *at
		      : *at + (size_t)n >= cap ? cap - 1
					       : *at + (size_t)n;
		return;
	}
	buf[(*at)++] = '"';
	for (i = 0; i < len && *at < cap - 3; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '"' || c == '\\')
			buf[(*at)++] = '\\';
		buf[(*at)++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	if (i < len && *at < cap - 4) {
		memcpy(buf + *at, "...", 3);
		*at += 3;
	}
	if (*at < cap - 1)
		buf[(*at)++] = '"';
	buf[*at] = '\0';
}

static void
tree_append(char *buf, size_t cap, size_t *at, const char *s)
{
	size_t n = strlen(s);

	if (*at >= cap - 1)
		return;
	if (n > cap - 1 - *at)
		n = cap - 1 - *at;
	memcpy(buf + *at, s, n);
	*at += n;
	buf[*at] = '\0';
}

/* One term of a result as text; kind 0 (a column left anonymous) is _. */
static void
tree_append_term(const maelys_datalog_result_t *res,
		 const maelys_datalog_term_t *term, char *buf, size_t cap,
		 size_t *at)
{
	const char *text;
	size_t len;

	if (term->kind == MAELYS_DATALOG_TERM_INTEGER)
		tree_append_value(buf, cap, at, NULL, 0, true,
				  term->as.integer);
	else if (term->kind == MAELYS_DATALOG_TERM_SYMBOL &&
		 maelys_datalog_result_symbol_text(res, term->as.symbol_id,
						   &text, &len) ==
		     MAELYS_DATALOG_STATUS_OK)
		tree_append_value(buf, cap, at, text, len, false, 0);
	else
		tree_append(buf, cap, at, "_");
}

/* pred(t1, t2) of a fact view. */
static void
tree_view_text(const maelys_datalog_result_t *res, const char *pred,
	       const maelys_datalog_fact_view_t *v, char *buf, size_t cap)
{
	size_t at = 0, i;

	buf[0] = '\0';
	tree_append(buf, cap, &at, pred);
	if (v->arity == 0)
		return;
	tree_append(buf, cap, &at, "(");
	for (i = 0; i < v->arity; i++) {
		if (i > 0)
			tree_append(buf, cap, &at, ", ");
		tree_append_term(res, &v->terms[i], buf, cap, &at);
	}
	tree_append(buf, cap, &at, ")");
}

/* pred(a1, a2) of query arguments; kind 0 is _. */
static void
tree_args_text(const char *pred, const maelys_datalog_arg_t *args, size_t n,
	       char *buf, size_t cap)
{
	size_t at = 0, i;

	buf[0] = '\0';
	tree_append(buf, cap, &at, pred);
	if (n == 0)
		return;
	tree_append(buf, cap, &at, "(");
	for (i = 0; i < n; i++) {
		if (i > 0)
			tree_append(buf, cap, &at, ", ");
		if (args[i].kind == MAELYS_DATALOG_TERM_SYMBOL)
			tree_append_value(buf, cap, &at, args[i].as.symbol.text,
					  args[i].as.symbol.length, false, 0);
		else if (args[i].kind == MAELYS_DATALOG_TERM_INTEGER)
			tree_append_value(buf, cap, &at, NULL, 0, true,
					  args[i].as.integer);
		else
			tree_append(buf, cap, &at, "_");
	}
	tree_append(buf, cap, &at, ")");
}

/* The query argument of a result's term (its text lives as the result). */
static maelys_datalog_arg_t
tree_arg_of(const maelys_datalog_result_t *res,
	    const maelys_datalog_term_t *term)
{
	maelys_datalog_arg_t a;
	const char *text;
	size_t len;

	memset(&a, 0, sizeof a);
	if (term->kind == MAELYS_DATALOG_TERM_INTEGER)
		a = maelys_datalog_arg_integer(term->as.integer);
	else if (term->kind == MAELYS_DATALOG_TERM_SYMBOL &&
		 maelys_datalog_result_symbol_text(res, term->as.symbol_id,
						   &text, &len) ==
		     MAELYS_DATALOG_STATUS_OK)
		a = maelys_datalog_arg_symbol_n(text, len);
	return a;
}

static bool
tree_arg_equal(const maelys_datalog_arg_t *a, const maelys_datalog_arg_t *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == MAELYS_DATALOG_TERM_INTEGER)
		return a->as.integer == b->as.integer;
	return a->as.symbol.length == b->as.symbol.length &&
	       memcmp(a->as.symbol.text, b->as.symbol.text,
		      a->as.symbol.length) == 0;
}

/* Whether one more line may be printed (and counts it). */
static bool
tree_line(struct explain_tree *t)
{
	if (t->lines >= EXPLAIN_LINES_MAX) {
		t->cut = true;
		return false;
	}
	t->lines++;
	return true;
}

/* A walk's place on the page: the indent of its root. */
struct tree_walk {
	struct explain_tree *t;
	int indent;
};

/* One node of a derivation walk (maelys_datalog_walk), as explain words
 * it; ends the walk when the line bound is reached. */
static int
tree_visit(const maelys_datalog_walk_node_t *n, void *ctx)
{
	const struct tree_walk *w = ctx;
	struct explain_tree *t = w->t;
	int indent = w->indent + 2 * (int)n->depth;
	maelys_datalog_literal_info_t lit;
	maelys_datalog_rule_info_t rule;
	char text[EXPLAIN_TEXT_MAX], a[EXPLAIN_TEXT_MAX], b[EXPLAIN_TEXT_MAX];
	size_t at;

	if (n->kind == MAELYS_DATALOG_WALK_BUILTIN) {
		if (maelys_datalog_policy_get_literal(t->policy, n->rule,
						      n->literal, &lit) !=
		    MAELYS_DATALOG_STATUS_OK)
			lit.text = "?";
		at = 0;
		a[0] = b[0] = '\0';
		tree_append_term(t->res, &n->terms.terms[0], a, sizeof a, &at);
		at = 0;
		tree_append_term(t->res, &n->terms.terms[1], b, sizeof b, &at);
		if (tree_line(t))
			fprintf(t->out, PTY_MSG_EXPLAIN_BUILTIN "\n", indent,
				"", lit.text, a, b);
		return t->cut;
	}
	tree_view_text(t->res, n->predicate != NULL ? n->predicate : "?",
		       &n->terms, text, sizeof text);
	switch (n->kind) {
	case MAELYS_DATALOG_WALK_NEGATED:
		if (tree_line(t))
			fprintf(t->out, PTY_MSG_EXPLAIN_NEGATED "\n", indent,
				"", text);
		return t->cut;
	case MAELYS_DATALOG_WALK_INPUT:
		if (tree_line(t))
			fprintf(t->out, PTY_MSG_EXPLAIN_INPUT "\n", indent, "",
				text);
		return t->cut;
	case MAELYS_DATALOG_WALK_POLICY:
		if (tree_line(t))
			fprintf(t->out, PTY_MSG_EXPLAIN_POLICY_FACT "\n",
				indent, "", text);
		return t->cut;
	case MAELYS_DATALOG_WALK_RULE:
	case MAELYS_DATALOG_WALK_SHOWN:
	case MAELYS_DATALOG_WALK_DEEPER:
		break;
	default:
		if (tree_line(t))
			fprintf(t->out, PTY_MSG_EXPLAIN_UNRECORDED "\n", indent,
				"", text);
		return t->cut;
	}
	if (maelys_datalog_policy_get_rule(t->policy, n->rule, &rule) !=
	    MAELYS_DATALOG_STATUS_OK) {
		if (tree_line(t))
			fprintf(t->out, PTY_MSG_EXPLAIN_UNRECORDED "\n", indent,
				"", text);
		return t->cut;
	}
	if (n->kind != MAELYS_DATALOG_WALK_RULE) {
		if (tree_line(t))
			fprintf(t->out,
				n->kind == MAELYS_DATALOG_WALK_DEEPER
				    ? PTY_MSG_EXPLAIN_DEEPER "\n"
				    : PTY_MSG_EXPLAIN_SHOWN "\n",
				indent, "", text, rule.source, rule.line);
		return t->cut;
	}
	if (!tree_line(t))
		return 1;
	fprintf(t->out, PTY_MSG_EXPLAIN_BY_RULE "\n", indent, "", text,
		rule.source, rule.line);
	if (tree_line(t))
		fprintf(t->out, PTY_MSG_EXPLAIN_RULE_TEXT "\n", indent, "",
			rule.text);
	return t->cut;
}

/* A tuple that holds, and below it how, `level` levels down already.  One
 * walker serves every tree of the explanation, so a tuple shown in one is
 * "shown above" in the next. */
static void
tree_node(struct explain_tree *t, maelys_datalog_tuple_t tu, int indent,
	  unsigned level)
{
	struct tree_walk w = {t, indent};
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_OK;

	if (t->walk == NULL)
		st = maelys_datalog_walk_create(t->res, EXPLAIN_SHOWN_MAX,
						&t->walk);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = maelys_datalog_walk(
		    t->walk, tu, level < t->depth ? t->depth - level : 0,
		    tree_visit, &w);
	if (st == MAELYS_DATALOG_STATUS_LIMIT)
		t->cut = true; /* EXPLAIN_SHOWN_MAX tuples shown */
	else if (st != MAELYS_DATALOG_STATUS_OK && tree_line(t))
		fprintf(t->out, PTY_MSG_EXPLAIN_READ_FAILED "\n", indent, "",
			maelys_datalog_status_name(st));
}

/* Calls visit for every row of pred/arity, a page at a time; stops when
 * visit returns false.  Returns the status that stopped the reading. */
typedef bool (*tree_row_visit)(struct explain_tree *t,
			       const maelys_datalog_fact_view_t *row,
			       void *ctx);

static maelys_datalog_status_t
tree_rows_each(struct explain_tree *t, const char *pred, size_t arity,
	       tree_row_visit visit, void *ctx)
{
	maelys_datalog_fact_view_t *rows;
	size_t offset = 0, written = 0, i;
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_OK;

	rows = malloc(EXPLAIN_PAGE * sizeof *rows);
	if (rows == NULL)
		return MAELYS_DATALOG_STATUS_NO_MEMORY;
	do {
		st = maelys_datalog_result_enumerate_at(
		    t->res, pred, arity, offset, rows, EXPLAIN_PAGE, &written);
		if (st != MAELYS_DATALOG_STATUS_OK)
			break;
		for (i = 0; i < written; i++)
			if (!visit(t, &rows[i], ctx)) {
				free(rows);
				return MAELYS_DATALOG_STATUS_OK;
			}
		offset += written;
	} while (written == EXPLAIN_PAGE);
	free(rows);
	return st;
}

/* Rows of one relation whose bound columns match `want` (kind 0: any). */
struct tree_match {
	const char *pred;
	const maelys_datalog_arg_t *want;
	size_t arity;
	long found;
	long limit; /* the most to show; < 0: every one */
	int indent;
	unsigned level;
	/* candidates: the distinct values of column `column` */
	bool collect;
	size_t column;
	maelys_datalog_arg_t values[EXPLAIN_CANDIDATES_MAX];
	size_t nvalues;
};

static bool
tree_row_matches(const struct explain_tree *t, const struct tree_match *m,
		 const maelys_datalog_fact_view_t *row)
{
	size_t i;

	for (i = 0; i < m->arity && i < row->arity; i++) {
		maelys_datalog_arg_t a;

		if (m->want[i].kind == 0)
			continue;
		a = tree_arg_of(t->res, &row->terms[i]);
		if (!tree_arg_equal(&a, &m->want[i]))
			return false;
	}
	return true;
}

static bool
tree_visit_match(struct explain_tree *t, const maelys_datalog_fact_view_t *row,
		 void *ctx)
{
	struct tree_match *m = ctx;
	maelys_datalog_arg_t args[MAELYS_DATALOG_MAX_ARITY];
	maelys_datalog_tuple_t tu;
	size_t i;
	int found = 0;

	if (!tree_row_matches(t, m, row))
		return true;
	if (m->collect) {
		maelys_datalog_arg_t v =
		    tree_arg_of(t->res, &row->terms[m->column]);

		for (i = 0; i < m->nvalues; i++)
			if (tree_arg_equal(&m->values[i], &v))
				return true;
		m->values[m->nvalues++] = v;
		return m->nvalues < EXPLAIN_CANDIDATES_MAX;
	}
	m->found++;
	for (i = 0; i < row->arity; i++)
		args[i] = tree_arg_of(t->res, &row->terms[i]);
	if (maelys_datalog_result_find(t->res, m->pred, args, row->arity, &tu,
				       &found) == MAELYS_DATALOG_STATUS_OK &&
	    found)
		tree_node(t, tu, m->indent, m->level);
	return !t->cut && (m->limit < 0 || m->found < m->limit);
}

long
explain_tree_rows(struct explain_tree *t, const char *pred, size_t arity,
		  const char *key)
{
	maelys_datalog_arg_t want[MAELYS_DATALOG_MAX_ARITY];
	struct tree_match m;
	maelys_datalog_status_t st;

	memset(want, 0, sizeof want);
	memset(&m, 0, sizeof m);
	if (key != NULL)
		want[0] = maelys_datalog_arg_symbol(key);
	m.pred = pred;
	m.want = want;
	m.arity = arity;
	m.limit = -1;
	m.indent = 2;
	m.level = 0;
	st = tree_rows_each(t, pred, arity, tree_visit_match, &m);
	if (st == MAELYS_DATALOG_STATUS_UNDECLARED)
		return 0; /* the policy has no such relation */
	if (st != MAELYS_DATALOG_STATUS_OK) {
		fprintf(t->out, PTY_MSG_EXPLAIN_READ_FAILED "\n", 2, "",
			maelys_datalog_status_name(st));
		return -1;
	}
	return m.found;
}

/* ---- why not */

/* The value a literal's term has under the head's bindings: a constant,
 * a head variable's value, or kind 0 (not known). */
static maelys_datalog_arg_t
tree_bound(const struct explain_tree *t, size_t rule, size_t head_arity,
	   const maelys_datalog_arg_t *head,
	   const maelys_datalog_written_term_t *term)
{
	maelys_datalog_written_term_t w;
	maelys_datalog_arg_t a;
	size_t c;

	memset(&a, 0, sizeof a);
	if (term->kind == MAELYS_DATALOG_WRITTEN_SYMBOL)
		return maelys_datalog_arg_symbol_n(term->text, term->length);
	if (term->kind == MAELYS_DATALOG_WRITTEN_INTEGER)
		return maelys_datalog_arg_integer(term->integer);
	if (term->kind != MAELYS_DATALOG_WRITTEN_VARIABLE)
		return a;
	for (c = 0; c < head_arity; c++)
		if (maelys_datalog_policy_get_head_term(
			t->policy, rule, c, &w) == MAELYS_DATALOG_STATUS_OK &&
		    w.kind == MAELYS_DATALOG_WRITTEN_VARIABLE &&
		    w.length == term->length &&
		    memcmp(w.text, term->text, term->length) == 0)
			return head[c];
	/* a variable the body binds: not known here, left open rather than
	 * guessed */
	return a;
}

/* The terms of body literal `i` of `rule`, as the load read them; false
 * when one cannot be had (the caller then knows nothing of them). */
static bool
tree_literal_terms(const struct explain_tree *t, size_t rule, size_t i,
		   size_t arity, maelys_datalog_written_term_t *terms)
{
	size_t k;

	if (arity > MAELYS_DATALOG_MAX_ARITY)
		return false;
	for (k = 0; k < arity; k++)
		if (maelys_datalog_policy_get_literal_term(
			t->policy, rule, i, k, &terms[k]) !=
		    MAELYS_DATALOG_STATUS_OK)
			return false;
	return true;
}

static void tree_why_not_pred(struct explain_tree *t, const char *pred,
			      const maelys_datalog_arg_t *args, size_t n,
			      int indent, unsigned level);

/* The values a head variable may take: those of the first positive body
 * literal that names it, in this result. */
static size_t
tree_candidates(struct explain_tree *t, size_t rule,
		const maelys_datalog_rule_info_t *info,
		const maelys_datalog_arg_t *head, const char *var,
		size_t varlen, maelys_datalog_arg_t *out)
{
	maelys_datalog_written_term_t terms[MAELYS_DATALOG_MAX_ARITY];
	maelys_datalog_arg_t want[MAELYS_DATALOG_MAX_ARITY];
	maelys_datalog_literal_info_t li;
	struct tree_match m;
	size_t i, k;

	for (i = 0; i < info->body_count; i++) {
		if (maelys_datalog_policy_get_literal(
			t->policy, rule, i, &li) != MAELYS_DATALOG_STATUS_OK ||
		    li.kind != MAELYS_DATALOG_LITERAL_ATOM ||
		    !tree_literal_terms(t, rule, i, li.arity, terms))
			continue;
		for (k = 0; k < li.arity; k++)
			if (terms[k].kind == MAELYS_DATALOG_WRITTEN_VARIABLE &&
			    terms[k].length == varlen &&
			    memcmp(terms[k].text, var, varlen) == 0)
				break;
		if (k == li.arity)
			continue;
		memset(&m, 0, sizeof m);
		for (m.arity = 0; m.arity < li.arity; m.arity++)
			want[m.arity] = tree_bound(t, rule, info->head_arity,
						   head, &terms[m.arity]);
		want[k].kind = 0;
		m.pred = li.name;
		m.want = want;
		m.collect = true;
		m.column = k;
		(void)tree_rows_each(t, li.name, li.arity, tree_visit_match,
				     &m);
		memcpy(out, m.values, m.nvalues * sizeof *out);
		return m.nvalues;
	}
	return 0;
}

/* The failed literal `i` of `rule` (for head arguments `head`): for
 * `not p(...)` the p tuples that hold, for p(...) with every argument
 * known, why no rule derived it. */
static void
tree_failed_literal(struct explain_tree *t, size_t rule,
		    const maelys_datalog_rule_info_t *info,
		    const maelys_datalog_arg_t *head, size_t i, int indent,
		    unsigned level)
{
	maelys_datalog_written_term_t terms[MAELYS_DATALOG_MAX_ARITY];
	maelys_datalog_arg_t want[MAELYS_DATALOG_MAX_ARITY];
	maelys_datalog_literal_info_t li;
	struct tree_match m;
	char text[EXPLAIN_TEXT_MAX];
	size_t k, known = 0;

	if (maelys_datalog_policy_get_literal(t->policy, rule, i, &li) !=
	    MAELYS_DATALOG_STATUS_OK)
		return;
	if (tree_line(t))
		fprintf(t->out, PTY_MSG_EXPLAIN_FAILS_AT "\n", indent, "",
			li.text, info->source, li.line, li.column);
	if (li.kind == MAELYS_DATALOG_LITERAL_BUILTIN ||
	    !tree_literal_terms(t, rule, i, li.arity, terms))
		return;
	for (k = 0; k < li.arity; k++) {
		want[k] = tree_bound(t, rule, info->head_arity, head, &terms[k]);
		known += want[k].kind != 0;
	}
	tree_args_text(li.name, want, li.arity, text, sizeof text);
	if (li.kind == MAELYS_DATALOG_LITERAL_NEGATED) {
		if (tree_line(t))
			fprintf(t->out, PTY_MSG_EXPLAIN_HOLDS "\n", indent + 2,
				"");
		memset(&m, 0, sizeof m);
		m.pred = li.name;
		m.want = want;
		m.arity = li.arity;
		m.limit = EXPLAIN_HOLDING_MAX;
		m.indent = indent + 4;
		m.level = level;
		(void)tree_rows_each(t, li.name, li.arity, tree_visit_match,
				     &m);
	} else if (known == li.arity && level < t->depth) {
		if (tree_line(t))
			fprintf(t->out, PTY_MSG_EXPLAIN_NO_MATCH "\n",
				indent + 2, "", text);
		tree_why_not_pred(t, li.name, want, li.arity, indent + 4,
				  level + 1);
	}
}

/* Why rule `rule` did not derive pred(args); a column of kind 0 is tried
 * with the values the body offers. */
static void
tree_why_not_rule(struct explain_tree *t, size_t rule,
		  const maelys_datalog_rule_info_t *info,
		  const maelys_datalog_arg_t *args, size_t n, int indent,
		  unsigned level)
{
	maelys_datalog_arg_t head[MAELYS_DATALOG_MAX_ARITY];
	maelys_datalog_arg_t known[MAELYS_DATALOG_MAX_ARITY];
	maelys_datalog_arg_t cand[EXPLAIN_CANDIDATES_MAX];
	maelys_datalog_written_term_t w;
	size_t open = n, ncand = 0, c, best = 0, best_c = 0, failed;
	int matches = 0;
	bool any = false;
	char value[EXPLAIN_TEXT_MAX];

	memcpy(head, args, n * sizeof *head);
	for (c = 0; c < n; c++)
		if (head[c].kind == 0) {
			open = c;
			break;
		}
	if (open < n &&
	    maelys_datalog_policy_get_head_term(t->policy, rule, open, &w) ==
		MAELYS_DATALOG_STATUS_OK) {
		if (w.kind == MAELYS_DATALOG_WRITTEN_SYMBOL)
			head[open] =
			    maelys_datalog_arg_symbol_n(w.text, w.length);
		else if (w.kind == MAELYS_DATALOG_WRITTEN_INTEGER)
			head[open] = maelys_datalog_arg_integer(w.integer);
		else if (w.kind == MAELYS_DATALOG_WRITTEN_VARIABLE)
			ncand = tree_candidates(t, rule, info, head, w.text,
						w.length, cand);
	}
	/* a column nothing binds is asked with any value (why_not takes a
	 * whole tuple), but stays unknown for what is shown below */
	memcpy(known, head, n * sizeof *known);
	for (c = 0; c < n; c++)
		if ((c != open || ncand == 0) && head[c].kind == 0)
			head[c] = maelys_datalog_arg_symbol("");
	/* with candidates: the one that gets furthest into the body */
	for (c = 0; c < (ncand > 0 ? ncand : 1); c++) {
		if (ncand > 0)
			head[open] = cand[c];
		if (maelys_datalog_result_why_not(t->res, rule, info->head,
						  head, n, &matches, &failed) !=
			MAELYS_DATALOG_STATUS_OK ||
		    !matches)
			continue;
		if (!any || failed > best) {
			best = failed;
			best_c = c;
			any = true;
			if (ncand > 0) {
				size_t at = 0;

				value[0] = '\0';
				tree_append_value(
				    value, sizeof value, &at,
				    cand[c].as.symbol.text,
				    cand[c].as.symbol.length,
				    cand[c].kind == MAELYS_DATALOG_TERM_INTEGER,
				    cand[c].as.integer);
			}
		}
	}
	if (!any)
		return; /* its head cannot be the tuple */
	if (ncand > 0)
		known[open] = cand[best_c];
	if (tree_line(t))
		fprintf(t->out, PTY_MSG_EXPLAIN_CANDIDATE "\n", indent, "",
			info->source, info->line, info->text);
	if (ncand > 0 && tree_line(t) &&
	    maelys_datalog_policy_get_head_term(t->policy, rule, open, &w) ==
		MAELYS_DATALOG_STATUS_OK)
		fprintf(t->out, PTY_MSG_EXPLAIN_WITH "\n", indent, "", w.text,
			value);
	if (best >= info->body_count) {
		if (tree_line(t))
			fprintf(t->out, PTY_MSG_EXPLAIN_BODY_HOLDS "\n", indent,
				"");
		return;
	}
	tree_failed_literal(t, rule, info, known, best, indent, level);
}

static void
tree_why_not_pred(struct explain_tree *t, const char *pred,
		  const maelys_datalog_arg_t *args, size_t n, int indent,
		  unsigned level)
{
	maelys_datalog_rule_info_t info;
	size_t r, count = maelys_datalog_policy_rule_count(t->policy);

	for (r = 0; r < count && !t->cut; r++)
		if (maelys_datalog_policy_get_rule(t->policy, r, &info) ==
			MAELYS_DATALOG_STATUS_OK &&
		    strcmp(info.head, pred) == 0 && info.head_arity == n)
			tree_why_not_rule(t, r, &info, args, n, indent, level);
}

void
explain_tree_why_not(struct explain_tree *t, const char *const *heads,
		     size_t nheads, const char *key)
{
	maelys_datalog_arg_t args[MAELYS_DATALOG_MAX_ARITY];
	maelys_datalog_rule_info_t info;
	size_t h, r, count = maelys_datalog_policy_rule_count(t->policy);

	for (h = 0; h < nheads; h++) {
		bool any = false;

		for (r = 0; r < count && !t->cut; r++) {
			if (maelys_datalog_policy_get_rule(t->policy, r,
							   &info) !=
				MAELYS_DATALOG_STATUS_OK ||
			    strcmp(info.head, heads[h]) != 0 ||
			    info.head_arity == 0 ||
			    info.head_arity > MAELYS_DATALOG_MAX_ARITY)
				continue;
			memset(args, 0, sizeof args);
			args[0] = maelys_datalog_arg_symbol(key);
			tree_why_not_rule(t, r, &info, args, info.head_arity, 2,
					  0);
			any = true;
		}
		if (!any && tree_line(t))
			fprintf(t->out, PTY_MSG_EXPLAIN_NO_RULES "\n",
				heads[h]);
	}
}
