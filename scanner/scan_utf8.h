/* SPDX-License-Identifier: MIT */
/*
 * UTF-8 for the scanner: decoding one well-formed character (no overlong
 * forms, no surrogates, nothing above U+10FFFF) and telling which decoded
 * characters are unfit for a command line.
 */
#ifndef SCAN_UTF8_H
#define SCAN_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Decodes the character at s[0..len).  Returns its length (2..4) and sets
 * *cp, or 0 when the bytes are not well-formed UTF-8.  s[0] must be >= 0x80. */
size_t scan_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp);

/* A C1 control character (U+0080..U+009F): an escape sequence in disguise. */
int scan_utf8_is_control(uint32_t cp);

/* Invisible, direction-changing or space-like characters, which make a line
 * read differently from what runs: zero-width characters, bidirectional
 * controls, the soft hyphen, Unicode spaces other than U+0020. */
int scan_utf8_is_invisible(uint32_t cp);

#endif /* SCAN_UTF8_H */
