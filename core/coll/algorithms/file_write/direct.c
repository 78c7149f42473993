/*
 * file_write/direct.c -- collective file access without collective buffering (file-write
 * and file-read; ROMIO's romio_cb_write=disable): each rank reads or writes its own
 * segments with one pread or pwrite each (under an fcntl lock of its range in atomic
 * mode), then the ranks agree on the error so that every rank returns the same.
 *
 * Cost (a rank with k segments of n bytes in all): k file requests and n bytes of I/O,
 * no exchange; one allreduce of an int at the end.  Its schedule
 * (coll_file_direct_sched) is the nonblocking form of every file algorithm: the I/O at
 * the start, the agreement as rounds.  The choice when each rank's part is
 * a few large blocks of its own; many small interleaved records are what two-phase
 * (two_phase.c) turns into large requests.
 */
#include "core/coll/phases/file_io.h"

static compi_status_t coll_file_direct_fn(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    if (call->io->describe) {
        call->io->aggregators = 0;
        return COMPI_OK;
    }
    return coll_file_direct(call);
}

/* the nonblocking forms (MPI_File_iwrite_all, the split collectives) of every file
   algorithm: this schedule (file_io.h) */
void coll_file_nb_sched(const coll_call_t *call, const coll_params_t *params, struct coll_sched *s)
{
    (void)params;
    coll_file_direct_sched(call, s);
}

const coll_algo_t coll_algo_file_write_direct = {
    .name = "direct",
    .kind = COLL_FILE_WRITE,
    .fn = coll_file_direct_fn,
    .sched = coll_file_nb_sched,
    .help = "each rank writes its own segments (no collective buffering)",
};

const coll_algo_t coll_algo_file_read_direct = {
    .name = "direct",
    .kind = COLL_FILE_READ,
    .fn = coll_file_direct_fn,
    .sched = coll_file_nb_sched,
    .help = "each rank reads its own segments (no collective buffering)",
};
