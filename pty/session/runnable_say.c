/* SPDX-License-Identifier: MIT */
/*
 * Showing what may run (pty_runnable_list): in columns on a terminal, as
 * ls -C lays names out (down, then across), or one a line for a script.
 * Every name was accepted by the scanner as a bare command name, so it
 * holds no control byte; it is still shown through pty_printable.
 */
#include "pty_mayrun.h"

#include "pty_messages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A row is cut here (pty_say's own bound). */
#define RUNNABLE_ROW_MAX   16384
/* Columns wider than this are laid out as if this wide. */
#define RUNNABLE_WIDTH_MAX 1024u
#define RUNNABLE_GAP       2u

static const char *
runnable_mark(enum pty_verdict v)
{
	return v == PTY_VERDICT_ALLOW_LOG ? PTY_MSG_RUNNABLE_LOGGED_MARK
	       : v == PTY_VERDICT_CONFIRM ? PTY_MSG_RUNNABLE_CONFIRM_MARK
					  : "";
}

/* The columns of an entry: its name and its mark. */
static size_t
runnable_cells(const struct pty_runnable_entry *e)
{
	const char *mark = runnable_mark(e->verdict);

	return pty_text_columns(e->name, strlen(e->name), 0) + strlen(mark);
}

static void
runnable_plain(const struct pty_runnable *r, int fd, const char *eol)
{
	char name[PTY_TEXT_MAX];
	size_t i;

	for (i = 0; i < r->n; i++) {
		pty_printable(name, sizeof name, r->entries[i].name);
		pty_say(fd, eol,
			r->entries[i].verdict == PTY_VERDICT_ALLOW_LOG
			    ? PTY_MSG_RUNNABLE_PLAIN_LOGGED
			: r->entries[i].verdict == PTY_VERDICT_CONFIRM
			    ? PTY_MSG_RUNNABLE_PLAIN_CONFIRM
			    : PTY_MSG_RUNNABLE_PLAIN,
			name);
	}
}

/* Whether the entries fit `width` in `ncols` columns, each as wide as
 * its widest entry (ls -C's layout); fills colw[0..ncols) when they do. */
static bool
runnable_fits(const size_t *cells, size_t n, size_t ncols, size_t width,
	      size_t *colw)
{
	size_t nrows = (n + ncols - 1) / ncols, total = 0, col, k;

	for (col = 0; col < ncols; col++) {
		size_t w = 0;

		for (k = col * nrows; k < n && k < (col + 1) * nrows; k++)
			if (cells[k] > w)
				w = cells[k];
		colw[col] = w;
		total += w + (col > 0 ? RUNNABLE_GAP : 0);
		if (total > width)
			return false;
	}
	return true;
}

/* The entries in columns, down then across: as many columns as fit. */
static void
runnable_columns(const struct pty_runnable *r, int fd, const char *eol,
		 unsigned width)
{
	size_t ncols, nrows, row, i, *cells, *colw;
	char buf[RUNNABLE_ROW_MAX];

	if (width > RUNNABLE_WIDTH_MAX)
		width = RUNNABLE_WIDTH_MAX;
	cells = calloc(r->n, sizeof *cells);
	colw = calloc(width / (1 + RUNNABLE_GAP) + 1, sizeof *colw);
	if (cells == NULL || colw == NULL) {
		free(cells);
		free(colw);
		runnable_plain(r, fd, eol); /* the same names, one a line */
		return;
	}
	for (i = 0; i < r->n; i++)
		cells[i] = runnable_cells(&r->entries[i]);
	/* a column is at least one cell and a gap wide */
	ncols = width / (1 + RUNNABLE_GAP) + 1;
	if (ncols > r->n)
		ncols = r->n;
	while (ncols > 1 && !runnable_fits(cells, r->n, ncols, width, colw))
		ncols--;
	if (ncols == 1)
		colw[0] = 0;
	nrows = (r->n + ncols - 1) / ncols;
	for (row = 0; row < nrows; row++) {
		size_t off = 0, col;

		for (col = 0; col < ncols; col++) {
			const struct pty_runnable_entry *e;
			char name[PTY_TEXT_MAX];
			size_t k = col * nrows + row, pad = 0;
			int n;

			if (k >= r->n)
				break;
			e = &r->entries[k];
			if (col + 1 < ncols && k + nrows < r->n)
				pad = colw[col] - cells[k] + RUNNABLE_GAP;
			pty_printable(name, sizeof name, e->name);
			n = snprintf(buf + off, sizeof buf - off, "%s%s%*s",
				     name, runnable_mark(e->verdict), (int)pad,
				     "");
			if (n < 0 || (size_t)n >= sizeof buf - off)
				break; /* cut: cannot happen below the bounds */
			off += (size_t)n;
		}
		buf[off] = '\0';
		pty_say(fd, eol, "%s", buf);
	}
	free(cells);
	free(colw);
}

void
pty_say_runnable(const struct pty_runnable *r, int fd, const char *eol,
		 unsigned width)
{
	bool logged = false, confirm = false;
	size_t i;

	if (width == 0) {
		runnable_plain(r, fd, eol);
		return;
	}
	if (r->n == 0) {
		pty_say(fd, eol, PTY_MSG_RUNNABLE_NONE, r->considered);
		return;
	}
	pty_say(fd, eol, PTY_MSG_RUNNABLE_HEAD);
	runnable_columns(r, fd, eol, width);
	for (i = 0; i < r->n; i++) {
		logged |= r->entries[i].verdict == PTY_VERDICT_ALLOW_LOG;
		confirm |= r->entries[i].verdict == PTY_VERDICT_CONFIRM;
	}
	if (logged)
		pty_say(fd, eol, PTY_MSG_RUNNABLE_LEGEND_LOGGED);
	if (confirm)
		pty_say(fd, eol, PTY_MSG_RUNNABLE_LEGEND_CONFIRM);
	pty_say(fd, eol, PTY_MSG_RUNNABLE_COUNT, r->n, r->considered);
	if (r->truncated)
		pty_say(fd, eol, PTY_MSG_RUNNABLE_CUT, PTY_RUNNABLE_MAX,
			PTY_RUNNABLE_ENTRIES_MAX, PTY_RUNNABLE_DIRS_MAX);
}
