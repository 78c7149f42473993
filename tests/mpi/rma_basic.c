/*
 * rma_basic: windows of every flavor (MPI_Win_create, _allocate, _allocate_shared,
 * dynamic) with MPI_Put and MPI_Get between fences, contiguous and derived datatypes on
 * both sides (a vector of ints at the origin, an indexed type at the target, a resized
 * struct), MPI_Rput / MPI_Rget, and what a window tells about itself: the predefined
 * attributes, user attributes with their delete callback at MPI_Win_free, the name, the
 * group, the hints, MPI_Win_shared_query and direct stores into a shared window (when
 * every rank is on one host).  Every value read is checked against what its writer must
 * have put there.
 */
#include "tests/mpi/mpitest.h"

#define N 64

static int val(int writer, int target, int i)
{
    return writer * 1000000 + target * 10000 + i;
}

static int deleted;
static int del_fn(MPI_Win win, int keyval, void *attr, void *extra)
{
    (void)win, (void)keyval, (void)extra;
    deleted += *(int *)attr;
    return MPI_SUCCESS;
}

/* every rank puts N ints to its right neighbour at offset 0, then reads them back from
   there with a get, between fences; mem is this rank's window memory (N ints) */
static void put_get_ring(MPI_Win win, int *mem, int dyn, MPI_Aint *addrs, const char *what)
{
    int right = (mt_rank + 1) % mt_size, left = (mt_rank + mt_size - 1) % mt_size;
    int src[N], back[N];
    MPI_Aint disp = dyn ? addrs[right] : 0;

    for (int i = 0; i < N; i++) {
        src[i] = val(mt_rank, right, i);
        mem[i] = -1;
    }
    MPI_OK(MPI_Win_fence(0, win));
    MPI_OK(MPI_Put(src, N, MPI_INT, right, disp, N, MPI_INT, win));
    MPI_OK(MPI_Win_fence(0, win));
    for (int i = 0; i < N; i++) {
        CHECK(mem[i] == val(left, mt_rank, i), "%s: mem[%d]=%d, expected %d", what, i, mem[i],
              val(left, mt_rank, i));
    }
    memset(back, 0, sizeof(back));
    MPI_OK(MPI_Get(back, N, MPI_INT, right, disp, N, MPI_INT, win));
    MPI_OK(MPI_Win_fence(0, win));
    for (int i = 0; i < N; i++) {
        CHECK(back[i] == src[i], "%s: get back[%d]=%d, expected %d", what, i, back[i], src[i]);
    }

    /* derived both sides: every other int of the origin to an indexed layout (blocks of
       1, 2 and 3 ints at 1, 10 and 20) of the target, 6 ints */
    int blens[3] = {1, 2, 3}, displs[3] = {1, 10, 20};
    MPI_Datatype vec, idx;
    MPI_OK(MPI_Type_vector(6, 1, 2, MPI_INT, &vec));
    MPI_OK(MPI_Type_indexed(3, blens, displs, MPI_INT, &idx));
    MPI_OK(MPI_Type_commit(&vec));
    MPI_OK(MPI_Type_commit(&idx));
    for (int i = 0; i < N; i++) {
        mem[i] = -1;
    }
    MPI_OK(MPI_Win_fence(0, win));
    MPI_OK(MPI_Put(src, 1, vec, right, disp, 1, idx, win));
    MPI_OK(MPI_Win_fence(0, win));
    int at[6] = {1, 10, 11, 20, 21, 22};
    for (int k = 0, j = 0; k < N; k++) {
        int exp = -1;
        if (j < 6 && k == at[j]) {
            exp = val(left, mt_rank, 2 * j);
            j++;
        }
        CHECK(mem[k] == exp, "%s: derived put mem[%d]=%d, expected %d", what, k, mem[k], exp);
    }
    /* and back: the indexed target into a contiguous origin, with MPI_Rget */
    MPI_Request req;
    int got6[6];
    MPI_OK(MPI_Rget(got6, 6, MPI_INT, right, disp, 1, idx, win, &req));
    MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Win_fence(0, win));
    for (int j = 0; j < 6; j++) {
        CHECK(got6[j] == src[2 * j], "%s: derived get [%d]=%d, expected %d", what, j, got6[j],
              src[2 * j]);
    }
    /* MPI_Rput of 3 ints at displacement 40 */
    MPI_OK(MPI_Rput(src, 3, MPI_INT, right, disp + (dyn ? 40 * sizeof(int) : 40), 3, MPI_INT, win,
                    &req));
    MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    for (int j = 0; j < 3; j++) {
        CHECK(mem[40 + j] == val(left, mt_rank, j), "%s: rput mem[%d]=%d", what, 40 + j,
              mem[40 + j]);
    }
    MPI_OK(MPI_Type_free(&vec));
    MPI_OK(MPI_Type_free(&idx));
    /* the checks above are done everywhere before anyone stores again (shared window) */
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
}

static void check_attrs(MPI_Win win, void *base, MPI_Aint size, int disp_unit, int flavor)
{
    void *v;
    int flag;
    MPI_OK(MPI_Win_get_attr(win, MPI_WIN_BASE, &v, &flag));
    CHECK(flag && v == base, "MPI_WIN_BASE %p, expected %p", v, base);
    MPI_OK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &v, &flag));
    CHECK(flag && *(MPI_Aint *)v == size, "MPI_WIN_SIZE %ld", (long)*(MPI_Aint *)v);
    MPI_OK(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &v, &flag));
    CHECK(flag && *(int *)v == disp_unit, "MPI_WIN_DISP_UNIT %d", *(int *)v);
    MPI_OK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &v, &flag));
    CHECK(flag && *(int *)v == flavor, "MPI_WIN_CREATE_FLAVOR %d, expected %d", *(int *)v, flavor);
    MPI_OK(MPI_Win_get_attr(win, MPI_WIN_MODEL, &v, &flag));
    CHECK(flag && *(int *)v == MPI_WIN_UNIFIED, "MPI_WIN_MODEL %d", *(int *)v);
}

int main(int argc, char **argv)
{
    MPI_Win win;
    int *mem;

    mt_init(&argc, &argv, "rma_basic");

    /* every rank on this host (else the windows take active messages by themselves) */
    MPI_Comm node;
    int node_size, one_host;
    MPI_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    MPI_OK(MPI_Comm_size(node, &node_size));
    MPI_OK(MPI_Comm_free(&node));
    one_host = node_size == mt_size;

    /* MPI_Win_create */
    mem = malloc(N * sizeof(int));
    MPI_OK(MPI_Win_create(mem, N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    check_attrs(win, mem, N * sizeof(int), sizeof(int), MPI_WIN_FLAVOR_CREATE);
    CHECK(MPI_Win_f2c(MPI_Win_c2f(win)) == win, "Win_f2c(Win_c2f(win)) is another window");
    put_get_ring(win, mem, 0, NULL, "create");

    /* name, group, hints, keyvals */
    char name[MPI_MAX_OBJECT_NAME];
    int len, cmp, key, flag;
    MPI_OK(MPI_Win_set_name(win, "ring window"));
    MPI_OK(MPI_Win_get_name(win, name, &len));
    CHECK(strcmp(name, "ring window") == 0 && len == 11, "name '%s' %d", name, len);
    MPI_Group g, wg;
    MPI_OK(MPI_Win_get_group(win, &g));
    MPI_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    MPI_OK(MPI_Group_compare(g, wg, &cmp));
    CHECK(cmp == MPI_IDENT, "window group compares %d", cmp);
    MPI_OK(MPI_Group_free(&g));
    MPI_OK(MPI_Group_free(&wg));
    MPI_Info info, used;
    char v[32];
    MPI_OK(MPI_Info_create(&info));
    MPI_OK(MPI_Info_set(info, "no_locks", "false"));
    MPI_OK(MPI_Win_set_info(win, info));
    MPI_OK(MPI_Info_free(&info));
    MPI_OK(MPI_Win_get_info(win, &used));
    MPI_OK(MPI_Info_get(used, "no_locks", sizeof(v) - 1, v, &flag));
    CHECK(flag && strcmp(v, "false") == 0, "hint no_locks flag %d '%s'", flag, v);
    MPI_OK(MPI_Info_free(&used));
    int one = 1, two = 2, *got;
    MPI_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, del_fn, &key, NULL));
    MPI_OK(MPI_Win_set_attr(win, key, &one));
    MPI_OK(MPI_Win_set_attr(win, key, &two)); /* replaces: one's delete runs */
    MPI_OK(MPI_Win_get_attr(win, key, &got, &flag));
    CHECK(flag && got == &two, "user attribute %p flag %d", (void *)got, flag);
    CHECK(deleted == 1, "delete callback on replace: %d", deleted);
    MPI_OK(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL, "freed window is not MPI_WIN_NULL");
    CHECK(deleted == 3, "delete callback at MPI_Win_free: %d", deleted);
    MPI_OK(MPI_Win_free_keyval(&key));
    free(mem);

    /* MPI_Win_allocate, disp_unit 1 on the target side of a put in bytes */
    MPI_OK(
        MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    check_attrs(win, mem, N * sizeof(int), sizeof(int), MPI_WIN_FLAVOR_ALLOCATE);
    put_get_ring(win, mem, 0, NULL, "allocate");
    MPI_OK(MPI_Win_free(&win));

    /* MPI_Win_allocate_shared: neighbours' memory by load and store (ranks on several
       hosts cannot share memory: rma_errors checks MPI_ERR_RMA_SHARED there) */
    if (one_host) {
        MPI_OK(MPI_Win_allocate_shared(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                                       &mem, &win));
        check_attrs(win, mem, N * sizeof(int), sizeof(int), MPI_WIN_FLAVOR_SHARED);
        put_get_ring(win, mem, 0, NULL, "shared");
        {
            int right = (mt_rank + 1) % mt_size, left = (mt_rank + mt_size - 1) % mt_size, du;
            MPI_Aint sz;
            int *peer, *first;
            MPI_OK(MPI_Win_shared_query(win, right, &sz, &du, &peer));
            CHECK(sz == N * sizeof(int) && du == sizeof(int), "shared_query size %ld du %d",
                  (long)sz, du);
            MPI_OK(MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &du, &first));
            MPI_OK(MPI_Win_lock_all(0, win));
            for (int i = 0; i < N; i++) {
                peer[i] = val(mt_rank, right, i) + 7;
            }
            MPI_OK(MPI_Win_sync(win));
            mt_barrier(mt_sync_comm);
            MPI_OK(MPI_Win_sync(win));
            for (int i = 0; i < N; i++) {
                CHECK(mem[i] == val(left, mt_rank, i) + 7, "direct store mem[%d]=%d", i, mem[i]);
            }
            /* contiguous by default: rank r's memory follows rank r-1's */
            CHECK(mem == first + (ptrdiff_t)mt_rank * N, "rank %d's base %p, first %p", mt_rank,
                  (void *)mem, (void *)first);
            MPI_OK(MPI_Win_unlock_all(win));
        }
        MPI_OK(MPI_Win_free(&win));
    }

    /* shared, rank 0 without memory: MPI_PROC_NULL names the first rank that has some, and
       rank 0's segment is size 0 at NULL */
    if (mt_size > 1 && one_host) {
        MPI_Aint sz;
        int du, *first;
        MPI_OK(MPI_Win_allocate_shared(mt_rank == 0 ? 0 : 8 * sizeof(int), sizeof(int),
                                       MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
        MPI_OK(MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &du, &first));
        CHECK(sz == 8 * sizeof(int), "first rank with memory: size %ld", (long)sz);
        /* a segment of size 0 has no address (MPI-4): NULL where it was allocated and where
           it is queried */
        if (mt_rank == 0) {
            CHECK(mem == NULL, "size 0: MPI_Win_allocate_shared gave %p", (void *)mem);
        }
        int *zero = first;
        MPI_OK(MPI_Win_shared_query(win, 0, &sz, &du, &zero));
        CHECK(sz == 0 && zero == NULL, "shared_query of a segment of size 0: size %ld base %p",
              (long)sz, (void *)zero);
        if (mt_rank == 1) {
            CHECK(first == mem, "first rank with memory is 1: %p, mine %p", (void *)first,
                  (void *)mem);
        }
        MPI_OK(MPI_Win_free(&win));
    }

    /* dynamic: each rank attaches N ints and tells the others their address */
    MPI_Aint *addrs = malloc(sizeof(MPI_Aint) * (size_t)mt_size), mine;
    mem = malloc(N * sizeof(int));
    MPI_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    check_attrs(win, NULL, 0, 1, MPI_WIN_FLAVOR_DYNAMIC);
    MPI_OK(MPI_Win_attach(win, mem, N * sizeof(int)));
    MPI_OK(MPI_Get_address(mem, &mine));
    MPI_OK(MPI_Allgather(&mine, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD));
    put_get_ring(win, mem, 1, addrs, "dynamic");
    MPI_OK(MPI_Win_detach(win, mem));
    MPI_OK(MPI_Win_free(&win));
    free(mem);
    free(addrs);

    /* dynamic, many regions: NREG adjacent slices of one buffer, each attached by itself
       (more than any fixed registry would hold), an element put into each, then accesses
       that span regions */
    {
        enum { NREG = 300, RLEN = 4 };
        int *big = malloc(NREG * RLEN * sizeof(int));
        int right = (mt_rank + 1) % mt_size, left = (mt_rank + mt_size - 1) % mt_size;
        addrs = malloc(sizeof(MPI_Aint) * (size_t)mt_size);
        for (int i = 0; i < NREG * RLEN; i++) {
            big[i] = -1;
        }
        MPI_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        for (int r = 0; r < NREG; r++) {
            /* every third region first, then the rest: attached out of address order */
            int k = (r * 3) % NREG + (r * 3) / NREG;
            MPI_OK(MPI_Win_attach(win, big + k * RLEN, RLEN * sizeof(int)));
        }
        MPI_OK(MPI_Get_address(big, &mine));
        MPI_OK(MPI_Allgather(&mine, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD));
        MPI_OK(MPI_Win_lock_all(0, win));
        for (int r = 0; r < NREG; r++) {
            int v = val(mt_rank, right, r);
            MPI_OK(MPI_Put(&v, 1, MPI_INT, right,
                           addrs[right] + (MPI_Aint)((r * RLEN + r % RLEN) * sizeof(int)), 1,
                           MPI_INT, win));
        }
        MPI_OK(MPI_Win_unlock_all(win));
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
        for (int r = 0; r < NREG; r++) {
            int at = r * RLEN + r % RLEN;
            CHECK(big[at] == val(left, mt_rank, r), "region %d of %d: %d, expected %d", r, NREG,
                  big[at], val(left, mt_rank, r));
        }
        /* one access across all of them (adjacent regions cover it together), and a get
           across two */
        int *all = malloc(NREG * RLEN * sizeof(int)), two[2 * RLEN];
        for (int i = 0; i < NREG * RLEN; i++) {
            all[i] = val(mt_rank, right, i) + 1;
        }
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
        MPI_OK(MPI_Win_lock_all(0, win));
        MPI_OK(MPI_Put(all, NREG * RLEN, MPI_INT, right, addrs[right], NREG * RLEN, MPI_INT, win));
        MPI_OK(MPI_Win_flush(right, win));
        MPI_OK(MPI_Get(two, 2 * RLEN, MPI_INT, right,
                       addrs[right] + (MPI_Aint)((RLEN + RLEN / 2) * sizeof(int)), 2 * RLEN,
                       MPI_INT, win));
        MPI_OK(MPI_Win_unlock_all(win));
        for (int i = 0; i < 2 * RLEN; i++) {
            int at = RLEN + RLEN / 2 + i;
            CHECK(two[i] == val(mt_rank, right, at) + 1, "get across regions [%d]: %d", i, two[i]);
        }
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
        for (int i = 0; i < NREG * RLEN; i++) {
            CHECK(big[i] == val(left, mt_rank, i) + 1, "put across %d regions [%d]: %d", NREG, i,
                  big[i]);
        }
        free(all);
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
        for (int r = NREG - 1; r >= 0; r--) {
            MPI_OK(MPI_Win_detach(win, big + r * RLEN));
        }
        MPI_OK(MPI_Win_free(&win));
        free(big);
        free(addrs);
    }

    /* a window on a communicator of one rank, and one on a split */
    MPI_Comm half;
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, mt_rank % 2, mt_rank, &half));
    MPI_OK(MPI_Win_allocate(0, 1, MPI_INFO_NULL, half, &mem, &win));
    MPI_OK(MPI_Win_fence(0, win));
    MPI_OK(MPI_Win_fence(0, win));
    MPI_OK(MPI_Win_free(&win));
    MPI_OK(MPI_Comm_free(&half));

    return mt_finish();
}
