/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the Check suites of the Datalog engine
 * (check_datalog_*.c): the status assertion, the Level 1 walkthrough's
 * predicate table and atoms, loading a program and solving it with every
 * step asserted, reading relations back as text, reading the source tree's
 * files, and measuring the live heap.  Each helper fails the calling test
 * through ck_assert, so call them from the test's own thread only (worker
 * threads note their errors in a struct dltest_errors instead, and the
 * test asserts on it).  Header-only: everything is `static inline` or
 * `static const`, so a suite compiles what it uses and tests/meson.build
 * needs no extra source.
 *
 * The registry is process-wide, so nothing here registers a domain under a
 * fixed name: a suite builds its own domain from the shared tables
 * (DLTEST_LEVEL1_DOMAIN("<suite>_pty")) and registers that.
 */
#ifndef MAELYS_TESTS_DATALOG_TESTUTIL_H
#define MAELYS_TESTS_DATALOG_TESTUTIL_H

#include "runner.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <maelys/datalog.h>
#include <maelys/datalog_builders.h>

#include "level1_domain.h"

#if defined(__SANITIZE_ADDRESS__)
#define DLTEST_LIVE_HEAP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DLTEST_LIVE_HEAP_ASAN 1
#endif
#endif

#if defined(DLTEST_LIVE_HEAP_ASAN)
/* From <sanitizer/allocator_interface.h>, which GCC does not install: the
 * bytes the ASan allocator has handed out and not taken back. */
size_t __sanitizer_get_current_allocated_bytes(void);
#elif defined(__GLIBC__)
#include <malloc.h>
#endif

/* Compares statuses by name, so a failure says what came back. */
#define ck_assert_status(expr, want)                                           \
	do {                                                                   \
		maelys_datalog_status_t got_ = (expr);                         \
		maelys_datalog_status_t want_ = (want);                        \
		ck_assert_msg(got_ == want_, "%s: got %s, want %s", #expr,     \
			      maelys_datalog_status_name(got_),                \
			      maelys_datalog_status_name(want_));              \
	} while (0)

/* ------------------------------------------------------------------ */
/* Errors of worker threads                                            */

/* What a worker thread found wrong: how many errors, and the first one's
 * message.  Check's failure path is not for threads other than the test's,
 * so workers note their errors here and the test thread asserts on them. */
struct dltest_errors {
	int count;
	char why[512];
};

/* printf-like: the compilers check every format given to it. */
static inline void dltest_note(struct dltest_errors *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Counts an error in `e`, keeping the message only of the first. */
static inline void
dltest_note(struct dltest_errors *e, const char *fmt, ...)
{
	va_list ap;

	if (e->count++ > 0)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(e->why, sizeof e->why, fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------------ */
/* Domains                                                             */

/* The walkthrough's table and atoms (level1_domain.h) under `name`. */
#define DLTEST_LEVEL1_DOMAIN(name) LEVEL1_DOMAIN(name)

/* A domain whose policy has a recursive stratum of its own: link/2 is
 * written in the policy, so path/2 depends on nothing the input brings and
 * is computed once per session. */
static const maelys_datalog_predicate_t dltest_graph_preds[] = {
    {"req", 1, MAELYS_DATALOG_PREDICATE_EDB},
    {"link", 2, MAELYS_DATALOG_PREDICATE_POLICY_FACT},
    {"path", 2, MAELYS_DATALOG_PREDICATE_IDB},
    {"ok", 1, MAELYS_DATALOG_PREDICATE_IDB | MAELYS_DATALOG_PREDICATE_QUERY},
};

/* An initializer for the graph domain under `name`: no vocabulary. */
#define DLTEST_GRAPH_DOMAIN(name)                                              \
	{                                                                      \
		(name), dltest_graph_preds,                                    \
		    sizeof dltest_graph_preds / sizeof *dltest_graph_preds,    \
		    NULL, 0                                                    \
	}

/* Writes the graph policy into `buf`: the chain link(0, 1) ... link(n-1, n)
 * (nodes "n0" ... "n<n>" when `named`, else integers), path/2 its closure,
 * and ok(Y) for every Y reachable from a req(X).  Fails the test if `cap`
 * is too small. */
static inline void
dltest_graph_policy(char *buf, size_t cap, size_t links, int named)
{
	size_t used = 0, i;
	int n;

	for (i = 0; i < links; i++) {
		if (named)
			n = snprintf(buf + used, cap - used,
				     "link(\"n%zu\", \"n%zu\").\n", i, i + 1);
		else
			n = snprintf(buf + used, cap - used,
				     "link(%zu, %zu).\n", i, i + 1);
		ck_assert(n > 0 && (size_t)n < cap - used);
		used += (size_t)n;
	}
	n = snprintf(buf + used, cap - used, "%s",
		     "path(X, Y) :- link(X, Y).\n"
		     "path(X, Z) :- path(X, Y), link(Y, Z).\n"
		     "ok(Y) :- req(X), path(X, Y).\n");
	ck_assert(n > 0 && (size_t)n < cap - used);
}

/* ------------------------------------------------------------------ */
/* Files of the source tree                                            */

/* The path of policies/walkthrough.dl in the source tree, into `buf`: the
 * Level 1 policy as the walkthrough prints it, whose constants are the
 * walkthrough's atoms (policies/level1.dl, the guard's default, names more). */
static inline void
dltest_walkthrough_path(char *buf, size_t cap)
{
	int n = snprintf(buf, cap, "%s/policies/walkthrough.dl",
			 maelys_test_source_root());

	ck_assert(n > 0 && (size_t)n < cap);
}

/* The whole of a non-empty file, NUL-terminated (the NUL not counted in
 * *len); fails the test if it cannot be read.  The caller frees it. */
static inline char *
dltest_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert(n > 0);
	ck_assert_int_eq(fseek(f, 0, SEEK_SET), 0);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	(void)fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The text of policies/walkthrough.dl, as dltest_read_file gives it. */
static inline char *
dltest_read_walkthrough(size_t *len)
{
	char path[4096];

	dltest_walkthrough_path(path, sizeof path);
	return dltest_read_file(path, len);
}

/* ------------------------------------------------------------------ */
/* Loading, sessions, solving                                          */

/* Loads `len` bytes of `src` under `domain` (NULL: a standalone program),
 * naming the source `source` in diagnostics; fails the test if it does not
 * load. */
static inline maelys_datalog_policy_t *
dltest_load_n(const char *domain, const char *source, const char *src,
	      size_t len)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st;

	st = maelys_datalog_policy_load_inline(domain, source, src, len,
					       &policy, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "load: %s: %s",
		      maelys_datalog_status_name(st), diag.message);
	ck_assert_ptr_nonnull(policy);
	return policy;
}

/* dltest_load_n of a NUL-terminated `src`. */
static inline maelys_datalog_policy_t *
dltest_load(const char *domain, const char *source, const char *src)
{
	return dltest_load_n(domain, source, src, strlen(src));
}

/* Registers `domain` (a Level 1 table: DLTEST_LEVEL1_DOMAIN) and loads the
 * shipped policies/walkthrough.dl under it with policy_load_file. */
static inline maelys_datalog_policy_t *
dltest_load_walkthrough(const maelys_datalog_domain_t *domain)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st;
	char path[4096];

	ck_assert_status(maelys_datalog_domain_register(domain),
			 MAELYS_DATALOG_STATUS_OK);
	dltest_walkthrough_path(path, sizeof path);
	st =
	    maelys_datalog_policy_load_file(domain->name, path, &policy, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "load %s: %s: %s", path,
		      maelys_datalog_status_name(st), diag.message);
	ck_assert_ptr_nonnull(policy);
	return policy;
}

/* A session of `policy` created with `flags` (0, or
 * MAELYS_DATALOG_SESSION_PROVENANCE) and the default budgets. */
static inline maelys_datalog_session_t *
dltest_new_session_flags(maelys_datalog_policy_t *policy, unsigned flags)
{
	maelys_datalog_session_t *session = NULL;

	ck_assert_status(
	    maelys_datalog_session_create(policy, flags, &session),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_ptr_nonnull(session);
	return session;
}

/* The handle of pred(args...) in a result of a PROVENANCE session, which
 * must hold. */
static inline maelys_datalog_tuple_t
dltest_find(const maelys_datalog_result_t *res, const char *pred,
	    const maelys_datalog_arg_t *args, size_t n)
{
	maelys_datalog_tuple_t t;
	int found = -1;

	ck_assert_status(maelys_datalog_result_find(res, pred, args, n, &t,
						    &found),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_msg(found == 1, "%s/%zu does not hold", pred, n);
	return t;
}

/* dltest_find of pred(a) and pred(a, b), integers. */
static inline maelys_datalog_tuple_t
dltest_find_i(const maelys_datalog_result_t *res, const char *pred, int64_t a)
{
	const maelys_datalog_arg_t args[1] = {maelys_datalog_arg_integer(a)};

	return dltest_find(res, pred, args, 1);
}

static inline maelys_datalog_tuple_t
dltest_find_ii(const maelys_datalog_result_t *res, const char *pred,
	       int64_t a, int64_t b)
{
	const maelys_datalog_arg_t args[2] = {maelys_datalog_arg_integer(a),
					      maelys_datalog_arg_integer(b)};

	return dltest_find(res, pred, args, 2);
}

/* A session of `policy` with the default flags and budgets. */
static inline maelys_datalog_session_t *
dltest_new_session(maelys_datalog_policy_t *policy)
{
	return dltest_new_session_flags(policy, 0);
}

/* An empty input EDB. */
static inline maelys_datalog_input_edb_t *
dltest_new_edb(void)
{
	maelys_datalog_input_edb_t *edb = NULL;

	ck_assert_status(maelys_datalog_input_edb_create(&edb),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_ptr_nonnull(edb);
	return edb;
}

/* Solves `edb`; fails the test, with the diagnostic, unless it succeeds. */
static inline maelys_datalog_result_t *
dltest_solve(maelys_datalog_session_t *session,
	     const maelys_datalog_input_edb_t *edb)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_result_t *result = NULL;
	maelys_datalog_status_t st;

	st = maelys_datalog_session_solve_edb(session, edb, &result, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "solve: %s: %s",
		      maelys_datalog_status_name(st), diag.message);
	ck_assert_ptr_nonnull(result);
	return result;
}

/* A standalone program and one session of it. */
struct dltest_prog {
	maelys_datalog_policy_t *policy;
	maelys_datalog_session_t *session;
};

/* Loads `src` as a standalone program (diagnostics name `source`) and
 * opens a session of it. */
static inline void
dltest_prog_open(struct dltest_prog *p, const char *source, const char *src)
{
	memset(p, 0, sizeof *p);
	p->policy = dltest_load(NULL, source, src);
	p->session = dltest_new_session(p->policy);
}

/* Frees what dltest_prog_open made. */
static inline void
dltest_prog_close(struct dltest_prog *p)
{
	(void)maelys_datalog_session_free(p->session);
	(void)maelys_datalog_policy_free(p->policy);
	memset(p, 0, sizeof *p);
}

/* dltest_solve in the program's session. */
static inline maelys_datalog_result_t *
dltest_prog_solve(const struct dltest_prog *p,
		  const maelys_datalog_input_edb_t *edb)
{
	return dltest_solve(p->session, edb);
}

/* ------------------------------------------------------------------ */
/* Input facts                                                         */

/* Adds the fact pred(args[0], ..., args[n-1]). */
static inline void
dltest_add_args(maelys_datalog_input_edb_t *edb, const char *pred,
		const maelys_datalog_arg_t *args, size_t n)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_status_t st;

	st = maelys_datalog_input_edb_add(edb, pred, args, n, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "add %s: %s", pred,
		      diag.message);
}

/* Adds pred(a), a an integer. */
static inline void
dltest_add_i(maelys_datalog_input_edb_t *edb, const char *pred, int64_t a)
{
	const maelys_datalog_arg_t args[1] = {maelys_datalog_arg_integer(a)};

	dltest_add_args(edb, pred, args, 1);
}

/* Adds pred(a, b), both integers. */
static inline void
dltest_add_ii(maelys_datalog_input_edb_t *edb, const char *pred, int64_t a,
	      int64_t b)
{
	const maelys_datalog_arg_t args[2] = {maelys_datalog_arg_integer(a),
					      maelys_datalog_arg_integer(b)};

	dltest_add_args(edb, pred, args, 2);
}

/* Adds pred(a), a a symbol. */
static inline void
dltest_add_s(maelys_datalog_input_edb_t *edb, const char *pred, const char *a)
{
	const maelys_datalog_arg_t args[1] = {maelys_datalog_arg_symbol(a)};

	dltest_add_args(edb, pred, args, 1);
}

/* Adds pred(a, b), both symbols. */
static inline void
dltest_add_ss(maelys_datalog_input_edb_t *edb, const char *pred, const char *a,
	      const char *b)
{
	const maelys_datalog_arg_t args[2] = {maelys_datalog_arg_symbol(a),
					      maelys_datalog_arg_symbol(b)};

	dltest_add_args(edb, pred, args, 2);
}

/* ------------------------------------------------------------------ */
/* Reading results                                                     */

/* Whether pred(args...) holds (result_query). */
static inline int
dltest_query_args(const maelys_datalog_result_t *res, const char *pred,
		  const maelys_datalog_arg_t *args, size_t n)
{
	maelys_datalog_status_t st;
	int found = -1;

	st = maelys_datalog_result_query(res, pred, args, n, &found);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "query %s: %s", pred,
		      maelys_datalog_status_name(st));
	return found;
}

/* Whether pred(a) holds, a an integer. */
static inline int
dltest_query_i(const maelys_datalog_result_t *res, const char *pred, int64_t a)
{
	const maelys_datalog_arg_t args[1] = {maelys_datalog_arg_integer(a)};

	return dltest_query_args(res, pred, args, 1);
}

/* Whether pred(a, b) holds, both integers. */
static inline int
dltest_query_ii(const maelys_datalog_result_t *res, const char *pred, int64_t a,
		int64_t b)
{
	const maelys_datalog_arg_t args[2] = {maelys_datalog_arg_integer(a),
					      maelys_datalog_arg_integer(b)};

	return dltest_query_args(res, pred, args, 2);
}

/* Whether pred(a, b) holds, both symbols. */
static inline int
dltest_query_ss(const maelys_datalog_result_t *res, const char *pred,
		const char *a, const char *b)
{
	const maelys_datalog_arg_t args[2] = {maelys_datalog_arg_symbol(a),
					      maelys_datalog_arg_symbol(b)};

	return dltest_query_args(res, pred, args, 2);
}

/* Whether pred(value) holds, read through the MAELYS_DATALOG_QUERY macro;
 * the answer must be 0 or 1. */
static inline int
dltest_query1(const maelys_datalog_result_t *result, const char *pred,
	      const char *value)
{
	int found = -1;

	ck_assert_status(MAELYS_DATALOG_QUERY(result, &found, pred, value),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert(found == 0 || found == 1);
	return found;
}

/* Whether pred(a, b) holds, as dltest_query1. */
static inline int
dltest_query2(const maelys_datalog_result_t *result, const char *pred,
	      const char *a, const char *b)
{
	int found = -1;

	ck_assert_status(MAELYS_DATALOG_QUERY(result, &found, pred, a, b),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert(found == 0 || found == 1);
	return found;
}

/* The number of facts of pred/arity. */
static inline size_t
dltest_count(const maelys_datalog_result_t *res, const char *pred, size_t arity)
{
	maelys_datalog_status_t st;
	size_t n = 0;

	st = maelys_datalog_result_count(res, pred, arity, &n);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "count %s/%zu: %s", pred,
		      arity, maelys_datalog_status_name(st));
	return n;
}

/* The room for one row in dltest_rows_text, terminator included. */
#define DLTEST_ROW_TEXT_MAX 1024

/* qsort's comparison for an array of C strings. */
static inline int
dltest_cmp_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends one term to `buf`: an integer as #n, a symbol as its bytes with
 * anything unprintable (and the separators ',', '\' and space) as \xNN.
 * Fails the test if the text does not fit in `cap`. */
static inline void
dltest_term_text(const maelys_datalog_result_t *res,
		 const maelys_datalog_term_t *t, char *buf, size_t cap)
{
	size_t used = strlen(buf), i, len = 0;
	const char *text = NULL;
	maelys_datalog_status_t st;

	if (t->kind == MAELYS_DATALOG_TERM_INTEGER) {
		(void)snprintf(buf + used, cap - used, "#%lld",
			       (long long)t->as.integer);
		return;
	}
	ck_assert_int_eq(t->kind, MAELYS_DATALOG_TERM_SYMBOL);
	st = maelys_datalog_result_symbol_text(res, t->as.symbol_id, &text,
					       &len);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	for (i = 0; i < len && used + 5 < cap; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c <= ' ' || c >= 0x7f || c == ',' || c == '\\')
			used += (size_t)snprintf(buf + used, cap - used,
						 "\\x%02x", c);
		else
			buf[used++] = (char)c;
	}
	buf[used] = '\0';
	ck_assert_msg(i == len, "a row of more than %zu bytes", cap);
}

/*
 * The rows of pred/arity as one string: each row its terms joined by ','
 * (dltest_term_text), rows sorted and joined by ' '.  Sorting makes the
 * text independent of derivation order, so a test states the expected set
 * literally.  The caller frees the string.
 */
static inline char *
dltest_rows_text(const maelys_datalog_result_t *res, const char *pred,
		 size_t arity)
{
	size_t count = dltest_count(res, pred, arity), n = 0, i, k, total = 1;
	maelys_datalog_fact_view_t *rows = calloc(count + 1, sizeof *rows);
	char **lines = calloc(count + 1, sizeof *lines);
	maelys_datalog_status_t st;
	char *out;

	ck_assert(rows != NULL && lines != NULL);
	st = maelys_datalog_result_enumerate(res, pred, arity, rows, count, &n);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(n, count);
	for (i = 0; i < n; i++) {
		lines[i] = calloc(1, DLTEST_ROW_TEXT_MAX);
		ck_assert_ptr_nonnull(lines[i]);
		ck_assert_uint_eq(rows[i].arity, arity);
		for (k = 0; k < arity; k++) {
			if (k > 0)
				strcat(lines[i], ",");
			dltest_term_text(res, &rows[i].terms[k], lines[i],
					 DLTEST_ROW_TEXT_MAX);
		}
		total += strlen(lines[i]) + 1;
	}
	qsort(lines, n, sizeof *lines, dltest_cmp_strings);
	out = calloc(1, total);
	ck_assert_ptr_nonnull(out);
	for (i = 0; i < n; i++) {
		if (i > 0)
			strcat(out, " ");
		strcat(out, lines[i]);
		free(lines[i]);
	}
	free(lines);
	free(rows);
	return out;
}

/* Asserts that pred/arity holds exactly the rows `expected`, written as
 * dltest_rows_text writes them. */
static inline void
dltest_assert_rows(const maelys_datalog_result_t *res, const char *pred,
		   size_t arity, const char *expected)
{
	char *got = dltest_rows_text(res, pred, arity);

	ck_assert_msg(strcmp(got, expected) == 0,
		      "%s/%zu: got \"%s\", want \"%s\"", pred, arity, got,
		      expected);
	free(got);
}

/* ------------------------------------------------------------------ */
/* Memory                                                              */

/* Bytes of heap in use: the ASan allocator's count in a sanitizer build
 * (DLTEST_LIVE_HEAP_ASAN), glibc's mallinfo2 otherwise; 0 when neither is
 * known. */
static inline size_t
dltest_live_heap_bytes(void)
{
#if defined(DLTEST_LIVE_HEAP_ASAN)
	return __sanitizer_get_current_allocated_bytes();
#elif defined(__GLIBC__)
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
#else
	return 0;
#endif
}

#endif /* MAELYS_TESTS_DATALOG_TESTUTIL_H */
