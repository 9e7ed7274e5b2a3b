/* SPDX-License-Identifier: MIT */
/*
 * maelys_datalog.Policy: a compiled policy, loaded from text or a file.
 */
#include "module.h"

#include <string.h>

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

PyTypeObject Policy_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "maelys_datalog.Policy",
    .tp_basicsize = sizeof(PolicyObject),
    .tp_dealloc = (destructor)Policy_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An immutable, compiled policy (Policy.load_inline, "
	      "Policy.load_file).\nShare it between any number of sessions "
	      "and threads.",
    .tp_methods = Policy_methods,
};
