/*
 * spawn.c -- MPI_Comm_spawn and MPI_Comm_spawn_multiple: the parents (the world mpirun
 * started) start copies of this program, which find them with MPI_Comm_get_parent; both
 * sides exchange point-to-point messages and run collectives across the
 * intercommunicator and on its merge, then disconnect.  Also: MPI_COMM_NULL as the
 * parent of a world mpirun started, MPI_UNIVERSE_SIZE, MPI_APPNUM, argv and the "wdir"
 * info key reaching the children, and the error classes of bad calls.
 *
 *   spawn            the parents' side (np any)
 *   spawn refuse     started without mpirun (a singleton): spawn fails with
 *                    MPI_ERR_SPAWN, ports with MPI_ERR_PORT, nothing hangs
 *   spawn dies       a spawned child exits without MPI_Finalize while everybody waits
 *                    for a message: mpirun must take the whole job down, naming it
 *   spawn notmpi     the parents spawn /bin/true, which never calls MPI_Init: mpirun
 *                    takes the job down instead of leaving the parents waiting
 *   spawn child ...  a child (the parents pass that argument)
 */
#include "tests/mpi/mpitest.h"

#include <limits.h>
#include <unistd.h>

#define NCHILD 3

/* what both sides check after a spawn: p2p both ways, bcast, allreduce, merge */
static void talk(MPI_Comm inter, int parent_side)
{
    int lrank, lsize, rsize, v, sum, want;
    MPI_Comm merged;

    MPI_OK(MPI_Comm_rank(inter, &lrank));
    MPI_OK(MPI_Comm_size(inter, &lsize));
    MPI_OK(MPI_Comm_remote_size(inter, &rsize));

    /* p2p: each child i gets 1000 + i from parent i % P and answers it with twice that */
    if (parent_side) {
        for (int c = 0; c < rsize; c++) {
            if (c % lsize != lrank)
                continue;
            v = 1000 + c;
            MPI_OK(MPI_Send(&v, 1, MPI_INT, c, 7, inter));
        }
        for (int c = 0; c < rsize; c++) {
            MPI_Status st;
            if (c % lsize != lrank)
                continue;
            MPI_OK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 8, inter, &st));
            CHECK(v == 2 * (1000 + st.MPI_SOURCE), "child %d answered %d", st.MPI_SOURCE, v);
        }
    } else {
        MPI_Status st;
        MPI_OK(MPI_Recv(&v, 1, MPI_INT, lrank % rsize, 7, inter, &st));
        CHECK(v == 1000 + lrank && st.MPI_SOURCE == lrank % rsize, "child %d got %d from %d", lrank,
              v, st.MPI_SOURCE);
        v *= 2;
        MPI_OK(MPI_Send(&v, 1, MPI_INT, lrank % rsize, 8, inter));
    }

    /* a large message each way (rendezvous, single copy where it works) */
    {
        enum { N = 1 << 18 };
        int *big = malloc(N * sizeof(int));
        if (parent_side && lrank == 0) {
            for (int i = 0; i < N; i++)
                big[i] = i ^ 0x5a5a;
            MPI_OK(MPI_Send(big, N, MPI_INT, 0, 9, inter));
            MPI_OK(MPI_Recv(big, N, MPI_INT, 0, 10, inter, MPI_STATUS_IGNORE));
            int bad = 0;
            for (int i = 0; i < N; i++)
                bad += big[i] != (i ^ 0x5a5a) + 1;
            CHECK(bad == 0, "%d wrong ints in the large answer", bad);
        } else if (!parent_side && lrank == 0) {
            MPI_OK(MPI_Recv(big, N, MPI_INT, 0, 9, inter, MPI_STATUS_IGNORE));
            for (int i = 0; i < N; i++)
                big[i] += 1;
            MPI_OK(MPI_Send(big, N, MPI_INT, 0, 10, inter));
        }
        free(big);
    }

    /* bcast from parent 0 to the children */
    v = parent_side ? 4242 : 0;
    if (parent_side)
        MPI_OK(MPI_Bcast(&v, 1, MPI_INT, lrank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter));
    else
        MPI_OK(MPI_Bcast(&v, 1, MPI_INT, 0, inter));
    CHECK(v == 4242, "bcast gave %d", v);

    /* allreduce: each side gets the sum over the other (parents 1 each, children 10) */
    v = parent_side ? 1 : 10;
    MPI_OK(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, inter));
    want = parent_side ? 10 * rsize : rsize;
    CHECK(sum == want, "intercomm allreduce gave %d, want %d", sum, want);

    /* a chain of six idups: the later ones, their pools run out, agree on their ids over
       both worlds (the root chosen alike by parents and children); an allreduce across
       the last one */
    {
        MPI_Comm chain[6], prev = inter;
        MPI_Request rq;
        for (int i = 0; i < 6; i++) {
            MPI_OK(MPI_Comm_idup(prev, &chain[i], &rq));
            MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            prev = chain[i];
        }
        v = parent_side ? 1 : 10;
        MPI_OK(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, chain[5]));
        CHECK(sum == want, "allreduce over the sixth idup gave %d, want %d", sum, want);
        for (int i = 5; i >= 0; i--) {
            MPI_OK(MPI_Comm_free(&chain[i]));
        }
    }

    /* the merge: parents first; a collective and a barrier over every process */
    MPI_OK(MPI_Intercomm_merge(inter, parent_side ? 0 : 1, &merged));
    int mrank, msize;
    MPI_OK(MPI_Comm_rank(merged, &mrank));
    MPI_OK(MPI_Comm_size(merged, &msize));
    CHECK(msize == lsize + rsize, "merged size %d", msize);
    CHECK(mrank == (parent_side ? lrank : rsize + lrank), "merged rank %d", mrank);
    MPI_OK(MPI_Allreduce(&mrank, &sum, 1, MPI_INT, MPI_SUM, merged));
    CHECK(sum == msize * (msize - 1) / 2, "merged allreduce gave %d", sum);
    MPI_OK(MPI_Barrier(merged));
    MPI_OK(MPI_Comm_free(&merged));
}

static int child(int argc, char **argv)
{
    MPI_Comm parent;
    int *appnum, flag, wsize;
    char cwd[PATH_MAX];

    MPI_OK(MPI_Comm_get_parent(&parent));
    CHECK(parent != MPI_COMM_NULL, "a spawned process has no parent");
    if (parent == MPI_COMM_NULL)
        return 1;
    if (strcmp(argv[2], "die") == 0) {
        int v;
        if (mt_rank == 1)
            _exit(3);
        MPI_OK(MPI_Recv(&v, 1, MPI_INT, 0, 1, parent, MPI_STATUS_IGNORE));
        return 1; /* no message ever comes: mpirun ends the job first */
    }
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &wsize));
    MPI_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag));
    CHECK(flag, "no MPI_APPNUM in a spawned world");
    if (strcmp(argv[2], "single") == 0) {
        CHECK(wsize == NCHILD, "children's world has %d processes", wsize);
        CHECK(argc == 5 && strcmp(argv[3], "two words") == 0 && strcmp(argv[4], "") == 0,
              "arguments did not arrive (argc %d)", argc);
        CHECK(flag && *appnum == 0, "appnum %d", flag ? *appnum : -1);
        CHECK(getcwd(cwd, sizeof(cwd)) != NULL && strcmp(cwd, "/") == 0,
              "the wdir info key was not honoured (cwd %s)", cwd);
    } else {
        /* spawn_multiple: 1 process of command 0, 2 of command 1 */
        int want = strcmp(argv[2], "multi0") == 0 ? 0 : 1;
        CHECK(wsize == 3, "children's world has %d processes", wsize);
        CHECK(flag && *appnum == want, "appnum %d, want %d", flag ? *appnum : -1, want);
    }
    talk(parent, 0);
    MPI_OK(MPI_Comm_disconnect(&parent));
    CHECK(parent == MPI_COMM_NULL, "disconnect did not set MPI_COMM_NULL");
    MPI_OK(MPI_Comm_get_parent(&parent));
    CHECK(parent == MPI_COMM_NULL, "get_parent after disconnect is not MPI_COMM_NULL");
    MPI_OK(MPI_Finalize());
    return mt_errors != 0;
}

static void errors(const char *self)
{
    MPI_Comm ic = MPI_COMM_WORLD;
    int codes[4] = {-1, -1, -1, -1}, rc, cls;
    char *args[] = {"child", NULL};
    MPI_Info info;

    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    rc = MPI_Comm_spawn(self, args, -1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic, codes);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ARG, "maxprocs -1: class %d", cls);
    CHECK(ic == MPI_COMM_NULL, "a failed spawn gave a communicator");

    /* the command, its arguments, maxprocs and info count at the root only: the others
       pass nothing */
    rc = MPI_Comm_spawn(mt_rank == 0 ? "/nonexistent/compi-no-such-program" : NULL,
                        mt_rank == 0 ? args : NULL, mt_rank == 0 ? 2 : -1,
                        mt_rank == 0 ? MPI_INFO_NULL : (MPI_Info)0x7777, 0, MPI_COMM_WORLD, &ic,
                        codes);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_SPAWN, "missing program: class %d", cls);
    if (mt_rank == 0)
        CHECK(codes[0] == MPI_ERR_SPAWN && codes[1] == MPI_ERR_SPAWN, "errcodes %d %d", codes[0],
              codes[1]);

    rc = MPI_Comm_spawn(self, args, 1, MPI_INFO_NULL, mt_size, MPI_COMM_WORLD, &ic, codes);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ROOT, "root out of range: class %d", cls);

    rc = MPI_Comm_spawn(self, args, 1, MPI_INFO_NULL, 0, MPI_COMM_NULL, &ic, codes);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COMM, "MPI_COMM_NULL: class %d", cls);

    rc = MPI_Comm_spawn(self, args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, NULL, codes);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ARG, "NULL intercomm: class %d", cls);

    MPI_OK(MPI_Info_create(&info));
    MPI_OK(MPI_Info_set(info, "host", "compi-no-such-host.invalid"));
    rc = MPI_Comm_spawn(self, args, 1, info, 0, MPI_COMM_WORLD, &ic, codes);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_SPAWN, "another host: class %d", cls);
    MPI_OK(MPI_Info_free(&info));
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

static void refuse(void)
{
    MPI_Comm ic, parent;
    char *args[] = {"child", NULL}, port[MPI_MAX_PORT_NAME];
    int rc, cls;

    MPI_OK(MPI_Comm_get_parent(&parent));
    CHECK(parent == MPI_COMM_NULL, "a singleton has a parent");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    rc = MPI_Comm_spawn("/bin/true", args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                        MPI_ERRCODES_IGNORE);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_SPAWN, "spawn from a singleton: class %d", cls);
    rc = MPI_Open_port(MPI_INFO_NULL, port);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_PORT, "Open_port in a singleton: class %d", cls);
}

int main(int argc, char **argv)
{
    MPI_Comm parent, ic;
    int *usize, flag, codes[NCHILD];
    MPI_Info info;

    if (argc > 2 && strcmp(argv[1], "child") == 0) {
        mt_name = "spawn-child";
        MPI_OK(MPI_Init(&argc, &argv));
        MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank));
        return child(argc, argv);
    }
    mt_init(&argc, &argv, "spawn");
    if (argc > 1 && strcmp(argv[1], "refuse") == 0) {
        refuse();
        return mt_finish();
    }
    if (argc > 1 && strcmp(argv[1], "notmpi") == 0) {
        MPI_OK(MPI_Comm_spawn("/bin/true", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                              MPI_ERRCODES_IGNORE));
        printf("MPI_Comm_spawn of a program without MPI returned\n");
        return 1;
    }
    if (argc > 1 && strcmp(argv[1], "dies") == 0) {
        char *die[] = {"child", "die", NULL};
        int v;
        MPI_OK(MPI_Comm_spawn(argv[0], die, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                              MPI_ERRCODES_IGNORE));
        MPI_OK(MPI_Recv(&v, 1, MPI_INT, 0, 1, ic, MPI_STATUS_IGNORE));
        printf("the job survived the death of a spawned process\n");
        return 1;
    }
    MPI_OK(MPI_Comm_get_parent(&parent));
    CHECK(parent == MPI_COMM_NULL, "a world mpirun started has a parent");
    MPI_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &usize, &flag));
    CHECK(flag && *usize >= mt_size, "MPI_UNIVERSE_SIZE %d (flag %d)", flag ? *usize : -1, flag);

    /* MPI_Comm_spawn of 3, from rank 0 of WORLD */
    char *args[] = {"child", "single", "two words", "", NULL};
    MPI_OK(MPI_Info_create(&info));
    MPI_OK(MPI_Info_set(info, "wdir", "/"));
    char self[PATH_MAX];
    CHECK(realpath(argv[0], self) != NULL, "realpath(%s)", argv[0]);
    MPI_OK(MPI_Comm_spawn(self, args, NCHILD, info, 0, MPI_COMM_WORLD, &ic, codes));
    MPI_OK(MPI_Info_free(&info));
    for (int i = 0; mt_rank == 0 && i < NCHILD; i++)
        CHECK(codes[i] == MPI_SUCCESS, "errcode %d of child %d", codes[i], i);
    int rsize, inter;
    MPI_OK(MPI_Comm_test_inter(ic, &inter));
    MPI_OK(MPI_Comm_remote_size(ic, &rsize));
    CHECK(inter && rsize == NCHILD, "spawn gave inter %d, remote size %d", inter, rsize);
    talk(ic, 1);
    MPI_OK(MPI_Comm_disconnect(&ic));

    /* MPI_Comm_spawn_multiple: 1 + 2 processes, rooted at the last rank */
    char *cmds[2] = {self, self};
    char *a0[] = {"child", "multi0", NULL}, *a1[] = {"child", "multi1", NULL};
    char **argvs[2] = {a0, a1};
    int maxprocs[2] = {1, 2}, mcodes[3];
    MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};
    MPI_OK(MPI_Comm_spawn_multiple(2, cmds, argvs, maxprocs, infos, mt_size - 1, MPI_COMM_WORLD,
                                   &ic, mcodes));
    MPI_OK(MPI_Comm_remote_size(ic, &rsize));
    CHECK(rsize == 3, "spawn_multiple gave remote size %d", rsize);
    talk(ic, 1);
    MPI_OK(MPI_Comm_disconnect(&ic));

    errors(self);
    return mt_finish();
}
