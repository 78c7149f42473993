/*
 * dynproc.c -- intercommunicators between two worlds: the parents and children of
 * MPI_Comm_spawn, the two sides of MPI_Comm_accept / MPI_Comm_connect and of
 * MPI_Comm_join.
 *
 * The two groups share no communicator, so their roots meet in mpirun's key-value space
 * (rte_kvs_put / rte_kvs_wait): each root publishes one record under its own key and
 * waits for the other's under the other key (the callers name the keys: dynproc_api.c),
 * then broadcasts what it read in its group:
 *
 *   KEY      "ctx,size,nchunks"      the group's largest next free context id, its size
 *   KEY.i    "g0-g3,g7,..."          the members' global ids in group order, as ranges,
 *                                    in chunks that fit a value (written before KEY)
 *
 * Every member then adds the other group's processes as peers (rte_peer_add: indices
 * after the world's ranks) and connects to them (pml_add_peers; the other side does the
 * same at about the same time, and a message that comes first waits in the transport).
 * The context id is the larger of the two groups' maxima, so it (and the next, for the
 * local_comm) is free on every member of both groups, as for MPI_Intercomm_create.
 *
 * Two groups of different mpirun jobs share no key-value space: their roots meet over a
 * socket (ops->sock, a port that names an address) and swap one text record each (one
 * side sends first, the other reads first),
 *
 *   "<bytes>\n" then "ctx size\n" and per member "gid <universe> key=value ...\n"
 *
 * the members' business cards included (rte_peer_cards), which the root broadcasts in its
 * group whole; a member of the other job is added with rte_peer_add_foreign.
 *
 * A job on one host leaves btl ofi (libfabric) closed at MPI_Init: its start-up would cost
 * every such job.  When the two records show processes on two hosts and some process of
 * either group without an ofi card, both roots know it (dyn__need_remote) and tell their
 * groups; every member opens ofi (pml_open_btl_late; nothing where it is open) and the
 * roots swap their records a second time, now with the ofi cards, or a line "!<why>"
 * from a group where ofi could not open, which fails the meeting on both sides with
 * that reason (ops->failed).
 */
#include "core/comm/comm.h"

#include "core/comm/comm_coll.h"
#include "core/comm/dynproc.h"
#include "core/dt/dt.h"
#include "core/pml/pml.h"
#include "core/runtime/log.h"
#include "core/runtime/rte.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* characters of one chunk of ranges: below RTE_MODEX_VALMAX with room for one range */
#define DYN_CHUNK 800
/* the business card btl ofi publishes (its OFI_MODEX_KEY) */
#define DYN_OFI_CARD "btl.ofi"
/* the root's header broadcast in its group: status, ctx, size, bytes of the record (or of
   the reason of a failure) that follows, and whether ofi must be opened first */
#define DYN_HDR 5
/* the longest reason of a failure the root broadcasts (it cuts a longer one) */
#define DYN_WHY_MAX 1024

/* appends the ranges of ids[0..n) to the chunks under key.0, key.1, ...; *nchunks_p */
static compi_status_t dyn__put_ids(const char *key, const int *ids, int n, int *nchunks_p)
{
    char val[RTE_MODEX_VALMAX + 1], k[256];
    size_t len = 0;
    int nchunks = 0;
    compi_status_t st;

    for (int i = 0; i < n;) {
        int j = i;
        char one[32];

        while (j + 1 < n && ids[j + 1] == ids[j] + 1) {
            j++;
        }
        int w = j > i ? snprintf(one, sizeof(one), "%d-%d", ids[i], ids[j])
                      : snprintf(one, sizeof(one), "%d", ids[i]);
        if (len + (size_t)w + 1 > DYN_CHUNK) {
            snprintf(k, sizeof(k), "%s.%d", key, nchunks++);
            if ((st = rte_kvs_put(k, val)) != COMPI_OK) {
                return st;
            }
            len = 0;
        }
        len += (size_t)snprintf(val + len, sizeof(val) - len, "%s%s", len ? "," : "", one);
        i = j + 1;
    }
    snprintf(k, sizeof(k), "%s.%d", key, nchunks++);
    if ((st = rte_kvs_put(k, len ? val : "")) != COMPI_OK) {
        return st;
    }
    *nchunks_p = nchunks;
    return COMPI_OK;
}

/* reads `n` ids from the chunks of `key` into ids */
static compi_status_t dyn__get_ids(const char *key, int nchunks, int *ids, int n)
{
    char val[RTE_MODEX_VALMAX + 1], k[256];
    int got = 0;
    compi_status_t st;

    for (int c = 0; c < nchunks; c++) {
        snprintf(k, sizeof(k), "%s.%d", key, c);
        if ((st = rte_kvs_get(k, val, sizeof(val))) != COMPI_OK) {
            return st;
        }
        for (char *p = val; *p != '\0';) {
            char *end;
            long a = strtol(p, &end, 10), b = a;

            if (end == p) {
                return COMPI_ERR_PMI;
            }
            if (*end == '-') {
                p = end + 1;
                b = strtol(p, &end, 10);
            }
            for (long g = a; g <= b; g++) {
                if (got == n) {
                    return COMPI_ERR_PMI;
                }
                ids[got++] = (int)g;
            }
            p = *end == ',' ? end + 1 : end;
        }
    }
    return got == n ? COMPI_OK : COMPI_ERR_PMI;
}

/* the record of group `local` for the other job (see the top); heap, NULL on error */
static char *dyn__record(compi_comm_t *local, uint32_t ctx, compi_status_t *st_p)
{
    size_t cap = 4096 + (size_t)local->size * 8192, off;
    char *rec = malloc(cap);

    if (rec == NULL) {
        *st_p = COMPI_ERR_NO_MEMORY;
        return NULL;
    }
    off = (size_t)snprintf(rec, cap, "%u %d\n", ctx, local->size);
    for (int i = 0; i < local->size; i++) {
        int peer = local->world_ranks[i];
        int w = snprintf(rec + off, cap - off, "%d ", rte_peer_gid(peer));
        off += (size_t)w;
        if ((*st_p = rte_peer_cards(peer, rec + off, cap - off - 1)) != COMPI_OK) {
            free(rec);
            return NULL;
        }
        off += strlen(rec + off);
        rec[off++] = '\n';
        rec[off] = '\0';
    }
    *st_p = COMPI_OK;
    return rec;
}

int comm_dyn_xfer(int fd, char *buf, size_t n, int out)
{
    for (size_t off = 0; off < n;) {
        ssize_t k = out ? write(fd, buf + off, n - off) : read(fd, buf + off, n - off);
        if (k < 0 && errno == EINTR) {
            continue;
        }
        if (k <= 0) {
            return -1;
        }
        off += (size_t)k;
    }
    return 0;
}

/* our record, its length on a line first */
static compi_status_t dyn__send_record(int fd, const char *mine)
{
    char len[24];

    snprintf(len, sizeof(len), "%zu\n", strlen(mine));
    return comm_dyn_xfer(fd, len, strlen(len), 1) != 0 ||
                   comm_dyn_xfer(fd, (char *)mine, strlen(mine), 1) != 0
               ? COMPI_ERR_UNREACHABLE
               : COMPI_OK;
}

/* the other side's record (heap, *n_p bytes before its '\0') */
static compi_status_t dyn__recv_record(int fd, char **rec_p, size_t *n_p)
{
    char len[24], *rec;
    size_t n = 0, got = 0;

    /* the length, one byte at a time */
    while (got + 1 < sizeof(len)) {
        if (comm_dyn_xfer(fd, len + got, 1, 0) != 0) {
            return COMPI_ERR_UNREACHABLE;
        }
        if (len[got++] == '\n') {
            break;
        }
    }
    len[got] = '\0';
    if (sscanf(len, "%zu", &n) != 1 || n == 0 || n > (64u << 20)) {
        return COMPI_ERR_PMI;
    }
    if ((rec = malloc(n + 1)) == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    if (comm_dyn_xfer(fd, rec, n, 0) != 0) {
        free(rec);
        return COMPI_ERR_UNREACHABLE;
    }
    rec[n] = '\0';
    *rec_p = rec;
    *n_p = n;
    return COMPI_OK;
}

/* a message, on the heap (NULL: out of memory) */
static char *dyn__why(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *dyn__why(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *m = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (m != NULL) {
        va_start(ap, fmt);
        vsnprintf(m, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    return m;
}

/* our record `mine` out, theirs in (heap, *n_p bytes): the side that speaks first sends
   before it reads, so records longer than the socket's buffers cannot deadlock */
static compi_status_t dyn__swap(int fd, int first, const char *mine, char **theirs_p, size_t *n_p)
{
    compi_status_t st = first ? dyn__send_record(fd, mine) : dyn__recv_record(fd, theirs_p, n_p);

    if (st == COMPI_OK) {
        st = first ? dyn__recv_record(fd, theirs_p, n_p) : dyn__send_record(fd, mine);
    }
    if (st != COMPI_OK && !first) {
        free(*theirs_p);
        *theirs_p = NULL;
    }
    return st;
}

/* hdr[1..3] from the other side's record `theirs` of n bytes */
static compi_status_t dyn__parse_hdr(const char *theirs, size_t n, int hdr[DYN_HDR])
{
    unsigned c = 0;
    int size = 0, used = 0;

    if (sscanf(theirs, "%u %d\n%n", &c, &size, &used) != 2 || used == 0 || size < 1) {
        return COMPI_ERR_PMI;
    }
    hdr[1] = (int)c;
    hdr[2] = size;
    hdr[3] = (int)n + 1;
    return COMPI_OK;
}

/* the value of `key` in the member line at `line` of a record ("gid universe k=v ...\n"):
   its length, the value at *val_p; -1 when the line has no such key */
static int dyn__line_card(const char *line, const char *key, const char **val_p)
{
    size_t klen = strlen(key);
    const char *end = line + strcspn(line, "\n");

    for (const char *p = line; p < end;) {
        const char *w = p + strcspn(p, " \n");
        if ((size_t)(w - p) > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
            *val_p = p + klen + 1;
            return (int)(w - p - (ptrdiff_t)klen - 1);
        }
        p = w < end ? w + 1 : end;
    }
    return -1;
}

/*
 * Whether the meeting of the groups of records `mine` and `theirs` needs libfabric opened
 * where it is not: not every process of both is on one host (so some pair is on two,
 * which only ofi joins) and some process of either has no ofi card.  Both roots find the
 * same.  *host: a host of theirs that is not our first one (for messages).
 */
static int dyn__need_remote(const char *mine, const char *theirs, char *host, size_t len)
{
    const char *recs[2] = {mine, theirs}, *h0 = NULL, *v = NULL, *o;
    int n0 = -1, cross = 0, lacking = 0, seen = 0;

    host[0] = '\0';
    for (int k = 0; k < 2; k++) {
        for (const char *l = strchr(recs[k], '\n'); l != NULL && l[1] != '\0';
             l = strchr(l + 1, '\n')) {
            int n = dyn__line_card(l + 1, "host", &v);
            lacking |= dyn__line_card(l + 1, DYN_OFI_CARD, &o) < 0;
            if (!seen) {
                seen = 1;
                h0 = v;
                n0 = n;
            } else if (n != n0 || (n > 0 && memcmp(v, h0, (size_t)n) != 0)) {
                cross = 1;
                if (k == 1 && host[0] == '\0' && n > 0) {
                    snprintf(host, len, "%.*s", n, v);
                }
            }
        }
    }
    return cross && lacking;
}

/* the root's part over a socket: hdr as dyn__root's (hdr[4]: ofi must be opened, see
   dyn__need_remote, the host named in host), *rec_p the other side's record */
static compi_status_t dyn__root_sock(compi_comm_t *local, uint32_t ctx, int fd, int first,
                                     int hdr[DYN_HDR], char **rec_p, char *host, size_t hlen)
{
    compi_status_t st;
    char *mine = dyn__record(local, ctx, &st), *theirs = NULL;
    size_t n = 0;

    if (mine == NULL) {
        return st;
    }
    st = dyn__swap(fd, first, mine, &theirs, &n);
    if (st == COMPI_OK) {
        st = dyn__parse_hdr(theirs, n, hdr);
    }
    if (st == COMPI_OK) {
        hdr[4] = dyn__need_remote(mine, theirs, host, hlen);
    }
    free(mine);
    if (st != COMPI_OK) {
        free(theirs);
        return st;
    }
    *rec_p = theirs;
    return COMPI_OK;
}

/*
 * The root's second swap, after every member tried to open ofi (`failed`: some could
 * not; `own` says why when the root could not): our record again, with the new cards, or
 * "!<why>".  On success as dyn__root_sock; on failure *rec_p is the reason (ours first,
 * else theirs) and hdr[3] its size.
 */
static compi_status_t dyn__root_remote(compi_comm_t *local, uint32_t ctx, int fd, int first,
                                       int failed, const char *own, const char *host,
                                       int hdr[DYN_HDR], char **rec_p)
{
    compi_status_t st = COMPI_OK;
    char *mine, *theirs = NULL, *why = NULL;
    size_t n = 0;

    if (failed) {
        const char *what = own[0] != '\0' ? own : "some process of this job could not open it";
        size_t wl = strlen(what) + 2;
        if ((mine = malloc(wl)) != NULL) {
            snprintf(mine, wl, "!%s", what);
        }
        st = mine == NULL ? COMPI_ERR_NO_MEMORY : COMPI_OK;
    } else {
        mine = dyn__record(local, ctx, &st);
    }
    if (mine == NULL) {
        return st;
    }
    st = dyn__swap(fd, first, mine, &theirs, &n);
    if (st == COMPI_OK && failed) {
        why = dyn__why("the other job's processes on another host (%s) need btl ofi "
                       "(libfabric), which cannot open here: %s",
                       host[0] != '\0' ? host : "?", mine + 1);
    } else if (st == COMPI_OK && theirs[0] == '!') {
        why = dyn__why("the other job (on host %s) cannot open btl ofi (libfabric), which "
                       "would reach this job's processes from there: %s",
                       host[0] != '\0' ? host : "?", theirs + 1);
    } else if (st == COMPI_OK) {
        st = dyn__parse_hdr(theirs, n, hdr);
    }
    free(mine);
    if (why != NULL || (st == COMPI_OK && (failed || theirs[0] == '!'))) {
        free(theirs);
        if (why == NULL) {
            return COMPI_ERR_NO_MEMORY;
        }
        if (strlen(why) >= DYN_WHY_MAX) {
            why[DYN_WHY_MAX - 1] = '\0';
        }
        hdr[3] = (int)strlen(why) + 1;
        *rec_p = why;
        return COMPI_ERR_UNREACHABLE;
    }
    if (st != COMPI_OK) {
        free(theirs);
        return st;
    }
    *rec_p = theirs;
    return COMPI_OK;
}

/* adds the processes of record `rec` (a member's copy) as peers */
static compi_status_t dyn__add_record(char *rec, int n, int *peers)
{
    char *line = strchr(rec, '\n');
    size_t ulen = strlen(rte_proc.universe);

    for (int i = 0; i < n; i++) {
        char *end, *cards;
        int gid;
        if (line == NULL) {
            return COMPI_ERR_PMI;
        }
        line++;
        gid = (int)strtol(line, &cards, 10);
        if (cards == line || *cards != ' ' || (end = strchr(++cards, '\n')) == NULL) {
            return COMPI_ERR_PMI;
        }
        *end = '\0';
        compi_status_t st = strncmp(cards, rte_proc.universe, ulen) == 0 && cards[ulen] == ' '
                                ? rte_peer_add(gid, &peers[i])
                                : rte_peer_add_foreign(gid, cards, &peers[i]);
        *end = '\n';
        if (st != COMPI_OK) {
            return st;
        }
        line = end;
    }
    return COMPI_OK;
}

/*
 * The root's part: publish our record, run `between`, read theirs.  hdr gets {status,
 * ctx, size}; *ids_p the other side's global ids (heap).
 */
static compi_status_t dyn__root(compi_comm_t *local, uint32_t ctx, const comm_dyn_ops_t *ops,
                                void *arg, int hdr[DYN_HDR], int **ids_p)
{
    char val[RTE_MODEX_VALMAX + 1], mine[200], theirs[200];
    int *gids = malloc((size_t)local->size * sizeof(int)), nchunks = 0, n = 0;
    unsigned c = 0;
    compi_status_t st = gids == NULL ? COMPI_ERR_NO_MEMORY : COMPI_OK;

    if (st == COMPI_OK) {
        st = ops->prepare(arg, mine, theirs, sizeof(mine));
    }
    for (int i = 0; st == COMPI_OK && i < local->size; i++) {
        char uni[sizeof(rte_proc.universe)];
        gids[i] = rte_peer_gid(local->world_ranks[i]);
        /* a global id names a process of this job only */
        if (rte_modex_get(local->world_ranks[i], RTE_KEY_UNIVERSE, uni, sizeof(uni)) != COMPI_OK ||
            strcmp(uni, rte_proc.universe) != 0) {
            st = COMPI_ERR_UNSUPPORTED;
        }
    }
    if (st == COMPI_OK) {
        st = dyn__put_ids(mine, gids, local->size, &nchunks);
    }
    free(gids);
    if (st == COMPI_OK) {
        snprintf(val, sizeof(val), "%u,%d,%d", ctx, local->size, nchunks);
        st = rte_kvs_put(mine, val);
    }
    if (st == COMPI_OK && ops->between != NULL) {
        st = ops->between(arg);
    }
    if (st == COMPI_OK) {
        st = rte_kvs_wait(theirs, val, sizeof(val));
    }
    if (st == COMPI_OK && (sscanf(val, "%u,%d,%d", &c, &n, &nchunks) != 3 || n < 1)) {
        st = COMPI_ERR_PMI;
    }
    if (st == COMPI_OK && (*ids_p = malloc((size_t)n * sizeof(int))) == NULL) {
        st = COMPI_ERR_NO_MEMORY;
    }
    if (st == COMPI_OK && (st = dyn__get_ids(theirs, nchunks, *ids_p, n)) != COMPI_OK) {
        free(*ids_p);
        *ids_p = NULL;
    }
    hdr[0] = (int)st;
    hdr[1] = (int)c;
    hdr[2] = n;
    return st;
}

compi_status_t comm_dyn_join(compi_comm_t *local, int root, const comm_dyn_ops_t *ops, void *arg,
                             compi_comm_t **inter_p)
{
    comm_coll_set_t set;
    int *members = NULL, *ids = NULL, *peers = NULL;
    int hdr[DYN_HDR] = {COMPI_OK, 0, 0, 0, 0}, fd = -1, first = 0;
    char *rec = NULL, host[256] = "", own[400], mine_why[DYN_WHY_MAX] = "";
    uint32_t max_ctx;
    compi_group_t *rg = NULL;
    compi_comm_t *c = NULL;
    compi_status_t st;

    *inter_p = NULL;
    if (!rte_dynamic()) {
        return COMPI_ERR_UNSUPPORTED;
    }
    st = comm_coll_rooted(local, root, &set, &members);
    if (st != COMPI_OK) {
        return st;
    }
    st = comm_coll_allreduce_max_u32(&set, comm_ctx_dyn_next(), &max_ctx);
    if (st != COMPI_OK || max_ctx >= COMM_CTX_NB_BASE - 2) {
        st = st != COMPI_OK ? st : COMPI_ERR_NO_RESOURCE;
        goto out;
    }
    /* claimed now: at MPI_THREAD_MULTIPLE another thread may spawn or connect while the
       root waits for the other group (an id above ours that the other group brings may
       still be taken meanwhile by such a join: not made safe).  Other agreements take
       ids of their own spaces (COMM_CTX_DYN_BASE, comm.h). */
    comm_ctx_dyn_taken(max_ctx + 1);
    if (local->rank == root) {
        fd = ops->sock != NULL ? ops->sock(arg, &first) : -1;
        if (fd == -2) {
            hdr[0] = (int)COMPI_ERR_UNREACHABLE; /* the callback says why */
        } else if (fd >= 0) {
            hdr[0] = (int)dyn__root_sock(local, max_ctx, fd, first, hdr, &rec, host, sizeof(host));
        } else {
            dyn__root(local, max_ctx, ops, arg, hdr, &ids);
        }
    }
    /* the others wait here whatever the root found: it always broadcasts */
    st = comm_coll_bcast_int(&set, hdr, DYN_HDR);
    if (st == COMPI_OK && hdr[0] == COMPI_OK && hdr[4]) {
        /* processes on two hosts and ofi closed somewhere: open it, then swap again */
        compi_status_t ost = pml_open_btl_late("ofi", own, sizeof(own));
        uint32_t failed = 0;
        st = comm_coll_allreduce_max_u32(&set, ost != COMPI_OK, &failed);
        if (st == COMPI_OK && ost != COMPI_OK) {
            /* unless the root says more (it names the host, and the other side's reason) */
            snprintf(mine_why, sizeof(mine_why),
                     "the other job's processes on another host need btl ofi (libfabric), "
                     "which cannot open here: %s",
                     own);
        }
        if (st == COMPI_OK && local->rank == root) {
            free(rec);
            rec = NULL;
            hdr[3] = 0;
            hdr[0] = (int)dyn__root_remote(local, max_ctx, fd, first, failed != 0,
                                           ost != COMPI_OK ? own : "", host, hdr, &rec);
        }
        if (st == COMPI_OK) {
            st = comm_coll_bcast_int(&set, hdr, DYN_HDR);
        }
    }
    if (st != COMPI_OK) {
        goto out;
    }
    if (hdr[0] != COMPI_OK && hdr[3] > 0 && hdr[3] <= DYN_WHY_MAX) {
        /* why the meeting failed, from the root (as ints, like a record) */
        int words[(DYN_WHY_MAX + sizeof(int) - 1) / sizeof(int)] = {0};
        char *why = (char *)(void *)words;
        if (local->rank == root) {
            memcpy(why, rec, (size_t)hdr[3]);
        }
        st = comm_coll_bcast_int(&set, words,
                                 (int)(((size_t)hdr[3] + sizeof(int) - 1) / sizeof(int)));
        why[hdr[3] - 1] = '\0';
        if (st == COMPI_OK) {
            snprintf(mine_why, sizeof(mine_why), "%s", why);
        }
    }
    if (hdr[0] != COMPI_OK && mine_why[0] != '\0' && ops->failed != NULL) {
        ops->failed(arg, mine_why);
    }
    if (st != COMPI_OK) {
        goto out;
    }
    if (hdr[0] != COMPI_OK) {
        st = (compi_status_t)hdr[0];
        goto out;
    }
    if (hdr[3] > 0) {
        /* the other job's record, whole (as ints: the bytes and their padding) */
        size_t words = ((size_t)hdr[3] + sizeof(int) - 1) / sizeof(int);
        char *buf = calloc(words, sizeof(int));
        if (buf != NULL && rec != NULL) {
            memcpy(buf, rec, (size_t)hdr[3]);
        }
        free(rec);
        rec = buf;
        if (rec == NULL) {
            st = COMPI_ERR_NO_MEMORY; /* the root has sent: the job cannot go on consistently */
            goto out;
        }
        st = comm_coll_bcast_int(&set, (int *)(void *)rec, (int)words);
        if (st != COMPI_OK) {
            goto out;
        }
        rec[hdr[3] - 1] = '\0';
    }
    if (rec == NULL) {
        if (ids == NULL && (ids = malloc((size_t)hdr[2] * sizeof(int))) == NULL) {
            st = COMPI_ERR_NO_MEMORY; /* the root has sent: the job cannot go on consistently */
            goto out;
        }
        st = comm_coll_bcast_int(&set, ids, hdr[2]);
        if (st != COMPI_OK) {
            goto out;
        }
    }
    peers = malloc((size_t)hdr[2] * sizeof(int));
    if (peers == NULL) {
        st = COMPI_ERR_NO_MEMORY;
        goto out;
    }
    if (rec != NULL) {
        st = dyn__add_record(rec, hdr[2], peers);
    }
    for (int i = 0; rec == NULL && st == COMPI_OK && i < hdr[2]; i++) {
        st = rte_peer_add(ids[i], &peers[i]);
    }
    if (st == COMPI_OK) {
        st = pml_add_peers(hdr[2], peers);
    }
    if (st != COMPI_OK) {
        goto out;
    }
    uint32_t ctx = (uint32_t)hdr[1] > max_ctx ? (uint32_t)hdr[1] : max_ctx;
    if (ctx >= COMM_CTX_NB_BASE - 2 - COMM_CTX_POOL) {
        st = COMPI_ERR_NO_RESOURCE;
        goto out;
    }
    comm_ctx_dyn_taken(ctx + COMM_CTX_POOL);
    st = group_create(hdr[2], peers, &rg);
    if (st == COMPI_OK) {
        st = comm_create_inter(local->group, rg, ctx, &c);
    }
    if (st == COMPI_OK) {
        comm_set_errhandler(c, local->errh);
        comm_set_errhandler(c->local_comm, local->errh);
        comm_pool_reserved(c);
        *inter_p = c;
    }
out:
    if (rg != NULL) {
        group_release(rg);
    }
    free(peers);
    free(ids);
    free(rec);
    free(members);
    return st;
}

compi_status_t comm_dyn_sync(compi_comm_t *inter)
{
    comm_coll_set_t set = comm_coll_whole(inter);
    uint32_t dummy;
    compi_status_t st = comm_coll_allreduce_max_u32(&set, 0, &dummy);
    int mine = 0, theirs = 0;

    if (st != COMPI_OK) {
        return st;
    }
    /* the leaders meet over the intercommunicator, then tell their groups */
    if (inter->rank == 0) {
        compi_request_t *sreq = NULL;
        compi_datatype_t *dt = dt_from_handle(MPI_INT);

        st = pml_isend(&mine, 1, dt, 0, COMPI_TAG_COMM_CREATE, inter, PML_SEND_STANDARD, &sreq);
        if (st == COMPI_OK) {
            st = pml_recv(&theirs, 1, dt, 0, COMPI_TAG_COMM_CREATE, inter, NULL);
            compi_status_t wst = pml_wait(sreq, NULL);
            pml_request_free(sreq);
            st = st != COMPI_OK ? st : wst;
        }
    }
    compi_status_t bst = comm_coll_bcast_int(&set, &theirs, 1);
    return st != COMPI_OK ? st : bst;
}
