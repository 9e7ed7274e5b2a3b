/* SPDX-License-Identifier: MIT */
/*
 * What the parts of the deployed bastion (bastion.c, bastion_sshd.c,
 * bastion_session.c, bastion_process.c) share and the tests do not use.
 */
#ifndef MAELYS_TESTS_BASTION_PRIVATE_H
#define MAELYS_TESTS_BASTION_PRIVATE_H

#include "bastion.h"

#include <stddef.h>
#include <sys/types.h>

/* The environment of every command the deployment runs as root. */
extern char *const bastion_env[];

/* Writes the reason into why and returns -1. */
int bastion_fail(char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Runs argv (argv[0] looked up in the deployment's PATH) as root within
 * timeout_ms; its output is appended to `log` when given.  0, or -1 with
 * the command, its status and the end of its output in why. */
int bastion_cmd(char *const argv[], int timeout_ms, const char *log, char *why,
		size_t whylen);
/* Makes `dir` root's and 0755, or accepts an existing one only if it is
 * root's and writable by nobody else.  0, or -1 with the reason. */
int bastion_root_dir(const char *dir, char *why, size_t whylen);
/* Writes a file of root's with `mode`, whole or not at all (rename). */
int bastion_write_file(const char *path, const char *text, mode_t mode);
/* Kills every process of uid and waits (at most 10 s) until they are gone. */
void bastion_kill_uid(uid_t uid);
/* In a child: become the user (struct bastion_user *), in their home. */
int bastion_child_become(void *arg);

#endif /* MAELYS_TESTS_BASTION_PRIVATE_H */
