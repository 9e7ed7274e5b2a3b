/* SPDX-License-Identifier: MIT */
/*
 * Every refusal of a policy at load time, and the two role refusals that
 * can only happen later (an input fact for a non-EDB predicate at solve
 * time, a read of a non-QUERY predicate from a result).  Each case checks
 * the status, the position (diag.line, diag.column), diag.source and a key
 * phrase of the message: a host shows that diagnostic to the policy author
 * and denies, so it must say what is wrong and where.
 *
 * Loading is all-or-nothing: a refused policy hands out nothing (*out is
 * NULL) and leaves nothing behind that a later load could see.
 *
 * The domains registered here are this file's own (lang_errors_*): the
 * registry is process-wide, and other suites register theirs.
 */
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <maelys/datalog.h>
#include <maelys/datalog_builders.h>

#include "datalog_testutil.h"

#define SOURCE      "errors.dl"
#define DOMAIN      "lang_errors"
#define OPEN_DOMAIN "lang_errors_open"

static const maelys_datalog_predicate_t host_preds[] = {
    {"in_cmd", 1, MAELYS_DATALOG_PREDICATE_EDB},
    {"in_user", 1, MAELYS_DATALOG_PREDICATE_EDB},
    {"listed", 1, MAELYS_DATALOG_PREDICATE_POLICY_FACT},
    {"helper", 1, MAELYS_DATALOG_PREDICATE_IDB},
    {"allow", 1, MAELYS_DATALOG_PREDICATE_IDB | MAELYS_DATALOG_PREDICATE_QUERY},
    {"deny", 2, MAELYS_DATALOG_PREDICATE_IDB | MAELYS_DATALOG_PREDICATE_QUERY},
};

static const char *const host_atoms[] = {"rm", "alice", "forbidden"};

/* The same predicates with a vocabulary... */
static const maelys_datalog_domain_t host_domain = {
    DOMAIN, host_preds, sizeof host_preds / sizeof *host_preds, host_atoms,
    sizeof host_atoms / sizeof *host_atoms};
/* ...and without one: any constant is accepted. */
static const maelys_datalog_domain_t open_domain = {
    OPEN_DOMAIN, host_preds, sizeof host_preds / sizeof *host_preds, NULL, 0};

/* Registered by every test: with CK_FORK=no they share the process, and
 * registering an equal table again is a no-op. */
static void
register_domains(void)
{
	maelys_datalog_status_t st;

	st = maelys_datalog_domain_register(&host_domain);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	st = maelys_datalog_domain_register(&open_domain);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
}

/* Loads `src` for `domain` (NULL: standalone), which must be refused with
 * `status` at line:column, with `phrase` in the message. */
static void
assert_refused(const char *what, const char *domain, const char *src,
	       maelys_datalog_status_t status, size_t line, size_t column,
	       const char *phrase)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	/* a non-NULL sentinel: a refused load must clear it */
	maelys_datalog_policy_t *policy = (maelys_datalog_policy_t *)&diag;
	maelys_datalog_status_t st;
	char where[64];

	st = maelys_datalog_policy_load_inline(domain, SOURCE, src, strlen(src),
					       &policy, &diag);
	ck_assert_msg(st == status, "%s: status %s, want %s (%s)", what,
		      maelys_datalog_status_name(st),
		      maelys_datalog_status_name(status), diag.message);
	ck_assert_ptr_null(policy);
	ck_assert_int_eq(diag.status, status);
	ck_assert_msg(diag.line == line && diag.column == column,
		      "%s: at %zu:%zu, want %zu:%zu (%s)", what, diag.line,
		      diag.column, line, column, diag.message);
	ck_assert_msg(strcmp(diag.source, SOURCE) == 0,
		      "%s: diag.source \"%s\", want \"%s\"", what, diag.source,
		      SOURCE);
	if (line > 0) {
		(void)snprintf(where, sizeof where, "%s:%zu:%zu: ", SOURCE,
			       line, column);
		ck_assert_msg(strncmp(diag.message, where, strlen(where)) == 0,
			      "%s: message \"%s\" does not start with \"%s\"",
			      what, diag.message, where);
	}
	ck_assert_msg(strstr(diag.message, phrase) != NULL,
		      "%s: message \"%s\" lacks \"%s\"", what, diag.message,
		      phrase);
}

/* One row per refusal.  domain NULL: a standalone program. */
struct refusal {
	const char *what;
	const char *domain;
	const char *src;
	maelys_datalog_status_t status;
	size_t line, column;
	const char *phrase;
};

#define ST(x) MAELYS_DATALOG_STATUS_##x

static const struct refusal refusals[] = {
    /* syntax */
    {"syntax error", DOMAIN, "allow(C) :- in_cmd(C) helper(C).", ST(PARSE), 1,
     23, "expected ',' or '.'"},
    /* undeclared: at the atom's name, with a close name when there is */
    {"undeclared in a body, with suggestion", DOMAIN,
     "allow(C) :- in_cmd(C), lsted(C).", ST(UNDECLARED), 1, 24,
     "did you mean 'listed/1'?"},
    {"undeclared head, with suggestion", DOMAIN, "\nalow(C) :- in_cmd(C).",
     ST(UNDECLARED), 2, 1, "did you mean 'allow/1'?"},
    {"undeclared, nothing close", DOMAIN, "allow(C) :- in_cmd(C), zzzzzzzz(C).",
     ST(UNDECLARED), 1, 24, "undeclared predicate 'zzzzzzzz/1'"},
    {"undeclared in a standalone program", NULL,
     ".decl edge(a, b)\n.decl path(a, b)\npath(X, Y) :- egde(X, Y).",
     ST(UNDECLARED), 3, 15, "did you mean 'edge/2'?"},
    {"undeclared relation of a directive", NULL,
     ".decl edge(a, b)\n.output egde\n", ST(UNDECLARED), 2, 9, "egde"},
    /* arity: at the atom */
    {"wrong arity in a body", DOMAIN, "allow(C) :- in_cmd(C, C).", ST(ARITY), 1,
     13, "'in_cmd' has 1 argument, not 2"},
    {"wrong arity of a head", DOMAIN, "deny(C) :- in_cmd(C).", ST(ARITY), 1, 1,
     "'deny' has 2 arguments, not 1"},
    {"wrong arity of a fact", DOMAIN, "listed(\"rm\", \"rm\").", ST(ARITY), 1,
     1, "not 2"},
    {"wrong arity of a built-in", DOMAIN, "allow(C) :- in_cmd(C), prefix(C).",
     ST(ARITY), 1, 24, "takes 2 arguments"},
    /* roles: at the head atom */
    {"rule head on an EDB predicate", DOMAIN,
     "listed(\"rm\").\nin_cmd(C) :- listed(C).", ST(ROLE), 2, 1, "rule head"},
    {"fact on an EDB predicate", DOMAIN,
     "listed(\"rm\").\n  in_user(\"alice\").", ST(ROLE), 2, 3,
     "fact of the policy"},
    {"rule on a POLICY_FACT predicate", DOMAIN, "listed(C) :- in_cmd(C).",
     ST(ROLE), 1, 1, "POLICY_FACT"},
    /* range restriction: at the unbound variable */
    {"unsafe head variable", DOMAIN, "allow(X) :- in_cmd(C).", ST(UNSAFE), 1, 7,
     "variable X of the head"},
    {"unsafe variable of a negated literal", DOMAIN,
     "allow(C) :- in_cmd(C), not(listed(Y)).", ST(UNSAFE), 1, 35,
     "negated literal"},
    {"unsafe variable bound only by a negation", DOMAIN,
     "allow(C) :- not(listed(C)).", ST(UNSAFE), 1, 7, "variable C"},
    {"unsafe variable of a comparison", DOMAIN,
     "allow(C) :- in_cmd(C), C != Y.", ST(UNSAFE), 1, 29, "comparison"},
    {"unsafe ordering is not a binding", DOMAIN,
     "allow(C) :- in_cmd(C), Y < C, helper(C), Y != C.", ST(UNSAFE), 1, 24,
     "comparison"},
    {"unsafe variable of a built-in", DOMAIN,
     "allow(C) :- in_cmd(C), prefix(C, P).", ST(UNSAFE), 1, 34, "built-in"},
    {"unsafe variable of a regex text", DOMAIN,
     "allow(C) :- in_cmd(C), re_match(T, \"x\").", ST(UNSAFE), 1, 33,
     "built-in"},
    {"anonymous variable in a head", DOMAIN, "deny(C, _) :- in_cmd(C).",
     ST(UNSAFE), 1, 9, "'_' in a rule head"},
    {"variable in a fact", DOMAIN, "listed(\"rm\").\nlisted(X).", ST(UNSAFE), 2,
     8, "a fact must be ground"},
    {"anonymous variable in a fact", DOMAIN, "listed(_).", ST(UNSAFE), 1, 8,
     "a fact must be ground"},
    {"anonymous variable in a comparison", DOMAIN,
     "allow(C) :- in_cmd(C), C != _.", ST(UNSAFE), 1, 29,
     "'_' in a comparison"},
    /* recursion through negation: at `not` / `!`, naming the cycle */
    {"two-predicate negation cycle", NULL,
     ".decl b(x)\n.decl p(x)\n.decl q(x)\nb(1).\n"
     "p(X) :- b(X), not(q(X)).\n"
     "q(X) :- b(X), p(X).\n",
     ST(NEGATION_CYCLE), 5, 15, "recursion through negation: p -> not q -> p"},
    {"three-predicate negation cycle", NULL,
     ".decl b(x)\n.decl p(x)\n.decl q(x)\n.decl r(x)\nb(1).\n"
     "p(X) :- b(X), !q(X).\n"
     "q(X) :- r(X).\n"
     "r(X) :- p(X).\n",
     ST(NEGATION_CYCLE), 6, 15,
     "recursion through negation: p -> not q -> r -> p"},
    {"negation of itself", NULL,
     ".decl p(x)\n.decl q(x)\nq(1).\np(X) :- q(X), not(p(X)).\n",
     ST(NEGATION_CYCLE), 4, 15, "recursion through negation: p -> not p"},
    {"negation cycle in a domain policy", DOMAIN,
     "helper(C) :- in_cmd(C), !allow(C).\n"
     "allow(C) :- helper(C).\n",
     ST(NEGATION_CYCLE), 1, 25,
     "recursion through negation: helper -> not allow -> helper"},
    /* vocabulary: at the constant */
    {"string constant outside the vocabulary", DOMAIN,
     "deny(C, \"unknown reason\") :- in_cmd(C).", ST(VOCABULARY), 1, 9,
     "constant \"unknown reason\" is not in the vocabulary of domain "
     "'lang_errors'"},
    {"bare symbol outside the vocabulary", DOMAIN,
     "deny(C, oops) :- in_cmd(C).", ST(VOCABULARY), 1, 9, "\"oops\""},
    {"constant of a comparison outside the vocabulary", DOMAIN,
     "allow(C) :- in_cmd(C), C != \"ls\".", ST(VOCABULARY), 1, 29, "\"ls\""},
    {"constant of a string built-in outside the vocabulary", DOMAIN,
     "allow(C) :- in_cmd(C), prefix(C, \"r\").", ST(VOCABULARY), 1, 34,
     "\"r\""},
    {"policy fact outside the vocabulary", DOMAIN,
     "listed(\"rm\").\nlisted(\"dd\").", ST(VOCABULARY), 2, 8, "\"dd\""},
    /* regex: at the pattern */
    {"invalid regular expression", DOMAIN,
     "allow(C) :- in_cmd(C), re_match(C, \"a(b\").", ST(REGEX), 1, 36,
     "invalid regular expression \"a(b\""},
    {"invalid regular expression names the offset", NULL,
     ".decl t(x)\n.decl m(x)\nm(X) :- t(X), re_match(X, \"[z-a]\").", ST(REGEX),
     3, 27, "at offset"},
    /* redeclaration: at the declared name */
    {"declared twice", NULL, ".decl h(x)\n.decl h(x)\n", ST(REDECLARED), 2, 7,
     "already declared at line 1"},
    {"declared twice with another arity", DOMAIN, ".decl h(x)\n.decl h(x, y)\n",
     ST(REDECLARED), 2, 7, "already declared"},
    {"declaring a domain predicate with another arity", DOMAIN,
     ".decl allow(x, y)\n", ST(REDECLARED), 1, 7,
     "declared by domain 'lang_errors' with arity 1"},
    {"declaring a built-in name", NULL, ".decl re_match(a, b)\n",
     ST(REDECLARED), 1, 7, "built-in"},
    {"declaring not", DOMAIN, ".decl not(a)\n", ST(REDECLARED), 1, 7,
     "built-in"},
    /* as Souffle refuses them: at the second name */
    {"a column named twice", NULL, ".decl r(type:symbol, type:symbol)\n",
     ST(REDECLARED), 1, 22, "column 'type' of 'r' is named twice"},
    {"a type declared twice", NULL,
     ".type T <: symbol\n.type T <: symbol\n.decl r(x:T)\n", ST(REDECLARED),
     2, 7, "type 'T' is already declared at line 1"},
    {".printsize of a relation twice", NULL,
     ".decl a(x:number)\n.decl b(x:number)\n.printsize b\n.printsize a, "
     "b\n",
     ST(REDECLARED), 4, 15, ".printsize of 'b' again (first at line 3)"},
    /* arithmetic: numbers only, every variable it reads bound */
    {"a string in arithmetic", NULL,
     ".decl n(x)\n.decl m(x)\nm(X + \"a\") :- n(X).\n", ST(TYPE), 3, 7,
     "the string \"a\" in the arithmetic term X + \"a\""},
    {"a bare symbol in arithmetic", NULL,
     ".decl n(x)\n.decl m(x)\nm(X * two) :- n(X).\n", ST(TYPE), 3, 7,
     "the string \"two\""},
    {"arithmetic term in a symbol column", NULL,
     ".decl n(x:number)\n.decl s(x:symbol)\ns(X + 1) :- n(X).\n", ST(TYPE),
     3, 3, "X + 1 is a number, but column 1 of 's' is a symbol"},
    {"symbol variable in arithmetic", NULL,
     ".decl s(x:symbol)\n.decl m(x:number)\nm(X + 1) :- s(X).\n", ST(TYPE),
     3, 3, "variable X is a symbol (column 1 of 's')"},
    {"unsafe variable of an arithmetic term", NULL,
     ".decl n(x)\n.decl m(x, y)\nm(X, Y + 1) :- n(X).\n", ST(UNSAFE), 3, 6,
     "variable Y of the arithmetic term Y + 1"},
    {"an equation is not solved for its variable", NULL,
     ".decl n(x)\n.decl m(x, y)\nm(X, Y) :- n(X), Y + 1 = X.\n",
     ST(UNSAFE), 3, 18, "variable Y of the arithmetic term Y + 1"},
    {"'_' in arithmetic", NULL,
     ".decl n(x)\n.decl m(x, y)\nm(X, _ + 1) :- n(X).\n", ST(UNSAFE), 3, 6,
     "'_' in the arithmetic term _ + 1"},
    {"arithmetic on a variable in a fact", NULL, ".decl m(x)\nm(X + 1).\n",
     ST(UNSAFE), 2, 3, "a fact must be ground"},
    {"division by zero in a constant term", NULL, ".decl m(x)\nm(1 / 0).\n",
     ST(ARITHMETIC), 2, 5, "division by zero"},
    /* a string in a fact's sum is a type error, not "a variable" */
    {"a string in a fact's arithmetic", NULL, ".decl m(x)\nm(\"a\" + \"b\").\n",
     ST(TYPE), 2, 3, "the string \"a\" in the arithmetic term"},
    /* directives belong to standalone programs */
    {".output in a domain policy", DOMAIN, ".decl h(x)\n.output h\n", ST(PARSE),
     2, 9, "standalone programs"},
    {".input in a domain policy", DOMAIN, "listed(\"rm\").\n.input in_cmd\n",
     ST(PARSE), 2, 8, "standalone programs"},
    {".printsize in a domain policy", DOMAIN, ".printsize allow\n", ST(PARSE),
     1, 12, "standalone programs"},
};

START_TEST(test_load_errors_refusal_has_status_and_position)
{
	const struct refusal *c = &refusals[_i];

	register_domains();
	assert_refused(c->what, c->domain, c->src, c->status, c->line,
		       c->column, c->phrase);
}
END_TEST

START_TEST(test_load_errors_unknown_domain_is_refused)
{
	register_domains();
	/* no position applies; the message names the domain */
	assert_refused("unknown domain", "lang_errors_no_such_domain",
		       "allow(C) :- in_cmd(C).", ST(UNKNOWN_DOMAIN), 0, 0,
		       "'lang_errors_no_such_domain'");
}
END_TEST

START_TEST(test_load_errors_source_over_64_mib_is_limit)
{
	size_t len = ((size_t)64 << 20) + 1;
	char *src = malloc(len + 1);

	ck_assert_ptr_nonnull(src);
	memset(src, ' ', len);
	src[len] = '\0';
	assert_refused("source over 64 MiB", NULL, src, ST(LIMIT), 0, 0,
		       "limit");
	free(src);
}
END_TEST

/* The vocabulary binds the policy's constants only: regex patterns are
 * compiled, not matched against symbols, and a domain without atoms accepts
 * any constant. */
START_TEST(test_load_errors_vocabulary_exemptions_load)
{
	static const char regex_src[] =
	    "allow(C) :- in_cmd(C), re_match(C, \"^r[m]$\").\n";
	static const char open_src[] =
	    "listed(\"dd\").\n"
	    "deny(C, \"anything at all\") :- in_cmd(C), listed(C).\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = NULL;
	maelys_datalog_session_t *session = NULL;
	maelys_datalog_result_t *result = NULL;
	maelys_datalog_policy_t *policy;
	maelys_datalog_status_t st;
	int found = 0;

	register_domains();
	policy = dltest_load(DOMAIN, SOURCE, regex_src);
	(void)maelys_datalog_policy_free(policy);
	/* the same constants are refused where a vocabulary applies */
	assert_refused("closed vocabulary", DOMAIN, open_src, ST(VOCABULARY), 1,
		       8, "\"dd\"");
	policy = dltest_load(OPEN_DOMAIN, SOURCE, open_src);
	st = maelys_datalog_session_create(policy, 0, &session);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	(void)maelys_datalog_policy_free(policy);
	st = maelys_datalog_input_edb_create(&edb);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	st = MAELYS_DATALOG_ADD_FACT(edb, &diag, "in_cmd", "dd");
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	st = maelys_datalog_session_solve_edb(session, edb, &result, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "%s", diag.message);
	st = MAELYS_DATALOG_QUERY(result, &found, "deny", "dd",
				  "anything at all");
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(found, 1);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Role refusals after load                                            */

static const char runtime_src[] = "listed(\"rm\").\n"
				  "helper(C) :- in_cmd(C), listed(C).\n"
				  "deny(C, \"forbidden\") :- helper(C).\n"
				  "allow(C) :- in_cmd(C), !helper(C).\n";

/* Input facts may name EDB predicates only; anything else is refused by
 * the solve, which then decides nothing. */
static const struct {
	const char *predicate;
	size_t arity;
	maelys_datalog_status_t status;
	const char *phrase;
} bad_inputs[] = {
    {"allow", 1, ST(ROLE), "'allow', which is not an EDB predicate"},
    {"listed", 1, ST(ROLE), "'listed'"},
    {"helper", 1, ST(ROLE), "'helper'"},
    {"deny", 2, ST(ROLE), "'deny'"},
    {"nosuch", 1, ST(UNDECLARED), "'nosuch/1'"},
    {"in_cmd", 2, ST(ARITY), "'in_cmd' has 2 columns"},
};

START_TEST(test_load_errors_input_fact_for_non_edb_is_refused_at_solve)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = NULL;
	maelys_datalog_session_t *session = NULL;
	maelys_datalog_result_t *result = NULL;
	maelys_datalog_policy_t *policy;
	maelys_datalog_arg_t args[2];
	maelys_datalog_status_t st;

	register_domains();
	policy = dltest_load(DOMAIN, SOURCE, runtime_src);
	st = maelys_datalog_session_create(policy, 0, &session);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	(void)maelys_datalog_policy_free(policy);
	st = maelys_datalog_input_edb_create(&edb);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	st = MAELYS_DATALOG_ADD_FACT(edb, &diag, "in_cmd", "ls");
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	args[0] = maelys_datalog_arg_symbol("ls");
	args[1] = maelys_datalog_arg_symbol("ls");
	/* accepted when added: the policy is only known at solve time */
	st = maelys_datalog_input_edb_add(edb, bad_inputs[_i].predicate, args,
					  bad_inputs[_i].arity, &diag);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	result = (maelys_datalog_result_t *)&diag; /* must be cleared */
	st = maelys_datalog_session_solve_edb(session, edb, &result, &diag);
	ck_assert_msg(st == bad_inputs[_i].status, "%s/%zu: %s (%s)",
		      bad_inputs[_i].predicate, bad_inputs[_i].arity,
		      maelys_datalog_status_name(st), diag.message);
	ck_assert_ptr_null(result);
	ck_assert_int_eq(diag.status, st);
	ck_assert_msg(strstr(diag.message, bad_inputs[_i].phrase) != NULL,
		      "message \"%s\" lacks \"%s\"", diag.message,
		      bad_inputs[_i].phrase);
	/* the session still answers a good question afterwards */
	ck_assert_int_eq(maelys_datalog_input_edb_truncate(edb, 1),
			 MAELYS_DATALOG_STATUS_OK);
	st = maelys_datalog_session_solve_edb(session, edb, &result, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "%s", diag.message);
	{
		int found = 0;

		st = MAELYS_DATALOG_QUERY(result, &found, "allow", "ls");
		ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
		ck_assert_int_eq(found, 1);
	}
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
}
END_TEST

/* A policy may restate a host predicate's declaration with the same arity:
 * under this host it changes nothing (in_cmd stays an input, allow a
 * query), and a predicate this host lacks (exec_path) is the policy's own,
 * empty relation - one file for hosts with and without it.  A head on the
 * restated input is still refused. */
START_TEST(test_load_errors_restating_host_predicates_keeps_their_roles)
{
	static const char src[] = ".decl in_cmd(c)\n.decl allow(c)\n"
				  ".decl exec_path(p)\n"
				  "allow(C) :- in_cmd(C), not(exec_path(C)).\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = NULL;
	maelys_datalog_session_t *session = NULL;
	maelys_datalog_result_t *result = NULL;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st;
	int found = 0;

	register_domains();
	policy = dltest_load(DOMAIN, SOURCE, src);
	st = maelys_datalog_session_create(policy, 0, &session);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	(void)maelys_datalog_policy_free(policy);
	ck_assert_int_eq(maelys_datalog_input_edb_create(&edb),
			 MAELYS_DATALOG_STATUS_OK);
	st = MAELYS_DATALOG_ADD_FACTS(edb, &diag,
				      MAELYS_DATALOG_FACT("in_cmd", "rm"));
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	st = maelys_datalog_session_solve_edb(session, edb, &result, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "%s", diag.message);
	st = MAELYS_DATALOG_QUERY(result, &found, "allow", "rm");
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(found, 1);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	policy = NULL;
	st = maelys_datalog_policy_load_inline(
	    DOMAIN, SOURCE, ".decl in_cmd(c)\nin_cmd(\"rm\").\n",
	    strlen(".decl in_cmd(c)\nin_cmd(\"rm\").\n"), &policy, &diag);
	ck_assert_int_ne(st, MAELYS_DATALOG_STATUS_OK);
	ck_assert_ptr_null(policy);
}
END_TEST

/* Only QUERY predicates are readable: EDB, POLICY_FACT and plain IDB
 * relations are the policy's business, and reading them is ROLE. */
static const struct {
	const char *predicate;
	size_t arity;
	maelys_datalog_status_t status;
} reads[] = {
    {"allow", 1, ST(OK)},          {"deny", 2, ST(OK)},
    {"helper", 1, ST(ROLE)},       {"listed", 1, ST(ROLE)},
    {"in_cmd", 1, ST(ROLE)},       {"in_user", 1, ST(ROLE)},
    {"nosuch", 1, ST(UNDECLARED)}, {"allow", 2, ST(ARITY)},
};

START_TEST(test_load_errors_reading_non_query_predicate_is_role)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = NULL;
	maelys_datalog_session_t *session = NULL;
	maelys_datalog_result_t *result = NULL;
	maelys_datalog_fact_view_t rows[4];
	maelys_datalog_policy_t *policy;
	maelys_datalog_arg_t args[2];
	maelys_datalog_status_t st;
	size_t n = 99;
	int found = 7;

	register_domains();
	policy = dltest_load(DOMAIN, SOURCE, runtime_src);
	st = maelys_datalog_session_create(policy, 0, &session);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	(void)maelys_datalog_policy_free(policy);
	st = maelys_datalog_input_edb_create(&edb);
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	st = MAELYS_DATALOG_ADD_FACTS(edb, &diag,
				      MAELYS_DATALOG_FACT("in_cmd", "rm"),
				      MAELYS_DATALOG_FACT("in_user", "alice"));
	ck_assert_int_eq(st, MAELYS_DATALOG_STATUS_OK);
	st = maelys_datalog_session_solve_edb(session, edb, &result, &diag);
	ck_assert_msg(st == MAELYS_DATALOG_STATUS_OK, "%s", diag.message);
	args[0] = maelys_datalog_arg_symbol("rm");
	args[1] = maelys_datalog_arg_symbol("forbidden");
	st = maelys_datalog_result_query(result, reads[_i].predicate, args,
					 reads[_i].arity, &found);
	ck_assert_msg(st == reads[_i].status, "query %s/%zu: %s",
		      reads[_i].predicate, reads[_i].arity,
		      maelys_datalog_status_name(st));
	st = maelys_datalog_result_count(result, reads[_i].predicate,
					 reads[_i].arity, &n);
	ck_assert_msg(st == reads[_i].status, "count %s/%zu: %s",
		      reads[_i].predicate, reads[_i].arity,
		      maelys_datalog_status_name(st));
	st = maelys_datalog_result_enumerate(result, reads[_i].predicate,
					     reads[_i].arity, rows, 4, &n);
	ck_assert_msg(st == reads[_i].status, "enumerate %s/%zu: %s",
		      reads[_i].predicate, reads[_i].arity,
		      maelys_datalog_status_name(st));
	if (reads[_i].status != MAELYS_DATALOG_STATUS_OK) {
		/* a refused read reveals nothing */
		ck_assert_int_eq(found, 0);
		ck_assert_uint_eq(n, 0);
	}
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Nothing loads partially                                             */

START_TEST(test_load_errors_bad_last_clause_refuses_whole_policy)
{
	static const char good[] = ".decl extra(x)\n"
				   "listed(\"rm\").\n"
				   "extra(\"alice\").\n"
				   "helper(C) :- in_cmd(C), listed(C).\n"
				   "deny(C, \"forbidden\") :- helper(C).\n"
				   "allow(C) :- in_cmd(C), !helper(C).\n";
	static const char bad_tail[] = "allow(C) :- in_cmd(C), lsted(C).\n";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy;
	char src[sizeof good + sizeof bad_tail];

	register_domains();
	memcpy(src, good, sizeof good - 1);
	memcpy(src + sizeof good - 1, bad_tail, sizeof bad_tail);
	/* every clause before the last is fine; the last one sinks it all */
	assert_refused("bad last clause", DOMAIN, src, ST(UNDECLARED), 7, 24,
		       "did you mean 'listed/1'?");
	/* a second attempt fails the same way: nothing was kept */
	policy = (maelys_datalog_policy_t *)&diag;
	ck_assert_int_eq(maelys_datalog_policy_load_inline(
			     DOMAIN, SOURCE, src, strlen(src), &policy, &diag),
			 MAELYS_DATALOG_STATUS_UNDECLARED);
	ck_assert_ptr_null(policy);
	/* and its .decl did not leak into the next load of the domain */
	policy = dltest_load(DOMAIN, SOURCE, good);
	(void)maelys_datalog_policy_free(policy);
	policy = dltest_load(DOMAIN, SOURCE, ".decl extra(x, y)\n");
	(void)maelys_datalog_policy_free(policy);
}
END_TEST

START_TEST(test_load_errors_failed_load_clears_out)
{
	static const char *const bad[] = {
	    "allow(C) :- in_cmd(C)",         /* PARSE */
	    "allow(C) :- nosuch(C).",        /* UNDECLARED */
	    "allow(X) :- in_cmd(C).",        /* UNSAFE */
	    "deny(C, \"zz\") :- in_cmd(C).", /* VOCABULARY */
	};
	size_t i;

	register_domains();
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		maelys_datalog_policy_t *policy =
		    (maelys_datalog_policy_t *)&bad; /* sentinel */
		maelys_datalog_status_t st;

		/* diag NULL is allowed and changes nothing about *out */
		st = maelys_datalog_policy_load_inline(
		    DOMAIN, SOURCE, bad[i], strlen(bad[i]), &policy, NULL);
		ck_assert_int_ne(st, MAELYS_DATALOG_STATUS_OK);
		ck_assert_ptr_null(policy);
	}
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("load_errors");

	tcase_add_loop_test(tc,
			    test_load_errors_refusal_has_status_and_position, 0,
			    (int)(sizeof refusals / sizeof *refusals));
	tcase_add_test(tc, test_load_errors_unknown_domain_is_refused);
	tcase_add_test(tc, test_load_errors_source_over_64_mib_is_limit);
	tcase_add_test(tc, test_load_errors_vocabulary_exemptions_load);
	tcase_add_loop_test(
	    tc, test_load_errors_input_fact_for_non_edb_is_refused_at_solve, 0,
	    (int)(sizeof bad_inputs / sizeof *bad_inputs));
	tcase_add_loop_test(
	    tc, test_load_errors_reading_non_query_predicate_is_role, 0,
	    (int)(sizeof reads / sizeof *reads));
	tcase_add_test(tc,
		       test_load_errors_bad_last_clause_refuses_whole_policy);
	tcase_add_test(tc, test_load_errors_failed_load_clears_out);
	tcase_add_test(
	    tc, test_load_errors_restating_host_predicates_keeps_their_roles);
	suite_add_tcase(s, tc);
	return s;
}
