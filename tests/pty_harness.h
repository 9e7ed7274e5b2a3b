/* SPDX-License-Identifier: MIT */
/*
 * Driving the real maelys-pty binary through a pseudo-terminal, as a user's
 * terminal would: spawn it on a fresh pty, type keys, wait for text to
 * appear, resize the window, hang up, collect the exit status.
 */
#ifndef MAELYS_PTY_HARNESS_H
#define MAELYS_PTY_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct pts {
	pid_t pid;
	int master;
	char *out; /* everything the program wrote, NUL-terminated */
	size_t len, cap;
	size_t mark; /* pts_expect searches from here */
	int status;  /* wait status once exited, else -1 */
};

/* A scratch directory for one test: bin/ with a fake `shutdown` (and
 * friends) that create marker files, and a HOME. */
struct pts_world {
	char dir[256];
	char bin[300];
	char home[300];
	char path_env[512]; /* bin:/usr/bin:/bin */
};

/* Writes text to path and sets its mode (fails the test otherwise). */
void pts_write_file(const char *path, const char *text, mode_t mode);

/* Makes an audit log's keys with maelys-pty --new-audit-key: the state
 * (0600) at `state` and the verification key audit.pub (0644) beside it,
 * where the configuration's audit_verify_key looks by default. */
void pts_write_audit_key(const char *state);

void pts_world_make(struct pts_world *w);
void pts_world_remove(struct pts_world *w);
/* Whether the fake program `name` ever ran in this world. */
bool pts_world_ran(const struct pts_world *w, const char *name);
/* Writes a policy file into the world and returns its path. */
const char *pts_world_policy(struct pts_world *w, const char *name,
			     const char *text);

/* Milliseconds on the monotonic clock, for deadlines. */
long pts_now_ms(void);

/* How many lines of `text` hold every one of the needles (NULL-
 * terminated): the records of an audit log a test looks for. */
int pts_count_lines(const char *text, const char *const needles[]);

/* Path of a built program (MAELYS_BUILD_ROOT/rel) and of a source file. */
const char *pts_build_path(const char *rel);
const char *pts_source_path(const char *rel);

/* Starts maelys-pty with `policy` in `w` on a rows x cols terminal. */
void pts_start(struct pts *p, const struct pts_world *w, const char *policy,
	       int rows, int cols);
/* Starts any argv on a pty (environment: TERM=dumb, HOME of w). */
void pts_spawn(struct pts *p, const struct pts_world *w, char *const argv[],
	       int rows, int cols);
void pts_type(struct pts *p, const char *keys);
void pts_type_n(struct pts *p, const char *keys, size_t n);
/* Reads output for up to timeout_ms until `needle` appears after the mark;
 * on success moves the mark past it. */
bool pts_expect(struct pts *p, const char *needle, int timeout_ms);
/* Reads whatever arrives for `ms` milliseconds. */
void pts_settle(struct pts *p, int ms);
/* Waits for the prompt (the guard's "$ " or "# " after a newline). */
bool pts_wait_prompt(struct pts *p, int timeout_ms);
void pts_resize(struct pts *p, int rows, int cols);
/* Waits for exit; returns the exit status (128+signal), -1 on timeout. */
int pts_wait(struct pts *p, int timeout_ms);
void pts_close(struct pts *p);

/* Runs argv without a terminal, stdin /dev/null; captures stdout and
 * stderr (NUL-terminated, caller frees); returns the exit status. */
int pts_run(char *const argv[], char *const envp[], char **out, char **err);
/* The same, running the program `path` with argv[0] as given (sshd runs a
 * login shell as "-name"). */
int pts_run_path(const char *path, char *const argv[], char *const envp[],
		 char **out, char **err);

/* Starts `path` on a pty with argv as given and env TERM=dumb + HOME. */
void pts_spawn_path(struct pts *p, const struct pts_world *w, const char *path,
		    char *const argv[], int rows, int cols);

/* A guard deployed with a configuration file (root's tests): the session
 * started on a pty with --config and a history in the world's HOME; one
 * -c COMMAND run as sshd would (argv[0] as given, SSH_ORIGINAL_COMMAND set
 * when ssh_cmd is not NULL), its status returned; --verify-log of a log. */
void pts_start_config(struct pts *p, const struct pts_world *w,
		      const char *config);
int pts_run_config(const struct pts_world *w, const char *config,
		   const char *argv0, const char *command, const char *ssh_cmd,
		   char **out, char **err);
int pts_verify_log(const char *config, const char *log, char **out, char **err);

/* For a suite whose every test needs root: without it, says SKIP loudly
 * and exits 77 (meson's SKIP).  Call it where Check has not forked yet (in
 * maelys_check_suite or an unchecked fixture): an exit inside a forked test
 * is an error to Check. */
void pts_require_root(const char *suite, const char *why);

/* Waits until process pid has neither read nor written anything (its
 * /proc/PID/io rchar and wchar) for quiet_ms: a program whose output
 * waits for a terminal that does not read.  False when it ended or did
 * not go quiet within timeout_ms. */
bool pts_wait_io_stops(pid_t pid, int quiet_ms, int timeout_ms);

/* The whole of a file, NUL-terminated (caller frees); "" if it is absent. */
char *pts_slurp(const char *path);

/* Prepares a child between fork and exec (a change of user, a directory):
 * system calls only, no allocation; non-zero makes the child exit 126
 * without running the program. */
typedef int (*pts_child_fn)(void *arg);

/* Starts `path` on a pty with argv and envp exactly as given, in_child (if
 * not NULL) run in the child first. */
void pts_spawn_env(struct pts *p, const char *path, char *const argv[],
		   char *const envp[], pts_child_fn in_child, void *arg,
		   int rows, int cols);
/* Runs `path` without a terminal (a session of its own, stdin /dev/null),
 * in_child first, and captures stdout and stderr (NUL-terminated, caller
 * frees) for at most timeout_ms.  Returns the exit status (128+signal), or
 * -1 when the deadline passed: then its whole process group is killed and
 * what it wrote so far is kept. */
int pts_run_bounded(const char *path, char *const argv[], char *const envp[],
		    pts_child_fn in_child, void *arg, int timeout_ms,
		    char **out, char **err);

#endif /* MAELYS_PTY_HARNESS_H */
