/* SPDX-License-Identifier: MIT */
/*
 * The naive evaluator of the differential test: deliberately simple, and
 * written without looking at how the engine does anything.  Relations are
 * growable arrays of df_tuple (with a small hash set to refuse duplicates);
 * strata are the generator's groups, in order; within one, every rule of
 * the group is evaluated over the full current relations by nested loops
 * over all tuples, in the order the rule was generated (so every variable
 * is bound before it is tested), and what a round derives is added when it
 * ends, again and again until a whole round adds nothing.  No deltas, no
 * indexes, no join order, no interning.
 *
 * The built-ins are hand-written too: comparisons on the test's own
 * values, prefix/suffix/contains as byte loops, and each of the few fixed
 * regular expressions the generator uses as a hand-written matcher with
 * PCRE2's default semantics (unanchored; '.' is any byte but \n; '$' also
 * matches before a final \n; no UTF, ASCII classes only).
 *
 * Included by check_datalog_differential.c after diff_model.h.
 */

/* ------------------------------------------------------------------ */
/* The fixed regular expressions and their matchers */

static bool
df_has(const char *s, size_t n, const char *needle, size_t m)
{
	size_t i, k;

	if (m == 0)
		return true;
	for (i = 0; i + m <= n; i++) {
		for (k = 0; k < m && s[i + k] == needle[k]; k++)
			;
		if (k == m)
			return true;
	}
	return false;
}

/* Whether the subject ends with c as '$' sees it: c at the very end, or
 * c before a newline that ends the subject. */
static bool
df_ends_with(const char *s, size_t n, char c)
{
	return (n >= 1 && s[n - 1] == c) ||
	       (n >= 2 && s[n - 1] == '\n' && s[n - 2] == c);
}

static bool
df_m_caret_a(const char *s, size_t n)
{
	return n > 0 && s[0] == 'a';
}

static bool
df_m_b_dollar(const char *s, size_t n)
{
	return df_ends_with(s, n, 'b');
}

static bool
df_m_a_dot_c(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i + 2 < n; i++)
		if (s[i] == 'a' && s[i + 1] != '\n' && s[i + 2] == 'c')
			return true;
	return false;
}

static bool
df_m_ab_or_ba(const char *s, size_t n)
{
	return df_has(s, n, "ab", 2) || df_has(s, n, "ba", 2);
}

static bool
df_m_only_ab(const char *s, size_t n)
{
	size_t k = n > 0 && s[n - 1] == '\n' ? n - 1 : n, i;

	if (k == 0)
		return false;
	for (i = 0; i < k; i++)
		if (s[i] != 'a' && s[i] != 'b')
			return false;
	return true;
}

static bool
df_m_empty(const char *s, size_t n)
{
	(void)s;
	(void)n;
	return true;
}

static bool
df_m_caret_dollar(const char *s, size_t n)
{
	return n == 0 || (n == 1 && s[0] == '\n');
}

static bool
df_m_digit(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] >= '0' && s[i] <= '9')
			return true;
	return false;
}

static bool
df_m_ci_a(const char *s, size_t n)
{
	return df_has(s, n, "a", 1) || df_has(s, n, "A", 1);
}

static bool
df_m_quote(const char *s, size_t n)
{
	return df_has(s, n, "x\"y", 3);
}

static bool
df_m_backslash(const char *s, size_t n)
{
	return df_has(s, n, "\\", 1);
}

static bool
df_m_a_nl_b(const char *s, size_t n)
{
	return df_has(s, n, "a\nb", 3);
}

static bool
df_m_tab(const char *s, size_t n)
{
	return df_has(s, n, "\t", 1);
}

static bool
df_m_not_a(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != 'a')
			return true;
	return false;
}

static bool
df_m_b_or_c(const char *s, size_t n)
{
	return (n > 0 && s[0] == 'b') || df_ends_with(s, n, 'c');
}

static bool
df_m_aa(const char *s, size_t n)
{
	return df_has(s, n, "aa", 2);
}

struct df_pattern {
	const char *text; /* as written between the quotes of the program */
	bool (*match)(const char *s, size_t n);
};

static const struct df_pattern df_patterns[] = {
    {"^a", df_m_caret_a},
    {"b$", df_m_b_dollar},
    {"a.c", df_m_a_dot_c},
    {"ab|ba", df_m_ab_or_ba},
    {"^[ab]+$", df_m_only_ab},
    {"", df_m_empty},
    {"^$", df_m_caret_dollar},
    {"\\\\d", df_m_digit}, /* the regex \d */
    {"(?i)A", df_m_ci_a},
    {"x\\\"y", df_m_quote},       /* the regex x"y */
    {"\\\\\\\\", df_m_backslash}, /* the regex \\ */
    {"a\\\\nb", df_m_a_nl_b},     /* the regex a\nb (escape) */
    {"\\t", df_m_tab},            /* a literal tab in the regex */
    {"[^a]", df_m_not_a},
    {"^b|c$", df_m_b_or_c},
    {"a{2}", df_m_aa},
};
#define DF_NPATTERNS (sizeof df_patterns / sizeof *df_patterns)

/* ------------------------------------------------------------------ */
/* Relations */

struct df_rel {
	struct df_tuple *t;
	size_t n, cap;
	uint32_t *slots; /* open addressing: index + 1, 0 = empty */
	size_t nslots;
};

static uint64_t
df_tuple_hash(const struct df_tuple *t, unsigned arity)
{
	uint64_t h = UINT64_C(0x243f6a8885a308d3);
	unsigned k;

	for (k = 0; k < arity; k++)
		h = df_mix64(h ^ df_mix64((uint64_t)t->v[k].x + t->v[k].kind));
	return h;
}

static bool
df_tuple_eq(const struct df_tuple *a, const struct df_tuple *b, unsigned arity)
{
	unsigned k;

	for (k = 0; k < arity; k++)
		if (!df_val_eq(a->v[k], b->v[k]))
			return false;
	return true;
}

static void
df_rel_rehash(struct df_rel *r, size_t nslots)
{
	size_t i;

	free(r->slots);
	r->slots = calloc(nslots, sizeof *r->slots);
	if (r->slots == NULL)
		ck_abort_msg("differential test: out of memory");
	r->nslots = nslots;
	for (i = 0; i < r->n; i++) {
		size_t pos = 0;

		/* every tuple of a relation has the relation's arity; hash
		 * all columns, the unused ones are zero */
		pos = (size_t)df_tuple_hash(&r->t[i], DF_MAX_ARITY) &
		      (nslots - 1);
		while (r->slots[pos] != 0)
			pos = (pos + 1) & (nslots - 1);
		r->slots[pos] = (uint32_t)(i + 1);
	}
}

/* The hash slot of t, or of the empty place where it would go. */
static size_t
df_rel_slot(const struct df_rel *r, const struct df_tuple *t)
{
	size_t pos = (size_t)df_tuple_hash(t, DF_MAX_ARITY) & (r->nslots - 1);

	while (r->slots[pos] != 0 &&
	       !df_tuple_eq(&r->t[r->slots[pos] - 1], t, DF_MAX_ARITY))
		pos = (pos + 1) & (r->nslots - 1);
	return pos;
}

static bool
df_rel_has(const struct df_rel *r, const struct df_tuple *t)
{
	return r->nslots > 0 && r->slots[df_rel_slot(r, t)] != 0;
}

/* Adds t (whose columns past the arity must be zero) unless it is there;
 * returns whether it was new. */
static bool
df_rel_add(struct df_rel *r, const struct df_tuple *t)
{
	size_t pos;

	if ((r->n + 1) * 2 > r->nslots)
		df_rel_rehash(r, r->nslots == 0 ? 64 : r->nslots * 2);
	pos = df_rel_slot(r, t);
	if (r->slots[pos] != 0)
		return false;
	if (r->n == r->cap) {
		r->cap = r->cap == 0 ? 16 : r->cap * 2;
		r->t = df_xrealloc(r->t, r->cap * sizeof *r->t);
	}
	r->t[r->n] = *t;
	r->slots[pos] = (uint32_t)(r->n + 1);
	r->n++;
	return true;
}

static void
df_rel_free(struct df_rel *r)
{
	free(r->t);
	free(r->slots);
	memset(r, 0, sizeof *r);
}

static int
df_tuple_cmp(const void *a, const void *b)
{
	const struct df_tuple *x = a, *y = b;
	unsigned k;
	int c;

	for (k = 0; k < DF_MAX_ARITY; k++)
		if ((c = df_val_cmp(x->v[k], y->v[k])) != 0)
			return c;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Evaluation */

/* The result of a naive evaluation: one relation per predicate. */
struct df_naive {
	struct df_rel rel[DF_MAX_PREDS];
	/* derived in the current round, added when it ends: so a round
	 * reads only what earlier rounds derived, and the number of rounds
	 * is the depth of the deepest derivation */
	struct df_rel next[DF_MAX_PREDS];
	unsigned long long work;  /* tuples visited */
	unsigned long long limit; /* beyond it the case is given up */
	bool too_big;
	bool changed;
	unsigned rounds;        /* the most rounds one group needed */
	const char *type_error; /* a generator bug: an ill-typed built-in */
};

struct df_env {
	struct df_val v[DF_MAX_VARS];
	bool bound[DF_MAX_VARS];
};

static const struct df_string *
df_str(struct df_val v)
{
	return &df_strings[v.x];
}

/* Bytewise, then by length: "ab" < "abc" < "b"; bytes are unsigned. */
static int
df_str_order(struct df_val a, struct df_val b)
{
	const struct df_string *x = df_str(a), *y = df_str(b);
	size_t i;

	for (i = 0; i < x->len && i < y->len; i++) {
		unsigned char p = (unsigned char)x->bytes[i];
		unsigned char q = (unsigned char)y->bytes[i];

		if (p != q)
			return p < q ? -1 : 1;
	}
	if (x->len == y->len)
		return 0;
	return x->len < y->len ? -1 : 1;
}

static bool
df_compare(struct df_naive *nv, enum df_op op, struct df_val a, struct df_val b)
{
	int c;

	if (op == DF_EQ)
		return df_val_eq(a, b);
	if (op == DF_NE)
		return !df_val_eq(a, b);
	if (a.kind != b.kind) {
		nv->type_error = "ordering comparison of an integer with a "
				 "string";
		return false;
	}
	if (a.kind == DF_INT)
		c = a.x < b.x ? -1 : a.x > b.x;
	else
		c = df_str_order(a, b);
	switch (op) {
	case DF_LT:
		return c < 0;
	case DF_LE:
		return c <= 0;
	case DF_GT:
		return c > 0;
	case DF_GE:
		return c >= 0;
	default:
		return false;
	}
}

static bool
df_call(struct df_naive *nv, const struct df_lit *l, struct df_val t,
	struct df_val a)
{
	const struct df_string *s, *p;
	size_t i;

	if (t.kind != DF_STR ||
	    (l->builtin != DF_RE_MATCH && a.kind != DF_STR)) {
		nv->type_error = "string built-in applied to an integer";
		return false;
	}
	s = df_str(t);
	if (l->builtin == DF_RE_MATCH)
		return df_patterns[l->pattern].match(s->bytes, s->len);
	p = df_str(a);
	switch (l->builtin) {
	case DF_PREFIX:
		if (p->len > s->len)
			return false;
		for (i = 0; i < p->len; i++)
			if (s->bytes[i] != p->bytes[i])
				return false;
		return true;
	case DF_SUFFIX:
		if (p->len > s->len)
			return false;
		for (i = 0; i < p->len; i++)
			if (s->bytes[s->len - p->len + i] != p->bytes[i])
				return false;
		return true;
	case DF_CONTAINS:
		return df_has(s->bytes, s->len, p->bytes, p->len);
	default:
		return false;
	}
}

/* The value of a bound term (a constant, or a bound variable). */
static struct df_val
df_term_val(const struct df_term *t, const struct df_env *e)
{
	return t->kind == DF_T_CONST ? t->c : e->v[t->var];
}

static bool
df_term_bound(const struct df_term *t, const struct df_env *e)
{
	return t->kind == DF_T_CONST ||
	       (t->kind == DF_T_VAR && e->bound[t->var]);
}

/* Matches a tuple against atom arguments, binding free variables in e. */
static bool
df_match(const struct df_lit *l, unsigned arity, const struct df_tuple *t,
	 struct df_env *e)
{
	unsigned k;

	for (k = 0; k < arity; k++) {
		const struct df_term *a = &l->a[k];

		if (a->kind == DF_T_ANON)
			continue;
		if (a->kind == DF_T_CONST) {
			if (!df_val_eq(a->c, t->v[k]))
				return false;
		} else if (e->bound[a->var]) {
			if (!df_val_eq(e->v[a->var], t->v[k]))
				return false;
		} else {
			e->v[a->var] = t->v[k];
			e->bound[a->var] = true;
		}
	}
	return true;
}

/* a op b on 64-bit two's complement, written out bit by bit where C's
 * signed operators would be undefined - the test's own arithmetic, not
 * the engine's */
static int64_t
df_arith(enum df_arith op, int64_t a, int64_t b)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b, r = 1;
	int64_t i;

	switch (op) {
	case DF_A_ADD:
		return (int64_t)(ua + ub);
	case DF_A_SUB:
		return (int64_t)(ua - ub);
	case DF_A_MUL:
		return (int64_t)(ua * ub);
	case DF_A_DIV: /* b != 0; the one overflow wraps to a */
		return b == -1 ? (int64_t)(0 - ua) : a / b;
	case DF_A_MOD:
		return b == -1 ? 0 : a % b;
	case DF_A_POW: /* 0 <= b <= 5 */
		for (i = 0; i < b; i++)
			r *= ua;
		return (int64_t)r;
	case DF_A_BAND:
		return (int64_t)(ua & ub);
	case DF_A_BOR:
		return (int64_t)(ua | ub);
	case DF_A_BXOR:
		return (int64_t)(ua ^ ub);
	case DF_A_BSHL: /* 0 <= b <= 63 */
		return (int64_t)(ua << b);
	case DF_A_BSHR: /* the sign bit copied into each vacated bit */
		for (i = 0; i < b; i++)
			ua = (ua >> 1) | (ua & (UINT64_C(1) << 63));
		return (int64_t)ua;
	case DF_A_BSHRU:
		return (int64_t)(ua >> b);
	case DF_A_LAND:
		return a != 0 && b != 0 ? 1 : 0;
	case DF_A_LOR:
		return a != 0 || b != 0 ? 1 : 0;
	case DF_A_LXOR:
		return (a != 0) != (b != 0) ? 1 : 0;
	case DF_A_UDIV: /* b != 0 */
		return (int64_t)(ua / ub);
	case DF_A_UMOD:
		return (int64_t)(ua % ub);
	case DF_A_UBSHR: /* 0 <= b <= 63: zeros fill in */
		return (int64_t)(ua >> b);
	default:
		ck_abort_msg("differential: arithmetic operator %d", (int)op);
	}
	return 0;
}

/* Souffle's substr (C++'s std::string::substr with the index and length
 * converted to size_t): a start past the end, or negative, gives "" and a
 * length past the end, or negative, runs to the end.  Writes the cut's
 * start and length. */
static void
df_substr(const struct df_string *s, int64_t i, int64_t n, size_t *at,
	  size_t *len)
{
	if (i < 0 || (uint64_t)i > s->len) {
		*at = 0;
		*len = 0;
		return;
	}
	*at = (size_t)i;
	*len = n < 0 || (uint64_t)n > s->len - *at ? s->len - *at : (size_t)n;
}

/* A functor literal's value (FUNC forms V = ...), or, for the forms that
 * compare with a bound string (CATEQ, SUBEQ), whether they hold: *held. */
static struct df_val
df_func(const struct df_lit *l, struct df_val x, struct df_val y,
	struct df_val c, bool *held)
{
	struct df_val v = {DF_INT, 0};
	const struct df_string *a, *b, *s;
	size_t at, len, i;

	*held = true;
	switch ((enum df_func)l->builtin) {
	case DF_F_STRLEN:
		v.x = (int64_t)df_str(x)->len;
		return v;
	case DF_F_MIN:
		return x.x <= y.x ? x : y;
	case DF_F_MAX:
		return x.x >= y.x ? x : y;
	case DF_F_SMIN:
		return df_str_order(x, y) <= 0 ? x : y;
	case DF_F_SMAX:
		return df_str_order(x, y) >= 0 ? x : y;
	case DF_F_CATLEN:
		v.x = (int64_t)(df_str(x)->len + df_str(y)->len);
		return v;
	case DF_F_CATEQ:
		a = df_str(x);
		b = df_str(y);
		s = df_str(c);
		*held = s->len == a->len + b->len;
		for (i = 0; *held && i < a->len; i++)
			*held = s->bytes[i] == a->bytes[i];
		for (i = 0; *held && i < b->len; i++)
			*held = s->bytes[a->len + i] == b->bytes[i];
		return c;
	case DF_F_SUBLEN:
		df_substr(df_str(x), DF_SUB_I(l), DF_SUB_N(l), &at, &len);
		v.x = (int64_t)len;
		return v;
	case DF_F_SUBEQ:
		a = df_str(x);
		s = df_str(c);
		df_substr(a, DF_SUB_I(l), DF_SUB_N(l), &at, &len);
		*held = s->len == len;
		for (i = 0; *held && i < len; i++)
			*held = s->bytes[i] == a->bytes[at + i];
		return c;
	case DF_NFUNC:
		break;
	}
	ck_abort_msg("differential: unknown functor");
	return v;
}

static void
df_eval_body(struct df_naive *nv, const struct df_case *c,
	     const struct df_rule *r, unsigned k, const struct df_env *env)
{
	const struct df_lit *l;
	struct df_env e;
	size_t i, n;

	if (nv->too_big || nv->type_error != NULL)
		return;
	if (k == r->nbody) {
		const struct df_pred *p = &c->preds[r->head];
		struct df_tuple t;
		unsigned j;

		memset(&t, 0, sizeof t);
		for (j = 0; j < p->arity; j++)
			t.v[j] = df_term_val(&r->h[j], env);
		if (!df_rel_has(&nv->rel[r->head], &t))
			(void)df_rel_add(&nv->next[r->head], &t);
		return;
	}
	l = &r->body[k];
	switch (l->kind) {
	case DF_L_POS: {
		const struct df_rel *rel = &nv->rel[l->pred];
		unsigned arity = c->preds[l->pred].arity;

		n = rel->n;
		for (i = 0; i < n; i++) {
			if (++nv->work > nv->limit) {
				nv->too_big = true;
				return;
			}
			e = *env;
			if (df_match(l, arity, &rel->t[i], &e))
				df_eval_body(nv, c, r, k + 1, &e);
		}
		return;
	}
	case DF_L_NEG: {
		const struct df_rel *rel = &nv->rel[l->pred];
		unsigned arity = c->preds[l->pred].arity;

		for (i = 0; i < rel->n; i++) {
			nv->work++;
			e = *env;
			if (df_match(l, arity, &rel->t[i], &e))
				return; /* a witness: not(...) fails */
		}
		df_eval_body(nv, c, r, k + 1, env);
		return;
	}
	case DF_L_CMP:
		e = *env;
		/* X = t binds X when only one side has a value */
		if (l->op == DF_EQ && !df_term_bound(&l->a[0], &e)) {
			e.v[l->a[0].var] = df_term_val(&l->a[1], &e);
			e.bound[l->a[0].var] = true;
		} else if (l->op == DF_EQ && !df_term_bound(&l->a[1], &e)) {
			e.v[l->a[1].var] = df_term_val(&l->a[0], &e);
			e.bound[l->a[1].var] = true;
		} else if (!df_compare(nv, (enum df_op)l->op,
				       df_term_val(&l->a[0], &e),
				       df_term_val(&l->a[1], &e))) {
			return;
		}
		df_eval_body(nv, c, r, k + 1, &e);
		return;
	case DF_L_CALL: {
		struct df_val none = {DF_STR, 0};
		bool v = df_call(nv, l, df_term_val(&l->a[0], env),
				 l->builtin == DF_RE_MATCH
				     ? none
				     : df_term_val(&l->a[1], env));

		if (v != l->negated)
			df_eval_body(nv, c, r, k + 1, env);
		return;
	}
	case DF_L_ARITH: {
		struct df_val x = df_term_val(&l->a[1], env);
		struct df_val y = df_term_val(&l->a[2], env);
		struct df_val v = {DF_INT, 0};

		if (x.kind != DF_INT || y.kind != DF_INT)
			ck_abort_msg("differential: arithmetic on a string");
		v.x = df_arith((enum df_arith)l->builtin, x.x, y.x);
		e = *env;
		if (e.bound[l->a[0].var]) {
			if (!df_val_eq(e.v[l->a[0].var], v))
				return;
		} else {
			e.v[l->a[0].var] = v;
			e.bound[l->a[0].var] = true;
		}
		df_eval_body(nv, c, r, k + 1, &e);
		return;
	}
	case DF_L_FUNC: {
		struct df_val x = df_term_val(&l->a[1], env);
		struct df_val y = df_term_val(&l->a[2], env);
		struct df_val cv =
		    l->a[0].kind == DF_T_VAR && env->bound[l->a[0].var]
			? df_term_val(&l->a[0], env)
			: x;
		bool held;
		struct df_val v = df_func(l, x, y, cv, &held);

		if (!held)
			return;
		e = *env;
		if (e.bound[l->a[0].var]) {
			if (!df_val_eq(e.v[l->a[0].var], v))
				return;
		} else {
			e.v[l->a[0].var] = v;
			e.bound[l->a[0].var] = true;
		}
		df_eval_body(nv, c, r, k + 1, &e);
		return;
	}
	case DF_L_AGG: {
		/* the relation is a lower group's: complete here */
		const struct df_rel *rel = &nv->rel[l->pred];
		unsigned arity = c->preds[l->pred].arity;
		struct df_val v = {DF_INT, 0};
		bool any = false;

		for (i = 0; i < rel->n; i++) {
			int64_t x;

			nv->work++;
			e = *env;
			if (!df_match(l, arity, &rel->t[i], &e))
				continue;
			x = rel->t[i].v[l->col].x;
			if (l->builtin != DF_AG_COUNT &&
			    rel->t[i].v[l->col].kind != DF_INT)
				ck_abort_msg("differential: sum of a string");
			switch (l->builtin) {
			case DF_AG_COUNT:
				v.x++;
				break;
			case DF_AG_SUM:
				v.x = (int64_t)((uint64_t)v.x + (uint64_t)x);
				break;
			case DF_AG_MIN:
				if (!any || x < v.x)
					v.x = x;
				break;
			default:
				if (!any || x > v.x)
					v.x = x;
				break;
			}
			any = true;
		}
		if (!any &&
		    (l->builtin == DF_AG_MIN || l->builtin == DF_AG_MAX))
			return;
		e = *env;
		if (e.bound[l->res.var]) {
			if (!df_val_eq(e.v[l->res.var], v))
				return;
		} else {
			e.v[l->res.var] = v;
			e.bound[l->res.var] = true;
		}
		df_eval_body(nv, c, r, k + 1, &e);
		return;
	}
	default:
		return;
	}
}

static void
df_naive_free(struct df_naive *nv)
{
	unsigned i;

	for (i = 0; i < DF_MAX_PREDS; i++) {
		df_rel_free(&nv->rel[i]);
		df_rel_free(&nv->next[i]);
	}
}

/* Closes eqrel relation i under symmetry, reflexivity and transitivity,
 * the way its definition reads (pairs of pairs until nothing is new), not
 * the way the engine does it; counts its work against the limit. */
static void
df_eqrel_close(struct df_naive *nv, unsigned i)
{
	struct df_rel *r = &nv->rel[i];
	bool grew = true;
	size_t a, b;

	while (grew && !nv->too_big) {
		grew = false;
		for (a = 0; a < r->n && !nv->too_big; a++) {
			struct df_tuple x = r->t[a], t;

			memset(&t, 0, sizeof t);
			t.v[0] = x.v[1];
			t.v[1] = x.v[0];
			grew |= df_rel_add(r, &t);
			t.v[1] = x.v[1];
			grew |= df_rel_add(r, &t);
			t.v[0] = x.v[0];
			t.v[1] = x.v[0];
			grew |= df_rel_add(r, &t);
			for (b = 0; b < r->n; b++) {
				if (++nv->work > nv->limit) {
					nv->too_big = true;
					break;
				}
				if (df_val_cmp(r->t[b].v[0], x.v[1]) != 0)
					continue;
				t.v[0] = x.v[0];
				t.v[1] = r->t[b].v[1];
				grew |= df_rel_add(r, &t);
			}
		}
		nv->changed |= grew;
	}
}

/* Evaluates the case for solve number `solve` (its input facts, plus every
 * fact of the program).  On return nv->too_big or nv->type_error may be
 * set; otherwise each relation is complete and sorted. */
static void
df_naive_eval(struct df_naive *nv, const struct df_case *c, unsigned solve,
	      unsigned long long limit)
{
	struct df_env env;
	unsigned i, g;
	size_t f;

	memset(nv, 0, sizeof *nv);
	nv->limit = limit;
	for (i = 0; i < c->npreds; i++)
		for (f = 0; f < c->preds[i].nfacts; f++)
			(void)df_rel_add(&nv->rel[i], &c->preds[i].facts[f]);
	for (f = 0; f < c->nedb[solve]; f++)
		(void)df_rel_add(&nv->rel[c->edb[solve][f].pred],
				 &c->edb[solve][f].t);
	memset(&env, 0, sizeof env);
	for (g = 0; g < c->ngroups; g++) {
		unsigned rounds = 0;

		do {
			if (++rounds > nv->rounds)
				nv->rounds = rounds;
			nv->changed = false;
			for (i = 0; i < c->npreds; i++)
				if (c->preds[i].eqrel && c->preds[i].group == g)
					df_eqrel_close(nv, i);
			if (nv->too_big)
				return;
			for (i = 0; i < c->nrules; i++) {
				const struct df_rule *r = &c->rules[i];

				if (c->preds[r->head].group == g)
					df_eval_body(nv, c, r, 0, &env);
				if (nv->too_big || nv->type_error != NULL)
					return;
			}
			for (i = 0; i < c->npreds; i++) {
				struct df_rel *x = &nv->next[i];
				size_t j;

				for (j = 0; j < x->n; j++)
					nv->changed |=
					    df_rel_add(&nv->rel[i], &x->t[j]);
				df_rel_free(x);
			}
		} while (nv->changed);
	}
	for (i = 0; i < c->npreds; i++)
		if (nv->rel[i].n > 0) /* t may be NULL, which qsort refuses */
			qsort(nv->rel[i].t, nv->rel[i].n, sizeof *nv->rel[i].t,
			      df_tuple_cmp);
	/* the hash slots point into the unsorted order: drop them */
	for (i = 0; i < c->npreds; i++) {
		free(nv->rel[i].slots);
		nv->rel[i].slots = NULL;
		nv->rel[i].nslots = 0;
	}
}

/* Whether a sorted relation holds t (binary search). */
static bool
df_sorted_has(const struct df_rel *r, const struct df_tuple *t)
{
	return r->n > 0 &&
	       bsearch(t, r->t, r->n, sizeof *r->t, df_tuple_cmp) != NULL;
}
