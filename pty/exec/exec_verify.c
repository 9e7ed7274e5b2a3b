/* SPDX-License-Identifier: MIT */
/*
 * What a process runs once an allowed exec is over, checked against what
 * was decided (pty_exec_verify.h says why and how).
 *
 * A check of an entry reads the process's executable: a stat of
 * /proc/PID/exe, between two looks at the process's pidfd, which say that
 * it was not reaped meanwhile (so the PID named it, not another process).
 * The guard holds no /proc descriptor: a process that ends takes its /proc
 * entries with it, at its own cost.
 *   - gone (ended, or made itself unreadable): the entry is dropped;
 *     nothing more can be known of it;
 *   - another file than before the exec: the exec is over.  The process
 *     must now run the executable of one of the execs it asked for from
 *     that image (two threads may exec at once; one wins, the kernel ends
 *     the others): if so, those entries are done; if not, it runs what
 *     nobody decided, and is ended;
 *   - the same file: the exec is not over, or it failed, or the program
 *     decided is the one it ran before.  For the last, a changed auxiliary
 *     vector (new at every exec: the stack's and the vDSO's places, which
 *     the kernel chooses at random) says the exec is over.  Otherwise the
 *     entry waits for the next look, the thread's next exec (its earlier
 *     one has then ended), or its minute.
 */
#define _GNU_SOURCE
#include "pty_exec_verify.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

/* The first look, the longest wait between two, and how long an entry
 * waits at most (ns); and how late the timer may come after a look is
 * due: a look due while execs are being decided is taken with the next
 * one (pty_exec_verify_due), so that a session that runs many programs is not
 * woken once more for each. */
#define VERIFY_FIRST_NS  (1000 * 1000ull)
#define VERIFY_SLACK_NS  (1000 * 1000ull)
#define VERIFY_MOST_NS   (500 * 1000 * 1000ull)
#define VERIFY_EXPIRE_NS (60 * 1000 * 1000 * 1000ull)

struct verify_entry {
	bool used;
	pid_t tid;  /* the thread that asked */
	pid_t tgid; /* its process */
	int pidfd;  /* the process, or -1 */
	/* its executable before the exec, and (when it is also the one
	 * decided) its auxiliary vector's digest */
	dev_t before_dev;
	ino_t before_ino;
	bool auxv_known;
	uint64_t auxv;
	/* the executable it must run after the exec */
	dev_t want_dev;
	ino_t want_ino;
	char path[PATH_MAX], request[PATH_MAX];
	uint64_t since, next, delay;
};

struct pty_exec_verify {
	int proc;  /* /proc, kept open by the caller */
	int timer; /* timerfd, armed for the earliest `next` */
	uint64_t armed;
	size_t n;   /* entries in use */
	size_t top; /* entries [0, top) may be in use */
	struct verify_entry e[PTY_EXEC_VERIFY_MAX];
};

static uint64_t
verify_now(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int
pty_exec_verify_open(struct pty_exec_verify **out, int proc, char *err,
		     size_t errlen)
{
	struct pty_exec_verify *v;
	size_t i;

	*out = NULL;
	v = calloc(1, sizeof *v);
	if (v == NULL) {
		(void)snprintf(err, errlen, "no memory for the exec checks");
		return -1;
	}
	v->proc = proc;
	for (i = 0; i < PTY_EXEC_VERIFY_MAX; i++)
		v->e[i].pidfd = -1;
	v->timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (v->timer < 0) {
		(void)snprintf(err, errlen, "the exec checks' timer: %s",
			       strerror(errno));
		free(v);
		return -1;
	}
	*out = v;
	return 0;
}

static void
verify_drop(struct pty_exec_verify *v, struct verify_entry *e)
{
	if (e->pidfd >= 0)
		(void)close(e->pidfd);
	e->used = false;
	e->pidfd = -1;
	v->n--;
	while (v->top > 0 && !v->e[v->top - 1].used)
		v->top--;
}

void
pty_exec_verify_close(struct pty_exec_verify *v)
{
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; i < v->top; i++)
		if (v->e[i].used)
			verify_drop(v, &v->e[i]);
	if (v->timer >= 0)
		(void)close(v->timer);
	free(v);
}

int
pty_exec_verify_fd(const struct pty_exec_verify *v)
{
	return v != NULL ? v->timer : -1;
}

size_t
pty_exec_verify_pending(const struct pty_exec_verify *v)
{
	return v != NULL ? v->n : 0;
}

/* The process of thread `tid`: its id from /proc/TID/status, or 0 when
 * that cannot be read. */
static pid_t
verify_tgid(pid_t tid)
{
	char path[64], buf[1024], *at;
	ssize_t n;
	long tgid;
	int fd;

	(void)snprintf(path, sizeof path, "/proc/%d/status", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof buf - 1);
	(void)close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	at = strstr(buf, "\nTgid:\t");
	if (at == NULL)
		return 0;
	errno = 0;
	tgid = strtol(at + 7, NULL, 10);
	return errno == 0 && tgid > 0 && tgid <= INT32_MAX ? (pid_t)tgid : 0;
}

/* Whether e's process has not ended (its pidfd is not readable). */
static bool
verify_alive(const struct verify_entry *e)
{
	struct pollfd p = {e->pidfd, POLLIN, 0};

	return poll(&p, 1, 0) == 0;
}

/* NAME of e's process's /proc directory: in *at and path, for a call
 * of the *at family. */
static void
verify_path(const struct pty_exec_verify *v, const struct verify_entry *e,
	    const char *name, int *at, char *path, size_t cap)
{
	*at = v->proc >= 0 ? v->proc : AT_FDCWD;
	(void)snprintf(path, cap, "%s%d/%s", v->proc >= 0 ? "" : "/proc/",
		       (int)e->tgid, name);
}

/* Opens NAME of e's process's /proc directory, or stats it (st not NULL):
 * the result of openat or fstatat, or -1. */
static int
verify_at(const struct pty_exec_verify *v, const struct verify_entry *e,
	  const char *name, struct stat *st)
{
	char path[64];
	int at;

	verify_path(v, e, name, &at, path, sizeof path);
	return st != NULL ? fstatat(at, path, st, 0)
			  : openat(at, path, O_RDONLY | O_CLOEXEC);
}

/* The executable of e's process, when it still runs: 0, else -1 (ended,
 * or unreadable). */
static int
verify_exe(const struct pty_exec_verify *v, const struct verify_entry *e,
	   struct stat *st)
{
	return verify_alive(e) && verify_at(v, e, "exe", st) == 0 &&
		       verify_alive(e)
		   ? 0
		   : -1;
}

/* A digest (FNV-1a, 64 bits) of the process's auxiliary vector; false when
 * it cannot be read. */
static bool
verify_auxv(const struct pty_exec_verify *v, const struct verify_entry *e,
	    uint64_t *out)
{
	unsigned char buf[2048];
	uint64_t h = 14695981039346656037ull;
	ssize_t n, i;
	int fd = verify_at(v, e, "auxv", NULL);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof buf);
	(void)close(fd);
	if (n <= 0 || !verify_alive(e))
		return false;
	for (i = 0; i < n; i++)
		h = (h ^ buf[i]) * 1099511628211ull;
	*out = h;
	return true;
}

/* The next free entry; the oldest is dropped when none is (said in *full). */
static struct verify_entry *
verify_slot(struct pty_exec_verify *v, bool *full)
{
	struct verify_entry *old = NULL;
	size_t i;

	*full = false;
	for (i = 0; i < PTY_EXEC_VERIFY_MAX; i++) {
		if (!v->e[i].used) {
			if (i >= v->top)
				v->top = i + 1;
			return &v->e[i];
		}
		if (old == NULL || v->e[i].since < old->since)
			old = &v->e[i];
	}
	*full = true;
	verify_drop(v, old);
	v->top = PTY_EXEC_VERIFY_MAX;
	return old;
}

/* Arms the timer for the earliest look. */
static void
verify_arm(struct pty_exec_verify *v)
{
	struct itimerspec it;
	uint64_t next = 0;
	size_t i;

	for (i = 0; i < v->top; i++)
		if (v->e[i].used && (next == 0 || v->e[i].next < next))
			next = v->e[i].next;
	/* with nothing pending the timer is left as it is: firing for
	 * nothing once costs less than disarming it after every exec */
	if (next == 0)
		return;
	next += VERIFY_SLACK_NS;
	if (next == v->armed)
		return;
	memset(&it, 0, sizeof it);
	it.it_value.tv_sec = (time_t)(next / 1000000000ull);
	it.it_value.tv_nsec = (long)(next % 1000000000ull);
	(void)timerfd_settime(v->timer, TFD_TIMER_ABSTIME, &it, NULL);
	v->armed = next;
}

/* Whether the entries e and f were made from the same image of one
 * process. */
static bool
verify_same_image(const struct verify_entry *e, const struct verify_entry *f)
{
	return f->used && f->tgid == e->tgid &&
	       f->before_dev == e->before_dev && f->before_ino == e->before_ino;
}

/* Ends e's process and says what it runs. */
static void
verify_mismatch(const struct pty_exec_verify *v, struct verify_entry *e,
		const struct stat *st, pty_exec_verify_found_fn fn, void *ctx)
{
	struct pty_exec_mismatch m;
	char path[64];
	ssize_t n;
	int at;

	memset(&m, 0, sizeof m);
	m.pid = e->tgid;
	m.path = e->path;
	m.request = e->request;
	m.dev = st->st_dev;
	m.ino = st->st_ino;
	verify_path(v, e, "exe", &at, path, sizeof path);
	n = readlinkat(at, path, m.ran, sizeof m.ran - 1);
	m.ran[n > 0 ? n : 0] = '\0';
	/* through the pidfd the end cannot reach another process */
	m.killed =
	    syscall(SYS_pidfd_send_signal, e->pidfd, SIGKILL, NULL, 0) == 0;
	if (!m.killed)
		m.ran[0] =
		    '\0'; /* ended meanwhile: the name may be another's */
	fn(ctx, &m);
}

/* Checks entry e now.  `asked`: its thread asks for another exec, so its
 * exec is over. */
static void
verify_check(struct pty_exec_verify *v, struct verify_entry *e, bool asked,
	     pty_exec_verify_found_fn fn, void *ctx)
{
	uint64_t now, auxv;
	struct stat st;
	size_t i;
	bool over, matched = false;

	if (verify_exe(v, e, &st) != 0) {
		/* ended, or unreadable: nothing more can be known */
		verify_drop(v, e);
		return;
	}
	over = asked || st.st_dev != e->before_dev ||
	       st.st_ino != e->before_ino ||
	       (e->auxv_known && verify_auxv(v, e, &auxv) && auxv != e->auxv);
	if (!over) {
		now = verify_now();
		if (now - e->since >= VERIFY_EXPIRE_NS) {
			verify_drop(v, e);
			return;
		}
		e->delay = e->delay * 2 < VERIFY_MOST_NS ? e->delay * 2
							 : VERIFY_MOST_NS;
		e->next = now + e->delay;
		return;
	}
	/* over: the image it runs is the one before (the exec failed), or
	 * what one of its execs from that image was allowed to run */
	if (st.st_dev == e->before_dev && st.st_ino == e->before_ino && asked) {
		verify_drop(v, e);
		return;
	}
	for (i = 0; i < v->top && !matched; i++)
		matched = verify_same_image(e, &v->e[i]) &&
			  v->e[i].want_dev == st.st_dev &&
			  v->e[i].want_ino == st.st_ino;
	if (!matched)
		verify_mismatch(v, e, &st, fn, ctx);
	for (i = 0; i < v->top; i++)
		if (&v->e[i] != e && verify_same_image(e, &v->e[i]))
			verify_drop(v, &v->e[i]);
	verify_drop(v, e);
}

bool
pty_exec_verify_expect(struct pty_exec_verify *v,
		       const struct pty_exec_verify_want *want,
		       pty_exec_verify_found_fn fn, void *ctx)
{
	struct verify_entry *e;
	struct stat st;
	size_t i;
	bool full;

	if (v == NULL)
		return false;
	e = verify_slot(v, &full);
	memset(e, 0, offsetof(struct verify_entry, path));
	e->pidfd = -1;
	e->used = true;
	v->n++;
	e->tid = want->tid;
	e->want_dev = want->dev;
	e->want_ino = want->ino;
	(void)snprintf(e->path, sizeof e->path, "%s", want->path);
	(void)snprintf(e->request, sizeof e->request, "%s",
		       want->request != NULL ? want->request : "");
	/* its process: a thread that is not the leader takes the leader's
	 * id when its exec succeeds, and pidfd_open refuses it (EINVAL) */
	e->tgid = e->tid;
	e->pidfd = (int)syscall(SYS_pidfd_open, e->tid, 0);
	if (e->pidfd < 0 && errno == EINVAL &&
	    (e->tgid = verify_tgid(e->tid)) > 0)
		e->pidfd = (int)syscall(SYS_pidfd_open, e->tgid, 0);
	/* without the image before there is nothing to tell the exec's
	 * end by: a process the guard cannot read (its reader refuses
	 * those), or one that is gone */
	if (e->pidfd < 0 || verify_exe(v, e, &st) != 0) {
		verify_drop(v, e);
		return full;
	}
	e->before_dev = st.st_dev;
	e->before_ino = st.st_ino;
	if (st.st_dev == e->want_dev && st.st_ino == e->want_ino)
		e->auxv_known = verify_auxv(v, e, &e->auxv);
	e->since = verify_now();
	e->delay = VERIFY_FIRST_NS;
	e->next = e->since + e->delay;
	/* the process's earlier execs from another image are over, since it
	 * runs this one: checked now, before this exec can change it */
	for (i = 0; i < v->top; i++)
		if (&v->e[i] != e && v->e[i].used && v->e[i].tgid == e->tgid &&
		    !verify_same_image(e, &v->e[i]))
			verify_check(v, &v->e[i], false, fn, ctx);
	verify_arm(v);
	return full;
}

void
pty_exec_verify_asked(struct pty_exec_verify *v, pid_t tid,
		      pty_exec_verify_found_fn fn, void *ctx)
{
	size_t i;

	if (v == NULL || v->n == 0)
		return;
	for (i = 0; i < v->top; i++)
		if (v->e[i].used && v->e[i].tid == tid)
			verify_check(v, &v->e[i], true, fn, ctx);
	verify_arm(v);
}

void
pty_exec_verify_due(struct pty_exec_verify *v, pty_exec_verify_found_fn fn,
		    void *ctx)
{
	uint64_t now;
	size_t i;

	if (v == NULL || v->n == 0)
		return;
	now = verify_now();
	for (i = 0; i < v->top; i++)
		if (v->e[i].used && v->e[i].next <= now)
			verify_check(v, &v->e[i], false, fn, ctx);
	verify_arm(v);
}

void
pty_exec_verify_run(struct pty_exec_verify *v, pty_exec_verify_found_fn fn,
		    void *ctx)
{
	uint64_t ticks;

	if (v == NULL)
		return;
	if (read(v->timer, &ticks, sizeof ticks) == (ssize_t)sizeof ticks)
		v->armed = 0;
	pty_exec_verify_due(v, fn, ctx);
	verify_arm(v);
}
