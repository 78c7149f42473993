/*
 * neighbor_api.c -- the neighbourhood collectives, neighbor-allgather(v) and
 * neighbor-alltoall(v/w): one x_impl each (coll_impl.h) behind the entry points
 * generated into core/mpi/gen/neighbor.c, included at the end.  Argument checks
 * (mpi_arg_*), then the trampoline, as in coll_api.c.
 *
 * The communicator must carry a process topology (MPI_ERR_TOPOLOGY otherwise); it fixes
 * how many blocks each side has: one per in-neighbour on the receive side, one per
 * out-neighbour on the send side (allgather(v): one send block, sent to all of them).
 * MPI_IN_PLACE is not allowed (MPI_ERR_ARG).
 *
 * The key's bytes (coll.h): neighbor-allgather and neighbor-alltoall: one block, as this
 * process knows it; the v and w kinds: 0.
 */
#include "core/comm/topo.h"
#include "core/mpi/coll_impl.h"

#include <stdlib.h>

/* peers whose datatypes a w call keeps on the stack */
#define NB_W_STACK 32

/* the request handle, the communicator's topology, no MPI_IN_PLACE */
static int nb_start(compi_comm_t *c, const void *sbuf, const void *rbuf, MPI_Request *req,
                    coll_mode_t mode, const char *fn)
{
    mpi_coll_request(req, mode);
    int rc = mpi_arg_topo(c, fn);
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_no_in_place(c, sbuf, "send buffer", fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_no_in_place(c, rbuf, "receive buffer", fn);
    }
    return rc;
}

/* ---- allgather(v) and alltoall(v): one datatype per side ----------------------------- */

typedef struct nb_args {
    const void *sbuf;
    MPI_Count scount;
    coll_vec_t scounts, sdispls; /* alltoallv */
    MPI_Datatype stype;
    void *rbuf;
    MPI_Count rcount;
    coll_vec_t rcounts, rdispls; /* v kinds */
    MPI_Datatype rtype;
} nb_args_t;

static int nb_run(coll_kind_t kind, const nb_args_t *a, compi_comm_t *c, MPI_Request *req,
                  coll_mode_t mode, const char *fn)
{
    compi_datatype_t *sdt = NULL, *rdt = NULL;
    size_t stotal = 0, rtotal = 0;
    int sv = kind == COLL_NEIGHBOR_ALLTOALLV;
    int rv = sv || kind == COLL_NEIGHBOR_ALLGATHERV;
    int gather = kind != COLL_NEIGHBOR_ALLTOALL && kind != COLL_NEIGHBOR_ALLTOALLV;

    int rc = nb_start(c, a->sbuf, a->rbuf, req, mode, fn);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    const comm_topo_t *t = c->topo;
    /* send side: one block (allgather), outdegree blocks (alltoall), or counts */
    rc = mpi_arg_blocks(c, a->sbuf, 1, sv, a->scount, gather ? 1 : t->outdegree, a->scounts,
                        a->sdispls, a->stype, fn, &sdt, &stotal);
    /* receive side: indegree blocks */
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_blocks(c, a->rbuf, 0, rv, a->rcount, t->indegree, a->rcounts, a->rdispls,
                            a->rtype, fn, &rdt, &rtotal);
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_alias(c, a->sbuf, a->rbuf, stotal * sdt->size, rtotal * rdt->size, fn);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    coll_call_t call = {.kind = kind,
                        .mode = mode,
                        .comm = c,
                        .root = -1,
                        .sbuf = a->sbuf,
                        .rbuf = a->rbuf,
                        .scount = sv ? 0 : (size_t)a->scount,
                        .rcount = rv ? 0 : (size_t)a->rcount,
                        .sdt = sdt,
                        .rdt = rdt,
                        .scounts = a->scounts,
                        .sdispls = a->sdispls,
                        .rcounts = a->rcounts,
                        .rdispls = a->rdispls,
                        .bytes = rv ? 0 : (size_t)a->scount * sdt->size};
    return mpi_coll_go(&call, req, fn);
}

static int neighbor_allgather_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                   compi_comm_t *comm, MPI_Request *req, coll_mode_t mode,
                                   const char *fn)
{
    nb_args_t a = {.sbuf = sendbuf,
                   .scount = sendcount,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcount = recvcount,
                   .rtype = recvtype};
    return nb_run(COLL_NEIGHBOR_ALLGATHER, &a, comm, req, mode, fn);
}

static int neighbor_allgatherv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                    void *recvbuf, coll_vec_t recvcounts, coll_vec_t displs,
                                    MPI_Datatype recvtype, compi_comm_t *comm, MPI_Request *req,
                                    coll_mode_t mode, const char *fn)
{
    nb_args_t a = {.sbuf = sendbuf,
                   .scount = sendcount,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcounts = recvcounts,
                   .rdispls = displs,
                   .rtype = recvtype};
    return nb_run(COLL_NEIGHBOR_ALLGATHERV, &a, comm, req, mode, fn);
}

static int neighbor_alltoall_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                  compi_comm_t *comm, MPI_Request *req, coll_mode_t mode,
                                  const char *fn)
{
    nb_args_t a = {.sbuf = sendbuf,
                   .scount = sendcount,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcount = recvcount,
                   .rtype = recvtype};
    return nb_run(COLL_NEIGHBOR_ALLTOALL, &a, comm, req, mode, fn);
}

static int neighbor_alltoallv_impl(const void *sendbuf, coll_vec_t sendcounts, coll_vec_t sdispls,
                                   MPI_Datatype sendtype, void *recvbuf, coll_vec_t recvcounts,
                                   coll_vec_t rdispls, MPI_Datatype recvtype, compi_comm_t *comm,
                                   MPI_Request *req, coll_mode_t mode, const char *fn)
{
    nb_args_t a = {.sbuf = sendbuf,
                   .scounts = sendcounts,
                   .sdispls = sdispls,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcounts = recvcounts,
                   .rdispls = rdispls,
                   .rtype = recvtype};
    return nb_run(COLL_NEIGHBOR_ALLTOALLV, &a, comm, req, mode, fn);
}

/* ---- alltoallw: a datatype per block ----------------------------------------------- */

/* one side of a w call: n counts, byte displacements and datatypes into dts[] */
static int nb_w_side(compi_comm_t *c, const void *buf, coll_vec_t counts, coll_vec_t displs,
                     const MPI_Datatype *types, int n, const char *what, const char *fn,
                     compi_datatype_t **dts)
{
    size_t total = 0;
    int rc = mpi_arg_counts(c, counts, displs, 1, n, what, fn, &total);
    if (rc == MPI_SUCCESS && n > 0 && types == NULL) {
        rc = mpi_err_raise(c, MPI_ERR_ARG, fn, "the %s datatypes array is NULL", what);
    }
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        rc = mpi_arg_type(c, types[i], what, fn, &dts[i]);
        /* block i is at buf + displs[i] bytes: MPI_BOTTOM with absolute addresses as
           displacements is a real buffer */
        if (rc == MPI_SUCCESS && coll_vec_at(displs, i) == 0) {
            rc = mpi_arg_buf(c, buf, (size_t)coll_vec_at(counts, i), dts[i],
                             *what == 's' ? "send buffer" : "receive buffer", fn);
        }
    }
    return rc;
}

/* a w call: datatypes per block, kept on the stack for up to NB_W_STACK neighbours a side
   (a schedule retains what it needs before this returns) */
static int neighbor_alltoallw_impl(const void *sendbuf, coll_vec_t sendcounts, coll_vec_t sdispls,
                                   const MPI_Datatype sendtypes[], void *recvbuf,
                                   coll_vec_t recvcounts, coll_vec_t rdispls,
                                   const MPI_Datatype recvtypes[], compi_comm_t *c,
                                   MPI_Request *req, coll_mode_t mode, const char *fn)
{
    compi_datatype_t *stack[2 * NB_W_STACK];
    compi_datatype_t **sdts = stack, **rdts = stack + NB_W_STACK, **mem = NULL;

    int rc = nb_start(c, sendbuf, recvbuf, req, mode, fn);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    int nin = c->topo->indegree, nout = c->topo->outdegree;
    if (nin > NB_W_STACK || nout > NB_W_STACK) {
        mem = malloc(((size_t)nin + (size_t)nout + 1) * sizeof(*mem));
        if (mem == NULL) {
            return mpi_err_raise(c, MPI_ERR_NO_MEM, fn, "out of memory for %d datatypes",
                                 nin + nout);
        }
        sdts = mem;
        rdts = mem + nout;
    }
    rc = nb_w_side(c, sendbuf, sendcounts, sdispls, sendtypes, nout, "send", fn, sdts);
    if (rc == MPI_SUCCESS) {
        rc = nb_w_side(c, recvbuf, recvcounts, rdispls, recvtypes, nin, "receive", fn, rdts);
    }
    if (rc == MPI_SUCCESS) {
        coll_call_t call = {.kind = COLL_NEIGHBOR_ALLTOALLW,
                            .mode = mode,
                            .comm = c,
                            .root = -1,
                            .sbuf = sendbuf,
                            .rbuf = recvbuf,
                            .scounts = sendcounts,
                            .sdispls = sdispls,
                            .rcounts = recvcounts,
                            .rdispls = rdispls,
                            .sdts = sdts,
                            .rdts = rdts,
                            .bytes = 0};
        rc = mpi_coll_go(&call, req, fn);
    }
    free(mem);
    return rc;
}

#include "core/mpi/gen/neighbor.c"
