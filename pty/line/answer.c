/* SPDX-License-Identifier: MIT */
/*
 * The short answer to a require_confirm question (pty_answer.h): its line
 * editing, Backspace and echo, and what counts as yes.
 */
#include "pty_answer.h"

#include <string.h>
#include <strings.h>

void
pty_answer_start(struct pty_answer *a)
{
	a->len = 0;
	a->text[0] = '\0';
}

enum pty_answer_step
pty_answer_key(struct pty_answer *a, char c, char echo[4])
{
	echo[0] = '\0';
	if (c == 3 || c == 4)
		return PTY_ANSWER_NO; /* Ctrl-C, Ctrl-D */
	if (c == '\r' || c == '\n') {
		a->text[a->len] = '\0';
		return strcasecmp(a->text, "y") == 0 ||
			       strcasecmp(a->text, "yes") == 0
			   ? PTY_ANSWER_YES
			   : PTY_ANSWER_NO;
	}
	if ((c == 127 || c == 8) && a->len > 0) {
		a->len--;
		memcpy(echo, "\b \b", 4);
	} else if (c >= 0x20 && c < 0x7f && a->len + 1 < sizeof a->text) {
		a->text[a->len++] = c;
		echo[0] = c;
		echo[1] = '\0';
	}
	return PTY_ANSWER_MORE;
}
