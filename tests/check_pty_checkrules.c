/* SPDX-License-Identifier: MIT */
/*
 * The rules of --check that are functions of what they are given, without
 * root: the mountinfo reader (pty/exec/mountinfo.c: fields, escapes, malformed
 * lines, which mount holds a path) and the guard binary's mode
 * (pty_check_guard_mode, for every installation the deployments make).
 * check_pty_check.c runs the whole --check as root.
 */
#include "runner.h"

#include "pty_check.h"
#include "pty_mountinfo.h"

#include <string.h>
#include <sys/stat.h>

static struct pty_mount m;

START_TEST(test_checkrules_mountinfo_line_fields_are_read)
{
	static const char line[] =
	    "36 35 98:0 /mnt1 /mnt/a\\040b\\134c rw,nosuid,noexec,relatime "
	    "shared:1 master:2 - ext3 /dev/root rw,errors=continue";

	ck_assert_int_eq(pty_mountinfo_line(line, sizeof line - 1, &m), 0);
	ck_assert_uint_eq(m.id, 36);
	ck_assert_str_eq(m.point, "/mnt/a b\\c");
	ck_assert(m.noexec);
}
END_TEST

/* Each line is refused: the reader never guesses at a mount. */
static const char *const malformed[] = {
    "",
    "36 35 98:0 / /tmp rw",                     /* no separator */
    "36 35 98:0 / /tmp rw - ext4 /dev/x",       /* 2 fields after "-" */
    "36 35 98:0 / /tmp - ext4 /dev/x rw",       /* no options */
    "x 35 98:0 / /tmp rw - ext4 /dev/x rw",     /* id not a number */
    "-1 35 98:0 / /tmp rw - ext4 /dev/x rw",    /* a sign */
    "36 35 980 / /tmp rw - ext4 /dev/x rw",     /* no ':' in the device */
    "36 35 98:0 / tmp rw - ext4 /dev/x rw",     /* relative point */
    "36  35 98:0 / /tmp rw - ext4 /dev/x rw",   /* an empty field */
    "36 35 98:0 / /tmp rw - ext4 /dev/x rw ",   /* a trailing space */
    " 36 35 98:0 / /tmp rw - ext4 /dev/x rw",   /* a leading space */
    "36 35 98:0 / /t\\04 rw - ext4 /dev/x rw",  /* short escape */
    "36 35 98:0 / /t\\000 rw - ext4 /dev/x rw", /* escaped NUL */
    "36 35 98:0 / /t\\400 rw - ext4 /dev/x rw", /* not a byte */
    "36 35 98:0 / /t\\9xy rw - ext4 /dev/x rw", /* not octal */
    "99999999999999999999999 35 98:0 / /t rw - ext4 /dev/x rw",
};

START_TEST(test_checkrules_mountinfo_malformed_line_is_refused)
{
	const char *line = malformed[_i];

	ck_assert_msg(pty_mountinfo_line(line, strlen(line), &m) != 0,
		      "accepted: '%s'", line);
}
END_TEST

START_TEST(test_checkrules_mountinfo_noexec_is_a_whole_option)
{
	static const char a[] = "1 0 1:1 / /t rw,noexecx,xnoexec - t s o";
	static const char b[] = "1 0 1:1 / /t noexec - t s o";

	ck_assert_int_eq(pty_mountinfo_line(a, sizeof a - 1, &m), 0);
	ck_assert(!m.noexec);
	ck_assert_int_eq(pty_mountinfo_line(b, sizeof b - 1, &m), 0);
	ck_assert(m.noexec);
}
END_TEST

/* The mounts of a host: the longest point that holds a path, the later
 * line on a tie (mounted over the earlier), never a point that is only a
 * prefix of a name ("/tmpx" does not hold "/tmp"). */
static const char host[] =
    "25 24 0:23 / /dev/shm rw,nosuid - tmpfs tmpfs rw\n"
    "27 1 254:1 / / rw - ext4 /dev/vda1 rw\n"
    "30 25 0:27 / /dev/shm rw,noexec - tmpfs tmpfs rw\n"
    "31 27 0:30 / /tmpx rw,noexec - tmpfs tmpfs rw\n"
    "this line is not mountinfo\n"
    "32 27 0:31 / /home/a\\040b rw,noexec - tmpfs tmpfs rw\n"
    "33 27 0:33 / /var/tmp/ rw,noexec - tmpfs tmpfs rw";

static const struct {
	const char *path;
	unsigned long id;
	bool noexec;
} held[] = {
    {"/", 27, false},           {"/tmp", 27, false},
    {"/tmpx/f", 31, true},      {"/dev/shm", 30, true},
    {"/dev/shm/x/y", 30, true}, {"/home/a b/.cache", 32, true},
    {"/home/a", 27, false},     {"/var/tmp", 33, true},
};

START_TEST(test_checkrules_mountinfo_find_names_the_mount_on_top)
{
	size_t bad = 0;

	ck_assert_int_eq(
	    pty_mountinfo_find(host, sizeof host - 1, held[_i].path, &m, &bad),
	    0);
	ck_assert_uint_eq(m.id, held[_i].id);
	ck_assert_int_eq(m.noexec, held[_i].noexec);
	ck_assert_uint_eq(bad, 1);
}
END_TEST

START_TEST(test_checkrules_mountinfo_find_without_root_mount_fails)
{
	static const char text[] = "31 27 0:30 / /tmp rw - tmpfs tmpfs rw\n";

	ck_assert_int_ne(
	    pty_mountinfo_find(text, sizeof text - 1, "/home", &m, NULL), 0);
	ck_assert_int_ne(
	    pty_mountinfo_find(text, sizeof text - 1, "tmp", &m, NULL), 0);
}
END_TEST

/* The guard's installations: mode, owner, with or without an audit log,
 * and the line --check prints ("" when it is sound). */
static const struct {
	mode_t mode;
	uid_t uid;
	bool audit_log;
	const char *line;
} guards[] = {
    {04755, 999, true, ""},
    {04755, 999, false, ""},
    {00755, 0, false, ""},
    {00755, 0, true,
     "/g is not installed setuid (mode 0755), and audit_log is set: only a "
     "guard setuid to the audit account can keep the log; run "
     "maelys-pty-setup"},
    {04755, 0, false,
     "/g is installed setuid root (mode 4755): no part of the guard may run "
     "as root; run maelys-pty-setup again (it installs it setuid to the "
     "audit account)"},
    {04755, 0, true,
     "/g is installed setuid root (mode 4755): no part of the guard may run "
     "as root; run maelys-pty-setup again (it installs it setuid to the "
     "audit account)"},
    {02755, 0, true,
     "/g is installed setgid (mode 2755), the old deployment: run "
     "maelys-pty-setup again (it installs the guard setuid to the audit "
     "account)"},
    {06755, 999, true,
     "/g is installed setgid (mode 6755), the old deployment: run "
     "maelys-pty-setup again (it installs the guard setuid to the audit "
     "account)"},
};

START_TEST(test_checkrules_guard_mode_each_installation)
{
	struct stat st;
	char msg[1024] = "";
	int rc;

	memset(&st, 0, sizeof st);
	st.st_mode = S_IFREG | guards[_i].mode;
	st.st_uid = guards[_i].uid;
	rc = pty_check_guard_mode("/g", &st, guards[_i].audit_log, msg,
				  sizeof msg);
	ck_assert_int_eq(rc, guards[_i].line[0] != '\0' ? -1 : 0);
	if (rc != 0)
		ck_assert_str_eq(msg, guards[_i].line);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("checkrules");

	tcase_add_test(tc, test_checkrules_mountinfo_line_fields_are_read);
	tcase_add_loop_test(tc,
			    test_checkrules_mountinfo_malformed_line_is_refused,
			    0, (int)(sizeof malformed / sizeof malformed[0]));
	tcase_add_test(tc, test_checkrules_mountinfo_noexec_is_a_whole_option);
	tcase_add_loop_test(
	    tc, test_checkrules_mountinfo_find_names_the_mount_on_top, 0,
	    (int)(sizeof held / sizeof held[0]));
	tcase_add_test(tc,
		       test_checkrules_mountinfo_find_without_root_mount_fails);
	tcase_add_loop_test(tc, test_checkrules_guard_mode_each_installation, 0,
			    (int)(sizeof guards / sizeof guards[0]));
	suite_add_tcase(s, tc);
	return s;
}
