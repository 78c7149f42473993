/*
 * topo_dims.c -- MPI_Dims_create against a brute-force reference: for every process
 * count 1..400 and a few larger ones, 1 to 4 dimensions, with no fixed entry and with
 * some: the product is the count, fixed entries stay, the free ones are non-increasing
 * and as close to each other as any factorisation allows (smallest spread between the
 * largest and the smallest, then the largest smallest, then the largest next smallest...;
 * 5040 in three is 21 x 16 x 15); impossible requests give
 * MPI_ERR_DIMS and leave MPI_ERRORS_RETURN's caller running; three deep ones (10 to 16
 * dimensions) against the answers of MPICH's test suite.  Every rank runs the same
 * checks (the function is local).
 */
#include "tests/mpi/mpitest.h"

#define MAXD 4

/* the best non-increasing factorisation of q into k factors, found by trying every
   tuple: best[] and 1, or 0 when there is none (k = 0 and q != 1) */
static long best_spread;
static int best[MAXD], cur[MAXD];

static void brute(long q, int i, int k, int cap)
{
    if (i == k) {
        if (q != 1) {
            return;
        }
        long spread = k ? cur[0] - cur[k - 1] : 0;
        int better = spread < best_spread;
        for (int j = k - 1; !better && spread == best_spread && j >= 0; j--) {
            if (cur[j] != best[j]) {
                better = cur[j] > best[j];
                break;
            }
        }
        if (better) {
            best_spread = spread;
            memcpy(best, cur, sizeof(cur));
        }
        return;
    }
    /* the last factor is what is left */
    for (int f = i == k - 1 ? (q <= cap ? (int)q : 0) : (int)(q < cap ? q : cap); f >= 1; f--) {
        if (q % f == 0 && (i < k - 1 || f == q)) {
            cur[i] = f;
            brute(q / f, i + 1, k, f);
        }
    }
}

static int reference(int nnodes, int ndims, const int *fixed, int *out)
{
    long prod = 1;
    int k = 0;
    for (int d = 0; d < ndims; d++) {
        if (fixed[d] > 0) {
            prod *= fixed[d];
        } else {
            k++;
        }
    }
    if (nnodes % prod != 0) {
        return 0;
    }
    long q = nnodes / prod;
    best_spread = 1L << 60;
    brute(q, 0, k, (int)q);
    if (best_spread == 1L << 60) {
        return 0;
    }
    for (int d = 0, i = 0; d < ndims; d++) {
        out[d] = fixed[d] > 0 ? fixed[d] : best[i++];
    }
    return 1;
}

static void one(int nnodes, int ndims, const int *fixed)
{
    int dims[MAXD], want[MAXD];
    memcpy(dims, fixed, sizeof(int) * MAXD);
    int possible = reference(nnodes, ndims, fixed, want);
    int rc = MPI_Dims_create(nnodes, ndims, dims);
    char f[64];
    snprintf(f, sizeof(f), "[%d %d %d %d]", fixed[0], fixed[1], fixed[2], fixed[3]);
    if (!possible) {
        int cls = -1;
        if (rc != MPI_SUCCESS) {
            MPI_Error_class(rc, &cls);
        }
        CHECK(cls == MPI_ERR_DIMS,
              "Dims_create(%d, %d, %s) returned %d (class %d), expected "
              "MPI_ERR_DIMS",
              nnodes, ndims, f, rc, cls);
        return;
    }
    CHECK(rc == MPI_SUCCESS, "Dims_create(%d, %d, %s) returned %d", nnodes, ndims, f, rc);
    for (int d = 0; rc == MPI_SUCCESS && d < ndims; d++) {
        if (dims[d] != want[d]) {
            CHECK(0, "Dims_create(%d, %d, %s): dims[%d] = %d, expected %d", nnodes, ndims, f, d,
                  dims[d], want[d]);
            break;
        }
    }
}

int main(int argc, char **argv)
{
    static const int big[] = {512, 720, 1000, 1024, 2310, 4096, 5040, 7919, 10000, 65536};
    static const int fixes[][MAXD] = {{0, 0, 0, 0}, {2, 0, 0, 0}, {0, 3, 0, 0},
                                      {0, 0, 0, 4}, {2, 0, 2, 0}, {5, 0, 0, 1}};
    mt_init(&argc, &argv, "topo_dims");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    for (int i = 0; i < 400 + (int)(sizeof(big) / sizeof(big[0])); i++) {
        int nnodes = i < 400 ? i + 1 : big[i - 400];
        for (int ndims = 1; ndims <= MAXD; ndims++) {
            for (size_t f = 0; f < sizeof(fixes) / sizeof(fixes[0]); f++) {
                int fixed[MAXD] = {0, 0, 0, 0};
                memcpy(fixed, fixes[f], sizeof(int) * (size_t)ndims);
                one(nnodes, ndims, fixed);
            }
        }
    }
    /* the reference's tie-break, spelled out once */
    int d3[3] = {0, 0, 0};
    MPI_OK(MPI_Dims_create(5040, 3, d3));
    CHECK(d3[0] == 21 && d3[1] == 16 && d3[2] == 15,
          "Dims_create(5040, 3) = %d x %d x %d, expected 21 x 16 x 15", d3[0], d3[1], d3[2]);
    /* many dimensions, where the search is deep: answers of MPICH's test suite (dims5);
       the first took 0.1 s when the search started with no bound */
    static const struct {
        int nnodes, ndims, dims[16];
    } deep[] = {
        {907200, 12, {7, 5, 5, 4, 3, 3, 3, 3, 2, 2, 2, 2}},
        {995328, 16, {4, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}},
        {979776, 10, {7, 6, 6, 4, 4, 3, 3, 3, 3, 3}},
    };
    for (size_t t = 0; t < sizeof(deep) / sizeof(deep[0]); t++) {
        int d[16] = {0};
        MPI_OK(MPI_Dims_create(deep[t].nnodes, deep[t].ndims, d));
        CHECK(memcmp(d, deep[t].dims, sizeof(int) * (size_t)deep[t].ndims) == 0,
              "Dims_create(%d, %d): %d x %d x ... x %d", deep[t].nnodes, deep[t].ndims, d[0], d[1],
              d[deep[t].ndims - 1]);
    }
    /* every entry fixed: right product or MPI_ERR_DIMS */
    int all[MAXD] = {2, 3, 1, 2};
    one(12, 4, all);
    one(13, 4, all);
    /* zero dimensions: only one process fits */
    int none[MAXD] = {0, 0, 0, 0}, cls;
    CHECK(MPI_Dims_create(1, 0, none) == MPI_SUCCESS, "Dims_create(1, 0) failed");
    MPI_Error_class(MPI_Dims_create(4, 0, none), &cls);
    CHECK(cls == MPI_ERR_DIMS, "Dims_create(4, 0) gave class %d, expected MPI_ERR_DIMS", cls);
    return mt_finish();
}
