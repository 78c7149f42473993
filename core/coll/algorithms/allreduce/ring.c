/*
 * allreduce/ring.c -- the vector is cut in p blocks; a ring reduce-scatter (p - 1
 * steps: send a partial block to the right, combine the one from the left) leaves rank
 * r with block r + 1 reduced, then a ring allgather (p - 1 steps) circulates the
 * reduced blocks.
 *
 *   p = 3:  reduce-scatter            allgather
 *           0 -b0-> 1 -b1-> 2 -b2-> 0     0 -b1-> 1 -b2-> 2 -b0-> 0
 *           0 -b2-> 1 -b0-> 2 -b1-> 0     0 -b0-> 1 -b1-> 2 -b2-> 0
 *
 * Cost: 2 (p-1) alpha + 2 (p-1)/p n beta + (p-1)/p n gamma: bandwidth-optimal for any
 * p, latency linear in p: for large vectors.  Commutative ops only.  One round of steps
 * with dependencies (core/coll/sched/sched.h), so each block moves on as soon as it is
 * in.  The input is never copied into rbuf: every block this rank receives in the
 * reduce-scatter lands in rbuf and is combined there with the input's block, and the one
 * block it never receives (its own, sent first) comes back in the allgather.
 *
 * segmented-ring, the entry at the end: the same schedule with every block cut into
 * the same number of segments of about segsize bytes (default 256 KiB), each segment
 * moving through the ring on its own.  At p = 2 it is the exchange of halves
 * (Rabenseifner's at two ranks) as a pipeline: rank 0 combines the second half, rank 1
 * the first.
 *
 *   p = 2, rank 0, halves A and B cut in segments A0 A1 .. and B0 B1 ..:
 *     send in[A0] in[A1] ..                       (all at once: rank 1 combines them)
 *     recv B0 -> rbuf[B0], rbuf[B0] = in[B0] + rbuf[B0], send rbuf[B0];
 *     recv B1 -> rbuf[B1], ...                    (each receive after the combine before)
 *     recv rbuf[A0] rbuf[A1] ..                   (rank 1's sums, as they come)
 *
 * Large messages go by the PML's rendezvous with single copy: the receiver reads each
 * segment out of the sender's memory (process_vm_readv) straight into rbuf, combines it
 * there with its input while it is in cache, and the peer reads the sum from there while
 * the next segment is read and combined.  Each segment costs a rendezvous (RNDV, get,
 * FIN) in each phase.  No scratch unless the call is in place (then the reduce-scatter
 * receives into a scratch block): one buffer less in the cache than a temporary would
 * take, which is most of what it gains at 2 ranks (1 MiB: one segment per half does
 * about as well as two; see defaults.scm for the numbers).  Cost, n bytes in s segments
 * per block: 2 (p - 1 + s - 1) alpha + 2 (p-1)/p n beta + (p-1)/p n gamma, where the
 * pipeline overlaps the peers' beta of one segment with the gamma of the next.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched_phases.h"

#include <limits.h>

#define SEGMENTED_RING_SEGSIZE (256 * 1024)

/* piece j of n nearly equal pieces of c elements: its offset; its count in *len_p */
static size_t piece(size_t c, size_t n, size_t j, size_t *len_p)
{
    size_t q = c / n, rem = c % n;
    *len_p = q + (j < rem ? 1 : 0);
    return j * q + (j < rem ? j : rem);
}

/* Transfers between two ranks on one tag match in the order they are posted, so every
   send (and every receive) waits for everything the one added before it waits for: the
   gate of the next is a join of the gate before it and its own dependency (a gate of -1
   is nothing to wait for, and no join is made without a dependency: a local step without
   any would wait for the whole round's transfers) */
static int gate(coll_sched_t *s, int prev, int dep)
{
    if (prev < 0 || dep < 0) {
        return prev < 0 ? dep : prev;
    }
    coll_sched_after(s, prev);
    coll_sched_after(s, dep);
    return coll_sched_join(s);
}

static void allreduce_segmented_ring_sched(const coll_call_t *call, const coll_params_t *params,
                                           coll_sched_t *s)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank;
    int right = (r + 1) % p, left = (r - 1 + p) % p;
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call);
    char *acc = call->rbuf;
    const char *in = red_input(call);
    int in_place = (const char *)in == acc;

    if (count == 0) {
        return;
    }
    if (p == 1) {
        coll_sched_red_input(s, call);
        return;
    }
    size_t *cnt = coll_sched_alloc(s, 2 * (size_t)p * sizeof(*cnt));
    if (cnt == NULL) {
        return;
    }
    coll_blocks_fill(count, p, cnt);
    const size_t *off = cnt + p;
    size_t segbytes = params->segsize > 0 ? (size_t)params->segsize : SEGMENTED_RING_SEGSIZE;
    size_t segcount = dt->size > 0 && segbytes / dt->size > 0 ? segbytes / dt->size : 1;
    size_t nseg = (cnt[0] + segcount - 1) / segcount;
    /* in place: segment j of every step lands in slot j of tmp (the pieces of blocks of
       different counts do not line up) */
    size_t slot = (cnt[0] + nseg - 1) / nseg;
    char *tmp = NULL;
    if (in_place && (tmp = coll_sched_scratch(s, dt, nseg * slot)) == NULL) {
        return;
    }
    /* per segment: its last reduction (the next step's send of it waits for it), the
       reduce-scatter's send of it at step i (the allgather's receive into that block
       waits for it when it read rbuf), its last receive of the allgather */
    int *red = coll_sched_alloc(s, nseg * sizeof(*red));
    int *rsend = coll_sched_alloc(s, (size_t)(p - 1) * nseg * sizeof(*rsend));
    int *got = coll_sched_alloc(s, nseg * sizeof(*got));
    if (red == NULL || rsend == NULL || got == NULL) {
        return;
    }
    int sgate = -1, rgate = -1, last = -1;
    /* reduce-scatter step i sends block r - i (the input's at step 0, the one step i - 1
       combined after that) and receives block r - i - 1, combined with the input's */
    for (int i = 0; i < p - 1; i++) {
        int sb = ((r - i) % p + p) % p, rb = ((r - i - 1) % p + p) % p;
        for (size_t j = 0; j < nseg; j++) {
            size_t slen, rlen;
            size_t so = piece(cnt[sb], nseg, j, &slen), ro = piece(cnt[rb], nseg, j, &rlen);
            char *dst = red_at(acc, dt, off[rb] + ro);
            char *rin = in_place ? red_at(tmp, dt, j * slot) : dst;
            /* each receive after the reduction before it: a segment is read and combined
               before the next is read, so it is combined while in cache (and in place,
               slot j of tmp is free again) */
            rgate = gate(s, rgate, last);
            coll_sched_after(s, rgate);
            int rid = coll_sched_recv(s, rin, rlen, dt, left);
            sgate = gate(s, sgate, i > 0 ? red[j] : -1);
            coll_sched_after(s, sgate);
            rsend[(size_t)i * nseg + j] = coll_sched_send(
                s, red_at(i == 0 ? in : acc, dt, off[sb] + so), slen, dt, right);
            /* the reductions run in the order added: each after the one before, so a
               send's gate covers the sends' before it */
            coll_sched_after(s, rid);
            coll_sched_after(s, last);
            last = red[j] = coll_sched_reduce3(s, rin, red_at(in, dt, off[rb] + ro), dst, rlen, dt);
        }
    }
    /* allgather step i sends block r + 1 - i (step 0: the one the last reduction made;
       later, the one received in step i - 1) and receives block r - i into rbuf, after
       the reduce-scatter's send from that block (it read rbuf unless it was step 0 of a
       call not in place) */
    for (int i = 0; i < p - 1; i++) {
        int sb = ((r + 1 - i) % p + p) % p, rb = ((r - i) % p + p) % p;
        for (size_t j = 0; j < nseg; j++) {
            size_t slen, rlen;
            size_t so = piece(cnt[sb], nseg, j, &slen), ro = piece(cnt[rb], nseg, j, &rlen);
            sgate = gate(s, sgate, i == 0 ? red[j] : got[j]);
            coll_sched_after(s, sgate);
            coll_sched_send(s, red_at(acc, dt, off[sb] + so), slen, dt, right);
            rgate = gate(s, rgate, i > 0 || in_place ? rsend[(size_t)i * nseg + j] : -1);
            coll_sched_after(s, rgate);
            got[j] = coll_sched_recv(s, red_at(acc, dt, off[rb] + ro), rlen, dt, left);
        }
    }
}

/* the ring: one segment per block */
static void allreduce_ring_sched(const coll_call_t *call, const coll_params_t *params,
                                 coll_sched_t *s)
{
    coll_params_t whole = *params;
    whole.segsize = LONG_MAX;
    allreduce_segmented_ring_sched(call, &whole, s);
}

const coll_algo_t coll_algo_allreduce_ring = {
    .name = "ring",
    .kind = COLL_ALLREDUCE,
    .usable = red_commutative_only,
    .sched = allreduce_ring_sched,
    .help = "ring reduce-scatter + ring allgather (commutative; large vectors)",
};

const coll_algo_t coll_algo_allreduce_segmented_ring = {
    .name = "segmented-ring",
    .kind = COLL_ALLREDUCE,
    .usable = red_commutative_only,
    .sched = allreduce_segmented_ring_sched,
    .params = COLL_PARAM_SEGSIZE,
    .help = "ring allreduce in segsize pieces (default 256 KiB), pipelined (commutative)",
};
