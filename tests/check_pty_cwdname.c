/* SPDX-License-Identifier: MIT */
/*
 * The working directory as the guard names it (pty_exec_cwd_name,
 * pty/exec/exec_cwd.c) and decides with it (pty_decide): a folder deeper
 * than the kernel prints (PATH_MAX) is named in full, up to PTY_CWD_MAX;
 * past that, or where a folder above it cannot be read, or once it is
 * removed, it is not named and why is said - never another name.  A line
 * is then decided without a cwd fact when the policy reads none, and
 * refused (PTY_VERDICT_NO_CWD) when it does; a name too long for the
 * decider is never cut.  And the session itself: bash's status report,
 * whose $PWD the guard skips, does not end a session in a folder deeper
 * than the report's buffer.
 *
 * Each test makes its folders under a fresh one in /tmp, and removes it.
 */
#define _GNU_SOURCE
#include "runner.h"

#include "pty_harness.h"

#include "pty_decide.h"
#include "pty_exec.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define T 8000 /* ms: generous, sanitizer builds are slow */

/* A name of `len` bytes for level i: "007xxxx...". */
static void
level_name(char *out, size_t i, size_t len)
{
	(void)snprintf(out, NAME_MAX + 1, "%03zu", i);
	memset(out + 3, 'x', len - 3);
	out[len] = '\0';
}

/* chmod of the folder open at `fd` (O_PATH: through /proc/self/fd). */
static int
fchmod_path(int fd, mode_t mode)
{
	char self[64];

	(void)snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
	return chmod(self, mode);
}

/* A fresh folder in /tmp (0755: another user may search it). */
static void
top_make(char *top, size_t cap)
{
	(void)snprintf(top, cap, "/tmp/maelys-cwdname.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(top));
	ck_assert_int_eq(chmod(top, 0755), 0);
}

static void
top_remove(const char *top)
{
	char cmd[PATH_MAX + 32];

	(void)snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
	ck_assert_int_eq(system(cmd), 0);
}

/* Makes `levels` folders of `len`-byte names, one inside the other, in
 * the folder open at `from` (named `name`, which grows to the deepest's
 * name: cap bytes), each a call with one name.  Returns the deepest,
 * opened O_PATH. */
static int
deep_make(int from, char *name, size_t cap, size_t levels, size_t len)
{
	int fd = fcntl(from, F_DUPFD_CLOEXEC, 0);
	size_t i, at = strlen(name);

	ck_assert_int_ge(fd, 0);
	for (i = 0; i < levels; i++) {
		char comp[NAME_MAX + 1];
		int next;

		level_name(comp, i, len);
		ck_assert(mkdirat(fd, comp, 0755) == 0 || errno == EEXIST);
		next = openat(fd, comp, O_PATH | O_DIRECTORY | O_CLOEXEC);
		ck_assert_int_ge(next, 0);
		(void)close(fd);
		fd = next;
		ck_assert_uint_lt(at + 1 + len, cap);
		name[at++] = '/';
		memcpy(name + at, comp, len + 1);
		at += len;
	}
	return fd;
}

/* One level more, of a `len`-byte name, under *deep (its name `name`
 * grows): *deep becomes it, and the folder it was is returned (the
 * caller closes it). */
static int
deep_make_from(int *deep, char *name, size_t cap, size_t len)
{
	static size_t n = 500;
	char comp[NAME_MAX + 1];
	int old = *deep;

	level_name(comp, n++, len);
	ck_assert_int_eq(mkdirat(old, comp, 0755), 0);
	*deep = openat(old, comp, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(*deep, 0);
	ck_assert_uint_lt(strlen(name) + 1 + len, cap);
	(void)snprintf(name + strlen(name), cap - strlen(name), "/%s", comp);
	return old;
}

/* The kernel does not name it: what the guard must do itself. */
static void
assert_kernel_does_not_name(int fd)
{
	char self[64], buf[PATH_MAX];

	(void)snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
	ck_assert_int_eq(readlink(self, buf, sizeof buf), -1);
	ck_assert_int_eq(errno, ENAMETOOLONG);
}

/* A folder 5,000-odd bytes deep, which the kernel no longer names, is
 * named in full; one just under the bound too, and with a folder the
 * kernel names kept open (selffd) alike.
 * Before: the kernel's answer was all there was (ENAMETOOLONG), and the
 * shell's previous directory stood in for it. */
START_TEST(test_cwdname_folder_deeper_than_path_max_is_named_in_full)
{
	char top[64], want[PTY_CWD_MAX + 256], got[PTY_CWD_MAX], why[256];
	char comp[NAME_MAX + 1];
	int topfd, deep, selffd;
	size_t left;

	top_make(top, sizeof top);
	topfd = open(top, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(topfd, 0);
	(void)snprintf(want, sizeof want, "%s", top);
	deep = deep_make(topfd, want, sizeof want, 25, 200);
	ck_assert_uint_gt(strlen(want), PATH_MAX);
	assert_kernel_does_not_name(deep);
	ck_assert_msg(
	    pty_exec_cwd_name(-1, deep, got, sizeof got, why, sizeof why) == 0,
	    "%s", why);
	ck_assert_str_eq(got, want);
	selffd = open("/proc/self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(selffd, 0);
	ck_assert_int_eq(
	    pty_exec_cwd_name(selffd, deep, got, sizeof got, why, sizeof why),
	    0);
	ck_assert_str_eq(got, want);
	/* down to a name of the last byte the bound allows: levels of 200
	 * bytes, then one of what is left */
	while ((left = PTY_CWD_MAX - 1 - strlen(want)) > 1 + 200 + 1 + 3)
		(void)close(deep_make_from(&deep, want, sizeof want, 200));
	ck_assert_uint_ge(left, 1 + 3);
	level_name(comp, 999, left - 1);
	ck_assert_int_eq(mkdirat(deep, comp, 0755), 0);
	{
		int last = openat(deep, comp, O_PATH | O_DIRECTORY | O_CLOEXEC);

		ck_assert_int_ge(last, 0);
		(void)snprintf(want + strlen(want), sizeof want - strlen(want),
			       "/%s", comp);
		ck_assert_uint_eq(strlen(want), PTY_CWD_MAX - 1);
		ck_assert_msg(pty_exec_cwd_name(-1, last, got, sizeof got, why,
						sizeof why) == 0,
			      "%s", why);
		ck_assert_str_eq(got, want);
		(void)close(last);
	}
	(void)close(deep);
	(void)close(selffd);
	(void)close(topfd);
	top_remove(top);
}
END_TEST

/* One byte past the bound is not named: the reason says how long a name
 * may be, and nothing is given instead - not a cut name.  A caller with
 * less room gets the same answer for a name that does not fit it. */
START_TEST(test_cwdname_folder_past_the_bound_is_not_named)
{
	char top[64], want[2 * PTY_CWD_MAX], got[PTY_CWD_MAX], why[256];
	char small[5000], expect[128];
	int topfd, deep;

	top_make(top, sizeof top);
	topfd = open(top, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(topfd, 0);
	(void)snprintf(want, sizeof want, "%s", top);
	deep = deep_make(topfd, want, sizeof want, 41, 200);
	ck_assert_uint_ge(strlen(want), PTY_CWD_MAX);
	memset(got, 'q', sizeof got);
	ck_assert_int_eq(
	    pty_exec_cwd_name(-1, deep, got, sizeof got, why, sizeof why), -1);
	ck_assert_str_eq(got, "");
	(void)snprintf(expect, sizeof expect, PTY_CWD_TOO_LONG_FMT,
		       PTY_CWD_MAX - 1);
	ck_assert_str_eq(why, expect);
	ck_assert_str_eq(expect, "its path is longer than 8191 bytes");
	(void)close(deep);
	/* 25 levels fit the bound, not a 5,000-byte buffer */
	(void)snprintf(want, sizeof want, "%s", top);
	deep = deep_make(topfd, want, sizeof want, 25, 200);
	ck_assert_int_eq(
	    pty_exec_cwd_name(-1, deep, small, sizeof small, why, sizeof why),
	    -1);
	ck_assert_str_eq(small, "");
	ck_assert_str_eq(why, "its path is longer than 4999 bytes");
	(void)close(deep);
	(void)close(topfd);
	top_remove(top);
}
END_TEST

/* What a child found, through a pipe. */
struct cwdname_answer {
	int rc;
	char name[PTY_CWD_MAX];
	char why[256];
};

/* A folder whose entries the user cannot read (mode 0311: searched, not
 * listed) above a deep directory: its name cannot be found there, and the
 * reason says so.  Run as nobody when root (root reads every folder). */
START_TEST(test_cwdname_folder_above_that_cannot_be_read_is_said)
{
	char top[64], want[PTY_CWD_MAX + 256];
	struct cwdname_answer *a = malloc(sizeof *a);
	int topfd, deep, fds[2], st;
	pid_t pid;

	ck_assert_ptr_nonnull(a);
	top_make(top, sizeof top);
	topfd = open(top, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(topfd, 0);
	(void)snprintf(want, sizeof want, "%s", top);
	deep = deep_make(topfd, want, sizeof want, 22, 200);
	/* the 22nd folder, already too deep for the kernel to name: its
	 * entries (the 23rd) are what the walk up must read */
	assert_kernel_does_not_name(deep);
	(void)close(deep_make(deep, want, sizeof want, 3, 200));
	ck_assert_int_eq(fchmod_path(deep, 0311), 0);
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int d = open(top, O_PATH | O_DIRECTORY);
		size_t i;

		if (geteuid() == 0 &&
		    (setgid(65534) != 0 || setuid(65534) != 0))
			_exit(2);
		/* one folder at a time: the path is longer than PATH_MAX */
		for (i = 0; d >= 0 && i < 25; i++) {
			char comp[NAME_MAX + 1];
			int next;

			level_name(comp, i < 22 ? i : i - 22, 200);
			next = openat(d, comp, O_PATH | O_DIRECTORY);
			(void)close(d);
			d = next;
		}
		if (d < 0)
			_exit(3);
		memset(a, 0, sizeof *a);
		a->rc = pty_exec_cwd_name(-1, d, a->name, sizeof a->name,
					  a->why, sizeof a->why);
		_exit(write(fds[1], a, sizeof *a) == (ssize_t)sizeof *a ? 0
									: 4);
	}
	(void)close(fds[1]);
	memset(a, 0, sizeof *a);
	ck_assert_int_eq(read(fds[0], a, sizeof *a), (ssize_t)sizeof *a);
	(void)close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	ck_assert_int_eq(a->rc, -1);
	ck_assert_str_eq(a->name, "");
	ck_assert_str_eq(
	    a->why, "a folder above it cannot be read (Permission denied)");
	(void)close(deep);
	(void)close(topfd);
	top_remove(top);
	free(a);
}
END_TEST

/* A directory the kernel names, removed while the guard holds it, has no
 * name either: the kernel's is the old one with " (deleted)" after it,
 * which another folder - made here - may be called, and the process is
 * not in it.  That folder, open itself, is named as it is. */
START_TEST(test_cwdname_removed_short_folder_has_no_name)
{
	char top[64], path[PATH_MAX], got[PTY_CWD_MAX], why[256];
	int gone, other;

	top_make(top, sizeof top);
	(void)snprintf(path, sizeof path, "%s/d", top);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	gone = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(gone, 0);
	ck_assert_int_eq(
	    pty_exec_cwd_name(-1, gone, got, sizeof got, why, sizeof why), 0);
	ck_assert_str_eq(got, path);
	ck_assert_int_eq(rmdir(path), 0);
	(void)snprintf(path, sizeof path, "%s/d (deleted)", top);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	ck_assert_int_eq(
	    pty_exec_cwd_name(-1, gone, got, sizeof got, why, sizeof why), -1);
	ck_assert_str_eq(got, "");
	ck_assert_str_eq(why, "it was removed");
	other = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(other, 0);
	ck_assert_int_eq(
	    pty_exec_cwd_name(-1, other, got, sizeof got, why, sizeof why), 0);
	ck_assert_str_eq(got, path);
	(void)close(other);
	(void)close(gone);
	top_remove(top);
}
END_TEST

/* A deep directory removed while the guard holds it has no name: "it was
 * removed", not the name it had. */
START_TEST(test_cwdname_removed_folder_has_no_name)
{
	char top[64], want[PTY_CWD_MAX + 256], got[PTY_CWD_MAX], why[256];
	char comp[NAME_MAX + 1];
	int topfd, parent, deep;

	top_make(top, sizeof top);
	topfd = open(top, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(topfd, 0);
	(void)snprintf(want, sizeof want, "%s", top);
	parent = deep_make(topfd, want, sizeof want, 24, 200);
	level_name(comp, 24, 200);
	ck_assert_int_eq(mkdirat(parent, comp, 0755), 0);
	deep = openat(parent, comp, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(deep, 0);
	ck_assert_int_eq(
	    pty_exec_cwd_name(-1, deep, got, sizeof got, why, sizeof why), 0);
	ck_assert_int_eq(unlinkat(parent, comp, AT_REMOVEDIR), 0);
	ck_assert_int_eq(
	    pty_exec_cwd_name(-1, deep, got, sizeof got, why, sizeof why), -1);
	ck_assert_str_eq(got, "");
	ck_assert_str_eq(why, "it was removed");
	/* and the folder above it, named by the kernel, is named still */
	ck_assert_int_eq(
	    pty_exec_cwd_name(-1, parent, got, sizeof got, why, sizeof why), 0);
	ck_assert_str_eq(got, want);
	(void)close(deep);
	(void)close(parent);
	(void)close(topfd);
	top_remove(top);
}
END_TEST

/* A mount on the way: its root's entry in the folder above holds the
 * number of the folder under the mount, so the walk looks at each entry
 * (fstatat crosses into the mount).  In a mount namespace of its own,
 * root only. */
START_TEST(test_cwdname_mount_point_on_the_way_is_named)
{
	char top[64], want[PTY_CWD_MAX + 256], mnt[PTY_CWD_MAX + 256];
	struct cwdname_answer *a = malloc(sizeof *a);
	int fds[2], st;
	pid_t pid;

	ck_assert_ptr_nonnull(a);
	top_make(top, sizeof top);
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int topfd, at, deep;

		if (unshare(CLONE_NEWNS) != 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
			_exit(2);
		topfd = open(top, O_PATH | O_DIRECTORY | O_CLOEXEC);
		(void)snprintf(want, sizeof want, "%s", top);
		at = deep_make(topfd, want, sizeof want, 10, 200);
		(void)snprintf(mnt, sizeof mnt, "%s", want);
		if (mount("tmpfs", mnt, "tmpfs", 0, "size=1m") != 0)
			_exit(3);
		(void)close(at);
		at = open(mnt, O_PATH | O_DIRECTORY | O_CLOEXEC);
		deep = deep_make(at, want, sizeof want, 15, 200);
		memset(a, 0, sizeof *a);
		a->rc = pty_exec_cwd_name(-1, deep, a->name, sizeof a->name,
					  a->why, sizeof a->why);
		if (a->rc == 0 && strcmp(a->name, want) != 0)
			a->rc = -2;
		(void)close(deep);
		(void)close(at);
		(void)umount2(mnt, MNT_DETACH);
		_exit(write(fds[1], a, sizeof *a) == (ssize_t)sizeof *a ? 0
									: 4);
	}
	(void)close(fds[1]);
	memset(a, 0, sizeof *a);
	ck_assert_int_eq(read(fds[0], a, sizeof *a), (ssize_t)sizeof *a);
	(void)close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	ck_assert_msg(a->rc == 0, "rc %d: %s (%s)", a->rc, a->why, a->name);
	top_remove(top);
	free(a);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Deciding without a name.                                            */

/* Reads cwd to refuse: without a cwd fact, its rule would not fire and
 * every line would be allowed - what PTY_VERDICT_NO_CWD prevents. */
static const char reads_cwd[] =
    ".decl secret()\n"
    "secret :- cwd(D), prefix(D, \"/secret\").\n"
    "allow(C) :- command(C), not(secret).\n"
    "deny(C, \"in /secret\") :- command(C), secret.\n"
    "allow_exec(P) :- exec_path(P).\n";
static const char ignores_cwd[] = "allow(C) :- command(C).\n"
				  "allow_exec(P) :- exec_path(P).\n";

static void
decider_open(const char *text, maelys_datalog_session_t **s,
	     struct pty_decider *d)
{
	struct pty_policy_reads reads;
	char err[512];

	ck_assert_msg(pty_policy_open_text("t.dl", text, strlen(text), s,
					   &reads, err, sizeof err) == 0,
		      "%s", err);
	ck_assert_int_eq(pty_decider_init(d, *s, &reads, "/usr/bin:/bin"), 0);
}

/* Whether the decider's input EDB holds a cwd fact. */
static bool
edb_has_cwd(const struct pty_decider *d)
{
	size_t i;

	for (i = 0; i < maelys_datalog_input_edb_count(d->edb); i++) {
		maelys_datalog_arg_t args[4];
		const char *pred;
		size_t n;

		ck_assert_int_eq(
		    maelys_datalog_input_edb_get(d->edb, i, &pred, args, 4, &n),
		    MAELYS_DATALOG_STATUS_OK);
		if (strcmp(pred, "cwd") == 0)
			return true;
	}
	return false;
}

/* A policy that reads cwd decides no line while the directory has no
 * name: refused before solving, with why; given a name again, it decides.
 * Before: the previous name stood, and the line was decided on it. */
START_TEST(test_cwdname_unnamed_refuses_lines_of_a_policy_reading_cwd)
{
	maelys_datalog_session_t *s = NULL;
	struct pty_decider d;
	struct pty_decision dec;

	decider_open(reads_cwd, &s, &d);
	pty_decider_set_cwd(&d, "/home/alice");
	pty_decide(&d, "id", 2, PTY_MODE_INTERACTIVE, &dec);
	ck_assert_int_eq(dec.verdict, PTY_VERDICT_ALLOW);
	pty_decider_unnamed_cwd(&d, "its path is longer than 8191 bytes");
	ck_assert_str_eq(d.cwd, "");
	pty_decide(&d, "id", 2, PTY_MODE_INTERACTIVE, &dec);
	ck_assert_int_eq(dec.verdict, PTY_VERDICT_NO_CWD);
	ck_assert_str_eq(dec.error, "its path is longer than 8191 bytes");
	ck_assert_str_eq(dec.command, "id");
	ck_assert(!dec.asked);
	/* a line the scanner refuses is still the scanner's */
	pty_decide(&d, "id\x01", 3, PTY_MODE_INTERACTIVE, &dec);
	ck_assert_int_eq(dec.verdict, PTY_VERDICT_SYNTAX);
	pty_decide(&d, "", 0, PTY_MODE_INTERACTIVE, &dec);
	ck_assert_int_eq(dec.verdict, PTY_VERDICT_EMPTY);
	pty_decider_set_cwd(&d, "/secret/x");
	pty_decide(&d, "id", 2, PTY_MODE_INTERACTIVE, &dec);
	ck_assert_int_eq(dec.verdict, PTY_VERDICT_POLICY);
	pty_decider_free(&d);
	(void)maelys_datalog_session_free(s);
}
END_TEST

/* A policy that reads no cwd decides the same without one: the line is
 * decided, with no cwd fact among its facts (none is made up); a
 * relative command has no command_path (nothing to make it absolute
 * with). */
START_TEST(test_cwdname_unnamed_decides_without_cwd_when_none_is_read)
{
	static const char path_reader[] =
	    "allow(C) :- command(C), not(command_path(_)).\n"
	    "allow_exec(P) :- exec_path(P).\n";
	maelys_datalog_session_t *s = NULL, *s2 = NULL;
	struct pty_decider d, d2;
	struct pty_decision dec;

	decider_open(ignores_cwd, &s, &d);
	pty_decider_unnamed_cwd(&d, "it was removed");
	pty_decide(&d, "id", 2, PTY_MODE_INTERACTIVE, &dec);
	ck_assert_int_eq(dec.verdict, PTY_VERDICT_ALLOW);
	ck_assert(!edb_has_cwd(&d));
	pty_decider_set_cwd(&d, "/tmp");
	pty_decide(&d, "id", 2, PTY_MODE_INTERACTIVE, &dec);
	ck_assert(edb_has_cwd(&d));
	decider_open(path_reader, &s2, &d2);
	pty_decider_unnamed_cwd(&d2, "it was removed");
	pty_decide(&d2, "bin/true", 8, PTY_MODE_INTERACTIVE, &dec);
	ck_assert_int_eq(dec.verdict, PTY_VERDICT_ALLOW);
	pty_decider_free(&d);
	pty_decider_free(&d2);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_session_free(s2);
}
END_TEST

/* A line decided again from its record (`maelys-pty log --replay`):
 * facts without a cwd fact are a line decided where the directory had no
 * name, and a policy that reads cwd decides it as a session would - it
 * refuses it.  With the fact it decides. */
START_TEST(test_cwdname_replay_without_cwd_fact_refuses_under_cwd_policy)
{
	maelys_datalog_session_t *s = NULL, *s2 = NULL;
	struct pty_decider d, d2;
	struct pty_decision dec;

	decider_open(reads_cwd, &s, &d);
	ck_assert_int_eq(maelys_datalog_input_edb_clear(d.edb),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(pty_fact_add_string(d.edb, "command", "id", NULL),
			 MAELYS_DATALOG_STATUS_OK);
	pty_decide_edb(&d, "id", 2, 0, &dec);
	ck_assert_int_eq(dec.verdict, PTY_VERDICT_NO_CWD);
	ck_assert_str_eq(dec.error, "the line was decided with no cwd fact");
	ck_assert_int_eq(pty_fact_add_string(d.edb, "cwd", "/secret/x", NULL),
			 MAELYS_DATALOG_STATUS_OK);
	pty_decide_edb(&d, "id", 2, 0, &dec);
	ck_assert_int_eq(dec.verdict, PTY_VERDICT_POLICY);
	/* a policy that reads none decides it as it was */
	decider_open(ignores_cwd, &s2, &d2);
	ck_assert_int_eq(maelys_datalog_input_edb_clear(d2.edb),
			 MAELYS_DATALOG_STATUS_OK);
	ck_assert_int_eq(pty_fact_add_string(d2.edb, "command", "id", NULL),
			 MAELYS_DATALOG_STATUS_OK);
	pty_decide_edb(&d2, "id", 2, 0, &dec);
	ck_assert_int_eq(dec.verdict, PTY_VERDICT_ALLOW);
	pty_decider_free(&d);
	pty_decider_free(&d2);
	(void)maelys_datalog_session_free(s);
	(void)maelys_datalog_session_free(s2);
}
END_TEST

/* A name longer than the decider holds is not cut to fit: it leaves the
 * directory unnamed, saying how long a name may be. */
START_TEST(test_cwdname_decider_never_cuts_a_name)
{
	maelys_datalog_session_t *s = NULL;
	struct pty_decider d;
	struct pty_decision dec;
	char *name = malloc(PTY_CWD_MAX + 1);

	ck_assert_ptr_nonnull(name);
	decider_open(reads_cwd, &s, &d);
	name[0] = '/';
	memset(name + 1, 'a', PTY_CWD_MAX - 1);
	name[PTY_CWD_MAX] = '\0';
	pty_decider_set_cwd(&d, name);
	ck_assert_str_eq(d.cwd, "");
	ck_assert_str_eq(d.cwd_unnamed, "its path is longer than 8191 bytes");
	pty_decide(&d, "id", 2, PTY_MODE_INTERACTIVE, &dec);
	ck_assert_int_eq(dec.verdict, PTY_VERDICT_NO_CWD);
	name[PTY_CWD_MAX - 1] = '\0'; /* 8191 bytes: taken whole */
	pty_decider_set_cwd(&d, name);
	ck_assert_str_eq(d.cwd, name);
	pty_decide(&d, "id", 2, PTY_MODE_INTERACTIVE, &dec);
	ck_assert_int_eq(dec.verdict, PTY_VERDICT_ALLOW);
	pty_decider_free(&d);
	(void)maelys_datalog_session_free(s);
	free(name);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The session: bash's report of a very deep $PWD.                      */

/* Types `text` and waits for the next prompt. */
static void
session_line(struct pts *p, const char *text)
{
	pts_type(p, text);
	pts_type(p, "\r");
	ck_assert_msg(pts_wait_prompt(p, T), "no prompt after '%.60s': %s",
		      text, p->out + p->mark);
}

/* bash reports its $PWD after each line; the guard skips it however long
 * it is.  A shell 20,000 bytes deep (past the report's 16 KiB buffer, and
 * past the bound, so the prompt shows "?") goes on; `cd` back up names
 * the directory again.
 * Before: the report filled the buffer and the session ended with "the
 * shell could not be locked down". */
START_TEST(test_cwdname_session_survives_a_pwd_longer_than_its_report)
{
	static const char policy[] = "allow(C) :- command(C).\n"
				     "allow_exec(P) :- exec_path(P).\n";
	struct pts_world w;
	struct pts p;
	char top[400], line[PATH_MAX], comp[NAME_MAX + 1];
	size_t i, k;

	pts_world_make(&w);
	(void)snprintf(top, sizeof top, "%s/deep", w.home);
	ck_assert_int_eq(mkdir(top, 0755), 0);
	/* wide enough for the whole prompt: readline scrolls a line
	 * sideways on a terminal narrower than it */
	pts_start(&p, &w, pts_world_policy(&w, "all.dl", policy), 24, 30000);
	ck_assert_msg(pts_wait_prompt(&p, T), "no prompt: %s", p.out);
	(void)snprintf(line, sizeof line, "cd %s", top);
	session_line(&p, line);
	/* 100 levels of 200 bytes, 15 a line (each line under PATH_MAX) */
	for (i = 0; i < 100; i += 15) {
		(void)snprintf(line, sizeof line, "mkdir -p ");
		for (k = i; k < i + 15 && k < 100; k++) {
			level_name(comp, k, 200);
			(void)snprintf(line + strlen(line),
				       sizeof line - strlen(line), "%s%s",
				       k > i ? "/" : "", comp);
		}
		session_line(&p, line);
		memcpy(line, "cd      ", 8); /* "cd" and the same path */
		session_line(&p, line);
	}
	ck_assert_msg(strstr(p.out + p.mark - 20, ":?$ ") != NULL ||
			  strstr(p.out + p.mark - 20, ":?# ") != NULL,
		      "the prompt does not say the directory has no name: %s",
		      p.out + p.mark - 20);
	session_line(&p, "echo still-here");
	ck_assert(strstr(p.out, "still-here\r\n") != NULL);
	for (i = 0; i < 75; i += 15) {
		(void)snprintf(line, sizeof line, "cd ..");
		for (k = 1; k < 15; k++)
			(void)snprintf(line + strlen(line),
				       sizeof line - strlen(line), "/..");
		session_line(&p, line);
	}
	/* 25 levels deep: 5,000-odd bytes, named in full again */
	ck_assert_msg(strstr(p.out + p.mark - 300, "/024xxxx") != NULL,
		      "the prompt does not name the directory: %s",
		      p.out + (p.len > 2000 ? p.len - 2000 : 0));
	pts_type(&p, "exit 3\r");
	ck_assert_int_eq(pts_wait(&p, T), 3);
	pts_close(&p);
	top_remove(top);
	pts_world_remove(&w);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("cwdname");

	tcase_set_timeout(tc, 120);
	tcase_add_test(
	    tc, test_cwdname_folder_deeper_than_path_max_is_named_in_full);
	tcase_add_test(tc, test_cwdname_folder_past_the_bound_is_not_named);
	tcase_add_test(tc,
		       test_cwdname_folder_above_that_cannot_be_read_is_said);
	tcase_add_test(tc, test_cwdname_removed_short_folder_has_no_name);
	tcase_add_test(tc, test_cwdname_removed_folder_has_no_name);
	if (geteuid() == 0)
		tcase_add_test(tc,
			       test_cwdname_mount_point_on_the_way_is_named);
	else
		printf("cwdname: not root: the mount point test is left out\n");
	tcase_add_test(
	    tc, test_cwdname_unnamed_refuses_lines_of_a_policy_reading_cwd);
	tcase_add_test(
	    tc, test_cwdname_unnamed_decides_without_cwd_when_none_is_read);
	tcase_add_test(tc, test_cwdname_decider_never_cuts_a_name);
	tcase_add_test(
	    tc, test_cwdname_replay_without_cwd_fact_refuses_under_cwd_policy);
	tcase_add_test(
	    tc, test_cwdname_session_survives_a_pwd_longer_than_its_report);
	suite_add_tcase(s, tc);
	return s;
}
