/*
 * bridge_sched.h -- schedules written in Scheme, run in C (bridge_sched.c).  Included
 * only by files under scheme/.
 */
#ifndef COMPI_BRIDGE_SCHED_H
#define COMPI_BRIDGE_SCHED_H

#include "core/coll/coll.h"

#include <libguile.h>
#include <stddef.h>

/*
 * The closure of a lowered schedule (its name UNAME, a string, and DESC, the schedule
 * description) for `call': asks (compi internal) schedule-steps for every rank's steps
 * (checked there), keeps this rank's.
 * COMPI_OK and the closure (refcount 1) in *c_p, or an error and one line in why (what
 * is wrong, without the creator: the caller names it).  In Guile mode.
 */
compi_status_t bridge_sched_closure(const coll_call_t *call, SCM uname, SCM desc,
                                    coll_closure_t **c_p, char *why, size_t len);

#endif
