/*
 * pack_api.c -- MPI_Pack, MPI_Unpack and MPI_Pack_size in the native representation
 * (the bytes the PML would send), and MPI_Pack_external, MPI_Unpack_external and
 * MPI_Pack_external_size in "external32" (core/dt/dt_external.c).
 *
 * Argument checks live here; the engine trusts its callers.  A pack that does not fit
 * is MPI_ERR_TRUNCATE and leaves the position alone.
 */
#include "core/comm/comm.h"
#include "core/dt/dt.h"
#include "core/mpi/dt_args.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

#include <limits.h>
#include <string.h>

/* common checks of Pack/Unpack; *bytes_p gets the packed size of `count` elements */
static int pack__args(const char *fn, MPI_Count count, MPI_Datatype datatype, MPI_Count bufsize,
                      const MPI_Count *position, MPI_Comm comm, compi_datatype_t **dt_p,
                      size_t *bytes_p)
{
    compi_comm_t *c;
    int rc;

    COMPI_CHECK_INIT_HELD(fn);
    c = comm_from_handle(comm);
    if (c == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_COMM, fn, "invalid communicator");
    }
    if (count < 0) {
        return mpi_err_raise(c, MPI_ERR_COUNT, fn, "count=%lld is negative", (long long)count);
    }
    if (position == NULL) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "position is NULL");
    }
    if ((rc = mpi_dt_lookup(datatype, fn, dt_p)) != MPI_SUCCESS) {
        return rc;
    }
    if (!(*dt_p)->committed) {
        return mpi_err_raise(c, MPI_ERR_TYPE, fn, "the datatype is not committed");
    }
    *bytes_p = (*dt_p)->size * (size_t)count;
    if (*position < 0 || bufsize < *position || (size_t)(bufsize - *position) < *bytes_p) {
        return mpi_err_raise(c, MPI_ERR_TRUNCATE, fn,
                             "%zu bytes do not fit at position %lld of a %lld-byte buffer",
                             *bytes_p, (long long)*position, (long long)bufsize);
    }
    return MPI_SUCCESS;
}

/* MPI_Pack(_c) and, unpack set, MPI_Unpack(_c): `buf` is the packed side */
static int pack_impl(int unpack, const void *inbuf, MPI_Count count, MPI_Datatype datatype,
                     void *buf, MPI_Count bufsize, MPI_Count *position, MPI_Comm comm,
                     const char *fn)
{
    compi_datatype_t *dt = NULL;
    size_t bytes = 0;
    int rc = pack__args(fn, count, datatype, bufsize, position, comm, &dt, &bytes);

    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (unpack) {
        dt_unpack(dt, (void *)inbuf, (size_t)count, 0, (const char *)buf + *position, bytes);
    } else {
        dt_pack(dt, inbuf, (size_t)count, 0, (char *)buf + *position, bytes);
    }
    *position += (MPI_Count)bytes;
    return MPI_SUCCESS;
}

/* the int forms: their position (within an int buffer, so it stays an int) through the
   MPI_Count one */
static int pack_int(int unpack, const void *inbuf, int count, MPI_Datatype datatype, void *buf,
                    int bufsize, int *position, MPI_Comm comm, const char *fn)
{
    MPI_Count pos = position != NULL ? *position : 0;
    int rc = pack_impl(unpack, inbuf, count, datatype, buf, bufsize, position != NULL ? &pos : NULL,
                       comm, fn);
    if (rc == MPI_SUCCESS) {
        *position = (int)pos;
    }
    return rc;
}

#pragma weak MPI_Pack = PMPI_Pack
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
              int *position, MPI_Comm comm)
{
    COMPI_API_LOCK();
    return pack_int(0, inbuf, incount, datatype, outbuf, outsize, position, comm, "MPI_Pack");
}

#pragma weak MPI_Pack_c = PMPI_Pack_c
int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
    COMPI_API_LOCK();
    return pack_impl(0, inbuf, incount, datatype, outbuf, outsize, position, comm, "MPI_Pack_c");
}

#pragma weak MPI_Unpack = PMPI_Unpack
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm)
{
    COMPI_API_LOCK();
    return pack_int(1, outbuf, outcount, datatype, (void *)inbuf, insize, position, comm,
                    "MPI_Unpack");
}

#pragma weak MPI_Unpack_c = PMPI_Unpack_c
int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                  MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    COMPI_API_LOCK();
    return pack_impl(1, outbuf, outcount, datatype, (void *)inbuf, insize, position, comm,
                     "MPI_Unpack_c");
}

/* MPI_Pack_size(_c): the bytes of `incount` elements, MPI_ERR_COUNT beyond `max` */
static int pack_size_impl(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, const void *out,
                          MPI_Count max, MPI_Count *size_p, const char *fn)
{
    compi_datatype_t *dt;
    size_t bytes;
    int rc;

    if (comm_from_handle(comm) == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_COMM, fn, "invalid communicator");
    }
    if (incount < 0) {
        return mpi_dt_neg_count(fn, incount);
    }
    if (out == NULL) {
        return mpi_dt_null(fn, "size");
    }
    if ((rc = mpi_dt_lookup(datatype, fn, &dt)) != MPI_SUCCESS) {
        return rc;
    }
    bytes = dt->size * (size_t)incount;
    if (bytes > (size_t)max) {
        return mpi_err_raise(NULL, MPI_ERR_COUNT, fn, "%zu bytes do not fit in the size", bytes);
    }
    *size_p = (MPI_Count)bytes;
    return MPI_SUCCESS;
}

#pragma weak MPI_Pack_size = PMPI_Pack_size
int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    COMPI_CHECK_INIT("MPI_Pack_size");
    MPI_Count n = 0;
    int rc = pack_size_impl(incount, datatype, comm, size, INT_MAX, &n, "MPI_Pack_size");
    if (rc == MPI_SUCCESS) {
        *size = (int)n;
    }
    return rc;
}

#pragma weak MPI_Pack_size_c = PMPI_Pack_size_c
int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size)
{
    COMPI_CHECK_INIT("MPI_Pack_size_c");
    return pack_size_impl(incount, datatype, comm, size, LLONG_MAX, size, "MPI_Pack_size_c");
}

/* ---- external32 ------------------------------------------------------------------- */

/* common checks of the external calls: the representation, count and datatype */
static int pack__external_args(const char *fn, const char *datarep, int count,
                               MPI_Datatype datatype, compi_datatype_t **dt_p)
{
    int rc;

    COMPI_CHECK_INIT_HELD(fn);
    if (datarep == NULL) {
        return mpi_dt_null(fn, "datarep");
    }
    if (strcmp(datarep, "external32") != 0) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "data representation \"%.64s\" is not "
                             "\"external32\"", datarep);
    }
    if (count < 0) {
        return mpi_dt_neg_count(fn, count);
    }
    if ((rc = mpi_dt_lookup(datatype, fn, dt_p)) != MPI_SUCCESS) {
        return rc;
    }
    return MPI_SUCCESS;
}

/* room for `bytes` at *position of a `bufsize`-byte buffer */
static int pack__external_room(const char *fn, const compi_datatype_t *dt, size_t bytes,
                               MPI_Aint bufsize, const MPI_Aint *position)
{
    if (position == NULL) {
        return mpi_dt_null(fn, "position");
    }
    if (!dt->committed) {
        return mpi_err_raise(NULL, MPI_ERR_TYPE, fn, "the datatype is not committed");
    }
    if (*position < 0 || bufsize < *position || (size_t)(bufsize - *position) < bytes) {
        return mpi_err_raise(NULL, MPI_ERR_TRUNCATE, fn,
                             "%zu bytes do not fit at position %ld of a %ld-byte buffer", bytes,
                             (long)*position, (long)bufsize);
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Pack_external = PMPI_Pack_external
int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype,
                       void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
    COMPI_API_LOCK();
    static const char fn[] = "MPI_Pack_external";
    compi_datatype_t *dt;
    size_t bytes;
    int rc = pack__external_args(fn, datarep, incount, datatype, &dt);

    if (rc != MPI_SUCCESS) {
        return rc;
    }
    bytes = dt_external_size(dt, (size_t)incount);
    if ((rc = pack__external_room(fn, dt, bytes, outsize, position)) != MPI_SUCCESS) {
        return rc;
    }
    if (bytes > 0) {
        dt_pack_external(dt, inbuf, (size_t)incount, (char *)outbuf + *position);
    }
    *position += (MPI_Aint)bytes;
    return MPI_SUCCESS;
}

#pragma weak MPI_Unpack_external = PMPI_Unpack_external
int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                         MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype)
{
    COMPI_API_LOCK();
    static const char fn[] = "MPI_Unpack_external";
    compi_datatype_t *dt;
    size_t bytes;
    int rc = pack__external_args(fn, datarep, outcount, datatype, &dt);

    if (rc != MPI_SUCCESS) {
        return rc;
    }
    bytes = dt_external_size(dt, (size_t)outcount);
    if ((rc = pack__external_room(fn, dt, bytes, insize, position)) != MPI_SUCCESS) {
        return rc;
    }
    if (bytes > 0) {
        dt_unpack_external(dt, outbuf, (size_t)outcount, (const char *)inbuf + *position);
    }
    *position += (MPI_Aint)bytes;
    return MPI_SUCCESS;
}

#pragma weak MPI_Pack_external_size = PMPI_Pack_external_size
int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                            MPI_Aint *size)
{
    COMPI_API_LOCK();
    static const char fn[] = "MPI_Pack_external_size";
    compi_datatype_t *dt;
    int rc = pack__external_args(fn, datarep, incount, datatype, &dt);

    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (size == NULL) {
        return mpi_dt_null(fn, "size");
    }
    *size = (MPI_Aint)dt_external_size(dt, (size_t)incount);
    return MPI_SUCCESS;
}
