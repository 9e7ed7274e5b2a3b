/* SPDX-License-Identifier: MIT */
/*
 * The guarded shell end to end, through a real pseudo-terminal: the
 * walkthrough's five lines and their outcomes on the screen, the session's
 * exit status, Ctrl-C and Ctrl-D, window size, hangup, a policy that does
 * not load, and the lock-down of the shell.  A fake `shutdown` on PATH
 * leaves a marker file if it ever runs: no test may leave one.
 */
#include "runner.h"

#include "pty_harness.h"

#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define T 8000 /* ms: generous, sanitizer builds are slow */

/* Everything is allowed except the fake programs: the tests of the
 * mechanism must not rely on the policy denying the trick itself. */
static const char permissive[] =
    "allow(C) :- command(C), not(forbidden_cmd(C)).\n"
    "forbidden_cmd(\"shutdown\"). forbidden_cmd(\"reboot\").\n"
    "forbidden_cmd(\"poweroff\"). forbidden_cmd(\"evil\").\n"
    "allow_exec(P) :- exec_path(P).\n";

static struct pts_world world;
static struct pts p;

static void
start(const char *policy)
{
	pts_world_make(&world);
	pts_start(&p, &world, policy, 24, 80);
	ck_assert_msg(pts_wait_prompt(&p, T), "no prompt; output: %s", p.out);
}

static void
start_permissive(void)
{
	pts_world_make(&world);
	pts_start(&p, &world,
		  pts_world_policy(&world, "permissive.dl", permissive), 24,
		  80);
	ck_assert_msg(pts_wait_prompt(&p, T), "no prompt; output: %s", p.out);
}

static void
finish(void)
{
	ck_assert_msg(!pts_world_ran(&world, "shutdown"),
		      "the fake shutdown ran; output:\n%s", p.out);
	ck_assert(!pts_world_ran(&world, "evil"));
	pts_close(&p);
	pts_world_remove(&world);
}

/* Types a line and waits for the next prompt. */
static void
line(const char *text)
{
	pts_type(&p, text);
	pts_type(&p, "\r");
	ck_assert_msg(pts_wait_prompt(&p, T), "no prompt after '%s': %s", text,
		      p.out + p.mark);
}

START_TEST(test_session_walkthrough_lines_give_walkthrough_outcomes)
{
	start(pts_source_path("policies/level1.dl"));
	pts_type(&p, "shutdown now\r");
	ck_assert(pts_expect(&p, "maelys-pty: 'shutdown' denied by policy", T));
	ck_assert(pts_expect(&p, "command is forbidden by policy", T));
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "echo hello | grep hello\r");
	ck_assert(pts_expect(&p, "maelys-pty: '__line__' denied by policy", T));
	ck_assert(pts_expect(&p, "shell metacharacter in line", T));
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "git commit -m \"feat: solver\"\r");
	ck_assert(pts_expect(&p, "maelys-pty: denied before solving", T));
	ck_assert(pts_expect(&p, "quoted syntax is unsupported", T));
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "CMD=rm; $CMD /\r");
	ck_assert(pts_expect(&p, "maelys-pty: '__line__' denied by policy", T));
	ck_assert(pts_wait_prompt(&p, T));
	/* allowed: it reaches bash (git's own answer, or bash's) */
	{
		size_t before = p.len;

		line("git push origin feature/x");
		ck_assert_msg(strstr(p.out + before, "denied") == NULL,
			      "the allowed line was denied: %s",
			      p.out + before);
	}
	line("echo walkthrough-done");
	ck_assert(strstr(p.out, "walkthrough-done\r\n") != NULL);
	finish();
}
END_TEST

/* The walkthrough's Level 1 policy, exactly as printed (policies/
 * walkthrough.dl): it defines no allow_exec, so with --policy (no
 * configuration: exec_decisions = optional) the session starts, says once
 * that programs are recorded, not decided, gives the walkthrough's
 * outcomes, and `exit 7` ends it with status 7. */
START_TEST(test_session_walkthrough_policy_as_printed_runs_its_transcript)
{
	const char *note = "maelys-pty: this policy decides the lines you type, "
			   "not the programs they start";
	size_t before;

	start(pts_source_path("policies/walkthrough.dl"));
	ck_assert_msg(strstr(p.out, note) != NULL, "%s", p.out);
	ck_assert_ptr_null(strstr(strstr(p.out, note) + 1, note));
	pts_type(&p, "shutdown now\r");
	ck_assert(pts_expect(&p, "maelys-pty: 'shutdown' denied by policy", T));
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "echo hello | grep hello\r");
	ck_assert(pts_expect(&p, "maelys-pty: '__line__' denied by policy", T));
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "git commit -m \"feat: solver\"\r");
	ck_assert(pts_expect(&p, "maelys-pty: denied before solving", T));
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "CMD=rm; $CMD /\r");
	ck_assert(pts_expect(&p, "maelys-pty: '__line__' denied by policy", T));
	ck_assert(pts_wait_prompt(&p, T));
	before = p.len;
	line("git push origin feature/x");
	ck_assert_msg(strstr(p.out + before, "denied") == NULL, "%s",
		      p.out + before);
	/* said once at the start, never again */
	ck_assert_ptr_null(strstr(p.out + before, note));
	/* what "not decided" means: a program an allowed line starts runs,
	 * even one the policy forbids as a line (the fake shutdown of the
	 * world's bin/ leaves a marker) */
	line("env shutdown now");
	ck_assert_msg(pts_world_ran(&world, "shutdown"),
		      "an undecided program did not run: %s", p.out);
	pts_type(&p, "exit 7\r");
	ck_assert_int_eq(pts_wait(&p, T), 7);
	pts_close(&p);
	pts_world_remove(&world);
}
END_TEST

/* The fence stays with a policy that decides lines only: the session's
 * processes still cannot make the system calls a session never needs. */
START_TEST(test_session_walkthrough_policy_keeps_the_fence)
{
	char cmd[700];
	size_t before;

	start(pts_source_path("policies/walkthrough.dl"));
	snprintf(cmd, sizeof cmd, "%s syscalls",
		 pts_build_path("tests/exec_probe"));
	before = p.len;
	pts_type(&p, cmd);
	pts_type(&p, "\r");
	/* the probe's last line, not the prompt: a line wider than the
	 * terminal is redrawn after a "<" by readline, and the "# " of the
	 * prompt it shows would be taken for the next one (the length of
	 * the build directory's path decides) */
	ck_assert_msg(pts_expect(&p, "pidfd_getfd: ", T), "%s", p.out + before);
	ck_assert(pts_wait_prompt(&p, T));
	ck_assert_msg(strstr(p.out + before, "ptrace: EPERM") != NULL, "%s",
		      p.out + before);
	ck_assert_msg(strstr(p.out + before, "mount: EPERM") != NULL, "%s",
		      p.out + before);
	pts_type(&p, "exit 0\r");
	ck_assert_int_eq(pts_wait(&p, T), 0);
	pts_close(&p);
	pts_world_remove(&world);
}
END_TEST

START_TEST(test_session_exit_status_is_the_shells)
{
	start_permissive();
	pts_type(&p, "exit 7\r");
	ck_assert_int_eq(pts_wait(&p, T), 7);
	finish();
}
END_TEST

START_TEST(test_session_ctrl_d_on_empty_line_ends_session)
{
	start_permissive();
	line("true");
	pts_type(&p, "\x04");
	ck_assert_int_eq(pts_wait(&p, T), 0);
	finish();
}
END_TEST

START_TEST(test_session_ctrl_c_cancels_line_and_interrupts_job)
{
	start_permissive();
	/* at the prompt: the half-typed line is dropped, never run */
	pts_type(&p, "shutdown now");
	pts_type(&p, "\x03");
	ck_assert(pts_expect(&p, "^C", T));
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "\r");
	ck_assert(pts_wait_prompt(&p, T));
	/* during a job: the job is interrupted, the prompt comes back */
	pts_type(&p, "sleep 100\r");
	pts_settle(&p, 300);
	pts_type(&p, "\x03");
	ck_assert_msg(pts_wait_prompt(&p, T), "no prompt after ^C: %s",
		      p.out + p.mark);
	line("echo after-interrupt");
	ck_assert(strstr(p.out, "after-interrupt\r\n") != NULL);
	finish();
}
END_TEST

START_TEST(test_session_window_size_reaches_the_child)
{
	start_permissive();
	pts_type(&p, "stty size\r");
	ck_assert(pts_expect(&p, "24 80", T));
	ck_assert(pts_wait_prompt(&p, T));
	pts_resize(&p, 40, 120);
	pts_settle(&p, 200);
	pts_type(&p, "stty size\r");
	ck_assert_msg(pts_expect(&p, "40 120", T), "output: %s",
		      p.out + p.mark);
	ck_assert(pts_wait_prompt(&p, T));
	finish();
}
END_TEST

/* Processes whose command line is exactly argv (NULs between words). */
static int
count_processes(const char *cmdline, size_t len)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL) {
		char path[300], buf[256];
		FILE *f;
		size_t got;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/cmdline", de->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		got = fread(buf, 1, sizeof buf, f);
		fclose(f);
		if (got == len && memcmp(buf, cmdline, len) == 0)
			n++;
	}
	closedir(d);
	return n;
}

START_TEST(test_session_sighup_leaves_no_process_behind)
{
	static const char sleeper[] = "sleep\0004242.5"; /* with its NUL */
	int i;

	start_permissive();
	pts_type(&p, "sleep 4242.5\r");
	for (i = 0; i < 100 && count_processes(sleeper, sizeof sleeper) == 0;
	     i++)
		pts_settle(&p, 50);
	ck_assert_int_eq(count_processes(sleeper, sizeof sleeper), 1);
	ck_assert_int_eq(kill(p.pid, SIGHUP), 0);
	ck_assert_int_eq(pts_wait(&p, T), 128 + SIGHUP);
	for (i = 0; i < 40 && count_processes(sleeper, sizeof sleeper) > 0; i++)
		usleep(50 * 1000);
	ck_assert_int_eq(count_processes(sleeper, sizeof sleeper), 0);
	finish();
}
END_TEST

START_TEST(test_session_bad_policy_starts_no_shell)
{
	pts_world_make(&world);
	pts_start(
	    &p, &world,
	    pts_world_policy(&world, "bad.dl", "allow(C) :- comand(C).\n"), 24,
	    80);
	ck_assert_int_ne(pts_wait(&p, T), 0);
	ck_assert(strstr(p.out, "maelys-pty: policy") != NULL);
	ck_assert(strstr(p.out, "undeclared") != NULL);
	ck_assert(strstr(p.out, "bad.dl:1:13") != NULL);
	ck_assert_ptr_null(strstr(p.out, "$ "));
	finish();
}
END_TEST

START_TEST(test_session_shell_is_locked_down)
{
	static const char *const tricks[][2] = {
	    {"eval shutdown", "eval: command not found"},
	    {"builtin eval shutdown", "builtin: command not found"},
	    {"command shutdown", "command: command not found"},
	    {"source /dev/null", "source: command not found"},
	    {"exec shutdown", "exec: command not found"},
	    {"export LD_PRELOAD=/tmp/x.so", "export: command not found"},
	    {"enable -n cd", "enable: command not found"},
	    {"alias ls=shutdown", "alias: command not found"},
	    {"hash -p ./x ls", "hash: command not found"},
	    {"read PATH", "read: command not found"},
	    {"trap shutdown EXIT", "trap: command not found"},
	    {"PATH=/tmp", "PATH: readonly variable"},
	    {"PROMPT_COMMAND=x", "readonly variable"},
	    {"PS1=x", "readonly variable"},
	};
	size_t i;

	start_permissive();
	for (i = 0; i < sizeof tricks / sizeof tricks[0]; i++) {
		pts_type(&p, tricks[i][0]);
		pts_type(&p, "\r");
		ck_assert_msg(pts_expect(&p, tricks[i][1], T),
			      "'%s' did not say '%s': %s", tricks[i][0],
			      tricks[i][1], p.out + p.mark);
		ck_assert(pts_wait_prompt(&p, T));
	}
	/* the environment is the allow-list, SHELL is the guard */
	pts_type(&p, "env\r");
	ck_assert(pts_expect(&p, "maelys-pty", T));
	ck_assert(pts_wait_prompt(&p, T));
	finish();
}
END_TEST

START_TEST(test_session_history_path_not_a_file_is_left_alone)
{
	char hist[400], fifo[400], dev[400];
	struct stat st;
	struct pts q;
	bool have_dev;

	pts_world_make(&world);
	/* a directory and a FIFO where the history would be: the session
	 * starts, works, and leaves them as they were */
	snprintf(hist, sizeof hist, "%s/histdir", world.dir);
	ck_assert_int_eq(mkdir(hist, 0700), 0);
	snprintf(fifo, sizeof fifo, "%s/histfifo", world.dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	/* as root, a device node like /dev/null: once chmod-ed to 0600 */
	snprintf(dev, sizeof dev, "%s/histnull", world.dir);
	have_dev = mknod(dev, S_IFCHR | 0666, makedev(1, 3)) == 0;
	if (have_dev)
		ck_assert_int_eq(chmod(dev, 0666), 0); /* past the umask */
	{
		const char *paths[] = {hist, fifo, dev};
		size_t i;

		for (i = 0; i < (have_dev ? 3u : 2u); i++) {
			char *argv[] = {
			    (char *)pts_build_path("pty/maelys-pty"),
			    "--policy",
			    (char *)pts_world_policy(&world, "p.dl",
						     permissive),
			    "--history",
			    (char *)paths[i],
			    NULL};

			pts_spawn(&q, &world, argv, 24, 80);
			ck_assert_msg(pts_wait_prompt(&q, T), "%s", q.out);
			pts_type(&q, "echo hist-ok\r");
			ck_assert(pts_expect(&q, "hist-ok\r\n", T));
			/* typed before the prompt it would be typeahead */
			ck_assert(pts_wait_prompt(&q, T));
			pts_type(&q, "exit\r");
			ck_assert_int_eq(pts_wait(&q, T), 0);
			pts_close(&q);
		}
	}
	ck_assert_int_eq(stat(hist, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	ck_assert_int_eq(st.st_mode & 07777, 0700);
	ck_assert_int_eq(stat(fifo, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
	ck_assert_int_eq(st.st_mode & 07777, 0600);
	if (have_dev) {
		ck_assert_int_eq(stat(dev, &st), 0);
		ck_assert_int_eq(st.st_mode & 07777, 0666);
	}
	pts_world_remove(&world);
}
END_TEST

/* The pid written by exec_probe detach, waiting for the file to be
 * written (bounded); -1 if it never is. */
static long
detached_pid(const char *path)
{
	int i;

	for (i = 0; i < 200; i++) {
		char *text = pts_slurp(path);
		long pid = strtol(text, NULL, 10);

		free(text);
		if (pid > 0)
			return pid;
		usleep(10 * 1000);
	}
	return -1;
}

/* Whether `pid` is gone within a few seconds (a zombie counts as gone:
 * it runs nothing). */
static bool
gone(long pid)
{
	char path[64], state = '?';
	int i;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	for (i = 0; i < 100; i++) {
		FILE *f = fopen(path, "r");

		if (f == NULL)
			return true;
		if (fscanf(f, "%*d (%*[^)]) %c", &state) == 1 && state == 'Z') {
			fclose(f);
			return true;
		}
		fclose(f);
		usleep(30 * 1000);
	}
	return false;
}

/* A process that leaves the session as a daemon does - setsid, a double
 * fork, hangups ignored - still ends with it: the guard is the session's
 * subreaper and ends every process it started. */
START_TEST(test_session_end_leaves_no_detached_process)
{
	static const char sleeper[] = "sleep\0004243.5";
	char cmd[600], pidfile[2][400];
	long pid[2];
	int i;

	start_permissive();
	for (i = 0; i < 2; i++)
		snprintf(pidfile[i], sizeof pidfile[i], "%s/detached-%d",
			 world.dir, i);
	snprintf(cmd, sizeof cmd, "exec_probe detach %s", pidfile[0]);
	line(cmd);
	snprintf(cmd, sizeof cmd, "setsid -f exec_probe detach %s", pidfile[1]);
	line(cmd);
	line("setsid -f sleep 4243.5");
	for (i = 0; i < 2; i++) {
		pid[i] = detached_pid(pidfile[i]);
		ck_assert_msg(pid[i] > 0, "no daemon %d: %s", i, p.out);
		ck_assert_msg(kill((pid_t)pid[i], 0) == 0,
			      "daemon %d is not running", i);
	}
	for (i = 0; i < 100 && count_processes(sleeper, sizeof sleeper) == 0;
	     i++)
		usleep(20 * 1000);
	ck_assert_int_eq(count_processes(sleeper, sizeof sleeper), 1);
	pts_type(&p, "exit 4\r");
	ck_assert_int_eq(pts_wait(&p, T), 4);
	for (i = 0; i < 2; i++)
		ck_assert_msg(gone(pid[i]), "daemon %ld outlived its session",
			      pid[i]);
	for (i = 0; i < 60 && count_processes(sleeper, sizeof sleeper) > 0; i++)
		usleep(50 * 1000);
	ck_assert_int_eq(count_processes(sleeper, sizeof sleeper), 0);
	finish();
}
END_TEST

/* The guard reads no file of the user's: a terminal description in
 * ~/.terminfo (which ncurses reads from $HOME before the system's) would
 * have the guard's own line editor write what the user chose.  Here the
 * user's description of a terminal named "mptyterm" makes cursor-left
 * print a marker; the guard must not know the name at all. */
START_TEST(test_session_reads_no_terminfo_of_the_user)
{
	char src[400], cmd[1200], home[400], hist[400];
	char *argv[] = {(char *)pts_build_path("pty/maelys-pty"),
			"--policy",
			NULL,
			"--path",
			NULL,
			"--history",
			hist,
			NULL};
	char *envp[] = {"TERM=mptyterm", "LANG=C.UTF-8", home, NULL};

	if (access("/usr/bin/tic", X_OK) != 0) {
		printf("no tic: ~/.terminfo not tested\n");
		return;
	}
	pts_world_make(&world);
	snprintf(src, sizeof src, "%s/mptyterm.src", world.dir);
	pts_write_file(src,
		       "mptyterm|a terminal of the user's,\n"
		       "\tam, cols#80, lines#24, bel=^G, cr=\\r, ind=\\n,\n"
		       "\tcub1=[USER-TERMINFO], kcub1=^B,\n",
		       0644);
	snprintf(cmd, sizeof cmd, "tic -o '%s/.terminfo' '%s'", world.home,
		 src);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(home, sizeof home, "HOME=%s", world.home);
	snprintf(hist, sizeof hist, "%s/history", world.home);
	argv[2] = (char *)pts_world_policy(&world, "permissive.dl", permissive);
	argv[4] = world.path_env;
	pts_spawn_env(&p, argv[0], argv, envp, NULL, NULL, 24, 80);
	ck_assert_msg(pts_wait_prompt(&p, T), "no prompt; output: %s", p.out);
	/* a word, then the cursor left through readline (Ctrl-B) */
	pts_type(&p, "abc\x02\x02");
	pts_settle(&p, 300);
	ck_assert_msg(strstr(p.out, "[USER-TERMINFO]") == NULL,
		      "the guard used the user's terminfo: %s", p.out);
	pts_type(&p, "\003exit 0\r"); /* Ctrl-C: the line dropped */
	ck_assert_int_eq(pts_wait(&p, T), 0);
	finish();
}
END_TEST

/* The cwd fact and the prompt follow the shell's real directory, not its
 * $PWD, which a line may set ("time PWD=/etc": an assignment the scanner
 * does not see as one, the first word being "time"). */
START_TEST(test_session_cwd_is_the_shells_not_its_pwd_variable)
{
	start_permissive();
	line("cd /usr");
	ck_assert_msg(
	    strstr(p.out + p.mark - 40 > p.out ? p.out + p.mark - 40 : p.out,
		   ":/usr") != NULL,
	    "%s", p.out);
	line("time PWD=/etc");
	line("true");
	ck_assert_msg(strstr(p.out + p.mark - 40, ":/etc") == NULL,
		      "the prompt follows $PWD: %s", p.out);
	ck_assert_msg(strstr(p.out + p.mark - 40, ":/usr") != NULL, "%s",
		      p.out);
	pts_type(&p, "exit 0\r");
	ck_assert_int_eq(pts_wait(&p, T), 0);
	finish();
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("session");

	tcase_set_timeout(tc, 120);
	tcase_add_test(
	    tc, test_session_walkthrough_lines_give_walkthrough_outcomes);
	tcase_add_test(tc, test_session_exit_status_is_the_shells);
	tcase_add_test(
	    tc, test_session_walkthrough_policy_as_printed_runs_its_transcript);
	tcase_add_test(tc, test_session_walkthrough_policy_keeps_the_fence);
	tcase_add_test(tc, test_session_ctrl_d_on_empty_line_ends_session);
	tcase_add_test(tc, test_session_ctrl_c_cancels_line_and_interrupts_job);
	tcase_add_test(tc, test_session_window_size_reaches_the_child);
	tcase_add_test(tc, test_session_sighup_leaves_no_process_behind);
	tcase_add_test(tc, test_session_end_leaves_no_detached_process);
	tcase_add_test(tc, test_session_reads_no_terminfo_of_the_user);
	tcase_add_test(tc, test_session_cwd_is_the_shells_not_its_pwd_variable);
	tcase_add_test(tc, test_session_bad_policy_starts_no_shell);
	tcase_add_test(tc, test_session_shell_is_locked_down);
	tcase_add_test(tc, test_session_history_path_not_a_file_is_left_alone);
	suite_add_tcase(s, tc);
	return s;
}
