/* SPDX-License-Identifier: MIT */
/*
 * Starting and steering the interactive bash.
 *
 * bash starts as pty_spawn_session starts it in both modes (its arguments,
 * environment and lock-down line are spawn.c's), here on a pty of its own
 * with its two channels.  Before the first user line the guard sends the
 * interactive lock-down line, and waits for its status report before it
 * shows a prompt; a non-zero status means the shell could not be locked
 * down and the session does not start (relay.c).
 * Each approved line is sent as "{ LINE\n} 0</dev/tty 3>&-\n": the job
 * reads the terminal, never the command channel, and cannot write the
 * status channel.  Both channels are sockets (pty_child.h says why).
 */
#define _GNU_SOURCE
#include "pty_child.h"

#include "pty_decide.h"
#include "pty_exec.h"
#include "pty_session.h"
#include "pty_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Writes all of buf to the command channel.  Returns 0, or -1 when bash
 * is gone.  (Both lines it carries are far less than the socket's buffer:
 * one write delivers each whole.) */
static int
child_send(int fd, const char *buf, size_t n)
{
	size_t off = 0;

	while (off < n) {
		ssize_t w = write(fd, buf + off, n - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		off += (size_t)w;
	}
	return 0;
}

static void
child_close(int *fd)
{
	if (*fd >= 0)
		(void)close(*fd);
	*fd = -1;
}

/* The session's pty and bash's two channels; fd[0] and fd[1] of each pair
 * are the guard's end and bash's.  Returns 0, or -1 with the reason in err
 * (what was opened is left for the caller to close). */
static int
child_open(const struct pty_child_config *cfg, struct pty_child *c, int cmd[2],
	   int status[2], char *err, size_t errlen)
{
	struct termios tio;
	struct winsize ws = *cfg->ws;

	if (cfg->tio != NULL)
		tio = *cfg->tio;
	/* sockets, not pipes: a pipe of bash's can be opened again by any
	 * process of the session through /proc/PID/fd/N (and written into
	 * bash's command stream); a socket cannot be opened that way */
	if (openpty(&c->master, &c->slave, NULL, cfg->tio != NULL ? &tio : NULL,
		    &ws) != 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, cmd) != 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, status) != 0) {
		(void)snprintf(err, errlen,
			       "cannot create the session's "
			       "terminal or channels: %s",
			       strerror(errno));
		return -1;
	}
	/* one way each: nothing bash's end sends reaches the guard's command
	 * end, and nothing reaches bash through its status end */
	if (shutdown(cmd[0], SHUT_RD) != 0 ||
	    shutdown(status[0], SHUT_WR) != 0) {
		(void)snprintf(err, errlen, "the session's channels: %s",
			       strerror(errno));
		return -1;
	}
	(void)fcntl(c->master, F_SETFD, FD_CLOEXEC);
	(void)fcntl(c->slave, F_SETFD, FD_CLOEXEC);
	return 0;
}

int
pty_child_spawn(const struct pty_child_config *cfg, struct pty_child *c,
		char *err, size_t errlen)
{
	int cmd[2] = {-1, -1}, status[2] = {-1, -1};
	const char *lockdown = pty_spawn_lockdown(PTY_MODE_INTERACTIVE);
	char *argv[PTY_SPAWN_ARGV_MAX];
	struct pty_spawn sp;

	memset(c, 0, sizeof *c);
	c->master = c->slave = c->cmd_fd = c->status_fd = -1;
	if (child_open(cfg, c, cmd, status, err, errlen) != 0)
		goto fail;
	memset(&sp, 0, sizeof sp);
	(void)pty_spawn_argv(NULL, NULL, argv);
	sp.argv = argv;
	sp.fd[0] = cmd[1];
	sp.fd[1] = sp.fd[2] = c->slave;
	sp.fd[3] = status[1];
	sp.ctty = c->slave;
	sp.sup = cfg->sup;
	c->pid = pty_spawn_session(&sp, cfg->guard, cfg->decider,
				   PTY_MODE_INTERACTIVE, cfg->guard_path, err,
				   errlen);
	child_close(&cmd[1]);
	child_close(&status[1]);
	if (c->pid < 0) {
		c->pid = 0;
		goto fail;
	}
	c->cmd_fd = cmd[0];
	c->status_fd = status[0];
	if (child_send(c->cmd_fd, lockdown, strlen(lockdown)) != 0) {
		(void)snprintf(err, errlen, "the shell %s did not start",
			       cfg->guard->cfg.shell);
		return -1;
	}
	return 0;
fail:
	child_close(&cmd[0]);
	child_close(&cmd[1]);
	child_close(&status[0]);
	child_close(&status[1]);
	child_close(&c->master);
	child_close(&c->slave);
	return -1;
}

int
pty_child_send_line(struct pty_child *c, const char *line, size_t len)
{
	static const char head[] = "{ ", tail[] = "\n} 0</dev/tty 3>&-\n";
	char buf[8192];
	size_t n = 0;

	if (c->cmd_fd < 0 || len > sizeof buf - sizeof head - sizeof tail)
		return -1;
	memcpy(buf, head, sizeof head - 1);
	n += sizeof head - 1;
	memcpy(buf + n, line, len);
	n += len;
	memcpy(buf + n, tail, sizeof tail - 1);
	n += sizeof tail - 1;
	return child_send(c->cmd_fd, buf, n);
}

void
pty_child_close_input(struct pty_child *c)
{
	child_close(&c->cmd_fd);
}

void
pty_child_learn_cwd(const struct pty_child *c, struct pty_decider *d)
{
	char link[64], dir[PTY_CWD_MAX], why[sizeof d->cwd_unnamed];
	int fd;

	(void)snprintf(link, sizeof link, "/proc/%d/cwd", (int)c->pid);
	fd = open(link, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		(void)snprintf(why, sizeof why, "it cannot be opened (%s)",
			       strerror(errno));
		pty_decider_unnamed_cwd(d, why);
		(void)chdir("/");
		return;
	}
	if (pty_exec_cwd_name(-1, fd, dir, sizeof dir, why, sizeof why) == 0)
		pty_decider_set_cwd(d, dir);
	else
		pty_decider_unnamed_cwd(d, why);
	if (fchdir(fd) != 0)
		(void)chdir("/");
	(void)close(fd);
}
