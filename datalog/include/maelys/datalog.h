/* SPDX-License-Identifier: MIT */
/*
 * <maelys/datalog.h> - the public C API of libmaelys-datalog.
 *
 * An embedded Datalog engine for deciding things: a host (maelys-pty, or any
 * program that links this library) registers a domain - the predicates it
 * supplies and reads - loads a policy written in the dialect of
 * maelys-policy(5), and then asks it, many times, what follows from a small set
 * of input facts.
 *
 *   domain_register      once per process, for the host's predicate table
 *   policy_load_*        text -> immutable, reference-counted policy
 *   session_create       per thread of work; reused for many solves
 *   input_edb_create     the facts of one question (builders: ADD_FACT)
 *   session_solve_edb    -> result: what was derived
 *   result_query / _enumerate / _symbol_text   read the answer
 *
 * General rules, true of every function below unless its comment says
 * otherwise:
 *   - Every function that can fail returns maelys_datalog_status_t; OK is 0.
 *     Out-parameters are cleared first, so a failure leaves nothing to free.
 *   - NULL where a pointer is required gives
 *     MAELYS_DATALOG_STATUS_INVALID_ARGUMENT, never a crash.
 *   - `diag` may be NULL.  When given, it is filled on failure with the
 *     status, a message and (for load errors) source, line and column.  It
 *     is a fixed buffer, so it works even for STATUS_NO_MEMORY.
 *   - _free functions accept NULL and return STATUS_OK.
 *   - Threads: the domain registry is the library's only process-wide state
 *     and is thread-safe.  A policy is immutable and may be shared by any
 *     number of threads and sessions.  A session, an input EDB and a result
 *     are each used by one thread at a time; different sessions (of the same
 *     policy or not) may run in parallel.
 *   - The library performs no I/O except reading the file given to
 *     maelys_datalog_policy_load_file, never logs and never exits.
 */
#ifndef MAELYS_DATALOG_H
#define MAELYS_DATALOG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define MAELYS_DATALOG_API       __attribute__((visibility("default")))
#define MAELYS_DATALOG_NODISCARD __attribute__((warn_unused_result))
#else
#define MAELYS_DATALOG_API
#define MAELYS_DATALOG_NODISCARD
#endif

#define MAELYS_DATALOG_VERSION_MAJOR 0
#define MAELYS_DATALOG_VERSION_MINOR 1
#define MAELYS_DATALOG_VERSION_PATCH 0

/* The widest predicate the engine accepts (columns of one tuple).  It sizes
 * the arrays of maelys_datalog_fact_view_t and maelys_datalog_directive_t,
 * so a change of it is a change of the ABI (0.1: 32, was 16; a column set
 * is a 32-bit mask inside the engine, so 32 is also its ceiling). */
#define MAELYS_DATALOG_MAX_ARITY 32

/*
 * Status codes.  New codes are appended, never renumbered.  The comment on
 * each is its one-line meaning; maelys_datalog_status_name() returns the
 * name after MAELYS_DATALOG_STATUS_, in lower case ("parse", "budget_tuples").
 */
typedef enum maelys_datalog_status {
	/* Success. */
	MAELYS_DATALOG_STATUS_OK = 0,
	/* A NULL or malformed argument, or a call the API does not allow. */
	MAELYS_DATALOG_STATUS_INVALID_ARGUMENT = 1,
	/* An allocation failed; nothing was half-done. */
	MAELYS_DATALOG_STATUS_NO_MEMORY = 2,
	/* An input is larger than a hard limit (source size, arity, string
	 * length, rule size, ...); the diagnostic names the limit. */
	MAELYS_DATALOG_STATUS_LIMIT = 3,
	/* The policy file could not be opened or read. */
	MAELYS_DATALOG_STATUS_IO = 4,
	/* Syntax error in the policy text. */
	MAELYS_DATALOG_STATUS_PARSE = 5,
	/* A predicate is used that neither the domain nor a .decl declares. */
	MAELYS_DATALOG_STATUS_UNDECLARED = 6,
	/* A predicate is used with the wrong number of arguments. */
	MAELYS_DATALOG_STATUS_ARITY = 7,
	/* A predicate is used against its role: a rule head or fact on an
	 * EDB predicate, a rule on a POLICY_FACT, an input fact on a
	 * non-EDB predicate, or a query of a non-QUERY predicate. */
	MAELYS_DATALOG_STATUS_ROLE = 8,
	/* A variable of a head, a negated literal or a built-in is not bound
	 * by a positive body literal (range restriction). */
	MAELYS_DATALOG_STATUS_UNSAFE = 9,
	/* Recursion through negation: the program cannot be stratified; the
	 * diagnostic names the cycle. */
	MAELYS_DATALOG_STATUS_NEGATION_CYCLE = 10,
	/* A string constant of the policy is not in the domain's vocabulary. */
	MAELYS_DATALOG_STATUS_VOCABULARY = 11,
	/* A regular expression does not compile (PCRE2's message and offset
	 * are in the diagnostic). */
	MAELYS_DATALOG_STATUS_REGEX = 12,
	/* A declaration conflicts with another one or with a reserved name. */
	MAELYS_DATALOG_STATUS_REDECLARED = 13,
	/* No domain of that name is registered. */
	MAELYS_DATALOG_STATUS_UNKNOWN_DOMAIN = 14,
	/* A domain name is already registered with a different table. */
	MAELYS_DATALOG_STATUS_DOMAIN_CONFLICT = 15,
	/* A domain table is malformed (bad name, arity, role or atom). */
	MAELYS_DATALOG_STATUS_INVALID_DOMAIN = 16,
	/* A solve was given more input facts than the session's budget. */
	MAELYS_DATALOG_STATUS_BUDGET_FACTS = 17,
	/* A solve derived more tuples than the session's budget. */
	MAELYS_DATALOG_STATUS_BUDGET_TUPLES = 18,
	/* A solve needed more fixpoint iterations than the session's budget. */
	MAELYS_DATALOG_STATUS_BUDGET_ITERATIONS = 19,
	/* A solve needed more working memory than the session's budget. */
	MAELYS_DATALOG_STATUS_BUDGET_MEMORY = 20,
	/* A re_match hit its match, depth or heap limit: an evaluation error,
	 * never a silent false. */
	MAELYS_DATALOG_STATUS_REGEX_LIMIT = 21,
	/* A built-in was applied to a value of the wrong kind (an ordering
	 * comparison of an integer with a string, a string test on an
	 * integer). */
	MAELYS_DATALOG_STATUS_TYPE = 22,
	/* An enumeration had fewer rows than the relation; *count holds the
	 * number needed.  A host must treat this as a failure (deny). */
	MAELYS_DATALOG_STATUS_TRUNCATED = 23,
	/* A solve did more join work (rows visited and tuples derived) than
	 * the session's budget, e.g. a cross product deriving the same tuple
	 * over and over. */
	MAELYS_DATALOG_STATUS_BUDGET_STEPS = 24,
	/* An arithmetic term had no defined value: division or modulo by
	 * zero, a shift by a negative count or by 64 or more, 0 to a
	 * negative power (maelys-policy(5), ARITHMETIC). */
	MAELYS_DATALOG_STATUS_ARITHMETIC = 25,
} maelys_datalog_status_t;

/* The kind of a term: a symbol (string) or a 64-bit integer. */
typedef enum maelys_datalog_term_kind {
	MAELYS_DATALOG_TERM_SYMBOL = 1,
	MAELYS_DATALOG_TERM_INTEGER = 2,
} maelys_datalog_term_kind_t;

/* A symbol's id; valid within the result that produced it. */
typedef uint32_t maelys_datalog_symbol_id_t;

/* One column of a derived fact, as read from a result. */
typedef struct maelys_datalog_term {
	maelys_datalog_term_kind_t kind;
	union {
		maelys_datalog_symbol_id_t symbol_id; /* kind == SYMBOL */
		int64_t integer;                      /* kind == INTEGER */
	} as;
} maelys_datalog_term_t;

/* One derived fact: rows[i].terms[k] for k < rows[i].arity. */
typedef struct maelys_datalog_fact_view {
	size_t arity;
	maelys_datalog_term_t terms[MAELYS_DATALOG_MAX_ARITY];
} maelys_datalog_fact_view_t;

/* One column of an input fact or of a query, as given by the caller.  The
 * string is copied by the call that receives it; it may contain any bytes
 * (including NUL) and need not be terminated. */
typedef struct maelys_datalog_arg {
	maelys_datalog_term_kind_t kind;
	union {
		struct {
			const char *text;
			size_t length;
		} symbol;        /* kind == SYMBOL */
		int64_t integer; /* kind == INTEGER */
	} as;
} maelys_datalog_arg_t;

/* Roles of a domain's predicates (maelys-policy(5), "Declarations"). */
typedef enum maelys_datalog_predicate_role {
	/* Supplied by the host with each solve; never a rule head or a fact
	 * of the policy. */
	MAELYS_DATALOG_PREDICATE_EDB = 1u << 0,
	/* Ground facts written in the policy; never a rule head. */
	MAELYS_DATALOG_PREDICATE_POLICY_FACT = 1u << 1,
	/* Derived by the policy's rules (and facts). */
	MAELYS_DATALOG_PREDICATE_IDB = 1u << 2,
	/* Readable from a result; combinable with IDB only. */
	MAELYS_DATALOG_PREDICATE_QUERY = 1u << 3,
} maelys_datalog_predicate_role_t;

/* One row of a domain's predicate table. */
typedef struct maelys_datalog_predicate {
	const char *name; /* [a-z][A-Za-z0-9_]*, unique within the domain */
	size_t arity;     /* 0 .. MAELYS_DATALOG_MAX_ARITY */
	unsigned role;    /* one role, or IDB | QUERY */
} maelys_datalog_predicate_t;

/*
 * A host's vocabulary.  `atoms`, when atom_count > 0, is the complete list of
 * string constants a policy of this domain may write: anything else is a load
 * error (STATUS_VOCABULARY), so a typo in a constant cannot silently never
 * match.  With atom_count == 0 a policy may use any constants.  Runtime values
 * (input facts) are never checked against it.
 */
typedef struct maelys_datalog_domain {
	const char *name;
	const maelys_datalog_predicate_t *predicates;
	size_t predicate_count;
	const char *const *atoms;
	size_t atom_count;
} maelys_datalog_domain_t;

/* Where and why something failed.  Initialise with
 * MAELYS_DATALOG_DIAGNOSTIC_INIT; every failing call overwrites it whole. */
#define MAELYS_DATALOG_DIAGNOSTIC_SOURCE_MAX  128
#define MAELYS_DATALOG_DIAGNOSTIC_MESSAGE_MAX 512
typedef struct maelys_datalog_diagnostic {
	maelys_datalog_status_t status; /* the status the call returned */
	size_t line;   /* 1-based line in `source`; 0 if no position applies */
	size_t column; /* 1-based byte column; 0 if no position applies */
	char source[MAELYS_DATALOG_DIAGNOSTIC_SOURCE_MAX]; /* source name */
	/* "source:line:col: what is wrong" (or just what is wrong) */
	char message[MAELYS_DATALOG_DIAGNOSTIC_MESSAGE_MAX];
} maelys_datalog_diagnostic_t;

#define MAELYS_DATALOG_DIAGNOSTIC_INIT                                         \
	{                                                                      \
		MAELYS_DATALOG_STATUS_OK, 0u, 0u, "", ""                       \
	}

/* Opaque handles. */
typedef struct maelys_datalog_policy maelys_datalog_policy_t;
typedef struct maelys_datalog_session maelys_datalog_session_t;
typedef struct maelys_datalog_input_edb maelys_datalog_input_edb_t;
typedef struct maelys_datalog_result maelys_datalog_result_t;

/* ------------------------------------------------------------------ */
/* Library                                                             */

/* "MAJOR.MINOR.PATCH" of the linked library.  Never NULL. */
MAELYS_DATALOG_API const char *maelys_datalog_version(void);

/* The name of a status ("ok", "parse", "budget_tuples", ...); "unknown" for a
 * value that is not a status.  Static storage, never NULL. */
MAELYS_DATALOG_API const char *
maelys_datalog_status_name(maelys_datalog_status_t status);

/* The one-line meaning of a status, as in the comments above.  Static
 * storage, never NULL. */
MAELYS_DATALOG_API const char *
maelys_datalog_status_meaning(maelys_datalog_status_t status);

/* ------------------------------------------------------------------ */
/* Domains                                                             */

/*
 * Registers `domain` under domain->name in the process-wide registry.  The
 * table is copied: the caller's memory need not outlive the call.
 * Registering the same name again with an equal table (same predicates in the
 * same order, same atoms) is a no-op returning OK; with a different table it
 * returns DOMAIN_CONFLICT and changes nothing.  Thread-safe.
 * Returns OK, INVALID_ARGUMENT (NULL), INVALID_DOMAIN (malformed: bad or
 * duplicate name, arity above MAELYS_DATALOG_MAX_ARITY, a role that is not
 * EDB, POLICY_FACT, IDB or IDB|QUERY, a NULL atom), DOMAIN_CONFLICT,
 * NO_MEMORY.
 */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_domain_register(const maelys_datalog_domain_t *domain);

/* ------------------------------------------------------------------ */
/* Policies                                                            */

/* Flags of maelys_datalog_policy_load_text. */
enum {
	/* Read Souffle's plain syntax: every identifier in an argument is a
	 * variable, constants are quoted or numeric, `match`/`contains` are
	 * Souffle's built-ins. */
	MAELYS_DATALOG_LOAD_SOUFFLE = 1u << 0,
	/* Read Souffle's syntax when the text declares types (`.type`, or a
	 * `.decl` with typed columns), the native dialect otherwise. */
	MAELYS_DATALOG_LOAD_DETECT_SYNTAX = 1u << 1,
};

/*
 * Compiles `text` (`length` bytes, NUL not needed) into a policy for the
 * registered domain named `domain`.  `source_name` names the text in
 * diagnostics (NULL: "<inline>").
 *
 * `domain` NULL loads a standalone program: every predicate comes from
 * `.decl`, every predicate is readable, and `.input`, `.output` and
 * `.printsize` directives are accepted (see policy_get_directive); only
 * `.input` predicates accept input facts.  In a domain's policy `.decl`
 * declares the policy's own helper relations (IDB, not readable).
 *
 * Load is all-or-nothing: on any error *out is NULL and `diag` names source,
 * line, column and what is wrong.
 * Returns OK, INVALID_ARGUMENT, NO_MEMORY, LIMIT, PARSE, UNDECLARED, ARITY,
 * ROLE, UNSAFE, NEGATION_CYCLE, VOCABULARY, REGEX, REDECLARED,
 * UNKNOWN_DOMAIN, TYPE (a string in arithmetic), ARITHMETIC (a constant term
 * without a value, 1 / 0).  Thread-safe.
 */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_policy_load_text(const char *domain, const char *source_name,
				const char *text, size_t length, unsigned flags,
				maelys_datalog_policy_t **out,
				maelys_datalog_diagnostic_t *diag);

/* policy_load_text with flags 0: the native dialect. */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_policy_load_inline(const char *domain, const char *source_name,
				  const char *text, size_t length,
				  maelys_datalog_policy_t **out,
				  maelys_datalog_diagnostic_t *diag);

/* Reads the file at `path` (its name is the source name) and loads it as
 * policy_load_inline does.  Returns IO when it cannot be opened or read, or
 * is not a regular file, and everything policy_load_text returns. */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_policy_load_file(const char *domain, const char *path,
				maelys_datalog_policy_t **out,
				maelys_datalog_diagnostic_t *diag);

/* Drops the caller's reference.  Sessions hold their own, so a policy may be
 * freed right after session_create.  NULL is allowed.  Returns OK. */
MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_policy_free(maelys_datalog_policy_t *policy);

/* *reads = 1 when some rule of the policy uses predicate/arity in its body
 * (positively, negated, or in an aggregate's body), else 0: a host can skip
 * computing input facts no rule can see.  Returns OK, INVALID_ARGUMENT
 * (NULL), UNDECLARED, ARITY. */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_policy_reads(const maelys_datalog_policy_t *policy,
			    const char *predicate, size_t arity, int *reads);

/* *depends = 1 when the tuples of predicate/arity can depend on those of
 * on/on_arity, else 0: a rule of `predicate`, or of a predicate such a
 * rule reads (and so on, however deep), reads `on` in its body
 * (positively, negated, or in an aggregate's body).  A host that means to
 * evaluate a relation with only some input facts asks it of every other
 * input.  A predicate depends on itself only through a rule that reads it.
 * Returns OK, INVALID_ARGUMENT (NULL), UNDECLARED, ARITY (either
 * predicate), NO_MEMORY. */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_policy_depends(const maelys_datalog_policy_t *policy,
			      const char *predicate, size_t arity,
			      const char *on, size_t on_arity, int *depends);

/* *defines = 1 when the policy gives predicate/arity a fact or a rule (a
 * rule's head), else 0: a host can tell a policy that decides something
 * from one that leaves it out (maelys-pty: a policy without allow_exec
 * decides lines only).  Returns OK, INVALID_ARGUMENT (NULL), UNDECLARED,
 * ARITY. */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_policy_defines(const maelys_datalog_policy_t *policy,
			      const char *predicate, size_t arity,
			      int *defines);

/* Kinds of a standalone program's I/O directives. */
typedef enum maelys_datalog_directive_kind {
	MAELYS_DATALOG_DIRECTIVE_INPUT = 1,     /* .input rel */
	MAELYS_DATALOG_DIRECTIVE_OUTPUT = 2,    /* .output rel */
	MAELYS_DATALOG_DIRECTIVE_PRINTSIZE = 3, /* .printsize rel */
} maelys_datalog_directive_kind_t;

/* Column types declared by `.decl r(x:symbol, n:number)`. */
typedef enum maelys_datalog_column_type {
	MAELYS_DATALOG_COLUMN_ANY = 0, /* untyped column */
	MAELYS_DATALOG_COLUMN_SYMBOL = 1,
	MAELYS_DATALOG_COLUMN_NUMBER = 2,
	/* a 64-bit unsigned integer, held as an integer value with the same
	 * 64 bits (printed and read as unsigned) */
	MAELYS_DATALOG_COLUMN_UNSIGNED = 3,
	/* an IEEE-754 double, held as an integer value with its 64 bits */
	MAELYS_DATALOG_COLUMN_FLOAT = 4,
	/* a record or algebraic data type (.type T = [...] or A {} | ...):
	 * input facts give it as text, such as "[1, [2, nil]]" or "$A(1)",
	 * and result_record_text prints it so */
	MAELYS_DATALOG_COLUMN_RECORD = 5,
} maelys_datalog_column_type_t;

/* One directive of a standalone program, in source order.  Strings point
 * into the policy and live as long as it does. */
typedef struct maelys_datalog_directive {
	maelys_datalog_directive_kind_t kind;
	const char *predicate;
	size_t arity;
	const char *filename;  /* filename="..." parameter, or NULL */
	const char *delimiter; /* delimiter="..." parameter, or NULL (tab) */
	int to_stdout;         /* IO=stdout */
	maelys_datalog_column_type_t columns[MAELYS_DATALOG_MAX_ARITY];
	/* the columns' names as the .decl gives them (column_names[i] for
	 * i < arity; NULL for a domain's predicate) */
	const char *column_names[MAELYS_DATALOG_MAX_ARITY];
	/* headers=true: the file's first line names the columns (skipped on
	 * input, written on output) */
	int headers;
	/* rfc4180=true: fields may be quoted ("a,b", "" for a quote, a line
	 * end inside quotes); the delimiter defaults to ',' */
	int rfc4180;
} maelys_datalog_directive_t;

/* The number of directives of a standalone program (0 for a domain policy
 * or for NULL). */
MAELYS_DATALOG_API size_t
maelys_datalog_policy_directive_count(const maelys_datalog_policy_t *policy);

/* Copies directive `index` into *out.  Returns OK, INVALID_ARGUMENT (NULL,
 * or index out of range). */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_policy_get_directive(const maelys_datalog_policy_t *policy,
				    size_t index,
				    maelys_datalog_directive_t *out);

/* ------------------------------------------------------------------ */
/* Rules of a policy: for tools that show, test and explain a policy   */

/*
 * Rules are numbered from 0 in source order (a fact written in the policy is
 * not a rule).  The numbers are those of result_derivation, result_why_not
 * and result_rule_fired.  Body literals are numbered from 0 in source order.
 * Strings point into the policy and live as long as it does.  A rule's or a
 * literal's text is kept up to 8192 bytes: a longer one is cut there (never
 * inside a UTF-8 character) and ends in "...".
 */
typedef enum maelys_datalog_literal_kind {
	MAELYS_DATALOG_LITERAL_ATOM = 1,    /* p(...) */
	MAELYS_DATALOG_LITERAL_NEGATED = 2, /* not p(...) */
	MAELYS_DATALOG_LITERAL_BUILTIN = 3, /* X = Y, N < 3, re_match(P, S), ... */
} maelys_datalog_literal_kind_t;

typedef struct maelys_datalog_rule_info {
	const char *source;  /* the policy's source name */
	size_t line, column; /* 1-based, of the head's first byte */
	/* The rule as written, from its head to its '.', comments removed and
	 * every run of blanks and newlines made one space; NUL-terminated. */
	const char *text;
	size_t text_length;
	const char *head; /* the head's predicate */
	size_t head_arity;
	size_t body_count; /* literals of the body */
} maelys_datalog_rule_info_t;

typedef struct maelys_datalog_literal_info {
	maelys_datalog_literal_kind_t kind;
	/* ATOM, NEGATED: the predicate; BUILTIN: the built-in's name
	 * ("re_match", ...) or its operator ("=", "!=", "<", ...). */
	const char *name;
	size_t arity;        /* ATOM, NEGATED: the predicate's; BUILTIN: 2 */
	size_t line, column; /* 1-based, of the literal's first byte */
	const char *text;    /* as written, normalised as rule_info.text */
	size_t text_length;
} maelys_datalog_literal_info_t;

/* A term as the policy writes it, in a rule's head. */
typedef enum maelys_datalog_written_kind {
	MAELYS_DATALOG_WRITTEN_VARIABLE = 1,
	MAELYS_DATALOG_WRITTEN_ANONYMOUS = 2, /* _ */
	MAELYS_DATALOG_WRITTEN_SYMBOL = 3,    /* a string constant */
	MAELYS_DATALOG_WRITTEN_INTEGER = 4,
	/* an arithmetic term (X + 1): text is its source, as written */
	MAELYS_DATALOG_WRITTEN_EXPRESSION = 5,
} maelys_datalog_written_kind_t;

typedef struct maelys_datalog_written_term {
	maelys_datalog_written_kind_t kind;
	const char *text; /* VARIABLE: its name; SYMBOL: its text;
			     EXPRESSION: its source; else "" */
	size_t length;
	int64_t integer; /* INTEGER */
} maelys_datalog_written_term_t;

/* The number of rules of the policy (0 for NULL). */
MAELYS_DATALOG_API size_t
maelys_datalog_policy_rule_count(const maelys_datalog_policy_t *policy);

/* Describes rule `rule`.  Returns OK, INVALID_ARGUMENT (NULL, out of
 * range). */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_policy_get_rule(const maelys_datalog_policy_t *policy,
			       size_t rule, maelys_datalog_rule_info_t *out);

/* Describes body literal `literal` of rule `rule`.  Returns OK,
 * INVALID_ARGUMENT (NULL, out of range). */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_policy_get_literal(const maelys_datalog_policy_t *policy,
				  size_t rule, size_t literal,
				  maelys_datalog_literal_info_t *out);

/* Column `column` of rule `rule`'s head, as written.  Returns OK,
 * INVALID_ARGUMENT (NULL, out of range). */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_policy_get_head_term(const maelys_datalog_policy_t *policy,
				    size_t rule, size_t column,
				    maelys_datalog_written_term_t *out);

/* Column `column` of body literal `literal` of rule `rule`, as written:
 * an atom's (negated or not) and a built-in call's arguments in order, a
 * comparison's left side (0) and right side (1).  A bare lower-case name is
 * a SYMBOL in the native dialect and a VARIABLE in Souffle's, as the load
 * read it.  Returns OK, INVALID_ARGUMENT (NULL, out of range). */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_policy_get_literal_term(const maelys_datalog_policy_t *policy,
				       size_t rule, size_t literal,
				       size_t column,
				       maelys_datalog_written_term_t *out);

/*
 * Warnings: what a load found suspicious but legal.  A warning never stops a
 * load; a tool may treat them as errors (`--werror`).
 */
typedef enum maelys_datalog_warning_kind {
	/* A built-in comparison of two constants (`c = "ls"`, where a
	 * lower-case `c` is a string, not a variable): always true or never
	 * true. */
	MAELYS_DATALOG_WARNING_CONSTANT_COMPARISON = 1,
	/* A predicate the policy declares (.decl) that no fact or rule
	 * defines, read by a rule: the literal is never true. */
	MAELYS_DATALOG_WARNING_UNDEFINED_PREDICATE = 2,
	/* A positive literal of a POLICY_FACT predicate (or of a helper
	 * defined only by facts) that no fact of the policy matches: the
	 * rule's body can never be true. */
	MAELYS_DATALOG_WARNING_MISSING_FACT = 3,
	/* A construct of Souffle's that only tunes how Souffle evaluates
	 * (`.pragma "magic-transform" "*"`), accepted and ignored: the
	 * answers are the same without it. */
	MAELYS_DATALOG_WARNING_IGNORED = 4,
} maelys_datalog_warning_kind_t;

/* The number of warnings of the policy's load (0 for NULL), in source
 * order.  At most 100 are kept: when there were more, the last one kept
 * says how many ("... warning: and N more warnings not shown"). */
MAELYS_DATALOG_API size_t
maelys_datalog_policy_warning_count(const maelys_datalog_policy_t *policy);

/* Warning `index`: *kind, and `out` filled as a diagnostic is (status OK,
 * source, line, column; message "source:line:col: warning: what"). Returns
 * OK, INVALID_ARGUMENT (NULL, out of range). */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_policy_get_warning(const maelys_datalog_policy_t *policy,
				  size_t index,
				  maelys_datalog_warning_kind_t *kind,
				  maelys_datalog_diagnostic_t *out);

/* ------------------------------------------------------------------ */
/* Sessions and budgets                                                */

/*
 * Budgets bound what one solve may use; exceeding one stops the solve with
 * its own status.  Each has a default and a hard maximum; a session may set
 * any value from 1 to the maximum (maelys_datalog_budget_max).
 */
typedef enum maelys_datalog_budget {
	/* Input facts accepted by one solve.  STATUS_BUDGET_FACTS. */
	MAELYS_DATALOG_BUDGET_FACTS = 0,
	/* Tuples derived by one solve (and by the policy-only strata when
	 * the session prepares).  STATUS_BUDGET_TUPLES. */
	MAELYS_DATALOG_BUDGET_TUPLES = 1,
	/* Fixpoint iterations of one solve, all strata together.
	 * STATUS_BUDGET_ITERATIONS. */
	MAELYS_DATALOG_BUDGET_ITERATIONS = 2,
	/* PCRE2 match limit of one re_match.  STATUS_REGEX_LIMIT. */
	MAELYS_DATALOG_BUDGET_REGEX_STEPS = 3,
	/* PCRE2 depth limit of one re_match.  STATUS_REGEX_LIMIT. */
	MAELYS_DATALOG_BUDGET_REGEX_DEPTH = 4,
	/* Bytes of working memory of one solve.  STATUS_BUDGET_MEMORY. */
	MAELYS_DATALOG_BUDGET_MEMORY = 5,
	/* Join steps of one solve: rows visited by scans and probes plus
	 * tuples derived (duplicates included).  Bounds the time of a solve
	 * whatever it derives.  STATUS_BUDGET_STEPS. */
	MAELYS_DATALOG_BUDGET_STEPS = 6,
} maelys_datalog_budget_t;

/* The default and the hard maximum of a budget.  Returns OK or
 * INVALID_ARGUMENT (unknown budget, NULL). */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_budget_default(maelys_datalog_budget_t budget, uint64_t *value);
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_budget_max(maelys_datalog_budget_t budget, uint64_t *value);

/* Flags of maelys_datalog_session_create. */
enum {
	/* Provenance: every solve records, for each tuple it derives, the
	 * rule and the body tuples that first derived it, and which rules'
	 * bodies held (result_derivation, result_premise, result_why_not,
	 * result_rule_fired); every predicate of the policy, helper
	 * relations included, can be read from its results.  It costs
	 * memory (counted in BUDGET_MEMORY) and time; a session without it
	 * pays nothing.  See also session_provenance_only. */
	MAELYS_DATALOG_SESSION_PROVENANCE = 1u << 0,
};

/*
 * Creates a session of `policy`, taking its own reference to it.  `flags`
 * is 0 or MAELYS_DATALOG_SESSION_PROVENANCE.  The session holds the policy-only strata once they
 * are materialised (at session_prepare or at the first solve) and a pool of
 * working memory that later solves reuse.
 * Returns OK, INVALID_ARGUMENT, NO_MEMORY.
 */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_session_create(maelys_datalog_policy_t *policy, unsigned flags,
			      maelys_datalog_session_t **out);

/* Releases the session.  Results still alive keep what they read alive and
 * stay valid until freed.  NULL is allowed.  Returns OK. */
MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_session_free(maelys_datalog_session_t *session);

/* Sets a budget for later solves.  Returns OK, INVALID_ARGUMENT (NULL,
 * unknown budget, value 0), LIMIT (value above the hard maximum; nothing
 * changes). */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_session_set_budget(maelys_datalog_session_t *session,
				  maelys_datalog_budget_t budget,
				  uint64_t value);

/* Reads a budget.  Returns OK, INVALID_ARGUMENT. */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_session_get_budget(const maelys_datalog_session_t *session,
				  maelys_datalog_budget_t budget,
				  uint64_t *value);

/*
 * Evaluates the strata that depend only on the policy (its facts and the
 * rules over them), once, under the session's budgets.  Optional: the first
 * solve does it otherwise.  Calling it again after success is a no-op.
 * Returns OK, INVALID_ARGUMENT, NO_MEMORY, BUDGET_TUPLES, BUDGET_ITERATIONS,
 * BUDGET_MEMORY, BUDGET_STEPS, REGEX_LIMIT, TYPE, ARITHMETIC, LIMIT (an
 * arithmetic result beyond +-2^30 over the policy's facts alone).
 */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_session_prepare(maelys_datalog_session_t *session,
			       maelys_datalog_diagnostic_t *diag);

/*
 * Solves the policy with the facts of `edb` and returns what was derived.
 * `edb` is only read (it may be reused and solved again).  Every input fact
 * must name an EDB predicate of the policy with its arity.  Only the strata
 * that the input can change are evaluated.
 * On success the caller owns *out and frees it with result_free.
 * Returns OK, INVALID_ARGUMENT, NO_MEMORY, UNDECLARED, ARITY, ROLE, LIMIT,
 * BUDGET_FACTS, BUDGET_TUPLES, BUDGET_ITERATIONS, BUDGET_MEMORY,
 * BUDGET_STEPS, REGEX_LIMIT, TYPE, ARITHMETIC, PARSE (the text given for
 * a record column is no value of its type).  Any failure means: nothing
 * was decided (deny).
 */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_session_solve_edb(maelys_datalog_session_t *session,
				 const maelys_datalog_input_edb_t *edb,
				 maelys_datalog_result_t **out,
				 maelys_datalog_diagnostic_t *diag);

/*
 * In a PROVENANCE session, records derivations only for the tuples of
 * `predicates` (count names, arity taken from the policy) and of every
 * predicate they are derived from; the others' tuples have ORIGIN_UNKNOWN.
 * count 0 records for every predicate again.  Call before the first solve
 * (or prepare).  Returns OK, INVALID_ARGUMENT (NULL, not a PROVENANCE
 * session, already solved), UNDECLARED.
 */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_session_provenance_only(maelys_datalog_session_t *session,
				       const char *const *predicates,
				       size_t count);

/* ------------------------------------------------------------------ */
/* Input facts                                                         */

/* Creates an empty set of input facts.  Returns OK, INVALID_ARGUMENT,
 * NO_MEMORY. */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_input_edb_create(maelys_datalog_input_edb_t **out);

/* Frees it.  NULL is allowed.  Returns OK. */
MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_input_edb_free(maelys_datalog_input_edb_t *edb);

/* Removes every fact, keeping the memory for reuse.  Returns OK,
 * INVALID_ARGUMENT. */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_input_edb_clear(maelys_datalog_input_edb_t *edb);

/* Removes the facts added after the first `count` (to undo a partial
 * batch).  Returns OK, INVALID_ARGUMENT (NULL, count above the number of
 * facts). */
MAELYS_DATALOG_API maelys_datalog_status_t maelys_datalog_input_edb_truncate(
    maelys_datalog_input_edb_t *edb, size_t count);

/* The number of facts added (duplicates included). 0 for NULL. */
MAELYS_DATALOG_API size_t
maelys_datalog_input_edb_count(const maelys_datalog_input_edb_t *edb);

/*
 * Reads back fact `index` (0 .. count-1, in the order added) so a host can
 * record exactly what it asked: *predicate is its NUL-terminated name and
 * args[0 .. *count-1] its columns, whose strings point into the EDB (not
 * NUL-terminated; use the length) and stay valid until the EDB is next
 * changed or freed.  `args` has room for `capacity` columns
 * (MAELYS_DATALOG_MAX_ARITY is always enough).  Returns OK, INVALID_ARGUMENT
 * (NULL, index out of range), TRUNCATED (capacity below the fact's arity:
 * *count is the arity needed, nothing else is set).
 */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_input_edb_get(const maelys_datalog_input_edb_t *edb,
			     size_t index, const char **predicate,
			     maelys_datalog_arg_t *args, size_t capacity,
			     size_t *count);

/*
 * Adds the fact predicate(args[0], ..., args[count-1]); strings are copied.
 * The predicate is checked against the policy when solved (UNDECLARED, ARITY,
 * ROLE come from session_solve_edb).  A predicate name is
 * [A-Za-z_?][A-Za-z0-9_?]*, at most 255 bytes (the '?' of Souffle's names
 * such as `_?`).  Returns OK, INVALID_ARGUMENT (NULL, a
 * bad predicate name, a bad term kind, a NULL string with a length), LIMIT
 * (count above MAELYS_DATALOG_MAX_ARITY, a string over 65,535 bytes, more
 * than 100,000,000 facts), NO_MEMORY.  On failure nothing was added.
 */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_input_edb_add(maelys_datalog_input_edb_t *edb,
			     const char *predicate,
			     const maelys_datalog_arg_t *args, size_t count,
			     maelys_datalog_diagnostic_t *diag);

/* ------------------------------------------------------------------ */
/* Results                                                             */

/*
 * *found = 1 if the ground fact predicate(args...) was derived, else 0.
 * Returns OK, INVALID_ARGUMENT, UNDECLARED (no such predicate), ARITY,
 * ROLE (not a QUERY predicate).
 */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_result_query(const maelys_datalog_result_t *result,
			    const char *predicate,
			    const maelys_datalog_arg_t *args, size_t count,
			    int *found);

/* *count = the number of facts of predicate/arity.  Returns OK,
 * INVALID_ARGUMENT, UNDECLARED, ARITY, ROLE. */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_result_count(const maelys_datalog_result_t *result,
			    const char *predicate, size_t arity, size_t *count);

/*
 * Copies every fact of predicate/arity into rows[0 .. *count-1], in the order
 * they were derived.  If the relation has more than `capacity` facts, the
 * first `capacity` rows are filled, *count is the number needed and the call
 * returns TRUNCATED: a host must not act on a truncated answer.
 * Returns OK, INVALID_ARGUMENT, UNDECLARED, ARITY, ROLE, TRUNCATED.
 */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_result_enumerate(const maelys_datalog_result_t *result,
				const char *predicate, size_t arity,
				maelys_datalog_fact_view_t *rows,
				size_t capacity, size_t *count);

/* Pages through a large relation: copies up to `capacity` facts starting at
 * fact number `offset` and sets *written.  An offset at or past the end
 * writes nothing.  Returns OK, INVALID_ARGUMENT, UNDECLARED, ARITY, ROLE. */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_result_enumerate_at(const maelys_datalog_result_t *result,
				   const char *predicate, size_t arity,
				   size_t offset,
				   maelys_datalog_fact_view_t *rows,
				   size_t capacity, size_t *written);

/* The text of a symbol of this result: *text points to `*length` bytes
 * followed by a NUL, valid until the result is freed.  Returns OK,
 * INVALID_ARGUMENT (NULL, or an id this result does not know). */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_result_symbol_text(const maelys_datalog_result_t *result,
				  maelys_datalog_symbol_id_t symbol_id,
				  const char **text, size_t *length);

/* The text of a value of a record or algebraic data type (a term of kind
 * SYMBOL whose symbol_text is refused), as Souffle prints it: "[1, [2,
 * nil]]", "nil", "$A(1, $B)"; symbols inside it unquoted and copied byte
 * for byte, so a symbol holding a NUL puts that NUL inside the text: read
 * `*length` bytes, not up to the first NUL.  Writes it to buf (capacity
 * bytes, NUL-terminated when capacity > 0) and its length to *length (may
 * be NULL).  Returns OK; LIMIT when it does not fit (*length is
 * then the length needed: call again with more room) or is nested deeper
 * than 256 or longer than 1 MiB; INVALID_ARGUMENT (NULL result, NULL buf
 * with a capacity, or an id that is no record of this result). */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_result_record_text(const maelys_datalog_result_t *result,
				  maelys_datalog_symbol_id_t symbol_id,
				  char *buf, size_t capacity, size_t *length);

/* The longest text maelys_datalog_float_text writes, with its NUL. */
#define MAELYS_DATALOG_FLOAT_TEXT_MAX 32

/* A FLOAT column's value (the double whose 64 bits the integer holds) as
 * Souffle prints it and as result_record_text prints a float field: the
 * %g style (0.5, 3, 1e+20, -1.5) with the fewest significant digits that
 * read back as the same double, '.' as the point whatever the locale.
 * Writes it to buf (capacity bytes, NUL-terminated when capacity > 0,
 * truncated when too small; buf may be NULL with capacity 0) and returns
 * its length, always less than MAELYS_DATALOG_FLOAT_TEXT_MAX. */
MAELYS_DATALOG_API size_t maelys_datalog_float_text(double value, char *buf,
						    size_t capacity);

/* ------------------------------------------------------------------ */
/* Provenance: why a tuple was derived, and why one was not            */

/* A handle of one tuple of a result; valid as long as the result. */
typedef struct maelys_datalog_tuple {
	uint32_t relation;
	uint32_t row;
} maelys_datalog_tuple_t;

/*
 * Looks up predicate(args...) in the result: *found = 1 and *tuple its handle
 * if it holds (an input fact, a fact of the policy or a derived tuple), else
 * *found = 0.  In a PROVENANCE session any predicate of the policy may be
 * named; otherwise only QUERY predicates (ROLE).  Returns OK,
 * INVALID_ARGUMENT, UNDECLARED, ARITY, ROLE.
 */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_result_find(const maelys_datalog_result_t *result,
			   const char *predicate,
			   const maelys_datalog_arg_t *args, size_t count,
			   maelys_datalog_tuple_t *tuple, int *found);

/* The predicate (a string of the policy) and the terms of a tuple.  Returns
 * OK, INVALID_ARGUMENT (NULL, a handle this result did not give). */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_result_tuple(const maelys_datalog_result_t *result,
			    maelys_datalog_tuple_t tuple,
			    const char **predicate,
			    maelys_datalog_fact_view_t *terms);

typedef enum maelys_datalog_origin {
	/* Not recorded (outside session_provenance_only's predicates). */
	MAELYS_DATALOG_ORIGIN_UNKNOWN = 0,
	MAELYS_DATALOG_ORIGIN_INPUT = 1,  /* an input fact of this solve */
	MAELYS_DATALOG_ORIGIN_POLICY = 2, /* a fact written in the policy */
	MAELYS_DATALOG_ORIGIN_RULE = 3,   /* derived by a rule */
} maelys_datalog_origin_t;

typedef struct maelys_datalog_derivation {
	maelys_datalog_origin_t origin;
	size_t rule;          /* ORIGIN_RULE: the rule (policy_get_rule) */
	size_t premise_count; /* ORIGIN_RULE: the rule's body_count */
} maelys_datalog_derivation_t;

/* How `tuple` was first derived.  Returns OK, INVALID_ARGUMENT (NULL, a
 * handle this result did not give), ROLE (not a PROVENANCE session). */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_result_derivation(const maelys_datalog_result_t *result,
				 maelys_datalog_tuple_t tuple,
				 maelys_datalog_derivation_t *out);

/* What body literal `literal` of the rule that derived a tuple matched. */
typedef struct maelys_datalog_premise {
	maelys_datalog_literal_kind_t kind;
	/* ATOM: the tuple it matched (walk it with result_derivation). */
	maelys_datalog_tuple_t tuple;
	/* NEGATED: the tuple that does not hold, with term kind 0 in a
	 * column the literal leaves anonymous.  BUILTIN: its two
	 * arguments' values (terms[0], terms[1]). */
	const char *predicate; /* NEGATED: the predicate; else NULL */
	maelys_datalog_fact_view_t terms;
} maelys_datalog_premise_t;

/* Premise `literal` of a tuple whose origin is ORIGIN_RULE.  Returns OK,
 * INVALID_ARGUMENT (NULL, bad handle, not derived by a rule, out of range),
 * ROLE (not a PROVENANCE session). */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_result_premise(const maelys_datalog_result_t *result,
			      maelys_datalog_tuple_t tuple, size_t literal,
			      maelys_datalog_premise_t *out);

/*
 * A walk down a derivation tree: depth first from a tuple, then the rule
 * that first derived it and each of its premises in literal order (a
 * positive premise walked into, a negated premise and a built-in visited
 * as leaves).  The walker remembers which derived tuples it has walked
 * into, across every walk made with it, so that a shared subtree is walked
 * once and later visited as WALK_SHOWN: the visits are linear in the
 * distinct tuples reached.
 */
typedef struct maelys_datalog_walk maelys_datalog_walk_t;

typedef enum maelys_datalog_walk_kind {
	/* A tuple derived by a rule, walked into: its premises follow, one
	 * level down.  `number` counts such tuples from 1 in the order they
	 * are visited, across the walks of one walker. */
	MAELYS_DATALOG_WALK_RULE = 1,
	MAELYS_DATALOG_WALK_INPUT = 2,   /* an input fact of this solve */
	MAELYS_DATALOG_WALK_POLICY = 3,  /* a fact written in the policy */
	MAELYS_DATALOG_WALK_UNKNOWN = 4, /* its origin was not recorded */
	/* A tuple derived by a rule and walked into before: `number` is the
	 * one it was visited as; its premises do not follow. */
	MAELYS_DATALOG_WALK_SHOWN = 5,
	/* A tuple derived by a rule at depth max_depth, not yet walked into:
	 * its premises do not follow (and it is not remembered). */
	MAELYS_DATALOG_WALK_DEEPER = 6,
	/* Premise `literal` of `rule`, a negated literal: `predicate` and
	 * `terms` are the tuple that does not hold (term kind 0 in a column
	 * the literal leaves anonymous). */
	MAELYS_DATALOG_WALK_NEGATED = 7,
	/* Premise `literal` of `rule`, a built-in: terms[0] and terms[1] are
	 * its arguments' values; `predicate` is NULL. */
	MAELYS_DATALOG_WALK_BUILTIN = 8,
} maelys_datalog_walk_kind_t;

typedef struct maelys_datalog_walk_node {
	maelys_datalog_walk_kind_t kind;
	size_t depth; /* 0: the root of this walk */
	/* RULE to DEEPER: the tuple, its predicate and terms (as
	 * result_tuple gives them).  NEGATED, BUILTIN: see the kinds. */
	maelys_datalog_tuple_t tuple;
	const char *predicate;
	maelys_datalog_fact_view_t terms;
	/* RULE, SHOWN, DEEPER: the rule that derived the tuple.  NEGATED,
	 * BUILTIN: the rule whose body literal `literal` this is. */
	size_t rule;
	size_t literal;
	size_t number; /* RULE, SHOWN: see the kinds; else 0 */
} maelys_datalog_walk_node_t;

/* Called once per node, in depth-first order; the node is valid during the
 * call (its strings and terms as long as the result).  A nonzero return
 * ends the walk at once. */
typedef int (*maelys_datalog_walk_visit)(const maelys_datalog_walk_node_t *node,
					 void *ctx);

/*
 * Creates a walker of a result of a PROVENANCE session.  It remembers at
 * most `max_shown` tuples walked into (and never more than the result's
 * derived tuples), so its memory is bounded by both.  Free it before the
 * result.  Returns OK, INVALID_ARGUMENT (NULL, max_shown 0), ROLE (not a
 * PROVENANCE session), NO_MEMORY.
 */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_walk_create(const maelys_datalog_result_t *result,
			   size_t max_shown, maelys_datalog_walk_t **out);

/* Frees the walker.  NULL is allowed.  Returns OK. */
MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_walk_free(maelys_datalog_walk_t *walk);

/*
 * Walks the tree of `root`, calling `visit` for each node: a tuple derived
 * by a rule at depth max_depth is visited as DEEPER (so max_depth 0 visits
 * the root alone), and the walk never goes further down.  A visit that
 * returns nonzero ends the walk; it still returns OK.  Returns OK,
 * INVALID_ARGUMENT (NULL, a handle this result did not give), LIMIT (one
 * more tuple to walk into than max_shown: the walk ends before visiting
 * it), NO_MEMORY (the walk ends there; what was visited stays visited).
 */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_walk(maelys_datalog_walk_t *walk, maelys_datalog_tuple_t root,
		    size_t max_depth, maelys_datalog_walk_visit visit,
		    void *ctx);

/*
 * Why rule `rule` did not derive predicate(args...).  *head_matches = 0 when
 * the rule's head cannot be that tuple (another predicate, a constant or a
 * repeated variable that differs).  Otherwise *failed_literal is the first
 * body literal, in source order, at which every way of satisfying the body
 * in this result fails: the body's literals before it can all hold together
 * with the head's bindings, and adding it cannot.  body_count means the body
 * holds (the tuple was derived).  The search is bounded by the session's
 * BUDGET_STEPS (BUDGET_STEPS when exhausted).  Returns OK, INVALID_ARGUMENT,
 * UNDECLARED, ARITY, ROLE (not a PROVENANCE session), BUDGET_STEPS,
 * REGEX_LIMIT, TYPE, ARITHMETIC.
 */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_result_why_not(const maelys_datalog_result_t *result,
			      size_t rule, const char *predicate,
			      const maelys_datalog_arg_t *args, size_t count,
			      int *head_matches, size_t *failed_literal);

/* *fired = 1 when rule `rule`'s body held at least once for this result
 * (in this solve, or when the session evaluated its policy-only strata),
 * whether or not the tuple it gave was new.  Returns OK, INVALID_ARGUMENT,
 * ROLE (not a PROVENANCE session). */
MAELYS_DATALOG_API MAELYS_DATALOG_NODISCARD maelys_datalog_status_t
maelys_datalog_result_rule_fired(const maelys_datalog_result_t *result,
				 size_t rule, int *fired);

/* Frees the result; its working memory returns to the session for the next
 * solve.  NULL is allowed.  Returns OK. */
MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_result_free(maelys_datalog_result_t *result);

#ifdef __cplusplus
}
#endif

#endif /* MAELYS_DATALOG_H */
