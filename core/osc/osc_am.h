/*
 * osc_am.h -- the active-message transport's operations (osc_am.c), which its module
 * table (osc_am_module.c) holds.  osc.h describes what each does; osc_am.c how.
 *
 * Ownership: the transport's state (osc_am_t) hangs on the window from osc_am_open to
 * osc_am_close.
 */
#ifndef COMPI_OSC_AM_H
#define COMPI_OSC_AM_H

#include "core/osc/osc.h"

compi_status_t osc_am_rma(compi_win_t *w, const osc_rma_t *a, struct compi_request *req);
compi_status_t osc_am_flush(compi_win_t *w, int t);
void osc_am_lock(compi_win_t *w, int t, int type);
void osc_am_unlock(compi_win_t *w, int t, int type);
void osc_am_sync(compi_win_t *w);
void osc_am_post(compi_win_t *w, const int *origins, int n, int nocheck);
void osc_am_start(compi_win_t *w, const int *targets, int n, int nocheck);
void osc_am_complete(compi_win_t *w);
void osc_am_wait(compi_win_t *w);
int osc_am_test(compi_win_t *w);
void osc_am_close(compi_win_t *w);

#endif
