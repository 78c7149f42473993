/*
 * portjobs.c -- MPI_Comm_accept and MPI_Comm_connect between two jobs of two separate
 * mpiruns: `portjobs server FILE` opens a port and writes its name to FILE (whole: a
 * temporary file renamed), `portjobs client FILE` waits for FILE and connects to the name.
 * Both sides then check the intercommunicator (sizes, a message each way between every
 * pair of ranks, a rendezvous-sized one between the roots), an MPI_Allreduce over it
 * (each side gets the sum over the other group), merge it (both sides with high = 0: the
 * library orders the groups, alike in both jobs) and reduce over the merged communicator,
 * and disconnect; the server closes the port.  dynproc.sh starts the two
 * jobs (the 'portjobs' line of test-list.txt).
 */
#include "tests/mpi/mpitest.h"

#include <time.h>
#include <unistd.h>

#define BIG (1 << 20)

/* the port name in FILE, waiting (up to about 20 s) for the server to write it */
static void read_port(const char *file, char *port)
{
    struct timespec pause = {.tv_sec = 0, .tv_nsec = 10000000L};

    for (int i = 0; i < 2000; i++) {
        FILE *f = fopen(file, "r");
        if (f != NULL) {
            int ok = fgets(port, MPI_MAX_PORT_NAME, f) != NULL;
            fclose(f);
            if (ok) {
                port[strcspn(port, "\n")] = '\0';
                return;
            }
        }
        nanosleep(&pause, NULL);
    }
    CHECK(0, "no port name in %s", file);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static void write_port(const char *file, const char *port)
{
    char tmp[4096];
    FILE *f;

    snprintf(tmp, sizeof(tmp), "%s.tmp", file);
    CHECK((f = fopen(tmp, "w")) != NULL, "cannot write %s", tmp);
    if (f != NULL) {
        fprintf(f, "%s\n", port);
        fclose(f);
        CHECK(rename(tmp, file) == 0, "rename %s", tmp);
    }
}

/* side 0 accepted, side 1 connected */
static void check_link(MPI_Comm ic, int side)
{
    int rsize, flag, sum = -1, expect = 0;
    MPI_Comm merged;

    MPI_OK(MPI_Comm_test_inter(ic, &flag));
    CHECK(flag, "not an intercommunicator");
    MPI_OK(MPI_Comm_remote_size(ic, &rsize));
    /* every rank sends its rank + 100 * side to every remote rank and receives theirs */
    for (int r = 0; r < rsize; r++) {
        int out = mt_rank + 100 * side, in = -1;
        MPI_Status st;
        MPI_OK(MPI_Sendrecv(&out, 1, MPI_INT, r, 7, &in, 1, MPI_INT, r, 7, ic, &st));
        CHECK(in == r + 100 * (1 - side) && st.MPI_SOURCE == r, "from remote %d got %d (source %d)",
              r, in, st.MPI_SOURCE);
    }
    if (mt_rank == 0) {
        unsigned char *big = mt_malloc(BIG);
        if (side == 0) {
            mt_fill(big, BIG, 0, 11);
            MPI_OK(MPI_Send(big, BIG, MPI_BYTE, 0, 8, ic));
        } else {
            MPI_OK(MPI_Recv(big, BIG, MPI_BYTE, 0, 8, ic, MPI_STATUS_IGNORE));
            CHECK(mt_verify(big, BIG, 0, 11) < 0, "the large message differs");
        }
        free(big);
    }
    int mine = 1 + mt_rank + 1000 * side;
    MPI_OK(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, ic));
    for (int r = 0; r < rsize; r++) {
        expect += 1 + r + 1000 * (1 - side);
    }
    CHECK(sum == expect, "allreduce over the intercommunicator: %d, expected %d", sum, expect);
    MPI_OK(MPI_Intercomm_merge(ic, 0, &merged));
    int mr = -1, n = mt_size + rsize, all = 0;
    MPI_OK(MPI_Comm_rank(merged, &mr));
    MPI_OK(MPI_Allreduce(&mr, &all, 1, MPI_INT, MPI_SUM, merged));
    CHECK(all == n * (n - 1) / 2, "allreduce of the merged ranks: %d, expected %d", all,
          n * (n - 1) / 2);
    MPI_OK(MPI_Comm_free(&merged));
}

int main(int argc, char **argv)
{
    char port[MPI_MAX_PORT_NAME];
    MPI_Comm ic;
    int server = argc > 2 && strcmp(argv[1], "server") == 0;

    if (argc < 3 || (!server && strcmp(argv[1], "client") != 0)) {
        fprintf(stderr, "usage: portjobs server|client FILE\n");
        return 2;
    }
    mt_init(&argc, &argv, server ? "portjobs" : "portjobs-client");
    if (server) {
        if (mt_rank == 0) {
            MPI_OK(MPI_Open_port(MPI_INFO_NULL, port));
            write_port(argv[2], port);
        }
        MPI_OK(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic));
    } else {
        if (mt_rank == 0) {
            read_port(argv[2], port);
        }
        MPI_OK(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic));
    }
    check_link(ic, !server);
    MPI_OK(MPI_Comm_disconnect(&ic));
    if (server && mt_rank == 0) {
        MPI_OK(MPI_Close_port(port));
    }
    return mt_finish();
}
