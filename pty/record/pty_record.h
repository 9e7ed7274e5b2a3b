/* SPDX-License-Identifier: MIT */
/*
 * record/: the session recorder's file, an asciicast v2 recording
 * (https://docs.asciinema.org/manual/asciicast/v2/), written by the audit
 * writer process (pty/audit/audit_rec.c), never by the guard the user
 * runs.  It knows nothing of sessions or decisions: it is given a folder,
 * a name, a size limit, and events.
 *
 * The file: one JSON header line, then one line per event,
 *   [TIME, "o"|"i"|"r"|"m", DATA]
 * TIME in seconds with 6 decimals; DATA a JSON string that is always
 * valid UTF-8: an incomplete UTF-8 sequence at the end of one chunk of a
 * stream ("o" or "i") is carried to the next chunk of that stream, and
 * bytes that are not well-formed UTF-8 become U+FFFD, one for each
 * maximal ill-formed subpart, as asciinema does.  Escaped: " and \, the C0
 * controls (\b \f \n \r \t, the others \u00XX), U+007F and the C1 controls
 * U+0080..U+009F as \u00XX, so that `cat` of a recording cannot drive a
 * terminal; everything else is copied.  An "r" event's DATA is a size,
 * "COLSxROWS" (below).
 */
#ifndef PTY_RECORD_H
#define PTY_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A terminal's size, as a recording says it: the header's width and
 * height, and an "r" event's DATA, "COLSxROWS" in decimal.  It is the size
 * the session's shell was given, and it may be anything a struct winsize
 * holds but 0: each from PTY_RECORD_SIZE_MIN to PTY_RECORD_SIZE_MAX.  (A
 * terminal that reports no size, 0, is given 80x24 by the guard, so the
 * recording says 80x24, what the shell was told.)  The writer refuses
 * nothing a terminal can be given, and the reader (tools/cast_read.c)
 * reads everything the writer can write: both use these. */
#define PTY_RECORD_SIZE_MIN      1u
#define PTY_RECORD_SIZE_MAX      65535u /* a struct winsize's unsigned short */
/* "COLSxROWS" as written, at its longest, and its NUL. */
#define PTY_RECORD_SIZE_LEN      sizeof "65535x65535"
/* The longest "COLSxROWS" read (leading zeros are read, never written). */
#define PTY_RECORD_SIZE_TEXT_MAX 32u

/* Whether cols and rows are a size a recording may say. */
bool pty_record_size_valid(unsigned long long cols, unsigned long long rows);

/* "COLSxROWS" (no leading zeros) into out.  Returns its length; 0 when the
 * size is not valid (out is then ""). */
size_t pty_record_size_format(unsigned cols, unsigned rows,
			      char out[PTY_RECORD_SIZE_LEN]);

/* Reads "COLSxROWS" (len bytes: decimal digits, an 'x', decimal digits;
 * at most PTY_RECORD_SIZE_TEXT_MAX bytes) into *cols and *rows.  Returns
 * false, leaving them as they were, when it is not a valid size. */
bool pty_record_size_parse(const char *s, size_t len, unsigned *cols,
			   unsigned *rows);

/* The longest chunk of data one event is given; longer data is the
 * caller's to split. */
#define PTY_RECORD_CHUNK_MAX 16384

/* What one encoded event may take at most: every byte as \u00XX (6), the
 * carried bytes, the brackets, the time and the kind. */
#define PTY_RECORD_EVENT_MAX (6 * (PTY_RECORD_CHUNK_MAX + 4) + 64)

/* The bytes of a stream's last chunk that began a character the chunk
 * did not finish (at most 3). */
struct pty_record_carry {
	unsigned char b[4];
	size_t n;
};

/* Encodes one event: [t, "KIND", DATA]\n into out (at least
 * PTY_RECORD_EVENT_MAX bytes; data at most PTY_RECORD_CHUNK_MAX bytes).
 * t_us: microseconds since the start.  With a carry, the carried bytes
 * come first and an unfinished character at the end is kept for the
 * next chunk; without one (NULL), it becomes U+FFFD.  An "r" event's data
 * is read as a size (pty_record_size_parse) and written as
 * pty_record_size_format writes it; the carry is not used.  Returns the
 * length written; 0 when data is too long, kind is not one of o, i, r, m,
 * or an "r" event's data is not a size. */
size_t pty_record_encode_event(uint64_t t_us, char kind, const void *data,
			       size_t len, struct pty_record_carry *carry,
			       char *out);

/* Encodes len bytes as the inside of a JSON string (no quotes) by the
 * rules above, into out (6 * len bytes at least); with `keep` an
 * unfinished character at the end is not written: *kept says how many
 * bytes were left.  Returns the length written. */
size_t pty_record_encode_text(const unsigned char *s, size_t len, bool keep,
			      size_t *kept, char *out);

struct pty_record; /* an open recording */

/* What the header says. */
struct pty_record_header {
	unsigned width, height;   /* the terminal's, at the start: a size */
	long long timestamp;      /* Unix time of the start */
	const char *shell, *term; /* "env": SHELL and TERM */
	const char *title;
};

/* Each of SHELL, TERM and the title is cut to this many bytes (an
 * unfinished character at the cut becomes U+FFFD). */
#define PTY_RECORD_HEADER_STRING_MAX 1024u
/* What the header line may take at most: each string as \u00XX. */
#define PTY_RECORD_HEADER_MAX        (3 * 6 * PTY_RECORD_HEADER_STRING_MAX + 256)

/* Encodes the header line,
 *   {"version":2,"width":W,"height":H,"timestamp":T,
 *    "env":{"SHELL":..,"TERM":..},"title":..}\n
 * into out (at least PTY_RECORD_HEADER_MAX bytes).  Returns its length;
 * 0 when the width and height are not a size (pty_record_size_valid). */
size_t pty_record_encode_header(const struct pty_record_header *h, char *out);

/* Creates DIR/NAME (NAME a plain file name: no '/'), mode 0600, with
 * O_EXCL and O_NOFOLLOW, through the folder opened with O_NOFOLLOW |
 * O_DIRECTORY; the folder must belong to this process's effective uid or
 * root and be writable by nobody else.  `max`: the most bytes the file
 * may hold (its bounds are the configuration's, record_max: here only at
 * least 64 KiB, room for the header and the last marker).  Writes the
 * header (pty_record_encode_header: a header that is not a size is
 * refused before anything is created).  Returns 0, or -1 with one line in
 * err (and nothing left behind but an empty file it could not write to). */
int pty_record_open(const char *dir, const char *name, unsigned long long max,
		    const struct pty_record_header *h, struct pty_record **out,
		    char *err, size_t errlen);

/* What a call that writes returns when the room was refused (below). */
#define PTY_RECORD_REFUSED 2

/* Asked before each write(2) of the file, whether n more bytes may be
 * written (`written`: what the file holds before them): 0, yes; anything
 * else, no, with one sentence in err.  Then the recording stops: those
 * bytes are neither written nor digested nor counted, every later event
 * is dropped, and the call that was writing returns PTY_RECORD_REFUSED
 * with that sentence.  (The audit writer keeps with it each user's share
 * of the file system, audit/audit_rec.c.) */
typedef int (*pty_record_room_fn)(void *ctx, unsigned long long written,
				  size_t n, char *err, size_t errlen);

/* Asks `room` (with ctx) from now on; NULL: every write may be. */
void pty_record_set_room(struct pty_record *r, pty_record_room_fn room,
			 void *ctx);

/* Appends one event at t_us (see pty_record_encode_event; data of any
 * length: it is cut in chunks).  Returns 0; 1 when the recording has
 * stopped because the event would take it past its limit (then a last
 * marker "recording stopped: record_max reached" is written, which the
 * limit keeps room for, and every later event is dropped and answers 1);
 * PTY_RECORD_REFUSED, with err, when the room was refused (and for every
 * later event); -1 on a write error, with err (the recording is stopped
 * too). */
int pty_record_event(struct pty_record *r, uint64_t t_us, char kind,
		     const void *data, size_t len, char *err, size_t errlen);

/* Writes what is buffered (the writer does so whenever no event waits:
 * a recording is on disk within moments, not only at its end).  Returns
 * 0, PTY_RECORD_REFUSED with err (the room was refused), or -1 with err
 * (a write error); either way the recording is stopped. */
int pty_record_flush(struct pty_record *r, char *err, size_t errlen);

/* Stops it for a reason of the caller's (it is then not complete). */
void pty_record_stop(struct pty_record *r);

/* The bytes handed to write(2) so far (the header's included), and those
 * buffered that are not yet. */
unsigned long long pty_record_bytes(const struct pty_record *r);
size_t pty_record_buffered(const struct pty_record *r);

/* Whether it has stopped (limit or error). */
bool pty_record_stopped(const struct pty_record *r);

/* Writes what is buffered, closes the file with fdatasync(2), and gives
 * its size, SHA-256 (64 hex digits) and whether it is complete (not
 * stopped early).  Frees r.  Returns 0; PTY_RECORD_REFUSED with err when
 * the room for what was buffered was refused now (it is not in the file,
 * and *complete is false); or -1 with err (write or sync failed:
 * *complete is then false).  Size and digest are of what was handed to
 * write(2). */
int pty_record_close(struct pty_record *r, unsigned long long *bytes,
		     char sha256[65], bool *complete, char *err,
		     size_t errlen);

#endif /* PTY_RECORD_H */
