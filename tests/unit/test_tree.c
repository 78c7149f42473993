/*
 * test_tree.c -- trees without MPI: the builders (flat, binomial, k-ary, chain) for
 * sizes 1 to 33 and every root give valid trees of the expected depth with every rank
 * exactly once; topo_tree_from_parents orders children as asked; validation names the
 * problem of a tree with a missing rank, a duplicate, a cycle, a wrong root or size;
 * ordered trees (for non-commutative reductions) are recognised; tree closures are built
 * for the six kinds, refused for the others and for invalid trees.  The builders of the
 * native tree algorithms give the shapes those algorithms always had: the k-nomial tree
 * of gather/scatter knomial (parents and child order against the radix-k rules), the
 * in-order binomial tree (ordered for every root, the radix-2 tree at root 0), reversed
 * children (k-nomial k = 2 reversed is binomial); every tree algorithm of the registry
 * builds a valid tree and becomes a tree closure named as the algorithm.
 */
#include "core/coll/executors/tree_closure.h"
#include "core/coll/wrappers/wrap.h"
#include "tests/unit/unit_tap.h"
#include "topologies/tree.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 33

/* ceil(log2(n)) for n >= 1 */
static int ceil_log2(int n)
{
    int d = 0;
    while ((1 << d) < n) {
        d++;
    }
    return d;
}

/* depth of the binomial tree of n ranks: rank i sits at depth popcount(i) */
static int binomial_depth(int n)
{
    int d = 0;
    for (int i = 0; i < n; i++) {
        int bits = __builtin_popcount((unsigned)i);
        d = bits > d ? bits : d;
    }
    return d;
}

/* depth of the complete k-ary tree of n nodes: the smallest d with
   1 + k + ... + k^d >= n, i.e. ceil(log_k(n(k-1)+1)) - 1 */
static int kary_depth(int n, int k)
{
    if (k == 1) {
        return n - 1;
    }
    long full = 1, level = 1;
    int d = 0;
    while (full < n) {
        level *= k;
        full += level;
        d++;
    }
    return d;
}

/* every rank exactly once: the root with parent -1, every other rank once as a child */
static void check_each_once(const topo_tree_t *t)
{
    int seen[MAXN] = {0};
    ck_assert_int_eq(t->child_off[0], 0);
    ck_assert_int_eq(t->child_off[t->size], t->size - 1);
    for (int i = 0; i < t->size - 1; i++) {
        int c = t->children[i];
        ck_assert(c >= 0 && c < t->size);
        ck_assert_int_ne(c, t->root);
        ck_assert_int_eq(seen[c], 0);
        seen[c] = 1;
    }
    ck_assert_int_eq(t->parent[t->root], -1);
}

static void check_built(topo_tree_t *t, int n, int root, int depth)
{
    char why[128];
    ck_assert_ptr_nonnull(t);
    ck_assert_msg(topo_tree_validate(t, n, root, why, sizeof(why)) == COMPI_OK, "n=%d root=%d: %s",
                  n, root, why);
    check_each_once(t);
    ck_assert_msg(topo_tree_depth(t) == depth, "n=%d root=%d: depth %d, expected %d", n, root,
                  topo_tree_depth(t), depth);
    topo_tree_free(t);
}

START_TEST(builders_all_sizes_and_roots)
{
    for (int n = 1; n <= MAXN; n++) {
        for (int root = 0; root < n; root++) {
            check_built(topo_tree_flat(n, root), n, root, n > 1 ? 1 : 0);
            /* exact depth, within the classic bound ceil(log2 n) (equal for powers of 2) */
            ck_assert_int_le(binomial_depth(n), ceil_log2(n));
            check_built(topo_tree_binomial(n, root), n, root, binomial_depth(n));
            check_built(topo_tree_chain(n, root), n, root, n - 1);
            for (int k = 1; k <= 5; k++) {
                check_built(topo_tree_kary(n, root, k), n, root, kary_depth(n, k));
            }
        }
    }
}
END_TEST

START_TEST(builders_reject_bad_arguments)
{
    ck_assert_ptr_null(topo_tree_binomial(0, 0));
    ck_assert_ptr_null(topo_tree_flat(4, 4));
    ck_assert_ptr_null(topo_tree_chain(4, -1));
    ck_assert_ptr_null(topo_tree_kary(4, 0, 0));
}
END_TEST

/* the binomial tree of tree.h's drawing: 0 -> 4 2 1, 4 -> 6 5, 6 -> 7, 2 -> 3 */
START_TEST(binomial_shape)
{
    topo_tree_t *t = topo_tree_binomial(8, 0);
    static const int parent[8] = {-1, 0, 0, 2, 0, 4, 4, 6};
    static const int off[9] = {0, 3, 3, 4, 4, 6, 6, 7, 7};
    static const int children[7] = {4, 2, 1, 3, 6, 5, 7};
    ck_assert_mem_eq(t->parent, parent, sizeof(parent));
    ck_assert_mem_eq(t->child_off, off, sizeof(off));
    ck_assert_mem_eq(t->children, children, sizeof(children));
    topo_tree_free(t);

    /* rotated: root 3 of 5 ranks; relative ranks 0..4 are ranks 3 4 0 1 2 */
    t = topo_tree_binomial(5, 3);
    static const int parent5[5] = {3, 0, 3, -1, 3};
    ck_assert_mem_eq(t->parent, parent5, sizeof(parent5));
    static const int served5[3] = {2, 0, 4}; /* relative 4, 2, 1 */
    ck_assert_mem_eq(t->children + t->child_off[3], served5, sizeof(served5));
    topo_tree_free(t);
}
END_TEST

START_TEST(from_parents_orders_children)
{
    static const int parent[5] = {-1, 0, 0, 0, 1};
    static const int order[5] = {3, 4, 1, 0, 2};
    topo_tree_t *t = NULL;
    ck_assert_int_eq(topo_tree_from_parents(5, 0, parent, order, &t), COMPI_OK);
    ck_assert_int_eq(topo_tree_validate(t, 5, 0, NULL, 0), COMPI_OK);
    static const int want[4] = {3, 1, 2, 4};
    ck_assert_mem_eq(t->children, want, sizeof(want));
    topo_tree_free(t);
    ck_assert_int_eq(topo_tree_from_parents(5, 0, parent, NULL, &t), COMPI_OK);
    static const int asc[4] = {1, 2, 3, 4};
    ck_assert_mem_eq(t->children, asc, sizeof(asc));
    topo_tree_free(t);
}
END_TEST

/* builds parent[0..n) and expects validation to fail with `want` in the message */
static void expect_invalid(int n, int root, const int *parent, int vsize, int vroot,
                           const char *want)
{
    topo_tree_t *t = NULL;
    char why[160];
    ck_assert_int_eq(topo_tree_from_parents(n, root, parent, NULL, &t), COMPI_OK);
    ck_assert_int_eq(topo_tree_validate(t, vsize, vroot, why, sizeof(why)),
                     COMPI_ERR_INVALID_PARAM);
    ck_assert_msg(strstr(why, want) != NULL, "message \"%s\" lacks \"%s\"", why, want);
    topo_tree_free(t);
}

START_TEST(validation_errors)
{
    static const int out_of_range[8] = {-1, 0, 0, 1, 1, 9, 2, 3};
    expect_invalid(8, 0, out_of_range, 8, 0, "rank 5 has parent 9, outside 0..7");
    static const int cycle[6] = {-1, 0, 0, 4, 3, 0};
    expect_invalid(6, 0, cycle, 6, 0, "ranks 3 and 4 form a cycle");
    static const int cycle3[6] = {-1, 0, 3, 4, 2, 2};
    expect_invalid(6, 0, cycle3, 6, 0, "ranks 2, 3 and 4 form a cycle");
    static const int ok[8] = {-1, 0, 0, 1, 1, 2, 2, 3};
    static const int ok2[8] = {2, 2, -1, 0, 1, 1, 0, 3};
    expect_invalid(8, 2, ok2, 8, 0, "the tree has root 2 but the call's root is 0");
    expect_invalid(6, 0, ok, 8, 0, "tree built for 6 ranks, communicator has 8");
    static const int missing[4] = {-1, 0, -1, 0};
    expect_invalid(4, 0, missing, 4, 0, "rank 2 has no parent");
    static const int self[4] = {-1, 0, 2, 0};
    expect_invalid(4, 0, self, 4, 0, "rank 2 is its own parent");
    static const int rootp[4] = {1, 0, 0, 0};
    expect_invalid(4, 0, rootp, 4, 0, "the root 0 has parent 1");

    /* a valid tree whose children lists are tampered with: a rank listed twice (and so
       another missing) */
    topo_tree_t *t = topo_tree_flat(4, 0);
    char why[128];
    t->children[2] = 1;
    ck_assert_int_eq(topo_tree_validate(t, 4, 0, why, sizeof(why)), COMPI_ERR_INVALID_PARAM);
    ck_assert_msg(strstr(why, "rank 1 appears twice") != NULL, "%s", why);
    t->children[2] = 3;
    ck_assert_int_eq(topo_tree_validate(t, 4, 0, why, sizeof(why)), COMPI_OK);
    t->children[1] = 0;
    ck_assert_int_eq(topo_tree_validate(t, 4, 0, why, sizeof(why)), COMPI_ERR_INVALID_PARAM);
    ck_assert_msg(strstr(why, "rank 0 is listed as a child of 0") != NULL, "%s", why);
    topo_tree_free(t);

    /* an order[] that is not a permutation leaves a hole */
    static const int dup_order[4] = {0, 1, 1, 3};
    ck_assert_int_eq(topo_tree_from_parents(4, 0, ok, dup_order, &t), COMPI_OK);
    ck_assert_int_eq(topo_tree_validate(t, 4, 0, why, sizeof(why)), COMPI_ERR_INVALID_PARAM);
    topo_tree_free(t);
}
END_TEST

START_TEST(ordered_trees)
{
    for (int n = 1; n <= MAXN; n++) {
        topo_tree_t *t = topo_tree_binomial(n, 0);
        ck_assert_int_eq(topo_tree_is_ordered(t), 1);
        topo_tree_free(t);
        t = topo_tree_chain(n, 0);
        ck_assert_int_eq(topo_tree_is_ordered(t), 1);
        topo_tree_free(t);
        t = topo_tree_flat(n, n / 2);
        ck_assert_int_eq(topo_tree_is_ordered(t), 1); /* leaves are ranges of one */
        topo_tree_free(t);
    }
    /* k-ary, k = 2, 7 ranks: 1's subtree is {1, 3, 4}, not a range */
    topo_tree_t *t = topo_tree_kary(7, 0, 2);
    ck_assert_int_eq(topo_tree_is_ordered(t), 0);
    topo_tree_free(t);
    /* binomial rooted at 3 of 8: relative 4..7 are ranks 7 0 1 2 */
    t = topo_tree_binomial(8, 3);
    ck_assert_int_eq(topo_tree_is_ordered(t), 0);
    topo_tree_free(t);
}
END_TEST

START_TEST(check_call)
{
    compi_comm_t comm = {.size = 8, .rank = 0};
    compi_op_t noncomm = {.commutative = 0, .name = "user"};
    compi_op_t sum = {.commutative = 1, .name = "MPI_SUM"};
    coll_call_t call = {.kind = COLL_REDUCE, .comm = &comm, .root = 0, .op = &noncomm};
    char why[200];
    topo_tree_t *t = topo_tree_kary(8, 0, 2);
    ck_assert_int_eq(coll_tree_check_call(t, &call, why, sizeof(why)), COMPI_ERR_INVALID_PARAM);
    ck_assert_msg(strstr(why, "non-commutative op user") != NULL, "%s", why);
    call.op = &sum;
    ck_assert_int_eq(coll_tree_check_call(t, &call, why, sizeof(why)), COMPI_OK);
    call.root = 3;
    ck_assert_int_eq(coll_tree_check_call(t, &call, why, sizeof(why)), COMPI_ERR_INVALID_PARAM);
    ck_assert_msg(strstr(why, "the tree has root 0 but the call's root is 3") != NULL, "%s", why);
    /* allreduce has no root: any tree root serves */
    call.kind = COLL_ALLREDUCE;
    call.root = -1;
    ck_assert_int_eq(coll_tree_check_call(t, &call, why, sizeof(why)), COMPI_OK);
    comm.size = 9;
    ck_assert_int_eq(coll_tree_check_call(t, &call, why, sizeof(why)), COMPI_ERR_INVALID_PARAM);
    ck_assert_msg(strstr(why, "tree built for 8 ranks, communicator has 9") != NULL, "%s", why);
    topo_tree_free(t);
}
END_TEST

START_TEST(closures)
{
    static const coll_kind_t kinds[] = {COLL_BARRIER,   COLL_BCAST,  COLL_REDUCE,
                                        COLL_ALLREDUCE, COLL_GATHER, COLL_SCATTER};
    compi_status_t st;
    coll_params_t p = {.segsize = 8192};
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        coll_closure_t *c = coll_closure_tree(kinds[i], topo_tree_binomial(8, 0), &p, &st);
        ck_assert_ptr_nonnull(c);
        ck_assert_int_eq(st, COMPI_OK);
        ck_assert_msg(
            strncmp(c->name, coll_kind_name(kinds[i]), strlen(coll_kind_name(kinds[i]))) == 0, "%s",
            c->name);
        ck_assert_msg(strstr(c->name, ":tree(8 ranks,root 0,depth 3,#") != NULL, "%s", c->name);
        coll_closure_release(c);
    }
    coll_closure_t *c = coll_closure_tree(COLL_BCAST, topo_tree_chain(8, 0), &p, &st);
    ck_assert_msg(strstr(c->name, "segsize=8192)") != NULL, "%s", c->name);
    /* the same size and root, another shape: another signature */
    coll_closure_t *c2 = coll_closure_tree(COLL_BCAST, topo_tree_binomial(8, 0), &p, &st);
    ck_assert(c->signature != c2->signature);
    coll_closure_release(c);
    coll_closure_release(c2);

    ck_assert_ptr_null(coll_closure_tree(COLL_ALLTOALL, topo_tree_flat(4, 0), NULL, &st));
    ck_assert_int_eq(st, COMPI_ERR_UNSUPPORTED);
    topo_tree_t *bad = topo_tree_flat(4, 0);
    bad->parent[2] = 3;
    ck_assert_ptr_null(coll_closure_tree(COLL_BCAST, bad, NULL, &st));
    ck_assert_int_eq(st, COMPI_ERR_INVALID_PARAM);
}
END_TEST

/* rank r's children, as relative ranks */
static int rel_children(const topo_tree_t *t, int r, int *out)
{
    int n = 0;
    for (int i = t->child_off[r]; i < t->child_off[r + 1]; i++) {
        out[n++] = (t->children[i] - t->root + t->size) % t->size;
    }
    return n;
}

/* the radix-k tree as gather/knomial.c always walked it: v's mask m (for v = 0 the
   smallest power of k >= p), its parent v - v mod (k m), its children v + i mask for
   mask = 1, k, ... below m and i = 1 .. k-1, in that order */
static int knomial_reference(long v, long p, long k, int *children, int *nch)
{
    long m = 1;
    if (v == 0) {
        while (m < p) {
            m *= k;
        }
    } else {
        while (v % (k * m) == 0) {
            m *= k;
        }
    }
    *nch = 0;
    for (long mask = 1; mask < m; mask *= k) {
        for (long i = 1; i < k && v + i * mask < p; i++) {
            children[(*nch)++] = (int)(v + i * mask);
        }
    }
    return v == 0 ? -1 : (int)(v - v % (k * m));
}

START_TEST(knomial_shape)
{
    int got[MAXN], want[MAXN], ng, nw;
    for (int k = 2; k <= 5; k++) {
        for (int n = 1; n <= MAXN; n++) {
            for (int root = 0; root < n; root += (n > 4 ? n / 3 : 1)) {
                topo_tree_t *t = topo_tree_knomial(n, root, k);
                ck_assert_ptr_nonnull(t);
                ck_assert_int_eq(topo_tree_validate(t, n, root, NULL, 0), COMPI_OK);
                for (int v = 0; v < n; v++) {
                    int r = (v + root) % n;
                    int pv = knomial_reference(v, n, k, want, &nw);
                    int pr = t->parent[r] < 0 ? -1 : (t->parent[r] - root + n) % n;
                    ck_assert_msg(pr == pv, "k=%d n=%d root=%d v=%d: parent %d, want %d", k, n,
                                  root, v, pr, pv);
                    ng = rel_children(t, r, got);
                    ck_assert_int_eq(ng, nw);
                    for (int i = 0; i < ng; i++) {
                        ck_assert_msg(got[i] == want[i], "k=%d n=%d v=%d child %d: %d, want %d", k,
                                      n, v, i, got[i], want[i]);
                    }
                }
                /* subtrees are ranges of relative ranks: ordered at root 0 */
                if (root == 0) {
                    ck_assert_int_eq(topo_tree_is_ordered(t), 1);
                }
                topo_tree_free(t);
            }
        }
    }
    ck_assert_ptr_null(topo_tree_knomial(4, 0, 1));
}
END_TEST

static int same_tree(const topo_tree_t *a, const topo_tree_t *b)
{
    return a->size == b->size && a->root == b->root &&
           memcmp(a->parent, b->parent, (size_t)a->size * sizeof(int)) == 0 &&
           memcmp(a->child_off, b->child_off, (size_t)(a->size + 1) * sizeof(int)) == 0 &&
           memcmp(a->children, b->children, (size_t)(a->size - 1) * sizeof(int)) == 0;
}

START_TEST(in_order_binomial_and_reversal)
{
    for (int n = 1; n <= MAXN; n++) {
        /* k-nomial, k = 2, served largest subtree first is the binomial tree */
        for (int root = 0; root < n; root++) {
            topo_tree_t *b = topo_tree_binomial(n, root), *k2 = topo_tree_knomial(n, root, 2);
            topo_tree_reverse_children(k2);
            ck_assert_msg(same_tree(b, k2), "n=%d root=%d", n, root);
            topo_tree_free(b);
            topo_tree_free(k2);
        }
        /* in order: every subtree a range, for every root; at root 0 the radix-2 tree */
        for (int root = 0; root < n; root++) {
            topo_tree_t *t = topo_tree_in_order_binomial(n, root);
            ck_assert_ptr_nonnull(t);
            ck_assert_int_eq(topo_tree_validate(t, n, root, NULL, 0), COMPI_OK);
            ck_assert_msg(topo_tree_is_ordered(t) == 1, "n=%d root=%d", n, root);
            if (root == 0) {
                topo_tree_t *k2 = topo_tree_knomial(n, 0, 2);
                ck_assert(same_tree(t, k2));
                topo_tree_free(k2);
            } else {
                /* the root serves 0 (the tree of 0..root-1) first, then root + 2^j */
                const int *ch = t->children + t->child_off[root];
                int nc = t->child_off[root + 1] - t->child_off[root], i = 0;
                ck_assert_int_eq(ch[i++], 0);
                for (int m = 1; root + m < n; m *= 2) {
                    ck_assert_int_eq(ch[i++], root + m);
                }
                ck_assert_int_eq(i, nc);
            }
            topo_tree_free(t);
        }
    }
    /* the drawing of tree.c: 8 ranks, root 3 */
    topo_tree_t *t = topo_tree_in_order_binomial(8, 3);
    static const int parent[8] = {3, 0, 0, -1, 3, 3, 5, 3};
    ck_assert(memcmp(t->parent, parent, sizeof(parent)) == 0);
    topo_tree_free(t);
}
END_TEST

START_TEST(algorithms_are_trees)
{
    /* every native tree algorithm: a valid tree for every size and root, and a closure
       named as the algorithm, with a start (nonblocking and persistent calls) */
    size_t nalgo, ntree = 0;
    const coll_algo_t *const *all = coll_algo_all(&nalgo);
    for (size_t a = 0; a < nalgo; a++) {
        const coll_algo_t *algo = all[a];
        if (algo->tree == NULL) {
            continue;
        }
        ntree++;
        ck_assert_ptr_null(algo->fn);
        ck_assert_ptr_null(coll_closure_native(algo, NULL));
        for (int n = 1; n <= 12; n++) {
            for (int root = 0; root < n; root++) {
                coll_params_t p = algo->tree_defaults;
                topo_tree_t *t = algo->tree(n, root, &p);
                ck_assert_msg(t != NULL, "%s", algo->name);
                ck_assert_int_eq(topo_tree_validate(t, n, root, NULL, 0), COMPI_OK);
                topo_tree_free(t);
            }
        }
        compi_comm_t comm;
        memset(&comm, 0, sizeof(comm));
        comm.size = 6;
        coll_call_t call = {.kind = algo->kind, .comm = &comm, .root = 0};
        coll_params_t p = {.segsize = (algo->params & COLL_PARAM_SEGSIZE) ? 4096 : 0};
        compi_status_t st;
        coll_closure_t *c = coll_closure_algo(algo, &p, &call, &st);
        ck_assert_ptr_nonnull(c);
        ck_assert_int_eq(st, COMPI_OK);
        ck_assert_ptr_nonnull(c->start);
        char want[96];
        snprintf(want, sizeof(want), "%s:%s%s", coll_kind_name(algo->kind), algo->name,
                 p.segsize ? "(segsize=4096)" : "");
        ck_assert_str_eq(c->name, want);
        coll_closure_release(c);
    }
    /* barrier 1, bcast 5, reduce 4, allreduce 1, gather 2, scatter 2, allgather 1 */
    ck_assert_uint_eq(ntree, 16);

    /* the shapes the algorithms always had */
    coll_params_t none = {0};
    topo_tree_t *t = coll_algo_find(COLL_BCAST, "binomial")->tree(8, 2, &none);
    topo_tree_t *b = topo_tree_binomial(8, 2);
    ck_assert(same_tree(t, b));
    topo_tree_free(t);
    topo_tree_free(b);
    t = coll_algo_find(COLL_REDUCE, "binomial")->tree(8, 0, &none);
    ck_assert_int_eq(topo_tree_is_ordered(t), 1);
    ck_assert_int_eq(t->children[t->child_off[0]], 1); /* smallest subtree first */
    topo_tree_free(t);
}
END_TEST

START_TEST(signatures_say_what_closures_do)
{
    /* a closure's signature is what it does, not its name: the native binomial bcast
       and a creator's binomial tree of the same shape match; another root, another
       shape, another segment size, another kind or a wrapper around it do not */
    compi_comm_t comm;
    memset(&comm, 0, sizeof(comm));
    comm.size = 8;
    coll_call_t call = {.kind = COLL_BCAST, .comm = &comm, .root = 2};
    compi_status_t st;
    coll_params_t none = {0}, seg = {.segsize = 8192};

    coll_closure_t *native = coll_closure_algo(coll_algo_find(COLL_BCAST, "binomial"), &none,
                                               &call, &st);
    coll_closure_t *tree = coll_closure_tree(COLL_BCAST, topo_tree_binomial(8, 2), &none, &st);
    coll_closure_t *root0 = coll_closure_tree(COLL_BCAST, topo_tree_binomial(8, 0), &none, &st);
    coll_closure_t *chain = coll_closure_tree(COLL_BCAST, topo_tree_chain(8, 2), &none, &st);
    coll_closure_t *segd = coll_closure_tree(COLL_BCAST, topo_tree_binomial(8, 2), &seg, &st);
    coll_closure_t *reduce = coll_closure_tree(COLL_REDUCE, topo_tree_binomial(8, 2), &none, &st);
    ck_assert_ptr_nonnull(native);
    ck_assert_ptr_nonnull(reduce);
    ck_assert_str_ne(native->name, tree->name); /* names differ, for people */
    ck_assert(native->signature == tree->signature);
    ck_assert(tree->signature != root0->signature);
    ck_assert(tree->signature != chain->signature);
    ck_assert(tree->signature != segd->signature);
    ck_assert(tree->signature != reduce->signature);

    coll_closure_t *prof = coll_wrap_profile(tree), *prof2 = coll_wrap_profile(native);
    coll_closure_t *trace = coll_wrap_trace(tree);
    ck_assert(prof->signature != tree->signature);
    ck_assert(prof->signature == prof2->signature);
    ck_assert(prof->signature != trace->signature);

    /* non-tree natives: the algorithm and its parameters */
    coll_call_t ar = {.kind = COLL_ALLREDUCE, .comm = &comm, .root = -1};
    coll_params_t k2 = {.fanout = 2}, k4 = {.fanout = 4};
    coll_closure_t *rd = coll_closure_algo(coll_algo_find(COLL_ALLREDUCE, "recursive-doubling"),
                                           &none, &ar, &st);
    coll_closure_t *rd2 = coll_closure_algo(coll_algo_find(COLL_ALLREDUCE, "recursive-doubling"),
                                            &none, &ar, &st);
    coll_closure_t *ring = coll_closure_algo(coll_algo_find(COLL_ALLREDUCE, "ring"), &none, &ar,
                                             &st);
    coll_closure_t *bk2 = coll_closure_algo(coll_algo_find(COLL_ALLTOALL, "bruck"), &k2, &ar, &st);
    coll_closure_t *bk4 = coll_closure_algo(coll_algo_find(COLL_ALLTOALL, "bruck"), &k4, &ar, &st);
    ck_assert(rd->signature == rd2->signature);
    ck_assert(rd->signature != ring->signature);
    ck_assert(bk2->signature != bk4->signature);

    coll_closure_t *all[] = {native, tree, root0, chain, segd, reduce, prof, prof2, trace,
                             rd, rd2, ring, bk2, bk4};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
        coll_closure_release(all[i]);
    }
}
END_TEST

int main(void)
{
    const TTest *tests[] = {
        builders_all_sizes_and_roots, builders_reject_bad_arguments, binomial_shape,
        from_parents_orders_children, validation_errors, ordered_trees, check_call, closures,
        knomial_shape, in_order_binomial_and_reversal, algorithms_are_trees,
        signatures_say_what_closures_do
    };
    const unit_case_t tc = {.suite = "tree", .name = "trees"};
    return unit_tap_run_list(&tc, tests, UNIT_COUNT(tests));
}
