/* SPDX-License-Identifier: MIT */
/*
 * exec_never(P): the programs the policy never runs in a session, whatever
 * is asked (pty_decide.h).  The load allows it to read only exec_path and
 * the session facts that stay the same for a whole session (policy.c), so
 * it is decided for a file once, when the session starts, and the kernel
 * can be told to refuse the file (pty/exec/landlock_never.c); every exec
 * decision asks it too (pty/exec/exec_decide.c), and `--list` leaves such
 * programs out (runnable.c).
 */
#include "pty_decide.h"

#include <maelys/datalog_builders.h>

#include <stdio.h>
#include <string.h>

bool
pty_never_defined(const struct pty_decider *d)
{
	return !d->reads.known || d->reads.exec_never;
}

bool
pty_never_in(const maelys_datalog_result_t *res, const char *path, size_t len)
{
	maelys_datalog_arg_t k = maelys_datalog_arg_symbol_n(path, len);
	int yes = 1;

	/* on any doubt it holds: the program is refused */
	if (maelys_datalog_result_query(res, "exec_never", &k, 1, &yes) !=
	    MAELYS_DATALOG_STATUS_OK)
		return true;
	return yes != 0;
}

/* Solves the policy over what exec_never may read: the session facts of
 * `mode`, the session's shell and guard when they are known, and
 * exec_path(path) unless path is NULL.  *res is the result (the caller
 * frees it), or NULL with one line in err. */
static int
never_solve(struct pty_decider *d, enum pty_mode mode, const char *path,
	    maelys_datalog_result_t **res, char *err, size_t errlen)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_status_t st;

	*res = NULL;
	st = maelys_datalog_input_edb_clear(d->edb);
	if (st == MAELYS_DATALOG_STATUS_OK && path != NULL)
		st = pty_fact_add_string(d->edb, "exec_path", path, &diag);
	if (st == MAELYS_DATALOG_STATUS_OK && d->shell_program[0] != '\0')
		st = pty_fact_add_string(d->edb, "session_shell",
					 d->shell_program, &diag);
	if (st == MAELYS_DATALOG_STATUS_OK && d->guard_program[0] != '\0')
		st = pty_fact_add_string(d->edb, "guard_program",
					 d->guard_program, &diag);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = pty_decider_add_session_facts(d, mode, &diag);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = maelys_datalog_session_solve_edb(d->session, d->edb, res,
						      &diag);
	if (st == MAELYS_DATALOG_STATUS_OK)
		return 0;
	(void)maelys_datalog_result_free(*res);
	*res = NULL;
	(void)snprintf(err, errlen, "exec_never: ");
	pty_status_text(st, &diag, err + strlen(err), errlen - strlen(err));
	return -1;
}

int
pty_never_ask(struct pty_decider *d, enum pty_mode mode, const char *path,
	      bool *never, char *err, size_t errlen)
{
	maelys_datalog_result_t *res = NULL;

	*never = true;
	if (never_solve(d, mode, path, &res, err, errlen) != 0)
		return -1;
	*never = pty_never_in(res, path, strlen(path));
	(void)maelys_datalog_result_free(res);
	return 0;
}

int
pty_never_named(struct pty_decider *d, enum pty_mode mode,
		pty_never_visit visit, void *arg, char *err, size_t errlen)
{
	maelys_datalog_fact_view_t rows[64];
	maelys_datalog_result_t *res = NULL;
	maelys_datalog_status_t st;
	size_t offset = 0, count = 0, i;
	int rc = 0;

	if (never_solve(d, mode, NULL, &res, err, errlen) != 0)
		return -1;
	do {
		count = 0;
		st = maelys_datalog_result_enumerate_at(
		    res, "exec_never", 1, offset, rows,
		    sizeof rows / sizeof rows[0], &count);
		if (st != MAELYS_DATALOG_STATUS_OK) {
			(void)snprintf(err, errlen, "exec_never: %s",
				       maelys_datalog_status_name(st));
			rc = -1;
			break;
		}
		for (i = 0; i < count && rc == 0; i++) {
			char path[4096];
			const char *text;
			size_t len;

			if (rows[i].terms[0].kind !=
				MAELYS_DATALOG_TERM_SYMBOL ||
			    maelys_datalog_result_symbol_text(
				res, rows[i].terms[0].as.symbol_id, &text,
				&len) != MAELYS_DATALOG_STATUS_OK ||
			    len >= sizeof path ||
			    memchr(text, '\0', len) != NULL) {
				(void)snprintf(err, errlen,
					       "exec_never: every program is "
					       "a path");
				rc = -1;
				break;
			}
			memcpy(path, text, len);
			path[len] = '\0';
			rc = visit(arg, path, err, errlen);
		}
		offset += count;
	} while (rc == 0 && count == sizeof rows / sizeof rows[0]);
	(void)maelys_datalog_result_free(res);
	return rc;
}
