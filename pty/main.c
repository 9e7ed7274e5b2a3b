/* SPDX-License-Identifier: MIT */
/*
 * maelys-pty: the guarded shell.  Loads the policy (a policy that does not
 * load means no session: one line for the user, non-zero exit), then runs
 * either one -c command or the interactive session.
 */
#include "pty_command.h"
#include "pty_decide.h"
#include "pty_options.h"
#include "pty_policy.h"
#include "pty_relay.h"

#include <maelys/datalog.h>

#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#ifndef PTY_VERSION
#define PTY_VERSION "0.1.0"
#endif

/* This program's own path: the session's SHELL, so that programs starting
 * "a shell" start the guard again. */
static void
pty_self_path(char *buf, size_t cap)
{
	ssize_t n = readlink("/proc/self/exe", buf, cap - 1);

	if (n <= 0)
		(void)snprintf(buf, cap, "/usr/local/bin/maelys-pty");
	else
		buf[n] = '\0';
}

int
main(int argc, char **argv)
{
	struct pty_options opt;
	struct pty_decider decider;
	maelys_datalog_session_t *session = NULL;
	char err[1024], self[PATH_MAX], history[PATH_MAX];
	const char *history_path;
	int rc;

	/* the session must not read or trace this process's memory */
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	rc = pty_options_parse(argc, argv, &opt, stderr);
	if (rc != 0)
		return rc;
	if (opt.help) {
		pty_options_usage(stdout);
		return 0;
	}
	if (opt.version) {
		printf("maelys-pty %s (libmaelys-datalog %s)\n", PTY_VERSION,
		       maelys_datalog_version());
		return 0;
	}
	if (pty_policy_open(opt.policy_path, &session, err, sizeof err) != 0) {
		fprintf(stderr, "maelys-pty: %s\n", err);
		return opt.command != NULL ? 126 : 1;
	}
	if (pty_decider_init(&decider, session, opt.path_env) != 0) {
		fprintf(stderr, "maelys-pty: cannot name the user of uid %u\n",
			(unsigned)getuid());
		return opt.command != NULL ? 126 : 1;
	}
	pty_self_path(self, sizeof self);
	if (opt.command != NULL) {
		rc = pty_command_run(&opt, &decider, self);
	} else {
		struct passwd *pw = getpwuid(getuid());

		history_path = opt.history_path;
		if (history_path == NULL && pw != NULL && pw->pw_dir != NULL &&
		    snprintf(history, sizeof history, "%s/.maelys_pty_history",
			     pw->pw_dir) < (int)sizeof history)
			history_path = history;
		/* no user-owned readline configuration (DESIGN.md 6.2) */
		(void)setenv("INPUTRC", "/dev/null", 1);
		rc = pty_relay_run(&opt, &decider, self, history_path);
	}
	pty_decider_free(&decider);
	(void)maelys_datalog_session_free(session);
	return rc;
}
