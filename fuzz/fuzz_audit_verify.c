/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the audit log's reader and verifier (pty/audit*.c): any
 * bytes as a log file, checked against a fixed key (FUZZ_AUDIT_KEY; the
 * seeds in corpus/audit_verify/ were written with it, so that mutations of
 * a valid chain reach every field of the reader).  Besides "never crash",
 * it checks what the guard relies on:
 *   - pty_audit_verify answers 0 (intact) or 1 (broken), never 2, for a
 *     regular file it can read;
 *   - a record appended to that log (its line: the input's first bytes,
 *     scanned; a reason: more of them) succeeds when the log was intact, and
 *     the log then verifies with one more record; appending never makes a
 *     broken log verify;
 *   - the same record written to an empty log always verifies: whatever the
 *     bytes, the writer's escaping and the reader agree.
 * The files live in a directory made once per process (under /dev/shm when
 * it is there, so that fdatasync costs nothing) and removed at exit.
 */
#define _GNU_SOURCE

#include "fuzz.h"

#include "guard_record.h"
#include "pty_audit.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 33 bytes: the key of the seed corpus (not a secret) */
#define FUZZ_AUDIT_KEY "maelys-pty audit fuzz key: public"
/* the longest record line taken from an input */
#define FUZZ_LINE_MAX  6000

static char fuzz_dir[256], fuzz_log[300], fuzz_fresh[300], fuzz_key[300];

static void
fuzz_cleanup(void)
{
	(void)unlink(fuzz_log);
	(void)unlink(fuzz_fresh);
	(void)unlink(fuzz_key);
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
	fuzz_spit(fuzz_key, FUZZ_AUDIT_KEY, sizeof FUZZ_AUDIT_KEY - 1);
	(void)atexit(fuzz_cleanup);
}

/* pty_audit_verify, with the record count of an intact log in *n. */
static int
fuzz_verify(const char *path, uint64_t *n)
{
	char *report = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&report, &size);
	const char *p;
	int rc;

	if (f == NULL)
		abort();
	rc = pty_audit_verify(path, fuzz_key, f);
	if (fclose(f) != 0 || report == NULL)
		abort();
	/* one line, naming the file */
	if (strncmp(report, path, strlen(path)) != 0 ||
	    strchr(report, '\n') != report + size - 1)
		abort();
	*n = 0;
	if (rc == 0) {
		char *end = NULL;

		p = report + strlen(path);
		if (strncmp(p, ": ", 2) != 0 || p[2] < '0' || p[2] > '9')
			abort();
		*n = strtoull(p + 2, &end, 10);
		if (strcmp(end, " records, chain intact\n") != 0)
			abort();
	} else if (rc == 1 && strstr(report, ": record ") == NULL) {
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
	rc = pty_audit_write(a, &s,
			     guard_record_line(&rec, "command",
					       (const char *)data, len, &dec,
					       "deny", NULL),
			     err, sizeof err);
	pty_audit_close(a);
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t n = 0, m = 0;
	int rc, again;

	fuzz_setup();
	fuzz_spit(fuzz_log, data, size);
	rc = fuzz_verify(fuzz_log, &n);
	if (rc != 0 && rc != 1)
		abort();
	if (fuzz_append(fuzz_log, data, size) != 0) {
		if (rc == 0)
			abort(); /* an intact log must take a record */
	} else {
		again = fuzz_verify(fuzz_log, &m);
		if (again != rc || (rc == 0 && m != n + 1))
			abort();
	}
	(void)unlink(fuzz_fresh);
	if (fuzz_append(fuzz_fresh, data, size) != 0 ||
	    fuzz_verify(fuzz_fresh, &m) != 0 || m != 1)
		abort();
	return 0;
}
