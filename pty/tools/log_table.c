/* SPDX-License-Identifier: MIT */
/*
 * The table of `maelys-pty log` (pty_log.h): one row per record, every text
 * of the log written so that it cannot drive the administrator's terminal
 * (a line the user typed is data: an escape sequence in it is shown, not
 * obeyed).
 */
#include "pty_log.h"
#include "pty_messages.h"
#include "scan_utf8.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

/* The length of the well-formed UTF-8 sequence at s (at most n bytes) and
 * its code point, or 0 when it is not one: the scanner's decoder, the one
 * reader of UTF-8 in the project. */
static size_t
log_utf8(const unsigned char *s, size_t n, uint32_t *cp)
{
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	return scan_utf8_decode(s, n, cp);
}

/* Whether a code point must be shown escaped: a control character (C0,
 * DEL, C1), or one the scanner refuses in a line for reordering, hiding
 * or disguising the text around it (scan_utf8.h: one owner of that list). */
static bool
log_unsafe(uint32_t cp)
{
	return cp < 0x20 || cp == 0x7f || scan_utf8_is_control(cp) ||
	       scan_utf8_is_invisible(cp);
}

/* Appends the safe form of s[0..len) to dst (cap bytes, NUL-ended, cut at
 * a whole character); returns the bytes of s consumed. */
static size_t
log_safe_fmt(char *dst, size_t cap, size_t *used, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		char esc[16];
		const char *out = esc;
		size_t olen;
		uint32_t cp;
		size_t n = log_utf8(u + i, len - i, &cp);

		if (n == 0) {
			(void)snprintf(esc, sizeof esc, "\\x%02x", u[i]);
			n = 1;
		} else if (log_unsafe(cp)) {
			if (cp < 0x100)
				(void)snprintf(esc, sizeof esc, "\\x%02x",
					       (unsigned)cp);
			else
				(void)snprintf(esc, sizeof esc, "\\u{%04x}",
					       (unsigned)cp);
		} else {
			out = s + i;
			olen = n;
			goto copy;
		}
		olen = strlen(esc);
	copy:
		if (*used + olen + 1 > cap)
			break;
		memcpy(dst + *used, out, olen);
		*used += olen;
		i += n;
	}
	dst[*used] = '\0';
	return i;
}

void
log_safe_write(FILE *f, const char *s, size_t len)
{
	char buf[1024];
	size_t done = 0;

	while (done < len) {
		size_t used = 0;

		done +=
		    log_safe_fmt(buf, sizeof buf, &used, s + done, len - done);
		(void)fputs(buf, f);
	}
}

/* The safe form of a short field (user, decision) for a padded column. */
static const char *
log_safe_cell(char *buf, size_t cap, const char *s)
{
	size_t used = 0;

	if (s == NULL)
		return "-";
	(void)log_safe_fmt(buf, cap, &used, s, strlen(s));
	return buf;
}

void
log_time_show(const struct log_record *r, char out[20])
{
	time_t t = (time_t)(r->time_ms / 1000);
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(out, 20, "%Y-%m-%d %H:%M:%S", &tm) != 19)
		(void)snprintf(out, 20, "?");
}

void
log_table_heading(FILE *f)
{
	(void)fprintf(f, "%s\n", PTY_MSG_LOG_HEADING);
}

/* A string of an object, or "". */
static const char *
log_member(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL ? s : "";
}

/* Opens the reasons' parenthesis before the first, "; " between them. */
static void
log_reason_sep(FILE *f, size_t *n)
{
	(void)fputs((*n)++ == 0 ? "  (" : PTY_MSG_LOG_REASON_SEP, f);
}

/* The reasons of a decision, after its line. */
static void
log_reasons(FILE *f, const struct log_record *r)
{
	const char *more[] = {r->refusal, r->error, r->log_reason,
			      r->confirm_prompt};
	bool exec = strcmp(r->event, "exec") == 0;
	size_t i, n = 0;

	for (i = 0; r->reasons != NULL && i < json_array_size(r->reasons);
	     i++) {
		const json_t *o = json_array_get(r->reasons, i);
		const char *op = log_member(o, "op");
		const char *why = log_member(o, "reason");

		log_reason_sep(f, &n);
		if (!exec) {
			(void)fputs(PTY_MSG_LOG_DENY_OPEN, f);
			log_safe_write(f, op, strlen(op));
			(void)fputs(PTY_MSG_LOG_DENY_CLOSE, f);
		}
		log_safe_write(f, why, strlen(why));
	}
	for (i = 0; i < sizeof more / sizeof more[0]; i++)
		if (more[i] != NULL && more[i][0] != '\0') {
			log_reason_sep(f, &n);
			log_safe_write(f, more[i], strlen(more[i]));
		}
	if (n > 0)
		(void)fputc(')', f);
}

/* What a session_start or session_end row says of the session; whether
 * it said anything. */
static bool
log_session_what(FILE *f, const struct log_record *r, bool start)
{
	char buf[PTY_TEXT_MAX * 3];

	if (start) {
		log_safe_write(f, r->mode != NULL ? r->mode : "",
			       r->mode != NULL ? strlen(r->mode) : 0);
		if (r->tty != NULL && r->tty[0] != '\0') {
			(void)snprintf(buf, sizeof buf, PTY_MSG_LOG_ON_TTY,
				       r->tty);
			log_safe_write(f, buf, strlen(buf));
		}
		if (r->remote != NULL && r->remote[0] != '\0') {
			(void)snprintf(buf, sizeof buf, PTY_MSG_LOG_FROM,
				       r->remote);
			log_safe_write(f, buf, strlen(buf));
		}
		return r->mode != NULL;
	}
	buf[0] = '\0';
	if (json_is_integer(r->exit_status))
		(void)snprintf(buf, sizeof buf, PTY_MSG_LOG_EXIT ", ",
			       (long long)json_integer_value(r->exit_status));
	else if (json_is_string(r->signal))
		(void)snprintf(buf, sizeof buf, PTY_MSG_LOG_SIGNAL ", ",
			       json_string_value(r->signal));
	if (json_is_integer(r->decisions)) {
		char counts[sizeof buf + 128];

		(void)snprintf(counts, sizeof counts, PTY_MSG_LOG_COUNTS, buf,
			       (long long)json_integer_value(r->decisions),
			       (long long)json_integer_value(r->refusals),
			       (long long)json_integer_value(r->execs));
		log_safe_write(f, counts, strlen(counts));
		return true;
	}
	if (buf[0] == '\0')
		return false;
	log_safe_write(f, buf, strlen(buf) - 2);
	return true;
}

void
log_table_row(FILE *f, const struct log_record *r)
{
	char when[20], user[64], decision[64], sid[9];
	bool start = strcmp(r->event, "session_start") == 0;
	bool end = strcmp(r->event, "session_end") == 0;
	size_t used = 0;
	bool what = true;

	log_time_show(r, when);
	(void)log_safe_fmt(sid, sizeof sid, &used, r->session,
			   strlen(r->session));
	(void)fprintf(
	    f, "%-19s  %-10s  %-8s  %-14s  ", when,
	    log_safe_cell(user, sizeof user, r->user), sid,
	    start ? PTY_MSG_LOG_START
	    : end ? PTY_MSG_LOG_END
	    : r->decision != NULL
		? log_safe_cell(decision, sizeof decision, r->decision)
		: log_safe_cell(decision, sizeof decision, r->event));
	if (start || end) {
		what = log_session_what(f, r, start);
	} else if (r->exec_path != NULL) {
		(void)fputs(PTY_MSG_LOG_EXEC, f);
		log_safe_write(f, r->exec_path, r->exec_path_len);
	} else if (r->line != NULL) {
		log_safe_write(f, r->line, r->line_len);
	} else if (r->line_by_sha256) {
		(void)fputs(PTY_MSG_LOG_BY_SHA256, f);
	} else {
		what = false;
	}
	if (r->note != NULL && r->note[0] != '\0') {
		if (what)
			(void)fputs("  ", f);
		log_safe_write(f, r->note, strlen(r->note));
	}
	/* an exec_mismatch says in its error what ran instead */
	if (log_record_is_decision(r) || strcmp(r->event, "exec_mismatch") == 0)
		log_reasons(f, r);
	(void)fputc('\n', f);
}
