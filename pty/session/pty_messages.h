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
	"       maelys-pty --check [--config FILE] [--user NAME] [--werror]\n"  \
	"       maelys-pty --verify-log FILE... [--state FILE] [--config "    \
	"FILE]\n"                                                              \
	"       maelys-pty --new-audit-key PUB --state FILE\n"                 \
	"       maelys-pty [--config FILE | --policy FILE] [--shell "          \
	"PATH]\n"                                                              \
	"                  [--path PATH] [--history FILE] [-c COMMAND]\n"      \
	"       maelys-pty test [--policy FILE | --config FILE] [-v] "         \
	"[--coverage]\n"                                                      \
	"                       [--werror] CASEFILE...\n"                     \
	"       maelys-pty explain [OPTIONS] 'LINE' | --exec PATH "           \
	"[-- ARGV...]\n"                                                       \
	"       maelys-pty log [OPTIONS] [FILE...] | log --replay --policy "   \
	"FILE [FILE...]\n"                                                     \
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
	"  --werror          (with --check) a warning of the policy is\n"     \
	"                    an error: the check fails\n"                      \
	"  --verify-log FILE...  check an audit log's files (oldest\n"        \
	"                    first) as one chain with the configured\n"        \
	"                    audit_verify_key; name the first bad record\n"   \
	"                    and the missing ones\n"                           \
	"  --state FILE      (with --verify-log) the signing state to\n"      \
	"                    compare the log's end with (default: the\n"      \
	"                    configured audit_key, when readable)\n"          \
	"  --new-audit-key PUB  (with --state FILE) make a new audit\n"       \
	"                    log's keys: the state and the public key\n"      \
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
#define PTY_MSG_STATE_WITHOUT_VERIFY                                           \
	PTY_MSG_PREFIX "--state goes with --verify-log or --new-audit-key"
#define PTY_MSG_NEW_KEY_NEEDS_STATE                                            \
	PTY_MSG_PREFIX "--new-audit-key PUB needs --state FILE"
#define PTY_MSG_VERIFY_FILES_TOGETHER                                          \
	PTY_MSG_PREFIX "--verify-log: give the log's files together, "         \
		       "oldest first"
#define PTY_MSG_NEW_AUDIT_KEY                                                  \
	"maelys-pty: new audit log keys: state %s, verification key %s\n"     \
	"verification key fingerprint: %s\n"                                   \
	"Keep a copy of %s (or this fingerprint) off this host: it is\n"      \
	"what shows that the log was not rewritten with other keys.\n"
#define PTY_MSG_VERIFY_TOO_MANY                                                \
	"--verify-log: more than %d files at once"
#define PTY_MSG_NO_VERIFY_KEY                                                  \
	"%s names no audit_verify_key (nor an audit_key beside which "         \
	"audit.pub would be)"
#define PTY_MSG_NEEDS_VALUE   PTY_MSG_PREFIX "%s needs a value"
#define PTY_MSG_UNKNOWN_OPTION PTY_MSG_PREFIX "unknown option '%s'"
#define PTY_MSG_USER_WITHOUT_CHECK                                             \
	PTY_MSG_PREFIX "--user goes with --check (it names the user whose "    \
		       "sessions are checked)"
#define PTY_MSG_WERROR_WITHOUT_CHECK                                           \
	PTY_MSG_PREFIX "--werror goes with --check (it makes the policy's "    \
		       "warnings errors)"
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
#define PTY_MSG_OPTION_TOO_LONG "%s: at most %zu bytes"
#define PTY_MSG_AUDIT_LOG       "audit log: %s"
#define PTY_MSG_UNNAMED_USER    "cannot name the user of uid %u"
#define PTY_MSG_NO_RANDOMNESS   "no randomness for a session id"
#define PTY_MSG_NO_START_RECORD                                                \
	"the audit log cannot be written: the session does not start"

/* -- a policy that decides lines only (no allow_exec): the walkthrough's
 * Level 1 policy.  Refused with exec_decisions = required; otherwise said
 * once as an interactive session starts. */
#define PTY_MSG_EXECS_UNDECIDED_REFUSED                                        \
	"the policy defines no allow_exec: it decides the lines typed, not "   \
	"the programs they start, and exec_decisions = required (the "         \
	"default of a configuration) refuses such a policy; see "              \
	"maelys-policy(5), LEVEL 1 POLICIES"
#define PTY_MSG_CHECK_EXECS_UNDECIDED                                          \
	"the policy defines no allow_exec: programs are recorded, not "        \
	"decided (exec_decisions = optional)"
#define PTY_MSG_EXECS_UNDECIDED_NOTE                                           \
	PTY_MSG_PREFIX "this policy decides the lines you type, not the "      \
		       "programs they start: those are recorded, not "         \
		       "decided (maelys-policy(5), LEVEL 1 POLICIES)"

/* -- a line's refusal (pty_say_decision) */
#define PTY_MSG_DENIED_BEFORE_SOLVING                                          \
	PTY_MSG_PREFIX "denied before solving \xe2\x80\x94 %s"
#define PTY_MSG_DENIED_UNEVALUATED                                             \
	PTY_MSG_PREFIX "'%s' denied: the policy could not be evaluated (%s)"
#define PTY_MSG_DENIED_BY_POLICY PTY_MSG_PREFIX "'%s' denied by policy"
#define PTY_MSG_NO_RULE_ALLOWS   "  no rule allows '%s'"
#define PTY_MSG_DENY_REASON      "  deny(%s): %s"
#define PTY_MSG_MORE_REASONS     "  ... and %zu more"

/* the shell's working directory cannot be named and the policy reads cwd
 * (PTY_VERDICT_NO_CWD): why, then what can be done */
#define PTY_MSG_DENIED_NO_CWD                                                  \
	PTY_MSG_PREFIX "'%s' denied: the shell's working directory cannot "    \
		       "be named (%s), and the policy decides lines by it "    \
		       "(cwd)"
#define PTY_MSG_DENIED_NO_CWD_WHAT_TO_DO                                       \
	"  no line is decided here while it has no name; Ctrl-D ends the "     \
	"session"

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

/* -- the session recording (guard_cast.c) */
#define PTY_MSG_RECORDING_CANNOT_START                                         \
	PTY_MSG_PREFIX "the session cannot be recorded, so it does not "      \
		       "start: %s"
#define PTY_MSG_RECORDING_STOPPED                                              \
	PTY_MSG_PREFIX "the recording of this session has stopped (it "       \
		       "reached record_max or your share of its disk, or "    \
		       "could not be written): the programs it runs are "     \
		       "ended, and every further command is refused; end "    \
		       "the session with Ctrl-D"
#define PTY_MSG_RECORDING_ENDS                                                 \
	PTY_MSG_PREFIX "the recording of this session has stopped (it "       \
		       "reached record_max or your share of its disk, or "    \
		       "could not be written): the session ends"
/* After a marker's line cut to its first 200 bytes (the recording). */
#define PTY_MSG_MARK_CUT " [cut: %zu bytes more in the audit log]"
#define PTY_MSG_RECORDING_REFUSES                                              \
	PTY_MSG_PREFIX "'%s' denied: the recording of this session has "      \
		       "stopped"
#define PTY_MSG_EXEC_RECORDING_REFUSES                                         \
	PTY_MSG_PREFIX "exec of '%s' denied: the recording of this session "  \
		       "has stopped"
/* the "error" of the audit record of what it refused */
#define PTY_MSG_RECORDING_STOPPED_ERROR                                        \
	"the session recording stopped (on_record_failure = deny)"

/* -- the interactive session and -c (line/) */
#define PTY_MSG_NOT_A_TERMINAL                                                 \
	PTY_MSG_PREFIX "standard input is not a terminal (use -c COMMAND)"
#define PTY_MSG_CONFIRM_QUESTION "%s [y/N] "
#define PTY_MSG_IDLE PTY_MSG_PREFIX "idle at the prompt: the session ends"
#define PTY_MSG_PASTE_LEFT_OUT                                                 \
	PTY_MSG_PREFIX "a paste of %llu bytes was left out: a line holds "    \
		       "fewer than %zu bytes, and no NUL"
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
#define PTY_MSG_NO_TERMINAL_QUEUE                                              \
	"no memory for the queue of the terminal's output"
/* where the guard's messages that a terminal did not read in time were
 * left out (session/termout.c): said once there is room again */
#define PTY_MSG_TERMOUT_LOST                                                   \
	PTY_MSG_PREFIX "%llu bytes of the guard's own output were not "       \
		       "shown: the terminal did not read them (the audit "   \
		       "log has every decision)"

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
#define PTY_MSG_EXEC_NEVER                                                     \
	"  exec_never: the policy never runs this program in a session"
#define PTY_MSG_EXEC_MORE_REASONS "  (and %zu more)"
/* a process that, once an allowed exec was over, ran another program
 * (exec/exec_verify.c): the first line without its prefix is the audit
 * record's "error" */
#define PTY_MSG_EXEC_MISMATCH                                                  \
	"process %d runs %s, not the program allowed (%s): %s"
#define PTY_MSG_EXEC_MISMATCH_ENDED  "it was ended"
#define PTY_MSG_EXEC_MISMATCH_GONE   "it had ended already"
#define PTY_MSG_EXEC_MISMATCH_UNNAMED "a program the kernel cannot name"
#define PTY_MSG_EXEC_MISMATCH_WHY                                              \
	"  what its exec named changed after the guard's check (it runs "     \
	"device %llu:%llu, inode %llu)"

/* -- maelys-pty test (tools/test.c): the policy's cases.  A case's line
 * is "FILE:LINE: CASE: got VERDICT (REASONS)" when it fails, and
 * "FILE:LINE: CASE: ok VERDICT (REASONS)" with -v; the reasons are joined
 * with "; ". */
#define PTY_MSG_TEST_USAGE                                                     \
	"usage: maelys-pty test [--policy FILE | --config FILE] [-v] "        \
	"[--coverage]\n"                                                      \
	"                       [--werror] CASEFILE...\n"                     \
	"\n"                                                                  \
	"Decides every case of the case files with the policy, as the\n"      \
	"guard would, and prints each case that does not hold.\n"             \
	"\n"                                                                  \
	"  --policy FILE  the policy (default: for DIR/cases/NAME.case,\n"    \
	"                 DIR/NAME.dl)\n"                                      \
	"  --config FILE  the policy the configuration FILE names\n"          \
	"  -v             print every case, its verdict and reasons, and\n"   \
	"                 the policy of each case file\n"                     \
	"  --coverage     then list the policy's rules no case made true\n"   \
	"  --werror       a warning of the policy fails it (exit 2)\n"       \
	"Exit status: 0 every case holds, 1 some case does not, 2 a case\n"   \
	"file or the policy does not load.\n"
#define PTY_MSG_TEST_NO_CASEFILE PTY_MSG_PREFIX "test: no case file given"
#define PTY_MSG_TEST_FAILED      "%s:%zu: %s: got %s%s"
#define PTY_MSG_TEST_PASSED      "%s:%zu: %s: ok %s%s"
#define PTY_MSG_TEST_REASONS     " (%s)"
#define PTY_MSG_TEST_CONFIRMED   " after confirmation"
#define PTY_MSG_TEST_VIA         " (via %s %s)"
#define PTY_MSG_TEST_DENY        "deny(%s): %s"
#define PTY_MSG_TEST_DENY_EXEC   "deny_exec: %s"
#define PTY_MSG_TEST_NO_RULE     "no rule allows '%s'"
#define PTY_MSG_TEST_NO_REASON   "no deny_exec reason"
#define PTY_MSG_TEST_EXEC_NEVER  "exec_never holds"
#define PTY_MSG_TEST_MORE        "and %zu more"
#define PTY_MSG_TEST_SUMMARY     "%zu passed, %zu failed"
#define PTY_MSG_TEST_POLICY      "%s: policy %s"
#define PTY_MSG_TEST_MALFORMED   "%s:%zu: %s"
#define PTY_MSG_TEST_UNREADABLE  "%s: %s"
#define PTY_MSG_TEST_NO_CASES    "%s: no cases"
#define PTY_MSG_TEST_MORE_MALFORMED "%s: and %zu more malformed lines"
#define PTY_MSG_TEST_NOT_A_CASE                                                \
	"%s: not NAME.case, so no policy of the same name: give one with "   \
	"--policy"
#define PTY_MSG_TEST_NO_DECIDER "%s: cannot make a decider"
/* a warning of the policy (pty_policy_warnings), before its cases */
#define PTY_MSG_TEST_WARNING "%s:%zu:%zu: warning: %s"
#define PTY_MSG_TEST_WERROR  " (--werror)"
#define PTY_MSG_TEST_WERROR_FAILED                                             \
	PTY_MSG_PREFIX "%s: %zu warning%s, errors with --werror: its cases "   \
		       "are not decided"
/* --coverage: a rule no case made true (its source:line and its text),
 * then the count of those some case did */
#define PTY_MSG_TEST_UNCOVERED  "%s:%zu: not covered: %s"
#define PTY_MSG_TEST_COVERED    "%s: covered %zu of %zu rules"
#define PTY_MSG_TEST_NO_COVERAGE                                               \
	PTY_MSG_PREFIX "policy %s: its coverage cannot be measured (%s)"
/* -- `maelys-pty log` (tools/log*.c): the audit log as a table, and
 * --replay.  The table's columns: time (UTC), user, session (its first 8
 * hex digits), decision, the line or program, the reasons. */
#define PTY_MSG_LOG_USAGE                                                      \
	"usage: maelys-pty log [--user U] [--since T] [--until T] "          \
	"[--session ID]\n"                                                    \
	"                      [--denied] [--json] [--key FILE] "            \
	"[--config FILE] [FILE...]\n"                                         \
	"       maelys-pty log --replay --policy CANDIDATE.dl [--key FILE]\n" \
	"                      [--config FILE] [FILE...]\n"                   \
	"\n"                                                                  \
	"Reads the audit log (FILE..., oldest first; default: the\n"         \
	"configured audit_log), verifying every record before it is\n"       \
	"shown, and prints one row per record: the time (UTC), user,\n"      \
	"session, decision, line or program, and reasons.\n"                 \
	"\n"                                                                  \
	"  --user U       the records of user U\n"                            \
	"  --since T      at or after T; --until T: up to the end of T\n"     \
	"                 (T: RFC 3339, or YYYY-MM-DD or 'YYYY-MM-DD HH:MM',\n"\
	"                 UTC)\n"                                              \
	"  --session ID   the records of the sessions whose id starts so\n"   \
	"  --denied       only the refusals (deny, refused, error,\n"         \
	"                 declined)\n"                                         \
	"  --json         the records themselves, one per line\n"             \
	"  --key FILE     the log's key (default: the configured one)\n"      \
	"  --config FILE  the configuration (default: the built-in path)\n"   \
	"  --replay       decide every recorded line and program again\n"     \
	"                 under --policy CANDIDATE.dl and print only what\n"  \
	"                 would change\n"                                      \
	"Exit status: 0 every record verified (with --replay: and nothing\n"\
	"would change), 1 the log is broken (with --replay: or something\n" \
	"would change), 2 a usage error or a log that cannot be read.\n"
#define PTY_MSG_LOG_BAD_VALUE  PTY_MSG_PREFIX "log: %s '%s': %s"
#define PTY_MSG_LOG_WANT_TIME                                                  \
	"a time: RFC 3339, YYYY-MM-DD or 'YYYY-MM-DD HH:MM' (UTC)"
#define PTY_MSG_LOG_WANT_HEX   "hex digits, at most 32"
#define PTY_MSG_LOG_WANT_WORD  "a value cannot be empty"
#define PTY_MSG_LOG_UNKNOWN    PTY_MSG_PREFIX "log: unknown option '%s'"
#define PTY_MSG_LOG_REPLAY_NEEDS_POLICY                                        \
	PTY_MSG_PREFIX "log: --replay needs --policy CANDIDATE.dl"
#define PTY_MSG_LOG_POLICY_WITHOUT_REPLAY                                      \
	PTY_MSG_PREFIX "log: --policy goes with --replay"
#define PTY_MSG_LOG_REPLAY_FILTERS                                             \
	PTY_MSG_PREFIX "log: --replay takes no --denied or --json"
#define PTY_MSG_LOG_NO_CONFIG                                                  \
	PTY_MSG_PREFIX "log: %s (give the log's files and --key)"
#define PTY_MSG_LOG_NO_LOG                                                     \
	PTY_MSG_PREFIX "log: the configuration names no audit_log: give "     \
		       "the log's files"
#define PTY_MSG_LOG_FAILED     PTY_MSG_PREFIX "log: %s"
#define PTY_MSG_LOG_NO_DECIDER                                                 \
	"%s: cannot make a decider (the calling user has no name)"
/* a record that verified but that this tool cannot read (a field of
 * another type than pty_audit.h says) */
#define PTY_MSG_LOG_UNREADABLE PTY_MSG_PREFIX "log: %s: line %llu: %s"
#define PTY_MSG_LOG_HEADING                                                    \
	"TIME (UTC)           USER        SESSION   DECISION        "         \
	"LINE OR PROGRAM  (REASONS)"
/* the decision column of the session's own events */
#define PTY_MSG_LOG_START      "start"
#define PTY_MSG_LOG_END        "end"
#define PTY_MSG_LOG_EXEC       "exec "
#define PTY_MSG_LOG_BY_SHA256  "(line recorded by its SHA-256)"
#define PTY_MSG_LOG_ON_TTY     " on %s"
#define PTY_MSG_LOG_FROM       " from %s"
#define PTY_MSG_LOG_EXIT       "exit %lld"
#define PTY_MSG_LOG_SIGNAL     "killed by %s"
#define PTY_MSG_LOG_COUNTS     "%sdecisions %lld, refusals %lld, execs %lld"
#define PTY_MSG_LOG_DENY_OPEN  "deny("
#define PTY_MSG_LOG_DENY_CLOSE "): "
#define PTY_MSG_LOG_REASON_SEP "; "
/* --replay: a decision that would change, its new reasons under it */
#define PTY_MSG_LOG_CHANGE_WHEN "%s  "
#define PTY_MSG_LOG_CHANGE     "  %s -> %s  "
#define PTY_MSG_LOG_NEW_REASON "    "
#define PTY_MSG_LOG_ALLOWED    "allowed"
#define PTY_MSG_LOG_LOGGED     "allowed with log"
#define PTY_MSG_LOG_ASKS       "asks confirmation"
#define PTY_MSG_LOG_REFUSED    "refused"
#define PTY_MSG_LOG_NO_RULE    "no rule allows '%s'"
#define PTY_MSG_LOG_NO_REASON  "no deny_exec reason"
#define PTY_MSG_LOG_WITH_LOG   "allow_with_log: %s"
#define PTY_MSG_LOG_CONFIRM    "require_confirm: %s"
#define PTY_MSG_LOG_ERROR      "the policy could not be evaluated: %s"

#define PTY_MSG_LOG_NO_CWD "the working directory cannot be named: %s"

#define PTY_MSG_LOG_FACTS_BAD                                                  \
	PTY_MSG_PREFIX "log: record %llu: its facts cannot be decided "        \
		       "again: %s"
#define PTY_MSG_LOG_NO_KEY_FACT "no %s fact"
#define PTY_MSG_LOG_SUMMARY                                                    \
	"%llu decisions replayed, %llu would change (%llu newly refused, "     \
	"%llu newly allowed), %llu not replayable (recorded by SHA-256 or "    \
	"refused by the scanner)"

/* -- `maelys-pty explain` (tools/explain*.c): the verdict of one line or
 * program, then its derivation */
#define PTY_MSG_EXPLAIN_USAGE                                                  \
	"usage: maelys-pty explain [OPTIONS] 'LINE'\n"                         \
	"       maelys-pty explain [OPTIONS] --exec PATH [-- ARGV...]\n"       \
	"\n"                                                                   \
	"Prints the verdict a session would reach for LINE (or for the\n"      \
	"program PATH that a process of the session executes), then the\n"     \
	"rules and facts it came from, as a tree.\n"                           \
	"\n"                                                                   \
	"  --policy FILE    the policy (default: the configuration's)\n"       \
	"  --config FILE    the configuration (default %s)\n"                  \
	"  --user NAME      user/1 (default: you)\n"                           \
	"  --group NAME     group/1, repeated (default: the user's groups)\n"  \
	"  --cwd DIR        cwd/1 and exec_cwd/1 (default: this directory)\n"  \
	"  --time HH:MM     time_of_day/1 (default: now)\n"                    \
	"  --mode MODE      session_mode/1: interactive (default) or "         \
	"command\n"                                                            \
	"  --remote ADDR    remote_addr/1 (default: none)\n"                   \
	"  --host NAME      host/1 (default: this machine's name)\n"           \
	"  --depth N        levels of the tree (default %u, at most %u)\n"     \
	"  --exec PATH      explain the exec of PATH; ARGV defaults to its\n"  \
	"                   base name\n"                                       \
	"  --shell PATH     session_shell/1 (default: the configuration's\n"   \
	"                   shell, resolved)\n"                                \
	"  --guard PATH     guard_program/1 (default: this program)\n"         \
	"  --parent PATH    exec_parent/1 (default: the session's shell)\n"
#define PTY_MSG_EXPLAIN_BAD_VALUE         PTY_MSG_PREFIX "explain: %s '%s': %s"
#define PTY_MSG_EXPLAIN_WANT_WORD         "a value cannot be empty"
#define PTY_MSG_EXPLAIN_WANT_FEWER_GROUPS "at most 64 groups"
#define PTY_MSG_EXPLAIN_WANT_ABSOLUTE     "an absolute path"
#define PTY_MSG_EXPLAIN_WANT_TIME         "the time as HH:MM, 00:00 to 23:59"
#define PTY_MSG_EXPLAIN_WANT_MODE         "interactive or command"
#define PTY_MSG_EXPLAIN_WANT_DEPTH        "a number from 1 to 64"
#define PTY_MSG_EXPLAIN_WANT_SHORTER      "at most %zu bytes"
#define PTY_MSG_EXPLAIN_TOO_MANY_ARGS                                          \
	PTY_MSG_PREFIX "explain: at most %d words of ARGV"
#define PTY_MSG_EXPLAIN_EXTRA_WORD                                             \
	PTY_MSG_PREFIX "explain: '%s' is one word too many (quote the line "   \
		       "as one word; with --exec, ARGV follows --)"
#define PTY_MSG_EXPLAIN_NOTHING                                                \
	PTY_MSG_PREFIX "explain: give a line to explain, or --exec PATH "      \
		       "(--help)"
#define PTY_MSG_EXPLAIN_EXEC_ONLY                                              \
	PTY_MSG_PREFIX "explain: --shell, --guard and --parent go with --exec"
#define PTY_MSG_EXPLAIN_FAILED        PTY_MSG_PREFIX "explain: %s"
#define PTY_MSG_EXPLAIN_UNKNOWN_USER  "cannot name the user of uid %u"
#define PTY_MSG_EXPLAIN_NO_SHELL      "the shell %s: %s (give --shell)"
#define PTY_MSG_EXPLAIN_PATH_TOO_LONG "%s: the path is too long"
/* the head of the explanation: what was decided, for whom */
#define PTY_MSG_EXPLAIN_LINE          "line: %s"
#define PTY_MSG_EXPLAIN_PROGRAM       "program: %s"
#define PTY_MSG_EXPLAIN_FACTS         "facts:"
#define PTY_MSG_EXPLAIN_VERDICT       "verdict: %s"
#define PTY_MSG_EXPLAIN_ASKED_AS      " (asked as %s)"
#define PTY_MSG_EXPLAIN_ARGV          ", argv:"
#define PTY_MSG_EXPLAIN_PROGRAMS      "      shell %s, guard %s, parent %s"
#define PTY_MSG_EXPLAIN_EXECS_RECORDED                                         \
	"recorded, not decided: the policy defines no allow_exec (it decides " \
	"lines only), and with exec_decisions = optional a session records "  \
	"this program and runs it (maelys-policy(5), LEVEL 1 POLICIES)"
#define PTY_MSG_EXPLAIN_EXECS_REFUSED                                          \
	"and the policy defines no allow_exec: it decides lines only, which "  \
	"exec_decisions = required refuses: no session starts with it "        \
	"(maelys-policy(5), LEVEL 1 POLICIES)"
#define PTY_MSG_EXPLAIN_ALLOW         "allowed (allow)"
#define PTY_MSG_EXPLAIN_ALLOW_LOG     "allowed once recorded (allow_with_log: %s)"
#define PTY_MSG_EXPLAIN_CONFIRM       "asks first (require_confirm: %s)"
#define PTY_MSG_EXPLAIN_POLICY        "denied by policy: no rule allows '%s'"
#define PTY_MSG_EXPLAIN_EMPTY         "an empty line: nothing to decide"
#define PTY_MSG_EXPLAIN_SYNTAX                                                 \
	"denied before solving: %s (at byte %zu); the scanner refuses the "    \
	"line, no rule is asked"
#define PTY_MSG_EXPLAIN_ERROR       "denied: the policy could not be evaluated (%s)"
#define PTY_MSG_EXPLAIN_EXEC_ALLOW  "allowed (allow_exec)"
#define PTY_MSG_EXPLAIN_EXEC_POLICY "denied by policy: no rule allows '%s'"
#define PTY_MSG_EXPLAIN_EXEC_NEVER                                             \
	"denied by policy: exec_never holds for '%s' (in a session the "      \
	"kernel never executes it)"

#define PTY_MSG_EXPLAIN_NO_CWD                                                 \
	"denied before solving: the working directory cannot be named (%s), "  \
	"and the policy reads cwd"

/* the trees */
#define PTY_MSG_EXPLAIN_ROWS        "%s rows:"
#define PTY_MSG_EXPLAIN_NO_ROWS     "no %s row"
#define PTY_MSG_EXPLAIN_WHY_NOT     "why no rule allows it:"
#define PTY_MSG_EXPLAIN_BY_RULE     "%*s%s  by %s:%zu"
#define PTY_MSG_EXPLAIN_RULE_TEXT   "%*s  rule: %s"
#define PTY_MSG_EXPLAIN_INPUT       "%*s%s  input fact (the session's)"
#define PTY_MSG_EXPLAIN_POLICY_FACT "%*s%s  fact of the policy"
#define PTY_MSG_EXPLAIN_UNRECORDED  "%*s%s  (its derivation was not recorded)"
#define PTY_MSG_EXPLAIN_SHOWN       "%*s%s  by %s:%zu (shown above)"
#define PTY_MSG_EXPLAIN_DEEPER      "%*s%s  by %s:%zu (deeper than --depth)"
#define PTY_MSG_EXPLAIN_NEGATED     "%*snot %s  holds: no such tuple"
#define PTY_MSG_EXPLAIN_BUILTIN     "%*s%s  holds for %s, %s"
#define PTY_MSG_EXPLAIN_CANDIDATE   "%*s%s:%zu: %s"
#define PTY_MSG_EXPLAIN_FAILS_AT    "%*s  fails at %s (%s:%zu:%zu)"
#define PTY_MSG_EXPLAIN_WITH        "%*s  with %s = %s"

/* -- `maelys-pty decide` (tools/decide*.c): JSON lines in, decisions out */
#define PTY_MSG_DECIDE_USAGE                                                   \
	"usage: maelys-pty decide [--policy FILE | --config FILE]\n"           \
	"\n"                                                                   \
	"Reads one JSON request a line on standard input and writes one\n"     \
	"JSON answer a line on standard output, until end of input:\n"         \
	"  {\"id\": 1, \"line\": \"git push\", \"user\": \"ci\", "               \
	"\"cwd\": \"/srv\"}\n"                                                 \
	"  {\"id\": 1, \"decision\": \"allow\", \"reasons\": []}\n"            \
	"maelys-pty(1), DECIDE, lists the fields.\n"                           \
	"\n"                                                                   \
	"  --policy FILE  the policy (default: the configuration's)\n"         \
	"  --config FILE  the configuration (default %s)\n"
#define PTY_MSG_DECIDE_FAILED PTY_MSG_PREFIX "decide: %s"
#define PTY_MSG_DECIDE_NOT_YOUR_USER                                           \
	"\"user\" must be yours (%s): decisions are recorded in the audit "   \
	"log as yours"
#define PTY_MSG_DECIDE_NOT_YOUR_GROUPS                                         \
	"\"groups\" must be exactly yours: decisions are recorded in the "    \
	"audit log as yours"
#define PTY_MSG_DECIDE_NOT_RECORDED                                            \
	"denied: its audit record could not be written (%s)"
#define PTY_MSG_DECIDE_EXTRA_WORD "unexpected word '%s'"
#define PTY_MSG_DECIDE_TOO_LONG   "the request is longer than %zu bytes"
#define PTY_MSG_DECIDE_TOO_DEEP   "the request nests deeper than %u levels"
#define PTY_MSG_DECIDE_MALFORMED  "not JSON (at byte %d: %s)"
#define PTY_MSG_DECIDE_NOT_OBJECT "a request is a JSON object"
#define PTY_MSG_DECIDE_LINE_OR_EXEC                                            \
	"a request has either \"line\" or \"exec\", not both"
#define PTY_MSG_DECIDE_EXEC_ONLY                                               \
	"\"argv\", \"request\", \"via\", \"through\", \"shell\", \"guard\" and "  \
	"\"parent\" go with \"exec\" only"
#define PTY_MSG_DECIDE_LINE_ONLY "\"confirmed\" goes with \"line\" only"
#define PTY_MSG_DECIDE_VIA_THROUGH                                             \
	"\"through\" goes with \"via\": \"shebang\" or \"loader\", and they "     \
	"need it"
#define PTY_MSG_DECIDE_WANT_VIA     "\"execve\", \"shebang\" or \"loader\""
#define PTY_MSG_DECIDE_WANT_BOOLEAN "true or false"
#define PTY_MSG_DECIDE_UNKNOWN_FIELD "unknown field \"%s\""
#define PTY_MSG_DECIDE_BAD_FIELD     "field \"%s\": %s"
#define PTY_MSG_DECIDE_WANT_STRING   "a string"
#define PTY_MSG_DECIDE_WANT_TEXT     "a string, not empty, without NUL"
#define PTY_MSG_DECIDE_WANT_ARRAY    "an array of strings"
#define PTY_MSG_DECIDE_WANT_FEWER    "at most %zu items"
#define PTY_MSG_DECIDE_WANT_ID       "an integer, or a string of at most 256 bytes"
#define PTY_MSG_DECIDE_WANT_LINE     "a string without NUL, at most %zu bytes"
#define PTY_MSG_DECIDE_NO_MEMORY     "out of memory"
#define PTY_MSG_DECIDE_EMPTY         "an empty line: nothing to run"
#define PTY_MSG_DECIDE_NO_RULE       "no rule allows '%s'"
#define PTY_MSG_DECIDE_ERROR         "the policy could not be evaluated: %s"
#define PTY_MSG_DECIDE_EXECS_RECORDED                                          \
	"recorded, not decided: the policy decides lines only "                \
	"(exec_decisions = optional)"
#define PTY_MSG_EXPLAIN_HOLDS       "%*s  which holds:"
#define PTY_MSG_EXPLAIN_NO_MATCH    "%*s  no %s tuple matches it"
#define PTY_MSG_EXPLAIN_BODY_HOLDS  "%*s  its body holds"
#define PTY_MSG_EXPLAIN_NO_RULES    "  no rule has the head %s"
#define PTY_MSG_EXPLAIN_READ_FAILED "%*s(cannot read the result: %s)"
#define PTY_MSG_EXPLAIN_CUT                                                    \
	"(trees cut at %d lines or %d tuples: give a narrower line)"
/* -- `maelys-pty replay` (tools/replay*.c): a session recording played
 * back; the asciicast reader's refusals (tools/cast_read.c) name the line:
 * "FILE:LINE: " is put before them */
#define PTY_MSG_REPLAY_USAGE                                                   \
	"usage: maelys-pty replay [--speed F] [--idle-limit S] [--markers] "   \
	"FILE\n"                                                               \
	"\n"                                                                   \
	"Plays the recording FILE (asciicast v2) in this terminal with its\n"  \
	"timing.  Keys: space pause or resume, . one step while paused,\n"    \
	"n play up to the next marker (a decision) and pause, q quit.\n"      \
	"It shows what the session's terminal showed, escape sequences\n"     \
	"included: replay only recordings of the audit folder.\n"             \
	"\n"                                                                   \
	"  --speed F       play F times as fast (default 1)\n"                \
	"  --idle-limit S  wait at most S seconds between events (default:\n" \
	"                  the file's idle_time_limit, else no limit)\n"      \
	"  --markers       list the markers with their times and exit\n"      \
	"Exit status: 0 played or quit, 2 a usage error or a file that is\n"   \
	"not a recording (what was played stands).\n"
#define PTY_MSG_REPLAY_FAILED     PTY_MSG_PREFIX "replay: %s"
#define PTY_MSG_REPLAY_AT_LINE    PTY_MSG_PREFIX "replay: %s:%zu: %s"
#define PTY_MSG_REPLAY_NO_FILE    "no recording given"
#define PTY_MSG_REPLAY_EXTRA      "one recording at a time ('%s')"
#define PTY_MSG_REPLAY_BAD_OPTION "unknown option '%s'"
#define PTY_MSG_REPLAY_NEEDS_ARG  "%s needs a value"
#define PTY_MSG_REPLAY_BAD_SPEED                                               \
	"--speed '%s': a number above 0 and at most %.0f"
#define PTY_MSG_REPLAY_BAD_IDLE                                                \
	"--idle-limit '%s': a number of seconds above 0"
#define PTY_MSG_REPLAY_CANNOT_OPEN "%s: %s"
#define PTY_MSG_REPLAY_NO_TERMINAL                                             \
	"cannot set the terminal: %s"
#define PTY_MSG_REPLAY_OUTPUT      "cannot write the recording out: %s"
#define PTY_MSG_REPLAY_KEYS        "cannot wait for the keys: %s"
#define PTY_MSG_REPLAY_SMALLER                                                 \
	PTY_MSG_PREFIX "replay: recorded on a %ux%u terminal, this one is "    \
		       "%ux%u: lines may wrap"
/* --markers: one line a marker, its time (H:MM:SS.mmm) and its label
 * with control characters shown as '?' */
#define PTY_MSG_REPLAY_MARKER      "%u:%02u:%02u.%03u  %s"
#define PTY_MSG_REPLAY_NO_MARKERS  "%s: no markers"
#define PTY_MSG_CAST_TOO_LONG      "a line longer than %zu bytes"
#define PTY_MSG_CAST_TOO_BIG                                                   \
	"the file is longer than %llu bytes, the most replay reads"
#define PTY_MSG_CAST_READ_FAILED   "cannot read: %s"
#define PTY_MSG_CAST_EMPTY         "empty: no asciicast header"
#define PTY_MSG_CAST_NOT_JSON      "not JSON (at column %d: %s)"
#define PTY_MSG_CAST_NO_HEADER                                                 \
	"the header is not a JSON object: not an asciicast file"
#define PTY_MSG_CAST_VERSION                                                   \
	"asciicast version %s: replay reads version 2"
#define PTY_MSG_CAST_SIZE                                                      \
	"the header's \"%s\" is not an integer from 1 to %u"
#define PTY_MSG_CAST_IDLE                                                      \
	"the header's \"idle_time_limit\" is not a number of seconds"
#define PTY_MSG_CAST_NOT_EVENT                                                 \
	"not an event: an event is [time, code, data]"
#define PTY_MSG_CAST_BAD_TIME                                                  \
	"the time is not a number of seconds from 0 to %.0f"
#define PTY_MSG_CAST_BACKWARDS                                                 \
	"the time %.6f comes before the previous event's %.6f"
#define PTY_MSG_CAST_BAD_CODE      "the code is not a string of 1 to %u bytes"
#define PTY_MSG_CAST_BAD_DATA      "the data of an \"%s\" event is not a string"
#define PTY_MSG_CAST_BAD_RESIZE                                                \
	"the size of an \"r\" event is not COLSxROWS, each 1 to %u"
/* -- what may I run: `help` at the prompt and --list (runnable_say.c,
 * guard_help.c).  The marks follow a name in the columns; without a
 * terminal (--list to a pipe) a line is the name alone, or the name, a
 * tab and the word of its mark. */
#define PTY_MSG_RUNNABLE_HEAD                                                  \
	"Commands of PATH you may run here, typed alone (with arguments a "    \
	"line is decided again):"
#define PTY_MSG_RUNNABLE_NONE                                                  \
	"No command of PATH may run here typed alone (%zu looked at)."
/* ... because no line is decided here (PTY_VERDICT_NO_CWD) */
#define PTY_MSG_RUNNABLE_NO_CWD                                                \
	"(the shell's working directory cannot be named (%s), and the "        \
	"policy decides lines by it)"
#define PTY_MSG_RUNNABLE_COUNT        "%zu of the %zu commands of PATH."
#define PTY_MSG_RUNNABLE_LOGGED_MARK  " (logged)"
#define PTY_MSG_RUNNABLE_CONFIRM_MARK " (confirm)"
#define PTY_MSG_RUNNABLE_LEGEND_LOGGED                                         \
	"(logged): runs only once the audit log has recorded it"
#define PTY_MSG_RUNNABLE_LEGEND_CONFIRM                                        \
	"(confirm): asks you to confirm before it runs"
#define PTY_MSG_RUNNABLE_CUT                                                   \
	"(the list stops short: PATH holds more than %u programs, %u "         \
	"entries or %u directories, and the rest were not read)"
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

/* Writes all n bytes: a short write or EINTR is retried, and on a
 * descriptor that is not blocking EAGAIN waits until it takes more.  A
 * descriptor with the terminal's queue in front of it (pty_termout.h:
 * the user's terminal while a session runs) is never written here: the
 * bytes go into the queue (all or nothing), and nothing waits.  Returns
 * 0, or -1 when the descriptor takes no more (or the queue left them
 * out). */
int pty_write_all(int fd, const void *buf, size_t n);

/* One of the sentences above, formatted, as a whole line ending in eol
 * ("" for a question that waits on the same line; cut at 16 KiB, room
 * for three whole paths).  To a descriptor with the terminal's queue in
 * front of it (pty_termout.h), the line is queued, never waited for.
 * Otherwise a descriptor that is full and not blocking loses the message
 * rather than holding the guard. */
void pty_say(int fd, const char *eol, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Copies s into dst (cap bytes) with every control character shown as
 * '?' (C0, DEL, and the C1 controls written in UTF-8), and every character
 * the scanner refuses for hiding or reordering text (zero-width,
 * bidirectional controls, Unicode spaces): a path or a reason is the
 * session's data, and must neither drive the user's terminal nor read as
 * something else.  Cut at a whole character. */
void pty_printable(char *dst, size_t cap, const char *s);
/* The same for len bytes that may hold a NUL (shown as '?'). */
void pty_printable_n(char *dst, size_t cap, const char *s, size_t len);

/* What the user sees of a line's decision that is not ALLOW (nothing for
 * those the caller acts on: ALLOW, ALLOW_LOG, CONFIRM, EMPTY):
 *   maelys-pty: 'shutdown' denied by policy
 *     deny(shutdown): command is forbidden by policy */
void pty_say_decision(const struct pty_decision *dec, int fd,
		      const char *eol);

#endif /* PTY_MESSAGES_H */
