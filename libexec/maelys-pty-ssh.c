/* SPDX-License-Identifier: MIT */
/*
 * maelys-pty-ssh - the ssh of a maelys-pty session: the real ssh, with the
 * shipped client configuration and nothing else.
 *
 * Installed as $libexecdir/maelys-pty/bin/ssh, a folder the configured
 * session PATH puts first, so that "ssh" typed at the prompt and the ssh
 * that git starts are this program.  It executes the real ssh as
 *
 *	ssh -F MAELYS_SSH_CONFIG ARGS...
 *
 * with ARGS its own arguments, unchanged.  With -F, ssh reads neither
 * ~/.ssh/config nor /etc/ssh/ssh_config: no file the user writes can send
 * an allowed destination elsewhere (HostName, Port, ProxyJump,
 * ProxyCommand, Include, Match exec), open a channel (LocalForward ...) or
 * load the user's code into ssh (PKCS11Provider).  What the command line
 * could still override (-o, a second -F, -J, forwardings) is the policy's
 * to refuse: bastion.dl allows the real ssh only from this program, only
 * with this -F pair first, and decides the rest of the words.
 *
 * Deliberately nothing else: both paths are fixed at build time
 * (libexec/meson.build), there is no PATH search and no environment is
 * read, and the arguments are not parsed here (the policy decides them,
 * once, on the exec of the real ssh).  argv[0] is "ssh" whatever this
 * program was called.  Any failure is a message naming what failed and
 * exit status 255, ssh's own for an error: never a fallback to another
 * ssh or to running without the configuration.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if !defined(MAELYS_SSH_PROGRAM) || !defined(MAELYS_SSH_CONFIG)
#error "MAELYS_SSH_PROGRAM and MAELYS_SSH_CONFIG come from libexec/meson.build"
#endif

/* ssh's exit status for an error of its own, which callers (git, scp)
 * already treat as "ssh failed", not as the remote command's status. */
#define SSH_WRAPPER_FAILED 255

int
main(int argc, char **argv)
{
	static char name[] = "ssh", opt[] = "-F", config[] = MAELYS_SSH_CONFIG;
	size_t nargs = argc > 1 ? (size_t)argc - 1 : 0, i;
	char **args;

	/* "ssh", "-F", CONFIG, the arguments after argv[0], NULL */
	args = calloc(nargs + 4, sizeof *args);
	if (args == NULL) {
		fprintf(stderr,
			"maelys-pty-ssh: out of memory for %zu "
			"arguments: ssh not run\n",
			nargs);
		return SSH_WRAPPER_FAILED;
	}
	args[0] = name;
	args[1] = opt;
	args[2] = config;
	for (i = 0; i < nargs; i++)
		args[3 + i] = argv[1 + i];
	args[3 + nargs] = NULL;
	execv(MAELYS_SSH_PROGRAM, args);
	fprintf(stderr,
		"maelys-pty-ssh: cannot run %s -F %s: %s: ssh not run\n",
		MAELYS_SSH_PROGRAM, MAELYS_SSH_CONFIG, strerror(errno));
	free(args);
	return SSH_WRAPPER_FAILED;
}
