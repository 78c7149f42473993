/*
 * inter/local.c -- the schedule pieces inside one group of an intercommunicator that its
 * algorithms share (inter.h): a binomial broadcast from local rank 0, a binomial reduce
 * to it over ranges of ranks (so a non-commutative op keeps rank order), and the
 * leaders' exchange.  The steps inside a group run on comm->local_comm, on the
 * schedule's tag (coll_sched_send_on).
 *
 *   binomial tree over 8 local ranks:   0
 *                                     / | \
 *                                    1  2  4
 *                                       |  | \
 *                                       3  5  6
 *                                             |
 *                                             7
 *
 * Cost (n ranks, w bytes): broadcast and reduce ceil(log2 n) (alpha + w beta) (+ gamma w
 * for the reduce); the exchange one alpha + w beta each way, at once.
 */
#include "core/coll/algorithms/inter/inter.h"

#include "core/coll/sched/sched.h"

int coll_inter_span(int me, int n)
{
    int span = 1;
    if (me > 0) {
        return me & -me;
    }
    while (span < n) {
        span <<= 1;
    }
    return span;
}

void coll_inter_lbcast(coll_sched_t *s, compi_comm_t *lc, void *buf, size_t count,
                       compi_datatype_t *dt)
{
    int n = lc->size, me = lc->rank;
    if (me > 0) {
        coll_sched_recv_on(s, lc, buf, count, dt, me & (me - 1));
        coll_sched_round(s);
    }
    for (int m = coll_inter_span(me, n) >> 1; m >= 1; m >>= 1) {
        if (me + m < n) {
            coll_sched_send_on(s, lc, buf, count, dt, me + m);
        }
    }
    coll_sched_round(s);
}

void coll_inter_lreduce(coll_sched_t *s, compi_comm_t *lc, const void *sbuf, size_t count,
                        compi_datatype_t *dt, void *res)
{
    int n = lc->size, me = lc->rank, span = coll_inter_span(me, n);
    char *spare = coll_sched_scratch(s, dt, count), *tmp = coll_sched_scratch(s, dt, count);
    if (spare == NULL || tmp == NULL) {
        return;
    }
    /* the partial result `cur` covers [me, me + k) and starts as the input, read where it
       is; the child me + k brings [me + k, me + 2k) into tmp, and cur op tmp lands in
       tmp, which becomes cur (the buffers' roles swap when the schedule is built) */
    const void *cur = sbuf;
    for (int k = 1; k < span && me + k < n; k <<= 1) {
        coll_sched_recv_on(s, lc, tmp, count, dt, me + k);
        coll_sched_reduce3(s, cur, tmp, tmp, count, dt);
        coll_sched_round(s);
        char *next = cur == sbuf ? spare : (char *)cur;
        cur = tmp;
        tmp = next;
    }
    if (me > 0) {
        coll_sched_send_on(s, lc, cur, count, dt, me & (me - 1));
    } else {
        coll_sched_copy(s, cur, count, dt, res, count, dt);
    }
    coll_sched_round(s);
}

void coll_inter_leader_swap(coll_sched_t *s, const void *sbuf, size_t scount,
                            compi_datatype_t *sdt, void *rbuf, size_t rcount,
                            compi_datatype_t *rdt)
{
    coll_sched_recv(s, rbuf, rcount, rdt, 0);
    coll_sched_send(s, sbuf, scount, sdt, 0);
    coll_sched_round(s);
}

/* only calls on an intercommunicator (the bridge says so first, with a message) */
int coll_inter_usable(const coll_call_t *call, const coll_params_t *params)
{
    (void)params;
    return call->comm != NULL && comm_is_inter(call->comm);
}
