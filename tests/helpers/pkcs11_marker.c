/* SPDX-License-Identifier: MIT */
/*
 * A shared library that ssh takes for a PKCS#11 provider, and that says
 * when it is loaded: its constructor creates the file named by
 * MAELYS_TEST_PKCS11_MARKER.  OpenSSH looks for the name
 * C_GetFunctionList in a provider before loading it, so it is exported;
 * its failure status (CKR_FUNCTION_FAILED) makes ssh give the provider up
 * once loaded.  check_pty_ssh.c names it as PKCS11Provider in a
 * ~/.ssh/config: the marker says whether ssh ran the user's code.
 */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC */

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

unsigned long C_GetFunctionList(void **list);

__attribute__((constructor)) static void
pkcs11_marker_loaded(void)
{
	const char *path = getenv("MAELYS_TEST_PKCS11_MARKER");
	int fd;

	if (path == NULL)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
}

unsigned long
C_GetFunctionList(void **list)
{
	(void)list;
	return 6; /* CKR_FUNCTION_FAILED */
}
