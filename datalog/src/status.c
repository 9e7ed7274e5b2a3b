/* SPDX-License-Identifier: MIT */
/* Names and meanings of statuses, and the library version. */
#include <maelys/datalog.h>

#define DL_STR2(x) #x
#define DL_STR(x)  DL_STR2(x)

MAELYS_DATALOG_API const char *
maelys_datalog_version(void)
{
	return DL_STR(MAELYS_DATALOG_VERSION_MAJOR) "." DL_STR(
	    MAELYS_DATALOG_VERSION_MINOR) "." DL_STR(MAELYS_DATALOG_VERSION_PATCH);
}

/* No default: -Wswitch flags a status that has no name. */
MAELYS_DATALOG_API const char *
maelys_datalog_status_name(maelys_datalog_status_t status)
{
	switch (status) {
	case MAELYS_DATALOG_STATUS_OK:
		return "ok";
	case MAELYS_DATALOG_STATUS_INVALID_ARGUMENT:
		return "invalid_argument";
	case MAELYS_DATALOG_STATUS_NO_MEMORY:
		return "no_memory";
	case MAELYS_DATALOG_STATUS_LIMIT:
		return "limit";
	case MAELYS_DATALOG_STATUS_IO:
		return "io";
	case MAELYS_DATALOG_STATUS_PARSE:
		return "parse";
	case MAELYS_DATALOG_STATUS_UNDECLARED:
		return "undeclared";
	case MAELYS_DATALOG_STATUS_ARITY:
		return "arity";
	case MAELYS_DATALOG_STATUS_ROLE:
		return "role";
	case MAELYS_DATALOG_STATUS_UNSAFE:
		return "unsafe";
	case MAELYS_DATALOG_STATUS_NEGATION_CYCLE:
		return "negation_cycle";
	case MAELYS_DATALOG_STATUS_VOCABULARY:
		return "vocabulary";
	case MAELYS_DATALOG_STATUS_REGEX:
		return "regex";
	case MAELYS_DATALOG_STATUS_REDECLARED:
		return "redeclared";
	case MAELYS_DATALOG_STATUS_UNKNOWN_DOMAIN:
		return "unknown_domain";
	case MAELYS_DATALOG_STATUS_DOMAIN_CONFLICT:
		return "domain_conflict";
	case MAELYS_DATALOG_STATUS_INVALID_DOMAIN:
		return "invalid_domain";
	case MAELYS_DATALOG_STATUS_BUDGET_FACTS:
		return "budget_facts";
	case MAELYS_DATALOG_STATUS_BUDGET_TUPLES:
		return "budget_tuples";
	case MAELYS_DATALOG_STATUS_BUDGET_ITERATIONS:
		return "budget_iterations";
	case MAELYS_DATALOG_STATUS_BUDGET_MEMORY:
		return "budget_memory";
	case MAELYS_DATALOG_STATUS_REGEX_LIMIT:
		return "regex_limit";
	case MAELYS_DATALOG_STATUS_TYPE:
		return "type";
	case MAELYS_DATALOG_STATUS_TRUNCATED:
		return "truncated";
	case MAELYS_DATALOG_STATUS_BUDGET_STEPS:
		return "budget_steps";
	case MAELYS_DATALOG_STATUS_ARITHMETIC:
		return "arithmetic";
	}
	return "unknown";
}

MAELYS_DATALOG_API const char *
maelys_datalog_status_meaning(maelys_datalog_status_t status)
{
	switch (status) {
	case MAELYS_DATALOG_STATUS_OK:
		return "success";
	case MAELYS_DATALOG_STATUS_INVALID_ARGUMENT:
		return "a NULL or malformed argument, or a call the API does "
		       "not allow";
	case MAELYS_DATALOG_STATUS_NO_MEMORY:
		return "an allocation failed";
	case MAELYS_DATALOG_STATUS_LIMIT:
		return "an input is larger than a hard limit";
	case MAELYS_DATALOG_STATUS_IO:
		return "the policy file could not be opened or read";
	case MAELYS_DATALOG_STATUS_PARSE:
		return "syntax error in the policy";
	case MAELYS_DATALOG_STATUS_UNDECLARED:
		return "a predicate is used that is not declared";
	case MAELYS_DATALOG_STATUS_ARITY:
		return "a predicate is used with the wrong number of arguments";
	case MAELYS_DATALOG_STATUS_ROLE:
		return "a predicate is used against its role";
	case MAELYS_DATALOG_STATUS_UNSAFE:
		return "a variable is not bound by a positive body literal";
	case MAELYS_DATALOG_STATUS_NEGATION_CYCLE:
		return "recursion through negation";
	case MAELYS_DATALOG_STATUS_VOCABULARY:
		return "a constant is not in the domain's vocabulary";
	case MAELYS_DATALOG_STATUS_REGEX:
		return "a regular expression does not compile";
	case MAELYS_DATALOG_STATUS_REDECLARED:
		return "a declaration conflicts with another or with a "
		       "reserved name";
	case MAELYS_DATALOG_STATUS_UNKNOWN_DOMAIN:
		return "no domain of that name is registered";
	case MAELYS_DATALOG_STATUS_DOMAIN_CONFLICT:
		return "a domain name is registered with a different table";
	case MAELYS_DATALOG_STATUS_INVALID_DOMAIN:
		return "a domain table is malformed";
	case MAELYS_DATALOG_STATUS_BUDGET_FACTS:
		return "more input facts than the session's budget";
	case MAELYS_DATALOG_STATUS_BUDGET_TUPLES:
		return "more derived tuples than the session's budget";
	case MAELYS_DATALOG_STATUS_BUDGET_ITERATIONS:
		return "more fixpoint iterations than the session's budget";
	case MAELYS_DATALOG_STATUS_BUDGET_MEMORY:
		return "more working memory than the session's budget";
	case MAELYS_DATALOG_STATUS_REGEX_LIMIT:
		return "a regular expression hit its match, depth or heap "
		       "limit";
	case MAELYS_DATALOG_STATUS_TYPE:
		return "a built-in was applied to a value of the wrong kind";
	case MAELYS_DATALOG_STATUS_TRUNCATED:
		return "an enumeration had fewer rows than the relation";
	case MAELYS_DATALOG_STATUS_BUDGET_STEPS:
		return "more join work than the session's budget";
	case MAELYS_DATALOG_STATUS_ARITHMETIC:
		return "an arithmetic term had no defined value (division by "
		       "zero, a shift out of range)";
	}
	return "not a status of this library";
}
