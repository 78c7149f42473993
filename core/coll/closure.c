/*
 * closure.c -- closure objects and native-algorithm closures.
 */
#include "core/coll/coll.h"

#include "core/coll/executors/tree_closure.h"
#include "core/coll/sched/sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[COLL_NKINDS] = {
#define COLL_KIND(e, name) [COLL_##e] = name,
#include "core/coll/kinds.def"
};

const char *coll_mode_name(coll_mode_t mode)
{
    switch (mode) {
    case COLL_MODE_NONBLOCKING:
        return "nonblocking";
    case COLL_MODE_PERSISTENT:
        return "persistent";
    default:
        return "blocking";
    }
}

const char *coll_kind_name(coll_kind_t kind)
{
    return (unsigned)kind < COLL_NKINDS ? kind_names[kind] : "?";
}

uint64_t coll_sig_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ b[i]) * 1099511628211ull;
    }
    return h;
}

uint64_t coll_sig_str(uint64_t h, const char *s)
{
    return coll_sig_bytes(h, s, strlen(s) + 1);
}

coll_closure_t *coll_closure_new(coll_fn_t fn, void *state, void (*free_state)(void *),
                                 const char *name)
{
    coll_closure_t *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        return NULL;
    }
    c->fn = fn;
    c->state = state;
    c->free_state = free_state;
    c->refcount = 1;
    snprintf(c->name, sizeof(c->name), "%s", name);
    c->signature = coll_sig_str(COLL_SIG_SEED, c->name);
    return c;
}

void coll_closure_retain(coll_closure_t *c)
{
    c->refcount++;
}

void coll_closure_release(coll_closure_t *c)
{
    if (c == NULL || --c->refcount > 0) {
        return;
    }
    if (c->free_state != NULL) {
        c->free_state(c->state);
    }
    free(c);
}

/* a native closure's state: the params first, so algorithms read it as a coll_params_t;
   an algorithm that is only its schedule keeps the schedule of its last blocking call
   for a repeat (native_run) */
typedef struct native_state {
    coll_params_t params;
    const coll_algo_t *algo;
    coll_sched_keep_t keep;
} native_state_t;

static void native_free(void *state)
{
    native_state_t *ns = state;
    coll_sched_keep_drop(&ns->keep);
    if (ns->params.aux != NULL && ns->algo->release != NULL) {
        ns->algo->release(ns->params.aux);
    }
    free(ns);
}

static void native_build(const coll_call_t *call, void *arg, coll_sched_t *s)
{
    const native_state_t *n = arg;
    n->algo->sched(call, &n->params, s);
}

static compi_status_t native_start(coll_closure_t *self, const coll_call_t *call,
                                   struct compi_request **req_p)
{
    return coll_sched_start_built(call, native_build, self->state, req_p);
}

/* a blocking call of an algorithm that is only a schedule: the same schedule, run to
   completion without a request, kept for the next call with the same arguments */
static compi_status_t native_run(coll_closure_t *self, const coll_call_t *call)
{
    native_state_t *n = self->state;
    return coll_sched_run_kept(&n->keep, call, native_build, n);
}

/* "bcast:binomial(fanout=3,segsize=8192)": the non-zero params the creator gave; ranks
   as "ranks=0+4+8" (the name is cut where it is full) */
static void native_name(const coll_algo_t *algo, const coll_params_t *p, char *name, size_t len)
{
    int n = snprintf(name, len, "%s:%s", coll_kind_name(algo->kind), algo->name);
    if (p->fanout != 0 || p->segsize != 0 || p->nranks > 0) {
        const char *sep = "(";
        if (p->fanout != 0 && n < (int)len) {
            n += snprintf(name + n, len - (size_t)n, "%sfanout=%ld", sep, p->fanout);
            sep = ",";
        }
        if (p->segsize != 0 && n < (int)len) {
            n += snprintf(name + n, len - (size_t)n, "%ssegsize=%ld", sep, p->segsize);
            sep = ",";
        }
        if (p->nranks > 0 && n < (int)len) {
            n += snprintf(name + n, len - (size_t)n, "%s", sep);
        }
        for (int i = 0; i < p->nranks && n < (int)len; i++) {
            n += snprintf(name + n, len - (size_t)n, "%s%d", i == 0 ? "ranks=" : "+", p->ranks[i]);
        }
        if (n < (int)len) {
            snprintf(name + n, len - (size_t)n, ")");
        }
    }
}

coll_closure_t *coll_closure_native(const coll_algo_t *algo, const coll_params_t *params)
{
    if (algo->fn == NULL && algo->sched == NULL) {
        return NULL; /* a tree algorithm: coll_closure_algo() */
    }
    int nranks = params != NULL && params->nranks > 0 ? params->nranks : 0;
    /* the ranks, copied behind the state: freed with it */
    native_state_t *ns = malloc(sizeof(*ns) + (size_t)nranks * sizeof(int));
    if (ns == NULL) {
        return NULL;
    }
    ns->params = params != NULL ? *params : (coll_params_t){0};
    ns->params.aux = NULL; /* only .prepare sets it (coll_closure_algo) */
    ns->params.nranks = nranks;
    ns->params.ranks = NULL;
    if (nranks > 0) {
        int *r = (int *)(ns + 1);
        memcpy(r, params->ranks, (size_t)nranks * sizeof(int));
        ns->params.ranks = r;
    }
    ns->algo = algo;
    ns->keep = (coll_sched_keep_t){0};

    char name[96];
    native_name(algo, &ns->params, name, sizeof(name));
    coll_closure_t *c =
        coll_closure_new(algo->fn != NULL ? algo->fn : native_run, ns, native_free, name);
    if (c == NULL) {
        free(ns);
        return NULL;
    }
    c->start = algo->sched != NULL ? native_start : NULL;
    uint64_t h = coll_sig_str(COLL_SIG_SEED, "native");
    h = coll_sig_long(h, algo->kind);
    h = coll_sig_str(h, algo->name);
    h = coll_sig_long(h, ns->params.fanout);
    h = coll_sig_long(h, ns->params.segsize);
    if (nranks > 0) { /* without ranks, the signature algorithms had before ranks existed */
        h = coll_sig_long(h, nranks);
        h = coll_sig_ints(h, ns->params.ranks, (size_t)nranks);
    }
    c->signature = h;
    return c;
}

coll_closure_t *coll_closure_algo(const coll_algo_t *algo, const coll_params_t *params,
                                  const coll_call_t *call, compi_status_t *st_p)
{
    compi_status_t st = COMPI_ERR_NO_MEMORY;
    coll_params_t p = params != NULL ? *params : (coll_params_t){0};
    coll_closure_t *c = NULL;

    if (algo->tree == NULL) {
        c = coll_closure_native(algo, &p);
        st = c != NULL ? COMPI_OK : COMPI_ERR_NO_MEMORY;
        if (c != NULL && algo->prepare != NULL) {
            native_state_t *ns = c->state;
            st = algo->prepare(call, &ns->params);
            if (st != COMPI_OK) {
                coll_closure_release(c);
                c = NULL;
            }
        }
        goto out;
    }
    /* the tree's params: those the algorithm reads (a binomial bcast is never
       segmented, whatever the creator wrote), the creator's, else the defaults */
    coll_params_t tp = p;
    if (!(algo->params & COLL_PARAM_FANOUT)) {
        tp.fanout = 0;
    }
    if (!(algo->params & COLL_PARAM_SEGSIZE)) {
        tp.segsize = 0;
    }
    if (tp.fanout <= 0) {
        tp.fanout = algo->tree_defaults.fanout;
    }
    if (tp.segsize <= 0) {
        tp.segsize = algo->tree_defaults.segsize;
    }
    int root = call->root >= 0 ? call->root : 0;
    struct topo_tree *tree = algo->tree(call->comm->size, root, &tp);
    if (tree == NULL) {
        goto out;
    }
    c = coll_closure_tree(algo->kind, tree, &tp, &st);
    if (c != NULL) {
        /* named for people as the algorithm; the signature stays the tree's (what it
           does: a creator's tree of the same shape has the same one) */
        native_name(algo, &p, c->name, sizeof(c->name));
    }
out:
    if (st_p != NULL) {
        *st_p = st;
    }
    return c;
}
