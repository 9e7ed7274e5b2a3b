/* SPDX-License-Identifier: MIT */
/*
 * level1_walkthrough - how an embedder decides command lines with
 * libmaelys-datalog, in one file.
 *
 * It does what the Level 1 walkthrough describes: register the host's
 * vocabulary (a domain), load the Level 1 policy once, and for each line
 * scan the raw text for shell metacharacters before tokenising, turn the
 * line into input facts, solve, and act only on an explicit allow(Cmd).
 * Every refusal names its reasons, read back from deny(Op, Reason).
 *
 *   level1_walkthrough [--user NAME] [-i] [POLICY.dl]
 *
 * Without -i it decides the walkthrough's five lines and prints the session
 * transcript; with -i it then decides lines read from standard input.
 * Build against the installed library:
 *   cc level1_walkthrough.c $(pkg-config --cflags --libs maelys-datalog)
 * Only the public headers are used.
 */
#include <maelys/datalog.h>
#include <maelys/datalog_builders.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef LEVEL1_DEFAULT_POLICY
#define LEVEL1_DEFAULT_POLICY "policies/level1.dl"
#endif

/* The host's predicates and their roles: what it supplies per line (EDB),
 * what the policy may state as facts (POLICY_FACT), what it derives and what
 * the host may read back (IDB | QUERY). */
static const maelys_datalog_predicate_t level1_predicates[] = {
    {"command", 1, MAELYS_DATALOG_PREDICATE_EDB},
    {"arg", 1, MAELYS_DATALOG_PREDICATE_EDB},
    {"user", 1, MAELYS_DATALOG_PREDICATE_EDB},
    {"cwd", 1, MAELYS_DATALOG_PREDICATE_EDB},
    {"time_of_day", 1, MAELYS_DATALOG_PREDICATE_EDB},
    {"shell_metachar", 1, MAELYS_DATALOG_PREDICATE_EDB},
    {"forbidden_cmd", 1, MAELYS_DATALOG_PREDICATE_POLICY_FACT},
    {"trusted_user", 1, MAELYS_DATALOG_PREDICATE_POLICY_FACT},
    {"deny_any", 1,
     MAELYS_DATALOG_PREDICATE_IDB | MAELYS_DATALOG_PREDICATE_QUERY},
    {"allow", 1, MAELYS_DATALOG_PREDICATE_IDB | MAELYS_DATALOG_PREDICATE_QUERY},
    {"deny", 2, MAELYS_DATALOG_PREDICATE_IDB | MAELYS_DATALOG_PREDICATE_QUERY},
};

/* The policy's own constants: a typo in the policy ("shutdwon") is then a
 * load error instead of a rule that silently never matches. */
static const char *const level1_atoms[] = {
    "shutdown",
    "reboot",
    "poweroff",
    "alice",
    "root",
    "__line__",
    "shell metacharacter in line",
    "command is forbidden by policy",
    "curl",
    "curl is restricted to trusted users",
};

static const maelys_datalog_domain_t level1_domain = {
    "level1_example",
    level1_predicates,
    sizeof level1_predicates / sizeof level1_predicates[0],
    level1_atoms,
    sizeof level1_atoms / sizeof level1_atoms[0],
};

#define LINE_MAX_BYTES 4096
#define TOKENS_MAX     63

/* The metacharacters of the walkthrough's restricted grammar, each with the
 * name the policy sees in shell_metachar(M). */
static const struct {
	char c;
	const char *name;
} metachars[] = {
    {'|', "pipe"},      {'>', "redirect"}, {'<', "redirect"},
    {';', "semicolon"}, {'`', "backtick"}, {'$', "var_expand"},
};

/* Scans the raw line before it is split.  Returns NULL when the line may be
 * solved (its metacharacter classes set in `found`), or the reason it is
 * refused before solving. */
static const char *
scan_line(const char *line, size_t len, bool found[])
{
	size_t i, k;

	for (i = 0; i < len; i++) {
		char c = line[i];

		if (c == '"' || c == '\'')
			return "quoted syntax is unsupported in this demo";
		if (c == '\\' || c == '&' || c == '\0' || c == '\n' ||
		    c == '\r')
			return "this syntax is unsupported in this demo";
		for (k = 0; k < sizeof metachars / sizeof metachars[0]; k++)
			if (c == metachars[k].c)
				found[k] = true;
	}
	return NULL;
}

/* Splits on blanks; returns the number of tokens, or -1 when too many. */
static int
tokenise(char *copy, char *tokens[])
{
	int n = 0;
	char *p = copy;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			return n;
		if (n == TOKENS_MAX)
			return -1;
		tokens[n++] = p;
		while (*p != '\0' && *p != ' ' && *p != '\t')
			p++;
		if (*p != '\0')
			*p++ = '\0';
	}
}

static void
report(const char *what, maelys_datalog_status_t st,
       const maelys_datalog_diagnostic_t *diag)
{
	fprintf(stderr, "level1_walkthrough: %s: %s: %s\n", what,
		maelys_datalog_status_name(st),
		diag != NULL && diag->message[0] != '\0'
		    ? diag->message
		    : maelys_datalog_status_meaning(st));
}

/* Prints each deny(Op, Reason) derived for the line.  Reading the reasons
 * can itself fail; the line stays denied either way. */
static void
print_reasons(const maelys_datalog_result_t *result)
{
	maelys_datalog_fact_view_t rows[16];
	size_t count = 0, i;
	maelys_datalog_status_t st;

	st = maelys_datalog_result_enumerate(
	    result, "deny", 2, rows, sizeof rows / sizeof rows[0], &count);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		report("reading deny reasons", st, NULL);
		return;
	}
	for (i = 0; i < count; i++) {
		const char *op = NULL, *reason = NULL;
		size_t oplen = 0, rlen = 0;

		if (maelys_datalog_result_symbol_text(
			result, rows[i].terms[0].as.symbol_id, &op, &oplen) !=
			MAELYS_DATALOG_STATUS_OK ||
		    maelys_datalog_result_symbol_text(
			result, rows[i].terms[1].as.symbol_id, &reason,
			&rlen) != MAELYS_DATALOG_STATUS_OK)
			continue;
		printf("  deny(%s): %s\n", op, reason);
	}
}

/* Decides one line; prints the outcome.  Returns true only when the policy
 * derived allow(Cmd) for the line's command. */
static bool
decide(maelys_datalog_session_t *session, const char *user, const char *line)
{
	bool found[sizeof metachars / sizeof metachars[0]] = {false};
	char copy[LINE_MAX_BYTES], *tokens[TOKENS_MAX];
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_input_edb_t *edb = NULL;
	maelys_datalog_result_t *result = NULL;
	maelys_datalog_status_t st;
	size_t len = strlen(line), k;
	const char *refusal;
	int ntok, allowed = 0, i;

	if (len >= LINE_MAX_BYTES) {
		printf("maelys-pty: denied before solving - line too long\n");
		return false;
	}
	refusal = scan_line(line, len, found);
	if (refusal != NULL) {
		printf("maelys-pty: denied before solving - %s\n", refusal);
		return false;
	}
	memcpy(copy, line, len + 1);
	ntok = tokenise(copy, tokens);
	if (ntok < 0) {
		printf("maelys-pty: denied before solving - too many words\n");
		return false;
	}
	if (ntok == 0)
		return false; /* an empty line is no command */

	st = maelys_datalog_input_edb_create(&edb);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = MAELYS_DATALOG_ADD_FACTS(
		    edb, &diag, MAELYS_DATALOG_FACT("command", tokens[0]),
		    MAELYS_DATALOG_FACT("user", user));
	for (i = 1; st == MAELYS_DATALOG_STATUS_OK && i < ntok; i++)
		st = MAELYS_DATALOG_ADD_FACT(edb, &diag, "arg", tokens[i]);
	for (k = 0; st == MAELYS_DATALOG_STATUS_OK &&
		    k < sizeof metachars / sizeof metachars[0];
	     k++)
		if (found[k])
			st = MAELYS_DATALOG_ADD_FACT(
			    edb, &diag, "shell_metachar", metachars[k].name);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = maelys_datalog_session_solve_edb(session, edb, &result,
						      &diag);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = MAELYS_DATALOG_QUERY(result, &allowed, "allow", tokens[0]);

	if (st != MAELYS_DATALOG_STATUS_OK) {
		/* fail closed: an error decides nothing, so the line is denied
		 */
		report("deciding the line", st, &diag);
		printf("maelys-pty: '%s' denied: the policy could not be "
		       "evaluated\n",
		       tokens[0]);
		allowed = 0;
	} else if (allowed) {
		printf("-> allowed\n");
	} else {
		int line_denied = 0;

		if (MAELYS_DATALOG_QUERY(result, &line_denied, "deny_any",
					 "__line__") !=
		    MAELYS_DATALOG_STATUS_OK)
			line_denied = 0;
		printf("maelys-pty: '%s' denied by policy\n",
		       line_denied ? "__line__" : tokens[0]);
		print_reasons(result);
	}
	(void)maelys_datalog_result_free(result);
	(void)maelys_datalog_input_edb_free(edb);
	return allowed != 0;
}

static const char *const walkthrough_lines[] = {
    "shutdown now",
    "echo hello | grep hello",
    "git commit -m \"feat: solver\"",
    "CMD=rm; $CMD /",
    "git push origin feature/x",
};

static int
usage(FILE *f, int status)
{
	fprintf(f,
		"usage: level1_walkthrough [--user NAME] [-i] "
		"[POLICY.dl]\n"
		"Decides the Level 1 walkthrough's five lines with POLICY "
		"(default %s);\n"
		"-i then decides lines typed on standard input.\n",
		LEVEL1_DEFAULT_POLICY);
	return status;
}

int
main(int argc, char **argv)
{
	const char *policy_path = LEVEL1_DEFAULT_POLICY, *user = "alice";
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_session_t *session = NULL;
	maelys_datalog_status_t st;
	bool interactive = false;
	size_t i;
	int a;

	for (a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--user") == 0 && a + 1 < argc)
			user = argv[++a];
		else if (strcmp(argv[a], "-i") == 0)
			interactive = true;
		else if (strcmp(argv[a], "--help") == 0)
			return usage(stdout, EXIT_SUCCESS);
		else if (argv[a][0] == '-')
			return usage(stderr, 2);
		else
			policy_path = argv[a];
	}

	/* once per process: the registry keeps a copy of the table */
	st = maelys_datalog_domain_register(&level1_domain);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		report("registering the domain", st, NULL);
		return EXIT_FAILURE;
	}
	st = maelys_datalog_policy_load_file(level1_domain.name, policy_path,
					     &policy, &diag);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		report("loading the policy", st, &diag);
		return EXIT_FAILURE;
	}
	/* the session keeps its own reference: the policy can go now */
	st = maelys_datalog_session_create(policy, 0, &session);
	(void)maelys_datalog_policy_free(policy);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = maelys_datalog_session_prepare(session, &diag);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		report("starting the session", st, &diag);
		(void)maelys_datalog_session_free(session);
		return EXIT_FAILURE;
	}

	for (i = 0; i < sizeof walkthrough_lines / sizeof *walkthrough_lines;
	     i++) {
		printf("%s@host:~$ %s\n", user, walkthrough_lines[i]);
		(void)decide(session, user, walkthrough_lines[i]);
		printf("\n");
	}
	if (interactive) {
		char line[LINE_MAX_BYTES + 2];

		printf("Type a line to decide it (Ctrl-D to end).\n");
		for (;;) {
			size_t n;

			printf("%s@host:~$ ", user);
			fflush(stdout);
			if (fgets(line, sizeof line, stdin) == NULL)
				break;
			n = strlen(line);
			if (n > 0 && line[n - 1] == '\n') {
				line[--n] = '\0';
			} else if (!feof(stdin)) {
				int c;

				/* an overlong line is refused whole, never
				 * decided in pieces */
				while ((c = getchar()) != EOF && c != '\n')
					;
				printf("maelys-pty: denied before solving - "
				       "line too long\n");
				continue;
			}
			(void)decide(session, user, line);
		}
		printf("\n");
	}
	(void)maelys_datalog_session_free(session);
	return EXIT_SUCCESS;
}
