/* SPDX-License-Identifier: MIT */
/*
 * "What may I run" and refusals a person understands, through the real
 * binary: --list for level1.dl, bastion.dl and a policy with every verdict,
 * with a PATH of fake programs (allowed, refused, logged, confirm; a file
 * that is not executable, a directory, a name in two directories, names
 * the shell would not read as a command); `help` and Tab completion at the
 * prompt through a pseudo-terminal; the column and the caret under a
 * refused line (a pipe, several metacharacters, a quote, a tab and UTF-8
 * before it) and the -c form; and, with a configuration (root only), the
 * countdown before the lockout and the audit record of `help`.
 */
#include "runner.h"

#include "pty_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define T 8000

static struct pts_world world;
static char path_env[500]; /* the world's two fake directories */
static char dir2[400];

/* The fake programs: dir 1 is the world's bin (shutdown, reboot, poweroff,
 * evil) and these; dir 2 has `ls` again and `zz`. */
static void
make_path(void)
{
	static const char *const progs[] = {"ls",      "cat", "git", "bash",
					    "python3", "ssh", "db",  "date",
					    "a=b",     "[",   "vim", "~x"};
	char p[600];
	size_t i;
	int n;

	pts_world_make(&world);
	for (i = 0; i < sizeof progs / sizeof progs[0]; i++) {
		snprintf(p, sizeof p, "%s/%s", world.bin, progs[i]);
		pts_write_file(p, "#!/bin/sh\nexit 0\n", 0755);
	}
	snprintf(p, sizeof p, "%s/notexec", world.bin);
	pts_write_file(p, "#!/bin/sh\nexit 0\n", 0644);
	snprintf(p, sizeof p, "%s/adir", world.bin);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	snprintf(dir2, sizeof dir2, "%s/bin2", world.dir);
	ck_assert_int_eq(mkdir(dir2, 0755), 0);
	snprintf(p, sizeof p, "%s/ls", dir2);
	pts_write_file(p, "#!/bin/sh\nexit 0\n", 0755);
	snprintf(p, sizeof p, "%s/zz", dir2);
	pts_write_file(p, "#!/bin/sh\nexit 0\n", 0755);
	/* an executable directory entry that is not a file */
	snprintf(p, sizeof p, "%s/zdir", dir2);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	n = snprintf(path_env, sizeof path_env, "%s:%s:/nonexistent", world.bin,
		     dir2);
	ck_assert(n > 0 && (size_t)n < sizeof path_env);
}

/* `maelys-pty --policy POLICY --path PATH --list` without a terminal:
 * its stdout, which the caller frees; the status must be 0. */
static char *
list(const char *policy)
{
	char *argv[] = {(char *)pts_build_path("pty/maelys-pty"),
			"--policy",
			(char *)policy,
			"--path",
			path_env,
			"--list",
			NULL};
	char home[400], *envp[] = {home, "LANG=C.UTF-8", NULL};
	char *out = NULL, *err = NULL;
	int rc;

	snprintf(home, sizeof home, "HOME=%s", world.home);
	rc = pts_run(argv, envp, &out, &err);
	ck_assert_msg(rc == 0, "--list: status %d, stderr: %s", rc, err);
	ck_assert_str_eq(err, "");
	free(err);
	return out;
}

static const char every_verdict[] =
    "allow(C) :- command(C), C = \"ls\".\n"
    "allow(C) :- command(C), C = \"zz\".\n"
    "allow_with_log(C, \"recorded\") :- command(C), C = \"ssh\".\n"
    "require_confirm(C, \"sure?\") :- command(C), C = \"db\".\n"
    /* the policy is asked about these too; the list must not show
     * them, whatever it says */
    "allow(C) :- command(C), C = \"a=b\".\n"
    "allow(C) :- command(C), C = \"[\".\n"
    "allow(C) :- command(C), C = \"notexec\".\n"
    "allow(C) :- command(C), C = \"adir\".\n"
    "allow_exec(P) :- exec_path(P).\n";

START_TEST(test_mayrun_list_every_verdict_sorted_and_marked)
{
	char *out;

	make_path();
	out = list(pts_world_policy(&world, "every.dl", every_verdict));
	/* sorted, each once (ls is in both directories), marked; not the
	 * file without an execute bit, nor a directory, nor the names the
	 * shell reads as something else */
	ck_assert_str_eq(out, "db\tconfirm\nls\nssh\tlogged\nzz\n");
	free(out);
	pts_world_remove(&world);
}
END_TEST

/* A directory named twice in PATH is read once (the list is not cut for
 * it); past PTY_RUNNABLE_DIRS_MAX (128) directories the rest are not read,
 * and the list says it was cut. */
START_TEST(test_mayrun_list_reads_each_directory_once_and_bounds_them)
{
	char *out, *many, d[600], p[700], base[32], cmd[64];
	size_t i, at;

	make_path();
	ck_assert(strlen(world.bin) + strlen(dir2) + strlen(world.bin) + 3 <
		  sizeof path_env);
	strcpy(path_env, world.bin);
	strcat(path_env, ":");
	strcat(path_env, dir2);
	strcat(path_env, ":");
	strcat(path_env, world.bin);
	out = list(pts_world_policy(&world, "every.dl", every_verdict));
	ck_assert_str_eq(out, "db\tconfirm\nls\nssh\tlogged\nzz\n");
	free(out);

	/* 128 directories (the first one's programs, then 127 empty ones
	 * under a short name, so that PATH fits a session's 4095 bytes),
	 * then dir2 with zz: zz is not read */
	snprintf(base, sizeof base, "/tmp/mrXXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(base));
	many = malloc(8192);
	ck_assert_ptr_nonnull(many);
	at = (size_t)snprintf(many, 8192, "%s", world.bin);
	for (i = 1; i < 128; i++) {
		snprintf(d, sizeof d, "%s/%zu", base, i);
		ck_assert_int_eq(mkdir(d, 0755), 0);
		at += (size_t)snprintf(many + at, 8192 - at, ":%s", d);
	}
	at += (size_t)snprintf(many + at, 8192 - at, ":%s", dir2);
	ck_assert_uint_lt(at, 4096);
	{
		char *argv[] = {(char *)pts_build_path("pty/maelys-pty"),
				"--policy",
				(char *)pts_world_policy(&world, "every.dl",
							 every_verdict),
				"--path",
				many,
				"--list",
				NULL};
		char home[400], *envp[] = {home, "LANG=C.UTF-8", NULL};
		char *err = NULL;

		snprintf(home, sizeof home, "HOME=%s", world.home);
		ck_assert_int_eq(pts_run(argv, envp, &out, &err), 0);
		/* ls and ssh and db from the first directory; zz not read */
		ck_assert_msg(strstr(out, "zz") == NULL, "%s", out);
		ck_assert_msg(strstr(out, "ls\n") != NULL, "%s", out);
		/* one name a line on stdout; that it is cut, on stderr */
		snprintf(p, sizeof p, "maelys-pty: (the list stops short: ");
		ck_assert_msg(strncmp(err, p, strlen(p)) == 0,
			      "not said to be cut: %s", err);
		ck_assert_ptr_null(strstr(out, "stops short"));
		free(err);
	}
	free(out);
	free(many);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
	ck_assert_int_eq(system(cmd), 0);
	pts_world_remove(&world);
}
END_TEST

START_TEST(test_mayrun_list_level1)
{
	char *policy = pts_slurp(pts_source_path("policies/level1.dl"));
	char *out;

	make_path();
	out = list(pts_world_policy(&world, "level1.dl", policy));
	/* anything but what stops the machine and shells or interpreters;
	 * the fakes of the world (evil) are ordinary programs to level1 */
	ck_assert_str_eq(out, "cat\ndate\ndb\nevil\ngit\nls\nssh\nvim\nzz\n");
	free(out);
	free(policy);
	pts_world_remove(&world);
}
END_TEST

START_TEST(test_mayrun_list_bastion)
{
	char *policy = pts_slurp(pts_source_path("policies/bastion.dl"));
	char *out;

	make_path();
	out = list(pts_world_policy(&world, "bastion.dl", policy));
	/* the allow-list's tools that need no argument; ssh and git need
	 * a destination or a verb, vim and the rest are not listed */
	ck_assert_str_eq(out, "cat\ndate\nls\n");
	free(out);
	free(policy);
	pts_world_remove(&world);
}
END_TEST

/* The interactive session of the tests: the world's two directories as its
 * PATH, a terminal `cols` wide. */
static void
start_session(struct pts *p, const char *policy_text, int cols)
{
	make_path();
	ck_assert(strlen(path_env) < sizeof world.path_env);
	memcpy(world.path_env, path_env, strlen(path_env) + 1);
	pts_start(p, &world, pts_world_policy(&world, "p.dl", policy_text), 24,
		  cols);
	ck_assert_msg(pts_wait_prompt(p, T), "no prompt: %s", p->out);
}

START_TEST(test_mayrun_help_at_the_prompt)
{
	struct pts p;

	start_session(&p, every_verdict, 80);
	pts_type(&p, "help\r");
	ck_assert_msg(pts_expect(&p, "typed alone", T), "%s", p.out);
	/* in columns on the terminal, marked; the legend of each mark */
	ck_assert_msg(
	    pts_expect(&p, "\ndb (confirm)  ls  ssh (logged)  zz\r", T), "%s",
	    p.out);
	ck_assert(pts_expect(&p, "(logged): runs only once", T));
	ck_assert(pts_expect(&p, "(confirm): asks you to confirm", T));
	ck_assert(pts_expect(&p, "4 of the 17 commands of PATH.", T));
	ck_assert(pts_wait_prompt(&p, T));
	/* help is no line: bash never saw it, nothing was refused */
	ck_assert_ptr_null(strstr(p.out, "denied"));
	pts_type(&p, "\x04"); /* the policy allows no exit: Ctrl-D */
	ck_assert_int_ge(pts_wait(&p, T), 0);
	pts_close(&p);
	pts_world_remove(&world);
}
END_TEST

START_TEST(test_mayrun_help_with_arguments_is_a_line)
{
	struct pts p;

	start_session(&p, every_verdict, 80);
	pts_type(&p, "help cd\r");
	/* the policy decides it, like any line: it allows no `help` */
	ck_assert_msg(pts_expect(&p, "'help' denied by policy", T), "%s",
		      p.out);
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "\x04");
	ck_assert_int_ge(pts_wait(&p, T), 0);
	pts_close(&p);
	pts_world_remove(&world);
}
END_TEST

START_TEST(test_mayrun_tab_completes_only_allowed_commands)
{
	struct pts p;
	char *seen;

	start_session(&p, every_verdict, 80);
	/* "s": ssh is allowed (logged); shutdown is in PATH and refused,
	 * so the only match completes at once */
	pts_type(&p, "s\t");
	ck_assert_msg(pts_expect(&p, "sh ", T), "%s", p.out);
	pts_type(&p, "\x15"); /* Ctrl-U: the line is dropped */
	/* "z": zz, not the directory zdir */
	pts_type(&p, "z\t");
	ck_assert_msg(pts_expect(&p, "z ", T), "%s", p.out);
	pts_type(&p, "\x15");
	/* "": every allowed command, after a second Tab; not reboot, evil,
	 * bash, cat... */
	p.mark = p.len;
	pts_type(&p, "\t\t");
	ck_assert_msg(pts_expect(&p, "zz", T), "%s", p.out + p.mark);
	pts_settle(&p, 300);
	seen = p.out + p.mark;
	ck_assert_ptr_null(strstr(seen, "reboot"));
	ck_assert_ptr_null(strstr(seen, "evil"));
	ck_assert_ptr_null(strstr(seen, "bash"));
	ck_assert_ptr_null(strstr(seen, "cat"));
	ck_assert_ptr_null(strstr(seen, "notexec"));
	pts_type(&p, "\x15\x04");
	ck_assert_int_ge(pts_wait(&p, T), 0);
	pts_close(&p);
	pts_world_remove(&world);
}
END_TEST

static const char permissive[] =
    "deny(\"__line__\", \"shell metacharacter in line\") :- "
    "shell_metachar(_).\n"
    "deny_any(O) :- deny(O, _).\n"
    "allow(C) :- command(C), not(deny_any(\"__line__\")).\n"
    "allow_exec(P) :- exec_path(P).\n";

/* The column at which `needle` starts in the last line of the output
 * before it (the echoed line after its prompt): what the terminal shows,
 * for a line of ASCII. */
static size_t
echoed_column(const struct pts *p, const char *typed, const char *needle)
{
	const char *at = strstr(p->out, typed), *start;

	ck_assert_ptr_nonnull(at);
	start = at;
	while (start > p->out && start[-1] != '\n')
		start--;
	while (*start == '\r')
		start++;
	return (size_t)(at - start) + (size_t)(strstr(at, needle) - at);
}

/* Expects the lines in order (the terminal ends each in "\r\r\n": the
 * guard's "\r\n" through output processing). */
static void
expect_lines(struct pts *p, const char *const lines[])
{
	size_t i;

	for (i = 0; lines[i] != NULL; i++)
		ck_assert_msg(pts_expect(p, lines[i], T), "no '%s' in: %s",
			      lines[i], p->out);
}

/* The next caret line of the output: where its carets are, as a string
 * of blanks and carets (caller frees). */
static char *
next_caret_line(struct pts *p)
{
	const char *s, *e;
	char *line;

	ck_assert_msg(pts_expect(p, "^", T), "no caret: %s", p->out);
	e = p->out + p->mark - 1;
	s = e;
	while (s > p->out && s[-1] == ' ')
		s--;
	ck_assert_msg(s > p->out && s[-1] == '\n', "not a caret line: %s",
		      p->out);
	while (p->out[p->mark] != '\r' && p->out[p->mark] != '\0')
		p->mark++;
	e = p->out + p->mark;
	line = strndup(s, (size_t)(e - s));
	ck_assert_ptr_nonnull(line);
	return line;
}

START_TEST(test_mayrun_refusal_points_at_the_pipe)
{
	struct pts p;
	char want[600], *caret;
	size_t col;

	start_session(&p, permissive, 100);
	pts_type(&p, "echo hello | grep hello\r");
	/* the walkthrough's lines, unchanged, then where */
	expect_lines(&p,
		     (const char *const[]){
			 "maelys-pty: '__line__' denied by policy\r",
			 "\n  deny(__line__): shell metacharacter in line\r",
			 "\n  a pipe '|' at column 12\r", NULL});
	col = echoed_column(&p, "echo hello | grep hello", "|");
	memset(want, ' ', col);
	strcpy(want + col, "^");
	caret = next_caret_line(&p);
	ck_assert_str_eq(caret, want);
	free(caret);
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "exit\r");
	ck_assert_int_eq(pts_wait(&p, T), 0);
	pts_close(&p);
	pts_world_remove(&world);
}
END_TEST

START_TEST(test_mayrun_refusal_several_metacharacters_in_order)
{
	struct pts p;
	char want[600], *caret;
	size_t c1, c2;

	start_session(&p, permissive, 100);
	pts_type(&p, "ls $HOME > out; ls\r");
	/* one line a class, in the order of the line, one caret line */
	expect_lines(&p, (const char *const[]){
			     "\n  a variable expansion '$' at column 4\r",
			     "\n  a redirection '>' at column 10\r",
			     "\n  a semicolon ';' at column 15\r", NULL});
	c1 = echoed_column(&p, "ls $HOME > out; ls", "$");
	c2 = c1 + 6;
	memset(want, ' ', c2 + 5);
	want[c1] = '^';
	want[c2] = '^';
	strcpy(want + c2 + 5, "^");
	caret = next_caret_line(&p);
	ck_assert_str_eq(caret, want);
	free(caret);
	pts_type(&p, "exit\r");
	ck_assert_int_eq(pts_wait(&p, T), 0);
	pts_close(&p);
	pts_world_remove(&world);
}
END_TEST

START_TEST(test_mayrun_refusal_points_at_the_quote)
{
	struct pts p;
	char want[600], *caret;
	size_t col;

	start_session(&p, permissive, 100);
	pts_type(&p, "git commit -m \"x\"\r");
	expect_lines(&p, (const char *const[]){
			     "maelys-pty: denied before solving \xe2\x80\x94"
			     " quoted syntax is unsupported\r",
			     "\n  a quote '\"' at column 15\r", NULL});
	col = echoed_column(&p, "git commit -m \"x\"", "\"");
	memset(want, ' ', col);
	strcpy(want + col, "^");
	caret = next_caret_line(&p);
	ck_assert_str_eq(caret, want);
	free(caret);
	pts_type(&p, "exit\r");
	ck_assert_int_eq(pts_wait(&p, T), 0);
	pts_close(&p);
	pts_world_remove(&world);
}
END_TEST

START_TEST(test_mayrun_refusal_control_byte_is_not_echoed_back)
{
	struct pts p;
	char *caret;

	start_session(&p, permissive, 100);
	/* Ctrl-V Esc: an escape in the line, refused before solving */
	pts_type(&p, "ls \x16\x1b[31m\r");
	expect_lines(&p, (const char *const[]){
			     "\n  a control character at column 4\r", NULL});
	/* under the ^[ readline shows for it: the prompt, then "ls " */
	caret = next_caret_line(&p);
	ck_assert_uint_eq(strlen(caret),
			  (size_t)echoed_column(&p, "ls ^[", "^[") + 1);
	free(caret);
	ck_assert(pts_wait_prompt(&p, T));
	/* readline echoed the escape as ^[; nobody wrote it raw */
	ck_assert_ptr_null(strstr(p.out, "\x1b[31m"));
	pts_type(&p, "exit\r");
	ck_assert_int_eq(pts_wait(&p, T), 0);
	pts_close(&p);
	pts_world_remove(&world);
}
END_TEST

/* -c: no prompt and no line on the screen: the column alone. */
START_TEST(test_mayrun_command_mode_column_without_caret)
{
	char *argv[] = {(char *)pts_build_path("pty/maelys-pty"),
			"--policy",
			NULL,
			"--path",
			NULL,
			"-c",
			"echo h\xc3\xa9 | wc",
			NULL};
	char home[400], *envp[] = {home, "LANG=C.UTF-8", NULL};
	char *out = NULL, *err = NULL;

	make_path();
	argv[2] = (char *)pts_world_policy(&world, "p.dl", permissive);
	argv[4] = path_env;
	snprintf(home, sizeof home, "HOME=%s", world.home);
	ck_assert_int_eq(pts_run(argv, envp, &out, &err), 126);
	/* the column counts characters as a terminal shows them: é is one */
	ck_assert_str_eq(err, "maelys-pty: '__line__' denied by policy\n"
			      "  deny(__line__): shell metacharacter in line\n"
			      "  a pipe '|' at column 9\n");
	free(out);
	free(err);
	pts_world_remove(&world);
}
END_TEST

/* ---- With a configuration (root's: it and its policy must be root's) */

/* A configuration in the world: the permissive policy, the world's PATH,
 * an audit log and its key, max_denials = 4. */
static void
write_config(char *config, size_t cap, char *log, size_t logcap)
{
	char policy[600], key[600], text[4096];

	make_path();
	snprintf(policy, sizeof policy, "%s/p.dl", world.dir);
	pts_write_file(policy, permissive, 0644);
	snprintf(key, sizeof key, "%s/audit.key", world.dir);
	pts_write_audit_key(key);
	snprintf(log, logcap, "%s/audit.log", world.dir);
	snprintf(config, cap, "%s/maelys-pty.conf", world.dir);
	snprintf(text, sizeof text,
		 "policy = %s\npath = %s:/usr/bin:/bin\naudit_key = %s\n"
		 "audit_log = %s\nsyslog = off\nmax_denials = 4\n",
		 policy, path_env, key, log);
	pts_write_file(config, text, 0644);
}

START_TEST(test_mayrun_countdown_then_lockout_and_help_recorded)
{
	char config[600], log[600], *text, *out = NULL, *err = NULL;
	struct pts p;

	write_config(config, sizeof config, log, sizeof log);
	pts_start_config(&p, &world, config);
	ck_assert_msg(pts_wait_prompt(&p, T), "%s", p.out);
	/* the first refusal leaves 3: nothing said yet */
	pts_type(&p, "ls | wc\r");
	ck_assert(pts_expect(&p, "a pipe '|' at column 4", T));
	ck_assert(pts_wait_prompt(&p, T));
	ck_assert_ptr_null(strstr(p.out, "left in this session"));
	pts_type(&p, "ls ; ls\r");
	ck_assert_msg(pts_expect(&p,
				 "maelys-pty: 2 refusals left in this "
				 "session",
				 T),
		      "%s", p.out);
	ck_assert(pts_wait_prompt(&p, T));
	/* help is a question: listed, recorded, not counted */
	pts_type(&p, "help\r");
	ck_assert_msg(pts_expect(&p, "typed alone", T), "%s", p.out);
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "ls > x\r");
	ck_assert_msg(pts_expect(&p,
				 "maelys-pty: 1 refusal left in this "
				 "session",
				 T),
		      "%s", p.out);
	ck_assert(pts_wait_prompt(&p, T));
	pts_type(&p, "ls `id`\r");
	ck_assert(pts_expect(&p, "a backtick '`' at column 4", T));
	ck_assert_msg(pts_expect(&p,
				 "4 refusals in this session: the "
				 "session ends",
				 T),
		      "%s", p.out);
	ck_assert_int_eq(pts_wait(&p, T), 1);
	pts_close(&p);
	text = pts_slurp(log);
	ck_assert_int_eq(
	    pts_count_lines(text,
			    (const char *const[]){"\"event\":\"help\"",
						  "\"line\":\"help\"",
						  "commands listed", NULL}),
	    1);
	free(text);
	ck_assert_int_eq(pts_verify_log(config, log, &out, &err), 0);
	free(out);
	free(err);
	pts_world_remove(&world);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("mayrun");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_mayrun_list_every_verdict_sorted_and_marked);
	tcase_add_test(tc, test_mayrun_list_level1);
	tcase_add_test(
	    tc, test_mayrun_list_reads_each_directory_once_and_bounds_them);
	tcase_add_test(tc, test_mayrun_list_bastion);
	tcase_add_test(tc, test_mayrun_help_at_the_prompt);
	tcase_add_test(tc, test_mayrun_help_with_arguments_is_a_line);
	tcase_add_test(tc, test_mayrun_tab_completes_only_allowed_commands);
	tcase_add_test(tc, test_mayrun_refusal_points_at_the_pipe);
	tcase_add_test(tc, test_mayrun_refusal_several_metacharacters_in_order);
	tcase_add_test(tc, test_mayrun_refusal_points_at_the_quote);
	tcase_add_test(tc, test_mayrun_refusal_control_byte_is_not_echoed_back);
	tcase_add_test(tc, test_mayrun_command_mode_column_without_caret);
	suite_add_tcase(s, tc);
	/* a configuration is root's: without root these are left out, and
	 * said so (CI runs as root) */
	if (geteuid() == 0) {
		tc = tcase_create("mayrun_root");
		tcase_set_timeout(tc, 120);
		tcase_add_test(
		    tc, test_mayrun_countdown_then_lockout_and_help_recorded);
		suite_add_tcase(s, tc);
	} else {
		fprintf(stderr, "check_pty_mayrun: not root: the countdown "
				"and the audit record of help are not "
				"tested\n");
	}
	return s;
}
