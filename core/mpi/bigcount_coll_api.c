/*
 * bigcount_coll_api.c -- the MPI-4 large-count (_c) collectives whose counts compi carries
 * as ints, blocking, nonblocking and persistent, made from the table bigcount_coll.def:
 * the v and w variants and reduce-scatter, whose counts and displacements coll_call_t
 * holds in int arrays.  The collectives with scalar counts (bcast, the reductions, gather,
 * scatter, allgather, alltoall, their neighbourhood forms) carry an MPI_Count: their _c
 * functions are in coll_api.c, coll_move_api.c and neighbor_api.c.
 *
 * Each turns its MPI_Count counts (and MPI_Aint displacements where the int function
 * takes int ones) into ints and calls its int function: a count beyond int is
 * MPI_ERR_COUNT, a displacement beyond int MPI_ERR_ARG.  The count arrays are as long as
 * the int function reads them: the (remote) group's size, or the neighbourhood's in- and
 * out-degree.  The collectives read their count arrays while they build their schedules
 * (a nonblocking or persistent one included), so the int arrays are freed on return.
 */
#include "core/comm/topo.h"
#include "core/mpi/bigcount.h"

/* how many blocks a count array of `comm` has: side 'r' (receive) or 's' (send) of a
   neighbourhood collective, or 'g' the (remote) group */
static int bc_len(MPI_Comm comm, char side)
{
    compi_comm_t *c = comm_from_handle(comm);
    if (c == NULL) {
        return 0; /* the int function reports the communicator */
    }
    if (side == 'r' || side == 's') {
        return c->topo == NULL ? 0 : side == 'r' ? c->topo->indegree : c->topo->outdegree;
    }
    int inter = 0, n = c->size;
    if (PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && inter) {
        PMPI_Comm_remote_size(comm, &n);
    }
    return n;
}

/* the trailing parameters and arguments of each form */
#define BC_XP_B
#define BC_XA_B
#define BC_XP_I , MPI_Request *request
#define BC_XA_I , request
#define BC_XP_P , MPI_Info info, MPI_Request *request
#define BC_XA_P , info, request

/* a _c function of shape `shape` for the int function x, in form m (B, I or P) */
#define BC_DEF(shape, x, m) BC_WEAK(x##_c) BC_##shape(x, m)
#define BC_COLL(shape, b, i, p) BC_DEF(shape, b, B) BC_DEF(shape, i, I) BC_DEF(shape, p, P)

/* the array conversions of one function: rc stays MPI_SUCCESS while they succeed */
#define BC_ARR(v, disp, len, out)                                                             \
    if (rc == MPI_SUCCESS)                                                                    \
    rc = bc_ints(&arr, (v), (disp), (len), comm, fn, #v, &(out))

/* the receive arrays matter at the root only (and are often NULL elsewhere) */
#define BC_GATHERV(x, m)                                                                 \
    int PMPI_##x##_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,         \
                     void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],    \
                     MPI_Datatype recvtype, int root, MPI_Comm comm BC_XP_##m)                     \
    {                                                                                         \
        static const char fn[] = "MPI_" #x "_c";                                              \
        bc_arrays_t arr = {.n = 0};                                                           \
        int ns, *rc_ = NULL, *rd = NULL, rc = MPI_SUCCESS, me = -1;                           \
        COMPI_CHECK_INIT(fn);                                                                 \
        BC_COUNT(sendcount, ns, comm, x);                                                     \
        if (comm_from_handle(comm) != NULL) {                                                 \
            PMPI_Comm_rank(comm, &me);                                                        \
        }                                                                                     \
        if (me == root || root == MPI_ROOT) {                                                 \
            BC_ARR(recvcounts, 0, bc_len(comm, 'g'), rc_);                                    \
            BC_ARR(displs, 1, bc_len(comm, 'g'), rd);                                         \
        }                                                                                     \
        if (rc == MPI_SUCCESS)                                                                \
            rc = PMPI_##x(sendbuf, ns, sendtype, recvbuf, rc_, rd, recvtype, root,                 \
                          comm BC_XA_##m);                                                         \
        bc_arrays_free(&arr);                                                                 \
        return rc;                                                                            \
    }
#define BC_SCATTERV(x, m)                                                                \
    int PMPI_##x##_c(const void *sendbuf, const MPI_Count sendcounts[],                       \
                     const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,           \
                     MPI_Count recvcount, MPI_Datatype recvtype, int root,                         \
                     MPI_Comm comm BC_XP_##m)                                                      \
    {                                                                                         \
        static const char fn[] = "MPI_" #x "_c";                                              \
        bc_arrays_t arr = {.n = 0};                                                           \
        int nr, *sc = NULL, *sd = NULL, rc = MPI_SUCCESS, me = -1;                            \
        COMPI_CHECK_INIT(fn);                                                                 \
        BC_COUNT(recvcount, nr, comm, x);                                                     \
        if (comm_from_handle(comm) != NULL) {                                                 \
            PMPI_Comm_rank(comm, &me);                                                        \
        }                                                                                     \
        if (me == root || root == MPI_ROOT) {                                                 \
            BC_ARR(sendcounts, 0, bc_len(comm, 'g'), sc);                                     \
            BC_ARR(displs, 1, bc_len(comm, 'g'), sd);                                         \
        }                                                                                     \
        if (rc == MPI_SUCCESS)                                                                \
            rc = PMPI_##x(sendbuf, sc, sd, sendtype, recvbuf, nr, recvtype, root, comm BC_XA_##m); \
        bc_arrays_free(&arr);                                                                 \
        return rc;                                                                            \
    }
#define BC_ALLGATHERV_ANY(x, m, side)                                                    \
    int PMPI_##x##_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,         \
                     void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],    \
                     MPI_Datatype recvtype, MPI_Comm comm BC_XP_##m)                               \
    {                                                                                         \
        static const char fn[] = "MPI_" #x "_c";                                              \
        bc_arrays_t arr = {.n = 0};                                                           \
        int ns, *rc_ = NULL, *rd = NULL, rc = MPI_SUCCESS;                                    \
        COMPI_CHECK_INIT(fn);                                                                 \
        BC_COUNT(sendcount, ns, comm, x);                                                     \
        BC_ARR(recvcounts, 0, bc_len(comm, side), rc_);                                       \
        BC_ARR(displs, 1, bc_len(comm, side), rd);                                            \
        if (rc == MPI_SUCCESS)                                                                \
            rc = PMPI_##x(sendbuf, ns, sendtype, recvbuf, rc_, rd, recvtype, comm BC_XA_##m);      \
        bc_arrays_free(&arr);                                                                 \
        return rc;                                                                            \
    }
#define BC_ALLGATHERV(x, m) BC_ALLGATHERV_ANY(x, m, 'g')
#define BC_NALLGATHERV(x, m) BC_ALLGATHERV_ANY(x, m, 'r')
#define BC_ALLTOALLV_ANY(x, m, sside, rside)                                             \
    int PMPI_##x##_c(const void *sendbuf, const MPI_Count sendcounts[],                       \
                     const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,          \
                     const MPI_Count recvcounts[], const MPI_Aint rdispls[],                  \
                     MPI_Datatype recvtype, MPI_Comm comm BC_XP_##m)                               \
    {                                                                                         \
        static const char fn[] = "MPI_" #x "_c";                                              \
        bc_arrays_t arr = {.n = 0};                                                           \
        int *sc = NULL, *sd = NULL, *rc_ = NULL, *rd = NULL, rc = MPI_SUCCESS;                \
        COMPI_CHECK_INIT(fn);                                                                 \
        BC_ARR(sendcounts, 0, bc_len(comm, sside), sc);                                       \
        BC_ARR(sdispls, 1, bc_len(comm, sside), sd);                                          \
        BC_ARR(recvcounts, 0, bc_len(comm, rside), rc_);                                      \
        BC_ARR(rdispls, 1, bc_len(comm, rside), rd);                                          \
        if (rc == MPI_SUCCESS)                                                                \
            rc = PMPI_##x(sendbuf, sc, sd, sendtype, recvbuf, rc_, rd, recvtype, comm BC_XA_##m);  \
        bc_arrays_free(&arr);                                                                 \
        return rc;                                                                            \
    }
#define BC_ALLTOALLV(x, m) BC_ALLTOALLV_ANY(x, m, 'g', 'g')
#define BC_NALLTOALLV(x, m) BC_ALLTOALLV_ANY(x, m, 's', 'r')
/* MPI_Alltoallw's displacements are ints; MPI_Neighbor_alltoallw's are MPI_Aint already */
#define BC_ALLTOALLW(x, m)                                                               \
    int PMPI_##x##_c(const void *sendbuf, const MPI_Count sendcounts[],                       \
                     const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, \
                     const MPI_Count recvcounts[], const MPI_Aint rdispls[],                  \
                     const MPI_Datatype recvtypes[], MPI_Comm comm BC_XP_##m)                      \
    {                                                                                         \
        static const char fn[] = "MPI_" #x "_c";                                              \
        bc_arrays_t arr = {.n = 0};                                                           \
        int *sc = NULL, *sd = NULL, *rc_ = NULL, *rd = NULL, rc = MPI_SUCCESS;                \
        COMPI_CHECK_INIT(fn);                                                                 \
        BC_ARR(sendcounts, 0, bc_len(comm, 'g'), sc);                                         \
        BC_ARR(sdispls, 1, bc_len(comm, 'g'), sd);                                            \
        BC_ARR(recvcounts, 0, bc_len(comm, 'g'), rc_);                                        \
        BC_ARR(rdispls, 1, bc_len(comm, 'g'), rd);                                            \
        if (rc == MPI_SUCCESS)                                                                \
            rc = PMPI_##x(sendbuf, sc, sd, sendtypes, recvbuf, rc_, rd, recvtypes,                 \
                          comm BC_XA_##m);                                                         \
        bc_arrays_free(&arr);                                                                 \
        return rc;                                                                            \
    }
#define BC_NALLTOALLW(x, m)                                                              \
    int PMPI_##x##_c(const void *sendbuf, const MPI_Count sendcounts[],                       \
                     const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, \
                     const MPI_Count recvcounts[], const MPI_Aint rdispls[],                  \
                     const MPI_Datatype recvtypes[], MPI_Comm comm BC_XP_##m)                      \
    {                                                                                         \
        static const char fn[] = "MPI_" #x "_c";                                              \
        bc_arrays_t arr = {.n = 0};                                                           \
        int *sc = NULL, *rc_ = NULL, rc = MPI_SUCCESS;                                        \
        COMPI_CHECK_INIT(fn);                                                                 \
        BC_ARR(sendcounts, 0, bc_len(comm, 's'), sc);                                         \
        BC_ARR(recvcounts, 0, bc_len(comm, 'r'), rc_);                                        \
        if (rc == MPI_SUCCESS)                                                                \
            rc = PMPI_##x(sendbuf, sc, sdispls, sendtypes, recvbuf, rc_, rdispls, recvtypes,  \
                          comm BC_XA_##m);                                                         \
        bc_arrays_free(&arr);                                                                 \
        return rc;                                                                            \
    }
#define BC_REDUCE_SCATTER(x, m)                                                          \
    int PMPI_##x##_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],        \
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm BC_XP_##m)                    \
    {                                                                                         \
        static const char fn[] = "MPI_" #x "_c";                                              \
        bc_arrays_t arr = {.n = 0};                                                           \
        int *rc_ = NULL, rc = MPI_SUCCESS;                                                    \
        COMPI_CHECK_INIT(fn);                                                                 \
        BC_ARR(recvcounts, 0, bc_len(comm, 'g'), rc_);                                        \
        if (rc == MPI_SUCCESS)                                                                \
            rc = PMPI_##x(sendbuf, recvbuf, rc_, datatype, op, comm BC_XA_##m);                    \
        bc_arrays_free(&arr);                                                                 \
        return rc;                                                                            \
    }

#include "core/mpi/bigcount_coll.def"
