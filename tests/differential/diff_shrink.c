/* SPDX-License-Identifier: MIT */
/*
 * The shrinker of the differential test: when a case fails, it deletes
 * what it can - solves, rules, body literals, program facts, input facts,
 * unused predicates, the driver's variations - keeping each deletion only
 * if the case still fails in the same way, until nothing more can go.  The
 * result is printed as a second report: usually a reproducer of a few
 * lines, ready for a bug report.
 *
 * A trial runs the case with run->trial set, so that a failure jumps back
 * here (df_fail) instead of failing the test.  Included by
 * check_datalog_differential.c after df_check_case.
 */

#define DF_SHRINK_TRIALS 4000ul

/* Runs the case; true if it fails with the same `what`. */
static bool
df_trial(struct df_run *run, const char *what)
{
	df_print_program(run->c);
	run->trial = true;
	run->trial_what = NULL;
	run->trials++;
	/* nothing local lives across the jump: the outcome is in run */
	if (setjmp(run->jmp) == 0)
		(void)df_check_case(run);
	run->trial = false;
	df_release_engine(run);
	df_release_naive(run);
	return run->trial_what != NULL && strcmp(run->trial_what, what) == 0;
}

/* Whether every variable is bound before a literal tests it, in the
 * order the rule was generated (what the naive evaluator needs, and range
 * restriction); a deletion that breaks it is not tried. */
static bool
df_rule_ordered(const struct df_rule *r, const struct df_case *c)
{
	bool bound[DF_MAX_VARS];
	unsigned i, k;

	memset(bound, 0, sizeof bound);
#define DF_BOUND(t) ((t).kind != DF_T_VAR || bound[(t).var])
	for (i = 0; i < r->nbody; i++) {
		const struct df_lit *l = &r->body[i];
		unsigned arity = l->kind == DF_L_POS || l->kind == DF_L_NEG
				     ? c->preds[l->pred].arity
				     : 2;

		switch (l->kind) {
		case DF_L_POS:
			for (k = 0; k < arity; k++)
				if (l->a[k].kind == DF_T_VAR)
					bound[l->a[k].var] = true;
			break;
		case DF_L_NEG:
			for (k = 0; k < arity; k++)
				if (!DF_BOUND(l->a[k]))
					return false;
			break;
		case DF_L_CMP:
			if (l->op == DF_EQ && !DF_BOUND(l->a[0]) &&
			    DF_BOUND(l->a[1]))
				bound[l->a[0].var] = true;
			else if (l->op == DF_EQ && !DF_BOUND(l->a[1]) &&
				 DF_BOUND(l->a[0]))
				bound[l->a[1].var] = true;
			else if (!DF_BOUND(l->a[0]) || !DF_BOUND(l->a[1]))
				return false;
			break;
		case DF_L_ARITH:
			if (!DF_BOUND(l->a[1]) || !DF_BOUND(l->a[2]))
				return false;
			bound[l->a[0].var] = true;
			break;
		case DF_L_FUNC:
			/* the forms that compare need their string bound */
			if (!DF_BOUND(l->a[1]) || !DF_BOUND(l->a[2]) ||
			    ((l->builtin == DF_F_CATEQ ||
			      l->builtin == DF_F_SUBEQ) &&
			     !DF_BOUND(l->a[0])))
				return false;
			bound[l->a[0].var] = true;
			break;
		case DF_L_AGG:
			for (k = 0; k < c->preds[l->pred].arity; k++)
				if (!DF_BOUND(l->a[k]))
					return false;
			bound[l->res.var] = true;
			break;
		default:
			if (!DF_BOUND(l->a[0]) ||
			    (l->builtin != DF_RE_MATCH && !DF_BOUND(l->a[1])))
				return false;
			break;
		}
	}
	for (k = 0; k < c->preds[r->head].arity; k++)
		if (!DF_BOUND(r->h[k]))
			return false;
#undef DF_BOUND
	return r->nbody > 0;
}

static void
df_drop_lit(struct df_rule *r, unsigned i)
{
	unsigned k, j = 0;

	memmove(&r->body[i], &r->body[i + 1],
		(r->nbody - i - 1) * sizeof *r->body);
	for (k = 0; k < r->nbody; k++) {
		if (r->order[k] == i)
			continue;
		r->order[j++] = (uint8_t)(r->order[k] - (r->order[k] > i));
	}
	r->nbody--;
}

static bool
df_pred_used(const struct df_case *c, unsigned p)
{
	unsigned i, k, s;

	if (c->preds[p].nfacts > 0)
		return true;
	for (s = 0; s < c->nsolves; s++)
		for (k = 0; k < c->nedb[s]; k++)
			if (c->edb[s][k].pred == p)
				return true;
	for (i = 0; i < c->nrules; i++) {
		const struct df_rule *r = &c->rules[i];

		if (r->head == p)
			return true;
		for (k = 0; k < r->nbody; k++)
			if ((r->body[k].kind == DF_L_POS ||
			     r->body[k].kind == DF_L_NEG ||
			     r->body[k].kind == DF_L_AGG) &&
			    r->body[k].pred == p)
				return true;
	}
	return false;
}

/* Deletes predicate p, which nothing uses, and renumbers the others. */
static void
df_drop_pred(struct df_case *c, unsigned p)
{
	unsigned i, k, s;

	memmove(&c->preds[p], &c->preds[p + 1],
		(c->npreds - p - 1) * sizeof *c->preds);
	c->npreds--;
	for (i = 0; i < c->nrules; i++) {
		struct df_rule *r = &c->rules[i];

		r->head = (uint8_t)(r->head - (r->head > p));
		for (k = 0; k < r->nbody; k++)
			r->body[k].pred =
			    (uint8_t)(r->body[k].pred - (r->body[k].pred > p));
	}
	for (s = 0; s < c->nsolves; s++)
		for (k = 0; k < c->nedb[s]; k++)
			c->edb[s][k].pred = (uint8_t)(c->edb[s][k].pred -
						      (c->edb[s][k].pred > p));
}

/* run->c becomes a copy of best, keeping its own text buffer (best has
 * none: the copies would share and free one). */
static void
df_try_begin(struct df_run *run, const struct df_case *best)
{
	struct df_buf text = run->c->text;

	*run->c = *best;
	run->c->text = text;
}

/* Keeps the edit made to run->c if the case still fails the same way. */
static bool
df_try_end(struct df_run *run, struct df_case *best, const char *what)
{
	if (run->trials >= DF_SHRINK_TRIALS || !df_trial(run, what))
		return false;
	*best = *run->c;
	memset(&best->text, 0, sizeof best->text);
	return true;
}

/* One greedy pass; returns whether anything went. */
static bool
df_shrink_pass(struct df_run *run, struct df_case *best, unsigned *solve,
	       const char *what)
{
	struct df_case *c = run->c;
	bool progress = false;
	unsigned i, k, s;
	size_t f;

#define DF_TRY(edit)                                                           \
	do {                                                                   \
		df_try_begin(run, best);                                       \
		edit;                                                          \
		progress |= df_try_end(run, best, what);                       \
	} while (0)

	/* the failing solve alone; else without the others, one by one */
	if (best->nsolves > 1) {
		df_try_begin(run, best);
		memcpy(c->edb[0], best->edb[*solve],
		       best->nedb[*solve] * sizeof *c->edb[0]);
		c->nedb[0] = best->nedb[*solve];
		c->nsolves = 1;
		if (df_try_end(run, best, what)) {
			*solve = 0;
			progress = true;
		}
	}
	for (s = 0; best->nsolves > 1 && s < best->nsolves;) {
		if (s != *solve) {
			df_try_begin(run, best);
			memmove(&c->edb[s], &c->edb[s + 1],
				(c->nsolves - s - 1) * sizeof c->edb[0]);
			memmove(&c->nedb[s], &c->nedb[s + 1],
				(c->nsolves - s - 1) * sizeof c->nedb[0]);
			c->nsolves--;
			if (df_try_end(run, best, what)) {
				*solve -= s < *solve;
				progress = true;
				continue;
			}
		}
		s++;
	}
	for (i = 0; i < best->nrules; i++)
		DF_TRY((memmove(&c->rules[i], &c->rules[i + 1],
				(c->nrules - i - 1) * sizeof *c->rules),
			c->nrules--));
	for (i = 0; i < best->nrules; i++) {
		for (k = 0; k < best->rules[i].nbody; k++) {
			struct df_rule r = best->rules[i];

			df_drop_lit(&r, k);
			if (!df_rule_ordered(&r, best))
				continue;
			DF_TRY((c->rules[i] = r));
		}
	}
	for (i = 0; i < best->npreds; i++)
		for (k = 0; k < best->preds[i].nfacts; k++)
			DF_TRY((memmove(&c->preds[i].facts[k],
					&c->preds[i].facts[k + 1],
					(c->preds[i].nfacts - k - 1) *
					    sizeof c->preds[i].facts[0]),
				c->preds[i].nfacts--));
	for (s = 0; s < best->nsolves; s++)
		for (f = 0; f < best->nedb[s]; f++)
			DF_TRY((
			    memmove(&c->edb[s][f], &c->edb[s][f + 1],
				    (c->nedb[s] - f - 1) * sizeof c->edb[s][0]),
			    c->nedb[s]--));
	for (i = best->npreds; i-- > 0;)
		if (!df_pred_used(best, i))
			DF_TRY(df_drop_pred(c, i));
	/* the driver's variations, if the failure does not need them */
	if (best->hold)
		DF_TRY(c->hold = false);
	if (best->two_sessions)
		DF_TRY(c->two_sessions = false);
	if (best->prepare)
		DF_TRY(c->prepare = false);
	if (best->free_early)
		DF_TRY(c->free_early = false);
	if (best->reuse_edb)
		DF_TRY(c->reuse_edb = false);
#undef DF_TRY
	return progress;
}

/* Shrinks the failing case run->c and prints the smallest failing case
 * found.  run->c is left changed. */
static void
df_shrink(struct df_run *run, unsigned solve, const char *what)
{
	struct df_case *best = malloc(sizeof *best);
	struct df_buf b = {NULL, 0, 0};

	if (best == NULL)
		return;
	df_release_engine(run);
	df_release_naive(run);
	run->trials = 0;
	*best = *run->c;
	memset(&best->text, 0, sizeof best->text);
	while (df_shrink_pass(run, best, &solve, what))
		;
	df_try_begin(run, best);
	free(best);
	/* once more, for the report's text and what differs */
	(void)df_trial(run, what);
	df_buf_printf(&b, "\n=== the same failure, shrunk (%lu trials) ===\n",
		      run->trials);
	df_put_report(&b, run, solve, what);
	fputs(b.p, stderr);
	fflush(stderr);
	df_buf_free(&b);
}
