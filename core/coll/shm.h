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
 * Nonblocking calls: every algorithm is written once, as phases that do what they can
 * and say COMPI_INPROGRESS where a flag is not there yet (the `run` function of each
 * algorithms/<kind>/shm.c, resumed from the phase it stopped in, coll_shm_op_t).  A
 * blocking call runs them with waiting looks (coll_shm_ready with block 1: the phases
 * never stop; run is always inlined, so with a constant `block` and its state on the
 * stack the compiler drops the resumption); a nonblocking call (MPI_I*) runs
 * the same phases as one wait step of its schedule (core/coll/sched/sched.h), polled by
 * the engine with plain looks.  The sequence numbers stay right because:
 *
 *   - the calls of a segment run on each rank one after the other, in the order of
 *     their starts, which MPI makes the same on every rank for a communicator's
 *     collectives, blocking or not, even when several nonblocking ones are outstanding
 *     and are waited for in another order (MPI_Wait in reverse, MPI_Waitall): a
 *     schedule joins the segment's queue when it starts (shm->queue) and its phases
 *     begin once it is the queue's head (coll_shm_turn), and a blocking call that finds
 *     the queue not empty first progresses it to its end (coll_shm_drain) -- the engine
 *     advances every active schedule at each pml_progress, so the earlier ones always
 *     move;
 *   - a call takes its numbers (one per round) as it begins, so in that order too: the
 *     same numbers on every rank.  A flag then still means "this rank has finished
 *     everything before", whatever the mode;
 *   - nothing waits for a peer out of order: each rank runs the same calls in the same
 *     order, so what one waits for, the other does next.
 *
 * Persistent calls (MPI_*_init) cannot use the segment: their starts are not ordered
 * (MPI-4 6.13: ranks may start their persistent collectives in different orders), so no
 * rank can number a start the way its peers do, and numbers fixed at the init would be
 * reused at every start while flags only grow.  `.prepare` gives them the kind's
 * fallback over the PML (as a schedule).  A nonblocking call on a communicator that has
 * no segment yet takes the fallback as well: making the segment is a blocking exchange
 * (coll_shm_create), which a nonblocking start must not be; the first blocking
 * shared-memory collective of the communicator makes it (every rank alike, so the
 * choice is the same on every rank).
 *
 * The segment is an anonymous memfd, created by rank 0 at the first shared-memory
 * collective of the communicator (collective: every member maps it through
 * /proc/PID/fd/N, then rank 0 closes the descriptor), so it has no name in /dev/shm or
 * anywhere else and disappears with the last mapping, even when a rank dies.
 *
 * Ownership: the segment belongs to the communicator (comm->coll_shm), made by
 * coll_shm_get and unmapped by coll_shm_release when the communicator goes (the
 * trampolines' free hook).  Closures hold no reference; a hit allocates nothing.  A
 * nonblocking call's state (coll_shm_op_t and a copy of the call) lives in its
 * schedule's scratch, which holds a reference on the call's datatypes until it is freed;
 * its request retains the communicator, so the segment outlives it.  A blocking or
 * nonblocking closure's params->aux (coll_shm_fb_t) is .prepare's, freed by .release.
 */
#ifndef COMPI_COLL_SHM_H
#define COMPI_COLL_SHM_H

#include "core/coll/coll.h"
#include "core/coll/sched/sched.h"
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
    struct coll_shm_op *queue, *queue_tail; /* schedules started here, not yet over, in
                                                the order of their starts */
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

/* What `.prepare` (coll_shm_prepare) leaves in params->aux: the kind's algorithm over
   the PML, for the calls the segment cannot serve.  A blocking closure has one only
   when its key does not fit (then `unfit`); a nonblocking or persistent one always has
   one, since a nonblocking call also takes it while the communicator has no segment. */
typedef struct coll_shm_fb {
    coll_closure_t *closure;  /* blocking calls run its fn */
    const coll_algo_t *algo;  /* schedules: its .sched, or the tree of `closure` */
    int unfit;                /* every call of the key goes over the PML */
} coll_shm_fb_t;

/* unmaps comm's segment, if it has one, and its groups' (coll_shm_groups_release): the
   communicator is going */
void coll_shm_release(compi_comm_t *comm);

/* the segment's bytes for p ranks, and a segment's description over a mapping of them:
   rank `rank` of p, whose world ranks are world[] (coll_shm_create, shm_group.c) */
size_t coll_shm_len(int p, size_t slot);
void coll_shm_init(coll_shm_t *shm, void *base, size_t len, size_t slot, int p, int rank,
                   const int *world);

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

/* 1 when *flag >= seq (the acquire load as coll_shm_wait's); `block`: waits for it
   (coll_shm_wait) and says 1.  Phases look at flags only through this, so one phase
   serves both modes, and with a constant `block` of 1 it is the plain wait. */
static inline int coll_shm_ready(const coll_shm_t *shm, const uint64_t *flag, uint64_t seq,
                                 int block)
{
    if (block) {
        coll_shm_wait(shm, flag, seq);
        return 1;
    }
    return __atomic_load_n(flag, __ATOMIC_ACQUIRE) >= seq;
}

/* before this rank writes its slot for `seq`: 1 once every rank is done with seq - NBUF,
   the last call that used the same slot (`block`: waits for that) */
int coll_shm_slot_free__(coll_shm_t *shm, uint64_t seq, int block);
static inline int coll_shm_slot_free(coll_shm_t *shm, uint64_t seq, int block)
{
    if (compi_unlikely(shm->min_done + COLL_SHM_NBUF < seq)) {
        return coll_shm_slot_free__(shm, seq, block);
    }
    return 1;
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
   `seq` may be read: 1 once they are (`block`: waits).  *j: the rank to look at next,
   0 at the phase's start, kept between looks. */
static inline int coll_shm_all_arrived(coll_shm_t *shm, uint64_t seq, int *j, int block)
{
    for (; *j < shm->p; ++*j) {
        if (*j != shm->rank && !coll_shm_ready(shm, &shm->ctl[*j].arrive, seq, block)) {
            return 0;
        }
    }
    coll_shm_reached(shm, seq);
    return 1;
}

/* ends this rank's part of call `seq` */
static inline void coll_shm_done(coll_shm_t *shm, uint64_t seq)
{
    coll_shm_set(shm, &shm->ctl[shm->rank].done, seq);
}

/* ---- one call, in phases ------------------------------------------------------------ */

/*
 * A call's progress through its phases: a blocking call keeps it on its stack, a
 * nonblocking one in its schedule's scratch (with a copy of the call).  Each algorithm's
 * run(o, block) starts or resumes at o->phase, in round o->seq, and returns
 * COMPI_INPROGRESS where a flag it needs is not there yet (never when `block`), else
 * the call's status once its last round is done (its `done` flag set).  A round's
 * error (a combine's) is kept in o->st and the rounds go on, so that every rank ends
 * the call with its flags set.
 */
typedef struct coll_shm_op {
    coll_shm_t *shm;          /* NULL when the call takes no round (one rank, no data) */
    const coll_call_t *call;
    uint64_t base, seq, last; /* the call's rounds base .. last (0: none); seq, the one run */
    int phase;                /* where run() resumes in round seq */
    int j;                    /* the rank a loop of the phase looks at next */
    long fanout;              /* the closure's params (the barrier's tree) */
    compi_status_t st;
    /* schedules only */
    size_t rounds;            /* numbered when its turn comes (coll_shm_turn) */
    struct coll_shm_op *next; /* in shm->queue */
    int started, over;        /* its turn came; it ended */
} coll_shm_op_t;

/* keeps the first error of the call's rounds */
static inline void coll_shm_keep(coll_shm_op_t *o, compi_status_t st)
{
    if (compi_unlikely(st != COMPI_OK) && o->st == COMPI_OK) {
        o->st = st;
    }
}

/* a blocking call finds schedules of its segment outstanding: progresses them to their
   end first, so that this call runs after them, in the order of the starts */
void coll_shm_drain(coll_shm_t *shm);

/* what a call takes of the segment: rounds_of(call, slot bytes) rounds (0: none, its
   work is local) */
typedef size_t (*coll_shm_rounds_fn_t)(const coll_call_t *call, size_t slot);

/*
 * The start of a blocking shared-memory call: 1 with *o ready for run(o, 1), its rounds
 * numbered; 0 when the call is over already, with its status in *st_p -- the closure's
 * fallback ran it (the miss found the key unfit for the segment: `.prepare`), or the
 * segment could not be made.
 */
static inline __attribute__((always_inline)) int
coll_shm_begin(coll_closure_t *self, const coll_call_t *call, coll_shm_rounds_fn_t rounds_of,
               coll_shm_op_t *o, compi_status_t *st_p)
{
    const coll_params_t *prm = self->state;
    *st_p = COMPI_OK;
    if (compi_unlikely(prm->aux != NULL)) {
        coll_closure_t *fallback = ((const coll_shm_fb_t *)prm->aux)->closure;
        *st_p = fallback->fn(fallback, call);
        return 0;
    }
    o->call = call;
    o->phase = 0;
    o->j = 0;
    o->fanout = prm->fanout;
    o->st = COMPI_OK;
    o->shm = NULL;
    o->base = o->seq = o->last = 0;
    /* a key unfit for the slots went to the fallback above */
    coll_shm_t *shm = call->comm->coll_shm;
    size_t rounds = rounds_of(call, compi_likely(shm != NULL) ? shm->slot : coll_shm_slot_size());
    if (rounds == 0) {
        return 1;
    }
    shm = coll_shm_get(call->comm, st_p);
    if (compi_unlikely(shm == NULL)) {
        return 0;
    }
    if (compi_unlikely(shm->queue != NULL)) {
        coll_shm_drain(shm);
    }
    o->shm = shm;
    o->base = o->seq = shm->seq + 1;
    o->last = shm->seq += rounds;
    return 1;
}

/* A schedule's wait step (the algorithm's poll function) runs its phases only once its
   turn has come: it is the oldest of the segment's schedules not yet over on this rank
   (shm->queue), so every call before it has finished here.  Its rounds are numbered
   then, not at its start: a miss's agreement that fails (on every rank) ends the
   schedule before its step runs, and on a rank whose creator failed there is no such
   schedule at all, so only the calls that do run may take numbers. */
static inline int coll_shm_turn(coll_shm_op_t *o)
{
    if (compi_likely(o->started)) {
        return 1;
    }
    if (o->rounds != 0) {
        coll_shm_t *shm = o->shm;
        if (shm->queue != o) {
            return 0;
        }
        o->base = o->seq = shm->seq + 1;
        o->last = shm->seq += o->rounds;
    }
    o->started = 1;
    return 1;
}

/* what run() said, for the wait step: once it is not COMPI_INPROGRESS the call is over
   here, and the next schedule of the segment may take its turn */
static inline compi_status_t coll_shm_over(coll_shm_op_t *o, compi_status_t st)
{
    if (st != COMPI_INPROGRESS) {
        o->over = 1;
        if (o->rounds != 0) {
            coll_shm_t *shm = o->shm; /* o is the queue's head (coll_shm_turn) */
            shm->queue = o->next;
            if (shm->queue == NULL) {
                shm->queue_tail = NULL;
            }
        }
    }
    return st;
}

/*
 * `.sched` of a shm algorithm: the call's phases as one wait step of `s` that `poll`
 * (the algorithm's: coll_shm_turn, then run(o, 0), through coll_shm_over) advances,
 * the call in the segment's queue, its rounds (rounds_of) numbered when its turn comes;
 * or, when the segment cannot serve it (a persistent call, a key unfit for it, a
 * communicator without a segment yet), the steps of the fallback's schedule.
 */
void coll_shm_sched(const coll_call_t *call, const coll_params_t *params, coll_sched_t *s,
                    coll_shm_rounds_fn_t rounds_of, coll_sched_check_fn_t poll);
/* the work of a reduction that takes no round: one rank's copy of its `src` to the
   result (unless in place), or nothing */
compi_status_t coll_shm_reduce_local(const coll_call_t *call, const void *src);

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
   algorithm runs it instead.  Nonblocking and persistent keys always get it
   (coll_shm_fb_t).  .release: coll_shm_release_fallback. */
compi_status_t coll_shm_prepare(const coll_call_t *call, coll_params_t *params);
void coll_shm_release_fallback(void *aux);

/* The entry points of a shm algorithm whose phases are `name##_run(coll_shm_op_t *o, int
   block)` (static inline, always inlined) and whose rounds `rounds` counts: `name`, the
   blocking fn (the phases run straight through, waiting at each flag), `name##_poll`,
   the wait step of its schedule (coll_shm_turn, then the phases without waiting), and
   `name##_sched`, its .sched (coll_shm_sched) */
#define COLL_SHM_ENTRY_POINTS(name, rounds)                                                  \
    static compi_status_t name(coll_closure_t *self, const coll_call_t *call)                \
    {                                                                                        \
        coll_shm_op_t o;                                                                     \
        compi_status_t st;                                                                   \
        return coll_shm_begin(self, call, rounds, &o, &st) ? name##_run(&o, 1) : st;         \
    }                                                                                        \
    static compi_status_t name##_poll(void *o, coll_sched_note_t *note)                      \
    {                                                                                        \
        (void)note;                                                                          \
        return coll_shm_turn(o) ? coll_shm_over(o, name##_run(o, 0)) : COMPI_INPROGRESS;     \
    }                                                                                        \
    static void name##_sched(const coll_call_t *call, const coll_params_t *params,           \
                             coll_sched_t *s)                                                \
    {                                                                                        \
        coll_shm_sched(call, params, s, rounds, name##_poll);                                \
    }

/* the table entry of a shm algorithm of `kind_`: `fn_` (blocking) and `sched_`
   (nonblocking) on one host, the kind's fallback elsewhere (coll_shm_prepare);
   `params_`: the COLL_PARAM_* it reads */
#define COLL_SHM_ALGO(kind_, fn_, sched_, params_, help_)                                    \
    {                                                                                        \
        .name = "shm", .kind = (kind_), .fn = (fn_), .sched = (sched_),                      \
        .usable = coll_shm_usable, .prepare = coll_shm_prepare,                              \
        .release = coll_shm_release_fallback, .params = (params_), .help = (help_)           \
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

/* rounds_of() of reduce and allreduce: one per slot of whole elements; none with nothing
   to combine or one rank */
static inline size_t coll_shm_reduce_rounds(const coll_call_t *call, size_t slot)
{
    const compi_datatype_t *dt = call->sdt;
    if (call->scount == 0 || dt->size == 0 || call->comm->size == 1) {
        return 0;
    }
    if (coll_shm_span(dt, call->scount) <= slot) {
        return 1; /* without a division, for the small vectors the segment is for */
    }
    size_t m = coll_shm_elems_of(slot, dt);
    return (call->scount + m - 1) / m;
}

/* elements per round of a reduction `o` (reduce, allreduce): the whole vector when it
   takes one round (no division), else as many as fit a slot */
static inline size_t coll_shm_round_elems(const coll_shm_op_t *o, const compi_datatype_t *dt)
{
    return o->last == o->base ? o->call->scount : coll_shm_elems(o->shm, dt);
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
