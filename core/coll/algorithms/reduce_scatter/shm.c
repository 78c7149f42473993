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

/* one round, the whole vector (.prepare made sure it fits a slot); none with nothing to
   combine or one rank */
static size_t reduce_scatter_shm_rounds(const coll_call_t *call, size_t slot)
{
    (void)slot;
    return call->scount > 0 && call->sdt->size > 0 && call->comm->size > 1;
}

/* the phases (core/coll/shm.h: coll_shm_op_t) */
static inline __attribute__((always_inline)) compi_status_t
reduce_scatter_shm_run(coll_shm_op_t *o, int block)
{
    const coll_call_t *call = o->call;
    compi_datatype_t *dt = call->sdt;
    const void *src = call->in_place ? call->rbuf : call->sbuf;
    coll_shm_t *shm = o->shm;
    uint64_t s = o->seq;

    /* nothing to combine, or one rank (its block is the whole vector) */
    if (o->last == 0) {
        return coll_shm_reduce_local(call, src);
    }
    switch (o->phase) {
    case 0:
        if (!coll_shm_slot_free(shm, s, block)) {
            return COMPI_INPROGRESS;
        }
        coll_shm_put(shm, dt, src, 0, call->scount, s);
        coll_shm_arrive(shm, s);
        o->phase = 1;
        o->j = 0;
        /* fall through */
    default:
        if (!coll_shm_all_arrived(shm, s, &o->j, block)) {
            return COMPI_INPROGRESS;
        }
        break;
    }
    /* this rank's block: offset and count, in elements */
    int r = call->comm->rank;
    size_t at = 0, n = call->rcount;
    if (call->kind == COLL_REDUCE_SCATTER_BLOCK) {
        at = (size_t)r * n;
    } else {
        for (int j = 0; j < r; j++) {
            at += (size_t)coll_vec_at(call->rcounts, j);
        }
    }
    if (n > 0) {
        coll_shm_keep(o, coll_shm_combine(shm, call->op, dt, call->rbuf, at, n, s));
    }
    coll_shm_done(shm, s);
    return o->st;
}

COLL_SHM_ENTRY_POINTS(reduce_scatter_shm, reduce_scatter_shm_rounds)

const coll_algo_t coll_algo_reduce_scatter_shm =
    COLL_SHM_ALGO(COLL_REDUCE_SCATTER, reduce_scatter_shm, reduce_scatter_shm_sched, 0,
                  "one host: every rank's vector in its slot of a shared segment, each combines "
                  "its block in rank order (vectors up to a slot)");

const coll_algo_t coll_algo_reduce_scatter_block_shm =
    COLL_SHM_ALGO(COLL_REDUCE_SCATTER_BLOCK, reduce_scatter_shm, reduce_scatter_shm_sched, 0,
                  "as reduce-scatter shm, with equal blocks");
