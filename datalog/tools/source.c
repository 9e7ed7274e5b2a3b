/* SPDX-License-Identifier: MIT */
/*
 * source: the program's text for the library - the C preprocessor, .include,
 * .once, __LINE__ - and the map from a line of it back to a file and a line
 * (see source.h).
 */
#define _GNU_SOURCE /* O_CLOEXEC, pipe2 */

#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A .once met: the file (its identity) and the line. */
struct source_once {
	dev_t dev;
	ino_t ino;
	uint32_t line;
};

/* A file being read, for the cycle check. */
struct source_frame {
	dev_t dev;
	ino_t ino;
};

struct source_ctx {
	struct source *s;
	const struct source_options *o;
	struct source_frame stack[SOURCE_DEPTH_MAX + 1];
	size_t depth;
	char *err;
	size_t errlen;
};

static int source_fail(struct source_ctx *cx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
source_fail(struct source_ctx *cx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(cx->err, cx->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* The whole file at `path`, at most `max` bytes. */
static int
source_read_file(struct source_ctx *cx, const char *path, char **out,
		 size_t *outlen, struct stat *sb)
{
	char *buf = NULL;
	size_t cap = 0, n = 0, max = cx->o->max_bytes;
	/* O_NONBLOCK: a FIFO named by an .include must not hang the run
	 * before the check that it is a regular file */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	*out = NULL;
	*outlen = 0;
	if (fd < 0)
		return source_fail(cx, "%s: cannot open: %s", path,
				   strerror(errno));
	if (fstat(fd, sb) != 0 || !S_ISREG(sb->st_mode)) {
		(void)close(fd);
		return source_fail(cx, "%s: not a regular file", path);
	}
	for (;;) {
		ssize_t got;

		if (n == cap) {
			size_t ncap = cap == 0 ? 65536 : cap * 2;
			char *nb;

			if (cap > max) {
				free(buf);
				(void)close(fd);
				return source_fail(
				    cx, "%s: larger than %zu bytes", path, max);
			}
			nb = realloc(buf, ncap + 1);
			if (nb == NULL) {
				free(buf);
				(void)close(fd);
				return source_fail(cx, "%s: out of memory",
						   path);
			}
			buf = nb;
			cap = ncap;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			free(buf);
			(void)close(fd);
			return source_fail(cx, "%s: read error: %s", path,
					   strerror(e));
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	(void)close(fd);
	buf[n] = '\0';
	*out = buf;
	*outlen = n;
	return 0;
}

/* Appends bytes to the text, within max_bytes. */
static int
source_put(struct source_ctx *cx, const char *p, size_t n)
{
	struct source *s = cx->s;

	if (n > cx->o->max_bytes - s->len)
		return source_fail(cx,
				   "%s: the program with its includes is "
				   "larger than %zu bytes",
				   cx->o->program, cx->o->max_bytes);
	if (s->cap - s->len <= n) {
		size_t ncap = s->cap == 0 ? 65536 : s->cap;
		char *nb;

		while (ncap - s->len <= n)
			ncap *= 2;
		nb = realloc(s->text, ncap);
		if (nb == NULL)
			return source_fail(cx, "out of memory");
		s->text = nb;
		s->cap = ncap;
	}
	memcpy(s->text + s->len, p, n);
	s->len += n;
	s->text[s->len] = '\0';
	return 0;
}

/* Ends a line of the text, which comes from file:line. */
static int
source_end_line(struct source_ctx *cx, uint32_t file, uint32_t line)
{
	struct source *s = cx->s;

	if (source_put(cx, "\n", 1) != 0)
		return -1;
	if (s->nlines == s->caplines) {
		size_t ncap = s->caplines == 0 ? 1024 : s->caplines * 2;
		struct source_line *nl = realloc(s->lines, ncap * sizeof *nl);

		if (nl == NULL)
			return source_fail(cx, "out of memory");
		s->lines = nl;
		s->caplines = ncap;
	}
	s->lines[s->nlines].file = file;
	s->lines[s->nlines].line = line;
	s->nlines++;
	return 0;
}

/* The index of file name `name` (n bytes) in s->files, added if new. */
static int
source_file_index(struct source_ctx *cx, const char *name, size_t n,
		  uint32_t *out)
{
	struct source *s = cx->s;
	char **nf;
	size_t i;

	for (i = 0; i < s->nfiles; i++)
		if (strlen(s->files[i]) == n &&
		    memcmp(s->files[i], name, n) == 0) {
			*out = (uint32_t)i;
			return 0;
		}
	if (s->nfiles >= SOURCE_INCLUDES_MAX * 2u)
		return source_fail(cx, "%s: more than %u file names",
				   cx->o->program,
				   (unsigned)(SOURCE_INCLUDES_MAX * 2u));
	nf = realloc(s->files, (s->nfiles + 1) * sizeof *nf);
	if (nf == NULL)
		return source_fail(cx, "out of memory");
	s->files = nf;
	s->files[s->nfiles] = strndup(name, n);
	if (s->files[s->nfiles] == NULL)
		return source_fail(cx, "out of memory");
	*out = (uint32_t)s->nfiles++;
	return 0;
}

static bool
source_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* The word `w` at p (of the line's n bytes), followed by a blank or the
 * end of the line. */
static bool
source_word_at(const char *p, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n >= k && memcmp(p, w, k) == 0 && (n == k || source_blank(p[k]));
}

/* A C preprocessor line: '#', blanks, one of cpp's directives. */
static bool
source_is_cpp_line(const char *p, size_t n)
{
	static const char *const words[] = {
	    "include", "define", "undef", "ifdef", "ifndef",  "if",
	    "elif",    "else",   "endif", "error", "warning", "pragma"};
	size_t i = 1, k;

	if (n == 0 || p[0] != '#')
		return false;
	while (i < n && source_blank(p[i]))
		i++;
	for (k = 0; k < sizeof words / sizeof *words; k++) {
		size_t wl = strlen(words[k]);

		if (n - i >= wl && memcmp(p + i, words[k], wl) == 0 &&
		    (n - i == wl || !((p[i + wl] >= 'a' && p[i + wl] <= 'z') ||
				      (p[i + wl] >= 'A' && p[i + wl] <= 'Z') ||
				      (p[i + wl] >= '0' && p[i + wl] <= '9') ||
				      p[i + wl] == '_')))
			return true;
	}
	return false;
}

/* Does any line of the text begin (after blanks) with a preprocessor
 * directive? */
static bool
source_has_cpp_line(const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl != NULL ? nl : end;

		while (p < e && source_blank(*p))
			p++;
		if (source_is_cpp_line(p, (size_t)(e - p)))
			return true;
		p = nl != NULL ? nl + 1 : end;
	}
	return false;
}

/*
 * A line marker ("# 12 "file" 1", "#line 12 "file""): *line and the file
 * name (name, *nlen; NULL when absent).  false when the line is not one.
 */
static bool
source_marker(const char *p, size_t n, uint32_t *line, const char **name,
	      size_t *nlen)
{
	size_t i = 1;
	uint64_t v = 0;

	*name = NULL;
	*nlen = 0;
	if (n >= 5 && memcmp(p, "#line", 5) == 0)
		i = 5;
	while (i < n && source_blank(p[i]))
		i++;
	if (i == n || p[i] < '0' || p[i] > '9')
		return false;
	for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
		v = v * 10 + (uint64_t)(p[i] - '0');
		if (v > UINT32_MAX)
			return false;
	}
	while (i < n && source_blank(p[i]))
		i++;
	if (i < n && p[i] == '"') {
		const char *q = memchr(p + i + 1, '"', n - i - 1);

		if (q == NULL)
			return false;
		*name = p + i + 1;
		*nlen = (size_t)(q - *name);
	}
	*line = (uint32_t)v;
	return true;
}

/* A line of program text with each __LINE__ outside strings and comments
 * replaced by `line`, padded to the same width so columns hold;
 * *in_comment carries a block comment over lines. */
static int
source_put_line(struct source_ctx *cx, const char *p, size_t n, uint32_t line,
		bool *in_comment)
{
	size_t i = 0, from = 0;

	if (!cx->o->souffle)
		return source_put(cx, p, n);
	while (i < n) {
		if (*in_comment) {
			if (p[i] == '*' && i + 1 < n && p[i + 1] == '/') {
				*in_comment = false;
				i += 2;
			} else {
				i++;
			}
			continue;
		}
		if (p[i] == '/' && i + 1 < n && p[i + 1] == '/')
			break; /* the rest is a comment */
		if (p[i] == '/' && i + 1 < n && p[i + 1] == '*') {
			*in_comment = true;
			i += 2;
			continue;
		}
		if (p[i] == '"') {
			for (i++; i < n && p[i] != '"'; i++)
				if (p[i] == '\\' && i + 1 < n)
					i++;
			i++;
			continue;
		}
		if (n - i >= 8 && memcmp(p + i, "__LINE__", 8) == 0 &&
		    (i == 0 || !(p[i - 1] == '_' ||
				 (p[i - 1] >= '0' && p[i - 1] <= '9') ||
				 ((p[i - 1] | 0x20) >= 'a' &&
				  (p[i - 1] | 0x20) <= 'z'))) &&
		    (i + 8 == n || !(p[i + 8] == '_' ||
				     (p[i + 8] >= '0' && p[i + 8] <= '9') ||
				     ((p[i + 8] | 0x20) >= 'a' &&
				      (p[i + 8] | 0x20) <= 'z')))) {
			char num[16];
			int w =
			    snprintf(num, sizeof num, "%-8u", (unsigned)line);

			if (source_put(cx, p + from, i - from) != 0 ||
			    source_put(cx, num, (size_t)w) != 0)
				return -1;
			i += 8;
			from = i;
			continue;
		}
		i++;
	}
	return source_put(cx, p + from, n - from);
}

/* The file an .include names: absolute, else beside the including file,
 * else in each -I directory in turn (Souffle's order).  NULL: none. */
static char *
source_find(const char *including, const char *name,
	    const struct source_options *o)
{
	struct stat sb;
	size_t i;
	char *p;

	if (name[0] == '/')
		return stat(name, &sb) == 0 ? strdup(name) : NULL;
	{
		const char *slash = strrchr(including, '/');

		if (slash == NULL)
			p = strdup(
			    name); /* beside a file of the current folder */
		else if (asprintf(&p, "%.*s/%s", (int)(slash - including),
				  including, name) < 0)
			p = NULL;
		if (p == NULL)
			return NULL;
		if (stat(p, &sb) == 0)
			return p;
		free(p);
	}
	for (i = 0; i < o->nincdirs; i++) {
		if (asprintf(&p, "%s/%s", o->incdirs[i], name) < 0)
			return NULL;
		if (stat(p, &sb) == 0)
			return p;
		free(p);
	}
	return NULL;
}

static int source_expand(struct source_ctx *cx, const char *text, size_t len,
			 const char *path, const struct stat *sb, bool markers);

/* `.include "NAME"` (the line from after the directive's name): reads
 * the file and expands it in place. */
static int
source_include(struct source_ctx *cx, const char *p, size_t n, const char *path,
	       uint32_t line)
{
	char name[4096], *found, *text = NULL;
	size_t i = 0, k = 0, tlen = 0;
	struct stat sb;
	int rc;

	while (i < n && source_blank(p[i]))
		i++;
	if (i == n || p[i] != '"')
		return source_fail(cx,
				   "%s:%u: .include wants a file name in "
				   "double quotes",
				   path, (unsigned)line);
	for (i++; i < n && p[i] != '"'; i++) {
		if (p[i] == '\\' && i + 1 < n)
			i++;
		if (k + 1 >= sizeof name)
			return source_fail(cx,
					   "%s:%u: .include: file name too "
					   "long",
					   path, (unsigned)line);
		name[k++] = p[i];
	}
	name[k] = '\0';
	if (i == n)
		return source_fail(cx,
				   "%s:%u: .include: the file name has no "
				   "closing quote",
				   path, (unsigned)line);
	for (i++; i < n && source_blank(p[i]); i++)
		;
	if (i < n && !(n - i >= 2 && p[i] == '/' && p[i + 1] == '/'))
		return source_fail(cx,
				   "%s:%u: .include: '%.*s' after the file "
				   "name",
				   path, (unsigned)line,
				   (int)(n - i > 40 ? 40 : n - i), p + i);
	if (k == 0 || memchr(name, '\0', k) != NULL)
		return source_fail(cx, "%s:%u: .include: an empty file name",
				   path, (unsigned)line);
	if (++cx->s->nincludes > SOURCE_INCLUDES_MAX)
		return source_fail(cx, "%s:%u: more than %u .include in all",
				   path, (unsigned)line,
				   (unsigned)SOURCE_INCLUDES_MAX);
	if (cx->depth >= SOURCE_DEPTH_MAX)
		return source_fail(cx,
				   "%s:%u: .include nested more than %u "
				   "files deep",
				   path, (unsigned)line,
				   (unsigned)SOURCE_DEPTH_MAX);
	found = source_find(path, name, cx->o);
	if (found == NULL)
		return source_fail(cx,
				   "%s:%u: cannot find include file \"%s\" "
				   "(beside %s or in a -I directory)",
				   path, (unsigned)line, name, path);
	if (source_read_file(cx, found, &text, &tlen, &sb) != 0) {
		free(found);
		return -1;
	}
	for (i = 0; i < cx->depth; i++) {
		size_t j;
		bool guarded = false;

		if (cx->stack[i].dev != sb.st_dev ||
		    cx->stack[i].ino != sb.st_ino)
			continue;
		for (j = 0; j < cx->s->nonce; j++)
			guarded |= cx->s->once[j].dev == sb.st_dev &&
				   cx->s->once[j].ino == sb.st_ino;
		if (!guarded) {
			source_fail(cx,
				    "%s:%u: include cycle: %s is already "
				    "being read (a .once at its top would "
				    "read it once)",
				    path, (unsigned)line, found);
			free(found);
			free(text);
			return -1;
		}
	}
	rc = source_expand(cx, text, tlen, found, &sb, false);
	free(found);
	free(text);
	return rc;
}

/* `.once` at path:line: true when met already (the rest of the file is
 * skipped). */
static int
source_once(struct source_ctx *cx, const struct stat *sb, uint32_t line,
	    bool *seen)
{
	struct source *s = cx->s;
	size_t i;

	*seen = false;
	for (i = 0; i < s->nonce; i++)
		if (s->once[i].dev == sb->st_dev &&
		    s->once[i].ino == sb->st_ino && s->once[i].line == line) {
			*seen = true;
			return 0;
		}
	if (s->nonce == s->caponce) {
		size_t ncap = s->caponce == 0 ? 16 : s->caponce * 2;
		struct source_once *no = realloc(s->once, ncap * sizeof *no);

		if (no == NULL)
			return source_fail(cx, "out of memory");
		s->once = no;
		s->caponce = ncap;
	}
	s->once[s->nonce].dev = sb->st_dev;
	s->once[s->nonce].ino = sb->st_ino;
	s->once[s->nonce].line = line;
	s->nonce++;
	return 0;
}

/*
 * Appends the lines of `text` (the file `path`, identity sb) to the
 * program's text.  `markers`: the text is cpp's output, whose `#` lines
 * say which file and line the next line comes from.
 */
static int
source_expand(struct source_ctx *cx, const char *text, size_t len,
	      const char *path, const struct stat *sb, bool markers)
{
	const char *p = text, *end = text + len;
	uint32_t file, line = 1;
	bool in_comment = false;
	int rc = -1;

	if (source_file_index(cx, path, strlen(path), &file) != 0)
		return -1;
	cx->stack[cx->depth].dev = sb->st_dev;
	cx->stack[cx->depth].ino = sb->st_ino;
	cx->depth++;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl != NULL ? nl : end, *q = p;
		uint32_t this_line = line;

		while (q < e && source_blank(*q))
			q++;
		line++;
		if (!in_comment && q < e && *q == '#' &&
		    (markers || cx->o->souffle)) {
			const char *name;
			size_t nlen;
			uint32_t to;

			/* a line marker, or a line Souffle's lexer skips */
			if (source_marker(q, (size_t)(e - q), &to, &name,
					  &nlen)) {
				if (name != NULL &&
				    source_file_index(cx, name, nlen, &file) !=
					0)
					goto out;
				line = to;
			}
			if (source_end_line(cx, file, this_line) != 0)
				goto out;
		} else if (!in_comment &&
			   source_word_at(q, (size_t)(e - q), ".include")) {
			if (source_end_line(cx, file, this_line) != 0 ||
			    source_include(cx, q + 8, (size_t)(e - q - 8), path,
					   this_line) != 0)
				goto out;
		} else if (!in_comment &&
			   source_word_at(q, (size_t)(e - q), ".once")) {
			bool seen;

			if (source_once(cx, sb, this_line, &seen) != 0)
				goto out;
			if (seen)
				break; /* the rest of this file: read already */
			if (source_end_line(cx, file, this_line) != 0)
				goto out;
		} else if (source_put_line(cx, p, (size_t)(e - p), this_line,
					   &in_comment) != 0 ||
			   source_end_line(cx, file, this_line) != 0) {
			goto out;
		}
		p = nl != NULL ? nl + 1 : end;
	}
	rc = 0;
out:
	cx->depth--;
	return rc;
}

/* Address space (bytes) and CPU seconds the C preprocessor may use. */
#define SOURCE_CPP_AS_MAX  ((rlim_t)1 << 30)
#define SOURCE_CPP_CPU_MAX ((rlim_t)60)

/* Runs `cpp -x c -DRAM_DOMAIN_SIZE=64 [-I DIR]... PROGRAM` (no shell) and
 * returns its output, at most max_bytes. */
static int
source_cpp(struct source_ctx *cx, char **out, size_t *outlen)
{
	const struct source_options *o = cx->o;
	const char *argv[6 + 2 * SOURCE_INCDIRS_MAX + 2];
	char *buf = NULL, *prog = NULL;
	size_t n = 0, cap = 0, a = 0, i;
	int fds[2], status = 0, rc = -1;
	bool too_big = false;
	pid_t pid;

	*out = NULL;
	*outlen = 0;
	if (o->nincdirs > SOURCE_INCDIRS_MAX)
		return source_fail(cx, "more than %u -I directories",
				   (unsigned)SOURCE_INCDIRS_MAX);
	/* a program named "-x" must not read as an option of cpp */
	if (asprintf(&prog, "%s%s", o->program[0] == '-' ? "./" : "",
		     o->program) < 0)
		return source_fail(cx, "out of memory");
	argv[a++] = "cpp";
	argv[a++] = "-x";
	argv[a++] = "c";
	argv[a++] = "-DRAM_DOMAIN_SIZE=64";
	for (i = 0; i < o->nincdirs; i++) {
		argv[a++] = "-I";
		argv[a++] = o->incdirs[i];
	}
	argv[a++] = prog;
	argv[a] = NULL;
	if (pipe2(fds, O_CLOEXEC) != 0) {
		free(prog);
		return source_fail(cx, "cpp: pipe: %s", strerror(errno));
	}
	(void)fflush(stdout);
	(void)fflush(stderr);
	pid = fork();
	if (pid < 0) {
		(void)close(fds[0]);
		(void)close(fds[1]);
		free(prog);
		return source_fail(cx, "cpp: fork: %s", strerror(errno));
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);
		/* cpp's own memory and time are bounded too: a macro that
		 * doubles itself forty times grows cc1 by gigabytes before
		 * it writes a byte of the output bounded above. */
		const struct rlimit mem = {SOURCE_CPP_AS_MAX, SOURCE_CPP_AS_MAX};
		const struct rlimit cpu = {SOURCE_CPP_CPU_MAX,
					   SOURCE_CPP_CPU_MAX};

		if (devnull < 0 || dup2(devnull, 0) < 0 ||
		    dup2(fds[1], 1) < 0 || setrlimit(RLIMIT_AS, &mem) != 0 ||
		    setrlimit(RLIMIT_CPU, &cpu) != 0)
			_exit(127);
		execvp("cpp", (char *const *)argv);
		_exit(127);
	}
	(void)close(fds[1]);
	for (;;) {
		ssize_t got;

		if (n == cap) {
			size_t ncap = cap == 0 ? 65536 : cap * 2;
			char *nb;

			if (cap > o->max_bytes) {
				too_big = true;
				break;
			}
			nb = realloc(buf, ncap + 1);
			if (nb == NULL) {
				too_big = true;
				break;
			}
			buf = nb;
			cap = ncap;
		}
		got = read(fds[0], buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	(void)close(fds[0]);
	if (too_big)
		(void)kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (too_big)
		source_fail(cx,
			    "%s: the C preprocessor's output is larger than "
			    "%zu bytes (or no memory for it)",
			    o->program, o->max_bytes);
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		source_fail(cx,
			    "%s: has C preprocessor lines, and cpp cannot "
			    "be run (is it installed?)",
			    o->program);
	else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		source_fail(cx,
			    "%s: the C preprocessor failed (cpp exit "
			    "status %d)",
			    o->program,
			    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	else
		rc = 0;
	free(prog);
	if (rc != 0) {
		free(buf);
		return -1;
	}
	if (buf == NULL && (buf = malloc(1)) == NULL)
		return source_fail(cx, "out of memory");
	buf[n] = '\0';
	*out = buf;
	*outlen = n;
	return 0;
}

/* Nothing to do: no include, no .once, no __LINE__, no '#' line. */
static bool
source_plain(const char *text, size_t len, bool souffle)
{
	const char *p = text, *end = text + len;

	if (memmem(text, len, ".include", 8) != NULL ||
	    memmem(text, len, ".once", 5) != NULL ||
	    (souffle && memmem(text, len, "__LINE__", 8) != NULL))
		return false;
	if (!souffle)
		return true;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl != NULL ? nl : end;

		while (p < e && source_blank(*p))
			p++;
		if (p < e && *p == '#')
			return false;
		p = nl != NULL ? nl + 1 : end;
	}
	return true;
}

int
source_load(struct source *s, const struct source_options *o, char *err,
	    size_t errlen)
{
	struct source_ctx cx;
	struct stat sb;
	char *text = NULL;
	size_t len = 0;
	int rc;

	memset(s, 0, sizeof *s);
	memset(&cx, 0, sizeof cx);
	cx.s = s;
	cx.o = o;
	cx.err = err;
	cx.errlen = errlen;
	if (source_read_file(&cx, o->program, &text, &len, &sb) != 0)
		return -1;
	if (source_plain(text, len, o->souffle)) {
		s->text = text; /* as it is: no table, nothing to map */
		s->len = len;
		s->cap = len + 1;
		return 0;
	}
	if (o->souffle && !o->no_preprocessor &&
	    source_has_cpp_line(text, len)) {
		/* Souffle runs every program through the C preprocessor;
		 * only a program with a preprocessor line can tell */
		char *pre = NULL;
		size_t plen = 0;

		if (source_cpp(&cx, &pre, &plen) != 0) {
			free(text);
			return -1;
		}
		free(text);
		rc = source_expand(&cx, pre, plen, o->program, &sb, true);
		free(pre);
	} else {
		rc = source_expand(&cx, text, len, o->program, &sb, false);
		free(text);
	}
	if (rc == 0 && s->text == NULL && source_put(&cx, "", 0) != 0)
		rc = -1;
	return rc;
}

void
source_free(struct source *s)
{
	size_t i;

	free(s->text);
	free(s->lines);
	for (i = 0; i < s->nfiles; i++)
		free(s->files[i]);
	free(s->files);
	free(s->once);
	memset(s, 0, sizeof *s);
}

void
source_map_message(const struct source *s, const char *name, const char *msg,
		   char *out, size_t outlen)
{
	size_t nl = strlen(name), i;
	unsigned long line = 0;
	const struct source_line *at;

	(void)snprintf(out, outlen, "%s", msg);
	if (s->lines == NULL || strncmp(msg, name, nl) != 0 || msg[nl] != ':')
		return;
	for (i = nl + 1; msg[i] >= '0' && msg[i] <= '9' && line < 1u << 30; i++)
		line = line * 10 + (unsigned long)(msg[i] - '0');
	if (i == nl + 1 || msg[i] != ':' || line == 0 || line > s->nlines)
		return;
	at = &s->lines[line - 1];
	(void)snprintf(out, outlen, "%s:%u%s", s->files[at->file],
		       (unsigned)at->line, msg + i);
}
