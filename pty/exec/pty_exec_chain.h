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

#include <stdbool.h>
#include <stddef.h>
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
	/* the session runs under a Landlock ruleset: the loader, which every
	 * ruleset lets run, is not run as a program (what it would map is
	 * beyond the kernel's check) */
	bool landlocked;
};

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

/* Follows c->rq[0] (n == 1), whose file the walk `w` found and which the
 * kernel was given as `kname` (the path as passed to execve), from the
 * process's directory `cwd`: appends every interpreter and every program
 * of the loader, walked the same way.  w->fd is closed.  Returns 0, an
 * errno the kernel would answer (an interpreter that does not exist, ...),
 * PTY_EXEC_READ_REFUSE (cannot be read) or PTY_EXEC_READ_UNSAFE (the user
 * could change what runs, or binfmt_misc would run it), with one line in
 * err; c->n then counts the element concerned. */
int pty_exec_expand(const struct pty_exec_env *e, int cwd, const char *kname,
		    struct pty_exec_walk *w, struct pty_exec_chain *c,
		    char *err, size_t errlen);

#endif /* PTY_EXEC_CHAIN_H */
