/* SPDX-License-Identifier: MIT */
/*
 * Budgets: the per-solve bounds a session may lower or raise up to a hard
 * maximum.  Defaults suit a host deciding one command line at a time; a
 * standalone run over large inputs raises them.
 */
#ifndef DL_BUDGET_H
#define DL_BUDGET_H

#include <maelys/datalog.h>

#include <stdbool.h>
#include <stdint.h>

#define DL_NBUDGETS 7

/* Whether `b` names a budget. */
bool dl_budget_valid(maelys_datalog_budget_t b);
uint64_t dl_budget_default_of(maelys_datalog_budget_t b);
uint64_t dl_budget_max_of(maelys_datalog_budget_t b);

#endif /* DL_BUDGET_H */
