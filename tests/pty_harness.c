/* SPDX-License-Identifier: MIT */
/*
 * The pty harness of the end-to-end tests (see pty_harness.h).  Every wait
 * is bounded; a program that does not answer fails the test instead of
 * hanging it.
 */
#define _GNU_SOURCE
#include "pty_harness.h"

#include <check.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

long
pts_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int
pts_count_lines(const char *text, const char *const needles[])
{
	int n = 0;

	for (const char *line = text; *line != '\0';) {
		size_t len = strcspn(line, "\n");
		bool all = true;

		for (int i = 0; all && needles[i] != NULL; i++) {
			const char *hit = memmem(line, len, needles[i],
						 strlen(needles[i]));

			all = hit != NULL;
		}
		n += all;
		line += len + (line[len] == '\n');
	}
	return n;
}

const char *
pts_build_path(const char *rel)
{
	static char buf[4][1024];
	static int k;
	const char *root = getenv("MAELYS_BUILD_ROOT");

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", root ? root : "build", rel);
	return buf[k];
}

const char *
pts_source_path(const char *rel)
{
	static char buf[4][1024];
	static int k;
	const char *root = getenv("MAELYS_SOURCE_ROOT");

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", root ? root : ".", rel);
	return buf[k];
}

void
pts_write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	ck_assert_msg(f != NULL, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
	ck_assert_int_eq(chmod(path, mode), 0);
}

void
pts_write_audit_key(const char *state)
{
	char pub[PATH_MAX], cmd[3 * PATH_MAX], *slash;

	/* audit.pub beside the state (built by hand: gcc's sanitizer build
	 * cannot see that a checked pointer is not null in a %.*s) */
	ck_assert_uint_lt(strlen(state), sizeof pub - sizeof "audit.pub");
	strcpy(pub, state);
	slash = strrchr(pub, '/');
	ck_assert_ptr_nonnull(slash);
	strcpy(slash + 1, "audit.pub");
	(void)unlink(state);
	(void)unlink(pub);
	snprintf(cmd, sizeof cmd, "'%s' --new-audit-key '%s' --state '%s' "
				  ">/dev/null",
		 pts_build_path("pty/maelys-pty"), pub, state);
	ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
}

void
pts_world_make(struct pts_world *w)
{
	static const char *const fakes[] = {"shutdown", "reboot", "poweroff",
					    "evil"};
	char path[512], script[512];
	size_t i;

	if (access("/dev/ptmx", R_OK | W_OK) != 0)
		exit(77); /* no pseudo-terminals here: skip */
	snprintf(w->dir, sizeof w->dir, "/tmp/maelys-pty-test.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(w->dir));
	snprintf(w->bin, sizeof w->bin, "%s/bin", w->dir);
	snprintf(w->home, sizeof w->home, "%s/home", w->dir);
	ck_assert_int_eq(mkdir(w->bin, 0755), 0);
	ck_assert_int_eq(mkdir(w->home, 0700), 0);
	for (i = 0; i < sizeof fakes / sizeof fakes[0]; i++) {
		/* the marker proves the program ran */
		snprintf(script, sizeof script,
			 "#!/bin/sh\ntouch '%s/RAN-%s'\n", w->dir, fakes[i]);
		snprintf(path, sizeof path, "%s/%s", w->bin, fakes[i]);
		pts_write_file(path, script, 0755);
	}
	snprintf(w->path_env, sizeof w->path_env, "%s:%s:/usr/bin:/bin", w->bin,
		 pts_build_path("tests"));
}

void
pts_world_remove(struct pts_world *w)
{
	char cmd[600];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", w->dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", w->dir);
}

bool
pts_world_ran(const struct pts_world *w, const char *name)
{
	char path[600];

	snprintf(path, sizeof path, "%s/RAN-%s", w->dir, name);
	return access(path, F_OK) == 0;
}

const char *
pts_world_policy(struct pts_world *w, const char *name, const char *text)
{
	static char path[600];

	snprintf(path, sizeof path, "%s/%s", w->dir, name);
	pts_write_file(path, text, 0644);
	return path;
}

void
pts_spawn(struct pts *p, const struct pts_world *w, char *const argv[],
	  int rows, int cols)
{
	pts_spawn_path(p, w, argv[0], argv, rows, cols);
}

void
pts_spawn_path(struct pts *p, const struct pts_world *w, const char *path,
	       char *const argv[], int rows, int cols)
{
	struct winsize ws = {(unsigned short)rows, (unsigned short)cols, 0, 0};
	char home[400];

	memset(p, 0, sizeof *p);
	p->status = -1;
	p->cap = 1 << 16;
	p->out = calloc(1, p->cap);
	ck_assert_ptr_nonnull(p->out);
	snprintf(home, sizeof home, "HOME=%s", w->home);
	p->pid = forkpty(&p->master, NULL, NULL, &ws);
	ck_assert_int_ge(p->pid, 0);
	if (p->pid == 0) {
		char *envp[] = {"TERM=dumb", "LANG=C.UTF-8", home, NULL};

		execve(path, argv, envp);
		_exit(127);
	}
	fcntl(p->master, F_SETFL, fcntl(p->master, F_GETFL) | O_NONBLOCK);
}

void
pts_start(struct pts *p, const struct pts_world *w, const char *policy,
	  int rows, int cols)
{
	char hist[400];
	char *argv[] = {(char *)pts_build_path("pty/maelys-pty"),
			"--policy",
			(char *)policy,
			"--path",
			(char *)w->path_env,
			"--history",
			hist,
			NULL};

	snprintf(hist, sizeof hist, "%s/history", w->home);
	pts_spawn(p, w, argv, rows, cols);
}

/* Reads what is there; returns false at end of output. */
static bool
pts_pump(struct pts *p, int timeout_ms)
{
	struct pollfd pfd = {p->master, POLLIN, 0};
	char buf[4096];
	ssize_t n;

	if (poll(&pfd, 1, timeout_ms) <= 0)
		return true;
	n = read(p->master, buf, sizeof buf);
	if (n <= 0)
		return !(n == 0 || (n < 0 && errno == EIO));
	if (p->len + (size_t)n + 1 > p->cap) {
		p->cap = (p->len + (size_t)n + 1) * 2;
		p->out = realloc(p->out, p->cap);
		ck_assert_ptr_nonnull(p->out);
	}
	memcpy(p->out + p->len, buf, (size_t)n);
	p->len += (size_t)n;
	p->out[p->len] = '\0';
	return true;
}

void
pts_type_n(struct pts *p, const char *keys, size_t n)
{
	while (n > 0) {
		ssize_t w = write(p->master, keys, n);

		if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
			pts_pump(p, 10);
			continue;
		}
		ck_assert_msg(w > 0, "typing failed: %s", strerror(errno));
		keys += w;
		n -= (size_t)w;
	}
}

void
pts_type(struct pts *p, const char *keys)
{
	pts_type_n(p, keys, strlen(keys));
}

bool
pts_expect(struct pts *p, const char *needle, int timeout_ms)
{
	long end = pts_now_ms() + timeout_ms;

	for (;;) {
		char *hit = strstr(p->out + p->mark, needle);

		if (hit != NULL) {
			p->mark = (size_t)(hit - p->out) + strlen(needle);
			return true;
		}
		if (pts_now_ms() >= end || !pts_pump(p, 20))
			return strstr(p->out + p->mark, needle) != NULL;
	}
}

void
pts_settle(struct pts *p, int ms)
{
	long end = pts_now_ms() + ms;

	while (pts_now_ms() < end && pts_pump(p, 10))
		;
}

bool
pts_wait_prompt(struct pts *p, int timeout_ms)
{
	long end = pts_now_ms() + timeout_ms;

	/* the guard's prompt ends in "$ " or "# " */
	while (pts_now_ms() < end) {
		const char *s = p->out + p->mark;
		const char *a = strstr(s, "$ "), *b = strstr(s, "# ");
		const char *hit = a == NULL ? b : (b == NULL || a < b ? a : b);

		if (hit != NULL) {
			p->mark = (size_t)(hit - p->out) + 2;
			return true;
		}
		if (!pts_pump(p, 20))
			break;
	}
	return false;
}

void
pts_resize(struct pts *p, int rows, int cols)
{
	struct winsize ws = {(unsigned short)rows, (unsigned short)cols, 0, 0};

	ck_assert_int_eq(ioctl(p->master, TIOCSWINSZ, &ws), 0);
}

int
pts_wait(struct pts *p, int timeout_ms)
{
	long end = pts_now_ms() + timeout_ms;
	int st;

	if (p->status >= 0)
		goto done;
	while (pts_now_ms() < end) {
		pid_t r = waitpid(p->pid, &st, WNOHANG);

		if (r == p->pid) {
			p->status = st;
			goto done;
		}
		pts_pump(p, 20);
	}
	return -1;
done:
	pts_settle(p, 50);
	if (WIFEXITED(p->status))
		return WEXITSTATUS(p->status);
	return 128 + WTERMSIG(p->status);
}

void
pts_close(struct pts *p)
{
	if (p->status < 0 && p->pid > 0) {
		kill(p->pid, SIGKILL);
		waitpid(p->pid, NULL, 0);
	}
	if (p->master >= 0)
		close(p->master);
	free(p->out);
	memset(p, 0, sizeof *p);
	p->master = -1;
}

struct pts_buf {
	char *p;
	size_t len, cap;
};

static void
pts_buf_read(struct pts_buf *b, int fd, bool *open)
{
	ssize_t n;

	if (b->cap - b->len < 4096) {
		b->cap = b->cap * 2 + 8192;
		b->p = realloc(b->p, b->cap);
		ck_assert_ptr_nonnull(b->p);
	}
	n = read(fd, b->p + b->len, b->cap - b->len - 1);
	if (n > 0)
		b->len += (size_t)n;
	else if (n == 0 || (errno != EINTR && errno != EAGAIN))
		*open = false;
	b->p[b->len] = '\0';
}

/* Reads two descriptors to their ends, whichever has something. */
static void
pts_slurp_both(int a, int b, char **out_a, char **out_b)
{
	struct pts_buf buf[2] = {{NULL, 0, 0}, {NULL, 0, 0}};
	bool open[2] = {true, true};
	int fds[2] = {a, b}, i;

	for (i = 0; i < 2; i++) {
		buf[i].cap = 8192;
		buf[i].p = calloc(1, buf[i].cap);
		ck_assert_ptr_nonnull(buf[i].p);
	}
	while (open[0] || open[1]) {
		struct pollfd pfd[2];

		for (i = 0; i < 2; i++) {
			pfd[i].fd = open[i] ? fds[i] : -1;
			pfd[i].events = POLLIN;
			pfd[i].revents = 0;
		}
		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			break;
		for (i = 0; i < 2; i++)
			if (open[i] && pfd[i].revents != 0)
				pts_buf_read(&buf[i], fds[i], &open[i]);
	}
	*out_a = buf[0].p;
	*out_b = buf[1].p;
}

int
pts_run(char *const argv[], char *const envp[], char **out, char **err)
{
	return pts_run_path(argv[0], argv, envp, out, err);
}

int
pts_run_path(const char *path, char *const argv[], char *const envp[],
	     char **out, char **err)
{
	int o[2], e[2], st;
	pid_t pid;

	ck_assert_int_eq(pipe(o), 0);
	ck_assert_int_eq(pipe(e), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		setsid(); /* no controlling terminal */
		dup2(null, 0);
		dup2(o[1], 1);
		dup2(e[1], 2);
		close(o[0]);
		close(e[0]);
		execve(path, argv, envp);
		_exit(127);
	}
	close(o[1]);
	close(e[1]);
	/* both at once: a program that fills one pipe while the other is
	 * read would wait for ever */
	pts_slurp_both(o[0], e[0], out, err);
	close(o[0]);
	close(e[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

void
pts_start_config(struct pts *p, const struct pts_world *w, const char *config)
{
	char hist[400];
	char *argv[] = {(char *)pts_build_path("pty/maelys-pty"),
			"--config",
			(char *)config,
			"--history",
			hist,
			NULL};

	snprintf(hist, sizeof hist, "%s/history", w->home);
	pts_spawn(p, w, argv, 24, 80);
}

int
pts_run_config(const struct pts_world *w, const char *config, const char *argv0,
	       const char *command, const char *ssh_cmd, char **out, char **err)
{
	char *argv[] = {(char *)argv0, "--config",      (char *)config,
			"-c",          (char *)command, NULL};
	char home[400], ssh[4200];
	char *envp[] = {home, "LANG=C.UTF-8", ssh_cmd ? ssh : NULL, NULL};

	snprintf(home, sizeof home, "HOME=%s", w->home);
	snprintf(ssh, sizeof ssh, "SSH_ORIGINAL_COMMAND=%s",
		 ssh_cmd ? ssh_cmd : "");
	return pts_run_path(pts_build_path("pty/maelys-pty"), argv, envp, out,
			    err);
}

int
pts_verify_log(const char *config, const char *log, char **out, char **err)
{
	char *argv[] = {(char *)pts_build_path("pty/maelys-pty"),
			"--config",
			(char *)config,
			"--verify-log",
			(char *)log,
			NULL};
	char *envp[] = {"LANG=C.UTF-8", NULL};

	return pts_run(argv, envp, out, err);
}

char *
pts_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (f == NULL) {
		buf = strdup("");
		ck_assert_ptr_nonnull(buf);
		return buf;
	}
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_ge(n, 0);
	ck_assert_int_eq(fseek(f, 0, SEEK_SET), 0);
	buf = calloc(1, (size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(fread(buf, 1, (size_t)n, f), n);
	fclose(f);
	return buf;
}

void
pts_spawn_env(struct pts *p, const char *path, char *const argv[],
	      char *const envp[], pts_child_fn in_child, void *arg, int rows,
	      int cols)
{
	struct winsize ws = {(unsigned short)rows, (unsigned short)cols, 0, 0};

	memset(p, 0, sizeof *p);
	p->status = -1;
	p->cap = 1 << 16;
	p->out = calloc(1, p->cap);
	ck_assert_ptr_nonnull(p->out);
	p->pid = forkpty(&p->master, NULL, NULL, &ws);
	ck_assert_int_ge(p->pid, 0);
	if (p->pid == 0) {
		if (in_child != NULL && in_child(arg) != 0)
			_exit(126);
		execve(path, argv, envp);
		_exit(127);
	}
	fcntl(p->master, F_SETFL, fcntl(p->master, F_GETFL) | O_NONBLOCK);
}

/* One output stream of pts_run_bounded. */
struct pts_sink {
	int fd; /* -1 once at end of file */
	char *buf;
	size_t len, cap;
};

static void
pts_sink_read(struct pts_sink *s)
{
	ssize_t n;

	if (s->cap - s->len < 4096) {
		s->cap = s->cap * 2 + 4096;
		s->buf = realloc(s->buf, s->cap);
		ck_assert_ptr_nonnull(s->buf);
	}
	n = read(s->fd, s->buf + s->len, s->cap - s->len - 1);
	if (n < 0 && errno == EINTR)
		return;
	if (n <= 0) {
		close(s->fd);
		s->fd = -1;
		return;
	}
	s->len += (size_t)n;
	s->buf[s->len] = '\0';
}

int
pts_run_bounded(const char *path, char *const argv[], char *const envp[],
		pts_child_fn in_child, void *arg, int timeout_ms, char **out,
		char **err)
{
	struct pts_sink sink[2] = {{-1, NULL, 0, 0}, {-1, NULL, 0, 0}};
	long end = pts_now_ms() + timeout_ms;
	bool reaped = false, killed = false;
	int o[2], e[2], st = 0, i;
	pid_t pid;

	ck_assert_int_eq(pipe2(o, O_CLOEXEC), 0);
	ck_assert_int_eq(pipe2(e, O_CLOEXEC), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		/* its own session and process group: no controlling
		 * terminal, and one kill(-pid) ends all it started */
		setsid();
		dup2(null, 0);
		dup2(o[1], 1);
		dup2(e[1], 2);
		if (in_child != NULL && in_child(arg) != 0)
			_exit(126);
		execve(path, argv, envp);
		_exit(127);
	}
	close(o[1]);
	close(e[1]);
	sink[0].fd = o[0];
	sink[1].fd = e[0];
	for (i = 0; i < 2; i++) {
		sink[i].cap = 4096;
		sink[i].buf = calloc(1, sink[i].cap);
		ck_assert_ptr_nonnull(sink[i].buf);
	}
	/* both streams read together: a program that fills one pipe while
	 * the other is read would otherwise never finish */
	while (!reaped || sink[0].fd >= 0 || sink[1].fd >= 0) {
		struct pollfd pfd[2];
		long left = end - pts_now_ms();
		nfds_t n = 0;

		if (left <= 0)
			break;
		for (i = 0; i < 2; i++)
			if (sink[i].fd >= 0)
				pfd[n++] =
				    (struct pollfd){sink[i].fd, POLLIN, 0};
		/* wake up now and then to reap the program, whose pipes a
		 * child of its own may hold open after it exits */
		if (poll(pfd, n, left < 50 ? (int)left : 50) > 0)
			for (i = 0; i < 2; i++)
				if (sink[i].fd >= 0)
					for (nfds_t k = 0; k < n; k++)
						if (pfd[k].fd == sink[i].fd &&
						    pfd[k].revents != 0)
							pts_sink_read(&sink[i]);
		if (!reaped && waitpid(pid, &st, WNOHANG) == pid) {
			reaped = true;
			/* what it left running gets a second to finish */
			if (end > pts_now_ms() + 1000)
				end = pts_now_ms() + 1000;
		}
	}
	kill(-pid, SIGKILL); /* whatever is left of its process group */
	if (!reaped) {
		killed = true;
		waitpid(pid, &st, 0);
	}
	for (i = 0; i < 2; i++)
		if (sink[i].fd >= 0)
			close(sink[i].fd);
	*out = sink[0].buf;
	*err = sink[1].buf;
	if (killed)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

void
pts_require_root(const char *suite, const char *why)
{
	if (geteuid() == 0)
		return;
	printf("\n*** SKIP %s: every test of this suite needs root (%s); "
	       "none of them ran. CI runs it as root. ***\n\n",
	       suite, why);
	fflush(stdout);
	exit(77);
}

bool
pts_wait_io_stops(pid_t pid, int quiet_ms, int timeout_ms)
{
	long end = pts_now_ms() + timeout_ms, quiet_since = pts_now_ms();
	unsigned long long last = 0;
	char path[64];

	snprintf(path, sizeof path, "/proc/%d/io", (int)pid);
	while (pts_now_ms() < end) {
		char io[1024], *r, *w;
		unsigned long long rchar, wchar;
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd < 0 ? -1 : read(fd, io, sizeof io - 1);

		if (fd >= 0)
			close(fd);
		/* a /proc file says its size is 0: read, not pts_slurp */
		io[n > 0 ? n : 0] = '\0';
		r = strstr(io, "rchar:");
		w = strstr(io, "wchar:");
		if (r == NULL || w == NULL ||
		    sscanf(r, "rchar: %llu", &rchar) != 1 ||
		    sscanf(w, "wchar: %llu", &wchar) != 1)
			return false; /* it ended */
		if (rchar + wchar != last) {
			last = rchar + wchar;
			quiet_since = pts_now_ms();
		} else if (pts_now_ms() - quiet_since >= quiet_ms) {
			return true;
		}
		poll(NULL, 0, 50);
	}
	return false;
}
