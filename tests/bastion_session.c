/* SPDX-License-Identifier: MIT */
/*
 * What a test does on the deployed bastion as its users do (bastion.h):
 * the ssh clients, runs as a test user outside any session, the audit
 * log read as root, and the steps of an interactive session.
 */
#define _GNU_SOURCE
#include "bastion.h"
#include "bastion_private.h"

#include <check.h>

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ── Clients ──────────────────────────────────────────────────────────── */

/* The ssh options every client needs: this user's key and nothing of
 * root's own configuration or known hosts.  Fills argv from *n on. */
static void
bastion_ssh_options(const struct bastion *b, const struct bastion_user *u,
		    char **argv, int *n)
{
	static char *const fixed[] = {"-F", "/dev/null",
				      "-o", "StrictHostKeyChecking=no",
				      "-o", "UserKnownHostsFile=/dev/null",
				      "-o", "BatchMode=yes",
				      "-o", "IdentitiesOnly=yes",
				      "-o", "LogLevel=ERROR",
				      "-o", "ConnectTimeout=10"};

	(void)b;
	argv[(*n)++] = "-i";
	argv[(*n)++] = (char *)u->key;
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		argv[(*n)++] = fixed[i];
}

/* Clients run in the run folder, so that a relative local path (a
 * download's target) lands there. */
static int
bastion_child_in_run(void *arg)
{
	return chdir((const char *)arg);
}

static char *const bastion_client_env_fmt[] = {"PATH=/usr/bin:/bin",
					       "LANG=C.UTF-8", "TERM=dumb"};

static void
bastion_client_env(const struct bastion *b, char *home, size_t len,
		   char *envp[5])
{
	snprintf(home, len, "HOME=%s", b->run);
	envp[0] = bastion_client_env_fmt[0];
	envp[1] = bastion_client_env_fmt[1];
	envp[2] = bastion_client_env_fmt[2];
	envp[3] = home;
	envp[4] = NULL;
}

/* `ssh [-tt] OPTIONS -p PORT -l USER 127.0.0.1 [COMMAND]` and the
 * clients' environment, for the user. */
struct bastion_ssh_line {
	char port[16], home[300];
	char *envp[5], *argv[40];
};

static void
bastion_ssh_line(const struct bastion *b, const char *name, bool tt,
		 const char *command, struct bastion_ssh_line *l)
{
	const struct bastion_user *u = bastion_user(b, name);
	int n = 0;

	snprintf(l->port, sizeof l->port, "%d", b->port);
	bastion_client_env(b, l->home, sizeof l->home, l->envp);
	l->argv[n++] = "ssh";
	if (tt)
		l->argv[n++] = "-tt";
	bastion_ssh_options(b, u, l->argv, &n);
	l->argv[n++] = "-p";
	l->argv[n++] = l->port;
	l->argv[n++] = "-l";
	l->argv[n++] = (char *)u->name;
	l->argv[n++] = "127.0.0.1";
	if (command != NULL)
		l->argv[n++] = (char *)command;
	l->argv[n] = NULL;
}

void
bastion_ssh_tt(const struct bastion *b, struct pts *p, const char *name)
{
	bastion_ssh_tt_sized(b, p, name, 24, 80);
}

void
bastion_ssh_tt_sized(const struct bastion *b, struct pts *p, const char *name,
		     int rows, int cols)
{
	struct bastion_ssh_line l;

	bastion_ssh_line(b, name, true, NULL, &l);
	pts_spawn_env(p, "/usr/bin/ssh", l.argv, l.envp, bastion_child_in_run,
		      (void *)b->run, rows, cols);
}

int
bastion_ssh(const struct bastion *b, const char *name, const char *command,
	    int timeout_ms, char **out, char **err)
{
	struct bastion_ssh_line l;
	char *o, *e;
	int st;

	bastion_ssh_line(b, name, false, command, &l);
	st = pts_run_bounded("/usr/bin/ssh", l.argv, l.envp,
			     bastion_child_in_run, (void *)b->run, timeout_ms,
			     &o, &e);
	if (out != NULL)
		*out = o;
	else
		free(o);
	if (err != NULL)
		*err = e;
	else
		free(e);
	return st;
}

int
bastion_client(const struct bastion *b, const char *name, const char *tool,
	       const char *const args[], int timeout_ms, char **out, char **err)
{
	const struct bastion_user *u = bastion_user(b, name);
	char port[16], home[300], path[64], rsh[2048], *envp[5], *argv[64];
	int n = 0;

	snprintf(port, sizeof port, "%d", b->port);
	snprintf(path, sizeof path, "/usr/bin/%s", tool);
	bastion_client_env(b, home, sizeof home, envp);
	argv[n++] = (char *)tool;
	if (strcmp(tool, "rsync") == 0) {
		/* rsync takes the ssh command as one word, split at spaces
		 * (no path here has one) */
		char *opts[40];
		int k = 0;
		size_t used;

		bastion_ssh_options(b, u, opts, &k);
		used = (size_t)snprintf(rsh, sizeof rsh, "ssh -p %s", port);
		for (int i = 0; i < k; i++)
			used += (size_t)snprintf(rsh + used, sizeof rsh - used,
						 " %s", opts[i]);
		argv[n++] = "-e";
		argv[n++] = rsh;
	} else {
		ck_assert_msg(
		    strcmp(tool, "scp") == 0 || strcmp(tool, "sftp") == 0,
		    "bastion_client: %s is not scp, sftp or rsync", tool);
		bastion_ssh_options(b, u, argv, &n);
		argv[n++] = "-P";
		argv[n++] = port;
	}
	for (int i = 0; args[i] != NULL && n < 63; i++)
		argv[n++] = (char *)args[i];
	argv[n] = NULL;
	return pts_run_bounded(path, argv, envp, bastion_child_in_run,
			       (void *)b->run, timeout_ms, out, err);
}

const char *
bastion_remote(const struct bastion *b, const char *name, const char *path)
{
	static char buf[4][600];
	static int k;

	(void)bastion_user(b, name);
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s@127.0.0.1:%s", name, path);
	return buf[k];
}

const char *
bastion_run_path(const struct bastion *b, const char *rel)
{
	static char buf[4][600];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", b->run, rel);
	return buf[k];
}

/* ── As a test user ───────────────────────────────────────────────────── */

/* setpriv --reuid --regid --init-groups, then the home directory: the
 * groups were read before the fork (no allocation in the child). */
int
bastion_child_become(void *arg)
{
	const struct bastion_user *u = arg;

	if (setgroups((size_t)u->ngroups, u->groups) != 0 ||
	    setgid(u->gid) != 0 || setuid(u->uid) != 0 || getuid() != u->uid)
		return -1;
	return chdir(u->home);
}

struct bastion_user_env {
	char home[300], user[64], logname[64];
	char *envp[6];
};

static void
bastion_user_env(const struct bastion_user *u, struct bastion_user_env *e)
{
	snprintf(e->home, sizeof e->home, "HOME=%s", u->home);
	snprintf(e->user, sizeof e->user, "USER=%s", u->name);
	snprintf(e->logname, sizeof e->logname, "LOGNAME=%s", u->name);
	e->envp[0] = e->home;
	e->envp[1] = e->user;
	e->envp[2] = e->logname;
	e->envp[3] = "PATH=/usr/bin:/bin";
	e->envp[4] = "LANG=C.UTF-8";
	e->envp[5] = NULL;
}

int
bastion_run_as(const struct bastion *b, const char *name, char *const argv[],
	       int timeout_ms, char **out, char **err)
{
	const struct bastion_user *u = bastion_user(b, name);
	struct bastion_user_env e;

	bastion_user_env(u, &e);
	return pts_run_bounded(argv[0], argv, e.envp, bastion_child_become,
			       (void *)u, timeout_ms, out, err);
}

void
bastion_spawn_as(const struct bastion *b, struct pts *p, const char *name,
		 char *const argv[])
{
	const struct bastion_user *u = bastion_user(b, name);
	struct bastion_user_env e;

	bastion_user_env(u, &e);
	pts_spawn_env(p, argv[0], argv, e.envp, bastion_child_become, (void *)u,
		      24, 80);
}

/* ── The audit log ────────────────────────────────────────────────────── */

size_t
bastion_log_mark(const struct bastion *b)
{
	struct stat st;

	return stat(b->log, &st) == 0 ? (size_t)st.st_size : 0;
}

int
bastion_log_count(const struct bastion *b, size_t mark,
		  const char *const needles[])
{
	char *log = pts_slurp(b->log);
	size_t len = strlen(log);
	int n = pts_count_lines(log + (mark < len ? mark : len), needles);

	free(log);
	return n;
}

int
bastion_verify_log(const struct bastion *b, char **out, char **err)
{
	char *argv[] = {"maelys-pty", "--verify-log", (char *)b->log, NULL};

	return pts_run_bounded(b->guard, argv, bastion_env, NULL, NULL, 30000,
			       out, err);
}

/* ── Homes, records, sessions ─────────────────────────────────────────── */

const char *
bastion_home(const struct bastion *b, const char *name, const char *rel)
{
	static char buf[4][PATH_MAX];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", bastion_user(b, name)->home,
		 rel);
	return buf[k];
}

const char *
bastion_home_dir(const struct bastion *b, const char *name, const char *rel)
{
	const struct bastion_user *u = bastion_user(b, name);
	const char *path = bastion_home(b, name, rel);

	ck_assert_msg(mkdir(path, 0755) == 0 || errno == EEXIST, "%s: %s", path,
		      strerror(errno));
	ck_assert_int_eq(chown(path, u->uid, u->gid), 0);
	return path;
}

char *
bastion_log_tail(const struct bastion *b, size_t mark)
{
	char *log = pts_slurp(b->log);
	size_t len = strlen(log), from = mark < len ? mark : len;

	/* Check's messages are bounded: the end of it */
	if (len - from > 3000)
		from = len - 3000;
	memmove(log, log + from, len - from + 1);
	return log;
}

int
bastion_log_count_user(const struct bastion *b, size_t mark, const char *name,
		       const char *const needles[])
{
	char who[64];
	const char *all[7] = {who};

	snprintf(who, sizeof who, "\"user\":\"%s\"", name);
	for (int k = 0; k < 5 && needles[k] != NULL; k++)
		all[k + 1] = needles[k];
	return bastion_log_count(b, mark, all);
}

void
bastion_assert_records(const struct bastion *b, size_t mark, const char *name,
		       const struct bastion_rec *recs, size_t nrecs, bool exact)
{
	int total = 0, got;

	for (size_t i = 0; i < nrecs; i++) {
		const char *const *nd = recs[i].needles;

		got = bastion_log_count_user(b, mark, name, nd);
		if (got != recs[i].n) {
			char *tail = bastion_log_tail(b, mark), with[512] = "";
			size_t used = 0;

			for (int k = 0;
			     k < 5 && nd[k] != NULL && used < sizeof with; k++)
				used += (size_t)snprintf(with + used,
							 sizeof with - used,
							 " %s", nd[k]);
			ck_abort_msg("%s: %d records with%s, wanted %d; the "
				     "log since the test started:\n%s",
				     name, got, with, recs[i].n, tail);
		}
		total += recs[i].n;
	}
	got = bastion_log_count_user(b, mark, name, (const char *[]){NULL});
	if (exact && got != total) {
		char *tail = bastion_log_tail(b, mark);

		ck_abort_msg("%s: %d records, wanted %d; the log since the "
			     "test started:\n%s",
			     name, got, total, tail);
	}
}

bool
bastion_wait_records(const struct bastion *b, size_t mark, const char *name,
		     const char *const needles[], int n, int timeout_ms)
{
	double end = bastion_now() + timeout_ms / 1000.0;

	do {
		if (bastion_log_count_user(b, mark, name, needles) >= n)
			return true;
		poll(NULL, 0, 20);
	} while (bastion_now() < end);
	return false;
}

void
bastion_assert_log_verifies(const struct bastion *b)
{
	char *out, *err;

	ck_assert_msg(bastion_verify_log(b, &out, &err) == 0,
		      "--verify-log: %s%s", out, err);
	ck_assert_msg(strstr(out, "chain intact") != NULL, "%s", out);
	free(out);
	free(err);
}

void
bastion_expect(struct pts *p, const char *who, const char *text, int timeout_ms)
{
	ck_assert_msg(pts_expect(p, text, timeout_ms),
		      "%s: no '%s' within %d ms in:\n%s", who, text, timeout_ms,
		      p->out);
}

void
bastion_expect_prompt(struct pts *p, const char *who, int timeout_ms)
{
	ck_assert_msg(pts_wait_prompt(p, timeout_ms),
		      "%s: no prompt within %d ms:\n%s", who, timeout_ms,
		      p->out);
}

void
bastion_login(const struct bastion *b, struct pts *p, const char *name,
	      int timeout_ms)
{
	bastion_ssh_tt(b, p, name);
	bastion_expect_prompt(p, name, timeout_ms);
}

void
bastion_line(struct pts *p, const char *who, const char *text, int timeout_ms)
{
	char keys[1024];

	snprintf(keys, sizeof keys, "%s\r", text);
	pts_type(p, keys);
	bastion_expect_prompt(p, who, timeout_ms);
}

void
bastion_logout(struct pts *p, const char *who, int status, int timeout_ms)
{
	char keys[32];
	int st;

	snprintf(keys, sizeof keys, "exit %d\r", status);
	pts_type(p, keys);
	st = pts_wait(p, timeout_ms);
	ck_assert_msg(st == status, "%s: ssh -tt ended with %d:\n%s", who, st,
		      p->out);
	pts_close(p);
}
