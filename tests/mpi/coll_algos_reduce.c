/*
 * coll_algos_reduce.c -- runs every native algorithm of the reduce family (barrier,
 * bcast, reduce, allreduce, reduce-scatter(-block), scan, exscan) directly, without
 * the trampolines, and checks each result against a reference computed locally.
 *
 * Cases: every algorithm with its default parameters and with small segments / other
 * fanouts; counts from 0 to 1 MiB of ints; roots 0, p/2 and p-1; MPI_IN_PLACE where
 * the kind allows it; three data kinds: MPI_INT with MPI_SUM, a vector type (two ints
 * with a gap, so the layout has holes the algorithms must not touch) with MPI_SUM, and
 * a non-commutative user op (2x2 matrix product mod 65521 on four ints) that proves
 * operands are combined in rank order; on MPI_COMM_WORLD and on a split communicator.
 * Every case of an algorithm that runs as a schedule (.sched, or a tree) runs in three
 * modes: blocking (the closure's fn), nonblocking (its start, then a wait, as
 * MPI_Iallreduce runs it) and persistent (as MPI_Allreduce_init and two MPI_Start: the
 * schedule is built over scrambled buffers, so a step that read them then instead of
 * when it runs goes wrong, and each of the two runs is checked; counts up to
 * PERSIST_MAX, the larger ones add nothing a persistent run would find).
 *
 * Links the internal library (lib/libcompi.la) and includes internal headers.  Run at
 * np 1 to 8: `mpirun -np N --timeout 120 tests/mpi/coll_algos_reduce [--quick] [--only
 * NAME]` (--only: the algorithms of that name, e.g. shm, of every kind).  Prints one
 * line per failure and exits non-zero if any case failed.
 */
#include "tests/mpi/mpitest.h"

#include "core/coll/coll.h"
#include "core/comm/comm.h"
#include "core/dt/dt.h"
#include "core/op/op.h"
#include "core/pml/pml.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the kinds this program checks (coll_algos_move.c checks the others) */
static int is_reduce_kind(coll_kind_t k)
{
    switch (k) {
    case COLL_BARRIER:
    case COLL_BCAST:
    case COLL_REDUCE:
    case COLL_ALLREDUCE:
    case COLL_REDUCE_SCATTER:
    case COLL_REDUCE_SCATTER_BLOCK:
    case COLL_SCAN:
    case COLL_EXSCAN:
        return 1;
    default:
        return 0;
    }
}

#define MOD 65521
#define PERSIST_MAX 1031 /* the largest count run persistent */
#define SENTINEL ((int)0x5a5a5a5a)

/* one data kind: how the ints of an element sit in memory, and the op */
typedef struct dkind {
    const char *name;
    MPI_Datatype type;
    MPI_Op op;
    int ncomp;       /* ints of data per element */
    int stride;      /* ints between elements (extent) */
    int comp_off[4]; /* position of each int inside an element */
    int matrix;      /* the op is the matrix product, else a sum */
    size_t maxcount; /* largest count tried with this kind */
} dkind_t;

static int g_rank, g_fail, g_cases;
static const char *g_only; /* --only NAME: the algorithms of that name only */
static coll_mode_t g_mode; /* blocking: the closure's fn; else its start */
static const char *g_comm_name;

static void matmul_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int *a = in, *b = inout;
    (void)dt;
    for (int i = 0; i < *len; i++, a += 4, b += 4) {
        int c0 = (int)(((int64_t)a[0] * b[0] + (int64_t)a[1] * b[2]) % MOD);
        int c1 = (int)(((int64_t)a[0] * b[1] + (int64_t)a[1] * b[3]) % MOD);
        int c2 = (int)(((int64_t)a[2] * b[0] + (int64_t)a[3] * b[2]) % MOD);
        int c3 = (int)(((int64_t)a[2] * b[1] + (int64_t)a[3] * b[3]) % MOD);
        b[0] = c0;
        b[1] = c1;
        b[2] = c2;
        b[3] = c3;
    }
}

/* the value of component c of element i of rank q's input */
static int val(const dkind_t *k, int q, size_t i, int c)
{
    if (k->matrix) {
        return (int)((q * 13 + i * 7 + (size_t)c * 5 + (q * c)) % 16);
    }
    return (int)((q * 7 + i * 3 + (size_t)c) % 1000) - 500;
}

/* acc = acc op x (acc holds the lower ranks) on one element */
static void combine(const dkind_t *k, int *acc, const int *x)
{
    if (k->matrix) {
        int t[4];
        memcpy(t, x, sizeof(t));
        matmul_fn(acc, t, &(int){1}, NULL);
        memcpy(acc, t, sizeof(t));
        return;
    }
    for (int c = 0; c < k->ncomp; c++) {
        acc[c] += x[c];
    }
}

/* the reduction of ranks [lo, hi) for element i into out[ncomp] */
static void reference(const dkind_t *k, int lo, int hi, size_t i, int *out)
{
    for (int c = 0; c < k->ncomp; c++) {
        out[c] = val(k, lo, i, c);
    }
    for (int q = lo + 1; q < hi; q++) {
        int x[4];
        for (int c = 0; c < k->ncomp; c++) {
            x[c] = val(k, q, i, c);
        }
        combine(k, out, x);
    }
}

static int *alloc_buf(const dkind_t *k, size_t count)
{
    size_t n = (count + 1) * (size_t)k->stride;
    int *b = malloc(n * sizeof(int));
    for (size_t i = 0; i < n; i++) {
        b[i] = SENTINEL;
    }
    return b;
}

/* element `first + i` of rank q's input into element i of buf */
static void fill(const dkind_t *k, int *buf, size_t count, int q, size_t first)
{
    for (size_t i = 0; i < count; i++) {
        for (int c = 0; c < k->ncomp; c++) {
            buf[i * (size_t)k->stride + (size_t)k->comp_off[c]] = val(k, q, first + i, c);
        }
    }
}

static void report(const char *what, const coll_algo_t *a, const coll_params_t *prm,
                   const dkind_t *k, size_t count, int root, int in_place, size_t at, int got,
                   int want)
{
    g_fail++;
    if (g_fail <= 20) {
        fprintf(stderr,
                "FAIL rank %d %s %s:%s(fanout=%ld,segsize=%ld)%s%s %s count=%zu root=%d "
                "in_place=%d: %s at int %zu: got %d want %d\n",
                g_rank, g_comm_name, coll_kind_name(a->kind), a->name, prm->fanout, prm->segsize,
                g_mode != COLL_MODE_BLOCKING ? " " : "",
                g_mode != COLL_MODE_BLOCKING ? coll_mode_name(g_mode) : "", k->name, count, root,
                in_place, what, at, got, want);
    }
}

/* compare element-wise with the reduction of ranks [lo, hi) (or rank lo's input when
   hi == lo + 1), elements first.., and check the holes still hold the sentinel */
static void check(const int *buf, size_t count, const dkind_t *k, int lo, int hi, size_t first,
                  const coll_algo_t *a, const coll_params_t *prm, size_t ccount, int root,
                  int in_place)
{
    for (size_t i = 0; i < count; i++) {
        int want[4];
        reference(k, lo, hi, first + i, want);
        for (int c = 0; c < k->ncomp; c++) {
            size_t at = i * (size_t)k->stride + (size_t)k->comp_off[c];
            if (buf[at] != want[c]) {
                report("value", a, prm, k, ccount, root, in_place, at, buf[at], want[c]);
                return;
            }
        }
        for (int h = 0; h < k->stride && !in_place; h++) {
            int is_data = 0;
            for (int c = 0; c < k->ncomp; c++) {
                is_data |= k->comp_off[c] == h;
            }
            size_t at = i * (size_t)k->stride + (size_t)h;
            if (!is_data && buf[at] != SENTINEL) {
                report("hole written", a, prm, k, ccount, root, in_place, at, buf[at], SENTINEL);
                return;
            }
        }
    }
}

static int kind_in_place_ok(coll_kind_t kind)
{
    return kind == COLL_REDUCE || kind == COLL_ALLREDUCE || kind == COLL_REDUCE_SCATTER ||
           kind == COLL_REDUCE_SCATTER_BLOCK || kind == COLL_SCAN || kind == COLL_EXSCAN;
}

/* the algorithm has a schedule: its closure has a start */
static int has_sched(const coll_algo_t *a)
{
    return a->sched != NULL || a->tree != NULL;
}

/* the buffers of a persistent case: scrambled while its schedule is built, restored
   before each start (rbuf as it was before the call, so every run does the whole work) */
typedef struct bufs {
    int *sbuf, *rbuf, *rinit;
    size_t len; /* ints of each */
} bufs_t;

static void scramble(int *buf, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        buf[i] = (int)(0x3c3c3c3c ^ (unsigned)i);
    }
}

/* one run of the closure in mode g_mode: blocking, nonblocking (started and waited for),
   persistent (built, then started and waited for twice, check() after each run) */
static compi_status_t run_closure(coll_closure_t *cl, coll_call_t *call, const bufs_t *b,
                                  void (*check_fn)(void *), void *arg)
{
    compi_status_t st;
    if (g_mode == COLL_MODE_BLOCKING) {
        st = cl->fn(cl, call);
        if (st == COMPI_OK && check_fn != NULL) {
            check_fn(arg);
        }
        return st;
    }
    if (cl->start == NULL) {
        return COMPI_ERR_INTERNAL;
    }
    int *scopy = NULL;
    if (g_mode == COLL_MODE_PERSISTENT && b != NULL) {
        scopy = malloc(b->len * sizeof(int));
        memcpy(scopy, b->sbuf, b->len * sizeof(int));
        scramble(b->sbuf, b->len);
        scramble(b->rbuf, b->len);
    }
    compi_request_t *req = NULL;
    st = cl->start(cl, call, &req);
    if (scopy != NULL) {
        memcpy(b->sbuf, scopy, b->len * sizeof(int));
        free(scopy);
    }
    if (st != COMPI_OK) {
        return st;
    }
    int runs = g_mode == COLL_MODE_PERSISTENT ? 2 : 1;
    for (int i = 0; i < runs && st == COMPI_OK; i++) {
        if (g_mode == COLL_MODE_PERSISTENT) {
            if (b != NULL) {
                memcpy(b->rbuf, b->rinit, b->len * sizeof(int));
            }
            pml_start(req);
        }
        st = pml_wait(req, NULL);
        req->active = 0;
        if (st == COMPI_OK && check_fn != NULL) {
            check_fn(arg);
        }
    }
    pml_request_free(req);
    return st;
}

/* what a case's results are checked against */
typedef struct expect {
    const coll_algo_t *a;
    const coll_params_t *prm;
    const dkind_t *k;
    const int *rbuf;
    size_t count, mine, first;
    int root, in_place, p, r;
} expect_t;

static void check_case(void *arg)
{
    const expect_t *e = arg;
    switch (e->a->kind) {
    case COLL_BCAST:
        check(e->rbuf, e->count, e->k, e->root, e->root + 1, 0, e->a, e->prm, e->count, e->root, 0);
        break;
    case COLL_REDUCE:
        if (e->r == e->root) {
            check(e->rbuf, e->count, e->k, 0, e->p, 0, e->a, e->prm, e->count, e->root,
                  e->in_place);
        }
        break;
    case COLL_ALLREDUCE:
        check(e->rbuf, e->count, e->k, 0, e->p, 0, e->a, e->prm, e->count, e->root, e->in_place);
        break;
    case COLL_REDUCE_SCATTER:
    case COLL_REDUCE_SCATTER_BLOCK:
        check(e->rbuf, e->mine, e->k, 0, e->p, e->first, e->a, e->prm, e->count, e->root,
              e->in_place);
        break;
    case COLL_SCAN:
        check(e->rbuf, e->count, e->k, 0, e->r + 1, 0, e->a, e->prm, e->count, e->root,
              e->in_place);
        break;
    case COLL_EXSCAN:
        if (e->r > 0) {
            check(e->rbuf, e->count, e->k, 0, e->r, 0, e->a, e->prm, e->count, e->root,
                  e->in_place);
        }
        break;
    default:
        break;
    }
}

static void run_case_once(compi_comm_t *comm, const coll_algo_t *a, const coll_params_t *prm,
                          const dkind_t *k, size_t count, int root, int in_place)
{
    int p = comm->size, r = comm->rank;
    compi_datatype_t *dt = dt_from_handle(k->type);
    coll_call_t call = {
        .kind = a->kind, .mode = g_mode, .comm = comm, .root = -1, .in_place = in_place};
    int *sbuf = NULL, *rbuf = NULL, *rcounts = NULL;
    size_t total = count, mine = count, first = 0;

    if (a->kind == COLL_REDUCE_SCATTER || a->kind == COLL_REDUCE_SCATTER_BLOCK) {
        rcounts = malloc((size_t)p * sizeof(int));
        total = 0;
        for (int i = 0; i < p; i++) {
            /* uneven blocks, some empty, for reduce-scatter */
            rcounts[i] = a->kind == COLL_REDUCE_SCATTER_BLOCK ? (int)count
                         : count == 0                         ? 0
                                                              : (int)(count + (size_t)(i % 3)) - 1;
            if (i == r) {
                first = total;
            }
            total += (size_t)rcounts[i];
        }
        mine = (size_t)rcounts[r];
        call.rcounts = coll_vec_int(a->kind == COLL_REDUCE_SCATTER ? rcounts : NULL);
        call.scount = total;
        call.rcount = mine;
    } else {
        call.scount = count;
        call.rcount = count;
    }
    call.sdt = call.rdt = dt;
    if (a->kind != COLL_BCAST && a->kind != COLL_BARRIER) {
        call.op = op_from_handle(k->op);
    }
    if (a->kind == COLL_BCAST || a->kind == COLL_REDUCE) {
        call.root = root;
    }
    call.bytes = total * dt->size;

    sbuf = alloc_buf(k, total);
    rbuf = alloc_buf(k, total);
    fill(k, sbuf, total, r, 0);
    if (a->kind == COLL_BCAST) {
        if (r == root) {
            fill(k, rbuf, count, r, 0);
        }
        call.sbuf = rbuf;
    } else if (in_place) {
        fill(k, rbuf, total, r, 0);
        call.sbuf = MPI_IN_PLACE;
    } else {
        call.sbuf = sbuf;
    }
    call.rbuf = rbuf;
    if (a->kind == COLL_REDUCE && r != root) {
        call.rbuf = NULL;
        call.in_place = 0;
        call.sbuf = sbuf;
    }
    bufs_t b = {.sbuf = sbuf, .rbuf = rbuf, .len = (total + 1) * (size_t)k->stride};
    if (g_mode == COLL_MODE_PERSISTENT) {
        b.rinit = malloc(b.len * sizeof(int));
        memcpy(b.rinit, rbuf, b.len * sizeof(int));
    }
    expect_t e = {.a = a,
                  .prm = prm,
                  .k = k,
                  .rbuf = rbuf,
                  .count = count,
                  .mine = mine,
                  .first = first,
                  .root = root,
                  .in_place = in_place,
                  .p = p,
                  .r = r};

    coll_closure_t *cl = coll_closure_algo(a, prm, &call, NULL);
    compi_status_t st = run_closure(cl, &call, &b, check_case, &e);
    coll_closure_release(cl);
    g_cases++;
    if (st != COMPI_OK) {
        report("status", a, prm, k, count, root, in_place, 0, st, 0);
    }
    free(b.rinit);
    free(sbuf);
    free(rbuf);
    free(rcounts);
}

/* blocking, then nonblocking and persistent when the algorithm has a schedule */
static void run_case(compi_comm_t *comm, const coll_algo_t *a, const coll_params_t *prm,
                     const dkind_t *k, size_t count, int root, int in_place)
{
    int nmodes = has_sched(a) ? COLL_NMODES : 1;
    for (int m = 0; m < nmodes; m++) {
        if (m == COLL_MODE_PERSISTENT && count > PERSIST_MAX) {
            continue;
        }
        g_mode = (coll_mode_t)m;
        run_case_once(comm, a, prm, k, count, root, in_place);
    }
    g_mode = COLL_MODE_BLOCKING;
}

static void run_comm(compi_comm_t *comm, const dkind_t *kinds, int nkinds)
{
    static const size_t counts[] = {0, 1, 2, 7, 100, 1031, 20000, 262144};
    int p = comm->size;
    int roots[3] = {0, p / 2, p - 1};
    size_t nalgos;
    const coll_algo_t *const *all = coll_algo_all(&nalgos);
    for (size_t ai = 0; ai < nalgos; ai++) {
        const coll_algo_t *a = all[ai];
        if (!is_reduce_kind(a->kind) || a->inter) {
            continue; /* intercommunicator algorithms: intercomm_coll.c */
        }
        if (g_only != NULL && strcmp(a->name, g_only) != 0) {
            continue;
        }
        coll_params_t prms[3] = {{0}};
        int nprm = 1;
        if (a->params & COLL_PARAM_SEGSIZE) {
            prms[nprm++] = (coll_params_t){.segsize = 100};
        }
        if (a->params & COLL_PARAM_FANOUT) {
            prms[nprm++] = (coll_params_t){.fanout = 3, .segsize = 64};
        }
        for (int pi = 0; pi < nprm; pi++) {
            if (a->kind == COLL_BARRIER) {
                for (int i = 0; i < 12; i++) {
                    g_mode = has_sched(a) ? (coll_mode_t)(i % COLL_NMODES) : COLL_MODE_BLOCKING;
                    coll_call_t call = {
                        .kind = COLL_BARRIER, .mode = g_mode, .comm = comm, .root = -1};
                    coll_closure_t *cl = coll_closure_algo(a, &prms[pi], &call, NULL);
                    if (run_closure(cl, &call, NULL, NULL, NULL) != COMPI_OK) {
                        report("status", a, &prms[pi], &kinds[0], 0, -1, 0, 0, -1, 0);
                    }
                    coll_closure_release(cl);
                }
                g_mode = COLL_MODE_BLOCKING;
                continue;
            }
            for (int ki = 0; ki < nkinds; ki++) {
                const dkind_t *k = &kinds[ki];
                for (size_t ci = 0; ci < sizeof(counts) / sizeof(counts[0]); ci++) {
                    size_t count = counts[ci];
                    if (count > k->maxcount) {
                        continue;
                    }
                    /* tiny segments on big vectors make thousands of messages per call:
                       the segmentation logic is covered by the smaller counts */
                    if (prms[pi].segsize != 0 && prms[pi].segsize < 4096 && count > 20000) {
                        continue;
                    }
                    for (int ri = 0; ri < 3; ri++) {
                        int root = roots[ri];
                        if ((ri > 0 && root == roots[ri - 1]) ||
                            (ri > 0 && a->kind != COLL_BCAST && a->kind != COLL_REDUCE)) {
                            continue;
                        }
                        for (int ip = 0; ip < 2; ip++) {
                            if (ip && !kind_in_place_ok(a->kind)) {
                                continue;
                            }
                            coll_call_t probe = {
                                .kind = a->kind,
                                .comm = comm,
                                .root = root,
                                .op = a->kind == COLL_BCAST ? NULL : op_from_handle(k->op)};
                            if (a->usable != NULL && !a->usable(&probe, &prms[pi])) {
                                continue;
                            }
                            /* in place at the root only, for reduce */
                            run_case(comm, a, &prms[pi], k, count, root,
                                     ip && (a->kind != COLL_REDUCE || comm->rank == root));
                        }
                    }
                }
            }
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Datatype vec, mat;
    MPI_Op matop;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Type_contiguous(4, MPI_INT, &mat);
    MPI_Type_commit(&mat);
    MPI_Op_create(matmul_fn, 0, &matop);
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            g_only = argv[++i];
        }
    }

    dkind_t kinds[] = {
        {"int-sum", MPI_INT, MPI_SUM, 1, 1, {0}, 0,
         quick ? 20000 : (int)(mt_max_bytes(1L << 20) / (long)sizeof(int))},
        {"vector-sum", vec, MPI_SUM, 2, 4, {0, 3}, 0, 20000},
        {"matrix-product", mat, matop, 4, 4, {0, 1, 2, 3}, 1, 1031},
    };
    int nkinds = (int)(sizeof(kinds) / sizeof(kinds[0]));

    g_comm_name = "world";
    run_comm(comm_from_handle(MPI_COMM_WORLD), kinds, nkinds);

    /* a split communicator: odd and even ranks, numbered in reverse */
    MPI_Comm split;
    int wsize;
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_split(MPI_COMM_WORLD, g_rank % 2, wsize - g_rank, &split);
    g_comm_name = "split";
    kinds[0].maxcount = 1031;
    kinds[1].maxcount = 1031;
    kinds[2].maxcount = 100;
    run_comm(comm_from_handle(split), kinds, nkinds);
    MPI_Comm_free(&split);

    MPI_Op_free(&matop);
    MPI_Type_free(&vec);
    MPI_Type_free(&mat);
    if (g_fail > 0) {
        fprintf(stderr, "rank %d: %d of %d cases failed\n", g_rank, g_fail, g_cases);
    } else if (g_rank == 0) {
        printf("%d cases on rank 0\nok: coll_algos_reduce np=%d\n", g_cases, wsize);
    }
    MPI_Finalize();
    return g_fail > 0 ? 1 : 0;
}
