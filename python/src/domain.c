/* SPDX-License-Identifier: MIT */
/*
 * register_domain(): a domain (its predicates and atoms) registered with
 * the engine from Python.
 */
#include "module.h"

#include <limits.h>
#include <string.h>

/* register_domain(name, predicates, atoms): predicates are (name, arity,
 * role) sequences; atoms None or strings. */
PyObject *
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
