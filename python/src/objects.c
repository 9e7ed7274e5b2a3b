/* SPDX-License-Identifier: MIT */
/*
 * What every object type of the binding shares: the lock a Session and an
 * InputEdb take, and the `with` statement's methods.
 */
#include "module.h"

/* Takes `lock`, waiting with the GIL released when another thread holds
 * it (that thread may need the GIL to finish). */
void
lock_take(PyThread_type_lock lock)
{
	if (PyThread_acquire_lock(lock, NOWAIT_LOCK))
		return;
	Py_BEGIN_ALLOW_THREADS
	PyThread_acquire_lock(lock, WAIT_LOCK);
	Py_END_ALLOW_THREADS
}

PyObject *
return_self(PyObject *self, PyObject *unused)
{
	(void)unused;
	return Py_NewRef(self);
}

PyObject *
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
