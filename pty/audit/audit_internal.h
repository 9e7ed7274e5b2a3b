/* SPDX-License-Identifier: MIT */
/*
 * What the parts of the audit log share, inside pty/ only: the handle, the
 * limits of the key and the record, the key and MAC helpers (audit_key.c,
 * on libsodium), the body encoder (audit_encode.c), the appender (audit.c),
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

#define AUDIT_MAC_LEN  32
/* the JSON-safe integers: a reader in any language gets seq exactly */
#define AUDIT_SEQ_MAX  ((uint64_t)9007199254740991u)
/* "mac":" + 64 hex digits + "} : what follows the bytes the mac covers */
#define AUDIT_MAC_TAIL 73

/* The most a record adds around its body: {"v":1,"seq":<16 digits>,
 * "time":"<24>", then ,"prev":"<64 hex>", and "mac":"<64 hex>"} and the
 * newline - 212 bytes, rounded up. */
#define AUDIT_FRAME_MAX 256
#define AUDIT_BODY_MAX  (PTY_AUDIT_LINE_MAX - AUDIT_FRAME_MAX)

/* A handle: either the log itself, in the process that owns it (fd >= 0),
 * or a client of a writer process that owns it (sock >= 0). */
struct pty_audit {
	/* the log (audit.c) */
	int fd;
	/* flock(2) excludes per open file description: only this process
	 * may write through fd (see audit_append_body) */
	pid_t pid;
	struct audit_mac *mac; /* keyed HMAC-SHA-256, copied per message */
	char *tail; /* PTY_AUDIT_LINE_MAX + 1 bytes: the end of the log */
	char *rec;  /* PTY_AUDIT_LINE_MAX bytes: the record being framed */
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

/* The body of a record (audit_encode.c): the JSON members from "host" to
 * "policy_sha256".  audit_encode_body returns 0 (*len set), 1 when it
 * does not fit in cap, -1 on error; `compact` records the line and the
 * argv by their SHA-256 (pty_audit.h).  audit_encode checks the session,
 * tries the whole body then the compact one, and returns 0 or -1 with one
 * line in err. */
int audit_encode_body(const struct pty_audit_session *s,
		      const struct pty_audit_event *e, bool compact, char *out,
		      size_t cap, size_t *len);
int audit_encode(const struct pty_audit_session *s,
		 const struct pty_audit_event *e, char *out, size_t cap,
		 size_t *len, char *err, size_t errlen);

/* Appends a body as the next record of the log a->fd (audit.c): under the
 * lock, framed, read back with audit_parse, written and synced.  Returns 0,
 * or -1 with one line in err. */
int audit_append_body(struct pty_audit *a, const char *body, size_t len,
		      char *err, size_t errlen);

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

/* A keyed HMAC-SHA-256 state (libsodium): the key's inner and outer
 * blocks already absorbed, copied for each message. */
struct audit_mac {
	crypto_auth_hmacsha256_state keyed;
};

/* A keyed HMAC-SHA-256 state, or NULL (no memory, libsodium unusable). */
struct audit_mac *audit_mac_new(const unsigned char *key, size_t len);

/* Wipes and frees a state; NULL is allowed. */
void audit_mac_free(struct audit_mac *m);

/* HMAC of len bytes under the key of `m` (left as it was).  0 or -1. */
int audit_hmac(const struct audit_mac *m, const void *data, size_t len,
	       unsigned char out[AUDIT_MAC_LEN]);

/* Reads the key file (pty_audit_open's rules) into a keyed state.
 * Returns 0, or -1 with one line in err. */
int audit_key_load(const char *path, struct audit_mac **out, char *err,
		   size_t errlen);

/* What a parsed record tells the verifier and the writer. */
struct audit_record {
	uint64_t v, seq;
	size_t prev;    /* offset of prev's 64 hex digits */
	size_t mac_key; /* offset of "mac": the mac covers [0, mac_key) */
	size_t mac;     /* offset of mac's 64 hex digits */
};

/* Parses one line (without its newline) exactly as the writer writes it.
 * Returns 0, or -1 with `why`. */
int audit_parse(const char *line, size_t len, struct audit_record *rec,
		char *why, size_t whylen);

#endif /* PTY_AUDIT_INTERNAL_H */
