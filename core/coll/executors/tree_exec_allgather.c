/*
 * tree_exec_allgather.c -- allgather over any tree: the blocks are gathered up the tree
 * to its root as the gather executor does (one message per edge, each subtree's blocks
 * packed in preorder: tree_exec_gather.c), the root puts them in rank order in its
 * receive buffer, and the whole result goes down the same tree as a bcast
 * (tree_exec__bcast_buf, pipelined by segsize).
 *
 *   tree 0 -> {1 -> {3}, 2}      gather up          bcast down
 *                                3: [3]  -> 1        0: [0 1 2 3] -> 1, 2
 *                                1: [1 3] -> 0       1: [0 1 2 3] -> 3
 *                                2: [2]  -> 0
 *                                0: [0 | 1 3 | 2] -> rank order
 *
 * Cost for p ranks, blocks of b bytes, depth d, at most f children per rank: the gather
 * T ~ d alpha + (p - 1) b beta through the root, then the bcast of p b bytes in segments
 * of s: (d + p b / s - 1) f (alpha + s beta) (without segments, d f (alpha + p b beta)).
 * Every edge carries its subtree's blocks up and the whole result down once: over a
 * hierarchical or MagPIe tree each wide-area link is crossed once per direction.
 *
 * MPI_IN_PLACE: a rank's own block is already in its receive buffer (coll_own_sblock);
 * derived datatypes: blocks travel packed on the way up, the result with the receive
 * datatype on the way down (packed in segments when it is not contiguous).
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/executors/tree_exec.h"

#include <stdlib.h>

compi_status_t tree_exec__allgather(coll_closure_t *self, const coll_call_t *call)
{
    tree_exec_t *s = self->state;
    const topo_tree_t *t = s->tree;
    compi_comm_t *comm = call->comm;
    int me = comm->rank, p = comm->size, tag = coll_tag(COLL_ALLGATHER);
    char *packed = NULL;
    coll_blk_t own, mine;
    compi_status_t st = tree_exec__check(s, call);
    if (st != COMPI_OK) {
        return st;
    }
    /* every rank's block has the same packed size (matching type signatures) */
    size_t blk = call->rcount * call->rdt->size;
    if (blk == 0) {
        return COMPI_OK;
    }
    coll_own_sblock(call, &own);
    coll_rblock(call, me, &mine);
    if (me == t->root && !call->in_place) {
        st = coll_blk_copy(&own, &mine);
        if (st != COMPI_OK) {
            return st;
        }
    }
    st = tree_exec__gather_up(s, own.buf, own.count, own.dt, blk, comm, tag, &packed);
    for (int i = 1; st == COMPI_OK && packed != NULL && i < p; i++) {
        coll_blk_t b;
        coll_rblock(call, s->pre[i], &b);
        dt_unpack(b.dt, b.buf, b.count, 0, packed + (size_t)i * blk, blk);
    }
    if (st != COMPI_OK) {
        return st;
    }
    /* the p blocks lie one after the other in the receive datatype's extent */
    coll_blk_t all;
    coll_rblock(call, 0, &all);
    return tree_exec__bcast_buf(s, all.buf, all.count * (size_t)p, all.dt, comm, tag);
}
