/* SPDX-License-Identifier: MIT */
/*
 * Values and the symbol tables that give them meaning.
 *
 * A value is 32 bits, so tuples are fixed-width arrays of uint32_t:
 *   bit 31 set    an integer in [-2^30, 2^30) stored inline;
 *   bit 31 clear  an id in the symbol space: a string, or an integer too big
 *                 to be inline ("boxed").
 * Interning is canonical (one id per string, per boxed integer; small
 * integers are never boxed), so two values are equal iff their bits are.
 *
 * The symbol space has two layers: the policy's table, frozen at load and
 * shared by every session and thread (ids 0 .. base-1), and an overlay per
 * solve for the strings the input brings (ids base ..).  An input string
 * that the policy already knows gets the policy's id.
 */
#ifndef DL_SYMBOLS_H
#define DL_SYMBOLS_H

#include "dl_mem.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint32_t dl_value;

#define DL_VALUE_INT_FLAG UINT32_C(0x80000000)
#define DL_INLINE_INT_MIN (-(INT64_C(1) << 30))
#define DL_INLINE_INT_MAX ((INT64_C(1) << 30) - 1)
/* The largest symbol id: ids stay below the integer flag. */
#define DL_SYMBOL_ID_MAX  UINT32_C(0x7ffffffe)
/* The longest string a symbol may have (a hard limit, STATUS_LIMIT). */
#define DL_SYMBOL_LEN_MAX ((size_t)65535)

static inline bool
dl_value_is_inline_int(dl_value v)
{
	return (v & DL_VALUE_INT_FLAG) != 0;
}

static inline int64_t
dl_value_inline_int(dl_value v)
{
	/* sign-extend the low 31 bits */
	return (int64_t)((int32_t)(v << 1) >> 1);
}

static inline dl_value
dl_value_make_inline_int(int64_t i)
{
	return ((uint32_t)i & ~DL_VALUE_INT_FLAG) | DL_VALUE_INT_FLAG;
}

struct dl_sym {
	const char *text; /* NUL-terminated; NULL for a boxed integer */
	uint32_t len;
	uint32_t hash;
	int64_t integer; /* the boxed integer when text == NULL */
};

/* A record or an algebraic data type's value (dl_record.h) is a symbol too:
 * text NULL, len its number of words with DL_SYM_RECORD set, and integer the
 * index of its first word in its table's words[].  (A boxed integer has len
 * 0, a string a non-NULL text: the three never meet.) */
#define DL_SYM_RECORD UINT32_C(0x80000000)

static inline bool
dl_sym_is_record(const struct dl_sym *s)
{
	return s->text == NULL && (s->len & DL_SYM_RECORD) != 0;
}

struct dl_symtab {
	uint32_t base;       /* id of syms[0] */
	struct dl_sym *syms; /* by id - base */
	size_t count, cap;
	uint32_t *slots;      /* open addressing: id - base + 1, 0 = empty */
	size_t nslots;        /* a power of two, or 0 */
	struct dl_arena text; /* the strings */
	dl_value *words;      /* the records' words, by dl_sym.integer */
	size_t nwords, cap_words;
};

void dl_symtab_init(struct dl_symtab *t, uint32_t base);
void dl_symtab_free(struct dl_symtab *t);
/* Forgets every symbol but keeps the memory (the per-solve overlay). */
void dl_symtab_reset(struct dl_symtab *t);
/* Bytes this table holds, for the memory budget. */
size_t dl_symtab_bytes(const struct dl_symtab *t);

/* Finds a string; returns its value or false. */
bool dl_symtab_find_string(const struct dl_symtab *t, const char *s, size_t len,
			   uint64_t hash, dl_value *out);
bool dl_symtab_find_int(const struct dl_symtab *t, int64_t i, uint64_t hash,
			dl_value *out);
/* Interns into this table (the caller has looked in lower layers first).
 * Returns 0, or -1 on no memory or when ids run out. */
int dl_symtab_add_string(struct dl_symtab *t, const char *s, size_t len,
			 uint64_t hash, dl_value *out);
int dl_symtab_add_int(struct dl_symtab *t, int64_t i, uint64_t hash,
		      dl_value *out);

uint64_t dl_symbol_hash_string(const char *s, size_t len);
uint64_t dl_symbol_hash_int(int64_t i);

/* The two layers seen together: lookups try the policy, then the overlay;
 * interning adds to the overlay (which may be NULL when nothing may be
 * added, for a lookup-only view). */
struct dl_symview {
	const struct dl_symtab *policy;
	struct dl_symtab *overlay;
};

const struct dl_sym *dl_symview_get(const struct dl_symview *v, dl_value id);
/* Interns a string / integer through the view.  Returns 0, or -1 (no
 * memory, or overlay NULL and the value unknown: *found false). */
int dl_symview_intern_string(const struct dl_symview *v, const char *s,
			     size_t len, dl_value *out);
int dl_symview_intern_int(const struct dl_symview *v, int64_t i, dl_value *out);
/* Looks a value up without interning; false if no layer has it. */
bool dl_symview_find_string(const struct dl_symview *v, const char *s,
			    size_t len, dl_value *out);
bool dl_symview_find_int(const struct dl_symview *v, int64_t i, dl_value *out);

/* Interns the record of `n` words (dl_record.h says what they are) through
 * the view, as dl_symview_intern_string does.  Returns 0 or -1. */
int dl_symview_intern_record(const struct dl_symview *v, const dl_value *w,
			     uint32_t n, dl_value *out);
bool dl_symview_find_record(const struct dl_symview *v, const dl_value *w,
			    uint32_t n, dl_value *out);
/* The words of record x (*n of them), or NULL when x is no record. */
const dl_value *dl_symview_record(const struct dl_symview *v, dl_value x,
				  uint32_t *n);

/* Whether a value is an integer (inline or boxed), and which. */
bool dl_symview_value_int(const struct dl_symview *v, dl_value x, int64_t *out);

#endif /* DL_SYMBOLS_H */
