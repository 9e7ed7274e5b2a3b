/* SPDX-License-Identifier: MIT */
/*
 * maelys_datalog._datalog: the module itself, its functions and PyInit.
 */
#include "module.h"

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
	if (errors_load() < 0)
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
