/* SPDX-License-Identifier: MIT */
/*
 * The exec supervisor's life cycle (pty_supervise.h): preparing in the
 * guard, installing in the child, handing the listener over, and answering
 * each notification.
 */
#define _GNU_SOURCE
#include "pty_supervise.h"

#include "pty_decide.h"
#include "pty_messages.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <syslog.h>
#include <unistd.h>

/* What the child reports over the socketpair: a stage and an errno. */
enum {
	SUPERVISE_OK = 0,     /* the listener is attached (SCM_RIGHTS) */
	SUPERVISE_NESTED = 1, /* an outer guard's filter answered EEXIST */
	SUPERVISE_FAIL_NNP = 2,
	SUPERVISE_FAIL_LANDLOCK = 3,
	SUPERVISE_FAIL_SECCOMP = 4,
	SUPERVISE_FAIL_SEND = 5,
};

struct supervise_report {
	int32_t stage;
	int32_t err;
};

bool
pty_supervise_maybe_nested(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	bool nnp = false, filter = false;

	if (f == NULL)
		return false;
	while (fgets(line, sizeof line, f) != NULL) {
		if (strcmp(line, "NoNewPrivs:\t1\n") == 0)
			nnp = true;
		else if (strcmp(line, "Seccomp:\t2\n") == 0)
			filter = true;
	}
	(void)fclose(f);
	return nnp && filter;
}

void
pty_supervise_init(struct pty_supervisor *s)
{
	memset(s, 0, sizeof *s);
	s->listener = s->sock[0] = s->sock[1] = s->landlock_fd = -1;
	pty_exec_env_init(&s->env);
	s->need = PTY_EXEC_NEED_ALL;
}

unsigned
pty_supervise_need(const struct pty_policy_reads *reads, bool audited)
{
	unsigned need = 0;

	if (audited || pty_policy_reads(reads, "exec_cwd"))
		need |= PTY_EXEC_NEED_CWD;
	if (audited || pty_policy_reads(reads, "exec_parent"))
		need |= PTY_EXEC_NEED_PARENT;
	if (audited || pty_policy_reads(reads, "exec_arg") ||
	    pty_policy_reads(reads, "exec_argc"))
		need |= PTY_EXEC_NEED_ARGV;
	return need;
}

int
pty_supervise_execs_decided(const struct pty_decider *d, bool optional,
			    char *err, size_t errlen)
{
	if (!d->reads.execs_undecided)
		return 1;
	if (optional)
		return 0;
	(void)snprintf(err, errlen, PTY_MSG_EXECS_UNDECIDED_REFUSED);
	return -1;
}

/* The request of the session's shell, the child's first exec, built here
 * from what the child will pass; and whether the policy lets it start:
 * asked once before anything is forked, so that a policy without an
 * allow_exec rule for it fails with a sentence, not with a shell that
 * never starts.  The request is kept for that first exec (see
 * pty_supervise_handle).  Exported for --check (pty/check/check.c), which asks
 * the same question without starting anything. */
int
pty_supervise_shell_allowed(struct pty_supervisor *s, const char *shell_path,
			    char *const *argv, bool execs_optional, char *err,
			    size_t errlen)
{
	struct pty_exec_request *r = s->first;
	struct pty_exec_decision dec;
	size_t used = 0;
	int decided =
	    pty_supervise_execs_decided(s->decider, execs_optional, err, errlen);

	memset(r, 0, offsetof(struct pty_exec_request, bytes));
	(void)snprintf(r->path, sizeof r->path, "%s",
		       s->decider->shell_program);
	(void)snprintf(r->request, sizeof r->request, "%s", shell_path);
	(void)snprintf(r->parent, sizeof r->parent, "%s",
		       s->decider->guard_program);
	/* where the shell starts: the session's directory, as the decider
	 * named it; when it has no name, exec_cwd has none to give */
	(void)snprintf(r->cwd, sizeof r->cwd, "%s", s->decider->cwd);
	if (r->cwd[0] == '\0' && (s->need & PTY_EXEC_NEED_CWD) != 0) {
		(void)snprintf(err, errlen,
			       "the working directory cannot be named (%s), "
			       "and exec_cwd needs it",
			       s->decider->cwd_unnamed);
		return -1;
	}
	for (; argv[r->argc] != NULL; r->argc++) {
		size_t n = strlen(argv[r->argc]);

		if (r->argc == PTY_EXEC_ARGS_MAX ||
		    used + n + 1 > sizeof r->bytes) {
			(void)snprintf(err, errlen,
				       "the shell's arguments are "
				       "too long");
			return -1;
		}
		memcpy(r->bytes + used, argv[r->argc], n + 1);
		r->argv[r->argc] = r->bytes + used;
		r->argv_len[r->argc] = n;
		used += n + 1;
	}
	if (decided <= 0)
		return decided; /* recorded, not decided; or refused */
	pty_exec_decide(s->decider, r, s->mode, &dec);
	if (dec.verdict == PTY_EXEC_ALLOW)
		return 0;
	(void)snprintf(err, errlen,
		       "the policy does not let the session's shell %s start "
		       "(allow_exec(\"%s\") is not derived for it%s%s; see "
		       "maelys-policy(5), EXEC DECISIONS)",
		       shell_path, r->path,
		       dec.verdict == PTY_EXEC_ERROR ? ": " : "",
		       dec.verdict == PTY_EXEC_ERROR ? dec.error : "");
	return -1;
}

int
pty_supervise_setup(struct pty_supervisor *s, struct pty_guard *g,
		    struct pty_decider *d, enum pty_mode mode,
		    const char *guard_path, char *const *shell_argv, char *err,
		    size_t errlen)
{
	char shell[PATH_MAX], self[PATH_MAX], note[256];
	const char *extra[2];
	int landlock_fd = -1;

	if (realpath(g->cfg.shell, shell) == NULL) {
		(void)snprintf(err, errlen, "the shell %s: %s", g->cfg.shell,
			       strerror(errno));
		return -1;
	}
	if (realpath(guard_path, self) == NULL)
		(void)snprintf(self, sizeof self, "%s", guard_path);
	if (pty_exec_set_programs(d, shell, self) != 0) {
		(void)snprintf(err, errlen, "the shell's path is too long");
		return -1;
	}
	s->guard = g;
	s->decider = d;
	s->mode = mode;
	/* the audit record holds every fact; without a log, only what the
	 * policy's rules read is learnt */
	s->need = pty_supervise_need(&d->reads, g->audit != NULL);
	if ((s->chain.rq[0] = malloc(sizeof *s->chain.rq[0])) == NULL ||
	    (s->first = malloc(sizeof *s->first)) == NULL) {
		(void)snprintf(err, errlen,
			       "no memory for the exec supervisor");
		return -1;
	}
	if (pty_supervise_shell_allowed(s, g->cfg.shell, shell_argv,
					g->cfg.exec_decisions_optional, err,
					errlen) != 0)
		return -1;
	s->execs_undecided = d->reads.execs_undecided;
	/* the guard's memory holds the audit key: its child stays
	 * undumpable until bash replaces it, and its one exec is decided on
	 * the request built above; without a key nothing is secret, and a
	 * dumpable child lets an outer guard read a nested one's request */
	s->child_dumpable = g->audit == NULL;
	extra[0] = shell;
	extra[1] = self;
	if (pty_landlock_build(d, mode, extra, 2, g->cfg.landlock_required,
			       &landlock_fd, note, sizeof note, err,
			       errlen) != 0)
		return -1;
	if (note[0] != '\0')
		pty_guard_log(g, LOG_WARNING, "session %s: %s", g->asess.id,
			      note);
	return pty_supervise_prepare(s, landlock_fd, err, errlen);
}

int
pty_supervise_prepare(struct pty_supervisor *s, int landlock_fd, char *err,
		      size_t errlen)
{
	s->landlock_fd = landlock_fd;
	if (pty_supervise_build_filter(&s->bpf, &s->bpf_count, err, errlen) !=
	    0)
		return -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, s->sock) !=
	    0) {
		(void)snprintf(err, errlen, "the exec supervisor's socket: %s",
			       strerror(errno));
		return -1;
	}
	if (seccomp_notify_alloc(&s->req, &s->resp) != 0 ||
	    (s->chain.rq[0] == NULL &&
	     (s->chain.rq[0] = malloc(sizeof *s->chain.rq[0])) == NULL)) {
		(void)snprintf(err, errlen,
			       "no memory for the exec supervisor");
		return -1;
	}
	if (pty_exec_env_prepare(&s->env, err, errlen) != 0 ||
	    pty_exec_verify_open(&s->verify, s->env.proc, err, errlen) != 0)
		return -1;
	s->env.landlocked = landlock_fd >= 0;
	return 0;
}

/* The control part of a message on the socket pair: room for the one
 * descriptor (the listener) the child sends with its report. */
union supervise_ctl {
	struct cmsghdr h;
	char buf[CMSG_SPACE(sizeof(int))];
};

static void
supervise_report(int sock, int32_t stage, int32_t e, int fd)
{
	struct supervise_report rep = {stage, e};
	struct iovec iov = {&rep, sizeof rep};
	union supervise_ctl ctl;
	struct msghdr msg;

	memset(&msg, 0, sizeof msg);
	memset(&ctl, 0, sizeof ctl);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	if (fd >= 0) {
		struct cmsghdr *c;

		msg.msg_control = ctl.buf;
		msg.msg_controllen = sizeof ctl.buf;
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof fd);
	}
	while (sendmsg(sock, &msg, MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
}

void
pty_supervise_child(struct pty_supervisor *s)
{
	struct sock_fprog prog;
	int listener;

	(void)close(s->sock[0]);
	/* setuid programs then run without their privilege: a session
	 * cannot gain what its user does not have (maelys-pty(1)) */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		supervise_report(s->sock[1], SUPERVISE_FAIL_NNP, errno, -1);
		_exit(127);
	}
	if (s->landlock_fd >= 0) {
		if (syscall(SYS_landlock_restrict_self, s->landlock_fd, 0) !=
		    0) {
			supervise_report(s->sock[1], SUPERVISE_FAIL_LANDLOCK,
					 errno, -1);
			_exit(127);
		}
		(void)close(s->landlock_fd);
	}
	if (s->child_dumpable)
		(void)prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	prog.len = (unsigned short)s->bpf_count;
	prog.filter = s->bpf;
	listener = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (listener < 0 && errno == EEXIST) {
		/* inside a supervised session: the outer filter, which also
		 * refuses what this one would, keeps deciding every exec */
		supervise_report(s->sock[1], SUPERVISE_NESTED, 0, -1);
	} else if (listener < 0) {
		supervise_report(s->sock[1], SUPERVISE_FAIL_SECCOMP, errno, -1);
		_exit(127);
	} else {
		supervise_report(s->sock[1], SUPERVISE_OK, 0, listener);
		(void)close(listener); /* only the guard holds it now */
	}
	(void)close(s->sock[1]);
}

int
pty_supervise_accept(struct pty_supervisor *s, char *err, size_t errlen)
{
	static const char *const stage_name[] = {
	    "", "", "no_new_privs", "Landlock", "the seccomp filter", "send"};
	struct supervise_report rep = {-1, 0};
	struct iovec iov = {&rep, sizeof rep};
	union supervise_ctl ctl;
	struct msghdr msg;
	struct cmsghdr *c;
	ssize_t n;

	(void)close(s->sock[1]);
	s->sock[1] = -1;
	if (s->landlock_fd >= 0) {
		(void)close(s->landlock_fd);
		s->landlock_fd = -1;
	}
	memset(&msg, 0, sizeof msg);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = ctl.buf;
	msg.msg_controllen = sizeof ctl.buf;
	do
		n = recvmsg(s->sock[0], &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	for (c = n > 0 ? CMSG_FIRSTHDR(&msg) : NULL; c != NULL;
	     c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
		    c->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(&s->listener, CMSG_DATA(c), sizeof(int));
	(void)close(s->sock[0]);
	s->sock[0] = -1;
	if (n == (ssize_t)sizeof rep && rep.stage == SUPERVISE_OK &&
	    s->listener >= 0) {
		if (s->guard == NULL || s->guard->audit_missing[0] == '\0')
			return 0;
		/* not nested after all: the log is this guard's to keep */
		(void)close(s->listener);
		s->listener = -1;
		(void)snprintf(err, errlen, "%s", s->guard->audit_missing);
		return -1;
	}
	if (n == (ssize_t)sizeof rep && rep.stage == SUPERVISE_NESTED &&
	    s->listener < 0) {
		if (s->guard == NULL || !s->guard->overridden)
			return 0;
		/* a shell with other line rules inside the session would
		 * loosen them: what a builtin does (echo > file) is no exec */
		(void)snprintf(err, errlen,
			       "a guard started inside a session takes its "
			       "policy, shell and PATH from a configuration: "
			       "--policy, --shell and --path are refused");
		return -1;
	}
	if (s->listener >= 0) {
		(void)close(s->listener);
		s->listener = -1;
	}
	if (n == (ssize_t)sizeof rep && rep.stage >= SUPERVISE_FAIL_NNP &&
	    rep.stage <= SUPERVISE_FAIL_SEND)
		(void)snprintf(err, errlen,
			       "the exec supervisor cannot be installed "
			       "(%s: %s): the session does not start",
			       stage_name[rep.stage], strerror(rep.err));
	else
		(void)snprintf(err, errlen,
			       "the exec supervisor cannot be installed (the "
			       "child did not report): the session does not "
			       "start");
	return -1;
}

/* A process that runs another program than the exec allowed: already
 * ended, concluded as a refusal (pty_exec_verify.h). */
static void
supervise_found(void *ctx, const struct pty_exec_mismatch *m)
{
	struct pty_supervisor *s = ctx;

	if (s->guard == NULL)
		return;
	if (s->around_message != NULL)
		s->around_message(true);
	if (pty_exec_conclude_mismatch(s->guard, m, s->out_fd, s->eol) ==
	    PTY_ACT_END)
		s->end_session = true;
	if (s->around_message != NULL)
		s->around_message(false);
}

int
pty_supervise_verify_fd(const struct pty_supervisor *s)
{
	return pty_exec_verify_fd(s->verify);
}

void
pty_supervise_verify(struct pty_supervisor *s)
{
	pty_exec_verify_run(s->verify, supervise_found, s);
}

/* Before the chain of the pending request may run: what its process must
 * run once the exec is over - the chain's executable, the last program
 * the kernel itself loads (the dynamic loader's program is mapped by the
 * loader, which is what runs). */
static void
supervise_expect(struct pty_supervisor *s)
{
	const struct pty_exec_chain *c = &s->chain;
	struct pty_exec_verify_want want;
	size_t k = c->n;

	while (k > 1 && c->rq[k - 1]->via == PTY_EXEC_VIA_LOADER)
		k--;
	if (k == 0)
		return;
	want.tid = (pid_t)s->req->pid;
	want.dev = c->rq[k - 1]->dev;
	want.ino = c->rq[k - 1]->ino;
	want.path = c->rq[k - 1]->path;
	want.request = c->rq[0]->request;
	if (pty_exec_verify_expect(s->verify, &want, supervise_found, s) &&
	    s->guard != NULL)
		pty_guard_log(s->guard, LOG_WARNING,
			      "session %s: more than %d execs await their "
			      "check: the oldest is no longer checked",
			      s->guard->asess.id, PTY_EXEC_VERIFY_MAX);
}

/* Answers the notification: CONTINUE, or the error `e`. */
static int
supervise_answer(struct pty_supervisor *s, bool allow, int e)
{
	memset(s->resp, 0, sizeof *s->resp);
	s->resp->id = s->req->id;
	if (allow)
		s->resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	else
		s->resp->error = -e;
	/* ENOENT: the process was interrupted or died meanwhile */
	if (seccomp_notify_respond(s->listener, s->resp) != 0 &&
	    errno != ENOENT && errno != EINTR)
		return -1;
	return 0;
}

/* Decides and concludes one element of the chain (or shows and records
 * why the host refused it, or records it undecided: `refused` is then
 * PTY_EXEC_RECORDED and `why` what could not be read).  Returns true when
 * it may run. */
static bool
supervise_decide_one(struct pty_supervisor *s, struct pty_exec_request *r,
		     enum pty_exec_verdict refused, const char *why)
{
	struct pty_exec_decision dec;
	enum pty_act act;
	bool quiet;

	if (refused != PTY_EXEC_ALLOW) {
		memset(&dec, 0, sizeof dec);
		dec.verdict = refused;
		(void)snprintf(dec.error, sizeof dec.error, "%s", why);
	} else {
		pty_exec_decide(s->decider, r, s->mode, &dec);
	}
	quiet = dec.verdict == PTY_EXEC_ALLOW || dec.verdict == PTY_EXEC_RECORDED;
	if (s->around_message != NULL && !quiet)
		s->around_message(true);
	act = pty_exec_conclude(s->guard, r, &dec, s->decider->edb, s->out_fd,
				s->eol);
	if (s->around_message != NULL && !quiet)
		s->around_message(false);
	if (act == PTY_ACT_END)
		s->end_session = true;
	return act == PTY_ACT_RUN;
}

/* A policy that decides lines only (exec_decisions = optional): each
 * program of the chain is recorded, nothing is decided, and the exec goes
 * on; what could not be read or walked safely is recorded as far as it was
 * read, with why.  The fence stays: no new privileges, and the filter's
 * refused system calls. */
static int
supervise_record_only(struct pty_supervisor *s, int rc, const char *why,
		      bool own)
{
	struct pty_exec_chain *c = &s->chain;
	bool partial = rc == PTY_EXEC_READ_REFUSE || rc == PTY_EXEC_READ_UNSAFE;
	size_t k;

	for (k = 0; k < c->n; k++)
		if (!supervise_decide_one(s, c->rq[k], PTY_EXEC_RECORDED,
					  partial && k == c->n - 1 ? why : ""))
			return supervise_answer(s, false, EPERM);
	if (!partial && !own)
		supervise_expect(s);
	return supervise_answer(s, true, 0);
}

static int
supervise_handle_one(struct pty_supervisor *s)
{
	struct pty_exec_chain *c = &s->chain;
	char why[PATH_MAX + 512];
	bool own = false;
	size_t k;
	int rc;

	if (s->listener < 0)
		return -1;
	memset(s->req, 0, sizeof *s->req);
	if (seccomp_notify_receive(s->listener, s->req) != 0) {
		/* the process went away before we read it, or a signal */
		return errno == ENOENT || errno == EINTR || errno == EAGAIN
			   ? 0
			   : -1;
	}
	if (s->req->data.nr != SYS_execve && s->req->data.nr != SYS_execveat)
		return supervise_answer(s, false, EPERM);
	/* the thread's earlier exec is over: what it left running is
	 * checked before anything else is decided */
	pty_exec_verify_asked(s->verify, (pid_t)s->req->pid, supervise_found,
			      s);
	why[0] = '\0';
	if (s->first != NULL && s->child_pid > 0 &&
	    (pid_t)s->req->pid == s->child_pid) {
		/* the child's one exec, of the shell: its request is known
		 * (and its memory, the guard's copy, is not readable) */
		s->first->pid = s->child_pid;
		free(c->rq[0]); /* the first request takes its place */
		c->rq[0] = s->first;
		s->first = NULL;
		c->n = 1;
		rc = 0;
		/* the guard's own child, its request the guard's: nothing
		 * of the user's runs yet to change it, nothing to check */
		own = true;
	} else {
		rc = pty_exec_read(s->listener, s->req, &s->env, s->need, c,
				   why, sizeof why);
	}
	if (rc == PTY_EXEC_READ_GONE)
		return 0;
	if (rc > 0)
		return supervise_answer(s, false, rc);
	if (s->execs_undecided)
		return supervise_record_only(s, rc, why, own);
	if (rc == PTY_EXEC_READ_REFUSE || rc == PTY_EXEC_READ_UNSAFE) {
		(void)supervise_decide_one(s, c->rq[c->n - 1],
					   rc == PTY_EXEC_READ_UNSAFE
					       ? PTY_EXEC_UNSAFE
					       : PTY_EXEC_UNREADABLE,
					   why);
		return supervise_answer(s, false, EPERM);
	}
	/* what was asked, then each program it leads to: all must be
	 * allowed (each is recorded), or the exec is refused */
	for (k = 0; k < c->n; k++)
		if (!supervise_decide_one(s, c->rq[k], PTY_EXEC_ALLOW, ""))
			return supervise_answer(s, false, EPERM);
	if (!own)
		supervise_expect(s);
	return supervise_answer(s, true, 0);
}

int
pty_supervise_handle(struct pty_supervisor *s)
{
	int rc = supervise_handle_one(s);

	/* the other checks that are due, once the process waits no more:
	 * a session that runs many programs is not woken for each */
	pty_exec_verify_due(s->verify, supervise_found, s);
	return rc;
}

void
pty_supervise_close(struct pty_supervisor *s)
{
	int i;

	if (s->listener >= 0)
		(void)close(s->listener);
	for (i = 0; i < 2; i++)
		if (s->sock[i] >= 0)
			(void)close(s->sock[i]);
	if (s->landlock_fd >= 0)
		(void)close(s->landlock_fd);
	s->listener = s->sock[0] = s->sock[1] = s->landlock_fd = -1;
	if (s->req != NULL)
		seccomp_notify_free(s->req, s->resp);
	s->req = NULL;
	s->resp = NULL;
	free(s->bpf);
	s->bpf = NULL;
	for (i = 0; i < PTY_EXEC_CHAIN_MAX; i++) {
		free(s->chain.rq[i]);
		s->chain.rq[i] = NULL;
	}
	s->chain.n = 0;
	pty_exec_env_free(&s->env);
	pty_exec_verify_close(s->verify);
	s->verify = NULL;
	free(s->first);
	s->first = NULL;
}
