/* SPDX-License-Identifier: MIT */
/*
 * Writing a case of the differential test as the program text the engine
 * reads.  Equivalent spellings are chosen at random (from the case's own
 * stream, so a case always reads the same): bare or quoted symbols, p or
 * p() for arity 0, not(...) or !, X = Y either way round, spaces or none,
 * one .input per relation or a list, comments, rules in any order and
 * bodies in any order - the engine must not care about any of it.
 *
 * Included by check_datalog_differential.c after diff_naive.c (for the
 * regular expressions) and before diff_gen.c.
 */

static const char *const df_op_text[DF_NOPS] = {"=",  "!=", "<",
						"<=", ">",  ">="};
static const char *const df_builtin_text[DF_NBUILTINS] = {
    "prefix", "suffix", "contains", "re_match"};
/* the native dialect's spellings (% begins a comment there: mod) */
static const char *const df_arith_text[DF_NARITH] = {
    "+",    "-",   "*",    "/",    "mod",   "^",    "band", "bor",
    "bxor", "bshl", "bshr", "bshru", "land", "lor", "lxor",
    "/",    "mod", "bshr"};
/* each functor's text up to its first argument */
static const char *const df_func_text[DF_NFUNC] = {
    "strlen(",     "min(", "max(",           "min(",   "max(",
    "strlen(cat(", "cat(", "strlen(substr(", "substr("};
static const char *const df_var_names[DF_MAX_VARS] = {
    "X", "Y", "Z", "W", "U", "T", "S", "R",
    "Q", "P", "O", "N", "M", "L", "K", "J"};

/* A string, quoted with the dialect's escapes; `report`: for a human,
 * with a NUL byte shown as \0 (not valid program text). */
static void
df_put_string(struct df_buf *b, const struct df_string *s, bool report)
{
	size_t i;

	df_buf_printf(b, "\"");
	for (i = 0; i < s->len; i++) {
		char ch = s->bytes[i];

		if (ch == '"' || ch == '\\')
			df_buf_printf(b, "\\%c", ch);
		else if (ch == '\n')
			df_buf_printf(b, "\\n");
		else if (ch == '\t')
			df_buf_printf(b, "\\t");
		else if (ch == '\0' && report)
			df_buf_printf(b, "\\0");
		else
			df_buf_printf(b, "%c", ch);
	}
	df_buf_printf(b, "\"");
}

/* A value; in program text (rng given) a bare-able string is sometimes
 * written bare, which must be the same symbol as the quoted one. */
static void
df_put_val(struct df_buf *b, struct df_val v, struct df_rng *rng)
{
	const struct df_string *s;

	if (v.kind == DF_INT) {
		df_buf_printf(b, "%" PRId64, v.x);
		return;
	}
	s = &df_strings[v.x];
	if (rng != NULL && s->bare && df_chance(rng, 50))
		df_buf_printf(b, "%s", s->bytes);
	else
		df_put_string(b, s, rng == NULL);
}

static void
df_put_var(struct df_buf *b, const struct df_case *c, unsigned v)
{
	switch (c->var_style) {
	case 0:
		df_buf_printf(b, "V%u", v);
		break;
	case 1:
		df_buf_printf(b, "_v%u", v); /* '_' then a name: a variable */
		break;
	case 2:
		df_buf_printf(b, "Var_%u", v);
		break;
	default:
		df_buf_printf(b, "%s", df_var_names[v]);
		break;
	}
}

static void
df_put_term(struct df_buf *b, struct df_case *c, const struct df_term *t)
{
	switch (t->kind) {
	case DF_T_VAR:
		df_put_var(b, c, t->var);
		break;
	case DF_T_CONST:
		df_put_val(b, t->c, &c->rng);
		break;
	default:
		df_buf_printf(b, "_");
		break;
	}
}

static void
df_put_atom(struct df_buf *b, struct df_case *c, unsigned pred,
	    const struct df_term *args, unsigned style)
{
	const struct df_pred *p = &c->preds[pred];
	unsigned k;

	df_buf_printf(b, "%s", p->name);
	if (p->arity == 0) {
		if (style & 1u)
			df_buf_printf(b, "()");
		return;
	}
	df_buf_printf(b, "(");
	for (k = 0; k < p->arity; k++) {
		if (k > 0)
			df_buf_printf(b, (style & 4u) ? "," : ", ");
		df_put_term(b, c, &args[k]);
	}
	df_buf_printf(b, ")");
}

static void
df_put_lit(struct df_buf *b, struct df_case *c, const struct df_lit *l)
{
	bool bang = (l->style & 2u) != 0;

	switch (l->kind) {
	case DF_L_POS:
		df_put_atom(b, c, l->pred, l->a, l->style);
		break;
	case DF_L_NEG:
		df_buf_printf(b, bang ? "!" : "not(");
		df_put_atom(b, c, l->pred, l->a, l->style);
		if (!bang)
			df_buf_printf(b, ")");
		break;
	case DF_L_CMP: {
		/* = is symmetric: write a binding either way round */
		bool swap = l->op == DF_EQ && (l->style & 8u) != 0;

		df_put_term(b, c, &l->a[swap ? 1 : 0]);
		df_buf_printf(b, (l->style & 4u) ? "%s" : " %s ",
			      df_op_text[l->op]);
		df_put_term(b, c, &l->a[swap ? 0 : 1]);
		break;
	}
	case DF_L_ARITH: {
		/* V = A op B, or A op B = V; the operands in parentheses now
		 * and then */
		bool swap = (l->style & 8u) != 0, paren = (l->style & 16u) != 0;

		if (!swap) {
			df_put_term(b, c, &l->a[0]);
			df_buf_printf(b, " = ");
		}
		df_buf_printf(b, "%s", paren ? "(" : "");
		if (l->builtin >= DF_A_UDIV) { /* unsigned: converted */
			df_buf_printf(b, "utoi(itou(");
			df_put_term(b, c, &l->a[1]);
			df_buf_printf(b, ") %s itou(", df_arith_text[l->builtin]);
			df_put_term(b, c, &l->a[2]);
			df_buf_printf(b, "))");
		} else {
			df_put_term(b, c, &l->a[1]);
			df_buf_printf(b, " %s ", df_arith_text[l->builtin]);
			df_put_term(b, c, &l->a[2]);
		}
		df_buf_printf(b, "%s", paren ? ")" : "");
		if (swap) {
			df_buf_printf(b, " = ");
			df_put_term(b, c, &l->a[0]);
		}
		break;
	}
	case DF_L_FUNC: {
		/* V = f(...), or f(...) = V */
		bool swap = (l->style & 8u) != 0;
		enum df_func f = (enum df_func)l->builtin;

		if (!swap) {
			df_put_term(b, c, &l->a[0]);
			df_buf_printf(b, " = ");
		}
		df_buf_printf(b, "%s", df_func_text[f]);
		df_put_term(b, c, &l->a[1]);
		if (f == DF_F_SUBLEN || f == DF_F_SUBEQ)
			df_buf_printf(b, ", %" PRId64 ", %" PRId64, DF_SUB_I(l),
				      DF_SUB_N(l));
		else if (f != DF_F_STRLEN) {
			df_buf_printf(b, ", ");
			df_put_term(b, c, &l->a[2]);
		}
		df_buf_printf(
		    b, "%s", f == DF_F_CATLEN || f == DF_F_SUBLEN ? "))" : ")");
		if (swap) {
			df_buf_printf(b, " = ");
			df_put_term(b, c, &l->a[0]);
		}
		break;
	}
	case DF_L_AGG: {
		/* R = agg T : p(...), or in braces; the folded column is the
		 * aggregate's own variable, a name no generated one has */
		static const char *const names[] = {"count", "sum", "min",
						    "max"};
		const struct df_pred *p = &c->preds[l->pred];
		bool braces = (l->style & 16u) != 0;
		unsigned k;

		df_put_term(b, c, &l->res);
		df_buf_printf(b, " = %s ", names[l->builtin]);
		if (l->builtin != DF_AG_COUNT)
			df_buf_printf(b, "Zagg ");
		df_buf_printf(b, braces ? ": { %s(" : ": %s(", p->name);
		for (k = 0; k < p->arity; k++) {
			if (k > 0)
				df_buf_printf(b, ", ");
			if (k == l->col && l->builtin != DF_AG_COUNT)
				df_buf_printf(b, "Zagg");
			else
				df_put_term(b, c, &l->a[k]);
		}
		df_buf_printf(b, ")");
		df_buf_printf(b, braces ? " }" : "");
		break;
	}
	default:
		if (l->negated)
			df_buf_printf(b, bang ? "!" : "not(");
		df_buf_printf(b, "%s(", df_builtin_text[l->builtin]);
		df_put_term(b, c, &l->a[0]);
		if (l->builtin == DF_RE_MATCH)
			df_buf_printf(b, ", \"%s\"",
				      df_patterns[l->pattern].text);
		else {
			df_buf_printf(b, ", ");
			df_put_term(b, c, &l->a[1]);
		}
		df_buf_printf(b, ")");
		if (l->negated && !bang)
			df_buf_printf(b, ")");
		break;
	}
}

static void
df_put_rule(struct df_buf *b, struct df_case *c, const struct df_rule *r)
{
	unsigned i;

	df_put_atom(b, c, r->head, r->h, r->style);
	df_buf_printf(b, (r->style & 8u) ? ":-" : " :- ");
	for (i = 0; i < r->nbody; i++) {
		if (i > 0)
			df_buf_printf(b, (r->style & 16u) ? ",\n\t" : ", ");
		df_put_lit(b, c, &r->body[r->order[i]]);
	}
	df_buf_printf(b, ".\n");
}

static void
df_put_fact(struct df_buf *b, const struct df_case *c, unsigned pred,
	    const struct df_tuple *t, struct df_rng *rng)
{
	const struct df_pred *p = &c->preds[pred];
	/* p. or p(). for arity 0 */
	bool parens = p->arity > 0 || (rng != NULL && df_chance(rng, 50));
	unsigned k;

	df_buf_printf(b, "%s%s", p->name, parens ? "(" : "");
	for (k = 0; k < p->arity; k++) {
		if (k > 0)
			df_buf_printf(b, ", ");
		df_put_val(b, t->v[k], rng);
	}
	df_buf_printf(b, "%s.\n", parens ? ")" : "");
}

static void
df_print_program(struct df_case *c)
{
	struct df_buf *b = &c->text;
	unsigned i, k, order[DF_MAX_RULES];
	bool first = true;

	df_buf_reset(b);
	df_buf_printf(b,
		      "%% differential case: seed 0x%016" PRIx64 ", case %lu\n",
		      c->seed, c->index);
	for (i = 0; i < c->npreds; i++) {
		const struct df_pred *p = &c->preds[i];

		df_buf_printf(b, ".decl %s(", p->name);
		for (k = 0; k < p->arity; k++)
			df_buf_printf(b, "%sc%u", k > 0 ? ", " : "", k);
		df_buf_printf(b, ")%s\n", p->eqrel ? " eqrel" : "");
	}
	/* .input a, b in one directive, or one each */
	for (i = 0; i < c->npreds; i++) {
		if (!c->preds[i].input)
			continue;
		if (first || df_chance(&c->rng, 50))
			df_buf_printf(b, "%s.input %s", first ? "" : "\n",
				      c->preds[i].name);
		else
			df_buf_printf(b, ", %s", c->preds[i].name);
		first = false;
	}
	if (!first)
		df_buf_printf(b, "\n");
	for (i = 0; i < c->npreds; i++)
		for (k = 0; k < c->preds[i].nfacts; k++)
			df_put_fact(b, c, i, &c->preds[i].facts[k], &c->rng);
	for (i = 0; i < c->nrules; i++)
		order[i] = i;
	for (i = 0; i + 1 < c->nrules && df_chance(&c->rng, 50); i++) {
		unsigned j = i + df_below(&c->rng, c->nrules - i);

		k = order[i];
		order[i] = order[j];
		order[j] = k;
	}
	for (i = 0; i < c->nrules; i++) {
		if (df_chance(&c->rng, 5))
			df_buf_printf(b, "/* rule %u */ ", order[i]);
		else if (df_chance(&c->rng, 5))
			df_buf_printf(b, "// rule %u\n", order[i]);
		df_put_rule(b, c, &c->rules[order[i]]);
	}
}
