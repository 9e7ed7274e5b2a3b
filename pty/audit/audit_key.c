/* SPDX-License-Identifier: MIT */
/*
 * The audit log's cryptography, all through libsodium, never computed
 * here: SHA-256 digests, session ids, and the forward-secure signing keys
 * (pty_audit.h): the seed's one-way evolution (HMAC-SHA-256 keyed by
 * seed_n over a fixed label), Ed25519 key pairs from a seed, the state
 * file that holds the seed, and the verification key file.  libsodium
 * rather than OpenSSL's libcrypto: the same primitives at a tenth of the
 * memory (OpenSSL 3 touches some 3.5 MiB of its library loading its
 * providers, which would be half the guard's resident set).  A seed's
 * bytes are wiped from every buffer that held them once used.
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
#include <sys/resource.h>
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

int
audit_unhex(const char *s, size_t n, unsigned char *out)
{
	size_t i;

	if (!audit_is_hex(s, 2 * n))
		return -1;
	for (i = 0; i < n; i++) {
		unsigned char h = (unsigned char)s[2 * i],
			      l = (unsigned char)s[2 * i + 1];

		out[i] = (unsigned char)(((h <= '9' ? h - '0' : h - 'a' + 10)
					  << 4) |
					 (l <= '9' ? l - '0' : l - 'a' + 10));
	}
	return 0;
}

int
audit_sha256(const void *data, size_t len, unsigned char out[AUDIT_HASH_LEN])
{
	if (sodium_init() < 0)
		return -1;
	return crypto_hash_sha256(out, len ? data : (const void *)"", len);
}

int
audit_seed_evolve(const unsigned char in[AUDIT_SEED_LEN],
		  unsigned char out[AUDIT_SEED_LEN])
{
	unsigned char next[crypto_auth_hmacsha256_BYTES];
	int rc;

	if (sodium_init() < 0)
		return -1;
	rc = crypto_auth_hmacsha256(
	    next, (const unsigned char *)AUDIT_EVOLVE_LABEL,
	    sizeof AUDIT_EVOLVE_LABEL - 1, in);
	if (rc == 0)
		memcpy(out, next, AUDIT_SEED_LEN);
	sodium_memzero(next, sizeof next);
	return rc == 0 ? 0 : -1;
}

int
audit_keypair(const unsigned char seed[AUDIT_SEED_LEN],
	      unsigned char pk[AUDIT_PK_LEN], unsigned char *sk)
{
	unsigned char own[crypto_sign_SECRETKEYBYTES];
	int rc;

	if (sodium_init() < 0)
		return -1;
	rc = crypto_sign_seed_keypair(pk, sk != NULL ? sk : own, seed);
	sodium_memzero(own, sizeof own);
	return rc == 0 ? 0 : -1;
}

/* The state file's text: fixed length, so that it is rewritten in place
 * with one pwrite(2) of less than a sector.
 *   maelys-pty audit state v2\n
 *   seq <16 decimal digits>\n
 *   seed <64 hex digits>\n
 *   last <64 hex digits>\n        */
#define AUDIT_STATE_MAGIC "maelys-pty audit state v2\n"
#define AUDIT_STATE_LEN                                                        \
	(sizeof AUDIT_STATE_MAGIC - 1 + 4 + 16 + 1 + 5 + 64 + 1 + 5 + 64 + 1)

/* What a v1 key file looks like to the writer: not a state. */
static const char audit_state_v1[] =
    "it is not a state of the forward-secure log (a key of an older "
    "maelys-pty, v1?): run maelys-pty-setup, which keeps the old key "
    "aside and makes a new state";

int
audit_state_open(const char *path, int *fd, char *err, size_t errlen)
{
	struct stat st;
	int saved;

	/* O_NONBLOCK: a FIFO put in its place must not hang the open */
	*fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY |
			     O_NONBLOCK);
	if (*fd < 0) {
		saved = errno;
		audit_err(err, errlen, "audit state %s: %s", path,
			  saved == ELOOP ? "is a symbolic link"
					 : strerror(saved));
		return -1;
	}
	if (fstat(*fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		audit_err(err, errlen, "audit state %s: not a regular file",
			  path);
		goto fail;
	}
	/* whoever reads the state can sign every later record; whoever
	 * can write it can end the chain */
	if ((st.st_mode & (S_IRWXO | S_IRWXG)) != 0) {
		audit_err(err, errlen,
			  "audit state %s: mode %04o lets others read or "
			  "change it (it must be 0600)",
			  path, (unsigned)(st.st_mode & 07777));
		goto fail;
	}
	return 0;
fail:
	(void)close(*fd);
	*fd = -1;
	return -1;
}

int
audit_state_read(int fd, const char *path, struct audit_state *st, char *err,
		 size_t errlen)
{
	char buf[AUDIT_STATE_LEN + 1];
	const char *p = buf + sizeof AUDIT_STATE_MAGIC - 1;
	size_t got = 0, i;
	int rc = -1;

	memset(st, 0, sizeof *st);
	while (got < sizeof buf) {
		ssize_t n = pread(fd, buf + got, sizeof buf - got, (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			audit_err(err, errlen, "audit state %s: %s", path,
				  strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got != AUDIT_STATE_LEN ||
	    memcmp(buf, AUDIT_STATE_MAGIC, sizeof AUDIT_STATE_MAGIC - 1) != 0 ||
	    memcmp(p, "seq ", 4) != 0 || p[20] != '\n' ||
	    memcmp(p + 21, "seed ", 5) != 0 || p[90] != '\n' ||
	    memcmp(p + 91, "last ", 5) != 0 || p[160] != '\n') {
		audit_err(err, errlen, "audit state %s: %s", path,
			  audit_state_v1);
		goto out;
	}
	for (i = 0; i < 16; i++) {
		if (p[4 + i] < '0' || p[4 + i] > '9') {
			audit_err(err, errlen, "audit state %s: %s", path,
				  audit_state_v1);
			goto out;
		}
		st->seq = st->seq * 10 + (uint64_t)(p[4 + i] - '0');
	}
	if (st->seq == 0 || st->seq > AUDIT_SEQ_MAX ||
	    audit_unhex(p + 26, AUDIT_SEED_LEN, st->seed) != 0 ||
	    audit_unhex(p + 96, AUDIT_HASH_LEN, st->last) != 0) {
		audit_err(err, errlen, "audit state %s: damaged", path);
		goto out;
	}
	rc = 0;
out:
	sodium_memzero(buf, sizeof buf);
	if (rc != 0)
		sodium_memzero(st, sizeof *st);
	return rc;
}

int
audit_state_write(int fd, const char *path, const struct audit_state *st,
		  char *err, size_t errlen)
{
	char buf[AUDIT_STATE_LEN + 1], seed[2 * AUDIT_SEED_LEN + 1],
	    last[2 * AUDIT_HASH_LEN + 1];
	struct rlimit fsize;
	ssize_t n;
	int rc = -1;

	/* the writer has the user's limits (its guard is the user's
	 * process): under a file size limit shorter than the state,
	 * pwrite(2) would write part of it - a new seq, half a new seed, the
	 * old last - which no writer could continue and nobody could mend
	 * (the old seed is half gone).  Whole or not at all. */
	if (getrlimit(RLIMIT_FSIZE, &fsize) == 0 &&
	    fsize.rlim_cur != RLIM_INFINITY &&
	    fsize.rlim_cur < (rlim_t)AUDIT_STATE_LEN) {
		audit_err(err, errlen,
			  "audit state %s: the file size limit (%llu bytes, "
			  "ulimit -f) is shorter than the state: it is not "
			  "written",
			  path, (unsigned long long)fsize.rlim_cur);
		return -1;
	}
	audit_hex(st->seed, AUDIT_SEED_LEN, seed);
	audit_hex(st->last, AUDIT_HASH_LEN, last);
	(void)snprintf(buf, sizeof buf, "%sseq %016llu\nseed %s\nlast %s\n",
		       AUDIT_STATE_MAGIC, (unsigned long long)st->seq, seed,
		       last);
	do
		n = pwrite(fd, buf, AUDIT_STATE_LEN, 0);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)AUDIT_STATE_LEN)
		audit_err(err, errlen, "audit state %s: write: %s", path,
			  n < 0 ? strerror(errno) : "short");
	else if (fdatasync(fd) != 0)
		audit_err(err, errlen, "audit state %s: fdatasync: %s", path,
			  strerror(errno));
	else
		rc = 0;
	sodium_memzero(buf, sizeof buf);
	sodium_memzero(seed, sizeof seed);
	return rc;
}

int
audit_pub_load(const char *path, unsigned char pk[AUDIT_PK_LEN], char *err,
	       size_t errlen)
{
	char buf[2 * AUDIT_PK_LEN + 3];
	size_t got = 0;
	struct stat st;
	int fd, saved;

	fd = open(path,
		  O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		saved = errno;
		audit_err(err, errlen, "audit verification key %s: %s", path,
			  saved == ELOOP ? "is a symbolic link"
					 : strerror(saved));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		audit_err(err, errlen,
			  "audit verification key %s: not a regular file",
			  path);
		(void)close(fd);
		return -1;
	}
	while (got < sizeof buf) {
		ssize_t n = read(fd, buf + got, sizeof buf - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	(void)close(fd);
	if (got > 2 * AUDIT_PK_LEN && buf[2 * AUDIT_PK_LEN] == '\n')
		got--;
	if (got != 2 * AUDIT_PK_LEN ||
	    audit_unhex(buf, AUDIT_PK_LEN, pk) != 0) {
		audit_err(err, errlen,
			  "audit verification key %s: not 64 lower-case hex "
			  "digits (what maelys-pty-setup writes)",
			  path);
		return -1;
	}
	return 0;
}

void
pty_audit_fingerprint(const unsigned char *pk, size_t len, char out[64])
{
	unsigned char md[crypto_hash_sha256_BYTES];

	out[0] = '\0';
	if (audit_sha256(pk, len, md) != 0)
		return;
	/* 43 characters of base64 after "SHA256:": 51 with the NUL */
	memcpy(out, "SHA256:", 7);
	(void)sodium_bin2base64(out + 7, 64 - 7, md, sizeof md,
				sodium_base64_VARIANT_ORIGINAL_NO_PADDING);
}

/* Creates `path` (which must not exist) with `mode`, holding len bytes.
 * 0, or -1 with err. */
static int
audit_create(const char *path, const char *what, mode_t mode, const char *data,
	     size_t len, char *err, size_t errlen)
{
	int fd = open(path,
		      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	ssize_t n;

	if (fd < 0) {
		audit_err(err, errlen, "%s %s: %s", what, path,
			  errno == EEXIST ? "exists already (it is kept)"
					  : strerror(errno));
		return -1;
	}
	do
		n = write(fd, data, len);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)len || fchmod(fd, mode) != 0 || fsync(fd) != 0) {
		audit_err(err, errlen, "%s %s: %s", what, path,
			  n < 0 ? strerror(errno) : "cannot write it");
		(void)close(fd);
		(void)unlink(path);
		return -1;
	}
	return close(fd) == 0 ? 0 : -1;
}

int
pty_audit_keygen(const char *state_path, const char *pub_path,
		 char fingerprint[64], char *err, size_t errlen)
{
	struct audit_state st;
	unsigned char pk[AUDIT_PK_LEN];
	char hex[2 * AUDIT_PK_LEN + 2];
	int fd = -1, rc = -1;

	if (fingerprint != NULL)
		fingerprint[0] = '\0';
	if (state_path == NULL || pub_path == NULL || sodium_init() < 0) {
		audit_err(err, errlen, "audit key: no path, or no libsodium");
		return -1;
	}
	memset(&st, 0, sizeof st);
	st.seq = 1;
	randombytes_buf(st.seed, sizeof st.seed);
	if (audit_keypair(st.seed, pk, NULL) != 0) {
		audit_err(err, errlen, "audit key: Ed25519 failed");
		goto out;
	}
	audit_hex(pk, sizeof pk, hex);
	hex[2 * AUDIT_PK_LEN] = '\n';
	/* the public key first: a state without it could not be checked */
	if (audit_create(pub_path, "audit verification key", 0644, hex,
			 2 * AUDIT_PK_LEN + 1, err, errlen) != 0)
		goto out;
	fd = open(state_path,
		  O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		audit_err(err, errlen, "audit state %s: %s", state_path,
			  errno == EEXIST ? "exists already (it is kept)"
					  : strerror(errno));
		(void)unlink(pub_path);
		goto out;
	}
	if (fchmod(fd, 0600) != 0 ||
	    audit_state_write(fd, state_path, &st, err, errlen) != 0) {
		(void)unlink(state_path);
		(void)unlink(pub_path);
		goto out;
	}
	if (fingerprint != NULL)
		pty_audit_fingerprint(pk, sizeof pk, fingerprint);
	rc = 0;
out:
	if (fd >= 0)
		(void)close(fd);
	sodium_memzero(&st, sizeof st);
	return rc;
}
