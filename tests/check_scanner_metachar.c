/* SPDX-License-Identifier: MIT */
/*
 * The metacharacter scan: every class of shell_metachar(M), every refusal
 * before solving (with the offset of the refused byte), the UTF-8 rules, and
 * the walkthrough's examples.  Table-driven: each row is a line and what the
 * scanner must say about it.
 */
#include "runner.h"

#include "scanner.h"

#include <string.h>

struct meta_case {
	const char *line;
	unsigned metachars; /* exactly these classes */
};

static const struct meta_case meta_cases[] = {
    /* the walkthrough's lines */
    {"shutdown now", 0},
    {"echo hello | grep hello", SCAN_META_PIPE},
    {"git push origin feature/x", 0},
    /* each class alone */
    {"ls > out", SCAN_META_REDIRECT},
    {"sort < in", SCAN_META_REDIRECT},
    {"cat <<< word", SCAN_META_REDIRECT}, /* a here-string */
    {"cat <<<<", SCAN_META_REDIRECT},     /* <<< then <, no document */
    {"cat < <(ls)", SCAN_META_REDIRECT | SCAN_META_SUBSHELL},
    {"ls; ls", SCAN_META_SEMICOLON},
    {"echo `id`", SCAN_META_BACKTICK},
    {"echo $HOME", SCAN_META_VAR_EXPAND},
    {"ls *.c", SCAN_META_GLOB},
    {"ls a?c", SCAN_META_GLOB},
    {"ls [ab]c", SCAN_META_GLOB},
    {"echo !!", SCAN_META_HISTORY},
    {"echo {a,b}", SCAN_META_BRACE},
    {"echo }", SCAN_META_BRACE},
    {"(ls)", SCAN_META_SUBSHELL},
    {"ls ~", SCAN_META_TILDE},
    {"ls ~/x", SCAN_META_TILDE},
    {"echo a=~/x", SCAN_META_TILDE},
    {"echo a:~/x", SCAN_META_TILDE},
    {"echo a~b", 0},
    {"ls # comment", SCAN_META_COMMENT},
    {"#comment", SCAN_META_COMMENT},
    {"echo a#b", 0},
    {"ls|#x", SCAN_META_PIPE | SCAN_META_COMMENT},
    {"FOO=bar", SCAN_META_ASSIGNMENT},
    {"  FOO=bar env", SCAN_META_ASSIGNMENT},
    {"PATH+=:/x ls", SCAN_META_ASSIGNMENT},
    {"_X1=1", SCAN_META_ASSIGNMENT},
    {"env FOO=bar", 0},
    {"1FOO=bar", 0},
    {"git config user.name=x", 0},
    /* several at once */
    {"CMD=rm; $CMD /",
     SCAN_META_ASSIGNMENT | SCAN_META_SEMICOLON | SCAN_META_VAR_EXPAND},
    {"echo $(id) > x; ls | wc", SCAN_META_VAR_EXPAND | SCAN_META_SUBSHELL |
				    SCAN_META_REDIRECT | SCAN_META_SEMICOLON |
				    SCAN_META_PIPE},
    /* UTF-8 text is fine */
    {"echo h\xc3\xa9llo w\xc3\xb6rld \xe2\x82\xac \xf0\x9f\x98\x80", 0},
    {"", 0},
    {"   \t ", 0},
};

START_TEST(test_metachar_class_reported)
{
	const struct meta_case *c = &meta_cases[_i];
	struct scan_result r;

	scan_line(c->line, strlen(c->line), &r);
	ck_assert_msg(r.refusal == SCAN_ACCEPT, "'%s' refused (%d)", c->line,
		      (int)r.refusal);
	ck_assert_msg(r.metachars == c->metachars,
		      "'%s': metachars 0x%x, expected 0x%x", c->line,
		      r.metachars, c->metachars);
}
END_TEST

struct refuse_case {
	const char *line;
	size_t len; /* 0: strlen */
	enum scan_refusal refusal;
	size_t offset;
};

static const struct refuse_case refuse_cases[] = {
    /* the walkthrough's refusal before solving */
    {"git commit -m \"feat: solver\"", 0, SCAN_REFUSE_QUOTE, 14},
    {"echo 'x'", 0, SCAN_REFUSE_QUOTE, 5},
    {"echo a\\ b", 0, SCAN_REFUSE_BACKSLASH, 6},
    {"sleep 1 &", 0, SCAN_REFUSE_AMPERSAND, 8},
    {"true && ls", 0, SCAN_REFUSE_AMPERSAND, 5},
    {"ls\0rm", 5, SCAN_REFUSE_NUL, 2},
    {"ls\nrm -rf /", 0, SCAN_REFUSE_NEWLINE, 2},
    {"ls\r", 0, SCAN_REFUSE_NEWLINE, 2},
    {"ls \x1b[2J", 0, SCAN_REFUSE_CONTROL, 3},
    {"ls \x7f", 0, SCAN_REFUSE_CONTROL, 3},
    {"ls \x01", 0, SCAN_REFUSE_CONTROL, 3},
    {"ls \xc2\x9b"
     "2J",
     0, SCAN_REFUSE_CONTROL, 3}, /* C1 CSI */
    {"ls \xff", 0, SCAN_REFUSE_ENCODING, 3},
    {"ls \xc3", 0, SCAN_REFUSE_ENCODING, 3},             /* truncated */
    {"ls \xc0\xaf", 0, SCAN_REFUSE_ENCODING, 3},         /* overlong / */
    {"ls \xe0\x80\xaf", 0, SCAN_REFUSE_ENCODING, 3},     /* overlong */
    {"ls \xed\xa0\x80", 0, SCAN_REFUSE_ENCODING, 3},     /* surrogate */
    {"ls \xf4\x90\x80\x80", 0, SCAN_REFUSE_ENCODING, 3}, /* > U+10FFFF */
    {"ls \x80", 0, SCAN_REFUSE_ENCODING, 3},             /* lone cont. */
    {"ls\xc2\xa0-la", 0, SCAN_REFUSE_INVISIBLE, 2},      /* NBSP */
    {"rm \xe2\x80\xae"
     "fdp.exe",
     0, SCAN_REFUSE_INVISIBLE, 3},                     /* RLO */
    {"ls \xe2\x80\x8bx", 0, SCAN_REFUSE_INVISIBLE, 3}, /* ZWSP */
    {"ls \xef\xbb\xbf", 0, SCAN_REFUSE_INVISIBLE, 3},  /* BOM */
    /* here-documents read the shell's command channel */
    {"cat <<EOF", 0, SCAN_REFUSE_HEREDOC, 4},
    {"cat <<-EOF", 0, SCAN_REFUSE_HEREDOC, 4},
    {"cat << EOF", 0, SCAN_REFUSE_HEREDOC, 4},
    {"a<<b", 0, SCAN_REFUSE_HEREDOC, 1},
    /* the first refusal wins */
    {"echo \"a\" \\", 0, SCAN_REFUSE_QUOTE, 5},
};

START_TEST(test_metachar_refusal_reported_with_offset)
{
	const struct refuse_case *c = &refuse_cases[_i];
	size_t len = c->len != 0 ? c->len : strlen(c->line);
	struct scan_result r;

	scan_line(c->line, len, &r);
	ck_assert_msg(r.refusal == c->refusal, "case %d: refusal %d, want %d",
		      _i, (int)r.refusal, (int)c->refusal);
	ck_assert_msg(r.refusal_offset == c->offset,
		      "case %d: offset %zu, want %zu", _i, r.refusal_offset,
		      c->offset);
	ck_assert_str_ne(scan_refusal_reason(r.refusal), "accepted");
}
END_TEST

/* Where the first metacharacter of a class is: what the guard points at. */
struct offset_case {
	const char *line;
	unsigned metachar; /* one class */
	size_t offset;     /* of its first byte of that class */
};

static const struct offset_case offset_cases[] = {
    {"echo hello | grep hello", SCAN_META_PIPE, 11},
    {"a|b|c", SCAN_META_PIPE, 1},
    {"ls > out < in", SCAN_META_REDIRECT, 3},
    {"sort < in", SCAN_META_REDIRECT, 5},
    {"ls; ls", SCAN_META_SEMICOLON, 2},
    {"echo `id`", SCAN_META_BACKTICK, 5},
    {"echo $HOME $X", SCAN_META_VAR_EXPAND, 5},
    {"ls a?c *.c", SCAN_META_GLOB, 4},
    {"echo !!", SCAN_META_HISTORY, 5},
    {"echo {a,b}", SCAN_META_BRACE, 5},
    {"(ls)", SCAN_META_SUBSHELL, 0},
    {"echo a~b ~/x", SCAN_META_TILDE, 9}, /* a~b is no tilde */
    {"echo a#b # c", SCAN_META_COMMENT, 9},
    {"  FOO=bar env", SCAN_META_ASSIGNMENT, 5},
    {"PATH+=:/x ls", SCAN_META_ASSIGNMENT, 5},
    /* after multi-byte UTF-8: offsets count bytes */
    {"echo \xc3\xa9t\xc3\xa9 | wc", SCAN_META_PIPE, 11},
    /* several classes, each its own first */
    {"CMD=rm; $CMD /", SCAN_META_SEMICOLON, 6},
    {"CMD=rm; $CMD /", SCAN_META_VAR_EXPAND, 8},
    {"CMD=rm; $CMD /", SCAN_META_ASSIGNMENT, 3},
};

START_TEST(test_metachar_first_offset_of_each_class)
{
	const struct offset_case *c = &offset_cases[_i];
	struct scan_result r;
	unsigned idx = 0;

	while ((1u << idx) != c->metachar)
		idx++;
	scan_line(c->line, strlen(c->line), &r);
	ck_assert_int_eq(r.refusal, SCAN_ACCEPT);
	ck_assert_msg(r.metachars & c->metachar, "case %d: class not found",
		      _i);
	ck_assert_msg(r.metachar_offset[idx] == c->offset,
		      "case %d (%s): offset %zu, want %zu", _i, c->line,
		      r.metachar_offset[idx], c->offset);
	ck_assert_msg(c->line[c->offset] != ' ', "case %d: a blank", _i);
}
END_TEST

START_TEST(test_metachar_background_flagged_and_refused)
{
	struct scan_result r;

	scan_line("sleep 5 &", 9, &r);
	ck_assert_int_eq(r.refusal, SCAN_REFUSE_AMPERSAND);
	ck_assert_uint_eq(r.metachars & SCAN_META_BACKGROUND,
			  SCAN_META_BACKGROUND);
}
END_TEST

START_TEST(test_metachar_names_match_policy_vocabulary)
{
	static const char *const want[] = {
	    "pipe",    "redirect",   "semicolon", "backtick", "var_expand",
	    "glob",    "history",    "brace",     "subshell", "tilde",
	    "comment", "assignment", "background"};
	unsigned i;

	ck_assert_uint_eq(SCAN_META_COUNT, sizeof want / sizeof want[0]);
	for (i = 0; i < SCAN_META_COUNT; i++)
		ck_assert_str_eq(scan_metachar_name(i), want[i]);
	ck_assert_ptr_null(scan_metachar_name(SCAN_META_COUNT));
}
END_TEST

START_TEST(test_metachar_every_ascii_byte_is_classified)
{
	/* every printable byte other than the metacharacters and refusals
	 * is an ordinary word character */
	static const char special[] = "|<>;`$*?[!{}()~#&'\"\\";
	char line[4];
	int c;

	for (c = 0x20; c < 0x7f; c++) {
		struct scan_result r;

		/* "1=1" is no assignment: names cannot start with a digit */
		line[0] = '1';
		line[1] = (char)c;
		line[2] = '1';
		scan_line(line, 3, &r);
		if (c == ' ' || strchr(special, c) != NULL)
			continue;
		ck_assert_msg(r.refusal == SCAN_ACCEPT && r.metachars == 0,
			      "byte 0x%02x: refusal %d metachars 0x%x", c,
			      (int)r.refusal, r.metachars);
	}
	for (c = 0; c < 0x20; c++) {
		struct scan_result r;

		line[0] = 'x';
		line[1] = (char)c;
		scan_line(line, 2, &r);
		if (c == '\t')
			ck_assert_int_eq(r.refusal, SCAN_ACCEPT);
		else
			ck_assert_msg(r.refusal != SCAN_ACCEPT,
				      "control byte 0x%02x accepted", c);
	}
}
END_TEST

Suite *
maelys_check_suite(void)
{
	Suite *s = suite_create("scanner");
	TCase *tc = tcase_create("metachar");

	tcase_add_loop_test(tc, test_metachar_class_reported, 0,
			    sizeof meta_cases / sizeof meta_cases[0]);
	tcase_add_loop_test(tc, test_metachar_refusal_reported_with_offset, 0,
			    sizeof refuse_cases / sizeof refuse_cases[0]);
	tcase_add_loop_test(
	    tc, test_metachar_first_offset_of_each_class, 0,
	    (int)(sizeof offset_cases / sizeof offset_cases[0]));
	tcase_add_test(tc, test_metachar_background_flagged_and_refused);
	tcase_add_test(tc, test_metachar_names_match_policy_vocabulary);
	tcase_add_test(tc, test_metachar_every_ascii_byte_is_classified);
	suite_add_tcase(s, tc);
	return s;
}
