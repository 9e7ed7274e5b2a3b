/* SPDX-License-Identifier: MIT */
/*
 * The audit log (pty_audit.h): building a record, chaining it to the last
 * line of the file under an exclusive flock(2), appending it with one
 * write(2) and fdatasync(2); and checking a whole log.  SHA-256 and
 * HMAC-SHA-256 come from OpenSSL's libcrypto (EVP), never from here.
 *
 * The reader is ours and small on purpose: it accepts exactly what the
 * writer produces - one object without white space, its keys known, in
 * the documented order and each at most once, values of the type each key
 * has (strings with the writer's escapes, unsigned integers, arrays of
 * strings, the {"op","reason"} objects of "reasons") - and refuses anything
 * else, so that a record means one thing only.  It never recurses (the
 * shape is fixed) and never reads past the line it is given.
 */
#define _GNU_SOURCE

#include "pty_audit.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "scan_utf8.h"
#include "scanner.h"

#define AUDIT_KEY_MIN  32
#define AUDIT_KEY_MAX  4096
#define AUDIT_MAC_LEN  32
/* the JSON-safe integers: a reader in any language gets seq exactly */
#define AUDIT_SEQ_MAX  ((uint64_t)9007199254740991u)
/* "mac":" + 64 hex digits + "} : what follows the bytes the mac covers */
#define AUDIT_MAC_TAIL 73

struct pty_audit {
	int fd;
	/* flock(2) excludes per open file description: only this process
	 * may write through fd (see pty_audit_write) */
	pid_t pid;
	EVP_MAC_CTX *mac; /* keyed HMAC-SHA-256, duplicated per message */
	char *tail;       /* PTY_AUDIT_LINE_MAX + 1 bytes: the end of the log */
	char *rec;        /* PTY_AUDIT_LINE_MAX bytes: the record being built */
};

static void __attribute__((format(printf, 3, 4)))
audit_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static void
audit_hex(const unsigned char *in, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 0x0f];
	}
	out[2 * n] = '\0';
}

/* Exactly n lower-case hex digits (what audit_hex writes). */
static bool
audit_is_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

void
pty_sha256_hex(const void *data, size_t len, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	if (data == NULL)
		data = "";
	if (!EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) ||
	    mdlen != 32) {
		hex[0] = '\0';
		return;
	}
	audit_hex(md, 32, hex);
}

int
pty_audit_session_id(char id[33])
{
	unsigned char r[16];
	size_t got = 0;

	id[0] = '\0';
	while (got < sizeof r) {
		ssize_t n = getrandom(r + got, sizeof r - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	audit_hex(r, sizeof r, id);
	return 0;
}

/* A keyed HMAC-SHA-256 context, or NULL. */
static EVP_MAC_CTX *
audit_mac_new(const unsigned char *key, size_t len)
{
	char digest[] = "SHA256";
	OSSL_PARAM params[2];
	EVP_MAC *mac;
	EVP_MAC_CTX *ctx;

	mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	if (mac == NULL)
		return NULL;
	ctx = EVP_MAC_CTX_new(mac);
	EVP_MAC_free(mac); /* the context holds its own reference */
	if (ctx == NULL)
		return NULL;
	params[0] =
	    OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0);
	params[1] = OSSL_PARAM_construct_end();
	if (!EVP_MAC_init(ctx, key, len, params)) {
		EVP_MAC_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

/* HMAC of len bytes under the key of `keyed` (left as it was). */
static int
audit_hmac(EVP_MAC_CTX *keyed, const void *data, size_t len,
	   unsigned char out[AUDIT_MAC_LEN])
{
	EVP_MAC_CTX *c = EVP_MAC_CTX_dup(keyed);
	size_t outlen = 0;
	int ok;

	if (c == NULL)
		return -1;
	ok = EVP_MAC_update(c, (const unsigned char *)(len ? data : ""), len) &&
	     EVP_MAC_final(c, out, &outlen, AUDIT_MAC_LEN) &&
	     outlen == AUDIT_MAC_LEN;
	EVP_MAC_CTX_free(c);
	return ok ? 0 : -1;
}

/* Reads the key file (pty_audit_open's rules) into a keyed context.  The
 * key's bytes live on this stack frame only until the context has them. */
static int
audit_key_load(const char *path, EVP_MAC_CTX **out, char *err, size_t errlen)
{
	unsigned char key[AUDIT_KEY_MAX + 1];
	struct stat st;
	size_t len = 0;
	int fd, saved;

	*out = NULL;
	/* O_NONBLOCK: a FIFO put in its place must not hang the open */
	fd = open(path,
		  O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		saved = errno;
		audit_err(err, errlen, "audit key %s: %s", path,
			  saved == ELOOP ? "is a symbolic link"
					 : strerror(saved));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		audit_err(err, errlen, "audit key %s: not a regular file",
			  path);
		(void)close(fd);
		return -1;
	}
	while (len < sizeof key) {
		ssize_t n = read(fd, key + len, sizeof key - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			saved = errno;
			audit_err(err, errlen, "audit key %s: %s", path,
				  strerror(saved));
			(void)close(fd);
			OPENSSL_cleanse(key, sizeof key);
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	(void)close(fd);
	if (len < AUDIT_KEY_MIN || len > AUDIT_KEY_MAX) {
		audit_err(err, errlen,
			  "audit key %s: %s%zu bytes; it must have %d to %d",
			  path, len > AUDIT_KEY_MAX ? "more than " : "",
			  len > AUDIT_KEY_MAX ? (size_t)AUDIT_KEY_MAX : len,
			  AUDIT_KEY_MIN, AUDIT_KEY_MAX);
		OPENSSL_cleanse(key, sizeof key);
		return -1;
	}
	*out = audit_mac_new(key, len);
	OPENSSL_cleanse(key, sizeof key);
	if (*out == NULL) {
		audit_err(err, errlen, "audit key %s: no HMAC-SHA-256", path);
		return -1;
	}
	return 0;
}

int
pty_audit_open(const char *log_path, const char *key_path,
	       struct pty_audit **out, char *err, size_t errlen)
{
	struct pty_audit *a;
	struct stat st;
	int flags, saved;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (out == NULL) {
		audit_err(err, errlen, "audit log: no handle to fill");
		return -1;
	}
	*out = NULL;
	if (log_path == NULL || key_path == NULL) {
		audit_err(err, errlen, "audit log: no path");
		return -1;
	}
	if ((a = calloc(1, sizeof *a)) == NULL) {
		audit_err(err, errlen, "audit log: out of memory");
		return -1;
	}
	a->fd = -1;
	/* the key first, so that a bad key creates no log file */
	if (audit_key_load(key_path, &a->mac, err, errlen) != 0)
		goto fail;
	a->tail = malloc(PTY_AUDIT_LINE_MAX + 1);
	a->rec = malloc(PTY_AUDIT_LINE_MAX);
	if (a->tail == NULL || a->rec == NULL) {
		audit_err(err, errlen, "audit log: out of memory");
		goto fail;
	}
	/* O_NONBLOCK only for the open (a device must not hang it) */
	a->fd = open(log_path,
		     O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
			 O_NOCTTY | O_NONBLOCK,
		     0640);
	if (a->fd < 0) {
		saved = errno;
		audit_err(err, errlen, "audit log %s: %s", log_path,
			  saved == ELOOP ? "is a symbolic link"
					 : strerror(saved));
		goto fail;
	}
	if (fstat(a->fd, &st) != 0 ||
	    !(S_ISREG(st.st_mode) || S_ISCHR(st.st_mode))) {
		audit_err(err, errlen,
			  "audit log %s: not a regular file or character "
			  "device",
			  log_path);
		goto fail;
	}
	flags = fcntl(a->fd, F_GETFL);
	if (flags < 0 || fcntl(a->fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
		saved = errno;
		audit_err(err, errlen, "audit log %s: %s", log_path,
			  strerror(saved));
		goto fail;
	}
	a->pid = getpid();
	*out = a;
	return 0;
fail:
	pty_audit_close(a);
	return -1;
}

void
pty_audit_close(struct pty_audit *a)
{
	if (a == NULL)
		return;
	if (a->fd >= 0)
		(void)close(a->fd);
	EVP_MAC_CTX_free(a->mac); /* cleanses the keyed HMAC state */
	free(a->tail);
	free(a->rec);
	OPENSSL_cleanse(a, sizeof *a);
	free(a);
}

/* ------------------------------------------------------------------ */
/* The reader.                                                         */

enum audit_type {
	AUDIT_T_NUMBER,
	AUDIT_T_STRING,
	AUDIT_T_HEX32,
	AUDIT_T_HEX64,
	AUDIT_T_TIME,
	AUDIT_T_STRINGS, /* array of strings */
	AUDIT_T_REASONS, /* array of {"op":string,"reason":string} */
};

/* The record's keys, in the order they must appear. */
enum audit_key {
	AUDIT_K_V,
	AUDIT_K_SEQ,
	AUDIT_K_TIME,
	AUDIT_K_HOST,
	AUDIT_K_USER,
	AUDIT_K_SESSION,
	AUDIT_K_TTY,
	AUDIT_K_REMOTE,
	AUDIT_K_MODE,
	AUDIT_K_EVENT,
	AUDIT_K_LINE,
	AUDIT_K_LINE_SHA256,
	AUDIT_K_TOKENS,
	AUDIT_K_METACHARS,
	AUDIT_K_DECISION,
	AUDIT_K_REASONS,
	AUDIT_K_REFUSAL,
	AUDIT_K_ERROR,
	AUDIT_K_LOG_REASON,
	AUDIT_K_CONFIRM_PROMPT,
	AUDIT_K_NOTE,
	AUDIT_K_POLICY_SHA256,
	AUDIT_K_PREV,
	AUDIT_K_MAC,
	AUDIT_K_COUNT
};

static const struct {
	const char *name;
	enum audit_type type;
	bool required;
} audit_keys[AUDIT_K_COUNT] = {
    [AUDIT_K_V] = {"v", AUDIT_T_NUMBER, true},
    [AUDIT_K_SEQ] = {"seq", AUDIT_T_NUMBER, true},
    [AUDIT_K_TIME] = {"time", AUDIT_T_TIME, true},
    [AUDIT_K_HOST] = {"host", AUDIT_T_STRING, false},
    [AUDIT_K_USER] = {"user", AUDIT_T_STRING, false},
    [AUDIT_K_SESSION] = {"session", AUDIT_T_HEX32, true},
    [AUDIT_K_TTY] = {"tty", AUDIT_T_STRING, false},
    [AUDIT_K_REMOTE] = {"remote", AUDIT_T_STRING, false},
    [AUDIT_K_MODE] = {"mode", AUDIT_T_STRING, false},
    [AUDIT_K_EVENT] = {"event", AUDIT_T_STRING, true},
    [AUDIT_K_LINE] = {"line", AUDIT_T_STRING, false},
    [AUDIT_K_LINE_SHA256] = {"line_sha256", AUDIT_T_HEX64, false},
    [AUDIT_K_TOKENS] = {"tokens", AUDIT_T_STRINGS, false},
    [AUDIT_K_METACHARS] = {"metachars", AUDIT_T_STRINGS, false},
    [AUDIT_K_DECISION] = {"decision", AUDIT_T_STRING, false},
    [AUDIT_K_REASONS] = {"reasons", AUDIT_T_REASONS, false},
    [AUDIT_K_REFUSAL] = {"refusal", AUDIT_T_STRING, false},
    [AUDIT_K_ERROR] = {"error", AUDIT_T_STRING, false},
    [AUDIT_K_LOG_REASON] = {"log_reason", AUDIT_T_STRING, false},
    [AUDIT_K_CONFIRM_PROMPT] = {"confirm_prompt", AUDIT_T_STRING, false},
    [AUDIT_K_NOTE] = {"note", AUDIT_T_STRING, false},
    [AUDIT_K_POLICY_SHA256] = {"policy_sha256", AUDIT_T_HEX64, false},
    [AUDIT_K_PREV] = {"prev", AUDIT_T_HEX64, true},
    [AUDIT_K_MAC] = {"mac", AUDIT_T_HEX64, true},
};

struct audit_reader {
	const unsigned char *s;
	size_t len, pos;
	char *why; /* the first complaint */
	size_t whylen;
};

/* What a parsed record tells the verifier and the writer. */
struct audit_record {
	uint64_t v, seq;
	size_t prev;    /* offset of prev's 64 hex digits */
	size_t mac_key; /* offset of "mac": the mac covers [0, mac_key) */
	size_t mac;     /* offset of mac's 64 hex digits */
};

static int
audit_bad(struct audit_reader *r, const char *what)
{
	audit_err(r->why, r->whylen, "does not parse: %s at byte %zu", what,
		  r->pos + 1);
	return -1;
}

static int
audit_expect(struct audit_reader *r, unsigned char c)
{
	char what[32];

	if (r->pos < r->len && r->s[r->pos] == c) {
		r->pos++;
		return 0;
	}
	(void)snprintf(what, sizeof what, "expected '%c'", c);
	return audit_bad(r, what);
}

static int
audit_hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Whether \u00XX is how the writer writes code point v: the control
 * characters without a short escape. */
static bool
audit_u_escaped(unsigned v)
{
	if (v == '\b' || v == '\f' || v == '\n' || v == '\r' || v == '\t')
		return false;
	return v < 0x20 || (v >= 0x7f && v <= 0x9f);
}

/* A string; [*start, *end) are its raw bytes between the quotes. */
static int
audit_read_string(struct audit_reader *r, size_t *start, size_t *end)
{
	if (audit_expect(r, '"') != 0)
		return -1;
	*start = r->pos;
	for (;;) {
		unsigned char c;

		if (r->pos >= r->len)
			return audit_bad(r, "unterminated string");
		c = r->s[r->pos];
		if (c == '"') {
			*end = r->pos++;
			return 0;
		}
		if (c == '\\') {
			int h, l;

			if (r->pos + 1 >= r->len)
				return audit_bad(r, "unterminated escape");
			c = r->s[r->pos + 1];
			if (c != 'u') {
				if (strchr("\"\\bfnrt", c) == NULL || c == 0)
					return audit_bad(r, "unknown escape");
				r->pos += 2;
				continue;
			}
			if (r->len - r->pos < 6 || r->s[r->pos + 2] != '0' ||
			    r->s[r->pos + 3] != '0' ||
			    (h = audit_hexval(r->s[r->pos + 4])) < 0 ||
			    (l = audit_hexval(r->s[r->pos + 5])) < 0 ||
			    !audit_u_escaped((unsigned)(h * 16 + l)))
				return audit_bad(r, "\\u escape the writer "
						    "does not produce");
			r->pos += 6;
		} else if (c < 0x20 || c == 0x7f) {
			return audit_bad(r, "raw control byte in a string");
		} else if (c >= 0x80) {
			uint32_t cp = 0;
			size_t n = scan_utf8_decode(r->s + r->pos,
						    r->len - r->pos, &cp);

			if (n == 0)
				return audit_bad(r, "not UTF-8");
			if (cp <= 0x9f)
				return audit_bad(r, "raw C1 control");
			r->pos += n;
		} else {
			r->pos++;
		}
	}
}

/* A string of exactly n lower-case hex digits; *at is where they start. */
static int
audit_read_hex(struct audit_reader *r, size_t n, size_t *at)
{
	size_t start, end;

	if (audit_read_string(r, &start, &end) != 0)
		return -1;
	if (end - start != n || !audit_is_hex((const char *)r->s + start, n)) {
		r->pos = start;
		return audit_bad(r, n == 32 ? "expected 32 hex digits"
					    : "expected 64 hex digits");
	}
	*at = start;
	return 0;
}

/* "YYYY-MM-DDTHH:MM:SS.mmmZ", as the writer writes it. */
static int
audit_read_time(struct audit_reader *r)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd.dddZ";
	size_t start, end, i;
	const unsigned char *t;
	unsigned mon, day, hour, min, sec;

	if (audit_read_string(r, &start, &end) != 0)
		return -1;
	t = r->s + start;
	r->pos = start;
	if (end - start != sizeof shape - 1)
		return audit_bad(r, "time is not YYYY-MM-DDTHH:MM:SS.mmmZ");
	for (i = 0; i < sizeof shape - 1; i++) {
		bool ok = shape[i] == 'd' ? (t[i] >= '0' && t[i] <= '9')
					  : t[i] == (unsigned char)shape[i];

		if (!ok)
			return audit_bad(r, "time is not "
					    "YYYY-MM-DDTHH:MM:SS.mmmZ");
	}
	mon = (unsigned)(t[5] - '0') * 10 + (unsigned)(t[6] - '0');
	day = (unsigned)(t[8] - '0') * 10 + (unsigned)(t[9] - '0');
	hour = (unsigned)(t[11] - '0') * 10 + (unsigned)(t[12] - '0');
	min = (unsigned)(t[14] - '0') * 10 + (unsigned)(t[15] - '0');
	sec = (unsigned)(t[17] - '0') * 10 + (unsigned)(t[18] - '0');
	if (mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 ||
	    min > 59 || sec > 60)
		return audit_bad(r, "time out of range");
	r->pos = end + 1;
	return 0;
}

static int
audit_read_number(struct audit_reader *r, uint64_t *v)
{
	size_t start = r->pos;

	*v = 0;
	while (r->pos < r->len && r->s[r->pos] >= '0' && r->s[r->pos] <= '9') {
		unsigned d = (unsigned)(r->s[r->pos] - '0');

		if (*v > (AUDIT_SEQ_MAX - d) / 10)
			return audit_bad(r, "number too large");
		*v = *v * 10 + d;
		r->pos++;
	}
	if (r->pos == start)
		return audit_bad(r, "expected a number");
	if (r->pos - start > 1 && r->s[start] == '0') {
		r->pos = start;
		return audit_bad(r, "number with a leading zero");
	}
	return 0;
}

/* A key that must be `name`. */
static int
audit_read_key(struct audit_reader *r, const char *name)
{
	size_t at = r->pos, start, end, n = strlen(name);

	if (audit_read_string(r, &start, &end) != 0)
		return -1;
	if (end - start != n || memcmp(r->s + start, name, n) != 0) {
		r->pos = at;
		return audit_bad(r, name[0] == 'o' ? "expected \"op\""
						   : "expected \"reason\"");
	}
	return audit_expect(r, ':');
}

/* [] or [item,item,...]; item is a string, or a reason when `reasons`. */
static int
audit_read_array(struct audit_reader *r, bool reasons)
{
	size_t start, end;

	if (audit_expect(r, '[') != 0)
		return -1;
	if (r->pos < r->len && r->s[r->pos] == ']') {
		r->pos++;
		return 0;
	}
	for (;;) {
		if (!reasons) {
			if (audit_read_string(r, &start, &end) != 0)
				return -1;
		} else if (audit_expect(r, '{') != 0 ||
			   audit_read_key(r, "op") != 0 ||
			   audit_read_string(r, &start, &end) != 0 ||
			   audit_expect(r, ',') != 0 ||
			   audit_read_key(r, "reason") != 0 ||
			   audit_read_string(r, &start, &end) != 0 ||
			   audit_expect(r, '}') != 0) {
			return -1;
		}
		if (r->pos < r->len && r->s[r->pos] == ',') {
			r->pos++;
			continue;
		}
		return audit_expect(r, ']');
	}
}

static int
audit_read_value(struct audit_reader *r, enum audit_key k,
		 struct audit_record *rec)
{
	size_t start, end, at;

	switch (audit_keys[k].type) {
	case AUDIT_T_NUMBER:
		return audit_read_number(r,
					 k == AUDIT_K_V ? &rec->v : &rec->seq);
	case AUDIT_T_STRING:
		return audit_read_string(r, &start, &end);
	case AUDIT_T_HEX32:
		return audit_read_hex(r, 32, &at);
	case AUDIT_T_HEX64:
		if (audit_read_hex(r, 64, &at) != 0)
			return -1;
		if (k == AUDIT_K_PREV)
			rec->prev = at;
		else if (k == AUDIT_K_MAC)
			rec->mac = at;
		return 0;
	case AUDIT_T_TIME:
		return audit_read_time(r);
	case AUDIT_T_STRINGS:
		return audit_read_array(r, false);
	case AUDIT_T_REASONS:
		return audit_read_array(r, true);
	}
	return audit_bad(r, "unknown value type");
}

/* Parses one line (without its newline).  Returns 0, or -1 with `why`. */
static int
audit_parse(const char *line, size_t len, struct audit_record *rec, char *why,
	    size_t whylen)
{
	struct audit_reader r = {(const unsigned char *)line, len, 0, why,
				 whylen};
	bool seen[AUDIT_K_COUNT] = {false};
	int last = -1;
	unsigned k;

	memset(rec, 0, sizeof *rec);
	if (audit_expect(&r, '{') != 0)
		return -1;
	for (;;) {
		size_t key_at = r.pos, start, end;

		if (audit_read_string(&r, &start, &end) != 0)
			return -1;
		for (k = 0; k < AUDIT_K_COUNT; k++)
			if (strlen(audit_keys[k].name) == end - start &&
			    memcmp(line + start, audit_keys[k].name,
				   end - start) == 0)
				break;
		r.pos = key_at;
		if (k == AUDIT_K_COUNT)
			return audit_bad(&r, "unknown field");
		if ((int)k <= last)
			return audit_bad(&r, "field repeated or out of order");
		last = (int)k;
		seen[k] = true;
		if (k == AUDIT_K_MAC)
			rec->mac_key = key_at;
		r.pos = end + 1;
		if (audit_expect(&r, ':') != 0 ||
		    audit_read_value(&r, (enum audit_key)k, rec) != 0)
			return -1;
		if (r.pos < r.len && r.s[r.pos] == ',') {
			r.pos++;
			continue;
		}
		if (audit_expect(&r, '}') != 0)
			return -1;
		break;
	}
	if (r.pos != r.len)
		return audit_bad(&r, "bytes after the record");
	for (k = 0; k < AUDIT_K_COUNT; k++) {
		if (audit_keys[k].required && !seen[k]) {
			audit_err(why, whylen, "field \"%s\" is missing",
				  audit_keys[k].name);
			return -1;
		}
	}
	if (seen[AUDIT_K_LINE] && seen[AUDIT_K_LINE_SHA256]) {
		audit_err(why, whylen, "both line and line_sha256");
		return -1;
	}
	if (rec->v != 1) {
		audit_err(why, whylen, "version %" PRIu64 " is not 1", rec->v);
		return -1;
	}
	if (rec->seq == 0) {
		audit_err(why, whylen, "seq 0 (it counts from 1)");
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* The writer.                                                         */

/* A bounded output buffer: once something does not fit, `full` stays set
 * and nothing more is added, so the caller checks once at the end. */
struct audit_buf {
	char *p;
	size_t len, cap;
	bool full;
};

static void
audit_put(struct audit_buf *b, const void *s, size_t n)
{
	if (b->full || n > b->cap - b->len) {
		b->full = true;
		return;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void
audit_puts(struct audit_buf *b, const char *s)
{
	audit_put(b, s, strlen(s));
}

/* A JSON string, escaped as pty_audit.h says. */
static void
audit_put_string(struct audit_buf *b, const char *s, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	audit_put(b, "\"", 1);
	while (i < n && !b->full) {
		unsigned char c = u[i];
		const char *esc = NULL;
		uint32_t cp = c;
		size_t len = 1;

		switch (c) {
		case '"':
			esc = "\\\"";
			break;
		case '\\':
			esc = "\\\\";
			break;
		case '\b':
			esc = "\\b";
			break;
		case '\f':
			esc = "\\f";
			break;
		case '\n':
			esc = "\\n";
			break;
		case '\r':
			esc = "\\r";
			break;
		case '\t':
			esc = "\\t";
			break;
		default:
			break;
		}
		if (esc != NULL) {
			audit_puts(b, esc);
			i++;
			continue;
		}
		if (c >= 0x80) {
			len = scan_utf8_decode(u + i, n - i, &cp);
			if (len == 0) {
				/* not UTF-8: U+FFFD for this byte */
				audit_put(b, "\xef\xbf\xbd", 3);
				i++;
				continue;
			}
		}
		if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
			char u4[6] = "\\u00";

			u4[4] = digits[cp >> 4];
			u4[5] = digits[cp & 0x0f];

			audit_put(b, u4, sizeof u4);
		} else {
			audit_put(b, u + i, len);
		}
		i += len;
	}
	audit_put(b, "\"", 1);
}

/* ,"name":"value" */
static void
audit_put_field(struct audit_buf *b, const char *name, const char *s, size_t n)
{
	audit_puts(b, ",\"");
	audit_puts(b, name);
	audit_puts(b, "\":");
	audit_put_string(b, s, n);
}

static void
audit_put_cstr(struct audit_buf *b, const char *name, const char *s)
{
	if (s != NULL)
		audit_put_field(b, name, s, strlen(s));
}

/* A NUL-terminated field of a fixed-size array, read within its size. */
static void
audit_put_text(struct audit_buf *b, const char *name, const char *s, size_t cap)
{
	audit_put_field(b, name, s, strnlen(s, cap));
}

static bool
audit_utf8_ok(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	uint32_t cp;

	while (i < n) {
		size_t len = 1;

		if (u[i] >= 0x80 &&
		    (len = scan_utf8_decode(u + i, n - i, &cp)) == 0)
			return false;
		i += len;
	}
	return true;
}

/* Whether the record gives the line by its SHA-256 (pty_audit.h). */
static bool
audit_hash_line(const struct pty_audit_event *e, bool compact)
{
	const struct pty_decision *d = e->decision;

	if (compact || e->line_len >= SCAN_LINE_MAX)
		return true;
	if (d != NULL && (d->scan.refusal == SCAN_REFUSE_TOO_LONG ||
			  d->scan.refusal == SCAN_REFUSE_ENCODING))
		return true;
	return !audit_utf8_ok(e->line, e->line_len);
}

/* What a decision adds: tokens, metachars, reasons, refusal, error,
 * log_reason, confirm_prompt. */
static void
audit_put_decision(struct audit_buf *b, const struct pty_decision *d,
		   bool tokens, const char *outcome)
{
	size_t i, n;
	const char *sep = "";

	if (tokens) {
		n = d->scan.ntokens < SCAN_TOKENS_MAX ? d->scan.ntokens
						      : SCAN_TOKENS_MAX;
		audit_puts(b, ",\"tokens\":[");
		for (i = 0; i < n; i++) {
			audit_puts(b, i > 0 ? "," : "");
			audit_put_string(b, d->scan.tokens[i].text,
					 d->scan.tokens[i].text != NULL
					     ? d->scan.tokens[i].len
					     : 0);
		}
		audit_puts(b, "]");
	}
	audit_puts(b, ",\"metachars\":[");
	for (i = 0; i < SCAN_META_COUNT; i++) {
		const char *name = scan_metachar_name((unsigned)i);

		if ((d->scan.metachars & (1u << i)) == 0 || name == NULL)
			continue;
		audit_puts(b, sep);
		audit_put_string(b, name, strlen(name));
		sep = ",";
	}
	audit_puts(b, "]");
	audit_put_cstr(b, "decision", outcome);
	audit_puts(b, ",\"reasons\":[");
	n = d->nreasons < PTY_REASONS_MAX ? d->nreasons : PTY_REASONS_MAX;
	for (i = 0; i < n; i++) {
		audit_puts(b, i > 0 ? ",{\"op\":" : "{\"op\":");
		audit_put_string(b, d->reasons[i].op,
				 strnlen(d->reasons[i].op, PTY_TEXT_MAX));
		audit_puts(b, ",\"reason\":");
		audit_put_string(b, d->reasons[i].reason,
				 strnlen(d->reasons[i].reason, PTY_TEXT_MAX));
		audit_puts(b, "}");
	}
	audit_puts(b, "]");
	if (d->scan.refusal != SCAN_ACCEPT)
		audit_put_cstr(b, "refusal",
			       scan_refusal_reason(d->scan.refusal));
	if (d->verdict == PTY_VERDICT_ERROR)
		audit_put_text(b, "error", d->error, sizeof d->error);
	if (d->log_reason[0] != '\0')
		audit_put_text(b, "log_reason", d->log_reason,
			       sizeof d->log_reason);
	if (d->confirm_prompt[0] != '\0')
		audit_put_text(b, "confirm_prompt", d->confirm_prompt,
			       sizeof d->confirm_prompt);
}

/* Builds the record into a->rec.  Returns 0 (*len set), 1 when it does
 * not fit in PTY_AUDIT_LINE_MAX, -1 when the HMAC fails. */
static int
audit_build(struct pty_audit *a, const struct pty_audit_session *s,
	    const struct pty_audit_event *e, uint64_t seq,
	    const unsigned char prev[AUDIT_MAC_LEN], const char *when,
	    bool compact, size_t *len)
{
	/* room is kept for the mac and the newline */
	struct audit_buf b = {a->rec, 0,
			      PTY_AUDIT_LINE_MAX - AUDIT_MAC_TAIL - 1, false};
	unsigned char mac[AUDIT_MAC_LEN];
	char num[32], hex[2 * AUDIT_MAC_LEN + 1];
	bool hashed = false;

	(void)snprintf(num, sizeof num, "%" PRIu64, seq);
	audit_puts(&b, "{\"v\":1,\"seq\":");
	audit_puts(&b, num);
	audit_put_cstr(&b, "time", when);
	audit_put_cstr(&b, "host", s->host);
	audit_put_cstr(&b, "user", s->user);
	audit_put_text(&b, "session", s->id, sizeof s->id);
	audit_put_cstr(&b, "tty", s->tty);
	audit_put_cstr(&b, "remote", s->remote);
	audit_put_cstr(&b, "mode", s->mode);
	audit_put_cstr(&b, "event", e->event);
	if (e->line != NULL) {
		hashed = audit_hash_line(e, compact);
		if (hashed) {
			pty_sha256_hex(e->line, e->line_len, hex);
			if (hex[0] == '\0')
				return -1;
			audit_put_cstr(&b, "line_sha256", hex);
		} else {
			audit_put_field(&b, "line", e->line, e->line_len);
		}
	}
	if (e->decision != NULL)
		audit_put_decision(&b, e->decision, !hashed && !compact,
				   e->outcome);
	else
		audit_put_cstr(&b, "decision", e->outcome);
	audit_put_cstr(&b, "note", e->note);
	if (s->policy_sha256[0] != '\0')
		audit_put_text(&b, "policy_sha256", s->policy_sha256,
			       sizeof s->policy_sha256);
	audit_hex(prev, AUDIT_MAC_LEN, hex);
	audit_put_cstr(&b, "prev", hex);
	audit_puts(&b, ",");
	if (b.full)
		return 1;
	/* the mac covers every byte so far: "{" to the "," after prev */
	if (audit_hmac(a->mac, b.p, b.len, mac) != 0)
		return -1;
	audit_hex(mac, AUDIT_MAC_LEN, hex);
	b.cap = PTY_AUDIT_LINE_MAX;
	audit_puts(&b, "\"mac\":\"");
	audit_puts(&b, hex);
	audit_puts(&b, "\"}\n");
	if (b.full)
		return 1; /* cannot happen: room was kept */
	*len = b.len;
	return 0;
}

/* The last line of the log (without its newline), read under the lock.
 * Bounded: one pread of at most PTY_AUDIT_LINE_MAX + 1 bytes. */
static int
audit_last_line(struct pty_audit *a, off_t size, const char **line, size_t *len,
		char *err, size_t errlen)
{
	size_t want = (uintmax_t)size > PTY_AUDIT_LINE_MAX
			  ? PTY_AUDIT_LINE_MAX + 1
			  : (size_t)size;
	off_t off = size - (off_t)want;
	size_t got = 0;
	const char *nl;

	while (got < want) {
		ssize_t n =
		    pread(a->fd, a->tail + got, want - got, off + (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int saved = errno;

			audit_err(err, errlen, "audit log: reading its end: %s",
				  strerror(saved));
			return -1;
		}
		if (n == 0) {
			audit_err(err, errlen, "audit log: shrank");
			return -1;
		}
		got += (size_t)n;
	}
	if (a->tail[want - 1] != '\n') {
		audit_err(err, errlen,
			  "audit log: its last record is torn (no newline "
			  "at the end); check it with --verify-log");
		return -1;
	}
	nl = memrchr(a->tail, '\n', want - 1);
	if (nl != NULL) {
		*line = nl + 1;
	} else if (off == 0) {
		*line = a->tail;
	} else {
		audit_err(err, errlen,
			  "audit log: its last record is longer than %zu "
			  "bytes",
			  PTY_AUDIT_LINE_MAX);
		return -1;
	}
	*len = (size_t)(a->tail + want - 1 - *line);
	return 0;
}

/* "2026-12-02T15:04:05.123Z" (the size only quiets -Wformat-truncation:
 * every field is in range) */
#define AUDIT_TIME_SIZE 80

static int
audit_now(char out[AUDIT_TIME_SIZE])
{
	struct timespec ts;
	struct tm tm;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0 ||
	    gmtime_r(&ts.tv_sec, &tm) == NULL || tm.tm_year < -1900 ||
	    tm.tm_year > 9999 - 1900)
		return -1;
	(void)snprintf(out, AUDIT_TIME_SIZE,
		       "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
		       tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
		       tm.tm_sec, (int)(ts.tv_nsec / 1000000));
	return 0;
}

/* Everything pty_audit_write does while it holds the lock. */
static int
audit_append(struct pty_audit *a, const struct pty_audit_session *s,
	     const struct pty_audit_event *e, char *err, size_t errlen)
{
	unsigned char prev[AUDIT_MAC_LEN];
	struct audit_record last;
	char when[AUDIT_TIME_SIZE], why[160];
	const char *line = "", *left = "";
	size_t len = 0, rlen = 0;
	uint64_t seq = 1;
	struct stat st;
	off_t size = 0;
	ssize_t w;
	int rc, saved;

	if (fstat(a->fd, &st) != 0) {
		saved = errno;
		audit_err(err, errlen, "audit log: %s", strerror(saved));
		return -1;
	}
	/* a character device (/dev/full, /dev/null) has no records to read */
	if (S_ISREG(st.st_mode))
		size = st.st_size;
	if (size > 0) {
		if (audit_last_line(a, size, &line, &len, err, errlen) != 0)
			return -1;
		if (audit_parse(line, len, &last, why, sizeof why) != 0) {
			audit_err(err, errlen,
				  "audit log: its last record %s; check it "
				  "with --verify-log",
				  why);
			return -1;
		}
		if (last.seq >= AUDIT_SEQ_MAX) {
			audit_err(err, errlen, "audit log: seq is exhausted");
			return -1;
		}
		seq = last.seq + 1;
	}
	if (audit_hmac(a->mac, line, len, prev) != 0 || audit_now(when) != 0) {
		audit_err(err, errlen, "audit log: no HMAC or no clock");
		return -1;
	}
	rc = audit_build(a, s, e, seq, prev, when, false, &rlen);
	if (rc == 1)
		rc = audit_build(a, s, e, seq, prev, when, true, &rlen);
	if (rc == 1) {
		audit_err(err, errlen,
			  "audit log: the record would be longer than %zu "
			  "bytes",
			  PTY_AUDIT_LINE_MAX);
		return -1;
	}
	if (rc != 0) {
		audit_err(err, errlen, "audit log: HMAC failed");
		return -1;
	}
	do
		w = write(a->fd, a->rec, rlen);
	while (w < 0 && errno == EINTR);
	saved = errno;
	if (w == (ssize_t)rlen && S_ISREG(st.st_mode) &&
	    fdatasync(a->fd) != 0) {
		saved = errno;
		w = -2; /* written, but not known to be on disk */
	}
	if (w == (ssize_t)rlen)
		return 0;
	/* take back what is there of the record: we hold the lock, so the
	 * file's end is still ours (best effort: the verifier reports a torn
	 * line if this fails too) */
	if (S_ISREG(st.st_mode) && w != -1 && ftruncate(a->fd, size) != 0)
		left = " (and the partial record stays)";
	if (w >= 0)
		audit_err(err, errlen,
			  "audit log: short write (%zd of %zu bytes)%s", w,
			  rlen, left);
	else
		audit_err(err, errlen, "audit log: %s: %s%s",
			  w == -2 ? "fdatasync" : "write", strerror(saved),
			  left);
	return -1;
}

int
pty_audit_write(struct pty_audit *a, const struct pty_audit_session *s,
		const struct pty_audit_event *e, char *err, size_t errlen)
{
	int rc, saved;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (a == NULL || s == NULL || e == NULL || e->event == NULL ||
	    (e->line == NULL && e->line_len != 0)) {
		audit_err(err, errlen, "audit log: invalid argument");
		return -1;
	}
	if (memchr(s->id, '\0', sizeof s->id) != s->id + 32 ||
	    !audit_is_hex(s->id, 32) ||
	    (s->policy_sha256[0] != '\0' &&
	     (memchr(s->policy_sha256, '\0', sizeof s->policy_sha256) !=
		  s->policy_sha256 + 64 ||
	      !audit_is_hex(s->policy_sha256, 64)))) {
		audit_err(err, errlen, "audit log: bad session id or digest");
		return -1;
	}
	if (getpid() != a->pid) {
		audit_err(err, errlen,
			  "audit log: the handle belongs to process %ld; "
			  "this process must open its own",
			  (long)a->pid);
		return -1;
	}
	while (flock(a->fd, LOCK_EX) != 0) {
		if (errno != EINTR) {
			saved = errno;
			audit_err(err, errlen, "audit log: flock: %s",
				  strerror(saved));
			return -1;
		}
	}
	rc = audit_append(a, s, e, err, errlen);
	(void)flock(a->fd, LOCK_UN);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The verifier.                                                       */

/* Checks line number n (1-based) given the HMAC of the line before it.
 * Returns 0, or -1 with why. */
static int
audit_check_line(EVP_MAC_CTX *keyed, const char *line, size_t len, uint64_t n,
		 const unsigned char prev[AUDIT_MAC_LEN], char *why,
		 size_t whylen)
{
	unsigned char mac[AUDIT_MAC_LEN];
	char hex[2 * AUDIT_MAC_LEN + 1];
	struct audit_record rec;

	if (audit_parse(line, len, &rec, why, whylen) != 0)
		return -1;
	if (rec.seq != n) {
		audit_err(why, whylen,
			  "seq is %" PRIu64 ", expected %" PRIu64
			  " (a record was deleted, inserted or moved)",
			  rec.seq, n);
		return -1;
	}
	audit_hex(prev, AUDIT_MAC_LEN, hex);
	if (CRYPTO_memcmp(line + rec.prev, hex, 2 * AUDIT_MAC_LEN) != 0) {
		audit_err(why, whylen,
			  "prev is not the HMAC of the line before (the "
			  "record before was changed or removed, or this one "
			  "was written with another key)");
		return -1;
	}
	if (audit_hmac(keyed, line, rec.mac_key, mac) != 0) {
		audit_err(why, whylen, "HMAC failed");
		return -1;
	}
	audit_hex(mac, AUDIT_MAC_LEN, hex);
	if (CRYPTO_memcmp(line + rec.mac, hex, 2 * AUDIT_MAC_LEN) != 0) {
		audit_err(why, whylen,
			  "mac does not match (the record was changed, or "
			  "written with another key)");
		return -1;
	}
	return 0;
}

/* The loop of pty_audit_verify over an open log.  `buf` has 2 *
 * PTY_AUDIT_LINE_MAX bytes: a line that fits in the limit is always whole
 * in it once the unread rest has been moved to the front. */
static int
audit_verify_fd(int fd, EVP_MAC_CTX *keyed, char *buf, const char *name,
		FILE *report)
{
	const size_t cap = 2 * PTY_AUDIT_LINE_MAX;
	unsigned char prev[AUDIT_MAC_LEN];
	size_t start = 0, end = 0;
	uint64_t n = 0;
	bool eof = false;
	char why[256];

	if (audit_hmac(keyed, "", 0, prev) != 0) {
		if (report != NULL)
			fprintf(report, "%s: cannot check: HMAC failed\n",
				name);
		return 2;
	}
	for (;;) {
		char *nl = memchr(buf + start, '\n', end - start);
		size_t len;

		if (nl == NULL ||
		    (size_t)(nl - (buf + start)) >= PTY_AUDIT_LINE_MAX) {
			if (end - start >= PTY_AUDIT_LINE_MAX) {
				audit_err(why, sizeof why,
					  "longer than %zu bytes",
					  PTY_AUDIT_LINE_MAX);
				goto bad;
			}
			if (eof && end == start)
				break;
			if (eof) {
				audit_err(why, sizeof why,
					  "torn: the file does not end in a "
					  "newline (a write was cut short, or "
					  "the log was truncated)");
				goto bad;
			}
			memmove(buf, buf + start, end - start);
			end -= start;
			start = 0;
			for (;;) {
				ssize_t r = read(fd, buf + end, cap - end);

				if (r < 0 && errno == EINTR)
					continue;
				if (r < 0) {
					int saved = errno;

					if (report != NULL)
						fprintf(report,
							"%s: cannot check: "
							"%s\n",
							name, strerror(saved));
					return 2;
				}
				if (r == 0)
					eof = true;
				end += (size_t)r;
				break;
			}
			continue;
		}
		len = (size_t)(nl - (buf + start));
		if (audit_check_line(keyed, buf + start, len, n + 1, prev, why,
				     sizeof why) != 0)
			goto bad;
		if (audit_hmac(keyed, buf + start, len, prev) != 0) {
			if (report != NULL)
				fprintf(report,
					"%s: cannot check: HMAC failed\n",
					name);
			return 2;
		}
		n++;
		start += len + 1;
	}
	if (report != NULL)
		fprintf(report, "%s: %" PRIu64 " records, chain intact\n", name,
			n);
	return 0;
bad:
	if (report != NULL)
		fprintf(report,
			"%s: record %" PRIu64 " (line %" PRIu64 "): %s\n", name,
			n + 1, n + 1, why);
	return 1;
}

int
pty_audit_verify(const char *log_path, const char *key_path, FILE *report)
{
	EVP_MAC_CTX *keyed = NULL;
	const char *name = log_path != NULL ? log_path : "(null)";
	char err[512] = "", *buf = NULL;
	struct stat st;
	int fd = -1, rc = 2, saved;

	if (log_path == NULL || key_path == NULL) {
		audit_err(err, sizeof err, "no log or no key named");
		goto out;
	}
	if (audit_key_load(key_path, &keyed, err, sizeof err) != 0)
		goto out;
	fd = open(log_path,
		  O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		saved = errno;
		audit_err(err, sizeof err, "%s",
			  saved == ELOOP ? "is a symbolic link"
					 : strerror(saved));
		goto out;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		audit_err(err, sizeof err, "not a regular file");
		goto out;
	}
	if ((buf = malloc(2 * PTY_AUDIT_LINE_MAX)) == NULL) {
		audit_err(err, sizeof err, "out of memory");
		goto out;
	}
	rc = audit_verify_fd(fd, keyed, buf, name, report);
	err[0] = '\0';
out:
	if (rc == 2 && err[0] != '\0' && report != NULL)
		fprintf(report, "%s: cannot check: %s\n", name, err);
	free(buf);
	if (fd >= 0)
		(void)close(fd);
	EVP_MAC_CTX_free(keyed);
	return rc;
}
