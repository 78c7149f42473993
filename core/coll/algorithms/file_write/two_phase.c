/*
 * file_write/two_phase.c -- collective file access by two-phase I/O (file-write and
 * file-read: MPI_File_write_all, read_all, iwrite_all, the _at_all and split forms;
 * ROMIO's collective buffering, after Thakur, Gropp and Lusk, "Data sieving and
 * collective I/O in ROMIO", 1999).  A few ranks, the aggregators (params->ranks, chosen
 * by the creator: one per host by default), each own one contiguous domain of the file;
 * every rank sends each aggregator the bytes of its segments that fall in that
 * aggregator's domain, and the aggregator writes its domain in large contiguous pieces
 * (a read runs the other way).
 *
 *   ranks' segments      0 1 2 3 0 1 2 3 0 1 2 3 ...   (interleaved records)
 *   [min, max) of all  |<---- domain of A0 ---->|<---- domain of A1 ---->|
 *   round r of A0:     [lo + r cb, lo + (r + 1) cb): every rank sends A0 its bytes
 *                      there (one run of its packed buffer; A0's own are copied, not
 *                      sent), A0 writes the window with one pwrite (one pread first
 *                      where it has holes)
 *
 * The algorithm is its schedule, and nothing else: a blocking access runs it to its end
 * (native_run, core/coll/closure.c), a nonblocking one in the progress engine.  What a
 * phase sends depends on what the phase before brought (the ranges decide the domains,
 * the counts the size of the lists, the lists the runs of each window), so each phase
 * ends with a check step that adds the next phase's rounds to the running schedule (not
 * kept for a repeat: a file access never is, sched.h):
 *
 *   ranges -> rank 0 | its table -> all | counts -> aggregators | agree (memory)
 *   | lists -> aggregators | agree (memory) | window 0 | window 1 | ... | agree (errno)
 *
 *   1. the ranges: each rank's [first, last), bytes, segment count and whether it got its
 *      bookkeeping, to rank 0 and its table back to all;
 *   2. the domains: [min first, max last) split evenly among the na aggregators, the
 *      inner boundaries on multiples of 4 KiB (a file-system block) when a domain is
 *      larger than that; domain i belongs to params->ranks[i].  When the ranks' ranges
 *      do not interleave (-if-interleaved, -if-short) or their runs are long (-if-short),
 *      each rank does its own I/O here instead, and the ranks agree on the errno;
 *   3. every rank whose range meets a domain sends its aggregator how many of its
 *      segments fall there, then (memory agreed on) their offsets and lengths, clipped
 *      to the domain;
 *   4. rounds of at most cb = params->segsize bytes (cb_buffer_size, 16 MiB when 0) of
 *      each domain.  A write's window is one round: every rank's runs to the
 *      aggregators, then at each aggregator a check that places them in its collective
 *      buffer, in rank order (where ranks' writes overlap the highest rank's bytes win),
 *      and writes the window.  A window whose present bytes leave holes is read first and
 *      written back whole (read-modify-write) under an fcntl write lock of that range,
 *      so that bytes nobody writes keep their content even if another process writes
 *      them meanwhile; in atomic mode every window is written under the lock.  A read's
 *      window is two rounds: the aggregator's pread of the window's extent (holes
 *      included; an fcntl read lock in atomic mode) and placing, then its runs to every
 *      rank;
 *   5. the ranks agree on the error (the largest errno), so every rank returns the same;
 *      the data moves to its end after an I/O error, so no rank is left waiting.
 *
 * compi_io_coll_in_effect (MPI_File_get_info) runs the closure with io->describe: the
 * builder then adds no step and says what the access would do (aggregators, buffer,
 * whether it is automatic), from the closure's parameters alone.
 *
 * Two choices, and why:
 *   - the ranges go to rank 0 and its table back, and an agreement is the errnos to rank
 *     0 and the largest back, rather than an allgather and an allreduce over binomial
 *     trees (comm_coll_allgather_int, _allreduce_max_u32): two latencies instead of
 *     2 log2 p, at the price of p - 1 small messages at rank 0 in one round and the table
 *     (40 bytes a rank) sent p - 1 times by rank 0 where a tree sends it once down each
 *     edge.  At the ranks of one file's communicator on a host or a handful of hosts that
 *     is as fast or faster; at hundreds of ranks rank 0's copies of the table would be
 *     what to change;
 *   - where the senders' runs of one window exceed the collective buffer (ranks whose
 *     writes overlap), the staging buffer grows to the largest window's runs (computed
 *     once the lists are in, and agreed on with the lists' memory) rather than taking the
 *     runs in batches: a window stays one round, and an access whose ranks' segments do
 *     not overlap (the usual one) takes cb bytes of staging as with batches.
 *
 * Cost (p ranks, na aggregators, n bytes in all, domains of d = n / na): the rounds move
 * each byte once over the network (alpha per run of a rank in a window, beta n / na per
 * aggregator, which also does d / cb large pwrites instead of the ranks' many small
 * ones), plus the latencies of the ranges, counts, lists and three agreements and, where
 * windows have holes, a pread of them.  Worth it when ranks' segments interleave finely
 * (strided records): the file sees few large requests instead of p ranks' small ones.
 * When each rank's range is its own contiguous block, the direct path (direct.c) does the
 * same I/O without the exchange: "two-phase-if-interleaved" chooses at run time (ROMIO's
 * romio_cb_write=automatic), on the exchanged ranges, so every rank chooses alike.
 * "two-phase-if-short" (the defaults' write on one host) also goes direct when the runs
 * are long (TP_SHORT_RUN bytes on average over all ranks): there the file system takes
 * each rank's requests about as well as an aggregator's, and the exchange only copies.
 *
 * Memory: per call, at an aggregator 2 cb (collective buffer, staging; more staging where
 * writes overlap) and the lists of the segments in its domain; at every rank the prefix
 * sums of its own segments.  Out of memory is agreed on before any data moves, and fails
 * the call on every rank.
 *
 * Ownership: the access's record (tp_run_t) belongs to the schedule (coll_sched_hold),
 * which frees it, and calls io->release for a nonblocking access, when it is freed; segs
 * and buf of the io are the caller's until then.
 */
#include "core/coll/phases/file_io.h"

#include "core/coll/sched/sched.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TP_ALIGN 4096

/* at an aggregator, what one sender has in its domain */
typedef struct tp_from {
    int rank;
    int64_t n;           /* its segments there */
    coll_io_seg_t *segs; /* clipped to the domain */
    int64_t *packed;     /* [n + 1]: prefix sums of their lengths */
} tp_from_t;

typedef struct tp {
    coll_io_t *io;
    int write, p, me, na, my; /* my: my aggregator index, or -1 */
    const int *agg;
    int64_t cb;
    int64_t *range;        /* [2 p]: first, last of each rank (first == last: nothing) */
    int64_t *dom;          /* [na + 1] */
    int64_t *packed;       /* [nsegs + 1] */
    coll_io_seg_t *sorted; /* [p]: the ranges, sorted to see whether they interleave */
    /* an aggregator's */
    int nfrom;
    tp_from_t *from;
    char *cbuf, *stage;
    int64_t cbuf_len;
    coll_io_seg_t *cov; /* the pieces of one window, to find its extent and holes */
} tp_t;

/* when two-phase runs: always, when the ranks' ranges interleave (ROMIO's automatic),
   or when they interleave in short runs */
enum { TP_ALWAYS, TP_IF_INTERLEAVED, TP_IF_SHORT };
/* the mean run (bytes per segment, over all ranks) from which TP_IF_SHORT goes direct */
#define TP_SHORT_RUN ((int64_t)16 * 1024)

/* the window of domain a in round r; empty (0, [end, end)) past the domain's end */
static int tp__window(const tp_t *t, int a, int64_t r, int64_t *lo_p, int64_t *hi_p)
{
    int64_t lo = t->dom[a] + r * t->cb;
    if (lo >= t->dom[a + 1]) {
        *lo_p = *hi_p = t->dom[a + 1];
        return 0;
    }
    *lo_p = lo;
    *hi_p = lo + t->cb < t->dom[a + 1] ? lo + t->cb : t->dom[a + 1];
    return 1;
}

static int tp__meets(const tp_t *t, int q, int a)
{
    int64_t first = t->range[2 * q], last = t->range[2 * q + 1];
    return first < last && first < t->dom[a + 1] && last > t->dom[a];
}

/* step 2: even domains over [min, max), inner boundaries aligned */
static void tp__domains(tp_t *t, int64_t min, int64_t max)
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

/* whether the ranks' ranges overlap (ROMIO's "interleaved") */
static int tp__interleaved(const tp_t *t)
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

/* whether each rank does its own I/O: never for TP_ALWAYS; when no two ranks' ranges
   overlap (ROMIO's "interleaved"); for TP_IF_SHORT also when the runs are long
   (TP_SHORT_RUN bytes on average over all ranks), where the file system takes each
   rank's requests about as well as an aggregator's and the exchange would only copy */
static int tp__own_io(const tp_t *t, int when, int64_t bytes, int64_t nsegs)
{
    if (when == TP_ALWAYS) {
        return 0;
    }
    return (when == TP_IF_SHORT && bytes >= nsegs * TP_SHORT_RUN) || !tp__interleaved(t);
}

static int tp__buffers(tp_t *t)
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

static int64_t tp__count(const tp_t *t, int a)
{
    int64_t start;
    size_t first, end;
    coll_file_span(t->io->segs, t->io->nsegs, t->packed, t->dom[a], t->dom[a + 1], &start, &first,
                   &end);
    return (int64_t)(end - first);
}

static coll_io_seg_t *tp__clip(const tp_t *t, int a, coll_io_seg_t *out)
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

/* the extent [*lo_p, *hi_p) of what the senders have in window [wlo, whi); returns
   whether it has holes (bytes nobody writes) */
static int tp__extent(tp_t *t, int64_t wlo, int64_t whi, int64_t *lo_p, int64_t *hi_p)
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
static void tp__place(tp_t *t, const tp_from_t *fr, int64_t wlo, int64_t whi, char *run,
                      int to_window)
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

static void tp__free(tp_t *t)
{
    if (t->from != NULL && t->nfrom > 0) {
        free(t->from[0].segs);
        free(t->from[0].packed);
    }
    free(t->from);
    free(t->cbuf);
    free(t->stage);
    free(t->cov);
    free(t->range);
    free(t->dom);
    free(t->packed);
    free(t->sorted);
}

/* the bytes of this rank's segments below the end of the file (a read's count) */
static int64_t tp__below_end(const coll_io_t *io)
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

/* ---- one access: the schedule's record --------------------------------------------- */

typedef struct tp_run tp_run_t;

/* a window's check step: its access and its round */
typedef struct tp_win {
    tp_run_t *run;
    int64_t r;
} tp_win_t;

struct tp_run {
    tp_t t;
    coll_sched_t *s;
    int when;           /* TP_ALWAYS, TP_IF_INTERLEAVED, TP_IF_SHORT */
    int *agg;           /* the closure's aggregators, copied */
    int64_t mine[5];    /* first, last, errno, bytes, segments */
    int64_t *all;       /* [5 p]: every rank's, gathered at rank 0, then sent to all */
    uint32_t err;       /* this rank's errno; after an agreement, the largest */
    uint32_t *errs;     /* [p]: rank 0's gather */
    int64_t *count;     /* [na]: my segments in each domain */
    int64_t spare;      /* counts that found no room */
    coll_io_seg_t *out; /* my segments clipped to each domain */
    tp_win_t *wins;     /* [rounds] */
    int64_t rounds, own_moved;
    void (*after)(tp_run_t *run); /* what follows the running agreement */
};

static compi_datatype_t *run__byte(void)
{
    return dt_from_handle(MPI_BYTE);
}

static void run__release(void *arg)
{
    tp_run_t *run = arg;
    coll_io_t *io = run->t.io;
    tp__free(&run->t);
    free(run->agg);
    free(run->all);
    free(run->errs);
    free(run->count);
    free(run->out);
    free(run->wins);
    free(run);
    if (io->release != NULL) {
        io->release(io);
    }
}

static void run__fail(tp_run_t *run, int err)
{
    if (run->err == 0 && err != 0) {
        run->err = (uint32_t)err;
    }
}

/* ---- the agreement: errnos to rank 0, the largest back; then run->after ------------- */

static compi_status_t run__max(void *arg, coll_sched_note_t *note)
{
    tp_run_t *run = arg;
    (void)note;
    for (int q = 1; q < run->t.p; q++) {
        run->err = run->errs[q] > run->err ? run->errs[q] : run->err;
    }
    return COMPI_OK;
}

static compi_status_t run__after(void *arg, coll_sched_note_t *note)
{
    tp_run_t *run = arg;
    (void)note;
    run->after(run);
    return COMPI_OK;
}

static void run__agree(tp_run_t *run, void (*after)(tp_run_t *run))
{
    coll_sched_t *s = run->s;
    run->after = after;
    for (int q = 1; q < run->t.p; q++) {
        if (run->t.me == 0) {
            coll_sched_recv(s, &run->errs[q], sizeof(uint32_t), run__byte(), q);
        }
    }
    if (run->t.me != 0) {
        coll_sched_send(s, &run->err, sizeof(uint32_t), run__byte(), 0);
    } else {
        coll_sched_check(s, run__max, run);
    }
    coll_sched_round(s);
    for (int q = 1; q < run->t.p && run->t.me == 0; q++) {
        coll_sched_send(s, &run->err, sizeof(uint32_t), run__byte(), q);
    }
    if (run->t.me != 0) {
        coll_sched_recv(s, &run->err, sizeof(uint32_t), run__byte(), 0);
    }
    coll_sched_check(s, run__after, run);
    coll_sched_round(s);
}

/* ---- the ends ------------------------------------------------------------------------ */

static void run__end(tp_run_t *run)
{
    coll_io_t *io = run->t.io;
    io->err = (int)run->err;
    io->moved = io->err != 0 ? 0 : run->t.write ? run->t.packed[io->nsegs] : tp__below_end(io);
}

static void run__end_direct(tp_run_t *run)
{
    run->t.io->err = (int)run->err;
    run->t.io->moved = run->own_moved;
}

/* ---- the windows ----------------------------------------------------------------------- */

/* this rank's packed bytes in [wlo, whi): where they start */
static int64_t run__mine(tp_run_t *run, int64_t wlo, int64_t whi, int64_t *at_p)
{
    size_t first, end;
    coll_io_t *io = run->t.io;
    return coll_file_span(io->segs, io->nsegs, run->t.packed, wlo, whi, at_p, &first, &end);
}

static int64_t run__theirs(const tp_from_t *fr, int64_t wlo, int64_t whi)
{
    int64_t start;
    size_t first, end;
    return coll_file_span(fr->segs, (size_t)fr->n, fr->packed, wlo, whi, &start, &first, &end);
}

/* every sender's pieces of window [wlo, whi) between the window buffer and, for this
   rank, its own buffer, for the others their runs in the staging buffer (in the order
   run__windows posts them) */
static void run__place(tp_run_t *run, int64_t wlo, int64_t whi, int to_window)
{
    tp_t *t = &run->t;
    int64_t at, u = 0;
    for (int f = 0; f < t->nfrom; f++) {
        const tp_from_t *fr = &t->from[f];
        if (fr->rank == t->me) {
            if (run__mine(run, wlo, whi, &at) > 0) {
                tp__place(t, fr, wlo, whi, (char *)t->io->buf + at, to_window);
            }
            continue;
        }
        tp__place(t, fr, wlo, whi, t->stage + u, to_window);
        u += run__theirs(fr, wlo, whi);
    }
}

/* a write window at its aggregator, the senders' runs in the staging buffer in rank
   order: placed (this rank's from its own buffer) and written */
static compi_status_t run__write_win(void *arg, coll_sched_note_t *note)
{
    tp_win_t *w = arg;
    tp_run_t *run = w->run;
    tp_t *t = &run->t;
    coll_io_t *io = t->io;
    int64_t wlo, whi, lo, hi;
    int err = 0, locked = 0;
    (void)note;
    tp__window(t, t->my, w->r, &wlo, &whi);
    int holes = tp__extent(t, wlo, whi, &lo, &hi);
    if (hi <= lo) {
        return COMPI_OK;
    }
    if (holes || io->atomic) {
        err = coll_file_lock(io->fd, F_WRLCK, lo, hi - lo);
        locked = err == 0;
    }
    if (err == 0 && holes) {
        int64_t got = 0;
        err = coll_file_pread(io->fd, t->cbuf + (lo - wlo), hi - lo, lo, &got);
        if (got < hi - lo) {
            memset(t->cbuf + (lo - wlo) + got, 0, (size_t)(hi - lo - got));
        }
    }
    run__place(run, wlo, whi, 1);
    if (err == 0) {
        err = coll_file_pwrite(io->fd, t->cbuf + (lo - wlo), hi - lo, lo, NULL);
    }
    if (locked) {
        coll_file_unlock(io->fd, lo, hi - lo);
    }
    run__fail(run, err);
    return COMPI_OK;
}

/* a read window at its aggregator: its extent read, this rank's bytes placed in its
   buffer, every other sender's in the staging buffer (sent in the next round) */
static compi_status_t run__read_win(void *arg, coll_sched_note_t *note)
{
    tp_win_t *w = arg;
    tp_run_t *run = w->run;
    tp_t *t = &run->t;
    coll_io_t *io = t->io;
    int64_t wlo, whi, lo, hi, got = 0;
    int err = 0, locked = 0;
    (void)note;
    tp__window(t, t->my, w->r, &wlo, &whi);
    tp__extent(t, wlo, whi, &lo, &hi);
    if (hi <= lo) {
        return COMPI_OK;
    }
    if (io->atomic) {
        err = coll_file_lock(io->fd, F_RDLCK, lo, hi - lo);
        locked = err == 0;
    }
    if (err == 0) {
        err = coll_file_pread(io->fd, t->cbuf + (lo - wlo), hi - lo, lo, &got);
    }
    if (got < hi - lo) {
        memset(t->cbuf + (lo - wlo) + got, 0, (size_t)(hi - lo - got)); /* past the end */
    }
    if (locked) {
        coll_file_unlock(io->fd, lo, hi - lo);
    }
    run__place(run, wlo, whi, 0);
    run__fail(run, err);
    return COMPI_OK;
}

/* every window's rounds, then the last agreement */
static void run__windows(tp_run_t *run)
{
    tp_t *t = &run->t;
    coll_io_t *io = t->io;
    coll_sched_t *s = run->s;
    if (run->err != 0) {
        run__end(run);
        return;
    }
    for (int64_t r = 0; r < run->rounds; r++) {
        int64_t wlo, whi, at, len, u = 0;
        int agg = t->my >= 0 && tp__window(t, t->my, r, &wlo, &whi);
        run->wins[r] = (tp_win_t){.run = run, .r = r};
        if (!t->write && agg) {
            coll_sched_check(s, run__read_win, &run->wins[r]);
            coll_sched_round(s);
        }
        /* my runs to (from) the other aggregators */
        for (int a = 0; a < t->na; a++) {
            if (a == t->my || !tp__meets(t, t->me, a) || !tp__window(t, a, r, &wlo, &whi) ||
                (len = run__mine(run, wlo, whi, &at)) == 0) {
                continue;
            }
            if (t->write) {
                coll_sched_send(s, (char *)io->buf + at, (size_t)len, run__byte(), t->agg[a]);
            } else {
                coll_sched_recv(s, (char *)io->buf + at, (size_t)len, run__byte(), t->agg[a]);
            }
        }
        /* as an aggregator, the other senders' runs through the staging buffer */
        for (int f = 0; agg && f < t->nfrom; f++) {
            const tp_from_t *fr = &t->from[f];
            tp__window(t, t->my, r, &wlo, &whi);
            if (fr->rank == t->me || (len = run__theirs(fr, wlo, whi)) == 0) {
                continue;
            }
            if (t->write) {
                coll_sched_recv(s, t->stage + u, (size_t)len, run__byte(), fr->rank);
            } else {
                coll_sched_send(s, t->stage + u, (size_t)len, run__byte(), fr->rank);
            }
            u += len;
        }
        if (t->write && agg) {
            coll_sched_check(s, run__write_win, &run->wins[r]);
        }
        coll_sched_round(s);
    }
    run__agree(run, run__end);
}

/* the aggregator's lists are in: their prefix sums, the staging buffer as large as one
   window's runs need, the windows' records; the memory agreed on */
static compi_status_t run__lists_done(void *arg, coll_sched_note_t *note)
{
    tp_run_t *run = arg;
    tp_t *t = &run->t;
    (void)note;
    for (int a = 0; a < t->na; a++) {
        int64_t r = (t->dom[a + 1] - t->dom[a] + t->cb - 1) / t->cb;
        run->rounds = r > run->rounds ? r : run->rounds;
    }
    run->wins = malloc((size_t)(run->rounds + 1) * sizeof(*run->wins));
    run__fail(run, run->wins == NULL ? ENOMEM : 0);
    int64_t need = 0, wlo, whi;
    for (int f = 0; t->my >= 0 && f < t->nfrom; f++) {
        coll_file_packed(t->from[f].segs, (size_t)t->from[f].n, t->from[f].packed);
    }
    for (int64_t r = 0; t->my >= 0 && tp__window(t, t->my, r, &wlo, &whi); r++) {
        int64_t sum = 0;
        for (int f = 0; f < t->nfrom; f++) {
            sum += t->from[f].rank != t->me ? run__theirs(&t->from[f], wlo, whi) : 0;
        }
        need = sum > need ? sum : need;
    }
    if (t->my >= 0 && need > t->cbuf_len) {
        char *bigger = realloc(t->stage, (size_t)need + 1);
        run__fail(run, bigger == NULL ? ENOMEM : 0);
        t->stage = bigger != NULL ? bigger : t->stage;
    }
    run__agree(run, run__windows);
    return COMPI_OK;
}

/* the memory for the lists is agreed on: the lists, clipped to each domain */
static void run__lists(tp_run_t *run)
{
    tp_t *t = &run->t;
    coll_io_seg_t *out = run->out;
    if (run->err != 0) {
        run__end(run);
        return;
    }
    for (int a = 0; a < t->na; a++) {
        if (run->count[a] == 0) {
            continue;
        }
        coll_io_seg_t *o = out;
        out = tp__clip(t, a, out);
        coll_sched_send(run->s, o, (size_t)run->count[a] * sizeof(*o), run__byte(), t->agg[a]);
    }
    for (int f = 0; t->my >= 0 && f < t->nfrom; f++) {
        tp_from_t *fr = &t->from[f];
        if (fr->n > 0) {
            coll_sched_recv(run->s, fr->segs, (size_t)fr->n * sizeof(coll_io_seg_t), run__byte(),
                            fr->rank);
        }
    }
    coll_sched_check(run->s, run__lists_done, run);
    coll_sched_round(run->s);
}

/* the counts are in: the aggregator's buffers, agreed on */
static compi_status_t run__counts_done(void *arg, coll_sched_note_t *note)
{
    tp_run_t *run = arg;
    (void)note;
    if (run->t.my >= 0) {
        run__fail(run, tp__buffers(&run->t));
    }
    run__agree(run, run__lists);
    return COMPI_OK;
}

/* every rank's range is known: nothing to do, each rank its own, or the counts */
static compi_status_t run__ranges(void *arg, coll_sched_note_t *note)
{
    tp_run_t *run = arg;
    tp_t *t = &run->t;
    coll_io_t *io = t->io;
    int64_t min = INT64_MAX, max = 0, bytes = 0, nsegs = 0;
    (void)note;
    for (int q = 0; q < t->p; q++) {
        const int64_t *w = &run->all[5 * q];
        t->range[2 * q] = w[0];
        t->range[2 * q + 1] = w[1];
        run->err = w[2] > (int64_t)run->err ? (uint32_t)w[2] : run->err;
        bytes += w[3];
        nsegs += w[4];
        if (t->range[2 * q] < t->range[2 * q + 1]) {
            min = t->range[2 * q] < min ? t->range[2 * q] : min;
            max = t->range[2 * q + 1] > max ? t->range[2 * q + 1] : max;
        }
    }
    if (run->err != 0 || max <= min) {
        /* a failure every rank saw, or nothing to move */
        io->err = (int)run->err;
        io->moved = 0;
        return COMPI_OK;
    }
    if (tp__own_io(t, run->when, bytes, nsegs)) {
        run->err = (uint32_t)coll_file_own(io, t->write);
        run->own_moved = io->moved;
        run__agree(run, run__end_direct);
        return COMPI_OK;
    }
    tp__domains(t, min, max);
    coll_file_packed(io->segs, io->nsegs, t->packed);
    for (int a = 0; a < t->na; a++) {
        run->count[a] = 0;
        if (!tp__meets(t, t->me, a)) {
            continue;
        }
        run->count[a] = tp__count(t, a);
        coll_sched_send(run->s, &run->count[a], sizeof(int64_t), run__byte(), t->agg[a]);
    }
    if (t->my >= 0) {
        for (int q = 0; q < t->p; q++) {
            t->nfrom += tp__meets(t, q, t->my);
        }
        t->from = calloc((size_t)t->nfrom + 1, sizeof(*t->from));
        run__fail(run, t->from == NULL ? ENOMEM : 0);
        for (int q = 0, f = 0; q < t->p; q++) {
            if (!tp__meets(t, q, t->my)) {
                continue;
            }
            int64_t *into = &run->spare; /* no room: taken, then the agreement fails */
            if (t->from != NULL) {
                t->from[f] = (tp_from_t){.rank = q};
                into = &t->from[f].n;
            }
            f++;
            coll_sched_recv(run->s, into, sizeof(int64_t), run__byte(), q);
        }
    }
    coll_sched_check(run->s, run__counts_done, run);
    coll_sched_round(run->s);
    return COMPI_OK;
}

/* the access's first rounds (the ranges); or, for compi_io_coll_in_effect (io->describe),
   no step: what the access would do, from the closure's parameters alone */
static void tp__sched(const coll_call_t *call, const coll_params_t *prm, coll_sched_t *s, int when)
{
    static const int agg0 = 0;
    coll_io_t *io = call->io;
    int p = call->comm->size, na = prm->nranks > 0 ? prm->nranks : 1;
    if (io->describe) {
        io->aggregators = na;
        io->cb_bytes = prm->segsize > 0 ? prm->segsize : COLL_FILE_CB_DEFAULT;
        io->automatic = when != TP_ALWAYS;
        return;
    }
    tp_run_t *run = calloc(1, sizeof(*run));
    io->err = -1;
    if (run == NULL) {
        coll_sched_fail(s, COMPI_ERR_NO_MEMORY);
        if (io->release != NULL) {
            io->release(io);
        }
        return;
    }
    run->s = s;
    run->when = when;
    coll_sched_hold(s, run__release, run);
    run->agg = malloc((size_t)na * sizeof(int));
    if (run->agg != NULL) {
        memcpy(run->agg, prm->nranks > 0 ? prm->ranks : &agg0, (size_t)na * sizeof(int));
    }
    run->t = (tp_t){.io = io,
                    .write = call->kind == COLL_FILE_WRITE,
                    .p = p,
                    .me = call->comm->rank,
                    .my = -1,
                    .agg = run->agg,
                    .na = na,
                    .cb = prm->segsize > 0 ? prm->segsize : COLL_FILE_CB_DEFAULT};
    for (int a = 0; run->agg != NULL && a < na; a++) {
        run->t.my = run->agg[a] == run->t.me ? a : run->t.my;
    }
    tp_t *t = &run->t;
    t->range = malloc((size_t)p * 2 * sizeof(int64_t));
    t->dom = malloc((size_t)(na + 1) * sizeof(int64_t));
    t->packed = malloc((io->nsegs + 1) * sizeof(int64_t));
    t->sorted = malloc((size_t)p * sizeof(*t->sorted));
    run->errs = malloc((size_t)p * sizeof(uint32_t));
    run->count = malloc((size_t)na * sizeof(int64_t));
    run->out = malloc((io->nsegs + (size_t)na) * sizeof(*run->out));
    run->all = malloc((size_t)p * 5 * sizeof(int64_t));
    if (run->all == NULL) {
        coll_sched_fail(s, COMPI_ERR_NO_MEMORY); /* cannot even take part: the others wait */
        return;
    }
    if (io->nsegs > 0) {
        run->mine[0] = io->segs[0].off;
        run->mine[1] = io->segs[io->nsegs - 1].off + io->segs[io->nsegs - 1].len;
    }
    for (size_t i = 0; i < io->nsegs; i++) {
        run->mine[3] += io->segs[i].len;
    }
    run->mine[4] = (int64_t)io->nsegs;
    run->mine[2] = run->agg == NULL || t->range == NULL || t->dom == NULL || t->packed == NULL ||
                           t->sorted == NULL || run->errs == NULL || run->count == NULL ||
                           run->out == NULL
                       ? ENOMEM
                       : 0;
    /* the ranges: to rank 0, then its table to every rank */
    if (t->me == 0) {
        memcpy(run->all, run->mine, sizeof(run->mine));
        for (int q = 1; q < p; q++) {
            coll_sched_recv(s, &run->all[5 * q], sizeof(run->mine), run__byte(), q);
        }
    } else {
        coll_sched_send(s, run->mine, sizeof(run->mine), run__byte(), 0);
    }
    coll_sched_round(s);
    for (int q = 1; q < p && t->me == 0; q++) {
        coll_sched_send(s, run->all, (size_t)p * sizeof(run->mine), run__byte(), q);
    }
    if (t->me != 0) {
        coll_sched_recv(s, run->all, (size_t)p * sizeof(run->mine), run__byte(), 0);
    }
    coll_sched_check(s, run__ranges, run);
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

const coll_algo_t coll_algo_file_write_two_phase = {
    .name = "two-phase",
    .kind = COLL_FILE_WRITE,
    .sched = coll_file_two_phase_sched,
    .params = COLL_PARAM_SEGSIZE | COLL_PARAM_RANKS,
    .help = "aggregators (ranks) write even domains of the file in rounds of segsize bytes",
};

const coll_algo_t coll_algo_file_write_two_phase_if_interleaved = {
    .name = "two-phase-if-interleaved",
    .kind = COLL_FILE_WRITE,
    .sched = coll_file_two_phase_if_interleaved_sched,
    .params = COLL_PARAM_SEGSIZE | COLL_PARAM_RANKS,
    .help = "two-phase when the ranks' ranges interleave, else each rank its own",
};

const coll_algo_t coll_algo_file_write_two_phase_if_short = {
    .name = "two-phase-if-short",
    .kind = COLL_FILE_WRITE,
    .sched = coll_file_two_phase_if_short_sched,
    .params = COLL_PARAM_SEGSIZE | COLL_PARAM_RANKS,
    .help = "two-phase when the ranks' ranges interleave in runs under 16 KiB on average, "
            "else each rank its own",
};

const coll_algo_t coll_algo_file_read_two_phase = {
    .name = "two-phase",
    .kind = COLL_FILE_READ,
    .sched = coll_file_two_phase_sched,
    .params = COLL_PARAM_SEGSIZE | COLL_PARAM_RANKS,
    .help = "aggregators (ranks) read even domains of the file in rounds of segsize bytes",
};

const coll_algo_t coll_algo_file_read_two_phase_if_interleaved = {
    .name = "two-phase-if-interleaved",
    .kind = COLL_FILE_READ,
    .sched = coll_file_two_phase_if_interleaved_sched,
    .params = COLL_PARAM_SEGSIZE | COLL_PARAM_RANKS,
    .help = "two-phase when the ranks' ranges interleave, else each rank its own",
};

const coll_algo_t coll_algo_file_read_two_phase_if_short = {
    .name = "two-phase-if-short",
    .kind = COLL_FILE_READ,
    .sched = coll_file_two_phase_if_short_sched,
    .params = COLL_PARAM_SEGSIZE | COLL_PARAM_RANKS,
    .help = "two-phase when the ranks' ranges interleave in runs under 16 KiB on average, "
            "else each rank its own",
};
