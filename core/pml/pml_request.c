/*
 * pml_request.c -- the request pool, persistent starts and joined requests.
 *
 * Requests are carved from chunks that are never moved or freed before finalize, so a
 * request's address can travel on the wire as its id.  Freed requests go on a LIFO free
 * list (the most recently used one is the warmest in cache); after warm-up no send or
 * receive allocates.  The handles users see for them are the API layer's (core/mpi).
 */
#include "core/pml/pml_internal.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_REQS 64

typedef struct req_chunk {
    struct req_chunk *next;
    pml_request_t reqs[CHUNK_REQS];
} req_chunk_t;

static req_chunk_t *chunks;
static pml_request_t *free_reqs;

static int grow(void)
{
    req_chunk_t *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        return -1;
    }
    c->next = chunks;
    chunks = c;
    for (int i = CHUNK_REQS - 1; i >= 0; i--) {
        c->reqs[i].next = free_reqs;
        free_reqs = &c->reqs[i];
    }
    return 0;
}

pml_request_t *pml_req_alloc(int kind, compi_comm_t *comm, compi_datatype_t *dt)
{
    if (compi_unlikely(free_reqs == NULL) && grow() != 0) {
        return NULL;
    }
    pml_request_t *r = free_reqs;
    free_reqs = r->next;
    memset(r, 0, sizeof(*r));
    r->super.kind = (unsigned char)kind;
    pml_result_empty(&r->super.result);
    if (comm != NULL) {
        comm_retain(comm);
        r->super.comm = comm;
    }
    if (dt != NULL) {
        dt_retain(dt);
        r->dt = dt;
    }
    return r;
}

void pml_req_release(pml_request_t *r)
{
    if (compi_unlikely(r->ready_map != NULL || r->adopted != NULL || r->super.errtext != NULL)) {
        free(r->ready_map);
        free(r->adopted);
        free(r->super.errtext);
        r->ready_map = NULL;
        r->adopted = NULL;
        r->super.errtext = NULL;
    }
    if (r->dt != NULL) {
        dt_release(r->dt);
        r->dt = NULL;
    }
    if (r->super.comm != NULL) {
        comm_release(r->super.comm);
        r->super.comm = NULL;
    }
    r->super.kind = 0;
    r->next = free_reqs;
    free_reqs = r;
}

static void (*coll_start)(compi_request_t *req);
static void (*coll_release)(compi_request_t *req);

void pml_set_coll_hooks(void (*start)(compi_request_t *req), void (*release)(compi_request_t *req))
{
    coll_start = start;
    coll_release = release;
}

void pml_request_free(compi_request_t *req)
{
    pml_request_t *r = (pml_request_t *)req;
    if (req->complete || (req->persistent && !req->active)) {
        if (compi_unlikely(req->kind == REQ_COLL && req->persistent) && coll_release != NULL) {
            coll_release(req);
        }
        pml_req_release(r);
    } else {
        /* still in flight: the completion path releases it */
        req->user_freed = 1;
    }
}

void pml_req_finalize(void)
{
    while (chunks != NULL) {
        req_chunk_t *next = chunks->next;
        free(chunks);
        chunks = next;
    }
    free_reqs = NULL;
}

compi_request_t *pml_request_new(int kind, compi_comm_t *comm)
{
    pml_request_t *r = pml_req_alloc(kind, comm, NULL);
    return r != NULL ? &r->super : NULL;
}

void pml_request_complete(compi_request_t *req)
{
    pml_req_complete((pml_request_t *)req);
}

void pml_start(compi_request_t *req)
{
    req->active = 1;
    if (req->kind == REQ_COLL) {
        coll_start(req);
    } else if (req->kind == REQ_SEND) {
        pml_request_t *r = (pml_request_t *)req;
        if (compi_unlikely(r->parts > 0)) {
            pml_psend_start(r); /* the message leaves once every partition is ready */
            return;
        }
        pml_send_start(r);
    } else {
        pml_recv_start((pml_request_t *)req);
    }
}

/* ---- joined requests (pml.h) -------------------------------------------------------- */

compi_request_t *pml_join_new(compi_comm_t *comm)
{
    pml_request_t *j = pml_req_alloc(REQ_JOIN, comm, NULL);
    if (j == NULL) {
        return NULL;
    }
    j->super.result.source = PML_PROC_NULL;
    j->njoined = 1; /* pml_join_end's */
    return &j->super;
}

/* one report less to wait for; the last completes the REQ_JOIN request */
static void join_count_down(pml_request_t *j)
{
    if (--j->njoined == 0) {
        pml_req_complete(j);
    }
}

static void join_take(pml_request_t *j, const compi_request_t *req)
{
    compi_status_t first = j->super.result.error;
    if (req->kind == REQ_RECV) {
        j->super.result = req->result;
    }
    if (first != COMPI_OK) {
        j->super.result.error = first;
    } else if (req->result.error != COMPI_OK) {
        j->super.result.error = req->result.error;
    }
}

void pml_join_report(pml_request_t *req)
{
    pml_request_t *j = req->join;
    req->join = NULL;
    join_take(j, &req->super);
    join_count_down(j);
}

void pml_join(compi_request_t *join, compi_request_t *req)
{
    pml_request_t *j = (pml_request_t *)join, *r = (pml_request_t *)req;
    if (__atomic_load_n(&req->complete, __ATOMIC_ACQUIRE)) {
        join_take(j, req);
    } else {
        r->join = j;
        j->njoined++;
    }
    pml_request_free(req);
}

void pml_join_adopt(compi_request_t *join, void *mem)
{
    ((pml_request_t *)join)->adopted = mem;
}

void pml_join_end(compi_request_t *join)
{
    join_count_down((pml_request_t *)join);
}
