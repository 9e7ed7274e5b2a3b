/* SPDX-License-Identifier: MIT */
/*
 * The audit record's reader.  Ours and small on purpose: it accepts exactly
 * what the writer produces - one object without white space, its keys
 * known, in the documented order and each at most once, values of the type
 * each key has (strings with the writer's escapes, unsigned integers,
 * arrays of strings, the {"op","reason"} objects of "reasons", the
 * [predicate, column...] arrays of "facts") - and
 * refuses anything else, so that a record means one thing only.  It never
 * recurses (the shape is fixed) and never reads past the line it is given.
 */
#define _GNU_SOURCE

#include "audit_internal.h"

#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "scan_utf8.h"

enum audit_type {
	AUDIT_T_NUMBER,
	AUDIT_T_STRING,
	AUDIT_T_HEX32,
	AUDIT_T_HEX64,
	AUDIT_T_HEX128,
	AUDIT_T_TIME,
	AUDIT_T_STRINGS, /* array of strings */
	AUDIT_T_REASONS, /* array of {"op":string,"reason":string} */
	AUDIT_T_FACTS,   /* array of [string, string or integer ...] */
	AUDIT_T_BOOL,    /* true or false */
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
	AUDIT_K_EXEC_PATH,
	AUDIT_K_EXEC_REQUEST,
	AUDIT_K_EXEC_ARGV,
	AUDIT_K_EXEC_ARGV_SHA256,
	AUDIT_K_EXEC_ARGC,
	AUDIT_K_EXEC_CWD,
	AUDIT_K_EXEC_PARENT,
	AUDIT_K_EXEC_VIA,
	AUDIT_K_EXEC_THROUGH,
	AUDIT_K_EXEC_RAN,
	AUDIT_K_EXEC_RAN_DEV,
	AUDIT_K_EXEC_RAN_INO,
	AUDIT_K_PID,
	AUDIT_K_TOKENS,
	AUDIT_K_METACHARS,
	AUDIT_K_DECISION,
	AUDIT_K_REASONS,
	AUDIT_K_REFUSAL,
	AUDIT_K_ERROR,
	AUDIT_K_LOG_REASON,
	AUDIT_K_CONFIRM_PROMPT,
	AUDIT_K_FACTS,
	AUDIT_K_FACTS_SHA256,
	AUDIT_K_EXIT_STATUS,
	AUDIT_K_SIGNAL,
	AUDIT_K_DECISIONS,
	AUDIT_K_REFUSALS,
	AUDIT_K_EXECS,
	AUDIT_K_NOTE,
	AUDIT_K_POLICY_SHA256,
	AUDIT_K_RECORDING,
	AUDIT_K_RECORDING_BYTES,
	AUDIT_K_RECORDING_SHA256,
	AUDIT_K_RECORDING_COMPLETE,
	AUDIT_K_PREV_FILE,
	AUDIT_K_PREV,
	AUDIT_K_KEY,
	AUDIT_K_SIG,
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
    [AUDIT_K_EXEC_PATH] = {"exec_path", AUDIT_T_STRING, false},
    [AUDIT_K_EXEC_REQUEST] = {"exec_request", AUDIT_T_STRING, false},
    [AUDIT_K_EXEC_ARGV] = {"exec_argv", AUDIT_T_STRINGS, false},
    [AUDIT_K_EXEC_ARGV_SHA256] = {"exec_argv_sha256", AUDIT_T_HEX64, false},
    [AUDIT_K_EXEC_ARGC] = {"exec_argc", AUDIT_T_NUMBER, false},
    [AUDIT_K_EXEC_CWD] = {"exec_cwd", AUDIT_T_STRING, false},
    [AUDIT_K_EXEC_PARENT] = {"exec_parent", AUDIT_T_STRING, false},
    [AUDIT_K_EXEC_VIA] = {"exec_via", AUDIT_T_STRING, false},
    [AUDIT_K_EXEC_THROUGH] = {"exec_through", AUDIT_T_STRING, false},
    [AUDIT_K_EXEC_RAN] = {"exec_ran", AUDIT_T_STRING, false},
    [AUDIT_K_EXEC_RAN_DEV] = {"exec_ran_dev", AUDIT_T_STRING, false},
    [AUDIT_K_EXEC_RAN_INO] = {"exec_ran_ino", AUDIT_T_NUMBER, false},
    [AUDIT_K_PID] = {"pid", AUDIT_T_NUMBER, false},
    [AUDIT_K_TOKENS] = {"tokens", AUDIT_T_STRINGS, false},
    [AUDIT_K_METACHARS] = {"metachars", AUDIT_T_STRINGS, false},
    [AUDIT_K_DECISION] = {"decision", AUDIT_T_STRING, false},
    [AUDIT_K_REASONS] = {"reasons", AUDIT_T_REASONS, false},
    [AUDIT_K_REFUSAL] = {"refusal", AUDIT_T_STRING, false},
    [AUDIT_K_ERROR] = {"error", AUDIT_T_STRING, false},
    [AUDIT_K_LOG_REASON] = {"log_reason", AUDIT_T_STRING, false},
    [AUDIT_K_CONFIRM_PROMPT] = {"confirm_prompt", AUDIT_T_STRING, false},
    [AUDIT_K_FACTS] = {"facts", AUDIT_T_FACTS, false},
    [AUDIT_K_FACTS_SHA256] = {"facts_sha256", AUDIT_T_HEX64, false},
    [AUDIT_K_EXIT_STATUS] = {"exit_status", AUDIT_T_NUMBER, false},
    [AUDIT_K_SIGNAL] = {"signal", AUDIT_T_STRING, false},
    [AUDIT_K_DECISIONS] = {"decisions", AUDIT_T_NUMBER, false},
    [AUDIT_K_REFUSALS] = {"refusals", AUDIT_T_NUMBER, false},
    [AUDIT_K_EXECS] = {"execs", AUDIT_T_NUMBER, false},
    [AUDIT_K_NOTE] = {"note", AUDIT_T_STRING, false},
    [AUDIT_K_POLICY_SHA256] = {"policy_sha256", AUDIT_T_HEX64, false},
    /* session_end's, appended by the writer (audit_rec.c) */
    [AUDIT_K_RECORDING] = {"recording", AUDIT_T_STRING, false},
    [AUDIT_K_RECORDING_BYTES] = {"recording_bytes", AUDIT_T_NUMBER, false},
    [AUDIT_K_RECORDING_SHA256] = {"recording_sha256", AUDIT_T_HEX64, false},
    [AUDIT_K_RECORDING_COMPLETE] = {"recording_complete", AUDIT_T_BOOL,
				    false},
    [AUDIT_K_PREV_FILE] = {"prev_file", AUDIT_T_STRING, false},
    [AUDIT_K_PREV] = {"prev", AUDIT_T_HEX64, true},
    [AUDIT_K_KEY] = {"key", AUDIT_T_HEX64, true},
    [AUDIT_K_SIG] = {"sig", AUDIT_T_HEX128, true},
};

struct audit_reader {
	const unsigned char *s;
	size_t len, pos;
	char *why; /* the first complaint */
	size_t whylen;
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
		return audit_bad(r, n == 32   ? "expected 32 hex digits"
				    : n == 64 ? "expected 64 hex digits"
					      : "expected 128 hex digits");
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

/* An unsigned decimal integer of at most `max`. */
static int
audit_read_number_within(struct audit_reader *r, uint64_t *v, uint64_t max)
{
	size_t start = r->pos;

	*v = 0;
	while (r->pos < r->len && r->s[r->pos] >= '0' && r->s[r->pos] <= '9') {
		unsigned d = (unsigned)(r->s[r->pos] - '0');

		if (*v > (max - d) / 10)
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

static int
audit_read_number(struct audit_reader *r, uint64_t *v)
{
	return audit_read_number_within(r, v, AUDIT_SEQ_MAX);
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

/* An integer column of a fact: -?[0-9]+ without leading zeros ("-0"
 * neither), within 64 bits, as the writer prints an int64_t. */
static int
audit_read_integer(struct audit_reader *r)
{
	bool neg = r->pos < r->len && r->s[r->pos] == '-';
	uint64_t v;

	if (neg)
		r->pos++;
	if (audit_read_number_within(r, &v, neg ? (uint64_t)INT64_MAX + 1
					       : (uint64_t)INT64_MAX) != 0)
		return -1;
	if (neg && v == 0)
		return audit_bad(r, "-0");
	return 0;
}

/* [] or [[predicate,column,...],...]: a fact is a non-empty array whose
 * first item is a string and the others strings or integers. */
static int
audit_read_facts(struct audit_reader *r)
{
	size_t start, end;

	if (audit_expect(r, '[') != 0)
		return -1;
	if (r->pos < r->len && r->s[r->pos] == ']') {
		r->pos++;
		return 0;
	}
	for (;;) {
		if (audit_expect(r, '[') != 0 ||
		    audit_read_string(r, &start, &end) != 0)
			return -1;
		while (r->pos < r->len && r->s[r->pos] == ',') {
			r->pos++;
			if (r->pos < r->len && r->s[r->pos] == '"') {
				if (audit_read_string(r, &start, &end) != 0)
					return -1;
			} else if (audit_read_integer(r) != 0) {
				return -1;
			}
		}
		if (audit_expect(r, ']') != 0)
			return -1;
		if (r->pos < r->len && r->s[r->pos] == ',') {
			r->pos++;
			continue;
		}
		return audit_expect(r, ']');
	}
}

static int
audit_read_bool(struct audit_reader *r)
{
	size_t left = r->len - r->pos;

	if (left >= 4 && memcmp(r->s + r->pos, "true", 4) == 0) {
		r->pos += 4;
		return 0;
	}
	if (left >= 5 && memcmp(r->s + r->pos, "false", 5) == 0) {
		r->pos += 5;
		return 0;
	}
	return audit_bad(r, "expected true or false");
}

static int
audit_read_value(struct audit_reader *r, enum audit_key k,
		 struct audit_record *rec)
{
	size_t start, end, at;

	switch (audit_keys[k].type) {
	case AUDIT_T_NUMBER: {
		/* exec_argc, exec_ran_ino, pid: checked, not kept */
		uint64_t other;

		return audit_read_number(r, k == AUDIT_K_V     ? &rec->v
					    : k == AUDIT_K_SEQ ? &rec->seq
							       : &other);
	}
	case AUDIT_T_STRING:
		return audit_read_string(r, &start, &end);
	case AUDIT_T_HEX32:
		return audit_read_hex(r, 32, &at);
	case AUDIT_T_HEX64:
		if (audit_read_hex(r, 64, &at) != 0)
			return -1;
		if (k == AUDIT_K_PREV)
			rec->prev = at;
		else if (k == AUDIT_K_KEY)
			rec->key = at;
		return 0;
	case AUDIT_T_HEX128:
		if (audit_read_hex(r, 128, &at) != 0)
			return -1;
		rec->sig = at;
		return 0;
	case AUDIT_T_TIME:
		return audit_read_time(r);
	case AUDIT_T_STRINGS:
		return audit_read_array(r, false);
	case AUDIT_T_REASONS:
		return audit_read_array(r, true);
	case AUDIT_T_FACTS:
		return audit_read_facts(r);
	case AUDIT_T_BOOL:
		return audit_read_bool(r);
	}
	return audit_bad(r, "unknown value type");
}

/* Parses one line (without its newline).  Returns 0, or -1 with `why`. */
int
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
		if (k == AUDIT_K_SIG)
			rec->sig_key = key_at;
		r.pos = end + 1;
		if (audit_expect(&r, ':') != 0 ||
		    audit_read_value(&r, (enum audit_key)k, rec) != 0)
			return -1;
		/* the version first: an older record is not read as this
		 * format (its "mac" would be an unknown field) */
		if (k == AUDIT_K_V && rec->v != 2) {
			audit_err(why, whylen, "version %" PRIu64 " is not 2",
				  rec->v);
			return -1;
		}
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
	if (seen[AUDIT_K_FACTS] && seen[AUDIT_K_FACTS_SHA256]) {
		audit_err(why, whylen, "both facts and facts_sha256");
		return -1;
	}
	if (rec->seq == 0) {
		audit_err(why, whylen, "seq 0 (it counts from 1)");
		return -1;
	}
	return 0;
}
