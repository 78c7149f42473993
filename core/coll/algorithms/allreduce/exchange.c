/*
 * allreduce/exchange.c -- allreduce across groups (clusters joined by a wide-area network)
 * where the data crosses the WAN only once: every group reduces to its coordinator over a
 * local tree, the coordinators send their partial results to each other all-to-all, each
 * coordinator combines all partials in group order, and broadcasts the result over its
 * local tree.
 *
 *      group 0              group 1              group 2
 *
 *        c0 <==============> c1 <==============> c2       2. exchange: every coordinator
 *        ^|  <================================>  ^|          sends its partial P_g to
 *      1 ||  3               ^|                  ||          every other one, at once
 *        |v                  |v                  |v       1. reduce up the local tree
 *      a    b              c    d              e    f     3. bcast down the same tree
 *
 *   every coordinator computes P_0 op (P_1 op (... op P_{G-1})) from the same partials in
 *   the same order, so every rank ends with the same bits; with groups that are contiguous
 *   rank ranges in group order and ordered local trees, that is rank order, right for
 *   non-commutative ops (the closure refuses them otherwise).
 *
 * Cost for n bytes, G groups, local trees of depth d and fan-out f (alpha, beta, gamma
 * inside a group; alpha_w, beta_w across the WAN), without segments:
 *   T = d f (alpha + n beta + n gamma)                   local reduce
 *     + alpha_w + (G - 1) n beta_w + (G - 1) n gamma     exchange, then combination
 *     + d f (alpha + n beta)                             local bcast
 * The WAN part, (G - 1) n bytes out and in through each coordinator's link, all links at
 * once, is paid once.  A reduce to one root followed by a bcast (the hierarchical and
 * MagPIe allreduces, flat between coordinators) pays 2 (alpha_w + (G - 1) n beta_w), one
 * crossing after the other, all through the root's link; its root combines as much as
 * each coordinator does here.  So the exchange halves the time spent on the WAN and
 * spreads the traffic over every coordinator's link, for G - 1 buffers per coordinator:
 * meant for a few clusters, not for hundreds of groups.  Segments (params.segsize)
 * pipeline the local phases only.
 *
 * Memory: a coordinator holds G - 1 partials of n bytes, plus the local reduce's buffers
 * (executors/tree_exec_sched.c).
 */
#include "core/coll/algorithms/allreduce/exchange.h"
#include "core/coll/executors/tree_exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void coll_exchange_free(coll_exchange_t *x)
{
    if (x == NULL) {
        return;
    }
    free(x->group_of);
    free(x->coord);
    topo_tree_free(x->forest);
    free(x);
}

compi_status_t coll_exchange_from_parents(int size, int ngroups, const int *group_of,
                                          const int *coord, const int *parent, const int *order,
                                          coll_exchange_t **x_p)
{
    *x_p = NULL;
    if (size < 1 || ngroups < 1) {
        return COMPI_ERR_INVALID_PARAM;
    }
    coll_exchange_t *x = calloc(1, sizeof(*x));
    if (x == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    x->size = size;
    x->ngroups = ngroups;
    x->group_of = malloc((size_t)size * sizeof(int));
    x->coord = malloc((size_t)ngroups * sizeof(int));
    /* the forest's root field is only a label: coord[0], or 0 when that is out of range */
    int root = coord[0] >= 0 && coord[0] < size ? coord[0] : 0;
    if (x->group_of == NULL || x->coord == NULL ||
        topo_tree_from_parents(size, root, parent, order, &x->forest) != COMPI_OK) {
        coll_exchange_free(x);
        return COMPI_ERR_NO_MEMORY;
    }
    memcpy(x->group_of, group_of, (size_t)size * sizeof(int));
    memcpy(x->coord, coord, (size_t)ngroups * sizeof(int));
    *x_p = x;
    return COMPI_OK;
}

/* "ranks 3, 4 and 5 form a cycle" from a rank x on the cycle */
static void exchange__cycle_text(const int *parent, int x, char *why, size_t len)
{
    int n = snprintf(why, len, "ranks %d", x);
    for (int y = parent[x]; y != x && n < (int)len; y = parent[y]) {
        n += snprintf(why + n, len - (size_t)n, "%s%d", parent[y] == x ? " and " : ", ", y);
    }
    if (n < (int)len) {
        snprintf(why + n, len - (size_t)n, " form a cycle");
    }
}

/* the ranks, groups and parents; then cycles and the children lists (see the header) */
static compi_status_t exchange__check_parents(const coll_exchange_t *x, char *why, size_t len)
{
    int n = x->size, ng = x->ngroups;
    const int *parent = x->forest->parent;

    for (int g = 0; g < ng; g++) {
        int c = x->coord[g];
        if (c < 0 || c >= n) {
            snprintf(why, len, "the coordinator %d of group %d is outside 0..%d", c, g, n - 1);
            return COMPI_ERR_INVALID_PARAM;
        }
    }
    for (int r = 0; r < n; r++) {
        int g = x->group_of[r], p = parent[r];
        if (g < 0 || g >= ng) {
            snprintf(why, len, "rank %d is in group %d, outside 0..%d", r, g, ng - 1);
            return COMPI_ERR_INVALID_PARAM;
        }
        if (x->coord[g] == r) {
            if (p != -1) {
                snprintf(why, len,
                         "the coordinator %d of group %d has parent %d (a coordinator's "
                         "parent must be -1)",
                         r, g, p);
                return COMPI_ERR_INVALID_PARAM;
            }
            continue;
        }
        if (p == -1) {
            snprintf(why, len,
                     "rank %d has no parent but does not coordinate its group %d (coordinator "
                     "%d)",
                     r, g, x->coord[g]);
            return COMPI_ERR_INVALID_PARAM;
        }
        if (p < 0 || p >= n) {
            snprintf(why, len, "rank %d has parent %d, outside 0..%d", r, p, n - 1);
            return COMPI_ERR_INVALID_PARAM;
        }
        if (p == r) {
            snprintf(why, len, "rank %d is its own parent", r);
            return COMPI_ERR_INVALID_PARAM;
        }
        if (x->group_of[p] != g) {
            snprintf(why, len, "rank %d has its parent %d in group %d, not in its own group %d", r,
                     p, x->group_of[p], g);
            return COMPI_ERR_INVALID_PARAM;
        }
    }
    for (int g = 0; g < ng; g++) {
        if (x->group_of[x->coord[g]] != g) {
            snprintf(why, len, "the coordinator %d of group %d is in group %d", x->coord[g], g,
                     x->group_of[x->coord[g]]);
            return COMPI_ERR_INVALID_PARAM;
        }
    }
    return COMPI_OK;
}

compi_status_t coll_exchange_validate(const coll_exchange_t *x, char *why, size_t len)
{
    char dummy[1];
    int *seen = NULL;
    if (why == NULL || len == 0) {
        why = dummy;
        len = sizeof(dummy);
    }
    why[0] = '\0';
    if (x == NULL || x->forest == NULL || x->forest->size != x->size) {
        snprintf(why, len, "no group structure");
        return COMPI_ERR_INVALID_PARAM;
    }
    if (x->ngroups > x->size) {
        snprintf(why, len, "%d groups for %d ranks", x->ngroups, x->size);
        return COMPI_ERR_INVALID_PARAM;
    }
    compi_status_t st = exchange__check_parents(x, why, len);
    if (st != COMPI_OK) {
        return st;
    }

    /* cycles: every walk up must end at a coordinator; seen[y] = the walk that visited y
       (1-based), so the check is linear */
    const topo_tree_t *t = x->forest;
    int n = x->size;
    seen = calloc((size_t)n, sizeof(int));
    if (seen == NULL) {
        snprintf(why, len, "out of memory validating the groups");
        return COMPI_ERR_NO_MEMORY;
    }
    for (int g = 0; g < x->ngroups; g++) {
        seen[x->coord[g]] = -1;
    }
    for (int r = 0; r < n; r++) {
        int y = r;
        while (seen[y] == 0) {
            seen[y] = r + 1;
            y = t->parent[y];
        }
        if (seen[y] == r + 1) {
            exchange__cycle_text(t->parent, y, why, len);
            goto fail;
        }
    }

    /* the children lists agree with parent[]: every other rank once, under its parent */
    memset(seen, 0, (size_t)n * sizeof(int));
    if (t->child_off[0] != 0 || t->child_off[n] != n - x->ngroups) {
        snprintf(why, len, "the children lists hold %d entries, expected %d",
                 t->child_off[n] - t->child_off[0], n - x->ngroups);
        goto fail;
    }
    for (int p = 0; p < n; p++) {
        for (int i = t->child_off[p]; i < t->child_off[p + 1]; i++) {
            int c = t->children[i];
            if (c < 0 || c >= n || seen[c] || t->parent[c] != p) {
                snprintf(why, len, "the children list of rank %d does not agree with the parents",
                         p);
                goto fail;
            }
            seen[c] = 1;
        }
    }
    free(seen);
    return COMPI_OK;
fail:
    free(seen);
    return COMPI_ERR_INVALID_PARAM;
}

int coll_exchange_is_ordered(const coll_exchange_t *x)
{
    for (int r = 1; r < x->size; r++) {
        if (x->group_of[r] < x->group_of[r - 1]) {
            return 0;
        }
    }
    return topo_tree_is_ordered(x->forest);
}

compi_status_t coll_exchange_check_call(const coll_exchange_t *x, const coll_call_t *call,
                                        char *why, size_t len)
{
    if (call->kind != COLL_ALLREDUCE) {
        snprintf(why, len, "an exchange closure serves allreduce, not %s",
                 coll_kind_name(call->kind));
        return COMPI_ERR_INVALID_PARAM;
    }
    if (x == NULL || x->size != call->comm->size) {
        snprintf(why, len, "groups built for %d ranks, communicator has %d",
                 x != NULL ? x->size : 0, call->comm->size);
        return COMPI_ERR_INVALID_PARAM;
    }
    compi_status_t st = coll_exchange_validate(x, why, len);
    if (st != COMPI_OK) {
        return st;
    }
    if (call->op != NULL && !call->op->commutative && coll_exchange_is_ordered(x) != 1) {
        snprintf(why, len,
                 "allreduce with the non-commutative op %s needs groups that are contiguous "
                 "rank ranges in group order, and local trees whose every subtree covers a "
                 "contiguous range of ranks",
                 call->op->name);
        return COMPI_ERR_INVALID_PARAM;
    }
    return COMPI_OK;
}

/* ---- the closure ------------------------------------------------------------------- */

typedef struct exchange_state {
    coll_exchange_t *x; /* its forest moved to local->tree */
    tree_exec_t *local; /* the local phases, over the forest */
    int ordered;        /* coll_exchange_is_ordered */
    coll_sched_keep_t keep; /* the last blocking call's schedule (coll_sched_run_kept) */
} exchange_state_t;

static void exchange__free(void *state)
{
    exchange_state_t *s = state;
    if (s == NULL) {
        return;
    }
    coll_sched_keep_drop(&s->keep);
    coll_exchange_free(s->x);
    tree_exec__free(s->local);
    free(s);
}

/* group h's partial at coordinator `me`: acc for its own group, else a slot of `others`
   (the other groups' partials, in group order) */
static char *part(const coll_exchange_t *x, void *acc, char *others, size_t count,
                  const compi_datatype_t *dt, int me, int h)
{
    int g = x->group_of[me];
    return h == g ? (char *)acc : others + (ptrdiff_t)(h - (h > g)) * (ptrdiff_t)count * dt->extent;
}

/*
 * The coordinator's part, a round and its combination: its partial (in acc) to every
 * other coordinator, theirs into scratch, then acc = P_0 op (P_1 op (... op P_{G-1})),
 * built right to left with inout = in op inout.  Sends start with the next group and
 * wrap around, so the coordinators do not all send to group 0 first.
 */
static void exchange__partials(const coll_exchange_t *x, coll_sched_t *s, void *acc,
                               size_t count, compi_datatype_t *dt, compi_comm_t *comm)
{
    int ng = x->ngroups, g = x->group_of[comm->rank];
    char *others = coll_sched_scratch(s, dt, count * (size_t)(ng - 1));
    if (others == NULL) {
        return;
    }
    for (int h = 0; h < ng; h++) {
        if (h != g) {
            coll_sched_recv(s, part(x, acc, others, count, dt, comm->rank, h), count, dt,
                            x->coord[h]);
        }
    }
    for (int k = 1; k < ng; k++) {
        coll_sched_send(s, acc, count, dt, x->coord[(g + k) % ng]);
    }
    coll_sched_round(s);
    char *res = part(x, acc, others, count, dt, comm->rank, ng - 1);
    for (int h = ng - 2; h >= 0; h--) {
        coll_sched_reduce(s, part(x, acc, others, count, dt, comm->rank, h), res, count, dt);
    }
    if (res != acc) {
        coll_sched_copy(s, res, count, dt, acc, count, dt);
    }
    coll_sched_round(s);
}

/* Conventions of a reduction call (phases/reduce_phases.h): the datatype is rdt (sdt when
   NULL), the count scount (rcount when 0), the input rbuf when in place.  The result is
   built in rbuf on every rank, which the local reduce also uses as its accumulator. */
static void exchange__build(const coll_call_t *call, void *arg, coll_sched_t *sc)
{
    const exchange_state_t *s = arg;
    const coll_exchange_t *x = s->x;
    compi_comm_t *comm = call->comm;
    int me = comm->rank;

    /* every rank judges alike, so a refused call sends nothing anywhere */
    if (call->kind != COLL_ALLREDUCE || comm->size != x->size ||
        (call->op != NULL && !call->op->commutative && !s->ordered)) {
        coll_sched_fail(sc, COMPI_ERR_INVALID_PARAM);
        return;
    }
    compi_datatype_t *dt = call->rdt != NULL ? call->rdt : call->sdt;
    size_t count = call->scount != 0 ? call->scount : call->rcount;
    if (count == 0) {
        return;
    }
    if (dt == NULL || call->op == NULL) {
        coll_sched_fail(sc, COMPI_ERR_INVALID_PARAM);
        return;
    }
    const void *input = call->in_place ? call->rbuf : call->sbuf;
    tree_exec__sched_reduce_up(s->local, sc, input, call->rbuf, count, dt, comm);
    if (x->ngroups > 1 && x->coord[x->group_of[me]] == me) {
        exchange__partials(x, sc, call->rbuf, count, dt, comm);
    }
    tree_exec__sched_bcast(s->local, sc, call->rbuf, count, dt, comm);
}

static compi_status_t exchange__run(coll_closure_t *self, const coll_call_t *call)
{
    exchange_state_t *s = self->state;
    return coll_sched_run_kept(&s->keep, call, exchange__build, s);
}

static compi_status_t exchange__start(coll_closure_t *self, const coll_call_t *call,
                                      struct compi_request **req_p)
{
    return coll_sched_start_built(call, exchange__build, self->state, req_p);
}

/* FNV-1a over the groups, coordinators, parents and children lists */
static uint32_t exchange__hash(const coll_exchange_t *x, const topo_tree_t *forest)
{
    uint32_t h = 2166136261u;
    int nchild = forest->child_off[x->size];
    for (int r = 0; r < x->size; r++) {
        h = (h ^ (uint32_t)x->group_of[r]) * 16777619u;
        h = (h ^ (uint32_t)forest->parent[r]) * 16777619u;
    }
    for (int g = 0; g < x->ngroups; g++) {
        h = (h ^ (uint32_t)x->coord[g]) * 16777619u;
    }
    for (int i = 0; i < nchild; i++) {
        h = (h ^ (uint32_t)forest->children[i]) * 16777619u;
    }
    return h;
}

coll_closure_t *coll_closure_exchange(coll_exchange_t *x, const coll_params_t *params,
                                      compi_status_t *st_p)
{
    compi_status_t st = COMPI_ERR_NO_MEMORY;
    exchange_state_t *s = NULL;
    coll_closure_t *c = NULL;
    char name[96];

    if (coll_exchange_validate(x, NULL, 0) != COMPI_OK) {
        st = COMPI_ERR_INVALID_PARAM;
        goto err;
    }
    s = calloc(1, sizeof(*s));
    if (s == NULL) {
        goto err;
    }
    s->x = x;
    x = NULL;
    s->ordered = coll_exchange_is_ordered(s->x);
    if (s->ordered < 0) {
        goto err;
    }
    uint32_t hash = exchange__hash(s->x, s->x->forest);
    /* what it does: the groups, their coordinators, the local forest, the segment size */
    const topo_tree_t *f = s->x->forest;
    uint64_t sig = coll_sig_long(coll_sig_str(COLL_SIG_SEED, "exchange"), s->x->size);
    sig = coll_sig_ints(sig, s->x->group_of, (size_t)s->x->size);
    sig = coll_sig_ints(sig, s->x->coord, (size_t)s->x->ngroups);
    sig = coll_sig_ints(sig, f->parent, (size_t)s->x->size);
    sig = coll_sig_ints(sig, f->child_off, (size_t)s->x->size + 1);
    sig = coll_sig_ints(sig, f->children, (size_t)f->child_off[s->x->size]);
    /* the local phases run the reduce and bcast executors' code over the forest */
    s->local = tree_exec__new(COLL_ALLREDUCE, s->x->forest, params, &st);
    s->x->forest = NULL;
    if (s->local == NULL) {
        goto err;
    }
    int n = snprintf(name, sizeof(name), "allreduce:exchange(%d ranks,%d groups,#%08x", s->x->size,
                     s->x->ngroups, (unsigned)hash);
    if (s->local->params.segsize > 0 && n < (int)sizeof(name)) {
        n += snprintf(name + n, sizeof(name) - (size_t)n, ",segsize=%ld", s->local->params.segsize);
    }
    if (n < (int)sizeof(name)) {
        snprintf(name + n, sizeof(name) - (size_t)n, ")");
    }
    c = coll_closure_new(exchange__run, s, exchange__free, name);
    if (c == NULL) {
        st = COMPI_ERR_NO_MEMORY;
        goto err;
    }
    c->start = exchange__start;
    c->signature = coll_sig_long(sig, s->local->params.segsize);
    if (st_p != NULL) {
        *st_p = COMPI_OK;
    }
    return c;
err:
    coll_exchange_free(x);
    exchange__free(s);
    if (st_p != NULL) {
        *st_p = st;
    }
    return NULL;
}
