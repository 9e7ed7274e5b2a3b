/* SPDX-License-Identifier: MIT */
/*
 * Each user's share of the recordings' file system (pty/audit/
 * audit_share.c, the room audit_rec.c gives each write of a recording):
 *   - the arithmetic: a share is record_share, or an eighth of the file
 *     system; "held + len <= share" never wraps; what a user's slots hold;
 *   - the shares' file, DIR/.recordings.shares, as the writers of many
 *     sessions keep it: a user's open recordings share one share, another
 *     user's is their own, a recording that closes frees its part, a
 *     writer that is gone (killed, crashed) frees its slot, many writers
 *     at once never count past a share, a user holds at most 64 slots,
 *     and a file that cannot be kept refuses (fails closed);
 *   - the program (root: a small tmpfs for the recordings): a session that
 *     prints without end stops at its user's share, with the record that
 *     says so, and leaves the file system almost all its room; a user who
 *     records session after session once the file system is down to its
 *     reserve writes a quarter of the reserve into it at most, over all
 *     their sessions, and is then told so when a session starts.
 * Two users at once, as deployed, are check_pty_recordings'.
 */
#define _GNU_SOURCE /* unshare, CLONE_NEWNS */
#include "runner.h"

#include "audit_rec_internal.h"
#include "pty_harness.h"
#include "pty_session.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define T 10000

#define SHARES ".recordings.shares"

/* ── The arithmetic ──────────────────────────────────────────────────── */

START_TEST(test_shares_arithmetic)
{
	static const struct {
		unsigned long long held, len, share;
		bool fits;
	} fits[] = {
	    {0, 0, 0, true},
	    {10, 5, 15, true},
	    {10, 6, 15, false},
	    {16, 0, 15, false}, /* already past it */
	    {0, ULLONG_MAX, 10, false},
	    {5, ULLONG_MAX - 4, ULLONG_MAX, false}, /* would wrap to 0 */
	    {ULLONG_MAX - 1, 1, ULLONG_MAX, true},
	    {ULLONG_MAX, 1, ULLONG_MAX, false},
	};
	struct audit_share_slot slots[] = {
	    {1001 + 1, 100}, {0, 999}, {1002 + 1, 50}, {1001 + 1, 200}};
	struct audit_share_slot huge[] = {{1 + 1, ULLONG_MAX}, {1 + 1, 5}};
	size_t i;

	/* an eighth of the file system, unless record_share says */
	ck_assert_uint_eq(audit_share_of(400ull << 20, 0), 50ull << 20);
	ck_assert_uint_eq(audit_share_of(8ull << 20, 0), 1ull << 20);
	ck_assert_uint_eq(audit_share_of(400ull << 20, 5ull << 20),
			  5ull << 20);
	ck_assert_uint_eq(audit_share_of(0, 0), 0);
	for (i = 0; i < sizeof fits / sizeof fits[0]; i++)
		ck_assert_msg(audit_share_fits(fits[i].held, fits[i].len,
					       fits[i].share) == fits[i].fits,
			      "case %zu", i);
	/* a user's slots, and no one else's, free ones neither */
	ck_assert_uint_eq(audit_share_held(slots, 4, 1001), 300);
	ck_assert_uint_eq(audit_share_held(slots, 4, 1002), 50);
	ck_assert_uint_eq(audit_share_held(slots, 4, 1003), 0);
	ck_assert_uint_eq(audit_share_held(huge, 2, 1), ULLONG_MAX);
}
END_TEST

/* ── The shares' file ────────────────────────────────────────────────── */

static char dir[] = "/tmp/maelys-shares-XXXXXX";

static void
make_dir(void)
{
	strcpy(dir, "/tmp/maelys-shares-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void
remove_dir(void)
{
	char path[300];

	snprintf(path, sizeof path, "%s/" SHARES, dir);
	(void)unlink(path);
	(void)rmdir(path); /* when a test made it a folder */
	ck_assert_int_eq(rmdir(dir), 0);
}

static void
share_open(struct audit_share *sh, uid_t user)
{
	char err[512];

	ck_assert_msg(audit_share_open(sh, dir, user, err, sizeof err) == 0,
		      "%s", err);
}

static int
charge(struct audit_share *sh, unsigned long long len,
       unsigned long long share, unsigned long long *held)
{
	char err[512];
	int rc = audit_share_charge(sh, len, share, held, err, sizeof err);

	ck_assert_msg(rc >= 0, "%s", err);
	return rc;
}

/* A user's open recordings hold one share together, however many they
 * are; another user's share is their own; what a recording that closes
 * held is free again (its file stays: it no longer grows). */
START_TEST(test_shares_a_users_recordings_hold_one_share)
{
	struct audit_share a1, a2, b;
	unsigned long long held;
	char path[300];
	struct stat st;

	make_dir();
	share_open(&a1, 1001);
	share_open(&a2, 1001);
	share_open(&b, 1002);
	ck_assert_int_eq(charge(&a1, 600, 1000, &held), 0);
	ck_assert_uint_eq(held, 0);
	ck_assert_int_eq(charge(&a2, 400, 1000, &held), 0);
	ck_assert_uint_eq(held, 600);
	/* the share is full: neither session may write one byte more */
	ck_assert_int_eq(charge(&a2, 1, 1000, &held), 1);
	ck_assert_uint_eq(held, 1000);
	ck_assert_int_eq(charge(&a1, 1, 1000, &held), 1);
	/* bob's share is bob's */
	ck_assert_int_eq(charge(&b, 1000, 1000, &held), 0);
	ck_assert_uint_eq(held, 0);
	/* alice's first recording closes: its 600 are free */
	audit_share_close(&a1);
	ck_assert_int_eq(a1.fd, -1);
	ck_assert_int_eq(charge(&a2, 600, 1000, &held), 0);
	ck_assert_uint_eq(held, 400);
	audit_share_close(&a2);
	audit_share_close(&b);
	audit_share_close(&b); /* twice: nothing to do */
	snprintf(path, sizeof path, "%s/" SHARES, dir);
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	ck_assert_int_eq(st.st_size, AUDIT_SHARE_SLOTS * 16);
	remove_dir();
}
END_TEST

/* A writer that is gone - it crashed, or was killed - without freeing its
 * slot: the kernel dropped its slot's lock, so the next charge of its
 * user frees it, and what it held counts no more. */
START_TEST(test_shares_a_writer_gone_frees_its_slot)
{
	struct audit_share a;
	unsigned long long held;
	int ready[2], st;
	pid_t pid;
	char c;

	make_dir();
	ck_assert_int_eq(pipe(ready), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct audit_share dead;
		unsigned long long h;
		char err[256];

		if (audit_share_open(&dead, dir, 1001, err, sizeof err) != 0 ||
		    audit_share_charge(&dead, 900, 1000, &h, err,
				       sizeof err) != 0)
			_exit(1);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		pause(); /* killed here, its slot never freed */
		_exit(2);
	}
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	/* while it lives, its 900 count */
	share_open(&a, 1001);
	ck_assert_int_eq(charge(&a, 200, 1000, &held), 1);
	ck_assert_uint_eq(held, 900);
	ck_assert_int_eq(kill(pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFSIGNALED(st));
	/* gone: its slot is freed by this charge */
	ck_assert_int_eq(charge(&a, 1000, 1000, &held), 0);
	ck_assert_uint_eq(held, 0);
	audit_share_close(&a);
	close(ready[0]);
	close(ready[1]);
	remove_dir();
}
END_TEST

/* Many writers at once, one process each as the audit writers are: eight
 * of one user's recordings charging 4 KiB at a time until refused hold
 * together exactly the share, never more; another user's recording
 * writing meanwhile is never refused within its own share. */
START_TEST(test_shares_many_writers_at_once_never_pass_the_share)
{
	enum { WRITERS = 8, CHUNK = 4096 };
	const unsigned long long share = 1ull << 20;
	unsigned long long total = 0, n;
	int done[2], go[2], st, i;
	pid_t pid[WRITERS + 1];

	make_dir();
	ck_assert_int_eq(pipe(done), 0);
	ck_assert_int_eq(pipe(go), 0);
	for (i = 0; i <= WRITERS; i++) {
		pid[i] = fork();
		ck_assert_int_ge(pid[i], 0);
		if (pid[i] == 0) {
			struct audit_share sh;
			unsigned long long h, mine = 0;
			char err[256], c;
			uid_t user = i < WRITERS ? 1001 : 1002;
			int rc = 0;

			(void)close(go[1]);
			if (audit_share_open(&sh, dir, user, err,
					     sizeof err) != 0)
				_exit(2);
			/* bob writes half his share, alice's until refused */
			while (rc == 0 && (user == 1001 || mine < share / 2)) {
				rc = audit_share_charge(&sh, CHUNK, share, &h,
							err, sizeof err);
				if (rc == 0)
					mine += CHUNK;
			}
			if (rc < 0 || (user == 1002 && rc != 0))
				_exit(3);
			if (user == 1001 &&
			    write(done[1], &mine, sizeof mine) != sizeof mine)
				_exit(4);
			/* open until every writer is done: what it holds
			 * counts for the others all along */
			if (read(go[0], &c, 1) != 0)
				_exit(5);
			audit_share_close(&sh);
			_exit(0);
		}
	}
	(void)close(go[0]);
	for (i = 0; i < WRITERS; i++) {
		ck_assert_int_eq(read(done[0], &n, sizeof n), sizeof n);
		total += n;
	}
	(void)close(go[1]); /* every writer may close now */
	for (i = 0; i <= WRITERS; i++) {
		ck_assert_int_eq(waitpid(pid[i], &st, 0), pid[i]);
		ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
			      "writer %d: status %d", i, st);
	}
	ck_assert_uint_eq(total, share);
	(void)close(done[0]);
	(void)close(done[1]);
	remove_dir();
}
END_TEST

/* One user holds at most 64 slots (open recordings): the 65th session
 * of theirs is refused, another user's is not; a refused open holds
 * nothing. */
START_TEST(test_shares_a_user_holds_at_most_64_slots)
{
	static struct audit_share sh[AUDIT_SHARE_USER_SLOTS + 1];
	struct audit_share other, more;
	char err[512];
	int i;

	make_dir();
	for (i = 0; i < AUDIT_SHARE_USER_SLOTS; i++)
		share_open(&sh[i], 1001);
	ck_assert_int_eq(audit_share_open(&more, dir, 1001, err, sizeof err),
			 -1);
	ck_assert_int_eq(more.fd, -1);
	ck_assert_msg(strstr(err, "uid 1001 has 64 recorded sessions open, "
				  "the most one user may") != NULL,
		      "%s", err);
	share_open(&other, 1002);
	audit_share_close(&other);
	audit_share_close(&sh[0]);
	share_open(&sh[0], 1001); /* a slot freed is a slot again */
	for (i = 0; i < AUDIT_SHARE_USER_SLOTS; i++)
		audit_share_close(&sh[i]);
	remove_dir();
}
END_TEST

/* A shares' file that cannot be kept refuses, and says why: no recording
 * grows uncounted.  A file made short (a writer stopped while making it)
 * is made whole. */
START_TEST(test_shares_a_file_that_cannot_be_kept_refuses)
{
	static const char zeros[100];
	struct audit_share sh;
	unsigned long long held;
	char path[300], err[512], big[AUDIT_SHARE_SLOTS * 16 + 1];
	struct stat st;
	int fd;

	make_dir();
	snprintf(path, sizeof path, "%s/" SHARES, dir);
	/* a folder; a link; another owner's; readable by others */
	ck_assert_int_eq(mkdir(path, 0700), 0);
	ck_assert_int_eq(audit_share_open(&sh, dir, 1001, err, sizeof err),
			 -1);
	ck_assert_int_eq(rmdir(path), 0);
	ck_assert_int_eq(symlink("/etc/passwd", path), 0);
	ck_assert_int_eq(audit_share_open(&sh, dir, 1001, err, sizeof err),
			 -1);
	ck_assert_int_eq(unlink(path), 0);
	pts_write_file(path, "", 0644);
	ck_assert_int_eq(audit_share_open(&sh, dir, 1001, err, sizeof err),
			 -1);
	ck_assert_msg(strstr(err, "not a file of the audit account's, 0600"),
		      "%s", err);
	/* another file linked here (the account's state, say) */
	{
		char other[300];

		snprintf(other, sizeof other, "%s/other", dir);
		pts_write_file(other, "", 0600);
		ck_assert_int_eq(unlink(path), 0);
		ck_assert_int_eq(link(other, path), 0);
		ck_assert_int_eq(audit_share_open(&sh, dir, 1001, err,
						  sizeof err),
				 -1);
		ck_assert_msg(strstr(err, "with one link") != NULL, "%s",
			      err);
		ck_assert_int_eq(unlink(other), 0);
	}
	ck_assert_int_eq(chmod(path, 0600), 0);
	ck_assert_int_eq(chown(path, 65534, 65534), 0);
	ck_assert_int_eq(audit_share_open(&sh, dir, 1001, err, sizeof err),
			 -1);
	ck_assert_int_eq(unlink(path), 0);
	/* longer than its slots: not ours */
	memset(big, 0, sizeof big);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, big, sizeof big), (ssize_t)sizeof big);
	close(fd);
	ck_assert_int_eq(audit_share_open(&sh, dir, 1001, err, sizeof err),
			 -1);
	ck_assert_msg(strstr(err, "longer than its slots") != NULL, "%s", err);
	ck_assert_int_eq(unlink(path), 0);
	/* short: made whole */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, zeros, sizeof zeros), (ssize_t)sizeof zeros);
	close(fd);
	share_open(&sh, 1001);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_size, AUDIT_SHARE_SLOTS * 16);
	/* its slot changed under it (the file replaced): refused */
	fd = open(path, O_WRONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, big, AUDIT_SHARE_SLOTS * 16, 0),
			 AUDIT_SHARE_SLOTS * 16);
	close(fd);
	ck_assert_int_eq(audit_share_charge(&sh, 1, 1000, &held, err,
					    sizeof err),
			 -1);
	ck_assert_msg(strstr(err, "was changed") != NULL, "%s", err);
	audit_share_close(&sh);
	remove_dir();
}
END_TEST

/* ── The program ─────────────────────────────────────────────────────── */

static const char policy_text[] =
    ".decl safe(c)\n"
    "safe(\"echo\"). safe(\"true\"). safe(\"cat\").\n"
    "allow(C) :- command(C), safe(C), not(shell_metachar(_)).\n"
    "deny(C, \"not on the list\") :- command(C), not(safe(C)).\n"
    "allow_exec(P) :- exec_path(P).\n";

static struct pts_world world;
static char config[600], log_path[600], rdir[600], big[600];

/* A world with a policy, a key, an audit log, a recording folder (root's,
 * 0700) on a tmpfs of `size` of this test's own mount namespace (Check
 * forked it: the mount goes with it), a configuration naming them with
 * `extra` lines, and a file of printable lines to print.  false (and a
 * SKIP line) when there is no mount to be had. */
static bool
setup(const char *size, const char *extra)
{
	char text[4096], policy[600], key[600], opts[64];
	FILE *f;
	size_t i;

	if (geteuid() != 0) {
		printf("*** SKIP: a small file system needs root ***\n");
		return false;
	}
	pts_world_make(&world);
	snprintf(policy, sizeof policy, "%s/p.dl", world.dir);
	pts_write_file(policy, policy_text, 0644);
	snprintf(key, sizeof key, "%s/audit.key", world.dir);
	pts_write_audit_key(key);
	snprintf(log_path, sizeof log_path, "%s/audit.log", world.dir);
	snprintf(rdir, sizeof rdir, "%s/sessions", world.dir);
	ck_assert_int_eq(mkdir(rdir, 0700), 0);
	snprintf(config, sizeof config, "%s/maelys-pty.conf", world.dir);
	snprintf(text, sizeof text,
		 "policy = %s\npath = %s\naudit_log = %s\naudit_key = %s\n"
		 "syslog = off\nrecord = %s\n%s",
		 policy, world.path_env, log_path, key, rdir, extra);
	pts_write_file(config, text, 0644);
	snprintf(big, sizeof big, "%s/big.txt", world.dir);
	f = fopen(big, "w");
	ck_assert_ptr_nonnull(f);
	for (i = 0; i < (12u << 20) / 64; i++)
		fprintf(f, "%062zu\n", i);
	fclose(f);
	ck_assert_int_eq(chmod(big, 0644), 0);
	snprintf(opts, sizeof opts, "size=%s,mode=0700", size);
	if (unshare(CLONE_NEWNS) != 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    mount("tmpfs", rdir, "tmpfs", 0, opts) != 0) {
		printf("*** SKIP: no tmpfs mount here ***\n");
		pts_world_remove(&world);
		return false;
	}
	return true;
}

static void
teardown(void)
{
	ck_assert_int_eq(umount(rdir), 0);
	pts_world_remove(&world);
}

static unsigned long long
free_bytes(void)
{
	struct statvfs vfs;

	ck_assert_int_eq(statvfs(rdir, &vfs), 0);
	return (unsigned long long)vfs.f_bavail * vfs.f_frsize;
}

/* One session: `cat` of the big file, which the recording does not hold
 * whole; it must say that the recording stopped, or, with `may_refuse`,
 * the session may not start for want of room (said at its start).  Then
 * Ctrl-D. */
static void
session_that_prints(bool may_refuse)
{
	char line[700];
	struct pts p;

	pts_start_config(&p, &world, config);
	if (!pts_wait_prompt(&p, T)) {
		ck_assert_msg(may_refuse &&
				  strstr(p.out, "so it does not start") != NULL &&
				  strstr(p.out, "down to its reserve") != NULL,
			      "%s", p.out);
		pts_wait(&p, T);
		pts_close(&p);
		return;
	}
	snprintf(line, sizeof line, "cat %s\r", big);
	pts_type(&p, line);
	ck_assert_msg(pts_expect(&p, "recording of this session has stopped",
				 3 * T),
		      "%s", p.out);
	ck_assert(pts_wait_prompt(&p, 3 * T));
	pts_type(&p, "\x04");
	pts_wait(&p, T);
	pts_close(&p);
}

/* A session that prints without end stops at its user's share - an
 * eighth of the file system by default, 1 MiB of 8 MiB here - with the
 * record that says so, and the file system keeps the rest. */
START_TEST(test_shares_a_session_printing_without_end_stops_at_its_share)
{
	char *log;

	if (!setup("8m", ""))
		return;
	session_that_prints(false);
	log = pts_slurp(log_path);
	ck_assert_msg(strstr(log, "open recordings are at their share of the "
				  "recordings' file system (record_share 1024 "
				  "KiB)") != NULL,
		      "%s", log);
	free(log);
	/* 8 MiB less the share, the log's folder is not here */
	ck_assert_msg(free_bytes() >= (6ull << 20), "%llu bytes left",
		      free_bytes());
	teardown();
}
END_TEST

/* Once the file system is down to its reserve (a quarter of it, 2 MiB of
 * 8 here), a user writes into it at most a quarter of it over all their
 * sessions: the first session that reaches it stops there, and each later
 * one stops as soon as it prints (or, when what is left of the user's
 * quarter cannot hold its header, does not start, and says why); the
 * reserve keeps the rest for the others.  (A large record_share, so that
 * the share does not stop the sessions first.) */
START_TEST(test_shares_reserve_is_counted_per_user)
{
	char reserve[700], *log;
	struct stat st;
	int i;

	if (!setup("8m", "record_share = 64M\n"))
		return;
	session_that_prints(false);
	log = pts_slurp(log_path);
	ck_assert_msg(strstr(log, "its file system is down to its reserve") !=
			  NULL,
		      "%s", log);
	free(log);
	for (i = 0; i < 4; i++)
		session_that_prints(true);
	/* the reserve less the user's quarter, the shares' files, and what
	 * a page or two of the file system round up */
	ck_assert_msg(free_bytes() >= (1ull << 20), "%llu bytes left",
		      free_bytes());
	snprintf(reserve, sizeof reserve, "%s/.recordings.reserve", rdir);
	ck_assert_int_eq(lstat(reserve, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	teardown();
}
END_TEST

/* record_share: a size with the bounds of record_max; absent, 0 (an
 * eighth of the file system, which only the writer can measure). */
START_TEST(test_shares_configuration_key)
{
	static const struct {
		const char *text, *error;
		unsigned long long share;
	} cases[] = {
	    {"", NULL, 0},
	    {"record_share = 2M\n", NULL, 2ull << 20},
	    {"record_share = 1G\n", NULL, 1ull << 30},
	    {"record_share = 512K\n", "is out of range (1M to 64G)", 0},
	    {"record_share = 65G\n", "is out of range (1M to 64G)", 0},
	    {"record_share = lots\n", "is not a size", 0},
	    {"record_share = 2M\nrecord_share = 3M\n", "record_share", 0},
	};
	struct pty_config c;
	char path[700], text[4000], err[512], policy[700];
	size_t i;

	pts_world_make(&world);
	snprintf(policy, sizeof policy, "%s/p.dl", world.dir);
	pts_write_file(policy, policy_text, 0644);
	snprintf(path, sizeof path, "%s/k.conf", world.dir);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(text, sizeof text, "policy = %s\n%s", policy,
			 cases[i].text);
		pts_write_file(path, text, 0644);
		if (cases[i].error == NULL) {
			ck_assert_msg(pty_config_load(path, &c, err,
						      sizeof err) == 0,
				      "%s: %s", cases[i].text, err);
			ck_assert_uint_eq(c.record_share, cases[i].share);
		} else {
			ck_assert_int_eq(
			    pty_config_load(path, &c, err, sizeof err), -1);
			ck_assert_msg(strstr(err, cases[i].error) != NULL,
				      "%s: %s", cases[i].text, err);
		}
	}
	pts_world_remove(&world);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("shares");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_shares_arithmetic);
	tcase_add_test(tc, test_shares_a_users_recordings_hold_one_share);
	tcase_add_test(tc, test_shares_a_writer_gone_frees_its_slot);
	tcase_add_test(tc,
		       test_shares_many_writers_at_once_never_pass_the_share);
	tcase_add_test(tc, test_shares_a_user_holds_at_most_64_slots);
	tcase_add_test(tc, test_shares_a_file_that_cannot_be_kept_refuses);
	tcase_add_test(
	    tc, test_shares_a_session_printing_without_end_stops_at_its_share);
	tcase_add_test(tc, test_shares_reserve_is_counted_per_user);
	tcase_add_test(tc, test_shares_configuration_key);
	suite_add_tcase(s, tc);
	return s;
}
