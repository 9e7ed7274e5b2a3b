/* SPDX-License-Identifier: MIT */
/*
 * What the kernel and the dynamic loader read to find the next program of
 * an exec, read here the same way (pty_exec_parse.h): the #! line of a
 * script (Linux's fs/binfmt_script.c), the command line of the dynamic
 * loader run as a program (glibc's elf/rtld.c), and the entries of
 * binfmt_misc (Documentation/admin-guide/binfmt-misc.rst).  Pure
 * functions over bytes: no I/O, every input bounded by its length.
 */
#include "pty_exec_parse.h"

#include <string.h>

static bool
parse_spacetab(char c)
{
	return c == ' ' || c == '\t';
}

/* The first byte in [p, last] that is not a space or tab, or NULL. */
static const char *
parse_skip_blanks(const char *p, const char *last)
{
	for (; p <= last; p++)
		if (!parse_spacetab(*p))
			return p;
	return NULL;
}

/* The first space, tab or NUL in [p, last], or NULL. */
static const char *
parse_terminator(const char *p, const char *last)
{
	for (; p <= last; p++)
		if (parse_spacetab(*p) || *p == '\0')
			return p;
	return NULL;
}

/* The length of the string at p that ends at a NUL or at `end`. */
static size_t
parse_until_nul(const char *p, const char *end)
{
	const char *nul = memchr(p, '\0', (size_t)(end - p));

	return (size_t)((nul != NULL ? nul : end) - p);
}

int
pty_shebang_parse(const char *buf, size_t len, struct pty_shebang *out)
{
	/* the kernel's own steps on the kernel's own buffer: the first
	 * BINPRM_BUF_SIZE bytes, NUL-padded past the end of a shorter file,
	 * its last byte never part of the line (so a short file without a
	 * newline ends at a NUL, and blanks at its end leave an empty
	 * argument) */
	char b[PTY_SHEBANG_BUF];
	const char *last = b + sizeof b - 1, *i_end, *i_name, *i_sep;
	const char *i_arg = NULL;

	memset(out, 0, sizeof *out);
	memset(b, 0, sizeof b);
	memcpy(b, buf, len < sizeof b ? len : sizeof b);
	if (b[0] != '#' || b[1] != '!')
		return -1;
	i_end = memchr(b, '\n', sizeof b);
	if (i_end == NULL) {
		/* no newline: only if the interpreter's name is known to end
		 * within the buffer (a truncated name is never run) */
		const char *p = parse_skip_blanks(b + 2, last);

		if (p == NULL || parse_terminator(p, last) == NULL)
			return -1;
		i_end = last;
	}
	while (parse_spacetab(i_end[-1]))
		i_end--;
	i_name = parse_skip_blanks(b + 2, i_end);
	if (i_name == NULL || i_name == i_end)
		return -1;
	i_sep = parse_terminator(i_name, i_end);
	if (i_sep != NULL && *i_sep != '\0')
		i_arg = parse_skip_blanks(i_sep, i_end);
	/* the kernel's strings end at the first NUL: the name at its
	 * terminator, the argument at the end of the line */
	out->name = buf + (i_name - b);
	out->name_len = parse_until_nul(i_name, i_sep != NULL ? i_sep : i_end);
	if (out->name_len == 0)
		return -1; /* "#!" and a NUL: the kernel finds no program */
	if (i_arg != NULL) {
		out->arg = buf + (i_arg - b);
		out->arg_len = parse_until_nul(i_arg, i_end);
		out->has_arg = true;
	}
	return 0;
}

/* The loader's options that take the next argument as their value
 * (glibc 2.36, `ld.so --help`). */
static const char *const loader_valued[] = {
    "--library-path",      "--inhibit-rpath", "--audit",
    "--preload",           "--argv0",         "--glibc-hwcaps-prepend",
    "--glibc-hwcaps-mask",
};

/* Options without a value.  --help, --version, --list-tunables and
 * --list-diagnostics print and exit, but a word after them is read as a
 * program all the same: deciding a program that will not run costs
 * nothing, missing one that does would let it run undecided. */
static const char *const loader_flags[] = {
    "--list",    "--verify",        "--inhibit-cache",    "--help",
    "--version", "--list-tunables", "--list-diagnostics",
};

static bool
parse_in(const char *arg, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(arg, list[i]) == 0)
			return true;
	return false;
}

#define PARSE_COUNT(a) (sizeof(a) / sizeof((a)[0]))

int
pty_loader_parse(size_t argc, const char *const *argv,
		 struct pty_loader_args *out)
{
	size_t i = 1;

	memset(out, 0, sizeof *out);
	while (i < argc) {
		const char *a = argv[i];

		if (parse_in(a, loader_valued, PARSE_COUNT(loader_valued)) &&
		    i + 1 < argc) {
			if (strcmp(a, "--argv0") == 0)
				out->argv0 = i + 1;
			i += 2;
		} else if (parse_in(a, loader_flags,
				    PARSE_COUNT(loader_flags))) {
			i++;
		} else if (a[0] == '-' && a[1] == '-') {
			/* an option this reader does not know (a newer
			 * loader's, or one given without its value) may take
			 * the next word: which word is the program is then
			 * unknown, and the caller refuses */
			if (a[2] != '\0')
				return -1;
			i++; /* "--": the end of the options */
			break;
		} else {
			break;
		}
	}
	if (i >= argc)
		return 0; /* no program: it prints its usage and exits */
	out->program = i;
	out->has_program = true;
	return 0;
}

/* One hex digit, or -1. */
static int
parse_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A line "key value" of an entry's file: the value, or NULL. */
static const char *
parse_field(const char *line, size_t n, const char *key, size_t *vlen)
{
	size_t k = strlen(key);

	if (n <= k || memcmp(line, key, k) != 0 || line[k] != ' ')
		return NULL;
	*vlen = n - k - 1;
	return line + k + 1;
}

/* "7f454c46..." into bytes; returns how many, or -1. */
static int
parse_hexbytes(const char *s, size_t n, unsigned char *out, size_t cap)
{
	size_t i;

	if (n % 2 != 0 || n / 2 > cap)
		return -1;
	for (i = 0; i < n / 2; i++) {
		int hi = parse_hex(s[2 * i]), lo = parse_hex(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return (int)(n / 2);
}

int
pty_binfmt_parse(const char *text, size_t len, struct pty_binfmt *out)
{
	size_t pos = 0;
	bool have_match = false;

	memset(out, 0, sizeof *out);
	while (pos < len) {
		const char *line = text + pos, *nl, *v;
		size_t n, vlen = 0;
		int got;

		nl = memchr(line, '\n', len - pos);
		n = nl != NULL ? (size_t)(nl - line) : len - pos;
		pos += n + (nl != NULL);
		if (n == 7 && memcmp(line, "enabled", 7) == 0) {
			out->enabled = true;
		} else if ((v = parse_field(line, n, "interpreter", &vlen))) {
			if (vlen == 0 || vlen >= sizeof out->interpreter)
				return -1;
			memcpy(out->interpreter, v, vlen);
			out->interpreter[vlen] = '\0';
		} else if ((v = parse_field(line, n, "offset", &vlen))) {
			size_t i, off = 0;

			if (vlen == 0 || vlen > 6)
				return -1;
			for (i = 0; i < vlen; i++) {
				if (v[i] < '0' || v[i] > '9')
					return -1;
				off = off * 10 + (size_t)(v[i] - '0');
			}
			out->offset = off;
		} else if ((v = parse_field(line, n, "magic", &vlen))) {
			got = parse_hexbytes(v, vlen, out->magic,
					     sizeof out->magic);
			if (got <= 0)
				return -1;
			out->magic_len = (size_t)got;
			have_match = true;
		} else if ((v = parse_field(line, n, "mask", &vlen))) {
			got = parse_hexbytes(v, vlen, out->mask,
					     sizeof out->mask);
			if (got <= 0)
				return -1;
			out->mask_len = (size_t)got;
		} else if ((v = parse_field(line, n, "extension", &vlen))) {
			if (vlen == 0 || vlen >= sizeof out->extension)
				return -1;
			memcpy(out->extension, v, vlen);
			out->extension[vlen] = '\0';
			out->by_extension = true;
			have_match = true;
		}
	}
	if (!have_match || out->interpreter[0] == '\0' ||
	    (out->mask_len != 0 && out->mask_len != out->magic_len))
		return -1;
	return 0;
}

bool
pty_binfmt_match(const struct pty_binfmt *e, const unsigned char *head,
		 size_t head_len, const char *filename)
{
	size_t i;

	if (!e->enabled)
		return false;
	if (e->by_extension) {
		const char *dot = strrchr(filename, '.');

		return dot != NULL && strcmp(dot + 1, e->extension) == 0;
	}
	if (e->offset > head_len || e->magic_len > head_len - e->offset)
		return false;
	/* the kernel's test: the bits the mask keeps equal the magic's */
	for (i = 0; i < e->magic_len; i++) {
		unsigned char keep = e->mask_len != 0 ? e->mask[i] : 0xff;

		if (((head[e->offset + i] ^ e->magic[i]) & keep) != 0)
			return false;
	}
	return true;
}
