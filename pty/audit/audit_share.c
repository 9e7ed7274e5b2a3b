/* SPDX-License-Identifier: MIT */
/*
 * The recordings' shares of their file system (audit_rec_internal.h): what
 * the open recordings of each user hold together, kept by the audit
 * writers of all sessions - one process a session, each the audit account
 * - in one file of the recordings' folder, DIR/.recordings.shares.
 *
 * Why a user's share, not a session's: a user who opens many sessions
 * must not record more at once than with one, or five sessions printing
 * without end would take five times what one may, and fill the file system
 * the other users' recordings are on.  Why only the open recordings: they
 * are what grows; a closed one is a file the administrator keeps or moves,
 * and what closed recordings take once the file system is low is the
 * reserve's to bound (audit_reserve_charge, audit_rec.c).
 *
 * The file: AUDIT_SHARE_SLOTS slots of {uid + 1, bytes} (0: free), one
 * for each open recording, in this host's byte order, read and written
 * under an OFD write lock on the slots (fcntl(2) F_OFD_SETLKW: the lock of
 * this open file description, not of the process).  Each writer keeps the
 * file open for as long as its recording is, with an OFD write lock on one
 * byte of its own, AUDIT_SHARE_LIVE + its slot, far past the slots: the
 * kernel drops that lock when the writer's descriptor goes, however it
 * goes (the writer ended, crashed, was killed), so a slot whose byte
 * nobody holds is a recording that is no longer open, and the next writer
 * that reads the slots frees it.  Nothing is counted that is not on its
 * way to the disk: a writer adds to its slot what it is about to write,
 * before it writes it.
 *
 * It fails closed: a file that cannot be opened, locked, read or written,
 * that is not a regular file of the audit account's with no access for
 * others, or that is longer than the slots, refuses the charge (so no
 * recording grows uncounted) and says why.  No user can cause that: the
 * folder is the audit account's, writable by nobody else.  A file shorter
 * than the slots (a writer that was stopped while making it) is made
 * whole with free slots.
 */
#define _GNU_SOURCE /* F_OFD_SETLKW */

#include "audit_rec_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define AUDIT_SHARE_FILE  ".recordings.shares"
#define AUDIT_SHARE_BYTES (AUDIT_SHARE_SLOTS * sizeof(struct audit_share_slot))
/* Where the bytes whose locks say that a slot's recording is open begin
 * (a lock may lie past the end of a file). */
#define AUDIT_SHARE_LIVE  ((off_t)1 << 40)

unsigned long long
audit_share_of(unsigned long long fs_bytes, unsigned long long configured)
{
	return configured != 0 ? configured : fs_bytes / AUDIT_SHARE_PART;
}

bool
audit_share_fits(unsigned long long held, unsigned long long len,
		 unsigned long long share)
{
	/* "held + len <= share", which cannot wrap */
	return held <= share && len <= share - held;
}

unsigned long long
audit_share_held(const struct audit_share_slot *slots, size_t n, uid_t user)
{
	unsigned long long held = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (slots[i].uid1 != (uint64_t)user + 1)
			continue;
		if (slots[i].bytes > ULLONG_MAX - held)
			return ULLONG_MAX; /* as much as can be said */
		held += slots[i].bytes;
	}
	return held;
}

/* An OFD lock of one kind (F_WRLCK, F_UNLCK) on [start, start + len).
 * Returns what fcntl(2) returns. */
static int
share_lock(int fd, int cmd, short type, off_t start, off_t len)
{
	struct flock fl;

	memset(&fl, 0, sizeof fl);
	fl.l_type = type;
	fl.l_whence = SEEK_SET;
	fl.l_start = start;
	fl.l_len = len;
	return fcntl(fd, cmd, &fl);
}

/* The slots, under their lock, taken here (the caller unlocks with
 * share_unlock): read into slots, the file made whole if it is short.
 * Returns 0, or -1 with err (the lock released). */
static int
share_read(int fd, const char *dir, struct audit_share_slot *slots, char *err,
	   size_t errlen)
{
	const char *why = NULL;
	struct stat st;
	ssize_t n;

	while (share_lock(fd, F_OFD_SETLKW, F_WRLCK, 0,
			  (off_t)AUDIT_SHARE_BYTES) != 0) {
		if (errno != EINTR) {
			audit_err(err, errlen,
				  "the recordings' shares %s/%s: cannot be "
				  "locked: %s",
				  dir, AUDIT_SHARE_FILE, strerror(errno));
			return -1;
		}
	}
	memset(slots, 0, AUDIT_SHARE_BYTES);
	if (fstat(fd, &st) != 0)
		why = strerror(errno);
	else if (st.st_size > (off_t)AUDIT_SHARE_BYTES)
		why = "longer than its slots: not a file of open recordings "
		      "(remove it when no session records)";
	else if ((n = pread(fd, slots, (size_t)st.st_size, 0)) !=
		 (ssize_t)st.st_size)
		why = n < 0 ? strerror(errno) : "read short";
	else if ((size_t)n < AUDIT_SHARE_BYTES &&
		 pwrite(fd, (char *)slots + n, AUDIT_SHARE_BYTES - (size_t)n,
			n) != (ssize_t)(AUDIT_SHARE_BYTES - (size_t)n))
		why = strerror(errno != 0 ? errno : EIO); /* zeros: free */
	if (why == NULL)
		return 0;
	audit_err(err, errlen, "the recordings' shares %s/%s: %s", dir,
		  AUDIT_SHARE_FILE, why);
	(void)share_lock(fd, F_OFD_SETLK, F_UNLCK, 0, (off_t)AUDIT_SHARE_BYTES);
	return -1;
}

static void
share_unlock(int fd)
{
	(void)share_lock(fd, F_OFD_SETLK, F_UNLCK, 0, (off_t)AUDIT_SHARE_BYTES);
}

/* Frees the slots whose recordings are no longer open: nobody holds their
 * byte.  `mine` (a slot this descriptor holds, or AUDIT_SHARE_SLOTS) is
 * passed over: F_OFD_GETLK sees only others' locks.  Only `user`'s slots
 * when only_user.  Returns how many were freed. */
static size_t
share_reap(int fd, struct audit_share_slot *slots, size_t mine, uid_t user,
	   bool only_user)
{
	size_t i, freed = 0;

	for (i = 0; i < AUDIT_SHARE_SLOTS; i++) {
		struct flock fl;

		if (i == mine || slots[i].uid1 == 0 ||
		    (only_user && slots[i].uid1 != (uint64_t)user + 1))
			continue;
		memset(&fl, 0, sizeof fl);
		fl.l_type = F_WRLCK;
		fl.l_whence = SEEK_SET;
		fl.l_start = AUDIT_SHARE_LIVE + (off_t)i;
		fl.l_len = 1;
		if (fcntl(fd, F_OFD_GETLK, &fl) == 0 && fl.l_type == F_UNLCK) {
			memset(&slots[i], 0, sizeof slots[i]);
			freed++;
		}
	}
	return freed;
}

/* Writes the slots back: all of them, or the one at `only`. */
static int
share_write(int fd, const char *dir, const struct audit_share_slot *slots,
	    size_t only, bool all, char *err, size_t errlen)
{
	const void *from =
	    all ? (const void *)slots : (const void *)&slots[only];
	size_t len = all ? AUDIT_SHARE_BYTES : sizeof slots[only];
	off_t at = all ? 0 : (off_t)(only * sizeof slots[only]);

	if (pwrite(fd, from, len, at) != (ssize_t)len) {
		audit_err(err, errlen, "the recordings' shares %s/%s: %s", dir,
			  AUDIT_SHARE_FILE, strerror(errno != 0 ? errno : EIO));
		return -1;
	}
	return 0;
}

int
audit_share_open(struct audit_share *sh, const char *dir, uid_t user, char *err,
		 size_t errlen)
{
	struct audit_share_slot slots[AUDIT_SHARE_SLOTS];
	char path[PATH_MAX + 32];
	struct stat st;
	size_t i, at = AUDIT_SHARE_SLOTS, mine = 0;
	int fd;

	sh->fd = -1;
	sh->slot = AUDIT_SHARE_SLOTS;
	sh->user = user;
	(void)snprintf(sh->dir, sizeof sh->dir, "%s", dir);
	(void)snprintf(path, sizeof path, "%s/%s", dir, AUDIT_SHARE_FILE);
	fd = open(path,
		  O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY |
		      O_NONBLOCK,
		  0600);
	/* one link: not another file of the account's linked here */
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 077) != 0 ||
	    st.st_nlink != 1) {
		audit_err(err, errlen, "the recordings' shares %s: %s", path,
			  fd < 0 ? strerror(errno)
				 : "not a file of the audit account's, 0600, "
				   "with one link");
		if (fd >= 0)
			(void)close(fd);
		return -1;
	}
	if (share_read(fd, dir, slots, err, errlen) != 0) {
		(void)close(fd);
		return -1;
	}
	/* every slot whose recording is gone freed, then a free one */
	(void)share_reap(fd, slots, AUDIT_SHARE_SLOTS, user, false);
	for (i = 0; i < AUDIT_SHARE_SLOTS; i++) {
		if (slots[i].uid1 == (uint64_t)user + 1)
			mine++;
		else if (slots[i].uid1 == 0 && at == AUDIT_SHARE_SLOTS)
			at = i;
	}
	if (mine >= AUDIT_SHARE_USER_SLOTS || at == AUDIT_SHARE_SLOTS) {
		if (mine >= AUDIT_SHARE_USER_SLOTS)
			audit_err(err, errlen,
				  "uid %lu has %zu recorded sessions open, the "
				  "most one user may",
				  (unsigned long)user, mine);
		else
			audit_err(err, errlen,
				  "%d recorded sessions are open, the most the "
				  "recordings' shares %s keep",
				  AUDIT_SHARE_SLOTS, path);
		share_unlock(fd);
		(void)close(fd);
		return -1;
	}
	slots[at].uid1 = (uint64_t)user + 1;
	slots[at].bytes = 0;
	if (share_lock(fd, F_OFD_SETLK, F_WRLCK, AUDIT_SHARE_LIVE + (off_t)at,
		       1) != 0) {
		audit_err(err, errlen,
			  "the recordings' shares %s: its slot %zu cannot be "
			  "held: %s",
			  path, at, strerror(errno));
		share_unlock(fd);
		(void)close(fd);
		return -1;
	}
	if (share_write(fd, dir, slots, at, true, err, errlen) != 0) {
		share_unlock(fd);
		(void)close(fd); /* its slot's lock goes with it */
		return -1;
	}
	share_unlock(fd);
	sh->fd = fd;
	sh->slot = at;
	return 0;
}

int
audit_share_charge(struct audit_share *sh, unsigned long long len,
		   unsigned long long share, unsigned long long *held,
		   char *err, size_t errlen)
{
	struct audit_share_slot slots[AUDIT_SHARE_SLOTS];
	bool reaped;
	int rc = 0;

	*held = 0;
	if (sh->fd < 0) {
		audit_err(err, errlen, "the recordings' shares: not open");
		return -1;
	}
	if (share_read(sh->fd, sh->dir, slots, err, errlen) != 0)
		return -1;
	if (slots[sh->slot].uid1 != (uint64_t)sh->user + 1) {
		/* only this writer writes its slot: the file was replaced
		 * or changed by someone else */
		audit_err(err, errlen,
			  "the recordings' shares %s/%s: this recording's "
			  "slot %zu was changed",
			  sh->dir, AUDIT_SHARE_FILE, sh->slot);
		share_unlock(sh->fd);
		return -1;
	}
	/* the user's recordings that are no longer open count no more */
	reaped = share_reap(sh->fd, slots, sh->slot, sh->user, true) > 0;
	*held = audit_share_held(slots, AUDIT_SHARE_SLOTS, sh->user);
	if (!audit_share_fits(*held, len, share))
		rc = 1;
	else
		slots[sh->slot].bytes += len;
	if ((rc == 0 || reaped) && share_write(sh->fd, sh->dir, slots, sh->slot,
					       reaped, err, errlen) != 0)
		rc = -1;
	share_unlock(sh->fd);
	return rc;
}

void
audit_share_close(struct audit_share *sh)
{
	struct audit_share_slot slots[AUDIT_SHARE_SLOTS];
	char err[256];

	if (sh->fd < 0)
		return;
	/* the slot freed; were that to fail, the lock that goes with the
	 * descriptor says that the recording is no longer open */
	if (share_read(sh->fd, sh->dir, slots, err, sizeof err) == 0) {
		if (slots[sh->slot].uid1 == (uint64_t)sh->user + 1) {
			memset(&slots[sh->slot], 0, sizeof slots[sh->slot]);
			(void)share_write(sh->fd, sh->dir, slots, sh->slot,
					  false, err, sizeof err);
		}
		share_unlock(sh->fd);
	}
	(void)close(sh->fd);
	sh->fd = -1;
	sh->slot = AUDIT_SHARE_SLOTS;
}
