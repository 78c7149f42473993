/*
 * io_datarep: MPI-IO data representations.  "external32": what a write leaves in the
 * file is MPI_Pack_external's output for the same data (ints, doubles, a struct of both),
 * and reading it back gives the data; "internal" round trip; a representation registered
 * with MPI_Register_datarep (ints stored byte-swapped by its conversion functions, its
 * extent function asked by MPI_File_get_type_extent), registering it twice
 * (MPI_ERR_DUP_DATAREP), and the large-count registration.
 */
#include "tests/mpi/io_test.h"

#define N 16

typedef struct {
    int i;
    double d;
} pair_t;

static void external32(MPI_File fh)
{
    pair_t in[N], out[N];
    MPI_Datatype pt;
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {offsetof(pair_t, i), offsetof(pair_t, d)};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
    MPI_OK(MPI_Type_create_struct(2, bl, disp, ty, &pt));
    MPI_OK(MPI_Type_commit(&pt));
    for (int k = 0; k < N; k++) {
        in[k].i = k * 7 - 3;
        in[k].d = k * 0.25 - 1.5;
    }
    MPI_Aint size = 0, pos = 0;
    MPI_OK(MPI_Pack_external_size("external32", N, pt, &size));
    char *packed = malloc((size_t)size), *raw = malloc((size_t)size);
    MPI_OK(MPI_Pack_external("external32", in, N, pt, packed, size, &pos));

    MPI_OK(MPI_File_set_view(fh, 0, pt, pt, "external32", MPI_INFO_NULL));
    MPI_OK(MPI_File_write_at(fh, 0, in, N, pt, MPI_STATUS_IGNORE));
    MPI_Status st;
    int n;
    MPI_OK(MPI_File_read_at(fh, 0, out, N, pt, &st));
    MPI_OK(MPI_Get_count(&st, pt, &n));
    CHECK(n == N, "external32 read: count %d", n);
    for (int k = 0; k < N; k++) {
        CHECK(out[k].i == in[k].i && out[k].d == in[k].d, "external32 element %d", k);
    }
    MPI_Aint ext;
    MPI_OK(MPI_File_get_type_extent(fh, MPI_INT, &ext));
    CHECK(ext == 4, "external32 extent of MPI_INT: %ld", (long)ext);
    MPI_OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    MPI_OK(MPI_File_read_at(fh, 0, raw, (int)size, MPI_BYTE, MPI_STATUS_IGNORE));
    CHECK(memcmp(raw, packed, (size_t)size) == 0, "the file is not MPI_Pack_external's bytes");
    free(packed);
    free(raw);
    MPI_OK(MPI_Type_free(&pt));
}

static void internal(MPI_File fh)
{
    double in[N], out[N];
    for (int k = 0; k < N; k++) {
        in[k] = k * 3.5;
    }
    MPI_OK(MPI_File_set_view(fh, 0, MPI_DOUBLE, MPI_DOUBLE, "internal", MPI_INFO_NULL));
    MPI_OK(MPI_File_write_at(fh, 0, in, N, MPI_DOUBLE, MPI_STATUS_IGNORE));
    MPI_OK(MPI_File_read_at(fh, 0, out, N, MPI_DOUBLE, MPI_STATUS_IGNORE));
    CHECK(memcmp(in, out, sizeof(in)) == 0, "internal round trip");
}

static int conversions, extent_calls;

static void swap4(const void *from, void *to, int n)
{
    const unsigned char *f = from;
    unsigned char *t = to;
    for (int k = 0; k < n; k++) {
        for (int b = 0; b < 4; b++) {
            t[4 * k + b] = f[4 * k + 3 - b];
        }
    }
}

static int swap_write(void *userbuf, MPI_Datatype type, int count, void *filebuf,
                      MPI_Offset position, void *extra)
{
    CHECK(type == MPI_INT && *(int *)extra == 42, "write conversion: type or extra_state");
    swap4((int *)userbuf + position, filebuf, count);
    conversions++;
    return MPI_SUCCESS;
}

static int swap_read(void *userbuf, MPI_Datatype type, int count, void *filebuf,
                     MPI_Offset position, void *extra)
{
    (void)type;
    (void)extra;
    swap4(filebuf, (int *)userbuf + position, count);
    conversions++;
    return MPI_SUCCESS;
}

static int swap_extent(MPI_Datatype type, MPI_Aint *extent, void *extra)
{
    MPI_Aint lb;
    (void)extra;
    extent_calls++;
    return MPI_Type_get_extent(type, &lb, extent);
}

static int extra = 42;

static void registered(MPI_File fh)
{
    int in[N], out[N];
    unsigned char raw[4 * N];
    MPI_OK(MPI_Register_datarep("swap4", swap_read, swap_write, swap_extent, &extra));
    io_expect(MPI_Register_datarep("swap4", swap_read, swap_write, swap_extent, &extra),
              MPI_ERR_DUP_DATAREP, "registering swap4 twice");
    io_expect(MPI_Register_datarep("external32", swap_read, swap_write, swap_extent, &extra),
              MPI_ERR_DUP_DATAREP, "registering external32");
    MPI_OK(MPI_Register_datarep_c("swap4c", MPI_CONVERSION_FN_NULL_C, MPI_CONVERSION_FN_NULL_C,
                                  swap_extent, NULL));
    for (int k = 0; k < N; k++) {
        in[k] = 0x01020304 + k;
    }
    MPI_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "swap4", MPI_INFO_NULL));
    MPI_OK(MPI_File_write_at(fh, 0, in, N, MPI_INT, MPI_STATUS_IGNORE));
    MPI_OK(MPI_File_read_at(fh, 0, out, N, MPI_INT, MPI_STATUS_IGNORE));
    CHECK(memcmp(in, out, sizeof(in)) == 0, "swap4 round trip");
    CHECK(conversions == 2, "conversion functions called %d times", conversions);
    MPI_Aint ext = 0;
    extent_calls = 0;
    MPI_OK(MPI_File_get_type_extent(fh, MPI_DOUBLE, &ext));
    CHECK(ext == 8 && extent_calls == 1, "registered extent of MPI_DOUBLE: %ld", (long)ext);
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_Offset disp;
    MPI_Datatype et, ft;
    MPI_OK(MPI_File_get_view(fh, &disp, &et, &ft, rep));
    CHECK(strcmp(rep, "swap4") == 0, "get_view: representation %s", rep);
    MPI_OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    MPI_OK(MPI_File_read_at(fh, 0, raw, 4 * N, MPI_BYTE, MPI_STATUS_IGNORE));
    CHECK(raw[0] == 0x01 && raw[3] == 0x04, "swap4 stored %02x..%02x", raw[0], raw[3]);
    /* a representation without conversion functions stores memory's bytes */
    MPI_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "swap4c", MPI_INFO_NULL));
    MPI_OK(MPI_File_write_at(fh, 0, in, N, MPI_INT, MPI_STATUS_IGNORE));
    MPI_OK(MPI_File_read_at(fh, 0, out, N, MPI_INT, MPI_STATUS_IGNORE));
    CHECK(memcmp(in, out, sizeof(in)) == 0, "swap4c round trip");
}

int main(int argc, char **argv)
{
    MPI_File fh;
    char name[32];
    mt_init(&argc, &argv, "io_datarep");
    io_dir_make(MPI_COMM_WORLD);
    snprintf(name, sizeof(name), "rep%d", mt_rank);
    MPI_OK(MPI_File_open(MPI_COMM_SELF, io_path(name), MPI_MODE_CREATE | MPI_MODE_RDWR,
                         MPI_INFO_NULL, &fh));
    external32(fh);
    internal(fh);
    registered(fh);
    MPI_OK(MPI_File_close(&fh));
    io_dir_remove(MPI_COMM_WORLD);
    return mt_finish();
}
