/* SPDX-License-Identifier: MIT */
/*
 * A test program in raw mode: puts its terminal in raw mode, reads bytes
 * until it has seen "qq", and prints each byte it got in hex - what a
 * full-screen program receives, byte for byte.
 */
#define _DEFAULT_SOURCE /* cfmakeraw */
#include <stdio.h>
#include <termios.h>
#include <unistd.h>

int
main(void)
{
	struct termios saved, raw;
	unsigned char c, prev = 0;

	if (tcgetattr(0, &saved) != 0)
		return 1;
	raw = saved;
	cfmakeraw(&raw);
	tcsetattr(0, TCSANOW, &raw);
	printf("RAW-READY\r\n");
	fflush(stdout);
	while (read(0, &c, 1) == 1) {
		printf("<%02x>", c);
		fflush(stdout);
		if (c == 'q' && prev == 'q')
			break;
		prev = c;
	}
	tcsetattr(0, TCSANOW, &saved);
	printf("\nRAW-DONE\n");
	return 0;
}
