/* SPDX-License-Identifier: MIT */
/*
 * The session's command line and its words (pty/session/options.c,
 * messages.c): what sshd and an administrator pass, each usage error
 * naming the word at fault, and a sentence for the user that never holds
 * the guard.  No root needed.
 */
#define _GNU_SOURCE
#include "runner.h"

#include "pty_messages.h"
#include "pty_session.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The command line (pty_options_parse, getopt_long): what sshd passes and
 * what an administrator types. */
static int
parse_words(struct pty_options *o, char *err, size_t cap, ...)
{
	char *argv[16];
	int argc = 0, rc;
	va_list ap;
	FILE *f = fmemopen(err, cap, "w");

	ck_assert_ptr_nonnull(f);
	va_start(ap, cap);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	memset(err, 0, cap);
	rc = pty_options_parse(argc, argv, o, f);
	fclose(f);
	return rc;
}

START_TEST(test_options_c_takes_a_command_beginning_with_dash)
{
	struct pty_options o;
	char err[2048];

	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty", "-c",
				     "--policy=x", "--bogus", NULL),
			 0);
	ck_assert_str_eq(o.command, "--policy=x");
	ck_assert_ptr_null(o.policy_path); /* after -c nothing is ours */
	ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(test_options_values_in_both_forms_and_login)
{
	struct pty_options o;
	char err[2048];

	ck_assert_int_eq(parse_words(&o, err, sizeof err, "-maelys-pty",
				     "--policy=/p.dl", "--shell", "/bin/sh",
				     "--history", "/h", NULL),
			 0);
	ck_assert(o.login);
	ck_assert_str_eq(o.policy_path, "/p.dl");
	ck_assert_str_eq(o.shell_path, "/bin/sh");
	ck_assert_str_eq(o.history_path, "/h");
	/* a long option shortened to a prefix that names it alone */
	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty",
				     "--pol=/q.dl", "--sh", "/bin/sh", NULL),
			 0);
	ck_assert_str_eq(o.policy_path, "/q.dl");
	ck_assert_str_eq(o.shell_path, "/bin/sh");
	/* a second parse starts afresh (getopt's state is reset) */
	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty",
				     "--check", "--user", "bob", NULL),
			 0);
	ck_assert(o.check);
	ck_assert_str_eq(o.check_user, "bob");
	ck_assert_ptr_null(o.policy_path);
	ck_assert(!o.werror);
	/* --werror, before or after --check */
	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty",
				     "--werror", "--check", NULL),
			 0);
	ck_assert(o.check);
	ck_assert(o.werror);
	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty",
				     "--check", "--werror", NULL),
			 0);
	ck_assert(o.werror);
}
END_TEST

START_TEST(test_options_usage_errors_say_which)
{
	struct pty_options o;
	char err[2048];

	ck_assert_int_eq(
	    parse_words(&o, err, sizeof err, "maelys-pty", "-c", NULL), 2);
	ck_assert_str_eq(err, "maelys-pty: -c needs a command\n");
	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty",
				     "--policy", NULL),
			 2);
	ck_assert_str_eq(err, "maelys-pty: --policy needs a value\n");
	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty",
				     "--bogus", NULL),
			 2);
	ck_assert_ptr_nonnull(
	    strstr(err, "maelys-pty: unknown option '--bogus'\nusage:"));
	/* a word that is not an option is not skipped over */
	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty",
				     "ls", "-c", "id", NULL),
			 2);
	ck_assert_ptr_nonnull(strstr(err, "unknown option 'ls'"));
	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty",
				     "--user", "bob", NULL),
			 2);
	ck_assert_ptr_nonnull(strstr(err, "--user goes with --check"));
	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty",
				     "--werror", NULL),
			 2);
	ck_assert_str_eq(err, "maelys-pty: --werror goes with --check (it "
			      "makes the policy's warnings errors)\n");
	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty",
				     "--werror=1", "--check", NULL),
			 2);
	ck_assert_ptr_nonnull(strstr(err, "unknown option '--werror=1'\n"));
	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty",
				     "--config", "/c", "--policy", "/p", NULL),
			 2);
	ck_assert_ptr_nonnull(strstr(err, "exclude each other"));
	/* the word named is the one at fault, in a bundle of letters too */
	ck_assert_int_eq(
	    parse_words(&o, err, sizeof err, "maelys-pty", "-xh", NULL), 2);
	ck_assert_ptr_nonnull(strstr(err, "unknown option '-x'\n"));
	ck_assert_int_eq(
	    parse_words(&o, err, sizeof err, "maelys-pty", "-hc", NULL), 2);
	ck_assert_str_eq(err, "maelys-pty: -c needs a command\n");
	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty",
				     "--pol", NULL),
			 2);
	ck_assert_str_eq(err, "maelys-pty: --policy needs a value\n");
	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty",
				     "--check=x", NULL),
			 2);
	ck_assert_ptr_nonnull(strstr(err, "unknown option '--check=x'\n"));
}
END_TEST

/* A sentence for the user is written whole, or dropped when the
 * descriptor is full and not blocking: with -c, stderr is the session's
 * too, and a program of the session must not hold the guard by filling
 * it. */
/* --verify-log takes the files of a rotation, oldest first, with options
 * before or after them; --state goes with it or with --new-audit-key. */
START_TEST(test_options_verify_log_takes_several_files)
{
	struct pty_options o;
	char err[2048];

	static char *words[] = {"maelys-pty", "--verify-log", "a.log.2",
				"a.log.1",    "a.log",        "--state",
				"/s",         NULL};
	FILE *f = fopen("/dev/null", "w");

	/* the files are read from argv itself, which lives on in main */
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(pty_options_parse(7, words, &o, f), 0);
	fclose(f);
	ck_assert_str_eq(o.verify_log, "a.log.2");
	ck_assert_uint_eq(o.nverify_more, 2);
	ck_assert_str_eq(o.verify_more[0], "a.log.1");
	ck_assert_str_eq(o.verify_more[1], "a.log");
	ck_assert_str_eq(o.state_path, "/s");
	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty",
				     "--config", "/c", "--verify-log", "one",
				     NULL),
			 0);
	ck_assert_uint_eq(o.nverify_more, 0);
	ck_assert_str_eq(o.config_path, "/c");
	/* the files together: an option between them is refused */
	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty",
				     "--verify-log", "a", "b", "--state", "/s",
				     "c", NULL),
			 2);
	ck_assert_str_eq(err, "maelys-pty: --verify-log: give the log's files "
			      "together, oldest first\n");
	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty",
				     "--state", "/s", NULL),
			 2);
	ck_assert_str_eq(err, "maelys-pty: --state goes with --verify-log or "
			      "--new-audit-key\n");
	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty",
				     "--new-audit-key", "/p", NULL),
			 2);
	ck_assert_str_eq(err, "maelys-pty: --new-audit-key PUB needs --state "
			      "FILE\n");
	/* without --verify-log, a word is still no option */
	ck_assert_int_eq(parse_words(&o, err, sizeof err, "maelys-pty", "x",
				     NULL),
			 2);
}
END_TEST

START_TEST(test_messages_never_wait_on_a_full_descriptor)
{
	char buf[70000], line[200];
	int p[2];
	ssize_t n;

	ck_assert_int_eq(pipe(p), 0);
	pty_say(p[1], "\n", PTY_MSG_NOT_CONFIRMED, "shutdown");
	n = read(p[0], line, sizeof line - 1);
	ck_assert_int_gt(n, 0);
	line[n] = '\0';
	ck_assert_str_eq(line, "maelys-pty: 'shutdown' not confirmed\n");
	ck_assert_int_eq(fcntl(p[1], F_SETFL, O_NONBLOCK), 0);
	memset(buf, 'x', sizeof buf);
	while (write(p[1], buf, sizeof buf) > 0)
		;
	alarm(10); /* a guard held here would be killed, and the test fail */
	pty_say(p[1], "\n", PTY_MSG_NOT_CONFIRMED, "shutdown");
	alarm(0);
	(void)close(p[0]);
	(void)close(p[1]);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("options");

	tcase_add_test(tc, test_options_c_takes_a_command_beginning_with_dash);
	tcase_add_test(tc, test_options_values_in_both_forms_and_login);
	tcase_add_test(tc, test_options_usage_errors_say_which);
	tcase_add_test(tc, test_options_verify_log_takes_several_files);
	tcase_add_test(tc, test_messages_never_wait_on_a_full_descriptor);
	suite_add_tcase(s, tc);
	return s;
}
