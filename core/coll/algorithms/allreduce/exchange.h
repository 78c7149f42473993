/*
 * exchange.h -- the exchange allreduce: groups reduce locally, their coordinators swap
 * partial results all-to-all (each wide-area link crossed once per direction, all at
 * once), combine them in group order, and broadcast locally (allreduce/exchange.c).
 *
 * The group structure is a plain value, like a tree (tree.h): for every rank its group,
 * for every group its coordinator, and a forest of local trees (parent -1 at each
 * coordinator, every other rank's parent in its own group, children in serving order).
 * Creators build it in Scheme ((compi hierarchy) exchange-closure); the bridge converts it
 * with coll_exchange_from_parents(), checks it with coll_exchange_check_call() and wraps
 * it with coll_closure_exchange().
 *
 * Ownership: a coll_exchange_t owns its arrays and its forest; coll_closure_exchange()
 * takes it over (the closure frees it).
 */
#ifndef COMPI_COLL_EXCHANGE_H
#define COMPI_COLL_EXCHANGE_H

#include "core/coll/coll.h"
#include "topologies/tree.h"

typedef struct coll_exchange {
    int size;
    int ngroups;         /* partials are combined in group order 0, 1, ... */
    int *group_of;       /* [size] */
    int *coord;          /* [ngroups] */
    topo_tree_t *forest; /* size ranks; parent -1 exactly at the coordinators */
} coll_exchange_t;

/* From the arrays alone (copied); order[] is a permutation of the ranks giving the
   children's serving order, as for topo_tree_from_parents.  Nothing is validated but
   the sizes: a bad structure can be built and given to coll_exchange_validate. */
compi_status_t coll_exchange_from_parents(int size, int ngroups, const int *group_of,
                                          const int *coord, const int *parent, const int *order,
                                          coll_exchange_t **x_p);
void coll_exchange_free(coll_exchange_t *x);

/* COMPI_OK, or COMPI_ERR_INVALID_PARAM with the reason in why ("rank 5 has its parent 2
   in group 0, not in its own group 1"): every rank in one group 0..ngroups-1, every
   group's coordinator in it with parent -1, every other rank's parent in its own group,
   no cycle, children lists that agree with the parents. */
compi_status_t coll_exchange_validate(const coll_exchange_t *x, char *why, size_t len);

/* 1 when the result is in rank order, which a non-commutative op needs: the groups are
   contiguous rank ranges in increasing order and every subtree of every local tree
   covers a contiguous range of ranks; 0 otherwise (-1: no memory).  x must be valid. */
int coll_exchange_is_ordered(const coll_exchange_t *x);

/* Can `x` serve `call`?  An allreduce, the communicator's size, a valid structure, and an
   ordered one for a non-commutative op.  For the bridge, at closure-build time; the
   closure checks the same at run time (and returns before sending anything). */
compi_status_t coll_exchange_check_call(const coll_exchange_t *x, const coll_call_t *call,
                                        char *why, size_t len);

/*
 * The allreduce closure over `x`, its local phases pipelined in segments of
 * params->segsize bytes (0: whole messages).  Takes over `x` (also on failure); NULL
 * when x is invalid (COMPI_ERR_INVALID_PARAM in *st_p) or memory runs out.  The name is
 * "allreduce:exchange(<n> ranks,<g> groups,#<hash of the structure>[,segsize=<s>])", so
 * the closure's signature changes with the groups, coordinators and local trees.
 */
coll_closure_t *coll_closure_exchange(coll_exchange_t *x, const coll_params_t *params,
                                      compi_status_t *st_p);

#endif
