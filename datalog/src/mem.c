/* SPDX-License-Identifier: MIT */
/*
 * The allocation wrappers, the vector helper and the arena.  In a DL_TESTING
 * build a countdown makes the Nth allocation fail, so tests can prove that
 * every NO_MEMORY path unwinds without a leak (SQLite's fault tests).  The
 * countdown is the only writable file-scope state and exists only in that
 * build; the shipped library has none here.
 */
#include "dl_mem.h"

#include <stdlib.h>
#include <string.h>

#ifdef DL_TESTING
static _Thread_local size_t dl_fail_countdown;
static _Thread_local size_t dl_alloc_count;

size_t
dl_mem_fail_after(size_t nth)
{
	size_t n = dl_alloc_count;

	dl_fail_countdown = nth;
	dl_alloc_count = 0;
	return n;
}

static bool
dl_mem_should_fail(void)
{
	dl_alloc_count++;
	if (dl_fail_countdown == 0)
		return false;
	return --dl_fail_countdown == 0;
}
#else
static inline bool
dl_mem_should_fail(void)
{
	return false;
}
#endif

void *
dl_alloc(size_t size)
{
	if (dl_mem_should_fail())
		return NULL;
	return malloc(size == 0 ? 1 : size);
}

void *
dl_calloc(size_t count, size_t size)
{
	if (dl_mem_should_fail())
		return NULL;
	if (count == 0 || size == 0)
		return calloc(1, 1);
	return calloc(count, size);
}

void *
dl_realloc(void *ptr, size_t size)
{
	if (dl_mem_should_fail())
		return NULL;
	return realloc(ptr, size == 0 ? 1 : size);
}

void
dl_free(void *ptr)
{
	free(ptr);
}

int
dl_vec_reserve(void **vec, size_t *cap, size_t need, size_t elem)
{
	size_t ncap, bytes;
	void *p;

	if (need <= *cap)
		return 0;
	ncap = *cap < 8 ? 8 : *cap;
	while (ncap < need) {
		if (!dl_size_mul(ncap, 2, &ncap))
			return -1;
	}
	if (!dl_size_mul(ncap, elem, &bytes))
		return -1;
	p = dl_realloc(*vec, bytes);
	if (p == NULL)
		return -1;
	*vec = p;
	*cap = ncap;
	return 0;
}

struct dl_arena_chunk {
	struct dl_arena_chunk *next;
	size_t cap;
	_Alignas(16) unsigned char data[];
};

#define DL_ALIGN           ((size_t)16)
#define DL_ARENA_CHUNK_MIN ((size_t)4096)

void
dl_arena_init(struct dl_arena *a)
{
	a->head = NULL;
	a->used = 0;
	a->total = 0;
}

static int
dl_arena_grow(struct dl_arena *a, size_t need)
{
	struct dl_arena_chunk *c;
	size_t cap = DL_ARENA_CHUNK_MIN, bytes;

	if (a->head != NULL && a->head->cap > cap / 2 &&
	    a->head->cap <= SIZE_MAX / 4)
		cap = a->head->cap * 2; /* geometric: few chunks */
	while (cap < need) {
		if (!dl_size_mul(cap, 2, &cap))
			return -1;
	}
	if (!dl_size_add(sizeof *c, cap, &bytes))
		return -1;
	c = dl_alloc(bytes);
	if (c == NULL)
		return -1;
	c->cap = cap;
	c->next = a->head;
	a->head = c;
	a->used = 0;
	a->total += cap;
	return 0;
}

void *
dl_arena_alloc(struct dl_arena *a, size_t size)
{
	size_t need;

	if (size > SIZE_MAX - (DL_ALIGN - 1))
		return NULL; /* rounding up would wrap */
	need = (size + DL_ALIGN - 1) & ~(DL_ALIGN - 1);
	if (need == 0)
		need = DL_ALIGN;
	/* "cap - used < need", never "used + need > cap": it cannot wrap */
	if ((a->head == NULL || a->head->cap - a->used < need) &&
	    dl_arena_grow(a, need) != 0)
		return NULL;
	a->used += need;
	return a->head->data + (a->used - need);
}

char *
dl_arena_strndup(struct dl_arena *a, const char *s, size_t len)
{
	char *p;

	if (len == SIZE_MAX)
		return NULL;
	p = dl_arena_alloc(a, len + 1);
	if (p == NULL)
		return NULL;
	if (len > 0)
		memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void
dl_arena_reset(struct dl_arena *a)
{
	struct dl_arena_chunk *keep = a->head, *c, *next;

	if (keep == NULL)
		return;
	/* the head is the newest and largest chunk: keep it alone */
	for (c = keep->next; c != NULL; c = next) {
		next = c->next;
		dl_free(c);
	}
	keep->next = NULL;
	a->used = 0;
	a->total = keep->cap;
}

void
dl_arena_free(struct dl_arena *a)
{
	struct dl_arena_chunk *c, *next;

	for (c = a->head; c != NULL; c = next) {
		next = c->next;
		dl_free(c);
	}
	dl_arena_init(a);
}
