/* SPDX-License-Identifier: MIT */
/*
 * The audit log: one JSON object a line for every decision, chained so that
 * editing, deleting or reordering a record breaks the chain.
 *
 * Each record carries "prev", the HMAC-SHA-256 (under the audit key) of the
 * previous line of the file (of "" for the first line), and "mac", the
 * HMAC-SHA-256 of the record itself up to that field.  Writers from many
 * sessions append to one file under an exclusive flock(2); a record is
 * written with a single write(2) and fdatasync(2) before pty_audit_write
 * returns success.
 *
 * In a session the guard holds neither the key nor the log: at start it
 * forks an audit writer (pty_audit_start_writer, audit_writer.c) that
 * becomes the audit account for good (the account the guard is installed
 * setuid to), opens both, and appends every record the guard sends it; the
 * guard then drops to the user.  Nothing the user does to their own
 * processes reaches the writer (see audit_writer.c), so no user can hold
 * the log's lock or tear a record of another user's session.
 *
 * Record fields, in this order (absent ones omitted):
 *   v (1), seq (1, 2, ... over the whole file), time (RFC 3339 UTC with
 *   milliseconds, "2026-12-02T15:04:05.123Z"), host, user, session (32 hex
 *   digits), tty, remote, mode ("interactive" | "command" | "decide"),
 *   event, line (or line_sha256 when the line was refused for its size),
 *   exec_path,
 *   exec_request, exec_argv (array; or exec_argv_sha256), exec_argc,
 *   exec_cwd, exec_parent, exec_via, exec_through, pid, tokens (array),
 *   metachars (array of class names), decision, reasons (array of
 *   {"op","reason"}), refusal, error, log_reason, confirm_prompt, note,
 *   policy_sha256, recording, recording_bytes, recording_sha256,
 *   recording_complete (session_end's, when the session was recorded:
 *   pty_audit_rec.h; the writer appends them itself), prev, mac.
 * Strings are JSON-escaped (\" \\ \b \f \n \r \t, other control bytes as
 * \u00XX; bytes >= 0x80 are copied: the scanner admits only UTF-8 text, and a
 * line refused for its encoding is recorded by its SHA-256).
 *
 * Decisions the list above leaves open (audit.c follows them, and so must
 * any independent checker):
 * - There is no white space anywhere; a record is one line ending in "\n"
 *   and at most PTY_AUDIT_LINE_MAX bytes long, newline included.  Numbers
 *   (v, seq) are unsigned decimal integers without leading zeros, at most
 *   2^53 - 1.  Hex digits are lower case.
 * - Which fields appear: v, seq, time, session, event, prev and mac always;
 *   host, user, tty, remote, mode, note and decision (the event's outcome)
 *   when the pointer is not NULL ("" is written as ""); policy_sha256 when
 *   not ""; with a decision, metachars and reasons always (perhaps []),
 *   tokens unless the line is recorded by its SHA-256, refusal (the
 *   scanner's sentence, scan_refusal_reason()) when the scan refused the
 *   line, error when the verdict is PTY_VERDICT_ERROR, log_reason and
 *   confirm_prompt when not "".  The caller gives these as flat values
 *   (struct pty_audit_decision, struct pty_audit_exec below); the guard
 *   makes them from a decision in pty/session/guard_record.c, which
 *   follows these rules.
 * - An exec record (event "exec") has exec_path, exec_request, exec_argv,
 *   exec_argc, exec_cwd, exec_parent, then exec_via ("shebang" or
 *   "loader") and exec_through when the program is not what the process
 *   named (the interpreter of a #! script, the program of the dynamic
 *   loader: pty_exec.h), and pid, then decision ("allow", "deny",
 *   "error", "refused") and reasons (each {"op": exec_path, "reason": a
 *   deny_exec reason}), and error for "error" and "refused".
 *   exec_argv_sha256 (SHA-256 of every argument followed by a NUL byte)
 *   replaces exec_argv when the record would otherwise be too long.
 * - line_sha256 (SHA-256 of the raw bytes) replaces line, and tokens are
 *   left out, when the scan refused the line for its size or its encoding
 *   (line_by_sha256), when line_len >= SCAN_LINE_MAX (scanner.h), when
 *   the line is not well-formed UTF-8, or when the record would otherwise
 *   be longer than PTY_AUDIT_LINE_MAX.
 *   A record still too long is not written (pty_audit_write fails).
 * - Control characters are \u00XX with lower-case hex: U+0000..U+001F
 *   except the five short escapes, U+007F, and the C1 controls
 *   U+0080..U+009F (so that `cat` of a log cannot drive a terminal).  Other
 *   well-formed UTF-8 is copied.  In fields other than line (host, user,
 *   reasons, note, ...) a byte that is not part of well-formed UTF-8 is
 *   written as U+FFFD, so that every record is valid UTF-8 JSON.  Nothing
 *   else is escaped ("/" is not).
 * - The key is every byte of the key file (a trailing newline included).
 * - prev is the HMAC of the bytes of the previous line without its "\n"
 *   (of the empty string for line 1).  mac is the HMAC of the record's
 *   bytes from its "{" up to and including the "," that precedes "mac",
 *   that is, of the whole line but its last 73 bytes ("mac":" + 64 hex
 *   digits + "}).
 * - The log may be a regular file or a character device (the end-to-end
 *   test runs with the log on /dev/full, where every write fails and so
 *   every line is denied).  A character device is not read back: each
 *   record written to one has seq 1 and the prev of an empty log, and it
 *   is not fdatasync'ed.  Symbolic links, directories, FIFOs, sockets and
 *   block devices are refused.
 * - A handle belongs to the process that opened it: flock(2) locks belong
 *   to the open file description, so writes through a descriptor inherited
 *   over fork(2) would not exclude each other; pty_audit_write refuses
 *   them.
 * - pty_audit_write refuses to append to a log whose last line is torn (no
 *   final newline), does not parse, or is longer than PTY_AUDIT_LINE_MAX:
 *   the chain cannot be continued, and --verify-log says where it broke.
 *   When its own write or fdatasync fails, it cuts the file back to its
 *   old length (best effort) so that no partial record stays behind.
 */
#ifndef PTY_AUDIT_H
#define PTY_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* The longest record, its newline included: a longer line is an error. */
#define PTY_AUDIT_LINE_MAX ((size_t)65536)

/* The sizes a key file may have, in bytes (pty_audit_open). */
#define PTY_AUDIT_KEY_MIN 32
#define PTY_AUDIT_KEY_MAX 4096

struct pty_audit; /* opaque: the log descriptor and the key */

/* Who and where: the same for every record of a session. */
struct pty_audit_session {
	char id[33]; /* random, 32 hex digits */
	const char *host;
	const char *user;
	const char *tty;        /* "" when there is none (-c) */
	const char *remote;     /* "" when not over ssh */
	const char *mode;       /* "interactive", "command", "decide" */
	char policy_sha256[65]; /* of the policy text the session loaded */
};

/* Bytes recorded as one JSON string: s[0..len), any bytes (NUL too).  An
 * optional field given as a text is left out when s is NULL; one that is
 * always there is then "" (len must be 0). */
struct pty_audit_text {
	const char *s;
	size_t len;
};

/* The text of a NUL-terminated field of a fixed-size array, read within
 * its size; _or_none: left out of the record (s NULL) when "". */
struct pty_audit_text pty_audit_text_of(const char *s, size_t cap);
struct pty_audit_text pty_audit_text_or_none(const char *s, size_t cap);

/* One member of "reasons": {"op":op,"reason":reason}. */
struct pty_audit_reason {
	struct pty_audit_text op, reason;
};

/* What the decision of a line adds to its record (tokens to
 * confirm_prompt above).  pty/session/guard_record.c makes it from a
 * line's decision. */
struct pty_audit_decision {
	/* "tokens": the line's words (left out when the line is recorded
	 * by its SHA-256) */
	const struct pty_audit_text *tokens;
	size_t ntokens;
	/* "metachars": the names of its metacharacter classes */
	const char *const *metachars;
	size_t nmetachars;
	const struct pty_audit_reason *reasons;
	size_t nreasons;
	/* the line is recorded by its SHA-256 whatever it holds (the scan
	 * refused it for its size or its encoding) */
	bool line_by_sha256;
	/* "refusal" (the scanner's sentence), or NULL */
	const char *refusal;
	/* "error", "log_reason", "confirm_prompt": each left out when its
	 * s is NULL */
	struct pty_audit_text error, log_reason, confirm_prompt;
};

/* What an exec record adds (exec_path to pid above, then its decision).
 * pty/session/guard_record.c makes it from an exec request and its
 * decision. */
struct pty_audit_exec {
	/* "exec_path", "exec_request", "exec_cwd", "exec_parent": always */
	struct pty_audit_text path, request, cwd, parent;
	/* "exec_via" ("shebang" or "loader") and "exec_through", both left
	 * out when via is NULL: the program is what the process named */
	const char *via;
	struct pty_audit_text through;
	/* "exec_argv" (or "exec_argv_sha256") and "exec_argc": argc
	 * arguments, argv[i] of argv_len[i] bytes followed by a NUL byte
	 * (which exec_argv_sha256 covers) */
	const char *const *argv;
	const size_t *argv_len;
	size_t argc;
	pid_t pid;
	/* "reasons": each recorded as {"op": path, "reason": reason} */
	const struct pty_audit_text *reasons;
	size_t nreasons;
	struct pty_audit_text error; /* "error", left out when s is NULL */
};

/* One event to record. */
struct pty_audit_event {
	/* "session_start", "line", "command", "confirm", "exec",
	 * "session_end" */
	const char *event;
	const char *line; /* the raw line (may be NULL for session events) */
	size_t line_len;
	/* the decision of the line, or NULL */
	const struct pty_audit_decision *decision;
	/* the word recorded as "decision": "allow", "allow_with_log",
	 * "deny", "refused", "error", "confirmed", "declined", ... */
	const char *outcome;
	const char *note; /* free text for session events, or NULL */
	/* event "exec": what a process of the session asked to run, and
	 * the supervisor's decision, or NULL */
	const struct pty_audit_exec *exec;
};

/* Opens the log in this process (creating it with mode 0600 if missing)
 * for appending and reading its last record, with O_NOFOLLOW and
 * O_CLOEXEC, and reads the key file (at least 32 bytes, at most 4096;
 * refused if a symlink, not a regular file, or readable or writable by
 * anyone but its owner: 0400 or 0600).  An existing log must be
 * a regular file owned by this process's effective uid or root,
 * writable by nobody else and readable by nobody but its owner and the
 * owner's own group, or a character device.  Returns 0, or -1 with
 * one line in err. */
int pty_audit_open(const char *log_path, const char *key_path,
		   struct pty_audit **out, char *err, size_t errlen);

/* Starts an audit writer process (see above) that opens the log and key
 * as pty_audit_open does, with this process's effective identity made its
 * real and saved one too; returns a handle whose pty_audit_write sends the
 * record to it and returns once it is on disk (or after 30 s without an
 * answer: then this and every later write fails).  The writer ends when
 * the handle is closed.  Returns 0, or -1 with one line in err (the
 * writer's reason when it could not open the log or key). */
int pty_audit_start_writer(const char *log_path, const char *key_path,
			   struct pty_audit **out, char *err, size_t errlen);

/* A writer's handle only (no-ops otherwise): the record the writer
 * appends if this process goes away without pty_audit_session_done (a
 * guard that is killed still leaves its session's end), and the word that
 * the session's end is recorded.  Return 0, or -1 with one line in err. */
int pty_audit_set_fallback(struct pty_audit *a,
			   const struct pty_audit_session *s,
			   const struct pty_audit_event *e, char *err,
			   size_t errlen);
int pty_audit_session_done(struct pty_audit *a, char *err, size_t errlen);

/* The writer's pid for a writer's handle; 0 otherwise. */
pid_t pty_audit_writer_pid(const struct pty_audit *a);

/* Closes the log and wipes the key from memory.  NULL is allowed. */
void pty_audit_close(struct pty_audit *a);

/* Appends one record (see above).  Returns 0 once the record is on disk, -1
 * with the reason in err otherwise (then nothing, or a torn line that the
 * verifier reports, was written: the caller denies). */
int pty_audit_write(struct pty_audit *a, const struct pty_audit_session *s,
		    const struct pty_audit_event *e, char *err, size_t errlen);

/* Checks a whole log against the key: every line parses, seq counts up by
 * one from 1, every prev is the HMAC of the line before, every mac matches.
 * Writes "FILE: N records, chain intact" or "FILE: record N (line L): what
 * is wrong" to `report` (NULL: no report), or "FILE: cannot check: why".
 * Returns 0 intact, 1 broken, 2 cannot check (the log or the key cannot be
 * read; the key follows pty_audit_open's rules, and the log must be a
 * regular file, not a symbolic link).  Reads at most 2 * PTY_AUDIT_LINE_MAX
 * bytes at a time, however long the log. */
int pty_audit_verify(const char *log_path, const char *key_path, FILE *report);

/* Reading a log record by record, each verified before it is handed out
 * (what --verify-log and `maelys-pty log` are made of; audit_verify.c).
 * `paths` are the files of one log, oldest first.  A reader reads at
 * most 2 * PTY_AUDIT_LINE_MAX bytes at a time, however long the log. */
struct pty_audit_reader;

/* Opens a reader over npaths (at least 1) files with the key (its
 * rules are pty_audit_open's).  Returns 0, or -1 with one line in err
 * (the key cannot be read, no memory). */
int pty_audit_reader_open(const char *const *paths, size_t npaths,
			  const char *key_path, struct pty_audit_reader **out,
			  char *err, size_t errlen);

/* The next record: its bytes without the newline in [*line, *line +
 * *len) (followed by a NUL, valid until the next call), verified as
 * pty_audit_verify checks it.  Returns 0; 1 at the end of the last file,
 * every record verified; -1 when the log is broken here (err: "FILE:
 * record N (line L): what is wrong"); -2 when a file cannot be read
 * (err: "FILE: cannot check: why").  After -1 or -2, every later call
 * returns the same. */
int pty_audit_reader_next(struct pty_audit_reader *r, const char **line,
			  size_t *len, char *err, size_t errlen);

/* The file (an index into paths) and line number of the record the last
 * call returned, and how many records were verified so far. */
size_t pty_audit_reader_file(const struct pty_audit_reader *r);
unsigned long long pty_audit_reader_line(const struct pty_audit_reader *r);
unsigned long long pty_audit_reader_count(const struct pty_audit_reader *r);

/* Closes it and wipes the key.  NULL is allowed. */
void pty_audit_reader_close(struct pty_audit_reader *r);

/* SHA-256 of `len` bytes as 64 lower-case hex digits; "" in the unlikely
 * case that libsodium fails (so that nothing passes for a digest). */
void pty_sha256_hex(const void *data, size_t len, char hex[65]);

/* 32 random hex digits (getrandom(2)).  Returns 0, or -1. */
int pty_audit_session_id(char id[33]);

#endif /* PTY_AUDIT_H */
