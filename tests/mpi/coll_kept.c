/*
 * coll_kept.c -- blocking collectives that repeat with the same arguments: a native
 * closure keeps the schedule of its last blocking call and runs it again for the next
 * call like it (coll_sched_run_kept, core/coll/sched/sched.h).  Each check makes the kept
 * schedule's mistakes visible:
 *   - the same buffers with new contents at every call: a rerun must read them again;
 *   - two buffer sets and two counts in turn: each change builds a new schedule, and
 *     going back must not run the other one's;
 *   - a datatype freed and another made (perhaps at the same address) with another
 *     layout, the same buffer and count: the kept schedule was built for the old one;
 *   - a duplicate communicator freed and another made in its place: the kept schedule
 *     named the old one.
 * Sizes of 2 to 32 KiB, above the shared-memory algorithms' slot on one host, so that
 * the defaults choose point-to-point algorithms (with tests/mpi/configs/native_sched.scm
 * every size runs one of the native schedules).
 */
#include "tests/mpi/mpitest.h"

#define ITERS 6
#define MAXN 4096 /* doubles: 32 KiB */

static double sa[2][MAXN * 8], ra[2][MAXN * 8];

static double val(int rank, int it, int i)
{
    return (double)(rank * 1000 + it * 17 + i % 97);
}

static void check_allreduce(MPI_Comm comm, int n, int set, int it)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int i = 0; i < n; i++) {
        sa[set][i] = val(rank, it, i);
        ra[set][i] = -1;
    }
    MPI_OK(MPI_Allreduce(sa[set], ra[set], n, MPI_DOUBLE, MPI_SUM, comm));
    for (int i = 0; i < n; i++) {
        double want = 0;
        for (int r = 0; r < size; r++) {
            want += val(r, it, i);
        }
        if (ra[set][i] != want) {
            CHECK(0, "allreduce n=%d set=%d it=%d [%d] = %g, want %g", n, set, it, i, ra[set][i],
                  want);
            return;
        }
    }
}

static void check_moves(MPI_Comm comm, int n, int set, int it)
{
    int rank, size, root = it % 2 == 0 ? 0 : 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (root >= size) {
        root = 0;
    }
    int blk = n / size > 0 ? n / size : 1;
    /* bcast */
    for (int i = 0; i < n; i++) {
        ra[set][i] = rank == root ? val(root, it, i) : -1;
    }
    MPI_OK(MPI_Bcast(ra[set], n, MPI_DOUBLE, root, comm));
    for (int i = 0; i < n; i++) {
        if (ra[set][i] != val(root, it, i)) {
            CHECK(0, "bcast n=%d set=%d it=%d [%d] = %g", n, set, it, i, ra[set][i]);
            break;
        }
    }
    /* reduce */
    for (int i = 0; i < n; i++) {
        sa[set][i] = val(rank, it, i);
        ra[set][i] = -1;
    }
    MPI_OK(MPI_Reduce(sa[set], ra[set], n, MPI_DOUBLE, MPI_MAX, root, comm));
    for (int i = 0; rank == root && i < n; i++) {
        if (ra[set][i] != val(size - 1, it, i)) {
            CHECK(0, "reduce n=%d set=%d it=%d [%d] = %g", n, set, it, i, ra[set][i]);
            break;
        }
    }
    /* alltoall and allgather, blocks of blk doubles */
    for (int r = 0; r < size; r++) {
        for (int i = 0; i < blk; i++) {
            sa[set][r * blk + i] = val(rank, it, r * 31 + i);
        }
    }
    MPI_OK(MPI_Alltoall(sa[set], blk, MPI_DOUBLE, ra[set], blk, MPI_DOUBLE, comm));
    for (int r = 0; r < size; r++) {
        for (int i = 0; i < blk; i++) {
            if (ra[set][r * blk + i] != val(r, it, rank * 31 + i)) {
                CHECK(0, "alltoall blk=%d set=%d it=%d from %d [%d]", blk, set, it, r, i);
                r = size;
                break;
            }
        }
    }
    MPI_OK(MPI_Allgather(sa[set], blk, MPI_DOUBLE, ra[set], blk, MPI_DOUBLE, comm));
    for (int r = 0; r < size; r++) {
        for (int i = 0; i < blk; i++) {
            if (ra[set][r * blk + i] != val(r, it, i)) {
                CHECK(0, "allgather blk=%d set=%d it=%d from %d [%d]", blk, set, it, r, i);
                r = size;
                break;
            }
        }
    }
}

/* the same buffer and count through two datatypes of different layouts in turn: a
   vector of every other double, then a contiguous pair */
static void check_datatypes(int it)
{
    int rank;
    MPI_Datatype t;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int n = 1024; /* elements of t: 16 KiB of data either way */
    if (it % 2 == 0) {
        MPI_OK(MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &t));
    } else {
        MPI_OK(MPI_Type_contiguous(2, MPI_DOUBLE, &t));
    }
    MPI_OK(MPI_Type_commit(&t));
    MPI_Aint lb, ext;
    MPI_OK(MPI_Type_get_extent(t, &lb, &ext));
    int stride = (int)(ext / (MPI_Aint)sizeof(double)); /* 3 or 2 */
    for (int i = 0; i < n * 3 + 1; i++) {
        ra[0][i] = rank == 0 ? val(0, it, i) : -7;
    }
    MPI_OK(MPI_Bcast(ra[0], n, t, 0, MPI_COMM_WORLD));
    for (int e = 0; rank != 0 && e < n; e++) {
        /* vector: doubles 0 and 2 of each 3-double extent; pair: both of 2 */
        int a = e * stride, b = it % 2 == 0 ? a + 2 : a + 1;
        if (ra[0][a] != val(0, it, a) || ra[0][b] != val(0, it, b)) {
            CHECK(0, "bcast through %s it=%d element %d", it % 2 == 0 ? "vector" : "pair", it, e);
            break;
        }
        if (it % 2 == 0 && ra[0][a + 1] != -7) {
            CHECK(0, "bcast through vector it=%d wrote the gap of element %d", it, e);
            break;
        }
    }
    MPI_OK(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "coll_kept");
    static const int ns[] = {256, MAXN};
    for (int it = 0; it < ITERS; it++) {
        for (int k = 0; k < 2; k++) {
            /* the same call twice in a row (built, then rerun), then the other set */
            for (int rep = 0; rep < 2; rep++) {
                check_allreduce(MPI_COMM_WORLD, ns[k], it % 2, it * 4 + k * 2 + rep);
                check_moves(MPI_COMM_WORLD, ns[k], it % 2, it * 4 + k * 2 + rep);
            }
        }
        check_datatypes(it);
    }
    for (int it = 0; it < 4; it++) {
        MPI_Comm dup;
        MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
        for (int rep = 0; rep < 3; rep++) {
            check_allreduce(dup, MAXN, 0, it * 3 + rep);
        }
        MPI_OK(MPI_Comm_free(&dup));
    }
    return mt_finish();
}
