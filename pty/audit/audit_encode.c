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

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "scan_utf8.h"
#include "scanner.h" /* SCAN_LINE_MAX only: the format names it */

/* A bounded output buffer: once something does not fit, `full` stays set
 * and nothing more is added, so the caller checks once at the end. */
struct audit_buf {
	char *p;
	size_t len, cap;
	bool full;
	/* when set, what is put is hashed instead of kept (facts_sha256:
	 * the digest of text that never needs to be held whole) */
	crypto_hash_sha256_state *hash;
};

static void
audit_put(struct audit_buf *b, const void *s, size_t n)
{
	if (b->hash != NULL) {
		if (crypto_hash_sha256_update(b->hash, s, n) != 0)
			b->full = true;
		return;
	}
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

/* A text field, left out when t.s is NULL. */
static void
audit_put_text(struct audit_buf *b, const char *name, struct pty_audit_text t)
{
	if (t.s != NULL)
		audit_put_field(b, name, t.s, t.len);
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
	if (compact || e->line_len >= SCAN_LINE_MAX)
		return true;
	if (e->decision != NULL && e->decision->line_by_sha256)
		return true;
	return !audit_utf8_ok(e->line, e->line_len);
}

/* What a decision adds: tokens, metachars, reasons, refusal, error,
 * log_reason, confirm_prompt. */
static void
audit_put_decision(struct audit_buf *b, const struct pty_audit_decision *d,
		   bool tokens, const char *outcome)
{
	size_t i;

	if (tokens) {
		audit_puts(b, ",\"tokens\":[");
		for (i = 0; i < d->ntokens; i++) {
			audit_puts(b, i > 0 ? "," : "");
			audit_put_string(b, d->tokens[i].s, d->tokens[i].len);
		}
		audit_puts(b, "]");
	}
	audit_puts(b, ",\"metachars\":[");
	for (i = 0; i < d->nmetachars; i++) {
		audit_puts(b, i > 0 ? "," : "");
		audit_put_string(b, d->metachars[i], strlen(d->metachars[i]));
	}
	audit_puts(b, "]");
	audit_put_cstr(b, "decision", outcome);
	audit_puts(b, ",\"reasons\":[");
	for (i = 0; i < d->nreasons; i++) {
		audit_puts(b, i > 0 ? ",{\"op\":" : "{\"op\":");
		audit_put_string(b, d->reasons[i].op.s, d->reasons[i].op.len);
		audit_puts(b, ",\"reason\":");
		audit_put_string(b, d->reasons[i].reason.s,
				 d->reasons[i].reason.len);
		audit_puts(b, "}");
	}
	audit_puts(b, "]");
	audit_put_cstr(b, "refusal", d->refusal);
	audit_put_text(b, "error", d->error);
	audit_put_text(b, "log_reason", d->log_reason);
	audit_put_text(b, "confirm_prompt", d->confirm_prompt);
}

/* The array of "facts" (pty_audit.h).  Returns 0, or -1 when a fact
 * cannot be read or is not one the format allows. */
static int
audit_put_facts_array(struct audit_buf *b, const struct pty_audit_facts *f)
{
	struct pty_audit_fact fact;
	char num[32];
	size_t i, j;

	audit_puts(b, "[");
	for (i = 0; i < f->count && !b->full; i++) {
		memset(&fact, 0, sizeof fact);
		if (f->get(f->ctx, i, &fact) != 0 ||
		    fact.nargs > PTY_AUDIT_FACT_ARGS_MAX ||
		    fact.predicate.s == NULL)
			return -1;
		audit_puts(b, i > 0 ? ",[" : "[");
		audit_put_string(b, fact.predicate.s, fact.predicate.len);
		for (j = 0; j < fact.nargs; j++) {
			const struct pty_audit_fact_arg *a = &fact.args[j];

			audit_puts(b, ",");
			if (a->is_integer) {
				(void)snprintf(num, sizeof num, "%" PRId64,
					       a->integer);
				audit_puts(b, num);
			} else if (a->text.s == NULL && a->text.len > 0) {
				return -1;
			} else {
				audit_put_string(b,
						 a->text.s != NULL ? a->text.s
								   : "",
						 a->text.len);
			}
		}
		audit_puts(b, "]");
	}
	audit_puts(b, "]");
	return 0;
}

/* ,"facts":[...] or, when `hashed`, ,"facts_sha256":"<the SHA-256 of the
 * array's text>".  Returns 0, or -1 (a fact cannot be read, libsodium
 * failed). */
static int
audit_put_facts(struct audit_buf *b, const struct pty_audit_facts *f,
		bool hashed)
{
	crypto_hash_sha256_state st;
	struct audit_buf h = {NULL, 0, 0, false, &st};
	unsigned char digest[crypto_hash_sha256_BYTES];
	char hex[2 * crypto_hash_sha256_BYTES + 1];

	if (f == NULL)
		return 0;
	if (f->count > 0 && f->get == NULL)
		return -1;
	if (!hashed) {
		audit_puts(b, ",\"facts\":");
		return audit_put_facts_array(b, f);
	}
	if (crypto_hash_sha256_init(&st) != 0 ||
	    audit_put_facts_array(&h, f) != 0 || h.full ||
	    crypto_hash_sha256_final(&st, digest) != 0)
		return -1;
	audit_hex(digest, sizeof digest, hex);
	audit_put_cstr(b, "facts_sha256", hex);
	return 0;
}

/* ,"name":N */
static void
audit_put_number(struct audit_buf *b, const char *name, unsigned long long v)
{
	char num[32];

	(void)snprintf(num, sizeof num, "%llu", v);
	audit_puts(b, ",\"");
	audit_puts(b, name);
	audit_puts(b, "\":");
	audit_puts(b, num);
}

/* What a session's end adds: exit_status or signal, and the counts. */
static void
audit_put_end(struct audit_buf *b, const struct pty_audit_end *end)
{
	if (end->has_status)
		audit_put_number(b, "exit_status",
				 (unsigned long long)end->exit_status);
	audit_put_cstr(b, "signal", end->signal);
	audit_put_number(b, "decisions", end->decisions);
	audit_put_number(b, "refusals", end->refusals);
	audit_put_number(b, "execs", end->execs);
}

/* "exec_argv_sha256": the SHA-256 of every argument followed by its NUL.
 * Returns 0, or -1 when libsodium fails. */
static int
audit_put_argv_sha256(struct audit_buf *b, const struct pty_audit_exec *x)
{
	crypto_hash_sha256_state st;
	unsigned char digest[crypto_hash_sha256_BYTES];
	char hex[2 * crypto_hash_sha256_BYTES + 1];
	size_t i;

	if (crypto_hash_sha256_init(&st) != 0)
		return -1;
	for (i = 0; i < x->argc; i++)
		if (crypto_hash_sha256_update(&st,
					      (const unsigned char *)x->argv[i],
					      x->argv_len[i] + 1) != 0)
			return -1;
	if (crypto_hash_sha256_final(&st, digest) != 0)
		return -1;
	audit_hex(digest, sizeof digest, hex);
	audit_put_cstr(b, "exec_argv_sha256", hex);
	return 0;
}

/* What an exec record adds (pty_audit.h): the request, then its decision.
 * Returns 0, or -1 when the digest of a long argv cannot be made. */
static int
audit_put_exec(struct audit_buf *b, const struct pty_audit_event *e,
	       bool compact)
{
	const struct pty_audit_exec *x = e->exec;
	char num[32];
	size_t i;

	audit_put_field(b, "exec_path", x->path.s, x->path.len);
	audit_put_field(b, "exec_request", x->request.s, x->request.len);
	if (!compact) {
		audit_puts(b, ",\"exec_argv\":[");
		for (i = 0; i < x->argc; i++) {
			audit_puts(b, i > 0 ? "," : "");
			audit_put_string(b, x->argv[i], x->argv_len[i]);
		}
		audit_puts(b, "]");
	} else if (audit_put_argv_sha256(b, x) != 0) {
		return -1;
	}
	(void)snprintf(num, sizeof num, "%zu", x->argc);
	audit_puts(b, ",\"exec_argc\":");
	audit_puts(b, num);
	audit_put_field(b, "exec_cwd", x->cwd.s, x->cwd.len);
	audit_put_field(b, "exec_parent", x->parent.s, x->parent.len);
	if (x->via != NULL) {
		audit_put_cstr(b, "exec_via", x->via);
		audit_put_field(b, "exec_through", x->through.s,
				x->through.len);
	}
	(void)snprintf(num, sizeof num, "%ld", (long)x->pid);
	audit_puts(b, ",\"pid\":");
	audit_puts(b, num);
	audit_put_cstr(b, "decision", e->outcome);
	audit_puts(b, ",\"reasons\":[");
	for (i = 0; i < x->nreasons; i++) {
		audit_puts(b, i > 0 ? ",{\"op\":" : "{\"op\":");
		audit_put_string(b, x->path.s, x->path.len);
		audit_puts(b, ",\"reason\":");
		audit_put_string(b, x->reasons[i].s, x->reasons[i].len);
		audit_puts(b, "}");
	}
	audit_puts(b, "]");
	audit_put_text(b, "error", x->error);
	return 0;
}

/* What an exec_mismatch record adds (pty_audit.h). */
static void
audit_put_mismatch(struct audit_buf *b, const struct pty_audit_event *e)
{
	const struct pty_audit_mismatch *m = e->mismatch;
	char num[48];

	audit_put_field(b, "exec_path", m->path.s, m->path.len);
	audit_put_field(b, "exec_request", m->request.s, m->request.len);
	audit_put_field(b, "exec_ran", m->ran.s, m->ran.len);
	(void)snprintf(num, sizeof num, "%llu:%llu", m->ran_major,
		       m->ran_minor);
	audit_put_cstr(b, "exec_ran_dev", num);
	(void)snprintf(num, sizeof num, "%llu", m->ran_ino);
	audit_puts(b, ",\"exec_ran_ino\":");
	audit_puts(b, num);
	(void)snprintf(num, sizeof num, "%ld", (long)m->pid);
	audit_puts(b, ",\"pid\":");
	audit_puts(b, num);
	audit_put_cstr(b, "decision", e->outcome);
	audit_put_text(b, "error", m->error);
}

/* Builds the record into a->rec.  Returns 0 (*len set), 1 when it does
 * not fit in PTY_AUDIT_LINE_MAX, -1 when the HMAC fails. */
int
audit_encode_body(const struct pty_audit_session *s,
		  const struct pty_audit_event *e, enum audit_size size,
		  char *out, size_t cap, size_t *len)
{
	struct audit_buf b = {out, 0, cap, false, NULL};
	bool compact = size == AUDIT_SIZE_COMPACT;
	const struct pty_audit_facts *facts = NULL;
	char hex[65];
	bool hashed = false;

	audit_put_cstr(&b, "host", s->host);
	audit_put_cstr(&b, "user", s->user);
	audit_put_field(&b, "session", s->id, strnlen(s->id, sizeof s->id));
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
	if (e->mismatch != NULL)
		audit_put_mismatch(&b, e);
	else if (e->decision != NULL)
		audit_put_decision(&b, e->decision, !hashed && !compact,
				   e->outcome);
	else if (e->exec == NULL)
		audit_put_cstr(&b, "decision", e->outcome);
	if (e->exec != NULL)
		facts = e->exec->facts;
	else if (e->decision != NULL)
		facts = e->decision->facts;
	if (audit_put_facts(&b, facts, size != AUDIT_SIZE_FULL) != 0)
		return -1;
	if (e->end != NULL)
		audit_put_end(&b, e->end);
	audit_put_cstr(&b, "note", e->note);
	if (s->policy_sha256[0] != '\0')
		audit_put_field(
		    &b, "policy_sha256", s->policy_sha256,
		    strnlen(s->policy_sha256, sizeof s->policy_sha256));
	if (b.full)
		return 1;
	*len = b.len;
	return 0;
}

/* Whether n texts can be read: none given as NULL with bytes. */
static bool
audit_texts_ok(const struct pty_audit_text *t, size_t n)
{
	size_t i;

	if (n > 0 && t == NULL)
		return false;
	for (i = 0; i < n; i++)
		if (t[i].s == NULL && t[i].len != 0)
			return false;
	return true;
}

/* Whether n C strings can be read: the array and each of them. */
static bool
audit_strings_ok(const char *const *v, size_t n)
{
	size_t i;

	if (n > 0 && v == NULL)
		return false;
	for (i = 0; i < n; i++)
		if (v[i] == NULL)
			return false;
	return true;
}

/* Whether every array and text of a decision can be read. */
static bool
audit_decision_ok(const struct pty_audit_decision *d)
{
	size_t i;

	if (d == NULL)
		return true;
	if (!audit_texts_ok(d->tokens, d->ntokens) ||
	    !audit_strings_ok(d->metachars, d->nmetachars) ||
	    (d->nreasons > 0 && d->reasons == NULL) ||
	    !audit_texts_ok(&d->error, 1) ||
	    !audit_texts_ok(&d->log_reason, 1) ||
	    !audit_texts_ok(&d->confirm_prompt, 1) ||
	    (d->facts != NULL && d->facts->count > 0 && d->facts->get == NULL))
		return false;
	for (i = 0; i < d->nreasons; i++)
		if (!audit_texts_ok(&d->reasons[i].op, 1) ||
		    !audit_texts_ok(&d->reasons[i].reason, 1))
			return false;
	return true;
}

/* Whether every array and text of an exec can be read. */
static bool
audit_exec_ok(const struct pty_audit_exec *x)
{
	size_t i;

	if (x == NULL)
		return true;
	if (!audit_texts_ok(&x->path, 1) || !audit_texts_ok(&x->request, 1) ||
	    !audit_texts_ok(&x->cwd, 1) || !audit_texts_ok(&x->parent, 1) ||
	    !audit_texts_ok(&x->through, 1) || !audit_texts_ok(&x->error, 1) ||
	    !audit_texts_ok(x->reasons, x->nreasons) ||
	    (x->argc > 0 && (x->argv == NULL || x->argv_len == NULL)) ||
	    (x->facts != NULL && x->facts->count > 0 && x->facts->get == NULL))
		return false;
	for (i = 0; i < x->argc; i++)
		if (x->argv[i] == NULL)
			return false;
	return true;
}

int
audit_encode(const struct pty_audit_session *s, const struct pty_audit_event *e,
	     char *out, size_t cap, size_t *len, char *err, size_t errlen)
{
	int rc;

	if (s == NULL || e == NULL || e->event == NULL ||
	    (e->line == NULL && e->line_len != 0) ||
	    !audit_decision_ok(e->decision) || !audit_exec_ok(e->exec) ||
	    (e->mismatch != NULL &&
	     (e->exec != NULL || e->decision != NULL ||
	      !audit_texts_ok(&e->mismatch->path, 1) ||
	      !audit_texts_ok(&e->mismatch->request, 1) ||
	      !audit_texts_ok(&e->mismatch->ran, 1) ||
	      !audit_texts_ok(&e->mismatch->error, 1) ||
	      e->mismatch->path.s == NULL || e->mismatch->request.s == NULL ||
	      e->mismatch->ran.s == NULL)) ||
	    (e->end != NULL && e->end->has_status &&
	     (e->end->exit_status < 0 || e->end->exit_status > 255))) {
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
	/* the whole record first; what does not fit is recorded by digest:
	 * the facts first, then the line and the argv too */
	rc = audit_encode_body(s, e, AUDIT_SIZE_FULL, out, cap, len);
	if (rc == 1)
		rc = audit_encode_body(s, e, AUDIT_SIZE_FACTS_SHA256, out, cap,
				       len);
	if (rc == 1)
		rc = audit_encode_body(s, e, AUDIT_SIZE_COMPACT, out, cap, len);
	if (rc == 1)
		audit_err(err, errlen,
			  "audit log: the record would be longer than %zu "
			  "bytes",
			  PTY_AUDIT_LINE_MAX);
	else if (rc != 0)
		audit_err(err, errlen,
			  "audit log: SHA-256 failed, or a fact of the "
			  "decision could not be read");
	return rc == 0 ? 0 : -1;
}

struct pty_audit_text
pty_audit_text_of(const char *s, size_t cap)
{
	struct pty_audit_text t = {s, strnlen(s, cap)};

	return t;
}

struct pty_audit_text
pty_audit_text_or_none(const char *s, size_t cap)
{
	struct pty_audit_text none = {NULL, 0};

	return s[0] != '\0' ? pty_audit_text_of(s, cap) : none;
}
