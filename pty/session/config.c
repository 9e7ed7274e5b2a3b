/* SPDX-License-Identifier: MIT */
/*
 * The system configuration: opening root's files the way sudo and sshd open
 * theirs (pty_secure_open, pty_secure_read) and parsing maelys-pty.conf into
 * a struct pty_config (pty_config_load).  pty_session.h is the contract; this
 * file adds the reasons.  Every refusal is one line that names the file (and
 * the line, for what is wrong inside it), because main.c shows it to the user
 * and logs it, then ends the session: nothing here falls back to a default.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* S_ISVTX, lstat */
#endif
#include "pty_session.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Longest bit of a value or key quoted back in a message: enough to see the
 * typo, short enough to keep the message one readable line. */
#define PTY_CONFIG_QUOTE_MAX 64

enum pty_config_kind {
	PTY_CONFIG_PATH,      /* an absolute path */
	PTY_CONFIG_PATH_LIST, /* absolute directories separated by ':' */
	PTY_CONFIG_BOOL,
	PTY_CONFIG_UINT,
	PTY_CONFIG_AUDIT_FAILURE,
	/* syslog = on | off | records: a boolean, or records */
	PTY_CONFIG_SYSLOG,
	/* one of two words, the second setting the bool field true:
	 * landlock = auto | required, exec_decisions = required | optional */
	PTY_CONFIG_CHOICE,
	/* a size in bytes, with K, M or G (record_max, record_share) */
	PTY_CONFIG_SIZE,
};

/* Indices into pty_config_keys: the checks after parsing name these. */
enum pty_config_key_id {
	PTY_CONFIG_KEY_POLICY,
	PTY_CONFIG_KEY_SHELL,
	PTY_CONFIG_KEY_PATH,
	PTY_CONFIG_KEY_AUDIT_LOG,
	PTY_CONFIG_KEY_AUDIT_KEY,
	PTY_CONFIG_KEY_AUDIT_VERIFY_KEY,
	PTY_CONFIG_KEY_SYSLOG,
	PTY_CONFIG_KEY_IDLE_TIMEOUT,
	PTY_CONFIG_KEY_MAX_DENIALS,
	PTY_CONFIG_KEY_ON_AUDIT_FAILURE,
	PTY_CONFIG_KEY_LANDLOCK,
	PTY_CONFIG_KEY_EXEC_DECISIONS,
	PTY_CONFIG_KEY_RECORD,
	PTY_CONFIG_KEY_RECORD_INPUT,
	PTY_CONFIG_KEY_RECORD_MAX,
	PTY_CONFIG_KEY_RECORD_SHARE,
	PTY_CONFIG_KEY_ON_RECORD_FAILURE,
	PTY_CONFIG_KEY_COUNT
};

struct pty_config_key {
	const char *name;
	enum pty_config_kind kind;
	size_t offset; /* of the field in struct pty_config */
	size_t size;   /* PATH, PATH_LIST: the field's size, NUL included */
	unsigned max;  /* UINT: the largest value accepted */
	/* CHOICE: the word for false, the word for true */
	const char *words[2];
};

#define PTY_CONFIG_FIELD(f)                                                    \
	offsetof(struct pty_config, f), sizeof(((struct pty_config *)0)->f)

/* A key whose value is not one of two words. */
#define PTY_CONFIG_NO_WORDS                                                    \
	{                                                                      \
		NULL, NULL                                                     \
	}

static const struct pty_config_key pty_config_keys[] = {
    [PTY_CONFIG_KEY_POLICY] = {"policy", PTY_CONFIG_PATH,
			       PTY_CONFIG_FIELD(policy), 0,
			       PTY_CONFIG_NO_WORDS},
    [PTY_CONFIG_KEY_SHELL] = {"shell", PTY_CONFIG_PATH, PTY_CONFIG_FIELD(shell),
			      0, PTY_CONFIG_NO_WORDS},
    [PTY_CONFIG_KEY_PATH] = {"path", PTY_CONFIG_PATH_LIST,
			     PTY_CONFIG_FIELD(path_env), 0,
			     PTY_CONFIG_NO_WORDS},
    [PTY_CONFIG_KEY_AUDIT_LOG] = {"audit_log", PTY_CONFIG_PATH,
				  PTY_CONFIG_FIELD(audit_log), 0,
				  PTY_CONFIG_NO_WORDS},
    [PTY_CONFIG_KEY_AUDIT_KEY] = {"audit_key", PTY_CONFIG_PATH,
				  PTY_CONFIG_FIELD(audit_key), 0,
				  PTY_CONFIG_NO_WORDS},
    [PTY_CONFIG_KEY_AUDIT_VERIFY_KEY] = {"audit_verify_key", PTY_CONFIG_PATH,
					 PTY_CONFIG_FIELD(audit_verify_key), 0,
					 PTY_CONFIG_NO_WORDS},
    [PTY_CONFIG_KEY_SYSLOG] = {"syslog", PTY_CONFIG_SYSLOG,
			       offsetof(struct pty_config, syslog), 0, 0,
			       PTY_CONFIG_NO_WORDS},
    [PTY_CONFIG_KEY_IDLE_TIMEOUT] = {"idle_timeout", PTY_CONFIG_UINT,
				     offsetof(struct pty_config, idle_timeout),
				     0, PTY_CONFIG_IDLE_TIMEOUT_MAX,
				     PTY_CONFIG_NO_WORDS},
    [PTY_CONFIG_KEY_MAX_DENIALS] = {"max_denials", PTY_CONFIG_UINT,
				    offsetof(struct pty_config, max_denials), 0,
				    PTY_CONFIG_MAX_DENIALS_MAX,
				    PTY_CONFIG_NO_WORDS},
    [PTY_CONFIG_KEY_ON_AUDIT_FAILURE] =
	{"on_audit_failure", PTY_CONFIG_AUDIT_FAILURE,
	 offsetof(struct pty_config, on_audit_failure), 0, 0,
	 PTY_CONFIG_NO_WORDS},
    [PTY_CONFIG_KEY_LANDLOCK] = {"landlock", PTY_CONFIG_CHOICE,
				 offsetof(struct pty_config, landlock_required),
				 0, 0, {"auto", "required"}},
    [PTY_CONFIG_KEY_EXEC_DECISIONS] =
	{"exec_decisions", PTY_CONFIG_CHOICE,
	 offsetof(struct pty_config, exec_decisions_optional), 0, 0,
	 {"required", "optional"}},
    [PTY_CONFIG_KEY_RECORD] = {"record", PTY_CONFIG_PATH,
			       PTY_CONFIG_FIELD(record), 0,
			       PTY_CONFIG_NO_WORDS},
    [PTY_CONFIG_KEY_RECORD_INPUT] = {"record_input", PTY_CONFIG_BOOL,
				     offsetof(struct pty_config, record_input),
				     0, 0, PTY_CONFIG_NO_WORDS},
    [PTY_CONFIG_KEY_RECORD_MAX] = {"record_max", PTY_CONFIG_SIZE,
				   offsetof(struct pty_config, record_max), 0,
				   0, PTY_CONFIG_NO_WORDS},
    [PTY_CONFIG_KEY_RECORD_SHARE] = {"record_share", PTY_CONFIG_SIZE,
				     offsetof(struct pty_config, record_share),
				     0, 0, PTY_CONFIG_NO_WORDS},
    [PTY_CONFIG_KEY_ON_RECORD_FAILURE] =
	{"on_record_failure", PTY_CONFIG_AUDIT_FAILURE,
	 offsetof(struct pty_config, on_record_failure), 0, 0,
	 PTY_CONFIG_NO_WORDS},
};

struct pty_config_bool {
	const char *word;
	bool value;
};

static const struct pty_config_bool pty_config_bools[] = {
    {"on", true},   {"yes", true}, {"true", true},
    {"off", false}, {"no", false}, {"false", false},
};

/* What one parse needs to word its messages and spot duplicates. */
struct pty_config_parse {
	const char *path;
	unsigned lineno;
	unsigned seen[PTY_CONFIG_KEY_COUNT]; /* line of each key; 0 = absent */
	char *err;
	size_t errlen;
};

static int pty_config_fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Formats the one line into err (which may be NULL) and returns -1, so
 * every refusal reads "return pty_config_fail(...)". */
static int
pty_config_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return -1;
	va_start(ap, fmt);
	(void)vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* audit_verify_key's default: audit.pub in audit_key's folder (so
 * /etc/maelys-pty/audit.pub for the shipped audit_key), "" without an
 * audit_key.  0, or -1 when the path would not fit. */
static int
pty_config_default_verify_key(struct pty_config *c)
{
	const char *slash = strrchr(c->audit_key, '/');
	int n;

	c->audit_verify_key[0] = '\0';
	if (c->audit_key[0] == '\0' || slash == NULL)
		return 0;
	n = snprintf(c->audit_verify_key, sizeof c->audit_verify_key,
		     "%.*s/audit.pub", (int)(slash - c->audit_key),
		     c->audit_key);
	if (n < 0 || (size_t)n >= sizeof c->audit_verify_key) {
		c->audit_verify_key[0] = '\0';
		return -1;
	}
	return 0;
}

void
pty_config_defaults(struct pty_config *c)
{
	memset(c, 0, sizeof *c);
	/* policy stays "": a configuration that names none is refused */
	(void)snprintf(c->shell, sizeof c->shell, "%s", pty_default_shell);
	(void)snprintf(c->path_env, sizeof c->path_env, "%s",
		       pty_default_path);
	c->syslog = true;
	c->idle_timeout = 0;
	c->max_denials = 0;
	c->on_audit_failure = PTY_AUDIT_FAIL_DENY;
	c->record_max = PTY_CONFIG_RECORD_MAX_DEFAULT;
	c->on_record_failure = PTY_AUDIT_FAIL_DENY;
}

void
pty_config_for_policy_only(struct pty_config *c, const char *policy)
{
	pty_config_defaults(c);
	(void)snprintf(c->policy, sizeof c->policy, "%s", policy);
	/* a person trying a policy of their own: nothing for syslog, and a
	 * policy that decides lines only (the walkthrough's) may run */
	c->syslog = false;
	c->exec_decisions_optional = true;
}

/* Words an open(2) failure for a person reading one line. */
static int
pty_config_open_failed(const char *path, int e, char *err, size_t errlen)
{
	struct stat st;

	switch (e) {
	case ENOENT:
		return pty_config_fail(err, errlen, "%s: no such file", path);
	case ELOOP:
		/* O_NOFOLLOW says ELOOP for a final symbolic link; a loop
		 * of links earlier on the path says it too */
		if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
			return pty_config_fail(err, errlen,
					       "%s: a symbolic link", path);
		return pty_config_fail(
		    err, errlen, "%s: too many symbolic links on the path",
		    path);
	case ENOTDIR:
		return pty_config_fail(err, errlen,
				       "%s: a component of the path is not a "
				       "directory",
				       path);
	case EACCES:
		return pty_config_fail(err, errlen, "%s: permission denied",
				       path);
	default:
		return pty_config_fail(err, errlen, "%s: cannot open: %s", path,
				       strerror(e));
	}
}

/* The file itself, as fstat(2) saw it through the descriptor. */
static int
pty_config_check_file(const char *path, const struct stat *st, char *err,
		      size_t errlen)
{
	if (S_ISDIR(st->st_mode))
		return pty_config_fail(
		    err, errlen, "%s: a directory, not a regular file", path);
	if (!S_ISREG(st->st_mode))
		return pty_config_fail(err, errlen, "%s: not a regular file",
				       path);
	if (st->st_uid != 0)
		return pty_config_fail(err, errlen,
				       "%s: owned by uid %lu, not root", path,
				       (unsigned long)st->st_uid);
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) != 0)
		return pty_config_fail(
		    err, errlen, "%s: writable by group or others (mode %04o)",
		    path, (unsigned)(st->st_mode & 07777));
	return 0;
}

/* One directory on the path, by lstat(2): a symbolic link is refused, as
 * the link could be anybody's way of pointing the path elsewhere. */
static int
pty_config_check_dir(const char *dir, const char *path, char *err,
		     size_t errlen)
{
	struct stat st;

	if (lstat(dir, &st) != 0)
		return pty_config_fail(err, errlen, "%s: cannot check: %s", dir,
				       strerror(errno));
	if (S_ISLNK(st.st_mode))
		return pty_config_fail(
		    err, errlen, "%s: a symbolic link (on the path to %s)", dir,
		    path);
	if (!S_ISDIR(st.st_mode))
		return pty_config_fail(err, errlen, "%s: not a directory", dir);
	if (st.st_uid != 0)
		return pty_config_fail(
		    err, errlen, "%s: directory owned by uid %lu, not root",
		    dir, (unsigned long)st.st_uid);
	/* Sticky and root-owned (/tmp): others may add names but cannot
	 * rename or remove ours, and whatever they add fails the owner
	 * check when it is on the path. */
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 &&
	    (st.st_mode & S_ISVTX) == 0)
		return pty_config_fail(
		    err, errlen,
		    "%s: directory writable by group or others (mode %04o)",
		    dir, (unsigned)(st.st_mode & 07777));
	return 0;
}

/*
 * Every directory from the file's parent up to /, taken from the path as
 * given: each prefix is lstat'd, so no prefix is a link and the walk covers
 * every directory the kernel looked a name up in, even through "." or "..".
 *
 * TOCTOU: the file was opened first and judged by fstat on its descriptor,
 * so what is checked is what will be read, whatever the name points at
 * now.  The directories are checked after, by name; that is sound because
 * each one is root-owned and writable by nobody else (or sticky and
 * root-owned), so between the open and these checks nobody but root could
 * have renamed, replaced or swapped anything beneath them, and root needs
 * no race to do that.
 */
static int
pty_config_check_dirs(const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof dir)
		return pty_config_fail(err, errlen, "%s: path too long", path);
	memcpy(dir, path, len + 1);
	for (;;) {
		/* drop the last name: trailing slashes, the name, then the
		 * slashes before it, keeping the root's own "/" */
		while (len > 1 && dir[len - 1] == '/')
			len--;
		while (len > 0 && dir[len - 1] != '/')
			len--;
		while (len > 1 && dir[len - 1] == '/')
			len--;
		if (len == 0)
			return pty_config_fail(
			    err, errlen, "%s: not an absolute path", path);
		dir[len] = '\0';
		if (pty_config_check_dir(dir, path, err, errlen) != 0)
			return -1;
		if (len == 1)
			return 0;
	}
}

int
pty_secure_open(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd, flags;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (path == NULL)
		return pty_config_fail(err, errlen, "(null): no path");
	if (path[0] != '/')
		return pty_config_fail(err, errlen, "%s: not an absolute path",
				       path);
	/* O_NONBLOCK as well: opening a FIFO for reading would otherwise
	 * wait for a writer; fstat refuses it right after. */
	fd = open(path,
		  O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return pty_config_open_failed(path, errno, err, errlen);
	if (fstat(fd, &st) != 0) {
		(void)pty_config_fail(err, errlen, "%s: cannot stat: %s", path,
				      strerror(errno));
		goto fail;
	}
	if (pty_config_check_file(path, &st, err, errlen) != 0 ||
	    pty_config_check_dirs(path, err, errlen) != 0)
		goto fail;
	/* a regular file ignores O_NONBLOCK, but the caller did not ask
	 * for it: give back an ordinary descriptor */
	if ((flags = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		(void)pty_config_fail(err, errlen, "%s: fcntl: %s", path,
				      strerror(errno));
		goto fail;
	}
	return fd;
fail:
	(void)close(fd);
	return -1;
}

/* read(2) until it answers, on EINTR again. */
static ssize_t
pty_config_read(int fd, char *buf, size_t n)
{
	ssize_t got;

	do
		got = read(fd, buf, n);
	while (got < 0 && errno == EINTR);
	return got;
}

int
pty_read_whole(int fd, const char *path, size_t max, char **text, size_t *len,
	       char *err, size_t errlen)
{
	struct stat st;
	char *buf = NULL, probe;
	size_t cap, used = 0;
	ssize_t got;

	*text = NULL; /* cleared first: a failure leaves nothing to free */
	*len = 0;
	if (max > SIZE_MAX - 1)
		max = SIZE_MAX - 1; /* room for the NUL */
	if (fstat(fd, &st) != 0) {
		(void)pty_config_fail(err, errlen, "%s: cannot stat: %s", path,
				      strerror(errno));
		goto fail;
	}
	if (st.st_size < 0 || (uintmax_t)st.st_size > max) {
		(void)pty_config_fail(err, errlen,
				      "%s: too big (%jd bytes, at most %zu)",
				      path, (intmax_t)st.st_size, max);
		goto fail;
	}
	/* st_size is a hint only: the file may still change under us, so
	 * the buffer grows and the bound is enforced on what is read */
	cap = (size_t)st.st_size;
	if ((buf = malloc(cap + 1)) == NULL)
		goto no_memory;
	for (;;) {
		if (used == cap) {
			char *grown;
			size_t ncap;

			if (cap == max) {
				/* full at the bound: one byte more is too
				 * much */
				got = pty_config_read(fd, &probe, 1);
				if (got == 0)
					break;
				if (got < 0)
					goto read_error;
				(void)pty_config_fail(
				    err, errlen,
				    "%s: too big (more than %zu bytes)", path,
				    max);
				goto fail;
			}
			/* min(max, 2 * cap + 4096), written so it cannot
			 * wrap */
			ncap = max - cap <= cap + 4096 ? max : 2 * cap + 4096;
			if ((grown = realloc(buf, ncap + 1)) == NULL)
				goto no_memory;
			buf = grown;
			cap = ncap;
		}
		got = pty_config_read(fd, buf + used, cap - used);
		if (got < 0)
			goto read_error;
		if (got == 0)
			break;
		used += (size_t)got;
	}
	buf[used] = '\0';
	*text = buf;
	*len = used;
	return 0;
read_error:
	(void)pty_config_fail(err, errlen, "%s: read error: %s", path,
			      strerror(errno));
	goto fail;
no_memory:
	(void)pty_config_fail(err, errlen, "%s: out of memory", path);
fail:
	free(buf);
	return -1;
}

int
pty_secure_read(const char *path, size_t max, char **text, size_t *len,
		char *err, size_t errlen)
{
	int fd, rc;

	*text = NULL;
	*len = 0;
	if ((fd = pty_secure_open(path, err, errlen)) < 0)
		return -1;
	rc = pty_read_whole(fd, path, max, text, len, err, errlen);
	(void)close(fd);
	return rc;
}

static bool
pty_config_is_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* The value is quoted back at most PTY_CONFIG_QUOTE_MAX bytes long. */
static int
pty_config_quote_len(size_t n)
{
	return (int)(n > PTY_CONFIG_QUOTE_MAX ? PTY_CONFIG_QUOTE_MAX : n);
}

/* Stores a checked value of n bytes in its field, if it fits. */
static int
pty_config_store(struct pty_config_parse *p, const struct pty_config_key *k,
		 char *field, const char *v, size_t n)
{
	if (n >= k->size)
		return pty_config_fail(
		    p->err, p->errlen,
		    "%s:%u: %s: too long (at most %zu bytes)", p->path,
		    p->lineno, k->name, k->size - 1);
	memcpy(field, v, n);
	field[n] = '\0';
	return 0;
}

static int
pty_config_set_path(struct pty_config_parse *p, const struct pty_config_key *k,
		    char *field, const char *v, size_t n)
{
	if (v[0] != '/')
		return pty_config_fail(
		    p->err, p->errlen,
		    "%s:%u: %s: '%.*s' is not an absolute path", p->path,
		    p->lineno, k->name, pty_config_quote_len(n), v);
	return pty_config_store(p, k, field, v, n);
}

/* PATH of sessions: an empty entry would mean the current directory and a
 * relative one a directory the user picks with cd, so both are refused. */
static int
pty_config_set_path_list(struct pty_config_parse *p,
			 const struct pty_config_key *k, char *field,
			 const char *v, size_t n)
{
	size_t i = 0;

	while (i <= n) {
		const char *colon = memchr(v + i, ':', n - i);
		size_t end = colon != NULL ? (size_t)(colon - v) : n;

		if (end == i)
			return pty_config_fail(p->err, p->errlen,
					       "%s:%u: %s: an empty entry "
					       "(it would mean the current "
					       "directory)",
					       p->path, p->lineno, k->name);
		if (v[i] != '/')
			return pty_config_fail(
			    p->err, p->errlen,
			    "%s:%u: %s: '%.*s' is not an absolute directory",
			    p->path, p->lineno, k->name,
			    pty_config_quote_len(end - i), v + i);
		i = end + 1;
	}
	return pty_config_store(p, k, field, v, n);
}

static int
pty_config_set_bool(struct pty_config_parse *p, const struct pty_config_key *k,
		    bool *field, const char *v, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof pty_config_bools / sizeof pty_config_bools[0];
	     i++) {
		const char *w = pty_config_bools[i].word;

		if (strlen(w) == n && memcmp(w, v, n) == 0) {
			*field = pty_config_bools[i].value;
			return 0;
		}
	}
	return pty_config_fail(
	    p->err, p->errlen,
	    "%s:%u: %s: '%.*s' is not on, off, yes, no, true or false", p->path,
	    p->lineno, k->name, pty_config_quote_len(n), v);
}

/* Decimal digits only: no sign, no blanks, no 0x, nothing after (strtoull
 * alone would take " +12"), then the range. */
static int
pty_config_set_uint(struct pty_config_parse *p, const struct pty_config_key *k,
		    unsigned *field, const char *v, size_t n)
{
	char digits[24], *end;
	unsigned long long value;
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] < '0' || v[i] > '9')
			return pty_config_fail(
			    p->err, p->errlen,
			    "%s:%u: %s: '%.*s' is not a decimal number",
			    p->path, p->lineno, k->name,
			    pty_config_quote_len(n), v);
	while (n > 1 && v[0] == '0') {
		v++; /* leading zeros do not count towards the length */
		n--;
	}
	if (n >= sizeof digits)
		goto range;
	memcpy(digits, v, n);
	digits[n] = '\0';
	errno = 0;
	value = strtoull(digits, &end, 10);
	if (errno != 0 || *end != '\0' || value > k->max)
		goto range;
	*field = (unsigned)value;
	return 0;
range:
	return pty_config_fail(
	    p->err, p->errlen, "%s:%u: %s: '%.*s' is out of range (0 to %u)",
	    p->path, p->lineno, k->name, pty_config_quote_len(n), v, k->max);
}

static int
pty_config_set_audit_failure(struct pty_config_parse *p,
			     const struct pty_config_key *k,
			     enum pty_audit_failure *field, const char *v,
			     size_t n)
{
	if (n == 4 && memcmp(v, "deny", 4) == 0)
		*field = PTY_AUDIT_FAIL_DENY;
	else if (n == 9 && memcmp(v, "terminate", 9) == 0)
		*field = PTY_AUDIT_FAIL_TERMINATE;
	else
		return pty_config_fail(
		    p->err, p->errlen,
		    "%s:%u: %s: '%.*s' is not deny or terminate", p->path,
		    p->lineno, k->name, pty_config_quote_len(n), v);
	return 0;
}

/* syslog: on and off as any boolean; records is on, and every audit
 * record sent too (struct pty_config). */
static int
pty_config_set_syslog(struct pty_config_parse *p,
		      const struct pty_config_key *k, struct pty_config *c,
		      const char *v, size_t n)
{
	if (n == 7 && memcmp(v, "records", 7) == 0) {
		c->syslog = true;
		c->syslog_records = true;
		return 0;
	}
	c->syslog_records = false;
	if (pty_config_set_bool(p, k, &c->syslog, v, n) == 0)
		return 0;
	return pty_config_fail(
	    p->err, p->errlen,
	    "%s:%u: %s: '%.*s' is not on, off, records, yes, no, true or "
	    "false",
	    p->path, p->lineno, k->name, pty_config_quote_len(n), v);
}

static int
pty_config_set_choice(struct pty_config_parse *p,
		      const struct pty_config_key *k, bool *field,
		      const char *v, size_t n)
{
	size_t i;

	for (i = 0; i < 2; i++)
		if (n == strlen(k->words[i]) && memcmp(v, k->words[i], n) == 0) {
			*field = i == 1;
			return 0;
		}
	return pty_config_fail(p->err, p->errlen,
			       "%s:%u: %s: '%.*s' is not %s or %s", p->path,
			       p->lineno, k->name, pty_config_quote_len(n), v,
			       k->words[0], k->words[1]);
}

/* record_max, record_share: decimal digits and an optional K, M or G
 * (powers of 1024), within PTY_CONFIG_RECORD_MAX_MIN..
 * PTY_CONFIG_RECORD_MAX_MAX. */
static int
pty_config_set_size(struct pty_config_parse *p, const struct pty_config_key *k,
		    unsigned long long *field, const char *v, size_t n)
{
	unsigned long long value = 0, unit = 1;
	size_t i, digits = n;

	if (n > 0 && (v[n - 1] == 'K' || v[n - 1] == 'M' || v[n - 1] == 'G')) {
		unit = v[n - 1] == 'K'	 ? 1ull << 10
		       : v[n - 1] == 'M' ? 1ull << 20
					 : 1ull << 30;
		digits = n - 1;
	}
	for (i = 0; i < digits; i++) {
		if (v[i] < '0' || v[i] > '9')
			digits = 0;
		else if (value <= PTY_CONFIG_RECORD_MAX_MAX)
			value = value * 10 + (unsigned long long)(v[i] - '0');
	}
	if (digits == 0)
		return pty_config_fail(
		    p->err, p->errlen,
		    "%s:%u: %s: '%.*s' is not a size (bytes, or a number "
		    "with K, M or G)",
		    p->path, p->lineno, k->name, pty_config_quote_len(n), v);
	if (value > PTY_CONFIG_RECORD_MAX_MAX / unit ||
	    value * unit < PTY_CONFIG_RECORD_MAX_MIN ||
	    value * unit > PTY_CONFIG_RECORD_MAX_MAX)
		return pty_config_fail(p->err, p->errlen,
				       "%s:%u: %s: '%.*s' is out of range "
				       "(1M to 64G)",
				       p->path, p->lineno, k->name,
				       pty_config_quote_len(n), v);
	*field = value * unit;
	return 0;
}

static int
pty_config_set(struct pty_config_parse *p, const struct pty_config_key *k,
	       struct pty_config *c, const char *v, size_t n)
{
	char *field = (char *)c + k->offset;

	switch (k->kind) {
	case PTY_CONFIG_PATH:
		return pty_config_set_path(p, k, field, v, n);
	case PTY_CONFIG_PATH_LIST:
		return pty_config_set_path_list(p, k, field, v, n);
	case PTY_CONFIG_BOOL:
		return pty_config_set_bool(p, k, (bool *)(void *)field, v, n);
	case PTY_CONFIG_UINT:
		return pty_config_set_uint(p, k, (unsigned *)(void *)field, v,
					   n);
	case PTY_CONFIG_AUDIT_FAILURE:
		return pty_config_set_audit_failure(
		    p, k, (enum pty_audit_failure *)(void *)field, v, n);
	case PTY_CONFIG_CHOICE:
		return pty_config_set_choice(p, k, (bool *)(void *)field, v, n);
	case PTY_CONFIG_SYSLOG:
		return pty_config_set_syslog(p, k, c, v, n);
	case PTY_CONFIG_SIZE:
		return pty_config_set_size(
		    p, k, (unsigned long long *)(void *)field, v, n);
	}
	return pty_config_fail(p->err, p->errlen, "%s:%u: %s: unknown kind",
			       p->path, p->lineno, k->name);
}

/* One line, without its newline. */
static int
pty_config_parse_line(struct pty_config_parse *p, struct pty_config *c,
		      const char *line, size_t n)
{
	const char *eq, *key, *v;
	size_t i, klen, vlen;

	for (i = 0; i < n; i++) {
		unsigned char b = (unsigned char)line[i];

		if (b == '\0')
			return pty_config_fail(p->err, p->errlen,
					       "%s:%u: a NUL byte", p->path,
					       p->lineno);
		/* a stray CR (a file saved with CRLF) or escape would
		 * otherwise end up inside a path */
		if ((b < 0x20 && b != '\t') || b == 0x7f)
			return pty_config_fail(
			    p->err, p->errlen,
			    "%s:%u: a control character (0x%02x)", p->path,
			    p->lineno, b);
	}
	for (i = 0; i < n && pty_config_is_blank(line[i]); i++)
		;
	if (i == n || line[i] == '#')
		return 0;
	key = line + i;
	if ((eq = memchr(key, '=', n - i)) == NULL)
		return pty_config_fail(p->err, p->errlen,
				       "%s:%u: expected 'key = value'", p->path,
				       p->lineno);
	for (klen = (size_t)(eq - key);
	     klen > 0 && pty_config_is_blank(key[klen - 1]); klen--)
		;
	if (klen == 0)
		return pty_config_fail(p->err, p->errlen,
				       "%s:%u: no key before '='", p->path,
				       p->lineno);
	v = eq + 1;
	vlen = (size_t)(line + n - v);
	while (vlen > 0 && pty_config_is_blank(v[0])) {
		v++;
		vlen--;
	}
	while (vlen > 0 && pty_config_is_blank(v[vlen - 1]))
		vlen--;
	for (i = 0; i < PTY_CONFIG_KEY_COUNT; i++) {
		const struct pty_config_key *k = &pty_config_keys[i];

		if (strlen(k->name) != klen || memcmp(k->name, key, klen) != 0)
			continue;
		if (p->seen[i] != 0)
			return pty_config_fail(
			    p->err, p->errlen,
			    "%s:%u: duplicate key '%s' (first on line %u)",
			    p->path, p->lineno, k->name, p->seen[i]);
		p->seen[i] = p->lineno;
		if (vlen == 0)
			return pty_config_fail(p->err, p->errlen,
					       "%s:%u: %s: no value", p->path,
					       p->lineno, k->name);
		return pty_config_set(p, k, c, v, vlen);
	}
	return pty_config_fail(p->err, p->errlen, "%s:%u: unknown key '%.*s'",
			       p->path, p->lineno, pty_config_quote_len(klen),
			       key);
}

static int
pty_config_parse_text(struct pty_config_parse *p, struct pty_config *c,
		      const char *text, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl != NULL ? (size_t)(nl - line) : len - pos;

		p->lineno++;
		pos += n + (nl != NULL);
		if (n > PTY_CONFIG_LINE_MAX)
			return pty_config_fail(
			    p->err, p->errlen,
			    "%s:%u: line longer than %d bytes", p->path,
			    p->lineno, PTY_CONFIG_LINE_MAX);
		if (pty_config_parse_line(p, c, line, n) != 0)
			return -1;
	}
	if (p->seen[PTY_CONFIG_KEY_POLICY] == 0)
		return pty_config_fail(p->err, p->errlen,
				       "%s: no policy ('policy = /path' is "
				       "required)",
				       p->path);
	if (p->seen[PTY_CONFIG_KEY_AUDIT_LOG] != 0 &&
	    p->seen[PTY_CONFIG_KEY_AUDIT_KEY] == 0)
		return pty_config_fail(
		    p->err, p->errlen, "%s:%u: audit_log without audit_key",
		    p->path, p->seen[PTY_CONFIG_KEY_AUDIT_LOG]);
	if (p->seen[PTY_CONFIG_KEY_AUDIT_VERIFY_KEY] == 0 &&
	    pty_config_default_verify_key(c) != 0)
		return pty_config_fail(
		    p->err, p->errlen,
		    "%s:%u: audit_key: too long a path for the audit.pub "
		    "beside it",
		    p->path, p->seen[PTY_CONFIG_KEY_AUDIT_KEY]);
	/* the audit writer keeps the recording, out of the user's reach */
	if (p->seen[PTY_CONFIG_KEY_RECORD] != 0 &&
	    p->seen[PTY_CONFIG_KEY_AUDIT_LOG] == 0)
		return pty_config_fail(
		    p->err, p->errlen,
		    "%s:%u: record without audit_log (the audit writer keeps "
		    "the recording)",
		    p->path, p->seen[PTY_CONFIG_KEY_RECORD]);
	return 0;
}

int
pty_config_load(const char *path, struct pty_config *c, char *err,
		size_t errlen)
{
	struct pty_config_parse p = {
	    .path = path, .err = err, .errlen = errlen};
	struct pty_config parsed;
	char *text;
	size_t len;
	int rc;

	pty_config_defaults(c);
	if (pty_secure_read(path, PTY_CONFIG_SIZE_MAX, &text, &len, err,
			    errlen) != 0)
		return -1;
	/* parsed aside, so a failure leaves *c at the defaults rather than
	 * half of a refused file */
	pty_config_defaults(&parsed);
	rc = pty_config_parse_text(&p, &parsed, text, len);
	free(text);
	if (rc != 0)
		return -1;
	*c = parsed;
	return 0;
}
