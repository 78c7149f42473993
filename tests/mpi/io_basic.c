/*
 * io_basic: opening and closing files with MPI-IO.  Access modes and their error classes
 * (bad combinations: MPI_ERR_AMODE; a missing file: _NO_SUCH_FILE; EXCL on an existing
 * one: _FILE_EXISTS; writing a file opened read-only: _READ_ONLY, reading one opened
 * write-only: _ACCESS), DELETE_ON_CLOSE, MPI_File_delete, sizes (set_size, preallocate,
 * get_size), hints in and out (MPI_File_get_info: the collective-buffering hints in effect,
 * cb_nodes and cb_buffer_size as used, not as asked), group, amode, atomicity, error handlers
 * (files default to MPI_ERRORS_RETURN, MPI_FILE_NULL's handler for open and delete, user handlers,
 * call_errhandler), c2f/f2c, and, as root, a full file system (a 64 KiB tmpfs): MPI_ERR_NO_SPACE.
 */
#include "tests/mpi/io_test.h"

#include <sys/mount.h>
#include <sys/stat.h>

static int calls, last_code;
static MPI_File last_file;
/* the handler gets an error code, whose class it keeps */
static void file_handler(MPI_File *fh, int *code, ...)
{
    calls++;
    MPI_Error_class(*code, &last_code);
    last_file = *fh;
}

static void modes(void)
{
    MPI_File fh = MPI_FILE_NULL;
    const char *p = io_path("modes");
    static const int bad[] = {0,
                              MPI_MODE_RDONLY | MPI_MODE_RDWR,
                              MPI_MODE_RDONLY | MPI_MODE_CREATE,
                              MPI_MODE_RDONLY | MPI_MODE_EXCL,
                              MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL,
                              MPI_MODE_WRONLY | 0x10000};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        io_expect(MPI_File_open(MPI_COMM_WORLD, p, bad[i], MPI_INFO_NULL, &fh), MPI_ERR_AMODE,
                  "bad amode");
        CHECK(fh == MPI_FILE_NULL, "a failed open gave a file");
    }
    io_expect(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
              MPI_ERR_NO_SUCH_FILE, "open of a missing file");
    io_expect(MPI_File_delete(p, MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE, "delete of a missing file");
    io_expect(MPI_File_open(MPI_COMM_WORLD, io_path("no/such/dir/f"),
                            MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh),
              MPI_ERR_NO_SUCH_FILE, "create in a missing directory");

    /* EXCL: the first create wins on every rank, the second finds the file */
    MPI_OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR,
                         MPI_INFO_NULL, &fh));
    MPI_OK(MPI_File_close(&fh));
    CHECK(fh == MPI_FILE_NULL, "close did not reset the handle");
    io_expect(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR,
                            MPI_INFO_NULL, &fh),
              MPI_ERR_FILE_EXISTS, "EXCL on an existing file");

    /* read-only and write-only handles */
    int v = 7;
    MPI_OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    io_expect(MPI_File_write_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_READ_ONLY,
              "write to a read-only file");
    io_expect(MPI_File_set_size(fh, 10), MPI_ERR_READ_ONLY, "set_size of a read-only file");
    MPI_OK(MPI_File_close(&fh));
    MPI_OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    io_expect(MPI_File_read_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_ACCESS,
              "read of a write-only file");
    MPI_OK(MPI_File_close(&fh));
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (mt_rank == 0) {
        MPI_OK(MPI_File_delete(p, MPI_INFO_NULL));
    }
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(access(p, F_OK) != 0, "MPI_File_delete left the file");

    /* DELETE_ON_CLOSE */
    p = io_path("doc");
    MPI_OK(MPI_File_open(MPI_COMM_WORLD, p,
                         MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE |
                             MPI_MODE_UNIQUE_OPEN,
                         MPI_INFO_NULL, &fh));
    CHECK(access(p, F_OK) == 0, "the file is not there while open");
    MPI_OK(MPI_File_close(&fh));
    CHECK(access(p, F_OK) != 0, "DELETE_ON_CLOSE left the file");
}

static void queries(void)
{
    MPI_File fh;
    MPI_Info info, used;
    MPI_Offset size = -1;
    MPI_Group g, wg;
    int amode = 0, flag = 0, res;
    char val[64];

    MPI_OK(MPI_Info_create(&info));
    MPI_OK(MPI_Info_set(info, "access_style", "read_once"));
    MPI_OK(MPI_File_open(MPI_COMM_WORLD, io_path("q"), MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
    MPI_OK(MPI_Info_free(&info));
    MPI_OK(MPI_File_get_size(fh, &size));
    CHECK(size == 0, "new file has size %lld", size);
    MPI_OK(MPI_File_set_size(fh, 1000));
    MPI_OK(MPI_File_get_size(fh, &size));
    CHECK(size == 1000, "set_size 1000: size %lld", size);
    MPI_OK(MPI_File_preallocate(fh, 4096));
    MPI_OK(MPI_File_get_size(fh, &size));
    CHECK(size == 4096, "preallocate 4096: size %lld", size);
    MPI_OK(MPI_File_preallocate(fh, 10));
    MPI_OK(MPI_File_get_size(fh, &size));
    CHECK(size == 4096, "preallocate never shrinks: size %lld", size);
    MPI_OK(MPI_File_set_size(fh, 10));
    MPI_OK(MPI_File_get_size(fh, &size));
    CHECK(size == 10, "set_size 10 shrinks: size %lld", size);
    io_expect(MPI_File_set_size(fh, -1), MPI_ERR_ARG, "negative size");

    MPI_OK(MPI_File_get_amode(fh, &amode));
    CHECK(amode == (MPI_MODE_CREATE | MPI_MODE_RDWR), "amode 0x%x", amode);
    MPI_OK(MPI_File_get_group(fh, &g));
    MPI_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    MPI_OK(MPI_Group_compare(g, wg, &res));
    CHECK(res == MPI_IDENT, "the file's group is not the communicator's");
    MPI_OK(MPI_Group_free(&g));
    MPI_OK(MPI_Group_free(&wg));

    MPI_OK(MPI_File_get_info(fh, &used));
    MPI_OK(MPI_Info_get(used, "access_style", sizeof(val) - 1, val, &flag));
    CHECK(flag && strcmp(val, "read_once") == 0, "hint access_style lost");
    MPI_OK(MPI_Info_free(&used));
    MPI_OK(MPI_Info_create(&info));
    MPI_OK(MPI_Info_set(info, "cb_nodes", "1"));
    MPI_OK(MPI_File_set_info(fh, info));
    MPI_OK(MPI_Info_free(&info));
    MPI_OK(MPI_File_get_info(fh, &used));
    MPI_OK(MPI_Info_get(used, "cb_nodes", sizeof(val) - 1, val, &flag));
    CHECK(flag && strcmp(val, "1") == 0, "hint cb_nodes not set");
    MPI_OK(MPI_Info_free(&used));

    MPI_OK(MPI_File_get_atomicity(fh, &flag));
    CHECK(flag == 0, "files start non-atomic");
    MPI_OK(MPI_File_set_atomicity(fh, 1));
    MPI_OK(MPI_File_get_atomicity(fh, &flag));
    CHECK(flag == 1, "set_atomicity 1 lost");
    MPI_OK(MPI_File_sync(fh));

    MPI_Fint f = MPI_File_c2f(fh);
    CHECK(f != 0 && MPI_File_f2c(f) == fh, "c2f/f2c round trip");
    CHECK(MPI_File_c2f(MPI_FILE_NULL) == 0 && MPI_File_f2c(0) == MPI_FILE_NULL, "null file f2c");
    MPI_OK(MPI_File_close(&fh));
}

/* get_info's values of the keys in kv (key, value, ..., NULL) */
static void expect_hints(MPI_File fh, const char *const *kv, const char *when)
{
    MPI_Info used;
    MPI_OK(MPI_File_get_info(fh, &used));
    for (; kv[0] != NULL; kv += 2) {
        char val[MPI_MAX_INFO_VAL + 1] = "";
        int flag = 0;
        MPI_OK(MPI_Info_get(used, kv[0], MPI_MAX_INFO_VAL, val, &flag));
        CHECK(flag && strcmp(val, kv[1]) == 0, "%s: get_info's %s is '%s', expected '%s'", when,
              kv[0], flag ? val : "(none)", kv[1]);
    }
    MPI_OK(MPI_Info_free(&used));
}

static void set_hints(MPI_File fh, const char *const *kv)
{
    MPI_Info info;
    MPI_OK(MPI_Info_create(&info));
    for (; kv[0] != NULL; kv += 2) {
        MPI_OK(MPI_Info_set(info, kv[0], kv[1]));
    }
    MPI_OK(MPI_File_set_info(fh, info));
    MPI_OK(MPI_Info_free(&info));
}

/* MPI_File_get_info gives the collective-buffering hints in effect, as ROMIO does: the
   aggregators the default creator takes (one per host), its buffer, the modes (a read
   on one host: direct) */
static void hints_in_effect(void)
{
    MPI_File fh;
    char name[MPI_MAX_PROCESSOR_NAME] = "", *names, want[32];
    int len, hosts = 0;

    names = calloc((size_t)mt_size, MPI_MAX_PROCESSOR_NAME);
    CHECK(names != NULL, "calloc");
    MPI_OK(MPI_Get_processor_name(name, &len));
    MPI_OK(MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME,
                         MPI_CHAR, MPI_COMM_WORLD));
    for (int q = 0; q < mt_size; q++) {
        int first = 1;
        for (int r = 0; r < q && first; r++) {
            first = strcmp(names + (size_t)r * MPI_MAX_PROCESSOR_NAME,
                           names + (size_t)q * MPI_MAX_PROCESSOR_NAME) != 0;
        }
        hosts += first;
    }
    free(names);

    MPI_OK(MPI_File_open(MPI_COMM_WORLD, io_path("hints"), MPI_MODE_CREATE | MPI_MODE_RDWR,
                         MPI_INFO_NULL, &fh));
    snprintf(want, sizeof(want), "%d", hosts);
    /* on one host a read is direct by default (each rank its own preads) */
    const char *read_mode = hosts == 1 ? "disable" : "automatic";
    /* clang-format off */
    const char *const none[] = {"cb_nodes", want, "cb_buffer_size", "16777216",
                                "romio_cb_write", "automatic", "romio_cb_read", read_mode,
                                "romio_no_indep_rw", "false", NULL};
    /* clang-format on */
    expect_hints(fh, none, "no hints");

    /* what is used, not what was asked: cb_nodes past the ranks gives every rank */
    /* clang-format off */
    static const char *const many[] = {"cb_nodes", "100", "cb_buffer_size", "4096",
                                       "romio_cb_write", "enable", "romio_cb_read", "disable",
                                       NULL};
    /* clang-format on */
    set_hints(fh, many);
    snprintf(want, sizeof(want), "%d", mt_size);
    /* clang-format off */
    const char *const used_many[] = {"cb_nodes", want, "cb_buffer_size", "4096",
                                     "romio_cb_write", "enable", "romio_cb_read", "disable",
                                     NULL};
    /* clang-format on */
    expect_hints(fh, used_many, "cb_nodes 100, cb_buffer_size 4096, romio_cb_* set");

    /* the values hold for the accesses: a collective write and read with them */
    int v = mt_rank + 1, got = 0;
    MPI_OK(MPI_File_write_at_all(fh, (MPI_Offset)mt_rank * 4, &v, 1, MPI_INT, MPI_STATUS_IGNORE));
    MPI_OK(MPI_File_read_at_all(fh, (MPI_Offset)mt_rank * 4, &got, 1, MPI_INT, MPI_STATUS_IGNORE));
    CHECK(got == v, "read back %d, expected %d", got, v);
    MPI_OK(MPI_File_close(&fh));
}

static void handlers(void)
{
    MPI_File fh;
    MPI_Errhandler eh, got;
    int v = 1;

    MPI_OK(MPI_File_get_errhandler(MPI_FILE_NULL, &got));
    CHECK(got == MPI_ERRORS_RETURN, "MPI_FILE_NULL's handler is not MPI_ERRORS_RETURN");
    MPI_OK(MPI_Errhandler_free(&got));
    MPI_OK(MPI_File_open(MPI_COMM_WORLD, io_path("h"), MPI_MODE_CREATE | MPI_MODE_WRONLY,
                         MPI_INFO_NULL, &fh));
    MPI_OK(MPI_File_get_errhandler(fh, &got));
    CHECK(got == MPI_ERRORS_RETURN, "a file's default handler is not MPI_ERRORS_RETURN");
    MPI_OK(MPI_Errhandler_free(&got));

    MPI_OK(MPI_File_create_errhandler(file_handler, &eh));
    MPI_OK(MPI_File_set_errhandler(fh, eh));
    calls = 0;
    io_expect(MPI_File_read_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_ACCESS,
              "read of a write-only file, user handler");
    CHECK(calls == 1 && last_file == fh && last_code == MPI_ERR_ACCESS,
          "user handler: %d calls, code %d", calls, last_code);
    MPI_OK(MPI_File_call_errhandler(fh, MPI_ERR_IO));
    CHECK(calls == 2 && last_code == MPI_ERR_IO, "call_errhandler did not call it");
    MPI_OK(MPI_File_close(&fh));

    /* MPI_FILE_NULL's handler takes the failures of open */
    MPI_OK(MPI_File_set_errhandler(MPI_FILE_NULL, eh));
    calls = 0;
    io_expect(
        MPI_File_open(MPI_COMM_WORLD, io_path("missing"), MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
        MPI_ERR_NO_SUCH_FILE, "open of a missing file, user handler");
    CHECK(calls == 1 && last_file == MPI_FILE_NULL && last_code == MPI_ERR_NO_SUCH_FILE,
          "MPI_FILE_NULL's handler: %d calls", calls);
    MPI_OK(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Errhandler_free(&eh));
}

/* a write that fills a 64 KiB file system: MPI_ERR_NO_SPACE (root only) */
static void full_disk(void)
{
    char *small = strdup(io_path("small"));
    int ok = 0;
    if (mt_rank == 0 && geteuid() == 0 && mkdir(small, 0700) == 0) {
        ok = mount("none", small, "tmpfs", 0, "size=64k") == 0;
    }
    MPI_OK(MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD));
    if (ok && mt_rank == 0) {
        MPI_File fh;
        char path[1100];
        size_t n = 256 * 1024;
        char *buf = calloc(1, n);
        snprintf(path, sizeof(path), "%s/f", small);
        MPI_OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                             &fh));
        io_expect(MPI_File_write_at(fh, 0, buf, (int)n, MPI_BYTE, MPI_STATUS_IGNORE),
                  MPI_ERR_NO_SPACE, "a write past a full file system");
        MPI_OK(MPI_File_close(&fh));
        free(buf);
        CHECK(umount(small) == 0, "umount %s", small);
    }
    if (mt_rank == 0) {
        rmdir(small);
    }
    free(small);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "io_basic");
    io_dir_make(MPI_COMM_WORLD);
    modes();
    queries();
    hints_in_effect();
    handlers();
    full_disk();
    io_dir_remove(MPI_COMM_WORLD);
    return mt_finish();
}
