/* SPDX-License-Identifier: MIT */
/*
 * --check of the audit log's files and of the guard binary (pty_check.h),
 * for the deployment maelys-pty-setup makes: the guard setuid to the audit
 * account (maelys-pty), whose writer alone creates, appends to and reads
 * the log and the state:
 *
 *   the log's folder   2750 maelys-pty:maelys-pty (root may own it if the
 *                      log is already there)
 *   the log            0640, owned by maelys-pty, its last line whole
 *   the state          0600, owned by maelys-pty, 187 bytes (a v1 key is
 *                      named as such)
 *   audit.pub          root's, writable by root only, 64 hex digits
 *
 * Every file is judged by lstat(2), not by opening it with the effective
 * identity: run from the setuid guard, --check is the audit account, and
 * what that account may open says nothing about what the caller may know.
 * The one read - the last byte of the log - is made by a child that has
 * become the caller for good.
 */
#define _GNU_SOURCE /* setresuid, setresgid */
#include "check_internal.h"

#include "pty_audit.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The audit account's name for messages: the one the guard is installed
 * for, or the one maelys-pty-setup makes. */
static const char *
check_account(const struct check_ctx *c)
{
	return c->audit_known ? c->audit_name : "maelys-pty";
}

static unsigned
check_mode(const struct stat *st)
{
	return (unsigned)(st->st_mode & 07777);
}

/* Whether the audit account has every bit of `want` (4 read, 2 write, 1
 * execute/search) on a file, by its owner, group or other bits. */
static bool
check_account_may(const struct check_ctx *c, const struct stat *st,
		  unsigned want)
{
	unsigned shift = st->st_uid == c->audit_uid   ? 6
			 : st->st_gid == c->audit_gid ? 3
						      : 0;

	return ((st->st_mode >> shift) & want) == want;
}

/* The folder of the log: everything before its last name ("/" for a file
 * at the root). */
static void
check_folder_of(const char *path, char *out, size_t cap)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash != NULL ? (size_t)(slash - path) : 0;

	if (n == 0 || n >= cap)
		n = slash == path ? 1 : 0;
	memcpy(out, path, n);
	out[n] = '\0';
}

void
check_audit_folder(struct check_ctx *c)
{
	const char *log = c->cfg.audit_log, *a = check_account(c);
	char dir[PATH_MAX], owner[64];
	struct stat st;

	if (!c->configured || log[0] == '\0')
		return;
	check_folder_of(log, dir, sizeof dir);
	if (lstat(dir, &st) != 0) {
		if (errno == ENOENT)
			check_report(c, CHECK_ERROR,
				     "audit_log = %s: its folder %s does not "
				     "exist: run maelys-pty-setup (it makes "
				     "it 2750 %s:%s)",
				     log, dir, a, a);
		else
			check_report(c, CHECK_ERROR,
				     "audit_log = %s: its folder %s cannot be "
				     "checked: %s",
				     log, dir, strerror(errno));
		return;
	}
	check_user_name(st.st_uid, owner, sizeof owner);
	if (S_ISLNK(st.st_mode))
		check_report(c, CHECK_ERROR,
			     "audit_log = %s: its folder %s is a symbolic "
			     "link: make it a real directory (2750 %s:%s)",
			     log, dir, a, a);
	else if (!S_ISDIR(st.st_mode))
		check_report(c, CHECK_ERROR,
			     "audit_log = %s: its folder %s is not a directory",
			     log, dir);
	else if (c->audit_known && st.st_uid != 0 && st.st_uid != c->audit_uid)
		check_report(
		    c, CHECK_ERROR,
		    "audit_log = %s: its folder %s is owned by %s, not "
		    "root or the audit account %s: chown %s:%s %s",
		    log, dir, owner, a, a, a, dir);
	else if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		check_report(c, CHECK_ERROR,
			     "audit_log = %s: its folder %s is writable by "
			     "group or others (mode %04o): chmod 2750 %s",
			     log, dir, check_mode(&st), dir);
	else if (c->audit_known && !check_account_may(c, &st, 1))
		check_report(
		    c, CHECK_ERROR,
		    "audit_log = %s: its folder %s (owner %s, mode "
		    "%04o) does not let the audit account %s reach the "
		    "log: chown %s:%s %s; chmod 2750 %s",
		    log, dir, owner, check_mode(&st), a, a, a, dir, dir);
}

/* What the caller's own reading of the log's last byte found. */
struct check_tail {
	int byte; /* the last byte, '\n' for an empty log, -1: unread */
	int err;  /* errno when unread */
};

static void
check_tail_read(const char *path, struct check_tail *t)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY |
				O_NONBLOCK);
	struct stat st;
	unsigned char b;

	t->byte = -1;
	t->err = EIO;
	if (fd < 0) {
		t->err = errno;
		return;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		t->err = EINVAL; /* replaced since its lstat */
	else if (st.st_size == 0)
		t->byte = '\n'; /* nothing written yet: nothing torn */
	else if (pread(fd, &b, 1, st.st_size - 1) == 1)
		t->byte = b;
	(void)close(fd);
}

/* Reads with the caller's identity: in a child that became the caller for
 * good (real, effective and saved ids) when this process is not already. */
static void
check_tail_as_caller(const char *path, struct check_tail *t)
{
	uid_t ruid = getuid();
	gid_t rgid = getgid();
	size_t got = 0;
	ssize_t n;
	int p[2];
	pid_t pid;

	if (geteuid() == ruid && getegid() == rgid) {
		check_tail_read(path, t);
		return;
	}
	t->byte = -1;
	t->err = ECHILD;
	if (pipe2(p, O_CLOEXEC) != 0 || (pid = fork()) < 0)
		return;
	if (pid == 0) {
		struct check_tail mine = {-1, 0};

		(void)close(p[0]);
		if (setresgid(rgid, rgid, rgid) != 0 ||
		    setresuid(ruid, ruid, ruid) != 0)
			mine.err = errno;
		else
			check_tail_read(path, &mine);
		(void)write(p[1], &mine, sizeof mine);
		_exit(0);
	}
	(void)close(p[1]);
	while (got < sizeof *t &&
	       ((n = read(p[0], (char *)t + got, sizeof *t - got)) > 0 ||
		(n < 0 && errno == EINTR)))
		got += n > 0 ? (size_t)n : 0;
	(void)close(p[0]);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	if (got != sizeof *t) {
		t->byte = -1;
		t->err = ECHILD;
	}
}

/* Whether the file's group is its owner's own (primary) group. */
static bool
check_owners_group(const struct stat *st)
{
	struct passwd *pw = getpwuid(st->st_uid);

	return pw != NULL && pw->pw_gid == st->st_gid;
}

/* The log that is not there yet: the writer must be able to create it. */
static void
check_audit_log_absent(struct check_ctx *c, const char *log)
{
	const char *a = check_account(c);
	char dir[PATH_MAX], owner[64];
	struct stat st;

	check_folder_of(log, dir, sizeof dir);
	if (!c->audit_known || lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    check_account_may(c, &st, 3))
		return; /* the folder's own check says what is wrong */
	check_user_name(st.st_uid, owner, sizeof owner);
	check_report(c, CHECK_ERROR,
		     "audit_log = %s does not exist, and its folder %s (owner "
		     "%s, mode %04o) does not let the audit account %s create "
		     "it: chown %s:%s %s",
		     log, dir, owner, check_mode(&st), a, a, a, dir);
}

/* The last line of a log that is there: whole, or no record follows. */
static void
check_audit_log_tail(struct check_ctx *c, const char *log)
{
	struct check_tail t;
	char caller[64];

	check_tail_as_caller(log, &t);
	if (t.byte == '\n')
		return;
	if (t.byte >= 0) {
		check_report(c, CHECK_ERROR,
			     "audit_log = %s: its last line is torn (no final "
			     "newline): no record can be chained to it; check "
			     "it with maelys-pty --verify-log %s, then move it "
			     "aside",
			     log, log);
		return;
	}
	check_user_name(getuid(), caller, sizeof caller);
	check_report(c, CHECK_ERROR,
		     "audit_log = %s: its last line cannot be read by %s (%s): "
		     "run maelys-pty --check as root",
		     log, caller, strerror(t.err));
}

void
check_audit_log(struct check_ctx *c)
{
	const char *log = c->cfg.audit_log, *a = check_account(c);
	char owner[64];
	struct stat st;

	if (!c->configured || log[0] == '\0')
		return;
	if (lstat(log, &st) != 0) {
		if (errno == ENOENT)
			check_audit_log_absent(c, log);
		/* the folder's own check says why the account cannot reach
		 * it (ENOTDIR: not a directory; EACCES: not searchable) */
		else if (errno != ENOTDIR &&
			 !(errno == EACCES && c->audit_known))
			check_report(c, CHECK_ERROR,
				     "audit_log = %s: cannot be checked: %s",
				     log, strerror(errno));
		return;
	}
	check_user_name(st.st_uid, owner, sizeof owner);
	if (S_ISLNK(st.st_mode))
		check_report(c, CHECK_ERROR,
			     "audit_log = %s is a symbolic link: the log must "
			     "be a regular file (remove the link; the audit "
			     "writer creates the log)",
			     log);
	else if (!S_ISREG(st.st_mode))
		check_report(c, CHECK_ERROR,
			     "audit_log = %s is not a regular file", log);
	else if (c->audit_known && st.st_uid != c->audit_uid)
		check_report(c, CHECK_ERROR,
			     "audit_log = %s is owned by %s, not the audit "
			     "account %s: chown %s:%s %s",
			     log, owner, a, a, a, log);
	else if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		check_report(c, CHECK_ERROR,
			     "audit_log = %s is writable by group or others "
			     "(mode %04o): chmod 0600 %s",
			     log, check_mode(&st), log);
	else if ((st.st_mode & S_IROTH) != 0 ||
		 ((st.st_mode & S_IRGRP) != 0 && !check_owners_group(&st)))
		/* the writer refuses it too (pty/audit/audit.c): every user's
		 * records, readable by some */
		check_report(c, CHECK_ERROR,
			     "audit_log = %s is readable by others or by a "
			     "group not the audit account's (mode %04o): "
			     "chmod 0600 %s",
			     log, check_mode(&st), log);
	else if (c->audit_known && !check_account_may(c, &st, 6))
		check_report(
		    c, CHECK_ERROR,
		    "audit_log = %s (mode %04o) does not let the audit "
		    "account %s read and append to it: chmod 0600 %s",
		    log, check_mode(&st), a, log);
	else
		check_audit_log_tail(c, log);
}

void
check_audit_key(struct check_ctx *c)
{
	const char *key = c->cfg.audit_key, *a = check_account(c);
	char owner[64];
	struct stat st;

	if (!c->configured || c->cfg.audit_log[0] == '\0')
		return;
	if (lstat(key, &st) != 0) {
		if (errno == ENOENT)
			check_report(c, CHECK_ERROR,
				     "audit_key = %s does not exist: run "
				     "maelys-pty-setup (it makes the log's "
				     "signing state, 0600, owned by %s, and "
				     "its public key)",
				     key, a);
		else
			check_report(c, CHECK_ERROR,
				     "audit_key = %s: cannot be checked: %s",
				     key, strerror(errno));
		return;
	}
	check_user_name(st.st_uid, owner, sizeof owner);
	if (S_ISLNK(st.st_mode))
		check_report(c, CHECK_ERROR,
			     "audit_key = %s is a symbolic link: the state "
			     "must be a regular file",
			     key);
	else if (!S_ISREG(st.st_mode))
		check_report(c, CHECK_ERROR,
			     "audit_key = %s is not a regular file", key);
	/* the writer, which is the audit account and nothing more, reads
	 * and rewrites the state after every record */
	else if (c->audit_known && st.st_uid != c->audit_uid)
		check_report(c, CHECK_ERROR,
			     "audit_key = %s is owned by %s, not the audit "
			     "account %s, the only one that uses it: chown %s "
			     "%s",
			     key, owner, a, a, key);
	else if ((st.st_mode & (S_IRWXG | S_IRWXO)) != 0)
		check_report(c, CHECK_ERROR,
			     "audit_key = %s gives its group or others access "
			     "(mode %04o): whoever reads it can sign the next "
			     "records; chmod 0600 %s",
			     key, check_mode(&st), key);
	else if (c->audit_known && !check_account_may(c, &st, 6))
		check_report(
		    c, CHECK_ERROR,
		    "audit_key = %s (mode %04o) does not let the audit "
		    "account %s read and rewrite it: chmod 0600 %s",
		    key, check_mode(&st), a, key);
	else if (st.st_size != PTY_AUDIT_STATE_SIZE)
		check_report(c, CHECK_ERROR,
			     "audit_key = %s has %jd bytes, not the %d of a "
			     "forward-secure log's state (a key of an older "
			     "maelys-pty, v1?): run maelys-pty-setup, which "
			     "keeps the old key aside and makes a new state",
			     key, (intmax_t)st.st_size, PTY_AUDIT_STATE_SIZE);
}

void
check_audit_verify_key(struct check_ctx *c)
{
	const char *pub = c->cfg.audit_verify_key;
	struct stat st;

	if (!c->configured || c->cfg.audit_log[0] == '\0' || pub[0] == '\0')
		return;
	if (lstat(pub, &st) != 0) {
		if (errno == ENOENT)
			check_report(c, CHECK_ERROR,
				     "audit_verify_key = %s does not exist: "
				     "--verify-log needs it (maelys-pty-setup "
				     "writes it beside audit_key)",
				     pub);
		else
			check_report(c, CHECK_ERROR,
				     "audit_verify_key = %s: cannot be "
				     "checked: %s",
				     pub, strerror(errno));
		return;
	}
	if (S_ISLNK(st.st_mode) || !S_ISREG(st.st_mode))
		check_report(c, CHECK_ERROR,
			     "audit_verify_key = %s is not a regular file",
			     pub);
	/* it is public, but whoever replaces it makes --verify-log on
	 * this host accept a chain of their own keys */
	else if (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		check_report(c, CHECK_ERROR,
			     "audit_verify_key = %s may be replaced by others "
			     "than root (owner uid %lu, mode %04o): chown "
			     "root %s && chmod 0644 %s",
			     pub, (unsigned long)st.st_uid, check_mode(&st),
			     pub, pub);
	else if (st.st_size != 64 && st.st_size != 65)
		check_report(c, CHECK_ERROR,
			     "audit_verify_key = %s has %jd bytes, not 64 hex "
			     "digits (and a newline)",
			     pub, (intmax_t)st.st_size);
}

int
pty_check_guard_mode(const char *path, const struct stat *st, bool audit_log,
		     char *msg, size_t cap)
{
	unsigned mode = (unsigned)(st->st_mode & 07777);

	if ((st->st_mode & S_ISUID) != 0 && st->st_uid == 0)
		(void)snprintf(msg, cap,
			       "%s is installed setuid root (mode %04o): no "
			       "part of the guard may run as root; run "
			       "maelys-pty-setup again (it installs it setuid "
			       "to the audit account)",
			       path, mode);
	else if ((st->st_mode & S_ISGID) != 0)
		(void)snprintf(msg, cap,
			       "%s is installed setgid (mode %04o), the old "
			       "deployment: run maelys-pty-setup again (it "
			       "installs the guard setuid to the audit "
			       "account)",
			       path, mode);
	else if (audit_log && (st->st_mode & S_ISUID) == 0)
		(void)snprintf(msg, cap,
			       "%s is not installed setuid (mode %04o), and "
			       "audit_log is set: only a guard setuid to the "
			       "audit account can keep the log; run "
			       "maelys-pty-setup",
			       path, mode);
	else
		return 0;
	return -1;
}

void
check_guard(struct check_ctx *c)
{
	char msg[1024];

	if (c->self[0] == '\0') {
		check_report(c, CHECK_ERROR,
			     "this program cannot be named or examined "
			     "(/proc/self/exe): is /proc mounted?");
		return;
	}
	if (pty_check_guard_mode(c->self, &c->self_st,
				 c->configured && c->cfg.audit_log[0] != '\0',
				 msg, sizeof msg) != 0)
		check_report(c, CHECK_ERROR, "%s", msg);
}
