/*
 * scheme_allreduce.c -- helper MPI program for tests/scheme/scheme_closures.sh: checks
 * MPI_Allreduce against references computed locally, whatever closure serves it (the
 * test runs it with examples/allreduce.scm, the Scheme closure).  Prints "ok" on rank 0
 * and exits 0 when every result is right; on a wrong element, names it and exits 1.
 *
 * Cases: MPI_SUM on ints (counts 0 to past the rendezvous threshold), in place;
 * MPI_MAX on doubles; a non-commutative user op on a derived datatype (affine maps
 * x -> a x + b composed in rank order), which only a closure that keeps rank order gets
 * right.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, size, failures;

static void check(int ok, const char *what, int count, int i, long got, long want)
{
    if (!ok && failures++ < 5) {
        fprintf(stderr, "rank %d: %s count %d: element %d is %ld, want %ld\n", rank, what, count, i,
                got, want);
    }
}

static void sum_ints(int count, int in_place)
{
    int *s = calloc((size_t)count + 1, sizeof(int)), *r = calloc((size_t)count + 1, sizeof(int));
    for (int i = 0; i < count; i++) {
        s[i] = rank * 1000 + i;
        r[i] = in_place ? s[i] : -1;
    }
    MPI_Allreduce(in_place ? MPI_IN_PLACE : s, r, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < count; i++) {
        long want = 1000L * size * (size - 1) / 2 + (long)i * size;
        check(r[i] == want, in_place ? "SUM in place" : "SUM", count, i, r[i], want);
    }
    free(s);
    free(r);
}

static void max_doubles(int count)
{
    double *s = malloc(sizeof(double) * (size_t)count), *r = malloc(sizeof(double) * (size_t)count);
    for (int i = 0; i < count; i++) {
        s[i] = (double)((rank + i) % size); /* every residue on some rank */
    }
    MPI_Allreduce(s, r, count, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    for (int i = 0; i < count; i++) {
        check(r[i] == size - 1, "MAX", count, i, (long)r[i], size - 1);
    }
    free(s);
    free(r);
}

/* (a, b) is x -> a x + b; inout = inout o in: apply the lower ranks' map first */
static void compose(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    unsigned *u = in, *v = inout;
    for (int i = 0; i < *len; i++, u += 2, v += 2) {
        unsigned a = v[0] * u[0], b = v[0] * u[1] + v[1];
        v[0] = a;
        v[1] = b;
    }
}

static void affine(int count)
{
    MPI_Datatype pair;
    MPI_Op op;
    MPI_Type_contiguous(2, MPI_UNSIGNED, &pair);
    MPI_Type_commit(&pair);
    MPI_Op_create(compose, 0, &op);
    unsigned *s = malloc(sizeof(unsigned) * 2 * (size_t)count);
    unsigned *r = malloc(sizeof(unsigned) * 2 * (size_t)count);
    for (int i = 0; i < count; i++) {
        s[2 * i] = (unsigned)(rank + 2 + i % 3);
        s[2 * i + 1] = (unsigned)(rank * 7 + i);
    }
    MPI_Allreduce(s, r, count, pair, op, MPI_COMM_WORLD);
    for (int i = 0; i < count; i++) {
        unsigned a = 1, b = 0;
        for (int q = 0; q < size; q++) {
            unsigned qa = (unsigned)(q + 2 + i % 3), qb = (unsigned)(q * 7 + i);
            b = qa * b + qb;
            a = qa * a;
        }
        check(r[2 * i] == a && r[2 * i + 1] == b, "non-commutative", count, i, (long)r[2 * i + 1],
              (long)b);
    }
    free(s);
    free(r);
    MPI_Op_free(&op);
    MPI_Type_free(&pair);
}

int main(int argc, char **argv)
{
    static const int counts[] = {0, 1, 5, 1000, 70000};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        sum_ints(counts[c], 0);
        sum_ints(counts[c], 1);
        max_doubles(counts[c]);
        affine(counts[c]);
    }
    /* the cached closure serves the same key again */
    sum_ints(5, 0);
    int all;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all == 0) {
        printf("ok\n");
    }
    MPI_Finalize();
    return all != 0;
}
