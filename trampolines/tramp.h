/*
 * tramp.h -- the trampolines every collective goes through.
 *
 * tramp_run() forms the call's key, looks it up in the communicator's closure cache
 * and calls the closure: on a hit, one hash probe, one counter increment (MPI_T) and one
 * indirect call -- no allocation, no lock, no Guile.  On a miss it asks the Scheme
 * creators (through the bridge) for a closure, checks it, agrees with the other ranks that
 * every rank built the same one (coll_check_determinism, 1 by default: one small allgather
 * per miss), caches it and runs it.  A creator that fails on any rank, or ranks that built
 * different closures, fail the call on every rank with the same message
 * (tramp_error_take).
 *
 * tramp_start() does the same for a nonblocking call (call->mode COLL_MODE_NONBLOCKING):
 * the mode is part of the key, so nonblocking closures are cached beside the blocking
 * ones, and it calls the closure's start, which returns a request.  A persistent call
 * (MPI_Bcast_init, ...; call->mode COLL_MODE_PERSISTENT) takes the same path with its own
 * key: the closure is chosen at init, and its start builds the schedule into an inactive
 * persistent request that MPI_Start reruns.  tramp_run() packs
 * the blocking mode as a constant: the blocking hit path does no more work than before.
 *
 * Ownership: the cache hangs off comm->coll, belongs to the trampolines and is freed
 * with the communicator (comm_set_free_hook), or emptied by a flush (below).  It holds one
 * reference per cached closure; with coll_summary set, that closure is the summary
 * wrapper, which holds the one the creators built.
 */
#ifndef COMPI_TRAMP_H
#define COMPI_TRAMP_H

#include "core/coll/coll.h"

/* After bridge_init and the config files: reads the parameters, hooks communicator free. */
compi_status_t tramp_init(void);
void tramp_finalize(void);

/* Run one collective.  Errors come back as a status; the API layer raises them. */
compi_status_t tramp_run(const coll_call_t *call);
/* Start one nonblocking collective (call->mode is COLL_MODE_NONBLOCKING), or make a
   persistent one (COLL_MODE_PERSISTENT: inactive until MPI_Start); its request in *req_p,
   the caller's (it retains the communicator). */
struct compi_request;
compi_status_t tramp_start(const coll_call_t *call, struct compi_request **req_p);

/* After tramp_run or tramp_start failed at a miss: the message, the same on every rank
   of the communicator when the agreement ran ("rank 3: creator NAME (...) failed: ...",
   "...: ranks built different closures: rank 0 built X, ranks 1-3 built Y ..."), and in
   *reporter_p 1 on the one rank that should print it when the error is fatal (the
   lowest failing rank, or rank 0), 0 on the others.  NULL when the last failure was not
   a miss's (a closure's own error); each message is taken once. */
const char *tramp_error_take(int *reporter_p);

/*
 * Flushes and reconfiguration (MPIX_Coll_flush, MPIX_Coll_reconfigure, the MPI_T control
 * variables coll_flush and coll_config).  Caches are dropped on every rank of a
 * communicator or on none, so the ranks keep missing together: tramp_flush, collective
 * over `comm`, drops the caches of `comm` and of every communicator whose members are all
 * in `comm` (with MPI_COMM_WORLD: every cache of the process), and keeps those that reach
 * processes outside it; it returns how many it dropped.  tramp_flush_comm drops one
 * communicator's cache (MPI_Comm_set_name, which every rank is expected to call).
 */
size_t tramp_flush(compi_comm_t *comm);
void tramp_flush_comm(compi_comm_t *comm);
/* caches dropped since MPI_Init */
unsigned long tramp_flush_count(void);
/* the MPI_T performance variables coll_cache_hits, _misses and coll_calls: the calls of
   each kind (COLL_NKINDS entries each) that hit and that missed comm's cache since the
   communicator was made, every mode together; a flush keeps them.  A miss that failed is
   not counted. */
void tramp_cache_counts(const compi_comm_t *comm, unsigned long long *hits,
                        unsigned long long *misses);

/*
 * Collective over `comm`: the creators go back to the defaults and the colon-separated
 * list of config files is loaded, as at MPI_Init; then the ranks agree that each loaded
 * it.  If any failed, every rank goes back to the list it had before and the call fails
 * on every rank with the same message (tramp_error_take: "rank 1: config error:
 * FILE:LINE:COL: ..."), the status of the lowest failing rank.  Either way the caches
 * tramp_flush(comm) names are dropped.
 */
compi_status_t tramp_reconfigure(compi_comm_t *comm, const char *list);
/* the list in force: the last one reconfigured to, else coll_config's ("" for none) */
const char *tramp_config_list(void);

/* coll_summary: collective over MPI_COMM_WORLD, at MPI_Finalize while the PML is up */
compi_status_t tramp_summary_write(void);

#endif
