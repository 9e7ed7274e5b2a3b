/* SPDX-License-Identifier: MIT */
/*
 * The rules of a loaded policy as written: what the tools that show, test
 * and explain a policy read (maelys-pty test, explain).  Everything here is
 * a borrowed view of the immutable program: the texts and head terms were
 * kept by the checker (check.c) while it compiled each rule.
 */
#include "dl_api.h"

#include <string.h>

/* The name of a built-in as the rules API shows it. */
static const char *
dl_rules_builtin_name(const struct dl_clit *l)
{
	static const char *const ops[] = {
	    [DL_CMP_EQ] = "=",  [DL_CMP_NE] = "!=", [DL_CMP_LT] = "<",
	    [DL_CMP_LE] = "<=", [DL_CMP_GT] = ">",  [DL_CMP_GE] = ">=",
	};
	static const char *const calls[] = {
	    [DL_BUILTIN_RE_MATCH] = "re_match",
	    [DL_BUILTIN_RE_FULLMATCH] = "match",
	    [DL_BUILTIN_PREFIX] = "prefix",
	    [DL_BUILTIN_SUFFIX] = "suffix",
	    [DL_BUILTIN_CONTAINS] = "contains",
	};

	return l->kind == DL_LIT_CMP ? ops[l->op] : calls[l->builtin];
}

MAELYS_DATALOG_API size_t
maelys_datalog_policy_rule_count(const maelys_datalog_policy_t *policy)
{
	return policy == NULL ? 0 : policy->prog->nrules;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_policy_get_rule(const maelys_datalog_policy_t *policy,
			       size_t rule, maelys_datalog_rule_info_t *out)
{
	const struct dl_program *prog;
	const struct dl_rule *r;

	if (out != NULL)
		memset(out, 0, sizeof *out);
	if (policy == NULL || out == NULL || rule >= policy->prog->nrules)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	prog = policy->prog;
	r = &prog->rules[rule];
	out->source = prog->source_name;
	out->line = r->pos.line;
	out->column = r->pos.column;
	out->text = r->text;
	out->text_length = r->text_len;
	out->head = prog->preds[r->head_pred].name;
	out->head_arity = prog->preds[r->head_pred].arity;
	out->body_count = r->nbody;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_policy_get_literal(const maelys_datalog_policy_t *policy,
				  size_t rule, size_t literal,
				  maelys_datalog_literal_info_t *out)
{
	const struct dl_program *prog;
	const struct dl_clit *l;

	if (out != NULL)
		memset(out, 0, sizeof *out);
	if (policy == NULL || out == NULL || rule >= policy->prog->nrules ||
	    literal >= policy->prog->rules[rule].nbody)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	prog = policy->prog;
	l = &prog->rules[rule].body[literal];
	if (l->kind == DL_LIT_ATOM) {
		out->kind = l->negated ? MAELYS_DATALOG_LITERAL_NEGATED
				       : MAELYS_DATALOG_LITERAL_ATOM;
		out->name = prog->preds[l->pred].name;
		out->arity = prog->preds[l->pred].arity;
	} else {
		out->kind = MAELYS_DATALOG_LITERAL_BUILTIN;
		out->name = dl_rules_builtin_name(l);
		out->arity = 2;
	}
	out->line = l->pos.line;
	out->column = l->pos.column;
	out->text = l->text;
	out->text_length = l->text_len;
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_policy_get_head_term(const maelys_datalog_policy_t *policy,
				    size_t rule, size_t column,
				    maelys_datalog_written_term_t *out)
{
	const struct dl_program *prog;
	const struct dl_rule *r;

	if (out != NULL)
		memset(out, 0, sizeof *out);
	if (policy == NULL || out == NULL || rule >= policy->prog->nrules)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	prog = policy->prog;
	r = &prog->rules[rule];
	if (column >= prog->preds[r->head_pred].arity)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	*out = r->written[column];
	return MAELYS_DATALOG_STATUS_OK;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_policy_get_literal_term(const maelys_datalog_policy_t *policy,
				       size_t rule, size_t literal,
				       size_t column,
				       maelys_datalog_written_term_t *out)
{
	const struct dl_clit *l;

	if (out != NULL)
		memset(out, 0, sizeof *out);
	if (policy == NULL || out == NULL || rule >= policy->prog->nrules ||
	    literal >= policy->prog->rules[rule].nbody)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	l = &policy->prog->rules[rule].body[literal];
	if (column >= l->nwritten)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	*out = l->written[column];
	return MAELYS_DATALOG_STATUS_OK;
}
