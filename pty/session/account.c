/* SPDX-License-Identifier: MIT */
/*
 * The audit account (pty_session.h): what the installation's privileges
 * are, the audit writer started while they are held, and giving them up
 * for good.  A session (main.c) and `maelys-pty decide` with an audit log
 * start their writer here, so both keep the log the same way.
 */
#define _GNU_SOURCE /* setresuid, getresuid, setresgid, getresgid */
#include "pty_session.h"

#include "pty_messages.h"

#include <stdio.h>
#include <unistd.h>

int
pty_privileges_of_install(bool *privileged, const char **why)
{
	*privileged = false;
	/* deployed, the guard is setuid to its audit account
	 * (maelys-pty-setup), which only its audit writer keeps */
	if (geteuid() == 0 && getuid() != 0) {
		*why = PTY_MSG_SETUID_ROOT;
		return -1;
	}
	if (getegid() != getgid() && geteuid() == getuid()) {
		*why = PTY_MSG_SETGID_LEFT;
		return -1;
	}
	*privileged = geteuid() != getuid() || getegid() != getgid();
	return 0;
}

int
pty_drop_privileges(void)
{
	gid_t g = getgid(), rg, eg, sg;
	uid_t u = getuid(), r, e, s;

	if (setresgid(g, g, g) != 0 || getresgid(&rg, &eg, &sg) != 0 ||
	    rg != g || eg != g || sg != g)
		return -1;
	if (setresuid(u, u, u) != 0 || getresuid(&r, &e, &s) != 0 || r != u ||
	    e != u || s != u)
		return -1;
	return 0;
}

int
pty_guard_start_audit(struct pty_guard *g, bool privileged, char *err,
		      size_t errlen)
{
	char why[1024];
	int rc = 0;

	/* syslog = on: the writer sends an anchor after each session's end;
	 * records: each record it writes (pty_audit.h) */
	pty_audit_set_syslog(!g->cfg.syslog ? PTY_AUDIT_SYSLOG_OFF
			     : g->cfg.syslog_records
				 ? PTY_AUDIT_SYSLOG_RECORDS
				 : PTY_AUDIT_SYSLOG_ANCHORS);
	/* the writer's recording folder: from this configuration, read
	 * while privileged, never from a later message of the guard's */
	pty_audit_record_configure(g->cfg.record, g->cfg.record_max,
				   g->cfg.record_share);
	if (g->cfg.audit_log[0] != '\0' &&
	    pty_audit_start_writer(g->cfg.audit_log, g->cfg.audit_key,
				   &g->audit, why, sizeof why) != 0) {
		(void)snprintf(err, errlen, PTY_MSG_AUDIT_LOG, why);
		rc = 1;
	}
	/* whether the writer started or not: nothing of the caller's is
	 * read or run with the audit account's rights */
	if (privileged && pty_drop_privileges() != 0) {
		(void)snprintf(err, errlen, "%s", PTY_MSG_CANNOT_DROP);
		return -1;
	}
	return rc;
}
