/*
 * file_write/two_phase.c -- collective file access by two-phase I/O (file-write and
 * file-read: MPI_File_write_all, read_all, ...; ROMIO's collective buffering, after
 * Thakur, Gropp and Lusk, "Data sieving and collective I/O in ROMIO", 1999).  A few
 * ranks, the aggregators (params->ranks, chosen by the creator: one per host by
 * default), each own one contiguous domain of the file; every rank sends each aggregator
 * the bytes of its segments that fall in that aggregator's domain, and the aggregator
 * writes its domain in large contiguous pieces (a read runs the other way).
 *
 *   ranks' segments      0 1 2 3 0 1 2 3 0 1 2 3 ...   (interleaved records)
 *   [min, max) of all  |<---- domain of A0 ---->|<---- domain of A1 ---->|
 *   round r of A0:     [lo + r cb, lo + (r + 1) cb): every rank sends A0 its bytes
 *                      there (one run of its packed buffer; A0's own are copied, not
 *                      sent), A0 writes the window with one pwrite (one pread first
 *                      where it has holes)
 *
 *   1. allgather of each rank's [first, last), bytes and segment count (64-bit words);
 *   2. the domains: [min first, max last) split evenly among the na aggregators, the
 *      inner boundaries on multiples of 4 KiB (a file-system block) when a domain is
 *      larger than that; domain i belongs to params->ranks[i];
 *   3. every rank whose range meets a domain sends its aggregator how many of its
 *      segments fall there, then their offsets and lengths (clipped to the domain);
 *   4. rounds of at most cb = params->segsize bytes (cb_buffer_size, 16 MiB when 0) of
 *      each domain: the senders post their runs, the aggregator receives them into a
 *      staging buffer of cb bytes (in batches when ranks' writes overlap and exceed it)
 *      and places them in its collective buffer of cb bytes.  A window whose present
 *      bytes leave holes is read first and written back whole (read-modify-write) under
 *      an fcntl write lock of that range, so that bytes nobody writes keep their content
 *      even if another process writes them meanwhile; in atomic mode every window is
 *      written under the lock.  A read reads the window's extent (holes included: one
 *      pread), then sends every rank its bytes (an fcntl read lock in atomic mode);
 *   5. the ranks agree on the error (the largest errno), so every rank returns the same.
 *
 * Cost (p ranks, na aggregators, n bytes in all, domains of d = n / na): the rounds move
 * each byte once over the network (alpha per run of a rank in a window, beta n / na per
 * aggregator, which also does d / cb large pwrites instead of the ranks' many small
 * ones), plus 3 latency rounds (allgather, lists, error) and, where windows have holes, a
 * pread of them.  Worth it when ranks' segments interleave finely (strided records):
 * the file sees few large requests instead of p ranks' small ones.  When each rank's
 * range is its own contiguous block, the direct path (direct.c) does the same I/O
 * without the exchange: "two-phase-if-interleaved" chooses at run time (ROMIO's
 * romio_cb_write=automatic), on the allgathered ranges, so every rank chooses alike.
 * "two-phase-if-short" (the defaults' write on one host) also goes direct when the runs
 * are long (TP_SHORT_RUN bytes on average over all ranks): there the file system takes
 * each rank's requests about as well as an aggregator's, and the exchange only copies.
 *
 * Nonblocking (MPI_File_iwrite_all, iread_all, the _at_all and split forms): the same
 * steps as a schedule (two_phase_nb.c), sharing this file's helpers (two_phase.h).
 *
 * Memory: per call, at an aggregator 2 cb (collective buffer, staging) and the lists
 * of the segments in its domain; at every rank the prefix sums of its own segments.
 * Out of memory is agreed on before any data moves, and fails the call on every rank.
 */
#include "core/coll/algorithms/file_write/two_phase.h"

#include "core/comm/comm_coll.h"
#include "core/pml/pml.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TP_ALIGN 4096

static compi_datatype_t *tp__byte(void)
{
    return dt_from_handle(MPI_BYTE);
}

/* the window of domain a in round r, empty (0) past its end */
int tp__window(const tp_t *t, int a, int64_t r, int64_t *lo_p, int64_t *hi_p)
{
    int64_t lo = t->dom[a] + r * t->cb;
    if (lo >= t->dom[a + 1]) {
        return 0;
    }
    *lo_p = lo;
    *hi_p = lo + t->cb < t->dom[a + 1] ? lo + t->cb : t->dom[a + 1];
    return 1;
}

int tp__meets(const tp_t *t, int q, int a)
{
    int64_t first = t->range[2 * q], last = t->range[2 * q + 1];
    return first < last && first < t->dom[a + 1] && last > t->dom[a];
}

/* step 2: even domains over [min, max), inner boundaries aligned */
void tp__domains(tp_t *t, int64_t min, int64_t max)
{
    int64_t span = max - min, d = (span + t->na - 1) / t->na;
    int64_t base = min;
    if (d > TP_ALIGN) {
        d = (d + TP_ALIGN - 1) / TP_ALIGN * TP_ALIGN;
        base = min / TP_ALIGN * TP_ALIGN;
    }
    t->dom[0] = min;
    for (int a = 1; a < t->na; a++) {
        int64_t b = base + a * d;
        t->dom[a] = b < min ? min : b > max ? max : b;
    }
    t->dom[t->na] = max;
}

static int tp__seg_cmp(const void *x, const void *y)
{
    const coll_io_seg_t *a = x, *b = y;
    return a->off < b->off ? -1 : a->off > b->off;
}

/* whether each rank does its own I/O: never for TP_ALWAYS; when no two ranks' ranges
   overlap (ROMIO's "interleaved"); for TP_IF_SHORT also when the runs are long
   (TP_SHORT_RUN bytes on average over all ranks), where the file system takes each
   rank's requests about as well as an aggregator's and the exchange would only copy */
int tp__own_io(const tp_t *t, int when, int64_t bytes, int64_t nsegs)
{
    if (when == TP_ALWAYS) {
        return 0;
    }
    return (when == TP_IF_SHORT && bytes >= nsegs * TP_SHORT_RUN) || !tp__interleaved(t);
}

/* whether the ranks' ranges overlap (ROMIO's "interleaved") */
int tp__interleaved(const tp_t *t)
{
    coll_io_seg_t *r = t->sorted;
    int n = 0, inter = 0;
    for (int q = 0; q < t->p; q++) {
        if (t->range[2 * q] < t->range[2 * q + 1]) {
            r[n++] = (coll_io_seg_t){t->range[2 * q], t->range[2 * q + 1]};
        }
    }
    qsort(r, (size_t)n, sizeof(*r), tp__seg_cmp);
    for (int i = 1; i < n && !inter; i++) {
        inter = r[i].off < r[i - 1].len; /* here len holds the range's end */
        if (r[i].len < r[i - 1].len) {
            r[i].len = r[i - 1].len;
        }
    }
    return inter;
}

int tp__buffers(tp_t *t)
{
    int64_t total = 0;
    for (int f = 0; t->from != NULL && f < t->nfrom; f++) {
        total += t->from[f].n;
    }
    int64_t dlen = t->dom[t->my + 1] - t->dom[t->my];
    t->cbuf_len = dlen < t->cb ? dlen : t->cb;
    t->cbuf = malloc((size_t)t->cbuf_len + 1);
    t->stage = malloc((size_t)t->cbuf_len + 1);
    t->cov = malloc((size_t)(total + 1) * sizeof(*t->cov));
    coll_io_seg_t *segs = malloc((size_t)(total + 1) * sizeof(*segs));
    int64_t *packed = malloc((size_t)(total + t->nfrom + 1) * sizeof(*packed));
    if (t->cbuf == NULL || t->stage == NULL || t->cov == NULL || segs == NULL || packed == NULL ||
        t->from == NULL) {
        free(segs);
        free(packed);
        return ENOMEM;
    }
    for (int f = 0; f < t->nfrom; f++) {
        t->from[f].segs = segs;
        t->from[f].packed = packed;
        segs += t->from[f].n;
        packed += t->from[f].n + 1;
    }
    return 0;
}

int64_t tp__count(const tp_t *t, int a)
{
    int64_t start;
    size_t first, end;
    coll_file_span(t->io->segs, t->io->nsegs, t->packed, t->dom[a], t->dom[a + 1], &start, &first,
                   &end);
    return (int64_t)(end - first);
}

coll_io_seg_t *tp__clip(const tp_t *t, int a, coll_io_seg_t *out)
{
    const coll_io_t *io = t->io;
    int64_t start;
    size_t first, end;
    coll_file_span(io->segs, io->nsegs, t->packed, t->dom[a], t->dom[a + 1], &start, &first, &end);
    for (size_t i = first; i < end; i++) {
        int64_t lo = io->segs[i].off, hi = lo + io->segs[i].len;
        lo = lo < t->dom[a] ? t->dom[a] : lo;
        hi = hi > t->dom[a + 1] ? t->dom[a + 1] : hi;
        *out++ = (coll_io_seg_t){lo, hi - lo};
    }
    return out;
}

/* step 3, the counts: every rank tells each aggregator whose domain its range meets how
   many of its segments fall there (eager, 8 bytes); the aggregator then takes the memory
   for their lists and its buffers.  Returns an errno (0), which the caller agrees on
   before any list moves. */
static int tp__counts(tp_t *t, int64_t *count, size_t *nreq_p)
{
    compi_comm_t *comm = t->call->comm;
    int tag = coll_tag(t->call->kind), err = 0;
    size_t nreq = 0;

    for (int a = 0; a < t->na; a++) {
        count[a] = 0;
        if (!tp__meets(t, t->me, a)) {
            continue;
        }
        count[a] = tp__count(t, a);
        if (pml_isend(&count[a], sizeof(int64_t), tp__byte(), t->agg[a], tag, comm,
                      PML_SEND_STANDARD, &t->reqs[nreq++]) != COMPI_OK) {
            err = EIO;
        }
    }
    if (t->my >= 0) {
        for (int q = 0; q < t->p; q++) {
            t->nfrom += tp__meets(t, q, t->my);
        }
        t->from = calloc((size_t)t->nfrom + 1, sizeof(*t->from));
        if (t->from == NULL) {
            err = ENOMEM; /* the counts still have to be taken: into `count`'s spare room */
        }
        size_t n0 = nreq;
        for (int q = 0, f = 0; q < t->p; q++) {
            if (!tp__meets(t, q, t->my)) {
                continue;
            }
            int64_t *into = t->from != NULL ? &t->from[f].n : &count[t->na];
            if (t->from != NULL) {
                t->from[f].rank = q;
                t->me_from |= q == t->me;
            }
            f++;
            if (pml_irecv(into, sizeof(int64_t), tp__byte(), q, tag, comm, &t->reqs[nreq++]) !=
                COMPI_OK) {
                err = EIO;
            }
            if (t->from == NULL && pml_wait_all_free(nreq - n0, t->reqs + n0) != COMPI_OK) {
                err = EIO;
            }
            nreq = t->from == NULL ? n0 : nreq;
        }
        if (pml_wait_all_free(nreq - n0, t->reqs + n0) != COMPI_OK) {
            err = EIO;
        }
        nreq = n0;
        int e = tp__buffers(t);
        err = err ? err : e;
    }
    *nreq_p = nreq;
    return err;
}

/* step 3, the lists (after the counts' agreement): each sender's segments in the
   domain, clipped to it; out: room for the clipped copies (io->nsegs + na) */
static int tp__lists(tp_t *t, const int64_t *count, coll_io_seg_t *out, size_t nreq)
{
    compi_comm_t *comm = t->call->comm;
    int tag = coll_tag(t->call->kind), err = 0;

    for (int a = 0; a < t->na; a++) {
        if (count[a] == 0) {
            continue;
        }
        coll_io_seg_t *o = out;
        out = tp__clip(t, a, out);
        if (pml_isend(o, (size_t)count[a] * sizeof(*o), tp__byte(), t->agg[a], tag, comm,
                      PML_SEND_STANDARD, &t->reqs[nreq++]) != COMPI_OK) {
            err = EIO;
        }
    }
    for (int f = 0; t->my >= 0 && f < t->nfrom; f++) {
        tp_from_t *fr = &t->from[f];
        if (fr->n > 0 && pml_irecv(fr->segs, (size_t)fr->n * sizeof(coll_io_seg_t), tp__byte(),
                                   fr->rank, tag, comm, &t->reqs[nreq++]) != COMPI_OK) {
            err = EIO;
        }
    }
    if (pml_wait_all_free(nreq, t->reqs) != COMPI_OK) {
        err = err ? err : EIO;
    }
    for (int f = 0; t->my >= 0 && f < t->nfrom; f++) {
        coll_file_packed(t->from[f].segs, (size_t)t->from[f].n, t->from[f].packed);
    }
    return err;
}

/* the extent [*lo_p, *hi_p) of what the senders have in window [wlo, whi); returns
   whether it has holes (bytes nobody writes) */
int tp__extent(tp_t *t, int64_t wlo, int64_t whi, int64_t *lo_p, int64_t *hi_p)
{
    size_t n = 0;
    for (int f = 0; f < t->nfrom; f++) {
        tp_from_t *fr = &t->from[f];
        int64_t start;
        size_t first, end;
        coll_file_span(fr->segs, (size_t)fr->n, fr->packed, wlo, whi, &start, &first, &end);
        for (size_t i = first; i < end; i++) {
            int64_t lo = fr->segs[i].off, hi = lo + fr->segs[i].len;
            t->cov[n++] = (coll_io_seg_t){lo < wlo ? wlo : lo, hi > whi ? whi : hi};
        }
    }
    *lo_p = *hi_p = wlo;
    if (n == 0) {
        return 0;
    }
    qsort(t->cov, n, sizeof(*t->cov), tp__seg_cmp);
    int holes = 0;
    int64_t reach = t->cov[0].len; /* len holds the piece's end here */
    for (size_t i = 1; i < n; i++) {
        holes |= t->cov[i].off > reach;
        reach = t->cov[i].len > reach ? t->cov[i].len : reach;
    }
    *lo_p = t->cov[0].off;
    *hi_p = reach;
    return holes;
}

/* copy sender fr's pieces in [wlo, whi) between the window buffer and its packed run
   (to_window: from the run into the window) */
void tp__place(tp_t *t, const tp_from_t *fr, int64_t wlo, int64_t whi, char *run, int to_window)
{
    int64_t start;
    size_t first, end;
    coll_file_span(fr->segs, (size_t)fr->n, fr->packed, wlo, whi, &start, &first, &end);
    for (size_t i = first; i < end; i++) {
        int64_t lo = fr->segs[i].off, hi = lo + fr->segs[i].len;
        lo = lo < wlo ? wlo : lo;
        hi = hi > whi ? whi : hi;
        char *w = t->cbuf + (lo - wlo);
        if (to_window) {
            memcpy(w, run, (size_t)(hi - lo));
        } else {
            memcpy(run, w, (size_t)(hi - lo));
        }
        run += hi - lo;
    }
}

/* the aggregator's part of one round: window [wlo, whi) of its domain.  The senders'
   runs go through the staging buffer in batches that fit it (one sender's run always
   does: its segments do not overlap), in rank order, so that where ranks' writes
   overlap the highest rank's bytes win. */
static int tp__aggregate(tp_t *t, int64_t wlo, int64_t whi, compi_request_t **reqs)
{
    coll_io_t *io = t->io;
    compi_comm_t *comm = t->call->comm;
    int tag = coll_tag(t->call->kind), err = 0, locked = 0;
    int64_t lo, hi;
    int holes = tp__extent(t, wlo, whi, &lo, &hi);

    if (hi <= lo) {
        return 0;
    }
    if (t->write ? holes || io->atomic : io->atomic) {
        err = coll_file_lock(io->fd, t->write ? F_WRLCK : F_RDLCK, lo, hi - lo);
        locked = err == 0;
    }
    if (err == 0 && (!t->write || holes)) {
        int64_t got = 0;
        err = coll_file_pread(io->fd, t->cbuf + (lo - wlo), hi - lo, lo, &got);
        if (got < hi - lo) {
            memset(t->cbuf + (lo - wlo) + got, 0, (size_t)(hi - lo - got)); /* past the end */
        }
    }
    if (!t->write && locked) {
        coll_file_unlock(io->fd, lo, hi - lo);
        locked = 0;
    }
    /* the data moves whatever err says: the senders are already in the round.  This
       rank's own bytes move between the window and its packed buffer directly (mine). */
    int64_t mine_at, mine_len = 0;
    if (t->me_from) {
        size_t first, end;
        mine_len = coll_file_span(io->segs, io->nsegs, t->packed, wlo, whi, &mine_at, &first, &end);
    }
    for (int f0 = 0; f0 < t->nfrom;) {
        int64_t used = 0;
        size_t n = 0;
        int f = f0;
        for (; f < t->nfrom; f++) {
            int64_t start;
            size_t first, end;
            tp_from_t *fr = &t->from[f];
            int64_t len =
                coll_file_span(fr->segs, (size_t)fr->n, fr->packed, wlo, whi, &start, &first, &end);
            if (fr->rank == t->me) {
                if (!t->write && mine_len > 0) {
                    tp__place(t, fr, wlo, whi, (char *)io->buf + mine_at, 0);
                }
                continue;
            }
            if (used + len > t->cbuf_len && used > 0) {
                break;
            }
            if (len > 0) {
                char *run = t->stage + used;
                compi_status_t st;
                if (t->write) {
                    st = pml_irecv(run, (size_t)len, tp__byte(), fr->rank, tag, comm, &reqs[n++]);
                } else {
                    tp__place(t, fr, wlo, whi, run, 0);
                    st = pml_isend(run, (size_t)len, tp__byte(), fr->rank, tag, comm,
                                   PML_SEND_STANDARD, &reqs[n++]);
                }
                err = st != COMPI_OK && err == 0 ? EIO : err;
                used += len;
            }
        }
        if (pml_wait_all_free(n, reqs) != COMPI_OK && err == 0) {
            err = EIO;
        }
        if (t->write) {
            int64_t u = 0;
            for (int g = f0; g < f; g++) {
                int64_t start;
                size_t first, end;
                tp_from_t *fr = &t->from[g];
                if (fr->rank == t->me) {
                    if (mine_len > 0) {
                        tp__place(t, fr, wlo, whi, (char *)io->buf + mine_at, 1);
                    }
                    continue;
                }
                int64_t len = coll_file_span(fr->segs, (size_t)fr->n, fr->packed, wlo, whi, &start,
                                             &first, &end);
                tp__place(t, fr, wlo, whi, t->stage + u, 1);
                u += len;
            }
        }
        f0 = f;
    }
    if (t->write && err == 0) {
        err = coll_file_pwrite(io->fd, t->cbuf + (lo - wlo), hi - lo, lo, NULL);
    }
    if (locked) {
        coll_file_unlock(io->fd, lo, hi - lo);
    }
    return err;
}

/* step 4: the rounds */
static int tp__rounds(tp_t *t)
{
    coll_io_t *io = t->io;
    compi_comm_t *comm = t->call->comm;
    int tag = coll_tag(t->call->kind), err = 0;
    int64_t rounds = 0;

    for (int a = 0; a < t->na; a++) {
        int64_t r = (t->dom[a + 1] - t->dom[a] + t->cb - 1) / t->cb;
        rounds = r > rounds ? r : rounds;
    }
    for (int64_t r = 0; r < rounds; r++) {
        size_t n = 0;
        int64_t wlo, whi;
        /* my runs to (from) each aggregator, posted first: the aggregators wait for them
           (my own aggregator index, if any, takes them from my buffer itself) */
        for (int a = 0; a < t->na; a++) {
            if (a == t->my || !tp__meets(t, t->me, a) || !tp__window(t, a, r, &wlo, &whi)) {
                continue;
            }
            int64_t start;
            size_t first, end;
            int64_t len =
                coll_file_span(io->segs, io->nsegs, t->packed, wlo, whi, &start, &first, &end);
            if (len == 0) {
                continue;
            }
            char *run = (char *)io->buf + start;
            compi_status_t st = t->write ? pml_isend(run, (size_t)len, tp__byte(), t->agg[a], tag,
                                                     comm, PML_SEND_STANDARD, &t->reqs[n++])
                                         : pml_irecv(run, (size_t)len, tp__byte(), t->agg[a], tag,
                                                     comm, &t->reqs[n++]);
            err = st != COMPI_OK && err == 0 ? EIO : err;
        }
        if (t->my >= 0 && tp__window(t, t->my, r, &wlo, &whi)) {
            int e = tp__aggregate(t, wlo, whi, t->reqs + n);
            err = err ? err : e;
        }
        if (pml_wait_all_free(n, t->reqs) != COMPI_OK && err == 0) {
            err = EIO;
        }
    }
    return err;
}

void tp__free(tp_t *t)
{
    if (t->from != NULL && t->nfrom > 0) {
        free(t->from[0].segs);
        free(t->from[0].packed);
    }
    free(t->from);
    free(t->cbuf);
    free(t->stage);
    free(t->cov);
    free(t->reqs);
    free(t->range);
    free(t->dom);
    free(t->packed);
    free(t->sorted);
}

/* the bytes of this rank's segments below the end of the file (a read's count) */
int64_t tp__below_end(const coll_io_t *io)
{
    struct stat sb;
    int64_t n = 0;
    if (fstat(io->fd, &sb) != 0) {
        return 0;
    }
    for (size_t i = 0; i < io->nsegs; i++) {
        int64_t lo = io->segs[i].off, hi = lo + io->segs[i].len;
        hi = hi > (int64_t)sb.st_size ? (int64_t)sb.st_size : hi;
        n += hi > lo ? hi - lo : 0;
    }
    return n;
}

static compi_status_t tp__run(const coll_call_t *call, const coll_params_t *prm, int when)
{
    static const int agg0 = 0;
    coll_io_t *io = call->io;
    tp_t t = {.call = call,
              .io = io,
              .write = call->kind == COLL_FILE_WRITE,
              .p = call->comm->size,
              .me = call->comm->rank,
              .my = -1,
              .agg = prm->nranks > 0 ? prm->ranks : &agg0,
              .na = prm->nranks > 0 ? prm->nranks : 1,
              .cb = prm->segsize > 0 ? prm->segsize : COLL_FILE_CB_DEFAULT};
    int err = 0;

    if (io->describe) {
        io->aggregators = t.na;
        io->cb_bytes = t.cb;
        io->automatic = when != TP_ALWAYS;
        return COMPI_OK;
    }
    for (int a = 0; a < t.na; a++) {
        t.my = t.agg[a] == t.me ? a : t.my;
    }
    /* step 1: the ranges, with each rank's failure to get its bookkeeping (then every
       rank fails the call, knowing it from the same allgather) */
    enum { W = 9 }; /* ints per rank: first, last, bytes, segments (int64_t), errno */
    int *all = malloc((size_t)t.p * W * sizeof(int));
    t.range = malloc((size_t)t.p * 2 * sizeof(int64_t));
    t.dom = malloc((size_t)(t.na + 1) * sizeof(int64_t));
    t.packed = malloc((io->nsegs + 1) * sizeof(int64_t));
    t.reqs = calloc((size_t)(t.na + t.p) * 2 + 2, sizeof(*t.reqs));
    t.sorted = malloc((size_t)t.p * sizeof(*t.sorted));
    size_t nout = io->nsegs + (size_t)t.na;
    coll_io_seg_t *out = malloc(nout * sizeof(*out) + (size_t)(t.na + 1) * sizeof(int64_t));
    if (all == NULL) {
        free(out);
        tp__free(&t);
        return COMPI_ERR_NO_MEMORY; /* cannot even take part: the others wait */
    }
    int64_t mine[4] = {0, 0, 0, (int64_t)io->nsegs};
    if (io->nsegs > 0) {
        mine[0] = io->segs[0].off;
        mine[1] = io->segs[io->nsegs - 1].off + io->segs[io->nsegs - 1].len;
    }
    for (size_t i = 0; i < io->nsegs; i++) {
        mine[2] += io->segs[i].len;
    }
    int send[W];
    memcpy(send, mine, sizeof(mine));
    send[W - 1] = t.range == NULL || t.dom == NULL || t.packed == NULL || t.reqs == NULL ||
                          t.sorted == NULL || out == NULL
                      ? ENOMEM
                      : 0;
    comm_coll_set_t set = comm_coll_whole(call->comm);
    set.tag = coll_tag_alt(call->kind);
    if (comm_coll_allgather_int(&set, send, W, all) != COMPI_OK) {
        err = EIO;
    }
    for (int q = 0; q < t.p && err == 0; q++) {
        err = all[W * q + W - 1];
    }
    int64_t min = INT64_MAX, max = 0, bytes = 0, nsegs = 0;
    for (int q = 0; q < t.p && err == 0; q++) {
        int64_t bn[2];
        memcpy(&t.range[2 * q], &all[W * q], 2 * sizeof(int64_t));
        memcpy(bn, &all[W * q + 4], sizeof(bn));
        bytes += bn[0];
        nsegs += bn[1];
        if (t.range[2 * q] < t.range[2 * q + 1]) {
            min = t.range[2 * q] < min ? t.range[2 * q] : min;
            max = t.range[2 * q + 1] > max ? t.range[2 * q + 1] : max;
        }
    }
    free(all);
    if (err != 0 || max <= min) {
        /* a failure every rank saw, or nothing to move */
        io->err = err;
        io->moved = 0;
        free(out);
        tp__free(&t);
        return COMPI_OK;
    }
    if (tp__own_io(&t, when, bytes, nsegs)) {
        free(out);
        tp__free(&t);
        return coll_file_direct(call);
    }
    tp__domains(&t, min, max);
    coll_file_packed(io->segs, io->nsegs, t.packed);

    /* step 3: counts, then the agreement on memory, then lists; step 4; step 5 */
    int64_t *count = (int64_t *)(out + nout);
    size_t nreq = 0;
    err = tp__counts(&t, count, &nreq);
    err = coll_file_agree(call, err);
    if (err == 0) {
        err = tp__lists(&t, count, out, nreq);
        if (err == 0) {
            err = tp__rounds(&t);
        }
    } else if (pml_wait_all_free(nreq, t.reqs) != COMPI_OK) {
        err = EIO;
    }
    io->err = coll_file_agree(call, err);
    io->moved = io->err != 0 ? 0 : t.write ? t.packed[io->nsegs] : tp__below_end(io);
    free(out);
    tp__free(&t);
    return COMPI_OK;
}

static void coll_file_two_phase_sched(const coll_call_t *call, const coll_params_t *prm,
                                      struct coll_sched *s)
{
    tp__sched(call, prm, s, TP_ALWAYS);
}

static void coll_file_two_phase_if_interleaved_sched(const coll_call_t *call,
                                                     const coll_params_t *prm, struct coll_sched *s)
{
    tp__sched(call, prm, s, TP_IF_INTERLEAVED);
}

static void coll_file_two_phase_if_short_sched(const coll_call_t *call, const coll_params_t *prm,
                                               struct coll_sched *s)
{
    tp__sched(call, prm, s, TP_IF_SHORT);
}

static compi_status_t coll_file_two_phase(coll_closure_t *self, const coll_call_t *call)
{
    return tp__run(call, self->state, TP_ALWAYS);
}

static compi_status_t coll_file_two_phase_if_interleaved(coll_closure_t *self,
                                                         const coll_call_t *call)
{
    return tp__run(call, self->state, TP_IF_INTERLEAVED);
}

static compi_status_t coll_file_two_phase_if_short(coll_closure_t *self, const coll_call_t *call)
{
    return tp__run(call, self->state, TP_IF_SHORT);
}

const coll_algo_t coll_algo_file_write_two_phase = {
    .name = "two-phase",
    .kind = COLL_FILE_WRITE,
    .fn = coll_file_two_phase,
    .sched = coll_file_two_phase_sched,
    .params = COLL_PARAM_SEGSIZE | COLL_PARAM_RANKS,
    .help = "aggregators (ranks) write even domains of the file in rounds of segsize bytes",
};

const coll_algo_t coll_algo_file_write_two_phase_if_interleaved = {
    .name = "two-phase-if-interleaved",
    .kind = COLL_FILE_WRITE,
    .fn = coll_file_two_phase_if_interleaved,
    .sched = coll_file_two_phase_if_interleaved_sched,
    .params = COLL_PARAM_SEGSIZE | COLL_PARAM_RANKS,
    .help = "two-phase when the ranks' ranges interleave, else each rank its own",
};

const coll_algo_t coll_algo_file_write_two_phase_if_short = {
    .name = "two-phase-if-short",
    .kind = COLL_FILE_WRITE,
    .fn = coll_file_two_phase_if_short,
    .sched = coll_file_two_phase_if_short_sched,
    .params = COLL_PARAM_SEGSIZE | COLL_PARAM_RANKS,
    .help = "two-phase when the ranks' ranges interleave in runs under 16 KiB on average, "
            "else each rank its own",
};

const coll_algo_t coll_algo_file_read_two_phase = {
    .name = "two-phase",
    .kind = COLL_FILE_READ,
    .fn = coll_file_two_phase,
    .sched = coll_file_two_phase_sched,
    .params = COLL_PARAM_SEGSIZE | COLL_PARAM_RANKS,
    .help = "aggregators (ranks) read even domains of the file in rounds of segsize bytes",
};

const coll_algo_t coll_algo_file_read_two_phase_if_interleaved = {
    .name = "two-phase-if-interleaved",
    .kind = COLL_FILE_READ,
    .fn = coll_file_two_phase_if_interleaved,
    .sched = coll_file_two_phase_if_interleaved_sched,
    .params = COLL_PARAM_SEGSIZE | COLL_PARAM_RANKS,
    .help = "two-phase when the ranks' ranges interleave, else each rank its own",
};

const coll_algo_t coll_algo_file_read_two_phase_if_short = {
    .name = "two-phase-if-short",
    .kind = COLL_FILE_READ,
    .fn = coll_file_two_phase_if_short,
    .sched = coll_file_two_phase_if_short_sched,
    .params = COLL_PARAM_SEGSIZE | COLL_PARAM_RANKS,
    .help = "two-phase when the ranks' ranges interleave in runs under 16 KiB on average, "
            "else each rank its own",
};
