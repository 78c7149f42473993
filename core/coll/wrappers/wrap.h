/*
 * wrap.h -- native wrappers a creator puts around whatever the rest of the chain built:
 *
 *   (profiling (next call))   counts calls, bytes and time per kind and size class, and
 *                             reports them at MPI_Finalize with the closures that ran;
 *   (tracing (next call))     logs every call and the closure that served it.
 *
 * Both run in C: a wrapped call costs one extra indirect call plus the bookkeeping.
 * Both wrap nonblocking calls too (when the inner closure has a start): the profile
 * counts them as "ibcast" rows, timing only the start; the trace logs each start.
 *
 * Ownership: a wrapper holds one reference on the closure it wraps.  The profiling
 * statistics live in a process-wide table (they outlive the closures, which die with
 * their communicators) until coll_wrap_finalize().
 */
#ifndef COMPI_COLL_WRAP_H
#define COMPI_COLL_WRAP_H

#include "core/coll/coll.h"

/* NULL when out of memory; takes a new reference on `inner` */
coll_closure_t *coll_wrap_profile(coll_closure_t *inner);
coll_closure_t *coll_wrap_trace(coll_closure_t *inner);

/* the closure wrapper `c' wraps (the summary's too); NULL when `c' is no wrapper */
coll_closure_t *coll_wrap_inner(const coll_closure_t *c);

/* At MPI_Finalize: print the profile (rank 0, or every rank with coll_profile_all 1),
   then free it. */
void coll_wrap_finalize(void);

#endif
