/* SPDX-License-Identifier: MIT */
/*
 * Values of record and algebraic data types (dl_record.h): building them,
 * printing them as Souffle prints them, and reading them back from the text
 * of an input fact.  Both directions go by the type the value carries, field
 * by field: a number or an unsigned in decimal, a float as Souffle prints
 * it (dl_float_text), a symbol as its bytes (unquoted, as Souffle writes a
 * symbol inside a record; read in quotes too, as Souffle reads it), a
 * record or branch recursively, nil as "nil", a branch as "$Name" or
 * "$Name(f, ...)".
 */
#include "dl_record.h"

#include "dl_numeric.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int
dl_record_make(const struct dl_symview *syms, uint32_t rtype,
	       const struct dl_rtype *t, uint32_t branch,
	       const dl_value *fields, uint32_t nf, dl_value *out)
{
	dl_value w[DL_RECORD_FIELDS_MAX + 2];
	uint32_t h = dl_rtype_header(t);

	if (nf > DL_RECORD_FIELDS_MAX)
		return -1;
	w[0] = rtype;
	w[1] = branch; /* overwritten by a record's first field */
	if (nf > 0)
		memcpy(w + h, fields, nf * sizeof *fields);
	return dl_symview_intern_record(syms, w, h + nf, out);
}

/* ------------------------------------------------------------------ */
/* Printing                                                             */

struct dl_rp {
	const struct dl_program *prog;
	const struct dl_symview *syms;
	char *buf;
	size_t cap, len; /* len counts every byte, written or not */
};

static void
dl_rp_put(struct dl_rp *p, const char *s, size_t n)
{
	if (p->len < p->cap) {
		size_t room = p->cap - p->len;

		memcpy(p->buf + p->len, s, n < room ? n : room);
	}
	p->len += n;
}

static maelys_datalog_status_t
dl_rp_value(struct dl_rp *p, dl_value v, maelys_datalog_column_type_t base,
	    unsigned depth)
{
	const dl_value *w;
	const struct dl_rtype *t;
	const struct dl_rbranch *b;
	uint32_t n, h, k;
	int64_t i;

	if (p->len > DL_RECORD_TEXT_MAX)
		return MAELYS_DATALOG_STATUS_LIMIT;
	if (depth > DL_RECORD_DEPTH_MAX)
		return MAELYS_DATALOG_STATUS_LIMIT;
	w = dl_symview_record(p->syms, v, &n);
	if (w == NULL) {
		const struct dl_sym *s;
		char num[DL_FLOAT_PRINT_MAX];

		/* an unsigned or a float field holds its 64 bits as an
		 * integer: its base says how they print */
		if (dl_symview_value_int(p->syms, v, &i)) {
			size_t m;

			if (base == MAELYS_DATALOG_COLUMN_FLOAT)
				m = dl_float_text(dl_bits_float(i), num,
						  sizeof num);
			else if (base == MAELYS_DATALOG_COLUMN_UNSIGNED)
				m = (size_t)snprintf(num, sizeof num, "%llu",
						     (unsigned long long)i);
			else
				m = (size_t)snprintf(num, sizeof num, "%lld",
						     (long long)i);
			dl_rp_put(p, num, m < sizeof num ? m : sizeof num - 1);
			return MAELYS_DATALOG_STATUS_OK;
		}
		s = dl_symview_get(p->syms, v);
		if (s == NULL || s->text == NULL)
			return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
		dl_rp_put(p, s->text, s->len);
		return MAELYS_DATALOG_STATUS_OK;
	}
	if (n == 0) {
		dl_rp_put(p, "nil", 3);
		return MAELYS_DATALOG_STATUS_OK;
	}
	if (w[0] >= p->prog->nrtypes)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	t = &p->prog->rtypes[w[0]];
	h = dl_rtype_header(t);
	if (n < h || (t->adt && w[1] >= t->nbranches))
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	b = &t->branches[t->adt ? w[1] : 0];
	if (n - h != b->nfields)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	if (t->adt) {
		dl_rp_put(p, "$", 1);
		dl_rp_put(p, b->name, strlen(b->name));
		if (b->nfields == 0)
			return MAELYS_DATALOG_STATUS_OK;
		dl_rp_put(p, "(", 1);
	} else {
		dl_rp_put(p, "[", 1);
	}
	for (k = 0; k < b->nfields; k++) {
		maelys_datalog_status_t st;

		if (k > 0)
			dl_rp_put(p, ", ", 2);
		st = dl_rp_value(p, w[h + k], b->fields[k].base, depth + 1);
		if (st != MAELYS_DATALOG_STATUS_OK)
			return st;
	}
	dl_rp_put(p, t->adt ? ")" : "]", 1);
	return MAELYS_DATALOG_STATUS_OK;
}

maelys_datalog_status_t
dl_record_print(const struct dl_program *prog, const struct dl_symview *syms,
		dl_value v, char *buf, size_t cap, size_t *len)
{
	struct dl_rp p;
	maelys_datalog_status_t st;
	uint32_t n;

	*len = 0;
	if (dl_symview_record(syms, v, &n) == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	p.prog = prog;
	p.syms = syms;
	p.buf = buf;
	p.cap = cap;
	p.len = 0;
	st = dl_rp_value(&p, v, MAELYS_DATALOG_COLUMN_RECORD, 0);
	if (cap > 0)
		buf[p.len < cap ? p.len : cap - 1] = '\0';
	*len = p.len;
	if (st == MAELYS_DATALOG_STATUS_OK && p.len >= cap)
		return MAELYS_DATALOG_STATUS_LIMIT;
	return st;
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */

struct dl_rr {
	const struct dl_program *prog;
	const struct dl_symview *syms;
	const char *s;
	size_t n, i;
	maelys_datalog_diagnostic_t *diag;
	/* only look values up (a query): a value no layer has makes the
	 * whole unknown, and nothing is interned */
	bool lookup;
	bool unknown;
};

/* Interning, or in lookup mode finding, one value: 0, or -1 (no memory). */
static int
dl_rr_int(struct dl_rr *r, int64_t i, dl_value *out)
{
	if (!r->lookup)
		return dl_symview_intern_int(r->syms, i, out);
	if (!dl_symview_find_int(r->syms, i, out))
		r->unknown = true;
	return 0;
}

static int
dl_rr_str(struct dl_rr *r, const char *s, size_t n, dl_value *out)
{
	if (!r->lookup)
		return dl_symview_intern_string(r->syms, s, n, out);
	if (!dl_symview_find_string(r->syms, s, n, out))
		r->unknown = true;
	return 0;
}

static int
dl_rr_nil(struct dl_rr *r, dl_value *out)
{
	if (!r->lookup)
		return dl_symview_intern_record(r->syms, NULL, 0, out);
	if (!dl_symview_find_record(r->syms, NULL, 0, out))
		r->unknown = true;
	return 0;
}

static int
dl_rr_make(struct dl_rr *r, uint32_t rtype, const struct dl_rtype *t,
	   uint32_t branch, const dl_value *fields, uint32_t nf, dl_value *out)
{
	dl_value w[DL_RECORD_FIELDS_MAX + 2];
	uint32_t h = dl_rtype_header(t);

	if (!r->lookup)
		return dl_record_make(r->syms, rtype, t, branch, fields, nf,
				      out);
	if (r->unknown || nf > DL_RECORD_FIELDS_MAX)
		return 0;
	w[0] = rtype;
	w[1] = branch;
	if (nf > 0)
		memcpy(w + h, fields, nf * sizeof *fields);
	if (!dl_symview_find_record(r->syms, w, h + nf, out))
		r->unknown = true;
	return 0;
}

static maelys_datalog_status_t
dl_rr_fail(struct dl_rr *r, const char *what)
{
	char quoted[64];
	size_t k, n = r->n < sizeof quoted - 1 ? r->n : sizeof quoted - 1;

	/* the text comes from a data file: no control byte goes out */
	for (k = 0; k < n; k++) {
		unsigned char c = (unsigned char)r->s[k];

		quoted[k] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	quoted[n] = '\0';
	return dl_fail(r->diag, MAELYS_DATALOG_STATUS_PARSE,
		       "record text \"%s%s\" at offset %zu: expected %s",
		       quoted, n < r->n ? "..." : "", r->i, what);
}

static void
dl_rr_space(struct dl_rr *r)
{
	while (r->i < r->n && (r->s[r->i] == ' ' || r->s[r->i] == '\t'))
		r->i++;
}

static bool
dl_rr_eat(struct dl_rr *r, char c)
{
	dl_rr_space(r);
	if (r->i < r->n && r->s[r->i] == c) {
		r->i++;
		return true;
	}
	return false;
}

static maelys_datalog_status_t dl_rr_value(struct dl_rr *r,
					   maelys_datalog_column_type_t base,
					   uint32_t rtype, unsigned depth,
					   dl_value *out);

/* A symbol field in quotes, as Souffle reads one: "..." with \" for a
 * quote and \\ for a backslash (any other backslash kept as written),
 * then the blanks after it. */
static maelys_datalog_status_t
dl_rr_quoted(struct dl_rr *r, dl_value *out)
{
	size_t at = r->i, n = 0;
	char *buf;
	int rc;

	r->i++; /* the opening quote */
	buf = dl_alloc(r->n - r->i + 1);
	if (buf == NULL)
		return dl_fail(r->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
			       "out of memory reading a record");
	while (r->i < r->n && r->s[r->i] != '"') {
		if (r->s[r->i] == '\\' && r->i + 1 < r->n &&
		    (r->s[r->i + 1] == '"' || r->s[r->i + 1] == '\\'))
			r->i++;
		buf[n++] = r->s[r->i++];
	}
	if (r->i == r->n) {
		dl_free(buf);
		r->i = at;
		return dl_rr_fail(r, "a closing '\"'");
	}
	r->i++;
	dl_rr_space(r);
	if (n > DL_SYMBOL_LEN_MAX) {
		dl_free(buf);
		return dl_fail(r->diag, MAELYS_DATALOG_STATUS_LIMIT,
			       "symbol in a record longer than %zu bytes",
			       DL_SYMBOL_LEN_MAX);
	}
	rc = dl_rr_str(r, buf, n, out);
	dl_free(buf);
	if (rc != 0)
		return dl_fail(r->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
			       "out of memory reading a record");
	return MAELYS_DATALOG_STATUS_OK;
}

/* The text s[0, n) of an unsigned field (decimal digits, as it prints) or
 * a float field (as it prints: 3, -1.5, 1e+20, nan, -inf; or as a
 * literal is written, 3.0), its 64 bits in *out.  False for any other text, an
 * unsigned past 2^64, a float out of the double's range. */
static bool
dl_rr_number(const char *s, size_t n, maelys_datalog_column_type_t base,
	     int64_t *out)
{
	char buf[DL_FLOAT_TEXT_MAX + 4];
	size_t k = 0, o = 0;
	uint64_t u = 0;
	double d;

	if (base == MAELYS_DATALOG_COLUMN_UNSIGNED) {
		if (n == 0)
			return false;
		for (k = 0; k < n; k++) {
			unsigned dg = (unsigned)((unsigned char)s[k] - '0');

			if (dg > 9 || u > (UINT64_MAX - dg) / 10)
				return false;
			u = u * 10 + dg;
		}
		*out = (int64_t)u;
		return true;
	}
	/* what the printer writes of a NaN or an infinity (nan, -nan, inf,
	 * -inf) reads back as that value, as a float column reads it */
	k = n > 0 && s[0] == '-';
	if (n - k == 3 && (memcmp(s + k, "nan", 3) == 0 ||
			   memcmp(s + k, "inf", 3) == 0)) {
		d = s[k] == 'n' ? NAN : INFINITY;
		*out = dl_float_bits(k > 0 ? copysign(d, -1.0) : d);
		return true;
	}
	k = 0;
	/* a float printed without its point ("3", "1e+20") gets ".0"
	 * before its exponent, to be a literal dl_float_read reads */
	if (n > DL_FLOAT_TEXT_MAX)
		return false;
	if (memchr(s, '.', n) != NULL) {
		memcpy(buf, s, n);
		o = n;
	} else {
		if (k < n && s[k] == '-')
			k++;
		while (k < n && s[k] >= '0' && s[k] <= '9')
			k++;
		memcpy(buf, s, k);
		memcpy(buf + k, ".0", 2);
		memcpy(buf + k + 2, s + k, n - k);
		o = n + 2;
	}
	if (!dl_float_read(buf, o, &d))
		return false;
	*out = dl_float_bits(d);
	return true;
}

/* A number or symbol field: its text runs to the next ',' or the closing
 * bracket of its record (Souffle's reader does the same: a symbol inside a
 * record cannot hold those). */
static maelys_datalog_status_t
dl_rr_atom(struct dl_rr *r, maelys_datalog_column_type_t base, char close,
	   dl_value *out)
{
	size_t start, end;

	dl_rr_space(r);
	if (base == MAELYS_DATALOG_COLUMN_SYMBOL && r->i < r->n &&
	    r->s[r->i] == '"')
		return dl_rr_quoted(r, out);
	start = r->i;
	while (r->i < r->n && r->s[r->i] != ',' && r->s[r->i] != close)
		r->i++;
	end = r->i;
	if (base == MAELYS_DATALOG_COLUMN_FLOAT ||
	    base == MAELYS_DATALOG_COLUMN_UNSIGNED) {
		int64_t bits;

		while (end > start && r->s[end - 1] == ' ')
			end--;
		r->i = start; /* an error points at the field */
		if (!dl_rr_number(r->s + start, end - start, base, &bits))
			return dl_rr_fail(r, base == MAELYS_DATALOG_COLUMN_FLOAT
						 ? "a float"
						 : "an unsigned");
		r->i = end;
		while (r->i < r->n && r->s[r->i] == ' ')
			r->i++;
		if (dl_rr_int(r, bits, out) != 0)
			return dl_fail(r->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
				       "out of memory reading a record");
		return MAELYS_DATALOG_STATUS_OK;
	}
	if (base == MAELYS_DATALOG_COLUMN_NUMBER) {
		uint64_t v = 0, lim = (uint64_t)INT64_MAX;
		size_t k = start;
		bool neg = false;

		while (end > start && r->s[end - 1] == ' ')
			end--;
		if (k < end && r->s[k] == '-') {
			neg = true;
			lim++;
			k++;
		}
		r->i = start; /* an error points at the field */
		if (k == end)
			return dl_rr_fail(r, "a number");
		for (; k < end; k++) {
			unsigned d = (unsigned)((unsigned char)r->s[k] - '0');

			if (d > 9 || v > (lim - d) / 10)
				return dl_rr_fail(r, "a number");
			v = v * 10 + d;
		}
		r->i = end;
		while (r->i < r->n && r->s[r->i] == ' ')
			r->i++;
		if (dl_rr_int(r, neg ? (int64_t)(0u - v) : (int64_t)v, out) !=
		    0)
			return dl_fail(r->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
				       "out of memory reading a record");
		return MAELYS_DATALOG_STATUS_OK;
	}
	if (end - start > DL_SYMBOL_LEN_MAX)
		return dl_fail(r->diag, MAELYS_DATALOG_STATUS_LIMIT,
			       "symbol in a record longer than %zu bytes",
			       DL_SYMBOL_LEN_MAX);
	if (dl_rr_str(r, r->s + start, end - start, out) != 0)
		return dl_fail(r->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
			       "out of memory reading a record");
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_rr_value(struct dl_rr *r, maelys_datalog_column_type_t base, uint32_t rtype,
	    unsigned depth, dl_value *out)
{
	dl_value fields[DL_RECORD_FIELDS_MAX];
	const struct dl_rtype *t;
	const struct dl_rbranch *b;
	uint32_t branch = 0, k;
	char close;

	if (base != MAELYS_DATALOG_COLUMN_RECORD || rtype == DL_NONE)
		return dl_rr_fail(r, "a record"); /* not reached: by type */
	if (depth > DL_RECORD_DEPTH_MAX)
		return dl_fail(r->diag, MAELYS_DATALOG_STATUS_LIMIT,
			       "record text nested deeper than %d",
			       DL_RECORD_DEPTH_MAX);
	t = &r->prog->rtypes[rtype];
	dl_rr_space(r);
	if (!t->adt && r->n - r->i >= 3 && memcmp(r->s + r->i, "nil", 3) == 0) {
		r->i += 3;
		if (dl_rr_nil(r, out) != 0)
			return dl_fail(r->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
				       "out of memory reading a record");
		return MAELYS_DATALOG_STATUS_OK;
	}
	if (t->adt) {
		size_t start;

		if (!dl_rr_eat(r, '$'))
			return dl_rr_fail(r, "'$' and a branch name");
		start = r->i;
		/* a name, or a component instance's qualified one
		 * ($Inst.B: a '.' then a letter, '_' or '?') */
		while (r->i < r->n &&
		       ((r->s[r->i] >= 'a' && r->s[r->i] <= 'z') ||
			(r->s[r->i] >= 'A' && r->s[r->i] <= 'Z') ||
			(r->s[r->i] >= '0' && r->s[r->i] <= '9') ||
			r->s[r->i] == '_' || r->s[r->i] == '?' ||
			(r->s[r->i] == '.' && r->i > start &&
			 r->i + 1 < r->n &&
			 ((r->s[r->i + 1] >= 'a' && r->s[r->i + 1] <= 'z') ||
			  (r->s[r->i + 1] >= 'A' && r->s[r->i + 1] <= 'Z') ||
			  r->s[r->i + 1] == '_' || r->s[r->i + 1] == '?'))))
			r->i++;
		for (branch = 0; branch < t->nbranches; branch++)
			if (strlen(t->branches[branch].name) == r->i - start &&
			    memcmp(t->branches[branch].name, r->s + start,
				   r->i - start) == 0)
				break;
		if (branch == t->nbranches)
			return dl_rr_fail(r, "a branch of the type");
		b = &t->branches[branch];
		close = ')';
		if (!dl_rr_eat(r, '(')) {
			if (b->nfields > 0)
				return dl_rr_fail(r, "'('");
			return dl_rr_make(r, rtype, t, branch, NULL, 0, out) ==
				       0
				   ? MAELYS_DATALOG_STATUS_OK
				   : dl_fail(r->diag,
					     MAELYS_DATALOG_STATUS_NO_MEMORY,
					     "out of memory reading a record");
		}
	} else {
		b = &t->branches[0];
		close = ']';
		if (!dl_rr_eat(r, '['))
			return dl_rr_fail(r, "'[' or nil");
	}
	for (k = 0; k < b->nfields; k++) {
		maelys_datalog_status_t st;

		if (k > 0 && !dl_rr_eat(r, ','))
			return dl_rr_fail(r, "','");
		if (b->fields[k].base == MAELYS_DATALOG_COLUMN_RECORD)
			st = dl_rr_value(r, b->fields[k].base,
					 b->fields[k].rtype, depth + 1,
					 &fields[k]);
		else
			st =
			    dl_rr_atom(r, b->fields[k].base, close, &fields[k]);
		if (st != MAELYS_DATALOG_STATUS_OK)
			return st;
	}
	if (!dl_rr_eat(r, close))
		return dl_rr_fail(r, close == ']' ? "']'" : "')'");
	if (dl_rr_make(r, rtype, t, branch, fields, b->nfields, out) != 0)
		return dl_fail(r->diag, MAELYS_DATALOG_STATUS_NO_MEMORY,
			       "out of memory reading a record");
	return MAELYS_DATALOG_STATUS_OK;
}

static maelys_datalog_status_t
dl_record_scan(const struct dl_program *prog, const struct dl_symview *syms,
	       uint32_t rtype, const char *text, size_t len, bool lookup,
	       dl_value *out, bool *known, maelys_datalog_diagnostic_t *diag)
{
	struct dl_rr r;
	maelys_datalog_status_t st;

	if (rtype >= prog->nrtypes)
		return dl_fail(diag, MAELYS_DATALOG_STATUS_INVALID_ARGUMENT,
			       "no such record type");
	r.prog = prog;
	r.syms = syms;
	r.s = text;
	r.n = len;
	r.i = 0;
	r.diag = diag;
	r.lookup = lookup;
	r.unknown = false;
	st = dl_rr_value(&r, MAELYS_DATALOG_COLUMN_RECORD, rtype, 0, out);
	if (st != MAELYS_DATALOG_STATUS_OK)
		return st;
	dl_rr_space(&r);
	if (r.i != r.n)
		return dl_rr_fail(&r, "the end of the record");
	*known = !r.unknown;
	return MAELYS_DATALOG_STATUS_OK;
}

maelys_datalog_status_t
dl_record_read(const struct dl_program *prog, const struct dl_symview *syms,
	       uint32_t rtype, const char *text, size_t len, dl_value *out,
	       maelys_datalog_diagnostic_t *diag)
{
	bool known;

	return dl_record_scan(prog, syms, rtype, text, len, false, out, &known,
			      diag);
}

maelys_datalog_status_t
dl_record_find(const struct dl_program *prog, const struct dl_symview *syms,
	       uint32_t rtype, const char *text, size_t len, dl_value *out,
	       bool *known)
{
	maelys_datalog_status_t st;

	*known = false;
	st = dl_record_scan(prog, syms, rtype, text, len, true, out, known,
			    NULL);
	if (st != MAELYS_DATALOG_STATUS_OK)
		*known = false; /* text that is no value names none */
	return st == MAELYS_DATALOG_STATUS_NO_MEMORY ? st
						     : MAELYS_DATALOG_STATUS_OK;
}

/* ------------------------------------------------------------------ */
/* Re-binding a rule's variables (provenance, why_not)                  */

int
dl_record_rebind(const struct dl_symview *syms, const struct dl_crec *x,
		 uint32_t *regs, bool *bound, dl_value unknown)
{
	uint32_t h = x->adt ? 2u : 1u, n, k;
	dl_value w[DL_RECORD_FIELDS_MAX + 2];

	if (bound[x->target]) {
		const dl_value *rw;

		if (regs[x->target] == unknown) {
			for (k = 0; k < x->nargs; k++) {
				if (x->args[k].kind == DL_CT_VAR &&
				    !bound[x->args[k].v]) {
					regs[x->args[k].v] = unknown;
					bound[x->args[k].v] = true;
				}
			}
			return 1;
		}
		rw = dl_symview_record(syms, regs[x->target], &n);
		if (rw == NULL || n != h + x->nargs || rw[0] != x->rtype ||
		    (x->adt && rw[1] != x->branch))
			return -1;
		for (k = 0; k < x->nargs; k++) {
			const struct dl_cterm *a = &x->args[k];

			if (a->kind == DL_CT_ANON)
				continue;
			if (a->kind == DL_CT_CONST) {
				if (a->v != rw[h + k])
					return -1;
			} else if (!bound[a->v]) {
				regs[a->v] = rw[h + k];
				bound[a->v] = true;
			} else if (regs[a->v] != rw[h + k] &&
				   regs[a->v] != unknown) {
				return -1;
			}
		}
		return 1;
	}
	if (x->nargs > DL_RECORD_FIELDS_MAX)
		return 0;
	w[0] = x->rtype;
	w[1] = x->branch;
	for (k = 0; k < x->nargs; k++) {
		const struct dl_cterm *a = &x->args[k];

		if (a->kind == DL_CT_ANON ||
		    (a->kind == DL_CT_VAR && !bound[a->v]))
			return 0;
		w[h + k] = a->kind == DL_CT_CONST ? a->v : regs[a->v];
		if (w[h + k] == unknown) {
			regs[x->target] = unknown;
			bound[x->target] = true;
			return 1;
		}
	}
	if (!dl_symview_find_record(syms, w, h + x->nargs, &regs[x->target]))
		regs[x->target] = unknown; /* built by no solve: in no row */
	bound[x->target] = true;
	return 1;
}
