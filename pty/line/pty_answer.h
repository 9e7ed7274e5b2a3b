/* SPDX-License-Identifier: MIT */
/*
 * The short answer to a require_confirm question (answer.c): typed in
 * place of a line, echoed, ended by Enter.  Only "y" or "yes", in any
 * case, is yes; Ctrl-C and Ctrl-D are no at once, and so is anything else
 * given with Enter.  Printable ASCII only, a few characters at most: the
 * answer is a word, not a line.
 */
#ifndef PTY_ANSWER_H
#define PTY_ANSWER_H

#include <stddef.h>

struct pty_answer {
	char text[8]; /* what was typed so far, NUL-terminated on Enter */
	size_t len;
};

enum pty_answer_step {
	PTY_ANSWER_MORE, /* not answered yet */
	PTY_ANSWER_YES,
	PTY_ANSWER_NO,
};

/* Starts a new answer. */
void pty_answer_start(struct pty_answer *a);
/* One key: what the terminal shows for it goes into echo (NUL-terminated,
 * "" for nothing), and whether the answer is given. */
enum pty_answer_step pty_answer_key(struct pty_answer *a, char c, char echo[4]);

#endif /* PTY_ANSWER_H */
