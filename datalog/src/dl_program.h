/* SPDX-License-Identifier: MIT */
/*
 * The compiled, immutable program (what a maelys_datalog_policy_t holds):
 * predicates with their roles, ground facts and the indexes their plans need;
 * rules with resolved terms; strata in evaluation order; compiled regular
 * expressions; a standalone program's directives.  Built once by
 * dl_program_compile (check.c -> stratify.c -> plan.c) and then only read,
 * by any number of threads.
 */
#ifndef DL_PROGRAM_H
#define DL_PROGRAM_H

#include "dl_ast.h"
#include "dl_limits.h"
#include "dl_symbols.h"

#include <maelys/datalog.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DL_NONE       UINT32_MAX
/* A standalone program's .input relation: accepts input facts. */
#define DL_ROLE_INPUT (1u << 8)

struct dl_pred {
	const char *name; /* in the program's arena */
	uint32_t arity;
	unsigned
	    role; /* maelys_datalog_predicate_role_t bits | DL_ROLE_INPUT */
	bool from_domain;
	maelys_datalog_column_type_t columns[MAELYS_DATALOG_MAX_ARITY];
	/* the columns' names of its .decl (in the program's arena); NULL
	 * for a domain's */
	const char *names[MAELYS_DATALOG_MAX_ARITY];
	struct dl_pos pos; /* of its .decl; 0:0 for a domain's */
	/* ground facts written in the policy: nfacts * arity values */
	dl_value *facts;
	size_t nfacts, cap_facts;
	uint32_t stratum;
	/* depends on input facts (or is one): evaluated at every solve;
	 * otherwise evaluated once per session */
	bool runtime;
	/* column masks of the hash indexes the plans probe */
	uint32_t index_masks[DL_INDEXES_MAX];
	uint32_t nindexes;
	/* choice-domain: the index of each key; a tuple whose key values a
	 * row already has is not inserted (dl_choice.h) */
	uint32_t choice_index[DL_CHOICE_KEYS_MAX];
	uint32_t nchoice;
	/* .limitsize: a derived tuple or fact of the program is not inserted
	 * once the relation holds size_limit rows */
	bool has_size_limit;
	uint64_t size_limit;
	/* a RECORD column's type (prog->rtypes), else DL_NONE */
	uint32_t rtypes[MAELYS_DATALOG_MAX_ARITY];
};

enum dl_cterm_kind { DL_CT_VAR, DL_CT_CONST, DL_CT_ANON };

/* A resolved term: a rule variable's number, or a value. */
struct dl_cterm {
	uint8_t kind; /* enum dl_cterm_kind */
	uint32_t v;
};

struct dl_clit {
	enum dl_lit_kind kind;
	bool negated;
	uint32_t pred; /* ATOM */
	uint32_t nargs;
	struct dl_cterm args[MAELYS_DATALOG_MAX_ARITY]; /* ATOM; CMP and
							   CALL use 0, 1 */
	enum dl_builtin builtin;                        /* CALL */
	uint32_t regex;                                 /* CALL re_* */
	enum dl_cmp_op op;                              /* CMP */
	struct dl_pos pos;
	const char *text; /* as written (dl_lexer_normalize), in the arena */
	size_t text_len;
	/* its terms as written, for the rules API: an atom's or a built-in
	 * call's arguments, a comparison's two sides */
	maelys_datalog_written_term_t *written;
	uint32_t nwritten;
	/* CMP: a side is a lower-case name, which the native dialect reads
	 * as a string (for the warning on comparing two constants) */
	bool bare;
	/* CALL re_*: the pattern (enum dl_pattern_kind) */
	uint8_t pattern;
	/* CMP: the static type of its sides (maelys_datalog_column_type_t):
	 * unsigned and float order differently (check_types.c) */
	uint8_t cmp_kind;
};

enum dl_pattern_kind {
	DL_PAT_CONST,    /* compiled at load: prog->regexes[regex] */
	DL_PAT_COMPUTED, /* args[1] computed: compiled at evaluation */
	DL_PAT_BAD,      /* Souffle refuses it: match and !match fail */
};

struct dl_plan;
struct dl_crec;
struct dl_rtype;

/* An aggregate of a rule (dl_agg.h): computes variable `target` by running
 * its own body, a nested join, where the planner places it. */
struct dl_cagg {
	enum dl_agg_op op;
	uint32_t target;
	/* the aggregate whose body holds it, or DL_NONE: the rule's body */
	uint32_t parent;
	/* the aggregates nested in it are those after it, before `end` */
	uint32_t end;
	bool has_value;
	struct dl_cterm value; /* the term folded (not count's) */
	struct dl_clit *body;
	uint32_t nbody;
	/* the variables of the scopes around it that it reads: bound before
	 * it runs, they are its grouping parameters */
	uint32_t *needs;
	uint32_t nneeds;
	struct dl_pos pos;
	/* the result's type (dl_agg_result_type): count's is a number, the
	 * others' the folded term's */
	maelys_datalog_column_type_t type;
	/* the folded term's numeric kind (enum dl_numkind, check_types.c):
	 * unsigned and float values add and order as theirs */
	uint8_t num;
};

struct dl_rule {
	uint32_t head_pred;
	struct dl_cterm head[MAELYS_DATALOG_MAX_ARITY];
	struct dl_clit *body;
	uint32_t nbody;
	uint32_t nvars;
	/* arithmetic terms, each computing a variable of its own that stands
	 * where the term was written (check.c) */
	struct dl_cexpr *exprs;
	uint32_t nexprs;
	struct dl_pos pos;
	/* as written, for the rules API: the normalised text and the head's
	 * terms (head_arity of them), in the program's arena */
	const char *text;
	size_t text_len;
	maelys_datalog_written_term_t *written;
	/* uses a predicate of its own stratum positively: evaluated
	 * semi-naively, one plan per such literal; otherwise one plan */
	bool recursive;
	struct dl_plan *plans;
	uint32_t nplans;
	/* a subsumption's check of a recursive relation (dl_ast_clause
	 * .prunes): it emits into the hidden relation "a$dom" the tuples
	 * of body[0]'s relation that body[1]'s dominate; its stratum is
	 * body[0]'s, which runs it between iterations (eval.c), by the
	 * plans plan.c makes of it (dl_plan_range).  The value is
	 * dl_ast_clause.prunes: the rules of one subsumption share it; 0
	 * for any other rule. */
	uint32_t prunes;
	/* record terms, each tying a variable of its own to its fields
	 * (dl_record.h) */
	struct dl_crec *recs;
	uint32_t nrecs;
	/* calls a functor whose values the solve's overlay must hold
	 * (dl_functor_needs_solve): its stratum runs at every solve */
	bool solve_time;
	/* aggregates, in the order written (a nested one after the one it is
	 * in), and by arithmetic term the aggregate whose body holds it or
	 * DL_NONE (NULL when the rule has no aggregate) */
	struct dl_cagg *aggs;
	uint32_t naggs;
	uint32_t *expr_scope;
};

struct dl_stratum {
	uint32_t *preds;
	uint32_t npreds;
	uint32_t *rules;
	uint32_t nrules;
	/* the rules that prune its relations (dl_rule.prunes), in order */
	uint32_t *prunes;
	uint32_t nprunes;
	bool recursive;
	bool runtime;
};

struct dl_regex {
	void *code; /* pcre2_code_8 *, shared read-only by all sessions */
};

/* A warning of the load (warn.c). */
struct dl_warning {
	maelys_datalog_warning_kind_t kind;
	maelys_datalog_diagnostic_t diag;
};

struct dl_program {
	struct dl_arena arena;
	struct dl_symtab symbols;    /* the policy's constants */
	struct dl_symtab pred_names; /* name -> predicate index */
	const char *source_name;
	bool standalone; /* loaded without a domain */
	struct dl_pred *preds;
	size_t npreds, cap_preds;
	struct dl_rule *rules;
	size_t nrules, cap_rules;
	struct dl_stratum *strata;
	size_t nstrata;
	struct dl_regex *regexes;
	size_t nregexes, cap_regexes;
	maelys_datalog_directive_t *directives;
	size_t ndirectives;
	uint32_t max_vars; /* the most variables of any rule */
	struct dl_warning *warnings; /* at most DL_WARNINGS_MAX, source order */
	size_t nwarnings;
	/* record and algebraic data types (dl_record.h) */
	struct dl_rtype *rtypes;
	uint32_t nrtypes;
};

/* AST -> program, with every load-time check.  On failure the program is
 * freed and *out is NULL. */
maelys_datalog_status_t
dl_program_compile(const struct dl_ast *ast,
		   const maelys_datalog_domain_t *domain,
		   const char *source_name, struct dl_program **out,
		   maelys_datalog_diagnostic_t *diag);
void dl_program_free(struct dl_program *prog);

/* The predicate a rule belongs to: its head's, or for a rule that prunes
 * a relation, that relation's (the rule's head is the hidden a$dom,
 * filled only while that relation's stratum runs). */
static inline uint32_t
dl_rule_owner(const struct dl_rule *rule)
{
	return rule->prunes ? rule->body[0].pred : rule->head_pred;
}

/* The predicate called `name` with any arity, or DL_NONE. */
uint32_t dl_program_find_pred(const struct dl_program *prog, const char *name,
			      size_t len);

/* stratify.c: strata, recursion through negation, runtime flags. */
maelys_datalog_status_t dl_stratify(struct dl_program *prog,
				    maelys_datalog_diagnostic_t *diag);
/* plan.c: join plans for every rule and the index masks they need. */
maelys_datalog_status_t dl_plan_program(struct dl_program *prog,
					maelys_datalog_diagnostic_t *diag);
void dl_plan_free_rule(struct dl_rule *rule);
/* warn.c: what is legal but suspicious, and the constructs accepted and
 * ignored (ast->ignored), kept in prog->warnings in source order.  Fails
 * only for want of memory. */
maelys_datalog_status_t dl_warn_program(struct dl_program *prog,
					const struct dl_ast *ast,
					maelys_datalog_diagnostic_t *diag);

#endif /* DL_PROGRAM_H */
