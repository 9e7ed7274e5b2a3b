/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the mountinfo reader (pty/exec/mountinfo.c): the
 * input is a whole /proc/self/mountinfo text, any bytes.
 *
 *   - every line either parses or is refused; a parsed mount point is
 *     absolute, NUL-free and shorter than PATH_MAX, and written back with
 *     the kernel's escapes into a line of its own it parses to the same
 *     point, with noexec exactly when the options say so;
 *   - pty_mountinfo_find, for fixed paths and for a path beneath the first
 *     mount point of the input: a mount it returns holds the path, no
 *     well-formed line holds it with a longer point (the lines are walked
 *     here a second time), a later line with a point as long wins, and
 *     "/" in the text means every absolute path is found.
 */
#include "fuzz.h"

#include "pty_mountinfo.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The mount point written back as the kernel escapes it. */
static size_t
escape_point(const char *point, char *out, size_t cap)
{
	size_t o = 0;

	for (; *point != '\0'; point++) {
		unsigned char c = (unsigned char)*point;

		if (o + 5 >= cap)
			abort(); /* the caller's buffer is 4 * PATH_MAX */
		if (c == ' ' || c == '\t' || c == '\n' || c == '\\')
			o += (size_t)snprintf(out + o, cap - o, "\\%03o", c);
		else
			out[o++] = (char)c;
	}
	out[o] = '\0';
	return o;
}

static void
check_round_trip(const struct pty_mount *m)
{
	static char esc[4 * PATH_MAX], line[4 * PATH_MAX + 64];
	struct pty_mount again;
	int n;

	if (m->point[0] != '/' || strlen(m->point) >= PATH_MAX)
		abort();
	(void)escape_point(m->point, esc, sizeof esc);
	n = snprintf(line, sizeof line, "%lu 1 0:1 / %s rw,%s - t s o", m->id,
		     esc, m->noexec ? "noexec" : "exec");
	if (n < 0 || (size_t)n >= sizeof line ||
	    pty_mountinfo_line(line, (size_t)n, &again) != 0 ||
	    again.id != m->id || again.noexec != m->noexec ||
	    strcmp(again.point, m->point) != 0)
		abort();
}

/* The reference for find: how much of `path` a point holds. */
static size_t
holds(const char *point, const char *path)
{
	size_t n = strlen(point);

	while (n > 1 && point[n - 1] == '/')
		n--;
	if (n == 1)
		return 1;
	if (strncmp(point, path, n) != 0 || (path[n] != '\0' && path[n] != '/'))
		return 0;
	return n;
}

/* Walks the lines: checks each, and returns the longest hold of `path`
 * (0: none) with the last line that has it in *last. */
static size_t
walk(const char *text, size_t len, const char *path, struct pty_mount *last)
{
	static struct pty_mount m;
	size_t pos = 0, best = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl != NULL ? (size_t)(nl - text - pos) : len - pos;

		if (pty_mountinfo_line(text + pos, n, &m) == 0) {
			size_t h;

			check_round_trip(&m);
			h = holds(m.point, path);
			if (h > 0 && h >= best) {
				best = h;
				*last = m;
			}
		}
		pos += n + (nl != NULL);
	}
	return best;
}

static void
check_find(const char *text, size_t len, const char *path)
{
	static struct pty_mount got, want;
	size_t bad, best = walk(text, len, path, &want);
	int rc = pty_mountinfo_find(text, len, path, &got, &bad);

	if ((rc == 0) != (best > 0))
		abort();
	if (rc == 0 &&
	    (got.id != want.id || strcmp(got.point, want.point) ||
	     got.noexec != want.noexec || holds(got.point, path) != best))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = {
	    "/",        "/tmp",      "/tmp/x",    "/var/tmp",
	    "/dev/shm", "/home/a b", "/home/a\\b"};
	static struct pty_mount first;
	static char below[PATH_MAX + 8];
	const char *text = (const char *)data;
	const char *nl = memchr(text, '\n', size);
	size_t i, bad;

	for (i = 0; i < sizeof paths / sizeof paths[0]; i++)
		check_find(text, size, paths[i]);
	if (pty_mountinfo_find(text, size, "relative", &first, &bad) == 0)
		abort(); /* only absolute paths are held */
	if (pty_mountinfo_line(text, nl != NULL ? (size_t)(nl - text) : size,
			       &first) == 0) {
		(void)snprintf(below, sizeof below, "%s/below", first.point);
		check_find(text, size, below);
	}
	return 0;
}
