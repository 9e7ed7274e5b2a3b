/* SPDX-License-Identifier: MIT */
/*
 * Shared by the Check suites: the suite hook and small helpers to find the
 * source tree (policies/, test data) from a test.
 */
#ifndef MAELYS_TESTS_RUNNER_H
#define MAELYS_TESTS_RUNNER_H

#include <check.h>

/* Defined once per check_*.c: the suite named after the component, with
 * one TCase named after the area. */
Suite *maelys_check_suite(void);

/* The source root, from the MAELYS_SOURCE_ROOT environment variable that
 * tests/meson.build sets (or "." when run by hand from the root). */
const char *maelys_test_source_root(void);

#endif /* MAELYS_TESTS_RUNNER_H */
