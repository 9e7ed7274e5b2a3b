/* SPDX-License-Identifier: MIT */
/*
 * maelys-pty: the guarded shell.  In order, each step failing closed:
 *
 *   1. make this process non-dumpable (the session must not read it);
 *   2. settings: the configuration file (checked like sudo's: root's, not
 *      writable by others, every directory likewise) and the policy it
 *      names, read through a checked descriptor; or, unprivileged only, a
 *      policy given with --policy and no configuration;
 *   3. while still the audit account (the guard is installed setuid to
 *      it): start the audit writer, a process that stays that account,
 *      opens the log and its key and appends every record (pty_audit.h);
 *      then become the user for good, and check it, before anything else
 *      runs;
 *   4. a session-start record; then one -c command or the interactive
 *      session; then a session-end record.
 * A failure before the session starts prints one line for the user, logs
 * the detail to syslog (authpriv) and exits non-zero (126 for -c).
 */
#define _GNU_SOURCE /* setresuid, getresuid, setresgid, getresgid */
#include "pty_audit.h"
#include "pty_check.h"
#include "pty_config.h"
#include "pty_decide.h"
#include "pty_guard.h"
#include "pty_line.h"
#include "pty_options.h"
#include "pty_policy.h"
#include "pty_supervise.h"

#include <maelys/datalog.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <syslog.h>
#include <unistd.h>

#ifndef PTY_VERSION
#define PTY_VERSION "0.1.0"
#endif

/* One line for the user, the same to syslog; returns the exit status. */
static int pty_fail(const struct pty_options *opt, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
pty_fail(const struct pty_options *opt, const char *fmt, ...)
{
	char msg[1200];
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "maelys-pty: %s\n", msg);
	syslog(LOG_AUTHPRIV | LOG_ERR, "%s", msg);
	return opt->command != NULL ? 126 : 1;
}

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

/* Drops the audit account (set-user-ID) and any set-group-ID group for
 * good: real, effective and saved ids become the caller's. */
static int
pty_drop_privileges(void)
{
	gid_t g = getgid(), rg, eg, sg;
	uid_t u = getuid(), r, e, s;

	if (setresgid(g, g, g) != 0 || getresgid(&rg, &eg, &sg) != 0 ||
	    rg != g || eg != g || sg != g)
		return -1;
	if (setresuid(u, u, u) != 0 || getresuid(&r, &e, &s) != 0 || r != u ||
	    e != u || s != u)
		return -1;
	return 0;
}

/* Whether a -c command is this program itself (sshd's ForceCommand). */
static bool
pty_names_self(const char *command, const char *self)
{
	const char *base = strrchr(self, '/');
	size_t n = strcspn(command, " \t");

	base = base != NULL ? base + 1 : self;
	if (command[n + strspn(command + n, " \t")] != '\0')
		return false; /* arguments: a command like any other */
	return (n == strlen(self) && strncmp(command, self, n) == 0) ||
	       (n == strlen(base) && strncmp(command, base, n) == 0);
}

static int
pty_verify(const struct pty_options *opt)
{
	struct pty_config cfg;
	const char *path =
	    opt->config_path ? opt->config_path : pty_config_file;
	char err[1024];

	/* the log is checked with the caller's own rights (root reads it) */
	if (pty_drop_privileges() != 0)
		return pty_fail(opt, "cannot drop the audit account");
	if (pty_config_load(path, &cfg, err, sizeof err) != 0) {
		(void)pty_fail(opt, "%s", err);
		return 2;
	}
	if (cfg.audit_key[0] == '\0') {
		(void)pty_fail(opt, "%s names no audit_key", path);
		return 2;
	}
	return pty_audit_verify(opt->verify_log, cfg.audit_key, stdout);
}

/* Step 2: the settings and the policy text. */
static int
pty_settings(const struct pty_options *opt, bool privileged,
	     struct pty_guard *g, char **text, size_t *len, char *err,
	     size_t errlen)
{
	const char *path =
	    opt->config_path ? opt->config_path : pty_config_file;

	pty_config_defaults(&g->cfg);
	if (opt->policy_path != NULL && !privileged) {
		/* development: the policy as given, no configuration */
		int fd, rc;

		(void)snprintf(g->policy_path, sizeof g->policy_path, "%s",
			       opt->policy_path);
		(void)snprintf(g->shell_path, sizeof g->shell_path, "%s",
			       pty_default_shell);
		(void)snprintf(g->path_env, sizeof g->path_env, "%s",
			       pty_default_path);
		g->cfg.syslog = false;
		*text = NULL;
		*len = 0;
		fd = open(opt->policy_path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0) {
			(void)snprintf(err, errlen, "policy %s: %s",
				       opt->policy_path, strerror(errno));
			return -1;
		}
		rc = pty_read_whole(fd, opt->policy_path, PTY_POLICY_MAX, text,
				    len, err, errlen);
		(void)close(fd);
		return rc;
	}
	if (pty_config_load(path, &g->cfg, err, errlen) != 0)
		return -1;
	g->have_config = true;
	(void)snprintf(g->policy_path, sizeof g->policy_path, "%s",
		       g->cfg.policy);
	(void)snprintf(g->shell_path, sizeof g->shell_path, "%s", g->cfg.shell);
	(void)snprintf(g->path_env, sizeof g->path_env, "%s", g->cfg.path_env);
	return pty_secure_read(g->cfg.policy, PTY_POLICY_MAX, text, len, err,
			       errlen);
}

int
main(int argc, char **argv)
{
	struct pty_options opt;
	static struct pty_decider decider; /* zero: pty_decider_free is safe */
	static struct pty_guard guard;
	maelys_datalog_session_t *session = NULL;
	char err[1024], self[PATH_MAX], history[PATH_MAX];
	const char *history_path, *command, *ssh_cmd;
	bool privileged;
	char *text = NULL;
	size_t len = 0;
	int rc;

	/* the session must not read or trace this process's memory */
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	/* a file-size limit the user lowered must make an audit write fail
	 * (EFBIG: the line is denied), not kill the guard */
	(void)signal(SIGXFSZ, SIG_IGN);
	openlog("maelys-pty", LOG_PID, LOG_AUTHPRIV);
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
	/* before the identity rules of a session: --check reports them */
	if (opt.check)
		return pty_check_run(&opt, stdout, stderr);
	/* deployed, the guard is setuid to its audit account
	 * (maelys-pty-setup), which only its audit writer keeps */
	if (geteuid() == 0 && getuid() != 0)
		return pty_fail(&opt,
				"installed setuid root: it must be setuid "
				"to its audit account, never to root "
				"(run maelys-pty-setup)");
	if (getegid() != getgid() && geteuid() == getuid())
		return pty_fail(
		    &opt, "installed setgid, as an earlier "
			  "maelys-pty-setup left it: run maelys-pty-setup "
			  "again (the guard is now setuid to its audit "
			  "account)");
	privileged = geteuid() != getuid() || getegid() != getgid();
	if (privileged && (opt.config_path != NULL || opt.policy_path != NULL ||
			   opt.shell_path != NULL || opt.path_env != NULL ||
			   opt.history_path != NULL))
		return pty_fail(&opt,
				"options that change the configuration "
				"are for an unprivileged guard; this "
				"one reads only %s",
				pty_config_file);
	if (opt.verify_log != NULL)
		return pty_verify(&opt);

	/* step 2 */
	if (pty_settings(&opt, privileged, &guard, &text, &len, err,
			 sizeof err) != 0) {
		free(text);
		return pty_fail(&opt, "%s", err);
	}
	guard.overridden = opt.policy_path != NULL || opt.shell_path != NULL ||
			   opt.path_env != NULL;
	if (opt.shell_path != NULL)
		(void)snprintf(guard.shell_path, sizeof guard.shell_path, "%s",
			       opt.shell_path);
	if (opt.path_env != NULL)
		(void)snprintf(guard.path_env, sizeof guard.path_env, "%s",
			       opt.path_env);
	pty_sha256_hex(text, len, guard.asess.policy_sha256);
	rc = pty_policy_open_text(guard.policy_path, text, len, &session, err,
				  sizeof err);
	free(text);
	if (rc != 0)
		return pty_fail(&opt, "%s", err);

	/* step 3: the audit writer, then the audit account is gone */
	if (guard.cfg.audit_log[0] != '\0' &&
	    pty_audit_start_writer(guard.cfg.audit_log, guard.cfg.audit_key,
				   &guard.audit, err, sizeof err) != 0) {
		/* a guard started inside a session ($SHELL -c) runs under
		 * NO_NEW_PRIVS, so without its audit account: the outer guard,
		 * whose supervisor decides and records every exec of this
		 * one, keeps the log.  Whether this is such a guard is known
		 * only once its supervisor finds the outer one
		 * (pty_supervise_accept); until then the error waits. */
		if (!pty_supervise_maybe_nested()) {
			rc = pty_fail(&opt, "audit log: %s", err);
			goto out;
		}
		(void)snprintf(guard.audit_missing, sizeof guard.audit_missing,
			       "audit log: %s", err);
	}
	if (privileged && pty_drop_privileges() != 0) {
		rc = pty_fail(&opt, "cannot drop the audit account");
		goto out;
	}

	/* step 4 */
	guard.syslog = guard.cfg.syslog;
	if (pty_decider_init(&decider, session, guard.path_env) != 0) {
		rc = pty_fail(&opt, "cannot name the user of uid %u",
			      (unsigned)getuid());
		goto out;
	}
	(void)snprintf(guard.user, sizeof guard.user, "%s", decider.user);
	(void)snprintf(guard.host, sizeof guard.host, "%s", decider.host);
	(void)snprintf(guard.remote, sizeof guard.remote, "%s",
		       decider.remote_addr);
	if (isatty(STDIN_FILENO) && ttyname(STDIN_FILENO) != NULL)
		(void)snprintf(guard.tty, sizeof guard.tty, "%s",
			       ttyname(STDIN_FILENO));
	if (pty_audit_session_id(guard.asess.id) != 0) {
		rc = pty_fail(&opt, "no randomness for a session id");
		goto out;
	}
	guard.asess.host = guard.host;
	guard.asess.user = guard.user;
	guard.asess.tty = guard.tty;
	guard.asess.remote = guard.remote;
	pty_self_path(self, sizeof self);

	/* sshd's ForceCommand runs the guard itself (as "-c maelys-pty" or
	 * with no -c) and puts the client's request in SSH_ORIGINAL_COMMAND:
	 * that request is what is decided */
	command = opt.command;
	ssh_cmd = getenv("SSH_ORIGINAL_COMMAND");
	if ((command == NULL || pty_names_self(command, self)) &&
	    ssh_cmd != NULL && ssh_cmd[0] != '\0')
		command = ssh_cmd;
	else if (command != NULL && pty_names_self(command, self))
		command = NULL; /* ForceCommand, interactive login */
	guard.asess.mode = command != NULL ? "command" : "interactive";
	if (pty_guard_event(&guard, "session_start",
			    opt.login ? "login" : NULL) != 0) {
		/* every exec is recorded before it runs, the shell's first:
		 * with a log that cannot be written nothing could run, with
		 * "deny" as with "terminate" */
		rc = pty_fail(&opt, "the audit log cannot be written: the "
				    "session does not start");
		goto out;
	}
	pty_guard_log(&guard, LOG_INFO, "session %s of %s started (%s%s%s)",
		      guard.asess.id, guard.user, guard.asess.mode,
		      guard.remote[0] ? " from " : "", guard.remote);
	if (command != NULL) {
		rc = pty_command_run(&guard, &decider, command, self);
	} else {
		struct passwd *pw = getpwuid(getuid());

		history_path = opt.history_path;
		if (history_path == NULL && pw != NULL && pw->pw_dir != NULL &&
		    snprintf(history, sizeof history, "%s/.maelys_pty_history",
			     pw->pw_dir) < (int)sizeof history)
			history_path = history;
		/* no file of the user's configures the guard: not readline's
		 * ~/.inputrc, nor a terminal description in ~/.terminfo, which
		 * ncurses reads from $HOME before the system's (the session's
		 * own HOME comes from the password database,
		 * pty_child_environment) */
		(void)setenv("INPUTRC", "/dev/null", 1);
		(void)setenv("HOME", "/", 1);
		(void)unsetenv("TERMINFO");
		(void)unsetenv("TERMINFO_DIRS");
		rc = pty_relay_run(&guard, &decider, self, history_path);
	}
	(void)pty_guard_event(&guard, "session_end", NULL);
	pty_guard_log(&guard, LOG_INFO, "session %s of %s ended (status %d)",
		      guard.asess.id, guard.user, rc);
out:
	pty_decider_free(&decider);
	pty_audit_close(guard.audit);
	(void)maelys_datalog_session_free(session);
	return rc;
}
