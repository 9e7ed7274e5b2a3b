/* SPDX-License-Identifier: MIT */
/*
 * The mountinfo reader (pty_mountinfo.h).  Every field is checked against
 * the shape proc(5) gives it, because a line read wrong would name the
 * wrong mount and so the wrong noexec: a malformed line is refused, not
 * repaired.  Nothing here allocates; the only copy is the mount point,
 * bounded by PATH_MAX.
 */
#include "pty_mountinfo.h"

#include <limits.h>
#include <string.h>

/* One field of a line: [p, p + n). */
struct mountinfo_field {
	const char *p;
	size_t n;
};

/* The next space-separated field from *pos; false at the end of the line or
 * on an empty field (two spaces in a row, a leading or trailing space: the
 * kernel writes neither). */
static bool
mountinfo_next(const char *line, size_t len, size_t *pos,
	       struct mountinfo_field *f)
{
	const char *sp;

	if (*pos >= len)
		return false;
	f->p = line + *pos;
	sp = memchr(f->p, ' ', len - *pos);
	f->n = sp != NULL ? (size_t)(sp - f->p) : len - *pos;
	*pos += f->n + (sp != NULL);
	if (sp != NULL && *pos == len)
		return false; /* a trailing space */
	return f->n > 0;
}

static bool
mountinfo_is_digits(const struct mountinfo_field *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->p[i] < '0' || f->p[i] > '9')
			return false;
	return f->n > 0;
}

/* A decimal number that fits in unsigned long, without strtoul's leniency
 * (signs, blanks, hex). */
static bool
mountinfo_number(const struct mountinfo_field *f, unsigned long *out)
{
	unsigned long v = 0;
	size_t i;

	if (!mountinfo_is_digits(f))
		return false;
	for (i = 0; i < f->n; i++) {
		unsigned long d = (unsigned long)(f->p[i] - '0');

		if (v > (ULONG_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/* MAJOR:MINOR, both decimal. */
static bool
mountinfo_device(const struct mountinfo_field *f)
{
	const char *colon = memchr(f->p, ':', f->n);
	struct mountinfo_field a, b;

	if (colon == NULL)
		return false;
	a.p = f->p;
	a.n = (size_t)(colon - f->p);
	b.p = colon + 1;
	b.n = f->n - a.n - 1;
	return mountinfo_is_digits(&a) && mountinfo_is_digits(&b);
}

/* The mount point, its \ooo escapes undone; absolute, no NUL, fits. */
static bool
mountinfo_unescape(const struct mountinfo_field *f, char *out, size_t cap)
{
	size_t i = 0, o = 0;

	while (i < f->n) {
		unsigned char c = (unsigned char)f->p[i];

		if (c == '\\') {
			const char *e = f->p + i + 1;

			if (f->n - i < 4 || e[0] < '0' || e[0] > '3' ||
			    e[1] < '0' || e[1] > '7' || e[2] < '0' ||
			    e[2] > '7')
				return false;
			c = (unsigned char)((e[0] - '0') * 64 +
					    (e[1] - '0') * 8 + (e[2] - '0'));
			i += 4;
		} else {
			i++;
		}
		if (c == '\0' || o + 1 >= cap)
			return false;
		out[o++] = (char)c;
	}
	out[o] = '\0';
	return o > 0 && out[0] == '/';
}

/* Whether the comma-separated options hold exactly "noexec". */
static bool
mountinfo_has_noexec(const struct mountinfo_field *f)
{
	size_t i = 0;

	while (i <= f->n) {
		const char *comma = memchr(f->p + i, ',', f->n - i);
		size_t end = comma != NULL ? (size_t)(comma - f->p) : f->n;

		if (end - i == 6 && memcmp(f->p + i, "noexec", 6) == 0)
			return true;
		i = end + 1;
	}
	return false;
}

int
pty_mountinfo_line(const char *line, size_t len, struct pty_mount *m)
{
	struct mountinfo_field f[6], x;
	unsigned long parent;
	size_t pos = 0, i, after = 0;
	bool sep = false;

	for (i = 0; i < 6; i++)
		if (!mountinfo_next(line, len, &pos, &f[i]))
			return -1;
	if (!mountinfo_number(&f[0], &m->id) ||
	    !mountinfo_number(&f[1], &parent) || !mountinfo_device(&f[2]) ||
	    !mountinfo_unescape(&f[4], m->point, sizeof m->point))
		return -1;
	m->noexec = mountinfo_has_noexec(&f[5]);
	/* optional fields up to "-", then type, source, super options */
	while (mountinfo_next(line, len, &pos, &x)) {
		if (sep)
			after++;
		else if (x.n == 1 && x.p[0] == '-')
			sep = true;
	}
	/* mountinfo_next stops early only on an empty field */
	if (pos < len || (len > 0 && line[len - 1] == ' '))
		return -1;
	return sep && after >= 3 ? 0 : -1;
}

/* How many bytes of `point` hold `path`: its length (trailing slashes
 * aside) when it is `path` or a parent of it, else 0. */
static size_t
mountinfo_holds(const char *point, const char *path)
{
	size_t n = strlen(point);

	while (n > 1 && point[n - 1] == '/')
		n--;
	if (n == 1 && point[0] == '/')
		return 1;
	if (strncmp(point, path, n) != 0 || (path[n] != '\0' && path[n] != '/'))
		return 0;
	return n;
}

int
pty_mountinfo_find(const char *text, size_t len, const char *path,
		   struct pty_mount *m, size_t *bad)
{
	struct pty_mount cur;
	size_t pos = 0, best = 0;

	if (bad != NULL)
		*bad = 0;
	if (path == NULL || path[0] != '/')
		return -1;
	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl != NULL ? (size_t)(nl - line) : len - pos, held;

		pos += n + (nl != NULL);
		if (pty_mountinfo_line(line, n, &cur) != 0) {
			if (bad != NULL)
				(*bad)++;
			continue;
		}
		held = mountinfo_holds(cur.point, path);
		if (held > 0 && held >= best) {
			best = held;
			*m = cur;
		}
	}
	return best > 0 ? 0 : -1;
}
