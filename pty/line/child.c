/* SPDX-License-Identifier: MIT */
/*
 * Starting and steering bash.
 *
 * bash runs as `bash --noprofile --norc --noediting +H -i` with a clean
 * environment (an allow-list; PS1 and PS2 empty so that bash never draws a
 * prompt: the guard owns it).  Before the first user line the guard sends
 * one lock-down line, and waits for its status report before it shows a
 * prompt; a non-zero status means the shell could not be locked down and the
 * session does not start.  The lock-down:
 *   - PROMPT_COMMAND reports "$?" and "$PWD", NUL-terminated, on fd 3;
 *   - history off, and the prompt, PATH and identity variables read-only;
 *   - every builtin that runs text or rewrites what a name means is
 *     disabled: eval source . exec trap fc command builtin alias unalias
 *     export declare typeset readonly local unset set shopt hash read
 *     mapfile readarray suspend, and last enable itself.
 * Each approved line is sent as "{ LINE\n} 0</dev/tty 3>&-\n": the job
 * reads the terminal, never the command channel, and cannot write the
 * status channel.  Both channels are sockets (pty_child.h says why).
 */
#define _GNU_SOURCE
#include "pty_child.h"

#include "pty_spawn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

char *const pty_child_argv[] = {"bash", "--noprofile", "--norc", "--noediting",
				"+H",   "-i",          NULL};

const char pty_child_lockdown[] =
    "PROMPT_COMMAND='printf \"%s\\0%s\\0\" \"$?\" \"$PWD\" >&3'"
    " && set +o history && unset HISTFILE"
    " && readonly PS0 PS1 PS2 PS4 PROMPT_COMMAND PROMPT_DIRTRIM PATH"
    " SHELL HOME USER LOGNAME HISTFILE BASH_ENV ENV IFS CDPATH GLOBIGNORE"
    " TMOUT"
    " && enable -n eval source . exec trap fc command builtin alias"
    " unalias export declare typeset readonly local unset set shopt hash"
    " read mapfile readarray suspend"
    " && enable -n enable\n";

/* Names of the user's environment that pass into the session when their
 * value is sane; everything else is dropped. */
static bool
pty_env_value_ok(const char *v, size_t max)
{
	size_t n = 0;

	for (; *v != '\0'; v++, n++) {
		char c = *v;

		if (n >= max ||
		    !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '-' ||
		      c == '_' || c == '@' || c == '+'))
			return false;
	}
	return n > 0;
}

char *const *
pty_child_environment(const char *path_env, const char *guard_path)
{
	static char *envp[64];
	static char storage[16384];
	extern char **environ;
	struct passwd *pw = getpwuid(getuid());
	size_t n = 0, used = 0;
	char **e;

#define PTY_ENV_ADD(...)                                                       \
	do {                                                                   \
		int w_ = snprintf(storage + used, sizeof storage - used,       \
				  __VA_ARGS__);                                \
		if (w_ > 0 && (size_t)w_ < sizeof storage - used &&            \
		    n + 1 < sizeof envp / sizeof envp[0]) {                    \
			envp[n++] = storage + used;                            \
			used += (size_t)w_ + 1;                                \
		}                                                              \
	} while (0)
	for (e = environ; *e != NULL; e++) {
		const char *eq = strchr(*e, '=');
		size_t k;

		if (eq == NULL)
			continue;
		k = (size_t)(eq - *e);
		/* TERM, LANG and LC_*: names of locales and terminal types */
		if (((k == 4 && strncmp(*e, "TERM", 4) == 0) ||
		     (k == 4 && strncmp(*e, "LANG", 4) == 0) ||
		     (k > 3 && strncmp(*e, "LC_", 3) == 0)) &&
		    pty_env_value_ok(eq + 1, 64))
			PTY_ENV_ADD("%s", *e);
	}
	/* identity from the password database, not from the caller */
	if (pw != NULL) {
		PTY_ENV_ADD("HOME=%s", pw->pw_dir);
		PTY_ENV_ADD("USER=%s", pw->pw_name);
		PTY_ENV_ADD("LOGNAME=%s", pw->pw_name);
	}
	/* a program that starts "a shell" ($SHELL -c ..., vi's :!) starts
	 * the guard, which decides that command too */
	PTY_ENV_ADD("SHELL=%s", guard_path);
	PTY_ENV_ADD("PATH=%s", path_env);
	PTY_ENV_ADD("PS1=");
	PTY_ENV_ADD("PS2=");
	/* bash would read ~/.bash_history before the lock-down unsets it */
	PTY_ENV_ADD("HISTFILE=");
#undef PTY_ENV_ADD
	envp[n] = NULL;
	return envp;
}

int
pty_child_spawn(const struct pty_child_config *cfg, struct pty_child *c,
		char *err, size_t errlen)
{
	int cmd[2] = {-1, -1}, status[2] = {-1, -1};
	struct pty_spawn sp;
	struct termios tio;
	struct winsize ws = *cfg->ws;
	size_t off = 0, len = sizeof pty_child_lockdown - 1;

	memset(c, 0, sizeof *c);
	c->master = c->slave = c->cmd_fd = c->status_fd = -1;
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
		goto fail;
	}
	/* one way each: nothing bash's end sends reaches the guard's command
	 * end, and nothing reaches bash through its status end */
	if (shutdown(cmd[0], SHUT_RD) != 0 ||
	    shutdown(status[0], SHUT_WR) != 0) {
		(void)snprintf(err, errlen, "the session's channels: %s",
			       strerror(errno));
		goto fail;
	}
	(void)fcntl(c->master, F_SETFD, FD_CLOEXEC);
	(void)fcntl(c->slave, F_SETFD, FD_CLOEXEC);
	memset(&sp, 0, sizeof sp);
	sp.path = cfg->shell_path;
	sp.argv = pty_child_argv;
	sp.envp = pty_child_environment(cfg->path_env, cfg->guard_path);
	sp.fd[0] = cmd[1];
	sp.fd[1] = sp.fd[2] = c->slave;
	sp.fd[3] = status[1];
	sp.ctty = c->slave;
	sp.sup = cfg->sup;
	c->pid = pty_spawn_shell(&sp, err, errlen);
	(void)close(cmd[1]);
	(void)close(status[1]);
	cmd[1] = status[1] = -1;
	c->cmd_fd = cmd[0];
	c->status_fd = status[0];
	if (c->pid < 0) {
		c->pid = 0;
		cmd[0] = status[0] = -1;
		(void)close(c->cmd_fd);
		(void)close(c->status_fd);
		c->cmd_fd = c->status_fd = -1;
		goto fail;
	}
	while (off < len) {
		ssize_t w =
		    write(c->cmd_fd, pty_child_lockdown + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			(void)snprintf(err, errlen,
				       "the shell %s did not start",
				       cfg->shell_path);
			return -1;
		}
		off += (size_t)w;
	}
	return 0;
fail:
	if (cmd[0] >= 0)
		(void)close(cmd[0]);
	if (cmd[1] >= 0)
		(void)close(cmd[1]);
	if (status[0] >= 0)
		(void)close(status[0]);
	if (status[1] >= 0)
		(void)close(status[1]);
	if (c->master >= 0)
		(void)close(c->master);
	if (c->slave >= 0)
		(void)close(c->slave);
	c->master = c->slave = -1;
	return -1;
}

int
pty_child_send_line(struct pty_child *c, const char *line, size_t len)
{
	static const char head[] = "{ ", tail[] = "\n} 0</dev/tty 3>&-\n";
	char buf[8192];
	size_t n = 0, off = 0;

	if (c->cmd_fd < 0 || len > sizeof buf - sizeof head - sizeof tail)
		return -1;
	memcpy(buf, head, sizeof head - 1);
	n += sizeof head - 1;
	memcpy(buf + n, line, len);
	n += len;
	memcpy(buf + n, tail, sizeof tail - 1);
	n += sizeof tail - 1;
	/* far less than the socket's buffer: one write delivers it whole */
	while (off < n) {
		ssize_t w = write(c->cmd_fd, buf + off, n - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		off += (size_t)w;
	}
	return 0;
}

void
pty_child_close_input(struct pty_child *c)
{
	if (c->cmd_fd >= 0) {
		(void)close(c->cmd_fd);
		c->cmd_fd = -1;
	}
}
