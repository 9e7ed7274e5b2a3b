/* SPDX-License-Identifier: MIT */
/*
 * `maelys-pty log` (pty_log.h): the options, then the log read record by
 * record through pty_audit_reader_next, which hands out a record only once
 * it is verified, so that nothing the table or the replay shows comes from
 * a record the chain does not vouch for.  At the first broken record the
 * reader's sentence goes to stderr and the tool stops: what it printed
 * before stands (exit 1).  Exit 2: a usage error, a log or key that cannot
 * be read, a candidate policy that does not load.
 *
 * The configuration (--config, or the built-in path) is read only for
 * what the command line leaves out: the log's files (audit_log), its
 * verification key (audit_verify_key) and, with --replay, whether a policy may decide lines only.
 */
#include "pty_log.h"
#include "pty_messages.h"

#include <stdlib.h>
#include <string.h>

/* The most files of one log (a rotation kept for a year, weekly). */
#define LOG_FILES_MAX 1024

struct log_opts {
	const char *user, *session, *key, *state, *config, *policy;
	struct log_time since, until;
	bool has_since, has_until, denied, json, replay;
	const char *files[LOG_FILES_MAX];
	size_t nfiles;
};

static int
log_bad(const char *opt, const char *value, const char *want)
{
	char shown[PTY_TEXT_MAX];

	pty_printable(shown, sizeof shown, value);
	(void)fprintf(stderr, PTY_MSG_LOG_BAD_VALUE "\n", opt, shown, want);
	return 2;
}

/* Whether s is 1 to 32 hex digits (a session id or its start). */
static bool
log_hex_prefix(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > 32)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f') ||
		      (s[i] >= 'A' && s[i] <= 'F')))
			return false;
	return true;
}

/* One valued option: 0 taken, 2 a bad value. */
static int
log_valued(struct log_opts *o, const char *a, const char *v)
{
	if (v[0] == '\0')
		return log_bad(a, v, PTY_MSG_LOG_WANT_WORD);
	if (strcmp(a, "--user") == 0) {
		o->user = v;
	} else if (strcmp(a, "--session") == 0) {
		if (!log_hex_prefix(v))
			return log_bad(a, v, PTY_MSG_LOG_WANT_HEX);
		o->session = v;
	} else if (strcmp(a, "--since") == 0 || strcmp(a, "--until") == 0) {
		bool since = a[2] == 's';

		if (log_time_parse(v, strlen(v),
				   since ? &o->since : &o->until) != 0)
			return log_bad(a, v, PTY_MSG_LOG_WANT_TIME);
		*(since ? &o->has_since : &o->has_until) = true;
	} else if (strcmp(a, "--key") == 0) {
		o->key = v;
	} else if (strcmp(a, "--state") == 0) {
		o->state = v;
	} else if (strcmp(a, "--config") == 0) {
		o->config = v;
	} else {
		o->policy = v;
	}
	return 0;
}

/* Returns 0, or the exit status of a usage error (said) or of --help. */
static int
log_options(int argc, char **argv, struct log_opts *o)
{
	static const char *const valued[] = {
	    "--user", "--session", "--since",  "--until",
	    "--key",  "--state",   "--config", "--policy"};
	bool files_only = false;
	int i;
	size_t k;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (files_only || a[0] != '-' || a[1] == '\0') {
			if (o->nfiles == LOG_FILES_MAX)
				return log_bad("FILE", a, "at most 1024 files");
			o->files[o->nfiles++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			files_only = true;
			continue;
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			(void)fputs(PTY_MSG_LOG_USAGE, stdout);
			return -1;
		}
		if (strcmp(a, "--denied") == 0 || strcmp(a, "--json") == 0 ||
		    strcmp(a, "--replay") == 0) {
			*(a[2] == 'd'   ? &o->denied
			  : a[2] == 'j' ? &o->json
					: &o->replay) = true;
			continue;
		}
		for (k = 0; k < sizeof valued / sizeof valued[0]; k++)
			if (strcmp(a, valued[k]) == 0)
				break;
		if (k == sizeof valued / sizeof valued[0]) {
			char shown[PTY_TEXT_MAX];

			pty_printable(shown, sizeof shown, a);
			(void)fprintf(stderr, PTY_MSG_LOG_UNKNOWN "\n", shown);
			(void)fputs(PTY_MSG_LOG_USAGE, stderr);
			return 2;
		}
		if (i + 1 == argc) {
			(void)fprintf(stderr, PTY_MSG_NEEDS_VALUE "\n", a);
			return 2;
		}
		if (log_valued(o, a, argv[++i]) != 0)
			return 2;
	}
	if (o->replay && o->policy == NULL) {
		(void)fprintf(stderr, "%s\n", PTY_MSG_LOG_REPLAY_NEEDS_POLICY);
		return 2;
	}
	if (!o->replay && o->policy != NULL) {
		(void)fprintf(stderr, "%s\n",
			      PTY_MSG_LOG_POLICY_WITHOUT_REPLAY);
		return 2;
	}
	if (o->replay && (o->denied || o->json)) {
		(void)fprintf(stderr, "%s\n", PTY_MSG_LOG_REPLAY_FILTERS);
		return 2;
	}
	return 0;
}

/* Whether a record passes the filters. */
static bool
log_wanted(const struct log_opts *o, const struct log_record *r)
{
	size_t n;

	if (o->user != NULL && (r->user == NULL || strcmp(r->user, o->user)))
		return false;
	if (o->session != NULL &&
	    ((n = strlen(o->session)) > strlen(r->session) ||
	     strncasecmp(r->session, o->session, n) != 0))
		return false;
	if (o->has_since && r->time_ms < o->since.ms)
		return false;
	if (o->has_until && r->time_ms >= o->until.ms + o->until.span)
		return false;
	return !o->denied || log_record_is_refusal(r);
}

/* Reads the log to its end or first break.  Returns the exit status. */
static int
log_read(const struct log_opts *o, const char *key, struct log_replay *rp)
{
	struct pty_audit_reader *rd = NULL;
	char err[1024];
	const char *text;
	size_t len;
	int rc, status = 0;
	bool heading = false;

	/* the state (secret: the audit account's and root's) only when
	 * named: with it, a cut end of the log is found too */
	if (pty_audit_reader_open(o->files, o->nfiles, key, o->state, &rd, err,
				  sizeof err) != 0) {
		(void)fprintf(stderr, PTY_MSG_LOG_FAILED "\n", err);
		return 2;
	}
	while ((rc = pty_audit_reader_next(rd, &text, &len, err, sizeof err)) ==
	       0) {
		struct log_record r;
		char why[256];

		if (log_record_parse(text, len, &r, why, sizeof why) != 0) {
			/* verified, yet not what pty_audit.h says: said, and
			 * the rest is still shown */
			(void)fprintf(stderr, PTY_MSG_LOG_UNREADABLE "\n",
				      o->files[pty_audit_reader_file(rd)],
				      pty_audit_reader_line(rd), why);
			status = 2;
			continue;
		}
		if (log_wanted(o, &r)) {
			if (rp != NULL) {
				(void)log_replay_record(rp, &r, stdout);
			} else if (o->json) {
				(void)fwrite(text, 1, len, stdout);
				(void)fputc('\n', stdout);
			} else {
				if (!heading)
					log_table_heading(stdout);
				heading = true;
				log_table_row(stdout, &r);
			}
		}
		log_record_free(&r);
	}
	(void)fflush(stdout);
	if (rc < 0)
		(void)fprintf(stderr, "%s\n", err);
	pty_audit_reader_close(rd);
	if (rc == -2)
		return 2;
	if (rc == -1)
		return 1;
	return status;
}

int
log_run(int argc, char **argv)
{
	/* large (the files' pointers, the configuration's paths): not on
	 * the stack; log_run runs once a process */
	static struct log_opts o;
	static struct pty_config cfg;
	struct log_replay rp;
	char err[1024];
	const char *key;
	int rc;

	memset(&o, 0, sizeof o);
	rc = log_options(argc, argv, &o);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	pty_config_defaults(&cfg);
	/* the configuration: for what the command line leaves out, and
	 * whenever it is named */
	if (o.config != NULL || o.key == NULL || o.nfiles == 0) {
		if (pty_config_load(o.config != NULL ? o.config
						     : pty_config_file,
				    &cfg, err, sizeof err) != 0) {
			(void)fprintf(stderr, PTY_MSG_LOG_NO_CONFIG "\n", err);
			return 2;
		}
	}
	if (o.nfiles == 0) {
		if (cfg.audit_log[0] == '\0') {
			(void)fprintf(stderr, "%s\n", PTY_MSG_LOG_NO_LOG);
			return 2;
		}
		o.files[o.nfiles++] = cfg.audit_log;
	}
	key = o.key != NULL ? o.key : cfg.audit_verify_key;
	if (!o.replay)
		return log_read(&o, key, NULL);
	if (log_replay_open(&rp, o.policy, &cfg, err, sizeof err) != 0) {
		(void)fprintf(stderr, PTY_MSG_LOG_FAILED "\n", err);
		return 2;
	}
	rc = log_read(&o, key, &rp);
	/* the counts of what was read, also when the log broke on the way;
	 * none when it could not be read at all */
	if (rc != 2 || rp.replayed + rp.unreplayable > 0)
		log_replay_summary(&rp, stdout);
	log_replay_close(&rp);
	if (rc != 0)
		return rc;
	return rp.changed > 0 ? 1 : 0;
}
