/*
 * tree_exec.h -- private to the tree executors (tree_exec*.c): the state a tree closure
 * holds and the helpers the executors share.
 *
 * Ownership: a tree_exec_t belongs to its closure and is freed by tree_exec__free (the
 * closure's free_state), tree included.  Requests posted by an executor are waited for
 * and freed before it returns, on error paths too.
 */
#ifndef COMPI_COLL_TREE_EXEC_H
#define COMPI_COLL_TREE_EXEC_H

#include "pml.h"
#include "tree.h"

typedef struct tree_exec {
    coll_tree_t *tree;
    coll_kind_t kind;
    coll_params_t params;
    int ordered; /* coll_tree_is_ordered(tree): non-commutative reductions allowed */
    /* gather and scatter: the ranks in preorder (each rank, then its children's subtrees
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
} tree_exec_t;

/* size + root (rooted kinds) + op order: the run-time twin of coll_tree_check_call */
compi_status_t tree_exec__check(const tree_exec_t *s, const coll_call_t *call);

static inline int tree_exec__nchildren(const coll_tree_t *t, int r)
{
    return t->child_off[r + 1] - t->child_off[r];
}

static inline const int *tree_exec__children(const coll_tree_t *t, int r)
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

/* bcast of `count` x `dt` at buf from the tree's root, pipelined by params.segsize
   (also the second half of allreduce) */
compi_status_t tree_exec__bcast_buf(const tree_exec_t *s, void *buf, size_t count,
                                    compi_datatype_t *dt, compi_comm_t *comm, int tag);

#endif
