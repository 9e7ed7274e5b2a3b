/* SPDX-License-Identifier: MIT */
/*
 * The maelys_pty domain and policy loading.
 *
 * EDB (supplied per line; see pty/decide/decide.c for how each is computed):
 *   command(C)          the first word
 *   arg(A)              every further word
 *   argv(I, A)          every word with its position, 1-based: argv(1, C)
 *   argc(N)             the number of words
 *   user(U)             the session's user name
 *   group(G)            each group the user is in
 *   cwd(D)              the shell's working directory
 *   time_of_day(T)      local time "HH:MM", 24-hour (compares bytewise)
 *   host(H)             this machine's host name
 *   remote_addr(A)      the client address from SSH_CONNECTION, if any
 *   session_mode(M)     "interactive" at the prompt, "command" for -c
 *   command_path(P)     where PATH resolution finds the command, if it does
 *   shell_metachar(M)   each metacharacter class in the raw line
 *   confirmed(C)        when the user confirmed the command
 * and per exec of the supervisor (pty/exec/pty_exec.h): exec_path(P),
 * exec_request(P), exec_arg(I, A), exec_argc(N), exec_cwd(D),
 * exec_parent(P), session_shell(S), guard_program(G), with the session
 * facts user, group, time_of_day, host, remote_addr, session_mode; and how
 * the program was reached, since one execve can start more than one
 * program: exec_via(How), exactly one of "execve" (the program a process
 * asked for), "shebang" (an interpreter of a #! chain, which the kernel
 * starts inside the same execve) or "loader" (the program the dynamic
 * loader is asked to run), and exec_through(F), the resolved script of a
 * "shebang" or loader of a "loader" (absent for "execve").
 * POLICY_FACT (the walkthrough's): forbidden_cmd(C), trusted_user(U).
 * QUERY: allow(C), deny(Op, Reason), deny_any(Op), allow_with_log(C, R),
 * require_confirm(C, Prompt); allow_exec(P), deny_exec(P, Reason); and, once
 * when the session starts, exec_dir(D) and exec_file(F)
 * (pty/exec/pty_supervise.h: queries, so that a location may be derived) and
 * exec_never(P), the programs the kernel must never execute in the session
 * whatever is asked (pty_decide.h, never.c): a relation of exec_path and
 * the session facts alone, which the load checks (pty_policy_never_inputs).
 * A policy declares its own helpers with .decl. There is no atom vocabulary:
 * the policy is the administrator's.
 */
#include "pty_decide.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define EDB   MAELYS_DATALOG_PREDICATE_EDB
#define FACT  MAELYS_DATALOG_PREDICATE_POLICY_FACT
#define QUERY (MAELYS_DATALOG_PREDICATE_IDB | MAELYS_DATALOG_PREDICATE_QUERY)

static const maelys_datalog_predicate_t pty_predicates[] = {
    {"command", 1, EDB},
    {"arg", 1, EDB},
    {"argv", 2, EDB},
    {"argc", 1, EDB},
    {"user", 1, EDB},
    {"group", 1, EDB},
    {"cwd", 1, EDB},
    {"time_of_day", 1, EDB},
    {"host", 1, EDB},
    {"remote_addr", 1, EDB},
    {"session_mode", 1, EDB},
    {"command_path", 1, EDB},
    {"shell_metachar", 1, EDB},
    {"confirmed", 1, EDB},
    {"exec_path", 1, EDB},
    {"exec_request", 1, EDB},
    {"exec_arg", 2, EDB},
    {"exec_argc", 1, EDB},
    {"exec_cwd", 1, EDB},
    {"exec_parent", 1, EDB},
    {"session_shell", 1, EDB},
    {"guard_program", 1, EDB},
    {"exec_via", 1, EDB},
    {"exec_through", 1, EDB},
    {"forbidden_cmd", 1, FACT},
    {"trusted_user", 1, FACT},
    {"allow", 1, QUERY},
    {"deny", 2, QUERY},
    {"deny_any", 1, QUERY},
    {"allow_with_log", 2, QUERY},
    {"require_confirm", 2, QUERY},
    {"allow_exec", 1, QUERY},
    {"deny_exec", 2, QUERY},
    {"exec_dir", 1, QUERY},
    {"exec_file", 1, QUERY},
    {"exec_never", 1, QUERY},
};

static const maelys_datalog_domain_t pty_domain = {
    PTY_DOMAIN,
    pty_predicates,
    sizeof pty_predicates / sizeof pty_predicates[0],
    NULL,
    0,
};

#define PTY_NPREDICATES (sizeof pty_predicates / sizeof pty_predicates[0])

bool
pty_policy_reads(const struct pty_policy_reads *r, const char *name)
{
	size_t i;

	if (r == NULL || !r->known)
		return true;
	for (i = 0; i < PTY_NPREDICATES; i++)
		if (strcmp(pty_predicates[i].name, name) == 0)
			return (r->read >> i & 1u) != 0;
	return true;
}

bool
pty_policy_decides_execs(const maelys_datalog_policy_t *policy)
{
	int defines = 1;

	/* on any doubt it does: the session then decides every program,
	 * and one the policy does not allow is refused */
	if (maelys_datalog_policy_defines(policy, "allow_exec", 1, &defines) !=
	    MAELYS_DATALOG_STATUS_OK)
		return true;
	return defines != 0;
}

/* The inputs exec_never may be derived from: the program's path and what
 * stays the same for the whole session (the session facts but the time of
 * day, the shell and the guard), since it is decided once, when the
 * session starts, for the kernel to hold for all of it (never.c). */
static const char *const pty_never_inputs[] = {
    "exec_path", "user", "group", "host", "remote_addr", "session_mode",
    "session_shell", "guard_program",
};

/* Whether input predicate `name` is one exec_never may read. */
static bool
pty_never_may_read(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof pty_never_inputs / sizeof pty_never_inputs[0];
	     i++)
		if (strcmp(pty_never_inputs[i], name) == 0)
			return true;
	return false;
}

/* The load's check of exec_never: when the policy defines it, none of the
 * inputs it may not read may reach it through any rule (policy_depends).
 * Returns 0, or -1 with one line in err. */
static int
pty_policy_check_never(const maelys_datalog_policy_t *policy,
		       const char *name, bool *defines, char *err,
		       size_t errlen)
{
	int def = 1;
	size_t i;

	*defines = false;
	if (maelys_datalog_policy_defines(policy, "exec_never", 1, &def) !=
		MAELYS_DATALOG_STATUS_OK ||
	    def == 0)
		return 0;
	*defines = true;
	for (i = 0; i < PTY_NPREDICATES; i++) {
		int depends = 1;

		if (pty_predicates[i].role != EDB ||
		    pty_never_may_read(pty_predicates[i].name))
			continue;
		if (maelys_datalog_policy_depends(
			policy, "exec_never", 1, pty_predicates[i].name,
			pty_predicates[i].arity,
			&depends) != MAELYS_DATALOG_STATUS_OK ||
		    depends != 0) {
			(void)snprintf(
			    err, errlen,
			    "policy %s: exec_never depends on %s: it is "
			    "decided once, when the session starts, from a "
			    "program's path and the session facts but "
			    "time_of_day alone, and the kernel holds it for "
			    "the whole session (maelys-policy(5), EXEC "
			    "DECISIONS)",
			    name, pty_predicates[i].name);
			return -1;
		}
	}
	return 0;
}

/* Which input predicates the policy's rules read (on any doubt: read). */
static void
pty_policy_note_reads(const maelys_datalog_policy_t *policy,
		      struct pty_policy_reads *r)
{
	size_t i;

	r->read = 0;
	for (i = 0; i < PTY_NPREDICATES; i++) {
		int reads = 1;

		if (maelys_datalog_policy_reads(
			policy, pty_predicates[i].name, pty_predicates[i].arity,
			&reads) != MAELYS_DATALOG_STATUS_OK)
			reads = 1;
		if (reads != 0)
			r->read |= (uint64_t)1 << i;
	}
	r->known = true;
	r->execs_undecided = !pty_policy_decides_execs(policy);
}

/* How many times a session's memory budget a provenance session gets. */
#define PTY_PROVENANCE_MEMORY 8u

/* Loads from `text` (or from the file `name` when text is NULL), prepares a
 * session created with `flags`, notes in *reads (when not NULL) what the
 * policy reads, and hands back the policy itself in *keep (when not NULL;
 * the caller frees it). */
static int
pty_policy_load(const char *name, const char *text, size_t len,
		unsigned flags, maelys_datalog_session_t **out,
		maelys_datalog_policy_t **keep, struct pty_policy_reads *reads,
		char *err, size_t errlen)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_status_t st;
	bool never = false;

	*out = NULL;
	if (keep != NULL)
		*keep = NULL;
	st = maelys_datalog_domain_register(&pty_domain);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = text != NULL
			 ? maelys_datalog_policy_load_inline(
			       PTY_DOMAIN, name, text, len, &policy, &diag)
			 : maelys_datalog_policy_load_file(PTY_DOMAIN, name,
							   &policy, &diag);
	if (reads != NULL)
		memset(reads, 0, sizeof *reads); /* not known: every fact */
	if (st == MAELYS_DATALOG_STATUS_OK &&
	    pty_policy_check_never(policy, name, &never, err, errlen) != 0) {
		(void)maelys_datalog_policy_free(policy);
		return -1;
	}
	if (st == MAELYS_DATALOG_STATUS_OK) {
		if (reads != NULL) {
			pty_policy_note_reads(policy, reads);
			reads->exec_never = never;
		}
		st = maelys_datalog_session_create(policy, flags, out);
	}
	if (st == MAELYS_DATALOG_STATUS_OK &&
	    (flags & MAELYS_DATALOG_SESSION_PROVENANCE) != 0) {
		/* the records count against the memory budget: a tool that
		 * explains must reach the verdict a session reaches without
		 * them, so it gets PTY_PROVENANCE_MEMORY times a session's
		 * budget (the records take three to five times the tuples'
		 * room), bounded by the engine's most */
		uint64_t budget = 0, most = 0;

		st = maelys_datalog_session_get_budget(
		    *out, MAELYS_DATALOG_BUDGET_MEMORY, &budget);
		if (st == MAELYS_DATALOG_STATUS_OK)
			st = maelys_datalog_budget_max(
			    MAELYS_DATALOG_BUDGET_MEMORY, &most);
		if (st == MAELYS_DATALOG_STATUS_OK)
			st = maelys_datalog_session_set_budget(
			    *out, MAELYS_DATALOG_BUDGET_MEMORY,
			    budget <= most / PTY_PROVENANCE_MEMORY
				? budget * PTY_PROVENANCE_MEMORY
				: most);
	}
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = maelys_datalog_session_prepare(*out, &diag);
	if (st == MAELYS_DATALOG_STATUS_OK && keep != NULL)
		*keep = policy;
	else
		(void)maelys_datalog_policy_free(policy);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		(void)maelys_datalog_session_free(*out);
		*out = NULL;
		if (keep != NULL)
			*keep = NULL;
		(void)snprintf(err, errlen, "policy %s: %s: %s", name,
			       maelys_datalog_status_name(st),
			       diag.message[0] != '\0'
				   ? diag.message
				   : maelys_datalog_status_meaning(st));
		return -1;
	}
	return 0;
}

int
pty_policy_open(const char *path, maelys_datalog_session_t **out,
		struct pty_policy_reads *reads, char *err, size_t errlen)
{
	return pty_policy_load(path, NULL, 0, 0, out, NULL, reads, err,
			       errlen);
}

int
pty_policy_open_text(const char *name, const char *text, size_t len,
		     maelys_datalog_session_t **out,
		     struct pty_policy_reads *reads, char *err, size_t errlen)
{
	return pty_policy_load(name, text, len, 0, out, NULL, reads, err,
			       errlen);
}

int
pty_policy_open_for_tool(const char *name, const char *text, size_t len,
			 unsigned flags, maelys_datalog_session_t **out,
			 maelys_datalog_policy_t **policy,
			 struct pty_policy_reads *reads, char *err,
			 size_t errlen)
{
	return pty_policy_load(name, text, len, flags, out, policy, reads, err,
			       errlen);
}

/* The host's own warning of rule `r`, if it has one: deny(Op, Reason) with
 * an integer Reason.  Fills what (cap bytes) and *info. */
static bool
pty_policy_host_warning(const maelys_datalog_policy_t *policy, size_t r,
			maelys_datalog_rule_info_t *info, char *what,
			size_t cap)
{
	maelys_datalog_written_term_t reason;

	if (maelys_datalog_policy_get_rule(policy, r, info) !=
		MAELYS_DATALOG_STATUS_OK ||
	    strcmp(info->head, "deny") != 0 || info->head_arity != 2 ||
	    maelys_datalog_policy_get_head_term(policy, r, 1, &reason) !=
		MAELYS_DATALOG_STATUS_OK ||
	    reason.kind != MAELYS_DATALOG_WRITTEN_INTEGER)
		return false;
	(void)snprintf(what, cap,
		       "the Reason of deny(Op, Reason) is the integer %lld, "
		       "not a string: a line this rule denies would show "
		       "\"?\" as its reason",
		       (long long)reason.integer);
	return true;
}

/* The engine's warning `i`, with `what` pointing past its position and
 * its "warning: " (the message is "source:line:col: warning: what"). */
static bool
pty_policy_engine_warning(const maelys_datalog_policy_t *policy, size_t i,
			  maelys_datalog_diagnostic_t *d, const char **what)
{
	maelys_datalog_warning_kind_t kind;
	char prefix[sizeof d->source + 64];
	int n;

	if (maelys_datalog_policy_get_warning(policy, i, &kind, d) !=
	    MAELYS_DATALOG_STATUS_OK)
		return false;
	n = snprintf(prefix, sizeof prefix, "%s:%zu:%zu: warning: ", d->source,
		     d->line, d->column);
	*what = d->message;
	if (n > 0 && strncmp(d->message, prefix, (size_t)n) == 0)
		*what = d->message + n;
	return true;
}

size_t
pty_policy_warnings(const maelys_datalog_policy_t *policy,
		    pty_policy_warning_visit visit, void *ctx)
{
	size_t ne = maelys_datalog_policy_warning_count(policy);
	size_t nr = maelys_datalog_policy_rule_count(policy);
	size_t e = 0, r = 0, count = 0;
	maelys_datalog_diagnostic_t d = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_rule_info_t info;
	char host_what[256];
	const char *engine_what = NULL;
	bool have_e = false, have_r = false;

	/* two lists, each in source order, merged by position */
	for (;;) {
		struct pty_policy_warning w;

		while (!have_e && e < ne)
			have_e = pty_policy_engine_warning(policy, e++, &d,
							   &engine_what);
		while (!have_r && r < nr)
			have_r = pty_policy_host_warning(
			    policy, r++, &info, host_what, sizeof host_what);
		if (!have_e && !have_r)
			return count;
		if (have_e &&
		    (!have_r || d.line < info.line ||
		     (d.line == info.line && d.column <= info.column))) {
			w.source = d.source;
			w.line = d.line;
			w.column = d.column;
			w.what = engine_what;
			have_e = false;
		} else {
			w.source = info.source;
			w.line = info.line;
			w.column = info.column;
			w.what = host_what;
			have_r = false;
		}
		if (visit != NULL)
			visit(ctx, &w);
		count++;
	}
}
