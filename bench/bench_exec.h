/* SPDX-License-Identifier: MIT */
/*
 * bench_exec's parts (bench_exec.c says what it measures): the driver
 * (bench_exec.c), the loop that every way runs and the floor's supervisor
 * (bench_exec_loop.c), and the in-process micro-benchmark of an exec's
 * path resolution (bench_exec_walk.c); and the few helpers they share.
 */
#ifndef BENCH_EXEC_H
#define BENCH_EXEC_H

#include <stddef.h>
#include <stdint.h>

#define BENCH_MAX_N 10000000LL

/* The floor's name (comm), so that its loop finds it as its monitor. */
#define BENCH_FLOOR_COMM "exec-notify"

/* CLOCK_MONOTONIC in ns. */
uint64_t bench_now_ns(void);

/* Shuffles order[0..n) in place (Fisher-Yates, xorshift64 on *rng). */
void bench_shuffle(size_t *order, size_t n, uint64_t *rng);

/* qsort comparison of uint64_t. */
int bench_cmp_u64(const void *a, const void *b);

/* A count in [lo, hi] from s, or -1 (strtoll, its end and errno checked). */
long long bench_parse_count(const char *s, long long lo, long long hi);

/* Percentile p (0-100) of sorted v[0..n), and the mean, in us. */
double bench_pct_us(const uint64_t *v, size_t n, unsigned p);
double bench_mean_us(const uint64_t *v, size_t n);

/* bench_exec loop ... and bench_exec notify ... (argv[0] is the role). */
int bench_exec_loop_main(int argc, char **argv);
int bench_exec_notify_main(int argc, char **argv);

/* bench_exec walk ... (bench_exec_walk.c). */
int bench_exec_walk_main(int argc, char **argv);

#endif /* BENCH_EXEC_H */
