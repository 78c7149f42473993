/*
 * neighbor_api.c -- the neighbourhood collectives: MPI_Neighbor_allgather(v),
 * MPI_Neighbor_alltoall(v/w), their nonblocking (MPI_Ineighbor_*) and persistent
 * (MPI_Neighbor_*_init) forms.  Argument checks (coll_args.h and the few here), then the
 * trampoline, as in coll_api.c: the helpers take the request pointer (NULL: blocking) and
 * the mode, and end in ca_go().
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
#include "core/mpi/coll_args.h"

#include <stdlib.h>

/* peers whose datatypes a w call keeps on the stack */
#define NB_W_STACK 32

static int nb_comm(MPI_Comm h, const char *fn, compi_comm_t **c_p)
{
    int rc = ca_comm(h, fn, c_p);
    if (rc == MPI_SUCCESS && (*c_p)->topo == NULL) {
        rc = mpi_err_raise(*c_p, MPI_ERR_TOPOLOGY, fn,
                           "%s has no process topology (MPI_Cart_create, MPI_Graph_create, "
                           "MPI_Dist_graph_create...)",
                           (*c_p)->name[0] ? (*c_p)->name : "the communicator");
    }
    return rc;
}

static int nb_no_in_place(compi_comm_t *c, const void *sbuf, const void *rbuf, const char *fn)
{
    int rc = ca_no_in_place(c, sbuf, "send buffer", fn);
    if (rc == MPI_SUCCESS) {
        rc = ca_no_in_place(c, rbuf, "receive buffer", fn);
    }
    return rc;
}

/* n counts (and displacements, when displs_needed) of a v/w side; *total_p: their sum */
static int nb_counts(compi_comm_t *c, const int *counts, const void *displs, int n,
                     const char *what, const char *fn, size_t *total_p)
{
    *total_p = 0;
    if (n > 0 && counts == NULL) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "the %s counts array is NULL", what);
    }
    if (n > 0 && displs == NULL) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "the %s displacements array is NULL", what);
    }
    for (int i = 0; i < n; i++) {
        if (counts[i] < 0) {
            return mpi_err_raise(c, MPI_ERR_COUNT, fn, "%s count[%d]=%d is negative", what, i,
                                 counts[i]);
        }
        *total_p += (size_t)counts[i];
    }
    return MPI_SUCCESS;
}

/* ---- allgather(v) and alltoall(v): one datatype per side ----------------------------- */

typedef struct nb_args {
    const void *sbuf;
    MPI_Count scount;
    const int *scounts, *sdispls; /* alltoallv */
    MPI_Datatype stype;
    void *rbuf;
    MPI_Count rcount;
    const int *rcounts, *rdispls; /* v kinds */
    MPI_Datatype rtype;
} nb_args_t;

static int nb_run(coll_kind_t kind, const nb_args_t *a, MPI_Comm comm, MPI_Request *req,
                  coll_mode_t mode, const char *fn)
{
    compi_comm_t *c = NULL;
    compi_datatype_t *sdt = NULL, *rdt = NULL;
    size_t stotal = 0, rtotal = 0;
    int sv = kind == COLL_NEIGHBOR_ALLTOALLV;
    int rv = sv || kind == COLL_NEIGHBOR_ALLGATHERV;
    int gather = kind != COLL_NEIGHBOR_ALLTOALL && kind != COLL_NEIGHBOR_ALLTOALLV;

    int rc = req != NULL ? ca_request(NULL, req, fn) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS) {
        rc = nb_comm(comm, fn, &c);
    }
    if (rc == MPI_SUCCESS) {
        rc = nb_no_in_place(c, a->sbuf, a->rbuf, fn);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    const comm_topo_t *t = c->topo;
    /* send side: one block (allgather), outdegree blocks (alltoall), or counts */
    if (sv) {
        rc = nb_counts(c, a->scounts, a->sdispls, t->outdegree, "send", fn, &stotal);
    } else {
        rc = mpi_arg_count(c, a->scount, "sendcount", fn);
        stotal = (size_t)(rc == MPI_SUCCESS ? a->scount : 0) * (gather ? 1 : (size_t)t->outdegree);
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_type(c, a->stype, "send datatype", fn, &sdt);
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_buf(c, a->sbuf, stotal, sdt, "send buffer", fn);
    }
    /* receive side: indegree blocks */
    if (rc == MPI_SUCCESS && rv) {
        rc = nb_counts(c, a->rcounts, a->rdispls, t->indegree, "receive", fn, &rtotal);
    } else if (rc == MPI_SUCCESS) {
        rc = mpi_arg_count(c, a->rcount, "recvcount", fn);
        rtotal = (size_t)(rc == MPI_SUCCESS ? a->rcount : 0) * (size_t)t->indegree;
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_type(c, a->rtype, "receive datatype", fn, &rdt);
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_buf(c, a->rbuf, rtotal, rdt, "receive buffer", fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = ca_alias(c, a->sbuf, a->rbuf, stotal * sdt->size, rtotal * rdt->size, fn);
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
                        .scount = (size_t)a->scount,
                        .rcount = (size_t)a->rcount,
                        .sdt = sdt,
                        .rdt = rdt,
                        .scounts = a->scounts,
                        .sdispls = a->sdispls,
                        .rcounts = a->rcounts,
                        .rdispls = a->rdispls,
                        .bytes = rv ? 0 : (size_t)a->scount * sdt->size};
    if (sv) {
        call.scount = 0;
    }
    if (rv) {
        call.rcount = 0;
    }
    return ca_go(&call, req, fn);
}

/* MPI_Neighbor_allgather, MPI_Neighbor_alltoall and their nonblocking, persistent and _c
   forms */
static int nb_scalar_impl(coll_kind_t kind, const void *sendbuf, MPI_Count sendcount,
                          MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *req, coll_mode_t mode,
                          const char *fn)
{
    nb_args_t a = {.sbuf = sendbuf,
                   .scount = sendcount,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcount = recvcount,
                   .rtype = recvtype};
    return nb_run(kind, &a, comm, req, mode, fn);
}

#pragma weak MPI_Neighbor_allgather = PMPI_Neighbor_allgather
int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Neighbor_allgather");
    return nb_scalar_impl(COLL_NEIGHBOR_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, NULL, COLL_MODE_BLOCKING, "MPI_Neighbor_allgather");
}

#pragma weak MPI_Neighbor_allgather_c = PMPI_Neighbor_allgather_c
int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Neighbor_allgather_c");
    return nb_scalar_impl(COLL_NEIGHBOR_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, NULL, COLL_MODE_BLOCKING, "MPI_Neighbor_allgather_c");
}

#pragma weak MPI_Neighbor_allgatherv = PMPI_Neighbor_allgatherv
int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Neighbor_allgatherv");
    nb_args_t a = {.sbuf = sendbuf,
                   .scount = sendcount,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcounts = recvcounts,
                   .rdispls = displs,
                   .rtype = recvtype};
    return nb_run(COLL_NEIGHBOR_ALLGATHERV, &a, comm, NULL, COLL_MODE_BLOCKING,
                  "MPI_Neighbor_allgatherv");
}

#pragma weak MPI_Neighbor_alltoall = PMPI_Neighbor_alltoall
int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Neighbor_alltoall");
    return nb_scalar_impl(COLL_NEIGHBOR_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, NULL, COLL_MODE_BLOCKING, "MPI_Neighbor_alltoall");
}

#pragma weak MPI_Neighbor_alltoall_c = PMPI_Neighbor_alltoall_c
int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Neighbor_alltoall_c");
    return nb_scalar_impl(COLL_NEIGHBOR_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, NULL, COLL_MODE_BLOCKING, "MPI_Neighbor_alltoall_c");
}

#pragma weak MPI_Neighbor_alltoallv = PMPI_Neighbor_alltoallv
int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Neighbor_alltoallv");
    nb_args_t a = {.sbuf = sendbuf,
                   .scounts = sendcounts,
                   .sdispls = sdispls,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcounts = recvcounts,
                   .rdispls = rdispls,
                   .rtype = recvtype};
    return nb_run(COLL_NEIGHBOR_ALLTOALLV, &a, comm, NULL, COLL_MODE_BLOCKING,
                  "MPI_Neighbor_alltoallv");
}

/* ---- alltoallw: a datatype per block ----------------------------------------------- */

/* one side of a w call: n counts, byte displacements and datatypes into dts[] */
static int nb_w_side(compi_comm_t *c, const void *buf, const int *counts, const MPI_Aint *displs,
                     const MPI_Datatype *types, int n, const char *what, const char *fn,
                     compi_datatype_t **dts)
{
    size_t total = 0;
    int rc = nb_counts(c, counts, displs, n, what, fn, &total);
    if (rc == MPI_SUCCESS && n > 0 && types == NULL) {
        rc = mpi_err_raise(c, MPI_ERR_ARG, fn, "the %s datatypes array is NULL", what);
    }
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        rc = mpi_arg_type(c, types[i], what, fn, &dts[i]);
        /* block i is at buf + displs[i] bytes: MPI_BOTTOM with absolute addresses as
           displacements is a real buffer */
        if (rc == MPI_SUCCESS && displs[i] == 0) {
            rc = mpi_arg_buf(c, buf, (size_t)counts[i], dts[i],
                        *what == 's' ? "send buffer" : "receive buffer", fn);
        }
    }
    return rc;
}

/* a w call: datatypes per block, kept on the stack for up to NB_W_STACK neighbours a side
   (a schedule retains what it needs before this returns) */
static int nb_w_any(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *req, coll_mode_t mode, const char *fn)
{
    compi_datatype_t *stack[2 * NB_W_STACK];
    compi_datatype_t **sdts = stack, **rdts = stack + NB_W_STACK, **mem = NULL;
    compi_comm_t *c = NULL;

    int rc = req != NULL ? ca_request(NULL, req, fn) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS) {
        rc = nb_comm(comm, fn, &c);
    }
    if (rc == MPI_SUCCESS) {
        rc = nb_no_in_place(c, sendbuf, recvbuf, fn);
    }
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
                            .rcounts = recvcounts,
                            .sdts = sdts,
                            .rdts = rdts,
                            .sadispls = sdispls,
                            .radispls = rdispls,
                            .bytes = 0};
        rc = ca_go(&call, req, fn);
    }
    free(mem);
    return rc;
}

#pragma weak MPI_Neighbor_alltoallw = PMPI_Neighbor_alltoallw
int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Neighbor_alltoallw");
    return nb_w_any(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                    recvtypes, comm, NULL, COLL_MODE_BLOCKING, "MPI_Neighbor_alltoallw");
}

/* ---- nonblocking: one round of a schedule, on the blocking exchange's tags ---------- */

#pragma weak MPI_Ineighbor_allgather = PMPI_Ineighbor_allgather
int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ineighbor_allgather");
    return nb_scalar_impl(COLL_NEIGHBOR_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, request, COLL_MODE_NONBLOCKING,
                          "MPI_Ineighbor_allgather");
}

#pragma weak MPI_Ineighbor_allgather_c = PMPI_Ineighbor_allgather_c
int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ineighbor_allgather_c");
    return nb_scalar_impl(COLL_NEIGHBOR_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, request, COLL_MODE_NONBLOCKING,
                          "MPI_Ineighbor_allgather_c");
}

#pragma weak MPI_Ineighbor_allgatherv = PMPI_Ineighbor_allgatherv
int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ineighbor_allgatherv");
    nb_args_t a = {.sbuf = sendbuf,
                   .scount = sendcount,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcounts = recvcounts,
                   .rdispls = displs,
                   .rtype = recvtype};
    return nb_run(COLL_NEIGHBOR_ALLGATHERV, &a, comm, request, COLL_MODE_NONBLOCKING,
                  "MPI_Ineighbor_allgatherv");
}

#pragma weak MPI_Ineighbor_alltoall = PMPI_Ineighbor_alltoall
int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ineighbor_alltoall");
    return nb_scalar_impl(COLL_NEIGHBOR_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, request, COLL_MODE_NONBLOCKING, "MPI_Ineighbor_alltoall");
}

#pragma weak MPI_Ineighbor_alltoall_c = PMPI_Ineighbor_alltoall_c
int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ineighbor_alltoall_c");
    return nb_scalar_impl(COLL_NEIGHBOR_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, request, COLL_MODE_NONBLOCKING,
                          "MPI_Ineighbor_alltoall_c");
}

#pragma weak MPI_Ineighbor_alltoallv = PMPI_Ineighbor_alltoallv
int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ineighbor_alltoallv");
    nb_args_t a = {.sbuf = sendbuf,
                   .scounts = sendcounts,
                   .sdispls = sdispls,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcounts = recvcounts,
                   .rdispls = rdispls,
                   .rtype = recvtype};
    return nb_run(COLL_NEIGHBOR_ALLTOALLV, &a, comm, request, COLL_MODE_NONBLOCKING,
                  "MPI_Ineighbor_alltoallv");
}

#pragma weak MPI_Ineighbor_alltoallw = PMPI_Ineighbor_alltoallw
int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                             MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ineighbor_alltoallw");
    return nb_w_any(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                    recvtypes, comm, request, COLL_MODE_NONBLOCKING, "MPI_Ineighbor_alltoallw");
}

/* ---- persistent (MPI-4) ------------------------------------------------------------- */

#pragma weak MPI_Neighbor_allgather_init = PMPI_Neighbor_allgather_init
int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Neighbor_allgather_init");
    return nb_scalar_impl(COLL_NEIGHBOR_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, request, COLL_MODE_PERSISTENT,
                          "MPI_Neighbor_allgather_init");
}

#pragma weak MPI_Neighbor_allgather_init_c = PMPI_Neighbor_allgather_init_c
int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Neighbor_allgather_init_c");
    return nb_scalar_impl(COLL_NEIGHBOR_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, request, COLL_MODE_PERSISTENT,
                          "MPI_Neighbor_allgather_init_c");
}

#pragma weak MPI_Neighbor_allgatherv_init = PMPI_Neighbor_allgatherv_init
int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Neighbor_allgatherv_init");
    nb_args_t a = {.sbuf = sendbuf,
                   .scount = sendcount,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcounts = recvcounts,
                   .rdispls = displs,
                   .rtype = recvtype};
    return nb_run(COLL_NEIGHBOR_ALLGATHERV, &a, comm, request, COLL_MODE_PERSISTENT,
                  "MPI_Neighbor_allgatherv_init");
}

#pragma weak MPI_Neighbor_alltoall_init = PMPI_Neighbor_alltoall_init
int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Neighbor_alltoall_init");
    return nb_scalar_impl(COLL_NEIGHBOR_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, request, COLL_MODE_PERSISTENT,
                          "MPI_Neighbor_alltoall_init");
}

#pragma weak MPI_Neighbor_alltoall_init_c = PMPI_Neighbor_alltoall_init_c
int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Neighbor_alltoall_init_c");
    return nb_scalar_impl(COLL_NEIGHBOR_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, request, COLL_MODE_PERSISTENT,
                          "MPI_Neighbor_alltoall_init_c");
}

#pragma weak MPI_Neighbor_alltoallv_init = PMPI_Neighbor_alltoallv_init
int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Neighbor_alltoallv_init");
    nb_args_t a = {.sbuf = sendbuf,
                   .scounts = sendcounts,
                   .sdispls = sdispls,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcounts = recvcounts,
                   .rdispls = rdispls,
                   .rtype = recvtype};
    return nb_run(COLL_NEIGHBOR_ALLTOALLV, &a, comm, request, COLL_MODE_PERSISTENT,
                  "MPI_Neighbor_alltoallv_init");
}

#pragma weak MPI_Neighbor_alltoallw_init = PMPI_Neighbor_alltoallw_init
int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Neighbor_alltoallw_init");
    return nb_w_any(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                    recvtypes, comm, request, COLL_MODE_PERSISTENT, "MPI_Neighbor_alltoallw_init");
}
