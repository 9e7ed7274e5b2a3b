/* SPDX-License-Identifier: MIT */
/*
 * bench_audit - the cost per record of the forward-secure audit log (v2,
 * pty/audit/pty_audit.h) beside the HMAC frame it replaced (v1), in one run:
 *
 *   1. the frame alone, on a record of the size a line's decision makes
 *      (about 600 bytes): v1, two HMAC-SHA-256 (prev and mac) under a
 *      fixed key, against v2, SHA-256 of the previous line, the seed's
 *      evolution, the key pairs of seed_n and seed_{n+1} and the Ed25519
 *      signature (the library's own functions, audit_key.c);
 *   2. the state's rewrite (one pwrite(2) of 187 bytes), without
 *      fdatasync;
 *   3. a whole append: pty_audit_write in this process (encode, frame,
 *      sign, write, fdatasync the log, evolve, rewrite and fdatasync the
 *      state, under the state's flock) against a v1 appender written here
 *      as the old audit.c did it (flock, read the last line, two HMACs,
 *      write, fdatasync) - on tmpfs (/dev/shm, where fdatasync costs
 *      nothing: fdatasync excluded) and on the disk of /var/tmp (fdatasync
 *      included: v2 syncs twice, the log and the state).
 *
 *   bench_audit [RECORDS] [ROUNDS]
 *
 * Each row is the median over ROUNDS rounds of the mean over RECORDS
 * records; v1 and v2 alternate round by round.  The machine is shared and
 * noisy: compare the rows of one run.
 */
#define _GNU_SOURCE

#include "audit_internal.h"
#include "pty_audit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

static double
now_us(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof v[0], cmp_double);
	return v[n / 2];
}

static void
die(const char *what)
{
	fprintf(stderr, "bench_audit: %s\n", what);
	exit(1);
}

/* A record body the size of a line's decision (tokens, reasons, policy). */
static const char bench_body[] =
    ",\"host\":\"bastion1\",\"user\":\"alice\",\"session\":"
    "\"0123456789abcdef0123456789abcdef\",\"tty\":\"/dev/pts/3\","
    "\"remote\":\"192.0.2.7\",\"mode\":\"interactive\",\"event\":\"line\","
    "\"line\":\"ssh -p 2222 deploy@db1.internal 'systemctl status "
    "postgresql'\",\"tokens\":[\"ssh\",\"-p\",\"2222\",\"deploy@db1."
    "internal\",\"systemctl status postgresql\"],\"metachars\":[\"quote\"],"
    "\"decision\":\"allow\",\"reasons\":[{\"op\":\"ssh\",\"reason\":"
    "\"ops may reach the database hosts on the deploy account\"}],"
    "\"policy_sha256\":\"9ea847110cbbec45767bc46f59bb3201a1c2d3e4f5a6b7c8d9"
    "e0f1a2b3c4d5e6\"";

/* 1. v1's frame: HMAC of the previous line (prev), HMAC of the record. */
static double
frame_v1(int n)
{
	unsigned char key[32], prev[32], mac[32];
	char rec[2048], hex[65];
	size_t len;
	double t0;
	int i;

	memset(key, 7, sizeof key);
	memset(rec, 'x', sizeof rec);
	len = 0;
	t0 = now_us();
	for (i = 0; i < n; i++) {
		(void)crypto_auth_hmacsha256(prev, (const unsigned char *)rec,
					     len ? len : 600, key);
		audit_hex(prev, 32, hex);
		len = (size_t)snprintf(rec, sizeof rec,
				       "{\"v\":1,\"seq\":%d,\"time\":\"2026-12-"
				       "02T15:04:05.123Z\"%s,\"prev\":\"%s\",",
				       i + 1, bench_body, hex);
		(void)crypto_auth_hmacsha256(mac, (const unsigned char *)rec,
					     len, key);
		audit_hex(mac, 32, hex);
		len += (size_t)snprintf(rec + len, sizeof rec - len,
					"\"mac\":\"%s\"}", hex);
	}
	return (now_us() - t0) / n;
}

/* 1. v2's frame: SHA-256 of the previous line, evolve, two key pairs, the
 * signature (what audit.c's audit_frame and audit_append_one do). */
static double
frame_v2(int n)
{
	unsigned char seed[AUDIT_SEED_LEN], next[AUDIT_SEED_LEN], prev[32],
	    pk[AUDIT_PK_LEN], sk[crypto_sign_SECRETKEYBYTES],
	    sig[AUDIT_SIG_LEN];
	char rec[2048], hex[2 * AUDIT_SIG_LEN + 1], key[65];
	size_t len = 600;
	double t0;
	int i;

	memset(seed, 9, sizeof seed);
	memset(rec, 'x', sizeof rec);
	t0 = now_us();
	for (i = 0; i < n; i++) {
		(void)audit_sha256(rec, len, prev);
		audit_hex(prev, 32, hex);
		if (audit_seed_evolve(seed, next) != 0 ||
		    audit_keypair(seed, pk, sk) != 0 ||
		    audit_keypair(next, pk, NULL) != 0)
			die("keys");
		audit_hex(pk, AUDIT_PK_LEN, key);
		len = (size_t)snprintf(rec, sizeof rec,
				       "{\"v\":2,\"seq\":%d,\"time\":\"2026-12-"
				       "02T15:04:05.123Z\"%s,\"prev\":\"%s\","
				       "\"key\":\"%s\",",
				       i + 1, bench_body, hex, key);
		(void)crypto_sign_detached(sig, NULL, (unsigned char *)rec, len,
					   sk);
		audit_hex(sig, AUDIT_SIG_LEN, hex);
		len += (size_t)snprintf(rec + len, sizeof rec - len,
					"\"sig\":\"%s\"}", hex);
		memcpy(seed, next, sizeof seed);
	}
	sodium_memzero(sk, sizeof sk);
	return (now_us() - t0) / n;
}

/* 2. The state's rewrite without fdatasync: one pwrite(2) (what
 * audit_state_write does but its fdatasync). */
static double
state_pwrite(const char *dir, int n)
{
	char path[512], text[PTY_AUDIT_STATE_SIZE];
	double t0;
	int fd, i;

	(void)snprintf(path, sizeof path, "%s/bench.state", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		die("state file");
	memset(text, 's', sizeof text);
	t0 = now_us();
	for (i = 0; i < n; i++)
		if (pwrite(fd, text, sizeof text, 0) != (ssize_t)sizeof text)
			die("pwrite");
	t0 = (now_us() - t0) / n;
	(void)close(fd);
	(void)unlink(path);
	return t0;
}

/* 3. The v1 appender as the old audit.c did it, on `log`. */
struct v1_log {
	int fd;
	unsigned char key[32];
};

static void
v1_append(struct v1_log *l)
{
	char tail[4096], rec[2048], hex[65];
	unsigned char mac[32];
	const char *line = "";
	struct stat st;
	size_t len, llen = 0;
	ssize_t got;

	if (flock(l->fd, LOCK_EX) != 0 || fstat(l->fd, &st) != 0)
		die("v1 flock");
	if (st.st_size > 0) {
		size_t want = st.st_size < 4096 ? (size_t)st.st_size : 4096;
		const char *nl;

		got = pread(l->fd, tail, want, st.st_size - (off_t)want);
		if (got != (ssize_t)want || tail[want - 1] != '\n')
			die("v1 tail");
		nl = memrchr(tail, '\n', want - 1);
		line = nl != NULL ? nl + 1 : tail;
		llen = (size_t)(tail + want - 1 - line);
	}
	(void)crypto_auth_hmacsha256(mac, (const unsigned char *)line, llen,
				     l->key);
	audit_hex(mac, 32, hex);
	len = (size_t)snprintf(rec, sizeof rec,
			       "{\"v\":1,\"seq\":1,\"time\":\"2026-12-02T15:04:"
			       "05.123Z\"%s,\"prev\":\"%s\",",
			       bench_body, hex);
	(void)crypto_auth_hmacsha256(mac, (const unsigned char *)rec, len,
				     l->key);
	audit_hex(mac, 32, hex);
	len += (size_t)snprintf(rec + len, sizeof rec - len,
				"\"mac\":\"%s\"}\n", hex);
	if (write(l->fd, rec, len) != (ssize_t)len || fdatasync(l->fd) != 0)
		die("v1 write");
	(void)flock(l->fd, LOCK_UN);
}

static double
append_v1(const char *dir, int n)
{
	struct v1_log l;
	char path[512];
	double t0;
	int i;

	(void)snprintf(path, sizeof path, "%s/bench-v1.log", dir);
	l.fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_TRUNC | O_CLOEXEC,
		    0600);
	if (l.fd < 0)
		die("v1 log");
	memset(l.key, 7, sizeof l.key);
	t0 = now_us();
	for (i = 0; i < n; i++)
		v1_append(&l);
	t0 = (now_us() - t0) / n;
	(void)close(l.fd);
	(void)unlink(path);
	return t0;
}

/* 3. pty_audit_write, this process, a fresh log and state. */
static double
append_v2(const char *dir, int n)
{
	static const struct pty_audit_reason reason = {
	    {"ssh", 3}, {"ops may reach the database hosts", 32}};
	static const struct pty_audit_text tokens[] = {
	    {"ssh", 3}, {"-p", 2}, {"2222", 4}, {"deploy@db1.internal", 19}};
	struct pty_audit_decision d;
	struct pty_audit_session s;
	struct pty_audit_event e;
	struct pty_audit *a = NULL;
	char log[512], state[512], pub[512], err[512];
	double t0;
	int i;

	(void)snprintf(log, sizeof log, "%s/bench-v2.log", dir);
	(void)snprintf(state, sizeof state, "%s/bench-v2.state", dir);
	(void)snprintf(pub, sizeof pub, "%s/bench-v2.pub", dir);
	(void)unlink(log);
	(void)unlink(state);
	(void)unlink(pub);
	if (pty_audit_keygen(state, pub, NULL, err, sizeof err) != 0 ||
	    pty_audit_open(log, state, &a, err, sizeof err) != 0)
		die(err);
	memset(&s, 0, sizeof s);
	memcpy(s.id, "0123456789abcdef0123456789abcdef", 33);
	s.host = "bastion1";
	s.user = "alice";
	s.tty = "/dev/pts/3";
	s.remote = "192.0.2.7";
	s.mode = "interactive";
	pty_sha256_hex("policy", 6, s.policy_sha256);
	memset(&d, 0, sizeof d);
	d.tokens = tokens;
	d.ntokens = 4;
	d.reasons = &reason;
	d.nreasons = 1;
	memset(&e, 0, sizeof e);
	e.event = "line";
	e.line = "ssh -p 2222 deploy@db1.internal 'systemctl status "
		 "postgresql'";
	e.line_len = strlen(e.line);
	e.decision = &d;
	e.outcome = "allow";
	t0 = now_us();
	for (i = 0; i < n; i++)
		if (pty_audit_write(a, &s, &e, err, sizeof err) != 0)
			die(err);
	t0 = (now_us() - t0) / n;
	pty_audit_close(a);
	if (pty_audit_verify(log, pub, NULL) != 0)
		die("the v2 log does not verify");
	(void)unlink(log);
	(void)unlink(state);
	(void)unlink(pub);
	return t0;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	int rounds = argc > 2 ? atoi(argv[2]) : 9;
	const char *dirs[2] = {"/dev/shm", "/var/tmp"};
	double *v1, *v2, *st;
	int r, k;

	if (n < 10 || rounds < 1 || sodium_init() < 0)
		die("usage: bench_audit [RECORDS >= 10] [ROUNDS >= 1]");
	v1 = calloc((size_t)rounds, sizeof *v1);
	v2 = calloc((size_t)rounds, sizeof *v2);
	st = calloc((size_t)rounds, sizeof *st);
	if (v1 == NULL || v2 == NULL || st == NULL)
		die("out of memory");
	printf("audit record cost, median of %d rounds of %d records:\n",
	       rounds, n);
	for (r = 0; r < rounds; r++) {
		v1[r] = frame_v1(n);
		v2[r] = frame_v2(n);
		st[r] = state_pwrite("/dev/shm", n);
	}
	printf("  frame   v1 HMAC (2 x HMAC-SHA-256)          %8.2f us\n",
	       median(v1, rounds));
	printf("  frame   v2 evolving key (SHA-256, evolve,\n"
	       "          2 key pairs, Ed25519 sign)          %8.2f us  "
	       "(%.1fx v1)\n",
	       median(v2, rounds), median(v2, rounds) / median(v1, rounds));
	printf("  state   rewrite, pwrite without fdatasync  %8.2f us\n",
	       median(st, rounds));
	for (k = 0; k < 2; k++) {
		int m = k == 0 ? n : n / 10;

		if (access(dirs[k], W_OK) != 0)
			continue;
		for (r = 0; r < rounds; r++) {
			v1[r] = append_v1(dirs[k], m);
			v2[r] = append_v2(dirs[k], m);
		}
		printf("  append on %s (%s), %d records a round:\n", dirs[k],
		       k == 0 ? "tmpfs: fdatasync excluded"
			      : "fdatasync included",
		       m);
		printf("          v1 appender (flock, tail, HMACs, write,\n"
		       "          fdatasync)                          %8.2f us\n",
		       median(v1, rounds));
		printf("          v2 pty_audit_write (+ sign, state\n"
		       "          rewrite and its fdatasync)          %8.2f us  "
		       "(%.1fx v1)\n",
		       median(v2, rounds), median(v2, rounds) / median(v1, rounds));
	}
	free(v1);
	free(v2);
	free(st);
	return 0;
}
