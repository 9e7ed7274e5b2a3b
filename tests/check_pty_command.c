/* SPDX-License-Identifier: MIT */
/*
 * maelys-pty -c COMMAND, as sshd runs it: no terminal, the same scanner and
 * policy with session_mode("command"), the allowed command's own exit
 * status, a denied one's message on stderr and exit 126, and the same clean
 * environment as an interactive session.
 */
#include "runner.h"

#include "pty_harness.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static struct pts_world world;

static int
run_c(const char *policy, const char *command, char **out, char **err)
{
	char *argv[] = {(char *)pts_build_path("pty/maelys-pty"),
			"--policy",
			(char *)policy,
			"--path",
			world.path_env,
			"-c",
			(char *)command,
			NULL};
	char home[400];
	char *envp[] = {home,
			"FOO=leaked",
			"LD_LIBRARY_PATH=/nonexistent",
			"BASH_ENV=/nonexistent",
			"LANG=C.UTF-8",
			NULL};

	snprintf(home, sizeof home, "HOME=%s", world.home);
	return pts_run(argv, envp, out, err);
}

START_TEST(test_command_allowed_runs_with_its_status)
{
	char *out, *err;

	pts_world_make(&world);
	ck_assert_int_eq(run_c(pts_source_path("policies/level1.dl"),
			       "echo hello command", &out, &err),
			 0);
	ck_assert_str_eq(out, "hello command\n");
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
	ck_assert_int_eq(
	    run_c(pts_source_path("policies/level1.dl"), "false", &out, &err),
	    1);
	free(out);
	free(err);
	pts_world_remove(&world);
}
END_TEST

START_TEST(test_command_denied_exits_126_with_reasons)
{
	static const struct {
		const char *command, *message;
	} cases[] = {
	    {"shutdown -h now", "maelys-pty: 'shutdown' denied by policy\n"
				"  deny(shutdown): command is forbidden "
				"by policy\n"},
	    /* then where, without a caret: no line is on a screen */
	    {"ls | wc", "maelys-pty: '__line__' denied by policy\n"
			"  deny(__line__): shell metacharacter in line\n"
			"  a pipe '|' at column 4\n"},
	    {"git commit -m \"x\"",
	     "maelys-pty: denied before solving \xe2\x80\x94 quoted syntax "
	     "is unsupported\n"
	     "  a quote '\"' at column 15\n"},
	    {"", "maelys-pty: empty command: nothing to run\n"},
	};
	size_t i;

	pts_world_make(&world);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *out, *err;

		ck_assert_int_eq(run_c(pts_source_path("policies/level1.dl"),
				       cases[i].command, &out, &err),
				 126);
		ck_assert_str_eq(out, "");
		ck_assert_str_eq(err, cases[i].message);
		free(out);
		free(err);
	}
	ck_assert(!pts_world_ran(&world, "shutdown"));
	pts_world_remove(&world);
}
END_TEST

START_TEST(test_command_mode_is_a_fact_of_the_policy)
{
	static const char only_commands[] =
	    "allow(C) :- command(C), session_mode(\"command\").\n"
	    "allow_exec(P) :- exec_path(P).\n";
	char *out, *err;
	struct pts p;

	pts_world_make(&world);
	ck_assert_int_eq(run_c(pts_world_policy(&world, "c.dl", only_commands),
			       "echo via-c", &out, &err),
			 0);
	ck_assert_str_eq(out, "via-c\n");
	free(out);
	free(err);
	/* the same policy denies the same line at the prompt */
	pts_start(&p, &world, pts_world_policy(&world, "c.dl", only_commands),
		  24, 80);
	ck_assert(pts_wait_prompt(&p, 8000));
	pts_type(&p, "echo via-prompt\r");
	ck_assert(pts_expect(&p, "'echo' denied by policy", 8000));
	pts_close(&p);
	pts_world_remove(&world);
}
END_TEST

START_TEST(test_command_environment_is_the_allow_list)
{
	static const char all[] = "allow(C) :- command(C).\n"
				  "allow_exec(P) :- exec_path(P).\n";
	char *out, *err;

	pts_world_make(&world);
	ck_assert_int_eq(
	    run_c(pts_world_policy(&world, "all.dl", all), "env", &out, &err),
	    0);
	ck_assert_ptr_null(strstr(out, "FOO="));
	ck_assert_ptr_null(strstr(out, "LD_LIBRARY_PATH"));
	ck_assert_ptr_null(strstr(out, "BASH_ENV"));
	ck_assert_ptr_nonnull(strstr(out, "LANG=C.UTF-8\n"));
	ck_assert_ptr_nonnull(strstr(out, "PATH="));
	ck_assert_ptr_nonnull(strstr(out, "SHELL="));
	ck_assert_ptr_nonnull(strstr(out, "maelys-pty\n"));
	free(out);
	free(err);
	/* the builtins that run text are gone here too */
	ck_assert_int_eq(run_c(pts_world_policy(&world, "all.dl", all),
			       "eval shutdown", &out, &err),
			 127);
	ck_assert_ptr_nonnull(strstr(err, "eval: command not found"));
	free(out);
	free(err);
	ck_assert(!pts_world_ran(&world, "shutdown"));
	pts_world_remove(&world);
}
END_TEST

/* --shell and --path longer than a session holds are refused, never cut
 * to fit (a cut PATH would be another PATH). */
START_TEST(test_command_overlong_shell_or_path_refused)
{
	static const char *const opts[] = {"--path", "--shell"};
	char *value = malloc(5002), *out, *err;
	size_t i;

	ck_assert_ptr_nonnull(value);
	value[0] = '/';
	memset(value + 1, 'a', 5000);
	value[5001] = '\0';
	for (i = 0; i < 2; i++) {
		char *argv[] = {(char *)pts_build_path("pty/maelys-pty"),
				"--policy",
				(char *)pts_source_path("policies/level1.dl"),
				(char *)opts[i],
				value,
				"-c",
				"echo ran",
				NULL};
		char *envp[] = {"LANG=C.UTF-8", NULL};
		char want[64];

		ck_assert_int_eq(pts_run(argv, envp, &out, &err), 126);
		ck_assert_str_eq(out, "");
		snprintf(want, sizeof want, "maelys-pty: %s: at most ", opts[i]);
		ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s", err);
		free(out);
		free(err);
	}
	free(value);
}
END_TEST

/* A policy that decides lines only (the walkthrough's) runs a -c command
 * with no word of its own on stderr: a -c command's output belongs to the
 * program that asked (the note is an interactive session's). */
START_TEST(test_command_lines_only_policy_says_nothing)
{
	char *out, *err;

	pts_world_make(&world);
	ck_assert_int_eq(run_c(pts_source_path("policies/walkthrough.dl"),
			       "echo quiet", &out, &err),
			 0);
	ck_assert_str_eq(out, "quiet\n");
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
	pts_world_remove(&world);
}
END_TEST

START_TEST(test_command_policy_that_does_not_load_denies)
{
	char *out, *err;

	pts_world_make(&world);
	ck_assert_int_eq(run_c(pts_world_policy(&world, "bad.dl", "allow(C :-"),
			       "echo x", &out, &err),
			 126);
	ck_assert_str_eq(out, "");
	ck_assert_ptr_nonnull(strstr(err, "maelys-pty: policy"));
	ck_assert_ptr_nonnull(strstr(err, "parse"));
	free(out);
	free(err);
	pts_world_remove(&world);
}
END_TEST

START_TEST(test_command_path_fact_is_where_path_resolution_leads)
{
	/* only programs from the world's bin/ or /usr/bin by their real
	 * location; the fact is computed because the policy reads it */
	static const char by_path[] =
	    "allow(C) :- command(C), command_path(P), prefix(P, "
	    "\"/usr/bin/\").\n"
	    "deny(C, P) :- command(C), command_path(P).\n"
	    "allow_exec(P) :- exec_path(P).\n";
	char *out, *err;

	pts_world_make(&world);
	ck_assert_int_eq(run_c(pts_world_policy(&world, "p.dl", by_path),
			       "true", &out, &err),
			 0);
	free(out);
	free(err);
	/* the fake shutdown is found first on PATH, in the world's bin/ */
	ck_assert_int_eq(run_c(pts_world_policy(&world, "p.dl", by_path),
			       "shutdown now", &out, &err),
			 126);
	ck_assert_msg(strstr(err, world.bin) != NULL,
		      "command_path did not name %s/shutdown: %s", world.bin,
		      err);
	free(out);
	free(err);
	/* a command nowhere on PATH has no command_path at all */
	ck_assert_int_eq(run_c(pts_world_policy(&world, "p.dl", by_path),
			       "no-such-program-anywhere", &out, &err),
			 126);
	ck_assert_ptr_nonnull(strstr(err, "no rule allows"));
	free(out);
	free(err);
	ck_assert(!pts_world_ran(&world, "shutdown"));
	pts_world_remove(&world);
}
END_TEST

/* What a command leaves behind ends with it, however it detached: sshd's
 * "ssh host CMD" must not leave daemons of the user running. */
START_TEST(test_command_leaves_no_detached_process)
{
	char cmd[600], pidfile[400], path[64], *out, *err, *text;
	long pid = -1;
	int i;

	pts_world_make(&world);
	snprintf(pidfile, sizeof pidfile, "%s/detached", world.dir);
	snprintf(cmd, sizeof cmd, "exec_probe detach %s", pidfile);
	ck_assert_int_eq(run_c(pts_world_policy(&world, "all.dl",
						"allow(C) :- command(C).\n"
						"allow_exec(P) :- "
						"exec_path(P).\n"),
			       cmd, &out, &err),
			 0);
	ck_assert_msg(strstr(out, "detach: ok") != NULL, "%s%s", out, err);
	free(out);
	free(err);
	text = pts_slurp(pidfile);
	pid = strtol(text, NULL, 10);
	free(text);
	ck_assert_int_gt(pid, 1);
	snprintf(path, sizeof path, "/proc/%ld", pid);
	for (i = 0; i < 100 && access(path, F_OK) == 0; i++)
		usleep(30 * 1000);
	ck_assert_msg(access(path, F_OK) != 0, "daemon %ld outlived -c", pid);
	pts_world_remove(&world);
}
END_TEST

/* A descriptor the guard was started with (sshd's, a caller's), even far
 * above the usual ones, never reaches the command: the shell starts with
 * 0, 1 and 2 only (close_range(2) in the child). */
START_TEST(test_command_inherits_no_descriptor_of_the_caller)
{
	char *argv[] = {(char *)pts_build_path("pty/maelys-pty"),
			"--policy",
			NULL,
			"--path",
			world.path_env,
			"-c",
			"ls /proc/self/fd",
			NULL};
	struct rlimit rl;
	int o[2], st;
	pid_t pid;
	char buf[4096];
	ssize_t n;
	size_t len = 0;

	pts_world_make(&world);
	argv[2] = (char *)pts_world_policy(&world, "all.dl",
					   "allow(C) :- command(C).\n"
					   "allow_exec(P) :- exec_path(P).\n");
	ck_assert_int_eq(pipe(o), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char *envp[] = {"LANG=C.UTF-8", NULL};
		int fd = open("/dev/null", O_RDONLY); /* not close-on-exec */

		if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 5001 &&
		    rl.rlim_max >= 5001) {
			rl.rlim_cur = 5001;
			(void)setrlimit(RLIMIT_NOFILE, &rl);
		}
		if (fd < 0 || dup2(fd, 5000) != 5000 || dup2(fd, 9) != 9)
			_exit(99);
		dup2(o[1], 1);
		close(o[0]);
		execve(argv[0], argv, envp);
		_exit(98);
	}
	close(o[1]);
	while ((n = read(o[0], buf + len, sizeof buf - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	close(o[0]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
	/* ls's own 0 1 2 and the directory it reads */
	ck_assert_str_eq(buf, "0\n1\n2\n3\n");
	pts_world_remove(&world);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("command");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_command_allowed_runs_with_its_status);
	tcase_add_test(tc, test_command_leaves_no_detached_process);
	tcase_add_test(tc, test_command_inherits_no_descriptor_of_the_caller);
	tcase_add_test(tc, test_command_denied_exits_126_with_reasons);
	tcase_add_test(tc, test_command_mode_is_a_fact_of_the_policy);
	tcase_add_test(tc, test_command_environment_is_the_allow_list);
	tcase_add_test(tc, test_command_policy_that_does_not_load_denies);
	tcase_add_test(tc, test_command_lines_only_policy_says_nothing);
	tcase_add_test(tc, test_command_overlong_shell_or_path_refused);
	tcase_add_test(tc,
		       test_command_path_fact_is_where_path_resolution_leads);
	suite_add_tcase(s, tc);
	return s;
}
