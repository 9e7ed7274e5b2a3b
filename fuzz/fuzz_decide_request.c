/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the requests of `maelys-pty decide`
 * (pty/tools/decide_request.c) and the JSON its answers are written in
 * (pty/tools/decide_answer.c): the input is one request line, any bytes.
 *
 *   - reading is deterministic: a second reading says the same, with the
 *     same error;
 *   - a request read has a line or an exec, never both; its strings are
 *     NUL-free at their lengths and within the bounds (line, names,
 *     paths absolute, time HH:MM, at most DECIDE_ARGV_MAX words, 64
 *     groups);
 *   - the answer built from the input's bytes (as a reason) and from the
 *     error is valid JSON that jansson reads back, whatever the bytes.
 */
#include "fuzz.h"

#include "pty_decide_json.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static void
check_text(const char *s, size_t max)
{
	if (s != NULL && (strlen(s) > max || (s[0] == '\0')))
		abort();
}

/* A path, or "" for null (no such fact) when `null_ok`. */
static void
check_path(const char *s, bool null_ok)
{
	if (s != NULL && !(null_ok && s[0] == '\0') && s[0] != '/')
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct decide_request a, b;
	struct decide_out o;
	char err1[1024], err2[1024];
	const char *text = (const char *)data;
	int rc1, rc2;
	size_t i;
	json_t *back;

	if (size > DECIDE_INPUT_MAX)
		return 0;
	err1[0] = err2[0] = '\0';
	rc1 = decide_request_parse(text, size, &a, err1, sizeof err1);
	rc2 = decide_request_parse(text, size, &b, err2, sizeof err2);
	if (rc1 != rc2 || strcmp(err1, err2) != 0 || a.id_kind != b.id_kind)
		abort();
	if (rc1 == 0) {
		if ((a.line != NULL) == (a.exec != NULL))
			abort();
		if (a.line != NULL && (strlen(a.line) != a.line_len ||
				       a.line_len > DECIDE_LINE_MAX))
			abort();
		if (a.exec != NULL && a.exec[0] != '/')
			abort();
		if (a.argc > DECIDE_ARGV_MAX || a.facts.ngroups > 64)
			abort();
		for (i = 0; i < a.argc; i++)
			if (a.argv[i] == NULL)
				abort();
		check_text(a.facts.user, PTY_TEXT_MAX - 1);
		/* "" is null: no such fact */
		if (a.facts.host != NULL && a.facts.host[0] != '\0')
			check_text(a.facts.host, PTY_TEXT_MAX - 1);
		check_path(a.request, false);
		check_path(a.shell, true);
		check_path(a.guard, true);
		check_path(a.parent, true);
		if ((a.through != NULL) !=
		    (a.exec != NULL && a.via != PTY_EXEC_VIA_EXECVE))
			abort();
		check_path(a.through, false);
		if (a.line != NULL &&
		    (a.request != NULL || a.via_given || a.shell != NULL))
			abort();
		if (a.facts.cwd != NULL && a.facts.cwd[0] != '/')
			abort();
		if (a.facts.time != NULL && !pty_tool_time_ok(a.facts.time))
			abort();
	} else if (err1[0] == '\0') {
		abort(); /* an error is always said */
	}
	/* the answer: the id, the input's bytes as a reason, the error; read
	 * back with JSON_ALLOW_NUL, as a NUL byte is written \\u0000, valid JSON
	 * that jansson refuses by default */
	memset(&o, 0, sizeof o);
	decide_out_raw(&o, "{");
	decide_out_id(&o, &a);
	decide_out_raw(&o, "\"reasons\": [");
	decide_out_string(&o, text, size);
	decide_out_raw(&o, "], \"error\": ");
	decide_out_string(&o, err1, strlen(err1));
	decide_out_raw(&o, "}");
	if (o.failed)
		abort();
	back = json_loadb(o.buf, o.len, JSON_ALLOW_NUL, NULL);
	if (back == NULL || !json_is_object(back))
		abort();
	json_decref(back);
	decide_out_free(&o);
	decide_request_free(&a);
	decide_request_free(&b);
	return 0;
}
