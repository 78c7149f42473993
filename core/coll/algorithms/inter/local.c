/*
 * inter/local.c -- the steps inside one group of an intercommunicator that its
 * algorithms share (inter.h): a binomial broadcast from local rank 0, a binomial reduce
 * to it over ranges of ranks (so a non-commutative op keeps rank order), and the
 * leaders' exchange.
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

/* buf from local rank 0 to the whole local group */
compi_status_t coll_inter_lbcast(compi_comm_t *lc, void *buf, size_t count, compi_datatype_t *dt,
                              int tag)
{
    int n = lc->size, me = lc->rank;
    compi_status_t st = COMPI_OK;
    if (me > 0) {
        st = pml_recv(buf, count, dt, me & (me - 1), tag, lc, NULL);
    }
    for (int m = coll_inter_span(me, n) >> 1; m >= 1 && st == COMPI_OK; m >>= 1) {
        if (me + m < n) {
            st = pml_send(buf, count, dt, me + m, tag, lc, PML_SEND_STANDARD);
        }
    }
    return st;
}

/* the reduction of every local rank's sbuf, in rank order, into res at local rank 0
   (res is ignored elsewhere); temporaries from the scratch stack */
compi_status_t coll_inter_lreduce(compi_comm_t *lc, const void *sbuf, size_t count,
                               compi_datatype_t *dt, const compi_op_t *op, int tag, void *res)
{
    int n = lc->size, me = lc->rank, span = coll_inter_span(me, n);
    void *m1, *m2;
    char *acc = coll_tmp_get(dt, count, &m1);
    char *tmp = coll_tmp_get(dt, count, &m2);
    compi_status_t st = acc != NULL && tmp != NULL ? COMPI_OK : COMPI_ERR_NO_MEMORY;

    if (st == COMPI_OK) {
        st = coll_copy(sbuf, count, dt, acc, count, dt);
    }
    /* acc covers [me, me + k); the child me + k brings [me + k, me + 2k) */
    for (int k = 1; k < span && me + k < n && st == COMPI_OK; k <<= 1) {
        st = pml_recv(tmp, count, dt, me + k, tag, lc, NULL);
        if (st == COMPI_OK) {
            st = coll_op_apply(op, dt, acc, tmp, count); /* tmp = acc op tmp */
            char *t = acc;
            acc = tmp;
            tmp = t;
        }
    }
    if (st == COMPI_OK) {
        st = me > 0 ? pml_send(acc, count, dt, me & (me - 1), tag, lc, PML_SEND_STANDARD)
                    : coll_copy(acc, count, dt, res, count, dt);
    }
    coll_scratch_put(m1);
    return st;
}

/* the leader's exchange with the other leader (remote rank 0) */
compi_status_t coll_inter_leader_swap(compi_comm_t *comm, const void *sbuf, size_t scount,
                                  compi_datatype_t *sdt, void *rbuf, size_t rcount,
                                  compi_datatype_t *rdt, int tag)
{
    compi_request_t *req = NULL;
    compi_status_t st = pml_isend(sbuf, scount, sdt, 0, tag, comm, PML_SEND_STANDARD, &req);
    if (st != COMPI_OK) {
        return st;
    }
    st = pml_recv(rbuf, rcount, rdt, 0, tag, comm, NULL);
    compi_status_t wst = pml_wait(req, NULL);
    pml_request_free(req);
    return st != COMPI_OK ? st : wst;
}

/* only calls on an intercommunicator (the bridge says so first, with a message) */
int coll_inter_usable(const coll_call_t *call, const coll_params_t *params)
{
    (void)params;
    return call->comm != NULL && comm_is_inter(call->comm);
}
