/* SPDX-License-Identifier: MIT */
/*
 * The surface syntax of the dialect (maelys-policy(5)): every construct a
 * policy may write is accepted *and means what it should* - each accepted
 * text is solved and its relations compared with the rows it must derive -
 * and every malformed text is refused with STATUS_PARSE (or STATUS_LIMIT
 * for a size limit) at the line:column of the offending token, because a
 * policy author fixes a policy from that position alone.
 *
 * Programs here are standalone (domain NULL): every predicate is declared
 * with .decl and readable, so no domain registration is needed.
 */
#include "runner.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <maelys/datalog.h>
#include <maelys/datalog_builders.h>

#include "datalog_testutil.h"

#define SOURCE "parse.dl"

/* A loaded and solved program, freed by run_free. */
struct run {
	maelys_datalog_policy_t *policy;
	maelys_datalog_session_t *session;
	maelys_datalog_result_t *result;
};

/* Loads `src` (standalone, `flags`), solves it without input facts and
 * fails the test on any error, printing the diagnostic. */
static void
run_text(struct run *r, const char *src, unsigned flags)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb;
	maelys_datalog_status_t st;

	memset(r, 0, sizeof *r);
	st = maelys_datalog_policy_load_text(NULL, SOURCE, src, strlen(src),
					     flags, &r->policy, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "load: %s: %s",
		      maelys_datalog_status_name(st), diag.message);
	r->session = dltest_new_session(r->policy);
	edb = dltest_new_edb();
	r->result = dltest_solve(r->session, edb);
	(void)maelys_datalog_input_edb_free(edb);
}

static void
run_free(struct run *r)
{
	(void)maelys_datalog_result_free(r->result);
	(void)maelys_datalog_session_free(r->session);
	(void)maelys_datalog_policy_free(r->policy);
	memset(r, 0, sizeof *r);
}

/* Loads `src`, which must fail; returns the status with `diag` filled and
 * checks that nothing was handed out. */
static maelys_datalog_status_t
load_refused(const char *src, size_t len, unsigned flags,
	     maelys_datalog_diagnostic_t *diag)
{
	/* a non-NULL sentinel: the call must clear it */
	maelys_datalog_policy_t *policy = (maelys_datalog_policy_t *)diag;
	maelys_datalog_status_t st;

	st = maelys_datalog_policy_load_text(NULL, SOURCE, src, len, flags,
					     &policy, diag);
	ck_assert_ptr_null(policy);
	return st;
}

/* ------------------------------------------------------------------ */
/* Accepted constructs                                                 */

START_TEST(test_parse_facts_and_rules_derive_closure)
{
	static const char src[] = ".decl edge(a, b)\n"
				  ".decl path(a, b)\n"
				  "edge(\"a\", \"b\"). edge(\"b\", \"c\").\n"
				  "path(X, Y) :- edge(X, Y).\n"
				  "path(X, Z) :-\n"
				  "    path(X, Y),\n"
				  "    edge(Y, Z).\n";
	struct run r;

	run_text(&r, src, 0);
	dltest_assert_rows(r.result, "edge", 2, "a,b b,c");
	dltest_assert_rows(r.result, "path", 2, "a,b a,c b,c");
	run_free(&r);
}
END_TEST

START_TEST(test_parse_not_and_bang_negate_alike)
{
	static const char src[] = ".decl n(x)\n"
				  ".decl bad(x)\n"
				  ".decl a(x)\n"
				  ".decl b(x)\n"
				  ".decl c(x)\n"
				  "n(1). n(2). n(3). bad(2).\n"
				  "a(X) :- n(X), not(bad(X)).\n"
				  "b(X) :- n(X), !bad(X).\n"
				  "c(X) :- n(X), not (bad(X)).\n";
	struct run r;

	run_text(&r, src, 0);
	dltest_assert_rows(r.result, "a", 1, "#1 #3");
	dltest_assert_rows(r.result, "b", 1, "#1 #3");
	dltest_assert_rows(r.result, "c", 1, "#1 #3");
	run_free(&r);
}
END_TEST

START_TEST(test_parse_anonymous_and_named_underscore_variables_differ)
{
	/* each `_` is a fresh variable; `_Y` is one named variable */
	static const char src[] =
	    ".decl f(a, b, c)\n"
	    ".decl any(a)\n"
	    ".decl named(a)\n"
	    "f(\"a\", \"b\", \"c\"). f(\"d\", \"e\", \"e\").\n"
	    "any(X) :- f(X, _, _).\n"
	    "named(X) :- f(X, _Y, _Y).\n";
	struct run r;

	run_text(&r, src, 0);
	dltest_assert_rows(r.result, "any", 1, "a d");
	dltest_assert_rows(r.result, "named", 1, "d");
	run_free(&r);
}
END_TEST

/* Each escape decodes to its byte; raw bytes >= 0x80 are kept as they are. */
static const struct {
	const char *literal; /* as written in the policy, without quotes */
	const char *bytes;   /* what the symbol holds */
	size_t len;
} escape_cases[] = {
    {"q\\\"q", "q\"q", 3},
    {"b\\\\s", "b\\s", 3},
    {"n\\nl", "n\nl", 3},
    {"t\\tb", "t\tb", 3},
    {"\\\\\\\"\\n\\t", "\\\"\n\t", 4},
    {"", "", 0},
    {"caf\xc3\xa9", "caf\xc3\xa9", 5},
};

START_TEST(test_parse_string_escapes_decode_to_bytes)
{
	const char *lit = escape_cases[_i].literal;
	maelys_datalog_fact_view_t row;
	maelys_datalog_status_t st;
	const char *text = NULL;
	size_t n = 0, len = 0;
	char src[256];
	struct run r;
	int found = 0;

	(void)snprintf(src, sizeof src, ".decl s(v)\ns(\"%s\").\n", lit);
	run_text(&r, src, 0);
	st = maelys_datalog_result_enumerate(r.result, "s", 1, &row, 1, &n);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(row.terms[0].kind, MAELYS_DATALOG_TERM_SYMBOL);
	st = maelys_datalog_result_symbol_text(
	    r.result, row.terms[0].as.symbol_id, &text, &len);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(len, escape_cases[_i].len);
	ck_assert_mem_eq(text, escape_cases[_i].bytes, len);
	/* and the decoded bytes are what a query must give */
	{
		maelys_datalog_arg_t arg = maelys_datalog_arg_symbol_n(
		    escape_cases[_i].bytes, escape_cases[_i].len);

		st =
		    maelys_datalog_result_query(r.result, "s", &arg, 1, &found);
		ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
		ck_assert_int_eq(found, 1);
	}
	run_free(&r);
}
END_TEST

START_TEST(test_parse_integers_are_signed_64_bit)
{
	static const char src[] =
	    ".decl n(k, v)\n"
	    "n(\"neg\", -5). n(\"zero\", 0). n(\"m1\", -1).\n"
	    "n(\"max\", 9223372036854775807).\n"
	    "n(\"min\", -9223372036854775808).\n"
	    "n(\"big\", 1099511627776). n(\"nbig\", -1099511627776).\n";
	static const struct {
		const char *key;
		int64_t value;
	} want[] = {
	    {"neg", -5},
	    {"zero", 0},
	    {"m1", -1},
	    {"max", INT64_MAX},
	    {"min", INT64_MIN},
	    {"big", INT64_C(1) << 40},
	    {"nbig", -(INT64_C(1) << 40)},
	};
	size_t i;
	struct run r;

	run_text(&r, src, 0);
	for (i = 0; i < sizeof want / sizeof *want; i++) {
		maelys_datalog_arg_t args[2];
		maelys_datalog_status_t st;
		int found = 0;

		args[0] = maelys_datalog_arg_symbol(want[i].key);
		args[1] = maelys_datalog_arg_integer(want[i].value);
		st =
		    maelys_datalog_result_query(r.result, "n", args, 2, &found);
		ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
		ck_assert_msg(found, "n(%s, %lld) not derived", want[i].key,
			      (long long)want[i].value);
	}
	/* an integer is not the string of its digits */
	{
		maelys_datalog_arg_t args[2];
		maelys_datalog_status_t st;
		int found = 1;

		args[0] = maelys_datalog_arg_symbol("neg");
		args[1] = maelys_datalog_arg_symbol("-5");
		st =
		    maelys_datalog_result_query(r.result, "n", args, 2, &found);
		ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
		ck_assert_int_eq(found, 0);
	}
	dltest_assert_rows(
	    r.result, "n", 2,
	    "big,#1099511627776 m1,#-1 max,#9223372036854775807 "
	    "min,#-9223372036854775808 nbig,#-1099511627776 neg,#-5 "
	    "zero,#0");
	run_free(&r);
}
END_TEST

START_TEST(test_parse_bare_symbol_equals_its_string)
{
	static const char src[] =
	    ".decl m(x)\n"
	    ".decl k(x)\n"
	    ".decl both(x)\n"
	    "m(pipe). m(redirect). m(var_expand2).\n"
	    "k(\"pipe\"). k(\"var_expand2\"). k(\"glob\").\n"
	    "both(X) :- m(X), k(X).\n";
	maelys_datalog_status_t st;
	struct run r;
	int found = 0;

	run_text(&r, src, 0);
	dltest_assert_rows(r.result, "both", 1, "pipe var_expand2");
	st = MAELYS_DATALOG_QUERY(r.result, &found, "m", "pipe");
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(found, 1);
	run_free(&r);
}
END_TEST

START_TEST(test_parse_three_comment_styles_are_skipped)
{
	/* comment markers inside strings are content */
	static const char src[] = "% percent comment p(\"no1\").\n"
				  "// slash comment p(\"no2\").\n"
				  ".decl p(x) /* after a directive */\n"
				  "/* block p(\"no3\").\n"
				  "   still comment */ p(\"yes1\").\n"
				  "p(\"yes2\"). % trailing p(\"no4\").\n"
				  "p(\"a//b\"). p(\"c%d\"). p(\"/*e*/\").\n"
				  "/**/p(\"yes3\")./* end */\n"
				  "// last line without a newline";
	struct run r;

	run_text(&r, src, 0);
	dltest_assert_rows(r.result, "p", 1, "/*e*/ a//b c%d yes1 yes2 yes3");
	run_free(&r);
}
END_TEST

START_TEST(test_parse_comparisons_filter_as_written)
{
	static const char src[] = ".decl n(x)\n"
				  ".decl lt(x) .decl le(x) .decl gt(x)\n"
				  ".decl ge(x) .decl eq(x) .decl ne(x)\n"
				  "n(1). n(2). n(3).\n"
				  "lt(X) :- n(X), X < 2.\n"
				  "le(X) :- n(X), X <= 2.\n"
				  "gt(X) :- n(X), X > 2.\n"
				  "ge(X) :- n(X), 2 <= X.\n"
				  "eq(X) :- n(X), X = 2.\n"
				  "ne(X) :- n(X), X != 2.\n";
	struct run r;

	run_text(&r, src, 0);
	dltest_assert_rows(r.result, "lt", 1, "#1");
	dltest_assert_rows(r.result, "le", 1, "#1 #2");
	dltest_assert_rows(r.result, "gt", 1, "#3");
	dltest_assert_rows(r.result, "ge", 1, "#2 #3");
	dltest_assert_rows(r.result, "eq", 1, "#2");
	dltest_assert_rows(r.result, "ne", 1, "#1 #3");
	run_free(&r);
}
END_TEST

START_TEST(test_parse_zero_arity_atoms_with_and_without_parens)
{
	static const char src[] = ".decl flag()\n"
				  ".decl other()\n"
				  ".decl on()\n"
				  ".decl off()\n"
				  ".decl never()\n"
				  "flag.\n"
				  "flag().\n"
				  "on() :- flag().\n"
				  "off :- flag, !other.\n"
				  "never :- other.\n";
	struct run r;

	run_text(&r, src, 0);
	dltest_assert_rows(r.result, "flag", 0, "");
	{
		size_t n = 99;
		maelys_datalog_status_t st;

		/* `flag.` and `flag().` are the same fact */
		st = maelys_datalog_result_count(r.result, "flag", 0, &n);
		ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
		ck_assert_uint_eq(n, 1);
		st = maelys_datalog_result_count(r.result, "on", 0, &n);
		ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
		ck_assert_uint_eq(n, 1);
		st = maelys_datalog_result_count(r.result, "off", 0, &n);
		ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
		ck_assert_uint_eq(n, 1);
		st = maelys_datalog_result_count(r.result, "never", 0, &n);
		ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
		ck_assert_uint_eq(n, 0);
	}
	run_free(&r);
}
END_TEST

/* A zero-arity atom is written without parentheses in our dialect, so a
 * predicate may be called like one of Souffle's .decl qualifiers; right
 * after a .decl it is still a clause. */
static const char *const qualifier_words[] = {
    "choice", "inline", "magic", "brie", "btree", "eqrel",
};

START_TEST(test_parse_zero_arity_atom_after_decl_is_not_a_qualifier)
{
	const char *w = qualifier_words[_i];
	char src[256];
	struct run r;

	(void)snprintf(src, sizeof src,
		       ".decl %s()\n.decl go()\n%s.\ngo :- %s.\n", w, w, w);
	run_text(&r, src, 0);
	dltest_assert_rows(r.result, "go", 0, "");
	{
		size_t n = 0;

		ck_assert_int_eq(
		    maelys_datalog_result_count(r.result, "go", 0, &n),
		    MAELYS_DATALOG_STATUS_OK);
		ck_assert_uint_eq(n, 1);
	}
	run_free(&r);
}
END_TEST

/* .decl with and without column types; the types show in the directives. */
START_TEST(test_parse_decl_with_and_without_types)
{
	static const char src[] =
	    ".decl plain(a, b)\n"
	    ".decl typed(s:symbol, n:number, u: unsigned)\n"
	    ".output plain\n"
	    ".output typed\n"
	    "plain(\"x\", 1). typed(\"y\", 2, 3).\n";
	maelys_datalog_directive_t d;
	maelys_datalog_status_t st;
	struct run r;

	run_text(&r, src, 0);
	ck_assert_uint_eq(maelys_datalog_policy_directive_count(r.policy), 2);
	st = maelys_datalog_policy_get_directive(r.policy, 0, &d);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	ck_assert_str_eq(d.predicate, "plain");
	ck_assert_uint_eq(d.arity, 2);
	ck_assert_int_eq(d.columns[0], MAELYS_DATALOG_COLUMN_ANY);
	ck_assert_int_eq(d.columns[1], MAELYS_DATALOG_COLUMN_ANY);
	st = maelys_datalog_policy_get_directive(r.policy, 1, &d);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	ck_assert_str_eq(d.predicate, "typed");
	ck_assert_uint_eq(d.arity, 3);
	ck_assert_int_eq(d.columns[0], MAELYS_DATALOG_COLUMN_SYMBOL);
	ck_assert_int_eq(d.columns[1], MAELYS_DATALOG_COLUMN_NUMBER);
	ck_assert_int_eq(d.columns[2], MAELYS_DATALOG_COLUMN_UNSIGNED);
	dltest_assert_rows(r.result, "plain", 2, "x,#1");
	dltest_assert_rows(r.result, "typed", 3, "y,#2,#3");
	run_free(&r);
}
END_TEST

START_TEST(test_parse_souffle_type_aliases_resolve_to_base)
{
	static const char src[] = ".type Name <: symbol\n"
				  ".type Count = number\n"
				  ".type Alias <: Name\n"
				  ".decl r(n:Name, c:Count, a:Alias) btree\n"
				  ".decl q(n:Name) brie\n"
				  ".output r\n"
				  "r(\"a\", 1, \"b\").\n"
				  "q(n) :- r(n, _, _).\n";
	maelys_datalog_directive_t d;
	maelys_datalog_status_t st;
	struct run r;

	run_text(&r, src, MAELYS_DATALOG_LOAD_SOUFFLE);
	ck_assert_uint_eq(maelys_datalog_policy_directive_count(r.policy), 1);
	st = maelys_datalog_policy_get_directive(r.policy, 0, &d);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(d.kind, MAELYS_DATALOG_DIRECTIVE_OUTPUT);
	ck_assert_int_eq(d.columns[0], MAELYS_DATALOG_COLUMN_SYMBOL);
	ck_assert_int_eq(d.columns[1], MAELYS_DATALOG_COLUMN_NUMBER);
	ck_assert_int_eq(d.columns[2], MAELYS_DATALOG_COLUMN_SYMBOL);
	dltest_assert_rows(r.result, "q", 1, "a");
	run_free(&r);
}
END_TEST

/* The same clause text means different things in the two syntaxes: in
 * Souffle's `a` and `b` are variables, in ours the symbols "a" and "b". */
#define TWO_SYNTAX_BODY                                                        \
	"e(\"x\", \"y\").\n"                                                   \
	"r(a, b) :- e(a, b).\n"

START_TEST(test_parse_souffle_identifiers_are_variables)
{
	static const char src[] =
	    ".decl e(a:symbol, b:symbol)\n"
	    ".decl r(a:symbol, b:symbol)\n" TWO_SYNTAX_BODY;
	struct run r;

	run_text(&r, src, MAELYS_DATALOG_LOAD_SOUFFLE);
	dltest_assert_rows(r.result, "r", 2, "x,y");
	run_free(&r);
	run_text(&r, src, 0);
	dltest_assert_rows(r.result, "r", 2, "");
	run_free(&r);
}
END_TEST

START_TEST(test_parse_souffle_builtins_and_bang)
{
	/* match is a whole-text match; contains(Needle, Text) */
	static const char src[] = ".decl t(s:symbol)\n"
				  ".decl full(s:symbol)\n"
				  ".decl cont(s:symbol)\n"
				  ".decl rest(s:symbol)\n"
				  "t(\"abc\"). t(\"xabcx\"). t(\"zzz\").\n"
				  "full(s) :- t(s), match(\"a.c\", s).\n"
				  "cont(s) :- t(s), contains(\"bc\", s).\n"
				  "rest(s) :- t(s), !full(s).\n";
	struct run r;

	run_text(&r, src, MAELYS_DATALOG_LOAD_SOUFFLE);
	dltest_assert_rows(r.result, "full", 1, "abc");
	dltest_assert_rows(r.result, "cont", 1, "abc xabcx");
	dltest_assert_rows(r.result, "rest", 1, "xabcx zzz");
	run_free(&r);
}
END_TEST

/* Souffle negates with `!` only: `not`, `and` or `prefix` are relation
 * names there, as any C++ keyword is.  In ours `not(atom)` negates and
 * `not` cannot be declared. */
START_TEST(test_parse_souffle_not_is_a_relation_name)
{
	static const char souffle_src[] = ".decl not(x:number)\n"
					  ".decl and(x:number)\n"
					  ".decl prefix(x:number)\n"
					  "not(1). not(2). and(2).\n"
					  "prefix(x) :- not(x), !and(x).\n";
	static const char native_src[] = ".decl t(x)\n.decl u(x)\n"
					 ".decl r(x)\nt(1). t(2). u(2).\n"
					 "r(X) :- t(X), not(u(X)).\n";
	static const char declares_not[] = ".decl not(x)\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	struct run r;

	run_text(&r, souffle_src, MAELYS_DATALOG_LOAD_SOUFFLE);
	dltest_assert_rows(r.result, "prefix", 1, "#1");
	run_free(&r);
	run_text(&r, native_src, 0);
	dltest_assert_rows(r.result, "r", 1, "#1");
	run_free(&r);
	ck_assert_status(load_refused(declares_not, strlen(declares_not), 0,
				      &diag),
			 MAELYS_DATALOG_STATUS_REDECLARED);
	ck_assert_ptr_nonnull(strstr(diag.message, "built-in"));
}
END_TEST

/* IPv4 literals, as Souffle's scanner reads them: the 32-bit signed int
 * (a << 24) + (b << 16) + (c << 8) + d, in both syntaxes; a part above 255
 * is a parse error. */
START_TEST(test_parse_ipv4_literals)
{
	static const char src[] = ".decl ip(n:number)\n"
				  "ip(0.0.0.1). ip(1.0.0.1). ip(10.0.0.1).\n"
				  "ip(255.255.255.255). ip(-0.0.1.0).\n"
				  ".decl local(n:number)\n"
				  "local(X) :- ip(X), X >= 10.0.0.0, "
				  "X <= 10.255.255.255.\n";
	static const char big[] = ".decl ip(n:number)\nip(1.2.256.4).\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	struct run r;
	unsigned flags[2] = {MAELYS_DATALOG_LOAD_SOUFFLE, 0};
	size_t i;

	for (i = 0; i < 2; i++) {
		run_text(&r, src, flags[i]);
		dltest_assert_rows(r.result, "ip", 1,
				   "#-1 #-256 #1 #167772161 #16777217");
		dltest_assert_rows(r.result, "local", 1, "#167772161");
		run_free(&r);
	}
	ck_assert_status(load_refused(big, strlen(big),
				      MAELYS_DATALOG_LOAD_SOUFFLE, &diag),
			 MAELYS_DATALOG_STATUS_PARSE);
	ck_assert_ptr_nonnull(strstr(diag.message, "above 255"));
}
END_TEST

/* DETECT_SYNTAX: Souffle when the text declares types, native otherwise. */
static const struct {
	const char *src;
	unsigned flags;
	const char *want_r; /* rows of r/2 */
} detect_cases[] = {
    /* typed .decl: Souffle */
    {".decl e(a:symbol, b:symbol)\n"
     ".decl r(a:symbol, b:symbol)\n" TWO_SYNTAX_BODY,
     MAELYS_DATALOG_LOAD_DETECT_SYNTAX, "x,y"},
    /* .type: Souffle, even with untyped declarations */
    {".type T <: symbol\n"
     ".decl e(a, b)\n"
     ".decl r(a, b)\n" TWO_SYNTAX_BODY,
     MAELYS_DATALOG_LOAD_DETECT_SYNTAX, "x,y"},
    /* no types: native, and `%` is a comment there */
    {"% native\n"
     ".decl e(a, b)\n"
     ".decl r(a, b)\n" TWO_SYNTAX_BODY,
     MAELYS_DATALOG_LOAD_DETECT_SYNTAX, ""},
    /* a typed column mentioned only in a comment does not count */
    {"// .decl x(a:symbol)\n"
     ".decl e(a, b)\n"
     ".decl r(a, b)\n" TWO_SYNTAX_BODY,
     MAELYS_DATALOG_LOAD_DETECT_SYNTAX, ""},
    /* the explicit flag wins without types */
    {".decl e(a, b)\n"
     ".decl r(a, b)\n" TWO_SYNTAX_BODY,
     MAELYS_DATALOG_LOAD_SOUFFLE, "x,y"},
};

START_TEST(test_parse_detect_syntax_chooses_by_types)
{
	struct run r;

	run_text(&r, detect_cases[_i].src, detect_cases[_i].flags);
	dltest_assert_rows(r.result, "r", 2, detect_cases[_i].want_r);
	run_free(&r);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Refused text: status and the exact position of the offending token   */

static const struct {
	const char *what;
	const char *src;
	unsigned flags;
	maelys_datalog_status_t status;
	size_t line, column;
	const char *phrase; /* part of the message */
} refused_cases[] = {
    {"missing '.' before the next clause", "p(\"a\")\nq(\"b\").", 0,
     MAELYS_DATALOG_STATUS_PARSE, 2, 1, "expected ':-' or '.'"},
    {"missing '.' at the end", "p(\"a\") :- q(\"b\")", 0,
     MAELYS_DATALOG_STATUS_PARSE, 1, 17, "expected ',' or '.'"},
    {"unterminated string", "p(\"a\").\np(\"abc).\n", 0,
     MAELYS_DATALOG_STATUS_PARSE, 2, 3, "unterminated string"},
    {"newline inside a string", "p(\"ab\ncd\").", 0,
     MAELYS_DATALOG_STATUS_PARSE, 1, 3, "newline"},
    {"unterminated comment", "p(\"a\").\n  /* open\n\n", 0,
     MAELYS_DATALOG_STATUS_PARSE, 2, 3, "unterminated /* comment"},
    {"unknown escape", "p(\"a\\qb\").", 0, MAELYS_DATALOG_STATUS_PARSE, 1, 5,
     "unknown escape"},
    {"unknown escape \\x", "p(\"ok\", \"\\x41\").", 0,
     MAELYS_DATALOG_STATUS_PARSE, 1, 10, "unknown escape"},
    {"stray character", "p(\"a\").\n  ?q(\"b\").", 0,
     MAELYS_DATALOG_STATUS_PARSE, 2, 3, "unexpected character '?'"},
    {"stray byte", "p(\"a\"). \x80", 0, MAELYS_DATALOG_STATUS_PARSE, 1, 9,
     "0x80"},
    {"arithmetic without a right operand", "r(Y) :- n(X), Y = X + .", 0,
     MAELYS_DATALOG_STATUS_PARSE, 1, 23, "expected a variable"},
    {"unclosed parenthesis in a term", "r(Y) :- n(X), m((X * 2, Y).", 0,
     MAELYS_DATALOG_STATUS_PARSE, 1, 23, "')'"},
    {"arithmetic nested too deep",
     "p(((((((((((((((((((((((((((((((((((((((((1)))))))))))))))))))))))))))"
     "))))))))))))))).",
     0, MAELYS_DATALOG_STATUS_LIMIT, 1, 35, "deeper than 32"},
    {"arithmetic term too long",
     "r(Y) :- n(X), Y = X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X"
     "+X+X+X+X+X+X+X+X+X.",
     0, MAELYS_DATALOG_STATUS_LIMIT, 1, 19, "more than 64"},
    {"hexadecimal literal over 64 bits", "p(0x1FFFFFFFFFFFFFFFF).", 0,
     MAELYS_DATALOG_STATUS_LIMIT, 1, 3, "64-bit"},
    {"division by zero in a constant term", "p(1 + 2 / 0).", 0,
     MAELYS_DATALOG_STATUS_ARITHMETIC, 1, 9, "division by zero"},
    {"disjunction", "r(X) :- n(X); m(X).", 0, MAELYS_DATALOG_STATUS_PARSE, 1,
     13, "disjunction"},
    {"two heads", "a(X), b(X) :- n(X).", 0, MAELYS_DATALOG_STATUS_PARSE, 1, 5,
     "one head"},
    {"variable alone as a literal", "r(X) :- n(X),\n  X.", 0,
     MAELYS_DATALOG_STATUS_PARSE, 2, 3, "a variable alone"},
    {"pattern from a variable", "r(X) :- n(X), s(P), re_match(X, P).", 0,
     MAELYS_DATALOG_STATUS_PARSE, 1, 33, "string constant"},
    {"pattern from an integer", "r(X) :- n(X), re_match(X, 5).", 0,
     MAELYS_DATALOG_STATUS_PARSE, 1, 27, "string constant"},
    {"position after comments", "/* one\n two */ p(\"a\").\n// x\n   q(#).", 0,
     MAELYS_DATALOG_STATUS_PARSE, 4, 6, "'#'"},
    {"rule without a body", "r(X) :- .", 0, MAELYS_DATALOG_STATUS_PARSE, 1, 9,
     "expected"},
    {"integer above INT64_MAX", "p(9223372036854775808).", 0,
     MAELYS_DATALOG_STATUS_LIMIT, 1, 3, "64-bit"},
    {"integer below INT64_MIN", "p(1).\np(-9223372036854775809).", 0,
     MAELYS_DATALOG_STATUS_LIMIT, 2, 3, "64-bit"},
    {"number running into a name", "p(12ab).", 0, MAELYS_DATALOG_STATUS_PARSE,
     1, 3, "number"},
    {"unsupported directive", ".decl p(x)\n.comp C {}", 0,
     MAELYS_DATALOG_STATUS_PARSE, 2, 1, ".comp"},
    {"unknown column type", ".decl p(x:colour)", 0, MAELYS_DATALOG_STATUS_PARSE,
     1, 11, "unknown type"},
    {"souffle: % is not a comment", ".decl p(x:number)\np(1). % no comment\n",
     MAELYS_DATALOG_LOAD_SOUFFLE, MAELYS_DATALOG_STATUS_PARSE, 2, 7, "'%'"},
    {"souffle: operator without an operand",
     ".decl p(x:number)\n.decl q(x:number)\nq(y) :- p(x), y = x * .",
     MAELYS_DATALOG_LOAD_SOUFFLE, MAELYS_DATALOG_STATUS_PARSE, 3, 23,
     "expected a variable"},
    {"souffle: aggregate body not closed",
     ".decl p(x:number)\n.decl c(n:number)\nc(n) :- n = count : { p(_) .",
     MAELYS_DATALOG_LOAD_SOUFFLE, MAELYS_DATALOG_STATUS_PARSE, 3, 28,
     "',' or '}' in the aggregate's body"},
    {"souffle: component not closed", ".comp Graph {\n",
     MAELYS_DATALOG_LOAD_SOUFFLE, MAELYS_DATALOG_STATUS_PARSE, 1, 1,
     "not closed"},
    {"souffle: record type without a comma",
     ".type Pair = [a:number b:number]\n", MAELYS_DATALOG_LOAD_SOUFFLE,
     MAELYS_DATALOG_STATUS_PARSE, 1, 24, "',' or ']'"},
    {"souffle: a bare identifier is a variable, not an atom",
     ".decl p()\n.decl q()\nq() :- p.", MAELYS_DATALOG_LOAD_SOUFFLE,
     MAELYS_DATALOG_STATUS_PARSE, 3, 8, "a variable alone"},
};

START_TEST(test_parse_malformed_text_is_refused_at_position)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_status_t st;
	char where[64];

	st = load_refused(refused_cases[_i].src, strlen(refused_cases[_i].src),
			  refused_cases[_i].flags, &diag);
	ck_assert_msg(
	    st == refused_cases[_i].status, "%s: status %s, want %s (%s)",
	    refused_cases[_i].what, maelys_datalog_status_name(st),
	    maelys_datalog_status_name(refused_cases[_i].status), diag.message);
	ck_assert_int_eq(diag.status, st);
	ck_assert_msg(diag.line == refused_cases[_i].line &&
			  diag.column == refused_cases[_i].column,
		      "%s: at %zu:%zu, want %zu:%zu (%s)",
		      refused_cases[_i].what, diag.line, diag.column,
		      refused_cases[_i].line, refused_cases[_i].column,
		      diag.message);
	ck_assert_str_eq(diag.source, SOURCE);
	(void)snprintf(where, sizeof where, "%s:%zu:%zu: ", SOURCE,
		       refused_cases[_i].line, refused_cases[_i].column);
	ck_assert_msg(strncmp(diag.message, where, strlen(where)) == 0,
		      "%s: message \"%s\" does not start with \"%s\"",
		      refused_cases[_i].what, diag.message, where);
	ck_assert_msg(strstr(diag.message, refused_cases[_i].phrase) != NULL,
		      "%s: message \"%s\" lacks \"%s\"", refused_cases[_i].what,
		      diag.message, refused_cases[_i].phrase);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Size limits: the largest accepted and the first refused              */

/* A growable text buffer for generated programs. */
struct text {
	char *s;
	size_t len, cap;
};

static void
text_add(struct text *t, const char *s, size_t n)
{
	if (t->cap - t->len <= n) {
		t->cap = (t->len + n + 1) * 2;
		t->s = realloc(t->s, t->cap);
		ck_assert_ptr_nonnull(t->s);
	}
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
}

static void
text_puts(struct text *t, const char *s)
{
	text_add(t, s, strlen(s));
}

/* Loads a generated program and checks where it was refused: at byte
 * `offset` of the last line (columns are 1-based bytes). */
static void
assert_limit_at(const struct text *t, size_t line, size_t offset,
		const char *phrase)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_status_t st;

	st = load_refused(t->s, t->len, 0, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_LIMIT, "status %s: %s",
		      maelys_datalog_status_name(st), diag.message);
	ck_assert_uint_eq(diag.line, line);
	ck_assert_uint_eq(diag.column, offset + 1);
	ck_assert_str_eq(diag.source, SOURCE);
	ck_assert_msg(strstr(diag.message, phrase) != NULL,
		      "message \"%s\" lacks \"%s\"", diag.message, phrase);
}

static void
assert_loads(const struct text *t)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st;

	st = maelys_datalog_policy_load_text(NULL, SOURCE, t->s, t->len, 0,
					     &policy, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "%s: %s",
		      maelys_datalog_status_name(st), diag.message);
	(void)maelys_datalog_policy_free(policy);
}

START_TEST(test_parse_identifier_over_255_bytes_is_limit)
{
	struct text ok = {NULL, 0, 0}, bad = {NULL, 0, 0};
	char name[300];

	memset(name, 'a', sizeof name);
	/* 255 bytes: the longest name */
	text_puts(&ok, ".decl ");
	text_add(&ok, name, 255);
	text_puts(&ok, "(x)\n");
	text_add(&ok, name, 255);
	text_puts(&ok, "(1).\n");
	assert_loads(&ok);
	/* 256 bytes, as a predicate and as a variable */
	text_puts(&bad, "% long names\n");
	text_add(&bad, name, 256);
	text_puts(&bad, "(1).\n");
	assert_limit_at(&bad, 2, 0, "identifier of 256 bytes");
	bad.len = 0;
	text_puts(&bad, ".decl p(x)\n.decl q(x)\np(1).\nq(X) :- p(");
	text_puts(&bad, "X");
	text_add(&bad, name, 255);
	text_puts(&bad, ").\n");
	assert_limit_at(&bad, 4, strlen("q(X) :- p("), "identifier");
	free(ok.s);
	free(bad.s);
}
END_TEST

START_TEST(test_parse_more_than_max_arity_arguments_is_limit)
{
	enum { N = MAELYS_DATALOG_MAX_ARITY };
	struct text t = {NULL, 0, 0};
	size_t k, past = 0;
	char num[24], limit[48];

	(void)snprintf(limit, sizeof limit, "more than %d", N);
	/* N columns and N arguments load */
	text_puts(&t, ".decl p(");
	for (k = 1; k <= N; k++) {
		(void)snprintf(num, sizeof num, "%sc%zu", k > 1 ? ", " : "", k);
		text_puts(&t, num);
	}
	text_puts(&t, ")\np(");
	for (k = 1; k <= N; k++) {
		(void)snprintf(num, sizeof num, "%s%zu", k > 1 ? "," : "", k);
		text_puts(&t, num);
	}
	text_puts(&t, ").\n");
	assert_loads(&t);
	/* an argument past the limit is refused where it starts */
	t.len = 0;
	text_puts(&t, "p(");
	for (k = 1; k <= N + 1; k++) {
		(void)snprintf(num, sizeof num, "%s", k > 1 ? "," : "");
		text_puts(&t, num);
		if (k == N + 1)
			past = t.len;
		(void)snprintf(num, sizeof num, "%zu", k);
		text_puts(&t, num);
	}
	text_puts(&t, ").\n");
	assert_limit_at(&t, 1, past, limit);
	/* and a column past it in a declaration */
	t.len = 0;
	text_puts(&t, "% wide\n.decl w(");
	for (k = 1; k <= N + 1; k++) {
		if (k > 1)
			text_puts(&t, ", ");
		if (k == N + 1)
			past = t.len - strlen("% wide\n");
		(void)snprintf(num, sizeof num, "c%zu", k);
		text_puts(&t, num);
	}
	text_puts(&t, ")\n");
	assert_limit_at(&t, 2, past, limit);
	free(t.s);
}
END_TEST

START_TEST(test_parse_body_over_128_literals_is_limit)
{
	static const char decls[] = ".decl b(x)\n.decl h(x)\nb(1).\n";
	struct text t = {NULL, 0, 0};
	size_t k, col129 = 0, line_start;

	/* 128 literals load (a C++ keyword test of Souffle's has 110) */
	text_puts(&t, decls);
	text_puts(&t, "h(X) :- ");
	for (k = 1; k <= 128; k++)
		text_puts(&t, k > 1 ? ", b(X)" : "b(X)");
	text_puts(&t, ".\n");
	assert_loads(&t);
	t.len = 0;
	text_puts(&t, decls);
	line_start = t.len;
	text_puts(&t, "h(X) :- ");
	for (k = 1; k <= 129; k++) {
		if (k > 1)
			text_puts(&t, ", ");
		if (k == 129)
			col129 = t.len - line_start;
		text_puts(&t, "b(X)");
	}
	text_puts(&t, ".\n");
	assert_limit_at(&t, 4, col129, "longer than 128");
	free(t.s);
}
END_TEST

START_TEST(test_parse_string_over_65535_bytes_is_limit)
{
	struct text t = {NULL, 0, 0};
	char *filler = malloc(65536);

	ck_assert_ptr_nonnull(filler);
	memset(filler, 'z', 65536);
	text_puts(&t, ".decl s(x)\ns(\"");
	text_add(&t, filler, 65535);
	text_puts(&t, "\").\n");
	assert_loads(&t);
	t.len = 0;
	text_puts(&t, "s(1).\ns(\"");
	text_add(&t, filler, 65536);
	text_puts(&t, "\").\n");
	assert_limit_at(&t, 2, 2, "65536 bytes");
	free(filler);
	free(t.s);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_parse_facts_and_rules_derive_closure);
	tcase_add_test(tc, test_parse_not_and_bang_negate_alike);
	tcase_add_test(
	    tc, test_parse_anonymous_and_named_underscore_variables_differ);
	tcase_add_loop_test(tc, test_parse_string_escapes_decode_to_bytes, 0,
			    (int)(sizeof escape_cases / sizeof *escape_cases));
	tcase_add_test(tc, test_parse_integers_are_signed_64_bit);
	tcase_add_test(tc, test_parse_bare_symbol_equals_its_string);
	tcase_add_test(tc, test_parse_three_comment_styles_are_skipped);
	tcase_add_test(tc, test_parse_comparisons_filter_as_written);
	tcase_add_test(tc, test_parse_zero_arity_atoms_with_and_without_parens);
	tcase_add_loop_test(
	    tc, test_parse_zero_arity_atom_after_decl_is_not_a_qualifier, 0,
	    (int)(sizeof qualifier_words / sizeof *qualifier_words));
	tcase_add_test(tc, test_parse_decl_with_and_without_types);
	tcase_add_test(tc, test_parse_souffle_type_aliases_resolve_to_base);
	tcase_add_test(tc, test_parse_souffle_not_is_a_relation_name);
	tcase_add_test(tc, test_parse_ipv4_literals);
	tcase_add_test(tc, test_parse_souffle_identifiers_are_variables);
	tcase_add_test(tc, test_parse_souffle_builtins_and_bang);
	tcase_add_loop_test(tc, test_parse_detect_syntax_chooses_by_types, 0,
			    (int)(sizeof detect_cases / sizeof *detect_cases));
	tcase_add_loop_test(
	    tc, test_parse_malformed_text_is_refused_at_position, 0,
	    (int)(sizeof refused_cases / sizeof *refused_cases));
	tcase_add_test(tc, test_parse_identifier_over_255_bytes_is_limit);
	tcase_add_test(tc, test_parse_more_than_max_arity_arguments_is_limit);
	tcase_add_test(tc, test_parse_body_over_128_literals_is_limit);
	tcase_add_test(tc, test_parse_string_over_65535_bytes_is_limit);
	suite_add_tcase(s, tc);
	return s;
}
