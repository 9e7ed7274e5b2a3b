/* SPDX-License-Identifier: MIT */
/*
 * How the next program of an exec is named (exec_parse.c): the #! line of
 * a script, the command line of the dynamic loader run as a program, and
 * the kernel's binfmt_misc entries.  Pure functions over bounded bytes,
 * fuzzed (fuzz/fuzz_exec_parse.c).
 */
#ifndef PTY_EXEC_PARSE_H
#define PTY_EXEC_PARSE_H

#include <stdbool.h>
#include <stddef.h>

/* The bytes of a file the kernel reads to choose how to run it
 * (BINPRM_BUF_SIZE). */
#define PTY_SHEBANG_BUF 256

/* A #! line: the interpreter's name and its one optional argument, both
 * pointing into the buffer parsed (not NUL-terminated). */
struct pty_shebang {
	const char *name;
	size_t name_len;
	bool has_arg;
	const char *arg;
	size_t arg_len;
};

/* Parses the first `len` bytes of a file (at most PTY_SHEBANG_BUF are
 * looked at) as Linux's binfmt_script does: "#!", blanks, the name up to a
 * blank, then everything to the end of the line (trailing blanks dropped)
 * as one argument; a name that may be cut short by the buffer's end is no
 * #! line at all.  Returns 0, or -1 when the kernel would not run the file
 * as a script. */
int pty_shebang_parse(const char *buf, size_t len, struct pty_shebang *out);

/* The dynamic loader's command line: ld.so [OPTIONS] [PROGRAM [ARGS]]. */
struct pty_loader_args {
	bool has_program; /* false: it runs no program (--help, none given) */
	size_t program;   /* argv index of PROGRAM */
	size_t argv0;     /* argv index of --argv0's value, or 0 */
};

/* Reads argv as glibc's loader does, every word after the options taken
 * for the program (even after --help: see exec_parse.c).  Returns 0, or -1
 * when an option is not one this reader knows (or lacks its value): the
 * program cannot then be told, and the exec must be refused. */
int pty_loader_parse(size_t argc, const char *const *argv,
		     struct pty_loader_args *out);

/* One binfmt_misc entry (/proc/sys/fs/binfmt_misc/NAME). */
struct pty_binfmt {
	bool enabled;
	char interpreter[4096];
	bool by_extension;
	char extension[256];
	size_t offset;
	unsigned char magic[128], mask[128];
	size_t magic_len, mask_len;
};

/* Parses an entry's file.  Returns 0, or -1 when it is not one. */
int pty_binfmt_parse(const char *text, size_t len, struct pty_binfmt *out);

/* Whether the kernel would run a file through entry `e`: its first bytes
 * `head`, `filename` as given to execve. */
bool pty_binfmt_match(const struct pty_binfmt *e, const unsigned char *head,
		      size_t head_len, const char *filename);

#endif /* PTY_EXEC_PARSE_H */
