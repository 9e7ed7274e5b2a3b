/* SPDX-License-Identifier: MIT */
/*
 * The relay loop.  States:
 *   STARTING  bash runs the lock-down line; nothing of the user's reaches it
 *   PROMPT    bash waits for a command: keys go to the guard's line editor;
 *             an accepted line is decided, and only an allowed line is sent
 *   JOB       a command runs: every key goes straight to the session's pty,
 *             every byte of output straight to the user; the status report
 *             of the finished command ends the state, and typeahead the job
 *             did not read is discarded (TCIFLUSH) before the prompt returns
 *   CONFIRM   a line waits for the user's answer to require_confirm: keys
 *             go to a short answer (y/N) read here, not to readline
 *   ENDING    the user pressed Ctrl-D: bash's input is closed; output is
 *             relayed until bash is gone
 * One loop serves every state: signals, the session's output and every
 * exec request of the supervisor are answered whatever the state (a
 * question waiting for its answer stops nothing).  Each time round it
 * takes the same steps (pty_relay_run): conclude if the session was asked
 * to end; end it if idle; handle the signals; conclude if bash is gone;
 * wait for input; serve what is ready.
 * Signals are blocked except inside ppoll: the handler only sets flags,
 * which the loop reads with signals blocked (pty_signals.h).
 * Nothing in the loop waits for a terminal.  Everything shown to the user
 * goes through the terminal's queue (pty_termout.h), written when ppoll
 * says the terminal takes more; while it holds more than its high-water
 * mark the session's pty is not read, so the job's output waits in the
 * kernel (and the job with it), nothing is lost, and signals, execs, the
 * status channel, the recording and the timeouts are served meanwhile.
 * The other way the same: keys the job's pty does not take yet wait in
 * relay.keys (pty_keys.h), and the user's terminal is not read until they
 * are taken.
 */
#define _GNU_SOURCE /* ppoll */
#include "pty_line.h"

#include "pty_answer.h"
#include "pty_child.h"
#include "pty_decide.h"
#include "pty_keys.h"
#include "pty_mayrun.h"
#include "pty_messages.h"
#include "pty_prompt.h"
#include "pty_session.h"
#include "pty_signals.h"
#include "pty_spawn.h"
#include "pty_status.h"
#include "pty_supervise.h"
#include "pty_terminal.h"
#include "pty_termout.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

enum pty_state { PTY_STARTING, PTY_PROMPT, PTY_JOB, PTY_CONFIRM, PTY_ENDING };

/* What the line editor writes to step aside from session output at the
 * prompt (it clears one line), at most. */
#define RELAY_EDGE_ROOM 4096

/* The loop's state; one per process (readline's callback has no
 * argument, so the line handler reaches it here). */
static struct pty_relay {
	enum pty_state state;
	struct pty_terminal term;
	struct pty_termout out; /* in front of stdout: all the user sees */
	struct pty_child child;
	struct pty_supervisor sup; /* decides every exec of the session */
	struct pty_decider *decider;
	struct pty_guard *guard;
	struct timespec last_key; /* of the last key at the prompt */
	struct pty_answer answer; /* CONFIRM: what was typed so far */
	/* JOB: keys the session's pty has not taken yet; dropped with the
	 * job (typeahead, as below) */
	struct pty_keys keys;
	bool guard_ended; /* lockout, idle, or the audit log */
	bool hangup;      /* the user's terminal is gone: as SIGHUP */
	/* bash's reports on the status channel (fd 3) */
	struct pty_status_reader status;
	bool child_gone;
	/* JOB: its status came; the prompt follows once the job's output is
	 * read (it may wait for the terminal: pty_relay_prompt_due) */
	bool prompt_due;
	bool jobs_ended; /* the recording stopped: the jobs were ended */
	int wait_status;
	struct timespec start_deadline; /* STARTING: bash has until then */
	char home[4096];
	char prompt[PTY_CWD_MAX + 1024];
	/* what may run, for Tab completion: made at the first Tab of a
	 * prompt and kept until the next prompt (the cwd, the clock and
	 * PATH's files change between prompts, not while one is edited) */
	struct pty_runnable commands;
	bool commands_fresh;
} relay;

/* Writes a fixed string (a newline, an erase) to the user's terminal. */
static void
pty_put(const char *s)
{
	(void)pty_write_all(STDOUT_FILENO, s, strlen(s));
}

/* The prompt for the shell's directory as the cwd fact has it. */
static void
pty_make_prompt(void)
{
	pty_prompt_text(relay.prompt, sizeof relay.prompt,
			relay.decider->who.user, relay.decider->who.host,
			relay.home, relay.decider->cwd, getuid() == 0);
}

static void
pty_enter_prompt(void)
{
	relay.state = PTY_PROMPT;
	relay.prompt_due = false;
	(void)clock_gettime(CLOCK_MONOTONIC, &relay.last_key);
	/* keys typed during the job that it did not read: never a command */
	(void)tcflush(relay.child.slave, TCIFLUSH);
	pty_keys_drop(&relay.keys);
	pty_make_prompt();
	relay.commands_fresh = false;
	pty_prompt_show(relay.prompt);
}

/* The commands Tab completes: those `help` lists, made once a prompt. */
static const struct pty_runnable *
pty_relay_commands(void)
{
	if (!relay.commands_fresh) {
		pty_runnable_free(&relay.commands);
		if (pty_runnable_list(relay.decider, PTY_MODE_INTERACTIVE,
				      &relay.commands) != 0)
			return NULL;
		relay.commands_fresh = true;
	}
	return &relay.commands;
}

/* The terminal's width in columns (80 when it has none). */
static unsigned
pty_relay_width(void)
{
	struct winsize ws;

	pty_terminal_winsize(STDIN_FILENO, &ws);
	return ws.ws_col;
}

/* require_confirm: the question replaces the line editor until it is
 * answered (pty_confirm_keys). */
static void
pty_ask_confirmation(void)
{
	pty_prompt_hide();
	relay.state = PTY_CONFIRM;
	pty_answer_start(&relay.answer);
	(void)clock_gettime(CLOCK_MONOTONIC, &relay.last_key);
	pty_say(STDOUT_FILENO, "", PTY_MSG_CONFIRM_QUESTION,
		pty_guard_question(relay.guard));
}

/* After a decision: run the line, stay at the prompt, ask, or end. */
static void
pty_act_on(enum pty_act act, const char *line, size_t len)
{
	switch (act) {
	case PTY_ACT_RUN:
		pty_prompt_hide();
		relay.state = PTY_JOB;
		if (pty_child_send_line(&relay.child, line, len) != 0) {
			/* bash is gone; the loop ends with its status */
			relay.state = PTY_ENDING;
		}
		break;
	case PTY_ACT_END:
		pty_prompt_hide();
		relay.guard_ended = true;
		break;
	case PTY_ACT_ASK:
		pty_ask_confirmation();
		break;
	case PTY_ACT_SKIP:
	case PTY_ACT_DENY:
		if (relay.state == PTY_CONFIRM)
			pty_enter_prompt();
		break;
	}
}

/* The answer to a require_confirm question: only "y" or "yes" (any case)
 * is yes; no answer at all (Ctrl-C, Ctrl-D, the terminal gone, the idle
 * timeout) is no. */
static void
pty_confirm_answer(bool yes)
{
	enum pty_act act;
	const char *line;
	size_t len;

	pty_put("\r\n");
	act = pty_guard_answer(relay.guard, relay.decider, yes, STDOUT_FILENO,
			       "\r\n");
	line = pty_guard_kept_line(relay.guard, &len);
	pty_act_on(act, line, len);
}

/* Keys typed at the question, echoed; Enter answers. */
static void
pty_confirm_keys(const char *buf, size_t n)
{
	enum pty_answer_step step;
	char echo[4];
	size_t i;

	for (i = 0; i < n && relay.state == PTY_CONFIRM; i++) {
		step = pty_answer_key(&relay.answer, buf[i], echo);
		if (step != PTY_ANSWER_MORE)
			pty_confirm_answer(step == PTY_ANSWER_YES);
		else if (echo[0] != '\0')
			pty_put(echo);
	}
}

/* The prompt and the accepted line, as the user's terminal shows them:
 * the guard's line editor draws them, not the shell, so the recording
 * gets them here (as output: what was shown, not the keys). */
static void
pty_relay_record_line(const char *line, size_t len)
{
	struct pty_audit_rec *rec = relay.guard->rec;

	if (rec == NULL)
		return;
	pty_audit_rec_put(rec, 'o', relay.prompt, strlen(relay.prompt));
	pty_audit_rec_put(rec, 'o', line, len);
	pty_audit_rec_put(rec, 'o', "\r\n", 2);
}

/* A line that did not run leaves the line editor at the prompt: drawn
 * again with the directory named for that line (it may have been removed
 * or renamed since the prompt was drawn), never the one before. */
static void
pty_relay_prompt_again(void)
{
	if (relay.state != PTY_PROMPT)
		return;
	pty_make_prompt();
	pty_prompt_set(relay.prompt);
}

/* Takes a typed line: the line editor accepted it (readline callback). */
static void
pty_on_line(char *line)
{
	size_t len;

	if (line == NULL) {
		/* Ctrl-D on an empty line: end the session as bash would */
		pty_prompt_hide();
		pty_put("\r\n"); /* bash itself says "exit" */
		pty_child_close_input(&relay.child);
		relay.state = PTY_ENDING;
		return;
	}
	len = strlen(line);
	pty_prompt_remember(line);
	pty_relay_record_line(line, len);
	/* decided where the shell is now: a folder above it may have been
	 * renamed since the prompt was drawn */
	pty_child_learn_cwd(&relay.child, relay.decider);
	if (strcmp(line, PTY_HELP_LINE) == 0) {
		/* the guard's question, never bash's builtin (pty_mayrun.h) */
		pty_act_on(pty_guard_help(relay.guard, relay.decider,
					  STDOUT_FILENO, "\r\n",
					  pty_relay_width()),
			   line, len);
		free(line);
		pty_relay_prompt_again();
		return;
	}
	/* a refusal points into the line as it stands after the prompt */
	relay.guard->prompt = relay.prompt;
	relay.guard->screen_cols = pty_relay_width();
	pty_act_on(pty_guard_conclude(relay.guard, relay.decider, line, len,
				      PTY_MODE_INTERACTIVE, true, STDOUT_FILENO,
				      "\r\n"),
		   line, len);
	relay.guard->prompt = NULL;
	free(line);
	pty_relay_prompt_again();
}

/* A report of bash's is complete (pty_status_feed): the prompt comes
 * back.  Returns -1 when the lock-down failed. */
static int
pty_on_report(void *arg, const char *code)
{
	(void)arg;
	pty_child_learn_cwd(&relay.child, relay.decider);
	if (relay.state == PTY_STARTING) {
		if (strcmp(code, "0") != 0)
			return -1;
		pty_enter_prompt();
	} else if (relay.state == PTY_JOB) {
		/* after what the job printed: pty_relay_prompt_due */
		relay.prompt_due = true;
	}
	return 0;
}

/* Reads the session's output into the terminal's queue, never more than
 * it has room for: the rest waits in the session's pty.  Returns the
 * bytes read, 0 when there is none, -1 when there is no room. */
static ssize_t
pty_relay_take_output(void)
{
	char buf[65536];
	size_t room = pty_termout_room(&relay.out);
	ssize_t n;

	/* room for a whole read and for the line editor stepping aside
	 * (pty_prompt_before_output), so that none of it is left out; the
	 * loop reads only below the high-water mark, far below that */
	if (room < sizeof buf + RELAY_EDGE_ROOM)
		return -1;
	n = read(relay.child.master, buf, sizeof buf);
	if (n <= 0)
		return 0;
	if (relay.state == PTY_PROMPT)
		pty_prompt_before_output();
	(void)pty_termout_put(&relay.out, buf, (size_t)n);
	/* the same bytes, to the recording (none: nothing is done) */
	pty_audit_rec_put(relay.guard->rec, 'o', buf, (size_t)n);
	if (relay.state == PTY_PROMPT)
		pty_prompt_after_output();
	return n;
}

/* The job's status came: bash waits for a line, and the job is gone, so
 * what it printed is all in the session's pty - read it (as the queue
 * takes it) before the prompt is drawn, or the prompt would stand in the
 * middle of the job's last output. */
static void
pty_relay_prompt_due(void)
{
	ssize_t n = 1;

	while (!pty_termout_full(&relay.out) &&
	       (n = pty_relay_take_output()) > 0)
		;
	if (n == 0)
		pty_enter_prompt();
}

/* Returns false when the user's terminal is gone. */
static bool
pty_relay_input(void)
{
	char buf[sizeof relay.keys.buf];
	size_t room = pty_keys_room(&relay.keys);
	ssize_t n;

	if (relay.state == PTY_PROMPT) {
		unsigned long long left_out;

		(void)clock_gettime(CLOCK_MONOTONIC, &relay.last_key);
		if (!pty_prompt_feed(&left_out))
			return false;
		if (left_out > 0) {
			pty_prompt_before_output();
			pty_say(STDOUT_FILENO, "\r\n", PTY_MSG_PASTE_LEFT_OUT,
				left_out, SCAN_LINE_MAX);
			pty_prompt_after_output();
		}
		return true;
	}
	/* no more than the job's keys have room for (none wait when the
	 * terminal is polled: see pty_relay_wait_for_input) */
	if (room == 0)
		return true;
	n = read(STDIN_FILENO, buf, room);
	if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
		if (relay.state == PTY_CONFIRM)
			pty_confirm_answer(false);
		return false;
	}
	/* typed keys only with record_input: a password typed with echo
	 * off would otherwise be in the file */
	if (n > 0 && relay.guard->cfg.record_input &&
	    (relay.state == PTY_JOB || relay.state == PTY_CONFIRM))
		pty_audit_rec_put(relay.guard->rec, 'i', buf, (size_t)n);
	if (n > 0 && relay.state == PTY_JOB)
		pty_keys_put(&relay.keys, relay.child.master, buf, (size_t)n);
	else if (n > 0 && relay.state == PTY_CONFIRM) {
		(void)clock_gettime(CLOCK_MONOTONIC, &relay.last_key);
		pty_confirm_keys(buf, (size_t)n);
	}
	return true;
}

static void
pty_resize(void)
{
	struct winsize ws;

	pty_terminal_winsize(STDIN_FILENO, &ws);
	(void)ioctl(relay.child.master, TIOCSWINSZ, &ws);
	/* the size the shell was just given */
	pty_audit_rec_resize(relay.guard->rec, ws.ws_col, ws.ws_row);
	if (relay.state == PTY_PROMPT)
		pty_prompt_resize();
}

/* Reaps what has ended: bash, and the processes of the session that
 * detached from it and came to the guard (pty_spawn.h). */
static void
pty_reap(void)
{
	int st;

	if (pty_spawn_reap(relay.child_gone ? 0 : relay.child.pid, &st)) {
		relay.child_gone = true;
		relay.wait_status = st;
		pty_guard_set_exit(relay.guard, st);
	}
}

/* Ends every process of the session (however it detached), the audit
 * writer excepted. */
static void
pty_end_session(void)
{
	pty_spawn_end_session(relay.guard);
}

/* After bash is gone: what the session printed last (up to the terminal's
 * high-water mark, as always: pty_relay_finish writes it out, bounded),
 * then no process of the session may survive it. */
static void
pty_drain_and_end(void)
{
	while (!pty_termout_full(&relay.out) && pty_relay_take_output() > 0)
		;
	pty_end_session();
}

/* Around a refused exec's message: at the prompt (a background job's
 * exec) the line being edited steps aside and comes back. */
static void
pty_relay_around_message(bool before)
{
	if (relay.state != PTY_PROMPT)
		return;
	if (before)
		pty_prompt_before_output();
	else
		pty_prompt_after_output();
}

/* The listener is readable: one exec to decide.  A listener that fails
 * ends the session (nothing may run unchecked); one that hangs up has no
 * process left to supervise. */
static void
pty_relay_exec(short revents)
{
	if (revents & POLLIN) {
		if (pty_supervise_handle(&relay.sup) != 0) {
			pty_put("\r\n");
			pty_say(STDOUT_FILENO, "\r\n",
				PTY_MSG_SUPERVISOR_FAILED);
			pty_guard_log(relay.guard, LOG_ERR,
				      "session %s of %s ended: the exec "
				      "supervisor failed",
				      relay.guard->asess.id,
				      relay.guard->who->user);
			(void)pty_guard_event(relay.guard, "session_end",
					      "exec supervisor failed");
			relay.guard_ended = true;
		} else if (relay.sup.end_session) {
			relay.guard_ended = true;
		}
	} else if (revents & (POLLHUP | POLLERR | POLLNVAL)) {
		(void)close(relay.sup.listener);
		relay.sup.listener = -1;
	}
}

/* ------------------------------------------------------------------ */
/* The loop's steps, in the order pty_relay_run takes them.            */

/* A step's answer when the session goes on; any other is its exit status. */
#define RELAY_GO_ON (-1)

/* Prepares the user's terminal, the signals, bash and the line editor.
 * Returns 0, or -1 when the session cannot start (said on stderr). */
static int
pty_relay_start(struct pty_guard *g, struct pty_decider *decider,
		const char *guard_path, const char *history_path,
		struct pty_signals *sig)
{
	struct pty_child_config cfg;
	struct winsize ws;
	struct passwd *pw = getpwuid(getuid());
	char err[512];

	memset(&relay, 0, sizeof relay);
	relay.decider = decider;
	relay.guard = g;
	if (pw != NULL && pw->pw_dir != NULL)
		(void)snprintf(relay.home, sizeof relay.home, "%s", pw->pw_dir);
	if (pty_terminal_save(&relay.term, STDIN_FILENO) != 0) {
		pty_say(STDERR_FILENO, "\n", PTY_MSG_NOT_A_TERMINAL);
		return -1;
	}
	if (pty_termout_open(&relay.out, STDOUT_FILENO, "\r\n") != 0) {
		pty_say(STDERR_FILENO, "\n", PTY_MSG_FAILED,
			PTY_MSG_NO_TERMINAL_QUEUE);
		return -1;
	}
	/* what is said on stderr, the same terminal, waits in order too */
	(void)pty_termout_also(&relay.out, STDERR_FILENO);
	pty_terminal_winsize(STDIN_FILENO, &ws);
	if (pty_guard_record_start(g, ws.ws_col, ws.ws_row, getenv("TERM"), err,
				   sizeof err) != 0) {
		pty_termout_close(&relay.out);
		pty_say(STDERR_FILENO, "\n", PTY_MSG_RECORDING_CANNOT_START,
			err);
		pty_guard_log(g, LOG_ERR, "session %s of %s: recording: %s",
			      g->asess.id, g->who->user, err);
		return -1;
	}
	pty_signals_install(sig, true);
	memset(&cfg, 0, sizeof cfg);
	cfg.guard = g;
	cfg.decider = decider;
	cfg.guard_path = guard_path;
	cfg.tio = &relay.term.original;
	cfg.ws = &ws;
	cfg.sup = &relay.sup;
	pty_supervise_init(&relay.sup);
	if (pty_child_spawn(&cfg, &relay.child, err, sizeof err) != 0) {
		pty_termout_close(&relay.out);
		pty_spawn_failed(g, err);
		pty_supervise_close(&relay.sup);
		pty_signals_restore(sig);
		return -1;
	}
	/* the terminal is the guard's alone from here to the end: no
	 * process of the session opens it again (pty_terminal.h) */
	pty_terminal_seal(&relay.term);
	/* read and written only when ppoll says so: never waited on */
	(void)fcntl(relay.child.master, F_SETFL,
		    fcntl(relay.child.master, F_GETFL) | O_NONBLOCK);
	relay.sup.out_fd = STDOUT_FILENO; /* the terminal's queue */
	relay.sup.eol = "\r\n";
	relay.sup.around_message = pty_relay_around_message;
	pty_prompt_init(pty_termout_stream(&relay.out), history_path,
			pty_relay_commands, pty_on_line);
	(void)pty_terminal_raw(&relay.term);
	relay.state = PTY_STARTING;
	(void)clock_gettime(CLOCK_MONOTONIC, &relay.start_deadline);
	relay.start_deadline.tv_sec += 10;
	return 0;
}

/* Conclude when the session was asked to end: a signal, the user's
 * terminal gone (as SIGHUP), or the guard itself (lockout, idle, the exec
 * supervisor or the audit log). */
static int
pty_relay_conclude_if_ended(void)
{
	/* a terminal that fails a write is gone as one that reads EOF */
	int sig = relay.hangup || relay.out.gone ? SIGHUP : pty_signals_end();

	if (sig != 0) {
		pty_prompt_hide();
		pty_end_session();
		return pty_spawn_signal_exit_code(sig);
	}
	if (relay.guard_ended) {
		pty_end_session();
		return 1;
	}
	return RELAY_GO_ON;
}

static bool
pty_relay_idle_too_long(void)
{
	struct timespec now;

	(void)clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec - relay.last_key.tv_sec >=
	       (time_t)relay.guard->cfg.idle_timeout;
}

/* The idle timeout: at the prompt it ends the session (returns true: the
 * loop starts over and concludes); a question nobody answers is answered
 * no. */
static bool
pty_relay_end_if_idle(void)
{
	struct pty_guard *g = relay.guard;

	if (g->cfg.idle_timeout == 0)
		return false;
	if (relay.state == PTY_PROMPT && pty_relay_idle_too_long()) {
		pty_prompt_hide();
		pty_put("\r\n");
		pty_say(STDOUT_FILENO, "\r\n", PTY_MSG_IDLE);
		pty_guard_log(g, LOG_NOTICE,
			      "session %s of %s ended: idle for %u s",
			      g->asess.id, g->who->user, g->cfg.idle_timeout);
		(void)pty_guard_event(g, "session_end", "idle");
		relay.guard_ended = true;
		return true;
	}
	if (relay.state == PTY_CONFIRM && pty_relay_idle_too_long())
		pty_confirm_answer(false);
	return false;
}

/* What the signal handler saw: the window resized, a child ended. */
static void
pty_relay_handle_signals(void)
{
	if (pty_signals_take_resize())
		pty_resize();
	if (pty_signals_take_child())
		pty_reap();
}

/* Conclude when bash is gone (its status is the session's, but for a
 * shell that never started), or did not start in time. */
static int
pty_relay_conclude_if_shell_over(void)
{
	struct timespec now;

	if (relay.child_gone) {
		pty_prompt_hide();
		pty_drain_and_end();
		if (relay.state != PTY_STARTING)
			return pty_spawn_exit_code(relay.wait_status);
		(void)pty_write_all(STDERR_FILENO, "\r\n", 2);
		pty_say(STDERR_FILENO, "\r\n", PTY_MSG_SHELL_EXITED,
			relay.guard->cfg.shell);
		return 1;
	}
	if (relay.state != PTY_STARTING)
		return RELAY_GO_ON;
	(void)clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec <= relay.start_deadline.tv_sec)
		return RELAY_GO_ON;
	pty_say(STDERR_FILENO, "\r\n", PTY_MSG_SHELL_LATE);
	pty_end_session();
	return 1;
}

/* What the loop waits on: each descriptor's index in fds, or -1. */
struct pty_relay_poll {
	struct pollfd fds[7];
	nfds_t n;
	int in, out, status, exec, rec, term, verify;
};

static int
pty_relay_poll_add(struct pty_relay_poll *p, int fd, short events)
{
	p->fds[p->n].fd = fd;
	p->fds[p->n].events = events;
	p->fds[p->n].revents = 0;
	return (int)p->n++;
}

/* Waits, with the signals let in, up to a tick (the idle timeout and the
 * start's deadline are looked at each time round).  Returns what ppoll
 * returns. */
static int
pty_relay_wait_for_input(struct pty_relay_poll *p, const sigset_t *mask)
{
	struct timespec tick = {0, 200 * 1000 * 1000};
	short master = 0;

	/* what this round queued (readline writes a byte at a time), in one
	 * write when the terminal takes it */
	pty_termout_flush_queued(&relay.out);
	memset(p, 0, sizeof *p);
	p->in = p->out = p->status = p->exec = p->rec = p->term = p->verify =
	    -1;
	/* the user's keys wait in the terminal until bash is ready, and
	 * while the job's pty has not taken the last ones */
	if (relay.state != PTY_STARTING && !pty_keys_waiting(&relay.keys))
		p->in = pty_relay_poll_add(p, STDIN_FILENO, POLLIN);
	/* while the terminal's queue or the recording's is full, the
	 * shell's output waits; everything else is served */
	if (!pty_termout_full(&relay.out) &&
	    !pty_audit_rec_full(relay.guard->rec))
		master |= POLLIN;
	if (pty_keys_waiting(&relay.keys))
		master |= POLLOUT;
	if (master != 0)
		p->out = pty_relay_poll_add(p, relay.child.master, master);
	if (pty_termout_pending(&relay.out))
		p->term =
		    pty_relay_poll_add(p, pty_termout_fd(&relay.out), POLLOUT);
	if (relay.guard->rec != NULL) {
		p->rec = pty_relay_poll_add(
		    p, pty_audit_rec_fd(relay.guard->rec), POLLIN);
		if (pty_audit_rec_pending(relay.guard->rec))
			p->fds[p->rec].events |= POLLOUT;
	}
	if (relay.child.status_fd >= 0)
		p->status =
		    pty_relay_poll_add(p, relay.child.status_fd, POLLIN);
	if (relay.sup.listener >= 0)
		p->exec = pty_relay_poll_add(p, relay.sup.listener, POLLIN);
	if (pty_supervise_verify_fd(&relay.sup) >= 0)
		p->verify = pty_relay_poll_add(
		    p, pty_supervise_verify_fd(&relay.sup), POLLIN);
	return ppoll(p->fds, p->n, &tick, mask);
}

/* The status channel is readable: bash's reports after each line.
 * Returns false when the shell could not be locked down (said on
 * stderr, the session ended). */
static bool
pty_relay_take_status(void)
{
	char buf[4096];
	ssize_t n = read(relay.child.status_fd, buf, sizeof buf);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0) {
		(void)close(relay.child.status_fd);
		relay.child.status_fd = -1;
		return true;
	}
	if (pty_status_feed(&relay.status, buf, (size_t)n, pty_on_report,
			    NULL) == 0)
		return true;
	(void)pty_write_all(STDERR_FILENO, "\r\n", 2);
	pty_say(STDERR_FILENO, "\r\n", PTY_MSG_SHELL_NOT_LOCKED);
	pty_end_session();
	return false;
}

/* The recording's state: the writer said it stopped, or the channel
 * failed (the queue overflowed, the writer is gone: then there is no
 * descriptor to wake the loop, so it is looked at each time round, at
 * least every tick).
 * With on_record_failure = deny, once it has stopped every job of the
 * session is ended, bash left at its prompt where each line is refused:
 * a program already running (an interpreter's prompt, an editor) needs
 * no further command, and would go on unrecorded. */
static void
pty_relay_recording(const struct pty_relay_poll *p)
{
	struct pty_audit_rec *rec = relay.guard->rec;
	int st;

	if (rec != NULL && !relay.guard->rec_told &&
	    ((p->rec >= 0 && p->fds[p->rec].revents != 0) ||
	     pty_audit_rec_fd(rec) < 0) &&
	    pty_guard_recording(relay.guard, STDOUT_FILENO, "\r\n") ==
		PTY_ACT_END)
		relay.guard_ended = true;
	if (!relay.guard->rec_told || relay.jobs_ended || relay.guard_ended ||
	    relay.guard->cfg.on_record_failure != PTY_AUDIT_FAIL_DENY)
		return;
	relay.jobs_ended = true;
	if (!relay.child_gone &&
	    pty_spawn_end_jobs(relay.guard, relay.child.pid, &st)) {
		relay.child_gone = true;
		relay.wait_status = st;
		pty_guard_set_exit(relay.guard, st);
	}
}

/* Answers each descriptor that is ready: an exec to decide, the session's
 * output, bash's status, the user's keys. */
static int
pty_relay_serve(const struct pty_relay_poll *p)
{
	const struct pollfd *f = p->fds;

	if (p->term >= 0 && f[p->term].revents != 0)
		(void)pty_termout_flush(&relay.out);
	if (p->exec >= 0 && f[p->exec].revents != 0)
		pty_relay_exec(f[p->exec].revents);
	if (p->verify >= 0 && (f[p->verify].revents & POLLIN)) {
		/* what a process runs after its exec, checked */
		pty_supervise_verify(&relay.sup);
		if (relay.sup.end_session)
			relay.guard_ended = true;
	}
	if (p->out >= 0 && (f[p->out].revents & POLLOUT))
		pty_keys_out(&relay.keys, relay.child.master);
	if (p->out >= 0 && (f[p->out].revents & POLLIN))
		(void)pty_relay_take_output();
	if (p->status >= 0 && (f[p->status].revents & (POLLIN | POLLHUP)) &&
	    !pty_relay_take_status())
		return 1;
	if (relay.prompt_due)
		pty_relay_prompt_due();
	if (p->in >= 0 && (f[p->in].revents & (POLLIN | POLLHUP | POLLERR)) &&
	    !pty_relay_input()) {
		/* the user's terminal is gone: hang the session up */
		relay.hangup = true;
	}
	return RELAY_GO_ON;
}

/* Leaves the user's terminal as it was found, with what its queue still
 * holds written out while it takes it (bounded: pty_termout_drain). */
static void
pty_relay_finish(const struct pty_signals *sig)
{
	pty_prompt_end();
	pty_prompt_save();
	(void)pty_termout_drain(&relay.out, PTY_TERMOUT_STALL_MS,
				PTY_TERMOUT_END_MS);
	pty_terminal_restore(&relay.term);
	pty_termout_close(&relay.out);
	pty_supervise_close(&relay.sup);
	pty_signals_restore(sig);
}

int
pty_relay_run(struct pty_guard *g, struct pty_decider *decider,
	      const char *guard_path, const char *history_path)
{
	struct pty_signals sig;
	struct pty_relay_poll p;
	int rc = RELAY_GO_ON, r;

	if (pty_relay_start(g, decider, guard_path, history_path, &sig) != 0)
		return 1;
	while (rc == RELAY_GO_ON) {
		if ((rc = pty_relay_conclude_if_ended()) != RELAY_GO_ON)
			break;
		if (pty_relay_end_if_idle())
			continue;
		pty_relay_handle_signals();
		if ((rc = pty_relay_conclude_if_shell_over()) != RELAY_GO_ON)
			break;
		r = pty_relay_wait_for_input(&p, &sig.wait);
		if (r < 0 && errno != EINTR)
			rc = 1;
		pty_relay_recording(&p); /* each time round: see there */
		if (rc == RELAY_GO_ON && r > 0)
			rc = pty_relay_serve(&p);
	}
	pty_relay_finish(&sig);
	pty_runnable_free(&relay.commands);
	return rc;
}
