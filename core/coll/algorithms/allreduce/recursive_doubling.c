/*
 * allreduce/recursive_doubling.c -- in step k every rank exchanges its whole partial
 * result with rank XOR 2^k and combines; after log2 p2 steps all hold the result.
 * Non-powers of two fold first: of ranks 0..2(p-p2)-1, the even ones hand their vector
 * to the next odd one and get the result back at the end.
 *
 *   p = 4:   step 0: 0<->1  2<->3      partial results cover [0,1] [2,3]
 *            step 1: 0<->2  1<->3      everyone covers [0,3]
 *
 * Each partial result covers a contiguous range of ranks and the lower range is always
 * the left operand, so non-commutative ops are right.
 * Cost: log2 p2 (alpha + n beta + n gamma), plus 2 (alpha + n beta) + n gamma to fold.
 * The input is read where it is (the first step sends it and combines into rbuf), so no
 * pass copies it into rbuf first.  One round per step; segsize > 0: each step's
 * exchange runs in segments, each combined as soon as it is in while the later ones are
 * still under way.  The choice for small vectors.
 *
 * Buffers: the partial result `cur` starts as the input, read where it is (no copy into
 * rbuf first); `spare` receives the peer's.  Each combination writes to the right
 * operand's buffer (coll_op_apply's cheap form for every op), or to rbuf when that
 * operand is the input, which is never written.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched_phases.h"

#include <stdlib.h>

static void allreduce_recursive_doubling_sched(const coll_call_t *call, const coll_params_t *params,
                                               coll_sched_t *s)
{
    compi_comm_t *comm = call->comm;
    int p2 = red_pow2_floor(comm->size), rem = comm->size - p2;
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call);
    int ordered = !red_commutative(call);
    const char *in = red_input(call);

    size_t segcount = params->segsize > 0 && dt->size > 0 ? (size_t)params->segsize / dt->size : 0;

    if (count == 0) {
        return;
    }
    if (segcount == 0 || segcount > count) {
        segcount = count;
    }
    char *tmp = coll_sched_scratch(s, dt, count);
    if (tmp == NULL) {
        return;
    }
    int nr = coll_sched_red_fold(s, comm, in, call->rbuf, tmp, count, dt);
    const char *cur = red_fold_partial(comm, in, call->rbuf);
    char *spare = tmp;
    for (int mask = 1; nr >= 0 && mask < p2; mask <<= 1) {
        int pnr = nr ^ mask, peer = red_real_rank(pnr, rem);
        int peer_left = pnr < nr || !ordered;
        const char *right = peer_left ? cur : spare;
        char *out = right == in ? call->rbuf : (char *)right;
        /* segment k: its receive and send posted at once, its combination when both are
           complete (out may be cur, whose segment is in flight) */
        for (size_t off = 0; off < count; off += segcount) {
            size_t n = count - off < segcount ? count - off : segcount;
            int rid = coll_sched_recv(s, red_at(spare, dt, off), n, dt, peer);
            int sid = coll_sched_send(s, red_at(cur, dt, off), n, dt, peer);
            if (segcount < count) {
                coll_sched_after(s, rid);
                coll_sched_after(s, sid);
            }
            coll_sched_reduce3(s, red_at(peer_left ? spare : cur, dt, off), red_at(right, dt, off),
                               red_at(out, dt, off), n, dt);
        }
        coll_sched_round(s);
        if (out != cur) {
            spare = cur == in ? (out == call->rbuf ? tmp : call->rbuf) : (char *)cur;
        }
        cur = out;
    }
    if (nr >= 0 && cur != call->rbuf) {
        coll_sched_copy(s, cur, count, dt, call->rbuf, count, dt);
        coll_sched_round(s);
    }
    coll_sched_red_unfold(s, comm, call->rbuf, count, dt);
}

const coll_algo_t coll_algo_allreduce_recursive_doubling = {
    .name = "recursive-doubling",
    .kind = COLL_ALLREDUCE,
    .usable = NULL,
    .sched = allreduce_recursive_doubling_sched,
    .params = COLL_PARAM_SEGSIZE,
    .help = "exchange whole vectors with rank XOR 2^k (any op); in segsize bytes (0: whole)",
};
