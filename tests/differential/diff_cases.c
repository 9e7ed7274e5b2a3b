/* SPDX-License-Identifier: MIT */
/*
 * Hand-built cases of the differential test.  Built-ins on every pair of
 * values: the naive evaluator's own built-ins are the part most likely to be
 * wrong themselves, so they are pinned down against the engine on every
 * string and integer of the pools before random programs are trusted.  And
 * the known reproducers: small programs, each with the answer worked out by
 * hand, for the engine bugs the random test found.
 *
 * Included by check_datalog_differential.c.
 */

static void
df_add_pred(struct df_case *c, const char *name, unsigned arity, uint8_t type,
	    bool input)
{
	struct df_pred *p = &c->preds[c->npreds];
	unsigned k;

	(void)snprintf(p->name, sizeof p->name, "%s", name);
	p->arity = (uint8_t)arity;
	for (k = 0; k < arity; k++)
		p->type[k] = type;
	p->input = input;
	p->has_rules = !input;
	p->group = c->npreds;
	c->npreds++;
	c->ngroups = c->npreds;
}

/* name(X[, Y]) :- src(X)[, src(Y)], lit. */
static struct df_lit *
df_add_test_rule(struct df_case *c, unsigned head, unsigned src, unsigned nvars)
{
	struct df_rule *r = &c->rules[c->nrules++];
	unsigned v;

	memset(r, 0, sizeof *r);
	r->head = (uint8_t)head;
	for (v = 0; v < nvars; v++) {
		r->h[v] = df_var_term(v);
		r->body[r->nbody].kind = DF_L_POS;
		r->body[r->nbody].pred = (uint8_t)src;
		r->body[r->nbody].a[0] = df_var_term(v);
		r->nbody++;
	}
	r->nvars = (uint8_t)nvars;
	r->order[0] = 0;
	r->order[1] = 1;
	r->order[2] = 2;
	return &r->body[r->nbody++];
}

/* Input facts s(string) for every string, n(int) for every integer. */
static void
df_add_all_values(struct df_case *c, unsigned spred, unsigned npred)
{
	size_t i;

	c->nsolves = 1;
	for (i = 0; i < DF_NSTRINGS; i++) {
		struct df_fact *f = &c->edb[0][c->nedb[0]++];

		memset(f, 0, sizeof *f);
		f->pred = (uint8_t)spred;
		f->t.v[0].kind = DF_STR;
		f->t.v[0].x = (int64_t)i;
	}
	for (i = 0; i < DF_NINTS; i++) {
		struct df_fact *f = &c->edb[0][c->nedb[0]++];

		memset(f, 0, sizeof *f);
		f->pred = (uint8_t)npred;
		f->t.v[0].kind = DF_INT;
		f->t.v[0].x = df_ints[i];
	}
}

static void
df_build_case_start(struct df_case *c, unsigned long index)
{
	struct df_buf text = c->text;

	memset(c, 0, sizeof *c);
	c->text = text;
	c->seed = DF_DEFAULT_SEED;
	c->index = index;
	c->rng.s = index;
	c->drv = c->rng;
	/* a domain for the driver's random spot queries */
	c->strs[c->nstrs++] = 1;
	c->strs[c->nstrs++] = 4;
	c->ints[c->nints++] = 3;
	c->ints[c->nints++] = 13;
}

/* Every comparison on every pair of strings and of integers. */
static void
df_build_compare_case(struct df_case *c)
{
	static const char *const names[DF_NOPS] = {"eq", "ne", "lt",
						   "le", "gt", "ge"};
	char name[16];
	unsigned op, ty;

	df_build_case_start(c, 1000000001ul);
	df_add_pred(c, "s", 1, DF_TY_STR, true);
	df_add_pred(c, "n", 1, DF_TY_INT, true);
	for (ty = 0; ty < 2; ty++) {
		for (op = 0; op < DF_NOPS; op++) {
			struct df_lit *l;

			(void)snprintf(name, sizeof name, "%s_%s", names[op],
				       ty == 0 ? "str" : "int");
			df_add_pred(c, name, 2, ty == 0 ? DF_TY_STR : DF_TY_INT,
				    false);
			l = df_add_test_rule(c, c->npreds - 1u, ty, 2);
			l->kind = DF_L_CMP;
			l->op = (uint8_t)op;
			l->a[0] = df_var_term(0);
			l->a[1] = df_var_term(1);
		}
	}
	df_add_all_values(c, 0, 1);
	df_print_program(c);
}

/* prefix/suffix/contains on every pair of strings, every pattern on every
 * string. */
static void
df_build_string_case(struct df_case *c)
{
	char name[16];
	unsigned b, i;

	df_build_case_start(c, 1000000002ul);
	df_add_pred(c, "s", 1, DF_TY_STR, true);
	df_add_pred(c, "n", 1, DF_TY_INT, true);
	for (b = 0; b < DF_RE_MATCH; b++) {
		struct df_lit *l;

		/* "prefix" itself is reserved */
		(void)snprintf(name, sizeof name, "is_%s", df_builtin_text[b]);
		df_add_pred(c, name, 2, DF_TY_STR, false);
		l = df_add_test_rule(c, c->npreds - 1u, 0, 2);
		l->kind = DF_L_CALL;
		l->builtin = (uint8_t)b;
		l->a[0] = df_var_term(0);
		l->a[1] = df_var_term(1);
	}
	for (i = 0; i < DF_NPATTERNS; i++) {
		struct df_lit *l;

		(void)snprintf(name, sizeof name, "re%u", i);
		df_add_pred(c, name, 1, DF_TY_STR, false);
		l = df_add_test_rule(c, c->npreds - 1u, 0, 1);
		l->kind = DF_L_CALL;
		l->builtin = DF_RE_MATCH;
		l->pattern = (uint8_t)i;
		l->a[0] = df_var_term(0);
	}
	df_add_all_values(c, 0, 1);
	df_print_program(c);
}

/* Programs that once went wrong, each with its answer worked out by hand:
 * the relation's tuples, sorted as df_render_relation writes them.  Every
 * solve is with an empty input EDB. */
struct df_known {
	const char *why;
	const char *program;
	const char *pred;
	size_t arity;
	const char *expect;
};

static const struct df_known df_known[] = {
    /* The planner placed filters once per positive literal: a filter or
     * = that becomes ready through a binding placed later in the same
     * pass, after the last positive literal, was never placed, and the
     * load failed with "literal cannot be ordered" (STATUS_UNSAFE). */
    {"a chain of = bindings, written backwards",
     ".decl q(x)\n.decl p(x)\nq(1).\n"
     "p(Z) :- q(X), Z = Y, Y = X.\n",
     "p", 1, "(1)"},
    {"a filter on a variable that = binds after it",
     ".decl q(x)\n.decl p(x, y)\nq(1). q(2).\n"
     "p(X, Y) :- Y != 2, q(X), X = Y.\n",
     "p", 2, "(1, 1)"},
    /* STATUS_TYPE must not depend on the join order: Y is bound by r
     * (strings), so prefix(Y, "a") only ever sees strings, and Y = X
     * with X an integer is merely false.  The engine turned Y = X into
     * a binding of Y (before joining r), then ran prefix on an integer;
     * with q and r swapped the same rule was fine. */
    {"= bound a variable that a positive literal binds",
     ".decl q(x)\n.decl r(x)\n.decl p(x)\nq(1).\nr(\"a\").\n"
     "p(Y) :- q(X), r(Y), Y = X, prefix(Y, \"a\").\n",
     "p", 1, ""},
    /* The same through a column of both kinds: X ranges over s (strings
     * only), so prefix never sees the 1 of a; the engine joined a first
     * and ran prefix before joining s.  Writing s(X) first was fine. */
    {"a built-in ran before the join that restricts its variable",
     ".decl a(x)\n.decl s(x)\n.decl p(x)\na(1). a(\"ab\").\ns(\"ab\").\n"
     "p(X) :- a(X), s(X), prefix(X, \"a\").\n",
     "p", 1, "(\"ab\")"},
    /* And through a binding: X = Y takes Y's value before r restricts
     * Y to strings, so X must not meet prefix until r is joined. */
    {"a built-in on a variable bound by = before the join on its source",
     ".decl q(x)\n.decl r(x)\n.decl p(x)\nq(1). q(\"ab\").\nr(\"ab\").\n"
     "p(X) :- q(Y), X = Y, r(Y), prefix(X, \"a\").\n",
     "p", 1, "(\"ab\")"},
};
#define DF_NKNOWN (sizeof df_known / sizeof *df_known)

static int
df_strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The relation as "(t1) (t2) ...", tuples rendered and sorted as text:
 * independent of the engine's order and of the test's value pools. */
static void
df_render_relation(struct df_buf *out, const maelys_datalog_result_t *res,
		   const char *pred, size_t arity)
{
	maelys_datalog_fact_view_t *rows;
	maelys_datalog_status_t st;
	struct df_buf *one;
	char **text;
	size_t n = 0, i, k;

	st = maelys_datalog_result_count(res, pred, arity, &n);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "result_count(%s): %s",
		      pred, maelys_datalog_status_name(st));
	rows = calloc(n + 1, sizeof *rows);
	one = calloc(n + 1, sizeof *one);
	text = calloc(n + 1, sizeof *text);
	ck_assert(rows != NULL && one != NULL && text != NULL);
	st = maelys_datalog_result_enumerate(res, pred, arity, rows, n, &n);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "enumerate(%s): %s", pred,
		      maelys_datalog_status_name(st));
	for (i = 0; i < n; i++) {
		df_buf_printf(&one[i], "(");
		for (k = 0; k < arity; k++) {
			const maelys_datalog_term_t *t = &rows[i].terms[k];
			const char *s = NULL;
			size_t len = 0;

			if (k > 0)
				df_buf_printf(&one[i], ", ");
			if (t->kind == MAELYS_DATALOG_TERM_INTEGER) {
				df_buf_printf(&one[i], "%" PRId64,
					      t->as.integer);
				continue;
			}
			st = maelys_datalog_result_symbol_text(
			    res, t->as.symbol_id, &s, &len);
			ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK,
				      "symbol_text: %s",
				      maelys_datalog_status_name(st));
			df_buf_printf(&one[i], "\"%.*s\"", (int)len, s);
		}
		df_buf_printf(&one[i], ")");
		text[i] = one[i].p;
	}
	qsort(text, n, sizeof *text, df_strcmp_ptr);
	df_buf_reset(out);
	df_buf_printf(out, "%s", "");
	for (i = 0; i < n; i++)
		df_buf_printf(out, "%s%s", i > 0 ? " " : "", text[i]);
	for (i = 0; i < n; i++)
		df_buf_free(&one[i]);
	free(one);
	free(text);
	free(rows);
}

/* Loads and solves one known program; NULL if it gave the expected
 * relation, else what went wrong (in `out`). */
static const char *
df_known_check(const struct df_known *k, struct df_buf *out)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_session_t *s = NULL;
	maelys_datalog_input_edb_t *edb = NULL;
	maelys_datalog_result_t *res = NULL;
	maelys_datalog_status_t st;
	const char *bad = NULL;

	df_buf_reset(out);
	st = maelys_datalog_policy_load_inline(
	    NULL, "known.dl", k->program, strlen(k->program), &policy, &diag);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = maelys_datalog_session_create(policy, 0, &s);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = maelys_datalog_input_edb_create(&edb);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = maelys_datalog_session_solve_edb(s, edb, &res, &diag);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		df_buf_printf(out, "%s: %s", maelys_datalog_status_name(st),
			      diag.message);
		bad = out->p;
	} else {
		df_render_relation(out, res, k->pred, k->arity);
		if (strcmp(out->p, k->expect) != 0)
			bad = out->p;
	}
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_policy_free(policy);
	return bad;
}
