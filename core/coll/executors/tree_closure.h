/*
 * tree_closure.h -- closures that run any tree (topologies/tree.h) with the tree engine
 * of this folder: the way creators' trees, and the native tree algorithms (coll_algo_t
 * .tree, through coll_closure_algo), become native closures.
 *
 * Ownership: coll_closure_tree() takes the tree over (the closure frees it).
 */
#ifndef COMPI_COLL_TREE_CLOSURE_H
#define COMPI_COLL_TREE_CLOSURE_H

#include "core/coll/coll.h"
#include "topologies/tree.h"

/* Can `tree` serve `call`?  The communicator's size, the root of rooted kinds, and an
   ordered tree for non-commutative reductions.  COMPI_OK, or COMPI_ERR_INVALID_PARAM
   with the reason in why.  For creators and the bridge, at closure-build time; the
   closures check the same at run time (and return before sending anything). */
compi_status_t coll_tree_check_call(const topo_tree_t *tree, const coll_call_t *call, char *why,
                                    size_t len);

/*
 * A closure that runs `kind` (barrier, bcast, reduce, allreduce, gather, scatter,
 * allgather) over `tree`, pipelined in segments of params->segsize bytes where the kind
 * allows it (bcast, reduce, allreduce, and the bcast half of allgather), as one schedule
 * (tree_exec_sched.c): blocking calls run it to completion through the closure's fn,
 * nonblocking and persistent ones start it through its start.  Takes over `tree` (also
 * on failure).  NULL when the kind has no tree schedule
 * (COMPI_ERR_UNSUPPORTED in *st_p), the tree is invalid (COMPI_ERR_INVALID_PARAM) or
 * memory runs out.  The name is "<kind>:tree(<n> ranks,root <r>,depth <d>,#<hash of the
 * shape>[,segsize=<s>])", so the closure's signature changes with the tree's shape.
 */
coll_closure_t *coll_closure_tree(coll_kind_t kind, topo_tree_t *tree,
                                  const coll_params_t *params, compi_status_t *st_p);

/* The same with a host level (tree_host.c) where `call`'s key can take one: group_of[r]
   names the innermost group of every rank r, groups of ranks that share memory; the
   tree's only edges between groups must join their coordinators (one per group), as in
   hierarchical and MagPIe trees.  Blocking barrier, bcast, and commutative reduce and
   allreduce then run each group's part through a segment over that group instead of
   messages, and the name ends ",host-shm)".  group_of NULL: coll_closure_tree. */
coll_closure_t *coll_closure_tree_host(coll_kind_t kind, topo_tree_t *tree,
                                       const coll_params_t *params, const int *group_of,
                                       const coll_call_t *call, compi_status_t *st_p);

/* The tree closure `c' runs, looking through profiling and tracing wrappers (for
   coll_verbose 2, which prints its edges); NULL when `c' runs no tree. */
const topo_tree_t *coll_closure_tree_of(const coll_closure_t *c);

struct coll_sched;
/* The steps of tree closure `c` for `call` (of c's kind) added to schedule `s`, for an
   algorithm that runs a tree collective as one phase of its own schedule
   (reduce_scatter/reduce_scatterv.c); a call the tree cannot serve fails the schedule.
   The schedule does not need `c` once this returns. */
void coll_tree_sched_add(coll_closure_t *c, const coll_call_t *call, struct coll_sched *s);

#endif
