/*
 * dynports.c -- MPI_Open_port, MPI_Comm_accept / MPI_Comm_connect, MPI_Publish_name /
 * MPI_Lookup_name / MPI_Unpublish_name, MPI_Close_port and MPI_Comm_join between
 * processes of one mpirun: the two halves of MPI_COMM_WORLD (at np 1, the world and a
 * process it spawns).  Each connection is checked with point-to-point both ways and an
 * allreduce across, then disconnected; the same port serves two connections in a row.
 * Also the error classes of bad ports and names.
 */
#include "tests/mpi/mpitest.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#define SERVICE "compi dynports service"

/* p2p both ways between rank 0 of each side, and an allreduce across */
static void check_link(MPI_Comm inter, int side, const char *what)
{
    int lrank, lsize, rsize, v = -1, sum;

    MPI_OK(MPI_Comm_rank(inter, &lrank));
    MPI_OK(MPI_Comm_size(inter, &lsize));
    MPI_OK(MPI_Comm_remote_size(inter, &rsize));
    if (lrank == 0) {
        int mine = 100 * side + 7;
        MPI_OK(
            MPI_Sendrecv(&mine, 1, MPI_INT, 0, 3, &v, 1, MPI_INT, 0, 3, inter, MPI_STATUS_IGNORE));
        CHECK(v == 100 * (1 - side) + 7, "%s: got %d from the other side", what, v);
    }
    v = side + 1;
    MPI_OK(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, inter));
    CHECK(sum == rsize * (2 - side), "%s: allreduce gave %d (remote size %d)", what, sum, rsize);
}

/* a listening TCP socket on the loopback; its port in *port_p */
static int tcp_listen(int *port_p)
{
    struct sockaddr_in a = {.sin_family = AF_INET};
    socklen_t len = sizeof(a);
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(fd, 1) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &len) != 0)
        return -1;
    *port_p = ntohs(a.sin_port);
    return fd;
}

static int tcp_connect(int port)
{
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((unsigned short)port)};
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0)
        return -1;
    return fd;
}

/* MPI_Comm_join over TCP: the listening side tells the other its port over `comm` */
static void join(MPI_Comm comm, int listener, int other)
{
    int port = 0, fd, lfd = -1;
    MPI_Comm ic;

    if (listener) {
        lfd = tcp_listen(&port);
        CHECK(lfd >= 0, "cannot listen on the loopback");
        MPI_OK(MPI_Send(&port, 1, MPI_INT, other, 5, comm));
        fd = accept(lfd, NULL, NULL);
    } else {
        MPI_OK(MPI_Recv(&port, 1, MPI_INT, other, 5, comm, MPI_STATUS_IGNORE));
        fd = tcp_connect(port);
    }
    CHECK(fd >= 0, "no TCP connection for MPI_Comm_join");
    MPI_OK(MPI_Comm_join(fd, &ic));
    CHECK(ic != MPI_COMM_NULL, "MPI_Comm_join gave MPI_COMM_NULL");
    check_link(ic, listener ? 0 : 1, "join");
    MPI_OK(MPI_Comm_disconnect(&ic));
    close(fd);
    if (lfd >= 0)
        close(lfd);
}

static void errors(void)
{
    char port[MPI_MAX_PORT_NAME];
    MPI_Comm ic;
    int rc, cls;

    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    rc = MPI_Lookup_name("compi no such service", MPI_INFO_NULL, port);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_NAME, "lookup of an unknown name: class %d", cls);
    rc = MPI_Unpublish_name("compi no such service", MPI_INFO_NULL, "compi-port:x");
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_SERVICE, "unpublish of an unknown name: class %d", cls);
    rc = MPI_Comm_connect("not a port", MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_PORT && ic == MPI_COMM_NULL, "connect to garbage: class %d", cls);
    rc = MPI_Comm_connect("compi-port:compi.1.deadbeef:0:0", MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_PORT, "connect to another mpirun's port without an address: class %d",
          cls);
    /* TCP port 1 of the loopback: nothing listens there */
    rc = MPI_Comm_connect("compi-port:compi.1.deadbeef:0:0:127.0.0.1:1", MPI_INFO_NULL, 0,
                          MPI_COMM_SELF, &ic);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_PORT && ic == MPI_COMM_NULL,
          "connect to another mpirun's port that nobody listens on: class %d", cls);
    MPI_OK(MPI_Open_port(MPI_INFO_NULL, port));
    MPI_OK(MPI_Close_port(port));
    rc = MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_PORT, "connect to a closed port: class %d", cls);
    rc = MPI_Close_port(port);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_PORT, "closing a closed port: class %d", cls);
    rc = MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_PORT, "accept on a closed port: class %d", cls);
    rc = MPI_Comm_join(-1, &ic);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ARG, "join on fd -1: class %d", cls);
    /* names, pointers, hints and communicators checked before anything is done */
    MPI_Info freed;
    MPI_OK(MPI_Info_create(&freed));
    MPI_Info bad = freed;
    MPI_OK(MPI_Info_free(&freed));
    static const struct {
        int cls;
        const char *what;
    } want[] = {
        {MPI_ERR_PORT, "Close_port(NULL)"},
        {MPI_ERR_ARG, "Publish_name(NULL service)"},
        {MPI_ERR_ARG, "Lookup_name(\"\")"},
        {MPI_ERR_ARG, "Lookup_name(NULL port_name)"},
        {MPI_ERR_ARG, "Open_port(NULL)"},
        {MPI_ERR_INFO, "Open_port(a freed info)"},
        {MPI_ERR_ARG, "Comm_get_parent(NULL)"},
        {MPI_ERR_ARG, "Comm_disconnect(NULL)"},
        {MPI_ERR_COMM, "Comm_disconnect(MPI_COMM_WORLD)"},
        {MPI_ERR_ARG, "Comm_join(0, NULL)"},
        {MPI_ERR_ROOT, "Comm_accept(root 1 of MPI_COMM_SELF)"},
        {MPI_ERR_ARG, "Comm_accept(NULL newcomm)"},
        {MPI_ERR_PORT, "Comm_connect(NULL port_name)"},
    };
    MPI_Comm world = MPI_COMM_WORLD;
    int got[sizeof(want) / sizeof(want[0])], n = 0;
    got[n++] = MPI_Close_port(NULL);
    got[n++] = MPI_Publish_name(NULL, MPI_INFO_NULL, port);
    got[n++] = MPI_Lookup_name("", MPI_INFO_NULL, port);
    got[n++] = MPI_Lookup_name("compi no such service", MPI_INFO_NULL, NULL);
    got[n++] = MPI_Open_port(MPI_INFO_NULL, NULL);
    got[n++] = MPI_Open_port(bad, port);
    got[n++] = MPI_Comm_get_parent(NULL);
    got[n++] = MPI_Comm_disconnect(NULL);
    got[n++] = MPI_Comm_disconnect(&world);
    got[n++] = MPI_Comm_join(0, NULL);
    got[n++] = MPI_Comm_accept(port, MPI_INFO_NULL, 1, MPI_COMM_SELF, &ic);
    got[n++] = MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, NULL);
    got[n++] = MPI_Comm_connect(NULL, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic);
    for (int i = 0; i < n; i++) {
        MPI_Error_class(got[i], &cls);
        CHECK(cls == want[i].cls, "%s: class %d, not %d", want[i].what, cls, want[i].cls);
    }
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL));
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

/* np 1: the spawned process looks the port up, connects, then joins its parent */
static int child(void)
{
    char port[MPI_MAX_PORT_NAME];
    MPI_Comm parent, ic;

    MPI_OK(MPI_Comm_get_parent(&parent));
    MPI_OK(MPI_Lookup_name(SERVICE, MPI_INFO_NULL, port));
    for (int round = 0; round < 2; round++) {
        MPI_OK(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic));
        check_link(ic, 1, "connect");
        MPI_OK(MPI_Comm_disconnect(&ic));
    }
    join(parent, 0, 0);
    MPI_OK(MPI_Comm_disconnect(&parent));
    MPI_OK(MPI_Finalize());
    return mt_errors != 0;
}

int main(int argc, char **argv)
{
    char port[MPI_MAX_PORT_NAME], found[MPI_MAX_PORT_NAME];
    MPI_Comm half, ic, spawned = MPI_COMM_NULL;
    int side, rc, cls;

    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        mt_name = "dynports-child";
        MPI_OK(MPI_Init(&argc, &argv));
        MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank));
        return child();
    }
    mt_init(&argc, &argv, "dynports");
    errors();

    /* side 0 (the first half, or the whole world at np 1) accepts */
    side = mt_size > 1 && mt_rank >= (mt_size + 1) / 2;
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, side, mt_rank, &half));
    if (side == 0) {
        if (mt_rank == 0) {
            MPI_OK(MPI_Open_port(MPI_INFO_NULL, port));
            MPI_OK(MPI_Publish_name(SERVICE, MPI_INFO_NULL, port));
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
            rc = MPI_Publish_name(SERVICE, MPI_INFO_NULL, port);
            MPI_Error_class(rc, &cls);
            CHECK(cls == MPI_ERR_SERVICE, "publishing a name twice: class %d", cls);
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        }
    }
    mt_barrier(mt_sync_comm); /* the name is published */
    if (mt_size == 1) {
        char self[4096];
        char *args[] = {"child", NULL};
        CHECK(realpath(argv[0], self) != NULL, "realpath(%s)", argv[0]);
        MPI_OK(MPI_Comm_spawn(self, args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &spawned,
                              MPI_ERRCODES_IGNORE));
    }
    if (side == 1) {
        MPI_OK(MPI_Lookup_name(SERVICE, MPI_INFO_NULL, found));
        /* two connections in a row on one port, rooted at each end of the half */
        int hsize;
        MPI_OK(MPI_Comm_size(half, &hsize));
        for (int round = 0; round < 2; round++) {
            MPI_OK(MPI_Comm_connect(found, MPI_INFO_NULL, round == 0 ? 0 : hsize - 1, half, &ic));
            check_link(ic, 1, "connect");
            MPI_OK(MPI_Comm_disconnect(&ic));
        }
    } else {
        int hsize;
        MPI_OK(MPI_Comm_size(half, &hsize));
        for (int round = 0; round < 2; round++) {
            /* the port name counts at the root only */
            int root = round == 0 ? 0 : hsize - 1;
            if (round == 1 && root != 0) {
                if (mt_rank == 0)
                    MPI_OK(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, root, 4, half));
                else if (mt_rank == root)
                    MPI_OK(
                        MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 4, half, MPI_STATUS_IGNORE));
            }
            MPI_OK(MPI_Comm_accept(port, MPI_INFO_NULL, root, half, &ic));
            check_link(ic, 0, "accept");
            MPI_OK(MPI_Comm_disconnect(&ic));
        }
    }
    mt_barrier(mt_sync_comm); /* every connection is over */
    if (mt_rank == 0) {
        MPI_OK(MPI_Unpublish_name(SERVICE, MPI_INFO_NULL, port));
        MPI_OK(MPI_Close_port(port));
    }

    /* MPI_Comm_join: rank 0 and the last rank, or the parent and its child at np 1 */
    if (mt_size == 1) {
        join(spawned, 1, 0);
        MPI_OK(MPI_Comm_disconnect(&spawned));
    } else if (mt_rank == 0 || mt_rank == mt_size - 1) {
        join(MPI_COMM_WORLD, mt_rank == 0, mt_rank == 0 ? mt_size - 1 : 0);
    }
    MPI_OK(MPI_Comm_free(&half));
    return mt_finish();
}
