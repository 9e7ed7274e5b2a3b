/* SPDX-License-Identifier: MIT */
/*
 * Souffle's functors (dl_functor.h says what each computes and why).
 * Strings are bytes, as Souffle's std::string: strlen counts bytes and
 * substr cuts bytes.
 */
#include "dl_functor.h"

#include "dl_builtins.h"
#include "dl_limits.h"
#include "dl_mem.h"
#include "dl_numeric.h"
#include "dl_program.h"
#include "dl_relation.h"

#include <inttypes.h>
#include <stdio.h>

#include <string.h>

static const struct dl_functor_sig dl_sigs[DL_FN_COUNT_] = {
    [DL_FN_CAT] = {"cat", 1, DL_FUNCTOR_ARGS_MAX, DL_FK_STRING, DL_FK_STRING,
		   DL_FK_STRING},
    [DL_FN_STRLEN] = {"strlen", 1, 1, DL_FK_STRING, DL_FK_NUMBER, DL_FK_STRING},
    [DL_FN_SUBSTR] = {"substr", 3, 3, DL_FK_NUMBER, DL_FK_STRING, DL_FK_STRING},
    [DL_FN_ORD] = {"ord", 1, 1, DL_FK_STRING, DL_FK_NUMBER, DL_FK_STRING},
    [DL_FN_TO_STRING] = {"to_string", 1, 1, DL_FK_NUMBER, DL_FK_STRING,
			 DL_FK_NUMBER},
    [DL_FN_TO_NUMBER] = {"to_number", 1, 1, DL_FK_STRING, DL_FK_NUMBER,
			 DL_FK_STRING},
    [DL_FN_MIN] = {"min", 1, DL_FUNCTOR_ARGS_MAX, DL_FK_SAME, DL_FK_SAME,
		   DL_FK_SAME},
    [DL_FN_MAX] = {"max", 1, DL_FUNCTOR_ARGS_MAX, DL_FK_SAME, DL_FK_SAME,
		   DL_FK_SAME},
    [DL_FN_RANGE] = {"range", 2, 3, DL_FK_NUMBER, DL_FK_NUMBER, DL_FK_NUMBER},
    [DL_FN_AUTOINC] = {"autoinc", 0, 0, DL_FK_NUMBER, DL_FK_NUMBER,
		       DL_FK_NUMBER},
    [DL_FN_AS] = {"as", 2, 2, DL_FK_ANY, DL_FK_ANY, DL_FK_ANY},
    [DL_FN_SMIN] = {"min", 1, DL_FUNCTOR_ARGS_MAX, DL_FK_STRING, DL_FK_STRING,
		    DL_FK_STRING},
    [DL_FN_SMAX] = {"max", 1, DL_FUNCTOR_ARGS_MAX, DL_FK_STRING, DL_FK_STRING,
		    DL_FK_STRING},
    /* an unsigned's or a float's 64 bits sit in a number slot: only the
     * order differs */
    [DL_FN_UMIN] = {"min", 1, DL_FUNCTOR_ARGS_MAX, DL_FK_NUMBER, DL_FK_NUMBER,
		    DL_FK_NUMBER},
    [DL_FN_UMAX] = {"max", 1, DL_FUNCTOR_ARGS_MAX, DL_FK_NUMBER, DL_FK_NUMBER,
		    DL_FK_NUMBER},
    [DL_FN_FMIN] = {"min", 1, DL_FUNCTOR_ARGS_MAX, DL_FK_NUMBER, DL_FK_NUMBER,
		    DL_FK_NUMBER},
    [DL_FN_FMAX] = {"max", 1, DL_FUNCTOR_ARGS_MAX, DL_FK_NUMBER, DL_FK_NUMBER,
		    DL_FK_NUMBER},
    [DL_FN_FTOSTRING] = {"to_string", 1, 1, DL_FK_NUMBER, DL_FK_STRING,
			 DL_FK_NUMBER},
    [DL_FN_UTOSTRING] = {"to_string", 1, 1, DL_FK_NUMBER, DL_FK_STRING,
			 DL_FK_NUMBER},
    [DL_FN_URANGE] = {"range", 2, 3, DL_FK_NUMBER, DL_FK_NUMBER,
		      DL_FK_NUMBER},
    [DL_FN_FRANGE] = {"range", 2, 3, DL_FK_NUMBER, DL_FK_NUMBER,
		      DL_FK_NUMBER},
};

bool
dl_functor_find(const char *name, size_t len, enum dl_functor *out)
{
	int f;

	/* the symbol, unsigned and float versions of min and max, and
	 * to_string's of a float or an unsigned, are the checker's choice,
	 * not names of their own */
	for (f = 0; f < DL_FN_SMIN; f++) {
		if (strlen(dl_sigs[f].name) == len &&
		    memcmp(dl_sigs[f].name, name, len) == 0) {
			*out = (enum dl_functor)f;
			return true;
		}
	}
	return false;
}

const struct dl_functor_sig *
dl_functor_sig(enum dl_functor f)
{
	return (unsigned)f < DL_FN_COUNT_ ? &dl_sigs[f] : NULL;
}

bool
dl_functor_needs_solve(enum dl_functor f)
{
	switch (f) {
	case DL_FN_CAT:
	case DL_FN_SUBSTR:
	case DL_FN_TO_STRING:
	case DL_FN_RANGE:
	case DL_FN_AUTOINC:
	case DL_FN_SMIN:
	case DL_FN_SMAX:
	case DL_FN_FTOSTRING:
	case DL_FN_UTOSTRING:
	case DL_FN_URANGE:
	case DL_FN_FRANGE:
		return true;
	default:
		return false;
	}
}

static const char dl_why_string[] =
    "a string functor applied to a number (a string was expected)";

/* The string in a string slot, or NULL (a number there: TYPE). */
static const struct dl_sym *
dl_fn_string(const struct dl_symview *syms, int64_t slot)
{
	const struct dl_sym *s;

	if (slot < 0 || slot > (int64_t)UINT32_MAX ||
	    dl_value_is_inline_int((dl_value)slot))
		return NULL;
	s = dl_symview_get(syms, (dl_value)slot);
	return s != NULL && s->text != NULL ? s : NULL;
}

/* Interns a string built here, within the memory budget. */
static maelys_datalog_status_t
dl_fn_intern(const struct dl_symview *syms, struct dl_fnctx *ctx, const char *s,
	     size_t len, int64_t *out, const char **why)
{
	dl_value v;

	if (len > DL_SYMBOL_LEN_MAX) {
		*why = "a string functor's result is longer than the limit of "
		       "65535 bytes";
		return MAELYS_DATALOG_STATUS_LIMIT;
	}
	if (dl_symview_intern_string(syms, s, len, &v) != 0) {
		if (syms->overlay == NULL) {
			*why = "a string built by a functor has no symbol "
			       "table to hold it here";
			return MAELYS_DATALOG_STATUS_LIMIT;
		}
		*why = "out of memory for a string built by a functor";
		return MAELYS_DATALOG_STATUS_NO_MEMORY;
	}
	if (ctx != NULL && ctx->mb != NULL && syms->overlay != NULL &&
	    dl_symtab_bytes(syms->overlay) >
		ctx->mb->limit - (ctx->mb->used < ctx->mb->limit
				      ? ctx->mb->used
				      : ctx->mb->limit)) {
		*why = "strings built by functors take more than the working "
		       "memory budget (MAELYS_DATALOG_BUDGET_MEMORY)";
		return MAELYS_DATALOG_STATUS_BUDGET_MEMORY;
	}
	*out = (int64_t)v;
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_fn_cat(const struct dl_symview *syms, struct dl_fnctx *ctx,
	  const int64_t *args, uint32_t n, int64_t *out, const char **why)
{
	const struct dl_sym *s[DL_FUNCTOR_ARGS_MAX];
	size_t total = 0, at = 0;
	maelys_datalog_status_t st;
	uint32_t i;
	char *buf;

	for (i = 0; i < n; i++) {
		if ((s[i] = dl_fn_string(syms, args[i])) == NULL) {
			*why = dl_why_string;
			return MAELYS_DATALOG_STATUS_TYPE;
		}
		total += s[i]->len; /* n <= 32 lengths of <= 65535: no wrap */
	}
	if (n == 1) {
		*out = args[0];
		return MAELYS_DATALOG_STATUS_OK;
	}
	if (total > DL_SYMBOL_LEN_MAX)
		return dl_fn_intern(syms, ctx, "", total, out, why);
	buf = dl_alloc(total + 1);
	if (buf == NULL) {
		*why = "out of memory for a string built by cat";
		return MAELYS_DATALOG_STATUS_NO_MEMORY;
	}
	for (i = 0; i < n; i++) {
		if (s[i]->len > 0)
			memcpy(buf + at, s[i]->text, s[i]->len);
		at += s[i]->len;
	}
	st = dl_fn_intern(syms, ctx, buf, total, out, why);
	dl_free(buf);
	return st;
}

/* Souffle's substr is std::string::substr(i, n) with i and n converted
 * to size_t: i past the end (or negative) gives "" (Souffle warns), a
 * length past the end (or negative) runs to the end. */
static maelys_datalog_status_t
dl_fn_substr(const struct dl_symview *syms, struct dl_fnctx *ctx,
	     const int64_t *args, int64_t *out, const char **why)
{
	const struct dl_sym *s = dl_fn_string(syms, args[0]);
	int64_t i = args[1], n = args[2];

	if (s == NULL) {
		*why = dl_why_string;
		return MAELYS_DATALOG_STATUS_TYPE;
	}
	if (i < 0 || i > (int64_t)s->len)
		return dl_fn_intern(syms, ctx, "", 0, out, why);
	if (n < 0 || n > (int64_t)s->len - i)
		n = (int64_t)s->len - i;
	return dl_fn_intern(syms, ctx, s->text + i, (size_t)n, out, why);
}

/* A number, the whole string, as Souffle's to_number reads it: an
 * optional sign, then decimal digits, or 0x and hexadecimal digits, or 0b
 * and binary digits; its magnitude within 64-bit signed numbers. */
static bool
dl_fn_parse_number(const char *s, size_t len, int64_t *out)
{
	uint64_t v = 0, limit, base = 10;
	bool neg = false;
	size_t i = 0;

	if (len > 0 && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		i = 1;
	}
	if (len - i > 2 && s[i] == '0' &&
	    (s[i + 1] == 'x' || s[i + 1] == 'X' || s[i + 1] == 'b' ||
	     s[i + 1] == 'B')) {
		base = s[i + 1] == 'x' || s[i + 1] == 'X' ? 16 : 2;
		i += 2;
	}
	if (i == len)
		return false;
	limit = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
	for (; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
			     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
			     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
						    : 99u;

		if (d >= base || v > (limit - d) / base)
			return false;
		v = v * base + d;
	}
	*out = neg ? (int64_t)(0u - v) : (int64_t)v;
	return true;
}

static maelys_datalog_status_t
dl_fn_minmax(const struct dl_symview *syms, enum dl_functor f,
	     const int64_t *args, uint32_t n, int64_t *out, const char **why)
{
	bool strings = f == DL_FN_SMIN || f == DL_FN_SMAX;
	bool want_max = f == DL_FN_MAX || f == DL_FN_SMAX ||
			f == DL_FN_UMAX || f == DL_FN_FMAX;
	uint32_t i, best = 0;

	for (i = 0; i < n; i++) {
		int c;

		if (strings) {
			const struct dl_sym *a = dl_fn_string(syms, args[i]);
			const struct dl_sym *b = dl_fn_string(syms, args[best]);
			size_t m;

			if (a == NULL || b == NULL) {
				*why = dl_why_string;
				return MAELYS_DATALOG_STATUS_TYPE;
			}
			m = a->len < b->len ? a->len : b->len;
			c = m == 0 ? 0 : memcmp(a->text, b->text, m);
			if (c == 0)
				c = a->len < b->len ? -1 : a->len > b->len;
		} else if (f == DL_FN_UMIN || f == DL_FN_UMAX) {
			uint64_t a = (uint64_t)args[i], b = (uint64_t)args[best];

			c = a < b ? -1 : a > b;
		} else if (f == DL_FN_FMIN || f == DL_FN_FMAX) {
			/* a NaN is neither less nor more: the first kept */
			double a = dl_bits_float(args[i]);
			double b = dl_bits_float(args[best]);

			c = a < b ? -1 : a > b;
		} else {
			c = args[i] < args[best] ? -1 : args[i] > args[best];
		}
		if (want_max ? c > 0 : c < 0)
			best = i;
	}
	*out = args[best];
	return MAELYS_DATALOG_STATUS_OK;
}

/* to_string of a float (its 64 bits): dl_float_fixed_text's "%f", which
 * Souffle's std::to_string gives. */
static maelys_datalog_status_t
dl_fn_float_string(const struct dl_symview *syms, struct dl_fnctx *ctx,
		   int64_t bits, int64_t *out, const char **why)
{
	char text[DL_FLOAT_FIXED_MAX];
	double d;
	size_t len;

	memcpy(&d, &bits, sizeof d);
	len = dl_float_fixed_text(d, text, sizeof text);
	return dl_fn_intern(syms, ctx, text, len, out, why);
}

maelys_datalog_status_t
dl_functor_apply(enum dl_functor f, const struct dl_symview *syms,
		 struct dl_fnctx *ctx, const int64_t *args, uint32_t n,
		 int64_t *out, const char **why)
{
	const struct dl_sym *s;
	char num[32];
	int len;

	switch (f) {
	case DL_FN_CAT:
		return dl_fn_cat(syms, ctx, args, n, out, why);
	case DL_FN_STRLEN:
	case DL_FN_ORD:
	case DL_FN_TO_NUMBER:
		if ((s = dl_fn_string(syms, args[0])) == NULL) {
			*why = dl_why_string;
			return MAELYS_DATALOG_STATUS_TYPE;
		}
		if (f == DL_FN_STRLEN) {
			*out = (int64_t)s->len;
		} else if (f == DL_FN_ORD) {
			/* the symbol's value: distinct symbols, distinct
			 * ordinals (their order is this engine's) */
			*out = args[0];
		} else if (!dl_fn_parse_number(s->text, s->len, out)) {
			*why = "to_number of a string that is not a number "
			       "(decimal, 0x hexadecimal or 0b binary, within "
			       "64 bits)";
			return MAELYS_DATALOG_STATUS_ARITHMETIC;
		}
		return MAELYS_DATALOG_STATUS_OK;
	case DL_FN_SUBSTR:
		return dl_fn_substr(syms, ctx, args, out, why);
	case DL_FN_TO_STRING:
		len = snprintf(num, sizeof num, "%" PRId64, args[0]);
		return dl_fn_intern(syms, ctx, num, (size_t)len, out, why);
	case DL_FN_UTOSTRING:
		len = snprintf(num, sizeof num, "%" PRIu64, (uint64_t)args[0]);
		return dl_fn_intern(syms, ctx, num, (size_t)len, out, why);
	case DL_FN_FTOSTRING:
		return dl_fn_float_string(syms, ctx, args[0], out, why);
	case DL_FN_MIN:
	case DL_FN_MAX:
	case DL_FN_SMIN:
	case DL_FN_SMAX:
	case DL_FN_UMIN:
	case DL_FN_UMAX:
	case DL_FN_FMIN:
	case DL_FN_FMAX:
		return dl_fn_minmax(syms, f, args, n, out, why);
	case DL_FN_AUTOINC:
		if (ctx == NULL || ctx->counter == NULL) {
			*why = "autoinc() has no counter here (it is not "
			       "evaluated again to explain a result)";
			return MAELYS_DATALOG_STATUS_LIMIT;
		}
		*out = (int64_t)(*ctx->counter)++;
		return MAELYS_DATALOG_STATUS_OK;
	case DL_FN_AS:
		*out = args[0];
		return MAELYS_DATALOG_STATUS_OK;
	case DL_FN_RANGE:
	case DL_FN_URANGE:
	case DL_FN_FRANGE:
		*why = "range is a generator: it stands alone, as in "
		       "x = range(a, b)";
		return MAELYS_DATALOG_STATUS_TYPE;
	case DL_FN_COUNT_:
		break;
	}
	*why = "unknown functor";
	return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
}

static double
dl_range_float(int64_t bits)
{
	double d;

	memcpy(&d, &bits, sizeof d);
	return d;
}

static int64_t
dl_range_bits(double d)
{
	int64_t bits;

	memcpy(&bits, &d, sizeof bits);
	return bits;
}

/* Whether a float range at x still runs toward `to` (Souffle's loop
 * condition: x < to going up, to < x going down). */
static bool
dl_range_float_on(const struct dl_range_it *it, double x)
{
	double to = dl_range_float(it->to), step = dl_range_float(it->step);

	return step > 0 ? x < to : to < x;
}

void
dl_range_first(struct dl_range_it *it, enum dl_functor f,
	       const int64_t *args, uint32_t n)
{
	memset(it, 0, sizeof *it);
	it->f = f;
	it->next = args[0];
	it->to = args[1];
	if (f == DL_FN_FRANGE) {
		double from = dl_range_float(args[0]);
		double to = dl_range_float(args[1]);
		double step = n > 2 ? dl_range_float(args[2])
				    : (from <= to ? 1.0 : -1.0);

		it->step = dl_range_bits(step);
		/* a step of 0 (or NaN) gives `from` once, when it is not
		 * `to` */
		it->single = !(step > 0 || step < 0);
		it->done = it->single ? !(from < to || to < from)
				      : !dl_range_float_on(it, from);
		return;
	}
	if (f == DL_FN_URANGE) {
		/* the step is a size: the direction is from's side of to */
		it->step = n > 2 ? args[2] : 1;
		it->single = it->step == 0;
		it->done = args[0] == args[1];
		return;
	}
	it->step = n > 2 ? args[2] : (args[0] <= args[1] ? 1 : -1);
	it->single = it->step == 0;
	/* an empty range: from == to, or a step away from `to` */
	it->done = args[0] == args[1] || (it->step > 0 && args[0] > args[1]) ||
		   (it->step < 0 && args[0] < args[1]);
}

bool
dl_range_next(struct dl_range_it *it, int64_t *out)
{
	int64_t following;

	if (it->done)
		return false;
	*out = it->next;
	if (it->single) {
		it->done = true; /* Souffle: `from` once */
		return true;
	}
	if (it->f == DL_FN_FRANGE) {
		double x = dl_range_float(it->next);
		double y = x + dl_range_float(it->step);

		if (y == x) /* the step is lost in x: no end */
			it->stuck = it->done = true;
		else if (!dl_range_float_on(it, y))
			it->done = true;
		else
			it->next = dl_range_bits(y);
		return true;
	}
	if (it->f == DL_FN_URANGE) {
		uint64_t x = (uint64_t)it->next, to = (uint64_t)it->to;
		uint64_t s = (uint64_t)it->step, y;

		if (x < to ? __builtin_add_overflow(x, s, &y) || y >= to
			   : __builtin_sub_overflow(x, s, &y) || y <= to)
			it->done = true;
		else
			it->next = (int64_t)y;
		return true;
	}
	if (__builtin_add_overflow(it->next, it->step, &following) ||
	    (it->step > 0 ? following >= it->to : following <= it->to))
		it->done = true;
	else
		it->next = following;
	return true;
}

/* A {n}, {n,} or {n,m} quantifier at p[i] ('{'): its length, or 0. */
static size_t
dl_re_brace(const char *p, size_t len, size_t i)
{
	size_t j = i + 1, digits = 0;

	while (j < len && p[j] >= '0' && p[j] <= '9') {
		j++;
		digits++;
	}
	if (digits == 0)
		return 0;
	if (j < len && p[j] == ',') {
		j++;
		while (j < len && p[j] >= '0' && p[j] <= '9')
			j++;
	}
	return j < len && p[j] == '}' ? j - i + 1 : 0;
}

bool
dl_regex_souffle_valid(const char *p, size_t len)
{
	size_t i = 0, q;
	bool in_class = false;

	while (i < len) {
		char c = p[i];

		if (c == '\\') {
			i += 2;
			continue;
		}
		if (in_class) {
			if (c == ']')
				in_class = false;
			i++;
			continue;
		}
		switch (c) {
		case '[':
			in_class = true;
			/* a ']' first in the class is a character */
			if (i + 1 < len && p[i + 1] == '^')
				i++;
			if (i + 1 < len && p[i + 1] == ']')
				i++;
			break;
		case '{':
			/* ECMAScript: a brace is a quantifier or an error */
			if ((q = dl_re_brace(p, len, i)) == 0)
				return false;
			i += q - 1;
			break;
		case '}':
			return false;
		case '(':
			/* groups: (?: (?= (?! only */
			if (i + 1 < len && p[i + 1] == '?' &&
			    (i + 2 >= len ||
			     (p[i + 2] != ':' && p[i + 2] != '=' &&
			      p[i + 2] != '!')))
				return false;
			break;
		default:
			break;
		}
		i++;
	}
	return !in_class;
}

struct dl_recache_entry {
	dl_value pat;
	void *code; /* NULL: the pattern is invalid */
};

struct dl_recache {
	struct dl_recache_entry e[DL_RECACHE_MAX];
	uint32_t n, evict; /* entries, the next to replace when full */
};

int
dl_recache_get(struct dl_recache **cache, const struct dl_symview *syms,
	       dl_value pat, bool souffle, const void **code,
	       maelys_datalog_status_t *st, const char **why)
{
	const struct dl_sym *s = dl_fn_string(syms, (int64_t)pat);
	struct dl_recache *c = *cache;
	struct dl_recache_entry *slot;
	char err[128];
	size_t off;
	void *re = NULL;
	uint32_t i;

	if (s == NULL) {
		*st = MAELYS_DATALOG_STATUS_TYPE;
		*why = "the pattern of match is a number (a string was "
		       "expected)";
		return -1;
	}
	if (c == NULL) {
		c = dl_calloc(1, sizeof *c);
		if (c == NULL) {
			*st = MAELYS_DATALOG_STATUS_NO_MEMORY;
			*why = "out of memory for a computed pattern";
			return -1;
		}
		*cache = c;
	}
	for (i = 0; i < c->n; i++) {
		if (c->e[i].pat == pat) {
			*code = c->e[i].code;
			return c->e[i].code == NULL ? 1 : 0;
		}
	}
	if (s->len > DL_REGEX_LEN_MAX) {
		*st = MAELYS_DATALOG_STATUS_LIMIT;
		*why = "a computed pattern of match is longer than the limit "
		       "of 4096 bytes";
		return -1;
	}
	if ((!souffle || dl_regex_souffle_valid(s->text, s->len)) &&
	    dl_regex_compile(s->text, s->len, true, &re, err, sizeof err,
			     &off) != MAELYS_DATALOG_STATUS_OK)
		re = NULL;
	if (c->n < DL_RECACHE_MAX) {
		slot = &c->e[c->n++];
	} else {
		slot = &c->e[c->evict];
		c->evict = (c->evict + 1) % DL_RECACHE_MAX;
		if (slot->code != NULL)
			dl_regex_free(slot->code);
	}
	slot->pat = pat;
	slot->code = re;
	*code = re;
	return re == NULL ? 1 : 0;
}

void
dl_recache_free(struct dl_recache *cache)
{
	uint32_t i;

	if (cache == NULL)
		return;
	for (i = 0; i < cache->n; i++)
		if (cache->e[i].code != NULL)
			dl_regex_free(cache->e[i].code);
	dl_free(cache);
}

int
dl_builtin_literal(const struct dl_program *prog,
		   const struct dl_symview *syms, struct dl_matcher *m,
		   struct dl_recache **cache, unsigned builtin,
		   unsigned pattern, uint32_t regex, dl_value a, dl_value b,
		   struct dl_test *t)
{
	const void *re = NULL;

	t->status = MAELYS_DATALOG_STATUS_OK;
	t->value = false;
	t->why = NULL;
	if (pattern == DL_PAT_BAD)
		return 1; /* Souffle: neither match nor !match */
	if (pattern == DL_PAT_COMPUTED) {
		/* never prog->regexes[]: regex is no index there */
		int rc = dl_recache_get(cache, syms, b,
					builtin == DL_BUILTIN_RE_FULLMATCH, &re,
					&t->status, &t->why);

		if (rc > 0)
			return 1;
		if (rc < 0)
			return 0; /* *t holds the error */
	} else if (builtin == DL_BUILTIN_RE_MATCH ||
		   builtin == DL_BUILTIN_RE_FULLMATCH) {
		re = prog->regexes[regex].code;
	}
	*t = dl_builtin_call(syms, m, re, (enum dl_builtin)builtin, a, b);
	return 0;
}
