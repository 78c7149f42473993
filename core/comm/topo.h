/*
 * topo.h -- process topologies: the Cartesian grid, graph or distributed graph a
 * communicator may carry (MPI_Cart_create, MPI_Graph_create, MPI_Dist_graph_create*), and
 * MPI_Dims_create's factorisation.
 *
 * A topology is built once, when its communicator is, and never changes.  Besides what
 * the queries return, it holds the calling process's neighbourhood in the order the
 * neighbourhood collectives use (MPI-4.1 section 8.6):
 *   - Cartesian: for each dimension d, the source then the destination of a shift by +1
 *     (MPI_Cart_shift(comm, d, 1, ...)), in and out alike; MPI_PROC_NULL at the edge of a
 *     non-periodic dimension;
 *   - graph: the neighbours of MPI_Graph_neighbors, in and out alike;
 *   - distributed graph: the sources and destinations of MPI_Dist_graph_neighbors.
 * Ranks are never reordered (reorder is accepted and ignored): rank r of the new
 * communicator is rank r of the old one, so coordinates follow the row-major order.
 *
 * Ownership: topologies are refcounted and immutable.  A communicator holds one reference
 * in comm->topo, released by comm_destroy; MPI_Comm_dup shares the parent's (a dup has the
 * same topology).  The arrays belong to the topology.
 */
#ifndef COMPI_TOPO_H
#define COMPI_TOPO_H

#include "core/include/compi_status.h"

#include <mpi.h>

struct compi_comm;

typedef enum topo_kind {
    TOPO_CART = MPI_CART,
    TOPO_GRAPH = MPI_GRAPH,
    TOPO_DIST_GRAPH = MPI_DIST_GRAPH
} topo_kind_t;

typedef struct comm_topo {
    topo_kind_t kind;
    int refcount;

    /* the calling process's neighbourhood: blocks of the receive buffer come from in[i],
       blocks of the send buffer go to out[j] */
    int indegree, outdegree;
    int *in, *out;

    /* Cartesian: ndims dimensions (0 is allowed: one process), dims[d] processes each,
       periods[d] 0 or 1, coords[d] of the calling process */
    int ndims;
    int *dims, *periods, *coords;

    /* graph: the whole graph as MPI_Graph_create got it (index[nnodes], edges[nedges]) */
    int nnodes, nedges;
    int *index, *edges;

    /* distributed graph: weights of in[] and out[], both NULL when unweighted */
    int weighted;
    int *inw, *outw;
} comm_topo_t;

void topo_retain(comm_topo_t *t);
void topo_release(comm_topo_t *t); /* NULL is allowed */

/* The Cartesian topology of process `rank` (0 <= rank < product of dims) in a grid of
   ndims dimensions; dims[d] >= 1 (the API checks). */
compi_status_t topo_cart_new(int ndims, const int *dims, const int *periods, int rank,
                             comm_topo_t **t_p);
/* rank -> coordinates, and back (coordinates in range, periodic ones already wrapped) */
void topo_cart_coords(const comm_topo_t *t, int rank, int *coords);
int topo_cart_rank(const comm_topo_t *t, const int *coords);
/* MPI_Cart_shift for process `rank`: MPI_PROC_NULL past a non-periodic edge */
void topo_cart_shift(const comm_topo_t *t, int rank, int dim, int disp, int *src_p, int *dst_p);

/* The graph topology of process `rank` (< nnodes); index and edges are checked by the
   API and copied. */
compi_status_t topo_graph_new(int nnodes, const int *index, const int *edges, int rank,
                              comm_topo_t **t_p);

/* A distributed graph from the calling process's own neighbours
   (MPI_Dist_graph_create_adjacent); weights may be NULL (unweighted). */
compi_status_t topo_dist_graph_new(int indegree, const int *sources, const int *sweights,
                                   int outdegree, const int *dests, const int *dweights,
                                   comm_topo_t **t_p);

/*
 * MPI_Dist_graph_create: collective over `comm` (the new communicator, before anyone uses
 * it).  Each process gives any edges of the graph: for i < n, sources[i] has degrees[i]
 * edges to the next destinations (weights alongside, or NULL).  The edges travel to both
 * their ends, so every process learns its in- and out-neighbours; edges between one pair
 * keep the order (giving process, position) on both sides.
 */
compi_status_t topo_dist_graph_exchange(struct compi_comm *comm, int n, const int *sources,
                                        const int *degrees, const int *dests,
                                        const int *weights, comm_topo_t **t_p);

/*
 * MPI_Dims_create: fills the zero entries of dims[ndims] so that the product of all entries
 * is nnodes, as close to each other as possible, in non-increasing order; non-zero entries
 * stay.  COMPI_ERR_INVALID_PARAM when it cannot be done (nnodes not divisible by the
 * product of the fixed entries, or no free entry left to absorb a quotient other than 1).
 */
compi_status_t topo_dims_create(int nnodes, int ndims, int *dims);

#endif
