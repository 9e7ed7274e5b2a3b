/* SPDX-License-Identifier: MIT */
/*
 * --check of the session recordings' folder (record = DIR), judged as the
 * audit log's folder is (check_audit.c) and for the same reason: the
 * audit writer creates every recording there as the audit account, and
 * nobody else may add, rename or remove a file in it.
 *
 *   the folder   0700 (or 2750) maelys-pty:maelys-pty, or root's with
 *                the audit account let in
 *
 * Judged by lstat(2): run from the setuid guard, --check is the audit
 * account, and what that account may open says nothing about the caller.
 */
#include "check_internal.h"

#include <errno.h>
#include <string.h>

void
check_record_folder(struct check_ctx *c)
{
	const char *dir = c->cfg.record;
	const char *a = c->audit_known ? c->audit_name : "maelys-pty";
	char owner[64];
	struct stat st;
	unsigned shift;

	if (!c->configured || dir[0] == '\0')
		return;
	if (lstat(dir, &st) != 0 && errno == ENOENT) {
		check_report(c, CHECK_ERROR,
			     "record = %s does not exist: mkdir -m 0700 %s; "
			     "chown %s:%s %s",
			     dir, dir, a, a, dir);
		return;
	}
	if (lstat(dir, &st) != 0) {
		check_report(c, CHECK_ERROR, "record = %s cannot be checked: %s",
			     dir, strerror(errno));
		return;
	}
	check_user_name(st.st_uid, owner, sizeof owner);
	shift = c->audit_known && st.st_uid == c->audit_uid   ? 6
		: c->audit_known && st.st_gid == c->audit_gid ? 3
							      : 0;
	if (S_ISLNK(st.st_mode))
		check_report(c, CHECK_ERROR,
			     "record = %s is a symbolic link: make it a real "
			     "directory (0700 %s:%s)",
			     dir, a, a);
	else if (!S_ISDIR(st.st_mode))
		check_report(c, CHECK_ERROR, "record = %s is not a directory",
			     dir);
	else if (c->audit_known && st.st_uid != 0 && st.st_uid != c->audit_uid)
		check_report(c, CHECK_ERROR,
			     "record = %s is owned by %s, not root or the "
			     "audit account %s: chown %s:%s %s",
			     dir, owner, a, a, a, dir);
	else if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		check_report(c, CHECK_ERROR,
			     "record = %s is writable by group or others (mode "
			     "%04o): chmod 0700 %s",
			     dir, (unsigned)(st.st_mode & 07777), dir);
	else if (c->audit_known && ((st.st_mode >> shift) & 3) != 3)
		check_report(c, CHECK_ERROR,
			     "record = %s (owner %s, mode %04o) does not let "
			     "the audit account %s create recordings in it: "
			     "chown %s:%s %s; chmod 0700 %s",
			     dir, owner, (unsigned)(st.st_mode & 07777), a, a,
			     a, dir, dir);
}
