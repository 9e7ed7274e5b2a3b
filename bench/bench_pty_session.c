/* SPDX-License-Identifier: MIT */
/*
 * bench_pty's parts 6 and 7 (bench_pty.c lists them all): one line to bash
 * over its command channel, a socket pair against a pipe; and the
 * session's end, pty_spawn_end_all, with 0 to 100 descendants and on a
 * host with 1,000 more processes.
 */
#define _GNU_SOURCE
#include "bench_pty.h"

#include "pty_line.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* 6. One line to bash: the guard's write of the wrapped line
 * (pty_child_send_line) and bash's read of it - one read(2) of up to 1024
 * bytes, as bash does on its command channel - over the socket pair
 * pty/line/child.c makes now (SOCK_STREAM, each end shut down one way) and over
 * a pipe (the channel before).  Two ways: in this process (the write,
 * then the read: the system calls alone), and to a reader process that
 * answers each line with a byte on a pipe (the round trip, wake-ups
 * included; one reader for both channels, waiting in poll(2) first).
 * Alternating, n lines each. */
enum { CH_SOCKET, CH_PIPE, NCH };

struct channel {
	int w, r;     /* the guard's end, bash's end */
	int ack[2];   /* the reader's answer (a pipe, the same for both) */
	pid_t reader; /* the reader process (of both: in c[0]), or 0 */
	double *write_t, *local_t, *trip_t;
};

static const char bench_line[] = "ls -la /var/log";
/* what pty_child_send_line sends for it, as bash reads it */
static const char bench_line_tail[] = "3>&-\n";

static void
channel_open(struct channel *c, int kind, int n)
{
	int p[2];

	if (kind == CH_SOCKET) {
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) !=
			0 ||
		    shutdown(p[0], SHUT_RD) != 0)
			exit(1);
		c->w = p[0];
		c->r = p[1];
	} else {
		if (pipe2(p, O_CLOEXEC) != 0)
			exit(1);
		c->w = p[1];
		c->r = p[0];
	}
	c->reader = 0;
	c->write_t = calloc((size_t)n, sizeof(double));
	c->local_t = calloc((size_t)n, sizeof(double));
	c->trip_t = calloc((size_t)n, sizeof(double));
	if (c->write_t == NULL || c->local_t == NULL || c->trip_t == NULL ||
	    pipe2(c->ack, O_CLOEXEC) != 0)
		exit(1);
}

/* Reads one wrapped line from fd as bash does (reads of up to 1024
 * bytes).  0, or -1 at EOF. */
static int
channel_read_line(int fd)
{
	char buf[1024];
	size_t have = 0;

	for (;;) {
		ssize_t k = read(fd, buf + have, sizeof buf - have);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		have += (size_t)k;
		if (have >= sizeof bench_line_tail - 1 &&
		    memcmp(buf + have - (sizeof bench_line_tail - 1),
			   bench_line_tail, sizeof bench_line_tail - 1) == 0)
			return 0;
		if (have == sizeof buf)
			return -1;
	}
}

/* Starts one reader for both channels: it waits in poll(2) for either,
 * then reads the line as bash does and answers on that channel's ack
 * pipe.  One process for both, so that where the scheduler puts it (the
 * same CPU as the guard or the other, which changes a wake-up's cost
 * several times over here) is the same for both.  It holds no other end
 * of any channel, so it sees EOF once the guard's ends are closed. */
static pid_t
channel_reader_start(struct channel *c)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct pollfd p[NCH];
		char b = 1;
		int j, open_ = NCH;

		for (j = 0; j < NCH; j++) {
			close(c[j].w);
			close(c[j].ack[0]);
			p[j].fd = c[j].r;
			p[j].events = POLLIN;
		}
		while (open_ > 0 && poll(p, NCH, -1) >= 0) {
			for (j = 0; j < NCH; j++) {
				if (p[j].fd < 0 || p[j].revents == 0)
					continue;
				if (channel_read_line(c[j].r) != 0 ||
				    write(c[j].ack[1], &b, 1) != 1) {
					p[j].fd = -1;
					open_--;
				}
			}
		}
		_exit(0);
	}
	if (pid < 0)
		exit(1);
	return pid;
}

/* One line on c: in this process (local) or to its reader. */
static void
channel_one(struct channel *c, int i, bool local)
{
	struct pty_child fake;
	double t0, t1;
	char b;

	memset(&fake, 0, sizeof fake);
	fake.cmd_fd = c->w;
	t0 = bench_pty_now_s();
	if (pty_child_send_line(&fake, bench_line, sizeof bench_line - 1) != 0)
		exit(1);
	t1 = bench_pty_now_s();
	if (local) {
		if (channel_read_line(c->r) != 0)
			exit(1);
		c->local_t[i] = bench_pty_now_s() - t0;
		return;
	}
	c->write_t[i] = t1 - t0;
	if (read(c->ack[0], &b, 1) != 1)
		exit(1);
	c->trip_t[i] = bench_pty_now_s() - t0;
}

static void
channel_row(const char *what, const char *kind, double *t, int n)
{
	qsort(t, (size_t)n, sizeof t[0], bench_pty_cmp_double);
	printf("  %-34s %-10s p50 %7.2f us   p99 %7.2f us\n", what, kind,
	       t[n / 2] * 1e6, t[(long)n * 99 / 100] * 1e6);
}

void
bench_pty_channel(int n)
{
	static const char *const kind[NCH] = {"socketpair", "pipe"};
	struct channel c[NCH];
	int i, k, pass;

	for (k = 0; k < NCH; k++)
		channel_open(&c[k], k, n);
	printf("\na line to bash (%zu bytes wrapped: pty_child_send_line), "
	       "socketpair (pty/line/child.c now) against pipe (before), %d "
	       "lines each, alternating:\n",
	       sizeof bench_line - 1 + 20, n);
	/* first in this process, then to the readers */
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1)
			c[0].reader = channel_reader_start(c);
		for (i = 0; i < n + n / 10; i++)
			for (k = 0; k < NCH; k++)
				channel_one(&c[(i + k) % NCH],
					    i < n / 10 ? 0 : i - n / 10,
					    pass == 0);
	}
	for (k = 0; k < NCH; k++)
		channel_row("write + read, one process", kind[k], c[k].local_t,
			    n);
	for (k = 0; k < NCH; k++)
		channel_row("the guard's write (to a reader)", kind[k],
			    c[k].write_t, n);
	for (k = 0; k < NCH; k++)
		channel_row("write, reader's read and answer", kind[k],
			    c[k].trip_t, n);
	printf("  socketpair/pipe at the median: %.2f (one process), %.2f "
	       "(the write), %.2f (round trip)\n",
	       c[CH_SOCKET].local_t[n / 2] / c[CH_PIPE].local_t[n / 2],
	       c[CH_SOCKET].write_t[n / 2] / c[CH_PIPE].write_t[n / 2],
	       c[CH_SOCKET].trip_t[n / 2] / c[CH_PIPE].trip_t[n / 2]);
	fflush(stdout);
	for (k = 0; k < NCH; k++) {
		close(c[k].w);
		close(c[k].r);
	}
	/* every end closed first: the reader waits on both */
	if (c[0].reader > 0)
		(void)waitpid(c[0].reader, NULL, 0);
	for (k = 0; k < NCH; k++) {
		close(c[k].ack[0]);
		close(c[k].ack[1]);
		free(c[k].write_t);
		free(c[k].local_t);
		free(c[k].trip_t);
	}
}

/* 7. The session's end: pty_spawn_end_all with D descendants (processes
 * started by this one that wait in pause(2): hung up, then gone), and D
 * that ignore SIGHUP (nohup: killed after the grace).  Each count in turn,
 * `runs` times; median and spread in ms.  The scan reads /proc/PID/stat
 * of every process on the host, so their number is printed too, and the
 * cases run again with 1,000 more processes on the host (a shared
 * bastion's sessions) that are not descendants. */
static size_t
host_processes(void)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t n = 0;

	while (d != NULL && (de = readdir(d)) != NULL)
		if (de->d_name[0] >= '1' && de->d_name[0] <= '9')
			n++;
	if (d != NULL)
		closedir(d);
	return n;
}

/* Starts d children that wait; with `nohup` they ignore SIGHUP.  Returns
 * once all of them are waiting. */
static void
end_start(int d, bool nohup)
{
	int ready[2], i;
	char b;

	if (pipe2(ready, O_CLOEXEC) != 0)
		exit(1);
	for (i = 0; i < d; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			sigset_t none;

			sigemptyset(&none);
			sigprocmask(SIG_SETMASK, &none, NULL);
			signal(SIGHUP, nohup ? SIG_IGN : SIG_DFL);
			b = 1;
			if (write(ready[1], &b, 1) != 1)
				_exit(1);
			for (;;)
				pause();
		}
		if (pid < 0)
			exit(1);
	}
	for (i = 0; i < d; i++)
		if (read(ready[0], &b, 1) != 1)
			exit(1);
	close(ready[0]);
	close(ready[1]);
}

/* `n` processes that are not ours (their parent exits, so they go to
 * init or the nearest subreaper): the host's other processes, which the
 * scan reads too.  Their pids into pids[]. */
static void
host_load_start(pid_t *pids, int n)
{
	int p[2], i;
	pid_t mid;

	if (pipe2(p, O_CLOEXEC) != 0 || (mid = fork()) < 0)
		exit(1);
	if (mid == 0) {
		for (i = 0; i < n; i++) {
			pid_t pid = fork();

			if (pid == 0) {
				for (;;)
					pause();
			}
			if (pid < 0 ||
			    write(p[1], &pid, sizeof pid) != sizeof pid)
				_exit(1);
		}
		_exit(0);
	}
	close(p[1]);
	for (i = 0; i < n; i++)
		if (read(p[0], &pids[i], sizeof pids[i]) != sizeof pids[i])
			exit(1);
	close(p[0]);
	(void)waitpid(mid, NULL, 0);
}

/* Kills them, and waits (up to 10 s) until they are gone - reaped by
 * whoever inherited them - so that what runs next finds the host as it
 * was. */
static void
host_load_stop(const pid_t *pids, int n)
{
	struct timespec nap = {0, 10 * 1000 * 1000};
	int i, tries, left = n;

	for (i = 0; i < n; i++)
		(void)kill(pids[i], SIGKILL);
	for (tries = 0; tries < 1000 && left > 0; tries++) {
		(void)nanosleep(&nap, NULL);
		for (i = 0, left = 0; i < n; i++)
			left += kill(pids[i], 0) == 0;
	}
	if (left > 0)
		fprintf(stderr,
			"bench_pty: %d of the host's extra processes are "
			"still there (not reaped by their new parent)\n",
			left);
}

void
bench_pty_end(int runs)
{
	enum { LOAD = 1000 };
	static const struct {
		int d;
		bool nohup;
		bool load; /* with LOAD more processes on the host */
		const char *what;
	} cases[] = {
	    {0, false, false, "0 descendants"},
	    {10, false, false, "10 descendants"},
	    {100, false, false, "100 descendants"},
	    {10, true, false, "10 that ignore SIGHUP"},
	    {0, false, true, "0, host +1000 processes"},
	    {10, false, true, "10, host +1000 processes"},
	};
	enum { NCASE = sizeof cases / sizeof cases[0] };
	static pid_t load[LOAD];
	double t[NCASE][32];
	size_t hosts[2];
	int r, k, pass;

	if (runs > 32)
		runs = 32;
	while (waitpid(-1, NULL, WNOHANG) > 0)
		; /* nothing of ours left from the parts before */
	hosts[0] = host_processes();
	/* the cases on the host as it is, then with LOAD more processes */
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1)
			host_load_start(load, LOAD);
		for (r = 0; r < runs; r++) {
			for (k = 0; k < NCASE; k++) {
				int c = (r + k) % NCASE;
				double t0;
				size_t left;

				if (cases[c].load != (pass == 1))
					continue;
				end_start(cases[c].d, cases[c].nohup);
				t0 = bench_pty_now_s();
				left = pty_spawn_end_all(0);
				t[c][r] = bench_pty_now_s() - t0;
				if (left != 0 ||
				    waitpid(-1, NULL, WNOHANG) != -1) {
					fprintf(stderr,
						"bench_pty: %zu processes "
						"outlived pty_spawn_end_all\n",
						left);
					exit(1);
				}
			}
		}
		if (pass == 0)
			hosts[1] = host_processes();
		else
			host_load_stop(load, LOAD);
	}
	printf("\nthe session's end, pty_spawn_end_all, %d runs each (%zu-%zu "
	       "processes on the host besides them):\n",
	       runs, hosts[0], hosts[1]);
	for (k = 0; k < NCASE; k++) {
		qsort(t[k], (size_t)runs, sizeof t[k][0], bench_pty_cmp_double);
		printf("  %-26s median %8.2f ms   min %8.2f   max %8.2f\n",
		       cases[k].what, t[k][runs / 2] * 1e3, t[k][0] * 1e3,
		       t[k][runs - 1] * 1e3);
	}
	fflush(stdout);
}
