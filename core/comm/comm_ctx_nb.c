/*
 * comm_ctx_nb.c -- the context id of an MPI_Comm_idup whose parent's pool is empty, agreed
 * without waiting: a small state machine that the PML's progress advances.
 *
 * Its ids come from a space of their own, [COMM_CTX_NB_BASE, UINT32_MAX), which the
 * blocking agreements (below it, comm.c and intercomm.c) never reach, so it competes only
 * with other nonblocking agreements.  Those of one parent run one after the other, in the
 * order of the idups, which MPI makes the same on every member; those of different
 * parents may run at once.  One attempt, over the parent's members (both groups of an
 * intercommunicator: nb_route), rank 0 the root:
 *
 *   offer    every member offers c, its next free id, and at once holds [c, c + 1 +
 *            COMM_CTX_POOL) for this attempt (its next free id moves past it); the root
 *            gathers the offers and sends back C, the largest;
 *   verdict  C is free here when C == c (the range held) or C is at or past the next free
 *            id (nothing here reached it: it is taken now); the root gathers whether it
 *            was not, and sends back the or of these: 0, and C is the new communicator's
 *            on every member, [C + 1, C + 1 + COMM_CTX_POOL) its pool (C + 1 an
 *            intercommunicator's local_comm, the rest its pool); else another attempt
 *            with new offers.
 *
 *     member r:   offer c_r ---> root: C = max c ---> r: C free here? ---> root: any not?
 *                                                                    0: done, 1: again
 *
 * An attempt fails only where another agreement of an overlapping set of processes took
 * part of C on some member meanwhile; the id given is never one another communicator of
 * any member has or will get.  Holding an offer's range at once keeps the offers of the
 * agreements running at one process apart.  The ranges of failed attempts are not reused
 * (the space holds 2^31 ids, about eight million agreements).  Cost per attempt: four
 * message latencies, 2 (n - 1) messages each way through the root.
 *
 * Ownership: an agreement holds a reference to the parent and to the child (the idup's
 * own, taken over) and the caller's request, which it completes; the messages' requests
 * are its own.
 */
#include "config.h"

#include "core/comm/comm.h"

#include "core/dt/dt.h"
#include "core/pml/pml.h"

#include <stdlib.h>

enum { NB_OFFER = 1, NB_VERDICT };

typedef struct ctx_nb {
    struct ctx_nb *next;                /* the next one running, or waiting behind this one */
    struct ctx_nb *later, **later_tail; /* running: the parent's next agreements, in order */
    compi_comm_t *parent, *child;
    compi_request_t *req;
    int step;
    uint32_t offer, ctx;  /* this member's offer, the largest one */
    uint32_t mine, got;   /* what this member sends in the step, what the root answers */
    uint32_t *in;         /* the root: the others' values, [npeers] */
    compi_request_t **rq; /* the step's messages */
    int nrq;
    int answered; /* the root: its answer is on its way */
    /* who talks to whom (nb_route): the root's peers, in order, or this member's way to
       the root */
    int is_root, npeers;
    compi_comm_t *up; /* a member: the communicator to reach the root by, at rank 0 */
} ctx_nb_t;

static ctx_nb_t *nb_running; /* one per parent at most */
static uint32_t nb_next = COMM_CTX_NB_BASE;
static int nb_busy; /* nb_progress runs (the PML may poll inside a send) */

/*
 * The members and the root.  Over an intracommunicator: its rank 0, and the others by
 * their ranks.  Over an intercommunicator, both groups take part, the root being rank 0
 * of the group whose rank 0 comes first (comm_inter_first_lower: the same choice in both
 * groups, spawned ones too): the root's own group talks to it over the local_comm, the
 * other group over the intercommunicator (whose ranks are the remote group's); the root's
 * peers are its own group's ranks 1.. first, then the other group's.
 */
static void nb_route(ctx_nb_t *a)
{
    compi_comm_t *c = a->parent;
    if (!comm_is_inter(c)) {
        a->is_root = c->rank == 0;
        a->npeers = c->size - 1;
        a->up = c;
        return;
    }
    int root_group = comm_inter_first_lower(c->group, c->remote_group);
    a->is_root = root_group && c->local_comm->rank == 0;
    a->npeers = c->local_comm->size - 1 + c->remote_group->size;
    a->up = root_group ? c->local_comm : c;
}

/* the root's peer i: its communicator and rank there */
static compi_comm_t *nb_peer(ctx_nb_t *a, int i, int *rank_p)
{
    compi_comm_t *c = a->parent;
    if (!comm_is_inter(c)) {
        *rank_p = i + 1;
        return c;
    }
    if (i < c->local_comm->size - 1) {
        *rank_p = i + 1;
        return c->local_comm;
    }
    *rank_p = i - (c->local_comm->size - 1);
    return c;
}

static compi_status_t nb_send_step(ctx_nb_t *a, uint32_t value)
{
    int tag = a->step == NB_OFFER ? COMPI_TAG_CTX_OFFER : COMPI_TAG_CTX_VERDICT;
    compi_datatype_t *u32 = dt_from_handle(MPI_UINT32_T);
    compi_status_t st = COMPI_OK;

    a->mine = value;
    a->answered = 0;
    a->nrq = 0;
    if (a->is_root) {
        for (int i = 0; i < a->npeers && st == COMPI_OK; i++) {
            int r;
            compi_comm_t *pc = nb_peer(a, i, &r);
            st = pml_irecv(&a->in[i], 1, u32, r, tag, pc, &a->rq[a->nrq]);
            a->nrq += st == COMPI_OK;
        }
    } else {
        st = pml_isend(&a->mine, 1, u32, 0, tag, a->up, PML_SEND_STANDARD, &a->rq[a->nrq]);
        a->nrq += st == COMPI_OK;
        if (st == COMPI_OK) {
            st = pml_irecv(&a->got, 1, u32, 0, tag, a->up, &a->rq[a->nrq]);
            a->nrq += st == COMPI_OK;
        }
    }
    return st;
}

/* 1 when every message of the step is done (freed then); the first error in *st_p */
static int nb_step_done(ctx_nb_t *a, compi_status_t *st_p)
{
    for (int i = 0; i < a->nrq; i++) {
        if (!__atomic_load_n(&a->rq[i]->complete, __ATOMIC_ACQUIRE)) {
            return 0;
        }
    }
    for (int i = 0; i < a->nrq; i++) {
        if (a->rq[i]->result.error != COMPI_OK && *st_p == COMPI_OK) {
            *st_p = a->rq[i]->result.error;
        }
        pml_request_free(a->rq[i]);
    }
    a->nrq = 0;
    return 1;
}

/* a new attempt: this member's offer, held at once */
static compi_status_t nb_offer(ctx_nb_t *a)
{
    if (nb_next > UINT32_MAX - 2 * (COMM_CTX_POOL + 1)) {
        return COMPI_ERR_NO_RESOURCE;
    }
    a->offer = nb_next;
    nb_next += COMM_CTX_POOL + 1;
    a->step = NB_OFFER;
    return nb_send_step(a, a->offer);
}

/* the step's answer is known to this member: act on it */
static compi_status_t nb_answer(ctx_nb_t *a, uint32_t answer, int *done_p)
{
    if (a->step == NB_OFFER) {
        int taken = 0;
        a->ctx = answer;
        if (answer >= nb_next) {
            nb_next = answer + COMM_CTX_POOL + 1; /* free here: taken now */
        } else if (answer != a->offer) {
            taken = 1; /* held by another agreement, or given */
        }
        a->step = NB_VERDICT;
        return nb_send_step(a, (uint32_t)taken);
    }
    if (answer != 0) {
        return nb_offer(a);
    }
    *done_p = 1;
    return COMPI_OK;
}

/* advance one agreement; 1 when it changed */
static int nb_advance(ctx_nb_t *a, compi_status_t *st_p, int *done_p)
{
    compi_status_t st = COMPI_OK;

    if (!nb_step_done(a, &st)) {
        return 0;
    }
    if (st != COMPI_OK) {
        *st_p = st;
        return 1;
    }
    if (!a->is_root) {
        *st_p = nb_answer(a, a->got, done_p);
        return 1;
    }
    if (!a->answered) {
        /* the root has every value: the largest to all (eager, 4 bytes) */
        uint32_t best = a->mine;
        int tag = a->step == NB_OFFER ? COMPI_TAG_CTX_OFFER : COMPI_TAG_CTX_VERDICT;
        for (int i = 0; i < a->npeers; i++) {
            best = a->in[i] > best ? a->in[i] : best;
        }
        a->got = best;
        a->answered = 1;
        for (int i = 0; i < a->npeers && st == COMPI_OK; i++) {
            int r;
            compi_comm_t *pc = nb_peer(a, i, &r);
            st = pml_isend(&a->got, 1, dt_from_handle(MPI_UINT32_T), r, tag, pc, PML_SEND_STANDARD,
                           &a->rq[a->nrq]);
            a->nrq += st == COMPI_OK;
        }
        *st_p = st;
        return 1;
    }
    *st_p = nb_answer(a, a->got, done_p);
    return 1;
}

static void nb_end(ctx_nb_t *a, compi_status_t st)
{
    int posted = a->nrq;

    for (int i = 0; i < a->nrq; i++) {
        pml_request_free(a->rq[i]); /* released when done, after an error */
    }
    if (st == COMPI_OK) {
        /* [ctx, ctx + 1 + COMM_CTX_POOL) is the child's: its id (and its local_comm's, an
           intercommunicator's), the rest its pool */
        st = comm_bind_ctx(a->child, a->ctx);
        comm_pool_reserved(a->child);
    }
    a->req->result.error = st;
    comm_release(a->child); /* the user's handle keeps it */
    comm_release(a->parent);
    pml_request_complete(a->req);
    if (posted > 0) {
        return; /* a failed step's messages may still land in a->in, a->got: kept */
    }
    free(a->in);
    free(a->rq);
    free(a);
}

/* the PML's progress hook while agreements run: each advances as far as it can; one
   that ends hands its place to the next of its parent */
static int nb_progress(void)
{
    int n = 0;
    ctx_nb_t **pp = &nb_running;

    if (nb_busy) {
        return 0;
    }
    nb_busy = 1;
    while (*pp != NULL) {
        ctx_nb_t *a = *pp;
        compi_status_t st = COMPI_OK;
        int done = 0;

        if (a->step == 0) {
            st = nb_offer(a);
            done = st != COMPI_OK;
            n++;
        }
        while (!done && nb_advance(a, &st, &done)) {
            n++;
            done |= st != COMPI_OK;
        }
        if (!done) {
            pp = &a->next;
            continue;
        }
        ctx_nb_t *b = a->later;
        if (b != NULL) {
            /* the parent's next agreement runs in a's place */
            b->later = b->next;
            b->later_tail = b->next != NULL ? a->later_tail : &b->later;
            b->next = a->next;
            *pp = b;
        } else {
            *pp = a->next;
        }
        nb_end(a, st);
        n++;
    }
    if (nb_running == NULL) {
        pml_set_progress_hook(PML_HOOK_COMM, NULL);
    }
    nb_busy = 0;
    return n;
}

compi_status_t comm_idup_agree(compi_comm_t *parent, compi_comm_t *child, compi_request_t *req)
{
    ctx_nb_t *a = calloc(1, sizeof(*a));
    if (a == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    a->parent = parent;
    nb_route(a);
    int n = a->npeers > 1 ? a->npeers : 2; /* the root's messages, or a member's two */
    if ((a->in = malloc((size_t)n * sizeof(*a->in))) == NULL ||
        (a->rq = malloc((size_t)n * sizeof(*a->rq))) == NULL) {
        free(a->in);
        free(a);
        return COMPI_ERR_NO_MEMORY;
    }
    comm_retain(parent);
    a->child = child;
    a->req = req;
    a->later_tail = &a->later;
    for (ctx_nb_t *r = nb_running; r != NULL; r = r->next) {
        if (r->parent == parent) {
            *r->later_tail = a; /* behind the parent's running one */
            r->later_tail = &a->next;
            return COMPI_OK;
        }
    }
    a->next = nb_running;
    nb_running = a;
    pml_set_progress_hook(PML_HOOK_COMM, nb_progress);
    nb_progress();
    return COMPI_OK;
}
