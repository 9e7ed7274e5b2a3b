/* SPDX-License-Identifier: MIT */
/*
 * Reading what a process asked execve(2)/execveat(2) to run, from its
 * memory and its /proc entries, while the kernel holds it in the seccomp
 * notification (seccomp_unotify(2)):
 *   - the path and argv are read, bounded (PATH_MAX, PTY_EXEC_ARGS_MAX
 *     entries, PTY_EXEC_BYTES_MAX bytes): more is refused, never decided
 *     on a part (exec_mem.c: process_vm_readv, or /proc/PID/mem when the
 *     call cannot read them) - but a path of PATH_MAX bytes or more is
 *     answered ENAMETOOLONG, as the kernel would answer it; then the
 *     notification is checked still valid (SECCOMP_IOCTL_NOTIF_ID_VALID),
 *     so that what was read is the request of a process still waiting -
 *     whose PID, while it waits, cannot name another process;
 *   - the directory and the executable of the asking process when the
 *     policy or the audit log reads them (exec_cwd, exec_parent: the
 *     caller's `need`; a directory deeper than the kernel names is named
 *     by exec_cwd.c, up to PTY_CWD_MAX bytes, and one that cannot be
 *     named refuses the exec: no other name is given), and the file the
 *     path leads to from the process's directory (or execveat's directory
 *     descriptor), walked by the guard one name at a time (exec_walk.c:
 *     the magic links of /proc refused, and whatever the user could
 *     change on the way noted) and named by itself; then what that file
 *     leads to, #! interpreters and the loader's program (exec_chain.c);
 *     checked valid a last time, so that every /proc entry read on the
 *     way was the waiting process's.
 *   The process's /proc directory and its working directory are opened
 *   once, and only when something needs them: an absolute path whose
 *   facts do not include the directory or the parent reads no /proc
 *   entry of the process at all.
 * Whatever refuses a request, its record names what was asked: the path
 * as read, made absolute when its directory has a name (exec_request,
 * named before anything else can refuse it, and read again alone when the
 * argument list was the trouble), and the program once it is found
 * (exec_path); only a path that cannot be read at all is left out, and
 * the refusal's reason says so.
 * What the process may still change after the check in its own memory
 * (another thread rewriting the path or argv) is beyond any reader: that
 * takes code of the user's own running in the process, which the threat
 * model of maelys-pty(1) discusses; the kernel-side Landlock rules bound
 * what it can reach (pty/exec/landlock.c).
 */
#define _GNU_SOURCE
#include "pty_supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <seccomp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* The process's /proc entries, each opened once and only when needed.  */

void
pty_exec_proc_init(struct pty_exec_proc *p, const struct pty_exec_env *e,
		   pid_t pid)
{
	p->root = e != NULL ? e->root : -1;
	p->proc = e != NULL ? e->proc : -1;
	p->self_fd = e != NULL ? pty_exec_self_fd(e) : -1;
	p->pid = pid;
	p->dir = p->cwd = -1;
	p->argv_addr = 0;
	p->named = false;
	p->cwd_name[0] = '\0';
	p->cwd_why[0] = '\0';
}

/* Every entry is reached through one descriptor of /proc/PID, opened
 * once: a new process's /proc entries are looked up slowly, and a
 * descriptor of a process that is gone fails rather than name another. */
int
pty_exec_proc_dir(struct pty_exec_proc *p)
{
	char name[32];

	if (p->dir >= 0)
		return p->dir;
	if (p->proc >= 0) {
		(void)snprintf(name, sizeof name, "%d", (int)p->pid);
		p->dir =
		    openat(p->proc, name, O_PATH | O_DIRECTORY | O_CLOEXEC);
	} else {
		(void)snprintf(name, sizeof name, "/proc/%d", (int)p->pid);
		p->dir = open(name, O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	return p->dir;
}

/* readlinkat(2) of NAME in the process's /proc directory; 0, or -1. */
static int
exec_proc_link(struct pty_exec_proc *p, const char *name, char *out, size_t cap)
{
	int dir = pty_exec_proc_dir(p);
	ssize_t n = dir < 0 ? -1 : readlinkat(dir, name, out, cap - 1);

	if (n <= 0 || (size_t)n >= cap - 1) {
		out[0] = '\0';
		return -1;
	}
	out[n] = '\0';
	return 0;
}

int
pty_exec_proc_cwd(struct pty_exec_proc *p)
{
	int dir;

	if (p->cwd >= 0)
		return p->cwd;
	dir = pty_exec_proc_dir(p);
	if (dir >= 0)
		p->cwd = openat(dir, "cwd", O_PATH | O_DIRECTORY | O_CLOEXEC);
	return p->cwd;
}

const char *
pty_exec_proc_cwd_name(struct pty_exec_proc *p)
{
	int cwd;

	if (p->named || p->cwd_why[0] != '\0')
		return p->named ? p->cwd_name : NULL;
	/* the kernel's name, without opening the directory; past the
	 * length it prints, or where the kernel marks it removed (a folder
	 * may be called so too), named from the directory itself */
	if (exec_proc_link(p, "cwd", p->cwd_name, sizeof p->cwd_name) == 0 &&
	    !pty_exec_name_deleted(p->cwd_name)) {
		p->named = true;
		return p->cwd_name;
	}
	cwd = pty_exec_proc_cwd(p);
	if (cwd < 0)
		(void)snprintf(p->cwd_why, sizeof p->cwd_why,
			       "it cannot be opened (%s)", strerror(errno));
	else if (pty_exec_cwd_name(p->self_fd, cwd, p->cwd_name,
				   sizeof p->cwd_name, p->cwd_why,
				   sizeof p->cwd_why) == 0)
		p->named = true;
	else if (p->cwd_why[0] == '\0')
		(void)snprintf(p->cwd_why, sizeof p->cwd_why,
			       "it cannot be named");
	return p->named ? p->cwd_name : NULL;
}

void
pty_exec_proc_close(struct pty_exec_proc *p)
{
	if (p->cwd >= 0)
		(void)close(p->cwd);
	if (p->dir >= 0)
		(void)close(p->dir);
	p->cwd = p->dir = -1;
}

int
pty_exec_proc_argv(struct pty_exec_proc *p, struct pty_exec_request *r,
		   char *err, size_t errlen)
{
	int rc;

	if (!r->args_unread)
		return 0;
	rc = pty_exec_read_args(p, 0, p->argv_addr, PTY_EXEC_MEM_ANY, NULL, r,
				err, errlen);
	if (rc == 0)
		r->args_unread = false;
	return rc;
}

static int exec_fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
exec_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return PTY_EXEC_READ_REFUSE;
}

/* Where the path starts: *from (a descriptor to close unless it is
 * p->cwd, or -1 for an absolute path, which the walk starts at the
 * root), the name of that directory in base (PTY_CWD_MAX bytes; "" when
 * it cannot be named, err then saying why: a relative path cannot be
 * made absolute) and the name the kernel gives a script's interpreter
 * (kname).  0, or an errno. */
static int
exec_start(struct pty_exec_proc *p, const char *raw, bool at, int dirfd,
	   int *from, char *base, char *kname, char *err, size_t errlen)
{
	char start[64], why[256];
	int dir;

	*from = -1;
	base[0] = '\0';
	if (raw[0] == '/') {
		(void)snprintf(base, PTY_CWD_MAX, "/");
		(void)snprintf(kname, PATH_MAX + 64, "%s", raw);
		return 0;
	}
	if (dirfd == AT_FDCWD || !at) {
		const char *cwd = pty_exec_proc_cwd_name(p);

		if (cwd != NULL)
			(void)snprintf(base, PTY_CWD_MAX, "%s", cwd);
		else
			(void)exec_fail(err, errlen,
					"its working directory cannot be "
					"named (%s)",
					p->cwd_why);
		(void)snprintf(kname, PATH_MAX + 64, "%s", raw);
		*from = pty_exec_proc_cwd(p); /* p's: not to close */
		return *from < 0 ? (errno == ENOENT ? ENOENT : EBADF) : 0;
	}
	(void)snprintf(start, sizeof start, "fd/%d", dirfd);
	(void)snprintf(kname, PATH_MAX + 64, "/dev/fd/%d%s%s", dirfd,
		       raw[0] != '\0' ? "/" : "", raw);
	dir = pty_exec_proc_dir(p);
	*from = dir < 0 ? -1 : openat(dir, start, O_PATH | O_CLOEXEC);
	if (*from < 0)
		return errno == ENOENT ? ENOENT : EBADF;
	if (pty_exec_cwd_name(p->self_fd, *from, base, PTY_CWD_MAX, why,
			      sizeof why) != 0)
		(void)exec_fail(err, errlen,
				"the folder of its descriptor %d cannot be "
				"named (%s)",
				dirfd, why);
	return 0;
}

/* exec_request: the path made absolute against the directory it starts
 * from (base) and tidied; when that directory has no name, the path as
 * the process gave it (kname for a descriptor's own file), so that the
 * record of its refusal still names what was asked. */
static void
exec_name_request(struct pty_exec_request *r, const char *raw, const char *base,
		  const char *kname)
{
	char joined[PTY_CWD_MAX];

	if (base[0] != '\0' &&
	    pty_path_normalise("/", base, joined, sizeof joined) == 0 &&
	    pty_path_normalise(joined, raw, r->request, sizeof r->request) == 0)
		return;
	(void)snprintf(r->request, sizeof r->request, "%s",
		       raw[0] != '\0' ? raw : kname);
}

/* The request's directory and asking program, when the policy or the
 * audit log reads them (`need`), and the file its path leads to
 * (pty_exec_walk, from the process's directory or execveat's
 * descriptor, opened through /proc/PID as the process sees them), then
 * everything that file leads to (pty_exec_expand).  What was asked is
 * named first (exec_request), and the file before the directory is asked
 * for: a refusal's record names both.  0, an errno, or REFUSE / UNSAFE. */
static int
exec_locate(struct pty_exec_proc *p, const char *raw, bool at, int dirfd,
	    int flags, unsigned need, const struct pty_exec_env *env,
	    struct pty_exec_chain *c, char *err, size_t errlen)
{
	struct pty_exec_request *r = c->rq[0];
	char base[PTY_CWD_MAX], kname[PATH_MAX + 64];
	struct pty_exec_walk w;
	int from, rc;

	if ((need & PTY_EXEC_NEED_PARENT) != 0)
		(void)exec_proc_link(p, "exe", r->parent, sizeof r->parent);
	if (raw[0] == '\0' && !(at && (flags & AT_EMPTY_PATH)))
		return ENOENT; /* what the kernel answers */
	rc = exec_start(p, raw, at, dirfd, &from, base, kname, err, errlen);
	exec_name_request(r, raw, base, kname);
	if (rc != 0)
		return rc;
	rc = raw[0] == '\0'
		 ? pty_exec_walk_fd(from, &w)
		 : pty_exec_walk(p->root, from, raw, &w, err, errlen);
	if (from >= 0 && from != p->cwd)
		(void)close(from);
	if (rc == 0)
		rc = pty_exec_walk_name(p->self_fd, &w, r->path, sizeof r->path,
					err, errlen);
	/* a relative path from a directory without a name has no
	 * exec_request: refused (err says why: exec_start) */
	if (rc == 0 && base[0] == '\0' && raw[0] != '\0')
		rc = PTY_EXEC_READ_REFUSE;
	if (rc == 0 && (need & PTY_EXEC_NEED_CWD) != 0) {
		const char *cwd = pty_exec_proc_cwd_name(p);

		if (cwd == NULL)
			rc = exec_fail(err, errlen,
				       "its working directory cannot be named "
				       "(%s)",
				       p->cwd_why);
		else
			(void)snprintf(r->cwd, sizeof r->cwd, "%s", cwd);
	}
	if (rc != 0) {
		if (w.fd >= 0)
			(void)close(w.fd);
		return rc;
	}
	/* interpreters are looked up from the process's directory */
	return pty_exec_expand(env, p, kname, &w, c, err, errlen);
}

/* The path, or the argument list, could not be read whole: the record of
 * the refusal still names what was asked - the path read alone when it
 * reads (its argument list was the trouble), made absolute when its
 * directory has a name.  `err` keeps the reason of the refusal. */
static void
exec_name_unread(struct pty_exec_proc *p, uint64_t path_addr, bool at,
		 int dirfd, struct pty_exec_request *r)
{
	char raw[PATH_MAX], base[PTY_CWD_MAX], kname[PATH_MAX + 64], why[512];
	int from;

	if (pty_exec_read_args(p, path_addr, 0, PTY_EXEC_MEM_ANY, raw, NULL,
			       why, sizeof why) != 0)
		return; /* the path itself: the reason says so */
	if (exec_start(p, raw, at, dirfd, &from, base, kname, why,
		       sizeof why) == 0 &&
	    from >= 0 && from != p->cwd)
		(void)close(from);
	exec_name_request(r, raw, base, kname);
}

int
pty_exec_read(int listener, const struct seccomp_notif *n,
	      const struct pty_exec_env *env, unsigned need,
	      struct pty_exec_chain *c, char *err, size_t errlen)
{
	struct pty_exec_request *r = c->rq[0];
	struct pty_exec_proc p;
	char raw[PATH_MAX];
	uint64_t path_addr, argv_addr;
	int dirfd = AT_FDCWD, flags = 0, rc;
	bool at = n->data.nr == SYS_execveat;

	c->n = 1;
	r->pid = (pid_t)n->pid;
	r->path[0] = r->request[0] = r->cwd[0] = r->parent[0] = '\0';
	r->via = PTY_EXEC_VIA_EXECVE;
	r->through[0] = '\0';
	r->argc = 0;
	/* argv, when no rule and no log reads it, only if a #! script or the
	 * loader needs it (pty_exec_proc_argv) */
	r->args_unread = (need & PTY_EXEC_NEED_ARGV) == 0;
	if (at) {
		dirfd = (int)n->data.args[0];
		path_addr = n->data.args[1];
		argv_addr = n->data.args[2];
		flags = (int)n->data.args[4];
	} else {
		path_addr = n->data.args[0];
		argv_addr = n->data.args[1];
	}
	pty_exec_proc_init(&p, env, r->pid);
	p.argv_addr = argv_addr;
	rc = pty_exec_read_args(&p, path_addr, argv_addr, PTY_EXEC_MEM_ANY, raw,
				r->args_unread ? NULL : r, err, errlen);
	if (rc == PTY_EXEC_READ_REFUSE)
		exec_name_unread(&p, path_addr, at, dirfd, r);
	else if (rc == 0)
		rc = exec_locate(&p, raw, at, dirfd, flags, need, env, c, err,
				 errlen);
	pty_exec_proc_close(&p);
	/* whatever the outcome, it was learnt from a process still waiting,
	 * whose PID therefore named it all along (exec_mem.c): checked once
	 * after every read, before anything is answered or recorded */
	if (seccomp_notify_id_valid(listener, n->id) != 0)
		return PTY_EXEC_READ_GONE;
	return rc;
}
