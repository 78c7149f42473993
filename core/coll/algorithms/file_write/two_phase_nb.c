/*
 * file_write/two_phase_nb.c -- the nonblocking form of two-phase I/O (MPI_File_iwrite_all,
 * iread_at_all, the split collectives): two_phase.c's steps as a schedule that the
 * progress engine runs.  What a phase sends depends on what the phase before brought
 * (the ranges decide the domains, the counts the size of the lists, the lists the runs
 * of each window), so each phase ends with a check step that adds the next phase's
 * rounds to the running schedule:
 *
 *   ranges -> rank 0 | its table -> all | counts -> aggregators | agree (memory)
 *   | lists -> aggregators | agree (memory) | window 0 | window 1 | ... | agree (errno)
 *
 * A write's window is one round: every rank's runs to the aggregators, then, at each
 * aggregator, a check that places them and writes the window (read-modify-write under a
 * lock where it has holes).  A read's is two: the aggregator's pread and placing (a
 * check), then its runs to every rank.  An agreement is a gather of the errnos to rank 0
 * and their maximum back.  When the ranks' ranges do not interleave (the -if-interleaved
 * and -if-short closures), or their runs are long (-if-short), each rank does its own
 * I/O in the check that sees the ranges.
 *
 * Cost: two_phase.c's, with a round trip to rank 0 instead of an allgather, and where the
 * senders' runs of a window exceed the collective buffer (overlapping writes) a larger
 * staging buffer instead of batches.  Memory is agreed on before any data moves.
 */
#include "core/coll/algorithms/file_write/two_phase.h"

#include "core/coll/sched/sched.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

typedef struct tp_nb tp_nb_t;

/* a window's check step: its access and its round */
typedef struct tp_win {
    tp_nb_t *nb;
    int64_t r;
} tp_win_t;

struct tp_nb {
    tp_t t;
    coll_call_t call; /* t.call: the caller's is gone after the start */
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
    void (*after)(tp_nb_t *nb); /* what follows the running agreement */
};

static compi_datatype_t *nb__byte(void)
{
    return dt_from_handle(MPI_BYTE);
}

static void nb__release(void *arg)
{
    tp_nb_t *nb = arg;
    coll_io_t *io = nb->t.io;
    tp__free(&nb->t);
    free(nb->agg);
    free(nb->all);
    free(nb->errs);
    free(nb->count);
    free(nb->out);
    free(nb->wins);
    free(nb);
    if (io->release != NULL) {
        io->release(io);
    }
}

static void nb__fail(tp_nb_t *nb, int err)
{
    if (nb->err == 0 && err != 0) {
        nb->err = (uint32_t)err;
    }
}

/* ---- the agreement: errnos to rank 0, the largest back; then nb->after ------------- */

static compi_status_t nb__max(void *arg, coll_sched_note_t *note)
{
    tp_nb_t *nb = arg;
    (void)note;
    for (int q = 1; q < nb->t.p; q++) {
        nb->err = nb->errs[q] > nb->err ? nb->errs[q] : nb->err;
    }
    return COMPI_OK;
}

static compi_status_t nb__after(void *arg, coll_sched_note_t *note)
{
    tp_nb_t *nb = arg;
    (void)note;
    nb->after(nb);
    return COMPI_OK;
}

static void nb__agree(tp_nb_t *nb, void (*after)(tp_nb_t *nb))
{
    coll_sched_t *s = nb->s;
    nb->after = after;
    for (int q = 1; q < nb->t.p; q++) {
        if (nb->t.me == 0) {
            coll_sched_recv(s, &nb->errs[q], sizeof(uint32_t), nb__byte(), q);
        }
    }
    if (nb->t.me != 0) {
        coll_sched_send(s, &nb->err, sizeof(uint32_t), nb__byte(), 0);
    } else {
        coll_sched_check(s, nb__max, nb);
    }
    coll_sched_round(s);
    for (int q = 1; q < nb->t.p && nb->t.me == 0; q++) {
        coll_sched_send(s, &nb->err, sizeof(uint32_t), nb__byte(), q);
    }
    if (nb->t.me != 0) {
        coll_sched_recv(s, &nb->err, sizeof(uint32_t), nb__byte(), 0);
    }
    coll_sched_check(s, nb__after, nb);
    coll_sched_round(s);
}

/* ---- the ends ------------------------------------------------------------------------ */

static void nb__end(tp_nb_t *nb)
{
    coll_io_t *io = nb->t.io;
    io->err = (int)nb->err;
    io->moved = io->err != 0 ? 0 : nb->t.write ? nb->t.packed[io->nsegs] : tp__below_end(io);
}

static void nb__end_direct(tp_nb_t *nb)
{
    nb->t.io->err = (int)nb->err;
    nb->t.io->moved = nb->own_moved;
}

/* ---- the windows ----------------------------------------------------------------------- */

/* this rank's packed bytes in [wlo, whi): where they start */
static int64_t nb__mine(tp_nb_t *nb, int64_t wlo, int64_t whi, int64_t *at_p)
{
    size_t first, end;
    coll_io_t *io = nb->t.io;
    return coll_file_span(io->segs, io->nsegs, nb->t.packed, wlo, whi, at_p, &first, &end);
}

static int64_t nb__theirs(const tp_from_t *fr, int64_t wlo, int64_t whi)
{
    int64_t start;
    size_t first, end;
    return coll_file_span(fr->segs, (size_t)fr->n, fr->packed, wlo, whi, &start, &first, &end);
}

/* every sender's pieces of window [wlo, whi) between the window buffer and, for this
   rank, its own buffer, for the others their runs in the staging buffer (in the order
   nb__windows posts them) */
static void nb__place(tp_nb_t *nb, int64_t wlo, int64_t whi, int to_window)
{
    tp_t *t = &nb->t;
    int64_t at, u = 0;
    for (int f = 0; f < t->nfrom; f++) {
        const tp_from_t *fr = &t->from[f];
        if (fr->rank == t->me) {
            if (nb__mine(nb, wlo, whi, &at) > 0) {
                tp__place(t, fr, wlo, whi, (char *)t->io->buf + at, to_window);
            }
            continue;
        }
        tp__place(t, fr, wlo, whi, t->stage + u, to_window);
        u += nb__theirs(fr, wlo, whi);
    }
}

/* a write window at its aggregator, the senders' runs in the staging buffer in rank
   order: placed (this rank's from its own buffer) and written */
static compi_status_t nb__write_win(void *arg, coll_sched_note_t *note)
{
    tp_win_t *w = arg;
    tp_nb_t *nb = w->nb;
    tp_t *t = &nb->t;
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
    nb__place(nb, wlo, whi, 1);
    if (err == 0) {
        err = coll_file_pwrite(io->fd, t->cbuf + (lo - wlo), hi - lo, lo, NULL);
    }
    if (locked) {
        coll_file_unlock(io->fd, lo, hi - lo);
    }
    nb__fail(nb, err);
    return COMPI_OK;
}

/* a read window at its aggregator: its extent read, this rank's bytes placed in its
   buffer, every other sender's in the staging buffer (sent in the next round) */
static compi_status_t nb__read_win(void *arg, coll_sched_note_t *note)
{
    tp_win_t *w = arg;
    tp_nb_t *nb = w->nb;
    tp_t *t = &nb->t;
    coll_io_t *io = t->io;
    int64_t wlo, whi, lo, hi, got = 0;
    int err = 0;
    (void)note;
    tp__window(t, t->my, w->r, &wlo, &whi);
    tp__extent(t, wlo, whi, &lo, &hi);
    if (hi <= lo) {
        return COMPI_OK;
    }
    if (io->atomic) {
        err = coll_file_lock(io->fd, F_RDLCK, lo, hi - lo);
    }
    if (err == 0) {
        err = coll_file_pread(io->fd, t->cbuf + (lo - wlo), hi - lo, lo, &got);
    }
    if (got < hi - lo) {
        memset(t->cbuf + (lo - wlo) + got, 0, (size_t)(hi - lo - got)); /* past the end */
    }
    if (io->atomic && err == 0) {
        coll_file_unlock(io->fd, lo, hi - lo);
    }
    nb__place(nb, wlo, whi, 0);
    nb__fail(nb, err);
    return COMPI_OK;
}

/* every window's rounds, then the last agreement */
static void nb__windows(tp_nb_t *nb)
{
    tp_t *t = &nb->t;
    coll_io_t *io = t->io;
    coll_sched_t *s = nb->s;
    if (nb->err != 0) {
        nb__end(nb);
        return;
    }
    for (int64_t r = 0; r < nb->rounds; r++) {
        int64_t wlo, whi, at, len, u = 0;
        int agg = t->my >= 0 && tp__window(t, t->my, r, &wlo, &whi);
        nb->wins[r] = (tp_win_t){.nb = nb, .r = r};
        if (!t->write && agg) {
            coll_sched_check(s, nb__read_win, &nb->wins[r]);
            coll_sched_round(s);
        }
        /* my runs to (from) the other aggregators */
        for (int a = 0; a < t->na; a++) {
            if (a == t->my || !tp__meets(t, t->me, a) || !tp__window(t, a, r, &wlo, &whi) ||
                (len = nb__mine(nb, wlo, whi, &at)) == 0) {
                continue;
            }
            if (t->write) {
                coll_sched_send(s, (char *)io->buf + at, (size_t)len, nb__byte(), t->agg[a]);
            } else {
                coll_sched_recv(s, (char *)io->buf + at, (size_t)len, nb__byte(), t->agg[a]);
            }
        }
        /* as an aggregator, the other senders' runs through the staging buffer */
        for (int f = 0; agg && f < t->nfrom; f++) {
            const tp_from_t *fr = &t->from[f];
            tp__window(t, t->my, r, &wlo, &whi);
            if (fr->rank == t->me || (len = nb__theirs(fr, wlo, whi)) == 0) {
                continue;
            }
            if (t->write) {
                coll_sched_recv(s, t->stage + u, (size_t)len, nb__byte(), fr->rank);
            } else {
                coll_sched_send(s, t->stage + u, (size_t)len, nb__byte(), fr->rank);
            }
            u += len;
        }
        if (t->write && agg) {
            coll_sched_check(s, nb__write_win, &nb->wins[r]);
        }
        coll_sched_round(s);
    }
    nb__agree(nb, nb__end);
}

/* the aggregator's lists are in: their prefix sums, the staging buffer as large as one
   window's runs need, the windows' records; the memory agreed on */
static compi_status_t nb__lists_done(void *arg, coll_sched_note_t *note)
{
    tp_nb_t *nb = arg;
    tp_t *t = &nb->t;
    (void)note;
    for (int a = 0; a < t->na; a++) {
        int64_t r = (t->dom[a + 1] - t->dom[a] + t->cb - 1) / t->cb;
        nb->rounds = r > nb->rounds ? r : nb->rounds;
    }
    nb->wins = malloc((size_t)(nb->rounds + 1) * sizeof(*nb->wins));
    nb__fail(nb, nb->wins == NULL ? ENOMEM : 0);
    int64_t need = 0, wlo, whi;
    for (int f = 0; t->my >= 0 && f < t->nfrom; f++) {
        coll_file_packed(t->from[f].segs, (size_t)t->from[f].n, t->from[f].packed);
    }
    for (int64_t r = 0; t->my >= 0 && tp__window(t, t->my, r, &wlo, &whi); r++) {
        int64_t sum = 0;
        for (int f = 0; f < t->nfrom; f++) {
            sum += t->from[f].rank != t->me ? nb__theirs(&t->from[f], wlo, whi) : 0;
        }
        need = sum > need ? sum : need;
    }
    if (t->my >= 0 && need > t->cbuf_len) {
        char *bigger = realloc(t->stage, (size_t)need + 1);
        nb__fail(nb, bigger == NULL ? ENOMEM : 0);
        t->stage = bigger != NULL ? bigger : t->stage;
    }
    nb__agree(nb, nb__windows);
    return COMPI_OK;
}

/* the memory for the lists is agreed on: the lists, clipped to each domain */
static void nb__lists(tp_nb_t *nb)
{
    tp_t *t = &nb->t;
    coll_io_seg_t *out = nb->out;
    if (nb->err != 0) {
        nb__end(nb);
        return;
    }
    for (int a = 0; a < t->na; a++) {
        if (nb->count[a] == 0) {
            continue;
        }
        coll_io_seg_t *o = out;
        out = tp__clip(t, a, out);
        coll_sched_send(nb->s, o, (size_t)nb->count[a] * sizeof(*o), nb__byte(), t->agg[a]);
    }
    for (int f = 0; t->my >= 0 && f < t->nfrom; f++) {
        tp_from_t *fr = &t->from[f];
        if (fr->n > 0) {
            coll_sched_recv(nb->s, fr->segs, (size_t)fr->n * sizeof(coll_io_seg_t), nb__byte(),
                            fr->rank);
        }
    }
    coll_sched_check(nb->s, nb__lists_done, nb);
    coll_sched_round(nb->s);
}

/* the counts are in: the aggregator's buffers, agreed on */
static compi_status_t nb__counts_done(void *arg, coll_sched_note_t *note)
{
    tp_nb_t *nb = arg;
    (void)note;
    if (nb->t.my >= 0) {
        nb__fail(nb, tp__buffers(&nb->t));
    }
    nb__agree(nb, nb__lists);
    return COMPI_OK;
}

/* every rank's range is known: nothing to do, each rank its own, or the counts */
static compi_status_t nb__ranges(void *arg, coll_sched_note_t *note)
{
    tp_nb_t *nb = arg;
    tp_t *t = &nb->t;
    coll_io_t *io = t->io;
    int64_t min = INT64_MAX, max = 0, bytes = 0, nsegs = 0;
    (void)note;
    for (int q = 0; q < t->p; q++) {
        const int64_t *w = &nb->all[5 * q];
        t->range[2 * q] = w[0];
        t->range[2 * q + 1] = w[1];
        nb->err = w[2] > (int64_t)nb->err ? (uint32_t)w[2] : nb->err;
        bytes += w[3];
        nsegs += w[4];
        if (t->range[2 * q] < t->range[2 * q + 1]) {
            min = t->range[2 * q] < min ? t->range[2 * q] : min;
            max = t->range[2 * q + 1] > max ? t->range[2 * q + 1] : max;
        }
    }
    if (nb->err != 0 || max <= min) {
        /* a failure every rank saw, or nothing to move */
        io->err = (int)nb->err;
        io->moved = 0;
        return COMPI_OK;
    }
    if (tp__own_io(t, nb->when, bytes, nsegs)) {
        nb->err = (uint32_t)coll_file_own(io, t->write);
        nb->own_moved = io->moved;
        nb__agree(nb, nb__end_direct);
        return COMPI_OK;
    }
    tp__domains(t, min, max);
    coll_file_packed(io->segs, io->nsegs, t->packed);
    for (int a = 0; a < t->na; a++) {
        nb->count[a] = 0;
        if (!tp__meets(t, t->me, a)) {
            continue;
        }
        nb->count[a] = tp__count(t, a);
        coll_sched_send(nb->s, &nb->count[a], sizeof(int64_t), nb__byte(), t->agg[a]);
    }
    if (t->my >= 0) {
        for (int q = 0; q < t->p; q++) {
            t->nfrom += tp__meets(t, q, t->my);
        }
        t->from = calloc((size_t)t->nfrom + 1, sizeof(*t->from));
        nb__fail(nb, t->from == NULL ? ENOMEM : 0);
        for (int q = 0, f = 0; q < t->p; q++) {
            if (!tp__meets(t, q, t->my)) {
                continue;
            }
            int64_t *into = &nb->spare; /* no room: taken, then the agreement fails */
            if (t->from != NULL) {
                t->from[f] = (tp_from_t){.rank = q};
                t->me_from |= q == t->me;
                into = &t->from[f].n;
            }
            f++;
            coll_sched_recv(nb->s, into, sizeof(int64_t), nb__byte(), q);
        }
    }
    coll_sched_check(nb->s, nb__counts_done, nb);
    coll_sched_round(nb->s);
    return COMPI_OK;
}

void tp__sched(const coll_call_t *call, const coll_params_t *prm, coll_sched_t *s, int when)
{
    static const int agg0 = 0;
    coll_io_t *io = call->io;
    int p = call->comm->size, na = prm->nranks > 0 ? prm->nranks : 1;
    tp_nb_t *nb = calloc(1, sizeof(*nb));
    io->err = -1;
    if (nb == NULL) {
        coll_sched_fail(s, COMPI_ERR_NO_MEMORY);
        if (io->release != NULL) {
            io->release(io);
        }
        return;
    }
    nb->call = *call;
    nb->s = s;
    nb->when = when;
    coll_sched_hold(s, nb__release, nb);
    nb->agg = malloc((size_t)na * sizeof(int));
    if (nb->agg != NULL) {
        memcpy(nb->agg, prm->nranks > 0 ? prm->ranks : &agg0, (size_t)na * sizeof(int));
    }
    nb->t = (tp_t){.call = &nb->call,
                   .io = io,
                   .write = call->kind == COLL_FILE_WRITE,
                   .p = p,
                   .me = call->comm->rank,
                   .my = -1,
                   .agg = nb->agg,
                   .na = na,
                   .cb = prm->segsize > 0 ? prm->segsize : COLL_FILE_CB_DEFAULT};
    for (int a = 0; nb->agg != NULL && a < na; a++) {
        nb->t.my = nb->agg[a] == nb->t.me ? a : nb->t.my;
    }
    tp_t *t = &nb->t;
    t->range = malloc((size_t)p * 2 * sizeof(int64_t));
    t->dom = malloc((size_t)(na + 1) * sizeof(int64_t));
    t->packed = malloc((io->nsegs + 1) * sizeof(int64_t));
    t->sorted = malloc((size_t)p * sizeof(*t->sorted));
    nb->errs = malloc((size_t)p * sizeof(uint32_t));
    nb->count = malloc((size_t)na * sizeof(int64_t));
    nb->out = malloc((io->nsegs + (size_t)na) * sizeof(*nb->out));
    nb->all = malloc((size_t)p * 5 * sizeof(int64_t));
    if (nb->all == NULL) {
        coll_sched_fail(s, COMPI_ERR_NO_MEMORY); /* cannot even take part: the others wait */
        return;
    }
    if (io->nsegs > 0) {
        nb->mine[0] = io->segs[0].off;
        nb->mine[1] = io->segs[io->nsegs - 1].off + io->segs[io->nsegs - 1].len;
    }
    for (size_t i = 0; i < io->nsegs; i++) {
        nb->mine[3] += io->segs[i].len;
    }
    nb->mine[4] = (int64_t)io->nsegs;
    nb->mine[2] = nb->agg == NULL || t->range == NULL || t->dom == NULL || t->packed == NULL ||
                          t->sorted == NULL || nb->errs == NULL || nb->count == NULL ||
                          nb->out == NULL
                      ? ENOMEM
                      : 0;
    /* the ranges: to rank 0, then its table to every rank */
    if (t->me == 0) {
        memcpy(nb->all, nb->mine, sizeof(nb->mine));
        for (int q = 1; q < p; q++) {
            coll_sched_recv(s, &nb->all[5 * q], sizeof(nb->mine), nb__byte(), q);
        }
    } else {
        coll_sched_send(s, nb->mine, sizeof(nb->mine), nb__byte(), 0);
    }
    coll_sched_round(s);
    for (int q = 1; q < p && t->me == 0; q++) {
        coll_sched_send(s, nb->all, (size_t)p * sizeof(nb->mine), nb__byte(), q);
    }
    if (t->me != 0) {
        coll_sched_recv(s, nb->all, (size_t)p * sizeof(nb->mine), nb__byte(), 0);
    }
    coll_sched_check(s, nb__ranges, nb);
}
