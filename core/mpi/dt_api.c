/*
 * dt_api.c -- the MPI datatype API: constructors, commit/free/dup, queries, names,
 * address arithmetic.  Packing is in pack_api.c.
 *
 * Argument checks live here and nowhere below: the engine (core/dt) trusts its callers.
 * Counts in elements of the old type become bytes here (vector strides, indexed
 * displacements), so the engine sees only byte displacements.  The envelope that
 * MPI_Type_get_envelope reports is recorded here, where the original arguments are.
 */
#include "core/comm/attr.h"
#include "core/dt/dt.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers --------------------------------------------------------------------- */

static int dt__lookup(MPI_Datatype h, const char *fn, compi_datatype_t **dt_p)
{
    *dt_p = dt_from_handle(h);
    if (*dt_p == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_TYPE, fn, "invalid datatype (handle 0x%x)", (unsigned)h);
    }
    return MPI_SUCCESS;
}

static int dt__null_arg(const char *fn, const char *what)
{
    return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "%s is NULL", what);
}

static int dt__neg_count(const char *fn, int count)
{
    return mpi_err_raise(NULL, MPI_ERR_COUNT, fn, "count=%d is negative", count);
}

/* checks an int array of blocklengths (all >= 0) */
static int dt__check_blocklens(const char *fn, int count, const int *bl)
{
    if (count > 0 && bl == NULL) {
        return dt__null_arg(fn, "array_of_blocklengths");
    }
    for (int i = 0; i < count; i++) {
        if (bl[i] < 0) {
            return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "array_of_blocklengths[%d]=%d is negative",
                                 i, bl[i]);
        }
    }
    return MPI_SUCCESS;
}

/* hands the new type to the user with its envelope, or raises the constructor's error */
static int dt__done(const char *fn, compi_status_t st, compi_datatype_t *dt, int combiner, int ni,
                    const int *ints, int na, const MPI_Aint *addrs, int nt,
                    const MPI_Datatype *types, MPI_Datatype *newtype)
{
    if (st == COMPI_OK) {
        st = dt_set_envelope(dt, combiner, ni, ints, na, addrs, nt, types);
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

/* common front of the hindexed-like constructors: converts to byte displacements */
static int dt__indexed(const char *fn, int combiner, int count, const int *bl, int bl_same,
                       const int *idisps, const MPI_Aint *adisps, MPI_Datatype oldtype,
                       MPI_Datatype *newtype)
{
    compi_datatype_t *old, *dt = NULL;
    size_t *sbl = NULL;
    ptrdiff_t *sdisp = NULL;
    int *ints = NULL, ni = 0, na = 0, rc;
    compi_status_t st;

    COMPI_CHECK_INIT(fn);
    if (count < 0) {
        return dt__neg_count(fn, count);
    }
    if ((rc = dt__lookup(oldtype, fn, &old)) != MPI_SUCCESS) {
        return rc;
    }
    if (newtype == NULL) {
        return dt__null_arg(fn, "newtype");
    }
    if (bl_same && bl[0] < 0) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "blocklength=%d is negative", bl[0]);
    }
    if (!bl_same && (rc = dt__check_blocklens(fn, count, bl)) != MPI_SUCCESS) {
        return rc;
    }
    if (count > 0 && idisps == NULL && adisps == NULL) {
        return dt__null_arg(fn, "array_of_displacements");
    }
    sbl = malloc(((size_t)count + 1) * sizeof(*sbl));
    sdisp = malloc(((size_t)count + 1) * sizeof(*sdisp));
    /* envelope ints: count, blocklength(s), then integer displacements if any */
    ints = malloc(((size_t)count * 2 + 2) * sizeof(*ints));
    if (sbl == NULL || sdisp == NULL || ints == NULL) {
        st = COMPI_ERR_NO_MEMORY;
        goto out;
    }
    ints[ni++] = count;
    if (bl_same) {
        ints[ni++] = bl[0];
    }
    for (int i = 0; i < count; i++) {
        sbl[i] = (size_t)bl[bl_same ? 0 : i];
        sdisp[i] = idisps ? (ptrdiff_t)idisps[i] * old->extent : (ptrdiff_t)adisps[i];
        if (!bl_same) {
            ints[ni++] = bl[i];
        }
    }
    for (int i = 0; idisps != NULL && i < count; i++) {
        ints[ni++] = idisps[i];
    }
    na = adisps ? count : 0;
    st = dt_create_hindexed((size_t)count, sbl, sdisp, old, &dt);
out:
    rc = dt__done(fn, st, dt, combiner, ni, ints, na, adisps, 1, &oldtype, newtype);
    free(sbl);
    free(sdisp);
    free(ints);
    return rc;
}

/* ---- constructors ---------------------------------------------------------------- */

#pragma weak MPI_Type_contiguous = PMPI_Type_contiguous
int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_contiguous";
    compi_datatype_t *old, *dt = NULL;
    compi_status_t st;
    int rc;

    COMPI_CHECK_INIT(fn);
    if (count < 0) {
        return dt__neg_count(fn, count);
    }
    if ((rc = dt__lookup(oldtype, fn, &old)) != MPI_SUCCESS) {
        return rc;
    }
    if (newtype == NULL) {
        return dt__null_arg(fn, "newtype");
    }
    /* dt is read after the constructor ran: arguments have no evaluation order */
    st = dt_create_contiguous((size_t)count, old, &dt);
    return dt__done(fn, st, dt, MPI_COMBINER_CONTIGUOUS, 1, &count, 0, NULL, 1, &oldtype, newtype);
}

static int dt__hvector(const char *fn, int count, int blocklength, MPI_Aint stride_bytes,
                       const int *istride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    compi_datatype_t *old, *dt = NULL;
    int rc, ints[3] = {count, blocklength, istride ? *istride : 0};
    compi_status_t st;

    COMPI_CHECK_INIT(fn);
    if (count < 0) {
        return dt__neg_count(fn, count);
    }
    if (blocklength < 0) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "blocklength=%d is negative", blocklength);
    }
    if ((rc = dt__lookup(oldtype, fn, &old)) != MPI_SUCCESS) {
        return rc;
    }
    if (newtype == NULL) {
        return dt__null_arg(fn, "newtype");
    }
    if (istride != NULL) {
        stride_bytes = (MPI_Aint)*istride * old->extent;
    }
    st = dt_create_hvector((size_t)count, (size_t)blocklength, stride_bytes, old, &dt);
    if (istride != NULL) {
        return dt__done(fn, st, dt, MPI_COMBINER_VECTOR, 3, ints, 0, NULL, 1, &oldtype, newtype);
    }
    return dt__done(fn, st, dt, MPI_COMBINER_HVECTOR, 2, ints, 1, &stride_bytes, 1, &oldtype,
                    newtype);
}

#pragma weak MPI_Type_vector = PMPI_Type_vector
int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype)
{
    return dt__hvector("MPI_Type_vector", count, blocklength, 0, &stride, oldtype, newtype);
}

#pragma weak MPI_Type_create_hvector = PMPI_Type_create_hvector
int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    return dt__hvector("MPI_Type_create_hvector", count, blocklength, stride, NULL, oldtype,
                       newtype);
}

#pragma weak MPI_Type_hvector = PMPI_Type_hvector
int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    return dt__hvector("MPI_Type_hvector", count, blocklength, stride, NULL, oldtype, newtype);
}

#pragma weak MPI_Type_indexed = PMPI_Type_indexed
int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    return dt__indexed("MPI_Type_indexed", MPI_COMBINER_INDEXED, count, array_of_blocklengths, 0,
                       array_of_displacements, NULL, oldtype, newtype);
}

#pragma weak MPI_Type_create_hindexed = PMPI_Type_create_hindexed
int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    return dt__indexed("MPI_Type_create_hindexed", MPI_COMBINER_HINDEXED, count,
                       array_of_blocklengths, 0, NULL, array_of_displacements, oldtype, newtype);
}

#pragma weak MPI_Type_create_indexed_block = PMPI_Type_create_indexed_block
int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return dt__indexed("MPI_Type_create_indexed_block", MPI_COMBINER_INDEXED_BLOCK, count,
                       &blocklength, 1, array_of_displacements, NULL, oldtype, newtype);
}

#pragma weak MPI_Type_create_hindexed_block = PMPI_Type_create_hindexed_block
int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                    MPI_Datatype *newtype)
{
    return dt__indexed("MPI_Type_create_hindexed_block", MPI_COMBINER_HINDEXED_BLOCK, count,
                       &blocklength, 1, NULL, array_of_displacements, oldtype, newtype);
}

#pragma weak MPI_Type_create_struct = PMPI_Type_create_struct
int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_struct";
    compi_datatype_t **types = NULL, *dt = NULL;
    size_t *sbl = NULL;
    int *ints = NULL, rc;
    compi_status_t st;

    COMPI_CHECK_INIT(fn);
    if (count < 0) {
        return dt__neg_count(fn, count);
    }
    if ((rc = dt__check_blocklens(fn, count, array_of_blocklengths)) != MPI_SUCCESS) {
        return rc;
    }
    if (count > 0 && (array_of_displacements == NULL || array_of_types == NULL)) {
        return dt__null_arg(fn, "array_of_displacements or array_of_types");
    }
    if (newtype == NULL) {
        return dt__null_arg(fn, "newtype");
    }
    types = malloc(((size_t)count + 1) * sizeof(*types));
    sbl = malloc(((size_t)count + 1) * sizeof(*sbl));
    ints = malloc(((size_t)count + 1) * sizeof(*ints));
    if (types == NULL || sbl == NULL || ints == NULL) {
        st = COMPI_ERR_NO_MEMORY;
        goto out;
    }
    ints[0] = count;
    for (int i = 0; i < count; i++) {
        types[i] = dt_from_handle(array_of_types[i]);
        if (types[i] == NULL) {
            rc = mpi_err_raise(NULL, MPI_ERR_TYPE, fn, "array_of_types[%d] is not a datatype", i);
            goto done;
        }
        sbl[i] = (size_t)array_of_blocklengths[i];
        ints[i + 1] = array_of_blocklengths[i];
    }
    /* MPI_Aint and ptrdiff_t are both the pointer-sized signed integer */
    st =
        dt_create_struct((size_t)count, sbl, (const ptrdiff_t *)array_of_displacements, types, &dt);
out:
    rc = dt__done(fn, st, dt, MPI_COMBINER_STRUCT, count + 1, ints, count, array_of_displacements,
                  count, array_of_types, newtype);
done:
    free(types);
    free(sbl);
    free(ints);
    return rc;
}
COMPI_STATIC_ASSERT(sizeof(MPI_Aint) == sizeof(ptrdiff_t), "MPI_Aint must be ptrdiff_t-sized");

#pragma weak MPI_Type_struct = PMPI_Type_struct
int PMPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                     MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return PMPI_Type_create_struct(count, array_of_blocklengths, array_of_displacements,
                                   array_of_types, newtype);
}

#pragma weak MPI_Type_create_subarray = PMPI_Type_create_subarray
int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                              const int array_of_starts[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_subarray";
    compi_datatype_t *old, *dt = NULL;
    size_t *v = NULL;
    int *ints = NULL, rc;
    compi_status_t st;

    COMPI_CHECK_INIT(fn);
    if (ndims <= 0) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "ndims=%d must be positive", ndims);
    }
    if (array_of_sizes == NULL || array_of_subsizes == NULL || array_of_starts == NULL) {
        return dt__null_arg(fn, "an array argument");
    }
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "order=%d is not MPI_ORDER_C/FORTRAN", order);
    }
    for (int d = 0; d < ndims; d++) {
        int sz = array_of_sizes[d], sub = array_of_subsizes[d], start = array_of_starts[d];
        if (sz < 1 || sub < 0 || sub > sz || start < 0 || start > sz - sub) {
            return mpi_err_raise(NULL, MPI_ERR_ARG, fn,
                                 "dimension %d: size=%d subsize=%d start=%d do not fit", d, sz, sub,
                                 start);
        }
    }
    if ((rc = dt__lookup(oldtype, fn, &old)) != MPI_SUCCESS) {
        return rc;
    }
    if (newtype == NULL) {
        return dt__null_arg(fn, "newtype");
    }
    v = malloc(3 * (size_t)ndims * sizeof(*v));
    ints = malloc((3 * (size_t)ndims + 2) * sizeof(*ints));
    if (v == NULL || ints == NULL) {
        st = COMPI_ERR_NO_MEMORY;
        goto out;
    }
    ints[0] = ndims;
    for (int d = 0; d < ndims; d++) {
        v[d] = (size_t)array_of_sizes[d];
        v[ndims + d] = (size_t)array_of_subsizes[d];
        v[2 * ndims + d] = (size_t)array_of_starts[d];
        ints[1 + d] = array_of_sizes[d];
        ints[1 + ndims + d] = array_of_subsizes[d];
        ints[1 + 2 * ndims + d] = array_of_starts[d];
    }
    ints[1 + 3 * ndims] = order;
    st = dt_create_subarray(ndims, v, v + ndims, v + 2 * ndims, order, old, &dt);
out:
    rc = dt__done(fn, st, dt, MPI_COMBINER_SUBARRAY, 3 * ndims + 2, ints, 0, NULL, 1, &oldtype,
                  newtype);
    free(v);
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

#pragma weak MPI_Type_create_darray = PMPI_Type_create_darray
int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[],
                            const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_darray";
    compi_datatype_t *old, *dt = NULL;
    long long procs = 1;
    int *ints = NULL, rc;
    compi_status_t st;

    COMPI_CHECK_INIT(fn);
    if (size < 1 || rank < 0 || rank >= size) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "rank=%d of size=%d", rank, size);
    }
    if (ndims <= 0) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "ndims=%d must be positive", ndims);
    }
    if (array_of_gsizes == NULL || array_of_distribs == NULL || array_of_dargs == NULL ||
        array_of_psizes == NULL) {
        return dt__null_arg(fn, "an array argument");
    }
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "order=%d is not MPI_ORDER_C/FORTRAN", order);
    }
    for (int d = 0; d < ndims; d++) {
        rc = dt__darray_check(fn, d, array_of_gsizes[d], array_of_distribs[d], array_of_dargs[d],
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
    if ((rc = dt__lookup(oldtype, fn, &old)) != MPI_SUCCESS) {
        return rc;
    }
    if (newtype == NULL) {
        return dt__null_arg(fn, "newtype");
    }
    /* envelope: size, rank, ndims, gsizes, distribs, dargs, psizes, order */
    ints = malloc((4 * (size_t)ndims + 4) * sizeof(*ints));
    if (ints == NULL) {
        st = COMPI_ERR_NO_MEMORY;
        goto out;
    }
    ints[0] = size;
    ints[1] = rank;
    ints[2] = ndims;
    for (int d = 0; d < ndims; d++) {
        ints[3 + d] = array_of_gsizes[d];
        ints[3 + ndims + d] = array_of_distribs[d];
        ints[3 + 2 * ndims + d] = array_of_dargs[d];
        ints[3 + 3 * ndims + d] = array_of_psizes[d];
    }
    ints[3 + 4 * ndims] = order;
    st = dt_create_darray(size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs,
                          array_of_psizes, order, old, &dt);
out:
    rc = dt__done(fn, st, dt, MPI_COMBINER_DARRAY, 4 * ndims + 4, ints, 0, NULL, 1, &oldtype,
                  newtype);
    free(ints);
    return rc;
}

#pragma weak MPI_Type_create_resized = PMPI_Type_create_resized
int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_resized";
    compi_datatype_t *old, *dt = NULL;
    MPI_Aint addrs[2] = {lb, extent};
    compi_status_t st;
    int rc;

    COMPI_CHECK_INIT(fn);
    if ((rc = dt__lookup(oldtype, fn, &old)) != MPI_SUCCESS) {
        return rc;
    }
    if (newtype == NULL) {
        return dt__null_arg(fn, "newtype");
    }
    st = dt_create_resized(old, lb, extent, &dt);
    return dt__done(fn, st, dt, MPI_COMBINER_RESIZED, 0, NULL, 2, addrs, 1, &oldtype, newtype);
}

#pragma weak MPI_Type_dup = PMPI_Type_dup
int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_dup";
    compi_datatype_t *old, *dt = NULL;
    compi_status_t st;
    int rc;

    COMPI_CHECK_INIT(fn);
    if ((rc = dt__lookup(oldtype, fn, &old)) != MPI_SUCCESS) {
        return rc;
    }
    if (newtype == NULL) {
        return dt__null_arg(fn, "newtype");
    }
    st = dt_dup(old, &dt);
    if (st == COMPI_OK) {
        st = attr_type_copy_all(old, dt);
        if (st != COMPI_OK) {
            attr_type_free_all(dt);
            dt_release(dt);
            return mpi_err_raise(NULL, MPI_ERR_OTHER, fn, "an attribute copy callback failed");
        }
    }
    return dt__done(fn, st, dt, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &oldtype, newtype);
}

#pragma weak MPI_Type_commit = PMPI_Type_commit
int PMPI_Type_commit(MPI_Datatype *datatype)
{
    compi_datatype_t *dt;
    int rc;

    COMPI_CHECK_INIT("MPI_Type_commit");
    if (datatype == NULL) {
        return dt__null_arg("MPI_Type_commit", "datatype");
    }
    if ((rc = dt__lookup(*datatype, "MPI_Type_commit", &dt)) != MPI_SUCCESS) {
        return rc;
    }
    dt->committed = 1;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_free = PMPI_Type_free
int PMPI_Type_free(MPI_Datatype *datatype)
{
    static const char fn[] = "MPI_Type_free";
    compi_datatype_t *dt;
    int rc;

    COMPI_CHECK_INIT(fn);
    if (datatype == NULL) {
        return dt__null_arg(fn, "datatype");
    }
    if ((rc = dt__lookup(*datatype, fn, &dt)) != MPI_SUCCESS) {
        return rc;
    }
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

/* ---- queries --------------------------------------------------------------------- */

/* the datatype behind `h` for a query with one or two out-pointers */
static int dt__query(MPI_Datatype h, const char *fn, const void *p1, const void *p2,
                     compi_datatype_t **dt_p)
{
    *dt_p = NULL;
    if (compi_mpi_state != COMPI_STATE_INITIALIZED) {
        return mpi_err_not_initialized(fn);
    }
    if (p1 == NULL || p2 == NULL) {
        return dt__null_arg(fn, "an output argument");
    }
    return dt__lookup(h, fn, dt_p);
}

#pragma weak MPI_Type_size = PMPI_Type_size
int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    compi_datatype_t *dt;
    int rc = dt__query(datatype, "MPI_Type_size", size, size, &dt);

    if (rc == MPI_SUCCESS) {
        *size = dt->size > INT_MAX ? MPI_UNDEFINED : (int)dt->size;
    }
    return rc;
}

#pragma weak MPI_Type_size_x = PMPI_Type_size_x
int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    compi_datatype_t *dt;
    int rc = dt__query(datatype, "MPI_Type_size_x", size, size, &dt);

    if (rc == MPI_SUCCESS) {
        *size = (MPI_Count)dt->size;
    }
    return rc;
}

#pragma weak MPI_Type_get_extent = PMPI_Type_get_extent
int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    compi_datatype_t *dt;
    int rc = dt__query(datatype, "MPI_Type_get_extent", lb, extent, &dt);

    if (rc == MPI_SUCCESS) {
        *lb = dt->lb;
        *extent = dt->extent;
    }
    return rc;
}

#pragma weak MPI_Type_get_extent_x = PMPI_Type_get_extent_x
int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    compi_datatype_t *dt;
    int rc = dt__query(datatype, "MPI_Type_get_extent_x", lb, extent, &dt);

    if (rc == MPI_SUCCESS) {
        *lb = dt->lb;
        *extent = dt->extent;
    }
    return rc;
}

#pragma weak MPI_Type_get_true_extent = PMPI_Type_get_true_extent
int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    compi_datatype_t *dt;
    int rc = dt__query(datatype, "MPI_Type_get_true_extent", true_lb, true_extent, &dt);

    if (rc == MPI_SUCCESS) {
        *true_lb = dt->true_lb;
        *true_extent = dt->true_extent;
    }
    return rc;
}

#pragma weak MPI_Type_get_true_extent_x = PMPI_Type_get_true_extent_x
int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    compi_datatype_t *dt;
    int rc = dt__query(datatype, "MPI_Type_get_true_extent_x", true_lb, true_extent, &dt);

    if (rc == MPI_SUCCESS) {
        *true_lb = dt->true_lb;
        *true_extent = dt->true_extent;
    }
    return rc;
}

#pragma weak MPI_Type_extent = PMPI_Type_extent
int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    compi_datatype_t *dt;
    int rc = dt__query(datatype, "MPI_Type_extent", extent, extent, &dt);

    if (rc == MPI_SUCCESS) {
        *extent = dt->extent;
    }
    return rc;
}

#pragma weak MPI_Type_lb = PMPI_Type_lb
int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    compi_datatype_t *dt;
    int rc = dt__query(datatype, "MPI_Type_lb", displacement, displacement, &dt);

    if (rc == MPI_SUCCESS) {
        *displacement = dt->lb;
    }
    return rc;
}

#pragma weak MPI_Type_ub = PMPI_Type_ub
int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    compi_datatype_t *dt;
    int rc = dt__query(datatype, "MPI_Type_ub", displacement, displacement, &dt);

    if (rc == MPI_SUCCESS) {
        *displacement = dt->lb + dt->extent;
    }
    return rc;
}

#pragma weak MPI_Type_get_envelope = PMPI_Type_get_envelope
int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner)
{
    compi_datatype_t *dt;
    int rc = dt__query(datatype, "MPI_Type_get_envelope", num_integers, num_addresses, &dt);

    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (num_datatypes == NULL || combiner == NULL) {
        return dt__null_arg("MPI_Type_get_envelope", "an output argument");
    }
    *num_integers = dt->n_ints;
    *num_addresses = dt->n_addrs;
    *num_datatypes = dt->n_types;
    *combiner = dt->combiner;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_get_contents = PMPI_Type_get_contents
int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    static const char fn[] = "MPI_Type_get_contents";
    compi_datatype_t *dt;
    int rc;

    COMPI_CHECK_INIT(fn);
    if ((rc = dt__lookup(datatype, fn, &dt)) != MPI_SUCCESS) {
        return rc;
    }
    if (dt->combiner == MPI_COMBINER_NAMED) {
        return mpi_err_raise(NULL, MPI_ERR_TYPE, fn, "%s is a named type: it has no contents",
                             dt_name(dt));
    }
    if (max_integers < dt->n_ints || max_addresses < dt->n_addrs || max_datatypes < dt->n_types) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn,
                             "room for %d/%d/%d integers/addresses/datatypes, %d/%d/%d needed",
                             max_integers, max_addresses, max_datatypes, dt->n_ints, dt->n_addrs,
                             dt->n_types);
    }
    if ((dt->n_ints > 0 && array_of_integers == NULL) ||
        (dt->n_addrs > 0 && array_of_addresses == NULL) ||
        (dt->n_types > 0 && array_of_datatypes == NULL)) {
        return dt__null_arg(fn, "an output array");
    }
    /* derived constituents come back as new types the caller frees (MPI-3.1 4.1.13) */
    for (int i = 0; i < dt->n_types; i++) {
        compi_datatype_t *t = dt->env_types[i], *copy;
        compi_status_t st;

        if (t->predefined) {
            array_of_datatypes[i] = t->handle;
            continue;
        }
        st = dt_clone(t, &copy);
        if (st != COMPI_OK) {
            while (i-- > 0) {
                compi_datatype_t *made = dt_from_handle(array_of_datatypes[i]);
                if (made != NULL && !made->predefined) {
                    dt_forget_handle(made);
                    dt_release(made);
                }
            }
            return mpi_err_raise(NULL, mpi_err_class_of(st), fn, "cannot copy a constituent: %s",
                                 compi_status_string(st));
        }
        array_of_datatypes[i] = copy->handle;
    }
    if (dt->n_ints > 0) {
        memcpy(array_of_integers, dt->env_ints, (size_t)dt->n_ints * sizeof(int));
    }
    if (dt->n_addrs > 0) {
        memcpy(array_of_addresses, dt->env_addrs, (size_t)dt->n_addrs * sizeof(MPI_Aint));
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_set_name = PMPI_Type_set_name
int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    compi_datatype_t *dt;
    int rc = dt__query(datatype, "MPI_Type_set_name", type_name, type_name, &dt);

    if (rc == MPI_SUCCESS) {
        /* longer names are cut, as the standard allows */
        snprintf(dt->name, sizeof(dt->name), "%s", type_name);
    }
    return rc;
}

#pragma weak MPI_Type_get_name = PMPI_Type_get_name
int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    compi_datatype_t *dt;
    int rc = dt__query(datatype, "MPI_Type_get_name", type_name, resultlen, &dt);

    if (rc == MPI_SUCCESS) {
        snprintf(type_name, MPI_MAX_OBJECT_NAME, "%s", dt->name);
        *resultlen = (int)strlen(type_name);
    }
    return rc;
}

#pragma weak MPI_Type_match_size = PMPI_Type_match_size
int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    static const struct {
        int tclass, size;
        MPI_Datatype dt;
    } match[] = {
        /* the sized Fortran types where they exist, as the standard intends (the
           arguments come from Fortran's kind queries), then the C types */
        {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1},
        {MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2},
        {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4},
        {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},
        {MPI_TYPECLASS_REAL, 4, MPI_REAL4},
        {MPI_TYPECLASS_REAL, 8, MPI_REAL8},
        {MPI_TYPECLASS_REAL, sizeof(long double), MPI_LONG_DOUBLE},
        {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8},
        {MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16},
        {MPI_TYPECLASS_COMPLEX, 2 * sizeof(long double), MPI_C_LONG_DOUBLE_COMPLEX},
    };

    COMPI_CHECK_INIT("MPI_Type_match_size");
    if (datatype == NULL) {
        return dt__null_arg("MPI_Type_match_size", "datatype");
    }
    for (size_t i = 0; i < COMPI_ARRAY_SIZE(match); i++) {
        if (match[i].tclass == typeclass && match[i].size == size) {
            *datatype = match[i].dt;
            return MPI_SUCCESS;
        }
    }
    return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Type_match_size",
                         "no datatype of class %d and size %d", typeclass, size);
}

/* ---- Fortran 90 parameterised types ---------------------------------------------- */

/*
 * gfortran's kinds on x86-64: INTEGER(1,2,4,8) hold 2, 4, 9 and 18 decimal digits; REAL(4)
 * has precision 6 and range 37, REAL(8) 15 and 307, REAL(10) (the x87 long double) 18
 * and 4931.  REAL(16) (software quad) has no C type here, so larger requests fail.
 */
static int dt__f90(const char *fn, int combiner, int p, int r, MPI_Datatype *newtype)
{
    static const struct {
        int p, r;
        MPI_Datatype real, cplx;
    } reals[] = {
        {6, 37, MPI_REAL4, MPI_COMPLEX8},
        {15, 307, MPI_REAL8, MPI_COMPLEX16},
        {18, 4931, MPI_LONG_DOUBLE, MPI_C_LONG_DOUBLE_COMPLEX},
    };
    static const struct {
        int r;
        MPI_Datatype t;
    } ints[] = {{2, MPI_INTEGER1}, {4, MPI_INTEGER2}, {9, MPI_INTEGER4}, {18, MPI_INTEGER8}};
    MPI_Datatype base = MPI_DATATYPE_NULL;
    int args[2] = {p, r}, n = 2;
    compi_datatype_t *dt;
    compi_status_t st;

    COMPI_CHECK_INIT(fn);
    if (newtype == NULL) {
        return dt__null_arg(fn, "newtype");
    }
    if (combiner == MPI_COMBINER_F90_INTEGER) {
        args[0] = r;
        n = 1;
        for (size_t i = 0; i < COMPI_ARRAY_SIZE(ints) && base == MPI_DATATYPE_NULL; i++) {
            if (r <= ints[i].r) {
                base = ints[i].t;
            }
        }
    } else if (p != MPI_UNDEFINED || r != MPI_UNDEFINED) {
        int pp = p == MPI_UNDEFINED ? 0 : p, rr = r == MPI_UNDEFINED ? 0 : r;
        for (size_t i = 0; i < COMPI_ARRAY_SIZE(reals) && base == MPI_DATATYPE_NULL; i++) {
            if (pp <= reals[i].p && rr <= reals[i].r) {
                base = combiner == MPI_COMBINER_F90_REAL ? reals[i].real : reals[i].cplx;
            }
        }
    }
    if (base == MPI_DATATYPE_NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "no Fortran kind has precision %d and range %d",
                             p, r);
    }
    st = dt_f90_type(combiner, n, args, dt_from_handle(base), &dt);
    if (st != COMPI_OK) {
        return mpi_err_raise(NULL, mpi_err_class_of(st), fn, "cannot make the type: %s",
                             compi_status_string(st));
    }
    *newtype = dt->handle;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_create_f90_real = PMPI_Type_create_f90_real
int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    return dt__f90("MPI_Type_create_f90_real", MPI_COMBINER_F90_REAL, p, r, newtype);
}

#pragma weak MPI_Type_create_f90_complex = PMPI_Type_create_f90_complex
int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    return dt__f90("MPI_Type_create_f90_complex", MPI_COMBINER_F90_COMPLEX, p, r, newtype);
}

#pragma weak MPI_Type_create_f90_integer = PMPI_Type_create_f90_integer
int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    return dt__f90("MPI_Type_create_f90_integer", MPI_COMBINER_F90_INTEGER, 0, r, newtype);
}

/* ---- addresses and handle conversion --------------------------------------------- */

#pragma weak MPI_Get_address = PMPI_Get_address
int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    COMPI_CHECK_INIT("MPI_Get_address");
    if (address == NULL) {
        return dt__null_arg("MPI_Get_address", "address");
    }
    *address = (MPI_Aint)location;
    return MPI_SUCCESS;
}

#pragma weak MPI_Address = PMPI_Address
int PMPI_Address(void *location, MPI_Aint *address)
{
    return PMPI_Get_address(location, address);
}

/* address arithmetic needs no library state: callable at any time */
#pragma weak MPI_Aint_add = PMPI_Aint_add
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}

#pragma weak MPI_Aint_diff = PMPI_Aint_diff
MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}
