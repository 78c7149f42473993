/*
 * btl_params.c -- a BTL parameter out of its range is warned about, naming the range, and
 * its default is used, like every run-time parameter: btl_sm_eager_limit 99999999999,
 * btl_sm_cma_chunk -5, btl_self_eager_limit 1 (set here, before MPI_Init).  The
 * program reads its own standard error (sent to a file until MPI_Init returns) and then
 * checks that messages of every size still arrive whole over sm and self.
 */
#include "tests/mpi/mpitest.h"

#include <unistd.h>

static int said(const char *text, const char *name)
{
    const char *p = text;
    while ((p = strstr(p, name)) != NULL) {
        const char *eol = strchr(p, '\n');
        const char *range = strstr(p, "out of range");
        if (range != NULL && (eol == NULL || range < eol)) {
            return 1;
        }
        p++;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static char text[65536];
    setenv("COMPI_MCA_btl_sm_eager_limit", "99999999999", 1);
    setenv("COMPI_MCA_btl_sm_cma_chunk", "-5", 1);
    setenv("COMPI_MCA_btl_self_eager_limit", "1", 1);
    FILE *log = tmpfile();
    int saved = dup(2);
    if (log == NULL || saved < 0 || dup2(fileno(log), 2) < 0) {
        fprintf(stderr, "FAIL btl_params: cannot capture standard error\n");
        return 1;
    }
    mt_init(&argc, &argv, "btl_params");
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(log);
    size_t n = fread(text, 1, sizeof(text) - 1, log);
    text[n] = '\0';
    fclose(log);

    CHECK(said(text, "btl_self_eager_limit"), "no warning for btl_self_eager_limit=1: \"%s\"",
          text);
    int local_peers = 0;
    MPI_Comm node;
    MPI_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    MPI_OK(MPI_Comm_size(node, &local_peers));
    MPI_OK(MPI_Comm_free(&node));
    if (local_peers > 1) {
        CHECK(said(text, "btl_sm_eager_limit"),
              "no warning for btl_sm_eager_limit=99999999999: \"%s\"", text);
        CHECK(said(text, "btl_sm_cma_chunk"), "no warning for btl_sm_cma_chunk=-5: \"%s\"", text);
    }

    /* a ring of 0 B .. 4 MiB messages, and each rank to itself */
    size_t max = 4u << 20;
    unsigned char *sbuf = malloc(max), *rbuf = malloc(max);
    int right = (mt_rank + 1) % mt_size, left = (mt_rank + mt_size - 1) % mt_size;
    for (size_t len = 0; len <= max; len = len ? len * 4 : 1) {
        mt_fill(sbuf, len, mt_rank, (long)len);
        MPI_OK(MPI_Sendrecv(sbuf, (int)len, MPI_BYTE, right, 1, rbuf, (int)len, MPI_BYTE, left, 1,
                            MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (size_t i = 0; i < len; i++) {
            if (rbuf[i] != mt_pattern(left, (long)len, i)) {
                CHECK(0, "%zu bytes from %d: byte %zu wrong", len, left, i);
                break;
            }
        }
    }
    free(sbuf);
    free(rbuf);
    return mt_finish();
}
