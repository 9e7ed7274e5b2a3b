/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for what `maelys-pty log` reads of a record
 * (pty/tools/log_record.c, log_time.c, log_table.c): the input is one
 * record's text, any bytes.
 *
 *   - reading is deterministic: a second reading says the same, with the
 *     same error;
 *   - a record read has its session and event, a time from 1970 on, and
 *     every string it hands out but "line" NUL-free at its length;
 *   - its row of the table is one line that cannot drive a terminal: no
 *     control byte but the final newline, no C1 control, well-formed
 *     UTF-8;
 *   - its "facts", when read into an input EDB, are all there: as many
 *     facts in the EDB as read, and a command or exec_path noted only as
 *     one of them;
 *   - the same bytes as a --since/--until time: accepted only with a
 *     span of a day, a minute, a second or a millisecond.
 */
#include "fuzz.h"

#include "pty_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
check_str(const char *s, const json_t *root, const char *key)
{
	if (s != NULL &&
	    strlen(s) != json_string_length(json_object_get(root, key)))
		abort();
}

/* The row: one line, nothing that drives a terminal, valid UTF-8. */
static void
check_row(const unsigned char *s, size_t n)
{
	size_t i = 0;

	if (n == 0 || s[n - 1] != '\n')
		abort();
	for (n--; i < n;) {
		unsigned c = s[i];

		if (c < 0x20 || c == 0x7f)
			abort();
		if (c < 0x80) {
			i++;
			continue;
		}
		/* the C1 controls are U+0080..U+009F: C2 80..C2 9F */
		if (c == 0xc2 && i + 1 < n && s[i + 1] < 0xa0)
			abort();
		if (c >= 0xc2 && c <= 0xdf)
			i += 2;
		else if (c >= 0xe0 && c <= 0xef)
			i += 3;
		else if (c >= 0xf0 && c <= 0xf4)
			i += 4;
		else
			abort();
		if (i > n)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct log_record a, b;
	struct log_time t;
	char err1[512], err2[512];
	int rc1, rc2;

	if (size > PTY_AUDIT_LINE_MAX)
		return 0;
	if (log_time_parse(text, size, &t) == 0 &&
	    (t.ms < 0 || (t.span != 1 && t.span != 1000 && t.span != 60000 &&
			  t.span != 86400000)))
		abort();
	err1[0] = err2[0] = '\0';
	rc1 = log_record_parse(text, size, &a, err1, sizeof err1);
	rc2 = log_record_parse(text, size, &b, err2, sizeof err2);
	if (rc1 != rc2 || strcmp(err1, err2) != 0)
		abort();
	if (rc1 != 0)
		return 0;
	log_record_free(&b);
	if (a.session == NULL || a.event == NULL || a.time_ms < 0)
		abort();
	check_str(a.user, a.root, "user");
	check_str(a.event, a.root, "event");
	check_str(a.decision, a.root, "decision");
	check_str(a.exec_path, a.root, "exec_path");
	{
		char *buf = NULL;
		size_t n = 0;
		FILE *f = open_memstream(&buf, &n);

		if (f == NULL)
			abort();
		log_table_row(f, &a);
		if (fclose(f) != 0)
			abort();
		check_row((const unsigned char *)buf, n);
		free(buf);
	}
	if (a.facts != NULL) {
		maelys_datalog_input_edb_t *edb = NULL;
		struct log_facts lf;

		if (maelys_datalog_input_edb_create(&edb) !=
		    MAELYS_DATALOG_STATUS_OK)
			abort();
		if (log_facts_add(a.facts, edb, &lf, err1, sizeof err1) == 0) {
			if (maelys_datalog_input_edb_count(edb) != lf.count ||
			    lf.count != json_array_size(a.facts) ||
			    (lf.command != NULL && lf.count == 0) ||
			    (lf.exec_path != NULL && lf.count == 0))
				abort();
		} else if (err1[0] == '\0') {
			abort();
		}
		(void)maelys_datalog_input_edb_free(edb);
	}
	log_record_free(&a);
	return 0;
}
