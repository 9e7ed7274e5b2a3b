/* SPDX-License-Identifier: MIT */
/*
 * Where a refused line went wrong, under the refusal (pty_mayrun.h): the
 * scanner's offsets (the first metacharacter of each class, the refused
 * byte) turned into the columns a person sees, and a caret under each.
 * The line's own bytes never reach the terminal here: a metacharacter is
 * shown by its class's words and its ASCII character, a refused byte by
 * its words alone when it is not printable ASCII, and the caret line is
 * blanks and carets.
 */
#include "pty_mayrun.h"

#include "pty_messages.h"

#include <stdlib.h>
#include <string.h>

/* The caret line is not drawn past this column (a prompt and a line of
 * SCAN_LINE_MAX bytes drawn as \ooo stay under it). */
#define WHERE_CARET_MAX 16384u

/* The words of each metacharacter class, by bit position (scanner.h). */
static const char *const where_meta_words[SCAN_META_COUNT] = {
    PTY_MSG_META_PIPE,       PTY_MSG_META_REDIRECT,   PTY_MSG_META_SEMICOLON,
    PTY_MSG_META_BACKTICK,   PTY_MSG_META_VAR_EXPAND, PTY_MSG_META_GLOB,
    PTY_MSG_META_HISTORY,    PTY_MSG_META_BRACE,      PTY_MSG_META_SUBSHELL,
    PTY_MSG_META_TILDE,      PTY_MSG_META_COMMENT,    PTY_MSG_META_ASSIGNMENT,
    PTY_MSG_META_BACKGROUND,
};

/* One place to point at. */
struct where_mark {
	size_t offset;     /* into the line */
	const char *words; /* "a pipe" */
	size_t shown;      /* bytes of the line shown in quotes (ASCII) */
};

/* The words of a refusal before solving, and how many bytes at its offset
 * are printable ASCII that may be shown; NULL for a refusal of the whole
 * line (too long, too many words), which has no one place. */
static const char *
where_refusal_words(enum scan_refusal r, size_t *shown)
{
	*shown = 0;
	switch (r) {
	case SCAN_REFUSE_QUOTE:
		*shown = 1;
		return PTY_MSG_REFUSED_QUOTE;
	case SCAN_REFUSE_BACKSLASH:
		*shown = 1;
		return PTY_MSG_REFUSED_BACKSLASH;
	case SCAN_REFUSE_AMPERSAND:
		*shown = 1;
		return PTY_MSG_REFUSED_AMPERSAND;
	case SCAN_REFUSE_HEREDOC:
		*shown = 2;
		return PTY_MSG_REFUSED_HEREDOC;
	case SCAN_REFUSE_NUL:
		return PTY_MSG_REFUSED_NUL;
	case SCAN_REFUSE_NEWLINE:
		return PTY_MSG_REFUSED_NEWLINE;
	case SCAN_REFUSE_CONTROL:
		return PTY_MSG_REFUSED_CONTROL;
	case SCAN_REFUSE_ENCODING:
		return PTY_MSG_REFUSED_ENCODING;
	case SCAN_REFUSE_INVISIBLE:
		return PTY_MSG_REFUSED_INVISIBLE;
	case SCAN_ACCEPT:
	case SCAN_REFUSE_TOO_LONG:
	case SCAN_REFUSE_TOO_MANY_TOKENS:
		break;
	}
	return NULL;
}

/* The marks of a decision, in the order of the line.  Returns how many. */
static size_t
where_marks(const struct pty_decision *dec, size_t len,
	    struct where_mark marks[SCAN_META_COUNT])
{
	size_t n = 0, i;
	unsigned m;

	if (dec->verdict == PTY_VERDICT_SYNTAX) {
		const char *w =
		    where_refusal_words(dec->scan.refusal, &marks[0].shown);

		if (w == NULL || dec->scan.refusal_offset >= len)
			return 0;
		if (marks[0].shown > len - dec->scan.refusal_offset)
			marks[0].shown = 0;
		marks[0].offset = dec->scan.refusal_offset;
		marks[0].words = w;
		return 1;
	}
	/* the policy refused the line as a whole: its metacharacters are
	 * what the policy was told of it (shell_metachar) */
	if (dec->verdict != PTY_VERDICT_POLICY ||
	    strcmp(dec->denied_op, "__line__") != 0)
		return 0;
	for (m = 0; m < SCAN_META_COUNT; m++) {
		struct where_mark k;

		if (!(dec->scan.metachars & (1u << m)) ||
		    dec->scan.metachar_offset[m] >= len)
			continue;
		k.offset = dec->scan.metachar_offset[m];
		k.words = where_meta_words[m];
		k.shown = 1;
		/* insertion by offset: at most SCAN_META_COUNT marks */
		for (i = n; i > 0 && marks[i - 1].offset > k.offset; i--)
			marks[i] = marks[i - 1];
		marks[i] = k;
		n++;
	}
	return n;
}

/* Blanks and a caret at each column (each taken modulo the terminal's
 * width, where a long line wraps), as one line. */
static void
where_carets(const size_t *cols, size_t n, int fd, const char *eol)
{
	size_t end = 0, i;
	char *buf;

	for (i = 0; i < n; i++)
		if (cols[i] + 1 > end)
			end = cols[i] + 1;
	if (end == 0 || end > WHERE_CARET_MAX ||
	    (buf = malloc(end + 1)) == NULL)
		return;
	memset(buf, ' ', end);
	for (i = 0; i < n; i++)
		buf[cols[i]] = '^';
	buf[end] = '\0';
	pty_say(fd, eol, "%s", buf);
	free(buf);
}

void
pty_say_where(const struct pty_decision *dec, const char *line, size_t len,
	      const char *prompt, unsigned width, int fd, const char *eol)
{
	struct where_mark marks[SCAN_META_COUNT];
	size_t cols[SCAN_META_COUNT];
	size_t n = where_marks(dec, len, marks), i, start = 0;

	if (n == 0)
		return;
	if (prompt != NULL)
		start = pty_text_columns(prompt, strlen(prompt), 0);
	for (i = 0; i < n; i++) {
		const struct where_mark *k = &marks[i];
		/* 1-based, in the line as shown from its first character */
		size_t column = pty_text_columns(line, k->offset, 0) + 1;
		size_t b;

		/* only printable ASCII is quoted (the classes' bytes are) */
		for (b = 0; b < marks[i].shown; b++)
			if ((unsigned char)line[k->offset + b] <= 0x20 ||
			    (unsigned char)line[k->offset + b] >= 0x7f)
				marks[i].shown = 0;

		if (k->shown > 0)
			pty_say(fd, eol, PTY_MSG_WHERE_META, k->words,
				(int)k->shown, line + k->offset, column);
		else
			pty_say(fd, eol, PTY_MSG_WHERE_REFUSED, k->words,
				column);
		/* a tab's width depends on where the line starts: the
		 * caret counts from the prompt's own start */
		cols[i] = pty_text_columns(line, k->offset, start);
		if (width > 0)
			cols[i] %= width;
	}
	if (prompt != NULL)
		where_carets(cols, n, fd, eol);
}
