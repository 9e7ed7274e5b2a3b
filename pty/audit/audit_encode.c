/* SPDX-License-Identifier: MIT */
/*
 * The body of an audit record: what a session and one of its events say,
 * as the JSON members from "host" to "policy_sha256" (pty_audit.h lists
 * them and their escapes).  The guard encodes it; the writer (audit.c)
 * frames it with seq, time, prev and mac, which only the writer knows, and
 * reads the framed record back with audit_parse before it writes it, so a
 * body that is not exactly what this file produces is never written.
 */
#define _GNU_SOURCE

#include "audit_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "scan_utf8.h"
#include "scanner.h"

/* A bounded output buffer: once something does not fit, `full` stays set
 * and nothing more is added, so the caller checks once at the end. */
struct audit_buf {
	char *p;
	size_t len, cap;
	bool full;
};

static void
audit_put(struct audit_buf *b, const void *s, size_t n)
{
	if (b->full || n > b->cap - b->len) {
		b->full = true;
		return;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void
audit_puts(struct audit_buf *b, const char *s)
{
	audit_put(b, s, strlen(s));
}

/* A JSON string, escaped as pty_audit.h says. */
static void
audit_put_string(struct audit_buf *b, const char *s, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	audit_put(b, "\"", 1);
	while (i < n && !b->full) {
		unsigned char c = u[i];
		const char *esc = NULL;
		uint32_t cp = c;
		size_t len = 1;

		switch (c) {
		case '"':
			esc = "\\\"";
			break;
		case '\\':
			esc = "\\\\";
			break;
		case '\b':
			esc = "\\b";
			break;
		case '\f':
			esc = "\\f";
			break;
		case '\n':
			esc = "\\n";
			break;
		case '\r':
			esc = "\\r";
			break;
		case '\t':
			esc = "\\t";
			break;
		default:
			break;
		}
		if (esc != NULL) {
			audit_puts(b, esc);
			i++;
			continue;
		}
		if (c >= 0x80) {
			len = scan_utf8_decode(u + i, n - i, &cp);
			if (len == 0) {
				/* not UTF-8: U+FFFD for this byte */
				audit_put(b, "\xef\xbf\xbd", 3);
				i++;
				continue;
			}
		}
		if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
			char u4[6] = "\\u00";

			u4[4] = digits[cp >> 4];
			u4[5] = digits[cp & 0x0f];

			audit_put(b, u4, sizeof u4);
		} else {
			audit_put(b, u + i, len);
		}
		i += len;
	}
	audit_put(b, "\"", 1);
}

/* ,"name":"value" */
static void
audit_put_field(struct audit_buf *b, const char *name, const char *s, size_t n)
{
	audit_puts(b, ",\"");
	audit_puts(b, name);
	audit_puts(b, "\":");
	audit_put_string(b, s, n);
}

static void
audit_put_cstr(struct audit_buf *b, const char *name, const char *s)
{
	if (s != NULL)
		audit_put_field(b, name, s, strlen(s));
}

/* A NUL-terminated field of a fixed-size array, read within its size. */
static void
audit_put_text(struct audit_buf *b, const char *name, const char *s, size_t cap)
{
	audit_put_field(b, name, s, strnlen(s, cap));
}

static bool
audit_utf8_ok(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	uint32_t cp;

	while (i < n) {
		size_t len = 1;

		if (u[i] >= 0x80 &&
		    (len = scan_utf8_decode(u + i, n - i, &cp)) == 0)
			return false;
		i += len;
	}
	return true;
}

/* Whether the record gives the line by its SHA-256 (pty_audit.h). */
static bool
audit_hash_line(const struct pty_audit_event *e, bool compact)
{
	const struct pty_decision *d = e->decision;

	if (compact || e->line_len >= SCAN_LINE_MAX)
		return true;
	if (d != NULL && (d->scan.refusal == SCAN_REFUSE_TOO_LONG ||
			  d->scan.refusal == SCAN_REFUSE_ENCODING))
		return true;
	return !audit_utf8_ok(e->line, e->line_len);
}

/* What a decision adds: tokens, metachars, reasons, refusal, error,
 * log_reason, confirm_prompt. */
static void
audit_put_decision(struct audit_buf *b, const struct pty_decision *d,
		   bool tokens, const char *outcome)
{
	size_t i, n;
	const char *sep = "";

	if (tokens) {
		n = d->scan.ntokens < SCAN_TOKENS_MAX ? d->scan.ntokens
						      : SCAN_TOKENS_MAX;
		audit_puts(b, ",\"tokens\":[");
		for (i = 0; i < n; i++) {
			audit_puts(b, i > 0 ? "," : "");
			audit_put_string(b, d->scan.tokens[i].text,
					 d->scan.tokens[i].text != NULL
					     ? d->scan.tokens[i].len
					     : 0);
		}
		audit_puts(b, "]");
	}
	audit_puts(b, ",\"metachars\":[");
	for (i = 0; i < SCAN_META_COUNT; i++) {
		const char *name = scan_metachar_name((unsigned)i);

		if ((d->scan.metachars & (1u << i)) == 0 || name == NULL)
			continue;
		audit_puts(b, sep);
		audit_put_string(b, name, strlen(name));
		sep = ",";
	}
	audit_puts(b, "]");
	audit_put_cstr(b, "decision", outcome);
	audit_puts(b, ",\"reasons\":[");
	n = d->nreasons < PTY_REASONS_MAX ? d->nreasons : PTY_REASONS_MAX;
	for (i = 0; i < n; i++) {
		audit_puts(b, i > 0 ? ",{\"op\":" : "{\"op\":");
		audit_put_string(b, d->reasons[i].op,
				 strnlen(d->reasons[i].op, PTY_TEXT_MAX));
		audit_puts(b, ",\"reason\":");
		audit_put_string(b, d->reasons[i].reason,
				 strnlen(d->reasons[i].reason, PTY_TEXT_MAX));
		audit_puts(b, "}");
	}
	audit_puts(b, "]");
	if (d->scan.refusal != SCAN_ACCEPT)
		audit_put_cstr(b, "refusal",
			       scan_refusal_reason(d->scan.refusal));
	if (d->verdict == PTY_VERDICT_ERROR)
		audit_put_text(b, "error", d->error, sizeof d->error);
	if (d->log_reason[0] != '\0')
		audit_put_text(b, "log_reason", d->log_reason,
			       sizeof d->log_reason);
	if (d->confirm_prompt[0] != '\0')
		audit_put_text(b, "confirm_prompt", d->confirm_prompt,
			       sizeof d->confirm_prompt);
}

/* What an exec record adds (pty_audit.h): the request, then its decision.
 * Returns 0, or -1 when the digest of a long argv cannot be made. */
static int
audit_put_exec(struct audit_buf *b, const struct pty_audit_event *e,
	       bool compact)
{
	const struct pty_exec_request *r = e->exec;
	const struct pty_exec_decision *d = e->exec_decision;
	char num[32];
	size_t i;

	audit_put_text(b, "exec_path", r->path, sizeof r->path);
	audit_put_text(b, "exec_request", r->request, sizeof r->request);
	if (!compact) {
		audit_puts(b, ",\"exec_argv\":[");
		for (i = 0; i < r->argc; i++) {
			audit_puts(b, i > 0 ? "," : "");
			audit_put_string(b, r->argv[i], r->argv_len[i]);
		}
		audit_puts(b, "]");
	} else {
		crypto_hash_sha256_state st;
		unsigned char digest[crypto_hash_sha256_BYTES];
		char hex[2 * crypto_hash_sha256_BYTES + 1];

		if (crypto_hash_sha256_init(&st) != 0)
			return -1;
		for (i = 0; i < r->argc; i++)
			if (crypto_hash_sha256_update(
				&st, (const unsigned char *)r->argv[i],
				r->argv_len[i] + 1) != 0)
				return -1;
		if (crypto_hash_sha256_final(&st, digest) != 0)
			return -1;
		audit_hex(digest, sizeof digest, hex);
		audit_put_cstr(b, "exec_argv_sha256", hex);
	}
	(void)snprintf(num, sizeof num, "%zu", r->argc);
	audit_puts(b, ",\"exec_argc\":");
	audit_puts(b, num);
	audit_put_text(b, "exec_cwd", r->cwd, sizeof r->cwd);
	audit_put_text(b, "exec_parent", r->parent, sizeof r->parent);
	if (r->via != PTY_EXEC_VIA_EXECVE) {
		audit_put_cstr(b, "exec_via", pty_exec_via_name(r->via));
		audit_put_text(b, "exec_through", r->through,
			       sizeof r->through);
	}
	(void)snprintf(num, sizeof num, "%ld", (long)r->pid);
	audit_puts(b, ",\"pid\":");
	audit_puts(b, num);
	audit_put_cstr(b, "decision", e->outcome);
	audit_puts(b, ",\"reasons\":[");
	for (i = 0; d != NULL && i < d->nreasons; i++) {
		audit_puts(b, i > 0 ? ",{\"op\":" : "{\"op\":");
		audit_put_string(b, r->path, strnlen(r->path, sizeof r->path));
		audit_puts(b, ",\"reason\":");
		audit_put_string(b, d->reasons[i],
				 strnlen(d->reasons[i], PTY_TEXT_MAX));
		audit_puts(b, "}");
	}
	audit_puts(b, "]");
	if (d != NULL &&
	    (d->verdict == PTY_EXEC_ERROR || d->verdict == PTY_EXEC_UNREADABLE ||
	     d->verdict == PTY_EXEC_UNSAFE))
		audit_put_text(b, "error", d->error, sizeof d->error);
	return 0;
}

/* Builds the record into a->rec.  Returns 0 (*len set), 1 when it does
 * not fit in PTY_AUDIT_LINE_MAX, -1 when the HMAC fails. */
int
audit_encode_body(const struct pty_audit_session *s,
		  const struct pty_audit_event *e, bool compact, char *out,
		  size_t cap, size_t *len)
{
	struct audit_buf b = {out, 0, cap, false};
	char hex[65];
	bool hashed = false;

	audit_put_cstr(&b, "host", s->host);
	audit_put_cstr(&b, "user", s->user);
	audit_put_text(&b, "session", s->id, sizeof s->id);
	audit_put_cstr(&b, "tty", s->tty);
	audit_put_cstr(&b, "remote", s->remote);
	audit_put_cstr(&b, "mode", s->mode);
	audit_put_cstr(&b, "event", e->event);
	if (e->line != NULL) {
		hashed = audit_hash_line(e, compact);
		if (hashed) {
			pty_sha256_hex(e->line, e->line_len, hex);
			if (hex[0] == '\0')
				return -1;
			audit_put_cstr(&b, "line_sha256", hex);
		} else {
			audit_put_field(&b, "line", e->line, e->line_len);
		}
	}
	if (e->exec != NULL && audit_put_exec(&b, e, compact) != 0)
		return -1;
	if (e->decision != NULL)
		audit_put_decision(&b, e->decision, !hashed && !compact,
				   e->outcome);
	else if (e->exec == NULL)
		audit_put_cstr(&b, "decision", e->outcome);
	audit_put_cstr(&b, "note", e->note);
	if (s->policy_sha256[0] != '\0')
		audit_put_text(&b, "policy_sha256", s->policy_sha256,
			       sizeof s->policy_sha256);
	if (b.full)
		return 1;
	*len = b.len;
	return 0;
}

int
audit_encode(const struct pty_audit_session *s, const struct pty_audit_event *e,
	     char *out, size_t cap, size_t *len, char *err, size_t errlen)
{
	int rc;

	if (s == NULL || e == NULL || e->event == NULL ||
	    (e->line == NULL && e->line_len != 0)) {
		audit_err(err, errlen, "audit log: invalid argument");
		return -1;
	}
	if (memchr(s->id, '\0', sizeof s->id) != s->id + 32 ||
	    !audit_is_hex(s->id, 32) ||
	    (s->policy_sha256[0] != '\0' &&
	     (memchr(s->policy_sha256, '\0', sizeof s->policy_sha256) !=
		  s->policy_sha256 + 64 ||
	      !audit_is_hex(s->policy_sha256, 64)))) {
		audit_err(err, errlen, "audit log: bad session id or digest");
		return -1;
	}
	/* the whole record first; what does not fit is recorded by digest */
	rc = audit_encode_body(s, e, false, out, cap, len);
	if (rc == 1)
		rc = audit_encode_body(s, e, true, out, cap, len);
	if (rc == 1)
		audit_err(err, errlen,
			  "audit log: the record would be longer than %zu "
			  "bytes",
			  PTY_AUDIT_LINE_MAX);
	else if (rc != 0)
		audit_err(err, errlen, "audit log: SHA-256 failed");
	return rc == 0 ? 0 : -1;
}
