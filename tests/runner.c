/* SPDX-License-Identifier: MIT */
/*
 * The one main() of the Check suites: each check_<component>_<area>.c
 * defines maelys_check_suite(); this runs it and maps the outcome to the exit
 * status meson reads (0 pass, 1 fail, 77 skip when a test said the machine
 * cannot run it).  CK_RUN_SUITE / CK_RUN_CASE / CK_FORK work as usual.
 */
#include "runner.h"

#include <stdlib.h>

int
main(void)
{
	SRunner *sr = srunner_create(maelys_check_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

const char *
maelys_test_source_root(void)
{
	const char *root = getenv("MAELYS_SOURCE_ROOT");

	return root != NULL && root[0] != '\0' ? root : ".";
}
