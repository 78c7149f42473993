/*
 * intercomm_api.c -- MPI_Intercomm_create, MPI_Intercomm_merge, MPI_Comm_test_inter,
 * MPI_Comm_remote_size and MPI_Comm_remote_group: calls into core/comm/intercomm.c.  Dup,
 * split, create, free and compare take both kinds of communicator (comm_api.c).  The
 * entry points are generated (core/mpi/gen/intercomm.c, included last); MPI_Intercomm_create
 * checks its peer_comm and remote_leader itself, at the local leader, the only rank where
 * they are significant.
 */
#include "core/comm/comm.h"
#include "core/comm/group.h"
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

#include <mpi.h>

static const char *comm_label(const compi_comm_t *c)
{
    return c->name[0] ? c->name : "the communicator";
}

/* c must be an intercommunicator */
static int need_inter(compi_comm_t *c, const char *fn)
{
    if (!comm_is_inter(c)) {
        return mpi_err_raise(c, MPI_ERR_COMM, fn, "%s is an intracommunicator", comm_label(c));
    }
    return MPI_SUCCESS;
}

static int comm_test_inter_impl(compi_comm_t *comm, int *flag, const char *fn)
{
    (void)fn;
    *flag = comm_is_inter(comm);
    return MPI_SUCCESS;
}

static int comm_remote_size_impl(compi_comm_t *comm, int *size, const char *fn)
{
    int rc = need_inter(comm, fn);
    if (rc == MPI_SUCCESS) {
        *size = comm->remote_group->size;
    }
    return rc;
}

static int comm_remote_group_impl(compi_comm_t *comm, MPI_Group *group, const char *fn)
{
    int rc = need_inter(comm, fn);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    compi_status_t st = group_to_handle(comm->remote_group, group);
    if (st != COMPI_OK) {
        return mpi_err_raise(comm, mpi_err_class_of(st), fn, "%s", compi_status_string(st));
    }
    return MPI_SUCCESS;
}

static int intercomm_create_impl(compi_comm_t *local_comm, int local_leader, MPI_Comm peer_comm,
                                 int remote_leader, int tag, MPI_Comm *newintercomm, const char *fn)
{
    compi_comm_t *lc = local_comm, *pc = NULL, *nc;
    if (comm_is_inter(lc)) {
        return mpi_err_raise(lc, MPI_ERR_COMM, fn,
                             "local_comm %s is an intercommunicator; it must be an "
                             "intracommunicator",
                             comm_label(lc));
    }
    if (local_leader < 0 || local_leader >= lc->size) {
        return mpi_err_raise(lc, MPI_ERR_RANK, fn, "local_leader=%d is not in [0, %d)",
                             local_leader, lc->size);
    }
    /* peer_comm and remote_leader are significant only at the local leader */
    if (lc->rank == local_leader) {
        pc = comm_from_handle(peer_comm);
        if (pc == NULL) {
            return mpi_err_raise(lc, MPI_ERR_COMM, fn,
                                 "peer_comm is not a communicator (at the local leader)");
        }
        if (remote_leader < 0 || remote_leader >= pc->size) {
            return mpi_err_raise(lc, MPI_ERR_RANK, fn, "remote_leader=%d is not in [0, %d)",
                                 remote_leader, pc->size);
        }
        if (!comm_is_inter(pc) && remote_leader == pc->rank) {
            return mpi_err_raise(lc, MPI_ERR_RANK, fn,
                                 "remote_leader=%d is the local leader itself", remote_leader);
        }
    }
    compi_status_t st = comm_intercomm_create(lc, local_leader, pc, remote_leader, tag, &nc);
    if (st != COMPI_OK) {
        *newintercomm = MPI_COMM_NULL;
        if (st == COMPI_ERR_INVALID_PARAM) {
            return mpi_err_raise(lc, MPI_ERR_ARG, fn,
                                 "the two groups overlap or a leader is wrong (the groups of an "
                                 "intercommunicator must be disjoint)");
        }
        return mpi_err_raise(lc, mpi_err_class_of(st), fn,
                             "cannot create the intercommunicator: %s", compi_status_string(st));
    }
    *newintercomm = nc->handle;
    return MPI_SUCCESS;
}

static int intercomm_merge_impl(compi_comm_t *intercomm, int high, MPI_Comm *newintracomm,
                                const char *fn)
{
    compi_comm_t *nc;
    int rc = need_inter(intercomm, fn);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    compi_status_t st = comm_intercomm_merge(intercomm, high, &nc);
    if (st != COMPI_OK) {
        *newintracomm = MPI_COMM_NULL;
        return mpi_err_raise(intercomm, mpi_err_class_of(st), fn, "cannot merge: %s",
                             compi_status_string(st));
    }
    *newintracomm = nc->handle;
    return MPI_SUCCESS;
}

#include "core/mpi/gen/intercomm.c"
