/* SPDX-License-Identifier: MIT */
/*
 * Hashing of byte strings (symbols) and of tuples of 32-bit values (relation
 * sets and indexes).  Not cryptographic: tables are open-addressed with a
 * bounded load, and every input to them is bounded by the budgets.
 */
#ifndef DL_HASH_H
#define DL_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* MurmurHash3's 64-bit finaliser: every input bit reaches every output bit. */
static inline uint64_t
dl_hash_mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= UINT64_C(0xff51afd7ed558ccd);
	h ^= h >> 33;
	h *= UINT64_C(0xc4ceb9fe1a85ec53);
	h ^= h >> 33;
	return h;
}

static inline uint64_t
dl_hash_bytes(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ (uint64_t)len;
	uint64_t w;

	while (len >= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * UINT64_C(0x100000001b3) +
		    UINT64_C(0x2545f4914f6cdd1d);
		h ^= h >> 29;
		p += 8;
		len -= 8;
	}
	w = 0;
	if (len > 0)
		memcpy(&w, p, len);
	h = (h ^ w) * UINT64_C(0x100000001b3);
	return dl_hash_mix64(h);
}

/* Continue a tuple hash with one more column. */
static inline uint64_t
dl_hash_step(uint64_t h, uint32_t v)
{
	return (h ^ v) * UINT64_C(0x9e3779b97f4a7c15);
}

#define DL_HASH_SEED UINT64_C(0x2545f4914f6cdd1d)

static inline uint64_t
dl_hash_finish(uint64_t h)
{
	return dl_hash_mix64(h);
}

#endif /* DL_HASH_H */
