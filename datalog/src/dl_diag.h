/* SPDX-License-Identifier: MIT */
/*
 * Filling a caller's diagnostic.  Every failing path of the library ends in
 * one of these, which format the message, record the status and the position
 * and return the status, so `return dl_fail(...)` is the idiom.
 */
#ifndef DL_DIAG_H
#define DL_DIAG_H

#include <maelys/datalog.h>

#include <stddef.h>

#if defined(__GNUC__)
#define DL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define DL_PRINTF(f, a)
#endif

/* A position in a policy source. */
struct dl_pos {
	size_t line;   /* 1-based */
	size_t column; /* 1-based */
};

maelys_datalog_status_t dl_fail(maelys_datalog_diagnostic_t *diag,
				maelys_datalog_status_t status, const char *fmt,
				...) DL_PRINTF(3, 4);

/* "source:line:col: message", with source, line and column also stored in
 * their own fields. */
maelys_datalog_status_t dl_fail_at(maelys_datalog_diagnostic_t *diag,
				   maelys_datalog_status_t status,
				   const char *source, struct dl_pos pos,
				   const char *fmt, ...) DL_PRINTF(5, 6);

/* "source: message", with the source stored in its field (no position
 * applies: line and column stay 0). */
maelys_datalog_status_t dl_fail_src(maelys_datalog_diagnostic_t *diag,
				    maelys_datalog_status_t status,
				    const char *source, const char *fmt, ...)
    DL_PRINTF(4, 5);

/* Clears the diagnostic (status OK, empty message). */
void dl_diag_clear(maelys_datalog_diagnostic_t *diag);

#endif /* DL_DIAG_H */
