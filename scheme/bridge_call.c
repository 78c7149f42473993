/*
 * bridge_call.c -- the call object of (compi), and the primitives a Scheme closure runs
 * with: the call's buffers, temporary buffers, isend / irecv / wait on them, local
 * reductions and copies (docs/scheme-api.md, "Scheme closures").
 *
 * A call record is made from the C call struct by one constructor call (once per cache
 * miss for creators; once per Scheme closure, whose later runs rearm the same record when
 * their call shows the same fields).  Its `handle' field holds the
 * C call only while a Scheme closure runs on it; every buffer primitive checks that the
 * call it is given is the running one, so a call kept past its run (or a creator's call,
 * which never has buffers) cannot reach freed memory.
 *
 * Buffers count in elements of their datatype, as MPI does; a buffer knows how many
 * elements it holds and whether it may be written, and every primitive checks ranges,
 * ranks and types before it does anything (Guile reports a bad argument by a non-local
 * exit, which must never leave a request or a buffer half set up).  Temporary buffers
 * are bytevectors: the collector owns them, no finalizer needed.  The run's table owns
 * the requests: what the closure leaves behind is waited for at the end of the run.
 *
 * The records are (compi private)'s <call>, <buffer> and <request>, built and read by
 * field name (bridge_layout.c: resolved and checked at start-up).
 *
 * Ownership: the record types and constructors are looked up once and protected for
 * good; bridge_run_t lives on the C stack of the closure's run; requests belong to it.
 */
#include "scheme/bridge_scm.h"
#include "core/coll/coll.h"
#include "core/comm/topo.h"
#include "core/include/compi_common.h"
#include "core/pml/pml.h"

#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* the bridge's kinds are coll_kind_t's: both expand core/coll/kinds.def */
_Static_assert((int)BRIDGE_KIND_COUNT == (int)COLL_NKINDS,
               "scheme/bridge.h and core/coll/coll.h list different collective kinds");

/* the records of (compi private) C builds, by field name (bridge_layout.c) */
static const char *const call_fields[BRIDGE_CALL_NFIELDS + 1] = {
    [BRIDGE_CALL_KIND] = "kind",
    [BRIDGE_CALL_SIZE] = "size",
    [BRIDGE_CALL_RANK] = "rank",
    [BRIDGE_CALL_ROOT] = "root",
    [BRIDGE_CALL_BYTES] = "bytes",
    [BRIDGE_CALL_DATATYPE] = "datatype",
    [BRIDGE_CALL_OP] = "op",
    [BRIDGE_CALL_COMMUTATIVE] = "commutative?",
    [BRIDGE_CALL_COMM] = "comm",
    [BRIDGE_CALL_HANDLE] = "handle",
    [BRIDGE_CALL_KEEP] = "keep",
    [BRIDGE_CALL_RANKS] = "ranks",
    [BRIDGE_CALL_MODE] = "mode",
    [BRIDGE_CALL_TOPOLOGY] = "topology",
    [BRIDGE_CALL_INTER] = "inter?",
    [BRIDGE_CALL_REMOTE_SIZE] = "remote-size",
    [BRIDGE_CALL_HINTS] = "hints",
};
_Static_assert(BRIDGE_CALL_NFIELDS <= BRIDGE_LAYOUT_MAX_FIELDS,
               "the call record has more fields than a layout holds (bridge_scm.h)");
bridge_layout_t bridge_call_layout = {
    .module = "compi private", .name = "<call>", .fields = call_fields, .complete = 1};

enum { BUF_ADDRESS, BUF_DATATYPE, BUF_COUNT, BUF_WRITABLE, BUF_STORAGE, BUF_NFIELDS };
static const char *const buffer_fields[BUF_NFIELDS + 1] = {
    [BUF_ADDRESS] = "address",     [BUF_DATATYPE] = "datatype", [BUF_COUNT] = "count",
    [BUF_WRITABLE] = "writable?", [BUF_STORAGE] = "storage"};
static bridge_layout_t buffer_layout = {
    .module = "compi private", .name = "<buffer>", .fields = buffer_fields, .complete = 1};

enum { REQ_RUN, REQ_SLOT, REQ_NFIELDS };
static const char *const request_fields[REQ_NFIELDS + 1] = {[REQ_RUN] = "run",
                                                            [REQ_SLOT] = "slot"};
static bridge_layout_t request_layout = {
    .module = "compi private", .name = "<request>", .fields = request_fields, .complete = 1};

bridge_layout_t *const bridge_call_layouts[] = {&bridge_call_layout, &buffer_layout,
                                                &request_layout};
const size_t bridge_call_nlayouts = COMPI_ARRAY_SIZE(bridge_call_layouts);

static struct {
    SCM kind_sym[COLL_NKINDS];
    SCM mode_sym[COLL_NMODES];
    SCM sym_derived, sym_user;
    SCM sym_cart, sym_graph, sym_dist_graph;
    bridge_run_t *current; /* the Scheme closure running now, or NULL */
    unsigned long serial;
} bc;

void bridge_call_init(void)
{
    /* symbols are interned for good: no protection needed */
    for (int k = 0; k < COLL_NKINDS; k++) {
        bc.kind_sym[k] = scm_from_utf8_symbol(coll_kind_name((coll_kind_t)k));
    }
    for (int m = 0; m < COLL_NMODES; m++) {
        bc.mode_sym[m] = scm_from_utf8_symbol(coll_mode_name((coll_mode_t)m));
    }
    bc.sym_derived = scm_from_utf8_symbol("derived");
    bc.sym_user = scm_from_utf8_symbol("user");
    bc.sym_cart = scm_from_utf8_symbol("cart");
    bc.sym_graph = scm_from_utf8_symbol("graph");
    bc.sym_dist_graph = scm_from_utf8_symbol("dist-graph");
}

/* ---- call records ------------------------------------------------------------------- */

/* the datatype a creator sees: the reduction's, else the receive side's, else the send
   side's; NULL for alltoallw (one per peer) */
static compi_datatype_t *bc__datatype(const coll_call_t *c)
{
    return c->rdt != NULL ? c->rdt : c->sdt;
}

/* what (call-topology call) says: cart, graph, dist-graph or #f */
static SCM bc__topology(const coll_call_t *c)
{
    if (c->comm->topo == NULL) {
        return SCM_BOOL_F;
    }
    switch (c->comm->topo->kind) {
    case TOPO_CART:
        return bc.sym_cart;
    case TOPO_GRAPH:
        return bc.sym_graph;
    default:
        return bc.sym_dist_graph;
    }
}

/* a file access's hints (key, value, ..., NULL) as an alist of strings */
static SCM bc__hints(const coll_call_t *c)
{
    SCM alist = SCM_EOL;
    if (c->io == NULL || c->io->hints == NULL) {
        return alist;
    }
    const char *const *h = c->io->hints;
    size_t n = 0;
    while (h[n] != NULL && h[n + 1] != NULL) {
        n += 2;
    }
    while (n > 0) {
        n -= 2;
        alist =
            scm_cons(scm_cons(scm_from_utf8_string(h[n]), scm_from_utf8_string(h[n + 1])), alist);
    }
    return alist;
}

SCM bridge_call_record(const coll_call_t *c, int live)
{
    const compi_datatype_t *dt = bc__datatype(c);
    SCM dtsym = SCM_BOOL_F, opsym = SCM_BOOL_F;

    /* the root's group of an intercommunicator call shares one key (tramp.c): no bytes,
       datatype or op, which are not significant at its MPI_PROC_NULL ranks */
    int root_group = coll_call_in_root_group(c);
    if (dt != NULL && !root_group) {
        dtsym = dt->predefined && dt->name[0] ? scm_from_utf8_symbol(dt->name) : bc.sym_derived;
    }
    if (c->op != NULL && !root_group) {
        opsym = c->op->user_fn != NULL || c->op->name == NULL ? bc.sym_user
                                                              : scm_from_utf8_symbol(c->op->name);
    }
    SCM values[BRIDGE_CALL_NFIELDS] = {
        [BRIDGE_CALL_KIND] = bc.kind_sym[c->kind],
        [BRIDGE_CALL_SIZE] =
            scm_from_int(comm_is_inter(c->comm) ? comm_local_size(c->comm) : c->comm->size),
        [BRIDGE_CALL_RANK] = scm_from_int(c->comm->rank),
        [BRIDGE_CALL_ROOT] = c->root >= 0 ? scm_from_int(c->root) : SCM_BOOL_F,
        [BRIDGE_CALL_BYTES] = scm_from_size_t(root_group ? 0 : c->bytes),
        [BRIDGE_CALL_DATATYPE] = dtsym,
        [BRIDGE_CALL_OP] = opsym,
        [BRIDGE_CALL_COMMUTATIVE] =
            scm_from_bool(root_group || c->op == NULL || c->op->commutative),
        [BRIDGE_CALL_COMM] = scm_from_utf8_string(c->comm->name),
        [BRIDGE_CALL_HANDLE] = live ? scm_from_pointer((void *)c, NULL) : SCM_BOOL_F,
        [BRIDGE_CALL_KEEP] = SCM_EOL,
        [BRIDGE_CALL_RANKS] = bridge_facts_ranks_field(c),
        [BRIDGE_CALL_MODE] = bc.mode_sym[c->mode],
        [BRIDGE_CALL_TOPOLOGY] = bc__topology(c),
        [BRIDGE_CALL_INTER] = scm_from_bool(comm_is_inter(c->comm)),
        /* an intercommunicator's other group; `size' is the local group's */
        [BRIDGE_CALL_REMOTE_SIZE] =
            comm_is_inter(c->comm) ? scm_from_int(c->comm->remote_group->size) : SCM_BOOL_F,
        [BRIDGE_CALL_HINTS] = bc__hints(c),
    };
    return bridge_make(&bridge_call_layout, values);
}

int bridge_call_record_rearm(SCM record, const coll_call_t *c)
{
    if (scm_is_true(bridge_ref(&bridge_call_layout, record, BRIDGE_CALL_HANDLE))) {
        return 0; /* in use: the closure runs itself */
    }
    bridge_set(&bridge_call_layout, record, BRIDGE_CALL_HANDLE, scm_from_pointer((void *)c, NULL));
    return 1;
}

void bridge_run_begin(bridge_run_t *run, const coll_call_t *call)
{
    *run = (bridge_run_t){.call = call, .serial = ++bc.serial, .prev = bc.current};
    bc.current = run;
}

compi_status_t bridge_run_end(bridge_run_t *run, SCM record, size_t *left_p)
{
    compi_status_t st = COMPI_OK;
    size_t left = 0;

    for (size_t i = 0; i < run->n; i++) {
        if (run->reqs[i] == NULL) {
            continue;
        }
        left++;
        /* a receive nobody will match would hang the wait: cancel it when still
           unmatched (the run is an error anyway); sends and matched receives finish */
        if (run->reqs[i]->kind == REQ_RECV) {
            pml_cancel(run->reqs[i]);
        }
        compi_status_t s = pml_wait(run->reqs[i], NULL);
        if (s != COMPI_OK && st == COMPI_OK) {
            st = s;
        }
        pml_request_free(run->reqs[i]);
    }
    free(run->reqs);
    run->reqs = NULL;
    run->n = run->cap = 0;
    bc.current = run->prev;
    bridge_set(&bridge_call_layout, record, BRIDGE_CALL_HANDLE, SCM_BOOL_F);
    bridge_set(&bridge_call_layout, record, BRIDGE_CALL_KEEP, SCM_EOL);
    *left_p = left;
    return st;
}

/* ---- argument checks (each raises before anything is done) ----------------------- */

bridge_run_t *bridge_run_current(void)
{
    return bc.current;
}

static const coll_call_t *bc__live_call(SCM call, const char *who)
{
    if (!bridge_is(&bridge_call_layout, call)) {
        scm_wrong_type_arg_msg(who, 1, call, "call");
    }
    SCM h = bridge_ref(&bridge_call_layout, call, BRIDGE_CALL_HANDLE);
    if (!SCM_POINTER_P(h) || bc.current == NULL || scm_to_pointer(h) != bc.current->call) {
        scm_misc_error(who,
                       "this call is not running: a Scheme closure may use the buffers of "
                       "the call it receives only while it runs (creators get calls "
                       "without buffers)",
                       SCM_EOL);
    }
    return bc.current->call;
}

const coll_call_t *bridge_live_call(SCM call, const char *who)
{
    return bc__live_call(call, who);
}

typedef struct bc_buf {
    char *addr;
    compi_datatype_t *dt;
    size_t count;
    int writable;
    SCM storage;
} bc_buf_t;

static void bc__buf(SCM obj, int pos, const char *who, bc_buf_t *b)
{
    if (!bridge_is(&buffer_layout, obj)) {
        scm_wrong_type_arg_msg(who, pos, obj, "buffer");
    }
    b->addr = scm_to_pointer(bridge_ref(&buffer_layout, obj, BUF_ADDRESS));
    b->dt = scm_to_pointer(bridge_ref(&buffer_layout, obj, BUF_DATATYPE));
    b->count = scm_to_size_t(bridge_ref(&buffer_layout, obj, BUF_COUNT));
    b->writable = scm_is_true(bridge_ref(&buffer_layout, obj, BUF_WRITABLE));
    b->storage = bridge_ref(&buffer_layout, obj, BUF_STORAGE);
}

static size_t bc__size(SCM x, int pos, const char *who)
{
    if (!scm_is_unsigned_integer(x, 0, SIZE_MAX / 2)) {
        scm_wrong_type_arg_msg(who, pos, x, "non-negative integer");
    }
    return scm_to_size_t(x);
}

/* the address of elements [off, off + count) of b, after the range check */
static char *bc__range(const bc_buf_t *b, size_t off, size_t count, const char *who)
{
    if (off > b->count || count > b->count - off) {
        scm_misc_error(who, "elements ~A..~A are outside the buffer (~A elements)",
                       scm_list_3(scm_from_size_t(off), scm_from_size_t(off + count),
                                  scm_from_size_t(b->count)));
    }
    return b->addr + (ptrdiff_t)off * b->dt->extent;
}

static int bc__rank(SCM x, const coll_call_t *c, int pos, const char *who)
{
    if (!scm_is_signed_integer(x, 0, c->comm->size - 1)) {
        scm_misc_error(who, "rank ~S is not a rank of the communicator (0..~A)",
                       scm_list_2(x, scm_from_int(c->comm->size - 1)));
    }
    return scm_to_int(x);
}

static void bc__fail(const char *who, const char *what, compi_status_t st)
{
    scm_misc_error(
        who, "~A: ~A",
        scm_list_2(scm_from_utf8_string(what), scm_from_utf8_string(compi_status_string(st))));
}

/* ---- buffers -------------------------------------------------------------------------- */

static SCM bc__make_buffer(void *addr, compi_datatype_t *dt, size_t count, int writable,
                           SCM storage)
{
    SCM values[BUF_NFIELDS] = {[BUF_ADDRESS] = scm_from_pointer(addr, NULL),
                               [BUF_DATATYPE] = scm_from_pointer(dt, NULL),
                               [BUF_COUNT] = scm_from_size_t(count),
                               [BUF_WRITABLE] = scm_from_bool(writable),
                               [BUF_STORAGE] = storage};
    return bridge_make(&buffer_layout, values);
}

/* the largest displacement + count of a v variant: the elements the buffer spans */
static size_t bc__vspan(coll_vec_t counts, coll_vec_t displs, int size)
{
    long long span = 0;
    for (int i = 0; coll_vec_given(counts) && coll_vec_given(displs) && i < size; i++) {
        long long end = coll_vec_at(displs, i) + coll_vec_at(counts, i);
        span = end > span ? end : span;
    }
    return (size_t)span;
}

static size_t bc__sum(coll_vec_t counts, int size)
{
    size_t n = 0;
    for (int i = 0; coll_vec_given(counts) && i < size; i++) {
        long long k = coll_vec_at(counts, i);
        n += k > 0 ? (size_t)k : 0;
    }
    return n;
}

/* How many elements the call's send (send = 1) or receive buffer holds, per kind. */
static size_t bc__count(const coll_call_t *c, int send)
{
    size_t p = (size_t)c->comm->size;

    if (send) {
        switch (c->kind) {
        case COLL_SCATTER:
        case COLL_ALLTOALL:
            return c->scount * p;
        case COLL_SCATTERV:
        case COLL_ALLTOALLV:
            return bc__vspan(c->scounts, c->sdispls, c->comm->size);
        case COLL_REDUCE_SCATTER_BLOCK:
            return c->rcount * p;
        case COLL_REDUCE_SCATTER:
            return bc__sum(c->rcounts, c->comm->size);
        case COLL_NEIGHBOR_ALLTOALL:
            return c->scount * (size_t)c->comm->topo->outdegree;
        case COLL_NEIGHBOR_ALLTOALLV:
            return bc__vspan(c->scounts, c->sdispls, c->comm->topo->outdegree);
        default:
            return c->scount;
        }
    }
    switch (c->kind) {
    case COLL_GATHER:
    case COLL_ALLGATHER:
    case COLL_ALLTOALL:
        return c->rcount * p;
    case COLL_GATHERV:
    case COLL_ALLGATHERV:
    case COLL_ALLTOALLV:
        return bc__vspan(c->rcounts, c->rdispls, c->comm->size);
    case COLL_REDUCE_SCATTER:
        return coll_vec_given(c->rcounts) ? (size_t)coll_vec_at(c->rcounts, c->comm->rank)
                                          : c->rcount;
    case COLL_NEIGHBOR_ALLGATHER:
    case COLL_NEIGHBOR_ALLTOALL:
        return c->rcount * (size_t)c->comm->topo->indegree;
    case COLL_NEIGHBOR_ALLGATHERV:
    case COLL_NEIGHBOR_ALLTOALLV:
        return bc__vspan(c->rcounts, c->rdispls, c->comm->topo->indegree);
    default:
        return c->rcount;
    }
}

/* (call-send-buffer CALL): the call's send buffer (read-only), or #f for MPI_IN_PLACE, a
   kind without one, or alltoallw (a datatype per peer) */
static SCM prim_send_buffer(SCM call)
{
    const coll_call_t *c = bc__live_call(call, "call-send-buffer");
    if (c->sbuf == NULL || c->sbuf == MPI_IN_PLACE || c->sdt == NULL) {
        return SCM_BOOL_F;
    }
    return bc__make_buffer((void *)c->sbuf, c->sdt, bc__count(c, 1), 0, SCM_BOOL_F);
}

/* (call-recv-buffer CALL): the call's receive buffer, or #f (MPI_IN_PLACE at the root of
   a scatter, a rank or kind without one, alltoallw) */
static SCM prim_recv_buffer(SCM call)
{
    const coll_call_t *c = bc__live_call(call, "call-recv-buffer");
    if (c->rbuf == NULL || c->rbuf == MPI_IN_PLACE || c->rdt == NULL) {
        return SCM_BOOL_F;
    }
    return bc__make_buffer(c->rbuf, c->rdt, bc__count(c, 0), 1, SCM_BOOL_F);
}

static SCM prim_in_place(SCM call)
{
    return scm_from_bool(bc__live_call(call, "call-in-place?")->in_place);
}

/* (call-count CALL): the count of the call's datatype each rank contributes or receives
   (allreduce, bcast, reduce, scan: the count given to MPI) */
static SCM prim_count(SCM call)
{
    const coll_call_t *c = bc__live_call(call, "call-count");
    return scm_from_size_t(c->rdt != NULL ? c->rcount : c->scount);
}

static SCM prim_send_count(SCM call)
{
    return scm_from_size_t(bc__live_call(call, "call-send-count")->scount);
}

static SCM prim_recv_count(SCM call)
{
    return scm_from_size_t(bc__live_call(call, "call-recv-count")->rcount);
}

/* (make-buffer CALL COUNT [LIKE]): a temporary buffer of COUNT elements of the call's
   datatype (or of buffer LIKE's), laid out as a user buffer of that type */
static SCM prim_make_buffer(SCM call, SCM count, SCM like)
{
    static const char who[] = "make-buffer";
    const coll_call_t *c = bc__live_call(call, who);
    size_t n = bc__size(count, SCM_ARG2, who);
    compi_datatype_t *dt = bc__datatype(c);

    if (!SCM_UNBNDP(like)) {
        bc_buf_t b;
        bc__buf(like, SCM_ARG3, who, &b);
        dt = b.dt;
    }
    if (dt == NULL) {
        scm_misc_error(who, "~A has no single datatype: pass a buffer to copy the type of",
                       scm_list_1(bc.kind_sym[c->kind]));
    }
    /* the data of n elements spans true_extent + (n - 1) * extent bytes from true_lb */
    size_t span = n == 0 ? 0 : (size_t)dt->true_extent + (n - 1) * (size_t)dt->extent;
    if (n > 0 && dt->extent > 0 && n - 1 > (SIZE_MAX / 2) / (size_t)dt->extent) {
        scm_misc_error(who, "~A elements do not fit in memory", scm_list_1(count));
    }
    SCM bv = scm_c_make_bytevector(span);
    char *base = (char *)SCM_BYTEVECTOR_CONTENTS(bv) - dt->true_lb;
    return bc__make_buffer(base, dt, n, 1, bv);
}

/* ---- requests ---------------------------------------------------------------------- */

static void bc__reserve(bridge_run_t *run)
{
    if (run->n < run->cap) {
        return;
    }
    size_t cap = run->cap ? 2 * run->cap : 16;
    compi_request_t **r = realloc(run->reqs, cap * sizeof(*r));
    if (r == NULL) {
        scm_misc_error("buffer-isend", "out of memory for requests", SCM_EOL);
    }
    run->reqs = r;
    run->cap = cap;
}

/* Records a posted request in the run's table (reserved beforehand, so this cannot
   fail) and keeps a temporary buffer alive while the transport uses it. */
static SCM bc__track(SCM call, compi_request_t *req, const bc_buf_t *b)
{
    bridge_run_t *run = bc.current;
    size_t slot = run->n++;
    run->reqs[slot] = req;
    if (scm_is_true(b->storage)) {
        SCM keep = bridge_ref(&bridge_call_layout, call, BRIDGE_CALL_KEEP);
        bridge_set(&bridge_call_layout, call, BRIDGE_CALL_KEEP, scm_cons(b->storage, keep));
    }
    SCM values[REQ_NFIELDS] = {[REQ_RUN] = scm_from_ulong(run->serial),
                               [REQ_SLOT] = scm_from_size_t(slot)};
    return bridge_make(&request_layout, values);
}

/* (buffer-isend CALL BUF OFFSET COUNT DEST) -> request */
static SCM prim_isend(SCM call, SCM buf, SCM off, SCM count, SCM dest)
{
    static const char who[] = "buffer-isend";
    const coll_call_t *c = bc__live_call(call, who);
    bc_buf_t b;
    bc__buf(buf, SCM_ARG2, who, &b);
    size_t o = bc__size(off, SCM_ARG3, who), n = bc__size(count, SCM_ARG4, who);
    char *addr = bc__range(&b, o, n, who);
    int peer = bc__rank(dest, c, SCM_ARG5, who);
    bc__reserve(bc.current);

    compi_request_t *req;
    compi_status_t st =
        pml_isend(addr, n, b.dt, peer, coll_tag(c->kind), c->comm, PML_SEND_STANDARD, &req);
    if (st != COMPI_OK) {
        bc__fail(who, "the send could not start", st);
    }
    return bc__track(call, req, &b);
}

/* (buffer-irecv CALL BUF OFFSET COUNT SRC) -> request */
static SCM prim_irecv(SCM call, SCM buf, SCM off, SCM count, SCM src)
{
    static const char who[] = "buffer-irecv";
    const coll_call_t *c = bc__live_call(call, who);
    bc_buf_t b;
    bc__buf(buf, SCM_ARG2, who, &b);
    size_t o = bc__size(off, SCM_ARG3, who), n = bc__size(count, SCM_ARG4, who);
    char *addr = bc__range(&b, o, n, who);
    int peer = bc__rank(src, c, SCM_ARG5, who);
    if (!b.writable) {
        scm_misc_error(who, "cannot receive into a read-only buffer (the call's send buffer)",
                       SCM_EOL);
    }
    bc__reserve(bc.current);

    compi_request_t *req;
    compi_status_t st = pml_irecv(addr, n, b.dt, peer, coll_tag(c->kind), c->comm, &req);
    if (st != COMPI_OK) {
        bc__fail(who, "the receive could not start", st);
    }
    return bc__track(call, req, &b);
}

/* the slot of a request of the running closure that is still in flight */
static size_t bc__slot(SCM req, int pos, const char *who)
{
    if (!bridge_is(&request_layout, req)) {
        scm_wrong_type_arg_msg(who, pos, req, "request");
    }
    bridge_run_t *run = bc.current;
    SCM serial = bridge_ref(&request_layout, req, REQ_RUN);
    size_t slot = scm_to_size_t(bridge_ref(&request_layout, req, REQ_SLOT));
    if (run == NULL || scm_to_ulong(serial) != run->serial || slot >= run->n) {
        scm_misc_error(who, "this request belongs to another run of the closure", SCM_EOL);
    }
    if (run->reqs[slot] == NULL) {
        scm_misc_error(who, "this request was already waited for", SCM_EOL);
    }
    return slot;
}

/* waits for the requests in slots[0..n) (checked), frees them; the first error wins */
static compi_status_t bc__wait_slots(const size_t *slots, size_t n)
{
    bridge_run_t *run = bc.current;
    compi_status_t st = COMPI_OK;
    for (size_t i = 0; i < n; i++) {
        compi_request_t *r = run->reqs[slots[i]];
        compi_status_t s = pml_wait(r, NULL);
        if (s != COMPI_OK && st == COMPI_OK) {
            st = s;
        }
        pml_request_free(r);
        run->reqs[slots[i]] = NULL;
    }
    return st;
}

/* (wait REQUEST) */
static SCM prim_wait(SCM req)
{
    size_t slot = bc__slot(req, SCM_ARG1, "wait");
    compi_status_t st = bc__wait_slots(&slot, 1);
    if (st != COMPI_OK) {
        bc__fail("wait", "the transfer failed", st);
    }
    return SCM_UNSPECIFIED;
}

/* (wait-all REQUESTS): a list; every request is checked before any is waited for */
static SCM prim_wait_all(SCM reqs)
{
    static const char who[] = "wait-all";
    long n = scm_ilength(reqs);
    if (n < 0) {
        scm_wrong_type_arg_msg(who, SCM_ARG1, reqs, "list of requests");
    }
    size_t *slots = scm_gc_malloc_pointerless(sizeof(size_t) * (size_t)(n ? n : 1), who);
    SCM l = reqs;
    for (long i = 0; i < n; i++, l = scm_cdr(l)) {
        slots[i] = bc__slot(scm_car(l), SCM_ARG1, who);
        for (long j = 0; j < i; j++) {
            if (slots[j] == slots[i]) {
                scm_misc_error(who, "the same request is in the list twice", SCM_EOL);
            }
        }
    }
    compi_status_t st = bc__wait_slots(slots, (size_t)n);
    if (st != COMPI_OK) {
        bc__fail(who, "a transfer failed", st);
    }
    return SCM_UNSPECIFIED;
}

/* ---- local work ---------------------------------------------------------------------- */

/* (reduce-local! CALL IN IN-OFFSET INOUT INOUT-OFFSET COUNT):
   inout[i] = in[i] OP inout[i], the call's op; for a non-commutative op, IN must hold the
   lower ranks' contribution */
static SCM prim_reduce_local(SCM call, SCM in, SCM ioff, SCM inout, SCM ooff, SCM count)
{
    static const char who[] = "reduce-local!";
    const coll_call_t *c = bc__live_call(call, who);
    bc_buf_t a, b;
    bc__buf(in, SCM_ARG2, who, &a);
    size_t ai = bc__size(ioff, SCM_ARG3, who);
    bc__buf(inout, SCM_ARG4, who, &b);
    size_t bi = bc__size(ooff, SCM_ARG5, who), n = bc__size(count, SCM_ARG6, who);
    char *pa = bc__range(&a, ai, n, who), *pb = bc__range(&b, bi, n, who);

    if (c->op == NULL) {
        scm_misc_error(who, "~A has no reduction op", scm_list_1(bc.kind_sym[c->kind]));
    }
    if (!b.writable) {
        scm_misc_error(who, "the result buffer is read-only (the call's send buffer)", SCM_EOL);
    }
    if (a.dt != c->rdt || b.dt != c->rdt) {
        scm_misc_error(who, "both buffers must hold the call's datatype (~A)",
                       scm_list_1(scm_from_utf8_string(dt_name(c->rdt))));
    }
    compi_status_t st = coll_op_apply(c->op, c->rdt, pa, pb, n);
    if (st != COMPI_OK) {
        bc__fail(who, "the op failed", st);
    }
    return SCM_UNSPECIFIED;
}

/* (buffer-copy! CALL FROM FROM-OFFSET TO TO-OFFSET COUNT): COUNT elements; the two
   datatypes may differ when their type signatures match */
static SCM prim_copy(SCM call, SCM from, SCM foff, SCM to, SCM toff, SCM count)
{
    static const char who[] = "buffer-copy!";
    bc__live_call(call, who);
    bc_buf_t a, b;
    bc__buf(from, SCM_ARG2, who, &a);
    size_t ai = bc__size(foff, SCM_ARG3, who);
    bc__buf(to, SCM_ARG4, who, &b);
    size_t bi = bc__size(toff, SCM_ARG5, who), n = bc__size(count, SCM_ARG6, who);
    char *pa = bc__range(&a, ai, n, who), *pb = bc__range(&b, bi, n, who);

    if (!b.writable) {
        scm_misc_error(who, "cannot copy into a read-only buffer (the call's send buffer)",
                       SCM_EOL);
    }
    if (a.dt->size != b.dt->size) {
        scm_misc_error(who, "the two buffers' elements differ in size (~A and ~A bytes)",
                       scm_list_2(scm_from_size_t(a.dt->size), scm_from_size_t(b.dt->size)));
    }
    compi_status_t st = coll_copy(pa, n, a.dt, pb, n, b.dt);
    if (st != COMPI_OK) {
        bc__fail(who, "the copy failed", st);
    }
    return SCM_UNSPECIFIED;
}

const bridge_prim_t bridge_call_prims[] = {
    {.name = "call-send-buffer", .req = 1, .fn = (scm_t_subr)prim_send_buffer},
    {.name = "call-recv-buffer", .req = 1, .fn = (scm_t_subr)prim_recv_buffer},
    {.name = "call-in-place?", .req = 1, .fn = (scm_t_subr)prim_in_place},
    {.name = "call-count", .req = 1, .fn = (scm_t_subr)prim_count},
    {.name = "call-send-count", .req = 1, .fn = (scm_t_subr)prim_send_count},
    {.name = "call-recv-count", .req = 1, .fn = (scm_t_subr)prim_recv_count},
    {.name = "make-buffer", .req = 2, .opt = 1, .fn = (scm_t_subr)prim_make_buffer},
    {.name = "buffer-isend", .req = 5, .fn = (scm_t_subr)prim_isend},
    {.name = "buffer-irecv", .req = 5, .fn = (scm_t_subr)prim_irecv},
    {.name = "wait", .req = 1, .fn = (scm_t_subr)prim_wait},
    {.name = "wait-all", .req = 1, .fn = (scm_t_subr)prim_wait_all},
    {.name = "reduce-local!", .req = 6, .fn = (scm_t_subr)prim_reduce_local},
    {.name = "buffer-copy!", .req = 6, .fn = (scm_t_subr)prim_copy},
};
const size_t bridge_call_nprims = COMPI_ARRAY_SIZE(bridge_call_prims);
