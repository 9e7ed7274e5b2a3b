/* SPDX-License-Identifier: MIT */
/* Formatting diagnostics into the caller's fixed buffer. */
#include "dl_diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void
dl_diag_clear(maelys_datalog_diagnostic_t *diag)
{
	if (diag == NULL)
		return;
	diag->status = MAELYS_DATALOG_STATUS_OK;
	diag->line = 0;
	diag->column = 0;
	diag->source[0] = '\0';
	diag->message[0] = '\0';
}

/* A printf-like function: clang checks the callers' formats through it. */
static void dl_diag_vformat(maelys_datalog_diagnostic_t *diag, size_t off,
			    const char *fmt, va_list ap) DL_PRINTF(3, 0);

static void
dl_diag_vformat(maelys_datalog_diagnostic_t *diag, size_t off, const char *fmt,
		va_list ap)
{
	if (off >= sizeof diag->message)
		return;
	/* vsnprintf truncates and terminates: a long message cannot overflow */
	(void)vsnprintf(diag->message + off, sizeof diag->message - off, fmt,
			ap);
}

maelys_datalog_status_t
dl_fail(maelys_datalog_diagnostic_t *diag, maelys_datalog_status_t status,
	const char *fmt, ...)
{
	va_list ap;

	if (diag == NULL)
		return status;
	dl_diag_clear(diag);
	diag->status = status;
	va_start(ap, fmt);
	dl_diag_vformat(diag, 0, fmt, ap);
	va_end(ap);
	return status;
}

maelys_datalog_status_t
dl_fail_at(maelys_datalog_diagnostic_t *diag, maelys_datalog_status_t status,
	   const char *source, struct dl_pos pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (diag == NULL)
		return status;
	dl_diag_clear(diag);
	diag->status = status;
	diag->line = pos.line;
	diag->column = pos.column;
	if (source == NULL)
		source = "<inline>";
	(void)snprintf(diag->source, sizeof diag->source, "%s", source);
	n = snprintf(diag->message, sizeof diag->message,
		     "%s:%zu:%zu: ", diag->source, pos.line, pos.column);
	if (n < 0)
		n = 0;
	va_start(ap, fmt);
	dl_diag_vformat(diag, (size_t)n, fmt, ap);
	va_end(ap);
	return status;
}

maelys_datalog_status_t
dl_fail_src(maelys_datalog_diagnostic_t *diag, maelys_datalog_status_t status,
	    const char *source, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (diag == NULL)
		return status;
	dl_diag_clear(diag);
	diag->status = status;
	if (source == NULL)
		source = "<inline>";
	(void)snprintf(diag->source, sizeof diag->source, "%s", source);
	n = snprintf(diag->message, sizeof diag->message, "%s: ", diag->source);
	if (n < 0)
		n = 0;
	va_start(ap, fmt);
	dl_diag_vformat(diag, (size_t)n, fmt, ap);
	va_end(ap);
	return status;
}
