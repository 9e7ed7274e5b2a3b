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
 * ROLE. */
maelys_datalog_status_t dl_result_pred(const maelys_datalog_result_t *res,
				       const char *name, size_t arity,
				       uint32_t *out);

#endif /* DL_API_H */
