/*
 * topo.c -- process topologies: building them, Cartesian arithmetic, the edge exchange of
 * MPI_Dist_graph_create, and MPI_Dims_create's search.
 *
 * Cartesian ranks are row-major: the last dimension varies fastest, as MPI requires.
 *
 *   dims = {2, 3}:   rank  0 1 2      coords (0,0) (0,1) (0,2)
 *                          3 4 5             (1,0) (1,1) (1,2)
 */
#include "core/comm/topo.h"

#include "core/comm/comm.h"
#include "core/dt/dt.h"
#include "core/pml/pml.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- life cycle ------------------------------------------------------------------- */

static comm_topo_t *topo__alloc(topo_kind_t kind)
{
    comm_topo_t *t = calloc(1, sizeof(*t));
    if (t != NULL) {
        t->kind = kind;
        t->refcount = 1;
    }
    return t;
}

/* a copy of n ints (NULL src: zeros); never NULL unless out of memory */
static int *topo__ints(const int *src, int n)
{
    int *a = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (a != NULL && n > 0) {
        if (src != NULL) {
            memcpy(a, src, sizeof(int) * (size_t)n);
        } else {
            memset(a, 0, sizeof(int) * (size_t)n);
        }
    }
    return a;
}

void topo_retain(comm_topo_t *t)
{
    t->refcount++;
}

void topo_release(comm_topo_t *t)
{
    if (t == NULL || --t->refcount > 0) {
        return;
    }
    free(t->in);
    free(t->out);
    free(t->dims);
    free(t->periods);
    free(t->coords);
    free(t->index);
    free(t->edges);
    free(t->inw);
    free(t->outw);
    free(t);
}

/* ---- Cartesian ---------------------------------------------------------------------- */

void topo_cart_coords(const comm_topo_t *t, int rank, int *coords)
{
    for (int d = t->ndims - 1; d >= 0; d--) {
        coords[d] = rank % t->dims[d];
        rank /= t->dims[d];
    }
}

int topo_cart_rank(const comm_topo_t *t, const int *coords)
{
    int rank = 0;
    for (int d = 0; d < t->ndims; d++) {
        rank = rank * t->dims[d] + coords[d];
    }
    return rank;
}

/* the rank at coords with coordinate d moved by disp, or MPI_PROC_NULL off the grid */
static int topo__cart_moved(const comm_topo_t *t, const int *coords, int d, int disp)
{
    long c = (long)coords[d] + disp, n = t->dims[d];
    if (t->periods[d]) {
        c %= n;
        if (c < 0) {
            c += n;
        }
    } else if (c < 0 || c >= n) {
        return MPI_PROC_NULL;
    }
    int rank = 0;
    for (int i = 0; i < t->ndims; i++) {
        rank = rank * t->dims[i] + (i == d ? (int)c : coords[i]);
    }
    return rank;
}

void topo_cart_shift(const comm_topo_t *t, int rank, int dim, int disp, int *src_p, int *dst_p)
{
    int stack[16] = {0}, *coords = t->ndims <= 16 ? stack : malloc(sizeof(int) * (size_t)t->ndims);
    if (coords == NULL) { /* cannot happen for any grid that fits in an int of ranks */
        *src_p = *dst_p = MPI_PROC_NULL;
        return;
    }
    topo_cart_coords(t, rank, coords);
    *src_p = topo__cart_moved(t, coords, dim, -disp);
    *dst_p = topo__cart_moved(t, coords, dim, disp);
    if (coords != stack) {
        free(coords);
    }
}

compi_status_t topo_cart_new(int ndims, const int *dims, const int *periods, int rank,
                             comm_topo_t **t_p)
{
    comm_topo_t *t = topo__alloc(TOPO_CART);
    if (t == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    t->ndims = ndims;
    t->dims = topo__ints(dims, ndims);
    t->periods = topo__ints(NULL, ndims);
    t->coords = topo__ints(NULL, ndims);
    t->indegree = t->outdegree = 2 * ndims;
    t->in = topo__ints(NULL, 2 * ndims);
    t->out = topo__ints(NULL, 2 * ndims);
    if (!t->dims || !t->periods || !t->coords || !t->in || !t->out) {
        topo_release(t);
        return COMPI_ERR_NO_MEMORY;
    }
    for (int d = 0; d < ndims; d++) {
        t->periods[d] = periods != NULL && periods[d] != 0;
    }
    topo_cart_coords(t, rank, t->coords);
    for (int d = 0; d < ndims; d++) {
        t->in[2 * d] = t->out[2 * d] = topo__cart_moved(t, t->coords, d, -1);
        t->in[2 * d + 1] = t->out[2 * d + 1] = topo__cart_moved(t, t->coords, d, 1);
    }
    *t_p = t;
    return COMPI_OK;
}

/* ---- graphs ------------------------------------------------------------------------ */

compi_status_t topo_graph_new(int nnodes, const int *index, const int *edges, int rank,
                              comm_topo_t **t_p)
{
    comm_topo_t *t = topo__alloc(TOPO_GRAPH);
    int nedges = nnodes > 0 ? index[nnodes - 1] : 0;
    int first = rank > 0 ? index[rank - 1] : 0;
    if (t == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    t->nnodes = nnodes;
    t->nedges = nedges;
    t->index = topo__ints(index, nnodes);
    t->edges = topo__ints(edges, nedges);
    t->indegree = t->outdegree = index[rank] - first;
    t->in = topo__ints(edges + first, t->indegree);
    t->out = topo__ints(edges + first, t->indegree);
    if (!t->index || !t->edges || !t->in || !t->out) {
        topo_release(t);
        return COMPI_ERR_NO_MEMORY;
    }
    *t_p = t;
    return COMPI_OK;
}

compi_status_t topo_dist_graph_new(int indegree, const int *sources, const int *sweights,
                                   int outdegree, const int *dests, const int *dweights,
                                   comm_topo_t **t_p)
{
    comm_topo_t *t = topo__alloc(TOPO_DIST_GRAPH);
    if (t == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    t->indegree = indegree;
    t->outdegree = outdegree;
    t->in = topo__ints(sources, indegree);
    t->out = topo__ints(dests, outdegree);
    t->weighted = sweights != NULL || dweights != NULL;
    if (t->weighted) {
        t->inw = topo__ints(sweights, indegree);
        t->outw = topo__ints(dweights, outdegree);
    }
    if (!t->in || !t->out || (t->weighted && (!t->inw || !t->outw))) {
        topo_release(t);
        return COMPI_ERR_NO_MEMORY;
    }
    *t_p = t;
    return COMPI_OK;
}

/*
 * MPI_Dist_graph_create's exchange.  Every edge (s, d, w) given anywhere travels as three
 * ints to s and to d (once when s == d); counts first, then the edges, one message each
 * per pair of processes, all posted at once:
 *
 *     giver g:  for each p: isend count[p], isend edges[p]     (p = every process)
 *     each p:   irecv count from every g, then irecv edges from g in g order
 *
 * Processing the received edges in order of giver, then of position at the giver, gives
 * both ends of a pair the same order of their edges.  Cost: 2 (P - 1) messages per
 * process, every edge moved twice.
 */
compi_status_t topo_dist_graph_exchange(compi_comm_t *comm, int n, const int *sources,
                                        const int *degrees, const int *dests, const int *weights,
                                        comm_topo_t **t_p)
{
    const int p = comm->size, me = comm->rank, tag = COMPI_TAG_TOPO_CREATE;
    compi_datatype_t *ints = dt_from_handle(MPI_INT);
    compi_status_t st = COMPI_ERR_NO_MEMORY;
    int *scount = calloc((size_t)p, sizeof(int)), *rcount = calloc((size_t)p, sizeof(int));
    size_t *soff = calloc((size_t)p + 1, sizeof(size_t)),
           *roff = calloc((size_t)p + 1, sizeof(size_t));
    compi_request_t **reqs = calloc(4 * (size_t)p, sizeof(*reqs));
    int *sbuf = NULL, *rbuf = NULL, *fill = NULL;
    comm_topo_t *t = NULL;
    long total = 0;

    if (!scount || !rcount || !soff || !roff || !reqs) {
        goto out;
    }
    /* count, then place, the edges for each end */
    for (int i = 0, k = 0; i < n; k += degrees[i], i++) {
        for (int j = 0; j < degrees[i]; j++) {
            scount[sources[i]]++;
            if (dests[k + j] != sources[i]) {
                scount[dests[k + j]]++;
            }
        }
    }
    for (int q = 0; q < p; q++) {
        soff[q + 1] = soff[q] + 3 * (size_t)scount[q];
    }
    sbuf = malloc(sizeof(int) * (soff[p] > 0 ? soff[p] : 1));
    fill = calloc((size_t)p, sizeof(int));
    if (!sbuf || !fill) {
        goto out;
    }
    for (int i = 0, k = 0; i < n; k += degrees[i], i++) {
        for (int j = 0; j < degrees[i]; j++) {
            int s = sources[i], d = dests[k + j], w = weights ? weights[k + j] : 1;
            int ends[2] = {s, d};
            for (int e = 0; e < (s == d ? 1 : 2); e++) {
                int *slot = sbuf + soff[ends[e]] + 3 * (size_t)fill[ends[e]]++;
                slot[0] = s;
                slot[1] = d;
                slot[2] = w;
            }
        }
    }

    /* counts */
    for (int q = 0; q < p; q++) {
        if ((st = pml_irecv(&rcount[q], 1, ints, q, tag, comm, &reqs[q])) != COMPI_OK ||
            (st = pml_isend(&scount[q], 1, ints, q, tag, comm, PML_SEND_STANDARD, &reqs[p + q])) !=
                COMPI_OK) {
            pml_wait_all_free(2 * (size_t)p, reqs);
            goto out;
        }
    }
    if ((st = pml_wait_all_free(2 * (size_t)p, reqs)) != COMPI_OK) {
        goto out;
    }
    for (int q = 0; q < p; q++) {
        roff[q + 1] = roff[q] + 3 * (size_t)rcount[q];
    }
    st = COMPI_ERR_NO_MEMORY;
    rbuf = malloc(sizeof(int) * (roff[p] > 0 ? roff[p] : 1));
    if (rbuf == NULL) {
        goto out;
    }
    /* the edges */
    for (int q = 0; q < p; q++) {
        st = COMPI_OK;
        if (rcount[q] > 0) {
            st = pml_irecv(rbuf + roff[q], 3 * (size_t)rcount[q], ints, q, tag, comm, &reqs[q]);
        }
        if (st == COMPI_OK && scount[q] > 0) {
            st = pml_isend(sbuf + soff[q], 3 * (size_t)scount[q], ints, q, tag, comm,
                           PML_SEND_STANDARD, &reqs[p + q]);
        }
        if (st != COMPI_OK) {
            pml_wait_all_free(2 * (size_t)p, reqs);
            goto out;
        }
    }
    if ((st = pml_wait_all_free(2 * (size_t)p, reqs)) != COMPI_OK) {
        goto out;
    }

    /* in- and out-edges of this process, in (giver, position) order */
    int nin = 0, nout = 0;
    total = (long)(roff[p] / 3);
    for (long e = 0; e < total; e++) {
        nin += rbuf[3 * e + 1] == me;
        nout += rbuf[3 * e] == me;
    }
    st = COMPI_ERR_NO_MEMORY;
    t = topo__alloc(TOPO_DIST_GRAPH);
    if (t == NULL) {
        goto out;
    }
    t->indegree = nin;
    t->outdegree = nout;
    t->in = topo__ints(NULL, nin);
    t->out = topo__ints(NULL, nout);
    t->weighted = weights != NULL;
    if (t->weighted) {
        t->inw = topo__ints(NULL, nin);
        t->outw = topo__ints(NULL, nout);
    }
    if (!t->in || !t->out || (t->weighted && (!t->inw || !t->outw))) {
        goto out;
    }
    nin = nout = 0;
    for (long e = 0; e < total; e++) {
        const int *edge = rbuf + 3 * e;
        if (edge[1] == me) {
            if (t->weighted) {
                t->inw[nin] = edge[2];
            }
            t->in[nin++] = edge[0];
        }
        if (edge[0] == me) {
            if (t->weighted) {
                t->outw[nout] = edge[2];
            }
            t->out[nout++] = edge[1];
        }
    }
    *t_p = t;
    t = NULL;
    st = COMPI_OK;
out:
    topo_release(t);
    free(scount);
    free(rcount);
    free(soff);
    free(roff);
    free(reqs);
    free(sbuf);
    free(rbuf);
    free(fill);
    return st;
}

/* ---- MPI_Dims_create ----------------------------------------------------------------- */

/*
 * The free entries get the factorisation of q (nnodes over the product of the fixed
 * entries) into k factors f1 >= f2 >= ... >= fk with the smallest spread f1 - fk, and among
 * those the one whose smallest factor is largest, then whose next smallest is largest, and
 * so on (5040 in three gives 21 x 16 x 15, not 20 x 18 x 14: both spread by 6, the first
 * has the larger smallest side; MPICH chooses the same).  The search
 * runs over the divisors of q, largest factor first, pruned by a bound on the spread:
 * with j factors left of product r, the smallest of them is at most floor(r^(1/j)); a
 * greedy answer (dims__greedy) gives the bound from the start.
 */
typedef struct dims_search {
    const long *div; /* the divisors of q, increasing */
    int ndiv, k;
    long *cur, *best;
    long best_spread;
} dims_search_t;

/* floor(r^(1/j)); r fits an int, so the root is below 2^(31/j + 1) */
static long dims__root(long r, int j)
{
    long lo = 1, hi = j == 1 || 31 / j + 1 >= 31 ? r : 1L << (31 / j + 1);
    if (hi > r) {
        hi = r;
    }
    while (lo < hi) {
        long mid = lo + (hi - lo + 1) / 2, v = 1;
        int over = 0;
        for (int i = 0; i < j && !over; i++) {
            over = v > r / mid;
            v *= mid;
        }
        if (!over && v <= r) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

/* a first answer, for the search's bound: the prime factors of q, largest first, each
   onto the smallest factor so far (cur as scratch) */
static void dims__greedy(long q, int k, dims_search_t *s)
{
    long *f = s->cur;
    for (int i = 0; i < k; i++) {
        f[i] = 1;
    }
    long primes[32];
    int np = 0;
    for (long p = 2, r = q; r > 1; p++) {
        if (p * p > r) {
            p = r;
        }
        while (r % p == 0) {
            primes[np++] = p;
            r /= p;
        }
    }
    for (int j = np - 1; j >= 0; j--) {
        int m = 0;
        for (int i = 1; i < k; i++) {
            m = f[i] < f[m] ? i : m;
        }
        f[m] *= primes[j];
    }
    for (int i = 1; i < k; i++) { /* nonincreasing */
        for (int j = i; j > 0 && f[j] > f[j - 1]; j--) {
            long t = f[j];
            f[j] = f[j - 1];
            f[j - 1] = t;
        }
    }
    memcpy(s->best, f, sizeof(long) * (size_t)k);
    s->best_spread = f[0] - f[k - 1];
}

/* factor i (0-based) of the product r, at most `cap` */
static void dims__search(dims_search_t *s, int i, long r, long cap)
{
    if (i == s->k - 1) {
        if (r > cap) {
            return;
        }
        s->cur[i] = r;
        long spread = s->cur[0] - r;
        int better = spread < s->best_spread;
        for (int j = s->k - 1; !better && spread == s->best_spread && j >= 0; j--) {
            if (s->cur[j] != s->best[j]) {
                better = s->cur[j] > s->best[j];
                break;
            }
        }
        if (better) {
            s->best_spread = spread;
            memcpy(s->best, s->cur, sizeof(long) * (size_t)s->k);
        }
        return;
    }
    /* the largest factor left is at least the j-th root of r: go down from cap (the
       divisors above it skipped by a binary search) */
    long lo = dims__root(r, s->k - i);
    int top = 0, end = s->ndiv;
    while (top < end) {
        int mid = (top + end) / 2;
        if (s->div[mid] <= cap) {
            top = mid + 1;
        } else {
            end = mid;
        }
    }
    for (int x = top - 1; x >= 0; x--) {
        long f = s->div[x];
        if (r % f != 0) {
            continue;
        }
        if (f < lo) {
            break;
        }
        long first = i == 0 ? f : s->cur[0];
        if (first - dims__root(r / f, s->k - i - 1) > s->best_spread) {
            continue;
        }
        s->cur[i] = f;
        dims__search(s, i + 1, r / f, f);
    }
}

compi_status_t topo_dims_create(int nnodes, int ndims, int *dims)
{
    long fixed = 1, q;
    int k = 0;
    compi_status_t st = COMPI_ERR_NO_MEMORY;

    for (int d = 0; d < ndims; d++) {
        if (dims[d] > 0) {
            fixed *= dims[d];
            if (fixed > nnodes) {
                return COMPI_ERR_INVALID_PARAM;
            }
        } else {
            k++;
        }
    }
    if (nnodes % fixed != 0) {
        return COMPI_ERR_INVALID_PARAM;
    }
    q = nnodes / fixed;
    if (k == 0) {
        return q == 1 ? COMPI_OK : COMPI_ERR_INVALID_PARAM;
    }

    long *div = malloc(sizeof(long) * 2 * 1600), *cur = malloc(sizeof(long) * (size_t)k),
         *best = malloc(sizeof(long) * (size_t)k);
    int ndiv = 0;
    if (!div || !cur || !best) {
        goto out;
    }
    /* divisors of q in increasing order: the small ones, then the large ones reversed (an
       int has at most 1536 divisors) */
    int nsmall = 0;
    for (long x = 1; x * x <= q; x++) {
        if (q % x == 0) {
            div[nsmall++] = x;
        }
    }
    ndiv = nsmall;
    for (int i = nsmall - 1; i >= 0; i--) {
        if (div[i] * div[i] != q) {
            div[ndiv++] = q / div[i];
        }
    }
    dims_search_t s = {
        .div = div, .ndiv = ndiv, .k = k, .cur = cur, .best = best, .best_spread = LONG_MAX};
    dims__greedy(q, k, &s);
    dims__search(&s, 0, q, q);
    for (int d = 0, i = 0; d < ndims; d++) {
        if (dims[d] == 0) {
            dims[d] = (int)best[i++];
        }
    }
    st = COMPI_OK;
out:
    free(div);
    free(cur);
    free(best);
    return st;
}
