/* SPDX-License-Identifier: MIT */
/*
 * `maelys-pty replay [--speed F] [--idle-limit S] [--markers] FILE`
 * (pty_replay.h): the command line, the file opened with the caller's
 * rights (main.c has dropped the program's), the notice of a terminal
 * smaller than the recording's, the list of markers, and the one way a
 * refusal of the file is said: "FILE:LINE: what is wrong".
 */
#include "pty_messages.h"
#include "pty_replay.h"
#include "pty_tools.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* A number option's value: finite, above 0, at most max. */
static bool
replay_number(const char *s, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !isfinite(v) || v <= 0 ||
	    v > max)
		return false;
	*out = v;
	return true;
}

/* Returns 0, 1 for --help, or -1 with err set. */
static int
replay_options(int argc, char **argv, struct pty_replay_options *o, char *err,
	       size_t errlen)
{
	const char *a, *v;
	int i;

	memset(o, 0, sizeof *o);
	o->speed = 1;
	for (i = 1; i < argc; i++) {
		a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
			return 1;
		if (strcmp(a, "--markers") == 0) {
			o->markers = true;
		} else if (strcmp(a, "--speed") == 0 ||
			   strcmp(a, "--idle-limit") == 0) {
			if (i + 1 >= argc) {
				(void)snprintf(err, errlen,
					       PTY_MSG_REPLAY_NEEDS_ARG, a);
				return -1;
			}
			v = argv[++i];
			if (a[2] == 's' &&
			    !replay_number(v, PTY_REPLAY_SPEED_MAX,
					   &o->speed)) {
				(void)snprintf(err, errlen,
					       PTY_MSG_REPLAY_BAD_SPEED, v,
					       PTY_REPLAY_SPEED_MAX);
				return -1;
			}
			if (a[2] == 'i' && !replay_number(v, PTY_CAST_TIME_MAX,
							  &o->idle_limit)) {
				(void)snprintf(err, errlen,
					       PTY_MSG_REPLAY_BAD_IDLE, v);
				return -1;
			}
		} else if (strcmp(a, "--") == 0 && i + 1 < argc &&
			   o->file == NULL) {
			o->file = argv[++i];
		} else if (a[0] == '-' && a[1] != '\0') {
			(void)snprintf(err, errlen, PTY_MSG_REPLAY_BAD_OPTION,
				       a);
			return -1;
		} else if (o->file != NULL) {
			(void)snprintf(err, errlen, PTY_MSG_REPLAY_EXTRA, a);
			return -1;
		} else {
			o->file = a;
		}
	}
	if (o->file == NULL) {
		(void)snprintf(err, errlen, "%s", PTY_MSG_REPLAY_NO_FILE);
		return -1;
	}
	return 0;
}

/* The reader's refusal, with the file and the line it names. */
static void
replay_say_refusal(const char *file, const struct pty_cast_reader *r)
{
	char shown[1024];

	pty_printable(shown, sizeof shown, file);
	if (r->lineno > 0)
		fprintf(stderr, PTY_MSG_REPLAY_AT_LINE "\n", shown, r->lineno,
			r->err);
	else
		fprintf(stderr, PTY_MSG_REPLAY_FAILED "\n", r->err);
}

/* --markers: each marker's time as recorded and its label. */
static int
replay_list_markers(struct pty_cast_reader *r, const char *file)
{
	struct pty_cast_event ev;
	char label[1024];
	size_t n = 0;
	unsigned long long ms;
	int rc;

	while ((rc = pty_cast_next(r, &ev)) > 0) {
		if (ev.code != PTY_CAST_MARKER)
			continue;
		/* whole milliseconds first, so that 59.9996 s reads
		 * 0:01:00.000, not 0:00:60.000 (at most PTY_CAST_TIME_MAX) */
		ms = (unsigned long long)(ev.time * 1000 + 0.5);
		/* a label is the session's bytes: shown, never obeyed */
		pty_printable_n(label, sizeof label, ev.data, ev.len);
		printf(PTY_MSG_REPLAY_MARKER "\n", (unsigned)(ms / 3600000),
		       (unsigned)(ms / 60000 % 60), (unsigned)(ms / 1000 % 60),
		       (unsigned)(ms % 1000), label);
		n++;
	}
	if (rc < 0) {
		(void)fflush(stdout);
		replay_say_refusal(file, r);
		return 2;
	}
	if (n == 0) {
		pty_printable(label, sizeof label, file);
		printf(PTY_MSG_REPLAY_NO_MARKERS "\n", label);
	}
	return fflush(stdout) == 0 ? 0 : 2;
}

/* Says so when this terminal is smaller than the recording's: its lines
 * would wrap.  The terminal is never resized: it is the person's. */
static void
replay_check_size(const struct pty_cast_header *h)
{
	struct winsize ws;

	if (!isatty(STDOUT_FILENO) ||
	    ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0 ||
	    ws.ws_row == 0)
		return;
	if (ws.ws_col < h->width || ws.ws_row < h->height)
		fprintf(stderr, PTY_MSG_REPLAY_SMALLER "\n", h->width,
			h->height, (unsigned)ws.ws_col, (unsigned)ws.ws_row);
}

int
pty_replay_run(int argc, char **argv)
{
	struct pty_replay_options o;
	struct pty_cast_reader r;
	struct pty_cast_header h;
	char err[2048], shown[1024];
	FILE *f = NULL;
	int fd, rc;

	rc = replay_options(argc, argv, &o, err, sizeof err);
	if (rc != 0) {
		if (rc < 0)
			fprintf(stderr, PTY_MSG_REPLAY_FAILED "\n", err);
		fputs(PTY_MSG_REPLAY_USAGE, rc < 0 ? stderr : stdout);
		return rc < 0 ? 2 : 0;
	}
	fd = open(o.file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 || (f = fdopen(fd, "r")) == NULL) {
		const char *why = strerror(errno);

		pty_printable(shown, sizeof shown, o.file);
		(void)snprintf(err, sizeof err, PTY_MSG_REPLAY_CANNOT_OPEN,
			       shown, why);
		fprintf(stderr, PTY_MSG_REPLAY_FAILED "\n", err);
		if (fd >= 0)
			(void)close(fd);
		return 2;
	}
	if (pty_cast_begin(&r, f, 0, &h) != 0) {
		replay_say_refusal(o.file, &r);
		rc = 2;
	} else if (o.markers) {
		rc = replay_list_markers(&r, o.file);
	} else {
		if (o.idle_limit <= 0)
			o.idle_limit = h.idle_time_limit;
		replay_check_size(&h);
		rc = pty_replay_play(&r, &o, STDIN_FILENO, STDOUT_FILENO, err,
				     sizeof err);
		if (rc == 1)
			replay_say_refusal(o.file, &r);
		else if (rc < 0)
			fprintf(stderr, PTY_MSG_REPLAY_FAILED "\n", err);
		rc = rc == 0 ? 0 : 2;
	}
	pty_cast_end(&r);
	(void)fclose(f);
	return rc;
}
