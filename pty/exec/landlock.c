/* SPDX-License-Identifier: MIT */
/*
 * The Landlock ruleset of a session (pty_supervise.h, its Landlock section).  Built in the guard,
 * which opens every location with its own rights; the child only calls
 * landlock_restrict_self(2) on it after NO_NEW_PRIVS.  The ruleset handles
 * one right, EXECUTE: everything else the session may do is left to the
 * user's own permissions.  What exec_never names is left out of it
 * (landlock_never.c).
 */
#define _GNU_SOURCE
#include "pty_supervise.h"

#include "pty_exec_chain.h"

#include <maelys/datalog_builders.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int
pty_landlock_abi(void)
{
	long v = syscall(SYS_landlock_create_ruleset, NULL, 0,
			 LANDLOCK_CREATE_RULESET_VERSION);

	return v > 0 ? (int)v : 0;
}

/* Calls visit for every row of pred/1 of the result; counts them in *n. */
static int
landlock_each_row(const maelys_datalog_result_t *res, const char *pred,
		  pty_landlock_visit_fn visit, void *arg, size_t *n, char *err,
		  size_t errlen)
{
	maelys_datalog_fact_view_t rows[PTY_LANDLOCK_PATHS_MAX];
	size_t count = 0, i;
	maelys_datalog_status_t st;

	st = maelys_datalog_result_enumerate(res, pred, 1, rows,
					     PTY_LANDLOCK_PATHS_MAX, &count);
	if (st == MAELYS_DATALOG_STATUS_TRUNCATED ||
	    *n + count > PTY_LANDLOCK_PATHS_MAX) {
		(void)snprintf(err, errlen,
			       "the policy names more than %d exec locations",
			       PTY_LANDLOCK_PATHS_MAX);
		return -1;
	}
	if (st != MAELYS_DATALOG_STATUS_OK) {
		(void)snprintf(err, errlen, "reading %s: %s", pred,
			       maelys_datalog_status_name(st));
		return -1;
	}
	for (i = 0; i < count; i++) {
		char path[4096];
		const char *text;
		size_t len;

		if (rows[i].terms[0].kind != MAELYS_DATALOG_TERM_SYMBOL ||
		    maelys_datalog_result_symbol_text(
			res, rows[i].terms[0].as.symbol_id, &text, &len) !=
			MAELYS_DATALOG_STATUS_OK ||
		    len >= sizeof path || memchr(text, '\0', len) != NULL) {
			(void)snprintf(err, errlen,
				       "%s: every location is a path", pred);
			return -1;
		}
		memcpy(path, text, len);
		path[len] = '\0';
		if (visit(arg, pred, path, err, errlen) != 0)
			return -1;
	}
	*n += count;
	return 0;
}

int
pty_landlock_locations(struct pty_decider *d, enum pty_mode mode,
		       pty_landlock_visit_fn visit, void *arg, size_t *n,
		       char *err, size_t errlen)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_result_t *res = NULL;
	maelys_datalog_status_t st;
	int rc = -1;

	*n = 0;
	st = maelys_datalog_input_edb_clear(d->edb);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = pty_decider_add_session_facts(d, mode, &diag);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = maelys_datalog_session_solve_edb(d->session, d->edb, &res,
						      &diag);
	if (st != MAELYS_DATALOG_STATUS_OK)
		(void)snprintf(
		    err, errlen, "the policy's exec locations: %s: %s",
		    maelys_datalog_status_name(st),
		    diag.message[0] ? diag.message
				    : maelys_datalog_status_meaning(st));
	else if (landlock_each_row(res, "exec_dir", visit, arg, n, err,
				   errlen) == 0 &&
		 landlock_each_row(res, "exec_file", visit, arg, n, err,
				   errlen) == 0)
		rc = 0;
	(void)maelys_datalog_result_free(res);
	return rc;
}

/* The locations of a policy, as pty_landlock_build collects them. */
struct landlock_list {
	char *path[PTY_LANDLOCK_PATHS_MAX];
	bool dir[PTY_LANDLOCK_PATHS_MAX]; /* exec_dir, else exec_file */
	size_t n;
};

/* pty_landlock_locations' visitor of the ruleset: each location kept. */
static int
landlock_visit_keep(void *arg, const char *pred, const char *path, char *err,
		    size_t errlen)
{
	struct landlock_list *l = arg;

	if (path[0] != '/') {
		(void)snprintf(err, errlen,
			       "exec location '%s' is not an absolute path",
			       path);
		return -1;
	}
	if (l->n == PTY_LANDLOCK_PATHS_MAX ||
	    (l->path[l->n] = strdup(path)) == NULL) {
		(void)snprintf(err, errlen,
			       "no memory for the exec locations");
		return -1;
	}
	l->dir[l->n++] = strcmp(pred, "exec_dir") == 0;
	return 0;
}

static void
landlock_list_free(struct landlock_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->path[i]);
	l->n = 0;
}

/* The session's shell, the guard and the dynamic loader, added to every
 * ruleset: a session cannot start without the shell and the loader, so
 * exec_never may not name them (the guard it may: nothing needs to start
 * it again inside a session). */
static int
landlock_grant_extra(int ruleset, const char *path, bool needed,
		     const char *what, const struct pty_landlock_never *set,
		     size_t *rules, char *err, size_t errlen)
{
	struct stat st;

	if (path == NULL || path[0] == '\0')
		return 0;
	if (needed && stat(path, &st) == 0 &&
	    pty_landlock_never_has(set, st.st_dev, st.st_ino)) {
		(void)snprintf(err, errlen,
			       "exec_never holds for %s %s: no session could "
			       "start",
			       what, path);
		return -1;
	}
	return pty_landlock_grant(ruleset, path, set, rules, err, errlen);
}

int
pty_landlock_build(struct pty_decider *d, enum pty_mode mode,
		   const char *const *extra, size_t nextra, bool required,
		   int *fd, char *note, size_t notelen, char *err,
		   size_t errlen)
{
	struct landlock_ruleset_attr attr;
	struct landlock_list *locs = NULL;
	const char *dirs[PTY_LANDLOCK_PATHS_MAX];
	struct pty_landlock_never never;
	char loader[PATH_MAX];
	size_t named = 0, ndirs = 0, rules = 0, i;
	int ruleset = -1, rc = -1;

	*fd = -1;
	note[0] = '\0';
	memset(&never, 0, sizeof never);
	if (pty_landlock_abi() < 1) {
		if (required) {
			(void)snprintf(err, errlen,
				       "landlock = required, and this kernel "
				       "has no Landlock");
			return -1;
		}
		(void)snprintf(note, notelen,
			       "this kernel has no Landlock: execs are "
			       "decided by the policy alone");
		return 0;
	}
	if ((locs = calloc(1, sizeof *locs)) == NULL) {
		(void)snprintf(err, errlen, "no memory for the exec locations");
		return -1;
	}
	if (pty_landlock_locations(d, mode, landlock_visit_keep, locs, &named,
				   err, errlen) != 0)
		goto out;
	for (i = 0; i < locs->n; i++)
		if (locs->dir[i])
			dirs[ndirs++] = locs->path[i];
	if (pty_landlock_never_find(d, mode, dirs, ndirs, &never, err,
				    errlen) != 0)
		goto out;
	if (locs->n == 0 && never.n == 0) {
		rc = 0;
		if (required) {
			(void)snprintf(err, errlen,
				       "landlock = required, and the policy "
				       "names no exec_dir or exec_file%s",
				       pty_never_defined(d)
					   ? ", and exec_never holds for no "
					     "program"
					   : "");
			rc = -1;
		}
		goto out;
	}
	memset(&attr, 0, sizeof attr);
	attr.handled_access_fs = LANDLOCK_ACCESS_FS_EXECUTE;
	ruleset =
	    (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
	if (ruleset < 0) {
		(void)snprintf(err, errlen, "Landlock ruleset: %s",
			       strerror(errno));
		goto out;
	}
	(void)fcntl(ruleset, F_SETFD, FD_CLOEXEC);
	/* the locations, or without any every file: but the never-run */
	for (i = 0; i < locs->n; i++)
		if (pty_landlock_grant(ruleset, locs->path[i], &never, &rules,
				       err, errlen) != 0)
			goto out;
	if (locs->n == 0 &&
	    pty_landlock_grant(ruleset, "/", &never, &rules, err, errlen) != 0)
		goto out;
	for (i = 0; i < nextra; i++)
		if (landlock_grant_extra(ruleset, extra[i], i == 0,
					 i == 0 ? "the session's shell"
						: "the guard",
					 &never, &rules, err, errlen) != 0)
			goto out;
	/* without it no dynamic program could start; run as a program, it
	 * is decided with what it runs (pty_exec_chain.h) */
	if (pty_exec_own_loader(loader, sizeof loader) == 0 &&
	    landlock_grant_extra(ruleset, loader, true, "the dynamic loader",
				 &never, &rules, err, errlen) != 0)
		goto out;
	if (never.unseen[0] != '\0')
		(void)snprintf(note, notelen,
			       "exec_never holds for %s, which has a name "
			       "(a hard link) in a folder the guard does not "
			       "read: the kernel would execute it by that name",
			       never.unseen);
	*fd = ruleset;
	ruleset = -1;
	rc = 0;
out:
	if (ruleset >= 0)
		(void)close(ruleset);
	pty_landlock_never_free(&never);
	if (locs != NULL)
		landlock_list_free(locs);
	free(locs);
	return rc;
}
