/*
 * coll_hier: MPI_Allgather and MPI_Allreduce as the hierarchical, MagPIe and exchange
 * creators serve them (tests/mpi/coll_hier.sh runs it with the configs of
 * tests/mpi/configs/hier_*.scm and ranks grouped by block, by host name and by subnet).
 *
 *   Allgather  blocks of 0 B .. 256 KiB, into a plain and into a strided receive type,
 *              in place and not;
 *   Allreduce  0 .. 128K elements: MPI_SUM on int, MPI_MAX on double, MPI_SUM on a
 *              strided vector type, in place and not; MPI_SUM on doubles whose sum
 *              depends on the order of combination, where every rank must end with the
 *              same bits (compared through point-to-point messages, not a collective);
 *              with the argument "noncomm", a non-commutative user op (composition of
 *              affine maps), which must come out in rank order.
 *
 * Every result is checked against a reference computed locally.  The program does not
 * know which closure served a call: the script greps coll_verbose's output for it.
 */
#include "tests/mpi/mpitest.h"

static int me, np;

/* ---- allgather --------------------------------------------------------------------- */

static int block_value(int rank, size_t i)
{
    return rank * 1000003 + (int)i;
}

/* n ints per rank; with `strided`, received one int out of every two */
static void test_allgather(size_t n, int in_place, int strided)
{
    MPI_Datatype rtype = MPI_INT;
    size_t stride = strided ? 2 : 1, total = (size_t)np * n * stride;
    int *s = mt_malloc(n * sizeof(int)), *r = mt_malloc(total * sizeof(int));

    if (strided) {
        MPI_OK(MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &rtype));
        MPI_OK(MPI_Type_commit(&rtype));
    }
    for (size_t i = 0; i < n; i++)
        s[i] = block_value(me, i);
    for (size_t i = 0; i < total; i++)
        r[i] = -1;
    if (in_place)
        for (size_t i = 0; i < n; i++)
            r[((size_t)me * n + i) * stride] = s[i];
    MPI_OK(MPI_Allgather(in_place ? MPI_IN_PLACE : s, (int)n, MPI_INT, r, (int)n, rtype,
                         MPI_COMM_WORLD));
    for (size_t i = 0; i < total; i++) {
        int want = i % stride ? -1 : block_value((int)(i / stride / n), i / stride % n);
        if (r[i] != want) {
            CHECK(0, "Allgather %zu ints%s%s: [%zu] = %d, expected %d", n,
                  in_place ? " in place" : "", strided ? " strided" : "", i, r[i], want);
            break;
        }
    }
    if (strided)
        MPI_OK(MPI_Type_free(&rtype));
    free(s);
    free(r);
}

/* ---- allreduce --------------------------------------------------------------------- */

static int ival(int rank, size_t i)
{
    return (int)((size_t)(rank + 3) * (i % 977 + 1)) - 1000 * (rank % 3);
}

static double dval(int rank, size_t i)
{
    return (double)((rank * 7919 + (long)i * 31) % 10007) / 8.0 - 600.0;
}

static void test_sum_int(size_t n, int in_place)
{
    int *s = mt_malloc(n * sizeof(int)), *r = mt_malloc(n * sizeof(int));
    for (size_t i = 0; i < n; i++) {
        s[i] = ival(me, i);
        r[i] = in_place ? s[i] : -7;
    }
    MPI_OK(MPI_Allreduce(in_place ? MPI_IN_PLACE : s, r, (int)n, MPI_INT, MPI_SUM,
                         MPI_COMM_WORLD));
    for (size_t i = 0; i < n; i++) {
        int want = 0;
        for (int q = 0; q < np; q++)
            want += ival(q, i);
        if (r[i] != want) {
            CHECK(0, "Allreduce SUM int count %zu%s: [%zu] = %d, expected %d", n,
                  in_place ? " in place" : "", i, r[i], want);
            break;
        }
    }
    free(s);
    free(r);
}

static void test_max_double(size_t n, int in_place)
{
    double *s = mt_malloc(n * sizeof(double)), *r = mt_malloc(n * sizeof(double));
    for (size_t i = 0; i < n; i++) {
        s[i] = dval(me, i);
        r[i] = in_place ? s[i] : -1e300;
    }
    MPI_OK(MPI_Allreduce(in_place ? MPI_IN_PLACE : s, r, (int)n, MPI_DOUBLE, MPI_MAX,
                         MPI_COMM_WORLD));
    for (size_t i = 0; i < n; i++) {
        double want = dval(0, i);
        for (int q = 1; q < np; q++)
            want = dval(q, i) > want ? dval(q, i) : want;
        if (r[i] != want) {
            CHECK(0, "Allreduce MAX double count %zu%s: [%zu] = %g, expected %g", n,
                  in_place ? " in place" : "", i, r[i], want);
            break;
        }
    }
    free(s);
    free(r);
}

/* n ints strided by 3 (a vector type), the gaps left alone */
static void test_sum_vector(size_t n, int in_place)
{
    MPI_Datatype vec;
    size_t span = 3 * n;
    int *s = mt_malloc(span * sizeof(int)), *r = mt_malloc(span * sizeof(int));

    MPI_OK(MPI_Type_create_resized(MPI_INT, 0, 3 * sizeof(int), &vec));
    MPI_OK(MPI_Type_commit(&vec));
    for (size_t i = 0; i < span; i++) {
        s[i] = i % 3 ? -5 : ival(me, i / 3);
        r[i] = in_place ? s[i] : -9;
    }
    MPI_OK(MPI_Allreduce(in_place ? MPI_IN_PLACE : s, r, (int)n, vec, MPI_SUM, MPI_COMM_WORLD));
    for (size_t i = 0; i < span; i++) {
        int want = in_place ? -5 : -9;
        if (i % 3 == 0) {
            want = 0;
            for (int q = 0; q < np; q++)
                want += ival(q, i / 3);
        }
        if (r[i] != want) {
            CHECK(0, "Allreduce SUM vector count %zu%s: [%zu] = %d, expected %d", n,
                  in_place ? " in place" : "", i, r[i], want);
            break;
        }
    }
    MPI_OK(MPI_Type_free(&vec));
    free(s);
    free(r);
}

/* FNV-1a of a buffer's bytes */
static uint64_t digest(const void *buf, size_t len)
{
    const unsigned char *p = buf;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* values of mixed signs spread over 16 orders of magnitude: their sum's rounding depends
   on the order of combination */
static double wide(int rank, size_t i)
{
    static const double scale[5] = {1.0, 1e4, 1e8, 1e12, 1e16};
    return (double)(((long)rank * 37 + (long)i * 11) % 101 - 50) * 1.1 *
           scale[((size_t)rank + i) % 5];
}

/* every rank must get the same bits, and a value within rounding of the exact sum */
static void test_same_bits(size_t n, MPI_Comm p2p)
{
    double *s = mt_malloc(n * sizeof(double)), *r = mt_malloc(n * sizeof(double));
    for (size_t i = 0; i < n; i++)
        s[i] = wide(me, i);
    MPI_OK(MPI_Allreduce(s, r, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    for (size_t i = 0; i < n; i++) {
        double want = 0, mag = 0;
        for (int q = 0; q < np; q++) {
            want += wide(q, i);
            mag += wide(q, i) < 0 ? -wide(q, i) : wide(q, i);
        }
        double err = r[i] > want ? r[i] - want : want - r[i];
        if (err > 1e-14 * mag) {
            CHECK(0, "Allreduce SUM double count %zu: [%zu] = %.17g, expected about %.17g", n, i,
                  r[i], want);
            break;
        }
    }
    uint64_t mine = digest(r, n * sizeof(double));
    if (me == 0) {
        for (int q = 1; q < np; q++) {
            uint64_t theirs;
            MPI_OK(MPI_Recv(&theirs, 1, MPI_UINT64_T, q, 7, p2p, MPI_STATUS_IGNORE));
            CHECK(theirs == mine, "Allreduce SUM double count %zu: rank %d got other bits than 0",
                  n, q);
        }
    } else {
        MPI_OK(MPI_Send(&mine, 1, MPI_UINT64_T, 0, 7, p2p));
    }
    free(s);
    free(r);
}

static void test_noncommutative(size_t n, int in_place, MPI_Op op, MPI_Datatype pair)
{
    unsigned *s = mt_malloc(2 * n * sizeof(unsigned)), *r = mt_malloc(2 * n * sizeof(unsigned));
    mt_affine_fill(s, n, me);
    for (size_t i = 0; i < 2 * n; i++) {
        r[i] = in_place ? s[i] : 0;
    }
    MPI_OK(MPI_Allreduce(in_place ? MPI_IN_PLACE : s, r, (int)n, pair, op, MPI_COMM_WORLD));
    mt_affine_check(r, n, np,
                    in_place ? "Allreduce affine (non-commutative) in place"
                             : "Allreduce affine (non-commutative)");
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    /* bytes per block (allgather), elements (allreduce) */
    static const size_t gather_bytes[] = {0, 4, 40, 4096, 65536, 262144};
    static const size_t counts[] = {0, 1, 7, 1000, 16384, 131072};
    int noncomm = argc > 1 && strcmp(argv[1], "noncomm") == 0;
    MPI_Comm p2p;
    MPI_Op op;
    MPI_Datatype pair;

    mt_init(&argc, &argv, "coll_hier");
    MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &np));
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &p2p));
    MPI_OK(MPI_Op_create(mt_affine, 0, &op));
    MPI_OK(MPI_Type_contiguous(2, MPI_UNSIGNED, &pair));
    MPI_OK(MPI_Type_commit(&pair));

    for (size_t k = 0; k < sizeof(gather_bytes) / sizeof(gather_bytes[0]); k++) {
        size_t n = gather_bytes[k] / sizeof(int);
        for (int ip = 0; ip < 2; ip++) {
            test_allgather(n, ip, 0);
            if (gather_bytes[k] <= 65536)
                test_allgather(n, ip, 1);
        }
    }
    for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
        size_t n = counts[k];
        for (int ip = 0; ip < 2; ip++) {
            test_sum_int(n, ip);
            test_max_double(n, ip);
            if (n <= 16384) {
                test_sum_vector(n, ip);
                if (noncomm)
                    test_noncommutative(n, ip, op, pair);
            }
        }
        test_same_bits(n, p2p);
    }

    MPI_OK(MPI_Type_free(&pair));
    MPI_OK(MPI_Op_free(&op));
    MPI_OK(MPI_Comm_free(&p2p));
    return mt_finish();
}
