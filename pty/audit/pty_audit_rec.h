/* SPDX-License-Identifier: MIT */
/*
 * The session recording, as the guard sees it (audit_rec.c): the audit
 * writer process creates and writes the recording (record/, pty_record.h)
 * of an interactive session; the guard streams what it shows the user to
 * the writer.
 *
 * Why a second socket, a stream the guard never waits on.  The records of
 * decisions go over the writer's SOCK_SEQPACKET socket, one request and
 * its answer at a time, and a guard waits for each answer (up to 30 s).
 * A terminal's output is far more, and must not wait for answers: the
 * guard's end of the recording channel is non-blocking, what the socket
 * does not take waits in a bounded queue in the guard, and while that
 * queue is full the relay stops reading the shell's output (the shell
 * then waits, as it does for a slow terminal), but keys, signals and
 * exec decisions go on.  So a writer that stalls (a slow disk, a long
 * fdatasync of the log) holds back the session's output only, for as
 * long as it stalls, and never the records' channel; on one socket the
 * output would queue in front of every decision's record.
 *
 * The channel carries frames from the guard: a struct audit_rec_frame and
 * at most PTY_RECORD_CHUNK_MAX bytes ("o" output, "i" input, "r" a size
 * "COLSxROWS" as pty_record_size_parse reads it - any other is a
 * malformed frame -, "m" a marker's label; "x", empty: the guard's queue
 * overflowed and what follows is not all there was, so the writer stops
 * the recording as incomplete; "e", empty: the end, queued last by
 * pty_audit_rec_end - a channel that closes without it (the guard
 * was killed: it runs as the user; or it gave up sending its queue)
 * leaves the recording incomplete, as output the guard showed may be
 * missing); the writer timestamps each when it reads it.  The writer sends back one byte, 'S', when the recording has
 * stopped (record_max reached, its user's share of the file system or of
 * its reserve used, or a write failed): it has then appended the audit
 * record "recording_stopped", and the guard applies on_record_failure.
 */
#ifndef PTY_AUDIT_REC_H
#define PTY_AUDIT_REC_H

#include "pty_audit.h"

#include <stdbool.h>
#include <stddef.h>

/* Where a writer started after this call records sessions, the limit of
 * a recording (record_max), and the share of the folder's file system
 * one user's open recordings may hold together (record_share; 0: an
 * eighth of it): called while the guard still holds the audit account,
 * before pty_audit_start_writer, so that the folder comes from the
 * configuration the privileged guard read and never from a message the
 * guard sends later (the user may control the guard by then). */
void pty_audit_record_configure(const char *dir, unsigned long long max,
				unsigned long long share);

struct pty_audit_rec; /* the guard's end of a recording */

enum pty_audit_rec_state {
	PTY_AUDIT_REC_ON,
	PTY_AUDIT_REC_STOPPED, /* the writer stopped it (record_max, disk) */
	PTY_AUDIT_REC_FAILED,  /* the writer is gone, or the queue overflowed */
};

/* Asks the writer of `a` to create the recording of session s
 * (DIR/ID.cast) with the terminal's size and the header's SHELL and
 * TERM, and waits for its answer.  Returns 0, or -1 with one line in
 * err (no recording: the session must not start) - among the reasons,
 * that the user's open recordings already hold their share of the
 * file system. */
int pty_audit_rec_start(struct pty_audit *a, const struct pty_audit_session *s,
			unsigned width, unsigned height, const char *shell,
			const char *term, struct pty_audit_rec **out,
			char *err, size_t errlen);

/* Queues an event ('o', 'i', 'r', 'm') and sends what the socket takes.
 * Never blocks.  Dropped once the recording is not on. */
void pty_audit_rec_put(struct pty_audit_rec *r, char kind, const void *data,
		       size_t len);

/* Queues the terminal's new size, cols x rows, as an "r" event: the size
 * the session's shell was given (pty_record.h: each 1 to 65535; a size
 * out of that range is not queued). */
void pty_audit_rec_resize(struct pty_audit_rec *r, unsigned cols,
			  unsigned rows);

/* The channel's descriptor, for poll: POLLIN always (the writer's 'S'),
 * POLLOUT while pty_audit_rec_pending; -1 once the recording is not on. */
int pty_audit_rec_fd(const struct pty_audit_rec *r);
bool pty_audit_rec_pending(const struct pty_audit_rec *r);

/* Whether the queue is full: the caller stops reading what it would
 * queue (the shell's output, the keys of a job) until it is not. */
bool pty_audit_rec_full(const struct pty_audit_rec *r);

/* Sends what is queued and reads what the writer said, without
 * blocking; returns the state. */
enum pty_audit_rec_state pty_audit_rec_service(struct pty_audit_rec *r);

/* Sends what is queued (waiting up to timeout_ms in all), closes the
 * channel (the writer then closes the file, which the session_end record
 * describes) and frees r.  NULL is allowed. */
void pty_audit_rec_end(struct pty_audit_rec *r, int timeout_ms);

#endif /* PTY_AUDIT_REC_H */
