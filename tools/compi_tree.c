/*
 * compi_tree.c -- compi-tree: the tree (or other closure) a collective call would get, for
 * a layout of hosts given on the command line, without starting MPI.
 *
 *   compi-tree --config examples/configs/hierarchical.scm --op bcast \
 *       --layout a:4@10.1.0.0/24,b:4@10.2.0.0/24,c:4@10.3.0.0/24 --format svg -o t.svg
 *
 * It starts the Guile bridge and loads the configs exactly as MPI_Init does
 * (bridge_init, bridge_load_config_list: the same messages), parses the layout with the
 * parser of mpirun --layout and rte_layout (core/runtime/layout.c), and gives every rank
 * of it the facts a job started with rte_layout would report (topo_facts_from_layout).
 * Then it builds the call's closure the way a trampoline's miss does: bridge_build_closure
 * on a stand-in communicator of the layout's size (the bridge reads only its size, rank,
 * name, world ranks and topology kind), so the checks, the messages and the closure's
 * signature are the library's own; coll_verbose prints the same signature in a job.
 * (compi tree-tool) draws the closure (scheme/bridge_tool.c).  --format svg pipes the
 * DOT text through Graphviz's `dot -Tsvg`.  --check builds the closures of many calls
 * instead and lists the ones that fail.  Every error of a drawing is one line on stderr,
 * "compi-tree: ...", and exit status 1.  docs/compi-tree.md has the details.
 */
#include "scheme/bridge.h"
#include "scheme/bridge_tool.h"
#include "core/coll/coll.h"
#include "core/comm/comm.h"
#include "core/comm/topo.h"
#include "core/dt/dt.h"
#include "core/op/op.h"
#include "core/runtime/layout.h"
#include "core/runtime/rte.h"
#include "topologies/facts.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { FMT_TEXT, FMT_DOT, FMT_SVG };

/* the kinds, as bridge_kind_name names them, wrapped at 80 columns after `indent' */
static void print_kinds(FILE *f, int indent, int first_col)
{
    int col = first_col;

    for (int k = 0; k < BRIDGE_KIND_COUNT; k++) {
        const char *name = bridge_kind_name((bridge_kind_t)k);
        int n = (int)strlen(name);
        if (col + n + 1 > 88 && col > indent) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        }
        fprintf(f, "%s%s", col > indent ? " " : "", name);
        col += n + (col > indent);
    }
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: compi-tree --layout SPEC --op KIND [--config FILE]... [--root R] [--bytes N]\n"
            "                  [--format text|dot|svg] [-o OUT] [more options]\n"
            "       compi-tree --check [--config FILE]... [--layout SPEC | --np N] [--op KIND]\n"
            "Prints the closure the installed creators build for one collective call on a layout\n"
            "of hosts, as MPI_Init would load the configs, without starting MPI.\n"
            "\n"
            "  --config FILE    a Scheme config (a colon-separated list too); repeat to load\n"
            "                   several, in order.  None: what a job would load\n"
            "                   (COMPI_COLL_CONFIG or COMPI_MCA_coll_config), else the defaults\n"
            "  --layout SPEC    hosts, comma-separated: NAME:COUNT or NAME:COUNT@A.B.C.D/NN.\n"
            "                   Ranks are numbered in order; each rank gets its own address in\n"
            "                   its host's subnet, with that prefix length (10.1.0.1/24, ...).\n"
            "                   mpirun --layout SPEC (parameter rte_layout) runs a job whose\n"
            "                   ranks report exactly these hosts and addresses\n"
            "  --np N           N ranks on one host: the layout localhost:N\n"
            "  --op KIND        ");
    print_kinds(f, 19, 19);
    fprintf(f,
            "\n"
            "                   (--check: also all)\n"
            "  --root R         the call's root (rooted kinds; default 0)\n"
            "  --bytes N        what call-bytes says (default 8; barrier: 0)\n"
            "  --rank R         the rank whose view is shown (default 0)\n"
            "  --datatype NAME  what call-datatype says, a predefined datatype (default\n"
            "                   MPI_DOUBLE for reductions, MPI_BYTE otherwise)\n"
            "  --reduce-op NAME what call-op says, reductions only (default MPI_SUM)\n"
            "  --non-commutative  the reduction's op is not commutative (a user op)\n"
            "  --format F       text (default): the tree, one rank per line, indented;\n"
            "                   dot: Graphviz; svg: dot's SVG (needs Graphviz's dot program)\n"
            "  -o OUT           write to OUT instead of standard output\n"
            "  --help, --version\n"
            "\n"
            "The output names the closure's signature, a hash of what it does; a job run with\n"
            "--mca coll_verbose 1 prints the same one for the same call on the same layout.\n"
            "\n"
            "--check builds, as a job's cache miss does (the C checks included), the closure\n"
            "of every call in a range: each kind the configs install creators for (--op KIND:\n"
            "that kind; --op all: every kind); communicators of 1 to N ranks (the layout's first\n"
            "ranks; N the layout's size, or --np; past 16 a few sizes between); roots 0, the\n"
            "middle and the last rank; bytes 0, 8, 100, 4000, 4096, 65536 and 1 MiB (--bytes:\n"
            "those only); reductions with MPI_DOUBLE MPI_SUM, MPI_INT MPI_MAX and a\n"
            "non-commutative user op on MPI_DOUBLE (--datatype, --reduce-op, --non-commutative:\n"
            "that one); blocking and nonblocking; seen by rank 0, the root and the last rank,\n"
            "whose closures must be the same (a creator that builds by rank fails the call).\n"
            "It prints each distinct error once (the creator, FILE:LINE:COL where it was\n"
            "installed, what went wrong), how many calls had it and the first of them, then a\n"
            "summary line; exit status 1 when any call failed, 0 when all were built.\n"
            "\n"
            "Example:\n"
            "  compi-tree --config examples/configs/hierarchical.scm --op bcast \\\n"
            "      --layout a:4@10.1.0.0/24,b:4@10.2.0.0/24,c:4@10.3.0.0/24\n"
            "  compi-tree --check --config my.scm --np 16\n"
            "Errors (bad layout, bad config, a creator that fails) print one line and exit 1.\n");
}

static int __attribute__((format(printf, 1, 2))) fail(const char *fmt, ...)
{
    va_list ap;

    fputs("compi-tree: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 1;
}

/* a non-negative decimal number no larger than max, or -1 */
static long parse_count(const char *s, long max)
{
    char *end;

    if (s[0] < '0' || s[0] > '9') {
        return -1;
    }
    errno = 0;
    long v = strtol(s, &end, 10);
    return errno == 0 && *end == '\0' && v <= max ? v : -1;
}

static int is_rooted(bridge_kind_t k)
{
    return k == BRIDGE_KIND_BCAST || k == BRIDGE_KIND_REDUCE || k == BRIDGE_KIND_GATHER ||
           k == BRIDGE_KIND_GATHERV || k == BRIDGE_KIND_SCATTER || k == BRIDGE_KIND_SCATTERV;
}

static int is_reduction(bridge_kind_t k)
{
    return k == BRIDGE_KIND_REDUCE || k == BRIDGE_KIND_ALLREDUCE ||
           k == BRIDGE_KIND_REDUCE_SCATTER || k == BRIDGE_KIND_REDUCE_SCATTER_BLOCK ||
           k == BRIDGE_KIND_SCAN || k == BRIDGE_KIND_EXSCAN;
}

static int is_neighbor(bridge_kind_t k)
{
    return k == BRIDGE_KIND_NEIGHBOR_ALLGATHER || k == BRIDGE_KIND_NEIGHBOR_ALLGATHERV ||
           k == BRIDGE_KIND_NEIGHBOR_ALLTOALL || k == BRIDGE_KIND_NEIGHBOR_ALLTOALLV ||
           k == BRIDGE_KIND_NEIGHBOR_ALLTOALLW;
}

/* collective file access: blocking only (the file layer runs MPI_File_iwrite_all and
   the split collectives as blocking calls at their start), each rank its own bytes */
static int is_file(bridge_kind_t k)
{
    return k == BRIDGE_KIND_FILE_WRITE || k == BRIDGE_KIND_FILE_READ;
}

/* the kinds whose calls carry per-rank counts (and displacements, datatypes) */
static int is_vector(bridge_kind_t k)
{
    return k == BRIDGE_KIND_GATHERV || k == BRIDGE_KIND_SCATTERV ||
           k == BRIDGE_KIND_ALLGATHERV || k == BRIDGE_KIND_ALLTOALLV ||
           k == BRIDGE_KIND_ALLTOALLW || k == BRIDGE_KIND_REDUCE_SCATTER ||
           k == BRIDGE_KIND_NEIGHBOR_ALLGATHERV || k == BRIDGE_KIND_NEIGHBOR_ALLTOALLV ||
           k == BRIDGE_KIND_NEIGHBOR_ALLTOALLW;
}

/* "--op 'x' is not a collective kind (barrier, bcast, ...)", the list from the bridge */
static int fail_kind(const char *arg)
{
    fprintf(stderr, "compi-tree: --op '%s' is not a collective kind (", arg);
    for (int k = 0; k < BRIDGE_KIND_COUNT; k++) {
        fprintf(stderr, "%s%s", k > 0 ? ", " : "", bridge_kind_name((bridge_kind_t)k));
    }
    fprintf(stderr, ")\n");
    return 1;
}

/* ---- a stand-in communicator and its calls --------------------------------------------

   What a trampoline hands bridge_build_closure at a miss, without a job: a communicator
   of `size` ranks whose world ranks are 0 .. size-1 (so the creators' rank facts are the
   layout's first ranks, from topo_facts_from_layout), and the call's counts, datatypes and
   op.  Neighbourhood kinds get a communicator whose topology is Cartesian (its kind is all
   the bridge reads).  No buffers: creators never touch them. */

typedef struct standin {
    compi_comm_t comm;
    int *world;
    MPI_Count *counts;
    MPI_Aint *displs;
    compi_datatype_t **dts;
    MPI_Aint *adispls;
} standin_t;

static int standin_init(standin_t *s, int max)
{
    memset(s, 0, sizeof(*s));
    snprintf(s->comm.name, sizeof(s->comm.name), "MPI_COMM_WORLD");
    s->world = calloc((size_t)max, sizeof(int));
    s->counts = calloc((size_t)max, sizeof(*s->counts));
    s->displs = calloc((size_t)max, sizeof(*s->displs));
    s->dts = calloc((size_t)max, sizeof(*s->dts));
    s->adispls = calloc((size_t)max, sizeof(*s->adispls));
    if (!s->world || !s->counts || !s->displs || !s->dts || !s->adispls) {
        return fail("out of memory");
    }
    for (int i = 0; i < max; i++) {
        s->world[i] = i;
    }
    return 0;
}

static void standin_free(standin_t *s)
{
    free(s->world);
    free(s->counts);
    free(s->displs);
    free(s->dts);
    free(s->adispls);
}

static void standin_call(standin_t *s, coll_call_t *call, bridge_kind_t kind, coll_mode_t mode,
                         int size, int rank, long root, size_t bytes, compi_datatype_t *dt,
                         compi_op_t *op)
{
    static comm_topo_t cart = {.kind = TOPO_CART};
    size_t count = dt->size > 0 ? bytes / dt->size : 0;

    memset(call, 0, sizeof(*call));
    s->comm.size = size;
    s->comm.rank = rank;
    s->comm.world_ranks = s->world;
    s->comm.topo = is_neighbor(kind) ? &cart : NULL;
    call->kind = (coll_kind_t)kind;
    call->mode = mode;
    call->comm = &s->comm;
    call->root = is_rooted(kind) ? (int)root : -1;
    call->sdt = call->rdt = dt;
    call->scount = call->rcount = count;
    call->bytes = bytes;
    call->op = is_reduction(kind) ? op : NULL;
    if (is_vector(kind)) {
        for (int i = 0; i < size; i++) {
            s->counts[i] = (MPI_Count)count;
            s->displs[i] = (MPI_Aint)((size_t)i * count);
            s->dts[i] = dt;
            s->adispls[i] = (MPI_Aint)((size_t)i * count * (size_t)dt->extent);
        }
        int w = call->kind == COLL_ALLTOALLW || call->kind == COLL_NEIGHBOR_ALLTOALLW; /* bytes */
        call->scounts = call->rcounts = coll_vec_count(s->counts);
        call->sdispls = call->rdispls = coll_vec_aint(w ? s->adispls : s->displs);
        call->sdts = call->rdts = s->dts;
    }
}

/* a predefined datatype or op by name; NULL when there is none */
static compi_datatype_t *datatype_named(const char *name)
{
    for (unsigned i = 0; i < dt_table.n; i++) {
        compi_datatype_t *d = dt_table.objs[i];
        if (d != NULL && d->predefined && strcmp(d->name, name) == 0) {
            return d;
        }
    }
    return NULL;
}

static compi_op_t *op_named(const char *name)
{
    for (unsigned i = 0; i < op_table.n; i++) {
        compi_op_t *o = op_table.objs[i];
        if (o != NULL && o->predefined && o->name != NULL && strcmp(o->name, name) == 0) {
            return o;
        }
    }
    return NULL;
}

/* user ops: what creators see of them is 'user and whether they commute */
static void user_op_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
}
static compi_op_t user_noncomm = {
    .handle = -2, .commutative = 0, .user_fn = user_op_fn, .refcount = 1, .name = "user"};
static compi_op_t user_comm = {
    .handle = -3, .commutative = 1, .user_fn = user_op_fn, .refcount = 1, .name = "user"};

/* "0123456789abcdef (bcast:binomial)", the closure's signature as coll_verbose prints it */
static void signature_text(const coll_closure_t *c, char *buf, size_t len)
{
    snprintf(buf, len, "%016llx (%s)", (unsigned long long)c->signature, c->name);
}

/* ---- --check ---------------------------------------------------------------------------- */

typedef struct check_error {
    char *key;   /* what, with the numbers after the creator's location made '#' */
    char *what;  /* the first message, without its "(call: ...)" */
    char *first; /* the first call that had it */
    long calls;
} check_error_t;

/* The message's key: errors that differ only in numbers past "installed at FILE:L:C)"
   (sizes, roots, ranks) are one error.  malloc'd; NULL when out of memory. */
static char *check_key(const char *msg, size_t n)
{
    const char *at = strstr(msg, "installed at ");
    const char *loc_end =
        at != NULL && at < msg + n ? memchr(at, ')', (size_t)(msg + n - at)) : NULL;
    size_t keep = loc_end != NULL ? (size_t)(loc_end - msg) : 0, k = 0;
    char *key = malloc(n + 1);

    if (key == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if (i >= keep && msg[i] >= '0' && msg[i] <= '9') {
            if (k == 0 || key[k - 1] != '#') {
                key[k++] = '#';
            }
        } else {
            key[k++] = msg[i];
        }
    }
    key[k] = '\0';
    return key;
}

typedef struct check {
    check_error_t *errors;
    int nerrors, cap;
    long calls, failed;
} check_t;

/* one more failed call with message `msg' (bridge_build_closure's), seen by `rank';
   errors whose first `keylen' bytes are alike are one (0: the whole message) */
static int check_note(check_t *ck, const char *msg, int rank, size_t keylen)
{
    const char *cut = strstr(msg, " (call: ");
    size_t n = cut != NULL ? (size_t)(cut - msg) : strlen(msg);

    char *key = check_key(msg, keylen > 0 && keylen < n ? keylen : n);

    if (key == NULL) {
        return fail("out of memory");
    }
    ck->failed++;
    for (int i = 0; i < ck->nerrors; i++) {
        if (strcmp(ck->errors[i].key, key) == 0) {
            ck->errors[i].calls++;
            free(key);
            return 0;
        }
    }
    if (ck->nerrors == ck->cap) {
        int cap = ck->cap ? 2 * ck->cap : 16;
        check_error_t *e = realloc(ck->errors, (size_t)cap * sizeof(*e));
        if (e == NULL) {
            free(key);
            return fail("out of memory");
        }
        ck->errors = e;
        ck->cap = cap;
    }
    check_error_t *e = &ck->errors[ck->nerrors];
    e->key = key;
    e->what = strndup(msg, n);
    if (cut != NULL) {
        const char *call = cut + strlen(" (call: ");
        size_t m = strlen(call);
        m -= m > 0 && call[m - 1] == ')';
        e->first = malloc(m + 32);
        if (e->first != NULL) {
            snprintf(e->first, m + 32, "%.*s, rank %d", (int)m, call, rank);
        }
    } else {
        e->first = strdup("?");
    }
    if (e->what == NULL || e->first == NULL) {
        return fail("out of memory");
    }
    e->calls = 1;
    ck->nerrors++;
    return 0;
}

/* the sizes checked: 1..max, or past 16 some of them */
static int check_sizes(int max, int *sizes)
{
    int n = 0;

    if (max <= 16) {
        for (int i = 1; i <= max; i++) {
            sizes[n++] = i;
        }
        return n;
    }
    int pick[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, max / 4, max / 2, max / 2 + 1, max - 1, max};
    for (size_t i = 0; i < sizeof(pick) / sizeof(pick[0]); i++) {
        int dup = 0;
        for (int j = 0; j < n; j++) {
            dup |= sizes[j] == pick[i];
        }
        if (!dup && pick[i] >= 1 && pick[i] <= max) {
            int j = n++;
            for (; j > 0 && sizes[j - 1] > pick[i]; j--) {
                sizes[j] = sizes[j - 1];
            }
            sizes[j] = pick[i];
        }
    }
    return n;
}

/* adds v to set[*n] unless it is there */
static void add_unique(long *set, int *n, long v)
{
    for (int i = 0; i < *n; i++) {
        if (set[i] == v) {
            return;
        }
    }
    set[(*n)++] = v;
}

/* What the first rank of a call built, to compare the others with: a job's ranks agree on
   the signature at the miss, so a creator that builds by rank fails there */
typedef struct check_ranks {
    int first; /* its rank; -1 before it */
    uint64_t sig;
    char name[96], origin[512];
} check_ranks_t;

/* When `c', built for `rank', differs from what cr's first rank built: the message in err
   (as bridge_build_closure words a failed call) and the length of its part that names the
   creator (the rest has names and signatures that differ from call to call); else 0 */
static size_t check_same(check_ranks_t *cr, const coll_closure_t *c, int rank, bridge_kind_t kind,
                         coll_mode_t mode, int size, long root, size_t bytes, char *err, size_t len)
{
    if (cr->first < 0) {
        cr->first = rank;
        cr->sig = c->signature;
        snprintf(cr->name, sizeof(cr->name), "%s", c->name);
        snprintf(cr->origin, sizeof(cr->origin), "%s", bridge_last_origin());
        return 0;
    }
    if (c->signature == cr->sig) {
        return 0;
    }
    char root_text[32] = "";
    if (root >= 0) {
        snprintf(root_text, sizeof(root_text), " root=%ld", root);
    }
    /* the origin up to "returned": the creator and where it was installed */
    const char *ret = strstr(cr->origin, " returned ");
    int olen = ret != NULL ? (int)(ret - cr->origin) : (int)strlen(cr->origin);
    int alike = strcmp(cr->name, c->name) == 0;
    snprintf(err, len,
             "%.*s builds by rank: rank %d built %s (signature %016llx), rank %d built %s "
             "(signature %016llx)%s; in a job the agreement at the miss stops it, creators "
             "must be deterministic (call: %s %s%s bytes=%zu size=%d)",
             olen, cr->origin, cr->first, cr->name, (unsigned long long)cr->sig, rank, c->name,
             (unsigned long long)c->signature,
             alike ? ", named alike: what it runs (what `next' gave it) differs" : "",
             coll_mode_name(mode), bridge_kind_name(kind), root_text, bytes, size);
    cr->first = rank; /* one message per call */
    cr->sig = c->signature;
    return (size_t)olen + strlen(" builds by rank");
}

typedef struct check_opts {
    bridge_kind_t kind;  /* BRIDGE_KIND_COUNT: the kinds the configs touch */
    int all_kinds;       /* --op all */
    long bytes;          /* -1: the range */
    const char *datatype, *op; /* NULL: the range */
    int noncomm;
} check_opts_t;

static int run_check(const check_opts_t *o, const rte_layout_t *l, const char *out_path)
{
    static const long byte_range[] = {0, 8, 100, 4000, 4096, 65536, 1 << 20};
    struct {
        compi_datatype_t *dt;
        compi_op_t *op;
    } reds[3];
    int nreds = 0, sizes[32], nsizes = check_sizes(l->size, sizes), rc = 1;
    int kinds[BRIDGE_KIND_COUNT], nkinds = 0;
    check_t ck = {0};
    standin_t s = {0};
    char err[2048];
    FILE *f = out_path != NULL ? fopen(out_path, "w") : stdout;

    if (f == NULL) {
        return fail("cannot write %s: %s", out_path, strerror(errno));
    }
    if (standin_init(&s, l->size) != 0) {
        goto out;
    }
    bridge_keep_origins(1); /* check_same names the creator */
    if (o->datatype != NULL || o->op != NULL || o->noncomm) {
        reds[0].dt = datatype_named(o->datatype != NULL ? o->datatype : "MPI_DOUBLE");
        reds[0].op = o->noncomm ? &user_noncomm : op_named(o->op != NULL ? o->op : "MPI_SUM");
        if (o->op != NULL && strcmp(o->op, "user") == 0) {
            reds[0].op = o->noncomm ? &user_noncomm : &user_comm;
        }
        if (reds[0].dt == NULL || reds[0].op == NULL) {
            int no_dt = reds[0].dt == NULL;
            fail("%s '%s' is not a predefined %s", no_dt ? "--datatype" : "--reduce-op",
                 no_dt ? o->datatype : o->op, no_dt ? "datatype" : "op");
            goto out;
        }
        nreds = 1;
    } else {
        reds[0].dt = datatype_named("MPI_DOUBLE"), reds[0].op = op_named("MPI_SUM");
        reds[1].dt = datatype_named("MPI_INT"), reds[1].op = op_named("MPI_MAX");
        reds[2].dt = datatype_named("MPI_DOUBLE"), reds[2].op = &user_noncomm;
        nreds = 3;
    }
    compi_datatype_t *byte = datatype_named(o->datatype != NULL ? o->datatype : "MPI_BYTE");
    if (byte == NULL) {
        fail("--datatype '%s' is not a predefined datatype", o->datatype);
        goto out;
    }
    for (int k = 0; k < BRIDGE_KIND_COUNT; k++) {
        size_t n = 0;
        if (o->kind != BRIDGE_KIND_COUNT) {
            if (k == (int)o->kind) {
                kinds[nkinds++] = k;
            }
        } else if (o->all_kinds ||
                   (bridge_creator_count((bridge_kind_t)k, &n) == COMPI_OK && n > 1)) {
            kinds[nkinds++] = k; /* more than the default creator: a config's */
        }
    }
    if (nkinds == 0) { /* the configs install nothing: check the defaults */
        for (int k = 0; k < BRIDGE_KIND_COUNT; k++) {
            kinds[nkinds++] = k;
        }
    }

    for (int ki = 0; ki < nkinds; ki++) {
        bridge_kind_t kind = (bridge_kind_t)kinds[ki];
        for (int si = 0; si < nsizes; si++) {
            int size = sizes[si];
            long roots[3];
            int nroots = 0;
            if (is_rooted(kind)) {
                add_unique(roots, &nroots, 0);
                add_unique(roots, &nroots, size / 2);
                add_unique(roots, &nroots, size - 1);
            } else {
                roots[nroots++] = -1;
            }
            for (int ri = 0; ri < nroots; ri++) {
                long ranks[3];
                int nranks = 0;
                add_unique(ranks, &nranks, 0);
                add_unique(ranks, &nranks, roots[ri] >= 0 ? roots[ri] : 0);
                add_unique(ranks, &nranks, size - 1);
                int nbytes = kind == BRIDGE_KIND_BARRIER || is_file(kind) || o->bytes >= 0
                                 ? 1
                                 : (int)(sizeof(byte_range) / sizeof(byte_range[0]));
                for (int bi = 0; bi < nbytes; bi++) {
                    long bytes = kind == BRIDGE_KIND_BARRIER || is_file(kind) ? 0
                                 : o->bytes >= 0                              ? o->bytes
                                                                              : byte_range[bi];
                    for (int di = 0; di < (is_reduction(kind) ? nreds : 1); di++) {
                        compi_datatype_t *dt = is_reduction(kind) ? reds[di].dt : byte;
                        /* a reduction's bytes are whole elements */
                        size_t b = (size_t)bytes / dt->size * dt->size;
                        for (int mode = 0; mode < (is_file(kind) ? 1 : 2); mode++) {
                            check_ranks_t cr = {.first = -1};
                            for (int wi = 0; wi < nranks; wi++) {
                                coll_call_t call;
                                coll_closure_t *c;
                                standin_call(&s, &call, kind, (coll_mode_t)mode, size,
                                             (int)ranks[wi], roots[ri], b, dt, reds[di].op);
                                ck.calls++;
                                if (bridge_build_closure(&call, &c, err, sizeof(err)) ==
                                    COMPI_OK) {
                                    size_t keylen =
                                        check_same(&cr, c, (int)ranks[wi], kind, (coll_mode_t)mode,
                                                   size, roots[ri], b, err, sizeof(err));
                                    coll_closure_release(c);
                                    if (keylen > 0 &&
                                        check_note(&ck, err, (int)ranks[wi], keylen) != 0) {
                                        goto out;
                                    }
                                } else if (check_note(&ck, err, (int)ranks[wi], 0) != 0) {
                                    goto out;
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    for (int i = 0; i < ck.nerrors; i++) {
        fprintf(f, "error: %s\n  %ld call%s like this one (numbers may differ), the first: %s\n",
                ck.errors[i].what, ck.errors[i].calls, ck.errors[i].calls == 1 ? "" : "s",
                ck.errors[i].first);
    }
    fprintf(f, "compi-tree --check: %ld calls of %d kind%s on communicators of %d to %d ranks: ",
            ck.calls, nkinds, nkinds == 1 ? "" : "s", sizes[0], sizes[nsizes - 1]);
    if (ck.failed == 0) {
        fprintf(f, "all built\n");
    } else {
        fprintf(f, "%ld failed, %d distinct error%s\n", ck.failed, ck.nerrors,
                ck.nerrors == 1 ? "" : "s");
    }
    rc = ck.failed > 0;
out:
    if (f != stdout) {
        fclose(f);
    } else {
        fflush(f);
    }
    for (int i = 0; i < ck.nerrors; i++) {
        free(ck.errors[i].key);
        free(ck.errors[i].what);
        free(ck.errors[i].first);
    }
    free(ck.errors);
    standin_free(&s);
    return rc;
}

/* "reduce_scatter" and "Bcast" name kinds too */
static bridge_kind_t kind_from_arg(const char *arg)
{
    char name[64];
    size_t i;

    for (i = 0; arg[i] != '\0' && i + 1 < sizeof(name); i++) {
        char c = arg[i];
        name[i] = c == '_' ? '-' : (c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c);
    }
    name[i] = '\0';
    return arg[i] == '\0' ? bridge_kind_from_name(name) : BRIDGE_KIND_COUNT;
}

/* Graphviz's dot in PATH, into buf; 0 when there is none */
static int find_dot(char *buf, size_t len)
{
    const char *path = getenv("PATH");

    while (path != NULL && *path != '\0') {
        const char *colon = strchr(path, ':');
        size_t n = colon != NULL ? (size_t)(colon - path) : strlen(path);
        if (n > 0 && snprintf(buf, len, "%.*s/dot", (int)n, path) < (int)len &&
            access(buf, X_OK) == 0) {
            return 1;
        }
        path = colon != NULL ? colon + 1 : NULL;
    }
    return 0;
}

/* Runs `dot -Tsvg' on the DOT text; its output in *svg_p (malloc'd).  dot reads all of
 * its input before it writes, so the input is written whole, then the output read. */
static int run_dot(const char *dot_text, char **svg_p)
{
    char prog[PATH_MAX];
    int in[2] = {-1, -1}, out[2] = {-1, -1}, rc = 1, status;
    char *svg = NULL;
    size_t used = 0, cap = 0;

    if (!find_dot(prog, sizeof(prog))) {
        return fail("--format svg needs Graphviz's dot program, which is not in PATH "
                    "(Debian: apt-get install graphviz); --format dot writes the graph instead");
    }
    if (pipe(in) != 0 || pipe(out) != 0) {
        fail("cannot run %s: %s", prog, strerror(errno));
        goto out;
    }
    pid_t pid = fork();
    if (pid < 0) {
        fail("cannot run %s: %s", prog, strerror(errno));
        goto out;
    }
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execl(prog, "dot", "-Tsvg", (char *)NULL);
        fprintf(stderr, "compi-tree: cannot run %s: %s\n", prog, strerror(errno));
        _exit(127);
    }
    close(in[0]), close(out[1]);
    in[0] = out[1] = -1;
    for (size_t off = 0, n = strlen(dot_text); off < n;) {
        ssize_t w = write(in[1], dot_text + off, n - off);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            break; /* dot stopped reading: its exit status says why */
        }
        off += (size_t)w;
    }
    close(in[1]);
    in[1] = -1;
    for (;;) {
        if (used + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 65536;
            char *bigger = realloc(svg, cap);
            if (bigger == NULL) {
                fail("out of memory");
                break;
            }
            svg = bigger;
        }
        ssize_t r = read(out[0], svg + used, cap - used - 1);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            break;
        }
        used += (size_t)r;
    }
    close(out[0]);
    out[0] = -1;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fail("%s -Tsvg failed (%s %d)", prog, WIFEXITED(status) ? "exit status" : "signal",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        goto out;
    }
    if (svg == NULL) {
        goto out;
    }
    svg[used] = '\0';
    *svg_p = svg;
    svg = NULL;
    rc = 0;
out:
    for (int i = 0; i < 2; i++) {
        if (in[i] >= 0) {
            close(in[i]);
        }
        if (out[i] >= 0) {
            close(out[i]);
        }
    }
    free(svg);
    return rc;
}

static int write_out(const char *path, const char *text)
{
    FILE *f = path != NULL ? fopen(path, "w") : stdout;

    if (f == NULL) {
        return fail("cannot write %s: %s", path, strerror(errno));
    }
    int bad = fputs(text, f) == EOF;
    bad |= path != NULL ? fclose(f) != 0 : fflush(f) != 0;
    if (bad) {
        return fail("cannot write %s: %s", path != NULL ? path : "standard output",
                    strerror(errno));
    }
    return 0;
}

enum {
    OPT_CONFIG = 256,
    OPT_LAYOUT,
    OPT_NP,
    OPT_CHECK,
    OPT_OP,
    OPT_ROOT,
    OPT_RANK,
    OPT_BYTES,
    OPT_DATATYPE,
    OPT_REDUCE_OP,
    OPT_NONCOMM,
    OPT_FORMAT,
    OPT_VERSION
};

static const struct option options[] = {
    {"config", required_argument, NULL, OPT_CONFIG},
    {"layout", required_argument, NULL, OPT_LAYOUT},
    {"np", required_argument, NULL, OPT_NP},
    {"check", no_argument, NULL, OPT_CHECK},
    {"op", required_argument, NULL, OPT_OP},
    {"root", required_argument, NULL, OPT_ROOT},
    {"rank", required_argument, NULL, OPT_RANK},
    {"bytes", required_argument, NULL, OPT_BYTES},
    {"datatype", required_argument, NULL, OPT_DATATYPE},
    {"reduce-op", required_argument, NULL, OPT_REDUCE_OP},
    {"non-commutative", no_argument, NULL, OPT_NONCOMM},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

/* the most ranks a layout may hold: a drawing of more helps nobody */
#define TOOL_MAX_RANKS 65536

int main(int argc, char **argv)
{
    bridge_tree_request_t req = {.kind = BRIDGE_KIND_COUNT, .root = -1, .commutative = 1};
    const char **configs = calloc((size_t)argc, sizeof(*configs));
    const char *op_arg = NULL, *root_arg = NULL, *bytes_arg = NULL, *out_path = NULL;
    const char *np_arg = NULL;
    int nconfigs = 0, format = FMT_TEXT, opt, rc = 1, check = 0;
    char errbuf[2048], np_layout[64], sig[256], *text = NULL, *svg = NULL;
    rte_layout_t *layout = NULL;
    standin_t standin = {0};

    if (configs == NULL) {
        return fail("out of memory");
    }
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":o:h", options, NULL)) != -1) {
        switch (opt) {
        case OPT_CONFIG:
            configs[nconfigs++] = optarg;
            break;
        case OPT_LAYOUT:
            req.layout_text = optarg;
            break;
        case OPT_NP:
            np_arg = optarg;
            break;
        case OPT_CHECK:
            check = 1;
            break;
        case OPT_OP:
            op_arg = optarg;
            break;
        case OPT_ROOT:
            root_arg = optarg;
            break;
        case OPT_RANK:
            if ((req.rank = parse_count(optarg, INT_MAX)) < 0) {
                fail("--rank '%s' is not a rank (a number from 0)", optarg);
                goto out;
            }
            break;
        case OPT_BYTES:
            bytes_arg = optarg;
            break;
        case OPT_DATATYPE:
            req.datatype = optarg;
            break;
        case OPT_REDUCE_OP:
            req.op = optarg;
            break;
        case OPT_NONCOMM:
            req.commutative = 0;
            break;
        case OPT_FORMAT:
            if (strcmp(optarg, "text") == 0) {
                format = FMT_TEXT;
            } else if (strcmp(optarg, "dot") == 0) {
                format = FMT_DOT;
            } else if (strcmp(optarg, "svg") == 0) {
                format = FMT_SVG;
            } else {
                fail("--format '%s' is not one of text, dot, svg", optarg);
                goto out;
            }
            break;
        case 'o':
            out_path = optarg;
            break;
        case 'h':
            usage(stdout);
            rc = 0;
            goto out;
        case OPT_VERSION:
            printf("compi-tree (compi) %s\n", PACKAGE_VERSION);
            rc = 0;
            goto out;
        case ':':
            fail("%s needs an argument (see compi-tree --help)", argv[optind - 1]);
            goto out;
        default:
            fail("unknown option '%s' (see compi-tree --help)", argv[optind - 1]);
            goto out;
        }
    }
    if (optind < argc) {
        fail("unexpected argument '%s' (see compi-tree --help)", argv[optind]);
        goto out;
    }
    if (np_arg != NULL) {
        long np = parse_count(np_arg, TOOL_MAX_RANKS);
        if (np < 1) {
            fail("--np '%s' is not a number of ranks (1 to %d)", np_arg, TOOL_MAX_RANKS);
            goto out;
        }
        if (req.layout_text != NULL) {
            fail("--np and --layout: give one (--np N is the layout localhost:N)");
            goto out;
        }
        snprintf(np_layout, sizeof(np_layout), "localhost:%ld", np);
        req.layout_text = np_layout;
    }
    if (req.layout_text == NULL || (op_arg == NULL && !check)) {
        fail("missing %s (see compi-tree --help)", req.layout_text == NULL ? "--layout" : "--op");
        goto out;
    }
    if (check && (root_arg != NULL || req.rank != 0 || format != FMT_TEXT)) {
        fail("--check: %s is for one call's drawing (--check tries several)",
             root_arg != NULL ? "--root" : req.rank != 0 ? "--rank" : "--format");
        goto out;
    }

    /* the call: what a job's trampoline would hand to bridge_build_closure */
    int all_kinds = check && op_arg != NULL && strcmp(op_arg, "all") == 0;
    if (op_arg != NULL && !all_kinds && (req.kind = kind_from_arg(op_arg)) == BRIDGE_KIND_COUNT) {
        fail_kind(op_arg);
        goto out;
    }
    const char *kind = req.kind != BRIDGE_KIND_COUNT ? bridge_kind_name(req.kind) : "all";
    if (root_arg != NULL && !is_rooted(req.kind)) {
        fail("--root: %s has no root", kind);
        goto out;
    }
    if (is_rooted(req.kind) &&
        (req.root = root_arg != NULL ? parse_count(root_arg, INT_MAX) : 0) < 0) {
        fail("--root '%s' is not a rank (a number from 0)", root_arg);
        goto out;
    }
    long bytes = req.kind == BRIDGE_KIND_BARRIER || is_file(req.kind) ? 0 : 8;
    if (bytes_arg != NULL && (bytes = parse_count(bytes_arg, LONG_MAX)) < 0) {
        fail("--bytes '%s' is not a number of bytes", bytes_arg);
        goto out;
    }
    if (req.kind == BRIDGE_KIND_BARRIER && bytes != 0) {
        fail("--bytes: barrier moves no data (its calls have 0 bytes)");
        goto out;
    }
    if (is_file(req.kind) && bytes != 0) {
        fail("--bytes: %s calls have 0 bytes (each rank moves its own)", kind);
        goto out;
    }
    req.bytes = (unsigned long)bytes;
    if (req.kind != BRIDGE_KIND_COUNT && !is_reduction(req.kind) &&
        (req.op != NULL || !req.commutative)) {
        fail("%s: %s is not a reduction", req.op != NULL ? "--reduce-op" : "--non-commutative",
             kind);
        goto out;
    }
    if (req.layout_text[0] == '\0' || (req.datatype && req.datatype[0] == '\0') ||
        (req.op && req.op[0] == '\0')) {
        fail("%s is empty", req.layout_text[0] == '\0' ? "--layout"
                            : req.op == NULL || req.op[0] != '\0' ? "--datatype"
                                                                  : "--reduce-op");
        goto out;
    }
    if (rte_layout_parse(req.layout_text, TOOL_MAX_RANKS, &layout, errbuf, sizeof(errbuf)) !=
        COMPI_OK) {
        fail("%s", errbuf);
        goto out;
    }
    req.layout = layout;
    if (req.root >= layout->size) {
        fail("--root %ld is not a rank of the layout (0..%d)", req.root, layout->size - 1);
        goto out;
    }
    if (req.rank >= layout->size) {
        fail("--rank %ld is not a rank of the layout (0..%d)", req.rank, layout->size - 1);
        goto out;
    }

    /* the configs, as MPI_Init loads them */
    if (bridge_init(errbuf, sizeof(errbuf)) != COMPI_OK) {
        fail("%s", errbuf);
        goto out;
    }
    if (nconfigs == 0 &&
        bridge_load_config_list(bridge_config_list(), errbuf, sizeof(errbuf)) != COMPI_OK) {
        fail("%s", errbuf);
        goto out;
    }
    for (int i = 0; i < nconfigs; i++) {
        if (bridge_load_config_list(configs[i], errbuf, sizeof(errbuf)) != COMPI_OK) {
            fail("%s", errbuf);
            goto out;
        }
    }

    /* a job of the layout's size whose ranks report the layout's facts */
    if (dt_init() != COMPI_OK || op_init() != COMPI_OK) {
        fail("cannot set up the predefined datatypes and ops");
        goto out;
    }
    rte_proc.world_size = layout->size;
    rte_proc.world_rank = 0;
    if (topo_facts_from_layout(layout) != COMPI_OK) {
        fail("out of memory for the facts of %d ranks", layout->size);
        goto out;
    }
    if (check) {
        check_opts_t co = {.kind = req.kind,
                           .all_kinds = all_kinds,
                           .bytes = bytes_arg != NULL ? bytes : -1,
                           .datatype = req.datatype,
                           .op = req.op,
                           .noncomm = !req.commutative};
        rc = run_check(&co, layout, out_path);
        goto out;
    }

    /* the closure, built as a miss builds it */
    if (is_reduction(req.kind) && req.op == NULL) {
        req.op = req.commutative ? "MPI_SUM" : "user";
    }
    if (req.datatype == NULL) {
        req.datatype = is_reduction(req.kind) ? "MPI_DOUBLE" : "MPI_BYTE";
    }
    compi_datatype_t *dt = datatype_named(req.datatype);
    compi_op_t *op = NULL;
    if (dt == NULL) {
        fail("--datatype '%s' is not a predefined MPI datatype (MPI_INT, MPI_DOUBLE, ...)",
             req.datatype);
        goto out;
    }
    if (req.op != NULL) {
        op = strcmp(req.op, "user") == 0 ? (req.commutative ? &user_comm : &user_noncomm)
             : req.commutative          ? op_named(req.op)
                                        : NULL;
        if (op == NULL) {
            fail(req.commutative ? "--reduce-op '%s' is not a predefined MPI op (MPI_SUM, ...)"
                                 : "--reduce-op '%s' with --non-commutative: a predefined op "
                                   "commutes (leave --reduce-op out, or give user)",
                 req.op);
            goto out;
        }
    }
    if (standin_init(&standin, layout->size) != 0) {
        goto out;
    }
    coll_call_t call;
    coll_closure_t *closure;
    standin_call(&standin, &call, req.kind, COLL_MODE_BLOCKING, layout->size, (int)req.rank,
                 req.root, req.bytes, dt, op);
    if (bridge_build_closure(&call, &closure, errbuf, sizeof(errbuf)) != COMPI_OK) {
        fail("%s", errbuf);
        goto out;
    }
    signature_text(closure, sig, sizeof(sig));
    coll_closure_release(closure);
    req.signature = sig;

    req.dot = format != FMT_TEXT;
    if (bridge_tree_render(&req, &text, errbuf, sizeof(errbuf)) != COMPI_OK) {
        fail("%s", errbuf);
        goto out;
    }
    if (format == FMT_SVG) {
        signal(SIGPIPE, SIG_IGN); /* dot may stop reading: write() then says so */
        if (run_dot(text, &svg) != 0) {
            goto out;
        }
    }
    rc = write_out(out_path, svg != NULL ? svg : text);
out:
    standin_free(&standin);
    rte_layout_free(layout);
    free(text);
    free(svg);
    free(configs);
    return rc;
}
