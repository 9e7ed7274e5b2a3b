/* SPDX-License-Identifier: MIT */
/*
 * Policies: loading text or a file into an immutable, reference-counted
 * program, and reading a standalone program's directives and the warnings
 * of the load (warn.c found them).
 */
#include "dl_api.h"

#include "dl_diag.h"
#include "dl_lexer.h"
#include "dl_limits.h"
#include "dl_registry.h"

#include <stdio.h>
#include <string.h>

#define DL_LOAD_FLAGS                                                          \
	(MAELYS_DATALOG_LOAD_SOUFFLE | MAELYS_DATALOG_LOAD_DETECT_SYNTAX)

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_policy_load_text(const char *domain, const char *source_name,
				const char *text, size_t length, unsigned flags,
				maelys_datalog_policy_t **out,
				maelys_datalog_diagnostic_t *diag)
{
	const maelys_datalog_domain_t *dom = NULL;
	maelys_datalog_policy_t *p;
	struct dl_program *prog = NULL;
	struct dl_ast ast;
	maelys_datalog_status_t st;
	bool souffle;

	if (out == NULL)
		return dl_fail(diag, MAELYS_DATALOG_STATUS_INVALID_ARGUMENT,
			       "policy_load: out is NULL");
	*out = NULL;
	if (text == NULL && length > 0)
		return dl_fail(diag, MAELYS_DATALOG_STATUS_INVALID_ARGUMENT,
			       "policy_load: text is NULL");
	if ((flags & ~(unsigned)DL_LOAD_FLAGS) != 0)
		return dl_fail(diag, MAELYS_DATALOG_STATUS_INVALID_ARGUMENT,
			       "policy_load: unknown flags 0x%x", flags);
	if (source_name == NULL)
		source_name = "<inline>";
	if (length > DL_SOURCE_MAX)
		return dl_fail_src(diag, MAELYS_DATALOG_STATUS_LIMIT,
				   source_name,
				   "policy of %zu bytes is larger than the "
				   "limit of %zu",
				   length, DL_SOURCE_MAX);
	if (domain != NULL) {
		dom = dl_registry_find(domain);
		if (dom == NULL)
			return dl_fail_src(diag,
					   MAELYS_DATALOG_STATUS_UNKNOWN_DOMAIN,
					   source_name,
					   "no domain named '%s' is registered "
					   "(maelys_datalog_domain_register)",
					   domain);
	}
	if (text == NULL)
		text = "";
	souffle = (flags & MAELYS_DATALOG_LOAD_SOUFFLE) != 0 ||
		  ((flags & MAELYS_DATALOG_LOAD_DETECT_SYNTAX) != 0 &&
		   dl_lexer_detect_souffle(text, length));
	st = dl_parse(&ast, text, length, souffle, source_name, diag);
	if (st == MAELYS_DATALOG_STATUS_OK)
		st = dl_program_compile(&ast, dom, source_name, &prog, diag);
	dl_ast_free(&ast);
	if (st != MAELYS_DATALOG_STATUS_OK)
		return st;
	p = dl_alloc(sizeof *p);
	if (p == NULL) {
		dl_program_free(prog);
		return dl_fail(diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
			       "out of memory loading the policy");
	}
	atomic_init(&p->refs, 1);
	p->prog = prog;
	*out = p;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_policy_load_inline(const char *domain, const char *source_name,
				  const char *text, size_t length,
				  maelys_datalog_policy_t **out,
				  maelys_datalog_diagnostic_t *diag)
{
	return maelys_datalog_policy_load_text(domain, source_name, text,
					       length, 0, out, diag);
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_policy_load_file(const char *domain, const char *path,
				maelys_datalog_policy_t **out,
				maelys_datalog_diagnostic_t *diag)
{
	FILE *f;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	maelys_datalog_status_t st;

	if (out != NULL)
		*out = NULL; /* cleared first, even when path is NULL */
	if (out == NULL || path == NULL)
		return dl_fail(diag, MAELYS_DATALOG_STATUS_INVALID_ARGUMENT,
			       "policy_load_file: %s is NULL",
			       out == NULL ? "out" : "path");
	/* only C stdio here (the library makes no system call of its own):
	 * the host checks ownership and permissions of a policy before it
	 * asks us to read it */
	f = fopen(path, "rb");
	if (f == NULL)
		return dl_fail_src(diag, MAELYS_DATALOG_STATUS_IO, path,
				   "cannot open the policy file");
	for (;;) {
		size_t n;

		if (len > DL_SOURCE_MAX) {
			st =
			    dl_fail_src(diag, MAELYS_DATALOG_STATUS_LIMIT, path,
					"policy larger than the limit of %zu "
					"bytes",
					DL_SOURCE_MAX);
			goto out;
		}
		if (cap - len < 65536 &&
		    dl_vec_reserve((void **)&buf, &cap, len + 65536, 1) != 0) {
			st = dl_fail_src(diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
					 path,
					 "out of memory reading the policy");
			goto out;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		st = dl_fail_src(diag, MAELYS_DATALOG_STATUS_IO, path,
				 "error reading the policy file (is it a "
				 "directory?)");
		goto out;
	}
	st = maelys_datalog_policy_load_inline(domain, path, buf, len, out,
					       diag);
out:
	(void)fclose(f);
	dl_free(buf);
	return st;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_policy_free(maelys_datalog_policy_t *policy)
{
	if (policy == NULL)
		return MAELYS_DATALOG_STATUS_OK;
	if (atomic_fetch_sub(&policy->refs, 1) == 1) {
		dl_program_free(policy->prog);
		dl_free(policy);
	}
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API size_t
maelys_datalog_policy_directive_count(const maelys_datalog_policy_t *policy)
{
	return policy == NULL ? 0 : policy->prog->ndirectives;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_policy_get_directive(const maelys_datalog_policy_t *policy,
				    size_t index,
				    maelys_datalog_directive_t *out)
{
	if (policy == NULL || out == NULL || index >= policy->prog->ndirectives)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	*out = policy->prog->directives[index];
	return MAELYS_DATALOG_STATUS_OK;
}

/* Calls f with the predicate of each atom rule `rule` reads - of its body,
 * positive or negated, and of the bodies of its aggregates - until f
 * returns true; returns whether it did. */
static bool
dl_rule_each_read(const struct dl_rule *rule,
		  bool (*f)(void *ctx, uint32_t pred), void *ctx)
{
	uint32_t i, a;

	for (i = 0; i < rule->nbody; i++)
		if (rule->body[i].kind == DL_LIT_ATOM &&
		    f(ctx, rule->body[i].pred))
			return true;
	for (a = 0; a < rule->naggs; a++)
		for (i = 0; i < rule->aggs[a].nbody; i++)
			if (rule->aggs[a].body[i].kind == DL_LIT_ATOM &&
			    f(ctx, rule->aggs[a].body[i].pred))
				return true;
	return false;
}

static bool
dl_is_pred(void *ctx, uint32_t pred)
{
	return pred == *(const uint32_t *)ctx;
}

/* The predicate predicate/arity of the policy in *pid; OK, or the status
 * policy_reads and policy_depends answer for a name they cannot use. */
static maelys_datalog_status_t
dl_policy_pred(const maelys_datalog_policy_t *policy, const char *predicate,
	       size_t arity, uint32_t *pid)
{
	const struct dl_program *prog = policy->prog;

	*pid = dl_program_find_pred(prog, predicate, strlen(predicate));
	if (*pid == DL_NONE)
		return MAELYS_DATALOG_STATUS_UNDECLARED;
	if (prog->preds[*pid].arity != arity)
		return MAELYS_DATALOG_STATUS_ARITY;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_policy_reads(const maelys_datalog_policy_t *policy,
			    const char *predicate, size_t arity, int *reads)
{
	maelys_datalog_status_t st;
	uint32_t pid;
	size_t r;

	if (reads != NULL)
		*reads = 0;
	if (policy == NULL || predicate == NULL || reads == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	if ((st = dl_policy_pred(policy, predicate, arity, &pid)) !=
	    MAELYS_DATALOG_STATUS_OK)
		return st;
	for (r = 0; r < policy->prog->nrules && !*reads; r++)
		if (dl_rule_each_read(&policy->prog->rules[r], dl_is_pred, &pid))
			*reads = 1;
	return MAELYS_DATALOG_STATUS_OK;
}

/* policy_depends' walk: the predicates reached, whether the last rule
 * added one, and the one looked for. */
struct dl_reach {
	bool *reached;
	bool grew;
	uint32_t on;
};

/* Marks pred reached; true (stop) when it is the one looked for. */
static bool
dl_reach_pred(void *ctx, uint32_t pred)
{
	struct dl_reach *w = ctx;

	if (!w->reached[pred])
		w->grew = w->reached[pred] = true;
	return pred == w->on;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_policy_depends(const maelys_datalog_policy_t *policy,
			      const char *predicate, size_t arity,
			      const char *on, size_t on_arity, int *depends)
{
	const struct dl_program *prog;
	maelys_datalog_status_t st;
	struct dl_reach w;
	uint32_t pid;
	size_t r;

	if (depends != NULL)
		*depends = 0;
	if (policy == NULL || predicate == NULL || on == NULL ||
	    depends == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	if ((st = dl_policy_pred(policy, predicate, arity, &pid)) !=
		MAELYS_DATALOG_STATUS_OK ||
	    (st = dl_policy_pred(policy, on, on_arity, &w.on)) !=
		MAELYS_DATALOG_STATUS_OK)
		return st;
	prog = policy->prog;
	w.reached = dl_calloc(prog->npreds, sizeof *w.reached);
	if (w.reached == NULL)
		return MAELYS_DATALOG_STATUS_NO_MEMORY;
	/* the predicates the tuples of `predicate` are derived from, grown
	 * rule by rule until a pass adds none: every predicate a rule of a
	 * reached one reads is reached */
	w.reached[pid] = true;
	w.grew = true;
	while (w.grew && !*depends) {
		w.grew = false;
		for (r = 0; r < prog->nrules && !*depends; r++)
			if (w.reached[dl_rule_owner(&prog->rules[r])] &&
			    dl_rule_each_read(&prog->rules[r], dl_reach_pred,
					      &w))
				*depends = 1;
	}
	dl_free(w.reached);
	return MAELYS_DATALOG_STATUS_OK;
}

maelys_datalog_status_t
maelys_datalog_policy_defines(const maelys_datalog_policy_t *policy,
			      const char *predicate, size_t arity,
			      int *defines)
{
	const struct dl_program *prog;
	uint32_t pid;
	size_t r;

	if (defines != NULL)
		*defines = 0;
	if (policy == NULL || predicate == NULL || defines == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	prog = policy->prog;
	pid = dl_program_find_pred(prog, predicate, strlen(predicate));
	if (pid == DL_NONE)
		return MAELYS_DATALOG_STATUS_UNDECLARED;
	if (prog->preds[pid].arity != arity)
		return MAELYS_DATALOG_STATUS_ARITY;
	if (prog->preds[pid].nfacts > 0)
		*defines = 1;
	for (r = 0; r < prog->nrules && !*defines; r++)
		if (prog->rules[r].head_pred == pid)
			*defines = 1;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API size_t
maelys_datalog_policy_warning_count(const maelys_datalog_policy_t *policy)
{
	return policy == NULL ? 0 : policy->prog->nwarnings;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_policy_get_warning(const maelys_datalog_policy_t *policy,
				  size_t index,
				  maelys_datalog_warning_kind_t *kind,
				  maelys_datalog_diagnostic_t *out)
{
	if (kind != NULL)
		*kind = (maelys_datalog_warning_kind_t)0;
	if (out != NULL)
		dl_diag_clear(out);
	if (policy == NULL || kind == NULL || out == NULL ||
	    index >= policy->prog->nwarnings)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	*kind = policy->prog->warnings[index].kind;
	*out = policy->prog->warnings[index].diag;
	return MAELYS_DATALOG_STATUS_OK;
}
