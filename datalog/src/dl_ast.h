/* SPDX-License-Identifier: MIT */
/*
 * The syntax tree of a policy, as the parser reads it and before anything is
 * resolved: names are still text, variables still names.  Everything lives
 * in the load's arena and dies with it; the checker (check.c) turns it into
 * the compiled program of dl_program.h.
 */
#ifndef DL_AST_H
#define DL_AST_H

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

struct dl_ast_clause {
	struct dl_ast_atom head;
	struct dl_ast_lit *body;
	size_t nbody;
	struct dl_pos pos;
	size_t start, end; /* its bytes in the source, head to '.' */
};

struct dl_ast_decl {
	const char *name;
	size_t name_len;
	size_t arity;
	maelys_datalog_column_type_t columns[MAELYS_DATALOG_MAX_ARITY];
	/* the columns' names as declared (in the arena) */
	const char *names[MAELYS_DATALOG_MAX_ARITY];
	struct dl_pos pos;
	/* the columns' type names as written (NULL: untyped), resolved by
	 * the checker (types.c), since a .type may come after its use */
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
};

/* How a .type defines its name (types.c gives each its meaning). */
enum dl_type_form {
	DL_TYPE_SUBSET, /* .type A <: B, and the old .number_type A */
	DL_TYPE_ALIAS,  /* .type A = B: the same type under a new name */
	DL_TYPE_UNION,  /* .type A = B | C | ... */
};

struct dl_ast_type {
	const char *name;
	size_t name_len;
	maelys_datalog_column_type_t base; /* unused: see form, of */
	struct dl_pos pos;                 /* of its name */
	enum dl_type_form form;
	/* the types it is made of, by name (in the arena): SUBSET and ALIAS
	 * one, UNION one or more */
	const char **of;
	size_t nof;
};

/* A construct accepted and ignored (a .pragma): warned of at load. */
struct dl_ast_ignored {
	const char *what; /* in the arena: ".pragma \"key\"" */
	struct dl_pos pos;
};

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
	struct dl_ast_type *types;
	size_t ntypes, cap_types;
	struct dl_ast_ignored *ignored;
	size_t nignored, cap_ignored;
};

/* Parses `src` into `ast` (which the caller frees with dl_ast_free even on
 * failure).  Returns OK, PARSE, LIMIT, NO_MEMORY. */
maelys_datalog_status_t dl_parse(struct dl_ast *ast, const char *src,
				 size_t len, bool souffle,
				 const char *source_name,
				 maelys_datalog_diagnostic_t *diag);
void dl_ast_free(struct dl_ast *ast);

#endif /* DL_AST_H */
