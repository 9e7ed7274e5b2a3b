/* SPDX-License-Identifier: MIT */
/*
 * `maelys-pty decide`: JSON lines in, decisions out, for programs that run
 * commands for someone else (doc/maelys-pty.1, DECIDE).  The parts:
 *
 *   decide_tool.c     the tool: options, the policy, the loop, the verdict
 *   decide_request.c  one request line read (untrusted: fuzz/
 *                     fuzz_decide_request.c), with jansson
 *   decide_answer.c   the answers written as JSON, valid whatever bytes the
 *                     policy's reasons hold
 *
 * The JSON library is jansson (Debian 12: libjansson-dev): kept up since
 * 2009, a strict decoder (it refuses invalid UTF-8, a NUL in a string
 * unless asked, trailing bytes, and with JSON_REJECT_DUPLICATES a key
 * given twice, so a request cannot say "user" twice and be read by its
 * first one here and its last one elsewhere), and a small API.
 *
 * The verdict is always the guard's own deciders' (pty_decide,
 * pty_exec_decide): this tool only reads a request and writes an answer.
 */
#ifndef PTY_DECIDE_JSON_H
#define PTY_DECIDE_JSON_H

#include "pty_tool_common.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The tool (pty_tools.h): argv[0] is "decide". */
int decide_run(int argc, char **argv);

/* ---- Limits of a request */

/* The longest request line, its newline not counted: an exec request's
 * argv may hold PTY_EXEC_BYTES_MAX bytes, escaped.  A longer line is
 * answered with an error and skipped to its end. */
#define DECIDE_INPUT_MAX ((size_t)1 << 20)
/* The deepest nesting: an object holding arrays of strings. */
#define DECIDE_DEPTH_MAX 2u
/* The longest "line": 16 times what the scanner reads (a longer one it
 * refuses, with the offset: still a decision, as the guard's). */
#define DECIDE_LINE_MAX (16 * SCAN_LINE_MAX)
/* The longest string "id". */
#define DECIDE_ID_MAX 256u
/* The most argv words of an exec request. */
#define DECIDE_ARGV_MAX 4096u

enum decide_id_kind { DECIDE_ID_NONE, DECIDE_ID_INT, DECIDE_ID_STRING };

/* One request as read.  The strings point into the parsed document, valid
 * until decide_request_free. */
struct decide_request {
	void *doc; /* the parsed document (json_t) */
	enum decide_id_kind id_kind;
	long long id_int;
	const char *id_str;
	size_t id_len;
	const char *line; /* a line request, or NULL */
	size_t line_len;
	const char *exec; /* an exec request, or NULL */
	const char *request; /* exec: the path as asked, or NULL */
	const char **argv; /* exec: argc words, into doc (NULL: none given) */
	size_t argc;
	/* exec: NULL when not given, "" for null (no such fact) */
	const char *shell, *guard, *parent;
	bool via_given;
	enum pty_exec_via via; /* exec: default execve */
	const char *through;   /* exec: shebang, loader; or NULL */
	bool confirmed; /* line: decide again with confirmed(Cmd) */
	bool mode_given;
	enum pty_mode mode; /* default: command, a program's request */
	/* host and remote: "" for null (no such fact) */
	struct pty_tool_facts facts;
};

/* Reads one request of `len` bytes (no newline).  Returns 0 with *rq
 * filled (decide_request_free it), or -1 with one line in err saying what
 * is wrong (the id, when it could be read, is left in *rq for the answer;
 * free it too). */
int decide_request_parse(const char *text, size_t len,
			 struct decide_request *rq, char *err, size_t errlen);
void decide_request_free(struct decide_request *rq);

/* ---- Answers (decide_answer.c) */

/* A growing buffer, one answer long. */
struct decide_out {
	char *buf;
	size_t len, cap;
	bool failed; /* memory ran out: the answer is not written */
};

void decide_out_reset(struct decide_out *o);
void decide_out_free(struct decide_out *o);
void decide_out_raw(struct decide_out *o, const char *s);
/* `len` bytes as a JSON string: quotes, backslashes and control bytes
 * escaped; valid UTF-8 kept; each byte of an invalid sequence is
 * U+FFFD, so the answer is valid JSON for any bytes, the same each time. */
void decide_out_string(struct decide_out *o, const char *s, size_t len);
void decide_out_uint(struct decide_out *o, unsigned long long n);
void decide_out_int(struct decide_out *o, long long n);
/* `"id": ...,` when the request has one. */
void decide_out_id(struct decide_out *o, const struct decide_request *rq);

#endif /* PTY_DECIDE_JSON_H */
