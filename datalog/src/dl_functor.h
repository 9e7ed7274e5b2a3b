/* SPDX-License-Identifier: MIT */
/*
 * Souffle's functors in terms: the string functors (cat, strlen, substr,
 * ord, to_string, to_number) and the intrinsic ones (min, max, range,
 * autoinc, as).  The one owner of what each computes and of its static
 * signature: the parser finds a functor by name here, the checker types
 * its arguments and result by the signature, the evaluator (through
 * dl_expr_run) applies it.
 *
 * A functor runs inside a compiled expression (dl_arith.h), whose stack
 * slots are 64 bits: a number slot holds the integer, a string slot the
 * symbol's value (the checker knows which, statically).  A string built
 * here is interned in the solve's overlay, at most DL_SYMBOL_LEN_MAX bytes
 * and within the memory budget; every functor is total: a bad argument is
 * a status with a sentence, never undefined behaviour.
 *
 * Also here: Souffle's match with a pattern computed at evaluation, whose
 * compiled patterns are cached per evaluation (a bounded cache), and the
 * patterns Souffle's regular expressions (ECMAScript's, std::regex) refuse
 * though PCRE2 accepts them: for them match and !match both fail, as in
 * Souffle.
 */
#ifndef DL_FUNCTOR_H
#define DL_FUNCTOR_H

#include "dl_diag.h"
#include "dl_symbols.h"

#include <maelys/datalog.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum dl_functor {
	DL_FN_CAT,       /* cat(s, ...): the strings joined */
	DL_FN_STRLEN,    /* strlen(s): bytes */
	DL_FN_SUBSTR,    /* substr(s, i, n) */
	DL_FN_ORD,       /* ord(s): the symbol's ordinal (its value) */
	DL_FN_TO_STRING, /* to_string(n): decimal */
	DL_FN_TO_NUMBER, /* to_number(s): a decimal number, else an error */
	DL_FN_MIN,       /* min(a, b, ...) of numbers (SMIN, UMIN, FMIN of
			  * the other kinds) */
	DL_FN_MAX,       /* max(a, b, ...) of numbers */
	DL_FN_RANGE,     /* range(a, b[, step]): a generator, on numbers */
	DL_FN_AUTOINC,   /* autoinc(): 0, 1, 2, ... per evaluation */
	DL_FN_AS,        /* as(x, Type): x, typed as Type */
	DL_FN_SMIN,      /* min of symbols (the checker's choice) */
	DL_FN_SMAX,      /* max of symbols */
	DL_FN_UMIN,      /* min of unsigned values (the checker's choice) */
	DL_FN_UMAX,      /* max of unsigned values */
	DL_FN_FMIN,      /* min of floats (the checker's choice) */
	DL_FN_FMAX,      /* max of floats */
	DL_FN_FTOSTRING, /* to_string of a float: "%f", as Souffle's */
	DL_FN_UTOSTRING, /* to_string of an unsigned: decimal */
	DL_FN_URANGE,    /* range of unsigned values (the checker's choice) */
	DL_FN_FRANGE,    /* range of floats */
	DL_FN_COUNT_
};

/* A slot's kind, statically. */
enum dl_fn_kind {
	DL_FK_NUMBER,
	DL_FK_STRING,
	DL_FK_SAME, /* min, max: all arguments and the result alike */
	DL_FK_ANY,  /* as: whatever the type named */
};

struct dl_functor_sig {
	const char *name;
	uint8_t min_args, max_args;
	uint8_t arg;    /* enum dl_fn_kind of every argument but the first */
	uint8_t result; /* enum dl_fn_kind */
	uint8_t first;  /* the first argument's (substr's is a string) */
};

/* The most arguments of one call (cat, min, max). */
#define DL_FUNCTOR_ARGS_MAX 32
/* Compiled computed patterns kept per evaluation. */
#define DL_RECACHE_MAX      64

/* The functor called `name`, or false. */
bool dl_functor_find(const char *name, size_t len, enum dl_functor *out);
const struct dl_functor_sig *dl_functor_sig(enum dl_functor f);
/* A functor whose values the solve's overlay must hold (a string built,
 * a counter, a generated number): its rule is evaluated at every solve. */
bool dl_functor_needs_solve(enum dl_functor f);

struct dl_membudget;

/* What a functor may change while it runs; NULL (dl_expr_run from
 * result_why_not and provenance) makes autoinc an error and skips the
 * memory check of strings built. */
struct dl_fnctx {
	struct dl_membudget *mb;
	uint64_t *counter; /* autoinc's next value */
};

/* Applies f to args[0 .. n) (number or string slots per its signature).
 * Returns OK with *out, TYPE, ARITHMETIC, LIMIT, BUDGET_MEMORY or
 * NO_MEMORY (*why a static sentence). */
maelys_datalog_status_t dl_functor_apply(enum dl_functor f,
					 const struct dl_symview *syms,
					 struct dl_fnctx *ctx,
					 const int64_t *args, uint32_t n,
					 int64_t *out, const char **why);

/* Whether f is one of range's generators. */
static inline bool
dl_functor_is_range(enum dl_functor f)
{
	return f == DL_FN_RANGE || f == DL_FN_URANGE || f == DL_FN_FRANGE;
}

/* range(from, to[, step]) as Souffle runs it: the values, in order, of
 * the generator `f` (DL_FN_RANGE on numbers, DL_FN_URANGE on unsigned
 * values, DL_FN_FRANGE on floats; args and values are their 64 bits).
 * dl_range_first sets up *it; dl_range_next gives the values one by one
 * (false at the end).  Step 0 gives `from` once when from != to.  An
 * unsigned range goes down from a larger `from` by its step (1 by
 * default); a float range adds its step (1.0 or -1.0 by default) until it
 * passes `to`, and sets `stuck` (and ends) when adding the step no longer
 * changes the value, where Souffle would never end. */
struct dl_range_it {
	int64_t next, to, step;
	enum dl_functor f;
	bool done, single, stuck;
};
void dl_range_first(struct dl_range_it *it, enum dl_functor f,
		    const int64_t *args, uint32_t n);
bool dl_range_next(struct dl_range_it *it, int64_t *out);

/* Whether Souffle's regular expressions (ECMAScript) accept `pattern`:
 * the constructs PCRE2 takes but std::regex refuses ("a{x}", "(?<n>..)",
 * "(?i)") are refused here. */
bool dl_regex_souffle_valid(const char *pattern, size_t len);

/* The per-evaluation cache of computed patterns. */
struct dl_recache;

/* The compiled full-match pattern of string value `pat`: 0 with *code,
 * 1 the pattern is invalid (match and !match fail), or an error status in
 * *st (the pattern is an integer: TYPE; too long: LIMIT; NO_MEMORY). */
int dl_recache_get(struct dl_recache **cache, const struct dl_symview *syms,
		   dl_value pat, bool souffle, const void **code,
		   maelys_datalog_status_t *st, const char **why);
void dl_recache_free(struct dl_recache *cache);

struct dl_program;
struct dl_matcher;
struct dl_test;
/* A built-in literal of a rule body on the values a and b, as every
 * evaluator runs it (eval_run.h, whynot.c): `pattern` is its enum
 * dl_pattern_kind; a pattern compiled at load is prog->regexes[regex], a
 * computed one is compiled through *cache.  Returns 1 when neither the
 * literal nor its negation holds (a pattern Souffle refuses); else 0 with
 * the outcome in *t (an error status included). */
int dl_builtin_literal(const struct dl_program *prog,
		       const struct dl_symview *syms, struct dl_matcher *m,
		       struct dl_recache **cache, unsigned builtin,
		       unsigned pattern, uint32_t regex, dl_value a,
		       dl_value b, struct dl_test *t);

#endif /* DL_FUNCTOR_H */
