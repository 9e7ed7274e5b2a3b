/* SPDX-License-Identifier: MIT */
/*
 * Records and algebraic data types (Souffle's `.type T = [a: A, ...]` and
 * `.type T = B1 {a: A} | B2 {}`): their types, how their values are made of
 * words, and the rule-level constraint a record term compiles to.
 *
 * A value of such a type is a symbol of its own kind (dl_symbols.h), interned
 * canonically, so that two values are equal iff their bits are and joins
 * work unchanged.  Its words: the type's index in prog->rtypes, then for an
 * ADT the branch's index, then one value per field.  `nil` is the record of
 * no words: the one empty value of every record type.  The type travels in
 * the value, so a value prints and compares without its column.
 *
 * A record term in a rule (check_record.c) is a variable of its own standing
 * where it was written, tied to its fields by a dl_crec: built (interned in
 * the solve's overlay) when its fields are bound, taken apart when it is.
 */
#ifndef DL_RECORD_H
#define DL_RECORD_H

#include "dl_program.h"

#include <maelys/datalog.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Hard limits (STATUS_LIMIT). */
#define DL_RECORD_FIELDS_MAX   64   /* fields of one record or branch */
#define DL_RECORD_TYPES_MAX    4096 /* record and ADT types of a program */
#define DL_RECORD_BRANCHES_MAX 256  /* branches of one ADT */
#define DL_RECORD_DEPTH_MAX    256  /* nesting of a term, a text read */
#define DL_RECS_MAX            64   /* record terms in one rule */
/* The longest text of one value printed (result_record_text). */
#define DL_RECORD_TEXT_MAX     ((size_t)1 << 20)

struct dl_rfield {
	const char *name;
	maelys_datalog_column_type_t base;
	uint32_t rtype; /* base RECORD: its type; else DL_NONE */
};

struct dl_rbranch {
	const char *name; /* an ADT's branch; NULL for a record type */
	uint32_t nfields;
	struct dl_rfield *fields;
};

struct dl_rtype {
	const char *name;
	bool adt;
	uint32_t nbranches; /* a record type: 1 */
	struct dl_rbranch *branches;
};

/* The type of a record term no column gives a type to (`r = [x, y]`,
 * read only through other record terms), as Souffle accepts it: such a
 * value never reaches a column, so it is never printed or read. */
#define DL_RECORD_UNTYPED (UINT32_MAX - 1)

/* The words before the fields of a value of type t (NULL: untyped). */
static inline uint32_t
dl_rtype_header(const struct dl_rtype *t)
{
	return t != NULL && t->adt ? 2u : 1u;
}

/* A record term of a rule: `target` is the variable standing for it; args
 * are its fields (variables, constants, '_' only when it is taken apart).
 * Ready to build when every field is bound, to take apart when target is. */
struct dl_crec {
	uint32_t target;
	uint32_t rtype; /* DL_NONE until the checker infers it */
	uint32_t branch;
	uint32_t nargs;
	struct dl_cterm *args;
	/* the kind (maelys_datalog_column_type_t) check_types.c gave each
	 * field's term, its constants encoded by: an unsigned or a float
	 * field's must be its own (NULL: none known) */
	uint8_t *kinds;
	struct dl_pos pos;
	bool adt; /* of an ADT: its value has the branch's word */
};

/* Resolves the AST's record and ADT types into prog->rtypes and the record
 * columns of the declared predicates (check_record.c). */
maelys_datalog_status_t
dl_record_check_types(struct dl_program *prog, const struct dl_ast *ast,
		      const char *source, maelys_datalog_diagnostic_t *diag);
/* The type named `name` if it is a record or ADT type (through aliases),
 * else DL_NONE. */
uint32_t dl_record_type_find(const struct dl_program *prog,
			     const struct dl_ast *ast, const char *name);
/* The branch called `name` of any ADT: its type and index, or false. */
bool dl_record_branch_find(const struct dl_program *prog, const char *name,
			   size_t len, uint32_t *rtype, uint32_t *branch);

/* A ground record term of type `rtype` (a fact's column): its value,
 * interned in the policy's symbols. */
maelys_datalog_status_t dl_record_const(struct dl_program *prog,
					const struct dl_ast_term *t,
					maelys_datalog_column_type_t base,
					uint32_t rtype, const char *source,
					maelys_datalog_diagnostic_t *diag,
					dl_value *out);

/* Infers and checks the types of a compiled rule's record terms, and of
 * what its record columns hold (check_record.c). */
maelys_datalog_status_t dl_record_check_rule(const struct dl_program *prog,
					     struct dl_rule *r,
					     const char *const *var_names,
					     const char *source,
					     maelys_datalog_diagnostic_t *diag);

/* Builds the value of type rtype (branch) of `nf` field values. */
int dl_record_make(const struct dl_symview *syms, uint32_t rtype,
		   const struct dl_rtype *t, uint32_t branch,
		   const dl_value *fields, uint32_t nf, dl_value *out);

/* Prints value v as Souffle does into buf (cap bytes, NUL-terminated when
 * cap > 0); *len is its full length.  Returns OK, INVALID_ARGUMENT (not a
 * record), LIMIT (deeper than DL_RECORD_DEPTH_MAX, longer than
 * DL_RECORD_TEXT_MAX, or cap too small: *len says how much is needed). */
maelys_datalog_status_t dl_record_print(const struct dl_program *prog,
					const struct dl_symview *syms,
					dl_value v, char *buf, size_t cap,
					size_t *len);

/* Reads the text of a value of type rtype, as Souffle prints and reads it
 * ("[1, [a b, nil]]", "nil", "$A(1, $B)"), interning it through syms.
 * Returns OK, PARSE (the text is no such value; diag says where), LIMIT,
 * NO_MEMORY. */
maelys_datalog_status_t dl_record_read(const struct dl_program *prog,
				       const struct dl_symview *syms,
				       uint32_t rtype, const char *text,
				       size_t len, dl_value *out,
				       maelys_datalog_diagnostic_t *diag);

/* The same text looked up, never interned (a query): *known false when
 * no layer holds the value, or the text is no value of the type.  Returns
 * OK (or NO_MEMORY, never in practice: nothing is allocated). */
maelys_datalog_status_t dl_record_find(const struct dl_program *prog,
				       const struct dl_symview *syms,
				       uint32_t rtype, const char *text,
				       size_t len, dl_value *out, bool *known);

/* One step of a reader that rebuilds a rule's bindings from the rows it
 * matched (provenance, why_not) over record term x: builds (looks up) the
 * record when its fields are bound, or takes it apart when it is bound.
 * Returns 1 when x is settled, 0 when it is not ready, -1 when it is
 * refuted (another type or branch, a field that differs).  `unknown` is
 * the reader's value of nothing known: it spreads, and refutes nothing. */
int dl_record_rebind(const struct dl_symview *syms, const struct dl_crec *x,
		     uint32_t *regs, bool *bound, dl_value unknown);

#endif /* DL_RECORD_H */
