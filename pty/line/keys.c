/* SPDX-License-Identifier: MIT */
/* The user's keys on their way to the job (see pty_keys.h). */
#include "pty_keys.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

size_t
pty_keys_room(const struct pty_keys *k)
{
	return sizeof k->buf - k->len;
}

void
pty_keys_put(struct pty_keys *k, int pty, const char *buf, size_t n)
{
	if (n > pty_keys_room(k))
		n = pty_keys_room(k); /* the caller reads no more than room */
	memcpy(k->buf + k->len, buf, n);
	k->len += n;
	pty_keys_out(k, pty);
}

void
pty_keys_out(struct pty_keys *k, int pty)
{
	while (k->len > 0) {
		ssize_t w = write(pty, k->buf, k->len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			k->len = 0;
		if (w <= 0)
			return;
		memmove(k->buf, k->buf + w, k->len - (size_t)w);
		k->len -= (size_t)w;
	}
}

bool
pty_keys_waiting(const struct pty_keys *k)
{
	return k->len > 0;
}

void
pty_keys_drop(struct pty_keys *k)
{
	k->len = 0;
}
