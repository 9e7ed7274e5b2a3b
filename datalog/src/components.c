/* SPDX-License-Identifier: MIT */
/*
 * Souffle's components, expanded during the parse (dl_components.h).
 *
 * A definition is scanned once, token by token: its name, type
 * parameters, bases, and the members of its body at brace depth 0 (the
 * relations it declares and whether each is overridable, the types it
 * declares, nested components, instances, overrides).  The rest of the
 * body (clauses, other directives) is only parsed for an instance.
 *
 * An instance is expanded in two passes, as Souffle does it:
 *   - the plan: which bodies are parsed, in Souffle's order (nested
 *     instances first, then the bases, then the component's own body),
 *     each with its type binding, and the names each instance declares
 *     (its "level"), checking redefinitions;
 *   - the bodies parsed by the parser, whose names go through
 *     dl_comp_map: a name declared at a level gets that instance's name in
 *     front, from the innermost level out, so a base's clause naming a
 *     relation the derived component declares names the derived one.
 * Clauses of a base for a relation the derived component overrides are
 * dropped (dl_comp_filter).
 *
 * Everything lives in the load's arena.
 */
#include "dl_components.h"

#include "dl_hash.h"
#include "dl_lexer.h"
#include "dl_limits.h"

#include <string.h>

struct dl_comp_name {
	const char *s; /* NUL-terminated, in the arena */
	size_t len;
	struct dl_pos pos;
	bool overridable; /* a relation declared overridable */
	const char *what; /* the top's names: "a type", ... */
	struct dl_comp_name *next;
};

/* Comp<Arg, ...> as written in a .init or after ':' */
struct dl_comp_ref {
	struct dl_comp_name name;
	struct dl_comp_name *args; /* an array of nargs */
	size_t nargs;
	struct dl_comp_ref *next;
};

struct dl_comp_init {
	struct dl_comp_name inst;
	struct dl_comp_ref ref;
	struct dl_pos pos; /* of .init */
	struct dl_comp_init *next;
};

/* A nested .comp, .init or .override of a body: the body's parse skips
 * from start to end. */
struct dl_comp_span {
	size_t start, end;
	struct dl_pos end_pos;
	struct dl_comp_span *next;
};

struct dl_comp {
	struct dl_comp_name name;
	struct dl_comp_name *params; /* an array of nparams */
	size_t nparams;
	struct dl_comp_ref *bases;
	struct dl_comp *parent;   /* the component it is defined in */
	struct dl_comp *children; /* components defined in it */
	struct dl_comp *next_sibling, *next_all;
	struct dl_comp_init *inits;
	struct dl_comp_name *decls, *types, *overrides;
	/* the branches of its algebraic data types: named in the instance
	 * as its types are ($Inst.B outside, $B inside) */
	struct dl_comp_name *branches;
	struct dl_comp_span *spans;
	size_t body_start, body_end; /* bytes between '{' and '}' */
	struct dl_pos body_pos;
	struct dl_pos pos; /* of .comp */
};

struct dl_comps {
	struct dl_comp *top, **top_tail; /* defined at the top */
	struct dl_comp *all, **all_tail; /* every one, for the checks */
	struct dl_comp_init *inits, **inits_tail; /* at the top */
	struct dl_comp_init *pending, **pending_tail;
	size_t instances; /* and bodies collected: DL_COMP_INSTANCES_MAX */
	size_t defined;   /* components: DL_COMP_DEFS_MAX */
	size_t names;     /* names the plans hold: DL_COMP_NAMES_MAX */
	/* steps of every search for a component: DL_COMP_WORK_MAX; past it
	 * every search fails, and says so (dl_comp_exhausted) */
	size_t work;
	size_t expanded; /* body bytes parsed again: DL_COMP_EXPANSION_MAX */
};

/* A type parameter's argument, forwarded through the enclosing binding */
struct dl_comp_binding {
	const struct dl_comp_name *formal; /* the component's parameters */
	const char **actual;
	size_t *actual_len;
	size_t n;
};

/* Names, with an open-addressed index (slot = position + 1, 0 empty) of
 * 2 * cap slots: a lookup stays constant-time in a big component. */
struct dl_comp_set {
	struct dl_comp_name *v;
	size_t n, cap;
	size_t *slots;
};

/* The names one instance declares, before its own name is put in front */
struct dl_comp_level {
	struct dl_comp_name inst;
	const struct dl_comp_level *outer;
	struct dl_comp_set rels, types;
};

/* The components whose .override applies to a base's body */
struct dl_comp_ovr {
	const struct dl_comp *comp;
	const struct dl_comp_ovr *up;
};

struct dl_comp_scope {
	const struct dl_comp *comp;
	const struct dl_comp_binding *binding;
	const struct dl_comp_level *level;
	const struct dl_comp_ovr *ovr;
	const struct dl_comp_span *cursor; /* the next span to skip */
	const char *source_name;
	struct dl_comp_scope *next;
};

/* ------------------------------------------------------------------ */
/* Small helpers */

static bool
dl_c_eq(const char *a, size_t alen, const char *b, size_t blen)
{
	return alen == blen && memcmp(a, b, alen) == 0;
}

static bool
dl_c_punct(const struct dl_token *t, char c)
{
	return t->kind != DL_TOK_STRING && t->kind != DL_TOK_INTEGER &&
	       t->kind != DL_TOK_IDENT && t->kind != DL_TOK_EOF &&
	       t->len == 1 && t->text[0] == c;
}

static bool
dl_c_directive(const struct dl_token *t, const char *word)
{
	return t->kind == DL_TOK_DIRECTIVE &&
	       dl_c_eq(t->text, t->len, word, strlen(word));
}

static maelys_datalog_status_t
dl_c_nomem(maelys_datalog_diagnostic_t *diag)
{
	return dl_fail(diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
		       "out of memory while reading a component");
}

static void *
dl_c_alloc(struct dl_ast *ast, size_t size)
{
	void *p = dl_arena_alloc(&ast->arena, size);

	if (p != NULL)
		memset(p, 0, size);
	return p;
}

static struct dl_comps *
dl_c_comps(struct dl_ast *ast)
{
	struct dl_comps *cs = ast->comps;

	if (cs == NULL) {
		cs = dl_c_alloc(ast, sizeof *cs);
		if (cs == NULL)
			return NULL;
		cs->top_tail = &cs->top;
		cs->all_tail = &cs->all;
		cs->inits_tail = &cs->inits;
		cs->pending_tail = &cs->pending;
		ast->comps = cs;
	}
	return cs;
}

/* ------------------------------------------------------------------ */
/* Reading definitions */

struct dl_cscan {
	struct dl_lexer lx;
	struct dl_token tok;
	struct dl_ast *ast;
	struct dl_comps *cs;
	const char *source_name;
	maelys_datalog_diagnostic_t *diag;
};

#define DL_C_TRY(expr)                                                         \
	do {                                                                   \
		maelys_datalog_status_t c_try_st_ = (expr);                    \
		if (c_try_st_ != MAELYS_DATALOG_STATUS_OK)                     \
			return c_try_st_;                                      \
	} while (0)

static maelys_datalog_status_t
dl_cs_next(struct dl_cscan *s)
{
	return dl_lexer_next(&s->lx, &s->tok);
}

static maelys_datalog_status_t
dl_cs_error(struct dl_cscan *s, const char *expected)
{
	if (s->tok.kind == DL_TOK_EOF)
		return dl_fail_at(s->diag, MAELYS_DATALOG_STATUS_PARSE,
				  s->source_name, s->tok.pos,
				  "expected %s, found end of input", expected);
	return dl_fail_at(s->diag, MAELYS_DATALOG_STATUS_PARSE, s->source_name,
			  s->tok.pos, "expected %s, found '%.*s'", expected,
			  (int)(s->tok.len > 64 ? 64 : s->tok.len),
			  s->tok.text);
}

/* An identifier: `simple` refuses a qualified name (a.b). */
static maelys_datalog_status_t
dl_cs_name(struct dl_cscan *s, struct dl_comp_name *out, const char *what,
	   bool simple)
{
	if (s->tok.kind != DL_TOK_IDENT)
		return dl_cs_error(s, what);
	if (simple && memchr(s->tok.text, '.', s->tok.len) != NULL)
		return dl_fail_at(s->diag, MAELYS_DATALOG_STATUS_PARSE,
				  s->source_name, s->tok.pos,
				  "%s '%.*s' is one name, without '.'", what,
				  (int)s->tok.len, s->tok.text);
	memset(out, 0, sizeof *out);
	out->s = dl_arena_strndup(&s->ast->arena, s->tok.text, s->tok.len);
	if (out->s == NULL)
		return dl_c_nomem(s->diag);
	out->len = s->tok.len;
	out->pos = s->tok.pos;
	return dl_cs_next(s);
}

static maelys_datalog_status_t
dl_cs_push(struct dl_cscan *s, struct dl_comp_name ***tail,
	   const struct dl_comp_name *n)
{
	struct dl_comp_name *c = dl_c_alloc(s->ast, sizeof *c);

	if (c == NULL)
		return dl_c_nomem(s->diag);
	*c = *n;
	c->next = NULL;
	**tail = c;
	*tail = &c->next;
	return MAELYS_DATALOG_STATUS_OK;
}

/* '<' name {',' name} '>' into an array */
static maelys_datalog_status_t
dl_cs_params(struct dl_cscan *s, struct dl_comp_name **out, size_t *n,
	     const char *what, bool simple)
{
	struct dl_comp_name v[DL_COMP_PARAMS_MAX];
	size_t k = 0;

	*out = NULL;
	*n = 0;
	if (s->tok.kind != DL_TOK_LT)
		return MAELYS_DATALOG_STATUS_OK;
	DL_C_TRY(dl_cs_next(s));
	for (;;) {
		if (k == DL_COMP_PARAMS_MAX)
			return dl_fail_at(s->diag, MAELYS_DATALOG_STATUS_LIMIT,
					  s->source_name, s->tok.pos,
					  "more than %d type parameters",
					  DL_COMP_PARAMS_MAX);
		DL_C_TRY(dl_cs_name(s, &v[k], what, simple));
		k++;
		if (s->tok.kind != DL_TOK_COMMA)
			break;
		DL_C_TRY(dl_cs_next(s));
	}
	if (s->tok.kind != DL_TOK_GT)
		return dl_cs_error(s, "',' or '>'");
	*out = dl_c_alloc(s->ast, k * sizeof *v);
	if (*out == NULL)
		return dl_c_nomem(s->diag);
	memcpy(*out, v, k * sizeof *v);
	*n = k;
	return dl_cs_next(s);
}

static maelys_datalog_status_t
dl_cs_ref(struct dl_cscan *s, struct dl_comp_ref *r)
{
	memset(r, 0, sizeof *r);
	DL_C_TRY(dl_cs_name(s, &r->name, "a component name", true));
	return dl_cs_params(s, &r->args, &r->nargs, "a type name", false);
}

static maelys_datalog_status_t
dl_cs_init(struct dl_cscan *s, struct dl_pos at, struct dl_comp_init **out)
{
	struct dl_comp_init *in = dl_c_alloc(s->ast, sizeof *in);

	if (in == NULL)
		return dl_c_nomem(s->diag);
	in->pos = at;
	DL_C_TRY(dl_cs_name(s, &in->inst, "an instance name", true));
	if (s->tok.kind != DL_TOK_EQ)
		return dl_cs_error(s, "'=' after the instance name");
	DL_C_TRY(dl_cs_next(s));
	DL_C_TRY(dl_cs_ref(s, &in->ref));
	*out = in;
	return MAELYS_DATALOG_STATUS_OK;
}

static bool
dl_cs_is_qualifier(const struct dl_token *t)
{
	static const char *const words[] = {
	    "overridable", "btree",     "brie",  "btree_delete", "eqrel",
	    "inline",      "no_inline", "magic", "no_magic",
	};
	size_t i;

	if (t->kind != DL_TOK_IDENT)
		return false;
	for (i = 0; i < sizeof words / sizeof *words; i++)
		if (dl_c_eq(t->text, t->len, words[i], strlen(words[i])))
			return true;
	return false;
}

/* .decl a, b (cols) quals: the names, and whether overridable */
static maelys_datalog_status_t
dl_cs_decl(struct dl_cscan *s, struct dl_comp_name ***tail)
{
	struct dl_comp_name *first = NULL, **from = *tail;
	struct dl_comp_name n;
	size_t depth = 0;
	bool overridable = false;

	for (;;) {
		DL_C_TRY(
		    dl_cs_name(s, &n, "a relation name after .decl", false));
		DL_C_TRY(dl_cs_push(s, tail, &n));
		if (s->tok.kind != DL_TOK_COMMA)
			break;
		DL_C_TRY(dl_cs_next(s));
	}
	if (s->tok.kind == DL_TOK_LPAREN) {
		do {
			if (s->tok.kind == DL_TOK_EOF)
				return dl_cs_error(s, "')'");
			if (s->tok.kind == DL_TOK_LPAREN)
				depth++;
			else if (s->tok.kind == DL_TOK_RPAREN)
				depth--;
			DL_C_TRY(dl_cs_next(s));
		} while (depth > 0);
	}
	while (dl_cs_is_qualifier(&s->tok)) {
		if (s->tok.text[0] == 'o')
			overridable = true;
		DL_C_TRY(dl_cs_next(s));
	}
	for (first = *from; first != NULL; first = first->next)
		first->overridable = overridable;
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_cs_span(struct dl_cscan *s, struct dl_comp_span ***tail, size_t start)
{
	struct dl_comp_span *sp = dl_c_alloc(s->ast, sizeof *sp);

	if (sp == NULL)
		return dl_c_nomem(s->diag);
	sp->start = start;
	sp->end = s->tok.start;
	sp->end_pos = s->tok.pos;
	**tail = sp;
	*tail = &sp->next;
	return MAELYS_DATALOG_STATUS_OK;
}

/* After a .type's name: the names of its branches when it is an
 * algebraic data type (`= A {...} | B {}`: a name right before a '{'),
 * up to the next directive or the '}' that closes the component; their
 * fields are skipped.  Leaves s->tok there. */
static maelys_datalog_status_t
dl_cs_branches(struct dl_cscan *s, struct dl_comp_name ***tail)
{
	struct dl_token prev;
	bool have = false;

	memset(&prev, 0, sizeof prev);
	while (s->tok.kind != DL_TOK_EOF && s->tok.kind != DL_TOK_DIRECTIVE &&
	       !dl_c_punct(&s->tok, '}')) {
		if (dl_c_punct(&s->tok, '{')) {
			size_t depth = 1;

			if (have) {
				struct dl_comp_name n;

				memset(&n, 0, sizeof n);
				n.s = dl_arena_strndup(&s->ast->arena,
						       prev.text, prev.len);
				if (n.s == NULL)
					return dl_c_nomem(s->diag);
				n.len = prev.len;
				n.pos = prev.pos;
				DL_C_TRY(dl_cs_push(s, tail, &n));
			}
			have = false;
			DL_C_TRY(dl_cs_next(s));
			while (depth > 0 && s->tok.kind != DL_TOK_EOF) {
				if (dl_c_punct(&s->tok, '{'))
					depth++;
				else if (dl_c_punct(&s->tok, '}'))
					depth--;
				DL_C_TRY(dl_cs_next(s));
			}
			continue;
		}
		have = s->tok.kind == DL_TOK_IDENT;
		prev = s->tok;
		DL_C_TRY(dl_cs_next(s));
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* The definition whose name is s->tok; leaves s->tok after its '}'. */
static maelys_datalog_status_t
dl_cs_comp(struct dl_cscan *s, struct dl_comp *parent, unsigned depth,
	   struct dl_pos at, struct dl_comp **out)
{
	struct dl_comp *c, **child_tail;
	struct dl_comp_name **decl_tail, **type_tail, **ovr_tail;
	struct dl_comp_name **branch_tail;
	struct dl_comp_init **init_tail;
	struct dl_comp_ref **base_tail;
	struct dl_comp_span **span_tail;
	size_t braces = 0;

	if (depth > DL_COMP_NEST_MAX)
		return dl_fail_at(s->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  s->source_name, at,
				  "components defined inside components "
				  "deeper than %d",
				  DL_COMP_NEST_MAX);
	if (s->cs->defined == DL_COMP_DEFS_MAX)
		return dl_fail_at(s->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  s->source_name, at,
				  "more than %zu components", DL_COMP_DEFS_MAX);
	s->cs->defined++;
	c = dl_c_alloc(s->ast, sizeof *c);
	if (c == NULL)
		return dl_c_nomem(s->diag);
	c->pos = at;
	c->parent = parent;
	*s->cs->all_tail = c;
	s->cs->all_tail = &c->next_all;
	child_tail = &c->children;
	decl_tail = &c->decls;
	type_tail = &c->types;
	branch_tail = &c->branches;
	ovr_tail = &c->overrides;
	init_tail = &c->inits;
	base_tail = &c->bases;
	span_tail = &c->spans;
	DL_C_TRY(dl_cs_name(s, &c->name, "a component name", true));
	DL_C_TRY(
	    dl_cs_params(s, &c->params, &c->nparams, "a type parameter", true));
	if (s->tok.kind == DL_TOK_COLON) {
		do {
			struct dl_comp_ref *b;

			DL_C_TRY(dl_cs_next(s));
			b = dl_c_alloc(s->ast, sizeof *b);
			if (b == NULL)
				return dl_c_nomem(s->diag);
			DL_C_TRY(dl_cs_ref(s, b));
			*base_tail = b;
			base_tail = &b->next;
		} while (s->tok.kind == DL_TOK_COMMA);
	}
	if (!dl_c_punct(&s->tok, '{'))
		return dl_cs_error(s, "'{' (the component's body)");
	c->body_start = s->tok.end;
	c->body_pos = s->tok.pos;
	c->body_pos.column++;
	DL_C_TRY(dl_cs_next(s));
	for (;;) {
		size_t start = s->tok.start;
		struct dl_pos dpos = s->tok.pos;

		if (s->tok.kind == DL_TOK_EOF)
			return dl_fail_at(s->diag, MAELYS_DATALOG_STATUS_PARSE,
					  s->source_name, c->pos,
					  "component '%s' is not closed (a "
					  "'}' is missing)",
					  c->name.s);
		if (dl_c_punct(&s->tok, '}') && braces == 0)
			break;
		if (dl_c_punct(&s->tok, '{') || dl_c_punct(&s->tok, '}')) {
			braces += s->tok.text[0] == '{' ? 1 : (size_t)-1;
			DL_C_TRY(dl_cs_next(s));
			continue;
		}
		if (braces > 0 || s->tok.kind != DL_TOK_DIRECTIVE) {
			DL_C_TRY(dl_cs_next(s));
			continue;
		}
		if (dl_c_directive(&s->tok, "comp")) {
			struct dl_comp *child;

			DL_C_TRY(dl_cs_next(s));
			DL_C_TRY(dl_cs_comp(s, c, depth + 1, dpos, &child));
			*child_tail = child;
			child_tail = &child->next_sibling;
			DL_C_TRY(dl_cs_span(s, &span_tail, start));
		} else if (dl_c_directive(&s->tok, "init")) {
			struct dl_comp_init *in;

			DL_C_TRY(dl_cs_next(s));
			DL_C_TRY(dl_cs_init(s, dpos, &in));
			*init_tail = in;
			init_tail = &in->next;
			DL_C_TRY(dl_cs_span(s, &span_tail, start));
		} else if (dl_c_directive(&s->tok, "override")) {
			struct dl_comp_name n;

			DL_C_TRY(dl_cs_next(s));
			DL_C_TRY(dl_cs_name(s, &n, "a relation name", true));
			DL_C_TRY(dl_cs_push(s, &ovr_tail, &n));
			DL_C_TRY(dl_cs_span(s, &span_tail, start));
		} else if (dl_c_directive(&s->tok, "decl")) {
			DL_C_TRY(dl_cs_next(s));
			DL_C_TRY(dl_cs_decl(s, &decl_tail));
		} else if (dl_c_directive(&s->tok, "type")) {
			struct dl_comp_name n;

			DL_C_TRY(dl_cs_next(s));
			DL_C_TRY(dl_cs_name(s, &n, "a type name", false));
			DL_C_TRY(dl_cs_push(s, &type_tail, &n));
			DL_C_TRY(dl_cs_branches(s, &branch_tail));
		} else {
			DL_C_TRY(dl_cs_next(s));
		}
	}
	c->body_end = s->tok.start;
	*out = c;
	return dl_cs_next(s);
}

static maelys_datalog_status_t
dl_cs_open(struct dl_cscan *s, struct dl_ast *ast, const char *source_name,
	   size_t start, struct dl_pos pos, maelys_datalog_diagnostic_t *diag)
{
	memset(s, 0, sizeof *s);
	s->ast = ast;
	s->source_name = source_name;
	s->diag = diag;
	s->cs = dl_c_comps(ast);
	if (s->cs == NULL)
		return dl_c_nomem(diag);
	/* strings are not decoded: only names are kept from this read */
	dl_lexer_init(&s->lx, ast->src, ast->src_len, ast->souffle, NULL,
		      source_name, diag);
	s->lx.off = start;
	s->lx.pos = pos;
	return dl_cs_next(s);
}

maelys_datalog_status_t
dl_comp_define(struct dl_ast *ast, const char *source_name, size_t start,
	       struct dl_pos pos, struct dl_pos at, size_t *end,
	       struct dl_pos *end_pos, maelys_datalog_diagnostic_t *diag)
{
	struct dl_cscan s;
	struct dl_comp *c;

	DL_C_TRY(dl_cs_open(&s, ast, source_name, start, pos, diag));
	DL_C_TRY(dl_cs_comp(&s, NULL, 0, at, &c));
	*s.cs->top_tail = c;
	s.cs->top_tail = &c->next_sibling;
	*end = s.tok.start;
	*end_pos = s.tok.pos;
	return MAELYS_DATALOG_STATUS_OK;
}

/* ------------------------------------------------------------------ */
/* Finding components, binding type parameters */

static const char *
dl_bind_find(const struct dl_comp_binding *b, const char *s, size_t len,
	     size_t *out_len)
{
	size_t i;

	for (i = 0; b != NULL && i < b->n; i++) {
		if (dl_c_eq(b->formal[i].s, b->formal[i].len, s, len)) {
			*out_len = b->actual_len[i];
			return b->actual[i];
		}
	}
	return NULL;
}

/* Souffle's lookup: the components defined in the scope, in its bases,
 * then in the enclosing scopes, then at the top. */
static const struct dl_comp *
dl_comp_lookup_in(struct dl_comps *cs, const struct dl_comp *scope,
		  const char *name, size_t len, unsigned depth, size_t *steps)
{
	const struct dl_comp *sc, *c;
	const struct dl_comp_ref *b;

	/* bases in a cycle, or so many bases of bases that the search
	 * would not end: not found (and the checks refuse a cycle) */
	if (depth > DL_COMP_DEPTH_MAX || ++*steps > DL_COMP_LOOKUP_MAX ||
	    cs->work >= DL_COMP_WORK_MAX)
		return NULL;
	for (sc = scope; sc != NULL; sc = sc->parent) {
		for (c = sc->children; c != NULL; c = c->next_sibling)
			if (++cs->work,
			    dl_c_eq(c->name.s, c->name.len, name, len))
				return c;
		for (b = sc->bases; b != NULL; b = b->next) {
			const struct dl_comp *base =
			    dl_comp_lookup_in(cs, sc->parent, b->name.s,
					      b->name.len, depth + 1, steps);

			if (base == sc)
				return NULL;
			if (base != NULL &&
			    (c = dl_comp_lookup_in(cs, base, name, len,
						   depth + 1, steps)) != NULL)
				return c;
		}
	}
	for (c = cs->top; c != NULL; c = c->next_sibling)
		if (++cs->work, dl_c_eq(c->name.s, c->name.len, name, len))
			return c;
	return NULL;
}

/* Whether the searches have used up DL_COMP_WORK_MAX: the LIMIT error
 * then, not "unknown component". */
static maelys_datalog_status_t
dl_comp_exhausted(const struct dl_comps *cs, const char *source_name,
		  struct dl_pos pos, maelys_datalog_diagnostic_t *diag)
{
	if (cs->work < DL_COMP_WORK_MAX)
		return MAELYS_DATALOG_STATUS_OK;
	return dl_fail_at(diag, MAELYS_DATALOG_STATUS_LIMIT, source_name, pos,
			  "finding components (bases of bases, in nested "
			  "scopes) took more than %zu steps",
			  DL_COMP_WORK_MAX);
}

static const struct dl_comp *
dl_comp_lookup(struct dl_comps *cs, const struct dl_comp *scope,
	       const char *name, size_t len, unsigned depth)
{
	size_t steps = 0;

	return dl_comp_lookup_in(cs, scope, name, len, depth, &steps);
}

static bool
dl_comp_is_param(const struct dl_comp *c, const struct dl_comp_name *n)
{
	size_t i;

	for (i = 0; c != NULL && i < c->nparams; i++)
		if (dl_c_eq(c->params[i].s, c->params[i].len, n->s, n->len))
			return true;
	return false;
}

/* ------------------------------------------------------------------ */
/* The plan of an instance */

struct dl_cplan {
	struct dl_ast *ast;
	struct dl_comps *cs;
	const char *source_name;
	maelys_datalog_diagnostic_t *diag;
	bool missing; /* a component was not found */
	struct dl_comp_scope *jobs, **jobs_tail;
};

struct dl_cbase_chain {
	const struct dl_comp *comp;
	const struct dl_cbase_chain *up;
};

static maelys_datalog_status_t
dl_cp_nomem(struct dl_cplan *p)
{
	return dl_c_nomem(p->diag);
}

/* The component `ref` names from `scope`, with its arity checked. */
static maelys_datalog_status_t
dl_cp_resolve(struct dl_cplan *p, const struct dl_comp *scope,
	      const struct dl_comp_binding *b, const struct dl_comp_ref *ref,
	      const struct dl_comp **out)
{
	const char *name = ref->name.s;
	size_t len = ref->name.len, blen;
	const char *bound = dl_bind_find(b, name, len, &blen);

	if (bound != NULL) {
		name = bound;
		len = blen;
	}
	*out = dl_comp_lookup(p->cs, scope, name, len, 0);
	DL_C_TRY(
	    dl_comp_exhausted(p->cs, p->source_name, ref->name.pos, p->diag));
	if (*out == NULL) {
		p->missing = true;
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_UNDECLARED,
				  p->source_name, ref->name.pos,
				  "unknown component '%.*s'", (int)len, name);
	}
	if ((*out)->nparams != ref->nargs)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_ARITY,
				  p->source_name, ref->name.pos,
				  "component '%s' takes %zu type "
				  "parameter%s, not %zu",
				  (*out)->name.s, (*out)->nparams,
				  (*out)->nparams == 1 ? "" : "s", ref->nargs);
	return MAELYS_DATALOG_STATUS_OK;
}

/* The binding of c's parameters to ref's arguments, each forwarded
 * through the binding `outer` it is written under. */
static maelys_datalog_status_t
dl_cp_bind(struct dl_cplan *p, const struct dl_comp *c,
	   const struct dl_comp_ref *ref, const struct dl_comp_binding *outer,
	   const struct dl_comp_binding **out)
{
	struct dl_comp_binding *b = dl_c_alloc(p->ast, sizeof *b);
	size_t i;

	if (b == NULL)
		return dl_cp_nomem(p);
	b->n = c->nparams;
	b->formal = c->params;
	if (b->n > 0) {
		b->actual = dl_c_alloc(p->ast, b->n * sizeof *b->actual);
		b->actual_len =
		    dl_c_alloc(p->ast, b->n * sizeof *b->actual_len);
		if (b->actual == NULL || b->actual_len == NULL)
			return dl_cp_nomem(p);
	}
	for (i = 0; i < b->n; i++) {
		const struct dl_comp_name *a = &ref->args[i];
		size_t blen;
		const char *f = dl_bind_find(outer, a->s, a->len, &blen);

		b->actual[i] = f != NULL ? f : a->s;
		b->actual_len[i] = f != NULL ? blen : a->len;
	}
	*out = b;
	return MAELYS_DATALOG_STATUS_OK;
}

/* The slot of s in set's index: where it is, or the empty slot to put
 * it in. */
static size_t *
dl_set_slot(const struct dl_comp_set *set, const char *s, size_t len)
{
	size_t mask = 2 * set->cap - 1;
	size_t h = (size_t)dl_hash_bytes(s, len) & mask;

	while (set->slots[h] != 0) {
		const struct dl_comp_name *n = &set->v[set->slots[h] - 1];

		if (dl_c_eq(n->s, n->len, s, len))
			break;
		h = (h + 1) & mask;
	}
	return &set->slots[h];
}

static const struct dl_comp_name *
dl_set_find(const struct dl_comp_set *set, const char *s, size_t len)
{
	size_t *slot;

	if (set->n == 0)
		return NULL;
	slot = dl_set_slot(set, s, len);
	return *slot == 0 ? NULL : &set->v[*slot - 1];
}

static maelys_datalog_status_t
dl_set_add(struct dl_cplan *p, struct dl_comp_set *set, const char *s,
	   size_t len, struct dl_pos pos, const char *what)
{
	const struct dl_comp_name *old = dl_set_find(set, s, len);

	if (p->cs->names >= DL_COMP_NAMES_MAX)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  p->source_name, pos,
				  "instances declare more than %zu relations "
				  "and types, counted at each level of nesting",
				  DL_COMP_NAMES_MAX);
	p->cs->names++;
	if (old != NULL)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_REDECLARED,
				  p->source_name, pos,
				  "redefinition of %s '%.*s' in an instance "
				  "(first declared at line %zu)",
				  what, (int)len, s, old->pos.line);
	if (set->n == set->cap) {
		/* bounded by the names of the source: no overflow */
		size_t cap = set->cap == 0 ? 8 : set->cap * 2, i;
		struct dl_comp_name *v =
		    dl_c_alloc(p->ast, cap * sizeof *set->v);
		size_t *slots = dl_c_alloc(p->ast, 2 * cap * sizeof *slots);

		if (v == NULL || slots == NULL)
			return dl_cp_nomem(p);
		if (set->n > 0)
			memcpy(v, set->v, set->n * sizeof *set->v);
		set->v = v;
		set->cap = cap;
		set->slots = slots;
		for (i = 0; i < set->n; i++)
			*dl_set_slot(set, v[i].s, v[i].len) = i + 1;
	}
	memset(&set->v[set->n], 0, sizeof set->v[0]);
	set->v[set->n].s = s;
	set->v[set->n].len = len;
	set->v[set->n].pos = pos;
	*dl_set_slot(set, s, len) = set->n + 1;
	set->n++;
	return MAELYS_DATALOG_STATUS_OK;
}

/* The names of a nested instance, as its enclosing level sees them:
 * inst.name. */
static maelys_datalog_status_t
dl_cp_merge(struct dl_cplan *p, struct dl_comp_level *to,
	    const struct dl_comp_level *sub)
{
	const struct dl_comp_set *from[2] = {&sub->rels, &sub->types};
	struct dl_comp_set *into[2] = {&to->rels, &to->types};
	size_t k, i;

	for (k = 0; k < 2; k++) {
		for (i = 0; i < from[k]->n; i++) {
			const struct dl_comp_name *n = &from[k]->v[i];
			size_t len = sub->inst.len + 1 + n->len;
			char *s;

			if (len > DL_IDENT_MAX)
				return dl_fail_at(
				    p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				    p->source_name, n->pos,
				    "the qualified name of '%s' in instance "
				    "'%s' is longer than %zu bytes",
				    n->s, sub->inst.s, DL_IDENT_MAX);
			s = dl_arena_alloc(&p->ast->arena, len + 1);
			if (s == NULL)
				return dl_cp_nomem(p);
			memcpy(s, sub->inst.s, sub->inst.len);
			s[sub->inst.len] = '.';
			memcpy(s + sub->inst.len + 1, n->s, n->len);
			s[len] = '\0';
			DL_C_TRY(dl_set_add(p, into[k], s, len, n->pos,
					    k == 0 ? "relation" : "type"));
		}
	}
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_cp_job(struct dl_cplan *p, const struct dl_comp *c,
	  const struct dl_comp_binding *b, const struct dl_comp_level *lvl,
	  const struct dl_comp_ovr *ovr)
{
	struct dl_comp_scope *j = dl_c_alloc(p->ast, sizeof *j);
	size_t bytes = c->body_end - c->body_start;

	if (j == NULL)
		return dl_cp_nomem(p);
	/* counted here, before any body is parsed again */
	if (bytes > DL_COMP_EXPANSION_MAX - p->cs->expanded)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  p->source_name, c->pos,
				  "instances expand to more than %zu bytes of "
				  "component bodies",
				  DL_COMP_EXPANSION_MAX);
	p->cs->expanded += bytes;
	j->comp = c;
	j->binding = b;
	j->level = lvl;
	j->ovr = ovr;
	j->cursor = c->spans;
	j->source_name = p->source_name;
	*p->jobs_tail = j;
	p->jobs_tail = &j->next;
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_cp_init(struct dl_cplan *p, const struct dl_comp_init *in,
	   const struct dl_comp *scope, const struct dl_comp_binding *b,
	   const struct dl_comp_level *outer, unsigned depth,
	   struct dl_comp_level **out);

/* Souffle's collectContent: the bases' content, then c's own. */
static maelys_datalog_status_t
dl_cp_collect(struct dl_cplan *p, const struct dl_comp *c,
	      const struct dl_comp_binding *b, struct dl_comp_level *lvl,
	      const struct dl_comp_ovr *ovr, const struct dl_cbase_chain *up,
	      unsigned depth)
{
	struct dl_cbase_chain here = {c, up};
	struct dl_comp_ovr *sub_ovr;
	const struct dl_comp_ref *base;
	const struct dl_comp_name *n;

	/* a base collected twice (or a diamond of them) is work too */
	if (p->cs->instances >= DL_COMP_INSTANCES_MAX)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  p->source_name, c->pos,
				  "more than %zu component instances and "
				  "bases expanded",
				  DL_COMP_INSTANCES_MAX);
	p->cs->instances++;
	sub_ovr = dl_c_alloc(p->ast, sizeof *sub_ovr);
	if (sub_ovr == NULL)
		return dl_cp_nomem(p);
	sub_ovr->comp = c;
	sub_ovr->up = ovr;
	for (base = c->bases; base != NULL; base = base->next) {
		const struct dl_comp *bc;
		const struct dl_comp_binding *bb;
		const struct dl_comp_init *in;
		const struct dl_cbase_chain *k;

		DL_C_TRY(dl_cp_resolve(p, c->parent, b, base, &bc));
		for (k = &here; k != NULL; k = k->up)
			if (k->comp == bc)
				return dl_fail_at(
				    p->diag, MAELYS_DATALOG_STATUS_PARSE,
				    p->source_name, c->pos,
				    "cycle in the inheritance of component "
				    "'%s'",
				    bc->name.s);
		if (depth >= DL_COMP_DEPTH_MAX)
			return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
					  p->source_name, base->name.pos,
					  "components based on components "
					  "deeper than %d",
					  DL_COMP_DEPTH_MAX);
		DL_C_TRY(dl_cp_bind(p, bc, base, b, &bb));
		for (in = bc->inits; in != NULL; in = in->next) {
			struct dl_comp_level *sub = NULL;

			DL_C_TRY(
			    dl_cp_init(p, in, bc, bb, lvl, depth + 1, &sub));
			DL_C_TRY(dl_cp_merge(p, lvl, sub));
		}
		DL_C_TRY(
		    dl_cp_collect(p, bc, bb, lvl, sub_ovr, &here, depth + 1));
	}
	for (n = c->types; n != NULL; n = n->next) {
		size_t len;
		const char *s = dl_bind_find(b, n->s, n->len, &len);

		if (s == NULL) {
			s = n->s;
			len = n->len;
		}
		DL_C_TRY(dl_set_add(p, &lvl->types, s, len, n->pos, "type"));
	}
	/* a branch named as a type of the instance is already there */
	for (n = c->branches; n != NULL; n = n->next)
		if (dl_set_find(&lvl->types, n->s, n->len) == NULL)
			DL_C_TRY(dl_set_add(p, &lvl->types, n->s, n->len,
					    n->pos, "branch"));
	for (n = c->decls; n != NULL; n = n->next)
		DL_C_TRY(dl_set_add(p, &lvl->rels, n->s, n->len, n->pos,
				    "relation"));
	return dl_cp_job(p, c, b, lvl, ovr);
}

/* Souffle's getInstantiatedContent: nested instances, then the content
 * collected from c and its bases. */
static maelys_datalog_status_t
dl_cp_init(struct dl_cplan *p, const struct dl_comp_init *in,
	   const struct dl_comp *scope, const struct dl_comp_binding *b,
	   const struct dl_comp_level *outer, unsigned depth,
	   struct dl_comp_level **out)
{
	const struct dl_comp *c;
	const struct dl_comp_binding *cb;
	const struct dl_comp_init *sub;
	struct dl_comp_level *lvl;

	if (depth >= DL_COMP_DEPTH_MAX)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  p->source_name, in->pos,
				  "instances nested deeper than %d (does a "
				  "component instantiate itself?)",
				  DL_COMP_DEPTH_MAX);
	if (p->cs->instances >= DL_COMP_INSTANCES_MAX)
		return dl_fail_at(p->diag, MAELYS_DATALOG_STATUS_LIMIT,
				  p->source_name, in->pos,
				  "more than %zu component instances",
				  DL_COMP_INSTANCES_MAX);
	p->cs->instances++;
	DL_C_TRY(dl_cp_resolve(p, scope, b, &in->ref, &c));
	DL_C_TRY(dl_cp_bind(p, c, &in->ref, b, &cb));
	lvl = dl_c_alloc(p->ast, sizeof *lvl);
	if (lvl == NULL)
		return dl_cp_nomem(p);
	lvl->inst = in->inst;
	lvl->outer = outer;
	for (sub = c->inits; sub != NULL; sub = sub->next) {
		struct dl_comp_level *sl;

		DL_C_TRY(dl_cp_init(p, sub, c, cb, lvl, depth + 1, &sl));
		DL_C_TRY(dl_cp_merge(p, lvl, sl));
	}
	DL_C_TRY(dl_cp_collect(p, c, cb, lvl, NULL, NULL, depth));
	*out = lvl;
	return MAELYS_DATALOG_STATUS_OK;
}

/* Plans and parses the instance `in` of the program's top. */
static maelys_datalog_status_t
dl_comp_expand(struct dl_ast *ast, const struct dl_comp_init *in,
	       const char *source_name, bool eager, bool *deferred,
	       maelys_datalog_diagnostic_t *diag)
{
	struct dl_cplan p;
	struct dl_comp_level *lvl;
	struct dl_comp_scope *j;
	maelys_datalog_status_t st;
	size_t saved, saved_names, saved_bytes;

	memset(&p, 0, sizeof p);
	p.ast = ast;
	p.cs = ast->comps;
	p.source_name = source_name;
	p.diag = diag;
	p.jobs_tail = &p.jobs;
	saved = p.cs->instances;
	saved_names = p.cs->names;
	saved_bytes = p.cs->expanded;
	*deferred = false;
	st = dl_cp_init(&p, in, NULL, NULL, NULL, 0, &lvl);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		if (eager && p.missing) {
			/* a component defined further down: at the end */
			p.cs->instances = saved;
			p.cs->names = saved_names;
			p.cs->expanded = saved_bytes;
			if (diag != NULL)
				diag->message[0] = '\0';
			*deferred = true;
			return MAELYS_DATALOG_STATUS_OK;
		}
		return st;
	}
	for (j = p.jobs; j != NULL; j = j->next)
		DL_C_TRY(dl_parse_body(ast, j, j->comp->body_start,
				       j->comp->body_pos, source_name, diag));
	return MAELYS_DATALOG_STATUS_OK;
}

maelys_datalog_status_t
dl_comp_init(struct dl_ast *ast, const char *source_name, size_t start,
	     struct dl_pos pos, struct dl_pos at, size_t *end,
	     struct dl_pos *end_pos, maelys_datalog_diagnostic_t *diag)
{
	struct dl_cscan s;
	struct dl_comp_init *in;
	bool deferred;

	DL_C_TRY(dl_cs_open(&s, ast, source_name, start, pos, diag));
	DL_C_TRY(dl_cs_init(&s, at, &in));
	*end = s.tok.start;
	*end_pos = s.tok.pos;
	*s.cs->inits_tail = in;
	s.cs->inits_tail = &in->next;
	DL_C_TRY(dl_comp_expand(ast, in, source_name, true, &deferred, diag));
	if (deferred) {
		struct dl_comp_init *copy = dl_c_alloc(ast, sizeof *copy);

		if (copy == NULL)
			return dl_c_nomem(diag);
		*copy = *in;
		copy->next = NULL;
		*s.cs->pending_tail = copy;
		s.cs->pending_tail = &copy->next;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* ------------------------------------------------------------------ */
/* Checks of every definition, instantiated or not (Souffle's) */

static bool
dl_comp_declares(const struct dl_comp *c, const struct dl_comp_name *rel,
		 bool *overridable)
{
	const struct dl_comp_name *d;

	for (d = c->decls; d != NULL; d = d->next) {
		if (dl_c_eq(d->s, d->len, rel->s, rel->len)) {
			*overridable = d->overridable;
			return true;
		}
	}
	return false;
}

static maelys_datalog_status_t
dl_cc_ref(struct dl_comps *cs, const struct dl_comp *scope,
	  const struct dl_comp *params, const struct dl_comp_ref *ref,
	  const char *source_name, maelys_datalog_diagnostic_t *diag)
{
	const struct dl_comp *c;

	if (dl_comp_is_param(params, &ref->name))
		return MAELYS_DATALOG_STATUS_OK; /* known when instantiated */
	c = dl_comp_lookup(cs, scope, ref->name.s, ref->name.len, 0);
	DL_C_TRY(dl_comp_exhausted(cs, source_name, ref->name.pos, diag));
	if (c == NULL)
		return dl_fail_at(diag, MAELYS_DATALOG_STATUS_UNDECLARED,
				  source_name, ref->name.pos,
				  "unknown component '%s'", ref->name.s);
	if (c->nparams != ref->nargs)
		return dl_fail_at(diag, MAELYS_DATALOG_STATUS_ARITY,
				  source_name, ref->name.pos,
				  "component '%s' takes %zu type "
				  "parameter%s, not %zu",
				  c->name.s, c->nparams,
				  c->nparams == 1 ? "" : "s", ref->nargs);
	return MAELYS_DATALOG_STATUS_OK;
}

/* c's bases, their bases, ..., each once, into v (at most cap). */
static size_t
dl_cc_ancestors(struct dl_comps *cs, const struct dl_comp *c,
		const struct dl_comp **v, size_t n, size_t cap)
{
	const struct dl_comp_ref *b;
	size_t i, k = n;

	for (b = c->bases; b != NULL; b = b->next) {
		/* Souffle looks every ancestor up from c's own scope */
		const struct dl_comp *a =
		    dl_comp_lookup(cs, c->parent, b->name.s, b->name.len, 0);

		if (a == NULL || k == cap)
			continue;
		for (i = 0; i < k && v[i] != a; i++)
			;
		if (i < k)
			continue;
		v[k++] = a;
		k = dl_cc_ancestors(cs, a, v, k, cap);
	}
	return k;
}

static maelys_datalog_status_t
dl_cc_comp(struct dl_ast *ast, const struct dl_comp *c,
	   const struct dl_comp **anc, size_t cap, const char *source_name,
	   maelys_datalog_diagnostic_t *diag)
{
	struct dl_comps *cs = ast->comps;
	const struct dl_comp_ref *b;
	const struct dl_comp_init *in;
	const struct dl_comp_name *o;
	size_t n, i;

	for (b = c->bases; b != NULL; b = b->next)
		DL_C_TRY(dl_cc_ref(cs, c->parent, c, b, source_name, diag));
	for (in = c->inits; in != NULL; in = in->next)
		DL_C_TRY(dl_cc_ref(cs, c, c, &in->ref, source_name, diag));
	n = dl_cc_ancestors(cs, c, anc, 0, cap);
	DL_C_TRY(dl_comp_exhausted(cs, source_name, c->pos, diag));
	for (i = 0; i < n; i++)
		if (anc[i] == c)
			return dl_fail_at(diag, MAELYS_DATALOG_STATUS_PARSE,
					  source_name, c->pos,
					  "cycle in the inheritance of "
					  "component '%s'",
					  c->name.s);
	for (o = c->overrides; o != NULL; o = o->next) {
		bool ov;

		if (dl_comp_declares(c, o, &ov))
			return dl_fail_at(diag, MAELYS_DATALOG_STATUS_PARSE,
					  source_name, o->pos,
					  "component '%s' overrides '%s', "
					  "which it declares itself (.override "
					  "is for an inherited relation)",
					  c->name.s, o->s);
		for (i = 0; i < n; i++)
			if (dl_comp_declares(anc[i], o, &ov) && !ov)
				return dl_fail_at(
				    diag, MAELYS_DATALOG_STATUS_PARSE,
				    source_name, o->pos,
				    "component '%s' overrides relation '%s' "
				    "of '%s', which is not overridable (its "
				    ".decl needs the qualifier overridable)",
				    c->name.s, o->s, anc[i]->name.s);
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* Names at the top: a component or an instance may not have the name of
 * a type, a relation, or another component or instance (Souffle's). */
static maelys_datalog_status_t
dl_cc_name(struct dl_cplan *p, struct dl_comp_set *names,
	   const struct dl_comp_name *n, const char *what, const char *as)
{
	const struct dl_comp_name *old = dl_set_find(names, n->s, n->len);

	if (old != NULL && as == NULL)
		return MAELYS_DATALOG_STATUS_OK; /* the checker's to say */
	if (old != NULL)
		return dl_fail_at(
		    p->diag, MAELYS_DATALOG_STATUS_REDECLARED, p->source_name,
		    n->pos, "%s '%s' has the name of %s", as, n->s, old->what);
	DL_C_TRY(dl_set_add(p, names, n->s, n->len, n->pos, what));
	names->v[names->n - 1].what = what;
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_cc_clashes(struct dl_ast *ast, const char *source_name,
	      maelys_datalog_diagnostic_t *diag)
{
	struct dl_cplan p;
	struct dl_comp_set names;
	struct dl_comp_name n;
	const struct dl_comp *c;
	const struct dl_comp_init *in;
	size_t i;

	memset(&p, 0, sizeof p);
	p.ast = ast;
	p.cs = ast->comps;
	p.source_name = source_name;
	p.diag = diag;
	memset(&names, 0, sizeof names);
	memset(&n, 0, sizeof n);
	for (i = 0; i < ast->ntypes; i++) {
		n.s = ast->types[i].name;
		n.len = ast->types[i].name_len;
		n.pos = ast->types[i].pos;
		DL_C_TRY(dl_cc_name(&p, &names, &n, "a type", NULL));
	}
	for (i = 0; i < ast->ndecls; i++) {
		n.s = ast->decls[i].name;
		n.len = ast->decls[i].name_len;
		n.pos = ast->decls[i].pos;
		DL_C_TRY(dl_cc_name(&p, &names, &n, "a relation", NULL));
	}
	for (c = p.cs->top; c != NULL; c = c->next_sibling)
		DL_C_TRY(dl_cc_name(&p, &names, &c->name, "a component",
				    "component"));
	for (in = p.cs->inits; in != NULL; in = in->next)
		DL_C_TRY(dl_cc_name(&p, &names, &in->inst, "an instance",
				    "instance"));
	return MAELYS_DATALOG_STATUS_OK;
}

maelys_datalog_status_t
dl_comp_finish(struct dl_ast *ast, const char *source_name,
	       maelys_datalog_diagnostic_t *diag)
{
	struct dl_comps *cs = ast->comps;
	const struct dl_comp **anc;
	const struct dl_comp *c;
	const struct dl_comp_init *in;
	size_t ncomps = 0;
	bool deferred;

	if (cs == NULL)
		return MAELYS_DATALOG_STATUS_OK;
	for (c = cs->all; c != NULL; c = c->next_all)
		ncomps++;
	anc = dl_arena_alloc(&ast->arena, (ncomps + 1) * sizeof *anc);
	if (anc == NULL)
		return dl_c_nomem(diag);
	DL_C_TRY(dl_cc_clashes(ast, source_name, diag));
	for (c = cs->all; c != NULL; c = c->next_all)
		DL_C_TRY(dl_cc_comp(ast, c, anc, ncomps, source_name, diag));
	for (in = cs->inits; in != NULL; in = in->next)
		DL_C_TRY(
		    dl_cc_ref(cs, NULL, NULL, &in->ref, source_name, diag));
	for (in = cs->pending; in != NULL; in = in->next)
		DL_C_TRY(dl_comp_expand(ast, in, source_name, false, &deferred,
					diag));
	return MAELYS_DATALOG_STATUS_OK;
}

/* ------------------------------------------------------------------ */
/* The parser's hooks */

/* The name `s` as the scope's instance calls it, into buf (cap bytes). */
static maelys_datalog_status_t
dl_comp_name_in(const struct dl_comp_scope *scope, enum dl_comp_kind kind,
		const char *s, size_t len, char *buf, size_t cap,
		size_t *out_len, struct dl_pos pos,
		maelys_datalog_diagnostic_t *diag)
{
	const struct dl_comp_level *l;
	size_t blen;
	const char *bound = NULL;

	if (kind == DL_COMP_TYPE)
		bound = dl_bind_find(scope->binding, s, len, &blen);
	if (bound != NULL) {
		s = bound;
		len = blen;
	}
	if (len >= cap)
		return dl_fail_at(
		    diag, MAELYS_DATALOG_STATUS_LIMIT, scope->source_name, pos,
		    "a qualified name longer than %zu bytes", cap - 1);
	memmove(buf, s, len);
	for (l = scope->level; l != NULL; l = l->outer) {
		const struct dl_comp_set *set =
		    kind == DL_COMP_TYPE ? &l->types : &l->rels;

		if (dl_set_find(set, buf, len) == NULL)
			continue;
		if (l->inst.len + 1 + len >= cap)
			return dl_fail_at(
			    diag, MAELYS_DATALOG_STATUS_LIMIT,
			    scope->source_name, pos,
			    "the qualified name of '%.*s' in instance '%s' "
			    "is longer than %zu bytes",
			    (int)len, buf, l->inst.s, cap - 1);
		memmove(buf + l->inst.len + 1, buf, len);
		memcpy(buf, l->inst.s, l->inst.len);
		buf[l->inst.len] = '.';
		len += l->inst.len + 1;
	}
	buf[len] = '\0';
	*out_len = len;
	return MAELYS_DATALOG_STATUS_OK;
}

maelys_datalog_status_t
dl_comp_map(const struct dl_comp_scope *scope, enum dl_comp_kind kind,
	    struct dl_arena *arena, const char **text, size_t *len,
	    struct dl_pos pos, maelys_datalog_diagnostic_t *diag)
{
	char buf[DL_IDENT_MAX + 1];
	size_t n = 0; /* gcc -O3 cannot see that dl_comp_name_in sets it */
	char *s;

	if (scope == NULL)
		return MAELYS_DATALOG_STATUS_OK;
	DL_C_TRY(dl_comp_name_in(scope, kind, *text, *len, buf, sizeof buf, &n,
				 pos, diag));
	if (dl_c_eq(buf, n, *text, *len))
		return MAELYS_DATALOG_STATUS_OK;
	s = dl_arena_strndup(arena, buf, n);
	if (s == NULL)
		return dl_c_nomem(diag);
	*text = s;
	*len = n;
	return MAELYS_DATALOG_STATUS_OK;
}

bool
dl_comp_skip(struct dl_comp_scope *scope, size_t start, size_t *end,
	     struct dl_pos *end_pos)
{
	const struct dl_comp_span *sp;

	for (sp = scope->cursor; sp != NULL; sp = sp->next) {
		if (sp->start == start) {
			*end = sp->end;
			*end_pos = sp->end_pos;
			scope->cursor = sp->next;
			return true;
		}
	}
	return false;
}

static bool
dl_comp_overridden(const struct dl_comp_scope *scope, const char *head,
		   size_t len)
{
	const struct dl_comp_ovr *o;
	const struct dl_comp_name *n;
	char buf[DL_IDENT_MAX + 1];
	size_t blen = 0;

	for (o = scope->ovr; o != NULL; o = o->up) {
		for (n = o->comp->overrides; n != NULL; n = n->next) {
			if (dl_comp_name_in(scope, DL_COMP_RELATION, n->s,
					    n->len, buf, sizeof buf, &blen,
					    n->pos,
					    NULL) != MAELYS_DATALOG_STATUS_OK)
				continue;
			/* Souffle compares the head's first name: r and r.x */
			if (len >= blen && memcmp(head, buf, blen) == 0 &&
			    (len == blen || head[blen] == '.'))
				return true;
		}
	}
	return false;
}

size_t
dl_comp_filter(const struct dl_comp_scope *scope, struct dl_ast_clause *clauses,
	       size_t from, size_t n)
{
	size_t i, k = from;

	if (scope == NULL || scope->ovr == NULL)
		return n;
	for (i = from; i < n; i++) {
		if (dl_comp_overridden(scope, clauses[i].head.name,
				       clauses[i].head.name_len))
			continue;
		clauses[k++] = clauses[i];
	}
	return k;
}
