/* SPDX-License-Identifier: MIT */
/*
 * The deployed bastion of the end-to-end tests (see bastion.h): the
 * installation into a prefix, the test users and the whole deployment
 * (bastion_up, bastion_down); sshd is bastion_sshd.c's, what the tests
 * do on the bastion bastion_session.c's and bastion_process.c's.  The steps
 * report failures to their caller instead of failing the test, so that
 * bastion_up can undo a partial deployment before it fails (Check runs no
 * teardown after a failed unchecked setup, and users or an sshd left behind
 * would outlive the run).
 */
#define _GNU_SOURCE
#include "bastion.h"
#include "bastion_private.h"

#include <check.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* The group named in sshd_config's Match block (the README's block, under
 * a name of the tests' own: "bastion-users" may be a real group). */
#define BASTION_GROUP "mpty-users"
/* Programs the deployment runs are found here (meson may come from pip). */
#define BASTION_PATH                                                           \
	"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
/* PATH of the sessions: the shipped template's (etc/maelys-pty.conf.in),
 * after the folder of the session's ssh wrapper in the prefix. */
#define BASTION_SESSION_PATH "/usr/local/bin:/usr/bin:/bin"

char *const bastion_env[] = {"PATH=" BASTION_PATH, "LANG=C.UTF-8", "HOME=/root",
			     NULL};

double
bastion_now(void)
{
	return (double)pts_now_ms() / 1000.0;
}

int
bastion_fail(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -1;
}

/* The full path of a program in BASTION_PATH, or NULL. */
static const char *
bastion_which(const char *name)
{
	static char buf[4][PATH_MAX];
	static int k;

	k = (k + 1) % 4;
	for (const char *d = BASTION_PATH; *d != '\0';) {
		size_t n = strcspn(d, ":");

		snprintf(buf[k], sizeof buf[k], "%.*s/%s", (int)n, d, name);
		if (access(buf[k], X_OK) == 0)
			return buf[k];
		d += n + (d[n] == ':');
	}
	return NULL;
}

/* In the child of a deployment command: files it creates are readable by
 * the test users whatever umask the run was started with. */
static int
bastion_child_umask(void *arg)
{
	(void)arg;
	umask(022);
	return 0;
}

/* Runs argv (argv[0] looked up in BASTION_PATH) as root within timeout_ms;
 * its output is appended to `log` when given.  0, or -1 with the command,
 * its status and the end of its output in why. */
int
bastion_cmd(char *const argv[], int timeout_ms, const char *log, char *why,
	    size_t whylen)
{
	const char *path = argv[0][0] == '/' ? argv[0] : bastion_which(argv[0]);
	char *out, *err, cmd[512] = "";
	size_t used = 0;
	int st;

	if (path == NULL)
		return bastion_fail(why, whylen, "%s: not installed", argv[0]);
	for (int i = 0; argv[i] != NULL && used < sizeof cmd - 1; i++)
		used += (size_t)snprintf(cmd + used, sizeof cmd - used, "%s%s",
					 i > 0 ? " " : "", argv[i]);
	st = pts_run_bounded(path, argv, bastion_env, bastion_child_umask, NULL,
			     timeout_ms, &out, &err);
	if (log != NULL) {
		FILE *f = fopen(log, "a");

		if (f != NULL) {
			fprintf(f, "+ %s\n%s%s", cmd, out, err);
			fclose(f);
		}
	}
	if (st != 0) {
		size_t no = strlen(out), ne = strlen(err);

		char status[64];

		if (st < 0)
			snprintf(status, sizeof status,
				 "did not finish in %d ms", timeout_ms);
		else
			snprintf(status, sizeof status, "exited %d", st);
		bastion_fail(why, whylen, "`%s` %s:\n%s\n%s", cmd, status,
			     out + (no > 1500 ? no - 1500 : 0),
			     err + (ne > 1500 ? ne - 1500 : 0));
	}
	free(out);
	free(err);
	return st == 0 ? 0 : -1;
}

void
bastion_require_root(const char *suite)
{
	pts_require_root(suite, "it adds users and starts sshd");
}

void
bastion_up_suite(struct bastion *b, const char *suite)
{
	static const char *const users[] = {ALICE, BOB, NULL};

	bastion_require_root(suite);
	bastion_up(b, users);
}

/* ── The installation ─────────────────────────────────────────────────── */

/* The state folder is keyed by the source tree, so that two checkouts
 * never share a prefix and the plain and sanitizer runs of one share the
 * build. */
static uint64_t
bastion_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* Makes `dir` (root's, 0755) or accepts an existing one only if it is
 * root's and writable by nobody else: the guard checks every folder above
 * its configuration, and anything else could be another user's. */
int
bastion_root_dir(const char *dir, char *why, size_t whylen)
{
	struct stat st;

	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		return bastion_fail(why, whylen, "mkdir %s: %s", dir,
				    strerror(errno));
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & 022) != 0)
		return bastion_fail(why, whylen,
				    "%s: not a directory of root's writable by "
				    "root alone; remove it",
				    dir);
	if (chmod(dir, 0755) != 0)
		return bastion_fail(why, whylen, "chmod %s: %s", dir,
				    strerror(errno));
	return 0;
}

int
bastion_lock(struct bastion *b, char *why, size_t whylen)
{
	static const char path[] = "/var/tmp/maelys-pty-deployed.lock";
	double end = bastion_now() + 600;
	struct stat st;
	bool said = false;

	b->lock_fd =
	    open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (b->lock_fd < 0)
		return bastion_fail(why, whylen, "%s: %s", path,
				    strerror(errno));
	/* in a sticky folder anyone may have made it first, and hold it */
	if (fstat(b->lock_fd, &st) != 0 || st.st_uid != 0)
		return bastion_fail(why, whylen, "%s: not root's; remove it",
				    path);
	while (flock(b->lock_fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno != EWOULDBLOCK || bastion_now() > end)
			return bastion_fail(why, whylen,
					    "%s: another run held it for 10 "
					    "minutes",
					    path);
		if (!said) {
			printf("bastion: another run holds %s; waiting\n",
			       path);
			fflush(stdout);
			said = true;
		}
		poll(NULL, 0, 100);
	}
	return 0;
}

int
bastion_write_file(const char *path, const char *text, mode_t mode)
{
	char tmp[PATH_MAX];
	size_t len = strlen(text);
	int fd;

	/* written aside and renamed: a session starting meanwhile reads the
	 * old file or the new one, never half of one */
	snprintf(tmp, sizeof tmp, "%s.new", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		  mode);
	if (fd < 0)
		return -1;
	if (write(fd, text, len) != (ssize_t)len || fchmod(fd, mode) != 0 ||
	    fchown(fd, 0, 0) != 0) {
		close(fd);
		unlink(tmp);
		return -1;
	}
	close(fd);
	return rename(tmp, path);
}

static int
bastion_write_config_path(const struct bastion *b, const char *policy,
			  const char *path, const char *extra)
{
	char text[8192];

	snprintf(text, sizeof text,
		 "# written by the deployed tests (tests/bastion.c)\n"
		 "policy = %s\n"
		 "shell = /bin/bash\n"
		 "path = %s\n"
		 "audit_log = %s\n"
		 "audit_key = %s\n"
		 "%s"
		 "syslog = off\n"
		 "%s",
		 policy != NULL ? policy : b->policy, path, b->log, b->key,
		 /* a test may choose its own */
		 extra != NULL && strstr(extra, "landlock =") != NULL
		     ? ""
		     : "landlock = required\n",
		 extra != NULL ? extra : "");
	return bastion_write_file(b->config, text, 0644);
}

static int
bastion_write_config(const struct bastion *b, const char *policy,
		     const char *extra)
{
	char path[PATH_MAX];

	snprintf(path, sizeof path, "%s/libexec/maelys-pty/bin:%s", b->prefix,
		 BASTION_SESSION_PATH);
	return bastion_write_config_path(b, policy, path, extra);
}

void
bastion_configure(const struct bastion *b, const char *policy,
		  const char *extra)
{
	ck_assert_msg(bastion_write_config(b, policy, extra) == 0,
		      "cannot write %s: %s", b->config, strerror(errno));
}

const char *
bastion_policy_install(const struct bastion *b, const char *name,
		       const char *text)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof path, "%s/share/maelys-pty/policies/%s",
		 b->prefix, name);
	ck_assert_msg(bastion_write_file(path, text, 0644) == 0,
		      "cannot write %s: %s", path, strerror(errno));
	return path;
}

/* Every folder above the guard must let the test users through, or sshd
 * refuses them ("shell is not executable"), which would say nothing. */
static int
bastion_check_reachable(const char *path, char *why, size_t whylen)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof dir, "%s", path);
	while ((slash = strrchr(dir, '/')) != NULL && slash != dir) {
		struct stat st;

		*slash = '\0';
		if (stat(dir, &st) != 0 || (st.st_mode & 01) == 0)
			return bastion_fail(why, whylen,
					    "%s: others may not pass through "
					    "it, so the test users cannot run "
					    "%s",
					    dir, path);
	}
	return 0;
}

/* Removes the state folders of source trees that are gone (CI clones
 * each submission afresh): each names its tree in its file "source". */
static void
bastion_prune_states(void)
{
	glob_t g;

	if (glob("/var/tmp/maelys-pty-deployed.*/source", 0, NULL, &g) != 0)
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char *src = pts_slurp(g.gl_pathv[i]), why[1024];
		char *dir = strdup(g.gl_pathv[i]);

		if (dir != NULL && src[0] == '/' && access(src, F_OK) != 0) {
			char *argv[] = {"rm", "-rf", dir, NULL};

			*strrchr(dir, '/') = '\0';
			if (bastion_cmd(argv, 60000, NULL, why, sizeof why) !=
			    0)
				fprintf(stderr, "bastion: %s\n", why);
		}
		free(dir);
		free(src);
	}
	globfree(&g);
}

int
bastion_install(struct bastion *b, char *why, size_t whylen)
{
	const char *root = getenv("MAELYS_SOURCE_ROOT");
	char src[PATH_MAX], log[PATH_MAX], ninja[PATH_MAX],
	    opt_prefix[PATH_MAX], opt_config[PATH_MAX];
	char *setup_argv[] = {NULL, NULL, NULL, NULL, NULL};
	double t0 = bastion_now(), t1, t2;

	if (realpath(root != NULL ? root : ".", src) == NULL)
		return bastion_fail(why, whylen, "source root %s: %s",
				    root != NULL ? root : ".", strerror(errno));
	snprintf(b->state, sizeof b->state,
		 "/var/tmp/maelys-pty-deployed.%016llx",
		 (unsigned long long)bastion_hash(src));
	snprintf(b->build, sizeof b->build, "%s/build", b->state);
	snprintf(b->prefix, sizeof b->prefix, "%s/prefix", b->state);
	snprintf(b->guard, sizeof b->guard, "%s/bin/maelys-pty", b->prefix);
	snprintf(b->setup, sizeof b->setup, "%s/sbin/maelys-pty-setup",
		 b->prefix);
	snprintf(b->config, sizeof b->config,
		 "%s/etc/maelys-pty/maelys-pty.conf", b->prefix);
	snprintf(b->policy, sizeof b->policy,
		 "%s/share/maelys-pty/policies/bastion.dl", b->prefix);
	snprintf(b->logdir, sizeof b->logdir, "%s/var/log/maelys-pty",
		 b->prefix);
	snprintf(b->log, sizeof b->log, "%s/audit.log", b->logdir);
	snprintf(b->key, sizeof b->key, "%s/etc/maelys-pty/audit.key",
		 b->prefix);
	snprintf(log, sizeof log, "%s/install.log", b->state);
	bastion_prune_states();
	if (bastion_root_dir(b->state, why, whylen) != 0)
		return -1;
	{
		char source[PATH_MAX + 8];

		snprintf(source, sizeof source, "%s/source", b->state);
		if (bastion_write_file(source, src, 0644) != 0)
			return bastion_fail(why, whylen, "%s: %s", source,
					    strerror(errno));
	}
	unlink(log);
	/* The build: configured once, then ninja rebuilds what changed (and
	 * meson reconfigures itself when a meson.build changed).  A folder
	 * without build.ninja is a setup that did not finish: made anew. */
	snprintf(ninja, sizeof ninja, "%s/build.ninja", b->build);
	if (access(ninja, F_OK) != 0) {
		char *wipe[] = {"rm", "-rf", b->build, NULL};
		char *argv[] = {"meson",
				"setup",
				b->build,
				src,
				opt_prefix,
				opt_config,
				"-Dtests=disabled",
				"-Db_sanitize=none",
				"-Dfuzz=false",
				NULL};

		snprintf(opt_prefix, sizeof opt_prefix, "--prefix=%s",
			 b->prefix);
		snprintf(opt_config, sizeof opt_config, "-Dconfig_file=%s",
			 b->config);
		if (bastion_cmd(wipe, 60000, log, why, whylen) != 0 ||
		    bastion_cmd(argv, 300000, log, why, whylen) != 0)
			return -1;
	}
	{
		char *argv[] = {"ninja", "-C", b->build, NULL};

		if (bastion_cmd(argv, 600000, log, why, whylen) != 0)
			return -1;
	}
	t1 = bastion_now();
	{
		char *argv[] = {"meson",  "install",      "-C",
				b->build, "--no-rebuild", NULL};

		if (bastion_cmd(argv, 120000, log, why, whylen) != 0)
			return -1;
	}
	/* A fresh log and key each run, made by the setup script as an
	 * administrator's first run makes them; the counts of the tests
	 * start from an empty log. */
	{
		char pub[PATH_MAX];
		char *argv[] = {"rm", "-rf", b->logdir, b->key, pub, NULL};

		/* the state's verification key, beside it */
		snprintf(pub, sizeof pub, "%s/etc/maelys-pty/audit.pub",
			 b->prefix);

		if (bastion_cmd(argv, 30000, log, why, whylen) != 0)
			return -1;
	}
	setup_argv[0] = b->setup;
	setup_argv[1] = b->guard;
	setup_argv[2] = b->logdir;
	setup_argv[3] = b->key;
	if (bastion_cmd(setup_argv, 60000, log, why, whylen) != 0)
		return -1;
	if (bastion_write_config(b, NULL, NULL) != 0)
		return bastion_fail(why, whylen, "cannot write %s: %s",
				    b->config, strerror(errno));
	if (bastion_check_reachable(b->guard, why, whylen) != 0)
		return -1;
	t2 = bastion_now();
	printf("bastion: %s: ninja %.1f s, meson install and maelys-pty-setup "
	       "%.1f s (log: %s)\n",
	       b->build, t1 - t0, t2 - t1, log);
	fflush(stdout);
	return 0;
}

void
bastion_configure_path(const struct bastion *b, const char *policy,
		       const char *path, const char *extra)
{
	ck_assert_msg(bastion_write_config_path(b, policy, path, extra) == 0,
		      "cannot write %s: %s", b->config, strerror(errno));
}

/* ── Users ────────────────────────────────────────────────────────────── */

/* Kills every process of uid (sessions a failed test left open, what they
 * started) and waits until none is left but zombies, for at most 10 s. */
void
bastion_kill_uid(uid_t uid)
{
	double end = bastion_now() + 10;

	for (;;) {
		DIR *d = opendir("/proc");
		struct dirent *e;
		int alive = 0;

		if (d == NULL)
			return;
		while ((e = readdir(d)) != NULL) {
			char path[300], line[256];
			unsigned long ruid, euid;
			bool zombie = false, mine = false;
			FILE *f;
			pid_t pid = (pid_t)strtol(e->d_name, NULL, 10);

			if (pid <= 0)
				continue;
			snprintf(path, sizeof path, "/proc/%d/status", pid);
			if ((f = fopen(path, "r")) == NULL)
				continue;
			while (fgets(line, sizeof line, f) != NULL) {
				if (strncmp(line, "State:\tZ", 8) == 0)
					zombie = true;
				if (sscanf(line, "Uid:\t%lu\t%lu", &ruid,
					   &euid) == 2)
					mine = ruid == uid || euid == uid;
			}
			fclose(f);
			if (mine && !zombie) {
				kill(pid, SIGKILL);
				alive++;
			}
		}
		closedir(d);
		if (alive == 0 || bastion_now() > end)
			return;
		poll(NULL, 0, 20);
	}
}

static int
bastion_user_purge(const char *name, char *why, size_t whylen)
{
	struct passwd *pw = getpwnam(name);
	char *argv[] = {"userdel", "-r", "-f", (char *)name, NULL};

	if (pw == NULL)
		return 0;
	if (pw->pw_uid == 0)
		return bastion_fail(why, whylen, "%s is root", name);
	bastion_kill_uid(pw->pw_uid);
	/* -f: a zombie of the user's whose parent has not reaped it yet
	 * would otherwise make userdel refuse */
	return bastion_cmd(argv, 60000, NULL, why, whylen);
}

static int
bastion_chown_write(const char *path, const char *text, uid_t uid, gid_t gid,
		    mode_t mode)
{
	size_t len = strlen(text);
	int fd = open(
	    path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode);

	if (fd < 0)
		return -1;
	if (write(fd, text, len) != (ssize_t)len || fchown(fd, uid, gid) != 0 ||
	    fchmod(fd, mode) != 0) {
		close(fd);
		return -1;
	}
	return close(fd);
}

int
bastion_user_add(struct bastion *b, const char *name, char *why, size_t whylen)
{
	struct bastion_user *u;
	struct passwd *pw;
	char sshdir[400], auth[450], pub[600];
	char *pubkey;

	if (b->nusers >= BASTION_USERS_MAX)
		return bastion_fail(why, whylen, "more than %d users",
				    BASTION_USERS_MAX);
	if (bastion_user_purge(name, why, whylen) != 0)
		return -1;
	u = &b->users[b->nusers];
	memset(u, 0, sizeof *u);
	snprintf(u->name, sizeof u->name, "%s", name);
	{
		/* "*": no password, and not locked: without PAM, sshd
		 * refuses even key logins to an account whose password
		 * field starts with "!" (what useradd leaves) */
		char *argv[] = {"useradd",    "-m",
				"-s",         b->guard,
				"-p",         "*",
				"-G",         b->group,
				"-c",         "maelys-pty test user",
				(char *)name, NULL};

		if (bastion_cmd(argv, 60000, NULL, why, whylen) != 0)
			return -1;
	}
	b->nusers++; /* from here on bastion_down removes it */
	if ((pw = getpwnam(name)) == NULL)
		return bastion_fail(why, whylen, "useradd made no %s", name);
	u->uid = pw->pw_uid;
	u->gid = pw->pw_gid;
	snprintf(u->home, sizeof u->home, "%s", pw->pw_dir);
	u->ngroups = BASTION_GROUPS_MAX;
	if (getgrouplist(name, u->gid, u->groups, &u->ngroups) < 0)
		return bastion_fail(why, whylen, "%s: too many groups", name);
	snprintf(u->key, sizeof u->key, "%s/%s.key", b->run, name);
	{
		char *argv[] = {"ssh-keygen", "-q",   "-t", "ed25519",
				"-N",         "",     "-C", (char *)name,
				"-f",         u->key, NULL};

		if (bastion_cmd(argv, 30000, NULL, why, whylen) != 0)
			return -1;
	}
	snprintf(sshdir, sizeof sshdir, "%s/.ssh", u->home);
	snprintf(auth, sizeof auth, "%s/authorized_keys", sshdir);
	snprintf(pub, sizeof pub, "%s.pub", u->key);
	pubkey = pts_slurp(pub);
	/* sshd's StrictModes: the user's own, writable by the user alone */
	if ((mkdir(sshdir, 0700) != 0 && errno != EEXIST) ||
	    chown(sshdir, u->uid, u->gid) != 0 ||
	    bastion_chown_write(auth, pubkey, u->uid, u->gid, 0600) != 0) {
		free(pubkey);
		return bastion_fail(why, whylen, "%s: %s", auth,
				    strerror(errno));
	}
	free(pubkey);
	return 0;
}

int
bastion_user_remove(struct bastion *b, const char *name, char *why,
		    size_t whylen)
{
	for (int i = 0; i < b->nusers; i++)
		if (strcmp(b->users[i].name, name) == 0) {
			b->users[i] = b->users[--b->nusers];
			break;
		}
	return bastion_user_purge(name, why, whylen);
}

const struct bastion_user *
bastion_user(const struct bastion *b, const char *name)
{
	for (int i = 0; i < b->nusers; i++)
		if (strcmp(b->users[i].name, name) == 0)
			return &b->users[i];
	ck_abort_msg("no test user %s", name);
	return NULL;
}

const char *
bastion_home_file(const struct bastion *b, const char *name, const char *rel,
		  const char *text, mode_t mode)
{
	static char path[600];
	const struct bastion_user *u = bastion_user(b, name);

	snprintf(path, sizeof path, "%s/%s", u->home, rel);
	ck_assert_msg(bastion_chown_write(path, text, u->uid, u->gid, mode) ==
			  0,
		      "cannot write %s: %s", path, strerror(errno));
	return path;
}

/* ── The whole of it ──────────────────────────────────────────────────── */

void
bastion_up(struct bastion *b, const char *const names[])
{
	char why[4096];
	double t0, t1, t2;
	glob_t stale;

	memset(b, 0, sizeof *b);
	b->lock_fd = -1;
	snprintf(b->group, sizeof b->group, "%s", BASTION_GROUP);
	if (bastion_lock(b, why, sizeof why) != 0 ||
	    bastion_install(b, why, sizeof why) != 0)
		goto fail;
	t0 = bastion_now();
	/* with the lock held no other run is alive: a run folder there is
	 * one that a killed run left (with its keys) */
	if (glob("/tmp/maelys-pty-bastion.*", 0, NULL, &stale) == 0) {
		for (size_t i = 0; i < stale.gl_pathc; i++) {
			char *argv[] = {"rm", "-rf", stale.gl_pathv[i], NULL};

			if (bastion_cmd(argv, 30000, NULL, why, sizeof why) !=
			    0)
				fprintf(stderr, "bastion: %s\n", why);
		}
		globfree(&stale);
	}
	snprintf(b->run, sizeof b->run, "/tmp/maelys-pty-bastion.XXXXXX");
	if (mkdtemp(b->run) == NULL) {
		bastion_fail(why, sizeof why, "mkdtemp: %s", strerror(errno));
		b->run[0] = '\0';
		goto fail;
	}
	{
		/* the tests' own group: made fresh, and removed at the end
		 * even when a previous run left it */
		char *del[] = {"groupdel", b->group, NULL};
		char *add[] = {"groupadd", b->group, NULL};

		if (getgrnam(b->group) != NULL &&
		    bastion_cmd(del, 30000, NULL, why, sizeof why) != 0)
			goto fail;
		if (bastion_cmd(add, 30000, NULL, why, sizeof why) != 0)
			goto fail;
		b->group_made = true;
	}
	for (int i = 0; names[i] != NULL; i++)
		if (bastion_user_add(b, names[i], why, sizeof why) != 0)
			goto fail;
	t1 = bastion_now();
	if (bastion_sshd_start(b, why, sizeof why) != 0)
		goto fail;
	t2 = bastion_now();
	printf("bastion: %d users in %.2f s, sshd in %.2f s\n", b->nusers,
	       t1 - t0, t2 - t1);
	fflush(stdout);
	return;
fail:
	bastion_down(b);
	ck_abort_msg("the deployment could not be set up: %s", why);
}

void
bastion_down(struct bastion *b)
{
	char why[4096];

	bastion_sshd_stop(b);
	while (b->nusers > 0)
		if (bastion_user_remove(b, b->users[b->nusers - 1].name, why,
					sizeof why) != 0)
			fprintf(stderr, "bastion: %s\n", why);
	if (b->group_made) {
		char *argv[] = {"groupdel", b->group, NULL};

		if (bastion_cmd(argv, 30000, NULL, why, sizeof why) != 0)
			fprintf(stderr, "bastion: %s\n", why);
		b->group_made = false;
	}
	if (b->run[0] != '\0') {
		char *argv[] = {"rm", "-rf", b->run, NULL};

		if (bastion_cmd(argv, 30000, NULL, why, sizeof why) != 0)
			fprintf(stderr, "bastion: %s\n", why);
		b->run[0] = '\0';
	}
	if (b->lock_fd >= 0) {
		close(b->lock_fd); /* releases the lock */
		b->lock_fd = -1;
	}
}
