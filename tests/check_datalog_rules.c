/* SPDX-License-Identifier: MIT */
/*
 * The rules of a loaded policy as the authors' tools read them
 * (maelys_datalog_policy_rule_count, _get_rule, _get_literal,
 * _get_head_term, _get_literal_term): rules numbered in source order with the facts skipped,
 * each rule's and literal's text as written with comments dropped and
 * blanks folded, the kind and name of every literal (negation, built-ins),
 * the head's terms as written, long texts bounded, and every index out of
 * range or NULL refused.
 */
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <maelys/datalog.h>

#include "datalog_testutil.h"

#define ST_OK      MAELYS_DATALOG_STATUS_OK
#define ST_INVALID MAELYS_DATALOG_STATUS_INVALID_ARGUMENT

/* Facts between rules, comments of the three styles inside a rule, a rule
 * over several lines, negation written both ways, built-ins and a
 * comparison, an escaped string, and a lower-case symbol in a head. */
static const char program[] =
    ".decl edge(a: symbol, b: symbol)\n"                  /* 1 */
    ".decl path(a: symbol, b: symbol)\n"                  /* 2 */
    ".decl blocked(a: symbol)\n"                          /* 3 */
    ".decl num(n: number)\n"                              /* 4 */
    ".decl tagged(s: symbol, k: number, c: symbol)\n"     /* 5 */
    "edge(\"a\", \"b\").\n"                               /* 6 */
    "edge(\"b\", \"c\").\n"                               /* 7 */
    "path(X, Y) :- edge(X, Y).\n"                         /* 8 */
    "% a comment between rules\n"                         /* 9 */
    "path(X, Z) :-   edge(X, Y), // trailing\n"           /* 10 */
    "    /* block */ path(Y, Z),\n"                       /* 11 */
    "    !blocked(Z),\n"                                  /* 12 */
    "    X   !=\tZ.\n"                                    /* 13 */
    "blocked(\"z\").\n"                                   /* 14 */
    "num(4).\n"                                           /* 15 */
    "  tagged(S, 7, c) :- edge(S, _), not(blocked(S)),\n" /* 16 */
    "      re_match(S, \"^a\\t\"), num(N), N >= 3.\n";    /* 17 */

static maelys_datalog_policy_t *
load_program(void)
{
	return dltest_load(NULL, "rules.dl", program);
}

START_TEST(test_rules_facts_are_not_rules)
{
	maelys_datalog_policy_t *policy = load_program();

	ck_assert_uint_eq(maelys_datalog_policy_rule_count(policy), 3);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* Rule number, text as the API shows it, line, column, head, arity and the
 * number of body literals. */
static const struct {
	const char *text;
	size_t line, column;
	const char *head;
	size_t arity, body;
} rule_cases[] = {
    {"path(X, Y) :- edge(X, Y).", 8, 1, "path", 2, 1},
    {"path(X, Z) :- edge(X, Y), path(Y, Z), !blocked(Z), X != Z.", 10, 1,
     "path", 2, 4},
    {"tagged(S, 7, c) :- edge(S, _), not(blocked(S)), "
     "re_match(S, \"^a\\t\"), num(N), N >= 3.",
     16, 3, "tagged", 3, 5},
};

START_TEST(test_rules_text_is_as_written_without_comments)
{
	maelys_datalog_policy_t *policy = load_program();
	maelys_datalog_rule_info_t info;

	ck_assert_status(
	    maelys_datalog_policy_get_rule(policy, (size_t)_i, &info), ST_OK);
	ck_assert_str_eq(info.text, rule_cases[_i].text);
	ck_assert_uint_eq(info.text_length, strlen(rule_cases[_i].text));
	ck_assert_str_eq(info.source, "rules.dl");
	ck_assert_uint_eq(info.line, rule_cases[_i].line);
	ck_assert_uint_eq(info.column, rule_cases[_i].column);
	ck_assert_str_eq(info.head, rule_cases[_i].head);
	ck_assert_uint_eq(info.head_arity, rule_cases[_i].arity);
	ck_assert_uint_eq(info.body_count, rule_cases[_i].body);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* Rule, literal, kind, name, arity, text, line, column. */
static const struct {
	size_t rule, literal;
	maelys_datalog_literal_kind_t kind;
	const char *name;
	size_t arity;
	const char *text;
	size_t line, column;
} literal_cases[] = {
    {0, 0, MAELYS_DATALOG_LITERAL_ATOM, "edge", 2, "edge(X, Y)", 8, 15},
    {1, 0, MAELYS_DATALOG_LITERAL_ATOM, "edge", 2, "edge(X, Y)", 10, 17},
    {1, 1, MAELYS_DATALOG_LITERAL_ATOM, "path", 2, "path(Y, Z)", 11, 17},
    {1, 2, MAELYS_DATALOG_LITERAL_NEGATED, "blocked", 1, "!blocked(Z)", 12, 5},
    {1, 3, MAELYS_DATALOG_LITERAL_BUILTIN, "!=", 2, "X != Z", 13, 5},
    {2, 0, MAELYS_DATALOG_LITERAL_ATOM, "edge", 2, "edge(S, _)", 16, 22},
    {2, 1, MAELYS_DATALOG_LITERAL_NEGATED, "blocked", 1, "not(blocked(S))", 16,
     34},
    {2, 2, MAELYS_DATALOG_LITERAL_BUILTIN, "re_match", 2,
     "re_match(S, \"^a\\t\")", 17, 7},
    {2, 3, MAELYS_DATALOG_LITERAL_ATOM, "num", 1, "num(N)", 17, 28},
    {2, 4, MAELYS_DATALOG_LITERAL_BUILTIN, ">=", 2, "N >= 3", 17, 36},
};

START_TEST(test_rules_literals_name_kind_and_text)
{
	maelys_datalog_policy_t *policy = load_program();
	maelys_datalog_literal_info_t lit;

	ck_assert_status(
	    maelys_datalog_policy_get_literal(policy, literal_cases[_i].rule,
					      literal_cases[_i].literal, &lit),
	    ST_OK);
	ck_assert_int_eq(lit.kind, literal_cases[_i].kind);
	ck_assert_str_eq(lit.name, literal_cases[_i].name);
	ck_assert_uint_eq(lit.arity, literal_cases[_i].arity);
	ck_assert_str_eq(lit.text, literal_cases[_i].text);
	ck_assert_uint_eq(lit.text_length, strlen(literal_cases[_i].text));
	ck_assert_uint_eq(lit.line, literal_cases[_i].line);
	ck_assert_uint_eq(lit.column, literal_cases[_i].column);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_rules_head_terms_as_written)
{
	maelys_datalog_policy_t *policy = load_program();
	maelys_datalog_written_term_t t;

	ck_assert_status(maelys_datalog_policy_get_head_term(policy, 2, 0, &t),
			 ST_OK);
	ck_assert_int_eq(t.kind, MAELYS_DATALOG_WRITTEN_VARIABLE);
	ck_assert_str_eq(t.text, "S");
	ck_assert_uint_eq(t.length, 1);
	ck_assert_status(maelys_datalog_policy_get_head_term(policy, 2, 1, &t),
			 ST_OK);
	ck_assert_int_eq(t.kind, MAELYS_DATALOG_WRITTEN_INTEGER);
	ck_assert_int_eq(t.integer, 7);
	ck_assert_str_eq(t.text, "");
	/* a lower-case name in the native dialect is the string "c" */
	ck_assert_status(maelys_datalog_policy_get_head_term(policy, 2, 2, &t),
			 ST_OK);
	ck_assert_int_eq(t.kind, MAELYS_DATALOG_WRITTEN_SYMBOL);
	ck_assert_str_eq(t.text, "c");
	ck_assert_uint_eq(t.length, 1);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* A body literal's terms as written: an atom's, a negated atom's, a
 * built-in call's arguments and a comparison's two sides; out of range and
 * NULL refused. */
START_TEST(test_rules_literal_terms_as_written)
{
	maelys_datalog_policy_t *policy = load_program();
	maelys_datalog_written_term_t t;

	/* edge(S, _) */
	ck_assert_status(
	    maelys_datalog_policy_get_literal_term(policy, 2, 0, 0, &t), ST_OK);
	ck_assert_int_eq(t.kind, MAELYS_DATALOG_WRITTEN_VARIABLE);
	ck_assert_str_eq(t.text, "S");
	ck_assert_status(
	    maelys_datalog_policy_get_literal_term(policy, 2, 0, 1, &t), ST_OK);
	ck_assert_int_eq(t.kind, MAELYS_DATALOG_WRITTEN_ANONYMOUS);
	ck_assert_status(
	    maelys_datalog_policy_get_literal_term(policy, 2, 0, 2, &t),
	    ST_INVALID);
	/* not(blocked(S)) */
	ck_assert_status(
	    maelys_datalog_policy_get_literal_term(policy, 2, 1, 0, &t), ST_OK);
	ck_assert_int_eq(t.kind, MAELYS_DATALOG_WRITTEN_VARIABLE);
	ck_assert_str_eq(t.text, "S");
	/* re_match(S, "^a\t"): the pattern decoded */
	ck_assert_status(
	    maelys_datalog_policy_get_literal_term(policy, 2, 2, 1, &t), ST_OK);
	ck_assert_int_eq(t.kind, MAELYS_DATALOG_WRITTEN_SYMBOL);
	ck_assert_str_eq(t.text, "^a\t");
	/* N >= 3 */
	ck_assert_status(
	    maelys_datalog_policy_get_literal_term(policy, 2, 4, 0, &t), ST_OK);
	ck_assert_int_eq(t.kind, MAELYS_DATALOG_WRITTEN_VARIABLE);
	ck_assert_str_eq(t.text, "N");
	ck_assert_status(
	    maelys_datalog_policy_get_literal_term(policy, 2, 4, 1, &t), ST_OK);
	ck_assert_int_eq(t.kind, MAELYS_DATALOG_WRITTEN_INTEGER);
	ck_assert_int_eq(t.integer, 3);
	ck_assert_status(
	    maelys_datalog_policy_get_literal_term(policy, 2, 4, 2, &t),
	    ST_INVALID);
	ck_assert_status(
	    maelys_datalog_policy_get_literal_term(policy, 2, 5, 0, &t),
	    ST_INVALID);
	ck_assert_status(
	    maelys_datalog_policy_get_literal_term(policy, 3, 0, 0, &t),
	    ST_INVALID);
	ck_assert_status(
	    maelys_datalog_policy_get_literal_term(NULL, 2, 0, 0, &t),
	    ST_INVALID);
	ck_assert_status(
	    maelys_datalog_policy_get_literal_term(policy, 2, 0, 0, NULL),
	    ST_INVALID);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* A lower-case name in a body is a string in the native dialect, as the
 * load read it (in Souffle's it would be a variable). */
START_TEST(test_rules_literal_bare_name_is_a_string_natively)
{
	maelys_datalog_policy_t *native = dltest_load(
	    NULL, "n.dl",
	    ".decl in(a: symbol)\n.decl out(a: symbol)\n"
	    "out(X) :- in(X), X != c.\n");
	maelys_datalog_written_term_t t;

	ck_assert_status(
	    maelys_datalog_policy_get_literal_term(native, 0, 1, 1, &t), ST_OK);
	ck_assert_int_eq(t.kind, MAELYS_DATALOG_WRITTEN_SYMBOL);
	ck_assert_str_eq(t.text, "c");
	(void)maelys_datalog_policy_free(native);
}
END_TEST

/* A string constant in a head is its value (escapes decoded), not its
 * spelling. */
START_TEST(test_rules_head_string_is_decoded)
{
	static const char src[] = ".decl in(a: symbol)\n"
				  ".decl out(a: symbol, b: symbol)\n"
				  "out(X, \"a\\tb\") :- in(X).\n";
	maelys_datalog_policy_t *policy = dltest_load(NULL, "head.dl", src);
	maelys_datalog_written_term_t t;

	ck_assert_status(maelys_datalog_policy_get_head_term(policy, 0, 1, &t),
			 ST_OK);
	ck_assert_int_eq(t.kind, MAELYS_DATALOG_WRITTEN_SYMBOL);
	ck_assert_uint_eq(t.length, 3);
	ck_assert_mem_eq(t.text, "a\tb", 3);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* The shipped walkthrough policy under its domain: its five facts are
 * POLICY_FACT facts, not rules, and its rules keep their order. */
START_TEST(test_rules_walkthrough_rules_in_source_order)
{
	static const maelys_datalog_domain_t domain =
	    DLTEST_LEVEL1_DOMAIN("rules_pty");
	maelys_datalog_policy_t *policy = dltest_load_walkthrough(&domain);
	maelys_datalog_rule_info_t info;
	maelys_datalog_literal_info_t lit;
	maelys_datalog_written_term_t t;

	ck_assert_uint_eq(maelys_datalog_policy_rule_count(policy), 5);
	ck_assert_status(maelys_datalog_policy_get_rule(policy, 0, &info),
			 ST_OK);
	ck_assert_str_eq(info.text,
			 "deny(\"__line__\", \"shell metacharacter in line\") "
			 ":- shell_metachar(_).");
	ck_assert_uint_eq(info.line, 25);
	ck_assert_status(maelys_datalog_policy_get_rule(policy, 3, &info),
			 ST_OK);
	ck_assert_str_eq(info.text, "deny_any(Op) :- deny(Op, Reason).");
	ck_assert_uint_eq(info.line, 40);
	ck_assert_status(maelys_datalog_policy_get_rule(policy, 4, &info),
			 ST_OK);
	ck_assert_str_eq(info.head, "allow");
	ck_assert_str_eq(info.text, "allow(Cmd) :- command(Cmd), "
				    "not(deny_any(\"__line__\")), "
				    "not(deny_any(Cmd)).");
	ck_assert_status(maelys_datalog_policy_get_literal(policy, 4, 2, &lit),
			 ST_OK);
	ck_assert_int_eq(lit.kind, MAELYS_DATALOG_LITERAL_NEGATED);
	ck_assert_str_eq(lit.name, "deny_any");
	ck_assert_status(maelys_datalog_policy_get_head_term(policy, 1, 1, &t),
			 ST_OK);
	ck_assert_int_eq(t.kind, MAELYS_DATALOG_WRITTEN_SYMBOL);
	ck_assert_str_eq(t.text, "command is forbidden by policy");
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* A rule longer than what is kept: its text and the long literal's are
 * cut, end in "...", and never split a UTF-8 character. */
START_TEST(test_rules_long_text_is_cut_at_a_character)
{
	static const char head[] = ".decl in(a: symbol)\n"
				   ".decl out(a: symbol)\n"
				   "out(X) :- in(X), X != \"";
	static const char tail[] = "\".\n";
	size_t n = 20000, len = sizeof head - 1 + n * 2 + sizeof tail - 1, i;
	char *src = malloc(len + 1);
	maelys_datalog_policy_t *policy;
	maelys_datalog_rule_info_t info;
	maelys_datalog_literal_info_t lit;
	size_t lead = 0, cont = 0;

	ck_assert_ptr_nonnull(src);
	memcpy(src, head, sizeof head - 1);
	for (i = 0; i < n; i++)
		memcpy(src + sizeof head - 1 + 2 * i, "\xc3\xa9", 2); /* é */
	memcpy(src + sizeof head - 1 + 2 * n, tail, sizeof tail);
	policy = dltest_load_n(NULL, "long.dl", src, len);
	ck_assert_status(maelys_datalog_policy_get_rule(policy, 0, &info),
			 ST_OK);
	ck_assert_uint_le(info.text_length, 8192);
	ck_assert_uint_gt(info.text_length, 4096);
	ck_assert_uint_eq(strlen(info.text), info.text_length);
	ck_assert_str_eq(info.text + info.text_length - 3, "...");
	ck_assert_msg(strncmp(info.text, "out(X) :- in(X), X != \"", 23) == 0,
		      "text starts %.40s", info.text);
	for (i = 23; i < info.text_length - 3; i++) {
		if ((unsigned char)info.text[i] == 0xc3)
			lead++;
		else if ((unsigned char)info.text[i] == 0xa9)
			cont++;
	}
	ck_assert_uint_eq(lead, cont);
	ck_assert_status(maelys_datalog_policy_get_literal(policy, 0, 1, &lit),
			 ST_OK);
	ck_assert_uint_le(lit.text_length, 8192);
	ck_assert_str_eq(lit.text + lit.text_length - 3, "...");
	ck_assert_int_eq(strncmp(lit.text, "X != \"\xc3\xa9", 8), 0);
	(void)maelys_datalog_policy_free(policy);
	free(src);
}
END_TEST

START_TEST(test_rules_out_of_range_is_invalid)
{
	maelys_datalog_policy_t *policy = load_program();
	maelys_datalog_rule_info_t info;
	maelys_datalog_literal_info_t lit;
	maelys_datalog_written_term_t t;

	memset(&info, 0xa5, sizeof info);
	ck_assert_status(maelys_datalog_policy_get_rule(policy, 3, &info),
			 ST_INVALID);
	ck_assert_ptr_null(info.text); /* cleared first */
	ck_assert_status(
	    maelys_datalog_policy_get_rule(policy, (size_t)-1, &info),
	    ST_INVALID);
	memset(&lit, 0xa5, sizeof lit);
	ck_assert_status(maelys_datalog_policy_get_literal(policy, 0, 1, &lit),
			 ST_INVALID);
	ck_assert_ptr_null(lit.text);
	ck_assert_status(maelys_datalog_policy_get_literal(policy, 3, 0, &lit),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_policy_get_head_term(policy, 0, 2, &t),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_policy_get_head_term(policy, 3, 0, &t),
			 ST_INVALID);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_rules_null_is_invalid)
{
	maelys_datalog_policy_t *policy = load_program();
	maelys_datalog_rule_info_t info;
	maelys_datalog_literal_info_t lit;
	maelys_datalog_written_term_t t;

	ck_assert_uint_eq(maelys_datalog_policy_rule_count(NULL), 0);
	ck_assert_status(maelys_datalog_policy_get_rule(NULL, 0, &info),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_policy_get_rule(policy, 0, NULL),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_policy_get_literal(NULL, 0, 0, &lit),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_policy_get_literal(policy, 0, 0, NULL),
			 ST_INVALID);
	ck_assert_status(maelys_datalog_policy_get_head_term(NULL, 0, 0, &t),
			 ST_INVALID);
	ck_assert_status(
	    maelys_datalog_policy_get_head_term(policy, 0, 0, NULL),
	    ST_INVALID);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

/* A program of facts only has no rules. */
START_TEST(test_rules_facts_only_has_none)
{
	maelys_datalog_policy_t *policy =
	    dltest_load(NULL, "facts.dl", ".decl e(a: number)\ne(1).\ne(2).\n");
	maelys_datalog_rule_info_t info;

	ck_assert_uint_eq(maelys_datalog_policy_rule_count(policy), 0);
	ck_assert_status(maelys_datalog_policy_get_rule(policy, 0, &info),
			 ST_INVALID);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, test_rules_facts_are_not_rules);
	tcase_add_loop_test(tc, test_rules_text_is_as_written_without_comments,
			    0, (int)(sizeof rule_cases / sizeof *rule_cases));
	tcase_add_loop_test(
	    tc, test_rules_literals_name_kind_and_text, 0,
	    (int)(sizeof literal_cases / sizeof *literal_cases));
	tcase_add_test(tc, test_rules_head_terms_as_written);
	tcase_add_test(tc, test_rules_literal_terms_as_written);
	tcase_add_test(tc, test_rules_literal_bare_name_is_a_string_natively);
	tcase_add_test(tc, test_rules_head_string_is_decoded);
	tcase_add_test(tc, test_rules_walkthrough_rules_in_source_order);
	tcase_add_test(tc, test_rules_long_text_is_cut_at_a_character);
	tcase_add_test(tc, test_rules_out_of_range_is_invalid);
	tcase_add_test(tc, test_rules_null_is_invalid);
	tcase_add_test(tc, test_rules_facts_only_has_none);
	suite_add_tcase(s, tc);
	return s;
}
