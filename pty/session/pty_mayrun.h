/* SPDX-License-Identifier: MIT */
/*
 * "What may I run" and "where did the line go wrong": the guard's `help`,
 * the list --list prints, and the column and caret under a refused line.
 * The list itself is computed in decide/ (pty_runnable_list); this is how
 * it is shown, and recorded.
 */
#ifndef PTY_MAYRUN_H
#define PTY_MAYRUN_H

#include "pty_decide.h"
#include "pty_session.h"

#include <stddef.h>

/* The line that is the guard's own question, not a command: exactly
 * these bytes (no blank around them; "help cd" is a line for the policy,
 * and bash's help builtin answers it if the policy allows it). */
#define PTY_HELP_LINE "help"

/* When the countdown to the lockout is shown: after a refusal that
 * leaves this many or fewer (guard.c). */
#define PTY_GUARD_WARN_LEFT 2u

/* The terminal column after showing s[0..len) from column `col` the way
 * readline shows an edited line: a tab to the next multiple of 8, another
 * control character as ^X (two columns), a character of a multi-byte
 * locale by wcwidth(3) (a wide one two, a combining one none; one it
 * cannot decode or print one column, as readline assumes), a byte >= 0x80
 * of a single-byte locale as readline's \ooo (four).  Nothing is
 * written. */
size_t pty_text_columns(const char *s, size_t len, size_t col);

/* Where no readline counts columns (-c, --list): the user's character
 * type (LC_ALL, LC_CTYPE, LANG), or C.UTF-8 when that is not multi-byte,
 * since a line the scanner accepts, and a name it lists, is UTF-8 text.
 * Only LC_CTYPE changes. */
void pty_columns_locale(void);

/* Shows a list (pty_runnable_list) on fd: with `width` (a terminal's
 * columns) a heading, the names in columns down then across, marked
 * (logged) or (confirm), and a legend of the marks in use; with width 0,
 * one name a line (a tab and "logged" or "confirm" after a marked one),
 * for a script. */
void pty_say_runnable(const struct pty_runnable *r, int fd, const char *eol,
		      unsigned width);

/* Under a refusal (pty_say_decision), where the line went wrong: for a
 * line the policy refused as a whole ("__line__") that has
 * metacharacters, one line for the first of each class, in the order of
 * the line; for a line refused before solving, its refused byte (not for
 * a line too long: the whole line is).  With `prompt` (the line was typed
 * after it, and is still on the screen above) a caret line follows, the
 * caret under each column counted from the prompt's start; without one
 * (-c) only the column, counted from the line's first character.  `width`
 * is the terminal's (0: unknown), where a long line wraps.  The line's
 * own bytes are never written. */
void pty_say_where(const struct pty_decision *dec, const char *line, size_t len,
		   const char *prompt, unsigned width, int fd, const char *eol);

/* `help` at the prompt: the list for the session (pty_runnable_list in
 * the interactive mode, by the session's decider), recorded in the audit
 * log first as event "help" (a question is part of what a session did:
 * whoever reads the log sees that the user asked, as sudo logs `sudo -l`)
 * with the count in its note, then shown on fd.  Never counted as a
 * refusal.  Returns PTY_ACT_SKIP (shown), PTY_ACT_DENY (not shown: the
 * record could not be written; the user is told) or PTY_ACT_END (the same
 * with on_audit_failure = terminate). */
enum pty_act pty_guard_help(struct pty_guard *g, struct pty_decider *d, int fd,
			    const char *eol, unsigned width);

#endif /* PTY_MAYRUN_H */
