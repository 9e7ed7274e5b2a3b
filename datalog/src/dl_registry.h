/* SPDX-License-Identifier: MIT */
/*
 * The domain registry: the library's only process-wide state.
 * Entries are deep copies, never changed or freed once registered, so a
 * pointer returned by dl_registry_find stays valid for the process.
 */
#ifndef DL_REGISTRY_H
#define DL_REGISTRY_H

#include <maelys/datalog.h>

#include <stdbool.h>
#include <stddef.h>

const maelys_datalog_domain_t *dl_registry_find(const char *name);

/* Whether `name` is a valid predicate name ([A-Za-z_][A-Za-z0-9_]*, at most
 * DL_IDENT_MAX bytes). */
bool dl_valid_pred_name(const char *name, size_t len);

/* Whether `name` is a name a program's relation may have in either syntax:
 * a predicate name, or one with Souffle's '?' ([A-Za-z_?][A-Za-z0-9_?]*,
 * `_?`); what input_edb_add takes, so a standalone Souffle program's
 * .input relation can be given facts. */
bool dl_valid_input_name(const char *name, size_t len);

#endif /* DL_REGISTRY_H */
