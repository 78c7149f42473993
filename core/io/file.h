/*
 * file.h -- the MPI-IO file layer: a file every rank opens itself with POSIX calls, its
 * view flattened into runs, its shared file pointer in a sidecar file, and byte-range
 * locks for atomic mode (docs/architecture.md, "MPI-IO").
 *
 * The API layer (core/mpi/file_*_api.c) checks arguments, turns the errno values these
 * functions return (0 or -errno) into MPI error classes and calls the file's error
 * handler; nothing here raises an MPI error.
 *
 * Ownership: io_file_new allocates a compi_file_t and io_file_free frees it with its path,
 * hints, view runs and view datatypes (retained).  fh->comm is a duplicate the API layer
 * makes at open and frees at close; fh->coll_state belongs to collective I/O
 * (core/io/io_coll.h) and is freed by compi_io_coll_close.
 */
#ifndef COMPI_IO_FILE_H
#define COMPI_IO_FILE_H

#include "core/comm/comm.h"
#include "core/dt/dt.h"

#include <mpi.h>
#include <stddef.h>

typedef struct compi_file compi_file_t;

/* one run of a filetype's data: `len` bytes at `off` from the start of its tile */
typedef struct io_run {
    MPI_Offset off;
    MPI_Offset len;
} io_run_t;

/* data representations; a registered one is IO_REP_USER + its index (core/mpi) */
enum { IO_REP_NATIVE, IO_REP_INTERNAL, IO_REP_EXTERNAL32, IO_REP_USER };

/*
 * A view: the filetype tiled from disp, each tile `extent` bytes on, its data the runs.
 * Positions in the view count data bytes (etypes times esize); io_view_map turns a range
 * of them into byte ranges of the file.
 */
typedef struct io_view {
    MPI_Offset disp;
    compi_datatype_t *etype, *filetype; /* retained */
    MPI_Offset esize;                   /* bytes of one etype */
    MPI_Offset tsize;                   /* data bytes in one tile */
    MPI_Offset extent;                  /* a tile's extent */
    size_t nruns;
    io_run_t *runs;
    MPI_Offset *runpos; /* data bytes of the tile before each run */
    int rep;            /* IO_REP_* */
    char rep_name[MPI_MAX_DATAREP_STRING];
} io_view_t;

struct compi_file {
    struct compi_comm *comm; /* a private duplicate of the communicator given to MPI_File_open */
    int fd;                  /* the POSIX descriptor (every rank opens the file itself) */
    int amode;               /* MPI_MODE_* bits */
    int atomic;              /* MPI_File_set_atomicity */
    void *coll_state;        /* owned by collective I/O (core/io/io_coll.h); NULL at open */

    int handle; /* the Fortran handle (MPI_File_c2f) */
    char *path;
    char *side_path; /* the shared file pointer's sidecar, and its descriptor (-1: none) */
    int side_fd;
    io_view_t view;
    MPI_Offset ifp; /* the individual file pointer, in etypes */
    struct compi_errhandler *errh;
    size_t nhints;
    char **hint_keys, **hint_vals;
    /* a split collective begun and not ended: its kind (core/mpi), bytes moved, error */
    int split;
    MPI_Offset split_moved;
    int split_err;
    struct compi_request *split_req; /* its nonblocking collective (NULL: done at _begin) */
};

/* a hint's value as a string (from MPI_File_open's / set_info's / set_view's info), or NULL */
const char *compi_file_hint(const compi_file_t *fh, const char *key);
/* sets (or replaces) a hint; 0 or -ENOMEM */
int io_file_hint_set(compi_file_t *fh, const char *key, const char *val);

/* opens `path` with amode's POSIX flags into a new file object (view: bytes from 0);
   0 or -errno */
int io_file_open(const char *path, int amode, compi_file_t **fh_p);
/* closes the descriptors and frees the object (not fh->comm) */
void io_file_free(compi_file_t *fh);

/* the view of etype and filetype from disp (their runs made from filetype's blocks);
   esize: bytes of an etype in the file; io_view_clear releases the types and runs.
   0 or -ENOMEM */
int io_view_set(io_view_t *v, MPI_Offset disp, compi_datatype_t *etype, compi_datatype_t *filetype,
                MPI_Offset esize);
void io_view_clear(io_view_t *v);
/* the file ranges of view positions [pos, pos + n): *segs_p (malloc'ed, the caller frees)
   gets *nsegs_p ranges, adjacent ones merged; 0 or -ENOMEM */
int io_view_map(const io_view_t *v, MPI_Offset pos, MPI_Offset n, io_run_t **segs_p,
                size_t *nsegs_p);
/* the file offset of view position pos */
MPI_Offset io_view_offset(const io_view_t *v, MPI_Offset pos);

/* pwrite / pread of each range in turn from / into buf (packed); *moved_p gets the bytes
   moved (a read stops at the end of the file); 0 or -errno */
int io_pwrite_runs(int fd, const io_run_t *segs, size_t n, const void *buf, MPI_Offset *moved_p);
int io_pread_runs(int fd, const io_run_t *segs, size_t n, void *buf, MPI_Offset *moved_p);

/* atomic mode: an fcntl lock (write or read) over [off, off + len) of the data file, and
   its release; 0 or -errno */
int io_lock(compi_file_t *fh, MPI_Offset off, MPI_Offset len, int write);
int io_unlock(compi_file_t *fh, MPI_Offset off, MPI_Offset len);

/*
 * The shared file pointer (shfp.c): an MPI_Offset in a sidecar file next to the data
 * file (".<name>.shfp.<id>", id agreed by the ranks at open), read and written under an
 * fcntl write lock, so ranks on hosts that share the directory (NFS too) see one pointer.
 * io_shfp_open: creator set makes it (with 0) before the others open it; io_shfp_remove
 * unlinks it (one rank, at close).  fetch_add: *old_p gets the pointer, which grows by
 * delta; set / get.  All 0 or -errno.
 */
int io_shfp_open(compi_file_t *fh, unsigned long id, int create);
void io_shfp_close(compi_file_t *fh, int remove);
int io_shfp_fetch_add(compi_file_t *fh, MPI_Offset delta, MPI_Offset *old_p);
int io_shfp_set(compi_file_t *fh, MPI_Offset val);
int io_shfp_get(compi_file_t *fh, MPI_Offset *val_p);

#endif
