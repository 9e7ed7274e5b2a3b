/* SPDX-License-Identifier: MIT */
/* The user's terminal modes and window size (see pty_terminal.h). */
#include "pty_terminal.h"

#include <errno.h>
#include <string.h>
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

static int
pty_terminal_apply(const struct pty_terminal *t, const struct termios *tio)
{
	int rc;

	do
		rc = tcsetattr(t->fd, TCSADRAIN, tio);
	while (rc != 0 && errno == EINTR);
	return rc;
}

int
pty_terminal_prompt_mode(const struct pty_terminal *t)
{
	struct termios tio = t->original;

	/* input raw: no echo, no line editing, no signals, no flow control,
	 * no CR->NL, 8 bits; output still turns \n into \r\n */
	tio.c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR |
				   IGNCR | ICRNL | IXON | IXOFF);
	tio.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
	tio.c_cflag &= ~(tcflag_t)(CSIZE | PARENB);
	tio.c_cflag |= CS8;
	tio.c_oflag |= OPOST | ONLCR;
	tio.c_cc[VMIN] = 1;
	tio.c_cc[VTIME] = 0;
	return pty_terminal_apply(t, &tio);
}

int
pty_terminal_job_mode(const struct pty_terminal *t)
{
	struct termios tio = t->original;

	cfmakeraw(&tio);
	tio.c_cc[VMIN] = 1;
	tio.c_cc[VTIME] = 0;
	return pty_terminal_apply(t, &tio);
}

void
pty_terminal_restore(const struct pty_terminal *t)
{
	if (t->saved)
		(void)tcsetattr(t->fd, TCSADRAIN, &t->original);
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
