/* SPDX-License-Identifier: MIT */
/*
 * What the parts of the audit log share, inside pty/ only: the handle, the
 * limits of the record, the state and its keys (audit_key.c, on
 * libsodium), the body encoder (audit_encode.c), the appender (audit.c),
 * the writer process and its client (audit_writer.c), and the record
 * reader (audit_record.c) that the appender and the verifier
 * (audit_verify.c) both use.
 */
#ifndef PTY_AUDIT_INTERNAL_H
#define PTY_AUDIT_INTERNAL_H

#include "pty_audit.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <sodium.h>

/* the JSON-safe integers: a reader in any language gets seq exactly */
#define AUDIT_SEQ_MAX ((uint64_t)9007199254740991u)
#define AUDIT_HASH_LEN 32 /* SHA-256 of a line: "prev" */
#define AUDIT_SEED_LEN 32 /* seed_n, what the state holds */
#define AUDIT_PK_LEN   crypto_sign_PUBLICKEYBYTES
#define AUDIT_SIG_LEN  crypto_sign_BYTES

/* The most a record adds around its body: {"v":2,"seq":<16 digits>,
 * "time":"<24>", then ,"prev":"<64 hex>","key":"<64 hex>","sig":"<128
 * hex>"} and the newline - 343 bytes, rounded up. */
#define AUDIT_FRAME_MAX 512
#define AUDIT_BODY_MAX  (PTY_AUDIT_LINE_MAX - AUDIT_FRAME_MAX)

/* The signing state of the log (the file `audit_key` names; audit_key.c
 * reads and writes it): the seq of the next record, its seed, and the
 * SHA-256 of the record before it (zeros before record 1). */
struct audit_state {
	uint64_t seq;
	unsigned char seed[AUDIT_SEED_LEN];
	unsigned char last[AUDIT_HASH_LEN];
};

/* A handle: either the log itself, in the process that owns it (fd >= 0),
 * or a client of a writer process that owns it (sock >= 0). */
struct pty_audit {
	/* the log (audit.c) */
	int fd;
	int state_fd; /* the state, also THE lock of every writer */
	char *log_path; /* the configured name: rotation is checked by it */
	char *state_path;
	/* flock(2) excludes per open file description: only this process
	 * may write through state_fd (see audit_append_body) */
	pid_t pid;
	char *tail; /* PTY_AUDIT_LINE_MAX + 1 bytes: the end of the log */
	char *rec;  /* PTY_AUDIT_LINE_MAX bytes: the record being framed */
	/* the last record this handle appended, once on disk (what an
	 * anchor names: "audit anchor: seq N sha256 H") */
	uint64_t last_seq;
	char last_sha256[2 * AUDIT_HASH_LEN + 1];
	bool anchors; /* the writer process: an anchor after session_end */
	bool anchor_due; /* the record just appended wants one, sent once
			    the lock is released */
	/* a writer process (audit_writer.c) */
	int sock;      /* SOCK_SEQPACKET to the writer, or -1 */
	pid_t writer;  /* its pid */
	uint32_t next; /* id of the next request */
	bool broken;   /* it failed to answer once: every later write fails */
	char *body;    /* AUDIT_BODY_MAX bytes: the body being encoded */
};

/* A handle with nothing open (fd and sock -1), or NULL. */
struct pty_audit *audit_handle_new(void);

/* The start of pty_audit_open and pty_audit_start_writer: err cleared,
 * *out NULL, both paths given, a new handle - or NULL with err. */
struct pty_audit *audit_handle_begin(const char *log_path, const char *key_path,
				     struct pty_audit **out, char *err,
				     size_t errlen);

/* How much of a record is recorded by its SHA-256 (pty_audit.h): nothing;
 * the facts; the facts, the line and the argv. */
enum audit_size {
	AUDIT_SIZE_FULL,
	AUDIT_SIZE_FACTS_SHA256,
	AUDIT_SIZE_COMPACT,
};

/* The body of a record (audit_encode.c): the JSON members from "host" to
 * "policy_sha256".  audit_encode_body returns 0 (*len set), 1 when it
 * does not fit in cap, -1 on error.  audit_encode checks the session,
 * tries the sizes in order until one fits, and returns 0 or -1 with one
 * line in err. */
int audit_encode_body(const struct pty_audit_session *s,
		      const struct pty_audit_event *e, enum audit_size size,
		      char *out, size_t cap, size_t *len);
int audit_encode(const struct pty_audit_session *s,
		 const struct pty_audit_event *e, char *out, size_t cap,
		 size_t *len, char *err, size_t errlen);

/* Appends a body as the next record of the log a->fd (audit.c): under the
 * state's lock, framed, signed, read back with audit_parse, written and
 * synced, and the state evolved.  Returns 0,
 * or -1 with one line in err. */
int audit_append_body(struct pty_audit *a, const char *body, size_t len,
		      char *err, size_t errlen);

/* syslog = records (audit_forward.c): once a record is on disk, sends
 * it, the bytes of rec up to its newline (within cap), to the journal or
 * syslog when pty_audit_set_syslog(PTY_AUDIT_SYSLOG_RECORDS) was called in
 * this process or the one that started this writer.  Never fails the
 * record. */
void audit_forward(const char *rec, size_t cap);

/* Whether the writer sends an anchor after each session_end (syslog =
 * on: pty_audit_set_syslog(PTY_AUDIT_SYSLOG_ANCHORS)). */
bool audit_syslog_anchors(void);

/* What a client asks its writer (audit_writer.c). */
enum audit_msg {
	AUDIT_MSG_RECORD = 'R',   /* append this body; answer when synced */
	AUDIT_MSG_FALLBACK = 'F', /* append this body if the client goes
				     away without AUDIT_MSG_DONE */
	AUDIT_MSG_DONE = 'D',     /* the session's end is recorded */
	AUDIT_MSG_RECORD_START = 'C', /* start the session's recording, over
					 the channel sent with it
					 (audit_rec.c) */
};

/* Sends one message to the writer and waits for its answer.  Returns 0,
 * or -1 with one line in err (and the handle is broken for good when the
 * writer did not answer). */
int audit_writer_send(struct pty_audit *a, enum audit_msg kind,
		      const char *body, size_t len, char *err, size_t errlen);

/* audit_writer_send with a descriptor passed along (SCM_RIGHTS). */
int audit_writer_send_fd(struct pty_audit *a, enum audit_msg kind,
			 const char *body, size_t len, int fd, char *err,
			 size_t errlen);

/* Closes the connection to the writer, if any (it then ends). */
void audit_writer_disconnect(struct pty_audit *a);

/* One line of complaint into err (which may be NULL or 0 long). */
void audit_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* n bytes as 2n lowercase hex digits and a NUL. */
void audit_hex(const unsigned char *in, size_t n, char *out);

/* Whether s holds exactly n lowercase hex digits. */
bool audit_is_hex(const char *s, size_t n);

struct statvfs;
/* Whether a file system (vfs) would be down to the reserve the writers
 * keep on it (a quarter of it, at most 64 MiB) once `len` more bytes are
 * written: less than the reserve left after them.  *reserve: its size;
 * *avail: the free bytes. */
bool audit_reserve_in(const struct statvfs *vfs, unsigned long long len,
		      unsigned long long *reserve, unsigned long long *avail);
/* Whether a file system (vfs) is down to the reserve the writers keep on
 * it for sessions that wrote little (a quarter of it, at most 64 MiB), for
 * a session that wrote `mine` bytes there and would write `len` more:
 * true once there is less than the reserve left after them and the
 * session wrote more than a quarter of the reserve.  *avail: the free
 * bytes.  The log's records' rule (audit_writer.c); a recording is not
 * judged by what it wrote before the reserve, but by its user's share
 * (audit_rec.c, audit_share.c). */
bool audit_reserve_reached(const struct statvfs *vfs, unsigned long long mine,
			   unsigned long long len, unsigned long long *avail);

/* Whether a file system (vfs) would be down to the reserve of files
 * (inodes) the writers keep on it (a quarter of them, at most
 * AUDIT_RESERVE_FILES_MAX) once one more file is made: fewer than the
 * reserve left after it.  *reserve: its size, in files.  A file system
 * that counts no files has none. */
#define AUDIT_RESERVE_FILES_MAX 16384ULL
bool audit_reserve_files_in(const struct statvfs *vfs,
			    unsigned long long *reserve);

/* What a reserve counts: bytes written into it, or files made in it. */
enum audit_reserve_unit { AUDIT_RESERVE_BYTES, AUDIT_RESERVE_FILES };

/* Charges `len` bytes written (or files made) into a file system's
 * reserve to `user` in the reserve file `path` (AUDIT_RESERVE_USERS slots
 * of {uid + 1, count}, read and rewritten under its own flock(2), the
 * writer's own 0600 file): 0 when the user's count in the reserve, these
 * included, is at most `most`; -1 with err (beginning with `what`) when it
 * would be more, or the file cannot be kept: then the write (or the file)
 * is refused, the reserve is for the others.  Counted per user across
 * sessions, since a user who starts session after session would otherwise
 * drain it: one rule for the log (audit_writer.c) and the recordings
 * (audit_rec.c: their bytes, and the files they are). */
int audit_reserve_charge(const char *path, uid_t user, unsigned long long len,
			 unsigned long long most, const char *what,
			 enum audit_reserve_unit unit, char *err,
			 size_t errlen);

/* 2n lower-case hex digits into n bytes.  0, or -1 when not hex. */
int audit_unhex(const char *s, size_t n, unsigned char *out);

/* seed_{n+1} from seed_n: HMAC-SHA-256 keyed by seed_n over
 * AUDIT_EVOLVE_LABEL (one-way: seed_n cannot be had from seed_{n+1}).
 * in and out may be the same.  Returns 0, or -1. */
#define AUDIT_EVOLVE_LABEL "maelys-pty audit seed evolution v2"
int audit_seed_evolve(const unsigned char in[AUDIT_SEED_LEN],
		      unsigned char out[AUDIT_SEED_LEN]);

/* pk_n and sk_n of seed_n (crypto_sign_seed_keypair); sk may be NULL.
 * Returns 0, or -1. */
int audit_keypair(const unsigned char seed[AUDIT_SEED_LEN],
		  unsigned char pk[AUDIT_PK_LEN], unsigned char *sk);

/* The state file (pty_audit.h): open for the writer (O_RDWR; a regular
 * file, not a symbolic link, with no access for group or others), read
 * from an open descriptor, written in place and fdatasync'ed.  Each
 * returns 0, or -1 with one line in err. */
int audit_state_open(const char *path, int *fd, char *err, size_t errlen);
int audit_state_read(int fd, const char *path, struct audit_state *st,
		     char *err, size_t errlen);
int audit_state_write(int fd, const char *path, const struct audit_state *st,
		      char *err, size_t errlen);

/* The verification key file: 64 hex digits, a newline allowed.  0, or -1
 * with err. */
int audit_pub_load(const char *path, unsigned char pk[AUDIT_PK_LEN], char *err,
		   size_t errlen);

/* SHA-256 of len bytes into out.  0, or -1. */
int audit_sha256(const void *data, size_t len,
		 unsigned char out[AUDIT_HASH_LEN]);

/* What a parsed record tells the verifier and the writer. */
struct audit_record {
	uint64_t v, seq;
	size_t prev;    /* offset of prev's 64 hex digits */
	size_t key;     /* offset of key's 64 hex digits: pk_{seq+1} */
	size_t sig_key; /* offset of "sig": the sig covers [0, sig_key) */
	size_t sig;     /* offset of sig's 128 hex digits */
};

/* Parses one line (without its newline) exactly as the writer writes it.
 * Returns 0, or -1 with `why` (rec->v is then set if "v" was read: 1 is
 * a record of the old HMAC format, pty_audit.h). */
int audit_parse(const char *line, size_t len, struct audit_record *rec,
		char *why, size_t whylen);

#endif /* PTY_AUDIT_INTERNAL_H */
