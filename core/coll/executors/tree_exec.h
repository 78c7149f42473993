/*
 * tree_exec.h -- private to the tree executors (tree_exec*.c) and to the closures that run
 * their phases over a forest (algorithms/allreduce/exchange.c): the state a tree closure holds and
 * the helpers the executors share.
 *
 * A forest is a topo_tree_t whose parent[] has -1 at several ranks (one tree per group,
 * side by side, each rooted at its -1); it is never given to topo_tree_validate.  The
 * preorder, the reduction pieces, tree_exec__reduce_up and tree_exec__bcast_buf work on
 * forests as on trees: every rank with parent -1 acts as a root.
 *
 * Ownership: a tree_exec_t belongs to its closure and is freed by tree_exec__free (the
 * closure's free_state), tree included.  Requests posted by an executor are waited for
 * and freed before it returns, on error paths too.  The request array and the scratch
 * memory of a tree_exec_t serve the blocking executors, one run at a time (a closure
 * belongs to one communicator, whose blocking collectives MPI orders); schedules
 * (tree_exec_sched.c) take their memory from the schedule instead, so several
 * nonblocking runs of one closure may be outstanding.
 */
#ifndef COMPI_COLL_TREE_EXEC_H
#define COMPI_COLL_TREE_EXEC_H

#include "core/pml/pml.h"
#include "core/coll/executors/tree_closure.h"

/* segments received ahead, and segments whose sends may be in flight at once: enough to
   overlap, few enough that the PML's request pool and the BTL's queues stay small (two
   ahead: the depth of the native pipelines these replaced, and measured no slower than
   four for a 1 MiB chain bcast at 4 ranks) */
#define TREE_RECV_AHEAD 2
#define TREE_SEND_WINDOW 8

typedef struct tree_exec {
    topo_tree_t *tree;
    coll_kind_t kind;
    coll_params_t params;
    int ordered; /* topo_tree_is_ordered(tree): non-commutative reductions allowed */
    int maxnc;   /* the most children of any rank */
    /* the blocking executors' requests: (maxnc + 1) * TREE_SEND_WINDOW slots, all NULL
       between runs (pml_wait_all_free clears them) */
    compi_request_t **reqs;
    /* the blocking executors' temporaries (child partials, packed segments, gathered
       blocks): grown by tree_exec__scratch at the first run of a key (the miss), which
       sizes it from the call; every hit of the same key finds it big enough */
    char *scratch;
    size_t scratch_len;
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
} tree_exec_t;

/* size + root (rooted kinds) + op order: the run-time twin of coll_tree_check_call */
compi_status_t tree_exec__check(const tree_exec_t *s, const coll_call_t *call);

/* `bytes` of the closure's scratch (see above); NULL when out of memory */
void *tree_exec__scratch(tree_exec_t *s, size_t bytes);

/* the bytes `count` elements of dt span in a user-layout buffer, rounded up to 64 (so
   buffers carved one after the other from the scratch stay aligned) */
size_t tree_exec__span(const compi_datatype_t *dt, size_t count);

/* the nonblocking and persistent entry point of every tree closure: the call's
   collective over the tree as a schedule (tree_exec_sched.c), segmented like the
   blocking executors */
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

/* the executors, one per kind (tree_exec_<kind>.c) */
compi_status_t tree_exec__barrier(coll_closure_t *self, const coll_call_t *call);
compi_status_t tree_exec__bcast(coll_closure_t *self, const coll_call_t *call);
compi_status_t tree_exec__reduce(coll_closure_t *self, const coll_call_t *call);
compi_status_t tree_exec__allreduce(coll_closure_t *self, const coll_call_t *call);
compi_status_t tree_exec__gather(coll_closure_t *self, const coll_call_t *call);
compi_status_t tree_exec__scatter(coll_closure_t *self, const coll_call_t *call);
compi_status_t tree_exec__allgather(coll_closure_t *self, const coll_call_t *call);

/* the state of a closure over `tree` (or a forest) for `kind`, with the preorder (gather,
   scatter, allgather, reduce, allreduce) and the reduction pieces (reduce, allreduce);
   takes `tree` over, also on failure.  Does not validate: the caller has. */
tree_exec_t *tree_exec__new(coll_kind_t kind, topo_tree_t *tree, const coll_params_t *params,
                            compi_status_t *st_p);
void tree_exec__free(void *state);

/* The gather phase of gather and allgather: this rank's block (`count` x `dt` at buf,
   blk bytes packed) and its children's subtrees go to its parent, packed in preorder.
   At the root *packed_p gets the blocks of the whole tree in preorder (position 0, its
   own, left unwritten), in the closure's scratch (valid until the next use of it), or
   NULL when it has no children; elsewhere NULL. */
compi_status_t tree_exec__gather_up(tree_exec_t *s, const void *buf, size_t count,
                                    compi_datatype_t *dt, size_t blk, compi_comm_t *comm, int tag,
                                    char **packed_p);

/* The reduce phase of reduce and allreduce: `count` x `dt` of input combined up the tree
   (or each tree of a forest) in s->pieces order, pipelined by params.segsize; a root ends
   with its tree's result in acc.  acc holds `count` elements on every rank with parent
   -1 and may be input (in place); elsewhere acc may be NULL (inner ranks then build
   their partial result in the scratch). */
compi_status_t tree_exec__reduce_up(tree_exec_t *s, const void *input, void *acc,
                                    size_t count, compi_datatype_t *dt, compi_op_t *op,
                                    compi_comm_t *comm, int tag);

/* bcast of `count` x `dt` at buf from the tree's root (each root of a forest), pipelined
   by params.segsize (also the second half of allreduce and allgather) */
compi_status_t tree_exec__bcast_buf(tree_exec_t *s, void *buf, size_t count,
                                    compi_datatype_t *dt, compi_comm_t *comm, int tag);

#endif
