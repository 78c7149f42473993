/*
 * dt_api.c -- the MPI datatype API: constructors, commit/free/dup and address
 * arithmetic.  Queries are in dt_query_api.c, packing in pack_api.c.
 *
 * Argument checks live here and nowhere below: the engine (core/dt) trusts its callers.
 * Counts in elements of the old type become bytes here (vector strides, indexed
 * displacements), so the engine sees only byte displacements.  The envelope that
 * MPI_Type_get_envelope reports is recorded here, where the original arguments are.
 */
#include "core/comm/attr.h"
#include "core/dt/dt.h"
#include "core/mpi/dt_args.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

#include <stdlib.h>
#include <string.h>

/* ---- helpers --------------------------------------------------------------------- */

/* checks an int array of blocklengths (all >= 0) */
static int dt__check_blocklens(const char *fn, int count, const int *bl)
{
    if (count > 0 && bl == NULL) {
        return mpi_dt_null(fn, "array_of_blocklengths");
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

    COMPI_CHECK_INIT_HELD(fn);
    if (count < 0) {
        return mpi_dt_neg_count(fn, count);
    }
    if ((rc = mpi_dt_lookup(oldtype, fn, &old)) != MPI_SUCCESS) {
        return rc;
    }
    if (newtype == NULL) {
        return mpi_dt_null(fn, "newtype");
    }
    if (bl_same && bl[0] < 0) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "blocklength=%d is negative", bl[0]);
    }
    if (!bl_same && (rc = dt__check_blocklens(fn, count, bl)) != MPI_SUCCESS) {
        return rc;
    }
    if (count > 0 && idisps == NULL && adisps == NULL) {
        return mpi_dt_null(fn, "array_of_displacements");
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
        return mpi_dt_neg_count(fn, count);
    }
    if ((rc = mpi_dt_lookup(oldtype, fn, &old)) != MPI_SUCCESS) {
        return rc;
    }
    if (newtype == NULL) {
        return mpi_dt_null(fn, "newtype");
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

    COMPI_CHECK_INIT_HELD(fn);
    if (count < 0) {
        return mpi_dt_neg_count(fn, count);
    }
    if (blocklength < 0) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "blocklength=%d is negative", blocklength);
    }
    if ((rc = mpi_dt_lookup(oldtype, fn, &old)) != MPI_SUCCESS) {
        return rc;
    }
    if (newtype == NULL) {
        return mpi_dt_null(fn, "newtype");
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
    COMPI_API_LOCK();
    return dt__hvector("MPI_Type_vector", count, blocklength, 0, &stride, oldtype, newtype);
}

#pragma weak MPI_Type_create_hvector = PMPI_Type_create_hvector
int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    COMPI_API_LOCK();
    return dt__hvector("MPI_Type_create_hvector", count, blocklength, stride, NULL, oldtype,
                       newtype);
}

#pragma weak MPI_Type_hvector = PMPI_Type_hvector
int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    COMPI_API_LOCK();
    return dt__hvector("MPI_Type_hvector", count, blocklength, stride, NULL, oldtype, newtype);
}

#pragma weak MPI_Type_indexed = PMPI_Type_indexed
int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    COMPI_API_LOCK();
    return dt__indexed("MPI_Type_indexed", MPI_COMBINER_INDEXED, count, array_of_blocklengths, 0,
                       array_of_displacements, NULL, oldtype, newtype);
}

#pragma weak MPI_Type_create_hindexed = PMPI_Type_create_hindexed
int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    COMPI_API_LOCK();
    return dt__indexed("MPI_Type_create_hindexed", MPI_COMBINER_HINDEXED, count,
                       array_of_blocklengths, 0, NULL, array_of_displacements, oldtype, newtype);
}

/* the MPI-1 name, kept for old codes like MPI_Type_hvector and MPI_Type_struct */
#pragma weak MPI_Type_hindexed = PMPI_Type_hindexed
int PMPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    COMPI_API_LOCK();
    return dt__indexed("MPI_Type_hindexed", MPI_COMBINER_HINDEXED, count, array_of_blocklengths, 0,
                       NULL, array_of_displacements, oldtype, newtype);
}

#pragma weak MPI_Type_create_indexed_block = PMPI_Type_create_indexed_block
int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    COMPI_API_LOCK();
    return dt__indexed("MPI_Type_create_indexed_block", MPI_COMBINER_INDEXED_BLOCK, count,
                       &blocklength, 1, array_of_displacements, NULL, oldtype, newtype);
}

#pragma weak MPI_Type_create_hindexed_block = PMPI_Type_create_hindexed_block
int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                    MPI_Datatype *newtype)
{
    COMPI_API_LOCK();
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
        return mpi_dt_neg_count(fn, count);
    }
    if ((rc = dt__check_blocklens(fn, count, array_of_blocklengths)) != MPI_SUCCESS) {
        return rc;
    }
    if (count > 0 && (array_of_displacements == NULL || array_of_types == NULL)) {
        return mpi_dt_null(fn, "array_of_displacements or array_of_types");
    }
    if (newtype == NULL) {
        return mpi_dt_null(fn, "newtype");
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
    COMPI_API_LOCK();
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
        return mpi_dt_null(fn, "an array argument");
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
    if ((rc = mpi_dt_lookup(oldtype, fn, &old)) != MPI_SUCCESS) {
        return rc;
    }
    if (newtype == NULL) {
        return mpi_dt_null(fn, "newtype");
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
        return mpi_dt_null(fn, "an array argument");
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
    if ((rc = mpi_dt_lookup(oldtype, fn, &old)) != MPI_SUCCESS) {
        return rc;
    }
    if (newtype == NULL) {
        return mpi_dt_null(fn, "newtype");
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
    if ((rc = mpi_dt_lookup(oldtype, fn, &old)) != MPI_SUCCESS) {
        return rc;
    }
    if (newtype == NULL) {
        return mpi_dt_null(fn, "newtype");
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
    if ((rc = mpi_dt_lookup(oldtype, fn, &old)) != MPI_SUCCESS) {
        return rc;
    }
    if (newtype == NULL) {
        return mpi_dt_null(fn, "newtype");
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
        return mpi_dt_null("MPI_Type_commit", "datatype");
    }
    if ((rc = mpi_dt_lookup(*datatype, "MPI_Type_commit", &dt)) != MPI_SUCCESS) {
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
        return mpi_dt_null(fn, "datatype");
    }
    if ((rc = mpi_dt_lookup(*datatype, fn, &dt)) != MPI_SUCCESS) {
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

/* ---- addresses and handle conversion --------------------------------------------- */

#pragma weak MPI_Get_address = PMPI_Get_address
int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    COMPI_CHECK_INIT("MPI_Get_address");
    if (address == NULL) {
        return mpi_dt_null("MPI_Get_address", "address");
    }
    *address = (MPI_Aint)location;
    return MPI_SUCCESS;
}

#pragma weak MPI_Address = PMPI_Address
int PMPI_Address(void *location, MPI_Aint *address)
{
    COMPI_API_LOCK();
    return PMPI_Get_address(location, address);
}

/* address arithmetic needs no library state: callable at any time */
#pragma weak MPI_Aint_add = PMPI_Aint_add
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    COMPI_API_LOCK();
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}

#pragma weak MPI_Aint_diff = PMPI_Aint_diff
MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    COMPI_API_LOCK();
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}
