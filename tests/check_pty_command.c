/* SPDX-License-Identifier: MIT */
/*
 * maelys-pty -c COMMAND, as sshd runs it: no terminal, the same scanner and
 * policy with session_mode("command"), the allowed command's own exit
 * status, a denied one's message on stderr and exit 126, and the same clean
 * environment as an interactive session.
 */
#include "runner.h"

#include "pty_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	    {"ls | wc", "maelys-pty: '__line__' denied by policy\n"
			"  deny(__line__): shell metacharacter in line\n"},
	    {"git commit -m \"x\"",
	     "maelys-pty: denied before solving \xe2\x80\x94 quoted syntax "
	     "is unsupported\n"},
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

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("command");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_command_allowed_runs_with_its_status);
	tcase_add_test(tc, test_command_denied_exits_126_with_reasons);
	tcase_add_test(tc, test_command_mode_is_a_fact_of_the_policy);
	tcase_add_test(tc, test_command_environment_is_the_allow_list);
	tcase_add_test(tc, test_command_policy_that_does_not_load_denies);
	tcase_add_test(tc,
		       test_command_path_fact_is_where_path_resolution_leads);
	suite_add_tcase(s, tc);
	return s;
}
