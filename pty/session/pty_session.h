/* SPDX-License-Identifier: MIT */
/*
 * session/: what a session is, for the rooms that run one (exec/, line/,
 * check/) and for main.c - its settings (the configuration file and the
 * command line), and the guard that concludes every decision.  The words
 * a person reads are pty_messages.h's.
 */
#ifndef PTY_SESSION_H
#define PTY_SESSION_H

#include "pty_audit.h"
#include "pty_audit_rec.h"
#include "pty_decide.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---- The configuration ---- */

/*
 * The system configuration, /etc/maelys-pty/maelys-pty.conf by default (the
 * path is fixed at build time: meson option config_file).  Nothing a user
 * controls - environment, files in the home directory - can change it.
 *
 * The file and every file it names that decides something (the policy) are
 * opened the way sudo and sshd open theirs: with O_NOFOLLOW, checked with
 * fstat(2) on the descriptor - a regular file, owned by root, not writable
 * by group or others - and every directory from / down to it owned by root
 * and not writable by group or others (a root-owned sticky directory such
 * as /tmp is accepted: nobody else can rename or remove what is in it).
 *
 * Syntax: one "key = value" a line; blank lines and lines starting with #
 * are ignored; an unknown key, a key given twice or a malformed value is an
 * error (a typo must not quietly mean a default).  Keys:
 *   policy = /path/to/policy.dl          (required)
 *   shell = /bin/bash
 *   path = /usr/local/bin:/usr/bin:/bin  (PATH of sessions)
 *   audit_log = /var/log/maelys-pty/audit.log   (absent: no audit log)
 *   audit_key = /etc/maelys-pty/audit.key       (required with audit_log:
 *                                         the audit log's signing state)
 *   audit_verify_key = /etc/maelys-pty/audit.pub (default: audit.pub in
 *                                         audit_key's folder; the public
 *                                         key --verify-log checks with)
 *   syslog = on | off | records          (default on; records: on, and
 *                                         every audit record to the
 *                                         journal or syslog, sent by
 *                                         the audit writer)
 *   idle_timeout = SECONDS               (0 = none, the default)
 *   max_denials = N                      (0 = unlimited, the default)
 *   on_audit_failure = deny | terminate  (default deny)
 *   record = /var/log/maelys-pty/sessions    (absent: no recording; needs
 *                                         audit_log: the audit writer
 *                                         keeps each interactive session's
 *                                         recording there, DIR/ID.cast)
 *   record_input = on | off              (default off: typed keys too)
 *   record_max = SIZE                    (bytes, or with K, M, G; default
 *                                         256M, from 1M to 64G)
 *   record_share = SIZE                  (what one user's open recordings
 *                                         may hold together; the same
 *                                         bounds; default an eighth of
 *                                         the recordings' file system)
 *   on_record_failure = deny | terminate (default deny: once the
 *                                         recording stops, every later
 *                                         line and exec is refused)
 *   landlock = auto | required           (default auto: the exec supervisor
 *                                         applies the policy's exec_dir and
 *                                         exec_file with Landlock when the
 *                                         kernel has it; required: a session
 *                                         does not start without both)
 * Blanks around the key and the value, and before a #, are ignored; no trailing
 * comments and no quoting.  Every path is absolute; path is a list of
 * absolute directories with no empty entry (an empty or relative entry
 * would let the user's working directory into PATH).  Booleans are written
 * in lower case.  A key with no value, a control character (a CR from a
 * CRLF file included), a NUL byte, a line longer than PTY_CONFIG_LINE_MAX
 * bytes or a file larger than PTY_CONFIG_SIZE_MAX bytes is an error.
 * audit_key without audit_log is accepted and unused.  An error inside the
 * file reads "FILE:LINE: what"; one about the whole file "FILE: what".
 *
 * pty_config_load checks that the policy path is absolute but does not open
 * it: whoever loads the policy reads it with pty_secure_read, so the checks
 * apply to the descriptor actually read.
 */

/* Bounds: bytes in the file, bytes in a line (its newline not counted),
 * the largest idle_timeout (a week, in seconds) and max_denials. */
#define PTY_CONFIG_SIZE_MAX         65536u
#define PTY_CONFIG_LINE_MAX         4096
#define PTY_CONFIG_IDLE_TIMEOUT_MAX 604800u
#define PTY_CONFIG_MAX_DENIALS_MAX  1000000u
/* record_max: its default and bounds */
#define PTY_CONFIG_RECORD_MAX_DEFAULT (256ull << 20)
#define PTY_CONFIG_RECORD_MAX_MIN     (1ull << 20)
#define PTY_CONFIG_RECORD_MAX_MAX     (64ull << 30)

enum pty_audit_failure { PTY_AUDIT_FAIL_DENY, PTY_AUDIT_FAIL_TERMINATE };

struct pty_config {
	char policy[PATH_MAX];
	char shell[PATH_MAX];
	char path_env[4096];
	char audit_log[PATH_MAX]; /* "" = none */
	char audit_key[PATH_MAX];        /* the state (pty_audit.h) */
	char audit_verify_key[PATH_MAX]; /* pk_1: "" without audit_key */
	bool syslog;         /* on (or records): the guard's summaries */
	bool syslog_records; /* records: the writer sends every record */
	unsigned idle_timeout; /* seconds; 0 = none */
	unsigned max_denials;  /* 0 = unlimited */
	enum pty_audit_failure on_audit_failure;
	bool landlock_required; /* landlock = required */
	/* exec_decisions = optional: a policy that defines no allow_exec
	 * (it decides lines only) may run a session whose programs are
	 * recorded, not decided.  A configuration file's default is
	 * required; a session run with --policy and no configuration is
	 * optional (pty_config_for_policy_only). */
	bool exec_decisions_optional;
	/* record = DIR ("" = none), record_input, record_max (bytes),
	 * record_share (bytes; 0: an eighth of DIR's file system, which
	 * only the audit writer knows), on_record_failure */
	char record[PATH_MAX];
	bool record_input;
	unsigned long long record_max, record_share;
	enum pty_audit_failure on_record_failure;
};

/* The defaults (no policy: the file must name one). */
void pty_config_defaults(struct pty_config *c);

/* The settings of a session run with --policy and no configuration (not
 * installed privileged): the defaults, the policy `policy`, no syslog, and
 * exec_decisions = optional. */
void pty_config_for_policy_only(struct pty_config *c, const char *policy);

/* Opens `path` securely (see above) and parses it into *c (defaults
 * first).  Returns 0, or -1 with one line in err that names the file and
 * what is wrong ("/etc/maelys-pty/maelys-pty.conf: writable by group");
 * on failure *c holds the defaults, never part of a refused file. */
int pty_config_load(const char *path, struct pty_config *c, char *err,
		    size_t errlen);

/* Opens `path` for reading with the checks above.  `path` must be
 * absolute; its directories are checked as spelled, and a symbolic link
 * anywhere on it is refused.  Returns the descriptor (O_CLOEXEC, blocking),
 * or -1 with one line in err. */
int pty_secure_open(const char *path, char *err, size_t errlen);

/* Reads the whole of an open file `fd` (at most `max` bytes; `path` names
 * it in errors) into a malloc'd buffer, NUL-terminated (*len does not count
 * it).  Returns 0, or -1 with one line in err (too big, read error, out of
 * memory) and *text NULL.  The descriptor stays open. */
int pty_read_whole(int fd, const char *path, size_t max, char **text,
		   size_t *len, char *err, size_t errlen);

/* Reads a whole securely opened file (at most `max` bytes) into a malloc'd
 * buffer.  Returns 0, or -1 with one line in err (too big, read error).
 * The buffer is NUL-terminated (*len does not count it; the text may hold
 * NUL bytes of its own) and the caller frees it; on failure *text is NULL
 * and *len 0. */
int pty_secure_read(const char *path, size_t max, char **text, size_t *len,
		    char *err, size_t errlen);

/* ---- The command line ---- */

/*
 * The command line of maelys-pty.  Started as a login shell (argv[0]
 * beginning with '-') or by sshd with -c, it takes no options a user could
 * set; the options exist for administrators and tests, and a privileged
 * (setuid) guard refuses those that would change what it trusts.
 */

struct pty_options {
	const char *config_path;  /* --config, or NULL: the built-in path */
	const char *policy_path;  /* --policy (no configuration), or NULL */
	const char *shell_path;   /* --shell, or NULL: the configuration's */
	const char *path_env;     /* --path, or NULL: the configuration's */
	const char *history_path; /* --history: NULL = ~/.maelys_pty_history */
	const char *command;      /* -c COMMAND, or NULL */
	const char *verify_log;   /* --verify-log FILE, or NULL */
	char *const *verify_more; /* the FILEs after it (oldest first) */
	size_t nverify_more;
	const char *state_path;   /* --state FILE, or NULL */
	const char *new_audit_key; /* --new-audit-key PUB, or NULL */
	const char *check_user;   /* --check --user NAME, or NULL */
	bool check;               /* --check */
	bool werror;              /* --check --werror: a policy warning fails */
	bool list;                /* --list: what may I run (pty_mayrun.h) */
	bool login;               /* argv[0] starts with '-' */
	bool help;
	bool version;
};

/* Parses argv.  Returns 0, or 2 after printing a usage error to `err`. */
int pty_options_parse(int argc, char **argv, struct pty_options *o, FILE *err);
void pty_options_usage(FILE *f);

/* The configuration file fixed at build time (meson option config_file). */
extern const char pty_config_file[];
/* Defaults used without a configuration (--policy). */
extern const char pty_default_shell[];
extern const char pty_default_path[];

/* ---- The audit account ---- */

/*
 * Deployed, the guard is installed setuid to its audit account
 * (maelys-pty-setup): only its audit writer keeps that account; the
 * guard itself becomes the caller, for good, before it reads or runs
 * anything of theirs.  account.c owns these steps, for a session
 * (main.c) and for `maelys-pty decide` alike.
 */

/* Whether this process runs with the privileges of an installed guard
 * (*privileged), or -1 with the sentence for an installation that must
 * not run (setuid root, a set-group-ID bit left) in *why. */
int pty_privileges_of_install(bool *privileged, const char **why);

/* Drops the audit account and any set-group-ID group for good: real,
 * effective and saved ids become the caller's, and are checked.  Returns
 * 0, or -1. */
int pty_drop_privileges(void);

/* ---- The guard ---- */

/*
 * What a guard keeps for a whole session, and how it concludes each line:
 * the settings in effect, the audit log, the denial count.
 *
 * pty_guard_conclude turns a line into an act, failing closed at each step:
 *   - the policy's verdict (pty/decide/decide.c); require_confirm asks the user
 *     (when there is one to ask: the line waits in the guard, the caller
 *     asks in its own loop - signals and execs are served meanwhile - and
 *     gives the answer to pty_guard_answer) and decides again with
 *     confirmed(Cmd);
 *   - every decision is recorded in the audit log when there is one, and a
 *     line runs only once its record is written (allow_with_log needs a
 *     log: without one it is refused); a record that cannot be written
 *     denies the line, and with on_audit_failure = terminate ends the
 *     session;
 *   - every refusal is shown (with the policy's reasons), summarised to
 *     syslog (authpriv), and counted: at max_denials the session ends.
 */

struct pty_guard {
	/* the session's settings: the configuration's (its defaults
	 * without one), with what the options of an unprivileged guard
	 * replace (policy, shell, PATH) written over them */
	struct pty_config cfg;
	/* who the session is: the decider's (pty_decider_init) */
	const struct pty_identity *who;
	struct pty_audit *audit; /* NULL: no audit log */
	struct pty_audit_session asess;
	unsigned denials;  /* lines refused in this session */
	/* the session's recording (record = DIR, interactive sessions), or
	 * NULL; rec_told: its stop was said and logged (guard_cast.c) */
	struct pty_audit_rec *rec;
	bool rec_told;
	bool end_recorded; /* the session_end record is written */
	/* what session_end says (pty_audit.h): lines and execs decided,
	 * execs concluded (pty_guard_exec_concluded), and the shell's wait
	 * status once it is known (pty_guard_set_exit) */
	unsigned long long decisions, execs;
	bool exited;
	int wait_status;
	/* why the configured audit log could not be opened by a guard that
	 * may be nested in a session (see main.c); "" otherwise.  A session
	 * whose supervisor is not nested does not start with it set. */
	char audit_missing[1100];
	/* the options that replace the configuration's policy, shell or PATH
	 * were given: refused once the guard finds itself nested in a
	 * session (whose line rules it must not loosen) */
	bool overridden;
	/* the prompt the line being concluded was typed after, still on the
	 * screen above the refusal (the relay's), and the terminal's width:
	 * where a caret goes under it (pty_say_where).  NULL in -c mode and
	 * for the exec supervisor: no line on the screen to point into */
	const char *prompt;
	unsigned screen_cols; /* 0: not known */
	/* a line waiting for the user's answer to require_confirm (between
	 * PTY_ACT_ASK and pty_guard_answer); dec's tokens point into line */
	struct {
		bool active;
		char line[SCAN_LINE_MAX];
		size_t len;
		enum pty_mode mode;
		struct pty_decision dec;
		/* dec's facts, copied from the decider's input EDB (which
		 * the execs decided meanwhile reuse); NULL until needed */
		maelys_datalog_input_edb_t *facts;
	} pending;
};

enum pty_act {
	PTY_ACT_SKIP, /* an empty line: nothing to do */
	PTY_ACT_RUN,  /* send it to the shell */
	PTY_ACT_DENY, /* refused; the user was told why */
	PTY_ACT_END,  /* refused, and the session must end now */
	PTY_ACT_ASK,  /* ask the user pty_guard_question(), then answer */
};

/* Decides, records and reports one line (see above); messages go to fd,
 * each line ending in eol.  With
 * `can_ask` a line that needs confirmation is kept and PTY_ACT_ASK
 * returned; without, it is refused (a command has no terminal). */
enum pty_act pty_guard_conclude(struct pty_guard *g, struct pty_decider *d,
				const char *line, size_t len, enum pty_mode mode,
				bool can_ask, int fd, const char *eol);

/* The question of the line kept by PTY_ACT_ASK. */
const char *pty_guard_question(const struct pty_guard *g);

/* The user's answer to it (false also for "no answer": Ctrl-C, the idle
 * timeout, a terminal gone): recorded, then the line decided again with
 * confirmed(Cmd) on yes and concluded as pty_guard_conclude does.  The
 * kept line is then available as pty_guard_kept_line until the next
 * line. */
enum pty_act pty_guard_answer(struct pty_guard *g, struct pty_decider *d,
			      bool yes, int fd, const char *eol);

/* The line kept for the question, and its length (to send it once it may
 * run). */
const char *pty_guard_kept_line(const struct pty_guard *g, size_t *len);

/* Writes the audit record `e` (nothing to do without a log).  Returns
 * PTY_ACT_RUN when it is written; when it cannot be, says so to syslog,
 * and returns PTY_ACT_END after telling the user with on_audit_failure =
 * terminate, else PTY_ACT_DENY with the reason in err: the caller refuses
 * what the record was for, if it was to run, and counts it. */
enum pty_act pty_guard_write_record(struct pty_guard *g,
				    const struct pty_audit_event *e, int fd,
				    const char *eol, char *err, size_t errlen);

/* Counts a refusal shown to the user (max_denials counts lines and execs
 * alike): PTY_ACT_DENY, or PTY_ACT_END at the limit, the user told and
 * the session's end recorded.  In an interactive session with max_denials
 * set, a refusal that leaves PTY_GUARD_WARN_LEFT or fewer says how many
 * ("2 refusals left in this session"): a person may still change course;
 * a -c command is refused once and ends anyway. */
enum pty_act pty_guard_refused(struct pty_guard *g, int fd, const char *eol);

/* After an exec is concluded (pty_exec_conclude; `decided`: by the
 * policy, not only recorded): counted for session_end, and the writer's
 * fallback session_end brought up to date (lines do the same in
 * pty_guard_conclude and pty_guard_answer), so a guard killed at any
 * moment leaves the counts of every decision it concluded.  An update
 * costs one message to the writer and its answer, no disk write
 * (bench_pty -p audit measures it). */
void pty_guard_exec_concluded(struct pty_guard *g, bool decided);

/* The shell's wait status, for session_end's exit_status or signal. */
void pty_guard_set_exit(struct pty_guard *g, int wait_status);

/* Frees what the guard holds and closes its audit handle. */
void pty_guard_close(struct pty_guard *g);

/* Records a session event ("session_start", "session_end") with a note;
 * a session has one session_end record, the first one asked for (the
 * lockout's or the idle timeout's note wins over the plain end's).
 * Returns 0, or -1 when there is an audit log and the record failed. */
int pty_guard_event(struct pty_guard *g, const char *event, const char *note);

/* Makes `who` the guard's identity, and the audit log's session names
 * (user, host, tty, remote) its strings. */
void pty_guard_set_identity(struct pty_guard *g, const struct pty_identity *who);

/* While this process is still the audit account: starts the audit
 * writer of g->cfg's audit_log (none configured: g->audit stays NULL),
 * then, when `privileged`, drops every privilege (pty_drop_privileges),
 * whether the writer started or not.  Returns 0; 1 when the writer did
 * not start (err: PTY_MSG_AUDIT_LOG with why; the privileges are gone);
 * -1 when they could not be dropped (err: PTY_MSG_CANNOT_DROP). */
int pty_guard_start_audit(struct pty_guard *g, bool privileged, char *err,
			  size_t errlen);

/* ---- The session recording (guard_cast.c; pty_audit_rec.h) ---- */

/* Starts the recording of an interactive session when the configuration
 * asks for one (record = DIR) and there is an audit writer to keep it;
 * the terminal's size and TERM go in its header.  Returns 0, or -1 with
 * err (the session must not start). */
int pty_guard_record_start(struct pty_guard *g, unsigned cols, unsigned rows,
			   const char *term, char *err, size_t errlen);

/* Learns whether the recording has stopped and applies on_record_failure
 * the first time (the user told, syslog): PTY_ACT_RUN while it records
 * (or there is none), PTY_ACT_DENY once it stopped with deny (the caller
 * refuses what would run), PTY_ACT_END with terminate. */
enum pty_act pty_guard_recording(struct pty_guard *g, int fd, const char *eol);

/* The marker of a decision's record (written or not) in the recording:
 * "allow: LINE", "deny: LINE", "exec deny: PATH" (LINE cut to 200 bytes);
 * nothing for an allowed exec or a confirmed line (its "line" record
 * follows). */
void pty_guard_mark(struct pty_guard *g, const struct pty_audit_event *e,
		    bool written);

/* Sends what is left to the writer and closes the recording: called
 * before the session_end record, which then describes the file. */
void pty_guard_record_end(struct pty_guard *g);

/* Writes a line to syslog (authpriv) when the guard logs there. */
void pty_guard_log(const struct pty_guard *g, int priority, const char *fmt,
		   ...) __attribute__((format(printf, 3, 4)));

#endif /* PTY_SESSION_H */
