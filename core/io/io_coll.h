/*
 * io_coll.h -- the interface between the MPI-IO file layer and collective I/O.  The file
 * layer turns each rank's part of a collective access into byte ranges and packed bytes;
 * collective I/O moves them (coll_fallback.c: each rank its own ranges; a two-phase
 * exchange may replace it with the same three functions).
 *
 * Ownership: segs and buf are the caller's; fh->coll_state is collective I/O's.
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
/* at MPI_File_close (collective), before fh->comm is freed: frees fh->coll_state */
void compi_io_coll_close(compi_file_t *fh);

#endif
