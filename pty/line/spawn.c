/* SPDX-License-Identifier: MIT */
/*
 * The session's processes: starting the shell and ending everything the
 * session started (pty_spawn.h).
 */
#define _GNU_SOURCE
#include "pty_spawn.h"

#include "pty_messages.h"
#include "pty_session.h"
#include "pty_supervise.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

/* ------------------------------------------------------------------ */
/* What the shell starts with.                                         */

/*
 * The lock-down: one line of bash before anything of the user's, the same
 * steps in both modes, joined with && so that none runs after one failed:
 *   - history off (set +o history, unset HISTFILE);
 *   - read-only: PATH and the identity and start-up variables
 *     (SPAWN_READONLY); an interactive shell also its prompt's variables
 *     (PS0 PS1 PS2 PS4 PROMPT_COMMAND PROMPT_DIRTRIM: bash draws no prompt
 *     and PROMPT_COMMAND stays the status report) and TMOUT (in an
 *     interactive shell it ends the shell that waits that long for a
 *     line: the session); a -c shell draws no prompt and waits for no
 *     line, and its script may set those as before;
 *   - every builtin that runs text or rewrites what a name means is
 *     disabled (SPAWN_DISABLED), and last enable itself.
 * The modes differ at the ends, each where its status goes:
 *   interactive  PROMPT_COMMAND first: it reports "$?" and "$PWD",
 *                NUL-terminated, on fd 3 after each line, this one first;
 *                the guard starts no session unless that status is 0
 *                (relay.c), so the line needs no exit of its own;
 *   -c           "|| exit 126" last: nobody reads a status, so bash ends
 *                (126, as for a refused command) before the command,
 *                the script's second line, can run.
 */
#define SPAWN_NO_HISTORY "set +o history && unset HISTFILE"
#define SPAWN_READONLY                                                         \
	"PATH SHELL HOME USER LOGNAME HISTFILE BASH_ENV ENV IFS CDPATH "       \
	"GLOBIGNORE"
#define SPAWN_DISABLED                                                         \
	"enable -n eval source . exec trap fc command builtin alias unalias "  \
	"export declare typeset readonly local unset set shopt hash read "     \
	"mapfile readarray suspend && enable -n enable"

static const char spawn_lockdown_interactive[] =
    "PROMPT_COMMAND='printf \"%s\\0%s\\0\" \"$?\" \"$PWD\" >&3'"
    " && " SPAWN_NO_HISTORY
    " && readonly PS0 PS1 PS2 PS4 PROMPT_COMMAND PROMPT_DIRTRIM " SPAWN_READONLY
    " TMOUT"
    " && " SPAWN_DISABLED "\n";

static const char spawn_lockdown_command[] = SPAWN_NO_HISTORY
    " && readonly " SPAWN_READONLY " && " SPAWN_DISABLED " || exit 126\n";

const char *
pty_spawn_lockdown(enum pty_mode mode)
{
	return mode == PTY_MODE_INTERACTIVE ? spawn_lockdown_interactive
					    : spawn_lockdown_command;
}

/* bash reads no file of the user's in either mode; interactive: it edits
 * no line and expands no history (the guard does both). */
static char *const spawn_argv_interactive[] = {
    "bash", "--noprofile", "--norc", "--noediting", "+H", "-i", NULL};

int
pty_spawn_argv(const char *command, char *script,
	       char *argv[PTY_SPAWN_ARGV_MAX])
{
	size_t i;
	int n;

	if (command == NULL) {
		for (i = 0; i < PTY_SPAWN_ARGV_MAX; i++)
			argv[i] = spawn_argv_interactive[i];
		return 0;
	}
	/* the lock-down, then the command: the scanner guarantees that a
	 * command it accepted has no newline */
	n = snprintf(script, PTY_SPAWN_SCRIPT_MAX, "%s%s",
		     spawn_lockdown_command, command);
	if (n < 0 || n >= PTY_SPAWN_SCRIPT_MAX)
		return -1;
	argv[0] = "bash";
	argv[1] = "--noprofile";
	argv[2] = "--norc";
	argv[3] = "-c";
	argv[4] = script;
	argv[5] = NULL;
	return 0;
}

/* Names of the user's environment that pass into the session when their
 * value is sane; everything else is dropped. */
static bool
spawn_env_value_ok(const char *v, size_t max)
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
pty_spawn_environment(const char *path_env, const char *guard_path)
{
	static char *envp[64];
	static char storage[16384];
	extern char **environ;
	struct passwd *pw = getpwuid(getuid());
	size_t n = 0, used = 0;
	char **e;

#define SPAWN_ENV_ADD(...)                                                     \
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
		    spawn_env_value_ok(eq + 1, 64))
			SPAWN_ENV_ADD("%s", *e);
	}
	/* identity from the password database, not from the caller */
	if (pw != NULL) {
		SPAWN_ENV_ADD("HOME=%s", pw->pw_dir);
		SPAWN_ENV_ADD("USER=%s", pw->pw_name);
		SPAWN_ENV_ADD("LOGNAME=%s", pw->pw_name);
	}
	/* a program that starts "a shell" ($SHELL -c ..., vi's :!) starts
	 * the guard, which decides that command too */
	SPAWN_ENV_ADD("SHELL=%s", guard_path);
	SPAWN_ENV_ADD("PATH=%s", path_env);
	/* an interactive bash draws no prompt: the guard owns it */
	SPAWN_ENV_ADD("PS1=");
	SPAWN_ENV_ADD("PS2=");
	/* bash would read ~/.bash_history before the lock-down unsets it */
	SPAWN_ENV_ADD("HISTFILE=");
#undef SPAWN_ENV_ADD
	envp[n] = NULL;
	return envp;
}

/* ------------------------------------------------------------------ */
/* Starting the shell.                                                 */

/* Above every descriptor the child has to place: moving each one here
 * first means no dup2 into place can overwrite another still needed. */
#define SPAWN_FD_PARK 64

/* In the child, between fork and exec: system calls only, and any failure
 * ends it with 127 (no allocation, no stdio: the parent may have held a
 * lock at fork).  `close_max` is the bound of the fallback for a kernel
 * without close_range(2) (before 5.9), computed before fork. */
static void
spawn_child(const struct pty_spawn *sp, int close_max)
{
	struct sigaction sa;
	sigset_t none;
	int sig, i, parked[4];

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			(void)sigaction(sig, &sa, NULL);
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, sp->mask != NULL ? sp->mask : &none,
			  NULL);
	if (sp->ctty >= 0 &&
	    (setsid() < 0 || ioctl(sp->ctty, TIOCSCTTY, 0) != 0))
		_exit(127);
	/* from here on every exec is the guard's to decide, the shell's
	 * first (it closes the supervisor's own descriptors) */
	pty_supervise_child(sp->sup);
	for (i = 0; i < 4; i++) {
		parked[i] = -1;
		if (sp->fd[i] >= 0 &&
		    (parked[i] = fcntl(sp->fd[i], F_DUPFD, SPAWN_FD_PARK)) < 0)
			_exit(127);
	}
	for (i = 0; i < 4; i++)
		if (parked[i] >= 0 && dup2(parked[i], i) != i)
			_exit(127);
	/* 0 to 2 stay what the guard has when not replaced; 3 and above
	 * close, the parked copies with them */
	if (sp->fd[3] < 0)
		(void)close(3);
	if (syscall(SYS_close_range, 4u, ~0u, 0u) != 0) {
		int fd;

		for (fd = 4; fd < close_max; fd++)
			(void)close(fd);
	}
	execve(sp->path, sp->argv, sp->envp);
	_exit(127);
}

pid_t
pty_spawn_shell(const struct pty_spawn *sp, char *err, size_t errlen)
{
	struct rlimit rl;
	int close_max = 65536;
	pid_t pid;

	/* what detaches from the session stays the guard's (pty_spawn.h) */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
		(void)snprintf(err, errlen,
			       "cannot keep the session's processes: %s",
			       strerror(errno));
		return -1;
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	    rl.rlim_max != RLIM_INFINITY && rl.rlim_max < 65536)
		close_max = (int)rl.rlim_max;
	pid = fork();
	if (pid < 0) {
		(void)snprintf(err, errlen, "cannot start the shell: %s",
			       strerror(errno));
		return -1;
	}
	if (pid == 0)
		spawn_child(sp, close_max);
	/* the shell's own exec is decided on the request the guard built:
	 * its memory is the guard's copy (pty_supervise.h) */
	sp->sup->child_pid = pid;
	if (pty_supervise_accept(sp->sup, err, errlen) != 0) {
		/* the child has exited, or must: nothing of it may run */
		(void)kill(pid, SIGKILL);
		(void)waitpid(pid, NULL, 0);
		return -1;
	}
	return pid;
}

pid_t
pty_spawn_session(struct pty_spawn *sp, struct pty_guard *g,
		  struct pty_decider *d, enum pty_mode mode,
		  const char *guard_path, char *err, size_t errlen)
{
	sp->path = g->cfg.shell;
	sp->envp = pty_spawn_environment(g->cfg.path_env, guard_path);
	if (pty_supervise_setup(sp->sup, g, d, mode, guard_path, sp->argv, err,
				errlen) != 0)
		return -1;
	return pty_spawn_shell(sp, err, errlen);
}

void
pty_spawn_failed(const struct pty_guard *g, const char *err)
{
	pty_say(STDERR_FILENO, "\n", PTY_MSG_FAILED, err);
	pty_guard_log(g, LOG_ERR, "session %s of %s: %s", g->asess.id,
		      g->who->user, err);
}

bool
pty_spawn_reap(pid_t shell, int *status)
{
	bool found = false;
	pid_t w;
	int st;

	while ((w = waitpid(-1, &st, WNOHANG)) > 0 || (w < 0 && errno == EINTR))
		if (w == shell && shell > 0) {
			*status = st;
			found = true;
		}
	return found;
}

int
pty_spawn_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return pty_spawn_signal_exit_code(WTERMSIG(status));
	return 1;
}

int
pty_spawn_signal_exit_code(int sig)
{
	return 128 + sig;
}

/* ------------------------------------------------------------------ */
/* Ending the session.                                                 */

struct spawn_proc {
	pid_t pid, ppid, pgrp;
	bool ours; /* descends from the guard (the subreaper) */
};

/* The parent and process group of `pid` from /proc/PID/stat ("pid (comm)
 * state ppid pgrp ..."; comm may hold spaces and parentheses: the last ')'
 * ends it).  Returns the parent, or -1. */
static pid_t
spawn_stat(pid_t pid, pid_t *pgrp)
{
	char path[64], buf[512];
	const char *p;
	ssize_t n;
	long ppid, pg;
	int fd;

	(void)snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	(void)close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (p == NULL || sscanf(p, ") %*c %ld %ld", &ppid, &pg) != 2)
		return -1;
	if (pgrp != NULL)
		*pgrp = (pid_t)pg;
	return (pid_t)ppid;
}

static pid_t
spawn_ppid(pid_t pid)
{
	return spawn_stat(pid, NULL);
}

/* Every process on the host with its parent; *n set.  NULL when /proc
 * cannot be read or memory runs out. */
static struct spawn_proc *
spawn_scan(size_t *n)
{
	struct spawn_proc *all = NULL;
	size_t cap = 0;
	struct dirent *de;
	DIR *d = opendir("/proc");

	*n = 0;
	if (d == NULL)
		return NULL;
	while ((de = readdir(d)) != NULL) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		pid_t ppid, pgrp = 0;

		if (*end != '\0' || pid <= 0 || end == de->d_name)
			continue;
		if ((ppid = spawn_stat((pid_t)pid, &pgrp)) < 0)
			continue; /* gone meanwhile */
		if (*n == cap) {
			struct spawn_proc *grown;

			cap = cap ? 2 * cap : 256;
			grown = realloc(all, cap * sizeof *all);
			if (grown == NULL) {
				free(all);
				closedir(d);
				return NULL;
			}
			all = grown;
		}
		all[*n].pid = (pid_t)pid;
		all[*n].pgrp = pgrp;
		all[(*n)++].ppid = ppid;
	}
	closedir(d);
	return all;
}

/* Whether `pid` descends from `root` in the scan (bounded walk up). */
static bool
spawn_descends(const struct spawn_proc *all, size_t n, pid_t pid, pid_t root)
{
	size_t hops, i;

	for (hops = 0; hops < n && pid > 1; hops++) {
		pid_t parent = -1;

		for (i = 0; i < n; i++)
			if (all[i].pid == pid) {
				parent = all[i].ppid;
				break;
			}
		if (parent == root)
			return true;
		pid = parent;
	}
	return false;
}

/* Whether every process of the group `pgrp` in the scan descends from
 * `root` (and the group is not the guard's own): then signalling the
 * whole group reaches the session's processes only. */
static bool
spawn_group_is_ours(const struct spawn_proc *all, size_t n, pid_t pgrp)
{
	size_t i;

	if (pgrp <= 1 || pgrp == getpgrp())
		return false;
	for (i = 0; i < n; i++)
		if (all[i].pgrp == pgrp && !all[i].ours)
			return false;
	return true;
}

/* Sends `sig` to every descendant of this process but `keep`; returns how
 * many there were.  Each is signalled through a pidfd opened after its
 * parent was read and checked again after: a pid that was reused
 * meanwhile names a process that is not ours, and is left alone.  A
 * parent that changed to this process is still ours: a process whose
 * parent exits comes to the guard (the subreaper), and one that forks and
 * exits in a loop would otherwise never be signalled. */
static size_t
spawn_signal_descendants(int sig, pid_t keep, pid_t keep2)
{
	struct spawn_proc *all;
	pid_t self = getpid();
	size_t n = 0, i, count = 0;

	all = spawn_scan(&n);
	if (all == NULL)
		return 0;
	for (i = 0; i < n; i++)
		all[i].ours = all[i].pid != self && all[i].pid != keep &&
			      all[i].pid != keep2 &&
			      spawn_descends(all, n, all[i].pid, self);
	for (i = 0; i < n; i++) {
		pid_t now;
		int pfd;

		if (!all[i].ours)
			continue;
		count++;
		pfd = (int)syscall(SYS_pidfd_open, all[i].pid, 0);
		if (pfd < 0)
			continue; /* gone */
		now = spawn_ppid(all[i].pid);
		if (now == all[i].ppid || now == self)
			(void)syscall(SYS_pidfd_send_signal, pfd, sig, NULL, 0);
		(void)close(pfd);
		/* and its whole process group, at once: a process that forks
		 * and exits in a loop is gone before it is signalled by pid,
		 * but its children stay in its group */
		if (sig != 0 && spawn_group_is_ours(all, n, all[i].pgrp))
			(void)kill(-all[i].pgrp, sig);
	}
	free(all);
	return count;
}

static void
spawn_nap(long ms)
{
	struct timespec t = {0, ms * 1000 * 1000};

	(void)nanosleep(&t, NULL);
}

/* Reaps what has ended; the shell's status kept when it is among them. */
static void
spawn_reap_shell(pid_t shell, bool *gone, int *status)
{
	if (pty_spawn_reap(shell, status))
		*gone = true;
}

/* pty_spawn_end_all, leaving `keep` and `shell` alone; when the shell
 * (0: none) is reaped meanwhile, *gone and *status say so. */
static size_t
spawn_end(pid_t keep, pid_t shell, bool *gone, int *status)
{
	size_t left;
	int i;

	/* a hang-up first, as when a terminal goes away: programs that
	 * clean up on SIGHUP may (the stopped ones are woken to see it) */
	left = spawn_signal_descendants(SIGHUP, keep, shell);
	(void)spawn_signal_descendants(SIGCONT, keep, shell);
	for (i = 0; i < 25 && left > 0; i++) {
		spawn_reap_shell(shell, gone, status);
		spawn_nap(20);
		left = spawn_signal_descendants(0, keep, shell);
	}
	/* then what is left is killed, a generation at a time as each
	 * one's children come to the guard; bounded, as a fork bomb could
	 * otherwise keep this going */
	for (i = 0; i < 500 && left > 0; i++) {
		(void)spawn_signal_descendants(SIGKILL, keep, shell);
		spawn_reap_shell(shell, gone, status);
		spawn_nap(i < 20 ? 1 : 10);
		left = spawn_signal_descendants(0, keep, shell);
	}
	spawn_reap_shell(shell, gone, status);
	return left;
}

size_t
pty_spawn_end_all(pid_t keep)
{
	bool gone = false;
	int st;

	return spawn_end(keep, 0, &gone, &st);
}

bool
pty_spawn_end_jobs(const struct pty_guard *g, pid_t shell, int *status)
{
	bool gone = false;
	size_t left = spawn_end(pty_audit_writer_pid(g->audit), shell, &gone,
				status);

	if (left > 0)
		pty_guard_log(g, LOG_WARNING,
			      "session %s of %s: %zu processes of the session "
			      "could not be ended",
			      g->asess.id, g->who->user, left);
	return gone;
}

void
pty_spawn_end_session(const struct pty_guard *g)
{
	size_t left = pty_spawn_end_all(pty_audit_writer_pid(g->audit));

	/* processes that cannot die (an uninterruptible sleep) outlive the
	 * session: say so where the administrator looks */
	if (left > 0)
		pty_guard_log(g, LOG_WARNING,
			      "session %s of %s: %zu processes of the session "
			      "could not be ended",
			      g->asess.id, g->who->user, left);
}
