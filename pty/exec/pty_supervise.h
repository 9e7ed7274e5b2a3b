/* SPDX-License-Identifier: MIT */
/*
 * The exec supervisor: every program the session executes is
 * decided by the policy, in the guard, before the kernel runs it.
 *
 *   guard (parent)                         child, before bash
 *   pty_supervise_prepare: build the
 *     seccomp filter (libseccomp), a
 *     socketpair, the Landlock ruleset
 *   fork ───────────────────────────────►  pty_supervise_child:
 *                                            NO_NEW_PRIVS, Landlock,
 *                                            the filter with a listener,
 *                                            the listener's descriptor sent
 *   pty_supervise_accept: receives it  ◄──   over the socketpair (SCM_RIGHTS)
 *   poll(listener) ─► pty_supervise_handle, once per execve/execveat of
 *     any process of the session: read, decide (allow_exec), record,
 *     answer CONTINUE or EPERM
 *
 * The filter (supervise_filter.c) also refuses with EPERM, outright, the
 * calls no session needs (see there).  If the filter cannot be installed
 * the session does not start.  If the guard dies, its listener closes and
 * the kernel fails every pending and later exec of the session (ENOSYS).
 *
 * A guard started inside a supervised session (a program's "$SHELL -c",
 * which is the guard) cannot install a second listener - the kernel allows
 * one per process tree, and the outer filter answers EEXIST - and runs its
 * shell under the outer supervisor, which keeps deciding every exec.
 *
 * This header is the face of exec/: the rooms that start a session
 * (line/, check/, main.c) include it and nothing else of the room.
 */
#ifndef PTY_SUPERVISE_H
#define PTY_SUPERVISE_H

#include "pty_exec.h"
#include "pty_exec_chain.h"
#include "pty_exec_verify.h"
#include "pty_session.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct seccomp_notif;
struct seccomp_notif_resp;

struct pty_supervisor {
	int listener;     /* the notification descriptor; -1: none (nested) */
	int sock[2];      /* [0] guard's end, [1] child's end */
	int landlock_fd;  /* the ruleset to apply in the child, or -1 */
	void *bpf;        /* the filter program (struct sock_filter[]) */
	size_t bpf_count; /* ... its instructions */
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	/* the request being decided and what it leads to (rq[0] is
	 * allocated by prepare, the rest as needed) */
	struct pty_exec_chain chain;
	struct pty_exec_env env; /* loaders and binfmt_misc, read once */
	/* the request of the session's shell, the child's first exec, until
	 * it is decided; the child's pid, set by the caller after fork */
	struct pty_exec_request *first;
	pid_t child_pid;
	bool child_dumpable; /* the child may be read (no key in memory) */
	/* what a decision needs, set by the caller before the first one */
	struct pty_guard *guard;
	struct pty_decider *decider;
	enum pty_mode mode;
	int out_fd;       /* where refusals are shown */
	const char *eol;
	/* called around a message on out_fd (the prompt hides), or NULL */
	void (*around_message)(bool before);
	bool end_session; /* a refusal hit max_denials or the audit failed */
	/* what each allowed exec must leave its process running, checked
	 * once the exec is over (pty_exec_verify.h) */
	struct pty_exec_verify *verify;
	/* the policy decides lines only, and exec_decisions = optional:
	 * every program is recorded and runs (pty_supervise_execs_decided) */
	bool execs_undecided;
	/* the facts of each exec that cost system calls to learn, and that
	 * the policy or the audit log reads (PTY_EXEC_NEED_*; all of them
	 * unless pty_supervise_setup learnt otherwise) */
	unsigned need;
};

/* Concludes one exec decision as the guard concludes a line: its audit
 * record (a record that cannot be written denies the exec, and with
 * on_audit_failure = terminate ends the session) with the facts of `edb`,
 * the input EDB dec was solved over, the message and syslog line of a
 * refusal, and the counts (pty_guard_exec_concluded).  PTY_ACT_RUN only
 * for an allowed exec whose record, if there is a log, is written. */
enum pty_act pty_exec_conclude(struct pty_guard *g,
			       const struct pty_exec_request *r,
			       const struct pty_exec_decision *dec,
			       const maelys_datalog_input_edb_t *edb, int fd,
			       const char *eol);

/* Concludes a process found running another program than the exec the
 * guard allowed (exec_verify.c), already ended: its audit record (event
 * exec_mismatch), the message on fd, syslog, and a refusal counted toward
 * max_denials.  Returns PTY_ACT_END when the session must end (the
 * record failed with on_audit_failure = terminate, or max_denials). */
enum pty_act pty_exec_conclude_mismatch(struct pty_guard *g,
					const struct pty_exec_mismatch *m,
					int fd, const char *eol);

/* Whether this process may be a guard nested in a supervised session: it
 * runs with NO_NEW_PRIVS and a seccomp filter (/proc/self/status).  Only a
 * hint: pty_supervise_accept knows for sure. */
bool pty_supervise_maybe_nested(void);

/* Sets every descriptor to -1: pty_supervise_close is then always safe. */
void pty_supervise_init(struct pty_supervisor *s);

/* Everything before fork for a session of guard `g` in `mode` whose child
 * will execute the shell with `shell_argv`: resolves the
 * session's shell and this program (guard_path) for the exec facts, checks
 * that the policy lets the shell start, builds the Landlock ruleset from
 * the policy's exec_dir/exec_file (Landlock, below; landlock = required is
 * enforced here), then pty_supervise_prepare.  The caller then sets
 * out_fd, eol and around_message.  Returns 0, or -1 with one line in err
 * (the session must not start). */
int pty_supervise_setup(struct pty_supervisor *s, struct pty_guard *g,
			struct pty_decider *d, enum pty_mode mode,
			const char *guard_path, char *const *shell_argv,
			char *err, size_t errlen);

/* Whether the session decides programs: 1 when the policy defines
 * allow_exec; for a policy that decides lines only (d->reads), 0 when
 * `optional` (exec_decisions = optional: programs are recorded, not
 * decided), else -1 with one line in err (the session must not start).
 * The one owner of that rule, for the session and --check alike. */
int pty_supervise_execs_decided(const struct pty_decider *d, bool optional,
				char *err, size_t errlen);

/* Whether the policy lets the session's shell start: the exec decision
 * pty_supervise_setup asks before anything is forked, for `shell_path` (as
 * configured) run with `argv`.  Needs s->decider (its session_shell and
 * guard_program set, pty_exec_set_programs), s->mode and s->first (room for
 * the request, which is kept for the shell's exec).  Returns 0 when
 * allow_exec holds or nothing is decided (pty_supervise_execs_decided with
 * `execs_optional`), or -1 with one line in err. */
int pty_supervise_shell_allowed(struct pty_supervisor *s,
				const char *shell_path, char *const *argv,
				bool execs_optional, char *err, size_t errlen);

/* Step 1, in the guard before fork: the filter, the socketpair, and the
 * Landlock ruleset from `landlock_fd` (-1: none; the supervisor owns and
 * closes it).  Returns 0, or -1 with one line in err. */
int pty_supervise_prepare(struct pty_supervisor *s, int landlock_fd, char *err,
			  size_t errlen);

/* Step 2, in the child between fork and exec: async-signal-safe system
 * calls only; on failure it reports why to the guard and _exits 127. */
void pty_supervise_child(struct pty_supervisor *s);

/* Step 3, in the guard after fork: receives the listener (or learns that
 * the session is nested, or why the child failed).  Returns 0, or -1 with
 * one line in err (the session must not start). */
int pty_supervise_accept(struct pty_supervisor *s, char *err, size_t errlen);

/* Answers one pending notification (call when the listener is readable).
 * Returns 0, or -1 when the listener is unusable (the session must end). */
int pty_supervise_handle(struct pty_supervisor *s);

/* The descriptor the loop waits on besides the listener: readable when a
 * check of what a process runs after an exec is due (pty_exec_verify.h),
 * or -1. */
int pty_supervise_verify_fd(const struct pty_supervisor *s);

/* Runs the checks that are due (call when that descriptor is readable);
 * a mismatch is concluded as a refusal (pty_exec_conclude_mismatch), and
 * may set s->end_session. */
void pty_supervise_verify(struct pty_supervisor *s);

/* Closes everything; safe after pty_supervise_init, however far the
 * preparation got. */
void pty_supervise_close(struct pty_supervisor *s);

/* What pty_exec_read learns besides the path, when asked: the process's
 * working directory (exec_cwd), its executable (exec_parent), and argv
 * (exec_arg, exec_argc).  A relative path names the directory, and a #!
 * script or the loader reads argv, whatever is asked: the chain needs
 * them. */
#define PTY_EXEC_NEED_CWD    1u
#define PTY_EXEC_NEED_PARENT 2u
#define PTY_EXEC_NEED_ARGV   4u
#define PTY_EXEC_NEED_ALL                                                      \
	(PTY_EXEC_NEED_CWD | PTY_EXEC_NEED_PARENT | PTY_EXEC_NEED_ARGV)

/* The facts a session's policy and audit log read: PTY_EXEC_NEED_ALL
 * with an audit log (`audited`), else those the policy reads (`reads`,
 * pty_policy_reads: NULL or not known, all). */
unsigned pty_supervise_need(const struct pty_policy_reads *reads,
			    bool audited);

/* Reading a request (exec_read.c) into c->rq[0], with the facts of `need`,
 * and what it leads to (pty_exec_chain.h) into the rest of c.  Returns 0
 * (decide c->rq[0] to c->rq[c->n - 1]), a positive errno to answer without
 * deciding (the path does not exist: the kernel would say the same, and
 * execvp(3) goes on to the next PATH entry), PTY_EXEC_READ_GONE (the process no
 * longer waits: nothing to answer), PTY_EXEC_READ_REFUSE (cannot be read or too
 * big) or PTY_EXEC_READ_UNSAFE (the user could change what runs): refuse
 * c->rq[c->n - 1], err says why, its request and path named as far as they
 * were learnt (what was asked always, unless its path cannot be read at
 * all: pty_exec.h). */
int pty_exec_read(int listener, const struct seccomp_notif *n,
		  const struct pty_exec_env *env, unsigned need,
		  struct pty_exec_chain *c, char *err, size_t errlen);

/* How pty_exec_read_args reads a process's memory (exec_mem.c). */
enum pty_exec_mem {
	PTY_EXEC_MEM_ANY,  /* process_vm_readv, else /proc/PID/mem */
	PTY_EXEC_MEM_VM,   /* process_vm_readv alone (for tests) */
	PTY_EXEC_MEM_FILE, /* /proc/PID/mem alone (for tests) */
};

/* The path at path_addr (into raw, PATH_MAX bytes; NULL: not read) and
 * the argv at argv_addr (into r: argc, argv, argv_len, bytes; NULL: not
 * read) of process p->pid,
 * bounded by PATH_MAX, PTY_EXEC_ARGS_MAX and PTY_EXEC_BYTES_MAX.  Returns
 * 0, ENAMETOOLONG for a path of PATH_MAX bytes or more (the kernel's
 * answer: not a refusal), or PTY_EXEC_READ_REFUSE with one line in err
 * (unreadable, too big).
 * Whether the PID still names the asking process is the caller's to
 * check afterwards. */
int pty_exec_read_args(struct pty_exec_proc *p, uint64_t path_addr,
		       uint64_t argv_addr, enum pty_exec_mem how, char *raw,
		       struct pty_exec_request *r, char *err, size_t errlen);

/* The filter program: libseccomp builds it, exported as raw BPF so that the
 * child only has to load it (supervise_filter.c).  Returns 0 with a
 * malloc'd program, or -1 with one line in err. */
int pty_supervise_build_filter(void **prog, size_t *count, char *err,
			       size_t errlen);

/* ---- Landlock (landlock.c) */

/*
 * The kernel's second check on every exec (Landlock): the policy names
 * where programs may be executed from, and the session's processes cannot
 * execute anything elsewhere, whatever they do between the supervisor's
 * check and the kernel's use of the path.
 *
 * The policy names its locations with two predicates the host reads once,
 * when the session starts (solved with the session facts: user, group,
 * host, remote_addr, session_mode, time_of_day - so a location may depend
 * on who logs in):
 *   exec_dir(D)    every file beneath directory D may be executed
 *   exec_file(F)   the file F may be executed
 * Paths are absolute; links are followed when the rule is made (the rule
 * is on the file or directory itself, not its name).  A path that does not
 * exist is left out (that narrows, never widens).  To these the host adds
 * the session's shell, the guard itself and the dynamic loader, without
 * which no session could start; allow_exec still decides each of them.
 *
 * A policy that names no location gets a ruleset of every file but those
 * exec_never names (below), or none when it names none either: every exec
 * is then decided by allow_exec alone, and the gap between the check and
 * the kernel's use of the path stays open but for the check after the
 * exec (pty_exec_verify.h; maelys-pty(1), THREAT MODEL).
 */
/* The most locations a policy may name (more is an error, not a cut). */
#define PTY_LANDLOCK_PATHS_MAX 256

/* The Landlock ABI version of the running kernel, or 0 without Landlock. */
int pty_landlock_abi(void);

/* Called with each location the policy names: `pred` is "exec_dir" or
 * "exec_file".  Returns 0 to go on, or -1 with one line in err to stop. */
typedef int (*pty_landlock_visit_fn)(void *arg, const char *pred,
				     const char *path, char *err,
				     size_t errlen);

/* Solves the policy of `d` with the session facts of `mode` and calls
 * `visit` for every exec_dir, then every exec_file, row; *n counts them.
 * The same reading pty_landlock_build makes (--check reports with it the
 * locations that do not exist).  Returns 0, or -1 with one line in err
 * (the policy failed, a location is not a path, more than
 * PTY_LANDLOCK_PATHS_MAX, or what `visit` said). */
int pty_landlock_locations(struct pty_decider *d, enum pty_mode mode,
			   pty_landlock_visit_fn visit, void *arg, size_t *n,
			   char *err, size_t errlen);

/* Builds the ruleset for the policy of `d` in session mode `mode`: its
 * locations (or, without any, every file), but the files exec_never names
 * (pty_landlock_never_find, pty_landlock_grant).  *fd is the ruleset
 * (close-on-exec; the child applies it), or -1 when none applies: the
 * policy names no location and no exec_never file, or the kernel has no
 * Landlock and
 * `required` is false (`note` then says so, for syslog; it also says when
 * a never-run file has a name the guard does not read).  `extra` (the
 * session's shell, then the guard) and the dynamic loader are always
 * added, the guard but when exec_never names it.  Returns 0, or -1 with
 * one line in err: a location that cannot be opened, too many, exec_never
 * of the shell or the loader, a required ruleset that cannot be made. */
int pty_landlock_build(struct pty_decider *d, enum pty_mode mode,
		       const char *const *extra, size_t nextra, bool required,
		       int *fd, char *note, size_t notelen, char *err,
		       size_t errlen);

/* ---- The files the kernel never executes (landlock_never.c) */

/*
 * exec_never(P) (pty_decide.h) names the programs a session never runs,
 * whatever is asked.  When the session starts the guard decides it for
 * every program it finds - the regular files with an execute bit in the
 * folders of PATH, /bin, /sbin, /usr/bin, /usr/sbin, /usr/local/bin,
 * /usr/local/sbin and the policy's exec_dir locations (each folder, not
 * the ones below it), by resolved path - and for every path it names by
 * itself, and leaves those files out of the session's Landlock ruleset:
 * the kernel then refuses to execute them (EACCES), whatever a process
 * does between the guard's check and the kernel's use of a path.
 */
/* The most files exec_never may hold for, the most rules a session's
 * ruleset may have, and the deepest folder granted entry by entry: more
 * is an error (no session), not a cut. */
#define PTY_NEVER_FILES_MAX    4096
#define PTY_LANDLOCK_RULES_MAX 65536
#define PTY_NEVER_DEPTH_MAX    64
/* How much of /proc/self/mountinfo is read, and how many rounds of mounts
 * of mounts are followed, to find a never-run file's other names. */
#define PTY_NEVER_MOUNTINFO_MAX ((size_t)16 << 20)
#define PTY_NEVER_MOUNT_ROUNDS  4

struct pty_landlock_never_file {
	dev_t dev;
	ino_t ino;
	nlink_t nlink; /* its names on its file system */
	char *path;    /* resolved, where it was found */
};

struct pty_landlock_never {
	struct pty_landlock_never_file *files;
	size_t n, cap;
	/* the folders on the way to them ("/" included), by identity */
	struct {
		dev_t dev;
		ino_t ino;
	} *way;
	size_t nway;
	size_t decided; /* the programs exec_never was decided for */
	/* one of them with a name (a hard link) in a folder the guard does
	 * not read, which the kernel would execute by that name; "" when
	 * there is none */
	char unseen[PATH_MAX];
};

/* Fills *set (zeroed first) with the files exec_never holds for in
 * session mode `mode`, looked for as said above, `dirs` (the exec_dir
 * locations) among the folders, each by every name it has there.  Nothing when the policy does not define
 * exec_never.  Returns 0, or -1 with one line in err (the policy failed,
 * too many files or folders: the session must not start). */
int pty_landlock_never_find(struct pty_decider *d, enum pty_mode mode,
			    const char *const *dirs, size_t ndirs,
			    struct pty_landlock_never *set, char *err,
			    size_t errlen);
void pty_landlock_never_free(struct pty_landlock_never *set);
/* Whether the file dev/ino is one of the set's. */
bool pty_landlock_never_has(const struct pty_landlock_never *set, dev_t dev,
			    ino_t ino);

/* Adds to `ruleset` the EXECUTE rules of `location` (absolute; links
 * followed) but the files of `set` beneath it: the location's own rule
 * when none is, else a rule for each entry of each folder on the way to
 * one but the entry that leads to it (symbolic links, and anything that is
 * such a file or folder under another name, get none).  A location that
 * does not exist is left out; a never-run file as a location is left out
 * too.  *rules counts the rules added.  Returns 0, or -1 with one line in
 * err (a location that cannot be opened or read, neither a folder nor a
 * regular file, not absolute; more than PTY_LANDLOCK_RULES_MAX rules). */
int pty_landlock_grant(int ruleset, const char *location,
		       const struct pty_landlock_never *set, size_t *rules,
		       char *err, size_t errlen);

#endif /* PTY_SUPERVISE_H */
