/* SPDX-License-Identifier: MIT */
/*
 * One exec decision: the exec facts of pty_exec.h, the session facts, solve,
 * allow_exec(exec_path)?, and the deny_exec(P, Reason) rows that explain a
 * refusal.  The decider's input EDB is shared with the line decisions (the
 * guard decides one thing at a time).  Fail closed: any status other than
 * OK on the way is a denying verdict that says so.
 */
#include "pty_exec.h"

#include <maelys/datalog_builders.h>

#include <stdio.h>
#include <string.h>

int
pty_exec_set_programs(struct pty_decider *d, const char *shell,
		      const char *guard)
{
	if (strlen(shell) >= sizeof d->shell_program ||
	    strlen(guard) >= sizeof d->guard_program)
		return -1;
	(void)snprintf(d->shell_program, sizeof d->shell_program, "%s", shell);
	(void)snprintf(d->guard_program, sizeof d->guard_program, "%s", guard);
	return 0;
}

/* The input facts of one exec (pty_exec.h lists them). */
static maelys_datalog_status_t
exec_build_edb(struct pty_decider *d, const struct pty_exec_request *r,
	       enum pty_mode mode, maelys_datalog_diagnostic_t *diag)
{
	maelys_datalog_input_edb_t *edb = d->edb;
	maelys_datalog_status_t st;
	maelys_datalog_arg_t n;
	size_t i;

	PTY_TRY(st, maelys_datalog_input_edb_clear(edb));
	PTY_TRY(st, pty_fact_add_string(edb, "exec_path", r->path, diag));
	PTY_TRY(st, pty_fact_add_string(edb, "exec_request", r->request, diag));
	for (i = 0; i < r->argc; i++) {
		maelys_datalog_arg_t a[2] = {
		    maelys_datalog_arg_integer((int64_t)i),
		    maelys_datalog_arg_symbol_n(r->argv[i], r->argv_len[i])};

		PTY_TRY(st, maelys_datalog_input_edb_add(edb, "exec_arg", a, 2,
							 diag));
	}
	n = maelys_datalog_arg_integer((int64_t)r->argc);
	if (!r->args_unread)
		PTY_TRY(st, maelys_datalog_input_edb_add(edb, "exec_argc", &n,
							 1, diag));
	/* "": not learnt, as the policy does not read it (pty_supervise.h) */
	if (r->cwd[0] != '\0')
		PTY_TRY(st, pty_fact_add_string(edb, "exec_cwd", r->cwd, diag));
	if (r->parent[0] != '\0')
		PTY_TRY(st, pty_fact_add_string(edb, "exec_parent", r->parent,
						diag));
	if (d->shell_program[0] != '\0')
		PTY_TRY(st, pty_fact_add_string(edb, "session_shell",
						d->shell_program, diag));
	if (d->guard_program[0] != '\0')
		PTY_TRY(st, pty_fact_add_string(edb, "guard_program",
						d->guard_program, diag));
	PTY_TRY(st, pty_fact_add_string(edb, "exec_via",
					pty_exec_via_name(r->via), diag));
	if (r->via != PTY_EXEC_VIA_EXECVE)
		PTY_TRY(st, pty_fact_add_string(edb, "exec_through", r->through,
						diag));
	PTY_TRY(st, pty_decider_add_session_facts(d, mode, diag));
	return MAELYS_DATALOG_STATUS_OK;
}

/* The queries of an exec's decision over d->edb, once its input facts are
 * in it (st: how building them went): allow_exec(P) for P = exec_path,
 * unless exec_never(P) holds, else the deny_exec(P, Reason) rows.  The one owner: a program a process
 * asks for (exec_decide_with) and a recorded one (pty_exec_decide_edb)
 * both end here.  `keep`: where to hand back the result of the solve
 * (NULL: freed here). */
static void
exec_decide_solved(struct pty_decider *d, const char *path, size_t pathlen,
		   maelys_datalog_status_t st,
		   maelys_datalog_diagnostic_t *diag,
		   struct pty_exec_decision *out,
		   maelys_datalog_result_t **keep)
{
	maelys_datalog_result_t *res = NULL;
	int allowed = 0;

	out->asked = st == MAELYS_DATALOG_STATUS_OK;
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = pty_decider_solve_ask(d, "allow_exec", path, pathlen, &res,
					   &allowed, diag);
	/* exec_never wins over allow_exec: the kernel refuses such a file
	 * whatever is asked (landlock_never.c), and so does the decision */
	if (st == MAELYS_DATALOG_STATUS_OK && pty_never_defined(d))
		out->never = pty_never_in(res, path, pathlen);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		out->verdict = PTY_EXEC_ERROR;
		pty_status_text(st, diag, out->error, sizeof out->error);
	} else if (allowed && !out->never) {
		out->verdict = PTY_EXEC_ALLOW;
	} else {
		out->verdict = PTY_EXEC_POLICY;
		out->nreasons = pty_rows_for_key(
		    res, "deny_exec", path, pathlen, out->reasons,
		    PTY_REASONS_MAX, &out->reasons_total);
	}
	if (keep != NULL && out->verdict != PTY_EXEC_ERROR) {
		*keep = res;
		return;
	}
	(void)maelys_datalog_result_free(res);
}

/* `keep`: where to hand back the result of the solve (NULL: freed here). */
static void
exec_decide_with(struct pty_decider *d, const struct pty_exec_request *r,
		 enum pty_mode mode, struct pty_exec_decision *out,
		 maelys_datalog_result_t **keep)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_status_t st;

	memset(out, 0, sizeof *out);
	st = exec_build_edb(d, r, mode, &diag);
	exec_decide_solved(d, r->path, strlen(r->path), st, &diag, out, keep);
}

void
pty_exec_decide_edb(struct pty_decider *d, const char *path, size_t pathlen,
		    struct pty_exec_decision *out)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;

	memset(out, 0, sizeof *out);
	exec_decide_solved(d, path, pathlen, MAELYS_DATALOG_STATUS_OK, &diag,
			   out, NULL);
}

void
pty_exec_decide(struct pty_decider *d, const struct pty_exec_request *r,
		enum pty_mode mode, struct pty_exec_decision *out)
{
	exec_decide_with(d, r, mode, out, NULL);
}

void
pty_exec_decide_keep(struct pty_decider *d, const struct pty_exec_request *r,
		     enum pty_mode mode, struct pty_exec_decision *out,
		     maelys_datalog_result_t **res)
{
	*res = NULL;
	exec_decide_with(d, r, mode, out, res);
}
