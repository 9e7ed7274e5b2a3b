/* SPDX-License-Identifier: MIT */
/*
 * The deployed bastion's OpenSSH server (bastion.h): its configuration -
 * the README's Match block for the test users' group - a host key, and
 * sshd started in the foreground on a free port of 127.0.0.1, stopped by
 * bastion_down.
 */
#define _GNU_SOURCE
#include "bastion.h"
#include "bastion_private.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ── sshd ─────────────────────────────────────────────────────────────── */

static int
bastion_free_port(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t len = sizeof a;
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), port = -1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s >= 0 && bind(s, (struct sockaddr *)&a, sizeof a) == 0 &&
	    getsockname(s, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	if (s >= 0)
		close(s);
	return port;
}

static bool
bastion_port_accepts(int port)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool ok;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((uint16_t)port);
	ok = s >= 0 && connect(s, (struct sockaddr *)&a, sizeof a) == 0;
	if (s >= 0)
		close(s);
	return ok;
}

static int
bastion_write_sshd_config(const struct bastion *b, const char *path)
{
	char text[4096];
	FILE *f;

	/* Key logins of the test users only (the members of the tests'
	 * group, so a user added later may log in too), no PAM (keys need
	 * none, and PAM's session modules would touch the machine's state),
	 * the README's Match block, and sftp as a command the guard decides:
	 * sftp-server read-only, the one form bastion.dl allows. */
	snprintf(text, sizeof text,
		 "Port %d\n"
		 "ListenAddress 127.0.0.1\n"
		 "HostKey %s/host_ed25519_key\n"
		 "PidFile %s/sshd.pid\n"
		 "UsePAM no\n"
		 "PubkeyAuthentication yes\n"
		 "AuthorizedKeysFile .ssh/authorized_keys\n"
		 "PasswordAuthentication no\n"
		 "KbdInteractiveAuthentication no\n"
		 "PermitRootLogin no\n"
		 "AllowGroups %s\n"
		 "StrictModes yes\n"
		 "UseDNS no\n"
		 "PrintMotd no\n"
		 "PrintLastLog no\n"
		 "LogLevel VERBOSE\n"
		 "Subsystem sftp /usr/lib/openssh/sftp-server -R\n"
		 "Match Group %s\n"
		 "    DisableForwarding yes\n"
		 "    PermitTunnel no\n"
		 "    PermitUserRC no\n",
		 b->port, b->run, b->run, b->group, b->group);
	if ((f = fopen(path, "w")) == NULL)
		return -1;
	fputs(text, f);
	return fclose(f);
}

int
bastion_sshd_start(struct bastion *b, char *why, size_t whylen)
{
	char config[300], hostkey[300];
	double t0 = bastion_now();

	if (access("/usr/sbin/sshd", X_OK) != 0)
		return bastion_fail(
		    why, whylen,
		    "/usr/sbin/sshd: not installed (./bootstrap "
		    "installs openssh-server)");
	/* sshd's privilege separation folder, which the machine's ssh
	 * service would have made */
	if (mkdir("/run/sshd", 0755) != 0 && errno != EEXIST)
		return bastion_fail(why, whylen, "mkdir /run/sshd: %s",
				    strerror(errno));
	snprintf(config, sizeof config, "%s/sshd_config", b->run);
	snprintf(hostkey, sizeof hostkey, "%s/host_ed25519_key", b->run);
	snprintf(b->sshd_log, sizeof b->sshd_log, "%s/sshd.log", b->run);
	{
		char *argv[] = {"ssh-keygen", "-q", "-t",    "ed25519", "-N",
				"",           "-f", hostkey, NULL};

		if (access(hostkey, F_OK) != 0 &&
		    bastion_cmd(argv, 30000, NULL, why, whylen) != 0)
			return -1;
	}
	/* the port is free when chosen; if someone takes it before sshd
	 * binds, sshd exits and another is tried */
	for (int attempt = 0; attempt < 3; attempt++) {
		char *argv[] = {"/usr/sbin/sshd", "-D", "-e", "-f",
				config,           NULL};
		char *test_argv[] = {"/usr/sbin/sshd", "-t", "-f", config,
				     NULL};
		pid_t parent = getpid();
		double end;
		int st;

		if ((b->port = bastion_free_port()) < 0)
			return bastion_fail(why, whylen, "no free port");
		if (bastion_write_sshd_config(b, config) != 0)
			return bastion_fail(why, whylen, "%s: %s", config,
					    strerror(errno));
		if (bastion_cmd(test_argv, 30000, NULL, why, whylen) != 0)
			return -1;
		b->sshd = fork();
		if (b->sshd < 0)
			return bastion_fail(why, whylen, "fork: %s",
					    strerror(errno));
		if (b->sshd == 0) {
			int null = open("/dev/null", O_RDONLY);
			int out = open(b->sshd_log,
				       O_WRONLY | O_CREAT | O_APPEND, 0600);

			/* sshd ends with the test program, however that
			 * ends (a timeout's SIGKILL included) */
			prctl(PR_SET_PDEATHSIG, SIGTERM);
			if (getppid() != parent)
				_exit(127);
			setsid();
			dup2(null, 0);
			dup2(out, 1);
			dup2(out, 2);
			execve(argv[0], argv, bastion_env);
			_exit(127);
		}
		end = bastion_now() + 15;
		while (bastion_now() < end) {
			if (waitpid(b->sshd, &st, WNOHANG) == b->sshd) {
				b->sshd = 0;
				break;
			}
			if (bastion_port_accepts(b->port)) {
				printf("bastion: sshd %d on 127.0.0.1:%d, "
				       "ready in %.2f s (log: %s)\n",
				       (int)b->sshd, b->port,
				       bastion_now() - t0, b->sshd_log);
				fflush(stdout);
				return 0;
			}
			poll(NULL, 0, 20);
		}
		if (b->sshd != 0) {
			bastion_sshd_stop(b);
			break; /* it runs but does not listen: say so */
		}
	}
	{
		char *log = pts_slurp(b->sshd_log);

		bastion_fail(why, whylen,
			     "sshd did not accept connections within 15 s:\n%s",
			     log);
		free(log);
	}
	return -1;
}

void
bastion_sshd_stop(struct bastion *b)
{
	double end = bastion_now() + 5;

	if (b->sshd <= 0)
		return;
	kill(b->sshd, SIGTERM);
	while (waitpid(b->sshd, NULL, WNOHANG) != b->sshd) {
		if (bastion_now() > end) {
			kill(b->sshd, SIGKILL);
			waitpid(b->sshd, NULL, 0);
			break;
		}
		poll(NULL, 0, 20);
	}
	b->sshd = 0;
}
