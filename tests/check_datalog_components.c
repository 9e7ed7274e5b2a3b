/* SPDX-License-Identifier: MIT */
/*
 * Souffle's components (--souffle): what instances derive, under the names
 * Souffle gives them (inst.rel, nested a.b.rel), with type parameters,
 * inheritance from one or several bases, overrides, nested components and
 * instances, a base's clause naming a relation of the derived component,
 * a clause for a relation of the top; and the programs Souffle refuses,
 * each with the status and the words a user reads, the position of an
 * error in a component's body, and the hard limits of the expansion.  The
 * native dialect refuses components.  Expected rows are written by hand.
 */
#include "runner.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <maelys/datalog.h>
#include <maelys/datalog_builders.h>

#include "datalog_testutil.h"

#define SOURCE "comp.dl"

static maelys_datalog_policy_t *
load_souffle(const char *src)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st;

	st = maelys_datalog_policy_load_text(NULL, SOURCE, src, strlen(src),
					     MAELYS_DATALOG_LOAD_SOUFFLE,
					     &policy, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "load: %s: %s",
		      maelys_datalog_status_name(st), diag.message);
	return policy;
}

/* Loads and solves src (no input facts); the caller frees *policy,
 * *session and the result. */
static maelys_datalog_result_t *
solve_souffle(const char *src, maelys_datalog_policy_t **policy,
	      maelys_datalog_session_t **session)
{
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *res;

	*policy = load_souffle(src);
	*session = dltest_new_session(*policy);
	res = dltest_solve(*session, edb);
	maelys_datalog_input_edb_free(edb);
	return res;
}

static void
done(maelys_datalog_result_t *res, maelys_datalog_policy_t *policy,
     maelys_datalog_session_t *session)
{
	maelys_datalog_result_free(res);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}

/* Whether the result knows pred/arity at all. */
static bool
has_relation(const maelys_datalog_result_t *res, const char *pred, size_t arity)
{
	size_t n = 0;

	return maelys_datalog_result_count(res, pred, arity, &n) ==
	       MAELYS_DATALOG_STATUS_OK;
}

/* ------------------------------------------------------------------ */

START_TEST(test_components_instances_are_independent_and_qualified)
{
	static const char src[] = ".comp Graph {\n"
				  "  .decl edge(a:number, b:number)\n"
				  "  .decl path(a:number, b:number)\n"
				  "  path(x, y) :- edge(x, y).\n"
				  "  path(x, z) :- path(x, y), edge(y, z).\n"
				  "}\n"
				  ".init g = Graph\n"
				  ".init h = Graph\n"
				  "g.edge(1, 2). g.edge(2, 3).\n"
				  "h.edge(7, 8).\n"
				  ".decl both(a:number, b:number)\n"
				  "both(x, y) :- g.path(x, y).\n"
				  "both(x, y) :- h.path(x, y).\n";
	maelys_datalog_policy_t *policy;
	maelys_datalog_session_t *session;
	maelys_datalog_result_t *res = solve_souffle(src, &policy, &session);

	dltest_assert_rows(res, "g.path", 2, "#1,#2 #1,#3 #2,#3");
	dltest_assert_rows(res, "h.path", 2, "#7,#8");
	dltest_assert_rows(res, "both", 2, "#1,#2 #1,#3 #2,#3 #7,#8");
	/* the component's own names are not relations of the program */
	ck_assert(!has_relation(res, "path", 2));
	ck_assert(!has_relation(res, "edge", 2));
	done(res, policy, session);
}
END_TEST

START_TEST(test_components_type_parameters_and_inner_types)
{
	static const char src[] = ".comp Box<T> {\n"
				  "  .type Id <: number\n"
				  "  .decl item(x:T)\n"
				  "  .decl id(x:Id)\n"
				  "  id(5).\n"
				  "}\n"
				  ".init n = Box<number>\n"
				  ".init s = Box<symbol>\n"
				  "n.item(3).\n"
				  "s.item(\"three\").\n"
				  ".decl ids(x:n.Id)\n"
				  "ids(x) :- n.id(x).\n";
	maelys_datalog_policy_t *policy;
	maelys_datalog_session_t *session;
	maelys_datalog_result_t *res = solve_souffle(src, &policy, &session);

	dltest_assert_rows(res, "n.item", 1, "#3");
	dltest_assert_rows(res, "s.item", 1, "three");
	dltest_assert_rows(res, "ids", 1, "#5");
	done(res, policy, session);
}
END_TEST

/* A record type's fields name the instance's types: the component's own
 * .type T and an inner instance's D.T (Souffle's compose_components). */
START_TEST(test_components_record_fields_name_the_instance_types)
{
	static const char src[] = ".comp Num {\n"
				  "  .type T = number\n"
				  "}\n"
				  ".comp Pair<Dom> {\n"
				  "  .init D = Dom\n"
				  "  .type T = [first:D.T, second:D.T]\n"
				  "  .type Id <: number\n"
				  "  .type Tagged = [id:Id, p:T]\n"
				  "  .decl p(x:Tagged)\n"
				  "}\n"
				  ".init np = Pair<Num>\n"
				  "np.p([1, [2, 3]]).\n"
				  ".decl firsts(x:number)\n"
				  "firsts(f) :- np.p([_, [f, _]]).\n";
	maelys_datalog_policy_t *policy;
	maelys_datalog_session_t *session;
	maelys_datalog_result_t *res = solve_souffle(src, &policy, &session);

	dltest_assert_rows(res, "firsts", 1, "#2");
	done(res, policy, session);
}
END_TEST

/* An ADT's branches are named by the instance as its types are: $B
 * inside the component, $Inst.B outside, so two instances declare no
 * branch twice; input text names them so too (Souffle's comp_types2 and
 * input_adt_names2). */
START_TEST(test_components_adt_branches_are_named_by_the_instance)
{
	static const char src[] = ".comp A {\n"
				  "  .type T = b {a:number} | c {}\n"
				  "  .decl r(x:T)\n"
				  "  r($b(7)). r($c).\n"
				  "}\n"
				  ".init one = A\n"
				  ".init two = A\n"
				  "two.r($two.b(8)).\n"
				  ".decl in(x:one.T)\n.input in\n"
				  ".decl n(x:number)\n"
				  "n(x) :- one.r($one.b(x)).\n"
				  "n(x) :- two.r($two.b(x)).\n"
				  "n(x) :- in($one.b(x)).\n";
	maelys_datalog_policy_t *policy = load_souffle(src);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_arg_t arg = maelys_datalog_arg_symbol("$one.b(9)");
	maelys_datalog_result_t *res;

	dltest_add_args(edb, "in", &arg, 1);
	res = dltest_solve(session, edb);
	dltest_assert_rows(res, "n", 1, "#7 #8 #9");
	maelys_datalog_input_edb_free(edb);
	done(res, policy, session);
}
END_TEST

START_TEST(test_components_directives_name_the_instance_with_its_types)
{
	/* a body's .output names the instance's relation, whose column has
	 * the type the parameter stands for */
	static const char src[] = ".comp Box<T> {\n"
				  "  .decl item(v:T)\n"
				  "  .output item\n"
				  "}\n"
				  ".init n = Box<number>\n"
				  ".init s = Box<symbol>\n";
	maelys_datalog_policy_t *policy = load_souffle(src);
	maelys_datalog_directive_t d;

	ck_assert_uint_eq(maelys_datalog_policy_directive_count(policy), 2);
	ck_assert_status(maelys_datalog_policy_get_directive(policy, 0, &d),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_str_eq(d.predicate, "n.item");
	ck_assert_int_eq(d.kind, MAELYS_DATALOG_DIRECTIVE_OUTPUT);
	ck_assert_int_eq(d.columns[0], MAELYS_DATALOG_COLUMN_NUMBER);
	ck_assert_str_eq(d.column_names[0], "v");
	ck_assert_status(maelys_datalog_policy_get_directive(policy, 1, &d),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_str_eq(d.predicate, "s.item");
	ck_assert_int_eq(d.columns[0], MAELYS_DATALOG_COLUMN_SYMBOL);
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_components_inheritance_and_override)
{
	static const char src[] = ".comp A {\n"
				  "  .decl Rel(x:number) overridable\n"
				  "  Rel(1).\n"
				  "}\n"
				  ".comp B : A {\n"
				  "  .override Rel\n"
				  "  Rel(2).\n"
				  "}\n"
				  ".comp C : A {\n"
				  "  Rel(3).\n"
				  "}\n"
				  ".comp D : B {\n"
				  "  Rel(4).\n"
				  "}\n"
				  ".init a = A\n"
				  ".init b = B\n"
				  ".init c = C\n"
				  ".init d = D\n";
	maelys_datalog_policy_t *policy;
	maelys_datalog_session_t *session;
	maelys_datalog_result_t *res = solve_souffle(src, &policy, &session);

	dltest_assert_rows(res, "a.Rel", 1, "#1");
	dltest_assert_rows(res, "b.Rel", 1, "#2");
	dltest_assert_rows(res, "c.Rel", 1, "#1 #3");
	dltest_assert_rows(res, "d.Rel", 1, "#2 #4");
	done(res, policy, session);
}
END_TEST

START_TEST(test_components_several_bases_with_parameters)
{
	static const char src[] = ".comp Src<T> { .decl from(x:T) }\n"
				  ".comp Dst<T> { .decl to(x:T) }\n"
				  ".comp Copy<T> : Src<T>, Dst<T> {\n"
				  "  to(x) :- from(x).\n"
				  "}\n"
				  ".init c = Copy<number>\n"
				  "c.from(4). c.from(6).\n";
	maelys_datalog_policy_t *policy;
	maelys_datalog_session_t *session;
	maelys_datalog_result_t *res = solve_souffle(src, &policy, &session);

	dltest_assert_rows(res, "c.to", 1, "#4 #6");
	done(res, policy, session);
}
END_TEST

START_TEST(test_components_nested_instances_and_components)
{
	static const char src[] = ".comp Outer {\n"
				  "  .comp Inner {\n"
				  "    .decl v(x:number)\n"
				  "    v(1).\n"
				  "  }\n"
				  "  .init in = Inner\n"
				  "  .decl w(x:number)\n"
				  "  w(x + 10) :- in.v(x).\n"
				  "}\n"
				  ".init o = Outer\n"
				  ".decl top(x:number)\n"
				  "top(x) :- o.in.v(x).\n"
				  "top(x) :- o.w(x).\n";
	maelys_datalog_policy_t *policy;
	maelys_datalog_session_t *session;
	maelys_datalog_result_t *res = solve_souffle(src, &policy, &session);

	dltest_assert_rows(res, "o.in.v", 1, "#1");
	dltest_assert_rows(res, "o.w", 1, "#11");
	dltest_assert_rows(res, "top", 1, "#1 #11");
	done(res, policy, session);
}
END_TEST

START_TEST(test_components_names_resolve_as_souffle_does)
{
	/* a base's clause naming a relation the derived component declares
	 * names the derived one; a clause for a relation of the top stays at
	 * the top */
	static const char src[] = ".decl seen(x:number)\n"
				  ".comp Base {\n"
				  "  .decl out(x:number)\n"
				  "  out(x) :- in(x).\n"
				  "  seen(x) :- out(x).\n"
				  "}\n"
				  ".comp Derived : Base {\n"
				  "  .decl in(x:number)\n"
				  "  in(9).\n"
				  "}\n"
				  ".init d = Derived\n";
	maelys_datalog_policy_t *policy;
	maelys_datalog_session_t *session;
	maelys_datalog_result_t *res = solve_souffle(src, &policy, &session);

	dltest_assert_rows(res, "d.out", 1, "#9");
	dltest_assert_rows(res, "seen", 1, "#9");
	done(res, policy, session);
}
END_TEST

START_TEST(test_components_defined_after_the_init)
{
	static const char src[] = ".init a = A\n"
				  ".comp A { .decl r(x:number) r(2). }\n";
	maelys_datalog_policy_t *policy;
	maelys_datalog_session_t *session;
	maelys_datalog_result_t *res = solve_souffle(src, &policy, &session);

	dltest_assert_rows(res, "a.r", 1, "#2");
	done(res, policy, session);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Refused programs */

struct refused_case {
	const char *src;
	maelys_datalog_status_t status;
	const char *says; /* in the diagnostic */
};

static const struct refused_case refused_cases[] = {
    {".init a = Nope\n", MAELYS_DATALOG_STATUS_UNDECLARED,
     "unknown component 'Nope'"},
    {".comp A<T> { }\n.init a = A\n", MAELYS_DATALOG_STATUS_ARITY,
     "component 'A' takes 1 type parameter, not 0"},
    {".comp A { }\n.comp B : A<number> { }\n", MAELYS_DATALOG_STATUS_ARITY,
     "component 'A' takes 0 type parameters, not 1"},
    {".comp A { .decl r(x:number) }\n"
     ".comp B : A { .override r r(1). }\n",
     MAELYS_DATALOG_STATUS_PARSE,
     "component 'B' overrides relation 'r' of 'A', which is not "
     "overridable"},
    {".comp E { .decl r(x:number) overridable .override r }\n",
     MAELYS_DATALOG_STATUS_PARSE, "which it declares itself"},
    {".comp A { .decl X(a:number) }\n.comp B : A { .decl X(a:number) }\n"
     ".init b = B\n",
     MAELYS_DATALOG_STATUS_REDECLARED,
     "redefinition of relation 'X' in an instance (first declared at line "
     "1)"},
    {".comp A { .init x = A }\n.init a = A\n", MAELYS_DATALOG_STATUS_LIMIT,
     "instances nested deeper than 64"},
    {".comp A<T> { .init x = T }\n.init a = A<A>\n",
     MAELYS_DATALOG_STATUS_ARITY, "takes 1 type parameter, not 0"},
    {".comp E : E { }\n", MAELYS_DATALOG_STATUS_PARSE,
     "cycle in the inheritance of component 'E'"},
    {".comp F : G { }\n.comp G : F { }\n.init f = F\n",
     MAELYS_DATALOG_STATUS_PARSE, "cycle in the inheritance"},
    {".comp A { .decl r(x:number)\n", MAELYS_DATALOG_STATUS_PARSE,
     "component 'A' is not closed"},
    {".type t <: number\n.comp t { }\n", MAELYS_DATALOG_STATUS_REDECLARED,
     "component 't' has the name of a type"},
    {".decl r(x:number)\n.comp A { }\n.init r = A\n",
     MAELYS_DATALOG_STATUS_REDECLARED,
     "instance 'r' has the name of a relation"},
    {".comp A { }\n.init a = A\n.init a = A\n",
     MAELYS_DATALOG_STATUS_REDECLARED,
     "instance 'a' has the name of an instance"},
    {".comp A { }\n.init A = A\n", MAELYS_DATALOG_STATUS_REDECLARED,
     "instance 'A' has the name of a component"},
    {".decl r(x:number)\n.override r\n", MAELYS_DATALOG_STATUS_PARSE,
     ".override outside a component"},
    {".comp A { .decl r(x:number) r(1). }\n.init a = A\n"
     ".decl p(x:number)\np(a.r) :- a.r(_).\n",
     MAELYS_DATALOG_STATUS_PARSE, "'a.r' is a qualified name"},
    {".comp A { }\n.init a.b = A\n", MAELYS_DATALOG_STATUS_PARSE,
     "an instance name 'a.b' is one name"},
    /* the first error of an instance's body, where it is written */
    {".comp A {\n  .decl r(x:number)\n  r(1) :- .\n}\n.init a = A\n",
     MAELYS_DATALOG_STATUS_PARSE, "comp.dl:3:"},
};

START_TEST(test_components_invalid_programs_are_refused)
{
	const struct refused_case *c = &refused_cases[_i];
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st;

	st = maelys_datalog_policy_load_text(
	    NULL, SOURCE, c->src, strlen(c->src), MAELYS_DATALOG_LOAD_SOUFFLE,
	    &policy, &diag);
	ck_assert_msg(st == c->status, "%s: %s (%s), want %s", c->src,
		      maelys_datalog_status_name(st), diag.message,
		      maelys_datalog_status_name(c->status));
	ck_assert_ptr_null(policy);
	ck_assert_msg(strstr(diag.message, c->says) != NULL,
		      "%s: \"%s\" does not say \"%s\"", c->src, diag.message,
		      c->says);
}
END_TEST

START_TEST(test_components_native_dialect_refuses_them)
{
	static const char src[] = ".comp A { }\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st;

	st = maelys_datalog_policy_load_text(NULL, SOURCE, src, strlen(src), 0,
					     &policy, &diag);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_PARSE);
	ck_assert_ptr_null(policy);
	ck_assert_msg(strstr(diag.message, "components are Souffle's") != NULL,
		      "%s", diag.message);
}
END_TEST

/* A program of `levels` components, each instantiating the next twice:
 * 2^levels instances. */
static char *
doubling_program(int levels)
{
	size_t cap = (size_t)levels * 96 + 128, n = 0;
	char *src = malloc(cap);
	int i;

	ck_assert_ptr_nonnull(src);
	for (i = 0; i < levels; i++)
		n += (size_t)snprintf(src + n, cap - n,
				      ".comp C%d { .init x = C%d .init y = "
				      "C%d }\n",
				      i, i + 1, i + 1);
	n += (size_t)snprintf(src + n, cap - n,
			      ".comp C%d { .decl r(x:number) r(1). }\n"
			      ".init top = C0\n",
			      levels);
	ck_assert_uint_lt(n, cap);
	return src;
}

START_TEST(test_components_expansion_is_bounded)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st;
	char *src = doubling_program(20); /* a million instances */

	st = maelys_datalog_policy_load_text(NULL, SOURCE, src, strlen(src),
					     MAELYS_DATALOG_LOAD_SOUFFLE,
					     &policy, &diag);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_LIMIT);
	ck_assert_ptr_null(policy);
	ck_assert_msg(strstr(diag.message, "more than 10000 component") != NULL,
		      "%s", diag.message);
	free(src);

	/* 2^8 instances are fine: each has its r */
	src = doubling_program(8);
	policy = load_souffle(src);
	(void)maelys_datalog_policy_free(policy);
	free(src);
}
END_TEST

/* Loads src, expecting LIMIT and `says` in the diagnostic. */
static void
assert_limit(const char *src, const char *says)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st;

	st = maelys_datalog_policy_load_text(NULL, SOURCE, src, strlen(src),
					     MAELYS_DATALOG_LOAD_SOUFFLE,
					     &policy, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_LIMIT, "%s: %s",
		      maelys_datalog_status_name(st), diag.message);
	ck_assert_ptr_null(policy);
	ck_assert_msg(strstr(diag.message, says) != NULL, "%s", diag.message);
}

START_TEST(test_components_definitions_and_searches_are_bounded)
{
	size_t cap = 5000 * 40, n = 0;
	char *src = malloc(cap);
	int i;

	ck_assert_ptr_nonnull(src);
	/* more components than DL_COMP_DEFS_MAX */
	for (i = 0; i <= 4096; i++)
		n += (size_t)snprintf(src + n, cap - n, ".comp C%d { }\n", i);
	assert_limit(src, "more than 4096 components");
	/* a long chain of bases: checking every definition's ancestors
	 * stops at DL_COMP_WORK_MAX instead of running for minutes */
	n = (size_t)snprintf(src, cap, ".comp C0 { }\n");
	for (i = 1; i < 4000; i++)
		n += (size_t)snprintf(src + n, cap - n, ".comp C%d : C%d { }\n",
				      i, i - 1);
	ck_assert_uint_lt(n, cap);
	assert_limit(src, "took more than 67108864 steps");
	free(src);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("components");

	tcase_add_test(tc,
		       test_components_instances_are_independent_and_qualified);
	tcase_add_test(tc, test_components_type_parameters_and_inner_types);
	tcase_add_test(tc, test_components_record_fields_name_the_instance_types);
	tcase_add_test(tc, test_components_adt_branches_are_named_by_the_instance);
	tcase_add_test(
	    tc, test_components_directives_name_the_instance_with_its_types);
	tcase_add_test(tc, test_components_inheritance_and_override);
	tcase_add_test(tc, test_components_several_bases_with_parameters);
	tcase_add_test(tc, test_components_nested_instances_and_components);
	tcase_add_test(tc, test_components_names_resolve_as_souffle_does);
	tcase_add_test(tc, test_components_defined_after_the_init);
	tcase_add_loop_test(
	    tc, test_components_invalid_programs_are_refused, 0,
	    (int)(sizeof refused_cases / sizeof *refused_cases));
	tcase_add_test(tc, test_components_native_dialect_refuses_them);
	tcase_add_test(tc, test_components_expansion_is_bounded);
	tcase_add_test(tc,
		       test_components_definitions_and_searches_are_bounded);
	suite_add_tcase(s, tc);
	return s;
}
