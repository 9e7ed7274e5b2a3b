/* SPDX-License-Identifier: MIT */
/*
 * fuzz.h - what the fuzz targets and the corpus replay driver share: the
 * libFuzzer entry point (declared here so that -Wmissing-prototypes holds
 * for the targets, which define it, and for replay.c, which calls it) and
 * the rule that turns an input's first byte into load flags.
 */
#ifndef MAELYS_FUZZ_H
#define MAELYS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include <maelys/datalog.h>

/* Called once per input by libFuzzer, or by replay.c for each corpus file.
 * Returns 0; anything wrong with the engine aborts (a crash is the report). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The first byte of every input picks the syntax, so that one corpus covers
 * both readers and the fuzzer flips between them with one mutation: odd is
 * Souffle's syntax, 'D' asks the loader to detect it, any other even byte is
 * the native dialect.  Seed files start with a line "N", "S" or "D" (N and D
 * even, S odd) so that a person reading them sees which one they exercise.
 */
static inline unsigned
fuzz_syntax_flags(uint8_t first)
{
	if (first & 1u)
		return MAELYS_DATALOG_LOAD_SOUFFLE;
	if (first == 'D')
		return MAELYS_DATALOG_LOAD_DETECT_SYNTAX;
	return 0;
}

#endif /* MAELYS_FUZZ_H */
