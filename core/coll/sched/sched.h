/*
 * sched.h -- schedules: a collective's work as steps, in rounds, run by one engine.
 *
 *   round 0: [recv a <- 3] [recv b <- 5]   | reduce a into acc, reduce b into acc
 *   round 1: [send acc -> 1]               |
 *
 * A round's steps start when the round before it is complete (coll_sched_round closes a
 * round: every step of the next one depends on every step of it).  Within a round, a
 * step without dependencies of its own starts as the rounds always did: its sends and
 * receives are posted together (pml_isend / pml_irecv on the communicator's context,
 * with a tag of the schedule's own), and its local steps (reductions through core/op,
 * copies through core/dt, checks) run, in the order they were added, when all of its
 * transfers are complete.  A round without communication runs its local steps at once.
 *
 * Dependencies: every step function returns the step's id (-1: no step was added,
 * nothing to wait for); coll_sched_after(s, id) before a step makes that step start
 * only once step id of the same round is complete -- a transfer when its request is, a
 * local step when it has run -- and then at once, not at the round's end.  A pipeline
 * is then one round, each segment forwarded as soon as it is in:
 *
 *   round 0: [recv seg 0 <- parent] [recv seg 1 <- parent] ...
 *            [join 0] after recv seg 0          [send seg 0 -> child] after join 0
 *            [join 1] after recv seg 1, join 0  [send seg 1 -> child] after join 1 ...
 *
 * The engine starts the steps that are ready in the order they were added.  Two
 * transfers of one round between the same pair of ranks on one tag match in the order
 * they are posted, so a builder makes the later one depend, directly or through other
 * steps, on everything the earlier one depends on (above: send seg 1 also waits for
 * recv seg 0, through the joins, should seg 1 arrive first), and orders by dependencies
 * any two steps that touch the same memory.  The
 * round, and the schedule with its last round, is complete when all of its steps are.
 *
 * One engine runs every schedule: coll_sched_start() posts the first round and returns
 * a request (REQ_COLL) that the ordinary progress engine advances -- the engine hooks
 * itself into pml_progress() while any schedule is active -- and that MPI_Wait, MPI_Test
 * and their variants complete like any other request; coll_sched_run() is the same run
 * to completion (blocking), without a request: the caller advances the schedule itself
 * between the PML's progress rounds.
 *
 * Tags: every schedule started on a communicator takes the next number of the
 * communicator's nbc_seq, the same on every rank because MPI orders collectives; its
 * traffic uses tag COMPI_TAG_NBC_BASE - (number mod COLL_SCHED_TAGS), so many
 * collectives may be outstanding on one communicator (up to COLL_SCHED_TAGS) without
 * their messages matching each other or a blocking collective's.  A blocking run
 * (coll_sched_run) takes the kind's blocking tag instead (coll_tag: MPI orders blocking
 * collectives, and one runs at a time on a communicator).  A step may name a tag of its
 * own (coll_sched_send_tag): the neighbourhood kinds keep the blocking exchange's two
 * tags (coll_tag, coll_tag_alt), which MPI's order keeps apart.
 *
 * Persistent schedules (call->mode COLL_MODE_PERSISTENT, MPI_Bcast_init, ...):
 * coll_sched_start() does not run one but returns it in an inactive persistent request
 * (req->owner is the schedule).  Each MPI_Start (pml_start, through a hook the engine
 * gives the PML) reruns it from round 0 on the steps, scratch, request array and tag
 * fixed at init: the tag comes from the communicator's persist_seq when the init call
 * (collective, ordered) makes the schedule, COMPI_TAG_PERSIST_BASE - (number mod
 * COLL_SCHED_TAGS), so ranks may start their persistent requests in different orders
 * (MPI-4 6.13) and each still matches its own; its end completes the request and keeps the
 * schedule.  MPI_Request_free (pml_request_free, through the other hook) frees it; one
 * freed while it runs is freed when it ends.
 *
 * Checks and waits: a round may end with a check (a function that decides, after the
 * round's messages, whether the schedule goes on; an error ends it with a message for
 * its request) or hold a wait (a condition the engine polls before the round is
 * complete).  The trampolines use them for the agreement at a miss, which a prologue
 * (coll_sched_set_prologue) puts before a closure's own rounds.
 *
 * Building: coll_sched_new(), then steps; errors are sticky (the first one is kept, the
 * later builders do nothing) and returned by coll_sched_start(), so builders need not
 * check each step.
 *
 * Ownership: a schedule owns its steps, its scratch buffers (coll_sched_scratch,
 * coll_sched_alloc, coll_sched_adopt) and a reference on every datatype and op its steps
 * use; the engine gives all of it up when the schedule ends (completion or error), before
 * it completes the request: the references are released, the schedule goes back to the
 * engine's pool with the capacity of its arrays, and its scratch blocks to the engine's
 * cache of blocks (adopted memory is freed), so that once warm, building and running a
 * schedule allocates nothing (builders should take scratch from coll_sched_scratch or
 * coll_sched_alloc, not malloc + coll_sched_adopt, for that).  The buffers of the call
 * belong to the user until completion.  The request belongs to whoever started the
 * schedule (freed by MPI_Wait/Test through the API, or by pml_request_free; one freed
 * while active is released when the schedule ends).  A persistent schedule belongs to
 * its request, from coll_sched_start() to the request's free.  What a check or wait step
 * points at belongs to its builder, which keeps it alive with coll_sched_hold().
 */
#ifndef COMPI_COLL_SCHED_H
#define COMPI_COLL_SCHED_H

#include "core/coll/coll.h"
#include "core/pml/pml.h"

#include <stddef.h>

#define COMPI_TAG_NBC_BASE (-1000) /* schedules: -1000 and below (coll tags: -100..-299) */
#define COLL_SCHED_TAGS 65536
/* persistent schedules: the COLL_SCHED_TAGS tags below the nonblocking ones */
#define COMPI_TAG_PERSIST_BASE (COMPI_TAG_NBC_BASE - COLL_SCHED_TAGS)

typedef struct coll_sched coll_sched_t;

/* an empty schedule for `call` (its communicator and op); NULL when out of memory */
coll_sched_t *coll_sched_new(const coll_call_t *call);
/* free a schedule that was never started */
void coll_sched_free(coll_sched_t *s);

/* ---- steps (in the current round): each returns its id, or -1 ---------------------- */

int coll_sched_send(coll_sched_t *s, const void *buf, size_t count, compi_datatype_t *dt, int peer);
int coll_sched_recv(coll_sched_t *s, void *buf, size_t count, compi_datatype_t *dt, int peer);
/* a receive of data this rank reads at once (a reduction combines it, a scatter's block
   is the rank's own): copied by this rank alone (pml_irecv_whole), never split with the
   sender, so that it is in this core's caches when it is read */
int coll_sched_recv_whole(coll_sched_t *s, void *buf, size_t count, compi_datatype_t *dt,
                          int peer);
/* the same on a tag of the caller's (a library tag, negative) instead of the schedule's */
int coll_sched_send_tag(coll_sched_t *s, const void *buf, size_t count, compi_datatype_t *dt,
                        int peer, int tag);
int coll_sched_recv_tag(coll_sched_t *s, void *buf, size_t count, compi_datatype_t *dt, int peer,
                        int tag);
/* the same on the schedule's tag over another communicator that lives as long as the
   schedule's (an intercommunicator's local_comm, whose ranks are the local group's: the
   agreement at a miss, trampolines/tramp_agree.c); peer is a rank of comm */
int coll_sched_send_on(coll_sched_t *s, compi_comm_t *comm, const void *buf, size_t count,
                       compi_datatype_t *dt, int peer);
int coll_sched_recv_on(coll_sched_t *s, compi_comm_t *comm, void *buf, size_t count,
                       compi_datatype_t *dt, int peer);
/* inout = in op inout (the call's op), count elements of dt */
int coll_sched_reduce(coll_sched_t *s, const void *in, void *inout, size_t count,
                      compi_datatype_t *dt);
/* out = a op b (coll_op_apply3: out may be a or b), count elements of dt */
int coll_sched_reduce3(coll_sched_t *s, const void *a, const void *b, void *out, size_t count,
                       compi_datatype_t *dt);
/* a copy between two buffers whose type signatures match (coll_copy) */
int coll_sched_copy(coll_sched_t *s, const void *sbuf, size_t scount, compi_datatype_t *sdt,
                    void *rbuf, size_t rcount, compi_datatype_t *rdt);
/* close the current round: the steps added next start when it is complete (an empty
   round is not made).  A check step of a running schedule (not a persistent one) may add
   steps and close rounds: they run after the rounds already there (a schedule whose
   later rounds depend on what its first ones brought: two-phase I/O's) */
void coll_sched_round(coll_sched_t *s);
/* the next step added starts only once step id (an earlier step's return, of the same
   round; an earlier round's is complete anyway) is complete; call once per dependency.
   id -1 is ignored, so a step that added nothing is nothing to wait for; a reduce or copy
   with nothing to do that has dependencies of its own becomes a step that passes them
   on.  Dependencies pending when the schedule starts are dropped.  A send or receive
   must not wait, directly or not, for a local step without dependencies of its own:
   that one waits for every transfer of the round. */
void coll_sched_after(coll_sched_t *s, int id);
/* the next step added, a local one without dependencies, starts as soon as its round
   does, in the order of the steps, instead of after the round's transfers: the copy of a
   rank's own block while the round's messages are on their way.  It must not touch what
   the round's transfers read or write. */
void coll_sched_at_once(coll_sched_t *s);
/* a step that does nothing: complete once its dependencies are (with none, once the
   round's transfers are, as any local step); one id that stands for several steps */
int coll_sched_join(coll_sched_t *s);

/* a scratch buffer for `count` elements of dt in a user buffer's layout (coll_tmp_alloc),
   freed with the schedule; NULL (and the schedule fails) when out of memory */
void *coll_sched_scratch(coll_sched_t *s, compi_datatype_t *dt, size_t count);
/* `bytes` of scratch (aligned like malloc's), given back with the schedule; NULL (and
   the schedule fails) when out of memory */
void *coll_sched_alloc(coll_sched_t *s, size_t bytes);
/* the schedule takes malloc'ed memory over (freed with it); mem may be NULL */
void coll_sched_adopt(coll_sched_t *s, void *mem);
/* record an error found while building (the first one wins) */
void coll_sched_fail(coll_sched_t *s, compi_status_t st);

/* ---- checks and prologues (the agreement at a miss: trampolines/tramp_agree.c) ----- */

/* A step's decision (its return): COMPI_OK goes on; an error ends the schedule with it,
   with note->text (malloc'ed, or left NULL) as its request's message (errtext) and
   note->report saying whether this rank reports it when errors are fatal; with COMPI_OK,
   note->skip set skips the next round.  A wait step's function may also say
   COMPI_INPROGRESS: its round is not complete until it says otherwise. */
typedef struct coll_sched_note {
    char *text;
    int report;
    int skip;
} coll_sched_note_t;
typedef compi_status_t (*coll_sched_check_fn_t)(void *arg, coll_sched_note_t *note);
/* a local step of the current round: runs after its sends and receives, in order (or
   when its dependencies are complete) */
int coll_sched_check(coll_sched_t *s, coll_sched_check_fn_t fn, void *arg);
/* the current round is complete only once fn stops saying COMPI_INPROGRESS (polled from
   the round's start, or from its dependencies'; its local steps wait for it as for a
   transfer) */
int coll_sched_wait(coll_sched_t *s, coll_sched_check_fn_t fn, void *arg);
/* the schedule keeps arg alive: release(arg) when the schedule is freed, also when it
   fails or is never started, before its scratch goes back (arg may live there); three per
   schedule: the agreement at a miss and the algorithm's own (two: the shm phases of a
   tree's host level, core/coll/executors/tree_host.c) */
void coll_sched_hold(coll_sched_t *s, void (*release)(void *arg), void *arg);

/*
 * A prologue for the next schedule started on this thread: the next coll_sched_start()
 * of a schedule built without error calls build(s, arg), which adds steps and rounds,
 * and moves them before the schedule's own, on the schedule's tag.  A persistent
 * schedule runs them at each MPI_Start until a run has passed them, then skips them.
 * coll_sched_prologue_pending(): 1 while no start has taken it;
 * coll_sched_set_prologue(NULL, NULL) drops it.
 */
void coll_sched_set_prologue(void (*build)(coll_sched_t *s, void *arg), void *arg);
int coll_sched_prologue_pending(void);

/* ---- running ----------------------------------------------------------------------- */

/*
 * Start the schedule: its request (REQ_COLL, retaining the communicator) in *req_p.  On
 * success the engine owns the schedule; on failure it is freed and *req_p is NULL.  A
 * schedule with nothing to wait for completes before this returns.  A persistent one is
 * not started: its request is inactive and owns it (see above).
 */
compi_status_t coll_sched_start(coll_sched_t *s, compi_request_t **req_p);
/* run to completion (blocking), with no request (a check's message is dropped); the
   schedule is gone on return */
compi_status_t coll_sched_run(coll_sched_t *s);
/*
 * Blocking calls that repeat (a solver's loop: the same buffers, counts and types each
 * time) need not build their schedule each time.  A closure holds a coll_sched_keep_t
 * (zeroed at first) and runs its blocking calls with coll_sched_run_kept(): a call with
 * the same arguments as the kept one (buffers, counts, datatypes, op, root, kind and
 * communicator) reruns the kept schedule from its first round; another call gets its
 * schedule from build(call, arg, s), runs it, and keeps it when a rerun would be that run
 * again: no arrays of counts, displacements or types in the call (their contents may
 * change under the same pointers), no file access, no prologue (the agreement at a
 * miss), no steps added while running, at most 64 KiB of scratch (larger calls spend
 * far more time moving data than building).  Like a persistent schedule, a kept one reads
 * the buffers at each run.  The kept call's datatypes and op are retained, so equal
 * pointers mean the same objects; its communicator is matched by address, context id,
 * size and rank (a closure may outlive a communicator when another one's cache holds
 * it).  coll_sched_keep_drop() frees what is kept.  At MPI_THREAD_MULTIPLE a thread
 * that finds the kept schedule running builds its own.
 */
typedef struct coll_sched_keep {
    coll_sched_t *s;
    coll_call_t call;
    uint32_t ctx;
    int size, rank;
    int busy;
} coll_sched_keep_t;
typedef void (*coll_sched_build_fn_t)(const coll_call_t *call, void *arg, coll_sched_t *s);
compi_status_t coll_sched_run_kept(coll_sched_keep_t *k, const coll_call_t *call,
                                   coll_sched_build_fn_t build, void *arg);
/* the nonblocking (or persistent) counterpart, for a closure's start: a new schedule for
   call from build(call, arg, s), started as coll_sched_start() does */
compi_status_t coll_sched_start_built(const coll_call_t *call, coll_sched_build_fn_t build,
                                      void *arg, compi_request_t **req_p);
void coll_sched_keep_drop(coll_sched_keep_t *k);

/* schedules started and not yet ended (tests, finalize checks) */
int coll_sched_active(void);

#endif
