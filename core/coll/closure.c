/*
 * closure.c -- closure objects and native-algorithm closures.
 */
#include "core/coll/coll.h"

#include "core/coll/sched/sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[COLL_NKINDS] = {
    [COLL_BARRIER] = "barrier",
    [COLL_BCAST] = "bcast",
    [COLL_REDUCE] = "reduce",
    [COLL_ALLREDUCE] = "allreduce",
    [COLL_GATHER] = "gather",
    [COLL_GATHERV] = "gatherv",
    [COLL_SCATTER] = "scatter",
    [COLL_SCATTERV] = "scatterv",
    [COLL_ALLGATHER] = "allgather",
    [COLL_ALLGATHERV] = "allgatherv",
    [COLL_ALLTOALL] = "alltoall",
    [COLL_ALLTOALLV] = "alltoallv",
    [COLL_ALLTOALLW] = "alltoallw",
    [COLL_REDUCE_SCATTER] = "reduce-scatter",
    [COLL_REDUCE_SCATTER_BLOCK] = "reduce-scatter-block",
    [COLL_SCAN] = "scan",
    [COLL_EXSCAN] = "exscan",
    [COLL_NEIGHBOR_ALLGATHER] = "neighbor-allgather",
    [COLL_NEIGHBOR_ALLGATHERV] = "neighbor-allgatherv",
    [COLL_NEIGHBOR_ALLTOALL] = "neighbor-alltoall",
    [COLL_NEIGHBOR_ALLTOALLV] = "neighbor-alltoallv",
    [COLL_NEIGHBOR_ALLTOALLW] = "neighbor-alltoallw",
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

/* FNV-1a: a stable signature of a closure's description, equal on every rank that
   built the same thing */
static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) {
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    }
    return h;
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
    c->signature = name_hash(c->name);
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

/* a native closure's state: the params first, so algorithms read it as a coll_params_t */
typedef struct native_state {
    coll_params_t params;
    const coll_algo_t *algo;
} native_state_t;

static compi_status_t native_start(coll_closure_t *self, const coll_call_t *call,
                                   struct compi_request **req_p)
{
    const native_state_t *n = self->state;
    coll_sched_t *s = coll_sched_new(call);
    if (s == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    n->algo->sched(call, &n->params, s);
    return coll_sched_start(s, req_p);
}

coll_closure_t *coll_closure_native(const coll_algo_t *algo, const coll_params_t *params)
{
    native_state_t *ns = malloc(sizeof(*ns));
    if (ns == NULL) {
        return NULL;
    }
    ns->params = params != NULL ? *params : (coll_params_t){0};
    ns->algo = algo;
    coll_params_t *p = &ns->params;

    char name[96];
    int n = snprintf(name, sizeof(name), "%s:%s", coll_kind_name(algo->kind), algo->name);
    if (p->fanout != 0 || p->segsize != 0) {
        const char *sep = "(";
        if (p->fanout != 0 && n < (int)sizeof(name)) {
            n += snprintf(name + n, sizeof(name) - (size_t)n, "%sfanout=%ld", sep, p->fanout);
            sep = ",";
        }
        if (p->segsize != 0 && n < (int)sizeof(name)) {
            n += snprintf(name + n, sizeof(name) - (size_t)n, "%ssegsize=%ld", sep, p->segsize);
        }
        if (n < (int)sizeof(name)) {
            snprintf(name + n, sizeof(name) - (size_t)n, ")");
        }
    }
    coll_closure_t *c = coll_closure_new(algo->fn, ns, free, name);
    if (c == NULL) {
        free(ns);
        return NULL;
    }
    c->start = algo->sched != NULL ? native_start : NULL;
    return c;
}
