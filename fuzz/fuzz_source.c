/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for how maelys-datalog reads a program before the library
 * does (datalog/tools/source.c): .include, .once, __LINE__, `#` line
 * markers and the lines Souffle's lexer skips.  The first byte picks the
 * syntax as fuzz.h says; the rest is the program, and after its first NUL
 * byte a second file, inc.dl, beside it.  The C preprocessor is never run
 * (--no-preprocessor): a fuzz target starts no program.
 *
 *   - it reads, or is refused with a message, never anything else;
 *   - every line of the text has a file and a line, and the text has as
 *     many lines as the table;
 *   - a message naming a line of the text is mapped to a file the table
 *     knows.
 */
#define _GNU_SOURCE /* mkdtemp */

#include "fuzz.h"

#include "source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One folder for the whole run, made at the first input and removed at
 * exit (the replay test runs this target in every test run). */
static char dir[64];

static void
remove_dir(void)
{
	char path[128];

	(void)snprintf(path, sizeof path, "%s/prog.dl", dir);
	(void)unlink(path);
	(void)snprintf(path, sizeof path, "%s/inc.dl", dir);
	(void)unlink(path);
	(void)rmdir(dir);
}

static void
write_file(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (f == NULL || (n > 0 && fwrite(p, 1, n, f) != n) || fclose(f) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct source_options o;
	struct source s;
	char prog[128], inc[128], err[1024], mapped[2048], msg[256];
	const uint8_t *nul;
	size_t plen, i, lines = 0;

	if (size < 1)
		return 0;
	if (dir[0] == '\0') {
		(void)snprintf(dir, sizeof dir, "/tmp/fuzz_source.XXXXXX");
		if (mkdtemp(dir) == NULL)
			abort();
		(void)atexit(remove_dir);
	}
	(void)snprintf(prog, sizeof prog, "%s/prog.dl", dir);
	(void)snprintf(inc, sizeof inc, "%s/inc.dl", dir);
	nul = memchr(data + 1, '\0', size - 1);
	plen = nul != NULL ? (size_t)(nul - (data + 1)) : size - 1;
	write_file(prog, data + 1, plen);
	if (nul != NULL)
		write_file(inc, nul + 1, size - 1 - plen - 1);
	else
		write_file(inc, NULL, 0);
	memset(&o, 0, sizeof o);
	o.program = prog;
	o.souffle = fuzz_syntax_flags(data[0]) == MAELYS_DATALOG_LOAD_SOUFFLE;
	o.no_preprocessor = true;
	o.max_bytes = 1u << 20;
	err[0] = '\0';
	if (source_load(&s, &o, err, sizeof err) != 0) {
		if (err[0] == '\0')
			abort(); /* a refusal says why */
		source_free(&s);
		return 0;
	}
	if (s.text == NULL || strlen(s.text) > s.len)
		abort();
	if (s.lines != NULL) {
		for (i = 0; i < s.len; i++)
			lines += s.text[i] == '\n';
		if (lines != s.nlines)
			abort();
		for (i = 0; i < s.nlines; i++)
			if (s.lines[i].file >= s.nfiles)
				abort();
		(void)snprintf(msg, sizeof msg, "%s:%zu:1: x", prog, s.nlines);
		source_map_message(&s, prog, msg, mapped, sizeof mapped);
		if (s.nlines > 0) {
			const char *f = s.files[s.lines[s.nlines - 1].file];

			if (strncmp(mapped, f, strlen(f)) != 0)
				abort();
		}
	}
	source_free(&s);
	return 0;
}
