/*
 * topo_errors.c -- the error classes of the topology functions and the neighbourhood
 * collectives under MPI_ERRORS_RETURN: MPI_ERR_COMM, MPI_ERR_TOPOLOGY (no topology, the
 * wrong kind, larger than the communicator), MPI_ERR_DIMS, MPI_ERR_RANK, MPI_ERR_ARG,
 * MPI_ERR_COUNT, NULL pointers and arrays (MPI_ERR_ARG); a failed constructor gives
 * MPI_COMM_NULL; after each the program goes on and the communicators still work.  Every
 * rank makes the same bad calls, so the collective ones fail everywhere before any
 * communication.
 */
#include "tests/mpi/mpitest.h"

static void expect(int rc, int want, const char *what)
{
    int cls = MPI_SUCCESS;
    if (rc != MPI_SUCCESS) {
        MPI_Error_class(rc, &cls);
    }
    CHECK(cls == want, "%s: class %d, expected %d", what, cls, want);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "topo_errors");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int p = mt_size, dims[3] = {0, 0, 0}, periods[3] = {1, 0, 1}, coords[3], r, s, t;
    int buf[64];
    MPI_Comm cart, graph, dist, out = MPI_COMM_NULL;

    /* constructors */
    int bad_dims[2] = {0, 1}, too_many[1] = {p + 1};
    expect(MPI_Cart_create(MPI_COMM_WORLD, -1, dims, periods, 0, &out), MPI_ERR_DIMS,
           "Cart_create ndims=-1");
    expect(MPI_Cart_create(MPI_COMM_WORLD, 2, bad_dims, periods, 0, &out), MPI_ERR_DIMS,
           "Cart_create dims[0]=0");
    out = MPI_COMM_WORLD;
    expect(MPI_Cart_create(MPI_COMM_WORLD, 1, too_many, periods, 0, &out), MPI_ERR_TOPOLOGY,
           "Cart_create larger than the communicator");
    CHECK(out == MPI_COMM_NULL, "a failed Cart_create left its output handle as it was");
    expect(MPI_Cart_create(MPI_COMM_NULL, 1, too_many, periods, 0, &out), MPI_ERR_COMM,
           "Cart_create on MPI_COMM_NULL");
    expect(MPI_Cart_map(MPI_COMM_WORLD, 1, too_many, periods, &r), MPI_ERR_TOPOLOGY,
           "Cart_map larger than the communicator");
    /* output pointers and the arrays whose length is an argument */
    int d1[1] = {1};
    expect(MPI_Cart_create(MPI_COMM_WORLD, 1, d1, periods, 0, NULL), MPI_ERR_ARG,
           "Cart_create without comm_cart");
    expect(MPI_Cart_create(MPI_COMM_WORLD, 2, NULL, periods, 0, &out), MPI_ERR_ARG,
           "Cart_create dims NULL");
    expect(MPI_Cart_create(MPI_COMM_WORLD, 1, d1, NULL, 0, &out), MPI_ERR_ARG,
           "Cart_create periods NULL");
    expect(MPI_Cart_map(MPI_COMM_WORLD, -2, d1, periods, &r), MPI_ERR_DIMS, "Cart_map ndims=-2");
    expect(MPI_Dims_create(6, 2, NULL), MPI_ERR_ARG, "Dims_create dims NULL");
    expect(MPI_Topo_test(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "Topo_test without status");
    expect(MPI_Graph_map(MPI_COMM_WORLD, -1, d1, d1, &r), MPI_ERR_ARG, "Graph_map nnodes=-1");
    expect(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, NULL, MPI_UNWEIGHTED, 0, d1,
                                          MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &out),
           MPI_ERR_ARG, "Dist_graph_create_adjacent sources NULL");
    expect(MPI_Dist_graph_create(MPI_COMM_WORLD, -1, d1, d1, d1, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                 &out),
           MPI_ERR_ARG, "Dist_graph_create n=-1");
    CHECK(out == MPI_COMM_NULL, "a failed constructor gave a communicator");
    int index_bad[2] = {1, 0}, index1[1] = {1}, edge_bad[1] = {5}, edge0[1] = {0};
    expect(MPI_Graph_create(MPI_COMM_WORLD, p + 1, index1, edge0, 0, &out), MPI_ERR_TOPOLOGY,
           "Graph_create nnodes > size");
    expect(MPI_Graph_create(MPI_COMM_WORLD, -1, index1, edge0, 0, &out), MPI_ERR_ARG,
           "Graph_create nnodes=-1");
    if (p >= 2) {
        expect(MPI_Graph_create(MPI_COMM_WORLD, 2, index_bad, edge0, 0, &out), MPI_ERR_ARG,
               "Graph_create decreasing index");
    }
    expect(MPI_Graph_create(MPI_COMM_WORLD, 1, index1, edge_bad, 0, &out), MPI_ERR_ARG,
           "Graph_create edge to no node");
    int src_bad[1] = {p}, neg[1] = {-1}, one[1] = {1}, zero[1] = {0};
    expect(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src_bad, MPI_UNWEIGHTED, 0, NULL,
                                          MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &out),
           MPI_ERR_RANK, "Dist_graph_create_adjacent source = size");
    expect(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, zero, MPI_UNWEIGHTED, 0, NULL,
                                          MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &out),
           MPI_ERR_ARG, "Dist_graph_create_adjacent indegree=-1");
    expect(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, zero, MPI_WEIGHTS_EMPTY, 0, NULL,
                                          MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &out),
           MPI_ERR_ARG, "Dist_graph_create_adjacent MPI_WEIGHTS_EMPTY with an edge");
    expect(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, neg, one, zero, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &out),
           MPI_ERR_RANK, "Dist_graph_create source=-1");
    expect(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, zero, neg, zero, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &out),
           MPI_ERR_ARG, "Dist_graph_create degree=-1");
    expect(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, zero, one, src_bad, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &out),
           MPI_ERR_RANK, "Dist_graph_create destination = size");
    CHECK(out == MPI_COMM_NULL, "a failed constructor set the new communicator");

    /* Dims_create */
    int d2[2] = {0, 0}, dneg[1] = {-2}, dfix[2] = {2, 0};
    expect(MPI_Dims_create(0, 2, d2), MPI_ERR_ARG, "Dims_create nnodes=0");
    expect(MPI_Dims_create(6, -1, d2), MPI_ERR_DIMS, "Dims_create ndims=-1");
    expect(MPI_Dims_create(6, 1, dneg), MPI_ERR_DIMS, "Dims_create dims[0]=-2");
    expect(MPI_Dims_create(7, 2, dfix), MPI_ERR_DIMS, "Dims_create 7 with a fixed 2");

    /* queries on the wrong kind of communicator */
    expect(MPI_Cart_coords(MPI_COMM_WORLD, 0, 3, coords), MPI_ERR_TOPOLOGY,
           "Cart_coords without a topology");
    expect(MPI_Topo_test(MPI_COMM_NULL, &t), MPI_ERR_COMM, "Topo_test(MPI_COMM_NULL)");
    MPI_OK(MPI_Topo_test(MPI_COMM_WORLD, &t));
    CHECK(t == MPI_UNDEFINED, "Topo_test(MPI_COMM_WORLD) = %d, expected MPI_UNDEFINED", t);
    expect(MPI_Neighbor_allgather(buf, 1, MPI_INT, buf + 8, 1, MPI_INT, MPI_COMM_WORLD),
           MPI_ERR_TOPOLOGY, "Neighbor_allgather without a topology");

    /* a periodic ring of all processes in dimension 0 of 3 */
    int rdims[3] = {p, 1, 1};
    MPI_OK(MPI_Cart_create(MPI_COMM_WORLD, 3, rdims, periods, 0, &cart));
    expect(MPI_Cart_coords(cart, p, 3, coords), MPI_ERR_RANK, "Cart_coords rank=size");
    expect(MPI_Cart_coords(cart, -1, 3, coords), MPI_ERR_RANK, "Cart_coords rank=-1");
    expect(MPI_Cart_coords(cart, 0, 2, coords), MPI_ERR_ARG, "Cart_coords maxdims=2 of 3");
    expect(MPI_Cart_get(cart, 1, dims, periods, coords), MPI_ERR_ARG, "Cart_get maxdims=1");
    expect(MPI_Cart_shift(cart, 3, 1, &r, &s), MPI_ERR_ARG, "Cart_shift direction=3");
    expect(MPI_Cart_shift(cart, -1, 1, &r, &s), MPI_ERR_ARG, "Cart_shift direction=-1");
    expect(MPI_Cart_shift(cart, 0, 1, &r, NULL), MPI_ERR_ARG, "Cart_shift without rank_dest");
    expect(MPI_Cartdim_get(cart, NULL), MPI_ERR_ARG, "Cartdim_get without ndims");
    expect(MPI_Cart_get(cart, -1, dims, periods, coords), MPI_ERR_ARG, "Cart_get maxdims=-1");
    expect(MPI_Cart_sub(cart, periods, NULL), MPI_ERR_ARG, "Cart_sub without newcomm");
    int off_grid[3] = {0, 5, 0};
    expect(MPI_Cart_rank(cart, off_grid, &r), MPI_ERR_ARG,
           "Cart_rank off a non-periodic dimension");
    expect(MPI_Graph_neighbors_count(cart, 0, &r), MPI_ERR_TOPOLOGY,
           "Graph_neighbors_count on a Cartesian communicator");
    expect(MPI_Dist_graph_neighbors_count(cart, &r, &s, &t), MPI_ERR_TOPOLOGY,
           "Dist_graph_neighbors_count on a Cartesian communicator");
    expect(MPI_Neighbor_allgather(MPI_IN_PLACE, 1, MPI_INT, buf, 1, MPI_INT, cart), MPI_ERR_ARG,
           "Neighbor_allgather MPI_IN_PLACE");
    expect(MPI_Neighbor_alltoall(buf, -1, MPI_INT, buf + 32, 1, MPI_INT, cart), MPI_ERR_COUNT,
           "Neighbor_alltoall sendcount=-1");
    int counts[6] = {1, 1, 1, 1, 1, -1}, displs[6] = {0, 1, 2, 3, 4, 5};
    expect(MPI_Neighbor_alltoallv(buf, counts, displs, MPI_INT, buf + 32, counts, displs,
                                  MPI_INT, cart),
           MPI_ERR_COUNT, "Neighbor_alltoallv a negative count");
    expect(MPI_Neighbor_allgather(buf, 1, MPI_DATATYPE_NULL, buf + 8, 1, MPI_INT, cart),
           MPI_ERR_TYPE, "Neighbor_allgather MPI_DATATYPE_NULL");
    /* the communicator still works */
    for (int i = 0; i < 6; i++) {
        buf[i] = mt_rank;
        buf[8 + i] = -1;
    }
    MPI_OK(MPI_Neighbor_allgather(buf, 1, MPI_INT, buf + 8, 1, MPI_INT, cart));
    /* dimension 1 is not periodic (MPI_PROC_NULL both ways), dimension 2 is: itself */
    CHECK(buf[8] == (mt_rank + p - 1) % p && buf[9] == (mt_rank + 1) % p && buf[10] == -1 &&
              buf[11] == -1 && buf[12] == mt_rank && buf[13] == mt_rank,
          "Neighbor_allgather after the errors: got %d %d %d %d %d %d", buf[8], buf[9], buf[10],
          buf[11], buf[12], buf[13]);

    /* a graph: one node per process, a ring */
    int *index = mt_malloc(sizeof(int) * (size_t)p), *edges = mt_malloc(sizeof(int) * (size_t)p);
    for (int i = 0; i < p; i++) {
        index[i] = i + 1;
        edges[i] = (i + 1) % p;
    }
    MPI_OK(MPI_Graph_create(MPI_COMM_WORLD, p, index, edges, 0, &graph));
    expect(MPI_Graph_neighbors(graph, p, 4, buf), MPI_ERR_RANK, "Graph_neighbors rank=size");
    expect(MPI_Graph_neighbors_count(graph, -1, &r), MPI_ERR_RANK,
           "Graph_neighbors_count rank=-1");
    expect(MPI_Cart_sub(graph, periods, &out), MPI_ERR_TOPOLOGY, "Cart_sub on a graph");
    expect(MPI_Cartdim_get(graph, &r), MPI_ERR_TOPOLOGY, "Cartdim_get on a graph");
    expect(MPI_Graph_get(graph, -1, 0, index, edges), MPI_ERR_ARG, "Graph_get maxindex=-1");

    MPI_OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_WEIGHTS_EMPTY, 0, NULL,
                                          MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &dist));
    expect(MPI_Graphdims_get(dist, &r, &s), MPI_ERR_TOPOLOGY, "Graphdims_get on a dist graph");
    MPI_OK(MPI_Dist_graph_neighbors_count(dist, &r, &s, &t));
    CHECK(r == 0 && s == 0 && t == 1, "empty weighted dist graph: %d %d %d", r, s, t);
    expect(MPI_Dist_graph_neighbors(dist, -1, buf, buf, 0, buf, buf), MPI_ERR_ARG,
           "Dist_graph_neighbors maxindegree=-1");
    /* no neighbours: the collectives have nothing to do */
    MPI_OK(MPI_Neighbor_alltoall(buf, 1, MPI_INT, buf + 32, 1, MPI_INT, dist));

    MPI_OK(MPI_Comm_free(&dist));
    MPI_OK(MPI_Comm_free(&graph));
    MPI_OK(MPI_Comm_free(&cart));
    free(index);
    free(edges);
    return mt_finish();
}
