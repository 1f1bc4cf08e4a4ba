/* A seat's view as two new numpy arrays in one call: the environments' observation.
 *
 * A Viewer holds one rule set's layout (durak/planes.py, Planes: the planes, the
 * flags, the scalars). Its view() takes the game's own fields as they are (the hands and
 * the known cards as the game's lists of card masks, the table's masks, the roles) and
 * writes the seat's vector, float32 0.0/1.0 entries for the set bits on zeros and the
 * scalars as numerator / divisor, and the legal action numbers into an int8 mask: the
 * same floats as Planes.encode's bytes (tests/test_envs_encoding.py compares them with
 * the reference encoder on every seat of random deals), without building the view as
 * Python integers first, which cost as much as the arrays themselves
 * (benchmarks/envs/README.md). Optional: without it (no C compiler, no numpy at build
 * time, DURAK_PURE) the environments wrap Planes.encode's bytes instead.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <structmember.h>
#include <string.h>

#define MAX_PLAYERS 6
/* arrays kept for reuse, of each kind; the numbers set in each kept mask, for clearing */
#define POOL 4
#define MAX_SET 256

typedef struct {
    PyObject_HEAD
    PyObject *args;   /* the constructor's arguments, for pickling */
    int players, cards, lo, flags, privileged, pogonny, phases;
    unsigned long long full;
    double limit;
    Py_ssize_t planes, size, actions;
    /* Arrays handed out before, which nobody but this Viewer may still hold (see
     * reusable()); next_* is the slot a new array takes when none can be reused. */
    PyObject *vecs[POOL], *masks[POOL];
    int vec_flags, mask_flags, next_vec, next_mask;
    Py_ssize_t n_set[POOL];  /* numbers set in masks[i]; -1: more than MAX_SET */
    unsigned short set[POOL][MAX_SET];
    /* write_moves(): index_of(action) -> its number, remembered by the action's address
     * (actions are interned: one object each, never freed while the table holds it) in
     * an open-addressed table of 2**bits slots, at most half full */
    PyObject *index_of;
    PyObject **keys, **nums;
    int bits;
} Viewer;

static PyArray_Descr *float32_descr, *int8_descr;

/* May ``o``, an array this Viewer made and handed out, be written again as a new one?
 * Only if no one else can see it: no reference but the Viewer's (so no view, buffer,
 * dict or variable holds it), no weak reference, and as it was made (shape, type,
 * strides, flags: none changed in place by its last holder). CPython reuses a result
 * tuple under the same rule (zip, enumerate); a fresh array costs a fifth of a step. */
static int reusable(PyObject *o, npy_intp n, PyArray_Descr *descr, int flags) {
    PyArrayObject *a = (PyArrayObject *)o;
    Py_ssize_t weak = Py_TYPE(o)->tp_weaklistoffset;
    return Py_REFCNT(o) == 1 && Py_TYPE(o) == &PyArray_Type
           && (weak == 0 || *(PyObject **)((char *)o + weak) == NULL)
           && PyArray_NDIM(a) == 1 && PyArray_DIM(a, 0) == n
           && PyArray_DESCR(a) == descr && PyArray_STRIDE(a, 0) == PyArray_ITEMSIZE(a)
           && PyArray_BASE(a) == NULL && PyArray_FLAGS(a) == flags;
}

/* A 1-d array of n entries of ``descr`` for the caller to fill (a new reference): a kept
 * one nobody else holds or a new one, then kept; *slot its place in the pool. A new one
 * gets n_set[*slot] = -1 (all to clear), where the pool counts set numbers (masks). */
static PyObject *array_for(PyObject **pool, int *next, int *flags, npy_intp n,
                           PyArray_Descr *descr, int *slot, Py_ssize_t *n_set) {
    for (int i = 0; i < POOL; i++) {
        if (pool[i] != NULL && reusable(pool[i], n, descr, *flags)) {
            *slot = i;
            return Py_NewRef(pool[i]);
        }
    }
    Py_INCREF(descr);  /* (NewFromDescr steals it) */
    PyObject *o = PyArray_NewFromDescr(&PyArray_Type, descr, 1, &n, NULL, NULL, 0, NULL);
    if (o == NULL) return NULL;
    *flags = PyArray_FLAGS((PyArrayObject *)o);
    int i = *next;
    *next = (i + 1) % POOL;
    Py_XSETREF(pool[i], Py_NewRef(o));
    *slot = i;
    if (n_set != NULL) n_set[i] = -1;
    return o;
}

/* A small exact int >= 0 (at most two digits, 60 bits) read from its digits: 1 if done,
 * 0 for the general path. (CPython 3.11's layout; later ones take the general path.) */
static inline int small_of(PyObject *item, unsigned long long *out) {
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
    if (PyLong_CheckExact(item)) {
        Py_ssize_t n = Py_SIZE(item);
        const digit *d = ((PyLongObject *)item)->ob_digit;
        if (n == 0) { *out = 0; return 1; }
        if (n == 1) { *out = d[0]; return 1; }
        if (n == 2) { *out = d[0] | ((unsigned long long)d[1] << PyLong_SHIFT); return 1; }
    }
#else
    (void)item; (void)out;
#endif
    return 0;
}

/* a card mask (at most 64 bits, not negative) from a Python int */
static int mask_of(PyObject *item, unsigned long long *out) {
    if (small_of(item, out)) return 0;
    if (!PyLong_Check(item) || _PyLong_Sign(item) < 0) {
        PyErr_SetString(PyExc_ValueError, "view(): a card mask is an int >= 0");
        return -1;
    }
    /* (the Mask form reads the digits directly; the checked one goes through bytes) */
    *out = PyLong_AsUnsignedLongLongMask(item);
    return *out == (unsigned long long)-1 && PyErr_Occurred() ? -1 : 0;
}

/* a small whole number argument */
static int int_of(PyObject *item, const char *name, long *out) {
    unsigned long long small;
    if (small_of(item, &small) && small <= LONG_MAX) {
        *out = (long)small;
        return 0;
    }
    *out = PyLong_AsLong(item);
    if (*out == -1 && PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "view(): %s is an int", name);
        return -1;
    }
    return 0;
}

/* the n masks of a list (the hands, the known cards) */
static int masks_of(PyObject *list, const char *name, int n, unsigned long long *out) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != n) {
        PyErr_Format(PyExc_TypeError, "view(): %s is a list of %d card masks", name, n);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (mask_of(PyList_GET_ITEM(list, i), &out[i]) < 0) return -1;
    return 0;
}

/* the low n bits of m as 1.0f at their places in out, which is all 0.0f */
static void set_bits(float *out, unsigned long long m, int n) {
    if (n < 64) m &= (1ULL << n) - 1;
    while (m) {
        out[__builtin_ctzll(m)] = 1.0f;
        m &= m - 1;
    }
}

static int Viewer_init(Viewer *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"players", "cards", "lo", "full", "flags", "privileged",
                            "pogonny", "phases", "limit", "actions", NULL};
    int players, cards, lo, flags, privileged, pogonny, phases;
    unsigned long long full;
    double limit;
    Py_ssize_t actions;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiiKippidn:Viewer", names, &players,
                                     &cards, &lo, &full, &flags, &privileged, &pogonny,
                                     &phases, &limit, &actions))
        return -1;
    if (players < 2 || players > MAX_PLAYERS || cards < 1 || cards > 52 || lo < 0
            || lo + cards > 64 || flags < 1 || flags > 64 || phases < 1 || limit <= 0
            || actions < 1) {
        PyErr_SetString(PyExc_ValueError, "Viewer(): no such layout");
        return -1;
    }
    self->players = players;
    self->cards = cards;
    self->lo = lo;
    self->full = full;
    self->flags = flags;
    self->privileged = privileged;
    self->pogonny = pogonny;
    self->phases = phases;
    self->limit = limit;
    self->actions = actions;
    self->planes = 7 + (players - 1) * (privileged ? 2 : 1);
    self->size = self->planes * cards + flags + 3 + 2 * players;
    Py_XSETREF(self->args, Py_NewRef(args));
    return 0;
}

/* the numbers' table emptied and freed */
static void drop_numbers(Viewer *self) {
    if (self->keys != NULL && self->nums != NULL) {
        for (Py_ssize_t i = 0; i < (Py_ssize_t)1 << self->bits; i++) {
            Py_XDECREF(self->keys[i]);
            Py_XDECREF(self->nums[i]);
        }
    }
    PyMem_Free(self->keys);
    PyMem_Free(self->nums);
    self->keys = self->nums = NULL;
    Py_CLEAR(self->index_of);
}

static void Viewer_dealloc(Viewer *self) {
    drop_numbers(self);
    Py_XDECREF(self->args);
    for (int i = 0; i < POOL; i++) {
        Py_XDECREF(self->vecs[i]);
        Py_XDECREF(self->masks[i]);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Viewer_numbering(Viewer *self, PyObject *index_of);

static PyObject *Viewer_reduce(Viewer *self, PyObject *unused) {
    (void)unused;
    return Py_BuildValue("(OOO)", Py_TYPE(self), self->args ? self->args : Py_None,
                         self->index_of ? self->index_of : Py_None);
}

/* the pickled state: numbering()'s index_of, or None */
static PyObject *Viewer_setstate(Viewer *self, PyObject *index_of) {
    if (index_of == Py_None) Py_RETURN_NONE;
    return Viewer_numbering(self, index_of);
}

enum { A_SEAT, A_HANDS, A_KNOWN, A_ATT, A_UNBEATEN, A_TABLE, A_DISCARD, A_TRUMP, A_BOTTOM,
       A_TALON, A_CAP, A_OUT, A_ATTACKER, A_DEFENDER, A_TO_ACT, A_PHASE, A_BOUT, A_FORCED,
       A_TALLY, A_LEGAL, N_ARGS };

PyDoc_STRVAR(view_doc,
"view(seat, hands, known, att, unbeaten, table, discard, trump_card, bottom, talon,\n"
"     cap, out, attacker, defender, to_act, phase, bout, forced_take, tally, legal)\n"
"-> (vector, mask)\n\n"
"The game's fields of those names (durak.game.Game: hands, known the card masks of\n"
"each seat; att the attack cards; talon the cards left to draw, the bottom card\n"
"counted; to_act None when the deal is over), and the legal action numbers (empty\n"
"for a seat not to act). The vector has the layout of durak.planes.Planes.");

/* A view's inputs, parsed: from view()'s arguments or from Game.state() (write()). The
 * objects are borrowed from the caller's arguments. */
typedef struct {
    long seat, trump, bottom, talon, cap, attacker, defender, to_act, phase, bout;
    unsigned long long hands[MAX_PLAYERS], known[MAX_PLAYERS], unbeaten, table, discard, attm;
    Py_ssize_t n_att;
    PyObject *outs, *tally, *forced, *legal;
} Fields;

/* the checks both entry points share, once the numbers are read */
static int check_fields(Viewer *self, Fields *f, PyObject *att) {
    const int n = self->players;
    if (f->seat < 0 || f->seat >= n) {
        PyErr_Format(PyExc_ValueError, "view(): seat %ld out of 0..%d", f->seat, n - 1);
        return -1;
    }
    if (f->to_act >= 0 && (f->to_act >= n || f->attacker < 0 || f->attacker >= n
                           || f->defender < 0 || f->defender >= n)) {
        PyErr_SetString(PyExc_ValueError, "view(): a role's seat is out of range");
        return -1;
    }
    if (f->trump < 0 || f->trump >= 64 || f->phase < 0 || f->phase >= self->phases) {
        PyErr_SetString(PyExc_ValueError, "view(): trump card or phase out of range");
        return -1;
    }
    if (!PyList_Check(att) || !PyList_Check(f->outs) || PyList_GET_SIZE(f->outs) != n
            || !PyList_Check(f->legal)) {
        PyErr_SetString(PyExc_TypeError, "view(): att, out and legal are lists");
        return -1;
    }
    if (self->pogonny && (!PyList_Check(f->tally) || PyList_GET_SIZE(f->tally) != n)) {
        PyErr_SetString(PyExc_TypeError, "view(): tally is a list, one count a seat");
        return -1;
    }
    f->attm = 0;
    f->n_att = PyList_GET_SIZE(att);
    for (Py_ssize_t i = 0; i < f->n_att; i++) {
        long c;
        if (int_of(PyList_GET_ITEM(att, i), "an attack card", &c) < 0) return -1;
        if (c < 0 || c >= 64) {
            PyErr_SetString(PyExc_ValueError, "view(): an attack card out of range");
            return -1;
        }
        f->attm |= 1ULL << c;
    }
    return 0;
}

/* The seat's vector into ``out`` (self->size floats, any contents): 0 or -1 (error). */
static int encode_into(Viewer *self, const Fields *f, float *out) {
    const int n = self->players, nc = self->cards, lo = self->lo;
    const long seat = f->seat;
    int rel[MAX_PLAYERS];  /* seat s counted from the viewer: +1 its left neighbour */
    for (int s = 0; s < n; s++) rel[s] = (int)((s - seat + n) % n);
    memset(out, 0, (size_t)self->size * sizeof(float));

    unsigned long long hand = f->hands[seat], trump_bit = 1ULL << f->trump;
    int under = f->bottom >= 0;
    unsigned long long seen = hand | f->discard | f->table | (under ? trump_bit : 0);
    for (int i = 1; i < n; i++) seen |= f->known[(seat + i) % n];
    unsigned long long planes[7 + 2 * (MAX_PLAYERS - 1)];
    int p = 0;
    planes[p++] = hand;
    planes[p++] = f->unbeaten;
    planes[p++] = f->attm & ~f->unbeaten;
    planes[p++] = f->table & ~f->attm;
    planes[p++] = f->discard;
    planes[p++] = trump_bit;
    planes[p++] = self->full & ~seen;
    for (int i = 1; i < n; i++) planes[p++] = f->known[(seat + i) % n];
    if (self->privileged)
        for (int i = 1; i < n; i++) planes[p++] = f->hands[(seat + i) % n];
    for (int i = 0; i < p; i++, out += nc) set_bits(out, planes[i] >> lo, nc);

    /* the flags: trump suit, trump under the talon, then out, attacker, defender and to
     * act per relative seat, the phase, the first bout, a forced take */
    const int f_out = 5, f_att = f_out + n, f_def = f_att + n, f_act = f_def + n;
    const int f_phase = f_act + n, f_first = f_phase + self->phases;
    unsigned long long flags = 1ULL << (f->trump & 3);
    if (under) flags |= 16;
    for (int s = 0; s < n; s++) {
        PyObject *o = PyList_GET_ITEM(f->outs, s);
        int t = o == Py_True ? 1 : o == Py_False ? 0 : PyObject_IsTrue(o);
        if (t < 0) return -1;
        if (t) flags |= 1ULL << (f_out + rel[s]);
    }
    if (f->to_act >= 0)
        flags |= (1ULL << (f_att + rel[f->attacker])) | (1ULL << (f_def + rel[f->defender]))
                 | (1ULL << (f_act + rel[f->to_act]));
    flags |= 1ULL << (f_phase + f->phase);
    if (f->bout == 0) flags |= 1ULL << f_first;
    PyObject *fo = f->forced;
    int forced = fo == Py_True ? 1 : fo == Py_False ? 0 : PyObject_IsTrue(fo);
    if (forced < 0) return -1;
    if (forced) flags |= 1ULL << (f_first + 1);
    set_bits(out, flags, self->flags);
    out += self->flags;

    /* the scalars, as Python's k / d rounded to float32 (what the bytes encoder packs) */
    *out++ = (float)((double)(f->talon + under) / nc);
    *out++ = (float)((double)f->cap / self->limit);
    *out++ = (float)((double)f->n_att / self->limit);
    for (int i = 0; i < n; i++)
        *out++ = (float)((double)__builtin_popcountll(f->hands[(seat + i) % n]) / nc);
    if (self->pogonny) {
        for (int i = 0; i < n; i++) {
            long k;
            if (int_of(PyList_GET_ITEM(f->tally, (seat + i) % n), "a tally", &k) < 0)
                return -1;
            /* a tally has no upper bound (cards taken are laid again): clipped at 12 */
            *out++ = (float)((double)(k < 12 ? k : 12) / 12.0);
        }
    }
    return 0;
}

/* Sets the legal numbers' bytes of ``bytes`` (cleared by the caller); ``set``, if not
 * NULL, records the first MAX_SET of them. The count set, or -1 (error). */
static Py_ssize_t mask_into(Viewer *self, PyObject *legal, char *bytes, unsigned short *set) {
    Py_ssize_t n_legal = PyList_GET_SIZE(legal);
    for (Py_ssize_t i = 0; i < n_legal; i++) {
        PyObject *item = PyList_GET_ITEM(legal, i);
        unsigned long long small;
        Py_ssize_t a;
        if (small_of(item, &small))
            a = small < (unsigned long long)PY_SSIZE_T_MAX ? (Py_ssize_t)small : -1;
        else if ((a = PyLong_AsSsize_t(item)) == -1 && PyErr_Occurred())
            return -1;
        if (a < 0 || a >= self->actions) {
            PyErr_Format(PyExc_ValueError, "view(): action %zd out of 0..%zd", a,
                         self->actions - 1);
            return -1;
        }
        bytes[a] = 1;
        if (set != NULL && i < MAX_SET && a <= 0xFFFF) set[i] = (unsigned short)a;
    }
    return n_legal;
}

static PyObject *Viewer_view(Viewer *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != N_ARGS) {
        PyErr_Format(PyExc_TypeError, "view() takes %d arguments", N_ARGS);
        return NULL;
    }
    const int n = self->players;
    Fields f;
    f.attacker = f.defender = 0;
    f.to_act = -1;
    if (int_of(args[A_SEAT], "seat", &f.seat) < 0) return NULL;
    if (f.seat < 0 || f.seat >= n) {
        PyErr_Format(PyExc_ValueError, "view(): seat %ld out of 0..%d", f.seat, n - 1);
        return NULL;
    }
    if (masks_of(args[A_HANDS], "hands", n, f.hands) < 0
            || masks_of(args[A_KNOWN], "known", n, f.known) < 0
            || mask_of(args[A_UNBEATEN], &f.unbeaten) < 0 || mask_of(args[A_TABLE], &f.table) < 0
            || mask_of(args[A_DISCARD], &f.discard) < 0
            || int_of(args[A_TRUMP], "trump_card", &f.trump) < 0
            || int_of(args[A_BOTTOM], "bottom", &f.bottom) < 0
            || int_of(args[A_TALON], "talon", &f.talon) < 0
            || int_of(args[A_CAP], "cap", &f.cap) < 0
            || int_of(args[A_PHASE], "phase", &f.phase) < 0
            || int_of(args[A_BOUT], "bout", &f.bout) < 0)
        return NULL;
    if (args[A_TO_ACT] != Py_None) {
        if (int_of(args[A_TO_ACT], "to_act", &f.to_act) < 0
                || int_of(args[A_ATTACKER], "attacker", &f.attacker) < 0
                || int_of(args[A_DEFENDER], "defender", &f.defender) < 0)
            return NULL;
        if (f.to_act < 0) {
            PyErr_SetString(PyExc_ValueError, "view(): a role's seat is out of range");
            return NULL;
        }
    }
    f.outs = args[A_OUT];
    f.tally = args[A_TALLY];
    f.forced = args[A_FORCED];
    f.legal = args[A_LEGAL];
    if (check_fields(self, &f, args[A_ATT]) < 0) return NULL;

    npy_intp size = (npy_intp)self->size;
    int slot;
    /* (empty, then zeroed in encode_into: numpy lets go of the GIL around a large zeroed
     * allocation, which costs more than the whole vector) */
    PyObject *vec = array_for(self->vecs, &self->next_vec, &self->vec_flags, size,
                              float32_descr, &slot, NULL);
    if (vec == NULL) return NULL;
    if (encode_into(self, &f, (float *)PyArray_DATA((PyArrayObject *)vec)) < 0) goto fail_vec;

    npy_intp n_actions = (npy_intp)self->actions;
    PyObject *mask = array_for(self->masks, &self->next_mask, &self->mask_flags, n_actions,
                               int8_descr, &slot, self->n_set);
    if (mask == NULL) goto fail_vec;
    char *bytes = (char *)PyArray_DATA((PyArrayObject *)mask);
    /* a kept mask: only the numbers set last time are cleared (a handful of 1 608) */
    Py_ssize_t *n_set = &self->n_set[slot];
    unsigned short *set = self->set[slot];
    if (*n_set < 0)
        memset(bytes, 0, (size_t)n_actions);
    else
        for (Py_ssize_t i = 0; i < *n_set; i++) bytes[set[i]] = 0;
    /* (a failure below leaves it unknown what is set: cleared in full next time) */
    *n_set = -1;
    Py_ssize_t n_legal = mask_into(self, f.legal, bytes, set);
    if (n_legal < 0) goto fail_mask;
    if (n_legal <= MAX_SET && self->actions <= 0x10000) *n_set = n_legal;
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

/* Game.state()'s fields, in durak.game.STATE_FIELDS' order */
enum { S_HANDS, S_KNOWN, S_ATT, S_BEATS, S_UNBEATEN, S_TABLE, S_DISCARD, S_TRUMP, S_UNDER,
       S_TALON, S_OUT, S_TO_ACT, S_ATTACKER, S_DEFENDER, S_PHASE, S_CAP, S_BOUT, S_TALLY,
       S_SHOWN, S_FORCED, N_STATE };

/* row ``row`` of a writable buffer of rows of ``width`` bytes, or NULL (error set) */
static char *row_of(Py_buffer *b, PyObject *o, Py_ssize_t row, Py_ssize_t width,
                    const char *name) {
    if (PyObject_GetBuffer(o, b, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (row < 0 || (row + 1) * width > b->len) {
        PyErr_Format(PyExc_ValueError, "write(): no row %zd in %s (%zd bytes, rows of %zd)",
                     row, name, b->len, width);
        PyBuffer_Release(b);
        return NULL;
    }
    return (char *)b->buf + row * width;
}

PyDoc_STRVAR(write_doc,
"write(obs, masks, row, seat, state, legal) -> None\n\n"
"Writes seat's vector into row ``row`` of ``obs`` (a writable buffer of rows of\n"
"size float32) and, unless ``masks`` is None, its action mask into that row of\n"
"``masks`` (rows of ``actions`` bytes: 1 at the numbers of ``legal``, else 0).\n"
"``state`` is durak.game.Game.state() as it returns it; ``legal`` the legal action\n"
"numbers (empty for a seat not to act). Nothing is allocated: the vectorised\n"
"environment's step writes every row of its shared arrays so.");

/* write()'s work: ``args`` its obs, masks, row and seat, ``s`` the N_STATE fields of
 * Game.state() in their order, ``legal`` the legal numbers */
static PyObject *write_state(Viewer *self, PyObject *const *args, PyObject *const *s,
                             PyObject *legal) {
    const int n = self->players;
    Fields f;
    long row, under;
    if (int_of(args[2], "row", &row) < 0 || int_of(args[3], "seat", &f.seat) < 0) return NULL;
    if (f.seat < 0 || f.seat >= n) {
        PyErr_Format(PyExc_ValueError, "write(): seat %ld out of 0..%d", f.seat, n - 1);
        return NULL;
    }
    if (masks_of(s[S_HANDS], "hands", n, f.hands) < 0
            || masks_of(s[S_KNOWN], "known", n, f.known) < 0
            || mask_of(s[S_UNBEATEN], &f.unbeaten) < 0 || mask_of(s[S_TABLE], &f.table) < 0
            || mask_of(s[S_DISCARD], &f.discard) < 0
            || int_of(s[S_TRUMP], "trump_card", &f.trump) < 0
            || int_of(s[S_TALON], "talon", &f.talon) < 0
            || int_of(s[S_CAP], "cap", &f.cap) < 0
            || int_of(s[S_PHASE], "phase", &f.phase) < 0
            || int_of(s[S_BOUT], "bout", &f.bout) < 0
            || (under = PyObject_IsTrue(s[S_UNDER])) < 0)
        return NULL;
    /* (state's talon counts the card under it; view()'s does not) */
    f.bottom = under ? 0 : -1;
    f.talon -= under;
    f.to_act = -1;
    f.attacker = f.defender = 0;
    if (PyLong_Check(s[S_TO_ACT]) && (f.to_act = PyLong_AsLong(s[S_TO_ACT])) >= 0) {
        if (int_of(s[S_ATTACKER], "attacker", &f.attacker) < 0
                || int_of(s[S_DEFENDER], "defender", &f.defender) < 0)
            return NULL;
    } else if (PyErr_Occurred()) {
        return NULL;
    } else {
        f.to_act = -1;
    }
    f.outs = s[S_OUT];
    f.tally = s[S_TALLY];
    f.forced = s[S_FORCED];
    f.legal = legal;
    if (check_fields(self, &f, s[S_ATT]) < 0) return NULL;

    Py_buffer ob, mb;
    char *vec = row_of(&ob, args[0], row, self->size * (Py_ssize_t)sizeof(float), "obs");
    if (vec == NULL) return NULL;
    int err = encode_into(self, &f, (float *)vec);
    PyBuffer_Release(&ob);
    if (err < 0) return NULL;
    if (args[1] != Py_None) {
        char *bytes = row_of(&mb, args[1], row, self->actions, "masks");
        if (bytes == NULL) return NULL;
        memset(bytes, 0, (size_t)self->actions);
        Py_ssize_t k = mask_into(self, f.legal, bytes, NULL);
        PyBuffer_Release(&mb);
        if (k < 0) return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *Viewer_write(Viewer *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "write() takes 6 arguments");
        return NULL;
    }
    PyObject *state = args[4];
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != N_STATE) {
        PyErr_Format(PyExc_TypeError, "write(): state is Game.state(), a tuple of %d", N_STATE);
        return NULL;
    }
    return write_state(self, args, &PyTuple_GET_ITEM(state, 0), args[5]);
}

PyDoc_STRVAR(write_fields_doc,
"write_fields(obs, masks, row, seat, legal, *state) -> None\n\n"
"write(obs, masks, row, seat, state, legal) with Game.state()'s fields passed one by\n"
"one (the vectorised environment's compiled step does so without making the tuple).");

/* 0 if a writer of the state's fields got its 5 + N_STATE arguments, else -1 */
static int fields_given(Py_ssize_t nargs, const char *name) {
    if (nargs == 5 + N_STATE) return 0;
    PyErr_Format(PyExc_TypeError, "%s() takes %d arguments", name, 5 + N_STATE);
    return -1;
}

static PyObject *Viewer_write_fields(Viewer *self, PyObject *const *args, Py_ssize_t nargs) {
    if (fields_given(nargs, "write_fields") < 0) return NULL;
    return write_state(self, args, args + 5, args[4]);
}

PyDoc_STRVAR(numbering_doc,
"numbering(index_of) -> None\n\n"
"write_moves() numbers the legal moves by index_of(action) (an int in 0..actions-1),\n"
"each action asked once and remembered by identity (actions are interned).");

static PyObject *Viewer_numbering(Viewer *self, PyObject *index_of) {
    if (!PyCallable_Check(index_of)) {
        PyErr_SetString(PyExc_TypeError, "numbering(): index_of is a callable");
        return NULL;
    }
    drop_numbers(self);
    int bits = 4;
    while (((Py_ssize_t)1 << bits) < 2 * self->actions) bits++;
    self->bits = bits;
    self->keys = PyMem_Calloc((size_t)1 << bits, sizeof(PyObject *));
    self->nums = PyMem_Calloc((size_t)1 << bits, sizeof(PyObject *));
    if (self->keys == NULL || self->nums == NULL) {
        drop_numbers(self);
        return PyErr_NoMemory();
    }
    self->index_of = Py_NewRef(index_of);
    Py_RETURN_NONE;
}

/* action a's number (a new reference), from the table or asked of index_of */
static PyObject *number_of(Viewer *self, PyObject *a) {
    size_t mask = ((size_t)1 << self->bits) - 1;
    size_t i = (size_t)(((uintptr_t)a >> 4) * 0x9E3779B97F4A7C15ULL >> (64 - self->bits));
    while (self->keys[i] != NULL) {
        if (self->keys[i] == a) return Py_NewRef(self->nums[i]);
        i = (i + 1) & mask;
    }
    PyObject *num = PyObject_CallOneArg(self->index_of, a);
    if (num == NULL) return NULL;
    /* (the free slot found again: index_of is Python code, which may even have called
     * numbering() again) */
    if (self->keys == NULL) {
        Py_DECREF(num);
        PyErr_SetString(PyExc_RuntimeError, "write_moves(): numbering() changed meanwhile");
        return NULL;
    }
    mask = ((size_t)1 << self->bits) - 1;
    i = (size_t)(((uintptr_t)a >> 4) * 0x9E3779B97F4A7C15ULL >> (64 - self->bits));
    while (self->keys[i] != NULL && self->keys[i] != a) i = (i + 1) & mask;
    Py_ssize_t k = PyLong_Check(num) ? PyLong_AsSsize_t(num) : -1;
    if (k < 0 || k >= self->actions) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "write_moves(): index_of gave %R, not 0..%zd", num,
                         self->actions - 1);
        Py_DECREF(num);
        return NULL;
    }
    /* (at most ``actions`` actions have a number: the table never fills past half) */
    if (self->keys[i] == NULL) {
        self->keys[i] = Py_NewRef(a);
        self->nums[i] = Py_NewRef(num);
    }
    return num;
}

/* A list of the m numbers ``nums`` (their references stolen, on failure too): ``into``
 * refilled in place, or a new list if ``into`` is None. Within its allocation the list
 * is refilled without resizing (a list of a row's moves shrinks and grows every step). */
static PyObject *fill_list(PyObject *into, PyObject **nums, Py_ssize_t m) {
    Py_ssize_t j = 0;
    if (into == Py_None) {
        PyObject *l = PyList_New(m);
        if (l != NULL) {
            for (; j < m; j++) PyList_SET_ITEM(l, j, nums[j]);
            return l;
        }
    } else {
        PyListObject *l = (PyListObject *)into;
        Py_ssize_t have = Py_SIZE(l);
        for (; j < m && j < have; j++) Py_SETREF(l->ob_item[j], nums[j]);
        if (m <= l->allocated) {
            for (; j < m; j++) l->ob_item[j] = nums[j];
            Py_SET_SIZE(l, m);
            for (Py_ssize_t k = m; k < have; k++) Py_DECREF(l->ob_item[k]);
            return Py_NewRef(into);
        }
        for (; j < m && PyList_Append(into, nums[j]) == 0; j++) Py_DECREF(nums[j]);
        if (j == m) return Py_NewRef(into);
    }
    for (; j < m; j++) Py_DECREF(nums[j]);
    return NULL;
}

PyDoc_STRVAR(write_moves_doc,
"write_moves(obs, masks, row, seat, moves, into, *state) -> list\n\n"
"write_fields() for the seat to act, its legal moves given as the engine's list of\n"
"actions (Game.moves()), numbered as numbering() said. Returns their numbers in the\n"
"moves' order: ``into`` (a list) refilled in place, or a new list if it is None.");

#define MAX_MOVES 256

static PyObject *Viewer_write_moves(Viewer *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6 + N_STATE) {
        PyErr_Format(PyExc_TypeError, "write_moves() takes %d arguments", 6 + N_STATE);
        return NULL;
    }
    if (self->index_of == NULL) {
        PyErr_SetString(PyExc_TypeError, "write_moves() before numbering()");
        return NULL;
    }
    PyObject *moves = args[4], *into = args[5];
    if (!PyList_Check(moves) || (into != Py_None && !PyList_CheckExact(into))) {
        PyErr_SetString(PyExc_TypeError,
                        "write_moves(): moves is a list of actions, into a list or None");
        return NULL;
    }
    /* the numbers first (index_of may run Python code), then into the list at once */
    Py_ssize_t m = PyList_GET_SIZE(moves), got = 0;
    PyObject *stack[MAX_MOVES], **nums = m <= MAX_MOVES ? stack : PyMem_New(PyObject *, m);
    if (nums == NULL) return PyErr_NoMemory();
    while (got < m) {
        if (PyList_GET_SIZE(moves) != m) {
            PyErr_SetString(PyExc_RuntimeError, "write_moves(): moves changed");
            break;
        }
        if ((nums[got] = number_of(self, PyList_GET_ITEM(moves, got))) == NULL) break;
        got++;
    }
    PyObject *legal = NULL;
    if (got == m)
        legal = fill_list(into, nums, m);
    else
        for (Py_ssize_t j = 0; j < got; j++) Py_DECREF(nums[j]);
    if (nums != stack) PyMem_Free(nums);
    if (legal == NULL) return NULL;
    PyObject *done = write_state(self, args, args + 6, legal);
    if (done == NULL) {
        Py_DECREF(legal);
        return NULL;
    }
    Py_DECREF(done);
    return legal;
}

static PyMemberDef Viewer_members[] = {
    {"size", T_PYSSIZET, offsetof(Viewer, size), READONLY, "the vector's length"},
    {"actions", T_PYSSIZET, offsetof(Viewer, actions), READONLY, "the mask's length"},
    {NULL, 0, 0, 0, NULL},
};

static PyMethodDef Viewer_methods[] = {
    {"view", (PyCFunction)(void (*)(void))Viewer_view, METH_FASTCALL, view_doc},
    {"write", (PyCFunction)(void (*)(void))Viewer_write, METH_FASTCALL, write_doc},
    {"write_fields", (PyCFunction)(void (*)(void))Viewer_write_fields, METH_FASTCALL,
     write_fields_doc},
    {"numbering", (PyCFunction)Viewer_numbering, METH_O, numbering_doc},
    {"__setstate__", (PyCFunction)Viewer_setstate, METH_O, NULL},
    {"write_moves", (PyCFunction)(void (*)(void))Viewer_write_moves, METH_FASTCALL,
     write_moves_doc},
    {"__reduce__", (PyCFunction)Viewer_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ViewerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "durak.envs._arrays.Viewer",
    .tp_basicsize = sizeof(Viewer),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = PyDoc_STR(
        "Viewer(players, cards, lo, full, flags, privileged, pogonny, phases, limit, "
        "actions):\none rule set's layout of a seat's view (durak.planes.Planes); "
        "view() makes the arrays."),
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Viewer_init,
    .tp_dealloc = (destructor)Viewer_dealloc,
    .tp_methods = Viewer_methods,
    .tp_members = Viewer_members,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_arrays",
    "A seat's view as two new numpy arrays in one call (see durak.planes).", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__arrays(void) {
    import_array();
    /* (the builtin types' descriptors live as long as numpy: borrowed for good) */
    float32_descr = PyArray_DescrFromType(NPY_FLOAT32);
    int8_descr = PyArray_DescrFromType(NPY_INT8);
    if (float32_descr == NULL || int8_descr == NULL) return NULL;
    if (PyType_Ready(&ViewerType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "Viewer", (PyObject *)&ViewerType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
