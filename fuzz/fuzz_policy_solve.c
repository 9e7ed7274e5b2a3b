/* SPDX-License-Identifier: MIT */
/*
 * fuzz_policy_solve.c - libFuzzer target for load + solve + reading back.
 *
 * Input layout (the seed corpus in corpus/policy_solve/ shows it):
 *
 *   byte 0        syntax selector (fuzz.h)
 *   program       a standalone program (domain NULL): .decl, .input, rules
 *   separator     the first NUL byte, or the first line that is exactly "%%"
 *   facts         one per line: pred<TAB>col<TAB>col...  A column that is a
 *                 canonical decimal integer ("0", "-12", no '+', no leading
 *                 zero, in int64) is an integer term; anything else is a
 *                 symbol of those bytes (NULs included).  A line with no tab
 *                 is a fact of arity 0.
 *
 * Only `.input` predicates accept facts: the others make the solve refuse,
 * which is a path worth fuzzing too.  Every budget is set small, join steps
 * included, so that no input can run for long or take much memory (a cross
 * product deriving one tuple over and over is bounded by BUDGET_STEPS alone:
 * corpus/policy_solve/budget_steps_*.txt).  After a successful solve the
 * target reads every relation back (count, enumerate, enumerate_at,
 * symbol_text, query) and checks what it reads against itself.
 *
 * Contract checks that abort (so libFuzzer reports them as crashes): a solve
 * status that datalog.h does not list, or a refusal without a diagnostic;
 * the same EDB solved twice on one session gives a different status or
 * different relations; an enumerated fact is not found by result_query;
 * enumerate, enumerate_at and count disagree; a symbol's text is not
 * NUL-terminated; a failed input_edb_add changed the EDB; a result stops being
 * readable after its session is freed (datalog.h: results keep what they read
 * alive); in a PROVENANCE session of the same policy, result_why_not of a
 * rule for rows of its head gives a status it does not document or a
 * failed literal past the body.
 */
#include "fuzz.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <maelys/datalog.h>

/* Budgets: small enough that any input finishes in milliseconds. */
#define FUZZ_FACTS_MAX   64         /* BUDGET_FACTS; more lines are refused */
#define FUZZ_LINES_MAX   80         /* fact lines read; past the budget above */
#define FUZZ_TUPLES_MAX  2000       /* BUDGET_TUPLES */
#define FUZZ_ITERATIONS  64         /* BUDGET_ITERATIONS */
#define FUZZ_MEMORY      (4u << 20) /* BUDGET_MEMORY, bytes */
#define FUZZ_REGEX_STEPS 10000      /* BUDGET_REGEX_STEPS */
#define FUZZ_REGEX_DEPTH 200        /* BUDGET_REGEX_DEPTH */
#define FUZZ_STEPS       100000     /* BUDGET_STEPS: rows visited + derived */
#define FUZZ_COLUMNS_MAX (MAELYS_DATALOG_MAX_ARITY + 2) /* past the limit */
#define FUZZ_NAMES_MAX   256 /* distinct identifiers tried as relations */
#define FUZZ_QUERIES_MAX 64  /* rows of a relation queried back */
#define FUZZ_PAGE        8   /* rows per enumerate_at call */

/* A predicate name taken from the program text: a candidate relation. */
struct fuzz_name {
	const char *text;
	size_t len;
};

/* The program ends at the first NUL or at a line that is exactly "%%". */
static void
split_input(const char *s, size_t n, size_t *prog_len, size_t *facts_off)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\0') {
			*prog_len = i;
			*facts_off = i + 1;
			return;
		}
		if ((i == 0 || s[i - 1] == '\n') && n - i >= 2 && s[i] == '%' &&
		    s[i + 1] == '%' && (n - i == 2 || s[i + 2] == '\n')) {
			*prog_len = i;
			*facts_off = n - i == 2 ? n : i + 3;
			return;
		}
	}
	*prog_len = n;
	*facts_off = n;
}

/* Whether s[0..n) is a canonical decimal int64; its value in *v. */
static bool
parse_canonical_int(const char *s, size_t n, int64_t *v)
{
	bool neg = false;
	uint64_t acc = 0, limit;
	size_t i = 0;

	if (n > 0 && s[0] == '-') {
		neg = true;
		i = 1;
	}
	if (i == n || (s[i] == '0' && (n - i > 1 || neg)))
		return false; /* empty, leading zero, or "-0" */
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < n; i++) {
		unsigned d;

		if (s[i] < '0' || s[i] > '9')
			return false;
		d = (unsigned)(s[i] - '0');
		if (acc > (limit - d) / 10)
			return false;
		acc = acc * 10 + d;
	}
	if (neg)
		*v = acc == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)acc;
	else
		*v = (int64_t)acc;
	return true;
}

/* Adds one fact line; a refusal must leave the EDB as it was. */
static void
add_fact_line(maelys_datalog_input_edb_t *edb, const char *line, size_t len)
{
	maelys_datalog_arg_t args[FUZZ_COLUMNS_MAX];
	char name[256];
	size_t nargs = 0, i, start, before;
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_status_t st;

	for (i = 0; i < len && line[i] != '\t'; i++)
		;
	/* the name is a C string: it stops at a NUL byte, like any host's */
	memcpy(name, line, i < sizeof name ? i : sizeof name - 1);
	name[i < sizeof name ? i : sizeof name - 1] = '\0';
	while (i < len && nargs < FUZZ_COLUMNS_MAX) {
		maelys_datalog_arg_t *a = &args[nargs++];
		int64_t v;

		start = ++i; /* past the tab */
		while (i < len && line[i] != '\t')
			i++;
		if (parse_canonical_int(line + start, i - start, &v)) {
			a->kind = MAELYS_DATALOG_TERM_INTEGER;
			a->as.integer = v;
		} else {
			a->kind = MAELYS_DATALOG_TERM_SYMBOL;
			a->as.symbol.text = line + start;
			a->as.symbol.length = i - start;
		}
	}
	before = maelys_datalog_input_edb_count(edb);
	st = maelys_datalog_input_edb_add(edb, name, args, nargs, &diag);
	if (maelys_datalog_input_edb_count(edb) !=
	    before + (st == MAELYS_DATALOG_STATUS_OK))
		abort();
}

static void
add_facts(maelys_datalog_input_edb_t *edb, const char *s, size_t n)
{
	size_t i = 0, lines = 0;

	while (i < n && lines < FUZZ_LINES_MAX) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl == NULL ? n : (size_t)(nl - s);

		if (end > i) {
			add_fact_line(edb, s + i, end - i);
			lines++;
		}
		i = end + 1;
	}
}

static bool
is_name_char(unsigned char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c == '?' || (!first && c >= '0' && c <= '9');
}

/* Every distinct identifier of the program: the relations are among them.
 * (The API has no list of a program's predicates; trying names is cheap.) */
static size_t
collect_names(const char *s, size_t n, struct fuzz_name *names)
{
	size_t i = 0, count = 0, k;

	while (i < n && count < FUZZ_NAMES_MAX) {
		size_t start = i;

		if (!is_name_char((unsigned char)s[i], true)) {
			i++;
			continue;
		}
		while (i < n && is_name_char((unsigned char)s[i], false))
			i++;
		if (i - start > 255)
			continue;
		for (k = 0; k < count; k++)
			if (names[k].len == i - start &&
			    memcmp(names[k].text, s + start, i - start) == 0)
				break;
		if (k == count) {
			names[count].text = s + start;
			names[count].len = i - start;
			count++;
		}
	}
	return count;
}

static uint64_t
mix(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= b[i];
		h *= UINT64_C(1099511628211); /* FNV-1a */
	}
	return h;
}

/* Checks that row `v` is found by result_query and hashes its values. */
static uint64_t
read_row(const maelys_datalog_result_t *res, const char *name,
	 const maelys_datalog_fact_view_t *v, size_t arity, bool query,
	 uint64_t h)
{
	maelys_datalog_arg_t args[MAELYS_DATALOG_MAX_ARITY];
	size_t k;
	int found = 0;

	if (v->arity != arity)
		abort();
	for (k = 0; k < arity; k++) {
		const maelys_datalog_term_t *t = &v->terms[k];

		if (t->kind == MAELYS_DATALOG_TERM_INTEGER) {
			args[k].kind = MAELYS_DATALOG_TERM_INTEGER;
			args[k].as.integer = t->as.integer;
			h = mix(h, "i", 1);
			h = mix(h, &t->as.integer, sizeof t->as.integer);
		} else if (t->kind == MAELYS_DATALOG_TERM_SYMBOL) {
			const char *text = NULL;
			size_t len = 0;

			if (maelys_datalog_result_symbol_text(
				res, t->as.symbol_id, &text, &len) !=
			    MAELYS_DATALOG_STATUS_OK) {
				/* a record: it prints (or is too long for
				 * this buffer, and says how long).  Its text
				 * is not queried back: a symbol field holding
				 * ", " or "]" prints ambiguously, as in
				 * Souffle. */
				static char rec[4096];
				maelys_datalog_status_t rs =
				    maelys_datalog_result_record_text(
					res, t->as.symbol_id, rec, sizeof rec,
					&len);

				if (rs == MAELYS_DATALOG_STATUS_LIMIT) {
					/* too long, or nested too deep */
					len = 0;
					rec[0] = '\0';
				} else if (rs != MAELYS_DATALOG_STATUS_OK ||
					 len >= sizeof rec ||
					 rec[len] != '\0')
					/* a symbol field may hold a NUL, so
					 * the text is read by its length,
					 * never by strlen (datalog.h) */
					abort();
				text = rec;
				query = false;
			}
			if (text == NULL || text[len] != '\0')
				abort();
			args[k].kind = MAELYS_DATALOG_TERM_SYMBOL;
			args[k].as.symbol.text = text;
			args[k].as.symbol.length = len;
			h = mix(h, "s", 1);
			h = mix(h, &len, sizeof len);
			h = mix(h, text, len);
		} else {
			abort();
		}
	}
	if (query &&
	    (maelys_datalog_result_query(res, name, args, arity, &found) !=
		 MAELYS_DATALOG_STATUS_OK ||
	     found != 1))
		abort();
	return h;
}

/* Reads name/arity whole; the relation is known to exist. */
static uint64_t
read_relation(const maelys_datalog_result_t *res, const char *name,
	      size_t arity, size_t count, uint64_t h)
{
	static maelys_datalog_fact_view_t rows[FUZZ_PAGE];
	size_t off = 0, written, i, n;

	h = mix(h, name, strlen(name) + 1);
	h = mix(h, &arity, sizeof arity);
	h = mix(h, &count, sizeof count);
	for (;;) {
		if (maelys_datalog_result_enumerate_at(
			res, name, arity, off, rows, FUZZ_PAGE, &written) !=
			MAELYS_DATALOG_STATUS_OK ||
		    written > FUZZ_PAGE)
			abort();
		if (written == 0)
			break;
		for (i = 0; i < written; i++)
			h = read_row(res, name, &rows[i], arity,
				     off + i < FUZZ_QUERIES_MAX, h);
		off += written;
	}
	if (off != count)
		abort();
	/* enumerate: exact when it fits, TRUNCATED with the need otherwise */
	if (maelys_datalog_result_enumerate(res, name, arity, rows, FUZZ_PAGE,
					    &n) !=
		(count > FUZZ_PAGE ? MAELYS_DATALOG_STATUS_TRUNCATED
				   : MAELYS_DATALOG_STATUS_OK) ||
	    n != count)
		abort();
	return h;
}

/* Reads every relation of the program; returns a digest of what it read. */
static uint64_t
read_result(const maelys_datalog_result_t *res, const struct fuzz_name *names,
	    size_t nnames)
{
	uint64_t h = UINT64_C(14695981039346656037);
	char name[256];
	size_t i, arity, count;

	for (i = 0; i < nnames; i++) {
		memcpy(name, names[i].text, names[i].len);
		name[names[i].len] = '\0';
		for (arity = 0; arity <= MAELYS_DATALOG_MAX_ARITY; arity++) {
			maelys_datalog_status_t st =
			    maelys_datalog_result_count(res, name, arity,
							&count);

			if (st == MAELYS_DATALOG_STATUS_UNDECLARED)
				break;
			if (st == MAELYS_DATALOG_STATUS_ARITY)
				continue;
			/* ROLE is impossible: a standalone program's
			 * relations are all readable */
			if (st != MAELYS_DATALOG_STATUS_OK)
				abort();
			h = read_relation(res, name, arity, count, h);
			break;
		}
	}
	return h;
}

/* Whether `st` is one of the statuses session_solve_edb documents (less
 * INVALID_ARGUMENT, which only misuse gives). */
static bool
solve_status_documented(maelys_datalog_status_t st)
{
	switch (st) {
	case MAELYS_DATALOG_STATUS_OK:
	case MAELYS_DATALOG_STATUS_NO_MEMORY:
	case MAELYS_DATALOG_STATUS_UNDECLARED:
	case MAELYS_DATALOG_STATUS_ARITY:
	case MAELYS_DATALOG_STATUS_ROLE:
	case MAELYS_DATALOG_STATUS_LIMIT:
	case MAELYS_DATALOG_STATUS_BUDGET_FACTS:
	case MAELYS_DATALOG_STATUS_BUDGET_TUPLES:
	case MAELYS_DATALOG_STATUS_BUDGET_ITERATIONS:
	case MAELYS_DATALOG_STATUS_BUDGET_MEMORY:
	case MAELYS_DATALOG_STATUS_BUDGET_STEPS:
	case MAELYS_DATALOG_STATUS_REGEX_LIMIT:
	case MAELYS_DATALOG_STATUS_TYPE:
	case MAELYS_DATALOG_STATUS_ARITHMETIC:
	case MAELYS_DATALOG_STATUS_PARSE: /* a record column's text */
		return true;
	default:
		return false;
	}
}

static void
set_budgets(maelys_datalog_session_t *s)
{
	static const struct {
		maelys_datalog_budget_t budget;
		uint64_t value;
	} budgets[] = {
	    {MAELYS_DATALOG_BUDGET_FACTS, FUZZ_FACTS_MAX},
	    {MAELYS_DATALOG_BUDGET_TUPLES, FUZZ_TUPLES_MAX},
	    {MAELYS_DATALOG_BUDGET_ITERATIONS, FUZZ_ITERATIONS},
	    {MAELYS_DATALOG_BUDGET_MEMORY, FUZZ_MEMORY},
	    {MAELYS_DATALOG_BUDGET_REGEX_STEPS, FUZZ_REGEX_STEPS},
	    {MAELYS_DATALOG_BUDGET_REGEX_DEPTH, FUZZ_REGEX_DEPTH},
	    {MAELYS_DATALOG_BUDGET_STEPS, FUZZ_STEPS},
	};
	size_t i;

	for (i = 0; i < sizeof budgets / sizeof budgets[0]; i++)
		if (maelys_datalog_session_set_budget(s, budgets[i].budget,
						      budgets[i].value) !=
		    MAELYS_DATALOG_STATUS_OK)
			abort();
}

/* Rules asked why not, rows of each head asked about, in a PROVENANCE
 * session: the search of each is bounded by BUDGET_STEPS. */
#define FUZZ_WHYNOT_RULES 8
#define FUZZ_WHYNOT_ROWS  4

/* The same EDB solved in a PROVENANCE session of the policy, then each of
 * the first rules asked why it did not derive the first rows of its head
 * and one row that is not there (the last column changed): why_not gives a
 * status it documents, and a failed literal inside the body. */
static void
why_not_pass(const maelys_datalog_policy_t *policy,
	     const maelys_datalog_input_edb_t *edb)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	static maelys_datalog_fact_view_t rows[FUZZ_WHYNOT_ROWS];
	maelys_datalog_arg_t args[MAELYS_DATALOG_MAX_ARITY];
	maelys_datalog_session_t *prov = NULL;
	maelys_datalog_result_t *res = NULL;
	maelys_datalog_rule_info_t info;
	maelys_datalog_status_t st;
	size_t nrules = maelys_datalog_policy_rule_count(policy);
	size_t r, i, k, written, failed;
	int hm;

	if (maelys_datalog_session_create(
		(maelys_datalog_policy_t *)policy,
		MAELYS_DATALOG_SESSION_PROVENANCE,
		&prov) != MAELYS_DATALOG_STATUS_OK)
		abort();
	set_budgets(prov);
	st = maelys_datalog_session_solve_edb(prov, edb, &res, &diag);
	if ((st == MAELYS_DATALOG_STATUS_OK) != (res != NULL) ||
	    !solve_status_documented(st))
		abort();
	for (r = 0; res != NULL && r < nrules && r < FUZZ_WHYNOT_RULES; r++) {
		if (maelys_datalog_policy_get_rule(policy, r, &info) !=
		    MAELYS_DATALOG_STATUS_OK)
			abort();
		if (maelys_datalog_result_enumerate_at(
			res, info.head, info.head_arity, 0, rows,
			FUZZ_WHYNOT_ROWS, &written) != MAELYS_DATALOG_STATUS_OK)
			continue; /* a hidden relation of the engine's own */
		for (i = 0; i <= written && i < FUZZ_WHYNOT_ROWS; i++) {
			const maelys_datalog_fact_view_t *v =
			    &rows[i < written ? i : 0];
			bool ok = true;

			for (k = 0; k < info.head_arity && ok; k++) {
				const maelys_datalog_term_t *t = &v->terms[k];

				if (i == written) { /* a row not there */
					args[k].kind =
					    MAELYS_DATALOG_TERM_INTEGER;
					args[k].as.integer = (int64_t)k - 7;
				} else if (t->kind ==
					   MAELYS_DATALOG_TERM_INTEGER) {
					args[k].kind = t->kind;
					args[k].as.integer = t->as.integer;
				} else {
					args[k].kind =
					    MAELYS_DATALOG_TERM_SYMBOL;
					/* a record has no text: skipped */
					ok = maelys_datalog_result_symbol_text(
						 res, t->as.symbol_id,
						 &args[k].as.symbol.text,
						 &args[k].as.symbol.length) ==
					     MAELYS_DATALOG_STATUS_OK;
				}
			}
			if (!ok)
				continue;
			hm = -1;
			failed = (size_t)-1;
			st = maelys_datalog_result_why_not(
			    res, r, info.head, args, info.head_arity, &hm,
			    &failed);
			switch (st) {
			case MAELYS_DATALOG_STATUS_OK:
				if (hm != 0 && hm != 1)
					abort();
				if (hm == 1 && failed > info.body_count)
					abort();
				break;
			case MAELYS_DATALOG_STATUS_BUDGET_STEPS:
			case MAELYS_DATALOG_STATUS_REGEX_LIMIT:
			case MAELYS_DATALOG_STATUS_TYPE:
			case MAELYS_DATALOG_STATUS_ARITHMETIC:
				break;
			default:
				abort();
			}
		}
	}
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_session_free(prov);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_name names[FUZZ_NAMES_MAX];
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_session_t *session = NULL;
	maelys_datalog_input_edb_t *edb = NULL;
	maelys_datalog_result_t *res = NULL;
	maelys_datalog_status_t st1, st2;
	const char *text;
	size_t len, prog_len, facts_off, nnames;
	uint64_t h1 = 0, h2 = 0;

	if (size == 0)
		return 0;
	text = (const char *)data + 1;
	len = size - 1;
	split_input(text, len, &prog_len, &facts_off);
	if (maelys_datalog_policy_load_text(NULL, "fuzz.dl", text, prog_len,
					    fuzz_syntax_flags(data[0]), &policy,
					    &diag) != MAELYS_DATALOG_STATUS_OK)
		return 0; /* fuzz_policy_load checks the refusals */
	if (maelys_datalog_session_create(policy, 0u, &session) !=
	    MAELYS_DATALOG_STATUS_OK)
		abort();
	set_budgets(session);
	if (maelys_datalog_input_edb_create(&edb) != MAELYS_DATALOG_STATUS_OK)
		abort();
	add_facts(edb, text + facts_off, len - facts_off);
	nnames = collect_names(text, prog_len, names);

	/* The same question twice: the second solve reuses the workspace the
	 * first one returned, and must not see anything of it. */
	st1 = maelys_datalog_session_solve_edb(session, edb, &res, &diag);
	if ((st1 == MAELYS_DATALOG_STATUS_OK) != (res != NULL) ||
	    !solve_status_documented(st1) ||
	    (st1 != MAELYS_DATALOG_STATUS_OK &&
	     (diag.status != st1 || diag.message[0] == '\0')))
		abort();
	if (res != NULL) {
		h1 = read_result(res, names, nnames);
		(void)maelys_datalog_result_free(res);
	}
	st2 = maelys_datalog_session_solve_edb(session, edb, &res, &diag);
	if (st2 != st1)
		abort();
	if (res != NULL) {
		h2 = read_result(res, names, nnames);
		if (h2 != h1)
			abort();
		(void)maelys_datalog_result_free(res);
	}

	why_not_pass(policy, edb);
	(void)maelys_datalog_policy_free(policy);

	/* Half the facts, with the result outliving its session. */
	if (maelys_datalog_input_edb_truncate(
		edb, maelys_datalog_input_edb_count(edb) / 2) !=
	    MAELYS_DATALOG_STATUS_OK)
		abort();
	if (maelys_datalog_session_solve_edb(session, edb, &res, &diag) ==
	    MAELYS_DATALOG_STATUS_OK) {
		h1 = read_result(res, names, nnames);
		(void)maelys_datalog_session_free(session);
		session = NULL;
		if (read_result(res, names, nnames) != h1)
			abort();
		(void)maelys_datalog_result_free(res);
	}
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_input_edb_free(edb);
	return 0;
}
