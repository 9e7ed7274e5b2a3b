/* SPDX-License-Identifier: MIT */
/*
 * The handles behind the opaque public types, shared by the api_*.c files.
 *
 * A session owns the relations of the policy-only strata (materialised once)
 * and a pool of workspaces.  A workspace holds everything one solve
 * changes: the relations of the runtime strata, the symbol overlay for the
 * input's strings, registers and a memory account.  The result handle is
 * embedded in its workspace, so a solve allocates nothing once the pool is
 * warm; freeing the result returns the workspace to the pool.
 */
#ifndef DL_API_H
#define DL_API_H

#include "dl_budget.h"
#include "dl_builtins.h"
#include "dl_eval.h"
#include "dl_program.h"
#include "dl_prov.h"
#include "dl_relation.h"

#include <maelys/datalog.h>

#include <stdatomic.h>

struct maelys_datalog_policy {
	atomic_size_t refs;
	struct dl_program *prog;
};

struct maelys_datalog_result {
	maelys_datalog_session_t *session;
	struct dl_workspace *ws;
};

struct dl_workspace {
	struct dl_workspace *next_free;
	struct dl_rel *rels;  /* by predicate; runtime predicates only */
	struct dl_rel **relp; /* by predicate: here, or the session's */
	struct dl_symtab overlay;
	struct dl_membudget mb;
	uint32_t *regs;
	bool dirty; /* holds a solve's data */
	struct dl_prov prov; /* PROVENANCE: records of the runtime strata */
	struct maelys_datalog_result result;
};

struct maelys_datalog_session {
	maelys_datalog_policy_t *policy;
	const struct dl_program *prog;
	uint64_t budgets[DL_NBUDGETS];
	bool prepared;
	struct dl_rel *prels; /* by predicate; policy-only predicates */
	struct dl_membudget pmb;
	struct dl_workspace *pool;
	size_t live_results;
	bool released; /* session_free called while results were alive */
	struct dl_matcher matcher;
	/* MAELYS_DATALOG_SESSION_PROVENANCE: every predicate is readable and
	 * solves record derivations (dl_prov.h) */
	bool provenance;
	bool *recorded;       /* by predicate; NULL: all (provenance_only) */
	uint32_t *find_index; /* by predicate: all-columns index of a
				 relation of one or two columns */
	struct dl_prov pprov; /* records of the policy-only strata */
};

/* One input fact: its predicate name and columns live in the EDB's byte
 * buffer (offsets: the buffer moves when it grows). */
struct dl_edb_arg {
	maelys_datalog_term_kind_t kind;
	uint32_t len;
	size_t off;
	int64_t integer;
};

struct dl_edb_fact {
	size_t name_off;
	uint32_t name_len;
	uint32_t nargs;
	size_t first_arg;
};

struct maelys_datalog_input_edb {
	char *bytes;
	size_t nbytes, cap_bytes;
	struct dl_edb_fact *facts;
	size_t nfacts, cap_facts;
	struct dl_edb_arg *args;
	size_t nargs, cap_args;
};

/* Resolves a predicate for reading a result: OK, UNDECLARED, ARITY,
 * ROLE (not a QUERY predicate, in a session without provenance). */
maelys_datalog_status_t dl_result_pred(const maelys_datalog_result_t *res,
				       const char *name, size_t arity,
				       uint32_t *out);

/* Whether a predicate may be read from a result of this session. */
bool dl_result_readable(const maelys_datalog_result_t *res, uint32_t pid);

/* A result's symbols: the policy's and its solve's. */
struct dl_symview dl_result_syms(const maelys_datalog_result_t *res);

/* Converts a caller's column to a value of the result; false when no layer
 * knows it (then no relation holds it).  INVALID_ARGUMENT on a bad kind. */
maelys_datalog_status_t dl_result_arg_value(const maelys_datalog_result_t *res,
					    const maelys_datalog_arg_t *a,
					    bool *known, dl_value *out);

/* A caller's tuple predicate(args...) as the result's values: checks the
 * arity bound and the predicate (dl_result_pred), and converts each column;
 * a column no layer knows gets `unknown` and clears *all_known (no
 * relation then holds the tuple).  OK, INVALID_ARGUMENT, UNDECLARED,
 * ARITY, ROLE. */
maelys_datalog_status_t dl_result_tuple_values(
    const maelys_datalog_result_t *res, const char *predicate,
    const maelys_datalog_arg_t *args, size_t count, dl_value unknown,
    uint32_t *pid, dl_value *vals, bool *all_known);

/* Fills a fact view with `n` values. */
void dl_result_view(const maelys_datalog_result_t *res, const dl_value *t,
		    uint32_t n, maelys_datalog_fact_view_t *view);

#endif /* DL_API_H */
