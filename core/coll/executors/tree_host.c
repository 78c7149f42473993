/*
 * tree_host.c -- the host level of a tree: a tree closure whose innermost groups share
 * memory (the ranks of one host: a hierarchical or MagPIe tree of (compi hierarchy) asked
 * for it with #:host-shm) runs each group's part of a barrier, bcast, reduce or
 * allreduce through the shm algorithms over a segment of that group
 * (core/coll/shm_group.h), and only the edges between groups as messages, over the tree
 * with its edges inside groups cut (a forest: `upper`, whose trees are the coordinators'
 * tree and one lone rank for every other rank):
 *
 *   hosts {0 1} {2 3}, root 0:    0 ---- 2         the edge between coordinators: messages
 *                                 :      :
 *                                 1      3         inside a host: its segment
 *
 *   bcast:     the coordinators' tree, then each group's shm bcast from its coordinator
 *   reduce:    each group's shm reduce to its coordinator, then the coordinators' tree
 *   allreduce: shm reduce, the coordinators' allreduce, shm bcast
 *   barrier:   shm barrier, the coordinators' barrier, shm barrier (nobody leaves before
 *              every coordinator has seen its whole group arrive)
 *
 * A call's phases are planned once (host_plan: which phases this rank takes part in,
 * each as a call, the group's over its view) and then run either straight through by a
 * blocking call (the shm algorithms' blocking entry points, the coordinators' tree as a
 * kept schedule) or as rounds of a nonblocking call's schedule (each group phase one
 * wait step, coll_shm_sched: the group segment's queue keeps the phases of outstanding
 * calls in the order of their starts, shm.h; the coordinators' tree as its steps).
 *
 * Cost inside a host of p ranks: one slot hand-off per 8 KiB round (shm.h) instead of
 * ceil(log2 p) messages of the tree's inner levels.  Served this way: blocking and
 * nonblocking calls of those four kinds, with a commutative op for reductions (a
 * group's partial result would otherwise have to stay a contiguous range of ranks) and
 * an element that fits a slot (coll_shm_slot).  Gather, scatter and allgather move
 * every rank's block through the coordinator anyway, so the segment saves little there.
 * Persistent calls run the plain tree: their starts are not ordered across ranks, so
 * they cannot number their rounds in a segment (shm.h).  So does a nonblocking call on a
 * communicator whose groups have no segments yet (making them is a blocking exchange,
 * done by the first blocking call of a closure with a host level), and every call of a
 * closure on a communicator whose groups could not get theirs.  Every rank decides the
 * same: from the key, the grouping and an agreement at the segments' creation.
 *
 * The closure binds the communicator it last served (h->comm, h->ctx) to that
 * communicator's groups and looks again when a call comes on another: one closure
 * serving two communicators at once from two threads would race on that binding.
 */
#include "config.h"

#include "core/coll/executors/tree_exec.h"
#include "core/coll/shm_group.h"

#include <stdlib.h>
#include <string.h>

struct tree_host {
    int *group_of; /* [n]: each rank's group */
    int *coord_of; /* [n]: the coordinator of each rank's group */
    int *pos;      /* [n]: each rank's place in its group, by ascending rank */
    tree_exec_t *upper;
    const coll_algo_t *shm[COLL_NKINDS]; /* the shm algorithms of barrier, bcast, reduce */
    coll_params_t none;   /* their params for blocking calls: defaults, no fallback */
    coll_closure_t self;  /* what those are called with: state = &none */
    coll_shm_fb_t fb;     /* what their schedules read (params.aux): the segment serves */
    coll_params_t served; /* their params for schedules: aux = &fb */
    /* the communicator bound last, and its groups (NULL: none, the plain tree runs) */
    compi_comm_t *comm;
    uint32_t ctx;
    coll_shm_group_t *g;
};

void tree_host__free(tree_host_t *h)
{
    if (h == NULL) {
        return;
    }
    tree_exec__free(h->upper);
    free(h->group_of);
    free(h->coord_of);
    free(h->pos);
    free(h);
}

/* 1 when the tree's only edges between groups leave one coordinator per group (every
   other rank's parent is in its own group) and every group number is a rank (0 .. n-1);
   fills coord_of and pos, with `by` (n ints) as scratch */
static int host_coords(const topo_tree_t *t, const int *group_of, int *coord_of, int *pos, int *by)
{
    int n = t->size;
    for (int r = 0; r < n; r++) {
        if (group_of[r] < 0 || group_of[r] >= n) {
            return 0;
        }
        by[r] = -1;
    }
    /* each group's coordinator: the one member whose parent is outside (or none) */
    for (int r = 0; r < n; r++) {
        int p = t->parent[r];
        if (p < 0 || group_of[p] != group_of[r]) {
            if (by[group_of[r]] != -1) {
                return 0; /* a second way into the group */
            }
            by[group_of[r]] = r;
        }
    }
    for (int r = 0; r < n; r++) {
        coord_of[r] = by[group_of[r]];
    }
    for (int r = 0; r < n; r++) {
        by[r] = 0;
    }
    /* places by ascending rank: each group's count so far */
    for (int r = 0; r < n; r++) {
        pos[r] = by[group_of[r]]++;
    }
    return 1;
}

/* the tree without its edges inside groups: the coordinators' tree, every other rank
   alone; children in the tree's serving order */
static topo_tree_t *host_forest(const topo_tree_t *t, const int *group_of)
{
    int n = t->size;
    int *parent = malloc((size_t)n * sizeof(int));
    int *order = malloc((size_t)n * sizeof(int));
    topo_tree_t *f = NULL;
    if (parent != NULL && order != NULL) {
        for (int r = 0; r < n; r++) {
            int p = t->parent[r];
            parent[r] = p >= 0 && group_of[p] != group_of[r] ? p : -1;
        }
        /* the root, then every rank's children in order: a permutation whose order is
           the serving order */
        order[0] = t->root;
        memcpy(order + 1, t->children, (size_t)(n - 1) * sizeof(int));
        if (topo_tree_from_parents(n, t->root, parent, order, &f) != COMPI_OK) {
            f = NULL;
        }
    }
    free(parent);
    free(order);
    return f;
}

/* the key can take the host level (see the top) */
static int host_fits(const tree_exec_t *s, const coll_call_t *call)
{
    if (call->mode == COLL_MODE_PERSISTENT || comm_is_inter(call->comm)) {
        return 0;
    }
    switch (s->kind) {
    case COLL_BARRIER:
    case COLL_BCAST:
        return 1;
    case COLL_REDUCE:
    case COLL_ALLREDUCE: {
        const compi_datatype_t *dt = call->rdt != NULL ? call->rdt : call->sdt;
        /* user ops: as coll/shm.c's shm_fits (another layout on each rank) */
        if (call->op == NULL || !call->op->commutative || call->op->predefined == 0 ||
            dt == NULL) {
            return 0;
        }
        return dt->extent > 0 && (size_t)dt->true_extent <= coll_shm_slot_size();
    }
    default:
        return 0;
    }
}

compi_status_t tree_host__attach(tree_exec_t *s, const int *group_of, const coll_call_t *call,
                                 int *attached)
{
    const topo_tree_t *t = s->tree;
    int n = t->size;
    *attached = 0;
    if (!host_fits(s, call)) {
        return COMPI_OK;
    }
    tree_host_t *h = calloc(1, sizeof(*h));
    if (h == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    h->group_of = malloc((size_t)n * sizeof(int));
    h->coord_of = malloc((size_t)n * sizeof(int));
    h->pos = malloc((size_t)n * sizeof(int));
    if (h->group_of == NULL || h->coord_of == NULL || h->pos == NULL) {
        tree_host__free(h);
        return COMPI_ERR_NO_MEMORY;
    }
    memcpy(h->group_of, group_of, (size_t)n * sizeof(int));
    int *by = malloc((size_t)n * sizeof(int));
    int fits = by != NULL && host_coords(t, group_of, h->coord_of, h->pos, by);
    free(by);
    if (!fits) {
        tree_host__free(h);
        /* not a tree of groups: it runs as it is */
        return by == NULL ? COMPI_ERR_NO_MEMORY : COMPI_OK;
    }
    compi_status_t st = COMPI_ERR_NO_MEMORY;
    topo_tree_t *f = host_forest(t, group_of);
    if (f == NULL || (h->upper = tree_exec__new(s->kind, f, &s->params, &st)) == NULL) {
        tree_host__free(h);
        return st;
    }
    static const coll_kind_t kinds[] = {COLL_BARRIER, COLL_BCAST, COLL_REDUCE};
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        h->shm[kinds[i]] = coll_algo_find(kinds[i], "shm");
        if (h->shm[kinds[i]] == NULL) {
            tree_host__free(h);
            return COMPI_ERR_INTERNAL;
        }
    }
    h->self.state = &h->none;
    h->served.aux = &h->fb;
    s->host = h;
    *attached = 1;
    return COMPI_OK;
}

/* the groups of comm: made at the first blocking call here (collective, every rank
   alike), only found by a nonblocking start (NULL: not made yet, the plain tree runs) */
static coll_shm_group_t *host_groups(tree_host_t *h, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    if (compi_unlikely(h->comm != comm || h->ctx != comm->ctx)) {
        compi_status_t st;
        coll_shm_group_t *g = call->mode == COLL_MODE_BLOCKING
                                  ? coll_shm_group_get(comm, h->group_of, &st)
                                  : coll_shm_group_find(comm, h->group_of);
        if (g == NULL && call->mode != COLL_MODE_BLOCKING) {
            return NULL; /* unbound: a later start looks again */
        }
        h->g = g;
        h->comm = comm;
        h->ctx = comm->ctx;
    }
    return h->g;
}

/* a call's phases on this rank, in order: each a group phase (the shm algorithm of the
   call's kind over the group's view) or the coordinators' tree (`upper`) */
typedef struct host_plan {
    int n;
    struct {
        int upper;
        coll_call_t call;
    } ph[3];
} host_plan_t;

static void plan_group(host_plan_t *p, const coll_call_t *gc, coll_kind_t kind)
{
    p->ph[p->n].upper = 0;
    p->ph[p->n].call = *gc;
    p->ph[p->n].call.kind = kind;
    p->n++;
}

static void plan_upper(host_plan_t *p, const coll_call_t *call)
{
    p->ph[p->n].upper = 1;
    p->ph[p->n].call = *call;
    p->n++;
}

/* the scratch a call needs here: a reduce's partial result at a coordinator that is not
   the root, count elements of dt; 0 elsewhere */
static size_t host_tmp_count(const tree_exec_t *s, const coll_shm_group_t *g,
                             const coll_call_t *call)
{
    int me = call->comm->rank;
    if (s->kind != COLL_REDUCE || g->view.size == 1 || s->host->coord_of[me] != me ||
        me == s->tree->root) {
        return 0;
    }
    return call->scount != 0 ? call->scount : call->rcount;
}

/* plans `call` (tmp: host_tmp_count's scratch); 0 when the plain tree serves it (a
   reduction with nothing to combine) */
static int host_plan(const tree_exec_t *s, const coll_shm_group_t *g, const coll_call_t *call,
                     void *tmp, host_plan_t *p)
{
    const tree_host_t *h = s->host;
    int me = call->comm->rank, coord = h->coord_of[me];
    int grouped = g->view.size > 1, leads = me == coord;
    compi_datatype_t *dt = call->rdt != NULL ? call->rdt : call->sdt;
    coll_call_t gc = *call; /* the group's part, over its view */
    gc.comm = (compi_comm_t *)&g->view;
    gc.root = h->pos[coord];
    p->n = 0;

    switch (s->kind) {
    case COLL_BARRIER:
        if (grouped) {
            plan_group(p, &gc, COLL_BARRIER);
        }
        if (leads) {
            plan_upper(p, call);
        }
        if (grouped) {
            plan_group(p, &gc, COLL_BARRIER);
        }
        return 1;
    case COLL_BCAST:
        if (leads) {
            plan_upper(p, call);
        }
        /* the buffer as the tree's schedule takes it: rbuf, or sbuf when rdt is NULL */
        gc.sbuf = call->rdt != NULL ? call->rbuf : call->sbuf;
        gc.scount = call->rdt != NULL ? call->rcount : call->scount;
        gc.sdt = dt;
        if (grouped && dt != NULL) {
            plan_group(p, &gc, COLL_BCAST);
        }
        return 1;
    case COLL_REDUCE:
    case COLL_ALLREDUCE: {
        size_t count = call->scount != 0 ? call->scount : call->rcount;
        const void *input = call->in_place ? call->rbuf : call->sbuf;
        int all = s->kind == COLL_ALLREDUCE;
        if (count == 0 || dt == NULL) {
            return 0;
        }
        coll_call_t up = *call;
        if (grouped) {
            /* the group's partial result at its coordinator: where the result goes (the
               root of a reduce, every rank of an allreduce), else scratch */
            void *partial = all || me == s->tree->root ? call->rbuf : leads ? tmp : NULL;
            gc.sbuf = input;
            gc.rbuf = partial;
            gc.scount = gc.rcount = count;
            gc.sdt = gc.rdt = dt;
            gc.in_place = leads && input == partial;
            plan_group(p, &gc, COLL_REDUCE);
            up.sbuf = partial;
            up.in_place = partial == call->rbuf;
        }
        if (leads) {
            plan_upper(p, &up);
        }
        if (all && grouped) {
            gc.sbuf = call->rbuf;
            gc.in_place = 0;
            plan_group(p, &gc, COLL_BCAST);
        }
        return 1;
    }
    default:
        return 0;
    }
}

/* the first error of a call's phases: every phase runs even after one failed, so that
   every rank stays in step with its group and the tree */
static inline void host_keep(compi_status_t *st, compi_status_t phase)
{
    if (*st == COMPI_OK) {
        *st = phase;
    }
}

int tree_host__run(tree_exec_t *s, const coll_call_t *call, compi_status_t *st_p)
{
    tree_host_t *h = s->host;
    coll_shm_group_t *g = host_groups(h, call);
    if (compi_unlikely(g == NULL)) {
        return 0;
    }
    compi_status_t st = COMPI_OK;
    size_t count = host_tmp_count(s, g, call);
    void *mem = NULL, *tmp = NULL;
    host_plan_t p;
    if (count > 0) {
        tmp = coll_tmp_get(call->rdt != NULL ? call->rdt : call->sdt, count, &mem);
        if (tmp == NULL) {
            st = COMPI_ERR_NO_MEMORY; /* the phases still run, to stay in step */
            tmp = call->rbuf;
        }
    }
    if (!host_plan(s, g, call, tmp, &p)) {
        return 0;
    }
    for (int i = 0; i < p.n; i++) {
        const coll_call_t *c = &p.ph[i].call;
        host_keep(&st, p.ph[i].upper ? tree_exec__run_state(h->upper, c)
                                     : h->shm[c->kind]->fn(&h->self, c));
    }
    if (mem != NULL) {
        coll_scratch_put(mem);
    }
    *st_p = st;
    return 1;
}

/* a nonblocking call's schedule: the phases, one round each */
static void host_build(const coll_call_t *call, void *arg, coll_sched_t *sc)
{
    tree_exec_t *s = arg;
    tree_host_t *h = s->host;
    coll_shm_group_t *g = h->g; /* tree_host__start found it */
    size_t count = host_tmp_count(s, g, call);
    void *tmp = NULL;
    host_plan_t p;
    if (count > 0 &&
        (tmp = coll_sched_scratch(sc, call->rdt != NULL ? call->rdt : call->sdt, count)) == NULL) {
        return; /* the schedule fails */
    }
    (void)host_plan(s, g, call, tmp, &p); /* tree_host__start saw that it plans */
    for (int i = 0; i < p.n; i++) {
        const coll_call_t *c = &p.ph[i].call;
        if (p.ph[i].upper) {
            tree_exec__sched_build(h->upper, sc, c);
        } else {
            h->shm[c->kind]->sched(c, &h->served, sc);
        }
        coll_sched_round(sc);
    }
}

int tree_host__start(tree_exec_t *s, const coll_call_t *call, struct compi_request **req_p,
                     compi_status_t *st_p)
{
    tree_host_t *h = s->host;
    host_plan_t p;
    if (call->mode != COLL_MODE_NONBLOCKING) {
        return 0;
    }
    coll_shm_group_t *g = host_groups(h, call);
    if (g == NULL || !host_plan(s, g, call, NULL, &p)) {
        return 0;
    }
    *st_p = coll_sched_start_built(call, host_build, s, req_p);
    return 1;
}
