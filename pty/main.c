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
 *
 * Two answers start no session: a policy author's tool (`maelys-pty test`,
 * `maelys-pty explain`, `maelys-pty decide`, pty_tools.h), run when the
 * first argument names one, after every privilege is dropped (decide, with
 * the configuration's audit log, starts its writer as step 3 does first);
 * and --list, after step 2, with the privileges dropped before anything is
 * decided.
 */
#include "pty_audit.h"
#include "pty_check.h"
#include "pty_decide.h"
#include "pty_line.h"
#include "pty_mayrun.h"
#include "pty_messages.h"
#include "pty_session.h"
#include "pty_supervise.h"
#include "pty_tools.h"

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
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <syslog.h>
#include <unistd.h>

#ifndef PTY_VERSION
#define PTY_VERSION "0.1.0"
#endif

/* --verify-log FILE...: files of one log at most (years of daily
 * rotation) */
#define PTY_VERIFY_FILES_MAX 1024

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
	fprintf(stderr, PTY_MSG_FAILED "\n", msg);
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
	const char *files[1 + PTY_VERIFY_FILES_MAX];
	const char *state = opt->state_path;
	char err[1024];
	size_t i;
	int fd;

	/* the log is checked with the caller's own rights (root reads it) */
	if (pty_drop_privileges() != 0)
		return pty_fail(opt, PTY_MSG_CANNOT_DROP);
	if (pty_config_load(path, &cfg, err, sizeof err) != 0) {
		(void)pty_fail(opt, "%s", err);
		return 2;
	}
	if (cfg.audit_verify_key[0] == '\0') {
		(void)pty_fail(opt, PTY_MSG_NO_VERIFY_KEY, path);
		return 2;
	}
	if (opt->nverify_more >= PTY_VERIFY_FILES_MAX) {
		(void)pty_fail(opt, PTY_MSG_VERIFY_TOO_MANY,
			       PTY_VERIFY_FILES_MAX);
		return 2;
	}
	files[0] = opt->verify_log;
	for (i = 0; i < opt->nverify_more; i++)
		files[1 + i] = opt->verify_more[i];
	/* the configured state when the caller may read it (root, the
	 * audit account); --state FILE must be readable */
	if (state == NULL && cfg.audit_key[0] != '\0' &&
	    (fd = open(cfg.audit_key, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
					  O_NOCTTY | O_NONBLOCK)) >= 0) {
		(void)close(fd);
		state = cfg.audit_key;
	}
	return pty_audit_verify_files(files, 1 + opt->nverify_more,
				      cfg.audit_verify_key, state, stdout);
}

/* --new-audit-key PUB --state FILE: a new log's keys, made with the
 * caller's own rights (maelys-pty-setup runs it as root, then gives the
 * state to the audit account). */
static int
pty_new_audit_key(const struct pty_options *opt)
{
	char err[1024], fpr[64];

	if (pty_drop_privileges() != 0)
		return pty_fail(opt, PTY_MSG_CANNOT_DROP);
	if (pty_audit_keygen(opt->state_path, opt->new_audit_key, fpr, err,
			     sizeof err) != 0) {
		(void)pty_fail(opt, "%s", err);
		return 2;
	}
	printf(PTY_MSG_NEW_AUDIT_KEY, opt->state_path, opt->new_audit_key, fpr,
	       opt->new_audit_key);
	return 0;
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

		pty_config_for_policy_only(&g->cfg, opt->policy_path);
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
	return pty_secure_read(g->cfg.policy, PTY_POLICY_MAX, text, len, err,
			       errlen);
}

/* What main's steps share. */
struct pty_main {
	int argc;
	char **argv;
	struct pty_options opt;
	bool privileged; /* installed setuid to the audit account */
	struct pty_guard guard;
	struct pty_decider decider; /* zero: pty_decider_free is safe */
	maelys_datalog_session_t *session;
	struct pty_policy_reads reads; /* what the policy reads */
	char self[PATH_MAX];           /* this program, the session's SHELL */
	const char *command; /* what -c (or sshd) asks, NULL: interactive */
	bool started;        /* the session_start record is written */
};

/* A step's answer: go on to the next step, or exit with a status. */
#define PTY_GO_ON (-1)

/* The command line, and what it answers without a session: --help,
 * --version, --check, --verify-log; and the installation's rules. */
static int
pty_step_options(struct pty_main *m)
{
	struct pty_options *opt = &m->opt;
	int rc = pty_options_parse(m->argc, m->argv, opt, stderr);
	const char *why;

	if (rc != 0)
		return rc;
	if (opt->help) {
		pty_options_usage(stdout);
		return 0;
	}
	if (opt->version) {
		printf(PTY_MSG_VERSION, PTY_VERSION, maelys_datalog_version());
		return 0;
	}
	/* before the identity rules of a session: --check reports them */
	if (opt->check)
		return pty_check_run(opt, stdout, stderr);
	if (pty_privileges_of_install(&m->privileged, &why) != 0)
		return pty_fail(opt, "%s", why);
	if (m->privileged &&
	    (opt->config_path != NULL || opt->policy_path != NULL ||
	     opt->shell_path != NULL || opt->path_env != NULL ||
	     opt->history_path != NULL))
		return pty_fail(opt, PTY_MSG_PRIVILEGED_OPTIONS,
				pty_config_file);
	if (opt->verify_log != NULL)
		return pty_verify(opt);
	if (opt->new_audit_key != NULL)
		return pty_new_audit_key(opt);
	return PTY_GO_ON;
}

/* Step 2: the settings, and the policy loaded. */
static int
pty_step_policy(struct pty_main *m)
{
	const struct pty_options *opt = &m->opt;
	struct pty_guard *g = &m->guard;
	const struct {
		const char *name, *value;
		size_t cap;
	} given[] = {
	    {"--shell", opt->shell_path, sizeof g->cfg.shell},
	    {"--path", opt->path_env, sizeof g->cfg.path_env},
	};
	char err[1024], *text = NULL;
	size_t len = 0, i;
	int rc;

	if (pty_settings(opt, m->privileged, g, &text, &len, err, sizeof err) !=
	    0) {
		free(text);
		return pty_fail(opt, "%s", err);
	}
	g->overridden = opt->policy_path != NULL || opt->shell_path != NULL ||
			opt->path_env != NULL;
	/* a value cut to fit would be another shell, another PATH */
	for (i = 0; i < sizeof given / sizeof given[0]; i++)
		if (given[i].value != NULL &&
		    strlen(given[i].value) >= given[i].cap) {
			free(text);
			return pty_fail(opt, PTY_MSG_OPTION_TOO_LONG,
					given[i].name, given[i].cap - 1);
		}
	if (opt->shell_path != NULL)
		(void)snprintf(g->cfg.shell, sizeof g->cfg.shell, "%s",
			       opt->shell_path);
	if (opt->path_env != NULL)
		(void)snprintf(g->cfg.path_env, sizeof g->cfg.path_env, "%s",
			       opt->path_env);
	pty_sha256_hex(text, len, g->asess.policy_sha256);
	rc = pty_policy_open_text(g->cfg.policy, text, len, &m->session,
				  &m->reads, err, sizeof err);
	free(text);
	return rc != 0 ? pty_fail(opt, "%s", err) : PTY_GO_ON;
}

/* --list: what may I run, for the caller, as a session of theirs would
 * decide it (the settings and policy of step 2, the caller's user,
 * groups, directory, clock and SSH_CONNECTION; the interactive mode, the
 * one `help` answers in).  No audit writer starts: nothing runs and no
 * session starts, as with --check; the caller's rights are enough. */
static int
pty_step_list(struct pty_main *m)
{
	struct pty_runnable list;
	bool tty = isatty(STDOUT_FILENO);
	struct winsize ws;

	if (!m->opt.list)
		return PTY_GO_ON;
	if (m->privileged && pty_drop_privileges() != 0)
		return pty_fail(&m->opt, PTY_MSG_CANNOT_DROP);
	if (pty_decider_init(&m->decider, m->session, &m->reads,
			     m->guard.cfg.path_env) != 0)
		return pty_fail(&m->opt, PTY_MSG_UNNAMED_USER,
				(unsigned)getuid());
	/* the names' widths in the user's terminal */
	pty_columns_locale();
	if (pty_runnable_list(&m->decider, PTY_MODE_INTERACTIVE, &list) != 0) {
		pty_say(STDERR_FILENO, "\n", PTY_MSG_RUNNABLE_FAILED);
		return 1;
	}
	if (tty &&
	    (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0))
		ws.ws_col = 80;
	pty_say_runnable(&list, STDOUT_FILENO, "\n", tty ? ws.ws_col : 0);
	/* one name a line for a program to read: that it is cut goes to
	 * stderr (on a terminal the list says it) */
	if (!tty && list.truncated)
		pty_say(STDERR_FILENO, "\n", PTY_MSG_PREFIX PTY_MSG_RUNNABLE_CUT,
			PTY_RUNNABLE_MAX, PTY_RUNNABLE_ENTRIES_MAX,
			PTY_RUNNABLE_DIRS_MAX);
	pty_runnable_free(&list);
	return 0;
}

/* Step 3: the audit writer, then the audit account is gone (account.c,
 * as for `maelys-pty decide`). */
static int
pty_step_audit(struct pty_main *m)
{
	struct pty_guard *g = &m->guard;
	char err[1100];
	int rc = pty_guard_start_audit(g, m->privileged, err, sizeof err);

	if (rc < 0)
		return pty_fail(&m->opt, "%s", err);
	if (rc > 0) {
		/* a guard started inside a session ($SHELL -c) runs under
		 * NO_NEW_PRIVS, so without its audit account: the outer guard,
		 * whose supervisor decides and records every exec of this
		 * one, keeps the log.  Whether this is such a guard is known
		 * only once its supervisor finds the outer one
		 * (pty_supervise_accept); until then the error waits. */
		if (!pty_supervise_maybe_nested())
			return pty_fail(&m->opt, "%s", err);
		(void)snprintf(g->audit_missing, sizeof g->audit_missing, "%s",
			       err);
	}
	return PTY_GO_ON;
}

/* Step 4: who the session is, and what it runs: the user's -c command,
 * the client's request under sshd's ForceCommand, or the interactive
 * session. */
static int
pty_step_identity(struct pty_main *m)
{
	struct pty_guard *g = &m->guard;
	const char *ssh_cmd;

	if (pty_decider_init(&m->decider, m->session, &m->reads,
			     g->cfg.path_env) != 0)
		return pty_fail(&m->opt, PTY_MSG_UNNAMED_USER,
				(unsigned)getuid());
	if (g->audit != NULL)
		pty_decider_records(&m->decider);
	pty_guard_set_identity(g, &m->decider.who);
	if (pty_audit_session_id(g->asess.id) != 0)
		return pty_fail(&m->opt, PTY_MSG_NO_RANDOMNESS);
	pty_self_path(m->self, sizeof m->self);
	/* sshd's ForceCommand runs the guard itself (as "-c maelys-pty" or
	 * with no -c) and puts the client's request in SSH_ORIGINAL_COMMAND:
	 * that request is what is decided */
	m->command = m->opt.command;
	ssh_cmd = getenv("SSH_ORIGINAL_COMMAND");
	if ((m->command == NULL || pty_names_self(m->command, m->self)) &&
	    ssh_cmd != NULL && ssh_cmd[0] != '\0')
		m->command = ssh_cmd;
	else if (m->command != NULL && pty_names_self(m->command, m->self))
		m->command = NULL; /* ForceCommand, interactive login */
	g->asess.mode = pty_mode_name(
	    m->command != NULL ? PTY_MODE_COMMAND : PTY_MODE_INTERACTIVE);
	return PTY_GO_ON;
}

/* Step 5: the session_start record; no session without it. */
static int
pty_step_start(struct pty_main *m)
{
	struct pty_guard *g = &m->guard;

	if (pty_guard_event(g, "session_start",
			    m->opt.login ? "login" : NULL) != 0)
		/* every exec is recorded before it runs, the shell's first:
		 * with a log that cannot be written nothing could run, with
		 * "deny" as with "terminate" */
		return pty_fail(&m->opt, PTY_MSG_NO_START_RECORD);
	m->started = true;
	pty_guard_log(g, LOG_INFO, "session %s of %s started (%s%s%s)",
		      g->asess.id, g->who->user, g->asess.mode,
		      g->who->remote_addr[0] ? " from " : "",
		      g->who->remote_addr);
	if (m->reads.execs_undecided && g->cfg.exec_decisions_optional)
		pty_guard_log(g, LOG_NOTICE,
			      "session %s: the policy defines no allow_exec: "
			      "programs are recorded, not decided",
			      g->asess.id);
	return PTY_GO_ON;
}

/* Step 6: the -c command or the interactive session; its status is the
 * program's. */
static int
pty_step_session(struct pty_main *m)
{
	const char *history_path = m->opt.history_path;
	struct passwd *pw;
	char history[PATH_MAX];

	if (m->command != NULL) {
		/* a refusal's column counts characters (pty_say_where) */
		pty_columns_locale();
		return pty_command_run(&m->guard, &m->decider, m->command,
				       m->self);
	}
	/* once, before the first prompt: what this session does not do
	 * (a -c command's output belongs to the program that asked) */
	if (m->reads.execs_undecided && m->guard.cfg.exec_decisions_optional)
		fprintf(stderr, PTY_MSG_EXECS_UNDECIDED_NOTE "\n");
	pw = getpwuid(getuid());
	if (history_path == NULL && pw != NULL && pw->pw_dir != NULL &&
	    snprintf(history, sizeof history, "%s/.maelys_pty_history",
		     pw->pw_dir) < (int)sizeof history)
		history_path = history;
	/* no file of the user's configures the guard: not readline's
	 * ~/.inputrc, nor a terminal description in ~/.terminfo, which
	 * ncurses reads from $HOME before the system's (the session's own
	 * HOME comes from the password database, pty_spawn_environment) */
	(void)setenv("INPUTRC", "/dev/null", 1);
	(void)setenv("HOME", "/", 1);
	(void)unsetenv("TERMINFO");
	(void)unsetenv("TERMINFO_DIRS");
	return pty_relay_run(&m->guard, &m->decider, m->self, history_path);
}

/* After the session, or a step that failed: the session_end record (once
 * the session started), and everything freed. */
static void
pty_finish(struct pty_main *m, int rc)
{
	if (m->started) {
		(void)pty_guard_event(&m->guard, "session_end", NULL);
		pty_guard_log(&m->guard, LOG_INFO,
			      "session %s of %s ended (status %d)",
			      m->guard.asess.id, m->guard.who->user, rc);
	}
	pty_decider_free(&m->decider);
	pty_guard_close(&m->guard);
	(void)maelys_datalog_session_free(m->session);
}

int
main(int argc, char **argv)
{
	static int (*const steps[])(struct pty_main *) = {
	    pty_step_options, pty_step_policy,   pty_step_list,
	    pty_step_audit,   pty_step_identity, pty_step_start,
	    pty_step_session,
	};
	/* static: the guard and the decider hold a few hundred KiB of
	 * buffers, more than a stack should take; zero as it starts */
	static struct pty_main m;
	size_t i;
	int rc = PTY_GO_ON;

	/* the session must not read or trace this process's memory */
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	/* a file-size limit the user lowered must make an audit write fail
	 * (EFBIG: the line is denied), not kill the guard */
	(void)signal(SIGXFSZ, SIG_IGN);
	openlog("maelys-pty", LOG_PID, LOG_AUTHPRIV);
	if (argc > 1 && pty_tool_find(argv[1]) != NULL) {
		const struct pty_tool *t = pty_tool_find(argv[1]);

		/* a tool reads with the caller's rights, never the audit
		 * account's or the group's the program is installed with;
		 * one that keeps an audit log (decide) starts its writer
		 * first and drops them itself (pty_tools.h) */
		if (!t->keeps_privileges && pty_drop_privileges() != 0) {
			fprintf(stderr, PTY_MSG_FAILED "\n", PTY_MSG_CANNOT_DROP);
			return 1;
		}
		return t->run(argc - 1, argv + 1);
	}
	m.argc = argc;
	m.argv = argv;
	for (i = 0; i < sizeof steps / sizeof steps[0] && rc == PTY_GO_ON; i++)
		rc = steps[i](&m);
	pty_finish(&m, rc);
	return rc;
}
