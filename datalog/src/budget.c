/* SPDX-License-Identifier: MIT */
/* The table of budgets: default and hard maximum of each. */
#include "dl_budget.h"

#include "dl_limits.h"

static const struct {
	uint64_t def, max;
} dl_budgets[DL_NBUDGETS] = {
    /* FACTS: a command line brings tens of facts */
    [MAELYS_DATALOG_BUDGET_FACTS] = {10000, DL_EDB_FACTS_MAX},
    /* TUPLES: generous for a policy, bounded for a hostile input */
    [MAELYS_DATALOG_BUDGET_TUPLES] = {1000000, UINT64_C(4000000000)},
    [MAELYS_DATALOG_BUDGET_ITERATIONS] = {100000, UINT64_C(4000000000)},
    /* PCRE2 match limit: ms of backtracking, not seconds */
    [MAELYS_DATALOG_BUDGET_REGEX_STEPS] = {1000000, UINT32_MAX},
    [MAELYS_DATALOG_BUDGET_REGEX_DEPTH] = {10000, UINT32_MAX},
    [MAELYS_DATALOG_BUDGET_MEMORY] = {UINT64_C(64) << 20, UINT64_C(1) << 40},
    /* STEPS: tens of milliseconds of joins at most for one decision */
    [MAELYS_DATALOG_BUDGET_STEPS] = {UINT64_C(20000000), UINT64_C(1) << 62},
};

bool
dl_budget_valid(maelys_datalog_budget_t b)
{
	return (unsigned)b < DL_NBUDGETS;
}

uint64_t
dl_budget_default_of(maelys_datalog_budget_t b)
{
	return dl_budgets[b].def;
}

uint64_t
dl_budget_max_of(maelys_datalog_budget_t b)
{
	return dl_budgets[b].max;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_budget_default(maelys_datalog_budget_t budget, uint64_t *value)
{
	if (value != NULL)
		*value = 0;
	if (value == NULL || !dl_budget_valid(budget))
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	*value = dl_budgets[budget].def;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_budget_max(maelys_datalog_budget_t budget, uint64_t *value)
{
	if (value != NULL)
		*value = 0;
	if (value == NULL || !dl_budget_valid(budget))
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	*value = dl_budgets[budget].max;
	return MAELYS_DATALOG_STATUS_OK;
}
