/*
 * bigcount.h -- what the large-count (_c) functions of bigcount_api.c share: MPI_Count
 * and MPI_Aint values turned into the ints their int functions take, one at a time or as
 * arrays, with MPI_ERR_COUNT for a count beyond int and MPI_ERR_ARG for a displacement
 * beyond int, and the weak MPI_ name of a PMPI_ function.  (The collectives carry
 * MPI_Count themselves: core/mpi/coll_impl.h.)
 *
 * Ownership: bc_ints_* allocate the int arrays into a bc_arrays_t; bc_arrays_free gives
 * them back after the int function returned.
 */
#ifndef COMPI_MPI_BIGCOUNT_H
#define COMPI_MPI_BIGCOUNT_H

#include "core/comm/comm.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#define BC_STR(s) #s
/* #pragma weak MPI_x = PMPI_x */
#define BC_WEAK(x) _Pragma(BC_STR(weak MPI_##x = PMPI_##x))

static inline int bc_count(MPI_Count v, MPI_Comm comm, const char *fn, const char *what,
                           int *out)
{
    *out = 0;
    if (compi_unlikely(v > INT_MAX || v < INT_MIN)) {
        return mpi_err_raise(comm != MPI_COMM_NULL ? comm_from_handle(comm) : NULL,
                             MPI_ERR_COUNT, fn,
                             "%s=%lld is beyond the int counts compi carries (at most %d)",
                             what, (long long)v, INT_MAX);
    }
    *out = (int)v;
    return MPI_SUCCESS;
}

/* one count argument `v` of the function MPI_<x>_c into the int `n` */
#define BC_COUNT(v, n, comm, x)                                                               \
    do {                                                                                      \
        int bc_rc_ = bc_count((v), (comm), "MPI_" #x "_c", #v, &(n));                          \
        if (compi_unlikely(bc_rc_ != MPI_SUCCESS))                                            \
            return bc_rc_;                                                                    \
    } while (0)

/* up to four int arrays made for one call */
typedef struct bc_arrays {
    int *a[4];
    int n;
} bc_arrays_t;

static inline void bc_arrays_free(bc_arrays_t *arr)
{
    for (int i = 0; i < arr->n; i++) {
        free(arr->a[i]);
    }
    arr->n = 0;
}

/* `len` values of `v` (MPI_Count or MPI_Aint, by `disp`) as ints in *out; NULL stays NULL */
static inline int bc_ints(bc_arrays_t *arr, const void *v, int disp, int len, MPI_Comm comm,
                          const char *fn, const char *what, int **out)
{
    *out = NULL;
    if (v == NULL || len <= 0) {
        /* the int function checks a NULL array where one is needed */
        *out = v == NULL ? NULL : (int *)(arr->a[arr->n++] = calloc(1, sizeof(int)));
        return MPI_SUCCESS;
    }
    int *a = malloc((size_t)len * sizeof(int));
    if (a == NULL) {
        return mpi_err_raise(comm_from_handle(comm), MPI_ERR_NO_MEM, fn, "out of memory");
    }
    arr->a[arr->n++] = a;
    for (int i = 0; i < len; i++) {
        long long x = disp ? (long long)((const MPI_Aint *)v)[i] : ((const MPI_Count *)v)[i];
        if (compi_unlikely(x > INT_MAX || x < INT_MIN)) {
            return mpi_err_raise(comm_from_handle(comm), disp ? MPI_ERR_ARG : MPI_ERR_COUNT, fn,
                                 "%s[%d]=%lld is beyond the int %s compi carries (at most %d)",
                                 what, i, x, disp ? "displacements" : "counts", INT_MAX);
        }
        a[i] = (int)x;
    }
    *out = a;
    return MPI_SUCCESS;
}

#endif
