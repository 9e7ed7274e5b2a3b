/* SPDX-License-Identifier: MIT */
/*
 * The audit log (pty/audit/audit.c, contract in pty/audit/pty_audit.h): records
 * of several events and decisions (made into events as the guard makes them,
 * pty/session/guard_record.c) compared byte for byte with records built
 * here from the documented format (prev, the seed's evolution, the keys
 * and the Ed25519 signatures computed with OpenSSL, not with the code
 * under test, from the state's first seed), and read again by python3's
 * json and hashlib (and the signatures by its cryptography package, when
 * installed); the chain verifying; every kind of tampering reported at the
 * right record; a record forged with a later key, a cut end, a deleted or
 * replaced file of a rotation detected; rotation by renaming the log under
 * a writer; a writer's crash between record and state recovered; a v1 log
 * refused; a log on /dev/full failing every write; two processes
 * appending 200 records each into one intact chain; the rules for the
 * state and the log files; session ids; the SHA-256 known vectors.
 */
#define _GNU_SOURCE

#include "runner.h"

#include "guard_record.h"
#include "pty_supervise.h"
#include "pty_audit.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

/* A key file of the old HMAC log (v1): not a state. */
static const char v1_key[] = "0123456789abcdef0123456789abcdef\n";

struct tmp {
	char dir[256];
	char log[320];
	char key[320];       /* the state */
	char pub[320];       /* its verification key */
	char other[320];     /* the state of another log */
	char other_pub[320]; /* and its verification key */
};

static void
spit(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	ck_assert_msg(fd >= 0, "%s: %s", path, strerror(errno));
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	ck_assert_int_eq(close(fd), 0);
}

static char *
slurp(const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	ck_assert_msg(fd >= 0, "%s: %s", path, strerror(errno));
	ck_assert_int_eq(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(read(fd, buf, (size_t)st.st_size), st.st_size);
	buf[st.st_size] = '\0';
	(void)close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

static void
keygen(const char *state, const char *pub)
{
	char err[256], fpr[64];

	ck_assert_msg(pty_audit_keygen(state, pub, fpr, err, sizeof err) == 0,
		      "%s", err);
	ck_assert_msg(strncmp(fpr, "SHA256:", 7) == 0 && strlen(fpr) == 50,
		      "%s", fpr);
}

static void
tmp_make(struct tmp *t)
{
	const char *base = getenv("TMPDIR");

	if (base == NULL || base[0] == '\0')
		base = "/tmp";
	(void)snprintf(t->dir, sizeof t->dir, "%s/maelys-audit.XXXXXX", base);
	ck_assert_ptr_nonnull(mkdtemp(t->dir));
	(void)snprintf(t->log, sizeof t->log, "%s/audit.log", t->dir);
	(void)snprintf(t->key, sizeof t->key, "%s/audit.key", t->dir);
	(void)snprintf(t->pub, sizeof t->pub, "%s/audit.pub", t->dir);
	(void)snprintf(t->other, sizeof t->other, "%s/other.key", t->dir);
	(void)snprintf(t->other_pub, sizeof t->other_pub, "%s/other.pub",
		       t->dir);
	keygen(t->key, t->pub);
	keygen(t->other, t->other_pub);
}

static int
tmp_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void
tmp_remove(struct tmp *t)
{
	(void)nftw(t->dir, tmp_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* Splits buf into lines (without their newlines); a last line without a
 * newline counts too. */
static size_t
split_lines(char *buf, size_t len, char **lines, size_t *lens, size_t max)
{
	size_t n = 0, start = 0, i;

	for (i = 0; i <= len && n < max; i++) {
		if (i == len && i == start)
			break;
		if (i == len || buf[i] == '\n') {
			lines[n] = buf + start;
			lens[n] = i - start;
			n++;
			start = i + 1;
		}
	}
	return n;
}

static void
hex_of(const unsigned char *in, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * n] = '\0';
}

static void
unhex(const char *s, unsigned char *out, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned v;

		ck_assert_int_eq(sscanf(s + 2 * i, "%2x", &v), 1);
		out[i] = (unsigned char)v;
	}
}

/* The chain as the test computes it, with OpenSSL, from the state's
 * seed: what the next record's seq, seed and prev are. */
struct chain {
	unsigned long long seq;
	unsigned char seed[32];
	unsigned char prev[32];
};

/* The state file read as pty_audit.h documents it. */
static void
chain_of_state(const char *state, struct chain *c)
{
	size_t len;
	char *text = slurp(state, &len);
	const char *seed = strstr(text, "\nseed "), *last = strstr(text,
								   "\nlast ");

	ck_assert_uint_eq(len, PTY_AUDIT_STATE_SIZE);
	ck_assert(strncmp(text, "maelys-pty audit state v2\nseq ", 30) == 0);
	c->seq = strtoull(text + 30, NULL, 10);
	ck_assert_ptr_nonnull(seed);
	ck_assert_ptr_nonnull(last);
	unhex(seed + 6, c->seed, 32);
	unhex(last + 6, c->prev, 32);
	free(text);
}

/* seed_{n+1} = HMAC-SHA-256(seed_n, label) (pty_audit.h) */
static void
seed_next(const unsigned char seed[32], unsigned char out[32])
{
	static const char label[] = "maelys-pty audit seed evolution v2";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	ck_assert_ptr_nonnull(HMAC(EVP_sha256(), seed, 32,
				   (const unsigned char *)label,
				   sizeof label - 1, md, &mdlen));
	ck_assert_uint_eq(mdlen, 32);
	memcpy(out, md, 32);
}

static EVP_PKEY *
ed25519_of(const unsigned char seed[32])
{
	EVP_PKEY *k =
	    EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);

	ck_assert_ptr_nonnull(k);
	return k;
}

static void
pk_hex(const unsigned char seed[32], char out[65])
{
	EVP_PKEY *k = ed25519_of(seed);
	unsigned char pk[32];
	size_t len = sizeof pk;

	ck_assert_int_eq(EVP_PKEY_get_raw_public_key(k, pk, &len), 1);
	ck_assert_uint_eq(len, 32);
	hex_of(pk, 32, out);
	EVP_PKEY_free(k);
}

/* Appends "sig":"<Ed25519 of out[0, len) with seed's key>"} to out. */
static size_t
sign_with(const unsigned char seed[32], char *out, size_t len, size_t cap)
{
	EVP_PKEY *k = ed25519_of(seed);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned char sig[64];
	size_t siglen = sizeof sig;
	char hex[129];

	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(EVP_DigestSignInit(ctx, NULL, NULL, NULL, k), 1);
	ck_assert_int_eq(EVP_DigestSign(ctx, sig, &siglen,
					(const unsigned char *)out, len),
			 1);
	ck_assert_uint_eq(siglen, 64);
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(k);
	hex_of(sig, 64, hex);
	len += (size_t)snprintf(out + len, cap - len, "\"sig\":\"%s\"}", hex);
	ck_assert_uint_lt(len, cap);
	return len;
}

/* Record c->seq with `body` (its leading comma included) at `when`, as
 * the writer must frame it; the chain moves on.  Returns its length. */
static size_t
chain_frame(struct chain *c, const char *when, const char *body, char *out,
	    size_t cap)
{
	unsigned char next[32];
	char prev[65], key[65];
	size_t len;
	int w;

	seed_next(c->seed, next);
	pk_hex(next, key);
	hex_of(c->prev, 32, prev);
	w = snprintf(out, cap,
		     "{\"v\":2,\"seq\":%llu,\"time\":\"%s\"%s,\"prev\":\"%s\","
		     "\"key\":\"%s\",",
		     c->seq, when, body, prev, key);
	ck_assert(w > 0 && (size_t)w < cap - 200);
	len = sign_with(c->seed, out, (size_t)w, cap);
	SHA256((const unsigned char *)out, len, c->prev);
	memcpy(c->seed, next, 32);
	c->seq++;
	return len;
}

/* pty_audit_verify with its report captured; the caller frees *report. */
static int
verify(const char *log, const char *key, char **report)
{
	size_t size = 0;
	FILE *f = open_memstream(report, &size);
	int rc;

	ck_assert_ptr_nonnull(f);
	rc = pty_audit_verify(log, key, f);
	ck_assert_int_eq(fclose(f), 0);
	return rc;
}

/* pty_audit_verify_files with its report captured. */
static int
verify_files(const char *const *logs, size_t n, const char *key,
	     const char *state, char **report)
{
	size_t size = 0;
	FILE *f = open_memstream(report, &size);
	int rc;

	ck_assert_ptr_nonnull(f);
	rc = pty_audit_verify_files(logs, n, key, state, f);
	ck_assert_int_eq(fclose(f), 0);
	return rc;
}

/* Asserts that verification finds `log` broken at record n. */
static void
assert_bad_at(const char *log, const char *key, unsigned n, const char *why)
{
	char *report = NULL, want[400];
	int rc = verify(log, key, &report);

	(void)snprintf(want, sizeof want, "%s: record %u (line %u): ", log, n,
		       n);
	ck_assert_msg(rc == 1 && strncmp(report, want, strlen(want)) == 0,
		      "%s: rc %d, report %s, wanted %s...", why, rc, report,
		      want);
	free(report);
}

static void
assert_intact(const char *log, const char *key, unsigned n)
{
	char *report = NULL, want[400];
	int rc = verify(log, key, &report);

	(void)snprintf(want, sizeof want, "%s: %u records, chain intact\n", log,
		       n);
	ck_assert_msg(rc == 0 && strncmp(report, want, strlen(want)) == 0,
		      "rc %d, report %s, wanted %s", rc, report, want);
	free(report);
}

static void
session_make(struct pty_audit_session *s, const char *mode)
{
	memset(s, 0, sizeof *s);
	ck_assert_int_eq(pty_audit_session_id(s->id), 0);
	s->host = "host1";
	s->user = "alice";
	s->tty = strcmp(mode, "command") == 0 ? "" : "/dev/pts/3";
	s->remote = strcmp(mode, "command") == 0 ? "" : "192.0.2.7";
	s->mode = mode;
	pty_sha256_hex("allow(ls).\n", 11, s->policy_sha256);
}

/* Writes n simple records (events "e1", "e2", ...) to log. */
static void
write_n(const char *log, const char *key, unsigned n)
{
	struct pty_audit_session s;
	struct pty_audit_event e;
	struct pty_audit *a = NULL;
	char err[256], name[16];
	unsigned i;

	session_make(&s, "interactive");
	ck_assert_msg(pty_audit_open(log, key, &a, err, sizeof err) == 0, "%s",
		      err);
	for (i = 1; i <= n; i++) {
		memset(&e, 0, sizeof e);
		(void)snprintf(name, sizeof name, "e%u", i);
		e.event = name;
		e.outcome = "allow";
		e.line = "ls -l";
		e.line_len = 5;
		ck_assert_msg(pty_audit_write(a, &s, &e, err, sizeof err) == 0,
			      "%s", err);
	}
	pty_audit_close(a);
}

/* "2026-12-02T15:04:05.123Z" now, to bracket the records' times. */
static void
now_rfc3339(char out[32])
{
	struct timespec ts;
	struct tm tm;

	ck_assert_int_eq(clock_gettime(CLOCK_REALTIME, &ts), 0);
	ck_assert_ptr_nonnull(gmtime_r(&ts.tv_sec, &tm));
	ck_assert_uint_eq(strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm), 19);
	(void)snprintf(out + 19, 13, ".%03dZ", (int)(ts.tv_nsec / 1000000));
}

START_TEST(test_audit_sha256_known_vectors)
{
	char hex[65];

	pty_sha256_hex("abc", 3, hex);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223"
			      "b00361a396177a9cb410ff61f20015ad");
	pty_sha256_hex("", 0, hex);
	ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb924"
			      "27ae41e4649b934ca495991b7852b855");
}
END_TEST

START_TEST(test_audit_session_ids_are_hex_and_differ)
{
	char ids[8][33];
	size_t i, j;

	for (i = 0; i < 8; i++) {
		ck_assert_int_eq(pty_audit_session_id(ids[i]), 0);
		ck_assert_uint_eq(strlen(ids[i]), 32);
		ck_assert_uint_eq(strspn(ids[i], "0123456789abcdef"), 32);
		for (j = 0; j < i; j++)
			ck_assert_str_ne(ids[i], ids[j]);
	}
}
END_TEST

/* ---- every field, byte for byte ---- */

#define REC_MAX 16

struct expect {
	size_t n;
	char text[REC_MAX][90000]; /* the record between time and prev */
};

static struct expect expect;

/* ,"host":...,"mode":... of a session of plain ASCII values */
static void
session_json(const struct pty_audit_session *s, char *out, size_t cap)
{
	size_t off = 0;

#define SJ(name, v)                                                            \
	if ((v) != NULL)                                                       \
		off += (size_t)snprintf(out + off, cap - off,                  \
					",\"%s\":\"%s\"", name, v);
	out[0] = '\0';
	SJ("host", s->host)
	SJ("user", s->user)
	SJ("session", s->id)
	SJ("tty", s->tty)
	SJ("remote", s->remote)
	SJ("mode", s->mode)
#undef SJ
	ck_assert_uint_lt(off, cap);
}

/* A JSON string of printable ASCII (the test's own escaping: " and \). */
static size_t
json_ascii(char *out, size_t cap, const char *s, size_t n)
{
	size_t off = 0, i;

	out[off++] = '"';
	for (i = 0; i < n; i++) {
		ck_assert_msg(s[i] >= 0x20 && s[i] < 0x7f, "byte %#x",
			      (unsigned)(unsigned char)s[i]);
		if (s[i] == '"' || s[i] == '\\')
			out[off++] = '\\';
		out[off++] = s[i];
		ck_assert_uint_lt(off + 2, cap);
	}
	out[off++] = '"';
	out[off] = '\0';
	return off;
}

/* "tokens":[...] of a scan whose tokens are printable ASCII */
static void
tokens_json(const struct scan_result *scan, char *out, size_t cap)
{
	size_t off = 0, i;

	off += (size_t)snprintf(out, cap, "\"tokens\":[");
	for (i = 0; i < scan->ntokens; i++) {
		if (i > 0)
			out[off++] = ',';
		off += json_ascii(out + off, cap - off, scan->tokens[i].text,
				  scan->tokens[i].len);
	}
	(void)snprintf(out + off, cap - off, "]");
}

static void
decision_make(struct pty_decision *d, const char *line, size_t len,
	      enum pty_verdict v)
{
	memset(d, 0, sizeof *d);
	scan_line(line, len, &d->scan);
	d->verdict = v;
}

/* The event e with the decision d in it, as the guard records a line
 * (pty/session/guard_record.c); e's note is kept. */
static const struct pty_audit_event *
decided(struct guard_record *gr, const struct pty_audit_event *e,
	const struct pty_decision *d)
{
	struct pty_audit_event *out = guard_record_line(
	    gr, e->event, e->line, e->line_len, d, e->outcome, NULL);

	out->note = e->note;
	return out;
}

/* Writes one record and remembers what it must say after its time (up to
 * policy_sha256, which the check adds). */
static void
record(struct pty_audit *a, const struct pty_audit_session *s,
       const struct pty_audit_event *e, const char *body)
{
	char err[256], sess[600];

	ck_assert_msg(pty_audit_write(a, s, e, err, sizeof err) == 0, "%s",
		      err);
	ck_assert_uint_lt(expect.n, REC_MAX);
	session_json(s, sess, sizeof sess);
	(void)snprintf(expect.text[expect.n], sizeof expect.text[0], "%s%s",
		       sess, body);
	if (s->policy_sha256[0] != '\0') {
		size_t off = strlen(expect.text[expect.n]);

		(void)snprintf(expect.text[expect.n] + off,
			       sizeof expect.text[0] - off,
			       ",\"policy_sha256\":\"%s\"", s->policy_sha256);
	}
	expect.n++;
}

/* The independent reading: json.loads (strict: no raw control bytes, valid
 * UTF-8), keys a subsequence of the documented order, seq, prev and mac as
 * pty_audit.h defines them.  Prints the number of records. */
static const char python_check[] =
    "import hashlib, json, sys\n"
    "order = ['v','seq','time','host','user','session','tty','remote',\n"
    "  'mode','event','line','line_sha256','exec_path','exec_request',\n"
    "  'exec_argv','exec_argv_sha256','exec_argc','exec_cwd',\n"
    "  'exec_parent','exec_via','exec_through','pid','tokens','metachars',\n"
    "  'decision','reasons','refusal','error','log_reason',\n"
    "  'confirm_prompt','note','policy_sha256','prev_file','prev','key',\n"
    "  'sig']\n"
    "try:\n"
    "    from cryptography.hazmat.primitives.asymmetric.ed25519 import \\\n"
    "        Ed25519PublicKey\n"
    "except ImportError:\n"
    "    Ed25519PublicKey = None\n"
    "pk = bytes.fromhex(open(sys.argv[2]).read().strip())\n"
    "data = open(sys.argv[1], 'rb').read()\n"
    "assert data.endswith(b'\\n')\n"
    "prev = '0' * 64\n"
    "n = 0\n"
    "for raw in data.split(b'\\n')[:-1]:\n"
    "    n += 1\n"
    "    rec = json.loads(raw.decode('utf-8'))\n"
    "    keys = list(rec)\n"
    "    assert keys == [k for k in order if k in rec], keys\n"
    "    assert rec['v'] == 2 and rec['seq'] == n\n"
    "    assert rec['prev'] == prev\n"
    "    tail = b'\"sig\":\"' + rec['sig'].encode() + b'\"}'\n"
    "    assert raw.endswith(tail)\n"
    "    if Ed25519PublicKey is not None:\n"
    "        Ed25519PublicKey.from_public_bytes(pk).verify(\n"
    "            bytes.fromhex(rec['sig']), raw[:-len(tail)])\n"
    "    pk = bytes.fromhex(rec['key'])\n"
    "    prev = hashlib.sha256(raw).hexdigest()\n"
    "print(n)\n";

/* Runs python_check; returns its output, or NULL when there is no
 * python3 (exit 127). */
static char *
python_verify(const char *log, const char *key)
{
	static char out[256];
	size_t len = 0;
	int p[2], status;
	pid_t pid;
	ssize_t r;

	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		(void)dup2(p[1], STDOUT_FILENO);
		(void)close(p[0]);
		(void)close(p[1]);
		execlp("python3", "python3", "-c", python_check, log, key,
		       (char *)NULL);
		_exit(127);
	}
	(void)close(p[1]);
	while (len < sizeof out - 1 &&
	       (r = read(p[0], out + len, sizeof out - 1 - len)) > 0)
		len += (size_t)r;
	out[len] = '\0';
	(void)close(p[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	if (WEXITSTATUS(status) == 127)
		return NULL;
	ck_assert_msg(WEXITSTATUS(status) == 0, "python3 check failed: %s",
		      out);
	return out;
}

START_TEST(test_audit_records_carry_every_field)
{
	static const char escapes[] =
	    "a\"b\\c\b\f\n\r\t\x01\x1f\x7f\xc2\x80\xc2\x9f"
	    "\xc3\xa9\xe2\x80\xae/z\0end";
	static char longline[5000];
	struct pty_audit_session s, c, bare;
	struct pty_audit_event e;
	struct pty_decision d;
	struct guard_record gr;
	struct pty_audit *a = NULL;
	char err[256], before[32], after[32], body[8000], tok[4000];
	char want[100000], *buf, *lines[REC_MAX + 1];
	struct chain ch;
	size_t len, lens[REC_MAX + 1], n, i;
	struct tmp t;
	char *py;

	tmp_make(&t);
	chain_of_state(t.key, &ch);
	ck_assert_uint_eq(ch.seq, 1);
	expect.n = 0;
	session_make(&s, "interactive");
	session_make(&c, "command");
	memset(&bare, 0, sizeof bare);
	ck_assert_int_eq(pty_audit_session_id(bare.id), 0);
	now_rfc3339(before);
	ck_assert_msg(pty_audit_open(t.log, t.key, &a, err, sizeof err) == 0,
		      "%s", err);

	/* a session event: no line, no decision */
	memset(&e, 0, sizeof e);
	e.event = "session_start";
	e.outcome = "session_start";
	e.note = "login";
	record(a, &s, &e,
	       ",\"event\":\"session_start\",\"decision\":\"session_start\","
	       "\"note\":\"login\"");

	/* allowed */
	memset(&e, 0, sizeof e);
	e.event = "line";
	e.line = "ls -l /tmp";
	e.line_len = strlen(e.line);
	decision_make(&d, e.line, e.line_len, PTY_VERDICT_ALLOW);
	e.outcome = "allow";
	record(a, &s, decided(&gr, &e, &d),
	       ",\"event\":\"line\",\"line\":\"ls -l /tmp\",\"tokens\":[\"ls\","
	       "\"-l\",\"/tmp\"],\"metachars\":[],\"decision\":\"allow\","
	       "\"reasons\":[]");

	/* denied by policy, two reasons, one with escapes */
	e.line = "ls | wc -l";
	e.line_len = strlen(e.line);
	decision_make(&d, e.line, e.line_len, PTY_VERDICT_POLICY);
	d.nreasons = 2;
	d.reasons_total = 2;
	(void)snprintf(d.reasons[0].op, sizeof d.reasons[0].op, "%s",
		       "__line__");
	(void)snprintf(d.reasons[0].reason, sizeof d.reasons[0].reason, "%s",
		       "shell metacharacter in line");
	(void)snprintf(d.reasons[1].op, sizeof d.reasons[1].op, "%s", "ls");
	(void)snprintf(d.reasons[1].reason, sizeof d.reasons[1].reason, "%s",
		       "tab\there \"quoted\" \\ back");
	e.outcome = "deny";
	record(
	    a, &s, decided(&gr, &e, &d),
	    ",\"event\":\"line\",\"line\":\"ls | wc -l\",\"tokens\":[\"ls\","
	    "\"|\",\"wc\",\"-l\"],\"metachars\":[\"pipe\"],\"decision\":"
	    "\"deny\",\"reasons\":[{\"op\":\"__line__\",\"reason\":\"shell "
	    "metacharacter in line\"},{\"op\":\"ls\",\"reason\":\"tab\\there "
	    "\\\"quoted\\\" \\\\ back\"}]");

	/* several metacharacter classes, in bit order */
	e.line = "cat *.txt > out; echo $HOME";
	e.line_len = strlen(e.line);
	decision_make(&d, e.line, e.line_len, PTY_VERDICT_POLICY);
	record(a, &s, decided(&gr, &e, &d),
	       ",\"event\":\"line\",\"line\":\"cat *.txt > out; echo $HOME\","
	       "\"tokens\":[\"cat\",\"*.txt\",\">\",\"out;\",\"echo\","
	       "\"$HOME\"],\"metachars\":[\"redirect\",\"semicolon\","
	       "\"var_expand\",\"glob\"],\"decision\":\"deny\",\"reasons\":[]");

	/* refused by the scanner: its sentence as "refusal" */
	e.line = "git commit -m \"x\"";
	e.line_len = strlen(e.line);
	decision_make(&d, e.line, e.line_len, PTY_VERDICT_SYNTAX);
	ck_assert_int_eq(d.scan.refusal, SCAN_REFUSE_QUOTE);
	ck_assert_uint_eq(d.scan.metachars, 0);
	e.outcome = "refused";
	tokens_json(&d.scan, tok, sizeof tok);
	(void)snprintf(body, sizeof body,
		       ",\"event\":\"line\",\"line\":\"git commit -m "
		       "\\\"x\\\"\",%s,\"metachars\":[],\"decision\":"
		       "\"refused\",\"reasons\":[],\"refusal\":\"%s\"",
		       tok, scan_refusal_reason(SCAN_REFUSE_QUOTE));
	record(a, &s, decided(&gr, &e, &d), body);

	/* too long: its SHA-256, no tokens */
	memset(longline, 'a', sizeof longline);
	e.line = longline;
	e.line_len = sizeof longline;
	decision_make(&d, e.line, e.line_len, PTY_VERDICT_SYNTAX);
	ck_assert_int_eq(d.scan.refusal, SCAN_REFUSE_TOO_LONG);
	{
		char h[65];

		pty_sha256_hex(longline, sizeof longline, h);
		(void)snprintf(body, sizeof body,
			       ",\"event\":\"line\",\"line_sha256\":\"%s\","
			       "\"metachars\":[],\"decision\":\"refused\","
			       "\"reasons\":[],\"refusal\":\"%s\"",
			       h, scan_refusal_reason(SCAN_REFUSE_TOO_LONG));
	}
	record(a, &s, decided(&gr, &e, &d), body);

	/* not UTF-8: its SHA-256, no tokens */
	e.line = "ls \xff\xfe";
	e.line_len = 5;
	decision_make(&d, e.line, e.line_len, PTY_VERDICT_SYNTAX);
	ck_assert_int_eq(d.scan.refusal, SCAN_REFUSE_ENCODING);
	{
		char h[65];

		pty_sha256_hex("ls \xff\xfe", 5, h);
		(void)snprintf(body, sizeof body,
			       ",\"event\":\"line\",\"line_sha256\":\"%s\","
			       "\"metachars\":[],\"decision\":\"refused\","
			       "\"reasons\":[],\"refusal\":\"%s\"",
			       h, scan_refusal_reason(SCAN_REFUSE_ENCODING));
	}
	record(a, &s, decided(&gr, &e, &d), body);

	/* every escape, a NUL, C1 controls, and a bad byte in a note */
	memset(&e, 0, sizeof e);
	e.event = "command";
	e.line = escapes;
	e.line_len = sizeof escapes - 1;
	e.outcome = "error";
	e.note = "bad \xff byte";
	record(a, &c, &e,
	       ",\"event\":\"command\",\"line\":\"a\\\"b\\\\c\\b\\f\\n\\r\\t"
	       "\\u0001\\u001f\\u007f\\u0080\\u009f\xc3\xa9\xe2\x80\xae/z"
	       "\\u0000end\",\"decision\":\"error\",\"note\":\"bad "
	       "\xef\xbf\xbd byte\"");

	/* allowed with a log reason */
	memset(&e, 0, sizeof e);
	e.event = "command";
	e.line = "systemctl restart nginx";
	e.line_len = strlen(e.line);
	decision_make(&d, e.line, e.line_len, PTY_VERDICT_ALLOW_LOG);
	(void)snprintf(d.log_reason, sizeof d.log_reason, "%s",
		       "maintenance window");
	e.outcome = "allow_with_log";
	record(a, &c, decided(&gr, &e, &d),
	       ",\"event\":\"command\",\"line\":\"systemctl restart nginx\","
	       "\"tokens\":[\"systemctl\",\"restart\",\"nginx\"],\"metachars\""
	       ":[],\"decision\":\"allow_with_log\",\"reasons\":[],"
	       "\"log_reason\":\"maintenance window\"");

	/* a confirmation */
	e.event = "confirm";
	e.line = "reboot";
	e.line_len = 6;
	decision_make(&d, e.line, e.line_len, PTY_VERDICT_CONFIRM);
	(void)snprintf(d.confirm_prompt, sizeof d.confirm_prompt, "%s",
		       "Really reboot?");
	e.outcome = "confirmed";
	record(a, &s, decided(&gr, &e, &d),
	       ",\"event\":\"confirm\",\"line\":\"reboot\",\"tokens\":"
	       "[\"reboot\"],\"metachars\":[],\"decision\":\"confirmed\","
	       "\"reasons\":[],\"confirm_prompt\":\"Really reboot?\"");

	/* the policy could not be evaluated */
	e.event = "line";
	e.line = "ls";
	e.line_len = 2;
	decision_make(&d, e.line, e.line_len, PTY_VERDICT_ERROR);
	(void)snprintf(d.error, sizeof d.error, "%s", "BUDGET: too many facts");
	e.outcome = "error";
	record(a, &s, decided(&gr, &e, &d),
	       ",\"event\":\"line\",\"line\":\"ls\",\"tokens\":[\"ls\"],"
	       "\"metachars\":[],\"decision\":\"error\",\"reasons\":[],"
	       "\"error\":\"BUDGET: too many facts\"");

	/* absent fields are omitted */
	memset(&e, 0, sizeof e);
	e.event = "session_end";
	record(a, &bare, &e, ",\"event\":\"session_end\"");
	e.outcome = "session_end";
	record(a, &c, &e,
	       ",\"event\":\"session_end\",\"decision\":\"session_end\"");
	pty_audit_close(a);
	now_rfc3339(after);

	buf = slurp(t.log, &len);
	ck_assert(len > 0 && buf[len - 1] == '\n');
	n = split_lines(buf, len, lines, lens, REC_MAX + 1);
	ck_assert_uint_eq(n, expect.n);
	for (i = 0; i < n; i++) {
		char when[25];
		const char *tp;
		/* the time, bracketed by the clock before and after */
		lines[i][lens[i]] = '\0';
		tp = strstr(lines[i], "\"time\":\"");
		ck_assert_ptr_nonnull(tp);
		memcpy(when, tp + 8, 24);
		when[24] = '\0';
		ck_assert_msg(strcmp(when, before) >= 0 &&
				  strcmp(when, after) <= 0 && when[10] == 'T' &&
				  when[23] == 'Z',
			      "time %s not in [%s, %s]", when, before, after);
		(void)chain_frame(&ch, when, expect.text[i], want,
				  sizeof want);
		ck_assert_str_eq(lines[i], want);
	}
	free(buf);
	assert_intact(t.log, t.pub, (unsigned)expect.n);

	py = python_verify(t.log, t.pub);
	if (py != NULL) {
		char count[16];

		(void)snprintf(count, sizeof count, "%zu\n", expect.n);
		ck_assert_str_eq(py, count);
	} else {
		fprintf(stderr, "check_pty_audit: no python3, second reading "
				"skipped\n");
	}
	tmp_remove(&t);
}
END_TEST

/* The facts of a test decision, handed out as the guard's reader of an
 * input EDB hands them out; `fail_at` makes fact i unreadable. */
struct facts_src {
	const struct pty_audit_fact *v;
	size_t n, fail_at;
};

static int
facts_get(const void *ctx, size_t i, struct pty_audit_fact *out)
{
	const struct facts_src *src = ctx;

	if (i == src->fail_at)
		return -1;
	*out = src->v[i];
	return 0;
}

static struct pty_audit_fact_arg
fact_str(const char *s, size_t len)
{
	struct pty_audit_fact_arg a = {false, 0, {s, len}};

	return a;
}

static struct pty_audit_fact_arg
fact_int(int64_t v)
{
	struct pty_audit_fact_arg a = {true, v, {NULL, 0}};

	return a;
}

/* "facts": strings escaped as every field, integers as JSON integers
 * (both ends of int64), a fact without columns, after the decision's
 * fields and before the note; a record too long with them gives them by
 * the SHA-256 of their text (computed here with OpenSSL), the line kept;
 * a fact that cannot be read writes nothing; session_end's counts and
 * exit. */
START_TEST(test_audit_facts_and_session_end_fields)
{
	static const char odd[] = "a\"b\\c\n\x01\xff";
	struct pty_audit_fact f[3];
	struct facts_src src = {f, 3, (size_t)-1};
	struct pty_audit_facts facts = {3, facts_get, &src};
	struct pty_audit_decision d;
	struct pty_audit_session s;
	struct pty_audit_event e;
	struct pty_audit_end end;
	struct pty_audit *a = NULL;
	char err[256], hex[65], want[200], *big, *text, *buf;
	unsigned char digest[SHA256_DIGEST_LENGTH];
	size_t len, i, n;
	struct tmp t;

	tmp_make(&t);
	session_make(&s, "interactive");
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
	memset(f, 0, sizeof f);
	f[0].predicate = (struct pty_audit_text){"command", 7};
	f[0].nargs = 1;
	f[0].args[0] = fact_str(odd, sizeof odd - 1);
	f[1].predicate = (struct pty_audit_text){"n", 1};
	f[1].nargs = 4;
	f[1].args[0] = fact_int(INT64_MIN);
	f[1].args[1] = fact_int(0);
	f[1].args[2] = fact_int(INT64_MAX);
	f[1].args[3] = fact_str("", 0);
	f[2].predicate = (struct pty_audit_text){"z", 1};
	memset(&d, 0, sizeof d);
	d.facts = &facts;
	memset(&e, 0, sizeof e);
	e.event = "line";
	e.line = "ls";
	e.line_len = 2;
	e.decision = &d;
	e.outcome = "allow";
	e.note = "n";
	ck_assert_msg(pty_audit_write(a, &s, &e, err, sizeof err) == 0, "%s",
		      err);
	/* one too long with them: the facts by their digest, the line kept */
	big = malloc(PTY_AUDIT_LINE_MAX);
	ck_assert_ptr_nonnull(big);
	memset(big, 'x', PTY_AUDIT_LINE_MAX);
	f[0].args[0] = fact_str(big, PTY_AUDIT_LINE_MAX - 100);
	ck_assert_msg(pty_audit_write(a, &s, &e, err, sizeof err) == 0, "%s",
		      err);
	/* a fact that cannot be read: no record */
	src.fail_at = 1;
	ck_assert_int_eq(pty_audit_write(a, &s, &e, err, sizeof err), -1);
	/* the end of a session */
	memset(&end, 0, sizeof end);
	end.has_status = true;
	end.exit_status = 7;
	end.decisions = 12;
	end.refusals = 1;
	end.execs = 9;
	memset(&e, 0, sizeof e);
	e.event = e.outcome = "session_end";
	e.end = &end;
	ck_assert_msg(pty_audit_write(a, &s, &e, err, sizeof err) == 0, "%s",
		      err);
	end.has_status = false;
	end.signal = "SIGKILL";
	ck_assert_msg(pty_audit_write(a, &s, &e, err, sizeof err) == 0, "%s",
		      err);
	end.has_status = true;
	end.exit_status = 256;
	ck_assert_int_eq(pty_audit_write(a, &s, &e, err, sizeof err), -1);
	pty_audit_close(a);

	buf = slurp(t.log, &len);
	ck_assert_ptr_nonnull(strstr(
	    buf, "\"decision\":\"allow\",\"reasons\":[],\"facts\":[[\"command\","
		 "\"a\\\"b\\\\c\\n\\u0001\xef\xbf\xbd\"],[\"n\","
		 "-9223372036854775808,0,9223372036854775807,\"\"],[\"z\"]],"
		 "\"note\":\"n\","));
	/* the digest of the text the facts would have had */
	n = PTY_AUDIT_LINE_MAX - 100;
	text = malloc(n + 200);
	ck_assert_ptr_nonnull(text);
	len = (size_t)snprintf(text, 200, "[[\"command\",\"");
	memcpy(text + len, big, n);
	len += n;
	len += (size_t)snprintf(text + len, 200,
				"\"],[\"n\",-9223372036854775808,0,"
				"9223372036854775807,\"\"],[\"z\"]]");
	SHA256((const unsigned char *)text, len, digest);
	for (i = 0; i < sizeof digest; i++)
		(void)snprintf(hex + 2 * i, 3, "%02x", digest[i]);
	(void)snprintf(want, sizeof want,
		       "\"line\":\"ls\",\"tokens\":[],\"metachars\":[],"
		       "\"decision\":\"allow\",\"reasons\":[],"
		       "\"facts_sha256\":\"%s\",",
		       hex);
	ck_assert_msg(strstr(buf, want) != NULL, "no %s in\n%.2000s", want,
		      buf);
	ck_assert_ptr_nonnull(strstr(
	    buf, "\"event\":\"session_end\",\"decision\":\"session_end\","
		 "\"exit_status\":7,\"decisions\":12,\"refusals\":1,"
		 "\"execs\":9,\"policy_sha256\""));
	ck_assert_ptr_nonnull(strstr(
	    buf, "\"event\":\"session_end\",\"decision\":\"session_end\","
		 "\"signal\":\"SIGKILL\",\"decisions\":12,\"refusals\":1,"
		 "\"execs\":9,\"policy_sha256\""));
	/* four records, and the verifier reads every one of them */
	ck_assert_int_eq(pty_audit_verify(t.log, t.pub, NULL), 0);
	free(text);
	free(big);
	free(buf);
	tmp_remove(&t);
}
END_TEST

/* Exec records (the supervisor's): every field the session controls -
 * paths and argv with quotes, control bytes, invalid UTF-8 - comes out as
 * strict JSON, an argv too long for a record is replaced by its SHA-256
 * (computed here with OpenSSL), and the chain verifies, by us and by
 * python3. */
START_TEST(test_audit_exec_records_read_independently)
{
	static const char nasty[] = "a\"b\\c\n\x01\x7f\xff\xc3\x28\xe2\x80\xae";
	static struct pty_exec_request r;
	struct pty_exec_decision dec;
	struct pty_audit_session s;
	struct pty_exec_record xr;
	struct pty_audit *a = NULL;
	char err[256], hex[65], want[100], *buf, *py;
	unsigned char digest[SHA256_DIGEST_LENGTH];
	size_t len, i, used = 0;
	struct tmp t;

	tmp_make(&t);
	session_make(&s, "interactive");
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
	memset(&r, 0, offsetof(struct pty_exec_request, bytes));
	r.pid = 4242;
	(void)snprintf(r.path, sizeof r.path, "/usr/bin/dash");
	(void)snprintf(r.request, sizeof r.request, "/tmp/%s", nasty);
	(void)snprintf(r.cwd, sizeof r.cwd, "/home/%s", nasty);
	(void)snprintf(r.parent, sizeof r.parent, "/usr/bin/vim.basic");
	for (i = 0; i < 3; i++) {
		const char *arg = i == 1 ? nasty : i == 0 ? "sh" : "";

		memcpy(r.bytes + used, arg, strlen(arg) + 1);
		r.argv[r.argc] = r.bytes + used;
		r.argv_len[r.argc++] = strlen(arg);
		used += strlen(arg) + 1;
	}
	memset(&dec, 0, sizeof dec);
	dec.verdict = PTY_EXEC_POLICY;
	dec.nreasons = 1;
	(void)snprintf(dec.reasons[0], sizeof dec.reasons[0], "no shells");
	ck_assert_int_eq(pty_audit_write(a, &s,
					 pty_exec_record(&xr, &r, &dec, NULL), err,
					 sizeof err),
			 0);
	/* an argv of 100 KiB: the record carries its digest instead */
	r.argc = 0;
	for (used = 0, i = 0; i < 100; i++) {
		memset(r.bytes + used, 'x', 1000);
		r.bytes[used + 1000] = '\0';
		r.argv[r.argc] = r.bytes + used;
		r.argv_len[r.argc++] = 1000;
		used += 1001;
	}
	dec.verdict = PTY_EXEC_ALLOW;
	dec.nreasons = 0;
	ck_assert_int_eq(pty_audit_write(a, &s,
					 pty_exec_record(&xr, &r, &dec, NULL), err,
					 sizeof err),
			 0);
	pty_audit_close(a);
	SHA256((const unsigned char *)r.bytes, used, digest);
	for (i = 0; i < sizeof digest; i++)
		(void)snprintf(hex + 2 * i, 3, "%02x", digest[i]);
	buf = slurp(t.log, &len);
	ck_assert_ptr_nonnull(strstr(
	    buf, "\"exec_request\":\"/tmp/a\\\"b\\\\c\\n\\u0001\\u007f"));
	ck_assert_ptr_nonnull(
	    strstr(buf, "\"exec_argv\":[\"sh\",\"a\\\"b\\\\c\\n"));
	ck_assert_ptr_nonnull(strstr(buf, "\"exec_argc\":3,"));
	ck_assert_ptr_nonnull(strstr(buf,
				     "\"pid\":4242,\"decision\":\"deny\","
				     "\"reasons\":[{\"op\":\"/usr/bin/dash\","
				     "\"reason\":\"no shells\"}]"));
	(void)snprintf(want, sizeof want, "\"exec_argv_sha256\":\"%s\"", hex);
	ck_assert_msg(strstr(buf, want) != NULL, "%s", buf);
	ck_assert_ptr_nonnull(strstr(buf, "\"exec_argc\":100,"));
	free(buf);
	assert_intact(t.log, t.pub, 2);
	py = python_verify(t.log, t.pub);
	if (py != NULL)
		ck_assert_str_eq(py, "2\n");
	tmp_remove(&t);
}
END_TEST

START_TEST(test_audit_record_too_long_drops_line_then_fails)
{
	static char note[70000], line[4000];
	struct pty_audit_session s;
	struct pty_audit_event e;
	struct pty_decision d;
	struct guard_record gr;
	struct pty_audit *a = NULL;
	char err[256], *buf;
	size_t len;
	struct tmp t;

	tmp_make(&t);
	session_make(&s, "interactive");
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
	/* 4000 control bytes: 24000 bytes as the line, as many as a token,
	 * with a note of 30000: too long, so the line goes by its SHA-256 */
	memset(line, 0x01, sizeof line);
	memset(note, 'n', 30000);
	note[30000] = '\0';
	memset(&e, 0, sizeof e);
	e.event = "line";
	e.line = line;
	e.line_len = sizeof line;
	decision_make(&d, line, sizeof line, PTY_VERDICT_SYNTAX);
	e.outcome = "refused";
	e.note = note;
	ck_assert_msg(
	    pty_audit_write(a, &s, decided(&gr, &e, &d), err, sizeof err) == 0,
	    "%s", err);
	buf = slurp(t.log, &len);
	ck_assert_ptr_nonnull(strstr(buf, "\"line_sha256\":\""));
	ck_assert_ptr_null(strstr(buf, "\"line\":"));
	ck_assert_ptr_null(strstr(buf, "\"tokens\":"));
	ck_assert_uint_le(len, PTY_AUDIT_LINE_MAX);
	free(buf);
	/* a note that cannot fit: nothing is written */
	memset(note, 'n', sizeof note - 1);
	note[sizeof note - 1] = '\0';
	ck_assert_int_eq(
	    pty_audit_write(a, &s, decided(&gr, &e, &d), err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "longer than 65536"));
	pty_audit_close(a);
	assert_intact(t.log, t.pub, 1);
	tmp_remove(&t);
}
END_TEST

/* The longest record the writer writes (a note one byte longer is
 * refused) is read back whole: by the next writer, which finds its end in
 * the last PTY_AUDIT_LINE_MAX + 1 bytes, and by the verifier. */
START_TEST(test_audit_longest_record_is_read_back)
{
	static char note[PTY_AUDIT_LINE_MAX];
	struct pty_audit_session s;
	struct pty_audit_event e;
	struct pty_audit *a = NULL;
	char err[256], *buf;
	size_t lo = 1000, hi = sizeof note - 1, len;
	struct tmp t;

	tmp_make(&t);
	session_make(&s, "interactive");
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
	memset(&e, 0, sizeof e);
	e.event = "session_start";
	e.note = note;
	memset(note, 'n', sizeof note - 1);
	/* the longest note that fits: found by halving, each try on a
	 * log of its own records (a refused one writes nothing) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;

		note[mid] = '\0';
		if (pty_audit_write(a, &s, &e, err, sizeof err) == 0)
			lo = mid;
		else
			hi = mid - 1;
		note[mid] = 'n';
	}
	note[lo] = '\0';
	ck_assert_int_eq(pty_audit_write(a, &s, &e, err, sizeof err), 0);
	note[lo] = 'n';
	note[lo + 1] = '\0';
	ck_assert_int_eq(pty_audit_write(a, &s, &e, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "longer than 65536"));
	/* and one more after it: the writer read the longest back */
	e.note = "after";
	ck_assert_msg(pty_audit_write(a, &s, &e, err, sizeof err) == 0, "%s",
		      err);
	pty_audit_close(a);
	buf = slurp(t.log, &len);
	{
		char *last = memrchr(buf, '\n', len - 1);
		char *prev = memrchr(buf, '\n', (size_t)(last - buf));
		size_t longest = (size_t)(last - prev); /* its newline too */

		ck_assert_uint_le(longest, PTY_AUDIT_LINE_MAX);
		ck_assert_uint_gt(longest, PTY_AUDIT_LINE_MAX - 600);
	}
	free(buf);
	/* every try that fit is a record: verified whole */
	{
		char *report = NULL;

		ck_assert_int_eq(verify(t.log, t.pub, &report), 0);
		ck_assert_ptr_nonnull(strstr(report, "chain intact"));
		free(report);
	}
	tmp_remove(&t);
}
END_TEST

/* The flat event as a caller other than the guard gives it: what it says
 * is recorded as given (an empty text present, a NULL one left out), and an
 * event with an array or a text that cannot be read is refused before
 * anything is written. */
START_TEST(test_audit_flat_event_recorded_as_given_or_refused)
{
	static const struct pty_audit_text words[] = {{"ls", 2}, {"a|b", 3}};
	static const char *const classes[] = {"pipe"};
	static const struct pty_audit_reason why[] = {{{"ls", 2}, {"r\0s", 3}}};
	static const char *const argv[] = {"sh", NULL};
	static const size_t argv_len[] = {2, 0};
	struct pty_audit_session s;
	struct pty_audit_decision d;
	struct pty_audit_exec x;
	struct pty_audit_event e;
	struct pty_audit *a = NULL;
	char err[256], *buf;
	size_t len;
	struct tmp t;

	tmp_make(&t);
	session_make(&s, "command");
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
	memset(&d, 0, sizeof d);
	d.tokens = words;
	d.ntokens = 2;
	d.metachars = classes;
	d.nmetachars = 1;
	d.reasons = why;
	d.nreasons = 1;
	d.error.s = "";
	memset(&e, 0, sizeof e);
	e.event = "command";
	e.line = "ls a|b";
	e.line_len = 6;
	e.decision = &d;
	e.outcome = "deny";
	ck_assert_msg(pty_audit_write(a, &s, &e, err, sizeof err) == 0, "%s",
		      err);
	buf = slurp(t.log, &len);
	ck_assert_msg(strstr(buf,
			     ",\"event\":\"command\",\"line\":\"ls a|b\","
			     "\"tokens\":[\"ls\",\"a|b\"],\"metachars\":"
			     "[\"pipe\"],\"decision\":\"deny\",\"reasons\":"
			     "[{\"op\":\"ls\",\"reason\":\"r\\u0000s\"}],"
			     "\"error\":\"\",\"policy_sha256\":") != NULL,
		      "%s", buf);
	free(buf);
	/* by its SHA-256 when asked: no line, no tokens */
	d.line_by_sha256 = true;
	ck_assert_int_eq(pty_audit_write(a, &s, &e, err, sizeof err), 0);
	buf = slurp(t.log, &len);
	ck_assert_ptr_null(strstr(strchr(buf, '\n') + 1, "\"tokens\""));
	ck_assert_ptr_nonnull(strstr(strchr(buf, '\n') + 1, "\"line_sha256\""));
	free(buf);
	/* what cannot be read */
	d.tokens = NULL;
	ck_assert_int_eq(pty_audit_write(a, &s, &e, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "invalid argument") != NULL, "%s", err);
	d.tokens = words;
	d.log_reason.len = 1; /* no bytes to read */
	ck_assert_int_eq(pty_audit_write(a, &s, &e, err, sizeof err), -1);
	d.log_reason.len = 0;
	memset(&x, 0, sizeof x);
	x.argv = argv;
	x.argv_len = argv_len;
	x.argc = 2; /* argv[1] is NULL */
	memset(&e, 0, sizeof e);
	e.event = "exec";
	e.exec = &x;
	e.outcome = "deny";
	ck_assert_int_eq(pty_audit_write(a, &s, &e, err, sizeof err), -1);
	x.argc = 1;
	x.nreasons = 1; /* and no reasons */
	ck_assert_int_eq(pty_audit_write(a, &s, &e, err, sizeof err), -1);
	x.nreasons = 0;
	ck_assert_msg(pty_audit_write(a, &s, &e, err, sizeof err) == 0, "%s",
		      err);
	pty_audit_close(a);
	buf = slurp(t.log, &len);
	ck_assert_msg(strstr(buf, "\"exec_path\":\"\",\"exec_request\":\"\","
				  "\"exec_argv\":[\"sh\"],\"exec_argc\":1,"
				  "\"exec_cwd\":\"\",\"exec_parent\":\"\","
				  "\"pid\":0,\"decision\":\"deny\","
				  "\"reasons\":[],\"policy_sha256\":") != NULL,
		      "%s", buf);
	free(buf);
	assert_intact(t.log, t.pub, 3);
	tmp_remove(&t);
}
END_TEST

START_TEST(test_audit_chain_continues_across_opens)
{
	char *buf, *lines[8], *report = NULL;
	size_t len, lens[8], i;
	struct tmp t;

	tmp_make(&t);
	/* no log yet: it cannot be checked */
	ck_assert_int_eq(verify(t.log, t.pub, &report), 2);
	ck_assert_msg(strstr(report, ": cannot check: ") != NULL, "%s", report);
	free(report);
	spit(t.log, "", 0);
	assert_intact(t.log, t.pub, 0);
	write_n(t.log, t.key, 2);
	write_n(t.log, t.key, 3);
	assert_intact(t.log, t.pub, 5);
	buf = slurp(t.log, &len);
	ck_assert_uint_eq(split_lines(buf, len, lines, lens, 8), 5);
	for (i = 0; i < 5; i++) {
		char want[32];

		(void)snprintf(want, sizeof want, "{\"v\":2,\"seq\":%zu,",
			       i + 1);
		ck_assert(strncmp(lines[i], want, strlen(want)) == 0);
	}
	free(buf);
	tmp_remove(&t);
}
END_TEST

/* ---- tampering ---- */

/* Writes the lines of `lines` (in the order of `order`, -1 ends) to path,
 * each with its newline. */
static void
spit_lines(const char *path, char **lines, const size_t *lens, const int *order)
{
	FILE *f = fopen(path, "wb");
	size_t i;

	ck_assert_ptr_nonnull(f);
	for (i = 0; order[i] >= 0; i++) {
		ck_assert_uint_eq(fwrite(lines[order[i]], 1, lens[order[i]], f),
				  lens[order[i]]);
		ck_assert_int_ne(fputc('\n', f), EOF);
	}
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_audit_tampering_reported_at_the_record)
{
	static const struct {
		const char *what;
		int order[10];
		unsigned bad; /* 0: intact */
	} cases[] = {
	    {"record 3 deleted", {0, 1, 3, 4, 5, -1}, 3},
	    {"record 1 deleted", {1, 2, 3, 4, 5, -1}, 1},
	    {"records 3 and 4 swapped", {0, 1, 3, 2, 4, 5, -1}, 3},
	    {"records 1 and 2 swapped", {1, 0, 2, 3, 4, 5, -1}, 1},
	    {"record 3 repeated", {0, 1, 2, 2, 3, 4, 5, -1}, 4},
	    {"record 6 moved first", {5, 0, 1, 2, 3, 4, -1}, 1},
	    /* without the state, a chain cannot tell that its end was cut
	     * at a record boundary (with it, it can: see
	     * test_audit_cut_end_found_with_the_state) */
	    {"record 6 deleted", {0, 1, 2, 3, 4, -1}, 0},
	    {"as written", {0, 1, 2, 3, 4, 5, -1}, 0},
	};
	char *buf, *copy, *lines[8], path[400];
	size_t len, lens[8], i, j;
	struct tmp t;

	tmp_make(&t);
	write_n(t.log, t.key, 6);
	buf = slurp(t.log, &len);
	copy = malloc(len + 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, buf, len + 1);
	ck_assert_uint_eq(split_lines(buf, len, lines, lens, 8), 6);
	(void)snprintf(path, sizeof path, "%s/t.log", t.dir);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		spit_lines(path, lines, lens, cases[i].order);
		if (cases[i].bad == 0) {
			for (j = 0; cases[i].order[j] >= 0; j++)
				;
			assert_intact(path, t.pub, (unsigned)j);
		} else {
			assert_bad_at(path, t.pub, cases[i].bad, cases[i].what);
		}
	}

	/* any one byte of record 3 changed, its newline included */
	{
		size_t off = (size_t)(lines[2] - buf);

		for (j = 0; j <= lens[2]; j++) {
			char what[64];

			memcpy(copy, buf, len);
			copy[off + j] ^= 0x01;
			spit(path, copy, len);
			(void)snprintf(what, sizeof what,
				       "byte %zu of record 3", j);
			assert_bad_at(path, t.pub, 3, what);
		}
	}
	/* the last line torn: its newline, or more, missing */
	spit(path, buf, len - 1);
	assert_bad_at(path, t.pub, 6, "no final newline");
	spit(path, buf, len - 30);
	assert_bad_at(path, t.pub, 6, "last line cut");
	/* an empty line, garbage, an over-long line */
	spit(path, buf, (size_t)(lines[3] - buf));
	{
		FILE *f = fopen(path, "ab");
		size_t k;

		ck_assert_ptr_nonnull(f);
		fputc('\n', f);
		ck_assert_int_eq(fclose(f), 0);
		assert_bad_at(path, t.pub, 4, "empty line");
		spit(path, buf, (size_t)(lines[1] - buf));
		f = fopen(path, "ab");
		ck_assert_ptr_nonnull(f);
		for (k = 0; k < PTY_AUDIT_LINE_MAX + 10; k++)
			fputc('x', f);
		fputc('\n', f);
		ck_assert_int_eq(fclose(f), 0);
		assert_bad_at(path, t.pub, 2, "line over 64 KiB");
	}
	/* the whole log under another key: record 1 already fails */
	assert_bad_at(t.log, t.other_pub, 1, "another key");
	/* another log's state does not continue this log: its writer
	 * refuses, and says to check the log */
	{
		struct pty_audit *a = NULL;
		struct pty_audit_session s;
		struct pty_audit_event e;
		char err[512];

		session_make(&s, "interactive");
		memset(&e, 0, sizeof e);
		e.event = "line";
		ck_assert_int_eq(
		    pty_audit_open(t.log, t.other, &a, err, sizeof err), 0);
		ck_assert_int_eq(pty_audit_write(a, &s, &e, err, sizeof err),
				 -1);
		ck_assert_msg(strstr(err, "is not the one the audit state") !=
					  NULL &&
				      strstr(err, "--verify-log") != NULL,
			      "%s", err);
		pty_audit_close(a);
		assert_intact(t.log, t.pub, 6);
	}
	free(copy);
	free(buf);
	tmp_remove(&t);
}
END_TEST

/* ---- forward security, the state, rotation ---- */

/* One record (event "e") through an open handle. */
static void
write_one(struct pty_audit *a, const char *line)
{
	struct pty_audit_session s;
	struct pty_audit_event e;
	char err[512];

	session_make(&s, "interactive");
	memset(&e, 0, sizeof e);
	e.event = "line";
	e.outcome = "allow";
	e.line = line;
	e.line_len = strlen(line);
	ck_assert_msg(pty_audit_write(a, &s, &e, err, sizeof err) == 0, "%s",
		      err);
}

/* verify_files of one to three files, asserting rc and a part of the
 * report. */
static void
assert_files(const char *f1, const char *f2, const char *f3, const char *pub,
	     const char *state, int rc, const char *part)
{
	const char *files[3] = {f1, f2, f3};
	size_t n = f3 != NULL ? 3 : f2 != NULL ? 2 : 1;
	char *report = NULL;
	int got = verify_files(files, n, pub, state, &report);

	ck_assert_msg(got == rc && strstr(report, part) != NULL,
		      "rc %d (wanted %d), report:\n%swanted: %s", got, rc,
		      report, part);
	free(report);
}

/* Several writers (handles opened one after the other on the same log and
 * state, writing in turn) make one chain, which the state agrees with;
 * the reader hands out every record and the last one's seq and hash. */
START_TEST(test_audit_several_writers_one_chain)
{
	struct pty_audit *w[3] = {NULL, NULL, NULL};
	struct pty_audit_reader *r = NULL;
	const char *paths[1], *line;
	char err[512], hash[65], want[65], *buf;
	unsigned long long seq;
	size_t len, i;
	struct tmp t;

	tmp_make(&t);
	for (i = 0; i < 3; i++) {
		ck_assert_msg(pty_audit_open(t.log, t.key, &w[i], err,
					     sizeof err) == 0,
			      "%s", err);
		write_one(w[i], "ls");
	}
	for (i = 0; i < 27; i++)
		write_one(w[i % 3], i % 2 ? "id" : "uptime");
	for (i = 0; i < 3; i++)
		pty_audit_close(w[i]);
	assert_files(t.log, NULL, NULL, t.pub, t.key, 0,
		     "30 records, chain intact");
	assert_files(t.log, NULL, NULL, t.pub, t.key, 0,
		     "nothing was cut from the end");
	paths[0] = t.log;
	ck_assert_int_eq(pty_audit_reader_open(paths, 1, t.pub, t.key, &r, err,
					       sizeof err),
			 0);
	for (i = 0; i < 30; i++)
		ck_assert_int_eq(
		    pty_audit_reader_next(r, &line, &len, err, sizeof err), 0);
	ck_assert_int_eq(pty_audit_reader_next(r, &line, &len, err, sizeof err),
			 1);
	ck_assert_int_eq(pty_audit_reader_last(r, &seq, hash), 0);
	ck_assert_uint_eq(seq, 30);
	buf = slurp(t.log, &len);
	buf[len - 1] = '\0';
	line = strrchr(buf, '\n') + 1;
	{
		unsigned char md[32];

		SHA256((const unsigned char *)line, strlen(line), md);
		hex_of(md, 32, want);
	}
	ck_assert_str_eq(hash, want);
	free(buf);
	pty_audit_reader_close(r);
	tmp_remove(&t);
}
END_TEST

/* Whoever steals the state after record 10 holds seed_11: a changed record
 * 5 signed with it (or with any key of the chain from 11 on) is refused at
 * record 5, because record 4 certified pk_5, whose seed is gone. */
START_TEST(test_audit_record_forged_with_a_later_key_refused)
{
	char *stolen, *buf, *lines[16], forged[8192], path[400];
	size_t len, slen, lens[16], i, cut;
	struct chain thief;
	const char *sig;
	struct tmp t;
	FILE *f;

	tmp_make(&t);
	write_n(t.log, t.key, 10);
	stolen = slurp(t.key, &slen);
	write_n(t.log, t.key, 5);
	(void)snprintf(path, sizeof path, "%s/stolen.key", t.dir);
	spit(path, stolen, slen);
	chain_of_state(path, &thief);
	ck_assert_uint_eq(thief.seq, 11);
	buf = slurp(t.log, &len);
	ck_assert_uint_eq(split_lines(buf, len, lines, lens, 16), 15);
	/* record 5 with "rm -rf /" for "ls -l", re-signed by the thief */
	lines[4][lens[4]] = '\0';
	ck_assert_ptr_nonnull(strstr(lines[4], "\"line\":\"ls -l\""));
	sig = strstr(lines[4], "\"sig\":\"");
	ck_assert_ptr_nonnull(sig);
	cut = (size_t)(sig - lines[4]);
	{
		const char *at = strstr(lines[4], "\"line\":\"ls -l\"");
		size_t head = (size_t)(at - lines[4]);
		int n = snprintf(forged, sizeof forged,
				 "%.*s\"line\":\"rm -rf /\"%.*s", (int)head,
				 lines[4], (int)(cut - head - 14),
				 at + 14);

		ck_assert(n > 0);
		(void)sign_with(thief.seed, forged, (size_t)n, sizeof forged);
	}
	f = fopen(t.log, "wb");
	ck_assert_ptr_nonnull(f);
	for (i = 0; i < 15; i++) {
		if (i == 4)
			fputs(forged, f);
		else
			ck_assert_uint_eq(fwrite(lines[i], 1, lens[i], f),
					  lens[i]);
		fputc('\n', f);
	}
	ck_assert_int_eq(fclose(f), 0);
	assert_bad_at(t.log, t.pub, 5, "forged with a later key");
	assert_files(t.log, NULL, NULL, t.pub, t.key, 1,
		     "record 5 (line 5): sig does not verify with the key the "
		     "record before certified");
	free(buf);
	free(stolen);
	tmp_remove(&t);
}
END_TEST

/* A log cut at a record boundary verifies as a chain, but not against the
 * state, whose counter cannot be turned back without an erased seed. */
START_TEST(test_audit_cut_end_found_with_the_state)
{
	char *buf, *lines[32], want[1200];
	size_t len, lens[32];
	int order[32], i;
	struct tmp t;

	tmp_make(&t);
	write_n(t.log, t.key, 23);
	assert_files(t.log, NULL, NULL, t.pub, t.key, 0,
		     "23 records, chain intact");
	buf = slurp(t.log, &len);
	ck_assert_uint_eq(split_lines(buf, len, lines, lens, 32), 23);
	for (i = 0; i < 20; i++)
		order[i] = i;
	order[20] = -1;
	spit_lines(t.log, lines, lens, order);
	/* the chain alone cannot tell */
	assert_intact(t.log, t.pub, 20);
	(void)snprintf(want, sizeof want,
		       "%s: records 21-23 are missing at the end: the log was "
		       "cut (the state %s says the next record is 24)\n",
		       t.log, t.key);
	assert_files(t.log, NULL, NULL, t.pub, t.key, 1, want);
	order[22] = -1;
	order[20] = 20;
	order[21] = 21;
	spit_lines(t.log, lines, lens, order);
	assert_files(t.log, NULL, NULL, t.pub, t.key, 1,
		     "record 23 is missing at the end: the log was cut");
	/* an empty log, the state at 24 */
	spit(t.log, "", 0);
	assert_files(t.log, NULL, NULL, t.pub, t.key, 1,
		     "records 1-23 are missing at the end");
	/* a state that cannot be read: cannot check */
	assert_files(t.log, NULL, NULL, t.pub, t.dir, 2, "cannot check");
	free(buf);
	tmp_remove(&t);
}
END_TEST

/* logrotate renames the log while a writer holds it: the writer's next
 * record goes to a new file at the configured path, which starts with
 * "log_continued" naming the previous file and continues seq and the key
 * chain; another writer that held the old file follows too.  The files
 * verify together, oldest first; a deleted middle file, or one replaced by
 * another log's, is named. */
START_TEST(test_audit_rotation_continues_the_chain)
{
	struct pty_audit *a = NULL, *b = NULL;
	char err[512], log1[400], log2[400], want[2000], *buf;
	size_t len;
	struct tmp t;

	tmp_make(&t);
	(void)snprintf(log1, sizeof log1, "%s.1", t.log);
	(void)snprintf(log2, sizeof log2, "%s.2", t.log);
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &b, err, sizeof err), 0);
	write_one(a, "r1");
	write_one(b, "r2");
	write_one(a, "r3");
	ck_assert_int_eq(rename(t.log, log2), 0);
	write_one(a, "r5"); /* 4: log_continued, 5 */
	write_one(b, "r6"); /* b follows: no second log_continued */
	ck_assert_int_eq(rename(t.log, log1), 0);
	write_one(b, "r8"); /* 7: log_continued, 8 */
	write_one(a, "r9");
	pty_audit_close(a);
	pty_audit_close(b);
	buf = slurp(log1, &len);
	(void)snprintf(want, sizeof want,
		       "{\"v\":2,\"seq\":4,\"time\":\"");
	ck_assert_msg(strncmp(buf, want, strlen(want)) == 0, "%s", buf);
	(void)snprintf(want, sizeof want,
		       ",\"session\":\"00000000000000000000000000000000\","
		       "\"event\":\"log_continued\",\"prev_file\":\"%s\","
		       "\"prev\":\"",
		       log2);
	ck_assert_msg(strstr(buf, want) != NULL, "%s", buf);
	ck_assert_ptr_null(strstr(strchr(buf, '\n'), "log_continued"));
	free(buf);
	buf = slurp(t.log, &len);
	ck_assert_ptr_nonnull(strstr(buf, "\"prev_file\":\""));
	ck_assert_ptr_nonnull(strstr(buf, "\"seq\":9,"));
	free(buf);
	assert_files(log2, log1, t.log, t.pub, t.key, 0,
		     "9 records, chain intact");
	/* in the wrong order, or the newest alone */
	assert_files(log1, log2, t.log, t.pub, t.key, 1,
		     "records 1-3 are missing before this file");
	/* the middle file deleted */
	(void)snprintf(want, sizeof want,
		       "records 4-6 are missing between %s and %s: a file of "
		       "the rotation was deleted or replaced",
		       log2, t.log);
	assert_files(log2, t.log, NULL, t.pub, t.key, 1, want);
	/* the middle file replaced by another log's records 4-6 */
	{
		char other_log[400], *obuf, *lines[8], path[400];
		size_t olen, lens[8];
		int order[] = {3, 4, 5, -1};

		(void)snprintf(other_log, sizeof other_log, "%s/other.log",
			       t.dir);
		write_n(other_log, t.other, 6);
		obuf = slurp(other_log, &olen);
		ck_assert_uint_eq(split_lines(obuf, olen, lines, lens, 8), 6);
		(void)snprintf(path, sizeof path, "%s/replaced.log", t.dir);
		spit_lines(path, lines, lens, order);
		(void)snprintf(want, sizeof want,
			       "%s: record 4 (line 1): prev is not the SHA-256 "
			       "of the last record of %s: a file of the "
			       "rotation was replaced",
			       path, log2);
		assert_files(log2, path, t.log, t.pub, t.key, 1, want);
		free(obuf);
	}
	tmp_remove(&t);
}
END_TEST

/* A writer that died between its record and the state leaves the state
 * one behind the log: the verifier accepts it, and the next writer evolves
 * the seed once and goes on.  A state further behind is a broken log. */
START_TEST(test_audit_crash_between_record_and_state_recovered)
{
	char *saved, *report = NULL;
	size_t slen;
	struct tmp t;

	tmp_make(&t);
	write_n(t.log, t.key, 5);
	saved = slurp(t.key, &slen);
	write_n(t.log, t.key, 1);
	spit(t.key, saved, slen); /* the state of before record 6 */
	free(saved);
	assert_files(t.log, NULL, NULL, t.pub, t.key, 0,
		     "6 records, chain intact");
	write_n(t.log, t.key, 1);
	assert_files(t.log, NULL, NULL, t.pub, t.key, 0,
		     "7 records, chain intact");
	saved = slurp(t.key, &slen);
	write_n(t.log, t.key, 2);
	spit(t.key, saved, slen); /* two behind: records 8 and 9 */
	free(saved);
	assert_files(t.log, NULL, NULL, t.pub, t.key, 1,
		     "says the next record is 8, but the log goes on to 9");
	{
		struct pty_audit *a = NULL;
		struct pty_audit_session s;
		struct pty_audit_event e;
		char err[512];

		session_make(&s, "interactive");
		memset(&e, 0, sizeof e);
		e.event = "line";
		ck_assert_int_eq(
		    pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
		ck_assert_int_eq(pty_audit_write(a, &s, &e, err, sizeof err),
				 -1);
		ck_assert_msg(strstr(err, "expects before seq 8") != NULL &&
				  strstr(err, "--verify-log") != NULL,
			      "%s", err);
		pty_audit_close(a);
	}
	ck_assert_int_eq(verify(t.log, t.pub, &report), 0);
	free(report);
	tmp_remove(&t);
}
END_TEST

/* A writer killed in a rotation, at each point: after it made the new
 * file (empty), after it wrote log_continued but before the state, and
 * after its record but before the state.  Each time the next writer goes
 * on, and the files verify as one chain with the state. */
START_TEST(test_audit_crash_in_a_rotation_recovered)
{
	struct pty_audit *a = NULL;
	char err[512], log1[400], log2[400], *saved, *buf, *nl;
	size_t slen, len;
	struct tmp t;

	tmp_make(&t);
	(void)snprintf(log1, sizeof log1, "%s.1", t.log);
	(void)snprintf(log2, sizeof log2, "%s.2", t.log);
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
	write_one(a, "r1");
	write_one(a, "r2");
	pty_audit_close(a);
	/* 1. rotated, the new file made, nothing in it yet */
	ck_assert_int_eq(rename(t.log, log2), 0);
	spit(t.log, "", 0);
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
	write_one(a, "r4"); /* 3: log_continued (no prev_file), 4 */
	pty_audit_close(a);
	assert_files(log2, t.log, NULL, t.pub, t.key, 0,
		     "4 records, chain intact");
	/* 2. rotated; killed after log_continued, before the state: the
	 * file cut back to it, the state of before it */
	ck_assert_int_eq(rename(t.log, log1), 0);
	saved = slurp(t.key, &slen);
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
	write_one(a, "r6"); /* 5: log_continued, 6 */
	pty_audit_close(a);
	buf = slurp(t.log, &len);
	nl = strchr(buf, '\n');
	ck_assert_ptr_nonnull(nl);
	ck_assert_ptr_nonnull(strstr(buf, "\"seq\":5,"));
	spit(t.log, buf, (size_t)(nl - buf) + 1);
	spit(t.key, saved, slen);
	free(saved);
	free(buf);
	assert_files(log2, log1, t.log, t.pub, t.key, 0,
		     "5 records, chain intact");
	/* the next writer evolves the state once and goes on */
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
	write_one(a, "r6");
	pty_audit_close(a);
	assert_files(log2, log1, t.log, t.pub, t.key, 0,
		     "6 records, chain intact");
	/* 3. killed after its record, before the state */
	saved = slurp(t.key, &slen);
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
	write_one(a, "r7");
	pty_audit_close(a);
	spit(t.key, saved, slen);
	free(saved);
	assert_files(log2, log1, t.log, t.pub, t.key, 0,
		     "7 records, chain intact");
	/* and the log goes on */
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
	write_one(a, "r8");
	pty_audit_close(a);
	assert_files(log2, log1, t.log, t.pub, t.key, 0,
		     "8 records, chain intact");
	tmp_remove(&t);
}
END_TEST

/* A thief of the host cuts the log back to record 5 and writes a state
 * that continues it (seq 6, the SHA-256 of record 5, a seed of their
 * own: seed_6 is gone).  A writer appends to it - the state is all it
 * has - but --verify-log refuses at record 6, signed with a key record 5
 * did not certify, and with the state it says the state does not go on
 * from the log.  And a whole log re-signed with keys of the thief's own
 * passes only with the thief's audit.pub, whose fingerprint, which
 * --verify-log prints, is not the one kept off the host. */
START_TEST(test_audit_thief_cannot_continue_a_cut_log)
{
	char *buf, *report = NULL, state[400], hash[65], seedhex[65];
	char fpr_real[64], fpr_thief[64], line[200];
	size_t len, i, nl = 0, cut = 0;
	struct tmp t;
	FILE *f;

	tmp_make(&t);
	write_n(t.log, t.key, 10);
	buf = slurp(t.log, &len);
	for (i = 0; i < len; i++)
		if (buf[i] == '\n' && ++nl == 5) {
			cut = i;
			break;
		}
	ck_assert_uint_gt(cut, 0);
	spit(t.log, buf, cut + 1);
	{
		size_t start = cut;

		while (start > 0 && buf[start - 1] != '\n')
			start--;
		pty_sha256_hex(buf + start, cut - start, hash);
	}
	free(buf);
	ck_assert_int_eq(pty_audit_session_id(seedhex), 0);
	ck_assert_int_eq(pty_audit_session_id(seedhex + 32), 0);
	(void)snprintf(state, sizeof state,
		       "maelys-pty audit state v2\nseq %016d\nseed %s\nlast "
		       "%s\n",
		       6, seedhex, hash);
	spit(t.key, state, strlen(state));
	assert_files(t.log, NULL, NULL, t.pub, t.key, 1,
		     "does not continue the log's last record (seq 5)");
	write_n(t.log, t.key, 1); /* the writer cannot tell */
	ck_assert_int_eq(verify(t.log, t.pub, &report), 1);
	ck_assert_msg(strstr(report, "record 6") != NULL, "%s", report);
	free(report);
	/* a log of the thief's own keys: intact with the thief's key only,
	 * and the fingerprints differ */
	tmp_remove(&t);
	tmp_make(&t);
	write_n(t.log, t.other, 3);
	ck_assert_int_eq(verify(t.log, t.pub, &report), 1);
	free(report);
	ck_assert_int_eq(verify(t.log, t.other_pub, &report), 0);
	f = fmemopen(report, strlen(report), "r");
	ck_assert_ptr_nonnull(f);
	fpr_thief[0] = '\0';
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "  verification key %63s", fpr_thief) == 1)
			break;
	(void)fclose(f);
	free(report);
	{
		char hex[70];
		unsigned char pk[32];

		buf = slurp(t.pub, &len);
		memcpy(hex, buf, 64);
		for (i = 0; i < 32; i++) {
			unsigned v;

			ck_assert_int_eq(sscanf(hex + 2 * i, "%2x", &v), 1);
			pk[i] = (unsigned char)v;
		}
		free(buf);
		pty_audit_fingerprint(pk, sizeof pk, fpr_real);
	}
	ck_assert_msg(strncmp(fpr_thief, "SHA256:", 7) == 0, "%s", fpr_thief);
	ck_assert_str_ne(fpr_thief, fpr_real);
	tmp_remove(&t);
}
END_TEST

/* A user's file size limit reaches the writer her guard forks.  A writer
 * that finds the state one behind the log (a writer killed after its
 * record: one of the user's own, under `ulimit -t`, often is) rewrites
 * the state before its record; with a limit of 100 bytes that pwrite(2)
 * was cut after 100 of the state's 187 bytes: a new seq, half a new seed,
 * the old "last" - a state no writer of any user could continue, and no
 * seed left to mend it with.  The state is written whole or not at all. */
START_TEST(test_audit_file_size_limit_never_cuts_the_state)
{
	char *saved, *before, *after;
	size_t slen, blen, alen;
	int status;
	struct tmp t;
	pid_t pid;

	tmp_make(&t);
	write_n(t.log, t.key, 2);
	saved = slurp(t.key, &slen);
	write_n(t.log, t.key, 1);
	spit(t.key, saved, slen); /* one behind: record 3 without its state */
	free(saved);
	before = slurp(t.key, &blen);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct rlimit rl = {100, 100};
		struct pty_audit_session s;
		struct pty_audit_event e;
		struct pty_audit *a = NULL;
		char err[512];

		(void)signal(SIGXFSZ, SIG_IGN); /* as the guard does */
		if (setrlimit(RLIMIT_FSIZE, &rl) != 0 ||
		    pty_audit_open(t.log, t.key, &a, err, sizeof err) != 0)
			_exit(2);
		session_make(&s, "interactive");
		memset(&e, 0, sizeof e);
		e.event = "line";
		if (pty_audit_write(a, &s, &e, err, sizeof err) == 0)
			_exit(3);
		_exit(strstr(err, "file size limit") != NULL ? 0 : 4);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	after = slurp(t.key, &alen);
	ck_assert_msg(alen == blen && memcmp(before, after, blen) == 0,
		      "the state was changed by a writer under a 100-byte "
		      "file size limit:\n%s",
		      after);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "status %d", status);
	free(before);
	free(after);
	/* and every other writer goes on */
	write_n(t.log, t.key, 1);
	assert_files(t.log, NULL, NULL, t.pub, t.key, 0,
		     "4 records, chain intact");
	tmp_remove(&t);
}
END_TEST

/* A log of the old format (v1, HMAC) is not read as this one: the
 * verifier says so, and no writer appends to it. */
START_TEST(test_audit_v1_log_refused)
{
	static const char v1[] =
	    "{\"v\":1,\"seq\":1,\"time\":\"2026-12-02T15:04:05.123Z\","
	    "\"session\":\"0123456789abcdef0123456789abcdef\",\"event\":"
	    "\"session_start\",\"prev\":\"0000000000000000000000000000000000"
	    "000000000000000000000000000000\",\"mac\":\"00000000000000000000"
	    "00000000000000000000000000000000000000000000\"}\n";
	struct pty_audit *a = NULL;
	char *report = NULL, err[512];
	struct tmp t;

	tmp_make(&t);
	spit(t.log, v1, sizeof v1 - 1);
	ck_assert_int_eq(verify(t.log, t.pub, &report), 2);
	ck_assert_msg(strstr(report, "cannot check: written by an older "
				     "maelys-pty (v1)") != NULL,
		      "%s", report);
	free(report);
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
	{
		struct pty_audit_session s;
		struct pty_audit_event e;

		session_make(&s, "interactive");
		memset(&e, 0, sizeof e);
		e.event = "line";
		ck_assert_int_eq(pty_audit_write(a, &s, &e, err, sizeof err),
				 -1);
		ck_assert_msg(strstr(err, "version 1 is not 2") != NULL, "%s",
			      err);
	}
	pty_audit_close(a);
	tmp_remove(&t);
}
END_TEST

START_TEST(test_audit_write_refuses_a_torn_or_bad_tail)
{
	struct pty_audit_session s;
	struct pty_audit_event e;
	struct pty_audit *a = NULL;
	char err[256], *buf, *after;
	size_t len, len2;
	struct tmp t;

	tmp_make(&t);
	write_n(t.log, t.key, 3);
	buf = slurp(t.log, &len);
	spit(t.log, buf, len - 1);
	session_make(&s, "interactive");
	memset(&e, 0, sizeof e);
	e.event = "line";
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
	ck_assert_int_eq(pty_audit_write(a, &s, &e, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "torn") != NULL, "%s", err);
	after = slurp(t.log, &len2);
	ck_assert_uint_eq(len2, len - 1);
	free(after);
	/* a last line that is not a record */
	spit(t.log, "not json\n", 9);
	ck_assert_int_eq(pty_audit_write(a, &s, &e, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "does not parse") != NULL, "%s", err);
	/* an empty file in its place: the log goes on there, from seq 4,
	 * saying so first; alone, it is missing records 1-3 */
	spit(t.log, "", 0);
	ck_assert_msg(pty_audit_write(a, &s, &e, err, sizeof err) == 0, "%s",
		      err);
	pty_audit_close(a);
	after = slurp(t.log, &len2);
	ck_assert_msg(strncmp(after, "{\"v\":2,\"seq\":4,", 15) == 0 &&
			  strstr(after, "\"event\":\"log_continued\"") !=
			      NULL &&
			  strstr(after, "\n{\"v\":2,\"seq\":5,") != NULL,
		      "%s", after);
	free(after);
	{
		char *report = NULL;

		ck_assert_int_eq(verify(t.log, t.pub, &report), 1);
		ck_assert_msg(strstr(report, "records 1-3 are missing before "
					     "this file") != NULL,
			      "%s", report);
		free(report);
	}
	free(buf);
	tmp_remove(&t);
}
END_TEST

START_TEST(test_audit_dev_full_fails_every_write)
{
	struct pty_audit_session s;
	struct pty_audit_event e;
	struct pty_audit *a = NULL;
	char err[256];
	struct tmp t;

	if (access("/dev/full", W_OK) != 0)
		return; /* no /dev/full here: nothing to check */
	tmp_make(&t);
	session_make(&s, "interactive");
	memset(&e, 0, sizeof e);
	e.event = "line";
	e.line = "ls";
	e.line_len = 2;
	e.outcome = "allow";
	ck_assert_msg(pty_audit_open("/dev/full", t.key, &a, err, sizeof err) ==
			  0,
		      "%s", err);
	ck_assert_int_eq(pty_audit_write(a, &s, &e, err, sizeof err), -1);
	ck_assert_msg(strstr(err, strerror(ENOSPC)) != NULL, "%s", err);
	ck_assert_int_eq(pty_audit_write(a, &s, &e, err, sizeof err), -1);
	pty_audit_close(a);
	/* a character device is a log the verifier does not read */
	ck_assert_int_eq(pty_audit_verify("/dev/full", t.pub, NULL), 2);
	tmp_remove(&t);
}
END_TEST

START_TEST(test_audit_open_refuses_bad_files)
{
	static char big[4097];
	struct pty_audit *a = NULL;
	char err[256], path[400], key[400];
	struct stat st;
	mode_t old;
	struct tmp t;

	tmp_make(&t);
	/* the state: symlink, a v1 key, too long, missing, directory, FIFO */
	(void)snprintf(key, sizeof key, "%s/link.key", t.dir);
	ck_assert_int_eq(symlink(t.key, key), 0);
	ck_assert_int_eq(pty_audit_open(t.log, key, &a, err, sizeof err), -1);
	ck_assert_ptr_null(a);
	ck_assert_msg(strstr(err, "symbolic link") != NULL, "%s", err);
	ck_assert_int_eq(access(t.log, F_OK), -1); /* nothing created */
	(void)snprintf(key, sizeof key, "%s/v1.key", t.dir);
	spit(key, v1_key, sizeof v1_key - 1);
	ck_assert_int_eq(pty_audit_open(t.log, key, &a, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "not a state of the forward-secure log") !=
			      NULL &&
			  strstr(err, "run maelys-pty-setup") != NULL,
		      "%s", err);
	(void)snprintf(key, sizeof key, "%s/long.key", t.dir);
	memset(big, 'k', sizeof big);
	spit(key, big, 4097);
	ck_assert_int_eq(pty_audit_open(t.log, key, &a, err, sizeof err), -1);
	ck_assert_int_eq(access(t.log, F_OK), -1);
	(void)snprintf(key, sizeof key, "%s/none.key", t.dir);
	ck_assert_int_eq(pty_audit_open(t.log, key, &a, err, sizeof err), -1);
	ck_assert_int_eq(pty_audit_open(t.log, t.dir, &a, err, sizeof err), -1);
	(void)snprintf(key, sizeof key, "%s/fifo.key", t.dir);
	ck_assert_int_eq(mkfifo(key, 0600), 0);
	ck_assert_int_eq(pty_audit_open(t.log, key, &a, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "not a regular file") != NULL, "%s", err);
	ck_assert_int_eq(access(t.log, F_OK), -1);
	/* a state others may read or change, or its group read: refused */
	ck_assert_int_eq(chmod(t.key, 0644), 0);
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "lets others read") != NULL, "%s", err);
	ck_assert_int_eq(chmod(t.key, 0660), 0);
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), -1);
	ck_assert_int_eq(access(t.log, F_OK), -1);
	ck_assert_int_eq(chmod(t.key, 0640), 0);
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), -1);
	ck_assert_int_eq(access(t.log, F_OK), -1);
	ck_assert_int_eq(chmod(t.key, 0600), 0);
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
	pty_audit_close(a);
	(void)unlink(t.log);
	/* the verification key: 64 hex digits, nothing else */
	(void)snprintf(key, sizeof key, "%s/bad.pub", t.dir);
	spit(key, v1_key, sizeof v1_key - 1);
	spit(t.log, "", 0);
	ck_assert_int_eq(pty_audit_verify(t.log, key, NULL), 2);
	ck_assert_int_eq(pty_audit_verify(t.log, t.pub, NULL), 0);
	(void)unlink(t.log);

	/* the log: symlink (its target is not created), directory, FIFO */
	(void)snprintf(path, sizeof path, "%s/link.log", t.dir);
	ck_assert_int_eq(symlink(t.log, path), 0);
	ck_assert_int_eq(pty_audit_open(path, t.key, &a, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "symbolic link") != NULL, "%s", err);
	ck_assert_int_eq(access(t.log, F_OK), -1);
	ck_assert_int_eq(pty_audit_verify(path, t.pub, NULL), 2);
	ck_assert_int_eq(pty_audit_open(t.dir, t.key, &a, err, sizeof err), -1);
	(void)snprintf(path, sizeof path, "%s/fifo.log", t.dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(pty_audit_open(path, t.key, &a, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "not a regular file") != NULL, "%s", err);
	ck_assert_ptr_null(a);
	ck_assert_int_eq(pty_audit_verify(path, t.pub, NULL), 2);

	/* created 0600: one user's records are no other user's business */
	old = umask(022);
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
	(void)umask(old);
	ck_assert_int_eq(stat(t.log, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	pty_audit_close(a);
	/* a log others may write is no record; nor is one a user owns */
	ck_assert_int_eq(chmod(t.log, 0620), 0);
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "writable by group or others") != NULL, "%s",
		      err);
	ck_assert_int_eq(chmod(t.log, 0600), 0);
	/* nor one others may read, or a group that is not the owner's own */
	ck_assert_int_eq(chmod(t.log, 0604), 0);
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "readable by others") != NULL, "%s", err);
	ck_assert_int_eq(chmod(t.log, 0640), 0);
	if (geteuid() == 0) {
		ck_assert_int_eq(chown(t.log, 0, 12345), 0);
		ck_assert_int_eq(
		    pty_audit_open(t.log, t.key, &a, err, sizeof err), -1);
		ck_assert_msg(strstr(err, "not the audit account's") != NULL,
			      "%s", err);
		ck_assert_int_eq(chown(t.log, 0, 0), 0); /* root's own group */
		ck_assert_int_eq(
		    pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
		pty_audit_close(a);
	}
	ck_assert_int_eq(chmod(t.log, 0600), 0);
	if (geteuid() == 0) {
		ck_assert_int_eq(chown(t.log, 12345, 12345), 0);
		ck_assert_int_eq(
		    pty_audit_open(t.log, t.key, &a, err, sizeof err), -1);
		ck_assert_msg(strstr(err, "owned by uid 12345") != NULL, "%s",
			      err);
		ck_assert_int_eq(chown(t.log, 0, 0), 0);
	}
	pty_audit_close(NULL);
	ck_assert_int_eq(pty_audit_verify(NULL, t.pub, NULL), 2);
	tmp_remove(&t);
}
END_TEST

START_TEST(test_audit_handle_is_not_shared_across_fork)
{
	struct pty_audit_session s;
	struct pty_audit_event e;
	struct pty_audit *a = NULL;
	char err[256];
	struct tmp t;
	int status;
	pid_t pid;

	tmp_make(&t);
	session_make(&s, "interactive");
	memset(&e, 0, sizeof e);
	e.event = "line";
	ck_assert_int_eq(pty_audit_open(t.log, t.key, &a, err, sizeof err), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(pty_audit_write(a, &s, &e, err, sizeof err) == -1 &&
			      strstr(err, "must open its own") != NULL
			  ? 0
			  : 1);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_eq(pty_audit_write(a, &s, &e, err, sizeof err), 0);
	pty_audit_close(a);
	assert_intact(t.log, t.pub, 1);
	tmp_remove(&t);
}
END_TEST

START_TEST(test_audit_two_writers_make_one_chain)
{
	struct pty_audit_session s[2];
	char *buf, *line, *end;
	size_t len, count[2] = {0, 0};
	pid_t pid[2];
	struct tmp t;
	int i, status;

	tmp_make(&t);
	session_make(&s[0], "interactive");
	session_make(&s[1], "command");
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		ck_assert_int_ge(pid[i], 0);
		if (pid[i] == 0) {
			struct pty_audit *a = NULL;
			struct pty_audit_event e;
			char err[256];
			int k, bad = 0;

			memset(&e, 0, sizeof e);
			e.event = "line";
			e.line = i == 0 ? "ls" : "id";
			e.line_len = 2;
			e.outcome = "allow";
			if (pty_audit_open(t.log, t.key, &a, err, sizeof err))
				_exit(2);
			for (k = 0; k < 200; k++)
				bad |= pty_audit_write(a, &s[i], &e, err,
						       sizeof err) != 0;
			pty_audit_close(a);
			_exit(bad);
		}
	}
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(waitpid(pid[i], &status, 0), pid[i]);
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	assert_intact(t.log, t.pub, 400);
	buf = slurp(t.log, &len);
	for (line = buf; line < buf + len; line = end + 1) {
		end = strchr(line, '\n');
		ck_assert_ptr_nonnull(end);
		*end = '\0';
		for (i = 0; i < 2; i++)
			if (strstr(line, s[i].id) != NULL)
				count[i]++;
	}
	ck_assert_uint_eq(count[0], 200);
	ck_assert_uint_eq(count[1], 200);
	free(buf);
	tmp_remove(&t);
}
END_TEST

/* Through a writer process: the records are the same chain, and the
 * writer's refusal (a bad key) is the caller's error line. */
START_TEST(test_audit_writer_process_writes_the_chain)
{
	struct pty_audit_session s;
	struct pty_audit_event e;
	struct pty_audit *a = NULL;
	char err[512], *log;
	struct tmp t;
	pid_t writer;
	size_t len;
	int i;

	tmp_make(&t);
	session_make(&s, "interactive");
	/* the writer's own refusal comes back as the error line */
	{
		char missing[400];

		(void)snprintf(missing, sizeof missing, "%s/absent.key", t.dir);
		ck_assert_int_eq(
		    pty_audit_start_writer(t.log, missing, &a, err, sizeof err),
		    -1);
		ck_assert_ptr_null(a);
		ck_assert_msg(strstr(err, "absent.key") != NULL, "%s", err);
		ck_assert_int_eq(access(t.log, F_OK), -1); /* nothing made */
	}
	ck_assert_msg(
	    pty_audit_start_writer(t.log, t.key, &a, err, sizeof err) == 0,
	    "%s", err);
	writer = pty_audit_writer_pid(a);
	ck_assert_int_gt(writer, 0);
	ck_assert_int_ne(writer, getpid());
	memset(&e, 0, sizeof e);
	e.event = "line";
	e.line = "ls -l";
	e.line_len = 5;
	e.outcome = "allow";
	for (i = 0; i < 50; i++)
		ck_assert_msg(pty_audit_write(a, &s, &e, err, sizeof err) == 0,
			      "%s", err);
	pty_audit_close(a);
	ck_assert_int_eq(waitpid(writer, NULL, 0), writer);
	assert_intact(t.log, t.pub, 50);
	log = slurp(t.log, &len);
	ck_assert_ptr_nonnull(strstr(log, "\"line\":\"ls -l\""));
	free(log);
	tmp_remove(&t);
}
END_TEST

/* A client that goes away without saying the session ended (a guard that
 * is killed) still leaves its fallback record; one that says so, none. */
START_TEST(test_audit_writer_records_the_end_of_a_killed_guard)
{
	struct pty_audit_session s;
	struct tmp t;
	char *log = NULL;
	size_t len;
	int round, status;

	tmp_make(&t);
	session_make(&s, "interactive");
	for (round = 0; round < 2; round++) {
		pid_t pid = fork();

		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			struct pty_audit *a = NULL;
			struct pty_audit_event e;
			char err[256];

			memset(&e, 0, sizeof e);
			e.event = e.outcome = "session_end";
			e.note = round == 0 ? "killed" : "never written";
			if (pty_audit_start_writer(t.log, t.key, &a, err,
						   sizeof err) != 0 ||
			    pty_audit_set_fallback(a, &s, &e, err,
						   sizeof err) != 0)
				_exit(2);
			if (round == 1 &&
			    pty_audit_session_done(a, err, sizeof err) != 0)
				_exit(3);
			/* killed: no close, no goodbye */
			(void)kill(getpid(), SIGKILL);
			_exit(4);
		}
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		ck_assert(WIFSIGNALED(status));
	}
	/* the writers are orphans now: wait for the record, bounded */
	for (round = 0; round < 200; round++) {
		log = access(t.log, F_OK) == 0 ? slurp(t.log, &len) : NULL;
		if (log != NULL && strstr(log, "\"note\":\"killed\"") != NULL)
			break;
		free(log);
		log = NULL;
		usleep(10000);
	}
	ck_assert_msg(log != NULL, "no session_end record of the killed guard");
	usleep(100000); /* the second writer had as long to misbehave */
	free(log);
	log = slurp(t.log, &len);
	ck_assert_ptr_null(strstr(log, "never written"));
	free(log);
	assert_intact(t.log, t.pub, 1);
	tmp_remove(&t);
}
END_TEST

/* A client stopped between two records (SIGSTOP: what a user can do to
 * their own guard) holds nothing: another session's records go on. */
START_TEST(test_audit_stopped_client_does_not_stall_another)
{
	struct pty_audit_session s[2];
	struct pty_audit_event e;
	struct pty_audit *a = NULL;
	char err[256];
	int fds[2], status, i;
	struct tmp t;
	pid_t pid;
	char c;

	tmp_make(&t);
	session_make(&s[0], "interactive");
	session_make(&s[1], "interactive");
	memset(&e, 0, sizeof e);
	e.event = "line";
	e.outcome = "allow";
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct pty_audit *b = NULL;

		if (pty_audit_start_writer(t.log, t.key, &b, err, sizeof err))
			_exit(2);
		for (i = 0; i < 20; i++)
			if (pty_audit_write(b, &s[0], &e, err, sizeof err))
				_exit(3);
		(void)write(fds[1], "x", 1);
		(void)raise(SIGSTOP); /* and stays stopped */
		_exit(0);
	}
	ck_assert_int_eq(read(fds[0], &c, 1), 1);
	ck_assert_int_eq(waitpid(pid, &status, WUNTRACED), pid);
	ck_assert(WIFSTOPPED(status));
	ck_assert_msg(
	    pty_audit_start_writer(t.log, t.key, &a, err, sizeof err) == 0,
	    "%s", err);
	for (i = 0; i < 20; i++)
		ck_assert_msg(pty_audit_write(a, &s[1], &e, err, sizeof err) ==
				  0,
			      "%s", err);
	pty_audit_close(a);
	ck_assert_int_eq(kill(pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	usleep(100000);
	assert_intact(t.log, t.pub, 40);
	close(fds[0]);
	close(fds[1]);
	tmp_remove(&t);
}
END_TEST

/* Starts a writer as a guard of user `uid` starts it: setuid to the
 * audit account (here root), its real uid the user's. */
static void
start_writer_of(uid_t uid, const char *log, const char *key,
		struct pty_audit **a)
{
	char err[512];

	ck_assert_int_eq(setresuid(uid, 0, 0), 0);
	ck_assert_msg(pty_audit_start_writer(log, key, a, err, sizeof err) == 0,
		      "%s", err);
	ck_assert_int_eq(setresuid(0, 0, 0), 0);
}

/* One session that floods the log fills its file system only down to the
 * reserve kept for sessions that wrote little: then it is refused, and
 * another session's records still go in.  (On a 2 MiB tmpfs: root only.) */
START_TEST(test_audit_flooding_session_leaves_room_for_others)
{
	struct pty_audit_session s[2];
	struct pty_audit_event e;
	struct pty_audit *a = NULL, *b = NULL;
	char err[512], cmd[600], *big;
	struct tmp t;
	int i, refused = 0;

	if (geteuid() != 0) {
		printf("*** SKIP test_audit_flooding_session_leaves_room_for_"
		       "others: mounting a small file system needs root ***\n");
		return;
	}
	tmp_make(&t);
	/* in a mount namespace of this test's process (Check forked it):
	 * the small file system goes away with it, whatever happens */
	snprintf(cmd, sizeof cmd, "%s/fs", t.dir);
	if (mkdir(cmd, 0700) != 0 || unshare(CLONE_NEWNS) != 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    mount("tmpfs", cmd, "tmpfs", 0, "size=2m") != 0) {
		printf("*** SKIP: no tmpfs mount here ***\n");
		tmp_remove(&t);
		return;
	}
	snprintf(t.log, sizeof t.log, "%s/fs/audit.log", t.dir);
	session_make(&s[0], "command");
	session_make(&s[1], "interactive");
	/* lines below SCAN_LINE_MAX are recorded whole: 4 KB a record */
	big = malloc(4000);
	ck_assert_ptr_nonnull(big);
	memset(big, 'x', 3999);
	big[3999] = '\0';
	/* the flooding session is uid 65534's; the light one another
	 * user's */
	start_writer_of(65534, t.log, t.key, &a);
	start_writer_of(0, t.log, t.key, &b);
	memset(&e, 0, sizeof e);
	e.event = "line";
	e.outcome = "allow";
	e.line = big;
	e.line_len = strlen(big);
	for (i = 0; i < 1000 && !refused; i++)
		refused = pty_audit_write(a, &s[0], &e, err, sizeof err) != 0;
	ck_assert_msg(refused, "2 MiB and never refused");
	ck_assert_msg(strstr(err, "down to its reserve") != NULL, "%s", err);
	/* the other session, a light one, goes on */
	e.line = "ls";
	e.line_len = 2;
	for (i = 0; i < 50; i++)
		ck_assert_msg(pty_audit_write(b, &s[1], &e, err, sizeof err) ==
				  0,
			      "record %d of the light session: %s", i, err);
	pty_audit_close(a);
	pty_audit_close(b);
	usleep(100000);
	free(big);
	ck_assert_int_eq(umount(cmd), 0);
	tmp_remove(&t);
}
END_TEST

/* A user who floods the log from session after session (each a writer
 * of its own, which the per-session share let write a quarter of the
 * reserve) drains the reserve no more than one session does: the share
 * is the user's, over all their sessions, and another user's new session
 * still starts and records.  (On a 2 MiB tmpfs: root only.) */
START_TEST(test_audit_flooding_user_in_many_sessions_leaves_room_for_others)
{
	struct pty_audit_session s[2];
	struct pty_audit_event e;
	struct pty_audit *a = NULL;
	char err[512], dir[600], *big;
	struct tmp t;
	int i, k, refused;

	if (geteuid() != 0) {
		printf("*** SKIP test_audit_flooding_user_in_many_sessions_"
		       "leaves_room_for_others: mounting a small file system "
		       "needs root ***\n");
		return;
	}
	tmp_make(&t);
	snprintf(dir, sizeof dir, "%s/fs", t.dir);
	if (mkdir(dir, 0700) != 0 || unshare(CLONE_NEWNS) != 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    mount("tmpfs", dir, "tmpfs", 0, "size=2m") != 0) {
		printf("*** SKIP: no tmpfs mount here ***\n");
		tmp_remove(&t);
		return;
	}
	snprintf(t.log, sizeof t.log, "%s/fs/audit.log", t.dir);
	session_make(&s[0], "command");
	session_make(&s[1], "interactive");
	big = malloc(4000);
	ck_assert_ptr_nonnull(big);
	memset(big, 'x', 3999);
	big[3999] = '\0';
	memset(&e, 0, sizeof e);
	e.event = "line";
	e.outcome = "allow";
	/* uid 65534: eight sessions, one after the other, each writing
	 * until it is refused */
	for (k = 0; k < 8; k++) {
		start_writer_of(65534, t.log, t.key, &a);
		e.line = big;
		e.line_len = strlen(big);
		refused = 0;
		for (i = 0; i < 1000 && !refused; i++)
			refused =
			    pty_audit_write(a, &s[0], &e, err, sizeof err) != 0;
		ck_assert_msg(refused, "2 MiB and never refused");
		pty_audit_close(a);
		a = NULL;
	}
	ck_assert_msg(strstr(err, "down to its reserve") != NULL, "%s", err);
	/* another user's new session: its start and 50 lines */
	start_writer_of(0, t.log, t.key, &a);
	e.line = "ls";
	e.line_len = 2;
	for (i = 0; i < 50; i++)
		ck_assert_msg(pty_audit_write(a, &s[1], &e, err, sizeof err) ==
				  0,
			      "record %d of another user's session, after "
			      "uid 65534's eight: %s",
			      i, err);
	pty_audit_close(a);
	usleep(100000);
	free(big);
	ck_assert_int_eq(umount(dir), 0);
	tmp_remove(&t);
}
END_TEST

/* A user's umask reaches the writer (it is forked by the user's guard):
 * with umask 0777 (or 0277) a log it creates - at the start, or when it
 * follows a rotation - was mode 0000 (0400), and every other session's
 * writer, the audit account without root's override, could no longer open
 * it: one user's `umask 777` before a session ended everybody's.  A log
 * the writer creates is 0600 whatever the umask. */
START_TEST(test_audit_new_log_is_0600_whatever_the_umask)
{
	struct pty_audit_session s;
	struct pty_audit_event e;
	struct pty_audit *a = NULL;
	char err[512], old[400];
	struct stat st;
	mode_t was;
	struct tmp t;
	pid_t writer;

	tmp_make(&t);
	session_make(&s, "interactive");
	memset(&e, 0, sizeof e);
	e.event = "line";
	e.line = "ls";
	e.line_len = 2;
	e.outcome = "allow";
	(void)snprintf(old, sizeof old, "%s.1", t.log);
	was = umask(0777);
	ck_assert_msg(
	    pty_audit_start_writer(t.log, t.key, &a, err, sizeof err) == 0,
	    "%s", err);
	writer = pty_audit_writer_pid(a);
	ck_assert_msg(pty_audit_write(a, &s, &e, err, sizeof err) == 0, "%s",
		      err);
	ck_assert_int_eq(stat(t.log, &st), 0);
	ck_assert_msg((st.st_mode & 07777) == 0600,
		      "a new log is mode %04o under umask 0777",
		      (unsigned)(st.st_mode & 07777));
	/* logrotate renames it: the writer creates the next one */
	ck_assert_int_eq(rename(t.log, old), 0);
	ck_assert_msg(pty_audit_write(a, &s, &e, err, sizeof err) == 0, "%s",
		      err);
	ck_assert_int_eq(stat(t.log, &st), 0);
	ck_assert_msg((st.st_mode & 07777) == 0600,
		      "the log after a rotation is mode %04o under umask "
		      "0777",
		      (unsigned)(st.st_mode & 07777));
	pty_audit_close(a);
	(void)umask(was);
	ck_assert_int_eq(waitpid(writer, NULL, 0), writer);
	/* the line, log_continued, the line */
	assert_files(old, t.log, NULL, t.pub, t.key, 0,
		     "3 records, chain intact");
	tmp_remove(&t);
}
END_TEST

/* The syslog anchor after a session_end is sent once the state's lock is
 * released: syslog(3) writes to /dev/log and blocks while the syslog
 * daemon does not read (a daemon that a flood of `logger` keeps busy), and
 * every writer of every session waits on that lock.  The probe: syslog
 * is this test's own (below), which tries the state's lock. */
static const char *anchor_state;  /* the state the probe tries */
static const char *anchor_report; /* where it says what it found */

void
syslog(int pri, const char *fmt, ...)
{
	va_list ap;
	int fd, held;

	if (anchor_state != NULL && strcmp(fmt, PTY_AUDIT_ANCHOR_FMT) == 0 &&
	    (fd = open(anchor_state, O_RDONLY | O_CLOEXEC)) >= 0) {
		held = flock(fd, LOCK_EX | LOCK_NB) != 0;
		(void)close(fd);
		if ((fd = open(anchor_report,
			       O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
			       0600)) >= 0) {
			(void)write(fd, held ? "held\n" : "free\n", 5);
			(void)close(fd);
		}
	}
	va_start(ap, fmt);
	vsyslog(pri, fmt, ap);
	va_end(ap);
}

START_TEST(test_audit_anchor_sent_after_the_lock_is_released)
{
	struct pty_audit_session s;
	struct pty_audit_event e;
	struct pty_audit *a = NULL;
	char err[512], report[400], *said;
	struct tmp t;
	pid_t writer;
	size_t len;

	tmp_make(&t);
	session_make(&s, "interactive");
	(void)snprintf(report, sizeof report, "%s/anchors", t.dir);
	anchor_state = t.key;
	anchor_report = report;
	pty_audit_set_syslog(PTY_AUDIT_SYSLOG_ANCHORS);
	ck_assert_msg(
	    pty_audit_start_writer(t.log, t.key, &a, err, sizeof err) == 0,
	    "%s", err);
	writer = pty_audit_writer_pid(a);
	memset(&e, 0, sizeof e);
	e.event = "session_end";
	ck_assert_msg(pty_audit_write(a, &s, &e, err, sizeof err) == 0, "%s",
		      err);
	pty_audit_close(a);
	ck_assert_int_eq(waitpid(writer, NULL, 0), writer);
	anchor_state = NULL;
	said = slurp(report, &len);
	ck_assert_msg(strcmp(said, "free\n") == 0,
		      "the anchor was sent with the state's lock: %s", said);
	free(said);
	tmp_remove(&t);
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("audit");

	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, test_audit_sha256_known_vectors);
	tcase_add_test(tc, test_audit_session_ids_are_hex_and_differ);
	tcase_add_test(tc, test_audit_records_carry_every_field);
	tcase_add_test(tc, test_audit_exec_records_read_independently);
	tcase_add_test(tc, test_audit_record_too_long_drops_line_then_fails);
	tcase_add_test(tc, test_audit_longest_record_is_read_back);
	tcase_add_test(tc, test_audit_flat_event_recorded_as_given_or_refused);
	tcase_add_test(tc, test_audit_chain_continues_across_opens);
	tcase_add_test(tc, test_audit_tampering_reported_at_the_record);
	tcase_add_test(tc, test_audit_write_refuses_a_torn_or_bad_tail);
	tcase_add_test(tc, test_audit_several_writers_one_chain);
	tcase_add_test(tc, test_audit_record_forged_with_a_later_key_refused);
	tcase_add_test(tc, test_audit_cut_end_found_with_the_state);
	tcase_add_test(tc, test_audit_rotation_continues_the_chain);
	tcase_add_test(tc, test_audit_crash_between_record_and_state_recovered);
	tcase_add_test(tc, test_audit_crash_in_a_rotation_recovered);
	tcase_add_test(tc, test_audit_thief_cannot_continue_a_cut_log);
	tcase_add_test(tc, test_audit_file_size_limit_never_cuts_the_state);
	tcase_add_test(tc, test_audit_v1_log_refused);
	tcase_add_test(tc, test_audit_dev_full_fails_every_write);
	tcase_add_test(tc, test_audit_open_refuses_bad_files);
	tcase_add_test(tc, test_audit_handle_is_not_shared_across_fork);
	tcase_add_test(tc, test_audit_two_writers_make_one_chain);
	tcase_add_test(tc, test_audit_writer_process_writes_the_chain);
	tcase_add_test(tc, test_audit_writer_records_the_end_of_a_killed_guard);
	tcase_add_test(tc, test_audit_stopped_client_does_not_stall_another);
	tcase_add_test(tc, test_audit_flooding_session_leaves_room_for_others);
	tcase_add_test(
	    tc,
	    test_audit_flooding_user_in_many_sessions_leaves_room_for_others);
	tcase_add_test(tc, test_audit_facts_and_session_end_fields);
	tcase_add_test(tc, test_audit_new_log_is_0600_whatever_the_umask);
	tcase_add_test(tc, test_audit_anchor_sent_after_the_lock_is_released);
	suite_add_tcase(s, tc);
	return s;
}
