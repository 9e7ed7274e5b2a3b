/* SPDX-License-Identifier: MIT */
/*
 * One record as `maelys-pty log` reads it (pty_log.h): its JSON text, only
 * ever one the reader verified, into the fields the table, the filters and
 * the replay read, each of the type pty_audit.h gives it; and its "facts"
 * into an input EDB.  A field of another type is an error, not a guess:
 * the tool shows what the record says or says it cannot.
 */
#include "pty_log.h"

#include <maelys/datalog_builders.h>

#include <stdio.h>
#include <string.h>

/* A string field: NULL when absent; -1 when of another type or holding a
 * NUL (every field but "line" is text without one). */
static int
log_str(json_t *root, const char *key, const char **out, size_t *len,
	bool nul_ok, char *err, size_t errlen)
{
	json_t *v = json_object_get(root, key);

	*out = NULL;
	if (len != NULL)
		*len = 0;
	if (v == NULL)
		return 0;
	if (!json_is_string(v) || (!nul_ok && strlen(json_string_value(v)) !=
						  json_string_length(v))) {
		(void)snprintf(err, errlen, "\"%s\" is not a string", key);
		return -1;
	}
	*out = json_string_value(v);
	if (len != NULL)
		*len = json_string_length(v);
	return 0;
}

/* An array field: NULL when absent, -1 when not an array. */
static int
log_array(json_t *root, const char *key, json_t **out, char *err, size_t errlen)
{
	*out = json_object_get(root, key);
	if (*out != NULL && !json_is_array(*out)) {
		(void)snprintf(err, errlen, "\"%s\" is not an array", key);
		return -1;
	}
	return 0;
}

/* The string fields, in no particular order: where each goes. */
static int
log_strings(struct log_record *r, char *err, size_t errlen)
{
	const struct {
		const char *key;
		const char **to;
	} f[] = {
	    {"time", &r->time},
	    {"user", &r->user},
	    {"session", &r->session},
	    {"event", &r->event},
	    {"decision", &r->decision},
	    {"mode", &r->mode},
	    {"tty", &r->tty},
	    {"remote", &r->remote},
	    {"note", &r->note},
	    {"error", &r->error},
	    {"refusal", &r->refusal},
	    {"log_reason", &r->log_reason},
	    {"confirm_prompt", &r->confirm_prompt},
	};
	size_t i;

	for (i = 0; i < sizeof f / sizeof f[0]; i++)
		if (log_str(r->root, f[i].key, f[i].to, NULL, false, err,
			    errlen) != 0)
			return -1;
	if (log_str(r->root, "line", &r->line, &r->line_len, true, err,
		    errlen) != 0 ||
	    log_str(r->root, "exec_path", &r->exec_path, &r->exec_path_len,
		    false, err, errlen) != 0)
		return -1;
	return 0;
}

int
log_record_parse(const char *text, size_t len, struct log_record *out,
		 char *err, size_t errlen)
{
	json_error_t jerr;
	struct log_time t;
	size_t i;

	memset(out, 0, sizeof *out);
	if (len > PTY_AUDIT_LINE_MAX) {
		(void)snprintf(err, errlen, "longer than %zu bytes",
			       PTY_AUDIT_LINE_MAX);
		return -1;
	}
	out->root = json_loadb(text, len,
			       JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
	if (out->root == NULL || !json_is_object(out->root)) {
		(void)snprintf(err, errlen, "not a JSON object%s%s",
			       out->root == NULL ? ": " : "",
			       out->root == NULL ? jerr.text : "");
		log_record_free(out);
		return -1;
	}
	if (log_strings(out, err, errlen) != 0 ||
	    log_array(out->root, "reasons", &out->reasons, err, errlen) != 0 ||
	    log_array(out->root, "facts", &out->facts, err, errlen) != 0)
		goto bad;
	if (!json_is_integer(json_object_get(out->root, "v")) ||
	    !json_is_integer(json_object_get(out->root, "seq")) ||
	    out->time == NULL || out->session == NULL || out->event == NULL) {
		(void)snprintf(err, errlen,
			       "v, seq, time, session or event is missing");
		goto bad;
	}
	if (log_time_parse(out->time, strlen(out->time), &t) != 0) {
		(void)snprintf(err, errlen, "\"time\" is not an RFC 3339 time");
		goto bad;
	}
	out->time_ms = t.ms;
	out->line_by_sha256 = json_object_get(out->root, "line_sha256") != NULL;
	out->facts_by_sha256 =
	    json_object_get(out->root, "facts_sha256") != NULL;
	for (i = 0; out->reasons != NULL && i < json_array_size(out->reasons);
	     i++)
		if (!json_is_object(json_array_get(out->reasons, i))) {
			(void)snprintf(err, errlen,
				       "a member of \"reasons\" is not an "
				       "object");
			goto bad;
		}
	out->exit_status = json_object_get(out->root, "exit_status");
	out->signal = json_object_get(out->root, "signal");
	out->decisions = json_object_get(out->root, "decisions");
	out->refusals = json_object_get(out->root, "refusals");
	out->execs = json_object_get(out->root, "execs");
	return 0;
bad:
	log_record_free(out);
	return -1;
}

void
log_record_free(struct log_record *r)
{
	if (r->root != NULL)
		json_decref(r->root);
	memset(r, 0, sizeof *r);
}

bool
log_record_is_decision(const struct log_record *r)
{
	static const char *const ev[] = {"line", "command", "confirm", "exec"};
	size_t i;

	for (i = 0; r->event != NULL && i < sizeof ev / sizeof ev[0]; i++)
		if (strcmp(r->event, ev[i]) == 0)
			return r->decision != NULL;
	return false;
}

bool
log_record_is_refusal(const struct log_record *r)
{
	static const char *const no[] = {"deny", "refused", "error",
					 "declined"};
	size_t i;

	/* a process ended for running what was not allowed: a refusal,
	 * counted as one */
	if (strcmp(r->event, "exec_mismatch") == 0)
		return true;
	if (!log_record_is_decision(r))
		return false;
	for (i = 0; i < sizeof no / sizeof no[0]; i++)
		if (strcmp(r->decision, no[i]) == 0)
			return true;
	return false;
}

/* One fact [pred, arg...] into edb, noting the ones the replay keys on. */
static int
log_fact_add(const json_t *f, maelys_datalog_input_edb_t *edb,
	     struct log_facts *out, char *err, size_t errlen)
{
	maelys_datalog_arg_t args[LOG_FACT_ARGS_MAX];
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	const json_t *p = json_array_get(f, 0);
	const char *pred;
	size_t n, i;

	if (!json_is_array(f) || !json_is_string(p) ||
	    (n = json_array_size(f) - 1) > LOG_FACT_ARGS_MAX ||
	    json_string_length(p) == 0 ||
	    strlen(json_string_value(p)) != json_string_length(p)) {
		(void)snprintf(err, errlen,
			       "fact %zu is not [predicate, argument...]",
			       out->count + 1);
		return -1;
	}
	pred = json_string_value(p);
	for (i = 0; i < n; i++) {
		const json_t *a = json_array_get(f, i + 1);

		if (json_is_string(a))
			args[i] = maelys_datalog_arg_symbol_n(
			    json_string_value(a), json_string_length(a));
		else if (json_is_integer(a))
			args[i] = maelys_datalog_arg_integer(
			    (int64_t)json_integer_value(a));
		else {
			(void)snprintf(err, errlen,
				       "fact %zu: an argument is neither a "
				       "string nor an integer",
				       out->count + 1);
			return -1;
		}
	}
	if (maelys_datalog_input_edb_add(edb, pred, args, n, &diag) !=
	    MAELYS_DATALOG_STATUS_OK) {
		(void)snprintf(err, errlen, "fact %zu: %s", out->count + 1,
			       diag.message[0] != '\0' ? diag.message
						       : "refused");
		return -1;
	}
	/* the first command/1 and exec_path/1: the one the decider added */
	if (n == 1 && json_is_string(json_array_get(f, 1))) {
		const json_t *a = json_array_get(f, 1);

		if (strcmp(pred, "command") == 0 && out->command == NULL) {
			out->command = json_string_value(a);
			out->command_len = json_string_length(a);
		} else if (strcmp(pred, "exec_path") == 0 &&
			   out->exec_path == NULL) {
			out->exec_path = json_string_value(a);
			out->exec_path_len = json_string_length(a);
		} else if (strcmp(pred, "confirmed") == 0) {
			out->confirmed = true;
		}
	}
	out->count++;
	return 0;
}

int
log_facts_add(const json_t *facts, maelys_datalog_input_edb_t *edb,
	      struct log_facts *out, char *err, size_t errlen)
{
	size_t i;

	memset(out, 0, sizeof *out);
	if (!json_is_array(facts)) {
		(void)snprintf(err, errlen, "\"facts\" is not an array");
		return -1;
	}
	if (maelys_datalog_input_edb_clear(edb) != MAELYS_DATALOG_STATUS_OK) {
		(void)snprintf(err, errlen,
			       "the input facts cannot be cleared");
		return -1;
	}
	for (i = 0; i < json_array_size(facts); i++)
		if (log_fact_add(json_array_get(facts, i), edb, out, err,
				 errlen) != 0)
			return -1;
	return 0;
}
