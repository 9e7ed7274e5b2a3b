/* SPDX-License-Identifier: MIT */
/*
 * maelys_datalog._datalog - the CPython binding of libmaelys-datalog: what
 * its files share.  One file per concern: errors.c, terms.c, objects.c,
 * policy.c, edb.c, result.c, session.c, domain.c and module.c (PyInit).
 *
 * Built only on the public headers <maelys/datalog.h> and
 * <maelys/datalog_builders.h>.  Each Python object owns one engine handle;
 * close() (or the end of a `with` block, or the object's collection) frees
 * it, and a closed object raises InvalidArgumentError instead of reaching a
 * freed pointer.  The engine itself makes any order of freeing safe: a
 * session holds its own reference to its policy, a result stays valid after
 * its session is freed.
 *
 * Threads: the engine lets one thread at a time use a session, an input EDB
 * or a result.  A Session and an InputEdb carry a lock, taken by every
 * method (released only after the call), because solve() releases the GIL
 * and another thread could otherwise use either while the engine works.
 * A Result never releases the GIL, so the GIL is its lock.  solve() takes
 * the session's lock, then the EDB's: always in that order, so two solves
 * cannot wait on each other.
 *
 * Every name declared here is internal to the extension: the builds give it
 * hidden visibility, so only PyInit__datalog is exported.
 */
#ifndef MAELYS_DATALOG_PY_MODULE_H
#define MAELYS_DATALOG_PY_MODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>

#include <maelys/datalog.h>
#include <maelys/datalog_builders.h>

/* ------------------------------------------------------------------ */
/* Errors (errors.c)                                                   */

/* Fetches the exception classes by status from maelys_datalog._errors,
 * once, when the module is created: 0, or -1 with an exception set. */
int errors_load(void);

/* Raises the class of `st` with the diagnostic's fields (diag may be NULL,
 * or hold no message: the status's meaning is the message then).  Always
 * returns NULL, so a method can return its result. */
PyObject *raise_status(maelys_datalog_status_t st,
		       const maelys_datalog_diagnostic_t *diag);

/* InvalidArgumentError with a message of the binding's own; NULL. */
PyObject *raise_invalid(const char *message);

/* ------------------------------------------------------------------ */
/* Conversions (terms.c)                                               */

/* A str's UTF-8 with no NUL inside (names the engine takes as C strings),
 * `what` naming it in the error: NULL with an exception otherwise.  The
 * buffer belongs to `obj`. */
const char *c_name(PyObject *obj, const char *what);

/* Python values (str, bytes, int of 64 signed bits) -> the `n` engine
 * terms `args` (at most MAELYS_DATALOG_MAX_ARITY).  `keep` (a list)
 * collects the objects whose buffers the args point into; the caller
 * releases it after the engine call.  0, or -1 with an exception set. */
int to_args(PyObject *const *items, Py_ssize_t n, maelys_datalog_arg_t *args,
	    PyObject *keep);

/* An engine term of `result` -> int or str; NULL with an exception. */
PyObject *from_term(const maelys_datalog_result_t *result,
		    const maelys_datalog_term_t *t);

/* ------------------------------------------------------------------ */
/* Shared by the object types (objects.c)                              */

/* Takes `lock`, waiting with the GIL released when another thread holds
 * it (that thread may need the GIL to finish). */
void lock_take(PyThread_type_lock lock);

/* __enter__ of every type: the object itself. */
PyObject *return_self(PyObject *self, PyObject *unused);

/* __exit__ of every type: calls close(), never swallows the exception. */
PyObject *call_close(PyObject *self, PyObject *unused);

/* ------------------------------------------------------------------ */
/* The object types                                                    */

/* A Policy (policy.c); the session reads its handle. */
typedef struct {
	PyObject_HEAD
	maelys_datalog_policy_t *policy; /* NULL once closed */
} PolicyObject;

/* An InputEdb (edb.c); Session.solve takes its lock and reads its handle. */
typedef struct {
	PyObject_HEAD
	maelys_datalog_input_edb_t *edb; /* NULL once closed */
	PyThread_type_lock lock;         /* taken by every method */
} EdbObject;

/* A Result (result.c); Session.solve makes it. */
typedef struct {
	PyObject_HEAD
	maelys_datalog_result_t *result; /* NULL once closed */
} ResultObject;

/* The classes, added to the module by module.c. */
extern PyTypeObject Policy_Type;  /* maelys_datalog.Policy (policy.c) */
extern PyTypeObject Edb_Type;     /* maelys_datalog.InputEdb (edb.c) */
extern PyTypeObject Result_Type;  /* maelys_datalog.Result (result.c) */
extern PyTypeObject Session_Type; /* maelys_datalog.Session (session.c) */

/* ------------------------------------------------------------------ */
/* Module functions                                                    */

/* register_domain(name, predicates, atoms) (domain.c): predicates are
 * (name, arity, role) sequences; atoms None or strings. */
PyObject *register_domain(PyObject *mod, PyObject *args);

#endif
