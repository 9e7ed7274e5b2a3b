/* SPDX-License-Identifier: MIT */
/*
 * Writing what maelys-pty says to the person at the terminal (the words
 * are pty_messages.h's).
 */
#include "pty_messages.h"

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
	return write_whole(fd, buf, n, true);
}

void
pty_say(int fd, const char *eol, const char *fmt, ...)
{
	char buf[16384];
	size_t off, eollen = strlen(eol);
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
	(void)write_whole(fd, buf, off + eollen, false);
}

void
pty_printable_n(char *dst, size_t cap, const char *s, size_t len)
{
	size_t i = 0, o = 0;

	if (cap == 0)
		return;
	while (i < len && o + 1 < cap) {
		unsigned char c = (unsigned char)s[i];

		/* a C1 control in UTF-8 (U+0080..U+009F: C2 80..C2 9F) is a
		 * control to a UTF-8 terminal (U+009B is CSI), as ESC [ is */
		if (c == 0xc2 && i + 1 < len &&
		    ((unsigned char)s[i + 1] & 0xe0) == 0x80) {
			dst[o++] = '?';
			i += 2;
			continue;
		}
		dst[o++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
		i++;
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
