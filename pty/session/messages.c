/* SPDX-License-Identifier: MIT */
/*
 * Writing what maelys-pty says to the person at the terminal (the words
 * are pty_messages.h's).
 */
#include "pty_messages.h"
#include "pty_termout.h"
#include "scan_utf8.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Writes all n bytes, a short write or EINTR retried; EAGAIN (a
 * descriptor that is not blocking) waits for room when `wait`, else gives
 * up. */
static int
write_whole(int fd, const void *buf, size_t n, bool wait)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN && wait) {
			struct pollfd pfd = {fd, POLLOUT, 0};

			(void)poll(&pfd, 1, 100);
			continue;
		}
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int
pty_write_all(int fd, const void *buf, size_t n)
{
	struct pty_termout *o = pty_termout_of(fd);

	if (o != NULL)
		return pty_termout_put(o, buf, n);
	return write_whole(fd, buf, n, true);
}

void
pty_say(int fd, const char *eol, const char *fmt, ...)
{
	char buf[16384];
	size_t off, eollen = strlen(eol);
	struct pty_termout *o;
	va_list ap;
	int n;

	if (eollen > 2)
		eollen = 2;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf - eollen, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	off = (size_t)n < sizeof buf - eollen ? (size_t)n
					      : sizeof buf - eollen - 1;
	memcpy(buf + off, eol, eollen);
	if ((o = pty_termout_of(fd)) != NULL)
		(void)pty_termout_put(o, buf, off + eollen);
	else
		(void)write_whole(fd, buf, off + eollen, false);
}

void
pty_printable_n(char *dst, size_t cap, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, o = 0;

	if (cap == 0)
		return;
	while (i < len && o + 1 < cap) {
		uint32_t cp;
		size_t n;

		if (u[i] < 0x80) {
			dst[o++] = u[i] < 0x20 || u[i] == 0x7f ? '?' : s[i];
			i++;
			continue;
		}
		n = scan_utf8_decode(u + i, len - i, &cp);
		if (n == 0) { /* not UTF-8: a terminal shows it as one glyph */
			dst[o++] = s[i++];
			continue;
		}
		/* a C1 control in UTF-8 is a control to a UTF-8 terminal
		 * (U+009B is CSI, as ESC [ is); a bidirectional or invisible
		 * character makes the text read otherwise than it is: the
		 * scanner's list (scan_utf8.h), one owner */
		if (scan_utf8_is_control(cp) || scan_utf8_is_invisible(cp)) {
			dst[o++] = '?';
			i += n;
			continue;
		}
		if (o + n >= cap) /* cut at a whole character */
			break;
		memcpy(dst + o, s + i, n);
		o += n;
		i += n;
	}
	dst[o] = '\0';
}

void
pty_printable(char *dst, size_t cap, const char *s)
{
	pty_printable_n(dst, cap, s, strnlen(s, cap));
}

void
pty_say_decision(const struct pty_decision *dec, int fd, const char *eol)
{
	size_t i;

	switch (dec->verdict) {
	case PTY_VERDICT_EMPTY:
	case PTY_VERDICT_ALLOW:
	case PTY_VERDICT_ALLOW_LOG:
	case PTY_VERDICT_CONFIRM:
		return; /* the caller acts on these */
	case PTY_VERDICT_SYNTAX:
		pty_say(fd, eol, PTY_MSG_DENIED_BEFORE_SOLVING,
			scan_refusal_reason(dec->scan.refusal));
		return;
	case PTY_VERDICT_ERROR:
		pty_say(fd, eol, PTY_MSG_DENIED_UNEVALUATED, dec->command,
			dec->error);
		return;
	case PTY_VERDICT_NO_CWD:
		pty_say(fd, eol, PTY_MSG_DENIED_NO_CWD, dec->command,
			dec->error);
		pty_say(fd, eol, PTY_MSG_DENIED_NO_CWD_WHAT_TO_DO);
		return;
	case PTY_VERDICT_POLICY:
		break;
	}
	pty_say(fd, eol, PTY_MSG_DENIED_BY_POLICY, dec->denied_op);
	if (dec->nreasons == 0)
		pty_say(fd, eol, PTY_MSG_NO_RULE_ALLOWS, dec->command);
	for (i = 0; i < dec->nreasons; i++)
		pty_say(fd, eol, PTY_MSG_DENY_REASON, dec->reasons[i].op,
			dec->reasons[i].reason);
	if (dec->reasons_total > dec->nreasons)
		pty_say(fd, eol, PTY_MSG_MORE_REASONS,
			dec->reasons_total - dec->nreasons);
}
