/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for what the exec supervisor reads to find the next program
 * of an exec (pty/exec/exec_parse.c).  The first byte picks the reader, the
 * rest is its input:
 *
 *   0  a file's first bytes as a #! line: pty_shebang_parse must agree
 *      with a second reading done the kernel's way (fs/binfmt_script.c on
 *      a NUL-padded buffer of 256 bytes, pointer by pointer), and what it
 *      returns must lie inside the input with no blank, NUL or newline at
 *      either end of the name or the argument;
 *   1  the dynamic loader's argv (NUL-separated words): pty_loader_parse
 *      must agree with the loop of glibc's elf/rtld.c written out again
 *      (with its options as `ld.so --help` of glibc 2.36 lists them, and
 *      a word after --help or --version read as a program all the same);
 *   2  a binfmt_misc entry's file: pty_binfmt_parse keeps its magic and
 *      mask inside their arrays, and pty_binfmt_match never reads past the
 *      head it is given (ASan watches).
 */
#include "fuzz.h"

#include "pty_exec_parse.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* --- the kernel's way, for the comparison ---------------------------- */

static bool
ref_spacetab(char c)
{
	return c == ' ' || c == '\t';
}

static char *
ref_next_non_spacetab(char *first, const char *last)
{
	for (; first <= last; first++)
		if (!ref_spacetab(*first))
			return first;
	return NULL;
}

static char *
ref_next_terminator(char *first, const char *last)
{
	for (; first <= last; first++)
		if (ref_spacetab(*first) || *first == '\0')
			return first;
	return NULL;
}

/* Returns 0 with name and arg copied out (NUL-ended), or -1. */
static int
ref_shebang(const unsigned char *in, size_t len, char *name, char *arg,
	    bool *has_arg)
{
	char buf[PTY_SHEBANG_BUF];
	char *buf_end, *i_end, *i_name, *i_sep, *i_arg = NULL;

	memset(buf, 0, sizeof buf);
	memcpy(buf, in, len < sizeof buf ? len : sizeof buf);
	if (buf[0] != '#' || buf[1] != '!')
		return -1;
	buf_end = buf + sizeof buf - 1;
	i_end = memchr(buf, '\n', sizeof buf);
	if (i_end == NULL) {
		i_end = ref_next_non_spacetab(buf + 2, buf_end);
		if (i_end == NULL)
			return -1;
		if (ref_next_terminator(i_end, buf_end) == NULL)
			return -1;
		i_end = buf_end;
	}
	while (ref_spacetab(i_end[-1]))
		i_end--;
	i_name = ref_next_non_spacetab(buf + 2, i_end);
	if (i_name == NULL || i_name == i_end)
		return -1;
	i_sep = ref_next_terminator(i_name, i_end);
	if (i_sep != NULL && *i_sep != '\0')
		i_arg = ref_next_non_spacetab(i_sep, i_end);
	*i_end = '\0';
	if (i_arg != NULL) {
		*i_sep = '\0';
		strcpy(arg, i_arg);
	}
	*has_arg = i_arg != NULL;
	strcpy(name, i_name);
	return 0;
}

static void
check_shebang(const unsigned char *data, size_t size)
{
	char rname[PTY_SHEBANG_BUF], rarg[PTY_SHEBANG_BUF];
	struct pty_shebang sb;
	bool rhas = false;
	int got = pty_shebang_parse((const char *)data, size, &sb);
	int want = ref_shebang(data, size, rname, rarg, &rhas);

	/* the kernel also refuses an empty name cut by a NUL right away:
	 * "#!\0..." has i_name pointing at NUL, which is its own end */
	if (want == 0 && rname[0] == '\0')
		want = -1;
	if (got != want)
		abort();
	if (got != 0)
		return;
	if (sb.name < (const char *)data ||
	    sb.name + sb.name_len > (const char *)data + size ||
	    sb.name_len != strlen(rname) ||
	    memcmp(sb.name, rname, sb.name_len) != 0)
		abort();
	if (memchr(sb.name, '\n', sb.name_len) != NULL ||
	    memchr(sb.name, ' ', sb.name_len) != NULL ||
	    memchr(sb.name, '\t', sb.name_len) != NULL)
		abort();
	if (sb.has_arg != rhas)
		abort();
	if (sb.has_arg && (sb.arg < (const char *)data ||
			   sb.arg + sb.arg_len > (const char *)data + size ||
			   sb.arg_len != strlen(rarg) ||
			   memcmp(sb.arg, rarg, sb.arg_len) != 0 ||
			   memchr(sb.arg, '\n', sb.arg_len) != NULL))
		abort();
}

/* --- glibc's loader loop, for the comparison ------------------------- */

static bool
ref_is(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

/* -1: usage error; 0 with *program (0: none). */
static int
ref_loader(int argc, char **argv, int *program, int *argv0)
{
	int i = 1;

	*program = *argv0 = 0;
	while (i < argc) {
		const char *a = argv[i];

		if (ref_is(a, "--list") || ref_is(a, "--verify") ||
		    ref_is(a, "--inhibit-cache"))
			i++;
		else if ((ref_is(a, "--library-path") ||
			  ref_is(a, "--inhibit-rpath") ||
			  ref_is(a, "--audit") || ref_is(a, "--preload") ||
			  ref_is(a, "--glibc-hwcaps-prepend") ||
			  ref_is(a, "--glibc-hwcaps-mask")) &&
			 i + 1 < argc)
			i += 2;
		else if (ref_is(a, "--argv0") && i + 1 < argc) {
			*argv0 = i + 1;
			i += 2;
		} else if (ref_is(a, "--help") || ref_is(a, "--version") ||
			   ref_is(a, "--list-tunables") ||
			   ref_is(a, "--list-diagnostics")) {
			i++; /* a word after it is a program all the same */
		} else if (a[0] == '-' && a[1] == '-') {
			if (a[2] != '\0')
				return -1;
			i++;
			break;
		} else {
			break;
		}
	}
	if (i < argc)
		*program = i;
	return 0;
}

static void
check_loader(const unsigned char *data, size_t size)
{
	static char words[4096];
	char *argv[64];
	const char *cargv[64];
	size_t n = size < sizeof words - 1 ? size : sizeof words - 1, i;
	int argc = 1, program, argv0, want;
	struct pty_loader_args la;

	memcpy(words, data, n);
	words[n] = '\0';
	argv[0] = "ld.so";
	for (i = 0; i <= n && argc < 64;) {
		argv[argc++] = words + i;
		i += strlen(words + i) + 1;
	}
	for (i = 0; i < (size_t)argc; i++)
		cargv[i] = argv[i];
	want = ref_loader(argc, argv, &program, &argv0);
	if (pty_loader_parse((size_t)argc, cargv, &la) != want)
		abort();
	if (want != 0)
		return;
	if (la.has_program != (program != 0) ||
	    (program != 0 && la.program != (size_t)program) ||
	    la.argv0 != (size_t)argv0 || la.program >= (size_t)argc)
		abort();
}

/* --- binfmt_misc ------------------------------------------------------- */

static void
check_binfmt(const unsigned char *data, size_t size)
{
	static struct pty_binfmt e;
	unsigned char head[PTY_SHEBANG_BUF];
	size_t hl = size < sizeof head ? size : sizeof head;

	if (pty_binfmt_parse((const char *)data, size, &e) != 0)
		return;
	if (e.magic_len > sizeof e.magic || e.mask_len > sizeof e.mask ||
	    e.interpreter[0] == '\0' ||
	    (e.mask_len != 0 && e.mask_len != e.magic_len))
		abort();
	memcpy(head, data, hl);
	(void)pty_binfmt_match(&e, head, hl, "/x/y.exe");
	(void)pty_binfmt_match(&e, head, 0, "noext");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	switch (data[0] % 3) {
	case 0:
		check_shebang(data + 1, size - 1);
		break;
	case 1:
		check_loader(data + 1, size - 1);
		break;
	default:
		check_binfmt(data + 1, size - 1);
		break;
	}
	return 0;
}
