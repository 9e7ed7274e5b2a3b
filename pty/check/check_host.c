/* SPDX-License-Identifier: MIT */
/*
 * --check of the host around the guard (pty_check.h): weaknesses no exec
 * decision can close, reported as warnings so that an administrator knows
 * what the guarantees of maelys-pty(1) rest on.
 *
 *   - Places users write (the homes of the users whose login shell is this
 *     guard, or /home when there are none yet; /tmp, /var/tmp, /dev/shm) on
 *     a mount without noexec: a file written there cannot be executed under
 *     Landlock, but it can be mapped into an allowed program (dlopen, an
 *     mmap with PROT_EXEC), which is no exec at all.
 *   - No Yama, or ptrace_scope 0: a process may then write the memory of
 *     any other process of its uid through /proc/PID/mem, bash's included;
 *     with 1 or more, only its descendants'.
 *   - fs.protected_hardlinks or fs.protected_symlinks 0: a user may then
 *     link a file of root's into a sticky folder (/tmp), where the exec
 *     walk takes an entry of root's for one the user cannot change (it
 *     refuses files with more than one link there, but not links).
 *   - The audit log on the file system of a place users write: a user
 *     who fills it with files of their own (no quota counts the log's
 *     writer against them) stops every session's records.
 */
#define _GNU_SOURCE
#include "check_internal.h"

#include "pty_mountinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bounds: mountinfo's size (a host with thousands of mounts stays far
 * below), the places looked at, the password entries read. */
#define CHECK_MOUNTINFO_MAX ((size_t)16 << 20)
#define CHECK_PLACES_MAX    64
#define CHECK_PASSWD_MAX    100000

struct check_places {
	size_t n;
	char path[CHECK_PLACES_MAX][PATH_MAX]; /* resolved, each once */
};

static void
check_place_add(struct check_places *p, const char *path)
{
	char real[PATH_MAX];
	size_t i;

	if (p->n == CHECK_PLACES_MAX || realpath(path, real) == NULL)
		return; /* absent places hold nothing */
	for (i = 0; i < p->n; i++)
		if (strcmp(p->path[i], real) == 0)
			return;
	memcpy(p->path[p->n++], real, strlen(real) + 1);
}

/* The homes of the users this guard is the login shell of; /home when it
 * is nobody's yet (the usual place of the homes to come). */
static void
check_homes(const struct check_ctx *c, struct check_places *p)
{
	char shell[PATH_MAX];
	struct passwd *pw;
	size_t seen = 0, before = p->n;

	setpwent();
	while (seen++ < CHECK_PASSWD_MAX && (pw = getpwent()) != NULL)
		if (c->self[0] != '\0' && pw->pw_shell != NULL &&
		    pw->pw_dir != NULL && pw->pw_dir[0] == '/' &&
		    realpath(pw->pw_shell, shell) != NULL &&
		    strcmp(shell, c->self) == 0)
			check_place_add(p, pw->pw_dir);
	endpwent();
	if (p->n == before)
		check_place_add(p, "/home");
}

/* One mount and the places it holds, for one line per mount. */
struct check_mount_group {
	struct pty_mount mount;
	char places[1024]; /* "/tmp, /var/tmp, ..." */
	bool cut;          /* ", ..." ends it: no more fit */
};

static void
check_group_add(struct check_mount_group *g, const char *place)
{
	size_t n = strlen(g->places);

	if (g->cut)
		return;
	/* room is kept for ", ..." whatever comes */
	if (n + 2 + strlen(place) + 6 < sizeof g->places) {
		(void)snprintf(g->places + n, sizeof g->places - n, "%s%s",
			       n > 0 ? ", " : "", place);
	} else {
		(void)snprintf(g->places + n, sizeof g->places - n, ", ...");
		g->cut = true;
	}
}

/* Finds each place's mount and reports each mount without noexec once. */
static void
check_mount_places(struct check_ctx *c, const char *text, size_t len,
		   const struct check_places *p)
{
	static struct check_mount_group groups[CHECK_PLACES_MAX];
	static struct pty_mount m;
	size_t ngroups = 0, i, j, bad;

	for (i = 0; i < p->n; i++) {
		if (pty_mountinfo_find(text, len, p->path[i], &m, &bad) != 0) {
			check_report(c, CHECK_WARNING,
				     "no mount of /proc/self/mountinfo holds "
				     "%s (%zu malformed lines): whether code "
				     "can be loaded from there is not known",
				     p->path[i], bad);
			continue;
		}
		for (j = 0; j < ngroups && groups[j].mount.id != m.id; j++)
			;
		if (j == ngroups) {
			groups[ngroups].mount = m;
			groups[ngroups].places[0] = '\0';
			groups[ngroups++].cut = false;
		}
		check_group_add(&groups[j], p->path[i]);
	}
	for (j = 0; j < ngroups; j++)
		if (!groups[j].mount.noexec)
			check_report(
			    c, CHECK_WARNING,
			    "users write in %s, on the mount %s, which has no "
			    "noexec: code a user writes there can be loaded "
			    "into an allowed program with mmap or dlopen, "
			    "which no exec decision sees; mount it noexec (or "
			    "give those places noexec mounts of their own)",
			    groups[j].places, groups[j].mount.point);
}

void
check_mounts(struct check_ctx *c)
{
	static struct check_places places;
	char err[1024], *text = NULL;
	size_t len = 0;
	int fd;

	places.n = 0;
	check_homes(c, &places);
	check_place_add(&places, "/tmp");
	check_place_add(&places, "/var/tmp");
	check_place_add(&places, "/dev/shm");
	fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (fd < 0 ||
	    pty_read_whole(fd, "/proc/self/mountinfo", CHECK_MOUNTINFO_MAX,
			   &text, &len, err, sizeof err) != 0) {
		if (fd < 0)
			(void)snprintf(err, sizeof err,
				       "/proc/self/mountinfo: %s",
				       strerror(errno));
		check_report(c, CHECK_WARNING,
			     "%s: the mounts of the places users write are not "
			     "checked for noexec",
			     err);
	} else {
		check_mount_places(c, text, len, &places);
	}
	if (fd >= 0)
		(void)close(fd);
	free(text);
}

/* The start of a small file of /proc/sys: how many bytes were read into
 * buf (NUL-terminated; 0: it is empty), or -1 with errno. */
static ssize_t
check_read_small(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), saved;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, cap - 1);
	saved = errno;
	(void)close(fd);
	errno = saved;
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

void
check_yama(struct check_ctx *c)
{
	static const char path[] = "/proc/sys/kernel/yama/ptrace_scope";
	static const char why[] =
	    "processes of a session can write each other's memory through "
	    "/proc/PID/mem, bash's included";
	char buf[16];
	ssize_t n = check_read_small(path, buf, sizeof buf);

	if (n < 0 && errno == ENOENT)
		check_report(c, CHECK_WARNING,
			     "no Yama (%s is absent): %s; boot with Yama among "
			     "the LSMs and set kernel.yama.ptrace_scope = 1",
			     path, why);
	else if (n <= 0)
		check_report(c, CHECK_WARNING, "%s cannot be read: %s", path,
			     n == 0 ? "it is empty" : strerror(errno));
	else if (buf[0] == '0' && (n == 1 || buf[1] == '\n'))
		check_report(
		    c, CHECK_WARNING,
		    "kernel.yama.ptrace_scope = 0: %s; set it to 1 "
		    "(sysctl -w kernel.yama.ptrace_scope=1, and a file "
		    "in /etc/sysctl.d to keep it)",
		    why);
}

/* The value of a sysctl of one digit: 0 to 9, or -1 when it cannot be
 * read. */
static int
check_sysctl_digit(const char *path)
{
	char buf[8];
	ssize_t n = check_read_small(path, buf, sizeof buf);

	if (n <= 0 || buf[0] < '0' || buf[0] > '9')
		return -1;
	return buf[0] - '0';
}

void
check_links(struct check_ctx *c)
{
	static const char *const names[] = {"protected_hardlinks",
					    "protected_symlinks"};
	char path[64];
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		(void)snprintf(path, sizeof path, "/proc/sys/fs/%s", names[i]);
		if (check_sysctl_digit(path) == 0)
			check_report(
			    c, CHECK_WARNING,
			    "fs.%s = 0: a user may link a file of root's into "
			    "a sticky folder such as /tmp and run it from "
			    "there as if root had put it there; set it to 1 "
			    "(sysctl -w fs.%s=1, and a file in /etc/sysctl.d "
			    "to keep it)",
			    names[i], names[i]);
	}
}

void
check_log_disk(struct check_ctx *c)
{
	static struct check_places places;
	char dir[PATH_MAX], *slash;
	struct stat log, st;
	size_t i;

	if (!c->configured || c->cfg.audit_log[0] == '\0')
		return;
	(void)snprintf(dir, sizeof dir, "%s", c->cfg.audit_log);
	slash = strrchr(dir, '/');
	if (slash == NULL || slash == dir)
		return;
	*slash = '\0';
	if (stat(dir, &log) != 0)
		return; /* the folder's own check says why */
	places.n = 0;
	check_homes(c, &places);
	check_place_add(&places, "/tmp");
	check_place_add(&places, "/var/tmp");
	check_place_add(&places, "/dev/shm");
	for (i = 0; i < places.n; i++)
		if (stat(places.path[i], &st) == 0 && st.st_dev == log.st_dev) {
			check_report(
			    c, CHECK_WARNING,
			    "the audit log's folder %s is on the file system "
			    "of %s, where users write: one who fills it stops "
			    "every session's records (the log keeps a reserve "
			    "against a user flooding it with records, not "
			    "against files); give the log a file system of "
			    "its own",
			    dir, places.path[i]);
			return;
		}
}
