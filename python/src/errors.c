/* SPDX-License-Identifier: MIT */
/*
 * The binding's errors: an engine status (and its diagnostic) raised as the
 * exception class _errors.py gives that status.
 */
#include "module.h"

#include <stdio.h>

/* The module's state: the exception classes by status, from _errors.py. */
static PyObject *errors_by_status; /* dict: status name -> class */

/* Fetches the exception classes from maelys_datalog._errors (BY_STATUS). */
int
errors_load(void)
{
	PyObject *errors;

	errors = PyImport_ImportModule("maelys_datalog._errors");
	if (errors == NULL)
		return -1;
	errors_by_status = PyObject_GetAttrString(errors, "BY_STATUS");
	Py_DECREF(errors);
	if (errors_by_status == NULL)
		return -1;
	return 0;
}

/* Raises the class of `st` with the diagnostic's fields (diag may be NULL,
 * or hold no message: the status's meaning is the message then). */
PyObject *
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
PyObject *
raise_invalid(const char *message)
{
	maelys_datalog_diagnostic_t diag = MAELYS_DATALOG_DIAGNOSTIC_INIT;

	diag.status = MAELYS_DATALOG_STATUS_INVALID_ARGUMENT;
	snprintf(diag.message, sizeof diag.message, "%s", message);
	return raise_status(MAELYS_DATALOG_STATUS_INVALID_ARGUMENT, &diag);
}
