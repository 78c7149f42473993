/*
 * tree.c -- trees as plain values: building from parent[], validation, the classic
 * shapes (flat, binomial, k-nomial, in-order binomial, k-ary, chain) and their depth.
 *
 * Every builder works in ranks relative to the root (rel = (rank - root + size) % size),
 * so the root is always relative rank 0 and any root gives the same shape, rotated.
 *
 *   flat, 5 ranks:   0            k-ary, k=2, 7 ranks:     0          chain: 0-1-2-3
 *                 / / \ \                               /   \
 *                1 2   3 4                             1     2
 *                                                     / \   / \
 *                                                    3   4 5   6
 */
#include "topologies/tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void topo_tree_free(topo_tree_t *t)
{
    if (t == NULL) {
        return;
    }
    free(t->parent);
    free(t->child_off);
    free(t->children);
    free(t);
}

static topo_tree_t *tree__alloc(int size, int root)
{
    topo_tree_t *t = calloc(1, sizeof(*t));
    if (t == NULL) {
        return NULL;
    }
    t->size = size;
    t->root = root;
    t->parent = malloc((size_t)size * sizeof(int));
    t->child_off = calloc((size_t)size + 1, sizeof(int));
    /* size - 1 children; at least one slot so malloc(0) never returns NULL */
    t->children = malloc((size_t)(size > 1 ? size - 1 : 1) * sizeof(int));
    if (t->parent == NULL || t->child_off == NULL || t->children == NULL) {
        topo_tree_free(t);
        return NULL;
    }
    return t;
}

compi_status_t topo_tree_from_parents(int size, int root, const int *parent, const int *order,
                                      topo_tree_t **tree_p)
{
    *tree_p = NULL;
    if (size < 1 || root < 0 || root >= size) {
        return COMPI_ERR_INVALID_PARAM;
    }
    topo_tree_t *t = tree__alloc(size, root);
    int *fill = NULL;
    if (t == NULL) {
        goto err;
    }
    memcpy(t->parent, parent, (size_t)size * sizeof(int));

    /* count each rank's children (parents out of range are left for validate to name,
       they just get no slot here) */
    int nchild = 0;
    for (int r = 0; r < size; r++) {
        int p = parent[r];
        if (p >= 0 && p < size && nchild < size - 1) {
            t->child_off[p + 1]++;
            nchild++;
        }
    }
    for (int r = 0; r < size; r++) {
        t->child_off[r + 1] += t->child_off[r];
    }
    fill = malloc((size_t)size * sizeof(int));
    if (fill == NULL) {
        goto err;
    }
    memcpy(fill, t->child_off, (size_t)size * sizeof(int));
    int placed = 0;
    for (int i = 0; i < size; i++) {
        int r = order != NULL ? order[i] : i;
        if (r < 0 || r >= size) {
            continue; /* a bad order[] leaves a hole that validate reports */
        }
        int p = parent[r];
        if (p >= 0 && p < size && placed < nchild && fill[p] < t->child_off[p + 1]) {
            t->children[fill[p]++] = r;
            placed++;
        }
    }
    /* holes (order[] not a permutation) get -1, which validate names */
    for (int p = 0; p < size; p++) {
        while (fill[p] < t->child_off[p + 1]) {
            t->children[fill[p]++] = -1;
        }
    }
    free(fill);
    *tree_p = t;
    return COMPI_OK;
err:
    free(fill);
    topo_tree_free(t);
    return COMPI_ERR_NO_MEMORY;
}

compi_status_t topo_tree_validate(const topo_tree_t *t, int size, int root, char *why, size_t len)
{
    int *seen = NULL;
    char dummy[1];
    if (why == NULL || len == 0) {
        why = dummy;
        len = sizeof(dummy);
    }
    why[0] = '\0';
    if (t == NULL) {
        snprintf(why, len, "no tree");
        return COMPI_ERR_INVALID_PARAM;
    }
    if (t->size != size) {
        snprintf(why, len, "tree built for %d ranks, communicator has %d", t->size, size);
        return COMPI_ERR_INVALID_PARAM;
    }
    if (t->root != root) {
        snprintf(why, len, "the tree has root %d but the call's root is %d", t->root, root);
        return COMPI_ERR_INVALID_PARAM;
    }
    if (root < 0 || root >= size) {
        snprintf(why, len, "root %d is outside 0..%d", root, size - 1);
        return COMPI_ERR_INVALID_PARAM;
    }
    if (t->parent[root] != -1) {
        snprintf(why, len, "the root %d has parent %d (the root's parent must be -1)", root,
                 t->parent[root]);
        return COMPI_ERR_INVALID_PARAM;
    }
    for (int r = 0; r < size; r++) {
        int p = t->parent[r];
        if (r == root) {
            continue;
        }
        if (p == -1) {
            snprintf(why, len, "rank %d has no parent but is not the root %d", r, root);
            return COMPI_ERR_INVALID_PARAM;
        }
        if (p < 0 || p >= size) {
            snprintf(why, len, "rank %d has parent %d, outside 0..%d", r, p, size - 1);
            return COMPI_ERR_INVALID_PARAM;
        }
        if (p == r) {
            snprintf(why, len, "rank %d is its own parent", r);
            return COMPI_ERR_INVALID_PARAM;
        }
    }

    /* cycles: walk up from every rank; seen[x] = the walk that visited x (1-based), so
       each rank is visited by one walk only and the whole check is O(size) */
    seen = calloc((size_t)size, sizeof(int));
    if (seen == NULL) {
        snprintf(why, len, "out of memory validating the tree");
        return COMPI_ERR_NO_MEMORY;
    }
    seen[root] = -1;
    for (int r = 0; r < size; r++) {
        int x = r;
        while (seen[x] == 0) {
            seen[x] = r + 1;
            x = t->parent[x];
        }
        if (seen[x] == r + 1) {
            /* x is on a cycle: name it (the ranks in the cycle, at most a few) */
            int n = snprintf(why, len, "ranks %d", x);
            for (int y = t->parent[x]; y != x && n < (int)len; y = t->parent[y]) {
                int last = t->parent[y] == x;
                n += snprintf(why + n, len - (size_t)n, "%s%d", last ? " and " : ", ", y);
            }
            if (n < (int)len) {
                snprintf(why + n, len - (size_t)n, " form a cycle");
            }
            goto fail;
        }
    }

    /* the CSR arrays must agree with parent[]: each non-root rank exactly once, under
       its parent */
    memset(seen, 0, (size_t)size * sizeof(int));
    if (t->child_off[0] != 0 || t->child_off[size] != size - 1) {
        snprintf(why, len, "the children lists hold %d entries, expected %d",
                 t->child_off[size] - t->child_off[0], size - 1);
        goto fail;
    }
    for (int p = 0; p < size; p++) {
        if (t->child_off[p + 1] < t->child_off[p]) {
            snprintf(why, len, "the children list of rank %d is malformed", p);
            goto fail;
        }
        for (int i = t->child_off[p]; i < t->child_off[p + 1]; i++) {
            int c = t->children[i];
            if (c < 0 || c >= size) {
                snprintf(why, len, "rank %d has child %d, outside 0..%d", p, c, size - 1);
                goto fail;
            }
            if (seen[c]) {
                snprintf(why, len, "rank %d appears twice as a child", c);
                goto fail;
            }
            seen[c] = 1;
            if (t->parent[c] != p) {
                snprintf(why, len, "rank %d is listed as a child of %d but its parent is %d", c, p,
                         t->parent[c]);
                goto fail;
            }
        }
    }
    for (int r = 0; r < size; r++) {
        if (r != root && !seen[r]) {
            snprintf(why, len, "rank %d is missing from the children lists", r);
            goto fail;
        }
    }
    free(seen);
    return COMPI_OK;
fail:
    free(seen);
    return COMPI_ERR_INVALID_PARAM;
}

/* ---- builders --------------------------------------------------------------------- */

/* a tree from relative parents prel[] (prel[0] = -1) and each relative rank's children
   in serving order given by the relative order[] */
static topo_tree_t *tree__from_rel(int size, int root, const int *prel, const int *order_rel)
{
    int *parent = malloc((size_t)size * sizeof(int));
    int *order = malloc((size_t)size * sizeof(int));
    topo_tree_t *t = NULL;
    if (parent == NULL || order == NULL) {
        goto out;
    }
    for (int rel = 0; rel < size; rel++) {
        int r = (rel + root) % size;
        parent[r] = prel[rel] < 0 ? -1 : (prel[rel] + root) % size;
        order[rel] = ((order_rel != NULL ? order_rel[rel] : rel) + root) % size;
    }
    if (topo_tree_from_parents(size, root, parent, order, &t) != COMPI_OK) {
        t = NULL;
    }
out:
    free(parent);
    free(order);
    return t;
}

static int *tree__rel_parents(int size)
{
    if (size < 1) {
        return NULL;
    }
    int *prel = malloc((size_t)size * sizeof(int));
    if (prel != NULL) {
        prel[0] = -1;
    }
    return prel;
}

topo_tree_t *topo_tree_flat(int size, int root)
{
    return topo_tree_kary(size, root, size > 1 ? size - 1 : 1);
}

topo_tree_t *topo_tree_chain(int size, int root)
{
    return topo_tree_kary(size, root, 1);
}

/*
 * Binomial: the parent of relative rank i > 0 is i with its lowest set bit cleared; a
 * node serves its children largest subtree first (4, 2, 1 under 0 in the drawing of
 * tree.h), since that subtree has the longest way to go.
 */
topo_tree_t *topo_tree_binomial(int size, int root)
{
    if (size < 1 || root < 0 || root >= size) {
        return NULL;
    }
    int *prel = tree__rel_parents(size);
    int *order = malloc((size_t)size * sizeof(int));
    topo_tree_t *t = NULL;
    if (prel == NULL || order == NULL) {
        goto out;
    }
    for (int i = 1; i < size; i++) {
        prel[i] = i & (i - 1);
    }
    /* children are i + 2^j with decreasing j: ordering all ranks by decreasing lowest
       set bit (ties: any order, each parent has one child per bit) serves them so */
    int n = 0;
    order[n++] = 0;
    for (int bit = 1 << 30; bit > 0; bit >>= 1) {
        for (int i = bit; i < size; i += 2 * bit) {
            order[n++] = i;
        }
    }
    t = tree__from_rel(size, root, prel, order);
out:
    free(prel);
    free(order);
    return t;
}

/* the radix-k parent of v > 0 (see tree.h) */
static int tree__knomial_parent(long v, long k)
{
    long m = 1;
    while (v % (k * m) == 0) {
        m *= k;
    }
    return (int)(v - v % (k * m));
}

/* ranks 0..n-1 of a radix-k tree, ordered so that each parent's children come out
   smallest power of k first, then by digit: order by increasing k^j (the place of v's
   lowest non-zero digit), then by v */
static void tree__knomial_order(int n, long k, int *order)
{
    int c = 0;
    order[c++] = 0;
    for (long m = 1; m < n; m *= k) {
        for (long v = m; v < n; v += m) {
            if (v % (k * m) != 0) {
                order[c++] = (int)v;
            }
        }
        if (m > n / k) {
            break;
        }
    }
}

/*
 * k-nomial, radix k: the tree of gather/knomial.c and scatter/knomial.c (and, k = 2, of
 * the binomial reduce).  Every subtree is a contiguous range of relative ranks.
 *
 *   k = 3, 9 ranks:        0
 *                      / /  \  \
 *                     1 2    3    6
 *                           / \  / \
 *                          4  5 7   8
 */
topo_tree_t *topo_tree_knomial(int size, int root, int k)
{
    if (size < 1 || root < 0 || root >= size || k < 2) {
        return NULL;
    }
    int *prel = tree__rel_parents(size);
    int *order = malloc((size_t)size * sizeof(int));
    topo_tree_t *t = NULL;
    if (prel == NULL || order == NULL) {
        goto out;
    }
    for (int v = 1; v < size; v++) {
        prel[v] = tree__knomial_parent(v, k);
    }
    tree__knomial_order(size, k, order);
    t = tree__from_rel(size, root, prel, order);
out:
    free(prel);
    free(order);
    return t;
}

/*
 * In-order binomial: ranks keep their own order, so every subtree covers a contiguous
 * range and a non-commutative reduction combines in rank order.  Root 0 is the radix-2
 * tree over all ranks (the tree of reduce/in_order_binomial.c); another root r serves the
 * radix-2 tree of r..size-1 and the one of 0..r-1 (rooted at 0, served first).
 *
 *   8 ranks, root 3:        3          subtrees: 0: [0,2]  4: [4]  5: [5,6]  7: [7]
 *                       / / \ \
 *                      0 4   5  7
 *                     / \    |
 *                    1   2   6
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
    /* 0..root-1 first (rooted at 0, under the root), then root..size-1 */
    int nlo = root, nhi = size - root, c = 0;
    if (nlo > 0) {
        tree__knomial_order(nlo, 2, order);
        c = nlo;
        for (int v = 1; v < nlo; v++) {
            parent[v] = tree__knomial_parent(v, 2);
        }
        parent[0] = root;
    }
    tree__knomial_order(nhi, 2, order + c);
    for (int i = c; i < size; i++) {
        order[i] += root;
    }
    parent[root] = -1;
    for (int v = 1; v < nhi; v++) {
        parent[root + v] = root + tree__knomial_parent(v, 2);
    }
    if (topo_tree_from_parents(size, root, parent, order, &t) != COMPI_OK) {
        t = NULL;
    }
out:
    free(parent);
    free(order);
    return t;
}

/* k-ary: the children of relative rank i are k*i + 1 .. k*i + k (k = 1: a chain) */
topo_tree_t *topo_tree_kary(int size, int root, int k)
{
    if (size < 1 || root < 0 || root >= size || k < 1) {
        return NULL;
    }
    int *prel = tree__rel_parents(size);
    topo_tree_t *t = NULL;
    if (prel == NULL) {
        return NULL;
    }
    for (int i = 1; i < size; i++) {
        prel[i] = (i - 1) / k;
    }
    t = tree__from_rel(size, root, prel, NULL);
    free(prel);
    return t;
}

void topo_tree_reverse_children(topo_tree_t *t)
{
    for (int r = 0; r < t->size; r++) {
        for (int i = t->child_off[r], j = t->child_off[r + 1] - 1; i < j; i++, j--) {
            int x = t->children[i];
            t->children[i] = t->children[j];
            t->children[j] = x;
        }
    }
}

int topo_tree_depth(const topo_tree_t *t)
{
    /* a rank's depth is its parent's plus one; memoised so every rank is walked once.
       The tree is assumed valid (no cycle). */
    int *d = malloc((size_t)t->size * sizeof(int));
    int max = 0;
    if (d == NULL) {
        return -1;
    }
    for (int r = 0; r < t->size; r++) {
        d[r] = -1;
    }
    d[t->root] = 0;
    for (int r = 0; r < t->size; r++) {
        int x = r, up = 0;
        while (d[x] < 0) {
            x = t->parent[x];
            up++;
        }
        int depth = d[x] + up;
        /* fill in the ranks on the walk */
        for (int y = r, dy = depth; d[y] < 0; y = t->parent[y], dy--) {
            d[y] = dy;
        }
        if (depth > max) {
            max = depth;
        }
    }
    free(d);
    return max;
}

int topo_tree_is_ordered(const topo_tree_t *t)
{
    /* every subtree must cover a contiguous range of ranks: compute each subtree's
       min, max and count bottom-up (children before parents: reverse BFS order) */
    int n = t->size, ok = 1;
    int *lo = malloc((size_t)n * sizeof(int));
    int *hi = malloc((size_t)n * sizeof(int));
    int *cnt = malloc((size_t)n * sizeof(int));
    int *bfs = malloc((size_t)n * sizeof(int));
    if (lo == NULL || hi == NULL || cnt == NULL || bfs == NULL) {
        ok = -1;
        goto out;
    }
    int head = 0, tail = 0;
    for (int r = 0; r < n; r++) {
        if (t->parent[r] < 0) {
            bfs[tail++] = r; /* the root; every root of a forest */
        }
    }
    while (head < tail) {
        int r = bfs[head++];
        for (int i = t->child_off[r]; i < t->child_off[r + 1]; i++) {
            bfs[tail++] = t->children[i];
        }
    }
    for (int r = 0; r < n; r++) {
        lo[r] = hi[r] = r;
        cnt[r] = 1;
    }
    for (int i = n - 1; i >= 0; i--) {
        int r = bfs[i];
        if (hi[r] - lo[r] + 1 != cnt[r]) {
            ok = 0;
            break;
        }
        int p = t->parent[r];
        if (p >= 0) {
            lo[p] = lo[r] < lo[p] ? lo[r] : lo[p];
            hi[p] = hi[r] > hi[p] ? hi[r] : hi[p];
            cnt[p] += cnt[r];
        }
    }
out:
    free(lo);
    free(hi);
    free(cnt);
    free(bfs);
    return ok;
}
