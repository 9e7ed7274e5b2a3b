/* SPDX-License-Identifier: MIT */
/*
 * maelys_datalog.Result: what one solve derived.
 */
#include "module.h"

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

PyTypeObject Result_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "maelys_datalog.Result",
    .tp_basicsize = sizeof(ResultObject),
    .tp_dealloc = (destructor)Result_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "What one solve derived (Session.solve); valid after its "
	      "session is closed.",
    .tp_methods = Result_methods,
};
