/*
 * mpich_app.c -- an MPI program that tests/abi/mpich_run.sh compiles with MPICH's mpicc
 * (MPICH's mpi.h, linked against libmpich.so.12) and runs on compi's library: every
 * handle, constant, sentinel and MPI_Status it passes has MPICH's value.  Point-to-point
 * with the fields of the status, persistent requests, collectives blocking, nonblocking
 * and persistent (MPI_IN_PLACE among them), derived datatypes, a user op, one-sided
 * communication (fence and passive target), attributes with user copy and delete
 * callbacks, MPI_UNWEIGHTED, and error classes returned under MPI_ERRORS_RETURN.
 * tests/abi/mpich_run.sh also builds it with MPICH 5's mpicc.  Rank 0 prints "ok - np N:
 * every check passed" when all ranks passed; a failed check prints "not ok".
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size, failed;

static void check(int cond, const char *what)
{
    if (!cond) {
        printf("not ok - rank %d: %s\n", rank, what);
        failed = 1;
    }
}

static void user_max(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++) {
        int a = ((int *)in)[i], *b = &((int *)inout)[i];
        *b = a > *b ? a : *b;
    }
}

/* attribute callbacks: the copy one doubles the value, both count their calls */
static int copies, deletes;
static int attr_copy(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)keyval;
    copies += comm == MPI_COMM_WORLD && *(int *)extra == 42;
    *(long *)out = 2 * (long)in;
    *flag = 1;
    return MPI_SUCCESS;
}
static int attr_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm;
    (void)keyval;
    deletes += *(int *)extra == 42 && (long)val > 0;
    return MPI_SUCCESS;
}

static void pt2pt(void)
{
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    double out[5], in[5];
    MPI_Status st;
    int count = -1;

    for (int i = 0; i < 5; i++) {
        out[i] = rank * 10 + i;
    }
    MPI_Sendrecv(out, 5, MPI_DOUBLE, next, 7, in, 5, MPI_DOUBLE, prev, MPI_ANY_TAG, MPI_COMM_WORLD,
                 &st);
    check(st.MPI_SOURCE == prev && st.MPI_TAG == 7, "Sendrecv: status source and tag");
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    check(count == 5, "Sendrecv: MPI_Get_count of 5 doubles");
    MPI_Get_count(&st, MPI_BYTE, &count);
    check(count == 5 * (int)sizeof(double), "Sendrecv: the count in bytes");
    check(in[4] == prev * 10 + 4, "Sendrecv: the data");

    /* any source, nonblocking, probe */
    MPI_Request req;
    int v = rank, got = -1, flag = 0;
    MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &req);
    MPI_Send(&v, 1, MPI_INT, next, 3, MPI_COMM_WORLD);
    MPI_Wait(&req, &st);
    check(req == MPI_REQUEST_NULL, "Wait: the request becomes MPI_REQUEST_NULL");
    check(got == prev && st.MPI_SOURCE == prev, "Irecv from MPI_ANY_SOURCE");
    MPI_Test_cancelled(&st, &flag);
    check(flag == 0, "Test_cancelled of a received message");

    /* MPI_PROC_NULL: an empty status */
    MPI_Recv(&got, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    check(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && count == 0,
          "Recv from MPI_PROC_NULL");
    MPI_Send(&v, 1, MPI_INT, next, 4, MPI_COMM_WORLD);
    MPI_Recv(&got, 1, MPI_INT, prev, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    check(got == prev, "Recv with MPI_STATUS_IGNORE");

    /* Status_set_elements and set_cancelled write the count and flag words */
    MPI_Status_set_elements(&st, MPI_INT, 3);
    MPI_Status_set_cancelled(&st, 1);
    MPI_Get_count(&st, MPI_INT, &count);
    MPI_Test_cancelled(&st, &flag);
    check(count == 3 && flag == 1 && st.count_lo == 3 * (int)sizeof(int),
          "Status_set_elements/set_cancelled: MPICH's count_lo and cancelled bit");

    /* persistent send and receive, started twice; Waitall fills both statuses */
    MPI_Request pr[2];
    MPI_Status sts[2];
    int ps = 0, pg = -1;
    MPI_Recv_init(&pg, 1, MPI_INT, prev, 5, MPI_COMM_WORLD, &pr[0]);
    MPI_Send_init(&ps, 1, MPI_INT, next, 5, MPI_COMM_WORLD, &pr[1]);
    for (int round = 1; round <= 2; round++) {
        ps = 1000 * round + rank;
        MPI_Startall(2, pr);
        MPI_Waitall(2, pr, sts);
        check(pg == 1000 * round + prev && sts[0].MPI_SOURCE == prev && sts[0].MPI_TAG == 5,
              "persistent send and receive: data and status");
    }
    check(pr[0] != MPI_REQUEST_NULL, "a persistent request stays after its completion");
    MPI_Request_free(&pr[0]);
    MPI_Request_free(&pr[1]);
}

static void collectives(void)
{
    int sum = 0, x = rank + 1;
    MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    check(sum == size * (size + 1) / 2, "Allreduce MPI_SUM");

    long buf[3] = {rank, 2 * rank, 3 * rank};
    MPI_Allreduce(MPI_IN_PLACE, buf, 3, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    check(buf[0] == size - 1 && buf[2] == 3 * (size - 1), "Allreduce MPI_IN_PLACE MPI_MAX");

    struct {
        double v;
        int i;
    } loc = {(double)(rank % 2 ? rank : -rank), rank}, res;
    MPI_Allreduce(&loc, &res, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    int want = size > 1 ? (size - 1) % 2 ? size - 1 : size - 2 : 0;
    check(res.i == want, "Allreduce MPI_DOUBLE_INT MPI_MAXLOC");

    char s[8] = "";
    if (rank == 0) {
        strcpy(s, "mpich");
    }
    MPI_Bcast(s, 8, MPI_CHAR, 0, MPI_COMM_WORLD);
    check(strcmp(s, "mpich") == 0, "Bcast MPI_CHAR");

    int all[64];
    all[rank] = rank * rank;
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_INT, MPI_COMM_WORLD);
    int okg = 1;
    for (int i = 0; i < size; i++) {
        okg &= all[i] == i * i;
    }
    check(okg, "Allgather MPI_IN_PLACE");

    MPI_Op op;
    int m = 100 + rank, mr = 0;
    MPI_Op_create(user_max, 1, &op);
    MPI_Reduce(&m, &mr, 1, MPI_INT, op, 0, MPI_COMM_WORLD);
    check(rank != 0 || mr == 100 + size - 1, "Reduce with a user op");
    MPI_Op_free(&op);
    check(op == MPI_OP_NULL, "Op_free gives MPI_OP_NULL");
    MPI_Barrier(MPI_COMM_WORLD);

    /* nonblocking: Ibcast, Iallreduce in place, Ibarrier, completed together */
    MPI_Request r[3];
    int b = rank == 0 ? 4321 : 0, ia = rank;
    MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Iallreduce(MPI_IN_PLACE, &ia, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]);
    MPI_Ibarrier(MPI_COMM_WORLD, &r[2]);
    MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
    check(b == 4321 && ia == size * (size - 1) / 2, "Ibcast, Iallreduce MPI_IN_PLACE, Ibarrier");
    check(r[0] == MPI_REQUEST_NULL && r[2] == MPI_REQUEST_NULL,
          "nonblocking collectives' requests become MPI_REQUEST_NULL");

    /* persistent: Allreduce_init and Bcast_init, started twice */
    MPI_Request p[2];
    int px = 0, py = 0, pb = 0;
    MPI_Allreduce_init(&px, &py, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &p[0]);
    MPI_Bcast_init(&pb, 1, MPI_INT, size - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &p[1]);
    for (int round = 1; round <= 2; round++) {
        px = round * (rank + 1);
        pb = rank == size - 1 ? 77 * round : 0;
        MPI_Startall(2, p);
        MPI_Waitall(2, p, MPI_STATUSES_IGNORE);
        check(py == round * size * (size + 1) / 2 && pb == 77 * round,
              "persistent Allreduce_init and Bcast_init");
    }
    MPI_Request_free(&p[0]);
    MPI_Request_free(&p[1]);
}

/* one-sided: a window of size + 1 ints on each rank, fence epochs and a passive lock */
static void rma(void)
{
    int *base = NULL, *flavor = NULL, flag = 0;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Win win;
    MPI_Win_allocate((size + 1) * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                     &win);
    for (int i = 0; i <= size; i++) {
        base[i] = 0;
    }
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    check(flag && *flavor == MPI_WIN_FLAVOR_ALLOCATE, "Win_get_attr MPI_WIN_FLAVOR_ALLOCATE");
    int v = 10 * rank + 1, got = -1;
    MPI_Win_fence(0, win);
    MPI_Put(&v, 1, MPI_INT, next, rank, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    check(base[prev] == 10 * prev + 1, "Put between fences");
    MPI_Get(&got, 1, MPI_INT, next, rank, 1, MPI_INT, win);
    MPI_Accumulate(&v, 1, MPI_INT, 0, size, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    check(got == v, "Get between fences");
    check(rank != 0 || base[size] == 5 * size * (size - 1) + size, "Accumulate MPI_SUM");
    MPI_Barrier(MPI_COMM_WORLD);

    /* passive target: a fetch-and-add of every rank on rank 0's last int */
    int one = 1, old = -1;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Fetch_and_op(&one, &old, MPI_INT, 0, size, MPI_SUM, win);
    MPI_Win_unlock(0, win);
    int acc = 5 * size * (size - 1) + size;
    check(old >= acc && old < acc + size, "Fetch_and_op under MPI_LOCK_SHARED");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        check(base[size] == acc + size, "every rank's fetch-and-add arrived");
        MPI_Win_unlock(0, win);
    }
    MPI_Win_free(&win);
    check(win == MPI_WIN_NULL, "Win_free gives MPI_WIN_NULL");
}

static void datatypes(void)
{
    /* every other int of 8, as one vector */
    MPI_Datatype vec;
    int src[8], dst[4] = {0}, n = 0;
    for (int i = 0; i < 8; i++) {
        src[i] = rank * 100 + i;
    }
    MPI_Type_vector(4, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Type_size(vec, &n);
    check(n == 4 * (int)sizeof(int), "Type_vector: size");
    MPI_Sendrecv(src, 1, vec, 0, 1, dst, 4, MPI_INT, 0, 1, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    check(dst[3] == rank * 100 + 6, "a vector sent to self");
    int ni, na, nd, comb;
    MPI_Type_get_envelope(vec, &ni, &na, &nd, &comb);
    check(comb == MPI_COMBINER_VECTOR && ni == 3 && nd == 1, "Type_get_envelope: combiner");
    MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &comb);
    check(comb == MPI_COMBINER_NAMED, "Type_get_envelope of MPI_INT");
    MPI_Type_free(&vec);
    check(vec == MPI_DATATYPE_NULL, "Type_free gives MPI_DATATYPE_NULL");

    int sz = 0;
    MPI_Type_size(MPI_LONG_DOUBLE, &sz);
    check(sz == (int)sizeof(long double), "Type_size MPI_LONG_DOUBLE");
    MPI_Type_size(MPI_C_DOUBLE_COMPLEX, &sz);
    check(sz == 16, "Type_size MPI_C_DOUBLE_COMPLEX");
    char name[MPI_MAX_OBJECT_NAME];
    MPI_Type_get_name(MPI_UNSIGNED_LONG_LONG, name, &sz);
    check(strcmp(name, "MPI_UNSIGNED_LONG_LONG") == 0, "Type_get_name");
}

static void errors_and_more(void)
{
    int rc, cls = -1, one = 1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Send(&one, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    check(rc != MPI_SUCCESS && cls == MPI_ERR_RANK, "a bad rank: MPI_ERR_RANK");
    rc = MPI_Send(&one, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    check(cls == MPI_ERR_TYPE, "MPI_DATATYPE_NULL: MPI_ERR_TYPE");
    rc = MPI_Comm_rank(MPI_COMM_NULL, &cls);
    MPI_Error_class(rc, &cls);
    check(cls == MPI_ERR_COMM, "MPI_COMM_NULL: MPI_ERR_COMM");
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    check(eh == MPI_ERRORS_RETURN, "Comm_get_errhandler: MPI_ERRORS_RETURN");

    int *ub, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    check(flag && *ub >= 32767, "Comm_get_attr MPI_TAG_UB");

    /* a user keyval, copied by MPI_COMM_DUP_FN (MPICH's MPIR_Dup_fn) on Comm_dup */
    int kv, val = 42, *got = NULL;
    MPI_Comm dup;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, kv, &val);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_get_attr(dup, kv, &got, &flag);
    check(flag && got == &val, "MPI_COMM_DUP_FN copies the attribute");
    int cmp;
    MPI_Comm_compare(MPI_COMM_WORLD, dup, &cmp);
    check(cmp == MPI_CONGRUENT, "Comm_compare: MPI_CONGRUENT");
    MPI_Comm_free(&dup);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, kv);
    MPI_Comm_free_keyval(&kv);
    check(kv == MPI_KEYVAL_INVALID, "Comm_free_keyval gives MPI_KEYVAL_INVALID");

    /* user callbacks with extra state: copied on Comm_dup, deleted on Comm_free */
    static int extra = 42;
    long *lv = NULL;
    MPI_Comm_create_keyval(attr_copy, attr_delete, &kv, &extra);
    MPI_Comm_set_attr(MPI_COMM_WORLD, kv, (void *)21L);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_get_attr(dup, kv, &lv, &flag);
    check(flag && (long)lv == 42 && copies == 1, "a user copy callback on Comm_dup");
    MPI_Comm_free(&dup);
    check(deletes == 1, "a user delete callback on Comm_free");
    MPI_Comm_delete_attr(MPI_COMM_WORLD, kv);
    check(deletes == 2, "a user delete callback on Comm_delete_attr");
    MPI_Comm_free_keyval(&kv);

    /* a distributed graph without weights: a ring */
    int dst = (rank + 1) % size, src = (rank + size - 1) % size;
    MPI_Comm g;
    rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &src, MPI_UNWEIGHTED, 1, &dst,
                                        MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
    check(rc == MPI_SUCCESS, "Dist_graph_create_adjacent with MPI_UNWEIGHTED");
    if (rc == MPI_SUCCESS) {
        int t;
        MPI_Topo_test(g, &t);
        check(t == MPI_DIST_GRAPH, "Topo_test: MPI_DIST_GRAPH");
        MPI_Comm_free(&g);
    }

    MPI_Group grp;
    MPI_Comm_group(MPI_COMM_SELF, &grp);
    int gs = 0;
    MPI_Group_size(grp, &gs);
    check(gs == 1, "Comm_group of MPI_COMM_SELF");
    MPI_Group_free(&grp);
    check(grp == MPI_GROUP_NULL, "Group_free gives MPI_GROUP_NULL");

    char pname[MPI_MAX_PROCESSOR_NAME];
    int plen = -1;
    MPI_Get_processor_name(pname, &plen);
    check(plen > 0 && plen < MPI_MAX_PROCESSOR_NAME, "Get_processor_name");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pt2pt();
    collectives();
    datatypes();
    rma();
    errors_and_more();
    int all_failed = 0;
    MPI_Allreduce(&failed, &all_failed, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (rank == 0 && !all_failed) {
        printf("ok - np %d: every check passed\n", size);
    }
    MPI_Finalize();
    return all_failed;
}
