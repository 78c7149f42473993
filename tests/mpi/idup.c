/*
 * idup: MPI_Comm_idup and MPI_Comm_idup_with_info.  The call never waits for another
 * process: rank 0 idups WORLD and then Ssends to rank 1, which idups only after receiving
 * (a blocking agreement would deadlock).  Communicators made while idups are pending
 * (a blocking dup of a pair, a split) get other context ids: the same tags on all of them
 * never cross.  Attributes are copied, the error handler inherited, hints replaced by
 * _with_info; an idup of an idup, hundreds of idups and frees (the pool refilled by
 * blocking dups), 1000 idups of one communicator pending at once (beyond its pool: ids
 * agreed without waiting, also where rank 0 Ssends to rank 1 meanwhile), collectives on
 * the new communicators, bad arguments.
 */
#include "tests/mpi/mpitest.h"

#include <stdlib.h>
#include <string.h>

static int copies;

static int copy_fn(MPI_Comm c, int key, void *extra, void *in, void *out, int *flag)
{
    (void)c, (void)key, (void)extra;
    copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

/* each rank sends its rank on every communicator with one tag, then receives them in the
   reverse order: each must carry its own communicator's message */
static void no_crossing(MPI_Comm *cs, int n)
{
    MPI_Request rq[16];
    int out[16], in[16], size, me;
    for (int i = 0; i < n; i++) {
        MPI_OK(MPI_Comm_rank(cs[i], &me));
        MPI_OK(MPI_Comm_size(cs[i], &size));
        out[i] = 1000 * i + me;
        MPI_OK(MPI_Isend(&out[i], 1, MPI_INT, (me + 1) % size, 5, cs[i], &rq[i]));
    }
    for (int i = n - 1; i >= 0; i--) {
        MPI_OK(MPI_Comm_rank(cs[i], &me));
        MPI_OK(MPI_Comm_size(cs[i], &size));
        MPI_OK(MPI_Recv(&in[i], 1, MPI_INT, MPI_ANY_SOURCE, 5, cs[i], MPI_STATUS_IGNORE));
        CHECK(in[i] == 1000 * i + (me + size - 1) % size, "communicator %d got %d", i, in[i]);
    }
    MPI_OK(MPI_Waitall(n, rq, MPI_STATUSES_IGNORE));
}

/* MPI_Comm_idup of `comm`, with rank 0 starting it before a synchronous send to rank 1,
   which starts its own only after that receive: the idup must not wait for the others */
static void idup_before_ssend(MPI_Comm comm, int tag, MPI_Comm *out, MPI_Request *req)
{
    int x = 0;
    if (mt_size > 1 && mt_rank == 0) {
        MPI_OK(MPI_Comm_idup(comm, out, req));
        MPI_OK(MPI_Ssend(&x, 1, MPI_INT, 1, tag, MPI_COMM_WORLD));
    } else if (mt_size > 1 && mt_rank == 1) {
        MPI_OK(MPI_Recv(&x, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MPI_OK(MPI_Comm_idup(comm, out, req));
    } else {
        MPI_OK(MPI_Comm_idup(comm, out, req));
    }
}

int main(int argc, char **argv)
{
    MPI_Comm a, b, pair, split, inner;
    MPI_Request r1, r2, r3;
    int key, flag, x = 0, sum;
    void *val;

    mt_init(&argc, &argv, "idup");
    MPI_OK(MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    MPI_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, key, &x));
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    /* no waiting for the others: a blocking agreement would deadlock here */
    idup_before_ssend(MPI_COMM_WORLD, 1, &a, &r1);
    /* more while it is pending: an idup with info, a blocking dup of a pair, a split */
    MPI_Info info;
    MPI_OK(MPI_Info_create(&info));
    MPI_OK(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    MPI_OK(MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &b, &r2));
    MPI_OK(MPI_Info_free(&info));
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, mt_rank / 2, 0, &pair));
    MPI_OK(MPI_Comm_dup(pair, &split));
    MPI_OK(MPI_Comm_idup(a, &inner, &r3)); /* an idup of a pending idup's communicator */
    MPI_OK(MPI_Wait(&r3, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Wait(&r2, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Wait(&r1, MPI_STATUS_IGNORE));
    CHECK(r1 == MPI_REQUEST_NULL, "request not freed by the wait");

    MPI_Comm all[6] = {MPI_COMM_WORLD, a, b, pair, split, inner};
    no_crossing(all, 6);
    int res;
    MPI_OK(MPI_Comm_compare(MPI_COMM_WORLD, a, &res));
    CHECK(res == MPI_CONGRUENT, "compare: %d", res);
    MPI_OK(MPI_Comm_get_attr(a, key, &val, &flag));
    CHECK(flag && val == &x, "attribute not copied");
    CHECK(copies == 2 + 1, "copy callback ran %d times", copies); /* a, b; inner from a */
    MPI_Errhandler eh;
    MPI_OK(MPI_Comm_get_errhandler(a, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "error handler not inherited");
    MPI_OK(MPI_Errhandler_free(&eh));
    MPI_OK(MPI_Comm_get_info(b, &info));
    char v[16];
    int vlen = sizeof(v);
    MPI_OK(MPI_Info_get_string(info, "mpi_assert_no_any_tag", &vlen, v, &flag));
    CHECK(flag && strcmp(v, "true") == 0, "idup_with_info hint: %d %s", flag, flag ? v : "");
    MPI_OK(MPI_Info_free(&info));
    MPI_OK(MPI_Allreduce(&mt_rank, &sum, 1, MPI_INT, MPI_SUM, inner));
    CHECK(sum == mt_size * (mt_size - 1) / 2, "Allreduce on an idup: %d", sum);

    /* hundreds of idups and frees of WORLD, a blocking dup now and then refills the pool;
       nonblocking collectives on each */
    for (int i = 0; i < 600; i++) {
        MPI_Comm c;
        MPI_Request r;
        MPI_OK(MPI_Comm_idup(MPI_COMM_WORLD, &c, &r));
        MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        if (i % 50 == 0) {
            MPI_Comm d;
            MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
            MPI_OK(MPI_Comm_free(&d));
        }
        if (i % 100 == 0) {
            MPI_OK(MPI_Iallreduce(&mt_rank, &sum, 1, MPI_INT, MPI_SUM, c, &r));
            MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
            CHECK(sum == mt_size * (mt_size - 1) / 2, "Iallreduce on idup %d: %d", i, sum);
        }
        MPI_OK(MPI_Comm_free(&c));
    }
    /* 1000 idups of an idup pending at once (far beyond its pool: the rest agree on their
       ids without waiting), then Waitall; all distinct, collectives on them */
    {
        enum { N = 1000 };
        MPI_Comm *made = malloc(N * sizeof(*made));
        MPI_Request *rq = malloc(N * sizeof(*rq));
        for (int i = 0; i < N; i++) {
            MPI_OK(MPI_Comm_idup(inner, &made[i], &rq[i]));
        }
        MPI_OK(MPI_Waitall(N, rq, MPI_STATUSES_IGNORE));
        for (int k = 0; k + 16 <= N; k += 200) {
            no_crossing(&made[k], 16);
        }
        no_crossing(&made[N - 16], 16);
        MPI_OK(MPI_Allreduce(&mt_rank, &sum, 1, MPI_INT, MPI_SUM, made[N - 1]));
        CHECK(sum == mt_size * (mt_size - 1) / 2, "Allreduce on the last idup: %d", sum);
        for (int i = 0; i < N; i++) {
            MPI_OK(MPI_Comm_free(&made[i]));
        }

        /* an empty pool's idup never waits either: rank 0 idups, then Ssends to rank 1,
           which idups after receiving; a blocking dup, a split and idups of another
           communicator meanwhile; none crosses another */
        MPI_Comm c, d, e, f, g;
        MPI_Request r, rf;
        for (int i = 0; i < 300; i++) { /* inner's pool and its children's: empty */
            MPI_OK(MPI_Comm_idup(inner, &made[i], &rq[i]));
        }
        MPI_OK(MPI_Waitall(300, rq, MPI_STATUSES_IGNORE));
        idup_before_ssend(inner, 2, &c, &r);
        MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
        MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, mt_rank % 2, 0, &e));
        MPI_OK(MPI_Comm_idup(made[299], &f, &rf));
        MPI_OK(MPI_Comm_dup(inner, &g));
        MPI_OK(MPI_Wait(&rf, MPI_STATUS_IGNORE));
        MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        MPI_Comm mix[8] = {c, d, e, f, g, inner, made[0], made[299]};
        no_crossing(mix, 8);
        MPI_Comm frees2[] = {c, d, e, f, g};
        for (int i = 0; i < 5; i++)
            MPI_OK(MPI_Comm_free(&frees2[i]));
        for (int i = 0; i < 300; i++)
            MPI_OK(MPI_Comm_free(&made[i]));
        free(made);
        free(rq);
    }

    /* bad arguments */
    {
        MPI_Comm c;
        MPI_Request r;
        int cls = -1, rc = MPI_Comm_idup(MPI_COMM_NULL, &c, &r);
        MPI_Error_class(rc, &cls);
        CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_COMM, "idup of COMM_NULL: class %d", cls);
        rc = MPI_Comm_idup(MPI_COMM_WORLD, &c, NULL);
        MPI_Error_class(rc, &cls);
        CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_ARG, "NULL request: class %d", cls);
    }
    MPI_Comm frees[] = {a, b, pair, split, inner};
    for (int i = 0; i < 5; i++)
        MPI_OK(MPI_Comm_free(&frees[i]));
    MPI_OK(MPI_Comm_delete_attr(MPI_COMM_WORLD, key));
    MPI_OK(MPI_Comm_free_keyval(&key));
    return mt_finish();
}
