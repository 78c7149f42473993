/*
 * coll_shm.c -- long mixed sequences of barrier, bcast, reduce, allreduce, allgather,
 * alltoall, reduce-scatter-block, reduce-scatter, gather and scatter on one communicator,
 * as the shared-memory collectives see them under tests/mpi/configs/shm.scm: every call
 * takes the next sequence number of the communicator's segment and reuses the same few
 * slots per rank, so a slot overwritten too early or a flag read wrongly shows up as a
 * wrong result here.
 *
 * Each step draws (the same on every rank) a kind, a root, a count (1 element to past
 * one slot, so some calls take two rounds; for the kinds served in one round --
 * allgather, alltoall, the reduce-scatters, gather, scatter -- also sizes just inside
 * and just past what a slot holds, where they go over the PML instead), a datatype (int,
 * a vector of ints with gaps, pairs of unsigned for a non-commutative user op, which the
 * reductions run over the PML, as they do every user op; the data
 * movers send ints and receive vectors, or the reverse) and whether to run in place;
 * every result is compared with a reference computed locally, guard elements included
 * (a gather's non-roots and an in-place scatter root: untouched buffers).  Runs on
 * WORLD, on a split communicator (odd and even ranks, reversed), and then creates and
 * frees 100 communicators that each run a few calls, checking that no file descriptor
 * is left open by their segments.
 *
 * Usage: coll_shm [STEPS] (default 3000).
 */
#include "tests/mpi/mpitest.h"

#include <dirent.h>

#define GUARD 4
#define MAXN 2600      /* ints: past the default 8 KiB slot */
#define SLOT_INTS 2048 /* ints in the default slot (coll_shm_slot 8192) */
#define NKINDS 10

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

/* allgather and alltoall move blocks of k data ints (k even): as ints (T_INT), or as
   k / 2 vector elements, two data ints in three (T_VEC) */
static long mem_of(tkind_t t, long k)
{
    return t == T_VEC ? k / 2 * 3 : k;
}

static long pos_of(tkind_t t, long k)
{
    return t == T_VEC ? k / 2 * 3 + k % 2 * 2 : k;
}

static int count_of(tkind_t t, long k)
{
    return (int)(t == T_VEC ? k / 2 : k);
}

/* data int i of the block rank `from` sends to rank `to` at step s */
static int mval(int from, int to, long i, int s)
{
    return mt_ival(1000 + from * 64 + to, i, s);
}

static void put_block(tkind_t t, int *buf, long k, int from, int to, int s)
{
    for (long i = 0; i < k; i++) {
        buf[pos_of(t, i)] = mval(from, to, i, s);
    }
}

enum { K_ALLGATHER = 4, K_ALLTOALL, K_RSB, K_RS, K_GATHER, K_SCATTER };

/* allgather, alltoall, gather or scatter (kind) of k data ints per block, sent as ts and
   received as tr */
static void run_move(MPI_Comm comm, int kind, int root, tkind_t ts, tkind_t tr, long k,
                     int in_place, int s, int *buf, int *sbuf, int *exp, long cap, const char *what)
{
    int p, me;
    MPI_OK(MPI_Comm_size(comm, &p));
    MPI_OK(MPI_Comm_rank(comm, &me));
    long rb = mem_of(tr, k), sb = mem_of(ts, k), rints = rb * p;
    int rc = count_of(tr, k), sc = count_of(ts, k);
    MPI_Datatype rt = type_of(tr), stp = type_of(ts);
    for (long i = 0; i < cap; i++) {
        buf[i] = sbuf[i] = exp[i] = MT_SENTINEL;
    }
    switch (kind) {
    case K_ALLGATHER:
        for (int j = 0; j < p; j++) {
            put_block(tr, exp + j * rb, k, j, 0, s);
        }
        if (in_place) {
            put_block(tr, buf + me * rb, k, me, 0, s);
            MPI_OK(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, rc, rt, comm));
        } else {
            put_block(ts, sbuf, k, me, 0, s);
            MPI_OK(MPI_Allgather(sbuf, sc, stp, buf, rc, rt, comm));
        }
        break;
    case K_ALLTOALL:
        for (int j = 0; j < p; j++) {
            put_block(tr, exp + j * rb, k, j, me, s);
            put_block(in_place ? tr : ts, in_place ? buf + j * rb : sbuf + j * sb, k, me, j, s);
        }
        if (in_place) {
            MPI_OK(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, rc, rt, comm));
        } else {
            MPI_OK(MPI_Alltoall(sbuf, sc, stp, buf, rc, rt, comm));
        }
        break;
    case K_GATHER:
        /* only the root receives: the others' buffers stay untouched */
        for (int j = 0; j < p && me == root; j++) {
            put_block(tr, exp + j * rb, k, j, 0, s);
        }
        if (in_place && me == root) {
            put_block(tr, buf + me * rb, k, me, 0, s);
            MPI_OK(MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, rc, rt, root, comm));
        } else {
            put_block(ts, sbuf, k, me, 0, s);
            MPI_OK(MPI_Gather(sbuf, sc, stp, buf, rc, rt, root, comm));
        }
        break;
    default: /* scatter: this rank's block from the root; in place the root's stays put */
        rints = rb;
        if (!(in_place && me == root)) {
            put_block(tr, exp, k, root, me, s);
        }
        for (int j = 0; j < p && me == root; j++) {
            put_block(ts, sbuf + j * sb, k, root, j, s);
        }
        if (in_place && me == root) {
            MPI_OK(MPI_Scatter(sbuf, sc, stp, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root, comm));
        } else {
            MPI_OK(MPI_Scatter(sbuf, sc, stp, buf, rc, rt, root, comm));
        }
        break;
    }
    mt_check_ints(GUARD, buf, exp, rints, what);
}

/* reduce-scatter-block (rs 0) or reduce-scatter (1) of `total` elements of t: this
   rank's block of the reduction in rank order */
static void run_rs(MPI_Comm comm, int rs, tkind_t t, long total, const int *counts, int in_place,
                   int s, int *buf, int *sbuf, int *exp, long cap, const char *what)
{
    int p, me, st = stride_of(t);
    MPI_OK(MPI_Comm_size(comm, &p));
    MPI_OK(MPI_Comm_rank(comm, &me));
    long at = 0;
    for (int j = 0; j < me; j++) {
        at += counts[j];
    }
    long mine = counts[me];
    for (long i = 0; i < cap; i++) {
        buf[i] = sbuf[i] = exp[i] = MT_SENTINEL;
    }
    int *src = in_place ? buf : sbuf;
    fill(t, src, total, me, s);
    reduce_ref(t, exp, total, p, s);
    memmove(exp, exp + at * st, (size_t)(mine * st) * sizeof(int));
    for (long i = mine * st; i < total * st + GUARD; i++) {
        exp[i] = MT_SENTINEL;
    }
    MPI_Op op = t == T_AFFINE ? g_affine : MPI_SUM;
    const void *sarg = in_place ? MPI_IN_PLACE : sbuf;
    if (rs) {
        MPI_OK(MPI_Reduce_scatter(sarg, buf, counts, type_of(t), op, comm));
    } else {
        MPI_OK(MPI_Reduce_scatter_block(sarg, buf, counts[0], type_of(t), op, comm));
    }
    /* in place, what follows this rank's block in the buffer is undefined */
    mt_check_ints(in_place ? 0 : GUARD, buf, exp, mine * st, what);
}

static void run_steps(MPI_Comm comm, int steps, int seed, const char *name)
{
    int p, me;
    unsigned long rs = (unsigned long)seed;
    char what[160];

    MPI_OK(MPI_Comm_size(comm, &p));
    MPI_OK(MPI_Comm_rank(comm, &me));
    /* an allgather of p blocks of MAXN ints, as vectors */
    long cap = (long)p * MAXN * 3 / 2 * 2 + (long)MAXN * 3 + GUARD;
    int *buf = mt_ibuf(0, cap), *sbuf = mt_ibuf(0, cap), *exp = mt_ibuf(0, cap);
    for (int s = 0; s < steps; s++) {
        int kind = (int)(rnd(&rs) % NKINDS), root = (int)(rnd(&rs) % (unsigned long)p);
        tkind_t t = (tkind_t)(rnd(&rs) % NTYPES);
        static const long counts[] = {1, 2, 7, 100, 700, 1025, 1400, MAXN};
        long n = counts[rnd(&rs) % 8];
        int in_place = (int)(rnd(&rs) % 2), st = stride_of(t);
        long ints = n * st;

        static const char *const names[NKINDS] = {"barrier",
                                                  "bcast",
                                                  "reduce",
                                                  "allreduce",
                                                  "allgather",
                                                  "alltoall",
                                                  "reduce-scatter-block",
                                                  "reduce-scatter",
                                                  "gather",
                                                  "scatter"};

        long j = -1;
        if (kind >= K_ALLGATHER) {
            /* sizes around what one slot holds: an allgather's or a gather's block, an
               alltoall's or a scatter's p blocks, a reduce-scatter's whole vector
               (elements of 1, 2 or 3 ints) */
            static const long per[] = {1, 2, 7, 100, 0, 0, 0, MAXN};
            long limit;
            j = (long)(rnd(&rs) % 8);
            if (kind == K_ALLGATHER || kind == K_GATHER) {
                limit = SLOT_INTS;
            } else if (kind == K_ALLTOALL || kind == K_SCATTER) {
                limit = SLOT_INTS / p;
            } else {
                limit = t == T_INT ? SLOT_INTS : t == T_AFFINE ? SLOT_INTS / 2 : SLOT_INTS / 3 + 1;
            }
            n = j == 4 ? limit : j == 5 ? limit + 1 : j == 6 ? limit - 1 : per[j];
        }
        if (kind == K_ALLGATHER || kind == K_ALLTOALL || kind == K_GATHER || kind == K_SCATTER) {
            /* k data ints per block, even: vectors of 2 */
            long k = (n + 1) / 2 * 2;
            tkind_t ts = t == T_VEC ? T_VEC : T_INT, tr = t == T_INT ? T_INT : T_VEC;
            if ((kind == K_ALLTOALL || kind == K_SCATTER) && k * p > 2 * MAXN) {
                k = 2 * MAXN / p / 2 * 2;
            }
            snprintf(what, sizeof(what), "%s step %d: %s root %d, %ld ints as %s, received as %s%s",
                     name, s, names[kind], root, k, ts == T_INT ? "ints" : "vectors",
                     tr == T_INT ? "ints" : "vectors", in_place ? ", in place" : "");
            run_move(comm, kind, root, ts, tr, k, in_place, s, buf, sbuf, exp, cap, what);
            continue;
        }
        if (kind == K_RSB || kind == K_RS) {
            int counts[64];
            /* reduce-scatter-block: just past the limit rounds up */
            long total = 0, blk = j == 5 ? (n + p - 1) / p : n / p;
            for (int i = 0; i < p; i++) {
                /* reduce-scatter: uneven blocks, now and then an empty one, the last
                   rank's making the total n */
                counts[i] = (int)(kind == K_RSB          ? blk
                                  : i == p - 1           ? n - total
                                  : i == 1 && s % 5 == 0 ? 0
                                                         : n * 2 * (i + 1) / ((long)p * (p + 1)));
                total += counts[i];
            }
            snprintf(what, sizeof(what), "%s step %d: %s, %ld x %s%s", name, s, names[kind], total,
                     t == T_INT   ? "int"
                     : t == T_VEC ? "vector"
                                  : "affine pair",
                     in_place ? ", in place" : "");
            run_rs(comm, kind == K_RS, t, total, counts, in_place, s, buf, sbuf, exp, cap, what);
            continue;
        }
        for (long i = 0; i < ints + GUARD; i++) {
            buf[i] = sbuf[i] = exp[i] = MT_SENTINEL;
        }
        snprintf(what, sizeof(what), "%s step %d: %s root %d, %ld x %s%s", name, s, names[kind],
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
