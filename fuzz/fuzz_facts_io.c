/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the .facts reader of maelys-datalog
 * (datalog/tools/facts_io.c): Souffle's CSV options, quoted fields that go
 * on over lines, headers, delimiters of several bytes.  The input is four
 * selector bytes, then the file:
 *
 *   byte 0: bit 0 rfc4180=true, bit 1 headers=true, bit 2 Souffle's reading
 *           (extra columns ignored)
 *   byte 1: the arity, modulo MAELYS_DATALOG_MAX_ARITY + 1
 *   byte 2: the column types, two bits a column in turn (any, symbol,
 *           number)
 *   byte 3: the delimiter, from a small table (the default among them)
 *
 * The file is read from a memory file through facts_io_read_fd, as the
 * runner reads one from disk; one that starts with gzip's magic bytes is
 * read through zlib.  It reads, or is refused with a message naming the
 * file; it never adds more facts than the file (decompressed) has lines.
 */
#define _GNU_SOURCE /* memfd_create */

#include "fuzz.h"

#include "facts_io.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <zlib.h>

/* The lines of the gzip-compressed file fd holds, decompressed as far as
 * zlib reads it (the reader cannot add a fact past that). */
static size_t
gzip_lines(int fd)
{
	static char buf[65536];
	int zfd = dup(fd);
	gzFile gz = zfd < 0 ? NULL : gzdopen(zfd, "rb");
	size_t lines = 1;
	int n, k;

	if (gz == NULL)
		abort();
	while ((n = gzread(gz, buf, sizeof buf)) > 0)
		for (k = 0; k < n; k++)
			lines += buf[k] == '\n';
	(void)gzclose(gz);
	if (lseek(fd, 0, SEEK_SET) != 0)
		abort();
	return lines;
}

static const char *const delimiters[] = {NULL,   ",",  ", ", "BOB",
					 "\t\t", "\"", "|"};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const maelys_datalog_column_type_t kinds[] = {
	    MAELYS_DATALOG_COLUMN_ANY, MAELYS_DATALOG_COLUMN_SYMBOL,
	    MAELYS_DATALOG_COLUMN_NUMBER, MAELYS_DATALOG_COLUMN_SYMBOL};
	maelys_datalog_directive_t d;
	maelys_datalog_input_edb_t *edb = NULL;
	char err[FACTS_IO_ERROR_MAX];
	size_t k, lines = 1, done = 0;
	int fd, rc;

	if (size < 4)
		return 0;
	memset(&d, 0, sizeof d);
	d.kind = MAELYS_DATALOG_DIRECTIVE_INPUT;
	d.predicate = "p";
	d.rfc4180 = data[0] & 1u;
	d.headers = (data[0] >> 1) & 1u;
	d.arity = data[1] % (MAELYS_DATALOG_MAX_ARITY + 1u);
	for (k = 0; k < d.arity; k++)
		d.columns[k] = kinds[(data[2] >> (2 * (k % 4))) & 3u];
	d.delimiter =
	    delimiters[data[3] % (sizeof delimiters / sizeof *delimiters)];
	for (k = 4; k < size; k++)
		lines += data[k] == '\n';
	fd = memfd_create("facts", MFD_CLOEXEC);
	if (fd < 0)
		return 0; /* no memory files here: nothing to fuzz */
	while (done < size - 4) {
		ssize_t w = write(fd, data + 4 + done, size - 4 - done);

		if (w <= 0)
			abort();
		done += (size_t)w;
	}
	if (lseek(fd, 0, SEEK_SET) != 0 ||
	    maelys_datalog_input_edb_create(&edb) != MAELYS_DATALOG_STATUS_OK)
		abort();
	if (size >= 6 && data[4] == 0x1f && data[5] == 0x8b)
		lines = gzip_lines(fd);
	err[0] = '\0';
	rc = facts_io_read_fd(edb, fd, "fuzz.facts", &d,
			      (data[0] & 4u) ? FACTS_IO_SOUFFLE : 0u, err,
			      sizeof err);
	if (rc != 0 && strncmp(err, "fuzz.facts", 10) != 0)
		abort(); /* a refusal names the file */
	if (rc == 0 && maelys_datalog_input_edb_count(edb) > lines)
		abort();
	(void)maelys_datalog_input_edb_free(edb);
	(void)close(fd);
	return 0;
}
