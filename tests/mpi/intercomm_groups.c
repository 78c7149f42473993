/*
 * intercomm_groups.c -- MPI_Intercomm_create_from_groups (MPI-4.0 section 11.6): the
 * intercommunicator of two disjoint groups of WORLD (halves, even against odd ranks, one
 * against the rest), with leaders other than rank 0.  Checked: both groups as MPI gives
 * them back (MPI_IDENT), the ranks, point-to-point both ways with the status's source,
 * collectives (barrier, bcast from the remote leader, allreduce of the other group's world
 * ranks), merge, two intercommunicators from the same groups with different string tags
 * that do not cross, the error handler and info given to the call; then the error
 * classes of bad arguments, all found before any message.  With the argument "session"
 * the groups come from a session's "mpi://WORLD" and MPI_Init is never called.
 * np 1: the error classes only.
 */
#include "tests/mpi/mpitest.h"

#include <string.h>

static int me, np;

/* the world ranks of one side of a split; side 0 or 1 */
typedef int (*side_fn)(int rank, int size);
static int halves(int r, int n)
{
    return r >= n / 2;
}
static int parity(int r, int n)
{
    (void)n;
    return r % 2;
}
static int one_rest(int r, int n)
{
    return r != n - 1;
}

/* the group of the world ranks on side s, from `all` (the group of every process) */
static MPI_Group side_group(MPI_Group all, side_fn f, int s)
{
    int *r = mt_malloc(sizeof(int) * (size_t)np), n = 0;
    MPI_Group g;
    for (int i = 0; i < np; i++)
        if (f(i, np) == s)
            r[n++] = i;
    MPI_OK(MPI_Group_incl(all, n, r, &g));
    free(r);
    return g;
}

static int group_world_rank(MPI_Group g, MPI_Group all, int rank)
{
    int w;
    MPI_OK(MPI_Group_translate_ranks(g, 1, &rank, all, &w));
    return w;
}

static void check_one(MPI_Group all, side_fn f, const char *what)
{
    int side = f(me, np);
    MPI_Group lg = side_group(all, f, side), rg = side_group(all, f, !side);
    int ln, rn, lrank, cmp, flag;
    MPI_OK(MPI_Group_size(lg, &ln));
    MPI_OK(MPI_Group_size(rg, &rn));
    MPI_OK(MPI_Group_rank(lg, &lrank));
    MPI_Comm ic, ic2;
    MPI_Info info;
    MPI_OK(MPI_Info_create(&info));
    MPI_OK(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    /* the leaders: the last rank of each group */
    MPI_OK(MPI_Intercomm_create_from_groups(lg, ln - 1, rg, rn - 1, "org.compi.test.groups.a", info,
                                            MPI_ERRORS_RETURN, &ic));
    MPI_OK(MPI_Info_free(&info));
    MPI_OK(MPI_Intercomm_create_from_groups(lg, 0, rg, 0, "org.compi.test.groups.b", MPI_INFO_NULL,
                                            MPI_ERRHANDLER_NULL, &ic2));

    MPI_OK(MPI_Comm_test_inter(ic, &flag));
    CHECK(flag, "%s: not an intercommunicator", what);
    int size, rsize, rank;
    MPI_OK(MPI_Comm_size(ic, &size));
    MPI_OK(MPI_Comm_remote_size(ic, &rsize));
    MPI_OK(MPI_Comm_rank(ic, &rank));
    CHECK(size == ln && rsize == rn && rank == lrank, "%s: size %d remote %d rank %d", what, size,
          rsize, rank);
    MPI_Group got;
    MPI_OK(MPI_Comm_group(ic, &got));
    MPI_OK(MPI_Group_compare(got, lg, &cmp));
    CHECK(cmp == MPI_IDENT, "%s: local group compares %d", what, cmp);
    MPI_OK(MPI_Group_free(&got));
    MPI_OK(MPI_Comm_remote_group(ic, &got));
    MPI_OK(MPI_Group_compare(got, rg, &cmp));
    CHECK(cmp == MPI_IDENT, "%s: remote group compares %d", what, cmp);
    MPI_OK(MPI_Group_free(&got));

    /* the error handler given, and the one of a call given none */
    MPI_Errhandler eh;
    MPI_OK(MPI_Comm_get_errhandler(ic, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "%s: error handler 0x%x", what, (unsigned)eh);
    MPI_OK(MPI_Errhandler_free(&eh));
    int rc = MPI_Send(&me, 1, MPI_INT, rn, 0, ic), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_RANK, "%s: send to remote rank %d: class %d", what, rn, cls);
    MPI_Info used;
    MPI_OK(MPI_Comm_get_info(ic, &used));
    char v[32] = "";
    int vlen = sizeof(v);
    MPI_OK(MPI_Info_get_string(used, "mpi_assert_no_any_tag", &vlen, v, &flag));
    CHECK(flag && strcmp(v, "true") == 0, "%s: info mpi_assert_no_any_tag %d '%s'", what, flag, v);
    MPI_OK(MPI_Info_free(&used));

    /* point-to-point: to every remote rank, the same tag on both intercommunicators, sent
       on ic then ic2 and received in the other order */
    MPI_Request *req = mt_malloc(sizeof(MPI_Request) * (size_t)(2 * rn));
    int *out = mt_malloc(sizeof(int) * (size_t)(2 * rn));
    for (int j = 0; j < rn; j++) {
        out[2 * j] = 1000 * me + j;
        out[2 * j + 1] = -1000 * me - j;
        MPI_OK(MPI_Isend(&out[2 * j], 1, MPI_INT, j, 5, ic, &req[2 * j]));
        MPI_OK(MPI_Isend(&out[2 * j + 1], 1, MPI_INT, j, 5, ic2, &req[2 * j + 1]));
    }
    for (int j = 0; j < rn; j++) {
        int a = 0, b = 0, w = group_world_rank(rg, all, j);
        MPI_Status st;
        MPI_OK(MPI_Recv(&b, 1, MPI_INT, j, 5, ic2, &st));
        CHECK(b == -1000 * w - lrank && st.MPI_SOURCE == j, "%s: ic2 from %d: %d (source %d)", what,
              j, b, st.MPI_SOURCE);
        MPI_OK(MPI_Recv(&a, 1, MPI_INT, MPI_ANY_SOURCE, 5, ic, &st));
        int ws = group_world_rank(rg, all, st.MPI_SOURCE);
        CHECK(a == 1000 * ws + lrank, "%s: ic from %d: %d", what, st.MPI_SOURCE, a);
    }
    MPI_OK(MPI_Waitall(2 * rn, req, MPI_STATUSES_IGNORE));
    free(req);
    free(out);

    /* collectives: barrier, bcast from the remote leader, allreduce */
    MPI_OK(MPI_Barrier(ic));
    for (int s = 0; s < 2; s++) {
        int buf = -1, root;
        if (s == side) {
            root = lrank == ln - 1 ? MPI_ROOT : MPI_PROC_NULL;
            buf = 4242 + s;
        } else {
            root = rn - 1;
        }
        MPI_OK(MPI_Bcast(&buf, 1, MPI_INT, root, ic));
        if (s != side)
            CHECK(buf == 4242 + s, "%s: bcast from the remote leader: %d", what, buf);
    }
    int sum = -1, want = 0;
    for (int j = 0; j < rn; j++)
        want += group_world_rank(rg, all, j);
    MPI_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, ic2));
    CHECK(sum == want, "%s: allreduce %d, expected %d", what, sum, want);

    /* merge: the group of high == 0 first */
    MPI_Comm m;
    int mrank, msize;
    MPI_OK(MPI_Intercomm_merge(ic, side, &m));
    MPI_OK(MPI_Comm_size(m, &msize));
    MPI_OK(MPI_Comm_rank(m, &mrank));
    CHECK(msize == np && mrank == (side ? rn + lrank : lrank), "%s: merged rank %d of %d", what,
          mrank, msize);
    MPI_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, m));
    CHECK(sum == np * (np - 1) / 2, "%s: allreduce on the merge %d", what, sum);
    MPI_OK(MPI_Comm_free(&m));

    MPI_OK(MPI_Comm_free(&ic));
    MPI_OK(MPI_Comm_free(&ic2));
    MPI_OK(MPI_Group_free(&lg));
    MPI_OK(MPI_Group_free(&rg));
}

static int class_of(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

/* bad arguments: every one is found before any message, so one rank alone may try it */
static void check_errors(MPI_Group all)
{
    MPI_Comm ic = MPI_COMM_NULL;
    MPI_Group mine, others = MPI_GROUP_EMPTY;
    MPI_OK(MPI_Group_incl(all, 1, &me, &mine));
    if (np > 1)
        MPI_OK(MPI_Group_excl(all, 1, &me, &others));
    MPI_Group remote = np > 1 ? others : MPI_GROUP_EMPTY;
    const char *t = "org.compi.test.groups.err";
    int rc;

    rc =
        MPI_Intercomm_create_from_groups(all, 0, mine, 0, t, MPI_INFO_NULL, MPI_ERRORS_RETURN, &ic);
    CHECK(class_of(rc) == MPI_ERR_GROUP, "overlapping groups: class %d", class_of(rc));
    CHECK(ic == MPI_COMM_NULL, "overlapping groups: a communicator");
    if (np > 1) {
        rc = MPI_Intercomm_create_from_groups(others, 0, mine, 0, t, MPI_INFO_NULL,
                                              MPI_ERRORS_RETURN, &ic);
        CHECK(class_of(rc) == MPI_ERR_GROUP, "not in local_group: class %d", class_of(rc));
    }
    rc = MPI_Intercomm_create_from_groups(mine, 0, MPI_GROUP_EMPTY, 0, t, MPI_INFO_NULL,
                                          MPI_ERRORS_RETURN, &ic);
    CHECK(class_of(rc) == MPI_ERR_GROUP, "empty remote group: class %d", class_of(rc));
    rc = MPI_Intercomm_create_from_groups(MPI_GROUP_NULL, 0, remote, 0, t, MPI_INFO_NULL,
                                          MPI_ERRORS_RETURN, &ic);
    CHECK(class_of(rc) == MPI_ERR_GROUP, "MPI_GROUP_NULL: class %d", class_of(rc));
    if (np > 1) {
        rc = MPI_Intercomm_create_from_groups(mine, 1, remote, 0, t, MPI_INFO_NULL,
                                              MPI_ERRORS_RETURN, &ic);
        CHECK(class_of(rc) == MPI_ERR_RANK, "local_leader 1 of 1: class %d", class_of(rc));
        rc = MPI_Intercomm_create_from_groups(mine, 0, remote, np - 1, t, MPI_INFO_NULL,
                                              MPI_ERRORS_RETURN, &ic);
        CHECK(class_of(rc) == MPI_ERR_RANK, "remote_leader %d of %d: class %d", np - 1, np - 1,
              class_of(rc));
        rc = MPI_Intercomm_create_from_groups(mine, 0, remote, -1, t, MPI_INFO_NULL,
                                              MPI_ERRORS_RETURN, &ic);
        CHECK(class_of(rc) == MPI_ERR_RANK, "remote_leader -1: class %d", class_of(rc));
        rc = MPI_Intercomm_create_from_groups(mine, 0, remote, 0, NULL, MPI_INFO_NULL,
                                              MPI_ERRORS_RETURN, &ic);
        CHECK(class_of(rc) == MPI_ERR_ARG, "stringtag NULL: class %d", class_of(rc));
        rc = MPI_Intercomm_create_from_groups(mine, 0, remote, 0, t, MPI_INFO_NULL,
                                              MPI_ERRORS_RETURN, NULL);
        CHECK(class_of(rc) == MPI_ERR_ARG, "newintercomm NULL: class %d", class_of(rc));
        char long_tag[MPI_MAX_STRINGTAG_LEN + 1];
        memset(long_tag, 'x', sizeof(long_tag) - 1);
        long_tag[sizeof(long_tag) - 1] = '\0';
        rc = MPI_Intercomm_create_from_groups(mine, 0, remote, 0, long_tag, MPI_INFO_NULL,
                                              MPI_ERRORS_RETURN, &ic);
        CHECK(class_of(rc) == MPI_ERR_ARG, "stringtag too long: class %d", class_of(rc));
    }
    CHECK(ic == MPI_COMM_NULL, "a failed call left a communicator");
    MPI_OK(MPI_Group_free(&mine));
    if (np > 1)
        MPI_OK(MPI_Group_free(&others));
}

int main(int argc, char **argv)
{
    int session = argc > 1 && strcmp(argv[1], "session") == 0;
    MPI_Session s = MPI_SESSION_NULL;
    MPI_Group all;

    if (session) {
        /* no MPI_Init: the sessions model only (mt_init is not used) */
        mt_name = "intercomm_groups";
        MPI_OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
        MPI_OK(MPI_Group_from_session_pset(s, "mpi://WORLD", &all));
        MPI_OK(MPI_Group_size(all, &np));
        MPI_OK(MPI_Group_rank(all, &me));
        mt_rank = me;
        mt_size = np;
    } else {
        mt_init(&argc, &argv, "intercomm_groups");
        me = mt_rank;
        np = mt_size;
        MPI_OK(MPI_Comm_group(MPI_COMM_WORLD, &all));
    }
    /* errors outside any communicator go to MPI_COMM_WORLD's handler */
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    check_errors(all);
    if (np >= 2) {
        check_one(all, halves, "halves");
        check_one(all, parity, "even/odd");
        check_one(all, one_rest, "one/rest");
    }
    MPI_OK(MPI_Group_free(&all));
    if (!session)
        return mt_finish();
    MPI_OK(MPI_Session_finalize(&s));
    if (mt_errors == 0 && me == 0)
        printf("ok: %s np=%d\n", mt_name, np);
    if (mt_errors != 0)
        fprintf(stderr, "%s rank %d: %d check(s) failed\n", mt_name, me, mt_errors);
    return mt_errors == 0 ? 0 : 1;
}
