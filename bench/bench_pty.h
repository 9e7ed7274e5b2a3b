/* SPDX-License-Identifier: MIT */
/*
 * bench_pty's parts (bench_pty.c says what each measures) and the helpers
 * they share.
 */
#ifndef BENCH_PTY_H
#define BENCH_PTY_H

#include <stddef.h>

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

/* A file of `mib` MiB of printable lines ending in the end mark. */
void bench_pty_make_file(const char *path, size_t mib);

/* The median of n values (sorts them). */
double bench_pty_median(double *v, int n);

/* Seconds to show `file` with cat through `script -q -c` recording to
 * typescript (NULL: /dev/null), and through the guard on a pty (with
 * `config`: --config, else --policy), its peak memory in *hwm_kib. */
double bench_pty_run_script(const char *file, const char *typescript);
double bench_pty_run_guard(const char *guard, const char *policy,
			   const char *config, const char *file,
			   long *hwm_kib);

/* 8. Session recording on and off against script(1), as root
 * (bench_pty_record.c). */
void bench_pty_record(const char *guard, const char *policy, size_t mib,
		      int runs);

/* A new audit log's keys (pty_audit_keygen): the state at `state`, its
 * verification key audit.pub beside it.  Exits on failure. */
void bench_audit_keys(const char *state);

#endif /* BENCH_PTY_H */
