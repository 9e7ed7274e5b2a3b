/* SPDX-License-Identifier: MIT */
/*
 * `maelys-pty log --replay` (pty_log.h): every recorded decision that
 * carries its "facts" is decided again under a candidate policy, from an
 * input EDB of exactly those facts, by the deciders' own code
 * (pty_decide_edb, pty_exec_decide_edb: the same queries in the same order
 * as a session's), and what would change is printed.
 *
 * A decision is compared by what it lets happen: allowed, allowed once
 * logged, asks for confirmation, refused.  A "confirm" record was a
 * require_confirm (whatever the answer); an exec "recorded" (a policy that
 * decides lines only) ran.  A record without facts - its line or its
 * facts recorded by SHA-256, a line the scanner refused, a program the
 * host refused before any policy - cannot be decided again and is counted
 * as such.
 */
#include "pty_log.h"
#include "pty_messages.h"

#include <string.h>

enum log_class {
	LOG_NONE, /* not a policy's decision: not replayable */
	LOG_ALLOWED,
	LOG_LOGGED,
	LOG_ASKS,
	LOG_REFUSED,
};

static const char *
log_class_word(enum log_class c)
{
	switch (c) {
	case LOG_ALLOWED:
		return PTY_MSG_LOG_ALLOWED;
	case LOG_LOGGED:
		return PTY_MSG_LOG_LOGGED;
	case LOG_ASKS:
		return PTY_MSG_LOG_ASKS;
	case LOG_REFUSED:
	case LOG_NONE:
		break;
	}
	return PTY_MSG_LOG_REFUSED;
}

/* What the recorded decision let happen. */
static enum log_class
log_recorded_class(const struct log_record *r)
{
	const char *w = r->decision;

	if (strcmp(r->event, "confirm") == 0)
		return LOG_ASKS;
	if (strcmp(w, "allow") == 0)
		return LOG_ALLOWED;
	if (strcmp(w, "allow_with_log") == 0)
		return LOG_LOGGED;
	if (strcmp(w, "confirm") == 0)
		return LOG_ASKS;
	if (strcmp(w, "deny") == 0 || strcmp(w, "error") == 0)
		return LOG_REFUSED;
	if (strcmp(w, "recorded") == 0 && strcmp(r->event, "exec") == 0)
		return LOG_ALLOWED;
	return LOG_NONE; /* refused by the scanner or the host */
}

int
log_replay_open(struct log_replay *rp, const char *policy_path,
		const struct pty_config *cfg, char *err, size_t errlen)
{
	struct pty_policy_reads reads;

	memset(rp, 0, sizeof *rp);
	if (pty_policy_open(policy_path, &rp->session, &reads, err, errlen) !=
	    0)
		return -1;
	if (pty_decider_init(&rp->d, rp->session, &reads, NULL) != 0) {
		(void)snprintf(err, errlen, PTY_MSG_LOG_NO_DECIDER,
			       policy_path);
		log_replay_close(rp);
		return -1;
	}
	rp->decider = true;
	rp->execs_undecided =
	    reads.execs_undecided && cfg->exec_decisions_optional;
	return 0;
}

void
log_replay_close(struct log_replay *rp)
{
	if (rp->decider)
		pty_decider_free(&rp->d);
	if (rp->session != NULL)
		(void)maelys_datalog_session_free(rp->session);
	rp->decider = false;
	rp->session = NULL;
}

/* The new decision's reasons, one a line under the change. */
static void
log_new_reason(FILE *f, const char *a, const char *b)
{
	(void)fputs(PTY_MSG_LOG_NEW_REASON, f);
	if (b != NULL) {
		(void)fputs(PTY_MSG_LOG_DENY_OPEN, f);
		log_safe_write(f, a, strlen(a));
		(void)fputs(PTY_MSG_LOG_DENY_CLOSE, f);
		a = b;
	}
	log_safe_write(f, a, strlen(a));
	(void)fputc('\n', f);
}

/* A decision made again, line or program. */
struct log_again {
	bool exec;
	struct pty_decision line;
	struct pty_exec_decision prog;
};

/* What a decision made again lets happen. */
static enum log_class
log_again_class(const struct log_replay *rp, const struct log_again *a)
{
	if (a->exec)
		return rp->execs_undecided || a->prog.verdict == PTY_EXEC_ALLOW
			   ? LOG_ALLOWED
			   : LOG_REFUSED;
	switch (a->line.verdict) {
	case PTY_VERDICT_ALLOW:
		return LOG_ALLOWED;
	case PTY_VERDICT_ALLOW_LOG:
		return LOG_LOGGED;
	case PTY_VERDICT_CONFIRM:
		return LOG_ASKS;
	case PTY_VERDICT_ERROR:
	case PTY_VERDICT_POLICY:
	case PTY_VERDICT_SYNTAX:
	case PTY_VERDICT_NO_CWD:
	case PTY_VERDICT_EMPTY:
		break;
	}
	return LOG_REFUSED;
}

/* Its reasons, one a line, under the change. */
static void
log_again_reasons(FILE *f, const struct log_again *a)
{
	const struct pty_decision *d = &a->line;
	const struct pty_exec_decision *x = &a->prog;
	char buf[PTY_TEXT_MAX + 700];
	size_t i;

	if (a->exec) {
		if (x->verdict == PTY_EXEC_ALLOW)
			return;
		if (x->verdict == PTY_EXEC_ERROR) {
			(void)snprintf(buf, sizeof buf, PTY_MSG_LOG_ERROR,
				       x->error);
			log_new_reason(f, buf, NULL);
			return;
		}
		for (i = 0; i < x->nreasons; i++)
			log_new_reason(f, x->reasons[i], NULL);
		if (x->nreasons == 0)
			log_new_reason(f, PTY_MSG_LOG_NO_REASON, NULL);
		return;
	}
	switch (d->verdict) {
	case PTY_VERDICT_ALLOW:
		return;
	case PTY_VERDICT_ALLOW_LOG:
		(void)snprintf(buf, sizeof buf, PTY_MSG_LOG_WITH_LOG,
			       d->log_reason);
		break;
	case PTY_VERDICT_CONFIRM:
		(void)snprintf(buf, sizeof buf, PTY_MSG_LOG_CONFIRM,
			       d->confirm_prompt);
		break;
	case PTY_VERDICT_ERROR:
		(void)snprintf(buf, sizeof buf, PTY_MSG_LOG_ERROR, d->error);
		break;
	case PTY_VERDICT_NO_CWD:
		(void)snprintf(buf, sizeof buf, PTY_MSG_LOG_NO_CWD, d->error);
		break;
	case PTY_VERDICT_POLICY:
	case PTY_VERDICT_SYNTAX:
	case PTY_VERDICT_EMPTY:
		for (i = 0; i < d->nreasons; i++)
			log_new_reason(f, d->reasons[i].op,
				       d->reasons[i].reason);
		if (d->nreasons > 0)
			return;
		(void)snprintf(buf, sizeof buf, PTY_MSG_LOG_NO_RULE,
			       d->command);
		break;
	}
	log_new_reason(f, buf, NULL);
}

int
log_replay_record(struct log_replay *rp, const struct log_record *r, FILE *f)
{
	struct log_again again;
	enum log_class was, now;
	struct log_facts lf;
	char err[512], when[20];

	if (!log_record_is_decision(r))
		return 0;
	was = log_recorded_class(r);
	if (was == LOG_NONE || r->facts == NULL) {
		rp->unreplayable++;
		return 0;
	}
	again.exec = strcmp(r->event, "exec") == 0;
	err[0] = '\0';
	if (log_facts_add(r->facts, rp->d.edb, &lf, err, sizeof err) != 0 ||
	    (again.exec ? lf.exec_path == NULL : lf.command == NULL)) {
		if (err[0] == '\0')
			(void)snprintf(err, sizeof err, PTY_MSG_LOG_NO_KEY_FACT,
				       again.exec ? "exec_path" : "command");
		char said[sizeof err + 128];

		/* a verified record the replay cannot read: said, counted;
		 * the engine's sentence quotes the record's text, which
		 * must not drive the terminal (a thief with the state signs
		 * what they like after the last record) */
		(void)snprintf(said, sizeof said, PTY_MSG_LOG_FACTS_BAD,
			       (unsigned long long)json_integer_value(
				   json_object_get(r->root, "seq")),
			       err);
		log_safe_write(stderr, said, strlen(said));
		(void)fputc('\n', stderr);
		rp->unreplayable++;
		return 0;
	}
	rp->replayed++;
	if (again.exec)
		pty_exec_decide_edb(&rp->d, lf.exec_path, lf.exec_path_len,
				    &again.prog);
	else
		pty_decide_edb(&rp->d, lf.command, lf.command_len, lf.confirmed,
			       &again.line);
	now = log_again_class(rp, &again);
	if (now == was)
		return 0;
	rp->changed++;
	if (now == LOG_REFUSED)
		rp->newly_refused++;
	else if (was == LOG_REFUSED)
		rp->newly_allowed++;
	log_time_show(r, when);
	(void)fprintf(f, PTY_MSG_LOG_CHANGE_WHEN, when);
	log_safe_write(f, r->user != NULL ? r->user : "-",
		       r->user != NULL ? strlen(r->user) : 1);
	(void)fprintf(f, PTY_MSG_LOG_CHANGE, log_class_word(was),
		      log_class_word(now));
	if (again.exec) {
		(void)fputs(PTY_MSG_LOG_EXEC, f);
		log_safe_write(f, lf.exec_path, lf.exec_path_len);
	} else if (r->line != NULL) {
		log_safe_write(f, r->line, r->line_len);
	} else {
		log_safe_write(f, lf.command, lf.command_len);
	}
	(void)fputc('\n', f);
	log_again_reasons(f, &again);
	return 1;
}

void
log_replay_summary(const struct log_replay *rp, FILE *f)
{
	(void)fprintf(f, PTY_MSG_LOG_SUMMARY "\n", rp->replayed, rp->changed,
		      rp->newly_refused, rp->newly_allowed, rp->unreplayable);
}
