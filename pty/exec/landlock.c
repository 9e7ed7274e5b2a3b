/* SPDX-License-Identifier: MIT */
/*
 * The Landlock ruleset of a session (pty_supervise.h, its Landlock section).  Built in the guard,
 * which opens every location with its own rights; the child only calls
 * landlock_restrict_self(2) on it after NO_NEW_PRIVS.  The ruleset handles
 * one right, EXECUTE: everything else the session may do is left to the
 * user's own permissions.
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

/* Adds one location.  Returns 0 (added, or absent: left out), -1 with err. */
static int
landlock_add(int ruleset, const char *path, char *err, size_t errlen)
{
	struct landlock_path_beneath_attr pb;
	struct stat st;
	int fd;

	if (path[0] != '/') {
		(void)snprintf(err, errlen,
			       "exec location '%s' is not an absolute path",
			       path);
		return -1;
	}
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
		return 0;
	if (fd < 0 || fstat(fd, &st) != 0) {
		(void)snprintf(err, errlen, "exec location %s: %s", path,
			       strerror(errno));
		if (fd >= 0)
			(void)close(fd);
		return -1;
	}
	memset(&pb, 0, sizeof pb);
	pb.allowed_access = LANDLOCK_ACCESS_FS_EXECUTE;
	pb.parent_fd = fd;
	if ((S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)) &&
	    syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
		    &pb, 0) == 0) {
		(void)close(fd);
		return 0;
	}
	(void)snprintf(err, errlen, "exec location %s: %s", path,
		       S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)
			   ? strerror(errno)
			   : "neither a directory nor a regular file");
	(void)close(fd);
	return -1;
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

/* pty_landlock_locations' visitor of the ruleset: each location added. */
static int
landlock_visit_add(void *arg, const char *pred, const char *path, char *err,
		   size_t errlen)
{
	(void)pred;
	return landlock_add(*(const int *)arg, path, err, errlen);
}

int
pty_landlock_build(struct pty_decider *d, enum pty_mode mode,
		   const char *const *extra, size_t nextra, bool required,
		   int *fd, char *note, size_t notelen, char *err,
		   size_t errlen)
{
	struct landlock_ruleset_attr attr;
	char loader[PATH_MAX];
	size_t named = 0, i;
	int ruleset;

	*fd = -1;
	note[0] = '\0';
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
	memset(&attr, 0, sizeof attr);
	attr.handled_access_fs = LANDLOCK_ACCESS_FS_EXECUTE;
	ruleset =
	    (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
	if (ruleset < 0) {
		(void)snprintf(err, errlen, "Landlock ruleset: %s",
			       strerror(errno));
		return -1;
	}
	(void)fcntl(ruleset, F_SETFD, FD_CLOEXEC);
	if (pty_landlock_locations(d, mode, landlock_visit_add, &ruleset,
				   &named, err, errlen) != 0)
		goto fail;
	if (named == 0) {
		(void)close(ruleset);
		if (required) {
			(void)snprintf(err, errlen,
				       "landlock = required, and the policy "
				       "names no exec_dir or exec_file");
			return -1;
		}
		return 0;
	}
	for (i = 0; i < nextra; i++)
		if (extra[i] != NULL && extra[i][0] != '\0' &&
		    landlock_add(ruleset, extra[i], err, errlen) != 0)
			goto fail;
	/* without it no dynamic program could start; run as a program, it
	 * is decided with what it runs (pty_exec_chain.h) */
	if (pty_exec_own_loader(loader, sizeof loader) == 0 &&
	    landlock_add(ruleset, loader, err, errlen) != 0)
		goto fail;
	*fd = ruleset;
	return 0;
fail:
	(void)close(ruleset);
	return -1;
}
