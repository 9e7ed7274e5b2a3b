/* SPDX-License-Identifier: MIT */
/*
 * maelys-pty --check (pty_check.h): the table of checks, the one reporting
 * function, and the checks of the settings, the policy, the shell and
 * Landlock.  Each check asks the same functions a session start asks
 * (pty_config_load, the policy's load, pty_supervise_shell_allowed,
 * pty_landlock_build), so that --check cannot say yes where a session
 * would say no; the audit log's files and the host are in check_audit.c
 * and check_host.c.
 */
#define _GNU_SOURCE /* getresuid, getresgid */
#include "check_internal.h"

#include "pty_audit.h"
#include "pty_decide.h"
#include "pty_line.h"
#include "pty_messages.h"
#include "pty_supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <maelys/datalog_builders.h>

/* The two kinds of session, each decided on its own (session_mode). */
static const enum pty_mode check_modes[] = {PTY_MODE_INTERACTIVE,
					    PTY_MODE_COMMAND};
#define CHECK_MODES (sizeof check_modes / sizeof check_modes[0])

void
check_report(struct check_ctx *c, enum check_level level, const char *fmt, ...)
{
	char msg[2048];
	size_t i;
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* paths come from the policy too: none may drive the terminal */
	for (i = 0; msg[i] != '\0'; i++)
		if ((unsigned char)msg[i] < 0x20 || msg[i] == 0x7f)
			msg[i] = '?';
	fprintf(c->err, "maelys-pty: %s: %s\n",
		level == CHECK_ERROR ? "error" : "warning", msg);
	if (level == CHECK_ERROR)
		c->errors++;
	else
		c->warnings++;
}

void
check_user_name(uid_t uid, char *out, size_t cap)
{
	struct passwd *pw = getpwuid(uid);

	if (pw != NULL && pw->pw_name != NULL && pw->pw_name[0] != '\0')
		(void)snprintf(out, cap, "%s", pw->pw_name);
	else
		(void)snprintf(out, cap, "uid %lu", (unsigned long)uid);
}

/* The guard binary, and from it the audit account (pty_check.h). */
static void
check_self(struct check_ctx *c)
{
	char link[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", link, sizeof link - 1);
	struct passwd *pw;

	if (n > 0)
		link[n] = '\0';
	if (n <= 0 || realpath(link, c->self) == NULL ||
	    stat(c->self, &c->self_st) != 0) {
		c->self[0] = '\0';
		return;
	}
	if ((c->self_st.st_mode & S_ISUID) == 0 || c->self_st.st_uid == 0)
		return;
	c->audit_known = true;
	c->audit_uid = c->self_st.st_uid;
	pw = getpwuid(c->audit_uid);
	c->audit_gid = pw != NULL ? pw->pw_gid : c->self_st.st_gid;
	check_user_name(c->audit_uid, c->audit_name, sizeof c->audit_name);
}

/* The settings: the configuration file, or with --policy none at all
 * (development); --shell and --path replace theirs, as in a session. */
static void
check_configuration(struct check_ctx *c)
{
	char err[1024];

	if (c->opt->policy_path != NULL) {
		pty_config_for_policy_only(&c->cfg, c->opt->policy_path);
		c->policy_path = c->opt->policy_path;
	} else if (pty_config_load(c->source, &c->cfg, err, sizeof err) != 0) {
		check_report(c, CHECK_ERROR, "%s", err);
		return;
	} else {
		c->policy_path = c->cfg.policy;
	}
	c->configured = true;
	if (c->opt->shell_path != NULL)
		(void)snprintf(c->cfg.shell, sizeof c->cfg.shell, "%s",
			       c->opt->shell_path);
	if (c->opt->path_env != NULL)
		(void)snprintf(c->cfg.path_env, sizeof c->cfg.path_env, "%s",
			       c->opt->path_env);
}

/* The policy's text: through the checked descriptor of a configured one,
 * as given with --policy. */
static int
check_policy_text(struct check_ctx *c, char **text, size_t *len, char *err,
		  size_t errlen)
{
	int fd, rc;

	if (c->opt->policy_path == NULL)
		return pty_secure_read(c->policy_path, PTY_POLICY_MAX, text,
				       len, err, errlen);
	fd = open(c->policy_path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		(void)snprintf(err, errlen, "policy %s: %s", c->policy_path,
			       strerror(errno));
		return -1;
	}
	rc = pty_read_whole(fd, c->policy_path, PTY_POLICY_MAX, text, len, err,
			    errlen);
	(void)close(fd);
	return rc;
}

/* The facts of the user whose sessions are checked: the caller's, or with
 * --user those of the user named (pty_check_run checked the name). */
static void
check_decider(struct check_ctx *c)
{
	struct passwd *pw;

	if (pty_decider_init(&c->decider, c->session, &c->reads,
			     c->cfg.path_env) != 0) {
		pty_decider_free(&c->decider);
		check_report(c, CHECK_ERROR,
			     "the user running --check (uid %lu) has no name "
			     "in the password database: no session decides "
			     "anything for them",
			     (unsigned long)getuid());
		return;
	}
	c->who = "the user running --check";
	if (c->opt->check_user != NULL) {
		pw = getpwnam(c->opt->check_user);
		if (pty_identity_set_user(&c->decider.who, pw) != 0) {
			pty_decider_free(&c->decider);
			check_report(c, CHECK_ERROR, "--user %s: no such user",
				     c->opt->check_user);
			return;
		}
		c->who = "named with --user";
	}
	c->have_decider = true;
}

/* One warning of the policy (pty_policy_warnings): a warning line, or
 * with --werror an error line. */
static void
check_policy_warning(void *arg, const struct pty_policy_warning *w)
{
	struct check_ctx *c = arg;

	check_report(c, c->opt->werror ? CHECK_ERROR : CHECK_WARNING,
		     "%s:%zu:%zu: %s%s", w->source, w->line, w->column, w->what,
		     c->opt->werror ? " (--werror)" : "");
}

static void
check_policy(struct check_ctx *c)
{
	char err[1024], *text = NULL;
	maelys_datalog_policy_t *policy = NULL;
	size_t len = 0;

	if (!c->configured)
		return;
	if (check_policy_text(c, &text, &len, err, sizeof err) != 0) {
		check_report(c, CHECK_ERROR, "%s", err);
		return;
	}
	pty_sha256_hex(text, len, c->policy_sha256);
	/* the load a session makes (pty_policy_open_text), with the policy
	 * handed back for its warnings */
	if (pty_policy_open_for_tool(c->policy_path, text, len, 0, &c->session,
				     &policy, &c->reads, err,
				     sizeof err) != 0) {
		check_report(c, CHECK_ERROR, "%s", err);
		c->session = NULL;
	}
	free(text);
	(void)pty_policy_warnings(policy, check_policy_warning, c);
	(void)maelys_datalog_policy_free(policy);
	if (c->session != NULL)
		check_decider(c);
}

/* The shell as the supervisor resolves it (realpath, pty_supervise_setup):
 * it must exist and be a regular file with an execute bit. */
static void
check_shell(struct check_ctx *c)
{
	struct stat st;

	if (!c->configured)
		return;
	if (realpath(c->cfg.shell, c->shell) == NULL ||
	    stat(c->shell, &st) != 0) {
		check_report(
		    c, CHECK_ERROR,
		    "%s: shell = %s: %s: set shell to the path of bash",
		    c->source, c->cfg.shell, strerror(errno));
		c->shell[0] = '\0';
	} else if (!S_ISREG(st.st_mode)) {
		check_report(c, CHECK_ERROR,
			     "%s: shell = %s: not a regular file: set shell to "
			     "the path of bash",
			     c->source, c->cfg.shell);
		c->shell[0] = '\0';
	} else if ((st.st_mode & 0111) == 0) {
		check_report(c, CHECK_ERROR,
			     "%s: shell = %s: not executable (mode %04o): "
			     "chmod 0755 %s",
			     c->source, c->cfg.shell,
			     (unsigned)(st.st_mode & 07777), c->shell);
		c->shell[0] = '\0';
	}
}

/* Whether the policy lets the shell start in `mode`: the supervisor's own
 * question, with the arguments a session passes in that mode
 * (pty_spawn_argv; -c: bash -c with its lock-down line, here with the
 * command "true"). */
static void
check_shell_start_in(struct check_ctx *c, enum pty_mode mode)
{
	static char script[PTY_SPAWN_SCRIPT_MAX];
	char *argv[PTY_SPAWN_ARGV_MAX], err[1024];
	struct pty_supervisor s;

	(void)pty_spawn_argv(mode == PTY_MODE_COMMAND ? "true" : NULL, script,
			     argv);
	pty_supervise_init(&s);
	s.decider = &c->decider;
	s.mode = mode;
	if ((s.first = malloc(sizeof *s.first)) == NULL) {
		check_report(c, CHECK_ERROR, "out of memory");
		return;
	}
	if (pty_supervise_shell_allowed(&s, c->cfg.shell, argv,
					c->cfg.exec_decisions_optional, err,
					sizeof err) != 0)
		check_report(c, CHECK_ERROR, "%s: %s sessions of %s (%s): %s",
			     c->policy_path, pty_mode_name(mode),
			     c->decider.who.user, c->who, err);
	pty_supervise_close(&s);
}

static void
check_shell_start(struct check_ctx *c)
{
	char err[512];
	size_t i;

	if (!c->have_decider || c->shell[0] == '\0' || c->self[0] == '\0')
		return;
	if (pty_exec_set_programs(&c->decider, c->shell, c->self) != 0) {
		check_report(c, CHECK_ERROR, "%s: the shell's path is too long",
			     c->source);
		return;
	}
	switch (pty_supervise_execs_decided(&c->decider,
					    c->cfg.exec_decisions_optional, err,
					    sizeof err)) {
	case -1:
		check_report(c, CHECK_ERROR, "%s: %s", c->policy_path, err);
		return;
	case 0:
		/* allowed by the configuration, and worth knowing */
		check_report(c, CHECK_WARNING, "%s: %s", c->policy_path,
			     PTY_MSG_CHECK_EXECS_UNDECIDED);
		return;
	default:
		break;
	}
	for (i = 0; i < CHECK_MODES; i++)
		check_shell_start_in(c, check_modes[i]);
}

/* The locations that do not exist, each said once across the modes. */
struct check_missing {
	struct check_ctx *c;
	char *said[2 * PTY_LANDLOCK_PATHS_MAX];
	size_t nsaid;
};

static int
check_visit_missing(void *arg, const char *pred, const char *path, char *err,
		    size_t errlen)
{
	struct check_missing *m = arg;
	struct stat st;
	size_t i;

	(void)err;
	(void)errlen;
	if (stat(path, &st) == 0 || (errno != ENOENT && errno != ENOTDIR))
		return 0; /* there, or pty_landlock_build says what is wrong */
	for (i = 0; i < m->nsaid; i++)
		if (strcmp(m->said[i], path) == 0)
			return 0;
	if (m->nsaid < sizeof m->said / sizeof m->said[0] &&
	    (m->said[m->nsaid] = strdup(path)) != NULL)
		m->nsaid++;
	check_report(m->c, CHECK_WARNING,
		     "%s: %s(\"%s\") does not exist: it is left out of the "
		     "Landlock ruleset, and nothing there can run (create it, "
		     "or drop the rule)",
		     m->c->policy_path, pred, path);
	return 0;
}

static void
check_landlock_missing(struct check_ctx *c)
{
	struct check_missing m = {.c = c, .nsaid = 0};
	char err[1024];
	size_t i, n;

	for (i = 0; i < CHECK_MODES; i++)
		(void)pty_landlock_locations(&c->decider, check_modes[i],
					     check_visit_missing, &m, &n, err,
					     sizeof err);
	for (i = 0; i < m.nsaid; i++)
		free(m.said[i]);
}

/* The ruleset as each kind of session builds it (pty_landlock_build, which
 * also enforces landlock = required); a failure the same in both modes is
 * one line. */
static void
check_landlock(struct check_ctx *c)
{
	const char *extra[2] = {c->shell, c->self};
	char err[CHECK_MODES][1024], note[256];
	int rc[CHECK_MODES], fd;
	size_t i;

	/* without a shell or a guard path the rest is still checked: "" is
	 * an extra location pty_landlock_build skips */
	if (!c->have_decider)
		return;
	for (i = 0; i < CHECK_MODES; i++) {
		rc[i] =
		    pty_landlock_build(&c->decider, check_modes[i], extra, 2,
				       c->cfg.landlock_required, &fd, note,
				       sizeof note, err[i], sizeof err[i]);
		if (fd >= 0)
			(void)close(fd);
	}
	if (rc[0] != 0 && rc[1] != 0 && strcmp(err[0], err[1]) == 0)
		check_report(c, CHECK_ERROR, "%s: %s", c->source, err[0]);
	else
		for (i = 0; i < CHECK_MODES; i++)
			if (rc[i] != 0)
				check_report(c, CHECK_ERROR,
					     "%s: %s sessions: %s", c->source,
					     pty_mode_name(check_modes[i]),
					     err[i]);
	if (note[0] != '\0')
		check_report(c, CHECK_WARNING, "%s (landlock = auto)", note);
	check_landlock_missing(c);
}

/* Whether the policy's allow_exec allows `path` typed alone at the
 * prompt (argv its last name, started by the session's shell): what --list
 * asks of a line, asked of a program. */
static bool
check_allows_alone(struct check_ctx *c, enum pty_mode mode, const char *path,
		   struct pty_exec_request *r)
{
	maelys_datalog_result_t *res = NULL;
	struct pty_exec_decision dec;
	const char *base = strrchr(path, '/');
	maelys_datalog_arg_t k;
	int yes = 0;

	base = base != NULL ? base + 1 : path;
	memset(r, 0, offsetof(struct pty_exec_request, bytes));
	(void)snprintf(r->path, sizeof r->path, "%s", path);
	(void)snprintf(r->request, sizeof r->request, "%s", path);
	(void)snprintf(r->parent, sizeof r->parent, "%s", c->shell);
	(void)snprintf(r->cwd, sizeof r->cwd, "%s", c->decider.cwd);
	(void)snprintf(r->bytes, sizeof r->bytes, "%s", base);
	r->argv[0] = r->bytes;
	r->argv_len[0] = strlen(r->bytes);
	r->argc = 1;
	pty_exec_decide_keep(&c->decider, r, mode, &dec, &res);
	k = maelys_datalog_arg_symbol_n(path, strlen(path));
	if (res == NULL ||
	    maelys_datalog_result_query(res, "allow_exec", &k, 1, &yes) !=
		MAELYS_DATALOG_STATUS_OK)
		yes = 0;
	(void)maelys_datalog_result_free(res);
	return yes != 0;
}

/* exec_never, as each kind of session finds it (pty_landlock_never_find):
 * a file it holds for that also has a name no folder the guard reads shows
 * (the kernel would execute it by that name), and one that allow_exec allows
 * typed alone (the two disagree: exec_never wins, and the program never
 * runs).  What cannot be found is pty_landlock_build's to say. */
static void
check_never(struct check_ctx *c)
{
	struct pty_exec_request *r;
	struct pty_landlock_never set;
	char err[1024];
	size_t i, k;

	if (!c->have_decider || !pty_never_defined(&c->decider))
		return;
	r = malloc(sizeof *r);
	if (r == NULL)
		return;
	for (i = 0; i < CHECK_MODES; i++) {
		if (pty_landlock_never_find(&c->decider, check_modes[i], NULL,
					    0, &set, err, sizeof err) != 0)
			continue;
		if (set.unseen[0] != '\0')
			check_report(c, CHECK_WARNING,
				     "%s: exec_never holds for %s, which has a "
				     "name (a hard link) in a folder the guard "
				     "does not read: the kernel would execute "
				     "it by that name in %s sessions",
				     c->policy_path, set.unseen,
				     pty_mode_name(check_modes[i]));
		for (k = 0; k < set.n; k++)
			if (check_allows_alone(c, check_modes[i],
					       set.files[k].path, r))
				check_report(c, CHECK_WARNING,
					     "%s: allow_exec allows %s typed "
					     "alone in %s sessions, and "
					     "exec_never holds for it: "
					     "exec_never wins, it never runs",
					     c->policy_path, set.files[k].path,
					     pty_mode_name(check_modes[i]));
		pty_landlock_never_free(&set);
	}
	free(r);
}

/* The checks, in order; each reads what the ones before it established
 * (check_internal.h) and reports through check_report.  A new check is
 * one function and one entry. */
static void (*const check_table[])(struct check_ctx *) = {
    check_configuration, check_policy,       check_shell,     check_shell_start,
    check_landlock,      check_never,        check_audit_folder,
    check_audit_log,     check_audit_key,
    check_audit_verify_key,
    check_guard,         check_mounts,       check_yama,      check_links,
    check_log_disk,      check_record_folder,
};

/* What the invocation itself may not ask (pty_check.h).  Returns 0, or -1
 * after its line. */
static int
check_invocation(const struct pty_options *opt, FILE *err)
{
	uid_t ruid = getuid();
	bool privileged = geteuid() != ruid || getegid() != getgid();

	if (opt->check_user != NULL && ruid != 0) {
		fprintf(err, "maelys-pty: error: --user is for root (without "
			     "it, --check decides for the user running it)\n");
		return -1;
	}
	if (privileged && ruid != 0 &&
	    (opt->config_path != NULL || opt->policy_path != NULL ||
	     opt->shell_path != NULL || opt->path_env != NULL)) {
		fprintf(err,
			"maelys-pty: error: this guard is installed setuid or "
			"setgid: only root may check it with --config, "
			"--policy, --shell or --path; it reads only %s\n",
			pty_config_file);
		return -1;
	}
	return 0;
}

int
pty_check_run(const struct pty_options *opt, FILE *out, FILE *err)
{
	static struct check_ctx c; /* large (paths, the decider): not on the
				      stack */
	size_t i;

	if (check_invocation(opt, err) != 0)
		return 1;
	memset(&c, 0, sizeof c);
	c.opt = opt;
	c.err = err;
	c.source = opt->policy_path != NULL   ? "(no configuration)"
		   : opt->config_path != NULL ? opt->config_path
					      : pty_config_file;
	check_self(&c);
	for (i = 0; i < sizeof check_table / sizeof check_table[0]; i++)
		check_table[i](&c);
	fflush(err);
	if (c.errors == 0)
		fprintf(out,
			"maelys-pty: check: ok, %u warning%s: a session can "
			"start (%s, policy %s, sha256 %s)\n",
			c.warnings, c.warnings == 1 ? "" : "s", c.source,
			c.policy_path, c.policy_sha256);
	else
		fprintf(out,
			"maelys-pty: check: %u error%s, %u warning%s: no "
			"session can start\n",
			c.errors, c.errors == 1 ? "" : "s", c.warnings,
			c.warnings == 1 ? "" : "s");
	if (c.have_decider)
		pty_decider_free(&c.decider);
	(void)maelys_datalog_session_free(c.session);
	return c.errors == 0 ? 0 : 1;
}
