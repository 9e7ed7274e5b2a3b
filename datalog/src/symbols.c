/* SPDX-License-Identifier: MIT */
/*
 * Interning of strings and boxed integers into the two-layer symbol space of
 * dl_symbols.h.  Each table is an array of entries (by id) plus an
 * open-addressed hash of ids, grown at half load.
 */
#include "dl_symbols.h"

#include "dl_hash.h"

#include <string.h>

void
dl_symtab_init(struct dl_symtab *t, uint32_t base)
{
	memset(t, 0, sizeof *t);
	t->base = base;
	dl_arena_init(&t->text);
}

void
dl_symtab_free(struct dl_symtab *t)
{
	dl_free(t->syms);
	dl_free(t->slots);
	dl_free(t->words);
	dl_arena_free(&t->text);
	dl_symtab_init(t, t->base);
}

void
dl_symtab_reset(struct dl_symtab *t)
{
	if (t->count == 0)
		return;
	t->count = 0;
	t->nwords = 0;
	if (t->slots != NULL)
		memset(t->slots, 0, t->nslots * sizeof *t->slots);
	dl_arena_reset(&t->text);
}

size_t
dl_symtab_bytes(const struct dl_symtab *t)
{
	return t->cap * sizeof *t->syms + t->nslots * sizeof *t->slots +
	       t->text.total + t->cap_words * sizeof *t->words;
}

uint64_t
dl_symbol_hash_string(const char *s, size_t len)
{
	return dl_hash_bytes(s, len);
}

uint64_t
dl_symbol_hash_int(int64_t i)
{
	/* distinct from any string's hash family is not needed: entries are
	 * compared by kind as well */
	return dl_hash_mix64((uint64_t)i ^ UINT64_C(0x5bd1e9955bd1e995));
}

static bool
dl_symtab_lookup(const struct dl_symtab *t, const char *s, size_t len,
		 int64_t i, uint64_t hash, dl_value *out)
{
	size_t mask, pos;
	uint32_t slot, h32 = (uint32_t)hash;

	if (t->nslots == 0)
		return false;
	mask = t->nslots - 1;
	for (pos = (size_t)hash & mask;; pos = (pos + 1) & mask) {
		const struct dl_sym *e;

		slot = t->slots[pos];
		if (slot == 0)
			return false;
		e = &t->syms[slot - 1];
		if (e->hash != h32)
			continue;
		if (s != NULL) {
			if (e->text != NULL && e->len == len &&
			    memcmp(e->text, s, len) == 0)
				break;
		} else if (e->text == NULL && e->len == 0 &&
			   e->integer == i) {
			break;
		}
	}
	*out = t->base + slot - 1;
	return true;
}

bool
dl_symtab_find_string(const struct dl_symtab *t, const char *s, size_t len,
		      uint64_t hash, dl_value *out)
{
	return dl_symtab_lookup(t, s == NULL ? "" : s, len, 0, hash, out);
}

bool
dl_symtab_find_int(const struct dl_symtab *t, int64_t i, uint64_t hash,
		   dl_value *out)
{
	return dl_symtab_lookup(t, NULL, 0, i, hash, out);
}

static int
dl_symtab_rehash(struct dl_symtab *t, size_t nslots)
{
	uint32_t *slots = dl_calloc(nslots, sizeof *slots);
	size_t i, mask = nslots - 1;

	if (slots == NULL)
		return -1;
	for (i = 0; i < t->count; i++) {
		size_t pos = (size_t)t->syms[i].hash & mask;

		while (slots[pos] != 0)
			pos = (pos + 1) & mask;
		slots[pos] = (uint32_t)(i + 1);
	}
	dl_free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
	return 0;
}

static int
dl_symtab_append(struct dl_symtab *t, const char *text, size_t len, int64_t i,
		 uint64_t hash, dl_value *out)
{
	struct dl_sym *e;
	size_t pos, mask;

	if ((uint64_t)t->base + t->count >= DL_SYMBOL_ID_MAX)
		return -1;
	if (dl_vec_reserve((void **)&t->syms, &t->cap, t->count + 1,
			   sizeof *t->syms) != 0)
		return -1;
	/* keep the hash at most half full */
	if (t->nslots == 0 || (t->count + 1) * 2 > t->nslots) {
		size_t n = t->nslots == 0 ? 16 : t->nslots * 2;

		if (n == 0 || dl_symtab_rehash(t, n) != 0)
			return -1;
	}
	e = &t->syms[t->count];
	if (text != NULL) {
		e->text = dl_arena_strndup(&t->text, text, len);
		if (e->text == NULL)
			return -1;
	} else {
		e->text = NULL;
	}
	e->len = (uint32_t)len;
	e->hash = (uint32_t)hash;
	e->integer = i;
	mask = t->nslots - 1;
	for (pos = (size_t)hash & mask; t->slots[pos] != 0;
	     pos = (pos + 1) & mask)
		;
	t->slots[pos] = (uint32_t)(t->count + 1);
	*out = t->base + (uint32_t)t->count;
	t->count++;
	return 0;
}

int
dl_symtab_add_string(struct dl_symtab *t, const char *s, size_t len,
		     uint64_t hash, dl_value *out)
{
	if (len > DL_SYMBOL_LEN_MAX)
		return -1;
	return dl_symtab_append(t, s == NULL ? "" : s, len, 0, hash, out);
}

int
dl_symtab_add_int(struct dl_symtab *t, int64_t i, uint64_t hash, dl_value *out)
{
	return dl_symtab_append(t, NULL, 0, i, hash, out);
}

const struct dl_sym *
dl_symview_get(const struct dl_symview *v, dl_value id)
{
	if (dl_value_is_inline_int(id))
		return NULL;
	if (v->policy != NULL && id - v->policy->base < v->policy->count)
		return &v->policy->syms[id - v->policy->base];
	if (v->overlay != NULL && id >= v->overlay->base &&
	    id - v->overlay->base < v->overlay->count)
		return &v->overlay->syms[id - v->overlay->base];
	return NULL;
}

bool
dl_symview_find_string(const struct dl_symview *v, const char *s, size_t len,
		       dl_value *out)
{
	uint64_t h = dl_symbol_hash_string(s, len);

	if (v->policy != NULL &&
	    dl_symtab_find_string(v->policy, s, len, h, out))
		return true;
	return v->overlay != NULL &&
	       dl_symtab_find_string(v->overlay, s, len, h, out);
}

int
dl_symview_intern_string(const struct dl_symview *v, const char *s, size_t len,
			 dl_value *out)
{
	uint64_t h = dl_symbol_hash_string(s, len);

	if (v->policy != NULL &&
	    dl_symtab_find_string(v->policy, s, len, h, out))
		return 0;
	if (v->overlay == NULL)
		return -1;
	if (dl_symtab_find_string(v->overlay, s, len, h, out))
		return 0;
	return dl_symtab_add_string(v->overlay, s, len, h, out);
}

bool
dl_symview_find_int(const struct dl_symview *v, int64_t i, dl_value *out)
{
	uint64_t h;

	if (i >= DL_INLINE_INT_MIN && i <= DL_INLINE_INT_MAX) {
		*out = dl_value_make_inline_int(i);
		return true;
	}
	h = dl_symbol_hash_int(i);
	if (v->policy != NULL && dl_symtab_find_int(v->policy, i, h, out))
		return true;
	return v->overlay != NULL && dl_symtab_find_int(v->overlay, i, h, out);
}

int
dl_symview_intern_int(const struct dl_symview *v, int64_t i, dl_value *out)
{
	uint64_t h;

	if (dl_symview_find_int(v, i, out))
		return 0;
	if (v->overlay == NULL)
		return -1;
	h = dl_symbol_hash_int(i);
	return dl_symtab_add_int(v->overlay, i, h, out);
}

bool
dl_symview_value_int(const struct dl_symview *v, dl_value x, int64_t *out)
{
	const struct dl_sym *s;

	if (dl_value_is_inline_int(x)) {
		*out = dl_value_inline_int(x);
		return true;
	}
	s = dl_symview_get(v, x);
	if (s == NULL || s->text != NULL || dl_sym_is_record(s))
		return false;
	*out = s->integer;
	return true;
}

/* Records: the hash of their words, compared word by word. */
static uint64_t
dl_symbol_hash_record(const dl_value *w, uint32_t n)
{
	static const dl_value none[1] = {0};

	/* nil's words may be a NULL pointer: hash a non-NULL one */
	return dl_hash_bytes(n == 0 ? none : w, (size_t)n * sizeof *w) ^
	       UINT64_C(0x9e3779b97f4a7c15);
}

static bool
dl_symtab_find_record(const struct dl_symtab *t, const dl_value *w,
		      uint32_t n, uint64_t hash, dl_value *out)
{
	size_t mask, pos;
	uint32_t h32 = (uint32_t)hash;

	if (t->nslots == 0)
		return false;
	mask = t->nslots - 1;
	for (pos = (size_t)hash & mask;; pos = (pos + 1) & mask) {
		uint32_t slot = t->slots[pos];
		const struct dl_sym *e;

		if (slot == 0)
			return false;
		e = &t->syms[slot - 1];
		if (e->hash != h32 || !dl_sym_is_record(e) ||
		    (e->len & ~DL_SYM_RECORD) != n)
			continue;
		if (n == 0 || memcmp(t->words + e->integer, w,
				     (size_t)n * sizeof *w) == 0) {
			*out = t->base + slot - 1;
			return true;
		}
	}
}

static int
dl_symtab_add_record(struct dl_symtab *t, const dl_value *w, uint32_t n,
		     uint64_t hash, dl_value *out)
{
	size_t first = t->nwords;
	struct dl_sym *e;

	if (dl_vec_reserve((void **)&t->words, &t->cap_words, first + n,
			   sizeof *t->words) != 0)
		return -1;
	if (dl_symtab_append(t, NULL, 0, (int64_t)first, hash, out) != 0)
		return -1;
	if (n > 0)
		memcpy(t->words + first, w, (size_t)n * sizeof *w);
	t->nwords = first + n;
	e = &t->syms[*out - t->base];
	e->len = n | DL_SYM_RECORD;
	return 0;
}

bool
dl_symview_find_record(const struct dl_symview *v, const dl_value *w,
		       uint32_t n, dl_value *out)
{
	uint64_t h = dl_symbol_hash_record(w, n);

	if (v->policy != NULL && dl_symtab_find_record(v->policy, w, n, h, out))
		return true;
	return v->overlay != NULL &&
	       dl_symtab_find_record(v->overlay, w, n, h, out);
}

int
dl_symview_intern_record(const struct dl_symview *v, const dl_value *w,
			 uint32_t n, dl_value *out)
{
	if (n >= DL_SYM_RECORD)
		return -1;
	if (dl_symview_find_record(v, w, n, out))
		return 0;
	if (v->overlay == NULL)
		return -1;
	return dl_symtab_add_record(v->overlay, w, n,
				    dl_symbol_hash_record(w, n), out);
}

const dl_value *
dl_symview_record(const struct dl_symview *v, dl_value x, uint32_t *n)
{
	const struct dl_symtab *t = NULL;
	const struct dl_sym *s;

	*n = 0;
	if (dl_value_is_inline_int(x))
		return NULL;
	if (v->policy != NULL && x - v->policy->base < v->policy->count)
		t = v->policy;
	else if (v->overlay != NULL && x >= v->overlay->base &&
		 x - v->overlay->base < v->overlay->count)
		t = v->overlay;
	if (t == NULL)
		return NULL;
	s = &t->syms[x - t->base];
	if (!dl_sym_is_record(s))
		return NULL;
	*n = s->len & ~DL_SYM_RECORD;
	if (*n == 0) {
		/* nil has no words, and words[] may not exist yet */
		static const dl_value none[1] = {0};

		return none;
	}
	return t->words + s->integer;
}
