/*
 * idup_inter: MPI_Comm_idup of intercommunicators.  WORLD split in two halves joined by
 * MPI_Intercomm_create; its idup, an idup of that idup and the idup of its blocking dup
 * are intercommunicators over the same groups (sizes, MPI_Comm_test_inter), on which an
 * exchange between the leaders and an allreduce across the groups give the right values
 * without meeting each other's messages; so is the end of a chain of eight idups, whose
 * pools run out (the later ids agreed by both groups without waiting), and five idups of
 * it at once, one leader making its first before an MPI_Ssend that the other leader
 * receives before making its own; the idup of a merged intercommunicator is an
 * intracommunicator over everyone.
 */
#include "tests/mpi/mpitest.h"

/* the leaders swap their group's rank sum, then each group's allreduce sums the other's */
static void check_inter(MPI_Comm ic, int half, int lsize, int rsize, const char *what)
{
    int flag = 0, n = -1, rn = -1;
    MPI_OK(MPI_Comm_test_inter(ic, &flag));
    MPI_OK(MPI_Comm_size(ic, &n));
    MPI_OK(MPI_Comm_remote_size(ic, &rn));
    CHECK(flag && n == lsize && rn == rsize, "%s: inter %d, sizes %d %d", what, flag, n, rn);
    int r;
    MPI_OK(MPI_Comm_rank(ic, &r));
    MPI_Request req[2];
    int out = 100 + half, in = -1;
    if (r == 0) {
        MPI_OK(MPI_Irecv(&in, 1, MPI_INT, 0, 9, ic, &req[0]));
        MPI_OK(MPI_Isend(&out, 1, MPI_INT, 0, 9, ic, &req[1]));
        MPI_OK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
        CHECK(in == 100 + !half, "%s: the other leader sent %d", what, in);
    }
    int sum = -1, want = 0;
    MPI_OK(MPI_Allreduce(&mt_rank, &sum, 1, MPI_INT, MPI_SUM, ic));
    for (int i = 0; i < mt_size; i++) {
        want += (i < mt_size / 2) != (half == 0) ? i : 0;
    }
    CHECK(sum == want, "%s: allreduce across %d, want %d", what, sum, want);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "idup_inter");
    int half = mt_rank >= mt_size / 2, lsize = half ? mt_size - mt_size / 2 : mt_size / 2;
    int rsize = mt_size - lsize;
    MPI_Comm local, inter, a, b, d, e, merged, m2;
    MPI_Request req[2];
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, half, mt_rank, &local));
    MPI_OK(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, half ? 0 : mt_size / 2, 3, &inter));

    MPI_OK(MPI_Comm_idup(inter, &a, &req[0]));
    MPI_OK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    check_inter(a, half, lsize, rsize, "idup");
    MPI_OK(MPI_Comm_idup(a, &b, &req[0]));
    MPI_OK(MPI_Comm_dup(inter, &d));
    MPI_OK(MPI_Comm_idup(d, &e, &req[1]));
    MPI_OK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    check_inter(b, half, lsize, rsize, "idup of an idup");
    check_inter(e, half, lsize, rsize, "idup of a dup");
    check_inter(inter, half, lsize, rsize, "the original");

    /* a chain of idups: the pools shrink to nothing within a few links, and the later
       ones get their ids from an agreement of both groups that never waits; then five
       idups of the last link pending at once, the first made by one leader before it
       MPI_Ssends to the other leader, who makes it only after receiving */
    {
        MPI_Comm chain[8], five[5], prev = inter;
        MPI_Request r5[5];
        int lrank = -1, token = 7;
        for (int i = 0; i < 8; i++) {
            MPI_OK(MPI_Comm_idup(prev, &chain[i], &req[0]));
            MPI_OK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
            prev = chain[i];
        }
        check_inter(chain[7], half, lsize, rsize, "the eighth idup of a chain");
        MPI_OK(MPI_Comm_rank(chain[7], &lrank));
        if (lrank == 0 && half == 0) {
            MPI_OK(MPI_Comm_idup(chain[7], &five[0], &r5[0]));
            MPI_OK(MPI_Ssend(&token, 1, MPI_INT, 0, 11, chain[7]));
        } else if (lrank == 0) {
            MPI_OK(MPI_Recv(&token, 1, MPI_INT, 0, 11, chain[7], MPI_STATUS_IGNORE));
            MPI_OK(MPI_Comm_idup(chain[7], &five[0], &r5[0]));
        } else {
            MPI_OK(MPI_Comm_idup(chain[7], &five[0], &r5[0]));
        }
        for (int i = 1; i < 5; i++) {
            MPI_OK(MPI_Comm_idup(chain[7], &five[i], &r5[i]));
        }
        MPI_OK(MPI_Waitall(5, r5, MPI_STATUSES_IGNORE));
        for (int i = 0; i < 5; i++) {
            check_inter(five[i], half, lsize, rsize, "five idups at once of the chain's end");
            MPI_OK(MPI_Comm_free(&five[i]));
        }
        for (int i = 7; i >= 0; i--) {
            MPI_OK(MPI_Comm_free(&chain[i]));
        }
    }

    MPI_OK(MPI_Intercomm_merge(inter, half, &merged));
    MPI_OK(MPI_Comm_idup(merged, &m2, &req[0]));
    MPI_OK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    int flag = 1, n = -1, sum = -1;
    MPI_OK(MPI_Comm_test_inter(m2, &flag));
    MPI_OK(MPI_Comm_size(m2, &n));
    MPI_OK(MPI_Allreduce(&mt_rank, &sum, 1, MPI_INT, MPI_SUM, m2));
    CHECK(!flag && n == mt_size && sum == mt_size * (mt_size - 1) / 2,
          "idup of the merged: inter %d size %d sum %d", flag, n, sum);

    MPI_Comm *all[] = {&m2, &merged, &e, &d, &b, &a, &inter, &local};
    for (int i = 0; i < 8; i++) {
        MPI_OK(MPI_Comm_free(all[i]));
    }
    return mt_finish();
}
