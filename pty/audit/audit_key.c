/* SPDX-License-Identifier: MIT */
/*
 * The audit log's cryptography: SHA-256 digests, session ids, and the
 * HMAC-SHA-256 key read from its file - all through libsodium, never
 * computed here.  libsodium rather than OpenSSL's libcrypto: the same
 * primitives at a tenth of the memory (OpenSSL 3 touches some 3.5 MiB of
 * its library loading its providers, which would be half the guard's
 * resident set).  The key's bytes are wiped as soon as the keyed state
 * holds them.
 */
#define _GNU_SOURCE

#include "audit_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

void
audit_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

void
audit_hex(const unsigned char *in, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 0x0f];
	}
	out[2 * n] = '\0';
}

/* Exactly n lower-case hex digits (what audit_hex writes). */
bool
audit_is_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

void
pty_sha256_hex(const void *data, size_t len, char hex[65])
{
	unsigned char md[crypto_hash_sha256_BYTES];

	hex[0] = '\0';
	if (sodium_init() < 0)
		return;
	if (data == NULL)
		data = "";
	if (crypto_hash_sha256(md, data, len) != 0)
		return;
	audit_hex(md, sizeof md, hex);
}

int
pty_audit_session_id(char id[33])
{
	unsigned char r[16];
	size_t got = 0;

	id[0] = '\0';
	while (got < sizeof r) {
		ssize_t n = getrandom(r + got, sizeof r - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	audit_hex(r, sizeof r, id);
	return 0;
}

struct audit_mac *
audit_mac_new(const unsigned char *key, size_t len)
{
	struct audit_mac *m;

	if (sodium_init() < 0 || (m = malloc(sizeof *m)) == NULL)
		return NULL;
	if (crypto_auth_hmacsha256_init(&m->keyed, key, len) != 0) {
		audit_mac_free(m);
		return NULL;
	}
	return m;
}

void
audit_mac_free(struct audit_mac *m)
{
	if (m == NULL)
		return;
	sodium_memzero(m, sizeof *m);
	free(m);
}

int
audit_hmac(const struct audit_mac *m, const void *data, size_t len,
	   unsigned char out[AUDIT_MAC_LEN])
{
	crypto_auth_hmacsha256_state st = m->keyed;
	int rc = 0;

	if (crypto_auth_hmacsha256_update(&st, len ? data : (const void *)"",
					  len) != 0 ||
	    crypto_auth_hmacsha256_final(&st, out) != 0)
		rc = -1;
	sodium_memzero(&st, sizeof st);
	return rc;
}

/* Reads the key file (pty_audit_open's rules) into a keyed state.  The
 * key's bytes live on this stack frame only until the state has them. */
int
audit_key_load(const char *path, struct audit_mac **out, char *err,
	       size_t errlen)
{
	unsigned char key[PTY_AUDIT_KEY_MAX + 1];
	struct stat st;
	size_t len = 0;
	int fd, saved;

	*out = NULL;
	/* O_NONBLOCK: a FIFO put in its place must not hang the open */
	fd = open(path,
		  O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		saved = errno;
		audit_err(err, errlen, "audit key %s: %s", path,
			  saved == ELOOP ? "is a symbolic link"
					 : strerror(saved));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		audit_err(err, errlen, "audit key %s: not a regular file",
			  path);
		(void)close(fd);
		return -1;
	}
	/* whoever can read the key can forge a whole chain; whoever can
	 * write it can make the next records unverifiable */
	if ((st.st_mode & (S_IRWXO | S_IRWXG)) != 0) {
		audit_err(err, errlen,
			  "audit key %s: mode %04o lets others read or change "
			  "it (it must be 0400 or 0600)",
			  path, (unsigned)(st.st_mode & 07777));
		(void)close(fd);
		return -1;
	}
	while (len < sizeof key) {
		ssize_t n = read(fd, key + len, sizeof key - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			saved = errno;
			audit_err(err, errlen, "audit key %s: %s", path,
				  strerror(saved));
			(void)close(fd);
			sodium_memzero(key, sizeof key);
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	(void)close(fd);
	if (len < PTY_AUDIT_KEY_MIN || len > PTY_AUDIT_KEY_MAX) {
		audit_err(err, errlen,
			  "audit key %s: %s%zu bytes; it must have %d to %d",
			  path, len > PTY_AUDIT_KEY_MAX ? "more than " : "",
			  len > PTY_AUDIT_KEY_MAX ? (size_t)PTY_AUDIT_KEY_MAX
						  : len,
			  PTY_AUDIT_KEY_MIN, PTY_AUDIT_KEY_MAX);
		sodium_memzero(key, sizeof key);
		return -1;
	}
	*out = audit_mac_new(key, len);
	sodium_memzero(key, sizeof key);
	if (*out == NULL) {
		audit_err(err, errlen, "audit key %s: no HMAC-SHA-256", path);
		return -1;
	}
	return 0;
}
