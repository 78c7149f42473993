/*
 * op_loc.c -- MPI_MINLOC and MPI_MAXLOC on (value, index) pairs.
 *
 * Cost: gamma per pair, a compare and a conditional copy.
 *
 * The result of a pair is the smaller (MINLOC) or larger (MAXLOC) value with its index;
 * on equal values the smaller index wins for both ops (MPI-3.1 section 5.9.4), which
 * makes the op commutative and associative.
 *
 * The predefined pair types (MPI_2INT, MPI_FLOAT_INT, ...) run as arrays of their C
 * structs, and so do the Fortran pairs (MPI_2REAL: the index is a REAL too).  Derived
 * types made of C pairs (a contiguous or vector of MPI_DOUBLE_INT, a struct {double;
 * int;}) are recognised by their type signature: the blocks of one element, split into
 * basic items, must read value, int, value, int, ... with each value of a type MINLOC
 * accepts.  Those run item by item through memcpy, since a derived layout need not keep
 * its members aligned.  Derived types of Fortran pairs are not recognised (MPI_ERR_OP).
 */
#include "core/op/op_loops.h"

#include <string.h>

/* inout[k] = in[k] op inout[k] for n pairs of one layout */
typedef void (*loc_loop_fn)(int op, const void *in, void *inout, size_t n);

enum {
    LOC_SHORT = 6,
    LOC_INT = 8,
    LOC_LONG = 10,
    LOC_FLOAT = 14,
    LOC_DOUBLE = 15,
    LOC_LDOUBLE = 16,
    LOC_FIRST_PAIR = 33,
    LOC_LAST_PAIR = 38,
    LOC_FIRST_TWIN = 52, /* MPI_2INTEGER, MPI_2REAL, MPI_2DOUBLE_PRECISION */
    LOC_LAST_TWIN = 54
};

/* the layouts of include/mpi.h's pair types, as core/dt/dt.c defines them */
typedef struct {
    float v;
    int i;
} loc_float_int_t;
typedef struct {
    double v;
    int i;
} loc_double_int_t;
typedef struct {
    long v;
    int i;
} loc_long_int_t;
typedef struct {
    int v;
    int i;
} loc_2int_t;
typedef struct {
    short v;
    int i;
} loc_short_int_t;
typedef struct {
    long double v;
    int i;
} loc_long_double_int_t;

#define LOC_LOOP(fname, S)                                                                         \
    static void fname(int op, const void *restrict vin, void *restrict vio, size_t n)              \
    {                                                                                              \
        const S *in = vin;                                                                         \
        S *io = vio;                                                                               \
        if (op == OP_MINLOC) {                                                                     \
            for (size_t k = 0; k < n; k++) {                                                       \
                if (in[k].v < io[k].v || (in[k].v == io[k].v && in[k].i < io[k].i)) {              \
                    io[k].v = in[k].v;                                                             \
                    io[k].i = in[k].i;                                                             \
                }                                                                                  \
            }                                                                                      \
        } else {                                                                                   \
            for (size_t k = 0; k < n; k++) {                                                       \
                if (in[k].v > io[k].v || (in[k].v == io[k].v && in[k].i < io[k].i)) {              \
                    io[k].v = in[k].v;                                                             \
                    io[k].i = in[k].i;                                                             \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }

LOC_LOOP(loc_float_int, loc_float_int_t)
LOC_LOOP(loc_double_int, loc_double_int_t)
LOC_LOOP(loc_long_int, loc_long_int_t)
LOC_LOOP(loc_2int, loc_2int_t)
LOC_LOOP(loc_short_int, loc_short_int_t)
LOC_LOOP(loc_long_double_int, loc_long_double_int_t)

/* Fortran pairs: the index has the type of the value, {T v; T i;} */
#define LOC_TWIN_LOOP(fname, T)                                                                    \
    static void fname(int op, const void *restrict vin, void *restrict vio, size_t n)              \
    {                                                                                              \
        const T *in = vin;                                                                         \
        T *io = vio;                                                                               \
        for (size_t k = 0; k < 2 * n; k += 2) {                                                    \
            int better = op == OP_MINLOC ? in[k] < io[k] : in[k] > io[k];                          \
            if (better || (in[k] == io[k] && in[k + 1] < io[k + 1])) {                             \
                io[k] = in[k];                                                                     \
                io[k + 1] = in[k + 1];                                                             \
            }                                                                                      \
        }                                                                                          \
    }

LOC_TWIN_LOOP(loc_2integer, int32_t)
LOC_TWIN_LOOP(loc_2real, float)
LOC_TWIN_LOOP(loc_2double_precision, double)

static const loc_loop_fn loc_twin_loops[] = {loc_2integer, loc_2real, loc_2double_precision};

/* indexed by pair type - LOC_FIRST_PAIR, in the order of include/mpi.h */
static const loc_loop_fn loc_pair_loops[] = {
    loc_float_int, loc_double_int, loc_long_int, loc_2int, loc_short_int, loc_long_double_int,
};

/* bytes of a value MINLOC/MAXLOC accepts, 0 for other basic types */
static size_t loc_value_size(int basic)
{
    switch (basic) {
    case LOC_SHORT:
        return sizeof(short);
    case LOC_INT:
        return sizeof(int);
    case LOC_LONG:
        return sizeof(long);
    case LOC_FLOAT:
        return sizeof(float);
    case LOC_DOUBLE:
        return sizeof(double);
    case LOC_LDOUBLE:
        return sizeof(long double);
    default:
        return 0;
    }
}

#define LOC_CMP(T)                                                                                 \
    do {                                                                                           \
        T a, b;                                                                                    \
        memcpy(&a, inv, sizeof(a));                                                                \
        memcpy(&b, iov, sizeof(b));                                                                \
        if (a != b) {                                                                              \
            return op == OP_MINLOC ? a < b : a > b;                                                \
        }                                                                                          \
        return ini < ioi;                                                                          \
    } while (0)

/* 1 when the pair (inv, ini) replaces (iov, ioi) */
static int loc_wins(int op, int vbasic, const char *inv, int ini, const char *iov, int ioi)
{
    switch (vbasic) {
    case LOC_SHORT:
        LOC_CMP(short);
    case LOC_INT:
        LOC_CMP(int);
    case LOC_LONG:
        LOC_CMP(long);
    case LOC_FLOAT:
        LOC_CMP(float);
    case LOC_DOUBLE:
        LOC_CMP(double);
    default:
        LOC_CMP(long double);
    }
}

static void loc_pair(int op, int vbasic, const char *inv, const char *ini_p, char *iov, char *ioi_p)
{
    int ini, ioi;
    memcpy(&ini, ini_p, sizeof(ini));
    memcpy(&ioi, ioi_p, sizeof(ioi));
    if (loc_wins(op, vbasic, inv, ini, iov, ioi)) {
        memcpy(iov, inv, loc_value_size(vbasic));
        memcpy(ioi_p, &ini, sizeof(ini));
    }
}

/*
 * Walks the basic items of one element, pairing each value with the int after it.
 * With in == NULL it only checks the signature, skipping through int blocks (so a
 * contiguous of a million MPI_2INT checks in one step); otherwise it applies `op`.
 * Returns 1 when the element is a whole number of valid pairs.
 */
static int loc_walk(const compi_datatype_t *dt, int op, const char *in, char *io)
{
    int have_value = 0, vbasic = 0;
    ptrdiff_t voff = 0;

    for (size_t r = 0; r < dt->nrep; r++) {
        ptrdiff_t unit = (ptrdiff_t)r * dt->rep_stride;
        for (int b = 0; b < dt->nblocks; b++) {
            const dt_block_t *bk = &dt->blocks[b];
            size_t sz = loc_value_size(bk->basic);
            if (sz == 0) {
                return 0;
            }
            size_t n = bk->len / sz;
            if (in == NULL && bk->basic == LOC_INT) {
                /* ints pair with each other: only the parity of what remains matters */
                size_t rest = have_value ? n - 1 : n;
                if (n == 0) {
                    continue;
                }
                have_value = (int)(rest & 1);
                vbasic = LOC_INT;
                continue;
            }
            for (size_t k = 0; k < n; k++) {
                ptrdiff_t off = unit + bk->disp + (ptrdiff_t)(k * sz);
                if (!have_value) {
                    vbasic = bk->basic;
                    voff = off;
                    have_value = 1;
                    continue;
                }
                if (bk->basic != LOC_INT) {
                    return 0;
                }
                if (in != NULL) {
                    loc_pair(op, vbasic, in + voff, in + off, io + voff, io + off);
                }
                have_value = 0;
            }
        }
        if (in == NULL && !have_value) {
            break; /* every unit left starts as this one did: the same walk */
        }
    }
    return !have_value;
}

int op_loc_valid(const compi_datatype_t *dt)
{
    return loc_walk(dt, OP_MINLOC, NULL, NULL);
}

void op_loc_apply(int op, const compi_datatype_t *dt, const void *in, void *inout, size_t count)
{
    const char *src = in;
    char *dst = inout;

    if (dt->predefined && dt->basic >= LOC_FIRST_PAIR && dt->basic <= LOC_LAST_PAIR) {
        loc_pair_loops[dt->basic - LOC_FIRST_PAIR](op, src, dst, count);
        return;
    }
    if (dt->predefined && dt->basic >= LOC_FIRST_TWIN && dt->basic <= LOC_LAST_TWIN) {
        loc_twin_loops[dt->basic - LOC_FIRST_TWIN](op, src, dst, count);
        return;
    }
    if (dt->contig && dt->basic == LOC_INT) {
        /* contiguous MPI_2INTs merged into one block of ints */
        loc_2int(op, src + dt->true_lb, dst + dt->true_lb, count * dt->size / sizeof(loc_2int_t));
        return;
    }
    for (size_t e = 0; e < count; e++) {
        ptrdiff_t shift = (ptrdiff_t)e * dt->extent;
        loc_walk(dt, op, src + shift, dst + shift);
    }
}
