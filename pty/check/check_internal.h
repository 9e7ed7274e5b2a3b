/* SPDX-License-Identifier: MIT */
/*
 * What the parts of --check share, inside pty/ only: the state one run
 * builds as it goes (each check reads what the checks before it found and
 * skips what they could not establish), the one reporting function, and the
 * checks that live outside check.c (check_audit.c: the audit log's files
 * and the guard binary; check_host.c: mounts and Yama).
 */
#ifndef PTY_CHECK_INTERNAL_H
#define PTY_CHECK_INTERNAL_H

#include "pty_check.h"
#include "pty_session.h"
#include "pty_decide.h"

#include <maelys/datalog.h>

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

enum check_level { CHECK_ERROR, CHECK_WARNING };

struct check_ctx {
	const struct pty_options *opt;
	FILE *err;          /* the problem lines */
	const char *source; /* the configuration's path, or "(no
			       configuration)" with --policy */
	bool configured;    /* cfg holds the settings (file or --policy) */
	struct pty_config cfg;
	const char *policy_path;
	char policy_sha256[65];
	maelys_datalog_session_t *session; /* the loaded policy, or NULL */
	struct pty_policy_reads reads;     /* what it reads */
	struct pty_decider decider;        /* valid when have_decider */
	bool have_decider;
	const char *who;      /* how the decider's user was chosen */
	char shell[PATH_MAX]; /* cfg.shell resolved; "" when it is not */
	char self[PATH_MAX];  /* the guard binary, resolved; "" unknown */
	struct stat self_st;  /* ... as stat(2) shows it */
	/* the audit account: the owner of the guard installed setuid to an
	 * account other than root; unknown otherwise (the guard check then
	 * says what is wrong, and no owner is checked against it) */
	bool audit_known;
	uid_t audit_uid;
	gid_t audit_gid;
	char audit_name[64];
	unsigned errors, warnings;
};

/* Prints one problem line ("maelys-pty: error: ..." or "maelys-pty:
 * warning: ...", control characters shown as '?') and counts it. */
void check_report(struct check_ctx *c, enum check_level level, const char *fmt,
		  ...) __attribute__((format(printf, 3, 4)));

/* "NAME" for a uid from the password database, else "uid N". */
void check_user_name(uid_t uid, char *out, size_t cap);

/* check_audit.c */
void check_audit_folder(struct check_ctx *c);
void check_audit_log(struct check_ctx *c);
void check_audit_key(struct check_ctx *c);
void check_audit_verify_key(struct check_ctx *c);
void check_guard(struct check_ctx *c);

/* check_record.c: record = DIR */
void check_record_folder(struct check_ctx *c);

/* check_host.c */
void check_mounts(struct check_ctx *c);
void check_yama(struct check_ctx *c);
void check_links(struct check_ctx *c);
void check_log_disk(struct check_ctx *c);

#endif /* PTY_CHECK_INTERNAL_H */
