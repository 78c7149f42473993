/*
 * io_atomic: MPI-IO atomic mode.  Every rank writes records of its own byte over the same
 * file range again and again (overlapping: half a record apart), and reads the records
 * back between its writes: under MPI_File_set_atomicity(fh, 1) no read ever sees a record
 * made of two ranks' bytes.  Then MPI_File_sync: after it every rank sees the last
 * writes of all.
 */
#include "tests/mpi/io_test.h"

#define REC (256 * 1024)
#define ROUNDS 12

int main(int argc, char **argv)
{
    MPI_File fh;
    unsigned char *mine, *got;
    mt_init(&argc, &argv, "io_atomic");
    io_dir_make(MPI_COMM_WORLD);
    mine = malloc(REC);
    got = malloc(REC);
    memset(mine, 'a' + mt_rank, REC);
    MPI_OK(MPI_File_open(MPI_COMM_WORLD, io_path("atomic"), MPI_MODE_CREATE | MPI_MODE_RDWR,
                         MPI_INFO_NULL, &fh));
    MPI_OK(MPI_File_set_atomicity(fh, 1));
    /* records at 0 and REC/2: the two overlap by half */
    MPI_Offset at = (MPI_Offset)(mt_rank % 2) * (REC / 2);
    for (int r = 0; r < ROUNDS; r++) {
        MPI_Status st;
        int n = 0;
        MPI_OK(MPI_File_write_at(fh, at, mine, REC, MPI_BYTE, MPI_STATUS_IGNORE));
        MPI_OK(MPI_File_read_at(fh, at, got, REC, MPI_BYTE, &st));
        MPI_OK(MPI_Get_count(&st, MPI_BYTE, &n));
        CHECK(n == REC, "read %d bytes of a record", n);
        for (int k = 1; k < n; k++) {
            int first = k < REC / 2 ? 0 : REC / 2;
            if (got[k] != got[first]) {
                CHECK(0, "round %d: a torn record (%c at %d, %c at %d)", r, got[first], first,
                      got[k], k);
                break;
            }
        }
    }
    MPI_OK(MPI_File_sync(fh));
    /* after the sync every rank sees one whole record at 0 */
    MPI_OK(MPI_File_read_at(fh, 0, got, REC / 2, MPI_BYTE, MPI_STATUS_IGNORE));
    for (int k = 1; k < REC / 2; k++) {
        if (got[k] != got[0] || got[0] < 'a' || got[0] >= 'a' + mt_size) {
            CHECK(0, "after sync: byte %d is %c, byte 0 %c", k, got[k], got[0]);
            break;
        }
    }
    MPI_OK(MPI_File_close(&fh));
    free(mine);
    free(got);
    io_dir_remove(MPI_COMM_WORLD);
    return mt_finish();
}
