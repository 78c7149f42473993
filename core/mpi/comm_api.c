/*
 * comm_api.c -- MPI_Comm_*: the implementations, calling into core/comm; their entry
 * points, which check the handles, the color and the output pointers, are generated
 * (core/mpi/gen/comm.c, included last).
 */
#include "core/comm/attr.h"
#include "core/comm/comm.h"
#include "core/comm/group.h"
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/info.h"
#include "core/mpi/mpi_state.h"
#include "core/runtime/rte.h"
#include "trampolines/tramp.h"

#include <stdio.h>
#include <string.h>

/* report an internal failure of a constructor on `c` */
static int comm_failed(compi_comm_t *c, const char *func, compi_status_t st)
{
    return mpi_err_raise(c, mpi_err_class_of(st), func, "cannot create the communicator: %s",
                         compi_status_string(st));
}

/* hand a new communicator (or MPI_COMM_NULL) to the user */
static void comm_out(compi_comm_t *c, MPI_Comm *newcomm)
{
    *newcomm = c != NULL ? c->handle : MPI_COMM_NULL;
}

static int comm_size_impl(compi_comm_t *comm, int *size, const char *fn)
{
    (void)fn;
    *size = comm_local_size(comm); /* an intercommunicator's local group */
    return MPI_SUCCESS;
}

static int comm_rank_impl(compi_comm_t *comm, int *rank, const char *fn)
{
    (void)fn;
    *rank = comm->rank;
    return MPI_SUCCESS;
}

static int comm_compare_impl(compi_comm_t *comm1, compi_comm_t *comm2, int *result, const char *fn)
{
    (void)fn;
    if (comm1 == comm2) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    if (comm_is_inter(comm1) != comm_is_inter(comm2)) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    int cmp = group_compare(comm1->group, comm2->group);
    if (comm_is_inter(comm1)) {
        /* intercommunicators: both groups compared, the weaker result wins */
        int rcmp = group_compare(comm1->remote_group, comm2->remote_group);
        if (cmp == MPI_UNEQUAL || rcmp == MPI_UNEQUAL) {
            cmp = MPI_UNEQUAL;
        } else if (cmp == MPI_SIMILAR || rcmp == MPI_SIMILAR) {
            cmp = MPI_SIMILAR;
        }
    }
    switch (cmp) {
    case MPI_IDENT:
        *result = MPI_CONGRUENT;
        break;
    case MPI_SIMILAR:
        *result = MPI_SIMILAR;
        break;
    default:
        *result = MPI_UNEQUAL;
    }
    return MPI_SUCCESS;
}

static int comm_dup_impl(compi_comm_t *comm, MPI_Comm *newcomm, const char *fn)
{
    compi_comm_t *nc;
    int cb_code = MPI_SUCCESS;
    compi_status_t st = comm_dup(comm, &nc, &cb_code);
    if (st != COMPI_OK) {
        *newcomm = MPI_COMM_NULL;
        if (cb_code != MPI_SUCCESS) {
            return mpi_err_raise(comm, cb_code, fn, "an attribute copy callback returned error %d",
                                 cb_code);
        }
        return comm_failed(comm, fn, st);
    }
    comm_out(nc, newcomm);
    return MPI_SUCCESS;
}

static int comm_dup_with_info_impl(compi_comm_t *comm, MPI_Info info, MPI_Comm *newcomm,
                                   const char *fn)
{
    int rc = comm_dup_impl(comm, newcomm, fn);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    /* the new communicator has the hints of `info` instead of comm's */
    rc = mpi_comm_hints_set(comm_from_handle(*newcomm), info, 1);
    if (rc != MPI_SUCCESS) {
        return mpi_err_raise(comm, rc, fn, "cannot store the hints");
    }
    return MPI_SUCCESS;
}

static int comm_split_impl(compi_comm_t *comm, int color, int key, MPI_Comm *newcomm,
                           const char *fn)
{
    compi_comm_t *nc;
    compi_status_t st = comm_split(comm, color, key, &nc);
    if (st != COMPI_OK) {
        *newcomm = MPI_COMM_NULL;
        return comm_failed(comm, fn, st);
    }
    comm_out(nc, newcomm);
    return MPI_SUCCESS;
}

/*
 * The hardware level MPI_COMM_TYPE_HW_GUIDED names in info key "mpi_hw_resource_type":
 * compi knows one, the host ("mpi_shared_memory"; MPI_COMM_TYPE_SHARED is the same
 * split).  Another value, or no key, leaves this process out (MPI_COMM_NULL), as MPI 4.0
 * says of a type the implementation does not know.
 */
static int hw_guided_color(MPI_Info info)
{
    char val[MPI_MAX_INFO_VAL + 1];
    int flag = 0;

    if (info != MPI_INFO_NULL) {
        PMPI_Info_get(info, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, val, &flag);
    }
    return flag && strcmp(val, "mpi_shared_memory") == 0 ? rte_local_ranks()[0] : MPI_UNDEFINED;
}

/* is every member of c on this host (then the host is no strict subset of c) */
static int all_on_my_host(const compi_comm_t *c)
{
    for (int r = 0; r < c->group->size; r++) {
        if (!rte_world_rank_is_local(c->group->world_ranks[r])) {
            return 0;
        }
    }
    return 1;
}

static int comm_split_type_impl(compi_comm_t *comm, int split_type, int key, MPI_Info info,
                                MPI_Comm *newcomm, const char *fn)
{
    int color;
    const char *level = NULL; /* mpi_hw_resource_type of the result */
    if (split_type == MPI_UNDEFINED) {
        color = MPI_UNDEFINED;
    } else if (split_type == MPI_COMM_TYPE_SHARED) {
        /* the lowest world rank on this host names the host: the same for all its ranks */
        color = rte_local_ranks()[0];
        level = "mpi_shared_memory";
    } else if (split_type == MPI_COMM_TYPE_HW_GUIDED) {
        color = hw_guided_color(info);
        level = "mpi_shared_memory";
    } else if (split_type == MPI_COMM_TYPE_HW_UNGUIDED) {
        /* a strict subset of comm at a level compi knows: the host, unless comm is all on
           one host (every member decides alike: they all see where the others are) */
        color = all_on_my_host(comm) ? MPI_UNDEFINED : rte_local_ranks()[0];
        level = "mpi_shared_memory";
    } else {
        return mpi_err_raise(comm, MPI_ERR_ARG, fn,
                             "split_type=%d is not MPI_COMM_TYPE_SHARED, _HW_GUIDED, "
                             "_HW_UNGUIDED or MPI_UNDEFINED",
                             split_type);
    }
    int rc = comm_split_impl(comm, color, key, newcomm, fn);
    if (rc != MPI_SUCCESS || *newcomm == MPI_COMM_NULL) {
        return rc;
    }
    /* the new communicator's hints: the info given, and the level it was split at */
    rc = mpi_comm_hints_set(comm_from_handle(*newcomm), info, 1);
    if (rc == MPI_SUCCESS && level != NULL) {
        MPI_Info lv;
        rc = mpi_info_dup(MPI_INFO_NULL, &lv);
        if (rc == MPI_SUCCESS) {
            PMPI_Info_set(lv, "mpi_hw_resource_type", level);
            rc = mpi_comm_hints_set(comm_from_handle(*newcomm), lv, 0);
            mpi_info_release(lv);
        }
    }
    if (rc != MPI_SUCCESS) {
        return mpi_err_raise(comm, rc, fn, "cannot store the hints");
    }
    return MPI_SUCCESS;
}

/* what Comm_create and Comm_create_group ask of the group: a subset of comm's */
static int create_check(compi_comm_t *c, compi_group_t *g, const char *fn)
{
    if (!comm_group_is_subset(c, g)) {
        return mpi_err_raise(c, MPI_ERR_GROUP, fn,
                             "the group (%d processes) is not a subset of communicator %s", g->size,
                             c->name[0] ? c->name : "(unnamed)");
    }
    return MPI_SUCCESS;
}

static int comm_create_impl(compi_comm_t *comm, compi_group_t *group, MPI_Comm *newcomm,
                            const char *fn)
{
    compi_comm_t *nc;
    int rc = create_check(comm, group, fn);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    compi_status_t st = comm_create_from_group(comm, group, &nc);
    if (st != COMPI_OK) {
        *newcomm = MPI_COMM_NULL;
        return comm_failed(comm, fn, st);
    }
    comm_out(nc, newcomm);
    return MPI_SUCCESS;
}

static int comm_create_group_impl(compi_comm_t *comm, compi_group_t *group, int tag,
                                  MPI_Comm *newcomm, const char *fn)
{
    compi_comm_t *nc;
    int rc = create_check(comm, group, fn);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (comm_is_inter(comm)) {
        return mpi_err_raise(comm, MPI_ERR_COMM, fn,
                             "%s is an intercommunicator; MPI_Comm_create_group takes an "
                             "intracommunicator",
                             comm->name[0] ? comm->name : "the communicator");
    }
    /* the tag separates concurrent calls (of several threads): their messages do not meet */
    compi_status_t st = comm_create_group(comm, group, tag, &nc);
    if (st != COMPI_OK) {
        *newcomm = MPI_COMM_NULL;
        return comm_failed(comm, fn, st);
    }
    comm_out(nc, newcomm);
    return MPI_SUCCESS;
}

static int comm_free_impl(MPI_Comm *comm, compi_comm_t *comm_obj, const char *fn)
{
    int cb_code = MPI_SUCCESS;
    if (comm_is_predefined(comm_obj)) {
        return mpi_err_raise(comm_obj, MPI_ERR_COMM, fn, "%s cannot be freed", comm_obj->name);
    }
    if (attr_comm_free_all(comm_obj, &cb_code) != COMPI_OK) {
        return mpi_err_raise(comm_obj, cb_code != MPI_SUCCESS ? cb_code : MPI_ERR_OTHER, fn,
                             "an attribute delete callback returned error %d", cb_code);
    }
    comm_release(comm_obj);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

static int comm_group_impl(compi_comm_t *comm, MPI_Group *group, const char *fn)
{
    compi_status_t st = group_to_handle(comm->group, group);
    if (st != COMPI_OK) {
        return mpi_err_raise(comm, mpi_err_class_of(st), fn, "%s", compi_status_string(st));
    }
    return MPI_SUCCESS;
}

static int comm_set_name_impl(compi_comm_t *comm, const char *comm_name, const char *fn)
{
    (void)fn;
    /* longer names are truncated, as MPI allows */
    char old[sizeof(comm->name)];
    memcpy(old, comm->name, sizeof(old));
    snprintf(comm->name, sizeof(comm->name), "%s", comm_name);
    /* creators see the name (call-comm): a renamed communicator chooses its closures
       again.  Every rank is expected to rename it, so that all of them miss together. */
    if (strcmp(old, comm->name) != 0) {
        tramp_flush_comm(comm);
    }
    return MPI_SUCCESS;
}

static int comm_get_name_impl(compi_comm_t *comm, char *comm_name, int *resultlen, const char *fn)
{
    (void)fn;
    snprintf(comm_name, MPI_MAX_OBJECT_NAME, "%s", comm->name);
    *resultlen = (int)strlen(comm_name);
    return MPI_SUCCESS;
}

#include "core/mpi/gen/comm.c"
