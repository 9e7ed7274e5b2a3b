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
 *
 * A bracketed paste (the terminal's "ESC [ 200 ~", the text, "ESC [ 201 ~")
 * is read here, not by readline: readline reads a paste's text to its end
 * marker in one call, waiting for each byte with the guard's signals
 * blocked and keeping all of it, so a paste that never ends - any user
 * can type its start marker - held the guard deaf to signals, exec
 * requests and the idle timeout, and as big as the paste.  Here a paste
 * is read as the relay reads any key, as much as the terminal has each
 * time, never past its end marker (what follows is readline's), and kept
 * only as far as a line can hold it (SCAN_LINE_MAX): a longer paste is
 * left out whole, counted, and the caller says so.
 */
#include "pty_prompt.h"

#include "pty_messages.h"

#include <readline/history.h>
#include <readline/readline.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define PTY_HISTORY_LINES 1000

/* A bracketed paste's markers, as terminals send them. */
#define PTY_PASTE_BEGIN   "\033[200~"
#define PTY_PASTE_END     "\033[201~"
#define PTY_PASTE_END_LEN (sizeof PTY_PASTE_END - 1)
/* The most a paste's bytes are read in one go before the relay's loop is
 * served again. */
#define PTY_PASTE_READ    4096

/* What the prompt was set up with (pty_prompt_init).  File-scope because
 * readline's callbacks - the line handler, the terminal preparation, the
 * completion of command names - are given no argument to carry it. */
static struct {
	FILE *err; /* stdio's stderr before pty_prompt_init */
	const char *history;
	pty_prompt_commands_fn commands; /* for completing command names */
	pty_prompt_line_fn on_line;
	bool installed;
	/* a bracketed paste being read (pty_prompt_paste_*): its bytes so
	 * far, its end marker's among them, kept while a line can hold
	 * them; how many came in all; how much of the end marker the last
	 * ones are */
	bool pasting;
	char paste[SCAN_LINE_MAX + PTY_PASTE_END_LEN];
	size_t paste_len;
	unsigned long long paste_total;
	size_t paste_matched;
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

/* The paste's start marker, as readline's key map finds it (bound in
 * place of readline's rl_bracketed_paste_begin): what follows is read by
 * pty_prompt_feed. */
static int
pty_prompt_paste_begin(int count, int key)
{
	(void)count;
	(void)key;
	prompt_state.pasting = true;
	prompt_state.paste_len = 0;
	prompt_state.paste_total = 0;
	prompt_state.paste_matched = 0;
	return 0;
}

/* The paste ended: its text put in the line as one edit (a return as a
 * newline, as readline does, which the scanner then refuses), or, when a
 * line cannot hold it (as long as a line may be, or a NUL, which would
 * cut it short), left out whole.  Returns the bytes left out, or 0. */
static unsigned long long
pty_prompt_paste_end(void)
{
	unsigned long long len = prompt_state.paste_total - PTY_PASTE_END_LEN;
	size_t i;

	prompt_state.pasting = false;
	if (len >= SCAN_LINE_MAX ||
	    memchr(prompt_state.paste, '\0', (size_t)len) != NULL)
		return len;
	for (i = 0; i < (size_t)len; i++)
		if (prompt_state.paste[i] == '\r')
			prompt_state.paste[i] = '\n';
	prompt_state.paste[len] = '\0';
	(void)rl_insert_text(prompt_state.paste);
	rl_redisplay();
	return 0;
}

/* Takes n bytes of the paste; past its end marker there are none (the
 * reader reads no further).  Returns the bytes left out when it ended. */
static unsigned long long
pty_prompt_paste_take(const char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n && prompt_state.pasting; i++) {
		char c = buf[i];

		if (prompt_state.paste_len < sizeof prompt_state.paste)
			prompt_state.paste[prompt_state.paste_len++] = c;
		prompt_state.paste_total++;
		/* ESC begins the marker and is nowhere else in it */
		if (c == PTY_PASTE_END[prompt_state.paste_matched])
			prompt_state.paste_matched++;
		else
			prompt_state.paste_matched = c == '\033' ? 1 : 0;
		if (prompt_state.paste_matched == PTY_PASTE_END_LEN)
			return pty_prompt_paste_end();
	}
	return 0;
}

/* Reads the paste from the terminal: what it has now, up to
 * PTY_PASTE_READ bytes, never waiting (poll said it has some: the first
 * read finds it, the others only what FIONREAD says is there) and never
 * past the end marker (each read is no longer than what is left of it).
 * Returns false when the terminal is gone. */
static bool
pty_prompt_paste_read(unsigned long long *left_out)
{
	size_t budget = PTY_PASTE_READ;
	bool first = true;

	while (prompt_state.pasting && budget > 0) {
		char buf[PTY_PASTE_END_LEN];
		size_t want = PTY_PASTE_END_LEN - prompt_state.paste_matched;
		int avail = 0;
		ssize_t n;

		if (!first &&
		    (ioctl(STDIN_FILENO, FIONREAD, &avail) != 0 || avail <= 0))
			break;
		first = false;
		n = read(STDIN_FILENO, buf, want);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			break;
		if (n <= 0)
			return false;
		*left_out = pty_prompt_paste_take(buf, (size_t)n);
		budget -= (size_t)n < budget ? (size_t)n : budget;
	}
	return true;
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
pty_prompt_text(char *out, size_t cap, const char *user, const char *host,
		const char *home, const char *cwd, bool root)
{
	size_t hl = strlen(home);
	const char *shown = cwd[0] != '\0' ? cwd : "?";
	char tilde[PTY_CWD_MAX + 2], printable[PTY_CWD_MAX + 2];

	if (hl > 1 && strncmp(cwd, home, hl) == 0 &&
	    (cwd[hl] == '\0' || cwd[hl] == '/')) {
		(void)snprintf(tilde, sizeof tilde, "~%s", cwd + hl);
		shown = tilde;
	}
	pty_printable(printable, sizeof printable, shown);
	(void)snprintf(out, cap, "%s@%s:%s%s ", user, host, printable,
		       root ? "#" : "$");
}

void
pty_prompt_show(const char *prompt)
{
	rl_callback_handler_install(prompt, pty_prompt_accept);
	/* after readline's set-up, which binds its own paste reader */
	(void)rl_bind_keyseq_in_map(PTY_PASTE_BEGIN, pty_prompt_paste_begin,
				    emacs_standard_keymap);
	prompt_state.installed = true;
	prompt_state.pasting = false;
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
	prompt_state.pasting = false; /* a paste not ended is dropped */
}

bool
pty_prompt_active(void)
{
	return prompt_state.installed;
}

bool
pty_prompt_feed(unsigned long long *left_out)
{
	*left_out = 0;
	if (prompt_state.pasting)
		return pty_prompt_paste_read(left_out);
	rl_callback_read_char();
	return true;
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
