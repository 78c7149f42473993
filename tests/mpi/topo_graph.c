/*
 * topo_graph.c -- graph and distributed-graph topologies.
 *
 *   - MPI_Graph_create over all ranks and over all but one: a ring with self loops on
 *     some nodes and a doubled chord (repeated edges); Topo_test, Graphdims_get,
 *     Graph_get, Graph_neighbors(_count) of every node, Graph_map, Comm_dup;
 *   - MPI_Dist_graph_create_adjacent on a random directed graph (self edges, repeated
 *     edges, isolated processes), sources in a shuffled order, weighted and not:
 *     Dist_graph_neighbors(_count) give back what was passed;
 *   - MPI_Dist_graph_create on the same graph, every edge given by some other process:
 *     each process learns its in- and out-edges with their weights;
 *   - on each, every neighbourhood collective against a local reference (topo_check.h):
 *     the k-th edge from q to p carries q's k-th send block to p into p's k-th receive
 *     block from q.
 */
#include "tests/mpi/topo_check.h"

/* ---- the random graph every rank builds alike ----------------------------------------- */

static unsigned long lcg_state;
static unsigned lcg(void)
{
    lcg_state = lcg_state * 6364136223846793005ul + 1442695040888963407ul;
    return (unsigned)(lcg_state >> 33);
}

typedef struct graph {
    int n, m;          /* processes, edges */
    int *src, *dst;    /* [m], edges in order of source then position */
    int *odeg, *ofirst; /* [n]: out-edges of r are edges ofirst[r] .. + odeg[r] */
} graph_t;

static void graph_make(graph_t *g, int n, unsigned long seed)
{
    lcg_state = seed;
    g->n = n;
    g->m = 0;
    g->odeg = mt_malloc(sizeof(int) * (size_t)n);
    g->ofirst = mt_malloc(sizeof(int) * (size_t)n);
    g->src = mt_malloc(sizeof(int) * (size_t)n * 5);
    g->dst = mt_malloc(sizeof(int) * (size_t)n * 5);
    for (int r = 0; r < n; r++) {
        /* rank 1 has no out-edges, so some process may well be isolated */
        g->odeg[r] = r == 1 ? 0 : (int)(lcg() % 5);
        g->ofirst[r] = g->m;
        for (int j = 0; j < g->odeg[r]; j++) {
            g->src[g->m] = r;
            /* a repeated edge now and then, and self edges */
            g->dst[g->m] = j > 0 && lcg() % 4 == 0 ? g->dst[g->m - 1] : (int)(lcg() % (unsigned)n);
            g->m++;
        }
    }
}

static void graph_free(graph_t *g)
{
    free(g->odeg);
    free(g->ofirst);
    free(g->src);
    free(g->dst);
}

/* index in q's out-list `outs` (deg entries) of its k-th edge to me, or -1 */
static int kth_to(const int *outs, int deg, int me, int k)
{
    for (int j = 0; j < deg; j++) {
        if (outs[j] == me && k-- == 0) {
            return j;
        }
    }
    return -1;
}

/* src_block[i] for in-list `in`: the k-th edge from q is q's k-th send block to me */
static void match_blocks(int me, const int *in, int nin, const int *const *outs, const int *degs,
                         int *src_block, const char *what)
{
    for (int i = 0; i < nin; i++) {
        int q = in[i], k = 0;
        for (int x = 0; x < i; x++) {
            k += in[x] == q;
        }
        src_block[i] = kth_to(outs[q], degs[q], me, k);
        CHECK(src_block[i] >= 0, "%s: in-edge %d from %d has no out-edge at the sender", what,
              i, q);
        if (src_block[i] < 0) {
            src_block[i] = 0;
        }
    }
}

/* ---- MPI_Graph_create ------------------------------------------------------------------ */

static void graph_topology(int nnodes)
{
    int wrank, h = nnodes / 2;
    MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &wrank));
    /* neighbours of r: r-1, r+1, r itself when r % 3 == 0, and the chord r + n/2 twice
       (n >= 4 and even); symmetric as multisets, as neighbourhood collectives need */
    int *index = mt_malloc(sizeof(int) * (size_t)nnodes), *edges = mt_malloc(sizeof(int) * (size_t)nnodes * 5);
    int m = 0;
    for (int r = 0; r < nnodes; r++) {
        edges[m++] = (r + nnodes - 1) % nnodes;
        edges[m++] = (r + 1) % nnodes;
        if (r % 3 == 0) {
            edges[m++] = r;
        }
        if (nnodes >= 4 && nnodes % 2 == 0) {
            edges[m++] = (r + h) % nnodes;
            edges[m++] = (r + h) % nnodes;
        }
        index[r] = m;
    }
    char what[64];
    snprintf(what, sizeof(what), "graph of %d nodes", nnodes);

    int mapped;
    MPI_OK(MPI_Graph_map(MPI_COMM_WORLD, nnodes, index, edges, &mapped));
    CHECK(mapped == (wrank < nnodes ? wrank : MPI_UNDEFINED), "%s: Graph_map gave %d", what,
          mapped);
    MPI_Comm g, dup;
    MPI_OK(MPI_Graph_create(MPI_COMM_WORLD, nnodes, index, edges, 1, &g));
    if (wrank >= nnodes) {
        CHECK(g == MPI_COMM_NULL, "%s: rank %d outside the graph got a communicator", what,
              wrank);
        goto out;
    }
    MPI_OK(MPI_Comm_dup(g, &dup));
    for (int pass = 0; pass < 2; pass++) {
        MPI_Comm c = pass ? dup : g;
        int status, nn, ne, me;
        MPI_OK(MPI_Comm_rank(c, &me));
        CHECK(me == wrank, "%s: rank %d, expected %d (no reordering)", what, me, wrank);
        MPI_OK(MPI_Topo_test(c, &status));
        CHECK(status == MPI_GRAPH, "%s: Topo_test gave %d", what, status);
        MPI_OK(MPI_Graphdims_get(c, &nn, &ne));
        CHECK(nn == nnodes && ne == m, "%s: Graphdims_get gave %d nodes %d edges, expected %d %d",
              what, nn, ne, nnodes, m);
        int *gi = mt_ibuf(1, nnodes), *ge = mt_ibuf(1, m);
        MPI_OK(MPI_Graph_get(c, nnodes, m, gi, ge));
        for (int r = 0; r < nnodes; r++) {
            CHECK(gi[r] == index[r], "%s: Graph_get index[%d] = %d", what, r, gi[r]);
        }
        for (int e = 0; e < m; e++) {
            CHECK(ge[e] == edges[e], "%s: Graph_get edges[%d] = %d", what, e, ge[e]);
        }
        CHECK(gi[nnodes] == MT_SENTINEL && ge[m] == MT_SENTINEL,
              "%s: Graph_get wrote past maxindex or maxedges", what);
        const int **outs = mt_malloc(sizeof(int *) * (size_t)nnodes);
        int *degs = mt_malloc(sizeof(int) * (size_t)nnodes);
        for (int r = 0; r < nnodes; r++) {
            int cnt, first = r ? index[r - 1] : 0;
            int *nb = mt_ibuf(1, 8);
            MPI_OK(MPI_Graph_neighbors_count(c, r, &cnt));
            CHECK(cnt == index[r] - first, "%s: Graph_neighbors_count(%d) = %d", what, r, cnt);
            MPI_OK(MPI_Graph_neighbors(c, r, 8, nb));
            for (int i = 0; i < cnt && i < 8; i++) {
                CHECK(nb[i] == edges[first + i], "%s: Graph_neighbors(%d)[%d] = %d", what, r, i,
                      nb[i]);
            }
            outs[r] = edges + first;
            degs[r] = index[r] - first;
            free(nb);
        }
        int *src_block = mt_malloc(sizeof(int) * (size_t)(degs[me] + 1));
        match_blocks(me, outs[me], degs[me], outs, degs, src_block, what);
        tc_nbhd_t h = {.nin = degs[me], .nout = degs[me], .in = outs[me], .out = outs[me],
                       .src_block = src_block};
        tc_check_all(c, &h, pass == 0, what);
        free(src_block);
        free(outs);
        free(degs);
        free(gi);
        free(ge);
    }
    MPI_OK(MPI_Comm_free(&dup));
    MPI_OK(MPI_Comm_free(&g));
out:
    free(index);
    free(edges);
}

/* ---- distributed graphs ------------------------------------------------------------------ */

/* checks a distributed graph communicator against graph g, and runs the collectives;
   `exact`: the lists must be in[]/out[] as given (adjacent), else equal as multisets of
   (neighbour, weight) */
static void check_dist(MPI_Comm c, const graph_t *g, const int *in, const int *inw, int nin,
                       int weighted, int exact, int large, const char *what)
{
    int me, status, gin, gout, gw, n = g->n;
    MPI_OK(MPI_Comm_rank(c, &me));
    MPI_OK(MPI_Topo_test(c, &status));
    CHECK(status == MPI_DIST_GRAPH, "%s: Topo_test gave %d", what, status);
    MPI_OK(MPI_Dist_graph_neighbors_count(c, &gin, &gout, &gw));
    CHECK(gin == nin && gout == g->odeg[me] && !gw == !weighted,
          "%s: Dist_graph_neighbors_count gave %d %d %d, expected %d %d %d", what, gin, gout, gw,
          nin, g->odeg[me], weighted);
    if (gin != nin || gout != g->odeg[me]) {
        return;
    }
    int *s = mt_ibuf(1, nin), *sw = mt_ibuf(1, nin), *d = mt_ibuf(1, gout), *dw = mt_ibuf(1, gout);
    MPI_OK(MPI_Dist_graph_neighbors(c, nin, s, weighted ? sw : MPI_UNWEIGHTED, gout, d,
                                    weighted ? dw : MPI_UNWEIGHTED));
    if (exact) {
        for (int i = 0; i < nin; i++) {
            CHECK(s[i] == in[i] && (!weighted || sw[i] == inw[i]),
                  "%s: source %d is %d (weight %d), expected %d (%d)", what, i, s[i], sw[i],
                  in[i], inw[i]);
        }
        for (int j = 0; j < gout; j++) {
            int e = g->ofirst[me] + j;
            CHECK(d[j] == g->dst[e] && (!weighted || dw[j] == e),
                  "%s: destination %d is %d (weight %d), expected %d (%d)", what, j, d[j], dw[j],
                  g->dst[e], e);
        }
    } else {
        /* weights name the edges: each in-edge is an edge to me from its source, once */
        char *seen = calloc((size_t)g->m + 1, 1);
        for (int i = 0; i < nin; i++) {
            int e = sw[i];
            int ok = e >= 0 && e < g->m && g->dst[e] == me && g->src[e] == s[i] && !seen[e];
            CHECK(ok, "%s: in-edge %d from %d with weight %d is not an edge of the graph", what,
                  i, s[i], e);
            if (ok) {
                seen[e] = 1;
            }
        }
        for (int j = 0; j < gout; j++) {
            int e = dw[j];
            int ok = e >= 0 && e < g->m && g->src[e] == me && g->dst[e] == d[j] && seen[e] != 2;
            CHECK(ok, "%s: out-edge %d to %d with weight %d is not an edge of the graph", what,
                  j, d[j], e);
            if (ok) {
                seen[e] = 2;
            }
        }
        free(seen);
    }
    /* every process's out-list, as the library reports it, for the matching rule */
    int *degs = mt_malloc(sizeof(int) * (size_t)n), *displs = mt_malloc(sizeof(int) * (size_t)n);
    MPI_OK(MPI_Allgather(&gout, 1, MPI_INT, degs, 1, MPI_INT, c));
    int total = 0;
    for (int r = 0; r < n; r++) {
        displs[r] = total;
        total += degs[r];
    }
    int *all = mt_malloc(sizeof(int) * (size_t)(total + 1));
    MPI_OK(MPI_Allgatherv(d, gout, MPI_INT, all, degs, displs, MPI_INT, c));
    const int **outs = mt_malloc(sizeof(int *) * (size_t)n);
    for (int r = 0; r < n; r++) {
        outs[r] = all + displs[r];
    }
    int *src_block = mt_malloc(sizeof(int) * (size_t)(nin + 1));
    match_blocks(me, s, nin, outs, degs, src_block, what);
    tc_nbhd_t h = {.nin = nin, .nout = gout, .in = s, .out = d, .src_block = src_block};
    tc_check_all(c, &h, large, what);
    free(src_block);
    free(outs);
    free(all);
    free(degs);
    free(displs);
    free(s);
    free(sw);
    free(d);
    free(dw);
}

static void dist_graphs(unsigned long seed)
{
    int me, p;
    graph_t g;
    MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &p));
    graph_make(&g, p, seed);

    /* my in-edges, in a shuffled order; weights are edge numbers */
    int nin = 0, *in = mt_malloc(sizeof(int) * (size_t)(g.m + 1));
    int *inw = mt_malloc(sizeof(int) * (size_t)(g.m + 1));
    for (int e = 0; e < g.m; e++) {
        if (g.dst[e] == me) {
            in[nin] = g.src[e];
            inw[nin++] = e;
        }
    }
    lcg_state = seed + 17 + (unsigned long)me;
    for (int i = nin - 1; i > 0; i--) {
        int j = (int)(lcg() % (unsigned)(i + 1)), t = in[i], tw = inw[i];
        in[i] = in[j];
        inw[i] = inw[j];
        in[j] = t;
        inw[j] = tw;
    }
    int *outw = mt_malloc(sizeof(int) * (size_t)(g.odeg[me] + 1));
    for (int j = 0; j < g.odeg[me]; j++) {
        outw[j] = g.ofirst[me] + j;
    }
    char what[96];
    for (int weighted = 0; weighted < 2; weighted++) {
        MPI_Comm c;
        snprintf(what, sizeof(what), "Dist_graph_create_adjacent seed %lu%s", seed,
                 weighted ? " weighted" : "");
        MPI_OK(MPI_Dist_graph_create_adjacent(
            MPI_COMM_WORLD, nin, in, weighted ? inw : MPI_UNWEIGHTED, g.odeg[me],
            g.dst + g.ofirst[me], weighted ? outw : MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c));
        check_dist(c, &g, in, inw, nin, weighted, 1, weighted, what);
        MPI_OK(MPI_Comm_free(&c));
    }

    /* the same graph from edges given anywhere: edge e by rank (7e + 3) mod p, as one
       (source, degree 1) entry each, except rank 0, which groups its edges by source */
    int n = 0, k = 0, *srcs = mt_malloc(sizeof(int) * (size_t)(g.m + 1));
    int *degs = mt_malloc(sizeof(int) * (size_t)(g.m + 1)), *dsts = mt_malloc(sizeof(int) * (size_t)(g.m + 1));
    int *w = mt_malloc(sizeof(int) * (size_t)(g.m + 1));
    for (int e = 0; e < g.m; e++) {
        if ((7 * e + 3) % p != me) {
            continue;
        }
        if (me == 0 && n > 0 && srcs[n - 1] == g.src[e]) {
            degs[n - 1]++;
        } else {
            srcs[n] = g.src[e];
            degs[n++] = 1;
        }
        dsts[k] = g.dst[e];
        w[k++] = e;
    }
    MPI_Comm c;
    snprintf(what, sizeof(what), "Dist_graph_create seed %lu", seed);
    MPI_OK(MPI_Dist_graph_create(MPI_COMM_WORLD, n, srcs, degs, dsts, w, MPI_INFO_NULL, 0, &c));
    check_dist(c, &g, in, inw, nin, 1, 0, 1, what);
    MPI_OK(MPI_Comm_free(&c));

    free(srcs);
    free(degs);
    free(dsts);
    free(w);
    free(in);
    free(inw);
    free(outw);
    graph_free(&g);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "topo_graph");
    /* the processes outside a graph skip its checks: tc_serial is set alike after */
    graph_topology(mt_size);
    tc_serial = 1000;
    if (mt_size > 1) {
        graph_topology(mt_size - 1);
    }
    for (unsigned long seed = 1; seed <= 3; seed++) {
        tc_serial = 2000 * (int)seed;
        dist_graphs(seed);
    }
    return mt_finish();
}
