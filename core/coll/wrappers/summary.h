/*
 * summary.h -- the per-run summary (parameter coll_summary): a wrapper the trampolines put
 * around every closure they install when the parameter names a file, and the CSV file
 * written at MPI_Finalize.
 *
 * A row is (communicator name, kind, size class, closure name, closure signature) ->
 * calls, bytes, seconds.  Nonblocking calls count as "ibcast" rows and persistent ones
 * as "bcast_init" rows; their time is the time to start (the schedule then runs in the
 * progress engine).  The file has the rows of every rank, rank 0's first:
 *
 *   rank,comm,kind,size_class,closure,signature,calls,bytes,seconds
 *   0,"MPI_COMM_WORLD","bcast","<=64","bcast:binomial",3f0c...,120,960,0.000412
 *
 * The wrapper keeps the inner closure's name and signature, so coll_verbose and the
 * agreement at the miss see through it.  When coll_summary is unset nothing is wrapped:
 * a hit costs what it costs without the summary.
 *
 * Ownership: a wrapper holds one reference on the closure it wraps.  The rows live in a
 * process-wide list (they outlive the closures, which die with their communicators) until
 * coll_summary_finalize().
 */
#ifndef COMPI_COLL_SUMMARY_H
#define COMPI_COLL_SUMMARY_H

#include "core/coll/coll.h"

/* NULL when out of memory; takes a new reference on `inner`.  The rows are counted under
   `comm_name` (copied: the communicator's name when the closure was installed). */
coll_closure_t *coll_wrap_summary(coll_closure_t *inner, coll_kind_t kind, coll_mode_t mode,
                                  const char *comm_name);

/* the closure a summary wrapper wraps; NULL when `c' is not one (coll_wrap_inner) */
coll_closure_t *coll_summary_inner(const coll_closure_t *c);

/*
 * Collective over MPI_COMM_WORLD, while the PML is up: every rank's rows go to world rank
 * 0 (point-to-point, tag COMPI_TAG_COLL_SUMMARY), which writes them to `path` (created or
 * truncated) in one pass.  A file that cannot be written is one warning on rank 0; the
 * other ranks still hand their rows over.  Rows counted afterwards are not written.
 */
compi_status_t coll_summary_write(const char *path);

/* frees the rows (after the last collective) */
void coll_summary_finalize(void);

#endif
