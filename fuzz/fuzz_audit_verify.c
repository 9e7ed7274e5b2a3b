/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the audit log's reader and verifier (pty/audit*.c): any
 * bytes as a log file, checked against a fixed verification key, pk_1 of
 * FUZZ_AUDIT_SEED (the seeds in corpus/audit_verify/ were signed along its
 * chain, so that mutations of a valid chain reach every field of the
 * reader).  Besides "never crash", it checks what the guard relies on:
 *   - pty_audit_verify answers 0 (intact) or 1 (broken) for a regular file
 *     it can read, and 2 only for a v1 log, saying so;
 *   - an intact log of n records, given the state a writer would have
 *     after them (made here from the documented format: seed_1 evolved n
 *     times, the last record's SHA-256 from the report), takes a record
 *     made from the input (its line: the input's first bytes, scanned; a
 *     reason: more of them), and then verifies with n + 1 records and the
 *     state agreeing; appending never makes a broken log verify;
 *   - the same record written to an empty log with a fresh state always
 *     verifies: whatever the bytes, the writer's escaping and the reader
 *     agree (its "facts" too: the input as a string and as an integer,
 *     from an input EDB).
 * The files live in a directory made once per process (under /dev/shm when
 * it is there, so that fdatasync costs nothing) and removed at exit.
 */
#define _GNU_SOURCE

#include "fuzz.h"

#include "guard_record.h"
#include "pty_audit.h"

#include <maelys/datalog_builders.h>

#include <fcntl.h>
#include <inttypes.h>
#include <sodium.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 32 bytes: seed_1 of the seed corpus (not a secret) */
#define FUZZ_AUDIT_SEED "maelys-pty audit fuzz seed: pub."
/* the seed's evolution (pty_audit.h) */
#define FUZZ_EVOLVE     "maelys-pty audit seed evolution v2"
/* the longest record line taken from an input */
#define FUZZ_LINE_MAX  6000

static char fuzz_dir[256], fuzz_log[300], fuzz_fresh[300], fuzz_key[300],
    fuzz_pub[300];

static void
fuzz_cleanup(void)
{
	(void)unlink(fuzz_log);
	(void)unlink(fuzz_fresh);
	(void)unlink(fuzz_key);
	(void)unlink(fuzz_pub);
	(void)rmdir(fuzz_dir);
}

static void
fuzz_spit(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	const char *p = data;

	if (fd < 0)
		abort();
	while (len > 0) {
		ssize_t w = write(fd, p, len);

		if (w <= 0)
			abort();
		p += w;
		len -= (size_t)w;
	}
	if (close(fd) != 0)
		abort();
}

static void
fuzz_setup(void)
{
	const char *base = "/dev/shm";

	if (fuzz_dir[0] != '\0')
		return;
	if (access(base, W_OK) != 0) {
		base = getenv("TMPDIR");
		if (base == NULL || base[0] == '\0')
			base = "/tmp";
	}
	(void)snprintf(fuzz_dir, sizeof fuzz_dir, "%s/fuzz-audit.XXXXXX", base);
	if (mkdtemp(fuzz_dir) == NULL)
		abort();
	(void)snprintf(fuzz_log, sizeof fuzz_log, "%s/audit.log", fuzz_dir);
	(void)snprintf(fuzz_fresh, sizeof fuzz_fresh, "%s/fresh.log", fuzz_dir);
	(void)snprintf(fuzz_key, sizeof fuzz_key, "%s/audit.key", fuzz_dir);
	(void)snprintf(fuzz_pub, sizeof fuzz_pub, "%s/audit.pub", fuzz_dir);
	{
		unsigned char pk[crypto_sign_PUBLICKEYBYTES],
		    sk[crypto_sign_SECRETKEYBYTES];
		char hex[2 * sizeof pk + 2];

		if (sodium_init() < 0 ||
		    crypto_sign_seed_keypair(
			pk, sk, (const unsigned char *)FUZZ_AUDIT_SEED) != 0)
			abort();
		sodium_bin2hex(hex, sizeof hex, pk, sizeof pk);
		hex[2 * sizeof pk] = '\n';
		fuzz_spit(fuzz_pub, hex, 2 * sizeof pk + 1);
	}
	(void)atexit(fuzz_cleanup);
}

/* The state a writer has after n records, the last one's SHA-256 being
 * `last` (64 hex digits; ignored when n is 0). */
static void
fuzz_state(uint64_t n, const char *last)
{
	unsigned char seed[32];
	char text[256], hex[65];
	uint64_t i;
	int len;

	memcpy(seed, FUZZ_AUDIT_SEED, 32);
	for (i = 0; i < n; i++)
		if (crypto_auth_hmacsha256(seed,
					   (const unsigned char *)FUZZ_EVOLVE,
					   sizeof FUZZ_EVOLVE - 1, seed) != 0)
			abort();
	sodium_bin2hex(hex, sizeof hex, seed, sizeof seed);
	len = snprintf(text, sizeof text,
		       "maelys-pty audit state v2\nseq %016" PRIu64
		       "\nseed %s\nlast %.64s\n",
		       n + 1, hex,
		       n > 0 ? last
			     : "00000000000000000000000000000000"
			       "00000000000000000000000000000000");
	if (len != PTY_AUDIT_STATE_SIZE)
		abort();
	fuzz_spit(fuzz_key, text, (size_t)len);
}

/* pty_audit_verify_files of one file (with the state when `state`), with
 * the record count of an intact log in *n and its last record's SHA-256
 * in last (64 hex digits, "" when none). */
static int
fuzz_verify(const char *path, bool state, uint64_t *n, char last[65])
{
	char *report = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&report, &size);
	const char *p;
	int rc;

	if (f == NULL)
		abort();
	rc = pty_audit_verify_files(&path, 1, fuzz_pub,
				    state ? fuzz_key : NULL, f);
	if (fclose(f) != 0 || report == NULL)
		abort();
	/* it names the file */
	if (strncmp(report, path, strlen(path)) != 0 || size == 0 ||
	    report[size - 1] != '\n')
		abort();
	*n = 0;
	last[0] = '\0';
	if (rc == 0) {
		char *end = NULL;

		p = report + strlen(path);
		if (strncmp(p, ": ", 2) != 0 || p[2] < '0' || p[2] > '9')
			abort();
		*n = strtoull(p + 2, &end, 10);
		if (strncmp(end, " records, chain intact\n", 23) != 0)
			abort();
		p = strstr(end, "  last record: seq ");
		if ((*n > 0) != (p != NULL))
			abort();
		if (p != NULL) {
			p = strstr(p, " sha256 ");
			if (p == NULL)
				abort();
			memcpy(last, p + 8, 64);
			last[64] = '\0';
		}
	} else if (rc == 1 && strstr(report, ": record ") == NULL &&
		   strstr(report, "missing at the end") == NULL) {
		abort();
	} else if (rc == 2 && strstr(report, "older maelys-pty (v1)") == NULL) {
		abort(); /* a readable regular file: only a v1 log */
	} else if (rc != 1 && rc != 2) {
		abort();
	}
	free(report);
	return rc;
}

/* Appends one record made from the input to `path`.  Returns what
 * pty_audit_write returned. */
static int
fuzz_append(const char *path, const uint8_t *data, size_t size)
{
	static struct pty_decision dec;
	static maelys_datalog_input_edb_t *edb;
	maelys_datalog_arg_t args[2];
	int64_t num = 0;
	struct pty_audit_session s;
	struct guard_record rec;
	struct pty_audit *a = NULL;
	size_t len = size < FUZZ_LINE_MAX ? size : FUZZ_LINE_MAX;
	size_t rlen = size < PTY_TEXT_MAX - 1 ? size : PTY_TEXT_MAX - 1;
	char err[256];
	int rc;

	if (pty_audit_open(path, fuzz_key, &a, err, sizeof err) != 0)
		abort(); /* a regular file with a good key always opens */
	memset(&s, 0, sizeof s);
	memcpy(s.id, "00112233445566778899aabbccddeeff", 33);
	s.host = "fuzz";
	s.user = "fuzzer";
	s.tty = "";
	s.remote = "";
	s.mode = "command";
	pty_sha256_hex(data, size, s.policy_sha256);
	memset(&dec, 0, sizeof dec);
	scan_line((const char *)data, len, &dec.scan);
	dec.verdict = dec.scan.refusal != SCAN_ACCEPT ? PTY_VERDICT_SYNTAX
						      : PTY_VERDICT_POLICY;
	dec.nreasons = 1;
	memcpy(dec.reasons[0].op, "__line__", 9);
	memcpy(dec.reasons[0].reason, data, rlen);
	dec.reasons[0].reason[rlen] = '\0';
	/* its facts: the input as a string and its first bytes as an
	 * integer, read back from an input EDB as the guard reads them */
	if (edb == NULL &&
	    maelys_datalog_input_edb_create(&edb) != MAELYS_DATALOG_STATUS_OK)
		abort();
	memcpy(&num, data, size < sizeof num ? size : sizeof num);
	args[0] = maelys_datalog_arg_integer(num);
	args[1] = maelys_datalog_arg_symbol_n((const char *)data, len);
	if (maelys_datalog_input_edb_clear(edb) != MAELYS_DATALOG_STATUS_OK ||
	    maelys_datalog_input_edb_add(edb, "argv", args, 2, NULL) !=
		MAELYS_DATALOG_STATUS_OK ||
	    maelys_datalog_input_edb_add(edb, "argc", args, 1, NULL) !=
		MAELYS_DATALOG_STATUS_OK)
		abort();
	dec.asked = true;
	rc = pty_audit_write(a, &s,
			     guard_record_line(&rec, "command",
					       (const char *)data, len, &dec,
					       "deny", edb),
			     err, sizeof err);
	pty_audit_close(a);
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char last[65], again_last[65];
	uint64_t n = 0, m = 0;
	int rc, again;

	fuzz_setup();
	fuzz_spit(fuzz_log, data, size);
	rc = fuzz_verify(fuzz_log, false, &n, last);
	/* the state of a writer that wrote this log (when it is intact),
	 * else a fresh one */
	fuzz_state(rc == 0 ? n : 0, last);
	if (fuzz_append(fuzz_log, data, size) != 0) {
		if (rc == 0)
			abort(); /* an intact log must take a record */
	} else {
		again = fuzz_verify(fuzz_log, rc == 0, &m, again_last);
		if (again != rc || (rc == 0 && m != n + 1))
			abort();
	}
	(void)unlink(fuzz_fresh);
	fuzz_state(0, NULL);
	if (fuzz_append(fuzz_fresh, data, size) != 0 ||
	    fuzz_verify(fuzz_fresh, true, &m, again_last) != 0 || m != 1)
		abort();
	return 0;
}
