/*
 * coll_algos_move.c -- runs every native data-movement algorithm (gather, scatter,
 * allgather, alltoall and their v/w variants) directly, without the trampoline, and
 * compares each rank's receive buffer with a reference computed locally.
 *
 * Helper program for the lead: unlike the other tests/mpi programs it links the internal
 * library (lib/libcompi.la) and includes internal headers, because it builds coll_call_t
 * structs by hand and runs coll_closure_algo(coll_algo_find(kind, name), params, call).
 *
 * Coverage per algorithm: sizes 0 .. 1 MiB per rank, roots 0, p / 2 and p - 1, four
 * datatype variants (int to int, int to a strided vector with holes, vector to int, per
 * peer mixed types for alltoallw), MPI_IN_PLACE, and zero-sized blocks in the v kinds.
 * Receive buffers carry guards (and the vector's holes) that must stay untouched; send
 * buffers must come back unchanged.  Arguments the standard says are not significant
 * (receive side of a gather at non-roots, send side in place, ...) are NULL.  An
 * algorithm that runs as a schedule (.sched, or a tree) runs every case in three modes:
 * blocking (the closure's fn), nonblocking (its start, then a wait) and persistent (its
 * schedule built over scrambled buffers, so a step that read them then instead of when
 * it runs goes wrong, then started twice, each run checked; all sizes but the two largest).
 *
 * Usage: mpirun -np N ./coll_algos_move [max-ints-per-rank] (default 1 MiB per rank, or
 * COMPI_TEST_MAX_BYTES); rank 0 prints
 * "ok: coll_algos_move np=N" and the program exits 0 when every check passed.
 */
#include "tests/mpi/mpitest.h"

#include "core/coll/coll.h"
#include "core/pml/pml.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SENTINEL 0x7eadbeef
#define GUARD 8 /* ints before and after each receive area */

/* a datatype as the checker sees it: element e, int j sits at int e * ext + pos[j] */
typedef struct ty {
    const char *name;
    MPI_Datatype handle;
    int ipe; /* ints per element */
    int ext; /* extent in ints */
    int pos[2];
} ty_t;

static ty_t ty_int = {"int", MPI_INT, 1, 1, {0, 0}};
static ty_t ty_vec = {"vec", MPI_DATATYPE_NULL, 2, 3, {0, 2}};

static int rank, size, errors, checks;
static const char *cur_algo;
static coll_kind_t cur_kind;
static int cur_root, cur_variant;
static coll_mode_t cur_mode; /* blocking: the closure's fn; else its start */
static long cur_base;

static int val(int src, int dst, long k)
{
    unsigned v = (unsigned)(src * 8191 + dst * 131 + 7) * 2654435761u + (unsigned)k;
    v &= 0x3fffffffu; /* never the sentinel */
    return (int)v;
}

/* logical ints of the block src -> dst: symmetric (in-place alltoallv needs it), some 0 */
static long lv(int src, int dst, long base)
{
    if (base == 0 || (src + dst) % 5 == 4) {
        return 0;
    }
    return base * (1 + (src + dst) % 3);
}

/* one side (send or receive) of this rank: which blocks, where, of which type */
typedef struct side {
    int nblk;
    int peer[64];
    long ints[64];
    const ty_t *ty[64];
    long start[64];         /* in ints from the base */
    int sval[64], dval[64]; /* value keys of the block's data */
    long len;               /* ints spanned */
} side_t;

static void side_add(side_t *s, int peer, long ints, const ty_t *ty, int sv, int dv)
{
    int b = s->nblk++;
    s->peer[b] = peer;
    s->ints[b] = ints;
    s->ty[b] = ty;
    s->sval[b] = sv;
    s->dval[b] = dv;
}

/* fixed kinds: block b at b * count * extent; v/w kinds: reverse order with one element
   of gap between blocks, so displacements matter */
static void side_layout(side_t *s, int fixed)
{
    long cur = 0;
    if (fixed) {
        for (int b = 0; b < s->nblk; b++) {
            s->start[b] = b * (s->ints[b] / s->ty[b]->ipe) * s->ty[b]->ext;
        }
        s->len = s->nblk * (s->nblk > 0 ? (s->ints[0] / s->ty[0]->ipe) * s->ty[0]->ext : 0);
        return;
    }
    for (int b = s->nblk - 1; b >= 0; b--) {
        /* w: keep each start a multiple of 3 and 1 so it is a whole number of elements */
        cur = (cur + 2) / 3 * 3;
        s->start[b] = cur;
        cur += (s->ints[b] / s->ty[b]->ipe) * s->ty[b]->ext + 3;
    }
    s->len = cur;
}

/* write block b's data (as the sender holds it) into buf */
static void side_fill(const side_t *s, int b, int *buf)
{
    const ty_t *t = s->ty[b];
    for (long k = 0; k < s->ints[b]; k++) {
        buf[s->start[b] + (k / t->ipe) * t->ext + t->pos[k % t->ipe]] =
            val(s->sval[b], s->dval[b], k);
    }
}

static int *area(long len)
{
    int *a = malloc((size_t)(len + 2 * GUARD + 1) * sizeof(int));
    for (long i = 0; i < len + 2 * GUARD + 1; i++) {
        a[i] = SENTINEL;
    }
    return a;
}

static void fail(const char *what, long at, int got, int want)
{
    if (errors < 20) {
        fprintf(stderr,
                "FAIL coll_algos_move rank %d np %d: %s:%s %s root %d variant %d base %ld: "
                "%s at int %ld: got %d want %d\n",
                rank, size, coll_kind_name(cur_kind), cur_algo, coll_mode_name(cur_mode), cur_root,
                cur_variant, cur_base, what, at, got, want);
    }
    errors++;
}

static int is_v(coll_kind_t k)
{
    return k == COLL_GATHERV || k == COLL_SCATTERV || k == COLL_ALLGATHERV || k == COLL_ALLTOALLV ||
           k == COLL_ALLTOALLW;
}

static int is_rooted(coll_kind_t k)
{
    return k == COLL_GATHER || k == COLL_GATHERV || k == COLL_SCATTER || k == COLL_SCATTERV;
}

/* the algorithm has a schedule: its closure has a start */
static int has_sched(const coll_algo_t *a)
{
    return a->sched != NULL || a->tree != NULL;
}

/* a case's buffers: the areas with their guards (`alen` ints each), and what they hold
   before the call (sinit, rinit) and after it (want) */
typedef struct bufs {
    int *sarea, *rarea;
    const int *sinit, *rinit, *want;
    long slen, rlen; /* the ints between the guards */
} bufs_t;

static void check_case(const bufs_t *b)
{
    const int *rbuf = b->rarea + GUARD, *wbuf = b->want + GUARD;
    checks++;
    for (long i = -GUARD; i < b->rlen + GUARD; i++) {
        if (rbuf[i] != wbuf[i]) {
            fail("receive buffer", i, rbuf[i], wbuf[i]);
            break;
        }
    }
    if (memcmp(b->sinit, b->sarea, (size_t)(b->slen + 2 * GUARD + 1) * sizeof(int)) != 0) {
        fail("send buffer changed", 0, 0, 0);
    }
}

static void scramble(int *a, long len)
{
    for (long i = 0; i < len + 2 * GUARD + 1; i++) {
        a[i] = (int)(0x3c3c3c3c ^ (unsigned)i);
    }
}

/* the case in mode cur_mode: blocking, nonblocking (started and waited for), persistent
   (built over scrambled buffers, then started twice over the real ones); checked after
   each run */
static compi_status_t run_closure(coll_closure_t *c, coll_call_t *call, const bufs_t *b)
{
    compi_status_t st;
    if (cur_mode == COLL_MODE_BLOCKING) {
        st = c->fn(c, call);
        check_case(b);
        return st;
    }
    if (c->start == NULL) {
        return COMPI_ERR_INTERNAL;
    }
    size_t sbytes = (size_t)(b->slen + 2 * GUARD + 1) * sizeof(int);
    size_t rbytes = (size_t)(b->rlen + 2 * GUARD + 1) * sizeof(int);
    if (cur_mode == COLL_MODE_PERSISTENT) {
        scramble(b->sarea, b->slen);
        scramble(b->rarea, b->rlen);
    }
    compi_request_t *req = NULL;
    st = c->start(c, call, &req);
    memcpy(b->sarea, b->sinit, sbytes);
    if (st != COMPI_OK) {
        return st;
    }
    int runs = cur_mode == COLL_MODE_PERSISTENT ? 2 : 1;
    for (int i = 0; i < runs && st == COMPI_OK; i++) {
        if (cur_mode == COLL_MODE_PERSISTENT) {
            memcpy(b->rarea, b->rinit, rbytes);
            pml_start(req);
        }
        st = pml_wait(req, NULL);
        req->active = 0;
        check_case(b);
    }
    pml_request_free(req);
    return st;
}

/* variants: 0 int->int, 1 int->vec, 2 vec->int, 3 in place (int), 4 in place (vec) */
static void run_case(const coll_algo_t *algo, const coll_params_t *params, int root, int variant,
                     long base)
{
    coll_kind_t kind = algo->kind;
    int in_place = variant >= 3;
    const ty_t *ts = variant == 2 ? &ty_vec : &ty_int;
    const ty_t *tr = (variant == 1 || variant == 4) ? &ty_vec : &ty_int;
    int p = size, r = rank;
    side_t snd = {0}, rcv = {0};
    int fixed = !is_v(kind);

    cur_kind = kind;
    cur_root = root;
    cur_variant = variant;
    cur_base = base;

    /* what this rank sends and receives, and the values in each block */
    for (int i = 0; i < p; i++) {
        const ty_t *tsi = ts, *tri = tr;
        if (kind == COLL_ALLTOALLW) {
            tsi = ((r + i + variant) % 2) ? &ty_vec : &ty_int;
            tri = ((i * 3 + r + variant) % 2) ? &ty_vec : &ty_int;
            if (in_place) {
                tsi = tri;
            }
        }
        switch (kind) {
        case COLL_GATHER:
        case COLL_GATHERV: {
            long L = kind == COLL_GATHER ? base : lv(i, root, base);
            if (i == r) {
                side_add(&snd, root, L, tsi, r, 0);
            }
            if (r == root) {
                side_add(&rcv, i, L, tri, i, 0);
            }
            break;
        }
        case COLL_SCATTER:
        case COLL_SCATTERV: {
            long L = kind == COLL_SCATTER ? base : lv(root, i, base);
            if (r == root) {
                side_add(&snd, i, L, tsi, root, i);
            }
            if (i == r) {
                side_add(&rcv, root, L, tri, root, r);
            }
            break;
        }
        case COLL_ALLGATHER:
        case COLL_ALLGATHERV: {
            long L = kind == COLL_ALLGATHER ? base : lv(i, i, base);
            if (i == r) {
                side_add(&snd, r, L, tsi, r, 0);
            }
            side_add(&rcv, i, L, tri, i, 0);
            break;
        }
        default: { /* alltoall, v, w */
            long Ls = kind == COLL_ALLTOALL ? base : lv(r, i, base);
            long Lr = kind == COLL_ALLTOALL ? base : lv(i, r, base);
            side_add(&snd, i, Ls, tsi, r, i);
            side_add(&rcv, i, Lr, tri, i, r);
            break;
        }
        }
    }
    side_layout(&snd, fixed || snd.nblk == 1);
    side_layout(&rcv, fixed || rcv.nblk == 1);

    /* MPI_IN_PLACE: which ranks, and what their receive buffer holds beforehand */
    int ip = 0;
    if (in_place) {
        ip = is_rooted(kind) ? r == root : 1;
    }
    int *sarea = area(snd.len), *rarea = area(rcv.len), *want = area(rcv.len);
    int *sbuf = sarea + GUARD, *rbuf = rarea + GUARD, *wbuf = want + GUARD;
    for (int b = 0; b < snd.nblk; b++) {
        side_fill(&snd, b, sbuf);
    }
    for (int b = 0; b < rcv.nblk; b++) {
        side_fill(&rcv, b, wbuf);
    }
    if (ip) {
        if (kind == COLL_GATHER || kind == COLL_GATHERV || kind == COLL_ALLGATHER ||
            kind == COLL_ALLGATHERV) {
            for (int b = 0; b < rcv.nblk; b++) {
                if (rcv.peer[b] == r) {
                    side_fill(&rcv, b, rbuf);
                }
            }
        } else if (kind == COLL_SCATTER || kind == COLL_SCATTERV) {
            /* the root receives nothing: its receive area stays as it was */
            for (long i = 0; i < rcv.len; i++) {
                wbuf[i] = SENTINEL;
            }
        } else {
            /* alltoall: the data to send starts in the receive buffer */
            side_t pre = rcv;
            for (int b = 0; b < pre.nblk; b++) {
                pre.sval[b] = r;
                pre.dval[b] = pre.peer[b];
                side_fill(&pre, b, rbuf);
            }
        }
    }
    int *scopy = malloc((size_t)(snd.len + 2 * GUARD + 1) * sizeof(int));
    memcpy(scopy, sarea, (size_t)(snd.len + 2 * GUARD + 1) * sizeof(int));
    int *rcopy = malloc((size_t)(rcv.len + 2 * GUARD + 1) * sizeof(int));
    memcpy(rcopy, rarea, (size_t)(rcv.len + 2 * GUARD + 1) * sizeof(int));

    /* the call, as the API layer would build it */
    int scounts[64], sdispls[64], rcounts[64], rdispls[64];
    compi_datatype_t *sdts[64], *rdts[64];
    coll_call_t call = {0};
    call.kind = kind;
    call.comm = comm_from_handle(MPI_COMM_WORLD);
    call.root = is_rooted(kind) ? root : -1;
    call.in_place = ip;
    call.sbuf = sbuf;
    call.rbuf = rbuf;
    if (snd.nblk > 0) {
        call.sdt = dt_from_handle(snd.ty[0]->handle);
        call.scount = (size_t)(snd.ints[0] / snd.ty[0]->ipe);
    }
    if (rcv.nblk > 0) {
        call.rdt = dt_from_handle(rcv.ty[0]->handle);
        call.rcount = (size_t)(rcv.ints[0] / rcv.ty[0]->ipe);
    }
    for (int b = 0; b < snd.nblk && snd.nblk == p; b++) {
        scounts[snd.peer[b]] = (int)(snd.ints[b] / snd.ty[b]->ipe);
        sdispls[snd.peer[b]] = kind == COLL_ALLTOALLW ? (int)(snd.start[b] * sizeof(int))
                                                      : (int)(snd.start[b] / snd.ty[b]->ext);
        sdts[snd.peer[b]] = dt_from_handle(snd.ty[b]->handle);
    }
    for (int b = 0; b < rcv.nblk && rcv.nblk == p; b++) {
        rcounts[rcv.peer[b]] = (int)(rcv.ints[b] / rcv.ty[b]->ipe);
        rdispls[rcv.peer[b]] = kind == COLL_ALLTOALLW ? (int)(rcv.start[b] * sizeof(int))
                                                      : (int)(rcv.start[b] / rcv.ty[b]->ext);
        rdts[rcv.peer[b]] = dt_from_handle(rcv.ty[b]->handle);
    }
    if (snd.nblk == p) {
        call.scounts = coll_vec_int(scounts);
        call.sdispls = coll_vec_int(sdispls);
        call.sdts = kind == COLL_ALLTOALLW ? sdts : NULL;
    }
    if (rcv.nblk == p) {
        call.rcounts = coll_vec_int(rcounts);
        call.rdispls = coll_vec_int(rdispls);
        call.rdts = kind == COLL_ALLTOALLW ? rdts : NULL;
    }
    if (kind == COLL_ALLTOALLW || kind == COLL_ALLTOALLV) {
        call.scount = call.rcount = 0;
    }
    if (kind == COLL_ALLTOALLW) {
        call.sdt = call.rdt = NULL;
    }
    /* what the standard says is not significant is not there */
    if (rcv.nblk == 0) {
        call.rbuf = NULL;
        call.rdt = NULL;
        call.rcount = 0;
    }
    if (snd.nblk == 0) {
        call.sbuf = NULL;
        call.sdt = NULL;
        call.scount = 0;
    }
    if (ip) {
        if (kind == COLL_SCATTER || kind == COLL_SCATTERV) {
            call.rbuf = MPI_IN_PLACE;
            call.rdt = NULL;
            call.rcount = 0;
        } else {
            call.sbuf = MPI_IN_PLACE;
            call.sdt = NULL;
            call.scount = 0;
            call.scounts = call.sdispls = (coll_vec_t){0};
            call.sdts = NULL;
        }
    }
    call.bytes = (uint64_t)base * sizeof(int);

    call.mode = cur_mode;
    bufs_t bufs = {.sarea = sarea,
                   .rarea = rarea,
                   .sinit = scopy,
                   .rinit = rcopy,
                   .want = want,
                   .slen = snd.len,
                   .rlen = rcv.len};
    coll_closure_t *c = coll_closure_algo(algo, params, &call, NULL);
    compi_status_t st = run_closure(c, &call, &bufs);
    coll_closure_release(c);
    if (st != COMPI_OK) {
        fail("status", 0, st, 0);
    }
    free(scopy);
    free(rcopy);
    free(sarea);
    free(rarea);
    free(want);
}

static int is_move_kind(coll_kind_t k)
{
    return k >= COLL_GATHER && k <= COLL_ALLTOALLW;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Type_vector(2, 1, 2, MPI_INT, &ty_vec.handle);
    MPI_Type_commit(&ty_vec.handle);

    /* 1 MiB per rank (less under COMPI_TEST_MAX_BYTES) */
    long max_ints = argc > 1 ? atol(argv[1]) : mt_max_bytes(1L << 20) / (long)sizeof(int);
    long big = max_ints / size / 2 * 2;
    long bases[] = {0, 2, 10, 600, 40000, big};
    int nbases = sizeof(bases) / sizeof(bases[0]);
    const char *only = getenv("MOVE_ALGO"); /* "kind:name" to run one algorithm */
    int roots[3] = {0, size / 2, size - 1};

    size_t n;
    const coll_algo_t *const *all = coll_algo_all(&n);
    for (size_t a = 0; a < n; a++) {
        const coll_algo_t *algo = all[a];
        char full[64];
        if (!is_move_kind(algo->kind) || algo->inter) {
            continue; /* intercommunicator algorithms: intercomm_coll.c */
        }
        snprintf(full, sizeof(full), "%s:%s", coll_kind_name(algo->kind), algo->name);
        if (only != NULL && strcmp(only, full) != 0) {
            continue;
        }
        cur_algo = algo->name;
        long fanouts[] = {0, 3};
        int nf = (algo->params & COLL_PARAM_FANOUT) ? 2 : 1;
        for (int f = 0; f < nf; f++) {
            coll_params_t params = {.fanout = fanouts[f], .segsize = 0};
            coll_call_t probe = {.kind = algo->kind, .comm = comm_from_handle(MPI_COMM_WORLD)};
            if (algo->usable != NULL && !algo->usable(&probe, &params)) {
                continue;
            }
            int nroots = is_rooted(algo->kind) ? 3 : 1;
            for (int ri = 0; ri < nroots; ri++) {
                if (ri > 0 && roots[ri] == roots[ri - 1]) {
                    continue;
                }
                for (int b = 0; b < nbases; b++) {
                    if (b > 0 && bases[b] <= bases[b - 1]) {
                        continue;
                    }
                    for (int v = 0; v < 5; v++) {
                        int nmodes = has_sched(algo) ? COLL_NMODES : 1;
                        for (int m = 0; m < nmodes; m++) {
                            if (m == COLL_MODE_PERSISTENT && b >= nbases - 2) {
                                continue; /* the two largest: blocking and nonblocking */
                            }
                            cur_mode = (coll_mode_t)m;
                            run_case(algo, &params, roots[ri], v, bases[b]);
                        }
                        cur_mode = COLL_MODE_BLOCKING;
                    }
                }
            }
        }
        if (rank == 0 && getenv("MOVE_VERBOSE") != NULL) {
            printf("done %s\n", full);
            fflush(stdout);
        }
    }

    /* the failures of every rank, summed at rank 0 with point-to-point messages (the
       collectives under test are not what the harness should rely on) */
    int total = errors;
    if (rank == 0) {
        for (int i = 1; i < size; i++) {
            int e;
            MPI_Recv(&e, 1, MPI_INT, i, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            total += e;
        }
        if (total == 0) {
            printf("%d checks\nok: coll_algos_move np=%d\n", checks, size);
        } else {
            printf("FAIL: coll_algos_move np=%d: %d failed checks\n", size, total);
        }
    } else {
        MPI_Send(&errors, 1, MPI_INT, 0, 77, MPI_COMM_WORLD);
    }
    MPI_Type_free(&ty_vec.handle);
    MPI_Finalize();
    return total != 0;
}
