/* SPDX-License-Identifier: MIT */
/*
 * Arithmetic on `unsigned` and `float`, and the conversions between the
 * numeric kinds (dl_arith.h).  `number` stays arith.c's.  Unsigned
 * operators wrap modulo 2^64 like Souffle's compiled code; float operators
 * are the IEEE-754 double's (x / 0.0 is an infinity, as in Souffle).  What
 * C leaves undefined is defined here: an integer division or modulo by
 * zero and a shift count outside 0..63 are STATUS_ARITHMETIC, and so is a
 * float converted to an integer kind it does not fit (NaN included),
 * where Souffle's static_cast is undefined.
 */
#include "dl_arith.h"

#include "dl_numeric.h"

#include <math.h>

static const char dl_why_udiv0[] = "division by zero in an arithmetic term";
static const char dl_why_umod0[] = "modulo by zero in an arithmetic term";
static const char dl_why_ushift[] =
    "shift count outside 0..63 in an arithmetic term";
static const char dl_why_range[] =
    "a float out of the range of the integer it is converted to";
static const char dl_why_kind[] =
    "an operator that this numeric type does not have";

bool
dl_arith_kind_has(enum dl_arith_op op, unsigned num)
{
	if (num != DL_NUM_FLOAT)
		return true;
	switch (op) {
	case DL_ARITH_NEG:
	case DL_ARITH_ADD:
	case DL_ARITH_SUB:
	case DL_ARITH_MUL:
	case DL_ARITH_DIV:
	case DL_ARITH_POW:
	case DL_ARITH_ITOF:
	case DL_ARITH_ITOU:
	case DL_ARITH_UTOI:
	case DL_ARITH_UTOF:
	case DL_ARITH_FTOI:
	case DL_ARITH_FTOU:
	case DL_ARITH_TO_FLOAT:
	case DL_ARITH_TO_NUMBER:
	case DL_ARITH_TO_UNSIGNED:
		return true;
	default:
		return false;
	}
}

/* a ^ b on uint64_t, wrapping: square and multiply */
static uint64_t
dl_arith_upow(uint64_t a, uint64_t e)
{
	uint64_t r = 1;

	while (e != 0) {
		if (e & 1u)
			r *= a;
		a *= a;
		e >>= 1;
	}
	return r;
}

static maelys_datalog_status_t
dl_arith_unsigned(enum dl_arith_op op, uint64_t a, uint64_t b, uint64_t *out,
		  const char **why)
{
	switch (op) {
	case DL_ARITH_NEG:
		*out = 0u - a;
		break;
	case DL_ARITH_BNOT:
		*out = ~a;
		break;
	case DL_ARITH_LNOT:
		*out = a == 0;
		break;
	case DL_ARITH_ADD:
		*out = a + b;
		break;
	case DL_ARITH_SUB:
		*out = a - b;
		break;
	case DL_ARITH_MUL:
		*out = a * b;
		break;
	case DL_ARITH_DIV:
	case DL_ARITH_MOD:
		if (b == 0) {
			*why = op == DL_ARITH_DIV ? dl_why_udiv0 : dl_why_umod0;
			return MAELYS_DATALOG_STATUS_ARITHMETIC;
		}
		*out = op == DL_ARITH_DIV ? a / b : a % b;
		break;
	case DL_ARITH_POW:
		*out = dl_arith_upow(a, b);
		break;
	case DL_ARITH_BAND:
		*out = a & b;
		break;
	case DL_ARITH_BOR:
		*out = a | b;
		break;
	case DL_ARITH_BXOR:
		*out = a ^ b;
		break;
	case DL_ARITH_BSHL:
	case DL_ARITH_BSHR:
	case DL_ARITH_BSHRU:
		if (b > 63) {
			*why = dl_why_ushift;
			return MAELYS_DATALOG_STATUS_ARITHMETIC;
		}
		*out = op == DL_ARITH_BSHL ? a << b : a >> b;
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
		*why = dl_why_kind;
		return MAELYS_DATALOG_STATUS_ARITHMETIC;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_arith_float(enum dl_arith_op op, double a, double b, double *out,
	       const char **why)
{
	switch (op) {
	case DL_ARITH_NEG:
		*out = -a;
		break;
	case DL_ARITH_ADD:
		*out = a + b;
		break;
	case DL_ARITH_SUB:
		*out = a - b;
		break;
	case DL_ARITH_MUL:
		*out = a * b;
		break;
	case DL_ARITH_DIV:
		*out = a / b;
		break;
	case DL_ARITH_POW:
		*out = pow(a, b);
		break;
	default:
		*why = dl_why_kind;
		return MAELYS_DATALOG_STATUS_ARITHMETIC;
	}
	return MAELYS_DATALOG_STATUS_OK;
}

/* A float truncated to int64 / uint64, when it fits (NaN does not). */
static bool
dl_float_to_i64(double d, int64_t *out)
{
	if (!(d > -9223372036854775809.0 && d < 9223372036854775808.0))
		return false;
	*out = (int64_t)d;
	return true;
}

static bool
dl_float_to_u64(double d, uint64_t *out)
{
	if (!(d > -1.0 && d < 18446744073709551616.0))
		return false;
	*out = (uint64_t)d;
	return true;
}

maelys_datalog_status_t
dl_arith_apply_kind(enum dl_arith_op op, unsigned num, int64_t a, int64_t b,
		    int64_t *out, const char **why)
{
	maelys_datalog_status_t st;
	uint64_t u = 0;
	double d = 0;

	switch (op) {
	case DL_ARITH_ITOF:
		*out = dl_float_bits((double)a);
		return MAELYS_DATALOG_STATUS_OK;
	case DL_ARITH_ITOU:
	case DL_ARITH_UTOI:
		*out = a; /* the same 64 bits, as Souffle's cast */
		return MAELYS_DATALOG_STATUS_OK;
	case DL_ARITH_UTOF:
		*out = dl_float_bits((double)(uint64_t)a);
		return MAELYS_DATALOG_STATUS_OK;
	case DL_ARITH_FTOI:
		if (!dl_float_to_i64(dl_bits_float(a), out)) {
			*why = dl_why_range;
			return MAELYS_DATALOG_STATUS_ARITHMETIC;
		}
		return MAELYS_DATALOG_STATUS_OK;
	case DL_ARITH_FTOU:
		if (!dl_float_to_u64(dl_bits_float(a), &u)) {
			*why = dl_why_range;
			return MAELYS_DATALOG_STATUS_ARITHMETIC;
		}
		*out = (int64_t)u;
		return MAELYS_DATALOG_STATUS_OK;
	case DL_ARITH_TO_FLOAT:
	case DL_ARITH_TO_NUMBER:
	case DL_ARITH_TO_UNSIGNED:
		/* the checker resolved these; one left means the operand
		 * already has the kind asked for */
		*out = a;
		return MAELYS_DATALOG_STATUS_OK;
	default:
		break;
	}
	if (num == DL_NUM_UNSIGNED) {
		st = dl_arith_unsigned(op, (uint64_t)a, (uint64_t)b, &u, why);
		if (st == MAELYS_DATALOG_STATUS_OK)
			*out = (int64_t)u;
		return st;
	}
	if (num == DL_NUM_FLOAT) {
		st = dl_arith_float(op, dl_bits_float(a), dl_bits_float(b), &d,
				    why);
		if (st == MAELYS_DATALOG_STATUS_OK)
			*out = dl_float_bits(d);
		return st;
	}
	return dl_arith_apply(op, a, b, out, why);
}

int
dl_arith_kind_compare(unsigned num, int64_t a, int64_t b)
{
	if (num == DL_NUM_UNSIGNED) {
		uint64_t x = (uint64_t)a, y = (uint64_t)b;

		return x < y ? -1 : x > y;
	}
	if (num == DL_NUM_FLOAT) {
		double x = dl_bits_float(a), y = dl_bits_float(b);

		if (x < y)
			return -1;
		if (x > y)
			return 1;
		return x == y ? 0 : 2;
	}
	return a < b ? -1 : a > b;
}
