/* SPDX-License-Identifier: MIT */
/*
 * The programs one exec request leads to (pty_exec_chain.h).
 *
 * The kernel runs more than the file a process names: the interpreter of
 * a #! script (and its interpreter, if that is a script too) inside the
 * same execve, and a file matched by a binfmt_misc entry through that
 * entry's interpreter; and the dynamic loader run as a program maps and
 * runs the program named on its command line without any exec.  A policy
 * that refuses PROG by its path must refuse it however it is reached, so
 * each of these is decided as an exec of its own (exec_via "shebang" or
 * "loader"), with the argv it will see.  binfmt_misc is not followed:
 * an exec the kernel would hand to one of its entries is refused.
 *
 * Every program found is walked like the first (pty_exec_walk): if the
 * user could change any of them between the check and the exec, the
 * request is refused.
 */
#define _GNU_SOURCE
#include "pty_exec_chain.h"

#include "pty_exec_parse.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#define CHAIN_BINFMT_DIR "/proc/sys/fs/binfmt_misc"

/* ------------------------------------------------------------------ */
/* What a session's supervisor learns once: loaders, binfmt_misc.      */

/* Adds the file at `path` to the loaders if it is a regular file. */
static void
chain_add_loader(struct pty_exec_env *e, int dir, const char *name)
{
	struct stat st;
	size_t i;

	if (e->nloaders == PTY_EXEC_LOADERS_MAX ||
	    fstatat(dir, name, &st, 0) != 0 || !S_ISREG(st.st_mode))
		return;
	for (i = 0; i < e->nloaders; i++)
		if (e->loader[i].dev == st.st_dev &&
		    e->loader[i].ino == st.st_ino)
			return;
	e->loader[e->nloaders].dev = st.st_dev;
	e->loader[e->nloaders++].ino = st.st_ino;
}

/* "ld-linux-x86-64.so.2", "ld-musl-x86_64.so.1", "ld.so.1": a loader's
 * name. */
static bool
chain_loader_name(const char *name)
{
	return (strncmp(name, "ld-", 3) == 0 ||
		strncmp(name, "ld.so", 5) == 0) &&
	       strstr(name, ".so") != NULL;
}

/* The loaders in `path` and in its folders one level down (Debian's
 * multiarch /usr/lib/x86_64-linux-gnu). */
static void
chain_scan_loaders(struct pty_exec_env *e, const char *path, int depth)
{
	DIR *d = opendir(path);
	struct dirent *de;

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		char sub[PATH_MAX];

		if (de->d_name[0] == '.')
			continue;
		if (chain_loader_name(de->d_name))
			chain_add_loader(e, dirfd(d), de->d_name);
		else if (depth > 0 && de->d_type == DT_DIR &&
			 snprintf(sub, sizeof sub, "%s/%s", path, de->d_name) <
			     (int)sizeof sub)
			chain_scan_loaders(e, sub, depth - 1);
	}
	closedir(d);
}

/* dl_iterate_phdr: the name of the object loaded at AT_BASE. */
struct chain_base {
	uintptr_t base;
	char path[PATH_MAX];
};

static int
chain_find_base(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct chain_base *b = arg;

	(void)size;
	if (info->dlpi_addr == b->base && info->dlpi_name != NULL &&
	    info->dlpi_name[0] == '/') {
		(void)snprintf(b->path, sizeof b->path, "%s", info->dlpi_name);
		return 1;
	}
	return 0;
}

int
pty_exec_own_loader(char *path, size_t cap)
{
	struct chain_base b;

	memset(&b, 0, sizeof b);
	b.base = (uintptr_t)getauxval(AT_BASE);
	if (b.base == 0 || dl_iterate_phdr(chain_find_base, &b) != 1)
		return -1;
	(void)snprintf(path, cap, "%s", b.path);
	return 0;
}

/* The enabled binfmt_misc entries; 0, or -1 when they cannot be read
 * while binfmt_misc is on (then no exec can be judged). */
static int
chain_read_binfmt(struct pty_exec_env *e)
{
	DIR *d = opendir(CHAIN_BINFMT_DIR);
	struct dirent *de;
	char text[8192];
	int rc = 0;

	if (d == NULL)
		return 0; /* not mounted: the kernel uses no entry */
	while ((de = readdir(d)) != NULL && rc == 0) {
		struct pty_binfmt entry;
		ssize_t n;
		int fd;

		if (de->d_name[0] == '.' ||
		    strcmp(de->d_name, "register") == 0 ||
		    strcmp(de->d_name, "status") == 0)
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_CLOEXEC);
		n = fd < 0 ? -1 : read(fd, text, sizeof text);
		if (fd >= 0)
			(void)close(fd);
		if (n < 0 || (size_t)n == sizeof text ||
		    pty_binfmt_parse(text, (size_t)n, &entry) != 0) {
			rc = -1;
			break;
		}
		if (!entry.enabled)
			continue;
		if (e->nbinfmt == PTY_EXEC_BINFMT_MAX) {
			rc = -1;
			break;
		}
		e->binfmt[e->nbinfmt++] = entry;
	}
	closedir(d);
	return rc;
}

void
pty_exec_env_init(struct pty_exec_env *e)
{
	memset(e, 0, sizeof *e);
	e->root = e->proc = e->self_fd = -1;
}

/* The forks this process's memory has seen (in a child, one more than in
 * its parent when it forked). */
static volatile unsigned chain_forks;

static void
chain_on_fork(void)
{
	chain_forks++;
}

int
pty_exec_self_fd(const struct pty_exec_env *e)
{
	return e->self_fd >= 0 && chain_forks == e->self_forks ? e->self_fd
							       : -1;
}

int
pty_exec_env_prepare(struct pty_exec_env *e, char *err, size_t errlen)
{
	static const char *const roots[] = {
	    "/lib",     "/lib64",     "/lib32",    "/libx32",
	    "/usr/lib", "/usr/lib64", "/usr/lib32"};
	static bool watching; /* the fork handler is registered */
	char own[PATH_MAX];
	size_t i;

	pty_exec_env_init(e);
	/* opened once: every request reaches "/", /proc/PID and
	 * /proc/self/fd (without them, each is opened by its path) */
	if (!watching)
		watching = pthread_atfork(NULL, NULL, chain_on_fork) == 0;
	e->root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	e->proc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	e->self_fd =
	    watching ? open("/proc/self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC)
		     : -1;
	e->self_forks = chain_forks;
	e->binfmt = calloc(PTY_EXEC_BINFMT_MAX, sizeof *e->binfmt);
	if (e->binfmt == NULL) {
		(void)snprintf(err, errlen, "no memory for the exec checks");
		return -1;
	}
	for (i = 0; i < sizeof roots / sizeof roots[0]; i++)
		chain_scan_loaders(e, roots[i], 1);
	if (pty_exec_own_loader(own, sizeof own) == 0)
		chain_add_loader(e, AT_FDCWD, own);
	if (chain_read_binfmt(e) != 0) {
		(void)snprintf(err, errlen,
			       "the binfmt_misc entries of %s cannot be read "
			       "(or are more than %d): the exec checks need "
			       "them",
			       CHAIN_BINFMT_DIR, PTY_EXEC_BINFMT_MAX);
		pty_exec_env_free(e);
		return -1;
	}
	return 0;
}

void
pty_exec_env_free(struct pty_exec_env *e)
{
	free(e->binfmt);
	e->binfmt = NULL;
	e->nbinfmt = 0;
	if (e->root >= 0)
		(void)close(e->root);
	if (e->proc >= 0)
		(void)close(e->proc);
	if (e->self_fd >= 0)
		(void)close(e->self_fd);
	e->root = e->proc = e->self_fd = -1;
}

static bool
chain_is_loader(const struct pty_exec_env *e, const struct stat *st)
{
	size_t i;

	for (i = 0; i < e->nloaders; i++)
		if (e->loader[i].dev == st->st_dev &&
		    e->loader[i].ino == st->st_ino)
			return true;
	return false;
}

/* ------------------------------------------------------------------ */
/* Following one request.                                              */

static int chain_refuse(char *err, size_t errlen, int code, const char *fmt,
			...) __attribute__((format(printf, 4, 5)));

static int
chain_refuse(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return code;
}

/* The first bytes of the file, read through the guard's own descriptor
 * (reopened through /proc/self/fd: `selffd`, or by its path when -1). */
static int
chain_head(int selffd, int file, unsigned char *buf, size_t *len, char *err,
	   size_t errlen)
{
	char self[64];
	ssize_t n;
	int fd;

	if (selffd >= 0) {
		(void)snprintf(self, sizeof self, "%d", file);
		fd = openat(selffd, self,
			    O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	} else {
		(void)snprintf(self, sizeof self, "/proc/self/fd/%d", file);
		fd = open(self, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	}
	if (fd < 0)
		return chain_refuse(err, errlen, PTY_EXEC_READ_REFUSE,
				    "its file cannot be read to check how it "
				    "runs (%s)",
				    strerror(errno));
	do
		n = pread(fd, buf, PTY_SHEBANG_BUF, 0);
	while (n < 0 && errno == EINTR);
	(void)close(fd);
	if (n < 0)
		return chain_refuse(err, errlen, PTY_EXEC_READ_REFUSE,
				    "its file cannot be read to check how it "
				    "runs (%s)",
				    strerror(errno));
	*len = (size_t)n;
	return 0;
}

/* The next element's storage. */
static struct pty_exec_request *
chain_slot(struct pty_exec_chain *c)
{
	struct pty_exec_request *r;

	if (c->n == PTY_EXEC_CHAIN_MAX)
		return NULL;
	if (c->rq[c->n] == NULL)
		c->rq[c->n] = malloc(sizeof *c->rq[c->n]);
	r = c->rq[c->n];
	if (r != NULL)
		memset(r, 0, offsetof(struct pty_exec_request, argv));
	return r;
}

/* Appends a string to r's own bytes; returns it, or NULL when full. */
static const char *
chain_keep(struct pty_exec_request *r, size_t *used, const char *s, size_t n)
{
	char *p;

	if (n + 1 > sizeof r->bytes - *used)
		return NULL;
	p = r->bytes + *used;
	memcpy(p, s, n);
	p[n] = '\0';
	*used += n + 1;
	return p;
}

/* Sets r's argv to `head` (nhead strings of its own) and the tail of
 * `prev`'s from index `from`. */
static int
chain_argv(struct pty_exec_request *r, const char *const *head,
	   const size_t *head_len, size_t nhead,
	   const struct pty_exec_request *prev, size_t from, char *err,
	   size_t errlen)
{
	size_t used = 0, i, tail = prev->argc > from ? prev->argc - from : 0;

	if (nhead + tail > PTY_EXEC_ARGS_MAX)
		return chain_refuse(err, errlen, PTY_EXEC_READ_REFUSE, "%s",
				    "more arguments than the supervisor reads "
				    "(4096)");
	r->argc = 0;
	for (i = 0; i < nhead; i++) {
		const char *kept = chain_keep(r, &used, head[i], head_len[i]);

		if (kept == NULL)
			return chain_refuse(err, errlen, PTY_EXEC_READ_REFUSE,
					    "%s", "its arguments are too long");
		r->argv[r->argc] = kept;
		r->argv_len[r->argc++] = head_len[i];
	}
	for (i = 0; i < tail; i++) {
		r->argv[r->argc] = prev->argv[from + i];
		r->argv_len[r->argc++] = prev->argv_len[from + i];
	}
	return 0;
}

/* Walks `name` (as the kernel or the loader is given it: relative to the
 * process's directory, opened only then) for element r, and names what it
 * finds.  r->request is named first, as given when it cannot be made
 * absolute: a relative name from a directory without a name is then
 * refused, as the request itself would be (exec_read.c). */
static int
chain_locate(struct pty_exec_request *r, struct pty_exec_proc *p,
	     const char *name, struct pty_exec_walk *w, char *err,
	     size_t errlen)
{
	const char *base = "/";
	int start = -1, rc;

	w->fd = -1;
	if (name[0] != '/') {
		base = pty_exec_proc_cwd_name(p);
		start = pty_exec_proc_cwd(p);
	}
	if (base == NULL ||
	    pty_path_normalise(base, name, r->request, sizeof r->request) != 0)
		(void)snprintf(r->request, sizeof r->request, "%s", name);
	if (name[0] != '/' && start < 0)
		return chain_refuse(err, errlen, PTY_EXEC_READ_REFUSE, "%s",
				    "its working directory cannot be opened");
	rc = pty_exec_walk(p->root, start, name, w, err, errlen);
	if (rc == 0)
		rc = pty_exec_walk_name(p->self_fd, w, r->path, sizeof r->path,
					err, errlen);
	if (rc == 0 && base == NULL)
		rc = chain_refuse(err, errlen, PTY_EXEC_READ_REFUSE,
				  "its working directory cannot be named (%s)",
				  p->cwd_why);
	return rc;
}

/* The interpreter of the #! line `sb` of element `prev`, whose file the
 * kernel was given as `kname`. */
static int
chain_shebang(struct pty_exec_chain *c, struct pty_exec_proc *p,
	      const struct pty_shebang *sb, const char *kname,
	      struct pty_exec_walk *w, char *err, size_t errlen)
{
	const struct pty_exec_request *prev = c->rq[c->n - 1];
	struct pty_exec_request *r = chain_slot(c);
	const char *head[3];
	size_t head_len[3], nhead = 0;
	char name[PATH_MAX];
	int rc;

	if (r == NULL)
		return ELOOP; /* what the kernel answers past its depth */
	/* the interpreter is given the request's argv */
	rc = pty_exec_proc_argv(p, c->rq[0], err, errlen);
	if (rc != 0)
		return rc;
	if (sb->name_len >= sizeof name)
		return ENAMETOOLONG;
	memcpy(name, sb->name, sb->name_len);
	name[sb->name_len] = '\0';
	r->pid = prev->pid;
	(void)snprintf(r->cwd, sizeof r->cwd, "%s", prev->cwd);
	(void)snprintf(r->parent, sizeof r->parent, "%s", prev->parent);
	r->via = PTY_EXEC_VIA_SHEBANG;
	(void)snprintf(r->through, sizeof r->through, "%s", prev->path);
	/* argv as the kernel makes it: the interpreter as named, its
	 * argument, the script as the kernel was given it, then argv[1..] */
	head[nhead] = name;
	head_len[nhead++] = sb->name_len;
	if (sb->has_arg) {
		head[nhead] = sb->arg;
		head_len[nhead++] = sb->arg_len;
	}
	head[nhead] = kname;
	head_len[nhead++] = strlen(kname);
	/* named before anything can refuse it */
	(void)snprintf(r->request, sizeof r->request, "%s", name);
	rc = chain_argv(r, head, head_len, nhead, prev, 1, err, errlen);
	if (rc == 0)
		rc = chain_locate(r, p, name, w, err, errlen);
	c->n++;
	return rc;
}

/* The program the loader (element prev) is asked to run, if any.
 * Returns 1 when there is none. */
static int
chain_loader(const struct pty_exec_env *e, struct pty_exec_chain *c,
	     struct pty_exec_proc *p, struct pty_exec_walk *w, char *err,
	     size_t errlen)
{
	const struct pty_exec_request *prev = c->rq[c->n - 1];
	struct pty_loader_args la;
	struct pty_exec_request *r;
	const char *head[1];
	size_t head_len[1];
	int rc = pty_exec_proc_argv(p, c->rq[0], err, errlen);

	/* the loader's options and program are in the request's argv */
	if (rc != 0)
		return rc;
	if (pty_loader_parse(prev->argc, prev->argv, &la) != 0)
		return chain_refuse(err, errlen, PTY_EXEC_READ_UNSAFE, "%s",
				    "the dynamic loader is given an option the "
				    "guard does not know, so which word is the "
				    "program it runs cannot be told");
	if (!la.has_program)
		return 1; /* it prints its usage and exits */
	/* under a ruleset (exec locations, exec_never) the kernel refuses
	 * some files; the loader, always granted, would map one without
	 * asking */
	if (e->landlocked)
		return chain_refuse(err, errlen, PTY_EXEC_READ_UNSAFE,
				    "under the session's Landlock ruleset the "
				    "dynamic loader does not run programs: it "
				    "would run '%s' past the kernel's check",
				    prev->argv[la.program]);
	if (strchr(prev->argv[la.program], '/') == NULL)
		return chain_refuse(err, errlen, PTY_EXEC_READ_UNSAFE,
				    "the dynamic loader is asked to run '%s' "
				    "by a bare name, which it would look up "
				    "in its library path: name the program by "
				    "its path",
				    prev->argv[la.program]);
	if ((r = chain_slot(c)) == NULL)
		return chain_refuse(err, errlen, PTY_EXEC_READ_REFUSE, "%s",
				    "it leads to more programs than the "
				    "supervisor follows");
	r->pid = prev->pid;
	(void)snprintf(r->cwd, sizeof r->cwd, "%s", prev->cwd);
	(void)snprintf(r->parent, sizeof r->parent, "%s", prev->parent);
	r->via = PTY_EXEC_VIA_LOADER;
	(void)snprintf(r->through, sizeof r->through, "%s", prev->path);
	/* argv as the program sees it: its name (or --argv0), its args */
	head[0] = prev->argv[la.argv0 != 0 ? la.argv0 : la.program];
	head_len[0] = prev->argv_len[la.argv0 != 0 ? la.argv0 : la.program];
	(void)snprintf(r->request, sizeof r->request, "%s",
		       prev->argv[la.program]);
	rc =
	    chain_argv(r, head, head_len, 1, prev, la.program + 1, err, errlen);
	if (rc == 0)
		rc = chain_locate(r, p, prev->argv[la.program], w, err, errlen);
	c->n++;
	return rc;
}

/* The binfmt_misc entry the kernel would use for a file, if any. */
static const struct pty_binfmt *
chain_binfmt(const struct pty_exec_env *e, const unsigned char *head,
	     size_t len, const char *kname)
{
	size_t i;

	for (i = 0; i < e->nbinfmt; i++)
		if (pty_binfmt_match(&e->binfmt[i], head, len, kname))
			return &e->binfmt[i];
	return NULL;
}

int
pty_exec_expand(const struct pty_exec_env *e, struct pty_exec_proc *p,
		const char *kname, struct pty_exec_walk *w,
		struct pty_exec_chain *c, char *err, size_t errlen)
{
	unsigned char head[PTY_SHEBANG_BUF];
	char name[PATH_MAX];
	int rc = 0;

	(void)snprintf(name, sizeof name, "%s", kname);
	for (;;) {
		struct pty_exec_request *cur = c->rq[c->n - 1];
		struct pty_shebang sb;
		const struct pty_binfmt *bf;
		size_t len = 0;

		cur->dev = w->st.st_dev;
		cur->ino = w->st.st_ino;
		if (w->unsafe[0] != '\0')
			return chain_refuse(err, errlen, PTY_EXEC_READ_UNSAFE,
					    "it goes through %s, which you "
					    "can write: what runs could change "
					    "between the guard's check and the "
					    "exec",
					    w->unsafe);
		rc = chain_head(p->self_fd, w->fd, head, &len, err, errlen);
		if (rc != 0)
			break;
		/* what the loader maps is not exec'd: no #!, no binfmt */
		if (cur->via != PTY_EXEC_VIA_LOADER &&
		    (bf = chain_binfmt(e, head, len, name)) != NULL) {
			rc = chain_refuse(err, errlen, PTY_EXEC_READ_UNSAFE,
					  "the kernel would run it with %s "
					  "(a binfmt_misc entry), which the "
					  "guard does not decide",
					  bf->interpreter);
			break;
		}
		(void)close(w->fd);
		w->fd = -1;
		if (cur->via != PTY_EXEC_VIA_LOADER &&
		    pty_shebang_parse((const char *)head, len, &sb) == 0) {
			/* the next script's name is its interpreter's */
			rc = chain_shebang(c, p, &sb, name, w, err, errlen);
			if (rc == 0)
				(void)snprintf(name, sizeof name, "%.*s",
					       (int)sb.name_len, sb.name);
		} else if (chain_is_loader(e, &w->st)) {
			rc = chain_loader(e, c, p, w, err, errlen);
			if (rc == 1)
				return 0;
		} else {
			return 0;
		}
		if (rc != 0)
			break;
	}
	if (w->fd >= 0)
		(void)close(w->fd);
	w->fd = -1;
	return rc;
}
