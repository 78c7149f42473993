/*
 * two_phase.h -- what the two forms of two-phase I/O share (two_phase.c: the blocking
 * loop; two_phase_nb.c: the schedule of the nonblocking form): the state of one access
 * and the steps that do not communicate.
 *
 * Ownership: a tp_t's arrays belong to it (tp__free); segs and buf of its io are the
 * caller's.
 */
#ifndef COMPI_COLL_FILE_TWO_PHASE_H
#define COMPI_COLL_FILE_TWO_PHASE_H

#include "core/coll/phases/file_io.h"
#include "core/pml/pml.h"

/* at an aggregator, what one sender has in its domain */
typedef struct tp_from {
    int rank;
    int64_t n;           /* its segments there */
    coll_io_seg_t *segs; /* clipped to the domain */
    int64_t *packed;     /* [n + 1]: prefix sums of their lengths */
} tp_from_t;

typedef struct tp {
    const coll_call_t *call;
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
    int me_from; /* this rank is among them */
    char *cbuf, *stage;
    int64_t cbuf_len;
    coll_io_seg_t *cov; /* the pieces of one window, to find its extent and holes */
    compi_request_t **reqs;
} tp_t;

/* the window of domain a in round r; 0 past the domain's end */
int tp__window(const tp_t *t, int a, int64_t r, int64_t *lo_p, int64_t *hi_p);
/* whether rank q's range meets domain a */
int tp__meets(const tp_t *t, int q, int a);
/* the domains: [min, max) split evenly, inner boundaries aligned */
void tp__domains(tp_t *t, int64_t min, int64_t max);
/* whether the ranks' ranges overlap (ROMIO's "interleaved") */
int tp__interleaved(const tp_t *t);
/* when two-phase runs: always, when the ranks' ranges interleave (ROMIO's automatic),
   or when they interleave in short runs */
enum { TP_ALWAYS, TP_IF_INTERLEAVED, TP_IF_SHORT };
/* the mean run (bytes per segment, over all ranks) from which TP_IF_SHORT goes direct */
#define TP_SHORT_RUN ((int64_t)16 * 1024)
/* whether an access of mode `when` lets each rank do its own I/O, given all ranks'
   bytes and segments */
int tp__own_io(const tp_t *t, int when, int64_t bytes, int64_t nsegs);
/* how many of this rank's segments meet domain a */
int64_t tp__count(const tp_t *t, int a);
/* this rank's segments in domain a, clipped to it, into out; the end of what it wrote */
coll_io_seg_t *tp__clip(const tp_t *t, int a, coll_io_seg_t *out);
/* an aggregator's buffers, once the senders' counts (from[].n) are known; an errno */
int tp__buffers(tp_t *t);
/* the extent of what the senders have in a window; whether it has holes */
int tp__extent(tp_t *t, int64_t wlo, int64_t whi, int64_t *lo_p, int64_t *hi_p);
/* sender fr's pieces in [wlo, whi) between the window buffer and a packed run */
void tp__place(tp_t *t, const tp_from_t *fr, int64_t wlo, int64_t whi, char *run, int to_window);
/* a read's count: this rank's bytes below the end of the file */
int64_t tp__below_end(const coll_io_t *io);
void tp__free(tp_t *t);

/* the schedule of the nonblocking form (two_phase_nb.c): the algorithms' .sched */
void tp__sched(const coll_call_t *call, const coll_params_t *prm, struct coll_sched *s, int when);

#endif
