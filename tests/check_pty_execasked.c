/* SPDX-License-Identifier: MIT */
/*
 * Every refused exec names what was asked: the exec supervisor's reader
 * (pty_exec_read, pty/exec/exec_read.c) on real requests of a child under
 * the supervisor's filter, down each way a request is refused before the
 * policy is asked - an argument list over the bound, a path that cannot
 * be read, a working directory that cannot be named, a relative path from
 * it, a #! interpreter whose argument list is over the bound - and what
 * the request then holds for its record: exec_request as read (made
 * absolute when its directory has a name), exec_path once the program is
 * found.  And what is not a refusal: a path of PATH_MAX bytes or more is
 * the kernel's ENAMETOOLONG, and a directory deeper than the kernel names
 * is exec_cwd in full.
 */
#define _GNU_SOURCE
#include "runner.h"

#include "pty_decide.h"
#include "pty_exec.h"
#include "pty_exec_chain.h"
#include "pty_supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <seccomp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define T 15000 /* ms: generous, sanitizer builds are slow */

/* What one test's child does under the filter, then exits 7 when every
 * exec it tried was answered as the test answers (EPERM), or the errno
 * it got. */
typedef void (*asked_child_fn)(void *arg);

struct asked {
	struct pty_supervisor s;
	pid_t pid;
	char why[PATH_MAX + 512];
};

/* Starts the child under a supervisor of the test's own. */
static void
asked_start(struct asked *a, asked_child_fn fn, void *arg)
{
	char err[512];

	pty_supervise_init(&a->s);
	ck_assert_msg(pty_supervise_prepare(&a->s, -1, err, sizeof err) == 0,
		      "%s", err);
	a->pid = fork();
	ck_assert_int_ge(a->pid, 0);
	if (a->pid == 0) {
		pty_supervise_child(&a->s);
		fn(arg);
		_exit(9);
	}
	ck_assert_msg(pty_supervise_accept(&a->s, err, sizeof err) == 0, "%s",
		      err);
}

/* Reads the child's next exec with `need` and answers it EPERM; returns
 * what pty_exec_read said (its reason in a->why). */
static int
asked_read(struct asked *a, unsigned need)
{
	struct pollfd pfd = {a->s.listener, POLLIN, 0};
	int rc;

	ck_assert_int_eq(poll(&pfd, 1, T), 1);
	memset(a->s.req, 0, sizeof *a->s.req);
	ck_assert_int_eq(seccomp_notify_receive(a->s.listener, a->s.req), 0);
	a->why[0] = '\0';
	rc = pty_exec_read(a->s.listener, a->s.req, &a->s.env, need,
			   &a->s.chain, a->why, sizeof a->why);
	memset(a->s.resp, 0, sizeof *a->s.resp);
	a->s.resp->id = a->s.req->id;
	a->s.resp->error = -EPERM;
	ck_assert_int_eq(seccomp_notify_respond(a->s.listener, a->s.resp), 0);
	return rc;
}

/* The child's end: it exited 7. */
static void
asked_end(struct asked *a)
{
	int st;

	ck_assert_int_eq(waitpid(a->pid, &st, 0), a->pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 7,
		      "the child ended with %d", st);
	pty_supervise_close(&a->s);
}

static void
assert_why(const struct asked *a, const char *words)
{
	ck_assert_msg(strstr(a->why, words) != NULL, "'%s' is not in '%s'",
		      words, a->why);
}

/* ------------------------------------------------------------------ */

/* 4,097 arguments, by an absolute path and by one relative to /usr. */
static void
child_too_many_args(void *arg)
{
	static char *argv[PTY_EXEC_ARGS_MAX + 2];
	char *const envp[] = {NULL};
	int e1, e2;
	size_t i;

	(void)arg;
	for (i = 0; i <= PTY_EXEC_ARGS_MAX; i++)
		argv[i] = (char *)"a";
	if (chdir("/usr") != 0)
		_exit(2);
	(void)execve("/usr/bin/true", argv, envp);
	e1 = errno;
	(void)execve("bin/./true", argv, envp);
	e2 = errno;
	_exit(e1 == EPERM && e2 == EPERM ? 7 : 8);
}

/* An argument list over the bound is refused, never decided on a part;
 * its record names the program all the same.
 * Before: the request was refused before the path was kept, and its
 * record had exec_request "" and exec_path "". */
START_TEST(test_execasked_argument_list_over_the_bound_names_the_program)
{
	struct asked a;

	asked_start(&a, child_too_many_args, NULL);
	ck_assert_int_eq(asked_read(&a, PTY_EXEC_NEED_ARGV),
			 PTY_EXEC_READ_REFUSE);
	assert_why(&a, "more arguments than the supervisor reads");
	ck_assert_uint_eq(a.s.chain.n, 1);
	ck_assert_str_eq(a.s.chain.rq[0]->request, "/usr/bin/true");
	ck_assert_int_eq(asked_read(&a, PTY_EXEC_NEED_ARGV),
			 PTY_EXEC_READ_REFUSE);
	/* made absolute against its directory, tidied */
	ck_assert_str_eq(a.s.chain.rq[0]->request, "/usr/bin/true");
	asked_end(&a);
}
END_TEST

/* A path of PATH_MAX bytes, then one at an address that cannot be read. */
static void
child_bad_paths(void *arg)
{
	char *const argv[] = {"x", NULL}, *const envp[] = {NULL};
	char *path = malloc(PATH_MAX + 1);
	int e1, e2;

	(void)arg;
	if (path == NULL)
		_exit(2);
	path[0] = '/';
	memset(path + 1, 'p', PATH_MAX - 1);
	path[PATH_MAX] = '\0';
	(void)execve(path, argv, envp);
	e1 = errno;
	(void)execve((const char *)(uintptr_t)8, argv, envp);
	e2 = errno;
	_exit(e1 == EPERM && e2 == EPERM ? 7 : 8);
}

/* A path longer than the kernel takes is its ENAMETOOLONG, answered for
 * it: nothing would run, nothing is refused or counted.  A path that
 * cannot be read is refused, and the reason says so - the one request
 * whose record cannot name it.
 * Before: both were refused alike ("its path cannot be read or is longer
 * than PATH_MAX"). */
START_TEST(test_execasked_path_too_long_is_the_kernels_answer)
{
	struct asked a;

	asked_start(&a, child_bad_paths, NULL);
	ck_assert_int_eq(asked_read(&a, PTY_EXEC_NEED_ALL), ENAMETOOLONG);
	ck_assert_int_eq(asked_read(&a, PTY_EXEC_NEED_ALL),
			 PTY_EXEC_READ_REFUSE);
	ck_assert_str_eq(a.why, "its path cannot be read");
	ck_assert_str_eq(a.s.chain.rq[0]->request, "");
	asked_end(&a);
}
END_TEST

/* Folders for a child to go into, named for the test. */
struct deep {
	char top[64];
	char name[3 * PTY_CWD_MAX];
	size_t levels;
};

/* One test's, at a time (too big for a stack). */
static struct deep deep_dir;

static void
deep_make(struct deep *d, size_t levels)
{
	int fd;
	size_t i;

	(void)snprintf(d->top, sizeof d->top, "/tmp/maelys-execasked.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(d->top));
	ck_assert_int_eq(chmod(d->top, 0755), 0);
	(void)snprintf(d->name, sizeof d->name, "%s", d->top);
	fd = open(d->top, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	for (i = 0; i < levels; i++) {
		char comp[NAME_MAX + 1];
		int next;

		(void)snprintf(comp, sizeof comp, "%03zu", i);
		memset(comp + 3, 'x', 197);
		comp[200] = '\0';
		ck_assert_int_eq(mkdirat(fd, comp, 0755), 0);
		next = openat(fd, comp, O_PATH | O_DIRECTORY | O_CLOEXEC);
		ck_assert_int_ge(next, 0);
		(void)close(fd);
		fd = next;
		(void)snprintf(d->name + strlen(d->name),
			       sizeof d->name - strlen(d->name), "/%s", comp);
	}
	/* a link to a program, for a relative exec from there */
	ck_assert_int_eq(symlinkat("/usr/bin/true", fd, "t"), 0);
	(void)close(fd);
	d->levels = levels;
}

static void
deep_remove(const struct deep *d)
{
	char cmd[128];

	(void)snprintf(cmd, sizeof cmd, "rm -rf '%s'", d->top);
	ck_assert_int_eq(system(cmd), 0);
}

/* Goes into d's deepest folder, one name at a time. */
static void
deep_enter(const struct deep *d)
{
	size_t i;

	if (chdir(d->top) != 0)
		_exit(2);
	for (i = 0; i < d->levels; i++) {
		char comp[NAME_MAX + 1];

		(void)snprintf(comp, sizeof comp, "%03zu", i);
		memset(comp + 3, 'x', 197);
		comp[200] = '\0';
		if (chdir(comp) != 0)
			_exit(2);
	}
}

/* In d's deepest folder: /usr/bin/true, then the link "./t" to it. */
static void
child_in_deep(void *arg)
{
	char *const argv[] = {"true", NULL}, *const envp[] = {NULL};
	int e1, e2;

	deep_enter(arg);
	(void)execve("/usr/bin/true", argv, envp);
	e1 = errno;
	(void)execve("./t", argv, envp);
	e2 = errno;
	_exit(e1 == EPERM && e2 == EPERM ? 7 : 8);
}

/* A process 5,000-odd bytes deep, which the kernel no longer names: its
 * exec_cwd is the folder's name in full, and a relative exec from there
 * is made absolute against it.
 * Before: "its working directory cannot be named", refused, with an
 * empty exec_request and exec_path. */
START_TEST(test_execasked_directory_deeper_than_path_max_is_exec_cwd)
{
	struct deep *d = &deep_dir;
	struct asked a;

	deep_make(d, 25);
	ck_assert_uint_gt(strlen(d->name), PATH_MAX);
	asked_start(&a, child_in_deep, d);
	ck_assert_msg(asked_read(&a, PTY_EXEC_NEED_ALL) == 0, "%s", a.why);
	ck_assert_str_eq(a.s.chain.rq[0]->cwd, d->name);
	ck_assert_str_eq(a.s.chain.rq[0]->request, "/usr/bin/true");
	ck_assert_str_eq(a.s.chain.rq[0]->path, "/usr/bin/true");
	/* "./t": its request is longer than PATH_MAX, as asked; the program
	 * it leads to is /usr/bin/true (a user other than root may change
	 * the link: then it is refused for that, still named) */
	(void)asked_read(&a, PTY_EXEC_NEED_ALL);
	ck_assert_str_eq(a.s.chain.rq[0]->cwd, d->name);
	ck_assert_str_eq(a.s.chain.rq[0]->path, "/usr/bin/true");
	ck_assert_uint_eq(strlen(a.s.chain.rq[0]->request),
			  strlen(d->name) + 2);
	ck_assert_str_eq(a.s.chain.rq[0]->request + strlen(d->name), "/t");
	asked_end(&a);
	deep_remove(d);
}
END_TEST

/* Past the bound (PTY_CWD_MAX), the directory cannot be named: an exec
 * whose exec_cwd is needed is refused, its record naming the program
 * and the request; a relative one is refused whatever is needed (there
 * is nothing to make it absolute with), named as the process gave it.
 * Before: both records had an empty exec_request and exec_path. */
START_TEST(test_execasked_directory_past_the_bound_names_the_program)
{
	struct deep *d = &deep_dir;
	struct asked a;

	deep_make(d, 41);
	ck_assert_uint_ge(strlen(d->name), PTY_CWD_MAX);
	asked_start(&a, child_in_deep, d);
	ck_assert_int_eq(asked_read(&a, PTY_EXEC_NEED_CWD),
			 PTY_EXEC_READ_REFUSE);
	ck_assert_str_eq(a.why, "its working directory cannot be named (its "
				"path is longer than 8191 bytes)");
	ck_assert_str_eq(a.s.chain.rq[0]->request, "/usr/bin/true");
	ck_assert_str_eq(a.s.chain.rq[0]->path, "/usr/bin/true");
	ck_assert_str_eq(a.s.chain.rq[0]->cwd, "");
	ck_assert_int_eq(asked_read(&a, 0), PTY_EXEC_READ_REFUSE);
	ck_assert_str_eq(a.s.chain.rq[0]->request, "./t");
	ck_assert_str_eq(a.s.chain.rq[0]->path, "/usr/bin/true");
	assert_why(&a, "its working directory cannot be named (its path is "
		       "longer than 8191 bytes)");
	asked_end(&a);
	deep_remove(d);
}
END_TEST

/* Whether `path` starts with "#!" (a script the kernel runs through its
 * interpreter). */
static bool
is_script(const char *path)
{
	char head[2];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool yes = fd >= 0 && read(fd, head, 2) == 2 && head[0] == '#' &&
		   head[1] == '!';

	if (fd >= 0)
		(void)close(fd);
	return yes;
}

/* A script run with 4,096 arguments: its interpreter gets 4,097. */
static void
child_script_args(void *arg)
{
	static char *argv[PTY_EXEC_ARGS_MAX + 1];
	char *const envp[] = {NULL};
	size_t i;

	for (i = 0; i < PTY_EXEC_ARGS_MAX; i++)
		argv[i] = (char *)"a";
	(void)execve(arg, argv, envp);
	_exit(errno == EPERM ? 7 : 8);
}

/* The interpreter of a #! script, its argument list over the bound (the
 * script's plus the interpreter's own words): refused, and the record of
 * that second program names it as the #! line does.  The script must be
 * one the user cannot change (then it is refused for that first): root
 * runs a copy of its own in a folder of its own.
 * Before: that record had an empty exec_request. */
START_TEST(test_execasked_interpreter_over_the_bound_is_named)
{
	char dir[64], script[128];
	struct asked a;

	(void)snprintf(dir, sizeof dir, "/tmp/maelys-execasked.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(chmod(dir, 0755), 0);
	(void)snprintf(script, sizeof script, "%s/s", dir);
	{
		FILE *f = fopen(script, "w");

		ck_assert_ptr_nonnull(f);
		ck_assert_int_gt(fputs("#!/bin/sh -e\nexit 0\n", f), 0);
		ck_assert_int_eq(fclose(f), 0);
	}
	ck_assert_int_eq(chmod(script, 0755), 0);
	ck_assert(is_script(script));
	asked_start(&a, child_script_args, script);
	ck_assert_int_eq(asked_read(&a, PTY_EXEC_NEED_ALL),
			 PTY_EXEC_READ_REFUSE);
	assert_why(&a, "more arguments than the supervisor reads");
	ck_assert_uint_eq(a.s.chain.n, 2);
	ck_assert_str_eq(a.s.chain.rq[0]->request, script);
	ck_assert_int_eq(a.s.chain.rq[1]->via, PTY_EXEC_VIA_SHEBANG);
	ck_assert_str_eq(a.s.chain.rq[1]->request, "/bin/sh");
	asked_end(&a);
	ck_assert_int_eq(unlink(script), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* The session's shell, its first exec, starts where the guard was started:
 * when that directory cannot be named and exec_cwd is needed, the session
 * does not start, saying why; when it is not needed, it starts with no
 * exec_cwd.  Before: its exec_cwd was "/", a directory it was not in. */
START_TEST(test_execasked_shell_started_where_nothing_is_named_does_not_start)
{
	static const char policy[] = "allow(C) :- command(C).\n"
				     "allow_exec(P) :- exec_path(P).\n";
	char *const argv[] = {"bash", "-i", NULL};
	maelys_datalog_session_t *ds = NULL;
	struct pty_policy_reads reads;
	struct pty_supervisor s;
	struct pty_decider d;
	char err[512];

	ck_assert_int_eq(pty_policy_open_text("p.dl", policy, strlen(policy),
					      &ds, &reads, err, sizeof err),
			 0);
	ck_assert_int_eq(pty_decider_init(&d, ds, &reads, "/usr/bin"), 0);
	ck_assert_int_eq(
	    pty_exec_set_programs(&d, "/usr/bin/bash", "/usr/bin/maelys-pty"),
	    0);
	pty_supervise_init(&s);
	s.decider = &d;
	s.mode = PTY_MODE_INTERACTIVE;
	s.first = malloc(sizeof *s.first);
	ck_assert_ptr_nonnull(s.first);
	pty_decider_unnamed_cwd(&d, "its path is longer than 8191 bytes");
	/* with an audit log every fact is learnt: exec_cwd too */
	s.need = PTY_EXEC_NEED_ALL;
	ck_assert_int_eq(pty_supervise_shell_allowed(&s, "/usr/bin/bash", argv,
						     false, err, sizeof err),
			 -1);
	ck_assert_str_eq(err, "the working directory cannot be named (its "
			      "path is longer than 8191 bytes), and exec_cwd "
			      "needs it");
	s.need = 0;
	ck_assert_msg(pty_supervise_shell_allowed(&s, "/usr/bin/bash", argv,
						  false, err, sizeof err) == 0,
		      "%s", err);
	ck_assert_str_eq(s.first->cwd, "");
	pty_decider_set_cwd(&d, "/home/alice");
	s.need = PTY_EXEC_NEED_ALL;
	ck_assert_int_eq(pty_supervise_shell_allowed(&s, "/usr/bin/bash", argv,
						     false, err, sizeof err),
			 0);
	ck_assert_str_eq(s.first->cwd, "/home/alice");
	pty_supervise_close(&s);
	pty_decider_free(&d);
	(void)maelys_datalog_session_free(ds);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("execasked");

	tcase_set_timeout(tc, 120);
	tcase_add_test(
	    tc, test_execasked_argument_list_over_the_bound_names_the_program);
	tcase_add_test(tc, test_execasked_path_too_long_is_the_kernels_answer);
	tcase_add_test(
	    tc, test_execasked_directory_deeper_than_path_max_is_exec_cwd);
	tcase_add_test(
	    tc, test_execasked_directory_past_the_bound_names_the_program);
	tcase_add_test(
	    tc,
	    test_execasked_shell_started_where_nothing_is_named_does_not_start);
	if (geteuid() == 0)
		tcase_add_test(
		    tc, test_execasked_interpreter_over_the_bound_is_named);
	else
		printf("execasked: not root: the #! test is left out (a "
		       "script the user owns is refused before its "
		       "interpreter is read)\n");
	suite_add_tcase(s, tc);
	return s;
}
