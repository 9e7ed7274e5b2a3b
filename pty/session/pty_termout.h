/* SPDX-License-Identifier: MIT */
/*
 * The user's terminal's output while a session runs (termout.c): one
 * bounded queue in front of the descriptor the guard shows things on, and
 * the only way anything reaches it - the session's output (the relay),
 * every sentence of pty_say and pty_write_all given that descriptor (the
 * guard's refusals, the exec supervisor's, help, the questions), and
 * readline's own output (pty_termout_stream).  It is written only when the
 * terminal takes it (the caller's poll says POLLOUT), never waiting: a
 * terminal that stops reading (a stopped ssh client, a stalled link) holds
 * up its output and nothing else - signals, exec decisions and the
 * session's end go on.
 *
 * Never waiting, on a descriptor that is usually one open file description
 * shared by stdin, stdout and stderr: O_NONBLOCK is a flag of that
 * description, and readline clears it when its input meets EAGAIN.  So
 * the queue writes through a description of its own, opened again through
 * /proc/self/fd (a terminal, a pipe), with O_NONBLOCK; a socket is written
 * with MSG_DONTWAIT, a regular file as it is (it waits for no reader); a
 * terminal that cannot be opened again (another user's, as after su(1))
 * gets O_NONBLOCK on the shared description around each write only.
 *
 * Bounds: the caller stops adding the session's output while the queue
 * holds more than PTY_TERMOUT_HIGH (the relay stops reading the session's
 * pty: the program's output waits in the kernel, and the program with it),
 * so the session's output always fits and none is lost while the terminal
 * is merely slow.  The guard's own output (messages, readline) is queued
 * past that mark, up to PTY_TERMOUT_CAP: what would not fit then (a
 * terminal that took nothing for a megabyte of refusals) is left out a
 * sentence at a time, counted, and said in its place as soon as there is
 * room (PTY_MSG_TERMOUT_LOST); the audit log has every decision whatever
 * the terminal showed.  A terminal that fails a write (hung up) takes
 * nothing more: the queue is emptied and later output dropped.
 */
#ifndef PTY_TERMOUT_H
#define PTY_TERMOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The most the queue holds, and above how much the session's output waits
 * (the room between them takes one read of the session's pty, 64 KiB, and
 * the guard's messages). */
#define PTY_TERMOUT_CAP  (1024 * 1024)
#define PTY_TERMOUT_HIGH (64 * 1024)

/* How the queue writes without waiting (pty_termout_open chooses). */
enum pty_termout_how {
	PTY_TERMOUT_OWN,    /* a description of its own, O_NONBLOCK */
	PTY_TERMOUT_SOCKET, /* send(2) with MSG_DONTWAIT */
	PTY_TERMOUT_FILE,   /* a regular file or block device: write(2) */
	PTY_TERMOUT_SHARED, /* O_NONBLOCK set around each write(2) only */
};

struct pty_termout {
	int from; /* the descriptor it fronts (what pty_say is given) */
	int also; /* another that reaches the same file, or -1 */
	int fd;   /* the one it writes and polls: its own, or `from` */
	enum pty_termout_how how;
	char eol[3];             /* "\r\n" or "\n": its stream's and notes' */
	char *buf;               /* PTY_TERMOUT_CAP bytes */
	size_t head, len;        /* what waits: buf[head .. head + len) */
	unsigned long long lost; /* bytes left out, not said yet */
	bool gone;               /* a write failed: the terminal is gone */
	bool full;               /* took less: write again on POLLOUT */
	FILE *stream;            /* into the queue, each \n as eol */
};

/* Puts a queue in front of descriptor `from` (stdout for a session,
 * stderr for -c), whose lines end in eol ("\r\n" on a raw terminal, "\n"
 * otherwise); pty_say and pty_write_all given `from` write into it until
 * pty_termout_close.  One at a time in a process.  Returns 0, or -1 (no
 * memory, or one is open already). */
int pty_termout_open(struct pty_termout *o, int from, const char *eol);
/* Takes the queue away (what waits is dropped: pty_termout_drain first)
 * and closes what it opened; `from` stays open.  NULL-safe, and safe on a
 * queue that did not open. */
void pty_termout_close(struct pty_termout *o);

/* Fronts descriptor fd too when it reaches the same file as `from` (a
 * session's stderr, usually its stdout's terminal): what is said there
 * keeps its order with the rest, and waits as the rest does.  Returns
 * whether it does. */
bool pty_termout_also(struct pty_termout *o, int fd);

/* The queue in front of descriptor fd, or NULL. */
struct pty_termout *pty_termout_of(int fd);

/* Adds n bytes: written at once as far as the terminal takes them when
 * nothing waits, the rest queued.  All or nothing: what does not fit is
 * left out whole and counted (see above).  Returns 0, or -1 when it was
 * left out. */
int pty_termout_put(struct pty_termout *o, const void *buf, size_t n);
/* How much pty_termout_put takes now without leaving anything out. */
size_t pty_termout_room(const struct pty_termout *o);

/* Writes what waits as far as the terminal takes it now, never waiting
 * (call it when poll says POLLOUT, or POLLERR/POLLHUP on pty_termout_fd).
 * Returns false once the terminal is gone. */
bool pty_termout_flush(struct pty_termout *o);
/* The same before a loop waits, for what was only queued (the stream's):
 * written unless the terminal was full at the last write - then it waits
 * for POLLOUT with the rest. */
void pty_termout_flush_queued(struct pty_termout *o);
/* Whether anything waits (poll pty_termout_fd for POLLOUT then). */
bool pty_termout_pending(const struct pty_termout *o);
/* Whether the queue is above PTY_TERMOUT_HIGH: the session's output must
 * wait. */
bool pty_termout_full(const struct pty_termout *o);
int pty_termout_fd(const struct pty_termout *o);

/* At the session's end: writes what waits while the terminal takes it,
 * for at most total_ms, and stops as soon as it took nothing for
 * stall_ms (a terminal that does not read is not waited for).  Signals
 * stay as they are.  Returns whether everything was written.  A session
 * (both modes) gives it PTY_TERMOUT_END_MS and PTY_TERMOUT_STALL_MS: its
 * end is recorded after. */
#define PTY_TERMOUT_END_MS   10000
#define PTY_TERMOUT_STALL_MS 1000
bool pty_termout_drain(struct pty_termout *o, int stall_ms, int total_ms);

/* A stream (unbuffered) into the queue, each \n written as eol: readline's
 * rl_outstream, and stdio's stderr while the line editor runs (readline
 * rings its bell there).  What it writes is queued, not written: the
 * caller's next pty_termout_flush writes it (a loop flushes before it
 * waits).  Lives until pty_termout_close. */
FILE *pty_termout_stream(const struct pty_termout *o);

#endif /* PTY_TERMOUT_H */
