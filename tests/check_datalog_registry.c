/* SPDX-License-Identifier: MIT */
/*
 * The domain registry, the library's only process-wide state: a host
 * registers its predicate table once and loads policies against it by
 * name.  Registering is idempotent for an equal table (wherever it lives),
 * refuses a different table under a taken name without touching the first,
 * refuses malformed tables outright, copies what it is given (the caller
 * may free its table at once), and stays consistent when eight threads
 * register at the same time.  Every domain name here is unique to its
 * test, so the tests also hold when Check runs them in one process.
 */
#define _POSIX_C_SOURCE 200809L

#include "runner.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <maelys/datalog.h>
#include <maelys/datalog_builders.h>

#include "datalog_testutil.h"

#define ST_OK             MAELYS_DATALOG_STATUS_OK
#define ST_CONFLICT       MAELYS_DATALOG_STATUS_DOMAIN_CONFLICT
#define ST_INVALID_DOMAIN MAELYS_DATALOG_STATUS_INVALID_DOMAIN

#define EDB   MAELYS_DATALOG_PREDICATE_EDB
#define FACT  MAELYS_DATALOG_PREDICATE_POLICY_FACT
#define IDB   MAELYS_DATALOG_PREDICATE_IDB
#define QUERY MAELYS_DATALOG_PREDICATE_QUERY

/* A small host vocabulary: requests in, a verdict out. */
static const maelys_datalog_predicate_t base_preds[] = {
    {"request", 1, EDB}, {"owner", 2, EDB},          {"blocked", 1, FACT},
    {"seen", 1, IDB},    {"permit", 1, IDB | QUERY},
};
#define NBASE_PREDS (sizeof base_preds / sizeof *base_preds)

static const char *const base_atoms[] = {"rm", "dd", "root"};
#define NBASE_ATOMS (sizeof base_atoms / sizeof *base_atoms)

/* A policy that loads only under the base table: it uses every role, the
 * arity of owner/2 and only constants of the vocabulary. */
static const char base_policy[] =
    "blocked(\"rm\").\n"
    "blocked(\"dd\").\n"
    "seen(C) :- request(C).\n"
    "permit(C) :- seen(C), not(blocked(C)), owner(C, \"root\").\n";

static maelys_datalog_domain_t
base_domain(const char *name)
{
	maelys_datalog_domain_t d = {name, base_preds, NBASE_PREDS, base_atoms,
				     NBASE_ATOMS};

	return d;
}

static maelys_datalog_status_t
try_load(const char *domain, const char *src)
{
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st;

	st = maelys_datalog_policy_load_inline(domain, "registry.dl", src,
					       strlen(src), &policy, NULL);
	(void)maelys_datalog_policy_free(policy);
	return st;
}

/* Loads the base policy under `domain` and checks that it decides. */
static void
assert_base_policy_decides(const char *domain)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy =
	    dltest_load(domain, "registry.dl", base_policy);
	maelys_datalog_session_t *session = dltest_new_session(policy);
	maelys_datalog_input_edb_t *edb = dltest_new_edb();
	maelys_datalog_result_t *result;

	ck_assert_status(MAELYS_DATALOG_ADD_FACTS(
			     edb, &diag, MAELYS_DATALOG_FACT("request", "ls"),
			     MAELYS_DATALOG_FACT("request", "rm"),
			     MAELYS_DATALOG_FACT("owner", "ls", "root"),
			     MAELYS_DATALOG_FACT("owner", "rm", "root")),
			 ST_OK);
	result = dltest_solve(session, edb);
	ck_assert_int_eq(dltest_query1(result, "permit", "ls"), 1);
	ck_assert_int_eq(dltest_query1(result, "permit", "rm"), 0);
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_policy_free(policy);
}

/* A deep copy of the base table in memory of its own, so that equality is
 * of contents, not of addresses. */
struct owned_domain {
	maelys_datalog_domain_t domain;
	maelys_datalog_predicate_t *preds;
	char **pred_names;
	char **atoms;
	char *name;
};

static char *
dup_string(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	ck_assert_ptr_nonnull(p);
	memcpy(p, s, n);
	return p;
}

static void
owned_domain_init(struct owned_domain *o, const char *name)
{
	size_t i;

	o->name = dup_string(name);
	o->preds = calloc(NBASE_PREDS, sizeof *o->preds);
	o->pred_names = calloc(NBASE_PREDS, sizeof *o->pred_names);
	o->atoms = calloc(NBASE_ATOMS, sizeof *o->atoms);
	ck_assert(o->preds != NULL && o->pred_names != NULL &&
		  o->atoms != NULL);
	for (i = 0; i < NBASE_PREDS; i++) {
		o->pred_names[i] = dup_string(base_preds[i].name);
		o->preds[i] = base_preds[i];
		o->preds[i].name = o->pred_names[i];
	}
	for (i = 0; i < NBASE_ATOMS; i++)
		o->atoms[i] = dup_string(base_atoms[i]);
	o->domain.name = o->name;
	o->domain.predicates = o->preds;
	o->domain.predicate_count = NBASE_PREDS;
	o->domain.atoms = (const char *const *)o->atoms;
	o->domain.atom_count = NBASE_ATOMS;
}

/* Overwrites every byte the table used, then frees it: whatever the
 * registry kept pointing into would now read garbage (or, under ASan,
 * freed memory). */
static void
owned_domain_destroy(struct owned_domain *o)
{
	size_t i;

	for (i = 0; i < NBASE_PREDS; i++) {
		memset(o->pred_names[i], '#', strlen(o->pred_names[i]));
		free(o->pred_names[i]);
	}
	for (i = 0; i < NBASE_ATOMS; i++) {
		memset(o->atoms[i], '#', strlen(o->atoms[i]));
		free(o->atoms[i]);
	}
	memset(o->preds, 0xa5, NBASE_PREDS * sizeof *o->preds);
	memset(o->name, '#', strlen(o->name));
	free(o->preds);
	free(o->pred_names);
	free(o->atoms);
	free(o->name);
	memset(o, 0, sizeof *o);
}

/* ------------------------------------------------------------------ */

START_TEST(test_registry_register_then_load_decides)
{
	maelys_datalog_domain_t d = base_domain("reg_basic");

	ck_assert_status(maelys_datalog_domain_register(&d), ST_OK);
	assert_base_policy_decides("reg_basic");
}
END_TEST

START_TEST(test_registry_same_table_again_is_ok)
{
	maelys_datalog_domain_t d = base_domain("reg_again");
	struct owned_domain copy;

	ck_assert_status(maelys_datalog_domain_register(&d), ST_OK);
	ck_assert_status(maelys_datalog_domain_register(&d), ST_OK);
	/* an equal table at other addresses is the same table */
	owned_domain_init(&copy, "reg_again");
	ck_assert_status(maelys_datalog_domain_register(&copy.domain), ST_OK);
	owned_domain_destroy(&copy);
	ck_assert_status(maelys_datalog_domain_register(&d), ST_OK);
	assert_base_policy_decides("reg_again");
}
END_TEST

START_TEST(test_registry_caller_table_freed_after_register_still_loads)
{
	struct owned_domain o;
	maelys_datalog_domain_t d = base_domain("reg_copied");

	owned_domain_init(&o, "reg_copied");
	ck_assert_status(maelys_datalog_domain_register(&o.domain), ST_OK);
	owned_domain_destroy(&o);
	assert_base_policy_decides("reg_copied");
	/* what was kept compares equal to the original contents */
	ck_assert_status(maelys_datalog_domain_register(&d), ST_OK);
}
END_TEST

/* How a second table differs from the base table. */
enum mutation {
	MUT_ARITY,       /* owner/3 */
	MUT_ROLE,        /* blocked becomes EDB */
	MUT_QUERY_ROLE,  /* seen becomes IDB|QUERY */
	MUT_RENAME,      /* permit -> allow */
	MUT_EXTRA_PRED,  /* one predicate more */
	MUT_FEWER_PREDS, /* the last predicate dropped */
	MUT_REORDER,     /* two predicates swapped */
	MUT_EXTRA_ATOM,  /* one atom more */
	MUT_ATOM_TEXT,   /* "dd" -> "ddx" */
	MUT_NO_ATOMS,    /* no vocabulary at all */
	MUT_ATOM_ORDER,  /* two atoms swapped */
	NMUTATIONS,
};

static const char *const mutation_names[NMUTATIONS] = {
    "arity",           "role",
    "query role",      "rename",
    "extra predicate", "fewer predicates",
    "reorder",         "extra atom",
    "atom text",       "no atoms",
    "atom order",
};

struct mutated {
	maelys_datalog_domain_t domain;
	maelys_datalog_predicate_t preds[NBASE_PREDS + 1];
	const char *atoms[NBASE_ATOMS + 1];
};

static void
mutate(struct mutated *m, const char *name, enum mutation how)
{
	maelys_datalog_predicate_t tmp_pred;
	const char *tmp_atom;

	memset(m, 0, sizeof *m);
	memcpy(m->preds, base_preds, sizeof base_preds);
	memcpy(m->atoms, base_atoms, sizeof base_atoms);
	m->domain.name = name;
	m->domain.predicates = m->preds;
	m->domain.predicate_count = NBASE_PREDS;
	m->domain.atoms = m->atoms;
	m->domain.atom_count = NBASE_ATOMS;
	switch (how) {
	case MUT_ARITY:
		m->preds[1].arity = 3;
		break;
	case MUT_ROLE:
		m->preds[2].role = EDB;
		break;
	case MUT_QUERY_ROLE:
		m->preds[3].role = IDB | QUERY;
		break;
	case MUT_RENAME:
		m->preds[4].name = "allow";
		break;
	case MUT_EXTRA_PRED:
		m->preds[NBASE_PREDS].name = "extra";
		m->preds[NBASE_PREDS].arity = 1;
		m->preds[NBASE_PREDS].role = EDB;
		m->domain.predicate_count = NBASE_PREDS + 1;
		break;
	case MUT_FEWER_PREDS:
		m->domain.predicate_count = NBASE_PREDS - 1;
		break;
	case MUT_REORDER:
		tmp_pred = m->preds[0];
		m->preds[0] = m->preds[1];
		m->preds[1] = tmp_pred;
		break;
	case MUT_EXTRA_ATOM:
		m->atoms[NBASE_ATOMS] = "sudo";
		m->domain.atom_count = NBASE_ATOMS + 1;
		break;
	case MUT_ATOM_TEXT:
		m->atoms[1] = "ddx";
		break;
	case MUT_NO_ATOMS:
		m->domain.atoms = NULL;
		m->domain.atom_count = 0;
		break;
	case MUT_ATOM_ORDER:
		tmp_atom = m->atoms[0];
		m->atoms[0] = m->atoms[2];
		m->atoms[2] = tmp_atom;
		break;
	case NMUTATIONS:
		break;
	}
}

/* One test per mutation (a loop test): register the base table, then the
 * mutated one under the same name. */
START_TEST(test_registry_different_table_same_name_is_domain_conflict)
{
	enum mutation how = (enum mutation)_i;
	maelys_datalog_domain_t d;
	struct mutated m;
	char name[64];

	(void)snprintf(name, sizeof name, "reg_conflict_%d", _i);
	d = base_domain(name);
	ck_assert_status(maelys_datalog_domain_register(&d), ST_OK);
	mutate(&m, name, how);
	ck_assert_msg(maelys_datalog_domain_register(&m.domain) == ST_CONFLICT,
		      "mutation '%s' was not a conflict", mutation_names[how]);
	/* still refused the second time, and the original stands */
	ck_assert_status(maelys_datalog_domain_register(&m.domain),
			 ST_CONFLICT);
	ck_assert_status(maelys_datalog_domain_register(&d), ST_OK);
	assert_base_policy_decides(name);
	switch (how) {
	case MUT_EXTRA_PRED:
		ck_assert_status(try_load(name, "seen(X) :- extra(X).\n"),
				 MAELYS_DATALOG_STATUS_UNDECLARED);
		break;
	case MUT_EXTRA_ATOM:
		ck_assert_status(try_load(name, "blocked(\"sudo\").\n"),
				 MAELYS_DATALOG_STATUS_VOCABULARY);
		break;
	case MUT_RENAME:
		ck_assert_status(try_load(name, "allow(X) :- request(X).\n"),
				 MAELYS_DATALOG_STATUS_UNDECLARED);
		break;
	default:
		break;
	}
}
END_TEST

/* Malformed tables: each row breaks one thing. */
enum breakage {
	BRK_EMPTY_NAME,
	BRK_NAME_WITH_SPACE,
	BRK_NAME_TOO_LONG,
	BRK_PRED_NAME_NULL,
	BRK_PRED_NAME_EMPTY,
	BRK_PRED_NAME_DIGIT,
	BRK_PRED_NAME_DASH,
	BRK_PRED_NAME_SPACE,
	BRK_PRED_NAME_HIGH_BYTE,
	BRK_PRED_NAME_TOO_LONG,
	BRK_PRED_NAME_UPPER,
	BRK_PRED_NAME_UNDERSCORE,
	BRK_RESERVED_NOT,
	BRK_RESERVED_CONTAINS,
	BRK_RESERVED_RE_MATCH,
	BRK_RESERVED_PREFIX,
	BRK_RESERVED_SUFFIX,
	BRK_ARITY_17,
	BRK_ARITY_HUGE,
	BRK_ROLE_ZERO,
	BRK_ROLE_QUERY_ALONE,
	BRK_ROLE_EDB_QUERY,
	BRK_ROLE_FACT_QUERY,
	BRK_ROLE_EDB_IDB,
	BRK_ROLE_EDB_FACT,
	BRK_ROLE_UNKNOWN_BIT,
	BRK_ROLE_ALL_BITS,
	BRK_DUPLICATE_PRED,
	BRK_DUPLICATE_PRED_OTHER_ARITY,
	BRK_ATOM_NULL_FIRST,
	BRK_ATOM_NULL_LAST,
	BRK_PREDS_NULL,
	BRK_ATOMS_NULL,
	NBREAKAGES,
};

static const char *const breakage_names[NBREAKAGES] = {
    "empty domain name",
    "domain name with a space",
    "domain name of 256 bytes",
    "NULL predicate name",
    "empty predicate name",
    "predicate name starting with a digit",
    "predicate name with a dash",
    "predicate name with a space",
    "predicate name with a high byte",
    "predicate name of 256 bytes",
    "predicate name starting upper-case (a variable)",
    "predicate name starting with '_' (a variable)",
    "reserved name 'not'",
    "reserved name 'contains'",
    "reserved name 're_match'",
    "reserved name 'prefix'",
    "reserved name 'suffix'",
    "arity MAX_ARITY + 1",
    "arity SIZE_MAX",
    "role 0",
    "role QUERY alone",
    "role EDB|QUERY",
    "role POLICY_FACT|QUERY",
    "role EDB|IDB",
    "role EDB|POLICY_FACT",
    "role with an unknown bit",
    "role with every bit",
    "duplicate predicate name",
    "duplicate predicate name with another arity",
    "NULL first atom",
    "NULL last atom",
    "predicates NULL with a count",
    "atoms NULL with a count",
};

static char long_name[257];

static void
break_table(struct mutated *m, char *name, enum breakage how)
{
	mutate(m, name, NMUTATIONS); /* the base table, unchanged */
	memset(long_name, 'a', 256);
	long_name[256] = '\0';
	switch (how) {
	case BRK_EMPTY_NAME:
		m->domain.name = "";
		break;
	case BRK_NAME_WITH_SPACE:
		name[3] = ' ';
		break;
	case BRK_NAME_TOO_LONG:
		m->domain.name = long_name;
		break;
	case BRK_PRED_NAME_NULL:
		m->preds[2].name = NULL;
		break;
	case BRK_PRED_NAME_EMPTY:
		m->preds[2].name = "";
		break;
	case BRK_PRED_NAME_DIGIT:
		m->preds[2].name = "9lives";
		break;
	case BRK_PRED_NAME_DASH:
		m->preds[2].name = "black-list";
		break;
	case BRK_PRED_NAME_SPACE:
		m->preds[2].name = "black list";
		break;
	case BRK_PRED_NAME_HIGH_BYTE:
		m->preds[2].name = "bl\xc3\xa9";
		break;
	case BRK_PRED_NAME_TOO_LONG:
		m->preds[2].name = long_name;
		break;
	case BRK_PRED_NAME_UPPER:
		m->preds[2].name = "Blocked";
		break;
	case BRK_PRED_NAME_UNDERSCORE:
		m->preds[2].name = "_blocked";
		break;
	case BRK_RESERVED_NOT:
		m->preds[2].name = "not";
		break;
	case BRK_RESERVED_CONTAINS:
		m->preds[2].name = "contains";
		break;
	case BRK_RESERVED_RE_MATCH:
		m->preds[2].name = "re_match";
		break;
	case BRK_RESERVED_PREFIX:
		m->preds[2].name = "prefix";
		break;
	case BRK_RESERVED_SUFFIX:
		m->preds[2].name = "suffix";
		break;
	case BRK_ARITY_17:
		m->preds[1].arity = MAELYS_DATALOG_MAX_ARITY + 1;
		break;
	case BRK_ARITY_HUGE:
		m->preds[1].arity = SIZE_MAX;
		break;
	case BRK_ROLE_ZERO:
		m->preds[3].role = 0;
		break;
	case BRK_ROLE_QUERY_ALONE:
		m->preds[3].role = QUERY;
		break;
	case BRK_ROLE_EDB_QUERY:
		m->preds[0].role = EDB | QUERY;
		break;
	case BRK_ROLE_FACT_QUERY:
		m->preds[2].role = FACT | QUERY;
		break;
	case BRK_ROLE_EDB_IDB:
		m->preds[0].role = EDB | IDB;
		break;
	case BRK_ROLE_EDB_FACT:
		m->preds[0].role = EDB | FACT;
		break;
	case BRK_ROLE_UNKNOWN_BIT:
		m->preds[3].role = IDB | (1u << 4);
		break;
	case BRK_ROLE_ALL_BITS:
		m->preds[3].role = UINT32_MAX;
		break;
	case BRK_DUPLICATE_PRED:
		m->preds[3].name = "request";
		m->preds[3].arity = 1;
		break;
	case BRK_DUPLICATE_PRED_OTHER_ARITY:
		m->preds[3].name = "owner";
		break;
	case BRK_ATOM_NULL_FIRST:
		m->atoms[0] = NULL;
		break;
	case BRK_ATOM_NULL_LAST:
		m->atoms[NBASE_ATOMS - 1] = NULL;
		break;
	case BRK_PREDS_NULL:
		m->domain.predicates = NULL;
		break;
	case BRK_ATOMS_NULL:
		m->domain.atoms = NULL;
		break;
	case NBREAKAGES:
		break;
	}
}

START_TEST(test_registry_malformed_table_is_invalid_domain)
{
	enum breakage how = (enum breakage)_i;
	struct mutated m;
	char name[64];

	(void)snprintf(name, sizeof name, "reg_bad_%d", _i);
	break_table(&m, name, how);
	ck_assert_msg(maelys_datalog_domain_register(&m.domain) ==
			  ST_INVALID_DOMAIN,
		      "%s: got %s, want invalid_domain", breakage_names[how],
		      maelys_datalog_status_name(
			  maelys_datalog_domain_register(&m.domain)));
	/* nothing was registered under the name */
	if (m.domain.name != NULL && m.domain.name[0] != '\0')
		ck_assert_status(try_load(m.domain.name, "seen(\"rm\").\n"),
				 MAELYS_DATALOG_STATUS_UNKNOWN_DOMAIN);
	/* the name is still free for a good table */
	if (m.domain.name == name) {
		maelys_datalog_domain_t d;

		name[3] = '_';
		d = base_domain(name);
		ck_assert_status(maelys_datalog_domain_register(&d), ST_OK);
		assert_base_policy_decides(name);
	}
}
END_TEST

/* A table without a name is malformed, not a NULL argument: the table
 * itself was given. */
START_TEST(test_registry_null_domain_name_is_invalid_domain)
{
	maelys_datalog_domain_t d = base_domain(NULL);

	ck_assert_status(maelys_datalog_domain_register(&d), ST_INVALID_DOMAIN);
}
END_TEST

/* Tables at the edges of what is allowed register fine. */
START_TEST(test_registry_edge_tables_are_accepted)
{
	static const maelys_datalog_predicate_t edge_preds[] = {
	    {"wide", MAELYS_DATALOG_MAX_ARITY, EDB},
	    {"nullary", 0, EDB},
	    {"x9_Y", 1, IDB | QUERY},
	    {"q", 1, FACT},
	};
	static const char *const edge_atoms[] = {"", "with space",
						 "caf\xc3\xa9", "\"q\""};
	maelys_datalog_domain_t empty = {"reg_edge_empty", NULL, 0, NULL, 0};
	maelys_datalog_domain_t d = {
	    "reg_edge", edge_preds, sizeof edge_preds / sizeof *edge_preds,
	    edge_atoms, sizeof edge_atoms / sizeof *edge_atoms};

	ck_assert_status(maelys_datalog_domain_register(&d), ST_OK);
	ck_assert_status(maelys_datalog_domain_register(&empty), ST_OK);
	ck_assert_status(try_load("reg_edge",
				  "x9_Y(X) :- nullary, wide(X, _, _, _, _, _, "
				  "_, _, _, _, _, _, _, _, _, _, _, _, _, _, "
				  "_, _, _, _, _, _, _, _, _, _, _, _).\n"
				  "q(\"with space\").\n"),
			 ST_OK);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Concurrency                                                         */

#define NTHREADS 8
#define ROUNDS   200
#define RACES    64

struct reg_thread {
	pthread_barrier_t *start;
	int id;
	struct dltest_errors err;
	/* race_status[k]: what registering race_<k> with this thread's
	 * variant returned */
	maelys_datalog_status_t race_status[RACES];
};

static void
note_error(struct reg_thread *t, const char *what, maelys_datalog_status_t st)
{
	dltest_note(&t->err, "thread %d: %s: %s", t->id, what,
		    maelys_datalog_status_name(st));
}

static void *
register_worker(void *arg)
{
	struct reg_thread *t = arg;
	struct owned_domain shared;
	struct mutated conflicting, variant;
	maelys_datalog_status_t st;
	char name[64];
	int r, k;

	/* each thread registers the shared table from memory of its own */
	owned_domain_init(&shared, "reg_shared");
	mutate(&conflicting, "reg_shared", MUT_ARITY);
	(void)pthread_barrier_wait(t->start);
	for (r = 0; r < ROUNDS; r++) {
		maelys_datalog_domain_t mine;

		if ((st = maelys_datalog_domain_register(&shared.domain)) !=
		    ST_OK)
			note_error(t, "shared", st);
		(void)snprintf(name, sizeof name, "reg_thr_%d_%d", t->id, r);
		mine = base_domain(name);
		if ((st = maelys_datalog_domain_register(&mine)) != ST_OK)
			note_error(t, "own", st);
		if ((st = maelys_datalog_domain_register(
			 &conflicting.domain)) != ST_CONFLICT)
			note_error(t, "conflicting", st);
		if ((st = maelys_datalog_domain_register(&mine)) != ST_OK)
			note_error(t, "own again", st);
	}
	/* even threads register one variant, odd threads the other, all
	 * under the same names */
	for (k = 0; k < RACES; k++) {
		(void)snprintf(name, sizeof name, "reg_race_%d", k);
		mutate(&variant, name, t->id % 2 ? MUT_ARITY : NMUTATIONS);
		t->race_status[k] =
		    maelys_datalog_domain_register(&variant.domain);
	}
	owned_domain_destroy(&shared);
	return NULL;
}

START_TEST(test_registry_eight_threads_register_consistently)
{
	pthread_t threads[NTHREADS];
	struct reg_thread t[NTHREADS];
	pthread_barrier_t start;
	char name[64];
	int i, r, k;

	ck_assert_int_eq(pthread_barrier_init(&start, NULL, NTHREADS), 0);
	memset(t, 0, sizeof t);
	for (i = 0; i < NTHREADS; i++) {
		t[i].start = &start;
		t[i].id = i;
		ck_assert_int_eq(
		    pthread_create(&threads[i], NULL, register_worker, &t[i]),
		    0);
	}
	for (i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_join(threads[i], NULL), 0);
	(void)pthread_barrier_destroy(&start);
	for (i = 0; i < NTHREADS; i++)
		ck_assert_msg(t[i].err.count == 0, "%d errors; first: %s",
			      t[i].err.count, t[i].err.why);

	assert_base_policy_decides("reg_shared");
	for (i = 0; i < NTHREADS; i++)
		for (r = 0; r < ROUNDS; r += 37) {
			(void)snprintf(name, sizeof name, "reg_thr_%d_%d", i,
				       r);
			ck_assert_status(try_load(name, base_policy), ST_OK);
		}
	/* each race has one winner: every thread of its variant got OK,
	 * every thread of the other got DOMAIN_CONFLICT, and the table that
	 * stands is the winner's */
	for (k = 0; k < RACES; k++) {
		int base_won = t[0].race_status[k] == ST_OK;

		for (i = 0; i < NTHREADS; i++) {
			int same_variant = i % 2 == 0;
			maelys_datalog_status_t want =
			    same_variant == base_won ? ST_OK : ST_CONFLICT;

			ck_assert_msg(
			    t[i].race_status[k] == want,
			    "race %d thread %d: %s, want %s", k, i,
			    maelys_datalog_status_name(t[i].race_status[k]),
			    maelys_datalog_status_name(want));
		}
		(void)snprintf(name, sizeof name, "reg_race_%d", k);
		ck_assert_status(try_load(name, base_policy),
				 base_won ? ST_OK
					  : MAELYS_DATALOG_STATUS_ARITY);
	}
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("datalog");
	TCase *tc = tcase_create("registry");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_registry_register_then_load_decides);
	tcase_add_test(tc, test_registry_same_table_again_is_ok);
	tcase_add_test(
	    tc, test_registry_caller_table_freed_after_register_still_loads);
	tcase_add_loop_test(
	    tc, test_registry_different_table_same_name_is_domain_conflict, 0,
	    NMUTATIONS);
	tcase_add_loop_test(tc, test_registry_malformed_table_is_invalid_domain,
			    0, NBREAKAGES);
	tcase_add_test(tc, test_registry_null_domain_name_is_invalid_domain);
	tcase_add_test(tc, test_registry_edge_tables_are_accepted);
	tcase_add_test(tc, test_registry_eight_threads_register_consistently);
	suite_add_tcase(s, tc);
	return s;
}
