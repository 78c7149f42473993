/*
 * tree_more.c -- stand-ins for two builders that belong in tree.c, where they are being
 * written at the same time: the in-order binomial tree of reduce/in_order_binomial.c and
 * the k-nomial tree of gather/knomial.c.  The merge keeps tree.c's and drops this file
 * (and its line in topologies/Makefile.inc).
 *
 *   in-order binomial, 8 ranks:  0 -> 1, 2, 4    2 -> 3    4 -> 5, 6    6 -> 7
 *   k-nomial, k = 3, 9 ranks:    0 -> 1, 2, 3, 6    3 -> 4, 5    6 -> 7, 8
 */
#include "topologies/tree.h"

#include <stdlib.h>

topo_tree_t *topo_tree_in_order_binomial(int size, int root);
topo_tree_t *topo_tree_knomial(int size, int root, int k);

/* parent[] and order[] (children listed parent by parent) to a tree; frees neither */
static topo_tree_t *more__tree(int size, int root, const int *parent, const int *order)
{
    topo_tree_t *t = NULL;
    if (topo_tree_from_parents(size, root, parent, order, &t) != COMPI_OK) {
        return NULL;
    }
    return t;
}

/*
 * In-order binomial: rooted at rank 0 in the ranks' own order, the parent of v is v with
 * its lowest set bit cleared and a rank serves its children smallest subtree first (v+1,
 * v+2, v+4, ...), so every subtree is a contiguous range of ranks.  Another root: the
 * same tree with the path from 0 to the root turned around, the root first.
 */
topo_tree_t *topo_tree_in_order_binomial(int size, int root)
{
    if (size < 1 || root < 0 || root >= size) {
        return NULL;
    }
    int *parent = malloc((size_t)size * sizeof(int));
    int *order = malloc((size_t)size * sizeof(int));
    topo_tree_t *t = NULL;
    if (parent == NULL || order == NULL) {
        goto out;
    }
    parent[0] = -1;
    for (int v = 1; v < size; v++) {
        parent[v] = v & (v - 1);
    }
    /* turn the path around: every rank on it becomes the parent of its old parent */
    int n = 0;
    for (int x = root, up = -1; x != -1;) {
        int p = parent[x];
        parent[x] = up;
        order[n++] = x;
        up = x;
        x = p;
    }
    /* ranks by increasing lowest set bit: each rank's children come smallest first;
       the ranks of the path are already placed (first, so they are served first) */
    for (int bit = 1; bit < size; bit <<= 1) {
        for (int v = bit; v < size; v += 2 * bit) {
            int on_path = 0;
            for (int i = 0; i < n && !on_path; i++) {
                on_path = order[i] == v;
            }
            if (!on_path) {
                order[n++] = v;
            }
        }
    }
    if (n == size) {
        t = more__tree(size, root, parent, order);
    }
out:
    free(parent);
    free(order);
    return t;
}

/*
 * K-nomial in ranks relative to the root: the parent of v > 0 is v with its lowest
 * non-zero base-k digit cleared; a rank serves its children lowest digit first (v + 1,
 * ..., v + (k-1), v + k, ..., v + (k-1)k, ...), as the gather receives them.
 */
topo_tree_t *topo_tree_knomial(int size, int root, int k)
{
    if (size < 1 || root < 0 || root >= size || k < 2) {
        return NULL;
    }
    int *parent = malloc((size_t)size * sizeof(int));
    int *order = malloc((size_t)size * sizeof(int));
    topo_tree_t *t = NULL;
    if (parent == NULL || order == NULL) {
        goto out;
    }
    parent[root] = -1;
    order[0] = root;
    int n = 1;
    /* relative ranks by increasing place of their lowest non-zero digit */
    for (long place = 1; place < size; place *= k) {
        for (long v = place; v < size; v += place) {
            if ((v / place) % k != 0) {
                long p = v - ((v / place) % k) * place;
                parent[(v + root) % size] = (int)((p + root) % size);
                order[n++] = (int)((v + root) % size);
            }
        }
    }
    t = more__tree(size, root, parent, order);
out:
    free(parent);
    free(order);
    return t;
}
