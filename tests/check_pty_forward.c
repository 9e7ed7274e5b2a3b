/* SPDX-License-Identifier: MIT */
/*
 * syslog = records (pty/audit/audit_forward.c): an audit writer started
 * after pty_audit_set_syslog(PTY_AUDIT_SYSLOG_RECORDS) sends each record once it is on
 * disk - to the journal's socket, with the record's fields, when that
 * socket exists, else to syslog's /dev/log.  Both are the system's real
 * paths, replaced here by datagram sockets of the test's own inside a
 * private mount namespace (tmpfs over /run, and over /dev with the few
 * devices the writer opens bound back), so the real sd_journal_sendv(3)
 * and syslog(3) are what is read.  What arrives is compared with the log
 * itself: the same bytes as each line, the fields of the spec, a record
 * over 8 KiB as its seq and SHA-256 (computed here with OpenSSL), and
 * nothing at all from a writer started without it.  Root only (the
 * namespace): a loud SKIP otherwise.
 */
#define _GNU_SOURCE

#include "runner.h"

#include "pty_audit.h"
#include "pty_harness.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <openssl/sha.h>


struct world {
	char dir[64];
	char log[128];
	char key[128];
	char pub[128];
	int sock; /* the journal's or /dev/log's stand-in */
};

/* A datagram socket bound at path, read by the test. */
static int
bind_dgram(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int size = 1 << 20;

	ck_assert_int_ge(fd, 0);
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
	(void)snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
	ck_assert_msg(bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0,
		      "bind %s: %s", path, strerror(errno));
	ck_assert_int_eq(chmod(path, 0666), 0);
	return fd;
}

/* This test process in a mount namespace of its own, /run empty. */
static void
private_mounts(void)
{
	ck_assert_msg(unshare(CLONE_NEWNS) == 0, "unshare: %s",
		      strerror(errno));
	ck_assert_int_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	ck_assert_int_eq(mount("tmpfs", "/run", "tmpfs", 0, "mode=0755"), 0);
}

static void
world_make(struct world *w)
{
	char err[512];

	(void)snprintf(w->dir, sizeof w->dir, "/tmp/maelys-forward.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(w->dir));
	(void)snprintf(w->log, sizeof w->log, "%s/audit.log", w->dir);
	(void)snprintf(w->key, sizeof w->key, "%s/audit.key", w->dir);
	(void)snprintf(w->pub, sizeof w->pub, "%s/audit.pub", w->dir);
	ck_assert_msg(pty_audit_keygen(w->key, w->pub, NULL, err, sizeof err) ==
			  0,
		      "%s", err);
}

static void
world_remove(struct world *w)
{
	(void)unlink(w->log);
	(void)unlink(w->key);
	(void)unlink(w->pub);
	(void)rmdir(w->dir);
}

/* One fact of 9000 bytes: a record over 8 KiB. */
static int
big_fact(const void *ctx, size_t i, struct pty_audit_fact *out)
{
	static char text[9000];

	(void)ctx;
	(void)i;
	memset(text, 'y', sizeof text);
	memset(out, 0, sizeof *out);
	out->predicate.s = "arg";
	out->predicate.len = 3;
	out->nargs = 1;
	out->args[0].text.s = text;
	out->args[0].text.len = sizeof text;
	return 0;
}

/* Writes three records through a writer: a line, a line whose facts make
 * its record longer than 8 KiB, the session's end. */
static void
write_three(const struct world *w)
{
	struct pty_audit_facts facts = {1, big_fact, NULL};
	struct pty_audit_decision d;
	struct pty_audit_session s;
	struct pty_audit_event e;
	struct pty_audit *a = NULL;
	char err[512];

	memset(&s, 0, sizeof s);
	ck_assert_int_eq(pty_audit_session_id(s.id), 0);
	s.host = "host1";
	s.user = "alice";
	s.tty = "";
	s.remote = "";
	s.mode = "command";
	ck_assert_msg(pty_audit_start_writer(w->log, w->key, &a, err,
					     sizeof err) == 0,
		      "%s", err);
	memset(&d, 0, sizeof d);
	memset(&e, 0, sizeof e);
	e.event = "command";
	e.line = "ls -l \"x\"";
	e.line_len = strlen(e.line);
	e.decision = &d;
	e.outcome = "allow";
	ck_assert_msg(pty_audit_write(a, &s, &e, err, sizeof err) == 0, "%s",
		      err);
	d.facts = &facts;
	e.outcome = "deny";
	ck_assert_msg(pty_audit_write(a, &s, &e, err, sizeof err) == 0, "%s",
		      err);
	memset(&e, 0, sizeof e);
	e.event = e.outcome = "session_end";
	ck_assert_msg(pty_audit_write(a, &s, &e, err, sizeof err) == 0, "%s",
		      err);
	pty_audit_close(a);
}

/* The next datagram within ms milliseconds into buf (NUL-terminated);
 * its length, or -1 when none came. */
static ssize_t
next_datagram(int fd, char *buf, size_t cap, int ms)
{
	struct pollfd p = {fd, POLLIN, 0};
	ssize_t n;

	if (poll(&p, 1, ms) != 1)
		return -1;
	n = recv(fd, buf, cap - 1, 0);
	ck_assert_int_ge(n, 0);
	buf[n] = '\0';
	return n;
}

/* Line i (from 0) of the log, without its newline, into out. */
static void
log_line(const char *log, int i, char *out, size_t cap)
{
	FILE *f = fopen(log, "r");
	char *line = NULL;
	size_t len = 0;
	ssize_t n = -1;

	ck_assert_ptr_nonnull(f);
	for (int k = 0; k <= i; k++)
		n = getline(&line, &len, f);
	ck_assert_int_gt(n, 1);
	line[n - 1] = '\0';
	ck_assert_uint_lt((size_t)n, cap);
	memcpy(out, line, (size_t)n);
	free(line);
	(void)fclose(f);
}

/* "audit record seq N sha256 H (...)", H computed here. */
static void
too_long_line(const char *line, unsigned seq, char *out, size_t cap)
{
	unsigned char digest[SHA256_DIGEST_LENGTH];
	char hex[65];

	SHA256((const unsigned char *)line, strlen(line), digest);
	for (size_t i = 0; i < sizeof digest; i++)
		(void)snprintf(hex + 2 * i, 3, "%02x", digest[i]);
	(void)snprintf(out, cap,
		       "audit record seq %u sha256 %s (too long for syslog: "
		       "read the log)",
		       seq, hex);
}

/* Field NAME of a journal datagram ("NAME=value\n" each), or NULL. */
static char *
journal_field(const char *dgram, const char *name, char *out, size_t cap)
{
	size_t n = strlen(name);
	const char *p = dgram;

	while (*p != '\0') {
		const char *nl = strchr(p, '\n');
		size_t len = nl != NULL ? (size_t)(nl - p) : strlen(p);

		if (len > n && memcmp(p, name, n) == 0 && p[n] == '=') {
			ck_assert_uint_lt(len - n - 1, cap);
			memcpy(out, p + n + 1, len - n - 1);
			out[len - n - 1] = '\0';
			return out;
		}
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	return NULL;
}

static void
assert_field(const char *dgram, const char *name, const char *want)
{
	static char got[70000];

	ck_assert_msg(journal_field(dgram, name, got, sizeof got) != NULL,
		      "no %s in %.500s", name, dgram);
	ck_assert_msg(strcmp(got, want) == 0, "%s=%.300s, not %.300s", name,
		      got, want);
}

static bool
have_root(void)
{
	if (geteuid() == 0)
		return true;
	printf("\n*** SKIP check_pty_forward: needs root (a private mount "
	       "namespace stands in for the journal and /dev/log); not "
	       "tested. CI runs it as root. ***\n\n");
	fflush(stdout);
	return false;
}

START_TEST(test_forward_records_to_the_journal_with_their_fields)
{
	static char dgram[70000], line[70000], want[200];
	struct world w;
	char sess[40];

	if (!have_root())
		return;
	private_mounts();
	ck_assert_int_eq(mkdir("/run/systemd", 0755), 0);
	ck_assert_int_eq(mkdir("/run/systemd/journal", 0755), 0);
	world_make(&w);
	w.sock = bind_dgram("/run/systemd/journal/socket");
	pty_audit_set_syslog(PTY_AUDIT_SYSLOG_RECORDS);
	write_three(&w);

	ck_assert_int_gt(next_datagram(w.sock, dgram, sizeof dgram, 5000), 0);
	log_line(w.log, 0, line, sizeof line);
	assert_field(dgram, "MESSAGE", line);
	assert_field(dgram, "MAELYS_SEQ", "1");
	assert_field(dgram, "MAELYS_EVENT", "command");
	assert_field(dgram, "MAELYS_USER", "alice");
	assert_field(dgram, "MAELYS_DECISION", "allow");
	assert_field(dgram, "SYSLOG_FACILITY", "10");
	assert_field(dgram, "PRIORITY", "6");
	assert_field(dgram, "SYSLOG_IDENTIFIER", "maelys-pty");
	ck_assert_ptr_nonnull(journal_field(dgram, "MAELYS_SESSION", sess,
					    sizeof sess));
	ck_assert_uint_eq(strlen(sess), 32);
	ck_assert_ptr_nonnull(strstr(line, sess));

	/* over 8 KiB: its seq and digest, the fields all the same */
	ck_assert_int_gt(next_datagram(w.sock, dgram, sizeof dgram, 5000), 0);
	log_line(w.log, 1, line, sizeof line);
	ck_assert_uint_gt(strlen(line), 8192);
	too_long_line(line, 2, want, sizeof want);
	assert_field(dgram, "MESSAGE", want);
	assert_field(dgram, "MAELYS_SEQ", "2");
	assert_field(dgram, "MAELYS_DECISION", "deny");

	ck_assert_int_gt(next_datagram(w.sock, dgram, sizeof dgram, 5000), 0);
	log_line(w.log, 2, line, sizeof line);
	assert_field(dgram, "MESSAGE", line);
	assert_field(dgram, "MAELYS_EVENT", "session_end");

	/* a writer started without it sends nothing */
	(void)unlink(w.log);
	pty_audit_set_syslog(PTY_AUDIT_SYSLOG_OFF);
	write_three(&w);
	ck_assert_int_eq(next_datagram(w.sock, dgram, sizeof dgram, 500), -1);
	(void)close(w.sock);
	world_remove(&w);
}
END_TEST

/* Without the journal's socket: syslog(3), authpriv.info (<86>), the
 * line as the message. */
START_TEST(test_forward_records_to_syslog_without_the_journal)
{
	static const char *const devices[] = {"null", "zero", "urandom",
					      "random", "full"};
	static char dgram[70000], line[70000], want[200], *msg;
	char old[128], path[160];
	struct world w;

	if (!have_root())
		return;
	private_mounts();
	world_make(&w);
	/* /dev of our own: the devices the writer may open, bound back */
	(void)snprintf(old, sizeof old, "%s/dev", w.dir);
	ck_assert_int_eq(mkdir(old, 0755), 0);
	ck_assert_int_eq(mount("/dev", old, NULL, MS_BIND | MS_REC, NULL), 0);
	ck_assert_int_eq(mount("tmpfs", "/dev", "tmpfs", 0, "mode=0755"), 0);
	for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) {
		char from[200];
		int fd;

		(void)snprintf(path, sizeof path, "/dev/%s", devices[i]);
		(void)snprintf(from, sizeof from, "%s/%s", old, devices[i]);
		fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
		ck_assert_int_ge(fd, 0);
		(void)close(fd);
		ck_assert_int_eq(mount(from, path, NULL, MS_BIND, NULL), 0);
	}
	w.sock = bind_dgram("/dev/log");
	pty_audit_set_syslog(PTY_AUDIT_SYSLOG_RECORDS);
	write_three(&w);

	for (int i = 0; i < 3; i++) {
		ck_assert_int_gt(
		    next_datagram(w.sock, dgram, sizeof dgram, 5000), 0);
		ck_assert_msg(strncmp(dgram, "<86>", 4) == 0, "%.200s", dgram);
		/* "<86>Dec  3 16:22:05 ident: " (a record has no blank) */
		msg = strstr(dgram, ": ");
		ck_assert_ptr_nonnull(msg);
		log_line(w.log, i, line, sizeof line);
		if (i == 1) {
			too_long_line(line, 2, want, sizeof want);
			ck_assert_str_eq(msg + 2, want);
		} else {
			ck_assert_str_eq(msg + 2, line);
		}
	}
	/* records: each is its own anchor, no anchor line besides */
	ck_assert_int_eq(next_datagram(w.sock, dgram, sizeof dgram, 500), -1);

	/* a new file (the old one rotated away): its log_continued record,
	 * the chain's link to the file before, goes off the host first */
	(void)unlink(w.log);
	write_three(&w);
	for (int i = 0; i < 4; i++) {
		ck_assert_int_gt(
		    next_datagram(w.sock, dgram, sizeof dgram, 5000), 0);
		msg = strstr(dgram, ": ");
		ck_assert_ptr_nonnull(msg);
		log_line(w.log, i, line, sizeof line);
		if (i == 0)
			ck_assert_ptr_nonnull(
			    strstr(line, "\"event\":\"log_continued\""));
		if (i == 2) {
			too_long_line(line, 6, want, sizeof want);
			ck_assert_str_eq(msg + 2, want);
		} else {
			ck_assert_str_eq(msg + 2, line);
		}
	}
	ck_assert_int_eq(next_datagram(w.sock, dgram, sizeof dgram, 500), -1);

	/* syslog = on: the records stay on the host, and the session's end
	 * sends its anchor, the seq and SHA-256 of that record's line */
	(void)unlink(w.log);
	pty_audit_set_syslog(PTY_AUDIT_SYSLOG_ANCHORS);
	write_three(&w);
	ck_assert_int_gt(next_datagram(w.sock, dgram, sizeof dgram, 5000), 0);
	msg = strstr(dgram, ": ");
	ck_assert_ptr_nonnull(msg);
	/* the new file starts with log_continued, then the three records */
	log_line(w.log, 3, line, sizeof line);
	{
		char hex[65];

		pty_sha256_hex(line, strlen(line), hex);
		/* seq 11: the chain goes on from the files removed above */
		(void)snprintf(want, sizeof want,
			       "audit anchor: seq 11 sha256 %s", hex);
	}
	ck_assert_str_eq(msg + 2, want);
	ck_assert_int_eq(next_datagram(w.sock, dgram, sizeof dgram, 500), -1);

	/* syslog = off: nothing leaves the host */
	(void)unlink(w.log);
	pty_audit_set_syslog(PTY_AUDIT_SYSLOG_OFF);
	write_three(&w);
	ck_assert_int_eq(next_datagram(w.sock, dgram, sizeof dgram, 500), -1);
	(void)close(w.sock);
	(void)umount2("/dev", MNT_DETACH);
	(void)umount2(old, MNT_DETACH);
	(void)rmdir(old);
	world_remove(&w);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("forward");

	tcase_add_test(tc, test_forward_records_to_the_journal_with_their_fields);
	tcase_add_test(tc, test_forward_records_to_syslog_without_the_journal);
	suite_add_tcase(s, tc);
	return s;
}
