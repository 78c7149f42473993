/*
 * status_f08_api.c -- statuses between C, mpif.h / use mpi (an INTEGER array) and use
 * mpi_f08 (TYPE(MPI_Status): MPI_F08_status in C), and MPI 5.0's accessors of a status's
 * MPI_SOURCE, MPI_TAG and MPI_ERROR.
 *
 * All three forms are the same five words in the same order (include/mpi.h), so every
 * conversion is a copy.  The entry points (core/mpi/gen/status_f08.c, included last) check
 * the statuses as MPI_Status_c2f's (f2c_api.c): a missing or ignored status is an error of
 * class MPI_ERR_ARG, raised on MPI_COMM_WORLD's handler when MPI is up, returned otherwise
 * (the conversions and the accessors need no library state: they work before MPI_Init
 * and after MPI_Finalize too).
 */
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

#include <stddef.h>
#include <string.h>

COMPI_STATIC_ASSERT(sizeof(MPI_F08_status) == sizeof(MPI_Status) &&
                        offsetof(MPI_F08_status, MPI_SOURCE) == offsetof(MPI_Status, MPI_SOURCE) &&
                        offsetof(MPI_F08_status, MPI_TAG) == offsetof(MPI_Status, MPI_TAG) &&
                        offsetof(MPI_F08_status, MPI_ERROR) == offsetof(MPI_Status, MPI_ERROR) &&
                        offsetof(MPI_Status, MPI_SOURCE) == MPI_F_SOURCE * sizeof(MPI_Fint) &&
                        offsetof(MPI_Status, MPI_TAG) == MPI_F_TAG * sizeof(MPI_Fint) &&
                        offsetof(MPI_Status, MPI_ERROR) == MPI_F_ERROR * sizeof(MPI_Fint),
                    "MPI_F08_status, MPI_Status and the Fortran status differ");

/* distinct addresses, never read or written through (exported: include/mpi.h) */
static MPI_F08_status f08_status_ignore_mark, f08_statuses_ignore_mark;
__attribute__((visibility("default"))) MPI_F08_status *MPI_F08_STATUS_IGNORE =
    &f08_status_ignore_mark;
__attribute__((visibility("default"))) MPI_F08_status *MPI_F08_STATUSES_IGNORE =
    &f08_statuses_ignore_mark;

/* copies one form into another: each is the same words (the assertion above) */
static int status__copy(const void *from, void *to)
{
    memcpy(to, from, sizeof(MPI_Status));
    return MPI_SUCCESS;
}

static int status_c2f08_impl(const MPI_Status *c_status, MPI_F08_status *f08_status, const char *fn)
{
    (void)fn;
    return status__copy(c_status, f08_status);
}

static int status_f082c_impl(const MPI_F08_status *f08_status, MPI_Status *c_status, const char *fn)
{
    (void)fn;
    return status__copy(f08_status, c_status);
}

static int status_f082f_impl(const MPI_F08_status *f08_status, MPI_Fint *f_status, const char *fn)
{
    (void)fn;
    return status__copy(f08_status, f_status);
}

static int status_f2f08_impl(const MPI_Fint *f_status, MPI_F08_status *f08_status, const char *fn)
{
    (void)fn;
    return status__copy(f_status, f08_status);
}

/* ---- MPI_Status_get_* and _set_* ---------------------------------------------------- */

static int status_get_source_impl(const MPI_Status *status, int *source, const char *fn)
{
    (void)fn;
    *source = status->MPI_SOURCE;
    return MPI_SUCCESS;
}

static int status_get_tag_impl(const MPI_Status *status, int *tag, const char *fn)
{
    (void)fn;
    *tag = status->MPI_TAG;
    return MPI_SUCCESS;
}

static int status_get_error_impl(const MPI_Status *status, int *err, const char *fn)
{
    (void)fn;
    *err = status->MPI_ERROR;
    return MPI_SUCCESS;
}

static int status_set_source_impl(MPI_Status *status, int source, const char *fn)
{
    (void)fn;
    status->MPI_SOURCE = source;
    return MPI_SUCCESS;
}

static int status_set_tag_impl(MPI_Status *status, int tag, const char *fn)
{
    (void)fn;
    status->MPI_TAG = tag;
    return MPI_SUCCESS;
}

static int status_set_error_impl(MPI_Status *status, int err, const char *fn)
{
    (void)fn;
    status->MPI_ERROR = err;
    return MPI_SUCCESS;
}

#include "core/mpi/gen/status_f08.c"
