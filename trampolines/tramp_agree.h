/*
 * tramp_agree.h -- the agreement at a cache miss (tramp_agree.c), shared with the cache
 * (tramp.c): every rank exchanges what it built, so that a rank-dependent creator or a
 * one-rank failure fails the call on every rank instead of a wrong run or a hang.
 *
 * Ownership: the texts of tramp__agree_texts() are the caller's to free; the error text
 * (tramp__error_set) is per thread, taken by tramp_error_take().
 */
#ifndef COMPI_TRAMP_AGREE_H
#define COMPI_TRAMP_AGREE_H

#include "trampolines/tramp.h"

#include <stddef.h>
#include <stdint.h>

/* the key packed into three words: cheap to hash and compare */
typedef struct tramp_key {
    uint64_t w0; /* (mode << 8 | kind) << 32 | root */
    uint64_t w1; /* bytes */
    uint64_t w2; /* op << 32 | datatype */
} tramp_key_t;

struct compi_request;

/* "bcast root=0 bytes=8 MPI_INT MPI_SUM on MPI_COMM_WORLD (4 ranks)" for messages */
void tramp__describe_call(const coll_call_t *call, char *buf, size_t len);
/* the message of a failed call (tramp_error_take); reporter: this rank reports it */
void __attribute__((format(printf, 2, 3))) tramp__error_set(int reporter, const char *fmt, ...);
/* every rank's text into all[r * 256 ints] (a blocking round on the trampolines' tag) */
compi_status_t tramp__agree_texts(compi_comm_t *comm, const char *mine, int **all_p);
const char *tramp__text_of(const int *all, int r);

/* the blocking agreement of a miss: this rank's build (st, err; c NULL when it failed)
   of key k; COMPI_OK when every rank gave the same key and built the same closure, else
   the error, with the same message on every rank (tramp_error_take) */
compi_status_t tramp__agree(const coll_call_t *call, const tramp_key_t *k, compi_status_t st,
                            const char *err, const coll_closure_t *c);
/* the same with this rank's text (its error, or what it built) and signature given */
compi_status_t tramp__agree_sig(const coll_call_t *call, const tramp_key_t *k, compi_status_t st,
                                const char *text, uint64_t sig);

/* run Scheme closure c under agreement (what it runs, and its outcome): COMPI_OK when it
   ran alike on every rank, else the same error and message (tramp_error_take) on every
   rank */
compi_status_t tramp__agree_run(const coll_call_t *call, const tramp_key_t *k, coll_closure_t *c);
/* c in a closure that agrees on the outcome of each of its runs (a new reference; NULL
   when out of memory) */
coll_closure_t *tramp__agree_runs(coll_closure_t *c, const tramp_key_t *k);
/* c in a closure whose runs after the first (coll_check_determinism 1) end with an
   exchange of their outcome in the call's group, so that a run that fails on one rank
   fails on every rank of the group with the same message (a new reference; NULL when
   out of memory).  Built at the miss, collectively: a run allocates nothing. */
coll_closure_t *tramp__outcome_runs(coll_closure_t *c, const coll_call_t *call);

/*
 * The agreement of a nonblocking or persistent miss, as the first round of the call's own
 * schedule (on an intercommunicator, each group's, then the groups' verdicts to each
 * other, at every start of a nonblocking call).  c: this rank's closure (NULL when the
 * build failed: st, err).  Returns the closure the cache keeps for the key instead of c
 * (a new reference; NULL when out of memory): a gate whose first start is the miss (the
 * closure's schedule with the exchange put first, or the exchange alone where this rank
 * has nothing to run), whose later starts wait for the verdict, then run c or fail with
 * the verdict's message on every rank.
 */
/* A blocking call on an intercommunicator: its groups tell each other their verdicts, at
   every call (tramp_agree.c).  tramp__inter_settle: this group's status st (its message
   pending in tramp__error_set when it failed) against the other group's: COMPI_OK when
   both are good, else the same error and message on every rank of both.
   tramp__inter_wrap: c in a closure that settles before it runs c (a new reference;
   NULL when out of memory). */
compi_status_t tramp__inter_settle(compi_comm_t *comm, compi_status_t st);
coll_closure_t *tramp__inter_wrap(coll_closure_t *c);

coll_closure_t *tramp__gate_new(const coll_call_t *call, const tramp_key_t *k, compi_status_t st,
                                const char *err, coll_closure_t *c);

#endif
