/* SPDX-License-Identifier: MIT */
/*
 * bench_pty's parts (bench_pty.c says what each measures) and the helpers
 * they share.
 */
#ifndef BENCH_PTY_H
#define BENCH_PTY_H

/* CLOCK_MONOTONIC in seconds. */
double bench_pty_now_s(void);

/* qsort comparison of doubles. */
int bench_pty_cmp_double(const void *a, const void *b);

/* 6. One line to bash over a socket pair and over a pipe, n lines each
 * (bench_pty_session.c). */
void bench_pty_channel(int n);

/* 7. pty_spawn_end_all with 0 to 100 descendants, `runs` times each
 * (bench_pty_session.c). */
void bench_pty_end(int runs);

#endif /* BENCH_PTY_H */
