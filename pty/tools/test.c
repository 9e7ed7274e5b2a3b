/* SPDX-License-Identifier: MIT */
/*
 * `maelys-pty test`: the policy's case files, run as the guard decides
 * (pty_cases.h reads and decides them).  One line for each case that does
 * not hold, every case with -v, then "N passed, M failed".  Exit 0 when
 * every case holds, 1 when one does not, 2 when a case file or a policy
 * does not load (then nothing of that file is decided).
 *
 * Each case file is decided with one policy: --policy's, the one the
 * configuration of --config names (read as the session reads it, with
 * the caller's rights: main.c has dropped the program's), or else the
 * policy of the same name next to the file's directory
 * (DIR/cases/NAME.case -> DIR/NAME.dl).  A policy is loaded once, however
 * many files use it, and its warnings are said before its cases
 * (--werror: a policy with a warning does not load).
 */
#include "pty_cases.h"
#include "pty_messages.h"
#include "pty_session.h"
#include "pty_tool_common.h"
#include "pty_tools.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* No directory: bare names never resolve to command_path (cases.c). */
#define TEST_PATH_ENV ""
/* The malformed lines said of one file: a file that is not a case file
 * at all (a policy given by mistake) would be said line by line. */
#define TEST_MALFORMED_SHOWN 50
/* The report of one case: its text, and its verdict's reasons. */
#define TEST_TEXT_MAX (PTY_CASES_LINE_MAX + 2 * PATH_MAX)

/* One policy, loaded at its first use. */
struct test_policy {
	char key[PATH_MAX];  /* as asked for: the policy, or --config's */
	char path[PATH_MAX]; /* the policy's, as shown */
	bool tried;
	bool failed;
	maelys_datalog_session_t *session;
	maelys_datalog_policy_t *policy;
	struct pty_policy_reads reads;
	/* --coverage: the policy's rules, and which of them some case's
	 * solve made true (its body held) */
	size_t nrules;
	unsigned char *fired;
	bool used;                          /* some case decided with it */
	maelys_datalog_status_t coverage_st; /* OK, or what stopped it */
};

struct test_run {
	const struct pty_test_options *o;
	FILE *out, *err;
	struct test_policy *policies;
	size_t npolicies, maxpolicies;
	size_t passed, failed;
	bool unloaded; /* a case file or a policy did not load */
	/* working memory of one case file */
	struct pty_exec_request *rq;
	struct pty_case_result *res;
	struct pty_decider *d;
};

/* The case being decided: what is printed for it once its "because"
 * lines below are checked too. */
struct test_pending {
	bool open;
	bool failed;
	size_t lineno;
	char text[TEST_TEXT_MAX];
};

/* Appends a formatted piece to out (cap bytes, NUL-ended), cut at the
 * end. */
static void test_add(char *out, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
test_add(char *out, size_t cap, const char *fmt, ...)
{
	size_t used = strlen(out);
	va_list ap;

	if (used + 1 >= cap)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(out + used, cap - used, fmt, ap);
	va_end(ap);
}

/* The reasons of a verdict, joined with "; ", as the person running the
 * test reads them (the same reasons the guard shows). */
static void
test_reasons(const struct pty_case *c, const struct pty_case_result *res,
	     char *out, size_t cap)
{
	size_t i, n, total;

	out[0] = '\0';
	if (c->kind == PTY_CASE_NEVER) {
		test_add(out, cap, "%s", res->never_error);
		return;
	}
	if (c->kind == PTY_CASE_EXEC) {
		const struct pty_exec_decision *x = &res->xdec;

		switch (x->verdict) {
		case PTY_EXEC_ERROR:
		case PTY_EXEC_UNREADABLE:
		case PTY_EXEC_UNSAFE:
			test_add(out, cap, "%s", x->error);
			return;
		case PTY_EXEC_POLICY:
			break;
		case PTY_EXEC_ALLOW:
		case PTY_EXEC_RECORDED:
			return;
		}
		if (x->never)
			test_add(out, cap, PTY_MSG_TEST_EXEC_NEVER);
		if (x->nreasons == 0 && !x->never)
			test_add(out, cap, PTY_MSG_TEST_NO_REASON);
		for (i = 0; i < x->nreasons; i++)
			test_add(out, cap, "%s" PTY_MSG_TEST_DENY_EXEC,
				 i > 0 || x->never ? "; " : "", x->reasons[i]);
		n = x->nreasons;
		total = x->reasons_total;
	} else {
		const struct pty_decision *dec = &res->dec;

		switch (dec->verdict) {
		case PTY_VERDICT_SYNTAX:
			test_add(out, cap, "%s",
				 scan_refusal_reason(dec->scan.refusal));
			return;
		case PTY_VERDICT_ERROR:
		case PTY_VERDICT_NO_CWD:
			test_add(out, cap, "%s", dec->error);
			return;
		case PTY_VERDICT_ALLOW_LOG:
			test_add(out, cap, "%s", dec->log_reason);
			return;
		case PTY_VERDICT_CONFIRM:
			test_add(out, cap, "%s", dec->confirm_prompt);
			return;
		case PTY_VERDICT_POLICY:
			break;
		case PTY_VERDICT_EMPTY:
		case PTY_VERDICT_ALLOW:
			return;
		}
		if (dec->nreasons == 0)
			test_add(out, cap, PTY_MSG_TEST_NO_RULE, dec->command);
		for (i = 0; i < dec->nreasons; i++)
			test_add(out, cap, "%s" PTY_MSG_TEST_DENY,
				 i > 0 ? "; " : "", dec->reasons[i].op,
				 dec->reasons[i].reason);
		n = dec->nreasons;
		total = dec->reasons_total;
	}
	if (total > n)
		test_add(out, cap, "; " PTY_MSG_TEST_MORE, total - n);
}

/* Prints one case's line: "got" when it failed, "ok" (with -v) when it
 * held; `text` is the case as written. */
static void
test_report(struct test_run *t, const char *file, size_t lineno,
	    const char *text, bool held, const struct pty_case *c,
	    const struct pty_case_result *res)
{
	char reasons[TEST_TEXT_MAX], suffix[TEST_TEXT_MAX + 8];
	char shown_file[PATH_MAX], shown_text[TEST_TEXT_MAX];
	char verdict[64];

	test_reasons(c, res, reasons, sizeof reasons);
	suffix[0] = '\0';
	if (reasons[0] != '\0')
		test_add(suffix, sizeof suffix, PTY_MSG_TEST_REASONS, reasons);
	(void)snprintf(verdict, sizeof verdict, "%s%s",
		       c->kind == PTY_CASE_NEVER ? pty_case_never_name(res)
		       : c->kind == PTY_CASE_EXEC
			   ? pty_case_exec_verdict_name(res->xdec.verdict)
			   : pty_case_verdict_name(res->dec.verdict),
		       c->kind == PTY_CASE_LINE && res->dec.confirmed
			   ? PTY_MSG_TEST_CONFIRMED
			   : "");
	/* what the file and the policy say is shown, never obeyed by the
	 * terminal */
	pty_printable(shown_file, sizeof shown_file, file);
	pty_printable(shown_text, sizeof shown_text, text);
	pty_printable(reasons, sizeof reasons, suffix);
	fprintf(t->out, held ? PTY_MSG_TEST_PASSED : PTY_MSG_TEST_FAILED,
		shown_file, lineno, shown_text, verdict, reasons);
	fputc('\n', t->out);
}

/* The text a case is reported by: its keyword and value as written, and
 * for an exec case how it is reached when not by execve. */
static void
test_case_text(const struct pty_case *c, const struct pty_case_context *x,
	       char *out, size_t cap)
{
	out[0] = '\0';
	test_add(out, cap, "%s %s", c->keyword, c->value);
	if (c->kind == PTY_CASE_EXEC && x->via != PTY_EXEC_VIA_EXECVE)
		test_add(out, cap, PTY_MSG_TEST_VIA,
			 pty_exec_via_name(x->via), x->through);
}

/* The policy of the same name next to the case file's directory:
 * DIR/cases/NAME.case -> DIR/NAME.dl.  Returns 0, or -1 (not NAME.case,
 * too long). */
static int
test_policy_beside(const char *file, char *out, size_t cap)
{
	const char *slash = strrchr(file, '/');
	const char *base = slash != NULL ? slash + 1 : file;
	size_t blen = strlen(base), dlen, k;
	const char *last;
	int n;

	if (blen <= 5 || strcmp(base + blen - 5, ".case") != 0)
		return -1;
	blen -= 5;
	if (slash == NULL) {
		n = snprintf(out, cap, "../%.*s.dl", (int)blen, base);
		return n > 0 && (size_t)n < cap ? 0 : -1;
	}
	dlen = (size_t)(slash - file); /* the directory: file[0..dlen) */
	for (k = dlen; k > 0 && file[k - 1] != '/'; k--)
		;
	last = file + k; /* its last name, file[k..dlen) */
	if (dlen == 0 || (dlen - k == 1 && last[0] == '.') ||
	    (dlen - k == 2 && last[0] == '.' && last[1] == '.'))
		/* "/", "." or "..": the parent only by name */
		n = snprintf(out, cap, "%.*s/../%.*s.dl", (int)dlen, file,
			     (int)blen, base);
	else if (k == 0) /* "cases/NAME.case" */
		n = snprintf(out, cap, "%.*s.dl", (int)blen, base);
	else if (k == 1) /* "/cases/NAME.case" */
		n = snprintf(out, cap, "/%.*s.dl", (int)blen, base);
	else
		n = snprintf(out, cap, "%.*s/%.*s.dl", (int)(k - 1), file,
			     (int)blen, base);
	return n > 0 && (size_t)n < cap ? 0 : -1;
}

/* One warning of a policy (pty_policy_warnings), on err. */
static void
test_warning(void *ctx, const struct pty_policy_warning *w)
{
	struct test_run *t = ctx;
	char source[PATH_MAX], what[1024];

	pty_printable(source, sizeof source, w->source);
	pty_printable(what, sizeof what, w->what);
	fprintf(t->err, PTY_MSG_TEST_WARNING "%s\n", source, w->line,
		w->column, what, t->o->werror ? PTY_MSG_TEST_WERROR : "");
}

/* The policy `path` (or the one the configuration names), loaded at its
 * first use; NULL when it does not load, or has warnings with --werror
 * (said once, on err). */
static struct test_policy *
test_policy_get(struct test_run *t, const char *path)
{
	struct test_policy *p = NULL;
	char err[1024], *text = NULL;
	size_t i, len = 0, nwarnings;
	unsigned flags;
	int rc;

	for (i = 0; i < t->npolicies; i++)
		if (strcmp(t->policies[i].key, path) == 0)
			p = &t->policies[i];
	if (p == NULL) {
		if (t->npolicies == t->maxpolicies)
			return NULL; /* one per case file: not reached */
		p = &t->policies[t->npolicies++];
		(void)snprintf(p->key, sizeof p->key, "%s", path);
		(void)snprintf(p->path, sizeof p->path, "%s", path);
	}
	if (p->tried)
		return p->failed ? NULL : p;
	p->tried = true;
	flags = t->o->coverage ? MAELYS_DATALOG_SESSION_PROVENANCE : 0;
	{
		/* --config: the configured policy, opened as a session opens
		 * it; otherwise the case file's own, as given */
		struct pty_config cfg;
		const char *name = NULL;

		rc = pty_tool_policy_text(t->o->config != NULL ? NULL : path,
					  t->o->config, &cfg, &text, &len,
					  &name, err, sizeof err);
		if (rc == 0) {
			(void)snprintf(p->path, sizeof p->path, "%s", name);
			rc = pty_policy_open_for_tool(
			    name, text, len, flags, &p->session, &p->policy,
			    &p->reads, err, sizeof err);
		}
		free(text);
	}
	if (rc != 0) {
		char shown[sizeof err];

		pty_printable(shown, sizeof shown, err);
		fprintf(t->err, PTY_MSG_FAILED "\n", shown);
		p->failed = true;
		return NULL;
	}
	/* its warnings before its cases; with --werror they fail it */
	fflush(t->out);
	nwarnings = pty_policy_warnings(p->policy, test_warning, t);
	if (nwarnings > 0 && t->o->werror) {
		fprintf(t->err, PTY_MSG_TEST_WERROR_FAILED "\n", path,
			nwarnings, nwarnings == 1 ? "" : "s");
		p->failed = true;
		return NULL;
	}
	if (t->o->coverage) {
		p->nrules = maelys_datalog_policy_rule_count(p->policy);
		p->fired = calloc(p->nrules > 0 ? p->nrules : 1, 1);
		if (p->fired == NULL) {
			fprintf(t->err, PTY_MSG_FAILED "\n", strerror(ENOMEM));
			p->failed = true;
			return NULL;
		}
	}
	return p;
}

/* Notes the rules a decision's solve made true (the decider's `solved`,
 * with --coverage). */
static void
test_solved(void *ctx, const maelys_datalog_result_t *res)
{
	struct test_policy *p = ctx;
	size_t i;

	for (i = 0; i < p->nrules && p->coverage_st == MAELYS_DATALOG_STATUS_OK;
	     i++) {
		int fired = 0;

		if (p->fired[i])
			continue;
		p->coverage_st =
		    maelys_datalog_result_rule_fired(res, i, &fired);
		p->fired[i] = fired != 0;
	}
}

/* --coverage: every rule of a policy no case made true, with its place
 * and text, then how many were.  Returns -1 when coverage could not be
 * measured. */
static int
test_coverage(struct test_run *t, const struct test_policy *p)
{
	char shown_path[PATH_MAX];
	size_t i, covered = 0;

	pty_printable(shown_path, sizeof shown_path, p->path);
	if (p->coverage_st != MAELYS_DATALOG_STATUS_OK) {
		fprintf(t->err, PTY_MSG_TEST_NO_COVERAGE "\n", shown_path,
			maelys_datalog_status_name(p->coverage_st));
		return -1;
	}
	for (i = 0; i < p->nrules; i++) {
		maelys_datalog_rule_info_t info;
		char source[PATH_MAX], text[8192 + 1];

		if (p->fired[i]) {
			covered++;
			continue;
		}
		if (maelys_datalog_policy_get_rule(p->policy, i, &info) !=
		    MAELYS_DATALOG_STATUS_OK) {
			fprintf(t->err, PTY_MSG_TEST_NO_COVERAGE "\n",
				shown_path,
				maelys_datalog_status_name(
				    MAELYS_DATALOG_STATUS_INVALID_ARGUMENT));
			return -1;
		}
		pty_printable(source, sizeof source, info.source);
		pty_printable(text, sizeof text, info.text);
		fprintf(t->out, PTY_MSG_TEST_UNCOVERED "\n", source, info.line,
			text);
	}
	fprintf(t->out, PTY_MSG_TEST_COVERED "\n", shown_path, covered,
		p->nrules);
	return 0;
}

/* Counts the case that was pending, and prints it with -v when it held
 * (a failure was printed when it was found). */
static void
test_close(struct test_run *t, const char *file, struct test_pending *pc,
	   const struct pty_case *last)
{
	if (!pc->open)
		return;
	pc->open = false;
	if (pc->failed) {
		t->failed++;
		return;
	}
	t->passed++;
	if (t->o->verbose)
		test_report(t, file, pc->lineno, pc->text, true, last, t->res);
}

/* Pass 1: every malformed line of the file, each said on err.  Returns
 * the number of cases, or 0 when the file does not load. */
static size_t
test_check_file(struct test_run *t, const char *file, const char *text,
		size_t len)
{
	struct pty_case_reader *r = malloc(sizeof *r);
	struct pty_case c;
	char why[512], shown[PATH_MAX];
	size_t ncases = 0, nbad = 0;
	int rc;

	pty_printable(shown, sizeof shown, file);
	if (r == NULL) {
		fprintf(t->err, PTY_MSG_TEST_UNREADABLE "\n", shown,
			strerror(ENOMEM));
		return 0;
	}
	pty_cases_begin(r, text, len);
	while ((rc = pty_cases_next(r, &c, t->rq, why, sizeof why)) != 0) {
		if (rc > 0) {
			ncases += c.kind != PTY_CASE_BECAUSE;
			continue;
		}
		if (nbad++ < TEST_MALFORMED_SHOWN)
			fprintf(t->err, PTY_MSG_TEST_MALFORMED "\n", shown,
				r->lineno, why);
	}
	free(r);
	if (nbad > TEST_MALFORMED_SHOWN)
		fprintf(t->err, PTY_MSG_TEST_MORE_MALFORMED "\n", shown,
			nbad - TEST_MALFORMED_SHOWN);
	if (nbad == 0 && ncases == 0)
		fprintf(t->err, PTY_MSG_TEST_NO_CASES "\n", shown);
	return nbad == 0 ? ncases : 0;
}

/* Pass 2: every case of a file that loaded, decided with policy p. */
static void
test_decide_file(struct test_run *t, const char *file, const char *text,
		 size_t len, struct test_policy *p)
{
	struct pty_case_reader *r = malloc(sizeof *r);
	struct test_pending *pc = calloc(1, sizeof *pc);
	struct pty_case c, last;
	char why[512];
	int rc;

	if (r == NULL || pc == NULL ||
	    (pty_decider_init(t->d, p->session, &p->reads, TEST_PATH_ENV) !=
		 0 &&
	     t->d->edb == NULL)) {
		/* a uid without a name does not matter: every session fact
		 * comes from the file */
		char shown[PATH_MAX];

		pty_printable(shown, sizeof shown, file);
		fprintf(t->err, PTY_MSG_TEST_NO_DECIDER "\n", shown);
		t->unloaded = true;
		pty_decider_free(t->d);
		free(r);
		free(pc);
		return;
	}
	if (t->o->coverage) {
		t->d->solved = test_solved;
		t->d->solved_ctx = p;
	}
	p->used = true;
	memset(&last, 0, sizeof last);
	pty_cases_begin(r, text, len);
	while ((rc = pty_cases_next(r, &c, t->rq, why, sizeof why)) > 0) {
		if (c.kind == PTY_CASE_BECAUSE) {
			char btext[TEST_TEXT_MAX];

			/* a case that failed was said already */
			if (!pc->open || pc->failed ||
			    pty_case_because(last.kind, t->res, &c))
				continue;
			pc->failed = true;
			test_case_text(&c, &r->ctx, btext, sizeof btext);
			test_report(t, file, c.lineno, btext, false, &last,
				    t->res);
			continue;
		}
		test_close(t, file, pc, &last);
		last = c;
		pc->open = true;
		pc->lineno = c.lineno;
		test_case_text(&c, &r->ctx, pc->text, sizeof pc->text);
		pc->failed = !pty_case_decide(t->d, &r->ctx, &c, t->rq, t->res);
		if (pc->failed)
			test_report(t, file, c.lineno, pc->text, false, &c,
				    t->res);
	}
	test_close(t, file, pc, &last);
	pty_decider_free(t->d);
	free(r);
	free(pc);
}

/* One case file: read, checked whole, then decided. */
static void
test_file(struct test_run *t, const char *file)
{
	struct test_policy *p;
	char err[1024], beside[PATH_MAX], shown[PATH_MAX], *text = NULL;
	size_t len = 0;
	int fd;

	/* the name as given (a glob may give another user's file): shown,
	 * never obeyed by the terminal */
	pty_printable(shown, sizeof shown, file);
	if (t->o->policy == NULL && t->o->config == NULL &&
	    test_policy_beside(file, beside, sizeof beside) != 0) {
		fprintf(t->err, PTY_MSG_TEST_NOT_A_CASE "\n", shown);
		t->unloaded = true;
		return;
	}
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		fprintf(t->err, PTY_MSG_TEST_UNREADABLE "\n", shown,
			strerror(errno));
		t->unloaded = true;
		return;
	}
	if (pty_read_whole(fd, file, PTY_CASES_FILE_MAX, &text, &len, err,
			   sizeof err) != 0) {
		(void)close(fd);
		pty_printable(err, sizeof err, err);
		fprintf(t->err, PTY_MSG_FAILED "\n", err);
		t->unloaded = true;
		return;
	}
	(void)close(fd);
	if (test_check_file(t, file, text, len) == 0) {
		t->unloaded = true;
		free(text);
		return;
	}
	if (t->o->policy != NULL || t->o->config != NULL)
		p = test_policy_get(t, t->o->policy != NULL ? t->o->policy
							    : t->o->config);
	else
		p = test_policy_get(t, beside);
	if (p == NULL) {
		t->unloaded = true;
		free(text);
		return;
	}
	if (t->o->verbose) {
		char shown_policy[PATH_MAX];

		pty_printable(shown_policy, sizeof shown_policy, p->path);
		fprintf(t->out, PTY_MSG_TEST_POLICY "\n", shown, shown_policy);
	}
	test_decide_file(t, file, text, len, p);
	free(text);
}

int
pty_test_run(const struct pty_test_options *o, char *const *files,
	     size_t nfiles, FILE *out, FILE *err)
{
	struct test_run t;
	size_t i;

	memset(&t, 0, sizeof t);
	t.o = o;
	t.out = out;
	t.err = err;
	t.maxpolicies = nfiles;
	t.policies = calloc(nfiles > 0 ? nfiles : 1, sizeof *t.policies);
	t.rq = malloc(sizeof *t.rq); /* big: argv bytes of a whole exec */
	t.res = calloc(1, sizeof *t.res);
	t.d = calloc(1, sizeof *t.d);
	if (t.policies == NULL || t.rq == NULL || t.res == NULL ||
	    t.d == NULL) {
		fprintf(err, PTY_MSG_FAILED "\n", strerror(ENOMEM));
		t.unloaded = true;
		nfiles = 0;
	}
	for (i = 0; i < nfiles; i++)
		test_file(&t, files[i]);
	for (i = 0; o->coverage && i < t.npolicies; i++)
		if (t.policies[i].used && test_coverage(&t, &t.policies[i]) != 0)
			t.unloaded = true;
	fprintf(out, PTY_MSG_TEST_SUMMARY "\n", t.passed, t.failed);
	for (i = 0; i < t.npolicies; i++) {
		(void)maelys_datalog_session_free(t.policies[i].session);
		(void)maelys_datalog_policy_free(t.policies[i].policy);
		free(t.policies[i].fired);
	}
	free(t.policies);
	free(t.rq);
	free(t.res);
	free(t.d);
	if (t.unloaded)
		return 2;
	return t.failed > 0 ? 1 : 0;
}

int
pty_tool_test(int argc, char **argv)
{
	struct pty_test_options o;
	int i;

	memset(&o, 0, sizeof o);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0) {
			i++;
			break;
		} else if (strcmp(a, "-v") == 0) {
			o.verbose = true;
		} else if (strcmp(a, "--coverage") == 0) {
			o.coverage = true;
		} else if (strcmp(a, "--werror") == 0) {
			o.werror = true;
		} else if (strcmp(a, "--help") == 0) {
			fputs(PTY_MSG_TEST_USAGE, stdout);
			return 0;
		} else if (strcmp(a, "--policy") == 0 ||
			   strcmp(a, "--config") == 0) {
			if (i + 1 == argc) {
				fprintf(stderr, PTY_MSG_NEEDS_VALUE "\n", a);
				return 2;
			}
			if (a[2] == 'p')
				o.policy = argv[++i];
			else
				o.config = argv[++i];
		} else {
			fprintf(stderr, PTY_MSG_UNKNOWN_OPTION "\n", a);
			fputs(PTY_MSG_TEST_USAGE, stderr);
			return 2;
		}
	}
	if (o.policy != NULL && o.config != NULL) {
		fprintf(stderr, PTY_MSG_CONFIG_AND_POLICY "\n");
		return 2;
	}
	if (i == argc) {
		fprintf(stderr, PTY_MSG_TEST_NO_CASEFILE "\n");
		fputs(PTY_MSG_TEST_USAGE, stderr);
		return 2;
	}
	return pty_test_run(&o, argv + i, (size_t)(argc - i), stdout, stderr);
}
