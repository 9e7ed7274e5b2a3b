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

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

static maelys_datalog_status_t
exec_add_s(maelys_datalog_input_edb_t *edb, const char *pred, const char *text,
	   maelys_datalog_diagnostic_t *diag)
{
	maelys_datalog_arg_t a =
	    maelys_datalog_arg_symbol_n(text, strlen(text));

	return maelys_datalog_input_edb_add(edb, pred, &a, 1, diag);
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

#define TRY(x)                                                                 \
	do {                                                                   \
		if ((st = (x)) != MAELYS_DATALOG_STATUS_OK)                    \
			return st;                                             \
	} while (0)
	TRY(maelys_datalog_input_edb_clear(edb));
	TRY(exec_add_s(edb, "exec_path", r->path, diag));
	TRY(exec_add_s(edb, "exec_request", r->request, diag));
	for (i = 0; i < r->argc; i++) {
		maelys_datalog_arg_t a[2] = {
		    maelys_datalog_arg_integer((int64_t)i),
		    maelys_datalog_arg_symbol_n(r->argv[i], r->argv_len[i])};

		TRY(maelys_datalog_input_edb_add(edb, "exec_arg", a, 2, diag));
	}
	n = maelys_datalog_arg_integer((int64_t)r->argc);
	if (!r->args_unread)
		TRY(maelys_datalog_input_edb_add(edb, "exec_argc", &n, 1,
						 diag));
	/* "": not learnt, as the policy does not read it (pty_supervise.h) */
	if (r->cwd[0] != '\0')
		TRY(exec_add_s(edb, "exec_cwd", r->cwd, diag));
	if (r->parent[0] != '\0')
		TRY(exec_add_s(edb, "exec_parent", r->parent, diag));
	if (d->shell_program[0] != '\0')
		TRY(exec_add_s(edb, "session_shell", d->shell_program, diag));
	if (d->guard_program[0] != '\0')
		TRY(exec_add_s(edb, "guard_program", d->guard_program, diag));
	TRY(exec_add_s(edb, "exec_via", pty_exec_via_name(r->via), diag));
	if (r->via != PTY_EXEC_VIA_EXECVE)
		TRY(exec_add_s(edb, "exec_through", r->through, diag));
	TRY(pty_decider_add_session_facts(d, mode, diag));
#undef TRY
	return MAELYS_DATALOG_STATUS_OK;
}

/* Keeps the deny_exec(P, Reason) rows for this exec's path. */
static void
exec_collect_reasons(const maelys_datalog_result_t *res,
		     const struct pty_exec_request *r,
		     struct pty_exec_decision *out)
{
	out->nreasons = pty_rows_for_key(res, "deny_exec", r->path,
					 strlen(r->path), out->reasons,
					 PTY_REASONS_MAX, &out->reasons_total);
}

void
pty_exec_decide(struct pty_decider *d, const struct pty_exec_request *r,
		enum pty_mode mode, struct pty_exec_decision *out)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_result_t *res = NULL;
	maelys_datalog_status_t st;
	maelys_datalog_arg_t path;
	int allowed = 0;

	memset(out, 0, sizeof *out);
	st = exec_build_edb(d, r, mode, &diag);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = maelys_datalog_session_solve_edb(d->session, d->edb, &res,
						      &diag);
	if (st == MAELYS_DATALOG_STATUS_OK) {
		path = maelys_datalog_arg_symbol_n(r->path, strlen(r->path));
		st = maelys_datalog_result_query(res, "allow_exec", &path, 1,
						 &allowed);
	}
	if (st != MAELYS_DATALOG_STATUS_OK) {
		out->verdict = PTY_EXEC_ERROR;
		pty_status_text(st, &diag, out->error, sizeof out->error);
	} else if (allowed) {
		out->verdict = PTY_EXEC_ALLOW;
	} else {
		out->verdict = PTY_EXEC_POLICY;
		exec_collect_reasons(res, r, out);
	}
	(void)maelys_datalog_result_free(res);
}

static void
exec_write(int fd, const char *s)
{
	size_t n = strlen(s);

	while (n > 0) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* Copies `s` for a message, control characters shown as '?': a path is
 * the session's data and must not drive the user's terminal. */
static void
exec_printable(char *dst, size_t cap, const char *s)
{
	size_t i;

	for (i = 0; s[i] != '\0' && i + 1 < cap; i++) {
		unsigned char c = (unsigned char)s[i];

		dst[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	dst[i] = '\0';
}

void
pty_exec_print(const struct pty_exec_request *r,
	       const struct pty_exec_decision *dec, int fd, const char *eol)
{
	char msg[3 * PATH_MAX], shown[PATH_MAX], real[PATH_MAX];
	const char *what = "denied by policy";
	size_t i;

	if (dec->verdict == PTY_EXEC_ALLOW)
		return;
	if (dec->verdict == PTY_EXEC_ERROR)
		what = "denied: the policy could not be evaluated";
	else if (dec->verdict == PTY_EXEC_UNREADABLE)
		what = "denied: the request could not be checked";
	else if (dec->verdict == PTY_EXEC_UNSAFE)
		what = "denied";
	exec_printable(shown, sizeof shown,
		       r->request[0] != '\0' ? r->request : r->path);
	exec_printable(real, sizeof real, r->path);
	if (shown[0] == '\0')
		(void)snprintf(msg, sizeof msg,
			       "maelys-pty: an exec of process %d %s%s",
			       (int)r->pid, what, eol);
	else if (r->path[0] != '\0' && strcmp(r->path, shown) != 0)
		(void)snprintf(msg, sizeof msg,
			       "maelys-pty: exec of '%s' (%s) %s%s", shown,
			       real, what, eol);
	else
		(void)snprintf(msg, sizeof msg, "maelys-pty: exec of '%s' %s%s",
			       shown, what, eol);
	exec_write(fd, msg);
	if (r->via != PTY_EXEC_VIA_EXECVE) {
		/* the program was not named by the process: say how the
		 * kernel or the loader comes to run it */
		exec_printable(real, sizeof real, r->through);
		(void)snprintf(msg, sizeof msg, "  %s %s%s",
			       r->via == PTY_EXEC_VIA_SHEBANG
				   ? "the interpreter of the #! script"
				   : "run as a program by the dynamic loader",
			       real, eol);
		exec_write(fd, msg);
	}
	if (dec->verdict == PTY_EXEC_ERROR ||
	    dec->verdict == PTY_EXEC_UNREADABLE ||
	    dec->verdict == PTY_EXEC_UNSAFE) {
		exec_printable(real, sizeof real, dec->error);
		(void)snprintf(msg, sizeof msg, "  %s%s", real, eol);
		exec_write(fd, msg);
		return;
	}
	for (i = 0; i < dec->nreasons; i++) {
		exec_printable(real, sizeof real, dec->reasons[i]);
		(void)snprintf(msg, sizeof msg, "  deny_exec: %s%s", real, eol);
		exec_write(fd, msg);
	}
	if (dec->reasons_total > dec->nreasons) {
		(void)snprintf(msg, sizeof msg, "  (and %zu more)%s",
			       dec->reasons_total - dec->nreasons, eol);
		exec_write(fd, msg);
	}
}
