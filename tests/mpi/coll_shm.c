/*
 * coll_shm.c -- long mixed sequences of barrier, bcast, reduce and allreduce on one
 * communicator, as the shared-memory collectives see them under tests/mpi/configs/shm.scm:
 * every call takes the next sequence number of the communicator's segment and reuses
 * the same few slots per rank, so a slot overwritten too early or a flag read wrongly
 * shows up as a wrong result here.
 *
 * Each step draws (the same on every rank) a kind, a root, a count (1 element to past
 * one slot, so some calls take two rounds), a datatype (int, a vector of ints with gaps,
 * pairs of unsigned for a non-commutative op) and whether to run in place; every result
 * is compared with a reference computed locally, guard elements included.  Runs on
 * WORLD, on a split communicator (odd and even ranks, reversed), and then creates and
 * frees 100 communicators that each run a few calls, checking that no file descriptor
 * is left open by their segments.
 *
 * Usage: coll_shm [STEPS] (default 3000).
 */
#include "tests/mpi/mpitest.h"

#include <dirent.h>

#define GUARD 4
#define MAXN 2600 /* ints: past the default 8 KiB slot */

typedef enum { T_INT, T_VEC, T_AFFINE, NTYPES } tkind_t;

static MPI_Datatype g_vec, g_pair;
static MPI_Op g_affine;

static unsigned long rnd(unsigned long *s)
{
    *s = *s * 6364136223846793005ul + 1442695040888963407ul;
    return *s >> 33;
}

/* ints per element in memory (extent) and data ints per element */
static int stride_of(tkind_t t)
{
    return t == T_INT ? 1 : t == T_VEC ? 3 : 2;
}

static MPI_Datatype type_of(tkind_t t)
{
    return t == T_INT ? MPI_INT : t == T_VEC ? g_vec : g_pair;
}

/* is int j of an element data (not a gap)? the vector type holds ints 0 and 2 of 3 */
static int is_data(tkind_t t, int j)
{
    return t != T_VEC || j != 1;
}

/* rank r's value of int j of element i at step s */
static int value(tkind_t t, int r, long i, int j, int s)
{
    if (t == T_AFFINE) {
        /* odd multipliers keep the composition from collapsing to 0 */
        return j == 0 ? (mt_ival(r, i, s) | 1) : mt_ival(r + 17, i, s);
    }
    return mt_ival(r, i * 3 + j, s);
}

static void fill(tkind_t t, int *buf, long n, int r, int s)
{
    int st = stride_of(t);
    for (long i = 0; i < n; i++) {
        for (int j = 0; j < st; j++) {
            if (is_data(t, j)) {
                buf[i * st + j] = value(t, r, i, j, s);
            }
        }
    }
}

/* the reduction of ranks 0..p-1 in rank order into exp (gaps untouched) */
static void reduce_ref(tkind_t t, int *exp, long n, int p, int s)
{
    int st = stride_of(t);
    for (long i = 0; i < n; i++) {
        if (t == T_AFFINE) {
            unsigned a = (unsigned)value(t, p - 1, i, 0, s), b = (unsigned)value(t, p - 1, i, 1, s);
            for (int r = p - 2; r >= 0; r--) {
                unsigned ua = (unsigned)value(t, r, i, 0, s), ub = (unsigned)value(t, r, i, 1, s);
                b = ua * b + ub;
                a = ua * a;
            }
            exp[i * st] = (int)a;
            exp[i * st + 1] = (int)b;
            continue;
        }
        for (int j = 0; j < st; j++) {
            if (is_data(t, j)) {
                int sum = 0;
                for (int r = 0; r < p; r++) {
                    sum += value(t, r, i, j, s);
                }
                exp[i * st + j] = sum;
            }
        }
    }
}

static void run_steps(MPI_Comm comm, int steps, int seed, const char *name)
{
    int p, me;
    unsigned long rs = (unsigned long)seed;
    int *buf = mt_ibuf(GUARD, (long)MAXN * 3), *sbuf = mt_ibuf(GUARD, (long)MAXN * 3);
    int *exp = mt_ibuf(GUARD, (long)MAXN * 3);
    char what[160];

    MPI_OK(MPI_Comm_size(comm, &p));
    MPI_OK(MPI_Comm_rank(comm, &me));
    for (int s = 0; s < steps; s++) {
        int kind = (int)(rnd(&rs) % 4), root = (int)(rnd(&rs) % (unsigned long)p);
        tkind_t t = (tkind_t)(rnd(&rs) % NTYPES);
        static const long counts[] = {1, 2, 7, 100, 700, 1025, 1400, MAXN};
        long n = counts[rnd(&rs) % 8];
        int in_place = (int)(rnd(&rs) % 2), st = stride_of(t);
        long ints = n * st;

        for (long i = 0; i < ints + GUARD; i++) {
            buf[i] = sbuf[i] = exp[i] = MT_SENTINEL;
        }
        snprintf(what, sizeof(what), "%s step %d: %s root %d, %ld x %s%s", name, s,
                 kind == 0   ? "barrier"
                 : kind == 1 ? "bcast"
                 : kind == 2 ? "reduce"
                             : "allreduce",
                 root, n,
                 t == T_INT   ? "int"
                 : t == T_VEC ? "vector"
                              : "affine pair",
                 in_place ? ", in place" : "");
        switch (kind) {
        case 0:
            MPI_OK(MPI_Barrier(comm));
            continue;
        case 1:
            if (t == T_AFFINE) {
                t = T_INT; /* no op: any type will do */
                st = 1;
                ints = n;
            }
            if (me == root) {
                fill(t, buf, n, root, s);
            }
            fill(t, exp, n, root, s);
            MPI_OK(MPI_Bcast(buf, (int)n, type_of(t), root, comm));
            mt_check_ints(GUARD, buf, exp, ints, what);
            continue;
        case 2:
        case 3: {
            MPI_Op op = t == T_AFFINE ? g_affine : MPI_SUM;
            int *src = in_place && (kind == 3 || me == root) ? buf : sbuf;
            fill(t, src, n, me, s);
            if (kind == 3 || me == root) {
                reduce_ref(t, exp, n, p, s);
            }
            const void *sarg = src == buf ? MPI_IN_PLACE : sbuf;
            if (kind == 2) {
                MPI_OK(MPI_Reduce(sarg, buf, (int)n, type_of(t), op, root, comm));
            } else {
                MPI_OK(MPI_Allreduce(sarg, buf, (int)n, type_of(t), op, comm));
            }
            if (kind == 3 || me == root) {
                mt_check_ints(GUARD, buf, exp, ints, what);
            }
            continue;
        }
        }
    }
    free(buf);
    free(sbuf);
    free(exp);
}

static int open_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (d == NULL) {
        return -1;
    }
    while (readdir(d) != NULL) {
        n++;
    }
    closedir(d);
    return n;
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 3000;
    MPI_Comm split;

    mt_init(&argc, &argv, "coll_shm");
    MPI_OK(MPI_Type_vector(2, 1, 2, MPI_INT, &g_vec)); /* ints 0 and 2, extent 3 ints: */
    MPI_Datatype v0 = g_vec;
    MPI_OK(MPI_Type_create_resized(v0, 0, 3 * (MPI_Aint)sizeof(int), &g_vec));
    MPI_OK(MPI_Type_free(&v0));
    MPI_OK(MPI_Type_commit(&g_vec));
    MPI_OK(MPI_Type_contiguous(2, MPI_UNSIGNED, &g_pair));
    MPI_OK(MPI_Type_commit(&g_pair));
    MPI_OK(MPI_Op_create(mt_affine, 0, &g_affine));

    run_steps(MPI_COMM_WORLD, steps, 1, "world");
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, mt_rank % 2, mt_size - mt_rank, &split));
    run_steps(split, steps / 3, 2, "split");
    MPI_OK(MPI_Comm_free(&split));

    /* segments come and go with their communicators: no descriptor, no mapping kept */
    int fds = open_fds();
    for (int c = 0; c < 100; c++) {
        MPI_Comm dup;
        MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
        run_steps(dup, 6, 100 + c, "dup");
        MPI_OK(MPI_Comm_free(&dup));
    }
    CHECK(open_fds() == fds, "%d descriptors open after 100 communicators, %d before", open_fds(),
          fds);

    MPI_OK(MPI_Op_free(&g_affine));
    MPI_OK(MPI_Type_free(&g_vec));
    MPI_OK(MPI_Type_free(&g_pair));
    return mt_finish();
}
