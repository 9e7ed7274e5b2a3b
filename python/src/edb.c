/* SPDX-License-Identifier: MIT */
/*
 * maelys_datalog.InputEdb: the input facts of one question.
 */
#include "module.h"

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

PyTypeObject Edb_Type = {
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
