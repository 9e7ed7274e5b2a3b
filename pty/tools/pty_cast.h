/* SPDX-License-Identifier: MIT */
/*
 * Reading an asciicast v2 file (a session recording: ours, written by the
 * audit writer, or any other program's, asciinema's own included), one
 * line at a time: the header, then each event [time, code, data].  The
 * file is untrusted and may be large: the reader holds one line at a time
 * (at most PTY_CAST_LINE_MAX bytes), stops at max_bytes, and refuses what
 * the format does not allow with one sentence naming the line.  Codes the
 * format may gain later are passed over, as asciicast v2 asks of a player.
 * A terminal's size (the header's, an "r" event's) is what the recorder
 * says one is (pty_record.h, PTY_RECORD_SIZE_MAX): the reader refuses no
 * size the recorder can write.
 */
#ifndef PTY_CAST_H
#define PTY_CAST_H

#include "pty_record.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The longest line read (the header or one event): a recorder writes a
 * chunk of output a line, far below this. */
#define PTY_CAST_LINE_MAX ((size_t)1 << 20)
/* The largest file read by default: the recorder's largest record_max
 * (64G) and room for its last line. */
#define PTY_CAST_FILE_MAX (((uint64_t)64 << 30) + PTY_CAST_LINE_MAX)
/* The latest time an event may have, in seconds: a century. */
#define PTY_CAST_TIME_MAX 3.2e9

enum pty_cast_code {
	PTY_CAST_OUTPUT, /* "o": what the terminal showed */
	PTY_CAST_INPUT,  /* "i": what was typed */
	PTY_CAST_RESIZE, /* "r": "COLSxROWS" */
	PTY_CAST_MARKER, /* "m": a label (ours: a decision) */
};

struct pty_cast_header {
	unsigned width, height;
	/* the header's idle_time_limit in seconds; < 0: none given */
	double idle_time_limit;
};

struct pty_cast_event {
	double time; /* seconds since the start, finite, never decreasing */
	enum pty_cast_code code;
	/* the data's bytes (a NUL may be inside), NUL-ended at len; valid
	 * until the next call of the reader */
	const char *data;
	size_t len;
	unsigned cols, rows; /* PTY_CAST_RESIZE: the new size */
	size_t lineno;       /* the line it came from, from 1 */
};

struct pty_cast_reader {
	FILE *f;
	uint64_t max_bytes; /* the file's bound */
	uint64_t bytes;     /* read so far */
	size_t lineno;      /* the last line read, from 1 */
	size_t skipped;     /* events of codes unknown to this reader */
	double last_time;
	char *line;  /* one line, PTY_CAST_LINE_MAX + 1 bytes */
	void *event; /* the last event's JSON (jansson), owning its data */
	char err[512];
};

/* Starts reading f (not closed by the reader) and reads its header into
 * *h; the file may hold at most max_bytes (0: PTY_CAST_FILE_MAX).
 * Returns 0, or -1 with one sentence in r->err (the line named).  Either
 * way the caller calls pty_cast_end. */
int pty_cast_begin(struct pty_cast_reader *r, FILE *f, uint64_t max_bytes,
		   struct pty_cast_header *h);

/* The next event of a code this reader knows, into *ev (its data valid
 * until the next call).  Returns 1, 0 at the end of the file, or -1 with
 * one sentence in r->err: a line that is not an event, too long, a time
 * that goes backwards, a file over max_bytes, a read error. */
int pty_cast_next(struct pty_cast_reader *r, struct pty_cast_event *ev);

/* Frees what the reader holds (not its file); NULL-safe, idempotent. */
void pty_cast_end(struct pty_cast_reader *r);

#endif /* PTY_CAST_H */
