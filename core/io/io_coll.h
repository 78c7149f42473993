/*
 * io_coll.h -- the interface between the MPI-IO file layer and collective I/O.  The file
 * layer turns each rank's part of a collective access into byte ranges and packed bytes;
 * collective I/O moves them (twophase.c: a collective of the file's communicator, chosen
 * by the creators).
 *
 * Ownership: segs and buf are the caller's (for a nonblocking access, until its done
 * runs); fh->coll_state is collective I/O's.
 */
#ifndef COMPI_IO_COLL_H
#define COMPI_IO_COLL_H

#include "core/io/file.h"
/* one contiguous range of the file, in bytes */
typedef struct compi_io_seg {
    MPI_Offset off;
    MPI_Offset len;
} compi_io_seg_t;
/*
 * One rank's part of a collective data access on fh (MPI_File_write_all, _at_all, the
 * split and nonblocking collectives): nsegs byte ranges of the file in increasing offset
 * order, not overlapping, and buf holding their bytes packed in that order (the sum of
 * the lens; the data representation is already applied).  Collective over fh->comm:
 * every rank calls it, with nsegs 0 when it has nothing to move.  Returns MPI_SUCCESS or
 * an MPI error class, the same class on every rank.  *moved gets the bytes this rank's
 * segments moved (for the status).
 */
int compi_io_coll_write(compi_file_t *fh, const compi_io_seg_t *segs, size_t nsegs, const void *buf,
                        MPI_Offset *moved);
int compi_io_coll_read(compi_file_t *fh, const compi_io_seg_t *segs, size_t nsegs, void *buf,
                       MPI_Offset *moved);
/*
 * The nonblocking form (MPI_File_iwrite_all, iread_at_all, ..., the split collectives):
 * the same access started as a nonblocking collective of fh->comm (the creators see the
 * mode nonblocking), its request in *req_p; the progress engine ends it.  done(arg, cls,
 * moved) runs exactly once, when the access has ended on this rank (cls the agreed class)
 * or failed (cls not MPI_SUCCESS), before the request completes: during this call when
 * it ends at once or cannot start, else in a later progress call.  segs and buf must live
 * until then.  Returns MPI_SUCCESS with a request, or a class and *req_p NULL.
 */
typedef void (*compi_io_done_fn_t)(void *arg, int cls, MPI_Offset moved);
int compi_io_coll_start(compi_file_t *fh, int write, const compi_io_seg_t *segs, size_t nsegs,
                        void *buf, compi_io_done_fn_t done, void *arg,
                        struct compi_request **req_p);
/*
 * What collective access on fh would do now, as MPI_File_get_info reports it: the
 * closure the creators choose for the file's current hints (asked here, locally: no
 * communication, no I/O), for a write (write 1) or a read.  *aggregators: the ranks that
 * do the I/O for all (0: each rank its own, no collective buffering), *cb_bytes their
 * buffer (cb_buffer_size's default without them), *automatic 1 when they do so only when the ranks' ranges interleave.  Returns
 * 0, or -1 when the creators give no answer or one that cannot tell (a Scheme procedure).
 */
int compi_io_coll_in_effect(compi_file_t *fh, int write, int *aggregators, MPI_Offset *cb_bytes,
                            int *automatic);
/* at MPI_File_close (collective), before fh->comm is freed: frees fh->coll_state */
void compi_io_coll_close(compi_file_t *fh);

#endif
