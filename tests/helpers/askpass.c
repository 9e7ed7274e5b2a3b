/* SPDX-License-Identifier: MIT */
/*
 * A password prompt: turns echo off, reads one line, says how long it was
 * (never what it was), and turns echo back on.
 */
#include <stdio.h>
#include <string.h>
#include <termios.h>

int
main(void)
{
	struct termios saved, quiet;
	char line[256];

	if (tcgetattr(0, &saved) != 0)
		return 1;
	quiet = saved;
	quiet.c_lflag &= ~(tcflag_t)ECHO;
	tcsetattr(0, TCSANOW, &quiet);
	printf("Password: ");
	fflush(stdout);
	if (fgets(line, sizeof line, stdin) == NULL)
		line[0] = '\0';
	tcsetattr(0, TCSANOW, &saved);
	line[strcspn(line, "\n")] = '\0';
	printf("\nPASSWORD-LENGTH=%zu\n", strlen(line));
	return 0;
}
