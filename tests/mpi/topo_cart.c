/*
 * topo_cart.c -- Cartesian topologies: MPI_Cart_create (1 to 3 dimensions, periodic, not
 * periodic and mixed, dimensions of 1 and 2 processes, grids smaller than the
 * communicator), the queries (Topo_test, Cartdim_get, Cart_get, Cart_coords, Cart_rank,
 * Cart_shift, Cart_map), Cart_sub, Comm_dup; and on each grid every neighbourhood
 * collective against a local reference (topo_check.h): block 2d+1 of a sender lands in
 * block 2d of its upper neighbour and block 2d in block 2d+1 of its lower one, also when
 * both are one process; MPI_PROC_NULL blocks stay untouched.
 */
#include "tests/mpi/topo_check.h"

#define MAXD 3

/* row-major coordinates of rank r */
static void coords_of(int ndims, const int *dims, int r, int *c)
{
    for (int d = ndims - 1; d >= 0; d--) {
        c[d] = r % dims[d];
        r /= dims[d];
    }
}

/* the rank at c with dimension d moved by disp, or MPI_PROC_NULL */
static int moved(int ndims, const int *dims, const int *periods, const int *c, int d, int disp)
{
    int r = 0;
    for (int i = 0; i < ndims; i++) {
        int x = c[i] + (i == d ? disp : 0);
        if (x < 0 || x >= dims[i]) {
            if (!periods[i]) {
                return MPI_PROC_NULL;
            }
            x = ((x % dims[i]) + dims[i]) % dims[i];
        }
        r = r * dims[i] + x;
    }
    return r;
}

static void check_grid(MPI_Comm cart, int ndims, const int *dims, const int *periods, int large,
                       const char *what)
{
    int me, size, status, nd, gd[MAXD], gp[MAXD], gc[MAXD], c[MAXD];
    MPI_OK(MPI_Comm_rank(cart, &me));
    MPI_OK(MPI_Comm_size(cart, &size));
    MPI_OK(MPI_Topo_test(cart, &status));
    CHECK(status == MPI_CART, "%s: Topo_test gave %d, not MPI_CART", what, status);
    MPI_OK(MPI_Cartdim_get(cart, &nd));
    CHECK(nd == ndims, "%s: Cartdim_get gave %d", what, nd);
    MPI_OK(MPI_Cart_get(cart, MAXD, gd, gp, gc));
    coords_of(ndims, dims, me, c);
    for (int d = 0; d < ndims; d++) {
        CHECK(gd[d] == dims[d] && !gp[d] == !periods[d] && gc[d] == c[d],
              "%s: Cart_get dimension %d: dims %d periods %d coords %d, expected %d %d %d", what,
              d, gd[d], gp[d], gc[d], dims[d], periods[d], c[d]);
    }
    /* every rank's coordinates and back; periodic coordinates wrap */
    for (int r = 0; r < size; r++) {
        int rc[MAXD], back, want[MAXD];
        MPI_OK(MPI_Cart_coords(cart, r, MAXD, rc));
        coords_of(ndims, dims, r, want);
        for (int d = 0; d < ndims; d++) {
            CHECK(rc[d] == want[d], "%s: Cart_coords(%d)[%d] = %d, expected %d", what, r, d,
                  rc[d], want[d]);
            if (periods[d]) {
                rc[d] += (r % 2 ? -3 : 2) * dims[d];
            }
        }
        MPI_OK(MPI_Cart_rank(cart, rc, &back));
        CHECK(back == r, "%s: Cart_rank(Cart_coords(%d)) = %d", what, r, back);
    }
    /* shifts by several displacements */
    static const int disps[] = {1, -1, 2, 0, -5};
    for (int d = 0; d < ndims; d++) {
        for (size_t k = 0; k < sizeof(disps) / sizeof(disps[0]); k++) {
            int src, dst;
            MPI_OK(MPI_Cart_shift(cart, d, disps[k], &src, &dst));
            int wsrc = moved(ndims, dims, periods, c, d, -disps[k]);
            int wdst = moved(ndims, dims, periods, c, d, disps[k]);
            CHECK(src == wsrc && dst == wdst,
                  "%s: Cart_shift(dim %d, disp %d) = (%d, %d), expected (%d, %d)", what, d,
                  disps[k], src, dst, wsrc, wdst);
        }
    }
    /* the neighbourhood: per dimension, the source then the destination of a +1 shift */
    int nb[2 * MAXD + 1], src_block[2 * MAXD + 1];
    for (int d = 0; d < ndims; d++) {
        nb[2 * d] = moved(ndims, dims, periods, c, d, -1);
        nb[2 * d + 1] = moved(ndims, dims, periods, c, d, 1);
        src_block[2 * d] = 2 * d + 1;
        src_block[2 * d + 1] = 2 * d;
    }
    tc_nbhd_t h = {.nin = 2 * ndims, .nout = 2 * ndims, .in = nb, .out = nb,
                   .src_block = src_block};
    tc_check_all(cart, &h, large, what);
}

/* one grid on WORLD: create, check, dup, sub-grids, free */
static void one_grid(int ndims, const int *dims, const int *periods, int large)
{
    int n = 1, wsize, wrank, mapped;
    char what[128];
    int len = snprintf(what, sizeof(what), "cart %dd [", ndims);
    for (int d = 0; d < ndims; d++) {
        n *= dims[d];
        len += snprintf(what + len, sizeof(what) - (size_t)len, "%s%d%s", d ? "x" : "", dims[d],
                        periods[d] ? "p" : "");
    }
    snprintf(what + len, sizeof(what) - (size_t)len, "]");
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &wsize));
    MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &wrank));

    MPI_OK(MPI_Cart_map(MPI_COMM_WORLD, ndims, dims, periods, &mapped));
    CHECK(mapped == (wrank < n ? wrank : MPI_UNDEFINED), "%s: Cart_map gave %d", what, mapped);

    MPI_Comm cart;
    static int grids;
    tc_serial = 1000 * ++grids; /* alike on every process, in the grid or not */
    MPI_OK(MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &cart));
    if (wrank >= n) {
        CHECK(cart == MPI_COMM_NULL, "%s: rank %d outside the grid got a communicator", what,
              wrank);
        return;
    }
    CHECK(cart != MPI_COMM_NULL, "%s: no communicator for a rank of the grid", what);
    if (cart == MPI_COMM_NULL) {
        return;
    }
    check_grid(cart, ndims, dims, periods, large, what);

    /* a dup has the same topology */
    MPI_Comm dup;
    char dwhat[160];
    MPI_OK(MPI_Comm_dup(cart, &dup));
    snprintf(dwhat, sizeof(dwhat), "dup of %s", what);
    check_grid(dup, ndims, dims, periods, 0, dwhat);
    MPI_OK(MPI_Comm_free(&dup));

    /* sub-grids: keep every other dimension, then all but the first */
    for (int pattern = 0; pattern < 2 && ndims > 1; pattern++) {
        int keep[MAXD], sd[MAXD], sp[MAXD], k = 0, c[MAXD], subrank, expect = 0;
        coords_of(ndims, dims, wrank, c);
        for (int d = 0; d < ndims; d++) {
            keep[d] = pattern == 0 ? d % 2 == 0 : d > 0;
            if (keep[d]) {
                sd[k] = dims[d];
                sp[k++] = periods[d];
                expect = expect * dims[d] + c[d];
            }
        }
        MPI_Comm sub;
        char swhat[200];
        MPI_OK(MPI_Cart_sub(cart, keep, &sub));
        MPI_OK(MPI_Comm_rank(sub, &subrank));
        snprintf(swhat, sizeof(swhat), "Cart_sub %d of %s", pattern, what);
        CHECK(subrank == expect, "%s: rank %d in the sub-grid, expected %d", swhat, subrank,
              expect);
        check_grid(sub, k, sd, sp, 0, swhat);
        MPI_OK(MPI_Comm_free(&sub));
    }
    MPI_OK(MPI_Comm_free(&cart));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "topo_cart");
    int p = mt_size;
    for (int ndims = 1; ndims <= MAXD; ndims++) {
        int dims[MAXD] = {0, 0, 0};
        MPI_OK(MPI_Dims_create(p, ndims, dims));
        /* none, all, and alternating dimensions periodic */
        for (int pat = 0; pat < 3; pat++) {
            int periods[MAXD];
            for (int d = 0; d < ndims; d++) {
                periods[d] = pat == 1 || (pat == 2 && d % 2 == 0);
            }
            one_grid(ndims, dims, periods, pat == 1);
        }
    }
    /* dimensions of 1 and 2 processes, periodic: a process is both neighbours */
    int one[3] = {1, p, 1}, per[3] = {1, 1, 1};
    one_grid(3, one, per, 1);
    if (p % 2 == 0) {
        int two[2] = {2, p / 2};
        one_grid(2, two, per, 1);
    }
    /* a grid smaller than the communicator: the last rank gets MPI_COMM_NULL */
    if (p > 1) {
        int small[1] = {p - 1}, nper[1] = {0};
        one_grid(1, small, nper, 0);
        one_grid(1, small, per, 0);
    }
    /* zero dimensions: one process */
    {
        int none[1] = {0};
        one_grid(0, none, none, 0);
    }
    return mt_finish();
}
