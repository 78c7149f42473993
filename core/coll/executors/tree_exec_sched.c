/*
 * tree_exec_sched.c -- every tree closure's collective as a schedule (core/coll/sched/
 * sched.h), native tree algorithms and creators' trees alike: blocking calls run it to
 * completion (coll_sched_run, no request), nonblocking and persistent ones start it.
 *
 * bcast, pipelined in segments of segsize bytes of the packed message (never elements:
 * ranks may describe the same bytes with different datatypes), in one round with
 * dependencies: every receive posted at once, segment k forwarded to the children in
 * their order as soon as segments 0..k are in.
 *
 *   root  | s0 -> 1 | s1 -> 1 | s2 -> 1 |                 chain 0 -> 1 -> 2, 3 segments
 *   1     |         | s0 -> 2 | s1 -> 2 | s2 -> 2 |
 *   2     |         |         |   s0    |   s1    |   s2  |
 *
 * Cost for n bytes in segments of s bytes over a tree of depth d whose ranks have at
 * most f children: (d + n/s - 1) * f * (alpha + s beta); a chain (f = 1) with small s
 * approaches n beta, a binomial tree without segments d * f * (alpha + n beta).  A
 * non-contiguous buffer travels packed (packed once at the root, unpacked once at the
 * end elsewhere); one segment goes in the user's datatype.
 *
 * reduce, the other way, also one round: every receive posted at once (a leaf sends its
 * whole input in one message: segments would only add latency), and segment k combined
 * as soon as it is in from every child and segment k - 1 is combined, then sent up at
 * once, while the next segments arrive:
 *
 *   [recv seg k <- each inner child]  [recv all <- each leaf child]          (k = 0)
 *   [combine seg k] after those receives and combine seg k - 1
 *   [send seg k -> parent] after combine seg k
 *
 * Cost: (d + n/s - 1) * (f (alpha + s beta) + f s gamma).  Order of combination: a rank
 * combines its own data and its children's partial results sorted by the lowest rank of
 * each piece (tree_exec.h), right to left, acc = p0 op (p1 op (... op pm)), the last two
 * straight into acc (coll_sched_reduce3); on an ordered tree that is rank order, which
 * non-commutative ops need (the closure refuses them on other trees).
 *
 * allreduce is the reduce, then the bcast of the result down the same tree; allgather
 * the gather, then the bcast; barrier a zero-byte fan-in, then fan-out (2 d alpha on
 * the critical path).  gather and scatter move each subtree's blocks as one message,
 * packed in preorder (the rank, then its children's subtrees in child order), so that a
 * child's message lands as one piece inside its parent's buffer; only the root puts the
 * blocks in rank order (gather) or packs them (scatter):
 *
 *   gather, tree 0 -> {1 -> {3}, 2}:     3 sends [3]
 *                                        1 sends [1 3]     (own block, then 3's)
 *                                        2 sends [2]
 *                                        0 unpacks [0 | 1 3 | 2] into rank order
 *
 * Cost for blocks of b bytes: d alpha + (p - 1) b beta through the root.
 *
 * Memory: the schedule's scratch (freed with the schedule; a persistent one keeps it
 * from init to MPI_Request_free), never the closure's, so several schedules of one
 * closure may be outstanding; the engine reuses schedules and scratch blocks, so a warm
 * blocking run allocates nothing.  A rank with children keeps one whole-message buffer
 * per child (a child's segments may arrive ahead of the combination).  Buffers are read
 * and written by the schedule's steps when they run, never while it is built, so a
 * persistent schedule sees the buffers' contents at each MPI_Start.
 */
#include "core/coll/executors/tree_exec.h"
#include "core/coll/phases/blocks.h"
#include "core/coll/sched/sched.h"

static compi_datatype_t *byte_dt(void)
{
    return dt_from_handle(MPI_BYTE);
}

static char *at(const void *buf, const compi_datatype_t *dt, size_t i)
{
    return (char *)buf + (ptrdiff_t)i * dt->extent;
}

/* ---- bcast ------------------------------------------------------------------------- */

static void sched_bcast(const tree_exec_t *s, coll_sched_t *sc, void *buf, size_t count,
                        compi_datatype_t *dt, compi_comm_t *comm)
{
    const topo_tree_t *t = s->tree;
    int me = comm->rank, nc = tree_exec__nchildren(t, me), parent = t->parent[me];
    const int *ch = tree_exec__children(t, me);
    size_t total = count * dt->size, seg = (size_t)s->params.segsize;

    if (total == 0 || t->size == 1) {
        return;
    }
    if (seg == 0 || seg >= total) {
        /* one segment, in the user's datatype */
        if (parent >= 0) {
            coll_sched_recv(sc, buf, count, dt, parent);
            coll_sched_round(sc);
        }
        for (int i = 0; i < nc; i++) {
            coll_sched_send(sc, buf, count, dt, ch[i]);
        }
        coll_sched_round(sc);
        return;
    }
    /* segments of the packed bytes: the buffer itself when contiguous, else a packed
       copy (packed at the root when the schedule runs, unpacked at the end elsewhere) */
    compi_datatype_t *byte = byte_dt();
    char *p = dt_contig_ptr(dt, buf, count);
    int packed = p == NULL;
    if (packed) {
        p = coll_sched_scratch(sc, byte, total);
        if (p == NULL) {
            return;
        }
        if (parent < 0) {
            coll_sched_copy(sc, buf, count, dt, p, total, byte);
            coll_sched_round(sc);
        }
    }
    /* one round: every receive posted at once, segment k forwarded as soon as segments
       0..k are in (`in`, a join of them, keeps the sends to a child in segment order;
       a leaf needs none) */
    size_t nseg = (total + seg - 1) / seg;
    int in = -1;
    for (size_t k = 0; k < nseg; k++) {
        size_t len = total - k * seg < seg ? total - k * seg : seg;
        if (parent >= 0) {
            int got = coll_sched_recv(sc, p + k * seg, len, byte, parent);
            if (nc > 0) {
                coll_sched_after(sc, got);
                coll_sched_after(sc, in);
                in = coll_sched_join(sc);
            }
        }
        for (int i = 0; i < nc; i++) {
            coll_sched_after(sc, in);
            coll_sched_send(sc, p + k * seg, len, byte, ch[i]);
        }
    }
    coll_sched_round(sc);
    if (packed && parent >= 0) {
        coll_sched_copy(sc, p, total, byte, buf, count, dt);
        coll_sched_round(sc);
    }
}

/* ---- reduce ------------------------------------------------------------------------ */

/*
 * Segment k of this rank's pieces combined into acc, as one chain of local steps:
 *
 *   [copy own seg k aside] (in place, own piece not last)  after recv seg k <- each child,
 *   acc = p[m-1] op p[m]   (reduce3: no copy of the last piece first)    and the chain of
 *   acc = p[j] op acc, j = m-2 .. 0                                      segment k - 1
 *
 * own_seg is the own piece's segment k (the input's, or its copy).  Returns the chain's
 * last step; the dependencies of its first step are the caller's coll_sched_after.
 */
static int sched_combine(const tree_exec_t *s, coll_sched_t *sc, int me, const char *cbase,
                         size_t count, const char *own_seg, char *acc, compi_datatype_t *dt,
                         size_t off, size_t n)
{
    const topo_tree_t *t = s->tree;
    const int *piece_ci = s->piece_ci + t->child_off[me] + me;
    int np = tree_exec__nchildren(t, me) + 1, id = -1;

    /* with children np >= 2: the chain starts with the reduce3 of the last two pieces */
    for (int j = np - 2; j >= 0; j--) {
        int ci = piece_ci[j];
        const char *src = ci < 0 ? own_seg : at(cbase, dt, (size_t)ci * count + off);
        coll_sched_after(sc, id);
        if (j == np - 2) {
            int cl = piece_ci[np - 1];
            const char *last = cl < 0 ? own_seg : at(cbase, dt, (size_t)cl * count + off);
            id = coll_sched_reduce3(sc, src, last, at(acc, dt, off), n, dt);
        } else {
            id = coll_sched_reduce(sc, src, at(acc, dt, off), n, dt);
        }
    }
    return id;
}

/* input up the tree (or each tree of a forest); the result in acc at every rank with no
   parent (acc NULL elsewhere: scratch) */
static void sched_reduce(const tree_exec_t *s, coll_sched_t *sc, const void *input, void *acc,
                         size_t count, compi_datatype_t *dt, compi_comm_t *comm)
{
    const topo_tree_t *t = s->tree;
    int me = comm->rank, nc = tree_exec__nchildren(t, me), parent = t->parent[me];
    const int *ch = tree_exec__children(t, me);
    const int *pieces = s->pieces + t->child_off[me] + me;

    if (count == 0) {
        return;
    }
    if (nc == 0) {
        /* a leaf sends its input as it is, in one message (segments would only add
           latency: the parent combines them in order anyway) */
        if (parent >= 0) {
            coll_sched_send(sc, input, count, dt, parent);
        } else if (acc != input) {
            coll_sched_copy(sc, input, count, dt, acc, count, dt);
        }
        coll_sched_round(sc);
        return;
    }
    size_t segcount = count;
    if (s->params.segsize > 0 && dt->size > 0) {
        size_t n = (size_t)s->params.segsize / dt->size;
        segcount = n == 0 ? 1 : n < count ? n : count;
    }
    size_t nseg = (count + segcount - 1) / segcount;
    if (acc == NULL) {
        acc = coll_sched_scratch(sc, dt, count);
    }
    /* in place, with the own piece not combined last: acc is overwritten before the own
       data is read, so each own segment is copied aside first (one segment's room: the
       chains of the segments run one after the other) */
    const char *own = input;
    int keep_own = input == acc && pieces[nc] != me;
    if (keep_own) {
        own = coll_sched_scratch(sc, dt, segcount);
    }
    /* child i's partial result at elements [i * count, (i + 1) * count) */
    char *cbase = coll_sched_scratch(sc, dt, (size_t)nc * count);
    /* the receives of one segment, which its chain's first step waits for */
    int *got = coll_sched_alloc(sc, (size_t)nc * sizeof(int));
    if (acc == NULL || own == NULL || cbase == NULL || got == NULL) {
        return; /* the schedule has failed (out of memory) */
    }
    /* one round: every receive posted at once; segment k combined once it is in from
       every child and segment k - 1 is combined (`tail`), then sent up at once.  The
       chain keeps the sends up in segment order and the own copy's room free. */
    int tail = -1;
    for (size_t k = 0; k < nseg; k++) {
        size_t off = k * segcount;
        size_t n = count - off < segcount ? count - off : segcount;
        for (int i = 0; i < nc; i++) {
            int leaf = tree_exec__nchildren(t, ch[i]) == 0;
            char *cb = at(cbase, dt, (size_t)i * count);
            got[i] = -1;
            if (!leaf) {
                got[i] = coll_sched_recv(sc, at(cb, dt, off), n, dt, ch[i]);
            } else if (k == 0) {
                /* a leaf child's whole input, in one message (later segments wait for it
                   through the chain) */
                got[i] = coll_sched_recv(sc, cb, count, dt, ch[i]);
            }
        }
        for (int i = 0; i < nc; i++) {
            coll_sched_after(sc, got[i]);
        }
        coll_sched_after(sc, tail);
        const char *own_seg = at(own, dt, off);
        if (keep_own) {
            int cp = coll_sched_copy(sc, at(input, dt, off), n, dt, (void *)own, n, dt);
            coll_sched_after(sc, cp);
            own_seg = own;
        }
        tail = sched_combine(s, sc, me, cbase, count, own_seg, acc, dt, off, n);
        if (parent >= 0) {
            coll_sched_after(sc, tail);
            coll_sched_send(sc, at(acc, dt, off), n, dt, parent);
        }
    }
    coll_sched_round(sc);
}

/* ---- gather and scatter ------------------------------------------------------------ */

/* this rank's block (count x dt at buf, blk bytes) and its subtree's up to the parent;
   at the root the subtree's blocks in preorder in the returned scratch (position 0, its
   own, unwritten), NULL when it has no children */
static char *sched_gather_up(const tree_exec_t *s, coll_sched_t *sc, const void *buf, size_t count,
                             compi_datatype_t *dt, size_t blk, compi_comm_t *comm)
{
    const topo_tree_t *t = s->tree;
    compi_datatype_t *byte = byte_dt();
    int me = comm->rank, nc = tree_exec__nchildren(t, me), parent = t->parent[me];
    const int *ch = tree_exec__children(t, me);

    if (nc == 0) {
        if (parent >= 0) {
            coll_sched_send(sc, buf, count, dt, parent);
            coll_sched_round(sc);
        }
        return NULL;
    }
    size_t nblk = (size_t)s->sub[me];
    char *tmp = coll_sched_scratch(sc, byte, nblk * blk);
    if (tmp == NULL) {
        return NULL;
    }
    for (int i = 0; i < nc; i++) {
        size_t off = (size_t)(s->pos[ch[i]] - s->pos[me]) * blk;
        coll_sched_recv(sc, tmp + off, (size_t)s->sub[ch[i]] * blk, byte, ch[i]);
    }
    if (parent >= 0) {
        coll_sched_copy(sc, buf, count, dt, tmp, blk, byte);
        coll_sched_round(sc);
        coll_sched_send(sc, tmp, nblk * blk, byte, parent);
    }
    coll_sched_round(sc);
    return parent >= 0 ? NULL : tmp;
}

static char *block_at(const void *buf, size_t count, const compi_datatype_t *dt, int i)
{
    return (char *)buf + (ptrdiff_t)i * (ptrdiff_t)count * dt->extent;
}

static void sched_gather(const tree_exec_t *s, coll_sched_t *sc, const coll_call_t *call)
{
    int me = call->comm->rank, root = s->tree->root;
    size_t blk = me == root ? call->rcount * call->rdt->size : call->scount * call->sdt->size;
    if (blk == 0) {
        return;
    }
    if (me == root && !call->in_place) {
        coll_sched_copy(sc, call->sbuf, call->scount, call->sdt,
                        block_at(call->rbuf, call->rcount, call->rdt, me), call->rcount, call->rdt);
        coll_sched_round(sc);
    }
    char *packed = sched_gather_up(s, sc, call->sbuf, call->scount, call->sdt, blk, call->comm);
    for (int i = 1; packed != NULL && i < s->sub[me]; i++) {
        int q = s->pre[s->pos[me] + i];
        coll_sched_copy(sc, packed + (size_t)i * blk, blk, byte_dt(),
                        block_at(call->rbuf, call->rcount, call->rdt, q), call->rcount, call->rdt);
    }
    coll_sched_round(sc);
}

static void sched_scatter(const tree_exec_t *s, coll_sched_t *sc, const coll_call_t *call)
{
    const topo_tree_t *t = s->tree;
    compi_datatype_t *byte = byte_dt();
    int me = call->comm->rank, root = t->root, nc = tree_exec__nchildren(t, me);
    const int *ch = tree_exec__children(t, me);
    size_t blk = me == root ? call->scount * call->sdt->size : call->rcount * call->rdt->size;

    if (blk == 0) {
        return;
    }
    if (nc == 0 && me != root) {
        coll_sched_recv(sc, call->rbuf, call->rcount, call->rdt, t->parent[me]);
        coll_sched_round(sc);
        return;
    }
    size_t nblk = (size_t)s->sub[me];
    char *tmp = NULL;
    if (nc > 0) {
        tmp = coll_sched_scratch(sc, byte, nblk * blk);
        if (tmp == NULL) {
            return;
        }
    }
    if (me == root) {
        /* preorder position 0 is the root's own block: it never travels */
        for (size_t i = 1; i < nblk; i++) {
            int q = s->pre[s->pos[me] + (int)i];
            coll_sched_copy(sc, block_at(call->sbuf, call->scount, call->sdt, q), call->scount,
                            call->sdt, tmp + i * blk, blk, byte);
        }
    } else {
        coll_sched_recv(sc, tmp, nblk * blk, byte, t->parent[me]);
    }
    coll_sched_round(sc);
    for (int i = 0; i < nc; i++) {
        size_t off = (size_t)(s->pos[ch[i]] - s->pos[me]) * blk;
        coll_sched_send(sc, tmp + off, (size_t)s->sub[ch[i]] * blk, byte, ch[i]);
    }
    /* this rank's block, while the children's go out */
    if (me != root) {
        coll_sched_copy(sc, tmp, blk, byte, call->rbuf, call->rcount, call->rdt);
    } else if (!call->in_place) {
        coll_sched_copy(sc, block_at(call->sbuf, call->scount, call->sdt, me), call->scount,
                        call->sdt, call->rbuf, call->rcount, call->rdt);
    }
    coll_sched_round(sc);
}

static void sched_allgather(const tree_exec_t *s, coll_sched_t *sc, const coll_call_t *call)
{
    int me = call->comm->rank, p = call->comm->size;
    size_t blk = call->rcount * call->rdt->size;
    coll_blk_t own, mine, all;

    if (blk == 0) {
        return;
    }
    coll_own_sblock(call, &own);
    coll_rblock(call, me, &mine);
    if (me == s->tree->root && !call->in_place) {
        coll_sched_copy(sc, own.buf, own.count, own.dt, mine.buf, mine.count, mine.dt);
        coll_sched_round(sc);
    }
    char *packed = sched_gather_up(s, sc, own.buf, own.count, own.dt, blk, call->comm);
    for (int i = 1; packed != NULL && i < p; i++) {
        coll_blk_t b;
        coll_rblock(call, s->pre[i], &b);
        coll_sched_copy(sc, packed + (size_t)i * blk, blk, byte_dt(), b.buf, b.count, b.dt);
    }
    coll_sched_round(sc);
    coll_rblock(call, 0, &all);
    sched_bcast(s, sc, all.buf, all.count * (size_t)p, all.dt, call->comm);
}

/* ---- barrier ----------------------------------------------------------------------- */

static void sched_barrier(const tree_exec_t *s, coll_sched_t *sc, compi_comm_t *comm)
{
    const topo_tree_t *t = s->tree;
    int me = comm->rank, nc = tree_exec__nchildren(t, me), parent = t->parent[me];
    const int *ch = tree_exec__children(t, me);
    compi_datatype_t *byte = byte_dt();

    for (int i = 0; i < nc; i++) {
        coll_sched_recv(sc, NULL, 0, byte, ch[i]);
    }
    coll_sched_round(sc);
    if (parent >= 0) {
        coll_sched_send(sc, NULL, 0, byte, parent);
        coll_sched_round(sc);
        coll_sched_recv(sc, NULL, 0, byte, parent);
        coll_sched_round(sc);
    }
    for (int i = 0; i < nc; i++) {
        coll_sched_send(sc, NULL, 0, byte, ch[i]);
    }
    coll_sched_round(sc);
}

/* ---- the entry point --------------------------------------------------------------- */

static void sched_build(const tree_exec_t *s, coll_sched_t *sc, const coll_call_t *call)
{
    switch (s->kind) {
    case COLL_BARRIER:
        sched_barrier(s, sc, call->comm);
        break;
    case COLL_BCAST: {
        /* the buffer: rbuf/rcount/rdt, or sbuf/scount/sdt when rdt is NULL */
        void *buf = call->rdt != NULL ? call->rbuf : (void *)call->sbuf;
        size_t count = call->rdt != NULL ? call->rcount : call->scount;
        compi_datatype_t *dt = call->rdt != NULL ? call->rdt : call->sdt;
        if (dt != NULL) {
            sched_bcast(s, sc, buf, count, dt, call->comm);
        } else if (count != 0) {
            coll_sched_fail(sc, COMPI_ERR_INVALID_PARAM); /* alike on every rank */
        }
        break;
    }
    case COLL_REDUCE:
    case COLL_ALLREDUCE: {
        /* the datatype is rdt (sdt when NULL), the count scount (rcount when 0), the
           input rbuf when in place; the result is built in rbuf at the reduce's root and
           on every rank of an allreduce, inner ranks of a reduce build theirs in scratch */
        int all = s->kind == COLL_ALLREDUCE, me = call->comm->rank;
        compi_datatype_t *dt = call->rdt != NULL ? call->rdt : call->sdt;
        size_t count = call->scount != 0 ? call->scount : call->rcount;
        const void *input = call->in_place ? call->rbuf : call->sbuf;
        if (count == 0) {
            break;
        }
        if (dt == NULL || call->op == NULL) {
            coll_sched_fail(sc, COMPI_ERR_INVALID_PARAM); /* alike on every rank */
            break;
        }
        void *acc = all || me == s->tree->root ? call->rbuf : NULL;
        sched_reduce(s, sc, input, acc, count, dt, call->comm);
        if (all) {
            sched_bcast(s, sc, call->rbuf, count, dt, call->comm);
        }
        break;
    }
    case COLL_GATHER:
        sched_gather(s, sc, call);
        break;
    case COLL_SCATTER:
        sched_scatter(s, sc, call);
        break;
    case COLL_ALLGATHER:
        sched_allgather(s, sc, call);
        break;
    default:
        coll_sched_fail(sc, COMPI_ERR_UNSUPPORTED);
        break;
    }
}

static void tree_build(const coll_call_t *call, void *arg, coll_sched_t *sc)
{
    sched_build(arg, sc, call);
}

void tree_exec__sched_build(const tree_exec_t *s, coll_sched_t *sc, const coll_call_t *call)
{
    sched_build(s, sc, call);
}

compi_status_t tree_exec__start(coll_closure_t *self, const coll_call_t *call,
                                struct compi_request **req_p)
{
    tree_exec_t *s = self->state;
    compi_status_t st = tree_exec__check(s, call);
    if (st != COMPI_OK) {
        return st;
    }
    if (s->host != NULL && tree_host__start(s, call, req_p, &st)) {
        return st;
    }
    return coll_sched_start_built(call, tree_build, s, req_p);
}

compi_status_t tree_exec__run_state(tree_exec_t *s, const coll_call_t *call)
{
    compi_status_t st = tree_exec__check(s, call);
    if (st != COMPI_OK) {
        return st;
    }
    return coll_sched_run_kept(&s->keep, call, tree_build, s);
}

compi_status_t tree_exec__run(coll_closure_t *self, const coll_call_t *call)
{
    tree_exec_t *s = self->state;
    compi_status_t st;
    if (s->host != NULL) {
        st = tree_exec__check(s, call);
        if (st != COMPI_OK) {
            return st;
        }
        if (tree_host__run(s, call, &st)) {
            return st;
        }
    }
    return tree_exec__run_state(s, call);
}

void coll_tree_sched_add(coll_closure_t *c, const coll_call_t *call, struct coll_sched *sc)
{
    const tree_exec_t *s = c->state;
    compi_status_t st = tree_exec__check(s, call);
    if (st != COMPI_OK) {
        coll_sched_fail(sc, st);
        return;
    }
    sched_build(s, sc, call);
}

/* ---- the forest phases (algorithms/allreduce/exchange.c) --------------------------- */

void tree_exec__sched_reduce_up(const tree_exec_t *s, coll_sched_t *sc, const void *input,
                                void *acc, size_t count, compi_datatype_t *dt, compi_comm_t *comm)
{
    if (count > 0) {
        sched_reduce(s, sc, input, acc, count, dt, comm);
        coll_sched_round(sc);
    }
}

void tree_exec__sched_bcast(const tree_exec_t *s, coll_sched_t *sc, void *buf, size_t count,
                            compi_datatype_t *dt, compi_comm_t *comm)
{
    sched_bcast(s, sc, buf, count, dt, comm);
    coll_sched_round(sc);
}
