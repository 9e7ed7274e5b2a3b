/* SPDX-License-Identifier: MIT */
/*
 * syslog = records: every record, once it is on disk, sent off the log's
 * own file by the writer that wrote it (audit.c calls audit_forward), so
 * that a collector on another host holds a copy the host cannot take back.
 *
 * Where it goes: to the systemd journal (sd_journal_sendv) when its socket
 * exists, with the record's seq, event, user, session and decision as
 * fields of their own; otherwise to syslog(3).  Not both: on a host with
 * journald, /dev/log is journald's too, so both would store every record
 * twice; journald hands its entries to a syslog daemon (ForwardToSyslog=,
 * or rsyslog's imjournal) as authpriv.info all the same (SYSLOG_FACILITY,
 * PRIORITY, SYSLOG_IDENTIFIER below).
 *
 * What goes: the record's JSON line (its newline excluded), exactly the
 * bytes the log holds, so the verification key checks it off the host; a
 * record longer than AUDIT_FORWARD_MAX (more than a syslog daemon takes
 * whole) goes as one line naming its seq and the SHA-256 of its line
 * instead, and the log holds the rest.  Nothing here can fail a record:
 * it is already on disk, and a lost message is the collector's gap, which
 * the anchors of the next records show.
 */
#define _GNU_SOURCE

#include "audit_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <syslog.h>
#include <unistd.h>

#include <systemd/sd-journal.h>

/* The longest record sent whole: 8 KiB, what rsyslog takes by default
 * ($MaxMessageSize) and under what every syslog daemon takes. */
#define AUDIT_FORWARD_MAX 8192

#define AUDIT_JOURNAL_SOCKET "/run/systemd/journal/socket"

/* Set in the process that starts writers, inherited by each over fork. */
static enum pty_audit_syslog audit_syslog_mode = PTY_AUDIT_SYSLOG_OFF;

void
pty_audit_set_syslog(enum pty_audit_syslog mode)
{
	audit_syslog_mode = mode;
}

bool
audit_syslog_anchors(void)
{
	return audit_syslog_mode == PTY_AUDIT_SYSLOG_ANCHORS;
}

/* The text of top-level member `name` of a record: the digits of a
 * number, or the bytes between a string's quotes as the record escapes
 * them (no control byte, no newline: safe as a journal field).  "" when
 * the record has none.  A member's ,"name": cannot occur inside a string,
 * where every quote is escaped, nor inside "reasons" or "facts", whose
 * objects have other keys and whose arrays have no keys. */
static void
audit_forward_member(const char *rec, size_t len, const char *name,
		     char *out, size_t cap)
{
	char key[40];
	const char *at, *end = rec + len, *v;
	size_t klen, n = 0;

	out[0] = '\0';
	klen = (size_t)snprintf(key, sizeof key, "\"%s\":", name);
	at = memmem(rec, len, key, klen);
	if (at == NULL || (at > rec && at[-1] != ',' && at[-1] != '{'))
		return;
	v = at + klen;
	if (v < end && *v == '"') {
		for (v++; v + n < end && v[n] != '"'; n++)
			if (v[n] == '\\' && v + n + 1 < end)
				n++;
	} else {
		while (v + n < end && v[n] >= '0' && v[n] <= '9')
			n++;
	}
	if (n >= cap)
		n = cap - 1;
	memcpy(out, v, n);
	out[n] = '\0';
}

/* One journal field "NAME=value" into buf, as an iovec. */
static void
audit_forward_field(struct iovec *iov, char *buf, size_t cap, const char *name,
		    const char *value)
{
	int n = snprintf(buf, cap, "%s=%s", name, value);

	iov->iov_base = buf;
	iov->iov_len = n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

static void
audit_forward_journal(const char *rec, size_t len, const char *msg,
		      size_t msglen)
{
	char seq[24], event[64], user[256], session[40], decision[64];
	char f[5][320], message[AUDIT_FORWARD_MAX + 16];
	struct iovec iov[9];
	static char facility[] = "SYSLOG_FACILITY=10"; /* authpriv */
	static char priority[] = "PRIORITY=6";         /* LOG_INFO */
	static char ident[] = "SYSLOG_IDENTIFIER=maelys-pty";

	audit_forward_member(rec, len, "seq", seq, sizeof seq);
	audit_forward_member(rec, len, "event", event, sizeof event);
	audit_forward_member(rec, len, "user", user, sizeof user);
	audit_forward_member(rec, len, "session", session, sizeof session);
	audit_forward_member(rec, len, "decision", decision, sizeof decision);
	audit_forward_field(&iov[0], f[0], sizeof f[0], "MAELYS_SEQ", seq);
	audit_forward_field(&iov[1], f[1], sizeof f[1], "MAELYS_EVENT", event);
	audit_forward_field(&iov[2], f[2], sizeof f[2], "MAELYS_USER", user);
	audit_forward_field(&iov[3], f[3], sizeof f[3], "MAELYS_SESSION",
			    session);
	audit_forward_field(&iov[4], f[4], sizeof f[4], "MAELYS_DECISION",
			    decision);
	memcpy(message, "MESSAGE=", 8);
	memcpy(message + 8, msg, msglen);
	iov[5].iov_base = message;
	iov[5].iov_len = 8 + msglen;
	iov[6].iov_base = facility;
	iov[6].iov_len = sizeof facility - 1;
	iov[7].iov_base = priority;
	iov[7].iov_len = sizeof priority - 1;
	iov[8].iov_base = ident;
	iov[8].iov_len = sizeof ident - 1;
	(void)sd_journal_sendv(iov, 9);
}

void
audit_forward(const char *rec, size_t cap)
{
	const char *nl = memchr(rec, '\n', cap);
	char line[160], seq[24], hex[65];
	size_t len = nl != NULL ? (size_t)(nl - rec) : 0, msglen = len;
	const char *msg = rec;

	if (audit_syslog_mode != PTY_AUDIT_SYSLOG_RECORDS || nl == NULL)
		return;
	if (len > AUDIT_FORWARD_MAX) {
		audit_forward_member(rec, len, "seq", seq, sizeof seq);
		pty_sha256_hex(rec, len, hex);
		msglen = (size_t)snprintf(line, sizeof line,
					  "audit record seq %s sha256 %s (too "
					  "long for syslog: read the log)",
					  seq, hex);
		msg = line;
	}
	if (access(AUDIT_JOURNAL_SOCKET, F_OK) == 0)
		audit_forward_journal(rec, len, msg, msglen);
	else
		syslog(LOG_AUTHPRIV | LOG_INFO, "%.*s", (int)msglen, msg);
}
