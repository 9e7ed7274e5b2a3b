/* SPDX-License-Identifier: MIT */
/*
 * Arithmetic on `number`: the operators of Souffle's language over 64-bit
 * two's complement integers, and compiled expressions (a term such as
 * X * 2 + 1 in postfix form over a rule's variables).  The one owner of
 * what an operator computes: the parser folds constant terms with it, the
 * evaluator and result_why_not run compiled expressions with it.
 *
 * An operator whose C counterpart would be undefined is defined here:
 * + - * ^ wrap modulo 2^64 (Souffle's compiled code wraps on every target
 * it runs on); INT64_MIN / -1 wraps to INT64_MIN and INT64_MIN % -1 is 0;
 * division and modulo by zero, a shift count outside 0..63 and 0 to a
 * negative power are STATUS_ARITHMETIC (Souffle leaves them undefined).
 * A negative power of any other base truncates as Souffle's (the double
 * power converted to an integer): 1, -1 or +-1, else 0.
 *
 * Room to grow: the instructions work on 64-bit stack slots, so unsigned
 * and float operators fit as operators of their own over the same slots
 * (the checker choosing them by the term's type), and a functor of any
 * arity as a DL_X_OP that pops its arguments.
 */
#ifndef DL_ARITH_H
#define DL_ARITH_H

#include "dl_diag.h"
#include "dl_symbols.h"

#include <maelys/datalog.h>

#include <stdint.h>

enum dl_arith_op {
	/* unary */
	DL_ARITH_NEG,
	DL_ARITH_BNOT,
	DL_ARITH_LNOT,
	/* binary */
	DL_ARITH_ADD,
	DL_ARITH_SUB,
	DL_ARITH_MUL,
	DL_ARITH_DIV,
	DL_ARITH_MOD,
	DL_ARITH_POW,
	DL_ARITH_BAND,
	DL_ARITH_BOR,
	DL_ARITH_BXOR,
	DL_ARITH_BSHL,
	DL_ARITH_BSHR,
	DL_ARITH_BSHRU,
	DL_ARITH_LAND,
	DL_ARITH_LOR,
	DL_ARITH_LXOR,
	/* a functor call (dl_functor.h): never applied by dl_arith_apply;
	 * the parser's node for it, the checker's DL_X_FUNC */
	DL_ARITH_CALL,
	/* numeric conversions (unary; arith_kind.c): itof and friends, and
	 * to_float, to_number, to_unsigned, which the checker turns into one
	 * of them (or nothing) by the operand's type */
	DL_ARITH_ITOF,
	DL_ARITH_ITOU,
	DL_ARITH_UTOI,
	DL_ARITH_UTOF,
	DL_ARITH_FTOI,
	DL_ARITH_FTOU,
	DL_ARITH_TO_FLOAT,
	DL_ARITH_TO_NUMBER,
	DL_ARITH_TO_UNSIGNED,
};

static inline bool
dl_arith_unary(enum dl_arith_op op)
{
	return op <= DL_ARITH_LNOT || op >= DL_ARITH_ITOF;
}

/* Applies op (b unused for a unary one).  Returns OK with *out, or
 * ARITHMETIC with *why a static sentence. */
maelys_datalog_status_t dl_arith_apply(enum dl_arith_op op, int64_t a,
				       int64_t b, int64_t *out,
				       const char **why);

/* The operator as written ("+", "bshl"), for messages. */
const char *dl_arith_name(enum dl_arith_op op);

/* One instruction of a compiled expression, run on a stack. */
enum dl_xins_kind {
	DL_X_VAR,   /* push regs[v] (a number, else STATUS_TYPE) */
	DL_X_CONST, /* push k */
	DL_X_OP,    /* pop one or two, push op's result */
	/* a functor (dl_functor.h): op = enum dl_functor, v = how many
	 * arguments it pops; it pushes its result */
	DL_X_FUNC,
};

/* DL_X_VAR's op: the slot's kind (a string slot holds the value) */
#define DL_XV_NUMBER 0
#define DL_XV_STRING 1
/* the slot's value as it is held, whatever it holds: ord() of a record or
 * an ADT value, its identity in this engine */
#define DL_XV_RAW 2

struct dl_xins {
	uint8_t kind; /* enum dl_xins_kind */
	uint8_t op;   /* DL_X_OP: enum dl_arith_op; DL_X_VAR: DL_XV_* */
	uint32_t v;   /* DL_X_VAR; DL_X_FUNC: its arguments */
	int64_t k;    /* DL_X_CONST */
	uint8_t num;  /* DL_X_OP: enum dl_numkind of the operands */
};

/* The most instructions of one expression (the parser bounds its nesting
 * so that no expression comes near it); the evaluator's stack is this
 * deep. */
#define DL_EXPR_CODE_MAX 64

/* A compiled expression: computes `target` once every variable it reads is
 * bound; when `target` is already bound (an expression in a body atom's
 * column) it is a test that the two are equal. */
struct dl_cexpr {
	uint32_t target;
	const struct dl_xins *code;
	uint32_t ncode;
	struct dl_pos pos;
	/* its result is a string (a functor's): the slot is the value */
	bool string_result;
	/* range(...): binds target to each value in turn (the last
	 * instruction is the range, the others its arguments) */
	bool generator;
	/* autoinc(): placed after every literal of the body, so that each
	 * binding that reaches the head draws a value of its own */
	bool impure;
};

/* Runs x over the rule's registers.  Returns OK with *out, TYPE (a
 * variable holds a string; *why says so) or ARITHMETIC. */
maelys_datalog_status_t dl_expr_run(const struct dl_cexpr *x,
				    const struct dl_symview *syms,
				    const dl_value *regs, int64_t *out,
				    const char **why);

struct dl_fnctx;

/* dl_expr_run with what functors may change (autoinc's counter, the
 * memory budget of strings built); ctx may be NULL.  `ncode` runs the
 * first ncode instructions only and leaves the stack in stack[0 .. *sp)
 * (a generator's arguments). */
maelys_datalog_status_t dl_expr_exec(const struct dl_cexpr *x,
				     const struct dl_symview *syms,
				     struct dl_fnctx *ctx, const dl_value *regs,
				     uint32_t ncode, int64_t *stack,
				     uint32_t *sp, const char **why);

/* arith_kind.c: op over operands of numeric kind `num` (enum dl_numkind:
 * POLY is number, UNSIGNED wraps modulo 2^64, FLOAT is IEEE-754), each
 * operand and the result as 64 bits (dl_numeric.h).  Returns OK, or
 * ARITHMETIC with *why a static sentence (division by zero on integers, a
 * float out of the target's range, an operator the kind does not have). */
maelys_datalog_status_t dl_arith_apply_kind(enum dl_arith_op op, unsigned num,
					    int64_t a, int64_t b, int64_t *out,
					    const char **why);

/* Whether operator op applies to kind num (no bitwise or logical operator
 * and no % on float, as in Souffle). */
bool dl_arith_kind_has(enum dl_arith_op op, unsigned num);

/* The order of a and b as values of kind num: -1, 0, 1; 2 when unordered
 * (a float NaN). */
int dl_arith_kind_compare(unsigned num, int64_t a, int64_t b);

#endif /* DL_ARITH_H */
