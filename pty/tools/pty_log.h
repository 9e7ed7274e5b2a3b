/* SPDX-License-Identifier: MIT */
/*
 * `maelys-pty log` (log_tool.c): the audit log read through the reader of
 * pty_audit.h, each record verified before it is shown, as a table or as
 * the JSON records; `log --replay` (log_replay.c) decides every recorded
 * line and program again from its "facts" under a candidate policy and
 * prints what would change.  The parts each have one owner here: a
 * record's fields (log_record.c), times (log_time.c), the table
 * (log_table.c), the replay (log_replay.c).
 *
 * Times are UTC throughout: the log's, the table's and --since/--until's
 * (a time without an offset is read as UTC), so that what the table shows
 * is what the filters take.
 */
#ifndef PTY_LOG_H
#define PTY_LOG_H

#include "pty_decide.h"
#include "pty_exec.h"
#include "pty_session.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* ---- Times (log_time.c) */

/* A time as given: its first millisecond since the epoch (UTC) and how
 * long it lasts at the precision it was given to (a day for
 * "2026-12-02", a minute for "2026-12-02 15:04", a second or a
 * millisecond for RFC 3339), so that --until 2026-12-02 takes that whole
 * day. */
struct log_time {
	int64_t ms;
	int64_t span;
};

/* Parses an RFC 3339 time ("2026-12-02T15:04:05Z", with a fraction of up
 * to 9 digits and an offset Z or +HH:MM; a space may stand for the T) or
 * "YYYY-MM-DD" or "YYYY-MM-DD HH:MM" (UTC), years 1970 to 9999.  Returns
 * 0, or -1 when s is none of them. */
int log_time_parse(const char *s, size_t len, struct log_time *out);

/* ---- One record's fields (log_record.c) */

/* The fields the tool reads, borrowed from `root` (NULL when absent). */
struct log_record {
	json_t *root;
	int64_t time_ms; /* "time" */
	const char *time, *user, *session, *event, *decision, *mode, *tty,
	    *remote, *note, *error, *refusal, *log_reason, *confirm_prompt;
	const char *line; /* "line", or NULL (line_sha256) */
	size_t line_len;
	bool line_by_sha256;
	const char *exec_path;
	size_t exec_path_len;
	json_t *reasons; /* array of {"op","reason"}, or NULL */
	json_t *facts;   /* array of [pred, arg...], or NULL */
	bool facts_by_sha256;
	/* session_end */
	json_t *exit_status, *signal, *decisions, *refusals, *execs;
};

/* The most bytes a field the tool shows may have (a record is shorter). */
#define LOG_FIELD_MAX PTY_AUDIT_LINE_MAX

/* Reads a record's JSON text.  Every field the tool reads must have the
 * type pty_audit.h gives it (a string is a string of no NUL, but "line");
 * "time" must parse; v, seq, session and event must be there.  Returns
 * 0 (free it with log_record_free), or -1 with why in err. */
int log_record_parse(const char *text, size_t len, struct log_record *out,
		     char *err, size_t errlen);
void log_record_free(struct log_record *r);

/* Whether the record is a decision (event line, command, confirm, exec). */
bool log_record_is_decision(const struct log_record *r);

/* Whether it is a refusal: a decision deny, refused, error or declined,
 * or an exec_mismatch (a process ended for what it ran). */
bool log_record_is_refusal(const struct log_record *r);

/* What a decision was decided on, read out of "facts". */
struct log_facts {
	const char *command; /* command(Cmd): a line's; NULL if none */
	size_t command_len;
	bool confirmed;        /* confirmed(Cmd) is among them */
	const char *exec_path; /* exec_path(P): a program's; NULL if none */
	size_t exec_path_len;
	size_t count;
};

/* The most arguments of one fact. */
#define LOG_FACT_ARGS_MAX MAELYS_DATALOG_MAX_ARITY

/* Clears edb and adds exactly the facts of `facts` ([[pred, arg...],
 * ...]: pred a string, each arg a string - a symbol - or an integer), in
 * their order.  Returns 0, or -1 with why in err (a fact of another
 * shape, or the engine refused it). */
int log_facts_add(const json_t *facts, maelys_datalog_input_edb_t *edb,
		  struct log_facts *out, char *err, size_t errlen);

/* ---- Showing (log_table.c) */

/* Writes len bytes of log text so that they cannot drive a terminal:
 * control characters (C0, DEL, C1), a byte that is not UTF-8, and the
 * characters that reorder, hide or disguise text (the scanner's list,
 * scan_utf8_is_invisible: zero-width and bidirectional controls, Unicode
 * spaces, ...) as \xNN or \u{XXXX}. */
void log_safe_write(FILE *f, const char *s, size_t len);

/* "2026-12-02 15:04:05" of a record's time (UTC), into out (20 bytes). */
void log_time_show(const struct log_record *r, char out[20]);

/* The table's heading, and one record's row. */
void log_table_heading(FILE *f);
void log_table_row(FILE *f, const struct log_record *r);

/* ---- Replaying (log_replay.c) */

struct log_replay {
	maelys_datalog_session_t *session;
	struct pty_decider d;
	bool decider;
	/* the candidate defines no allow_exec and the configuration says
	 * exec_decisions = optional: a program is recorded and runs */
	bool execs_undecided;
	unsigned long long replayed, changed, newly_refused, newly_allowed,
	    unreplayable;
};

/* Loads the candidate policy `policy_path` (the configuration cfg says
 * whether a policy may decide lines only).  Returns 0, or -1 with one
 * line in err. */
int log_replay_open(struct log_replay *rp, const char *policy_path,
		    const struct pty_config *cfg, char *err, size_t errlen);
void log_replay_close(struct log_replay *rp);

/* Decides one record again (nothing for a record that is not a
 * decision) and writes what changed to f.  Returns 1 when it changed, 0
 * when not (or not replayable: counted). */
int log_replay_record(struct log_replay *rp, const struct log_record *r,
		      FILE *f);

/* The counts' sentence. */
void log_replay_summary(const struct log_replay *rp, FILE *f);

/* `maelys-pty log` */
int log_run(int argc, char **argv);

#endif /* PTY_LOG_H */
