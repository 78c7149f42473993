/*
 * coll_agree: a bcast whose closure cannot run alike on every rank (the config given by
 * coll_config.sh: a creator that builds another tree on rank 0, configs/nondet.scm; one
 * that fails on the last rank for 12 bytes, configs/creator_fail.scm; a Scheme closure
 * that raises on the last rank, configs/raise_run.scm; an anonymous lambda that runs
 * another tree on rank 0, configs/anon_rank.scm; an inner description invalid on one
 * rank, configs/bad_tree_one.scm; alone, behind a Scheme wrapper, behind two, behind
 * (profiling ...)), called as the first argument
 * says: "blocking" (MPI_Bcast), "nb" (MPI_Ibcast, then MPI_Wait) or "persist"
 * (MPI_Bcast_init, MPI_Start, MPI_Wait, twice), with the default settings.
 *
 * Under MPI_ERRORS_RETURN every rank gets an error -- a nonblocking or persistent call
 * returns at once and its request completes with it -- of the same class and the same
 * code on every rank, whose MPI_Error_string names the ranks and contains the text of
 * the argument want:TEXT; the same call fails again the same way, and the communicator
 * then serves an allreduce right.  Nothing is printed (coll_config.sh's quiet=).  In
 * "nb" mode, two MPI_Ibcast of the key on a fresh communicator, both outstanding (the
 * second starts before the first's agreement is judged, on some ranks or all), end in
 * MPI_Waitall with MPI_ERR_IN_STATUS and each status the same error.
 *
 * With the argument "fatal" the program keeps MPI_ERRORS_ARE_FATAL: the first bcast ends
 * the job with one message (error1=).
 *
 * With the argument "inter" the calls are made on an intercommunicator of two halves of
 * WORLD (run_inter; with "sizes" as well, where the config fails 12-byte calls only, an
 * allreduce and a bcast of 16 bytes follow the failures and must be right); with the mode
 * "later", a Scheme closure raises at runs after its first (run_later).
 *
 * With the argument "threads" (MPI_THREAD_MULTIPLE) three threads per rank, each on a
 * communicator of its own, make the failing bcast blocking and nonblocking at once, and
 * between them allreduces of sizes of their own (misses that succeed): each thread gets
 * its errors with the right class and string (codes are numbered per process, so they
 * are not compared) and right sums; the agreements of different communicators never
 * take each other's messages.
 *
 * compi only: the config files are compi's (run by coll_config.sh).
 */
#include "tests/mpi/mpitest.h"

#include <pthread.h>
#include <stdint.h>

#define NTHREADS 3

/* rc, what starting a call in `mode' gave ("nb": its request, "persist": its inactive
   persistent request), completed: "nb" waits for it, "persist" starts and waits for it
   twice (both must end alike) and frees it; the error */
static int complete(const char *mode, int rc, MPI_Request *req, const char *what)
{
    CHECK(rc == MPI_SUCCESS, "%s itself failed (%d): its request should", what, rc);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (strcmp(mode, "nb") == 0) {
        return MPI_Wait(req, MPI_STATUS_IGNORE);
    }
    int rcs[2];
    for (int i = 0; i < 2; i++) {
        rcs[i] = MPI_Start(req);
        if (rcs[i] == MPI_SUCCESS) {
            rcs[i] = MPI_Wait(req, MPI_STATUS_IGNORE);
        }
    }
    CHECK((rcs[0] == MPI_SUCCESS) == (rcs[1] == MPI_SUCCESS),
          "the two starts of one persistent %s gave %d and %d", what, rcs[0], rcs[1]);
    MPI_OK(MPI_Request_free(req));
    return rcs[0];
}

/* a bcast of 3 ints from `root' in `mode'; its error */
static int bcast3_root(const char *mode, int *buf, int root, MPI_Comm comm)
{
    MPI_Request req;
    if (strcmp(mode, "blocking") == 0) {
        return MPI_Bcast(buf, 3, MPI_INT, root, comm);
    }
    if (strcmp(mode, "nb") == 0) {
        return complete(mode, MPI_Ibcast(buf, 3, MPI_INT, root, comm, &req), &req, "MPI_Ibcast");
    }
    return complete(mode, MPI_Bcast_init(buf, 3, MPI_INT, root, comm, MPI_INFO_NULL, &req), &req,
                    "MPI_Bcast_init");
}

static int bcast3(const char *mode, int *buf, MPI_Comm comm)
{
    return bcast3_root(mode, buf, 0, comm);
}

/* rc is an error, the same code on every rank (compared over `same', unless it is
   MPI_COMM_NULL), whose string names the ranks and want; returns its class */
static int expect_failure(int rc, const char *want, const char *what, MPI_Comm same)
{
    char text[MPI_MAX_ERROR_STRING] = "";
    int cls = MPI_SUCCESS, len = 0;

    CHECK(rc != MPI_SUCCESS, "%s: succeeded on rank %d", what, mt_rank);
    if (rc != MPI_SUCCESS) {
        MPI_OK(MPI_Error_class(rc, &cls));
        MPI_OK(MPI_Error_string(rc, text, &len));
    }
    int mine[2] = {rc, -rc}, all[2];
    if (same != MPI_COMM_NULL) {
        MPI_OK(MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MAX, same));
        CHECK(all[0] == rc && -all[1] == rc, "%s: error code %d here, others between %d and %d",
              what, rc, -all[1], all[0]);
    }
    CHECK(rc == MPI_SUCCESS || (strstr(text, want) != NULL && strstr(text, "rank") != NULL),
          "%s: MPI_Error_string is '%s', without '%s' or the ranks", what, text, want);
    return cls;
}

static const char *want = "rank";
static MPI_Comm own[NTHREADS];

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg, buf[3];
    for (int round = 0; round < 3; round++) {
        expect_failure(bcast3("blocking", buf, own[t]), want, "a thread's bcast", MPI_COMM_NULL);
        expect_failure(bcast3("nb", buf, own[t]), want, "a thread's ibcast", MPI_COMM_NULL);
        /* a size of this thread and round: a miss that succeeds */
        int n = 1 + t + NTHREADS * round, in[16], out[16];
        for (int i = 0; i < n; i++) {
            in[i] = mt_rank + i;
        }
        MPI_OK(MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, own[t]));
        for (int i = 0; i < n; i++) {
            CHECK(out[i] == mt_size * (mt_size - 1) / 2 + mt_size * i,
                  "thread %d round %d: sum[%d] = %d", t, round, i, out[i]);
        }
    }
    return NULL;
}

static int run_threads(void)
{
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &own[t]));
        MPI_OK(MPI_Comm_set_errhandler(own[t], MPI_ERRORS_RETURN));
    }
    for (int t = 0; t < NTHREADS; t++) {
        CHECK(pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t) == 0, "pthread_create");
    }
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        MPI_OK(MPI_Comm_free(&own[t]));
    }
    return mt_finish();
}

/* an allreduce of 3 ints on intercommunicator ic in `mode'; its error (right sums when
   it succeeds: the other group's) */
static int inter_allreduce3(const char *mode, MPI_Comm ic, int low)
{
    int in[3], out[3] = {-1, -1, -1}, nlow = mt_size / 2;
    MPI_Request req;
    for (int i = 0; i < 3; i++) {
        in[i] = mt_rank + i;
    }
    int rc =
        strcmp(mode, "blocking") == 0 ? MPI_Allreduce(in, out, 3, MPI_INT, MPI_SUM, ic)
        : strcmp(mode, "nb") == 0
            ? complete(mode, MPI_Iallreduce(in, out, 3, MPI_INT, MPI_SUM, ic, &req), &req,
                       "MPI_Iallreduce")
            : complete(mode,
                       MPI_Allreduce_init(in, out, 3, MPI_INT, MPI_SUM, ic, MPI_INFO_NULL, &req),
                       &req, "MPI_Allreduce_init");
    /* the other group's world ranks: nlow .. size-1, or 0 .. nlow-1 */
    int first = low ? nlow : 0, n = low ? mt_size - nlow : nlow;
    for (int i = 0; rc == MPI_SUCCESS && i < 3; i++) {
        CHECK(out[i] == n * first + n * (n - 1) / 2 + n * i, "intercommunicator allreduce [%d]: %d",
              i, out[i]);
    }
    return rc;
}

/*
 * "inter": the intercommunicator of the lower half of WORLD (size / 2 ranks) against the
 * upper, with a config that makes its allreduce and bcast fail on one rank
 * (configs/inter_nondet.scm, configs/inter_fail.scm; configs/inter_raise.scm: a Scheme
 * closure of one group that raises on one rank): MPI_Iallreduce and MPI_Ibcast (or
 * their persistent forms, "persist", or MPI_Allreduce and MPI_Bcast, "blocking") each fail twice on
 * every rank of both groups with the same code (compared over WORLD); then the intercommunicator
 * serves calls the config leaves alone right: MPI_Igather to each root of the lower group in turn
 * (the lower group's key is one for every root, the upper group's one per root: their caches miss
 * at different calls) and MPI_Iallgather, twice.  "sizes": first an MPI_Allreduce and an
 * MPI_Bcast of 16 bytes, right.  "fatal": the first call ends the job.
 */
static int run_inter(const char *mode, int fatal, int sizes)
{
    int nlow = mt_size / 2, low = mt_rank < nlow, buf[3] = {0};
    MPI_Comm half, ic;
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, !low, mt_rank, &half));
    MPI_OK(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? nlow : 0, 23, &ic));
    if (fatal) {
        inter_allreduce3(mode, ic, low);
        CHECK(0, "the intercommunicator allreduce returned under MPI_ERRORS_ARE_FATAL");
        return mt_finish();
    }
    MPI_OK(MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN));
    int root = low ? (mt_rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    for (int i = 0; i < 2; i++) {
        expect_failure(inter_allreduce3(mode, ic, low), want, "an intercommunicator allreduce",
                       MPI_COMM_WORLD);
        expect_failure(bcast3_root(mode, buf, root, ic), want, "an intercommunicator bcast",
                       MPI_COMM_WORLD);
    }
    if (sizes) {
        /* other sizes (the config leaves them alone): right, so nothing of a collective
           one group abandoned was left to be matched */
        int in[4], out[4], b4[4], n = low ? mt_size - nlow : nlow, first = low ? nlow : 0;
        for (int i = 0; i < 4; i++) {
            in[i] = mt_rank + i;
            b4[i] = mt_rank == 0 ? 40 + i : -1;
        }
        MPI_OK(MPI_Allreduce(in, out, 4, MPI_INT, MPI_SUM, ic));
        MPI_OK(MPI_Bcast(b4, 4, MPI_INT, root, ic));
        for (int i = 0; i < 4; i++) {
            CHECK(out[i] == n * first + n * (n - 1) / 2 + n * i, "allreduce of 4 [%d]: %d", i,
                  out[i]);
            CHECK(low || b4[i] == 40 + i, "bcast of 4 [%d]: %d", i, b4[i]);
        }
    }

    int nrem = low ? mt_size - nlow : nlow, first = low ? nlow : 0;
    int *all = malloc(sizeof(int) * (size_t)mt_size);
    for (int round = 0; round < 2; round++) {
        for (int r = 0; r < nlow; r++) {
            MPI_Request req;
            int groot = low ? (mt_rank == r ? MPI_ROOT : MPI_PROC_NULL) : r;
            for (int j = 0; j < nrem; j++) {
                all[j] = -1;
            }
            MPI_OK(MPI_Igather(&mt_rank, 1, MPI_INT, all, 1, MPI_INT, groot, ic, &req));
            MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            for (int j = 0; groot == MPI_ROOT && j < nrem; j++) {
                CHECK(all[j] == first + j, "igather to root %d: [%d] = %d", r, j, all[j]);
            }
        }
        MPI_Request req;
        MPI_OK(MPI_Iallgather(&mt_rank, 1, MPI_INT, all, 1, MPI_INT, ic, &req));
        MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        for (int j = 0; j < nrem; j++) {
            CHECK(all[j] == first + j, "iallgather: [%d] = %d", j, all[j]);
        }
    }
    free(all);
    MPI_OK(MPI_Comm_free(&ic));
    MPI_OK(MPI_Comm_free(&half));
    return mt_finish();
}

/*
 * "later": a Scheme closure whose runs after its first raise on one rank (the root) between
 * the two closures it runs (configs/raise_later.scm).  Its first run is agreed on and
 * succeeds everywhere; at each later one (not agreed, coll_check_determinism 1) the root
 * raises, still runs its part of what it skipped (the others are not left in the tree),
 * and every rank fails the call with the same code, whose string names the closure and the
 * rank; no hang, nothing printed.  "fatal": the second bcast ends the job.
 */
static int run_later(MPI_Comm comm, int fatal)
{
    if (!fatal) {
        MPI_OK(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    }
    for (int round = 0; round < 4; round++) {
        int buf[3];
        for (int i = 0; i < 3; i++) {
            buf[i] = mt_rank == 0 ? 100 * round + i : -1;
        }
        int rc = MPI_Bcast(buf, 3, MPI_INT, 0, comm), failed = rc != MPI_SUCCESS, nfailed = 0;
        CHECK(!fatal || round == 0, "bcast %d returned under MPI_ERRORS_ARE_FATAL", round);
        MPI_OK(MPI_Allreduce(&failed, &nfailed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        CHECK(nfailed == (round > 0 && mt_size > 1 ? mt_size : 0),
              "bcast %d failed on %d ranks (here: %d); expected %s", round, nfailed, failed,
              round > 0 ? "every rank" : "none (the agreed first run)");
        if (round > 0 && mt_size > 1) {
            expect_failure(rc, want, "a later bcast", MPI_COMM_WORLD);
        }
        for (int i = 0; i < 3 && !failed; i++) {
            CHECK(buf[i] == 100 * round + i, "bcast %d: buf[%d] = %d on rank %d", round, i, buf[i],
                  mt_rank);
        }
    }
    int one = 1, sum = 0;
    MPI_OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK(sum == mt_size, "allreduce after the bcasts: %d, expected %d", sum, mt_size);
    MPI_OK(MPI_Comm_free(&comm));
    return mt_finish();
}

int main(int argc, char **argv)
{
    int buf[3] = {0}, fatal = 0, threads = 0, inter = 0, sizes = 0;
    const char *mode = "blocking";
    MPI_Comm comm;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "fatal") == 0) {
            fatal = 1;
        } else if (strcmp(argv[i], "threads") == 0) {
            threads = 1;
        } else if (strcmp(argv[i], "inter") == 0) {
            inter = 1;
        } else if (strcmp(argv[i], "sizes") == 0) {
            sizes = 1;
        } else if (strncmp(argv[i], "want:", 5) == 0) {
            want = argv[i] + 5;
        } else {
            mode = argv[i];
        }
    }
    if (threads) {
        mt_init_level(&argc, &argv, "coll_agree", 1);
        return run_threads();
    }
    mt_init(&argc, &argv, "coll_agree");
    if (inter) {
        return run_inter(mode, fatal, sizes);
    }
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    if (strcmp(mode, "later") == 0) {
        return run_later(comm, fatal);
    }
    if (fatal) {
        bcast3(mode, buf, comm);
        CHECK(0, "the bcast returned under MPI_ERRORS_ARE_FATAL");
        return mt_finish();
    }
    MPI_OK(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));

    for (int i = 0; i < 3; i++) {
        buf[i] = mt_rank == 0 ? 7 + i : -1;
    }
    int c1 = expect_failure(bcast3(mode, buf, comm), want, "the first bcast", MPI_COMM_WORLD);
    int c2 = expect_failure(bcast3(mode, buf, comm), want, "the same bcast again", MPI_COMM_WORLD);
    CHECK(c1 == c2, "the same bcast failed with class %d, then %d", c1, c2);

    if (strcmp(mode, "nb") == 0) {
        MPI_Comm d;
        MPI_Request r[2];
        MPI_Status st[2];
        int b2[3], cls = -1;
        MPI_OK(MPI_Comm_dup(comm, &d)); /* an empty cache, MPI_ERRORS_RETURN */
        MPI_OK(MPI_Ibcast(buf, 3, MPI_INT, 0, d, &r[0]));
        MPI_OK(MPI_Ibcast(b2, 3, MPI_INT, 0, d, &r[1]));
        /* compi raises a multiple completion's MPI_ERR_IN_STATUS on MPI_COMM_WORLD */
        MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
        int rc = MPI_Waitall(2, r, st);
        MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
        MPI_OK(MPI_Error_class(rc, &cls));
        CHECK(cls == MPI_ERR_IN_STATUS, "Waitall of two failing ibcasts: class %d", cls);
        for (int i = 0; i < 2; i++) {
            int ci = expect_failure(st[i].MPI_ERROR, want, "an outstanding ibcast", MPI_COMM_NULL);
            CHECK(ci == c1, "outstanding ibcast %d: class %d, the first bcast's %d", i, ci, c1);
        }
        MPI_OK(MPI_Comm_free(&d));
    }

    /* the communicator still works */
    int one = 1, sum = 0;
    MPI_OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK(sum == mt_size, "allreduce after the failures: %d, expected %d", sum, mt_size);
    MPI_OK(MPI_Comm_free(&comm));
    return mt_finish();
}
