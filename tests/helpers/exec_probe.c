/* SPDX-License-Identifier: MIT */
/*
 * A probe for the exec supervisor's end-to-end tests, run INSIDE a guarded
 * session: it tries execs and dangerous syscalls and prints, one fact per
 * ASCII line on stdout, what the kernel (or the supervisor's filter) said.
 *
 *   exec PATH [ARG...]        execv PATH; on failure print the errno, exit 126
 *   syscalls                  try each refused syscall; exit 0 iff all EPERM
 *   seccomp_listener          try to install a notifying filter; 0 if refused
 *   ptrace PID                PTRACE_SEIZE PID (detach at once); 0 if refused
 *   forkexec N PATH [ARG...]  N x (fork, execv, waitpid); 0 iff all exit 0
 *   race N ALLOWED FORBIDDEN ARG
 *                             N children exec a path another thread rewrites
 *   waitexec GO RESULT PATH [ARG...]
 *                             survive hangups, wait for GO, then execv PATH
 *   flipexec N LINK A B ARG...
 *                             a thread flips the symbolic link LINK
 *                             between A and B (a new link renamed over it)
 *                             while N children execv LINK with ARG...;
 *                             counts how they ended
 *   detach PIDFILE            leave the session as daemons do (fork,
 *                             setsid, fork again, hangups and terminations
 *                             ignored, descriptors to /dev/null), write the
 *                             daemon's pid to PIDFILE and return; the
 *                             daemon waits for a signal it cannot ignore
 *   hop PIDFILE               leave the session like detach, then keep
 *                             moving: each generation forks the next
 *                             and exits at once, for at most 30 s; the
 *                             first writes its pid
 *   inject PID WORD...        open every descriptor of process PID again
 *                             through /proc/PID/fd/N, for writing and for
 *                             reading and writing, and write the words (a
 *                             line) into each one that opens; one line a
 *                             descriptor: "fd N TARGET: MODE ok|ERRNO"
 *
 * The tests run as root, and this program also runs OUTSIDE the supervisor
 * (by hand, on CI before the guard is up). So every syscall it tries must be
 * harmless on an unfiltered kernel: arguments are chosen so that the kernel
 * fails it (EINVAL, EFAULT, EBADF, ENOENT, ESRCH, ...) before it can do
 * anything. It never reboots, loads or unloads modules or kexec images,
 * mounts, swaps, or injects terminal input. The only calls that succeed
 * unfiltered affect the probe alone: unshare(CLONE_NEWNS), an allow-all
 * seccomp filter, and a PTRACE_SEIZE that is undone at once.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/filter.h>
#include <linux/seccomp.h>

#define PROBE_USAGE_EXIT 2
#define PROBE_EXEC_EXIT  126 /* the shell's "found but could not exec" */
#define PROBE_CHILD_EXIT 127 /* a child whose execv returned */
#define PROBE_N_MAX      1000000LL
#define PROBE_PATH_MAX   4096  /* the race buffer, NUL included */
#define PROBE_UNAVAIL    (-2L) /* the headers lack this syscall's number */

/* Paths and names nothing on a test machine has. */
#define PROBE_NOPATH "/nonexistent-maelys"
#define PROBE_NOPID  0x7ffffff0L /* above PID_MAX_LIMIT (4194304) */

/* Not taken from <linux/mount.h>: it clashes with glibc's <sys/mount.h>. */
#define PROBE_MOVE_MOUNT_F_EMPTY_PATH 0x00000004L
#define PROBE_MOVE_MOUNT_T_EMPTY_PATH 0x00000040L
#define PROBE_FSCONFIG_SET_FLAG       0L

#ifndef SECCOMP_SET_MODE_FILTER
#define SECCOMP_SET_MODE_FILTER 1
#endif
#ifndef SECCOMP_FILTER_FLAG_NEW_LISTENER
#define SECCOMP_FILTER_FLAG_NEW_LISTENER (1UL << 3)
#endif

extern char **environ;

struct probe_errno {
	int value;
	const char *name;
};

/* clang-format would spread this one-line initializer over four lines. */
/* clang-format off */
#define PROBE_E(e) {e, #e}
/* clang-format on */
/* Aliases (EWOULDBLOCK, EDEADLOCK, ENOTSUP) share a value; one name each. */
static const struct probe_errno probe_errnos[] = {
    PROBE_E(EPERM),       PROBE_E(ENOENT),
    PROBE_E(ESRCH),       PROBE_E(EINTR),
    PROBE_E(EIO),         PROBE_E(ENXIO),
    PROBE_E(E2BIG),       PROBE_E(ENOEXEC),
    PROBE_E(EBADF),       PROBE_E(ECHILD),
    PROBE_E(EAGAIN),      PROBE_E(ENOMEM),
    PROBE_E(EACCES),      PROBE_E(EFAULT),
    PROBE_E(ENOTBLK),     PROBE_E(EBUSY),
    PROBE_E(EEXIST),      PROBE_E(EXDEV),
    PROBE_E(ENODEV),      PROBE_E(ENOTDIR),
    PROBE_E(EISDIR),      PROBE_E(EINVAL),
    PROBE_E(ENFILE),      PROBE_E(EMFILE),
    PROBE_E(ENOTTY),      PROBE_E(ETXTBSY),
    PROBE_E(EFBIG),       PROBE_E(ENOSPC),
    PROBE_E(ESPIPE),      PROBE_E(EROFS),
    PROBE_E(EMLINK),      PROBE_E(EPIPE),
    PROBE_E(EDOM),        PROBE_E(ERANGE),
    PROBE_E(EDEADLK),     PROBE_E(ENAMETOOLONG),
    PROBE_E(ENOLCK),      PROBE_E(ENOSYS),
    PROBE_E(ENOTEMPTY),   PROBE_E(ELOOP),
    PROBE_E(ENOMSG),      PROBE_E(ENOSTR),
    PROBE_E(ENODATA),     PROBE_E(ETIME),
    PROBE_E(ENOPKG),      PROBE_E(EOVERFLOW),
    PROBE_E(ELIBBAD),     PROBE_E(EILSEQ),
    PROBE_E(EUSERS),      PROBE_E(ENOTSOCK),
    PROBE_E(EMSGSIZE),    PROBE_E(EOPNOTSUPP),
    PROBE_E(EADDRINUSE),  PROBE_E(ENOTCONN),
    PROBE_E(ETIMEDOUT),   PROBE_E(ECONNREFUSED),
    PROBE_E(EALREADY),    PROBE_E(EINPROGRESS),
    PROBE_E(ESTALE),      PROBE_E(EDQUOT),
    PROBE_E(ENOMEDIUM),   PROBE_E(ECANCELED),
    PROBE_E(ENOKEY),      PROBE_E(EKEYEXPIRED),
    PROBE_E(EKEYREVOKED), PROBE_E(EKEYREJECTED),
    PROBE_E(EOWNERDEAD),  PROBE_E(ENOTRECOVERABLE),
};

/* A name for err: from the table, else "ERRNO_<n>" formatted into buf. */
static const char *
probe_errno_name(int err, char *buf, size_t size)
{
	size_t i;

	for (i = 0; i < sizeof probe_errnos / sizeof probe_errnos[0]; i++)
		if (probe_errnos[i].value == err)
			return probe_errnos[i].name;
	snprintf(buf, size, "ERRNO_%d", err);
	return buf;
}

static int
probe_usage(void)
{
	fputs("usage: exec_probe exec PATH [ARG...]\n"
	      "       exec_probe syscalls\n"
	      "       exec_probe seccomp_listener\n"
	      "       exec_probe ptrace PID\n"
	      "       exec_probe forkexec N PATH [ARG...]\n"
	      "       exec_probe race N ALLOWED FORBIDDEN ARG\n"
	      "       exec_probe waitexec GOFILE RESULTFILE PATH [ARG...]\n"
	      "       exec_probe flipexec N LINK A B ARG...\n"
	      "       exec_probe detach PIDFILE\n"
	      "       exec_probe hop PIDFILE\n"
	      "       exec_probe inject PID WORD...\n",
	      stderr);
	return PROBE_USAGE_EXIT;
}

/* strtoll, then the end pointer, errno and [min, max]. */
static int
probe_parse_number(const char *s, long long min, long long max, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < min || v > max) {
		fprintf(stderr,
			"exec_probe: bad number '%s' (want %lld..%lld)\n", s,
			min, max);
		return -1;
	}
	*out = v;
	return 0;
}

/* waitpid, looping on EINTR; -1 if it fails. */
static int
probe_wait(pid_t pid, int *status)
{
	pid_t r;

	do
		r = waitpid(pid, status, 0);
	while (r < 0 && errno == EINTR);
	return r == pid ? 0 : -1;
}

/*
 * The syscalls the supervisor's filter must refuse. Each function returns
 * the raw syscall's result (errno set on -1), or PROBE_UNAVAIL. Its comment
 * says why an unfiltered kernel refuses it harmlessly.
 */

static long
probe_reboot(void)
{
#ifdef SYS_reboot
	/* Wrong magic numbers: EINVAL before the command is looked at, and
	 * the command is none of LINUX_REBOOT_CMD_* anyway. */
	return syscall(SYS_reboot, 0L, 0L, 0x6d61656cL, NULL);
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_kexec_load(void)
{
#ifdef SYS_kexec_load
	/* Undefined flag bits (not KEXEC_ON_CRASH) and a segment count over
	 * KEXEC_SEGMENT_MAX: EINVAL. nr_segments 0 would unload, so not 0. */
	return syscall(SYS_kexec_load, 0L, 0x7fffffffL, NULL, 0xfff0L);
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_kexec_file_load(void)
{
#ifdef SYS_kexec_file_load
	/* Flags 0 (not KEXEC_FILE_UNLOAD, not ON_CRASH): reading fd -1
	 * fails with EBADF before any image is touched. */
	return syscall(SYS_kexec_file_load, -1L, -1L, 0L, NULL, 0L);
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_init_module(void)
{
#ifdef SYS_init_module
	/* A 0-byte image is shorter than an ELF header: ENOEXEC. */
	return syscall(SYS_init_module, NULL, 0L, "");
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_finit_module(void)
{
#ifdef SYS_finit_module
	return syscall(SYS_finit_module, -1L, "", 0L); /* EBADF */
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_delete_module(void)
{
#ifdef SYS_delete_module
	/* No such module: ENOENT; O_NONBLOCK so it never waits. */
	return syscall(SYS_delete_module, "maelys_no_such_module",
		       (long)O_NONBLOCK);
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_mount(void)
{
#ifdef SYS_mount
	return syscall(SYS_mount, PROBE_NOPATH, PROBE_NOPATH, NULL, 0L,
		       NULL); /* ENOENT */
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_umount2(void)
{
#ifdef SYS_umount2
	return syscall(SYS_umount2, PROBE_NOPATH, 0L); /* ENOENT */
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_pivot_root(void)
{
#ifdef SYS_pivot_root
	return syscall(SYS_pivot_root, PROBE_NOPATH,
		       PROBE_NOPATH "/old"); /* ENOENT */
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_move_mount(void)
{
#ifdef SYS_move_mount
	/* Both ends are "fd -1, empty path": EBADF. */
	return syscall(SYS_move_mount, -1L, "", -1L, "",
		       PROBE_MOVE_MOUNT_F_EMPTY_PATH |
			   PROBE_MOVE_MOUNT_T_EMPTY_PATH);
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_open_tree(void)
{
#ifdef SYS_open_tree
	/* Flags 0: even success would only be an O_PATH fd, not a clone. */
	return syscall(SYS_open_tree, -1L, PROBE_NOPATH, 0L); /* ENOENT */
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_fsopen(void)
{
#ifdef SYS_fsopen
	return syscall(SYS_fsopen, "maelys-nofs", 0L); /* ENODEV */
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_fsmount(void)
{
#ifdef SYS_fsmount
	return syscall(SYS_fsmount, -1L, 0L, 0L); /* EBADF */
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_fspick(void)
{
#ifdef SYS_fspick
	return syscall(SYS_fspick, -1L, PROBE_NOPATH, 0L); /* ENOENT */
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_fsconfig(void)
{
#ifdef SYS_fsconfig
	/* A negative fd: EINVAL (or EBADF on some kernels). */
	return syscall(SYS_fsconfig, -1L, PROBE_FSCONFIG_SET_FLAG, "ro", NULL,
		       0L);
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_mount_setattr(void)
{
#ifdef SYS_mount_setattr
	/* size 0 is below MOUNT_ATTR_SIZE_VER0: EINVAL. */
	return syscall(SYS_mount_setattr, -1L, PROBE_NOPATH, 0L, NULL, 0L);
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_swapon(void)
{
#ifdef SYS_swapon
	return syscall(SYS_swapon, PROBE_NOPATH, 0L); /* ENOENT */
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_swapoff(void)
{
#ifdef SYS_swapoff
	return syscall(SYS_swapoff, PROBE_NOPATH); /* ENOENT */
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_ptrace(void)
{
#ifdef SYS_ptrace
	long word = 0;

	/* No process has this pid: ESRCH. */
	return syscall(SYS_ptrace, (long)PTRACE_PEEKDATA, PROBE_NOPID, NULL,
		       &word);
#else
	return PROBE_UNAVAIL;
#endif
}

/*
 * One byte each way: with zero iovecs the kernel returns 0 before it looks
 * the pid up, so the unfiltered call would "succeed"; with one it says ESRCH.
 */
#if defined(SYS_process_vm_writev) || defined(SYS_process_vm_readv)
static long
probe_process_vm(long nr)
{
	char byte = 0;
	struct iovec local = {.iov_base = &byte, .iov_len = 1};
	struct iovec remote = {.iov_base = NULL, .iov_len = 1};

	return syscall(nr, PROBE_NOPID, &local, 1L, &remote, 1L, 0L);
}
#endif

static long
probe_process_vm_writev(void)
{
#ifdef SYS_process_vm_writev
	return probe_process_vm(SYS_process_vm_writev);
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_process_vm_readv(void)
{
#ifdef SYS_process_vm_readv
	return probe_process_vm(SYS_process_vm_readv);
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_bpf(void)
{
#ifdef SYS_bpf
	/* No such command: EINVAL; attr NULL with size 0 is never read. */
	return syscall(SYS_bpf, 0x7fffffffL, NULL, 0L);
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_ioctl_tiocsti(void)
{
#if defined(SYS_ioctl) && defined(TIOCSTI)
	char c = 'x';

	return syscall(SYS_ioctl, -1L, (long)TIOCSTI, &c); /* EBADF */
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_ioctl_tioclinux(void)
{
#if defined(SYS_ioctl) && defined(TIOCLINUX)
	char c = 0;

	return syscall(SYS_ioctl, -1L, (long)TIOCLINUX, &c); /* EBADF */
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_chroot(void)
{
#ifdef SYS_chroot
	return syscall(SYS_chroot, PROBE_NOPATH); /* ENOENT */
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_setns(void)
{
#ifdef SYS_setns
	return syscall(SYS_setns, -1L, 0L); /* EBADF */
#else
	return PROBE_UNAVAIL;
#endif
}

static long
probe_unshare(void)
{
#ifdef SYS_unshare
	/* Succeeds unfiltered as root, but only gives this process its own
	 * copy of the mount table; nothing is mounted in it. */
	return syscall(SYS_unshare, (long)CLONE_NEWNS);
#else
	return PROBE_UNAVAIL;
#endif
}

/* Refused: in a user namespace an unprivileged process could make a mount
 * namespace of its own.  (Unfiltered it succeeds, harmlessly: a user
 * namespace of the probe alone.) */
static long
probe_unshare_user(void)
{
#ifdef SYS_unshare
	return syscall(SYS_unshare, (long)CLONE_NEWUSER);
#else
	return PROBE_UNAVAIL;
#endif
}

/* open_tree_attr (467, Linux 6.15) with a bad descriptor: EBADF. */
static long
probe_open_tree_attr(void)
{
	return syscall(467L, -1L, "", 0L, NULL, 0L);
}

static long
probe_pidfd_getfd(void)
{
#ifdef SYS_pidfd_getfd
	return syscall(SYS_pidfd_getfd, -1L, 0L, 0L); /* EBADF */
#else
	return PROBE_UNAVAIL;
#endif
}

struct probe_call {
	const char *name;
	long (*fn)(void);
};

/* In the order the tests expect them printed. */
static const struct probe_call probe_calls[] = {
    {"reboot", probe_reboot},
    {"kexec_load", probe_kexec_load},
    {"kexec_file_load", probe_kexec_file_load},
    {"init_module", probe_init_module},
    {"finit_module", probe_finit_module},
    {"delete_module", probe_delete_module},
    {"mount", probe_mount},
    {"umount2", probe_umount2},
    {"pivot_root", probe_pivot_root},
    {"move_mount", probe_move_mount},
    {"open_tree", probe_open_tree},
    {"fsopen", probe_fsopen},
    {"fsmount", probe_fsmount},
    {"fspick", probe_fspick},
    {"fsconfig", probe_fsconfig},
    {"mount_setattr", probe_mount_setattr},
    {"swapon", probe_swapon},
    {"swapoff", probe_swapoff},
    {"ptrace", probe_ptrace},
    {"process_vm_writev", probe_process_vm_writev},
    {"process_vm_readv", probe_process_vm_readv},
    {"bpf", probe_bpf},
    {"ioctl_TIOCSTI", probe_ioctl_tiocsti},
    {"ioctl_TIOCLINUX", probe_ioctl_tioclinux},
    {"chroot", probe_chroot},
    {"setns", probe_setns},
    {"unshare", probe_unshare},
    {"unshare_user", probe_unshare_user},
    {"open_tree_attr", probe_open_tree_attr},
    {"pidfd_getfd", probe_pidfd_getfd},
};

static int
probe_mode_syscalls(int argc, char **argv)
{
	char buf[32];
	size_t i;
	long r;
	int err, all_eperm = 1;

	(void)argc;
	(void)argv;
	for (i = 0; i < sizeof probe_calls / sizeof probe_calls[0]; i++) {
		errno = 0;
		r = probe_calls[i].fn();
		err = errno;
		if (r == PROBE_UNAVAIL) {
			printf("%s: unavailable\n", probe_calls[i].name);
			continue;
		}
		if (r >= 0) {
			/* Only open_tree, fsopen, fspick and fsmount make fds,
			 * and only on success; don't keep them. */
			if (r > 2 && r <= INT_MAX)
				close((int)r);
			printf("%s: succeeded\n", probe_calls[i].name);
			all_eperm = 0;
			continue;
		}
		printf("%s: %s\n", probe_calls[i].name,
		       probe_errno_name(err, buf, sizeof buf));
		if (err != EPERM)
			all_eperm = 0;
	}
	return all_eperm ? 0 : 1;
}

static int
probe_mode_exec(int argc, char **argv)
{
	char buf[32];
	int err;

	(void)argc;
	/* argv[2..] is already {PATH, ARG..., NULL}. */
	execv(argv[2], &argv[2]);
	err = errno;
	printf("exec_probe: exec %s: %s\n", argv[2],
	       probe_errno_name(err, buf, sizeof buf));
	return PROBE_EXEC_EXIT;
}

static int
probe_mode_seccomp_listener(int argc, char **argv)
{
	struct sock_filter allow[] = {
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {.len = 1, .filter = allow};
	char buf[32];
	long r;

	(void)argc;
	(void)argv;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) != 0) {
		printf("seccomp_listener: no_new_privs %s\n",
		       probe_errno_name(errno, buf, sizeof buf));
		return 1;
	}
#ifdef SYS_seccomp
	r = syscall(SYS_seccomp, (long)SECCOMP_SET_MODE_FILTER,
		    (long)SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
#else
	r = PROBE_UNAVAIL;
#endif
	if (r == PROBE_UNAVAIL) {
		printf("seccomp_listener: unavailable\n");
		return 1;
	}
	if (r >= 0) {
		/* The filter allows everything: nothing ever waits on it. */
		close((int)r);
		printf("seccomp_listener: succeeded\n");
		return 1;
	}
	printf("seccomp_listener: %s\n",
	       probe_errno_name(errno, buf, sizeof buf));
	return 0;
}

/*
 * Undo a PTRACE_SEIZE. PTRACE_DETACH needs a stopped tracee, so interrupt
 * it first. If the stop we see is a signal's, pass that signal on. If any
 * step fails, our exit detaches it anyway (the kernel's exit_ptrace).
 */
static void
probe_ptrace_undo(pid_t pid)
{
	int status, sig = 0;

	if (ptrace(PTRACE_INTERRUPT, pid, NULL, NULL) != 0)
		return;
	if (waitpid(pid, &status, __WALL) != pid || !WIFSTOPPED(status))
		return;
	if (status >> 16 == 0) /* a signal-delivery-stop, not an event's */
		sig = WSTOPSIG(status);
	ptrace(PTRACE_DETACH, pid, NULL, (void *)(long)sig);
}

static int
probe_mode_ptrace(int argc, char **argv)
{
	char buf[32];
	long long pid;

	(void)argc;
	if (probe_parse_number(argv[2], 1, INT_MAX, &pid) != 0)
		return probe_usage();
	if (ptrace(PTRACE_SEIZE, (pid_t)pid, NULL, NULL) != 0) {
		printf("ptrace %lld: %s\n", pid,
		       probe_errno_name(errno, buf, sizeof buf));
		return 0;
	}
	probe_ptrace_undo((pid_t)pid);
	printf("ptrace %lld: attached\n", pid);
	return 1;
}

static int
probe_mode_forkexec(int argc, char **argv)
{
	long long n, i, ok = 0, failed = 0;
	pid_t pid;
	int status;

	(void)argc;
	if (probe_parse_number(argv[2], 1, PROBE_N_MAX, &n) != 0)
		return probe_usage();
	fflush(stdout);
	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0) {
			failed++;
			continue;
		}
		if (pid == 0) {
			execv(argv[3], &argv[3]);
			_exit(PROBE_CHILD_EXIT);
		}
		if (probe_wait(pid, &status) == 0 && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 0)
			ok++;
		else
			failed++;
	}
	printf("forkexec: %lld ok, %lld failed\n", ok, failed);
	return failed == 0 ? 0 : 1;
}

/*
 * race: the path execve reads is rewritten by another thread meanwhile.
 * race_buf is written through a volatile pointer and read by the kernel, with
 * no lock on purpose: the supervisor reads it when it decides, the kernel
 * again when it execs, and a path checked must be the path run.
 */
static char race_buf[PROBE_PATH_MAX];

struct probe_race {
	const char *allowed;
	const char *forbidden;
	size_t allowed_len; /* both without the NUL; < PROBE_PATH_MAX */
	size_t forbidden_len;
	atomic_int started; /* set by the rewriter before its first write */
};

static void
probe_race_copy(const char *src, size_t len)
{
	volatile char *dst = race_buf;
	size_t i;

	for (i = 0; i <= len; i++) /* the NUL too */
		dst[i] = src[i];
}

static void *
probe_race_rewriter(void *arg)
{
	struct probe_race *r = arg;

	atomic_store(&r->started, 1);
	for (;;) { /* until the exec (or _exit) ends this thread */
		probe_race_copy(r->forbidden, r->forbidden_len);
		probe_race_copy(r->allowed, r->allowed_len);
	}
	return NULL;
}

static void
probe_race_child(struct probe_race *r, const char *arg)
{
	char *args[] = {race_buf, (char *)arg, NULL};
	pthread_t t;

	probe_race_copy(r->allowed, r->allowed_len);
	if (pthread_create(&t, NULL, probe_race_rewriter, r) != 0)
		_exit(PROBE_CHILD_EXIT);
	while (!atomic_load(&r->started))
		;
	execve(race_buf, args, environ);
	_exit(PROBE_CHILD_EXIT);
}

static int
probe_mode_race(int argc, char **argv)
{
	struct probe_race r = {.allowed = argv[3], .forbidden = argv[4]};
	long long n, i, exited0 = 0, failed = 0;
	pid_t pid;
	int status;

	(void)argc;
	if (probe_parse_number(argv[2], 1, PROBE_N_MAX, &n) != 0)
		return probe_usage();
	r.allowed_len = strlen(r.allowed);
	r.forbidden_len = strlen(r.forbidden);
	if (r.allowed_len >= PROBE_PATH_MAX ||
	    r.forbidden_len >= PROBE_PATH_MAX) {
		fprintf(stderr, "exec_probe: race: path longer than %d\n",
			PROBE_PATH_MAX - 1);
		return probe_usage();
	}
	atomic_init(&r.started, 0);
	fflush(stdout);
	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0) {
			failed++;
			continue;
		}
		if (pid == 0)
			probe_race_child(&r, argv[5]);
		if (probe_wait(pid, &status) == 0 && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 0)
			exited0++;
		else
			failed++;
	}
	printf("race: %lld runs, %lld exited 0, %lld failed\n", n, exited0,
	       failed);
	return 0;
}

/* Write all of s to path (created 0644, truncated); errors are ignored:
 * there is nobody left to tell. */
static void
probe_write_result(const char *path, const char *s)
{
	size_t len = strlen(s), done = 0;
	ssize_t w;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	(void)fchmod(fd, 0644); /* exactly 0644, whatever the umask */
	while (done < len) {
		w = write(fd, s + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	close(fd);
}

/*
 * waitexec outlives its session's guard: hangups and terminations are
 * ignored (and stay ignored in PATH, so a program that does run is seen
 * to run), and the result goes to a file since the terminal may be gone.
 */
static int
probe_mode_waitexec(int argc, char **argv)
{
	static const int ignored[] = {SIGHUP, SIGTERM, SIGINT, SIGPIPE};
	const char *go = argv[2], *result = argv[3];
	struct timespec now, deadline,
	    tick = {.tv_sec = 0, .tv_nsec = 10000000L};
	struct stat st;
	char line[PROBE_PATH_MAX + 64], buf[32];
	size_t i;
	int err;

	(void)argc;
	for (i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
		signal(ignored[i], SIG_IGN);
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += 60;
	for (;;) {
		if (stat(go, &st) == 0)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > deadline.tv_sec ||
		    (now.tv_sec == deadline.tv_sec &&
		     now.tv_nsec >= deadline.tv_nsec)) {
			probe_write_result(result, "timeout\n");
			return 2;
		}
		nanosleep(&tick, NULL); /* EINTR: just poll sooner */
	}
	execv(argv[4], &argv[4]);
	err = errno;
	snprintf(line, sizeof line, "exec %s failed: %s\n", argv[4],
		 probe_errno_name(err, buf, sizeof buf));
	probe_write_result(result, line);
	return PROBE_EXEC_EXIT;
}

struct probe_flip {
	const char *link, *a, *b;
	char tmp[PROBE_PATH_MAX];
	atomic_int stop;
};

static void *
probe_flip_thread(void *arg)
{
	struct probe_flip *f = arg;
	unsigned long k = 0;

	while (!atomic_load(&f->stop)) {
		(void)unlink(f->tmp);
		if (symlink(k++ % 2 ? f->b : f->a, f->tmp) == 0)
			(void)rename(f->tmp, f->link);
	}
	return NULL;
}

static int
probe_mode_flipexec(int argc, char **argv)
{
	struct probe_flip f = {.link = argv[3], .a = argv[4], .b = argv[5]};
	long long n, i, ok = 0, eperm = 0, other = 0;
	char **args = &argv[5]; /* args[0] becomes LINK */
	pthread_t th;
	int status;

	(void)argc;
	if (probe_parse_number(argv[2], 1, PROBE_N_MAX, &n) != 0)
		return probe_usage();
	snprintf(f.tmp, sizeof f.tmp, "%s.flip", f.link);
	atomic_init(&f.stop, 0);
	(void)unlink(f.link);
	if (symlink(f.a, f.link) != 0 ||
	    pthread_create(&th, NULL, probe_flip_thread, &f) != 0)
		return 1;
	args[0] = argv[3];
	fflush(stdout);
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			other++;
			continue;
		}
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			if (null >= 0)
				dup2(null, 1);
			execv(args[0], args);
			_exit(errno == EPERM ? 100 : 101);
		}
		if (probe_wait(pid, &status) != 0 || !WIFEXITED(status))
			other++;
		else if (WEXITSTATUS(status) == 100)
			eperm++;
		else if (WEXITSTATUS(status) == 101)
			other++;
		else
			ok++;
	}
	atomic_store(&f.stop, 1);
	pthread_join(th, NULL);
	printf("flipexec: %lld runs, %lld ran, %lld refused, %lld other\n", n,
	       ok, eperm, other);
	return 0;
}

/* What a daemon does, in the child: hangups, terminations and interrupts
 * ignored, standard streams on /dev/null, its pid written to pidfile. */
static void
probe_be_daemon(const char *pidfile)
{
	char num[32];

	signal(SIGHUP, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	for (int i = 0; i < 3; i++) {
		int null = open("/dev/null", O_RDWR);

		if (null >= 0 && null != i) {
			dup2(null, i);
			close(null);
		}
	}
	snprintf(num, sizeof num, "%ld\n", (long)getpid());
	probe_write_result(pidfile, num);
}

static int
probe_mode_detach(int argc, char **argv)
{
	struct timespec tick = {0, 10000000L};
	struct stat st;
	pid_t pid;
	int i, status;

	(void)argc;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		(void)setsid();
		pid = fork();
		if (pid != 0)
			_exit(pid < 0);
		probe_be_daemon(argv[2]);
		for (;;)
			pause();
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return 1;
	for (i = 0; i < 500 && stat(argv[2], &st) != 0; i++)
		nanosleep(&tick, NULL);
	printf("detach: %s\n", i < 500 ? "ok" : "no pid file");
	return i < 500 ? 0 : 1;
}

/*
 * hop: a process that is never the same process for long.  Whoever ends
 * it must find it and signal it before it has moved on: each generation
 * forks the next and exits at once, so the process that was read a
 * moment ago is gone (or has another parent) when it is signalled.  It
 * ignores hangups and terminations like a daemon, and stops by itself
 * after 30 s, so a test that loses it leaves nothing for long.
 */
static int
probe_mode_hop(int argc, char **argv)
{
	struct timespec start, now;
	struct stat st;
	pid_t pid;
	int i, status;

	(void)argc;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		(void)setsid();
		probe_be_daemon(argv[2]);
		clock_gettime(CLOCK_MONOTONIC, &start);
		for (;;) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec - start.tv_sec > 30)
				_exit(0);
			pid = fork();
			if (pid > 0)
				_exit(0); /* the next generation goes on */
		}
	}
	if (waitpid(pid, &status, 0) != pid)
		return 1;
	for (i = 0; i < 500 && stat(argv[2], &st) != 0; i++)
		nanosleep(&(struct timespec){0, 10000000L}, NULL);
	printf("hop: %s\n", i < 500 ? "ok" : "no pid file");
	return i < 500 ? 0 : 1;
}

/*
 * inject: what any process of a session can do to bash's descriptors with
 * the rights of its uid (a pipe opens again; a socket does not).  Writing
 * the line into a terminal only shows it; into a command pipe, bash would
 * run it.
 */
static int
probe_mode_inject(int argc, char **argv)
{
	static const struct {
		int flags;
		const char *name;
	} modes[] = {{O_WRONLY, "write"}, {O_RDWR, "readwrite"}};
	char dir[64], path[512], target[PROBE_PATH_MAX], buf[32];
	struct dirent *de;
	DIR *d;
	size_t i;

	snprintf(dir, sizeof dir, "/proc/%s/fd", argv[2]);
	d = opendir(dir);
	if (d == NULL) {
		printf("inject: %s: %s\n", dir,
		       probe_errno_name(errno, buf, sizeof buf));
		return 1;
	}
	while ((de = readdir(d)) != NULL) {
		ssize_t n;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		n = readlink(path, target, sizeof target - 1);
		target[n > 0 ? n : 0] = '\0';
		for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
			int fd = open(path, modes[i].flags | O_NONBLOCK |
						O_NOCTTY | O_CLOEXEC);

			if (fd < 0) {
				printf(
				    "fd %s %s: %s %s\n", de->d_name, target,
				    modes[i].name,
				    probe_errno_name(errno, buf, sizeof buf));
				continue;
			}
			for (int w = 3; w < argc; w++) {
				(void)!write(fd, argv[w], strlen(argv[w]));
				(void)!write(fd, w + 1 < argc ? " " : "\n", 1);
			}
			close(fd);
			printf("fd %s %s: %s ok\n", de->d_name, target,
			       modes[i].name);
		}
	}
	closedir(d);
	printf("inject: done\n");
	return 0;
}

struct probe_mode {
	const char *name;
	int min_argc; /* argc counts "exec_probe" and the mode */
	int max_argc; /* 0: no upper bound */
	int (*fn)(int argc, char **argv);
};

static const struct probe_mode probe_modes[] = {
    {"exec", 3, 0, probe_mode_exec},
    {"syscalls", 2, 2, probe_mode_syscalls},
    {"seccomp_listener", 2, 2, probe_mode_seccomp_listener},
    {"ptrace", 3, 3, probe_mode_ptrace},
    {"forkexec", 4, 0, probe_mode_forkexec},
    {"race", 6, 6, probe_mode_race},
    {"waitexec", 5, 0, probe_mode_waitexec},
    {"flipexec", 7, 0, probe_mode_flipexec},
    {"detach", 3, 3, probe_mode_detach},
    {"hop", 3, 3, probe_mode_hop},
    {"inject", 4, 0, probe_mode_inject},
};

int
main(int argc, char **argv)
{
	const struct probe_mode *m;
	size_t i;

	if (argc < 2)
		return probe_usage();
	for (i = 0; i < sizeof probe_modes / sizeof probe_modes[0]; i++) {
		m = &probe_modes[i];
		if (strcmp(argv[1], m->name) != 0)
			continue;
		if (argc < m->min_argc ||
		    (m->max_argc != 0 && argc > m->max_argc))
			return probe_usage();
		return m->fn(argc, argv);
	}
	return probe_usage();
}
