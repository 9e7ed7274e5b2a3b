/* SPDX-License-Identifier: MIT */
/*
 * The syntax tree of a policy, as the parser reads it and before anything is
 * resolved: names are still text, variables still names.  Everything lives
 * in the load's arena and dies with it; the checker (check.c) turns it into
 * the compiled program of dl_program.h.
 */
#ifndef DL_AST_H
#define DL_AST_H

#include "dl_agg.h"
#include "dl_arith.h"
#include "dl_diag.h"
#include "dl_mem.h"

#include <maelys/datalog.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum dl_term_kind {
	DL_TERM_VAR,    /* text = name */
	DL_TERM_ANON,   /* _ */
	DL_TERM_SYMBOL, /* text, len = the string */
	DL_TERM_INT,    /* integer */
	DL_TERM_EXPR,   /* expr: arithmetic on a variable (constants fold) */
	DL_TERM_RECORD, /* rec: [t, ...] */
	DL_TERM_ADT,    /* rec: $Branch(t, ...) of an algebraic data type */
	DL_TERM_NIL,    /* nil: the empty record of every record type */
	DL_TERM_AGG,    /* agg: an aggregate (dl_agg.h) */
};

/* The fields of a record term, or a branch and its arguments. */
struct dl_ast_rec {
	const char *branch; /* ADT: the branch's name */
	size_t branch_len;
	struct dl_ast_term *args;
	uint32_t nargs;
};

struct dl_ast_expr;

struct dl_ast_term {
	enum dl_term_kind kind;
	const char *text;
	size_t len;
	int64_t integer;
	struct dl_pos pos;
	/* SYMBOL written as a lower-case name, not in quotes (the native
	 * dialect): what an author who meant a variable writes */
	bool bare;
	struct dl_ast_expr *expr; /* EXPR */
	size_t start, end;        /* EXPR: its bytes in the source */
	struct dl_ast_rec *rec;   /* RECORD, ADT (start, end as EXPR's) */
	struct dl_ast_agg *agg;   /* AGG; start, end are its bytes too */
	/* INT: enum dl_numkind, as written (5, 5u, 5.0: then `integer`
	 * holds the double's bits) */
	uint8_t numkind;
};

/* op lhs rhs, or op lhs for a unary one (dl_arith.h) */
struct dl_ast_expr {
	enum dl_arith_op op;
	struct dl_ast_term lhs, rhs;
	/* operators and operands in it, at most DL_EXPR_CODE_MAX: bounds
	 * the depth of the tree, which the checker walks recursively */
	uint32_t size;
	/* DL_ARITH_CALL: the functor (enum dl_functor), its arguments, and
	 * for as(x, T) the base of T */
	uint8_t functor;
	struct dl_ast_term *args;
	uint32_t nargs;
	maelys_datalog_column_type_t as_type;
};

struct dl_ast_atom {
	const char *name;
	size_t name_len;
	struct dl_ast_term *args;
	size_t nargs;
	struct dl_pos pos;
};

enum dl_lit_kind {
	DL_LIT_ATOM, /* p(...) or not(p(...)) */
	DL_LIT_CMP,  /* t op t */
	DL_LIT_CALL, /* a built-in: builtin(args) */
};

enum dl_cmp_op {
	DL_CMP_EQ,
	DL_CMP_NE,
	DL_CMP_LT,
	DL_CMP_LE,
	DL_CMP_GT,
	DL_CMP_GE
};

enum dl_builtin {
	DL_BUILTIN_RE_MATCH,     /* re_match(Text, "re"): a match anywhere */
	DL_BUILTIN_RE_FULLMATCH, /* Souffle's match("re", Text): whole text */
	DL_BUILTIN_PREFIX,       /* prefix(Text, P) */
	DL_BUILTIN_SUFFIX,       /* suffix(Text, S) */
	DL_BUILTIN_CONTAINS,     /* contains(Text, S); Souffle's is swapped */
};

struct dl_ast_lit {
	enum dl_lit_kind kind;
	bool negated;
	struct dl_ast_atom atom;     /* ATOM, and CALL (args in our order) */
	enum dl_builtin builtin;     /* CALL */
	enum dl_cmp_op op;           /* CMP */
	struct dl_ast_term lhs, rhs; /* CMP */
	struct dl_pos pos;
	size_t start, end; /* its bytes in the source, for the rules API */
};

struct dl_ast_plan; /* dl_relq.h */
/* op [value] : { body }, or op [value] : atom */
struct dl_ast_agg {
	enum dl_agg_op op;
	bool has_value; /* all but count */
	struct dl_ast_term value;
	struct dl_ast_lit *body;
	size_t nbody;
	struct dl_pos pos;
};

struct dl_ast_clause {
	struct dl_ast_atom head;
	struct dl_ast_lit *body;
	size_t nbody;
	struct dl_pos pos;
	size_t start, end; /* its bytes in the source, head to '.' */
	/* its `.plan` (Souffle), checked and then ignored (relq.c) */
	const struct dl_ast_plan *plans;
	size_t nplans;
	/* a subsumption `head <= dominating :- body` (Souffle): rewritten
	 * into plain clauses by relq.c; NULL for any other clause */
	const struct dl_ast_atom *dominating;
	/* a clause relq_subsume.c made of a recursive relation's
	 * subsumption: body[0] is the dominated tuple, body[1] the
	 * dominating one; the evaluator runs it between iterations to prune
	 * that relation (dl_rule.prunes), never as an ordinary rule.  1 +
	 * the subsumption's index among the clauses (the clauses of one
	 * subsumption share it); 0 for any other clause */
	size_t prunes;
};

/* Keys of one `choice-domain` (Souffle). */
#define DL_CHOICE_KEYS_MAX 16

struct dl_ast_decl {
	const char *name;
	size_t name_len;
	size_t arity;
	maelys_datalog_column_type_t columns[MAELYS_DATALOG_MAX_ARITY];
	/* the columns' names as declared (in the arena) */
	const char *names[MAELYS_DATALOG_MAX_ARITY];
	struct dl_pos pos;
	unsigned quals;           /* DL_QUAL_* of dl_relq.h */
	struct dl_pos eqrel_pos;  /* of its `eqrel` */
	size_t eqrel_start, eqrel_end;
	/* `choice-domain`: the column masks of its keys (relq.c) */
	uint32_t choice_masks[DL_CHOICE_KEYS_MAX];
	size_t nchoice;
	/* the columns' type names as written (NULL: untyped), resolved by
	 * the checker (types.c; a record or ADT column's record type by
	 * check_record.c), since a .type may come after its use */
	const char *type_names[MAELYS_DATALOG_MAX_ARITY];
	struct dl_pos type_pos[MAELYS_DATALOG_MAX_ARITY];
};

struct dl_ast_directive {
	maelys_datalog_directive_kind_t kind;
	const char *name;
	size_t name_len;
	const char *filename;  /* NULL: default */
	const char *delimiter; /* NULL: tab */
	bool to_stdout;
	struct dl_pos pos;
	bool headers; /* headers=true */
	bool rfc4180; /* rfc4180=true */
};

/* Souffle's `.limitsize rel(n=N)`: rel takes no new tuple once it holds
 * N (the checker sets dl_pred.size_limit). */
struct dl_ast_limit {
	const char *name; /* in the arena */
	size_t name_len;
	uint64_t n;
	struct dl_pos pos;
};

/* How a .type defines its name (types.c gives each its meaning). */
enum dl_type_form {
	DL_TYPE_SUBSET, /* .type A <: B, and the old .number_type A */
	DL_TYPE_ALIAS,  /* .type A = B: the same type under a new name */
	DL_TYPE_UNION,  /* .type A = B | C | ... */
	/* .type A = [...] or A = B {...} | ...: a type of its own, its
	 * fields in dl_ast.rtypes (check_record.c) */
	DL_TYPE_RECORD,
};

struct dl_ast_type {
	const char *name;
	size_t name_len;
	maelys_datalog_column_type_t base; /* unused: see form, of */
	struct dl_pos pos;                 /* of its name */
	enum dl_type_form form;
	/* the types it is made of, by name (in the arena): SUBSET and ALIAS
	 * one, UNION one or more, RECORD none (its fields are in rtypes) */
	const char **of;
	size_t nof;
};

/* A record type `.type T = [a: A, ...]`, or an algebraic data type
 * `.type T = B1 {a: A, ...} | B2 {}`: field types are names, resolved by
 * the checker (check_record.c), so types may be declared in any order. */
struct dl_ast_rfield {
	const char *name; /* in the arena */
	const char *type; /* in the arena */
	struct dl_pos pos; /* of its type */
};

struct dl_ast_rbranch {
	const char *name; /* NULL for a record type */
	struct dl_ast_rfield *fields;
	uint32_t nfields;
	struct dl_pos pos;
};

struct dl_ast_rtype {
	const char *name;
	bool adt;
	struct dl_ast_rbranch *branches;
	uint32_t nbranches;
	struct dl_pos pos;
};

/* A construct accepted and ignored (a .pragma): warned of at load. */
struct dl_ast_ignored {
	const char *what; /* in the arena: ".pragma \"key\"" */
	struct dl_pos pos;
};

struct dl_comps; /* Souffle's components (components.c) */

struct dl_ast {
	struct dl_arena arena;
	bool souffle;
	/* the text parsed, borrowed: alive until the program is compiled */
	const char *src;
	size_t src_len;
	struct dl_ast_clause *clauses;
	size_t nclauses, cap_clauses;
	struct dl_ast_decl *decls;
	size_t ndecls, cap_decls;
	struct dl_ast_directive *directives;
	size_t ndirectives, cap_directives;
	struct dl_ast_limit *limits;
	size_t nlimits, cap_limits;
	struct dl_ast_type *types;
	size_t ntypes, cap_types;
	struct dl_ast_ignored *ignored;
	size_t nignored, cap_ignored;
	struct dl_ast_rtype *rtypes;
	size_t nrtypes, cap_rtypes;
	/* the components defined and instantiated, in the arena; NULL if
	 * none */
	struct dl_comps *comps;
};

/* Parses `src` into `ast` (which the caller frees with dl_ast_free even on
 * failure).  Returns OK, PARSE, LIMIT, NO_MEMORY. */
maelys_datalog_status_t dl_parse(struct dl_ast *ast, const char *src,
				 size_t len, bool souffle,
				 const char *source_name,
				 maelys_datalog_diagnostic_t *diag);
void dl_ast_free(struct dl_ast *ast);

#endif /* DL_AST_H */
