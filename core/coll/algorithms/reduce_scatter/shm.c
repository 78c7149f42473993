/*
 * reduce_scatter/shm.c -- reduce-scatter and reduce-scatter-block through the
 * communicator's shared segment (core/coll/shm.h): every rank copies its whole input
 * vector into its slot and sets its arrival flag; once every other rank's flag is there,
 * each combines its own block out of all the slots, in rank order, straight into its
 * receive buffer.
 *
 *   rank j:  [slot j] <- x_j ; arrive = seq ; wait arrive_i >= seq for all i ;
 *            r_j = (x_0 op (x_1 op (... op x_p-1)))[block j] ; done = seq
 *
 * Block j starts at the sum of the counts before it (reduce-scatter's uneven counts) or
 * at j times the count (reduce-scatter-block).  One round: the whole vector, gaps
 * included, must fit a slot (coll_shm_slot, 8 KiB by default); a larger one runs an
 * algorithm over the PML instead (.prepare decides at the miss, from the key's total
 * and datatype): the ring for commutative ops, reduce-scatterv for the others.
 *
 * Cost, n bytes in all: 1 hand-off + n beta_mem (the copy in) + (p - 1) n/p gamma per
 * rank (each combines only its block), against ceil(log2 p) alpha + n beta + n gamma for
 * recursive halving over the PML.  The rank order keeps non-commutative ops right.
 * One host only.
 */
#include "core/coll/shm.h"

static compi_status_t reduce_scatter_shm(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    compi_datatype_t *dt = call->sdt;
    int r = comm->rank;
    const void *src = call->in_place ? call->rbuf : call->sbuf;
    size_t at = 0, n = call->rcount; /* this rank's block: offset and count, in elements */
    compi_status_t st = COMPI_OK;

    if (coll_shm_fallback(self, call, &st)) {
        return st;
    }
    /* nothing to combine, or one rank (its block is the whole vector) */
    coll_shm_t *shm = coll_shm_reduce_begin(call, src, &st);
    if (shm == NULL) {
        return st;
    }
    if (call->kind == COLL_REDUCE_SCATTER_BLOCK) {
        at = (size_t)r * n;
    } else {
        for (int j = 0; j < r; j++) {
            at += (size_t)coll_vec_at(call->rcounts, j);
        }
    }
    uint64_t s = ++shm->seq;
    coll_shm_slot_free(shm, s);
    coll_shm_put(shm, dt, src, 0, call->scount, s);
    coll_shm_arrive(shm, s);
    coll_shm_wait_all(shm, s);
    if (n > 0) {
        st = coll_shm_combine(shm, call->op, dt, call->rbuf, at, n, s);
    }
    coll_shm_done(shm, s);
    return st;
}

const coll_algo_t coll_algo_reduce_scatter_shm =
    COLL_SHM_ALGO(COLL_REDUCE_SCATTER, reduce_scatter_shm, 0,
                  "one host: every rank's vector in its slot of a shared segment, each combines "
                  "its block in rank order (vectors up to a slot)");

const coll_algo_t coll_algo_reduce_scatter_block_shm = COLL_SHM_ALGO(
    COLL_REDUCE_SCATTER_BLOCK, reduce_scatter_shm, 0, "as reduce-scatter shm, with equal blocks");
