/* SPDX-License-Identifier: MIT */
/*
 * The deployed bastion of the end-to-end tests (see bastion.h): the
 * installation into a prefix, the test users, sshd, the clients, runs as a
 * test user and the audit log.  The steps report failures to their caller
 * instead of failing the test, so that bastion_up can undo a partial
 * deployment before it fails (Check runs no teardown after a failed
 * unchecked setup, and users or an sshd left behind would outlive the
 * run).
 */
#define _GNU_SOURCE
#include "bastion.h"

#include "pty_exec_chain.h"

#include <check.h>

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <grp.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

static char *const bastion_env[] = {"PATH=" BASTION_PATH, "LANG=C.UTF-8",
				    "HOME=/root", NULL};

double
bastion_now(void)
{
	return (double)pts_now_ms() / 1000.0;
}

static int
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
static int
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
static int
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

static int
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
		char *argv[] = {"rm", "-rf", b->logdir, b->key, NULL};

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

/* ── Users ────────────────────────────────────────────────────────────── */

/* Kills every process of uid (sessions a failed test left open, what they
 * started) and waits until none is left but zombies, for at most 10 s. */
static void
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

/* ── sshd ─────────────────────────────────────────────────────────────── */

static int
bastion_free_port(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t len = sizeof a;
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), port = -1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s >= 0 && bind(s, (struct sockaddr *)&a, sizeof a) == 0 &&
	    getsockname(s, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	if (s >= 0)
		close(s);
	return port;
}

static bool
bastion_port_accepts(int port)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool ok;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((uint16_t)port);
	ok = s >= 0 && connect(s, (struct sockaddr *)&a, sizeof a) == 0;
	if (s >= 0)
		close(s);
	return ok;
}

static int
bastion_write_sshd_config(const struct bastion *b, const char *path)
{
	char text[4096];
	FILE *f;

	/* Key logins of the test users only (the members of the tests'
	 * group, so a user added later may log in too), no PAM (keys need
	 * none, and PAM's session modules would touch the machine's state),
	 * the README's Match block, and sftp as a command the guard decides:
	 * sftp-server read-only, the one form bastion.dl allows. */
	snprintf(text, sizeof text,
		 "Port %d\n"
		 "ListenAddress 127.0.0.1\n"
		 "HostKey %s/host_ed25519_key\n"
		 "PidFile %s/sshd.pid\n"
		 "UsePAM no\n"
		 "PubkeyAuthentication yes\n"
		 "AuthorizedKeysFile .ssh/authorized_keys\n"
		 "PasswordAuthentication no\n"
		 "KbdInteractiveAuthentication no\n"
		 "PermitRootLogin no\n"
		 "AllowGroups %s\n"
		 "StrictModes yes\n"
		 "UseDNS no\n"
		 "PrintMotd no\n"
		 "PrintLastLog no\n"
		 "LogLevel VERBOSE\n"
		 "Subsystem sftp /usr/lib/openssh/sftp-server -R\n"
		 "Match Group %s\n"
		 "    DisableForwarding yes\n"
		 "    PermitTunnel no\n"
		 "    PermitUserRC no\n",
		 b->port, b->run, b->run, b->group, b->group);
	if ((f = fopen(path, "w")) == NULL)
		return -1;
	fputs(text, f);
	return fclose(f);
}

int
bastion_sshd_start(struct bastion *b, char *why, size_t whylen)
{
	char config[300], hostkey[300];
	double t0 = bastion_now();

	if (access("/usr/sbin/sshd", X_OK) != 0)
		return bastion_fail(
		    why, whylen,
		    "/usr/sbin/sshd: not installed (./bootstrap "
		    "installs openssh-server)");
	/* sshd's privilege separation folder, which the machine's ssh
	 * service would have made */
	if (mkdir("/run/sshd", 0755) != 0 && errno != EEXIST)
		return bastion_fail(why, whylen, "mkdir /run/sshd: %s",
				    strerror(errno));
	snprintf(config, sizeof config, "%s/sshd_config", b->run);
	snprintf(hostkey, sizeof hostkey, "%s/host_ed25519_key", b->run);
	snprintf(b->sshd_log, sizeof b->sshd_log, "%s/sshd.log", b->run);
	{
		char *argv[] = {"ssh-keygen", "-q", "-t",    "ed25519", "-N",
				"",           "-f", hostkey, NULL};

		if (access(hostkey, F_OK) != 0 &&
		    bastion_cmd(argv, 30000, NULL, why, whylen) != 0)
			return -1;
	}
	/* the port is free when chosen; if someone takes it before sshd
	 * binds, sshd exits and another is tried */
	for (int attempt = 0; attempt < 3; attempt++) {
		char *argv[] = {"/usr/sbin/sshd", "-D", "-e", "-f",
				config,           NULL};
		char *test_argv[] = {"/usr/sbin/sshd", "-t", "-f", config,
				     NULL};
		pid_t parent = getpid();
		double end;
		int st;

		if ((b->port = bastion_free_port()) < 0)
			return bastion_fail(why, whylen, "no free port");
		if (bastion_write_sshd_config(b, config) != 0)
			return bastion_fail(why, whylen, "%s: %s", config,
					    strerror(errno));
		if (bastion_cmd(test_argv, 30000, NULL, why, whylen) != 0)
			return -1;
		b->sshd = fork();
		if (b->sshd < 0)
			return bastion_fail(why, whylen, "fork: %s",
					    strerror(errno));
		if (b->sshd == 0) {
			int null = open("/dev/null", O_RDONLY);
			int out = open(b->sshd_log,
				       O_WRONLY | O_CREAT | O_APPEND, 0600);

			/* sshd ends with the test program, however that
			 * ends (a timeout's SIGKILL included) */
			prctl(PR_SET_PDEATHSIG, SIGTERM);
			if (getppid() != parent)
				_exit(127);
			setsid();
			dup2(null, 0);
			dup2(out, 1);
			dup2(out, 2);
			execve(argv[0], argv, bastion_env);
			_exit(127);
		}
		end = bastion_now() + 15;
		while (bastion_now() < end) {
			if (waitpid(b->sshd, &st, WNOHANG) == b->sshd) {
				b->sshd = 0;
				break;
			}
			if (bastion_port_accepts(b->port)) {
				printf("bastion: sshd %d on 127.0.0.1:%d, "
				       "ready in %.2f s (log: %s)\n",
				       (int)b->sshd, b->port,
				       bastion_now() - t0, b->sshd_log);
				fflush(stdout);
				return 0;
			}
			poll(NULL, 0, 20);
		}
		if (b->sshd != 0) {
			bastion_sshd_stop(b);
			break; /* it runs but does not listen: say so */
		}
	}
	{
		char *log = pts_slurp(b->sshd_log);

		bastion_fail(why, whylen,
			     "sshd did not accept connections within 15 s:\n%s",
			     log);
		free(log);
	}
	return -1;
}

void
bastion_sshd_stop(struct bastion *b)
{
	double end = bastion_now() + 5;

	if (b->sshd <= 0)
		return;
	kill(b->sshd, SIGTERM);
	while (waitpid(b->sshd, NULL, WNOHANG) != b->sshd) {
		if (bastion_now() > end) {
			kill(b->sshd, SIGKILL);
			waitpid(b->sshd, NULL, 0);
			break;
		}
		poll(NULL, 0, 20);
	}
	b->sshd = 0;
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

void
bastion_ssh_tt(const struct bastion *b, struct pts *p, const char *name)
{
	const struct bastion_user *u = bastion_user(b, name);
	char port[16], home[300], *envp[5], *argv[40];
	int n = 0;

	snprintf(port, sizeof port, "%d", b->port);
	bastion_client_env(b, home, sizeof home, envp);
	argv[n++] = "ssh";
	argv[n++] = "-tt";
	bastion_ssh_options(b, u, argv, &n);
	argv[n++] = "-p";
	argv[n++] = port;
	argv[n++] = "-l";
	argv[n++] = (char *)u->name;
	argv[n++] = "127.0.0.1";
	argv[n] = NULL;
	pts_spawn_env(p, "/usr/bin/ssh", argv, envp, bastion_child_in_run,
		      (void *)b->run, 24, 80);
}

int
bastion_ssh(const struct bastion *b, const char *name, const char *command,
	    int timeout_ms, char **out, char **err)
{
	const struct bastion_user *u = bastion_user(b, name);
	char port[16], home[300], *envp[5], *argv[40], *o, *e;
	int n = 0, st;

	snprintf(port, sizeof port, "%d", b->port);
	bastion_client_env(b, home, sizeof home, envp);
	argv[n++] = "ssh";
	bastion_ssh_options(b, u, argv, &n);
	argv[n++] = "-p";
	argv[n++] = port;
	argv[n++] = "-l";
	argv[n++] = (char *)u->name;
	argv[n++] = "127.0.0.1";
	argv[n++] = (char *)command;
	argv[n] = NULL;
	st = pts_run_bounded("/usr/bin/ssh", argv, envp, bastion_child_in_run,
			     (void *)b->run, timeout_ms, &o, &e);
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
static int
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

/* ── For the attack tests (check_pty_attacks.c) ──────────────────────── */

void
bastion_configure_path(const struct bastion *b, const char *policy,
		       const char *path, const char *extra)
{
	ck_assert_msg(bastion_write_config_path(b, policy, path, extra) == 0,
		      "cannot write %s: %s", b->config, strerror(errno));
}

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

/* ── Helpers of the item tests ────────────────────────────────────────── */

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
