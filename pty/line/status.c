/* SPDX-License-Identifier: MIT */
/*
 * The status channel's reader (pty_status.h): bash's reports, each
 * "STATUS\0$PWD\0", cut into pieces however the reads fall.
 */
#include "pty_status.h"

#include <string.h>

int
pty_status_feed(struct pty_status_reader *r, const char *buf, size_t n,
		pty_status_report_fn on_report, void *arg)
{
	size_t off = 0;

	while (off < n) {
		const char *p = buf + off;
		const char *nul = memchr(p, '\0', n - off);
		size_t len = nul != NULL ? (size_t)(nul - p) : n - off;
		int rc;

		off += nul != NULL ? len + 1 : len;
		if (r->in_pwd) {
			if (nul == NULL)
				break; /* the rest of the $PWD is to come */
			r->in_pwd = false;
			if ((rc = on_report(arg, r->code)) != 0)
				return rc;
			continue;
		}
		if (len > PTY_STATUS_CODE_MAX - r->code_len)
			return -1;
		memcpy(r->code + r->code_len, p, len);
		r->code_len += len;
		if (nul == NULL)
			break; /* the rest of the status is to come */
		r->code[r->code_len] = '\0';
		r->code_len = 0;
		r->in_pwd = true;
	}
	return 0;
}
