/* SPDX-License-Identifier: MIT */
/*
 * Built-in tests of rule bodies: comparisons, prefix/suffix/contains, and
 * re_match through PCRE2 (compiled once at load, JIT where available, run
 * under match, depth and heap limits; a limit hit is an error, never false).
 */
#ifndef DL_BUILTINS_H
#define DL_BUILTINS_H

#include "dl_ast.h"
#include "dl_symbols.h"

#include <maelys/datalog.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Compiles a pattern (full: the whole text must match).  On failure returns
 * REGEX with PCRE2's message in `err` and the offset in *erroff. */
maelys_datalog_status_t dl_regex_compile(const char *pattern, size_t len,
					 bool full, void **code, char *err,
					 size_t errlen, size_t *erroff);
void dl_regex_free(void *code);

/* Per-session matching state: match data and a match context carrying the
 * session's limits.  Not shared between threads. */
struct dl_matcher {
	void *match_data; /* pcre2_match_data_8 * */
	void *context;    /* pcre2_match_context_8 * */
	/* match with the interpreter, not JIT code: PCRE2's JIT ignores the
	 * depth limit, so a depth budget below the default needs this */
	bool interpreted;
};

int dl_matcher_init(struct dl_matcher *m);
/* depth_lowered: the depth budget is below its default, so matches run in
 * the interpreter, where PCRE2 enforces it (its JIT does not). */
void dl_matcher_set_limits(struct dl_matcher *m, uint64_t steps, uint64_t depth,
			   uint64_t heap_kib, bool depth_lowered);
void dl_matcher_free(struct dl_matcher *m);

/* The outcome of a built-in: true, false, or an error status. */
struct dl_test {
	maelys_datalog_status_t status; /* OK unless the test failed to run */
	bool value;
	const char *why; /* static text for the diagnostic when status != OK */
};

struct dl_test dl_builtin_compare(const struct dl_symview *syms,
				  enum dl_cmp_op op, dl_value a, dl_value b);
/* The comparison of two values of static type `kind`
 * (maelys_datalog_column_type_t): unsigned and float values order as
 * such, float equality is IEEE's (0.0 = -0.0, NaN equals nothing); others
 * as dl_builtin_compare. */
struct dl_test dl_builtin_compare_kind(const struct dl_symview *syms,
				       enum dl_cmp_op op, unsigned kind,
				       dl_value a, dl_value b);
struct dl_test dl_builtin_call(const struct dl_symview *syms,
			       struct dl_matcher *m, const void *regex,
			       enum dl_builtin builtin, dl_value text,
			       dl_value arg);

#endif /* DL_BUILTINS_H */
