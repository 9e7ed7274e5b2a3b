/* SPDX-License-Identifier: MIT */
/*
 * The audit log's cryptography: SHA-256 digests, session ids, and the
 * HMAC-SHA-256 key read from its file - all through OpenSSL's libcrypto
 * (EVP), never computed here.  The key's bytes are wiped as soon as the
 * keyed context holds them.
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

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

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
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	if (data == NULL)
		data = "";
	if (!EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) ||
	    mdlen != 32) {
		hex[0] = '\0';
		return;
	}
	audit_hex(md, 32, hex);
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

/* A keyed HMAC-SHA-256 context, or NULL. */
EVP_MAC_CTX *
audit_mac_new(const unsigned char *key, size_t len)
{
	char digest[] = "SHA256";
	OSSL_PARAM params[2];
	EVP_MAC *mac;
	EVP_MAC_CTX *ctx;

	mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	if (mac == NULL)
		return NULL;
	ctx = EVP_MAC_CTX_new(mac);
	EVP_MAC_free(mac); /* the context holds its own reference */
	if (ctx == NULL)
		return NULL;
	params[0] =
	    OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0);
	params[1] = OSSL_PARAM_construct_end();
	if (!EVP_MAC_init(ctx, key, len, params)) {
		EVP_MAC_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

/* HMAC of len bytes under the key of `keyed` (left as it was). */
int
audit_hmac(EVP_MAC_CTX *keyed, const void *data, size_t len,
	   unsigned char out[AUDIT_MAC_LEN])
{
	EVP_MAC_CTX *c = EVP_MAC_CTX_dup(keyed);
	size_t outlen = 0;
	int ok;

	if (c == NULL)
		return -1;
	ok = EVP_MAC_update(c, (const unsigned char *)(len ? data : ""), len) &&
	     EVP_MAC_final(c, out, &outlen, AUDIT_MAC_LEN) &&
	     outlen == AUDIT_MAC_LEN;
	EVP_MAC_CTX_free(c);
	return ok ? 0 : -1;
}

/* Reads the key file (pty_audit_open's rules) into a keyed context.  The
 * key's bytes live on this stack frame only until the context has them. */
int
audit_key_load(const char *path, EVP_MAC_CTX **out, char *err, size_t errlen)
{
	unsigned char key[AUDIT_KEY_MAX + 1];
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
	if ((st.st_mode & (S_IRWXO | S_IWGRP)) != 0) {
		audit_err(err, errlen,
			  "audit key %s: mode %04o lets others read or change "
			  "it (it must be 0640 or 0600)",
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
			OPENSSL_cleanse(key, sizeof key);
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	(void)close(fd);
	if (len < AUDIT_KEY_MIN || len > AUDIT_KEY_MAX) {
		audit_err(err, errlen,
			  "audit key %s: %s%zu bytes; it must have %d to %d",
			  path, len > AUDIT_KEY_MAX ? "more than " : "",
			  len > AUDIT_KEY_MAX ? (size_t)AUDIT_KEY_MAX : len,
			  AUDIT_KEY_MIN, AUDIT_KEY_MAX);
		OPENSSL_cleanse(key, sizeof key);
		return -1;
	}
	*out = audit_mac_new(key, len);
	OPENSSL_cleanse(key, sizeof key);
	if (*out == NULL) {
		audit_err(err, errlen, "audit key %s: no HMAC-SHA-256", path);
		return -1;
	}
	return 0;
}
