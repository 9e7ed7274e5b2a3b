/* SPDX-License-Identifier: MIT */
/*
 * Arithmetic on `number` (dl_arith.h says what each operator computes and
 * why).  Every operation is done on uint64_t where C's signed one could
 * overflow, so no input is undefined behaviour.
 */
#include "dl_arith.h"

#include "dl_functor.h"

static const char dl_why_div0[] = "division by zero in an arithmetic term";
static const char dl_why_mod0[] = "modulo by zero in an arithmetic term";
static const char dl_why_shift[] =
    "shift count outside 0..63 in an arithmetic term";
static const char dl_why_pow0[] = "0 to a negative power in an arithmetic "
				  "term";

/* a ^ b for b >= 0, wrapping: square and multiply on uint64_t */
static int64_t
dl_arith_pow(int64_t a, int64_t b)
{
	uint64_t base = (uint64_t)a, r = 1, e = (uint64_t)b;

	while (e != 0) {
		if (e & 1u)
			r *= base;
		base *= base;
		e >>= 1;
	}
	return (int64_t)r;
}

maelys_datalog_status_t
dl_arith_apply(enum dl_arith_op op, int64_t a, int64_t b, int64_t *out,
	       const char **why)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;

	switch (op) {
	case DL_ARITH_NEG:
		*out = (int64_t)(0u - ua);
		break;
	case DL_ARITH_BNOT:
		*out = (int64_t)~ua;
		break;
	case DL_ARITH_LNOT:
		*out = a == 0;
		break;
	case DL_ARITH_ADD:
		*out = (int64_t)(ua + ub);
		break;
	case DL_ARITH_SUB:
		*out = (int64_t)(ua - ub);
		break;
	case DL_ARITH_MUL:
		*out = (int64_t)(ua * ub);
		break;
	case DL_ARITH_DIV:
		if (b == 0) {
			*why = dl_why_div0;
			return MAELYS_DATALOG_STATUS_ARITHMETIC;
		}
		/* the one quotient that overflows wraps to itself */
		*out = b == -1 ? (int64_t)(0u - ua) : a / b;
		break;
	case DL_ARITH_MOD:
		if (b == 0) {
			*why = dl_why_mod0;
			return MAELYS_DATALOG_STATUS_ARITHMETIC;
		}
		*out = b == -1 ? 0 : a % b;
		break;
	case DL_ARITH_POW:
		if (b >= 0) {
			*out = dl_arith_pow(a, b);
		} else if (a == 0) {
			*why = dl_why_pow0;
			return MAELYS_DATALOG_STATUS_ARITHMETIC;
		} else if (a == 1) {
			*out = 1;
		} else if (a == -1) {
			*out = (ub & 1u) ? -1 : 1;
		} else {
			*out = 0; /* |a|^b < 1, truncated */
		}
		break;
	case DL_ARITH_BAND:
		*out = (int64_t)(ua & ub);
		break;
	case DL_ARITH_BOR:
		*out = (int64_t)(ua | ub);
		break;
	case DL_ARITH_BXOR:
		*out = (int64_t)(ua ^ ub);
		break;
	case DL_ARITH_BSHL:
	case DL_ARITH_BSHR:
	case DL_ARITH_BSHRU:
		if (b < 0 || b > 63) {
			*why = dl_why_shift;
			return MAELYS_DATALOG_STATUS_ARITHMETIC;
		}
		if (op == DL_ARITH_BSHL)
			*out = (int64_t)(ua << b);
		else if (op == DL_ARITH_BSHRU)
			*out = (int64_t)(ua >> b);
		else /* arithmetic: the sign fills in, on any compiler */
			*out =
			    a < 0 ? (int64_t) ~(~ua >> b) : (int64_t)(ua >> b);
		break;
	case DL_ARITH_LAND:
		*out = a != 0 && b != 0;
		break;
	case DL_ARITH_LOR:
		*out = a != 0 || b != 0;
		break;
	case DL_ARITH_LXOR:
		*out = (a != 0) != (b != 0);
		break;
	default:
		*why = "unknown arithmetic operator";
		return MAELYS_DATALOG_STATUS_ARITHMETIC;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

const char *
dl_arith_name(enum dl_arith_op op)
{
	static const char *const names[] = {
	    [DL_ARITH_NEG] = "-",       [DL_ARITH_BNOT] = "bnot",
	    [DL_ARITH_LNOT] = "lnot",   [DL_ARITH_ADD] = "+",
	    [DL_ARITH_SUB] = "-",       [DL_ARITH_MUL] = "*",
	    [DL_ARITH_DIV] = "/",       [DL_ARITH_MOD] = "%",
	    [DL_ARITH_POW] = "^",       [DL_ARITH_BAND] = "band",
	    [DL_ARITH_BOR] = "bor",     [DL_ARITH_BXOR] = "bxor",
	    [DL_ARITH_BSHL] = "bshl",   [DL_ARITH_BSHR] = "bshr",
	    [DL_ARITH_BSHRU] = "bshru", [DL_ARITH_LAND] = "land",
	    [DL_ARITH_LOR] = "lor",     [DL_ARITH_LXOR] = "lxor",
	    [DL_ARITH_ITOF] = "itof",   [DL_ARITH_ITOU] = "itou",
	    [DL_ARITH_UTOI] = "utoi",   [DL_ARITH_UTOF] = "utof",
	    [DL_ARITH_FTOI] = "ftoi",   [DL_ARITH_FTOU] = "ftou",
	    [DL_ARITH_TO_FLOAT] = "to_float",
	    [DL_ARITH_TO_NUMBER] = "to_number",
	    [DL_ARITH_TO_UNSIGNED] = "to_unsigned",
	};

	if ((unsigned)op < sizeof names / sizeof *names)
		return names[op];
	return "?";
}

maelys_datalog_status_t
dl_expr_exec(const struct dl_cexpr *x, const struct dl_symview *syms,
	     struct dl_fnctx *ctx, const dl_value *regs, uint32_t ncode,
	     int64_t *stack, uint32_t *spp, const char **why)
{
	uint32_t i, sp = 0;

	for (i = 0; i < ncode; i++) {
		const struct dl_xins *in = &x->code[i];
		maelys_datalog_status_t st;
		int64_t a, b = 0;

		switch ((enum dl_xins_kind)in->kind) {
		case DL_X_VAR: {
			dl_value v = regs[in->v];

			if (in->op == DL_XV_STRING) {
				const struct dl_sym *s =
				    dl_value_is_inline_int(v)
					? NULL
					: dl_symview_get(syms, v);

				if (s == NULL || s->text == NULL) {
					*why = "a number where a string "
					       "functor expects a string";
					return MAELYS_DATALOG_STATUS_TYPE;
				}
				stack[sp++] = (int64_t)v;
			} else if (in->op == DL_XV_RAW)
				stack[sp++] = (int64_t)v;
			else if (dl_value_is_inline_int(v))
				stack[sp++] = dl_value_inline_int(v);
			else if (!dl_symview_value_int(syms, v, &stack[sp++])) {
				*why = "arithmetic on a string (a number "
				       "was expected)";
				return MAELYS_DATALOG_STATUS_TYPE;
			}
			break;
		}
		case DL_X_CONST:
			stack[sp++] = in->k;
			break;
		case DL_X_OP:
			if (!dl_arith_unary((enum dl_arith_op)in->op))
				b = stack[--sp];
			a = stack[--sp];
			st = dl_arith_apply_kind((enum dl_arith_op)in->op,
						 in->num, a, b, &stack[sp],
						 why);
			if (st != MAELYS_DATALOG_STATUS_OK)
				return st;
			sp++;
			break;
		case DL_X_FUNC:
			sp -= in->v;
			st = dl_functor_apply((enum dl_functor)in->op, syms,
					      ctx, &stack[sp], in->v,
					      &stack[sp], why);
			if (st != MAELYS_DATALOG_STATUS_OK)
				return st;
			sp++;
			break;
		}
	}
	*spp = sp;
	return MAELYS_DATALOG_STATUS_OK;
}

maelys_datalog_status_t
dl_expr_run(const struct dl_cexpr *x, const struct dl_symview *syms,
	    const dl_value *regs, int64_t *out, const char **why)
{
	int64_t stack[DL_EXPR_CODE_MAX];
	maelys_datalog_status_t st;
	uint32_t sp = 0;

	st = dl_expr_exec(x, syms, NULL, regs, x->ncode, stack, &sp, why);
	if (st != MAELYS_DATALOG_STATUS_OK)
		return st;
	*out = stack[0];
	return MAELYS_DATALOG_STATUS_OK;
}
