/* SPDX-License-Identifier: MIT */
/*
 * The prompt on GNU readline (callback interface).  Readline's state is
 * process-wide by design; this file is its only user.
 *
 * The terminal's mode is the guard's (pty/line/terminal.c): readline's own
 * prep/deprep functions are replaced so that it never turns signal keys back
 * on - Ctrl-C is a key here, bound to cancelling the line - and never leaves
 * the terminal in a mode the relay did not choose.  What readline writes
 * goes to the stream it is given, the terminal's queue (pty_termout.h),
 * never straight to the terminal: its bell too, which it rings on stdio's
 * stderr, pointed at that stream while the line editor runs.
 */
#include "pty_prompt.h"

#include "pty_messages.h"

#include <readline/history.h>
#include <readline/readline.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PTY_HISTORY_LINES 1000

/* What the prompt was set up with (pty_prompt_init).  File-scope because
 * readline's callbacks - the line handler, the terminal preparation, the
 * completion of command names - are given no argument to carry it. */
static struct {
	FILE *err; /* stdio's stderr before pty_prompt_init */
	const char *history;
	pty_prompt_commands_fn commands; /* for completing command names */
	pty_prompt_line_fn on_line;
	bool installed;
} prompt_state;

/* Readline draws the line being edited only while it believes it echoes;
 * its own terminal preparation, replaced here, would set that from the
 * terminal's ECHO flag, which the session's mode turns off (the guard draws
 * the keys through readline, not the kernel).  So say it directly:
 * rl_tty_set_echoing is readline's public call for this (7.0 and later).
 * The mode itself is the relay's, the same for the whole session. */
static void
pty_prompt_prep(int meta)
{
	(void)meta;
	(void)rl_tty_set_echoing(1);
}

static void
pty_prompt_deprep(void)
{
	/* the terminal stays in the session's mode */
}

/* Ctrl-C: drop what was typed and start a fresh line, as bash does. */
static int
pty_prompt_cancel(int count, int key)
{
	(void)count;
	(void)key;
	rl_replace_line("", 0);
	rl_point = rl_end = 0;
	fputs("^C\n", rl_outstream); /* the stream writes \n as \r\n */
	fflush(rl_outstream);
	rl_on_new_line();
	rl_redisplay();
	return 0;
}

/* Command names for the first word: the commands the policy allows as a
 * bare command line (pty_runnable_list, the list `help` shows) whose name
 * starts with `text`; readline calls this with state 0, then 1, 2, ...
 * The list is sorted, so the matches are a run of it. */
static char *
pty_prompt_command_gen(const char *text, int state)
{
	static const struct pty_runnable *list;
	static size_t next, len;

	if (state == 0) {
		list = prompt_state.commands != NULL ? prompt_state.commands()
						     : NULL;
		next = 0;
		len = strlen(text);
	}
	while (list != NULL && next < list->n) {
		const char *name = list->entries[next++].name;

		if (strncmp(name, text, len) == 0)
			return strdup(name);
	}
	return NULL;
}

static char **
pty_prompt_complete(const char *text, int start, int end)
{
	int i;

	(void)end;
	/* the first word is a command; later words are files, completed by
	 * readline relative to the guard's directory, which follows the
	 * shell's: a file name is no decision (the policy decides the line
	 * when it is entered), the guard reads the directory with the
	 * user's own rights, and the words a command takes are its own
	 * business, so no list of them is guessed here */
	for (i = 0; i < start; i++)
		if (rl_line_buffer[i] != ' ' && rl_line_buffer[i] != '\t')
			return NULL;
	rl_attempted_completion_over = 1;
	return rl_completion_matches(text, pty_prompt_command_gen);
}

/* Whether a name is shown as it is (pty_printable leaves it whole). */
static bool
pty_prompt_shown_whole(const char *name)
{
	char shown[PATH_MAX];

	pty_printable(shown, sizeof shown, name);
	return strcmp(shown, name) == 0;
}

/* File names that cannot be shown as they are - a control character (C0,
 * DEL, C1), a bidirectional or invisible character, as another user may
 * put in a name of a folder anyone reads - are not completed: listed,
 * they would drive the user's terminal or read otherwise than they are
 * (readline shows C0 as ^X, but C1 and the rest as they come); put in the
 * line, it could not run anyway (the scanner refuses them).  Readline's
 * rl_ignore_some_completions_function: matches[0] is what the matches
 * share, or the one match when matches[1] is NULL; readline frees the
 * array when matches[0] is left NULL, and works out again what the
 * matches kept share. */
static int
pty_prompt_ignore_unshown(char **matches)
{
	size_t i, kept = 1;

	if (matches[1] == NULL) {
		if (!pty_prompt_shown_whole(matches[0])) {
			free(matches[0]);
			matches[0] = NULL;
		}
		return 0;
	}
	for (i = 1; matches[i] != NULL; i++) {
		if (pty_prompt_shown_whole(matches[i]))
			matches[kept++] = matches[i];
		else
			free(matches[i]);
	}
	matches[kept] = NULL;
	if (kept == 1) {
		free(matches[0]);
		matches[0] = NULL;
	}
	return 0;
}

static void
pty_prompt_accept(char *line)
{
	prompt_state.on_line(line);
}

void
pty_prompt_init(FILE *out, const char *history_path,
		pty_prompt_commands_fn commands, pty_prompt_line_fn on_line)
{
	prompt_state.history = history_path;
	prompt_state.commands = commands;
	prompt_state.on_line = on_line;
	rl_readline_name = "maelys-pty";
	rl_instream = stdin;
	rl_outstream = out;
	/* readline's bell (rl_ding) is written to stderr */
	prompt_state.err = stderr;
	stderr = out;
	/* the guard owns signals, the environment and the terminal modes */
	rl_catch_signals = 0;
	rl_catch_sigwinch = 0;
	rl_change_environment = 0;
	rl_prep_term_function = pty_prompt_prep;
	rl_deprep_term_function = pty_prompt_deprep;
	rl_attempted_completion_function = pty_prompt_complete;
	rl_ignore_some_completions_function = pty_prompt_ignore_unshown;
	rl_bind_key(3, pty_prompt_cancel); /* Ctrl-C */
	/* a paste arrives as one edit, newlines and all, instead of as
	 * lines accepted one by one (the scanner refuses the newline) */
	rl_variable_bind("enable-bracketed-paste", "on");
	using_history();
	stifle_history(PTY_HISTORY_LINES);
	if (history_path != NULL) {
		struct stat st;

		/* a FIFO would block the start, a device is no history:
		 * anything but a regular file turns history off */
		if (lstat(history_path, &st) == 0 && !S_ISREG(st.st_mode))
			prompt_state.history = NULL;
		else
			(void)read_history(history_path);
	}
}

void
pty_prompt_show(const char *prompt)
{
	rl_callback_handler_install(prompt, pty_prompt_accept);
	prompt_state.installed = true;
}

void
pty_prompt_set(const char *prompt)
{
	if (prompt_state.installed)
		(void)rl_set_prompt(prompt);
}

void
pty_prompt_hide(void)
{
	if (!prompt_state.installed)
		return;
	rl_callback_handler_remove();
	prompt_state.installed = false;
}

bool
pty_prompt_active(void)
{
	return prompt_state.installed;
}

void
pty_prompt_feed(void)
{
	rl_callback_read_char();
}

void
pty_prompt_before_output(void)
{
	if (prompt_state.installed)
		rl_clear_visible_line();
}

void
pty_prompt_after_output(void)
{
	if (prompt_state.installed) {
		rl_on_new_line();
		rl_redisplay();
	}
}

void
pty_prompt_resize(void)
{
	rl_resize_terminal();
}

void
pty_prompt_remember(const char *line)
{
	HIST_ENTRY *last;

	if (line[0] == '\0')
		return;
	last = history_length > 0
		   ? history_get(history_base + history_length - 1)
		   : NULL;
	if (last == NULL || strcmp(last->line, line) != 0)
		add_history(line);
}

void
pty_prompt_save(void)
{
	struct stat st;

	if (prompt_state.history == NULL)
		return;
	/* only a regular file (or none yet: readline creates it 0600);
	 * never touch a device or anything else the path may name */
	if (lstat(prompt_state.history, &st) == 0 && !S_ISREG(st.st_mode))
		return;
	if (write_history(prompt_state.history) == 0)
		(void)history_truncate_file(prompt_state.history,
					    PTY_HISTORY_LINES);
}

void
pty_prompt_end(void)
{
	pty_prompt_hide();
	if (prompt_state.err != NULL) {
		stderr = prompt_state.err;
		prompt_state.err = NULL;
	}
	rl_outstream = stdout;
}
