/*
 * dt_api.c -- the MPI datatype API: constructors, commit/free/dup and address
 * arithmetic.  Queries are in dt_query_api.c, packing in pack_api.c.
 *
 * The entry points (core/mpi/gen/dt.c) check the arguments and call the x_impl here,
 * with every count, blocklength, stride and displacement as an MPI_Count (arrays as an
 * mpi_counts_t over the caller's ints, Aints or MPI_Counts), so the int and the _c
 * constructor are one function; the engine (core/dt) trusts its callers.  Counts in
 * elements of the old type become bytes here (vector strides, indexed displacements), so
 * the engine sees only byte displacements.  The envelope that MPI_Type_get_envelope(_c)
 * reports is recorded here, where the original arguments are: integers and addresses
 * from an int constructor, large counts from a _c one.
 */
#include "core/comm/attr.h"
#include "core/dt/dt.h"
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers --------------------------------------------------------------------- */

/*
 * The envelope of a constructor from its arguments in the order of the standard's table
 * (MPI-4.1 5.1.13): `vals` holds every count and displacement argument.  A large-count
 * constructor (fn is MPI_x_c) records them all as large counts; an int one records the
 * first `n_int` as integers and the rest as addresses.  `ints` (room for n) is scratch.
 */
static dt_env_t dt__env(const char *fn, int combiner, const MPI_Count *vals, int n, int n_int,
                        int *ints, MPI_Aint *addrs)
{
    dt_env_t env = {.combiner = combiner};

    if (mpi_fn_large(fn)) {
        env.n_counts = n;
        env.counts = vals;
        return env;
    }
    for (int k = 0; k < n; k++) {
        if (k < n_int) {
            ints[k] = (int)vals[k];
        } else {
            addrs[k - n_int] = (MPI_Aint)vals[k];
        }
    }
    env.n_ints = n_int;
    env.ints = ints;
    env.n_addrs = n - n_int;
    env.addrs = addrs;
    return env;
}

/* hands the new type to the user with its envelope, or raises the constructor's error */
static int dt__done(const char *fn, compi_status_t st, compi_datatype_t *dt, dt_env_t env,
                    MPI_Datatype *newtype)
{
    if (st == COMPI_OK) {
        st = dt_set_envelope(dt, &env);
        if (st != COMPI_OK) {
            dt_release(dt);
        }
    }
    if (st != COMPI_OK) {
        return mpi_err_raise(NULL, mpi_err_class_of(st), fn, "cannot build the datatype: %s",
                             compi_status_string(st));
    }
    *newtype = dt->handle;
    return MPI_SUCCESS;
}

/* an envelope of at most three values and one datatype, built without allocation */
typedef struct dt__small {
    MPI_Count vals[3];
    int ints[3];
    MPI_Aint addrs[3];
} dt__small_t;

static int dt__done_small(const char *fn, compi_status_t st, compi_datatype_t *dt, int combiner,
                          dt__small_t *e, int n, int n_int, compi_datatype_t *old,
                          MPI_Datatype *newtype)
{
    dt_env_t env = dt__env(fn, combiner, e->vals, n, n_int, e->ints, e->addrs);
    env.n_types = 1;
    env.types = &old->handle;
    return dt__done(fn, st, dt, env, newtype);
}

/*
 * The indexed family and struct: `count` blocks of blocklengths `bl` (or the one `bl1`
 * when bl is NULL) at displacements `disps`, in elements of `old` (elem_disps) or in
 * bytes; `types` (struct) replaces `old`.  The arrays arrive as the caller's ints, Aints
 * or MPI_Counts (mpi_counts_t) and are read once into the engine's arrays and the
 * envelope: one allocation per constructor.
 */
static int dt__indexed(const char *fn, int combiner, MPI_Count count, const mpi_counts_t *bl,
                       MPI_Count bl1, mpi_counts_t disps, int elem_disps, compi_datatype_t *old,
                       const MPI_Datatype *types, MPI_Datatype *newtype)
{
    size_t n = (size_t)count, nbl = bl != NULL ? n : 1, nvals = 1 + nbl + n;
    int is_struct = old == NULL; /* types may be NULL too when count is 0 */
    compi_datatype_t **objs = NULL, *dt = NULL;
    compi_status_t st = COMPI_ERR_NO_MEMORY;
    int rc;

    if (nvals > INT_MAX) {
        return mpi_err_raise(NULL, MPI_ERR_COUNT, fn, "count=%lld: an envelope beyond %d values",
                             (long long)count, INT_MAX);
    }
    /* one block: the engine's lengths and displacements, the envelope's values and its
       int and address forms */
    size_t bytes = n * (sizeof(size_t) + sizeof(ptrdiff_t) + sizeof(*objs)) +
                   nvals * (sizeof(MPI_Count) + sizeof(int) + sizeof(MPI_Aint)) + 16;
    char *mem = malloc(bytes);
    if (mem == NULL) {
        goto out;
    }
    size_t *sbl = (size_t *)mem;
    ptrdiff_t *sdisp = (ptrdiff_t *)(sbl + n);
    MPI_Count *vals = (MPI_Count *)(sdisp + n);
    MPI_Aint *addrs = (MPI_Aint *)(vals + nvals);
    objs = (compi_datatype_t **)(addrs + nvals);
    int *ints = (int *)(objs + n);

    vals[0] = count;
    if (bl == NULL) {
        vals[1] = bl1;
    }
    for (size_t k = 0; k < n; k++) {
        MPI_Count b = bl != NULL ? mpi_counts_at(*bl, (MPI_Count)k) : bl1;
        MPI_Count d = mpi_counts_at(disps, (MPI_Count)k);
        sbl[k] = (size_t)b;
        sdisp[k] = elem_disps ? (ptrdiff_t)d * old->extent : (ptrdiff_t)d;
        if (bl != NULL) {
            vals[1 + k] = b;
        }
        vals[1 + nbl + k] = d;
        if (is_struct) {
            objs[k] = dt_from_handle(types[k]);
        }
    }
    if (is_struct) {
        st = dt_create_struct(n, sbl, sdisp, objs, &dt);
    } else {
        st = dt_create_hindexed(n, sbl, sdisp, old, &dt);
    }
    dt_env_t env = dt__env(fn, combiner, vals, (int)nvals, elem_disps ? (int)nvals : (int)(1 + nbl),
                           ints, addrs);
    env.n_types = is_struct ? (int)n : 1;
    env.types = is_struct ? types : &old->handle;
    rc = dt__done(fn, st, dt, env, newtype);
    free(mem);
    return rc;
out:
    return dt__done(fn, st, dt, (dt_env_t){0}, newtype);
}

/* ---- constructors ---------------------------------------------------------------- */

static int type_contiguous_impl(MPI_Count count, compi_datatype_t *oldtype, MPI_Datatype *newtype,
                                const char *fn)
{
    compi_datatype_t *dt = NULL;
    dt__small_t e = {.vals = {count}};
    /* dt is read after the constructor ran: arguments have no evaluation order */
    compi_status_t st = dt_create_contiguous((size_t)count, oldtype, &dt);
    return dt__done_small(fn, st, dt, MPI_COMBINER_CONTIGUOUS, &e, 1, 1, oldtype, newtype);
}

static int type_vector_impl(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                            compi_datatype_t *oldtype, MPI_Datatype *newtype, const char *fn)
{
    compi_datatype_t *dt = NULL;
    dt__small_t e = {.vals = {count, blocklength, stride}};
    compi_status_t st = dt_create_hvector((size_t)count, (size_t)blocklength,
                                          (ptrdiff_t)stride * oldtype->extent, oldtype, &dt);
    return dt__done_small(fn, st, dt, MPI_COMBINER_VECTOR, &e, 3, 3, oldtype, newtype);
}

static int type_create_hvector_impl(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                                    compi_datatype_t *oldtype, MPI_Datatype *newtype,
                                    const char *fn)
{
    compi_datatype_t *dt = NULL;
    dt__small_t e = {.vals = {count, blocklength, stride}};
    compi_status_t st =
        dt_create_hvector((size_t)count, (size_t)blocklength, (ptrdiff_t)stride, oldtype, &dt);
    return dt__done_small(fn, st, dt, MPI_COMBINER_HVECTOR, &e, 3, 2, oldtype, newtype);
}

static int type_indexed_impl(MPI_Count count, mpi_counts_t array_of_blocklengths,
                             mpi_counts_t array_of_displacements, compi_datatype_t *oldtype,
                             MPI_Datatype *newtype, const char *fn)
{
    return dt__indexed(fn, MPI_COMBINER_INDEXED, count, &array_of_blocklengths, 0,
                       array_of_displacements, 1, oldtype, NULL, newtype);
}

static int type_create_hindexed_impl(MPI_Count count, mpi_counts_t array_of_blocklengths,
                                     mpi_counts_t array_of_displacements, compi_datatype_t *oldtype,
                                     MPI_Datatype *newtype, const char *fn)
{
    return dt__indexed(fn, MPI_COMBINER_HINDEXED, count, &array_of_blocklengths, 0,
                       array_of_displacements, 0, oldtype, NULL, newtype);
}

static int type_create_indexed_block_impl(MPI_Count count, MPI_Count blocklength,
                                          mpi_counts_t array_of_displacements,
                                          compi_datatype_t *oldtype, MPI_Datatype *newtype,
                                          const char *fn)
{
    return dt__indexed(fn, MPI_COMBINER_INDEXED_BLOCK, count, NULL, blocklength,
                       array_of_displacements, 1, oldtype, NULL, newtype);
}

static int type_create_hindexed_block_impl(MPI_Count count, MPI_Count blocklength,
                                           mpi_counts_t array_of_displacements,
                                           compi_datatype_t *oldtype, MPI_Datatype *newtype,
                                           const char *fn)
{
    return dt__indexed(fn, MPI_COMBINER_HINDEXED_BLOCK, count, NULL, blocklength,
                       array_of_displacements, 0, oldtype, NULL, newtype);
}

static int type_create_struct_impl(MPI_Count count, mpi_counts_t array_of_blocklengths,
                                   mpi_counts_t array_of_displacements,
                                   const MPI_Datatype array_of_types[], MPI_Datatype *newtype,
                                   const char *fn)
{
    return dt__indexed(fn, MPI_COMBINER_STRUCT, count, &array_of_blocklengths, 0,
                       array_of_displacements, 0, NULL, array_of_types, newtype);
}
COMPI_STATIC_ASSERT(sizeof(MPI_Aint) == sizeof(ptrdiff_t), "MPI_Aint must be ptrdiff_t-sized");

static int dt__order(const char *fn, int order)
{
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "order=%d is not MPI_ORDER_C/FORTRAN", order);
    }
    return MPI_SUCCESS;
}

static int type_create_subarray_impl(int ndims, mpi_counts_t array_of_sizes,
                                     mpi_counts_t array_of_subsizes, mpi_counts_t array_of_starts,
                                     int order, compi_datatype_t *oldtype, MPI_Datatype *newtype,
                                     const char *fn)
{
    compi_datatype_t *dt = NULL;
    size_t *v = NULL;
    MPI_Count *vals = NULL;
    int *ints = NULL, rc;
    compi_status_t st = COMPI_ERR_NO_MEMORY;

    if (ndims <= 0) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "ndims=%d must be positive", ndims);
    }
    if ((rc = dt__order(fn, order)) != MPI_SUCCESS) {
        return rc;
    }
    for (int d = 0; d < ndims; d++) {
        MPI_Count sz = mpi_counts_at(array_of_sizes, d), sub = mpi_counts_at(array_of_subsizes, d);
        MPI_Count start = mpi_counts_at(array_of_starts, d);
        if (sz < 1 || sub < 0 || sub > sz || start < 0 || start > sz - sub) {
            return mpi_err_raise(NULL, MPI_ERR_ARG, fn,
                                 "dimension %d: size=%lld subsize=%lld start=%lld do not fit", d,
                                 (long long)sz, (long long)sub, (long long)start);
        }
    }
    v = malloc(3 * (size_t)ndims * sizeof(*v));
    vals = malloc(3 * (size_t)ndims * sizeof(*vals));
    ints = malloc((3 * (size_t)ndims + 2) * sizeof(*ints));
    dt_env_t env = {.combiner = MPI_COMBINER_SUBARRAY, .n_types = 1, .types = &oldtype->handle};
    if (v == NULL || vals == NULL || ints == NULL) {
        goto out;
    }
    for (int d = 0; d < ndims; d++) {
        vals[d] = mpi_counts_at(array_of_sizes, d);
        vals[ndims + d] = mpi_counts_at(array_of_subsizes, d);
        vals[2 * ndims + d] = mpi_counts_at(array_of_starts, d);
    }
    for (int k = 0; k < 3 * ndims; k++) {
        v[k] = (size_t)vals[k];
    }
    /* int: ndims, sizes, subsizes, starts, order; large: ndims, order and the counts */
    ints[0] = ndims;
    if (mpi_fn_large(fn)) {
        ints[1] = order;
        env.n_ints = 2;
        env.n_counts = 3 * ndims;
        env.counts = vals;
    } else {
        for (int k = 0; k < 3 * ndims; k++) {
            ints[1 + k] = (int)vals[k];
        }
        ints[1 + 3 * ndims] = order;
        env.n_ints = 3 * ndims + 2;
    }
    env.ints = ints;
    st = dt_create_subarray(ndims, v, v + ndims, v + 2 * ndims, order, oldtype, &dt);
out:
    rc = dt__done(fn, st, dt, env, newtype);
    free(v);
    free(vals);
    free(ints);
    return rc;
}

/* the darray argument rules of MPI-3.1 section 4.1.4, one dimension at a time */
static int dt__darray_check(const char *fn, int d, int gsize, int distrib, int darg, int psize)
{
    if (gsize < 1 || psize < 1) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "dimension %d: gsize=%d psize=%d", d, gsize,
                             psize);
    }
    if (distrib != MPI_DISTRIBUTE_BLOCK && distrib != MPI_DISTRIBUTE_CYCLIC &&
        distrib != MPI_DISTRIBUTE_NONE) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "dimension %d: distribution %d is unknown", d,
                             distrib);
    }
    if (darg != MPI_DISTRIBUTE_DFLT_DARG && darg < 1) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "dimension %d: darg=%d is not positive", d,
                             darg);
    }
    if (distrib == MPI_DISTRIBUTE_NONE && psize != 1) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn,
                             "dimension %d: MPI_DISTRIBUTE_NONE over %d processes", d, psize);
    }
    if (distrib == MPI_DISTRIBUTE_BLOCK && darg != MPI_DISTRIBUTE_DFLT_DARG &&
        (long long)darg * psize < gsize) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn,
                             "dimension %d: blocks of %d on %d processes do not cover %d", d, darg,
                             psize, gsize);
    }
    return MPI_SUCCESS;
}

static int type_create_darray_impl(int size, int rank, int ndims, mpi_counts_t array_of_gsizes,
                                   const int array_of_distribs[], const int array_of_dargs[],
                                   const int array_of_psizes[], int order,
                                   compi_datatype_t *oldtype, MPI_Datatype *newtype, const char *fn)
{
    compi_datatype_t *dt = NULL;
    long long procs = 1;
    int *ints = NULL, *gs = NULL, rc, large = mpi_fn_large(fn), ni = 0;
    MPI_Count *vals = NULL;
    compi_status_t st = COMPI_ERR_NO_MEMORY;

    if (size < 1 || rank < 0 || rank >= size) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "rank=%d of size=%d", rank, size);
    }
    if (ndims <= 0) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "ndims=%d must be positive", ndims);
    }
    if (array_of_distribs == NULL || array_of_dargs == NULL || array_of_psizes == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "an array argument is NULL");
    }
    if ((rc = dt__order(fn, order)) != MPI_SUCCESS) {
        return rc;
    }
    for (int d = 0; d < ndims; d++) {
        MPI_Count g = mpi_counts_at(array_of_gsizes, d);
        /* the engine lays out int global sizes */
        if (g > INT_MAX) {
            return mpi_err_raise(NULL, MPI_ERR_COUNT, fn,
                                 "array_of_gsizes[%d]=%lld is beyond what compi lays out (%d)", d,
                                 (long long)g, INT_MAX);
        }
        rc = dt__darray_check(fn, d, (int)g, array_of_distribs[d], array_of_dargs[d],
                              array_of_psizes[d]);
        if (rc != MPI_SUCCESS) {
            return rc;
        }
        procs *= array_of_psizes[d];
        if (procs > size) {
            break;
        }
    }
    if (procs != size) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "the process grid does not have %d processes",
                             size);
    }
    /* envelope: size, rank, ndims, gsizes (large counts of the _c form), distribs, dargs,
       psizes, order */
    dt_env_t env = {.combiner = MPI_COMBINER_DARRAY, .n_types = 1, .types = &oldtype->handle};
    ints = malloc((4 * (size_t)ndims + 4) * sizeof(*ints));
    gs = malloc((size_t)ndims * sizeof(*gs));
    vals = malloc((size_t)ndims * sizeof(*vals));
    if (ints == NULL || gs == NULL || vals == NULL) {
        goto out;
    }
    ints[ni++] = size;
    ints[ni++] = rank;
    ints[ni++] = ndims;
    for (int d = 0; d < ndims; d++) {
        vals[d] = mpi_counts_at(array_of_gsizes, d);
        gs[d] = (int)vals[d];
        if (!large) {
            ints[ni++] = gs[d];
        }
    }
    for (int d = 0; d < ndims; d++) {
        ints[ni + d] = array_of_distribs[d];
        ints[ni + ndims + d] = array_of_dargs[d];
        ints[ni + 2 * ndims + d] = array_of_psizes[d];
    }
    ni += 3 * ndims;
    ints[ni++] = order;
    env.n_ints = ni;
    env.ints = ints;
    if (large) {
        env.n_counts = ndims;
        env.counts = vals;
    }
    st = dt_create_darray(size, rank, ndims, gs, array_of_distribs, array_of_dargs, array_of_psizes,
                          order, oldtype, &dt);
out:
    rc = dt__done(fn, st, dt, env, newtype);
    free(ints);
    free(gs);
    free(vals);
    return rc;
}

static int type_create_resized_impl(compi_datatype_t *oldtype, MPI_Count lb, MPI_Count extent,
                                    MPI_Datatype *newtype, const char *fn)
{
    compi_datatype_t *dt = NULL;
    dt__small_t e = {.vals = {lb, extent}};
    compi_status_t st = dt_create_resized(oldtype, (ptrdiff_t)lb, (ptrdiff_t)extent, &dt);
    return dt__done_small(fn, st, dt, MPI_COMBINER_RESIZED, &e, 2, 0, oldtype, newtype);
}

static int type_dup_impl(compi_datatype_t *oldtype, MPI_Datatype *newtype, const char *fn)
{
    compi_datatype_t *dt = NULL;
    compi_status_t st = dt_dup(oldtype, &dt);

    if (st == COMPI_OK) {
        int cb_code = MPI_SUCCESS;
        st = attr_type_copy_all(oldtype, dt, &cb_code);
        if (st != COMPI_OK) {
            /* as MPI_Comm_dup: no new handle, and the callback's own code */
            attr_type_free_all(dt);
            dt_release(dt);
            *newtype = MPI_DATATYPE_NULL;
            return mpi_err_raise(NULL, cb_code != MPI_SUCCESS ? cb_code : MPI_ERR_OTHER, fn,
                                 "an attribute copy callback returned error %d", cb_code);
        }
    }
    return dt__done(
        fn, st, dt,
        (dt_env_t){.combiner = MPI_COMBINER_DUP, .n_types = 1, .types = &oldtype->handle}, newtype);
}

static int type_commit_impl(MPI_Datatype *datatype, compi_datatype_t *datatype_obj, const char *fn)
{
    (void)datatype;
    (void)fn;
    datatype_obj->committed = 1;
    return MPI_SUCCESS;
}

static int type_free_impl(MPI_Datatype *datatype, compi_datatype_t *datatype_obj, const char *fn)
{
    compi_datatype_t *dt = datatype_obj;

    if (dt->predefined) {
        return mpi_err_raise(NULL, MPI_ERR_TYPE, fn, "%s is predefined and cannot be freed",
                             dt_name(dt));
    }
    if (attr_type_free_all(dt) != COMPI_OK) {
        return mpi_err_raise(NULL, MPI_ERR_OTHER, fn, "an attribute delete callback failed");
    }
    /* pending requests keep their reference; the handle dies now */
    dt_forget_handle(dt);
    dt_release(dt);
    *datatype = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

/* ---- addresses and handle conversion --------------------------------------------- */

static int get_address_impl(const void *location, MPI_Aint *address, const char *fn)
{
    (void)fn;
    *address = (MPI_Aint)location;
    return MPI_SUCCESS;
}

/* address arithmetic needs no library state: callable at any time; the sum and the
   difference wrap as unsigned addresses do */
static MPI_Aint aint_add_impl(MPI_Aint base, MPI_Aint disp, const char *fn)
{
    (void)fn;
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}

static MPI_Aint aint_diff_impl(MPI_Aint addr1, MPI_Aint addr2, const char *fn)
{
    (void)fn;
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}

#include "core/mpi/gen/dt.c"
