/* SPDX-License-Identifier: MIT */
/*
 * The session's seccomp filter, built with libseccomp in the guard and
 * exported as raw BPF (the child loads it with one seccomp(2) call, which
 * is async-signal-safe; libseccomp's own loader allocates).
 *
 *   execve, execveat            user notification: the guard decides
 *   reboot, kexec_load, kexec_file_load, init_module, finit_module,
 *   delete_module, mount, umount2, pivot_root, move_mount, open_tree,
 *   fsopen, fsconfig, fsmount, fspick, mount_setattr, swapon, swapoff,
 *   chroot                      EPERM: no session needs to change the
 *                               machine, and the guard resolves paths in
 *                               the one mount tree and root it shares with
 *                               the session
 *   open_tree_attr (by number where libseccomp does not know it)
 *                               EPERM, as the rest of the mount API
 *   unshare, clone with CLONE_NEWUSER
 *                               EPERM: no user namespace, so no mount
 *                               namespace of the session's own (whose
 *                               paths the guard could not resolve)
 *   ptrace, process_vm_readv, process_vm_writev, pidfd_getfd
 *                               EPERM: the session must not reach into the
 *                               guard (which is also non-dumpable)
 *   bpf                         EPERM
 *   ioctl TIOCSTI, TIOCLINUX    EPERM: no typing into a terminal
 *   seccomp with a new listener EEXIST: the kernel allows one listener per
 *                               process tree; a guard nested in the session
 *                               sees EEXIST and leaves the deciding to this
 *                               one (pty_supervise.h)
 *   clone3                      ENOSYS: its flags are in memory a filter
 *                               cannot read; libc falls back to clone
 *   anything of another architecture (32-bit calls)   ENOSYS
 * Everything else is allowed: the filter is a monitor for execs and a fence
 * around the machine, not a sandbox for the user's programs.
 */
#define _GNU_SOURCE
#include "pty_supervise.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif

/* Refused by number where libseccomp is older than the call: new system
 * calls have one number on every architecture (asm-generic, from 424). */
static const struct {
	const char *name;
	int nr;
} filter_refused_new[] = {
    /* open_tree with mount attributes (Linux 6.15): a detached copy of a
     * mount, whose files execveat would run under a path the guard
     * cannot resolve ("/") */
    {"open_tree_attr", 467},
};

static const char *const filter_refused[] = {
    "reboot",           "kexec_load",        "kexec_file_load", "init_module",
    "finit_module",     "delete_module",     "mount",           "umount2",
    "pivot_root",       "move_mount",        "open_tree",       "fsopen",
    "fsconfig",         "fsmount",           "fspick",          "mount_setattr",
    "swapon",           "swapoff",           "chroot",          "ptrace",
    "process_vm_readv", "process_vm_writev", "pidfd_getfd",     "bpf",
};

static int
filter_rules(scmp_filter_ctx ctx, const char **what)
{
	size_t i;
	int rc;

	*what = "execve";
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(execve), 0)) <
	    0)
		return rc;
	*what = "execveat";
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(execveat),
				   0)) < 0)
		return rc;
	for (i = 0; i < sizeof filter_refused / sizeof filter_refused[0]; i++) {
		int nr = seccomp_syscall_resolve_name(filter_refused[i]);

		*what = filter_refused[i];
		if (nr == __NR_SCMP_ERROR)
			return -ENOSYS;
		if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0)) <
		    0)
			return rc;
	}
	/* the request is an unsigned int: compare the low 32 bits only */
	*what = "ioctl TIOCSTI";
	if ((rc = seccomp_rule_add(
		 ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
		 SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCSTI))) < 0)
		return rc;
	*what = "ioctl TIOCLINUX";
	if ((rc = seccomp_rule_add(
		 ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
		 SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCLINUX))) < 0)
		return rc;
	*what = "seccomp";
	if ((rc = seccomp_rule_add(
		 ctx, SCMP_ACT_ERRNO(EEXIST), SCMP_SYS(seccomp), 2,
		 SCMP_A0(SCMP_CMP_EQ, SECCOMP_SET_MODE_FILTER, 0),
		 SCMP_A1(SCMP_CMP_MASKED_EQ, SECCOMP_FILTER_FLAG_NEW_LISTENER,
			 SECCOMP_FILTER_FLAG_NEW_LISTENER))) < 0)
		return rc;
	for (i = 0;
	     i < sizeof filter_refused_new / sizeof filter_refused_new[0];
	     i++) {
		int nr =
		    seccomp_syscall_resolve_name(filter_refused_new[i].name);

		*what = filter_refused_new[i].name;
		if (nr == __NR_SCMP_ERROR)
			nr = filter_refused_new[i].nr;
		if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0)) <
		    0)
			return rc;
	}
	/* no user namespace: in one, an unprivileged process may make a
	 * mount namespace of its own, where paths need not mean what the
	 * guard, which resolves them in the session's, finds */
	*what = "unshare CLONE_NEWUSER";
	if ((rc = seccomp_rule_add(
		 ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 1,
		 SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER))) <
	    0)
		return rc;
	*what = "clone CLONE_NEWUSER";
	if ((rc = seccomp_rule_add(
		 ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
		 SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER))) <
	    0)
		return rc;
	*what = "clone3";
	return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3),
				0);
}

int
pty_supervise_build_filter(void **prog, size_t *count, char *err, size_t errlen)
{
	scmp_filter_ctx ctx;
	const char *what = "the filter";
	int rc, mfd = -1;
	off_t size;
	void *buf = NULL;

	*prog = NULL;
	*count = 0;
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (ctx == NULL) {
		(void)snprintf(err, errlen, "libseccomp cannot start a filter");
		return -1;
	}
	rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
			      SCMP_ACT_ERRNO(ENOSYS));
	/* the child sets NO_NEW_PRIVS itself, before Landlock */
	if (rc == 0)
		rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	if (rc == 0)
		rc = filter_rules(ctx, &what);
	if (rc == 0) {
		what = "export";
		mfd = memfd_create("maelys-pty-filter", MFD_CLOEXEC);
		rc = mfd < 0 ? -errno : seccomp_export_bpf(ctx, mfd);
	}
	if (rc == 0) {
		size = lseek(mfd, 0, SEEK_END);
		if (size <= 0 ||
		    size % (off_t)sizeof(struct sock_filter) != 0 ||
		    size / (off_t)sizeof(struct sock_filter) > BPF_MAXINSNS ||
		    (buf = malloc((size_t)size)) == NULL ||
		    pread(mfd, buf, (size_t)size, 0) != (ssize_t)size)
			rc = -EIO;
	}
	if (mfd >= 0)
		(void)close(mfd);
	seccomp_release(ctx);
	if (rc != 0) {
		free(buf);
		(void)snprintf(err, errlen,
			       "the seccomp filter cannot be built (%s: %s)",
			       what, strerror(-rc));
		return -1;
	}
	*prog = buf;
	*count = (size_t)size / sizeof(struct sock_filter);
	return 0;
}
