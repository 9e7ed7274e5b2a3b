/* SPDX-License-Identifier: MIT */
/*
 * The system configuration, /etc/maelys-pty/maelys-pty.conf by default (the
 * path is fixed at build time: meson option config_file).  Nothing a user
 * controls - environment, files in the home directory - can change it.
 *
 * The file and every file it names that decides something (the policy) are
 * opened the way sudo and sshd open theirs: with O_NOFOLLOW, checked with
 * fstat(2) on the descriptor - a regular file, owned by root, not writable
 * by group or others - and every directory from / down to it owned by root
 * and not writable by group or others (a root-owned sticky directory such
 * as /tmp is accepted: nobody else can rename or remove what is in it).
 *
 * Syntax: one "key = value" a line; blank lines and lines starting with #
 * are ignored; an unknown key, a key given twice or a malformed value is an
 * error (a typo must not quietly mean a default).  Keys:
 *   policy = /path/to/policy.dl          (required)
 *   shell = /bin/bash
 *   path = /usr/local/bin:/usr/bin:/bin  (PATH of sessions)
 *   audit_log = /var/log/maelys-pty/audit.log   (absent: no audit log)
 *   audit_key = /etc/maelys-pty/audit.key       (required with audit_log)
 *   syslog = on | off                    (default on)
 *   idle_timeout = SECONDS               (0 = none, the default)
 *   max_denials = N                      (0 = unlimited, the default)
 *   on_audit_failure = deny | terminate  (default deny)
 *   landlock = auto | required           (default auto: the exec supervisor
 *                                         applies the policy's exec_dir and
 *                                         exec_file with Landlock when the
 *                                         kernel has it; required: a session
 *                                         does not start without both)
 * Blanks around the key and the value, and before a #, are ignored; no trailing
 * comments and no quoting.  Every path is absolute; path is a list of
 * absolute directories with no empty entry (an empty or relative entry
 * would let the user's working directory into PATH).  Booleans are written
 * in lower case.  A key with no value, a control character (a CR from a
 * CRLF file included), a NUL byte, a line longer than PTY_CONFIG_LINE_MAX
 * bytes or a file larger than PTY_CONFIG_SIZE_MAX bytes is an error.
 * audit_key without audit_log is accepted and unused.  An error inside the
 * file reads "FILE:LINE: what"; one about the whole file "FILE: what".
 *
 * pty_config_load checks that the policy path is absolute but does not open
 * it: whoever loads the policy reads it with pty_secure_read, so the checks
 * apply to the descriptor actually read.
 */
#ifndef PTY_CONFIG_H
#define PTY_CONFIG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* Bounds: bytes in the file, bytes in a line (its newline not counted),
 * the largest idle_timeout (a week, in seconds) and max_denials. */
#define PTY_CONFIG_SIZE_MAX         65536u
#define PTY_CONFIG_LINE_MAX         4096
#define PTY_CONFIG_IDLE_TIMEOUT_MAX 604800u
#define PTY_CONFIG_MAX_DENIALS_MAX  1000000u

enum pty_audit_failure { PTY_AUDIT_FAIL_DENY, PTY_AUDIT_FAIL_TERMINATE };

struct pty_config {
	char policy[PATH_MAX];
	char shell[PATH_MAX];
	char path_env[4096];
	char audit_log[PATH_MAX]; /* "" = none */
	char audit_key[PATH_MAX];
	bool syslog;
	unsigned idle_timeout; /* seconds; 0 = none */
	unsigned max_denials;  /* 0 = unlimited */
	enum pty_audit_failure on_audit_failure;
	bool landlock_required; /* landlock = required */
};

/* The defaults (no policy: the file must name one). */
void pty_config_defaults(struct pty_config *c);

/* Opens `path` securely (see above) and parses it into *c (defaults
 * first).  Returns 0, or -1 with one line in err that names the file and
 * what is wrong ("/etc/maelys-pty/maelys-pty.conf: writable by group");
 * on failure *c holds the defaults, never part of a refused file. */
int pty_config_load(const char *path, struct pty_config *c, char *err,
		    size_t errlen);

/* Opens `path` for reading with the checks above.  `path` must be
 * absolute; its directories are checked as spelled, and a symbolic link
 * anywhere on it is refused.  Returns the descriptor (O_CLOEXEC, blocking),
 * or -1 with one line in err. */
int pty_secure_open(const char *path, char *err, size_t errlen);

/* Reads the whole of an open file `fd` (at most `max` bytes; `path` names
 * it in errors) into a malloc'd buffer, NUL-terminated (*len does not count
 * it).  Returns 0, or -1 with one line in err (too big, read error, out of
 * memory) and *text NULL.  The descriptor stays open. */
int pty_read_whole(int fd, const char *path, size_t max, char **text,
		   size_t *len, char *err, size_t errlen);

/* Reads a whole securely opened file (at most `max` bytes) into a malloc'd
 * buffer.  Returns 0, or -1 with one line in err (too big, read error).
 * The buffer is NUL-terminated (*len does not count it; the text may hold
 * NUL bytes of its own) and the caller frees it; on failure *text is NULL
 * and *len 0. */
int pty_secure_read(const char *path, size_t max, char **text, size_t *len,
		    char *err, size_t errlen);

#endif /* PTY_CONFIG_H */
