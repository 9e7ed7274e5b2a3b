/* SPDX-License-Identifier: MIT */
/*
 * Memory for the library: every allocation goes through dl_alloc() and
 * friends so that a test build (DL_TESTING) can fail the Nth one, and every
 * size computation goes through the overflow-checked helpers here.  The arena
 * hands out memory whose lifetimes end together (one load, one solve).
 */
#ifndef DL_MEM_H
#define DL_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void *dl_alloc(size_t size);
void *dl_calloc(size_t count, size_t size);
void *dl_realloc(void *ptr, size_t size);
void dl_free(void *ptr);

/* a * b, or false when it would wrap. */
static inline bool
dl_size_mul(size_t a, size_t b, size_t *out)
{
	return !__builtin_mul_overflow(a, b, out);
}

/* a + b, or false when it would wrap. */
static inline bool
dl_size_add(size_t a, size_t b, size_t *out)
{
	return !__builtin_add_overflow(a, b, out);
}

/* Grows *vec (of *cap elements of `elem` bytes) so that it holds at least
 * `need` elements; doubles.  Returns 0, or -1 on overflow or no memory (the
 * old vector is untouched). */
int dl_vec_reserve(void **vec, size_t *cap, size_t need, size_t elem);

#ifdef DL_TESTING
/* Fault injection for tests: the `nth` allocation from now fails (1 = the
 * next one); 0 disables.  Returns how many allocations were made since the
 * last call. */
size_t dl_mem_fail_after(size_t nth);
#endif

/* A bump allocator: chunks are freed together by dl_arena_free, or kept and
 * reused by dl_arena_reset. */
struct dl_arena_chunk;
struct dl_arena {
	struct dl_arena_chunk *head; /* the chunk being filled */
	size_t used;                 /* bytes used in head */
	size_t total;                /* bytes of all chunks, for budgets */
};

void dl_arena_init(struct dl_arena *a);
void *dl_arena_alloc(struct dl_arena *a, size_t size);
/* A copy of `len` bytes plus a terminating NUL. */
char *dl_arena_strndup(struct dl_arena *a, const char *s, size_t len);
/* Forgets everything allocated but keeps the largest chunk for reuse. */
void dl_arena_reset(struct dl_arena *a);
void dl_arena_free(struct dl_arena *a);

#endif /* DL_MEM_H */
