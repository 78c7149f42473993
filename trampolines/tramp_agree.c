/*
 * tramp_agree.c -- the agreement at a cache miss (see tramp_agree.h): blocking, one
 * allgather on the trampolines' tag; nonblocking and persistent, the first round of the
 * call's own schedule; on an intercommunicator, each group's, then the groups' verdicts
 * to each other at every call.
 */
#include "trampolines/tramp_agree.h"

#include "core/comm/comm_coll.h"
#include "core/coll/sched/sched.h"
#include "core/runtime/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a communicator as messages name it: its name (MPI_Comm_set_name), else "an unnamed
   communicator (context 5)"; in buf when that is needed */
static const char *comm_label(const compi_comm_t *comm, char *buf, size_t len)
{
    if (comm->name[0] != '\0') {
        return comm->name;
    }
    snprintf(buf, len, "an unnamed communicator (context %u)", (unsigned)comm->ctx);
    return buf;
}

/* "bcast root=0 bytes=8 MPI_INT MPI_SUM on MPI_COMM_WORLD" for messages */
void tramp__describe_call(const coll_call_t *call, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s%s%s",
                     call->mode != COLL_MODE_BLOCKING ? coll_mode_name(call->mode) : "",
                     call->mode != COLL_MODE_BLOCKING ? " " : "", coll_kind_name(call->kind));
    if (call->root >= 0 && n < (int)len) {
        n += snprintf(buf + n, len - (size_t)n, " root=%d", call->root);
    }
    if (n < (int)len) {
        n += snprintf(buf + n, len - (size_t)n, " bytes=%zu", call->bytes);
    }
    if (call->op != NULL && n < (int)len) {
        n += snprintf(buf + n, len - (size_t)n, " %s %s", dt_name(call->rdt), call->op->name);
    }
    if (n < (int)len) {
        char label[64];
        snprintf(buf + n, len - (size_t)n, " on %s (%d ranks)",
                 comm_label(call->comm, label, sizeof(label)), comm_local_size(call->comm));
    }
}

/* ---- the agreement at the miss --------------------------------------------------------

   Every rank must serve a call with the same closure, or the ranks wait for messages that
   never come; and a creator that fails on one rank must fail the call on every rank, or
   the others wait in the collective.  So each miss ends with one allgather over the
   communicator (comm_coll_allgather_int, on the trampolines' own tag) of every rank's
   (status, signature) and the part of its key that MPI requires equal on every rank
   (kind and mode, root, bytes: not the op and datatype handles, which may be numbered
   apart on different ranks):

     keys differ                -> every rank fails the call as an argument error: the
                                   root (MPI_ERR_ROOT), the bytes (count times type size:
                                   MPI_ERR_TRUNCATE), the collective itself (MPI_ERR_ARG),
                                   "ranks 0-1 gave root 0, rank 2 gave root 1"
     all built, same signature  -> cache it, run it
     any rank failed            -> every rank fails the call with the lowest failing
                                   rank's message ("rank 3: creator NAME ... failed: ...")
     signatures differ          -> every rank fails it: "rank 0 built X, ranks 1-3 built Y",
                                   and why: the ranks' configuration lists differ
                                   (MPIX_Coll_reconfigure on part of the communicator),
                                   else the creators are not deterministic

   The texts travel in a second allgather, only when something went wrong, so every rank
   holds the same message; the lowest rank involved is the one that reports it under
   MPI_ERRORS_ARE_FATAL (tramp_error_take).  A communicator of one rank has nothing to
   agree on.  Only misses agree: ranks whose wrong arguments all hit closures they
   cached before are not caught, nor a rank that hits while another misses. */

#define AGREE_INTS 7 /* status, signature (2), kind << 8 | mode, root, bytes (2) */

#define AGREE_TEXT_INTS 256 /* a rank's text in the second round: 1 KiB */

/* per thread: at MPI_THREAD_MULTIPLE a miss waits in its agreement with the library's
   lock dropped, and another thread's miss may fail meanwhile */
static __thread struct {
    char text[1536];
    int reporter;
    int pending; /* set by a failed miss, cleared by tramp_error_take */
} tramp_err;

const char *tramp_error_take(int *reporter_p)
{
    if (!tramp_err.pending) {
        /* a closure that failed while it ran, on this rank only: this rank reports it */
        const char *why = coll_run_error_take();
        if (why != NULL && reporter_p != NULL) {
            *reporter_p = 1;
        }
        return why;
    }
    (void)coll_run_error_take(); /* superseded by the agreement's message */
    tramp_err.pending = 0;
    if (reporter_p != NULL) {
        *reporter_p = tramp_err.reporter;
    }
    return tramp_err.text;
}

void tramp__error_set(int reporter, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tramp_err.text, sizeof(tramp_err.text), fmt, ap);
    va_end(ap);
    tramp_err.reporter = reporter;
    tramp_err.pending = 1;
}

/* every rank's text (its error message, or its closure's name) into all[r * INTS] */
compi_status_t tramp__agree_texts(compi_comm_t *comm, const char *mine, int **all_p)
{
    int buf[AGREE_TEXT_INTS];
    int *all = malloc(sizeof(int) * AGREE_TEXT_INTS * (size_t)comm_local_size(comm));
    if (all == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    memset(buf, 0, sizeof(buf));
    snprintf((char *)buf, sizeof(buf), "%s", mine);
    comm_coll_set_t set = comm_coll_whole(comm);
    set.tag = COMPI_TAG_TRAMP_CHECK;
    compi_status_t st = comm_coll_allgather_int(&set, buf, AGREE_TEXT_INTS, all);
    if (st != COMPI_OK) {
        free(all);
        return st;
    }
    for (int r = 0; r < comm_local_size(comm); r++) {
        ((char *)(all + (size_t)r * AGREE_TEXT_INTS))[sizeof(buf) - 1] = '\0';
    }
    *all_p = all;
    return COMPI_OK;
}

const char *tramp__text_of(const int *all, int r)
{
    return (const char *)(all + (size_t)r * AGREE_TEXT_INTS);
}

/* "rank 2" or "ranks 1-3, 5" for the ranks r with sig[r] == want, into buf */
static void ranks_with(const uint64_t *sig, int n, uint64_t want, char *buf, size_t len)
{
    char list[96];
    size_t used = 0;
    int count = 0;
    list[0] = '\0';
    for (int r = 0; r < n && used < sizeof(list); r++) {
        if (sig[r] != want || (r > 0 && sig[r - 1] == want)) {
            continue;
        }
        int last = r;
        while (last + 1 < n && sig[last + 1] == want) {
            last++;
        }
        count += last - r + 1;
        const char *sep = used ? ", " : "";
        used +=
            (size_t)(last > r ? snprintf(list + used, sizeof(list) - used, "%s%d-%d", sep, r, last)
                              : snprintf(list + used, sizeof(list) - used, "%s%d", sep, r));
    }
    snprintf(buf, len, "%s %s", count == 1 ? "rank" : "ranks", list);
}

/* the two sides of a disagreement among vals[0..n): the ranks of vals[0] into a[128],
   those of vals[other] into b[128], how many hold yet other values into rest[64] */
static void two_sides(const uint64_t *vals, int n, int other, char *a, char *b, char *rest)
{
    int nrest = 0;
    for (int r = 0; r < n; r++) {
        nrest += vals[r] != vals[0] && vals[r] != vals[other];
    }
    rest[0] = '\0';
    if (nrest > 0) {
        snprintf(rest, 64, ", %d more rank%s yet other%s", nrest, nrest > 1 ? "s" : "",
                 nrest > 1 ? "s" : "");
    }
    ranks_with(vals, n, vals[0], a, 128);
    ranks_with(vals, n, vals[other], b, 128);
}

/* the key's kind and mode, root or bytes (field 0, 1, 2) of rank r in the agreement's
   array */
static uint64_t key_field(const int *all, int r, int field)
{
    const int *a = all + AGREE_INTS * r;
    return field == 0   ? (uint64_t)(uint32_t)a[3]
           : field == 1 ? (uint64_t)(int64_t)a[4]
                        : (uint64_t)(uint32_t)a[5] << 32 | (uint32_t)a[6];
}

/* a verdict: its message (the same on every rank) and whether this rank reports it when
   errors are fatal */
typedef struct verdict {
    char text[1536];
    int report;
} verdict_t;

/* rank r's texts: its closure's name or its error (list 0), its configuration list
   (list 1) */
typedef const char *(*agree_text_fn)(void *ctx, int r, int list);

/* the ranks' keys differ in a field MPI requires equal: the error every rank reports (the
   same text on each, in *v), or COMPI_OK when they agree; vals: room for n values */
static compi_status_t agree_keys(const compi_comm_t *comm, coll_kind_t kind, const int *all, int n,
                                 uint64_t *vals, verdict_t *v)
{
    static const compi_status_t field_st[] = {COMPI_ERR_INVALID_PARAM, COMPI_ERR_ROOT,
                                              COMPI_ERR_TRUNCATE};
    /* a neighbourhood collective's counts need only match between neighbours */
    int nfields = kind == COLL_NEIGHBOR_ALLGATHER || kind == COLL_NEIGHBOR_ALLTOALL ? 2 : 3;
    for (int f = 0; f < nfields; f++) {
        int other = -1;
        for (int r = 0; r < n; r++) {
            vals[r] = key_field(all, r, f);
            if (other < 0 && vals[r] != vals[0]) {
                other = r;
            }
        }
        if (other < 0) {
            continue;
        }
        char a[128], b[128], va[64], vb[64], rest[64];
        two_sides(vals, n, other, a, b, rest);
        for (int i = 0; i < 2; i++) {
            uint64_t x = vals[i ? other : 0];
            char *out = i ? vb : va;
            if (f == 0) {
                coll_mode_t mode = (coll_mode_t)(x >> 8);
                snprintf(out, sizeof(va), "%s%s%s",
                         mode != COLL_MODE_BLOCKING ? coll_mode_name(mode) : "",
                         mode != COLL_MODE_BLOCKING ? " " : "",
                         coll_kind_name((coll_kind_t)(x & 0xff)));
            } else if (f == 1) {
                snprintf(out, sizeof(va), "root %d", (int)(int64_t)x);
            } else {
                snprintf(out, sizeof(va), "%llu bytes", (unsigned long long)x);
            }
        }
        const char *cname = comm->name[0] != '\0' ? comm->name : "a communicator";
        v->report = comm->rank == other;
        if (f == 0) {
            snprintf(v->text, sizeof(v->text),
                     "the ranks of %s called different collectives: %s called %s, %s called "
                     "%s%s",
                     cname, a, va, b, vb, rest);
        } else {
            snprintf(v->text, sizeof(v->text),
                     "%s on %s: the ranks gave different %s (MPI requires the same on every "
                     "rank): %s gave %s, %s gave %s%s",
                     coll_kind_name(kind), cname,
                     f == 1 ? "roots" : "sizes (count times type size)", a, va, b, vb, rest);
        }
        return field_st[f];
    }
    return COMPI_OK;
}

/* FNV-1a of a text */
static uint64_t text_hash(const char *t)
{
    uint64_t h = 1469598103934665603ull;
    for (; *t != '\0'; t++) {
        h = (h ^ (unsigned char)*t) * 1099511628211ull;
    }
    return h;
}

/* Why the ranks built different closures, into buf: when their configuration lists
   differ, "the ranks run different configurations: rank 0 loaded "a.scm", ranks 1-3
   loaded "b.scm""; else "creators must be deterministic". */
static void why_different(int n, agree_text_fn text, void *ctx, char *buf, size_t len)
{
    int other = -1;
    uint64_t *h = malloc(sizeof(uint64_t) * (size_t)n);
    snprintf(buf, len, "creators must be deterministic");
    if (h == NULL) {
        return;
    }
    for (int r = 0; r < n; r++) {
        h[r] = text_hash(text(ctx, r, 1));
        if (other < 0 && h[r] != h[0]) {
            other = r;
        }
    }
    if (other >= 0) {
        char a[128], b[128], rest[64];
        const char *la = text(ctx, 0, 1), *lb = text(ctx, other, 1);
        two_sides(h, n, other, a, b, rest);
        snprintf(buf, len,
                 "the ranks run different configurations: %s loaded %s%s%s, %s loaded %s%s%s%s", a,
                 *la ? "\"" : "", *la ? la : "no config file", *la ? "\"" : "", b, *lb ? "\"" : "",
                 *lb ? lb : "no config file", *lb ? "\"" : "", rest);
    }
    free(h);
}

/*
 * The verdict on what every rank sent: all[r * AGREE_INTS] (status, signature, key) and
 * its texts, asked for only when something went wrong.  `what` describes the call.
 * COMPI_OK when every rank gave the same key and built the same closure; else the error
 * and its message in *v, the same on every rank.  sigs: room for n values.
 */
static compi_status_t judge(const compi_comm_t *comm, coll_kind_t kind, const char *what,
                            const int *all, int n, uint64_t *sigs, agree_text_fn text, void *ctx,
                            verdict_t *v)
{
    int first_failed = -1, first_other = -1;
    compi_status_t st = agree_keys(comm, kind, all, n, sigs, v);
    if (st != COMPI_OK) {
        return st;
    }
    for (int r = 0; r < n; r++) {
        sigs[r] =
            (uint64_t)(uint32_t)all[AGREE_INTS * r + 1] << 32 | (uint32_t)all[AGREE_INTS * r + 2];
        if (all[AGREE_INTS * r] != COMPI_OK && first_failed < 0) {
            first_failed = r;
        }
        if (first_other < 0 && sigs[r] != sigs[0]) {
            first_other = r;
        }
    }
    if (first_failed >= 0) {
        int nfailed = 0;
        for (int r = 0; r < n; r++) {
            nfailed += all[AGREE_INTS * r] != COMPI_OK;
        }
        char others[64] = "";
        if (nfailed > 1) {
            snprintf(others, sizeof(others), " (and on %d other rank%s)", nfailed - 1,
                     nfailed > 2 ? "s" : "");
        }
        v->report = comm->rank == first_failed;
        snprintf(v->text, sizeof(v->text), "rank %d%s: %s", first_failed, others,
                 text(ctx, first_failed, 0));
        return (compi_status_t)all[AGREE_INTS * first_failed];
    }
    if (first_other < 0) {
        return COMPI_OK;
    }
    char a[128], b[128], rest[64], why[512];
    two_sides(sigs, n, first_other, a, b, rest);
    /* closures named alike (two wrappers over different trees) differ by signature */
    char ta[256], tb[256], sa[40] = "", sb[40] = "";
    snprintf(ta, sizeof(ta), "%s", text(ctx, 0, 0));
    snprintf(tb, sizeof(tb), "%s", text(ctx, first_other, 0));
    if (strcmp(ta, tb) == 0) {
        snprintf(sa, sizeof(sa), " (signature %016llx)", (unsigned long long)sigs[0]);
        snprintf(sb, sizeof(sb), " (signature %016llx)", (unsigned long long)sigs[first_other]);
    }
    why_different(n, text, ctx, why, sizeof(why));
    v->report = comm->rank == 0;
    snprintf(v->text, sizeof(v->text),
             "%s: ranks built different closures: %s built %s%s, %s built %s%s%s; %s", what, a, ta,
             sa, b, tb, sb, rest, why);
    return COMPI_ERR_CONFIG;
}

/* this rank's part: status, signature, the key's kind and mode, root and bytes */
static void agree_ints(const tramp_key_t *k, compi_status_t st, uint64_t sig, int mine[AGREE_INTS])
{
    mine[0] = (int)st;
    mine[1] = (int)(sig >> 32);
    mine[2] = (int)(sig & 0xffffffffu);
    mine[3] = (int)(k->w0 >> 32);
    mine[4] = (int)(uint32_t)k->w0;
    mine[5] = (int)(k->w1 >> 32);
    mine[6] = (int)(k->w1 & 0xffffffffu);
}

/* ---- blocking: an allgather on the trampolines' tag, the texts in a second one ------- */

typedef struct blocking_texts {
    compi_comm_t *comm;
    const char *mine;
    int *texts, *lists; /* every rank's, fetched when first asked for (every rank asks) */
} blocking_texts_t;

static const char *blocking_text(void *ctx, int r, int list)
{
    blocking_texts_t *b = ctx;
    int **all = list ? &b->lists : &b->texts;
    if (*all == NULL &&
        tramp__agree_texts(b->comm, list ? tramp_config_list() : b->mine, all) != COMPI_OK) {
        return "(not known: the agreement's second round failed)";
    }
    return tramp__text_of(*all, r);
}

compi_status_t tramp__agree(const coll_call_t *call, const tramp_key_t *k, compi_status_t st,
                            const char *err, const coll_closure_t *c)
{
    return tramp__agree_sig(call, k, st, st != COMPI_OK ? err : c->name,
                            c != NULL ? c->signature : 0);
}

compi_status_t tramp__agree_sig(const coll_call_t *call, const tramp_key_t *k, compi_status_t st,
                                const char *text, uint64_t sig)
{
    compi_comm_t *comm = call->comm;
    int mine[AGREE_INTS];
    /* an intercommunicator's groups agree each on its own (comm_coll_whole) */
    int n = comm_local_size(comm);
    char what[256];

    agree_ints(k, st, sig, mine);
    int *all = malloc(sizeof(int) * AGREE_INTS * (size_t)n);
    uint64_t *sigs = malloc(sizeof(uint64_t) * (size_t)n);
    if (all == NULL || sigs == NULL) {
        /* cannot take part: the others wait; say so on this rank (out of memory at a miss) */
        free(all);
        free(sigs);
        tramp__error_set(1, "out of memory for the agreement of a cache miss");
        return COMPI_ERR_NO_MEMORY;
    }
    comm_coll_set_t set = comm_coll_whole(comm);
    set.tag = COMPI_TAG_TRAMP_CHECK;
    compi_status_t ast = comm_coll_allgather_int(&set, mine, AGREE_INTS, all);
    if (ast != COMPI_OK) {
        tramp__error_set(1, "the agreement of a cache miss failed: %s", compi_status_string(ast));
    } else {
        blocking_texts_t ctx = {.comm = comm, .mine = text};
        verdict_t v;
        tramp__describe_call(call, what, sizeof(what));
        ast = judge(comm, call->kind, what, all, n, sigs, blocking_text, &ctx, &v);
        if (ast != COMPI_OK) {
            tramp__error_set(v.report, "%s", v.text);
        }
        free(ctx.texts);
        free(ctx.lists);
    }
    free(all);
    free(sigs);
    return ast;
}

/* ---- the outcome of a Scheme closure's run -------------------------------------------- */

/*
 * A Scheme closure's signature covers its procedure, where it was written and what it
 * wraps, not what it closes over: a lambda made differently on each rank, or one that
 * picks what to run by its rank, looks the same everywhere, and what it does is known
 * only as it runs.  So an agreed run (the first; every one at coll_check_determinism 2)
 * agrees, before each closure it runs with run-closure, on that closure and its place in
 * the run, and at its end on its outcome.  Every one of these rounds sends the same
 * message (status, signature, key), so ranks whose runs took different paths -- one
 * about to run a closure while another has finished, or raised -- compare unlike
 * signatures and fail together.  What the closure does by itself (its own sends and
 * receives through the schedule primitives, its data) is not compared.
 */
typedef struct run_ctx {
    const coll_call_t *call;
    const tramp_key_t *k;
} run_ctx_t;

static compi_status_t run_agree(void *ctx, const char *text, uint64_t sig)
{
    run_ctx_t *r = ctx;
    return tramp__agree_sig(r->call, r->k, COMPI_OK, text, sig);
}

static compi_status_t inter_run(const coll_call_t *call, coll_closure_t *inner,
                                const tramp_key_t *k);
static compi_status_t inter_fn(coll_closure_t *self, const coll_call_t *call);

static compi_status_t agreed_run(const coll_call_t *call, const tramp_key_t *k, coll_closure_t *c)
{
    run_ctx_t ctx = {.call = call, .k = k};
    coll_run_agree_t ag = {.fn = run_agree, .ctx = &ctx};
    coll_run_agree_t *outer = coll_run_agree_set(&ag);
    compi_status_t st = c->fn(c, call);
    coll_run_agree_set(outer);
    if (ag.failed) {
        (void)coll_run_error_take(); /* the agreement's message is the one */
        return ag.st;
    }
    const char *why = st != COMPI_OK ? coll_run_error_take() : NULL;
    char text[1024];
    snprintf(text, sizeof(text), "%s",
             st != COMPI_OK ? (why != NULL ? why : compi_status_string(st)) : c->name);
    uint64_t sig = coll_sig_long(coll_sig_str(COLL_SIG_SEED, "ran"), (long)c->signature);
    return tramp__agree_sig(call, k, st, text, st == COMPI_OK ? sig : 0);
}

compi_status_t tramp__agree_run(const coll_call_t *call, const tramp_key_t *k, coll_closure_t *c)
{
    /* an intercommunicator's groups tell each other their verdicts around the run */
    return c->fn == inter_fn ? inter_run(call, c->state, k) : agreed_run(call, k, c);
}

typedef struct agree_runs {
    coll_closure_t *inner;
    tramp_key_t key;
} agree_runs_t;

static compi_status_t runs_fn(coll_closure_t *self, const coll_call_t *call)
{
    agree_runs_t *a = self->state;
    return tramp__agree_run(call, &a->key, a->inner);
}

static void runs_free(void *p)
{
    agree_runs_t *a = p;
    coll_closure_release(a->inner);
    free(a);
}

coll_closure_t *tramp__agree_runs(coll_closure_t *c, const tramp_key_t *k)
{
    agree_runs_t *a = malloc(sizeof(*a));
    if (a == NULL) {
        return NULL;
    }
    coll_closure_t *w = coll_closure_new(runs_fn, a, runs_free, c->name);
    if (w == NULL) {
        free(a);
        return NULL;
    }
    coll_closure_retain(c);
    *a = (agree_runs_t){.inner = c, .key = *k};
    w->signature = c->signature;
    w->is_scheme = 1;
    return w;
}

/* ---- the outcome of a Scheme closure's later runs (coll_check_determinism 1) -------- */

/*
 * After its agreed first run a Scheme closure runs unagreed, but a run that fails on one
 * rank must fail on every rank, or the others complete a call that went wrong.  So each
 * later run ends with one exchange of an unsigned over the group (its maximum: 0 when the
 * run succeeded everywhere, else size minus the lowest failing rank), through the
 * allreduce that costs least there: the shared segment's (allreduce/shm.c) on one host,
 * its fallback over the PML elsewhere; built at the miss, so a run allocates nothing.
 * Only when a rank failed, a second round carries every rank's status and message, and
 * every rank fails the call with the lowest failing rank's.  The rank that failed has
 * run the rest of what its last agreed run ran first (scheme/bridge_closure.c), so the
 * others were not left waiting in the collective it skipped.
 */
typedef struct outcome_runs {
    coll_closure_t *inner;
    coll_closure_t *any; /* the group's allreduce of one unsigned (MAX); NULL: the PML's */
} outcome_runs_t;

#define OUTCOME_INTS (1 + AGREE_TEXT_INTS) /* status, message */

/* the group a call's outcome is exchanged in: an intercommunicator's own group */
static compi_comm_t *outcome_group(compi_comm_t *comm)
{
    return comm_is_inter(comm) ? comm->local_comm : comm;
}

/* the call of an allreduce (MAX) of one unsigned, *in over `group' into *out */
static coll_call_t outcome_call(compi_comm_t *group, const uint32_t *in, uint32_t *out)
{
    coll_call_t x = {.kind = COLL_ALLREDUCE,
                     .comm = group,
                     .root = -1,
                     .sbuf = in,
                     .rbuf = out,
                     .scount = 1,
                     .rcount = 1,
                     .sdt = dt_from_handle(MPI_UNSIGNED),
                     .rdt = dt_from_handle(MPI_UNSIGNED),
                     .op = op_from_handle(MPI_MAX),
                     .bytes = sizeof(*in)};
    return x;
}

/* the allreduce (MAX) of *in over `group' into *out */
static compi_status_t outcome_any(const outcome_runs_t *o, compi_comm_t *group, const uint32_t *in,
                                  uint32_t *out)
{
    if (o->any == NULL) {
        comm_coll_set_t set = comm_coll_whole(group);
        set.tag = COMPI_TAG_TRAMP_CHECK;
        return comm_coll_allreduce_max_u32(&set, *in, out);
    }
    coll_call_t x = outcome_call(group, in, out);
    return o->any->fn(o->any, &x);
}

/* some rank of the group failed the run: every rank's status and message, and the call
   fails on every rank with the lowest failing rank's */
static compi_status_t outcome_failed(compi_comm_t *group, compi_status_t st)
{
    int n = comm_local_size(group), mine[OUTCOME_INTS];
    int *all = malloc(sizeof(int) * OUTCOME_INTS * (size_t)n);
    if (all == NULL) {
        tramp__error_set(1, "out of memory for the outcome of a Scheme closure's run");
        return COMPI_ERR_NO_MEMORY;
    }
    const char *why = st != COMPI_OK ? coll_run_error_take() : NULL;
    memset(mine, 0, sizeof(mine));
    mine[0] = (int)st;
    snprintf((char *)(mine + 1), AGREE_TEXT_INTS * sizeof(int), "%s",
             why != NULL ? why : compi_status_string(st));
    comm_coll_set_t set = comm_coll_whole(group);
    set.tag = COMPI_TAG_TRAMP_CHECK;
    compi_status_t xs = comm_coll_allgather_int(&set, mine, OUTCOME_INTS, all);
    if (xs != COMPI_OK) {
        free(all);
        tramp__error_set(1, "the outcome of a Scheme closure's run was lost: %s",
                         compi_status_string(xs));
        return xs;
    }
    int first = -1, nfailed = 0;
    for (int r = 0; r < n; r++) {
        if (all[OUTCOME_INTS * r] != COMPI_OK) {
            first = first < 0 ? r : first;
            nfailed++;
        }
    }
    if (first < 0) { /* cannot be: the maximum said one failed */
        free(all);
        tramp__error_set(1, "the outcome of a Scheme closure's run: no rank failed");
        return COMPI_ERR_INTERNAL;
    }
    char others[64] = "";
    if (nfailed > 1) {
        snprintf(others, sizeof(others), " (and on %d other rank%s)", nfailed - 1,
                 nfailed > 2 ? "s" : "");
    }
    char *text = (char *)(all + (size_t)OUTCOME_INTS * first + 1);
    text[AGREE_TEXT_INTS * sizeof(int) - 1] = '\0';
    tramp__error_set(group->rank == first, "rank %d%s: %s", first, others, text);
    compi_status_t fst = (compi_status_t)all[OUTCOME_INTS * first];
    free(all);
    return fst;
}

static compi_status_t outcome_fn(coll_closure_t *self, const coll_call_t *call)
{
    outcome_runs_t *o = self->state;
    if (coll_run_agree_current() != NULL) {
        return o->inner->fn(o->inner, call); /* the agreed run has its own outcome round */
    }
    compi_status_t st = o->inner->fn(o->inner, call);
    compi_comm_t *group = outcome_group(call->comm);
    uint32_t mine = st != COMPI_OK ? (uint32_t)(group->size - group->rank) : 0, any = 0;
    compi_status_t xs = outcome_any(o, group, &mine, &any);
    if (compi_likely(xs == COMPI_OK && any == 0)) {
        return COMPI_OK;
    }
    if (xs != COMPI_OK) {
        tramp__error_set(1, "the outcome exchange of a Scheme closure's run failed: %s",
                         compi_status_string(xs));
        return xs;
    }
    return outcome_failed(group, st);
}

static void outcome_free(void *p)
{
    outcome_runs_t *o = p;
    coll_closure_release(o->inner);
    coll_closure_release(o->any);
    free(o);
}

coll_closure_t *tramp__outcome_runs(coll_closure_t *c, const coll_call_t *call)
{
    outcome_runs_t *o = calloc(1, sizeof(*o));
    if (o == NULL) {
        return NULL;
    }
    /* the shared segment's allreduce, built here (every rank of the group makes this
       miss); where the group is not on one host its .prepare gives it the allreduce's
       fallback over the PML.  Without it (out of memory, or not usable) outcome_any
       goes through comm_coll_allreduce_max_u32 */
    const coll_algo_t *shm = coll_algo_find(COLL_ALLREDUCE, "shm");
    uint32_t in = 0, out = 0;
    coll_call_t x = outcome_call(outcome_group(call->comm), &in, &out);
    if (shm != NULL && shm->usable != NULL && shm->usable(&x, NULL)) {
        o->any = coll_closure_algo(shm, NULL, &x, NULL);
    }
    coll_closure_t *w = coll_closure_new(outcome_fn, o, outcome_free, c->name);
    if (w == NULL) {
        outcome_free(o);
        return NULL;
    }
    coll_closure_retain(c);
    o->inner = c;
    w->signature = c->signature;
    w->is_scheme = 1;
    return w;
}

/* ---- nonblocking and persistent: the first round of the call's schedule ------------- */

/*
 * At a nonblocking or persistent miss the cache keeps a gate over the closure built (a
 * reference to the closure and to this record).  Its first start is the miss itself: the
 * exchange comes first in the schedule the closure starts -- every rank sends every
 * other its message (AGREE_INTS ints, then its closure's name or its error, then its
 * configuration list) and receives theirs, on the schedule's own tag -- and a check after
 * it judges them (judge()) as the blocking agreement does; an error ends the schedule, so
 * the closure's own rounds never run, and its request completes with the message on
 * every rank.  A rank with nothing to run (its build failed, or its closure failed to
 * start) starts a schedule of the exchange alone, which takes the same tag number as the
 * others' schedules.
 *
 * What a later start sends must not depend on when the verdict arrived (it may be known
 * on one rank and not yet on another), only on the verdict itself, the same everywhere:
 *
 *   nonblocking, verdict known good  -> the closure, nothing first
 *   nonblocking, otherwise           -> [wait for the verdict] then, only when it failed,
 *                                       [exchange again] (keys that differed may agree
 *                                       now, or it fails again the same way), then the
 *                                       closure's rounds
 *   persistent                       -> every request's first start exchanges (MPI-4
 *                                       lets ranks start persistent requests in any
 *                                       order, so one request cannot wait for another's)
 *
 * An intercommunicator: each group exchanges inside itself (on the intercommunicator's
 * local_comm, the schedule's tag), as its blocking agreement does, and the verdict does
 * not end the schedule yet; then the groups tell each other their verdicts (agree_cross_t:
 * remote rank j hears from local rank j mod n, so every rank hears from one rank of the
 * other group), and a group's failure fails the call on both, with one message: the
 * failing group's, or of two failing groups the one whose text sorts first.  The groups'
 * caches miss at different calls (a rooted call's root group packs one key for every
 * root of the other group; evictions follow each group's own keys), so this second step
 * comes at every start of a nonblocking call, hit or miss, the same on both sides: one
 * round of an int more per call; a persistent request's only at its first starts, which
 * both groups make on every request.
 */
#define AGREE_TEXT_MAX 1024 /* a rank's text in its message, with its NUL */
#define AGREE_LIST_MAX 512  /* its configuration list */

typedef struct agree_gate {
    int refcount;
    int first;          /* the next start is the miss */
    int inter;          /* on an intercommunicator: the groups then tell each other */
    compi_comm_t *comm; /* borrowed: the cache's, or a running schedule's request's */
    coll_kind_t kind;
    coll_closure_t *inner;  /* a reference; NULL: this rank's build failed */
    compi_status_t verdict; /* COMPI_INPROGRESS until judged (this group's) */
    char *text;             /* the verdict's message when it failed */
    int report;
    char what[256]; /* the call, described at the miss */
    size_t used;    /* bytes of this rank's message */
    char mine[AGREE_INTS * sizeof(int) + AGREE_TEXT_MAX + AGREE_LIST_MAX];
} agree_gate_t;

#define AGREE_MSG_MAX (sizeof(((agree_gate_t *)0)->mine))

/* one start's prologue (scratch of its schedule): the gate, and on an intercommunicator
   what the groups tell each other: this group's status and the other's, the messages
   when they failed (AGREE_TEXT_MAX bytes each) */
typedef struct agree_cross {
    agree_gate_t *g;
    int out, in;
    int report; /* this rank reports this group's failure */
    char *tout, *tin;
} agree_cross_t;

/* one exchange: the prologue, every rank's message and room to judge them (scratch of
   its schedule) */
typedef struct agree_run {
    agree_cross_t *x;
    char *all;      /* n * AGREE_MSG_MAX */
    int *ints;      /* n * AGREE_INTS */
    uint64_t *sigs; /* n */
} agree_run_t;

static void gate_release(void *arg)
{
    agree_gate_t *g = arg;
    if (--g->refcount > 0) {
        return;
    }
    coll_closure_release(g->inner);
    free(g->text);
    free(g);
}

static const char *run_text(void *ctx, int r, int list)
{
    agree_run_t *run = ctx;
    const char *t = run->all + (size_t)r * AGREE_MSG_MAX + AGREE_INTS * sizeof(int);
    return list ? t + strlen(t) + 1 : t;
}

/* a failed verdict's message into a step's note (every rank has the same) */
static void note_failure(const agree_gate_t *g, coll_sched_note_t *note)
{
    note->text = g->text != NULL ? strdup(g->text) : NULL;
    note->report = g->report;
}

/* an intercommunicator: this group's verdict, to tell the other group (the same on every
   rank of the group, its message naming the group) */
static void cross_fill(agree_cross_t *x)
{
    const agree_gate_t *g = x->g;
    x->out = (int)g->verdict;
    x->report = g->report;
    if (g->verdict != COMPI_OK) {
        snprintf(x->tout, AGREE_TEXT_MAX, "the group of world rank %d of an intercommunicator: %s",
                 g->comm->group->world_ranks[0], g->text != NULL ? g->text : "(no message)");
    }
}

/* after the exchange: the verdict, kept in the gate for the later starts */
static compi_status_t run_check(void *arg, coll_sched_note_t *note)
{
    agree_run_t *run = arg;
    agree_gate_t *g = run->x->g;
    int n = comm_local_size(g->comm);
    verdict_t v = {.report = 1};

    for (int r = 0; r < n; r++) {
        char *m = run->all + (size_t)r * AGREE_MSG_MAX;
        m[AGREE_MSG_MAX - 2] = m[AGREE_MSG_MAX - 1] = '\0'; /* both texts end */
        memcpy(run->ints + (size_t)AGREE_INTS * r, m, sizeof(int) * AGREE_INTS);
    }
    compi_status_t st =
        judge(g->comm, g->kind, g->what, run->ints, n, run->sigs, run_text, run, &v);
    g->verdict = st;
    if (st != COMPI_OK) {
        free(g->text);
        g->text = strdup(v.text);
        g->report = v.report;
    }
    if (g->inter) {
        cross_fill(run->x); /* the groups decide together, next */
        return COMPI_OK;
    }
    if (st != COMPI_OK) {
        note_failure(g, note);
    }
    return st;
}

/* a later start: waits for the verdict; a good one skips the exchange after it */
static compi_status_t gate_wait(void *arg, coll_sched_note_t *note)
{
    agree_cross_t *x = arg;
    if (x->g->verdict == COMPI_INPROGRESS) {
        return COMPI_INPROGRESS;
    }
    note->skip = x->g->verdict == COMPI_OK;
    if (note->skip && x->g->inter) {
        cross_fill(x);
    }
    return COMPI_OK;
}

/* the groups' statuses are known: both good skips the round of the messages */
static compi_status_t cross_check(void *arg, coll_sched_note_t *note)
{
    agree_cross_t *x = arg;
    note->skip = x->out == COMPI_OK && x->in == COMPI_OK;
    return COMPI_OK;
}

/* a group failed: the call fails on both, with the failing group's message (of two, the
   one that sorts first: both groups choose the same) */
static compi_status_t cross_verdict(void *arg, coll_sched_note_t *note)
{
    agree_cross_t *x = arg;
    x->tin[AGREE_TEXT_MAX - 1] = '\0';
    int mine = x->out != COMPI_OK && (x->in == COMPI_OK || strcmp(x->tout, x->tin) <= 0);
    note->text = strdup(mine ? x->tout : x->tin);
    note->report = mine && x->report;
    return (compi_status_t)(mine ? x->out : x->in);
}

/* this rank's message: its status, then text (its closure's name or its error) and its
   configuration list (the ints of the key and signature stay as they are) */
static void gate_message(agree_gate_t *g, compi_status_t st, const char *text)
{
    int ist = (int)st;
    const char *list = tramp_config_list();
    memcpy(g->mine, &ist, sizeof(ist));
    char *t = g->mine + AGREE_INTS * sizeof(int);
    snprintf(t, AGREE_TEXT_MAX, "%s", text);
    size_t tl = strlen(t) + 1;
    snprintf(t + tl, AGREE_LIST_MAX, "%s", list != NULL ? list : "");
    g->used = AGREE_INTS * sizeof(int) + tl + strlen(t + tl) + 1;
}

/* the exchange inside the group: one round, judged at its end */
static void exchange_steps(coll_sched_t *s, agree_cross_t *x)
{
    agree_gate_t *g = x->g;
    int n = comm_local_size(g->comm), me = g->comm->rank;
    compi_comm_t *on = g->inter ? g->comm->local_comm : NULL; /* NULL: the schedule's */
    agree_run_t *run = coll_sched_alloc(s, sizeof(*run));
    char *all = coll_sched_alloc(s, AGREE_MSG_MAX * (size_t)n);
    int *ints = coll_sched_alloc(s, sizeof(int) * AGREE_INTS * (size_t)n);
    uint64_t *sigs = coll_sched_alloc(s, sizeof(uint64_t) * (size_t)n);
    if (run == NULL || all == NULL || ints == NULL || sigs == NULL) {
        return; /* the schedule has failed */
    }
    *run = (agree_run_t){.x = x, .all = all, .ints = ints, .sigs = sigs};
    memcpy(all + (size_t)me * AGREE_MSG_MAX, g->mine, g->used);
    for (int r = 0; r < n; r++) {
        if (r != me) {
            coll_sched_send_on(s, on, g->mine, g->used, dt_byte(), r);
            coll_sched_recv_on(s, on, all + (size_t)r * AGREE_MSG_MAX, AGREE_MSG_MAX, dt_byte(), r);
        }
    }
    coll_sched_check(s, run_check, run);
    coll_sched_round(s);
}

/* an intercommunicator's groups tell each other their verdicts: the statuses, then, only
   when one failed, the messages */
static void cross_steps(coll_sched_t *s, agree_cross_t *x)
{
    const compi_comm_t *comm = x->g->comm;
    int n = comm_local_size(comm), m = comm->size, me = comm->rank;
    for (int j = me; j < m; j += n) {
        coll_sched_send(s, &x->out, sizeof(int), dt_byte(), j);
    }
    coll_sched_recv(s, &x->in, sizeof(int), dt_byte(), me % m);
    coll_sched_check(s, cross_check, x);
    coll_sched_round(s);
    for (int j = me; j < m; j += n) {
        coll_sched_send(s, x->tout, AGREE_TEXT_MAX, dt_byte(), j);
    }
    coll_sched_recv(s, x->tin, AGREE_TEXT_MAX, dt_byte(), me % m);
    coll_sched_check(s, cross_verdict, x);
}

/* a prologue (coll_sched_set_prologue): [a wait for the verdict] [the exchange] [the
   groups' step, on an intercommunicator] */
static void build_prologue(coll_sched_t *s, agree_gate_t *g, int wait, int exchange)
{
    agree_cross_t *x = coll_sched_alloc(s, sizeof(*x));
    char *texts = g->inter ? coll_sched_alloc(s, 2 * AGREE_TEXT_MAX) : NULL;
    if (x == NULL || (g->inter && texts == NULL)) {
        return; /* the schedule has failed */
    }
    g->refcount++;
    coll_sched_hold(s, gate_release, g);
    *x = (agree_cross_t){.g = g, .out = COMPI_OK, .in = COMPI_OK, .tout = texts};
    if (texts != NULL) {
        texts[0] = texts[AGREE_TEXT_MAX] = '\0';
        x->tin = texts + AGREE_TEXT_MAX;
    }
    if (wait) {
        coll_sched_wait(s, gate_wait, x);
        coll_sched_round(s);
    }
    if (exchange) {
        exchange_steps(s, x);
    } else if (g->inter) {
        cross_fill(x); /* a good verdict, known */
    }
    if (g->inter) {
        cross_steps(s, x);
    }
}

static void build_exchange(coll_sched_t *s, void *arg)
{
    build_prologue(s, arg, 0, 1);
}

static void build_wait_exchange(coll_sched_t *s, void *arg)
{
    build_prologue(s, arg, 1, 1);
}

static void build_cross(coll_sched_t *s, void *arg)
{
    build_prologue(s, arg, 0, 0);
}

/* start the inner closure behind a prologue; a rank with no closure, or whose closure
   failed to start, runs a schedule of the prologue alone, which fails the exchange for
   every rank with its message */
static compi_status_t gate_run(agree_gate_t *g, void (*build)(coll_sched_t *, void *),
                               const coll_call_t *call, struct compi_request **req_p)
{
    compi_status_t st = COMPI_OK;
    if (g->inner != NULL) {
        coll_sched_set_prologue(build, g);
        st = g->inner->start(g->inner, call, req_p);
        coll_sched_set_prologue(NULL, NULL);
        if (st == COMPI_OK) {
            return st; /* (a closure that started no schedule: nothing was put first) */
        }
        if (build == build_cross) {
            /* after a good verdict no exchange follows that could carry it: it fails
               here (only out of memory: what a start checks depends on the key alone,
               and passed at the verdict's start on every rank) */
            return st;
        }
        /* its failure (before its schedule started, or as it started) is this rank's
           part of the exchange, now and later */
        char why[AGREE_TEXT_MAX];
        const char *detail = coll_run_error_take();
        snprintf(why, sizeof(why), "%s: closure %s failed to start: %s", g->what, g->inner->name,
                 detail != NULL ? detail : compi_status_string(st));
        gate_message(g, st, why);
    }
    coll_sched_t *s = coll_sched_new(call);
    if (s == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    coll_sched_set_prologue(build, g);
    st = coll_sched_start(s, req_p);
    coll_sched_set_prologue(NULL, NULL);
    return st;
}

static compi_status_t gate_start(coll_closure_t *self, const coll_call_t *call,
                                 struct compi_request **req_p)
{
    agree_gate_t *g = self->state;
    if (call->mode == COLL_MODE_PERSISTENT || g->first) {
        g->first = 0;
        return gate_run(g, build_exchange, call, req_p);
    }
    if (compi_likely(g->verdict == COMPI_OK)) {
        return compi_likely(!g->inter) ? g->inner->start(g->inner, call, req_p)
                                       : gate_run(g, build_cross, call, req_p);
    }
    return gate_run(g, build_wait_exchange, call, req_p);
}

static compi_status_t gate_fn(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    (void)call;
    return COMPI_ERR_INTERNAL; /* a nonblocking or persistent key's closure */
}

coll_closure_t *tramp__gate_new(const coll_call_t *call, const tramp_key_t *k, compi_status_t st,
                                const char *err, coll_closure_t *c)
{
    agree_gate_t *g = calloc(1, sizeof(*g));
    if (g == NULL) {
        return NULL;
    }
    g->refcount = 1;
    g->first = 1;
    g->inter = comm_is_inter(call->comm);
    g->comm = call->comm;
    g->kind = call->kind;
    g->verdict = COMPI_INPROGRESS;
    tramp__describe_call(call, g->what, sizeof(g->what));
    int ints[AGREE_INTS];
    agree_ints(k, st, c != NULL ? c->signature : 0, ints);
    memcpy(g->mine, ints, sizeof(ints));
    gate_message(g, st, st != COMPI_OK ? err : c->name);

    coll_closure_t *gate =
        coll_closure_new(gate_fn, g, gate_release, c != NULL ? c->name : "(failed at the miss)");
    if (gate == NULL) {
        free(g);
        return NULL;
    }
    if (c != NULL) {
        coll_closure_retain(c);
        g->inner = c;
        gate->signature = c->signature;
        gate->is_scheme = c->is_scheme;
    }
    gate->start = gate_start;
    return gate;
}

/* ---- a blocking call on an intercommunicator: the groups tell each other ------------- */

/*
 * Each group's blocking agreement runs inside it (comm_coll_whole: its local_comm), so a
 * group whose miss failed returns while the other runs its closure and waits for it.  So
 * at every blocking call on an intercommunicator, hit or miss (its groups' caches miss
 * at different calls: see the gates above), the groups tell each other their verdicts as
 * a gate does: remote rank j hears an int from local rank j mod n, then, only when a
 * group failed, its message; on the trampolines' tag over the intercommunicator itself
 * (its agreements run on its local_comm: nothing else uses that tag there).  A closure
 * cached for one is wrapped (tramp__inter_wrap) in one that does this first; a miss that
 * failed does it before it returns (tramp__inter_settle).  Receives are posted before
 * the sends, so a send that waits for its receiver (a message past the eager limit)
 * cannot deadlock.
 */
static compi_status_t inter_swap(compi_comm_t *comm, const void *out, void *in, size_t bytes)
{
    int n = comm_local_size(comm), m = comm->size, me = comm->rank;
    compi_request_t *r = NULL;
    compi_status_t st = pml_irecv(in, bytes, dt_byte(), me % m, COMPI_TAG_TRAMP_CHECK, comm, &r);
    for (int j = me; j < m && st == COMPI_OK; j += n) {
        st = pml_send(out, bytes, dt_byte(), j, COMPI_TAG_TRAMP_CHECK, comm, PML_SEND_STANDARD);
    }
    if (r != NULL) {
        compi_status_t ws = pml_wait(r, NULL);
        pml_request_free(r);
        st = st != COMPI_OK ? st : ws;
    }
    return st;
}

/* an int that says, where a group's status is COMPI_OK, that it runs a Scheme closure */
#define INTER_SCHEME 0x40000000

/* the groups' verdicts, out (this group's: its status, its message pending in
   tramp__error_set, or the closure's run error) against in (the other's), when one
   failed: the same error and message on every rank of both */
static compi_status_t inter_texts(compi_comm_t *comm, int out, int in)
{
    char tout[AGREE_TEXT_MAX], tin[AGREE_TEXT_MAX];
    memset(tout, 0, sizeof(tout));
    int report = 1;
    if (out < 0) {
        const char *why = tramp_err.pending ? tramp_err.text : coll_run_error_take();
        report = tramp_err.pending ? tramp_err.reporter : 1;
        snprintf(tout, sizeof(tout), "the group of world rank %d of an intercommunicator: %.960s",
                 comm->group->world_ranks[0],
                 why != NULL ? why : compi_status_string((compi_status_t)out));
    }
    compi_status_t xs = inter_swap(comm, tout, tin, sizeof(tin));
    tin[sizeof(tin) - 1] = '\0';
    if (xs != COMPI_OK) {
        snprintf(tin, sizeof(tin),
                 "the other group of an intercommunicator failed the call "
                 "(its message was lost: %s)",
                 compi_status_string(xs));
    }
    int mine = out < 0 && (in >= 0 || strcmp(tout, tin) <= 0);
    tramp__error_set(mine && report, "%s", mine ? tout : tin);
    return (compi_status_t)(mine ? out : in);
}

/* the groups' statuses before a run: COMPI_OK when both are good (*scheme_p: either runs
   a Scheme closure), else the same error on every rank of both */
static compi_status_t inter_settle(compi_comm_t *comm, compi_status_t st, int scheme, int *scheme_p)
{
    int out = st != COMPI_OK ? (int)st : scheme ? INTER_SCHEME : 0, in = 0;
    compi_status_t xs = inter_swap(comm, &out, &in, sizeof(int));
    if (xs != COMPI_OK) {
        tramp__error_set(1,
                         "an intercommunicator's groups could not tell each other their "
                         "verdicts: %s",
                         compi_status_string(xs));
        return xs;
    }
    if (out >= 0 && in >= 0) {
        *scheme_p = (out | in) == INTER_SCHEME;
        return COMPI_OK;
    }
    return inter_texts(comm, out, in);
}

compi_status_t tramp__inter_settle(compi_comm_t *comm, compi_status_t st)
{
    int scheme = 0;
    return inter_settle(comm, st, 0, &scheme);
}

/*
 * A Scheme closure's run on an intercommunicator (either group's: the groups' closures
 * may run different numbers of rounds, so they cannot meet at each) ends with one more
 * swap of the groups' outcomes, and while it runs each rank watches for the other
 * group's: a receive of it is posted before the run.  A group whose run fails (its
 * agreed first run's verdict, a later run's outcome exchange) sends its failure at once,
 * and leaves the other group's ranks in the collective it did not make; their watch
 * (a progress hook, PML_HOOK_TRAMP) then cancels every receive of a blocking
 * collective's tags (coll_tag, coll_tag_alt) they have posted on the intercommunicator
 * or post there until their run ends, so their closure runs to its end (with whatever
 * data) and they reach the swap.  Then, since a group failed, every rank sends every
 * rank of the other group a fence and waits for theirs, receiving and dropping the
 * messages of those tags that arrived meanwhile (a group that failed drops them while it
 * waits for the other's outcome too, so that the other's sends complete): nothing of the
 * abandoned collective is left to be matched by a later one.
 */
#define INTER_TAG_LO (COMPI_TAG_COLL_ALT_BASE - COLL_NKINDS + 1)
#define INTER_TAG_HI COMPI_TAG_COLL_BASE

typedef struct inter_watch {
    compi_comm_t *comm;
    compi_request_t *req; /* the other group's outcome, into in */
    int in;
    struct inter_watch *next;
} inter_watch_t;

static inter_watch_t *inter_watches; /* the runs being watched, every thread's */

static int watch_progress(void)
{
    int n = 0;
    for (inter_watch_t *w = inter_watches; w != NULL; w = w->next) {
        if (__atomic_load_n(&w->req->complete, __ATOMIC_ACQUIRE) && w->in < 0) {
            n += pml_cancel_tags(w->comm, INTER_TAG_LO, INTER_TAG_HI);
        }
    }
    return n;
}

static void watch_unlink(inter_watch_t *w)
{
    for (inter_watch_t **p = &inter_watches; *p != NULL; p = &(*p)->next) {
        if (*p == w) {
            *p = w->next;
            break;
        }
    }
    if (inter_watches == NULL) {
        pml_set_progress_hook(PML_HOOK_TRAMP, NULL);
    }
}

/* receives and drops the messages of a blocking collective's tags waiting on comm */
static void inter_drain(compi_comm_t *comm)
{
    for (int tag = INTER_TAG_LO; tag <= INTER_TAG_HI; tag++) {
        int flag = 1;
        while (flag) {
            compi_message_t *msg = NULL;
            pml_result_t res;
            compi_request_t *r = NULL;
            if (pml_improbe(PML_ANY_SOURCE, tag, comm, &flag, &msg, &res) != COMPI_OK || !flag) {
                break;
            }
            void *junk = malloc(res.count > 0 ? res.count : 1);
            if (junk == NULL || pml_imrecv(junk, res.count, dt_byte(), msg, &r) != COMPI_OK) {
                free(junk);
                return; /* out of memory: what is left stays */
            }
            (void)pml_wait(r, NULL);
            pml_request_free(r);
            free(junk);
        }
    }
}

/* waits for req, dropping stale collective messages meanwhile when `drain` */
static void inter_wait_draining(compi_comm_t *comm, compi_request_t *req, int drain)
{
    while (!__atomic_load_n(&req->complete, __ATOMIC_ACQUIRE)) {
        pml_progress_wait();
        if (drain) {
            inter_drain(comm);
        }
    }
}

/* after a failed run: a fence to every rank of the other group, theirs awaited while
   their messages of the abandoned collective are dropped */
static void inter_fence(compi_comm_t *comm)
{
    int m = comm->size;
    compi_request_t **r = calloc((size_t)m, sizeof(*r));
    char none;
    if (r == NULL) {
        return;
    }
    for (int j = 0; j < m; j++) {
        (void)pml_irecv(&none, 0, dt_byte(), j, COMPI_TAG_TRAMP_CHECK, comm, &r[j]);
    }
    for (int j = 0; j < m; j++) {
        (void)pml_send(&none, 0, dt_byte(), j, COMPI_TAG_TRAMP_CHECK, comm, PML_SEND_STANDARD);
    }
    for (int j = 0; j < m; j++) {
        if (r[j] != NULL) {
            inter_wait_draining(comm, r[j], 1);
            pml_request_free(r[j]);
        }
    }
    inter_drain(comm);
    free(r);
}

/* inner's run (agreed on when k is not NULL) between the groups' verdicts */
static compi_status_t inter_run(const coll_call_t *call, coll_closure_t *inner,
                                const tramp_key_t *k)
{
    compi_comm_t *comm = call->comm;
    int scheme = 0;
    compi_status_t st = inter_settle(comm, COMPI_OK, inner->is_scheme, &scheme);
    if (st != COMPI_OK) {
        return st;
    }
    if (!scheme) {
        return k != NULL ? agreed_run(call, k, inner) : inner->fn(inner, call);
    }
    int n = comm_local_size(comm), m = comm->size, me = comm->rank;
    inter_watch_t w = {.comm = comm, .in = 0};
    compi_status_t xs =
        pml_irecv(&w.in, sizeof(int), dt_byte(), me % m, COMPI_TAG_TRAMP_CHECK, comm, &w.req);
    if (xs == COMPI_OK) {
        w.next = inter_watches;
        inter_watches = &w;
        pml_set_progress_hook(PML_HOOK_TRAMP, watch_progress);
    }
    st = k != NULL ? agreed_run(call, k, inner) : inner->fn(inner, call);
    int out = (int)st;
    if (xs == COMPI_OK) {
        watch_unlink(&w);
    }
    for (int j = me; j < m && xs == COMPI_OK; j += n) {
        xs = pml_send(&out, sizeof(int), dt_byte(), j, COMPI_TAG_TRAMP_CHECK, comm,
                      PML_SEND_STANDARD);
    }
    if (w.req != NULL) {
        inter_wait_draining(comm, w.req, out < 0);
        pml_request_free(w.req);
    }
    if (xs != COMPI_OK) {
        tramp__error_set(1,
                         "an intercommunicator's groups could not tell each other the "
                         "outcome of a Scheme closure's run: %s",
                         compi_status_string(xs));
        return xs;
    }
    if (out >= 0 && w.in >= 0) {
        return COMPI_OK;
    }
    st = inter_texts(comm, out, w.in);
    inter_fence(comm);
    return st;
}

static compi_status_t inter_fn(coll_closure_t *self, const coll_call_t *call)
{
    return inter_run(call, self->state, NULL);
}

static void inter_free(void *p)
{
    coll_closure_release(p);
}

coll_closure_t *tramp__inter_wrap(coll_closure_t *c)
{
    coll_closure_t *w = coll_closure_new(inter_fn, c, inter_free, c->name);
    if (w == NULL) {
        return NULL;
    }
    coll_closure_retain(c);
    w->signature = c->signature;
    w->is_scheme = c->is_scheme;
    return w;
}
