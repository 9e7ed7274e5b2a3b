/* SPDX-License-Identifier: MIT */
/*
 * maelys_datalog.Session: solves a policy, under budgets, one thread at a
 * time.
 */
#include "module.h"

typedef struct {
	PyObject_HEAD
	maelys_datalog_session_t *session;
	PyThread_type_lock lock;
} SessionObject;

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

PyTypeObject Session_Type = {
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
