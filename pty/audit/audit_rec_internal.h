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

/* The recordings' shares of their file system (audit_share.c): the open
 * recordings of one user may hold together at most their share -
 * record_share, or, when it is not set, an AUDIT_SHARE_PART-th of the
 * file system (an eighth: one user, however many sessions they open,
 * holds no more than that with recordings still growing).  The writers of
 * all sessions keep what each open recording holds in DIR/.recordings.
 * shares: one slot a recording, at most AUDIT_SHARE_USER_SLOTS a user. */
#define AUDIT_SHARE_SLOTS      1024
#define AUDIT_SHARE_USER_SLOTS 64
#define AUDIT_SHARE_PART       8

struct audit_share_slot {
	uint64_t uid1;  /* the user's uid + 1; 0: a free slot */
	uint64_t bytes; /* what that open recording holds */
};

/* One open recording's slot. */
struct audit_share {
	int fd;             /* the shares' file, held open (and its slot's lock)
			     * while the recording is; -1: none */
	size_t slot;        /* its slot */
	uid_t user;         /* whose recording it is */
	char dir[PATH_MAX]; /* the recordings' folder, for messages */
};

/* A user's share of a file system of fs_bytes: `configured` (record_share)
 * when it is not 0, else fs_bytes / AUDIT_SHARE_PART. */
unsigned long long audit_share_of(unsigned long long fs_bytes,
				  unsigned long long configured);

/* Whether a user whose open recordings hold `held` may write `len` more
 * within `share` (held + len <= share, computed without wrapping). */
bool audit_share_fits(unsigned long long held, unsigned long long len,
		      unsigned long long share);

/* What user's slots among n hold together (ULLONG_MAX at most). */
unsigned long long audit_share_held(const struct audit_share_slot *slots,
				    size_t n, uid_t user);

/* Takes a slot for a recording of `user` that opens in the folder dir
 * (the shares' file created there, 0600, when it is not), freeing those
 * of recordings no longer open.  Returns 0, or -1 with err: the file
 * cannot be kept, the user has AUDIT_SHARE_USER_SLOTS recordings open, or
 * every slot is taken (sh->fd is then -1). */
int audit_share_open(struct audit_share *sh, const char *dir, uid_t user,
		     char *err, size_t errlen);

/* Counts `len` more bytes for this recording, if its user's open
 * recordings (this one included, those no longer open freed first) then
 * hold at most `share`.  *held: what they held before.  Returns 0 (counted),
 * 1 (over the share: not counted), or -1 with err (the file cannot be
 * kept: nothing is counted, the caller refuses the write). */
int audit_share_charge(struct audit_share *sh, unsigned long long len,
		       unsigned long long share, unsigned long long *held,
		       char *err, size_t errlen);

/* Frees the slot and closes the file (the slot's lock goes with it);
 * nothing to do when sh->fd is -1. */
void audit_share_close(struct audit_share *sh);

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
	/* a recording_stopped record was written: one a recording */
	bool stop_said;
	unsigned long long bytes;
	char sha256[65];
	bool complete;
	/* the real uid of the guard that started the writer: whose share
	 * of the file system (and of its reserve) the recording spends */
	uid_t user;
	struct audit_share share;
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
