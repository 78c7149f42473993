/*
 * coll_fallback.c -- collective data access without an exchange: each rank reads or
 * writes its own ranges with pread/pwrite, then the ranks agree on the error class with
 * one reduction over fh->comm.  Correct for any access pattern, not fast for small
 * interleaved pieces; a two-phase implementation of io_coll.h replaces this file.
 */
#include "core/io/io_coll.h"

#include "core/comm/comm_coll.h"

#include <errno.h>

/* the error class of an errno value from a read or write */
static int fallback_class(int err)
{
    switch (err) {
    case 0:
        return MPI_SUCCESS;
    case ENOSPC:
        return MPI_ERR_NO_SPACE;
    case EDQUOT:
        return MPI_ERR_QUOTA;
    case EBADF:
    case EACCES:
    case EPERM:
        return MPI_ERR_ACCESS;
    default:
        return MPI_ERR_IO;
    }
}

/* every rank's class agreed: the largest */
static int fallback_agree(compi_file_t *fh, int cls)
{
    comm_coll_set_t set = comm_coll_whole(fh->comm);
    uint32_t any = 0;
    if (comm_coll_allreduce_max_u32(&set, (uint32_t)cls, &any) != COMPI_OK) {
        return MPI_ERR_IO;
    }
    return (int)any;
}

int compi_io_coll_write(compi_file_t *fh, const compi_io_seg_t *segs, size_t nsegs, const void *buf,
                        MPI_Offset *moved)
{
    COMPI_STATIC_ASSERT(sizeof(compi_io_seg_t) == sizeof(io_run_t), "a segment is a run");
    int rc = io_pwrite_runs(fh->fd, (const io_run_t *)segs, nsegs, buf, moved);
    return fallback_agree(fh, fallback_class(-rc));
}

int compi_io_coll_read(compi_file_t *fh, const compi_io_seg_t *segs, size_t nsegs, void *buf,
                       MPI_Offset *moved)
{
    int rc = io_pread_runs(fh->fd, (const io_run_t *)segs, nsegs, buf, moved);
    return fallback_agree(fh, fallback_class(-rc));
}

void compi_io_coll_close(compi_file_t *fh)
{
    fh->coll_state = NULL;
}
