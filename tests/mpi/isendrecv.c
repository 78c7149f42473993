/*
 * isendrecv: MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4).  A ring shift of every size
 * (eager and rendezvous) against MPI_Sendrecv; the request's status is the receive's
 * (source, tag, count); the receive matches ordinary sends and the send ordinary
 * receives (wildcards included); many outstanding at once, completed in reverse order,
 * interleaved with nonblocking collectives on the same communicator; replace keeps the
 * outgoing data although the incoming one lands in the same buffer; MPI_PROC_NULL sides;
 * requests freed while in flight still exchange their data; truncation; bad arguments.
 */
#include "tests/mpi/mpitest.h"

#include <string.h>

static const int lens[] = {0, 1, 100, 4096, 70000, 1 << 20};
/* the buffer of a receive freed while in flight, freed after MPI_Finalize */
static unsigned char *freed_late;
#define NLENS ((int)(sizeof(lens) / sizeof(lens[0])))

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "isendrecv");
    int right = (mt_rank + 1) % mt_size, left = (mt_rank + mt_size - 1) % mt_size;
    MPI_Status st;
    MPI_Request rq[2 * NLENS + 1];
    int count;

    /* ring shift against the blocking call */
    for (int i = 0; i < NLENS; i++) {
        int n = lens[i];
        unsigned char *s = mt_malloc((size_t)n + 1), *r = mt_malloc((size_t)n + 1);
        mt_fill(s, (size_t)n, mt_rank, i);
        memset(r, 0, (size_t)n + 1);
        MPI_OK(MPI_Isendrecv(s, n, MPI_BYTE, right, 100 + i, r, n + 1, MPI_BYTE, left, 100 + i,
                             MPI_COMM_WORLD, &rq[0]));
        MPI_OK(MPI_Wait(&rq[0], &st));
        MPI_OK(MPI_Get_count(&st, MPI_BYTE, &count));
        CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 100 + i && count == n,
              "len %d: status source %d tag %d count %d", n, st.MPI_SOURCE, st.MPI_TAG, count);
        CHECK(mt_verify(r, (size_t)n, left, i) < 0, "len %d: data corrupt", n);
        /* replace: the buffer goes right and comes back from the left */
        mt_fill(s, (size_t)n, mt_rank, 50 + i);
        MPI_OK(MPI_Isendrecv_replace(s, n, MPI_BYTE, right, 200, left, MPI_ANY_TAG,
                                     MPI_COMM_WORLD, &rq[0]));
        MPI_OK(MPI_Wait(&rq[0], &st));
        CHECK(mt_verify(s, (size_t)n, left, 50 + i) < 0 && st.MPI_TAG == 200,
              "replace len %d: data corrupt or tag %d", n, st.MPI_TAG);
        free(s);
        free(r);
    }

    /* many at once, with ordinary sends and wildcard receives on the other side, and a
       nonblocking collective in the middle: waited for in reverse order */
    {
        int out[NLENS], in[NLENS], plain_out[NLENS], plain_in[NLENS];
        MPI_Request plain[2 * NLENS], coll;
        int nb = 0, sum = 0, one = 1;
        for (int i = 0; i < NLENS; i++) {
            out[i] = mt_rank * 100 + i;
            plain_out[i] = mt_rank * 1000 + i;
            MPI_OK(MPI_Isendrecv(&out[i], 1, MPI_INT, right, 300 + i, &in[i], 1, MPI_INT,
                                 MPI_ANY_SOURCE, 400 + i, MPI_COMM_WORLD, &rq[i]));
            if (i == NLENS / 2)
                MPI_OK(MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &coll));
        }
        /* the matching sides: plain receives of the Isendrecv sends and plain sends to
           their receives (each rank's receives come from its left neighbour) */
        for (int i = 0; i < NLENS; i++) {
            MPI_OK(MPI_Irecv(&plain_in[i], 1, MPI_INT, MPI_ANY_SOURCE, 300 + i, MPI_COMM_WORLD,
                             &plain[nb++]));
            MPI_OK(MPI_Isend(&plain_out[i], 1, MPI_INT, right, 400 + i, MPI_COMM_WORLD,
                             &plain[nb++]));
        }
        for (int i = NLENS - 1; i >= 0; i--) {
            MPI_OK(MPI_Wait(&rq[i], &st));
            CHECK(in[i] == left * 1000 + i && st.MPI_SOURCE == left && st.MPI_TAG == 400 + i,
                  "many: %d got %d from %d tag %d", i, in[i], st.MPI_SOURCE, st.MPI_TAG);
        }
        MPI_OK(MPI_Waitall(nb, plain, MPI_STATUSES_IGNORE));
        for (int i = 0; i < NLENS; i++)
            CHECK(plain_in[i] == left * 100 + i, "plain receive %d got %d", i, plain_in[i]);
        MPI_OK(MPI_Wait(&coll, MPI_STATUS_IGNORE));
        CHECK(sum == mt_size, "Iallreduce among Isendrecvs: %d", sum);
        /* and a blocking collective after: the sequence numbers still agree */
        MPI_OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        CHECK(sum == mt_size, "Allreduce after: %d", sum);
    }

    /* MPI_PROC_NULL: nothing is received, the status says PROC_NULL */
    {
        int x = 5, y = 7;
        MPI_OK(MPI_Isendrecv(&x, 1, MPI_INT, MPI_PROC_NULL, 1, &y, 1, MPI_INT, MPI_PROC_NULL, 1,
                             MPI_COMM_WORLD, &rq[0]));
        MPI_OK(MPI_Wait(&rq[0], &st));
        MPI_OK(MPI_Get_count(&st, MPI_INT, &count));
        CHECK(y == 7 && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && count == 0,
              "PROC_NULL: y %d source %d tag %d count %d", y, st.MPI_SOURCE, st.MPI_TAG, count);
        MPI_OK(MPI_Isendrecv_replace(&x, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_PROC_NULL, 1,
                                     MPI_COMM_WORLD, &rq[0]));
        MPI_OK(MPI_Test(&rq[0], &count, &st));
        CHECK(count && x == 5, "replace with PROC_NULL: complete %d, x %d", count, x);
    }

    /* freed while in flight: the exchange still happens.  An eager message is delivered
       when it matches, so once a later message of the same sender has arrived, the freed
       receive (posted first, matched first) holds its data.  A large replace freed at
       once still sends its copy (and frees it) on its own. */
    {
        int x = mt_rank, later = -1, mine = mt_rank;
        unsigned char *big = mt_malloc(1 << 20);
        mt_fill(big, 1 << 20, mt_rank, 7);
        MPI_OK(MPI_Isendrecv_replace(big, 1 << 20, MPI_BYTE, right, 610, left, 610, MPI_COMM_WORLD,
                                     &rq[1]));
        MPI_OK(MPI_Request_free(&rq[1]));
        MPI_OK(
            MPI_Isendrecv_replace(&x, 1, MPI_INT, right, 600, left, 600, MPI_COMM_WORLD, &rq[0]));
        MPI_OK(MPI_Request_free(&rq[0]));
        CHECK(rq[0] == MPI_REQUEST_NULL && rq[1] == MPI_REQUEST_NULL, "freed: handles not null");
        MPI_OK(MPI_Sendrecv(&mine, 1, MPI_INT, right, 600, &later, 1, MPI_INT, left, 600,
                            MPI_COMM_WORLD, &st));
        CHECK(x == left && later == left, "freed replace: got %d, then %d (want %d)", x, later,
              left);
        /* `big` stays allocated until after MPI_Finalize: nothing says when the freed
           receive is done writing it (MPI_Finalize completes it at the latest) */
        freed_late = big;
    }

    /* errors: truncation (in the wait), bad arguments (at once) */
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    {
        int big[4] = {1, 2, 3, 4}, small[2], cls = -1, rc;
        MPI_OK(MPI_Isendrecv(big, 4, MPI_INT, right, 500, small, 2, MPI_INT, left, 500,
                             MPI_COMM_WORLD, &rq[0]));
        rc = MPI_Wait(&rq[0], &st);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE, "truncation: class %d", cls);
        rc = MPI_Isendrecv(big, 1, MPI_INT, mt_size, 1, small, 1, MPI_INT, left, 1,
                           MPI_COMM_WORLD, &rq[0]);
        MPI_Error_class(rc, &cls);
        CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_RANK, "bad dest: class %d", cls);
        rc = MPI_Isendrecv_replace(big, -1, MPI_INT, right, 1, left, 1, MPI_COMM_WORLD, &rq[0]);
        MPI_Error_class(rc, &cls);
        CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_COUNT, "negative count: class %d", cls);
        rc = MPI_Isendrecv(big, 1, MPI_INT, right, -5, small, 1, MPI_INT, left, 1,
                           MPI_COMM_WORLD, &rq[0]);
        MPI_Error_class(rc, &cls);
        CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_TAG, "bad tag: class %d", cls);
    }
    int rc = mt_finish();
    free(freed_late);
    return rc;
}
