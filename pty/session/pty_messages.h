/* SPDX-License-Identifier: MIT */
/*
 * Everything maelys-pty says to the person at the terminal, worded here
 * and nowhere else: each sentence is a named printf format, so the
 * compiler checks every use of it, and a change of wording is a change
 * of this file.  What a failure's detail says (an `err` text from the
 * room that met it: "the shell /bin/bash: No such file or directory")
 * is worded where the failure is known, and reaches the terminal inside
 * one of these sentences.
 *
 * pty_say writes one of them as a whole line to a descriptor, ending in
 * `eol`: "\r\n" on a terminal in raw mode (the interactive session),
 * "\n" otherwise.
 */
#ifndef PTY_MESSAGES_H
#define PTY_MESSAGES_H

#include "pty_decide.h"

#include <stddef.h>

#define PTY_MSG_PREFIX "maelys-pty: "

/* -- the command line (options.c) */
#define PTY_MSG_USAGE                                                          \
	"usage: maelys-pty [-c COMMAND]\n"                                     \
	"       maelys-pty --check [--config FILE] [--user NAME]\n"            \
	"       maelys-pty --verify-log FILE [--config FILE]\n"                \
	"       maelys-pty [--config FILE | --policy FILE] [--shell "          \
	"PATH]\n"                                                              \
	"                  [--path PATH] [--history FILE] [-c COMMAND]\n"      \
	"       maelys-pty [--config FILE | --policy FILE] [--path PATH] "     \
	"--list\n"                                                             \
	"       maelys-pty --help | --version\n"                               \
	"\n"                                                                   \
	"Runs bash behind a guard that decides every line typed at the\n"      \
	"prompt with a Datalog policy before bash may see it.\n"               \
	"\n"                                                                   \
	"  -c COMMAND        decide and run one command, no terminal\n"        \
	"                    (what sshd runs for ssh host COMMAND); a\n"       \
	"                    denied command exits 126\n"                       \
	"  --config FILE     the configuration (default %s);\n"                \
	"                    it and its policy must be root's, writable\n"     \
	"                    by root only\n"                                   \
	"  --check           check everything a session needs (the\n"          \
	"                    configuration, the policy, the shell,\n"          \
	"                    Landlock, the audit log, this program's\n"        \
	"                    installation, the host): one line a\n"            \
	"                    problem; exit 0 when a session can start\n"       \
	"  --user NAME       (root, with --check) decide for NAME's\n"         \
	"                    sessions rather than root's\n"                    \
	"  --verify-log FILE check an audit log's chain with the\n"            \
	"                    configured key; name the first bad record\n"      \
	"  --policy FILE     try a policy without a configuration (no\n"       \
	"                    audit log): for development\n"                    \
	"  --shell PATH      the bash to run (default: the\n"                  \
	"                    configuration's, else %s)\n"                      \
	"  --path PATH       PATH of the session (default: the\n"              \
	"                    configuration's, else %s)\n"                      \
	"  --history FILE    line history (default "                           \
	"~/.maelys_pty_history)\n"                                             \
	"  --list            the commands of PATH the policy lets you run\n"   \
	"                    typed alone here, as `help` at the prompt\n"      \
	"                    lists them (one a line without a terminal)\n"     \
	"A guard installed setuid takes its settings from %s only.\n"
#define PTY_MSG_VERSION "maelys-pty %s (libmaelys-datalog %s)\n"
#define PTY_MSG_NEEDS_COMMAND PTY_MSG_PREFIX "-c needs a command"
#define PTY_MSG_NEEDS_VALUE   PTY_MSG_PREFIX "%s needs a value"
#define PTY_MSG_UNKNOWN_OPTION PTY_MSG_PREFIX "unknown option '%s'"
#define PTY_MSG_USER_WITHOUT_CHECK                                             \
	PTY_MSG_PREFIX "--user goes with --check (it names the user whose "    \
		       "sessions are checked)"
#define PTY_MSG_CONFIG_AND_POLICY                                              \
	PTY_MSG_PREFIX "--config and --policy exclude each other (the "        \
		       "configuration names the policy)"

/* -- before the session starts (main.c): one line, then the exit */
#define PTY_MSG_FAILED PTY_MSG_PREFIX "%s"
#define PTY_MSG_SETUID_ROOT                                                    \
	"installed setuid root: it must be setuid to its audit account, "     \
	"never to root (run maelys-pty-setup)"
#define PTY_MSG_SETGID_LEFT                                                    \
	"installed setgid, as an earlier maelys-pty-setup left it: run "      \
	"maelys-pty-setup again (the guard is now setuid to its audit "       \
	"account)"
#define PTY_MSG_PRIVILEGED_OPTIONS                                             \
	"options that change the configuration are for an unprivileged "      \
	"guard; this one reads only %s"
#define PTY_MSG_CANNOT_DROP     "cannot drop the audit account"
#define PTY_MSG_NO_AUDIT_KEY    "%s names no audit_key"
#define PTY_MSG_AUDIT_LOG       "audit log: %s"
#define PTY_MSG_UNNAMED_USER    "cannot name the user of uid %u"
#define PTY_MSG_NO_RANDOMNESS   "no randomness for a session id"
#define PTY_MSG_NO_START_RECORD                                                \
	"the audit log cannot be written: the session does not start"

/* -- a line's refusal (pty_say_decision) */
#define PTY_MSG_DENIED_BEFORE_SOLVING                                          \
	PTY_MSG_PREFIX "denied before solving \xe2\x80\x94 %s"
#define PTY_MSG_DENIED_UNEVALUATED                                             \
	PTY_MSG_PREFIX "'%s' denied: the policy could not be evaluated (%s)"
#define PTY_MSG_DENIED_BY_POLICY PTY_MSG_PREFIX "'%s' denied by policy"
#define PTY_MSG_NO_RULE_ALLOWS   "  no rule allows '%s'"
#define PTY_MSG_DENY_REASON      "  deny(%s): %s"
#define PTY_MSG_MORE_REASONS     "  ... and %zu more"

/* -- what the guard concludes (guard.c) */
#define PTY_MSG_AUDIT_ENDS                                                     \
	PTY_MSG_PREFIX "the audit log cannot be written: the session ends"
#define PTY_MSG_TOO_MANY_REFUSALS                                              \
	PTY_MSG_PREFIX "%u refusals in this session: the session ends"
#define PTY_MSG_NEEDS_A_LOG                                                    \
	PTY_MSG_PREFIX "'%s' may run only once recorded, and no audit log "   \
		       "is configured"
#define PTY_MSG_RECORD_FAILED                                                  \
	PTY_MSG_PREFIX "'%s' denied: its audit record could not be written "  \
		       "(%s)"
#define PTY_MSG_CONFIRM_WITHOUT_TERMINAL                                       \
	PTY_MSG_PREFIX "'%s' needs confirmation (%s), which a command "       \
		       "without a terminal cannot give"
#define PTY_MSG_NOT_CONFIRMED PTY_MSG_PREFIX "'%s' not confirmed"
#define PTY_MSG_EXEC_RECORD_FAILED                                             \
	PTY_MSG_PREFIX "exec of '%s' denied: its audit record could not be "  \
		       "written (%s)"

/* -- the interactive session and -c (line/) */
#define PTY_MSG_NOT_A_TERMINAL                                                 \
	PTY_MSG_PREFIX "standard input is not a terminal (use -c COMMAND)"
#define PTY_MSG_CONFIRM_QUESTION "%s [y/N] "
#define PTY_MSG_IDLE PTY_MSG_PREFIX "idle at the prompt: the session ends"
#define PTY_MSG_SUPERVISOR_FAILED                                              \
	PTY_MSG_PREFIX "the exec supervisor failed: the session ends"
#define PTY_MSG_SHELL_EXITED                                                   \
	PTY_MSG_PREFIX "the shell %s exited before the session started"
#define PTY_MSG_SHELL_LATE PTY_MSG_PREFIX "the shell did not start in time"
#define PTY_MSG_SHELL_NOT_LOCKED                                               \
	PTY_MSG_PREFIX "the shell could not be locked down; the session does " \
		       "not start"
#define PTY_MSG_EMPTY_COMMAND PTY_MSG_PREFIX "empty command: nothing to run"
#define PTY_MSG_COMMAND_TOO_LONG PTY_MSG_PREFIX "the command is too long"

/* -- a refused exec (exec/exec_conclude.c): the program, then how it was
 * refused, then why */
#define PTY_MSG_EXEC_OF_PROCESS  PTY_MSG_PREFIX "an exec of process %d %s"
#define PTY_MSG_EXEC_OF_RESOLVED PTY_MSG_PREFIX "exec of '%s' (%s) %s"
#define PTY_MSG_EXEC_OF          PTY_MSG_PREFIX "exec of '%s' %s"
#define PTY_MSG_EXEC_DENIED_BY_POLICY "denied by policy"
#define PTY_MSG_EXEC_DENIED_UNEVALUATED                                        \
	"denied: the policy could not be evaluated"
#define PTY_MSG_EXEC_DENIED_UNCHECKED "denied: the request could not be checked"
#define PTY_MSG_EXEC_DENIED           "denied"
#define PTY_MSG_EXEC_VIA_SHEBANG      "  the interpreter of the #! script %s"
#define PTY_MSG_EXEC_VIA_LOADER                                                \
	"  run as a program by the dynamic loader %s"
#define PTY_MSG_EXEC_WHY          "  %s"
#define PTY_MSG_EXEC_DENY_REASON  "  deny_exec: %s"
#define PTY_MSG_EXEC_MORE_REASONS "  (and %zu more)"

/* -- what may I run: `help` at the prompt and --list (runnable_say.c,
 * guard_help.c).  The marks follow a name in the columns; without a
 * terminal (--list to a pipe) a line is the name alone, or the name, a
 * tab and the word of its mark. */
#define PTY_MSG_RUNNABLE_HEAD                                                  \
	"Commands of PATH you may run here, typed alone (with arguments a "    \
	"line is decided again):"
#define PTY_MSG_RUNNABLE_NONE                                                  \
	"No command of PATH may run here typed alone (%zu looked at)."
#define PTY_MSG_RUNNABLE_COUNT        "%zu of the %zu commands of PATH."
#define PTY_MSG_RUNNABLE_LOGGED_MARK  " (logged)"
#define PTY_MSG_RUNNABLE_CONFIRM_MARK " (confirm)"
#define PTY_MSG_RUNNABLE_LEGEND_LOGGED                                         \
	"(logged): runs only once the audit log has recorded it"
#define PTY_MSG_RUNNABLE_LEGEND_CONFIRM                                        \
	"(confirm): asks you to confirm before it runs"
#define PTY_MSG_RUNNABLE_CUT                                                   \
	"(the list stops at the first %u names read from PATH)"
#define PTY_MSG_RUNNABLE_PLAIN         "%s"
#define PTY_MSG_RUNNABLE_PLAIN_LOGGED  "%s\tlogged"
#define PTY_MSG_RUNNABLE_PLAIN_CONFIRM "%s\tconfirm"
#define PTY_MSG_RUNNABLE_FAILED                                                \
	PTY_MSG_PREFIX "cannot list the commands: out of memory"
#define PTY_MSG_HELP_RECORD_FAILED                                             \
	PTY_MSG_PREFIX "help: its audit record could not be written (%s)"

/* -- where a refused line went wrong (where.c), under the refusal: one
 * line a metacharacter class (its first one), or the refused byte; then,
 * at the prompt, a caret under it (the line as echoed after the prompt).
 * The class's words: "a pipe '|' at column 12". */
#define PTY_MSG_WHERE_META        "  %s '%.*s' at column %zu"
#define PTY_MSG_WHERE_REFUSED     "  %s at column %zu"
#define PTY_MSG_META_PIPE         "a pipe"
#define PTY_MSG_META_REDIRECT     "a redirection"
#define PTY_MSG_META_SEMICOLON    "a semicolon"
#define PTY_MSG_META_BACKTICK     "a backtick"
#define PTY_MSG_META_VAR_EXPAND   "a variable expansion"
#define PTY_MSG_META_GLOB         "a glob"
#define PTY_MSG_META_HISTORY      "a history expansion"
#define PTY_MSG_META_BRACE        "a brace"
#define PTY_MSG_META_SUBSHELL     "a subshell parenthesis"
#define PTY_MSG_META_TILDE        "a tilde"
#define PTY_MSG_META_COMMENT      "a comment"
#define PTY_MSG_META_ASSIGNMENT   "an assignment"
#define PTY_MSG_META_BACKGROUND   "an ampersand"
#define PTY_MSG_REFUSED_QUOTE     "a quote"
#define PTY_MSG_REFUSED_BACKSLASH "a backslash"
#define PTY_MSG_REFUSED_AMPERSAND "an ampersand"
#define PTY_MSG_REFUSED_NUL       "a NUL byte"
#define PTY_MSG_REFUSED_NEWLINE   "a line break"
#define PTY_MSG_REFUSED_CONTROL   "a control character"
#define PTY_MSG_REFUSED_ENCODING  "a byte that is not UTF-8 text"
#define PTY_MSG_REFUSED_INVISIBLE "an invisible or look-alike character"
#define PTY_MSG_REFUSED_HEREDOC   "a here-document"
/* -- the lockout drawing near (guard.c): after a refusal of an
 * interactive session with max_denials set, once at most
 * PTY_GUARD_WARN_LEFT refusals remain */
#define PTY_MSG_REFUSALS_LEFT     PTY_MSG_PREFIX "%u refusals left in this session"
#define PTY_MSG_REFUSAL_LEFT      PTY_MSG_PREFIX "1 refusal left in this session"

/* Writes all n bytes of the session's stream (the shell's output to the
 * user, the user's keys to the shell): a short write or EINTR is retried,
 * and on a descriptor that is not blocking (the session's pty) EAGAIN
 * waits until it takes more.  Returns 0, or -1 when the descriptor takes
 * no more. */
int pty_write_all(int fd, const void *buf, size_t n);

/* One of the sentences above, formatted, as a whole line ending in eol
 * ("" for a question that waits on the same line; cut at 16 KiB, room
 * for three whole paths).  A descriptor that is full and not blocking
 * loses the message rather than holding the guard: with -c, stderr is
 * the session's too, and a program of the session could make it so while
 * the guard writes the refusal of its own exec. */
void pty_say(int fd, const char *eol, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Copies s into dst (cap bytes) with every control character shown as
 * '?': a path or a reason is the session's data, and must not drive the
 * user's terminal. */
void pty_printable(char *dst, size_t cap, const char *s);

/* What the user sees of a line's decision that is not ALLOW (nothing for
 * those the caller acts on: ALLOW, ALLOW_LOG, CONFIRM, EMPTY):
 *   maelys-pty: 'shutdown' denied by policy
 *     deny(shutdown): command is forbidden by policy */
void pty_say_decision(const struct pty_decision *dec, int fd,
		      const char *eol);

#endif /* PTY_MESSAGES_H */
