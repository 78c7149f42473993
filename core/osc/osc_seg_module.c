/*
 * osc_seg_module.c -- the shared-segment transport as a window module: windows whose
 * ranks are all on this host.  Transfers are loads and stores on the segment, or single
 * copy to the user's memory of another process, done before the call returns; the
 * synchronisation words lie in the segment (osc.h, osc_rma.c, osc_sync.c).
 */
#include "config.h"

#include "core/osc/osc_seg.h"

static void seg_close(compi_win_t *w)
{
    (void)w; /* the segment is the window's (osc_win_free unmaps it) */
}

const osc_module_t osc_seg_module = {
    .size = sizeof(osc_module_t),
    .name = "segment",
    .rma = osc_seg_rma,
    .flush = osc_seg_flush,
    .lock = osc_seg_lock,
    .unlock = osc_seg_unlock,
    .sync = osc_seg_sync,
    .post = osc_seg_post,
    .start = osc_seg_start,
    .complete = osc_seg_complete,
    .wait = osc_seg_wait,
    .test = osc_seg_test,
    .close = seg_close,
};
