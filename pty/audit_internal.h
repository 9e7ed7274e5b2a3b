/* SPDX-License-Identifier: MIT */
/*
 * What the parts of the audit log share, inside pty/ only: the limits of
 * the key and the record, the key and MAC helpers (audit_key.c, on
 * libsodium) and the
 * record reader (audit_record.c) that the writer (audit.c) and the
 * verifier (audit_verify.c) both use.
 */
#ifndef PTY_AUDIT_INTERNAL_H
#define PTY_AUDIT_INTERNAL_H

#include "pty_audit.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

#define AUDIT_KEY_MIN  32
#define AUDIT_KEY_MAX  4096
#define AUDIT_MAC_LEN  32
/* the JSON-safe integers: a reader in any language gets seq exactly */
#define AUDIT_SEQ_MAX  ((uint64_t)9007199254740991u)
/* "mac":" + 64 hex digits + "} : what follows the bytes the mac covers */
#define AUDIT_MAC_TAIL 73

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
