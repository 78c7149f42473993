/*
 * pml_request.c -- the request pool and the MPI request handle table.
 *
 * Requests are carved from chunks that are never moved or freed before finalize, so a
 * request's address can travel on the wire as its id.  Freed requests go on a LIFO free
 * list (the most recently used one is the warmest in cache); after warm-up no send or
 * receive allocates.
 */
#include "core/pml/pml_internal.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_REQS 64

handle_table_t req_table = HANDLE_TABLE_INIT(COMPI_HKIND_REQUEST, 1);

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

void pml_status_empty(MPI_Status *st)
{
    st->MPI_SOURCE = MPI_ANY_SOURCE;
    st->MPI_TAG = MPI_ANY_TAG;
    st->MPI_ERROR = MPI_SUCCESS;
    st->compi_cancelled = 0;
    st->compi_count = 0;
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
    r->super.handle = MPI_REQUEST_NULL;
    pml_status_empty(&r->super.status);
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
    if (compi_unlikely(r->ready_map != NULL)) {
        free(r->ready_map);
        r->ready_map = NULL;
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
    handle_table_destroy(&req_table);
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
