/* SPDX-License-Identifier: MIT */
/*
 * Reading /proc/self/mountinfo (proc(5)): which mount holds a path, and
 * whether it is mounted noexec.  --check asks it of the places users write
 * (their homes, /tmp, /var/tmp, /dev/shm); a session's Landlock ruleset
 * asks where each folder is mounted, to find the second places a bind
 * mount shows a never-run file at (landlock_never.c).  Pure functions over the text:
 * the caller reads the file (bounded), so the parser can be fuzzed.
 *
 * A line is
 *   ID PARENT MAJOR:MINOR ROOT POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER
 * fields separated by single spaces; in ROOT and POINT the kernel writes a
 * space, tab, newline and backslash as \040, \011, \012 and \134.  A line
 * that does not have this shape (too few fields, no "-" separator, an ID
 * that is not a decimal number, a POINT that is not absolute or does not
 * fit in PATH_MAX, an escape that is not three octal digits of a byte other
 * than NUL) is malformed: skipped and counted, never guessed at.
 */
#ifndef PTY_MOUNTINFO_H
#define PTY_MOUNTINFO_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct pty_mount {
	unsigned long id;     /* the mount ID (first field) */
	char point[PATH_MAX]; /* where it is mounted, unescaped, absolute */
	bool noexec;          /* "noexec" among its per-mount options */
};

/* Parses one line (`len` bytes, without its newline; may hold any byte).
 * Returns 0 with *m filled, or -1 when the line is malformed (*m is then
 * unspecified). */
int pty_mountinfo_line(const char *line, size_t len, struct pty_mount *m);

/* Among the lines of a whole mountinfo text, the mount that holds `path`
 * (absolute, its links already resolved): the longest mount point that is
 * `path` or one of its parent directories, the later line on a tie (a mount
 * made over another at the same point lists after it).  Malformed lines are
 * skipped and counted in *bad (may be NULL).  Returns 0 with *m, or -1 when
 * no well-formed line holds `path` (or `path` is not absolute). */
int pty_mountinfo_find(const char *text, size_t len, const char *path,
		       struct pty_mount *m, size_t *bad);

#endif /* PTY_MOUNTINFO_H */
