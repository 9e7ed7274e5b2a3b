/* SPDX-License-Identifier: MIT */
/*
 * The metacharacter scan of the raw line, before it is split: every class of
 * shell syntax is reported (the policy decides what it means), and the
 * syntax the restricted grammar cannot represent refuses the line with the
 * offset of the byte that did.  Word starts matter for `~`, `#` and
 * assignments, as they do to bash: a blank or a shell operator starts a word.
 */
#include "scanner.h"

#include "scan_utf8.h"

#include <stdbool.h>
#include <stdint.h>

static const char *const scan_meta_names[SCAN_META_COUNT] = {
    "pipe",    "redirect",   "semicolon",  "backtick", "var_expand",
    "glob",    "history",    "brace",      "subshell", "tilde",
    "comment", "assignment", "background",
};

const char *
scan_metachar_name(unsigned index)
{
	return index < SCAN_META_COUNT ? scan_meta_names[index] : NULL;
}

const char *
scan_refusal_reason(enum scan_refusal refusal)
{
	switch (refusal) {
	case SCAN_ACCEPT:
		return "accepted";
	case SCAN_REFUSE_QUOTE:
		return "quoted syntax is unsupported";
	case SCAN_REFUSE_BACKSLASH:
		return "backslash escapes are unsupported";
	case SCAN_REFUSE_AMPERSAND:
		return "& (background jobs, &&) is unsupported";
	case SCAN_REFUSE_NUL:
		return "a NUL byte is not text";
	case SCAN_REFUSE_NEWLINE:
		return "a line break inside the line is unsupported";
	case SCAN_REFUSE_CONTROL:
		return "control characters and escape sequences are "
		       "unsupported";
	case SCAN_REFUSE_ENCODING:
		return "bytes that are not valid UTF-8 text are unsupported";
	case SCAN_REFUSE_INVISIBLE:
		return "invisible or look-alike Unicode characters are "
		       "unsupported";
	case SCAN_REFUSE_TOO_LONG:
		return "a line of 4096 bytes or more is too long";
	case SCAN_REFUSE_TOO_MANY_TOKENS:
		return "a line of more than 63 words is too long";
	case SCAN_REFUSE_HEREDOC:
		return "here-documents (<<) are unsupported";
	}
	return "refused";
}

static bool
scan_is_name_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool
scan_is_name_char(unsigned char c)
{
	return scan_is_name_start(c) || (c >= '0' && c <= '9');
}

/* NAME= or NAME+= as the first word: bash assigns instead of running.
 * *eq is the offset of its '='. */
static bool
scan_first_word_assigns(const unsigned char *s, size_t len, size_t *eq)
{
	size_t i = 0;

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == len || !scan_is_name_start(s[i]))
		return false;
	while (i < len && scan_is_name_char(s[i]))
		i++;
	if (i < len && s[i] == '+')
		i++;
	*eq = i;
	return i < len && s[i] == '=';
}

/* Reports class `bit` found at offset `at`: the first one of a class is
 * the one the guard points at. */
static void
scan_found(struct scan_result *out, unsigned *meta, unsigned bit, size_t at)
{
	unsigned idx = 0;

	if (*meta & bit)
		return;
	*meta |= bit;
	while ((1u << idx) != bit)
		idx++;
	out->metachar_offset[idx] = at;
}

static void
scan_refuse(struct scan_result *out, enum scan_refusal r, size_t at)
{
	out->refusal = r;
	out->refusal_offset = at;
}

void
scan_metachars(const char *line, size_t len, struct scan_result *out)
{
	const unsigned char *s = (const unsigned char *)line;
	bool word_start = true;
	unsigned meta = 0;
	size_t i, eq = 0;

	out->refusal = SCAN_ACCEPT;
	out->refusal_offset = 0;
	for (i = 0; i < SCAN_META_COUNT; i++)
		out->metachar_offset[i] = 0;
	for (i = 0; i < len && out->refusal == SCAN_ACCEPT; i++) {
		unsigned char c = s[i];
		bool starts_next = false;

		if (c >= 0x80) {
			uint32_t cp = 0;
			size_t n = scan_utf8_decode(s + i, len - i, &cp);

			if (n == 0)
				scan_refuse(out, SCAN_REFUSE_ENCODING, i);
			else if (scan_utf8_is_control(cp))
				scan_refuse(out, SCAN_REFUSE_CONTROL, i);
			else if (scan_utf8_is_invisible(cp))
				scan_refuse(out, SCAN_REFUSE_INVISIBLE, i);
			else
				i += n - 1;
			word_start = false;
			continue;
		}
		switch (c) {
		case ' ':
		case '\t':
			word_start = true;
			continue;
		case '\'':
		case '"':
			scan_refuse(out, SCAN_REFUSE_QUOTE, i);
			break;
		case '\\':
			scan_refuse(out, SCAN_REFUSE_BACKSLASH, i);
			break;
		case '&':
			scan_found(out, &meta, SCAN_META_BACKGROUND, i);
			scan_refuse(out, SCAN_REFUSE_AMPERSAND, i);
			break;
		case '\0':
			scan_refuse(out, SCAN_REFUSE_NUL, i);
			break;
		case '\n':
		case '\r':
			scan_refuse(out, SCAN_REFUSE_NEWLINE, i);
			break;
		case '|':
			scan_found(out, &meta, SCAN_META_PIPE, i);
			starts_next = true;
			break;
		case '<':
			/* << but not <<<: a here-document */
			if (i + 1 < len && s[i + 1] == '<' &&
			    !(i + 2 < len && s[i + 2] == '<') &&
			    !(i > 0 && s[i - 1] == '<')) {
				scan_refuse(out, SCAN_REFUSE_HEREDOC, i);
				break;
			}
			scan_found(out, &meta, SCAN_META_REDIRECT, i);
			starts_next = true;
			break;
		case '>':
			scan_found(out, &meta, SCAN_META_REDIRECT, i);
			starts_next = true;
			break;
		case ';':
			scan_found(out, &meta, SCAN_META_SEMICOLON, i);
			starts_next = true;
			break;
		case '`':
			scan_found(out, &meta, SCAN_META_BACKTICK, i);
			starts_next = true;
			break;
		case '$':
			scan_found(out, &meta, SCAN_META_VAR_EXPAND, i);
			break;
		case '*':
		case '?':
		case '[':
			scan_found(out, &meta, SCAN_META_GLOB, i);
			break;
		case '!':
			scan_found(out, &meta, SCAN_META_HISTORY, i);
			break;
		case '{':
		case '}':
			scan_found(out, &meta, SCAN_META_BRACE, i);
			break;
		case '(':
		case ')':
			scan_found(out, &meta, SCAN_META_SUBSHELL, i);
			starts_next = true;
			break;
		case '~':
			/* bash expands ~ at a word start and after = or : */
			if (word_start ||
			    (i > 0 && (s[i - 1] == '=' || s[i - 1] == ':')))
				scan_found(out, &meta, SCAN_META_TILDE, i);
			break;
		case '#':
			if (word_start)
				scan_found(out, &meta, SCAN_META_COMMENT, i);
			break;
		default:
			if (c < 0x20 || c == 0x7f)
				scan_refuse(out, SCAN_REFUSE_CONTROL, i);
			break;
		}
		word_start = starts_next;
	}
	if (scan_first_word_assigns(s, len, &eq))
		scan_found(out, &meta, SCAN_META_ASSIGNMENT, eq);
	out->metachars = meta;
}
