/* SPDX-License-Identifier: MIT */
/*
 * exec_never (pty_decide.h) and the Landlock ruleset that leaves its files
 * out (pty_supervise.h): what the load refuses, which files a session
 * finds, and what the kernel then executes.
 *
 * Each ruleset test builds the ruleset as a session's start does
 * (pty_landlock_build) and applies it in a child of the test, which then
 * executes files directly - no guard in between, as a race that won
 * would: what the kernel answers is the kernel's alone.
 */
#define _GNU_SOURCE
#include "runner.h"

#include "pty_decide.h"
#include "pty_harness.h"
#include "pty_supervise.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static struct pts_world world;
static maelys_datalog_session_t *session;
static struct pty_decider d;
static char tools[400], bin_halt[500], bin_ok[500], later[500];

/* A program of the world: a copy of /usr/bin/true. */
static void
world_program(const char *path)
{
	char cmd[1200];

	snprintf(cmd, sizeof cmd, "cp /usr/bin/true '%s' && chmod 0755 '%s'",
		 path, path);
	ck_assert_int_eq(system(cmd), 0);
}

/* The world's folder of programs, its PATH first: "halt-x", which the
 * policies below never run, and "ok". */
static void
setup(void)
{
	pts_world_make(&world);
	snprintf(tools, sizeof tools, "%s/tools", world.dir);
	ck_assert_int_eq(mkdir(tools, 0755), 0);
	snprintf(bin_halt, sizeof bin_halt, "%s/halt-x", tools);
	snprintf(bin_ok, sizeof bin_ok, "%s/ok", tools);
	snprintf(later, sizeof later, "%s/later", tools);
	world_program(bin_halt);
	world_program(bin_ok);
}

static void
teardown(void)
{
	if (session != NULL) {
		pty_decider_free(&d);
		(void)maelys_datalog_session_free(session);
		session = NULL;
	}
	pts_world_remove(&world);
}

/* Loads `text` as the policy of a decider whose PATH is the world's
 * folder of programs, then /usr/bin. */
static void
open_policy(const char *text)
{
	static char path_env[600];
	struct pty_policy_reads reads;
	char err[1024];

	snprintf(path_env, sizeof path_env, "%s:/usr/bin", tools);
	ck_assert_msg(pty_policy_open_text("never.dl", text, strlen(text),
					   &session, &reads, err,
					   sizeof err) == 0,
		      "%s", err);
	ck_assert_int_eq(pty_decider_init(&d, session, &reads, path_env), 0);
}

#define ALLOW_ALL                                                              \
	"allow(C) :- command(C).\n"                                            \
	"allow_exec(P) :- exec_path(P).\n"

START_TEST(test_execnever_reading_a_request_fact_does_not_load)
{
	static const char *const bad[] = {
	    /* directly, through a helper, negated, in an aggregate */
	    "exec_never(P) :- exec_path(P), exec_arg(1, \"x\").\n",
	    ".decl h(p)\nh(P) :- exec_path(P), exec_parent(\"/x\").\n"
	    "exec_never(P) :- h(P).\n",
	    "exec_never(P) :- exec_path(P), not(exec_cwd(\"/\")).\n",
	    "exec_never(P) :- exec_path(P),\n"
	    "    0 = count : { exec_request(_) }.\n",
	    /* the time changes during a session */
	    "exec_never(P) :- exec_path(P), time_of_day(\"03:00\").\n",
	    /* the line's facts are no exec's */
	    "exec_never(P) :- exec_path(P), command(\"x\").\n",
	};
	static const char *const reads[] = {
	    "exec_arg",     "exec_parent", "exec_cwd",
	    "exec_request", "time_of_day", "command",
	};
	maelys_datalog_session_t *s = NULL;
	char text[1024], err[1024];
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(text, sizeof text, ALLOW_ALL "%s", bad[i]);
		err[0] = '\0';
		ck_assert_int_eq(pty_policy_open_text("bad.dl", text,
						      strlen(text), &s, NULL,
						      err, sizeof err),
				 -1);
		ck_assert_ptr_null(s);
		ck_assert_msg(strstr(err, "exec_never depends on ") != NULL &&
				  strstr(err, reads[i]) != NULL,
			      "%zu: %s", i, err);
	}
}
END_TEST

START_TEST(test_execnever_the_path_and_the_session_load)
{
	static const char text[] = ALLOW_ALL
	    "exec_never(P) :- exec_path(P), suffix(P, \"/halt-x\"),\n"
	    "    user(U), not(trusted_user(U)), session_mode(\"command\").\n"
	    "exec_never(P) :- exec_path(P), session_shell(P),\n"
	    "    group(\"nobody-at-all\"), host(_), remote_addr(_).\n"
	    "exec_never(P) :- exec_path(P), guard_program(P).\n";
	maelys_datalog_session_t *s = NULL;
	struct pty_policy_reads reads;
	char err[1024];

	ck_assert_msg(pty_policy_open_text("ok.dl", text, strlen(text), &s,
					   &reads, err, sizeof err) == 0,
		      "%s", err);
	ck_assert(reads.exec_never);
	(void)maelys_datalog_session_free(s);
}
END_TEST

/* What a session's start finds: the programs of PATH exec_never holds
 * for, by resolved path (a link in PATH leads to its file), each once,
 * and the files it names by itself. */
START_TEST(test_execnever_find_reads_path_and_named_files)
{
	char link[500], text[2048], err[1024];
	struct pty_landlock_never set;
	bool never;

	setup();
	snprintf(link, sizeof link, "%s/reboot-link", tools);
	ck_assert_int_eq(symlink(bin_ok, link), 0);
	snprintf(text, sizeof text,
		 ALLOW_ALL
		 "exec_never(P) :- exec_path(P), contains(P, \"halt\").\n"
		 "exec_never(\"%s\").\n"
		 "exec_never(\"/nonexistent/maelys-never\").\n",
		 "/usr/bin/true");
	open_policy(text);
	ck_assert_msg(pty_landlock_never_find(&d, PTY_MODE_INTERACTIVE, NULL, 0,
					      &set, err, sizeof err) == 0,
		      "%s", err);
	/* halt-x by its rule, /usr/bin/true by name; the link is to ok,
	 * and "reboot" is no rule of this policy; what does not exist is
	 * no file */
	ck_assert_uint_eq(set.n, 2);
	ck_assert(strcmp(set.files[0].path, bin_halt) == 0 ||
		  strcmp(set.files[1].path, bin_halt) == 0);
	ck_assert(strcmp(set.files[0].path, "/usr/bin/true") == 0 ||
		  strcmp(set.files[1].path, "/usr/bin/true") == 0);
	ck_assert_uint_ge(set.decided, 3);
	pty_landlock_never_free(&set);
	/* one file's question, as a decision asks it */
	ck_assert_int_eq(pty_never_ask(&d, PTY_MODE_INTERACTIVE, bin_halt,
				       &never, err, sizeof err),
			 0);
	ck_assert(never);
	ck_assert_int_eq(pty_never_ask(&d, PTY_MODE_INTERACTIVE, bin_ok, &never,
				       err, sizeof err),
			 0);
	ck_assert(!never);
	teardown();
}
END_TEST

/* exec_never wins over allow_exec in a decision, and says so. */
START_TEST(test_execnever_refuses_the_exec_whatever_allow_exec_says)
{
	static struct pty_exec_request r;
	struct pty_exec_decision dec;

	setup();
	open_policy(ALLOW_ALL
		    "exec_never(P) :- exec_path(P), contains(P, \"halt\").\n");
	memset(&r, 0, offsetof(struct pty_exec_request, bytes));
	snprintf(r.path, sizeof r.path, "%s", bin_halt);
	snprintf(r.request, sizeof r.request, "%s", bin_halt);
	pty_exec_decide(&d, &r, PTY_MODE_INTERACTIVE, &dec);
	ck_assert_int_eq(dec.verdict, PTY_EXEC_POLICY);
	ck_assert(dec.never);
	snprintf(r.path, sizeof r.path, "%s", bin_ok);
	pty_exec_decide(&d, &r, PTY_MODE_INTERACTIVE, &dec);
	ck_assert_int_eq(dec.verdict, PTY_EXEC_ALLOW);
	ck_assert(!dec.never);
	teardown();
}
END_TEST

/* --list leaves out what would be refused as a program. */
START_TEST(test_execnever_list_leaves_the_program_out)
{
	struct pty_runnable list;
	size_t i;
	bool halt = false, ok = false;

	setup();
	open_policy(ALLOW_ALL
		    "exec_never(P) :- exec_path(P), contains(P, \"halt\").\n");
	ck_assert_int_eq(pty_runnable_list(&d, PTY_MODE_INTERACTIVE, &list), 0);
	for (i = 0; i < list.n; i++) {
		halt = halt || strcmp(list.entries[i].name, "halt-x") == 0;
		ok = ok || strcmp(list.entries[i].name, "ok") == 0;
	}
	pty_runnable_free(&list);
	ck_assert(ok);
	ck_assert(!halt);
	teardown();
}
END_TEST

/* Applies ruleset `fd` in a child and executes each path directly; out[i]
 * is 0 when it ran, else the errno the exec failed with. */
static void
exec_under(int fd, const char *const *paths, size_t n, int *out)
{
	int pipefd[2];
	pid_t pid;
	size_t i;
	int st;

	ck_assert_int_eq(pipe(pipefd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		(void)close(pipefd[0]);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
		    syscall(SYS_landlock_restrict_self, fd, 0) != 0)
			_exit(3);
		for (i = 0; i < n; i++) {
			pid_t c = fork();
			int e = 0;

			if (c == 0) {
				char *argv[] = {"x", NULL};

				execv(paths[i], argv);
				_exit(100 + errno);
			}
			if (c < 0 || waitpid(c, &st, 0) != c || !WIFEXITED(st))
				e = -1;
			else if (WEXITSTATUS(st) >= 100)
				e = WEXITSTATUS(st) - 100;
			if (write(pipefd[1], &e, sizeof e) != sizeof e)
				_exit(4);
		}
		_exit(0);
	}
	(void)close(pipefd[1]);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(read(pipefd[0], &out[i], sizeof out[i]),
				 sizeof out[i]);
	(void)close(pipefd[0]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
}

static void
require_landlock(void)
{
	if (pty_landlock_abi() < 1) {
		fprintf(stderr, "SKIP: this kernel has no Landlock\n");
		exit(77);
	}
}

/* Without exec locations: every file but the never-run ones, including
 * the loader and what PATH does not name; a file added afterwards to a
 * folder on the way to one waits for the next session. */
START_TEST(test_execnever_the_kernel_refuses_never_run_files_alone)
{
	const char *paths[] = {bin_halt, bin_ok, "/usr/bin/true", later,
			       "/usr/bin/env"};
	int got[5], fd = -1;
	char note[256], err[1024];

	require_landlock();
	setup();
	open_policy(ALLOW_ALL
		    "exec_never(P) :- exec_path(P), contains(P, \"halt\").\n");
	ck_assert_msg(pty_landlock_build(&d, PTY_MODE_INTERACTIVE, NULL, 0,
					 true, &fd, note, sizeof note, err,
					 sizeof err) == 0,
		      "%s", err);
	ck_assert_int_ge(fd, 0);
	world_program(later);
	exec_under(fd, paths, 5, got);
	(void)close(fd);
	ck_assert_int_eq(got[0], EACCES);
	ck_assert_int_eq(got[1], 0);
	ck_assert_int_eq(got[2], 0);
	ck_assert_int_eq(got[3], EACCES);
	ck_assert_int_eq(got[4], 0);
	teardown();
}
END_TEST

/* A hard link of a never-run file is the file: refused by its other name
 * too. */
START_TEST(test_execnever_a_hard_link_is_refused_too)
{
	const char *paths[] = {bin_halt, later, bin_ok};
	int got[3], fd = -1;
	char note[256], err[1024];

	require_landlock();
	setup();
	ck_assert_int_eq(link(bin_halt, later), 0);
	open_policy(ALLOW_ALL
		    "exec_never(P) :- exec_path(P), suffix(P, \"/halt-x\").\n");
	ck_assert_msg(pty_landlock_build(&d, PTY_MODE_INTERACTIVE, NULL, 0,
					 true, &fd, note, sizeof note, err,
					 sizeof err) == 0,
		      "%s", err);
	exec_under(fd, paths, 3, got);
	(void)close(fd);
	ck_assert_int_eq(got[0], EACCES);
	ck_assert_int_eq(got[1], EACCES);
	ck_assert_int_eq(got[2], 0);
	teardown();
}
END_TEST

/* A hard link in another folder of PATH is refused with it; one in a
 * folder the guard does not read is said (the kernel would run it). */
START_TEST(test_execnever_other_names_are_refused_or_said)
{
	char other[600], hidden[600], dir2[400], dir3[400], path_env[1200];
	const char *paths[2];
	int got[2], fd = -1;
	char note[512], err[1024];
	struct pty_landlock_never set;

	require_landlock();
	setup();
	snprintf(dir2, sizeof dir2, "%s/more", world.dir);
	snprintf(dir3, sizeof dir3, "%s/unread", world.dir);
	ck_assert_int_eq(mkdir(dir2, 0755), 0);
	ck_assert_int_eq(mkdir(dir3, 0755), 0);
	snprintf(other, sizeof other, "%s/other", dir2);
	ck_assert_int_eq(link(bin_halt, other), 0);
	open_policy(ALLOW_ALL
		    "exec_never(P) :- exec_path(P), suffix(P, \"/halt-x\").\n");
	snprintf(path_env, sizeof path_env, "%s:%s:/usr/bin", tools, dir2);
	d.path_env = path_env;
	ck_assert_msg(pty_landlock_never_find(&d, PTY_MODE_INTERACTIVE, NULL, 0,
					      &set, err, sizeof err) == 0,
		      "%s", err);
	ck_assert_uint_eq(set.n, 2); /* halt-x, and other by its file */
	ck_assert_str_eq(set.unseen, "");
	pty_landlock_never_free(&set);
	ck_assert_msg(pty_landlock_build(&d, PTY_MODE_INTERACTIVE, NULL, 0,
					 true, &fd, note, sizeof note, err,
					 sizeof err) == 0,
		      "%s", err);
	ck_assert_str_eq(note, "");
	paths[0] = other;
	paths[1] = bin_ok;
	exec_under(fd, paths, 2, got);
	(void)close(fd);
	ck_assert_int_eq(got[0], EACCES);
	ck_assert_int_eq(got[1], 0);
	/* a third name where no folder read shows it */
	snprintf(hidden, sizeof hidden, "%s/hidden", dir3);
	ck_assert_int_eq(link(bin_halt, hidden), 0);
	ck_assert_int_eq(pty_landlock_never_find(&d, PTY_MODE_INTERACTIVE, NULL,
						 0, &set, err, sizeof err),
			 0);
	ck_assert_str_ne(set.unseen, "");
	pty_landlock_never_free(&set);
	ck_assert_int_eq(pty_landlock_build(&d, PTY_MODE_INTERACTIVE, NULL, 0,
					    true, &fd, note, sizeof note, err,
					    sizeof err),
			 0);
	(void)close(fd);
	ck_assert_msg(strstr(note, "hard link") != NULL, "%s", note);
	teardown();
}
END_TEST

/* A folder on the way to a never-run file, mounted a second time
 * elsewhere (a bind mount): the file is refused there too.  The test's
 * own mount namespace, so that nothing outside it sees the mount. */
START_TEST(test_execnever_a_bind_mount_of_its_folder_is_refused_too)
{
	char alias[400], shown[600], note[512], err[1024];
	const char *paths[3];
	int got[3], fd = -1;

	require_landlock();
	setup();
	if (unshare(CLONE_NEWNS) != 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
		fprintf(stderr, "SKIP: no mount namespace here: %s\n",
			strerror(errno));
		teardown();
		return;
	}
	/* beneath a folder that is not on the way, which gets a rule */
	snprintf(alias, sizeof alias, "%s/deep", world.dir);
	ck_assert_int_eq(mkdir(alias, 0755), 0);
	snprintf(alias, sizeof alias, "%s/deep/alias", world.dir);
	ck_assert_int_eq(mkdir(alias, 0755), 0);
	ck_assert_int_eq(mount(tools, alias, NULL, MS_BIND, NULL), 0);
	snprintf(shown, sizeof shown, "%s/halt-x", alias);
	open_policy(ALLOW_ALL
		    "exec_never(P) :- exec_path(P), suffix(P, \"/halt-x\").\n");
	ck_assert_msg(pty_landlock_build(&d, PTY_MODE_INTERACTIVE, NULL, 0,
					 true, &fd, note, sizeof note, err,
					 sizeof err) == 0,
		      "%s", err);
	paths[0] = bin_halt;
	paths[1] = shown;
	paths[2] = bin_ok;
	exec_under(fd, paths, 3, got);
	(void)close(fd);
	(void)umount2(alias, MNT_DETACH);
	ck_assert_int_eq(got[0], EACCES);
	ck_assert_int_eq(got[1], EACCES);
	ck_assert_int_eq(got[2], 0);
	teardown();
}
END_TEST

/* With exec locations: inside a folder location, all but the never-run
 * files; a never-run file named as a location is left out; nothing
 * outside the locations (the shell, the guard and the loader aside). */
START_TEST(test_execnever_subtracts_inside_the_locations)
{
	const char *paths[] = {bin_halt, bin_ok, "/usr/bin/true",
			       "/usr/bin/env"};
	char text[2048], note[256], err[1024];
	const char *extra[2] = {"/usr/bin/env", NULL};
	int got[4], fd = -1;

	require_landlock();
	setup();
	snprintf(text, sizeof text,
		 ALLOW_ALL
		 "exec_never(P) :- exec_path(P), contains(P, \"halt\").\n"
		 "exec_dir(\"%s\").\nexec_file(\"%s\").\n",
		 tools, bin_halt);
	open_policy(text);
	ck_assert_msg(pty_landlock_build(&d, PTY_MODE_INTERACTIVE, extra, 2,
					 true, &fd, note, sizeof note, err,
					 sizeof err) == 0,
		      "%s", err);
	exec_under(fd, paths, 4, got);
	(void)close(fd);
	ck_assert_int_eq(got[0], EACCES);
	ck_assert_int_eq(got[1], 0);
	ck_assert_int_eq(got[2], EACCES); /* in no location */
	ck_assert_int_eq(got[3], 0);      /* the "shell" */
	teardown();
}
END_TEST

/* The session's shell and the loader cannot be never-run: no session
 * could start.  The guard can. */
START_TEST(test_execnever_of_the_shell_is_no_session)
{
	const char *extra[2] = {NULL, NULL};
	char text[2048], note[256], err[1024];
	int fd = -1;

	require_landlock();
	setup();
	snprintf(text, sizeof text, ALLOW_ALL "exec_never(\"%s\").\n", bin_ok);
	open_policy(text);
	extra[0] = bin_ok;
	ck_assert_int_eq(pty_landlock_build(&d, PTY_MODE_INTERACTIVE, extra, 2,
					    false, &fd, note, sizeof note, err,
					    sizeof err),
			 -1);
	ck_assert_int_eq(fd, -1);
	ck_assert_msg(strstr(err, "the session's shell") != NULL, "%s", err);
	extra[0] = "/usr/bin/env";
	extra[1] = bin_ok; /* the guard */
	ck_assert_msg(pty_landlock_build(&d, PTY_MODE_INTERACTIVE, extra, 2,
					 false, &fd, note, sizeof note, err,
					 sizeof err) == 0,
		      "%s", err);
	ck_assert_int_ge(fd, 0);
	(void)close(fd);
	teardown();
}
END_TEST

/* --check says when allow_exec allows what exec_never refuses (explain
 * says which decided), and when a never-run file has a name the guard
 * does not read; the shipped policies have neither. */
START_TEST(test_execnever_check_says_where_the_policy_disagrees)
{
	char text[1024], path[600], *out, *err;
	const char *shipped[] = {"policies/level1.dl", "policies/bastion.dl"};
	size_t i;

	setup();
	snprintf(path, sizeof path, "%s/check.dl", world.dir);
	snprintf(text, sizeof text,
		 ALLOW_ALL
		 "exec_never(P) :- exec_path(P), suffix(P, \"/halt-x\").\n");
	pts_write_file(path, text, 0644);
	{
		char *argv[] = {(char *)pts_build_path("pty/maelys-pty"),
				"--check",
				"--policy",
				path,
				"--path",
				tools,
				NULL};

		(void)pts_run(argv, NULL, &out, &err);
	}
	ck_assert_msg(
	    strstr(err, "allow_exec allows ") != NULL &&
		strstr(err, "/halt-x typed alone in interactive "
			    "sessions, and exec_never holds for it") != NULL,
	    "%s", err);
	free(out);
	free(err);
	/* explain says which of the two decided, and how exec_never held */
	{
		char exec[600];
		char *argv[] = {(char *)pts_build_path("pty/maelys-pty"),
				"explain",
				"--policy",
				path,
				"--exec",
				exec,
				"--",
				"halt-x",
				NULL};

		snprintf(exec, sizeof exec, "%s", bin_halt);
		(void)pts_run(argv, NULL, &out, &err);
		ck_assert_msg(strstr(out, "exec_never holds for '") != NULL &&
				  strstr(out, "exec_never rows:") != NULL,
			      "%s%s", out, err);
		free(out);
		free(err);
	}
	for (i = 0; i < 2; i++) {
		char *argv[] = {(char *)pts_build_path("pty/maelys-pty"),
				"--check", "--policy",
				(char *)pts_source_path(shipped[i]), NULL};

		(void)pts_run(argv, NULL, &out, &err);
		ck_assert_msg(strstr(err, "exec_never") == NULL, "%s: %s",
			      shipped[i], err);
		free(out);
		free(err);
	}
	teardown();
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("execnever");

	tcase_add_test(tc, test_execnever_reading_a_request_fact_does_not_load);
	tcase_add_test(tc, test_execnever_the_path_and_the_session_load);
	tcase_add_test(tc, test_execnever_find_reads_path_and_named_files);
	tcase_add_test(
	    tc, test_execnever_refuses_the_exec_whatever_allow_exec_says);
	tcase_add_test(tc, test_execnever_list_leaves_the_program_out);
	tcase_add_test(tc,
		       test_execnever_the_kernel_refuses_never_run_files_alone);
	tcase_add_test(tc, test_execnever_a_hard_link_is_refused_too);
	tcase_add_test(tc, test_execnever_other_names_are_refused_or_said);
	tcase_add_test(
	    tc, test_execnever_a_bind_mount_of_its_folder_is_refused_too);
	tcase_add_test(tc, test_execnever_subtracts_inside_the_locations);
	tcase_add_test(tc, test_execnever_of_the_shell_is_no_session);
	tcase_add_test(tc,
		       test_execnever_check_says_where_the_policy_disagrees);
	suite_add_tcase(s, tc);
	return s;
}
