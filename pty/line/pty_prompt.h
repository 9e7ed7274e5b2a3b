/* SPDX-License-Identifier: MIT */
/*
 * The guard's prompt and line editor: GNU readline's callback interface on
 * the user's terminal, driven by the relay loop one key at a time.  Gives
 * history (a per-user file), arrows and the usual editing keys, Tab
 * completion of the command names of PATH that the policy allows as a
 * bare command (the list `help` shows) and of file names in the shell's
 * directory, Ctrl-C to cancel the line and Ctrl-D on an empty line to end
 * the session.  Readline never sees a key while a job runs, nor a
 * bracketed paste's text (prompt.c reads it, bounded, never waiting).
 */
#ifndef PTY_PROMPT_H
#define PTY_PROMPT_H

#include "pty_decide.h"

#include <stdbool.h>
#include <stdio.h>

/* The commands to complete the first word from (NULL: none), asked at each
 * completion of a first word; the caller keeps the list (and may keep it
 * for a whole prompt). */
typedef const struct pty_runnable *(*pty_prompt_commands_fn)(void);

/* Called with each line the user accepts (owned by the callee; free()),
 * or NULL for Ctrl-D on an empty line. */
typedef void (*pty_prompt_line_fn)(char *line);

/* One-time set-up: the stream readline draws on (the terminal's queue,
 * pty_termout_stream: it is stdio's stderr too until pty_prompt_end), the
 * history file, the commands to complete, and the line callback.  Keys
 * are read from stdin. */
void pty_prompt_init(FILE *out, const char *history_path,
		     pty_prompt_commands_fn commands,
		     pty_prompt_line_fn on_line);
/* Stops reading a line, and gives stdio its stderr back (before the
 * stream is closed). */
void pty_prompt_end(void);
/* The prompt's text, "alice@host:~/src$ ", as bash's default prompt
 * reads, into out (cap bytes): the directory cwd, with home as "~", and
 * "?" when cwd is "" (the shell's cannot be named: never another); "#"
 * for root.  The directory's name is the file system's, chosen by
 * whoever named the folders (another user's too): shown as every name
 * the guard shows (pty_printable), never driving the terminal. */
void pty_prompt_text(char *out, size_t cap, const char *user,
		     const char *host, const char *home, const char *cwd,
		     bool root);
/* Draws the prompt and starts reading a line. */
void pty_prompt_show(const char *prompt);
/* The prompt drawn for the next line while one is read (after a line
 * that did not run). */
void pty_prompt_set(const char *prompt);
/* Stops reading (a job starts); the terminal is left to the caller. */
void pty_prompt_hide(void);
bool pty_prompt_active(void);
/* Reads from the terminal into the line editor, never waiting: one key,
 * or, while a bracketed paste is read, what the terminal has of it (the
 * paste goes into the line as one edit once it ends; one that a line
 * cannot hold - SCAN_LINE_MAX bytes or more, or a NUL - is left out
 * whole, and *left_out says how many bytes it had, for the caller to
 * say; 0 otherwise).  Returns false when the terminal is gone. */
bool pty_prompt_feed(unsigned long long *left_out);
/* Session output arrived while the prompt is shown: clears the prompt
 * line, lets the caller write, then redraws. */
void pty_prompt_before_output(void);
void pty_prompt_after_output(void);
void pty_prompt_resize(void);
/* Adds a line to the history; saves the history file. */
void pty_prompt_remember(const char *line);
void pty_prompt_save(void);

#endif /* PTY_PROMPT_H */
