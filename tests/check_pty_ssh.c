/* SPDX-License-Identifier: MIT */
/*
 * The session's ssh (libexec/maelys-pty-ssh.c) against the user's own ssh
 * configuration: a ~/.ssh/config that points an allowed destination at a
 * listener of the test's, names a PKCS#11 provider (a library ssh would
 * load: the user's code) and a Match exec, includes a file with a
 * ProxyJump, a forwarding and a LocalCommand.  The real ssh given the
 * same home follows all of it (so the home is the one ssh reads); through
 * the wrapper, ssh shows the shipped etc/ssh_config's values, never
 * connects to the listener and loads nothing.
 *
 * The home is the test's own: each ssh runs in a private mount namespace
 * where a tmpfs covers the home directory of the test's user (ssh takes it
 * from the password database, not from $HOME) and /etc/hosts says where
 * web1.example.net is (127.0.0.9, so nothing leaves the machine).  Nothing
 * outside the namespace changes.  That needs root: without it, or without
 * the namespace or ssh, the whole suite says why and skips (exit 77).
 *
 * The wrapper is maelys-pty-ssh-test, built from the same source as the
 * installed one but reading the source tree's etc/ssh_config.
 */
#define _GNU_SOURCE /* unshare, CLONE_NEWNS */

#include "runner.h"

#include "pty_harness.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define SSH_REAL        "/usr/bin/ssh"
/* The destination the user's configuration redirects, an allowed one. */
#define SSH_DEST        "web1.example.net"
/* How long one ssh may take, connection attempts included. */
#define SSH_DEADLINE_MS 20000

/* One test's scratch: a directory, the listener and its port. */
static struct {
	struct pts_world world;
	char hosts[400];       /* the namespace's /etc/hosts */
	char pkcs11_mark[400]; /* created when the provider is loaded */
	char exec_mark[400];   /* created when Match exec runs */
	char include[400];     /* a file the user's config includes */
	int listener;
	int port;
} t;

/* What one ssh did.  Messages print at most the first 1500 bytes of the
 * output: Check's failure messages are bounded, and ssh -G alone prints
 * some 8 KiB. */
struct ssh_run {
	int status;      /* exit status, 128+signal, -1 on timeout */
	char out[65536]; /* stdout and stderr, NUL-terminated */
	size_t len;
	int connections; /* accepted on the listener */
};

static void
setup(void)
{
	struct sockaddr_in a;
	socklen_t alen = sizeof a;

	pts_world_make(&t.world);
	(void)snprintf(t.hosts, sizeof t.hosts, "%s/hosts", t.world.dir);
	(void)snprintf(t.pkcs11_mark, sizeof t.pkcs11_mark, "%s/pkcs11-loaded",
		       t.world.dir);
	(void)snprintf(t.exec_mark, sizeof t.exec_mark, "%s/match-exec-ran",
		       t.world.dir);
	(void)snprintf(t.include, sizeof t.include, "%s/included", t.world.dir);
	pts_write_file(t.hosts, "127.0.0.1 localhost\n127.0.0.9 " SSH_DEST "\n",
		       0644);
	t.listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ck_assert_int_ge(t.listener, 0);
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = 0; /* any free port */
	ck_assert_int_eq(bind(t.listener, (struct sockaddr *)&a, sizeof a), 0);
	ck_assert_int_eq(listen(t.listener, 8), 0);
	ck_assert_int_eq(getsockname(t.listener, (struct sockaddr *)&a, &alen),
			 0);
	t.port = ntohs(a.sin_port);
}

static void
teardown(void)
{
	close(t.listener);
	pts_world_remove(&t.world);
}

/* The user's ~/.ssh/config: web1.example.net is the test's listener, with
 * the test's library as PKCS#11 provider, and a Match exec that leaves a
 * mark; `everything` adds an Include of a file with a ProxyJump, a
 * forwarding, a LocalCommand, agent forwarding and a control socket (for
 * ssh -G only: a ProxyJump would keep ssh from reaching the listener). */
static void
user_config(char *buf, size_t cap, bool everything)
{
	int n;

	if (everything)
		pts_write_file(t.include,
			       "ProxyJump jump.example.org\n"
			       "LocalForward 8080 db1.example.net:5432\n"
			       "PermitLocalCommand yes\n"
			       "LocalCommand true\n"
			       "ForwardAgent yes\n"
			       "ControlMaster auto\n"
			       "ControlPath ~/.ssh/cm-%r@%h:%p\n"
			       "StrictHostKeyChecking no\n"
			       "UserKnownHostsFile ~/.ssh/known\n",
			       0644);
	n = snprintf(buf, cap,
		     "Match exec \"touch %s\"\n"
		     "Host " SSH_DEST "\n"
		     "    HostName 127.0.0.1\n"
		     "    Port %d\n"
		     "    PKCS11Provider %s\n"
		     "%s%s%s",
		     t.exec_mark, t.port,
		     pts_build_path("tests/pkcs11_marker.so"),
		     everything ? "    Include " : "",
		     everything ? t.include : "", everything ? "\n" : "");
	ck_assert(n > 0 && (size_t)n < cap);
}

/* In the child: a private mount namespace in which the user's home is an
 * empty tmpfs holding only .ssh/config, and /etc/hosts is the test's.
 * Returns 0, or -1 (the child then reports and exits). */
static int
private_home(const char *config)
{
	struct passwd *pw = getpwuid(getuid());
	char dir[600], file[700];
	FILE *f;

	if (pw == NULL || pw->pw_dir[0] != '/' || strcmp(pw->pw_dir, "/") == 0)
		return -1;
	if (unshare(CLONE_NEWNS) != 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    mount("tmpfs", pw->pw_dir, "tmpfs", MS_NOSUID | MS_NODEV,
		  "mode=0700") != 0 ||
	    mount(t.hosts, "/etc/hosts", NULL, MS_BIND, NULL) != 0)
		return -1;
	(void)snprintf(dir, sizeof dir, "%s/.ssh", pw->pw_dir);
	(void)snprintf(file, sizeof file, "%s/config", dir);
	if (mkdir(dir, 0700) != 0)
		return -1;
	f = fopen(file, "w");
	if (f == NULL)
		return -1;
	if (fputs(config, f) < 0 || fclose(f) != 0)
		return -1;
	return chmod(file, 0600);
}

/* Runs `path` with argv in its own home (private_home), stdin /dev/null;
 * collects its output and accepts (and closes at once) every connection
 * to the listener while it runs. */
static void
run_ssh(const char *path, char *const argv[], const char *config,
	struct ssh_run *r)
{
	char mark_env[450];
	char *envp[] = {"PATH=/usr/bin:/bin", "LC_ALL=C", mark_env, NULL};
	long deadline = pts_now_ms() + SSH_DEADLINE_MS;
	int pipefd[2], st = 0;
	bool eof = false;
	pid_t pid;

	memset(r, 0, sizeof *r);
	r->status = -1;
	(void)snprintf(mark_env, sizeof mark_env,
		       "MAELYS_TEST_PKCS11_MARKER=%s", t.pkcs11_mark);
	ck_assert_int_eq(pipe2(pipefd, O_CLOEXEC), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		(void)setsid(); /* no terminal: ssh must not prompt */
		if (null < 0 || dup2(null, 0) < 0 || dup2(pipefd[1], 1) < 0 ||
		    dup2(pipefd[1], 2) < 0)
			_exit(126);
		if (private_home(config) != 0) {
			dprintf(2, "check_pty_ssh: private home: %s\n",
				strerror(errno));
			_exit(126);
		}
		execve(path, argv, envp);
		dprintf(2, "check_pty_ssh: %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	while (!eof && pts_now_ms() < deadline) {
		struct pollfd p[2] = {{pipefd[0], POLLIN, 0},
				      {t.listener, POLLIN, 0}};

		if (poll(p, 2, 200) < 0 && errno != EINTR)
			break;
		if (p[1].revents & POLLIN) {
			int c = accept4(t.listener, NULL, NULL, SOCK_CLOEXEC);

			if (c >= 0) {
				r->connections++;
				close(c); /* ssh then fails: nothing answers */
			}
		}
		if (p[0].revents & (POLLIN | POLLHUP)) {
			ssize_t n = read(pipefd[0], r->out + r->len,
					 sizeof r->out - 1 - r->len);

			if (n <= 0)
				eof = true;
			else
				r->len += (size_t)n;
		}
	}
	close(pipefd[0]);
	r->out[r->len] = '\0';
	if (!eof)
		(void)kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	if (eof)
		r->status =
		    WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static bool
exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* Whether `out` (ssh -G) has the line `line`. */
static bool
has_line(const char *out, const char *line)
{
	size_t n = strlen(line);
	const char *p = out;

	while ((p = strstr(p, line)) != NULL) {
		if ((p == out || p[-1] == '\n') &&
		    (p[n] == '\n' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

static bool
has_key(const char *out, const char *key)
{
	const char *p = out;
	size_t n = strlen(key);

	while ((p = strstr(p, key)) != NULL) {
		if ((p == out || p[-1] == '\n') && p[n] == ' ')
			return true;
		p += n;
	}
	return false;
}

/* ssh -G prints the configuration that applies.  The real ssh in that
 * home follows the user's file: the listener, the library, the jump host,
 * the forwarding, Match exec.  Through the wrapper the same home changes
 * nothing: the shipped etc/ssh_config's values, and Match exec never ran. */
START_TEST(test_ssh_wrapper_shows_the_shipped_configuration_not_the_users)
{
	char config[2048], port[32];
	char *real[] = {"ssh", "-G", SSH_DEST, NULL};
	char *wrapped[] = {"ssh", "-G", SSH_DEST, NULL};
	static const char *const shipped[] = {
	    ("hostname " SSH_DEST),
	    "port 22",
	    "clearallforwardings yes",
	    "permitlocalcommand no",
	    "forwardagent no",
	    "forwardx11 no",
	    "controlmaster false",
	    "tunnel false",
	    "stricthostkeychecking true",
	    "userknownhostsfile none",
	    "globalknownhostsfile /etc/ssh/ssh_known_hosts",
	    "securitykeyprovider internal",
	    "enableescapecommandline no",
	    "canonicalizehostname false",
	};
	static const char *const absent[] = {
	    "proxyjump",      "proxycommand",      "localforward",
	    "pkcs11provider", "localcommand",      "controlpath",
	    "remotecommand",  "knownhostscommand",
	};
	struct ssh_run *r = calloc(1, sizeof *r);
	size_t i;

	ck_assert_ptr_nonnull(r);
	user_config(config, sizeof config, true);
	(void)snprintf(port, sizeof port, "port %d", t.port);

	run_ssh(SSH_REAL, real, config, r);
	ck_assert_msg(r->status == 0, "ssh -G: %d: %.1500s", r->status, r->out);
	ck_assert_msg(has_line(r->out, "hostname 127.0.0.1"), "%.1500s",
		      r->out);
	ck_assert_msg(has_line(r->out, port), "%.1500s", r->out);
	ck_assert_msg(has_line(r->out, "proxyjump jump.example.org"), "%.1500s",
		      r->out);
	ck_assert_msg(has_key(r->out, "localforward"), "%.1500s", r->out);
	ck_assert_msg(has_key(r->out, "pkcs11provider"), "%.1500s", r->out);
	ck_assert_msg(exists(t.exec_mark), "Match exec did not run for the "
					   "real ssh: not its home?");
	ck_assert_int_eq(unlink(t.exec_mark), 0);

	run_ssh(pts_build_path("tests/maelys-pty-ssh-test"), wrapped, config,
		r);
	ck_assert_msg(r->status == 0, "wrapper ssh -G: %d: %.1500s", r->status,
		      r->out);
	for (i = 0; i < sizeof shipped / sizeof shipped[0]; i++)
		ck_assert_msg(has_line(r->out, shipped[i]),
			      "wrapper: no '%s' in:\n%.1500s", shipped[i],
			      r->out);
	for (i = 0; i < sizeof absent / sizeof absent[0]; i++)
		ck_assert_msg(!has_key(r->out, absent[i]),
			      "wrapper: '%s' set in:\n%.1500s", absent[i],
			      r->out);
	ck_assert_msg(!exists(t.exec_mark),
		      "Match exec ran through the wrapper");
	free(r);
}
END_TEST

/* A connection, as "ssh web1.example.net" would make one: the real ssh
 * given the user's file connects to the test's listener and loads the
 * user's library; the wrapper goes where /etc/hosts says (a closed port
 * on 127.0.0.9), never to the listener, and loads nothing. */
START_TEST(test_ssh_wrapper_never_reaches_where_the_users_file_points)
{
	char config[2048];
	char *argv[] = {
	    "ssh",  "-o", "BatchMode=yes", "-o", "ConnectTimeout=5", SSH_DEST,
	    "true", NULL};
	struct ssh_run *r = calloc(1, sizeof *r);

	ck_assert_ptr_nonnull(r);
	user_config(config, sizeof config, false);

	run_ssh(SSH_REAL, argv, config, r);
	ck_assert_msg(r->connections >= 1,
		      "the real ssh never reached the listener: %.1500s",
		      r->out);
	ck_assert_msg(exists(t.pkcs11_mark),
		      "the real ssh did not load the provider: %.1500s",
		      r->out);
	ck_assert_int_eq(unlink(t.pkcs11_mark), 0);
	ck_assert_int_eq(unlink(t.exec_mark), 0);

	run_ssh(pts_build_path("tests/maelys-pty-ssh-test"), argv, config, r);
	ck_assert_msg(r->status == 255, "wrapper: status %d: %.1500s",
		      r->status, r->out);
	ck_assert_msg(r->connections == 0,
		      "the wrapper's ssh reached the user's listener: %.1500s",
		      r->out);
	ck_assert_msg(!exists(t.pkcs11_mark),
		      "the wrapper's ssh loaded the user's library: %.1500s",
		      r->out);
	ck_assert_msg(!exists(t.exec_mark), "Match exec ran: %.1500s", r->out);
	ck_assert_msg(strstr(r->out, "127.0.0.9") != NULL ||
			  strstr(r->out, SSH_DEST) != NULL,
		      "the wrapper's ssh went elsewhere: %.1500s", r->out);
	free(r);
}
END_TEST

/* The wrapper passes its arguments on unchanged after the -F pair (the
 * policy decides them, not the wrapper): -p and -l show in ssh -G. */
START_TEST(test_ssh_wrapper_passes_its_arguments_after_the_configuration)
{
	char config[2048];
	char *argv[] = {"anything", "-G",  "-p",     "2200",
			"-l",       "bob", SSH_DEST, NULL};
	struct ssh_run *r = calloc(1, sizeof *r);

	ck_assert_ptr_nonnull(r);
	user_config(config, sizeof config, false);
	run_ssh(pts_build_path("tests/maelys-pty-ssh-test"), argv, config, r);
	ck_assert_msg(r->status == 0, "%d: %.1500s", r->status, r->out);
	ck_assert_msg(has_line(r->out, "port 2200"), "%.1500s", r->out);
	ck_assert_msg(has_line(r->out, "user bob"), "%.1500s", r->out);
	ck_assert_msg(has_line(r->out, "hostname " SSH_DEST), "%.1500s",
		      r->out);
	free(r);
}
END_TEST

/* Without the real ssh the wrapper fails closed: ssh's error status and a
 * message naming what could not run, and nothing else is tried. */
START_TEST(test_ssh_wrapper_without_the_real_ssh_fails_closed)
{
	char *argv[] = {"ssh", SSH_DEST, NULL};
	char *envp[] = {"PATH=/usr/bin:/bin", NULL};
	char *out = NULL, *err = NULL;
	int st;

	st = pts_run_path(pts_build_path("tests/maelys-pty-ssh-broken"), argv,
			  envp, &out, &err);
	ck_assert_int_eq(st, 255);
	ck_assert_str_eq(out, "");
	ck_assert_msg(
	    strstr(err, "maelys-pty-ssh: cannot run "
			"/nonexistent/maelys-pty-test/ssh -F ") != NULL &&
		strstr(err, "No such file or directory: ssh not run") != NULL,
	    "%s", err);
	free(out);
	free(err);
}
END_TEST

/* Root, a private mount namespace and ssh, or a loud skip. */
static void
require_root_namespace_and_ssh(void)
{
	const char *why = NULL;
	pid_t pid;
	int st;

	if (geteuid() != 0)
		why = "needs root (a private mount namespace over the home "
		      "directory)";
	else if (access(SSH_REAL, X_OK) != 0)
		why = "no " SSH_REAL " (openssh-client)";
	if (why == NULL) {
		pid = fork();
		if (pid == 0)
			_exit(unshare(CLONE_NEWNS) == 0 &&
				      mount(NULL, "/", NULL,
					    MS_REC | MS_PRIVATE, NULL) == 0
				  ? 0
				  : 1);
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st) != 0)
			why = "cannot make a private mount namespace";
	}
	if (why != NULL) {
		printf("SKIP: check_pty_ssh: %s: the ssh wrapper's tests did "
		       "not run\n",
		       why);
		exit(77);
	}
}

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("ssh");

	require_root_namespace_and_ssh();
	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(
	    tc, test_ssh_wrapper_shows_the_shipped_configuration_not_the_users);
	tcase_add_test(
	    tc, test_ssh_wrapper_never_reaches_where_the_users_file_points);
	tcase_add_test(
	    tc, test_ssh_wrapper_passes_its_arguments_after_the_configuration);
	tcase_add_test(tc, test_ssh_wrapper_without_the_real_ssh_fails_closed);
	suite_add_tcase(s, tc);
	return s;
}
