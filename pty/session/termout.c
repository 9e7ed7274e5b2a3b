/* SPDX-License-Identifier: MIT */
/*
 * The queue of the user's terminal's output (pty_termout.h): how it writes
 * without waiting, what it holds, what it leaves out at its bound and says
 * in its place, and readline's stream into it.
 */
#define _GNU_SOURCE /* fopencookie */
#include "pty_termout.h"

#include "pty_messages.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The queue that pty_say and pty_write_all find by their descriptor.
 * Every writer of a sentence (the guard, the exec supervisor, help) is
 * given a descriptor, not the queue, and a process has one terminal: the
 * queue in front of it is found here, as readline's state is found in
 * readline.  Set by pty_termout_open, cleared by pty_termout_close. */
static struct pty_termout *termout_current;

/* Chooses how to write `from` without waiting (pty_termout.h). */
static void
termout_choose(struct pty_termout *o)
{
	struct stat st, again;
	char self[64];
	int fd;

	o->how = PTY_TERMOUT_SHARED;
	if (fstat(o->from, &st) != 0)
		return; /* its writes fail, and the queue learns it is gone */
	if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) {
		o->how = PTY_TERMOUT_FILE;
		return;
	}
	if (S_ISSOCK(st.st_mode)) {
		o->how = PTY_TERMOUT_SOCKET;
		return;
	}
	/* a terminal or a pipe, opened again: a new open file description
	 * of the same file, whose O_NONBLOCK nobody else sees or clears */
	(void)snprintf(self, sizeof self, "/proc/self/fd/%d", o->from);
	fd = open(self, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &again) != 0 || again.st_dev != st.st_dev ||
	    again.st_ino != st.st_ino || again.st_rdev != st.st_rdev) {
		(void)close(fd);
		return;
	}
	o->fd = fd;
	o->how = PTY_TERMOUT_OWN;
}

/* One write, never waiting: the bytes written, 0 when the terminal takes
 * nothing now, -1 when it failed.  A terminal that took less than n is
 * full (o->full): another write before poll says POLLOUT would only meet
 * EAGAIN. */
static ssize_t
termout_write(struct pty_termout *o, const char *p, size_t n)
{
	ssize_t w;
	int flags, err;

	do {
		switch (o->how) {
		case PTY_TERMOUT_SOCKET:
			w = send(o->fd, p, n, MSG_DONTWAIT | MSG_NOSIGNAL);
			break;
		case PTY_TERMOUT_SHARED:
			flags = fcntl(o->fd, F_GETFL);
			if (flags >= 0 && (flags & O_NONBLOCK) == 0)
				(void)fcntl(o->fd, F_SETFL, flags | O_NONBLOCK);
			w = write(o->fd, p, n);
			err = errno;
			if (flags >= 0 && (flags & O_NONBLOCK) == 0)
				(void)fcntl(o->fd, F_SETFL, flags);
			errno = err;
			break;
		case PTY_TERMOUT_OWN:
		case PTY_TERMOUT_FILE:
		default:
			w = write(o->fd, p, n);
			break;
		}
	} while (w < 0 && errno == EINTR);
	if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		w = 0;
	if (w >= 0 && (size_t)w < n)
		o->full = true;
	return w;
}

/* The terminal failed a write (hung up): nothing more is written, and
 * nothing is kept for it. */
static void
termout_gone(struct pty_termout *o)
{
	o->gone = true;
	o->head = o->len = 0;
	o->lost = 0;
}

/* Appends n bytes that fit (pty_termout_room), moving what waits to the
 * front when the end has no room - or when what was written from the
 * front is more than what waits (a cheap move, and the queue keeps to
 * the start of its buffer: a session that never fills it touches a few
 * hundred KiB of it, not all). */
static void
termout_append(struct pty_termout *o, const char *p, size_t n)
{
	if (PTY_TERMOUT_CAP - (o->head + o->len) < n || o->head >= o->len) {
		memmove(o->buf, o->buf + o->head, o->len);
		o->head = 0;
	}
	memcpy(o->buf + o->head + o->len, p, n);
	o->len += n;
}

/* Says what was left out, in its place, once there is room for it.
 * Returns whether nothing left out remains unsaid. */
static bool
termout_say_lost(struct pty_termout *o)
{
	char note[256];
	int k;

	if (o->lost == 0)
		return true;
	k = snprintf(note, sizeof note, "%s" PTY_MSG_TERMOUT_LOST "%s", o->eol,
		     o->lost, o->eol);
	if (k < 0 || (size_t)k >= sizeof note ||
	    (size_t)k > pty_termout_room(o))
		return false;
	termout_append(o, note, (size_t)k);
	o->lost = 0;
	return true;
}

static int termout_add(struct pty_termout *o, const char *p, size_t n,
		       bool now);

/* readline's writes (pty_termout_stream): each \n as eol, as a terminal's
 * output processing (ONLCR) would have made it - the terminal is raw
 * while the session runs.  Queued only: readline writes a byte at a time,
 * and the next pty_termout_flush writes them together.  Returns n: what
 * the queue leaves out is counted there, and a stream with an error would
 * write nothing more. */
static ssize_t
termout_stream_write(void *cookie, const char *buf, size_t n)
{
	struct pty_termout *o = cookie;
	size_t eollen = strlen(o->eol), i, k = 0;
	char chunk[4096];

	for (i = 0; i < n; i++) {
		if (k + eollen > sizeof chunk) {
			(void)termout_add(o, chunk, k, false);
			k = 0;
		}
		if (buf[i] == '\n') {
			memcpy(chunk + k, o->eol, eollen);
			k += eollen;
		} else {
			chunk[k++] = buf[i];
		}
	}
	if (k > 0)
		(void)termout_add(o, chunk, k, false);
	return (ssize_t)n;
}

int
pty_termout_open(struct pty_termout *o, int from, const char *eol)
{
	cookie_io_functions_t io;
	size_t eollen = strnlen(eol, 3);

	memset(o, 0, sizeof *o);
	o->from = o->fd = from;
	o->also = -1;
	o->how = PTY_TERMOUT_SHARED;
	if (termout_current != NULL || eollen == 0 || eollen > 2)
		return -1;
	memcpy(o->eol, eol, eollen);
	if ((o->buf = malloc(PTY_TERMOUT_CAP)) == NULL)
		return -1;
	memset(&io, 0, sizeof io);
	io.write = termout_stream_write;
	if ((o->stream = fopencookie(o, "w", io)) == NULL) {
		free(o->buf);
		o->buf = NULL;
		return -1;
	}
	/* unbuffered: a byte of readline's is in the queue, in order with
	 * everything else, as soon as it is written */
	(void)setvbuf(o->stream, NULL, _IONBF, 0);
	termout_choose(o);
	termout_current = o;
	return 0;
}

void
pty_termout_close(struct pty_termout *o)
{
	if (o == NULL)
		return;
	if (termout_current == o)
		termout_current = NULL;
	if (o->stream != NULL)
		(void)fclose(o->stream);
	if (o->fd >= 0 && o->fd != o->from)
		(void)close(o->fd);
	free(o->buf);
	memset(o, 0, sizeof *o);
	o->from = o->fd = o->also = -1;
}

bool
pty_termout_also(struct pty_termout *o, int fd)
{
	struct stat a, b;

	if (fd < 0 || fd == o->from || fstat(o->from, &a) != 0 ||
	    fstat(fd, &b) != 0 || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino || a.st_rdev != b.st_rdev)
		return false;
	o->also = fd;
	return true;
}

struct pty_termout *
pty_termout_of(int fd)
{
	if (termout_current != NULL && fd >= 0 &&
	    (termout_current->from == fd || termout_current->also == fd))
		return termout_current;
	return NULL;
}

size_t
pty_termout_room(const struct pty_termout *o)
{
	return PTY_TERMOUT_CAP - o->len;
}

/* pty_termout_put; `now`: write at once when nothing waits, else only
 * queue (for pty_termout_flush to write, many small writes at once). */
static int
termout_add(struct pty_termout *o, const char *p, size_t n, bool now)
{
	if (o->gone)
		return 0; /* nobody is there to show it to */
	/* what was left out before is said first, in its place; until it
	 * can be, what comes after it is left out too */
	if (!termout_say_lost(o) || n > pty_termout_room(o)) {
		o->lost += n;
		return -1;
	}
	if (now && o->len == 0 && !o->full) { /* nothing waits: straight out */
		ssize_t w = termout_write(o, p, n);

		if (w < 0) {
			termout_gone(o);
			return 0;
		}
		p += w;
		n -= (size_t)w;
	}
	if (n > 0)
		termout_append(o, p, n);
	return 0;
}

int
pty_termout_put(struct pty_termout *o, const void *buf, size_t n)
{
	return termout_add(o, buf, n, true);
}

/* Writes what waits while the terminal takes it (pty_termout_flush and
 * _flush_queued). */
static void
termout_write_out(struct pty_termout *o)
{
	while (!o->gone && !o->full && o->len > 0) {
		ssize_t w = termout_write(o, o->buf + o->head, o->len);

		if (w < 0) {
			termout_gone(o);
			break;
		}
		if (w == 0)
			break;
		o->head += (size_t)w;
		o->len -= (size_t)w;
		if (o->len == 0) {
			o->head = 0;
			(void)termout_say_lost(o);
		}
	}
	if (!o->gone && o->len < PTY_TERMOUT_CAP)
		(void)termout_say_lost(o);
}

bool
pty_termout_flush(struct pty_termout *o)
{
	o->full = false; /* poll said it takes more */
	termout_write_out(o);
	return !o->gone;
}

void
pty_termout_flush_queued(struct pty_termout *o)
{
	termout_write_out(o);
}

bool
pty_termout_pending(const struct pty_termout *o)
{
	return !o->gone && (o->len > 0 || o->lost > 0);
}

bool
pty_termout_full(const struct pty_termout *o)
{
	return o->len > PTY_TERMOUT_HIGH;
}

int
pty_termout_fd(const struct pty_termout *o)
{
	return o->fd;
}

static long
termout_ms_since(const struct timespec *t)
{
	struct timespec now;

	(void)clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)(now.tv_sec - t->tv_sec) * 1000 +
	       (now.tv_nsec - t->tv_nsec) / 1000000;
}

bool
pty_termout_drain(struct pty_termout *o, int stall_ms, int total_ms)
{
	struct timespec start, moved;

	(void)clock_gettime(CLOCK_MONOTONIC, &start);
	moved = start;
	for (;;) {
		size_t before = o->len;
		struct pollfd pfd = {o->fd, POLLOUT, 0};
		long idle, left;

		if (!pty_termout_flush(o))
			return false;
		if (o->len == 0)
			return true; /* flush said what was left out */
		if (o->len < before)
			(void)clock_gettime(CLOCK_MONOTONIC, &moved);
		idle = stall_ms - termout_ms_since(&moved);
		left = total_ms - termout_ms_since(&start);
		if (idle <= 0 || left <= 0)
			return false;
		(void)poll(&pfd, 1, (int)(idle < left ? idle : left));
	}
}

FILE *
pty_termout_stream(const struct pty_termout *o)
{
	return o->stream;
}
