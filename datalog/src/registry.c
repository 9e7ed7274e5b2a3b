/* SPDX-License-Identifier: MIT */
/*
 * maelys_datalog_domain_register and the registry behind it.  One mutex
 * (C11 <threads.h>, initialised once with call_once) guards a singly linked
 * list of deep-copied domains.  Registration is idempotent for an equal
 * table and refuses a different table under a known name.
 */
#include "dl_registry.h"

#include "dl_diag.h"
#include "dl_limits.h"
#include "dl_mem.h"

#include <string.h>
#include <threads.h>

struct dl_domain_entry {
	struct dl_domain_entry *next;
	maelys_datalog_domain_t domain; /* every string owned by the entry */
};

/* The registry (the only writable file-scope data of the library). */
static once_flag dl_registry_once = ONCE_FLAG_INIT;
static mtx_t dl_registry_lock;
static struct dl_domain_entry *dl_registry_head;

static void
dl_registry_init(void)
{
	/* mtx_init of a plain mutex cannot fail on glibc; if it ever did,
	 * every later lock would fail and registration would refuse */
	(void)mtx_init(&dl_registry_lock, mtx_plain);
}

static bool
dl_is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool
dl_is_ident_char(char c)
{
	return dl_is_ident_start(c) || (c >= '0' && c <= '9');
}

bool
dl_valid_pred_name(const char *name, size_t len)
{
	size_t i;

	if (name == NULL || len == 0 || len > DL_IDENT_MAX ||
	    !dl_is_ident_start(name[0]))
		return false;
	for (i = 1; i < len; i++) {
		/* a component's member, inst.rel (Souffle's components) */
		if (name[i] == '.' && i + 1 < len &&
		    dl_is_ident_start(name[i + 1]))
			continue;
		if (!dl_is_ident_char(name[i]))
			return false;
	}
	return true;
}

bool
dl_valid_input_name(const char *name, size_t len)
{
	size_t i;

	if (name == NULL || len == 0 || len > DL_IDENT_MAX ||
	    !(dl_is_ident_start(name[0]) || name[0] == '?'))
		return false;
	for (i = 1; i < len; i++) {
		/* a component's member, inst.rel (Souffle's components) */
		if (name[i] == '.' && i + 1 < len &&
		    dl_is_ident_start(name[i + 1]))
			continue;
		if (!dl_is_ident_char(name[i]) && name[i] != '?')
			return false;
	}
	return true;
}

static bool
dl_is_reserved_name(const char *name)
{
	static const char *const words[] = {"not",    "re_match", "prefix",
					    "suffix", "contains", "match"};
	size_t i;

	for (i = 0; i < sizeof words / sizeof *words; i++)
		if (strcmp(words[i], name) == 0)
			return true;
	return false;
}

static maelys_datalog_status_t
dl_domain_validate(const maelys_datalog_domain_t *d)
{
	size_t i, j, n;

	if (d->name == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_DOMAIN;
	n = strlen(d->name);
	if (n == 0 || n > DL_IDENT_MAX)
		return MAELYS_DATALOG_STATUS_INVALID_DOMAIN;
	for (i = 0; i < n; i++)
		if (!dl_is_ident_char(d->name[i]) && d->name[i] != '-' &&
		    d->name[i] != '.')
			return MAELYS_DATALOG_STATUS_INVALID_DOMAIN;
	if ((d->predicate_count > 0 && d->predicates == NULL) ||
	    d->predicate_count > DL_PREDICATES_MAX ||
	    (d->atom_count > 0 && d->atoms == NULL) ||
	    d->atom_count > (size_t)1 << 20)
		return MAELYS_DATALOG_STATUS_INVALID_DOMAIN;
	for (i = 0; i < d->predicate_count; i++) {
		const maelys_datalog_predicate_t *p = &d->predicates[i];
		unsigned role = p->role;

		/* [a-z] first: an upper-case or _ name would read as a
		 * variable in a policy */
		if (p->name == NULL ||
		    !(p->name[0] >= 'a' && p->name[0] <= 'z') ||
		    !dl_valid_pred_name(p->name, strlen(p->name)) ||
		    dl_is_reserved_name(p->name) ||
		    p->arity > MAELYS_DATALOG_MAX_ARITY)
			return MAELYS_DATALOG_STATUS_INVALID_DOMAIN;
		if (role != MAELYS_DATALOG_PREDICATE_EDB &&
		    role != MAELYS_DATALOG_PREDICATE_POLICY_FACT &&
		    role != MAELYS_DATALOG_PREDICATE_IDB &&
		    role != (MAELYS_DATALOG_PREDICATE_IDB |
			     MAELYS_DATALOG_PREDICATE_QUERY))
			return MAELYS_DATALOG_STATUS_INVALID_DOMAIN;
		/* quadratic, but domains are small and this runs once */
		for (j = 0; j < i; j++)
			if (strcmp(d->predicates[j].name, p->name) == 0)
				return MAELYS_DATALOG_STATUS_INVALID_DOMAIN;
	}
	for (i = 0; i < d->atom_count; i++)
		if (d->atoms[i] == NULL ||
		    strlen(d->atoms[i]) > DL_STRING_LEN_MAX)
			return MAELYS_DATALOG_STATUS_INVALID_DOMAIN;
	return MAELYS_DATALOG_STATUS_OK;
}

static bool
dl_domain_equal(const maelys_datalog_domain_t *a,
		const maelys_datalog_domain_t *b)
{
	size_t i;

	if (strcmp(a->name, b->name) != 0 ||
	    a->predicate_count != b->predicate_count ||
	    a->atom_count != b->atom_count)
		return false;
	for (i = 0; i < a->predicate_count; i++) {
		const maelys_datalog_predicate_t *x = &a->predicates[i];
		const maelys_datalog_predicate_t *y = &b->predicates[i];

		if (strcmp(x->name, y->name) != 0 || x->arity != y->arity ||
		    x->role != y->role)
			return false;
	}
	for (i = 0; i < a->atom_count; i++)
		if (strcmp(a->atoms[i], b->atoms[i]) != 0)
			return false;
	return true;
}

/* A deep copy in one arena-like block: entry, tables, then strings. */
static struct dl_domain_entry *
dl_domain_copy(const maelys_datalog_domain_t *d)
{
	size_t bytes = sizeof(struct dl_domain_entry), i, off;
	struct dl_domain_entry *e;
	maelys_datalog_predicate_t *preds;
	const char **atoms;
	char *s;

	bytes += d->predicate_count * sizeof *preds;
	bytes += d->atom_count * sizeof *atoms;
	bytes += strlen(d->name) + 1;
	for (i = 0; i < d->predicate_count; i++)
		bytes += strlen(d->predicates[i].name) + 1;
	for (i = 0; i < d->atom_count; i++)
		bytes += strlen(d->atoms[i]) + 1;
	e = dl_alloc(bytes);
	if (e == NULL)
		return NULL;
	preds = (maelys_datalog_predicate_t *)(e + 1);
	atoms = (const char **)(preds + d->predicate_count);
	s = (char *)(atoms + d->atom_count);
	off = 0;
#define DL_COPY_STR(dst, src)                                                  \
	do {                                                                   \
		size_t n_ = strlen(src) + 1;                                   \
		memcpy(s + off, (src), n_);                                    \
		(dst) = s + off;                                               \
		off += n_;                                                     \
	} while (0)
	e->next = NULL;
	DL_COPY_STR(e->domain.name, d->name);
	for (i = 0; i < d->predicate_count; i++) {
		preds[i] = d->predicates[i];
		DL_COPY_STR(preds[i].name, d->predicates[i].name);
	}
	for (i = 0; i < d->atom_count; i++)
		DL_COPY_STR(atoms[i], d->atoms[i]);
#undef DL_COPY_STR
	e->domain.predicates = preds;
	e->domain.predicate_count = d->predicate_count;
	e->domain.atoms = atoms;
	e->domain.atom_count = d->atom_count;
	return e;
}

MAELYS_DATALOG_API maelys_datalog_status_t
maelys_datalog_domain_register(const maelys_datalog_domain_t *domain)
{
	struct dl_domain_entry *e;
	maelys_datalog_status_t st;

	if (domain == NULL)
		return MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	if ((st = dl_domain_validate(domain)) != MAELYS_DATALOG_STATUS_OK)
		return st;
	call_once(&dl_registry_once, dl_registry_init);
	if (mtx_lock(&dl_registry_lock) != thrd_success)
		return MAELYS_DATALOG_STATUS_NO_MEMORY;
	for (e = dl_registry_head; e != NULL; e = e->next) {
		if (strcmp(e->domain.name, domain->name) == 0) {
			st = dl_domain_equal(&e->domain, domain)
				 ? MAELYS_DATALOG_STATUS_OK
				 : MAELYS_DATALOG_STATUS_DOMAIN_CONFLICT;
			(void)mtx_unlock(&dl_registry_lock);
			return st;
		}
	}
	e = dl_domain_copy(domain);
	if (e == NULL) {
		(void)mtx_unlock(&dl_registry_lock);
		return MAELYS_DATALOG_STATUS_NO_MEMORY;
	}
	e->next = dl_registry_head;
	dl_registry_head = e;
	(void)mtx_unlock(&dl_registry_lock);
	return MAELYS_DATALOG_STATUS_OK;
}

const maelys_datalog_domain_t *
dl_registry_find(const char *name)
{
	const struct dl_domain_entry *e;
	const maelys_datalog_domain_t *found = NULL;

	call_once(&dl_registry_once, dl_registry_init);
	if (mtx_lock(&dl_registry_lock) != thrd_success)
		return NULL;
	for (e = dl_registry_head; e != NULL; e = e->next) {
		if (strcmp(e->domain.name, name) == 0) {
			found = &e->domain;
			break;
		}
	}
	(void)mtx_unlock(&dl_registry_lock);
	return found;
}
