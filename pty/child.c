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
 * reads the terminal, never the command pipe, and cannot write the status
 * pipe.
 */
#define _GNU_SOURCE /* close_range */
#include "pty_child.h"

#include "pty_supervise.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void
pty_close_from(int lowest)
{
#ifdef SYS_close_range
	if (close_range((unsigned)lowest, ~0u, 0) == 0)
		return;
#endif
	{
		DIR *d = opendir("/proc/self/fd");
		struct dirent *de;

		if (d == NULL) {
			int fd;

			for (fd = lowest; fd < 4096; fd++)
				(void)close(fd);
			return;
		}
		while ((de = readdir(d)) != NULL) {
			int fd = atoi(de->d_name);

			if (fd >= lowest && fd != dirfd(d))
				(void)close(fd);
		}
		closedir(d);
	}
}

/* In the child, between fork and exec: only async-signal-safe calls, and
 * any failure ends the child with 127 (STYLE.md 8). */
static void
pty_child_exec(const struct pty_child_config *cfg, int slave, int cmd_r,
	       int status_w, char *const *envp)
{
	struct sigaction sa;
	sigset_t none;
	int sig, hi_cmd, hi_status, hi_slave;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++)
		(void)sigaction(sig, &sa, NULL);
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	if (setsid() < 0 || ioctl(slave, TIOCSCTTY, 0) != 0)
		_exit(127);
	/* from here on every exec is the guard's to decide, bash's first */
	if (cfg->sup != NULL)
		pty_supervise_child(cfg->sup);
	/* our descriptors may sit anywhere, 0 to 3 included: copy each to a
	 * free number above all of them first (F_DUPFD never overwrites),
	 * then into place */
	hi_cmd = fcntl(cmd_r, F_DUPFD, 64);
	hi_status = fcntl(status_w, F_DUPFD, 64);
	hi_slave = fcntl(slave, F_DUPFD, 64);
	if (hi_cmd < 0 || hi_status < 0 || hi_slave < 0)
		_exit(127);
	if (dup2(hi_cmd, 0) < 0 || dup2(hi_slave, 1) < 0 ||
	    dup2(hi_slave, 2) < 0 || dup2(hi_status, 3) < 0)
		_exit(127);
	pty_close_from(4);
	execve(cfg->shell_path, pty_child_argv, envp);
	_exit(127);
}

int
pty_child_spawn(const struct pty_child_config *cfg, struct pty_child *c,
		char *err, size_t errlen)
{
	int cmd[2] = {-1, -1}, status[2] = {-1, -1};
	struct termios tio;
	struct winsize ws = *cfg->ws;
	char *const *envp =
	    pty_child_environment(cfg->path_env, cfg->guard_path);
	size_t off = 0, len = sizeof pty_child_lockdown - 1;

	memset(c, 0, sizeof *c);
	c->master = c->slave = c->cmd_fd = c->status_fd = -1;
	if (cfg->tio != NULL)
		tio = *cfg->tio;
	if (openpty(&c->master, &c->slave, NULL, cfg->tio != NULL ? &tio : NULL,
		    &ws) != 0 ||
	    pipe2(cmd, O_CLOEXEC) != 0 || pipe2(status, O_CLOEXEC) != 0) {
		(void)snprintf(err, errlen,
			       "cannot create the session's "
			       "terminal or pipes: %s",
			       strerror(errno));
		goto fail;
	}
	(void)fcntl(c->master, F_SETFD, FD_CLOEXEC);
	(void)fcntl(c->slave, F_SETFD, FD_CLOEXEC);
	c->pid = fork();
	if (c->pid < 0) {
		(void)snprintf(err, errlen, "cannot start the shell: %s",
			       strerror(errno));
		goto fail;
	}
	if (c->pid == 0)
		pty_child_exec(cfg, c->slave, cmd[0], status[1], envp);
	(void)close(cmd[0]);
	(void)close(status[1]);
	c->cmd_fd = cmd[1];
	c->status_fd = status[0];
	if (cfg->sup != NULL &&
	    pty_supervise_accept(cfg->sup, err, errlen) != 0) {
		/* the child has exited, or must: nothing of it may run */
		(void)kill(c->pid, SIGKILL);
		(void)waitpid(c->pid, NULL, 0);
		c->pid = 0;
		(void)close(c->cmd_fd);
		(void)close(c->status_fd);
		(void)close(c->master);
		(void)close(c->slave);
		c->cmd_fd = c->status_fd = c->master = c->slave = -1;
		return -1;
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
	/* one write of less than PIPE_BUF bytes: bash sees all or nothing */
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

/* Signals every process whose session is `sid`.  Returns how many. */
static int
pty_signal_session(pid_t sid, int sig)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int count = 0;

	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		pid_t pid = (pid_t)atoi(de->d_name);

		if (pid <= 0 || pid == getpid())
			continue;
		if (getsid(pid) == sid) {
			(void)kill(pid, sig);
			count++;
		}
	}
	closedir(d);
	return count;
}

void
pty_child_kill_session(const struct pty_child *c, int sig)
{
	struct timespec tick = {0, 20 * 1000 * 1000};
	int i;

	if (c->pid <= 0)
		return;
	(void)pty_signal_session(c->pid, sig);
	(void)pty_signal_session(c->pid, SIGCONT);
	for (i = 0; i < 25; i++) {
		/* reap bash if it is ours and gone; others are not ours */
		(void)waitpid(c->pid, NULL, WNOHANG);
		if (pty_signal_session(c->pid, 0) == 0)
			return;
		(void)nanosleep(&tick, NULL);
	}
	(void)pty_signal_session(c->pid, SIGKILL);
}
