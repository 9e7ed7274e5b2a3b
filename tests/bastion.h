/* SPDX-License-Identifier: MIT */
/*
 * The product as it is deployed on an ssh bastion, for the end-to-end tests
 * that need the real thing (check_pty_deployed.c, check_pty_attacks.c,
 * check_pty_operator.c, check_pty_redteam.c): the source tree built
 * and installed into a prefix of its own, maelys-pty-setup run on it, a
 * configuration in the prefix (never the machine's /etc/maelys-pty), test
 * users whose login shell is the installed guard, a real OpenSSH server on
 * 127.0.0.1, and the clients and the audit log as an administrator sees
 * them.  Needs root: it adds users and starts sshd.
 *
 * Where things live:
 *   /var/tmp/maelys-pty-deployed.<hash of the source root>/
 *       build/   the plain meson build of the source tree (no sanitizers,
 *                -Dtests=disabled), kept between runs and rebuilt
 *                incrementally; shared by a plain and a sanitizer run of
 *                the same tree, which take turns (the lock, below)
 *       prefix/  what `meson install` put there, then maelys-pty-setup:
 *                bin/maelys-pty, sbin/maelys-pty-setup,
 *                share/maelys-pty/policies/, etc/maelys-pty/ (the
 *                configuration and the key), var/log/maelys-pty/ (the log)
 *       source   the tree's path: the folder of a tree that is gone (a CI
 *                clone) is removed by the next run
 *   /var/tmp/maelys-pty-deployed.lock
 *                held from bastion_up to bastion_down: the users, their
 *                group and the ports are the machine's, so two runs (of one
 *                tree or two) take turns, waiting up to 10 minutes
 *   /tmp/maelys-pty-bastion.XXXXXX/ (one per bastion_up, root's 0700)
 *       sshd_config, the host key, sshd.pid, sshd.log, each user's client
 *       key, and whatever a test downloads
 * /var/tmp and /tmp are root's sticky folders, which the guard accepts
 * above its configuration; everything else on the way is root's 0755.
 *
 * Every command runs with a deadline; a hung build, sshd or client fails
 * the test that waits for it.
 */
#ifndef MAELYS_TESTS_BASTION_H
#define MAELYS_TESTS_BASTION_H

#include "pty_harness.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define BASTION_USERS_MAX  4
#define BASTION_GROUPS_MAX 16

/* The deployed suites' two users, and the parts of an audit record their
 * tests look for (bastion_log_count and below). */
#define ALICE "mpty-alice"
#define BOB   "mpty-bob"

#define EV(e)   "\"event\":\"" e "\""
#define DEC(d)  "\"decision\":\"" d "\""
#define LINE(l) "\"line\":\"" l "\""
#define PATH(p) "\"exec_path\":\"" p "\""
#define MODE(m) "\"mode\":\"" m "\""

/* Seconds on the monotonic clock, for deadlines and the time a test took. */
double bastion_now(void);

/* A test user: an unprivileged account whose login shell is the installed
 * guard, with an ed25519 key for the client (root's) in its
 * authorized_keys. */
struct bastion_user {
	char name[32];
	uid_t uid;
	gid_t gid;
	gid_t groups[BASTION_GROUPS_MAX]; /* supplementary, from the group db */
	int ngroups;
	char home[256];
	char key[512]; /* the client's private key */
};

struct bastion {
	/* the installation (bastion_install) */
	char state[256];  /* /var/tmp/maelys-pty-deployed.<hash> */
	char build[300];  /* state/build */
	char prefix[300]; /* state/prefix */
	char guard[400];  /* prefix/bin/maelys-pty, the users' login shell */
	char setup[400];  /* prefix/sbin/maelys-pty-setup */
	char config[400]; /* prefix/etc/maelys-pty/maelys-pty.conf */
	char policy[400]; /* the installed bastion.dl */
	char logdir[400]; /* prefix/var/log/maelys-pty */
	char log[450];    /* logdir/audit.log */
	char key[400];    /* prefix/etc/maelys-pty/audit.key */
	/* this run (bastion_up) */
	int lock_fd;    /* the machine-wide lock, -1 when not held */
	char run[256];  /* /tmp/maelys-pty-bastion.XXXXXX, "" when none */
	char group[32]; /* the group of sshd_config's Match block */
	bool group_made;
	struct bastion_user users[BASTION_USERS_MAX];
	int nusers;
	pid_t sshd; /* the listening sshd, 0 when none */
	int port;
	char sshd_log[300];
};

/* Exits 77 (meson SKIP) with a loud line naming `suite` unless root. */
void bastion_require_root(const char *suite);
/* The fixture of a deployed suite: bastion_require_root(suite), then
 * bastion_up with the two users below. */
void bastion_up_suite(struct bastion *b, const char *suite);

/* The whole deployment, as an unchecked fixture wants it: install (below),
 * the group of the Match block, the users `names` (NULL-terminated), sshd.
 * Prints how long each step took.  On any failure it undoes what it did
 * and fails the fixture with the reason (a failed unchecked setup gets no
 * teardown from Check). */
void bastion_up(struct bastion *b, const char *const names[]);
/* Undoes bastion_up: sshd stopped, every process of the users killed, the
 * users and their homes removed, the group and the run folder removed,
 * the lock released.  Safe on a partial bastion and to call twice. */
void bastion_down(struct bastion *b);

/* The steps of bastion_up, for a fixture that wants another shape.  Each
 * returns 0, or -1 with the reason in why. */
/* Takes the machine-wide lock (first: the steps below assume it). */
int bastion_lock(struct bastion *b, char *why, size_t whylen);
/* Builds the source tree (MAELYS_SOURCE_ROOT) into the state folder,
 * installs it, runs the installed maelys-pty-setup with the guard, a fresh
 * log folder and a fresh key, writes the default configuration. */
int bastion_install(struct bastion *b, char *why, size_t whylen);
/* Adds a user (removing first one of that name a previous run left),
 * member of the Match block's group. */
int bastion_user_add(struct bastion *b, const char *name, char *why,
		     size_t whylen);
int bastion_user_remove(struct bastion *b, const char *name, char *why,
			size_t whylen);
/* Starts sshd in the foreground on a free port of 127.0.0.1 and waits until
 * it accepts connections; it dies with this process if this one dies. */
int bastion_sshd_start(struct bastion *b, char *why, size_t whylen);
void bastion_sshd_stop(struct bastion *b);

/* The configuration sessions read: the policy (NULL: the installed
 * bastion.dl), the audit log and key, landlock = required, syslog = off,
 * PATH as the shipped template has it, then `extra` lines (may be NULL).
 * Fails the test if it cannot be written. */
void bastion_configure(const struct bastion *b, const char *policy,
		       const char *extra);
/* Installs `text` as policy `name` next to bastion.dl (root's, 0644) and
 * returns its path (static storage, until the next call). */
const char *bastion_policy_install(const struct bastion *b, const char *name,
				   const char *text);

/* A test user by name (fails the test if there is none). */
const struct bastion_user *bastion_user(const struct bastion *b,
					const char *name);
/* Writes text to `rel` in the user's home, owned by the user (mode as
 * given); returns the full path (static storage, until the next call). */
const char *bastion_home_file(const struct bastion *b, const char *name,
			      const char *rel, const char *text, mode_t mode);

/* The client side, as root, with the user's key and nothing from root's
 * own ssh configuration (-F /dev/null, no known hosts, BatchMode). */
/* `ssh -tt` on a pseudo-terminal: an interactive login of the user (a
 * terminal of 24 rows and 80 columns, or rows x cols: the size the client
 * asks the server's terminal to have). */
void bastion_ssh_tt(const struct bastion *b, struct pts *p, const char *name);
void bastion_ssh_tt_size(const struct bastion *b, struct pts *p,
			 const char *name, int rows, int cols);
/* `ssh host COMMAND` (no remote terminal: sshd gives the command pipes)
 * started on a pseudo-terminal, not waited for (pts_wait, pts_close). */
void bastion_ssh_spawn(const struct bastion *b, struct pts *p,
		       const char *name, const char *command);
/* `ssh host COMMAND` without a terminal; the client's exit status (-1: it
 * did not finish in timeout_ms), its stdout and stderr in out/err (the
 * caller frees them; either may be NULL: not kept). */
int bastion_ssh(const struct bastion *b, const char *name, const char *command,
		int timeout_ms, char **out, char **err);
/* scp, sftp or rsync, whose first word is `tool`, with the ssh options
 * this bastion needs spliced in after it and `args` (NULL-terminated)
 * after them; a remote path is written bastion_remote(b, name, path). */
int bastion_client(const struct bastion *b, const char *name, const char *tool,
		   const char *const args[], int timeout_ms, char **out,
		   char **err);
/* "user@127.0.0.1:path" (static storage, four at a time). */
const char *bastion_remote(const struct bastion *b, const char *name,
			   const char *path);
/* A fresh file name in the run folder (static storage, four at a time). */
const char *bastion_run_path(const struct bastion *b, const char *rel);

/* As the user, outside any session (what `setpriv --reuid U --regid G
 * --init-groups` does, in the user's home, environment HOME USER LOGNAME
 * PATH LANG): without a terminal and bounded like bastion_ssh, or started
 * on a pseudo-terminal (pts_close ends it). */
int bastion_run_as(const struct bastion *b, const char *name,
		   char *const argv[], int timeout_ms, char **out, char **err);
void bastion_spawn_as(const struct bastion *b, struct pts *p, const char *name,
		      char *const argv[]);

/* The audit log, read as root: its size now (a mark; a test counts what
 * comes after it), how many records after `mark` contain every one of the
 * needles (NULL-terminated), and `maelys-pty --verify-log` of it by the
 * installed guard (status; report in out/err). */
size_t bastion_log_mark(const struct bastion *b);
int bastion_log_count(const struct bastion *b, size_t mark,
		      const char *const needles[]);
int bastion_verify_log(const struct bastion *b, char **out, char **err);

/* ── For the attack tests (check_pty_attacks.c, check_pty_redteam.c) ──── */

/* bastion_configure with the sessions' PATH given (the tests' tools by
 * name). */
void bastion_configure_path(const struct bastion *b, const char *policy,
			    const char *path, const char *extra);
/* The folder of the tests' own programs, prefix/libexec/maelys-pty-tests
 * (root's 0755, like every folder above it: no test user can change what
 * runs from there, so the guard's exec walk accepts it). */
const char *bastion_tool_dir(const struct bastion *b);
/* Installs a program there, root's and 0755: a copy of the file `src`, or
 * `text` when src is NULL.  Returns its path (static storage, until the
 * next call).  Fails the test if it cannot. */
const char *bastion_tool(const struct bastion *b, const char *name,
			 const char *src, const char *text);

/* The attack suites' programs (check_pty_attacks.c, check_pty_redteam.c),
 * installed by bastion_tools_install into the tests' folder, and the
 * sessions' PATH that starts there.  Fails the test if it cannot. */
struct bastion_tools {
	/* tests/exec_probe, as exec_probe */
	char probe[PATH_MAX];
	/* a copy of touch, which the attack policy refuses */
	char forbidden[PATH_MAX];
	/* by-shebang: a #! script naming forbidden */
	char shebang[PATH_MAX];
	/* the tests' folder, then /usr/bin:/bin */
	char path[PATH_MAX + 64];
	/* this machine's dynamic loader */
	char loader[PATH_MAX];
};
void bastion_tools_install(const struct bastion *b, struct bastion_tools *t);
/* Configures the attack policy, with PATH t->path: every line ("hello"
 * only once confirmed), every program but t->forbidden, refused by its
 * path (a deny-list, so that only the exec decision stands between a user
 * and it).  With landlock the exec locations are /usr/bin, /usr/lib and
 * the tests' folder (forbidden included) and landlock = required;
 * without, landlock = auto and no exec location. */
void bastion_use_attack_policy(const struct bastion *b,
			       const struct bastion_tools *t, bool landlock);
/* Removes `rel` from the user's home, a folder with all it holds (not
 * there: nothing to do). */
void bastion_home_remove(const struct bastion *b, const char *name,
			 const char *rel);

/* The processes of a user (real or effective uid; zombies aside): how
 * many, the first max of them in pids.  bastion_user_kill kills them all,
 * at once (kill(-1) as the user: not even a process that keeps forking
 * away escapes), and waits (at most 10 s) until they are gone. */
int bastion_user_pids(const struct bastion *b, const char *name, pid_t *pids,
		      int max);
void bastion_user_kill(const struct bastion *b, const char *name);
/* The user's guards: processes running the installed guard with the
 * user's real uid (one a session).  The audit writer of a guard: its
 * child running the guard under another uid (the audit account), or 0. */
int bastion_guard_pids(const struct bastion *b, const char *name, pid_t *pids,
		       int max);
pid_t bastion_writer_pid(const struct bastion *b, pid_t guard);
/* One system call as the user (a child with the user's uid, gid and
 * groups): open(2) of path with flags, kill(2) of pid with sig.  Returns
 * 0, or the errno it failed with. */
int bastion_open_as(const struct bastion *b, const char *name, const char *path,
		    int flags);
int bastion_kill_as(const struct bastion *b, const char *name, pid_t pid,
		    int sig);
/* The installed guard run as root with argv (--check ...), bounded like
 * bastion_ssh. */
int bastion_guard_run(const struct bastion *b, char *const argv[],
		      int timeout_ms, char **out, char **err);

/* ── Helpers of the item tests ─────────────────────────────────────────── */

/* A path in the user's home (static storage, four at a time); a folder
 * there, made the user's (0755) if it is not there. */
const char *bastion_home(const struct bastion *b, const char *name,
			 const char *rel);
const char *bastion_home_dir(const struct bastion *b, const char *name,
			     const char *rel);

/* One kind of record a test caused, and how many times. */
struct bastion_rec {
	int n;
	const char *needles[5]; /* NULL-terminated */
};
/* The end of the log after `mark` (its last 3000 bytes), for a message;
 * the caller frees. */
char *bastion_log_tail(const struct bastion *b, size_t mark);
/* The records of user `name` after `mark` that hold every needle
 * (NULL-terminated, at most 5). */
int bastion_log_count_user(const struct bastion *b, size_t mark,
			   const char *name, const char *const needles[]);
/* Each kind of record as many times as given and, with `exact`, no other
 * record of the user; fails the test with the end of the log otherwise. */
void bastion_assert_records(const struct bastion *b, size_t mark,
			    const char *name, const struct bastion_rec *recs,
			    size_t nrecs, bool exact);
/* Waits (at most timeout_ms) until there are n such records. */
bool bastion_wait_records(const struct bastion *b, size_t mark,
			  const char *name, const char *const needles[], int n,
			  int timeout_ms);
/* --verify-log says the chain is intact, or the test fails. */
void bastion_assert_log_verifies(const struct bastion *b);

/* A session, each step bounded and failing the test with what the session
 * showed: text seen, the prompt, a login over ssh -tt to its first
 * prompt, a line typed and the next prompt, `exit STATUS` and the client
 * ending with it (then closed). */
void bastion_expect(struct pts *p, const char *who, const char *text,
		    int timeout_ms);
void bastion_expect_prompt(struct pts *p, const char *who, int timeout_ms);
void bastion_login(const struct bastion *b, struct pts *p, const char *name,
		   int timeout_ms);
void bastion_line(struct pts *p, const char *who, const char *text,
		  int timeout_ms);
void bastion_logout(struct pts *p, const char *who, int status, int timeout_ms);
/* The user's one guard (the test fails unless there is exactly one). */
pid_t bastion_only_guard(const struct bastion *b, const char *name);

/* Processes.  A file of /proc whole (its size says 0, so pts_slurp reads
 * nothing; "" when it cannot be read; the caller frees); the state letter
 * of /proc/PID/stat ('?' when it is gone) and a bounded wait for one; a
 * bounded wait for a file; the first process of the user's whose comm is
 * `comm`, waited for (0: none). */
char *bastion_proc_read(const char *path);
char bastion_proc_state(pid_t pid);
bool bastion_wait_state(pid_t pid, char state, int timeout_ms);
bool bastion_wait_file(const char *path, int timeout_ms);
pid_t bastion_wait_comm(const struct bastion *b, const char *name,
			const char *comm, int timeout_ms);
/* Waits (at most timeout_ms) until the user has no process left (zombies
 * aside); returns how many are, their command lines in `left`.  A scan of
 * /proc alone cannot say: a process that keeps forking away is never
 * where a scan reads it.  So once the scan sees none, every process of
 * the user is stopped at once (kill(-1, SIGSTOP) as the user, which the
 * kernel does for all together) and looked for again: stopped, none can
 * move.  What is found stays stopped (bastion_user_kill ends it). */
int bastion_wait_no_process(const struct bastion *b, const char *name,
			    int timeout_ms, char *left, size_t cap);

#endif /* MAELYS_TESTS_BASTION_H */
