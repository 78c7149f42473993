/*
 * dt_darray.c -- the array constructors: subarrays and distributed arrays (MPI-3.1
 * section 4.1.3 and 4.1.4), built from the other constructors.
 *
 * Both lay out one dimension at a time, from the fastest-varying one (the last in C
 * order, the first in Fortran order) outwards, each level spaced by the byte size of a
 * whole row of the level below (a subarray through hvector strides, a darray by resizing
 * each level to its full dimension).  The result has lb 0 and the extent of the whole
 * global array, as the standard defines.
 */
#include "core/dt/dt.h"
#include "core/dt/dt_internal.h"

#include <stdlib.h>

/*
 * A subarray is built from the fastest-varying dimension outwards: `subsizes[d]` copies
 * of the previous level, `stride` (the byte size of one full row of that level) apart;
 * then shifted by the starts and resized to the whole array, lb 0.
 */
compi_status_t dt_create_subarray(int ndims, const size_t *sizes, const size_t *subsizes,
                                  const size_t *starts, int order, compi_datatype_t *old,
                                  compi_datatype_t **new_p)
{
    compi_datatype_t *cur = NULL, *next = NULL;
    ptrdiff_t stride = old->extent, disp = 0;
    size_t one = 1;
    compi_status_t st;

    if (ndims <= 0) {
        return COMPI_ERR_INVALID_PARAM;
    }
    for (int j = 0; j < ndims; j++) {
        int d = order == MPI_ORDER_C ? ndims - 1 - j : j;
        if (j == 0) {
            st = dt_create_contiguous(subsizes[d], old, &next);
        } else {
            st = dt_create_hvector(subsizes[d], 1, stride, cur, &next);
        }
        if (st != COMPI_OK) {
            goto err;
        }
        if (cur != NULL) {
            dt_release(cur);
        }
        cur = next;
        disp += (ptrdiff_t)starts[d] * stride;
        stride *= (ptrdiff_t)sizes[d];
    }
    st = dt_create_hindexed(1, &one, &disp, cur, &next);
    if (st != COMPI_OK) {
        goto err;
    }
    dt_release(cur);
    cur = next;
    st = dt_create_resized(cur, 0, stride, &next);
    if (st != COMPI_OK) {
        goto err;
    }
    dt_release(cur);
    next->combiner = MPI_COMBINER_SUBARRAY;
    *new_p = next;
    return COMPI_OK;
err:
    if (cur != NULL) {
        dt_release(cur);
    }
    return st;
}

/*
 * The blocks of one dimension that process coordinate `c` owns, as (start, length) in
 * elements of that dimension:
 *
 *   CYCLIC(b), 3 processes, gsize 10, b 2:   p0 p0 p1 p1 p2 p2 p0 p0 p1 p1
 *   BLOCK:     CYCLIC(ceil(gsize/psize)), one block per process (maybe short or empty)
 *   NONE:      the whole dimension, as if psize were 1
 *
 * Fills start[] and len[] (room for dt__darray_max_blocks entries) and returns their
 * number.
 */
static size_t dt__darray_block(int distrib, int darg, int gsize, int psize)
{
    if (distrib == MPI_DISTRIBUTE_NONE) {
        return (size_t)gsize;
    }
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        return darg == MPI_DISTRIBUTE_DFLT_DARG
                   ? ((size_t)gsize + (size_t)psize - 1) / (size_t)psize
                   : (size_t)darg;
    }
    return darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : (size_t)darg;
}

static size_t dt__darray_max_blocks(int distrib, int darg, int gsize, int psize)
{
    size_t b = dt__darray_block(distrib, darg, gsize, psize);

    return distrib == MPI_DISTRIBUTE_CYCLIC ? (size_t)gsize / (b * (size_t)psize) + 1 : 1;
}

static size_t dt__darray_blocks(int distrib, int darg, int gsize, int psize, int c,
                                size_t *start, size_t *len)
{
    size_t n = 0, b = dt__darray_block(distrib, darg, gsize, psize);

    if (distrib == MPI_DISTRIBUTE_NONE) {
        psize = 1;
        c = 0;
    }
    for (size_t s = (size_t)c * b; s < (size_t)gsize; s += b * (size_t)psize) {
        start[n] = s;
        len[n] = (size_t)gsize - s < b ? (size_t)gsize - s : b;
        n++;
        if (distrib != MPI_DISTRIBUTE_CYCLIC) {
            break;
        }
    }
    return n;
}

compi_status_t dt_create_darray(int size, int rank, int ndims, const int *gsizes,
                                const int *distribs, const int *dargs, const int *psizes,
                                int order, compi_datatype_t *old, compi_datatype_t **new_p)
{
    compi_datatype_t *cur = old, *next = NULL, *res = NULL;
    size_t *start = NULL, *len = NULL, maxb = 1;
    ptrdiff_t *disp = NULL;
    int *coords = NULL;
    compi_status_t st = COMPI_ERR_NO_MEMORY;

    (void)size;
    for (int d = 0; d < ndims; d++) {
        size_t m = dt__darray_max_blocks(distribs[d], dargs[d], gsizes[d], psizes[d]);
        maxb = m > maxb ? m : maxb;
    }
    start = malloc(maxb * sizeof(*start));
    len = malloc(maxb * sizeof(*len));
    disp = malloc(maxb * sizeof(*disp));
    coords = malloc((size_t)ndims * sizeof(*coords));
    if (start == NULL || len == NULL || disp == NULL || coords == NULL) {
        goto out;
    }
    /* the process grid is row-major whatever the array order */
    for (int d = ndims - 1, r = rank; d >= 0; d--) {
        coords[d] = r % psizes[d];
        r /= psizes[d];
    }
    dt_retain(cur);
    for (int j = 0; j < ndims; j++) {
        int d = order == MPI_ORDER_C ? ndims - 1 - j : j;
        ptrdiff_t row = cur->extent;
        size_t n = dt__darray_blocks(distribs[d], dargs[d], gsizes[d], psizes[d], coords[d],
                                     start, len);

        for (size_t k = 0; k < n; k++) {
            disp[k] = (ptrdiff_t)start[k] * row;
        }
        st = dt_create_hindexed(n, len, disp, cur, &next);
        if (st == COMPI_OK) {
            st = dt_create_resized(next, 0, (ptrdiff_t)gsizes[d] * row, &res);
            dt_release(next);
        }
        dt_release(cur);
        cur = NULL;
        if (st != COMPI_OK) {
            goto out;
        }
        cur = res;
    }
    res->combiner = MPI_COMBINER_DARRAY;
    *new_p = res;
    st = COMPI_OK;
out:
    free(start);
    free(len);
    free(disp);
    free(coords);
    return st;
}
