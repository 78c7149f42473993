/*
 * osc_am_module.c -- the active-message transport as a window module: windows whose
 * ranks are not all on this host (or osc_transport=am).  Every access to another rank is
 * a message over the PML that the target serves in its progress (osc_am.c).
 */
#include "config.h"

#include "core/osc/osc_am.h"

const osc_module_t osc_am_module = {
    .size = sizeof(osc_module_t),
    .name = "active messages",
    .rma = osc_am_rma,
    .flush = osc_am_flush,
    .lock = osc_am_lock,
    .unlock = osc_am_unlock,
    .sync = osc_am_sync,
    .post = osc_am_post,
    .start = osc_am_start,
    .complete = osc_am_complete,
    .wait = osc_am_wait,
    .test = osc_am_test,
    .close = osc_am_close,
};
