/* SPDX-License-Identifier: MIT */
/*
 * Playing a recording (pty_replay.h): each event waits for its time on a
 * clock that runs at --speed and stops while paused, in ppoll(2) on the
 * keyboard, so a key acts at once.  The terminal's input is put in raw
 * mode (no echo, no line editing, no signal keys: ^C is read as a quit)
 * and put back on every way out; SIGINT, SIGTERM, SIGHUP and SIGQUIT
 * sent from elsewhere are blocked but while waiting, and end the play
 * through the same way out, then the program as they would have.  The output mode is left as it is: the recorded bytes
 * went through the session's terminal and hold their own "\r\n".
 *
 * The recorded bytes are written as they are: they are what the
 * session's terminal showed, escape sequences included (the man page
 * says to replay only recordings of the audit folder); at the end, the
 * modes a recording may have left a terminal in are undone.
 */
#define _GNU_SOURCE /* ppoll */
#include "pty_replay.h"

#include "pty_messages.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

enum replay_mode {
	REPLAY_PLAY,   /* events at their time */
	REPLAY_PAUSED, /* waiting for a key */
	REPLAY_STEP,   /* the next output at once, then paused */
	REPLAY_JUMP,   /* up to the next marker at once, then paused */
	REPLAY_QUIT,
};

struct replay_state {
	enum replay_mode mode;
	double speed;
	double pos0; /* the recording's time when the clock last started */
	double base; /* the monotonic time it started, seconds */
	int in_fd;   /* the keys, or -1 */
};

/* What a recording may leave the terminal in that a shell cannot work in,
 * undone at the end of the play when the output is a terminal (a program
 * cut off by q, or a file made to leave it so): the normal screen (1047,
 * which moves no cursor, where 1049 would restore one the recording
 * saved), no mouse or focus reports, no bracketed paste (readline turns
 * it on again at its prompt), then a soft reset (DECSTR: the cursor
 * shown, normal keypad and cursor keys, autowrap, ASCII, no attributes,
 * full margins), the cursor and attributes again for terminals without
 * DECSTR.  Modes only: nothing on the screen is erased. */
static const char replay_modes_back[] =
    "\033[?1047l"
    "\033[?1000l\033[?1002l\033[?1003l\033[?1005l\033[?1006l\033[?1015l"
    "\033[?1004l\033[?2004l"
    "\033[!p"
    "\033[?25h\033[0m\033[?1l\033>\033(B";

/* the signal that ends the play, 0 while none */
static volatile sig_atomic_t replay_signalled;

static void
replay_on_signal(int sig) /* async-signal context: a flag, nothing else */
{
	replay_signalled = sig;
}

static double
replay_now(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Where the recording is now, in its own seconds. */
static double
replay_pos(const struct replay_state *s)
{
	if (s->mode != REPLAY_PLAY)
		return s->pos0;
	return s->pos0 + (replay_now() - s->base) * s->speed;
}

static void
replay_key(struct replay_state *s, unsigned char k)
{
	switch (k) {
	case ' ':
		if (s->mode == REPLAY_PAUSED) {
			s->mode = REPLAY_PLAY;
			s->base = replay_now();
		} else if (s->mode == REPLAY_PLAY) {
			s->pos0 = replay_pos(s);
			s->mode = REPLAY_PAUSED;
		}
		break;
	case '.':
		if (s->mode == REPLAY_PAUSED)
			s->mode = REPLAY_STEP;
		break;
	case 'n':
		if (s->mode != REPLAY_QUIT) {
			s->pos0 = replay_pos(s);
			s->mode = REPLAY_JUMP;
		}
		break;
	case 'q':
	case 0x03: /* ^C, raw mode's interrupt */
		s->mode = REPLAY_QUIT;
		break;
	default:
		break; /* other keys do nothing */
	}
}

/* Waits until the event at `at` is due or a key makes it due (step,
 * jump) or ends the play.  Returns 0, or -1 with err set. */
static int
replay_wait(struct replay_state *s, double at, const sigset_t *unblocked,
	    char *err, size_t errlen)
{
	unsigned char keys[64];
	struct timespec ts, *tp;
	struct pollfd pfd;
	double left;
	ssize_t n, i;
	int rc;

	for (;;) {
		if (replay_signalled)
			s->mode = REPLAY_QUIT;
		if (s->mode == REPLAY_QUIT || s->mode == REPLAY_STEP ||
		    s->mode == REPLAY_JUMP)
			return 0;
		tp = NULL;
		if (s->mode == REPLAY_PLAY) {
			left = (at - replay_pos(s)) / s->speed;
			if (left <= 0)
				return 0;
			if (left > 3600)
				left = 3600; /* then looks again */
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
			tp = &ts;
		}
		pfd.fd = s->in_fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		/* fd -1 (no keys): the timeout only */
		rc = ppoll(&pfd, 1, tp, unblocked);
		if (rc < 0 && errno != EINTR) {
			(void)snprintf(err, errlen, PTY_MSG_REPLAY_KEYS,
				       strerror(errno));
			return -1;
		}
		if (rc <= 0 || s->in_fd < 0)
			continue;
		n = read(s->in_fd, keys, sizeof keys);
		if (n <= 0) {
			if (n < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			s->in_fd = -1; /* no more keys: play on */
			if (s->mode == REPLAY_PAUSED)
				s->mode = REPLAY_QUIT;
			continue;
		}
		for (i = 0; i < n; i++)
			replay_key(s, keys[i]);
	}
}

static int
replay_events(struct pty_cast_reader *r, struct replay_state *s,
	      const struct pty_replay_options *o, int out_fd,
	      const sigset_t *unblocked, char *err, size_t errlen)
{
	struct pty_cast_event ev;
	double prev_time = 0, at = 0, gap;
	int rc;

	while ((rc = pty_cast_next(r, &ev)) > 0) {
		/* the time it plays at: each gap capped at the idle limit */
		gap = ev.time - prev_time;
		if (o->idle_limit > 0 && gap > o->idle_limit)
			gap = o->idle_limit;
		at += gap;
		prev_time = ev.time;
		if (replay_wait(s, at, unblocked, err, errlen) != 0)
			return -1;
		if (s->mode == REPLAY_QUIT)
			return 0;
		if (ev.code == PTY_CAST_OUTPUT &&
		    pty_write_all(out_fd, ev.data, ev.len) != 0) {
			(void)snprintf(err, errlen, PTY_MSG_REPLAY_OUTPUT,
				       strerror(errno));
			return -1;
		}
		if ((s->mode == REPLAY_STEP && ev.code == PTY_CAST_OUTPUT) ||
		    (s->mode == REPLAY_JUMP && ev.code == PTY_CAST_MARKER)) {
			s->mode = REPLAY_PAUSED;
			s->pos0 = at;
		}
	}
	return rc < 0 ? 1 : 0;
}

int
pty_replay_play(struct pty_cast_reader *r, const struct pty_replay_options *o,
		int in_fd, int out_fd, char *err, size_t errlen)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
	struct replay_state s = {.mode = REPLAY_PLAY, .in_fd = -1};
	struct termios saved, raw;
	struct sigaction sa, old_sa[sizeof sigs / sizeof sigs[0]], old_pipe;
	sigset_t block, unblocked;
	bool restore = false;
	size_t i;
	int rc;

	s.speed = o->speed;
	replay_signalled = 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = replay_on_signal;
	(void)sigemptyset(&sa.sa_mask);
	(void)sigemptyset(&block);
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		(void)sigaddset(&block, sigs[i]);
		(void)sigaction(sigs[i], &sa, &old_sa[i]);
	}
	/* a reader that goes away (| head) is an error to report, with
	 * the terminal put back first, not a death */
	sa.sa_handler = SIG_IGN;
	(void)sigaction(SIGPIPE, &sa, &old_pipe);
	(void)sigprocmask(SIG_BLOCK, &block, &unblocked);
	if (isatty(in_fd) && tcgetattr(in_fd, &saved) == 0) {
		raw = saved;
		raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG | IEXTEN);
		raw.c_iflag &= ~(tcflag_t)(IXON | ICRNL);
		raw.c_cc[VMIN] = 1;
		raw.c_cc[VTIME] = 0;
		if (tcsetattr(in_fd, TCSANOW, &raw) != 0) {
			(void)snprintf(err, errlen, PTY_MSG_REPLAY_NO_TERMINAL,
				       strerror(errno));
			rc = -1;
			goto out;
		}
		restore = true;
		s.in_fd = in_fd;
	}
	s.base = replay_now();
	rc = replay_events(r, &s, o, out_fd, &unblocked, err, errlen);
	if (isatty(out_fd))
		(void)pty_write_all(out_fd, replay_modes_back,
				    sizeof replay_modes_back - 1);
out:
	/* TCSAFLUSH: keys typed and not read go nowhere, not to the shell */
	if (restore)
		(void)tcsetattr(in_fd, TCSAFLUSH, &saved);
	(void)sigaction(SIGPIPE, &old_pipe, NULL);
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		(void)sigaction(sigs[i], &old_sa[i], NULL);
	(void)sigprocmask(SIG_SETMASK, &unblocked, NULL);
	/* the signal that ended the play ends the program as it would
	 * have, now that the terminal is back (exit status 128+N) */
	if (replay_signalled != 0)
		(void)raise(replay_signalled);
	return rc;
}
