/* SPDX-License-Identifier: MIT */
/*
 * Differential test of libmaelys-datalog: random programs (recursion,
 * mutual and non-linear recursion, negation with and without `_`, joins,
 * repeated variables, constants, comparisons, = bindings, string built-ins,
 * regular expressions and arithmetic, V = A op B with every operator of
 * the language, binding V or testing it) with random facts, evaluated by
 * the engine and by the deliberately naive evaluator of
 * differential/diff_naive.c; every relation must be equal, as a set.
 *
 * Each case is a standalone program (domain NULL) solved a few times in one
 * session with different input EDBs (.input relations fed through
 * input_edb_add, some facts duplicated), or with every fact in the program
 * text (policy-only strata).  The driver varies how it talks to the engine
 * (session_prepare or not, the policy freed early, results held across
 * later solves, one EDB cleared or a new one, a second session of the same
 * policy) and how it reads results (enumerate, enumerate_at in pages, a
 * truncated enumerate, spot queries).
 *
 * Reproducible: a case depends only on the run's seed and its number.
 *   MAELYS_DIFF_SEED   the seed (default DF_DEFAULT_SEED; decimal or 0x..)
 *   MAELYS_DIFF_CASES  how many cases (default DF_DEFAULT_CASES)
 *   MAELYS_DIFF_CASE   run only this case number (replay)
 *   MAELYS_DIFF_VERBOSE=1  print every program
 *   MAELYS_DIFF_SHRINK=0   do not shrink a failing case
 * A mismatch prints the seed, the case number, the program, the facts of
 * every solve and the first differing tuples; then the shrinker
 * (differential/diff_shrink.c) cuts the case down to what still fails the
 * same way and prints that as well, and the test fails.
 *
 * Before the random programs: the built-ins on every pair of values of the
 * pools (the naive evaluator's own built-ins must be right for a mismatch
 * to mean an engine bug), and the reproducers of the engine bugs this test
 * has found (differential/diff_cases.c).
 */
#include "runner.h"

#include <errno.h>
#include <setjmp.h>
#include <time.h>

#include <maelys/datalog.h>

#include "differential/diff_model.h"

#include "differential/diff_naive.c"

#include "differential/diff_print.c"

#include "differential/diff_gen.c"

#define DF_DEFAULT_SEED  UINT64_C(0x6d61656c79734466)
/* About 4 s of CPU in a normal build, 20 s under the sanitizers; more
 * seeds and cases by hand with MAELYS_DIFF_SEED / MAELYS_DIFF_CASES. */
#define DF_DEFAULT_CASES 20000ul
/* Tuples the naive evaluator may visit for one solve before the case is
 * given up as too big for it (counted and reported, never silent). */
#define DF_NAIVE_LIMIT   20000000ull
/* Differing tuples shown in a report, each way. */
#define DF_REPORT_TUPLES 12

struct df_run {
	uint64_t seed;
	unsigned long first, cases;
	bool verbose;
	bool shrink; /* minimise a failing case before failing */
	struct df_case *c;
	struct df_naive naive[DF_MAX_SOLVES];
	struct df_buf why; /* what differs, for the report */
	/* the engine's handles of the case being run: here rather than on
	 * the stack, so that a failed trial of the shrinker can free them */
	maelys_datalog_policy_t *policy;
	maelys_datalog_session_t *s, *s2;
	maelys_datalog_input_edb_t *edb;
	maelys_datalog_result_t *res, *res2, *held[DF_MAX_SOLVES];
	/* trial mode (the shrinker): a failure jumps back to df_trial */
	bool trial;
	const char *trial_what;
	jmp_buf jmp;
	unsigned long trials;
	/* scratch for reading a relation, grown as needed */
	maelys_datalog_fact_view_t *rows;
	size_t cap_rows;
	struct df_rel eng;
	/* statistics */
	unsigned long done, too_big, solves, rels, nonempty, deep, large;
	size_t largest;
	unsigned long long tuples, idb_tuples, queries;
};

static uint64_t
df_env_u64(const char *name, uint64_t def)
{
	const char *s = getenv(name);
	unsigned long long v;
	char *end;

	if (s == NULL || s[0] == '\0')
		return def;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0 || *end != '\0' || s[0] == '-')
		ck_abort_msg("%s=\"%s\" is not a number", name, s);
	return (uint64_t)v;
}

/* ------------------------------------------------------------------ */
/* Reporting */

static void
df_put_tuple(struct df_buf *b, const struct df_case *c, unsigned pred,
	     const struct df_tuple *t)
{
	const struct df_pred *p = &c->preds[pred];
	unsigned k;

	df_buf_printf(b, "%s(", p->name);
	for (k = 0; k < p->arity; k++) {
		if (k > 0)
			df_buf_printf(b, ", ");
		df_put_val(b, t->v[k], NULL);
	}
	df_buf_printf(b, ")");
}

static void df_shrink(struct df_run *run, unsigned solve, const char *what);
static void df_release_engine(struct df_run *run);
static void df_release_naive(struct df_run *run);

/* Everything needed to replay and understand the case. */
static void
df_put_report(struct df_buf *b, const struct df_run *run, unsigned solve,
	      const char *what)
{
	const struct df_case *c = run->c;
	unsigned s;
	size_t f;

	df_buf_printf(b,
		      "seed 0x%016" PRIx64 ", case %lu, solve %u of %u\n"
		      "replay: MAELYS_DIFF_SEED=0x%016" PRIx64
		      " MAELYS_DIFF_CASE=%lu CK_FORK=no "
		      "<build>/tests/check_datalog_differential\n"
		      "driver: all_text=%d big=%d prepare=%d free_early=%d "
		      "hold=%d reuse_edb=%d two_sessions=%d\n"
		      "--- program (%zu bytes) ---\n%s",
		      c->seed, c->index, solve + 1, c->nsolves, c->seed,
		      c->index, c->all_text, c->big, c->prepare, c->free_early,
		      c->hold, c->reuse_edb, c->two_sessions, c->text.len,
		      c->text.p);
	for (s = 0; s < c->nsolves; s++) {
		df_buf_printf(b, "--- input facts of solve %u (%zu)%s ---\n",
			      s + 1, c->nedb[s],
			      s == solve ? ", the failing one" : "");
		for (f = 0; f < c->nedb[s]; f++) {
			df_put_tuple(b, c, c->edb[s][f].pred, &c->edb[s][f].t);
			df_buf_printf(b, ".\n");
		}
	}
	df_buf_printf(b, "--- %s ---\n%s\n", what,
		      run->why.p != NULL ? run->why.p : "");
}

/* A failure of the case.  In a trial of the shrinker, only says so;
 * otherwise prints the report, shrinks the case and prints that too, then
 * fails the test.  run->why says what differs. */
static void
df_fail(struct df_run *run, unsigned solve, const char *what)
{
	const struct df_case *c = run->c;
	struct df_buf b = {NULL, 0, 0};
	uint64_t seed = c->seed;
	unsigned long index = c->index;

	if (run->trial) {
		run->trial_what = what;
		longjmp(run->jmp, 1);
	}
	df_buf_printf(&b, "\n=== differential test: %s ===\n", what);
	df_put_report(&b, run, solve, what);
	fputs(b.p, stderr);
	fflush(stderr);
	df_buf_free(&b);
	if (run->shrink)
		df_shrink(run, solve, what);
	df_release_engine(run);
	df_release_naive(run);
	ck_abort_msg("differential test: %s (seed 0x%016" PRIx64
		     ", case %lu, solve %u); see the report above",
		     what, seed, index, solve + 1);
}

static void df_failf(struct df_run *run, unsigned solve, const char *what,
		     const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
df_failf(struct df_run *run, unsigned solve, const char *what, const char *fmt,
	 ...)
{
	va_list ap;
	char line[1024];

	va_start(ap, fmt);
	(void)vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	df_buf_reset(&run->why);
	df_buf_printf(&run->why, "%s", line);
	df_fail(run, solve, what);
}

/* ------------------------------------------------------------------ */
/* Reading the engine's answer */

static int
df_find_string(const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < DF_NSTRINGS; i++)
		if (df_strings[i].len == len &&
		    (len == 0 || memcmp(df_strings[i].bytes, text, len) == 0))
			return (int)i;
	return -1;
}

/* Fills rows[0 .. n-1] with the relation, through one of three ways of
 * reading it (all must agree with result_count). */
static void
df_enumerate(struct df_run *run, unsigned solve,
	     const maelys_datalog_result_t *res, const struct df_pred *p,
	     maelys_datalog_fact_view_t *rows, size_t n)
{
	struct df_case *c = run->c;
	maelys_datalog_status_t st;
	size_t got = 0, off, w;
	unsigned how = df_below(&c->rng, 3);

	if (how == 0 || (how == 2 && n == 0)) {
		st = maelys_datalog_result_enumerate(res, p->name, p->arity,
						     rows, n, &got);
		if (st != MAELYS_DATALOG_STATUS_OK || got != n)
			df_failf(run, solve, "enumerate failed",
				 "result_enumerate(%s, capacity %zu): %s, "
				 "count %zu; result_count said %zu",
				 p->name, n, maelys_datalog_status_name(st),
				 got, n);
		return;
	}
	if (how == 2) {
		/* one row short: TRUNCATED, and the number needed */
		st = maelys_datalog_result_enumerate(res, p->name, p->arity,
						     rows, n - 1, &got);
		if (st != MAELYS_DATALOG_STATUS_TRUNCATED || got != n)
			df_failf(run, solve, "enumerate failed",
				 "result_enumerate(%s, capacity %zu) of %zu "
				 "rows: %s, count %zu (want truncated, %zu)",
				 p->name, n - 1, n,
				 maelys_datalog_status_name(st), got, n);
		off = n - 1;
	} else {
		off = 0;
	}
	/* pages of random sizes, then one past the end */
	while (off <= n) {
		size_t want = 1 + df_below(&c->rng, (unsigned)(n - off) + 2);
		size_t expect = n - off < want ? n - off : want;

		st = maelys_datalog_result_enumerate_at(
		    res, p->name, p->arity, off, rows + off, want, &w);
		if (st != MAELYS_DATALOG_STATUS_OK || w != expect)
			df_failf(run, solve, "enumerate_at failed",
				 "result_enumerate_at(%s, offset %zu, "
				 "capacity %zu) of %zu rows: %s, wrote %zu",
				 p->name, off, want, n,
				 maelys_datalog_status_name(st), w);
		if (w == 0)
			break;
		off += w;
	}
}

/* The engine's relation for `pred`, as the test's tuples (unsorted), in
 * run->eng. */
static void
df_read_relation(struct df_run *run, unsigned solve,
		 const maelys_datalog_result_t *res, unsigned pred)
{
	const struct df_pred *p = &run->c->preds[pred];
	struct df_rel *out = &run->eng;
	maelys_datalog_fact_view_t *rows;
	maelys_datalog_status_t st;
	size_t n = 0, i;
	unsigned k;

	st = maelys_datalog_result_count(res, p->name, p->arity, &n);
	if (st != MAELYS_DATALOG_STATUS_OK)
		df_failf(run, solve, "result_count failed",
			 "result_count(%s/%u): %s", p->name, p->arity,
			 maelys_datalog_status_name(st));
	/* two spare rows: a page may ask for one past the end */
	if (run->cap_rows < n + 2) {
		run->cap_rows = n + 2;
		run->rows =
		    df_xrealloc(run->rows, run->cap_rows * sizeof *run->rows);
	}
	rows = run->rows;
	memset(rows, 0, (n + 2) * sizeof *rows);
	df_enumerate(run, solve, res, p, rows, n);
	if (out->cap < n + 1) {
		out->cap = n + 1;
		out->t = df_xrealloc(out->t, out->cap * sizeof *out->t);
	}
	memset(out->t, 0, out->cap * sizeof *out->t);
	out->n = 0;
	for (i = 0; i < n; i++) {
		struct df_tuple *t = &out->t[out->n++];

		if (rows[i].arity != p->arity)
			df_failf(run, solve, "wrong arity in a result",
				 "row %zu of %s has arity %zu, not %u", i,
				 p->name, rows[i].arity, p->arity);
		for (k = 0; k < p->arity; k++) {
			const maelys_datalog_term_t *term = &rows[i].terms[k];
			const char *text = NULL;
			size_t len = 0;
			int s;

			if (term->kind == MAELYS_DATALOG_TERM_INTEGER) {
				t->v[k].kind = DF_INT;
				t->v[k].x = term->as.integer;
				continue;
			}
			if (term->kind != MAELYS_DATALOG_TERM_SYMBOL)
				df_failf(run, solve, "bad term in a result",
					 "row %zu of %s: column %u has kind "
					 "%d",
					 i, p->name, k, (int)term->kind);
			st = maelys_datalog_result_symbol_text(
			    res, term->as.symbol_id, &text, &len);
			if (st != MAELYS_DATALOG_STATUS_OK || text == NULL)
				df_failf(run, solve, "symbol_text failed",
					 "row %zu of %s: symbol id %u: %s", i,
					 p->name, (unsigned)term->as.symbol_id,
					 maelys_datalog_status_name(st));
			s = df_find_string(text, len);
			if (s < 0)
				df_failf(run, solve,
					 "a string no fact or rule holds",
					 "row %zu of %s: column %u is the "
					 "string \"%.*s\" (%zu bytes)",
					 i, p->name, k, (int)len, text, len);
			t->v[k].kind = DF_STR;
			t->v[k].x = s;
		}
	}
}

static void
df_put_relation_diff(struct df_buf *b, const struct df_case *c, unsigned pred,
		     const struct df_rel *eng, const struct df_rel *nai)
{
	size_t i = 0, j = 0, shown_e = 0, shown_n = 0;

	df_buf_printf(b, "relation %s: engine %zu tuples, naive %zu\n",
		      c->preds[pred].name, eng->n, nai->n);
	while (i < eng->n || j < nai->n) {
		int cmp = i == eng->n   ? 1
			  : j == nai->n ? -1
					: df_tuple_cmp(&eng->t[i], &nai->t[j]);

		if (cmp == 0) {
			i++;
			j++;
		} else if (cmp < 0) {
			if (shown_e++ < DF_REPORT_TUPLES) {
				df_buf_printf(b, "  only the engine: ");
				df_put_tuple(b, c, pred, &eng->t[i]);
				df_buf_printf(b, "\n");
			}
			i++;
		} else {
			if (shown_n++ < DF_REPORT_TUPLES) {
				df_buf_printf(b,
					      "  only the naive evaluator: ");
				df_put_tuple(b, c, pred, &nai->t[j]);
				df_buf_printf(b, "\n");
			}
			j++;
		}
	}
	if (shown_e > DF_REPORT_TUPLES || shown_n > DF_REPORT_TUPLES)
		df_buf_printf(b,
			      "  (%zu only in the engine, %zu only in the "
			      "naive evaluator in all)\n",
			      shown_e, shown_n);
}

/* result_query of one tuple must say what the naive relation says. */
static void
df_query(struct df_run *run, unsigned solve, const maelys_datalog_result_t *res,
	 unsigned pred, const struct df_tuple *t, const struct df_rel *nai)
{
	const struct df_pred *p = &run->c->preds[pred];
	maelys_datalog_arg_t args[DF_MAX_ARITY];
	maelys_datalog_status_t st;
	bool want = df_sorted_has(nai, t);
	int found = -1;
	unsigned k;

	memset(args, 0, sizeof args);
	for (k = 0; k < p->arity; k++) {
		if (t->v[k].kind == DF_INT) {
			args[k].kind = MAELYS_DATALOG_TERM_INTEGER;
			args[k].as.integer = t->v[k].x;
		} else {
			args[k].kind = MAELYS_DATALOG_TERM_SYMBOL;
			args[k].as.symbol.text = df_strings[t->v[k].x].bytes;
			args[k].as.symbol.length = df_strings[t->v[k].x].len;
		}
	}
	st = maelys_datalog_result_query(res, p->name, args, p->arity, &found);
	run->queries++;
	if (st == MAELYS_DATALOG_STATUS_OK && found == (int)want)
		return;
	df_buf_reset(&run->why);
	df_buf_printf(&run->why, "result_query(");
	df_put_tuple(&run->why, run->c, pred, t);
	df_buf_printf(&run->why, "): %s, found %d; the naive evaluator %s it",
		      maelys_datalog_status_name(st), found,
		      want ? "derives" : "does not derive");
	df_fail(run, solve, "result_query disagrees");
}

/* Compares every relation of `res` with the naive evaluation. */
static void
df_check_result(struct df_run *run, unsigned solve,
		const maelys_datalog_result_t *res, const char *when)
{
	struct df_case *c = run->c;
	const struct df_naive *nv = &run->naive[solve];
	unsigned i, q;
	size_t k;

	for (i = 0; i < c->npreds; i++) {
		const struct df_rel *nai = &nv->rel[i];
		const struct df_rel *eng = &run->eng;
		bool same;

		df_read_relation(run, solve, res, i);
		qsort(eng->t, eng->n, sizeof *eng->t, df_tuple_cmp);
		for (k = 1; k < eng->n; k++) {
			if (df_tuple_cmp(&eng->t[k - 1], &eng->t[k]) != 0)
				continue;
			df_buf_reset(&run->why);
			df_buf_printf(&run->why, "relation %s holds ",
				      c->preds[i].name);
			df_put_tuple(&run->why, c, i, &eng->t[k]);
			df_buf_printf(&run->why, " twice (%s)", when);
			df_fail(run, solve, "duplicate tuple in a result");
		}
		same = eng->n == nai->n;
		for (k = 0; same && k < eng->n; k++)
			same = df_tuple_cmp(&eng->t[k], &nai->t[k]) == 0;
		if (!same) {
			df_buf_reset(&run->why);
			df_buf_printf(&run->why, "(%s)\n", when);
			df_put_relation_diff(&run->why, c, i, eng, nai);
			df_fail(run, solve,
				"engine and naive evaluator differ");
		}
		run->rels++;
		run->tuples += nai->n;
		if (c->preds[i].has_rules)
			run->idb_tuples += nai->n;
		run->nonempty += nai->n > 0;
		run->large += nai->n > 16; /* more than one row block */
		if (nai->n > run->largest)
			run->largest = nai->n;
		/* spot queries: a derived tuple, a random one, and one that
		 * may hold values no symbol table knows */
		for (q = 0; q < 3; q++) {
			struct df_tuple t;

			if (q == 0 && nai->n > 0)
				t = nai->t[df_below(&c->rng, (unsigned)nai->n)];
			else
				df_gen_tuple(c, &c->preds[i], false, q == 2,
					     &t);
			df_query(run, solve, res, i, &t, nai);
		}
	}
}

/* ------------------------------------------------------------------ */
/* Driving the engine */

static void
df_set_budgets(struct df_run *run, maelys_datalog_session_t *s)
{
	maelys_datalog_status_t st;
	uint64_t max;
	unsigned b;

	/* random programs must never meet a budget (a budget status is a
	 * failure below, not a skip): every budget the library has, this
	 * one's and any added later, goes to its maximum */
	for (b = 0; b < 64; b++) {
		st =
		    maelys_datalog_budget_max((maelys_datalog_budget_t)b, &max);
		if (st == MAELYS_DATALOG_STATUS_INVALID_ARGUMENT)
			break; /* past the last budget */
		if (st == MAELYS_DATALOG_STATUS_OK)
			st = maelys_datalog_session_set_budget(
			    s, (maelys_datalog_budget_t)b, max);
		if (st != MAELYS_DATALOG_STATUS_OK)
			df_failf(run, 0, "setting a budget failed",
				 "budget %u: %s", b,
				 maelys_datalog_status_name(st));
	}
	if (b <= (unsigned)MAELYS_DATALOG_BUDGET_STEPS)
		df_failf(run, 0, "setting a budget failed",
			 "budget_max refused budget %u", b);
}

static void
df_fill_edb(struct df_run *run, unsigned solve, maelys_datalog_input_edb_t *edb)
{
	const struct df_case *c = run->c;
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_status_t st;
	size_t f;
	unsigned k;

	for (f = 0; f < c->nedb[solve]; f++) {
		const struct df_fact *fact = &c->edb[solve][f];
		const struct df_pred *p = &c->preds[fact->pred];
		maelys_datalog_arg_t args[DF_MAX_ARITY];

		memset(args, 0, sizeof args);
		for (k = 0; k < p->arity; k++) {
			struct df_val v = fact->t.v[k];

			if (v.kind == DF_INT) {
				args[k].kind = MAELYS_DATALOG_TERM_INTEGER;
				args[k].as.integer = v.x;
			} else {
				args[k].kind = MAELYS_DATALOG_TERM_SYMBOL;
				args[k].as.symbol.text = df_strings[v.x].bytes;
				args[k].as.symbol.length = df_strings[v.x].len;
			}
		}
		st = maelys_datalog_input_edb_add(
		    edb, p->name, p->arity > 0 ? args : NULL, p->arity, &diag);
		if (st != MAELYS_DATALOG_STATUS_OK)
			df_failf(run, solve, "input_edb_add failed",
				 "input_edb_add(%s) of fact %zu: %s: %s",
				 p->name, f, maelys_datalog_status_name(st),
				 diag.message);
	}
	if (maelys_datalog_input_edb_count(edb) != c->nedb[solve])
		df_failf(run, solve, "input_edb_count is wrong",
			 "input_edb_count = %zu after %zu facts",
			 maelys_datalog_input_edb_count(edb), c->nedb[solve]);
}

static maelys_datalog_result_t *
df_solve(struct df_run *run, unsigned solve, maelys_datalog_session_t *s,
	 const maelys_datalog_input_edb_t *edb)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_result_t *res = NULL;
	maelys_datalog_status_t st;

	st = maelys_datalog_session_solve_edb(s, edb, &res, &diag);
	if (st != MAELYS_DATALOG_STATUS_OK || res == NULL)
		df_failf(run, solve, "solve_edb failed",
			 "session_solve_edb: %s: %s (budgets are at their "
			 "maximum: any status but ok is an engine failure)",
			 maelys_datalog_status_name(st), diag.message);
	run->solves++;
	return res;
}

static void
df_release_engine(struct df_run *run)
{
	unsigned i;

	(void)maelys_datalog_result_free(run->res);
	(void)maelys_datalog_result_free(run->res2);
	for (i = 0; i < DF_MAX_SOLVES; i++)
		(void)maelys_datalog_result_free(run->held[i]);
	(void)maelys_datalog_input_edb_free(run->edb);
	(void)maelys_datalog_session_free(run->s);
	(void)maelys_datalog_session_free(run->s2);
	(void)maelys_datalog_policy_free(run->policy);
	run->res = run->res2 = NULL;
	memset(run->held, 0, sizeof run->held);
	run->edb = NULL;
	run->s = run->s2 = NULL;
	run->policy = NULL;
}

static void
df_release_naive(struct df_run *run)
{
	unsigned i;

	for (i = 0; i < DF_MAX_SOLVES; i++)
		df_naive_free(&run->naive[i]);
}

/* Runs the generated (or hand-built) case run->c through the engine and
 * the naive evaluator, and compares.  Returns false when the case was too
 * big for the naive evaluator (and so not run at all). */
static bool
df_check_case(struct df_run *run)
{
	struct df_case *c = run->c;
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_status_t st;
	unsigned i;

	c->rng = c->drv;
	if (run->verbose)
		fprintf(stderr, "--- case %lu ---\n%s", c->index, c->text.p);
	/* the naive answers first: a case too big for them is not run */
	for (i = 0; i < c->nsolves; i++) {
		df_naive_eval(&run->naive[i], c, i, DF_NAIVE_LIMIT);
		if (run->naive[i].type_error != NULL)
			df_failf(run, i, "the generator made an ill-typed rule",
				 "naive evaluator: %s (a bug of the test)",
				 run->naive[i].type_error);
		/* a fixpoint that needed 4 rounds or more: real recursion */
		run->deep += run->naive[i].rounds >= 4;
		if (run->naive[i].too_big) {
			df_release_naive(run);
			run->too_big++;
			return false;
		}
	}
	st = maelys_datalog_policy_load_inline(NULL, "differential.dl",
					       c->text.p, c->text.len,
					       &run->policy, &diag);
	if (st != MAELYS_DATALOG_STATUS_OK)
		df_failf(run, 0, "the engine refused a valid program",
			 "policy_load_inline: %s: %s",
			 maelys_datalog_status_name(st), diag.message);
	st = maelys_datalog_session_create(run->policy, 0, &run->s);
	if (st == MAELYS_DATALOG_STATUS_OK && c->two_sessions)
		st = maelys_datalog_session_create(run->policy, 0, &run->s2);
	if (st != MAELYS_DATALOG_STATUS_OK)
		df_failf(run, 0, "session_create failed", "%s",
			 maelys_datalog_status_name(st));
	df_set_budgets(run, run->s);
	if (run->s2 != NULL)
		df_set_budgets(run, run->s2);
	if (c->free_early) {
		/* sessions hold their own reference */
		(void)maelys_datalog_policy_free(run->policy);
		run->policy = NULL;
	}
	if (c->prepare && (st = maelys_datalog_session_prepare(
			       run->s, &diag)) != MAELYS_DATALOG_STATUS_OK)
		df_failf(run, 0, "session_prepare failed", "%s: %s",
			 maelys_datalog_status_name(st), diag.message);
	for (i = 0; i < c->nsolves; i++) {
		if (run->edb != NULL && c->reuse_edb) {
			st = maelys_datalog_input_edb_clear(run->edb);
			if (st != MAELYS_DATALOG_STATUS_OK)
				df_failf(run, i, "input_edb_clear failed", "%s",
					 maelys_datalog_status_name(st));
		} else {
			(void)maelys_datalog_input_edb_free(run->edb);
			run->edb = NULL;
			st = maelys_datalog_input_edb_create(&run->edb);
			if (st != MAELYS_DATALOG_STATUS_OK)
				df_failf(run, i, "input_edb_create failed",
					 "%s", maelys_datalog_status_name(st));
		}
		df_fill_edb(run, i, run->edb);
		run->res = df_solve(run, i, run->s, run->edb);
		df_check_result(run, i, run->res, "right after its solve");
		if (run->s2 != NULL) {
			run->res2 = df_solve(run, i, run->s2, run->edb);
			df_check_result(run, i, run->res2,
					"on a second session");
			(void)maelys_datalog_result_free(run->res2);
			run->res2 = NULL;
		}
		if (c->hold)
			run->held[i] = run->res;
		else
			(void)maelys_datalog_result_free(run->res);
		run->res = NULL;
	}
	if (c->hold) {
		/* later solves must not have touched earlier results */
		for (i = 0; i < c->nsolves; i++)
			df_check_result(run, i, run->held[i],
					"held while the later solves ran");
		/* the session goes first: live results keep it alive */
		(void)maelys_datalog_session_free(run->s);
		run->s = NULL;
	}
	df_release_engine(run);
	df_release_naive(run);
	return true;
}

static void df_run_free(struct df_run *run);

/* The run of the test in progress.  ck_abort_msg leaves a failing test
 * without its cleanup: in static storage its memory stays reachable, so
 * LeakSanitizer reports only real leaks after a failure, and the next test
 * (with CK_FORK=no) frees what it left. */
static struct df_run df_the_run;
static bool df_the_run_live;

static struct df_run *
df_run_start(void)
{
	struct df_run *run = &df_the_run;

	if (df_the_run_live) {
		df_release_engine(run);
		df_release_naive(run);
		df_run_free(run);
	}
	memset(run, 0, sizeof *run);
	df_the_run_live = true;
	run->c = calloc(1, sizeof *run->c);
	if (run->c == NULL)
		ck_abort_msg("differential test: out of memory");
	run->seed = df_env_u64("MAELYS_DIFF_SEED", DF_DEFAULT_SEED);
	run->cases =
	    (unsigned long)df_env_u64("MAELYS_DIFF_CASES", DF_DEFAULT_CASES);
	run->first = 0;
	if (getenv("MAELYS_DIFF_CASE") != NULL) {
		run->first = (unsigned long)df_env_u64("MAELYS_DIFF_CASE", 0);
		run->cases = 1;
	}
	run->verbose = df_env_u64("MAELYS_DIFF_VERBOSE", 0) != 0;
	run->shrink = df_env_u64("MAELYS_DIFF_SHRINK", 1) != 0;
	return run;
}

static void
df_run_free(struct df_run *run)
{
	df_buf_free(&run->c->text);
	free(run->c);
	df_buf_free(&run->why);
	free(run->rows);
	df_rel_free(&run->eng);
	memset(run, 0, sizeof *run);
	df_the_run_live = false;
}

#include "differential/diff_shrink.c"

#include "differential/diff_cases.c"

/* ------------------------------------------------------------------ */
/* Tests */

/* The built-ins of the naive evaluator are the ones most likely to be
 * wrong themselves: pin them down on every pair of values first, so that a
 * random mismatch points at the engine. */
START_TEST(test_differential_builtins_on_all_values_agree)
{
	struct df_run *run = df_run_start();

	df_build_compare_case(run->c);
	ck_assert(df_check_case(run));
	df_build_string_case(run->c);
	ck_assert(df_check_case(run));
	ck_assert_uint_gt(run->tuples, 100);
	df_run_free(run);
}
END_TEST

/* Each program an engine bug was once found with, and its right answer. */
START_TEST(test_differential_known_reproducers_solve_right)
{
	struct df_buf out = {NULL, 0, 0};
	unsigned long failed = 0;
	size_t i;

	for (i = 0; i < DF_NKNOWN; i++) {
		const struct df_known *k = &df_known[i];
		const char *bad = df_known_check(k, &out);

		if (bad == NULL)
			continue;
		failed++;
		fprintf(stderr,
			"known reproducer %zu (%s):\n%s--> %s/%zu: got "
			"\"%s\", want \"%s\"\n",
			i, k->why, k->program, k->pred, k->arity, bad,
			k->expect);
	}
	df_buf_free(&out);
	ck_assert_msg(failed == 0, "%lu of %zu known reproducers fail", failed,
		      (size_t)DF_NKNOWN);
}
END_TEST

/* A case is a function of (seed, number) alone: the replay contract. */
START_TEST(test_differential_generator_is_reproducible)
{
	struct df_run *run = df_run_start();
	char *first;

	df_gen_case(run->c, 42, 7);
	first = df_xrealloc(NULL, run->c->text.len + 1);
	memcpy(first, run->c->text.p, run->c->text.len + 1);
	df_gen_case(run->c, 42, 8);
	ck_assert_str_ne(first, run->c->text.p);
	df_gen_case(run->c, 42, 7);
	ck_assert_str_eq(first, run->c->text.p);
	free(first);
	df_run_free(run);
}
END_TEST

START_TEST(test_differential_random_programs_agree)
{
	struct df_run *run = df_run_start();
	clock_t t0 = clock();
	unsigned long i;

	for (i = 0; i < run->cases; i++) {
		df_gen_case(run->c, run->seed, run->first + i);
		if (df_check_case(run))
			run->done++;
	}
	fprintf(stderr,
		"differential: seed 0x%016" PRIx64 ": %lu cases run (%lu "
		"more too big for the naive evaluator), %lu solves (%lu "
		"with 4+ fixpoint rounds), %lu relations (%lu non-empty, "
		"%lu over 16 rows, the largest %zu), %llu tuples (%llu "
		"derived by rules), %llu queries, %.1f s CPU\n",
		run->seed, run->done, run->too_big, run->solves, run->deep,
		run->rels, run->nonempty, run->large, run->largest, run->tuples,
		run->idb_tuples, run->queries,
		(double)(clock() - t0) / CLOCKS_PER_SEC);
	/* a generator that made mostly giants would test little */
	ck_assert_msg(run->too_big * 50 <= run->cases + 50,
		      "%lu of %lu cases too big for the naive evaluator",
		      run->too_big, run->cases);
	df_run_free(run);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("differential");

	/* thousands of cases; the sanitizer build is several times slower */
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_differential_generator_is_reproducible);
	tcase_add_test(tc, test_differential_builtins_on_all_values_agree);
	tcase_add_test(tc, test_differential_known_reproducers_solve_right);
	tcase_add_test(tc, test_differential_random_programs_agree);
	suite_add_tcase(s, tc);
	return s;
}
