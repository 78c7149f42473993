/*
 * status_f08_api.c -- statuses between C, mpif.h / use mpi (an INTEGER array) and use
 * mpi_f08 (TYPE(MPI_Status): MPI_F08_status in C), and MPI 5.0's accessors of a status's
 * MPI_SOURCE, MPI_TAG and MPI_ERROR.
 *
 * All three forms are the same five words in the same order (include/mpi.h), so every
 * conversion is a copy; the checks are those of MPI_Status_c2f (f2c_api.c): a missing or
 * ignored status is an error of class MPI_ERR_ARG, raised on MPI_COMM_WORLD's handler
 * when MPI is up, returned otherwise (the conversions need no library state).
 */
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

static int status__missing(const char *fn)
{
    if (compi_mpi_state != COMPI_STATE_INITIALIZED) {
        return MPI_ERR_ARG;
    }
    return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "a status or an output is NULL or ignored");
}

/* copies one form into another: each is the same words (the assertion above) */
static int status__copy(const void *from, int from_ok, void *to, int to_ok, const char *fn)
{
    if (from == NULL || to == NULL || !from_ok || !to_ok) {
        return status__missing(fn);
    }
    memcpy(to, from, sizeof(MPI_Status));
    return MPI_SUCCESS;
}

#define C_OK(s) ((const void *)(s) != (const void *)MPI_STATUS_IGNORE)
#define F08_OK(s) ((const void *)(s) != (const void *)MPI_F08_STATUS_IGNORE)
#define F_OK(s) ((const void *)(s) != (const void *)MPI_F_STATUS_IGNORE)

#pragma weak MPI_Status_c2f08 = PMPI_Status_c2f08
int PMPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status)
{
    COMPI_API_LOCK();
    return status__copy(c_status, C_OK(c_status), f08_status, F08_OK(f08_status),
                        "MPI_Status_c2f08");
}

#pragma weak MPI_Status_f082c = PMPI_Status_f082c
int PMPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status)
{
    COMPI_API_LOCK();
    return status__copy(f08_status, F08_OK(f08_status), c_status, C_OK(c_status),
                        "MPI_Status_f082c");
}

#pragma weak MPI_Status_f082f = PMPI_Status_f082f
int PMPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status)
{
    COMPI_API_LOCK();
    return status__copy(f08_status, F08_OK(f08_status), f_status, F_OK(f_status),
                        "MPI_Status_f082f");
}

#pragma weak MPI_Status_f2f08 = PMPI_Status_f2f08
int PMPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status)
{
    COMPI_API_LOCK();
    return status__copy(f_status, F_OK(f_status), f08_status, F08_OK(f08_status),
                        "MPI_Status_f2f08");
}

/* ---- MPI_Status_get_* and _set_* ---------------------------------------------------- */

/* which field of a status, by the name the accessors' errors give */
enum status_field { FIELD_SOURCE, FIELD_TAG, FIELD_ERROR };

static int *status__field(MPI_Status *st, enum status_field f)
{
    return f == FIELD_SOURCE ? &st->MPI_SOURCE : f == FIELD_TAG ? &st->MPI_TAG : &st->MPI_ERROR;
}

/* like the conversions, the accessors need no library state: they work before MPI_Init
   and after MPI_Finalize too */
static int status__get(const MPI_Status *status, int *out, enum status_field f, const char *fn)
{
    if (status == NULL || status == MPI_STATUS_IGNORE || out == NULL) {
        return status__missing(fn);
    }
    *out = *status__field((MPI_Status *)status, f);
    return MPI_SUCCESS;
}

static int status__set(MPI_Status *status, int value, enum status_field f, const char *fn)
{
    if (status == NULL || status == MPI_STATUS_IGNORE) {
        return status__missing(fn);
    }
    *status__field(status, f) = value;
    return MPI_SUCCESS;
}

#pragma weak MPI_Status_get_source = PMPI_Status_get_source
int PMPI_Status_get_source(const MPI_Status *status, int *source)
{
    COMPI_API_LOCK();
    return status__get(status, source, FIELD_SOURCE, "MPI_Status_get_source");
}

#pragma weak MPI_Status_get_tag = PMPI_Status_get_tag
int PMPI_Status_get_tag(const MPI_Status *status, int *tag)
{
    COMPI_API_LOCK();
    return status__get(status, tag, FIELD_TAG, "MPI_Status_get_tag");
}

#pragma weak MPI_Status_get_error = PMPI_Status_get_error
int PMPI_Status_get_error(const MPI_Status *status, int *err)
{
    COMPI_API_LOCK();
    return status__get(status, err, FIELD_ERROR, "MPI_Status_get_error");
}

#pragma weak MPI_Status_set_source = PMPI_Status_set_source
int PMPI_Status_set_source(MPI_Status *status, int source)
{
    COMPI_API_LOCK();
    return status__set(status, source, FIELD_SOURCE, "MPI_Status_set_source");
}

#pragma weak MPI_Status_set_tag = PMPI_Status_set_tag
int PMPI_Status_set_tag(MPI_Status *status, int tag)
{
    COMPI_API_LOCK();
    return status__set(status, tag, FIELD_TAG, "MPI_Status_set_tag");
}

#pragma weak MPI_Status_set_error = PMPI_Status_set_error
int PMPI_Status_set_error(MPI_Status *status, int err)
{
    COMPI_API_LOCK();
    return status__set(status, err, FIELD_ERROR, "MPI_Status_set_error");
}
