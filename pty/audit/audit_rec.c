/* SPDX-License-Identifier: MIT */
/*
 * The session recording's two ends (pty_audit_rec.h): in the audit
 * writer process, the recording of its one session, fed by the channel
 * and closed before its session_end record, which then describes it; in
 * the guard, the queue that feeds the channel without ever waiting.
 */
#define _GNU_SOURCE

#include "audit_rec_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* How long the writer reads the channel for its end once the session
 * ends (the guard has sent everything by then), and how long the guard
 * tries to send what is queued. */
#define AUDIT_REC_DRAIN_MS 5000

/* The configuration, set before the writer is forked (see the header). */
static char audit_rec_dir[PATH_MAX];
static unsigned long long audit_rec_max, audit_rec_share;

void
pty_audit_record_configure(const char *dir, unsigned long long max,
			   unsigned long long share)
{
	(void)snprintf(audit_rec_dir, sizeof audit_rec_dir, "%s",
		       dir != NULL ? dir : "");
	audit_rec_max = max;
	audit_rec_share = share;
}

/* ------------------------------------------------------------------ */
/* The writer's end.                                                   */

void
audit_rec_writer_init(struct audit_rec_writer *w, uid_t user)
{
	memset(w, 0, sizeof *w);
	w->chan = -1;
	w->user = user;
	w->share.fd = -1;
}

/* The room for n more bytes of the recording (pty_record_room_fn), as
 * each user's share of the recordings' file system allows it:
 *   - the user's open recordings, over all their sessions, hold at most
 *     their share (record_share, or an eighth of the file system;
 *     audit_share.c), so that a user who opens many sessions records no
 *     more at once than with one;
 *   - once the file system is down to the reserve the audit writers keep
 *     on it (a quarter of it, at most 64 MiB: audit_reserve_in), what the
 *     user's recordings write into it, over all their sessions, open or
 *     closed since, is at most a quarter of the reserve (the log's rule,
 *     audit_reserve_charge, counted in DIR/.recordings.reserve and
 *     forgotten once the file system is out of its reserve again), so
 *     that a user who records session after session does not drain it.
 * What a recording wrote before the file system was low does not count
 * in its reserve: a session is never stopped for what other users filled
 * the disk with.  A file system or a count that cannot be read refuses
 * the room (no recording grows uncounted).  Returns 0, or -1 with err. */
static int
audit_rec_room(void *ctx, unsigned long long written, size_t n, char *err,
	       size_t errlen)
{
	struct audit_rec_writer *w = ctx;
	unsigned long long share, held, avail, reserve;
	char path[PATH_MAX + 32];
	struct statvfs vfs;
	int rc;

	if (fstatvfs(w->share.fd, &vfs) != 0) {
		audit_err(err, errlen,
			  "the recordings' file system cannot be asked for its "
			  "room: %s",
			  strerror(errno));
		return -1;
	}
	share = audit_share_of((unsigned long long)vfs.f_blocks * vfs.f_frsize,
			       audit_rec_share);
	rc = audit_share_charge(&w->share, n, share, &held, err, errlen);
	if (rc > 0 && written > 0)
		audit_err(err, errlen,
			  "uid %lu's open recordings are at their share of "
			  "the recordings' file system (record_share %llu "
			  "KiB): together they hold %llu KiB, this one %llu "
			  "KiB of it",
			  (unsigned long)w->user, share >> 10, held >> 10,
			  written >> 10);
	else if (rc > 0)
		audit_err(err, errlen,
			  "uid %lu's open recordings are at their share of "
			  "the recordings' file system (record_share %llu "
			  "KiB): together they hold %llu KiB; end one of "
			  "those sessions",
			  (unsigned long)w->user, share >> 10, held >> 10);
	if (rc != 0)
		return -1;
	(void)snprintf(path, sizeof path, "%s/.recordings.reserve",
		       audit_rec_dir);
	if (!audit_reserve_in(&vfs, n, &reserve, &avail)) {
		(void)unlink(path);
		return 0;
	}
	return audit_reserve_charge(path, w->user, n, reserve / 4,
				    "the recordings", AUDIT_RESERVE_BYTES, err,
				    errlen);
}

/* The room for the file a new recording is: once the recordings' file
 * system is down to its reserve of files (a quarter of its inodes, at
 * most AUDIT_RESERVE_FILES_MAX: audit_reserve_files_in), each user may
 * make at most a quarter of that reserve's files, over all their
 * sessions (counted in DIR/.recordings.files, forgotten once the file
 * system is out of that reserve again).  A recording that has ended
 * stays a file until the administrator moves it, and the bytes' share
 * and reserve do not count files: a user who starts session after
 * session, each leaving a small file, would otherwise take the last
 * inode, and no other user's session could start.  Returns 0, or -1 with
 * err (the session does not start). */
static int
audit_rec_file_room(const struct audit_rec_writer *w, char *err, size_t errlen)
{
	char path[PATH_MAX + 32];
	unsigned long long reserve;
	struct statvfs vfs;

	if (statvfs(audit_rec_dir, &vfs) != 0) {
		audit_err(err, errlen,
			  "the recordings' file system cannot be asked for its "
			  "room: %s",
			  strerror(errno));
		return -1;
	}
	(void)snprintf(path, sizeof path, "%s/.recordings.files",
		       audit_rec_dir);
	if (!audit_reserve_files_in(&vfs, &reserve)) {
		(void)unlink(path);
		return 0;
	}
	return audit_reserve_charge(path, w->user, 1, reserve / 4,
				    "the recordings", AUDIT_RESERVE_FILES, err,
				    errlen);
}

static uint64_t
audit_rec_elapsed_us(const struct audit_rec_writer *w)
{
	struct timespec now;
	int64_t us;

	(void)clock_gettime(CLOCK_MONOTONIC, &now);
	us = (int64_t)(now.tv_sec - w->start.tv_sec) * 1000000 +
	     (now.tv_nsec - w->start.tv_nsec) / 1000;
	return us > 0 ? (uint64_t)us : 0;
}

int
audit_rec_begin(struct audit_rec_writer *w, const char *msg, size_t len,
		int chan, char *err, size_t errlen)
{
	struct audit_rec_start st;
	struct pty_record_header h;
	char name[64], title[2 * AUDIT_REC_STRING_MAX + 64];
	size_t off = sizeof st, i;
	struct timespec now;

	if (audit_rec_dir[0] == '\0' || w->rec != NULL || w->done ||
	    chan < 0 || len < sizeof st) {
		audit_err(err, errlen,
			  audit_rec_dir[0] == '\0'
			      ? "recording: not configured for this writer"
			      : "recording: malformed request");
		goto fail;
	}
	memcpy(&st, msg, sizeof st);
	for (i = 0; i < AUDIT_REC_START_STRINGS; i++) {
		size_t n = off < len ? strnlen(msg + off, len - off) : 0;

		if (off >= len || off + n == len || n >= AUDIT_REC_STRING_MAX) {
			audit_err(err, errlen, "recording: malformed request");
			goto fail;
		}
		memcpy(w->strs[i], msg + off, n + 1);
		off += n + 1;
	}
	/* the size is the one the session's shell was given: any a
	 * terminal may have but 0, which the guard never sends */
	if (off != len || strlen(w->strs[0]) != 32 ||
	    !audit_is_hex(w->strs[0], 32) ||
	    !pty_record_size_valid(st.width, st.height)) {
		audit_err(err, errlen, "recording: malformed request");
		goto fail;
	}
	memcpy(w->s.id, w->strs[0], 33);
	w->s.host = w->strs[1];
	w->s.user = w->strs[2];
	w->s.tty = w->strs[3];
	w->s.remote = w->strs[4];
	w->s.mode = w->strs[5];
	if (strlen(w->strs[6]) == 64 && audit_is_hex(w->strs[6], 64))
		memcpy(w->s.policy_sha256, w->strs[6], 65);
	(void)snprintf(name, sizeof name, "%s.cast", w->s.id);
	(void)snprintf(w->path, sizeof w->path, "%s/%s", audit_rec_dir, name);
	(void)snprintf(title, sizeof title, "maelys-pty session %s (%s@%s)",
		       w->s.id, w->s.user, w->s.host);
	(void)clock_gettime(CLOCK_REALTIME, &now);
	h.width = st.width;
	h.height = st.height;
	h.timestamp = (long long)now.tv_sec;
	h.shell = w->strs[7];
	h.term = w->strs[8];
	h.title = title;
	/* the room for its file, the file (in a folder pty_record_open has
	 * checked), then its slot in the shares, its header counted there:
	 * a session whose user has no room left does not start, and leaves
	 * no file */
	if (audit_rec_file_room(w, err, errlen) != 0 ||
	    pty_record_open(audit_rec_dir, name, audit_rec_max, &h, &w->rec,
			    err, errlen) != 0)
		goto fail;
	if (audit_share_open(&w->share, audit_rec_dir, w->user, err, errlen) !=
		0 ||
	    audit_rec_room(w, 0, pty_record_bytes(w->rec), err, errlen) != 0) {
		char e2[64], sha[65];
		unsigned long long bytes;
		bool complete;

		(void)pty_record_close(w->rec, &bytes, sha, &complete, e2,
				       sizeof e2);
		w->rec = NULL;
		(void)unlink(w->path);
		audit_share_close(&w->share);
		goto fail;
	}
	pty_record_set_room(w->rec, audit_rec_room, w);
	(void)fcntl(chan, F_SETFL, fcntl(chan, F_GETFL) | O_NONBLOCK);
	w->chan = chan;
	(void)clock_gettime(CLOCK_MONOTONIC, &w->start);
	return 0;
fail:
	if (chan >= 0)
		(void)close(chan);
	return -1;
}

/* Why a recording whose guard never sent its end frame stopped. */
static const char AUDIT_REC_NO_END[] =
    "the guard's stream ended before its end: output the guard showed "
    "may be missing (the guard was killed, or could not hand over what "
    "it had queued)";

/* The recording stopped: the audit record that says so, and the guard
 * told (a guard that is gone is not told).  rc says why, as pty_record_*
 * answered: 1 record_max; PTY_RECORD_REFUSED, the room was refused (`why`
 * says by what); -1, `why` could not be written, or AUDIT_REC_NO_END. */
static void
audit_rec_stopped(struct audit_rec_writer *w, struct pty_audit *a, int rc,
		  const char *why)
{
	struct pty_audit_event e;
	char note[800], err[512];
	size_t len = 0;

	memset(&e, 0, sizeof e);
	e.event = "recording_stopped";
	if (rc == 1)
		(void)snprintf(note, sizeof note,
			       "the recording reached record_max (%llu bytes)",
			       audit_rec_max);
	else if (rc == PTY_RECORD_REFUSED)
		(void)snprintf(note, sizeof note,
			       "the recording has no room: %s", why);
	else if (why == AUDIT_REC_NO_END)
		(void)snprintf(note, sizeof note, "%s", why);
	else
		(void)snprintf(note, sizeof note,
			       "the recording could not be written: %s", why);
	e.note = note;
	w->stop_said = true;
	if (audit_encode(&w->s, &e, a->body, AUDIT_BODY_MAX, &len, err,
			 sizeof err) == 0)
		(void)audit_append_body(a, a->body, len, err, sizeof err);
	while (send(w->chan, "S", 1, MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
}

/* One whole frame from the guard. */
static void
audit_rec_frame(struct audit_rec_writer *w, struct pty_audit *a, char kind,
		const unsigned char *data, size_t len)
{
	char err[512];
	int rc;

	if (pty_record_stopped(w->rec))
		return; /* already said; the rest is dropped */
	rc = pty_record_event(w->rec, audit_rec_elapsed_us(w), kind, data, len,
			      err, sizeof err);
	if (rc != 0)
		audit_rec_stopped(w, a, rc, err);
}

/* Takes the whole frames at the start of w->in.  Returns false when the
 * guard sent what is no frame (the recording then stops). */
static bool
audit_rec_frames(struct audit_rec_writer *w, struct pty_audit *a)
{
	size_t off = 0;
	bool ok = true;

	while (w->in_len - off >= sizeof(struct audit_rec_frame)) {
		struct audit_rec_frame f;
		unsigned cols, rows;

		memcpy(&f, w->in + off, sizeof f);
		if ((f.kind != 'o' && f.kind != 'i' && f.kind != 'r' &&
		     f.kind != 'm' && f.kind != 'x' && f.kind != 'e') ||
		    f.len > PTY_RECORD_CHUNK_MAX || w->ended ||
		    ((f.kind == 'x' || f.kind == 'e') && f.len != 0) ||
		    (f.kind == 'r' && f.len > PTY_RECORD_SIZE_TEXT_MAX)) {
			ok = false;
			break;
		}
		if (w->in_len - off - sizeof f < f.len)
			break;
		/* a size is one the reader reads, or no frame: the guard
		 * sends pty_record_size_format's */
		if (f.kind == 'r' &&
		    !pty_record_size_parse((const char *)w->in + off + sizeof f,
					   f.len, &cols, &rows)) {
			ok = false;
			break;
		}
		if (f.kind == 'e') {
			w->ended = true;
		} else if (f.kind == 'x' && w->rec != NULL &&
		    !pty_record_stopped(w->rec)) {
			audit_rec_stopped(w, a, -1,
					  "the guard could not keep up (its "
					  "queue overflowed)");
			pty_record_stop(w->rec);
		} else if (f.kind != 'x' && f.kind != 'e') {
			audit_rec_frame(w, a, (char)f.kind,
					w->in + off + sizeof f, f.len);
		}
		off += sizeof f + f.len;
	}
	memmove(w->in, w->in + off, w->in_len - off);
	w->in_len -= off;
	return ok;
}

/* Closes the recording and keeps what session_end says of it; what was
 * buffered and had no room is said, as any stop is (once: a recording
 * that had stopped before was said then, and its end is not complete
 * anyway). */
static void
audit_rec_close(struct audit_rec_writer *w, struct pty_audit *a)
{
	char err[512];

	if (w->rec != NULL &&
	    pty_record_close(w->rec, &w->bytes, w->sha256, &w->complete, err,
			     sizeof err) == PTY_RECORD_REFUSED &&
	    !w->stop_said)
		audit_rec_stopped(w, a, PTY_RECORD_REFUSED, err);
	if (w->chan >= 0)
		(void)close(w->chan);
	w->chan = -1;
	audit_share_close(&w->share);
	if (w->rec == NULL)
		return;
	w->rec = NULL;
	w->done = true;
}

void
audit_rec_read(struct audit_rec_writer *w, struct pty_audit *a)
{
	char err[512];
	ssize_t n;
	size_t room;
	int rc;

	if (w->chan < 0)
		return;
	room = sizeof w->in - w->in_len;
	n = read(w->chan, w->in + w->in_len, room);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		/* the guard closed it: the session is over.  Without its
		 * end frame the guard did not hand over all it showed (it
		 * was killed, or gave up sending its queue): what the
		 * file lacks is unknown, so it is not complete */
		if (!w->ended && w->rec != NULL &&
		    !pty_record_stopped(w->rec)) {
			audit_rec_stopped(w, a, -1, AUDIT_REC_NO_END);
			pty_record_stop(w->rec);
		}
		audit_rec_close(w, a);
		return;
	}
	w->in_len += (size_t)n;
	if (!audit_rec_frames(w, a)) {
		/* nothing after a malformed frame can be read as frames:
		 * dropped, and the recording stopped as incomplete */
		if (!pty_record_stopped(w->rec)) {
			audit_rec_stopped(w, a, -1,
					  "the guard sent a malformed frame");
			pty_record_stop(w->rec);
		}
		w->in_len = 0;
	}
	/* the channel is drained (the read did not fill the room): to
	 * disk, so that the file follows the session closely (each write
	 * within its user's share: audit_rec_room) */
	if ((size_t)n < room && w->rec != NULL && !pty_record_stopped(w->rec) &&
	    (rc = pty_record_flush(w->rec, err, sizeof err)) != 0)
		audit_rec_stopped(w, a, rc, err);
}

void
audit_rec_finish(struct audit_rec_writer *w, struct pty_audit *a)
{
	struct timespec start, now;

	(void)clock_gettime(CLOCK_MONOTONIC, &start);
	while (w->chan >= 0) {
		struct pollfd p = {w->chan, POLLIN, 0};
		long ms;
		int r;

		(void)clock_gettime(CLOCK_MONOTONIC, &now);
		ms = AUDIT_REC_DRAIN_MS -
		     ((now.tv_sec - start.tv_sec) * 1000 +
		      (now.tv_nsec - start.tv_nsec) / 1000000);
		r = ms > 0 ? poll(&p, 1, (int)ms) : 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			/* the guard did not close it in time (stopped, or
			 * still sending): what there may have been after
			 * is not in the file, which is not complete */
			if (w->rec != NULL)
				pty_record_stop(w->rec);
			break;
		}
		audit_rec_read(w, a);
	}
	audit_rec_close(w, a);
}

bool
audit_rec_is_session_end(const char *body, size_t len)
{
	/* outside a string only: inside one every '"' has a '\' before it */
	static const char key[] = ",\"event\":\"session_end\"";

	return memmem(body, len, key, sizeof key - 1) != NULL;
}

size_t
audit_rec_fields(const struct audit_rec_writer *w, char *out, size_t cap)
{
	char path[6 * sizeof w->path];
	size_t n;
	int m;

	if (!w->done)
		return 0;
	n = pty_record_encode_text((const unsigned char *)w->path,
				   strlen(w->path), false, NULL, path);
	path[n] = '\0';
	m = snprintf(out, cap,
		     ",\"recording\":\"%s\",\"recording_bytes\":%llu,"
		     "\"recording_sha256\":\"%s\",\"recording_complete\":%s",
		     path, w->bytes, w->sha256,
		     w->complete ? "true" : "false");
	return m < 0 || (size_t)m >= cap ? (size_t)-1 : (size_t)m;
}

/* ------------------------------------------------------------------ */
/* The guard's end.                                                    */

/* The queue: while it holds more than SOFT bytes the relay stops reading
 * output; markers and sizes may still add up to HARD. */
#define AUDIT_REC_QUEUE_SOFT ((size_t)256 << 10)
#define AUDIT_REC_QUEUE_HARD ((size_t)1 << 20)

struct pty_audit_rec {
	int fd;
	enum pty_audit_rec_state state;
	bool broken; /* the channel failed: nothing more can be sent */
	char *q;
	size_t qoff, qlen; /* unsent bytes are q[qoff, qlen) */
};

int
pty_audit_rec_start(struct pty_audit *a, const struct pty_audit_session *s,
		    unsigned width, unsigned height, const char *shell,
		    const char *term, struct pty_audit_rec **out, char *err,
		    size_t errlen)
{
	const char *strs[AUDIT_REC_START_STRINGS] = {
	    s->id,	  s->host ? s->host : "",
	    s->user ? s->user : "", s->tty ? s->tty : "",
	    s->remote ? s->remote : "", s->mode ? s->mode : "",
	    s->policy_sha256, shell,
	    term};
	struct audit_rec_start st = {width, height};
	char msg[sizeof st + AUDIT_REC_START_STRINGS * AUDIT_REC_STRING_MAX];
	struct pty_audit_rec *r;
	size_t off = sizeof st, i;
	int sv[2];

	*out = NULL;
	if (!pty_record_size_valid(width, height)) {
		audit_err(err, errlen,
			  "recording: the terminal's size %ux%u is not %u to "
			  "%u columns and rows",
			  width, height, PTY_RECORD_SIZE_MIN,
			  PTY_RECORD_SIZE_MAX);
		return -1;
	}
	memcpy(msg, &st, sizeof st);
	for (i = 0; i < AUDIT_REC_START_STRINGS; i++) {
		size_t n = strnlen(strs[i], AUDIT_REC_STRING_MAX - 1);

		memcpy(msg + off, strs[i], n);
		msg[off + n] = '\0';
		off += n + 1;
	}
	if ((r = calloc(1, sizeof *r)) == NULL ||
	    (r->q = malloc(AUDIT_REC_QUEUE_HARD)) == NULL) {
		free(r);
		audit_err(err, errlen, "recording: out of memory");
		return -1;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		audit_err(err, errlen, "recording: socketpair: %s",
			  strerror(errno));
		free(r->q);
		free(r);
		return -1;
	}
	if (audit_writer_send_fd(a, AUDIT_MSG_RECORD_START, msg, off, sv[1],
				 err, errlen) != 0) {
		(void)close(sv[0]);
		(void)close(sv[1]);
		free(r->q);
		free(r);
		return -1;
	}
	(void)close(sv[1]);
	(void)fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_NONBLOCK);
	r->fd = sv[0];
	r->state = PTY_AUDIT_REC_ON;
	*out = r;
	return 0;
}

void
pty_audit_rec_resize(struct pty_audit_rec *r, unsigned cols, unsigned rows)
{
	char size[PTY_RECORD_SIZE_LEN];
	size_t n = pty_record_size_format(cols, rows, size);

	if (n > 0)
		pty_audit_rec_put(r, 'r', size, n);
}

/* Sends what the socket takes now. */
static void
audit_rec_send(struct pty_audit_rec *r)
{
	while (!r->broken && r->qoff < r->qlen) {
		ssize_t n = send(r->fd, r->q + r->qoff, r->qlen - r->qoff,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0) {
			r->broken = true;
			r->state = PTY_AUDIT_REC_FAILED;
			break;
		}
		r->qoff += (size_t)n;
	}
	if (r->qoff == r->qlen)
		r->qoff = r->qlen = 0;
}

void
pty_audit_rec_put(struct pty_audit_rec *r, char kind, const void *data,
		  size_t len)
{
	const char *s = data;

	if (r == NULL || r->state != PTY_AUDIT_REC_ON)
		return;
	do {
		size_t k = len < PTY_RECORD_CHUNK_MAX ? len
						      : PTY_RECORD_CHUNK_MAX;
		struct audit_rec_frame f = {(uint8_t)kind, {0, 0, 0},
					    (uint32_t)k};

		if (r->qlen + sizeof f + k > AUDIT_REC_QUEUE_HARD &&
		    r->qoff > 0) {
			memmove(r->q, r->q + r->qoff, r->qlen - r->qoff);
			r->qlen -= r->qoff;
			r->qoff = 0;
		}
		if (r->qlen + 2 * sizeof f + k > AUDIT_REC_QUEUE_HARD) {
			/* the writer took nothing for a whole megabyte:
			 * the recording cannot follow the session.  The
			 * room for one more header is kept for the frame
			 * that tells the writer so (sent at the latest by
			 * pty_audit_rec_end), lest the file pass for
			 * complete. */
			f.kind = 'x';
			f.len = 0;
			memcpy(r->q + r->qlen, &f, sizeof f);
			r->qlen += sizeof f;
			r->state = PTY_AUDIT_REC_FAILED;
			return;
		}
		memcpy(r->q + r->qlen, &f, sizeof f);
		memcpy(r->q + r->qlen + sizeof f, s, k);
		r->qlen += sizeof f + k;
		s += k;
		len -= k;
	} while (len > 0);
	audit_rec_send(r);
}

int
pty_audit_rec_fd(const struct pty_audit_rec *r)
{
	/* once it is not on, nothing is waited for (a closed channel
	 * would wake poll for ever) */
	return r != NULL && r->state == PTY_AUDIT_REC_ON ? r->fd : -1;
}

bool
pty_audit_rec_pending(const struct pty_audit_rec *r)
{
	return r != NULL && r->state == PTY_AUDIT_REC_ON && r->qlen > r->qoff;
}

bool
pty_audit_rec_full(const struct pty_audit_rec *r)
{
	return r != NULL && r->state == PTY_AUDIT_REC_ON &&
	       r->qlen - r->qoff > AUDIT_REC_QUEUE_SOFT;
}

enum pty_audit_rec_state
pty_audit_rec_service(struct pty_audit_rec *r)
{
	char b[16];
	ssize_t n;

	if (r == NULL)
		return PTY_AUDIT_REC_ON;
	audit_rec_send(r);
	while ((n = recv(r->fd, b, sizeof b, MSG_DONTWAIT)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break; /* EAGAIN: nothing said */
		if (memchr(b, 'S', (size_t)n) != NULL &&
		    r->state == PTY_AUDIT_REC_ON)
			r->state = PTY_AUDIT_REC_STOPPED;
	}
	if (n == 0) {
		r->broken = true; /* the writer is gone */
		if (r->state == PTY_AUDIT_REC_ON)
			r->state = PTY_AUDIT_REC_FAILED;
	}
	return r->state;
}

void
pty_audit_rec_end(struct pty_audit_rec *r, int timeout_ms)
{
	int waited = 0;

	if (r == NULL)
		return;
	if (r->state == PTY_AUDIT_REC_ON) {
		/* the end frame, last: it tells the writer all was handed
		 * over (pty_audit_rec_put keeps room for one header) */
		struct audit_rec_frame f = {'e', {0, 0, 0}, 0};

		memcpy(r->q + r->qlen, &f, sizeof f);
		r->qlen += sizeof f;
	}
	while (!r->broken && r->qoff < r->qlen && waited < timeout_ms) {
		struct pollfd p = {r->fd, POLLOUT, 0};

		if (poll(&p, 1, 100) < 0 && errno != EINTR)
			break;
		waited += 100;
		audit_rec_send(r);
	}
	(void)close(r->fd);
	free(r->q);
	free(r);
}
