/* SPDX-License-Identifier: MIT */
/*
 * maelys_datalog._datalog - the CPython binding of libmaelys-datalog.
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
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>

#include <maelys/datalog.h>
#include <maelys/datalog_builders.h>

#include <limits.h>
#include <string.h>

/* The module's state: the exception classes by status, from _errors.py. */
static PyObject *errors_by_status; /* dict: status name -> class */

/* ------------------------------------------------------------------ */
/* Errors                                                              */

/* Raises the class of `st` with the diagnostic's fields (diag may be NULL,
 * or hold no message: the status's meaning is the message then). */
static PyObject *
raise_status(maelys_datalog_status_t st, const maelys_datalog_diagnostic_t *diag)
{
	const char *name = maelys_datalog_status_name(st);
	const char *message = diag != NULL && diag->message[0] != '\0'
				  ? diag->message
				  : maelys_datalog_status_meaning(st);
	PyObject *cls, *args = NULL, *kwargs = NULL, *exc = NULL;

	cls = errors_by_status != NULL
		  ? PyDict_GetItemString(errors_by_status, name)
		  : NULL;
	if (cls == NULL) {
		PyErr_Format(PyExc_RuntimeError, "maelys_datalog: %s: %s", name,
			     message);
		return NULL;
	}
	args = Py_BuildValue("(s)", message);
	if (args != NULL)
		kwargs = Py_BuildValue(
		    "{s:s,s:n,s:n}", "source",
		    diag != NULL ? diag->source : "", "line",
		    (Py_ssize_t)(diag != NULL && diag->line <= PY_SSIZE_T_MAX
				     ? diag->line
				     : 0),
		    "column",
		    (Py_ssize_t)(diag != NULL && diag->column <= PY_SSIZE_T_MAX
				     ? diag->column
				     : 0));
	if (kwargs != NULL)
		exc = PyObject_Call(cls, args, kwargs);
	if (exc != NULL) {
		PyErr_SetObject(cls, exc);
		Py_DECREF(exc);
	}
	Py_XDECREF(args);
	Py_XDECREF(kwargs);
	return NULL;
}

/* InvalidArgumentError with a message of the binding's own. */
static PyObject *
raise_invalid(const char *message)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;

	diag.status = MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	snprintf(diag.message, sizeof diag.message, "%s", message);
	return raise_status(MAELYS_DATALOG_STATUS_INVALID_ARGUMENT, &diag);
}

/* ------------------------------------------------------------------ */
/* Conversions                                                         */

/* A str's UTF-8 with no NUL inside (names the engine takes as C strings):
 * NULL with an exception otherwise.  The buffer belongs to `obj`. */
static const char *
c_name(PyObject *obj, const char *what)
{
	const char *s;
	Py_ssize_t n;

	if (!PyUnicode_Check(obj)) {
		PyErr_Format(PyExc_TypeError, "%s must be a str, not %.80s",
			     what, Py_TYPE(obj)->tp_name);
		return NULL;
	}
	s = PyUnicode_AsUTF8AndSize(obj, &n);
	if (s == NULL)
		return NULL;
	if ((size_t)n != strlen(s)) {
		char msg[160];

		snprintf(msg, sizeof msg, "%s contains a NUL character", what);
		raise_invalid(msg);
		return NULL;
	}
	return s;
}

/*
 * Python values -> engine terms.  A str is its UTF-8 (lone surrogates as the
 * bytes surrogateescape made them, so a symbol read back round-trips), bytes
 * are taken as they are, an int must fit int64.  `keep` collects the
 * objects whose buffers the args point into; the caller releases it.
 */
static int
to_args(PyObject *const *items, Py_ssize_t n, maelys_datalog_arg_t *args,
	PyObject *keep)
{
	Py_ssize_t i;

	if (n > MAELYS_DATALOG_MAX_ARITY) {
		maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;

		snprintf(diag.message, sizeof diag.message,
			 "%zd columns: the engine's maximum arity is %d", n,
			 MAELYS_DATALOG_MAX_ARITY);
		raise_status(MAELYS_DATALOG_STATUS_LIMIT, &diag);
		return -1;
	}
	for (i = 0; i < n; i++) {
		PyObject *v = items[i], *b = NULL;

		if (PyBool_Check(v)) {
			PyErr_SetString(PyExc_TypeError,
					"a term is a str, bytes or int, not bool");
			return -1;
		}
		if (PyLong_Check(v)) {
			int overflow = 0;
			long long x = PyLong_AsLongLongAndOverflow(v, &overflow);

			if (overflow != 0) {
				PyErr_SetString(PyExc_OverflowError,
						"an integer term must fit in 64 "
						"signed bits");
				return -1;
			}
			if (x == -1 && PyErr_Occurred())
				return -1;
			args[i] = maelys_datalog_arg_integer((int64_t)x);
			continue;
		}
		if (PyUnicode_Check(v)) {
			b = PyUnicode_AsEncodedString(v, "utf-8",
						      "surrogateescape");
			if (b == NULL)
				return -1;
		} else if (PyBytes_Check(v)) {
			b = Py_NewRef(v);
		} else {
			PyErr_Format(PyExc_TypeError,
				     "a term is a str, bytes or int, not %.80s",
				     Py_TYPE(v)->tp_name);
			return -1;
		}
		if (PyList_Append(keep, b) < 0) {
			Py_DECREF(b);
			return -1;
		}
		args[i] = maelys_datalog_arg_symbol_n(
		    PyBytes_AS_STRING(b), (size_t)PyBytes_GET_SIZE(b));
		Py_DECREF(b);
	}
	return 0;
}

/* An engine term of `result` -> int or str. */
static PyObject *
from_term(const maelys_datalog_result_t *result, const maelys_datalog_term_t *t)
{
	const char *text = NULL;
	size_t length = 0;
	maelys_datalog_status_t st;

	if (t->kind == MAELYS_DATALOG_TERM_INTEGER)
		return PyLong_FromLongLong((long long)t->as.integer);
	st = maelys_datalog_result_symbol_text(result, t->as.symbol_id, &text,
					       &length);
	if (st != MAELYS_DATALOG_STATUS_OK)
		return raise_status(st, NULL);
	if (length > PY_SSIZE_T_MAX)
		return raise_invalid("symbol too long");
	return PyUnicode_DecodeUTF8(text, (Py_ssize_t)length,
				    "surrogateescape");
}

/* ------------------------------------------------------------------ */
/* Locks                                                               */

/* Takes `lock`, waiting with the GIL released when another thread holds
 * it (that thread may need the GIL to finish). */
static void
lock_take(PyThread_type_lock lock)
{
	if (PyThread_acquire_lock(lock, NOWAIT_LOCK))
		return;
	Py_BEGIN_ALLOW_THREADS
	PyThread_acquire_lock(lock, WAIT_LOCK);
	Py_END_ALLOW_THREADS
}

/* ------------------------------------------------------------------ */
/* Policy                                                              */

typedef struct {
	PyObject_HEAD
	maelys_datalog_policy_t *policy;
} PolicyObject;

static PyTypeObject Policy_Type;

static PyObject *
policy_wrap(maelys_datalog_policy_t *p)
{
	PolicyObject *self = PyObject_New(PolicyObject, &Policy_Type);

	if (self == NULL) {
		(void)maelys_datalog_policy_free(p);
		return NULL;
	}
	self->policy = p;
	return (PyObject *)self;
}

static PyObject *
Policy_load_inline(PyObject *cls, PyObject *args, PyObject *kwargs)
{
	static char *kw[] = {"name", "text", "domain", "souffle", NULL};
	PyObject *name_o, *text_o, *domain_o = Py_None, *bytes = NULL;
	int souffle = 0;
	const char *name, *domain = NULL;
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *p = NULL;
	maelys_datalog_status_t st;

	(void)cls;
	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$Op", kw, &name_o,
					 &text_o, &domain_o, &souffle))
		return NULL;
	if ((name = c_name(name_o, "the source name")) == NULL)
		return NULL;
	if (domain_o != Py_None &&
	    (domain = c_name(domain_o, "the domain name")) == NULL)
		return NULL;
	if (PyUnicode_Check(text_o))
		bytes = PyUnicode_AsUTF8String(text_o);
	else if (PyBytes_Check(text_o))
		bytes = Py_NewRef(text_o);
	else
		PyErr_Format(PyExc_TypeError,
			     "the policy text must be str or bytes, not %.80s",
			     Py_TYPE(text_o)->tp_name);
	if (bytes == NULL)
		return NULL;
	/* the text is copied by the engine; `bytes` outlives the call */
	Py_BEGIN_ALLOW_THREADS
	st = maelys_datalog_policy_load_text(
	    domain, name, PyBytes_AS_STRING(bytes),
	    (size_t)PyBytes_GET_SIZE(bytes),
	    souffle ? MAELYS_DATALOG_LOAD_SOUFFLE : 0u, &p, &diag);
	Py_END_ALLOW_THREADS
	Py_DECREF(bytes);
	if (st != MAELYS_DATALOG_STATUS_OK)
		return raise_status(st, &diag);
	return policy_wrap(p);
}

static PyObject *
Policy_load_file(PyObject *cls, PyObject *args, PyObject *kwargs)
{
	static char *kw[] = {"path", "domain", NULL};
	PyObject *path_o = NULL, *domain_o = Py_None;
	const char *domain = NULL;
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_policy_t *p = NULL;
	maelys_datalog_status_t st;

	(void)cls;
	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|$O", kw,
					 PyUnicode_FSConverter, &path_o,
					 &domain_o))
		return NULL;
	if (domain_o != Py_None &&
	    (domain = c_name(domain_o, "the domain name")) == NULL) {
		Py_DECREF(path_o);
		return NULL;
	}
	if ((size_t)PyBytes_GET_SIZE(path_o) != strlen(PyBytes_AS_STRING(path_o))) {
		Py_DECREF(path_o);
		return raise_invalid("the path contains a NUL character");
	}
	Py_BEGIN_ALLOW_THREADS
	st = maelys_datalog_policy_load_file(domain, PyBytes_AS_STRING(path_o),
					     &p, &diag);
	Py_END_ALLOW_THREADS
	Py_DECREF(path_o);
	if (st != MAELYS_DATALOG_STATUS_OK)
		return raise_status(st, &diag);
	return policy_wrap(p);
}

static PyObject *
Policy_close(PolicyObject *self, PyObject *unused)
{
	(void)unused;
	(void)maelys_datalog_policy_free(self->policy);
	self->policy = NULL;
	Py_RETURN_NONE;
}

static PyObject *
Policy_warnings(PolicyObject *self, PyObject *unused)
{
	size_t n, i;
	PyObject *list;

	(void)unused;
	if (self->policy == NULL)
		return raise_invalid("the policy is closed");
	n = maelys_datalog_policy_warning_count(self->policy);
	list = PyList_New(0);
	for (i = 0; list != NULL && i < n; i++) {
		maelys_datalog_diagnostic_t d = MAELYS_DATALOG_DIAGNOSTIC_INIT;
		maelys_datalog_warning_kind_t kind;
		PyObject *m;

		if (maelys_datalog_policy_get_warning(self->policy, i, &kind,
						      &d) != MAELYS_DATALOG_STATUS_OK)
			continue;
		m = PyUnicode_DecodeUTF8(d.message, (Py_ssize_t)strlen(d.message),
					 "replace");
		if (m == NULL || PyList_Append(list, m) < 0) {
			Py_XDECREF(m);
			Py_CLEAR(list);
			break;
		}
		Py_DECREF(m);
	}
	return list;
}

static PyObject *
Policy_reads(PolicyObject *self, PyObject *args)
{
	PyObject *pred_o;
	Py_ssize_t arity;
	const char *pred;
	int reads = 0;
	maelys_datalog_status_t st;

	if (!PyArg_ParseTuple(args, "On", &pred_o, &arity))
		return NULL;
	if (self->policy == NULL)
		return raise_invalid("the policy is closed");
	if ((pred = c_name(pred_o, "the predicate")) == NULL)
		return NULL;
	if (arity < 0)
		return raise_invalid("a negative arity");
	st = maelys_datalog_policy_reads(self->policy, pred, (size_t)arity,
					 &reads);
	if (st != MAELYS_DATALOG_STATUS_OK)
		return raise_status(st, NULL);
	return PyBool_FromLong(reads);
}

static PyObject *
return_self(PyObject *self, PyObject *unused)
{
	(void)unused;
	return Py_NewRef(self);
}

static PyObject *
call_close(PyObject *self, PyObject *unused)
{
	PyObject *r;

	(void)unused;
	r = PyObject_CallMethod(self, "close", NULL);
	if (r == NULL)
		return NULL;
	Py_DECREF(r);
	Py_RETURN_FALSE;
}

static void
Policy_dealloc(PolicyObject *self)
{
	(void)maelys_datalog_policy_free(self->policy);
	PyObject_Free(self);
}

static PyMethodDef Policy_methods[] = {
    {"load_inline", (PyCFunction)(void (*)(void))Policy_load_inline,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "load_inline(name, text, *, domain=None, souffle=False) -> Policy\n\n"
     "Compiles `text` (str or bytes), named `name` in diagnostics, for the\n"
     "registered domain `domain` (None: a standalone program whose every\n"
     "predicate is readable).  Raises an Error subclass naming source, line\n"
     "and column on any load error."},
    {"load_file", (PyCFunction)(void (*)(void))Policy_load_file,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "load_file(path, *, domain=None) -> Policy\n\n"
     "Reads and compiles the policy file at `path` (IoError when it cannot\n"
     "be read)."},
    {"close", (PyCFunction)Policy_close, METH_NOARGS,
     "Drops this object's reference to the policy; sessions keep theirs."},
    {"warnings", (PyCFunction)Policy_warnings, METH_NOARGS,
     "The load's warnings, as 'source:line:col: warning: what' strings."},
    {"reads", (PyCFunction)Policy_reads, METH_VARARGS,
     "reads(predicate, arity) -> bool: whether some rule reads it."},
    {"__enter__", return_self, METH_NOARGS, NULL},
    {"__exit__", call_close, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject Policy_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "maelys_datalog.Policy",
    .tp_basicsize = sizeof(PolicyObject),
    .tp_dealloc = (destructor)Policy_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An immutable, compiled policy (Policy.load_inline, "
	      "Policy.load_file).\nShare it between any number of sessions "
	      "and threads.",
    .tp_methods = Policy_methods,
};

/* ------------------------------------------------------------------ */
/* InputEdb                                                            */

typedef struct {
	PyObject_HEAD
	maelys_datalog_input_edb_t *edb;
	PyThread_type_lock lock;
} EdbObject;

static PyTypeObject Edb_Type;

static PyObject *
Edb_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
	EdbObject *self;
	maelys_datalog_status_t st;

	if (!PyArg_ParseTuple(args, ":InputEdb") ||
	    (kwargs != NULL && PyDict_Size(kwargs) > 0)) {
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_TypeError,
					"InputEdb() takes no arguments");
		return NULL;
	}
	self = (EdbObject *)type->tp_alloc(type, 0);
	if (self == NULL)
		return NULL;
	self->lock = PyThread_allocate_lock();
	if (self->lock == NULL) {
		Py_DECREF(self);
		return PyErr_NoMemory();
	}
	st = maelys_datalog_input_edb_create(&self->edb);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		Py_DECREF(self);
		return raise_status(st, NULL);
	}
	return (PyObject *)self;
}

/* Adds predicate(items...) under the EDB's lock (held by the caller). */
static int
edb_add(EdbObject *self, PyObject *pred_o, PyObject *const *items,
	Py_ssize_t n)
{
	maelys_datalog_arg_t args[MAELYS_DATALOG_MAX_ARITY];
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_status_t st;
	const char *pred;
	PyObject *keep;
	int rc = -1;

	if ((pred = c_name(pred_o, "the predicate")) == NULL)
		return -1;
	keep = PyList_New(0);
	if (keep == NULL)
		return -1;
	if (to_args(items, n, args, keep) == 0) {
		st = maelys_datalog_input_edb_add(self->edb, pred, args,
						  (size_t)n, &diag);
		if (st == MAELYS_DATALOG_STATUS_OK)
			rc = 0;
		else
			raise_status(st, &diag);
	}
	Py_DECREF(keep);
	return rc;
}

static PyObject *
Edb_add_fact(EdbObject *self, PyObject *args)
{
	Py_ssize_t n = PyTuple_GET_SIZE(args);
	int rc;

	if (n < 1) {
		PyErr_SetString(PyExc_TypeError,
				"add_fact(predicate, *terms) needs a predicate");
		return NULL;
	}
	lock_take(self->lock);
	if (self->edb == NULL) {
		PyThread_release_lock(self->lock);
		return raise_invalid("the input EDB is closed");
	}
	rc = edb_add(self, PyTuple_GET_ITEM(args, 0),
		     &PyTuple_GET_ITEM(args, 1), n - 1);
	PyThread_release_lock(self->lock);
	if (rc < 0)
		return NULL;
	Py_RETURN_NONE;
}

/* add_facts(iterable): each item a sequence (predicate, *terms).  All or
 * none: a rejected fact undoes the batch (input_edb_truncate). */
static PyObject *
Edb_add_facts(EdbObject *self, PyObject *iterable)
{
	PyObject *it, *item;
	size_t before;
	int failed = 0;

	it = PyObject_GetIter(iterable);
	if (it == NULL)
		return NULL;
	lock_take(self->lock);
	if (self->edb == NULL) {
		PyThread_release_lock(self->lock);
		Py_DECREF(it);
		return raise_invalid("the input EDB is closed");
	}
	before = maelys_datalog_input_edb_count(self->edb);
	while (!failed && (item = PyIter_Next(it)) != NULL) {
		PyObject *seq = PySequence_Fast(
		    item, "add_facts: each fact is a sequence "
			  "(predicate, *terms)");

		if (seq == NULL) {
			failed = 1;
		} else if (PySequence_Fast_GET_SIZE(seq) < 1) {
			PyErr_SetString(PyExc_TypeError,
					"add_facts: a fact needs a predicate");
			failed = 1;
		} else if (edb_add(self, PySequence_Fast_GET_ITEM(seq, 0),
				   PySequence_Fast_ITEMS(seq) + 1,
				   PySequence_Fast_GET_SIZE(seq) - 1) < 0) {
			failed = 1;
		}
		Py_XDECREF(seq);
		Py_DECREF(item);
	}
	if (!failed && PyErr_Occurred())
		failed = 1;
	if (failed)
		(void)maelys_datalog_input_edb_truncate(self->edb, before);
	PyThread_release_lock(self->lock);
	Py_DECREF(it);
	if (failed)
		return NULL;
	Py_RETURN_NONE;
}

static PyObject *
Edb_clear(EdbObject *self, PyObject *unused)
{
	maelys_datalog_status_t st = MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;

	(void)unused;
	lock_take(self->lock);
	if (self->edb != NULL)
		st = maelys_datalog_input_edb_clear(self->edb);
	PyThread_release_lock(self->lock);
	if (self->edb == NULL)
		return raise_invalid("the input EDB is closed");
	if (st != MAELYS_DATALOG_STATUS_OK)
		return raise_status(st, NULL);
	Py_RETURN_NONE;
}

static PyObject *
Edb_close(EdbObject *self, PyObject *unused)
{
	(void)unused;
	lock_take(self->lock);
	(void)maelys_datalog_input_edb_free(self->edb);
	self->edb = NULL;
	PyThread_release_lock(self->lock);
	Py_RETURN_NONE;
}

static Py_ssize_t
Edb_len(EdbObject *self)
{
	size_t n;

	lock_take(self->lock);
	n = maelys_datalog_input_edb_count(self->edb);
	PyThread_release_lock(self->lock);
	return n > PY_SSIZE_T_MAX ? PY_SSIZE_T_MAX : (Py_ssize_t)n;
}

static void
Edb_dealloc(EdbObject *self)
{
	(void)maelys_datalog_input_edb_free(self->edb);
	if (self->lock != NULL)
		PyThread_free_lock(self->lock);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Edb_methods[] = {
    {"add_fact", (PyCFunction)Edb_add_fact, METH_VARARGS,
     "add_fact(predicate, *terms): adds one input fact.  A term is a str\n"
     "(its UTF-8), bytes, or an int of 64 signed bits.  The predicate is\n"
     "checked against the policy when solved."},
    {"add_facts", (PyCFunction)Edb_add_facts, METH_O,
     "add_facts(iterable): adds facts given as (predicate, *terms)\n"
     "sequences, all or none."},
    {"clear", (PyCFunction)Edb_clear, METH_NOARGS,
     "Removes every fact, keeping the memory."},
    {"close", (PyCFunction)Edb_close, METH_NOARGS, "Frees the facts."},
    {"__enter__", return_self, METH_NOARGS, NULL},
    {"__exit__", call_close, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods Edb_as_sequence = {
    .sq_length = (lenfunc)Edb_len,
};

static PyTypeObject Edb_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "maelys_datalog.InputEdb",
    .tp_basicsize = sizeof(EdbObject),
    .tp_dealloc = (destructor)Edb_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "InputEdb(): the input facts of one question.  len() is the "
	      "number of facts added.",
    .tp_methods = Edb_methods,
    .tp_as_sequence = &Edb_as_sequence,
    .tp_new = Edb_new,
};

/* ------------------------------------------------------------------ */
/* Result                                                              */

typedef struct {
	PyObject_HEAD
	maelys_datalog_result_t *result;
} ResultObject;

static PyTypeObject Result_Type;

static PyObject *
Result_query(ResultObject *self, PyObject *args)
{
	maelys_datalog_arg_t terms[MAELYS_DATALOG_MAX_ARITY];
	Py_ssize_t n = PyTuple_GET_SIZE(args);
	maelys_datalog_status_t st;
	const char *pred;
	PyObject *keep;
	int found = 0;

	if (n < 1) {
		PyErr_SetString(PyExc_TypeError,
				"query(predicate, *terms) needs a predicate");
		return NULL;
	}
	if (self->result == NULL)
		return raise_invalid("the result is closed");
	if ((pred = c_name(PyTuple_GET_ITEM(args, 0), "the predicate")) == NULL)
		return NULL;
	keep = PyList_New(0);
	if (keep == NULL)
		return NULL;
	if (to_args(&PyTuple_GET_ITEM(args, 1), n - 1, terms, keep) < 0) {
		Py_DECREF(keep);
		return NULL;
	}
	st = maelys_datalog_result_query(self->result, pred, terms,
					 (size_t)(n - 1), &found);
	Py_DECREF(keep);
	if (st != MAELYS_DATALOG_STATUS_OK)
		return raise_status(st, NULL);
	return PyBool_FromLong(found);
}

static PyObject *
Result_rows(ResultObject *self, PyObject *args)
{
	PyObject *pred_o, *list = NULL;
	Py_ssize_t arity;
	const char *pred;
	size_t count = 0, written = 0, i, k;
	maelys_datalog_fact_view_t *rows;
	maelys_datalog_status_t st;

	if (!PyArg_ParseTuple(args, "On:rows", &pred_o, &arity))
		return NULL;
	if (self->result == NULL)
		return raise_invalid("the result is closed");
	if ((pred = c_name(pred_o, "the predicate")) == NULL)
		return NULL;
	if (arity < 0)
		return raise_invalid("a negative arity");
	st = maelys_datalog_result_count(self->result, pred, (size_t)arity,
					 &count);
	if (st != MAELYS_DATALOG_STATUS_OK)
		return raise_status(st, NULL);
	if (count > (size_t)PY_SSIZE_T_MAX / sizeof *rows)
		return raise_status(MAELYS_DATALOG_STATUS_NO_MEMORY, NULL);
	rows = PyMem_Malloc(count > 0 ? count * sizeof *rows : 1);
	if (rows == NULL)
		return PyErr_NoMemory();
	st = maelys_datalog_result_enumerate_at(self->result, pred,
						(size_t)arity, 0, rows, count,
						&written);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		PyMem_Free(rows);
		return raise_status(st, NULL);
	}
	list = PyList_New((Py_ssize_t)written);
	for (i = 0; list != NULL && i < written; i++) {
		PyObject *row = PyTuple_New((Py_ssize_t)rows[i].arity);

		for (k = 0; row != NULL && k < rows[i].arity; k++) {
			PyObject *v = from_term(self->result, &rows[i].terms[k]);

			if (v == NULL)
				Py_CLEAR(row);
			else
				PyTuple_SET_ITEM(row, (Py_ssize_t)k, v);
		}
		if (row == NULL)
			Py_CLEAR(list);
		else
			PyList_SET_ITEM(list, (Py_ssize_t)i, row);
	}
	PyMem_Free(rows);
	return list;
}

static PyObject *
Result_close(ResultObject *self, PyObject *unused)
{
	(void)unused;
	(void)maelys_datalog_result_free(self->result);
	self->result = NULL;
	Py_RETURN_NONE;
}

static void
Result_dealloc(ResultObject *self)
{
	(void)maelys_datalog_result_free(self->result);
	PyObject_Free(self);
}

static PyMethodDef Result_methods[] = {
    {"query", (PyCFunction)Result_query, METH_VARARGS,
     "query(predicate, *terms) -> bool: whether the ground fact was "
     "derived\n(predicate must be a QUERY predicate of the domain)."},
    {"rows", (PyCFunction)Result_rows, METH_VARARGS,
     "rows(predicate, arity) -> list[tuple]: every derived fact, in the\n"
     "order derived; symbols as str, integers as int."},
    {"close", (PyCFunction)Result_close, METH_NOARGS,
     "Frees the result; its memory returns to the session."},
    {"__enter__", return_self, METH_NOARGS, NULL},
    {"__exit__", call_close, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject Result_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "maelys_datalog.Result",
    .tp_basicsize = sizeof(ResultObject),
    .tp_dealloc = (destructor)Result_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "What one solve derived (Session.solve); valid after its "
	      "session is closed.",
    .tp_methods = Result_methods,
};

/* ------------------------------------------------------------------ */
/* Session                                                             */

typedef struct {
	PyObject_HEAD
	maelys_datalog_session_t *session;
	PyThread_type_lock lock;
} SessionObject;

static PyTypeObject Session_Type;

/* Keyword names of the budgets, in maelys_datalog_budget_t order. */
static const char *const budget_names[] = {
    "facts", "tuples", "iterations", "regex_steps", "regex_depth",
    "memory", "steps",
};
#define BUDGET_COUNT (sizeof budget_names / sizeof budget_names[0])

static int
budget_index(PyObject *key)
{
	size_t i;

	if (PyUnicode_Check(key))
		for (i = 0; i < BUDGET_COUNT; i++)
			if (PyUnicode_CompareWithASCIIString(
				key, budget_names[i]) == 0)
				return (int)i;
	PyErr_Format(PyExc_TypeError,
		     "unknown budget %R (facts, tuples, iterations, "
		     "regex_steps, regex_depth, memory, steps)",
		     key);
	return -1;
}

static PyObject *
Session_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
	PyObject *policy_o, *key, *value;
	SessionObject *self;
	Py_ssize_t pos = 0;
	maelys_datalog_status_t st;
	int provenance = 0;

	if (!PyArg_ParseTuple(args, "O!:Session", &Policy_Type, &policy_o))
		return NULL;
	if (((PolicyObject *)policy_o)->policy == NULL)
		return raise_invalid("the policy is closed");
	self = (SessionObject *)type->tp_alloc(type, 0);
	if (self == NULL)
		return NULL;
	self->lock = PyThread_allocate_lock();
	if (self->lock == NULL) {
		Py_DECREF(self);
		return PyErr_NoMemory();
	}
	if (kwargs != NULL) {
		value = PyDict_GetItemString(kwargs, "provenance");
		if (value != NULL && (provenance = PyObject_IsTrue(value)) < 0) {
			Py_DECREF(self);
			return NULL;
		}
	}
	st = maelys_datalog_session_create(
	    ((PolicyObject *)policy_o)->policy,
	    provenance ? MAELYS_DATALOG_SESSION_PROVENANCE : 0u,
	    &self->session);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		Py_DECREF(self);
		return raise_status(st, NULL);
	}
	while (kwargs != NULL && PyDict_Next(kwargs, &pos, &key, &value)) {
		int b;
		unsigned long long v;

		if (PyUnicode_Check(key) &&
		    PyUnicode_CompareWithASCIIString(key, "provenance") == 0)
			continue;
		if ((b = budget_index(key)) < 0 ||
		    ((v = PyLong_AsUnsignedLongLong(value)) == (unsigned long long)-1 &&
		     PyErr_Occurred())) {
			Py_DECREF(self);
			return NULL;
		}
		st = maelys_datalog_session_set_budget(
		    self->session, (maelys_datalog_budget_t)b, (uint64_t)v);
		if (st != MAELYS_DATALOG_STATUS_OK) {
			Py_DECREF(self);
			return raise_status(st, NULL);
		}
	}
	return (PyObject *)self;
}

static PyObject *
Session_budget(SessionObject *self, PyObject *key)
{
	int b = budget_index(key);
	uint64_t v = 0;
	maelys_datalog_status_t st;

	if (b < 0)
		return NULL;
	lock_take(self->lock);
	st = maelys_datalog_session_get_budget(self->session,
					       (maelys_datalog_budget_t)b, &v);
	PyThread_release_lock(self->lock);
	if (self->session == NULL)
		return raise_invalid("the session is closed");
	if (st != MAELYS_DATALOG_STATUS_OK)
		return raise_status(st, NULL);
	return PyLong_FromUnsignedLongLong((unsigned long long)v);
}

static PyObject *
Session_prepare(SessionObject *self, PyObject *unused)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_status_t st;

	(void)unused;
	lock_take(self->lock);
	if (self->session == NULL) {
		PyThread_release_lock(self->lock);
		return raise_invalid("the session is closed");
	}
	Py_BEGIN_ALLOW_THREADS
	st = maelys_datalog_session_prepare(self->session, &diag);
	Py_END_ALLOW_THREADS
	PyThread_release_lock(self->lock);
	if (st != MAELYS_DATALOG_STATUS_OK)
		return raise_status(st, &diag);
	Py_RETURN_NONE;
}

static PyObject *
Session_solve(SessionObject *self, PyObject *edb_o)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;
	maelys_datalog_result_t *r = NULL;
	maelys_datalog_status_t st;
	EdbObject *edb = (EdbObject *)edb_o;
	ResultObject *out;

	if (!PyObject_TypeCheck(edb_o, &Edb_Type)) {
		PyErr_Format(PyExc_TypeError,
			     "solve() takes an InputEdb, not %.80s",
			     Py_TYPE(edb_o)->tp_name);
		return NULL;
	}
	/* the result object first: nothing can fail once the engine has
	 * handed over a result */
	out = PyObject_New(ResultObject, &Result_Type);
	if (out == NULL)
		return NULL;
	out->result = NULL;
	lock_take(self->lock);
	lock_take(edb->lock);
	if (self->session == NULL || edb->edb == NULL) {
		int closed_session = self->session == NULL;

		PyThread_release_lock(edb->lock);
		PyThread_release_lock(self->lock);
		Py_DECREF(out);
		return raise_invalid(closed_session ? "the session is closed"
						    : "the input EDB is closed");
	}
	Py_BEGIN_ALLOW_THREADS
	st = maelys_datalog_session_solve_edb(self->session, edb->edb, &r,
					      &diag);
	Py_END_ALLOW_THREADS
	PyThread_release_lock(edb->lock);
	PyThread_release_lock(self->lock);
	if (st != MAELYS_DATALOG_STATUS_OK) {
		Py_DECREF(out);
		return raise_status(st, &diag);
	}
	out->result = r;
	return (PyObject *)out;
}

static PyObject *
Session_close(SessionObject *self, PyObject *unused)
{
	(void)unused;
	lock_take(self->lock);
	(void)maelys_datalog_session_free(self->session);
	self->session = NULL;
	PyThread_release_lock(self->lock);
	Py_RETURN_NONE;
}

static void
Session_dealloc(SessionObject *self)
{
	(void)maelys_datalog_session_free(self->session);
	if (self->lock != NULL)
		PyThread_free_lock(self->lock);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Session_methods[] = {
    {"solve", (PyCFunction)Session_solve, METH_O,
     "solve(edb) -> Result: solves the policy with the facts of `edb`.\n"
     "The GIL is released meanwhile.  Any Error means nothing was\n"
     "decided: deny."},
    {"prepare", (PyCFunction)Session_prepare, METH_NOARGS,
     "Evaluates the policy-only strata now (else the first solve does)."},
    {"budget", (PyCFunction)Session_budget, METH_O,
     "budget(name) -> int: the value of a budget (see Session)."},
    {"close", (PyCFunction)Session_close, METH_NOARGS,
     "Frees the session; its results stay valid."},
    {"__enter__", return_self, METH_NOARGS, NULL},
    {"__exit__", call_close, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject Session_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "maelys_datalog.Session",
    .tp_basicsize = sizeof(SessionObject),
    .tp_dealloc = (destructor)Session_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Session(policy, *, provenance=False, facts=, tuples=, "
	      "iterations=,\n        regex_steps=, regex_depth=, memory=, "
	      "steps=)\n\n"
	      "Solves `policy` many times, one thread at a time; budgets bound "
	      "every solve\n(each from 1 to the engine's maximum).",
    .tp_methods = Session_methods,
    .tp_new = Session_new,
};

/* ------------------------------------------------------------------ */
/* Module functions                                                    */

/* register_domain(name, predicates, atoms): predicates are (name, arity,
 * role) sequences; atoms None or strings. */
static PyObject *
register_domain(PyObject *mod, PyObject *args)
{
	PyObject *name_o, *preds_o, *atoms_o, *preds = NULL, *atoms = NULL;
	maelys_datalog_predicate_t *table = NULL;
	const char **atom_table = NULL;
	maelys_datalog_domain_t domain;
	maelys_datalog_status_t st;
	Py_ssize_t np, na = 0, i;
	PyObject *ret = NULL;

	(void)mod;
	if (!PyArg_ParseTuple(args, "OOO:register_domain", &name_o, &preds_o,
			      &atoms_o))
		return NULL;
	memset(&domain, 0, sizeof domain);
	if ((domain.name = c_name(name_o, "the domain name")) == NULL)
		return NULL;
	preds = PySequence_Fast(preds_o, "predicates must be a sequence");
	if (preds == NULL)
		return NULL;
	np = PySequence_Fast_GET_SIZE(preds);
	table = PyMem_Calloc((size_t)np + 1, sizeof *table);
	if (table == NULL) {
		PyErr_NoMemory();
		goto out;
	}
	for (i = 0; i < np; i++) {
		PyObject *p = PySequence_Fast_GET_ITEM(preds, i);
		PyObject *pn;
		Py_ssize_t arity;
		unsigned long role;

		/* (name, arity, role); the tuple keeps the name alive */
		if (!PyTuple_Check(p) ||
		    !PyArg_ParseTuple(p, "Onk", &pn, &arity, &role)) {
			if (!PyErr_Occurred())
				PyErr_SetString(PyExc_TypeError,
						"a predicate is a tuple "
						"(name, arity, role)");
			goto out;
		}
		if ((table[i].name = c_name(pn, "a predicate name")) == NULL)
			goto out;
		if (arity < 0 || role > UINT_MAX) {
			raise_invalid("a negative arity or a role out of range");
			goto out;
		}
		table[i].arity = (size_t)arity;
		table[i].role = (unsigned)role;
	}
	domain.predicates = table;
	domain.predicate_count = (size_t)np;
	if (atoms_o != Py_None) {
		atoms = PySequence_Fast(atoms_o, "atoms must be a sequence");
		if (atoms == NULL)
			goto out;
		na = PySequence_Fast_GET_SIZE(atoms);
		atom_table = PyMem_Calloc((size_t)na + 1, sizeof *atom_table);
		if (atom_table == NULL) {
			PyErr_NoMemory();
			goto out;
		}
		for (i = 0; i < na; i++)
			if ((atom_table[i] = c_name(
				 PySequence_Fast_GET_ITEM(atoms, i),
				 "an atom")) == NULL)
				goto out;
		domain.atoms = atom_table;
		domain.atom_count = (size_t)na;
	}
	st = maelys_datalog_domain_register(&domain);
	if (st != MAELYS_DATALOG_STATUS_OK)
		raise_status(st, NULL);
	else
		ret = Py_NewRef(Py_None);
out:
	PyMem_Free(table);
	PyMem_Free(atom_table);
	Py_XDECREF(preds);
	Py_XDECREF(atoms);
	return ret;
}

static PyObject *
version(PyObject *mod, PyObject *unused)
{
	(void)mod;
	(void)unused;
	return PyUnicode_FromString(maelys_datalog_version());
}

static PyMethodDef module_methods[] = {
    {"register_domain", register_domain, METH_VARARGS,
     "register_domain(name, predicates, atoms): the low-level form of "
     "Domain.register."},
    {"version", version, METH_NOARGS,
     "The version of the linked libmaelys-datalog."},
    {NULL, NULL, 0, NULL},
};

static int
module_exec(PyObject *m)
{
	PyObject *errors;

	errors = PyImport_ImportModule("maelys_datalog._errors");
	if (errors == NULL)
		return -1;
	errors_by_status = PyObject_GetAttrString(errors, "BY_STATUS");
	Py_DECREF(errors);
	if (errors_by_status == NULL)
		return -1;
	if (PyModule_AddType(m, &Policy_Type) < 0 ||
	    PyModule_AddType(m, &Edb_Type) < 0 ||
	    PyModule_AddType(m, &Result_Type) < 0 ||
	    PyModule_AddType(m, &Session_Type) < 0)
		return -1;
	return 0;
}

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "maelys_datalog._datalog",
    .m_doc = "The C part of maelys_datalog (import maelys_datalog instead).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__datalog(void);

PyMODINIT_FUNC
PyInit__datalog(void)
{
	PyObject *m = PyModule_Create(&module_def);

	if (m != NULL && module_exec(m) < 0)
		Py_CLEAR(m);
	return m;
}
