/*
 * shm.h -- the shared segment of a communicator whose members all live on one host, for
 * the shared-memory collectives (algorithms/<kind>/shm.c).
 *
 * Layout, for p ranks: per rank three flags, each alone in its cache line, then per rank
 * COLL_SHM_NBUF data slots of `slot` bytes, used in turn (slot seq % NBUF), so a rank
 * writing a later call's data never overwrites what a slower peer still reads, and a
 * root of many small bcasts or reduces in a row runs up to NBUF calls ahead of the
 * slowest rank before it waits, as eager messages would let it:
 *
 *   [ctl 0: arrive | release | done] ... [ctl p-1]  [slots 0: 0 .. NBUF-1] ... [slots p-1]
 *
 * Every collective served from the segment takes the next sequence number (the same on
 * every rank, since MPI orders a communicator's blocking collectives) and stores it in
 * the flags: flags only grow, never reset, and a waiter waits for "flag >= seq".  A rank
 * stores a flag during call t only after it finished every call before t, so a flag
 * past `seq` means what the flag at `seq` would have meant.  `done` of rank r is the last
 * sequence number r has finished (its reads of the peers' slots included): a rank about
 * to write its slot seq % NBUF first makes sure every rank is done with seq - NBUF
 * (coll_shm_slot_free), the one hazard the flags alone do not exclude.
 *
 * The segment is an anonymous memfd, created by rank 0 at the first shared-memory
 * collective of the communicator (collective: every member maps it through
 * /proc/PID/fd/N, then rank 0 closes the descriptor), so it has no name in /dev/shm or
 * anywhere else and disappears with the last mapping, even when a rank dies.
 *
 * Ownership: the segment belongs to the communicator (comm->coll_shm), made by
 * coll_shm_get and unmapped by coll_shm_release when the communicator goes (the
 * trampolines' free hook).  Closures hold no reference; a hit allocates nothing.
 */
#ifndef COMPI_COLL_SHM_H
#define COMPI_COLL_SHM_H

#include "core/coll/coll.h"
#include "core/pml/pml.h"

#include <stdint.h>
#include <string.h>

#define COLL_SHM_LINE 64
#define COLL_SHM_NBUF 8 /* slots per rank, used in turn */

typedef struct coll_shm_ctl {
    uint64_t arrive; /* this rank's data (or its subtree's arrival) is there for seq */
    char pad0[COLL_SHM_LINE - sizeof(uint64_t)];
    uint64_t release; /* this rank released seq (a bcast root's data is there) */
    char pad1[COLL_SHM_LINE - sizeof(uint64_t)];
    uint64_t done; /* this rank finished seq, reads included */
    char pad2[COLL_SHM_LINE - sizeof(uint64_t)];
} coll_shm_ctl_t;

_Static_assert(sizeof(coll_shm_ctl_t) == 3 * COLL_SHM_LINE, "one cache line per flag");

typedef struct coll_shm {
    coll_shm_ctl_t *ctl; /* [p], in the segment */
    char *slots;         /* [p][NBUF][slot], in the segment */
    size_t slot;         /* bytes of one slot */
    size_t len;          /* of the mapping */
    uint64_t seq;        /* the last sequence number taken */
    uint64_t min_done;   /* a lower bound of every rank's done, refreshed when needed */
    int p, rank;
    int oversubscribed;
    const int *world; /* the communicator's world ranks (to wake them) */
} coll_shm_t;

/* 1 when `comm` is an intracommunicator whose members are all on this host */
int coll_shm_comm_ok(const compi_comm_t *comm);

/* the bytes of one slot (parameter coll_shm_slot), the largest piece of data one call
   moves per round; longer messages go in several rounds */
size_t coll_shm_slot_size(void);

/* comm's segment, created (collectively) at the first call; NULL on failure with the
   status in *st_p.  Every member must call it at the same collective. */
coll_shm_t *coll_shm_create(compi_comm_t *comm, compi_status_t *st_p);
static inline coll_shm_t *coll_shm_get(compi_comm_t *comm, compi_status_t *st_p)
{
    coll_shm_t *shm = comm->coll_shm;
    return compi_likely(shm != NULL) ? shm : coll_shm_create(comm, st_p);
}

/* The first step of every shared-memory closure: when the miss found the call unfit for
   shared memory (a communicator not all on this host, an element larger than a slot:
   `.prepare` put a closure over the PML in params->aux), run that one instead and say
   so (1, its status in *st_p). */
static inline int coll_shm_fallback(coll_closure_t *self, const coll_call_t *call,
                                    compi_status_t *st_p)
{
    const coll_params_t *prm = self->state;
    if (compi_likely(prm->aux == NULL)) {
        return 0;
    }
    coll_closure_t *fallback = prm->aux;
    *st_p = fallback->fn(fallback, call);
    return 1;
}

/* The start reduce and allreduce share: with nothing to combine (count 0) or one rank (a
   copy of `src` to the result unless in place) the call is done here; else comm's
   segment.  NULL when the call is done (or the segment could not be made), *st_p its
   status. */
static inline coll_shm_t *coll_shm_reduce_begin(const coll_call_t *call, const void *src,
                                                compi_status_t *st_p)
{
    compi_datatype_t *dt = call->sdt;
    size_t count = call->scount;
    *st_p = COMPI_OK;
    if (count == 0 || dt->size == 0) {
        return NULL;
    }
    if (call->comm->size == 1) {
        if (!call->in_place) {
            *st_p = coll_copy(src, count, dt, call->rbuf, count, dt);
        }
        return NULL;
    }
    return coll_shm_get(call->comm, st_p);
}

/* unmaps comm's segment, if it has one (the communicator is going) */
void coll_shm_release(compi_comm_t *comm);

static inline char *coll_shm_slot(const coll_shm_t *shm, int rank, uint64_t seq)
{
    return shm->slots + ((size_t)rank * COLL_SHM_NBUF + seq % COLL_SHM_NBUF) * shm->slot;
}

/* waits until *flag >= seq.  The acquire load orders the reads of the data the flag
   announces after the flag.  Spins briefly, then polls the PML between looks, which
   keeps point-to-point traffic moving and yields the processor as the PML's own waits
   do (now and then), and under MPI_THREAD_MULTIPLE lets the other threads in, as
   pml_progress_wait does: the peer we wait for may need a thread of ours that waits for
   the API lock.  On an oversubscribed host it waits as the PML's blocking calls do
   (asleep in the transport, when the PML sleeps): the PML looks at the flag once more
   after announcing its sleep, and coll_shm_set wakes it. */
static inline void coll_shm_wait(const coll_shm_t *shm, const uint64_t *flag, uint64_t seq)
{
    unsigned spins = 0;
    while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) < seq) {
        if (shm->oversubscribed) {
            (void)pml_progress_wait_for(flag, seq);
        } else if (++spins > 128) {
            (void)pml_progress();
            if (compi_unlikely(pml__thread_yield != NULL)) {
                pml__thread_yield();
            }
        } else {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
    }
}

/* publishes seq in *flag; the release store orders this rank's earlier writes (its slot,
   and its reads of the peers' slots) before the flag.  Oversubscribed, the peers that
   sleep are woken (any of them may wait for this flag) */
static inline void coll_shm_set(const coll_shm_t *shm, uint64_t *flag, uint64_t seq)
{
    __atomic_store_n(flag, seq, __ATOMIC_RELEASE);
    if (shm->oversubscribed) {
        pml_wake_peers(shm->p, shm->world, shm->rank);
    }
}

/* before this rank writes its slot for `seq`: every rank is done with seq - NBUF, the
   last call that used the same slot */
void coll_shm_slot_free__(coll_shm_t *shm, uint64_t seq);
static inline void coll_shm_slot_free(coll_shm_t *shm, uint64_t seq)
{
    if (compi_unlikely(shm->min_done + COLL_SHM_NBUF < seq)) {
        coll_shm_slot_free__(shm, seq);
    }
}

/* this rank has seen every rank take part in round `seq` (their flags of seq): each
   had finished seq - 1 by then, so the slot of seq - 1 is free again for seq - 1 + NBUF */
static inline void coll_shm_reached(coll_shm_t *shm, uint64_t seq)
{
    if (shm->min_done < seq - 1) {
        shm->min_done = seq - 1;
    }
}

/* a round `seq` where every rank writes its slot and reads the others' (allreduce,
   allgather, alltoall, reduce-scatter; gather's senders arrive only): this rank's slot
   is written (arrive) ... */
static inline void coll_shm_arrive(coll_shm_t *shm, uint64_t seq)
{
    coll_shm_set(shm, &shm->ctl[shm->rank].arrive, seq);
}

/* ... and every other rank's is (their arrive flags of `seq`), so all the slots of
   `seq` may be read */
static inline void coll_shm_wait_all(coll_shm_t *shm, uint64_t seq)
{
    for (int j = 0; j < shm->p; j++) {
        if (j != shm->rank) {
            coll_shm_wait(shm, &shm->ctl[j].arrive, seq);
        }
    }
    coll_shm_reached(shm, seq);
}

/* ends this rank's part of call `seq` */
static inline void coll_shm_done(coll_shm_t *shm, uint64_t seq)
{
    coll_shm_set(shm, &shm->ctl[shm->rank].done, seq);
}

/* usable() of the shm algorithms: an intracommunicator */
int coll_shm_usable(const coll_call_t *call, const coll_params_t *params);

/* .prepare of the shm algorithms, at the miss: when the communicator's ranks are not
   all on this host (rte_world_rank_is_local; creators choose by the rank facts, which
   normally say the same), or when the key's calls do not fit the slots -- a reduction's
   element past a slot (or of negative extent: reductions copy whole elements with their
   gaps and combine them in the datatype's own layout); for the kinds served in one
   round, an allgather's or a gather's block, an alltoall's or a scatter's p blocks, a
   reduce-scatter's whole vector past a slot -- params->aux gets the closure of the
   kind's fallback, an algorithm over the PML (shm.c, shm_fallback), for the key; the
   algorithm runs it instead.  .release: coll_shm_release_fallback. */
compi_status_t coll_shm_prepare(const coll_call_t *call, coll_params_t *params);
void coll_shm_release_fallback(void *aux);

/* the table entry of a shm algorithm of `kind_`: `fn_` on one host, the kind's fallback
   elsewhere (coll_shm_prepare); `params_`: the COLL_PARAM_* it reads */
#define COLL_SHM_ALGO(kind_, fn_, params_, help_)                                            \
    {                                                                                        \
        .name = "shm", .kind = (kind_), .fn = (fn_), .usable = coll_shm_usable,              \
        .prepare = coll_shm_prepare, .release = coll_shm_release_fallback,                   \
        .params = (params_), .help = (help_)                                                 \
    }

/* elements of `dt` per round of a reduction: as many as fit in a slot with their gaps
   (`slot` bytes, at least one element's true extent) */
static inline size_t coll_shm_elems_of(size_t slot, const compi_datatype_t *dt)
{
    return (slot - (size_t)dt->true_extent) / (size_t)dt->extent + 1;
}
static inline size_t coll_shm_elems(const coll_shm_t *shm, const compi_datatype_t *dt)
{
    return coll_shm_elems_of(shm->slot, dt);
}

/* bytes of `n` elements of `dt` from the first one's first byte to the last one's last */
static inline size_t coll_shm_span(const compi_datatype_t *dt, size_t n)
{
    return n == 0 ? 0 : (n - 1) * (size_t)dt->extent + (size_t)dt->true_extent;
}

/* `n` bytes, the packed form of `count` elements of `dt` at `buf` (a user buffer), into
   `dst` (a slot), and back: a memcpy when the data is contiguous, else core/dt's packing */
static inline void coll_shm_pack(void *dst, const void *buf, size_t count, compi_datatype_t *dt,
                                 size_t n)
{
    const char *contig = dt_contig_ptr(dt, buf, count);
    if (contig != NULL) {
        memcpy(dst, contig, n);
    } else {
        dt_pack(dt, buf, count, 0, dst, n);
    }
}

static inline void coll_shm_unpack(const void *src, void *buf, size_t count, compi_datatype_t *dt,
                                   size_t n)
{
    char *contig = dt_contig_ptr(dt, buf, count);
    if (contig != NULL) {
        memcpy(contig, src, n);
    } else {
        dt_unpack(dt, buf, count, 0, src, n);
    }
}

/* a reduction's round `seq`: copies elements [first, first + n) of `buf` (a user buffer
   of `dt`) into this rank's slot, gaps included, so the op engine reads them there in
   the datatype's own layout */
void coll_shm_put(coll_shm_t *shm, compi_datatype_t *dt, const void *buf, size_t first, size_t n,
                  uint64_t seq);
/* out (a user buffer of `dt`, its first `n` elements) = slot 0 op slot 1 op ... op slot
   p-1 of round `seq`, elements [at, at + n) of each slot, combined in rank order
   (non-commutative ops stay right); p >= 2 */
compi_status_t coll_shm_combine(const coll_shm_t *shm, const compi_op_t *op, compi_datatype_t *dt,
                                void *out, size_t at, size_t n, uint64_t seq);
/* the same, but rank `self`'s part read from `mine` (a user buffer of `dt` whose element 0
   is element `at` of the slot's), not from its slot: a root that did not copy its vector
   in.  `mine` must not overlap `out`. */
compi_status_t coll_shm_combine_own(const coll_shm_t *shm, const compi_op_t *op,
                                    compi_datatype_t *dt, void *out, size_t at, size_t n,
                                    uint64_t seq, int self, const void *mine);

#endif
