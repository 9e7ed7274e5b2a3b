/* SPDX-License-Identifier: MIT */
/*
 * After the guard lets an exec go on: what the process runs once the exec
 * is over, checked against what was decided (exec_verify.c).
 *
 * The guard decides on the path, the working directory and execveat's
 * descriptor as it read them; the kernel reads them again after the
 * answer, and another thread (or a process sharing the memory, the
 * working directory or the descriptors) can change them in between.  No
 * answer of seccomp can change what the kernel reads.  So before it
 * answers CONTINUE the guard notes, for the process (by its pidfd, which
 * cannot name another process later):
 *   - what it runs now: its executable's device and inode, and, when
 *     that is also the program decided, a digest of its auxiliary vector
 *     (new at every exec);
 *   - what it must run once the exec is over: the executable of the
 *     decided chain (the last interpreter of a #! chain, the dynamic
 *     loader for "ld.so PROG", else the program itself).
 * It looks again 1 ms later, then at doubling intervals up to 500 ms, and
 * at once when the same thread asks for another exec (its earlier one is
 * then over); a look that falls due while the guard decides execs anyway
 * is taken then.  When the process's executable has changed and is
 * another file than decided, the guard ends it (SIGKILL through its
 * pidfd) and reports the mismatch; the supervisor records it, shows it
 * and counts it as a refusal.
 *
 * An exec that fails leaves the process as it was: no mismatch.  An entry
 * is dropped when the process ends (what it ran then cannot be known: a
 * program that ends before the guard looks is not seen), when its
 * executable can no longer be read (PR_SET_DUMPABLE 0), or after a
 * minute without a change.  The arguments and a #! script are not
 * checked: a process that runs the decided executable with other
 * arguments or another script is not seen either (maelys-pty(1), THREAT
 * MODEL).
 */
#ifndef PTY_EXEC_VERIFY_H
#define PTY_EXEC_VERIFY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The most execs awaiting their check at once; past it the oldest is
 * dropped unchecked (and syslog says so). */
#define PTY_EXEC_VERIFY_MAX 512

/* What one allowed exec must leave the process running. */
struct pty_exec_verify_want {
	pid_t tid; /* the thread that asked (the notification's pid) */
	dev_t dev; /* the executable's file */
	ino_t ino;
	const char *path;    /* its exec_path, as decided (copied) */
	const char *request; /* the exec_request of what was asked */
};

/* A process found running another program than decided. */
struct pty_exec_mismatch {
	pid_t pid;           /* the process */
	const char *path;    /* what was decided: its exec_path */
	const char *request; /* ... and the exec_request of what was asked */
	char ran[PATH_MAX];  /* what it runs, as the kernel names it, or "" */
	dev_t dev;           /* ... its device and inode */
	ino_t ino;
	bool killed; /* the guard ended it (SIGKILL) */
};

/* Called with each mismatch found, after the process was ended. */
typedef void (*pty_exec_verify_found_fn)(void *ctx,
					 const struct pty_exec_mismatch *m);

struct pty_exec_verify;

/* The checks' state: the table, and a timer whose descriptor is readable
 * when a check is due; `proc` is /proc, kept open by the caller for as long
 * as the state lives.  Returns 0, or -1 with one line in err. */
int pty_exec_verify_open(struct pty_exec_verify **out, int proc, char *err,
			 size_t errlen);
void pty_exec_verify_close(struct pty_exec_verify *v); /* NULL is allowed */

/* The descriptor to wait on (readable: call pty_exec_verify_run), or -1. */
int pty_exec_verify_fd(const struct pty_exec_verify *v);

/* Before CONTINUE is answered: notes what the process runs and must run
 * (above); its earlier execs from another image are checked first (fn is
 * told of a mismatch).  A process whose executable cannot be read is not
 * noted (the exec's reader refuses those).  Returns true when the table
 * was full and the oldest entry was dropped unchecked. */
bool pty_exec_verify_expect(struct pty_exec_verify *v,
			    const struct pty_exec_verify_want *want,
			    pty_exec_verify_found_fn fn, void *ctx);

/* A notification of thread `tid` arrived: its earlier exec is over, and
 * checked now. */
void pty_exec_verify_asked(struct pty_exec_verify *v, pid_t tid,
			   pty_exec_verify_found_fn fn, void *ctx);

/* Runs the checks whose time has come. */
void pty_exec_verify_due(struct pty_exec_verify *v, pty_exec_verify_found_fn fn,
			 void *ctx);
/* The same when the descriptor is readable (the timer fired). */
void pty_exec_verify_run(struct pty_exec_verify *v, pty_exec_verify_found_fn fn,
			 void *ctx);

/* How many execs await their check (for tests). */
size_t pty_exec_verify_pending(const struct pty_exec_verify *v);

#endif /* PTY_EXEC_VERIFY_H */
