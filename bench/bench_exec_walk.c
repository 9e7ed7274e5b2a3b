/* SPDX-License-Identifier: MIT */
/*
 * bench_exec walk - the cost of resolving an exec's path, alone and in
 * this process: what the guard does for each exec once it has read the
 * request, without the seccomp round trip, the policy or the process.
 *
 *   old      one openat2(RESOLVE_NO_MAGICLINKS, O_PATH) of the path, fstat,
 *            readlink of /proc/self/fd/N, close: how the guard resolved
 *            the file before it walked it (commit 24c9e00's parent);
 *   walk     pty_exec_walk: one openat(O_PATH | O_NOFOLLOW) + fstat per
 *            name, a readlinkat per link, and for a user other than root
 *            an fstat of each folder and a writability check
 *            (faccessat2) of each folder and of the file; then close;
 *   +name    walk, then pty_exec_walk_name (the readlink the old way did);
 *   +expand  walk, name, then pty_exec_expand: the file's first 256 bytes
 *            read through /proc/self/fd/N, binfmt_misc and #! checked,
 *            the loader recognised, and every interpreter or program of
 *            the loader walked and named in turn - what an exec costs the
 *            guard now before its decisions.
 *
 * For each of /usr/bin/true, /bin/true (a link: /bin -> usr/bin), a deep
 * path (twelve folders and a link to /usr/bin/true, root's, in /tmp), a #!
 * script ("#!/bin/true": two walks) and the loader with /bin/true for its
 * program (two walks), and for the clock alone (two clock_gettime, the
 * floor of every figure).  Every call is timed alone; each iteration runs
 * every (path, way) once, in a new random order, so the machine's drift
 * falls on all alike.  Prints ns per call: median, p90, p99, and the
 * ratio of medians to the old way's for the same path.
 *
 *   bench_exec walk [-n N] [-u USER]
 *
 * N iterations (default 20000) after N/10 of warm-up.  As root, -u USER
 * drops to USER first: root is exempt from the writability checks, a user
 * is not.  Without root, the deep path and the script are skipped (the
 * tree would be the user's: the walk would refuse it).
 */
#define _GNU_SOURCE
#include "bench_exec.h"

#include "pty_exec.h"
#include "pty_exec_chain.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/openat2.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define WALK_LOADER "/lib64/ld-linux-x86-64.so.2"
#define WALK_DEPTH  12

enum walk_way { WAY_CLOCK, WAY_OLD, WAY_WALK, WAY_NAME, WAY_EXPAND, NWAY };

static const char *const walk_way_name[NWAY] = {
    "clock alone", "old: openat2+fstat+readlink", "walk", "walk+name",
    "walk+name+expand"};

enum { P_USR, P_BIN, P_DEEP, P_SCRIPT, P_LOADER, NPATH };

struct walk_path {
	const char *label;
	char path[PATH_MAX];
	const char *arg; /* the loader's program, or NULL */
	size_t chain;    /* how many programs the expansion finds */
	bool on;
};

struct walk_ctx {
	int cwd; /* "/", as the guard's descriptor of the process's cwd */
	struct pty_exec_env env;
	struct pty_exec_chain chain;
};

/* The old way: 0, or -1. */
static int
walk_old(const char *path)
{
	struct open_how how;
	struct stat st;
	char self[64], name[PATH_MAX];
	ssize_t n;
	int fd;

	memset(&how, 0, sizeof how);
	how.flags = O_PATH | O_CLOEXEC;
	how.resolve = RESOLVE_NO_MAGICLINKS;
	fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
	if (fd < 0)
		return -1;
	(void)snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
	n = fstat(fd, &st) == 0 ? readlink(self, name, sizeof name - 1) : -1;
	(void)close(fd);
	return n > 0 && S_ISREG(st.st_mode) ? 0 : -1;
}

/* One new way (WAY_WALK, WAY_NAME or WAY_EXPAND) of p: 0, or -1. */
static int
walk_new(struct walk_ctx *c, const struct walk_path *p, enum walk_way way)
{
	struct pty_exec_request *r = c->chain.rq[0];
	struct pty_exec_walk w;
	struct pty_exec_proc dir;
	char err[512];
	int rc = pty_exec_walk(c->env.root, c->cwd, p->path, &w, err,
			       sizeof err);

	if (rc != 0)
		return -1;
	if (way == WAY_WALK) {
		(void)close(w.fd);
		return w.unsafe[0] == '\0' ? 0 : -1;
	}
	if (pty_exec_walk_name(pty_exec_self_fd(&c->env), &w, r->path,
			       sizeof r->path, err, sizeof err) != 0) {
		(void)close(w.fd);
		return -1;
	}
	if (way == WAY_NAME) {
		(void)close(w.fd);
		return 0;
	}
	/* what exec_read.c does next: the request's argv is already there;
	 * the directory is "/", open */
	c->chain.n = 1;
	pty_exec_proc_init(&dir, &c->env, getpid());
	dir.cwd = c->cwd;
	dir.named = true;
	(void)snprintf(dir.cwd_name, sizeof dir.cwd_name, "/");
	rc = pty_exec_expand(&c->env, &dir, p->path, &w, &c->chain, err,
			     sizeof err);
	return rc == 0 && c->chain.n == p->chain ? 0 : -1;
}

static int
walk_one(struct walk_ctx *c, struct walk_path *p, enum walk_way way)
{
	struct pty_exec_request *r = c->chain.rq[0];

	if (way == WAY_CLOCK)
		return 0;
	if (way == WAY_OLD)
		return walk_old(p->path);
	/* rq[0] as exec_read.c leaves it: argv, cwd, via */
	r->argc = p->arg != NULL ? 2 : 1;
	r->argv[0] = p->path;
	r->argv_len[0] = strlen(p->path);
	r->argv[1] = p->arg;
	r->argv_len[1] = p->arg != NULL ? strlen(p->arg) : 0;
	return walk_new(c, p, way);
}

/* The deep path and the script in a root-owned tree; 0, or -1. */
static int
walk_tree(char *dir, struct walk_path *deep, struct walk_path *script)
{
	char path[PATH_MAX];
	size_t len;
	int i;
	FILE *f;

	if (mkdtemp(dir) == NULL || chmod(dir, 0755) != 0)
		return -1;
	len = (size_t)snprintf(path, sizeof path, "%s", dir);
	for (i = 1; i <= WALK_DEPTH; i++) {
		len += (size_t)snprintf(path + len, sizeof path - len, "/d%02d",
					i);
		if (mkdir(path, 0755) != 0)
			return -1;
	}
	if (snprintf(deep->path, sizeof deep->path, "%s/true", path) >=
		(int)sizeof deep->path ||
	    symlink("/usr/bin/true", deep->path) != 0)
		return -1;
	(void)snprintf(script->path, sizeof script->path, "%s/script", dir);
	if ((f = fopen(script->path, "w")) == NULL)
		return -1;
	if (fputs("#!/bin/true\n", f) < 0) {
		fclose(f);
		return -1;
	}
	if (fclose(f) != 0 || chmod(script->path, 0755) != 0)
		return -1;
	return 0;
}

static void
walk_tree_remove(const char *dir)
{
	char path[PATH_MAX];
	size_t len;
	int i;

	/* the template's six X still there: mkdtemp did not make it (one X
	 * alone is a random letter 1 time in 62) */
	if (strcmp(dir + strlen(dir) - 6, "XXXXXX") == 0)
		return;
	(void)snprintf(path, sizeof path, "%s/script", dir);
	(void)unlink(path);
	len = (size_t)snprintf(path, sizeof path, "%s", dir);
	for (i = 1; i <= WALK_DEPTH; i++)
		len += (size_t)snprintf(path + len, sizeof path - len, "/d%02d",
					i);
	(void)snprintf(path + len, sizeof path - len, "/true");
	(void)unlink(path);
	for (i = WALK_DEPTH; i >= 0; i--) {
		path[len] = '\0';
		(void)rmdir(path);
		len -= 4; /* "/dNN" */
	}
}

/* Times every (path, way) n times after `warm`, and prints the table.
 * 0, or 1. */
static int
walk_measure(struct walk_path *paths, long long n, long long warm)
{
	uint64_t *t[NPATH][NWAY], rng = 0x9e3779b97f4a7c15u;
	size_t order[NPATH * NWAY], j, k, p, nord = 0;
	struct walk_ctx c;
	char err[512];
	long long i;
	int rc = 0;

	memset(t, 0, sizeof t);
	memset(&c, 0, sizeof c);
	c.cwd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (c.cwd < 0 || pty_exec_env_prepare(&c.env, err, sizeof err) != 0 ||
	    (c.chain.rq[0] = calloc(1, sizeof *c.chain.rq[0])) == NULL) {
		fprintf(stderr, "bench_exec walk: %s\n",
			c.cwd < 0 ? strerror(errno) : err);
		rc = 1;
		goto out;
	}
	(void)snprintf(c.chain.rq[0]->cwd, sizeof c.chain.rq[0]->cwd, "/");
	c.chain.rq[0]->via = PTY_EXEC_VIA_EXECVE;
	for (p = 0; p < NPATH; p++) {
		for (k = 0; k < NWAY && paths[p].on; k++) {
			if (k == WAY_CLOCK && p != 0)
				continue; /* once is enough */
			if (walk_one(&c, &paths[p], (enum walk_way)k) != 0) {
				fprintf(stderr,
					"bench_exec walk: %s of %s fails\n",
					walk_way_name[k], paths[p].path);
				rc = 1;
				goto out;
			}
			if ((t[p][k] = calloc((size_t)n, sizeof(uint64_t))) ==
			    NULL) {
				rc = 1;
				goto out;
			}
			order[nord++] = p * NWAY + k;
		}
	}
	for (i = 0; i < warm + n; i++) {
		bench_shuffle(order, nord, &rng); /* a new order each time */
		for (j = 0; j < nord; j++) {
			size_t pi = order[j] / NWAY, wi = order[j] % NWAY;
			uint64_t t0 = bench_now_ns();
			int r = walk_one(&c, &paths[pi], (enum walk_way)wi);
			uint64_t dt = bench_now_ns() - t0;

			if (r != 0) {
				fprintf(stderr,
					"bench_exec walk: %s of %s failed at "
					"iteration %lld\n",
					walk_way_name[wi], paths[pi].path, i);
				rc = 1;
				goto out;
			}
			if (i >= warm)
				t[pi][wi][i - warm] = dt;
		}
	}
	printf("path resolution of one exec, in this process, as uid %lu%s; "
	       "%lld iterations after %lld of warm-up, every (path, way) once "
	       "per iteration in a new random order; ns per call\n",
	       (unsigned long)getuid(),
	       getuid() == 0 ? " (root: no writability checks)"
			     : " (writability checks on)",
	       n, warm);
	printf("  %-26s %-28s %9s %9s %9s %9s\n", "path", "way", "median",
	       "p90", "p99", "x old");
	for (p = 0; p < NPATH; p++) {
		double old_med = 0;

		if (!paths[p].on) {
			printf("  %-26s skipped: %s\n", paths[p].label,
			       p == P_LOADER ? "no " WALK_LOADER
					     : "needs root (a tree the user "
					       "owns is refused)");
			continue;
		}
		for (k = 0; k < NWAY; k++) {
			uint64_t *v = t[p][k];
			double med;

			if (v == NULL)
				continue;
			qsort(v, (size_t)n, sizeof v[0], bench_cmp_u64);
			med = (double)v[n / 2];
			if (k == WAY_OLD)
				old_med = med;
			printf("  %-26s %-28s %9.0f %9.0f %9.0f",
			       paths[p].label, walk_way_name[k], med,
			       (double)v[n * 90 / 100],
			       (double)v[n * 99 / 100]);
			if (k > WAY_OLD && old_med > 0)
				printf(" %9.2f\n", med / old_med);
			else
				printf(" %9s\n", "-");
		}
	}
out:
	for (p = 0; p < NPATH; p++)
		for (k = 0; k < NWAY; k++)
			free(t[p][k]);
	for (k = 0; k < PTY_EXEC_CHAIN_MAX; k++)
		free(c.chain.rq[k]);
	pty_exec_env_free(&c.env);
	if (c.cwd >= 0)
		(void)close(c.cwd);
	return rc;
}

int
bench_exec_walk_main(int argc, char **argv)
{
	static struct walk_path paths[NPATH] = {
	    {"/usr/bin/true", "/usr/bin/true", NULL, 1, true},
	    {"/bin/true (a link)", "/bin/true", NULL, 1, true},
	    {"deep: 12 folders, a link", "", NULL, 1, false},
	    {"#! script (#!/bin/true)", "", NULL, 2, false},
	    {"ld.so /bin/true", WALK_LOADER, "/bin/true", 2, true},
	};
	char tree[] = "/tmp/bench_exec_walk.XXXXXX";
	struct passwd *pw = NULL;
	long long n = 20000;
	int opt, rc, st;
	pid_t pid;

	while ((opt = getopt(argc, argv, "n:u:")) != -1) {
		switch (opt) {
		case 'n':
			if ((n = bench_parse_count(optarg, 10, BENCH_MAX_N)) <
			    0)
				goto usage;
			break;
		case 'u':
			pw = getpwnam(optarg);
			if (pw == NULL || geteuid() != 0 || pw->pw_uid == 0) {
				fprintf(stderr,
					"bench_exec walk: -u wants a user "
					"other than root, and root to run "
					"it\n");
				return 2;
			}
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc)
		goto usage;
	if (access(WALK_LOADER, X_OK) != 0)
		paths[P_LOADER].on = false;
	if (geteuid() == 0) {
		if (walk_tree(tree, &paths[P_DEEP], &paths[P_SCRIPT]) != 0) {
			fprintf(stderr, "bench_exec walk: cannot make %s: %s\n",
				tree, strerror(errno));
			walk_tree_remove(tree);
			return 1;
		}
		paths[P_DEEP].on = paths[P_SCRIPT].on = true;
	}
	if (pw == NULL) {
		rc = walk_measure(paths, n, n / 10);
		walk_tree_remove(tree);
		return rc;
	}
	/* as USER in a child, so that root removes the tree after */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) != 0 ||
		    setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) != 0 ||
		    setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) != 0) {
			fprintf(stderr, "bench_exec walk: cannot become %s\n",
				pw->pw_name);
			_exit(1);
		}
		rc = walk_measure(paths, n, n / 10);
		fflush(stdout);
		_exit(rc);
	}
	rc = 1;
	if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st))
		rc = WEXITSTATUS(st);
	walk_tree_remove(tree);
	return rc;
usage:
	fprintf(stderr, "usage: bench_exec walk [-n N] [-u USER]\n");
	return 2;
}
