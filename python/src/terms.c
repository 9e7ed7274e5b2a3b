/* SPDX-License-Identifier: MIT */
/*
 * Conversions between Python values and the engine's names and terms.
 */
#include "module.h"

#include <stdio.h>
#include <string.h>

/* A str's UTF-8 with no NUL inside (names the engine takes as C strings):
 * NULL with an exception otherwise.  The buffer belongs to `obj`. */
const char *
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
int
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
PyObject *
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
