/* SPDX-License-Identifier: MIT */
/*
 * The differential test's own description of a Datalog program, shared by
 * its generator (diff_gen.c), its naive evaluator (diff_naive.c) and the
 * driver (check_datalog_differential.c), which includes all three into one
 * translation unit.  Nothing here uses the engine's code: values are the
 * test's own (an integer, or an index into a fixed pool of strings), so the
 * naive evaluator can never share a bug with the engine's interning,
 * hashing or planning.
 *
 * One case is generated from (seed, case number) alone, through the PRNG
 * below, so any case can be replayed exactly.
 */
#ifndef MAELYS_TESTS_DIFF_MODEL_H
#define MAELYS_TESTS_DIFF_MODEL_H

#include <check.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DF_MAX_PREDS  24 /* hand-built cases; generated ones have 2..8 */
#define DF_GEN_PREDS  8
#define DF_MAX_ARITY  3
#define DF_MAX_BODY   12
#define DF_MAX_RULES  32
#define DF_MAX_VARS   16
#define DF_MAX_SOLVES 5
#define DF_MAX_PFACTS 64  /* facts written in the program, per predicate */
#define DF_MAX_EDB    320 /* input facts of one solve, duplicates included */
#define DF_MAX_DOM    16  /* strings (and integers) of one case's domain */

/* ------------------------------------------------------------------ */
/* PRNG: splitmix64 (Steele, Lea, Flood 2014); never rand(), whose
 * sequence differs between C libraries and would break replays. */

struct df_rng {
	uint64_t s;
};

static uint64_t
df_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint64_t
df_next(struct df_rng *r)
{
	r->s += UINT64_C(0x9e3779b97f4a7c15);
	return df_mix64(r->s);
}

/* A number in [0, n); n == 0 gives 0.  The modulo bias is below 2^-50
 * for the small n used here. */
static unsigned
df_below(struct df_rng *r, unsigned n)
{
	return n == 0 ? 0 : (unsigned)(df_next(r) % n);
}

static bool
df_chance(struct df_rng *r, unsigned percent)
{
	return df_below(r, 100) < percent;
}

/* ------------------------------------------------------------------ */
/* Values */

enum df_kind { DF_INT = 0, DF_STR = 1 };

/* An integer, or a string given by its index in df_strings. */
struct df_val {
	uint8_t kind; /* enum df_kind */
	int64_t x;
};

/* Column (and variable) types.  A column of type INT or STR only ever
 * holds values of that kind, so ordering comparisons and string built-ins
 * are only generated on variables that cannot be of the wrong kind (the
 * engine would rightly stop with STATUS_TYPE).  ANY columns mix both kinds
 * (1 and "1") and meet only =, != and joins. */
enum df_type { DF_TY_INT = 0, DF_TY_STR = 1, DF_TY_ANY = 2 };

struct df_string {
	const char *bytes;
	size_t len;
	bool bare;    /* may be written as a bare lower-case symbol */
	bool in_text; /* may appear in program text (no NUL byte) */
};

/* Short strings over a small alphabet, so that joins hit often, with the
 * edges of the dialect: the empty string, escapes, a reserved word written
 * bare, a string that looks like an integer, bytes above 0x7f, and NUL
 * bytes (input facts only: program text cannot hold one), some of which
 * differ only after the NUL. */
static const struct df_string df_strings[] = {
    {"", 0, false, true},      {"a", 1, true, true},
    {"b", 1, true, true},      {"c", 1, true, true},
    {"ab", 2, true, true},     {"ba", 2, true, true},
    {"abc", 3, true, true},    {"aa", 2, true, true},
    {"cab", 3, true, true},    {"A", 1, false, true},
    {"a b", 3, false, true},   {"x\"y", 3, false, true},
    {"\\", 1, false, true},    {"a\nb", 3, false, true},
    {"1", 1, false, true},     {"not", 3, true, true},
    {"\t", 1, false, true},    {"\xc3\xa9", 2, false, true},
    {"a\0b", 3, false, false}, {"a\0a", 3, false, false},
    {"\0", 1, false, false},   {"ab\n", 3, false, true},
    {"b_1", 3, true, true},    {"Ab", 2, false, true},
};
#define DF_NSTRINGS (sizeof df_strings / sizeof *df_strings)

/* Small integers, and the edges of the engine's inline range [-2^30,
 * 2^30) beyond which integers are boxed in the symbol table. */
static const int64_t df_ints[] = {
    -3,
    -2,
    -1,
    0,
    1,
    2,
    3,
    4,
    (INT64_C(1) << 30) - 1,
    INT64_C(1) << 30,
    -(INT64_C(1) << 30),
    -(INT64_C(1) << 30) - 1,
    INT64_C(1) << 31,
    INT64_C(1) << 40,
    -(INT64_C(1) << 40),
    INT64_MIN,
    INT64_MAX,
};
#define DF_NINTS (sizeof df_ints / sizeof *df_ints)

static bool
df_val_eq(struct df_val a, struct df_val b)
{
	return a.kind == b.kind && a.x == b.x;
}

/* A total order for sorting relations: integers before strings, integers
 * by value, strings by pool index (any fixed order will do). */
static int
df_val_cmp(struct df_val a, struct df_val b)
{
	if (a.kind != b.kind)
		return a.kind < b.kind ? -1 : 1;
	return a.x < b.x ? -1 : a.x > b.x;
}

/* ------------------------------------------------------------------ */
/* Programs */

enum df_term_kind { DF_T_VAR = 0, DF_T_CONST = 1, DF_T_ANON = 2 };

struct df_term {
	uint8_t kind;    /* enum df_term_kind */
	uint8_t var;     /* DF_T_VAR */
	struct df_val c; /* DF_T_CONST */
};

enum df_lit_kind {
	DF_L_POS = 0,
	DF_L_NEG = 1,
	DF_L_CMP = 2,
	DF_L_CALL = 3,
	DF_L_ARITH = 4, /* a[0] = a[1] op a[2], numbers only */
	DF_L_FUNC = 5,  /* a[0] = functor(a[1], a[2]): enum df_func */
	DF_L_AGG = 6,   /* res = agg : pred(a...), a[col] the folded one */
};
/* The functors generated (Souffle's, in the native dialect): each gives a
 * number or a string of the pool, or is compared with a bound string, so
 * that the naive evaluator computes it on the test's own values. */
enum df_func {
	DF_F_STRLEN = 0, /* V = strlen(A) */
	DF_F_MIN,        /* V = min(A, B), numbers */
	DF_F_MAX,        /* V = max(A, B), numbers */
	DF_F_SMIN,       /* V = min(A, "s"), strings */
	DF_F_SMAX,       /* V = max(A, "s"), strings */
	DF_F_CATLEN,     /* V = strlen(cat(A, B)) */
	DF_F_CATEQ,      /* C = cat(A, B), C bound */
	DF_F_SUBLEN,     /* V = strlen(substr(A, i, n)) */
	DF_F_SUBEQ,      /* C = substr(A, i, n), C bound */
	DF_NFUNC
};
/* substr's i and n, each -1 .. 6, packed in df_lit.pattern */
#define DF_SUB_I(l) ((int64_t)((l)->pattern & 7u) - 1)
#define DF_SUB_N(l) ((int64_t)(((l)->pattern >> 3) & 7u) - 1)

/* The aggregates generated, over one atom of a lower group: count, or
 * sum, min, max of an integer column. */
enum df_agg { DF_AG_COUNT = 0, DF_AG_SUM, DF_AG_MIN, DF_AG_MAX, DF_NAGG };
/* The arithmetic operators generated: none of them can fail on the
 * operands the generator gives it (a divisor, a shift count, an exponent
 * is a constant in range), so every case has one answer. */
enum df_arith {
	DF_A_ADD = 0,
	DF_A_SUB,
	DF_A_MUL,
	DF_A_DIV,
	DF_A_MOD,
	DF_A_POW,
	DF_A_BAND,
	DF_A_BOR,
	DF_A_BXOR,
	DF_A_BSHL,
	DF_A_BSHR,
	DF_A_BSHRU,
	DF_A_LAND,
	DF_A_LOR,
	DF_A_LXOR,
	/* on the operands' 64 bits as unsigned: utoi(itou(A) / itou(B)) */
	DF_A_UDIV,
	DF_A_UMOD,
	DF_A_UBSHR,
	DF_NARITH
};
enum df_op { DF_EQ = 0, DF_NE, DF_LT, DF_LE, DF_GT, DF_GE, DF_NOPS };
enum df_builtin {
	DF_PREFIX = 0,
	DF_SUFFIX,
	DF_CONTAINS,
	DF_RE_MATCH,
	DF_NBUILTINS
};

struct df_lit {
	uint8_t kind;    /* enum df_lit_kind */
	uint8_t pred;    /* POS, NEG */
	uint8_t op;      /* CMP */
	uint8_t builtin; /* CALL; ARITH: enum df_arith; FUNC: enum df_func */
	uint8_t pattern; /* CALL re_match: index in df_patterns; FUNC substr:
			  * DF_SUB_I, DF_SUB_N */
	bool negated;    /* CALL */
	uint8_t style;   /* random bits choosing among equivalent spellings */
	/* POS, NEG: the arguments; CMP: a[0] op a[1]; CALL: builtin(a[0],
	 * a[1]) (re_match: a[1] unused, the pattern is constant); ARITH:
	 * a[0] = a[1] op a[2] */
	struct df_term a[DF_MAX_ARITY];
	/* AGG: builtin is the enum df_agg; a[] the atom's arguments (the
	 * grouping ones bound before it), a[col] written as the aggregate's
	 * own variable (sum, min, max) or _ (count); res the result */
	uint8_t col;
	struct df_term res;
};

struct df_rule {
	uint8_t head;
	struct df_term h[DF_MAX_ARITY];
	struct df_lit body[DF_MAX_BODY];
	uint8_t nbody;
	uint8_t nvars;
	/* the order the body is written in; the naive evaluator runs it in
	 * generation order, where every variable is bound before it is
	 * tested, and the engine must not care */
	uint8_t order[DF_MAX_BODY];
	uint8_t style;
};

struct df_tuple {
	struct df_val v[DF_MAX_ARITY];
};

struct df_pred {
	char name[16];
	uint8_t arity;
	uint8_t type[DF_MAX_ARITY]; /* enum df_type */
	/* predicates are grouped in index order; a rule may use a predicate
	 * of its own group or a lower one positively, only a lower group
	 * negatively: stratified by construction, recursive (and mutually
	 * recursive) within a group */
	uint8_t group;
	bool input;     /* .input: receives facts at each solve */
	bool has_rules; /* an IDB predicate (it may be .input as well) */
	struct df_tuple facts[DF_MAX_PFACTS]; /* written in the program */
	uint8_t nfacts;
	/* Souffle's eqrel (two columns of one type): the relation is the
	 * reflexive, symmetric, transitive closure of what goes into it */
	bool eqrel;
};

struct df_fact {
	uint8_t pred;
	struct df_tuple t;
};

struct df_buf {
	char *p;
	size_t len, cap;
};

/* Everything about one case.  Generated by df_gen_case from (seed,
 * index); the flags drive how the driver talks to the engine. */
struct df_case {
	uint64_t seed;
	unsigned long index;
	struct df_rng rng;
	/* the driver's stream: every run of the case starts from it, so a
	 * case replays (and shrinks) the same way */
	struct df_rng drv;
	uint8_t strs[DF_MAX_DOM], nstrs; /* the domain: indices in df_strings */
	uint8_t ints[DF_MAX_DOM], nints; /* indices in df_ints */
	struct df_pred preds[DF_MAX_PREDS];
	uint8_t npreds, ngroups;
	struct df_rule rules[DF_MAX_RULES];
	uint8_t nrules;
	unsigned nsolves;
	struct df_fact edb[DF_MAX_SOLVES][DF_MAX_EDB];
	size_t nedb[DF_MAX_SOLVES];
	bool all_text; /* no .input: every fact is in the program text */
	/* larger domains and more facts: relations of hundreds of rows,
	 * across the engine's row blocks and table resizes */
	bool big;
	bool prepare;      /* call session_prepare before the first solve */
	bool free_early;   /* free the policy right after session_create */
	bool hold;         /* keep every result alive until the last solve */
	bool reuse_edb;    /* one input EDB, cleared between solves */
	bool two_sessions; /* also solve each EDB on a second session */
	unsigned var_style;
	struct df_buf text; /* the program as the engine reads it */
};

/* ------------------------------------------------------------------ */
/* A growable text buffer */

static void *
df_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n == 0 ? 1 : n);

	if (q == NULL)
		ck_abort_msg("differential test: out of memory (%zu bytes)", n);
	return q;
}

static void
df_buf_reserve(struct df_buf *b, size_t more)
{
	size_t need = b->len + more + 1;

	if (need <= b->cap)
		return;
	while (b->cap < need)
		b->cap = b->cap == 0 ? 256 : b->cap * 2;
	b->p = df_xrealloc(b->p, b->cap);
}

static void df_buf_printf(struct df_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
df_buf_printf(struct df_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		ck_abort_msg("differential test: vsnprintf failed");
	df_buf_reserve(b, (size_t)n);
	va_start(ap, fmt);
	(void)vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

static void
df_buf_reset(struct df_buf *b)
{
	b->len = 0;
	if (b->p != NULL)
		b->p[0] = '\0';
}

static void
df_buf_free(struct df_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

#endif /* MAELYS_TESTS_DIFF_MODEL_H */
