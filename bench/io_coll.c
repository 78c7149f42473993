/*
 * io_coll.c: collective MPI-IO on interleaved records, with and without collective
 * buffering.  Every rank writes every p-th record of `-r` bytes (`-n` records in all)
 * through a file view with MPI_File_write_all, then reads them back with
 * MPI_File_read_all; the file is opened once per mode with romio_cb_write/romio_cb_read
 * set to enable (two-phase: a few aggregators write large pieces) and disable (each rank
 * writes its own records), and cb_nodes, cb_buffer_size from -a and -b when given.
 *
 * Usage: io_coll [-n records] [-r record_bytes] [-i iters] [-a cb_nodes] [-b cb_buffer_size]
 *        [-d directory]
 * Output: one line per mode: the median over the iterations of the slowest rank's time of
 * one write_all and of one read_all, in ms, and the bandwidth of the write.  Standard
 * MPI only; any number of ranks (ROMIO's hints: MPICH and Open MPI's ROMIO read them too).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), cmp);
    return v[n / 2];
}

int main(int argc, char **argv)
{
    long nrec = 65536, rlen = 64;
    int iters = 5, c, rank, p;
    const char *nodes = NULL, *bufsize = NULL, *dir = "/tmp";

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    while ((c = getopt(argc, argv, "n:r:i:a:b:d:")) != -1) {
        switch (c) {
        case 'n':
            nrec = atol(optarg);
            break;
        case 'r':
            rlen = atol(optarg);
            break;
        case 'i':
            iters = atoi(optarg);
            break;
        case 'a':
            nodes = optarg;
            break;
        case 'b':
            bufsize = optarg;
            break;
        case 'd':
            dir = optarg;
            break;
        default:
            if (rank == 0) {
                fprintf(stderr, "usage: io_coll [-n records] [-r bytes] [-i iters] [-a cb_nodes] "
                                "[-b cb_buffer_size] [-d dir]\n");
            }
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    long mine = (nrec - rank + p - 1) / p;
    char *buf = malloc((size_t)(mine * rlen) + 1);
    memset(buf, 'a' + rank % 26, (size_t)(mine * rlen));
    /* my records: one every p, a vector of rlen bytes with stride p * rlen */
    MPI_Datatype vec, view;
    MPI_Type_vector((int)mine, (int)rlen, (int)(p * rlen), MPI_BYTE, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)(nrec * rlen), &view);
    MPI_Type_commit(&view);
    char path[512];
    snprintf(path, sizeof(path), "%s/io_coll_bench.%d", dir, (int)getppid());
    MPI_Bcast(path, sizeof(path), MPI_CHAR, 0, MPI_COMM_WORLD);

    const char *modes[] = {"enable", "disable"};
    for (int m = 0; m < 2; m++) {
        MPI_Info info;
        MPI_File fh;
        double *tw = malloc(sizeof(double) * (size_t)iters),
               *tr = malloc(sizeof(double) * (size_t)iters);
        MPI_Info_create(&info);
        MPI_Info_set(info, "romio_cb_write", modes[m]);
        MPI_Info_set(info, "romio_cb_read", modes[m]);
        if (nodes != NULL) {
            MPI_Info_set(info, "cb_nodes", nodes);
        }
        if (bufsize != NULL) {
            MPI_Info_set(info, "cb_buffer_size", bufsize);
        }
        MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
        MPI_File_set_view(fh, (MPI_Offset)(rank * rlen), MPI_BYTE, view, "native", MPI_INFO_NULL);
        for (int i = 0; i <= iters; i++) { /* the first is a warm-up */
            double t, w, r;
            MPI_Barrier(MPI_COMM_WORLD);
            t = MPI_Wtime();
            MPI_File_write_at_all(fh, 0, buf, (int)(mine * rlen), MPI_BYTE, MPI_STATUS_IGNORE);
            t = MPI_Wtime() - t;
            MPI_Allreduce(&t, &w, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            MPI_Barrier(MPI_COMM_WORLD);
            t = MPI_Wtime();
            MPI_File_read_at_all(fh, 0, buf, (int)(mine * rlen), MPI_BYTE, MPI_STATUS_IGNORE);
            t = MPI_Wtime() - t;
            MPI_Allreduce(&t, &r, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            if (i > 0) {
                tw[i - 1] = w;
                tr[i - 1] = r;
            }
        }
        MPI_File_close(&fh);
        MPI_Info_free(&info);
        if (rank == 0) {
            double w = median(tw, iters), r = median(tr, iters);
            printf("np=%d records=%ld x %ld B cb=%-7s write_all %8.2f ms (%7.1f MB/s)  read_all "
                   "%8.2f ms\n",
                   p, nrec, rlen, modes[m], w * 1e3, (double)(nrec * rlen) / w / 1e6, r * 1e3);
        }
        free(tw);
        free(tr);
    }
    if (rank == 0) {
        unlink(path);
    }
    MPI_Type_free(&view);
    MPI_Type_free(&vec);
    free(buf);
    MPI_Finalize();
    return 0;
}
