/* SPDX-License-Identifier: MIT */
/*
 * The bastion deployment end to end, through the real binary: each refusal
 * of the configuration check ends the session before a shell starts;
 * --check; -c as sshd runs it (argv[0] "-maelys-pty", and ForceCommand with
 * SSH_ORIGINAL_COMMAND); allow_with_log with a writable log, with a log on
 * /dev/full (refused), and with on_audit_failure = terminate;
 * require_confirm answered yes and no; the lockout after too many refusals;
 * the idle timeout; an audit log that verifies, and copies of it with an
 * edited, a deleted and a reordered record that do not.
 *
 * The configuration must be root's, so the whole suite needs root (CI runs
 * as root); otherwise it says so and is skipped.
 */
#include "runner.h"

#include "pty_harness.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define T 8000

/* A policy with every kind of decision: echo/true/date run (date only with
 * its record), reboot needs a confirmation, everything else is refused. */
static const char l2_policy[] =
    ".decl safe(c)\n"
    "safe(\"echo\"). safe(\"true\"). safe(\"ls\"). safe(\"exit\").\n"
    "safe(\"setsid\").\n"
    "allow(C) :- command(C), safe(C), not(shell_metachar(_)).\n"
    "allow_with_log(C, \"date is recorded\") :- command(C), C = \"date\".\n"
    "require_confirm(C, \"Really reboot?\") :- command(C), C = \"reboot\",\n"
    "    not(confirmed(C)).\n"
    "allow(C) :- command(C), C = \"reboot\", confirmed(C).\n"
    "deny(C, \"not on the list\") :- command(C), not(safe(C)),\n"
    "    C != \"date\", C != \"reboot\".\n"
    "allow_exec(P) :- exec_path(P).\n";

static struct pts_world world;
static char config[600], policy[600], key[600], log_path[600];

/* A world with a policy, a key and a configuration naming them plus the
 * extra lines given. */
static void
setup(const char *extra)
{
	char text[4096];

	pts_world_make(&world);
	/* the world's directory is root's 0700 under the sticky /tmp */
	snprintf(policy, sizeof policy, "%s/l2.dl", world.dir);
	pts_write_file(policy, l2_policy, 0644);
	snprintf(key, sizeof key, "%s/audit.key", world.dir);
	pts_write_audit_key(key);
	snprintf(log_path, sizeof log_path, "%s/audit.log", world.dir);
	snprintf(config, sizeof config, "%s/maelys-pty.conf", world.dir);
	snprintf(text, sizeof text,
		 "policy = %s\npath = %s\naudit_key = %s\nsyslog = off\n%s",
		 policy, world.path_env, key, extra);
	pts_write_file(config, text, 0644);
}

static void
start(struct pts *p)
{
	pts_start_config(p, &world, config);
}

static int
run_c(const char *argv0, const char *command, const char *ssh_cmd, char **out,
      char **err)
{
	return pts_run_config(&world, config, argv0, command, ssh_cmd, out,
			      err);
}

static int
verify(const char *log, char **out, char **err)
{
	return pts_verify_log(config, log, out, err);
}

static void
teardown(void)
{
	pts_world_remove(&world);
}

/* Adds the world's audit log to the configuration. */
static void
add_audit_log(void)
{
	char *text = pts_slurp(config), both[8192];

	snprintf(both, sizeof both, "%saudit_log = %s\n", text, log_path);
	pts_write_file(config, both, 0644);
	free(text);
}

/* Each failed check: the user sees one line naming what is wrong, no shell
 * starts, the exit status is not zero. */
static void
assert_no_session(const char *want)
{
	struct pts p;
	char *out, *err;

	start(&p);
	ck_assert_int_eq(pts_wait(&p, T), 1);
	ck_assert_msg(strstr(p.out, want) != NULL, "wanted '%s' in: %s", want,
		      p.out);
	ck_assert_msg(strstr(p.out, "$ ") == NULL &&
			  strstr(p.out, "# ") == NULL,
		      "a prompt appeared: %s", p.out);
	pts_close(&p);
	/* and -c is refused the same way, 126 */
	ck_assert_int_eq(run_c("maelys-pty", "echo x", NULL, &out, &err), 126);
	ck_assert_str_eq(out, "");
	ck_assert_ptr_nonnull(strstr(err, want));
	free(out);
	free(err);
}

START_TEST(test_deploy_config_owned_by_another_user_starts_nothing)
{
	setup("");
	ck_assert_int_eq(chown(config, 1, 1), 0);
	assert_no_session("not root");
	teardown();
}
END_TEST

START_TEST(test_deploy_config_writable_by_others_starts_nothing)
{
	setup("");
	ck_assert_int_eq(chmod(config, 0666), 0);
	assert_no_session("writable by");
	teardown();
}
END_TEST

START_TEST(test_deploy_config_symlink_starts_nothing)
{
	char real[700];

	setup("");
	snprintf(real, sizeof real, "%s.real", config);
	ck_assert_int_eq(rename(config, real), 0);
	ck_assert_int_eq(symlink(real, config), 0);
	assert_no_session("symbolic link");
	teardown();
}
END_TEST

START_TEST(test_deploy_config_parent_writable_starts_nothing)
{
	setup("");
	ck_assert_int_eq(chmod(world.dir, 0777), 0);
	assert_no_session("writable by");
	ck_assert_int_eq(chmod(world.dir, 0700), 0);
	teardown();
}
END_TEST

START_TEST(test_deploy_config_missing_starts_nothing)
{
	setup("");
	ck_assert_int_eq(unlink(config), 0);
	assert_no_session("maelys-pty.conf");
	teardown();
}
END_TEST

START_TEST(test_deploy_malformed_policy_starts_nothing)
{
	setup("");
	pts_write_file(policy, "allow(C) :- command(C)\n", 0644); /* no '.' */
	assert_no_session("parse");
	teardown();
}
END_TEST

START_TEST(test_deploy_policy_writable_by_group_starts_nothing)
{
	setup("");
	ck_assert_int_eq(chmod(policy, 0664), 0);
	assert_no_session("writable by");
	teardown();
}
END_TEST

START_TEST(test_deploy_check_option_says_sound_or_not)
{
	char *argv[] = {(char *)pts_build_path("pty/maelys-pty"), "--check",
			"--config", config, NULL};
	char *envp[] = {NULL};
	char *out, *err;

	setup("");
	ck_assert_int_eq(pts_run(argv, envp, &out, &err), 0);
	ck_assert_ptr_nonnull(strstr(out, ": ok"));
	free(out);
	free(err);
	ck_assert_int_eq(chmod(policy, 0666), 0);
	ck_assert_int_eq(pts_run(argv, envp, &out, &err), 1);
	ck_assert_ptr_nonnull(strstr(err, "writable by"));
	free(out);
	free(err);
	teardown();
}
END_TEST

START_TEST(test_deploy_sshd_login_shell_command_and_force_command)
{
	char *out, *err;

	setup("");
	/* sshd runs the login shell "-maelys-pty" with -c for ssh host cmd */
	ck_assert_int_eq(
	    run_c("-maelys-pty", "echo via-sshd", NULL, &out, &err), 0);
	ck_assert_str_eq(out, "via-sshd\n");
	free(out);
	free(err);
	ck_assert_int_eq(run_c("-maelys-pty", "shutdown now", NULL, &out, &err),
			 126);
	ck_assert_ptr_nonnull(strstr(err, "'shutdown' denied by policy"));
	free(out);
	free(err);
	/* ForceCommand: sshd runs "-c <the guard>", the client's request is
	 * SSH_ORIGINAL_COMMAND, and that is what is decided */
	ck_assert_int_eq(run_c("-maelys-pty", pts_build_path("pty/maelys-pty"),
			       "echo via-force-command", &out, &err),
			 0);
	ck_assert_str_eq(out, "via-force-command\n");
	free(out);
	free(err);
	ck_assert_int_eq(
	    run_c("-maelys-pty", "maelys-pty", "shutdown -r now", &out, &err),
	    126);
	ck_assert_ptr_nonnull(strstr(err, "'shutdown' denied by policy"));
	free(out);
	free(err);
	ck_assert(!pts_world_ran(&world, "shutdown"));
	teardown();
}
END_TEST

START_TEST(test_deploy_allow_with_log_runs_once_recorded)
{
	struct pts p;
	char *log, *out, *err;

	setup("");
	add_audit_log();
	start(&p);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	pts_type(&p, "date\r");
	ck_assert(pts_wait_prompt(&p, T));
	ck_assert_ptr_null(strstr(p.out, "denied"));
	pts_type(&p, "shutdown\r");
	ck_assert(pts_expect(&p, "denied by policy", T));
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "exit\r");
	ck_assert_int_eq(pts_wait(&p, T), 0);
	pts_close(&p);
	log = pts_slurp(log_path);
	ck_assert_ptr_nonnull(strstr(log, "\"decision\":\"allow_with_log\""));
	ck_assert_ptr_nonnull(
	    strstr(log, "\"log_reason\":\"date is recorded\""));
	ck_assert_ptr_nonnull(strstr(log, "\"event\":\"session_start\""));
	ck_assert_ptr_nonnull(strstr(log, "\"event\":\"session_end\""));
	ck_assert_ptr_nonnull(strstr(log, "\"decision\":\"deny\""));
	free(log);
	ck_assert_int_eq(verify(log_path, &out, &err), 0);
	ck_assert_ptr_nonnull(strstr(out, "chain intact"));
	free(out);
	free(err);
	teardown();
}
END_TEST

/* With on_audit_failure = deny a record that cannot be written denies what
 * it records; the shell's own exec is recorded first, so with a log that
 * takes no record at all nothing could run: the session does not start,
 * and says why, rather than showing a prompt where every line fails. */
START_TEST(test_deploy_unwritable_log_with_deny_starts_nothing)
{
	struct pts p;
	char *out, *err;

	setup("audit_log = /dev/full\non_audit_failure = deny\n");
	start(&p);
	ck_assert_int_eq(pts_wait(&p, T), 1);
	ck_assert_msg(strstr(p.out, "the audit log cannot be written: the "
				    "session does not start") != NULL,
		      "%s", p.out);
	ck_assert_ptr_null(strstr(p.out, "# "));
	pts_close(&p);
	ck_assert_int_eq(run_c("maelys-pty", "date", NULL, &out, &err), 126);
	ck_assert_str_eq(out, "");
	ck_assert_ptr_nonnull(strstr(err, "audit log cannot be written"));
	free(out);
	free(err);
	teardown();
}
END_TEST

START_TEST(test_deploy_audit_failure_with_terminate_ends_session)
{
	struct pts p;
	char *out, *err;

	setup("audit_log = /dev/full\non_audit_failure = terminate\n");
	start(&p);
	ck_assert_int_eq(pts_wait(&p, T), 1);
	ck_assert_ptr_nonnull(strstr(p.out, "audit log cannot be written"));
	ck_assert_ptr_null(strstr(p.out, "# "));
	pts_close(&p);
	ck_assert_int_eq(run_c("maelys-pty", "date", NULL, &out, &err), 126);
	ck_assert_str_eq(out, "");
	free(out);
	free(err);
	teardown();
}
END_TEST

static void
confirm_case(const char *answer, bool runs)
{
	struct pts p;

	setup("");
	start(&p);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	pts_type(&p, "reboot\r");
	ck_assert_msg(pts_expect(&p, "Really reboot? [y/N] ", T), "%s", p.out);
	pts_type(&p, answer);
	ck_assert(pts_wait_prompt(&p, T));
	if (!runs)
		ck_assert_ptr_nonnull(strstr(p.out, "'reboot' not confirmed"));
	pts_settle(&p, 300);
	ck_assert_int_eq(pts_world_ran(&world, "reboot"), runs);
	pts_type(&p, "exit\r");
	ck_assert_int_eq(pts_wait(&p, T), 0);
	pts_close(&p);
	teardown();
}

START_TEST(test_deploy_require_confirm_yes_runs)
{
	confirm_case("y\r", true);
}
END_TEST

START_TEST(test_deploy_require_confirm_no_refuses)
{
	confirm_case("n\r", false);
}
END_TEST

START_TEST(test_deploy_require_confirm_without_terminal_refuses)
{
	char *out, *err;

	setup("");
	ck_assert_int_eq(run_c("maelys-pty", "reboot", NULL, &out, &err), 126);
	ck_assert_ptr_nonnull(strstr(err, "needs confirmation"));
	free(out);
	free(err);
	ck_assert(!pts_world_ran(&world, "reboot"));
	teardown();
}
END_TEST

/* A question waiting for its answer stops nothing else: a signal that ends
 * the session ends it, and the session's programs are still decided. */
static void
confirm_then_signal(int sig)
{
	struct pts p;

	setup("");
	start(&p);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	pts_type(&p, "reboot\r");
	ck_assert_msg(pts_expect(&p, "Really reboot? [y/N] ", T), "%s", p.out);
	ck_assert_int_eq(kill(p.pid, sig), 0);
	ck_assert_int_eq(pts_wait(&p, T), 128 + sig);
	ck_assert(!pts_world_ran(&world, "reboot"));
	pts_close(&p);
	teardown();
}

START_TEST(test_deploy_confirm_question_yields_to_sigterm)
{
	confirm_then_signal(SIGTERM);
}
END_TEST

START_TEST(test_deploy_confirm_question_yields_to_sighup)
{
	confirm_then_signal(SIGHUP);
}
END_TEST

START_TEST(test_deploy_confirm_question_leaves_execs_decided)
{
	char cmd[2200], go[600], result[600], mark[600];
	struct pts p;
	int i;

	setup("");
	/* the exec decided during the question reuses the decider's input
	 * facts: the confirm record still carries reboot's */
	add_audit_log();
	snprintf(go, sizeof go, "%s/GO", world.dir);
	snprintf(result, sizeof result, "%s/RESULT", world.dir);
	snprintf(mark, sizeof mark, "%s/MARK", world.dir);
	start(&p);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	/* a process of the session that executes a program later */
	snprintf(cmd, sizeof cmd,
		 "setsid -f exec_probe waitexec %s %s /usr/bin/touch %s\r", go,
		 result, mark);
	pts_type(&p, cmd);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	pts_type(&p, "reboot\r");
	ck_assert_msg(pts_expect(&p, "Really reboot? [y/N] ", T), "%s", p.out);
	pts_write_file(go, "", 0644);
	for (i = 0; i < T / 20 && access(mark, F_OK) != 0; i++)
		pts_settle(&p, 20);
	ck_assert_msg(access(mark, F_OK) == 0,
		      "the exec waited for the question: %s",
		      pts_slurp(result));
	pts_type(&p, "n\r");
	ck_assert(pts_wait_prompt(&p, T));
	ck_assert_ptr_nonnull(strstr(p.out, "'reboot' not confirmed"));
	pts_type(&p, "exit\r");
	ck_assert_int_eq(pts_wait(&p, T), 0);
	ck_assert(!pts_world_ran(&world, "reboot"));
	pts_close(&p);
	{
		char *log = pts_slurp(log_path);

		ck_assert_int_eq(
		    pts_count_lines(
			log,
			(const char *[]){
			    "\"event\":\"confirm\"", "\"decision\":\"declined\"",
			    "\"facts\":[[\"command\",\"reboot\"],"
			    "[\"argv\",1,\"reboot\"],[\"argc\",1],",
			    NULL}),
		    1);
		ck_assert_int_eq(
		    pts_count_lines(log, (const char *[]){
					     "\"exec_path\":\"/usr/bin/touch\"",
					     "\"facts\":[[\"exec_path\","
					     "\"/usr/bin/touch\"]",
					     NULL}),
		    1);
		free(log);
	}
	teardown();
}
END_TEST

START_TEST(test_deploy_lockout_after_max_denials)
{
	struct pts p;
	char *log, *end;

	setup("max_denials = 3\n");
	add_audit_log();
	start(&p);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	pts_type(&p, "evil one\r");
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "evil two\r");
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "echo still-here\r");
	ck_assert(pts_expect(&p, "still-here", T));
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "evil three\r");
	ck_assert(pts_expect(&p, "3 refusals in this session", T));
	ck_assert_int_eq(pts_wait(&p, T), 1);
	pts_close(&p);
	ck_assert(!pts_world_ran(&world, "evil"));
	/* one session_end record, and it says why */
	log = pts_slurp(log_path);
	end = strstr(log, "\"event\":\"session_end\"");
	ck_assert_ptr_nonnull(end);
	ck_assert_ptr_null(strstr(end + 1, "\"event\":\"session_end\""));
	ck_assert_msg(strstr(end, "\"note\":\"too many denials\"") != NULL,
		      "%s", end);
	free(log);
	teardown();
}
END_TEST

START_TEST(test_deploy_idle_timeout_ends_session)
{
	struct pts p;

	setup("idle_timeout = 1\n");
	start(&p);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	ck_assert_msg(pts_expect(&p, "idle at the prompt", 5000), "%s", p.out);
	ck_assert_int_eq(pts_wait(&p, T), 1);
	pts_close(&p);
	teardown();
}
END_TEST

/* Writes `lines` (a NULL-terminated list of record lines) as a log. */
static void
write_lines(const char *path, char **lines, const int *order, int n)
{
	FILE *f = fopen(path, "w");
	int i;

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < n; i++)
		fprintf(f, "%s\n", lines[order[i]]);
	fclose(f);
}

START_TEST(test_deploy_verify_log_names_tampered_record)
{
	char *log, *out, *err, *lines[64], tampered[700];
	int n = 0, i, order[64];
	char *save = NULL, *tok;

	setup("");
	add_audit_log();
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(run_c("maelys-pty", "true", NULL, &out, &err),
				 0);
		free(out);
		free(err);
	}
	ck_assert_int_eq(verify(log_path, &out, &err), 0);
	free(out);
	free(err);
	log = pts_slurp(log_path);
	for (tok = strtok_r(log, "\n", &save); tok != NULL && n < 64;
	     tok = strtok_r(NULL, "\n", &save))
		lines[n++] = tok;
	ck_assert_int_ge(n, 4);
	snprintf(tampered, sizeof tampered, "%s/tampered.log", world.dir);
	for (i = 0; i < n; i++)
		order[i] = i;
	/* edited: one character of the second record */
	{
		char *p = strstr(lines[1], "\"user\":\"");

		ck_assert_ptr_nonnull(p);
		p[8] ^= 1;
		write_lines(tampered, lines, order, n);
		ck_assert_int_eq(verify(tampered, &out, &err), 1);
		ck_assert_msg(strstr(out, "record 2") != NULL, "%s%s", out,
			      err);
		free(out);
		free(err);
		p[8] ^= 1;
	}
	/* deleted: the second record is missing */
	{
		int del[64], k = 0;

		for (i = 0; i < n; i++)
			if (i != 1)
				del[k++] = i;
		write_lines(tampered, lines, del, k);
		ck_assert_int_eq(verify(tampered, &out, &err), 1);
		ck_assert_msg(strstr(out, "record 2") != NULL, "%s%s", out,
			      err);
		free(out);
		free(err);
	}
	/* reordered: the second and third swapped */
	order[1] = 2;
	order[2] = 1;
	write_lines(tampered, lines, order, n);
	ck_assert_int_eq(verify(tampered, &out, &err), 1);
	ck_assert_msg(strstr(out, "record 2") != NULL, "%s%s", out, err);
	free(out);
	free(err);
	free(log);
	teardown();
}
END_TEST

START_TEST(test_deploy_session_inherits_no_audit_descriptor)
{
	struct pts p;

	setup("");
	add_audit_log();
	start(&p);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	pts_type(&p, "ls /proc/self/fd\r");
	/* ls sees its own three and the directory it reads: 0 1 2 3 */
	ck_assert_msg(pts_expect(&p, "0\r\n1\r\n2\r\n3\r\n", T) ||
			  pts_expect(&p, "0  1  2  3\r\n", T),
		      "%s", p.out);
	ck_assert_ptr_null(strstr(p.out + p.mark, "4\r\n"));
	pts_type(&p, "exit\r");
	ck_assert_int_eq(pts_wait(&p, T), 0);
	pts_close(&p);
	teardown();
}
END_TEST

/* ForceCommand with arguments is not the guard itself: it is a command,
 * decided like any other (and this policy refuses it). */
START_TEST(test_deploy_force_command_with_arguments_is_decided)
{
	char *out, *err;

	setup("");
	ck_assert_int_eq(run_c("-maelys-pty", "maelys-pty -c true",
			       "echo via-force-command", &out, &err),
			 126);
	ck_assert_str_eq(out, "");
	ck_assert_ptr_nonnull(strstr(err, "'maelys-pty' denied by policy"));
	free(out);
	free(err);
	ck_assert_int_eq(
	    run_c("-maelys-pty", "maelys-pty --policy x", NULL, &out, &err),
	    126);
	ck_assert_ptr_nonnull(strstr(err, "'maelys-pty' denied by policy"));
	free(out);
	free(err);
	teardown();
}
END_TEST

/* A user who lowers the file-size limit before starting the guard makes
 * the audit write fail: the session is refused (its first record cannot be
 * written), the guard is not killed by SIGXFSZ (and so cannot be made to
 * die between decision and record). */
START_TEST(test_deploy_file_size_limit_refuses_instead_of_killing)
{
	char *argv[] = {"sh",
			"-c",
			"ulimit -f 0 && exec \"$0\" --config \"$1\" -c "
			"'echo should-not-run'",
			(char *)pts_build_path("pty/maelys-pty"),
			config,
			NULL};
	char *envp[] = {"LANG=C.UTF-8", "PATH=/usr/bin:/bin", NULL};
	char *out, *err;

	setup("");
	add_audit_log();
	pts_write_file(log_path, "", 0640); /* empty: any record must grow it */
	ck_assert_int_eq(pts_run_path("/bin/sh", argv, envp, &out, &err), 126);
	ck_assert_str_eq(out, "");
	ck_assert_msg(strstr(err, "audit log cannot be written") != NULL, "%s",
		      err);
	free(out);
	free(err);
	teardown();
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("deploy");

	pts_require_root("check_pty_deploy",
			 "the configuration must be root's");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc,
		       test_deploy_config_owned_by_another_user_starts_nothing);
	tcase_add_test(tc,
		       test_deploy_config_writable_by_others_starts_nothing);
	tcase_add_test(tc, test_deploy_config_symlink_starts_nothing);
	tcase_add_test(tc, test_deploy_config_parent_writable_starts_nothing);
	tcase_add_test(tc, test_deploy_config_missing_starts_nothing);
	tcase_add_test(tc, test_deploy_malformed_policy_starts_nothing);
	tcase_add_test(tc, test_deploy_policy_writable_by_group_starts_nothing);
	tcase_add_test(tc, test_deploy_check_option_says_sound_or_not);
	tcase_add_test(tc,
		       test_deploy_sshd_login_shell_command_and_force_command);
	tcase_add_test(tc, test_deploy_allow_with_log_runs_once_recorded);
	tcase_add_test(tc, test_deploy_unwritable_log_with_deny_starts_nothing);
	tcase_add_test(tc,
		       test_deploy_audit_failure_with_terminate_ends_session);
	tcase_add_test(tc, test_deploy_require_confirm_yes_runs);
	tcase_add_test(tc, test_deploy_require_confirm_no_refuses);
	tcase_add_test(tc, test_deploy_confirm_question_yields_to_sigterm);
	tcase_add_test(tc, test_deploy_confirm_question_yields_to_sighup);
	tcase_add_test(tc, test_deploy_confirm_question_leaves_execs_decided);
	tcase_add_test(tc,
		       test_deploy_require_confirm_without_terminal_refuses);
	tcase_add_test(tc, test_deploy_lockout_after_max_denials);
	tcase_add_test(tc, test_deploy_idle_timeout_ends_session);
	tcase_add_test(tc, test_deploy_verify_log_names_tampered_record);
	tcase_add_test(tc, test_deploy_session_inherits_no_audit_descriptor);
	tcase_add_test(tc, test_deploy_force_command_with_arguments_is_decided);
	tcase_add_test(tc,
		       test_deploy_file_size_limit_refuses_instead_of_killing);
	suite_add_tcase(s, tc);
	return s;
}
