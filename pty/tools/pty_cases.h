/* SPDX-License-Identifier: MIT */
/*
 * The policy case files (`maelys-pty test`): reading a .case file and
 * deciding its cases with the guard's own deciders.  The format is
 * policies/README.md's; this header and cases.c are its one owner.
 *
 * A case file is read in two passes over the same text: the first finds
 * every malformed line (a file with one does not load: nothing of it is
 * decided, so that a typo never silently drops or changes a case), the
 * second decides.  Reading is pure: the text in, the cases and the
 * context they are decided in out.  The text is untrusted (fuzz/
 * fuzz_case_file.c): every line and value is bounded, and a bad one is an
 * error naming its line, never a crash.
 */
#ifndef PTY_CASES_H
#define PTY_CASES_H

#include "pty_decide.h"
#include "pty_exec.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A larger case file does not load. */
#define PTY_CASES_FILE_MAX ((size_t)4 << 20)
/* A longer case line is malformed; it still holds a keyword and a command
 * line the scanner refuses as too long (SCAN_LINE_MAX bytes or more). */
#define PTY_CASES_LINE_MAX (SCAN_LINE_MAX + 64)

/* The defaults of the exec context lines: nothing taken from the machine. */
#define PTY_CASES_SHELL  "/usr/bin/bash"
#define PTY_CASES_GUARD  "/usr/local/bin/maelys-pty"
#define PTY_CASES_PARENT PTY_CASES_SHELL

/* What the context lines above a case set: the session facts it is
 * decided with, none of them taken from the machine that runs it. */
struct pty_case_context {
	/* user, groups, host, remote (tty unused); "" = not supplied */
	struct pty_identity who;
	char cwd[PATH_MAX];
	char time_of_day[8]; /* "HH:MM" */
	enum pty_mode mode;
	/* the exec cases: session_shell, guard_program, exec_parent ("" =
	 * none), how the program is reached and what through */
	char shell[PATH_MAX];
	char guard[PATH_MAX];
	char parent[PATH_MAX];
	enum pty_exec_via via;
	char through[PATH_MAX];
};

enum pty_case_kind {
	PTY_CASE_LINE,    /* allow, log, confirm, confirm-yes, deny, refuse */
	PTY_CASE_EXEC,    /* exec-allow, exec-deny */
	PTY_CASE_BECAUSE, /* because TEXT, under a deny or exec-deny case */
	PTY_CASE_NEVER,   /* exec-never, exec-not-never */
};

/* One case as read.  `value` points into the reader's copy of its line
 * (NUL-ended), valid until the next pty_cases_next. */
struct pty_case {
	enum pty_case_kind kind;
	size_t lineno;
	const char *keyword; /* as the format spells it */
	const char *value;   /* the command line, the exec case, the reason */
	size_t len;
	enum pty_verdict want;           /* LINE */
	bool confirm_yes;                /* LINE: confirm, then allow */
	enum pty_exec_verdict want_exec; /* EXEC */
	bool want_never;                 /* NEVER: exec_never(value) holds */
};

struct pty_case_reader {
	const char *text;
	size_t len;
	size_t off;
	size_t lineno;
	struct pty_case_context ctx;
	bool after_deny; /* a "because" may follow */
	char line[PTY_CASES_LINE_MAX + 1];
};

/* Starts reading `len` bytes of `text`, with the context's defaults. */
void pty_cases_begin(struct pty_case_reader *r, const char *text, size_t len);

/* Reads up to the next case.  Returns 1 with *c (and, for an exec case,
 * *rq filled from it and r->ctx, as the supervisor fills one from a
 * process); 0 at the end of the text; -1 when line r->lineno is
 * malformed, with what is wrong in err (reading may go on with the next
 * line).  r->ctx is the context of the case. */
int pty_cases_next(struct pty_case_reader *r, struct pty_case *c,
		   struct pty_exec_request *rq, char *err, size_t errlen);

/* What one case got.  For confirm-yes, dec is the decision after the
 * confirmation when the first one asked for it (confirmed set). */
struct pty_case_result {
	bool held;
	struct pty_decision dec;       /* LINE */
	struct pty_exec_decision xdec; /* EXEC */
	/* NEVER: whether exec_never held, or why it could not be asked
	 * (never_error != "") */
	bool never;
	char never_error[600];
};

/* Decides case c (LINE, EXEC or NEVER, read with r->ctx and rq) with d,
 * whose session facts are set from the context first: pty_decide (and
 * pty_decide_confirmed for confirm-yes), pty_exec_decide or pty_never_ask,
 * the guard's own deciders.  Returns res->held. */
bool pty_case_decide(struct pty_decider *d, const struct pty_case_context *ctx,
		     const struct pty_case *c,
		     const struct pty_exec_request *rq,
		     struct pty_case_result *res);

/* Whether a reason of res, the result of a deny (`last` LINE) or
 * exec-deny (EXEC) case that held, contains the text of the because case
 * c. */
bool pty_case_because(enum pty_case_kind last,
		      const struct pty_case_result *res,
		      const struct pty_case *c);

/* The word of a verdict, as the report shows it ("ALLOW", "POLICY"...). */
const char *pty_case_verdict_name(enum pty_verdict v);
const char *pty_case_exec_verdict_name(enum pty_exec_verdict v);
/* ... of a NEVER case's result: "NEVER", "NOT NEVER" or "ERROR". */
const char *pty_case_never_name(const struct pty_case_result *res);

/* ---- maelys-pty test (test.c) */

struct pty_test_options {
	const char *policy; /* --policy, or NULL */
	const char *config; /* --config, or NULL */
	bool verbose;       /* -v: every case, and each file's policy */
	bool coverage;      /* --coverage: the rules no case made true */
	bool werror;        /* --werror: a policy with a warning fails */
};

/* Runs the case files, each with its policy (pty_tools.h's `test`):
 * what the cases got on `out`, ended by "N passed, M failed"; the
 * policies' warnings and what does not load (each malformed line as
 * FILE:LINE: what) on `err`.  Returns 0 when every case held, 1 when one
 * did not, 2 when a case file or a policy did not load (or, with werror,
 * a policy has a warning). */
int pty_test_run(const struct pty_test_options *o, char *const *files,
		 size_t nfiles, FILE *out, FILE *err);

#endif /* PTY_CASES_H */
