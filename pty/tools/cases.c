/* SPDX-License-Identifier: MIT */
/*
 * Reading a policy case file and deciding its cases (pty_cases.h).  The
 * format is policies/README.md's.
 *
 * The session facts come from the file's context lines, never from the
 * machine: user, groups, host, cwd, time and remote address replace what
 * pty_decider_init found.  The decider the caller gives has an empty PATH,
 * so a bare command name never resolves to a command_path fact; a name
 * with a slash would still be looked up in the real file system, which is
 * why the shipped policies do not read command_path.
 *
 * An exec case decides one program the session executes, through the
 * supervisor's own pty_exec_decide: the request is filled from the case
 * line (no process, and exec_path is taken as written, never resolved),
 * and the session shell, the guard, the parent and how the program was
 * reached come from context lines.
 */
#include "pty_cases.h"
#include "pty_tool_common.h"

#include <stdio.h>
#include <string.h>

/* One expectation keyword of a line case: the verdict of pty_decide, and
 * for confirm-yes the verdict of pty_decide_confirmed after a CONFIRM. */
static const struct {
	const char *word;
	enum pty_verdict verdict;
	bool confirm_yes;
} cases_expects[] = {
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

/* The cases of exec_never: whether it holds for a path, decided with the
 * session alone (pty_never_ask, what a session's start asks of every
 * program it finds). */
static const struct {
	const char *word;
	bool never;
} cases_never_expects[] = {
    {"exec-never", true},
    {"exec-not-never", false},
};

const char *
pty_case_never_name(const struct pty_case_result *res)
{
	if (res->never_error[0] != '\0')
		return "ERROR";
	return res->never ? "NEVER" : "NOT NEVER";
}

const char *
pty_case_verdict_name(enum pty_verdict v)
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
	case PTY_VERDICT_NO_CWD:
		return "NO_CWD";
	}
	return "?";
}

const char *
pty_case_exec_verdict_name(enum pty_exec_verdict v)
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
cases_set_user(struct pty_case_context *x, const char *rest)
{
	return cases_one_word(rest, x->who.user, sizeof x->who.user, false);
}

static const char *
cases_set_groups(struct pty_case_context *x, const char *rest)
{
	const char *w;
	size_t n, ngroups = 0;

	while ((n = cases_word(&rest, &w)) != 0) {
		if (ngroups == sizeof x->who.groups / sizeof x->who.groups[0])
			return "too many groups";
		if (n >= sizeof x->who.groups[0])
			return "group name too long";
		memcpy(x->who.groups[ngroups], w, n);
		x->who.groups[ngroups++][n] = '\0';
	}
	x->who.ngroups = ngroups;
	return NULL;
}

static const char *
cases_set_host(struct pty_case_context *x, const char *rest)
{
	return cases_one_word(rest, x->who.host, sizeof x->who.host, true);
}

static const char *
cases_set_remote(struct pty_case_context *x, const char *rest)
{
	return cases_one_word(rest, x->who.remote_addr,
			      sizeof x->who.remote_addr, true);
}

static const char *
cases_set_cwd(struct pty_case_context *x, const char *rest)
{
	char cwd[sizeof x->cwd];
	const char *why = cases_one_word(rest, cwd, sizeof cwd, false);

	if (why != NULL)
		return why;
	if (cwd[0] != '/')
		return "cwd is an absolute path";
	memcpy(x->cwd, cwd, sizeof cwd);
	return NULL;
}

static const char *
cases_set_time(struct pty_case_context *x, const char *rest)
{
	char t[8];
	const char *why = cases_one_word(rest, t, sizeof t, false);

	if (why != NULL)
		return why;
	/* exactly what the host supplies: "HH:MM", 00:00 to 23:59 */
	if (!pty_tool_time_ok(t))
		return "time is HH:MM, 00:00 to 23:59";
	memcpy(x->time_of_day, t, sizeof t);
	return NULL;
}

static const char *
cases_set_mode(struct pty_case_context *x, const char *rest)
{
	char m[16];
	const char *why = cases_one_word(rest, m, sizeof m, false);

	if (why != NULL)
		return why;
	if (strcmp(m, "interactive") == 0)
		x->mode = PTY_MODE_INTERACTIVE;
	else if (strcmp(m, "command") == 0)
		x->mode = PTY_MODE_COMMAND;
	else
		return "mode is interactive or command";
	return NULL;
}

/* An absolute path, or "-" for none; dst is left alone on an error. */
static const char *
cases_set_program(const char *rest, char *dst, size_t cap)
{
	char path[PATH_MAX];
	const char *why;

	if (cap > sizeof path)
		cap = sizeof path;
	why = cases_one_word(rest, path, cap, true);
	if (why != NULL)
		return why;
	if (path[0] != '\0' && path[0] != '/')
		return "a program is an absolute path, or - for none";
	memcpy(dst, path, strlen(path) + 1);
	return NULL;
}

static const char *
cases_set_shell(struct pty_case_context *x, const char *rest)
{
	return cases_set_program(rest, x->shell, sizeof x->shell);
}

static const char *
cases_set_guard(struct pty_case_context *x, const char *rest)
{
	return cases_set_program(rest, x->guard, sizeof x->guard);
}

static const char *
cases_set_parent(struct pty_case_context *x, const char *rest)
{
	return cases_set_program(rest, x->parent, sizeof x->parent);
}

/* "via execve", "via shebang /SCRIPT" or "via loader /LOADER": how the
 * program of the exec cases below is reached (exec_via), and the script or
 * loader it is reached through (exec_through).  The host always says how,
 * so there is no "-". */
static const char *
cases_set_via(struct pty_case_context *x, const char *rest)
{
	const char *how, *through, *extra;
	size_t n = cases_word(&rest, &how), m = cases_word(&rest, &through);
	enum pty_exec_via via;

	if (cases_word(&rest, &extra) != 0)
		return "via takes a way and at most one path";
	if (n == 6 && strncmp(how, "execve", 6) == 0) {
		if (m != 0)
			return "via execve goes through nothing";
		via = PTY_EXEC_VIA_EXECVE;
	} else if ((n == 7 && strncmp(how, "shebang", 7) == 0) ||
		   (n == 6 && strncmp(how, "loader", 6) == 0)) {
		if (m == 0 || through[0] != '/')
			return "via shebang and via loader name an absolute "
			       "path (the script, the loader)";
		if (m >= sizeof x->through)
			return "value too long";
		via = n == 7 ? PTY_EXEC_VIA_SHEBANG : PTY_EXEC_VIA_LOADER;
	} else {
		return "via is execve, shebang PATH or loader PATH";
	}
	x->via = via;
	memcpy(x->through, through, m);
	x->through[m] = '\0';
	return NULL;
}

static const struct {
	const char *word;
	const char *(*set)(struct pty_case_context *x, const char *rest);
} cases_contexts[] = {
    {"user", cases_set_user},     {"groups", cases_set_groups},
    {"host", cases_set_host},     {"cwd", cases_set_cwd},
    {"time", cases_set_time},     {"mode", cases_set_mode},
    {"remote", cases_set_remote}, {"shell", cases_set_shell},
    {"guard", cases_set_guard},   {"parent", cases_set_parent},
    {"via", cases_set_via},
};

void
pty_cases_begin(struct pty_case_reader *r, const char *text, size_t len)
{
	struct pty_case_context *x = &r->ctx;

	memset(r, 0, sizeof *r);
	r->text = text;
	r->len = len;
	/* before the first context line: nothing taken from the machine */
	(void)snprintf(x->who.user, sizeof x->who.user, "%s", "nobody");
	(void)snprintf(x->cwd, sizeof x->cwd, "%s", "/");
	(void)snprintf(x->time_of_day, sizeof x->time_of_day, "%s", "12:00");
	x->mode = PTY_MODE_INTERACTIVE;
	(void)snprintf(x->shell, sizeof x->shell, "%s", PTY_CASES_SHELL);
	(void)snprintf(x->guard, sizeof x->guard, "%s", PTY_CASES_GUARD);
	(void)snprintf(x->parent, sizeof x->parent, "%s", PTY_CASES_PARENT);
	x->via = PTY_EXEC_VIA_EXECVE;
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
		if (c == '\0')
			return "NUL byte in line";
		if (k + 1 >= cap)
			return "exec case too long";
		dst[k++] = c;
	}
	dst[k] = '\0';
	*len = k;
	return NULL;
}

/* Fills rq from an exec case's value, "[REQUEST->]PATH [ARGV...]", and the
 * context.  Returns NULL, or what is wrong with it. */
static const char *
cases_exec_request(const struct pty_case_context *x, const char *value,
		   struct pty_exec_request *rq)
{
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
	(void)snprintf(rq->cwd, sizeof rq->cwd, "%s", x->cwd);
	(void)snprintf(rq->parent, sizeof rq->parent, "%s", x->parent);
	rq->via = x->via;
	(void)snprintf(rq->through, sizeof rq->through, "%s", x->through);
	return NULL;
}

/* Whether the n bytes at kw are `word`. */
static bool
cases_is(const char *kw, size_t n, const char *word)
{
	return strlen(word) == n && strncmp(kw, word, n) == 0;
}

/* One line of a case file, in r->line: 1 a case, 0 none (a comment, a
 * blank or a context line), -1 malformed (err). */
static int
cases_line(struct pty_case_reader *r, struct pty_case *c,
	   struct pty_exec_request *rq, char *err, size_t errlen)
{
	const char *text = r->line, *rest = text, *kw, *why;
	size_t n, i;

#define CASES_BAD(...)                                                         \
	do {                                                                   \
		(void)snprintf(err, errlen, __VA_ARGS__);                      \
		return -1;                                                     \
	} while (0)

	if (text[strspn(text, " \t")] == '\0' ||
	    text[strspn(text, " \t")] == '#')
		return 0;
	if (strchr(text, '\r') != NULL)
		CASES_BAD("carriage return in line (CRLF file?)");
	if (text[0] == ' ' || text[0] == '\t')
		CASES_BAD("a keyword must start in column 1");
	memset(c, 0, sizeof *c);
	c->lineno = r->lineno;
	n = cases_word(&rest, &kw);
	rest += strspn(rest, " \t");
	c->value = rest;
	c->len = strlen(rest);
	if (cases_is(kw, n, "because")) {
		/* the reason: everything after the blanks, verbatim */
		if (!r->after_deny)
			CASES_BAD("'because' follows a deny or exec-deny case");
		if (c->len == 0)
			CASES_BAD("'because' needs a reason");
		c->kind = PTY_CASE_BECAUSE;
		c->keyword = "because";
		return 1;
	}
	/* any other line ends what a "because" may refer to */
	r->after_deny = false;
	for (i = 0;
	     i < sizeof cases_exec_expects / sizeof cases_exec_expects[0];
	     i++) {
		if (!cases_is(kw, n, cases_exec_expects[i].word))
			continue;
		why = cases_exec_request(&r->ctx, rest, rq);
		if (why != NULL)
			CASES_BAD("%s", why);
		c->kind = PTY_CASE_EXEC;
		c->keyword = cases_exec_expects[i].word;
		c->want_exec = cases_exec_expects[i].verdict;
		r->after_deny = c->want_exec == PTY_EXEC_POLICY;
		return 1;
	}
	for (i = 0;
	     i < sizeof cases_never_expects / sizeof cases_never_expects[0];
	     i++) {
		if (!cases_is(kw, n, cases_never_expects[i].word))
			continue;
		/* the program: everything after the blanks, verbatim */
		if (c->value[0] != '/')
			CASES_BAD("'%s' needs an absolute path",
				  cases_never_expects[i].word);
		if (c->len >= PATH_MAX)
			CASES_BAD("'%s': the path is too long",
				  cases_never_expects[i].word);
		c->kind = PTY_CASE_NEVER;
		c->keyword = cases_never_expects[i].word;
		c->want_never = cases_never_expects[i].never;
		return 1;
	}
	for (i = 0; i < sizeof cases_expects / sizeof cases_expects[0]; i++) {
		if (!cases_is(kw, n, cases_expects[i].word))
			continue;
		/* the command line: everything after the blanks that follow
		 * the keyword, verbatim */
		if (c->len == 0)
			CASES_BAD("'%s' needs a command line",
				  cases_expects[i].word);
		c->kind = PTY_CASE_LINE;
		c->keyword = cases_expects[i].word;
		c->want = cases_expects[i].verdict;
		c->confirm_yes = cases_expects[i].confirm_yes;
		r->after_deny = c->want == PTY_VERDICT_POLICY;
		return 1;
	}
	for (i = 0; i < sizeof cases_contexts / sizeof cases_contexts[0]; i++) {
		if (!cases_is(kw, n, cases_contexts[i].word))
			continue;
		why = cases_contexts[i].set(&r->ctx, rest);
		if (why != NULL)
			CASES_BAD("%s", why);
		return 0;
	}
	/* the keyword as far as it is printable and short */
	for (i = 0; i < n && i < 32; i++)
		if ((unsigned char)kw[i] < 0x20 || kw[i] == 0x7f)
			break;
	CASES_BAD("unknown keyword '%.*s'", (int)i, kw);
#undef CASES_BAD
}

int
pty_cases_next(struct pty_case_reader *r, struct pty_case *c,
	       struct pty_exec_request *rq, char *err, size_t errlen)
{
	while (r->off < r->len) {
		const char *start = r->text + r->off;
		const char *nl = memchr(start, '\n', r->len - r->off);
		size_t len = nl != NULL ? (size_t)(nl - start) : r->len - r->off;
		int rc;

		r->off += len + (nl != NULL);
		r->lineno++;
		if (len > PTY_CASES_LINE_MAX) {
			(void)snprintf(err, errlen, "line too long");
			rc = -1;
		} else if (memchr(start, '\0', len) != NULL) {
			(void)snprintf(err, errlen, "NUL byte in line");
			rc = -1;
		} else {
			memcpy(r->line, start, len);
			r->line[len] = '\0';
			rc = cases_line(r, c, rq, err, errlen);
		}
		/* a malformed line, whatever it is, ends what a "because"
		 * may refer to */
		if (rc < 0)
			r->after_deny = false;
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* The session facts of the context, in place of the decider's own. */
static void
cases_apply(struct pty_decider *d, const struct pty_case_context *x)
{
	d->who = x->who;
	(void)snprintf(d->cwd, sizeof d->cwd, "%s", x->cwd);
	(void)snprintf(d->time_of_day, sizeof d->time_of_day, "%s",
		       x->time_of_day);
}

bool
pty_case_decide(struct pty_decider *d, const struct pty_case_context *ctx,
		const struct pty_case *c, const struct pty_exec_request *rq,
		struct pty_case_result *res)
{
	cases_apply(d, ctx);
	res->held = false;
	if (c->kind == PTY_CASE_EXEC || c->kind == PTY_CASE_NEVER) {
		if (pty_exec_set_programs(d, ctx->shell, ctx->guard) != 0) {
			/* the context's paths fit the decider's: not reached */
			memset(&res->xdec, 0, sizeof res->xdec);
			res->xdec.verdict = PTY_EXEC_ERROR;
			(void)snprintf(res->xdec.error, sizeof res->xdec.error,
				       "%s", "shell or guard path too long");
			(void)snprintf(res->never_error,
				       sizeof res->never_error, "%s",
				       res->xdec.error);
			return false;
		}
	}
	if (c->kind == PTY_CASE_NEVER) {
		res->never_error[0] = '\0';
		if (pty_never_ask(d, ctx->mode, c->value, &res->never,
				  res->never_error,
				  sizeof res->never_error) != 0)
			return false;
		res->held = res->never == c->want_never;
		return res->held;
	}
	if (c->kind == PTY_CASE_EXEC) {
		pty_exec_decide(d, rq, ctx->mode, &res->xdec);
		res->held = res->xdec.verdict == c->want_exec;
		return res->held;
	}
	if (c->kind != PTY_CASE_LINE)
		return false;
	pty_decide(d, c->value, c->len, ctx->mode, &res->dec);
	if (!c->confirm_yes) {
		res->held = res->dec.verdict == c->want;
		return res->held;
	}
	/* confirm-yes: asked first, then allowed once confirmed */
	if (res->dec.verdict != PTY_VERDICT_CONFIRM)
		return false;
	pty_decide_confirmed(d, c->value, c->len, ctx->mode, &res->dec);
	res->held = res->dec.verdict == c->want;
	return res->held;
}

bool
pty_case_because(enum pty_case_kind last, const struct pty_case_result *res,
		 const struct pty_case *c)
{
	size_t i;

	if (last == PTY_CASE_LINE) {
		for (i = 0; i < res->dec.nreasons; i++)
			if (strstr(res->dec.reasons[i].reason, c->value) != NULL)
				return true;
	} else if (last == PTY_CASE_EXEC) {
		for (i = 0; i < res->xdec.nreasons; i++)
			if (strstr(res->xdec.reasons[i], c->value) != NULL)
				return true;
	}
	return false;
}
