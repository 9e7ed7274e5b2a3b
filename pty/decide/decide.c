/* SPDX-License-Identifier: MIT */
/*
 * One decision: scan_line() on the raw line, the input facts of the host
 * contract, solve, allow(Cmd)?, and the deny(Op, Reason) rows that explain a
 * refusal.  The input EDB is reused from line to line.  Fail closed: any
 * status other than OK on the way is a denying verdict that says so.
 */
#include "pty_decide.h"

#include <maelys/datalog_builders.h>

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void
pty_copy(char *dst, size_t cap, const char *src, size_t len)
{
	if (len >= cap)
		len = cap - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

int
pty_identity_set_user(struct pty_identity *who, const struct passwd *pw)
{
	gid_t gids[64];
	int n = 64, i;

	who->user[0] = '\0';
	who->ngroups = 0;
	if (pw == NULL || pw->pw_name == NULL || pw->pw_name[0] == '\0')
		return -1;
	pty_copy(who->user, sizeof who->user, pw->pw_name, strlen(pw->pw_name));
	if (getgrouplist(pw->pw_name, pw->pw_gid, gids, &n) < 0)
		n = 64; /* more than 64 groups: the first 64 */
	for (i = 0; i < n && who->ngroups < 64; i++) {
		struct group *g = getgrgid(gids[i]);

		if (g != NULL && g->gr_name != NULL)
			pty_copy(who->groups[who->ngroups++], PTY_TEXT_MAX,
				 g->gr_name, strlen(g->gr_name));
	}
	return 0;
}

/* The directory is not named: too long (ERANGE, ENAMETOOLONG), or for
 * another reason (`e`, 0 when none is known). */
static void
pty_decider_cwd_failed(struct pty_decider *d, int e)
{
	char why[sizeof d->cwd_unnamed];

	if (e == ERANGE || e == ENAMETOOLONG)
		(void)snprintf(why, sizeof why, PTY_CWD_TOO_LONG_FMT,
			       PTY_CWD_MAX - 1);
	else if (e != 0)
		(void)snprintf(why, sizeof why, "it cannot be named (%s)",
			       strerror(e));
	else
		(void)snprintf(why, sizeof why, "it cannot be named");
	pty_decider_unnamed_cwd(d, why);
}

int
pty_decider_init(struct pty_decider *d, maelys_datalog_session_t *session,
		 const struct pty_policy_reads *reads, const char *path_env)
{
	const char *conn;

	memset(d, 0, sizeof *d);
	d->session = session;
	d->path_env = path_env;
	if (reads != NULL)
		d->reads = *reads;
	d->reads_command_path = pty_policy_reads(&d->reads, "command_path");
	if (maelys_datalog_input_edb_create(&d->edb) !=
	    MAELYS_DATALOG_STATUS_OK)
		return -1;
	if (pty_identity_set_user(&d->who, getpwuid(getuid())) != 0)
		return -1;
	if (gethostname(d->who.host, sizeof d->who.host) != 0)
		d->who.host[0] = '\0';
	d->who.host[sizeof d->who.host - 1] = '\0';
	if (isatty(STDIN_FILENO) && ttyname(STDIN_FILENO) != NULL)
		pty_copy(d->who.tty, sizeof d->who.tty, ttyname(STDIN_FILENO),
			 strlen(ttyname(STDIN_FILENO)));
	/* SSH_CONNECTION is "client_ip client_port server_ip server_port",
	 * set by sshd before the login shell starts */
	conn = getenv("SSH_CONNECTION");
	if (conn != NULL) {
		size_t k = strcspn(conn, " ");

		pty_copy(d->who.remote_addr, sizeof d->who.remote_addr, conn,
			 k);
	}
	if (getcwd(d->cwd, sizeof d->cwd) == NULL)
		pty_decider_cwd_failed(d, errno);
	return 0;
}

void
pty_decider_free(struct pty_decider *d)
{
	(void)maelys_datalog_input_edb_free(d->edb);
	d->edb = NULL;
}

void
pty_decider_records(struct pty_decider *d)
{
	d->reads_command_path = true;
}

void
pty_decider_set_cwd(struct pty_decider *d, const char *cwd)
{
	size_t len = strlen(cwd);

	if (len == 0 || len >= sizeof d->cwd) {
		pty_decider_cwd_failed(d, len == 0 ? 0 : ENAMETOOLONG);
		return;
	}
	memcpy(d->cwd, cwd, len + 1);
	d->cwd_unnamed[0] = '\0';
}

void
pty_decider_unnamed_cwd(struct pty_decider *d, const char *why)
{
	d->cwd[0] = '\0';
	pty_copy(d->cwd_unnamed, sizeof d->cwd_unnamed, why, strlen(why));
}

bool
pty_decider_command_path(const struct pty_decider *d, const char *cmd,
			 size_t len, char *out, size_t cap)
{
	char name[PATH_MAX];
	const char *p;
	struct stat st;

	if (len == 0 || len >= sizeof name)
		return false;
	memcpy(name, cmd, len);
	name[len] = '\0';
	if (memchr(cmd, '/', len) != NULL) {
		/* relative to a directory that has no name: none to give */
		int n = name[0] != '/' && d->cwd[0] == '\0' ? -1
			: name[0] == '/'
			    ? snprintf(out, cap, "%s", name)
			    : snprintf(out, cap, "%s/%s", d->cwd, name);

		return n > 0 && (size_t)n < cap && stat(out, &st) == 0 &&
		       S_ISREG(st.st_mode) && access(out, X_OK) == 0;
	}
	for (p = d->path_env; p != NULL && *p != '\0';) {
		size_t dl = strcspn(p, ":");
		int n = snprintf(out, cap, "%.*s/%s", (int)dl, p, name);

		/* one stat per directory; access() only for a candidate */
		if (dl > 0 && n > 0 && (size_t)n < cap && stat(out, &st) == 0 &&
		    S_ISREG(st.st_mode) && (st.st_mode & 0111) != 0 &&
		    access(out, X_OK) == 0)
			return true;
		p += dl;
		if (*p == ':')
			p++;
	}
	return false;
}

const char *
pty_mode_name(enum pty_mode mode)
{
	return mode == PTY_MODE_COMMAND ? "command" : "interactive";
}

maelys_datalog_status_t
pty_fact_add_text(maelys_datalog_input_edb_t *edb, const char *pred,
		  const char *text, size_t len,
		  maelys_datalog_diagnostic_t *diag)
{
	maelys_datalog_arg_t a = maelys_datalog_arg_symbol_n(text, len);

	return maelys_datalog_input_edb_add(edb, pred, &a, 1, diag);
}

maelys_datalog_status_t
pty_fact_add_string(maelys_datalog_input_edb_t *edb, const char *pred,
		    const char *text, maelys_datalog_diagnostic_t *diag)
{
	return pty_fact_add_text(edb, pred, text, strlen(text), diag);
}

/* The facts of the session, the same for a line and an exec: user, group,
 * time_of_day, host, remote_addr, session_mode. */
maelys_datalog_status_t
pty_decider_add_session_facts(struct pty_decider *d, enum pty_mode mode,
			      maelys_datalog_diagnostic_t *diag)
{
	maelys_datalog_input_edb_t *edb = d->edb;
	maelys_datalog_status_t st;
	char buf[64];
	struct tm tm;
	time_t now = time(NULL);
	size_t i;

	PTY_TRY(st, pty_fact_add_string(edb, "user", d->who.user, diag));
	for (i = 0; i < d->who.ngroups; i++)
		PTY_TRY(st, pty_fact_add_string(edb, "group", d->who.groups[i],
						diag));
	if (d->time_of_day[0] != '\0')
		PTY_TRY(st, pty_fact_add_string(edb, "time_of_day",
						d->time_of_day, diag));
	else if (localtime_r(&now, &tm) != NULL &&
		 strftime(buf, sizeof buf, "%H:%M", &tm) == 5)
		PTY_TRY(st, pty_fact_add_string(edb, "time_of_day", buf, diag));
	if (d->who.host[0] != '\0')
		PTY_TRY(st,
			pty_fact_add_string(edb, "host", d->who.host, diag));
	if (d->who.remote_addr[0] != '\0')
		PTY_TRY(st, pty_fact_add_string(edb, "remote_addr",
						d->who.remote_addr, diag));
	PTY_TRY(st, pty_fact_add_string(edb, "session_mode",
					pty_mode_name(mode), diag));
	return MAELYS_DATALOG_STATUS_OK;
}

/* The input facts of one line (the host contract of pty/decide/policy.c). */
static maelys_datalog_status_t
pty_build_edb(struct pty_decider *d, const struct scan_result *scan,
	      enum pty_mode mode, int confirmed,
	      maelys_datalog_diagnostic_t *diag)
{
	maelys_datalog_input_edb_t *edb = d->edb;
	const struct scan_token *t = scan->tokens;
	maelys_datalog_status_t st;
	char buf[PATH_MAX];
	size_t i;
	unsigned m;

	PTY_TRY(st, maelys_datalog_input_edb_clear(edb));
	PTY_TRY(st,
		pty_fact_add_text(edb, "command", t[0].text, t[0].len, diag));
	for (i = 0; i < scan->ntokens; i++) {
		maelys_datalog_arg_t a[2] = {
		    maelys_datalog_arg_integer((int64_t)i + 1),
		    maelys_datalog_arg_symbol_n(t[i].text, t[i].len)};

		if (i > 0)
			PTY_TRY(st, pty_fact_add_text(edb, "arg", t[i].text,
						      t[i].len, diag));
		PTY_TRY(st,
			maelys_datalog_input_edb_add(edb, "argv", a, 2, diag));
	}
	{
		maelys_datalog_arg_t n =
		    maelys_datalog_arg_integer((int64_t)scan->ntokens);

		PTY_TRY(st,
			maelys_datalog_input_edb_add(edb, "argc", &n, 1, diag));
	}
	PTY_TRY(st, pty_decider_add_session_facts(d, mode, diag));
	if (d->cwd[0] != '\0')
		PTY_TRY(st, pty_fact_add_string(edb, "cwd", d->cwd, diag));
	if (d->reads_command_path &&
	    pty_decider_command_path(d, t[0].text, t[0].len, buf, sizeof buf))
		PTY_TRY(st,
			pty_fact_add_string(edb, "command_path", buf, diag));
	for (m = 0; m < SCAN_META_COUNT; m++)
		if (scan->metachars & (1u << m))
			PTY_TRY(st, pty_fact_add_string(edb, "shell_metachar",
							scan_metachar_name(m),
							diag));
	if (confirmed)
		PTY_TRY(st, pty_fact_add_text(edb, "confirmed", t[0].text,
					      t[0].len, diag));
	return MAELYS_DATALOG_STATUS_OK;
}

/* How many rows of a relation are read at a time. */
#define PTY_ROWS_PAGE 64

/* The text of a row's column, "?" for one that is not a symbol. */
static void
pty_column_text(const maelys_datalog_result_t *res,
		const maelys_datalog_term_t *t, const char **text, size_t *len)
{
	if (t->kind != MAELYS_DATALOG_TERM_SYMBOL ||
	    maelys_datalog_result_symbol_text(
		res, t->as.symbol_id, text, len) != MAELYS_DATALOG_STATUS_OK) {
		*text = "?";
		*len = 1;
	}
}

maelys_datalog_status_t
pty_rows_each(const maelys_datalog_result_t *res, const char *pred,
	      const char *key, size_t keylen, pty_row_visit visit, void *ctx)
{
	maelys_datalog_fact_view_t rows[PTY_ROWS_PAGE];
	size_t offset = 0, written = 0, i;
	maelys_datalog_status_t st;

	do {
		st = maelys_datalog_result_enumerate_at(
		    res, pred, 2, offset, rows, PTY_ROWS_PAGE, &written);
		if (st != MAELYS_DATALOG_STATUS_OK)
			return st;
		for (i = 0; i < written; i++) {
			const char *c0, *c1;
			size_t l0, l1;

			pty_column_text(res, &rows[i].terms[0], &c0, &l0);
			if (key != NULL &&
			    (rows[i].terms[0].kind !=
				 MAELYS_DATALOG_TERM_SYMBOL ||
			     l0 != keylen || memcmp(c0, key, l0) != 0))
				continue;
			pty_column_text(res, &rows[i].terms[1], &c1, &l1);
			visit(ctx, c0, l0, c1, l1);
		}
		offset += written;
	} while (written == PTY_ROWS_PAGE);
	return MAELYS_DATALOG_STATUS_OK;
}

/* Where pty_rows_for_key keeps what it reads. */
struct pty_rows_kept {
	char (*out)[PTY_TEXT_MAX];
	size_t max, kept, total;
};

static void
pty_keep_second(void *ctx, const char *c0, size_t l0, const char *c1, size_t l1)
{
	struct pty_rows_kept *k = ctx;

	(void)c0;
	(void)l0;
	k->total++;
	if (k->kept < k->max)
		pty_copy(k->out[k->kept++], PTY_TEXT_MAX, c1, l1);
}

size_t
pty_rows_for_key(const maelys_datalog_result_t *res, const char *pred,
		 const char *key, size_t keylen, char (*out)[PTY_TEXT_MAX],
		 size_t max, size_t *total)
{
	struct pty_rows_kept k = {out, max, 0, 0};

	(void)pty_rows_each(res, pred, key, keylen, pty_keep_second, &k);
	if (total != NULL)
		*total = k.total;
	return k.kept;
}

/* Keeps a deny(Op, Reason) row that explains the refusal. */
static void
pty_keep_reason(void *ctx, const char *op, size_t oplen, const char *reason,
		size_t reasonlen)
{
	struct pty_decision *out = ctx;

	out->reasons_total++;
	if (out->nreasons == PTY_REASONS_MAX)
		return;
	pty_copy(out->reasons[out->nreasons].op, PTY_TEXT_MAX, op, oplen);
	pty_copy(out->reasons[out->nreasons].reason, PTY_TEXT_MAX, reason,
		 reasonlen);
	out->nreasons++;
}

/* The deny(Op, Reason) rows that explain the refusal, and whether the
 * line as a whole was denied. */
static void
pty_collect_reasons(const maelys_datalog_result_t *res,
		    struct pty_decision *out)
{
	int line = 0;

	(void)pty_rows_each(res, "deny", NULL, 0, pty_keep_reason, out);
	if (maelys_datalog_result_query_strings(
		res, "deny_any", (const char *const[]){"__line__"}, 1, &line) ==
		MAELYS_DATALOG_STATUS_OK &&
	    line)
		pty_copy(out->denied_op, sizeof out->denied_op, "__line__", 8);
}

void
pty_status_text(maelys_datalog_status_t st,
		const maelys_datalog_diagnostic_t *diag, char *out, size_t cap)
{
	(void)snprintf(out, cap, "%s: %s", maelys_datalog_status_name(st),
		       diag->message[0] != '\0'
			   ? diag->message
			   : maelys_datalog_status_meaning(st));
}

/* The text of column 2 of the first row of pred/2 whose first column is
 * the line's command, into out (PTY_TEXT_MAX bytes); false if none. */
static bool
pty_row_for_command(const maelys_datalog_result_t *res, const char *pred,
		    const char *cmd, size_t cmdlen, char *out)
{
	return pty_rows_for_key(res, pred, cmd, cmdlen,
				(char(*)[PTY_TEXT_MAX])out, 1, NULL) == 1;
}

maelys_datalog_status_t
pty_decider_solve_ask(struct pty_decider *d, const char *pred, const char *key,
		      size_t keylen, maelys_datalog_result_t **res, int *yes,
		      maelys_datalog_diagnostic_t *diag)
{
	maelys_datalog_arg_t k = maelys_datalog_arg_symbol_n(key, keylen);
	maelys_datalog_status_t st;

	*yes = 0;
	PTY_TRY(st, maelys_datalog_session_solve_edb(d->session, d->edb, res,
						     diag));
	if (d->solved != NULL)
		d->solved(d->solved_ctx, *res);
	return maelys_datalog_result_query(*res, pred, &k, 1, yes);
}

/* The queries of a line's decision over d->edb, once its input facts are
 * in it (st: how building them went): allow(Cmd); then
 * allow_with_log(Cmd, R); then require_confirm(Cmd, P) unless confirmed;
 * else the deny(Op, Reason) rows.  The one owner of their order: a typed
 * line (pty_decide_with) and a recorded one (pty_decide_edb) both end
 * here.  `keep`: where to hand back the result of the solve (NULL: freed
 * here). */
static void
pty_decide_solved(struct pty_decider *d, const char *cmd, size_t cmdlen,
		  int confirmed, maelys_datalog_status_t st,
		  maelys_datalog_diagnostic_t *diag, struct pty_decision *out,
		  maelys_datalog_result_t **keep)
{
	maelys_datalog_result_t *res = NULL;
	int allowed = 0;

	pty_copy(out->denied_op, sizeof out->denied_op, cmd, cmdlen);
	out->asked = st == MAELYS_DATALOG_STATUS_OK;
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = pty_decider_solve_ask(d, "allow", cmd, cmdlen, &res,
					   &allowed, diag);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		out->verdict = PTY_VERDICT_ERROR;
		pty_status_text(st, diag, out->error, sizeof out->error);
	} else if (allowed) {
		out->verdict = PTY_VERDICT_ALLOW;
	} else if (pty_row_for_command(res, "allow_with_log", cmd, cmdlen,
				       out->log_reason)) {
		out->verdict = PTY_VERDICT_ALLOW_LOG;
	} else if (!confirmed &&
		   pty_row_for_command(res, "require_confirm", cmd, cmdlen,
				       out->confirm_prompt)) {
		out->verdict = PTY_VERDICT_CONFIRM;
	} else {
		out->verdict = PTY_VERDICT_POLICY;
		pty_collect_reasons(res, out);
	}
	if (keep != NULL && out->verdict != PTY_VERDICT_ERROR) {
		*keep = res;
		return;
	}
	(void)maelys_datalog_result_free(res);
}

/* The shell's directory has no name (why): a policy that reads cwd
 * decides no line (PTY_VERDICT_NO_CWD, pty_decide's comment says why).
 * Returns true when the line is refused so. */
static bool
pty_decide_no_cwd(const struct pty_decider *d, const char *why,
		  struct pty_decision *out)
{
	if (!pty_policy_reads(&d->reads, "cwd"))
		return false;
	out->verdict = PTY_VERDICT_NO_CWD;
	pty_copy(out->denied_op, sizeof out->denied_op, out->command,
		 strlen(out->command));
	pty_copy(out->error, sizeof out->error, why, strlen(why));
	return true;
}

/* Whether the input EDB holds a fact of `pred`. */
static bool
pty_edb_holds(const maelys_datalog_input_edb_t *edb, const char *pred)
{
	maelys_datalog_arg_t args[MAELYS_DATALOG_MAX_ARITY];
	const char *p;
	size_t i, n;

	for (i = 0; i < maelys_datalog_input_edb_count(edb); i++)
		if (maelys_datalog_input_edb_get(
			edb, i, &p, args, MAELYS_DATALOG_MAX_ARITY, &n) ==
			MAELYS_DATALOG_STATUS_OK &&
		    strcmp(p, pred) == 0)
			return true;
	return false;
}

/* `keep`: where to hand back the result of the solve (NULL: freed here). */
static void
pty_decide_with(struct pty_decider *d, const char *line, size_t len,
		enum pty_mode mode, int confirmed, struct pty_decision *out,
		maelys_datalog_result_t **keep)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_status_t st;

	memset(out, 0, sizeof *out);
	out->confirmed = confirmed;
	scan_line(line, len, &out->scan);
	if (out->scan.ntokens > 0)
		pty_copy(out->command, sizeof out->command,
			 out->scan.tokens[0].text, out->scan.tokens[0].len);
	if (out->scan.refusal != SCAN_ACCEPT) {
		out->verdict = PTY_VERDICT_SYNTAX;
		return;
	}
	if (out->scan.ntokens == 0) {
		out->verdict = PTY_VERDICT_EMPTY;
		return;
	}
	if (d->cwd[0] == '\0' && pty_decide_no_cwd(d, d->cwd_unnamed, out))
		return;
	st = pty_build_edb(d, &out->scan, mode, confirmed, &diag);
	pty_decide_solved(d, out->scan.tokens[0].text, out->scan.tokens[0].len,
			  confirmed, st, &diag, out, keep);
}

void
pty_decide_edb(struct pty_decider *d, const char *cmd, size_t cmdlen,
	       int confirmed, struct pty_decision *out)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;

	memset(out, 0, sizeof *out);
	out->confirmed = confirmed;
	pty_copy(out->command, sizeof out->command, cmd, cmdlen);
	/* a line decided while the directory had no name was given no cwd
	 * fact: a policy that reads cwd would have refused it */
	if (!pty_edb_holds(d->edb, "cwd") &&
	    pty_decide_no_cwd(d, "the line was decided with no cwd fact", out))
		return;
	pty_decide_solved(d, cmd, cmdlen, confirmed, MAELYS_DATALOG_STATUS_OK,
			  &diag, out, NULL);
}

void
pty_decide(struct pty_decider *d, const char *line, size_t len,
	   enum pty_mode mode, struct pty_decision *out)
{
	pty_decide_with(d, line, len, mode, 0, out, NULL);
}

void
pty_decide_keep(struct pty_decider *d, const char *line, size_t len,
		enum pty_mode mode, struct pty_decision *out,
		maelys_datalog_result_t **res)
{
	*res = NULL;
	pty_decide_with(d, line, len, mode, 0, out, res);
}

void
pty_decide_confirmed(struct pty_decider *d, const char *line, size_t len,
		     enum pty_mode mode, struct pty_decision *out)
{
	pty_decide_with(d, line, len, mode, 1, out, NULL);
}
