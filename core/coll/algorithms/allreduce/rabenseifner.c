/*
 * allreduce/rabenseifner.c -- Rabenseifner's allreduce: a reduce-scatter by recursive
 * halving (each step swaps half of the remaining range with rank XOR 2^k and keeps
 * the other half) followed by an allgather by recursive doubling (the same partners in
 * reverse, each step doubling the range held).  Non-powers of two fold first.
 *
 *   p = 4, blocks b0..b3:
 *     halving:  0<->2: 0,1 keep b0 b1, 2,3 keep b2 b3;   0<->1, 2<->3: rank i keeps bi
 *     doubling: 0<->1, 2<->3: [b0 b1], [b2 b3];   0<->2, 1<->3: all four
 *
 * Cost: 2 log2 p2 alpha + 2 (p2-1)/p2 n beta + (p2-1)/p2 n gamma, plus 2 (alpha + n beta)
 * + n gamma to fold: bandwidth-optimal, for large vectors.  Commutative ops only.  One
 * round per step.  The input is read where it is: the fold and the first halving step
 * write their combinations straight to rbuf.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched_phases.h"

#include <stdlib.h>

static void allreduce_rabenseifner_sched(const coll_call_t *call, const coll_params_t *params,
                                         coll_sched_t *s)
{
    compi_comm_t *comm = call->comm;
    int p2 = red_pow2_floor(comm->size), rem = comm->size - p2;
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call);
    char *acc = call->rbuf;

    (void)params;
    if (count == 0) {
        return;
    }
    char *tmp = coll_sched_scratch(s, dt, count);
    size_t *cnt = coll_sched_alloc(s, 2 * (size_t)p2 * sizeof(*cnt));
    if (tmp == NULL || cnt == NULL) {
        return;
    }
    coll_blocks_fill(count, p2, cnt);
    const char *in = red_input(call);
    int nr = coll_sched_red_fold(s, comm, in, acc, tmp, count, dt);
    if (nr >= 0) {
        coll_sched_red_halving(s, red_fold_partial(comm, in, acc), acc, tmp, NULL, cnt, cnt + p2, nr, p2,
                               rem, dt);
        coll_sched_red_doubling_gather(s, acc, cnt, cnt + p2, nr, p2, rem, dt);
    }
    coll_sched_red_unfold(s, comm, acc, count, dt);
}

const coll_algo_t coll_algo_allreduce_rabenseifner = {
    .name = "rabenseifner",
    .kind = COLL_ALLREDUCE,
    .usable = red_commutative_only,
    .sched = allreduce_rabenseifner_sched,
    .help = "reduce-scatter by recursive halving + allgather by recursive doubling",
};
