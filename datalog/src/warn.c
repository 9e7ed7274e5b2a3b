/* SPDX-License-Identifier: MIT */
/*
 * Warnings of a load: what the dialect allows but an author almost never
 * means, found once the program has compiled and kept in it for the tools
 * (maelys_datalog_policy_get_warning; `maelys-datalog check`, `maelys-pty
 * --check`).  A warning never stops a load.
 *
 *   CONSTANT_COMPARISON  `c = "ls"`: both sides constants (in the native
 *                        dialect a lower-case name is a string), so the
 *                        test has the same outcome at every solve.
 *   UNDEFINED_PREDICATE  a .decl predicate that no fact or rule defines,
 *                        read by a rule: the literal is never true.
 *   MISSING_FACT         a positive literal of a predicate that only the
 *                        policy's facts define (POLICY_FACT, or a .decl
 *                        helper with facts and no rule) that no fact
 *                        matches on its constants: the body never holds.
 *
 * Every warning points at a literal; rules and literals are walked in
 * source order, so the list is deterministic and in source order.  What is
 * kept is bounded (DL_WARNINGS_MAX) and so is the work
 * (DL_WARN_SCAN_MAX).
 */
#include "dl_program.h"

#include "dl_builtins.h"
#include "dl_limits.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Bytes of a literal or a constant quoted in a message. */
#define DL_WARN_QUOTE_MAX 60

struct dl_warner {
	struct dl_program *prog;
	size_t total;   /* warnings found, kept or not */
	size_t scanned; /* fact columns compared, against DL_WARN_SCAN_MAX */
	bool *defined;  /* by predicate: the head of some rule */
	maelys_datalog_diagnostic_t *diag;
};

static maelys_datalog_status_t
dl_warn_nomem(struct dl_warner *w)
{
	return dl_fail(w->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
		       "out of memory while looking for warnings");
}

static maelys_datalog_status_t dl_warn_add(struct dl_warner *w,
					   maelys_datalog_warning_kind_t kind,
					   struct dl_pos pos, const char *fmt,
					   ...) DL_PRINTF(4, 5);

/* Keeps a warning "source:line:col: warning: what" while there is room;
 * counts it in any case. */
static maelys_datalog_status_t
dl_warn_add(struct dl_warner *w, maelys_datalog_warning_kind_t kind,
	    struct dl_pos pos, const char *fmt, ...)
{
	struct dl_program *prog = w->prog;
	struct dl_warning *slot;
	char what[MAELYS_DATALOG_DIAGNOSTIC_MESSAGE_MAX];
	va_list ap;

	w->total++;
	if (prog->nwarnings == DL_WARNINGS_MAX)
		return MAELYS_DATALOG_STATUS_OK;
	if (prog->warnings == NULL) {
		prog->warnings = dl_calloc(DL_WARNINGS_MAX, sizeof *slot);
		if (prog->warnings == NULL)
			return dl_warn_nomem(w);
	}
	va_start(ap, fmt);
	(void)vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	slot = &prog->warnings[prog->nwarnings++];
	slot->kind = kind;
	(void)dl_fail_at(&slot->diag, MAELYS_DATALOG_STATUS_OK,
			 prog->source_name, pos, "warning: %s", what);
	return MAELYS_DATALOG_STATUS_OK;
}

/* A constant as the policy would write it: an integer, or a string in
 * quotes with quotes, backslashes and control bytes escaped, cut at
 * DL_WARN_QUOTE_MAX bytes. */
static void
dl_warn_constant(const struct dl_program *prog, dl_value v, char *out,
		 size_t cap)
{
	struct dl_symview view = {&prog->symbols, NULL};
	const struct dl_sym *sym;
	int64_t i;
	size_t n = 0, k;

	if (dl_symview_value_int(&view, v, &i)) {
		(void)snprintf(out, cap, "%lld", (long long)i);
		return;
	}
	sym = dl_symview_get(&view, v);
	if (sym == NULL || sym->text == NULL) {
		(void)snprintf(out, cap, "?");
		return;
	}
	out[n++] = '"';
	for (k = 0; k < sym->len && n + 8 < cap; k++) {
		unsigned char c = (unsigned char)sym->text[k];

		if (k == DL_WARN_QUOTE_MAX) {
			memcpy(out + n, "...", 3);
			n += 3;
			break;
		}
		if (c == '"' || c == '\\' || c == '\n' || c == '\t') {
			/* the escapes the dialect has (lexer.c) */
			out[n++] = '\\';
			out[n++] = c == '\n' ? 'n' : c == '\t' ? 't' : (char)c;
		} else if (c < 0x20 || c == 0x7f) {
			n += (size_t)snprintf(out + n, cap - n, "\\x%02x", c);
		} else {
			out[n++] = (char)c;
		}
	}
	out[n++] = '"';
	out[n] = '\0';
}

static const char *
dl_warn_op(enum dl_cmp_op op)
{
	static const char *const ops[] = {
	    [DL_CMP_EQ] = "=",  [DL_CMP_NE] = "!=", [DL_CMP_LT] = "<",
	    [DL_CMP_LE] = "<=", [DL_CMP_GT] = ">",  [DL_CMP_GE] = ">=",
	};

	return ops[op];
}

static maelys_datalog_status_t
dl_warn_comparison(struct dl_warner *w, const struct dl_clit *l)
{
	struct dl_symview view = {&w->prog->symbols, NULL};
	char a[2 * DL_WARN_QUOTE_MAX + 16], b[2 * DL_WARN_QUOTE_MAX + 16];
	struct dl_test t;

	if (l->args[0].kind != DL_CT_CONST || l->args[1].kind != DL_CT_CONST)
		return MAELYS_DATALOG_STATUS_OK;
	dl_warn_constant(w->prog, l->args[0].v, a, sizeof a);
	dl_warn_constant(w->prog, l->args[1].v, b, sizeof b);
	t = dl_builtin_compare(&view, l->op, l->args[0].v, l->args[1].v);
	return dl_warn_add(
	    w, MAELYS_DATALOG_WARNING_CONSTANT_COMPARISON, l->pos,
	    "comparison of two constants %s %s %s %s%s%s%s", a,
	    dl_warn_op(l->op), b,
	    t.status != MAELYS_DATALOG_STATUS_OK ? "fails at every solve ("
	    : t.value                            ? "is always true"
						 : "is never true",
	    t.status != MAELYS_DATALOG_STATUS_OK ? t.why : "",
	    t.status != MAELYS_DATALOG_STATUS_OK ? ")" : "",
	    l->bare ? "; a variable starts with an upper-case letter or _"
		    : "");
}

/* Whether some fact of `p` agrees with the literal's constants.  Sets
 * *gave_up when the scan budget is spent (no answer). */
static bool
dl_warn_fact_matches(struct dl_warner *w, const struct dl_pred *p,
		     const struct dl_clit *l, bool *gave_up)
{
	size_t f, k, nconst = 0;

	*gave_up = false;
	for (k = 0; k < l->nargs; k++)
		nconst += l->args[k].kind == DL_CT_CONST;
	if (nconst == 0)
		return p->nfacts > 0;
	if (p->nfacts > (DL_WARN_SCAN_MAX - w->scanned) / p->arity) {
		w->scanned = DL_WARN_SCAN_MAX;
		*gave_up = true;
		return true;
	}
	w->scanned += p->nfacts * p->arity;
	for (f = 0; f < p->nfacts; f++) {
		const dl_value *row = p->facts + f * p->arity;

		for (k = 0; k < l->nargs; k++)
			if (l->args[k].kind == DL_CT_CONST &&
			    row[k] != l->args[k].v)
				break;
		if (k == l->nargs)
			return true;
	}
	return false;
}

/* The literal as the message quotes it. */
static int
dl_warn_quote_len(const struct dl_clit *l)
{
	return l->text_len > DL_WARN_QUOTE_MAX ? DL_WARN_QUOTE_MAX
					       : (int)l->text_len;
}

static maelys_datalog_status_t
dl_warn_atom(struct dl_warner *w, const struct dl_clit *l)
{
	const struct dl_pred *p = &w->prog->preds[l->pred];
	/* the policy's own predicate, whose facts nobody else supplies */
	bool own = !p->from_domain && (p->role & DL_ROLE_INPUT) == 0;
	bool gave_up;

	if (own && !w->defined[l->pred] && p->nfacts == 0)
		return dl_warn_add(
		    w, MAELYS_DATALOG_WARNING_UNDEFINED_PREDICATE, l->pos,
		    "'%s/%u' is declared but no fact or rule defines it: "
		    "%.*s%s is %s true",
		    p->name, p->arity, dl_warn_quote_len(l), l->text,
		    (size_t)dl_warn_quote_len(l) < l->text_len ? "..." : "",
		    l->negated ? "always" : "never");
	if (l->negated || w->defined[l->pred] ||
	    ((p->role & MAELYS_DATALOG_PREDICATE_POLICY_FACT) == 0 && !own))
		return MAELYS_DATALOG_STATUS_OK;
	if (p->nfacts == 0)
		return dl_warn_add(
		    w, MAELYS_DATALOG_WARNING_MISSING_FACT, l->pos,
		    "the policy has no fact of '%s/%u': %.*s%s is never "
		    "true, so this rule never holds",
		    p->name, p->arity, dl_warn_quote_len(l), l->text,
		    (size_t)dl_warn_quote_len(l) < l->text_len ? "..." : "");
	if (dl_warn_fact_matches(w, p, l, &gave_up) || gave_up)
		return MAELYS_DATALOG_STATUS_OK;
	return dl_warn_add(
	    w, MAELYS_DATALOG_WARNING_MISSING_FACT, l->pos,
	    "no fact of '%s/%u' matches %.*s%s: this rule never holds", p->name,
	    p->arity, dl_warn_quote_len(l), l->text,
	    (size_t)dl_warn_quote_len(l) < l->text_len ? "..." : "");
}

/* Whether warning a comes after b in the source. */
static bool
dl_warn_after(const struct dl_warning *a, const struct dl_warning *b)
{
	return a->diag.line > b->diag.line ||
	       (a->diag.line == b->diag.line && a->diag.column > b->diag.column);
}

/* The warnings kept, in source order (the ignored constructs were kept
 * before the rules' warnings): an insertion sort, stable, of at most
 * DL_WARNINGS_MAX. */
static void
dl_warn_sort(struct dl_program *prog)
{
	size_t i, j;

	for (i = 1; i < prog->nwarnings; i++) {
		struct dl_warning t = prog->warnings[i];

		for (j = i; j > 0 && dl_warn_after(&prog->warnings[j - 1], &t);
		     j--)
			prog->warnings[j] = prog->warnings[j - 1];
		prog->warnings[j] = t;
	}
}

/* The rules' warnings (every other warning is of a rule). */
static maelys_datalog_status_t
dl_warn_rules(struct dl_warner *w)
{
	struct dl_program *prog = w->prog;
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_OK;
	size_t r, i;

	if (prog->nrules == 0)
		return MAELYS_DATALOG_STATUS_OK;
	w->defined = dl_calloc(prog->npreds, sizeof *w->defined);
	if (w->defined == NULL)
		return dl_warn_nomem(w);
	for (r = 0; r < prog->nrules; r++)
		w->defined[prog->rules[r].head_pred] = true;
	for (r = 0; st == MAELYS_DATALOG_STATUS_OK && r < prog->nrules; r++) {
		const struct dl_rule *rule = &prog->rules[r];

		for (i = 0; st == MAELYS_DATALOG_STATUS_OK && i < rule->nbody;
		     i++) {
			const struct dl_clit *l = &rule->body[i];

			if (l->kind == DL_LIT_CMP)
				st = dl_warn_comparison(w, l);
			else if (l->kind == DL_LIT_ATOM)
				st = dl_warn_atom(w, l);
		}
	}
	dl_free(w->defined);
	w->defined = NULL;
	return st;
}

maelys_datalog_status_t
dl_warn_program(struct dl_program *prog, const struct dl_ast *ast,
		maelys_datalog_diagnostic_t *diag)
{
	struct dl_warner w;
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_OK;
	size_t i;

	memset(&w, 0, sizeof w);
	w.prog = prog;
	w.diag = diag;
	for (i = 0; st == MAELYS_DATALOG_STATUS_OK && i < ast->nignored; i++)
		st = dl_warn_add(&w, MAELYS_DATALOG_WARNING_IGNORED,
				 ast->ignored[i].pos,
				 "%s is ignored: it tunes how Souffle itself "
				 "runs, not what the program derives (this "
				 "runner's folders are -F and -D)",
				 ast->ignored[i].what);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_warn_rules(&w);
	dl_warn_sort(prog);
	if (st == MAELYS_DATALOG_STATUS_OK && w.total > prog->nwarnings) {
		/* the last slot says how many were left out, at the place of
		 * the first of them it stands for */
		struct dl_warning *last = &prog->warnings[prog->nwarnings - 1];
		struct dl_pos pos = {last->diag.line, last->diag.column};

		(void)dl_fail_at(&last->diag, MAELYS_DATALOG_STATUS_OK,
				 prog->source_name, pos,
				 "warning: and %zu more warnings not shown",
				 w.total - prog->nwarnings + 1);
	}
	return st;
}
