/* SPDX-License-Identifier: MIT */
/*
 * `maelys-pty replay`: a session recording (asciicast v2, pty_cast.h)
 * played back in the terminal.  replay.c reads the command line, opens
 * the file and lists its markers; replay_play.c plays it with its timing,
 * reading the person's keys.
 */
#ifndef PTY_REPLAY_H
#define PTY_REPLAY_H

#include "pty_cast.h"

#include <stdbool.h>
#include <stddef.h>

/* The fastest --speed: beyond it a recording plays as at once anyway. */
#define PTY_REPLAY_SPEED_MAX 1e6

struct pty_replay_options {
	double speed; /* > 0 */
	/* seconds; <= 0: none.  The command line's, else the file's */
	double idle_limit;
	bool markers; /* list them and exit */
	const char *file;
};

/* `maelys-pty replay ARGS...` (argv[0] is "replay"). */
int pty_replay_run(int argc, char **argv);

/* Plays the events r has left to out_fd: with the recorded timing scaled
 * by o->speed and every pause capped at o->idle_limit; keys are
 * read from in_fd when it is a terminal, put in raw mode for the time of
 * the play and restored on every way out (a signal included).  Returns
 * 0 when played to the end or quit, 1 when the file has an error (in
 * r->err, the line r->lineno), -1 with one sentence in err otherwise. */
int pty_replay_play(struct pty_cast_reader *r,
		    const struct pty_replay_options *o, int in_fd, int out_fd,
		    char *err, size_t errlen);

#endif /* PTY_REPLAY_H */
