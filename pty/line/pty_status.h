/* SPDX-License-Identifier: MIT */
/*
 * bash's reports on the status channel (status.c): after each line, and
 * once after the lock-down line, PROMPT_COMMAND (spawn.c) writes
 * "STATUS\0$PWD\0" to fd 3.  The status is kept; the $PWD is skipped as it
 * comes, however long it is: a line may set PWD, so the guard names the
 * shell's directory itself, from the kernel (relay.c, exec_cwd.c).  The
 * reader holds no more than one status not yet ended, so a report of any
 * length passes through a bounded buffer.
 */
#ifndef PTY_STATUS_H
#define PTY_STATUS_H

#include <stdbool.h>
#include <stddef.h>

/* A status is "$?": at most three digits; anything longer is not bash's. */
#define PTY_STATUS_CODE_MAX 15

struct pty_status_reader {
	char code[PTY_STATUS_CODE_MAX + 1]; /* the report's status so far */
	size_t code_len;
	bool in_pwd; /* its status ended: skipping its $PWD */
};

/* Called for each whole report with its status (NUL-terminated); a
 * non-zero return stops the reading and is returned by pty_status_feed. */
typedef int (*pty_status_report_fn)(void *arg, const char *code);

/* Reads n more bytes of the channel, in any pieces: on_report for each
 * report they end.  Returns 0, what on_report returned when it was not 0,
 * or -1 when a status is longer than PTY_STATUS_CODE_MAX (the channel is
 * then not bash's report: nothing more of it can be read). */
int pty_status_feed(struct pty_status_reader *r, const char *buf, size_t n,
		    pty_status_report_fn on_report, void *arg);

#endif /* PTY_STATUS_H */
