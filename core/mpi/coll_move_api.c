/*
 * coll_move_api.c -- the data-moving collectives, gather(v), scatter(v), allgather(v),
 * alltoall(v/w): one x_impl each (coll_impl.h) behind the entry points generated into
 * core/mpi/gen/coll_move.c, included at the end.  Argument checks (mpi_arg_*), then the
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
 * MPI_IN_PLACE (MPI-3.1): the root's send buffer of gather(v), the root's receive buffer
 * of scatter(v) (kept in rbuf, coll.h), and the send buffer on every rank of
 * allgather(v) and alltoall(v/w).  Anywhere else it is MPI_ERR_ARG.
 */
#include "core/mpi/coll_impl.h"

#include <stdlib.h>

/* ---- gather and scatter -------------------------------------------------------------- */

/*
 * The rooted data movers share one shape: the root has a "many" side (p blocks, plain
 * or v) and a "one" side (its own block, or MPI_IN_PLACE); the others have only the
 * one side.  For gather(v) "many" is the receive side, for scatter(v) the send side.
 */
typedef struct rooted_args {
    const void *one_buf; /* sendbuf of a gather, recvbuf of a scatter */
    MPI_Count one_count;
    MPI_Datatype one_type;
    const void *many_buf;
    MPI_Count many_count;   /* plain kinds */
    coll_vec_t many_counts; /* v kinds */
    coll_vec_t many_displs;
    MPI_Datatype many_type;
    int root;
    int v;       /* 1: gatherv/scatterv (many_counts, many_displs) */
    int scatter; /* 1: scatter(v), the "one" side receives */
} rooted_args_t;

static int rooted_check(compi_comm_t *c, const rooted_args_t *a, const char *fn,
                        compi_datatype_t **one_dt_p, compi_datatype_t **many_dt_p, int *in_place_p)
{
    mpi_arg_side_t one_side = a->scatter ? MPI_ARG_RECV : MPI_ARG_SEND;
    const char *many_what = a->scatter ? "send buffer" : "receive buffer";
    int rc = mpi_arg_coll_root(c, a->root, fn);
    *one_dt_p = *many_dt_p = NULL;
    *in_place_p = 0;
    if (rc != MPI_SUCCESS || (comm_is_inter(c) && a->root == MPI_PROC_NULL)) {
        return rc; /* an intercommunicator's root group, but the root: no arguments */
    }
    if (!mpi_coll_is_root(c, a->root)) {
        rc = mpi_arg_no_in_place(c, a->one_buf,
                                 a->scatter ? "receive buffer of a non-root rank"
                                            : "send buffer of a non-root rank",
                                 fn);
        if (rc == MPI_SUCCESS) {
            rc = mpi_arg_data(c, a->one_buf, a->one_count, a->one_type, one_side, fn, one_dt_p);
        }
        return rc;
    }
    size_t many_total = 0;
    rc = mpi_arg_no_in_place(c, a->many_buf, many_what, fn);
    if (rc == MPI_SUCCESS) {
        rc =
            mpi_arg_blocks(c, a->many_buf, a->scatter, a->v, a->many_count, c->size, a->many_counts,
                           a->many_displs, a->many_type, fn, many_dt_p, &many_total);
    }
    if (rc != MPI_SUCCESS || comm_is_inter(c)) {
        return rc; /* an intercommunicator's root has only the "many" side */
    }
    if (a->one_buf == MPI_IN_PLACE) {
        *in_place_p = 1; /* the root's own block stays where it is in the "many" buffer */
        return MPI_SUCCESS;
    }
    rc = mpi_arg_data(c, a->one_buf, a->one_count, a->one_type, one_side, fn, one_dt_p);
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_alias(c, a->one_buf, a->many_buf, (size_t)a->one_count * (*one_dt_p)->size,
                           many_total * (*many_dt_p)->size, fn);
    }
    return rc;
}

/* the key's bytes of a plain gather/scatter: one rank's block, as this rank knows it */
static size_t rooted_bytes(const compi_comm_t *c, const rooted_args_t *a,
                           const compi_datatype_t *one_dt, const compi_datatype_t *many_dt)
{
    if (mpi_coll_is_root(c, a->root)) {
        return (size_t)a->many_count * many_dt->size;
    }
    return one_dt != NULL ? (size_t)a->one_count * one_dt->size : 0;
}

/* one side of a call: the send side (send != 0) or the receive side */
static void call_side(coll_call_t *call, int send, const void *buf, size_t count,
                      compi_datatype_t *dt, coll_vec_t counts, coll_vec_t displs)
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
static int rooted_any(coll_kind_t kind, const rooted_args_t *a, compi_comm_t *c, MPI_Request *req,
                      coll_mode_t mode, const char *fn)
{
    compi_datatype_t *one_dt = NULL, *many_dt = NULL;
    int in_place = 0;
    int rc = MPI_SUCCESS;
    mpi_coll_request(req, mode);
    if (rc == MPI_SUCCESS) {
        rc = rooted_check(c, a, fn, &one_dt, &many_dt, &in_place);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    coll_call_t call = {
        .mode = mode, .kind = kind, .comm = c, .root = a->root, .in_place = in_place};
    call_side(&call, !a->scatter, a->one_buf, in_place ? 0 : (size_t)a->one_count, one_dt,
              (coll_vec_t){0}, (coll_vec_t){0});
    if (mpi_coll_is_root(c, a->root)) {
        call_side(&call, a->scatter, a->many_buf, a->v ? 0 : (size_t)a->many_count, many_dt,
                  a->many_counts, a->many_displs);
    }
    call.bytes = a->v ? 0 : rooted_bytes(c, a, one_dt, many_dt);
    return mpi_coll_go(&call, req, fn);
}

static int gather_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       compi_comm_t *comm, MPI_Request *req, coll_mode_t mode, const char *fn)
{
    rooted_args_t a = {.one_buf = sendbuf,
                       .one_count = sendcount,
                       .one_type = sendtype,
                       .many_buf = recvbuf,
                       .many_count = recvcount,
                       .many_type = recvtype,
                       .root = root};
    return rooted_any(COLL_GATHER, &a, comm, req, mode, fn);
}

static int gatherv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, coll_vec_t recvcounts, coll_vec_t displs,
                        MPI_Datatype recvtype, int root, compi_comm_t *comm, MPI_Request *req,
                        coll_mode_t mode, const char *fn)
{
    rooted_args_t a = {.one_buf = sendbuf,
                       .one_count = sendcount,
                       .one_type = sendtype,
                       .many_buf = recvbuf,
                       .many_counts = recvcounts,
                       .many_displs = displs,
                       .many_type = recvtype,
                       .root = root,
                       .v = 1};
    return rooted_any(COLL_GATHERV, &a, comm, req, mode, fn);
}

static int scatter_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        compi_comm_t *comm, MPI_Request *req, coll_mode_t mode, const char *fn)
{
    rooted_args_t a = {.one_buf = recvbuf,
                       .one_count = recvcount,
                       .one_type = recvtype,
                       .many_buf = sendbuf,
                       .many_count = sendcount,
                       .many_type = sendtype,
                       .root = root,
                       .scatter = 1};
    return rooted_any(COLL_SCATTER, &a, comm, req, mode, fn);
}

static int scatterv_impl(const void *sendbuf, coll_vec_t sendcounts, coll_vec_t displs,
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, compi_comm_t *comm, MPI_Request *req,
                         coll_mode_t mode, const char *fn)
{
    rooted_args_t a = {.one_buf = recvbuf,
                       .one_count = recvcount,
                       .one_type = recvtype,
                       .many_buf = sendbuf,
                       .many_counts = sendcounts,
                       .many_displs = displs,
                       .many_type = sendtype,
                       .root = root,
                       .v = 1,
                       .scatter = 1};
    return rooted_any(COLL_SCATTERV, &a, comm, req, mode, fn);
}

/* ---- allgather and alltoall ------------------------------------------------------------ */

/*
 * allgather(v) and alltoall(v): every rank has a receive side of p blocks and a send
 * side (one block for allgather, p blocks for alltoall) or MPI_IN_PLACE.
 */
typedef struct all_args {
    const void *sbuf;
    MPI_Count scount;
    coll_vec_t scounts, sdispls; /* alltoallv */
    MPI_Datatype stype;
    int s_per_peer; /* alltoall: the send buffer holds p blocks of scount, not one */
    void *rbuf;
    MPI_Count rcount;
    coll_vec_t rcounts, rdispls; /* allgatherv, alltoallv */
    MPI_Datatype rtype;
    int sv, rv; /* the send / receive side uses counts and displacements */
} all_args_t;

static int all_any(coll_kind_t kind, const all_args_t *a, compi_comm_t *c, MPI_Request *req,
                   coll_mode_t mode, const char *fn)
{
    compi_datatype_t *sdt = NULL, *rdt = NULL;
    size_t rtotal = 0, stotal = 0;
    int in_place = a->sbuf == MPI_IN_PLACE;

    int rc = MPI_SUCCESS;
    mpi_coll_request(req, mode);
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_no_in_place(c, a->rbuf, "receive buffer", fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_inter_no_in_place(c, a->sbuf, fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_blocks(c, a->rbuf, 0, a->rv, a->rcount, c->size, a->rcounts, a->rdispls,
                            a->rtype, fn, &rdt, &rtotal);
    }
    if (rc == MPI_SUCCESS && !in_place) {
        rc = mpi_arg_blocks(c, a->sbuf, 1, a->sv, a->scount, a->s_per_peer ? c->size : 1,
                            a->scounts, a->sdispls, a->stype, fn, &sdt, &stotal);
        if (rc == MPI_SUCCESS) {
            rc = mpi_arg_alias(c, a->sbuf, a->rbuf, stotal * sdt->size, rtotal * rdt->size, fn);
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
                        .rdt = rdt};
    if (a->rv) {
        call.rcounts = a->rcounts;
        call.rdispls = a->rdispls;
    }
    if (!in_place) {
        call.scount = a->sv ? 0 : (size_t)a->scount;
        call.sdt = sdt;
        if (a->sv) {
            call.scounts = a->scounts;
            call.sdispls = a->sdispls;
        }
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
    return mpi_coll_go(&call, req, fn);
}

static int allgather_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                          compi_comm_t *comm, MPI_Request *req, coll_mode_t mode, const char *fn)
{
    all_args_t a = {.sbuf = sendbuf,
                    .scount = sendcount,
                    .stype = sendtype,
                    .rbuf = recvbuf,
                    .rcount = recvcount,
                    .rtype = recvtype};
    return all_any(COLL_ALLGATHER, &a, comm, req, mode, fn);
}

static int allgatherv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, coll_vec_t recvcounts, coll_vec_t displs,
                           MPI_Datatype recvtype, compi_comm_t *comm, MPI_Request *req,
                           coll_mode_t mode, const char *fn)
{
    all_args_t a = {.sbuf = sendbuf,
                    .scount = sendcount,
                    .stype = sendtype,
                    .rbuf = recvbuf,
                    .rcounts = recvcounts,
                    .rdispls = displs,
                    .rtype = recvtype,
                    .rv = 1};
    return all_any(COLL_ALLGATHERV, &a, comm, req, mode, fn);
}

static int alltoall_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                         compi_comm_t *comm, MPI_Request *req, coll_mode_t mode, const char *fn)
{
    all_args_t a = {.sbuf = sendbuf,
                    .scount = sendcount,
                    .stype = sendtype,
                    .s_per_peer = 1,
                    .rbuf = recvbuf,
                    .rcount = recvcount,
                    .rtype = recvtype};
    return all_any(COLL_ALLTOALL, &a, comm, req, mode, fn);
}

static int alltoallv_impl(const void *sendbuf, coll_vec_t sendcounts, coll_vec_t sdispls,
                          MPI_Datatype sendtype, void *recvbuf, coll_vec_t recvcounts,
                          coll_vec_t rdispls, MPI_Datatype recvtype, compi_comm_t *comm,
                          MPI_Request *req, coll_mode_t mode, const char *fn)
{
    all_args_t a = {.sbuf = sendbuf,
                    .scounts = sendcounts,
                    .sdispls = sdispls,
                    .stype = sendtype,
                    .rbuf = recvbuf,
                    .rcounts = recvcounts,
                    .rdispls = rdispls,
                    .rtype = recvtype,
                    .sv = 1,
                    .rv = 1};
    return all_any(COLL_ALLTOALLV, &a, comm, req, mode, fn);
}

/* ---- alltoallw ------------------------------------------------------------------------- */

/* datatypes kept on the stack for communicators up to this size, else malloc'd */
#define W_STACK 64

/*
 * One side of an alltoallw: counts, byte displacements and a datatype per peer.  The
 * handles become objects in dts[]; a peer with count 0 may pass any handle (programs
 * pass MPI_DATATYPE_NULL), and gets MPI_BYTE so algorithms never see NULL.  *bytes_p gets
 * the bytes of data on this side.
 */
static int w_side(compi_comm_t *c, const void *buf, coll_vec_t counts, coll_vec_t displs,
                  const MPI_Datatype *types, int send, const char *fn, compi_datatype_t **dts,
                  size_t *bytes_p)
{
    const char *what = send ? "send" : "receive";
    size_t total;
    *bytes_p = 0;
    int rc = mpi_arg_counts(c, counts, displs, 1, c->size, what, fn, &total);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (types == NULL) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "the %s datatypes array is NULL", what);
    }
    for (int i = 0; i < c->size; i++) {
        size_t n = (size_t)coll_vec_at(counts, i);
        if (n == 0 && dt_from_handle(types[i]) == NULL) {
            dts[i] = dt_from_handle(MPI_BYTE);
            continue;
        }
        rc = mpi_arg_type(c, types[i], send ? "send datatype" : "receive datatype", fn, &dts[i]);
        if (rc == MPI_SUCCESS) {
            rc = mpi_arg_buf(c, buf, n, dts[i], send ? "send buffer" : "receive buffer", fn);
        }
        if (rc != MPI_SUCCESS) {
            return rc;
        }
        *bytes_p += n * dts[i]->size;
    }
    return MPI_SUCCESS;
}

/* the datatypes travel in the call as objects; a nonblocking call's schedule takes what
   it needs (and references on the types) before this returns */
static int alltoallw_impl(const void *sendbuf, coll_vec_t sendcounts, coll_vec_t sdispls,
                          const MPI_Datatype sendtypes[], void *recvbuf, coll_vec_t recvcounts,
                          coll_vec_t rdispls, const MPI_Datatype recvtypes[], compi_comm_t *c,
                          MPI_Request *req, coll_mode_t mode, const char *fn)
{
    compi_datatype_t *stack[2 * W_STACK];
    compi_datatype_t **sdts = stack, **rdts = stack + W_STACK;
    compi_datatype_t **mem = NULL;
    int in_place = sendbuf == MPI_IN_PLACE;
    size_t sbytes = 0, rbytes = 0;

    int rc = MPI_SUCCESS;
    mpi_coll_request(req, mode);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (c->size > W_STACK) {
        mem = malloc(2 * (size_t)c->size * sizeof(*mem));
        if (mem == NULL) {
            return mpi_err_raise(c, MPI_ERR_NO_MEM, fn, "out of memory for %d datatypes",
                                 2 * c->size);
        }
        sdts = mem;
        rdts = mem + c->size;
    }
    rc = mpi_arg_no_in_place(c, recvbuf, "receive buffer", fn);
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_inter_no_in_place(c, sendbuf, fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = w_side(c, recvbuf, recvcounts, rdispls, recvtypes, 0, fn, rdts, &rbytes);
    }
    if (rc == MPI_SUCCESS && !in_place) {
        rc = w_side(c, sendbuf, sendcounts, sdispls, sendtypes, 1, fn, sdts, &sbytes);
    }
    if (rc == MPI_SUCCESS && !in_place) {
        rc = mpi_arg_alias(c, sendbuf, recvbuf, sbytes, rbytes, fn);
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
    rc = mpi_coll_go(&call, req, fn);
out:
    free(mem);
    return rc;
}

#include "core/mpi/gen/coll_move.c"
