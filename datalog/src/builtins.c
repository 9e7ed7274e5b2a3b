/* SPDX-License-Identifier: MIT */
/*
 * The built-ins.  Equality is the identity of interned values; ordering
 * compares integers numerically and strings bytewise (memcmp, then length);
 * mixing an integer with a string in an ordering comparison, or handing an
 * integer to a string test, is STATUS_TYPE: the policy is wrong, and a
 * silent false could turn a deny rule off.
 */
#include "dl_builtins.h"

#include "dl_arith.h"
#include "dl_numeric.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <string.h>

maelys_datalog_status_t
dl_regex_compile(const char *pattern, size_t len, bool full, void **code,
		 char *err, size_t errlen, size_t *erroff)
{
	pcre2_code *re;
	int errcode = 0;
	PCRE2_SIZE off = 0;
	/* bytes, not UTF-8: input text is arbitrary and must never make a
	 * match fail as "invalid UTF"; (*UTF) in a pattern is refused */
	uint32_t opts = PCRE2_NEVER_UTF | PCRE2_NEVER_UCP;

	*code = NULL;
	if (full)
		opts |= PCRE2_ANCHORED | PCRE2_ENDANCHORED;
	re =
	    pcre2_compile((PCRE2_SPTR)pattern, len, opts, &errcode, &off, NULL);
	if (re == NULL) {
		if (errlen > 0 && pcre2_get_error_message(
				      errcode, (PCRE2_UCHAR *)err, errlen) < 0)
			err[0] = '\0';
		*erroff = (size_t)off;
		return MAELYS_DATALOG_STATUS_REGEX;
	}
	/* JIT is an optimisation: without it (no support, no memory) the
	 * interpreter gives the same answers */
	(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	*code = re;
	return MAELYS_DATALOG_STATUS_OK;
}

void
dl_regex_free(void *code)
{
	pcre2_code_free((pcre2_code *)code);
}

int
dl_matcher_init(struct dl_matcher *m)
{
	m->match_data = pcre2_match_data_create(1, NULL);
	m->context = pcre2_match_context_create(NULL);
	if (m->match_data == NULL || m->context == NULL) {
		dl_matcher_free(m);
		return -1;
	}
	return 0;
}

void
dl_matcher_set_limits(struct dl_matcher *m, uint64_t steps, uint64_t depth,
		      uint64_t heap_kib, bool depth_lowered)
{
	pcre2_match_context *ctx = m->context;

	(void)pcre2_set_match_limit(
	    ctx, (uint32_t)(steps > UINT32_MAX ? UINT32_MAX : steps));
	(void)pcre2_set_depth_limit(
	    ctx, (uint32_t)(depth > UINT32_MAX ? UINT32_MAX : depth));
	(void)pcre2_set_heap_limit(
	    ctx, (uint32_t)(heap_kib > UINT32_MAX ? UINT32_MAX : heap_kib));
	m->interpreted = depth_lowered;
}

void
dl_matcher_free(struct dl_matcher *m)
{
	pcre2_match_data_free((pcre2_match_data *)m->match_data);
	pcre2_match_context_free((pcre2_match_context *)m->context);
	m->match_data = NULL;
	m->context = NULL;
}

static struct dl_test
dl_test_value(bool v)
{
	struct dl_test t = {MAELYS_DATALOG_STATUS_OK, v, NULL};

	return t;
}

static struct dl_test
dl_test_error(maelys_datalog_status_t st, const char *why)
{
	struct dl_test t = {st, false, why};

	return t;
}

struct dl_test
dl_builtin_compare(const struct dl_symview *syms, enum dl_cmp_op op, dl_value a,
		   dl_value b)
{
	int64_t ia, ib;
	bool a_int, b_int;
	int c;

	if (op == DL_CMP_EQ)
		return dl_test_value(a == b);
	if (op == DL_CMP_NE)
		return dl_test_value(a != b);
	a_int = dl_symview_value_int(syms, a, &ia);
	b_int = dl_symview_value_int(syms, b, &ib);
	if (a_int != b_int)
		return dl_test_error(MAELYS_DATALOG_STATUS_TYPE,
				     "ordering comparison of an integer with "
				     "a string");
	if (a_int) {
		c = ia < ib ? -1 : ia > ib;
	} else {
		const struct dl_sym *sa = dl_symview_get(syms, a);
		const struct dl_sym *sb = dl_symview_get(syms, b);
		size_t n;

		if (sa == NULL || sb == NULL)
			return dl_test_error(MAELYS_DATALOG_STATUS_TYPE,
					     "comparison of an unknown symbol");
		/* records have = and != only (their bits), as in Souffle */
		if (dl_sym_is_record(sa) || dl_sym_is_record(sb))
			return dl_test_error(MAELYS_DATALOG_STATUS_TYPE,
					     "ordering comparison of a record");
		n = sa->len < sb->len ? sa->len : sb->len;
		c = n == 0 ? 0 : memcmp(sa->text, sb->text, n);
		if (c == 0)
			c = sa->len < sb->len ? -1 : sa->len > sb->len;
	}
	switch (op) {
	case DL_CMP_LT:
		return dl_test_value(c < 0);
	case DL_CMP_LE:
		return dl_test_value(c <= 0);
	case DL_CMP_GT:
		return dl_test_value(c > 0);
	case DL_CMP_GE:
		return dl_test_value(c >= 0);
	case DL_CMP_EQ:
	case DL_CMP_NE:
		break;
	}
	return dl_test_value(false);
}

struct dl_test
dl_builtin_compare_kind(const struct dl_symview *syms, enum dl_cmp_op op,
			unsigned kind, dl_value a, dl_value b)
{
	unsigned num = kind == MAELYS_DATALOG_COLUMN_FLOAT ? DL_NUM_FLOAT
		       : kind == MAELYS_DATALOG_COLUMN_UNSIGNED
			   ? DL_NUM_UNSIGNED
			   : DL_NUM_POLY;
	int64_t ia, ib;
	int c;

	if (num == DL_NUM_POLY)
		return dl_builtin_compare(syms, op, a, b);
	/* a string (the native dialect compares any two values): as
	 * untyped values */
	if (!dl_symview_value_int(syms, a, &ia) ||
	    !dl_symview_value_int(syms, b, &ib))
		return dl_builtin_compare(syms, op, a, b);
	c = dl_arith_kind_compare(num, ia, ib);
	switch (op) {
	case DL_CMP_EQ:
		return dl_test_value(c == 0);
	case DL_CMP_NE:
		return dl_test_value(c != 0);
	case DL_CMP_LT:
		return dl_test_value(c == -1);
	case DL_CMP_LE:
		return dl_test_value(c == -1 || c == 0);
	case DL_CMP_GT:
		return dl_test_value(c == 1);
	case DL_CMP_GE:
		return dl_test_value(c == 1 || c == 0);
	}
	return dl_test_value(false);
}

static const struct dl_sym *
dl_string_of(const struct dl_symview *syms, dl_value v)
{
	const struct dl_sym *s = dl_symview_get(syms, v);

	return s != NULL && s->text != NULL ? s : NULL;
}

struct dl_test
dl_builtin_call(const struct dl_symview *syms, struct dl_matcher *m,
		const void *regex, enum dl_builtin builtin, dl_value text,
		dl_value arg)
{
	const struct dl_sym *t = dl_string_of(syms, text), *a;
	int rc;

	if (t == NULL)
		return dl_test_error(MAELYS_DATALOG_STATUS_TYPE,
				     "a string built-in applied to an integer");
	if (builtin == DL_BUILTIN_RE_MATCH ||
	    builtin == DL_BUILTIN_RE_FULLMATCH) {
		rc = pcre2_match((const pcre2_code *)regex, (PCRE2_SPTR)t->text,
				 t->len, 0, m->interpreted ? PCRE2_NO_JIT : 0,
				 (pcre2_match_data *)m->match_data,
				 (pcre2_match_context *)m->context);
		if (rc >= 0)
			return dl_test_value(true);
		switch (rc) {
		case PCRE2_ERROR_NOMATCH:
			return dl_test_value(false);
		case PCRE2_ERROR_MATCHLIMIT:
			return dl_test_error(
			    MAELYS_DATALOG_STATUS_REGEX_LIMIT,
			    "re_match hit its match limit "
			    "(MAELYS_DATALOG_BUDGET_REGEX_STEPS)");
		case PCRE2_ERROR_DEPTHLIMIT:
		case PCRE2_ERROR_JIT_STACKLIMIT:
			return dl_test_error(
			    MAELYS_DATALOG_STATUS_REGEX_LIMIT,
			    "re_match hit its depth limit "
			    "(MAELYS_DATALOG_BUDGET_REGEX_DEPTH)");
		case PCRE2_ERROR_HEAPLIMIT:
			return dl_test_error(MAELYS_DATALOG_STATUS_REGEX_LIMIT,
					     "re_match hit its heap limit "
					     "(MAELYS_DATALOG_BUDGET_MEMORY)");
		case PCRE2_ERROR_NOMEMORY:
			return dl_test_error(MAELYS_DATALOG_STATUS_NO_MEMORY,
					     "re_match ran out of memory");
		default:
			return dl_test_error(MAELYS_DATALOG_STATUS_REGEX_LIMIT,
					     "re_match failed to run");
		}
	}
	a = dl_string_of(syms, arg);
	if (a == NULL)
		return dl_test_error(MAELYS_DATALOG_STATUS_TYPE,
				     "a string built-in applied to an integer");
	if (a->len > t->len)
		return dl_test_value(false);
	switch (builtin) {
	case DL_BUILTIN_PREFIX:
		return dl_test_value(a->len == 0 ||
				     memcmp(t->text, a->text, a->len) == 0);
	case DL_BUILTIN_SUFFIX:
		return dl_test_value(
		    a->len == 0 ||
		    memcmp(t->text + (t->len - a->len), a->text, a->len) == 0);
	case DL_BUILTIN_CONTAINS: {
		size_t i;

		if (a->len == 0)
			return dl_test_value(true);
		for (i = 0; i + a->len <= t->len; i++) {
			if (t->text[i] == a->text[0] &&
			    memcmp(t->text + i, a->text, a->len) == 0)
				return dl_test_value(true);
		}
		return dl_test_value(false);
	}
	case DL_BUILTIN_RE_MATCH:
	case DL_BUILTIN_RE_FULLMATCH:
		break;
	}
	return dl_test_value(false);
}
