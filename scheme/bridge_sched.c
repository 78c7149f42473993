/*
 * bridge_sched.c -- schedules a creator writes in Scheme, turned at the miss into a
 * closure that runs them with the schedule engine (core/coll/sched/sched.h), in C.
 *
 *   miss:  (schedule KIND NAME BUILDER)
 *            | (compi internal) schedule-steps: the builder for every rank, each step
 *            | range-checked, every send paired with its receive, round by round
 *            v
 *          this rank's steps (code, peer, buffer, offset, count; the earlier steps
 *          of its round a step waits for, #:after), its scratch sizes
 *            -> bsched_t, the closure's state; signature: a hash of every rank's steps
 *
 *   call:  fn    -> a coll_sched_t from the steps, buffers bound to the call's -> run
 *          start -> the same, started (nonblocking) or kept (persistent)
 *
 * Offsets and counts are in elements of the call's datatype (the receive side's; the
 * reduction's).  A call whose one datatype has the size of the miss's runs its steps on
 * it, any layout; one with two datatypes (send and receive sides), or whose datatype has
 * another size (another call with the same key: the key of bcast, allgather and
 * alltoall holds only bytes), runs them on bytes, an element being as many bytes as at
 * the miss: on its buffers when every datatype it uses is contiguous, else on packed
 * copies of them (the receive buffer unpacked after the last round).
 *
 * MPI_IN_PLACE: `send' is the receive buffer (allreduce, reduce at the root), the
 * calling rank's block of it (allgather), or a copy of it taken before the first round
 * (alltoall, whose blocks are all overwritten).  bcast: `send' and `recv' are the one
 * buffer.
 *
 * Ownership: the state belongs to the closure (freed by its free_state); the schedule
 * built per call belongs to the engine once started.
 */
#include "scheme/bridge_sched.h"
#include "scheme/bridge_scm.h"
#include "core/coll/sched/sched.h"
#include "core/runtime/log.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* step codes of (compi internal): 7 integers a record; BS_AFTER: the next step waits
   for the step of record `peer` (coll_sched_after) */
enum { BS_SEND, BS_RECV, BS_REDUCE, BS_COPY, BS_END_ROUND, BS_AFTER, BS_FIELDS = 7 };
enum { BS_BUF_SEND, BS_BUF_RECV, BS_BUF_SCRATCH };

typedef struct bsched_step {
    int code;
    int peer;
    int buf, buf2; /* BS_BUF_*, scratch K is BS_BUF_SCRATCH + K */
    size_t off, off2, count;
} bsched_step_t;

typedef struct bsched {
    coll_kind_t kind;
    size_t n;    /* the call's count in elements, as the key fixes it */
    size_t elem; /* bytes of one element of the miss's datatype */
    bsched_step_t *steps;
    size_t nsteps;
    int *ids;        /* the engine's id of each step record, written as a call's schedule is
                        built (builds do not overlap: the API layer's lock) */
    size_t *scratch; /* elements of each scratch buffer */
    size_t nscratch;
} bsched_t;

static void bsched_free(void *p)
{
    bsched_t *b = p;
    if (b != NULL) {
        free(b->steps);
        free(b->ids);
        free(b->scratch);
        free(b);
    }
}

/* ---- binding a call's buffers ---------------------------------------------------- */

typedef struct bsched_bind {
    compi_datatype_t *dt; /* what the steps move: the call's datatype, or MPI_BYTE */
    size_t mul;           /* dt elements per schedule element */
    size_t stride;        /* bytes per schedule element */
    char *send, *recv;    /* buffer pointers to pass with dt */
    int copy_in;          /* alltoall in place: `send' is a copy of recv, taken first */
    int pack;             /* the steps run on packed copies of the call's buffers */
} bsched_bind_t;

static int bsched_has_send(coll_kind_t kind)
{
    return kind != COLL_BARRIER && kind != COLL_BCAST;
}

/* How the steps run on this call: which datatype they move, where the buffers are */
static void bsched_bind(const bsched_t *b, const coll_call_t *call, bsched_bind_t *x)
{
    compi_datatype_t *rdt = call->rdt;
    compi_datatype_t *sdt = call->in_place || !bsched_has_send(b->kind) ? NULL : call->sdt;
    char *sbuf = (char *)call->sbuf, *rbuf = call->rbuf;

    memset(x, 0, sizeof(*x));
    if (b->kind == COLL_BARRIER) {
        x->dt = dt_from_handle(MPI_BYTE);
        x->mul = x->stride = 1;
        return;
    }
    if (rdt->size == b->elem && (sdt == NULL || sdt == rdt)) {
        x->dt = rdt;
        x->mul = 1;
        x->stride = (size_t)rdt->extent;
    } else if (rdt->contig && (sdt == NULL || sdt->contig)) {
        /* the same bytes in another datatype (the key holds only bytes): move bytes */
        x->dt = dt_from_handle(MPI_BYTE);
        x->mul = x->stride = b->elem;
        rbuf = rbuf != NULL ? rbuf + rdt->true_lb : NULL;
        sbuf = sdt != NULL && sbuf != NULL ? sbuf + sdt->true_lb : sbuf;
    } else {
        /* another layout of the same bytes: the steps run on packed copies (the receive
           buffer is packed first and unpacked after the last round) */
        x->dt = dt_from_handle(MPI_BYTE);
        x->mul = x->stride = b->elem;
        x->pack = 1;
    }
    x->recv = rbuf;
    x->send = sbuf;
    if (b->kind == COLL_BCAST) {
        x->send = rbuf;
    } else if (call->in_place) {
        switch (b->kind) {
        case COLL_ALLGATHER:
            x->send = rbuf + (size_t)call->comm->rank * b->n * x->stride;
            break;
        case COLL_ALLTOALL:
            x->copy_in = 1;
            break;
        default: /* allreduce, reduce at the root */
            x->send = rbuf;
            break;
        }
    }
}

/* Packed copies of the call's buffers, taken in a round of their own before the
   schedule's first: x->recv and x->send point into them; *rtotal_p gets the receive
   buffer's elements (of the call's receive datatype), for the unpacking at the end. */
static void bsched_pack_in(const bsched_t *b, const coll_call_t *call, coll_sched_t *s,
                           bsched_bind_t *x, size_t *rtotal_p)
{
    size_t size = (size_t)call->comm->size;
    size_t blocks = b->kind == COLL_BCAST ? 1 : size;
    size_t rtotal = call->rcount * blocks;
    size_t rbytes = b->n * blocks * b->elem;
    char *precv = coll_sched_scratch(s, x->dt, rbytes);

    *rtotal_p = rtotal;
    if (precv == NULL) {
        return;
    }
    coll_sched_copy(s, call->rbuf, rtotal, call->rdt, precv, rbytes, x->dt);
    x->recv = precv;
    if (b->kind == COLL_BCAST) {
        x->send = precv;
    } else if (call->in_place) {
        /* allgather: this rank's block; alltoall: copy_in copies the packed buffer */
        x->send =
            b->kind == COLL_ALLGATHER ? precv + (size_t)call->comm->rank * b->n * b->elem : precv;
    } else {
        size_t stotal = call->scount * (b->kind == COLL_ALLTOALL ? size : 1);
        size_t sbytes = b->n * (b->kind == COLL_ALLTOALL ? size : 1) * b->elem;
        char *psend = coll_sched_scratch(s, x->dt, sbytes);
        if (psend != NULL) {
            coll_sched_copy(s, call->sbuf, stotal, call->sdt, psend, sbytes, x->dt);
        }
        x->send = psend;
    }
    coll_sched_round(s);
}

static char *bsched_addr(char *const *bases, int buf, size_t off, size_t stride)
{
    return bases[buf] + off * stride;
}

/* the call's schedule from the steps; NULL with why on failure */
static coll_sched_t *bsched_build(const bsched_t *b, const coll_call_t *call, compi_status_t *st_p,
                                  char *why, size_t len)
{
    bsched_bind_t x;
    char *stack_bases[BS_BUF_SCRATCH + 4], **bases = stack_bases;

    bsched_bind(b, call, &x);
    coll_sched_t *s = coll_sched_new(call);
    if (s == NULL) {
        *st_p = COMPI_ERR_NO_MEMORY;
        snprintf(why, len, "out of memory");
        return NULL;
    }
    if (b->nscratch > 4 &&
        (bases = malloc(sizeof(*bases) * (BS_BUF_SCRATCH + b->nscratch))) == NULL) {
        coll_sched_free(s);
        *st_p = COMPI_ERR_NO_MEMORY;
        snprintf(why, len, "out of memory");
        return NULL;
    }
    bases[BS_BUF_SEND] = x.send;
    bases[BS_BUF_RECV] = x.recv;
    size_t rtotal = 0;
    if (x.pack) {
        bsched_pack_in(b, call, s, &x, &rtotal);
        bases[BS_BUF_SEND] = x.send;
        bases[BS_BUF_RECV] = x.recv;
    }
    for (size_t k = 0; k < b->nscratch; k++) {
        bases[BS_BUF_SCRATCH + k] = coll_sched_scratch(s, x.dt, b->scratch[k] * x.mul);
    }
    if (x.copy_in) {
        size_t all = b->n * (size_t)call->comm->size * x.mul;
        char *copy = coll_sched_scratch(s, x.dt, all);
        if (copy != NULL) {
            coll_sched_copy(s, x.recv, all, x.dt, copy, all, x.dt);
            coll_sched_round(s);
        }
        bases[BS_BUF_SEND] = copy;
    }
    for (size_t i = 0; i < b->nsteps; i++) {
        const bsched_step_t *t = &b->steps[i];
        size_t count = t->count * x.mul;
        int *id = &b->ids[i];
        switch (t->code) {
        case BS_SEND:
            *id = coll_sched_send(s, bsched_addr(bases, t->buf, t->off, x.stride), count, x.dt,
                                  t->peer);
            break;
        case BS_RECV:
            *id = coll_sched_recv(s, bsched_addr(bases, t->buf, t->off, x.stride), count, x.dt,
                                  t->peer);
            break;
        case BS_REDUCE:
            *id = coll_sched_reduce(s, bsched_addr(bases, t->buf, t->off, x.stride),
                                    bsched_addr(bases, t->buf2, t->off2, x.stride), count, x.dt);
            break;
        case BS_COPY:
            *id = coll_sched_copy(s, bsched_addr(bases, t->buf, t->off, x.stride), count, x.dt,
                                  bsched_addr(bases, t->buf2, t->off2, x.stride), count, x.dt);
            break;
        case BS_AFTER:
            coll_sched_after(s, b->ids[t->peer]);
            break;
        default:
            coll_sched_round(s);
            break;
        }
    }
    if (x.pack) {
        /* after the last round: the packed receive buffer back into the call's */
        coll_sched_round(s);
        size_t rbytes = b->n * (b->kind == COLL_BCAST ? 1 : (size_t)call->comm->size) * b->elem;
        coll_sched_copy(s, x.recv, rbytes, x.dt, call->rbuf, rtotal, call->rdt);
    }
    if (bases != stack_bases) {
        free(bases);
    }
    *st_p = COMPI_OK;
    return s;
}

static compi_status_t bsched_fn(coll_closure_t *self, const coll_call_t *call)
{
    char why[256];
    compi_status_t st;
    coll_sched_t *s = bsched_build(self->state, call, &st, why, sizeof(why));
    if (s == NULL) {
        coll_run_error_set("%s: %s", self->name, why);
        return st;
    }
    return coll_sched_run(s);
}

static compi_status_t bsched_start(coll_closure_t *self, const coll_call_t *call,
                                   struct compi_request **req_p)
{
    char why[256];
    compi_status_t st;
    coll_sched_t *s = bsched_build(self->state, call, &st, why, sizeof(why));
    if (s == NULL) {
        coll_run_error_set("%s: %s", self->name, why);
        return st;
    }
    return coll_sched_start(s, req_p);
}

/* ---- the miss ------------------------------------------------------------------------ */

/* the schedule's steps into its signature (coll.h, "Closure identity") */
static uint64_t bsched_hash(uint64_t h, uint64_t v)
{
    return coll_sig_bytes(h, &v, sizeof(v));
}

static SCM bsched_steps_proc(void)
{
    static SCM proc = SCM_BOOL_F;
    if (scm_is_false(proc)) {
        proc = scm_gc_protect_object(scm_c_public_ref("compi internal", "schedule-steps"));
    }
    return proc;
}

compi_status_t bridge_sched_closure(const coll_call_t *call, SCM uname, SCM desc,
                                    coll_closure_t **c_p, char *why, size_t len)
{
    char user[64], name[96];
    bsched_t *b = calloc(1, sizeof(*b));
    SCM val;
    compi_status_t st;

    *c_p = NULL;
    if (b == NULL) {
        snprintf(why, len, "out of memory");
        return COMPI_ERR_NO_MEMORY;
    }
    b->kind = call->kind;
    if (call->kind == COLL_BARRIER) {
        b->elem = 1;
    } else {
        b->elem = call->rdt->size;
        b->n = b->elem > 0 ? call->bytes / b->elem : call->rcount;
    }
    st = bridge_invoke(bsched_steps_proc(),
                       scm_list_3(desc, bridge_call_record(call, 0), scm_from_size_t(b->n)), &val,
                       why, len);
    if (st != COMPI_OK) {
        goto err;
    }

    /* every rank's scratch sizes and steps go into the signature; this rank's are kept */
    SCM scratch = scm_c_vector_ref(val, 0), steps = scm_c_vector_ref(val, 1);
    bridge_scm_to_buf(uname, user, sizeof(user));
    snprintf(name, sizeof(name), "%s:schedule(%s)", coll_kind_name(call->kind), user);
    /* the kind and the steps, not the name the user gave (only for people) */
    uint64_t h = coll_sig_long(coll_sig_str(COLL_SIG_SEED, "schedule"), call->kind);
    size_t size = scm_c_vector_length(steps), me = (size_t)call->comm->rank;
    for (size_t r = 0; r < size; r++) {
        SCM sv = scm_c_vector_ref(scratch, r), tv = scm_c_vector_ref(steps, r);
        size_t ns = scm_c_vector_length(sv), nt = scm_c_vector_length(tv);
        h = bsched_hash(h, ns);
        for (size_t k = 0; k < ns; k++) {
            h = bsched_hash(h, scm_to_uint64(scm_c_vector_ref(sv, k)));
        }
        h = bsched_hash(h, nt);
        for (size_t k = 0; k < nt; k++) {
            h = bsched_hash(h, (uint64_t)scm_to_int64(scm_c_vector_ref(tv, k)));
        }
        if (r != me) {
            continue;
        }
        b->nscratch = ns;
        b->nsteps = nt / BS_FIELDS;
        b->scratch = calloc(ns ? ns : 1, sizeof(*b->scratch));
        b->steps = calloc(b->nsteps ? b->nsteps : 1, sizeof(*b->steps));
        b->ids = calloc(b->nsteps ? b->nsteps : 1, sizeof(*b->ids));
        if (b->scratch == NULL || b->steps == NULL || b->ids == NULL) {
            snprintf(why, len, "out of memory");
            st = COMPI_ERR_NO_MEMORY;
            goto err;
        }
        for (size_t k = 0; k < ns; k++) {
            b->scratch[k] = scm_to_size_t(scm_c_vector_ref(sv, k));
        }
        for (size_t i = 0; i < b->nsteps; i++) {
            long f[BS_FIELDS];
            for (int j = 0; j < BS_FIELDS; j++) {
                f[j] = scm_to_long(scm_c_vector_ref(tv, i * BS_FIELDS + (size_t)j));
            }
            b->steps[i] = (bsched_step_t){.code = (int)f[0],
                                          .peer = (int)f[1],
                                          .buf = (int)f[2],
                                          .off = (size_t)f[3],
                                          .count = (size_t)f[4],
                                          .buf2 = (int)f[5],
                                          .off2 = (size_t)f[6]};
            /* (compi internal) names an earlier step of the round; checked, not trusted */
            if (f[0] == BS_AFTER &&
                (f[1] < 0 || (size_t)f[1] >= i || b->steps[f[1]].code > BS_COPY)) {
                snprintf(why, len, "step %zu waits for record %ld, not a step before it", i, f[1]);
                st = COMPI_ERR_INTERNAL;
                goto err;
            }
        }
    }
    *c_p = coll_closure_new(bsched_fn, b, bsched_free, name);
    if (*c_p == NULL) {
        snprintf(why, len, "out of memory");
        st = COMPI_ERR_NO_MEMORY;
        goto err;
    }
    (*c_p)->start = bsched_start;
    (*c_p)->signature = h;
    return COMPI_OK;
err:
    bsched_free(b);
    return st;
}
