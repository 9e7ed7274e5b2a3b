/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for what the exec supervisor takes from a process of the
 * session - bytes the session controls entirely: a directory, a path and
 * argv (the input, split at NUL bytes: base, path, then the arguments).
 *
 *   - pty_path_normalise (exec_request/1): never overflows, and a success
 *     is absolute, has no empty, "." or ".." component, no trailing slash
 *     (but "/"), is a fixed point (normalising it again changes nothing),
 *     and equals an independent normaliser written here;
 *   - the audit record of such an exec (pty/audit/audit.c): written to a log on
 *     tmpfs whatever the bytes are (non-UTF-8, control characters, quotes),
 *     and the log verifies (pty/audit/audit_verify.c reads it back).
 */
#include "fuzz.h"

#include "pty_audit.h"
#include "pty_exec.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A bounded copy (snprintf's truncation is what -Wformat-truncation is
 * about; here cutting is meant). */
static void
copy_str(char *dst, size_t cap, const char *src)
{
	size_t n = strnlen(src, cap - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* The reference: a stack of components, kept as offsets into `out`. */
static int
reference_normalise(const char *base, const char *path, char *out, size_t cap)
{
	const char *parts[2] = {path[0] == '/' ? "" : base, path};
	size_t starts[PATH_MAX], depth = 0, len = 0, k;

	for (k = 0; k < 2; k++) {
		const char *p = parts[k];

		while (*p != '\0') {
			size_t n;

			while (*p == '/')
				p++;
			n = strcspn(p, "/");
			if (n == 0)
				break;
			if (n == 2 && p[0] == '.' && p[1] == '.') {
				if (depth > 0)
					len = starts[--depth];
			} else if (!(n == 1 && p[0] == '.')) {
				if (depth == PATH_MAX || len + 1 + n >= cap)
					return -1;
				starts[depth++] = len;
				out[len++] = '/';
				memcpy(out + len, p, n);
				len += n;
			}
			p += n;
		}
	}
	if (len == 0)
		out[len++] = '/';
	out[len] = '\0';
	return 0;
}

static void
check_normalised(const char *s)
{
	size_t n = strlen(s);

	if (s[0] != '/' || (n > 1 && s[n - 1] == '/') || strstr(s, "//") ||
	    strstr(s, "/./") || strstr(s, "/../") ||
	    (n >= 2 && strcmp(s + n - 2, "/.") == 0) ||
	    (n >= 3 && strcmp(s + n - 3, "/..") == 0))
		abort();
}

/* A key and a log on tmpfs, made once. */
static char fuzz_dir[64], fuzz_key[96], fuzz_pub[96], fuzz_log[96];
static char fuzz_state[PTY_AUDIT_STATE_SIZE];

static void
fuzz_files(void)
{
	int fd;

	if (fuzz_dir[0] != '\0')
		return;
	(void)snprintf(fuzz_dir, sizeof fuzz_dir, "/dev/shm/fuzz-exec.XXXXXX");
	if (access("/dev/shm", W_OK) != 0)
		(void)snprintf(fuzz_dir, sizeof fuzz_dir,
			       "/tmp/fuzz-exec.XXXXXX");
	if (mkdtemp(fuzz_dir) == NULL)
		abort();
	(void)snprintf(fuzz_key, sizeof fuzz_key, "%s/key", fuzz_dir);
	(void)snprintf(fuzz_pub, sizeof fuzz_pub, "%s/pub", fuzz_dir);
	(void)snprintf(fuzz_log, sizeof fuzz_log, "%s/log", fuzz_dir);
	/* a new log's state (seq 1), kept to start every fresh log from */
	if (pty_audit_keygen(fuzz_key, fuzz_pub, NULL, NULL, 0) != 0)
		abort();
	fd = open(fuzz_key, O_RDONLY);
	if (fd < 0 || read(fd, fuzz_state, sizeof fuzz_state) !=
			  (ssize_t)sizeof fuzz_state)
		abort();
	(void)close(fd);
}

/* The state back at seq 1, for a fresh log. */
static void
fuzz_fresh_state(void)
{
	int fd = open(fuzz_key, O_WRONLY | O_TRUNC);

	if (fd < 0 || write(fd, fuzz_state, sizeof fuzz_state) !=
			  (ssize_t)sizeof fuzz_state)
		abort();
	(void)close(fd);
}

/* Writes one exec record to a fresh log and verifies it. */
static void
check_record(const struct pty_exec_request *r)
{
	struct pty_exec_decision dec;
	struct pty_audit_session s;
	struct pty_audit_event *e;
	struct pty_exec_record rec;
	struct pty_audit *a = NULL;
	char err[512];

	fuzz_files();
	(void)unlink(fuzz_log);
	fuzz_fresh_state();
	if (pty_audit_open(fuzz_log, fuzz_key, &a, err, sizeof err) != 0)
		abort();
	memset(&s, 0, sizeof s);
	(void)snprintf(s.id, sizeof s.id, "%s",
		       "0123456789abcdef0123456789abcdef");
	s.host = "fuzz";
	s.user = r->argc > 0 ? r->argv[0] : "";
	s.tty = "";
	s.remote = "";
	s.mode = "interactive";
	memset(&dec, 0, sizeof dec);
	dec.verdict = r->argc % 2 ? PTY_EXEC_POLICY : PTY_EXEC_UNREADABLE;
	dec.nreasons = 1;
	copy_str(dec.reasons[0], sizeof dec.reasons[0], r->cwd);
	copy_str(dec.error, sizeof dec.error, r->request);
	/* as the supervisor records it (pty/exec/exec_record.c), but "deny"
	 * whatever the verdict */
	e = pty_exec_record(&rec, r, &dec, NULL);
	e->outcome = "deny";
	if (pty_audit_write(a, &s, e, err, sizeof err) != 0) {
		/* a record is at most 64 KiB, and a byte may take six
		 * (\u00XX): paths of up to 8 KiB together always fit (argv
		 * is replaced by its digest when it does not); longer ones
		 * may be refused, and the exec with them */
		if (strlen(r->path) + strlen(r->request) + strlen(r->cwd) +
			strlen(r->parent) + strlen(s.user) <
		    8192)
			abort();
		pty_audit_close(a);
		return;
	}
	pty_audit_close(a);
	if (pty_audit_verify(fuzz_log, fuzz_pub, NULL) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pty_exec_request r;
	static char text[PTY_EXEC_BYTES_MAX + 2 * PATH_MAX + 2];
	char out[PATH_MAX], again[PATH_MAX], ref[PATH_MAX];
	const char *base, *path, *p, *end;
	char based[PATH_MAX + 1];
	size_t used = 0;
	int rc;

	if (size > sizeof text - 2)
		return 0;
	memcpy(text, data, size);
	text[size] = text[size + 1] = '\0';
	end = text + size;
	base = text;
	path = base + strlen(base) + 1;
	if (path > end)
		path = end;
	if (strlen(base) >= PATH_MAX)
		return 0;
	based[0] = '/'; /* absolute */
	copy_str(based + 1, sizeof based - 1, base);
	rc = pty_path_normalise(based, path, out, sizeof out);
	if (rc == 0) {
		check_normalised(out);
		if (pty_path_normalise("/", out, again, sizeof again) != 0 ||
		    strcmp(out, again) != 0)
			abort();
		if (reference_normalise(based, path, ref, sizeof ref) != 0 ||
		    strcmp(out, ref) != 0)
			abort();
	} else if (rc != -1 || pty_path_normalise("relative", path, out,
						  sizeof out) != -1) {
		abort();
	}
	/* the rest: argv, recorded */
	memset(&r, 0, offsetof(struct pty_exec_request, bytes));
	r.pid = 1;
	copy_str(r.path, sizeof r.path, rc == 0 ? out : "/");
	copy_str(r.request, sizeof r.request, path);
	copy_str(r.cwd, sizeof r.cwd, based);
	copy_str(r.parent, sizeof r.parent, base);
	p = path + strlen(path) + 1;
	while (p < end && r.argc < 64) {
		size_t n = strlen(p);

		memcpy(r.bytes + used, p, n + 1);
		r.argv[r.argc] = r.bytes + used;
		r.argv_len[r.argc++] = n;
		used += n + 1;
		p += n + 1;
	}
	check_record(&r);
	return 0;
}
