/* SPDX-License-Identifier: MIT */
/*
 * One request line of `maelys-pty decide` (pty_decide_json.h).  The line
 * is untrusted: its nesting is measured before jansson reads it (so a
 * line of a million '[' costs one pass, not a deep parse), then every key
 * is checked against the fields a request may have, with its type and
 * size; anything else is refused with one line that names the field.
 */
#include "pty_decide_json.h"
#include "pty_messages.h"

#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the JSON text nests deeper than DECIDE_DEPTH_MAX (brackets
 * inside strings do not count). */
static bool
decide_too_deep(const char *s, size_t len)
{
	unsigned depth = 0;
	bool in_string = false, escaped = false;
	size_t i;

	for (i = 0; i < len; i++) {
		char c = s[i];

		if (in_string) {
			if (escaped)
				escaped = false;
			else if (c == '\\')
				escaped = true;
			else if (c == '"')
				in_string = false;
		} else if (c == '"') {
			in_string = true;
		} else if (c == '[' || c == '{') {
			if (++depth > DECIDE_DEPTH_MAX)
				return true;
		} else if ((c == ']' || c == '}') && depth > 0) {
			depth--;
		}
	}
	return false;
}

static int
decide_bad(char *err, size_t errlen, const char *key, const char *want)
{
	(void)snprintf(err, errlen, PTY_MSG_DECIDE_BAD_FIELD, key, want);
	return -1;
}

/* A string field of at most `max` bytes, not empty. */
static int
decide_string(json_t *v, const char *key, size_t max, const char **out,
	      size_t *outlen, char *err, size_t errlen)
{
	char want[64];
	size_t n;

	if (!json_is_string(v))
		return decide_bad(err, errlen, key, PTY_MSG_DECIDE_WANT_STRING);
	n = json_string_length(v);
	if (n > max) {
		(void)snprintf(want, sizeof want, PTY_MSG_EXPLAIN_WANT_SHORTER,
			       max);
		return decide_bad(err, errlen, key, want);
	}
	/* a NUL inside would cut the value into another one */
	if (n == 0 || strlen(json_string_value(v)) != n)
		return decide_bad(err, errlen, key, PTY_MSG_DECIDE_WANT_TEXT);
	*out = json_string_value(v);
	if (outlen != NULL)
		*outlen = n;
	return 0;
}

/* An absolute path field. */
static int
decide_path(json_t *v, const char *key, const char **out, char *err,
	    size_t errlen)
{
	if (decide_string(v, key, PATH_MAX - 1, out, NULL, err, errlen) != 0)
		return -1;
	if ((*out)[0] != '/')
		return decide_bad(err, errlen, key,
				  PTY_MSG_EXPLAIN_WANT_ABSOLUTE);
	return 0;
}

/* An absolute path, or null for no such fact (""). */
static int
decide_path_or_null(json_t *v, const char *key, const char **out, char *err,
		    size_t errlen)
{
	if (json_is_null(v)) {
		*out = "";
		return 0;
	}
	return decide_path(v, key, out, err, errlen);
}

/* A string of at most `max` bytes, or null for no such fact (""). */
static int
decide_text_or_null(json_t *v, const char *key, size_t max, const char **out,
		    char *err, size_t errlen)
{
	if (json_is_null(v)) {
		*out = "";
		return 0;
	}
	return decide_string(v, key, max, out, NULL, err, errlen);
}

/* An array of strings, at most `max` of them, each at most `each` bytes
 * (and empty only when `empty_ok`: an argv word may be ""); out is
 * allocated. */
static int
decide_strings(json_t *v, const char *key, size_t max, size_t each,
	       bool empty_ok, const char ***out, size_t *n, char *err,
	       size_t errlen)
{
	size_t i, count;
	char want[64];

	if (!json_is_array(v))
		return decide_bad(err, errlen, key, PTY_MSG_DECIDE_WANT_ARRAY);
	count = json_array_size(v);
	if (count > max) {
		(void)snprintf(want, sizeof want, PTY_MSG_DECIDE_WANT_FEWER,
			       max);
		return decide_bad(err, errlen, key, want);
	}
	*out = calloc(count > 0 ? count : 1, sizeof **out);
	if (*out == NULL)
		return decide_bad(err, errlen, key, PTY_MSG_DECIDE_NO_MEMORY);
	for (i = 0; i < count; i++) {
		json_t *w = json_array_get(v, i);

		if (empty_ok && json_is_string(w) &&
		    json_string_length(w) == 0) {
			(*out)[i] = "";
			continue;
		}
		if (decide_string(w, key, each, &(*out)[i], NULL, err,
				  errlen) != 0)
			return -1;
	}
	*n = count;
	return 0;
}

static int
decide_id(json_t *v, struct decide_request *rq, char *err, size_t errlen)
{
	if (json_is_integer(v)) {
		rq->id_kind = DECIDE_ID_INT;
		rq->id_int = (long long)json_integer_value(v);
		return 0;
	}
	if (!json_is_string(v) || json_string_length(v) > DECIDE_ID_MAX)
		return decide_bad(err, errlen, "id", PTY_MSG_DECIDE_WANT_ID);
	rq->id_kind = DECIDE_ID_STRING;
	rq->id_str = json_string_value(v);
	rq->id_len = json_string_length(v);
	return 0;
}

/* One field of the request; the exec-only ones are checked by the caller. */
static int
decide_field(struct decide_request *rq, const char *key, json_t *v,
	     char *err, size_t errlen)
{
	struct pty_tool_facts *f = &rq->facts;
	const char *s;
	size_t n;

	if (strcmp(key, "id") == 0)
		return 0; /* read first */
	if (strcmp(key, "line") == 0) {
		if (!json_is_string(v))
			return decide_bad(err, errlen, key,
					  PTY_MSG_DECIDE_WANT_STRING);
		n = json_string_length(v);
		/* empty is a line (nothing to run); a NUL cannot be typed */
		if (n > DECIDE_LINE_MAX || strlen(json_string_value(v)) != n) {
			char want[64];

			(void)snprintf(want, sizeof want,
				       PTY_MSG_DECIDE_WANT_LINE,
				       (size_t)DECIDE_LINE_MAX);
			return decide_bad(err, errlen, key, want);
		}
		rq->line = json_string_value(v);
		rq->line_len = n;
		return 0;
	}
	if (strcmp(key, "exec") == 0)
		return decide_path(v, key, &rq->exec, err, errlen);
	if (strcmp(key, "request") == 0)
		return decide_path(v, key, &rq->request, err, errlen);
	if (strcmp(key, "via") == 0) {
		s = json_is_string(v) ? json_string_value(v) : "";
		if (strcmp(s, "execve") == 0)
			rq->via = PTY_EXEC_VIA_EXECVE;
		else if (strcmp(s, "shebang") == 0)
			rq->via = PTY_EXEC_VIA_SHEBANG;
		else if (strcmp(s, "loader") == 0)
			rq->via = PTY_EXEC_VIA_LOADER;
		else
			return decide_bad(err, errlen, key,
					  PTY_MSG_DECIDE_WANT_VIA);
		rq->via_given = true;
		return 0;
	}
	if (strcmp(key, "through") == 0)
		return decide_path(v, key, &rq->through, err, errlen);
	if (strcmp(key, "confirmed") == 0) {
		if (!json_is_boolean(v))
			return decide_bad(err, errlen, key,
					  PTY_MSG_DECIDE_WANT_BOOLEAN);
		rq->confirmed = json_is_true(v);
		return 0;
	}
	if (strcmp(key, "argv") == 0)
		return decide_strings(v, key, DECIDE_ARGV_MAX,
				      PTY_EXEC_BYTES_MAX, true, &rq->argv, &rq->argc,
				      err, errlen);
	if (strcmp(key, "shell") == 0)
		return decide_path_or_null(v, key, &rq->shell, err, errlen);
	if (strcmp(key, "guard") == 0)
		return decide_path_or_null(v, key, &rq->guard, err, errlen);
	if (strcmp(key, "parent") == 0)
		return decide_path_or_null(v, key, &rq->parent, err, errlen);
	if (strcmp(key, "user") == 0)
		return decide_string(v, key, PTY_TEXT_MAX - 1, &f->user, NULL,
				     err, errlen);
	if (strcmp(key, "host") == 0)
		return decide_text_or_null(v, key, PTY_TEXT_MAX - 1, &f->host,
					   err, errlen);
	if (strcmp(key, "remote") == 0)
		return decide_text_or_null(v, key, PTY_TEXT_MAX - 1,
					   &f->remote, err, errlen);
	if (strcmp(key, "cwd") == 0)
		return decide_path(v, key, &f->cwd, err, errlen);
	if (strcmp(key, "groups") == 0) {
		const char **g = NULL;
		int rc = decide_strings(v, key, PTY_TOOL_GROUPS_MAX,
					PTY_TEXT_MAX - 1, false, &g, &n, err,
					errlen);

		if (rc == 0) {
			memcpy(f->groups, g, n * sizeof *g);
			f->ngroups = n;
		}
		free(g);
		return rc;
	}
	if (strcmp(key, "time") == 0) {
		if (decide_string(v, key, 5, &s, NULL, err, errlen) != 0 ||
		    !pty_tool_time_ok(s))
			return decide_bad(err, errlen, key,
					  PTY_MSG_EXPLAIN_WANT_TIME);
		f->time = s;
		return 0;
	}
	if (strcmp(key, "mode") == 0) {
		if (json_is_string(v) &&
		    strcmp(json_string_value(v), "interactive") == 0)
			rq->mode = PTY_MODE_INTERACTIVE;
		else if (json_is_string(v) &&
			 strcmp(json_string_value(v), "command") == 0)
			rq->mode = PTY_MODE_COMMAND;
		else
			return decide_bad(err, errlen, key,
					  PTY_MSG_EXPLAIN_WANT_MODE);
		rq->mode_given = true;
		return 0;
	}
	(void)snprintf(err, errlen, PTY_MSG_DECIDE_UNKNOWN_FIELD, key);
	return -1;
}

int
decide_request_parse(const char *text, size_t len, struct decide_request *rq,
		     char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *doc, *v;
	const char *key;

	memset(rq, 0, sizeof *rq);
	rq->mode = PTY_MODE_COMMAND;
	if (decide_too_deep(text, len)) {
		(void)snprintf(err, errlen, PTY_MSG_DECIDE_TOO_DEEP,
			       DECIDE_DEPTH_MAX);
		return -1;
	}
	doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (doc == NULL) {
		(void)snprintf(err, errlen, PTY_MSG_DECIDE_MALFORMED,
			       jerr.position, jerr.text);
		return -1;
	}
	rq->doc = doc;
	if (!json_is_object(doc)) {
		(void)snprintf(err, errlen, PTY_MSG_DECIDE_NOT_OBJECT);
		return -1;
	}
	/* the id first, so that every later error can name it */
	v = json_object_get(doc, "id");
	if (v != NULL && decide_id(v, rq, err, errlen) != 0)
		return -1;
	json_object_foreach(doc, key, v)
	{
		if (decide_field(rq, key, v, err, errlen) != 0)
			return -1;
	}
	if ((rq->line != NULL) == (rq->exec != NULL)) {
		(void)snprintf(err, errlen, PTY_MSG_DECIDE_LINE_OR_EXEC);
		return -1;
	}
	if (rq->line != NULL &&
	    (rq->argv != NULL || rq->shell != NULL || rq->guard != NULL ||
	     rq->parent != NULL || rq->request != NULL || rq->via_given ||
	     rq->through != NULL)) {
		(void)snprintf(err, errlen, PTY_MSG_DECIDE_EXEC_ONLY);
		return -1;
	}
	if (rq->exec != NULL &&
	    json_object_get(rq->doc, "confirmed") != NULL) {
		(void)snprintf(err, errlen, PTY_MSG_DECIDE_LINE_ONLY);
		return -1;
	}
	/* the host names what a program is reached through exactly when it
	 * is a script's interpreter or a loader (cases.c's via) */
	if (rq->exec != NULL &&
	    (rq->through != NULL) != (rq->via != PTY_EXEC_VIA_EXECVE)) {
		(void)snprintf(err, errlen, PTY_MSG_DECIDE_VIA_THROUGH);
		return -1;
	}
	return 0;
}

void
decide_request_free(struct decide_request *rq)
{
	free(rq->argv);
	json_decref(rq->doc);
	memset(rq, 0, sizeof *rq);
	rq->mode = PTY_MODE_COMMAND;
}
