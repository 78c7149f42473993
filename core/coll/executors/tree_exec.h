/*
 * tree_exec.h -- private to the tree engine (tree_exec*.c) and to the closures that run
 * its phases over a forest (algorithms/allreduce/exchange.c): the state a tree closure
 * holds and the entry points of its schedules.
 *
 * A forest is a topo_tree_t whose parent[] has -1 at several ranks (one tree per group,
 * side by side, each rooted at its -1); it is never given to topo_tree_validate.  The
 * preorder, the reduction pieces, tree_exec__sched_reduce_up and tree_exec__sched_bcast
 * work on forests as on trees: every rank with parent -1 acts as a root.
 *
 * Ownership: a tree_exec_t belongs to its closure and is freed by tree_exec__free (the
 * closure's free_state), tree included; it is read-only once built.  Every run is a
 * schedule (tree_exec_sched.c) that takes its memory from the schedule engine, so
 * several runs of one closure may be outstanding, and a warm blocking run allocates
 * nothing (the engine reuses its schedules and scratch blocks).
 */
#ifndef COMPI_COLL_TREE_EXEC_H
#define COMPI_COLL_TREE_EXEC_H

#include "core/pml/pml.h"
#include "core/coll/executors/tree_closure.h"
#include "core/coll/sched/sched.h"

typedef struct tree_host tree_host_t;

typedef struct tree_exec {
    topo_tree_t *tree;
    coll_kind_t kind;
    coll_params_t params;
    int ordered; /* topo_tree_is_ordered(tree): non-commutative reductions allowed */
    /* gather, scatter, allgather: the ranks in preorder (each rank, then its children's subtrees
       in child order), so every subtree is one contiguous run pre[pos[r] .. +sub[r]) and
       a child's subtree is a contiguous part of its parent's */
    int *pre;
    int *pos;
    int *sub;
    /* reduce and allreduce: for each rank r, the pieces it combines -- r itself and its
       children -- sorted by the lowest rank of each piece's subtree, at
       pieces[child_off[r] + r .. child_off[r + 1] + r + 1).  On an ordered tree that is
       rank order, which non-commutative ops need. */
    int *pieces;
    /* beside each piece, its index in the rank's children list (-1: the rank itself), so
       a run finds a child's buffer without a search */
    int *piece_ci;
    /* the schedule of the last blocking call, for a repeat (coll_sched_run_kept) */
    coll_sched_keep_t keep;
    /* the host level (tree_host.c), or NULL */
    tree_host_t *host;
} tree_exec_t;

/* size + root (rooted kinds) + op order: the run-time twin of coll_tree_check_call */
compi_status_t tree_exec__check(const tree_exec_t *s, const coll_call_t *call);

/* the entry points of every tree closure: the call's collective over the tree as a
   schedule (tree_exec_sched.c), run to completion (blocking: the closure's fn, with no
   request) or started (nonblocking and persistent: its start) */
compi_status_t tree_exec__run(coll_closure_t *self, const coll_call_t *call);
/* a blocking call of the closure with state s over `call`'s communicator, as
   tree_exec__run runs it but for the host level (tree_host.c's coordinators' tree) */
compi_status_t tree_exec__run_state(tree_exec_t *s, const coll_call_t *call);
/* the steps of `call` over the tree (or forest) of s added to sc, its last round left
   open (tree_host.c: the coordinators' part of a schedule) */
void tree_exec__sched_build(const tree_exec_t *s, struct coll_sched *sc, const coll_call_t *call);
compi_status_t tree_exec__start(coll_closure_t *self, const coll_call_t *call,
                                struct compi_request **req_p);

static inline int tree_exec__nchildren(const topo_tree_t *t, int r)
{
    return t->child_off[r + 1] - t->child_off[r];
}

static inline const int *tree_exec__children(const topo_tree_t *t, int r)
{
    return t->children + t->child_off[r];
}

/* the state of a closure over `tree` (or a forest) for `kind`, with the preorder (gather,
   scatter, allgather, reduce, allreduce) and the reduction pieces (reduce, allreduce);
   takes `tree` over, also on failure.  Does not validate: the caller has. */
tree_exec_t *tree_exec__new(coll_kind_t kind, topo_tree_t *tree, const coll_params_t *params,
                            compi_status_t *st_p);
void tree_exec__free(void *state);

/* the forest phases of the exchange allreduce, as steps of its schedule sc (closing their
   rounds): the reduce of `count` x `dt` from input up the tree (each tree of a forest),
   pipelined by params.segsize, the result in acc at every rank with no parent (acc may
   be input, in place; it may be NULL elsewhere); the bcast of buf from the tree's root
   (each root of a forest) */
void tree_exec__sched_reduce_up(const tree_exec_t *s, struct coll_sched *sc, const void *input,
                                void *acc, size_t count, compi_datatype_t *dt, compi_comm_t *comm);
void tree_exec__sched_bcast(const tree_exec_t *s, struct coll_sched *sc, void *buf, size_t count,
                            compi_datatype_t *dt, compi_comm_t *comm);

/* the host level (tree_host.c): attach gives s one over the grouping group_of[] (every
   rank's innermost group) when call's key can take it (*attached 1), or leaves s as it is
   (*attached 0, COMPI_OK); run serves a blocking call through it (1, the call's status in
   *st_p) or says 0 when the plain tree must run it (the communicator's groups have no
   segments, or the call has nothing to combine) */
compi_status_t tree_host__attach(tree_exec_t *s, const int *group_of, const coll_call_t *call,
                                 int *attached);
int tree_host__run(tree_exec_t *s, const coll_call_t *call, compi_status_t *st_p);
/* the same for a nonblocking start: 1 with the schedule started (its status in *st_p,
   the request in *req_p), or 0 when the plain tree must serve it (a persistent call, or
   the communicator's groups have no segments yet) */
int tree_host__start(tree_exec_t *s, const coll_call_t *call, struct compi_request **req_p,
                     compi_status_t *st_p);
void tree_host__free(tree_host_t *h);

#endif
