/*
 * io_view: MPI-IO file views.  Ranks interleaved int by int through a resized filetype
 * (collective write, the whole file read back through a byte view); a nested strided
 * filetype (hvector of vectors) with holes the writes leave alone; an etype larger than
 * a byte (positions, seek and get_byte_offset count etypes); get_view (a derived filetype
 * comes back as a new handle of the same shape); the checks of set_view: a filetype not
 * made of whole etypes, an uncommitted type, a negative displacement,
 * MPI_DISPLACEMENT_CURRENT without MPI_MODE_SEQUENTIAL, an unknown representation.
 */
#include "tests/mpi/io_test.h"

#define N 32

static void interleaved(void)
{
    MPI_File fh;
    MPI_Datatype ft;
    MPI_Status st;
    int buf[N], n;

    MPI_OK(MPI_Type_create_resized(MPI_INT, 0, (MPI_Aint)sizeof(int) * mt_size, &ft));
    MPI_OK(MPI_Type_commit(&ft));
    MPI_OK(MPI_File_open(MPI_COMM_WORLD, io_path("il"), MPI_MODE_CREATE | MPI_MODE_RDWR,
                         MPI_INFO_NULL, &fh));
    MPI_OK(MPI_File_set_view(fh, (MPI_Offset)sizeof(int) * mt_rank, MPI_INT, ft, "native",
                             MPI_INFO_NULL));
    for (int i = 0; i < N; i++) {
        buf[i] = mt_rank * 1000 + i;
    }
    MPI_OK(MPI_File_write_all(fh, buf, N, MPI_INT, &st));
    MPI_OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(n == N, "write_all through the view: count %d", n);
    MPI_OK(MPI_File_sync(fh));
    /* read back through the view: one's own ints */
    memset(buf, 0, sizeof(buf));
    MPI_OK(MPI_File_read_at_all(fh, 0, buf, N, MPI_INT, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++) {
        CHECK(buf[i] == mt_rank * 1000 + i, "own int %d through the view: %d", i, buf[i]);
    }
    MPI_Offset off;
    MPI_OK(MPI_File_get_byte_offset(fh, 3, &off));
    CHECK(off == (MPI_Offset)sizeof(int) * (mt_rank + 3 * mt_size), "byte offset of etype 3: %lld",
          off);
    MPI_OK(MPI_File_seek(fh, 2, MPI_SEEK_SET));
    MPI_OK(MPI_File_read(fh, buf, 1, MPI_INT, MPI_STATUS_IGNORE));
    CHECK(buf[0] == mt_rank * 1000 + 2, "seek to etype 2 then read: %d", buf[0]);

    /* the whole file through a byte view */
    MPI_OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    int *all = malloc(sizeof(int) * N * mt_size);
    MPI_OK(MPI_File_read_at(fh, 0, all, N * mt_size, MPI_INT, MPI_STATUS_IGNORE));
    for (int i = 0; i < N * mt_size; i++) {
        CHECK(all[i] == (i % mt_size) * 1000 + i / mt_size, "file int %d: %d", i, all[i]);
    }
    free(all);

    /* get_view gives the view back, a derived filetype as a handle of its own */
    MPI_Offset disp;
    MPI_Datatype et, ft2;
    char rep[MPI_MAX_DATAREP_STRING];
    int ni, na, nd, comb;
    MPI_OK(MPI_File_set_view(fh, 4 * mt_rank, MPI_INT, ft, "native", MPI_INFO_NULL));
    MPI_OK(MPI_Type_free(&ft));
    MPI_OK(MPI_File_get_view(fh, &disp, &et, &ft2, rep));
    CHECK(disp == 4 * mt_rank && et == MPI_INT && strcmp(rep, "native") == 0,
          "get_view: disp %lld, rep %s", disp, rep);
    MPI_OK(MPI_Type_get_envelope(ft2, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_RESIZED, "get_view's filetype: combiner %d", comb);
    MPI_Aint lb, ext;
    MPI_OK(MPI_Type_get_extent(ft2, &lb, &ext));
    CHECK(ext == (MPI_Aint)sizeof(int) * mt_size, "get_view's filetype: extent %ld", (long)ext);
    MPI_OK(MPI_Type_free(&ft2));
    MPI_OK(MPI_File_close(&fh));
}

/* rank 0 alone: a nested filetype with holes */
static void nested(void)
{
    MPI_File fh;
    MPI_Datatype inner, outer;
    int buf[8], raw[32];

    /* inner: ints 0 and 2 of 3; outer: two of them 40 bytes apart -> ints 0,2,10,12 of each
       tile (extent 52 bytes: last int at 48), tiles resized to 64 bytes */
    MPI_OK(MPI_Type_vector(2, 1, 2, MPI_INT, &inner));
    MPI_OK(MPI_Type_create_hvector(2, 1, 40, inner, &outer));
    MPI_Datatype tile;
    MPI_OK(MPI_Type_create_resized(outer, 0, 64, &tile));
    MPI_OK(MPI_Type_commit(&tile));
    MPI_OK(MPI_File_open(MPI_COMM_SELF, io_path("nested"), MPI_MODE_CREATE | MPI_MODE_RDWR,
                         MPI_INFO_NULL, &fh));
    memset(raw, 0xff, sizeof(raw));
    MPI_OK(MPI_File_write_at(fh, 0, raw, 32, MPI_INT, MPI_STATUS_IGNORE));
    MPI_OK(MPI_File_set_view(fh, 0, MPI_INT, tile, "native", MPI_INFO_NULL));
    for (int i = 0; i < 8; i++) {
        buf[i] = i;
    }
    MPI_OK(MPI_File_write(fh, buf, 8, MPI_INT, MPI_STATUS_IGNORE));
    MPI_OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    MPI_OK(MPI_File_read_at(fh, 0, raw, 32, MPI_INT, MPI_STATUS_IGNORE));
    static const int where[8] = {0, 2, 10, 12, 16, 18, 26, 28};
    for (int i = 0, k = 0; i < 32; i++) {
        int exp = k < 8 && where[k] == i ? k++ : -1;
        CHECK(raw[i] == exp, "nested view: file int %d is %d, expected %d", i, raw[i], exp);
    }
    MPI_OK(MPI_Type_free(&inner));
    MPI_OK(MPI_Type_free(&outer));
    MPI_OK(MPI_Type_free(&tile));
    MPI_OK(MPI_File_close(&fh));
}

static void checks(void)
{
    MPI_File fh;
    MPI_Datatype unc, three;
    MPI_OK(MPI_File_open(MPI_COMM_WORLD, io_path("chk"), MPI_MODE_CREATE | MPI_MODE_RDWR,
                         MPI_INFO_NULL, &fh));
    MPI_OK(MPI_Type_contiguous(3, MPI_CHAR, &three));
    MPI_OK(MPI_Type_commit(&three));
    io_expect(MPI_File_set_view(fh, 0, MPI_INT, three, "native", MPI_INFO_NULL), MPI_ERR_TYPE,
              "filetype of 3 bytes, etype int");
    MPI_OK(MPI_Type_contiguous(2, MPI_INT, &unc));
    io_expect(MPI_File_set_view(fh, 0, MPI_INT, unc, "native", MPI_INFO_NULL), MPI_ERR_TYPE,
              "uncommitted filetype");
    io_expect(MPI_File_set_view(fh, -4, MPI_INT, MPI_INT, "native", MPI_INFO_NULL), MPI_ERR_ARG,
              "negative disp");
    io_expect(MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native",
                                MPI_INFO_NULL),
              MPI_ERR_ARG, "MPI_DISPLACEMENT_CURRENT without SEQUENTIAL");
    io_expect(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no-such-rep", MPI_INFO_NULL),
              MPI_ERR_UNSUPPORTED_DATAREP, "unknown representation");
    /* an access that is not whole etypes */
    char c[3] = {0};
    MPI_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    io_expect(MPI_File_write_at(fh, 0, c, 3, MPI_CHAR, MPI_STATUS_IGNORE), MPI_ERR_TYPE,
              "3 bytes through an int view");
    MPI_OK(MPI_Type_free(&unc));
    MPI_OK(MPI_Type_free(&three));
    MPI_OK(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "io_view");
    io_dir_make(MPI_COMM_WORLD);
    interleaved();
    if (mt_rank == 0) {
        nested();
    }
    checks();
    io_dir_remove(MPI_COMM_WORLD);
    return mt_finish();
}
