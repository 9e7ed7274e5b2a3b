/* SPDX-License-Identifier: MIT */
/*
 * The attack tests' side of the deployed bastion (bastion.h): their
 * programs and policy, system calls as a test user, and the users'
 * processes - guards, audit writers, what /proc says of them.
 */
#define _GNU_SOURCE
#include "bastion.h"
#include "bastion_private.h"

#include "pty_exec_chain.h"

#include <check.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ── The attack tests' programs and policy ──────────────────────────── */

const char *
bastion_tool_dir(const struct bastion *b)
{
	static char dir[PATH_MAX];

	snprintf(dir, sizeof dir, "%s/libexec/maelys-pty-tests", b->prefix);
	return dir;
}

const char *
bastion_tool(const struct bastion *b, const char *name, const char *src,
	     const char *text)
{
	static char path[2 * PATH_MAX];
	char dir[PATH_MAX], parent[PATH_MAX], why[4096];

	snprintf(dir, sizeof dir, "%s", bastion_tool_dir(b));
	snprintf(parent, sizeof parent, "%s/libexec", b->prefix);
	ck_assert_msg(bastion_root_dir(parent, why, sizeof why) == 0 &&
			  bastion_root_dir(dir, why, sizeof why) == 0,
		      "%s", why);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (src != NULL) {
		char *argv[] = {"install", "-o",   "root",      "-g", "root",
				"-m",      "0755", (char *)src, path, NULL};

		ck_assert_msg(bastion_cmd(argv, 30000, NULL, why, sizeof why) ==
				  0,
			      "%s", why);
	} else {
		ck_assert_msg(bastion_write_file(path, text, 0755) == 0,
			      "cannot write %s: %s", path, strerror(errno));
	}
	return path;
}

void
bastion_tools_install(const struct bastion *b, struct bastion_tools *t)
{
	char text[PATH_MAX + 8];

	snprintf(t->probe, sizeof t->probe, "%s",
		 bastion_tool(b, "exec_probe",
			      pts_build_path("tests/exec_probe"), NULL));
	snprintf(t->forbidden, sizeof t->forbidden, "%s",
		 bastion_tool(b, "forbidden", "/usr/bin/touch", NULL));
	snprintf(text, sizeof text, "#!%s\n", t->forbidden);
	snprintf(t->shebang, sizeof t->shebang, "%s",
		 bastion_tool(b, "by-shebang", NULL, text));
	snprintf(t->path, sizeof t->path, "%s:/usr/bin:/bin",
		 bastion_tool_dir(b));
	ck_assert_int_eq(pty_exec_own_loader(t->loader, sizeof t->loader), 0);
}

void
bastion_use_attack_policy(const struct bastion *b,
			  const struct bastion_tools *t, bool landlock)
{
	char text[4 * PATH_MAX], dirs[2 * PATH_MAX] = "";
	const char *path;

	if (landlock)
		snprintf(dirs, sizeof dirs,
			 "exec_dir(\"/usr/bin\").\n"
			 "exec_dir(\"/usr/lib\").\n"
			 "exec_dir(\"%s\").\n",
			 bastion_tool_dir(b));
	snprintf(text, sizeof text,
		 "/* the attack suites': every line, every program but one */\n"
		 "allow(C) :- command(C), C != \"hello\".\n"
		 "require_confirm(C, \"Really hello?\") :- command(C),\n"
		 "    C = \"hello\", not(confirmed(C)).\n"
		 "allow(C) :- command(C), C = \"hello\", confirmed(C).\n"
		 ".decl refused(p)\n"
		 "deny_exec(P, \"the forbidden program\") :- exec_path(P),\n"
		 "    P = \"%s\".\n"
		 "refused(P) :- deny_exec(P, R).\n"
		 "allow_exec(P) :- exec_path(P), not(refused(P)).\n"
		 "%s",
		 t->forbidden, dirs);
	path = bastion_policy_install(b, "attacks.dl", text);
	bastion_configure_path(b, path, t->path,
			       landlock ? NULL : "landlock = auto\n");
}

static int
bastion_remove_one(const char *path, const struct stat *st, int flag,
		   struct FTW *f)
{
	(void)st;
	(void)f;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

void
bastion_home_remove(const struct bastion *b, const char *name, const char *rel)
{
	(void)nftw(bastion_home(b, name, rel), bastion_remove_one, 16,
		   FTW_DEPTH | FTW_PHYS);
}

/* What /proc/PID/status says of a process: 0, or -1 when it is gone. */
static int
bastion_proc(pid_t pid, uid_t *ruid, uid_t *euid, pid_t *ppid, bool *zombie)
{
	char path[64], line[256];
	unsigned long r = (unsigned long)-1, e = (unsigned long)-1;
	long pp = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	*zombie = false;
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, "State:\tZ", 8) == 0 ||
		    strncmp(line, "State:\tX", 8) == 0)
			*zombie = true;
		(void)sscanf(line, "Uid:\t%lu\t%lu", &r, &e);
		(void)sscanf(line, "PPid:\t%ld", &pp);
	}
	fclose(f);
	*ruid = (uid_t)r;
	*euid = (uid_t)e;
	*ppid = (pid_t)pp;
	return 0;
}

/* Whether process pid runs the file `exe` (its /proc/PID/exe). */
static bool
bastion_runs(pid_t pid, const char *exe)
{
	char path[64], target[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
	n = readlink(path, target, sizeof target - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	return strcmp(target, exe) == 0;
}

/* The live processes (zombies aside) for which keep() is true, at most
 * max of them in pids; returns how many there are. */
static int
bastion_pids(bool (*keep)(pid_t, uid_t, uid_t, pid_t, const void *),
	     const void *arg, pid_t *pids, int max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		pid_t pid = (pid_t)strtol(e->d_name, NULL, 10), ppid;
		uid_t ruid, euid;
		bool zombie;

		if (pid <= 0 ||
		    bastion_proc(pid, &ruid, &euid, &ppid, &zombie) != 0 ||
		    zombie || !keep(pid, ruid, euid, ppid, arg))
			continue;
		if (n < max)
			pids[n] = pid;
		n++;
	}
	closedir(d);
	return n;
}

static bool
bastion_keep_uid(pid_t pid, uid_t ruid, uid_t euid, pid_t ppid, const void *arg)
{
	uid_t uid = *(const uid_t *)arg;

	(void)pid;
	(void)ppid;
	return ruid == uid || euid == uid;
}

int
bastion_user_pids(const struct bastion *b, const char *name, pid_t *pids,
		  int max)
{
	uid_t uid = bastion_user(b, name)->uid;

	return bastion_pids(bastion_keep_uid, &uid, pids, max);
}

/* In a child that became the user (bastion_child_become, without the
 * home), one system call; its errno comes back as the exit status. */
static int
bastion_as(const struct bastion *b, const char *name, int (*call)(void *),
	   void *arg)
{
	const struct bastion_user *u = bastion_user(b, name);
	pid_t pid;
	int st;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (setgroups((size_t)u->ngroups, u->groups) != 0 ||
		    setgid(u->gid) != 0 || setuid(u->uid) != 0 ||
		    getuid() != u->uid || geteuid() != u->uid)
			_exit(255);
		_exit(call(arg) == 0 ? 0 : errno);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) != 255,
		      "could not become %s", name);
	return WEXITSTATUS(st);
}

static int
bastion_kill_all_call(void *arg)
{
	(void)arg;
	/* every process the user may signal but this one, at once (the
	 * kernel holds the task list meanwhile): none can fork away */
	return kill(-1, SIGKILL) == 0 || errno == ESRCH ? 0 : -1;
}

void
bastion_user_kill(const struct bastion *b, const char *name)
{
	(void)bastion_as(b, name, bastion_kill_all_call, NULL);
	bastion_kill_uid(bastion_user(b, name)->uid);
}

struct bastion_guard_of {
	const char *exe;
	uid_t uid;
	pid_t parent; /* 0: any */
	bool other_uid;
};

static bool
bastion_keep_guard(pid_t pid, uid_t ruid, uid_t euid, pid_t ppid,
		   const void *arg)
{
	const struct bastion_guard_of *g = arg;

	(void)euid;
	if (g->parent != 0 && ppid != g->parent)
		return false;
	if ((ruid == g->uid) == g->other_uid)
		return false;
	return bastion_runs(pid, g->exe);
}

int
bastion_guard_pids(const struct bastion *b, const char *name, pid_t *pids,
		   int max)
{
	struct bastion_guard_of g = {b->guard, bastion_user(b, name)->uid, 0,
				     false};

	return bastion_pids(bastion_keep_guard, &g, pids, max);
}

pid_t
bastion_writer_pid(const struct bastion *b, pid_t guard)
{
	uid_t ruid, euid;
	pid_t ppid, pid = 0;
	bool zombie;
	struct bastion_guard_of g = {b->guard, 0, guard, true};

	if (bastion_proc(guard, &ruid, &euid, &ppid, &zombie) != 0)
		return 0;
	g.uid = ruid;
	return bastion_pids(bastion_keep_guard, &g, &pid, 1) == 1 ? pid : 0;
}

struct bastion_open_call {
	const char *path;
	int flags;
};

static int
bastion_open_call(void *arg)
{
	const struct bastion_open_call *o = arg;
	int fd = open(o->path, o->flags | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	return fd < 0 ? -1 : 0;
}

int
bastion_open_as(const struct bastion *b, const char *name, const char *path,
		int flags)
{
	struct bastion_open_call o = {path, flags};

	return bastion_as(b, name, bastion_open_call, &o);
}

struct bastion_kill_call {
	pid_t pid;
	int sig;
};

static int
bastion_kill_call(void *arg)
{
	const struct bastion_kill_call *k = arg;

	return kill(k->pid, k->sig);
}

int
bastion_kill_as(const struct bastion *b, const char *name, pid_t pid, int sig)
{
	struct bastion_kill_call k = {pid, sig};

	return bastion_as(b, name, bastion_kill_call, &k);
}

int
bastion_guard_run(const struct bastion *b, char *const argv[], int timeout_ms,
		  char **out, char **err)
{
	return pts_run_bounded(b->guard, argv, bastion_env, NULL, NULL,
			       timeout_ms, out, err);
}

/* ── Processes ────────────────────────────────────────────────────────── */

pid_t
bastion_only_guard(const struct bastion *b, const char *name)
{
	pid_t pid[4];
	int n = bastion_guard_pids(b, name, pid, 4);

	ck_assert_msg(n == 1, "%s has %d guards, wanted 1", name, n);
	return pid[0];
}

char *
bastion_proc_read(const char *path)
{
	size_t cap = 65536, len = 0;
	char *buf = calloc(1, cap + 1);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	ck_assert_ptr_nonnull(buf);
	if (fd < 0)
		return buf;
	while (len < cap && (n = read(fd, buf + len, cap - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	return buf;
}

char
bastion_proc_state(pid_t pid)
{
	char path[64], *text, *paren, state = '?';

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	text = bastion_proc_read(path);
	if ((paren = strrchr(text, ')')) != NULL && paren[1] == ' ')
		state = paren[2];
	free(text);
	return state;
}

bool
bastion_wait_state(pid_t pid, char state, int timeout_ms)
{
	double end = bastion_now() + timeout_ms / 1000.0;

	do {
		if (bastion_proc_state(pid) == state)
			return true;
		poll(NULL, 0, 10);
	} while (bastion_now() < end);
	return false;
}

bool
bastion_wait_file(const char *path, int timeout_ms)
{
	double end = bastion_now() + timeout_ms / 1000.0;

	do {
		if (access(path, F_OK) == 0)
			return true;
		poll(NULL, 0, 20);
	} while (bastion_now() < end);
	return false;
}

pid_t
bastion_wait_comm(const struct bastion *b, const char *name, const char *comm,
		  int timeout_ms)
{
	double end = bastion_now() + timeout_ms / 1000.0;
	size_t len = strlen(comm);

	do {
		pid_t pid[64];
		int n = bastion_user_pids(b, name, pid, 64);

		for (int i = 0; i < n && i < 64; i++) {
			char path[64], *c;
			bool same;

			snprintf(path, sizeof path, "/proc/%d/comm",
				 (int)pid[i]);
			c = bastion_proc_read(path);
			same = strncmp(c, comm, len) == 0 && c[len] == '\n';
			free(c);
			if (same)
				return pid[i];
		}
		poll(NULL, 0, 20);
	} while (bastion_now() < end);
	return 0;
}

int
bastion_wait_no_process(const struct bastion *b, const char *name,
			int timeout_ms, char *left, size_t cap)
{
	double end = bastion_now() + timeout_ms / 1000.0;
	pid_t pid[32];
	int n;

	while (bastion_user_pids(b, name, pid, 32) > 0 && bastion_now() < end)
		poll(NULL, 0, 20);
	/* stopped, none can move (see bastion.h) */
	(void)bastion_kill_as(b, name, -1, SIGSTOP);
	n = bastion_user_pids(b, name, pid, 32);
	left[0] = '\0';
	for (int i = 0; i < n && i < 32; i++) {
		char path[64], *cmd;
		size_t used = strlen(left);

		snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid[i]);
		cmd = bastion_proc_read(path); /* its first word */
		snprintf(left + used, cap - used, "%d %s; ", (int)pid[i], cmd);
		free(cmd);
	}
	return n;
}
