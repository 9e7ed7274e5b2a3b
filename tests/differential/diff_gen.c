/* SPDX-License-Identifier: MIT */
/*
 * The generator of the differential test: one random case (a program over
 * a handful of predicates, its facts, and the input facts of a few solves)
 * from (seed, case number), as the struct df_case the naive evaluator
 * reads and as the program text the engine reads.
 *
 * Programs are valid by construction, so any load error is an engine bug:
 *   - stratified: predicates are grouped in index order; a rule uses
 *     predicates of its own group or lower ones positively (recursion,
 *     mutual and non-linear recursion inside a group), lower groups only
 *     under negation;
 *   - range-restricted: a body is generated literal by literal, and each
 *     literal only tests variables that an earlier positive literal (or an
 *     earlier X = t) bound; the head only uses bound variables;
 *   - well-typed in every join order: every column holds integers only,
 *     strings only, or both (ANY).  A variable of an INT or STR column is
 *     only bound by columns and = terms of its own type, so whichever
 *     literal the engine joins first, ordering comparisons and string
 *     built-ins (only generated on such variables) never meet the other
 *     kind and STATUS_TYPE cannot arise.  ANY variables meet only joins,
 *     =, != and negation; != may compare any two kinds.
 * The body is then written in a shuffled order, which the engine must not
 * care about.
 *
 * Included by check_datalog_differential.c after diff_print.c.
 */

enum df_use {
	DF_USE_POS,   /* a positive atom, which may bind the variable */
	DF_USE_NEG,   /* a negated atom: only tests, any kinds may meet */
	DF_USE_HEAD,  /* a head column: the column's kind must hold */
	DF_USE_EXACT, /* an ordering or string test, = : exactly this type */
};

/* The variables of the rule being generated: all bound, by construction. */
struct df_scope {
	unsigned nvars;
	uint8_t type[DF_MAX_VARS];
};

static bool
df_var_fits(uint8_t vt, uint8_t col, enum df_use use)
{
	switch (use) {
	case DF_USE_POS:
		/* an INT variable in an ANY column could be bound to a
		 * string there if the engine joins that atom first */
		return vt == col || vt == DF_TY_ANY;
	case DF_USE_NEG:
		return vt == col || col == DF_TY_ANY || vt == DF_TY_ANY;
	case DF_USE_HEAD:
		return vt == col || col == DF_TY_ANY;
	case DF_USE_EXACT:
		return vt == col;
	}
	return false;
}

/* A random variable that fits, or -1. */
static int
df_pick_var(struct df_case *c, const struct df_scope *sc, uint8_t col,
	    enum df_use use)
{
	unsigned v, n = 0, k;

	for (v = 0; v < sc->nvars; v++)
		n += df_var_fits(sc->type[v], col, use);
	if (n == 0)
		return -1;
	k = df_below(&c->rng, n);
	for (v = 0; v < sc->nvars; v++)
		if (df_var_fits(sc->type[v], col, use) && k-- == 0)
			return (int)v;
	return -1;
}

static struct df_term
df_var_term(unsigned v)
{
	struct df_term t;

	memset(&t, 0, sizeof t);
	t.kind = DF_T_VAR;
	t.var = (uint8_t)v;
	return t;
}

static struct df_term
df_new_var(struct df_scope *sc, uint8_t type)
{
	sc->type[sc->nvars] = type;
	return df_var_term(sc->nvars++);
}

static struct df_term
df_anon_term(void)
{
	struct df_term t;

	memset(&t, 0, sizeof t);
	t.kind = DF_T_ANON;
	return t;
}

/* A value of a column type.  `text`: it will be written in the program, so
 * no NUL byte.  `wide`: any value of the pools, most of which no relation
 * holds (constants that never match). */
static struct df_val
df_gen_val(struct df_case *c, uint8_t type, bool text, bool wide)
{
	struct df_val v;

	if (type == DF_TY_ANY)
		type = df_chance(&c->rng, 50) ? DF_TY_INT : DF_TY_STR;
	v.kind = type == DF_TY_INT ? DF_INT : DF_STR;
	if (type == DF_TY_INT) {
		v.x = wide ? df_ints[df_below(&c->rng, DF_NINTS)]
			   : df_ints[c->ints[df_below(&c->rng, c->nints)]];
		return v;
	}
	for (;;) {
		unsigned i = wide ? df_below(&c->rng, DF_NSTRINGS)
				  : c->strs[df_below(&c->rng, c->nstrs)];

		if (!text || df_strings[i].in_text) {
			v.x = (int64_t)i;
			return v;
		}
	}
}

static struct df_term
df_const_term(struct df_case *c, uint8_t type)
{
	struct df_term t;

	memset(&t, 0, sizeof t);
	t.kind = DF_T_CONST;
	t.c = df_gen_val(c, type, true, df_chance(&c->rng, 8));
	return t;
}

static void
df_gen_tuple(struct df_case *c, const struct df_pred *p, bool text, bool wide,
	     struct df_tuple *t)
{
	unsigned k;

	memset(t, 0, sizeof *t);
	for (k = 0; k < p->arity; k++)
		t->v[k] = df_gen_val(c, p->type[k], text,
				     wide && df_chance(&c->rng, 50));
}

/* The case's domain: a few strings and integers, so that joins hit. */
static void
df_gen_domain(struct df_case *c)
{
	unsigned most = c->big ? DF_MAX_DOM : 8, want, i, k, ntext = 0;

	want = 2 + df_below(&c->rng, most - 1);
	while (c->nstrs < want || ntext < 2) {
		unsigned s = df_below(&c->rng, DF_NSTRINGS);

		for (k = 0; k < c->nstrs && c->strs[k] != s; k++)
			;
		if (k < c->nstrs || c->nstrs == DF_MAX_DOM)
			continue;
		c->strs[c->nstrs++] = (uint8_t)s;
		ntext += df_strings[s].in_text;
	}
	want = 2 + df_below(&c->rng, most - 1);
	while (c->nints < want) {
		/* mostly small integers, some from the edges */
		i = df_chance(&c->rng, 70) ? df_below(&c->rng, 8)
					   : df_below(&c->rng, DF_NINTS);
		for (k = 0; k < c->nints && c->ints[k] != i; k++)
			;
		if (k == c->nints)
			c->ints[c->nints++] = (uint8_t)i;
	}
}

static void
df_gen_preds(struct df_case *c)
{
	/* one type for every column in most cases: chains of joins (and so
	 * deep recursion) need columns that fit together */
	unsigned mode = df_below(&c->rng, 100), i, k;

	c->npreds = (uint8_t)(2 + df_below(&c->rng, DF_GEN_PREDS - 1));
	for (i = 0; i < c->npreds; i++) {
		struct df_pred *p = &c->preds[i];
		unsigned r = df_below(&c->rng, 100);

		(void)snprintf(p->name, sizeof p->name, "p%u", i);
		p->arity = r < 10 ? 0 : r < 40 ? 1 : r < 75 ? 2 : 3;
		for (k = 0; k < p->arity; k++) {
			r = df_below(&c->rng, 100);
			if (mode < 30)
				r = 0; /* INT */
			else if (mode < 60)
				r = 50; /* STR */
			else if (mode < 70)
				r = 90; /* ANY */
			p->type[k] = r < 40   ? DF_TY_INT
				     : r < 85 ? DF_TY_STR
					      : DF_TY_ANY;
		}
		/* p0 is always an input (or fact-only) predicate, so the
		 * first rules have something to read */
		p->has_rules = i > 0 && df_chance(&c->rng, 70);
		if (p->has_rules)
			p->input = !c->all_text && df_chance(&c->rng, 15);
		else
			p->input = !c->all_text && df_chance(&c->rng, 80);
		if (i == 0)
			p->group = 0;
		else if (p->has_rules && c->preds[i - 1].has_rules &&
			 df_chance(&c->rng, 40))
			p->group = c->preds[i - 1].group;
		else
			p->group = (uint8_t)(c->preds[i - 1].group + 1);
	}
	c->ngroups = (uint8_t)(c->preds[c->npreds - 1].group + 1);
	/* some binary predicates are eqrel: chosen from a stream of their
	 * own, so the rest of every case is what it was without them */
	for (i = 0; i < c->npreds; i++) {
		struct df_pred *p = &c->preds[i];
		uint64_t h = df_mix64(c->rng.s ^ UINT64_C(0x6571726571726571) ^
				      (uint64_t)i);

		p->eqrel = p->arity == 2 && p->type[0] == p->type[1] &&
			   h % 100 < 20;
	}
}

static void
df_gen_pfacts(struct df_case *c)
{
	unsigned i, n, f;

	for (i = 0; i < c->npreds; i++) {
		struct df_pred *p = &c->preds[i];

		if (!p->has_rules && !p->input)
			n = df_below(&c->rng, c->big ? DF_MAX_PFACTS : 14);
		else if (df_chance(&c->rng, p->has_rules ? 40 : 10))
			n = 1 + df_below(&c->rng, 3);
		else
			n = 0;
		for (f = 0; f < n && p->nfacts < DF_MAX_PFACTS; f++) {
			/* a fact written twice is still one tuple */
			if (p->nfacts > 0 && df_chance(&c->rng, 15))
				p->facts[p->nfacts] =
				    p->facts[df_below(&c->rng, p->nfacts)];
			else
				df_gen_tuple(c, p, true, false,
					     &p->facts[p->nfacts]);
			p->nfacts++;
		}
	}
}

/* The input facts of every solve: a few per .input predicate, some
 * duplicated, the predicates interleaved. */
static void
df_gen_edb(struct df_case *c)
{
	unsigned s, i, f, n;

	c->nsolves =
	    c->all_text ? 1 + df_below(&c->rng, 2) : 1 + df_below(&c->rng, 4);
	for (s = 0; s < c->nsolves; s++) {
		struct df_fact *e = c->edb[s];
		size_t *ne = &c->nedb[s];

		if (s > 0 && s + 1 == c->nsolves && df_chance(&c->rng, 15)) {
			/* the same question again, after other ones */
			memcpy(e, c->edb[0], c->nedb[0] * sizeof *e);
			*ne = c->nedb[0];
			continue;
		}
		for (i = 0; i < c->npreds; i++) {
			const struct df_pred *p = &c->preds[i];

			if (!p->input)
				continue;
			n = df_chance(&c->rng, 30) ? df_below(&c->rng, 4)
			    : c->big               ? df_below(&c->rng, 70)
						   : df_below(&c->rng, 16);
			for (f = 0; f < n && *ne < DF_MAX_EDB; f++) {
				e[*ne].pred = (uint8_t)i;
				df_gen_tuple(c, p, false, false, &e[*ne].t);
				(*ne)++;
				if (df_chance(&c->rng, 20) &&
				    *ne < DF_MAX_EDB) {
					e[*ne] = e[*ne - 1 -
						   df_below(&c->rng, 1 + f)];
					(*ne)++;
				}
			}
		}
		for (i = 0; *ne > 1 && i < *ne; i++) {
			size_t j = i + df_below(&c->rng, (unsigned)(*ne - i));
			struct df_fact tmp = e[i];

			e[i] = e[j];
			e[j] = tmp;
		}
	}
}

/* A predicate a rule of `head` may use positively: its own group
 * (recursion) or a lower one. */
static unsigned
df_pick_pos_pred(struct df_case *c, unsigned head)
{
	unsigned g = c->preds[head].group, cand[DF_MAX_PREDS], n = 0, i;
	bool own = df_chance(&c->rng, 35);

	for (i = 0; i < c->npreds; i++)
		if (own ? c->preds[i].group == g : c->preds[i].group < g)
			cand[n++] = i;
	if (n == 0)
		for (i = 0; i < c->npreds; i++)
			if (c->preds[i].group <= g)
				cand[n++] = i;
	return cand[df_below(&c->rng, n)];
}

static int
df_pick_neg_pred(struct df_case *c, unsigned head)
{
	unsigned g = c->preds[head].group, cand[DF_MAX_PREDS], n = 0, i;

	for (i = 0; i < c->npreds; i++)
		if (c->preds[i].group < g)
			cand[n++] = i;
	return n == 0 ? -1 : (int)cand[df_below(&c->rng, n)];
}

static void
df_gen_pos(struct df_case *c, struct df_scope *sc, unsigned pred,
	   struct df_lit *l)
{
	const struct df_pred *p = &c->preds[pred];
	unsigned k;

	/* most atoms after the first share a variable with what came
	 * before: a join rather than a cross product */
	unsigned join = p->arity > 0 && df_chance(&c->rng, 80)
			    ? df_below(&c->rng, p->arity)
			    : DF_MAX_ARITY;

	l->kind = DF_L_POS;
	l->pred = (uint8_t)pred;
	for (k = 0; k < p->arity; k++) {
		int v = df_pick_var(c, sc, p->type[k], DF_USE_POS);
		unsigned r;

		/* an old variable: a join, or p(X, X) within the atom */
		if (v >= 0 && (k == join || df_chance(&c->rng, 30))) {
			l->a[k] = df_var_term((unsigned)v);
			continue;
		}
		r = df_below(&c->rng, 100);
		if (r < 12)
			l->a[k] = df_const_term(c, p->type[k]);
		else if (r < 24 || sc->nvars == DF_MAX_VARS)
			l->a[k] = df_anon_term();
		else
			l->a[k] = df_new_var(sc, p->type[k]);
	}
}

static void
df_gen_neg(struct df_case *c, struct df_scope *sc, unsigned pred,
	   struct df_lit *l)
{
	const struct df_pred *p = &c->preds[pred];
	unsigned k;

	l->kind = DF_L_NEG;
	l->pred = (uint8_t)pred;
	for (k = 0; k < p->arity; k++) {
		int v = df_pick_var(c, sc, p->type[k], DF_USE_NEG);
		unsigned r = df_below(&c->rng, 100);

		if (v >= 0 && r < 50)
			l->a[k] = df_var_term((unsigned)v);
		else if (r < 70)
			l->a[k] = df_const_term(c, p->type[k]);
		else
			l->a[k] = df_anon_term();
	}
}

/* A comparison; false when nothing sensible fits the scope. */
static bool
df_gen_cmp(struct df_case *c, struct df_scope *sc, struct df_lit *l)
{
	unsigned op = df_below(&c->rng, DF_NOPS);
	int v, w;

	l->kind = DF_L_CMP;
	l->op = (uint8_t)op;
	if (op == DF_EQ && sc->nvars < DF_MAX_VARS && df_chance(&c->rng, 50)) {
		/* New = bound term: a binding, written either way round */
		uint8_t type;

		v = sc->nvars > 0 && df_chance(&c->rng, 70)
			? (int)df_below(&c->rng, sc->nvars)
			: -1;
		if (v >= 0) {
			l->a[1] = df_var_term((unsigned)v);
			type = sc->type[v];
		} else {
			type = df_chance(&c->rng, 50) ? DF_TY_INT : DF_TY_STR;
			l->a[1] = df_const_term(c, type);
		}
		l->a[0] = df_new_var(sc, type);
		return true;
	}
	if (op == DF_EQ || op == DF_NE) {
		v = sc->nvars > 0 ? (int)df_below(&c->rng, sc->nvars) : -1;
		if (v < 0)
			return false;
		l->a[0] = df_var_term((unsigned)v);
		/* != never binds, so any kinds may meet (1 != "1" holds); the
		 * engine may turn X = Y into a binding of X, so = keeps to
		 * one type unless both sides are ANY */
		if (op == DF_NE) {
			w = sc->nvars > 1 && df_chance(&c->rng, 50)
				? (int)df_below(&c->rng, sc->nvars)
				: -1;
			l->a[1] = w >= 0 ? df_var_term((unsigned)w)
					 : df_const_term(c, DF_TY_ANY);
		} else {
			w = df_chance(&c->rng, 50)
				? df_pick_var(c, sc, sc->type[v], DF_USE_EXACT)
				: -1;
			l->a[1] = w >= 0 ? df_var_term((unsigned)w)
					 : df_const_term(c, sc->type[v]);
		}
	} else {
		uint8_t type = df_chance(&c->rng, 50) ? DF_TY_INT : DF_TY_STR;

		v = df_pick_var(c, sc, type, DF_USE_EXACT);
		if (v < 0) {
			type = type == DF_TY_INT ? DF_TY_STR : DF_TY_INT;
			v = df_pick_var(c, sc, type, DF_USE_EXACT);
		}
		if (v >= 0) {
			l->a[0] = df_var_term((unsigned)v);
		} else if (df_chance(&c->rng, 30)) {
			l->a[0] = df_const_term(c, type); /* 3 < 5 */
		} else {
			return false;
		}
		w = df_chance(&c->rng, 50)
			? df_pick_var(c, sc, type, DF_USE_EXACT)
			: -1;
		/* X < X now and then, not as a rule */
		if (w >= 0 && w == v && df_chance(&c->rng, 80))
			w = df_pick_var(c, sc, type, DF_USE_EXACT);
		l->a[1] =
		    w >= 0 ? df_var_term((unsigned)w) : df_const_term(c, type);
	}
	if (df_chance(&c->rng, 30)) {
		struct df_term t = l->a[0];

		l->a[0] = l->a[1];
		l->a[1] = t;
	}
	return true;
}

static bool
df_gen_call(struct df_case *c, struct df_scope *sc, struct df_lit *l)
{
	int v = df_pick_var(c, sc, DF_TY_STR, DF_USE_EXACT);
	bool const_text;

	l->kind = DF_L_CALL;
	l->builtin = (uint8_t)df_below(&c->rng, DF_NBUILTINS);
	l->negated = df_chance(&c->rng, 30);
	const_text = v < 0 || df_chance(&c->rng, 15);
	l->a[0] =
	    const_text ? df_const_term(c, DF_TY_STR) : df_var_term((unsigned)v);
	if (l->builtin == DF_RE_MATCH) {
		l->pattern = (uint8_t)df_below(&c->rng, DF_NPATTERNS);
		return !const_text || df_chance(&c->rng, 40);
	}
	v = df_pick_var(c, sc, DF_TY_STR, DF_USE_EXACT);
	if (v >= 0 && df_chance(&c->rng, 40))
		l->a[1] = df_var_term((unsigned)v);
	else if (const_text && df_chance(&c->rng, 60))
		return false; /* mostly not two constants */
	else
		l->a[1] = df_const_term(c, DF_TY_STR);
	return true;
}

/* V = A op B over numbers.  Only in a rule that reads an .input relation
 * (a positive literal before it): the engine computes a rule over the
 * program's own facts once per session, where a result beyond its inline
 * integer range is a LIMIT error by design, which the naive evaluator does
 * not model. */
static bool
df_gen_arith(struct df_case *c, struct df_scope *sc, const struct df_rule *r,
	     struct df_lit *l)
{
	static const int64_t divisors[] = {-3, -2, -1, 1, 2, 3, 7};
	unsigned op = df_below(&c->rng, DF_NARITH), i;
	int a, v;
	bool input = false;

	for (i = 0; i < r->nbody; i++)
		if (r->body[i].kind == DF_L_POS &&
		    c->preds[r->body[i].pred].input)
			input = true;
	a = df_pick_var(c, sc, DF_TY_INT, DF_USE_EXACT);
	if (!input || c->all_text || a < 0)
		return false;
	l->kind = DF_L_ARITH;
	l->builtin = (uint8_t)op;
	l->a[1] = df_var_term((unsigned)a);
	l->a[2] = df_const_term(c, DF_TY_INT);
	switch (op) {
	case DF_A_DIV:
	case DF_A_MOD:
	case DF_A_UDIV:
	case DF_A_UMOD:
		l->a[2].c.x = divisors[df_below(&c->rng, 7)];
		break;
	case DF_A_POW:
		l->a[2].c.x = df_below(&c->rng, 6);
		break;
	case DF_A_BSHL:
	case DF_A_BSHR:
	case DF_A_BSHRU:
	case DF_A_UBSHR:
		l->a[2].c.x = df_below(&c->rng, 64);
		break;
	default:
		v = df_pick_var(c, sc, DF_TY_INT, DF_USE_EXACT);
		if (v >= 0 && df_chance(&c->rng, 60))
			l->a[2] = df_var_term((unsigned)v);
		break;
	}
	/* mostly a new variable; now and then a bound one: a test */
	v = df_pick_var(c, sc, DF_TY_INT, DF_USE_EXACT);
	if (sc->nvars < DF_MAX_VARS && (v < 0 || df_chance(&c->rng, 80)))
		l->a[0] = df_new_var(sc, DF_TY_INT);
	else if (v >= 0)
		l->a[0] = df_var_term((unsigned)v);
	else
		return false;
	return true;
}

/* V = functor(...) (enum df_func) over strings and numbers bound before
 * it, in a rule that reads an .input relation as arithmetic is (a number
 * beyond the inline range from the program's own facts is a LIMIT error
 * by design).  Untyped columns give a functor no kind, so the string
 * min and max take a string constant, which makes them strings. */
static bool
df_gen_func(struct df_case *c, struct df_scope *sc, const struct df_rule *r,
	    struct df_lit *l)
{
	enum df_func f = (enum df_func)df_below(&c->rng, DF_NFUNC);
	bool input = false, strings = f != DF_F_MIN && f != DF_F_MAX;
	int a, b = -1;
	unsigned i;

	for (i = 0; i < r->nbody; i++)
		if (r->body[i].kind == DF_L_POS &&
		    c->preds[r->body[i].pred].input)
			input = true;
	a = df_pick_var(c, sc, strings ? DF_TY_STR : DF_TY_INT, DF_USE_EXACT);
	if (!input || c->all_text || a < 0 || sc->nvars >= DF_MAX_VARS)
		return false;
	l->kind = DF_L_FUNC;
	l->builtin = (uint8_t)f;
	l->a[1] = df_var_term((unsigned)a);
	l->a[2] = l->a[1];
	l->pattern =
	    (uint8_t)(df_below(&c->rng, 8) | (df_below(&c->rng, 8) << 3));
	switch (f) {
	case DF_F_MIN:
	case DF_F_MAX:
		b = df_pick_var(c, sc, DF_TY_INT, DF_USE_EXACT);
		l->a[2] = b >= 0 && df_chance(&c->rng, 60)
			      ? df_var_term((unsigned)b)
			      : df_const_term(c, DF_TY_INT);
		break;
	case DF_F_SMIN:
	case DF_F_SMAX:
		l->a[2] = df_const_term(c, DF_TY_STR);
		break;
	case DF_F_CATLEN:
	case DF_F_CATEQ:
		b = df_pick_var(c, sc, DF_TY_STR, DF_USE_EXACT);
		if (b >= 0 && df_chance(&c->rng, 70))
			l->a[2] = df_var_term((unsigned)b);
		break;
	default:
		break;
	}
	if (f == DF_F_CATEQ || f == DF_F_SUBEQ) {
		/* compared with a bound string: mostly one of the operands'
		 * kind, so that it holds now and then */
		b = df_pick_var(c, sc, DF_TY_STR, DF_USE_EXACT);
		if (b < 0)
			return false;
		l->a[0] = df_var_term((unsigned)b);
		return true;
	}
	l->a[0] = df_new_var(sc, f == DF_F_SMIN || f == DF_F_SMAX ? DF_TY_STR
								  : DF_TY_INT);
	return true;
}

/* res = agg : p(...) over a predicate of a lower group (complete when the
 * rule runs), grouped by variables bound before it.  Only in a rule that
 * reads input facts, as arithmetic is: a sum beyond the inline range is a
 * limit in a rule evaluated once per session. */
static bool
df_gen_agg(struct df_case *c, struct df_scope *sc, const struct df_rule *r,
	   struct df_lit *l)
{
	int np = df_pick_neg_pred(c, r->head), v;
	const struct df_pred *p;
	unsigned k, i;
	bool input = false;

	for (i = 0; i < r->nbody; i++)
		if (r->body[i].kind == DF_L_POS &&
		    c->preds[r->body[i].pred].input)
			input = true;
	if (np < 0 || !input || c->all_text)
		return false;
	p = &c->preds[np];
	if (p->arity == 0)
		return false;
	l->kind = DF_L_AGG;
	l->pred = (uint8_t)np;
	l->builtin = (uint8_t)df_below(&c->rng, DF_NAGG);
	l->col = (uint8_t)df_below(&c->rng, p->arity);
	if (l->builtin != DF_AG_COUNT && p->type[l->col] != DF_TY_INT)
		l->builtin = DF_AG_COUNT;
	for (k = 0; k < p->arity; k++) {
		unsigned r2 = df_below(&c->rng, 100);

		v = df_pick_var(c, sc, p->type[k], DF_USE_NEG);
		if (k == l->col)
			l->a[k] = df_anon_term();
		else if (v >= 0 && r2 < 50)
			l->a[k] = df_var_term((unsigned)v);
		else if (r2 < 65)
			l->a[k] = df_const_term(c, p->type[k]);
		else
			l->a[k] = df_anon_term();
	}
	/* mostly a new variable; now and then a bound one: a test */
	v = df_pick_var(c, sc, DF_TY_INT, DF_USE_EXACT);
	if (sc->nvars < DF_MAX_VARS && (v < 0 || df_chance(&c->rng, 85)))
		l->res = df_new_var(sc, DF_TY_INT);
	else if (v >= 0)
		l->res = df_var_term((unsigned)v);
	else
		return false;
	return true;
}

static unsigned
df_weighted(struct df_case *c, unsigned p0, unsigned p1)
{
	unsigned r = df_below(&c->rng, 100);

	return r < p0 ? 0 : r < p0 + p1 ? 1 : 2;
}

static void
df_rule_begin(struct df_case *c, struct df_rule *r, struct df_scope *sc,
	      unsigned head)
{
	unsigned k;

	memset(r, 0, sizeof *r);
	memset(sc, 0, sizeof *sc);
	r->head = (uint8_t)head;
	r->style = (uint8_t)df_below(&c->rng, 256);
	for (k = 0; k < DF_MAX_ARITY; k++)
		r->h[k] = df_anon_term(); /* to be filled by df_rule_end */
}

/* Appends literals of the given kinds, each over the variables bound
 * before it; a kind that fits nothing is left out. */
static void
df_rule_steps(struct df_case *c, struct df_rule *r, struct df_scope *sc,
	      const uint8_t *steps, unsigned nsteps)
{
	unsigned i;

	for (i = 0; i < nsteps && r->nbody < DF_MAX_BODY; i++) {
		struct df_lit *l = &r->body[r->nbody];
		bool ok = true;
		int np;

		memset(l, 0, sizeof *l);
		l->style = (uint8_t)df_below(&c->rng, 256);
		switch (steps[i]) {
		case DF_L_POS:
			df_gen_pos(c, sc, df_pick_pos_pred(c, r->head), l);
			break;
		case DF_L_NEG:
			np = df_pick_neg_pred(c, r->head);
			if (np < 0)
				ok = false;
			else
				df_gen_neg(c, sc, (unsigned)np, l);
			break;
		case DF_L_CMP:
			ok = df_gen_cmp(c, sc, l);
			break;
		case DF_L_ARITH:
			ok = df_gen_arith(c, sc, r, l);
			break;
		case DF_L_FUNC:
			ok = df_gen_func(c, sc, r, l);
			break;
		case DF_L_AGG:
			ok = df_gen_agg(c, sc, r, l);
			break;
		default:
			ok = df_gen_call(c, sc, l);
			break;
		}
		if (ok)
			r->nbody++;
	}
}

/* Random filters (negations, comparisons, built-ins) for a body; `few`
 * for the rules of a closure, which should still derive something. */
static unsigned
df_filter_steps(struct df_case *c, uint8_t *steps, unsigned n, bool few)
{
	unsigned i;

	for (i = few ? df_chance(&c->rng, 20) : df_weighted(c, 50, 35); i > 0;
	     i--)
		steps[n++] = DF_L_NEG;
	for (i = few ? df_chance(&c->rng, 20) : df_weighted(c, 45, 35); i > 0;
	     i--)
		steps[n++] = DF_L_CMP;
	for (i = few ? df_chance(&c->rng, 10) : df_weighted(c, 65, 30); i > 0;
	     i--)
		steps[n++] = DF_L_CALL;
	for (i = few ? df_chance(&c->rng, 15) : df_weighted(c, 55, 30); i > 0;
	     i--)
		steps[n++] = DF_L_ARITH;
	/* (the body's room bounds them: a body has at most DF_MAX_BODY) */
	for (i = few ? df_chance(&c->rng, 15) : df_weighted(c, 60, 30);
	     i > 0 && n < DF_MAX_BODY; i--)
		steps[n++] = DF_L_FUNC;
	/* the steps above fill DF_MAX_BODY at most: an aggregate where room
	 * is left */
	for (i = few ? df_chance(&c->rng, 10) : df_weighted(c, 70, 25);
	     i > 0 && n < DF_MAX_BODY; i--)
		steps[n++] = DF_L_AGG;
	return n;
}

/* Fills the head columns the caller left empty (kind ANON) and writes the
 * body in a shuffled order now and then. */
static void
df_rule_end(struct df_case *c, struct df_rule *r, struct df_scope *sc)
{
	const struct df_pred *hp = &c->preds[r->head];
	unsigned i, k;

	for (k = 0; k < hp->arity; k++) {
		int v = df_pick_var(c, sc, hp->type[k], DF_USE_HEAD);
		unsigned j;

		if (r->h[k].kind != DF_T_ANON)
			continue;
		/* mostly distinct variables: p(X, Y) more than p(X, X) */
		for (j = 0; j < k && v >= 0; j++)
			if (r->h[j].kind == DF_T_VAR && r->h[j].var == v &&
			    df_chance(&c->rng, 70))
				v = df_pick_var(c, sc, hp->type[k],
						DF_USE_HEAD);
		r->h[k] = v >= 0 && df_chance(&c->rng, 90)
			      ? df_var_term((unsigned)v)
			      : df_const_term(c, hp->type[k]);
	}
	r->nvars = (uint8_t)sc->nvars;
	for (i = 0; i < r->nbody; i++)
		r->order[i] = (uint8_t)i;
	if (df_chance(&c->rng, 70)) {
		for (i = 0; i + 1 < r->nbody; i++) {
			unsigned j = i + df_below(&c->rng, r->nbody - i);
			uint8_t t = r->order[i];

			r->order[i] = r->order[j];
			r->order[j] = t;
		}
	}
}

static void
df_gen_rule(struct df_case *c, unsigned head)
{
	struct df_rule *r = &c->rules[c->nrules++];
	uint8_t steps[DF_MAX_BODY];
	unsigned nsteps = 0, npos, i;
	struct df_scope sc;

	df_rule_begin(c, r, &sc, head);
	npos = 1 + df_below(&c->rng, 3) + df_chance(&c->rng, 8);
	for (i = 0; i < npos; i++)
		steps[nsteps++] = DF_L_POS;
	nsteps = df_filter_steps(c, steps, nsteps, false);
	/* the first literal is positive; the rest in any order */
	for (i = 1; i < nsteps; i++) {
		unsigned j = i + df_below(&c->rng, nsteps - i);
		uint8_t t = steps[i];

		steps[i] = steps[j];
		steps[j] = t;
	}
	df_rule_steps(c, r, &sc, steps, nsteps);
	df_rule_end(c, r, &sc);
}

/* An atom of `pred` with variable x in column a, y in column b and, in
 * the others, `rest` (the head's constant, or _). */
static void
df_chain_atom(struct df_case *c, struct df_lit *l, unsigned pred, unsigned a,
	      unsigned x, unsigned b, unsigned y, const struct df_term *rest)
{
	unsigned k;

	memset(l, 0, sizeof *l);
	l->kind = DF_L_POS;
	l->pred = (uint8_t)pred;
	l->style = (uint8_t)df_below(&c->rng, 256);
	for (k = 0; k < c->preds[pred].arity; k++)
		l->a[k] = k == a   ? df_var_term(x)
			  : k == b ? df_var_term(y)
				   : (rest != NULL && df_chance(&c->rng, 60)
					  ? *rest
					  : df_anon_term());
}

/* The rules of a transitive closure, so that fixpoints run deep:
 *   p(X, Y) :- q(X, Y).
 *   p(X, Z) :- p(X, Y), q(Y, Z).   or q(X, Y), p(Y, Z)   or p(X, Y), p(Y, Z)
 * with q a lower predicate (columns a, b of p's column type), a third
 * column of p carried as a constant, and random filters on top.  False if
 * no q fits. */
static bool
df_gen_chain(struct df_case *c, unsigned head)
{
	const struct df_pred *hp = &c->preds[head];
	unsigned cand[DF_MAX_PREDS * 6][3], n = 0, i, a, b, q, shape;
	uint8_t type = hp->type[0], steps[DF_MAX_BODY];
	struct df_term k2;
	struct df_scope sc;
	struct df_rule *r;

	if (hp->arity < 2 || hp->type[1] != type ||
	    c->nrules + 2 > DF_MAX_RULES)
		return false;
	for (i = 0; i < c->npreds; i++) {
		const struct df_pred *p = &c->preds[i];

		if (p->group >= hp->group)
			continue;
		for (a = 0; a < p->arity; a++)
			for (b = 0; b < p->arity; b++)
				if (a != b &&
				    df_var_fits(type, p->type[a], DF_USE_POS) &&
				    df_var_fits(type, p->type[b], DF_USE_POS)) {
					cand[n][0] = i;
					cand[n][1] = a;
					cand[n][2] = b;
					n++;
				}
	}
	if (n == 0)
		return false;
	i = df_below(&c->rng, n);
	q = cand[i][0];
	a = cand[i][1];
	b = cand[i][2];
	k2 = hp->arity == 3 ? df_const_term(c, hp->type[2]) : df_anon_term();
	/* p(X, Y, K) :- q(.. X .. Y ..). */
	r = &c->rules[c->nrules++];
	df_rule_begin(c, r, &sc, head);
	(void)df_new_var(&sc, type);
	(void)df_new_var(&sc, type);
	df_chain_atom(c, &r->body[r->nbody++], q, a, 0, b, 1, NULL);
	r->h[0] = df_var_term(0);
	r->h[1] = df_var_term(1);
	r->h[2] = k2;
	df_rule_steps(c, r, &sc, steps, df_filter_steps(c, steps, 0, true));
	df_rule_end(c, r, &sc);
	/* p(X, Z, K) :- p(X, Y, K), q(.. Y .. Z ..). and the others */
	r = &c->rules[c->nrules++];
	df_rule_begin(c, r, &sc, head);
	(void)df_new_var(&sc, type);
	(void)df_new_var(&sc, type);
	(void)df_new_var(&sc, type);
	shape = df_below(&c->rng, 3);
	if (shape == 1)
		df_chain_atom(c, &r->body[r->nbody++], q, a, 0, b, 1, NULL);
	else
		df_chain_atom(c, &r->body[r->nbody++], head, 0, 0, 1, 1, &k2);
	if (shape == 0)
		df_chain_atom(c, &r->body[r->nbody++], q, a, 1, b, 2, NULL);
	else
		df_chain_atom(c, &r->body[r->nbody++], head, 0, 1, 1, 2, &k2);
	r->h[0] = df_var_term(0);
	r->h[1] = df_var_term(2);
	r->h[2] = k2;
	df_rule_steps(c, r, &sc, steps, df_filter_steps(c, steps, 0, true));
	df_rule_end(c, r, &sc);
	return true;
}

static void
df_gen_rules(struct df_case *c)
{
	unsigned i, n;

	for (i = 0; i < c->npreds; i++) {
		const struct df_pred *p = &c->preds[i];

		if (!p->has_rules)
			continue;
		if (df_chance(&c->rng, 45) && df_gen_chain(c, i))
			n = df_below(&c->rng, 2);
		else if (p->nfacts > 0 && df_chance(&c->rng, 10))
			n = 0;
		else
			n = 1 + df_below(&c->rng, 3);
		while (n-- > 0 && c->nrules < DF_MAX_RULES)
			df_gen_rule(c, i);
	}
}

/* Generates case `index` of the run seeded with `seed`.  The case's own
 * stream depends on nothing else, so one case replays alone. */
static void
df_gen_case(struct df_case *c, uint64_t seed, unsigned long index)
{
	struct df_buf text = c->text;

	memset(c, 0, sizeof *c);
	c->text = text;
	c->seed = seed;
	c->index = index;
	c->rng.s = df_mix64(seed ^ df_mix64((uint64_t)index + 1));
	c->all_text = df_chance(&c->rng, 20);
	c->big = df_chance(&c->rng, 15);
	c->prepare = df_chance(&c->rng, 30);
	c->free_early = df_chance(&c->rng, 50);
	c->hold = df_chance(&c->rng, 30);
	c->reuse_edb = df_chance(&c->rng, 50);
	c->two_sessions = df_chance(&c->rng, 10);
	c->var_style = df_below(&c->rng, 4);
	df_gen_domain(c);
	df_gen_preds(c);
	df_gen_pfacts(c);
	df_gen_rules(c);
	df_gen_edb(c);
	df_print_program(c);
	c->drv = c->rng;
}
