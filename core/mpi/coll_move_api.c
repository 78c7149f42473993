/*
 * coll_move_api.c -- the data-moving collectives: MPI_Gather(v), MPI_Scatter(v),
 * MPI_Allgather(v), MPI_Alltoall(v/w).  Argument checks (coll_args.h), then the
 * trampoline, as in coll_api.c.
 *
 * Arguments a rank must ignore (the receive side of a gather on a non-root, the send
 * side of a scatter on a non-root, the send side of an in-place call) are left 0/NULL in
 * the call whatever the user passed, so an algorithm that reads them by mistake fails
 * loudly instead of reading garbage.
 *
 * The key's bytes (coll.h): gather, scatter, allgather, alltoall: one rank's block, as
 * this rank knows it (the root's receive or send side, the others' own side: they agree
 * by the type-signature rule); allgatherv: the total of all blocks; gatherv, scatterv,
 * alltoallv, alltoallw: 0, since not every rank knows a total.
 *
 * The nonblocking forms (MPI_Igather, ...) share the checks and the call of their
 * blocking twins; the helpers take the request pointer, NULL for a blocking call, and the
 * mode.  The persistent forms (MPI_Gather_init, ... at the end of the file) are the
 * nonblocking ones in COLL_MODE_PERSISTENT; their MPI_Info is not read.
 *
 * MPI_IN_PLACE (MPI-3.1): the root's send buffer of gather(v), the root's receive buffer
 * of scatter(v) (kept in rbuf, coll.h), and the send buffer on every rank of
 * allgather(v) and alltoall(v/w).  Anywhere else it is MPI_ERR_ARG.
 */
#include "core/mpi/coll_args.h"

#include <stdlib.h>

/* ---- gather and scatter -------------------------------------------------------------- */

/*
 * The rooted data movers share one shape: the root has a "many" side (p blocks, plain
 * or v) and a "one" side (its own block, or MPI_IN_PLACE); the others have only the
 * one side.  For gather(v) "many" is the receive side, for scatter(v) the send side.
 */
typedef struct ca_rooted {
    const void *one_buf; /* sendbuf of a gather, recvbuf of a scatter */
    MPI_Count one_count;
    MPI_Datatype one_type;
    const void *many_buf;
    MPI_Count many_count;   /* plain kinds */
    const int *many_counts; /* v kinds */
    const int *many_displs;
    MPI_Datatype many_type;
    int root;
    int v;       /* 1: gatherv/scatterv (many_counts, many_displs) */
    int scatter; /* 1: scatter(v), the "one" side receives */
} ca_rooted_t;

static int ca_rooted_check(compi_comm_t *c, const ca_rooted_t *a, const char *fn,
                           compi_datatype_t **one_dt_p, compi_datatype_t **many_dt_p,
                           int *in_place_p)
{
    mpi_arg_side_t one_side = a->scatter ? MPI_ARG_RECV : MPI_ARG_SEND;
    const char *many_what = a->scatter ? "send buffer" : "receive buffer";
    int rc = ca_root(c, a->root, fn);
    *one_dt_p = *many_dt_p = NULL;
    *in_place_p = 0;
    if (rc != MPI_SUCCESS || (ca_is_intercomm(c) && a->root == MPI_PROC_NULL)) {
        return rc; /* an intercommunicator's root group, but the root: no arguments */
    }
    if (!ca_is_root(c, a->root)) {
        rc = ca_no_in_place(c, a->one_buf,
                            a->scatter ? "receive buffer of a non-root rank"
                                       : "send buffer of a non-root rank",
                            fn);
        if (rc == MPI_SUCCESS) {
            rc = mpi_arg_data(c, a->one_buf, a->one_count, a->one_type, one_side, fn, one_dt_p);
        }
        return rc;
    }
    size_t many_total = 0;
    rc = ca_no_in_place(c, a->many_buf, many_what, fn);
    if (rc == MPI_SUCCESS) {
        rc = ca_blocks(c, a->many_buf, a->scatter, a->v, a->many_count, c->size, a->many_counts,
                       a->many_displs, a->many_type, fn, many_dt_p, &many_total);
    }
    if (rc != MPI_SUCCESS || ca_is_intercomm(c)) {
        return rc; /* an intercommunicator's root has only the "many" side */
    }
    if (a->one_buf == MPI_IN_PLACE) {
        *in_place_p = 1; /* the root's own block stays where it is in the "many" buffer */
        return MPI_SUCCESS;
    }
    rc = mpi_arg_data(c, a->one_buf, a->one_count, a->one_type, one_side, fn, one_dt_p);
    if (rc == MPI_SUCCESS) {
        rc = ca_alias(c, a->one_buf, a->many_buf, (size_t)a->one_count * (*one_dt_p)->size,
                      many_total * (*many_dt_p)->size, fn);
    }
    return rc;
}

/* the key's bytes of a plain gather/scatter: one rank's block, as this rank knows it */
static size_t ca_rooted_bytes(const compi_comm_t *c, const ca_rooted_t *a,
                              const compi_datatype_t *one_dt, const compi_datatype_t *many_dt)
{
    if (ca_is_root(c, a->root)) {
        return (size_t)a->many_count * many_dt->size;
    }
    return one_dt != NULL ? (size_t)a->one_count * one_dt->size : 0;
}

/* one side of a call: the send side (send != 0) or the receive side */
static void ca_call_side(coll_call_t *call, int send, const void *buf, size_t count,
                         compi_datatype_t *dt, const int *counts, const int *displs)
{
    if (send) {
        call->sbuf = buf;
        call->scount = count;
        call->sdt = dt;
        call->scounts = counts;
        call->sdispls = displs;
    } else {
        call->rbuf = (void *)buf;
        call->rcount = count;
        call->rdt = dt;
        call->rcounts = counts;
        call->rdispls = displs;
    }
}

/* gather(v) and scatter(v): the "one" side sends in a gather and receives in a scatter */
static int rooted_any(coll_kind_t kind, const ca_rooted_t *a, MPI_Comm comm, MPI_Request *req,
                      coll_mode_t mode, const char *fn)
{
    compi_comm_t *c = NULL;
    compi_datatype_t *one_dt = NULL, *many_dt = NULL;
    int in_place = 0;
    int rc = req != NULL ? ca_request(NULL, req, fn) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS) {
        rc = ca_comm(comm, fn, &c);
    }
    if (rc == MPI_SUCCESS) {
        rc = ca_rooted_check(c, a, fn, &one_dt, &many_dt, &in_place);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    coll_call_t call = {
        .mode = mode, .kind = kind, .comm = c, .root = a->root, .in_place = in_place};
    ca_call_side(&call, !a->scatter, a->one_buf, in_place ? 0 : (size_t)a->one_count, one_dt, NULL,
                 NULL);
    if (ca_is_root(c, a->root)) {
        ca_call_side(&call, a->scatter, a->many_buf, a->v ? 0 : (size_t)a->many_count, many_dt,
                     a->many_counts, a->many_displs);
    }
    call.bytes = a->v ? 0 : ca_rooted_bytes(c, a, one_dt, many_dt);
    return ca_go(&call, req, fn);
}

/* MPI_Gather, MPI_Scatter and their nonblocking, persistent and _c forms */
static int gather_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Request *req, coll_mode_t mode, const char *fn)
{
    ca_rooted_t a = {.one_buf = sendbuf,
                     .one_count = sendcount,
                     .one_type = sendtype,
                     .many_buf = recvbuf,
                     .many_count = recvcount,
                     .many_type = recvtype,
                     .root = root};
    return rooted_any(COLL_GATHER, &a, comm, req, mode, fn);
}

static int scatter_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Request *req, coll_mode_t mode, const char *fn)
{
    ca_rooted_t a = {.one_buf = recvbuf,
                     .one_count = recvcount,
                     .one_type = recvtype,
                     .many_buf = sendbuf,
                     .many_count = sendcount,
                     .many_type = sendtype,
                     .root = root,
                     .scatter = 1};
    return rooted_any(COLL_SCATTER, &a, comm, req, mode, fn);
}

#pragma weak MPI_Gather = PMPI_Gather
int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Gather");
    return gather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, NULL,
                       COLL_MODE_BLOCKING, "MPI_Gather");
}

#pragma weak MPI_Gather_c = PMPI_Gather_c
int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Gather_c");
    return gather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, NULL,
                       COLL_MODE_BLOCKING, "MPI_Gather_c");
}

#pragma weak MPI_Igather = PMPI_Igather
int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Igather");
    return gather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                       request, COLL_MODE_NONBLOCKING, "MPI_Igather");
}

#pragma weak MPI_Igather_c = PMPI_Igather_c
int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Igather_c");
    return gather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                       request, COLL_MODE_NONBLOCKING, "MPI_Igather_c");
}

#pragma weak MPI_Gatherv = PMPI_Gatherv
int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Gatherv");
    ca_rooted_t a = {.one_buf = sendbuf,
                     .one_count = sendcount,
                     .one_type = sendtype,
                     .many_buf = recvbuf,
                     .many_counts = recvcounts,
                     .many_displs = displs,
                     .many_type = recvtype,
                     .root = root,
                     .v = 1};
    return rooted_any(COLL_GATHERV, &a, comm, NULL, COLL_MODE_BLOCKING, "MPI_Gatherv");
}

#pragma weak MPI_Igatherv = PMPI_Igatherv
int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Igatherv");
    ca_rooted_t a = {.one_buf = sendbuf,
                     .one_count = sendcount,
                     .one_type = sendtype,
                     .many_buf = recvbuf,
                     .many_counts = recvcounts,
                     .many_displs = displs,
                     .many_type = recvtype,
                     .root = root,
                     .v = 1};
    return rooted_any(COLL_GATHERV, &a, comm, request, COLL_MODE_NONBLOCKING, "MPI_Igatherv");
}

#pragma weak MPI_Scatter = PMPI_Scatter
int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Scatter");
    return scatter_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                        NULL, COLL_MODE_BLOCKING, "MPI_Scatter");
}

#pragma weak MPI_Scatter_c = PMPI_Scatter_c
int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Scatter_c");
    return scatter_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                        NULL, COLL_MODE_BLOCKING, "MPI_Scatter_c");
}

#pragma weak MPI_Iscatter = PMPI_Iscatter
int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iscatter");
    return scatter_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                        request, COLL_MODE_NONBLOCKING, "MPI_Iscatter");
}

#pragma weak MPI_Iscatter_c = PMPI_Iscatter_c
int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iscatter_c");
    return scatter_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                        request, COLL_MODE_NONBLOCKING, "MPI_Iscatter_c");
}

#pragma weak MPI_Scatterv = PMPI_Scatterv
int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Scatterv");
    ca_rooted_t a = {.one_buf = recvbuf,
                     .one_count = recvcount,
                     .one_type = recvtype,
                     .many_buf = sendbuf,
                     .many_counts = sendcounts,
                     .many_displs = displs,
                     .many_type = sendtype,
                     .root = root,
                     .v = 1,
                     .scatter = 1};
    return rooted_any(COLL_SCATTERV, &a, comm, NULL, COLL_MODE_BLOCKING, "MPI_Scatterv");
}

#pragma weak MPI_Iscatterv = PMPI_Iscatterv
int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iscatterv");
    ca_rooted_t a = {.one_buf = recvbuf,
                     .one_count = recvcount,
                     .one_type = recvtype,
                     .many_buf = sendbuf,
                     .many_counts = sendcounts,
                     .many_displs = displs,
                     .many_type = sendtype,
                     .root = root,
                     .v = 1,
                     .scatter = 1};
    return rooted_any(COLL_SCATTERV, &a, comm, request, COLL_MODE_NONBLOCKING, "MPI_Iscatterv");
}

/* ---- allgather and alltoall ------------------------------------------------------------ */

/*
 * allgather(v) and alltoall(v): every rank has a receive side of p blocks and a send
 * side (one block for allgather, p blocks for alltoall) or MPI_IN_PLACE.
 */
typedef struct ca_all {
    const void *sbuf;
    MPI_Count scount;
    const int *scounts, *sdispls; /* alltoallv */
    MPI_Datatype stype;
    int s_per_peer; /* alltoall: the send buffer holds p blocks of scount, not one */
    void *rbuf;
    MPI_Count rcount;
    const int *rcounts, *rdispls; /* allgatherv, alltoallv */
    MPI_Datatype rtype;
    int sv, rv; /* the send / receive side uses counts and displacements */
} ca_all_t;

static int all_any(coll_kind_t kind, const ca_all_t *a, MPI_Comm comm, MPI_Request *req,
                   coll_mode_t mode, const char *fn)
{
    compi_comm_t *c = NULL;
    compi_datatype_t *sdt = NULL, *rdt = NULL;
    size_t rtotal = 0, stotal = 0;
    int in_place = a->sbuf == MPI_IN_PLACE;

    int rc = req != NULL ? ca_request(NULL, req, fn) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS) {
        rc = ca_comm(comm, fn, &c);
    }
    if (rc == MPI_SUCCESS) {
        rc = ca_no_in_place(c, a->rbuf, "receive buffer", fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = ca_inter_no_in_place(c, a->sbuf, fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = ca_blocks(c, a->rbuf, 0, a->rv, a->rcount, c->size, a->rcounts, a->rdispls, a->rtype,
                       fn, &rdt, &rtotal);
    }
    if (rc == MPI_SUCCESS && !in_place) {
        rc = ca_blocks(c, a->sbuf, 1, a->sv, a->scount, a->s_per_peer ? c->size : 1, a->scounts,
                       a->sdispls, a->stype, fn, &sdt, &stotal);
        if (rc == MPI_SUCCESS) {
            rc = ca_alias(c, a->sbuf, a->rbuf, stotal * sdt->size, rtotal * rdt->size, fn);
        }
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    coll_call_t call = {.mode = mode,
                        .kind = kind,
                        .comm = c,
                        .root = -1,
                        .in_place = in_place,
                        .sbuf = a->sbuf,
                        .rbuf = a->rbuf,
                        .rcount = a->rv ? 0 : (size_t)a->rcount,
                        .rdt = rdt,
                        .rcounts = a->rv ? a->rcounts : NULL,
                        .rdispls = a->rv ? a->rdispls : NULL};
    if (!in_place) {
        call.scount = a->sv ? 0 : (size_t)a->scount;
        call.sdt = sdt;
        call.scounts = a->sv ? a->scounts : NULL;
        call.sdispls = a->sv ? a->sdispls : NULL;
    }
    switch (kind) {
    case COLL_ALLGATHERV:
        call.bytes = rtotal * rdt->size;
        break;
    case COLL_ALLTOALLV:
        call.bytes = 0;
        break;
    default: /* allgather, alltoall: one block */
        call.bytes = (size_t)a->rcount * rdt->size;
        break;
    }
    return ca_go(&call, req, fn);
}

/* MPI_Allgather, MPI_Alltoall and their nonblocking, persistent and _c forms */
static int allgather_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Request *req, coll_mode_t mode, const char *fn)
{
    ca_all_t a = {.sbuf = sendbuf,
                  .scount = sendcount,
                  .stype = sendtype,
                  .rbuf = recvbuf,
                  .rcount = recvcount,
                  .rtype = recvtype};
    return all_any(COLL_ALLGATHER, &a, comm, req, mode, fn);
}

static int alltoall_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Request *req, coll_mode_t mode, const char *fn)
{
    ca_all_t a = {.sbuf = sendbuf,
                  .scount = sendcount,
                  .stype = sendtype,
                  .s_per_peer = 1,
                  .rbuf = recvbuf,
                  .rcount = recvcount,
                  .rtype = recvtype};
    return all_any(COLL_ALLTOALL, &a, comm, req, mode, fn);
}

#pragma weak MPI_Allgather = PMPI_Allgather
int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Allgather");
    return allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL,
                          COLL_MODE_BLOCKING, "MPI_Allgather");
}

#pragma weak MPI_Allgather_c = PMPI_Allgather_c
int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Allgather_c");
    return allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL,
                          COLL_MODE_BLOCKING, "MPI_Allgather_c");
}

#pragma weak MPI_Iallgather = PMPI_Iallgather
int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iallgather");
    return allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                          COLL_MODE_NONBLOCKING, "MPI_Iallgather");
}

#pragma weak MPI_Iallgather_c = PMPI_Iallgather_c
int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iallgather_c");
    return allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                          COLL_MODE_NONBLOCKING, "MPI_Iallgather_c");
}

#pragma weak MPI_Allgatherv = PMPI_Allgatherv
int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Allgatherv");
    ca_all_t a = {.sbuf = sendbuf,
                  .scount = sendcount,
                  .stype = sendtype,
                  .rbuf = recvbuf,
                  .rcounts = recvcounts,
                  .rdispls = displs,
                  .rtype = recvtype,
                  .rv = 1};
    return all_any(COLL_ALLGATHERV, &a, comm, NULL, COLL_MODE_BLOCKING, "MPI_Allgatherv");
}

#pragma weak MPI_Iallgatherv = PMPI_Iallgatherv
int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iallgatherv");
    ca_all_t a = {.sbuf = sendbuf,
                  .scount = sendcount,
                  .stype = sendtype,
                  .rbuf = recvbuf,
                  .rcounts = recvcounts,
                  .rdispls = displs,
                  .rtype = recvtype,
                  .rv = 1};
    return all_any(COLL_ALLGATHERV, &a, comm, request, COLL_MODE_NONBLOCKING, "MPI_Iallgatherv");
}

#pragma weak MPI_Alltoall = PMPI_Alltoall
int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Alltoall");
    return alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL,
                         COLL_MODE_BLOCKING, "MPI_Alltoall");
}

#pragma weak MPI_Alltoall_c = PMPI_Alltoall_c
int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Alltoall_c");
    return alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL,
                         COLL_MODE_BLOCKING, "MPI_Alltoall_c");
}

#pragma weak MPI_Ialltoall = PMPI_Ialltoall
int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ialltoall");
    return alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                         COLL_MODE_NONBLOCKING, "MPI_Ialltoall");
}

#pragma weak MPI_Ialltoall_c = PMPI_Ialltoall_c
int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ialltoall_c");
    return alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                         COLL_MODE_NONBLOCKING, "MPI_Ialltoall_c");
}

#pragma weak MPI_Alltoallv = PMPI_Alltoallv
int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Alltoallv");
    ca_all_t a = {.sbuf = sendbuf,
                  .scounts = sendcounts,
                  .sdispls = sdispls,
                  .stype = sendtype,
                  .rbuf = recvbuf,
                  .rcounts = recvcounts,
                  .rdispls = rdispls,
                  .rtype = recvtype,
                  .sv = 1,
                  .rv = 1};
    return all_any(COLL_ALLTOALLV, &a, comm, NULL, COLL_MODE_BLOCKING, "MPI_Alltoallv");
}

#pragma weak MPI_Ialltoallv = PMPI_Ialltoallv
int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ialltoallv");
    ca_all_t a = {.sbuf = sendbuf,
                  .scounts = sendcounts,
                  .sdispls = sdispls,
                  .stype = sendtype,
                  .rbuf = recvbuf,
                  .rcounts = recvcounts,
                  .rdispls = rdispls,
                  .rtype = recvtype,
                  .sv = 1,
                  .rv = 1};
    return all_any(COLL_ALLTOALLV, &a, comm, request, COLL_MODE_NONBLOCKING, "MPI_Ialltoallv");
}

/* ---- alltoallw ------------------------------------------------------------------------- */

/* datatypes kept on the stack for communicators up to this size, else malloc'd */
#define CA_W_STACK 64

/*
 * One side of an alltoallw: counts, byte displacements and a datatype per peer.  The
 * handles become objects in dts[]; a peer with count 0 may pass any handle (programs
 * pass MPI_DATATYPE_NULL), and gets MPI_BYTE so algorithms never see NULL.  *bytes_p gets
 * the bytes of data on this side.
 */
static int w_side(compi_comm_t *c, const void *buf, const int *counts, const int *displs,
                  const MPI_Datatype *types, int send, const char *fn, compi_datatype_t **dts,
                  size_t *bytes_p)
{
    const char *what = send ? "send" : "receive";
    size_t total;
    *bytes_p = 0;
    int rc = ca_counts(c, counts, displs, 1, what, fn, &total);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (types == NULL) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "the %s datatypes array is NULL", what);
    }
    for (int i = 0; i < c->size; i++) {
        if (counts[i] == 0 && dt_from_handle(types[i]) == NULL) {
            dts[i] = dt_from_handle(MPI_BYTE);
            continue;
        }
        rc = mpi_arg_type(c, types[i], send ? "send datatype" : "receive datatype", fn, &dts[i]);
        if (rc == MPI_SUCCESS) {
            rc = mpi_arg_buf(c, buf, (size_t)counts[i], dts[i],
                             send ? "send buffer" : "receive buffer", fn);
        }
        if (rc != MPI_SUCCESS) {
            return rc;
        }
        *bytes_p += (size_t)counts[i] * dts[i]->size;
    }
    return MPI_SUCCESS;
}

/* the datatypes travel in the call as objects; a nonblocking call's schedule takes what
   it needs (and references on the types) before this returns */
static int alltoallw_any(const void *sendbuf, const int sendcounts[], const int sdispls[],
                         const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                         const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                         MPI_Request *req, coll_mode_t mode, const char *fn)
{
    compi_datatype_t *stack[2 * CA_W_STACK];
    compi_datatype_t **sdts = stack, **rdts = stack + CA_W_STACK;
    compi_datatype_t **mem = NULL;
    compi_comm_t *c = NULL;
    int in_place = sendbuf == MPI_IN_PLACE;
    size_t sbytes = 0, rbytes = 0;

    int rc = req != NULL ? ca_request(NULL, req, fn) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS) {
        rc = ca_comm(comm, fn, &c);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (c->size > CA_W_STACK) {
        mem = malloc(2 * (size_t)c->size * sizeof(*mem));
        if (mem == NULL) {
            return mpi_err_raise(c, MPI_ERR_NO_MEM, fn, "out of memory for %d datatypes",
                                 2 * c->size);
        }
        sdts = mem;
        rdts = mem + c->size;
    }
    rc = ca_no_in_place(c, recvbuf, "receive buffer", fn);
    if (rc == MPI_SUCCESS) {
        rc = ca_inter_no_in_place(c, sendbuf, fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = w_side(c, recvbuf, recvcounts, rdispls, recvtypes, 0, fn, rdts, &rbytes);
    }
    if (rc == MPI_SUCCESS && !in_place) {
        rc = w_side(c, sendbuf, sendcounts, sdispls, sendtypes, 1, fn, sdts, &sbytes);
    }
    if (rc == MPI_SUCCESS && !in_place) {
        rc = ca_alias(c, sendbuf, recvbuf, sbytes, rbytes, fn);
    }
    if (rc != MPI_SUCCESS) {
        goto out;
    }
    coll_call_t call = {.mode = mode,
                        .kind = COLL_ALLTOALLW,
                        .comm = c,
                        .root = -1,
                        .in_place = in_place,
                        .sbuf = sendbuf,
                        .rbuf = recvbuf,
                        .rcounts = recvcounts,
                        .rdispls = rdispls,
                        .rdts = rdts,
                        .bytes = 0};
    if (!in_place) {
        call.scounts = sendcounts;
        call.sdispls = sdispls;
        call.sdts = sdts;
    }
    rc = ca_go(&call, req, fn);
out:
    free(mem);
    return rc;
}

#pragma weak MPI_Alltoallw = PMPI_Alltoallw
int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Alltoallw");
    return alltoallw_any(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                         recvtypes, comm, NULL, COLL_MODE_BLOCKING, "MPI_Alltoallw");
}

#pragma weak MPI_Ialltoallw = PMPI_Ialltoallw
int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ialltoallw");
    return alltoallw_any(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                         recvtypes, comm, request, COLL_MODE_NONBLOCKING, "MPI_Ialltoallw");
}

/* ---- persistent (MPI-4): the nonblocking forms' checks and call, in persistent mode ---- */

#pragma weak MPI_Gather_init = PMPI_Gather_init
int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Gather_init");
    return gather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                       request, COLL_MODE_PERSISTENT, "MPI_Gather_init");
}

#pragma weak MPI_Gather_init_c = PMPI_Gather_init_c
int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Gather_init_c");
    return gather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                       request, COLL_MODE_PERSISTENT, "MPI_Gather_init_c");
}

#pragma weak MPI_Gatherv_init = PMPI_Gatherv_init
int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Gatherv_init");
    ca_rooted_t a = {.one_buf = sendbuf,
                     .one_count = sendcount,
                     .one_type = sendtype,
                     .many_buf = recvbuf,
                     .many_counts = recvcounts,
                     .many_displs = displs,
                     .many_type = recvtype,
                     .root = root,
                     .v = 1};
    return rooted_any(COLL_GATHERV, &a, comm, request, COLL_MODE_PERSISTENT, "MPI_Gatherv_init");
}

#pragma weak MPI_Scatter_init = PMPI_Scatter_init
int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Scatter_init");
    return scatter_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                        request, COLL_MODE_PERSISTENT, "MPI_Scatter_init");
}

#pragma weak MPI_Scatter_init_c = PMPI_Scatter_init_c
int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Scatter_init_c");
    return scatter_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                        request, COLL_MODE_PERSISTENT, "MPI_Scatter_init_c");
}

#pragma weak MPI_Scatterv_init = PMPI_Scatterv_init
int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Scatterv_init");
    ca_rooted_t a = {.one_buf = recvbuf,
                     .one_count = recvcount,
                     .one_type = recvtype,
                     .many_buf = sendbuf,
                     .many_counts = sendcounts,
                     .many_displs = displs,
                     .many_type = sendtype,
                     .root = root,
                     .v = 1,
                     .scatter = 1};
    return rooted_any(COLL_SCATTERV, &a, comm, request, COLL_MODE_PERSISTENT, "MPI_Scatterv_init");
}

#pragma weak MPI_Allgather_init = PMPI_Allgather_init
int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Allgather_init");
    return allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                          COLL_MODE_PERSISTENT, "MPI_Allgather_init");
}

#pragma weak MPI_Allgather_init_c = PMPI_Allgather_init_c
int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Allgather_init_c");
    return allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                          COLL_MODE_PERSISTENT, "MPI_Allgather_init_c");
}

#pragma weak MPI_Allgatherv_init = PMPI_Allgatherv_init
int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Allgatherv_init");
    ca_all_t a = {.sbuf = sendbuf,
                  .scount = sendcount,
                  .stype = sendtype,
                  .rbuf = recvbuf,
                  .rcounts = recvcounts,
                  .rdispls = displs,
                  .rtype = recvtype,
                  .rv = 1};
    return all_any(COLL_ALLGATHERV, &a, comm, request, COLL_MODE_PERSISTENT, "MPI_Allgatherv_init");
}

#pragma weak MPI_Alltoall_init = PMPI_Alltoall_init
int PMPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Alltoall_init");
    return alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                         COLL_MODE_PERSISTENT, "MPI_Alltoall_init");
}

#pragma weak MPI_Alltoall_init_c = PMPI_Alltoall_init_c
int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Alltoall_init_c");
    return alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                         COLL_MODE_PERSISTENT, "MPI_Alltoall_init_c");
}

#pragma weak MPI_Alltoallv_init = PMPI_Alltoallv_init
int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Alltoallv_init");
    ca_all_t a = {.sbuf = sendbuf,
                  .scounts = sendcounts,
                  .sdispls = sdispls,
                  .stype = sendtype,
                  .rbuf = recvbuf,
                  .rcounts = recvcounts,
                  .rdispls = rdispls,
                  .rtype = recvtype,
                  .sv = 1,
                  .rv = 1};
    return all_any(COLL_ALLTOALLV, &a, comm, request, COLL_MODE_PERSISTENT, "MPI_Alltoallv_init");
}

#pragma weak MPI_Alltoallw_init = PMPI_Alltoallw_init
int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Alltoallw_init");
    return alltoallw_any(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                         recvtypes, comm, request, COLL_MODE_PERSISTENT, "MPI_Alltoallw_init");
}
