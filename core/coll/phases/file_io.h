/*
 * file_io.h -- the POSIX side of the collective file algorithms (file-write, file-read:
 * algorithms/file_write/): whole transfers with pread/pwrite, byte-range locks, where a
 * rank's segments fall in a range of the file, and the end of every such collective, an
 * agreement on the error.
 *
 * Ownership: every buffer belongs to the caller.
 */
#ifndef COMPI_COLL_FILE_IO_H
#define COMPI_COLL_FILE_IO_H

#include "core/coll/coll.h"

#include <stdint.h>

/* an aggregator's collective buffer when the closure names none (cb_buffer_size's
   default, as ROMIO's) */
#define COLL_FILE_CB_DEFAULT (16 << 20)

/* len bytes at off; 0 or an errno.  *done_p and *got_p (may be NULL) get the bytes written
   or read before an error; a read stops at the end of the file, and the rest of buf is
   left as it was. */
int coll_file_pwrite(int fd, const void *buf, int64_t len, int64_t off, int64_t *done_p);
int coll_file_pread(int fd, void *buf, int64_t len, int64_t off, int64_t *got_p);

/* an fcntl lock of [off, off + len), waiting for it: F_WRLCK or F_RDLCK; 0 or an errno.
   A file system that has no locks (ENOLCK, EOPNOTSUPP) counts as locked. */
int coll_file_lock(int fd, int type, int64_t off, int64_t len);
void coll_file_unlock(int fd, int64_t off, int64_t len);

/* Where segs[0 .. n) (sorted, not overlapping, packed in that order) meet [lo, hi): the
   packed bytes [*start_p, *start_p + return) hold them (one run: segments are packed in
   file order), and [*first_p, *end_p) are the segments that meet it. */
int64_t coll_file_span(const coll_io_seg_t *segs, size_t n, const int64_t *packed, int64_t lo,
                       int64_t hi, int64_t *start_p, size_t *first_p, size_t *end_p);

/* packed[i]: where segment i starts in the packed buffer; packed[n]: the total */
void coll_file_packed(const coll_io_seg_t *segs, size_t n, int64_t *packed);

/* this rank's own segments, one pread or pwrite each (under a lock of its range in
   atomic mode); an errno (0), io->moved set */
int coll_file_own(coll_io_t *io, int write);

/* The algorithm `direct` (algorithms/file_write/direct.c), blocking or not: this rank's
   own segments read or written when the schedule starts, then the errnos to rank 0 and
   its maximum back to every rank.  The access is done when both are done on this rank;
   io->release (a nonblocking access's) runs when the schedule is freed (io->err is -1
   unless the agreement was reached).  With io->describe: no step, io->aggregators 0. */
struct coll_sched;
void coll_file_direct_sched(const coll_call_t *call, struct coll_sched *s);

#endif
