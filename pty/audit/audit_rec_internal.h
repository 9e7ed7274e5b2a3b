/* SPDX-License-Identifier: MIT */
/*
 * The writer's side of the session recording (audit_rec.c), for the
 * writer's serve loop (audit_writer.c); the guard's side is
 * pty_audit_rec.h.
 */
#ifndef AUDIT_REC_INTERNAL_H
#define AUDIT_REC_INTERNAL_H

#include "audit_internal.h"
#include "pty_audit_rec.h"
#include "pty_record.h"

#include <limits.h>
#include <time.h>

/* One frame of the recording channel (pty_audit_rec.h). */
struct audit_rec_frame {
	uint8_t kind; /* 'o', 'i', 'r', 'm'; 'x', 'e' empty */
	uint8_t pad[3];
	uint32_t len; /* at most PTY_RECORD_CHUNK_MAX */
};

/* The request that starts a recording (AUDIT_MSG_RECORD_START, with the
 * channel's descriptor): this, then nine NUL-terminated strings - the
 * session's id, host, user, tty, remote, mode, policy_sha256, and the
 * header's SHELL and TERM. */
struct audit_rec_start {
	uint32_t width, height;
};
#define AUDIT_REC_START_STRINGS 9
#define AUDIT_REC_STRING_MAX    1024

/* The writer's recording of its session. */
struct audit_rec_writer {
	int chan; /* the channel, or -1 */
	struct pty_record *rec;
	struct timespec start;
	/* the session, for the recording_stopped record */
	struct pty_audit_session s;
	char strs[AUDIT_REC_START_STRINGS][AUDIT_REC_STRING_MAX];
	char path[PATH_MAX + 64];
	/* once closed: what session_end says of it */
	bool done;
	/* the guard's end frame came: it handed over all it showed */
	bool ended;
	unsigned long long bytes;
	char sha256[65];
	bool complete;
	/* the real uid of the guard that started the writer: whose share
	 * of the file system's reserve the recording spends */
	uid_t user;
	/* what was read of the channel: many frames a read(2), since the
	 * file is written when the channel is drained (at least one whole
	 * frame must fit) */
	size_t in_len;
	unsigned char in[256 * 1024];
};

void audit_rec_writer_init(struct audit_rec_writer *w, uid_t user);

/* AUDIT_MSG_RECORD_START: creates the recording (the channel `chan` is
 * taken over, closed on failure).  0, or -1 with err. */
int audit_rec_begin(struct audit_rec_writer *w, const char *msg, size_t len,
		    int chan, char *err, size_t errlen);

/* The channel is readable: events into the recording; at its limit, the
 * record "recording_stopped" appended to `a` and the guard told. */
void audit_rec_read(struct audit_rec_writer *w, struct pty_audit *a);

/* Reads the channel to its end (the guard closes it before its
 * session_end; a few seconds at most) and closes the recording. */
void audit_rec_finish(struct audit_rec_writer *w, struct pty_audit *a);

/* Whether a body is a session_end record's. */
bool audit_rec_is_session_end(const char *body, size_t len);

/* The recording's members of session_end (",\"recording\":...") into
 * out; 0 when the session has no recording.  Returns the length, or
 * (size_t)-1 when it does not fit in cap. */
size_t audit_rec_fields(const struct audit_rec_writer *w, char *out,
			size_t cap);

#endif /* AUDIT_REC_INTERNAL_H */
