/* SPDX-License-Identifier: MIT */
/*
 * Deciding one line: scanner, then the input facts of the host contract
 * (pty/decide/policy.c lists them), then the policy.  The verdict is ALLOW only
 * when the policy derived allow(Cmd) for the line's command; everything else -
 * a refusal before solving, no allow, an evaluation error - denies, and the
 * decision says why in words the user sees.
 */
#ifndef PTY_DECIDE_H
#define PTY_DECIDE_H

#include "scanner.h"

#include <maelys/datalog.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- The policy (policy.c): the host's contract, registered as the
 * domain "maelys_pty" (maelys-policy(5) lists its predicates), and loading
 * a policy against it. */

#define PTY_DOMAIN "maelys_pty"

/* The policy text is bounded like the library bounds a source (a session
 * and --check read it with this bound). */
#define PTY_POLICY_MAX ((size_t)64 << 20)

/* Which input predicates of the domain a loaded policy's rules read
 * (maelys_datalog_policy_reads, asked once at load): a fact no rule reads
 * need not be computed - resolving command_path costs a stat per PATH
 * entry, exec_cwd and exec_parent a look into /proc.  Not `known` (all
 * zero): every fact is supplied. */
struct pty_policy_reads {
	bool known;
	uint64_t read; /* bit i: the domain's predicate i */
	/* known, and the policy defines no allow_exec (no rule, no fact):
	 * it decides lines only, as the walkthrough's Level 1 policy does.
	 * A session runs it only with exec_decisions = optional, and then
	 * records every program without deciding it (maelys-policy(5),
	 * "LEVEL 1 POLICIES"). */
	bool execs_undecided;
	/* the policy defines exec_never (a rule or a fact), which the load
	 * checked reads nothing but exec_path and the session facts that
	 * stay the same for a whole session (never.c) */
	bool exec_never;
};

/* Whether the policy defines allow_exec (a rule or a fact): whether it
 * decides programs.  True on any doubt. */
bool pty_policy_decides_execs(const maelys_datalog_policy_t *policy);

/* Whether the policy reads the input predicate `name`: true when r is
 * NULL or not known, and for a name the domain does not have. */
bool pty_policy_reads(const struct pty_policy_reads *r, const char *name);

/* Registers the domain, loads the policy file and prepares a session (the
 * policy-only strata are evaluated now, so a policy that cannot even start
 * fails here, before any shell runs); with `reads`, what the policy reads
 * is noted there.  Returns 0, or -1 with one line for the user in `err`. */
int pty_policy_open(const char *path, maelys_datalog_session_t **out,
		    struct pty_policy_reads *reads, char *err, size_t errlen);

/* The same from text already read (the configured policy is read through a
 * checked descriptor, pty_secure_read); `name` names it in diagnostics. */
int pty_policy_open_text(const char *name, const char *text, size_t len,
			 maelys_datalog_session_t **out,
			 struct pty_policy_reads *reads, char *err,
			 size_t errlen);

/* For the policy authors' tools (pty/tools/): the same from `text` (or
 * from the file `name` when text is NULL), with the session created with
 * `flags` (MAELYS_DATALOG_SESSION_PROVENANCE to explain and to measure
 * coverage; its memory budget is then 8 times a session's, for the
 * records), and the loaded policy handed back in *policy (when not NULL)
 * for its rules and warnings; the caller frees it. */
int pty_policy_open_for_tool(const char *name, const char *text, size_t len,
			     unsigned flags, maelys_datalog_session_t **out,
			     maelys_datalog_policy_t **policy,
			     struct pty_policy_reads *reads, char *err,
			     size_t errlen);

/* One warning of a loaded policy, as maelys-pty presents it. */
struct pty_policy_warning {
	const char *source;  /* the policy's name, as it was loaded */
	size_t line, column; /* 1-based, of the offending literal or rule */
	const char *what;    /* what is wrong, after "FILE:LINE:COL: " */
};

typedef void (*pty_policy_warning_visit)(void *ctx,
					 const struct pty_policy_warning *w);

/* The one owner of a policy's warnings as maelys-pty shows them (--check,
 * `maelys-pty test`): calls `visit` once for each warning of `policy` (one
 * loaded by the functions above), in source order, and returns how many
 * there were.  They are the engine's (maelys_datalog_policy_get_warning:
 * at most 100, the last counting the rest) and the host's own, which only
 * the host can know: a rule whose head is deny(Op, Reason) with an integer
 * constant for Reason (the user would read "?" as the reason of a line it
 * denies).  A fact written in the policy is not a rule, and the rules API
 * does not show facts: a fact deny(Op, 3) is not reported.  `what` and
 * `source` live until visit returns.  A NULL policy has none; a NULL visit
 * only counts. */
size_t pty_policy_warnings(const maelys_datalog_policy_t *policy,
			   pty_policy_warning_visit visit, void *ctx);

/* ---- One decision (decide.c) */

struct passwd;

enum pty_verdict {
	PTY_VERDICT_EMPTY,  /* an empty line: nothing to decide or run */
	PTY_VERDICT_ALLOW,  /* allow(Cmd) was derived */
	PTY_VERDICT_SYNTAX, /* refused before solving (scan.refusal) */
	PTY_VERDICT_POLICY, /* the policy did not allow it */
	PTY_VERDICT_ERROR,  /* the policy could not be evaluated */
	/* no allow(Cmd), but allow_with_log(Cmd, Reason): allowed only once
	 * its audit record is written (log_reason says why it may run) */
	PTY_VERDICT_ALLOW_LOG,
	/* no allow(Cmd), but require_confirm(Cmd, Prompt): ask the user
	 * (confirm_prompt), and decide again with confirmed(Cmd) on yes */
	PTY_VERDICT_CONFIRM,
	/* refused before solving: the policy reads cwd, and the shell's
	 * working directory cannot be named (the decider's cwd_unnamed says
	 * why, copied into error) - decided on no other name instead */
	PTY_VERDICT_NO_CWD,
};

/* Whether a verdict lets the line run (ALLOW_LOG after its record). */
static inline int
pty_verdict_runs(enum pty_verdict v)
{
	return v == PTY_VERDICT_ALLOW || v == PTY_VERDICT_ALLOW_LOG;
}

/* How a session runs: lines typed at the guard's prompt, or one command
 * (-c, what sshd runs for `ssh host COMMAND`). */
enum pty_mode {
	PTY_MODE_INTERACTIVE,
	PTY_MODE_COMMAND,
};

/* The word of a mode, as session_mode/1 and the audit log say it:
 * "interactive" or "command". */
const char *pty_mode_name(enum pty_mode mode);

#define PTY_REASONS_MAX 16
#define PTY_TEXT_MAX    256

struct pty_decision {
	enum pty_verdict verdict;
	struct scan_result scan;
	char command[PTY_TEXT_MAX];   /* the first word, for messages */
	char denied_op[PTY_TEXT_MAX]; /* "__line__" or the command */
	size_t nreasons;              /* deny(Op, Reason) rows kept */
	size_t reasons_total;         /* ... of how many */
	struct {
		char op[PTY_TEXT_MAX];
		char reason[PTY_TEXT_MAX];
	} reasons[PTY_REASONS_MAX];
	/* PTY_VERDICT_ERROR: status and diagnostic; PTY_VERDICT_NO_CWD: why
	 * the directory cannot be named */
	char error[600];
	char log_reason[PTY_TEXT_MAX];     /* ALLOW_LOG: its Reason */
	char confirm_prompt[PTY_TEXT_MAX]; /* CONFIRM: its Prompt */
	int confirmed;                     /* decided with confirmed(Cmd) */
	/* the policy was given the decider's input EDB (d->edb): it holds
	 * this decision's facts until the decider's next decision */
	bool asked;
};

/* Who the session is: what the session facts say (user, group, host,
 * remote_addr), and what the audit log and syslog name.  Filled once,
 * when the decider is made; every room reads the decider's (the guard
 * points at it). */
struct pty_identity {
	char user[PTY_TEXT_MAX];
	size_t ngroups;
	char groups[64][PTY_TEXT_MAX];
	char host[PTY_TEXT_MAX];
	char remote_addr[PTY_TEXT_MAX]; /* "" when not over ssh */
	char tty[PTY_TEXT_MAX];         /* "" without a terminal */
};

/* The longest working directory the guard names, its NUL included: the
 * cwd fact of a line and exec_cwd of an exec are at most PTY_CWD_MAX - 1
 * bytes.  Twice the length the kernel prints (PATH_MAX): a folder the
 * kernel no longer names is named by walking up to one it does
 * (pty_exec_cwd_name, pty/exec/exec_cwd.c), and an exec record that
 * holds it twice (exec_cwd, and exec_request made absolute against it)
 * stays well within the audit log's record (PTY_AUDIT_LINE_MAX).  A
 * longer one is not named, never cut. */
#define PTY_CWD_MAX          8192
/* Why a directory is not named when it is longer: the one wording, for
 * the cwd fact and exec_cwd alike (with PTY_CWD_MAX - 1). */
#define PTY_CWD_TOO_LONG_FMT "its path is longer than %d bytes"

/* What stays the same for a whole session, and the shell's directory. */
struct pty_decider {
	maelys_datalog_session_t *session;
	maelys_datalog_input_edb_t *edb;
	const char *path_env; /* PATH of the session, for command_path */
	struct pty_policy_reads reads; /* what the policy reads */
	/* reads.command_path, looked up once: every line asks */
	bool reads_command_path;
	struct pty_identity who;
	/* The shell's working directory, the cwd fact; "" when it cannot be
	 * named, cwd_unnamed then saying why in words the user reads: no cwd
	 * fact is given, and a policy that reads cwd decides no line
	 * (PTY_VERDICT_NO_CWD) - never on an older or a cut name. */
	char cwd[PTY_CWD_MAX];
	char cwd_unnamed[256];
	/* "HH:MM" to supply as time_of_day instead of the clock (policy test
	 * cases); "" = the local time of each decision */
	char time_of_day[8];
	/* session_shell/1 and guard_program/1 of exec decisions
	 * (pty_exec_set_programs); "" = not supplied */
	char shell_program[4096];
	char guard_program[4096];
	/* When set, shown every result a decision solved, before it is
	 * freed: the authors' tools read more of it than the verdict
	 * (`maelys-pty test --coverage`, the rules it fired).  NULL in a
	 * session (pty_decider_init clears it). */
	void (*solved)(void *ctx, const maelys_datalog_result_t *res);
	void *solved_ctx;
};

/* A decider for `session`, whose policy reads what `reads` says (NULL:
 * not known, every fact supplied).  Fills d->who for the current uid (its name
 * and groups, the host name, the client address of SSH_CONNECTION, the terminal
 * of standard input). Returns 0, or -1 when the user cannot be named. */
int pty_decider_init(struct pty_decider *d, maelys_datalog_session_t *session,
		     const struct pty_policy_reads *reads,
		     const char *path_env);
void pty_decider_free(struct pty_decider *d);

/* The user and group of an identity from `pw` (its name, and the names
 * of its groups from the group database): what pty_decider_init does for
 * getuid(), and --check --user for another user.  Returns 0, or -1 when
 * pw names nobody. */
int pty_identity_set_user(struct pty_identity *who, const struct passwd *pw);

/* The shell's working directory is `cwd` (what the cwd fact says); ""
 * or a name of PTY_CWD_MAX bytes or more leaves it unnamed, as
 * pty_decider_unnamed_cwd does. */
void pty_decider_set_cwd(struct pty_decider *d, const char *cwd);
/* The shell's working directory cannot be named, for the reason `why`
 * (one phrase: "its path is longer than 8191 bytes"): the previous name
 * is forgotten.  pty_decider_init starts so when getcwd(3) fails. */
void pty_decider_unnamed_cwd(struct pty_decider *d, const char *why);

/* Where the shell would find `cmd` (`len` bytes): PATH resolution, or the
 * path itself when it has a slash, made absolute against d->cwd; what
 * command_path(P) says.  Returns false when no executable file is there. */
bool pty_decider_command_path(const struct pty_decider *d, const char *cmd,
			      size_t len, char *out, size_t cap);

/* For a decider whose decisions are recorded: every fact a candidate
 * policy could read is computed, not only those this policy reads, so a
 * record's "facts" decide it again under any policy (`maelys-pty log
 * --replay`).  command_path costs a stat per PATH folder, against the
 * record's fdatasync; the exec supervisor does the same for an exec's
 * facts when it records (pty_supervise_need). */
void pty_decider_records(struct pty_decider *d);

/* Sets `st` to `x`, a library call, and returns it from the calling
 * function unless it is OK: how a chain of calls fails closed at its
 * first error. */
#define PTY_TRY(st, x)                                                         \
	do {                                                                   \
		if (((st) = (x)) != MAELYS_DATALOG_STATUS_OK)                  \
			return (st);                                           \
	} while (0)

/* Adds the one-column fact pred(text) (`len` bytes; _string: up to its
 * NUL) to an input EDB. */
maelys_datalog_status_t pty_fact_add_text(maelys_datalog_input_edb_t *edb,
					  const char *pred, const char *text,
					  size_t len,
					  maelys_datalog_diagnostic_t *diag);
maelys_datalog_status_t pty_fact_add_string(maelys_datalog_input_edb_t *edb,
					    const char *pred, const char *text,
					    maelys_datalog_diagnostic_t *diag);

/* One row of a two-column relation: the text of each column ("?" for a
 * column that is not a symbol). */
typedef void (*pty_row_visit)(void *ctx, const char *c0, size_t l0,
			      const char *c1, size_t l1);

/* Visits every row of pred/2 in a result, however many (read a page at a
 * time), whose first column is `key` (every row when key is NULL).
 * Returns OK, or the status that stopped the reading (the rows visited
 * before it stand). */
maelys_datalog_status_t pty_rows_each(const maelys_datalog_result_t *res,
				      const char *pred, const char *key,
				      size_t keylen, pty_row_visit visit,
				      void *ctx);

/* Of the rows of pred/2 in a result whose first column is `key`, copies
 * the second column of the first `max` into out; returns how many, and
 * counts them all in *total (may be NULL). */
size_t pty_rows_for_key(const maelys_datalog_result_t *res, const char *pred,
			const char *key, size_t keylen,
			char (*out)[PTY_TEXT_MAX], size_t max, size_t *total);

/* "status_name: diagnostic" (or the status's meaning) for the user. */
void pty_status_text(maelys_datalog_status_t st,
		     const maelys_datalog_diagnostic_t *diag, char *out,
		     size_t cap);

/* Adds the facts of the session, the same for a line and an exec (user,
 * group, time_of_day, host, remote_addr, session_mode) to d->edb. */
maelys_datalog_status_t
pty_decider_add_session_facts(struct pty_decider *d, enum pty_mode mode,
			      maelys_datalog_diagnostic_t *diag);

/* Solves the policy over d->edb and asks pred(key): *yes is 1 when it was
 * derived.  The result is left in *res (NULL when the solve failed) for
 * the caller to read further and free.  Returns the first status that is
 * not OK, or OK. */
maelys_datalog_status_t
pty_decider_solve_ask(struct pty_decider *d, const char *pred, const char *key,
		      size_t keylen, maelys_datalog_result_t **res, int *yes,
		      maelys_datalog_diagnostic_t *diag);

/* Decides `len` bytes of `line` in session mode `mode`.  Never fails: every
 * failure is a denying verdict.  The order of the queries: allow(Cmd); then
 * allow_with_log(Cmd, R); then require_confirm(Cmd, P) (only when not yet
 * confirmed); else denied.  While the shell's directory cannot be named
 * (d->cwd ""), a line is decided without a cwd fact when the policy reads
 * none (its verdict cannot depend on it), and refused before solving
 * (PTY_VERDICT_NO_CWD) when it does: without the fact, a rule that tests
 * where the shell is would not fire, which for a rule that refuses is an
 * allowance no policy wrote. */
void pty_decide(struct pty_decider *d, const char *line, size_t len,
		enum pty_mode mode, struct pty_decision *out);

/* pty_decide, with the result its verdict came from handed back in *res
 * for the caller to read and free (NULL when nothing was solved: an empty
 * line, a refusal before solving, an error): `maelys-pty explain` walks
 * the very result of the verdict it prints. */
void pty_decide_keep(struct pty_decider *d, const char *line, size_t len,
		     enum pty_mode mode, struct pty_decision *out,
		     maelys_datalog_result_t **res);

/* The same, after the user confirmed: confirmed(Cmd) is an input fact. */
void pty_decide_confirmed(struct pty_decider *d, const char *line, size_t len,
			  enum pty_mode mode, struct pty_decision *out);

/* Decides a line again from the input facts it was decided on (`maelys-pty
 * log --replay`): d->edb holds exactly those facts, put there by the caller
 * (cleared first, nothing of d's own added); `cmd` is the Cmd of their
 * command(Cmd), and `confirmed` says whether confirmed(Cmd) is among them.
 * The same queries, in the same order, as pty_decide: both share the code
 * that follows the building of the input EDB; and as pty_decide, a policy
 * that reads cwd decides no line whose facts hold none (PTY_VERDICT_NO_CWD:
 * it was decided where the directory had no name).  out->scan is empty (the
 * line is not scanned again).  Never fails: a failure is PTY_VERDICT_ERROR. */
void pty_decide_edb(struct pty_decider *d, const char *cmd, size_t cmdlen,
		    int confirmed, struct pty_decision *out);

/* ---- exec_never (never.c): the programs the policy never runs in a
 * session, whatever is asked.  A policy that defines exec_never(P) says
 * that the kernel must never execute P while the session lasts; the load
 * allows it to read only exec_path, user, group, host, remote_addr,
 * session_mode, session_shell and guard_program (policy.c), so it is
 * decided once for a file, when the session starts (pty/exec's Landlock
 * ruleset leaves the files it names out), and asked again at every exec
 * (an exec of such a program is refused whatever allow_exec says). */

/* Whether exec_never may hold for some program: the policy defines it, or
 * what it reads is not known. */
bool pty_never_defined(const struct pty_decider *d);

/* Whether exec_never(path) (len bytes) holds in a result; true when it
 * cannot be read (fail closed). */
bool pty_never_in(const maelys_datalog_result_t *res, const char *path,
		  size_t len);

/* Whether exec_never(path) holds in session mode `mode`, solved with what
 * it may read: exec_path(path), the session facts, and session_shell and
 * guard_program when d has them.  Returns 0 with *never, or -1 with one
 * line in err (*never is then true). */
int pty_never_ask(struct pty_decider *d, enum pty_mode mode, const char *path,
		  bool *never, char *err, size_t errlen);

/* Called with each path exec_never names by itself; returns 0 to go on, or
 * -1 with one line in err to stop. */
typedef int (*pty_never_visit)(void *arg, const char *path, char *err,
			       size_t errlen);

/* Calls visit for each P of exec_never(P) that holds without any exec_path
 * fact (a fact of the policy, or a rule on the session facts alone): the
 * files the policy names by themselves, wherever they are.  Returns 0, or
 * -1 with one line in err (the policy failed, a row is not a path, or
 * what visit said). */
int pty_never_named(struct pty_decider *d, enum pty_mode mode,
		    pty_never_visit visit, void *arg, char *err,
		    size_t errlen);

/* ---- What may I run (runnable.c): the guard's `help` and --list, and
 * the prompt's Tab completion of the first word.  Each executable name of
 * the session's PATH is decided as the line of just that name would be,
 * by pty_decide itself (so by the same facts: user, groups, cwd, time,
 * mode, remote address), the way `sudo -l` answers.  These are questions,
 * not lines: nothing here is recorded or counted. */

/* The most executable names read from PATH (the rest are not decided and
 * the list says it was cut). */
#define PTY_RUNNABLE_MAX 65536u
/* The most directory entries read from PATH, programs or not (each costs
 * a stat: about 0.5 s here), and the most directories: past either the
 * list is cut and says so. */
#define PTY_RUNNABLE_ENTRIES_MAX 262144u
#define PTY_RUNNABLE_DIRS_MAX    128u

struct pty_runnable_entry {
	const char *name;         /* into the list's own buffer */
	enum pty_verdict verdict; /* ALLOW, ALLOW_LOG or CONFIRM */
};

struct pty_runnable {
	struct pty_runnable_entry *entries; /* sorted by name (bytes) */
	size_t n;
	size_t considered; /* distinct executable names found in PATH */
	/* PTY_RUNNABLE_MAX names, PTY_RUNNABLE_ENTRIES_MAX entries or
	 * PTY_RUNNABLE_DIRS_MAX directories were reached */
	bool truncated;
	char *names;       /* the names, each NUL-terminated */
	size_t names_len, names_cap;
};

/* Fills *out (zeroed first) with the names that a line of just that name
 * would be allowed to run in `mode`: allowed, allowed once logged, or
 * allowed once confirmed; a name whose program (resolved) the policy never
 * runs (exec_never) is left out, since its exec would be refused.  A name is a regular file with an execute bit
 * that this process may execute, in a directory of d->path_env; a name
 * found in several directories is one entry (the shell runs the first,
 * and command_path says that one); a directory named twice is read once.  A name the shell would not read as a
 * bare command name - one the scanner refuses, splits, or finds a
 * metacharacter in (`[`, `a=b`, `~x`) - is not listed.  A directory that
 * cannot be read is skipped, as the shell skips it.  Returns 0, or -1
 * when memory ran out (*out then holds nothing). */
int pty_runnable_list(struct pty_decider *d, enum pty_mode mode,
		      struct pty_runnable *out);

/* Frees what a list holds; the list may be zeroed or already freed. */
void pty_runnable_free(struct pty_runnable *r);

#endif /* PTY_DECIDE_H */
