/*
 * osc_sync.c -- the synchronisation words of a window's segment: the passive-target
 * reader-writer lock of each rank, and the counters of post-start-complete-wait.
 *
 * Lock word of rank t: OSC_LOCK_EXCL while an exclusive holder has it, plus one per
 * shared holder.  An exclusive locker swaps 0 for OSC_LOCK_EXCL; a shared locker adds
 * one and, when it finds OSC_LOCK_EXCL set, takes its one back and waits for the bit to
 * clear.  An exclusive holder leaves by subtracting the bit (a shared locker's passing
 * one may be in the word).  Readers that keep arriving can hold a writer off: no
 * fairness beyond that of the processors' atomics.
 *
 * PSCW: target t's MPI_Win_post adds one to post[o * p + t] for each origin o of its
 * group (a release: t's stores to its window come before); origin o's MPI_Win_start
 * counts its starts towards t and waits for post[o * p + t] to reach that count (an
 * acquire).  MPI_Win_complete adds one to each target's `complete`; MPI_Win_wait waits
 * for `complete` to reach the number of origins of every epoch t posted so far.  The
 * counters only grow, so nothing is reset between epochs.  MPI_MODE_NOCHECK, which
 * MPI asks of both post and start when it is given, skips the post counters.
 */
#include "config.h"

#include "core/osc/osc.h"
#include "core/osc/osc_seg.h"

#include "core/pml/pml.h"
#include "core/runtime/rte.h"

void osc_relax(unsigned *spins)
{
    if (rte_proc.oversubscribed || ++*spins > 128) {
        (void)pml_progress();
        if (compi_unlikely(pml__thread_yield != NULL)) {
            pml__thread_yield();
        }
    } else {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#else
        __asm__ __volatile__("" ::: "memory");
#endif
    }
}

void osc_seg_lock(compi_win_t *w, int t, int type)
{
    uint32_t *l = &w->ranks[t].lock;
    unsigned spins = 0;

    if (type == MPI_LOCK_EXCLUSIVE) {
        for (;;) {
            uint32_t zero = 0;
            if (__atomic_compare_exchange_n(l, &zero, OSC_LOCK_EXCL, 0, __ATOMIC_ACQUIRE,
                                            __ATOMIC_RELAXED)) {
                return;
            }
            osc_relax(&spins);
        }
    }
    for (;;) {
        uint32_t v = __atomic_fetch_add(l, 1, __ATOMIC_ACQUIRE);
        if ((v & OSC_LOCK_EXCL) == 0) {
            return;
        }
        __atomic_fetch_sub(l, 1, __ATOMIC_RELAXED);
        while (__atomic_load_n(l, __ATOMIC_RELAXED) & OSC_LOCK_EXCL) {
            osc_relax(&spins);
        }
    }
}

void osc_seg_unlock(compi_win_t *w, int t, int type)
{
    uint32_t *l = &w->ranks[t].lock;
    /* release: this epoch's transfers (already done) come before the next holder's */
    __atomic_fetch_sub(l, type == MPI_LOCK_EXCLUSIVE ? OSC_LOCK_EXCL : 1u, __ATOMIC_RELEASE);
}

void osc_seg_post(compi_win_t *w, const int *origins, int n, int nocheck)
{
    w->expected += (uint64_t)n;
    w->exposure_open = 1;
    if (nocheck) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        return;
    }
    for (int i = 0; i < n; i++) {
        __atomic_fetch_add(&w->post[(size_t)origins[i] * w->p + w->rank], 1, __ATOMIC_RELEASE);
    }
}

void osc_seg_start(compi_win_t *w, const int *targets, int n, int nocheck)
{
    if (nocheck) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        return;
    }
    for (int i = 0; i < n; i++) {
        int t = targets[i];
        uint64_t want = ++w->started[t];
        const uint64_t *c = &w->post[(size_t)w->rank * w->p + t];
        unsigned spins = 0;
        while (__atomic_load_n(c, __ATOMIC_ACQUIRE) < want) {
            osc_relax(&spins);
        }
    }
}

void osc_seg_complete(compi_win_t *w)
{
    for (int i = 0; i < w->naccess; i++) {
        __atomic_fetch_add(&w->ranks[w->access[i]].complete, 1, __ATOMIC_RELEASE);
    }
}

int osc_seg_test(compi_win_t *w)
{
    if (__atomic_load_n(&w->ranks[w->rank].complete, __ATOMIC_ACQUIRE) >= w->expected) {
        w->exposure_open = 0;
        return 1;
    }
    return 0;
}

void osc_seg_wait(compi_win_t *w)
{
    unsigned spins = 0;
    while (!osc_seg_test(w)) {
        osc_relax(&spins);
    }
}

void osc_seg_sync(compi_win_t *w)
{
    (void)w;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

compi_status_t osc_seg_flush(compi_win_t *w, int t)
{
    (void)w, (void)t;
    /* transfers on the segment are done: only memory needs ordering */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return COMPI_OK;
}
