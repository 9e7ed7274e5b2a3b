/* SPDX-License-Identifier: MIT */
/*
 * The programs one exec request leads to (exec_chain.c): what a process
 * asked for, each interpreter of a #! chain, and the program of the
 * dynamic loader run as a program - each decided as an exec of its own.
 */
#ifndef PTY_EXEC_CHAIN_H
#define PTY_EXEC_CHAIN_H

#include "pty_exec.h"
#include "pty_exec_parse.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PTY_EXEC_LOADERS_MAX 32
#define PTY_EXEC_BINFMT_MAX  64

/* What the supervisor learns once per session. */
struct pty_exec_env {
	/* the dynamic loaders on this host (ld-*.so* in /lib, /lib64,
	 * /usr/lib... and their folders one level down, and the guard's
	 * own), by file identity */
	struct {
		dev_t dev;
		ino_t ino;
	} loader[PTY_EXEC_LOADERS_MAX];
	size_t nloaders;
	/* the enabled binfmt_misc entries */
	struct pty_binfmt *binfmt;
	size_t nbinfmt;
	/* the session runs under a Landlock ruleset (exec locations or
	 * exec_never): the loader, which every ruleset lets run, is not run
	 * as a program (what it would map is beyond the kernel's check) */
	bool landlocked;
	/* kept open for every request: "/" (where an absolute path's walk
	 * starts), /proc (where each process's entry is opened), and
	 * /proc/self/fd of the process that prepared it (where the guard
	 * names and reopens its own descriptors), or -1 */
	int root;
	int proc;
	int self_fd;
	unsigned self_forks; /* ... the forks seen when it was opened */
};

/* self_fd when this process is the one that prepared e (no fork since,
 * told by a pthread_atfork handler, without a system call), else -1: a
 * descriptor of /proc/self/fd names its opener's files. */
int pty_exec_self_fd(const struct pty_exec_env *e);

/* Sets e's descriptors to -1: pty_exec_env_free is then safe. */
void pty_exec_env_init(struct pty_exec_env *e);

/* Fills *e.  Returns 0, or -1 with one line in err (binfmt_misc is on and
 * its entries cannot be read: no exec could be judged). */
int pty_exec_env_prepare(struct pty_exec_env *e, char *err, size_t errlen);
void pty_exec_env_free(struct pty_exec_env *e);

/* The path of the guard's own dynamic loader.  Returns 0, or -1. */
int pty_exec_own_loader(char *path, size_t cap);

/* A request and what it leads to: rq[0] is what the process asked for;
 * rq[1..n-1] are allocated here as needed and kept for the next request
 * (the caller frees them all). */
struct pty_exec_chain {
	size_t n;
	struct pty_exec_request *rq[PTY_EXEC_CHAIN_MAX];
};

/* The /proc entries of the process that asks (exec_read.c): its /proc
 * directory and working directory, each opened once, when first needed,
 * and the directory's name.  The caller checks afterwards that the
 * process still waits (then the PID named it all along). */
struct pty_exec_proc {
	int root; /* "/", kept (pty_exec_env), or -1 */
	int proc; /* /proc, kept (pty_exec_env), or -1: opened by path */
	pid_t pid;
	int dir;     /* /proc/PID (O_PATH), -1 until needed */
	int cwd;     /* its working directory (O_PATH), -1 until needed */
	int self_fd; /* the guard's /proc/self/fd (pty_exec_self_fd), or -1 */
	/* where the request's argv is, when it was left unread */
	uint64_t argv_addr;
	/* the working directory's name once learnt (named), or why it
	 * cannot be (cwd_why not "") */
	bool named;
	char cwd_name[PTY_CWD_MAX];
	char cwd_why[256];
};

/* p for process `pid`, through e's descriptors (NULL: none). */
void pty_exec_proc_init(struct pty_exec_proc *p, const struct pty_exec_env *e,
			pid_t pid);
/* /proc/PID, opened on the first call: the descriptor, or -1. */
int pty_exec_proc_dir(struct pty_exec_proc *p);
/* The working directory, opened on the first call: the descriptor (p's:
 * the caller does not close it), or -1. */
int pty_exec_proc_cwd(struct pty_exec_proc *p);
/* Its name, learnt on the first call (pty_exec_cwd_name), or NULL when
 * it cannot be named (p->cwd_why says why). */
const char *pty_exec_proc_cwd_name(struct pty_exec_proc *p);
void pty_exec_proc_close(struct pty_exec_proc *p);
/* Reads the argv of request r (at p->argv_addr) if it was left unread
 * (r->args_unread).  Returns 0, or PTY_EXEC_READ_REFUSE with one line in
 * err. */
int pty_exec_proc_argv(struct pty_exec_proc *p, struct pty_exec_request *r,
		       char *err, size_t errlen);

/* Follows c->rq[0] (n == 1), whose file the walk `w` found and which the
 * kernel was given as `kname` (the path as passed to execve), from the
 * directory of process `p` (opened only for a relative name): appends every
 * interpreter and every program of the loader, walked the same way.  w->fd is
 * closed.  Returns 0, an errno the kernel would answer (an interpreter that
 * does not exist, ...), PTY_EXEC_READ_REFUSE (cannot be read) or
 * PTY_EXEC_READ_UNSAFE (the user could change what runs, or binfmt_misc would
 * run it), with one line in err; c->n then counts the element concerned. */
int pty_exec_expand(const struct pty_exec_env *e, struct pty_exec_proc *p,
		    const char *kname, struct pty_exec_walk *w,
		    struct pty_exec_chain *c, char *err, size_t errlen);

#endif /* PTY_EXEC_CHAIN_H */
