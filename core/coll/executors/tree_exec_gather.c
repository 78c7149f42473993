/*
 * tree_exec_gather.c -- gather up and scatter down any tree, one message per edge.
 *
 * A subtree's blocks travel together, packed in preorder (the rank, then its children's
 * subtrees in child order: tree_exec.h), so that a child's message lands as one piece
 * inside its parent's buffer with no copy; only the root puts the blocks in rank order.
 *
 *   gather, tree 0 -> {1 -> {3}, 2}:     3 sends [3]
 *                                        1 sends [1 3]     (own block, then 3's)
 *                                        2 sends [2]
 *                                        0 unpacks [0 | 1 3 | 2] into rank order
 *
 * Cost for blocks of b bytes, depth d, at most f children: the root receives (p - 1) b
 * bytes, T ~ d alpha + (p - 1) b beta on the critical path for a flat or binomial
 * shape; each inner rank also packs its own block and forwards its subtree once.
 *
 * Scatter is the reverse: the root packs every block in preorder, each rank keeps the
 * first block of what it receives and forwards its children's ranges.
 *
 * The packed temporaries live in the closure's scratch and the requests in its slots
 * (tree_exec.h): nothing is allocated on a cache hit.
 */
#include "core/coll/executors/tree_exec.h"

#include <stdlib.h>

static char *block_at(const void *buf, size_t count, const compi_datatype_t *dt, int i)
{
    return (char *)buf + (ptrdiff_t)i * (ptrdiff_t)count * dt->extent;
}

compi_status_t tree_exec__gather_up(tree_exec_t *s, const void *buf, size_t count,
                                    compi_datatype_t *dt, size_t blk, compi_comm_t *comm, int tag,
                                    char **packed_p)
{
    const topo_tree_t *t = s->tree;
    compi_datatype_t *byte = dt_from_handle(MPI_BYTE);
    int me = comm->rank, root = t->root, nc = tree_exec__nchildren(t, me);
    const int *ch = tree_exec__children(t, me);
    compi_request_t **reqs = s->reqs;
    char *tmp = NULL;
    compi_status_t st = COMPI_OK;

    *packed_p = NULL;
    if (nc == 0) {
        /* a leaf sends its block as it is, in its own datatype */
        return me == root ? COMPI_OK
                          : pml_send(buf, count, dt, t->parent[me], tag, comm, PML_SEND_STANDARD);
    }
    size_t nblk = (size_t)s->sub[me];
    tmp = tree_exec__scratch(s, nblk * blk);
    if (tmp == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    for (int i = 0; i < nc && st == COMPI_OK; i++) {
        size_t off = (size_t)(s->pos[ch[i]] - s->pos[me]) * blk;
        st = pml_irecv(tmp + off, (size_t)s->sub[ch[i]] * blk, byte, ch[i], tag, comm, &reqs[i]);
    }
    if (st == COMPI_OK && me != root) {
        dt_pack(dt, buf, count, 0, tmp, blk);
    }
    compi_status_t st2 = pml_wait_all_free((size_t)nc, reqs);
    st = st != COMPI_OK ? st : st2;
    if (st == COMPI_OK && me != root) {
        st = pml_send(tmp, nblk * blk, byte, t->parent[me], tag, comm, PML_SEND_STANDARD);
    } else if (st == COMPI_OK) {
        *packed_p = tmp;
    }
    return st;
}

compi_status_t tree_exec__gather(coll_closure_t *self, const coll_call_t *call)
{
    tree_exec_t *s = self->state;
    const topo_tree_t *t = s->tree;
    int me = call->comm->rank, root = t->root;
    char *packed = NULL;
    compi_status_t st = tree_exec__check(s, call);
    if (st != COMPI_OK) {
        return st;
    }
    size_t blk = me == root ? call->rcount * call->rdt->size : call->scount * call->sdt->size;
    if (blk == 0) {
        return COMPI_OK;
    }
    if (me == root && !call->in_place) {
        st = coll_copy(call->sbuf, call->scount, call->sdt,
                       block_at(call->rbuf, call->rcount, call->rdt, me), call->rcount, call->rdt);
        if (st != COMPI_OK) {
            return st;
        }
    }
    st = tree_exec__gather_up(s, call->sbuf, call->scount, call->sdt, blk, call->comm,
                              coll_tag(COLL_GATHER), &packed);
    /* the root puts the blocks in rank order; position 0 of the preorder is its own */
    for (int i = 1; st == COMPI_OK && packed != NULL && i < s->sub[me]; i++) {
        int q = s->pre[s->pos[me] + i];
        dt_unpack(call->rdt, block_at(call->rbuf, call->rcount, call->rdt, q), call->rcount, 0,
                  packed + (size_t)i * blk, blk);
    }
    return st;
}

compi_status_t tree_exec__scatter(coll_closure_t *self, const coll_call_t *call)
{
    tree_exec_t *s = self->state;
    const topo_tree_t *t = s->tree;
    compi_comm_t *comm = call->comm;
    compi_datatype_t *byte = dt_from_handle(MPI_BYTE);
    int me = comm->rank, root = t->root, nc = tree_exec__nchildren(t, me);
    const int *ch = tree_exec__children(t, me);
    int tag = coll_tag(COLL_SCATTER);
    compi_request_t **reqs = s->reqs;
    char *tmp = NULL;
    compi_status_t st = tree_exec__check(s, call);
    if (st != COMPI_OK) {
        return st;
    }
    size_t blk = me == root ? call->scount * call->sdt->size : call->rcount * call->rdt->size;
    if (blk == 0) {
        return COMPI_OK;
    }
    if (nc == 0 && me != root) {
        return pml_recv(call->rbuf, call->rcount, call->rdt, t->parent[me], tag, comm, NULL);
    }

    size_t nblk = (size_t)s->sub[me];
    if (nc > 0) {
        tmp = tree_exec__scratch(s, nblk * blk);
        if (tmp == NULL) {
            return COMPI_ERR_NO_MEMORY;
        }
    }
    if (me == root) {
        /* preorder position 0 is the root's own block: it never travels */
        for (size_t i = 1; i < nblk; i++) {
            int q = s->pre[s->pos[me] + (int)i];
            dt_pack(call->sdt, block_at(call->sbuf, call->scount, call->sdt, q), call->scount, 0,
                    tmp + i * blk, blk);
        }
    } else {
        st = pml_recv(tmp, nblk * blk, byte, t->parent[me], tag, comm, NULL);
    }
    for (int i = 0; i < nc && st == COMPI_OK; i++) {
        size_t off = (size_t)(s->pos[ch[i]] - s->pos[me]) * blk;
        st = pml_isend(tmp + off, (size_t)s->sub[ch[i]] * blk, byte, ch[i], tag, comm,
                       PML_SEND_STANDARD, &reqs[i]);
    }
    /* keep this rank's block while the children's go out */
    if (st == COMPI_OK) {
        if (me != root) {
            dt_unpack(call->rdt, call->rbuf, call->rcount, 0, tmp, blk);
        } else if (!call->in_place) {
            st = coll_copy(block_at(call->sbuf, call->scount, call->sdt, me), call->scount,
                           call->sdt, call->rbuf, call->rcount, call->rdt);
        }
    }
    if (nc > 0) {
        compi_status_t st2 = pml_wait_all_free((size_t)nc, reqs);
        st = st != COMPI_OK ? st : st2;
    }
    return st;
}
