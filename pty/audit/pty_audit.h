/* SPDX-License-Identifier: MIT */
/*
 * The audit log: one JSON object a line for every decision, chained and
 * signed so that editing, deleting, reordering or cutting off records is
 * detected, and forward-secure, so that whoever steals the host's signing
 * state later cannot forge or rewrite anything written before.
 *
 * The scheme: forward-secure signatures by key-certification chain, the
 * "certification" construction of forward security that M. Bellare and
 * S. Miner describe ("A Forward-Secure Digital Signature Scheme", CRYPTO
 * 1999, LNCS 1666), after R. Anderson posed forward security for
 * signatures (invited lecture, ACM CCS 1997).  Each record n is signed
 * with its own Ed25519 key sk_n (libsodium crypto_sign_*) and carries
 * "key", the public key pk_{n+1} of the next record, so the log itself is
 * the chain of certificates from pk_1, the verification key, which is all
 * a verifier needs.  The keys come from a seed that evolves one way:
 *   (pk_n, sk_n) = crypto_sign_seed_keypair(seed_n)
 *   seed_{n+1}   = HMAC-SHA-256(key = seed_n, "maelys-pty audit seed
 *                  evolution v2")      (audit_key.c, AUDIT_EVOLVE_LABEL)
 * and seed_n is overwritten by seed_{n+1} (the state rewritten and
 * fdatasync'ed) as soon as record n is on disk.  A thief of the state
 * holds seed_m for the next record m only: signing record k < m needs
 * sk_k, and seed_k cannot be had from seed_m (HMAC-SHA-256 is one-way),
 * so no earlier record can be changed, inserted or written anew.  (The
 * state is overwritten in place; on a copy-on-write file system - btrfs,
 * ZFS - an old block may stay on the device until it is reused, so the
 * state belongs on one that writes in place, as ext4 and XFS do.)  Not
 * journald's Forward Secure Sealing (Marson and Poettering, "Practical
 * Secure Logging: Seekable Sequential Key Generators", ESORICS 2013): it
 * needs its own primitives (a seekable sequential key generator over
 * modular squaring) that libsodium does not have, and it seals by time
 * epoch, not by record.  The certification chain costs one signature a
 * record with primitives the project already has.
 *
 * The state (the file the configuration's audit_key names; 0600, owned
 * by the audit account) holds the seq of the next record n, seed_n and
 * the SHA-256 of record n-1, in 187 bytes of text rewritten in place
 * (whole or not at all: under a file size limit, which the writer has
 * from the user, shorter than that it is not written):
 *   maelys-pty audit state v2\n  seq <16 digits>\n  seed <64 hex>\n
 *   last <64 hex>\n
 * An exclusive flock(2) on the state serializes every writer of the log
 * (so the log file itself may be renamed by logrotate).  The verification
 * key (audit_verify_key, default audit.pub beside the state) is pk_1 as 64
 * hex digits and a newline: public, and the administrator keeps a copy,
 * or its fingerprint (SHA256:base64 of SHA-256 of the 32 bytes, as
 * maelys-pty-setup and --verify-log print it), off the host.
 *
 * Under the lock, each append (audit.c):
 * - checks that the configured log path still names the file it holds
 *   (stat against fstat); if not (rotated, removed), opens or creates the
 *   path (a log a writer creates is 0600 whatever the umask it
 *   inherited from the user's guard);
 * - compares the log's last record with the state: it must be record n-1
 *   with the SHA-256 the state holds, or record n signed with sk_n (a
 *   writer crashed between the record and the state: the state is
 *   evolved once, seed_{n+1} being derived, never random).  Anything else
 *   is a broken log: the writer refuses, and says to run --verify-log;
 * - on a new empty file when n > 1, first writes a record of event
 *   "log_continued" (session 32 zeros; "prev_file", the previous file's
 *   current name when this writer held it and it is plain printable
 *   ASCII without '"' or '\\', else left out), chained as every record;
 * - frames, signs, writes and fdatasyncs the record, then the state.
 * A character device as the log (/dev/null, /dev/full) is not read back:
 * seq and prev come from the state.
 * In the audit writer process (pty_audit_start_writer), with syslog = on
 * (pty_audit_set_syslog), once a "session_end" record is on disk and
 * the lock released (syslog(3) may block), the writer sends
 * PTY_AUDIT_ANCHOR_FMT
 * ("audit anchor: seq N sha256 H", H the SHA-256 of that record's line)
 * to syslog (authpriv, info), so that a collector off the host holds a
 * recent anchor to compare with --verify-log's "last record" line.
 *
 * The frame (v 2):
 *   {"v":2,"seq":N,"time":"...", BODY ,"prev":"<SHA-256 hex of record
 *   N-1's line, its newline excluded; 64 zeros for seq 1>","key":"<pk_{N+1},
 *   64 hex>","sig":"<128 hex>"}
 * sig is the Ed25519 signature with sk_N of every byte from "{" up to and
 * including the "," before "sig".  A v1 record (an HMAC "mac") is not
 * read: --verify-log says "written by an older maelys-pty (v1)".
 *
 * In a session the guard holds neither the state nor the log: at start it
 * forks an audit writer (pty_audit_start_writer, audit_writer.c) that
 * becomes the audit account for good (the account the guard is installed
 * setuid to), opens both, and appends every record the guard sends it; the
 * guard then drops to the user.  Nothing the user does to their own
 * processes reaches the writer (see audit_writer.c), so no user can hold
 * the log's lock or tear a record of another user's session.
 *
 * Record fields, in this order (absent ones omitted):
 *   v (2), seq (1, 2, ... over the whole log, across its files), time (RFC 3339 UTC with
 *   milliseconds, "2026-12-02T15:04:05.123Z"), host, user, session (32 hex
 *   digits), tty, remote, mode ("interactive" | "command" | "decide"),
 *   event, line (or line_sha256 when the line was refused for its size),
 *   exec_path,
 *   exec_request, exec_argv (array; or exec_argv_sha256), exec_argc,
 *   exec_cwd, exec_parent, exec_via, exec_through, exec_ran,
 *   exec_ran_dev, exec_ran_ino, pid, tokens (array),
 *   metachars (array of class names), decision, reasons (array of
 *   {"op","reason"}), refusal, error, log_reason, confirm_prompt, facts
 *   (or facts_sha256), exit_status, signal, decisions, refusals, execs,
 *   note, policy_sha256, recording, recording_bytes, recording_sha256,
 *   recording_complete (session_end's, when the session was recorded:
 *   pty_audit_rec.h; the writer appends them itself), prev_file, prev,
 *   key, sig.
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
 * - Which fields appear: v, seq, time, session, event, prev, key and sig
 *   always;
 *   host, user, tty, remote, mode, note and decision (the event's outcome)
 *   when the pointer is not NULL ("" is written as ""); policy_sha256 when
 *   not ""; with a decision, metachars and reasons always (perhaps []),
 *   tokens unless the line is recorded by its SHA-256, refusal (the
 *   scanner's sentence, scan_refusal_reason()) when the scan refused the
 *   line, error when the verdict is PTY_VERDICT_ERROR (the policy could
 *   not be evaluated) or PTY_VERDICT_NO_CWD (the line was refused because
 *   the shell's working directory, which the policy reads, cannot be
 *   named: the reason), log_reason and
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
 * - An exec_mismatch record (event "exec_mismatch": a process that, once
 *   an exec the guard allowed was over, ran another program than the one
 *   decided, and that the guard ended) has exec_path and exec_request (what
 *   was decided), exec_ran (the executable the process runs, as the kernel
 *   names it: /proc/PID/exe), exec_ran_dev ("MAJOR:MINOR") and
 *   exec_ran_ino (its device and inode), pid, decision ("mismatch") and
 *   error (the sentence the user was shown).
 * - facts, in a decision record (line, command, confirm, exec) whose
 *   decision the policy was asked for: every input fact the policy was
 *   given, in the order they were added to the input EDB, each an array
 *   [predicate, arg, ...] with strings as JSON strings (escaped as above)
 *   and integers as JSON integers (decimal, "-" for negative ones, no
 *   leading zeros, within 64 bits): [["command","git"],["argv",1,"git"],
 *   ["arg","push"],["argv",2,"push"],["argc",2],["user","alice"],...].  It is left out
 *   when the policy was not asked (a line the scanner refused; an exec
 *   refused or recorded before it was decided).  A "confirm" record
 *   carries the facts of the decision that asked for the confirmation.
 *   When the record would be too long with it, facts_sha256 (the SHA-256
 *   of the array's JSON text exactly as facts would have held it)
 *   replaces it first; if that is still too long the line and argv give
 *   way as below.  Such a record cannot be decided again.
 * - session_end carries exit_status (the shell's, 0-255) or signal (the
 *   name of the signal that ended it, "SIGKILL"), then decisions (lines
 *   and execs decided), refusals (those refused) and execs (execs
 *   concluded, decided or only recorded), all counted by the guard.
 *   exit_status and signal are left out when the session ended before
 *   its shell did.  The writer's fallback record
 *   (the guard went away without ending the session) carries the counts
 *   as of the guard's last decision and no exit_status, and its note
 *   says so.
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
 * - The log may be a regular file or a character device (the end-to-end
 *   test runs with the log on /dev/full, where every write fails and so
 *   every line is denied).  A character device is not read back (seq and
 *   prev come from the state), and it is not fdatasync'ed.  Symbolic links, directories, FIFOs, sockets and
 *   block devices are refused.
 * - A handle belongs to the process that opened it: flock(2) locks belong
 *   to the open file description, so writes through a state descriptor
 *   inherited over fork(2) would not exclude each other; pty_audit_write
 *   refuses them.
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
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* The longest record, its newline included: a longer line is an error. */
#define PTY_AUDIT_LINE_MAX ((size_t)65536)

/* The anchor sent to syslog after a session's end (see above). */
#define PTY_AUDIT_ANCHOR_FMT "audit anchor: seq %llu sha256 %s"

/* The size of the state file, in bytes (see above). */
#define PTY_AUDIT_STATE_SIZE 187

struct pty_audit; /* opaque: the log descriptor and the state */

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

/* One column of an input fact: a string, or an integer when is_integer. */
struct pty_audit_fact_arg {
	bool is_integer;
	int64_t integer;
	struct pty_audit_text text;
};

/* The most columns a recorded fact may have (the policy's domain has
 * none wider than 2). */
#define PTY_AUDIT_FACT_ARGS_MAX 8

/* One input fact: predicate(args[0], ..., args[nargs-1]). */
struct pty_audit_fact {
	struct pty_audit_text predicate;
	size_t nargs;
	struct pty_audit_fact_arg args[PTY_AUDIT_FACT_ARGS_MAX];
};

/* "facts": the input facts the policy was given for a decision, read one
 * at a time, in the order they were added (so that an exec's thousands
 * of arguments need no copy): get(ctx, i, out) fills fact i of count and
 * returns 0, or -1 (then the record is not written).  The decider's
 * input EDB is the one source: pty/session/guard_record.c reads it. */
struct pty_audit_facts {
	size_t count;
	int (*get)(const void *ctx, size_t i, struct pty_audit_fact *out);
	const void *ctx;
};

/* What the decision of a line adds to its record (tokens to
 * confirm_prompt above, and facts).  pty/session/guard_record.c makes it
 * from a line's decision. */
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
	/* "facts" (or "facts_sha256"); NULL: left out, the policy was not
	 * asked (the scanner refused the line) */
	const struct pty_audit_facts *facts;
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
	/* "facts" (or "facts_sha256"); NULL: left out, the policy was not
	 * asked (the request was refused or recorded before deciding) */
	const struct pty_audit_facts *facts;
};

/* What an exec_mismatch event records. */
struct pty_audit_mismatch {
	/* "exec_path", "exec_request": what was decided */
	struct pty_audit_text path, request;
	/* "exec_ran", "exec_ran_dev" ("MAJOR:MINOR"), "exec_ran_ino": what
	 * the process runs */
	struct pty_audit_text ran;
	unsigned long long ran_major, ran_minor, ran_ino;
	pid_t pid;
	struct pty_audit_text error; /* "error" */
};

/* What a session's end adds (event "session_end"). */
struct pty_audit_end {
	/* "exit_status" (0-255) when has_status; "signal" ("SIGKILL") when
	 * signal is not NULL; neither when the shell's end is not known */
	bool has_status;
	int exit_status;
	const char *signal;
	/* "decisions" (lines and execs decided), "refusals", "execs" */
	unsigned long long decisions, refusals, execs;
};

/* One event to record. */
struct pty_audit_event {
	/* "session_start", "line", "command", "confirm", "exec",
	 * "exec_mismatch", "session_end" */
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
	/* event "session_end": the session's counts and exit, or NULL */
	const struct pty_audit_end *end;
	/* event "exec_mismatch": what ran instead of what was decided, or
	 * NULL */
	const struct pty_audit_mismatch *mismatch;
};

/* Opens the log in this process (creating it with mode 0600 if missing)
 * for appending and reading its last record, with O_NOFOLLOW and
 * O_CLOEXEC, and the state file key_path (read and written; refused if a
 * symlink, not a regular file, readable or writable by anyone but its
 * owner (0600), or not a state: a v1 key file is refused with a sentence
 * that names maelys-pty-setup).  An existing log must be
 * a regular file owned by this process's effective uid or root,
 * writable by nobody else and readable by nobody but its owner and the
 * owner's own group, or a character device.  Returns 0, or -1 with
 * one line in err. */
int pty_audit_open(const char *log_path, const char *key_path,
		   struct pty_audit **out, char *err, size_t errlen);

/* Starts an audit writer process (see above) that opens the log and state
 * as pty_audit_open does, with this process's effective identity made its
 * real and saved one too; returns a handle whose pty_audit_write sends the
 * record to it and returns once it is on disk (or after 30 s without an
 * answer: then this and every later write fails).  The writer ends when
 * the handle is closed.  Returns 0, or -1 with one line in err (the
 * writer's reason when it could not open the log or state). */
int pty_audit_start_writer(const char *log_path, const char *key_path,
			   struct pty_audit **out, char *err, size_t errlen);

/* What the audit writers this process starts after the call send to
 * syslog (the configuration's `syslog`; inherited by each writer over
 * fork; OFF until called):
 *   OFF      nothing;
 *   ANCHORS  (syslog = on) PTY_AUDIT_ANCHOR_FMT after each session_end
 *            record (see above);
 *   RECORDS  (syslog = records) every record, once on disk, to the systemd
 *            journal (with MAELYS_SEQ, MAELYS_EVENT, MAELYS_USER,
 *            MAELYS_SESSION and MAELYS_DECISION fields) when
 *            /run/systemd/journal/socket exists, else to syslog (authpriv,
 *            LOG_INFO): its JSON line, or, for a line longer than 8 KiB,
 *            "audit record seq N sha256 H (too long for syslog: read the
 *            log)" (audit_forward.c).  Each record is then its own anchor:
 *            no anchor line besides. */
enum pty_audit_syslog {
	PTY_AUDIT_SYSLOG_OFF,
	PTY_AUDIT_SYSLOG_ANCHORS,
	PTY_AUDIT_SYSLOG_RECORDS,
};
void pty_audit_set_syslog(enum pty_audit_syslog mode);

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

/* Closes the log and the state.  NULL is allowed. */
void pty_audit_close(struct pty_audit *a);

/* Appends one record (see above).  Returns 0 once the record is on disk, -1
 * with the reason in err otherwise (then nothing, or a torn line that the
 * verifier reports, was written: the caller denies). */
int pty_audit_write(struct pty_audit *a, const struct pty_audit_session *s,
		    const struct pty_audit_event *e, char *err, size_t errlen);

/* Makes a new log's keys: seed_1 at random, the state (seq 1) at
 * state_path (0600) and pk_1 at pub_path (0644), neither of which may
 * exist; fingerprint (may be NULL) gets pk_1's, "SHA256:..." (see
 * above).  Returns 0, or -1 with one line in err (then neither file is
 * left).  maelys-pty --new-audit-key is made of it. */
int pty_audit_keygen(const char *state_path, const char *pub_path,
		     char fingerprint[64], char *err, size_t errlen);

/* "SHA256:" and the unpadded base64 of the SHA-256 of len bytes of a
 * public key. */
void pty_audit_fingerprint(const unsigned char *pk, size_t len, char out[64]);

/* Checks the files of one log (oldest first) as one chain from the
 * verification key key_path: every line parses, seq counts up by one from
 * 1 across the files, every prev is the SHA-256 of the record before, every
 * sig verifies with the key the record before certified (record 1: pk_1).
 * With state_path (NULL: none), the last record is compared with the
 * state (see pty_audit_reader_next).  Writes to `report` (NULL: no
 * report) "FILE[, FILE...]: N records, chain intact" and three indented
 * lines (the key's fingerprint; "last record: seq N sha256 H", to compare
 * with the newest syslog anchor; whether the state was compared), or the
 * reader's complaint.  Returns 0 intact, 1 broken, 2 cannot check (a file,
 * the key or the state cannot be read; a v1 log).  Bounded as the reader. */
int pty_audit_verify_files(const char *const *paths, size_t npaths,
			   const char *key_path, const char *state_path,
			   FILE *report);

/* pty_audit_verify_files of one file, without a state. */
int pty_audit_verify(const char *log_path, const char *key_path, FILE *report);

/* Reading a log record by record, each verified before it is handed out
 * (what --verify-log and `maelys-pty log` are made of; audit_verify.c).
 * `paths` are the files of one log, oldest first.  A reader reads at
 * most 2 * PTY_AUDIT_LINE_MAX bytes at a time, however long the log. */
struct pty_audit_reader;

/* Opens a reader over npaths (at least 1) files with the verification
 * key key_path (pk_1: 64 hex digits, a newline allowed; it is public, so
 * its mode is not checked) and the state state_path, or NULL to compare
 * with no state (the state is read only at the end, so a caller that
 * cannot read it passes NULL).  Changed from v1: key_path was the HMAC
 * key, and state_path is new.  Returns 0, or -1 with one line in err (the
 * key cannot be read, no memory). */
int pty_audit_reader_open(const char *const *paths, size_t npaths,
			  const char *key_path, const char *state_path,
			  struct pty_audit_reader **out, char *err,
			  size_t errlen);

/* The next record: its bytes without the newline in [*line, *line +
 * *len) (followed by a NUL, valid until the next call), verified as
 * pty_audit_verify_files checks it.  Returns 0; 1 at the end of the last
 * file, every record verified (and, with a state, the state agrees: its
 * next seq is the last record's + 1 and its seed's key is the one the last
 * record certified, or its seq is the last record's own and its seed's
 * key signed it - a writer crashed before evolving it); -1 when the log is
 * broken here (err: "FILE: record N (line L): what is wrong", or a
 * sentence naming the missing records: "records A-B are missing between
 * FILE1 and FILE2: ...", "... missing before FILE: ...", "FILE: records
 * A-B are missing at the end: the log was cut ..."); -2 when a file or
 * the state cannot be read, or the log is v1 (err: "FILE: cannot check:
 * why").  After -1 or -2, every later call returns the same. */
int pty_audit_reader_next(struct pty_audit_reader *r, const char **line,
			  size_t *len, char *err, size_t errlen);

/* The file (an index into paths) and line number of the record the last
 * call returned, and how many records were verified so far. */
size_t pty_audit_reader_file(const struct pty_audit_reader *r);
unsigned long long pty_audit_reader_line(const struct pty_audit_reader *r);
unsigned long long pty_audit_reader_count(const struct pty_audit_reader *r);

/* The seq and SHA-256 (64 hex digits) of the last record verified: what
 * an anchor in syslog names.  Returns 0, or -1 (none yet: *seq 0). */
int pty_audit_reader_last(const struct pty_audit_reader *r,
			  unsigned long long *seq, char sha256[65]);

/* The verification key's fingerprint ("SHA256:..."). */
void pty_audit_reader_fingerprint(const struct pty_audit_reader *r,
				  char out[64]);

/* Closes it.  NULL is allowed. */
void pty_audit_reader_close(struct pty_audit_reader *r);

/* SHA-256 of `len` bytes as 64 lower-case hex digits; "" in the unlikely
 * case that libsodium fails (so that nothing passes for a digest). */
void pty_sha256_hex(const void *data, size_t len, char hex[65]);

/* 32 random hex digits (getrandom(2)).  Returns 0, or -1. */
int pty_audit_session_id(char id[33]);

#endif /* PTY_AUDIT_H */
