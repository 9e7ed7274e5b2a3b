/* SPDX-License-Identifier: MIT */
/*
 * The Level 1 walkthrough's C code, compiled as it stands against the
 * installed headers and linked with `pkg-config --libs maelys-datalog`
 * (tests/install.sh).  level1_seed.inc is the walkthrough's code pasted
 * unchanged; this file only drives it: load the policy named on the command
 * line and decide the walkthrough's five lines as user bob.  Prints one
 * "allowed"/"denied" per line; exit 0 when every outcome is the
 * walkthrough's.
 */
#include "level1_seed.inc"

#include <stdlib.h>

static int
record_ok(const char *command, const char *reason)
{
	(void)command;
	(void)reason;
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct {
		const char *line;
		int allowed;
	} cases[] = {
	    {"shutdown now", 0},
	    {"echo hello | grep hello", 0},
	    {"git commit -m \"feat: solver\"", 0},
	    {"CMD=rm; $CMD /", 0},
	    {"git push origin feature/x", 1},
	};
	static char source[1 << 16];
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_session_t *session = NULL;
	maelys_datalog_status_t rc;
	size_t n, i;
	int bad = 0;
	FILE *f;

	if (argc != 2 || (f = fopen(argv[1], "r")) == NULL)
		return 2;
	n = fread(source, 1, sizeof source - 1, f);
	fclose(f);
	source[n] = '\0';
	rc = load_pty_policy(source, &session, &diag);
	if (rc != MAELYS_DATALOG_STATUS_OK) {
		fprintf(stderr, "load: %s: %s\n",
			maelys_datalog_status_name(rc), diag.message);
		return 1;
	}
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		/* no record_decision: Level 1 has no allow_with_log */
		int got = evaluate_line(session, cases[i].line,
					strlen(cases[i].line), "bob", 0, NULL);

		printf("%s: %s\n", cases[i].line, got ? "allowed" : "denied");
		if (got != cases[i].allowed)
			bad = 1;
	}
	/* the recording path of Level 2 compiles and runs too */
	(void)evaluate_line(session, "ls", 2, "bob", 0, record_ok);
	(void)maelys_datalog_session_free(session);
	return bad;
}
