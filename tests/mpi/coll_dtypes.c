/*
 * coll_dtypes: derived datatypes in collectives.  The library must move the type map,
 * not the bytes between its extremes: holes keep their sentinel values.
 *
 *   Bcast      a struct {int; double[3]; char} resized to its C size, and an indexed type
 *   Gather     contiguous ints sent, received as a strided vector resized to one int, so
 *              rank r's elements land in column r (a transpose); Scatter does the reverse
 *   Alltoall   strided resized send type against a contiguous receive type, and back
 *   Allreduce  a vector of doubles (every other one) with user ops; Reduce too; and a
 *              user op whose type signature comes as n contiguous doubles on even ranks
 *              and as one such vector on odd ranks (MPI allows another layout per rank)
 *
 * Counts reach past the rendezvous threshold (100 KB and more per message).
 */
#include "tests/mpi/mpitest.h"

#include <stddef.h>
#include <string.h>

#define SENT (-4242)

struct rec {
    int a;
    double b[3];
    char c;
};

static int v(int r, long i, int k)
{
    return (int)((r * 7919L + i * 104729L + k * 31L) % 1999) - 999;
}

static void check_int_arr(const int *got, const int *exp, long n, const char *what)
{
    for (long i = 0; i < n; i++)
        if (got[i] != exp[i]) {
            CHECK(0, "%s: element %ld is %d, expected %d", what, i, got[i], exp[i]);
            return;
        }
}

static void test_bcast_struct(int count, int root)
{
    MPI_Datatype t, rt;
    int bl[3] = {1, 3, 1};
    MPI_Aint disp[3] = {offsetof(struct rec, a), offsetof(struct rec, b), offsetof(struct rec, c)};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    struct rec *buf = mt_malloc((size_t)count * sizeof(*buf));

    MPI_OK(MPI_Type_create_struct(3, bl, disp, types, &t));
    MPI_OK(MPI_Type_create_resized(t, 0, sizeof(struct rec), &rt));
    MPI_OK(MPI_Type_commit(&rt));
    memset(buf, 0, (size_t)count * sizeof(*buf));
    if (mt_rank == root)
        for (int i = 0; i < count; i++) {
            buf[i].a = v(root, i, 1);
            for (int j = 0; j < 3; j++)
                buf[i].b[j] = v(root, i, 2 + j) + 0.5;
            buf[i].c = (char)(v(root, i, 5) & 0x7f);
        }
    MPI_OK(MPI_Bcast(buf, count, rt, root, MPI_COMM_WORLD));
    for (int i = 0; i < count; i++) {
        int ok = buf[i].a == v(root, i, 1) && buf[i].c == (char)(v(root, i, 5) & 0x7f);

        for (int j = 0; j < 3; j++)
            ok = ok && buf[i].b[j] == v(root, i, 2 + j) + 0.5;
        if (!ok) {
            CHECK(0, "Bcast struct count %d root %d: record %d wrong (a=%d c=%d b0=%g)", count,
                  root, i, buf[i].a, buf[i].c, buf[i].b[0]);
            break;
        }
    }
    MPI_OK(MPI_Type_free(&t));
    MPI_OK(MPI_Type_free(&rt));
    free(buf);
}

/* blocks of 2 at 0, 3 at 5, 1 at 10: extent 11 ints, holes keep their sentinel */
static void test_bcast_indexed(int count, int root)
{
    int bl[3] = {2, 3, 1}, dp[3] = {0, 5, 10};
    long n = 11L * count;
    int *buf = mt_malloc((size_t)n * sizeof(int)), *exp = mt_malloc((size_t)n * sizeof(int));
    MPI_Datatype t;
    char what[96];

    MPI_OK(MPI_Type_indexed(3, bl, dp, MPI_INT, &t));
    MPI_OK(MPI_Type_commit(&t));
    for (long i = 0; i < n; i++) {
        long j = i % 11;
        int in_map = j < 2 || (j >= 5 && j < 8) || j == 10;

        exp[i] = in_map ? v(root, i, 9) : SENT;
        buf[i] = mt_rank == root ? v(root, i, 9) : SENT;
        if (mt_rank == root && !in_map)
            buf[i] = SENT;
    }
    MPI_OK(MPI_Bcast(buf, count, t, root, MPI_COMM_WORLD));
    snprintf(what, sizeof(what), "Bcast indexed count %d root %d", count, root);
    check_int_arr(buf, exp, n, what);
    MPI_OK(MPI_Type_free(&t));
    free(buf);
    free(exp);
}

/* a vector of n ints with stride `size`, resized to one int: block r starts at int r */
static MPI_Datatype column_type(int n)
{
    MPI_Datatype vec, col;

    MPI_OK(MPI_Type_vector(n, 1, mt_size, MPI_INT, &vec));
    MPI_OK(MPI_Type_create_resized(vec, 0, sizeof(int), &col));
    MPI_OK(MPI_Type_commit(&col));
    MPI_OK(MPI_Type_free(&vec));
    return col;
}

static void test_gather_scatter_columns(int n, int root)
{
    long total = (long)n * mt_size;
    int *mine = mt_malloc((size_t)n * sizeof(int)), *exp = mt_malloc((size_t)n * sizeof(int));
    int *all = NULL, *allexp = NULL;
    MPI_Datatype col = column_type(n);
    char what[96];

    for (int i = 0; i < n; i++)
        mine[i] = v(mt_rank, i, 3);
    if (mt_rank == root) {
        all = mt_malloc((size_t)total * sizeof(int));
        allexp = mt_malloc((size_t)total * sizeof(int));
        for (long i = 0; i < total; i++) {
            all[i] = SENT;
            allexp[i] = v((int)(i % mt_size), i / mt_size, 3);
        }
    }
    MPI_OK(MPI_Gather(mine, n, MPI_INT, all, 1, col, root, MPI_COMM_WORLD));
    snprintf(what, sizeof(what), "Gather into columns n %d root %d", n, root);
    if (mt_rank == root)
        check_int_arr(all, allexp, total, what);

    /* scatter the columns back, each with new values */
    if (mt_rank == root)
        for (long i = 0; i < total; i++)
            all[i] = v((int)(i % mt_size), i / mt_size, 4);
    for (int i = 0; i < n; i++) {
        mine[i] = SENT;
        exp[i] = v(mt_rank, i, 4);
    }
    MPI_OK(MPI_Scatter(all, 1, col, mine, n, MPI_INT, root, MPI_COMM_WORLD));
    snprintf(what, sizeof(what), "Scatter from columns n %d root %d", n, root);
    check_int_arr(mine, exp, n, what);
    MPI_OK(MPI_Type_free(&col));
    free(mine);
    free(exp);
    free(all);
    free(allexp);
}

/* element i of the block rank s sends to rank d */
static int a2a(int s, int d, long i)
{
    return v(s * 100 + d, i, 6);
}

static void test_alltoall_resized(int n)
{
    long total = (long)n * mt_size;
    int *sbuf = mt_malloc((size_t)total * sizeof(int)),
        *rbuf = mt_malloc((size_t)total * sizeof(int));
    int *exp = mt_malloc((size_t)total * sizeof(int));
    MPI_Datatype col = column_type(n);
    char what[96];

    /* strided send (block d is column d), contiguous receive */
    for (long i = 0; i < total; i++) {
        sbuf[i] = a2a(mt_rank, (int)(i % mt_size), i / mt_size);
        rbuf[i] = SENT;
        exp[i] = a2a((int)(i / n), mt_rank, i % n);
    }
    MPI_OK(MPI_Alltoall(sbuf, 1, col, rbuf, n, MPI_INT, MPI_COMM_WORLD));
    snprintf(what, sizeof(what), "Alltoall strided send n %d", n);
    check_int_arr(rbuf, exp, total, what);

    /* contiguous send, strided receive (block s lands in column s) */
    for (long i = 0; i < total; i++) {
        sbuf[i] = a2a(mt_rank, (int)(i / n), i % n);
        rbuf[i] = SENT;
        exp[i] = a2a((int)(i % mt_size), mt_rank, i / mt_size);
    }
    MPI_OK(MPI_Alltoall(sbuf, n, MPI_INT, rbuf, 1, col, MPI_COMM_WORLD));
    snprintf(what, sizeof(what), "Alltoall strided receive n %d", n);
    check_int_arr(rbuf, exp, total, what);
    MPI_OK(MPI_Type_free(&col));
    free(sbuf);
    free(rbuf);
    free(exp);
}

/*
 * Reductions on a vector of doubles (every other one of 2n, resized to 2n doubles).
 * MPI defines the predefined ops on predefined types only (Open MPI and MPICH reject
 * MPI_SUM on a vector), so the ops here are user ops that know the layout; the library
 * must hand them whole elements in the layout of the type, and leave the holes alone.
 */
static int vec_n;

static void vec_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (long e = 0; e < *len; e++)
        for (long i = 0; i < vec_n; i++)
            ((double *)inout)[e * 2 * vec_n + 2 * i] += ((double *)in)[e * 2 * vec_n + 2 * i];
}

static void vec_max(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (long e = 0; e < *len; e++)
        for (long i = 0; i < vec_n; i++) {
            double *a = (double *)in + e * 2 * vec_n + 2 * i;
            double *b = (double *)inout + e * 2 * vec_n + 2 * i;
            *b = *a > *b ? *a : *b;
        }
}

/* n doubles at every other place, resized to 2n doubles (the element of the tests
   below; vec_n is n for their ops) */
static MPI_Datatype every_other(int n)
{
    MPI_Datatype vec, t;

    vec_n = n;
    MPI_OK(MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &vec));
    MPI_OK(MPI_Type_create_resized(vec, 0, (MPI_Aint)(2 * n * sizeof(double)), &t));
    MPI_OK(MPI_Type_commit(&t));
    MPI_OK(MPI_Type_free(&vec));
    return t;
}

static void test_reduce_vector(int n)
{
    const int count = 2;
    long len = 2L * n * count;
    MPI_Op sum, max;
    double *in = mt_malloc((size_t)len * sizeof(double));
    double *out = mt_malloc((size_t)len * sizeof(double));
    int root = mt_size - 1;

    MPI_Datatype t = every_other(n);
    MPI_OK(MPI_Op_create(vec_sum, 1, &sum));
    MPI_OK(MPI_Op_create(vec_max, 1, &max));
    for (int pass = 0; pass < 3; pass++) {
        MPI_Op op = pass == 1 ? max : sum;
        const char *name = pass == 0 ? "Allreduce sum" : pass == 1 ? "Allreduce max" : "Reduce sum";

        for (long i = 0; i < len; i++) {
            in[i] = i % 2 ? -1e300 : v(mt_rank, i, 8);
            out[i] = SENT;
        }
        if (pass < 2)
            MPI_OK(MPI_Allreduce(in, out, count, t, op, MPI_COMM_WORLD));
        else
            MPI_OK(
                MPI_Reduce(in, mt_rank == root ? out : NULL, count, t, op, root, MPI_COMM_WORLD));
        if (pass == 2 && mt_rank != root)
            continue;
        for (long i = 0; i < len; i++) {
            double e = SENT;

            if (i % 2 == 0) {
                e = pass == 1 ? -1e300 : 0;
                for (int r = 0; r < mt_size; r++)
                    e = pass == 1 ? (v(r, i, 8) > e ? v(r, i, 8) : e) : e + v(r, i, 8);
            }
            if (out[i] != e) {
                CHECK(0, "%s on 2 vectors of %d doubles: double %ld is %g, expected %g%s", name, n,
                      i, out[i], e, i % 2 ? " (a hole)" : "");
                break;
            }
        }
    }
    MPI_OK(MPI_Op_free(&sum));
    MPI_OK(MPI_Op_free(&max));
    MPI_OK(MPI_Type_free(&t));
    free(in);
    free(out);
}

/* the user op of test_reduce_layouts: n contiguous doubles, or vectors of vec_n doubles
   at every other place (the resized vector type): each rank gets its own layout */
static void lay_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    if (*dt == MPI_DOUBLE) {
        for (long i = 0; i < *len; i++)
            ((double *)inout)[i] += ((double *)in)[i];
    } else {
        vec_sum(in, inout, len, dt);
    }
}

static void test_reduce_layouts(int n)
{
    int odd = mt_rank % 2, root;
    long len = odd ? 2L * n : n; /* doubles of this rank's buffer */
    MPI_Op sum, ordered;
    double *in = mt_malloc((size_t)len * sizeof(double));
    double *out = mt_malloc((size_t)len * sizeof(double));
    static const char *what[] = {"Allreduce", "Reduce", "Reduce", "Allreduce (not commutative)",
                                 "Reduce (not commutative)"};

    MPI_Datatype t = every_other(n);
    MPI_OK(MPI_Op_create(lay_sum, 1, &sum));
    MPI_OK(MPI_Op_create(lay_sum, 0, &ordered)); /* integers: any order sums alike */
    for (int pass = 0; pass < 5; pass++) {
        MPI_Op op = pass < 3 ? sum : ordered;
        root = pass == 1 ? 0 : mt_size - 1;
        for (long i = 0; i < len; i++) {
            in[i] = odd && i % 2 ? -1e300 : v(mt_rank, odd ? i / 2 : i, 6);
            out[i] = SENT;
        }
        if (pass == 0 || pass == 3)
            MPI_OK(MPI_Allreduce(in, out, odd ? 1 : n, odd ? t : MPI_DOUBLE, op, MPI_COMM_WORLD));
        else
            MPI_OK(MPI_Reduce(in, mt_rank == root ? out : NULL, odd ? 1 : n, odd ? t : MPI_DOUBLE,
                              op, root, MPI_COMM_WORLD));
        if (pass != 0 && pass != 3 && mt_rank != root)
            continue;
        for (long i = 0; i < len; i++) {
            double e = SENT;
            if (!odd || i % 2 == 0) {
                e = 0;
                for (int r = 0; r < mt_size; r++)
                    e += v(r, odd ? i / 2 : i, 6);
            }
            if (out[i] != e) {
                CHECK(0,
                      "%s of %d doubles, contiguous on even ranks, a vector on odd ones: "
                      "double %ld of rank %d's is %g, expected %g",
                      what[pass], n, i, mt_rank, out[i], e);
                break;
            }
        }
    }
    MPI_OK(MPI_Op_free(&sum));
    MPI_OK(MPI_Op_free(&ordered));
    MPI_OK(MPI_Type_free(&t));
    free(in);
    free(out);
}

/* the same for Reduce_scatter_block: p blocks of n doubles, each block one vector on odd
   ranks; every rank gets its block in its own layout */
static void test_reduce_scatter_layouts(int n)
{
    int odd = mt_rank % 2, stride = odd ? 2 : 1;
    long len = (long)stride * n * mt_size, mine = (long)stride * n;
    MPI_Op sum;
    double *in = mt_malloc((size_t)len * sizeof(double));
    double *out = mt_malloc((size_t)mine * sizeof(double));

    MPI_Datatype t = every_other(n);
    MPI_OK(MPI_Op_create(lay_sum, 1, &sum));
    for (long i = 0; i < len; i++)
        in[i] = i % stride ? -1e300 : v(mt_rank, i / stride, 5);
    for (long i = 0; i < mine; i++)
        out[i] = SENT;
    MPI_OK(
        MPI_Reduce_scatter_block(in, out, odd ? 1 : n, odd ? t : MPI_DOUBLE, sum, MPI_COMM_WORLD));
    for (long i = 0; i < mine; i++) {
        double e = SENT;
        if (i % stride == 0) {
            e = 0;
            for (int r = 0; r < mt_size; r++)
                e += v(r, (long)mt_rank * n + i / stride, 5);
        }
        if (out[i] != e) {
            CHECK(0,
                  "Reduce_scatter_block of %d doubles per rank, contiguous on even ranks, a "
                  "vector on odd ones: double %ld of rank %d's block is %g, expected %g",
                  n, i, mt_rank, out[i], e);
            break;
        }
    }
    MPI_OK(MPI_Op_free(&sum));
    MPI_OK(MPI_Type_free(&t));
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    static const int ns[] = {1, 37, 30000};
    int roots[2] = {0, 0};

    /* no-layouts: leave out test_reduce_layouts, for configs whose Scheme schedules count
       in elements of one datatype (the agreement at the miss refuses them there) */
    int layouts = !(argc > 1 && strcmp(argv[1], "no-layouts") == 0);

    mt_init(&argc, &argv, "coll_dtypes");
    roots[1] = mt_size - 1;
    for (int k = 0; k < 3; k++) {
        int n = ns[k];

        for (int j = 0; j < 2; j++) {
            test_bcast_struct(n / 4 + 1, roots[j]);
            test_bcast_indexed(n / 8 + 1, roots[j]);
            test_gather_scatter_columns(n, roots[j]);
        }
        test_alltoall_resized(n / mt_size + 1);
        test_reduce_vector(n);
        if (layouts) {
            test_reduce_layouts(n);
            test_reduce_scatter_layouts(n / mt_size + 1);
        }
    }
    return mt_finish();
}
