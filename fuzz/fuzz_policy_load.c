/* SPDX-License-Identifier: MIT */
/*
 * fuzz_policy_load.c - libFuzzer target for loading policy text.
 *
 * The input is policy text after one selector byte (fuzz.h): it is loaded as
 * a standalone program (domain NULL), under the walkthrough's domain with its
 * atom vocabulary, and under the same predicates without a vocabulary, so the
 * lexer, parser, checker (every refusal), stratifier and planner all see it.
 * Nothing is evaluated here; fuzz_policy_solve.c does that.
 *
 * Besides crashes, leaks and sanitizer reports, the target aborts when the
 * loader breaks its contract (datalog.h): a status outside the documented
 * list, a policy left behind by a failure, a refusal without a diagnostic
 * message, a diagnostic whose line is past the end of the text; and, for a
 * policy that loads, a warning or a rule that breaks its own: a warning
 * past the end of the text or of an unknown kind, more than 100 of them, a
 * rule's or literal's text longer than kept, not terminated, or not
 * normalised (a newline or a tab left in it outside a string).
 */
#include "fuzz.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <maelys/datalog.h>

#include "level1_domain.h"

/* The walkthrough's domain (level1_domain.h). */
static const maelys_datalog_domain_t pty_domain = LEVEL1_DOMAIN("pty_policy");

/* The same predicates with no vocabulary: any constant is accepted, which
 * is the other branch of the checker's constant test. */
static const maelys_datalog_domain_t open_domain = {
    "fuzz_open",
    level1_preds,
    sizeof level1_preds / sizeof level1_preds[0],
    NULL,
    0,
};

/* Lengths read back, so that the compiler keeps the reads. */
static volatile size_t fuzz_sink;

/* Whether `st` is one of the statuses policy_load_text documents. */
static bool
load_status_documented(maelys_datalog_status_t st)
{
	switch (st) {
	case MAELYS_DATALOG_STATUS_OK:
	case MAELYS_DATALOG_STATUS_NO_MEMORY:
	case MAELYS_DATALOG_STATUS_LIMIT:
	case MAELYS_DATALOG_STATUS_PARSE:
	case MAELYS_DATALOG_STATUS_UNDECLARED:
	case MAELYS_DATALOG_STATUS_ARITY:
	case MAELYS_DATALOG_STATUS_ROLE:
	case MAELYS_DATALOG_STATUS_UNSAFE:
	case MAELYS_DATALOG_STATUS_NEGATION_CYCLE:
	case MAELYS_DATALOG_STATUS_VOCABULARY:
	case MAELYS_DATALOG_STATUS_REGEX:
	case MAELYS_DATALOG_STATUS_REDECLARED:
	case MAELYS_DATALOG_STATUS_TYPE:       /* a string in arithmetic */
	case MAELYS_DATALOG_STATUS_ARITHMETIC: /* a constant term: 1 / 0 */
		return true;
	default:
		/* INVALID_ARGUMENT and UNKNOWN_DOMAIN are ours to avoid */
		return false;
	}
}

/* The number of lines of the text, for checking diagnostic positions. */
static size_t
count_lines(const char *text, size_t len)
{
	size_t n = 1, i;

	for (i = 0; i < len; i++)
		if (text[i] == '\n')
			n++;
	return n;
}

/* Reads every directive back: their strings must be readable C strings. */
static void
walk_directives(const maelys_datalog_policy_t *policy)
{
	size_t n = maelys_datalog_policy_directive_count(policy), i;
	maelys_datalog_directive_t d;

	for (i = 0; i < n; i++) {
		if (maelys_datalog_policy_get_directive(policy, i, &d) !=
		    MAELYS_DATALOG_STATUS_OK)
			abort();
		if (d.predicate == NULL || strlen(d.predicate) == 0 ||
		    d.arity > MAELYS_DATALOG_MAX_ARITY)
			abort();
		/* a volatile sink keeps the reads that ASan checks */
		if (d.filename != NULL)
			fuzz_sink += strlen(d.filename);
		if (d.delimiter != NULL)
			fuzz_sink += strlen(d.delimiter);
	}
	if (maelys_datalog_policy_get_directive(policy, n, &d) !=
	    MAELYS_DATALOG_STATUS_INVALID_ARGUMENT)
		abort();
}

/* Reads every warning back (what `maelys-datalog check` prints). */
static void
walk_warnings(const maelys_datalog_policy_t *policy, size_t lines)
{
	size_t n = maelys_datalog_policy_warning_count(policy), i;
	maelys_datalog_diagnostic_t w = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_warning_kind_t kind;

	if (n > 100)
		abort();
	for (i = 0; i < n; i++) {
		if (maelys_datalog_policy_get_warning(policy, i, &kind, &w) !=
			MAELYS_DATALOG_STATUS_OK ||
		    kind < MAELYS_DATALOG_WARNING_CONSTANT_COMPARISON ||
		    kind > MAELYS_DATALOG_WARNING_IGNORED ||
		    w.status != MAELYS_DATALOG_STATUS_OK || w.line == 0 ||
		    w.line > lines ||
		    memchr(w.message, '\0', sizeof w.message) == NULL ||
		    strncmp(w.message, "fuzz.dl:", 8) != 0 ||
		    strstr(w.message, ": warning: ") == NULL)
			abort();
	}
	if (maelys_datalog_policy_get_warning(policy, n, &kind, &w) !=
	    MAELYS_DATALOG_STATUS_INVALID_ARGUMENT)
		abort();
}

/* A text of the rules API: terminated, bounded, on one line. */
static void
check_text(const char *text, size_t len)
{
	if (text == NULL || len > 8192 || strlen(text) != len ||
	    memchr(text, '\n', len) != NULL)
		abort();
	fuzz_sink += len;
}

/* Reads every rule, literal and head term back. */
static void
walk_rules(const maelys_datalog_policy_t *policy, size_t lines)
{
	size_t n = maelys_datalog_policy_rule_count(policy), r, i;
	maelys_datalog_rule_info_t info;
	maelys_datalog_literal_info_t lit;
	maelys_datalog_written_term_t t;

	for (r = 0; r < n; r++) {
		if (maelys_datalog_policy_get_rule(policy, r, &info) !=
			MAELYS_DATALOG_STATUS_OK ||
		    info.line == 0 || info.line > lines ||
		    info.head == NULL || info.body_count == 0 ||
		    info.head_arity > MAELYS_DATALOG_MAX_ARITY)
			abort();
		check_text(info.text, info.text_length);
		for (i = 0; i < info.body_count; i++) {
			if (maelys_datalog_policy_get_literal(policy, r, i,
							      &lit) !=
				MAELYS_DATALOG_STATUS_OK ||
			    lit.name == NULL || lit.line < info.line ||
			    lit.line > lines)
				abort();
			check_text(lit.text, lit.text_length);
		}
		for (i = 0; i < info.head_arity; i++) {
			if (maelys_datalog_policy_get_head_term(policy, r, i,
								&t) !=
				MAELYS_DATALOG_STATUS_OK ||
			    t.text == NULL)
				abort();
			fuzz_sink += t.length;
		}
		if (maelys_datalog_policy_get_literal(
			policy, r, info.body_count, &lit) !=
			MAELYS_DATALOG_STATUS_INVALID_ARGUMENT ||
		    maelys_datalog_policy_get_head_term(
			policy, r, info.head_arity, &t) !=
			MAELYS_DATALOG_STATUS_INVALID_ARGUMENT)
			abort();
	}
	if (maelys_datalog_policy_get_rule(policy, n, &info) !=
	    MAELYS_DATALOG_STATUS_INVALID_ARGUMENT)
		abort();
}

static void
load_one(const char *domain, const char *text, size_t len, unsigned flags,
	 size_t lines)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_session_t *session = NULL;
	maelys_datalog_status_t st;

	st = maelys_datalog_policy_load_text(domain, "fuzz.dl", text, len,
					     flags, &policy, &diag);
	if (!load_status_documented(st))
		abort();
	if (st != MAELYS_DATALOG_STATUS_OK) {
		/* all-or-nothing, and never a silent refusal */
		if (policy != NULL || diag.status != st ||
		    diag.message[0] == '\0' ||
		    memchr(diag.message, '\0', sizeof diag.message) == NULL ||
		    diag.line > lines)
			abort();
		return;
	}
	if (policy == NULL)
		abort();
	walk_directives(policy);
	walk_warnings(policy, lines);
	walk_rules(policy, lines);
	/* a session takes its own reference; freeing the policy first is the
	 * walkthrough's order and must leave the session usable */
	if (maelys_datalog_session_create(policy, 0u, &session) !=
	    MAELYS_DATALOG_STATUS_OK)
		abort();
	(void)maelys_datalog_policy_free(policy);
	(void)maelys_datalog_session_free(session);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool registered;
	const char *text;
	unsigned flags;
	size_t len, lines;

	if (!registered) {
		if (maelys_datalog_domain_register(&pty_domain) !=
			MAELYS_DATALOG_STATUS_OK ||
		    maelys_datalog_domain_register(&open_domain) !=
			MAELYS_DATALOG_STATUS_OK)
			abort();
		registered = true;
	}
	if (size == 0)
		return 0;
	flags = fuzz_syntax_flags(data[0]);
	text = (const char *)data + 1;
	len = size - 1;
	lines = count_lines(text, len);
	load_one(NULL, text, len, flags, lines);
	load_one(pty_domain.name, text, len, flags, lines);
	load_one(open_domain.name, text, len, flags, lines);
	return 0;
}
