/*
 * topo_api.c -- process topologies: MPI_Cart_*, MPI_Dims_create, MPI_Graph_*,
 * MPI_Dist_graph_*, MPI_Topo_test.  The entry points are generated (core/mpi/gen/topo.c:
 * the communicator, output pointers, ndims, the arrays whose length is an argument and
 * the ranks they hold); the checks that need the communicator's topology are here; the
 * topology object and its arithmetic are core/comm/topo.c.
 *
 * The constructors make the new communicator with comm_split (color 0 for the processes
 * the topology covers, MPI_UNDEFINED for the others, key = the old rank: ranks are never
 * reordered, whatever `reorder` says) and attach the topology to it.
 *
 * Error classes:
 *   MPI_ERR_COMM      not a communicator
 *   MPI_ERR_TOPOLOGY  the communicator has no topology, or not the kind the call needs;
 *                     a topology with more processes than the communicator
 *   MPI_ERR_DIMS      ndims < 0, a dimension < 1 (Cart_create, Cart_map) or < 0
 *                     (Dims_create), dims that MPI_Dims_create cannot complete
 *   MPI_ERR_RANK      a rank outside the communicator or graph (Cart_coords,
 *                     Graph_neighbors(_count), the sources and destinations of a
 *                     distributed graph)
 *   MPI_ERR_ARG       anything else: NULL arrays, a too small maxdims, a direction that is
 *                     not a dimension, non-periodic coordinates off the grid, a bad graph
 *                     index or edge, negative degrees or weights, nnodes < 1
 */
#include "core/comm/comm.h"
#include "core/comm/topo.h"
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

#include <stdlib.h>

/* ---- shared checks ------------------------------------------------------------------ */

/* a communicator a topology can be made from or mapped on: an intracommunicator */
static int intra_comm(const char *fn, compi_comm_t *c)
{
    if (comm_is_inter(c)) {
        return mpi_err_raise(c, MPI_ERR_COMM, fn,
                             "%s is an intercommunicator; topologies need an intracommunicator",
                             c->name[0] ? c->name : "the communicator");
    }
    return MPI_SUCCESS;
}

static const char *topo_name(const compi_comm_t *c)
{
    if (c->topo == NULL) {
        return "no topology";
    }
    switch (c->topo->kind) {
    case TOPO_CART:
        return "a Cartesian topology";
    case TOPO_GRAPH:
        return "a graph topology";
    default:
        return "a distributed graph topology";
    }
}

/* the communicator must carry a topology of `kind` */
static int topo_comm(const char *fn, compi_comm_t *c, topo_kind_t kind)
{
    static const char *const want[] = {[TOPO_CART] = "a Cartesian topology",
                                       [TOPO_GRAPH] = "a graph topology",
                                       [TOPO_DIST_GRAPH] = "a distributed graph topology"};
    if (c->topo == NULL || c->topo->kind != kind) {
        return mpi_err_raise(c, MPI_ERR_TOPOLOGY, fn, "%s has %s, not %s",
                             c->name[0] ? c->name : "the communicator", topo_name(c), want[kind]);
    }
    return MPI_SUCCESS;
}

static int null_arg(compi_comm_t *c, const char *fn, const char *what)
{
    return mpi_err_raise(c, MPI_ERR_ARG, fn, "%s is NULL", what);
}

static int failed(compi_comm_t *c, const char *fn, compi_status_t st)
{
    return mpi_err_raise(c, mpi_err_class_of(st), fn, "cannot create the communicator: %s",
                         compi_status_string(st));
}

/* the dims of a grid (Cart_create, Cart_map; ndims and the array checked by the entry
   point): *n_p gets their product */
static int grid_check(compi_comm_t *c, const char *fn, int ndims, const int *dims, int *n_p)
{
    long n = 1;
    for (int d = 0; d < ndims; d++) {
        if (dims[d] < 1) {
            return mpi_err_raise(c, MPI_ERR_DIMS, fn, "dims[%d]=%d is not positive", d, dims[d]);
        }
        n *= dims[d];
        if (n > c->size) {
            return mpi_err_raise(c, MPI_ERR_TOPOLOGY, fn,
                                 "the grid has more processes than the communicator (%d)", c->size);
        }
    }
    *n_p = (int)n;
    return MPI_SUCCESS;
}

/* the first `n` processes of c get a new communicator (in *nc_p), the others NULL */
static int first_n(compi_comm_t *c, const char *fn, int n, compi_comm_t **nc_p)
{
    compi_status_t st = comm_split(c, c->rank < n ? 0 : MPI_UNDEFINED, c->rank, nc_p);
    return st == COMPI_OK ? MPI_SUCCESS : failed(c, fn, st);
}

/* attach t to nc and hand nc out; on failure (st) nc is released */
static int attach(compi_comm_t *c, const char *fn, compi_comm_t *nc, comm_topo_t *t,
                  compi_status_t st, MPI_Comm *newcomm)
{
    if (st != COMPI_OK) {
        comm_release(nc);
        *newcomm = MPI_COMM_NULL;
        return failed(c, fn, st);
    }
    nc->topo = t;
    *newcomm = nc->handle;
    return MPI_SUCCESS;
}

/* ---- Cartesian ------------------------------------------------------------------------ */

static int cart_create_impl(compi_comm_t *c, int ndims, const int dims[], const int periods[],
                            int reorder, MPI_Comm *comm_cart, const char *fn)
{
    compi_comm_t *nc = NULL;
    comm_topo_t *t = NULL;
    int n = 0;
    (void)reorder;
    int rc = intra_comm(fn, c);
    if (rc == MPI_SUCCESS) {
        rc = grid_check(c, fn, ndims, dims, &n);
    }
    if (rc == MPI_SUCCESS) {
        rc = first_n(c, fn, n, &nc);
    }
    if (rc != MPI_SUCCESS) {
        *comm_cart = MPI_COMM_NULL; /* a failed constructor gives the null handle */
        return rc;
    }
    if (nc == NULL) {
        *comm_cart = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    compi_status_t st = topo_cart_new(ndims, dims, periods, nc->rank, &t);
    return attach(c, fn, nc, t, st, comm_cart);
}

static int dims_create_impl(int nnodes, int ndims, int dims[], const char *fn)
{
    if (nnodes < 1) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "nnodes=%d is not positive", nnodes);
    }
    for (int d = 0; d < ndims; d++) {
        if (dims[d] < 0) {
            return mpi_err_raise(NULL, MPI_ERR_DIMS, fn, "dims[%d]=%d is negative", d, dims[d]);
        }
    }
    compi_status_t st = topo_dims_create(nnodes, ndims, dims);
    if (st == COMPI_ERR_INVALID_PARAM) {
        return mpi_err_raise(NULL, MPI_ERR_DIMS, fn,
                             "%d processes cannot fill %d dimensions with the fixed entries "
                             "given",
                             nnodes, ndims);
    }
    if (st != COMPI_OK) {
        return mpi_err_raise(NULL, mpi_err_class_of(st), fn, "%s", compi_status_string(st));
    }
    return MPI_SUCCESS;
}

static int cartdim_get_impl(compi_comm_t *c, int *ndims, const char *fn)
{
    int rc = topo_comm(fn, c, TOPO_CART);
    if (rc == MPI_SUCCESS) {
        *ndims = c->topo->ndims;
    }
    return rc;
}

static int cart_get_impl(compi_comm_t *c, int maxdims, int dims[], int periods[], int coords[],
                         const char *fn)
{
    int rc = topo_comm(fn, c, TOPO_CART);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    const comm_topo_t *t = c->topo;
    if (maxdims < t->ndims) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "maxdims=%d is less than the %d dimensions",
                             maxdims, t->ndims);
    }
    if (t->ndims > 0 && (dims == NULL || periods == NULL || coords == NULL)) {
        return null_arg(c, fn, dims == NULL ? "dims" : periods == NULL ? "periods" : "coords");
    }
    for (int d = 0; d < t->ndims; d++) {
        dims[d] = t->dims[d];
        periods[d] = t->periods[d];
        coords[d] = t->coords[d];
    }
    return MPI_SUCCESS;
}

static int cart_rank_impl(compi_comm_t *c, const int coords[], int *rank, const char *fn)
{
    int stack[16], *wrapped = stack;
    int rc = topo_comm(fn, c, TOPO_CART);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    const comm_topo_t *t = c->topo;
    if (t->ndims > 0 && coords == NULL) {
        return null_arg(c, fn, "coords");
    }
    if (t->ndims > 16 && (wrapped = malloc(sizeof(int) * (size_t)t->ndims)) == NULL) {
        return mpi_err_raise(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    for (int d = 0; d < t->ndims && rc == MPI_SUCCESS; d++) {
        int x = coords[d], n = t->dims[d];
        if (t->periods[d]) {
            x %= n;
            x += x < 0 ? n : 0;
        } else if (x < 0 || x >= n) {
            rc = mpi_err_raise(c, MPI_ERR_ARG, fn,
                               "coords[%d]=%d is off the grid (dimension %d is not periodic, "
                               "0..%d)",
                               d, x, d, n - 1);
        }
        wrapped[d] = x;
    }
    if (rc == MPI_SUCCESS) {
        *rank = topo_cart_rank(t, wrapped);
    }
    if (wrapped != stack) {
        free(wrapped);
    }
    return rc;
}

static int cart_coords_impl(compi_comm_t *c, int rank, int maxdims, int coords[], const char *fn)
{
    int rc = topo_comm(fn, c, TOPO_CART);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (rank < 0 || rank >= c->size) {
        return mpi_err_raise(c, MPI_ERR_RANK, fn, "rank=%d is not in [0, %d)", rank, c->size);
    }
    if (maxdims < c->topo->ndims) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "maxdims=%d is less than the %d dimensions",
                             maxdims, c->topo->ndims);
    }
    if (c->topo->ndims > 0 && coords == NULL) {
        return null_arg(c, fn, "coords");
    }
    topo_cart_coords(c->topo, rank, coords);
    return MPI_SUCCESS;
}

static int cart_shift_impl(compi_comm_t *c, int direction, int disp, int *rank_source,
                           int *rank_dest, const char *fn)
{
    int rc = topo_comm(fn, c, TOPO_CART);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (direction < 0 || direction >= c->topo->ndims) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "direction=%d is not a dimension (0..%d)",
                             direction, c->topo->ndims - 1);
    }
    topo_cart_shift(c->topo, c->rank, direction, disp, rank_source, rank_dest);
    return MPI_SUCCESS;
}

static int cart_sub_impl(compi_comm_t *c, const int remain_dims[], MPI_Comm *newcomm,
                         const char *fn)
{
    compi_comm_t *nc = NULL;
    comm_topo_t *t = NULL;
    int dims[64], periods[64], k = 0, color = 0, key = 0;
    int rc = topo_comm(fn, c, TOPO_CART);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    const comm_topo_t *ct = c->topo;
    if (ct->ndims > 0 && remain_dims == NULL) {
        return null_arg(c, fn, "remain_dims");
    }
    if (ct->ndims > 64) {
        return mpi_err_raise(c, MPI_ERR_DIMS, fn, "more than 64 dimensions");
    }
    /* color: where the process sits in the dropped dimensions; key: in the kept ones */
    for (int d = 0; d < ct->ndims; d++) {
        if (remain_dims[d]) {
            dims[k] = ct->dims[d];
            periods[k++] = ct->periods[d];
            key = key * ct->dims[d] + ct->coords[d];
        } else {
            color = color * ct->dims[d] + ct->coords[d];
        }
    }
    compi_status_t st = comm_split(c, color, key, &nc);
    if (st != COMPI_OK) {
        return failed(c, fn, st);
    }
    if (nc == NULL) { /* cannot happen: every process has a color */
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    st = topo_cart_new(k, dims, periods, nc->rank, &t);
    return attach(c, fn, nc, t, st, newcomm);
}

static int cart_map_impl(compi_comm_t *c, int ndims, const int dims[], const int periods[],
                         int *newrank, const char *fn)
{
    int n = 0;
    (void)periods;
    int rc = intra_comm(fn, c);
    if (rc == MPI_SUCCESS) {
        rc = grid_check(c, fn, ndims, dims, &n);
    }
    if (rc == MPI_SUCCESS) {
        *newrank = c->rank < n ? c->rank : MPI_UNDEFINED;
    }
    return rc;
}

/* ---- graphs ----------------------------------------------------------------------------- */

/* nnodes, index and edges of MPI_Graph_create and MPI_Graph_map */
static int graph_check(compi_comm_t *c, const char *fn, int nnodes, const int *index,
                       const int *edges, int zero_ok)
{
    if (nnodes < (zero_ok ? 0 : 1)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "nnodes=%d is %s", nnodes,
                             zero_ok ? "negative" : "not positive");
    }
    if (nnodes > c->size) {
        return mpi_err_raise(c, MPI_ERR_TOPOLOGY, fn,
                             "nnodes=%d is more than the communicator's %d processes", nnodes,
                             c->size);
    }
    if (nnodes > 0 && index == NULL) {
        return null_arg(c, fn, "index");
    }
    for (int i = 0; i < nnodes; i++) {
        if (index[i] < (i > 0 ? index[i - 1] : 0)) {
            return mpi_err_raise(c, MPI_ERR_ARG, fn,
                                 "index[%d]=%d is less than the entry before it (or 0)", i,
                                 index[i]);
        }
    }
    int nedges = nnodes > 0 ? index[nnodes - 1] : 0;
    if (nedges > 0 && edges == NULL) {
        return null_arg(c, fn, "edges");
    }
    for (int e = 0; e < nedges; e++) {
        if (edges[e] < 0 || edges[e] >= nnodes) {
            return mpi_err_raise(c, MPI_ERR_ARG, fn, "edges[%d]=%d is not a node (0..%d)", e,
                                 edges[e], nnodes - 1);
        }
    }
    return MPI_SUCCESS;
}

static int graph_create_impl(compi_comm_t *c, int nnodes, const int index[], const int edges[],
                             int reorder, MPI_Comm *comm_graph, const char *fn)
{
    compi_comm_t *nc = NULL;
    comm_topo_t *t = NULL;
    (void)reorder;
    int rc = intra_comm(fn, c);
    if (rc == MPI_SUCCESS) {
        rc = graph_check(c, fn, nnodes, index, edges, 1);
    }
    if (rc == MPI_SUCCESS) {
        rc = first_n(c, fn, nnodes, &nc);
    }
    if (rc != MPI_SUCCESS) {
        *comm_graph = MPI_COMM_NULL; /* a failed constructor gives the null handle */
        return rc;
    }
    if (nc == NULL) {
        *comm_graph = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    compi_status_t st = topo_graph_new(nnodes, index, edges, nc->rank, &t);
    return attach(c, fn, nc, t, st, comm_graph);
}

static int graph_map_impl(compi_comm_t *c, int nnodes, const int index[], const int edges[],
                          int *newrank, const char *fn)
{
    int rc = intra_comm(fn, c);
    if (rc == MPI_SUCCESS) {
        rc = graph_check(c, fn, nnodes, index, edges, 0);
    }
    if (rc == MPI_SUCCESS) {
        *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
    }
    return rc;
}

static int graphdims_get_impl(compi_comm_t *c, int *nnodes, int *nedges, const char *fn)
{
    int rc = topo_comm(fn, c, TOPO_GRAPH);
    if (rc == MPI_SUCCESS) {
        *nnodes = c->topo->nnodes;
        *nedges = c->topo->nedges;
    }
    return rc;
}

static int graph_get_impl(compi_comm_t *c, int maxindex, int maxedges, int index[], int edges[],
                          const char *fn)
{
    int rc = topo_comm(fn, c, TOPO_GRAPH);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    const comm_topo_t *t = c->topo;
    if ((maxindex > 0 && t->nnodes > 0 && index == NULL) ||
        (maxedges > 0 && t->nedges > 0 && edges == NULL)) {
        return null_arg(c, fn, index == NULL ? "index" : "edges");
    }
    /* as much as the arrays hold */
    for (int i = 0; i < t->nnodes && i < maxindex; i++) {
        index[i] = t->index[i];
    }
    for (int e = 0; e < t->nedges && e < maxedges; e++) {
        edges[e] = t->edges[e];
    }
    return MPI_SUCCESS;
}

/* the neighbours of node `rank` of a graph: edges[*first .. *first + *n) */
static int graph_node(compi_comm_t *c, const char *fn, int rank, int *first, int *n)
{
    const comm_topo_t *t = c->topo;
    if (rank < 0 || rank >= t->nnodes) {
        return mpi_err_raise(c, MPI_ERR_RANK, fn, "rank=%d is not a node of the graph (0..%d)",
                             rank, t->nnodes - 1);
    }
    *first = rank > 0 ? t->index[rank - 1] : 0;
    *n = t->index[rank] - *first;
    return MPI_SUCCESS;
}

static int graph_neighbors_count_impl(compi_comm_t *c, int rank, int *nneighbors, const char *fn)
{
    int first, n;
    int rc = topo_comm(fn, c, TOPO_GRAPH);
    if (rc == MPI_SUCCESS) {
        rc = graph_node(c, fn, rank, &first, &n);
    }
    if (rc == MPI_SUCCESS) {
        *nneighbors = n;
    }
    return rc;
}

static int graph_neighbors_impl(compi_comm_t *c, int rank, int maxneighbors, int neighbors[],
                                const char *fn)
{
    int first, n;
    int rc = topo_comm(fn, c, TOPO_GRAPH);
    if (rc == MPI_SUCCESS) {
        rc = graph_node(c, fn, rank, &first, &n);
    }
    if (rc == MPI_SUCCESS && maxneighbors > 0 && n > 0 && neighbors == NULL) {
        rc = null_arg(c, fn, "neighbors");
    }
    for (int i = 0; rc == MPI_SUCCESS && i < n && i < maxneighbors; i++) {
        neighbors[i] = c->topo->edges[first + i];
    }
    return rc;
}

/* ---- distributed graphs ---------------------------------------------------------------- */

/* n weights: MPI_UNWEIGHTED gives *w_p = NULL; MPI_WEIGHTS_EMPTY only for n = 0 */
static int weight_list(compi_comm_t *c, const char *fn, const char *what, const int *w, int n,
                       const int **w_p)
{
    static const int empty[1] = {0};
    *w_p = NULL;
    if (w == MPI_UNWEIGHTED) {
        return MPI_SUCCESS;
    }
    if (w == MPI_WEIGHTS_EMPTY || (w == NULL && n == 0)) {
        if (n > 0) {
            return mpi_err_raise(c, MPI_ERR_ARG, fn, "%s is MPI_WEIGHTS_EMPTY with %d edges", what,
                                 n);
        }
        *w_p = empty;
        return MPI_SUCCESS;
    }
    if (w == NULL) {
        return null_arg(c, fn, what);
    }
    for (int i = 0; i < n; i++) {
        if (w[i] < 0) {
            return mpi_err_raise(c, MPI_ERR_ARG, fn, "%s[%d]=%d is negative", what, i, w[i]);
        }
    }
    *w_p = w;
    return MPI_SUCCESS;
}

static int degree_check(compi_comm_t *c, const char *fn, const char *what, int n)
{
    if (n < 0) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "%s=%d is negative", what, n);
    }
    return MPI_SUCCESS;
}

static int dist_graph_create_adjacent_impl(compi_comm_t *c, int indegree, const int sources[],
                                           const int sourceweights[], int outdegree,
                                           const int destinations[], const int destweights[],
                                           MPI_Info info, int reorder, MPI_Comm *comm_dist_graph,
                                           const char *fn)
{
    compi_comm_t *nc = NULL;
    comm_topo_t *t = NULL;
    const int *sw = NULL, *dw = NULL;
    (void)info; /* no hint changes anything yet */
    (void)reorder;
    int rc = intra_comm(fn, c);
    if (rc == MPI_SUCCESS) {
        rc = weight_list(c, fn, "sourceweights", sourceweights, indegree, &sw);
    }
    if (rc == MPI_SUCCESS) {
        rc = weight_list(c, fn, "destweights", destweights, outdegree, &dw);
    }
    if (rc == MPI_SUCCESS) {
        rc = first_n(c, fn, c->size, &nc);
    }
    if (rc != MPI_SUCCESS) {
        *comm_dist_graph = MPI_COMM_NULL; /* a failed constructor gives the null handle */
        return rc;
    }
    compi_status_t st = topo_dist_graph_new(indegree, sources, sw, outdegree, destinations, dw, &t);
    return attach(c, fn, nc, t, st, comm_dist_graph);
}

static int dist_graph_create_impl(compi_comm_t *c, int n, const int sources[], const int degrees[],
                                  const int destinations[], const int weights[], MPI_Info info,
                                  int reorder, MPI_Comm *comm_dist_graph, const char *fn)
{
    compi_comm_t *nc = NULL;
    comm_topo_t *t = NULL;
    const int *w = NULL;
    long nedges = 0;
    (void)info;
    (void)reorder;
    int rc = intra_comm(fn, c);
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
        rc = degree_check(c, fn, "a degree", degrees[i]);
        nedges += degrees[i];
        if (rc == MPI_SUCCESS && nedges > 0x7fffffffL) {
            rc = mpi_err_raise(c, MPI_ERR_ARG, fn, "the degrees add up to more than an int");
        }
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_ranks(c, (int)nedges, destinations, "destinations", fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = weight_list(c, fn, "weights", weights, (int)nedges, &w);
    }
    if (rc == MPI_SUCCESS) {
        rc = first_n(c, fn, c->size, &nc);
    }
    if (rc != MPI_SUCCESS) {
        *comm_dist_graph = MPI_COMM_NULL; /* a failed constructor gives the null handle */
        return rc;
    }
    /* every process takes part in the exchange, on the new communicator */
    compi_status_t st = topo_dist_graph_exchange(nc, n, sources, degrees, destinations, w, &t);
    return attach(c, fn, nc, t, st, comm_dist_graph);
}

static int dist_graph_neighbors_count_impl(compi_comm_t *c, int *indegree, int *outdegree,
                                           int *weighted, const char *fn)
{
    int rc = topo_comm(fn, c, TOPO_DIST_GRAPH);
    if (rc == MPI_SUCCESS) {
        *indegree = c->topo->indegree;
        *outdegree = c->topo->outdegree;
        *weighted = c->topo->weighted;
    }
    return rc;
}

static int dist_graph_neighbors_impl(compi_comm_t *c, int maxindegree, int sources[],
                                     int sourceweights[], int maxoutdegree, int destinations[],
                                     int destweights[], const char *fn)
{
    int rc = topo_comm(fn, c, TOPO_DIST_GRAPH);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    const comm_topo_t *t = c->topo;
    int nin = t->indegree < maxindegree ? t->indegree : maxindegree;
    int nout = t->outdegree < maxoutdegree ? t->outdegree : maxoutdegree;
    if ((nin > 0 && sources == NULL) || (nout > 0 && destinations == NULL)) {
        return null_arg(c, fn, sources == NULL ? "sources" : "destinations");
    }
    int win = t->weighted && sourceweights != MPI_UNWEIGHTED && sourceweights != NULL &&
              sourceweights != MPI_WEIGHTS_EMPTY;
    int wout = t->weighted && destweights != MPI_UNWEIGHTED && destweights != NULL &&
               destweights != MPI_WEIGHTS_EMPTY;
    for (int i = 0; i < nin; i++) {
        sources[i] = t->in[i];
        if (win) {
            sourceweights[i] = t->inw[i];
        }
    }
    for (int i = 0; i < nout; i++) {
        destinations[i] = t->out[i];
        if (wout) {
            destweights[i] = t->outw[i];
        }
    }
    return MPI_SUCCESS;
}

static int topo_test_impl(compi_comm_t *c, int *status, const char *fn)
{
    (void)fn;
    *status = c->topo != NULL ? (int)c->topo->kind : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

#include "core/mpi/gen/topo.c"
