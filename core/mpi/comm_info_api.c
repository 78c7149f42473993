/*
 * comm_info_api.c -- a communicator's info hints: MPI_Comm_set_info, MPI_Comm_get_info,
 * and the hints MPI_Comm_dup_with_info and MPI_Comm_split_type give the new
 * communicator.
 *
 * No hint changes what compi does yet, so every hint set is kept and returned, the
 * MPI-4 assertions (mpi_assert_no_any_tag, mpi_assert_no_any_source,
 * mpi_assert_exact_length, mpi_assert_allow_overtaking) included.  The hints are an info
 * object hung on the communicator as an attribute under a keyval of the library's own:
 * MPI_Comm_dup copies it (as MPI asks of a dup), freeing the communicator frees it, and
 * no other constructor passes it on.  The entry points of MPI_Comm_set_info and
 * MPI_Comm_get_info are generated (core/mpi/gen/comm_info.c, included last).
 */
#include "core/mpi/info.h"

#include "core/comm/attr.h"
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

#include <stdint.h>

static int hints_keyval = MPI_KEYVAL_INVALID;

static int hints_copy(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag)
{
    MPI_Info copy;
    int rc = mpi_info_dup((MPI_Info)(intptr_t)in, &copy);
    (void)old, (void)keyval, (void)extra;
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    *(void **)out = (void *)(intptr_t)copy;
    *flag = 1;
    return MPI_SUCCESS;
}

static int hints_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    mpi_info_release((MPI_Info)(intptr_t)val);
    return MPI_SUCCESS;
}

/* the keyval, made on first use (attr_finalize frees it with the others at MPI_Finalize) */
static int hints_key(void)
{
    if (hints_keyval == MPI_KEYVAL_INVALID) {
        if (attr_keyval_create(ATTR_KIND_COMM, hints_copy, hints_delete, NULL, &hints_keyval) !=
            COMPI_OK) {
            hints_keyval = MPI_KEYVAL_INVALID;
        }
    }
    return hints_keyval;
}

/* the hints of comm (MPI_INFO_NULL when none were ever set) */
static MPI_Info hints_of(compi_comm_t *comm)
{
    void *val = NULL;
    int flag = 0;
    if (hints_keyval == MPI_KEYVAL_INVALID ||
        attr_get(ATTR_KIND_COMM, comm->attrs, hints_keyval, &val, &flag) != COMPI_OK || !flag) {
        return MPI_INFO_NULL;
    }
    return (MPI_Info)(intptr_t)val;
}

int mpi_comm_hints_set(compi_comm_t *comm, MPI_Info info, int replace)
{
    MPI_Info old = hints_of(comm), next;
    int key = hints_key(), rc;

    if (key == MPI_KEYVAL_INVALID) {
        return MPI_ERR_NO_MEM;
    }
    if (!replace && old != MPI_INFO_NULL) {
        return mpi_info_merge(old, info);
    }
    rc = mpi_info_dup(info, &next);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    /* setting over the old value runs hints_delete on it */
    if (attr_set(ATTR_KIND_COMM, comm->handle, &comm->attrs, key, (void *)(intptr_t)next, NULL) !=
        COMPI_OK) {
        mpi_info_release(next);
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

static int comm_set_info_impl(compi_comm_t *comm, MPI_Info info, const char *fn)
{
    /* keys not in `info` keep the values set before; MPI_INFO_NULL changes nothing */
    int rc = mpi_comm_hints_set(comm, info, 0);
    if (rc != MPI_SUCCESS) {
        return mpi_err_raise(comm, rc, fn, "cannot store the hints");
    }
    return MPI_SUCCESS;
}

static int comm_get_info_impl(compi_comm_t *comm, MPI_Info *info_used, const char *fn)
{
    /* a new object the user frees, even when no hint was ever set */
    int rc = mpi_info_dup(hints_of(comm), info_used);
    if (rc != MPI_SUCCESS) {
        return mpi_err_raise(comm, rc, fn, "cannot copy the hints");
    }
    return MPI_SUCCESS;
}

#include "core/mpi/gen/comm_info.c"
