/*
 * tree_exec.c -- closures that run any valid tree, whoever built it (a creator in
 * Scheme, or a native tree algorithm through coll_closure_algo): building them
 * (validation, the preorder that gather, scatter and allgather use, the reduction order,
 * the name and signature) and the checks every run makes.  What a run does is the
 * tree's schedule (tree_exec_sched.c): blocking calls run it to completion, nonblocking
 * and persistent ones start it.
 */
#include "core/coll/executors/tree_exec.h"
#include "core/coll/wrappers/wrap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int kind_is_rooted(coll_kind_t kind)
{
    return kind == COLL_BCAST || kind == COLL_REDUCE || kind == COLL_GATHER || kind == COLL_SCATTER;
}

compi_status_t coll_tree_check_call(const topo_tree_t *tree, const coll_call_t *call, char *why,
                                    size_t len)
{
    int root = kind_is_rooted(call->kind) ? call->root : tree->root;
    compi_status_t st = topo_tree_validate(tree, call->comm->size, root, why, len);
    if (st != COMPI_OK) {
        return st;
    }
    if (call->op != NULL && !call->op->commutative && topo_tree_is_ordered(tree) != 1) {
        snprintf(why, len,
                 "%s with the non-commutative op %s needs a tree whose every subtree "
                 "covers a contiguous range of ranks",
                 coll_kind_name(call->kind), call->op->name);
        return COMPI_ERR_INVALID_PARAM;
    }
    return COMPI_OK;
}

compi_status_t tree_exec__check(const tree_exec_t *s, const coll_call_t *call)
{
    if (call->kind != s->kind || call->comm->size != s->tree->size) {
        return COMPI_ERR_INVALID_PARAM;
    }
    if (kind_is_rooted(s->kind) && call->root != s->tree->root) {
        return COMPI_ERR_INVALID_PARAM;
    }
    if (call->op != NULL && !call->op->commutative && !s->ordered) {
        return COMPI_ERR_INVALID_PARAM;
    }
    return COMPI_OK;
}

void tree_exec__free(void *state)
{
    tree_exec_t *s = state;
    if (s == NULL) {
        return;
    }
    coll_sched_keep_drop(&s->keep);
    tree_host__free(s->host);
    topo_tree_free(s->tree);
    free(s->pre);
    free(s->pos);
    free(s->sub);
    free(s->pieces);
    free(s->piece_ci);
    free(s);
}

/* preorder with an explicit stack (trees may be deep chains); a forest's trees come one
   after the other, by increasing root */
static compi_status_t tree_exec__preorder(tree_exec_t *s)
{
    const topo_tree_t *t = s->tree;
    int n = t->size, top = 0, k = 0;
    int *stack = malloc((size_t)n * sizeof(int));
    s->pre = malloc((size_t)n * sizeof(int));
    s->pos = malloc((size_t)n * sizeof(int));
    s->sub = malloc((size_t)n * sizeof(int));
    if (stack == NULL || s->pre == NULL || s->pos == NULL || s->sub == NULL) {
        free(stack);
        return COMPI_ERR_NO_MEMORY;
    }
    for (int root = 0; root < n; root++) {
        if (t->parent[root] >= 0) {
            continue;
        }
        stack[top++] = root;
        while (top > 0) {
            int r = stack[--top];
            s->pos[r] = k;
            s->pre[k++] = r;
            /* push in reverse so the first child comes out first */
            for (int i = t->child_off[r + 1] - 1; i >= t->child_off[r]; i--) {
                stack[top++] = t->children[i];
            }
        }
    }
    /* subtree sizes: children come after their parent in preorder, so a reverse walk
       sees every child before its parent */
    for (int r = 0; r < n; r++) {
        s->sub[r] = 1;
    }
    for (int i = n - 1; i > 0; i--) {
        int r = s->pre[i];
        if (t->parent[r] >= 0) {
            s->sub[t->parent[r]] += s->sub[r];
        }
    }
    free(stack);
    return COMPI_OK;
}

/* the reduction order of every rank's pieces (see tree_exec.h) */
static compi_status_t tree_exec__pieces(tree_exec_t *s)
{
    const topo_tree_t *t = s->tree;
    int n = t->size;
    int *lo = malloc((size_t)n * sizeof(int));
    s->pieces = malloc((size_t)(2 * n) * sizeof(int));
    s->piece_ci = malloc((size_t)(2 * n) * sizeof(int));
    if (lo == NULL || s->pieces == NULL || s->piece_ci == NULL) {
        free(lo);
        return COMPI_ERR_NO_MEMORY;
    }
    /* subtree minima, children before parents (reverse preorder) */
    for (int r = 0; r < n; r++) {
        lo[r] = r;
    }
    for (int i = n - 1; i > 0; i--) {
        int r = s->pre[i], p = t->parent[r];
        if (p >= 0) {
            lo[p] = lo[r] < lo[p] ? lo[r] : lo[p];
        }
    }
    for (int r = 0; r < n; r++) {
        int *pc = s->pieces + t->child_off[r] + r;
        int m = 0;
        pc[m++] = r;
        /* insertion sort by subtree minimum: children lists are short */
        for (int i = t->child_off[r]; i < t->child_off[r + 1]; i++) {
            int c = t->children[i], j = m++;
            int key = lo[c];
            while (j > 0 && (pc[j - 1] == r ? r : lo[pc[j - 1]]) > key) {
                pc[j] = pc[j - 1];
                j--;
            }
            pc[j] = c;
        }
        int *ci = s->piece_ci + t->child_off[r] + r;
        for (int j = 0; j < m; j++) {
            ci[j] = -1;
            for (int i = t->child_off[r]; i < t->child_off[r + 1] && pc[j] != r; i++) {
                if (t->children[i] == pc[j]) {
                    ci[j] = i - t->child_off[r];
                }
            }
        }
    }
    free(lo);
    return COMPI_OK;
}

/* FNV-1a over the parents and the children lists: two trees of the same size and root
   get different names (and signatures) when their shapes or child orders differ */
static uint32_t tree_exec__shape_hash(const topo_tree_t *t)
{
    uint32_t h = 2166136261u;
    for (int r = 0; r < t->size; r++) {
        h = (h ^ (uint32_t)t->parent[r]) * 16777619u;
    }
    for (int i = 0; i < t->size - 1; i++) {
        h = (h ^ (uint32_t)t->children[i]) * 16777619u;
    }
    return h;
}

tree_exec_t *tree_exec__new(coll_kind_t kind, topo_tree_t *tree, const coll_params_t *params,
                            compi_status_t *st_p)
{
    compi_status_t st = COMPI_ERR_NO_MEMORY;
    tree_exec_t *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        topo_tree_free(tree);
        goto err;
    }
    s->tree = tree;
    s->kind = kind;
    s->params = params != NULL ? *params : (coll_params_t){0};
    if (s->params.segsize < 0) {
        s->params.segsize = 0;
    }
    int reduces = kind == COLL_REDUCE || kind == COLL_ALLREDUCE;
    if (reduces) {
        s->ordered = topo_tree_is_ordered(s->tree);
        if (s->ordered < 0) {
            goto err;
        }
    }
    if (reduces || kind == COLL_GATHER || kind == COLL_SCATTER || kind == COLL_ALLGATHER) {
        st = tree_exec__preorder(s);
        if (st == COMPI_OK && reduces) {
            st = tree_exec__pieces(s);
        }
        if (st != COMPI_OK) {
            goto err;
        }
    }
    *st_p = COMPI_OK;
    return s;
err:
    tree_exec__free(s);
    *st_p = st;
    return NULL;
}

const topo_tree_t *coll_closure_tree_of(const coll_closure_t *c)
{
    while (c != NULL && c->free_state != tree_exec__free) {
        c = coll_wrap_inner(c);
    }
    return c != NULL ? ((const tree_exec_t *)c->state)->tree : NULL;
}

coll_closure_t *coll_closure_tree(coll_kind_t kind, topo_tree_t *tree, const coll_params_t *params,
                                  compi_status_t *st_p)
{
    /* the kinds tree_exec_sched.c builds */
    static const char served[COLL_NKINDS] = {
        [COLL_BARRIER] = 1, [COLL_BCAST] = 1,   [COLL_REDUCE] = 1,    [COLL_ALLREDUCE] = 1,
        [COLL_GATHER] = 1,  [COLL_SCATTER] = 1, [COLL_ALLGATHER] = 1,
    };
    compi_status_t st = COMPI_OK;
    coll_closure_t *c = NULL;
    tree_exec_t *s = NULL;
    char name[96];

    if ((unsigned)kind >= COLL_NKINDS || !served[kind]) {
        st = COMPI_ERR_UNSUPPORTED;
        goto err;
    }
    if (tree == NULL || topo_tree_validate(tree, tree->size, tree->root, NULL, 0) != COMPI_OK) {
        st = COMPI_ERR_INVALID_PARAM;
        goto err;
    }
    s = tree_exec__new(kind, tree, params, &st);
    tree = NULL;
    if (s == NULL) {
        goto err;
    }
    int n = snprintf(name, sizeof(name), "%s:tree(%d ranks,root %d,depth %d,#%08x",
                     coll_kind_name(kind), s->tree->size, s->tree->root, topo_tree_depth(s->tree),
                     (unsigned)tree_exec__shape_hash(s->tree));
    int pipelined = kind == COLL_BCAST || kind == COLL_REDUCE || kind == COLL_ALLREDUCE ||
                    kind == COLL_ALLGATHER;
    if (pipelined && s->params.segsize > 0 && n < (int)sizeof(name)) {
        n += snprintf(name + n, sizeof(name) - (size_t)n, ",segsize=%ld", s->params.segsize);
    }
    if (n < (int)sizeof(name)) {
        snprintf(name + n, sizeof(name) - (size_t)n, ")");
    }
    c = coll_closure_new(tree_exec__run, s, tree_exec__free, name);
    if (c == NULL) {
        st = COMPI_ERR_NO_MEMORY;
        goto err;
    }
    c->start = tree_exec__start;
    /* what it does: the kind, the tree (every parent, every rank's children in serving
       order) and the segment size where the kind is pipelined */
    const topo_tree_t *t = s->tree;
    uint64_t h = coll_sig_long(coll_sig_str(COLL_SIG_SEED, "tree"), kind);
    h = coll_sig_long(coll_sig_long(h, t->size), t->root);
    h = coll_sig_ints(h, t->parent, (size_t)t->size);
    h = coll_sig_ints(h, t->child_off, (size_t)t->size + 1);
    h = coll_sig_ints(h, t->children, (size_t)t->child_off[t->size]);
    c->signature = coll_sig_long(h, pipelined ? s->params.segsize : 0);
    if (st_p != NULL) {
        *st_p = COMPI_OK;
    }
    return c;
err:
    topo_tree_free(tree);
    tree_exec__free(s);
    if (st_p != NULL) {
        *st_p = st;
    }
    return NULL;
}

coll_closure_t *coll_closure_tree_host(coll_kind_t kind, topo_tree_t *tree,
                                       const coll_params_t *params, const int *group_of,
                                       const coll_call_t *call, compi_status_t *st_p)
{
    compi_status_t st;
    int attached = 0;
    coll_closure_t *c = coll_closure_tree(kind, tree, params, &st);
    if (c != NULL && group_of != NULL) {
        st = tree_host__attach(c->state, group_of, call, &attached);
        if (st != COMPI_OK) {
            coll_closure_release(c);
            c = NULL;
        }
    }
    if (attached) {
        /* "...)" becomes "...,host-shm)"; the signature takes the grouping */
        size_t len = strlen(c->name);
        if (len > 0 && len + 9 < sizeof(c->name)) {
            snprintf(c->name + len - 1, sizeof(c->name) - (len - 1), ",host-shm)");
        }
        uint64_t h = coll_sig_str(c->signature, "host-shm");
        c->signature = coll_sig_ints(h, group_of, (size_t)call->comm->size);
    }
    if (st_p != NULL) {
        *st_p = st;
    }
    return c;
}
