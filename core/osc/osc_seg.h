/*
 * osc_seg.h -- the shared-segment transport's operations (osc_rma.c, osc_sync.c), which
 * its module table (osc_seg_module.c) holds.  osc.h describes what each does.
 *
 * Ownership: nothing here owns anything; the segment belongs to the window (osc_win.c).
 */
#ifndef COMPI_OSC_SEG_H
#define COMPI_OSC_SEG_H

#include "core/osc/osc.h"

compi_status_t osc_seg_rma(compi_win_t *w, const osc_rma_t *a, struct compi_request *req);
compi_status_t osc_seg_flush(compi_win_t *w, int t);
void osc_seg_lock(compi_win_t *w, int t, int type);
void osc_seg_unlock(compi_win_t *w, int t, int type);
void osc_seg_sync(compi_win_t *w);
void osc_seg_post(compi_win_t *w, const int *origins, int n, int nocheck);
void osc_seg_start(compi_win_t *w, const int *targets, int n, int nocheck);
void osc_seg_complete(compi_win_t *w);
void osc_seg_wait(compi_win_t *w);
int osc_seg_test(compi_win_t *w);

#endif
