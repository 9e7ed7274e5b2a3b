/* SPDX-License-Identifier: MIT */
/*
 * `maelys-pty explain` (pty_explain.h): loads the policy as maelys-pty
 * would (the configuration's, read through its checked descriptor, or
 * --policy as given), in a provenance session; supplies the facts a
 * session would (the decider's own: pty_decide_keep for a line,
 * pty_exec_decide_keep for a program), with the person's options in place
 * of the session's identity; prints the verdict, then the trees of the
 * very result it came from.  Exit status: 0 when it would run, 1 when not,
 * 2 for a usage error or a policy that cannot be loaded.
 */
#include "pty_exec.h"
#include "pty_explain.h"
#include "pty_messages.h"
#include "pty_session.h"
#include "pty_supervise.h"
#include "pty_tool_common.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What one explanation holds. */
struct explain_ctx {
	struct explain_options opt;
	struct pty_config cfg; /* the configuration's, or the defaults */
	char *text;            /* the policy's */
	size_t len;
	const char *name; /* the policy's name in file:line */
	maelys_datalog_session_t *session;
	maelys_datalog_policy_t *policy;
	struct pty_policy_reads reads;
	struct pty_decider d;
};

/* `text` as shown: what the options, the file system and the policy said
 * is never obeyed by the terminal.  Returns `shown`. */
static const char *
explain_shown(char *shown, size_t cap, const char *text)
{
	pty_printable(shown, cap, text);
	return shown;
}

/* The session's identity, from the options over the caller's. */
static int
explain_identity(struct explain_ctx *c, char *err, size_t errlen)
{
	const struct explain_options *o = &c->opt;
	struct pty_tool_facts f;
	size_t i;

	memset(&f, 0, sizeof f);
	f.user = o->user;
	for (i = 0; i < o->ngroups; i++)
		f.groups[f.ngroups++] = o->groups[i];
	f.cwd = o->cwd;
	f.time = o->time;
	f.remote = o->remote;
	f.host = o->host;
	return pty_tool_facts_apply(&c->d, &f, err, errlen);
}

/* The session's facts, as the explanation's head says them. */
static void
explain_say_context(const struct explain_ctx *c, FILE *out)
{
	const struct pty_identity *who = &c->d.who;
	char buf[PTY_TEXT_MAX], cwd[sizeof c->d.cwd];
	size_t i;

	fprintf(out, PTY_MSG_EXPLAIN_FACTS);
	pty_printable(buf, sizeof buf, who->user);
	fprintf(out, " user %s, groups", buf);
	for (i = 0; i < who->ngroups; i++) {
		pty_printable(buf, sizeof buf, who->groups[i]);
		fprintf(out, "%s%s", i > 0 ? "," : " ", buf);
	}
	if (who->ngroups == 0)
		fprintf(out, " (none)");
	/* the directory is whatever another user named it; the options are
	 * as typed: shown, never obeyed by the terminal */
	pty_printable(cwd, sizeof cwd, c->d.cwd);
	fprintf(out, ", cwd %s, time %s, mode %s", cwd,
		c->d.time_of_day[0] != '\0' ? c->d.time_of_day : "now",
		pty_mode_name(c->opt.mode));
	pty_printable(buf, sizeof buf,
		      who->host[0] != '\0' ? who->host : "(none)");
	fprintf(out, ", host %s", buf);
	pty_printable(buf, sizeof buf,
		      who->remote_addr[0] != '\0' ? who->remote_addr
						  : "(none)");
	fprintf(out, ", remote %s\n", buf);
}

static struct explain_tree *
explain_tree_new(const struct explain_ctx *c,
		 const maelys_datalog_result_t *res)
{
	struct explain_tree *t = calloc(1, sizeof *t);

	if (t == NULL)
		return NULL;
	t->res = res;
	t->policy = c->policy;
	t->out = stdout;
	t->depth = c->opt.depth;
	return t;
}

/* The trees of each relation's rows for `key`, then, when nothing
 * allowed it, why not. */
static void
explain_trees(const struct explain_ctx *c, const maelys_datalog_result_t *res,
	      const char *const *rels, const size_t *arity, size_t nrels,
	      const char *key, const char *const *heads, size_t nheads,
	      bool why_not)
{
	struct explain_tree *t = explain_tree_new(c, res);
	size_t i;

	if (t == NULL) {
		fprintf(stderr, PTY_MSG_EXPLAIN_FAILED "\n", strerror(ENOMEM));
		return;
	}
	for (i = 0; i < nrels && !t->cut; i++) {
		/* deny rows are the line's whatever their Op (__line__ too) */
		const char *k = strcmp(rels[i], "deny") == 0 ? NULL : key;

		printf("\n" PTY_MSG_EXPLAIN_ROWS "\n", rels[i]);
		if (explain_tree_rows(t, rels[i], arity[i], k) == 0)
			printf("  " PTY_MSG_EXPLAIN_NO_ROWS "\n", rels[i]);
	}
	if (why_not && !t->cut) {
		printf("\n" PTY_MSG_EXPLAIN_WHY_NOT "\n");
		explain_tree_why_not(t, heads, nheads, key);
	}
	if (t->cut)
		printf(PTY_MSG_EXPLAIN_CUT "\n", EXPLAIN_LINES_MAX,
		       EXPLAIN_SHOWN_MAX);
	(void)maelys_datalog_walk_free(t->walk);
	free(t);
}

static int
explain_line(struct explain_ctx *c)
{
	static const char *const rels[] = {"allow", "allow_with_log",
					   "require_confirm", "deny"};
	static const size_t arity[] = {1, 2, 2, 2};
	static const char *const heads[] = {"allow", "allow_with_log",
					    "require_confirm"};
	struct pty_decision *dec = malloc(sizeof *dec);
	maelys_datalog_result_t *res = NULL;
	char buf[PTY_TEXT_MAX * 2];
	int rc = 1;

	if (dec == NULL) {
		fprintf(stderr, PTY_MSG_EXPLAIN_FAILED "\n", strerror(ENOMEM));
		return 2;
	}
	pty_decide_keep(&c->d, c->opt.line, strlen(c->opt.line), c->opt.mode,
			dec, &res);
	pty_printable(buf, sizeof buf, c->opt.line);
	printf(PTY_MSG_EXPLAIN_LINE "\n", buf);
	explain_say_context(c, stdout);
	pty_printable(buf, sizeof buf, dec->command);
	switch (dec->verdict) {
	case PTY_VERDICT_ALLOW:
		printf(PTY_MSG_EXPLAIN_VERDICT "\n", PTY_MSG_EXPLAIN_ALLOW);
		rc = 0;
		break;
	case PTY_VERDICT_ALLOW_LOG:
		printf(PTY_MSG_EXPLAIN_VERDICT, "");
		printf(PTY_MSG_EXPLAIN_ALLOW_LOG "\n",
		       explain_shown(buf, sizeof buf, dec->log_reason));
		rc = 0;
		break;
	case PTY_VERDICT_CONFIRM:
		printf(PTY_MSG_EXPLAIN_VERDICT, "");
		printf(PTY_MSG_EXPLAIN_CONFIRM "\n",
		       explain_shown(buf, sizeof buf, dec->confirm_prompt));
		break;
	case PTY_VERDICT_POLICY:
		printf(PTY_MSG_EXPLAIN_VERDICT, "");
		printf(PTY_MSG_EXPLAIN_POLICY "\n", buf);
		break;
	case PTY_VERDICT_EMPTY:
		printf(PTY_MSG_EXPLAIN_VERDICT "\n", PTY_MSG_EXPLAIN_EMPTY);
		break;
	case PTY_VERDICT_SYNTAX:
		printf(PTY_MSG_EXPLAIN_VERDICT, "");
		printf(PTY_MSG_EXPLAIN_SYNTAX "\n",
		       scan_refusal_reason(dec->scan.refusal),
		       dec->scan.refusal_offset);
		break;
	case PTY_VERDICT_ERROR:
		printf(PTY_MSG_EXPLAIN_VERDICT, "");
		printf(PTY_MSG_EXPLAIN_ERROR "\n",
		       explain_shown(buf, sizeof buf, dec->error));
		break;
	case PTY_VERDICT_NO_CWD:
		printf(PTY_MSG_EXPLAIN_VERDICT, "");
		printf(PTY_MSG_EXPLAIN_NO_CWD "\n",
		       explain_shown(buf, sizeof buf, dec->error));
		break;
	}
	if (res != NULL)
		explain_trees(c, res, rels, arity, 4, dec->command, heads, 3,
			      dec->verdict == PTY_VERDICT_POLICY);
	(void)maelys_datalog_result_free(res);
	free(dec);
	return rc;
}

static int
explain_exec(struct explain_ctx *c)
{
	static const char *const rels[] = {"allow_exec", "deny_exec",
					   "exec_never"};
	static const size_t arity[] = {1, 2, 1};
	static const char *const heads[] = {"allow_exec"};
	struct pty_exec_request *r = malloc(sizeof *r);
	struct pty_exec_decision dec;
	maelys_datalog_result_t *res = NULL;
	char err[2 * PATH_MAX], buf[PATH_MAX];
	size_t i;
	int rc = 1, decided;

	if (r == NULL) {
		fprintf(stderr, PTY_MSG_EXPLAIN_FAILED "\n", strerror(ENOMEM));
		return 2;
	}
	if (pty_tool_programs(&c->d, &c->cfg, c->opt.shell, c->opt.guard, err,
			      sizeof err) != 0 ||
	    pty_tool_exec_request(
		&c->d,
		&(struct pty_tool_exec){
		    .exec = c->opt.exec,
		    .argv = c->opt.argc > 0 ? c->opt.argv : NULL,
		    .argc = c->opt.argc,
		    .parent = c->opt.parent,
		    .via = PTY_EXEC_VIA_EXECVE,
		},
		r, err, sizeof err) != 0) {
		fprintf(stderr, PTY_MSG_EXPLAIN_FAILED "\n",
			explain_shown(err, sizeof err, err));
		free(r);
		return 2;
	}
	pty_exec_decide_keep(&c->d, r, c->opt.mode, &dec, &res);
	pty_printable(buf, sizeof buf, r->path);
	printf(PTY_MSG_EXPLAIN_PROGRAM, buf);
	if (strcmp(r->path, r->request) != 0) {
		pty_printable(buf, sizeof buf, r->request);
		printf(PTY_MSG_EXPLAIN_ASKED_AS, buf);
	}
	printf(PTY_MSG_EXPLAIN_ARGV);
	for (i = 0; i < r->argc; i++) {
		pty_printable(buf, sizeof buf, r->argv[i]);
		printf(" %s", buf);
	}
	printf("\n");
	explain_say_context(c, stdout);
	{
		char sh[PATH_MAX], guard[PATH_MAX], parent[PATH_MAX];

		pty_printable(sh, sizeof sh, c->d.shell_program);
		pty_printable(guard, sizeof guard, c->d.guard_program);
		pty_printable(parent, sizeof parent, r->parent);
		printf(PTY_MSG_EXPLAIN_PROGRAMS "\n", sh, guard, parent);
	}
	switch (dec.verdict) {
	case PTY_EXEC_ALLOW:
		printf(PTY_MSG_EXPLAIN_VERDICT "\n",
		       PTY_MSG_EXPLAIN_EXEC_ALLOW);
		rc = 0;
		break;
	case PTY_EXEC_POLICY:
		/* a policy that decides lines only: what a session does
		 * with the program is the configuration's to say */
		decided = pty_supervise_execs_decided(
		    &c->d, c->cfg.exec_decisions_optional, err, sizeof err);
		if (decided == 0) {
			printf(PTY_MSG_EXPLAIN_VERDICT "\n",
			       PTY_MSG_EXPLAIN_EXECS_RECORDED);
			rc = 0;
			break;
		}
		printf(PTY_MSG_EXPLAIN_VERDICT, "");
		pty_printable(buf, sizeof buf, r->path);
		if (dec.never)
			printf(PTY_MSG_EXPLAIN_EXEC_NEVER "\n", buf);
		else
			printf(PTY_MSG_EXPLAIN_EXEC_POLICY "\n", buf);
		if (decided < 0)
			printf(PTY_MSG_EXPLAIN_EXECS_REFUSED "\n");
		break;
	default:
		printf(PTY_MSG_EXPLAIN_VERDICT, "");
		printf(PTY_MSG_EXPLAIN_ERROR "\n",
		       explain_shown(buf, sizeof buf, dec.error));
		break;
	}
	if (res != NULL)
		explain_trees(c, res, rels, arity,
			      pty_never_defined(&c->d) ? 3 : 2, r->path, heads,
			      1, dec.verdict == PTY_EXEC_POLICY);
	(void)maelys_datalog_result_free(res);
	free(r);
	return rc;
}

int
explain_run(int argc, char **argv)
{
	static struct explain_ctx c; /* the decider's buffers: not the stack */
	char err[2 * PATH_MAX];
	int rc;

	memset(&c, 0, sizeof c);
	if ((rc = explain_options_parse(argc, argv, &c.opt, stderr)) != 0)
		return rc;
	if (c.opt.help) {
		printf(PTY_MSG_EXPLAIN_USAGE, pty_config_file,
		       EXPLAIN_DEPTH_DEFAULT, EXPLAIN_DEPTH_MAX);
		return 0;
	}
	rc = 2;
	if (pty_tool_policy_text(c.opt.policy_path, c.opt.config_path, &c.cfg,
				 &c.text, &c.len, &c.name, err,
				 sizeof err) != 0 ||
	    pty_policy_open_for_tool(
		c.name, c.text, c.len, MAELYS_DATALOG_SESSION_PROVENANCE,
		&c.session, &c.policy, &c.reads, err, sizeof err) != 0) {
		fprintf(stderr, PTY_MSG_EXPLAIN_FAILED "\n",
			explain_shown(err, sizeof err, err));
		goto out;
	}
	err[0] = '\0';
	if (pty_decider_init(&c.d, c.session, &c.reads, c.cfg.path_env) != 0)
		(void)snprintf(err, sizeof err, PTY_MSG_EXPLAIN_UNKNOWN_USER,
			       (unsigned)getuid());
	else if (explain_identity(&c, err, sizeof err) == 0)
		rc = c.opt.exec != NULL ? explain_exec(&c) : explain_line(&c);
	if (rc == 2 && err[0] != '\0')
		fprintf(stderr, PTY_MSG_EXPLAIN_FAILED "\n",
			explain_shown(err, sizeof err, err));
out:
	pty_decider_free(&c.d);
	(void)maelys_datalog_session_free(c.session);
	maelys_datalog_policy_free(c.policy);
	free(c.text);
	return rc;
}
