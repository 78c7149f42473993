/*
 * comm_api.c -- MPI_Comm_*: argument checks, handles, and calls into core/comm.
 */
#include "core/comm/attr.h"
#include "core/comm/comm.h"
#include "core/mpi/errors.h"
#include "core/mpi/info.h"
#include "core/comm/group.h"
#include "core/mpi/mpi_state.h"
#include "core/runtime/rte.h"
#include "trampolines/tramp.h"

#include <stdio.h>
#include <string.h>

/* the error every function here raises for a handle that names no communicator */
static int bad_comm(const char *func, MPI_Comm h)
{
    if (h == MPI_COMM_NULL) {
        return mpi_err_raise(NULL, MPI_ERR_COMM, func, "communicator is MPI_COMM_NULL");
    }
    return mpi_err_raise(NULL, MPI_ERR_COMM, func,
                         "invalid communicator handle 0x%x (not a communicator, or freed)",
                         (unsigned)h);
}

static int null_arg(compi_comm_t *c, const char *func, const char *what)
{
    return mpi_err_raise(c, MPI_ERR_ARG, func, "%s is NULL", what);
}

/*
 * what a call on one communicator checks first: MPI is initialized, `h` names a
 * communicator (*c_p), and the output argument `out`, called `what`, is not NULL
 */
static int comm_check(const char *func, MPI_Comm h, const void *out, const char *what,
                      compi_comm_t **c_p)
{
    *c_p = NULL;
    COMPI_CHECK_INIT_HELD(func);
    *c_p = comm_from_handle(h);
    if (*c_p == NULL) {
        return bad_comm(func, h);
    }
    if (out == NULL) {
        return null_arg(*c_p, func, what);
    }
    return MPI_SUCCESS;
}

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

#pragma weak MPI_Comm_size = PMPI_Comm_size
int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    COMPI_API_LOCK();
    compi_comm_t *c;
    int rc = comm_check("MPI_Comm_size", comm, size, "size", &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    *size = comm_local_size(c); /* an intercommunicator's local group */
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_rank = PMPI_Comm_rank
int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    COMPI_API_LOCK();
    compi_comm_t *c;
    int rc = comm_check("MPI_Comm_rank", comm, rank, "rank", &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    *rank = c->rank;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_compare = PMPI_Comm_compare
int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    COMPI_CHECK_INIT("MPI_Comm_compare");
    compi_comm_t *c1 = comm_from_handle(comm1);
    compi_comm_t *c2 = comm_from_handle(comm2);
    if (c1 == NULL) {
        return bad_comm("MPI_Comm_compare", comm1);
    }
    if (c2 == NULL) {
        return bad_comm("MPI_Comm_compare", comm2);
    }
    if (result == NULL) {
        return null_arg(c1, "MPI_Comm_compare", "result");
    }
    if (c1 == c2) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    if (comm_is_inter(c1) != comm_is_inter(c2)) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    int cmp = group_compare(c1->group, c2->group);
    if (comm_is_inter(c1)) {
        /* intercommunicators: both groups compared, the weaker result wins */
        int rcmp = group_compare(c1->remote_group, c2->remote_group);
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

#pragma weak MPI_Comm_dup = PMPI_Comm_dup
int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    COMPI_CHECK_INIT("MPI_Comm_dup");
    compi_comm_t *c = comm_from_handle(comm), *nc;
    int cb_code = MPI_SUCCESS;
    compi_status_t st;
    if (c == NULL) {
        return bad_comm("MPI_Comm_dup", comm);
    }
    if (newcomm == NULL) {
        return null_arg(c, "MPI_Comm_dup", "newcomm");
    }
    st = comm_dup(c, &nc, &cb_code);
    if (st != COMPI_OK) {
        *newcomm = MPI_COMM_NULL;
        if (cb_code != MPI_SUCCESS) {
            return mpi_err_raise(c, cb_code, "MPI_Comm_dup",
                                 "an attribute copy callback returned error %d", cb_code);
        }
        return comm_failed(c, "MPI_Comm_dup", st);
    }
    comm_out(nc, newcomm);
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_dup_with_info = PMPI_Comm_dup_with_info
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    COMPI_CHECK_INIT("MPI_Comm_dup_with_info");
    compi_comm_t *c = comm_from_handle(comm);
    int rc;
    if (c == NULL) {
        return bad_comm("MPI_Comm_dup_with_info", comm);
    }
    if (info != MPI_INFO_NULL && !mpi_info_valid(info)) {
        return mpi_err_raise(c, MPI_ERR_INFO, "MPI_Comm_dup_with_info", "invalid info handle 0x%x",
                             (unsigned)info);
    }
    rc = PMPI_Comm_dup(comm, newcomm);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    /* the new communicator has the hints of `info` instead of comm's */
    rc = mpi_comm_hints_set(comm_from_handle(*newcomm), info, 1);
    if (rc != MPI_SUCCESS) {
        return mpi_err_raise(c, rc, "MPI_Comm_dup_with_info", "cannot store the hints");
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_split = PMPI_Comm_split
int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    COMPI_API_LOCK();
    compi_comm_t *c, *nc;
    compi_status_t st;
    int rc = comm_check("MPI_Comm_split", comm, newcomm, "newcomm", &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (color < 0 && color != MPI_UNDEFINED) {
        return mpi_err_raise(c, MPI_ERR_ARG, "MPI_Comm_split",
                             "color=%d must be >= 0 or MPI_UNDEFINED", color);
    }
    st = comm_split(c, color, key, &nc);
    if (st != COMPI_OK) {
        *newcomm = MPI_COMM_NULL;
        return comm_failed(c, "MPI_Comm_split", st);
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

#pragma weak MPI_Comm_split_type = PMPI_Comm_split_type
int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    COMPI_API_LOCK();
    compi_comm_t *c;
    int color;
    const char *level = NULL; /* mpi_hw_resource_type of the result */
    int rc = comm_check("MPI_Comm_split_type", comm, newcomm, "newcomm", &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (info != MPI_INFO_NULL && !mpi_info_valid(info)) {
        return mpi_err_raise(c, MPI_ERR_INFO, "MPI_Comm_split_type", "invalid info handle 0x%x",
                             (unsigned)info);
    }
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
        color = all_on_my_host(c) ? MPI_UNDEFINED : rte_local_ranks()[0];
        level = "mpi_shared_memory";
    } else {
        return mpi_err_raise(c, MPI_ERR_ARG, "MPI_Comm_split_type",
                             "split_type=%d is not MPI_COMM_TYPE_SHARED, _HW_GUIDED, "
                             "_HW_UNGUIDED or MPI_UNDEFINED",
                             split_type);
    }
    rc = PMPI_Comm_split(comm, color, key, newcomm);
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
        return mpi_err_raise(c, rc, "MPI_Comm_split_type", "cannot store the hints");
    }
    return MPI_SUCCESS;
}

/* checks shared by Comm_create and Comm_create_group */
static int create_check(const char *func, MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm,
                        compi_comm_t **c_p, compi_group_t **g_p)
{
    compi_comm_t *c = comm_from_handle(comm);
    compi_group_t *g = group_from_handle(group);
    if (c == NULL) {
        return bad_comm(func, comm);
    }
    if (g == NULL) {
        return mpi_err_raise(c, MPI_ERR_GROUP, func, "invalid group handle 0x%x", (unsigned)group);
    }
    if (newcomm == NULL) {
        return null_arg(c, func, "newcomm");
    }
    if (!comm_group_is_subset(c, g)) {
        return mpi_err_raise(c, MPI_ERR_GROUP, func,
                             "the group (%d processes) is not a subset of communicator %s", g->size,
                             c->name[0] ? c->name : "(unnamed)");
    }
    *c_p = c;
    *g_p = g;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_create = PMPI_Comm_create
int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    COMPI_CHECK_INIT("MPI_Comm_create");
    compi_comm_t *c, *nc;
    compi_group_t *g;
    compi_status_t st;
    int rc = create_check("MPI_Comm_create", comm, group, newcomm, &c, &g);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    st = comm_create_from_group(c, g, &nc);
    if (st != COMPI_OK) {
        *newcomm = MPI_COMM_NULL;
        return comm_failed(c, "MPI_Comm_create", st);
    }
    comm_out(nc, newcomm);
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_create_group = PMPI_Comm_create_group
int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    COMPI_CHECK_INIT("MPI_Comm_create_group");
    compi_comm_t *c, *nc;
    compi_group_t *g;
    compi_status_t st;
    int rc = create_check("MPI_Comm_create_group", comm, group, newcomm, &c, &g);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (comm_is_inter(c)) {
        return mpi_err_raise(c, MPI_ERR_COMM, "MPI_Comm_create_group",
                             "%s is an intercommunicator; MPI_Comm_create_group takes an "
                             "intracommunicator",
                             c->name[0] ? c->name : "the communicator");
    }
    if (tag < 0) {
        return mpi_err_raise(c, MPI_ERR_TAG, "MPI_Comm_create_group", "tag=%d is negative", tag);
    }
    /* the tag separates concurrent calls (of several threads): their messages do not meet */
    st = comm_create_group(c, g, tag, &nc);
    if (st != COMPI_OK) {
        *newcomm = MPI_COMM_NULL;
        return comm_failed(c, "MPI_Comm_create_group", st);
    }
    comm_out(nc, newcomm);
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_free = PMPI_Comm_free
int PMPI_Comm_free(MPI_Comm *comm)
{
    COMPI_CHECK_INIT("MPI_Comm_free");
    compi_comm_t *c;
    int cb_code = MPI_SUCCESS;
    if (comm == NULL) {
        return null_arg(NULL, "MPI_Comm_free", "comm");
    }
    c = comm_from_handle(*comm);
    if (c == NULL) {
        return bad_comm("MPI_Comm_free", *comm);
    }
    if (comm_is_predefined(c)) {
        return mpi_err_raise(c, MPI_ERR_COMM, "MPI_Comm_free", "%s cannot be freed", c->name);
    }
    if (attr_comm_free_all(c, &cb_code) != COMPI_OK) {
        return mpi_err_raise(c, cb_code != MPI_SUCCESS ? cb_code : MPI_ERR_OTHER, "MPI_Comm_free",
                             "an attribute delete callback returned error %d", cb_code);
    }
    comm_release(c);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_group = PMPI_Comm_group
int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    COMPI_API_LOCK();
    compi_comm_t *c;
    compi_status_t st;
    int rc = comm_check("MPI_Comm_group", comm, group, "group", &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    st = group_to_handle(c->group, group);
    if (st != COMPI_OK) {
        return mpi_err_raise(c, mpi_err_class_of(st), "MPI_Comm_group", "%s",
                             compi_status_string(st));
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_set_name = PMPI_Comm_set_name
int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
    COMPI_API_LOCK();
    compi_comm_t *c;
    int rc = comm_check("MPI_Comm_set_name", comm, comm_name, "comm_name", &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    /* longer names are truncated, as MPI allows */
    char old[sizeof(c->name)];
    memcpy(old, c->name, sizeof(old));
    snprintf(c->name, sizeof(c->name), "%s", comm_name);
    /* creators see the name (call-comm): a renamed communicator chooses its closures
       again.  Every rank is expected to rename it, so that all of them miss together. */
    if (strcmp(old, c->name) != 0) {
        tramp_flush_comm(c);
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_get_name = PMPI_Comm_get_name
int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
    COMPI_CHECK_INIT("MPI_Comm_get_name");
    compi_comm_t *c = comm_from_handle(comm);
    if (c == NULL) {
        return bad_comm("MPI_Comm_get_name", comm);
    }
    if (comm_name == NULL || resultlen == NULL) {
        return null_arg(c, "MPI_Comm_get_name", comm_name == NULL ? "comm_name" : "resultlen");
    }
    snprintf(comm_name, MPI_MAX_OBJECT_NAME, "%s", c->name);
    *resultlen = (int)strlen(comm_name);
    return MPI_SUCCESS;
}
