/*
 * tree.h -- trees as plain values, and closures that run any tree.
 *
 * A tree names, for every rank of a communicator, its parent and its ordered children.
 * Creators build trees in Scheme (flat, binomial, k-ary, chain, or any shape a user
 * writes); the bridge converts them to coll_tree_t, coll_tree_validate() checks them
 * (every rank exactly once, the right root, no cycle) and coll_closure_tree() wraps one
 * in a native executor for bcast, reduce, allreduce, barrier, gather, scatter or
 * allgather.
 *
 *   binomial, 8 ranks, root 0:      0
 *                                 / | \
 *                                4  2  1
 *                               / \  \
 *                              6   5  3
 *                              |
 *                              7
 *
 * Ownership: a coll_tree_t owns its arrays; coll_closure_tree() takes the tree over
 * (the closure frees it).
 */
#ifndef COMPI_COLL_TREE_H
#define COMPI_COLL_TREE_H

#include "coll.h"

typedef struct coll_tree {
    int size;
    int root;
    int *parent;    /* [size]; -1 for the root */
    int *child_off; /* [size + 1]: the children of r are children[child_off[r]..child_off[r+1]) */
    int *children;  /* [size - 1], each rank's children in the order they are served */
} coll_tree_t;

/* From parent[] alone; children are ordered as given by order[] (a permutation of the
   ranks, NULL for ascending rank order). */
compi_status_t coll_tree_from_parents(int size, int root, const int *parent, const int *order,
                                      coll_tree_t **tree_p);
void coll_tree_free(coll_tree_t *t);

/* COMPI_OK, or COMPI_ERR_INVALID_PARAM with the reason in why ("rank 5 appears twice") */
compi_status_t coll_tree_validate(const coll_tree_t *t, int size, int root, char *why,
                                  size_t len);

/* Builders (also used by tests and the C fallbacks). */
coll_tree_t *coll_tree_flat(int size, int root);
coll_tree_t *coll_tree_binomial(int size, int root);
coll_tree_t *coll_tree_kary(int size, int root, int k);
coll_tree_t *coll_tree_chain(int size, int root);

/* depth of the tree (root alone: 0); the tree must be valid */
int coll_tree_depth(const coll_tree_t *t);

/* 1 when every subtree covers a contiguous range of ranks, which is what a reduction
   with a non-commutative op needs to combine in rank order; 0 otherwise (-1: no memory).
   The tree must be valid, or a forest whose every rank reaches a root (parent -1). */
int coll_tree_is_ordered(const coll_tree_t *t);

/* Can `tree` serve `call`?  The communicator's size, the root of rooted kinds, and an
   ordered tree for non-commutative reductions.  COMPI_OK, or COMPI_ERR_INVALID_PARAM
   with the reason in why.  For creators and the bridge, at closure-build time; the
   executors check the same at run time (and return before sending anything). */
compi_status_t coll_tree_check_call(const coll_tree_t *tree, const coll_call_t *call, char *why,
                                    size_t len);

/*
 * A closure that runs `kind` (barrier, bcast, reduce, allreduce, gather, scatter,
 * allgather) over `tree`, pipelined in segments of params->segsize bytes where the kind
 * allows it (bcast, reduce, allreduce, and the bcast half of allgather).  Takes over
 * `tree` (also on failure).  NULL when the kind has no tree executor
 * (COMPI_ERR_UNSUPPORTED in *st_p), the tree is invalid (COMPI_ERR_INVALID_PARAM) or
 * memory runs out.  The name is "<kind>:tree(<n> ranks,root <r>,depth <d>,#<hash of the
 * shape>[,segsize=<s>])", so the closure's signature changes with the tree's shape.
 */
coll_closure_t *coll_closure_tree(coll_kind_t kind, coll_tree_t *tree,
                                  const coll_params_t *params, compi_status_t *st_p);

#endif
