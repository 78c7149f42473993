/*
 * tree_exec_reduce.c -- reduce up any tree, pipelined in segments; allreduce as that
 * reduce to the tree's root followed by a bcast down the same tree.
 *
 *        0          each rank waits for segment k of every child's partial result,
 *      ^   ^        combines them with its own segment k, sends the result up, and
 *      1    2       meanwhile receives the next segments
 *      ^
 *      3            acc = own op (child 1) op (child 2) ... in rank order
 *
 * Cost for n bytes in segments of s bytes, depth d, at most f children per rank:
 * (d + n/s - 1) * (f (alpha + s beta) + f s gamma); allreduce adds the bcast's
 * (d + n/s - 1) * f * (alpha + s beta).
 *
 * Order of combination: a rank combines its own data and its children's partial
 * results sorted by the lowest rank of each piece (precomputed, tree_exec.h), right to
 * left, so acc = p0 op (p1 op (... op pm)) with coll_op_apply's inout = in op inout.  On
 * an ordered tree (every subtree a contiguous range of ranks) that is rank order, and
 * non-commutative ops come out right; the closure refuses them on other trees.
 *
 * Memory: a rank with children keeps one whole-message buffer per child (a child's
 * segments may arrive ahead of the combination), plus one for the partial result on
 * inner ranks of a reduce, all in the closure's scratch (sized at the miss, reused by
 * every hit: nothing is allocated on a hit); leaves send their input in one message,
 * straight from the user's buffer.
 *
 * Conventions of a reduction call (as for the other reduce algorithms): the datatype is
 * rdt (sdt when NULL), the count scount (rcount when scount is 0), and with in_place the
 * input is in rbuf.  Segments are whole elements: every rank has the same datatype.
 */
#include "core/coll/executors/tree_exec.h"

#include <stdlib.h>

typedef struct red_run {
    tree_exec_t *s;
    compi_comm_t *comm;
    compi_op_t *op;
    compi_datatype_t *dt;
    size_t count, segcount;
    int tag;
    const char *input;   /* this rank's data */
    char *acc;           /* where the partial result is built (NULL: in the scratch) */
    const int *pieces;   /* own rank and children, in combination order */
    const int *piece_ci; /* each piece's index among the children (-1: own) */
    int npieces;
} red_run_t;

static char *at(const void *buf, const compi_datatype_t *dt, size_t i)
{
    return (char *)buf + (ptrdiff_t)i * dt->extent;
}

/* segment [off, off + n) of the pieces into acc: the last two combine straight into acc
   (no copy of the last piece first), the others apply in turn; a lone piece is copied.
   Child i's buffer is at cbase + i * whole */
static compi_status_t combine_at(const red_run_t *r, char *cbase, size_t whole, const char *own,
                                 size_t off, size_t n)
{
    compi_status_t st = COMPI_OK;
    char *acc = at(r->acc, r->dt, off);

    for (int j = r->npieces - 1; j >= 0 && st == COMPI_OK; j--) {
        int ci = r->piece_ci[j];
        const char *src = ci < 0 ? own : at(cbase + (size_t)ci * whole, r->dt, off);
        if (j == r->npieces - 1) {
            if (j == 0 && src != acc) {
                st = coll_copy(src, n, r->dt, acc, n, r->dt);
            }
        } else if (j == r->npieces - 2) {
            int cl = r->piece_ci[j + 1];
            const char *last = cl < 0 ? own : at(cbase + (size_t)cl * whole, r->dt, off);
            st = coll_op_apply3(r->op, r->dt, src, last, acc, n);
        } else {
            st = coll_op_apply(r->op, r->dt, src, acc, n);
        }
    }
    return st;
}

/*
 * The reduce phase.  At the tree's root the result is left in acc; elsewhere acc is
 * scratch (the closure's when r->acc is NULL).  The closure's scratch also holds one
 * whole-message buffer per child and, when the input and acc are the same buffer (in
 * place) and the own piece is not combined last, a copy of the own segment.
 */
static compi_status_t red_up(red_run_t *r)
{
    tree_exec_t *s = r->s;
    const topo_tree_t *t = s->tree;
    int me = r->comm->rank, nc = tree_exec__nchildren(t, me), parent = t->parent[me];
    const int *ch = tree_exec__children(t, me);
    size_t nseg = (r->count + r->segcount - 1) / r->segcount;
    /* the closure's request slots: nc * TREE_RECV_AHEAD receives, then the sends */
    compi_request_t **rreq = s->reqs;
    compi_request_t **sreq = s->reqs + (size_t)s->maxnc * TREE_SEND_WINDOW;
    char *scratch = NULL;
    compi_status_t st = COMPI_OK;

    if (nc == 0) {
        /* a leaf: its input goes up as it is, in one message (segments would only add
           latency: the parent waits for all of them anyway, in order) */
        if (parent < 0) {
            if (r->acc != r->input) {
                return coll_copy(r->input, r->count, r->dt, r->acc, r->count, r->dt);
            }
            return COMPI_OK;
        }
        return pml_send(r->input, r->count, r->dt, parent, r->tag, r->comm, PML_SEND_STANDARD);
    }

    /* carve the scratch: [acc] [own segment] [child 0] ... [child nc-1] */
    size_t whole = tree_exec__span(r->dt, r->count);
    int need_acc = r->acc == NULL;
    int need_own = !need_acc && r->input == r->acc && r->pieces[r->npieces - 1] != me;
    size_t own_len = need_own ? tree_exec__span(r->dt, r->segcount) : 0;
    size_t len = (need_acc ? whole : 0) + own_len + (size_t)nc * whole;
    char *base = tree_exec__scratch(s, len);
    if (base == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    base -= r->dt->true_lb; /* buffers in the user layout (coll_tmp_alloc) */
    if (need_acc) {
        r->acc = base;
        base += whole;
    }
    if (need_own) {
        scratch = base;
        base += own_len;
    }
    /* child i's buffer */
#define CBUF(i) (base + (size_t)(i)*whole)

    if (nseg == 1) {
        /* one segment (small messages, unsegmented trees): every child's partial at once,
           combine, a blocking send up; no pipeline */
        for (int i = 0; i < nc && st == COMPI_OK; i++) {
            st = pml_irecv(CBUF(i), r->count, r->dt, ch[i], r->tag, r->comm, &rreq[i]);
        }
        compi_status_t st2 = pml_wait_all_free((size_t)nc, rreq);
        st = st != COMPI_OK ? st : st2;
        const char *own = r->input;
        if (st == COMPI_OK && scratch != NULL) {
            st = coll_copy(own, r->count, r->dt, scratch, r->count, r->dt);
            own = scratch;
        }
        if (st == COMPI_OK) {
            st = combine_at(r, base, whole, own, 0, r->count);
        }
        if (st == COMPI_OK && parent >= 0) {
            st = pml_send(r->acc, r->count, r->dt, parent, r->tag, r->comm, PML_SEND_STANDARD);
        }
        return st;
    }
    /* the children send a leaf's whole input in one message: match that */
    for (size_t k = 0; k < nseg && k < TREE_RECV_AHEAD && st == COMPI_OK; k++) {
        size_t off = k * r->segcount;
        size_t n = r->count - off < r->segcount ? r->count - off : r->segcount;
        for (int i = 0; i < nc && st == COMPI_OK; i++) {
            int leaf = tree_exec__nchildren(t, ch[i]) == 0;
            if (leaf && k > 0) {
                continue;
            }
            st = pml_irecv(at(CBUF(i), r->dt, off), leaf ? r->count : n, r->dt, ch[i], r->tag,
                           r->comm, &rreq[(k % TREE_RECV_AHEAD) * (size_t)nc + i]);
        }
    }
    for (size_t k = 0; k < nseg && st == COMPI_OK; k++) {
        size_t off = k * r->segcount;
        size_t n = r->count - off < r->segcount ? r->count - off : r->segcount;
        compi_request_t **slot = rreq + (k % TREE_RECV_AHEAD) * (size_t)nc;
        st = pml_wait_all_free((size_t)nc, slot);
        size_t next = k + TREE_RECV_AHEAD;
        if (next < nseg) {
            size_t noff = next * r->segcount;
            size_t nn = r->count - noff < r->segcount ? r->count - noff : r->segcount;
            for (int i = 0; i < nc && st == COMPI_OK; i++) {
                if (tree_exec__nchildren(t, ch[i]) > 0) {
                    st = pml_irecv(at(CBUF(i), r->dt, noff), nn, r->dt, ch[i], r->tag, r->comm,
                                   &slot[i]);
                }
            }
        }
        if (st != COMPI_OK) {
            break;
        }
        const char *own = at(r->input, r->dt, off);
        if (scratch != NULL) {
            st = coll_copy(own, n, r->dt, scratch, n, r->dt);
            own = scratch;
        }
        if (st == COMPI_OK) {
            st = combine_at(r, base, whole, own, off, n);
        }
        if (st == COMPI_OK && parent >= 0) {
            compi_request_t **sr = &sreq[k % TREE_SEND_WINDOW];
            st = pml_wait_all_free(1, sr);
            if (st == COMPI_OK) {
                st = pml_isend(at(r->acc, r->dt, off), n, r->dt, parent, r->tag, r->comm,
                               PML_SEND_STANDARD, sr);
            }
        }
    }
#undef CBUF
    compi_status_t st2 = pml_wait_all_free(TREE_SEND_WINDOW, sreq);
    compi_status_t st3 = pml_wait_all_free((size_t)nc * TREE_RECV_AHEAD, rreq);
    st2 = st2 != COMPI_OK ? st2 : st3;
    return st != COMPI_OK ? st : st2;
}

compi_status_t tree_exec__reduce_up(tree_exec_t *s, const void *input, void *acc, size_t count,
                                    compi_datatype_t *dt, compi_op_t *op, compi_comm_t *comm,
                                    int tag)
{
    const topo_tree_t *t = s->tree;
    int me = comm->rank;
    red_run_t r = {.s = s,
                   .comm = comm,
                   .op = op,
                   .dt = dt,
                   .count = count,
                   .segcount = count,
                   .tag = tag,
                   .input = input,
                   .acc = acc,
                   .pieces = s->pieces + t->child_off[me] + me,
                   .piece_ci = s->piece_ci + t->child_off[me] + me,
                   .npieces = tree_exec__nchildren(t, me) + 1};
    if (count == 0) {
        return COMPI_OK;
    }
    if (s->params.segsize > 0 && dt->size > 0) {
        size_t sc = (size_t)s->params.segsize / dt->size;
        r.segcount = sc == 0 ? 1 : sc < count ? sc : count;
    }
    return red_up(&r);
}

/* fills r from the call */
static compi_status_t red_setup(tree_exec_t *s, const coll_call_t *call, int all, red_run_t *r)
{
    const topo_tree_t *t = s->tree;
    int me = call->comm->rank;
    r->s = s;
    r->comm = call->comm;
    r->op = call->op;
    r->dt = call->rdt != NULL ? call->rdt : call->sdt;
    r->count = call->scount != 0 ? call->scount : call->rcount;
    r->tag = coll_tag(call->kind);
    r->input = call->in_place ? call->rbuf : call->sbuf;
    r->pieces = s->pieces + t->child_off[me] + me;
    r->piece_ci = s->piece_ci + t->child_off[me] + me;
    r->npieces = tree_exec__nchildren(t, me) + 1;
    r->segcount = r->count;
    if (r->dt != NULL && s->params.segsize > 0 && r->dt->size > 0) {
        size_t sc = (size_t)s->params.segsize / r->dt->size;
        r->segcount = sc == 0 ? 1 : sc < r->count ? sc : r->count;
    }
    if (r->count == 0) {
        return COMPI_OK;
    }
    if (r->dt == NULL || r->op == NULL) {
        return COMPI_ERR_INVALID_PARAM; /* the same on every rank: nothing was sent */
    }
    /* the result is built in rbuf where the caller wants it (the reduce root, every rank
       of an allreduce); inner ranks of a reduce build theirs in the closure's scratch */
    r->acc = all || me == t->root ? call->rbuf : NULL;
    return COMPI_OK;
}

/* reduce (all = 0) and allreduce (all = 1: the root's result then goes down the tree) */
static compi_status_t reduce_run(coll_closure_t *self, const coll_call_t *call, int all)
{
    tree_exec_t *s = self->state;
    red_run_t r;
    compi_status_t st = tree_exec__check(s, call);
    if (st != COMPI_OK) {
        return st;
    }
    st = red_setup(s, call, all, &r);
    if (st == COMPI_OK && r.count > 0) {
        st = red_up(&r);
        if (st == COMPI_OK && all) {
            st = tree_exec__bcast_buf(s, call->rbuf, r.count, r.dt, call->comm, r.tag);
        }
    }
    return st;
}

compi_status_t tree_exec__reduce(coll_closure_t *self, const coll_call_t *call)
{
    return reduce_run(self, call, 0);
}

compi_status_t tree_exec__allreduce(coll_closure_t *self, const coll_call_t *call)
{
    return reduce_run(self, call, 1);
}
