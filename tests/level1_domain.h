/* SPDX-License-Identifier: MIT */
/*
 * The Level 1 walkthrough's domain (its "Domain" section), verbatim, for the programs that load
 * policies/walkthrough.dl outside the guard: the datalog test suites
 * (datalog_testutil.h), the decision benchmark and the policy_load fuzz
 * target.  The example
 * examples/level1_walkthrough.c keeps its own copy: it is the walkthrough's
 * code, unchanged.  Header-only (`static const`).
 */
#ifndef MAELYS_TESTS_LEVEL1_DOMAIN_H
#define MAELYS_TESTS_LEVEL1_DOMAIN_H

#include <maelys/datalog.h>

/* The walkthrough's predicate table, as printed in its "Domain" section. */
static const maelys_datalog_predicate_t level1_preds[] = {
    {"command", 1, MAELYS_DATALOG_PREDICATE_EDB},
    {"arg", 1, MAELYS_DATALOG_PREDICATE_EDB},
    {"user", 1, MAELYS_DATALOG_PREDICATE_EDB},
    {"cwd", 1, MAELYS_DATALOG_PREDICATE_EDB},
    {"time_of_day", 1, MAELYS_DATALOG_PREDICATE_EDB},
    {"shell_metachar", 1, MAELYS_DATALOG_PREDICATE_EDB},
    {"forbidden_cmd", 1, MAELYS_DATALOG_PREDICATE_POLICY_FACT},
    {"trusted_user", 1, MAELYS_DATALOG_PREDICATE_POLICY_FACT},
    {"deny_any", 1,
     MAELYS_DATALOG_PREDICATE_IDB | MAELYS_DATALOG_PREDICATE_QUERY},
    {"allow", 1, MAELYS_DATALOG_PREDICATE_IDB | MAELYS_DATALOG_PREDICATE_QUERY},
    {"deny", 2, MAELYS_DATALOG_PREDICATE_IDB | MAELYS_DATALOG_PREDICATE_QUERY},
};

/* The walkthrough's atoms: the constants policies/walkthrough.dl may write. */
static const char *const level1_atoms[] = {
    "shutdown",
    "reboot",
    "poweroff",
    "alice",
    "root",
    "__line__",
    "shell metacharacter in line",
    "command is forbidden by policy",
    "curl",
    "curl is restricted to trusted users",
};

/* An initializer for a maelys_datalog_domain_t: the walkthrough's table and
 * atoms under `name`, a name of the caller's own (the registry is
 * process-wide). */
#define LEVEL1_DOMAIN(name)                                                    \
	{                                                                      \
		(name), level1_preds,                                          \
		    sizeof level1_preds / sizeof *level1_preds, level1_atoms,  \
		    sizeof level1_atoms / sizeof *level1_atoms                 \
	}

#endif /* MAELYS_TESTS_LEVEL1_DOMAIN_H */
