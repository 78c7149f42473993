/*
 * file_write/direct.c -- collective file access without collective buffering (file-write
 * and file-read; ROMIO's romio_cb_write=disable): each rank reads or writes its own
 * segments with one pread or pwrite each (under an fcntl lock of its range in atomic
 * mode), then the ranks agree on the error so that every rank returns the same.
 *
 * Cost (a rank with k segments of n bytes in all): k file requests and n bytes of I/O,
 * no exchange; the errnos to rank 0 and the largest back at the end.  The algorithm is
 * its schedule (coll_file_direct_sched), a blocking access runs it to its end
 * (native_run): the I/O at the start, the agreement as rounds.  The choice when each
 * rank's part is a few large blocks of its own; many small interleaved records are what
 * two-phase (two_phase.c) turns into large requests.
 */
#include "core/coll/phases/file_io.h"

static void file_direct_sched(const coll_call_t *call, const coll_params_t *params,
                              struct coll_sched *s)
{
    (void)params;
    coll_file_direct_sched(call, s);
}

const coll_algo_t coll_algo_file_write_direct = {
    .name = "direct",
    .kind = COLL_FILE_WRITE,
    .sched = file_direct_sched,
    .help = "each rank writes its own segments (no collective buffering)",
};

const coll_algo_t coll_algo_file_read_direct = {
    .name = "direct",
    .kind = COLL_FILE_READ,
    .sched = file_direct_sched,
    .help = "each rank reads its own segments (no collective buffering)",
};
