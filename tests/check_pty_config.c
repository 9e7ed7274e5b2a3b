/* SPDX-License-Identifier: MIT */
/*
 * The system configuration (pty/session/pty_session.h): every refusal of the secure
 * open (owner, group- and other-writable, a symbolic link as the file or on
 * the path, a parent directory others may write, a missing file, a
 * directory, a FIFO), every parse error with its file and line number, and
 * the files that must pass.  Each test builds root-owned files in a
 * directory of its own under /tmp (a root-owned sticky directory, which the
 * checks accept), so the binary needs root and otherwise exits 77 (SKIP).
 */
#define _GNU_SOURCE
#include "runner.h"

#include "pty_session.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Any uid but root: it need not exist to own a file. */
#define OTHER_UID 1000

/* All the tests' directories, removed once at the end by the runner's own
 * process: a failing test's child exits before its checked teardown. */
static char tmp_parent[64];
/* The test's own directory: root-owned, 0700, under /tmp. */
static char tmp_root[96];

static void
setup_parent(void)
{
	(void)snprintf(tmp_parent, sizeof tmp_parent, "%s",
		       "/tmp/check_pty_config.XXXXXX");
	ck_assert_msg(mkdtemp(tmp_parent) != NULL, "mkdtemp: %s",
		      strerror(errno));
}

static int
remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(path);
}

static void
teardown_parent(void)
{
	(void)nftw(tmp_parent, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void
setup(void)
{
	(void)snprintf(tmp_root, sizeof tmp_root, "%s/test.XXXXXX", tmp_parent);
	ck_assert_msg(mkdtemp(tmp_root) != NULL, "mkdtemp: %s",
		      strerror(errno));
}

static void
teardown(void)
{
	(void)nftw(tmp_root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* tmp_root/rel, in one of a few rotating buffers so a test may hold
 * several paths at once. */
static const char *
in_tmp(const char *rel)
{
	static char bufs[4][PATH_MAX];
	static unsigned next;
	char *b = bufs[next++ % 4];

	(void)snprintf(b, PATH_MAX, "%s/%s", tmp_root, rel);
	return b;
}

static const char *
make_file(const char *rel, const char *text, size_t len, mode_t mode, uid_t uid)
{
	const char *path = in_tmp(rel);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	ck_assert_msg(fd >= 0, "open %s: %s", path, strerror(errno));
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	/* explicit: the umask must not decide what is being tested */
	ck_assert_int_eq(fchmod(fd, mode), 0);
	ck_assert_int_eq(fchown(fd, uid, 0), 0);
	ck_assert_int_eq(close(fd), 0);
	return path;
}

static const char *
make_conf(const char *rel, const char *text)
{
	return make_file(rel, text, strlen(text), 0644, 0);
}

static const char *
make_dir(const char *rel, mode_t mode, uid_t uid)
{
	const char *path = in_tmp(rel);

	ck_assert_msg(mkdir(path, 0700) == 0, "mkdir %s: %s", path,
		      strerror(errno));
	ck_assert_int_eq(chmod(path, mode), 0);
	ck_assert_int_eq(chown(path, uid, 0), 0);
	return path;
}

static const char valid_conf[] = "policy = /etc/maelys-pty/level1.dl\n";

/* A refused load leaves the defaults, never half a file. */
static void
assert_defaults(const struct pty_config *c)
{
	ck_assert_str_eq(c->policy, "");
	ck_assert_str_eq(c->shell, "/bin/bash");
	ck_assert_str_eq(c->path_env, "/usr/local/bin:/usr/bin:/bin");
	ck_assert_str_eq(c->audit_log, "");
	ck_assert_str_eq(c->audit_key, "");
	ck_assert(c->syslog);
	ck_assert_uint_eq(c->idle_timeout, 0);
	ck_assert_uint_eq(c->max_denials, 0);
	ck_assert_int_eq(c->on_audit_failure, PTY_AUDIT_FAIL_DENY);
}

/* Loads `path`, expects a refusal reading exactly `want`. */
static void
assert_refused(const char *path, const char *want)
{
	struct pty_config c;
	char err[512] = "";

	ck_assert_int_eq(pty_config_load(path, &c, err, sizeof err), -1);
	ck_assert_str_eq(err, want);
	ck_assert_ptr_null(strchr(err, '\n'));
	assert_defaults(&c);
}

/* Same, for a message that starts with `want` (what follows is detail). */
static void
assert_refused_prefix(const char *path, const char *want)
{
	struct pty_config c;
	char err[512] = "";

	ck_assert_int_eq(pty_config_load(path, &c, err, sizeof err), -1);
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0,
		      "message '%s' does not start with '%s'", err, want);
	ck_assert_ptr_null(strchr(err, '\n'));
	assert_defaults(&c);
}

static void
assert_loads(const char *path, struct pty_config *c)
{
	char err[512] = "";

	ck_assert_msg(pty_config_load(path, c, err, sizeof err) == 0,
		      "refused: %s", err);
}

/* A configuration text and the message it must get after "FILE". */
struct parse_case {
	const char *text;
	const char *want;
};

static void
assert_parse_cases(const struct parse_case *cases, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char name[32], want[PATH_MAX + 256];
		const char *path;

		(void)snprintf(name, sizeof name, "case%zu.conf", i);
		path = make_conf(name, cases[i].text);
		(void)snprintf(want, sizeof want, "%s%s", path, cases[i].want);
		assert_refused(path, want);
	}
}

#define N_CASES(a) (sizeof(a) / sizeof((a)[0]))

START_TEST(test_config_owner_not_root_refused)
{
	const char *path = make_file("maelys-pty.conf", valid_conf,
				     strlen(valid_conf), 0644, OTHER_UID);
	char want[PATH_MAX + 64];

	(void)snprintf(want, sizeof want, "%s: owned by uid %d, not root", path,
		       OTHER_UID);
	assert_refused(path, want);
}
END_TEST

START_TEST(test_config_group_writable_refused)
{
	const char *path = make_file("maelys-pty.conf", valid_conf,
				     strlen(valid_conf), 0664, 0);
	char want[PATH_MAX + 64];

	(void)snprintf(want, sizeof want,
		       "%s: writable by group or others (mode 0664)", path);
	assert_refused(path, want);
}
END_TEST

START_TEST(test_config_other_writable_refused)
{
	const char *path = make_file("maelys-pty.conf", valid_conf,
				     strlen(valid_conf), 0646, 0);
	char want[PATH_MAX + 64];

	(void)snprintf(want, sizeof want,
		       "%s: writable by group or others (mode 0646)", path);
	assert_refused(path, want);
}
END_TEST

START_TEST(test_config_symlink_file_refused)
{
	const char *real = make_conf("real.conf", valid_conf);
	const char *link = in_tmp("maelys-pty.conf");
	char want[PATH_MAX + 64];

	ck_assert_int_eq(symlink(real, link), 0);
	(void)snprintf(want, sizeof want, "%s: a symbolic link", link);
	assert_refused(link, want);
}
END_TEST

START_TEST(test_config_symlink_directory_on_path_refused)
{
	const char *real = make_dir("real", 0755, 0);
	const char *link = in_tmp("link");
	char want[PATH_MAX + 64];

	(void)make_conf("real/maelys-pty.conf", valid_conf);
	ck_assert_int_eq(symlink(real, link), 0);
	(void)snprintf(want, sizeof want, "%s: a symbolic link", link);
	/* the file itself is fine: only the walk up the path finds it */
	assert_refused_prefix(in_tmp("link/maelys-pty.conf"), want);
}
END_TEST

START_TEST(test_config_parent_other_writable_refused)
{
	const char *dir = make_dir("etc", 0777, 0);
	char want[PATH_MAX + 64];

	(void)snprintf(want, sizeof want,
		       "%s: directory writable by group or others (mode 0777)",
		       dir);
	assert_refused(make_conf("etc/maelys-pty.conf", valid_conf), want);
}
END_TEST

START_TEST(test_config_parent_group_writable_refused)
{
	const char *dir = make_dir("etc", 0775, 0);
	char want[PATH_MAX + 64];

	(void)snprintf(want, sizeof want,
		       "%s: directory writable by group or others (mode 0775)",
		       dir);
	assert_refused(make_conf("etc/maelys-pty.conf", valid_conf), want);
}
END_TEST

START_TEST(test_config_parent_not_root_refused)
{
	const char *dir = make_dir("etc", 0755, OTHER_UID);
	char want[PATH_MAX + 64];

	(void)snprintf(want, sizeof want,
		       "%s: directory owned by uid %d, not root", dir,
		       OTHER_UID);
	assert_refused(make_conf("etc/maelys-pty.conf", valid_conf), want);
}
END_TEST

START_TEST(test_config_grandparent_writable_refused)
{
	const char *dir = make_dir("a", 0757, 0);
	char want[PATH_MAX + 64];

	(void)make_dir("a/b", 0755, 0);
	(void)snprintf(want, sizeof want,
		       "%s: directory writable by group or others (mode 0757)",
		       dir);
	assert_refused(make_conf("a/b/maelys-pty.conf", valid_conf), want);
}
END_TEST

/* Sticky (like /tmp) is enough only when root owns the directory. */
START_TEST(test_config_sticky_parent_needs_root_owner)
{
	const char *other = make_dir("other", 01777, OTHER_UID);
	struct pty_config c;
	char want[PATH_MAX + 64];

	(void)make_dir("sticky", 01777, 0);
	assert_loads(make_conf("sticky/maelys-pty.conf", valid_conf), &c);
	ck_assert_str_eq(c.policy, "/etc/maelys-pty/level1.dl");
	(void)snprintf(want, sizeof want,
		       "%s: directory owned by uid %d, not root", other,
		       OTHER_UID);
	assert_refused(make_conf("other/maelys-pty.conf", valid_conf), want);
}
END_TEST

START_TEST(test_config_missing_file_refused)
{
	const char *path = in_tmp("maelys-pty.conf");
	char want[PATH_MAX + 64];

	(void)snprintf(want, sizeof want, "%s: no such file", path);
	assert_refused(path, want);
	(void)snprintf(want, sizeof want, "%s: no such file",
		       in_tmp("nodir/maelys-pty.conf"));
	assert_refused(in_tmp("nodir/maelys-pty.conf"), want);
}
END_TEST

START_TEST(test_config_directory_refused)
{
	const char *dir = make_dir("maelys-pty.conf", 0755, 0);
	char want[PATH_MAX + 64];

	(void)snprintf(want, sizeof want, "%s: a directory, not a regular file",
		       dir);
	assert_refused(dir, want);
}
END_TEST

START_TEST(test_config_fifo_refused_without_blocking)
{
	const char *path = in_tmp("maelys-pty.conf");
	char want[PATH_MAX + 64];

	ck_assert_int_eq(mkfifo(path, 0644), 0);
	/* a blocking open would hang here: die of SIGALRM instead */
	(void)signal(SIGALRM, SIG_DFL);
	alarm(10);
	(void)snprintf(want, sizeof want, "%s: not a regular file", path);
	assert_refused(path, want);
	alarm(0);
}
END_TEST

START_TEST(test_config_device_refused)
{
	char err[256] = "";

	ck_assert_int_eq(pty_secure_open("/dev/null", err, sizeof err), -1);
	ck_assert_str_eq(err, "/dev/null: not a regular file");
}
END_TEST

START_TEST(test_config_relative_path_refused)
{
	char err[256] = "";

	assert_refused("etc/maelys-pty.conf",
		       "etc/maelys-pty.conf: not an absolute path");
	ck_assert_int_eq(pty_secure_open("maelys-pty.conf", err, sizeof err),
			 -1);
	ck_assert_str_eq(err, "maelys-pty.conf: not an absolute path");
}
END_TEST

START_TEST(test_config_unknown_key_refused)
{
	static const struct parse_case cases[] = {
	    {"# maelys-pty\n\npolicy = /p.dl\nshell = /bin/bash\n#\n\n"
	     "polcy = /etc/maelys-pty/level1.dl\n",
	     ":7: unknown key 'polcy'"},
	    {"policy = /p.dl\nPolicy = /p.dl\n", ":2: unknown key 'Policy'"},
	    {"policy = /p.dl\nsys log = on\n", ":2: unknown key 'sys log'"},
	    {"policy = /p.dl\n= on\n", ":2: no key before '='"},
	    {"policy = /p.dl\nsyslog on\n", ":2: expected 'key = value'"},
	};

	assert_parse_cases(cases, N_CASES(cases));
}
END_TEST

START_TEST(test_config_duplicate_key_refused)
{
	static const struct parse_case cases[] = {
	    {"policy = /a.dl\n\npolicy = /b.dl\n",
	     ":3: duplicate key 'policy' (first on line 1)"},
	    /* the same value twice is still a duplicate */
	    {"policy = /a.dl\nsyslog = on\nsyslog = on\n",
	     ":3: duplicate key 'syslog' (first on line 2)"},
	};

	assert_parse_cases(cases, N_CASES(cases));
}
END_TEST

START_TEST(test_config_bad_boolean_refused)
{
	static const struct parse_case cases[] = {
	    {"policy = /p.dl\nsyslog = maybe\n",
	     ":2: syslog: 'maybe' is not on, off, records, yes, no, true or "
	     "false"},
	    {"policy = /p.dl\nsyslog = On\n",
	     ":2: syslog: 'On' is not on, off, records, yes, no, true or "
	     "false"},
	    {"policy = /p.dl\nsyslog = 1\n",
	     ":2: syslog: '1' is not on, off, records, yes, no, true or "
	     "false"},
	    {"policy = /p.dl\nsyslog = on off\n",
	     ":2: syslog: 'on off' is not on, off, records, yes, no, true or "
	     "false"},
	    {"policy = /p.dl\nsyslog =\n", ":2: syslog: no value"},
	    {"policy = /p.dl\non_audit_failure = ignore\n",
	     ":2: on_audit_failure: 'ignore' is not deny or terminate"},
	};

	assert_parse_cases(cases, N_CASES(cases));
}
END_TEST

START_TEST(test_config_bad_number_refused)
{
	static const struct parse_case cases[] = {
	    {"policy = /p.dl\nidle_timeout = 12x\n",
	     ":2: idle_timeout: '12x' is not a decimal number"},
	    {"policy = /p.dl\nidle_timeout = -1\n",
	     ":2: idle_timeout: '-1' is not a decimal number"},
	    {"policy = /p.dl\nidle_timeout = +1\n",
	     ":2: idle_timeout: '+1' is not a decimal number"},
	    {"policy = /p.dl\nidle_timeout = 0x10\n",
	     ":2: idle_timeout: '0x10' is not a decimal number"},
	    {"policy = /p.dl\nidle_timeout = 1 2\n",
	     ":2: idle_timeout: '1 2' is not a decimal number"},
	    {"policy = /p.dl\nidle_timeout = 1.5\n",
	     ":2: idle_timeout: '1.5' is not a decimal number"},
	    {"policy = /p.dl\nidle_timeout = 604801\n",
	     ":2: idle_timeout: '604801' is out of range (0 to 604800)"},
	    {"policy = /p.dl\nidle_timeout = 99999999999999999999999\n",
	     ":2: idle_timeout: '99999999999999999999999' is out of range "
	     "(0 to 604800)"},
	    {"policy = /p.dl\nmax_denials = 1000001\n",
	     ":2: max_denials: '1000001' is out of range (0 to 1000000)"},
	    {"policy = /p.dl\nmax_denials = 4294967296\n",
	     ":2: max_denials: '4294967296' is out of range (0 to 1000000)"},
	    {"policy = /p.dl\nmax_denials = \t\n", ":2: max_denials: no value"},
	};

	assert_parse_cases(cases, N_CASES(cases));
}
END_TEST

START_TEST(test_config_relative_path_value_refused)
{
	static const struct parse_case cases[] = {
	    {"policy = policies/level1.dl\n",
	     ":1: policy: 'policies/level1.dl' is not an absolute path"},
	    {"policy = /p.dl\nshell = bash\n",
	     ":2: shell: 'bash' is not an absolute path"},
	    {"policy = /p.dl\naudit_log = audit.log\naudit_key = /k\n",
	     ":2: audit_log: 'audit.log' is not an absolute path"},
	    {"policy = /p.dl\naudit_log = /a.log\naudit_key = ~/k\n",
	     ":3: audit_key: '~/k' is not an absolute path"},
	    {"policy = /p.dl\npath = /bin:usr/bin\n",
	     ":2: path: 'usr/bin' is not an absolute directory"},
	    {"policy = /p.dl\npath = /bin::/usr/bin\n",
	     ":2: path: an empty entry (it would mean the current directory)"},
	    {"policy = /p.dl\npath = /bin:\n",
	     ":2: path: an empty entry (it would mean the current directory)"},
	    {"policy = /p.dl\npath = .:/bin\n",
	     ":2: path: '.' is not an absolute directory"},
	};

	assert_parse_cases(cases, N_CASES(cases));
}
END_TEST

START_TEST(test_config_missing_policy_refused)
{
	static const struct parse_case cases[] = {
	    {"shell = /bin/bash\n",
	     ": no policy ('policy = /path' is required)"},
	    {"", ": no policy ('policy = /path' is required)"},
	    {"# policy = /p.dl\n",
	     ": no policy ('policy = /path' is required)"},
	    {"policy =   \n", ":1: policy: no value"},
	};

	assert_parse_cases(cases, N_CASES(cases));
}
END_TEST

START_TEST(test_config_audit_log_without_key_refused)
{
	static const struct parse_case cases[] = {
	    {"policy = /p.dl\n\naudit_log = /var/log/maelys-pty/audit.log\n",
	     ":3: audit_log without audit_key"},
	};

	assert_parse_cases(cases, N_CASES(cases));
}
END_TEST

START_TEST(test_config_overlong_line_refused)
{
	char text[PTY_CONFIG_LINE_MAX + 64];
	char want[PATH_MAX + 64];
	const char *path;
	struct pty_config c;
	size_t n;

	/* a comment of exactly PTY_CONFIG_LINE_MAX bytes passes... */
	n = (size_t)snprintf(text, sizeof text, "%s", valid_conf);
	memset(text + n, '#', PTY_CONFIG_LINE_MAX);
	n += PTY_CONFIG_LINE_MAX;
	text[n++] = '\n';
	path = make_file("ok.conf", text, n, 0644, 0);
	assert_loads(path, &c);
	/* ...one byte more does not, comment or not */
	n = (size_t)snprintf(text, sizeof text, "%s", valid_conf);
	memset(text + n, '#', PTY_CONFIG_LINE_MAX + 1);
	n += PTY_CONFIG_LINE_MAX + 1;
	path = make_file("long.conf", text, n, 0644, 0);
	(void)snprintf(want, sizeof want, "%s:2: line longer than %d bytes",
		       path, PTY_CONFIG_LINE_MAX);
	assert_refused(path, want);
}
END_TEST

START_TEST(test_config_nul_and_control_bytes_refused)
{
	static const char nul[] = "policy = /p.dl\nshell = /bin/\0bash\n";
	char want[PATH_MAX + 64];
	const char *path;
	static const struct parse_case cases[] = {
	    /* a file saved with CRLF: the CR would end up in the path */
	    {"policy = /p.dl\r\n", ":1: a control character (0x0d)"},
	    {"policy = /p.dl\nshell = /bin/\033bash\n",
	     ":2: a control character (0x1b)"},
	};

	path = make_file("nul.conf", nul, sizeof nul - 1, 0644, 0);
	(void)snprintf(want, sizeof want, "%s:2: a NUL byte", path);
	assert_refused(path, want);
	assert_parse_cases(cases, N_CASES(cases));
}
END_TEST

START_TEST(test_config_too_big_refused)
{
	size_t size = PTY_CONFIG_SIZE_MAX;
	char *text = malloc(size + 1);
	char want[PATH_MAX + 64];
	const char *path;
	struct pty_config c;
	size_t i;

	ck_assert_ptr_nonnull(text);
	/* exactly the bound: short comment lines and the policy */
	for (i = 0; i < size; i++)
		text[i] = i % 64 == 63 ? '\n' : '#';
	memcpy(text, valid_conf, strlen(valid_conf));
	path = make_file("ok.conf", text, size, 0644, 0);
	assert_loads(path, &c);
	ck_assert_str_eq(c.policy, "/etc/maelys-pty/level1.dl");
	text[size] = '\n';
	path = make_file("big.conf", text, size + 1, 0644, 0);
	(void)snprintf(want, sizeof want, "%s: too big (%zu bytes, at most %u)",
		       path, size + 1, PTY_CONFIG_SIZE_MAX);
	assert_refused(path, want);
	free(text);
}
END_TEST

START_TEST(test_config_full_file_accepted)
{
	static const char text[] =
	    "policy = /etc/maelys-pty/level1.dl\n"
	    "shell=/usr/bin/bash\n"
	    "path =   /usr/bin:/bin  \n"
	    "audit_log\t=\t/var/log/maelys-pty/audit.log\n"
	    "  audit_key = /etc/maelys-pty/audit key\n"
	    "syslog = off\n"
	    "idle_timeout = 900\n"
	    "max_denials = 5\n"
	    "on_audit_failure = terminate\n";
	struct pty_config c;

	assert_loads(make_conf("maelys-pty.conf", text), &c);
	ck_assert_str_eq(c.policy, "/etc/maelys-pty/level1.dl");
	ck_assert_str_eq(c.shell, "/usr/bin/bash");
	ck_assert_str_eq(c.path_env, "/usr/bin:/bin");
	ck_assert_str_eq(c.audit_log, "/var/log/maelys-pty/audit.log");
	/* blanks inside a value are part of it */
	ck_assert_str_eq(c.audit_key, "/etc/maelys-pty/audit key");
	/* audit_verify_key: audit.pub beside audit_key unless given */
	ck_assert_str_eq(c.audit_verify_key, "/etc/maelys-pty/audit.pub");
	{
		struct pty_config g;

		assert_loads(make_conf("given.conf",
				       "policy = /p.dl\naudit_log = /a.log\n"
				       "audit_key = /k/state\n"
				       "audit_verify_key = /off/host/copy.pub\n"),
			     &g);
		ck_assert_str_eq(g.audit_verify_key, "/off/host/copy.pub");
	}
	ck_assert(!c.syslog);
	ck_assert_uint_eq(c.idle_timeout, 900);
	ck_assert_uint_eq(c.max_denials, 5);
	ck_assert_int_eq(c.on_audit_failure, PTY_AUDIT_FAIL_TERMINATE);
}
END_TEST

START_TEST(test_config_comments_and_blanks_accepted)
{
	/* no newline at the end, on purpose */
	static const char text[] =
	    "# maelys-pty.conf\n"
	    "\n"
	    "   \t\n"
	    "  # syslog = off (a comment, not a key)\n"
	    "#policy=/wrong.dl\n"
	    "\tpolicy\t=   /etc/maelys-pty/level1.dl   \n"
	    "\n"
	    "max_denials = 3";
	struct pty_config c;

	assert_loads(make_conf("maelys-pty.conf", text), &c);
	ck_assert_str_eq(c.policy, "/etc/maelys-pty/level1.dl");
	ck_assert(c.syslog);
	ck_assert_uint_eq(c.max_denials, 3);
}
END_TEST

START_TEST(test_config_defaults)
{
	struct pty_config c;

	memset(&c, 0xa5, sizeof c);
	pty_config_defaults(&c);
	assert_defaults(&c);
	/* a file with only the policy keeps every other default */
	assert_loads(make_conf("maelys-pty.conf", valid_conf), &c);
	ck_assert_str_eq(c.policy, "/etc/maelys-pty/level1.dl");
	ck_assert_str_eq(c.shell, "/bin/bash");
	ck_assert_str_eq(c.path_env, "/usr/local/bin:/usr/bin:/bin");
	ck_assert_str_eq(c.audit_log, "");
	ck_assert_str_eq(c.audit_key, "");
	ck_assert(c.syslog);
	ck_assert_uint_eq(c.idle_timeout, 0);
	ck_assert_uint_eq(c.max_denials, 0);
	ck_assert_int_eq(c.on_audit_failure, PTY_AUDIT_FAIL_DENY);
	/* a policy that decides lines only needs the administrator's word */
	ck_assert(!c.exec_decisions_optional);
}
END_TEST

START_TEST(test_config_exec_decisions_two_words_only)
{
	struct pty_config c;
	char text[256], err[512];

	(void)snprintf(text, sizeof text, "%sexec_decisions = optional\n",
		       valid_conf);
	assert_loads(make_conf("opt.conf", text), &c);
	ck_assert(c.exec_decisions_optional);
	(void)snprintf(text, sizeof text, "%sexec_decisions = required\n",
		       valid_conf);
	assert_loads(make_conf("req.conf", text), &c);
	ck_assert(!c.exec_decisions_optional);
	(void)snprintf(text, sizeof text, "%sexec_decisions = off\n",
		       valid_conf);
	ck_assert_int_eq(
	    pty_config_load(make_conf("bad.conf", text), &c, err, sizeof err),
	    -1);
	ck_assert_msg(strstr(err, ":2: exec_decisions: 'off' is not required "
				  "or optional") != NULL,
		      "%s", err);
	ck_assert(!c.exec_decisions_optional); /* the defaults, not half */
	/* --policy with no configuration: a person trying a policy */
	pty_config_for_policy_only(&c, "/tmp/mine.dl");
	ck_assert(c.exec_decisions_optional);
	ck_assert(!c.syslog);
	ck_assert_str_eq(c.policy, "/tmp/mine.dl");
}
END_TEST

START_TEST(test_config_every_boolean_and_bound_accepted)
{
	static const struct {
		const char *word;
		bool value;
	} words[] = {{"on", true},   {"yes", true}, {"true", true},
		     {"off", false}, {"no", false}, {"false", false}};
	struct pty_config c;
	char text[256], name[32];
	size_t i;

	for (i = 0; i < N_CASES(words); i++) {
		(void)snprintf(text, sizeof text, "%ssyslog = %s\n", valid_conf,
			       words[i].word);
		(void)snprintf(name, sizeof name, "b%zu.conf", i);
		assert_loads(make_conf(name, text), &c);
		ck_assert_int_eq(c.syslog, words[i].value);
		ck_assert(!c.syslog_records);
	}
	/* records: the summaries, and every record */
	(void)snprintf(text, sizeof text, "%ssyslog = records\n", valid_conf);
	assert_loads(make_conf("records.conf", text), &c);
	ck_assert(c.syslog);
	ck_assert(c.syslog_records);
	(void)snprintf(text, sizeof text,
		       "%sidle_timeout = %u\nmax_denials = %u\n"
		       "on_audit_failure = deny\n",
		       valid_conf, PTY_CONFIG_IDLE_TIMEOUT_MAX,
		       PTY_CONFIG_MAX_DENIALS_MAX);
	assert_loads(make_conf("max.conf", text), &c);
	ck_assert_uint_eq(c.idle_timeout, PTY_CONFIG_IDLE_TIMEOUT_MAX);
	ck_assert_uint_eq(c.max_denials, PTY_CONFIG_MAX_DENIALS_MAX);
	ck_assert_int_eq(c.on_audit_failure, PTY_AUDIT_FAIL_DENY);
	(void)snprintf(text, sizeof text, "%sidle_timeout = 0007\n",
		       valid_conf);
	assert_loads(make_conf("zeros.conf", text), &c);
	ck_assert_uint_eq(c.idle_timeout, 7);
}
END_TEST

START_TEST(test_secure_open_gives_a_plain_cloexec_descriptor)
{
	const char *path = make_conf("maelys-pty.conf", valid_conf);
	char err[256] = "";
	int fd = pty_secure_open(path, err, sizeof err);

	ck_assert_msg(fd >= 0, "refused: %s", err);
	ck_assert_int_ne(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
	ck_assert_int_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	ck_assert_int_eq(fcntl(fd, F_GETFL) & O_ACCMODE, O_RDONLY);
	ck_assert_int_eq(close(fd), 0);
}
END_TEST

START_TEST(test_secure_read_reads_whole_file_within_bound)
{
	static const char data[] = "0123456789";
	const char *path = make_file("data", data, 10, 0600, 0);
	char err[256] = "", want[PATH_MAX + 64];
	char *text = (char *)data;
	size_t len = 99;

	ck_assert_int_eq(
	    pty_secure_read(path, 10, &text, &len, err, sizeof err), 0);
	ck_assert_uint_eq(len, 10);
	ck_assert_str_eq(text, data); /* NUL-terminated */
	free(text);
	text = (char *)data;
	ck_assert_int_eq(pty_secure_read(path, 9, &text, &len, err, sizeof err),
			 -1);
	ck_assert_ptr_null(text);
	ck_assert_uint_eq(len, 0);
	(void)snprintf(want, sizeof want, "%s: too big (10 bytes, at most 9)",
		       path);
	ck_assert_str_eq(err, want);
	/* an empty file reads as an empty string */
	path = make_file("empty", "", 0, 0600, 0);
	ck_assert_int_eq(pty_secure_read(path, 0, &text, &len, err, sizeof err),
			 0);
	ck_assert_uint_eq(len, 0);
	ck_assert_str_eq(text, "");
	free(text);
}
END_TEST

/* /proc files say size 0 and then read more: the bound must hold on what
 * is read, not on what fstat said. */
START_TEST(test_secure_read_bounds_what_is_read)
{
	char err[256] = "", *text;
	size_t len;

	ck_assert_msg(pty_secure_read("/proc/version", 65536, &text, &len, err,
				      sizeof err) == 0,
		      "refused: %s", err);
	ck_assert_uint_gt(len, 5);
	ck_assert_uint_eq(strlen(text), len);
	free(text);
	ck_assert_int_eq(
	    pty_secure_read("/proc/version", 5, &text, &len, err, sizeof err),
	    -1);
	ck_assert_ptr_null(text);
	ck_assert_str_eq(err, "/proc/version: too big (more than 5 bytes)");
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("config");

	/* Root-owned files cannot be made otherwise, and the checks refuse
	 * everything else: the whole binary is a SKIP, not a failure. */
	if (geteuid() != 0) {
		fputs("check_pty_config: needs root to create root-owned "
		      "files: skipped\n",
		      stderr);
		exit(77);
	}
	tcase_add_unchecked_fixture(tc, setup_parent, teardown_parent);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_config_owner_not_root_refused);
	tcase_add_test(tc, test_config_group_writable_refused);
	tcase_add_test(tc, test_config_other_writable_refused);
	tcase_add_test(tc, test_config_symlink_file_refused);
	tcase_add_test(tc, test_config_symlink_directory_on_path_refused);
	tcase_add_test(tc, test_config_parent_other_writable_refused);
	tcase_add_test(tc, test_config_parent_group_writable_refused);
	tcase_add_test(tc, test_config_parent_not_root_refused);
	tcase_add_test(tc, test_config_grandparent_writable_refused);
	tcase_add_test(tc, test_config_sticky_parent_needs_root_owner);
	tcase_add_test(tc, test_config_missing_file_refused);
	tcase_add_test(tc, test_config_directory_refused);
	tcase_add_test(tc, test_config_fifo_refused_without_blocking);
	tcase_add_test(tc, test_config_device_refused);
	tcase_add_test(tc, test_config_relative_path_refused);
	tcase_add_test(tc, test_config_unknown_key_refused);
	tcase_add_test(tc, test_config_duplicate_key_refused);
	tcase_add_test(tc, test_config_bad_boolean_refused);
	tcase_add_test(tc, test_config_bad_number_refused);
	tcase_add_test(tc, test_config_relative_path_value_refused);
	tcase_add_test(tc, test_config_missing_policy_refused);
	tcase_add_test(tc, test_config_audit_log_without_key_refused);
	tcase_add_test(tc, test_config_overlong_line_refused);
	tcase_add_test(tc, test_config_nul_and_control_bytes_refused);
	tcase_add_test(tc, test_config_too_big_refused);
	tcase_add_test(tc, test_config_full_file_accepted);
	tcase_add_test(tc, test_config_comments_and_blanks_accepted);
	tcase_add_test(tc, test_config_defaults);
	tcase_add_test(tc, test_config_every_boolean_and_bound_accepted);
	tcase_add_test(tc, test_config_exec_decisions_two_words_only);
	tcase_add_test(tc, test_secure_open_gives_a_plain_cloexec_descriptor);
	tcase_add_test(tc, test_secure_read_reads_whole_file_within_bound);
	tcase_add_test(tc, test_secure_read_bounds_what_is_read);
	suite_add_tcase(s, tc);
	return s;
}
