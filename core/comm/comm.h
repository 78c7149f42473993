/*
 * comm.h -- communicators, groups and error handlers.
 *
 * Ownership: communicators, groups and error handlers are refcounted.  A communicator
 * holds a reference to its group (which owns the rank -> world rank array) and to its
 * error handler.  comm->pml belongs to the PML (pml_comm_add/pml_comm_del); comm->coll
 * belongs to the trampolines (closure cache, freed with the communicator).  comm->topo, a
 * process topology (topo.h), is refcounted: the communicator holds one reference, a dup
 * shares it.
 *
 * Context ids: each communicator has one context id `ctx`, agreed on by all its members
 * when it is created (max over the members' next free id, see comm_alloc_ctx).  User
 * point-to-point traffic uses tags >= 0; library-internal traffic on the same
 * communicator (collectives, communicator creation) uses negative tags, which
 * MPI_ANY_TAG never matches.
 */
#ifndef COMPI_COMM_H
#define COMPI_COMM_H

#include "core/include/compi_common.h"
#include "core/include/compi_status.h"
#include "core/runtime/handle.h"

#include <limits.h>
#include <mpi.h>
#include <stdint.h>

typedef struct compi_group {
    int size;
    int rank;           /* of the calling process, or MPI_UNDEFINED */
    int *world_ranks;   /* [size]: group rank -> rank in MPI_COMM_WORLD */
    int handle;
    int refcount;
} compi_group_t;

typedef struct compi_errhandler {
    MPI_Comm_errhandler_function *fn; /* NULL for the predefined ones */
    int handle;
    int refcount;
    int kind; /* ERRH_FATAL, ERRH_RETURN, ERRH_ABORT, ERRH_USER */
} compi_errhandler_t;
enum { ERRH_FATAL = 1, ERRH_RETURN, ERRH_ABORT, ERRH_USER };

struct pml_comm;
struct attr_list;
struct comm_topo;

typedef struct compi_comm {
    /* hot: read on every message */
    uint32_t ctx;
    int rank;
    int size;
    const int *world_ranks;   /* = group->world_ranks */
    struct pml_comm *pml;     /* owned by the PML */
    void *coll;               /* closure cache, owned by the trampolines */
    compi_errhandler_t *errh;

    /* cold */
    int handle;
    int refcount;
    compi_group_t *group;
    struct attr_list *attrs;
    unsigned nbc_seq;     /* schedules started on it: their tags (core/coll/sched/sched.h) */
    unsigned persist_seq; /* persistent schedules made on it: their tags (the same) */
    /* the shared segment of the shared-memory collectives (core/coll/shm.h), or NULL;
       owned by core/coll, unmapped through the trampolines' free hook */
    void *coll_shm;
    /* the segments of groups of its ranks that tree closures with a host level use
       (core/coll/shm_group.h), or NULL; owned and freed likewise */
    void *coll_shm_groups;
    /* context ids reserved on every member for MPI_Comm_idup of this communicator,
       [ctx_pool, ctx_pool_end) (comm_idup, comm_create.c; comm_inter_idup); empty unless
       its constructor reserved them */
    uint32_t ctx_pool, ctx_pool_end;
    struct comm_topo *topo;   /* process topology (topo.h) or NULL; one reference */
    char name[MPI_MAX_OBJECT_NAME];
    /* an intercommunicator (NULL on an intracommunicator): point-to-point ranks name the
       remote group, so `size` and `world_ranks` above are the remote group's, while `rank`
       is this process's rank in the local group, `group` (what the remote side sees as
       the source).  local_comm is an internal intracommunicator over the local group
       (own context id) on which the intercommunicator's collectives and constructors
       run their local steps. */
    compi_group_t *remote_group;
    struct compi_comm *local_comm;
} compi_comm_t;

static inline int comm_is_inter(const compi_comm_t *c)
{
    return c->remote_group != NULL;
}
/* the size of the local group (MPI_Comm_size): on an intercommunicator not `size` */
static inline int comm_local_size(const compi_comm_t *c)
{
    return c->group != NULL ? c->group->size : c->size; /* (a test's bare communicator) */
}

/* Negative tags reserved for library traffic on a communicator. */
#define COMPI_TAG_COMM_CREATE (-10)
#define COMPI_TAG_FINALIZE (-12)    /* MPI_Finalize's barrier */
#define COMPI_TAG_TRAMP_CHECK (-13) /* the trampolines' agreement at a miss */
#define COMPI_TAG_TOPO_CREATE (-14) /* MPI_Dist_graph_create's edge exchange */
#define COMPI_TAG_COLL_SUMMARY (-15) /* MPI_Finalize: the coll_summary rows to world rank 0 */
#define COMPI_TAG_COLL_SHM (-16) /* creating the segment of the shared-memory collectives */
#define COMPI_TAG_CTX_OFFER (-19)   /* a nonblocking context id agreement: the offers */
#define COMPI_TAG_CTX_VERDICT (-20) /* ... and whether the id is free on every member */
#define COMPI_TAG_OSC (-17)      /* creating a window (core/osc) */
#define COMPI_TAG_OSC_AM (-18)   /* a window's active messages (core/osc/osc_am.c) */
#define COMPI_TAG_COLL_BASE (-100) /* collectives: -100 - kind (coll_tag) */
#define COMPI_TAG_COLL_ALT_BASE (-200) /* a kind's second tag: -200 - kind (coll_tag_alt) */
/* nonblocking schedules take -1000 and below (COMPI_TAG_NBC_BASE, core/coll/sched/sched.h) */
/* MPI_Comm_create_group: a tag per user tag, below every tag above (the schedules' end at
   -1000 - 65535), so that calls of several threads with different tags keep apart */
#define COMPI_TAG_CREATE_GROUP_BASE (-70000)
static inline int comm_create_group_tag(int user_tag)
{
    /* user tags are 0 .. INT_MAX: those this span apart share a tag */
    const int span = INT_MAX + COMPI_TAG_CREATE_GROUP_BASE + 1;
    return COMPI_TAG_CREATE_GROUP_BASE - user_tag % span;
}

extern handle_table_t comm_table;
extern handle_table_t group_table;
extern handle_table_t errh_table;

static inline compi_comm_t *comm_from_handle(MPI_Comm h)
{
    return (compi_comm_t *)handle_get(&comm_table, h);
}
static inline compi_group_t *group_from_handle(MPI_Group h)
{
    return (compi_group_t *)handle_get(&group_table, h);
}
static inline compi_errhandler_t *errh_from_handle(MPI_Errhandler h)
{
    return (compi_errhandler_t *)handle_get(&errh_table, h);
}

compi_comm_t *comm_world(void);

/* after rte_init and pml_init: build WORLD, SELF, the predefined groups and errhandlers */
compi_status_t comm_init(void);
void comm_finalize(void);

/*
 * Context ids and MPI_Comm_idup.  Ids are never reused, and each process's next free id
 * only grows.  Every agreement (comm_alloc_ctx, comm_alloc_ctx_set) takes the max over the
 * members' next free id, C, and moves every member's next free id past C + COMM_CTX_POOL:
 * [C + 1, C + 1 + COMM_CTX_POOL) is then reserved on every member of the new communicator
 * -- no later agreement, of any group, can reach it -- and is that communicator's pool for
 * MPI_Comm_idup, which takes ids from it in the collective order every member sees alike,
 * without communicating (comm_idup).  An agreement over the whole of a parent whose pool is
 * under half full also gives the parent a fresh pool.  An idup that finds the pool empty
 * agrees on an id without waiting (comm_ctx_nb.c), in ids of its own above
 * COMM_CTX_NB_BASE.
 */
#define COMM_CTX_POOL 256u
/* The ids of MPI_Comm_idup's nonblocking agreements (comm_ctx_nb.c), where the parent's
   pool is empty: [COMM_CTX_NB_BASE, UINT32_MAX), never reached by the blocking ones */
#define COMM_CTX_NB_BASE 0x80000000u
/* The ids of the agreements between groups that meet through mpirun (spawn, connect,
   join: comm_dyn_join): [COMM_CTX_DYN_BASE, COMM_CTX_NB_BASE), a space of their own too,
   since their groups meet without a confirmation round: another thread's agreement
   (below COMM_CTX_DYN_BASE) never takes an id one of them is settling on */
#define COMM_CTX_DYN_BASE 0x40000000u

/* c's id was agreed with the ids after it, through ctx + COMM_CTX_POOL, reserved on every
   member (of both groups): those it does not use itself (an intercommunicator's
   local_comm has ctx + 1) are its pool */
static inline void comm_pool_reserved(compi_comm_t *c)
{
    c->ctx_pool = c->ctx + (c->remote_group != NULL ? 2 : 1);
    c->ctx_pool_end = c->ctx + 1 + COMM_CTX_POOL;
}

/* a communicator made from parent's pool gets a sixteenth of what parent has left */
static inline void comm_pool_share(compi_comm_t *parent, compi_comm_t *c)
{
    uint32_t share = (parent->ctx_pool_end - parent->ctx_pool) / 16;
    c->ctx_pool = parent->ctx_pool;
    c->ctx_pool_end = parent->ctx_pool + share;
    parent->ctx_pool += share;
}
/* collective over `parent`: a context id free on every member, its pool after it */
compi_status_t comm_alloc_ctx(compi_comm_t *parent, uint32_t *ctx_p);
/*
 * a new communicator with the given members (group, of which the calling process must be
 * one) and context; takes its own reference on the group, starts with
 * MPI_ERRORS_ARE_FATAL, gets a handle and is registered with the PML
 */
compi_status_t comm_create_with_group(compi_group_t *group, uint32_t ctx, compi_comm_t **comm_p);
/* the same, its context id not known yet: not registered with the PML until
   comm_bind_ctx gives it its id */
compi_status_t comm_create_unbound(compi_group_t *group, compi_comm_t **comm_p);
compi_status_t comm_bind_ctx(compi_comm_t *c, uint32_t ctx);
/*
 * MPI_Comm_idup of parent (an intra- or intercommunicator) with an empty pool
 * (comm_ctx_nb.c): `child` (unbound, one reference taken over) gets its id from an
 * agreement that the PML's progress advances; `req` (a REQ_COLL request of the caller's) completes then, with the
 * error of the agreement if it failed.  Never waits.
 */
struct compi_request;
compi_status_t comm_idup_agree(compi_comm_t *parent, compi_comm_t *child,
                               struct compi_request *req);
void comm_retain(compi_comm_t *comm);
void comm_release(compi_comm_t *comm);
/* replace comm's error handler (retains the new one, releases the old one) */
void comm_set_errhandler(compi_comm_t *comm, compi_errhandler_t *errh);
/* 1 for MPI_COMM_WORLD and MPI_COMM_SELF, which MPI_Comm_free must refuse */
int comm_is_predefined(const compi_comm_t *comm);

/*
 * Communicator constructors behind MPI_Comm_dup/split/create/create_group (comm_create.c).
 * Each is collective as its MPI function is; *new_p is NULL for a process that gets
 * MPI_COMM_NULL.  New communicators inherit the parent's error handler.  comm_dup also
 * copies attributes: when a copy callback fails it returns COMPI_ERR_INVALID_PARAM with
 * the callback's code in *cb_code_p.
 */
compi_status_t comm_dup(compi_comm_t *parent, compi_comm_t **new_p, int *cb_code_p);
/* MPI_Comm_idup: comm_dup with an id from parent's pool (no communication; the new
   communicator gets a sixteenth of what is left as its own pool), which completes `req`;
   with an empty pool, from a nonblocking agreement that completes `req` when done
   (comm_idup_agree), over both groups for an intercommunicator. */
compi_status_t comm_idup(compi_comm_t *parent, compi_comm_t **new_p, int *cb_code_p,
                         struct compi_request *req);
/* the end of a dup or an idup of parent, intra- or inter-: c (a reference taken over)
   gets parent's attributes, then its id from an agreement (agree: comm_idup_agree
   completes `req`) or `req` completes now (when not NULL); *new_p = c, or c is released
   on an error */
compi_status_t comm_dup_finish(compi_comm_t *parent, compi_comm_t *c, int agree,
                               compi_comm_t **new_p, int *cb_code_p, struct compi_request *req);

/* MPI_Comm_split's order of a color's members, for the splits of intra- and
   intercommunicators: by key, then by rank in the parent (qsort comparator of
   comm_split_entry_t) */
typedef struct comm_split_entry {
    int key;
    int rank; /* in the parent */
} comm_split_entry_t;
int comm_split_entry_cmp(const void *a, const void *b);
compi_status_t comm_split(compi_comm_t *parent, int color, int key, compi_comm_t **new_p);
/* group must be a subset of parent's (the API checks) */
compi_status_t comm_create_from_group(compi_comm_t *parent, compi_group_t *group,
                                      compi_comm_t **new_p);
/* collective over the members of group only; its messages travel on
   comm_create_group_tag(tag) */
compi_status_t comm_create_group(compi_comm_t *parent, compi_group_t *group, int tag,
                                 compi_comm_t **new_p);
/* 1 when every member of group is in comm */
int comm_group_is_subset(const compi_comm_t *comm, const compi_group_t *group);

compi_status_t group_create(int size, const int *world_ranks, compi_group_t **group_p);
void group_retain(compi_group_t *g);
void group_release(compi_group_t *g);

/*
 * Intercommunicators (intercomm.c).  Both groups agree on the context id: each group
 * takes the max of its members' next free ids, the leaders exchange theirs, and the
 * larger is the intercommunicator's id (id + 1 is its local_comm's).
 *
 * comm_intercomm_create: collective over local (an intracommunicator); the leaders talk
 * over peer with the user's tag.  COMPI_ERR_INVALID_PARAM when the groups overlap.
 */
compi_status_t comm_intercomm_create(compi_comm_t *local, int local_leader, compi_comm_t *peer,
                                     int remote_leader, int tag, compi_comm_t **new_p);
/* comm_intercomm_from_groups: collective over both groups (MPI_Intercomm_create_from_groups),
   which every member names alike; the calling process must be in `local`.  Only the
   context id is agreed (over WORLD, the members only, on comm_create_group_tag(tag)), so
   no leader is needed.  errh
   (NULL: MPI_ERRORS_ARE_FATAL) goes on the new intercommunicator.  COMPI_ERR_INVALID_PARAM,
   before any message, when the groups overlap or the caller is not in `local`. */
compi_status_t comm_intercomm_from_groups(compi_group_t *local, compi_group_t *remote, int tag,
                                          compi_errhandler_t *errh, compi_comm_t **new_p);
/* the intracommunicator of both groups, the group of `high` == 0 first (ties: the group
   whose leader has the lower world rank first) */
compi_status_t comm_intercomm_merge(compi_comm_t *inter, int high, compi_comm_t **new_p);
/* 1 when group a's first member comes before group b's in an order every process sees
   alike (by mpirun job, then global id): the same answer in both groups */
int comm_inter_first_lower(const compi_group_t *a, const compi_group_t *b);
/* dup, split and create on an intercommunicator (comm_dup etc. call them) */
compi_status_t comm_inter_dup(compi_comm_t *parent, compi_comm_t **new_p, int *cb_code_p);
/* MPI_Comm_idup of an intercommunicator: two ids of its pool (the same on both groups,
   which MPI orders alike), no communication, `req` complete at once; with an empty pool,
   from a nonblocking agreement of both groups (comm_idup_agree), which completes `req` */
compi_status_t comm_inter_idup(compi_comm_t *parent, compi_comm_t **new_p, int *cb_code_p,
                               struct compi_request *req);
compi_status_t comm_inter_split(compi_comm_t *parent, int color, int key, compi_comm_t **new_p);
compi_status_t comm_inter_create(compi_comm_t *parent, compi_group_t *group,
                                 compi_comm_t **new_p);
/* an intercommunicator over the two groups with context ids ctx (and ctx + 1 for its
   local_comm); parent's error handler */
compi_status_t comm_create_inter(compi_group_t *local, compi_group_t *remote, uint32_t ctx,
                                 compi_comm_t **comm_p);
/* the same without ids: comm_bind_ctx(c, ctx) gives it ctx and its local_comm ctx + 1 */
compi_status_t comm_create_inter_unbound(compi_group_t *local, compi_group_t *remote,
                                         compi_comm_t **comm_p);
/* the context-id counter (comm.c): the next free id */
uint32_t comm_ctx_next(void);
/* an agreement's answer ctx: claims [ctx, ctx + span) here (the id and its pool, 1 +
   COMM_CTX_POOL) and returns 0, or returns 1 when this process took ids from ctx on while
   the agreement waited (another thread's agreement): then all must agree again, higher */
int comm_ctx_claim(uint32_t ctx, uint32_t span);
/* the counter of comm_dyn_join's ids (COMM_CTX_DYN_BASE): the next free one, and moving
   it past `last` */
uint32_t comm_ctx_dyn_next(void);
void comm_ctx_dyn_taken(uint32_t last);

/* Hook run when a communicator is freed (the trampolines drop its closure cache). */
typedef void (*comm_hook_fn)(compi_comm_t *comm);
void comm_set_free_hook(comm_hook_fn fn);

#endif
