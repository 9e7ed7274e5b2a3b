/* SPDX-License-Identifier: MIT */
/*
 * What the deciding tools share (pty_tool_common.h): the policy's text,
 * the facts given in place of the caller's, the programs and the exec
 * request.  `explain` and `decide` both set them here.
 */
#include "pty_messages.h"
#include "pty_tool_common.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
tool_copy(char *dst, size_t cap, const char *src)
{
	(void)snprintf(dst, cap, "%s", src);
}

int
pty_tool_policy_text(const char *policy_path, const char *config_path,
		     struct pty_config *cfg, char **text, size_t *len,
		     const char **name, char *err, size_t errlen)
{
	int fd, rc;

	pty_config_defaults(cfg);
	if (policy_path != NULL) {
		/* the settings of `maelys-pty --policy FILE` */
		pty_config_for_policy_only(cfg, policy_path);
		*name = policy_path;
		fd = open(policy_path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0) {
			(void)snprintf(err, errlen, "policy %s: %s",
				       policy_path, strerror(errno));
			return -1;
		}
		rc = pty_read_whole(fd, policy_path, PTY_POLICY_MAX, text, len,
				    err, errlen);
		(void)close(fd);
		return rc;
	}
	if (pty_config_load(config_path != NULL ? config_path
						: pty_config_file,
			    cfg, err, errlen) != 0)
		return -1;
	*name = cfg->policy;
	return pty_secure_read(cfg->policy, PTY_POLICY_MAX, text, len, err,
			       errlen);
}

bool
pty_tool_time_ok(const char *t)
{
	return strlen(t) == 5 && t[0] >= '0' && t[0] <= '2' && t[1] >= '0' &&
	       t[1] <= '9' && (t[0] < '2' || t[1] <= '3') && t[2] == ':' &&
	       t[3] >= '0' && t[3] <= '5' && t[4] >= '0' && t[4] <= '9';
}

int
pty_tool_facts_apply(struct pty_decider *d, const struct pty_tool_facts *f,
		     char *err, size_t errlen)
{
	struct pty_identity *who = &d->who;
	size_t i;

	if (f->user != NULL) {
		struct passwd *pw = getpwnam(f->user);

		/* a user of this machine: its groups; another: none, unless
		 * groups are given */
		if (pw == NULL || pty_identity_set_user(who, pw) != 0)
			who->ngroups = 0;
		tool_copy(who->user, sizeof who->user, f->user);
	}
	if (f->ngroups > 0) {
		who->ngroups = 0;
		for (i = 0; i < f->ngroups && i < PTY_TOOL_GROUPS_MAX; i++)
			tool_copy(who->groups[who->ngroups++], PTY_TEXT_MAX,
				  f->groups[i]);
	}
	tool_copy(who->remote_addr, sizeof who->remote_addr,
		  f->remote != NULL ? f->remote : "");
	if (f->host != NULL)
		tool_copy(who->host, sizeof who->host, f->host);
	if (f->cwd != NULL)
		pty_decider_set_cwd(d, f->cwd);
	if (f->time != NULL)
		tool_copy(d->time_of_day, sizeof d->time_of_day, f->time);
	if (who->user[0] == '\0') {
		(void)snprintf(err, errlen, PTY_MSG_EXPLAIN_UNKNOWN_USER,
			       (unsigned)getuid());
		return -1;
	}
	return 0;
}

int
pty_tool_programs(struct pty_decider *d, const struct pty_config *cfg,
		  const char *shell_opt, const char *guard, char *err,
		  size_t errlen)
{
	char shell[PATH_MAX], self[PATH_MAX];
	ssize_t n;

	if (shell_opt != NULL)
		tool_copy(shell, sizeof shell, shell_opt);
	else if (realpath(cfg->shell, shell) == NULL) {
		(void)snprintf(err, errlen, PTY_MSG_EXPLAIN_NO_SHELL,
			       cfg->shell, strerror(errno));
		return -1;
	}
	if (guard != NULL) {
		tool_copy(self, sizeof self, guard);
	} else {
		n = readlink("/proc/self/exe", self, sizeof self - 1);
		if (n <= 0)
			n = 0;
		self[n] = '\0';
	}
	if (pty_exec_set_programs(d, shell, self) != 0) {
		(void)snprintf(err, errlen, PTY_MSG_EXPLAIN_PATH_TOO_LONG,
			       shell);
		return -1;
	}
	return 0;
}

int
pty_tool_exec_request(const struct pty_decider *d,
		      const struct pty_tool_exec *x, struct pty_exec_request *r,
		      char *err, size_t errlen)
{
	const char *base, *asked = x->request != NULL ? x->request : x->exec;
	const char *const *argv = x->argv;
	char opened[PATH_MAX];
	size_t i, used = 0;

	memset(r, 0, offsetof(struct pty_exec_request, argv));
	if (x->argc > PTY_EXEC_ARGS_MAX ||
	    pty_path_normalise(d->cwd, asked, r->request, sizeof r->request) !=
		0 ||
	    pty_path_normalise(d->cwd, x->exec, opened, sizeof opened) != 0 ||
	    (x->through != NULL &&
	     strlen(x->through) >= sizeof r->through)) {
		(void)snprintf(err, errlen, PTY_MSG_EXPLAIN_PATH_TOO_LONG,
			       x->exec);
		return -1;
	}
	/* the program is always resolved here, as the supervisor resolves
	 * what the kernel opened: the request names it as asked */
	if (realpath(opened, r->path) == NULL)
		tool_copy(r->path, sizeof r->path, opened);
	tool_copy(r->cwd, sizeof r->cwd, d->cwd);
	tool_copy(r->parent, sizeof r->parent,
		  x->parent != NULL ? x->parent : d->shell_program);
	r->via = x->via;
	tool_copy(r->through, sizeof r->through,
		  x->through != NULL ? x->through : "");
	base = strrchr(r->request, '/');
	base = base != NULL && base[1] != '\0' ? base + 1 : r->request;
	r->argc = argv != NULL ? x->argc : 1;
	for (i = 0; i < r->argc; i++) {
		const char *w = argv != NULL ? argv[i] : base;
		size_t n = strlen(w);

		if (n >= sizeof r->bytes - used) {
			(void)snprintf(err, errlen,
				       PTY_MSG_EXPLAIN_PATH_TOO_LONG, w);
			return -1;
		}
		memcpy(r->bytes + used, w, n + 1);
		r->argv[i] = r->bytes + used;
		r->argv_len[i] = n;
		used += n + 1;
	}
	return 0;
}
