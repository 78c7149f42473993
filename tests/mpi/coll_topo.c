/*
 * coll_topo: the collectives that topology configs serve with trees (barrier, bcast,
 * reduce, allreduce, gather, scatter) and allgather, checked against references computed
 * locally, on three communicators: WORLD, WORLD reversed (the creators then see the rank
 * facts in another order) and the halves of WORLD (even ranks, odd ranks: groups of the
 * layout lose members, some disappear).
 *
 * Run by tests/mpi/topo_layouts.sh under configs that group ranks by host name, subnet
 * or both (tests/mpi/configs/topo_*.scm) with host names and addresses overridden per
 * rank; the program itself knows nothing of the config and checks only results.  That
 * the trees did serve the calls is checked by the script, from --mca coll_verbose 1.
 *
 * What rank r contributes is a function of (r, index, call number), so every rank can
 * compute the result of every call.  Block sizes 0 B to 256 KiB (64 KiB on the reversed
 * and halved communicators); roots 0, size-1 and size/2; MPI_IN_PLACE wherever the
 * standard allows it; reductions with MPI_SUM and with a non-commutative user op
 * (composition of affine maps, which a tree must combine in rank order: the creators
 * hand such calls on unless their tree is rank-ordered).  Receive buffers carry
 * sentinels past their end, which must stay untouched.
 *
 * Barrier is checked by wall-clock time: one rank enters late, and no rank may leave
 * before that rank entered (all ranks run on one machine: CLOCK_REALTIME is shared).
 */
#include "tests/mpi/mpitest.h"

#include <time.h>

#define GUARD 8

static const long sizes[] = {0, 8, 4096, 65536, 262144}; /* bytes per rank */
static int salt;                                         /* call number, equal on all ranks */

/* the communicator under test */
static MPI_Comm comm;
static int me, np;
static const char *comm_name;
static mt_coll_t cur;         /* the same, for mpitest.h's collective checks */
static MPI_Datatype affine_t; /* two ints: x -> a*x + b (mod 2^32) */
static MPI_Op affine_op;

/* ---- the non-commutative op -------------------------------------------------------- */

/* (a1,b1) then (a2,b2): x -> a2*(a1*x + b1) + b2; inout = in . inout, in from lower ranks */
static void affine_compose(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const int *x = in;
    int *y = inout;

    (void)dt;
    for (int i = 0; i < *len; i++) {
        uint32_t a1 = (uint32_t)x[2 * i], b1 = (uint32_t)x[2 * i + 1];
        uint32_t a2 = (uint32_t)y[2 * i], b2 = (uint32_t)y[2 * i + 1];
        y[2 * i] = (int)(a1 * a2);
        y[2 * i + 1] = (int)(a2 * b1 + b2);
    }
}

/* element i (two ints) of rank r's contribution to call s */
static void affine_val(long r, long i, int s, int *out)
{
    out[0] = mt_ival(r, 2 * i, s) | 1; /* odd: no factor of 2 wipes the high bits */
    out[1] = mt_ival(r, 2 * i + 1, s);
}

/* the reference: the maps of ranks 0, 1, ..., np-1 composed in that order */
static void affine_expect(long i, int s, int *out)
{
    affine_val(0, i, s, out);
    for (int r = 1; r < np; r++) {
        int next[2];
        int one = 1;

        affine_val(r, i, s, next);
        affine_compose(out, next, &one, NULL);
        out[0] = next[0];
        out[1] = next[1];
    }
}

/* ---- one collective each ------------------------------------------------------------ */

static void test_barrier(void)
{
    struct timespec ts;
    double entered, left, late_entered;
    int late = (++salt) % np;

    if (me == late) {
        struct timespec nap = {0, 30 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    clock_gettime(CLOCK_REALTIME, &ts);
    entered = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
    MPI_OK(MPI_Barrier(comm));
    clock_gettime(CLOCK_REALTIME, &ts);
    left = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
    late_entered = entered;
    MPI_OK(MPI_Bcast(&late_entered, 1, MPI_DOUBLE, late, comm));
    CHECK(left >= late_entered, "Barrier on %s: left %.6f s before rank %d entered", comm_name,
          late_entered - left, late);
}

/* Reduce (to root) or, with root < 0, Allreduce with the non-commutative op; n pairs */
static void test_affine(long n, int root)
{
    int s = ++salt, *sbuf = mt_ibuf(GUARD, 2 * n), *rbuf = mt_ibuf(GUARD, 2 * n),
        *exp = mt_ibuf(GUARD, 2 * n);
    char what[96];

    for (long i = 0; i < n; i++) {
        affine_val(me, i, s, sbuf + 2 * i);
        affine_expect(i, s, exp + 2 * i);
    }
    if (root < 0) {
        MPI_OK(MPI_Allreduce(sbuf, rbuf, (int)n, affine_t, affine_op, comm));
        snprintf(what, sizeof(what), "Allreduce (non-commutative) count %ld", n);
    } else {
        MPI_OK(MPI_Reduce(sbuf, rbuf, (int)n, affine_t, affine_op, root, comm));
        snprintf(what, sizeof(what), "Reduce (non-commutative) count %ld root %d", n, root);
    }
    if (root < 0 || me == root)
        mt_coll_ints(&cur, rbuf, exp, 2 * n, what);
    free(sbuf);
    free(rbuf);
    free(exp);
}

/* ---- every collective on one communicator ------------------------------------------ */

/* every collective on c, blocks up to max_bytes per rank */
static void run_all(MPI_Comm c, const char *name, long max_bytes)
{
    int roots[3], nroots = 0;

    comm = c;
    comm_name = name;
    MPI_OK(MPI_Comm_rank(c, &me));
    MPI_OK(MPI_Comm_size(c, &np));
    cur = (mt_coll_t){.comm = c, .rank = me, .size = np, .name = name, .guard = GUARD};
    /* 0, the last and the middle rank, each once */
    for (int k = 0; k < 3; k++) {
        int r = k == 0 ? 0 : k == 1 ? np - 1 : np / 2, dup = 0;
        for (int j = 0; j < nroots; j++)
            dup |= roots[j] == r;
        if (!dup)
            roots[nroots++] = r;
    }
    test_barrier();
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]) && sizes[k] <= max_bytes; k++) {
        long n = sizes[k] / (long)sizeof(int);

        for (int j = 0; j < nroots; j++) {
            mt_coll_bcast(&cur, n, roots[j], ++salt);
            for (int ip = 0; ip < 2; ip++) {
                mt_coll_reduce(&cur, n, roots[j], ip, ++salt);
                mt_coll_gather(&cur, n, roots[j], ip, ++salt);
                mt_coll_scatter(&cur, n, roots[j], ip, ++salt);
            }
        }
        for (int ip = 0; ip < 2; ip++) {
            mt_coll_reduce(&cur, n, -1, ip, ++salt);
            mt_coll_gather(&cur, n, -1, ip, ++salt);
        }
        test_affine(n / 2, roots[nroots - 1]);
        test_affine(n / 2, -1);
    }
    test_barrier();
}

int main(int argc, char **argv)
{
    MPI_Comm rev, half;
    int wrank, wsize;

    mt_init(&argc, &argv, "coll_topo");
    wrank = mt_rank;
    wsize = mt_size;
    MPI_OK(MPI_Type_contiguous(2, MPI_INT, &affine_t));
    MPI_OK(MPI_Type_commit(&affine_t));
    MPI_OK(MPI_Op_create(affine_compose, 0, &affine_op));

    /* the largest blocks on WORLD only: on 2 cores, 8 ranks take seconds for each */
    run_all(MPI_COMM_WORLD, "MPI_COMM_WORLD", 262144);
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, 0, wsize - wrank, &rev));
    run_all(rev, "WORLD reversed", 65536);
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wrank, &half));
    run_all(half, wrank % 2 ? "odd ranks of WORLD" : "even ranks of WORLD", 65536);

    MPI_OK(MPI_Comm_free(&rev));
    MPI_OK(MPI_Comm_free(&half));
    MPI_OK(MPI_Op_free(&affine_op));
    MPI_OK(MPI_Type_free(&affine_t));
    return mt_finish();
}
