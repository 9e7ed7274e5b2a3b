/* SPDX-License-Identifier: MIT */
/*
 * maelys-datalog: the standalone runner of libmaelys-datalog.
 *
 *   maelys-datalog run [--souffle|--native] [-v] [-F DIR] [-D DIR] PROG.dl
 *   maelys-datalog check [--souffle|--native] [--werror] PROG.dl
 *
 * `run` loads a standalone program (.decl, .input, .output, .printsize), reads
 * the facts of each .input relation from DIR/rel.facts, solves once and then
 * carries out the .output and .printsize directives in source order, as
 * Souffle and the other Datalog tools do with the same files.  It is how the
 * engine is compared with other engines and how other projects' Datalog test
 * suites run against it.  `check` only loads and reports, with the load's
 * warnings (`run` shows them with --verbose).
 *
 * A standalone run is not a decision of a host: every session budget starts
 * at its hard maximum, and only --max-tuples / --max-memory lower them.
 * Exit status: 0 success, 1 load, input, evaluation or output error (or a
 * warning, with check --werror), 2 usage.
 * Only the public API is used; file formats live in facts_io.c.
 */
#define _GNU_SOURCE /* O_CLOEXEC, setenv */

#include "explain.h"
#include "explain_tuple.h"
#include "facts_io.h"
#include "runner_options.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <maelys/datalog.h>

/* The largest program text read; the engine's own (smaller) source limit
 * then gives its LIMIT diagnostic.  Only a guard against reading a huge
 * file whole. */
#define RUN_PROGRAM_READ_MAX ((size_t)1 << 30)

/* Reads the whole file at `path`.  Returns 0, or the exit status after
 * saying why. */
static int
read_program(const char *path, char **text, size_t *len)
{
	struct stat sb;
	char *buf = NULL;
	size_t cap = 0, n = 0;
	int fd, rc = RUN_ERROR;

	*text = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, PROGRAM_NAME ": %s: cannot open: %s\n", path,
			strerror(errno));
		return RUN_ERROR;
	}
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		fprintf(stderr, PROGRAM_NAME ": %s: not a regular file\n",
			path);
		goto out;
	}
	cap = sb.st_size > 0 && (uint64_t)sb.st_size < RUN_PROGRAM_READ_MAX
		  ? (size_t)sb.st_size + 1
		  : 4096;
	for (;;) {
		ssize_t got;

		if (n == cap || buf == NULL) {
			char *nb;

			if (n == cap)
				cap *= 2;
			if (cap > RUN_PROGRAM_READ_MAX + 1) {
				fprintf(stderr,
					PROGRAM_NAME ": %s: larger than %zu "
						     "bytes\n",
					path, RUN_PROGRAM_READ_MAX);
				goto out;
			}
			nb = realloc(buf, cap);
			if (nb == NULL) {
				fprintf(stderr,
					PROGRAM_NAME ": %s: out of memory\n",
					path);
				goto out;
			}
			buf = nb;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			fprintf(stderr, PROGRAM_NAME ": %s: read error: %s\n",
				path, strerror(errno));
			goto out;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	*text = buf;
	*len = n;
	buf = NULL;
	rc = 0;
out:
	free(buf);
	(void)close(fd);
	return rc;
}

/* Reads and loads the program.  Returns 0, or the exit status after
 * saying why. */
static int
load_program(const struct options *o, maelys_datalog_policy_t **policy)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_status_t st;
	char *text = NULL;
	size_t len = 0;
	int rc;

	*policy = NULL;
	if ((rc = read_program(o->program, &text, &len)) != 0)
		return rc;
	st = maelys_datalog_policy_load_text(NULL, o->program, text, len,
					     o->flags, policy, &diag);
	free(text);
	if (st != MAELYS_DATALOG_STATUS_OK)
		return runner_report_status(st, &diag);
	return 0;
}

/* Prints each warning of the load on stderr, as the library words it
 * ("PROG.dl:LINE:COL: warning: ...").  Returns how many there were. */
static size_t
print_warnings(const maelys_datalog_policy_t *policy)
{
	size_t n = maelys_datalog_policy_warning_count(policy), i;

	for (i = 0; i < n; i++) {
		maelys_datalog_diagnostic_t w = MAELYS_DATALOG_DIAGNOSTIC_INIT;
		maelys_datalog_warning_kind_t kind;

		if (maelys_datalog_policy_get_warning(policy, i, &kind, &w) ==
		    MAELYS_DATALOG_STATUS_OK)
			fprintf(stderr, "%s\n", w.message);
	}
	return n;
}

/* dir/name, or name itself when it is absolute (as Souffle does).  NULL
 * when out of memory. */
static char *
path_join(const char *dir, const char *name, const char *suffix)
{
	size_t dl = strlen(dir), nl = strlen(name), sl = strlen(suffix);
	bool slash = dl > 0 && dir[dl - 1] != '/';
	char *p;

	if (name[0] == '/')
		dl = 0, slash = false;
	p = malloc(dl + (slash ? 1 : 0) + nl + sl + 1);
	if (p == NULL)
		return NULL;
	memcpy(p, dir, dl);
	if (slash)
		p[dl++] = '/';
	memcpy(p + dl, name, nl);
	memcpy(p + dl + nl, suffix, sl + 1);
	return p;
}

/* The file of an .input or file .output directive: its filename=, else
 * rel.facts / rel.csv, relative to `dir` unless absolute. */
static char *
directive_path(const maelys_datalog_directive_t *d, const char *dir,
	       const char *suffix)
{
	if (d->filename != NULL)
		return path_join(dir, d->filename, "");
	return path_join(dir, d->predicate, suffix);
}

/* Checks what can be checked before any work: directive parameters and the
 * output directory. */
static int
check_directives(const struct options *o, const maelys_datalog_policy_t *policy)
{
	size_t n = maelys_datalog_policy_directive_count(policy), i;
	bool files_out = false;
	struct stat sb;

	for (i = 0; i < n; i++) {
		maelys_datalog_directive_t d;

		if (maelys_datalog_policy_get_directive(policy, i, &d) !=
		    MAELYS_DATALOG_STATUS_OK)
			return runner_report_error("cannot read the directives");
		if (d.kind == MAELYS_DATALOG_DIRECTIVE_INPUT && d.to_stdout) {
			fprintf(stderr,
				PROGRAM_NAME ": %s: .input %s: IO=stdout is "
					     "for .output (inputs are files)\n",
				o->program, d.predicate);
			return RUN_ERROR;
		}
		if (d.delimiter != NULL && d.delimiter[0] == '\0') {
			fprintf(stderr,
				PROGRAM_NAME ": %s: %s %s: empty delimiter\n",
				o->program,
				d.kind == MAELYS_DATALOG_DIRECTIVE_INPUT
				    ? ".input"
				    : ".output",
				d.predicate);
			return RUN_ERROR;
		}
		if (d.kind == MAELYS_DATALOG_DIRECTIVE_OUTPUT && !d.to_stdout &&
		    (d.filename == NULL || d.filename[0] != '/'))
			files_out = true;
	}
	if (!files_out || strcmp(o->out_dir, "-") == 0)
		return 0;
	if (stat(o->out_dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		int e = stat(o->out_dir, &sb) != 0 ? errno : ENOTDIR;

		fprintf(stderr, PROGRAM_NAME ": %s: output directory: %s\n",
			o->out_dir, strerror(e));
		return RUN_ERROR;
	}
	return 0;
}

static int
read_inputs(const struct options *o, const maelys_datalog_policy_t *policy,
	    maelys_datalog_input_edb_t *edb)
{
	size_t n = maelys_datalog_policy_directive_count(policy), i;
	char err[FACTS_IO_ERROR_MAX];

	for (i = 0; i < n; i++) {
		maelys_datalog_directive_t d;
		char *path;
		int rc;

		if (maelys_datalog_policy_get_directive(policy, i, &d) !=
		    MAELYS_DATALOG_STATUS_OK)
			return runner_report_error("cannot read the directives");
		if (d.kind != MAELYS_DATALOG_DIRECTIVE_INPUT)
			continue;
		if ((path = directive_path(&d, o->facts_dir, ".facts")) == NULL)
			return runner_report_error("out of memory");
		rc = facts_io_read(edb, path, &d, err, sizeof err);
		free(path);
		if (rc != 0)
			return runner_report_error(err);
	}
	return 0;
}

/* Souffle's framing of a relation printed on stdout (WriteCoutCSV), so
 * the output of a run can be compared with Souffle's byte for byte: with
 * `headers` (what Souffle sets for -D -) the attributes' names follow the
 * relation's, joined by the delimiter. */
static int
write_stdout(const maelys_datalog_result_t *res,
	     const maelys_datalog_directive_t *d, bool headers)
{
	char err[FACTS_IO_ERROR_MAX];
	size_t i;

	printf("---------------\n%s", d->predicate);
	if (headers) {
		putchar('\n');
		for (i = 0; i < d->arity; i++)
			printf("%s%s",
			       i == 0		   ? ""
			       : d->delimiter != NULL ? d->delimiter
						      : "\t",
			       d->column_names[i] != NULL ? d->column_names[i]
							  : "");
	}
	fputs("\n===============\n", stdout);
	if (facts_io_write_typed(stdout, res, d->predicate, d->arity,
				 d->columns, d->delimiter, err,
				 sizeof err) != 0)
		return runner_report_error(err);
	fputs("===============\n", stdout);
	return 0;
}

static int
write_file(const struct options *o, const maelys_datalog_result_t *res,
	   const maelys_datalog_directive_t *d)
{
	char err[FACTS_IO_ERROR_MAX];
	char *path = directive_path(d, o->out_dir, ".csv");
	FILE *f;
	int rc = RUN_ERROR, werr;

	if (path == NULL)
		return runner_report_error("out of memory");
	f = fopen(path, "w");
	if (f == NULL) {
		fprintf(stderr, PROGRAM_NAME ": %s: cannot write: %s\n", path,
			strerror(errno));
		free(path);
		return RUN_ERROR;
	}
	if (facts_io_write_typed(f, res, d->predicate, d->arity, d->columns,
				 d->delimiter, err, sizeof err) != 0) {
		(void)fclose(f);
		runner_report_error(err);
		goto out;
	}
	werr = ferror(f);
	if (fclose(f) != 0 || werr) {
		fprintf(stderr, PROGRAM_NAME ": %s: write error: %s\n", path,
			strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(path);
	return rc;
}

static int
print_size(const maelys_datalog_result_t *res,
	   const maelys_datalog_directive_t *d)
{
	size_t count = 0;
	maelys_datalog_status_t st =
	    maelys_datalog_result_count(res, d->predicate, d->arity, &count);

	if (st != MAELYS_DATALOG_STATUS_OK)
		return runner_report_status(st, NULL);
	printf("%s\t%zu\n", d->predicate, count);
	return 0;
}

static int
write_outputs(const struct options *o, const maelys_datalog_policy_t *policy,
	      const maelys_datalog_result_t *res)
{
	size_t n = maelys_datalog_policy_directive_count(policy), i;
	bool to_stdout = strcmp(o->out_dir, "-") == 0;

	for (i = 0; i < n; i++) {
		maelys_datalog_directive_t d;
		int rc = 0;

		if (maelys_datalog_policy_get_directive(policy, i, &d) !=
		    MAELYS_DATALOG_STATUS_OK)
			return runner_report_error("cannot read the directives");
		if (d.kind == MAELYS_DATALOG_DIRECTIVE_PRINTSIZE)
			rc = print_size(res, &d);
		else if (d.kind != MAELYS_DATALOG_DIRECTIVE_OUTPUT)
			continue;
		else if (d.to_stdout || to_stdout)
			rc = write_stdout(res, &d, to_stdout);
		else
			rc = write_file(o, res, &d);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/*
 * Every budget at its hard maximum, then the options' lower limits.  The
 * budgets are walked by number until the library answers that there is no
 * such budget, so a budget added to the library is covered here without a
 * second list to keep in step (a list here once left the join-steps budget
 * at its default, and long standalone runs stopped with budget_steps).
 */
static int
set_budgets(const struct options *o, maelys_datalog_session_t *s)
{
	maelys_datalog_status_t st;
	unsigned b;

	for (b = 0;; b++) {
		uint64_t max = 0;

		if (maelys_datalog_budget_max((maelys_datalog_budget_t)b, &max) !=
		    MAELYS_DATALOG_STATUS_OK)
			break;
		st = maelys_datalog_session_set_budget(
		    s, (maelys_datalog_budget_t)b, max);
		if (st != MAELYS_DATALOG_STATUS_OK)
			return runner_report_status(st, NULL);
	}
	if (o->max_tuples != 0 &&
	    (st = maelys_datalog_session_set_budget(
		 s, MAELYS_DATALOG_BUDGET_TUPLES, o->max_tuples)) !=
		MAELYS_DATALOG_STATUS_OK)
		return runner_report_status(st, NULL);
	if (o->max_memory != 0 &&
	    (st = maelys_datalog_session_set_budget(
		 s, MAELYS_DATALOG_BUDGET_MEMORY, o->max_memory)) !=
		MAELYS_DATALOG_STATUS_OK)
		return runner_report_status(st, NULL);
	return 0;
}

/* Parses every --explain tuple before the solve: a typo is a usage error
 * at once, not after a long run. */
static int
parse_explains(const struct options *o, struct explain_tuple **out)
{
	struct explain_tuple *t;
	char err[256];
	size_t i;

	*out = NULL;
	if (o->nexplain == 0)
		return 0;
	t = calloc(o->nexplain, sizeof *t);
	if (t == NULL)
		return runner_report_error("out of memory");
	for (i = 0; i < o->nexplain; i++) {
		if (explain_tuple_parse(o->explain[i], strlen(o->explain[i]),
					o->flags == MAELYS_DATALOG_LOAD_SOUFFLE,
					&t[i], err, sizeof err) != 0) {
			fprintf(stderr, PROGRAM_NAME ": --explain '%s': %s\n",
				o->explain[i], err);
			while (i-- > 0)
				explain_tuple_free(&t[i]);
			free(t);
			return RUN_USAGE;
		}
	}
	*out = t;
	return 0;
}

static int
cmd_run(const struct options *o)
{
	struct explain_tuple *tuples = NULL;
	size_t i;
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *policy = NULL;
	maelys_datalog_session_t *session = NULL;
	maelys_datalog_input_edb_t *edb = NULL;
	maelys_datalog_result_t *res = NULL;
	maelys_datalog_status_t st;
	int rc;

	if ((rc = load_program(o, &policy)) != 0)
		return rc;
	if (o->verbose)
		(void)print_warnings(policy);
	if ((rc = check_directives(o, policy)) != 0)
		goto out;
	if ((st = maelys_datalog_input_edb_create(&edb)) !=
	    MAELYS_DATALOG_STATUS_OK) {
		rc = runner_report_status(st, NULL);
		goto out;
	}
	if ((rc = read_inputs(o, policy, edb)) != 0)
		goto out;
	if ((rc = parse_explains(o, &tuples)) != 0)
		goto out;
	if ((st = maelys_datalog_session_create(
		 policy,
		 o->nexplain > 0 ? MAELYS_DATALOG_SESSION_PROVENANCE : 0u,
		 &session)) != MAELYS_DATALOG_STATUS_OK) {
		rc = runner_report_status(st, NULL);
		goto out;
	}
	if ((rc = set_budgets(o, session)) != 0)
		goto out;
	st = maelys_datalog_session_solve_edb(session, edb, &res, &diag);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		rc = runner_report_status(st, &diag);
		goto out;
	}
	/* the facts are in the session's result now: give their memory
	 * back before the outputs need theirs */
	(void)maelys_datalog_input_edb_free(edb);
	edb = NULL;
	rc = write_outputs(o, policy, res);
	for (i = 0; rc == 0 && i < o->nexplain; i++) {
		/* flushed first: the outputs and the trees in order */
		if (fflush(stdout) != 0)
			break;
		st = explain_print(stdout, policy, res, &tuples[i],
				   o->explain_depth);
		if (st != MAELYS_DATALOG_STATUS_OK) {
			fprintf(stderr, PROGRAM_NAME ": --explain '%s': %s: %s\n",
				o->explain[i], maelys_datalog_status_name(st),
				maelys_datalog_status_meaning(st));
			rc = RUN_ERROR;
		}
	}
out:
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (rc == 0)
			fprintf(stderr,
				PROGRAM_NAME ": stdout: write error: %s\n",
				strerror(errno));
		rc = RUN_ERROR;
	}
	(void)maelys_datalog_result_free(res);
	(void)maelys_datalog_session_free(session);
	(void)maelys_datalog_input_edb_free(edb);
	(void)maelys_datalog_policy_free(policy);
	if (tuples != NULL)
		for (i = 0; i < o->nexplain; i++)
			explain_tuple_free(&tuples[i]);
	free(tuples);
	return rc;
}

static int
cmd_check(const struct options *o)
{
	maelys_datalog_policy_t *policy = NULL;
	size_t warnings;
	int rc;

	if ((rc = load_program(o, &policy)) != 0)
		return rc;
	warnings = print_warnings(policy);
	(void)maelys_datalog_policy_free(policy);
	if (o->werror && warnings > 0) {
		fprintf(stderr,
			PROGRAM_NAME ": %s: %zu warning%s (--werror: an "
				     "error)\n",
			o->program, warnings, warnings == 1 ? "" : "s");
		return RUN_ERROR;
	}
	printf("%s: ok\n", o->program);
	if (fflush(stdout) != 0 || ferror(stdout))
		return runner_report_error("stdout: write error");
	return RUN_OK;
}

/*
 * Large relations are hash tables the size of a last-level cache or more,
 * probed at random: with 4 KiB pages nearly every probe also misses the
 * TLB, and evaluation runs 1.3 to 1.7 times slower than on 2 MiB pages.
 * The library stays free of system calls, so the runner asks
 * glibc for transparent huge pages on its behalf: when the kernel grants
 * them on request ("madvise" mode) and the glibc tunable is not set yet, it
 * executes itself again once with GLIBC_TUNABLES=glibc.malloc.hugetlb=1.
 * MAELYS_DATALOG_NO_HUGEPAGES=1 turns this off.  Any failure just goes on.
 */
static void
reexec_with_huge_pages(char **argv)
{
	static const char tunable[] = "glibc.malloc.hugetlb=1";
	const char *cur = getenv("GLIBC_TUNABLES");
	char mode[128], value[512];
	FILE *f;
	size_t n;

	if (getenv("MAELYS_DATALOG_NO_HUGEPAGES") != NULL ||
	    (cur != NULL && strstr(cur, "glibc.malloc.hugetlb") != NULL))
		return;
	f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	if (f == NULL)
		return;
	n = fread(mode, 1, sizeof mode - 1, f);
	fclose(f);
	mode[n] = '\0';
	if (strstr(mode, "[madvise]") == NULL)
		return; /* "always" needs nothing, "never" gives nothing */
	if (cur != NULL && cur[0] != '\0') {
		if ((size_t)snprintf(value, sizeof value, "%s:%s", cur,
				     tunable) >= sizeof value)
			return;
	} else {
		(void)snprintf(value, sizeof value, "%s", tunable);
	}
	if (setenv("GLIBC_TUNABLES", value, 1) != 0)
		return;
	execv("/proc/self/exe", argv);
	/* could not: run as we are, without the variable we just set */
	if (cur != NULL)
		(void)setenv("GLIBC_TUNABLES", cur, 1);
	else
		(void)unsetenv("GLIBC_TUNABLES");
}

int
main(int argc, char **argv)
{
	struct options o;
	int rc;

	reexec_with_huge_pages(argv);
	rc = runner_parse_args(argc, argv, &o);

	if (rc >= 0) {
		free(o.explain);
		if (fflush(stdout) != 0 || ferror(stdout))
			return RUN_ERROR;
		return rc;
	}
	if (strcmp(o.command, "check") == 0)
		rc = cmd_check(&o);
	else
		rc = cmd_run(&o);
	free(o.explain);
	return rc;
}
