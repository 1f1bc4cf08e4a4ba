/* A seat's view as two new numpy arrays in one call: the environments' observation.
 *
 * The compiled encoder (durak/envs/planes.py, Planes.fields) reduces a view to a list of
 * integers: one card mask a plane, the flags as one mask, then the scalars' numerators.
 * This writes them as float32 0.0/1.0 entries (the set bits only, on zeros) and the
 * scalars as numerator / divisor, into a new float32 array, and the legal action numbers
 * into a new int8 mask: the same floats as Planes.encode's bytes, without the Python-level
 * numpy calls that made up a third of a PettingZoo step (benchmarks/envs/README.md).
 * Optional: without it (no C compiler, no numpy at build time, DURAK_PURE) the
 * environments wrap Planes.encode's bytes instead.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <string.h>

/* a card mask (at most 64 bits, not negative) from a Python int */
static int mask_of(PyObject *item, unsigned long long *out) {
    if (!PyLong_Check(item) || _PyLong_Sign(item) < 0) {
        PyErr_SetString(PyExc_ValueError, "view(): a mask is an int >= 0");
        return -1;
    }
    /* (the Mask form reads the digits directly; the checked one goes through bytes) */
    *out = PyLong_AsUnsignedLongLongMask(item);
    return *out == (unsigned long long)-1 && PyErr_Occurred() ? -1 : 0;
}

/* the low n bits of m as 1.0f at their places in out, which is all 0.0f */
static void set_bits(float *out, unsigned long long m, Py_ssize_t n) {
    if (n < 64) m &= (1ULL << n) - 1;
    while (m) {
        out[__builtin_ctzll(m)] = 1.0f;
        m &= m - 1;
    }
}

PyDoc_STRVAR(view_doc,
"view(fields, layout, legal) -> (vector, mask)\n\n"
"layout: (planes, cards, flags, divisors, actions); fields: `planes` card masks, the\n"
"flags mask, then one numerator a divisor. The vector has planes * cards + flags +\n"
"len(divisors) float32 entries; the mask `actions` int8 entries, 1 at each of `legal`.");

static PyObject *view(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "view() takes 3 arguments");
        return NULL;
    }
    PyObject *fields = args[0], *layout = args[1], *legal = args[2];
    if (!PyList_Check(fields) || !PyList_Check(legal) || !PyTuple_Check(layout)
            || PyTuple_GET_SIZE(layout) != 5 || !PyTuple_Check(PyTuple_GET_ITEM(layout, 3))) {
        PyErr_SetString(PyExc_TypeError,
                        "view(): fields and legal are lists, layout a tuple of five");
        return NULL;
    }
    Py_ssize_t planes = PyLong_AsSsize_t(PyTuple_GET_ITEM(layout, 0));
    Py_ssize_t cards = PyLong_AsSsize_t(PyTuple_GET_ITEM(layout, 1));
    Py_ssize_t flags = PyLong_AsSsize_t(PyTuple_GET_ITEM(layout, 2));
    PyObject *divisors = PyTuple_GET_ITEM(layout, 3);
    Py_ssize_t actions = PyLong_AsSsize_t(PyTuple_GET_ITEM(layout, 4));
    if (PyErr_Occurred()) return NULL;
    Py_ssize_t nscalars = PyTuple_GET_SIZE(divisors);
    if (planes < 0 || cards < 0 || cards > 64 || flags < 0 || flags > 64 || actions < 0
            || PyList_GET_SIZE(fields) != planes + 1 + nscalars) {
        PyErr_SetString(PyExc_ValueError, "view(): fields do not match the layout");
        return NULL;
    }
    npy_intp size = (npy_intp)(planes * cards + flags + nscalars);
    /* (empty, then zeroed here: numpy lets go of the GIL around a large zeroed allocation,
     * which costs more than the whole vector) */
    PyObject *vec = PyArray_EMPTY(1, &size, NPY_FLOAT32, 0);
    if (vec == NULL) return NULL;
    float *out = (float *)PyArray_DATA((PyArrayObject *)vec);
    memset(out, 0, (size_t)size * sizeof(float));
    unsigned long long m;
    for (Py_ssize_t i = 0; i <= planes; i++) {  /* the planes, then the flags */
        if (mask_of(PyList_GET_ITEM(fields, i), &m) < 0) goto fail_vec;
        set_bits(out, m, i < planes ? cards : flags);
        out += cards;
    }
    out += flags - cards;
    for (Py_ssize_t i = 0; i < nscalars; i++) {
        long long k = PyLong_AsLongLong(PyList_GET_ITEM(fields, planes + 1 + i));
        if (k == -1 && PyErr_Occurred()) goto fail_vec;
        double d = PyFloat_AsDouble(PyTuple_GET_ITEM(divisors, i));
        if (d == -1.0 && PyErr_Occurred()) goto fail_vec;
        /* as Python's k / d, then rounded to float32 (what the bytes encoder packs) */
        out[i] = (float)((double)k / d);
    }
    npy_intp n_actions = (npy_intp)actions;
    PyObject *mask = PyArray_EMPTY(1, &n_actions, NPY_INT8, 0);
    if (mask == NULL) goto fail_vec;
    char *bytes = (char *)PyArray_DATA((PyArrayObject *)mask);
    memset(bytes, 0, (size_t)n_actions);
    Py_ssize_t n_legal = PyList_GET_SIZE(legal);
    for (Py_ssize_t i = 0; i < n_legal; i++) {
        Py_ssize_t a = PyLong_AsSsize_t(PyList_GET_ITEM(legal, i));
        if (a == -1 && PyErr_Occurred()) goto fail_mask;
        if (a < 0 || a >= actions) {
            PyErr_Format(PyExc_ValueError, "view(): action %zd out of 0..%zd", a, actions - 1);
            goto fail_mask;
        }
        bytes[a] = 1;
    }
    PyObject *pair = PyTuple_New(2);
    if (pair == NULL) goto fail_mask;
    PyTuple_SET_ITEM(pair, 0, vec);
    PyTuple_SET_ITEM(pair, 1, mask);
    return pair;
fail_mask:
    Py_DECREF(mask);
fail_vec:
    Py_DECREF(vec);
    return NULL;
}

static PyMethodDef methods[] = {
    {"view", (PyCFunction)(void (*)(void))view, METH_FASTCALL, view_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_arrays",
    "A seat's view as two new numpy arrays in one call (see durak.envs.planes).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__arrays(void) {
    import_array();
    return PyModule_Create(&module);
}
