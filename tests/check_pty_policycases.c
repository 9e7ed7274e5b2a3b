/* SPDX-License-Identifier: MIT */
/*
 * The golden cases of the shipped policies: every policies/cases/NAME.case
 * is decided against policies/NAME.dl by the guard's own decider (scanner,
 * host facts, solve), line by line, and each verdict is compared with the
 * one the file expects.  The format is policies/README.md's.  Every mismatch
 * is printed with its file:line, the case and the verdict got with its
 * reasons, and all of them are reported before the test fails; a malformed
 * line fails the same way, so that a typo never silently drops a case.
 *
 * The decider's session facts come from the case file's context lines, not
 * from the machine: user, groups, host, cwd, time and remote address are
 * overwritten after pty_decider_init.  PATH is an empty list, so a bare
 * command name never resolves to a command_path fact; a name with a slash
 * would still be looked up in the real file system, which is why the
 * shipped policies do not read command_path.
 *
 * Exec cases (exec-allow, exec-deny) decide one program the session
 * executes, through the supervisor's own pty_exec_decide: the runner fills
 * a struct pty_exec_request by hand from the case line (no process, and
 * exec_path is taken as written, never resolved), and the session shell,
 * the guard, the parent and how the program was reached (via) come from
 * context lines.
 */
#define _POSIX_C_SOURCE 200809L

#include "runner.h"

#include "pty_decide.h"
#include "pty_supervise.h"

#include <maelys/datalog_builders.h>

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* No directory: bare names never resolve (see above). */
#define CASES_PATH_ENV ""
/* A longer case line is malformed; it still holds a keyword and a command
 * line the scanner refuses as too long (SCAN_LINE_MAX bytes or more). */
#define CASES_LINE_MAX (SCAN_LINE_MAX + 64)

/* One expectation keyword: the verdict of pty_decide, and for confirm-yes
 * the verdict of pty_decide_confirmed after a CONFIRM. */
struct cases_expect {
	const char *word;
	enum pty_verdict verdict;
	bool confirmed;
};

static const struct cases_expect cases_expects[] = {
    {"allow", PTY_VERDICT_ALLOW, false},
    {"log", PTY_VERDICT_ALLOW_LOG, false},
    {"confirm", PTY_VERDICT_CONFIRM, false},
    {"confirm-yes", PTY_VERDICT_ALLOW, true},
    {"deny", PTY_VERDICT_POLICY, false},
    {"refuse", PTY_VERDICT_SYNTAX, false},
};

/* The exec cases: the verdict of pty_exec_decide. */
static const struct {
	const char *word;
	enum pty_exec_verdict verdict;
} cases_exec_expects[] = {
    {"exec-allow", PTY_EXEC_ALLOW},
    {"exec-deny", PTY_EXEC_POLICY},
};

/* The defaults of the exec context lines: nothing taken from the machine. */
#define CASES_SHELL  "/usr/bin/bash"
#define CASES_GUARD  "/usr/local/bin/maelys-pty"
#define CASES_PARENT CASES_SHELL
#define CASES_VIA    "execve"

static const char *
cases_verdict_name(enum pty_verdict v)
{
	switch (v) {
	case PTY_VERDICT_EMPTY:
		return "EMPTY";
	case PTY_VERDICT_ALLOW:
		return "ALLOW";
	case PTY_VERDICT_SYNTAX:
		return "SYNTAX";
	case PTY_VERDICT_POLICY:
		return "POLICY";
	case PTY_VERDICT_ERROR:
		return "ERROR";
	case PTY_VERDICT_ALLOW_LOG:
		return "ALLOW_LOG";
	case PTY_VERDICT_CONFIRM:
		return "CONFIRM";
	}
	return "?";
}

static const char *
cases_exec_verdict_name(enum pty_exec_verdict v)
{
	switch (v) {
	case PTY_EXEC_ALLOW:
		return "ALLOW";
	case PTY_EXEC_POLICY:
		return "POLICY";
	case PTY_EXEC_ERROR:
		return "ERROR";
	case PTY_EXEC_UNSAFE:
		return "UNSAFE";
	case PTY_EXEC_UNREADABLE:
		return "UNREADABLE";
	case PTY_EXEC_RECORDED:
		return "RECORDED";
	}
	return "?";
}

/* What a "because" line checks: the reasons of the case right above it. */
enum cases_last {
	CASES_LAST_NONE,   /* no deny or exec-deny case right above */
	CASES_LAST_LINE,   /* a deny case that held: r->dec */
	CASES_LAST_EXEC,   /* an exec-deny case that held: r->xdec */
	CASES_LAST_FAILED, /* one that failed (already reported) */
};

/* The state of one case file being run. */
struct cases_run {
	const char *file; /* as printed in reports */
	size_t lineno;
	FILE *report;
	struct pty_decider *d;
	struct pty_decision *dec;
	enum pty_mode mode;
	/* exec cases: the request being decided and its decision */
	struct pty_exec_request *rq;
	struct pty_exec_decision *xdec;
	char shell[PATH_MAX];  /* session_shell, "" = none */
	char guard[PATH_MAX];  /* guard_program, "" = none */
	char parent[PATH_MAX]; /* exec_parent, "" = none */
	/* exec_via: "execve", "shebang" or "loader"; exec_through, "" for
	 * execve and set for the two others */
	char via[16];
	char through[PATH_MAX];
	enum cases_last last; /* what a "because" line refers to */
	size_t last_lineno;   /* ... and the line of that case */
	size_t ncases;        /* every case, exec cases included */
	size_t nexec;         /* the exec cases among them */
	size_t failures;
	/* MAELYS_POLICYCASES_VERBOSE set: every decision is printed, to
	 * read the reasons a policy gives (a verdict alone can be right for
	 * the wrong reason) */
	bool verbose;
};

static void
cases_fail(struct cases_run *r, const char *why)
{
	fprintf(r->report, "%s:%zu: %s\n", r->file, r->lineno, why);
	r->failures++;
}

/* Splits the next blank-separated word off *p; returns its length (0 at
 * the end of the line). */
static size_t
cases_word(const char **p, const char **word)
{
	const char *s = *p;
	size_t n;

	s += strspn(s, " \t");
	n = strcspn(s, " \t");
	*word = s;
	*p = s + n;
	return n;
}

/* Copies a context value of one word ("-" = none when none_ok) into dst;
 * NULL, or what is wrong with it. */
static const char *
cases_one_word(const char *rest, char *dst, size_t cap, bool none_ok)
{
	const char *w, *extra;
	size_t n = cases_word(&rest, &w);

	if (n == 0)
		return "a value is missing";
	if (cases_word(&rest, &extra) != 0)
		return "one value expected";
	if (n >= cap)
		return "value too long";
	if (none_ok && n == 1 && w[0] == '-')
		n = 0;
	memcpy(dst, w, n);
	dst[n] = '\0';
	return NULL;
}

static const char *
cases_set_user(struct cases_run *r, const char *rest)
{
	return cases_one_word(rest, r->d->who.user, sizeof r->d->who.user,
			      false);
}

static const char *
cases_set_groups(struct cases_run *r, const char *rest)
{
	const char *w;
	size_t n;

	r->d->who.ngroups = 0;
	while ((n = cases_word(&rest, &w)) != 0) {
		if (r->d->who.ngroups ==
		    sizeof r->d->who.groups / sizeof r->d->who.groups[0])
			return "too many groups";
		if (n >= sizeof r->d->who.groups[0])
			return "group name too long";
		memcpy(r->d->who.groups[r->d->who.ngroups], w, n);
		r->d->who.groups[r->d->who.ngroups++][n] = '\0';
	}
	return NULL;
}

static const char *
cases_set_host(struct cases_run *r, const char *rest)
{
	return cases_one_word(rest, r->d->who.host, sizeof r->d->who.host,
			      true);
}

static const char *
cases_set_remote(struct cases_run *r, const char *rest)
{
	return cases_one_word(rest, r->d->who.remote_addr,
			      sizeof r->d->who.remote_addr, true);
}

static const char *
cases_set_cwd(struct cases_run *r, const char *rest)
{
	const char *why =
	    cases_one_word(rest, r->d->cwd, sizeof r->d->cwd, false);

	if (why == NULL && r->d->cwd[0] != '/')
		return "cwd is an absolute path";
	return why;
}

static const char *
cases_set_time(struct cases_run *r, const char *rest)
{
	char t[8];
	const char *why = cases_one_word(rest, t, sizeof t, false);

	if (why != NULL)
		return why;
	/* exactly what the host supplies: "HH:MM", 00:00 to 23:59 */
	if (strlen(t) != 5 || t[2] != ':' || t[0] < '0' || t[0] > '2' ||
	    t[1] < '0' || t[1] > '9' || (t[0] == '2' && t[1] > '3') ||
	    t[3] < '0' || t[3] > '5' || t[4] < '0' || t[4] > '9')
		return "time is HH:MM, 00:00 to 23:59";
	memcpy(r->d->time_of_day, t, sizeof t);
	return NULL;
}

static const char *
cases_set_mode(struct cases_run *r, const char *rest)
{
	char m[16];
	const char *why = cases_one_word(rest, m, sizeof m, false);

	if (why != NULL)
		return why;
	if (strcmp(m, "interactive") == 0)
		r->mode = PTY_MODE_INTERACTIVE;
	else if (strcmp(m, "command") == 0)
		r->mode = PTY_MODE_COMMAND;
	else
		return "mode is interactive or command";
	return NULL;
}

/* An absolute path, or "-" for none. */
static const char *
cases_set_program(const char *rest, char *dst, size_t cap)
{
	const char *why = cases_one_word(rest, dst, cap, true);

	if (why == NULL && dst[0] != '\0' && dst[0] != '/')
		return "a program is an absolute path, or - for none";
	return why;
}

static const char *
cases_set_shell(struct cases_run *r, const char *rest)
{
	return cases_set_program(rest, r->shell, sizeof r->shell);
}

static const char *
cases_set_guard(struct cases_run *r, const char *rest)
{
	return cases_set_program(rest, r->guard, sizeof r->guard);
}

static const char *
cases_set_parent(struct cases_run *r, const char *rest)
{
	return cases_set_program(rest, r->parent, sizeof r->parent);
}

/* "via execve", "via shebang /SCRIPT" or "via loader /LOADER": how the
 * program of the exec cases below is reached (exec_via), and the script or
 * loader it is reached through (exec_through).  The host always says how,
 * so there is no "-". */
static const char *
cases_set_via(struct cases_run *r, const char *rest)
{
	const char *how, *through, *extra;
	size_t n = cases_word(&rest, &how), m = cases_word(&rest, &through);

	if (cases_word(&rest, &extra) != 0)
		return "via takes a way and at most one path";
	if (n == 6 && strncmp(how, "execve", 6) == 0) {
		if (m != 0)
			return "via execve goes through nothing";
	} else if ((n == 7 && strncmp(how, "shebang", 7) == 0) ||
		   (n == 6 && strncmp(how, "loader", 6) == 0)) {
		if (m == 0 || through[0] != '/')
			return "via shebang and via loader name an absolute "
			       "path (the script, the loader)";
		if (m >= sizeof r->through)
			return "value too long";
	} else {
		return "via is execve, shebang PATH or loader PATH";
	}
	memcpy(r->via, how, n);
	r->via[n] = '\0';
	memcpy(r->through, through, m);
	r->through[m] = '\0';
	return NULL;
}

static const struct {
	const char *word;
	const char *(*set)(struct cases_run *r, const char *rest);
} cases_contexts[] = {
    {"user", cases_set_user},     {"groups", cases_set_groups},
    {"host", cases_set_host},     {"cwd", cases_set_cwd},
    {"time", cases_set_time},     {"mode", cases_set_mode},
    {"remote", cases_set_remote}, {"shell", cases_set_shell},
    {"guard", cases_set_guard},   {"parent", cases_set_parent},
    {"via", cases_set_via},
};

/* The context before the first context line of a file: nothing taken from
 * the machine running the test. */
static void
cases_defaults(struct cases_run *r)
{
	struct pty_decider *d = r->d;

	(void)snprintf(d->who.user, sizeof d->who.user, "%s", "nobody");
	d->who.ngroups = 0;
	d->who.host[0] = '\0';
	d->who.remote_addr[0] = '\0';
	(void)snprintf(d->cwd, sizeof d->cwd, "%s", "/");
	(void)snprintf(d->time_of_day, sizeof d->time_of_day, "%s", "12:00");
	r->mode = PTY_MODE_INTERACTIVE;
	(void)snprintf(r->shell, sizeof r->shell, "%s", CASES_SHELL);
	(void)snprintf(r->guard, sizeof r->guard, "%s", CASES_GUARD);
	(void)snprintf(r->parent, sizeof r->parent, "%s", CASES_PARENT);
	(void)snprintf(r->via, sizeof r->via, "%s", CASES_VIA);
	r->through[0] = '\0';
}

/* Prints what was decided, with the reasons a user would see. */
static void
cases_print(struct cases_run *r, const char *line,
	    const struct pty_decision *dec, const char *keyword)
{
	size_t i;

	fprintf(r->report, "%s:%zu: %s %s\n", r->file, r->lineno, keyword,
		line);
	fprintf(r->report, "    got %s%s", cases_verdict_name(dec->verdict),
		dec->confirmed ? " (decided with confirmed)" : "");
	switch (dec->verdict) {
	case PTY_VERDICT_SYNTAX:
		fprintf(r->report, ": %s\n",
			scan_refusal_reason(dec->scan.refusal));
		break;
	case PTY_VERDICT_ERROR:
		fprintf(r->report, ": %s\n", dec->error);
		break;
	case PTY_VERDICT_ALLOW_LOG:
		fprintf(r->report, ": %s\n", dec->log_reason);
		break;
	case PTY_VERDICT_CONFIRM:
		fprintf(r->report, ": %s\n", dec->confirm_prompt);
		break;
	case PTY_VERDICT_POLICY:
		fputc('\n', r->report);
		if (dec->nreasons == 0)
			fprintf(r->report, "      no rule allows '%s'\n",
				dec->command);
		for (i = 0; i < dec->nreasons; i++)
			fprintf(r->report, "      deny(%s): %s\n",
				dec->reasons[i].op, dec->reasons[i].reason);
		break;
	case PTY_VERDICT_EMPTY:
	case PTY_VERDICT_ALLOW:
		fputc('\n', r->report);
		break;
	}
}

static void
cases_print_got(struct cases_run *r, const char *line,
		const struct pty_decision *dec, const char *keyword)
{
	cases_print(r, line, dec, keyword);
	r->failures++;
}

static void
cases_check(struct cases_run *r, const struct cases_expect *e, const char *line)
{
	size_t len = strlen(line);

	r->ncases++;
	pty_decide(r->d, line, len, r->mode, r->dec);
	if (r->verbose)
		cases_print(r, line, r->dec, e->word);
	if (!e->confirmed) {
		if (r->dec->verdict != e->verdict)
			cases_print_got(r, line, r->dec, e->word);
		/* a "because" below checks the reasons of a deny that held */
		if (e->verdict == PTY_VERDICT_POLICY)
			r->last = r->dec->verdict == e->verdict
				      ? CASES_LAST_LINE
				      : CASES_LAST_FAILED;
		return;
	}
	/* confirm-yes: asked first, then allowed once confirmed */
	if (r->dec->verdict != PTY_VERDICT_CONFIRM) {
		cases_print_got(r, line, r->dec, e->word);
		return;
	}
	pty_decide_confirmed(r->d, line, len, r->mode, r->dec);
	if (r->verbose)
		cases_print(r, line, r->dec, e->word);
	if (r->dec->verdict != e->verdict)
		cases_print_got(r, line, r->dec, e->word);
}

/* Copies the word w[0..n) of an exec case into dst: "%20" is a space,
 * "%22" a '"' and "%25" a '%' (an argv word may hold blanks), and the word
 * "" alone is an empty argument; any other '%' is malformed, so that a
 * typo never silently means something else.  Returns NULL, or what is
 * wrong; *len is the decoded length (dst is NUL-ended). */
static const char *
cases_unescape(const char *w, size_t n, char *dst, size_t cap, size_t *len)
{
	size_t i, k = 0;

	if (n == 2 && w[0] == '"' && w[1] == '"')
		n = 0;
	for (i = 0; i < n; i++) {
		char c = w[i];

		if (c == '%') {
			if (n - i < 3 || w[i + 1] != '2' ||
			    (w[i + 2] != '0' && w[i + 2] != '2' &&
			     w[i + 2] != '5'))
				return "'%' is written %25 (a space %20, '\"' "
				       "%22)";
			c = w[i + 2] == '0' ? ' ' : w[i + 2] == '2' ? '"' : '%';
			i += 2;
		}
		if (k + 1 >= cap)
			return "exec case too long";
		dst[k++] = c;
	}
	dst[k] = '\0';
	*len = k;
	return NULL;
}

/* Fills r->rq from an exec case's value, "[REQUEST->]PATH [ARGV...]".
 * Returns NULL, or what is wrong with it. */
static const char *
cases_exec_request(struct cases_run *r, const char *value)
{
	struct pty_exec_request *rq = r->rq;
	const char *w, *arrow, *why;
	size_t n, len, used = 0;

	memset(rq, 0, offsetof(struct pty_exec_request, bytes));
	n = cases_word(&value, &w);
	if (n == 0)
		return "an exec case needs a program";
	arrow = NULL;
	for (len = 0; len + 1 < n; len++)
		if (w[len] == '-' && w[len + 1] == '>') {
			arrow = w + len;
			break;
		}
	if (arrow != NULL) {
		why = cases_unescape(w, (size_t)(arrow - w), rq->request,
				     sizeof rq->request, &len);
		if (why == NULL)
			why = cases_unescape(arrow + 2,
					     n - (size_t)(arrow - w) - 2,
					     rq->path, sizeof rq->path, &len);
	} else {
		why = cases_unescape(w, n, rq->path, sizeof rq->path, &len);
		if (why == NULL)
			memcpy(rq->request, rq->path, len + 1);
	}
	if (why != NULL)
		return why;
	if (rq->path[0] != '/' || rq->request[0] != '/')
		return "the program (and its request) is an absolute path";
	while ((n = cases_word(&value, &w)) != 0) {
		if (rq->argc == PTY_EXEC_ARGS_MAX)
			return "too many arguments";
		why = cases_unescape(w, n, rq->bytes + used,
				     sizeof rq->bytes - used, &len);
		if (why != NULL)
			return why;
		rq->argv[rq->argc] = rq->bytes + used;
		rq->argv_len[rq->argc++] = len;
		used += len + 1;
	}
	(void)snprintf(rq->cwd, sizeof rq->cwd, "%s", r->d->cwd);
	(void)snprintf(rq->parent, sizeof rq->parent, "%s", r->parent);
	/* how it is reached: the facts exec_via and exec_through */
	rq->via = strcmp(r->via, "shebang") == 0  ? PTY_EXEC_VIA_SHEBANG
		  : strcmp(r->via, "loader") == 0 ? PTY_EXEC_VIA_LOADER
						  : PTY_EXEC_VIA_EXECVE;
	(void)snprintf(rq->through, sizeof rq->through, "%s", r->through);
	return NULL;
}

/* Prints what was decided for an exec, with its deny_exec reasons. */
static void
cases_exec_print(struct cases_run *r, const char *keyword, const char *value)
{
	const struct pty_exec_decision *x = r->xdec;
	size_t i;

	fprintf(r->report, "%s:%zu: %s %s\n", r->file, r->lineno, keyword,
		value);
	if (strcmp(r->via, CASES_VIA) != 0)
		fprintf(r->report, "    (via %s %s)\n", r->via, r->through);
	fprintf(r->report, "    got %s", cases_exec_verdict_name(x->verdict));
	if (x->verdict == PTY_EXEC_ERROR || x->verdict == PTY_EXEC_UNREADABLE ||
	    x->verdict == PTY_EXEC_UNSAFE) {
		fprintf(r->report, ": %s\n", x->error);
		return;
	}
	fputc('\n', r->report);
	if (x->verdict == PTY_EXEC_POLICY && x->nreasons == 0)
		fprintf(r->report, "      no deny_exec reason\n");
	for (i = 0; i < x->nreasons; i++)
		fprintf(r->report, "      deny_exec: %s\n", x->reasons[i]);
}

/* One exec case: the request built by hand, decided as the supervisor
 * decides it, the verdict compared. */
static void
cases_exec_check(struct cases_run *r, enum pty_exec_verdict want,
		 const char *keyword, const char *value)
{
	const char *why = cases_exec_request(r, value);

	if (why != NULL) {
		cases_fail(r, why);
		return;
	}
	r->ncases++;
	r->nexec++;
	if (pty_exec_set_programs(r->d, r->shell, r->guard) != 0) {
		cases_fail(r, "shell or guard path too long");
		return;
	}
	pty_exec_decide(r->d, r->rq, r->mode, r->xdec);
	if (r->verbose)
		cases_exec_print(r, keyword, value);
	if (r->xdec->verdict != want) {
		cases_exec_print(r, keyword, value);
		r->failures++;
	}
	if (want == PTY_EXEC_POLICY)
		r->last = r->xdec->verdict == want ? CASES_LAST_EXEC
						   : CASES_LAST_FAILED;
}

/* "because TEXT": one of the reasons of the deny or exec-deny case above
 * contains TEXT. */
static void
cases_because(struct cases_run *r, const char *text)
{
	size_t i;

	switch (r->last) {
	case CASES_LAST_NONE:
		cases_fail(r, "'because' follows a deny or exec-deny case");
		return;
	case CASES_LAST_FAILED:
		return; /* the case itself was reported */
	case CASES_LAST_LINE:
		for (i = 0; i < r->dec->nreasons; i++)
			if (strstr(r->dec->reasons[i].reason, text) != NULL)
				return;
		fprintf(r->report,
			"%s:%zu: because %s\n    no reason of line %zu "
			"says so:\n",
			r->file, r->lineno, text, r->last_lineno);
		for (i = 0; i < r->dec->nreasons; i++)
			fprintf(r->report, "      deny(%s): %s\n",
				r->dec->reasons[i].op,
				r->dec->reasons[i].reason);
		break;
	case CASES_LAST_EXEC:
		for (i = 0; i < r->xdec->nreasons; i++)
			if (strstr(r->xdec->reasons[i], text) != NULL)
				return;
		fprintf(r->report,
			"%s:%zu: because %s\n    no reason of line %zu "
			"says so:\n",
			r->file, r->lineno, text, r->last_lineno);
		for (i = 0; i < r->xdec->nreasons; i++)
			fprintf(r->report, "      deny_exec: %s\n",
				r->xdec->reasons[i]);
		break;
	}
	r->failures++;
}

/* One line of a case file (without its newline). */
static void
cases_line(struct cases_run *r, const char *text)
{
	const char *rest = text, *kw;
	size_t n, i;

	if (text[strspn(text, " \t")] == '\0' ||
	    text[strspn(text, " \t")] == '#')
		return;
	if (strchr(text, '\r') != NULL) {
		cases_fail(r, "carriage return in line (CRLF file?)");
		return;
	}
	if (text[0] == ' ' || text[0] == '\t') {
		cases_fail(r, "a keyword must start in column 1");
		return;
	}
	n = cases_word(&rest, &kw);
	if (n == 7 && strncmp(kw, "because", 7) == 0) {
		/* the reason: everything after the blanks, verbatim */
		rest += strspn(rest, " \t");
		if (*rest == '\0')
			cases_fail(r, "'because' needs a reason");
		else
			cases_because(r, rest);
		return;
	}
	/* any other line ends what a "because" may refer to */
	r->last = CASES_LAST_NONE;
	r->last_lineno = r->lineno;
	for (i = 0;
	     i < sizeof cases_exec_expects / sizeof cases_exec_expects[0];
	     i++) {
		if (strlen(cases_exec_expects[i].word) != n ||
		    strncmp(kw, cases_exec_expects[i].word, n) != 0)
			continue;
		rest += strspn(rest, " \t");
		cases_exec_check(r, cases_exec_expects[i].verdict,
				 cases_exec_expects[i].word, rest);
		return;
	}
	for (i = 0; i < sizeof cases_expects / sizeof cases_expects[0]; i++) {
		const struct cases_expect *e = &cases_expects[i];

		if (strlen(e->word) != n || strncmp(kw, e->word, n) != 0)
			continue;
		/* the command line: everything after the blanks that follow
		 * the keyword, verbatim */
		rest += strspn(rest, " \t");
		if (*rest == '\0') {
			fprintf(r->report,
				"%s:%zu: '%s' needs a command line\n", r->file,
				r->lineno, e->word);
			r->failures++;
			return;
		}
		cases_check(r, e, rest);
		return;
	}
	for (i = 0; i < sizeof cases_contexts / sizeof cases_contexts[0]; i++) {
		const char *why;

		if (strlen(cases_contexts[i].word) != n ||
		    strncmp(kw, cases_contexts[i].word, n) != 0)
			continue;
		why = cases_contexts[i].set(r, rest);
		if (why != NULL)
			cases_fail(r, why);
		return;
	}
	fprintf(r->report, "%s:%zu: unknown keyword '%.*s'\n", r->file,
		r->lineno, (int)n, kw);
	r->failures++;
}

/* Runs one case file against one policy, reporting to `report`.  Returns
 * the number of failures (mismatches and malformed lines); *ncases counts
 * the cases decided, and *nexec (when not NULL) the exec cases among them. */
static size_t
cases_run_file(const char *policy, const char *file, FILE *report,
	       size_t *ncases, size_t *nexec)
{
	maelys_datalog_session_t *session = NULL;
	struct cases_run r;
	char err[1024], *line = NULL;
	size_t cap = 0;
	ssize_t got;
	FILE *f;

	memset(&r, 0, sizeof r);
	r.file = file;
	r.report = report;
	r.verbose = getenv("MAELYS_POLICYCASES_VERBOSE") != NULL;
	*ncases = 0;
	if (nexec != NULL)
		*nexec = 0;
	if (pty_policy_open(policy, &session, NULL, err, sizeof err) != 0) {
		fprintf(report, "%s: %s\n", file, err);
		return 1;
	}
	f = fopen(file, "r");
	r.d = calloc(1, sizeof *r.d);
	r.dec = calloc(1, sizeof *r.dec);
	r.rq = malloc(sizeof *r.rq); /* big: argv bytes of a whole exec */
	r.xdec = calloc(1, sizeof *r.xdec);
	ck_assert_ptr_nonnull(r.d);
	ck_assert_ptr_nonnull(r.dec);
	ck_assert_ptr_nonnull(r.rq);
	ck_assert_ptr_nonnull(r.xdec);
	if (f == NULL) {
		fprintf(report, "%s: cannot open\n", file);
		r.failures++;
		goto out;
	}
	/* The decider takes the test process's own user, groups and host; a
	 * uid without a name fails, which does not matter here as long as
	 * the input EDB was made: every session fact is set below. */
	if (pty_decider_init(r.d, session, NULL, CASES_PATH_ENV) != 0 &&
	    r.d->edb == NULL) {
		fprintf(report, "%s: cannot make a decider\n", file);
		r.failures++;
		goto out;
	}
	cases_defaults(&r);
	while ((got = getline(&line, &cap, f)) >= 0) {
		size_t len = (size_t)got;

		r.lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len > CASES_LINE_MAX)
			cases_fail(&r, "line too long");
		else if (memchr(line, '\0', len) != NULL)
			cases_fail(&r, "NUL byte in line");
		else
			cases_line(&r, line);
	}
	free(line);
	if (ferror(f)) {
		fprintf(report, "%s: read error\n", file);
		r.failures++;
	}
	if (r.ncases == 0) {
		fprintf(report, "%s: no cases\n", file);
		r.failures++;
	}
out:
	if (f != NULL)
		fclose(f);
	pty_decider_free(r.d);
	free(r.d);
	free(r.dec);
	free(r.rq);
	free(r.xdec);
	(void)maelys_datalog_session_free(session);
	*ncases = r.ncases;
	if (nexec != NULL)
		*nexec = r.nexec;
	return r.failures;
}

static int
cases_select(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return e->d_name[0] != '.' && n > 5 &&
	       strcmp(e->d_name + n - 5, ".case") == 0;
}

START_TEST(test_policycases_shipped_cases_all_hold)
{
	char dir[4096], policy[4096], file[4096];
	struct dirent **names = NULL;
	size_t failures = 0, total = 0;
	int n, i;

	(void)snprintf(dir, sizeof dir, "%s/policies/cases",
		       maelys_test_source_root());
	n = scandir(dir, &names, cases_select, alphasort);
	ck_assert_msg(n > 0, "no *.case files in %s", dir);
	for (i = 0; i < n; i++) {
		size_t base = strlen(names[i]->d_name) - 5, ncases = 0;
		size_t nexec = 0, f;

		ck_assert_int_lt(snprintf(policy, sizeof policy,
					  "%s/policies/%.*s.dl",
					  maelys_test_source_root(), (int)base,
					  names[i]->d_name),
				 (int)sizeof policy);
		ck_assert_int_lt(
		    snprintf(file, sizeof file, "%s/%s", dir, names[i]->d_name),
		    (int)sizeof file);
		f = cases_run_file(policy, file, stderr, &ncases, &nexec);
		fprintf(stderr,
			"%s: %zu cases (%zu lines, %zu execs), %zu failed\n",
			file, ncases, ncases - nexec, nexec, f);
		failures += f;
		total += ncases;
		free(names[i]);
	}
	free(names);
	ck_assert_msg(failures == 0, "%zu failures in %zu cases (see above)",
		      failures, total);
}
END_TEST

/* The runner itself: a wrong expectation and every kind of malformed line
 * are each reported at their file:line, and the good cases still run. */
START_TEST(test_policycases_runner_reports_every_failure_with_its_line)
{
	static const char text[] =
	    "# a comment, then a blank line\n"
	    "\n"
	    "user alice\n"
	    "allow    curl example.com\n" /* 4: holds */
	    "allow shutdown now\n"        /* 5: POLICY, not ALLOW */
	    "deny\n"                      /* 6: no command line */
	    "time 25:00\n"                /* 7: not a time */
	    "mode batch\n"                /* 8: not a mode */
	    "permit ls\n"                 /* 9: unknown keyword */
	    "  deny ls\n"                 /* 10: not in column 1 */
	    "user bob\n"
	    "deny curl example.com\n"      /* 12: holds */
	    "refuse git commit -m \"x\"\n" /* 13: holds */
	    "confirm-yes ls\n"             /* 14: ALLOW, not CONFIRM */
	    "user alice bob\n";            /* 15: one value */
	static const char *const expect[] = {":5: allow shutdown now",
					     ":6: 'deny' needs",
					     ":7: time is HH:MM",
					     ":8: mode is",
					     ":9: unknown keyword 'permit'",
					     ":10: a keyword must start",
					     ":14: confirm-yes ls",
					     ":15: one value expected"};
	char dir[] = "/tmp/maelys-policycases-XXXXXX", file[128];
	char policy[4096], out[8192];
	size_t failures, ncases, i, got;
	FILE *f, *report;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	(void)snprintf(file, sizeof file, "%s/t.case", dir);
	(void)snprintf(policy, sizeof policy, "%s/policies/level1.dl",
		       maelys_test_source_root());
	f = fopen(file, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fputs(text, f) >= 0, 1);
	ck_assert_int_eq(fclose(f), 0);
	report = tmpfile();
	ck_assert_ptr_nonnull(report);

	failures = cases_run_file(policy, file, report, &ncases, NULL);

	rewind(report);
	got = fread(out, 1, sizeof out - 1, report);
	out[got] = '\0';
	fclose(report);
	unlink(file);
	rmdir(dir);
	ck_assert_msg(failures == sizeof expect / sizeof expect[0],
		      "%zu failures:\n%s", failures, out);
	ck_assert_uint_eq(ncases, 5);
	for (i = 0; i < sizeof expect / sizeof expect[0]; i++)
		ck_assert_msg(strstr(out, expect[i]) != NULL,
			      "'%s' not reported:\n%s", expect[i], out);
	ck_assert_msg(strstr(out, "got POLICY") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "deny(shutdown): command is forbidden") !=
			  NULL,
		      "%s", out);
}
END_TEST

/* Writes `len` bytes into dir/name; returns the path in `path`. */
static void
cases_write(const char *dir, const char *name, const char *text, size_t len,
	    char *path, size_t cap)
{
	FILE *f;

	ck_assert_int_lt(snprintf(path, cap, "%s/%s", dir, name), (int)cap);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/* No policy, no case, a CRLF line, a NUL byte: each a failure, never a
 * file that passes by checking nothing. */
START_TEST(test_policycases_runner_empty_or_broken_files_fail)
{
	static const char context_only[] = "user alice\n# nothing decided\n";
	static const char broken[] = "allow ls\r\nallow l\0s\n";
	char dir[] = "/tmp/maelys-policycases-XXXXXX", a[128], b[128];
	char policy[4096];
	size_t ncases;
	FILE *report = tmpfile();

	ck_assert_ptr_nonnull(report);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	(void)snprintf(policy, sizeof policy, "%s/policies/level1.dl",
		       maelys_test_source_root());
	cases_write(dir, "a.case", context_only, sizeof context_only - 1, a,
		    sizeof a);
	cases_write(dir, "b.case", broken, sizeof broken - 1, b, sizeof b);

	ck_assert_uint_eq(
	    cases_run_file("/nonexistent/x.dl", a, report, &ncases, NULL), 1);
	ck_assert_uint_eq(cases_run_file(policy, a, report, &ncases, NULL), 1);
	ck_assert_uint_eq(ncases, 0);
	/* the CR line, the NUL line, and then no case at all */
	ck_assert_uint_eq(cases_run_file(policy, b, report, &ncases, NULL), 3);
	fclose(report);
	unlink(a);
	unlink(b);
	rmdir(dir);
}
END_TEST

/* Exec cases: every fact of pty_exec.h reaches the policy as the case
 * line and the context say (a policy that allows only that exact request
 * proves it), "%20" and "%25" are decoded, and "-" leaves a fact out. */
START_TEST(test_policycases_runner_exec_cases_supply_every_fact)
{
	static const char policy_text[] =
	    "allow_exec(P) :- exec_path(P), exec_request(\"/x/req\"),\n"
	    "    exec_argc(4), exec_arg(0, \"prog\"), exec_arg(1, \"a b\"),\n"
	    "    exec_arg(2, \"50%\"), exec_arg(3, \"\"), exec_cwd(\"/w\"),\n"
	    "    exec_parent(\"/p/parent\"), session_shell(\"/s/sh\"),\n"
	    "    guard_program(\"/g/guard\"), user(\"u\"), group(\"g1\"),\n"
	    "    session_mode(\"command\"), time_of_day(\"03:04\"),\n"
	    "    exec_via(\"execve\"), not(through_any).\n"
	    "deny_exec(P, \"not the request\") :- exec_path(P),\n"
	    "    not(allow_exec(P)).\n"
	    ".decl through_any()\n"
	    "through_any :- exec_through(_).\n";
	static const char text[] =
	    "user u\n"
	    "groups g1\n"
	    "cwd /w\n"
	    "time 03:04\n"
	    "mode command\n"
	    "shell /s/sh\n"
	    "guard /g/guard\n"
	    "parent /p/parent\n"
	    "exec-allow /x/req->/x/path prog a%20b 50%25 \"\"\n"
	    "exec-deny  /x/path prog a%20b 50%25 \"\"\n" /* request = path */
	    "because not the request\n"
	    "exec-deny  /x/req->/x/path prog a%20b 50%25\n"
	    "exec-deny  /x/req->/x/path prog a%20b 50%25 \"\" more\n"
	    "parent -\n"
	    "exec-deny  /x/req->/x/path prog a%20b 50%25 \"\"\n"
	    "parent /p/parent\n"
	    "shell -\n"
	    "exec-deny  /x/req->/x/path prog a%20b 50%25 \"\"\n"
	    "shell /s/sh\n"
	    "guard -\n"
	    "exec-deny  /x/req->/x/path prog a%20b 50%25 \"\"\n"
	    "guard /g/guard\n"
	    "cwd /v\n"
	    "exec-deny  /x/req->/x/path prog a%20b 50%25 \"\"\n"
	    "cwd /w\n"
	    "mode interactive\n"
	    "exec-deny  /x/req->/x/path prog a%20b 50%25 \"\"\n";
	char dir[] = "/tmp/maelys-policycases-XXXXXX", file[128], pol[128];
	char out[8192];
	size_t failures, ncases, nexec, got;
	FILE *report = tmpfile();

	ck_assert_ptr_nonnull(report);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	cases_write(dir, "p.dl", policy_text, sizeof policy_text - 1, pol,
		    sizeof pol);
	cases_write(dir, "p.case", text, sizeof text - 1, file, sizeof file);

	failures = cases_run_file(pol, file, report, &ncases, &nexec);

	rewind(report);
	got = fread(out, 1, sizeof out - 1, report);
	out[got] = '\0';
	fclose(report);
	unlink(file);
	unlink(pol);
	rmdir(dir);
	ck_assert_msg(failures == 0, "%zu failures:\n%s", failures, out);
	ck_assert_uint_eq(ncases, 9);
	ck_assert_uint_eq(nexec, 9);
}
END_TEST

/* Runs `text` as a case file against `policy_text`, both written to a
 * temporary directory; returns the failures, with the report in `out`. */
static size_t
cases_run_text(const char *policy_text, const char *text, char *out, size_t cap,
	       size_t *ncases, size_t *nexec)
{
	char dir[] = "/tmp/maelys-policycases-XXXXXX", file[128], pol[128];
	size_t failures, got;
	FILE *report = tmpfile();

	ck_assert_ptr_nonnull(report);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	cases_write(dir, "p.dl", policy_text, strlen(policy_text), pol,
		    sizeof pol);
	cases_write(dir, "p.case", text, strlen(text), file, sizeof file);
	failures = cases_run_file(pol, file, report, ncases, nexec);
	rewind(report);
	got = fread(out, 1, cap - 1, report);
	out[got] = '\0';
	fclose(report);
	unlink(file);
	unlink(pol);
	rmdir(dir);
	return failures;
}

/* How the program was reached: exactly one exec_via per exec case,
 * "execve" by default and with no exec_through, or what a "via" line says
 * with its path as the one exec_through; and none of it in a line's
 * decision, even right after an exec case. */
START_TEST(test_policycases_runner_exec_via_and_through_reach_the_policy)
{
	static const char policy_text[] =
	    ".decl two_vias()\n"
	    "two_vias :- exec_via(V), exec_via(W), V != W.\n"
	    ".decl two_throughs()\n"
	    "two_throughs :- exec_through(T), exec_through(U), T != U.\n"
	    ".decl through_any()\n"
	    "through_any :- exec_through(_).\n"
	    ".decl via_any()\n"
	    "via_any :- exec_via(_).\n"
	    ".decl reached(path)\n"
	    "reached(P) :- exec_path(P), exec_via(\"execve\"),\n"
	    "    not(through_any).\n"
	    "reached(P) :- exec_path(P), exec_via(\"shebang\"),\n"
	    "    exec_through(\"/s/script\").\n"
	    "reached(P) :- exec_path(P), exec_via(\"loader\"),\n"
	    "    exec_through(\"/l/ld.so\").\n"
	    "allow_exec(P) :- reached(P), not(two_vias), not(two_throughs).\n"
	    "deny_exec(P, \"not reached so\") :- exec_path(P),\n"
	    "    not(allow_exec(P)).\n"
	    "allow(C) :- command(C), not(via_any), not(through_any).\n";
	static const char text[] = "exec-allow /x/p p\n"
				   "via shebang /s/script\n"
				   "exec-allow /x/p p /s/script\n"
				   "allow ls\n"
				   "via loader /l/ld.so\n"
				   "exec-allow /x/p p\n"
				   "via loader /s/script\n"
				   "exec-deny  /x/p p\n"
				   "because not reached so\n"
				   "via shebang /l/ld.so\n"
				   "exec-deny  /x/p p\n"
				   "via execve\n"
				   "exec-allow /x/p p\n"
				   "allow ls\n";
	char out[8192];
	size_t failures, ncases, nexec;

	failures =
	    cases_run_text(policy_text, text, out, sizeof out, &ncases, &nexec);
	ck_assert_msg(failures == 0, "%zu failures:\n%s", failures, out);
	ck_assert_uint_eq(ncases, 8);
	ck_assert_uint_eq(nexec, 6);
}
END_TEST

/* A malformed "via" line fails at its file:line and changes nothing. */
START_TEST(test_policycases_runner_via_malformed_lines_fail)
{
	static const char text[] =
	    "via shebang\n"                /* 1: no script */
	    "via loader lib/ld.so\n"       /* 2: relative */
	    "via execve /x\n"              /* 3: through nothing */
	    "via kexec /x\n"               /* 4: not a way */
	    "via\n"                        /* 5: nothing */
	    "via shebang /s/script more\n" /* 6: too many */
	    "exec-allow /usr/bin/ls ls\n"; /* 7: still execve: holds */
	static const char *const expect[] = {
	    ":1: via shebang and via loader name an absolute path",
	    ":2: via shebang and via loader name an absolute path",
	    ":3: via execve goes through nothing",
	    ":4: via is execve, shebang PATH or loader PATH",
	    ":5: via is execve, shebang PATH or loader PATH",
	    ":6: via takes a way and at most one path"};
	static const char policy_text[] =
	    "allow_exec(P) :- exec_path(P), exec_via(\"execve\").\n";
	char out[8192];
	size_t failures, ncases, nexec, i;

	failures =
	    cases_run_text(policy_text, text, out, sizeof out, &ncases, &nexec);
	ck_assert_msg(failures == sizeof expect / sizeof expect[0],
		      "%zu failures:\n%s", failures, out);
	ck_assert_uint_eq(nexec, 1);
	for (i = 0; i < sizeof expect / sizeof expect[0]; i++)
		ck_assert_msg(strstr(out, expect[i]) != NULL,
			      "'%s' not reported:\n%s", expect[i], out);
}
END_TEST

/* Exec cases and "because" lines: a wrong verdict, a reason not given and
 * every malformed exec line are each reported at their file:line. */
START_TEST(test_policycases_runner_exec_reports_every_failure_with_its_line)
{
	static const char text[] =
	    "user bob\n"
	    "exec-allow /usr/bin/ls ls\n"                             /* 2 */
	    "exec-deny /usr/bin/ls ls\n"                              /* 3 */
	    "exec-deny /usr/sbin/reboot->/usr/bin/systemctl reboot\n" /* 4 */
	    "because forbidden by policy\n"                           /* 5 */
	    "because nothing like this\n"                             /* 6 */
	    "exec-allow /usr/bin/curl curl\n"                         /* 7 */
	    "because curl\n"                                          /* 8 */
	    "exec-allow bin/ls ls\n"                                  /* 9 */
	    "exec-allow /usr/bin/ls a%2\n"                            /* 10 */
	    "parent bin\n"                                            /* 11 */
	    "exec-allow\n"                                            /* 12 */
	    "deny shutdown now\n"                                     /* 13 */
	    "because forbidden\n"                                     /* 14 */
	    "because trusted\n"                                       /* 15 */
	    "exec-deny /usr/bin/ls ls\n"                              /* 16 */
	    "because anything\n";                                     /* 17 */
	static const char *const expect[] = {
	    ":3: exec-deny /usr/bin/ls ls",
	    ":6: because nothing like this",
	    ":7: exec-allow /usr/bin/curl curl",
	    "deny_exec: curl is restricted to trusted users",
	    ":8: 'because' follows a deny or exec-deny case",
	    ":9: the program (and its request) is an absolute path",
	    ":10: '%' is written %25",
	    ":11: a program is an absolute path",
	    ":12: an exec case needs a program",
	    ":15: because trusted",
	    ":16: exec-deny /usr/bin/ls ls"};
	char dir[] = "/tmp/maelys-policycases-XXXXXX", file[128];
	char policy[4096], out[8192];
	size_t failures, ncases, nexec, i, got;
	FILE *report = tmpfile();

	ck_assert_ptr_nonnull(report);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	(void)snprintf(policy, sizeof policy, "%s/policies/level1.dl",
		       maelys_test_source_root());
	cases_write(dir, "t.case", text, sizeof text - 1, file, sizeof file);

	failures = cases_run_file(policy, file, report, &ncases, &nexec);

	rewind(report);
	got = fread(out, 1, sizeof out - 1, report);
	out[got] = '\0';
	fclose(report);
	unlink(file);
	rmdir(dir);
	/* every line of expect but the reason under line 7 */
	ck_assert_msg(failures == sizeof expect / sizeof expect[0] - 1,
		      "%zu failures:\n%s", failures, out);
	ck_assert_uint_eq(ncases, 6);
	ck_assert_uint_eq(nexec, 5);
	for (i = 0; i < sizeof expect / sizeof expect[0]; i++)
		ck_assert_msg(strstr(out, expect[i]) != NULL,
			      "'%s' not reported:\n%s", expect[i], out);
	ck_assert_msg(strstr(out, ":17:") == NULL, "%s", out);
}
END_TEST

/* The whole of a file of the source tree, NUL-terminated; the caller frees
 * it. */
static char *
cases_slurp(const char *rel)
{
	char path[4096];
	char *buf;
	long n;
	FILE *f;

	ck_assert_int_lt(snprintf(path, sizeof path, "%s/%s",
				  maelys_test_source_root(), rel),
			 (int)sizeof path);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(fseek(f, 0, SEEK_SET), 0);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The guard's default policy keeps the walkthrough's line rules: every
 * clause of policies/walkthrough.dl (the walkthrough's policy, verbatim)
 * is in policies/level1.dl word for word, whatever comments surround it,
 * so a session at the default prompt decides the walkthrough's lines for
 * the walkthrough's reasons, and level1.dl only adds rules. */
START_TEST(test_policycases_level1_keeps_every_walkthrough_clause)
{
	char *walk = cases_slurp("policies/walkthrough.dl");
	char *level1 = cases_slurp("policies/level1.dl");
	char clause[1024];
	size_t used = 0, nclauses = 0;
	bool in_comment = false;
	char *line, *next;

	/* the clauses come after the file's own header comment */
	line = strstr(walk, "*/\n");
	ck_assert_ptr_nonnull(line);
	for (line += 3; *line != '\0'; line = next) {
		size_t n = strcspn(line, "\n");

		next = line + n + (line[n] == '\n');
		if (in_comment || strncmp(line, "/*", 2) == 0) {
			/* comments are whole lines in both files */
			char *end = strstr(line, "*/");

			in_comment = end == NULL || end > line + n;
			continue;
		}
		if (n == 0)
			continue;
		ck_assert_uint_lt(used + n + 1, sizeof clause);
		memcpy(clause + used, line, n + 1); /* with its newline */
		used += n + 1;
		if (line[n - 1] != '.')
			continue;
		clause[used] = '\0';
		ck_assert_msg(strstr(level1, clause) != NULL,
			      "policies/level1.dl lacks the walkthrough's "
			      "clause\n%s",
			      clause);
		nclauses++;
		used = 0;
	}
	/* 3 forbidden_cmd, 2 trusted_user, 3 deny, deny_any, allow */
	ck_assert_uint_eq(nclauses, 10);
	ck_assert_uint_eq(used, 0);
	free(walk);
	free(level1);
}
END_TEST

/* The locations bastion.dl gives Landlock, read as the guard reads them
 * once a session starts (its session facts alone): the session's ssh, the
 * wrapper, where it is installed, and the real ssh it runs are files the
 * kernel lets the session execute; no directory is. */
START_TEST(test_policycases_bastion_exec_files_include_both_ssh)
{
	static const char *const files[] = {
	    "/usr/local/libexec/maelys-pty/bin/ssh",
	    "/usr/libexec/maelys-pty/bin/ssh",
	    "/usr/bin/ssh",
	    "/usr/bin/git",
	};
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_session_t *session = NULL;
	maelys_datalog_result_t *res = NULL;
	struct pty_decider *d = calloc(1, sizeof *d);
	char policy[4096], err[1024];
	size_t i, ndirs = 1;

	ck_assert_ptr_nonnull(d);
	(void)snprintf(policy, sizeof policy, "%s/policies/bastion.dl",
		       maelys_test_source_root());
	ck_assert_msg(pty_policy_open(policy, &session, NULL, err, sizeof err) == 0,
		      "%s", err);
	(void)pty_decider_init(d, session, NULL, CASES_PATH_ENV);
	ck_assert_ptr_nonnull(d->edb);
	ck_assert_int_eq(maelys_datalog_input_edb_clear(d->edb),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(
	    pty_decider_add_session_facts(d, PTY_MODE_INTERACTIVE, &diag),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_msg(
	    maelys_datalog_session_solve_edb(session, d->edb, &res, &diag) ==
		MAELYS_DATALOG_STATUS_OK,
	    "%s", diag.message);
	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		maelys_datalog_arg_t f = maelys_datalog_arg_symbol(files[i]);
		int yes = 0;

		ck_assert_int_eq(
		    maelys_datalog_result_query(res, "exec_file", &f, 1, &yes),
		    MAELYS_DATALOG_STATUS_OK);
		ck_assert_msg(yes, "bastion.dl: no exec_file(\"%s\")",
			      files[i]);
	}
	ck_assert_int_eq(
	    maelys_datalog_result_count(res, "exec_dir", 1, &ndirs),
	    MAELYS_DATALOG_STATUS_OK);
	ck_assert_uint_eq(ndirs, 0);
	(void)maelys_datalog_result_free(res);
	pty_decider_free(d);
	free(d);
	(void)maelys_datalog_session_free(session);
}
END_TEST

/* A verdict that rests on one row of a large relation: the row for the
 * line's command comes after more rows of other commands than a page of
 * the result holds, and must still be found (allow_with_log, its reason),
 * and a refusal counts every deny row and shows the first of them. */
START_TEST(test_policycases_rows_of_a_large_relation_are_all_read)
{
	maelys_datalog_session_t *session = NULL;
	struct pty_decider *d = calloc(1, sizeof *d);
	struct pty_decision *dec = calloc(1, sizeof *dec);
	char policy[16384], err[1024];
	size_t off = 0;
	int i;

	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(dec);
	off += (size_t)snprintf(policy, sizeof policy, ".decl noisy(cmd)\n");
	for (i = 0; i < 150; i++)
		off += (size_t)snprintf(policy + off, sizeof policy - off,
					"noisy(\"cmd%d\").\n", i);
	off += (size_t)snprintf(
	    policy + off, sizeof policy - off,
	    "allow_with_log(C, \"noise\") :- noisy(C).\n"
	    "allow_with_log(\"ls\", \"listing is logged\") :- "
	    "command(\"ls\").\n"
	    "deny(C, \"noise\") :- noisy(C).\n"
	    "deny(\"rm\", \"rm is refused\") :- command(\"rm\").\n");
	ck_assert_msg(pty_policy_open_text("rows.dl", policy, off, &session, NULL,
					   err, sizeof err) == 0,
		      "%s", err);
	ck_assert_int_eq(pty_decider_init(d, session, NULL, CASES_PATH_ENV), 0);
	pty_decide(d, "ls", 2, PTY_MODE_INTERACTIVE, dec);
	ck_assert_int_eq(dec->verdict, PTY_VERDICT_ALLOW_LOG);
	ck_assert_str_eq(dec->log_reason, "listing is logged");
	pty_decide(d, "rm -rf x", 8, PTY_MODE_INTERACTIVE, dec);
	ck_assert_int_eq(dec->verdict, PTY_VERDICT_POLICY);
	ck_assert_uint_eq(dec->reasons_total, 151);
	ck_assert_uint_eq(dec->nreasons, PTY_REASONS_MAX);
	pty_decider_free(d);
	(void)maelys_datalog_session_free(session);
	free(dec);
	free(d);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("policycases");

	tcase_add_test(tc, test_policycases_shipped_cases_all_hold);
	tcase_add_test(
	    tc, test_policycases_runner_reports_every_failure_with_its_line);
	tcase_add_test(tc, test_policycases_runner_empty_or_broken_files_fail);
	tcase_add_test(tc,
		       test_policycases_runner_exec_cases_supply_every_fact);
	tcase_add_test(
	    tc,
	    test_policycases_runner_exec_reports_every_failure_with_its_line);
	tcase_add_test(
	    tc, test_policycases_runner_exec_via_and_through_reach_the_policy);
	tcase_add_test(tc, test_policycases_runner_via_malformed_lines_fail);
	tcase_add_test(tc,
		       test_policycases_level1_keeps_every_walkthrough_clause);
	tcase_add_test(tc,
		       test_policycases_bastion_exec_files_include_both_ssh);
	tcase_add_test(tc,
		       test_policycases_rows_of_a_large_relation_are_all_read);
	suite_add_tcase(s, tc);
	return s;
}
