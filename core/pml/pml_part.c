/*
 * pml_part.c -- partitioned point-to-point communication (MPI-4.0 chapter 4): persistent
 * requests whose buffer is `partitions` blocks of `count` elements, a send whose blocks
 * are marked ready one by one (MPI_Pready) and a receive whose blocks can be tested one by
 * one (MPI_Parrived).
 *
 * The simplest sound protocol: a started send leaves as one message (eager or rendezvous
 * as its size decides) when its last partition is marked ready, so every partition of the
 * receive arrives together.  Partitions on either side may differ in number, as the
 * standard allows: only the bytes must agree.  What this gives up: early partitions do
 * not leave early (no overlap of a partition's transfer with the computation of the next).
 *
 * Matching: partitioned operations match only each other, in the order of their
 * initialization, whatever the order of their starts and of their last MPI_Pready.  Each
 * init takes the next number of its (communicator, peer, tag, direction), counted alike
 * at both ends, and the message carries it (PML_HFLAG_PART, pseq): a receive takes only
 * the message of its own number (PML_PKEY, pml_internal.h), and no ordinary receive or
 * probe sees it.  Numbers are 16 bits on the wire: the n-th and the (n + 65536)-th
 * operation of one peer and tag must not be active at once.
 *
 * Ownership: the requests are the PML's like any persistent request (pml_request.c);
 * the partition counters live in them, and a send's bitmap of ready partitions is
 * allocated at the init and freed with the request (pml_req_release), so nothing here
 * allocates once started.
 */
#include "config.h"

#include "core/pml/pml.h"
#include "core/pml/pml_internal.h"

#include <stdlib.h>
#include <string.h>

/* the next number of (comm, peer, tag, send); 0 and no number on no memory */
static uint32_t part_key(compi_comm_t *comm, int peer, int tag, int send)
{
    pml_comm_t *pc = comm->pml;
    pml_part_seq_t *s = pc->part_seqs;
    while (s != NULL && (s->peer != peer || s->tag != tag || s->send != send)) {
        s = s->next;
    }
    if (s == NULL) {
        s = calloc(1, sizeof(*s));
        if (s == NULL) {
            return 0;
        }
        s->peer = peer;
        s->tag = tag;
        s->send = send;
        s->next = pc->part_seqs;
        pc->part_seqs = s;
    }
    return PML_PKEY(s->next_seq++);
}

/* a new persistent request made partitioned: its partitions and its number; released on
   no memory */
static compi_status_t part_setup(compi_request_t **req_p, int partitions, compi_comm_t *comm,
                                 int peer, int tag, int send)
{
    pml_request_t *r = (pml_request_t *)*req_p;
    r->parts = partitions;
    r->pkey = part_key(comm, peer, tag, send);
    if (r->pkey == 0) {
        pml_req_release(r);
        *req_p = NULL;
        return COMPI_ERR_NO_MEMORY;
    }
    return COMPI_OK;
}

compi_status_t pml_psend_init(const void *buf, int partitions, size_t count,
                              compi_datatype_t *dt, int dst, int tag, compi_comm_t *comm,
                              compi_request_t **req_p)
{
    unsigned char *map = calloc((size_t)partitions / 8 + 1, 1);
    if (map == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    compi_status_t st = pml_send_init(buf, (size_t)partitions * count, dt, dst, tag, comm,
                                      PML_SEND_STANDARD, req_p);
    if (st != COMPI_OK) {
        free(map);
        return st;
    }
    ((pml_request_t *)*req_p)->ready_map = map; /* freed with the request */
    return part_setup(req_p, partitions, comm, dst, tag, 1);
}

compi_status_t pml_precv_init(void *buf, int partitions, size_t count, compi_datatype_t *dt,
                              int src, int tag, compi_comm_t *comm, compi_request_t **req_p)
{
    compi_status_t st = pml_recv_init(buf, (size_t)partitions * count, dt, src, tag, comm,
                                      req_p);
    return st != COMPI_OK ? st : part_setup(req_p, partitions, comm, src, tag, 0);
}

int pml_request_partitions(const compi_request_t *req)
{
    return req->kind == REQ_SEND || req->kind == REQ_RECV ? ((const pml_request_t *)req)->parts
                                                          : 0;
}

void pml_psend_start(pml_request_t *req)
{
    req->parts_ready = 0;
    memset(req->ready_map, 0, (size_t)req->parts / 8 + 1);
    req->super.complete = 0;
    pml_result_empty(&req->super.result);
}

compi_status_t pml_pready(compi_request_t *req, int p)
{
    pml_request_t *r = (pml_request_t *)req;
    unsigned char bit = (unsigned char)(1u << (p % 8));
    if (r->ready_map[p / 8] & bit) {
        return COMPI_ERR_INVALID_PARAM;
    }
    r->ready_map[p / 8] |= bit;
    if (++r->parts_ready == r->parts) {
        pml_send_start(r);
    }
    return COMPI_OK;
}

int pml_parrived(compi_request_t *req, int p)
{
    (void)p;
    if (!__atomic_load_n(&req->complete, __ATOMIC_ACQUIRE)) {
        pml_progress();
    }
    return __atomic_load_n(&req->complete, __ATOMIC_ACQUIRE);
}
