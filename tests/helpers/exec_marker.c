/* SPDX-License-Identifier: MIT */
/*
 * The program a race must never run (tests/helpers/exec_race.c): when it
 * runs, it appends its pid and a newline to the file named by RACE_MARKER
 * (when set), then exits 77 - or, with RACE_HOLD set, waits to be ended
 * (at most 60 s, then exits 78), so that whoever ends it can be seen to.
 * Installed root's under the name each test needs (a never-run program, an
 * interpreter refused for some arguments).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main(void)
{
	const char *marker = getenv("RACE_MARKER");
	char line[32];
	int fd, n, i;

	if (marker != NULL && marker[0] != '\0') {
		fd = open(marker, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
			  0644);
		n = snprintf(line, sizeof line, "%ld\n", (long)getpid());
		if (fd >= 0 && n > 0)
			(void)!write(fd, line, (size_t)n);
		if (fd >= 0)
			(void)close(fd);
	}
	if (getenv("RACE_HOLD") == NULL)
		return 77;
	for (i = 0; i < 60; i++)
		(void)sleep(1);
	return 78;
}
