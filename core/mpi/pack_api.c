/*
 * pack_api.c -- MPI_Pack, MPI_Unpack and MPI_Pack_size in the native representation
 * (the bytes the PML would send), and MPI_Pack_external, MPI_Unpack_external and
 * MPI_Pack_external_size in "external32" (core/dt/dt_external.c).
 *
 * The entry points (core/mpi/gen/pack.c) check the arguments and pass counts, sizes
 * and positions as MPI_Count, so the _c forms pack more than 2^31 bytes; the engine
 * trusts its callers.  A pack that does not fit is MPI_ERR_TRUNCATE and leaves the
 * position alone.
 */
#include "core/comm/comm.h"
#include "core/dt/dt.h"
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

#include <limits.h>
#include <string.h>

/* the packed bytes of `count` elements fit at *position of a `bufsize`-byte buffer */
static int pack__room(compi_comm_t *c, size_t bytes, MPI_Count bufsize, const MPI_Count *position,
                      const char *fn)
{
    if (*position < 0 || bufsize < *position || (size_t)(bufsize - *position) < bytes) {
        return mpi_err_raise(c, MPI_ERR_TRUNCATE, fn,
                             "%zu bytes do not fit at position %lld of a %lld-byte buffer", bytes,
                             (long long)*position, (long long)bufsize);
    }
    return MPI_SUCCESS;
}

static int pack_impl(const void *inbuf, MPI_Count incount, compi_datatype_t *datatype, void *outbuf,
                     MPI_Count outsize, MPI_Count *position, compi_comm_t *comm, const char *fn)
{
    size_t bytes = datatype->size * (size_t)incount;
    int rc = pack__room(comm, bytes, outsize, position, fn);

    if (rc == MPI_SUCCESS) {
        dt_pack(datatype, inbuf, (size_t)incount, 0, (char *)outbuf + *position, bytes);
        *position += (MPI_Count)bytes;
    }
    return rc;
}

static int unpack_impl(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                       MPI_Count outcount, compi_datatype_t *datatype, compi_comm_t *comm,
                       const char *fn)
{
    if (outcount < 0) {
        return mpi_arg_count(comm, outcount, "outcount", fn);
    }
    size_t bytes = datatype->size * (size_t)outcount;
    int rc = pack__room(comm, bytes, insize, position, fn);

    if (rc == MPI_SUCCESS) {
        dt_unpack(datatype, outbuf, (size_t)outcount, 0, (const char *)inbuf + *position, bytes);
        *position += (MPI_Count)bytes;
    }
    return rc;
}

/* the int form: MPI_ERR_COUNT for a size beyond int */
static int pack_size_impl(MPI_Count incount, compi_datatype_t *datatype, compi_comm_t *comm,
                          MPI_Count *size, const char *fn)
{
    size_t bytes = datatype->size * (size_t)incount;

    if (!mpi_fn_large(fn) && bytes > INT_MAX) {
        return mpi_err_raise(comm, MPI_ERR_COUNT, fn, "%zu bytes do not fit in the size", bytes);
    }
    *size = (MPI_Count)bytes;
    return MPI_SUCCESS;
}

/* ---- external32 ------------------------------------------------------------------- */

/* the representation and the count of the external calls */
static int pack__external_args(const char *fn, const char *datarep, MPI_Count count)
{
    if (datarep == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "datarep is NULL");
    }
    if (strcmp(datarep, "external32") != 0) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn,
                             "data representation \"%.64s\" is not \"external32\"", datarep);
    }
    return mpi_arg_count(NULL, count, "count", fn);
}

/* MPI_Pack_external(_c) and, unpack set, MPI_Unpack_external(_c): `typed` holds `count`
   elements of `dt`, `packed` the bytes of a `bufsize`-byte buffer from *position */
static int pack__external(int unpack, const char *datarep, void *typed, MPI_Count count,
                          compi_datatype_t *dt, void *packed, MPI_Count bufsize,
                          MPI_Count *position, const char *fn)
{
    int rc = pack__external_args(fn, datarep, count);
    size_t bytes = rc == MPI_SUCCESS ? dt_external_size(dt, (size_t)count) : 0;

    if (rc == MPI_SUCCESS) {
        rc = pack__room(NULL, bytes, bufsize, position, fn);
    }
    if (rc == MPI_SUCCESS && bytes > 0) {
        char *at = (char *)packed + *position;
        if (unpack) {
            dt_unpack_external(dt, typed, (size_t)count, at);
        } else {
            dt_pack_external(dt, typed, (size_t)count, at);
        }
        *position += (MPI_Count)bytes;
    }
    return rc;
}

static int pack_external_impl(const char datarep[], const void *inbuf, MPI_Count incount,
                              compi_datatype_t *datatype, void *outbuf, MPI_Count outsize,
                              MPI_Count *position, const char *fn)
{
    return pack__external(0, datarep, (void *)inbuf, incount, datatype, outbuf, outsize, position,
                          fn);
}

static int unpack_external_impl(const char datarep[], const void *inbuf, MPI_Count insize,
                                MPI_Count *position, void *outbuf, MPI_Count outcount,
                                compi_datatype_t *datatype, const char *fn)
{
    return pack__external(1, datarep, outbuf, outcount, datatype, (void *)inbuf, insize, position,
                          fn);
}

static int pack_external_size_impl(const char datarep[], MPI_Count incount,
                                   compi_datatype_t *datatype, MPI_Count *size, const char *fn)
{
    int rc = pack__external_args(fn, datarep, incount);

    if (rc == MPI_SUCCESS) {
        *size = (MPI_Count)dt_external_size(datatype, (size_t)incount);
    }
    return rc;
}

#include "core/mpi/gen/pack.c"
