/* SPDX-License-Identifier: MIT */
/*
 * The audit writer: the one process of a session that holds the audit key
 * and the log (pty_audit.h, pty_audit_start_writer).
 *
 * Why a process of its own.  The log is shared by every session on the
 * host, and appending to it takes an exclusive lock.  The guard runs with
 * the user's uid, so the user can stop it (SIGSTOP), kill it in the middle
 * of a write, or keep it from answering; a guard that held the lock would
 * then freeze, or tear, every other user's log.  The writer is forked by a
 * guard installed setuid to the audit account while it still has that
 * identity, and becomes that account entirely (real, effective and saved
 * uid): the user's processes cannot signal it (kill(2) needs a matching
 * uid), trace it or read its memory (ptrace needs the same uid, and it is
 * not dumpable), and it leaves the terminal's session, so no key typed at
 * the terminal reaches it.  It holds the lock only while it appends one
 * record, which nothing of the user's can interrupt.  Whatever the user
 * does to their own guard stalls or ends their own session only.
 *
 * The protocol, over a SOCK_SEQPACKET socketpair (one message is one whole
 * request; a guard killed mid-send delivers nothing):
 *   request  struct audit_req, then a record body (audit_encode.c)
 *   answer   struct audit_ans, then a one-line error when status != 0
 * The writer answers a record only once it is on disk.  A fallback body
 * (AUDIT_MSG_FALLBACK: the session_end record of a guard that goes away)
 * is appended when the connection closes before AUDIT_MSG_DONE, so a
 * killed guard still leaves the end of its session in the log.
 */
#define _GNU_SOURCE

#include "audit_internal.h"
#include "audit_rec_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long a guard waits for one answer: an fdatasync on a loaded disk
 * may take seconds, but a writer that does not answer at all must not
 * leave the session waiting (the line or exec is then refused). */
#define AUDIT_WRITER_TIMEOUT_MS 30000

struct audit_req {
	uint32_t id;
	uint32_t kind; /* enum audit_msg */
};

struct audit_ans {
	uint32_t id;
	int32_t status; /* 0: done; otherwise an error line follows */
};

/* ------------------------------------------------------------------ */
/* The writer process.                                                 */

/* Sends an answer; a guard that is gone is not an error here. */
static void
writer_answer(int sock, uint32_t id, const char *err)
{
	char buf[sizeof(struct audit_ans) + 512];
	struct audit_ans ans = {id, err != NULL ? 1 : 0};
	size_t n = sizeof ans;

	memcpy(buf, &ans, sizeof ans);
	if (err != NULL) {
		size_t e = strnlen(err, sizeof buf - sizeof ans);

		memcpy(buf + n, err, e);
		n += e;
	}
	while (send(sock, buf, n, MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
}

/* The writer's identity, its signals, its descriptors: see the top of the
 * file.  Returns 0, or -1 with err. */
static int
writer_detach(int sock, char *err, size_t errlen)
{
	static const int ignored[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGTSTP,
				      SIGTTIN, SIGTTOU, SIGPIPE, SIGXFSZ};
	uid_t uid = geteuid(), r, e, s;
	gid_t gid = getegid(), rg, eg, sg;
	struct sigaction sa;
	sigset_t none;
	size_t i;
	int null;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	for (i = 1; i < NSIG; i++)
		(void)sigaction((int)i, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	for (i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
		(void)sigaction(ignored[i], &sa, NULL);
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	(void)setsid();
	/* the group first: once the uid is dropped it could still be set,
	 * but doing it in this order needs no reasoning */
	if (setresgid(gid, gid, gid) != 0 || setresuid(uid, uid, uid) != 0 ||
	    getresuid(&r, &e, &s) != 0 || r != uid || e != uid || s != uid ||
	    getresgid(&rg, &eg, &sg) != 0 || rg != gid || eg != gid ||
	    sg != gid) {
		audit_err(err, errlen,
			  "the audit writer cannot become uid %lu for good",
			  (unsigned long)uid);
		return -1;
	}
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	/* nothing of the guard's but the socket, which goes to 3: no
	 * terminal, no session (the socket is first copied above 3, so that
	 * nothing in its way is overwritten) */
	sock = fcntl(sock, F_DUPFD, 10);
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (sock < 0 || null < 0 || dup2(null, 0) != 0 || dup2(null, 1) != 1 ||
	    dup2(null, 2) != 2 || dup2(sock, 3) != 3) {
		audit_err(err, errlen, "the audit writer's descriptors: %s",
			  strerror(errno));
		return -1;
	}
	if (syscall(SYS_close_range, 4u, ~0u, 0u) != 0) {
		int fd;

		for (fd = 4; fd < 1024; fd++)
			(void)close(fd);
	}
	return 0;
}

/* The share of the log's file system kept for light sessions: a quarter
 * of it, at most 64 MiB. */
#define AUDIT_RESERVE_MAX ((unsigned long long)64 << 20)

bool
audit_reserve_in(const struct statvfs *vfs, unsigned long long len,
		 unsigned long long *reserve, unsigned long long *avail)
{
	unsigned long long size;

	*reserve = *avail = 0;
	if (vfs->f_blocks == 0)
		return false;
	size = (unsigned long long)vfs->f_blocks * vfs->f_frsize;
	*avail = (unsigned long long)vfs->f_bavail * vfs->f_frsize;
	*reserve = size / 4 < AUDIT_RESERVE_MAX ? size / 4 : AUDIT_RESERVE_MAX;
	return *avail < *reserve + len;
}

bool
audit_reserve_files_in(const struct statvfs *vfs, unsigned long long *reserve)
{
	unsigned long long files = (unsigned long long)vfs->f_files;

	*reserve = files / 4 < AUDIT_RESERVE_FILES_MAX
		       ? files / 4
		       : AUDIT_RESERVE_FILES_MAX;
	return files != 0 && (unsigned long long)vfs->f_favail < *reserve + 1;
}

bool
audit_reserve_reached(const struct statvfs *vfs, unsigned long long mine,
		      unsigned long long len, unsigned long long *avail)
{
	unsigned long long reserve;

	return audit_reserve_in(vfs, len, &reserve, avail) &&
	       mine + len > reserve / 4;
}

/* What each user wrote into the reserve, shared by the writers of all
 * sessions: a file beside the log, ".NAME.reserve" (NAME the log's file
 * name), of AUDIT_RESERVE_USERS slots of {uid + 1, bytes} (0: free), in
 * this host's byte order, read and rewritten whole under its own
 * flock(2).  It is removed by the first writer that finds the file system
 * out of its reserve again, so that each time the disk runs low every
 * user starts afresh. */
#define AUDIT_RESERVE_USERS 256

struct audit_reserve_slot {
	uint64_t uid1; /* uid + 1; 0: a free slot */
	uint64_t bytes;
};

/* The reserve file's name for the log at log_path (cap bytes).  0, or -1
 * when it does not fit. */
static int
writer_reserve_path(const char *log_path, char *out, size_t cap)
{
	const char *base = strrchr(log_path, '/');
	int n;

	base = base != NULL ? base + 1 : log_path;
	n = snprintf(out, cap, "%.*s.%s.reserve", (int)(base - log_path),
		     log_path, base);
	return n > 0 && (size_t)n < cap ? 0 : -1;
}

int
audit_reserve_charge(const char *path, uid_t user, unsigned long long len,
		     unsigned long long most, const char *what,
		     enum audit_reserve_unit unit, char *err, size_t errlen)
{
	struct audit_reserve_slot slot[AUDIT_RESERVE_USERS];
	struct stat st;
	size_t i, at = AUDIT_RESERVE_USERS;
	ssize_t n;
	int fd, rc = -1;

	fd = open(path,
		  O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY |
		      O_NONBLOCK,
		  0600);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || fchmod(fd, 0600) != 0 ||
	    flock(fd, LOCK_EX) != 0) {
		audit_err(err, errlen, "%s: its reserve %s: %s", what, path,
			  fd < 0 ? strerror(errno) : "cannot be kept");
		goto out;
	}
	memset(slot, 0, sizeof slot);
	n = pread(fd, slot, sizeof slot, 0);
	if (n < 0) {
		audit_err(err, errlen, "%s: its reserve %s: %s", what, path,
			  strerror(errno));
		goto out;
	}
	for (i = 0; i < AUDIT_RESERVE_USERS; i++) {
		if (slot[i].uid1 == (uint64_t)user + 1) {
			at = i;
			break;
		}
		if (slot[i].uid1 == 0 && at == AUDIT_RESERVE_USERS)
			at = i;
	}
	if (at == AUDIT_RESERVE_USERS || slot[at].bytes + len > most) {
		unsigned long long had =
		    at == AUDIT_RESERVE_USERS ? most : slot[at].bytes;

		if (unit == AUDIT_RESERVE_FILES)
			audit_err(err, errlen,
				  "%s: its file system is down to its reserve "
				  "of files, which is kept for users who made "
				  "few: uid %lu made %llu files in it",
				  what, (unsigned long)user, had);
		else
			audit_err(err, errlen,
				  "%s: its file system is down to its reserve, "
				  "which is kept for users who wrote little: "
				  "uid %lu wrote %llu KiB into it",
				  what, (unsigned long)user, had >> 10);
		goto out;
	}
	slot[at].uid1 = (uint64_t)user + 1;
	slot[at].bytes += len;
	if (pwrite(fd, slot, sizeof slot, 0) != (ssize_t)sizeof slot) {
		audit_err(err, errlen, "%s: its reserve %s: %s", what, path,
			  strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (fd >= 0)
		(void)close(fd); /* the lock goes with it */
	return rc;
}

/* Whether this session may still append `len` bytes, having written
 * `mine`, for `user` (the real uid of the guard that started this
 * writer): every session may, until the log's file system is down to its
 * reserve; then only a session that wrote little of it (a quarter of the
 * reserve at most) of a user who wrote little into the reserve (a quarter
 * of it, over all of the user's sessions: otherwise a user who starts
 * session after session would drain it).  So a user who floods the log
 * with records fills it only as far as the reserve, and is then refused,
 * while every other user's sessions go on in the reserve: one user cannot
 * end another's sessions by filling the disk through the log.  (Files the
 * user writes on the same file system are another matter: --check warns
 * of it.)  When the file system cannot be asked, every session may: the
 * write itself fails when the disk is full.  Returns 0, or -1 with err. */
static int
writer_room(const struct pty_audit *a, uid_t user, unsigned long long mine,
	    size_t len, char *err, size_t errlen)
{
	unsigned long long avail, reserve;
	struct statvfs vfs;
	struct stat st;
	char path[PATH_MAX];

	if (a->fd < 0 || fstat(a->fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    fstatvfs(a->fd, &vfs) != 0)
		return 0;
	if (!audit_reserve_in(&vfs, len, &reserve, &avail)) {
		/* out of the reserve: what users wrote into it is forgotten */
		if (writer_reserve_path(a->log_path, path, sizeof path) == 0)
			(void)unlink(path);
		return 0;
	}
	if (audit_reserve_reached(&vfs, mine, len, &avail)) {
		audit_err(err, errlen,
			  "audit log: its file system is down to its reserve "
			  "(%llu KiB free), which is kept for sessions that "
			  "wrote little: this one wrote %llu KiB of records",
			  avail >> 10, mine >> 10);
		return -1;
	}
	if (writer_reserve_path(a->log_path, path, sizeof path) != 0) {
		audit_err(err, errlen, "audit log: its reserve: name too long");
		return -1;
	}
	return audit_reserve_charge(path, user, len + AUDIT_FRAME_MAX,
				    reserve / 4, "audit log",
				    AUDIT_RESERVE_BYTES, err, errlen);
}

/* Receives one request, and the descriptor passed with it (or -1).
 * Returns what recvmsg returns. */
static ssize_t
writer_recv(int sock, char *msg, size_t cap, int *fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct iovec iov = {msg, cap};
	struct msghdr mh;
	struct cmsghdr *c;
	ssize_t n;

	*fd = -1;
	memset(&mh, 0, sizeof mh);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = ctl.buf;
	mh.msg_controllen = sizeof ctl.buf;
	n = recvmsg(sock, &mh, MSG_TRUNC | MSG_CMSG_CLOEXEC);
	for (c = n >= 0 ? CMSG_FIRSTHDR(&mh) : NULL; c != NULL;
	     c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
		    c->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(fd, CMSG_DATA(c), sizeof(int));
	return n;
}

/* A session_end body with the recording's members appended (section
 * "recording" of pty_audit.h): the recording is closed first, so the
 * chain vouches for the file as it stays.  Returns the body to append
 * (body itself when there is no recording), or NULL with err. */
static const char *
writer_end_body(struct audit_rec_writer *rw, struct pty_audit *a,
		const char *body, size_t *len, char *out, char *err,
		size_t errlen)
{
	size_t n;

	if (rw->rec == NULL && !rw->done)
		return body;
	if (!audit_rec_is_session_end(body, *len))
		return body;
	audit_rec_finish(rw, a);
	n = audit_rec_fields(rw, out + *len, AUDIT_BODY_MAX - *len);
	if (n == (size_t)-1) {
		audit_err(err, errlen,
			  "audit log: the session_end record would be too "
			  "long");
		return NULL;
	}
	memmove(out, body, *len);
	*len += n;
	return out;
}

/* Serves requests until the guard closes its end; the recording's
 * channel, when there is one, in between (a request first: records carry
 * decisions that wait for their answer, output does not). */
static void
writer_serve(struct pty_audit *a, int sock, uid_t user)
{
	size_t cap = sizeof(struct audit_req) + AUDIT_BODY_MAX;
	char *msg = malloc(cap), *fallback = malloc(AUDIT_BODY_MAX);
	char *ended = malloc(AUDIT_BODY_MAX);
	struct audit_rec_writer *rw = malloc(sizeof *rw);
	size_t fallback_len = 0;
	unsigned long long mine = 0; /* bytes of records this session wrote */
	bool have_fallback = false;
	char err[512];

	if (msg == NULL || fallback == NULL || ended == NULL || rw == NULL)
		goto out;
	audit_rec_writer_init(rw, user);
	for (;;) {
		struct pollfd p[2] = {{sock, POLLIN, 0}, {rw->chan, POLLIN, 0}};
		struct audit_req req;
		const char *body;
		ssize_t n;
		size_t len;
		int fd;

		if (poll(p, rw->chan >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[0].revents == 0) {
			if (p[1].revents != 0)
				audit_rec_read(rw, a);
			continue;
		}
		n = writer_recv(sock, msg, cap, &fd);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break; /* the guard is gone */
		if ((size_t)n < sizeof req || (size_t)n > cap) {
			if (fd >= 0)
				(void)close(fd);
			writer_answer(sock, 0,
				      "audit writer: malformed request");
			continue;
		}
		memcpy(&req, msg, sizeof req);
		len = (size_t)n - sizeof req;
		if (fd >= 0 && req.kind != AUDIT_MSG_RECORD_START) {
			(void)close(fd);
			fd = -1;
		}
		switch (req.kind) {
		case AUDIT_MSG_RECORD:
			body = writer_end_body(rw, a, msg + sizeof req, &len,
					       ended, err, sizeof err);
			if (body != NULL &&
			    writer_room(a, user, mine, len, err, sizeof err) ==
				0 &&
			    audit_append_body(a, body, len, err,
					      sizeof err) == 0) {
				mine += len + AUDIT_FRAME_MAX;
				writer_answer(sock, req.id, NULL);
			} else {
				writer_answer(sock, req.id, err);
			}
			break;
		case AUDIT_MSG_FALLBACK:
			memcpy(fallback, msg + sizeof req, len);
			fallback_len = len;
			have_fallback = true;
			writer_answer(sock, req.id, NULL);
			break;
		case AUDIT_MSG_DONE:
			have_fallback = false;
			writer_answer(sock, req.id, NULL);
			break;
		case AUDIT_MSG_RECORD_START:
			writer_answer(sock, req.id,
				      audit_rec_begin(rw, msg + sizeof req,
						      len, fd, err,
						      sizeof err) == 0
					  ? NULL
					  : err);
			break;
		default:
			writer_answer(sock, req.id,
				      "audit writer: unknown request");
			break;
		}
	}
	if (have_fallback) {
		const char *body = writer_end_body(rw, a, fallback,
						   &fallback_len, ended, err,
						   sizeof err);

		(void)audit_append_body(a, body != NULL ? body : fallback,
					fallback_len, err, sizeof err);
	}
	audit_rec_finish(rw, a);
out:
	free(msg);
	free(fallback);
	free(ended);
	free(rw);
}

/* The child: never returns. */
static void
writer_main(int sock, const char *log_path, const char *key_path, uid_t user)
{
	struct pty_audit *a = NULL;
	char err[1024];

	if (writer_detach(sock, err, sizeof err) != 0) {
		writer_answer(sock, 0, err);
		_exit(1);
	}
	sock = 3;
	if (pty_audit_open(log_path, key_path, &a, err, sizeof err) != 0) {
		writer_answer(sock, 0, err);
		_exit(1);
	}
	a->anchors = true; /* the writer sends anchors (pty_audit.h) */
	writer_answer(sock, 0, NULL);
	writer_serve(a, sock, user);
	pty_audit_close(a);
	_exit(0);
}

/* ------------------------------------------------------------------ */
/* The guard's side.                                                   */

static long
writer_now_ms(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits for the answer to request `id`.  0, or -1 with err. */
static int
writer_wait(struct pty_audit *a, uint32_t id, char *err, size_t errlen)
{
	char buf[sizeof(struct audit_ans) + 512];
	long deadline = writer_now_ms() + AUDIT_WRITER_TIMEOUT_MS;

	for (;;) {
		struct pollfd pfd = {a->sock, POLLIN, 0};
		long left = deadline - writer_now_ms();
		struct audit_ans ans;
		ssize_t n;
		int r;

		if (left <= 0) {
			a->broken = true;
			audit_err(err, errlen,
				  "audit log: the audit writer did not answer "
				  "in %d s",
				  AUDIT_WRITER_TIMEOUT_MS / 1000);
			return -1;
		}
		r = poll(&pfd, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		n = recv(a->sock, buf, sizeof buf - 1, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < (ssize_t)sizeof ans) {
			a->broken = true;
			audit_err(err, errlen,
				  "audit log: the audit writer is gone");
			return -1;
		}
		memcpy(&ans, buf, sizeof ans);
		if (ans.id != id)
			continue; /* the late answer to a request given up */
		if (ans.status == 0)
			return 0;
		buf[n] = '\0';
		audit_err(err, errlen, "%s", buf + sizeof ans);
		return -1;
	}
}

int
audit_writer_send(struct pty_audit *a, enum audit_msg kind, const char *body,
		  size_t len, char *err, size_t errlen)
{
	struct audit_req req = {a->next++, (uint32_t)kind};
	struct iovec iov[2] = {{&req, sizeof req}, {(void *)body, len}};
	struct msghdr msg;
	ssize_t n;

	if (a->broken) {
		audit_err(err, errlen,
			  "audit log: the audit writer stopped answering");
		return -1;
	}
	memset(&msg, 0, sizeof msg);
	msg.msg_iov = iov;
	msg.msg_iovlen = len > 0 ? 2 : 1;
	do
		n = sendmsg(a->sock, &msg, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)(sizeof req + len)) {
		a->broken = true;
		audit_err(err, errlen, "audit log: the audit writer is gone");
		return -1;
	}
	return writer_wait(a, req.id, err, errlen);
}

int
audit_writer_send_fd(struct pty_audit *a, enum audit_msg kind,
		     const char *body, size_t len, int fd, char *err,
		     size_t errlen)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct audit_req req = {a->next++, (uint32_t)kind};
	struct iovec iov[2] = {{&req, sizeof req}, {(void *)body, len}};
	struct msghdr msg;
	struct cmsghdr *c;
	ssize_t n;

	if (a->broken || a->sock < 0) {
		audit_err(err, errlen,
			  "audit log: the audit writer stopped answering");
		return -1;
	}
	memset(&msg, 0, sizeof msg);
	memset(&ctl, 0, sizeof ctl);
	msg.msg_iov = iov;
	msg.msg_iovlen = len > 0 ? 2 : 1;
	msg.msg_control = ctl.buf;
	msg.msg_controllen = sizeof ctl.buf;
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof fd);
	do
		n = sendmsg(a->sock, &msg, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)(sizeof req + len)) {
		a->broken = true;
		audit_err(err, errlen, "audit log: the audit writer is gone");
		return -1;
	}
	return writer_wait(a, req.id, err, errlen);
}

void
audit_writer_disconnect(struct pty_audit *a)
{
	if (a->sock >= 0)
		(void)close(a->sock);
	a->sock = -1;
	/* the writer appends a fallback, then ends; it is reaped by whoever
	 * reaps this process's children */
}

int
pty_audit_start_writer(const char *log_path, const char *key_path,
		       struct pty_audit **out, char *err, size_t errlen)
{
	struct pty_audit *a;
	/* the user whose session this is: the guard runs setuid, so its
	 * real uid (what the reserve is counted by) */
	uid_t user = getuid();
	int sv[2];
	pid_t pid;

	if ((a = audit_handle_begin(log_path, key_path, out, err, errlen)) ==
	    NULL)
		return -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
		audit_err(err, errlen, "audit writer: socketpair: %s",
			  strerror(errno));
		pty_audit_close(a);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		(void)close(sv[0]);
		writer_main(sv[1], log_path, key_path, user);
	}
	(void)close(sv[1]);
	if (pid < 0) {
		audit_err(err, errlen, "audit writer: fork: %s",
			  strerror(errno));
		(void)close(sv[0]);
		pty_audit_close(a);
		return -1;
	}
	a->sock = sv[0];
	a->writer = pid;
	a->pid = getpid();
	/* the first answer (id 0) says whether the log could be opened */
	a->next = 1;
	if (writer_wait(a, 0, err, errlen) != 0) {
		pty_audit_close(a);
		(void)waitpid(pid, NULL, 0);
		return -1;
	}
	*out = a;
	return 0;
}

int
pty_audit_set_fallback(struct pty_audit *a, const struct pty_audit_session *s,
		       const struct pty_audit_event *e, char *err,
		       size_t errlen)
{
	size_t len = 0;

	if (a == NULL || a->sock < 0)
		return 0; /* the log is this process's own: nothing to leave */
	if (audit_encode(s, e, a->body, AUDIT_BODY_MAX, &len, err, errlen) != 0)
		return -1;
	return audit_writer_send(a, AUDIT_MSG_FALLBACK, a->body, len, err,
				 errlen);
}

int
pty_audit_session_done(struct pty_audit *a, char *err, size_t errlen)
{
	if (a == NULL || a->sock < 0)
		return 0;
	return audit_writer_send(a, AUDIT_MSG_DONE, NULL, 0, err, errlen);
}

pid_t
pty_audit_writer_pid(const struct pty_audit *a)
{
	return a != NULL && a->sock >= 0 ? a->writer : 0;
}
