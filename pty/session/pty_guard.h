/* SPDX-License-Identifier: MIT */
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
#ifndef PTY_GUARD_H
#define PTY_GUARD_H

#include "pty_audit.h"
#include "pty_config.h"
#include "pty_decide.h"

#include <stdbool.h>
#include <stddef.h>

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
	bool end_recorded; /* the session_end record is written */
	/* why the configured audit log could not be opened by a guard that
	 * may be nested in a session (see main.c); "" otherwise.  A session
	 * whose supervisor is not nested does not start with it set. */
	char audit_missing[1100];
	/* the options that replace the configuration's policy, shell or PATH
	 * were given: refused once the guard finds itself nested in a
	 * session (whose line rules it must not loosen) */
	bool overridden;
	/* a line waiting for the user's answer to require_confirm (between
	 * PTY_ACT_ASK and pty_guard_answer); dec's tokens point into line */
	struct {
		bool active;
		char line[SCAN_LINE_MAX];
		size_t len;
		enum pty_mode mode;
		struct pty_decision dec;
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
 * the session's end recorded. */
enum pty_act pty_guard_refused(struct pty_guard *g, int fd, const char *eol);

/* Records a session event ("session_start", "session_end") with a note;
 * a session has one session_end record, the first one asked for (the
 * lockout's or the idle timeout's note wins over the plain end's).
 * Returns 0, or -1 when there is an audit log and the record failed. */
int pty_guard_event(struct pty_guard *g, const char *event, const char *note);

/* Makes `who` the guard's identity, and the audit log's session names
 * (user, host, tty, remote) its strings. */
void pty_guard_set_identity(struct pty_guard *g, const struct pty_identity *who);

/* Writes a line to syslog (authpriv) when the guard logs there. */
void pty_guard_log(const struct pty_guard *g, int priority, const char *fmt,
		   ...) __attribute__((format(printf, 3, 4)));

#endif /* PTY_GUARD_H */
