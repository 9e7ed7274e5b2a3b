/* SPDX-License-Identifier: MIT */
/*
 * The exec supervisor, end to end: the real guard with a configuration, an
 * audit log and Landlock (landlock = required), programs of the session
 * that start other programs, and tests/helpers/exec_probe inside the
 * session for what a shell line cannot do (a raw execve, the refused
 * system calls, ptrace, a racing rewrite of the path, an exec after the
 * guard is gone).  The policy allows every line, so that what is shown is
 * the exec layer alone: every program but the fake "evil" and anything in
 * the world's forbidden/ directory, which the Landlock locations do not
 * cover either.
 *
 * Root only, like check_pty_deploy: the configuration must be root's.
 */
#define _GNU_SOURCE
#include "runner.h"

#include "pty_harness.h"

#include "pty_exec_chain.h"
#include "pty_decide.h"
#include "pty_supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define T 15000 /* ms: generous, sanitizer builds are slow */

static struct pts_world world;
static char config[600], policy[600], key[600], log_path[600];
static char forbidden[600], marker[600], probe[600];

static void
setup(void)
{
	char text[8192], cmd[1400];

	pts_world_make(&world);
	snprintf(forbidden, sizeof forbidden, "%s/forbidden", world.dir);
	snprintf(marker, sizeof marker, "%s/MARKER", world.dir);
	snprintf(probe, sizeof probe, "%s", pts_build_path("tests/exec_probe"));
	ck_assert_int_eq(mkdir(forbidden, 0755), 0);
	/* a real program (no #! line) outside every exec location */
	snprintf(cmd, sizeof cmd, "cp /usr/bin/touch '%s/touch'", forbidden);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(policy, sizeof policy, "%s/exec.dl", world.dir);
	snprintf(text, sizeof text,
		 "allow(C) :- command(C).\n"
		 ".decl refused(p)\n"
		 "deny_exec(P, \"evil is forbidden\") :- exec_path(P),\n"
		 "    suffix(P, \"/evil\").\n"
		 "deny_exec(P, \"not one of the test's programs\") :-\n"
		 "    exec_path(P), prefix(P, \"%s/\").\n"
		 "refused(P) :- deny_exec(P, R).\n"
		 "allow_exec(P) :- exec_path(P), not(refused(P)).\n"
		 "exec_dir(\"/usr/bin\"). exec_dir(\"/usr/lib\").\n"
		 "exec_dir(\"%s\"). exec_dir(\"%s\").\n",
		 forbidden, pts_build_path("tests"), world.bin);
	pts_write_file(policy, text, 0644);
	snprintf(key, sizeof key, "%s/audit.key", world.dir);
	pts_write_audit_key(key);
	snprintf(log_path, sizeof log_path, "%s/audit.log", world.dir);
	snprintf(config, sizeof config, "%s/maelys-pty.conf", world.dir);
	snprintf(text, sizeof text,
		 "policy = %s\npath = %s\naudit_log = %s\naudit_key = %s\n"
		 "syslog = off\nlandlock = required\n",
		 policy, world.path_env, log_path, key);
	pts_write_file(config, text, 0644);
}

/* The same world without exec locations, so without Landlock: what the
 * policy alone decides. */
static void
without_landlock(void)
{
	char *text = pts_slurp(policy), *loc = strstr(text, "exec_dir(");

	ck_assert_ptr_nonnull(loc);
	*loc = '\0';
	pts_write_file(policy, text, 0644);
	free(text);
	text = pts_slurp(config);
	loc = strstr(text, "landlock = required");
	ck_assert_ptr_nonnull(loc);
	memcpy(loc, "landlock = auto    ", strlen("landlock = required"));
	pts_write_file(config, text, 0644);
	free(text);
}

static void
start(struct pts *p)
{
	pts_start_config(p, &world, config);
	ck_assert_msg(pts_wait_prompt(p, T), "%s", p->out);
}

/* One -c command of the configured guard; its status, output in out/err. */
static int
run_c(const char *command, char **out, char **err)
{
	return pts_run_config(&world, config, pts_build_path("pty/maelys-pty"),
			      command, NULL, out, err);
}

static void
teardown(void)
{
	pts_world_remove(&world);
}

/* How many records of the audit log hold a (and b, when not NULL). */
static int
log_count(const char *a, const char *b)
{
	char *log = pts_slurp(log_path);
	int n = pts_count_lines(log, (const char *[]){a, b, NULL});

	free(log);
	return n;
}

/* The refusal of evil: the message, the record, and no marker. */
static void
assert_evil_refused(const char *shown)
{
	char rec[700];

	ck_assert_ptr_nonnull(strstr(shown, "denied by policy"));
	ck_assert_ptr_nonnull(strstr(shown, "deny_exec: evil is forbidden"));
	ck_assert_msg(!pts_world_ran(&world, "evil"), "evil ran");
	snprintf(rec, sizeof rec, "\"exec_path\":\"%s/evil\"", world.bin);
	ck_assert_int_ge(log_count(rec, "\"decision\":\"deny\""), 1);
	ck_assert_int_ge(log_count(rec, "evil is forbidden"), 1);
}

static void
assert_log_verifies(void)
{
	char *out, *err;

	ck_assert_msg(pts_verify_log(config, log_path, &out, &err) == 0, "%s%s",
		      out, err);
	ck_assert_ptr_nonnull(strstr(out, "chain intact"));
	free(out);
	free(err);
}

/* The session ends with status 0, the log verifies, the test's files go. */
static void
end_session(struct pts *p)
{
	pts_type(p, "exit 0\r"); /* whatever the last command said */
	ck_assert_int_eq(pts_wait(p, T), 0);
	pts_close(p);
	assert_log_verifies();
	teardown();
}

START_TEST(test_exec_raw_execve_of_forbidden_program_is_refused)
{
	char cmd[1400], expect[700];
	struct pts p;

	setup();
	start(&p);
	snprintf(cmd, sizeof cmd, "exec_probe exec %s/evil\r", world.bin);
	pts_type(&p, cmd);
	snprintf(expect, sizeof expect, "exec_probe: exec %s/evil: EPERM",
		 world.bin);
	ck_assert_msg(pts_expect(&p, expect, T), "%s", p.out);
	ck_assert(pts_wait_prompt(&p, T));
	snprintf(expect, sizeof expect,
		 "maelys-pty: exec of '%s/evil' denied by policy", world.bin);
	ck_assert_msg(strstr(p.out, expect) != NULL, "%s", p.out);
	assert_evil_refused(p.out);
	/* the session goes on: an allowed program still runs */
	pts_type(&p, "echo still-here\r");
	ck_assert(pts_expect(&p, "still-here", T));
	ck_assert(pts_wait_prompt(&p, T));
	end_session(&p);
}
END_TEST

START_TEST(test_exec_env_and_find_exec_cannot_start_forbidden_program)
{
	char cmd[1400];
	char *out, *err;

	setup();
	ck_assert_int_ne(run_c("env evil", &out, &err), 0);
	ck_assert_msg(strstr(err, "Operation not permitted") != NULL, "%s",
		      err);
	assert_evil_refused(err);
	free(out);
	free(err);
	snprintf(cmd, sizeof cmd, "find %s -name evil -exec {} +", world.bin);
	(void)run_c(cmd, &out, &err);
	assert_evil_refused(err);
	ck_assert_int_ge(log_count("\"exec_path\":\"/usr/bin/find\"",
				   "\"decision\":\"allow\""),
			 1);
	free(out);
	free(err);
	teardown();
}
END_TEST

START_TEST(test_exec_vi_shell_escape_cannot_start_forbidden_program)
{
	struct pts p;

	if (access("/usr/bin/vi", X_OK) != 0) {
		printf("no vi on this machine: vi's :! not tested\n");
		return;
	}
	setup();
	start(&p);
	pts_type(&p, "vi -u NONE -N\r");
	pts_settle(&p, 800);
	/* vi runs a shell for :!, and the shell runs the command */
	pts_type(&p, ":set shell=/bin/bash\r");
	pts_type(&p, ":!evil\r");
	ck_assert_msg(pts_expect(&p, "deny_exec: evil is forbidden", T), "%s",
		      p.out);
	pts_settle(&p, 300);
	pts_type(&p, "\r:q!\r");
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	assert_evil_refused(p.out);
	/* bash, started by vi, was decided with vi as its parent */
	ck_assert_int_ge(log_count("\"exec_path\":\"/usr/bin/bash\"",
				   "\"exec_parent\":\"/usr/bin/vim"),
			 1);
	pts_type(&p, "exit\r");
	ck_assert_int_eq(pts_wait(&p, T), 0);
	pts_close(&p);
	teardown();
}
END_TEST

START_TEST(test_exec_pipeline_of_allowed_programs_runs)
{
	char cmd[1400];
	char *out, *err;

	setup();
	snprintf(cmd, sizeof cmd, "ls %s | sort -r | head -n 1", world.bin);
	ck_assert_int_eq(run_c(cmd, &out, &err), 0);
	ck_assert_str_eq(out, "shutdown\n");
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
	ck_assert_int_eq(log_count("\"exec_path\":\"/usr/bin/sort\"",
				   "\"decision\":\"allow\""),
			 1);
	ck_assert_int_eq(log_count("\"exec_path\":\"/usr/bin/head\"",
				   "\"exec_argv\":[\"head\",\"-n\",\"1\"]"),
			 1);
	assert_log_verifies();
	teardown();
}
END_TEST

START_TEST(test_exec_deep_tree_every_exec_decided)
{
	char *out, *err;

	setup();
	ck_assert_int_eq(
	    run_c("exec_probe forkexec 1000 /usr/bin/true", &out, &err), 0);
	ck_assert_str_eq(out, "forkexec: 1000 ok, 0 failed\n");
	free(out);
	free(err);
	ck_assert_int_eq(log_count("\"exec_path\":\"/usr/bin/true\"",
				   "\"decision\":\"allow\""),
			 1000);
	assert_log_verifies();
	teardown();
}
END_TEST

START_TEST(test_exec_refused_system_calls_fail_with_eperm)
{
	static const char *const names[] = {"reboot",
					    "kexec_load",
					    "kexec_file_load",
					    "init_module",
					    "finit_module",
					    "delete_module",
					    "mount",
					    "umount2",
					    "pivot_root",
					    "move_mount",
					    "open_tree",
					    "fsopen",
					    "fsmount",
					    "fspick",
					    "fsconfig",
					    "mount_setattr",
					    "swapon",
					    "swapoff",
					    "ptrace",
					    "process_vm_writev",
					    "process_vm_readv",
					    "bpf",
					    "ioctl_TIOCSTI",
					    "ioctl_TIOCLINUX",
					    "chroot",
					    "pidfd_getfd",
					    "unshare_user",
					    "open_tree_attr"};
	char *out, *err, *lines, want[64];
	size_t i;

	setup();
	(void)run_c("exec_probe syscalls", &out, &err);
	/* every name at the start of a line */
	lines = malloc(strlen(out) + 2);
	ck_assert_ptr_nonnull(lines);
	lines[0] = '\n';
	memcpy(lines + 1, out, strlen(out) + 1);
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(want, sizeof want, "\n%s: EPERM\n", names[i]);
		ck_assert_msg(strstr(lines, want) != NULL,
			      "%s not refused:\n%s", names[i], out);
	}
	free(lines);
	free(out);
	free(err);
	/* no second listener: a program cannot supervise its own execs */
	ck_assert_int_eq(run_c("exec_probe seccomp_listener", &out, &err), 0);
	ck_assert_str_eq(out, "seccomp_listener: EEXIST\n");
	free(out);
	free(err);
	teardown();
}
END_TEST

START_TEST(test_exec_ptrace_of_the_guard_fails)
{
	char *out, *err;

	setup();
	/* bash's parent is the guard; root could trace it but for the
	 * filter (non-dumpable does not stop CAP_SYS_PTRACE) */
	ck_assert_int_eq(run_c("exec_probe ptrace $PPID", &out, &err), 0);
	ck_assert_msg(strstr(out, ": EPERM\n") != NULL, "%s", out);
	free(out);
	free(err);
	teardown();
}
END_TEST

START_TEST(test_exec_racing_rewrite_never_runs_forbidden_program)
{
	char cmd[1600];
	char *out, *err;

	setup();
	snprintf(cmd, sizeof cmd,
		 "exec_probe race 300 /usr/bin/true %s/touch %s", forbidden,
		 marker);
	ck_assert_int_eq(run_c(cmd, &out, &err), 0);
	ck_assert_msg(strstr(out, "race: 300 runs") != NULL, "%s", out);
	ck_assert_msg(access(marker, F_OK) != 0,
		      "the forbidden program ran: %s", out);
	free(out);
	free(err);
	teardown();
}
END_TEST

START_TEST(test_exec_after_guard_is_killed_fails)
{
	char cmd[2000], go[640], result[640], *text;
	struct timespec tick = {0, 50 * 1000 * 1000};
	struct pts p;
	int i;

	setup();
	snprintf(go, sizeof go, "%s/GO", world.dir);
	snprintf(result, sizeof result, "%s/RESULT", world.dir);
	start(&p);
	snprintf(cmd, sizeof cmd,
		 "exec_probe waitexec %s %s /usr/bin/touch %s\r", go, result,
		 marker);
	pts_type(&p, cmd);
	pts_settle(&p, 500); /* the probe runs, and waits for GO */
	ck_assert_int_eq(kill(p.pid, SIGKILL), 0);
	ck_assert_int_ne(pts_wait(&p, T), -1);
	pts_write_file(go, "", 0644);
	for (i = 0; i < 200 && access(result, F_OK) != 0; i++)
		(void)nanosleep(&tick, NULL);
	pts_settle(&p, 200);
	text = pts_slurp(result);
	ck_assert_msg(strstr(text, "failed: ENOSYS") != NULL, "result: '%s'",
		      text);
	ck_assert_msg(access(marker, F_OK) != 0, "an exec ran unchecked");
	free(text);
	pts_close(&p);
	teardown();
}
END_TEST

/* The policy of setup(), but the line "nope" refused. */
static void
refusing_nope(void)
{
	char *text = pts_slurp(policy), *rest = strstr(text, "\n"), out[8192];

	ck_assert_ptr_nonnull(rest);
	snprintf(out, sizeof out, "allow(C) :- command(C), C != \"nope\".%s",
		 rest);
	pts_write_file(policy, out, 0644);
	free(text);
}

/* The one session_end record of the log, or NULL (freed by the caller). */
static char *
session_end_record(void)
{
	char *log = pts_slurp(log_path), *end, *nl, *rec;

	end = strstr(log, "\"event\":\"session_end\"");
	if (end == NULL) {
		free(log);
		return NULL;
	}
	while (end > log && end[-1] != '\n')
		end--;
	nl = strchr(end, '\n');
	rec = strndup(end, nl != NULL ? (size_t)(nl - end) : strlen(end));
	free(log);
	return rec;
}

/* session_end says how the session went: four lines (one refused), the
 * programs they ran, and the shell's exit status; each line's and each
 * exec's record carries the facts its decision was made from. */
START_TEST(test_exec_session_end_counts_and_exit_status)
{
	char want[200], *end;
	struct pts p;
	int execs;

	setup();
	refusing_nope();
	start(&p);
	pts_type(&p, "nope\r");
	ck_assert_msg(pts_expect(&p, "denied", T), "%s", p.out);
	ck_assert(pts_wait_prompt(&p, T));
	/* not bash's builtin: a program */
	pts_type(&p, "/usr/bin/true\r");
	ck_assert(pts_wait_prompt(&p, T));
	/* bash's builtin: no program, a decision all the same */
	pts_type(&p, "true\r");
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "exit 7\r");
	ck_assert_int_eq(pts_wait(&p, T), 7);
	pts_close(&p);
	execs = log_count("\"event\":\"exec\"", NULL);
	/* bash's and true's */
	ck_assert_int_ge(execs, 2);
	end = session_end_record();
	ck_assert_ptr_nonnull(end);
	snprintf(want, sizeof want,
		 "\"exit_status\":7,\"decisions\":%d,\"refusals\":1,"
		 "\"execs\":%d",
		 4 + execs, execs);
	ck_assert_msg(strstr(end, want) != NULL, "want %s in\n%s", want, end);
	free(end);
	ck_assert_int_eq(
	    log_count("\"line\":\"/usr/bin/true\"",
		      "\"facts\":[[\"command\",\"/usr/bin/true\"],"
		      "[\"argv\",1,\"/usr/bin/true\"],[\"argc\",1],[\"user\","),
	    1);
	ck_assert_int_eq(log_count("\"line\":\"nope\"", "\"facts\":[[\"command\","
							 "\"nope\"]"),
			 1);
	/* the policy reads no command_path, and the record has it all the
	 * same: a candidate that reads it is replayed on what the session had */
	ck_assert_int_eq(log_count("\"line\":\"true\"",
				   "[\"command_path\",\"/"),
			 1);
	ck_assert_int_eq(
	    log_count("\"exec_path\":\"/usr/bin/true\"",
		      "\"facts\":[[\"exec_path\",\"/usr/bin/true\"],"
		      "[\"exec_request\",\"/usr/bin/true\"],"
		      "[\"exec_arg\",0,\"/usr/bin/true\"],[\"exec_argc\",1],"),
	    1);
	assert_log_verifies();
	teardown();
}
END_TEST

/* A guard killed mid-session: its writer's session_end has the counts of
 * every decision concluded before, and no exit status. */
START_TEST(test_exec_killed_guard_leaves_its_counts)
{
	char want[200], *end;
	struct pts p;
	int execs;

	setup();
	refusing_nope();
	start(&p);
	pts_type(&p, "nope\r");
	ck_assert_msg(pts_expect(&p, "denied", T), "%s", p.out);
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "/usr/bin/true\r");
	ck_assert(pts_wait_prompt(&p, T));
	ck_assert_int_eq(kill(p.pid, SIGKILL), 0);
	ck_assert_int_ne(pts_wait(&p, T), -1);
	pts_close(&p);
	/* the writer appends it once the guard's end of its socket closes */
	for (int i = 0; i < 100 && (end = session_end_record()) == NULL; i++)
		(void)nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
	ck_assert_ptr_nonnull(end);
	execs = log_count("\"event\":\"exec\"", NULL);
	snprintf(want, sizeof want,
		 "\"decisions\":%d,\"refusals\":1,\"execs\":%d,"
		 "\"note\":\"the guard ended without ending the session\"",
		 2 + execs, execs);
	ck_assert_msg(strstr(end, want) != NULL, "want %s in\n%s", want, end);
	ck_assert_ptr_null(strstr(end, "exit_status"));
	free(end);
	assert_log_verifies();
	teardown();
}
END_TEST

START_TEST(test_exec_nested_guard_cannot_loosen_the_session)
{
	char inner[700], cmd[1600];
	char *out, *err;

	setup();
	/* a guard started in the session with a policy of its own that
	 * allows everything, which a shell builtin's redirection would use
	 * without any exec: refused before its shell runs */
	snprintf(inner, sizeof inner, "%s/inner.dl", world.dir);
	pts_write_file(inner,
		       "allow(C) :- command(C).\n"
		       "allow_exec(P) :- exec_path(P).\n",
		       0644);
	snprintf(cmd, sizeof cmd, "%s --policy %s -c %s/evil",
		 pts_build_path("pty/maelys-pty"), inner, world.bin);
	ck_assert_int_ne(run_c(cmd, &out, &err), 0);
	ck_assert_msg(strstr(err, "--policy, --shell and --path are refused") !=
			  NULL,
		      "%s", err);
	ck_assert(!pts_world_ran(&world, "evil"));
	free(out);
	free(err);
	/* with the configuration it runs, and the outer guard still
	 * decides every exec: evil is refused by the outer supervisor */
	snprintf(cmd, sizeof cmd, "%s --config %s -c %s/evil",
		 pts_build_path("pty/maelys-pty"), config, world.bin);
	ck_assert_int_ne(run_c(cmd, &out, &err), 0);
	assert_evil_refused(err);
	free(out);
	free(err);
	teardown();
}
END_TEST

/* Deployed, the guard is setgid to its audit group; a guard started in a
 * session runs under NO_NEW_PRIVS, without that group, and cannot open
 * the log.  It runs anyway - the outer guard records every exec it makes -
 * while the same guard outside any session is refused.  Shown here with
 * another user (nobody) in place of the lost group. */
START_TEST(test_exec_nested_guard_without_log_rights_is_recorded_outside)
{
	char cmd[1600];
	char *out, *err;

	if (access("/usr/bin/setpriv", X_OK) != 0) {
		printf("no setpriv: nested guard of another user not tested\n");
		return;
	}
#ifdef __SANITIZE_ADDRESS__
	/* a sanitized guard in a session cannot exit cleanly: LeakSanitizer
	 * stops the world with ptrace(2), which the session refuses */
	printf("sanitizer build: nested guard's exit status not tested\n");
	return;
#endif
	setup();
	ck_assert_int_eq(chmod(world.dir, 0755), 0); /* nobody reads it */
	snprintf(cmd, sizeof cmd,
		 "setpriv --reuid nobody --regid nogroup --clear-groups %s "
		 "--config %s -c id",
		 pts_build_path("pty/maelys-pty"), config);
	ck_assert_msg(run_c(cmd, &out, &err) == 0, "%s", err);
	ck_assert_ptr_nonnull(strstr(out, "uid=65534"));
	free(out);
	free(err);
	ck_assert_int_eq(log_count("\"exec_path\":\"/usr/bin/id\"",
				   "\"decision\":\"allow\""),
			 1);
	assert_log_verifies();
	teardown();
}
END_TEST

/* The world made ready for a guard of nobody's with an audit log: the
 * directory readable, a log folder and the key nobody's own (a deployed
 * guard's writer is the audit account instead: the deployed suite runs
 * that; the guard accepts these by owner and mode). */
static void
setup_nobody(void)
{
	char logdir[400], text[4096], cmd[4096];

	setup();
	ck_assert_int_eq(chmod(world.dir, 0755), 0);
	snprintf(logdir, sizeof logdir, "%s/log", world.dir);
	snprintf(log_path, sizeof log_path, "%s/audit.log", logdir);
	snprintf(cmd, sizeof cmd,
		 "mkdir -m 0700 '%s' && chown nobody '%s' '%s' && "
		 "chmod 0755 '%s'",
		 logdir, logdir, key, world.home);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(text, sizeof text,
		 "policy = %s\npath = %s\naudit_log = %s\naudit_key = %s\n"
		 "syslog = off\nlandlock = required\n",
		 policy, world.path_env, log_path, key);
	pts_write_file(config, text, 0644);
}

/* One -c command of the configured guard as nobody; its status. */
static int
run_c_nobody(const char *command, char **out, char **err)
{
	char *argv[] = {"setpriv",
			"--reuid",
			"nobody",
			"--regid",
			"nogroup",
			"--clear-groups",
			(char *)pts_build_path("pty/maelys-pty"),
			"--config",
			config,
			"-c",
			(char *)command,
			NULL};
	char *envp[] = {"LANG=C.UTF-8", NULL};

	return pts_run_path("/usr/bin/setpriv", argv, envp, out, err);
}

/* An unprivileged user's guard with an audit log: every exec is read from
 * the process but the shell's, decided on the request the guard built. */
START_TEST(test_exec_unprivileged_guard_with_audit_log)
{
	char *out, *err;

	if (access("/usr/bin/setpriv", X_OK) != 0) {
		printf("no setpriv: unprivileged guard not tested\n");
		return;
	}
	setup_nobody();
	ck_assert_msg(run_c_nobody("exec_probe forkexec 3 /usr/bin/id -u", &out,
				   &err) == 0,
		      "%s", err);
	ck_assert_msg(strstr(out, "65534\n65534\n65534\n") != NULL, "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "forkexec: 3 ok, 0 failed"));
	free(out);
	free(err);
	ck_assert_int_eq(
	    log_count("\"exec_path\":\"/usr/bin/id\"", "\"user\":\"nobody\""),
	    3);
	ck_assert_int_eq(log_count("\"exec_path\":\"/usr/bin/bash\"",
				   "\"decision\":\"allow\""),
			 1);
	assert_log_verifies();
	teardown();
}
END_TEST

/* The race of issue 9 item 5, as an unprivileged user (root is trusted,
 * and may change any path): a link in a folder the user owns flips
 * between an allowed program (ls) and the dynamic loader, which every
 * Landlock ruleset lets run, while a loop executes the link with a
 * forbidden program as its argument.  Had the guard checked ls and the
 * kernel then found the loader, the loader would map and run the
 * forbidden program.  Every such exec is refused: its path goes through a
 * folder the user can write. */
START_TEST(test_exec_loader_flip_race_never_runs_the_forbidden_program)
{
	char dir[400], cmd[6400], loader[4096];
	char *out, *err;

	if (access("/usr/bin/setpriv", X_OK) != 0) {
		printf("no setpriv: the race as a user not tested\n");
		return;
	}
	setup_nobody();
	ck_assert_int_eq(pty_exec_own_loader(loader, sizeof loader), 0);
	snprintf(dir, sizeof dir, "%s/home/cache", world.dir);
	snprintf(cmd, sizeof cmd, "mkdir -m 0755 '%s' && chown nobody '%s'",
		 dir, dir);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(cmd, sizeof cmd,
		 "exec_probe flipexec 300 %s/x /usr/bin/ls %s %s/touch %s", dir,
		 loader, forbidden, marker);
	ck_assert_msg(run_c_nobody(cmd, &out, &err) == 0, "%s%s", out, err);
	ck_assert_msg(strstr(out, "flipexec: 300 runs, 0 ran, 300 refused") !=
			  NULL,
		      "%s%s", out, err);
	ck_assert_msg(access(marker, F_OK) != 0,
		      "the forbidden program ran through the loader");
	ck_assert_int_eq(
	    log_count("\"decision\":\"refused\"", "which you can write"), 300);
	free(out);
	free(err);
	assert_log_verifies();
	teardown();
}
END_TEST

/* The guard walks a path itself, so a link that names the reader's files
 * (/proc/self/cwd, /dev/fd) would name the guard's: such a path is
 * refused, whatever it leads to. */
/* A program refused by its path is refused however the kernel comes to
 * run it: as the interpreter of a #! script (here two deep), or as the
 * program of the dynamic loader run as a program, which maps it without
 * an exec of its own.  Each is decided and recorded with how it was
 * reached; what is allowed still runs the same ways.  (Without exec
 * locations: under Landlock the loader runs no program at all, below.) */
START_TEST(test_exec_shebang_and_loader_programs_are_decided)
{
	char cmd[6400], loader[4096], script[700], outer[700], inner[700];
	struct pts p;

	setup();
	without_landlock();
	ck_assert_int_eq(pty_exec_own_loader(loader, sizeof loader), 0);
	/* root's scripts in a root folder: only the policy decides */
	snprintf(script, sizeof script, "%s/run-evil", world.bin);
	snprintf(cmd, sizeof cmd, "#!%s/evil -x\n", world.bin);
	pts_write_file(script, cmd, 0755);
	snprintf(inner, sizeof inner, "%s/inner", world.bin);
	pts_write_file(inner, "#!/bin/sh\necho inner-ran \"$@\"\n", 0755);
	snprintf(outer, sizeof outer, "%s/outer", world.bin);
	snprintf(cmd, sizeof cmd, "#!%s\n", inner);
	pts_write_file(outer, cmd, 0755);
	start(&p);
	/* the interpreter of a #! line */
	/* (a long line scrolls in readline, whose redisplay can look like
	 * a prompt: each step waits for its own words first) */
	snprintf(cmd, sizeof cmd, "%s\r", script);
	pts_type(&p, cmd);
	snprintf(cmd, sizeof cmd, "  the interpreter of the #! script %s",
		 script);
	ck_assert_msg(pts_expect(&p, cmd, T), "%s", p.out);
	ck_assert(pts_wait_prompt(&p, T));
	assert_evil_refused(p.out);
	ck_assert_int_eq(
	    log_count("\"exec_via\":\"shebang\"", "\"decision\":\"deny\""), 1);
	/* the loader's program: refused, and the marker never made */
	snprintf(cmd, sizeof cmd, "%s %s/touch %s\r", loader, forbidden,
		 marker);
	pts_type(&p, cmd);
	ck_assert_msg(
	    pts_expect(&p, "  run as a program by the dynamic loader", T), "%s",
	    p.out);
	ck_assert(pts_wait_prompt(&p, T));
	ck_assert_msg(access(marker, F_OK) != 0, "the loader ran it");
	ck_assert_int_eq(
	    log_count("\"exec_via\":\"loader\"", "\"decision\":\"deny\""), 1);
	/* ... behind the options that take a value (glibc 2.36's own
	 * list), or behind one the guard does not know: refused either way */
	snprintf(cmd, sizeof cmd, "%s --glibc-hwcaps-prepend x %s/touch %s\r",
		 loader, forbidden, marker);
	pts_type(&p, cmd);
	ck_assert_msg(pts_expect(&p, "  run as a program by the dynamic loader",
				 T),
		      "%s", p.out);
	ck_assert(pts_wait_prompt(&p, T));
	snprintf(cmd, sizeof cmd, "%s --some-new-option x %s/touch %s\r",
		 loader, forbidden, marker);
	pts_type(&p, cmd);
	ck_assert_msg(pts_expect(&p, "an option the guard does not know", T),
		      "%s", p.out);
	ck_assert(pts_wait_prompt(&p, T));
	ck_assert_msg(access(marker, F_OK) != 0, "the loader ran it");
	/* ... by a bare name, it would search its library path: refused */
	snprintf(cmd, sizeof cmd, "%s touch %s\r", loader, marker);
	pts_type(&p, cmd);
	ck_assert_msg(pts_expect(&p, "by a bare name", T), "%s", p.out);
	ck_assert(pts_wait_prompt(&p, T));
	ck_assert_msg(access(marker, F_OK) != 0, "the loader ran it");
	/* allowed ways run: two #! deep, and the loader with --argv0 */
	snprintf(cmd, sizeof cmd, "%s a b\r", outer);
	pts_type(&p, cmd);
	ck_assert_msg(pts_expect(&p, "inner-ran", T), "%s", p.out);
	ck_assert(pts_wait_prompt(&p, T));
	ck_assert_int_eq(
	    log_count("\"exec_via\":\"shebang\"", "\"decision\":\"allow\""), 2);
	snprintf(cmd, sizeof cmd, "%s --argv0 named /usr/bin/echo loaded-ok\r",
		 loader);
	pts_type(&p, cmd);
	ck_assert_msg(pts_expect(&p, "\nloaded-ok", T), "%s", p.out);
	ck_assert(pts_wait_prompt(&p, T));
	ck_assert_int_eq(log_count("\"exec_via\":\"loader\"",
				   "\"exec_argv\":[\"named\",\"loaded-ok\"]"),
			 1);
	end_session(&p);
}
END_TEST

/* Under exec locations the kernel refuses any file outside them - but the
 * dynamic loader, which every ruleset must let run, maps the program it is
 * given without asking the kernel: run as a program it is refused, even
 * for a program the policy allows. */
START_TEST(test_exec_loader_as_program_refused_under_landlock)
{
	char cmd[6400], loader[4096];
	struct pts p;

	setup();
	ck_assert_int_eq(pty_exec_own_loader(loader, sizeof loader), 0);
	start(&p);
	snprintf(cmd, sizeof cmd, "%s /usr/bin/echo loaded\r", loader);
	pts_type(&p, cmd);
	ck_assert_msg(
	    pts_expect(&p, "the dynamic loader does not run programs", T), "%s",
	    p.out);
	ck_assert(pts_wait_prompt(&p, T));
	ck_assert_msg(strstr(p.out, "\nloaded") == NULL, "%s", p.out);
	ck_assert_int_eq(log_count("under the session's Landlock ruleset",
				   "\"decision\":\"refused\""),
			 1);
	end_session(&p);
}
END_TEST

START_TEST(test_exec_path_through_proc_self_is_refused)
{
	char cmd[1400];
	struct pts p;

	setup();
	start(&p);
	snprintf(cmd, sizeof cmd, "cd %s\r", forbidden);
	pts_type(&p, cmd);
	ck_assert(pts_wait_prompt(&p, T));
	snprintf(cmd, sizeof cmd, "/proc/self/cwd/touch %s\r", marker);
	pts_type(&p, cmd);
	ck_assert_msg(pts_expect(&p, "goes through a link of /proc", T), "%s",
		      p.out);
	ck_assert(pts_wait_prompt(&p, T));
	ck_assert_msg(access(marker, F_OK) != 0, "the program ran");
	ck_assert_int_ge(log_count("\"exec_request\":\"/proc/self/cwd/touch\"",
				   "\"decision\":\"refused\""),
			 1);
	pts_type(&p, "exit\r"); /* with the refused command's status */
	ck_assert_int_eq(pts_wait(&p, T), 126);
	pts_close(&p);
	teardown();
}
END_TEST

START_TEST(test_exec_policy_without_shell_rule_starts_nothing)
{
	char *out, *err;

	setup();
	/* it decides programs, but not the shell */
	pts_write_file(policy,
		       "allow(C) :- command(C).\n"
		       "allow_exec(P) :- exec_path(P), suffix(P, \"/id\").\n",
		       0644);
	ck_assert_int_eq(run_c("echo no", &out, &err), 126);
	ck_assert_str_eq(out, "");
	ck_assert_msg(strstr(err, "does not let the session's shell") != NULL,
		      "%s", err);
	free(out);
	free(err);
	teardown();
}
END_TEST

/* A policy that decides lines only (no allow_exec, the walkthrough's Level
 * 1): with the configuration's default, exec_decisions = required, no
 * session starts, and the reason is said; with exec_decisions = optional
 * every program runs and is recorded as "recorded", the shell's exec
 * first, a program the exec rules of any policy here would refuse too, and
 * the chain still verifies. */
START_TEST(test_exec_policy_deciding_lines_only_records_every_program)
{
	char *out, *err, *text, rec[700];

	setup();
	without_landlock();
	pts_write_file(policy, "allow(C) :- command(C).\n", 0644);
	ck_assert_int_eq(run_c("echo no", &out, &err), 126);
	ck_assert_str_eq(out, "");
	ck_assert_msg(strstr(err, "the policy defines no allow_exec") != NULL &&
			  strstr(err, "exec_decisions = required") != NULL,
		      "%s", err);
	free(out);
	free(err);

	text = pts_slurp(config);
	ck_assert_ptr_nonnull(text);
	text = realloc(text, strlen(text) + 64);
	ck_assert_ptr_nonnull(text);
	strcat(text, "exec_decisions = optional\n");
	pts_write_file(config, text, 0644);
	free(text);
	ck_assert_int_eq(run_c("evil", &out, &err), 0);
	free(out);
	free(err);
	ck_assert_msg(pts_world_ran(&world, "evil"), "evil did not run");
	snprintf(rec, sizeof rec, "\"exec_path\":\"%s/evil\"", world.bin);
	ck_assert_int_eq(log_count(rec, "\"decision\":\"recorded\""), 1);
	ck_assert_int_eq(log_count("\"exec_path\":\"/usr/bin/bash\"",
				   "\"decision\":\"recorded\""),
			 1);
	ck_assert_int_eq(log_count("\"event\":\"exec\"",
				   "\"decision\":\"allow\""),
			 0);
	assert_log_verifies();
	teardown();
}
END_TEST

/* landlock = required: a policy that names no exec location starts no
 * session (the configuration asked for the kernel's second check). */
START_TEST(test_exec_landlock_required_without_locations_starts_nothing)
{
	char *out, *err;

	setup();
	pts_write_file(policy,
		       "allow(C) :- command(C).\n"
		       "allow_exec(P) :- exec_path(P).\n",
		       0644);
	ck_assert_int_eq(run_c("echo no", &out, &err), 126);
	ck_assert_str_eq(out, "");
	ck_assert_msg(strstr(err, "landlock = required, and the policy names "
				  "no exec_dir or exec_file") != NULL,
		      "%s", err);
	free(out);
	free(err);
	teardown();
}
END_TEST


/* ------------------------------------------------------------------ */
/* Reading a request's path and argv (pty_exec_read_args, exec_mem.c):
 * by process_vm_readv, by /proc/PID/mem, and by the first with the second
 * as its fallback, from another process (a child that waits, a copy of
 * this one's memory made at fork). */

#define MEM_PAGE 4096

struct mem_read {
	int rc;
	char raw[PATH_MAX];
	char err[512];
	struct pty_exec_request *r;
};

static pid_t
mem_child(void)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		for (;;)
			pause();
	return pid;
}

static void
mem_child_end(pid_t pid)
{
	(void)kill(pid, SIGKILL);
	(void)waitpid(pid, NULL, 0);
}

/* One way's reading of child's `path` and `argv` into m (fresh). */
static void
mem_read_as(struct mem_read *m, pid_t child, const char *path,
	    char *const *argv, enum pty_exec_mem how)
{
	struct pty_exec_proc p;

	memset(m, 0, offsetof(struct mem_read, r));
	if (m->r == NULL)
		m->r = malloc(sizeof *m->r);
	ck_assert_ptr_nonnull(m->r);
	memset(m->r, 0xa5, sizeof *m->r); /* nothing left from before */
	m->r->argc = 0;
	pty_exec_proc_init(&p, NULL, child);
	m->rc = pty_exec_read_args(&p, (uint64_t)(uintptr_t)path,
				   (uint64_t)(uintptr_t)argv, how, m->raw,
				   m->r, m->err, sizeof m->err);
	pty_exec_proc_close(&p);
}

/* Two readings found the same request. */
static void
mem_assert_same(const struct mem_read *a, const struct mem_read *b)
{
	size_t i;

	ck_assert_int_eq(a->rc, 0);
	ck_assert_int_eq(b->rc, 0);
	ck_assert_str_eq(a->raw, b->raw);
	ck_assert_uint_eq(a->r->argc, b->r->argc);
	for (i = 0; i < a->r->argc; i++) {
		ck_assert_uint_eq(a->r->argv_len[i], b->r->argv_len[i]);
		ck_assert_uint_eq(strlen(a->r->argv[i]), a->r->argv_len[i]);
		ck_assert_mem_eq(a->r->argv[i], b->r->argv[i],
				 a->r->argv_len[i] + 1);
	}
}

/* Two pages, the first byte of the second at *boundary. */
static char *
mem_two_pages(char **boundary)
{
	char *pages = mmap(NULL, 2 * MEM_PAGE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(pages, MAP_FAILED);
	*boundary = pages + MEM_PAGE;
	return pages;
}

START_TEST(test_exec_memory_read_by_call_and_by_file_alike)
{
	static char *argv[101];
	char *pages, *boundary, *longarg = malloc(5001), names[100][16];
	struct mem_read vm = {0}, file = {0}, any = {0};
	size_t i;
	pid_t child;

	/* the path across a page boundary; 100 arguments (the pointers are
	 * read 64 at a time), one of 5,000 bytes (several pages), one
	 * empty */
	pages = mem_two_pages(&boundary);
	memcpy(boundary - 5, "/usr/bin/true", 14);
	ck_assert_ptr_nonnull(longarg);
	memset(longarg, 'x', 5000);
	longarg[5000] = '\0';
	for (i = 0; i < 100; i++) {
		(void)snprintf(names[i], sizeof names[i], "arg%zu", i);
		argv[i] = names[i];
	}
	argv[50] = longarg;
	argv[60] = "";
	argv[100] = NULL;
	child = mem_child();
	mem_read_as(&vm, child, boundary - 5, argv, PTY_EXEC_MEM_VM);
	mem_read_as(&file, child, boundary - 5, argv, PTY_EXEC_MEM_FILE);
	mem_read_as(&any, child, boundary - 5, argv, PTY_EXEC_MEM_ANY);
	mem_child_end(child);
	mem_assert_same(&vm, &file);
	mem_assert_same(&any, &file);
	ck_assert_str_eq(vm.raw, "/usr/bin/true");
	ck_assert_uint_eq(vm.r->argc, 100);
	ck_assert_uint_eq(vm.r->argv_len[50], 5000);
	ck_assert_str_eq(vm.r->argv[60], "");
	ck_assert_str_eq(vm.r->argv[99], "arg99");
	/* a NULL argv is an empty one, both ways */
	child = mem_child();
	mem_read_as(&vm, child, boundary - 5, NULL, PTY_EXEC_MEM_VM);
	mem_read_as(&file, child, boundary - 5, NULL, PTY_EXEC_MEM_FILE);
	mem_child_end(child);
	mem_assert_same(&vm, &file);
	ck_assert_uint_eq(vm.r->argc, 0);
	free(vm.r);
	free(file.r);
	free(any.r);
	free(longarg);
	(void)munmap(pages, 2 * MEM_PAGE);
}
END_TEST

START_TEST(test_exec_memory_call_refused_falls_back_to_file)
{
	char *pages, *boundary, *argv[3];
	struct mem_read vm = {0}, file = {0}, any = {0};
	pid_t child;

	/* an argument that runs on into a PROT_NONE page: /proc/PID/mem
	 * reads it (FOLL_FORCE), process_vm_readv cannot (EFAULT) */
	pages = mem_two_pages(&boundary);
	memcpy(boundary - 8, "yyyyyyyyzzzzzzzz", 17);
	ck_assert_int_eq(mprotect(boundary, MEM_PAGE, PROT_NONE), 0);
	argv[0] = "prog";
	argv[1] = boundary - 8;
	argv[2] = NULL;
	child = mem_child();
	mem_read_as(&vm, child, "/usr/bin/true", argv, PTY_EXEC_MEM_VM);
	mem_read_as(&file, child, "/usr/bin/true", argv, PTY_EXEC_MEM_FILE);
	mem_read_as(&any, child, "/usr/bin/true", argv, PTY_EXEC_MEM_ANY);
	mem_child_end(child);
	ck_assert_int_eq(vm.rc, PTY_EXEC_READ_REFUSE);
	mem_assert_same(&any, &file);
	ck_assert_uint_eq(any.r->argc, 2);
	ck_assert_str_eq(any.r->argv[1], "yyyyyyyyzzzzzzzz");
	free(vm.r);
	free(file.r);
	free(any.r);
	(void)munmap(pages, 2 * MEM_PAGE);
}
END_TEST

/* Every way refuses (never a part) with the file way's words. */
static void
mem_assert_refused(pid_t child, const char *path, char *const *argv,
		   const char *words)
{
	struct mem_read m = {0};
	int how;

	for (how = PTY_EXEC_MEM_ANY; how <= PTY_EXEC_MEM_FILE; how++) {
		mem_read_as(&m, child, path, argv, (enum pty_exec_mem)how);
		ck_assert_int_eq(m.rc, PTY_EXEC_READ_REFUSE);
		if (how != PTY_EXEC_MEM_VM)
			ck_assert_msg(strstr(m.err, words) != NULL, "%s",
				      m.err);
	}
	free(m.r);
}

START_TEST(test_exec_memory_bounds_refused_both_ways)
{
	char **argv = calloc(PTY_EXEC_ARGS_MAX + 2, sizeof *argv);
	char *big = malloc(126 * 1024), *longpath = malloc(PATH_MAX + 1);
	struct mem_read vm = {0}, file = {0};
	char *three[4];
	size_t i;
	pid_t child;

	ck_assert_ptr_nonnull(argv);
	ck_assert_ptr_nonnull(big);
	ck_assert_ptr_nonnull(longpath);
	for (i = 0; i < PTY_EXEC_ARGS_MAX + 1; i++)
		argv[i] = "a";
	/* three of 126 KiB: the third does not fit in 256 KiB */
	memset(big, 'b', 126 * 1024 - 1);
	big[126 * 1024 - 1] = '\0';
	three[0] = three[1] = three[2] = big;
	three[3] = NULL;
	memset(longpath, 'p', PATH_MAX);
	longpath[PATH_MAX] = '\0';
	/* 4,096 arguments are read, alike both ways; 4,097 are refused */
	argv[PTY_EXEC_ARGS_MAX] = NULL;
	child = mem_child();
	mem_read_as(&vm, child, "/usr/bin/true", argv, PTY_EXEC_MEM_VM);
	mem_read_as(&file, child, "/usr/bin/true", argv, PTY_EXEC_MEM_FILE);
	mem_assert_same(&vm, &file);
	ck_assert_uint_eq(vm.r->argc, PTY_EXEC_ARGS_MAX);
	mem_child_end(child);
	argv[PTY_EXEC_ARGS_MAX] = "a";
	child = mem_child();
	mem_assert_refused(child, "/usr/bin/true", argv,
			   "more arguments than the supervisor reads");
	mem_assert_refused(child, "/usr/bin/true", three,
			   "longer than the supervisor reads (256 KiB)");
	/* a path of PATH_MAX bytes or more is the kernel's ENAMETOOLONG,
	 * not a refusal (the call way alone cannot tell it from a path it
	 * cannot read) */
	mem_read_as(&vm, child, longpath, three, PTY_EXEC_MEM_VM);
	mem_read_as(&file, child, longpath, three, PTY_EXEC_MEM_FILE);
	ck_assert_int_eq(vm.rc, PTY_EXEC_READ_REFUSE);
	ck_assert_int_eq(file.rc, ENAMETOOLONG);
	mem_read_as(&file, child, longpath, three, PTY_EXEC_MEM_ANY);
	ck_assert_int_eq(file.rc, ENAMETOOLONG);
	mem_child_end(child);
	free(vm.r);
	free(file.r);
	free(argv);
	free(big);
	free(longpath);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The facts a policy does not read are not learnt: a real request, read
 * by pty_exec_read with and without the process's directory and
 * executable, decides alike. */

/* The child: chdir /usr, the supervisor's filter, then "bin/true" twice
 * and the dynamic loader once (each answered EPERM by the test); exits 7
 * when all three were. */
static void
facts_child(struct pty_supervisor *s, const char *loader)
{
	char *const argv[] = {"true", "x", NULL}, *const envp[] = {NULL};
	char *const ldargv[] = {"ld.so", "/usr/bin/true", NULL};
	int e1, e2;

	if (chdir("/usr") != 0)
		_exit(2);
	pty_supervise_child(s);
	(void)execve("bin/true", argv, envp);
	e1 = errno;
	(void)execve("bin/true", argv, envp);
	e2 = errno;
	(void)execve(loader, ldargv, envp);
	_exit(e1 == EPERM && e2 == EPERM && errno == EPERM ? 7 : 8);
}

/* Receives the child's next exec, reads it with `need` (it leads to
 * `chain` programs), copies what it asked for into *out (NULL: no copy),
 * and refuses it. */
static void
facts_read(struct pty_supervisor *s, unsigned need, size_t chain,
	   struct pty_exec_request *out)
{
	struct pollfd pfd = {s->listener, POLLIN, 0};
	char why[PATH_MAX + 512];
	size_t i;

	ck_assert_int_eq(poll(&pfd, 1, T), 1);
	memset(s->req, 0, sizeof *s->req);
	ck_assert_int_eq(seccomp_notify_receive(s->listener, s->req), 0);
	ck_assert_int_eq(pty_exec_read(s->listener, s->req, &s->env, need,
				       &s->chain, why, sizeof why),
			 0);
	ck_assert_uint_eq(s->chain.n, chain);
	if (out != NULL) {
		memcpy(out, s->chain.rq[0], sizeof *out);
		for (i = 0; i < out->argc; i++)
			out->argv[i] = out->bytes + (s->chain.rq[0]->argv[i] -
						     s->chain.rq[0]->bytes);
	}
	memset(s->resp, 0, sizeof *s->resp);
	s->resp->id = s->req->id;
	s->resp->error = -EPERM;
	ck_assert_int_eq(seccomp_notify_respond(s->listener, s->resp), 0);
}

START_TEST(test_exec_facts_the_policy_does_not_read_are_not_learnt)
{
	static const char quiet[] =
	    "allow(C) :- command(C).\n"
	    "allow_exec(P) :- exec_path(P), exec_request(\"/usr/bin/true\"),\n"
	    "    exec_via(\"loader\").\n"
	    "deny_exec(P, \"seen\") :- exec_path(P), exec_via(\"execve\").\n";
	static const char curious[] =
	    "allow(C) :- command(C).\n"
	    "allow_exec(P) :- exec_path(P), exec_cwd(\"/usr\").\n"
	    "deny_exec(P, \"seen\") :- exec_path(P), exec_parent(Q).\n";
	static const char args[] =
	    "allow(C) :- command(C).\n"
	    "allow_exec(P) :- exec_path(P), exec_arg(0, \"true\").\n";
	/* argv read only through a helper relation: still read */
	static const char helper[] =
	    ".decl first(a)\n"
	    "first(A) :- exec_arg(0, A).\n"
	    "allow(C) :- command(C).\n"
	    "allow_exec(P) :- exec_path(P), first(\"true\").\n";
	maelys_datalog_session_t *sq = NULL, *sc = NULL, *sa = NULL, *sh = NULL;
	struct pty_policy_reads rq, rc, ra, rh;
	struct pty_exec_request *lean = malloc(sizeof *lean),
				*full = malloc(sizeof *full);
	struct pty_exec_decision dl, df;
	struct pty_supervisor s;
	struct pty_decider d;
	char err[512], self[PATH_MAX], loader[PATH_MAX];
	ssize_t n;
	int st;
	pid_t pid;

	ck_assert_ptr_nonnull(lean);
	ck_assert_ptr_nonnull(full);
	ck_assert_int_eq(pty_exec_own_loader(loader, sizeof loader), 0);
	/* what the supervisor asks for: what the policy reads, or all with
	 * a log */
	ck_assert_int_eq(pty_policy_open_text("args.dl", args, strlen(args),
					      &sa, &ra, err, sizeof err),
			 0);
	ck_assert_int_eq(pty_policy_open_text("curious.dl", curious,
					      strlen(curious), &sc, &rc, err,
					      sizeof err),
			 0);
	ck_assert_int_eq(pty_policy_open_text("quiet.dl", quiet, strlen(quiet),
					      &sq, &rq, err, sizeof err),
			 0);
	ck_assert_int_eq(pty_policy_open_text("helper.dl", helper,
					      strlen(helper), &sh, &rh, err,
					      sizeof err),
			 0);
	/* each policy's own, whichever was loaded last */
	ck_assert_uint_eq(pty_supervise_need(&rh, false), PTY_EXEC_NEED_ARGV);
	ck_assert_uint_eq(pty_supervise_need(&ra, false), PTY_EXEC_NEED_ARGV);
	ck_assert_uint_eq(pty_supervise_need(&rc, false),
			  PTY_EXEC_NEED_CWD | PTY_EXEC_NEED_PARENT);
	ck_assert_uint_eq(pty_supervise_need(&rq, false), 0);
	ck_assert_uint_eq(pty_supervise_need(&rq, true), PTY_EXEC_NEED_ALL);
	ck_assert_uint_eq(pty_supervise_need(NULL, false), PTY_EXEC_NEED_ALL);
	/* one process's exec, read without and with them */
	pty_supervise_init(&s);
	ck_assert_int_eq(pty_supervise_prepare(&s, -1, err, sizeof err), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		facts_child(&s, loader);
	ck_assert_msg(pty_supervise_accept(&s, err, sizeof err) == 0, "%s",
		      err);
	facts_read(&s, 0, 1, lean);
	facts_read(&s, PTY_EXEC_NEED_ALL, 1, full);
	/* the loader's argv is read all the same: it names the program */
	facts_read(&s, 0, 2, NULL);
	ck_assert_int_eq(s.chain.rq[0]->args_unread, 0);
	ck_assert_uint_eq(s.chain.rq[0]->argc, 2);
	ck_assert_str_eq(s.chain.rq[1]->path, "/usr/bin/true");
	ck_assert_int_eq(s.chain.rq[1]->via, PTY_EXEC_VIA_LOADER);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_int_eq(WEXITSTATUS(st), 7);
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	ck_assert_int_gt(n, 0);
	self[n] = '\0';
	ck_assert_str_eq(lean->cwd, "");
	ck_assert_str_eq(lean->parent, "");
	ck_assert_int_eq(lean->args_unread, 1);
	ck_assert_uint_eq(lean->argc, 0);
	ck_assert_str_eq(full->cwd, "/usr");
	ck_assert_str_eq(full->parent, self);
	ck_assert_int_eq(full->args_unread, 0);
	ck_assert_uint_eq(full->argc, 2);
	ck_assert_str_eq(full->argv[1], "x");
	/* the relative path was still made absolute against the directory */
	ck_assert_str_eq(lean->request, "/usr/bin/true");
	ck_assert_str_eq(lean->path, full->path);
	/* the policy that does not read them decides both alike */
	ck_assert_int_eq(pty_decider_init(&d, sq, &rq, "/usr/bin"), 0);
	pty_exec_decide(&d, lean, PTY_MODE_COMMAND, &dl);
	pty_exec_decide(&d, full, PTY_MODE_COMMAND, &df);
	ck_assert_int_eq(dl.verdict, PTY_EXEC_POLICY);
	ck_assert_int_eq(df.verdict, dl.verdict);
	ck_assert_uint_eq(dl.nreasons, 1);
	ck_assert_uint_eq(df.nreasons, dl.nreasons);
	ck_assert_str_eq(df.reasons[0], dl.reasons[0]);
	pty_decider_free(&d);
	pty_supervise_close(&s);
	(void)maelys_datalog_session_free(sq);
	(void)maelys_datalog_session_free(sc);
	(void)maelys_datalog_session_free(sa);
	(void)maelys_datalog_session_free(sh);
	free(lean);
	free(full);
}
END_TEST

/* The supervisor's kept descriptors: "/" for the walk, which it never
 * closes, and /proc/self/fd, which a forked child does not use (it names
 * the parent's files). */
START_TEST(test_exec_kept_descriptors_walk_alike_and_not_after_fork)
{
	struct pty_exec_env env;
	struct pty_exec_walk kept, opened;
	char err[512], name[PATH_MAX];
	int st;
	pid_t pid;

	ck_assert_int_eq(pty_exec_env_prepare(&env, err, sizeof err), 0);
	ck_assert_int_ge(env.root, 0);
	ck_assert_int_eq(pty_exec_walk(env.root, -1, "/bin/true", &kept, err,
				       sizeof err),
			 0);
	ck_assert_int_eq(pty_exec_walk(-1, -1, "/bin/true", &opened, err,
				       sizeof err),
			 0);
	ck_assert_uint_eq(kept.st.st_ino, opened.st.st_ino);
	ck_assert_uint_eq(kept.st.st_dev, opened.st.st_dev);
	ck_assert_int_ge(fcntl(env.root, F_GETFD), 0); /* still open */
	ck_assert_int_ge(pty_exec_self_fd(&env), 0);
	ck_assert_int_eq(pty_exec_walk_name(pty_exec_self_fd(&env), &kept,
					    name, sizeof name, err,
					    sizeof err),
			 0);
	ck_assert_str_eq(name, "/usr/bin/true");
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(pty_exec_self_fd(&env) == -1 ? 7 : 8);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_int_eq(WEXITSTATUS(st), 7);
	ck_assert_int_ge(pty_exec_self_fd(&env), 0);
	(void)close(kept.fd);
	(void)close(opened.fd);
	pty_exec_env_free(&env);
}
END_TEST

/* An argument list over the bound (PTY_EXEC_ARGS_MAX) is refused when it
 * is read, never decided on a part; when nothing reads it (no rule, no
 * log, no #! or loader), it is not read, and the exec is decided on its
 * path alone, as maelys-policy(5) says. */
static void
bound_child(struct pty_supervisor *s)
{
	static char *argv[PTY_EXEC_ARGS_MAX + 2];
	char *const envp[] = {NULL};
	size_t i;

	for (i = 0; i <= PTY_EXEC_ARGS_MAX; i++)
		argv[i] = (char *)"a";
	argv[PTY_EXEC_ARGS_MAX + 1] = NULL;
	pty_supervise_child(s);
	(void)execve("/usr/bin/true", argv, envp);
	(void)execve("/usr/bin/true", argv, envp);
	_exit(errno == EPERM ? 7 : 8);
}

/* Reads the next request with `need`, answers EPERM; returns what
 * pty_exec_read said, its reason in why. */
static int
bound_read(struct pty_supervisor *s, unsigned need, char *why, size_t cap)
{
	struct pollfd pfd = {s->listener, POLLIN, 0};
	int rc;

	ck_assert_int_eq(poll(&pfd, 1, T), 1);
	memset(s->req, 0, sizeof *s->req);
	ck_assert_int_eq(seccomp_notify_receive(s->listener, s->req), 0);
	why[0] = '\0';
	rc = pty_exec_read(s->listener, s->req, &s->env, need, &s->chain, why,
			   cap);
	memset(s->resp, 0, sizeof *s->resp);
	s->resp->id = s->req->id;
	s->resp->error = -EPERM;
	ck_assert_int_eq(seccomp_notify_respond(s->listener, s->resp), 0);
	return rc;
}

START_TEST(test_exec_argument_bound_holds_for_what_is_read)
{
	struct pty_supervisor s;
	char err[512], why[PATH_MAX + 512];
	int st;
	pid_t pid;

	pty_supervise_init(&s);
	ck_assert_int_eq(pty_supervise_prepare(&s, -1, err, sizeof err), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		bound_child(&s);
	ck_assert_msg(pty_supervise_accept(&s, err, sizeof err) == 0, "%s",
		      err);
	/* nothing needs argv: the path alone, read whole */
	ck_assert_int_eq(bound_read(&s, 0, why, sizeof why), 0);
	ck_assert_int_eq(s.chain.rq[0]->args_unread, 1);
	ck_assert_str_eq(s.chain.rq[0]->path, "/usr/bin/true");
	/* argv needed: over the bound, refused with the reason */
	ck_assert_int_eq(bound_read(&s, PTY_EXEC_NEED_ARGV, why, sizeof why),
			 PTY_EXEC_READ_REFUSE);
	ck_assert_msg(strstr(why, "more arguments than the supervisor reads") !=
			  NULL,
		      "%s", why);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_int_eq(WEXITSTATUS(st), 7);
	pty_supervise_close(&s);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("exec");

	pts_require_root("check_pty_exec", "the configuration must be root's");

	tcase_set_timeout(tc, 240);
	tcase_add_test(tc,
		       test_exec_raw_execve_of_forbidden_program_is_refused);
	tcase_add_test(
	    tc, test_exec_env_and_find_exec_cannot_start_forbidden_program);
	tcase_add_test(
	    tc, test_exec_vi_shell_escape_cannot_start_forbidden_program);
	tcase_add_test(tc, test_exec_pipeline_of_allowed_programs_runs);
	tcase_add_test(tc, test_exec_deep_tree_every_exec_decided);
	tcase_add_test(tc, test_exec_refused_system_calls_fail_with_eperm);
	tcase_add_test(tc, test_exec_ptrace_of_the_guard_fails);
	tcase_add_test(tc,
		       test_exec_racing_rewrite_never_runs_forbidden_program);
	tcase_add_test(tc, test_exec_after_guard_is_killed_fails);
	tcase_add_test(tc, test_exec_session_end_counts_and_exit_status);
	tcase_add_test(tc, test_exec_killed_guard_leaves_its_counts);
	tcase_add_test(tc, test_exec_nested_guard_cannot_loosen_the_session);
	tcase_add_test(
	    tc, test_exec_nested_guard_without_log_rights_is_recorded_outside);
	tcase_add_test(tc, test_exec_unprivileged_guard_with_audit_log);
	tcase_add_test(
	    tc, test_exec_loader_flip_race_never_runs_the_forbidden_program);
	tcase_add_test(tc, test_exec_shebang_and_loader_programs_are_decided);
	tcase_add_test(tc, test_exec_loader_as_program_refused_under_landlock);
	tcase_add_test(tc, test_exec_path_through_proc_self_is_refused);
	tcase_add_test(tc, test_exec_policy_without_shell_rule_starts_nothing);
	tcase_add_test(tc,
		       test_exec_policy_deciding_lines_only_records_every_program);
	tcase_add_test(
	    tc, test_exec_landlock_required_without_locations_starts_nothing);
	tcase_add_test(tc, test_exec_memory_read_by_call_and_by_file_alike);
	tcase_add_test(tc, test_exec_memory_call_refused_falls_back_to_file);
	tcase_add_test(tc, test_exec_memory_bounds_refused_both_ways);
	tcase_add_test(tc,
		       test_exec_facts_the_policy_does_not_read_are_not_learnt);
	tcase_add_test(tc, test_exec_argument_bound_holds_for_what_is_read);
	tcase_add_test(tc,
		       test_exec_kept_descriptors_walk_alike_and_not_after_fork);
	suite_add_tcase(s, tc);
	return s;
}
