/* SPDX-License-Identifier: MIT */
/* The table of the policy authors' tools (pty_tools.h). */
#include "pty_decide_json.h"
#include "pty_explain.h"
#include "pty_replay.h"
#include "pty_log.h"
#include "pty_tools.h"

#include <string.h>

const struct pty_tool pty_tools[] = {
    {"test", pty_tool_test, false},
    {"explain", explain_run, false},
    {"decide", decide_run, true},
    {"replay", pty_replay_run, false},
    {"log", log_run, false},
    {NULL, NULL, false},
};

const struct pty_tool *
pty_tool_find(const char *name)
{
	const struct pty_tool *t;

	for (t = pty_tools; name != NULL && t->name != NULL; t++)
		if (strcmp(t->name, name) == 0)
			return t;
	return NULL;
}
