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
 * terminal; everything else is copied.
 */
#ifndef PTY_RECORD_H
#define PTY_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
 * next chunk; without one (NULL), it becomes U+FFFD.  Returns the length
 * written; 0 when data is too long or kind is not one of o, i, r, m. */
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
	unsigned width, height;  /* the terminal's, at the start */
	long long timestamp;     /* Unix time of the start */
	const char *shell, *term; /* "env": SHELL and TERM */
	const char *title;
};

/* Creates DIR/NAME (NAME a plain file name: no '/'), mode 0600, with
 * O_EXCL and O_NOFOLLOW, through the folder opened with O_NOFOLLOW |
 * O_DIRECTORY; the folder must belong to this process's effective uid or
 * root and be writable by nobody else.  `max`: the most bytes the file
 * may hold (its bounds are the configuration's, record_max: here only at
 * least 64 KiB, room for the header and the last marker).  Writes the header.  Returns 0, or -1 with one line in err
 * (and nothing left behind but an empty file it could not write to). */
int pty_record_open(const char *dir, const char *name, unsigned long long max,
		    const struct pty_record_header *h, struct pty_record **out,
		    char *err, size_t errlen);

/* Appends one event at t_us (see pty_record_encode_event; data of any
 * length: it is cut in chunks).  Returns 0; 1 when the recording has
 * stopped because the event would take it past its limit (then a last
 * marker "recording stopped: record_max reached" is written, which the
 * limit keeps room for, and every later event is dropped and answers 1);
 * -1 on a write error, with err (the recording is stopped too). */
int pty_record_event(struct pty_record *r, uint64_t t_us, char kind,
		     const void *data, size_t len, char *err, size_t errlen);

/* Writes what is buffered (the writer does so whenever no event waits:
 * a recording is on disk within moments, not only at its end).  Returns
 * 0, or -1 with err (the recording is stopped). */
int pty_record_flush(struct pty_record *r, char *err, size_t errlen);

/* Stops it for a reason of the caller's (it is then not complete). */
void pty_record_stop(struct pty_record *r);

/* The bytes handed to write(2) so far, and those buffered that are not
 * yet. */
unsigned long long pty_record_bytes(const struct pty_record *r);
size_t pty_record_buffered(const struct pty_record *r);

/* Whether it has stopped (limit or error). */
bool pty_record_stopped(const struct pty_record *r);

/* Writes what is buffered, closes the file with fdatasync(2), and gives
 * its size, SHA-256 (64 hex digits) and whether it is complete (not
 * stopped early).  Frees r.  Returns 0, or -1 with err (write or sync
 * failed: *complete is then false; size and digest are of what was
 * handed to write(2)). */
int pty_record_close(struct pty_record *r, unsigned long long *bytes,
		     char sha256[65], bool *complete, char *err,
		     size_t errlen);

#endif /* PTY_RECORD_H */
