/*
 * bigcount_api.c -- the MPI-4 large-count (_c) functions of packing, datatypes and
 * operations.
 *
 * Point-to-point, the attached buffer, the statuses and the collectives with scalar
 * counts carry an MPI_Count down to the PML and the collectives: their _c functions are
 * generated beside their int ones (core/mpi/gen/) or sit beside them (coll_api.c, ...)
 * and share their implementation.  The functions here keep int counts inside (the
 * datatype constructors, packing), so each turns its MPI_Count arguments into ints and
 * calls its int function: a count beyond int is MPI_ERR_COUNT, never truncated.  Sizes
 * and extents are 64-bit inside, so the queries (MPI_Type_size_c, MPI_Get_count_c, ...)
 * answer beyond INT_MAX.  An error found by the int function names it (MPI_Pack), one
 * found here names the _c function.
 */
#include "core/dt/dt.h"
#include "core/mpi/bigcount.h"
#include "core/mpi/status_word.h"
#include "core/op/op.h"

/* ---- packing ------------------------------------------------------------------------ */

/* the external32 calls take MPI_Aint sizes and positions already: only the element
   counts are narrowed */
BC_WEAK(Pack_external_c)
int PMPI_Pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount,
                         MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                         MPI_Count *position)
{
    int n;
    COMPI_CHECK_INIT("MPI_Pack_external_c");
    BC_COUNT(incount, n, MPI_COMM_NULL, Pack_external);
    MPI_Aint pos = position != NULL ? (MPI_Aint)*position : 0;
    int rc = PMPI_Pack_external(datarep, inbuf, n, datatype, outbuf, (MPI_Aint)outsize,
                                position != NULL ? &pos : NULL);
    if (rc == MPI_SUCCESS) {
        *position = pos;
    }
    return rc;
}

BC_WEAK(Unpack_external_c)
int PMPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize,
                           MPI_Count *position, void *outbuf, MPI_Count outcount,
                           MPI_Datatype datatype)
{
    int n;
    COMPI_CHECK_INIT("MPI_Unpack_external_c");
    BC_COUNT(outcount, n, MPI_COMM_NULL, Unpack_external);
    MPI_Aint pos = position != NULL ? (MPI_Aint)*position : 0;
    int rc = PMPI_Unpack_external(datarep, inbuf, (MPI_Aint)insize,
                                  position != NULL ? &pos : NULL, outbuf, n, datatype);
    if (rc == MPI_SUCCESS) {
        *position = pos;
    }
    return rc;
}

BC_WEAK(Pack_external_size_c)
int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype datatype,
                              MPI_Count *size)
{
    int n;
    MPI_Aint sz = 0;
    COMPI_CHECK_INIT("MPI_Pack_external_size_c");
    BC_COUNT(incount, n, MPI_COMM_NULL, Pack_external_size);
    int rc = PMPI_Pack_external_size(datarep, n, datatype, size != NULL ? &sz : NULL);
    if (rc == MPI_SUCCESS) {
        *size = sz;
    }
    return rc;
}

/* ---- datatypes ---------------------------------------------------------------------- */

/* COUNT (beyond int) copies of OLDTYPE, made of what int counts can say, as MPI-3.1
   programs do it themselves: a vector of COUNT / INT_MAX blocks of INT_MAX, and the
   remainder as a contiguous type after it, joined in a struct (its envelope says so:
   combiner MPI_COMBINER_STRUCT over a vector and a contiguous). */
static int contiguous_beyond_int(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    MPI_Aint lb, extent;
    MPI_Datatype parts[2] = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL};
    int q = (int)(count / INT_MAX), r = (int)(count % INT_MAX);
    int rc = PMPI_Type_get_extent(oldtype, &lb, &extent);

    if (rc == MPI_SUCCESS) {
        rc = PMPI_Type_vector(q, INT_MAX, INT_MAX, oldtype, &parts[0]);
    }
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Type_contiguous(r, oldtype, &parts[1]);
    }
    if (rc == MPI_SUCCESS) {
        int lens[2] = {1, 1};
        MPI_Aint displs[2] = {0, (MPI_Aint)q * INT_MAX * extent};
        rc = PMPI_Type_create_struct(2, lens, displs, parts, newtype);
    }
    for (int i = 0; i < 2; i++) {
        if (parts[i] != MPI_DATATYPE_NULL) {
            PMPI_Type_free(&parts[i]);
        }
    }
    return rc;
}

BC_WEAK(Type_contiguous_c)
int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int n;
    COMPI_CHECK_INIT("MPI_Type_contiguous_c");
    if (count > INT_MAX && count / INT_MAX <= INT_MAX && newtype != NULL) {
        return contiguous_beyond_int(count, oldtype, newtype);
    }
    BC_COUNT(count, n, MPI_COMM_NULL, Type_contiguous);
    return PMPI_Type_contiguous(n, oldtype, newtype);
}

BC_WEAK(Type_vector_c)
int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int n, b, s;
    COMPI_CHECK_INIT("MPI_Type_vector_c");
    BC_COUNT(count, n, MPI_COMM_NULL, Type_vector);
    BC_COUNT(blocklength, b, MPI_COMM_NULL, Type_vector);
    BC_COUNT(stride, s, MPI_COMM_NULL, Type_vector);
    return PMPI_Type_vector(n, b, s, oldtype, newtype);
}

BC_WEAK(Type_create_hvector_c)
int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                               MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int n, b;
    COMPI_CHECK_INIT("MPI_Type_create_hvector_c");
    BC_COUNT(count, n, MPI_COMM_NULL, Type_create_hvector);
    BC_COUNT(blocklength, b, MPI_COMM_NULL, Type_create_hvector);
    return PMPI_Type_create_hvector(n, b, (MPI_Aint)stride, oldtype, newtype);
}

/* an array of `n` byte displacements as MPI_Aint (the same width: nothing is lost) */
static MPI_Aint *bc_aints(const MPI_Count *v, int n)
{
    MPI_Aint *a = malloc((size_t)(n > 0 ? n : 1) * sizeof(*a));
    for (int i = 0; a != NULL && v != NULL && i < n; i++) {
        a[i] = (MPI_Aint)v[i];
    }
    return a;
}

#define BC_NOMEM(fn) mpi_err_raise(NULL, MPI_ERR_NO_MEM, fn, "out of memory")

BC_WEAK(Type_indexed_c)
int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                        MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_indexed_c";
    bc_arrays_t arr = {.n = 0};
    int n, *bl, *dp;
    COMPI_CHECK_INIT(fn);
    BC_COUNT(count, n, MPI_COMM_NULL, Type_indexed);
    int rc = bc_ints(&arr, array_of_blocklengths, 0, n, MPI_COMM_NULL, fn,
                     "array_of_blocklengths", &bl);
    if (rc == MPI_SUCCESS) {
        rc = bc_ints(&arr, array_of_displacements, 0, n, MPI_COMM_NULL, fn,
                     "array_of_displacements", &dp);
    }
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Type_indexed(n, bl, dp, oldtype, newtype);
    }
    bc_arrays_free(&arr);
    return rc;
}

BC_WEAK(Type_create_hindexed_c)
int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_hindexed_c";
    bc_arrays_t arr = {.n = 0};
    int n, *bl;
    COMPI_CHECK_INIT(fn);
    BC_COUNT(count, n, MPI_COMM_NULL, Type_create_hindexed);
    int rc = bc_ints(&arr, array_of_blocklengths, 0, n, MPI_COMM_NULL, fn,
                     "array_of_blocklengths", &bl);
    MPI_Aint *dp = NULL;
    if (rc == MPI_SUCCESS && (dp = bc_aints(array_of_displacements, n)) == NULL) {
        rc = BC_NOMEM(fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Type_create_hindexed(n, bl, array_of_displacements ? dp : NULL, oldtype, newtype);
    }
    free(dp);
    bc_arrays_free(&arr);
    return rc;
}

BC_WEAK(Type_create_indexed_block_c)
int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[],
                                     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_indexed_block_c";
    bc_arrays_t arr = {.n = 0};
    int n, b, *dp;
    COMPI_CHECK_INIT(fn);
    BC_COUNT(count, n, MPI_COMM_NULL, Type_create_indexed_block);
    BC_COUNT(blocklength, b, MPI_COMM_NULL, Type_create_indexed_block);
    int rc = bc_ints(&arr, array_of_displacements, 0, n, MPI_COMM_NULL, fn,
                     "array_of_displacements", &dp);
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Type_create_indexed_block(n, b, dp, oldtype, newtype);
    }
    bc_arrays_free(&arr);
    return rc;
}

BC_WEAK(Type_create_hindexed_block_c)
int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count array_of_displacements[],
                                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_hindexed_block_c";
    int n, b, rc = MPI_SUCCESS;
    COMPI_CHECK_INIT(fn);
    BC_COUNT(count, n, MPI_COMM_NULL, Type_create_hindexed_block);
    BC_COUNT(blocklength, b, MPI_COMM_NULL, Type_create_hindexed_block);
    MPI_Aint *dp = bc_aints(array_of_displacements, n);
    if (dp == NULL) {
        return BC_NOMEM(fn);
    }
    rc = PMPI_Type_create_hindexed_block(n, b, array_of_displacements ? dp : NULL, oldtype,
                                         newtype);
    free(dp);
    return rc;
}

BC_WEAK(Type_create_struct_c)
int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[],
                              const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_struct_c";
    bc_arrays_t arr = {.n = 0};
    int n, *bl;
    COMPI_CHECK_INIT(fn);
    BC_COUNT(count, n, MPI_COMM_NULL, Type_create_struct);
    int rc = bc_ints(&arr, array_of_blocklengths, 0, n, MPI_COMM_NULL, fn,
                     "array_of_blocklengths", &bl);
    MPI_Aint *dp = NULL;
    if (rc == MPI_SUCCESS && (dp = bc_aints(array_of_displacements, n)) == NULL) {
        rc = BC_NOMEM(fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Type_create_struct(n, bl, array_of_displacements ? dp : NULL, array_of_types,
                                     newtype);
    }
    free(dp);
    bc_arrays_free(&arr);
    return rc;
}

BC_WEAK(Type_create_subarray_c)
int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                const MPI_Count array_of_subsizes[],
                                const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype,
                                MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_subarray_c";
    bc_arrays_t arr = {.n = 0};
    int *sz, *sub, *st;
    COMPI_CHECK_INIT(fn);
    int rc = bc_ints(&arr, array_of_sizes, 0, ndims, MPI_COMM_NULL, fn, "array_of_sizes", &sz);
    if (rc == MPI_SUCCESS) {
        rc = bc_ints(&arr, array_of_subsizes, 0, ndims, MPI_COMM_NULL, fn, "array_of_subsizes",
                     &sub);
    }
    if (rc == MPI_SUCCESS) {
        rc = bc_ints(&arr, array_of_starts, 0, ndims, MPI_COMM_NULL, fn, "array_of_starts", &st);
    }
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Type_create_subarray(ndims, sz, sub, st, order, oldtype, newtype);
    }
    bc_arrays_free(&arr);
    return rc;
}

BC_WEAK(Type_create_darray_c)
int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[], const int array_of_dargs[],
                              const int array_of_psizes[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_darray_c";
    bc_arrays_t arr = {.n = 0};
    int *gs;
    COMPI_CHECK_INIT(fn);
    int rc = bc_ints(&arr, array_of_gsizes, 0, ndims, MPI_COMM_NULL, fn, "array_of_gsizes", &gs);
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Type_create_darray(size, rank, ndims, gs, array_of_distribs, array_of_dargs,
                                     array_of_psizes, order, oldtype, newtype);
    }
    bc_arrays_free(&arr);
    return rc;
}

BC_WEAK(Type_create_resized_c)
int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                               MPI_Datatype *newtype)
{
    COMPI_API_LOCK();
    return PMPI_Type_create_resized(oldtype, (MPI_Aint)lb, (MPI_Aint)extent, newtype);
}

BC_WEAK(Type_size_c)
int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
    COMPI_API_LOCK();
    return PMPI_Type_size_x(datatype, size);
}

BC_WEAK(Type_get_extent_c)
int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    COMPI_API_LOCK();
    return PMPI_Type_get_extent_x(datatype, lb, extent);
}

BC_WEAK(Type_get_true_extent_c)
int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    COMPI_API_LOCK();
    return PMPI_Type_get_true_extent_x(datatype, true_lb, true_extent);
}

/* Every datatype records int counts, so its large counts are none: the _c envelope and
   contents are those of the int calls, with num_large_counts 0. */
BC_WEAK(Type_get_envelope_c)
int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers,
                             MPI_Count *num_addresses, MPI_Count *num_large_counts,
                             MPI_Count *num_datatypes, int *combiner)
{
    COMPI_API_LOCK();
    int ni = 0, na = 0, nd = 0;
    if (num_large_counts == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Type_get_envelope_c",
                             "num_large_counts is NULL");
    }
    int rc = PMPI_Type_get_envelope(datatype, num_integers ? &ni : NULL,
                                    num_addresses ? &na : NULL, num_datatypes ? &nd : NULL,
                                    combiner);
    if (rc == MPI_SUCCESS) {
        *num_integers = ni;
        *num_addresses = na;
        *num_large_counts = 0;
        *num_datatypes = nd;
    }
    return rc;
}

BC_WEAK(Type_get_contents_c)
int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers,
                             MPI_Count max_addresses, MPI_Count max_large_counts,
                             MPI_Count max_datatypes, int array_of_integers[],
                             MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                             MPI_Datatype array_of_datatypes[])
{
    COMPI_API_LOCK();
    (void)array_of_large_counts;
    if (max_large_counts < 0) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Type_get_contents_c",
                             "max_large_counts=%lld is negative", (long long)max_large_counts);
    }
    /* a maximum beyond int is as good as INT_MAX: no datatype records more */
    int mi = max_integers > INT_MAX ? INT_MAX : (int)max_integers;
    int ma = max_addresses > INT_MAX ? INT_MAX : (int)max_addresses;
    int md = max_datatypes > INT_MAX ? INT_MAX : (int)max_datatypes;
    return PMPI_Type_get_contents(datatype, mi, ma, md, array_of_integers, array_of_addresses,
                                  array_of_datatypes);
}
