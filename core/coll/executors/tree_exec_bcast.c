/*
 * tree_exec_bcast.c -- broadcast down any tree, pipelined in segments.
 *
 * Each rank receives a segment from its parent and forwards it to its children in their
 * order with nonblocking sends, while the next segments are already being received:
 *
 *   root  | s0 -> 1 | s1 -> 1 | s2 -> 1 |                 chain 0 -> 1 -> 2, 3 segments
 *   1     |         | s0 -> 2 | s1 -> 2 | s2 -> 2 |
 *   2     |         |         |   s0    |   s1    |   s2  |
 *
 * Cost for n bytes in segments of s bytes over a tree of depth d whose ranks have at
 * most f children: (d + n/s - 1) * f * (alpha + s beta).  A chain (f = 1) with small s
 * approaches n beta for large n; a binomial tree without segments (s = n) gives
 * d * f * (alpha + n beta), the right choice for small messages.
 *
 * Segments are byte ranges of the packed message, never elements: ranks may describe
 * the same bytes with different datatypes (matching type signatures), and every rank
 * must cut at the same places.  A non-contiguous buffer is packed once into a temporary
 * (root) or unpacked once at the end (other ranks); an unsegmented bcast sends the
 * user's buffer with its own datatype, with blocking sends and no request when the
 * children take it eagerly (the small-message path of bcast:binomial).
 *
 * Nothing is allocated on a cache hit: requests go into the closure's slots and the
 * packed temporary into its scratch (tree_exec.h).
 */
#include "core/coll/executors/tree_exec.h"

/* one segment: receive from the parent, then every child gets the whole buffer with its
   own datatype.  When every child takes it eagerly (small messages: the native binomial
   bcast's case), blocking sends without request objects */
static compi_status_t bcast_whole(tree_exec_t *s, void *buf, size_t count, compi_datatype_t *dt,
                                  compi_comm_t *comm, int tag)
{
    const topo_tree_t *t = s->tree;
    int me = comm->rank, nc = tree_exec__nchildren(t, me);
    const int *ch = tree_exec__children(t, me);
    compi_status_t st = COMPI_OK;

    if (t->parent[me] >= 0) {
        st = pml_recv(buf, count, dt, t->parent[me], tag, comm, NULL);
    }
    if (st != COMPI_OK || nc == 0) {
        return st; /* a leaf, or a forest's root alone in its tree */
    }
    size_t bytes = count * dt->size;
    int eager = 1;
    for (int i = 0; eager && i < nc; i++) {
        eager = pml_send_is_local(comm, ch[i], bytes);
    }
    if (eager) {
        for (int i = 0; i < nc && st == COMPI_OK; i++) {
            st = pml_send(buf, count, dt, ch[i], tag, comm, PML_SEND_STANDARD);
        }
        return st;
    }
    compi_request_t **reqs = s->reqs;
    for (int i = 0; i < nc && st == COMPI_OK; i++) {
        st = pml_isend(buf, count, dt, ch[i], tag, comm, PML_SEND_STANDARD, &reqs[i]);
    }
    compi_status_t st2 = pml_wait_all_free((size_t)nc, reqs);
    return st != COMPI_OK ? st : st2;
}

/* the pipeline over `total` bytes at p (contiguous) */
static compi_status_t bcast_segments(tree_exec_t *s, char *p, size_t total, size_t seg,
                                     compi_comm_t *comm, int tag)
{
    const topo_tree_t *t = s->tree;
    compi_datatype_t *byte = dt_from_handle(MPI_BYTE);
    int me = comm->rank, nc = tree_exec__nchildren(t, me), parent = t->parent[me];
    const int *ch = tree_exec__children(t, me);
    size_t nseg = (total + seg - 1) / seg;
    /* the closure's request slots: nc * TREE_SEND_WINDOW sends, then the receives */
    compi_request_t **sreq = s->reqs;
    compi_request_t **rreq = s->reqs + (size_t)s->maxnc * TREE_SEND_WINDOW;
    compi_status_t st = COMPI_OK;

    if (parent >= 0) {
        for (size_t k = 0; k < nseg && k < TREE_RECV_AHEAD && st == COMPI_OK; k++) {
            size_t len = total - k * seg < seg ? total - k * seg : seg;
            st = pml_irecv(p + k * seg, len, byte, parent, tag, comm, &rreq[k]);
        }
    }
    for (size_t k = 0; k < nseg && st == COMPI_OK; k++) {
        size_t len = total - k * seg < seg ? total - k * seg : seg;
        if (parent >= 0) {
            size_t slot = k % TREE_RECV_AHEAD;
            st = pml_wait_all_free(1, &rreq[slot]);
            size_t next = k + TREE_RECV_AHEAD;
            if (st == COMPI_OK && next < nseg) {
                size_t nlen = total - next * seg < seg ? total - next * seg : seg;
                st = pml_irecv(p + next * seg, nlen, byte, parent, tag, comm, &rreq[slot]);
            }
        }
        if (nc == 0 || st != COMPI_OK) {
            continue;
        }
        /* this window slot's sends (segment k - TREE_SEND_WINDOW) must be gone first */
        compi_request_t **slot = sreq + (k % TREE_SEND_WINDOW) * (size_t)nc;
        st = pml_wait_all_free((size_t)nc, slot);
        for (int i = 0; i < nc && st == COMPI_OK; i++) {
            st = pml_isend(p + k * seg, len, byte, ch[i], tag, comm, PML_SEND_STANDARD, &slot[i]);
        }
    }
    compi_status_t st2 = pml_wait_all_free(TREE_RECV_AHEAD, rreq);
    compi_status_t st3 = pml_wait_all_free((size_t)nc * TREE_SEND_WINDOW, sreq);
    st2 = st2 != COMPI_OK ? st2 : st3;
    return st != COMPI_OK ? st : st2;
}

compi_status_t tree_exec__bcast_buf(tree_exec_t *s, void *buf, size_t count,
                                    compi_datatype_t *dt, compi_comm_t *comm, int tag)
{
    const topo_tree_t *t = s->tree;
    size_t total = count * dt->size;
    size_t seg = (size_t)s->params.segsize;

    if (total == 0 || t->size == 1) {
        return COMPI_OK;
    }
    if (seg == 0 || seg >= total) {
        return bcast_whole(s, buf, count, dt, comm, tag);
    }
    char *p = dt_contig_ptr(dt, buf, count);
    int is_root = t->parent[comm->rank] < 0; /* the root, or a root of a forest */
    int packed = p == NULL;
    if (packed) {
        /* a non-contiguous buffer travels packed: packed once at the root, unpacked once
           at the end elsewhere */
        p = tree_exec__scratch(s, total);
        if (p == NULL) {
            return COMPI_ERR_NO_MEMORY;
        }
        if (is_root) {
            dt_pack(dt, buf, count, 0, p, total);
        }
    }
    compi_status_t st = bcast_segments(s, p, total, seg, comm, tag);
    if (packed && st == COMPI_OK && !is_root) {
        dt_unpack(dt, buf, count, 0, p, total);
    }
    return st;
}

compi_status_t tree_exec__bcast(coll_closure_t *self, const coll_call_t *call)
{
    tree_exec_t *s = self->state;
    compi_status_t st = tree_exec__check(s, call);
    if (st != COMPI_OK) {
        return st;
    }
    /* the buffer is rbuf/rcount/rdt (sbuf/scount/sdt when rdt is NULL), as for the
       other bcast algorithms (phases/reduce_phases.h) */
    void *buf = call->rdt != NULL ? call->rbuf : (void *)call->sbuf;
    size_t count = call->rdt != NULL ? call->rcount : call->scount;
    compi_datatype_t *dt = call->rdt != NULL ? call->rdt : call->sdt;
    if (dt == NULL) {
        return count == 0 ? COMPI_OK : COMPI_ERR_INVALID_PARAM;
    }
    return tree_exec__bcast_buf(s, buf, count, dt, call->comm, coll_tag(COLL_BCAST));
}
