/* SPDX-License-Identifier: MIT */
/*
 * The words of an exec request that need no file system: the lexical
 * normalisation of exec_request/1 and the name of exec_via/1.
 *
 * Lexical path normalisation for exec_request/1: what a process asked for,
 * made absolute and tidied without touching the file system (the resolved
 * exec_path is the kernel's answer; this one is the request's spelling).
 */
#include "pty_exec.h"

#include <string.h>

int
pty_path_normalise(const char *base, const char *path, char *out, size_t cap)
{
	size_t len = 0;
	int pass;

	if (cap < 2 || base == NULL || path == NULL || base[0] != '/')
		return -1;
	out[len++] = '/';
	/* the base's components first (unless the path is absolute), then
	 * the path's; ".." at the root stays at the root, as the kernel
	 * resolves it */
	for (pass = path[0] == '/' ? 1 : 0; pass < 2; pass++) {
		const char *p = pass == 0 ? base : path;

		while (*p != '\0') {
			size_t n;

			while (*p == '/')
				p++;
			n = strcspn(p, "/");
			if (n == 0)
				break;
			if (n == 1 && p[0] == '.') {
				/* nothing */
			} else if (n == 2 && p[0] == '.' && p[1] == '.') {
				while (len > 1 && out[len - 1] != '/')
					len--;
				if (len > 1)
					len--; /* the slash before it */
			} else {
				if (len > 1) {
					if (len + 1 >= cap)
						return -1;
					out[len++] = '/';
				}
				if (len + n >= cap)
					return -1;
				memcpy(out + len, p, n);
				len += n;
			}
			p += n;
		}
	}
	out[len] = '\0';
	return 0;
}

const char *
pty_exec_via_name(enum pty_exec_via via)
{
	switch (via) {
	case PTY_EXEC_VIA_EXECVE:
		break;
	case PTY_EXEC_VIA_SHEBANG:
		return "shebang";
	case PTY_EXEC_VIA_LOADER:
		return "loader";
	}
	return "execve";
}
