/* SPDX-License-Identifier: MIT */
/*
 * `maelys-datalog run --explain TUPLE`: the derivation tree of a tuple of a
 * solved result (a PROVENANCE session's), or, for a tuple that does not
 * hold, each rule whose head could be it and the first body literal that
 * fails.  Uses only the public API.
 */
#ifndef MAELYS_EXPLAIN_H
#define MAELYS_EXPLAIN_H

#include "explain_tuple.h"
#include "source.h"

#include <stdio.h>

#include <maelys/datalog.h>

/* The depth of tree printed when --explain-depth is not given. */
#define EXPLAIN_DEPTH_DEFAULT 12u

/* Prints the explanation of `t` to `out`, subtrees below `max_depth`
 * levels cut; a rule's place is the file and line `src` maps it to (NULL:
 * as the policy gives it).  Returns OK, or the status of the failing call
 * (UNDECLARED, ARITY, NO_MEMORY, BUDGET_STEPS, ...) after printing what was
 * done. */
maelys_datalog_status_t
explain_print(FILE *out, const maelys_datalog_policy_t *policy,
	      const maelys_datalog_result_t *res, const struct explain_tuple *t,
	      unsigned max_depth, const struct source *src);

#endif /* MAELYS_EXPLAIN_H */
