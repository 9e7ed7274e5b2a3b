/* SPDX-License-Identifier: MIT */
/* The user's terminal mode and window size (see pty_terminal.h). */
#include "pty_terminal.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int
pty_terminal_save(struct pty_terminal *t, int fd)
{
	memset(t, 0, sizeof *t);
	t->fd = fd;
	if (tcgetattr(fd, &t->original) != 0)
		return -1;
	t->saved = true;
	return 0;
}

/* At once: never TCSADRAIN or TCSAFLUSH, which wait for the output. */
static int
pty_terminal_apply(const struct pty_terminal *t, const struct termios *tio)
{
	int rc;

	do
		rc = tcsetattr(t->fd, TCSANOW, tio);
	while (rc != 0 && errno == EINTR);
	return rc;
}

int
pty_terminal_raw(const struct pty_terminal *t)
{
	struct termios tio = t->original;

	/* no echo, no line editing, no signals, no flow control either way
	 * (IXON: Ctrl-S would stop the guard's output; IXOFF), no CR->NL,
	 * 8 bits, no output processing */
	cfmakeraw(&tio);
	tio.c_iflag &= ~(tcflag_t)IXOFF;
	tio.c_cc[VMIN] = 1;
	tio.c_cc[VTIME] = 0;
	return pty_terminal_apply(t, &tio);
}

void
pty_terminal_seal(struct pty_terminal *t)
{
	struct stat st;

	if (t->sealed || fstat(t->fd, &st) != 0 || !S_ISCHR(st.st_mode) ||
	    st.st_uid != geteuid() || fchmod(t->fd, 0) != 0)
		return;
	t->mode = st.st_mode & 07777;
	t->sealed = true;
}

void
pty_terminal_restore(const struct pty_terminal *t)
{
	if (t->saved)
		(void)pty_terminal_apply(t, &t->original);
	if (t->sealed)
		(void)fchmod(t->fd, t->mode);
}

void
pty_terminal_winsize(int fd, struct winsize *ws)
{
	if (ioctl(fd, TIOCGWINSZ, ws) != 0 || ws->ws_row == 0 ||
	    ws->ws_col == 0) {
		memset(ws, 0, sizeof *ws);
		ws->ws_row = 24;
		ws->ws_col = 80;
	}
}
