/* SPDX-License-Identifier: MIT */
/*
 * Deciding one program the session executes (the exec
 * supervisor).  pty/exec/supervise.c reads what a process asked execve(2) or
 * execveat(2) to run (exec_read.c), this file's functions turn it into the
 * exec facts of the host contract and solve the same policy as the lines:
 *
 *   exec_path(P)        the program, absolute, every symbolic link resolved
 *                       (what the kernel will open)
 *   exec_request(P)     the path as the process gave it, made absolute
 *                       against its directory and normalised without
 *                       following links ("/usr/bin/sh" where exec_path is
 *                       "/usr/bin/dash")
 *   exec_arg(I, A)      argv, 0-based as in C: exec_arg(0, A) is the name
 *                       the program is given
 *   exec_argc(N)        the number of argv entries
 *   exec_cwd(D)         the process's working directory
 *   exec_parent(P)      the executable of the process that asks (the
 *                       program that is starting another one)
 *   session_shell(S)    the session's shell, resolved
 *   guard_program(G)    this program, resolved (exec_parent of the shell)
 *   exec_via(H)         how the kernel comes to run it: "execve" (what the
 *                       process asked for), "shebang" (the interpreter of a
 *                       #! script, started inside the same execve), or
 *                       "loader" (the program the dynamic loader is asked
 *                       to run: ld.so [OPTIONS] PROG ARGS)
 *   exec_through(F)     for "shebang" the script, for "loader" the loader
 *                       (resolved); absent for "execve"
 * plus the session facts of every line: user, group, host, remote_addr,
 * session_mode, time_of_day.  Queried: allow_exec(P) for P = exec_path
 * (the program runs only then, and never when exec_never(P) holds:
 * pty_decide.h) and deny_exec(P, Reason) (the reasons shown).
 */
#ifndef PTY_EXEC_H
#define PTY_EXEC_H

#include "pty_audit.h"
#include "pty_decide.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Bounds on what is read of a process's exec request: more arguments, or
 * more bytes of them, and the exec is refused (never decided on a part). */
#define PTY_EXEC_ARGS_MAX  4096
#define PTY_EXEC_BYTES_MAX ((size_t)256 * 1024)

/* The most execs one request leads to: what was asked, up to five
 * interpreters of #! lines (the kernel's own bound), and programs of the
 * dynamic loader.  More is refused. */
#define PTY_EXEC_CHAIN_MAX 8

/* How the kernel comes to run a program (exec_via/1). */
enum pty_exec_via {
	PTY_EXEC_VIA_EXECVE,  /* what the process asked execve(2) to run */
	PTY_EXEC_VIA_SHEBANG, /* the interpreter of a #! script */
	PTY_EXEC_VIA_LOADER,  /* the program the dynamic loader runs */
};

/* The word of exec_via/1 and of the audit record. */
const char *pty_exec_via_name(enum pty_exec_via via);

/* exec_request: a path the kernel takes (under PATH_MAX) made absolute
 * against a directory of up to PTY_CWD_MAX bytes. */
#define PTY_EXEC_REQUEST_MAX (PTY_CWD_MAX + PATH_MAX)

/* What one process asked to execute.  Whatever refuses it, its record
 * names what was asked: request is filled before anything can refuse
 * (as read, when it cannot be made absolute: exec_read.c), path once
 * the program is resolved. */
struct pty_exec_request {
	pid_t pid;
	char path[PATH_MAX];                /* exec_path */
	char request[PTY_EXEC_REQUEST_MAX]; /* exec_request */
	char cwd[PTY_CWD_MAX];              /* exec_cwd ("" if not learnt) */
	char parent[PATH_MAX];  /* exec_parent ("" if it cannot be named) */
	enum pty_exec_via via;  /* exec_via */
	char through[PATH_MAX]; /* exec_through ("" for execve) */
	/* the file found for it (its walk's), which the process's executable
	 * must be after the exec when it is the chain's (exec_verify.c) */
	dev_t dev;
	ino_t ino;
	/* argv was not read: no rule reads exec_arg or exec_argc, and there
	 * is no audit log (pty_supervise.h); argc is then 0, and neither
	 * fact is supplied */
	bool args_unread;
	size_t argc;
	const char *argv[PTY_EXEC_ARGS_MAX]; /* into `bytes`, NUL-ended */
	size_t argv_len[PTY_EXEC_ARGS_MAX];
	char bytes[PTY_EXEC_BYTES_MAX];
};

enum pty_exec_verdict {
	PTY_EXEC_ALLOW,      /* allow_exec(P) was derived */
	PTY_EXEC_POLICY,     /* it was not */
	PTY_EXEC_ERROR,      /* the policy could not be evaluated */
	PTY_EXEC_UNREADABLE, /* the request could not be read or is too big */
	/* the host refuses it before any policy: the user could change what
	 * it runs between the check and the exec (pty_exec_walk), or the
	 * kernel would run it through something the guard cannot decide */
	PTY_EXEC_UNSAFE,
	/* not decided: the policy decides lines only (exec_decisions =
	 * optional); recorded, and it runs.  `error` says what could not be
	 * read, when the request was not read whole. */
	PTY_EXEC_RECORDED,
};

struct pty_exec_decision {
	enum pty_exec_verdict verdict;
	size_t nreasons;      /* deny_exec(P, Reason) rows kept */
	size_t reasons_total; /* ... of how many */
	char reasons[PTY_REASONS_MAX][PTY_TEXT_MAX];
	char error[600]; /* ERROR and UNREADABLE: why */
	/* exec_never(P) holds: POLICY whatever allow_exec says (the kernel
	 * refuses such a file too, pty_supervise.h) */
	bool never;
	/* the policy was given the decider's input EDB (d->edb): it holds
	 * this decision's facts until the decider's next decision */
	bool asked;
};

/* The programs of the session facts session_shell/1 and guard_program/1
 * (resolved by the caller); kept by the decider.  Returns 0, or -1 when a
 * path does not fit. */
int pty_exec_set_programs(struct pty_decider *d, const char *shell,
			  const char *guard);

/* Decides one request in session mode `mode`.  Never fails: every failure
 * is a denying verdict that says why. */
void pty_exec_decide(struct pty_decider *d, const struct pty_exec_request *r,
		     enum pty_mode mode, struct pty_exec_decision *out);

/* pty_exec_decide, with the result its verdict came from handed back in
 * *res for the caller to read and free (NULL after an error): what
 * `maelys-pty explain --exec` walks. */
void pty_exec_decide_keep(struct pty_decider *d,
			  const struct pty_exec_request *r, enum pty_mode mode,
			  struct pty_exec_decision *out,
			  maelys_datalog_result_t **res);

/* Decides a program again from the input facts it was decided on
 * (`maelys-pty log --replay`): d->edb holds exactly those facts, put there
 * by the caller (cleared first); `path` is the P of their exec_path(P).
 * The same queries as pty_exec_decide: both share the code that follows
 * the building of the input EDB.  Never fails: a failure is
 * PTY_EXEC_ERROR. */
void pty_exec_decide_edb(struct pty_decider *d, const char *path,
			 size_t pathlen, struct pty_exec_decision *out);

/* The audit record of an exec and the arrays it points to. */
struct pty_exec_record {
	struct pty_audit_event event;
	struct pty_audit_exec exec;
	struct pty_audit_text reasons[PTY_REASONS_MAX];
	struct pty_audit_facts facts;
};

/* The record of request r and its decision, as event "exec" with the
 * verdict's word as its "decision" ("allow", "deny", "error",
 * "refused"), by the rules of pty_audit.h, and as its "facts" those of
 * `edb`: the input EDB dec was solved over (the decider's, before its
 * next decision), read when dec->asked.  It points into r, dec, edb and
 * rec, which must outlive it.  Returns &rec->event. */
struct pty_audit_event *
pty_exec_record(struct pty_exec_record *rec, const struct pty_exec_request *r,
		const struct pty_exec_decision *dec,
		const maelys_datalog_input_edb_t *edb);

/* What reading a request may answer besides 0 or an errno (exec_read.c,
 * exec_walk.c, exec_chain.c). */
#define PTY_EXEC_READ_REFUSE (-1) /* cannot be read or too big: refuse */
#define PTY_EXEC_READ_GONE   (-2) /* the process no longer waits */
#define PTY_EXEC_READ_UNSAFE (-3) /* the user could change what runs */

/* What pty_exec_walk found. */
struct pty_exec_walk {
	int fd; /* the file (O_PATH), or -1 */
	struct stat st;
	/* "" when the user can change nothing on the way; otherwise what
	 * they can change first: "the folder /home/alice", "the file ..." */
	char unsafe[PATH_MAX + 16];
};

/* Walks `path` as execve(2) will, from the directory `start` (relative
 * paths; absolute ones start at the root: `root`, the guard's "/" kept
 * open by the caller, or -1 to open it), one name at a time, following
 * links (at most 40) but refusing those of /proc, and notes in
 * out->unsafe the first place on the way the user could change
 * (exec_walk.c says what that is).  Returns 0 with out->fd the regular
 * file found (the caller closes it), an errno the kernel would answer
 * (ENOENT, ENOTDIR, EACCES, ELOOP, ENAMETOOLONG, ...), or
 * PTY_EXEC_READ_REFUSE with one line in err. */
int pty_exec_walk(int root, int start, const char *path,
		  struct pty_exec_walk *out, char *err, size_t errlen);

/* The same for a file given by descriptor (execveat with AT_EMPTY_PATH,
 * fexecve): out->fd a copy of it; only the file itself is checked.
 * Returns 0, or an errno. */
int pty_exec_walk_fd(int file, struct pty_exec_walk *out);

/* The name of the file a walk found, from the guard's own descriptor
 * (read in /proc/self/fd: `selffd` a descriptor of it kept open, or -1 to
 * go by its path); a file without a path (deleted, a memfd, renamed
 * over) is refused.  Returns 0, or PTY_EXEC_READ_REFUSE with one line in
 * err. */
int pty_exec_walk_name(int selffd, const struct pty_exec_walk *w, char *path,
		       size_t cap, char *err, size_t errlen);

/* Whether a name the kernel gave for an open file or directory ends in
 * " (deleted)": its mark for one whose name was removed - which a real
 * name may end in too, so such a name is taken only if it still leads to
 * that very file. */
bool pty_exec_name_deleted(const char *path);

/* The name of the directory open at `dir` (O_PATH will do) into out (cap
 * bytes; a longer name is not taken, nor one of PTY_CWD_MAX bytes or
 * more): the kernel's own, read in /proc/self/fd (`selffd` a descriptor
 * of it kept open, or -1 to go by its path), and past the length the
 * kernel prints, one made from the directory up and checked to lead back
 * to it (exec_cwd.c says how).  The shell's cwd fact and exec_cwd are
 * named so.  A directory that was removed has no name (the kernel's is
 * its old one, " (deleted)" after it).  Returns 0, or -1 with out "" and
 * in why one phrase a user reads ("its path is longer than 8191 bytes",
 * "a folder above it cannot be read (Permission denied)", "it was
 * removed"). */
int pty_exec_cwd_name(int selffd, int dir, char *out, size_t cap, char *why,
		      size_t whylen);

/* Lexical normalisation: `path` made absolute against `base` (itself
 * absolute) with "", "." and ".." components and repeated slashes removed,
 * links not followed.  Returns 0, or -1 when the result does not fit in
 * `cap` bytes or an input is malformed (base not absolute). */
int pty_path_normalise(const char *base, const char *path, char *out,
		       size_t cap);

#endif /* PTY_EXEC_H */
