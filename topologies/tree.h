/*
 * tree.h -- trees as plain values: builders, validation, shape queries.
 *
 * A tree names, for every rank of a communicator, its parent and its ordered children.
 * Creators build trees in Scheme (flat, binomial, k-ary, chain, or any shape a user
 * writes); the bridge converts them to topo_tree_t, topo_tree_validate() checks them
 * (every rank exactly once, the right root, no cycle) and coll_closure_tree()
 * (core/coll/executors/tree_closure.h) wraps one in a native executor for bcast,
 * reduce, allreduce, barrier, gather, scatter or allgather.
 *
 *   binomial, 8 ranks, root 0:      0
 *                                 / | \
 *                                4  2  1
 *                               / \  \
 *                              6   5  3
 *                              |
 *                              7
 *
 * Ownership: a topo_tree_t owns its arrays; coll_closure_tree() takes the tree over
 * (the closure frees it).
 */
#ifndef COMPI_TOPO_TREE_H
#define COMPI_TOPO_TREE_H

#include "core/include/compi_status.h"

#include <stddef.h>

typedef struct topo_tree {
    int size;
    int root;
    int *parent;    /* [size]; -1 for the root */
    int *child_off; /* [size + 1]: the children of r are children[child_off[r]..child_off[r+1]) */
    int *children;  /* [size - 1], each rank's children in the order they are served */
} topo_tree_t;

/* From parent[] alone; children are ordered as given by order[] (a permutation of the
   ranks, NULL for ascending rank order). */
compi_status_t topo_tree_from_parents(int size, int root, const int *parent, const int *order,
                                      topo_tree_t **tree_p);
void topo_tree_free(topo_tree_t *t);

/* COMPI_OK, or COMPI_ERR_INVALID_PARAM with the reason in why ("rank 5 appears twice") */
compi_status_t topo_tree_validate(const topo_tree_t *t, int size, int root, char *why,
                                  size_t len);

/* Builders: the shapes of the native tree algorithms (core/coll/algorithms/, whose
   coll_algo_t.tree calls them) and of creators' trees.  Each returns a new valid tree,
   NULL on a bad argument or out of memory.  Shapes in relative ranks (rank - root mod
   size) unless said otherwise; tree.c draws them.
   - flat: the root serves root+1, root+2, ... in that order;
   - binomial: parent of v is v without its lowest set bit; largest subtree served
     first (bcast);
   - knomial: radix k (k >= 2): parent of v is v - v mod k^(j+1) for the lowest j with
     v mod k^(j+1) != 0; children v + i k^j, smallest j first, then i = 1..k-1 (gather,
     scatter; k = 2 is the binomial tree with the smallest subtree first, as reduce
     receives);
   - in_order_binomial: over absolute ranks, every subtree a contiguous range: the root
     r serves the radix-2 tree of ranks r..size-1 (r + 1, r + 2, r + 4, ...) and, when
     r > 0, first the radix-2 tree of ranks 0..r-1 rooted at 0 (root 0: knomial(size, 0,
     2));
   - kary: the children of v are k v + 1 .. k v + k;
   - chain: v's child is v + 1. */
topo_tree_t *topo_tree_flat(int size, int root);
topo_tree_t *topo_tree_binomial(int size, int root);
topo_tree_t *topo_tree_knomial(int size, int root, int k);
topo_tree_t *topo_tree_in_order_binomial(int size, int root);
topo_tree_t *topo_tree_kary(int size, int root, int k);
topo_tree_t *topo_tree_chain(int size, int root);
/* reverse every rank's serving order in place (the k-nomial scatter serves its largest
   subtree first; knomial with k = 2, reversed, is binomial) */
void topo_tree_reverse_children(topo_tree_t *t);

/* depth of the tree (root alone: 0); the tree must be valid */
int topo_tree_depth(const topo_tree_t *t);

/* 1 when every subtree covers a contiguous range of ranks, which is what a reduction
   with a non-commutative op needs to combine in rank order; 0 otherwise (-1: no memory).
   The tree must be valid, or a forest whose every rank reaches a root (parent -1). */
int topo_tree_is_ordered(const topo_tree_t *t);

/* ---- drawing (tree_draw.c) ----------------------------------------------------------- */

/* The subtree of rank `from` as text, the drawing compi-tree prints: one line a rank,
   "RANK (LABEL)MARK\n", each child indented two spaces more than its parent, children in
   serving order.  labels[r] (NULL: no " (LABEL)") and marks[r] (appended as given, e.g.
   "  [WAN]") may be NULL arrays.  t may be a forest (draw each root in turn); a rank
   listed twice is drawn once.  A malloc'ed string the caller frees; NULL: no memory. */
char *topo_tree_draw(const topo_tree_t *t, int from, const char *const *labels,
                     const char *const *marks);

#endif
