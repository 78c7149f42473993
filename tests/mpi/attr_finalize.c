/*
 * attr_finalize: MPI_Finalize deletes the attributes of MPI_COMM_SELF first, before any
 * other part of MPI is affected (MPI-3.1 8.7.1).  The delete callbacks run while
 * MPI_Finalized still says false, in the reverse order of setting, and may still
 * communicate (an allreduce over MPI_COMM_WORLD); after MPI_Finalize, MPI_Finalized says
 * true.  The checks made in the callbacks are counted after MPI_Finalize returns.
 */
#include "tests/mpi/mpitest.h"

static int order[2], nrun, finalized_seen = -1, sum_seen = -1;

static int del_self(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    if (nrun < 2) {
        order[nrun] = (int)(long)val;
    }
    nrun++;
    int flag = 1;
    if (MPI_Finalized(&flag) != MPI_SUCCESS) {
        flag = -2;
    }
    if (finalized_seen != 1) {
        finalized_seen = flag;
    }
    int one = 1, sum = 0;
    if (MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS) {
        sum_seen = sum;
    }
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int key1, key2, flag = 0;

    mt_init(&argc, &argv, "attr_finalize");
    MPI_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_self, &key1, NULL));
    MPI_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_self, &key2, NULL));
    MPI_OK(MPI_Comm_set_attr(MPI_COMM_SELF, key1, (void *)1L));
    MPI_OK(MPI_Comm_set_attr(MPI_COMM_SELF, key2, (void *)2L));
    MPI_OK(MPI_Comm_free_keyval(&key1));
    MPI_OK(MPI_Comm_free_keyval(&key2));
    mt_barrier(mt_sync_comm);
    MPI_OK(MPI_Comm_free(&mt_sync_comm));
    MPI_OK(MPI_Finalize());

    CHECK(nrun == 2, "the delete callbacks of MPI_COMM_SELF ran %d times, expected 2", nrun);
    CHECK(finalized_seen == 0, "MPI_Finalized gave %d inside a delete callback on MPI_COMM_SELF",
          finalized_seen);
    CHECK(order[0] == 2 && order[1] == 1,
          "delete callbacks ran in the order %d, %d (expected "
          "2, 1: the reverse of setting)",
          order[0], order[1]);
    CHECK(sum_seen == mt_size, "an allreduce in a delete callback gave %d, expected %d", sum_seen,
          mt_size);
    MPI_Finalized(&flag);
    CHECK(flag == 1, "MPI_Finalized gave %d after MPI_Finalize", flag);
    if (mt_errors == 0 && mt_rank == 0) {
        printf("ok: %s np=%d\n", mt_name, mt_size);
    }
    return mt_errors == 0 ? 0 : 1;
}
