/* SPDX-License-Identifier: MIT */
/*
 * A racer for the exec supervisor's end-to-end tests, run INSIDE a guarded
 * session as the user: code of the user's own that changes what an exec
 * names between the guard's check and the kernel's use of it.  Each try
 * forks a child whose other threads (one more than the CPUs it may use, at
 * most 8) flip, as fast as they can, one of the three things the kernel
 * reads again after the guard said yes, while its first thread executes:
 *
 *   exec_race [-m MARKER] [-h] path N ALLOWED TARGET
 *       the path in memory: a buffer rewritten between ALLOWED and TARGET,
 *       execve(buffer) (paths that differ in one byte, DIR_A/x and
 *       DIR_B/x, flip whole: the kernel never reads half of each)
 *   exec_race [-m MARKER] [-h] cwd N DIR_A DIR_B NAME
 *       the shared working directory: chdir(DIR_A) and chdir(DIR_B) in
 *       turn, execve(NAME) (relative)
 *   exec_race [-m MARKER] [-h] dirfd N DIR_A DIR_B NAME
 *       execveat's directory descriptor: dup2 of DIR_A's and of DIR_B's
 *       descriptors over it in turn, execveat(fd, NAME)
 *
 * The program is given argv ["x"] (a name no policy reads as anything)
 * and, with -m, RACE_MARKER=MARKER in its environment (tests/helpers/
 * exec_marker.c appends its pid there when it runs), with -h RACE_HOLD=1
 * too (it then waits to be killed).  How each child ended is counted and
 * printed on one line:
 *
 *   exec_race MODE: N tries, A allowed, T target, K killed, S survived,
 *   E eperm, C eacces, F enoent, O other
 *
 * allowed: exited 0 (the allowed program ran); target: exited 77 (the
 * marker program ran and was not held); killed: ended by SIGKILL (the
 * guard ends a process that runs another program than it allowed); a held
 * child still there after 20 s is ended with SIGTERM and counted
 * survived, and no more tries are made (N is then more than the tries
 * printed); the errno of an exec that failed (EPERM: the guard refused;
 * EACCES: the kernel's Landlock ruleset did; ENOENT: a path torn
 * mid-rewrite) else other.  Exit status 0, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RACE_TRIES_MAX 100000L
#define RACE_HOLD_S    20
/* how a child whose exec failed exits: RACE_FAILED + the errno's slot */
#define RACE_FAILED    100
#define RACE_TARGET    77 /* exec_marker's status when it is not held */
#define RACE_EPERM     (RACE_FAILED + 1)
#define RACE_EACCES    (RACE_FAILED + 2)
#define RACE_ENOENT    (RACE_FAILED + 3)
#define RACE_OTHER     (RACE_FAILED + 4)

enum race_mode { RACE_PATH, RACE_CWD, RACE_DIRFD };

struct race {
	enum race_mode mode;
	const char *a, *b, *name;
	size_t alen, blen;
	char *env[3];
	int fda, fdb, fd; /* dirfd: DIR_A's, DIR_B's, the one flipped */
	int flippers;     /* threads that flip */
	atomic_int started;
};

static char race_buf[PATH_MAX];

/* A byte at a time through a volatile pointer: the compiler may not turn
 * the two copies into one, nor skip either. */
static void
race_copy(const char *src, size_t len)
{
	volatile char *dst = race_buf;
	size_t i;

	for (i = 0; i <= len; i++)
		dst[i] = src[i];
}

static void *
race_flipper(void *arg)
{
	struct race *r = arg;

	atomic_fetch_add(&r->started, 1);
	for (;;) { /* until the exec (or _exit) ends this thread */
		switch (r->mode) {
		case RACE_PATH:
			race_copy(r->b, r->blen);
			race_copy(r->a, r->alen);
			break;
		case RACE_CWD:
			(void)chdir(r->b);
			(void)chdir(r->a);
			break;
		case RACE_DIRFD:
			(void)dup2(r->fdb, r->fd);
			(void)dup2(r->fda, r->fd);
			break;
		}
	}
	return NULL;
}

static void
race_child(struct race *r)
{
	char *argv[] = {"x", NULL};
	pthread_t t;
	int e, i;

	if (r->mode == RACE_PATH)
		race_copy(r->a, r->alen);
	else if (r->mode == RACE_CWD && chdir(r->a) != 0)
		_exit(RACE_OTHER);
	/* one flipper more than CPUs: the exec's thread, woken, takes a
	 * CPU from one of them, and the others flip on */
	for (i = 0; i < r->flippers; i++)
		if (pthread_create(&t, NULL, race_flipper, r) != 0)
			_exit(RACE_OTHER);
	while (atomic_load(&r->started) < r->flippers)
		;
	if (r->mode == RACE_PATH)
		execve(race_buf, argv, r->env);
	else if (r->mode == RACE_CWD)
		execve(r->name, argv, r->env);
	else
		syscall(SYS_execveat, r->fd, r->name, argv, r->env, 0);
	e = errno;
	_exit(e == EPERM    ? RACE_EPERM
	      : e == EACCES ? RACE_EACCES
	      : e == ENOENT ? RACE_ENOENT
			    : RACE_OTHER);
}

/* Waits for the child, ending a held one after RACE_HOLD_S seconds with
 * SIGTERM.  Returns its status. */
static int
race_wait(pid_t pid)
{
	struct timespec tick = {0, 1000 * 1000};
	time_t deadline = time(NULL) + RACE_HOLD_S;
	int st = 0;
	bool termed = false;

	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid)
			return st;
		if (w < 0 && errno != EINTR)
			return -1;
		if (!termed && time(NULL) > deadline) {
			(void)kill(pid, SIGTERM);
			termed = true;
		}
		(void)nanosleep(&tick, NULL);
	}
}

static int
race_usage(void)
{
	fprintf(stderr,
		"usage: exec_race [-m MARKER] [-h] path N ALLOWED TARGET\n"
		"       exec_race [-m MARKER] [-h] cwd|dirfd N DIR_A DIR_B "
		"NAME\n");
	return 2;
}

int
main(int argc, char **argv)
{
	static char marker_env[PATH_MAX + 16];
	long n, i, allowed = 0, target = 0, killed = 0, survived = 0;
	long eperm = 0, eacces = 0, enoent = 0, other = 0;
	struct race r;
	char *end;
	size_t ne = 0;
	int c;

	memset(&r, 0, sizeof r);
	r.fda = r.fdb = r.fd = -1;
	while ((c = getopt(argc, argv, "m:h")) != -1) {
		if (c == 'm') {
			(void)snprintf(marker_env, sizeof marker_env,
				       "RACE_MARKER=%s", optarg);
			r.env[ne++] = marker_env;
		} else if (c == 'h') {
			r.env[ne++] = "RACE_HOLD=1";
		} else {
			return race_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 4 || ne > 2)
		return race_usage();
	if (strcmp(argv[0], "path") == 0 && argc == 4)
		r.mode = RACE_PATH;
	else if (strcmp(argv[0], "cwd") == 0 && argc == 5)
		r.mode = RACE_CWD;
	else if (strcmp(argv[0], "dirfd") == 0 && argc == 5)
		r.mode = RACE_DIRFD;
	else
		return race_usage();
	errno = 0;
	n = strtol(argv[1], &end, 10);
	if (errno != 0 || *end != '\0' || n < 1 || n > RACE_TRIES_MAX)
		return race_usage();
	r.a = argv[2];
	r.b = argv[3];
	r.name = argc == 5 ? argv[4] : NULL;
	r.alen = strlen(r.a);
	r.blen = strlen(r.b);
	if (r.alen >= sizeof race_buf || r.blen >= sizeof race_buf)
		return race_usage();
	if (r.mode == RACE_DIRFD) {
		r.fda = open(r.a, O_PATH | O_DIRECTORY | O_CLOEXEC);
		r.fdb = open(r.b, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (r.fda < 0 || r.fdb < 0 || (r.fd = dup(r.fda)) < 0) {
			perror("exec_race: the folders");
			return 2;
		}
	}
	{
		cpu_set_t set;

		r.flippers = sched_getaffinity(0, sizeof set, &set) == 0
				 ? CPU_COUNT(&set) + 1
				 : 2;
		if (r.flippers > 8)
			r.flippers = 8;
	}
	fflush(stdout);
	for (i = 0; i < n && survived == 0; i++) {
		pid_t pid;
		int st;

		atomic_init(&r.started, 0);
		pid = fork();
		if (pid < 0) {
			other++;
			continue;
		}
		if (pid == 0)
			race_child(&r);
		st = race_wait(pid);
		if (st == -1)
			other++;
		else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
			killed++;
		else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM)
			survived++;
		else if (!WIFEXITED(st))
			other++;
		else if (WEXITSTATUS(st) == 0)
			allowed++;
		else if (WEXITSTATUS(st) == RACE_TARGET)
			target++;
		else if (WEXITSTATUS(st) == RACE_EPERM)
			eperm++;
		else if (WEXITSTATUS(st) == RACE_EACCES)
			eacces++;
		else if (WEXITSTATUS(st) == RACE_ENOENT)
			enoent++;
		else
			other++;
	}
	printf("exec_race %s: %ld tries, %ld allowed, %ld target, %ld "
	       "killed, %ld survived, %ld eperm, %ld eacces, %ld enoent, "
	       "%ld other\n",
	       argv[0], i, allowed, target, killed, survived, eperm, eacces,
	       enoent, other);
	return 0;
}
