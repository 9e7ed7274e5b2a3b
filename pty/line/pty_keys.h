/* SPDX-License-Identifier: MIT */
/*
 * The user's keys on their way to the job (keys.c): what the relay read
 * from the user's terminal while a job runs and the session's pty has not
 * taken yet.  A job that reads no input (or reads slowly) fills its pty;
 * the keys then wait here, never the guard, and the relay does not read
 * the user's terminal until they are taken (so they wait there in turn,
 * bounded by the kernel).  Written only when poll says the pty takes more.
 */
#ifndef PTY_KEYS_H
#define PTY_KEYS_H

#include <stdbool.h>
#include <stddef.h>

struct pty_keys {
	char buf[4096];
	size_t len; /* keys waiting: buf[0 .. len) */
};

/* How many more keys it holds now. */
size_t pty_keys_room(const struct pty_keys *k);
/* Takes n keys (at most pty_keys_room) and gives the pty what it takes. */
void pty_keys_put(struct pty_keys *k, int pty, const char *buf, size_t n);
/* Gives the pty (non-blocking) the waiting keys it takes now.  A pty that
 * fails (no process left on it) drops them. */
void pty_keys_out(struct pty_keys *k, int pty);
bool pty_keys_waiting(const struct pty_keys *k);
/* Drops the waiting keys (the job ended: typeahead it did not read is
 * never a command). */
void pty_keys_drop(struct pty_keys *k);

#endif /* PTY_KEYS_H */
